"""Bad input: every kind gives exit status 2 and exactly one stderr line ``error: ...``.

Each record case starts from a valid record -- a hand-written small round
(``SMALL``) or a whole self-played game -- and breaks one thing. The same
message must come from the API as a typed error (``RecordError``, a
``FiveUpError`` and ``ValueError``).
"""
from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import fiveup_solver
from fiveup_solver import (
    FiveUpError, Game, IllegalMoveError, Move, OptionError, RecordError, Tile,
)
from fiveup_solver.cli import main
from fiveup_solver.record import game_at, load_record, replay
from fiveup_solver.selfplay import play_game

ROOT = Path(__file__).resolve().parent.parent

# A hand-written round, checked by the rules (see test_small_record_is_valid):
# seat 0 opens 2-2; seat 1 puts 2-5 on its lineA; seat 0 fills lineB with 0-2
# (ends 5 + 0 = 5: 5 raw for seat 0); only now may seat 1 open a branch.
SMALL = {
    "format": "fiveup-record/1",
    "players": 2,
    "seats": ["Ann", "Bob"],
    "rounds": [{
        "starter": 0,
        "hands": [["2-2", "0-2", "1-3", "3-3", "0-1"], ["2-5", "2-6", "4-5", "4-6", "5-6"]],
        "boneyard": ["0-0", "0-3", "0-4", "0-5", "0-6", "1-1", "1-2", "1-4", "1-5",
                     "1-6", "2-3", "2-4", "3-4", "3-5", "3-6", "4-4", "5-5", "6-6"],
        "actions": [
            {"seat": 0, "play": "2-2"},
            {"seat": 1, "play": "2-5", "at": "2-2:lineA"},
            {"seat": 0, "play": "0-2", "at": "2-2:lineB"},
            {"seat": 1, "play": "2-6", "at": "2-2:branchA"},
        ],
    }],
}


def small():
    return copy.deepcopy(SMALL)


_GAMES = {}


def game_record(players=2, seed=1):
    """A whole self-played game (cached; callers get a deep copy)."""
    key = (players, seed)
    if key not in _GAMES:
        bots = ["greedy", "random", "random", "greedy"][:players]
        _GAMES[key] = play_game(players, seed, bots).to_record()
    return copy.deepcopy(_GAMES[key])


def find_action(record, pred):
    """(round, action) of the first action with pred(record, r, i, action), else fail."""
    for r, rnd in enumerate(record["rounds"]):
        for i, act in enumerate(rnd["actions"]):
            if pred(record, r, i, act):
                return r, i
    raise AssertionError("the base record has no such action: pick another seed")


def draw_then_play(rec, r, i, act):
    acts = rec["rounds"][r]["actions"]
    return ("draw" in act and i + 1 < len(acts) and "play" in acts[i + 1]
            and acts[i + 1]["seat"] == act["seat"] and acts[i + 1]["play"] == act["draw"])


def other_seat(record, seat):
    return (seat + 1) % record["players"]


# ---------------------------------------------------------------- the cases
# Each builder returns (file bytes or record object, expected message prefix
# after "error: ", words the message must contain).

def c_malformed_json():
    return b'{"format": "fiveup-record/1", "players": 2,', None, ["not valid json"]


