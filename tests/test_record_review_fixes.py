"""Fixes of the review of the game-record format (``fiveup-record/1``) and its reader.

Each test's expected values come from docs/spec/RECORD.md, docs/spec/RULES.md or a count
made here by hand from the record, never from the reader under test.
"""
from __future__ import annotations

import copy
import json
import re
import sys
from pathlib import Path

import pytest

from fiveup_solver import Game
from fiveup_solver.cli import main
from fiveup_solver.errors import RecordError, json_fault
from fiveup_solver.record import (check_record, dumps_record, game_from_record, load_record, parse_record_text,
                                  positions, replay)
from fiveup_solver.selfplay import play_game

ROOT = Path(__file__).resolve().parent.parent
ALL_TILES = [f"{a}-{b}" for a in range(7) for b in range(a, 7)]


def run(capsys, argv):
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


def one_line_error(capsys, argv) -> str:
    rc, out, err = run(capsys, argv)
    assert rc == 2 and out == ""
    assert err.startswith("error: ") and err.endswith("\n") and err.count("\n") == 1, err
    return err[len("error: "):-1]


def hand_sizes(rnd, players):
    """Each seat's hand size after a round's actions, counted here: 5 dealt (RULES §2.1),
    plus its draws, minus its plays."""
    sizes = [5] * players
    for a in rnd["actions"]:
        if "draw" in a:
            sizes[a["seat"]] += 1
        elif "play" in a:
            sizes[a["seat"]] -= 1
    return sizes


def seen_by(view_round, seat):
    """The tiles seat `seat` saw in a round of its view: its hand, its draws, every play."""
    seen = set(view_round["hands"][seat])
    for a in view_round["actions"]:
        if a.get("play"):
            seen.add(a["play"])
        if a.get("draw") and a["seat"] == seat:
            seen.add(a["draw"])
    return seen


# ----------------------------------------------------------------- MEDIUM 1: revealed mid-round

def unfinished_view_with_revealed(true_hands: bool):
    """Seat 1's view of a 2-player game stopped after 5 actions of its first round, given a
    'revealed' (RECORD.md: only a finished round has one): seat 1's own hand as it is, and
    seat 0's either as it is or made up, of the size the public actions leave it."""
    g = Game(players=2, seed=3)
    for _ in range(5):
        g.push(g.legal_moves[0])
    assert not g.round_over
    view = g.to_record(view=1)
    rnd = view["rounds"][0]
    assert "revealed" not in rnd
    sizes = hand_sizes(rnd, 2)
    true = [[str(t) for t in g.hand(s)] for s in range(2)]
    assert [len(h) for h in true] == sizes
    if true_hands:
        rnd["revealed"] = true
    else:
        unseen = [t for t in ALL_TILES if t not in seen_by(rnd, 1) and t not in true[0]]
        rnd["revealed"] = [unseen[:sizes[0]], true[1]]
    return view, true


@pytest.mark.parametrize("true_hands", [False, True])
def test_revealed_on_an_unfinished_round_is_refused(true_hands, tmp_path, capsys):
    view, _ = unfinished_view_with_revealed(true_hands)
    with pytest.raises(RecordError) as e:
        game_from_record(view)
    message = str(e.value)
    assert "\n" not in message and message.startswith("round 0: ") and "'revealed'" in message
    assert "finished" in message
    with pytest.raises(RecordError, match="round 0: 'revealed'"):
        replay(view)
    path = tmp_path / "view.json"
    path.write_text(json.dumps(view))
    cli = one_line_error(capsys, ["replay", str(path), "--json"])
    assert cli == f"{path}: {message}"


def test_made_up_revealed_hands_are_never_used():
    """No position of the round is reached on the made-up hands: the record is refused
    before its first position of that round (the old reader dealt seat 0 the made-up
    tiles and yielded every position on them)."""
    view, true = unfinished_view_with_revealed(False)
    fake = sorted(view["rounds"][0]["revealed"][0])
    held = []
    with pytest.raises(RecordError, match="round 0: 'revealed'"):
        for game, r, i in positions(view):
            held.append(sorted(str(t) for t in game.hand(0)))
    assert fake not in held and held == []


def find_game(players, wanted_end):
    for seed in range(1, 400):
        g = play_game(players, seed, ["random"] * players)
        if any(r.end()["end"] == wanted_end for r in g.rounds):
            return g
    raise AssertionError(f"no game with a {wanted_end} round")