def c_truncated_record():
    text = json.dumps(game_record()).encode()
    return text[: len(text) // 2], None, ["not valid json"]


def c_empty_file():
    return b"", None, ["empty"]


def c_blank_file():
    return b" \n\t\n", None, ["empty"]


def c_binary_file():
    return bytes(range(128, 256)) + b"\x00\x01", None, ["utf-8"]


def c_nul_bytes():
    return b"\x00" * 16, None, ["not valid json"]


def c_json_array():
    return b"[1, 2, 3]", None, ["json object", "not an array"]


def c_json_nan():
    return b'{"format": "fiveup-record/1", "players": NaN, "rounds": []}', None, ["nan"]


def c_huge_integer():
    return b'{"format": "fiveup-record/1", "players": ' + b"9" * 5000 + b', "rounds": []}', None, ["json"]


def c_unknown_format():
    rec = small()
    rec["format"] = "fiveup-record/2"
    return rec, "unknown format", ["fiveup-record/2"]


def _missing(key):
    def build():
        rec = small()
        del rec[key]
        return rec, f"missing key '{key}'", [key]
    build.__name__ = f"c_missing_{key}"
    return build


def _missing_round_key(key):
    def build():
        rec = small()
        del rec["rounds"][0][key]
        return rec, f"round 0: missing key '{key}'", [key]
    build.__name__ = f"c_missing_round_{key}"
    return build


def c_missing_action_seat():
    rec = small()
    del rec["rounds"][0]["actions"][2]["seat"]
    return rec, "round 0 action 2: ", ["missing", "seat"]


def _players(value):
    def build():
        rec = small()
        rec["players"] = value
        return rec, "players must be 2, 3 or 4", [repr(value)]
    build.__name__ = f"c_players_{value!r}"
    return build


def c_players_3_with_2_hands():
    rec = small()
    rec["players"] = 3
    # the count given, and "players" named: it may be the field in error (a review)
    return rec, "seats must be a list of 3 names (players is 3), not 2", []


def c_hand_tile_7_1():
    rec = small()
    rec["rounds"][0]["hands"][0][1] = "7-1"
    return rec, "round 0: hand of seat 0: bad tile '7-1'", ["0-6"]


def c_hand_tile_x():
    rec = small()
    rec["rounds"][0]["hands"][1][4] = "x"
    return rec, "round 0: hand of seat 1: bad tile 'x'", []


def c_boneyard_tile_number():
    rec = small()
    rec["rounds"][0]["boneyard"][3] = 5
    return rec, "round 0: boneyard: bad tile 5", []


def c_play_tile_7_1():
    rec = small()
    rec["rounds"][0]["actions"][2]["play"] = "7-1"
    return rec, "round 0 action 2: bad tile '7-1'", []


def c_port_tile_x():
    rec = small()
    rec["rounds"][0]["actions"][1]["at"] = "x:lineA"
    return rec, "round 0 action 1: bad tile 'x'", []


def c_draw_tile_x():
    rec = game_record()
    r, i = find_action(rec, lambda rec, r, i, a: "draw" in a)
    rec["rounds"][r]["actions"][i]["draw"] = "x"
    return rec, f"round {r} action {i}: bad tile 'x'", []


def c_tile_dealt_twice_hands():
    rec = small()
    rec["rounds"][0]["hands"][1][0] = "2-2"
    return rec, "round 0: tile 2-2 dealt twice", ["seat 0", "seat 1"]


def c_tile_dealt_twice_boneyard():
    rec = small()
    rec["rounds"][0]["boneyard"][-1] = "3-1"   # "b-a" is normalised: 1-3 is in seat 0's hand
    return rec, "round 0: tile 1-3 dealt twice (hand of seat 0 tile ", ["and boneyard tile 17)"]


def c_tile_dealt_twice_in_the_boneyard():
    """A review: "(boneyard and boneyard)" named neither place."""
    rec = small()
    rec["rounds"][0]["boneyard"][1] = rec["rounds"][0]["boneyard"][0]
    return rec, "round 0: tile", ["dealt twice (boneyard tile 0 and boneyard tile 1)"]


def c_full_record_draw_null():
    """A review: a full record's hidden draw read "bad tile None"."""
    rec = game_record(3, 2)
    r, i = next((r, i) for r, rnd in enumerate(rec["rounds"]) for i, a in enumerate(rnd["actions"]) if "draw" in a)
    rec["rounds"][r]["actions"][i]["draw"] = None
    return rec, f"round {r} action {i}: the drawn tile is null: a full record names every draw", []


def c_hand_of_four():
    rec = small()
    rec["rounds"][0]["boneyard"].append(rec["rounds"][0]["hands"][0].pop())
    return rec, "round 0: seat 0 was dealt 4 tiles, expected 5", []


def c_hand_of_six():
    rec = small()
    rec["rounds"][0]["hands"][1].append(rec["rounds"][0]["boneyard"].pop())
    return rec, "round 0: seat 1 was dealt 6 tiles, expected 5", []


def c_boneyard_short():
    rec = small()
    rec["rounds"][0]["boneyard"].pop()
    return rec, "round 0: boneyard has 17 tiles, expected 18", []


def c_hands_count():
    rec = small()
    rec["rounds"][0]["hands"].append(["6-6"])
    return rec, "round 0: hands must list 2 hands (players is 2), not 3", []


def c_wrong_seat():
    rec = small()
    rec["rounds"][0]["actions"][1]["seat"] = 0
    return rec, "round 0 action 1: seat 0 acted but seat 1 is to move", []


def c_wrong_seat_in_game():
    rec = game_record(3, 2)
    rnd = rec["rounds"][1]
    act = rnd["actions"][5]
    act["seat"] = other_seat(rec, act["seat"])
    return rec, f"round 1 action 5: seat {act['seat']} acted but seat", ["is to move"]


def c_seat_out_of_range():
    rec = small()
    rec["rounds"][0]["actions"][3]["seat"] = 2
    return rec, "round 0 action 3: seat must be 0..1, not 2", []


def c_starter_out_of_range():
    rec = small()
    rec["rounds"][0]["starter"] = 5
    return rec, "round 0: starter must be a seat 0..1, not 5", []


def c_unknown_action():
    rec = small()
    rec["rounds"][0]["actions"][2] = {"seat": 0, "jump": "0-2"}
    return rec, "round 0 action 2: unknown key 'jump'", ["seat", "play", "draw", "pass"]


def c_action_extra_key():
    rec = small()
    rec["rounds"][0]["actions"][3]["note"] = "hi"
    return rec, "round 0 action 3: unknown key 'note'", []


def c_action_not_object():
    rec = small()
    rec["rounds"][0]["actions"][1] = "2-5@2-2:lineA"
    return rec, "round 0 action 1: unknown action", []


def c_pass_not_true():
    rec = small()
    rec["rounds"][0]["actions"].append({"seat": 0, "pass": 1})
    return rec, "round 0 action 4: pass must be true", []


def c_unknown_port_name():
    rec = small()
    rec["rounds"][0]["actions"][1]["at"] = "2-2:left"
    return rec, "round 0 action 1: bad port '2-2:left'", ["lineA", "branchB"]


def c_double_port_on_single():
    rec = small()
    rec["rounds"][0]["actions"][2]["at"] = "2-5:lineA"
    return rec, "round 0 action 2: bad port '2-5:lineA'", ["low", "high"]


def c_port_without_colon():
    rec = small()
    rec["rounds"][0]["actions"][2]["at"] = "2-2 lineB"
    return rec, "round 0 action 2: bad port", ["TILE:PORT"]


def c_tile_not_in_hand():
    rec = small()
    rec["rounds"][0]["actions"][2]["play"] = "2-6"     # seat 1 holds 2-6
    return rec, "round 0 action 2: tile 2-6 is not in seat 0's hand", []


def c_tile_not_in_any_hand():
    rec = small()
    rec["rounds"][0]["actions"][0]["play"] = "6-6"     # a boneyard tile
    return rec, "round 0 action 0: tile 6-6 is not in seat 0's hand", []


def c_no_match():
    rec = small()
    rec["rounds"][0]["actions"][2] = {"seat": 0, "play": "1-3", "at": "2-5:high"}
    return rec, "round 0 action 2: 1-3 does not match port 2-5:high", ["value 5"]


def c_port_taken():
    rec = small()
    rec["rounds"][0]["actions"][2]["at"] = "2-2:lineA"  # 2-5 is there
    return rec, "round 0 action 2: port 2-2:lineA is already taken", []


def c_target_not_on_board():
    rec = small()
    rec["rounds"][0]["actions"][2]["at"] = "0-1:low"    # 0-1 is still in a hand
    return rec, "round 0 action 2: port 0-1:low: 0-1 is not on the board", []


def c_branch_before_lines_filled():
    rec = small()
    rec["rounds"][0]["actions"][1]["at"] = "2-2:branchA"
    return rec, "round 0 action 1: port 2-2:branchA is not open", ["branch", "both line ports"]


def c_branch_after_one_line():
    rec = small()
    rec["rounds"][0]["actions"][2]["at"] = "2-2:branchB"
    return rec, "round 0 action 2: port 2-2:branchB is not open", ["branch"]


def c_opening_with_port():
    rec = small()
    rec["rounds"][0]["actions"][0]["at"] = "2-2:lineA"
    return rec, "round 0 action 0: nothing is on the board yet", ["opening"]


def c_placement_without_port():
    rec = small()
    del rec["rounds"][0]["actions"][1]["at"]
    return rec, "round 0 action 1: the round is already opened", ["needs a port"]


def c_draw_while_holding_playable():
    rec = small()
    rec["rounds"][0]["actions"][1] = {"seat": 1, "draw": "0-0"}
    return rec, "round 0 action 1: seat 1 cannot draw: it holds a playable tile", []


def c_draw_again_after_playable_draw():
    rec = game_record()
    r, i = find_action(rec, draw_then_play)
    acts = rec["rounds"][r]["actions"]
    seat, nxt = acts[i]["seat"], game_at(rec, r, i + 1).boneyard[0]
    acts[i + 1] = {"seat": seat, "draw": str(nxt)}
    return rec, f"round {r} action {i + 1}: seat {seat} cannot draw: it holds a playable tile", []


def c_draw_not_next_tile():
    rec = game_record()
    r, i = find_action(rec, lambda rec, r, i, a: "draw" in a)
    bone = game_at(rec, r, i).boneyard
    assert len(bone) >= 2 and str(bone[0]) == rec["rounds"][r]["actions"][i]["draw"]
    rec["rounds"][r]["actions"][i]["draw"] = str(bone[1])
    return rec, f"round {r} action {i}: draw {bone[1]} is not the boneyard's next tile ({bone[0]})", []


def c_draw_not_in_boneyard():
    rec = game_record()
    r, i = find_action(rec, lambda rec, r, i, a: "draw" in a)
    played = rec["rounds"][r]["actions"][0]["play"]      # the opening tile: on the board
    rec["rounds"][r]["actions"][i]["draw"] = played
    return rec, f"round {r} action {i}: draw {played} is not the boneyard's next tile", []


def c_pass_while_able_to_play():
    rec = small()
    rec["rounds"][0]["actions"][2] = {"seat": 0, "pass": True}
    return rec, "round 0 action 2: seat 0 cannot pass: it holds a playable tile", []


def c_pass_instead_of_draw():
    rec = game_record()
    r, i = find_action(rec, lambda rec, r, i, a: "draw" in a)
    seat = rec["rounds"][r]["actions"][i]["seat"]
    rec["rounds"][r]["actions"][i] = {"seat": seat, "pass": True}
    return rec, f"round {r} action {i}: seat {seat} cannot pass: the boneyard is not empty", []


def c_play_instead_of_draw():
    rec = game_record()
    r, i = find_action(rec, lambda rec, r, i, a: "draw" in a)
    seat = rec["rounds"][r]["actions"][i]["seat"]
    tile = str(game_at(rec, r, i).hand(seat)[0])
    rec["rounds"][r]["actions"][i] = {"seat": seat, "play": tile, "at": rec["rounds"][r]["actions"][0]["play"] + (
        ":lineA" if Tile.parse(rec["rounds"][r]["actions"][0]["play"]).is_double else ":low")}
    return rec, f"round {r} action {i}: seat {seat} holds no playable tile and must draw", []


def c_action_after_round_ended():
    rec = game_record()
    assert len(rec["rounds"]) >= 2
    acts = rec["rounds"][0]["actions"]
    n = len(acts)
    acts.append({"seat": 0, "pass": True})
    return rec, f"round 0 action {n}: action after the round ended", []


def c_action_after_game_won():
    rec = game_record()
    last = rec["rounds"][-1]["actions"]
    n = len(last)
    r = len(rec["rounds"]) - 1
    last.append(dict(last[-1]))
    return rec, f"round {r} action {n}: action after the round ended", []


def c_round_after_game_won():
    rec = game_record()
    r = len(rec["rounds"])
    extra = copy.deepcopy(rec["rounds"][-1])
    extra["actions"] = []
    rec["rounds"].append(extra)
    return rec, f"round {r}: the game was already won in round {r - 1}", []


def c_round_stops_early():
    rec = game_record()
    del rec["rounds"][0]["actions"][-1]
    return rec, "round 0: actions stop before the round ended", []


def c_wrong_starter_after_domino():
    rec = game_record()
    assert "play" in rec["rounds"][0]["actions"][-1]   # round 0 ended by a domino
    fixed = rec["rounds"][0]["actions"][-1]["seat"]
    rec["rounds"][1]["starter"] = other_seat(rec, fixed)
    return rec, f"round 1: starter must be seat {fixed}", ["emptied"]


def c_seat_view_inconsistent():
    # a seat's view replays on a consistent deal; here seat 0 "holds" 2-5, which seat 1 plays
    rec = fiveup_solver.game_from_record(small()).to_record(view=0)
    rec["rounds"][0]["hands"][0] = ["2-2", "0-2", "1-3", "3-3", "2-5"]
    return rec, "round 0: seat 0's own tiles appear among other seats' placements", []


def c_rounds_not_list():
    rec = small()
    rec["rounds"] = {"0": rec["rounds"][0]}
    return rec, "rounds must be a list", []


def c_round_not_object():
    rec = small()
    rec["rounds"].append([])
    return rec, "round 1: a round is a JSON object", []


def c_rounds_empty():
    rec = small()
    rec["rounds"] = []
    return rec, "rounds is empty", ["first round"]


def c_unknown_top_key():
    # RECORD.md lists format, players, seats, rounds (and view for a seat's view): nothing else
    rec = small()
    rec["event"] = "club night"
    return rec, "unknown key 'event' in the record", ["format", "view"]


def c_unknown_round_key():
    rec = small()
    rec["rounds"][0]["dealer"] = 1
    return rec, "round 0: unknown key 'dealer'", ["starter", "actions"]


def c_revealed_in_full_record():
    # "revealed" belongs to a seat's view (RECORD.md), where the hidden hands are null
    rec = small()
    rec["rounds"][0]["revealed"] = [[], []]
    return rec, "round 0: unknown key 'revealed'", ["view"]


CASES = [
    c_malformed_json, c_truncated_record, c_empty_file, c_blank_file, c_binary_file, c_nul_bytes,
    c_json_array, c_json_nan, c_huge_integer, c_unknown_format,
    _missing("format"), _missing("players"), _missing("rounds"),
    _missing_round_key("starter"), _missing_round_key("hands"), _missing_round_key("boneyard"),
    _missing_round_key("actions"), c_missing_action_seat,
    _players(1), _players(5), _players(0), _players("2"), _players(2.0), _players(True), _players(None),
    c_players_3_with_2_hands,
    c_hand_tile_7_1, c_hand_tile_x, c_boneyard_tile_number, c_play_tile_7_1, c_port_tile_x, c_draw_tile_x,
    c_tile_dealt_twice_hands, c_tile_dealt_twice_boneyard, c_tile_dealt_twice_in_the_boneyard, c_full_record_draw_null,
    c_hand_of_four, c_hand_of_six, c_boneyard_short, c_hands_count,
    c_wrong_seat, c_wrong_seat_in_game, c_seat_out_of_range, c_starter_out_of_range,
    c_unknown_action, c_action_extra_key, c_action_not_object, c_pass_not_true,
    c_unknown_port_name, c_double_port_on_single, c_port_without_colon,
    c_tile_not_in_hand, c_tile_not_in_any_hand,
    c_no_match, c_port_taken, c_target_not_on_board, c_branch_before_lines_filled, c_branch_after_one_line,
    c_opening_with_port, c_placement_without_port,
    c_draw_while_holding_playable, c_draw_again_after_playable_draw, c_draw_not_next_tile,
    c_draw_not_in_boneyard, c_pass_while_able_to_play, c_pass_instead_of_draw, c_play_instead_of_draw,
    c_action_after_round_ended, c_action_after_game_won, c_round_after_game_won, c_round_stops_early,
    c_wrong_starter_after_domino, c_seat_view_inconsistent, c_rounds_not_list, c_round_not_object,
    c_rounds_empty, c_unknown_top_key, c_unknown_round_key, c_revealed_in_full_record,
]
IDS = [c.__name__[2:] for c in CASES]


def payload_bytes(payload) -> bytes:
    return payload if isinstance(payload, bytes) else json.dumps(payload).encode("utf-8")


def check_one_error_line(err: str, prefix: str | None, words) -> str:
    """err is exactly one line 'error: ...' starting with the expected text; returns the message."""
    assert "Traceback" not in err
    assert err.endswith("\n") and err.count("\n") == 1, repr(err)
    assert len(err.splitlines()) == 1, repr(err)
    assert err.startswith("error: "), repr(err)
    message = err[len("error: "):-1]
    if prefix is not None:
        assert message.startswith(prefix), (message, prefix)
    for w in words:
        assert w.lower() in message.lower(), (w, message)
    return message


# ---------------------------------------------------------------- tests

def test_small_record_is_valid():
    result = replay(small())
    assert result["scores"] == [5, 0]
    assert result["rounds"] == [{"end": "unfinished"}]
    assert [(e["action"], e["kind"], e["raw"]) for e in result["events"]] == [(2, "placement", 5)]


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 1)])
def test_base_games_are_valid(players, seed):
    rec = game_record(players, seed)
    assert len(rec["rounds"]) >= 2
    assert replay(rec)["winner"] is not None


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_bad_record_cli(case, tmp_path, capsys):
    payload, prefix, words = case()
    path = tmp_path / "bad.json"
    path.write_bytes(payload_bytes(payload))
    for argv in (["replay", str(path)], ["replay", str(path), "--json"],
                 ["perft", str(path), "--round", "0", "--depth", "1"]):
        rc = main(argv)
        out, err = capsys.readouterr()
        assert rc == 2, (argv, out, err)
        assert out == ""
        # every fault names the file first, a fault of the record's content too (a review:
        # "missing key 'format'" did not say in which file)
        assert err.startswith(f"error: {path}: "), err
        check_one_error_line("error: " + err[len(f"error: {path}: "):], None if isinstance(payload, bytes) else prefix,
                             words)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_bad_record_api(case, tmp_path, capsys):
    """The API raises RecordError carrying the message the CLI prints."""
    payload, prefix, words = case()
    path = tmp_path / "bad.json"
    path.write_bytes(payload_bytes(payload))
    assert main(["replay", str(path)]) == 2
    cli_message = capsys.readouterr().err[len("error: "):-1]
    with pytest.raises(RecordError) as info:
        if isinstance(payload, bytes):
            load_record(path)
        else:
            replay(payload)
    assert isinstance(info.value, FiveUpError) and isinstance(info.value, ValueError)
    # the file's name before the API's message: load_record names it, replay has no file
    assert cli_message == (str(info.value) if isinstance(payload, bytes) else f"{path}: {info.value}")
    assert "\n" not in str(info.value)
    if not isinstance(payload, bytes):
        assert str(info.value).startswith(prefix)


# ---------------------------------------------------------------- real subprocesses

def run_cli(*args, cwd=None):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "fiveup_solver.cli", *args], capture_output=True,
                          text=True, env=env, cwd=cwd or ROOT, timeout=120)


SUBPROCESS_CASES = [c_malformed_json, c_binary_file, c_wrong_seat, c_branch_before_lines_filled,
                    c_draw_not_next_tile, c_round_after_game_won, c_hand_tile_7_1, _players(5)]


@pytest.mark.parametrize("case", SUBPROCESS_CASES, ids=[c.__name__[2:] for c in SUBPROCESS_CASES])
def test_bad_record_subprocess(case, tmp_path):
    payload, prefix, words = case()
    path = tmp_path / "bad.json"
    path.write_bytes(payload_bytes(payload))
    proc = run_cli("replay", str(path))
    assert proc.returncode == 2, proc
    assert proc.stdout == ""
    assert proc.stderr.startswith(f"error: {path}: "), proc.stderr      # the file named first
    check_one_error_line("error: " + proc.stderr[len(f"error: {path}: "):],
                         None if isinstance(payload, bytes) else prefix, words)


@pytest.mark.parametrize("args,words", [
    (["frobnicate"], ["invalid choice", "frobnicate"]),
    (["selfplay", "--players", "5"], ["players", "5"]),
    (["demo", "--bots", "wizard"], ["unknown bot", "wizard"]),
    (["perft", "/nonexistent/record.json", "--round", "0", "--depth", "1"], ["cannot read"]),
    (["bench", "--seed", "-1", "--rounds", "1", "--reference-rounds", "1"], ["seed"]),
])
def test_bad_options_subprocess(args, words):
    proc = run_cli(*args)
    assert proc.returncode == 2, proc
    assert proc.stdout == ""
    check_one_error_line(proc.stderr, None, words)