@pytest.mark.parametrize("players,end", [(3, "blocked"), (4, "blocked"), (2, "won"), (4, "won")])
def test_views_of_blocked_and_won_rounds_still_replay(players, end):
    """Guard: a round ended by a block or a win (no hand emptied) keeps its 'revealed',
    and every seat's view replays to the full record's result (RECORD.md)."""
    g = find_game(players, end)
    full = g.to_record()
    for seat in range(players):
        view = g.to_record(view=seat)
        assert replay(view) == replay(full)
        assert game_from_record(view).to_record(view=seat) == view


# ----------------------------------------------------------------- MEDIUM 2: repeated keys

def small_record():
    g = Game(players=2, seed=3)
    while not g.round_over:
        g.push(g.legal_moves[0])
    return g.to_record()


def test_repeated_key_in_the_record_is_refused(tmp_path, capsys):
    text = json.dumps(small_record()).replace('"players": 2', '"players": 3, "players": 2', 1)
    assert json.loads(text)["players"] == 2          # what the old reader took: the last one
    with pytest.raises(RecordError) as e:
        parse_record_text(text, "F")
    assert str(e.value).startswith("F: ") and "'players'" in str(e.value) and "twice" in str(e.value)
    path = tmp_path / "dup.json"
    path.write_text(text)
    with pytest.raises(RecordError, match="'players' written twice"):
        load_record(path)
    cli = one_line_error(capsys, ["replay", str(path)])
    assert cli.startswith(f"{path}: ") and cli.count(str(path)) == 1 and "'players'" in cli


def test_repeated_key_in_an_action_is_refused_with_its_place():
    rec = small_record()
    text = json.dumps(rec)
    second = json.dumps(rec["rounds"][0]["actions"][1])          # round 0 action 1
    assert text.count(second) >= 1
    bad = text.replace(second, second.replace('{"seat": ', '{"seat": 9, "seat": ', 1), 1)
    with pytest.raises(RecordError) as e:
        parse_record_text(bad, "F")
    assert str(e.value).startswith("F: round 0 action 1: ") and "'seat'" in str(e.value)


def test_repeated_key_in_a_line_of_json_lines(tmp_path, capsys):
    good = json.dumps(small_record())
    bad = good.replace('"starter": ', '"starter": 1, "starter": ', 1)
    path = tmp_path / "games.jsonl"
    path.write_text(good + "\n" + bad + "\n")
    cli = one_line_error(capsys, ["replay", str(path), "--game", "0"])
    # line 2 holds game 1 (one game a line, the first game 0)
    assert cli.count(str(path)) == 1 and "line 2" in cli and "round 0: " in cli and "'starter'" in cli


# ----------------------------------------------------------------- MEDIUM 3: RECORD.md's example

def record_example():
    text = (ROOT / "docs/spec/RECORD.md").read_text(encoding="utf-8")
    section = text[text.index("## The record"):]
    return json.loads(re.search(r"```json\n(.*?)```", section, re.S).group(1))


def test_record_md_example_is_a_legal_record():
    rec = record_example()
    rnd = rec["rounds"][0]
    # RECORD.md: 5 tiles per seat, the boneyard the rest, together exactly the 28 tiles
    assert all(len(h) == 5 for h in rnd["hands"])
    assert sorted(sum(rnd["hands"], []) + rnd["boneyard"]) == sorted(ALL_TILES)
    result = replay(rec)           # legal throughout, or RecordError
    # by hand (RULES §4): 1-4 opens, ends 1 + 4 = 5: +5; 1-1 on 1-4's low end leaves
    # 4 + 2 x 1 = 6, no score; the record stops in its first (last) round
    assert result["scores"] == [5, 0]
    assert [(e["action"], e["kind"], e["seat"], e["end_sum"], e["raw"]) for e in result["events"]] == \
        [(0, "placement", 0, 5, 5)]
    assert result["rounds"] == [{"end": "unfinished"}]
    # the replay example's first event is this record's
    assert result["events"][0] == {"round": 0, "action": 0, "kind": "placement", "seat": 0, "side": 0,
                                   "end_sum": 5, "raw": 5, "accepted": True, "scores": [5, 0]}


# ----------------------------------------------------------------- LOW 4: the file named once

def test_json_lines_bad_line_names_the_file_once(tmp_path, capsys):
    good = json.dumps(small_record())
    path = tmp_path / "games.jsonl"
    path.write_text(good + "\n" + good[:-5] + "\n")
    for extra in ([], ["--game", "0"]):
        cli = one_line_error(capsys, ["replay", str(path), *extra])
        assert cli.count(str(path)) == 1, cli
        assert cli.startswith(f"{path}: line 2 (game 1): not valid JSON"), cli
    with pytest.raises(RecordError) as e:
        load_record(path, 0)
    assert str(e.value).count(str(path)) == 1