# ---------------------------------------------------------------- bad options, in process

@pytest.fixture(scope="module")
def good_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("rec") / "game.json"
    path.write_text(json.dumps(game_record()))
    return path


def option_cases(good):
    rec = game_record()
    n_rounds = len(rec["rounds"])
    n0 = len(rec["rounds"][0]["actions"])
    return [
        ("unknown_command", ["frobnicate"], ["invalid choice", "frobnicate"]),
        ("no_command", [], ["command is required"]),
        ("unknown_option", ["demo", "--colour"], ["unrecognized", "--colour"]),
        ("demo_players_5", ["demo", "--players", "5"], ["players", "5"]),
        ("demo_players_1", ["demo", "--players", "1"], ["players", "1"]),
        ("demo_players_text", ["demo", "--players", "two"], ["players", "two"]),
        ("selfplay_players_5", ["selfplay", "--players", "5"], ["players", "5"]),
        ("selfplay_players_1", ["selfplay", "--players", "1"], ["players", "1"]),
        ("selfplay_games_negative", ["selfplay", "--games", "-1"], ["games", "-1"]),
        ("selfplay_max_rounds_0", ["selfplay", "--max-rounds", "0"], ["max-rounds", "0"]),
        ("selfplay_bad_out", ["selfplay", "--out", str(good.parent / "no" / "such" / "dir.jsonl")],
         ["cannot write"]),
        ("demo_unknown_bot", ["demo", "--bots", "wizard"], ["unknown bot", "wizard"]),
        ("selfplay_unknown_bot", ["selfplay", "--bots", "random,wizard"], ["unknown bot", "wizard"]),
        ("empty_bot_name", ["demo", "--bots", "greedy,"], ["unknown bot"]),
        ("too_many_bots", ["demo", "--bots", "greedy,random,greedy"], ["3 bots", "2 seats"]),
        ("perft_negative_depth", ["perft", str(good), "--round", "0", "--depth", "-1"], ["depth", "-1"]),
        ("perft_huge_depth", ["perft", str(good), "--round", "0", "--depth", str(10 ** 12)], ["depth"]),
        ("perft_missing_round", ["perft", str(good), "--depth", "1"], ["--round"]),
        ("perft_missing_file", ["perft", str(good.parent / "missing.json"), "--round", "0", "--depth", "1"],
         ["missing.json", "cannot read"]),
        ("replay_missing_file", ["replay", str(good.parent / "missing.json")], ["missing.json", "cannot read"]),
        ("replay_directory", ["replay", str(good.parent)], ["cannot read"]),
        ("perft_directory", ["perft", str(good.parent), "--round", "0", "--depth", "1"], ["cannot read"]),
        ("perft_round_too_big", ["perft", str(good), "--round", str(n_rounds), "--depth", "1"],
         [f"round {n_rounds}", "not in the record", f"{n_rounds} rounds"]),
        ("perft_round_negative", ["perft", str(good), "--round", "-1", "--depth", "1"], ["round -1"]),
        ("perft_action_too_big", ["perft", str(good), "--round", "0", "--action", str(n0 + 1), "--depth", "1"],
         [f"round 0: action {n0 + 1}", f"0..{n0}"]),
        ("perft_action_negative", ["perft", str(good), "--round", "0", "--action", "-1", "--depth", "1"],
         ["action -1"]),
        ("bench_zero_rounds", ["bench", "--rounds", "0"], ["rounds"]),
        ("bench_huge_rounds", ["bench", "--rounds", str(10 ** 25), "--reference-rounds", "1"], ["rounds"]),
        ("bench_negative_seed", ["bench", "--seed", "-1", "--rounds", "1", "--reference-rounds", "1"],
         ["seed"]),
        # a progress line every 0 pairs was a ZeroDivisionError traceback
        ("sprt_every_0", ["sprt", "--bots", "greedy,random", "--every", "0"], ["--every", "0"]),
        # --hint was silently dropped: only the solver's benchmark ran
        ("bench_solver_and_hint", ["bench", "--solver", "--hint"], ["--solver", "--hint", "not both"]),
        ("sprt_every_negative", ["sprt", "--bots", "greedy,random", "--every", "-3"], ["--every", "-3"]),
    ]


OPTION_IDS = [c[0] for c in option_cases(Path("/x/y.json"))]


@pytest.mark.parametrize("index", range(len(OPTION_IDS)), ids=OPTION_IDS)
def test_bad_options(index, good_file, capsys):
    name, argv, words = option_cases(good_file)[index]
    rc = main(argv)
    out, err = capsys.readouterr()
    assert rc == 2, (argv, out, err)
    assert out == ""
    check_one_error_line(err, None, words)


def test_good_file_perft_works(good_file, capsys):
    """The option cases above fail only for the named reason: the same file works."""
    assert main(["perft", str(good_file), "--round", "0", "--depth", "1"]) == 0
    assert int(capsys.readouterr().out) > 0


# ---------------------------------------------------------------- the typed errors of the API

def test_error_hierarchy():
    for cls in (fiveup_solver.RecordError, fiveup_solver.IllegalMoveError, fiveup_solver.ParseError,
                fiveup_solver.OptionError):
        assert issubclass(cls, FiveUpError) and issubclass(cls, ValueError)


def _first_observation():
    g = Game(players=2, seed=1)
    return g.observation(g.to_move)


API_ERRORS = [
    (lambda: Game(players=5), OptionError, ["players", "5"]),
    (lambda: Game(players=1), OptionError, ["players"]),
    (lambda: Game(players="2"), OptionError, ["players"]),
    (lambda: Game(players=2, seed="x"), OptionError, ["seed"]),
    (lambda: fiveup_solver.bots.parse_bot_list("wizard", 2), OptionError, ["unknown bot"]),
    (lambda: Game(players=2, seed=1).hand(2), OptionError, ["seat"]),
    (lambda: Game(players=2, seed=1).observation(-1), OptionError, ["seat"]),
    (lambda: Game(players=2, seed=1).pop(), IllegalMoveError, ["nothing to undo"]),
    (lambda: Game(players=2, deal=False).push(Move.pass_()), IllegalMoveError, ["no round"]),
    (lambda: Game(players=2, seed=1).push("pass"), IllegalMoveError, ["push takes a Move, not the text 'pass'"]),
    (lambda: Game(players=2, seed=1).push(3), IllegalMoveError, ["not a move"]),
    (lambda: Game(players=2, seed=1).push(Move("jump")), IllegalMoveError, ["jump"]),
    (lambda: Game(players=2, seed=1).push(Move("play", "1-4")), IllegalMoveError, ["malformed"]),
    (lambda: game_at(small(), 1, 0), RecordError, ["round 1"]),
    (lambda: game_at(small(), 0, 5), RecordError, ["action 5"]),
    (lambda: game_at(small(), "0", 0), RecordError, ["round"]),
    (lambda: fiveup_solver.parse_tile("7-1"), fiveup_solver.ParseError, ["7-1"]),
    (lambda: fiveup_solver.parse_port("1-4:lineA"), fiveup_solver.ParseError, ["low", "high"]),
    (lambda: fiveup_solver.record.check_record([]), RecordError, ["json object"]),
    # a view of a seat that does not exist was written out (every hand hidden, "view": 9)
    (lambda: Game(players=2, seed=1).to_record(view=2), OptionError, ["view", "0..1", "2"]),
    # a start score no game can reach (credits are rounded to 5) was taken
    (lambda: Game(players=2, seed=1, scores=[3, 0]), OptionError, ["multiples of 5", "[3, 0]"]),
    # a score below 0 needs a partner's pips (RULES §3.3, D4): with 2 or 3 players no game has it
    (lambda: Game(players=2, seed=1, scores=[-5, 0]), OptionError, ["below 0", "4 players", "[-5, 0]"]),
    (lambda: Game(players=3, seed=1, scores=[0, 0, -10]), OptionError, ["below 0", "[0, 0, -10]"]),
    (lambda: fiveup_solver.equity.win_probabilities(2, [-5, 0]), OptionError, ["side 0's score", "-5", "below 0"]),
    (lambda: Game(players=3, seed=1).to_record(view=-1), OptionError, ["view", "0..2", "-1"]),
    (lambda: Game(players=2, seed=1).to_record(view="0"), OptionError, ["view"]),
    # a bot's generator that is not a random.Random was an AttributeError from inside the bot
    (lambda: fiveup_solver.bots.choose("greedy", _first_observation(), None), OptionError, ["rng", "NoneType"]),
    (lambda: fiveup_solver.bots.choose("random", _first_observation(), 7), OptionError, ["rng", "int"]),
    # a record object instead of a path was a TypeError from pathlib
    (lambda: load_record(small()), RecordError, ["file path", "dict"]),
    (lambda: load_record(None), RecordError, ["file path", "NoneType"]),
    # a value before the deal (deal luck): the game it deals checks players, scores and starter
    (lambda: fiveup_solver.hint.deal_value(5, [0, 0], 0), OptionError, ["players", "2, 3 or 4", "5"]),
    (lambda: fiveup_solver.hint.deal_value(2, [0, 0], 2), OptionError, ["seat", "0..1", "2"]),
    (lambda: fiveup_solver.hint.deal_value(2, [0, 0], True), OptionError, ["seat", "True"]),
    (lambda: fiveup_solver.hint.deal_value(2, [3, 0], 0), OptionError, ["multiples of 5", "[3, 0]"]),
    # a review: scores were list()-ed first (an int: TypeError; a dict: valued by its keys)
    (lambda: fiveup_solver.hint.deal_value(2, 0, 0), OptionError, ["scores", "2 integers"]),
    (lambda: fiveup_solver.hint.deal_value(2, {0: 250, 5: 0}, 0), OptionError, ["scores", "2 integers"]),
    (lambda: fiveup_solver.hint.deal_value(2, [0, 0], 0, budget={"samples": 2}), OptionError,
     ["budget", "SearchBudget", "dict"]),
    (lambda: fiveup_solver.hint.position_value(_first_observation(), budget={"samples": 2}), OptionError,
     ["budget", "SearchBudget", "dict"]),
    (lambda: fiveup_solver.hint.deal_value(2, [0, 0], 0, samples=None), OptionError, ["samples", "not None"]),
    (lambda: fiveup_solver.hint.deal_value(2, [0, 0], 0, starter=2), OptionError, ["starter", "2"]),
    (lambda: fiveup_solver.hint.deal_value(2, [0, 0], 0, samples=0), OptionError, ["samples"]),
    (lambda: fiveup_solver.hint.deal_value(2, [0, 0], 0, past=[]), OptionError, ["past", "evidence"]),
    (lambda: fiveup_solver.hint.deal_value(2, [0, 0], 0, budget=fiveup_solver.hint.SearchBudget(samples=None, time_ms=50)),
     OptionError, ["deal value", "samples", "not a time budget"]),
]