# ----------------------------------------------------------------- LOW 5: revealed sizes

def three_player_view():
    """Seat 0's view of the first two rounds of a 3-player game (a record may stop
    there), whose round 0 leaves seat 1 some tiles."""
    for seed in range(1, 200):
        g = play_game(3, seed, ["random"] * 3)
        full = g.to_record()
        full["rounds"] = full["rounds"][:2]
        view = game_from_record(full).to_record(view=0)
        rnd = view["rounds"][0]
        if len(view["rounds"]) == 2 and rnd["revealed"][1]:
            return full, view
    raise AssertionError("no game")


def test_revealed_hand_of_the_wrong_size_is_named(capsys, tmp_path):
    _, view = three_player_view()
    rnd = view["rounds"][0]
    size = hand_sizes(rnd, 3)[1]                     # by hand: 5 + draws - plays
    assert len(rnd["revealed"][1]) == size
    unseen = [t for t in ALL_TILES if t not in seen_by(rnd, 0) and t not in sum(rnd["revealed"], [])]
    longer = copy.deepcopy(view)
    longer["rounds"][0]["revealed"][1].append(unseen[0])
    with pytest.raises(RecordError) as e:
        game_from_record(longer)
    assert str(e.value) == (f"round 0: seat 1's revealed hand holds {size + 1} tiles, "
                            f"but the actions leave it {size}")
    emptied = copy.deepcopy(view)
    emptied["rounds"][0]["revealed"][1] = []
    with pytest.raises(RecordError) as e:
        game_from_record(emptied)
    assert str(e.value) == f"round 0: seat 1's revealed hand holds 0 tiles, but the actions leave it {size}"
    path = tmp_path / "v.json"
    path.write_text(json.dumps(longer))
    assert one_line_error(capsys, ["replay", str(path)]).count("round 0") == 1


def test_no_deal_fits_names_its_round_once():
    """A revealed hand of the right size that no deal fits (a tile the seat could not have
    held, given when it drew): the sampler's words, the round named once (it was named
    twice: "round 0: no deal ... (round 0, after action 15)")."""
    for seed in range(1, 60):
        full = play_game(3, seed, ["random"] * 3).to_record()
        full["rounds"] = full["rounds"][:1]
        view = game_from_record(full).to_record(view=0)
        rnd = view["rounds"][0]
        unseen = [t for t in ALL_TILES if t not in seen_by(rnd, 0) and t not in sum(rnd["revealed"], [])]
        for s in (1, 2):
            for k in range(len(rnd["revealed"][s])):
                for t in unseen:
                    bad = copy.deepcopy(view)
                    bad["rounds"][0]["revealed"][s][k] = t
                    try:
                        game_from_record(bad)
                    except RecordError as e:
                        if "no deal" in str(e):
                            assert str(e).startswith("round 0: ") and str(e).count("round 0") == 1, str(e)
                            return
    raise AssertionError("no revealed hand that no deal fits was found")


# ----------------------------------------------------------------- LOW 6: null = left out

def test_record_md_says_null_is_the_key_left_out():
    text = " ".join((ROOT / "docs/spec/RECORD.md").read_text(encoding="utf-8").split())
    assert "An optional key given as `null` means the same as the key left out" in text
    for key in ('`"at": null`', '`"seats": null`', '`"view": null`'):
        assert key in text


def test_null_reads_as_the_key_left_out():
    """Guard: the reader agrees with RECORD.md (and tests/data/seed_examples.json's
    openings, written "at": null)."""
    rec = small_record()
    nulls = copy.deepcopy(rec)
    nulls["seats"], nulls["view"] = None, None
    nulls["rounds"][0]["actions"][0]["at"] = None
    assert "at" not in rec["rounds"][0]["actions"][0]
    assert replay(nulls) == replay(rec)
    assert check_record(nulls)["rounds"] == check_record(rec)["rounds"]


# ----------------------------------------------------------------- LOW 7: dumps_record