@pytest.mark.parametrize("call,cls,words", API_ERRORS, ids=[f"{c.__name__}-{'-'.join(w)}" for _, c, w in API_ERRORS])
def test_api_typed_errors(call, cls, words):
    with pytest.raises(cls) as info:
        call()
    message = str(info.value)
    assert "\n" not in message
    for w in words:
        assert w.lower() in message.lower()


@pytest.mark.parametrize("kind,words", [
    ("too few hands", ["hands"]),
    ("duplicate", ["28 tiles"]),
    ("not tiles", ["Tile"]),
    ("long boneyard", ["boneyard"]),
])
def test_start_round_rejects_bad_deals(kind, words):
    """The API's own deals are checked before they reach the C core (no crash, typed error)."""
    tiles = list(fiveup_solver.ALL_TILES)
    good_hands, good_bone = [tiles[0:5], tiles[5:10]], tiles[10:]
    deal = {
        "too few hands": ([tiles[0:5]], tiles[5:]),
        "duplicate": ([tiles[0:5], tiles[0:5]], tiles[10:]),
        "not tiles": ([[t.index for t in tiles[0:5]], tiles[5:10]], tiles[10:]),
        "long boneyard": (good_hands, good_bone + good_bone * 3),
    }[kind]
    g = Game(players=2, deal=False)
    with pytest.raises(IllegalMoveError) as info:
        g.start_round(deal[0], deal[1], 0)
    for w in words:
        assert w.lower() in str(info.value).lower()
    assert not g.rounds
    g.start_round(good_hands, good_bone, 0)       # the same game accepts a good deal
    assert g.to_move == 0


@pytest.mark.parametrize("scores", [[-10 ** 6, 0], [-40000, 0], [True, 0], [305, 0], [0, 0, 0], [0], ["0", 0],
                                    [3, 0], [290, 151],    # every raw credit is a multiple of 5 (RULES §4, §5)
                                    [-300, 300]])          # below 0: only a partner's pips (D4, 4 players)
def test_start_round_rejects_bad_scores(scores):
    """Start scores of an analysis position: typed error, never an OverflowError from the core."""
    tiles = list(fiveup_solver.ALL_TILES)
    g = Game(players=2, deal=False)
    with pytest.raises(IllegalMoveError) as info:
        g.start_round([tiles[0:5], tiles[5:10]], tiles[10:], 0, scores=scores)
    assert "scores" in str(info.value)
    assert not g.rounds
    g.start_round([tiles[0:5], tiles[5:10]], tiles[10:], 0, scores=[0, 300])
    assert g.scores == [0, 300]
    g4 = Game(players=4, deal=False)
    g4.start_round([tiles[0:5], tiles[5:10], tiles[10:15], tiles[15:20]], tiles[20:], 0, scores=[-300, 300])
    assert g4.scores == [-300, 300]


def test_a_view_without_a_finished_rounds_revealed_hands_is_refused():
    """RECORD.md: each round of a seat's view ends with "revealed". Without it a view
    replayed with the hands' pips guessed: a domino scored +30 instead of +20, silently.
    Only an unfinished last round may lack it."""
    import copy
    from fiveup_solver.record import check_record, replay
    from fiveup_solver.selfplay import play_game
    g = play_game(2, 5, ["greedy", "random"])
    view = g.to_record(view=0)
    assert len(view["rounds"]) > 2 and replay(view)["scores"] == g.scores
    for r in (1, len(view["rounds"]) - 1):
        bad = copy.deepcopy(view)
        bad["rounds"][r].pop("revealed")
        with pytest.raises(RecordError, match=f"round {r}: a seat's view ends every finished round with 'revealed'"):
            replay(check_record(bad))
    unfinished = copy.deepcopy(view)
    last = unfinished["rounds"][-1]
    last.pop("revealed")
    del last["actions"][-3:]
    assert check_record(unfinished)["rounds"][-1]["actions"] == last["actions"]


def test_the_seat_and_round_end_formatters_refuse_what_they_cannot_say():
    """notation.format_seat and format_round_end (new public formatters): a typed one-line
    error for a seat out of range or a malformed round end, never IndexError or KeyError."""
    from fiveup_solver.errors import ParseError
    from fiveup_solver.notation import format_round_end, format_seat
    for args in ((5, ["a"]), ("x", None), (-1, None), (True, None)):
        with pytest.raises(ParseError, match="a seat is a number"):
            format_seat(*args)
    for end in ({}, "x", {"end": "domino"}, {"end": "blocked"}, {"end": "magic"}, None):
        with pytest.raises(ParseError, match="a round's end"):
            format_round_end(end)
    assert format_round_end({"end": "blocked", "winner": 1}) == "blocked, side 1 held the lightest hand"


def test_an_opening_written_with_at_null_is_the_opening():
    """RECORD.md: a `play` without `at` is the opening; the spec's own examples write it as
    `"at": null`, which the reader refused ("bad port None"). It is read as the opening;
    a later play with `"at": null` is an opening out of turn, refused naming its action."""
    with_null = copy.deepcopy(SMALL)
    with_null["rounds"][0]["actions"][0]["at"] = None
    assert replay(with_null) == replay(SMALL)
    later = copy.deepcopy(SMALL)
    later["rounds"][0]["actions"][1]["at"] = None
    with pytest.raises(RecordError, match=r"^round 0 action 1: "):
        replay(later)