def test_dumps_record_checks_the_record():
    assert dumps_record.__doc__
    rec = small_record()
    text = dumps_record(rec)
    assert "\n" not in text and parse_record_text(text) == rec
    with pytest.raises(RecordError, match="^not written: .*format"):
        dumps_record({"format": "nope", "players": 2, "rounds": []})
    with pytest.raises(RecordError, match="^not written: missing key 'players'$"):
        dumps_record({"format": "nope"})
    bad = copy.deepcopy(rec)
    bad["seats"] = [object(), "B"]
    with pytest.raises(RecordError) as e:
        dumps_record(bad)
    assert "seats[0]" in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(RecordError):
        dumps_record({"format": object()})
    with pytest.raises(RecordError):
        dumps_record(Game(players=2, seed=1))


# ----------------------------------------------------------------- LOW 8: too many actions

# RULES §2.1, §3, §5: at most 28 plays (each tile once), 28 - 5n draws (the boneyard),
# and n - 1 passes after each play (passes only with the boneyard empty, and n passes in
# a row would follow a block, which ends the round first, D2): 28 + 28 - 5n + 28(n - 1)
MOST_ACTIONS = {2: 28 + 18 + 28, 3: 28 + 13 + 56, 4: 28 + 8 + 84}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_round_of_too_many_actions_is_refused_first(players):
    g = Game(players=players, seed=5)
    rec = g.to_record()
    most = MOST_ACTIONS[players]
    assert most == 23 * players + 28
    # the first action already breaks every rule of an action: an over-long round is
    # refused for its length, before any action is looked at
    rec["rounds"][0]["actions"] = [{"bogus": True}] * (most + 1)
    with pytest.raises(RecordError) as e:
        check_record(rec)
    assert str(e.value).startswith(f"round 0: {most + 1} actions, ") and f"at most {most}" in str(e.value)
    # at the bound, the length is not the fault: the first action is
    rec["rounds"][0]["actions"] = [{"bogus": True}] * most
    with pytest.raises(RecordError, match="round 0 action 0: "):
        check_record(rec)


def test_many_passes_refused_for_the_length(tmp_path, capsys):
    rec = small_record()
    rec["rounds"][0]["actions"] += [{"seat": 1, "pass": True}] * 100_000
    n = len(rec["rounds"][0]["actions"])
    path = tmp_path / "long.json"
    path.write_text(json.dumps(rec))
    cli = one_line_error(capsys, ["replay", str(path)])
    assert cli.startswith(f"{path}: round 0: {n} actions, ") and "at most 74" in cli


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_longest_self_played_rounds_are_within_the_bound(players):
    """Guard: never refuse a legal record (the bound is far above what games reach)."""
    longest = 0
    for seed in range(60):
        g = play_game(players, seed, ["random"] * players)
        rec = g.to_record()
        longest = max(longest, max(len(r["actions"]) for r in rec["rounds"]))
        check_record(rec)
    assert 0 < longest <= MOST_ACTIONS[players]


# ----------------------------------------------------------------- LOW 9: the long integer

def test_long_integer_message():
    limit = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 4300
    if not limit:
        pytest.skip("no integer digit limit in this Python")
    rec = small_record()
    text = json.dumps(rec, indent=1)
    head, tail = text.split('"starter": 0', 1)
    bad = head + '"starter": ' + "7" * (limit + 701) + tail
    line = head.count("\n") + 1
    column = len(head) - head.rfind("\n") + len('"starter": ')       # json's 1-based column
    with pytest.raises(RecordError) as e:
        parse_record_text(bad, "F")
    assert str(e.value) == (f"F: not valid JSON (line {line} column {column}: "
                            f"an integer of more than {limit} digits ({limit + 701}))")
    try:
        json.loads("7" * (limit + 1))
    except ValueError as err:
        assert json_fault(err) == f"an integer of more than {limit} digits ({limit + 1})"


# ----------------------------------------------------------------- LOW 10: docs

def test_docstrings_and_cli_docs():
    import fiveup_solver.record as record
    assert "view" in record.replay.__doc__
    assert "(full records)" not in record.check_record.__doc__
    assert "view" in " ".join(record.check_record.__doc__.split()).split("checked by")[1]
    cli = (ROOT / "docs/cli.md").read_text(encoding="utf-8")
    assert "fiveup replay FILE [--game K] [--json]" in cli


def test_move_from_action_takes_only_a_true_pass():
    """RECORD.md writes a pass as {"seat": s, "pass": true}; check_action refuses any other
    value, and Move.from_action (public) read {"pass": false} as a pass."""
    from fiveup_solver.errors import ParseError
    from fiveup_solver.notation import Move
    assert Move.from_action({"seat": 0, "pass": True}) == Move.pass_()
    for value in (False, 0, 1, "true", None):
        with pytest.raises(ParseError, match="pass must be true"):
            Move.from_action({"seat": 0, "pass": value})