def test_a_record_field_is_not_renamed_as_an_option(tmp_path, capsys):
    """A review: a record whose action names seat 5 was reported by analyze and hint as
    "round 0 action 3: --seat must be 0..1, not 5", as if the user's option were wrong
    (replay said "seat"). A record's errors keep the record's names."""
    bad = small()
    bad["rounds"][0]["actions"][3]["seat"] = 5
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    for argv in (["replay", str(path)], ["analyze", str(path)], ["hint", str(path), "--seat", "0"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err == f"error: {path}: round 0 action 3: seat must be 0..1, not 5\n", argv


@pytest.mark.parametrize("name", ["Bob\nround 0 action 0 seat 0 (Ann): blunder", "Bob\x1b[31m", "Bob\rx", "\x85"])
def test_a_seat_name_with_a_control_character_is_refused(name, tmp_path, capsys):
    """A review: a seat name holding a newline printed raw in the analysis report, where a
    crafted record added a fake "blunder" line for another seat. Names are printed in
    reports and tables: a control character (or line separator) in one is refused."""
    bad = small()
    bad["seats"] = ["Ann", name]
    with pytest.raises(RecordError, match=r"^seats\[1\] .*: a name may not hold a control character"):
        replay(bad)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    assert main(["analyze", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}: seats[1] ") and err.count("\n") == 1
    with pytest.raises(OptionError, match=r"^seats\[1\] .*: a name may not hold a control character"):
        Game(players=2, seats=["Ann", name])
    Game(players=2, seats=["Ann", "Bøb ★ ☃"])                     # any other text is a name


@pytest.mark.parametrize("name, fault", [
    ("\ud800", r"a name must be Unicode text, not hold a lone surrogate \('\\ud800'\)"),
    ("Bob\u202e", r"a name may not hold a bidirectional control \('\\u202e'\): it reorders the text after it"),
    ("\u2067Bob", r"a name may not hold a bidirectional control \('\\u2067'\): it reorders the text after it"),
    ("B" * 101, r"a name is at most 100 characters, not 101"),
    # a table row or report line naming no one (left out by the last session's note)
    ("", r"a name must show at least one character: '' shows none"),
    ("   ", r"a name must show at least one character: '   ' shows none"),
    ("\u200b\u2060", r"a name must show at least one character: '\\u200b\\u2060' shows none"),
])
def test_a_seat_name_that_cannot_be_printed_is_refused(name, fault, tmp_path, capsys):
    """A review of the browser app: a seat name "\\ud800" (valid JSON as an escape) was
    accepted for analysis, and every answer holding it was a 500 (no UTF-8 encodes it); a
    right-to-left override printed the rest of each analysis line backwards, and a name of
    200,000 characters was printed on every action. Each is refused as a record's field."""
    bad = small()
    bad["seats"] = ["Ann", name]
    with pytest.raises(RecordError, match=rf"^seats\[1\] .*: {fault}$"):
        replay(bad)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))         # ensure_ascii: the surrogate is written as its escape
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}: seats[1] ") and err.count("\n") == 1
    with pytest.raises(OptionError, match=rf"^seats\[1\] .*: {fault}$"):
        Game(players=2, seats=["Ann", name])
    Game(players=2, seats=["Ann", "B" * 100])                      # 100 characters are a name
    Game(players=2, seats=["Ann", "\u05d3\u05e0\u05d9 \u0639\u0644\u064a"])   # right-to-left text is a name
    Game(players=2, seats=["Ann", "\U0001f469\u200d\U0001f4bb"])     # a joiner inside a name that shows is kept


def test_a_record_whose_seat_name_is_a_lone_surrogate_is_a_4xx_in_the_browser_app():
    pytest.importorskip("fastapi", reason="the serve extra is part of the test extra")
    from fastapi.testclient import TestClient
    from fiveup_solver import serve
    bad = small()
    bad["seats"] = ["Ann", "\ud800"]
    with TestClient(serve.create_app(), base_url="http://127.0.0.1:8061", raise_server_exceptions=False) as client:
        for url, body in (("/api/analyses", {"record": bad}), ("/api/position", {"record": bad, "round": 0, "action": 0})):
            r = client.post(url, content=json.dumps(body), headers={"content-type": "application/json"})
            assert 400 <= r.status_code < 500, (url, r.status_code, r.text[:200])
            assert r.json()["error"].startswith("seats[1] '\\ud800': a name must be Unicode text"), r.text


def _view_record():
    game = play_game(2, 5, ["greedy", "greedy"], max_rounds=1)
    return game.to_record(view=0)


def test_a_views_own_play_of_a_tile_it_does_not_hold_names_its_action():
    """A review: the error named the round only; RECORD.md asks for the round and action."""
    rec = _view_record()
    actions = rec["rounds"][0]["actions"]
    mine = next(i for i, a in enumerate(actions) if a["seat"] == 0 and "play" in a)
    theirs = next(a["play"] for a in actions if a["seat"] == 1 and "play" in a)
    actions[mine] = {**actions[mine], "play": theirs}
    with pytest.raises(RecordError, match=rf"^round 0 action {mine}: seat 0 plays {theirs}, which it does not hold$"):
        replay(rec)


def test_a_views_revealed_hands_hold_each_tile_once():
    """A review: a revealed hand of ["0-0", "0-0", "0-0"] for a seat left with one tile was
    accepted (the sampler read it as a set)."""
    rec = _view_record()
    rnd = rec["rounds"][0]
    left = next(s for s, h in enumerate(rnd["revealed"]) if h)
    tile = rnd["revealed"][left][0]
    twice = copy.deepcopy(rec)
    twice["rounds"][0]["revealed"][left] = [tile] * 3
    with pytest.raises(RecordError, match=rf"^round 0: revealed hand of seat {left} holds {tile} twice$"):
        replay(twice)
    other = 1 - left
    shared = copy.deepcopy(rec)
    shared["rounds"][0]["revealed"][other] = shared["rounds"][0]["revealed"][other] + [tile]
    first, second = sorted((left, other))
    with pytest.raises(RecordError, match=rf"revealed hand of seat {second} holds {tile} and seat {first}'s too$"):
        replay(shared)
    replay(rec)                                  # the view as written replays


def test_a_views_revealed_hand_holding_a_placed_tile_names_revealed():
    """A review: a revealed hand holding a tile on the board was refused as "no deal of the
    hidden tiles fits seat 0's observation", which names nothing to fix."""
    rec = _view_record()
    rnd = rec["rounds"][0]
    left = next(s for s, h in enumerate(rnd["revealed"]) if h and s != rec["view"])
    placed = next(a["play"] for a in rnd["actions"] if "play" in a)
    tile = placed.split(":")[0] if ":" in placed else placed
    rnd["revealed"][left][0] = tile
    with pytest.raises(RecordError, match=rf"^round 0: seat {left}'s revealed hand holds {tile}, which is on the board$"):
        replay(rec)


def test_a_record_built_in_python_with_numpy_values_names_where():
    """A review: a record filled from a numpy array read "round 0: starter must be a seat
    0..1, not np.int64(0)": the value shown was in range. A value JSON has none for is
    named with its place in the record."""
    import numpy as np
    rec = Game(players=2, seed=1).to_record()
    rec["rounds"][0]["starter"] = np.int64(0)
    with pytest.raises(RecordError, match=r"^rounds\[0\]\.starter holds numpy\.int64 0: a record holds JSON "
                                          r"values \(give int\(x\)\)$"):
        replay(rec)
    rec["rounds"][0]["starter"] = 0
    rec["rounds"][0]["hands"][1][2] = np.str_(rec["rounds"][0]["hands"][1][2])    # numpy's str is a str
    rec["players"] = np.float32(2)
    with pytest.raises(RecordError, match=r"^players holds a numpy\.float32, which a JSON record cannot hold$"):
        replay(rec)