def test_a_record_holding_itself_is_refused_in_one_line():
    """A record built in Python can hold itself (JSON cannot write one): its value check
    walked it for ever. Now one line names where; the same value met twice side by side
    is no cycle."""
    from fiveup_solver import Game
    from fiveup_solver.record import check_record
    g = Game(players=2, seed=1)
    g.push(g.legal_moves[0])
    looped = g.to_record()
    looped["rounds"].append(looped)
    with pytest.raises(RecordError, match=r"^rounds\[1\] holds itself"):
        check_record(looped)
    inner = g.to_record()
    inner["rounds"][0]["actions"].append(inner["rounds"][0]["actions"])
    with pytest.raises(RecordError, match=r"^rounds\[0\]\.actions\[1\] holds itself"):
        check_record(inner)
    twice = g.to_record()
    names = ["ann", "bob"]
    twice["seats"] = names
    assert check_record(twice)["seats"] == names


def test_the_web_app_refuses_a_key_written_twice():
    """The record reader refuses a repeated key; the web app's framework read the last
    value of every request body: a record posted with "seat" twice was replayed as one of
    two games. Its body guard now refuses it in one line, naming the key and where."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient
    from fiveup_solver import Game, serve
    g = Game(players=2, seed=4)
    g.push(g.legal_moves[0])
    good = json.dumps({"record": g.to_record(), "round": 0, "action": 1, "size": 200})
    first = json.dumps(g.to_record()["rounds"][0]["actions"][0])
    twice = good.replace(first, first[:-1] + ', "seat": 1}', 1)
    assert twice != good
    with TestClient(serve.create_app(), base_url="http://127.0.0.1:8061", raise_server_exceptions=False) as c:
        ok = c.post("/api/position", content=good, headers={"content-type": "application/json"})
        assert ok.status_code == 200
        bad = c.post("/api/position", content=twice, headers={"content-type": "application/json"})
        assert bad.status_code == 400
        assert bad.json() == {"error": "malformed JSON: record.rounds[0].actions[0]: key 'seat' written twice "
                                       "(JSON readers differ on which counts)"}


def test_a_repeated_key_under_an_odd_key_stays_one_line():
    """The fuzz campaign (seed 83): a repeated key inside an object whose own key holds a
    newline gave a message of two lines; such a key is shown quoted."""
    from fiveup_solver.record import parse_record_text, repeated_key_fault
    text = '{"a\\nb": [{"at": 1, "at": 2}]}'
    assert repeated_key_fault(text) == "['a\\nb'][0]: key 'at' written twice (JSON readers differ on which counts)"
    with pytest.raises(RecordError) as e:
        parse_record_text(text, "f.json")
    assert "\n" not in str(e.value)


# ----------------------------------------------------------------- JSON Lines' line numbers

@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
def test_json_lines_messages_number_lines_as_an_editor_does(tmp_path, capsys, end):
    """A blank line between games is a line of the file: a message's "line N" is the
    line an editor shows (the review: blank lines were not counted), whatever the line ends."""
    good = json.dumps(small_record())
    path = tmp_path / "games.jsonl"
    # line 1 a game, line 2 blank, line 3 a game, lines 4-5 blank, line 6 the bad game (game 2)
    path.write_bytes(end.join([good, "", good, "", "  ", good[:-5], ""]).encode())
    cli = one_line_error(capsys, ["replay", str(path), "--game", "2"])
    assert cli.startswith(f"{path}: line 6 (game 2): not valid JSON"), cli
    with pytest.raises(RecordError, match=r": line 6 \(game 2\): "):
        load_record(path, 0)


def test_a_large_files_lines_are_numbered_across_chunks():
    """The reader of a file over MAX_RECORD_BYTES, a chunk at a time: "\\r\\n" split between two
    chunks is one line end, as "\\n" and "\\r" alone are."""
    import io

    from fiveup_solver.record import _byte_lines
    data = b"a\r\nb\n\nc\rd\r\n\r\ne"
    # the lines: 1 "a", 2 "b", 3 "", 4 "c", 5 "d", 6 "", 7 "e"
    expected = [(0, 1, b"a"), (3, 2, b"b"), (5, 3, b""), (6, 4, b"c"), (8, 5, b"d"), (11, 6, b""), (13, 7, b"e")]
    for chunk in range(1, len(data) + 1):
        f = io.BytesIO(data[chunk:])
        assert list(_byte_lines(f, data[:chunk], limit=100, chunk_size=chunk)) == expected, chunk
