"""The good paths of the ``fiveup`` command line: demo, selfplay, replay, perft, bench."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from fiveup_solver import Game, raw_to_display
from fiveup_solver.bots import parse_bot_list
from fiveup_solver.cli import main
from fiveup_solver.game import action_to_move
from fiveup_solver.record import game_at, game_from_record, load_record, replay
from fiveup_solver.selfplay import game_seeds, play_game

ROOT = Path(__file__).resolve().parent.parent

EVENT_LINE = re.compile(r"^    (placement|domino|block) event seat (\d) side (\d): ([+-]\d+) raw \(([+-]\d+)\) "
                        r"(accepted|REJECTED \(above 305\)); scores (.*)$")
SCORES = re.compile(r"(-?\d+) raw \((-?\d+)\)")


def run(capsys, argv):
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


def find_game(players, want):
    """The first seed (all-random bots) whose game has every feature in `want`."""
    for seed in range(1, 300):
        g = play_game(players, seed, ["random"] * players)
        kinds = {e.kind for e in g.events}
        feats = kinds | {r.end()["end"] for r in g.rounds}
        if any(not e.accepted for e in g.events):
            feats.add("rejected")
        if want <= feats:
            return seed, g
    raise AssertionError(f"no game with {want}")


# ---------------------------------------------------------------- demo

def end_words(end: dict, names) -> str:
    """A round's end (RECORD.md) in the words the demo and replay use, written out here."""
    who = f"seat {end['seat']} ({names[end['seat']]})" if "seat" in end else None
    tie = end.get("winner") is None
    return {"domino": f"{who} emptied their hand", "won": f"{who} reached exactly 305: the game is won",
            "blocked": "blocked, a tie" if tie else f"blocked, side {end.get('winner')} held the lightest hand",
            "unfinished": "unfinished"}[end["end"]]

@pytest.mark.parametrize("players,seed,bots", [
    (2, 3, "greedy,random"), (2, 11, "random"), (3, 5, "greedy"), (4, 2, "random,greedy"),
])
def test_demo_lists_every_event_and_the_result(players, seed, bots, capsys):
    rc, out, err = run(capsys, ["demo", "--players", str(players), "--seed", str(seed), "--bots", bots])
    assert rc == 0 and err == ""
    game = play_game(players, seed, parse_bot_list(bots, players))
    events = game.events
    assert events, "a whole game always scores"
    lines = out.splitlines()
    shown = [EVENT_LINE.match(line) for line in lines if EVENT_LINE.match(line)]
    assert len(shown) == len(events)
    for m, e in zip(shown, events):
        kind, seat, side, raw, disp, verdict, scores = m.groups()
        assert (kind, int(seat), int(side), int(raw)) == (e.kind, e.seat, e.side, e.raw)
        assert int(disp) == raw_to_display(e.raw)
        assert (verdict == "accepted") == e.accepted
        assert [int(a) for a, _ in SCORES.findall(scores)] == list(e.scores)
        assert [int(d) for _, d in SCORES.findall(scores)] == [raw_to_display(s) for s in e.scores]
    # every round is dealt and ended on screen
    assert sum(line.startswith("Round ") for line in lines) == len(game.rounds)
    for r, log in enumerate(game.rounds):
        assert f"  round {r} ends: {end_words(log.end(), game.seats)}" in out
    # the result
    if game.game_over:
        assert lines[-1].startswith(f"Side {game.winner} wins with exactly 305 raw (61) after "
                                    f"{len(game.rounds)} rounds")
        assert max(game.scores) == 305
    else:
        assert lines[-1].startswith("Unfinished")
    assert lines[0] == (f"Exact 61 Five Up demo: {players} players, seed {seed}, "
                        f"bots {', '.join(parse_bot_list(bots, players))}")


def test_demo_shows_rejected_and_block_events(capsys):
    seed, game = find_game(2, {"block", "rejected", "blocked"})
    rc, out, _ = run(capsys, ["demo", "--seed", str(seed), "--bots", "random"])
    assert rc == 0
    assert "block event" in out
    assert "REJECTED (above 305)" in out
    assert re.search(r"round \d+ ends: blocked, (a tie|side \d held the lightest hand)", out)
    assert len([line for line in out.splitlines() if EVENT_LINE.match(line)]) == len(game.events)


def test_demo_is_deterministic(capsys):
    first = run(capsys, ["demo", "--seed", "42"])[1]
    again = run(capsys, ["demo", "--seed", "42"])[1]
    other = run(capsys, ["demo", "--seed", "43"])[1]
    assert first == again
    assert first != other
    assert first == run(capsys, ["demo", "--seed", "42", "--players", "2", "--bots", "hint,greedy"])[1]


def test_demo_default_and_subprocess():
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, "-m", "fiveup_solver.cli", "demo", "--seed", "9"],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert proc.returncode == 0 and proc.stderr == ""
    assert "Round 0: starter seat" in proc.stdout
    assert re.search(r"^(Side \d wins|Unfinished)", proc.stdout.splitlines()[-1])


# ---------------------------------------------------------------- selfplay

def selfplay_lines(capsys, tmp_path, *args):
    path = tmp_path / f"games{len(list(tmp_path.iterdir()))}.jsonl"
    rc, out, err = run(capsys, ["selfplay", *args, "--out", str(path)])
    assert rc == 0 and out == "" and err == ""
    text = path.read_text(encoding="utf-8")
    assert text == "" or text.endswith("\n")
    return text.splitlines()


@pytest.mark.parametrize("players,bots,games", [(2, "greedy,random", 4), (3, "random", 3), (4, "greedy", 2)])
def test_selfplay_writes_k_records_that_replay(players, bots, games, tmp_path, capsys):
    lines = selfplay_lines(capsys, tmp_path, "--players", str(players), "--seed", "7", "--bots", bots,
                           "--games", str(games))
    assert len(lines) == games
    records = [json.loads(line) for line in lines]
    assert len({json.dumps(r) for r in records}) == games      # different games
    for rec, (deal_seed, bot_seed) in zip(records, game_seeds(7, games)):
        assert rec["format"] == "fiveup-record/1" and rec["players"] == players
        result = replay(rec)
        game = game_from_record(rec)
        assert game.game_over or game.unfinished
        assert result["winner"] is not None and 305 in result["scores"]
        expected = play_game(players, deal_seed, parse_bot_list(bots, players), bot_seed=bot_seed)
        assert rec == expected.to_record()


def test_selfplay_is_deterministic(tmp_path, capsys):
    args = ["--players", "3", "--seed", "123", "--games", "3", "--bots", "greedy,random"]
    a = selfplay_lines(capsys, tmp_path, *args)
    b = selfplay_lines(capsys, tmp_path, *args)
    c = selfplay_lines(capsys, tmp_path, "--players", "3", "--seed", "124", "--games", "3", "--bots", "greedy,random")
    assert a == b
    assert a != c
    # the first games of a longer run are the same games
    assert selfplay_lines(capsys, tmp_path, *args[:-4], "--games", "5", "--bots", "greedy,random")[:3] == a


@pytest.mark.parametrize("players,bots,seats", [
    (4, "greedy,random", ["greedy#0", "random#1", "greedy#2", "random#3"]),
    (3, "greedy", ["greedy#0", "greedy#1", "greedy#2"]),
    (3, "random,greedy", ["random#0", "greedy#1", "random#2"]),
    (2, "random,greedy", ["random#0", "greedy#1"]),
    (4, "random,greedy,greedy", ["random#0", "greedy#1", "greedy#2", "random#3"]),
])
def test_selfplay_bot_list_repeats(players, bots, seats, tmp_path, capsys):
    (line,) = selfplay_lines(capsys, tmp_path, "--players", str(players), "--bots", bots, "--games", "1")
    assert json.loads(line)["seats"] == seats


def test_selfplay_bots_play_their_strategy(tmp_path, capsys):
    """greedy seats take the best immediate credit; the same deals with other bots play differently."""
    g_lines = selfplay_lines(capsys, tmp_path, "--bots", "greedy", "--games", "2", "--seed", "5")
    r_lines = selfplay_lines(capsys, tmp_path, "--bots", "random", "--games", "2", "--seed", "5")
    assert g_lines != r_lines
    rec = json.loads(g_lines[0])
    game = game_from_record(rec)
    # replay and check every greedy placement was a maximal immediate credit
    check = Game(players=2, deal=False, max_rounds=len(rec["rounds"]))
    for rnd, log in zip(rec["rounds"], game.rounds):
        check.start_round(log.hands, log.boneyard, rnd["starter"])
        for act in rnd["actions"]:
            seat = check.to_move
            obs = check.observation(seat)
            side = seat
            if "play" in act and len(obs.legal_moves) > 1:
                def credit(s):
                    c = s if s > 0 and s % 5 == 0 else 0
                    return 0 if obs.scores[side] + c > 305 else c
                best = max(credit(s) for s in obs.end_sums_after)
                chosen = [credit(s) for m, s in zip(obs.legal_moves, obs.end_sums_after)
                          if str(m) == (act["play"] + ("@" + act["at"] if "at" in act else ""))]
                assert chosen == [best]
            check.push(action_to_move(act))


def test_selfplay_stdout_and_zero_games(tmp_path, capsys):
    rc, out, err = run(capsys, ["selfplay", "--games", "2", "--seed", "3"])
    assert rc == 0 and err == ""
    assert out.splitlines() == selfplay_lines(capsys, tmp_path, "--games", "2", "--seed", "3")
    assert selfplay_lines(capsys, tmp_path, "--games", "0") == []


def test_selfplay_max_rounds_gives_unfinished_records(tmp_path, capsys):
    lines = selfplay_lines(capsys, tmp_path, "--games", "3", "--max-rounds", "1", "--seed", "1")
    for line in lines:
        rec = json.loads(line)
        assert len(rec["rounds"]) == 1
        result = replay(rec)
        assert result["winner"] is None
        assert result["rounds"][0]["end"] in ("domino", "blocked")


# ---------------------------------------------------------------- replay

@pytest.fixture(scope="module")
def records():
    out = {}
    for players in (2, 3, 4):
        seed, g = find_game(players, {"block", "blocked"})
        out[players] = g.to_record()
    out["unfinished"] = play_game(2, 4, ["greedy", "random"], max_rounds=3).to_record()
    out["midround"] = json.loads(json.dumps(out[2]))       # stopped in the middle of round 0
    del out["midround"]["rounds"][1:]
    out["midround"]["rounds"][0]["actions"] = out["midround"]["rounds"][0]["actions"][:7]
    return out


RECORD_KEYS = [2, 3, 4, "unfinished", "midround"]


@pytest.mark.parametrize("key", RECORD_KEYS)
def test_replay_json_equals_api(key, records, tmp_path, capsys):
    rec = records[key]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec, indent=2))
    rc, out, err = run(capsys, ["replay", str(path), "--json"])
    assert rc == 0 and err == ""
    assert out.count("\n") == 1
    result = json.loads(out)
    assert result == replay(rec)
    assert set(result) == {"winner", "scores", "rounds", "events"}
    assert len(result["rounds"]) == len(rec["rounds"])
    if key == "midround":
        assert result["rounds"][-1] == {"end": "unfinished"} and result["winner"] is None
    if key == "unfinished":
        assert result["winner"] is None


def test_replay_accepts_reversed_tiles(records, tmp_path, capsys):
    """'b-a' tiles are normalised on reading (RECORD.md)."""
    rec = json.loads(json.dumps(records[2]))
    rnd = rec["rounds"][0]
    rnd["hands"][0] = ["-".join(reversed(t.split("-"))) for t in rnd["hands"][0]]
    rnd["actions"][0]["play"] = "-".join(reversed(rnd["actions"][0]["play"].split("-")))
    path = tmp_path / "rev.json"
    path.write_text(json.dumps(rec))
    rc, out, _ = run(capsys, ["replay", str(path), "--json"])
    assert rc == 0 and json.loads(out) == replay(records[2])


@pytest.mark.parametrize("key", RECORD_KEYS)
def test_replay_summary_text(key, records, tmp_path, capsys):
    rec = records[key]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec))
    rc, out, err = run(capsys, ["replay", str(path)])
    assert rc == 0 and err == ""
    result = replay(rec)
    lines = out.splitlines()
    round_lines = [line for line in lines if line.startswith("  round ") and " ends: " in line]
    names = rec.get("seats")

    def who(s):
        return f"seat {s} ({names[s]})" if names else f"seat {s}"
    words = {"domino": lambda e: f"{who(e['seat'])} emptied their hand",
             "won": lambda e: f"{who(e['seat'])} reached exactly 305: the game is won",
             "blocked": lambda e: "blocked, a tie" if e["winner"] is None
             else f"blocked, side {e['winner']} held the lightest hand",
             "unfinished": lambda e: "unfinished"}
    assert round_lines == [f"  round {r} ends: {words[end['end']](end)}" for r, end in enumerate(result["rounds"])]
    # each round's start, then its events, then its end (a review: every end came first)
    event_lines = [line for line in lines if line.startswith(("  action ", "  end: "))]
    assert len(event_lines) == len(result["events"])
    expected_order = []
    for r in range(len(result["rounds"])):
        expected_order.append(f"round {r}: starter ")
        expected_order += ["event"] * sum(e["round"] == r for e in result["events"])
        expected_order.append(f"  round {r} ends: ")
    kinds = ["event" if line in event_lines else line for line in lines[:-1]]
    assert len(kinds) == len(expected_order)
    assert all(k == x or k.startswith(x) for k, x in zip(kinds, expected_order))
    for line, e in zip(event_lines, result["events"]):
        where = "end" if e["action"] is None else f"action {e['action']}"      # a block: no action
        side = f", side {e['side']}" if len(result["scores"]) == 2 and len(rec["rounds"][0]["hands"]) == 4 else ""
        assert line.startswith(f"  {where}: {e['kind']} {who(e['seat'])}{side}: "
                               f"{e['raw']:+d} raw ({e['raw'] // 5:+d}) ")
        assert ("accepted" in line) == e["accepted"]
        assert [int(x) for x, _ in SCORES.findall(line.split("; scores ")[-1])] == e["scores"]
    winner = "none" if result["winner"] is None else f"side {result['winner']}"
    assert lines[-1].startswith(f"winner: {winner}; scores ")
    assert [int(x) for x, _ in SCORES.findall(lines[-1])] == result["scores"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_replay_explains_each_block_credit(players, tmp_path, capsys):
    """A block credit in ``fiveup replay``'s text carries its parts (RULES §6.5), as the play
    app shows them: the seat's pips, each heavier opponent's difference, their sum and its
    rounding; the credits checked against the tests' own reference (tests/reference.py)."""
    import random

    try:
        from . import reference
    except ImportError:
        import reference
    checked = 0
    for seed in range(40):
        g = Game(players=players, seed=seed)
        rng = random.Random(seed)
        lefts = {}
        while not g.game_over and len(g.rounds) <= 12:
            if g.round_over:
                lefts[len(g.rounds) - 1] = ([[str(t) for t in g.hand(s)] for s in range(players)], g.current.starter)
                g.next_round()
                continue
            g.push(rng.choice(g.legal_moves))
        if g.round_over:
            lefts[len(g.rounds) - 1] = ([[str(t) for t in g.hand(s)] for s in range(players)], g.current.starter)
        path = tmp_path / f"g{seed}.json"
        path.write_text(json.dumps(g.to_record()))
        rc, out, _ = run(capsys, ["replay", str(path)])
        assert rc == 0
        lines = out.splitlines()
        starts = [i for i, line in enumerate(lines) if line.startswith("round ")]
        for r, (hands, starter) in lefts.items():
            if g.rounds[r].end()["end"] != "blocked":
                continue
            end = starts[r + 1] if r + 1 < len(starts) else len(lines)
            blocks = [line for line in lines[starts[r]:end] if line.startswith("  end: block ")]
            credits = [(s, c) for s, c in reference.block_credits(players, hands, starter) if c]
            # (a prefix when one ends the game; none when every credit rounds to 0)
            assert len(blocks) <= len(credits) and bool(blocks) == bool(credits)
            pips = [reference.hand_pips(h) for h in hands]
            side = (lambda q: q % 2) if players == 4 else (lambda q: q)
            for line, (s, credit) in zip(blocks, credits):
                heavier = [o for o in range(players) if side(o) != side(s) and pips[o] > pips[s]]
                diffs = ", ".join(f"seat {o} ({pips[o]} - {pips[s]} = {pips[o] - pips[s]})" for o in heavier)
                total = sum(pips[o] - pips[s] for o in heavier)
                assert line.startswith(f"  end: block seat {s}") and f"raw ({credit // 5:+d})" in line, line
                assert f"[seat {s}: {pips[s]} pips; heavier opponents: {diffs}; " in line, line
                assert line.split("]")[0].endswith(f"{total}" if total == credit else f"{total}, rounded to {credit}")
                checked += 1
    assert checked >= 3, checked


def test_replay_of_a_selfplay_line(tmp_path, capsys):
    (line,) = selfplay_lines(capsys, tmp_path, "--players", "4", "--games", "1", "--seed", "77")
    path = tmp_path / "one.json"
    path.write_text(line)
    rc, out, _ = run(capsys, ["replay", str(path), "--json"])
    assert rc == 0 and json.loads(out) == replay(json.loads(line))


# ---------------------------------------------------------------- perft

def perft_cli(capsys, path, r, a, d):
    argv = ["perft", str(path), "--round", str(r), "--depth", str(d)]
    if a is not None:
        argv += ["--action", str(a)]
    rc, out, err = run(capsys, argv)
    assert rc == 0 and err == ""
    assert re.fullmatch(r"\d+\n", out), out
    return int(out)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_perft_matches_core(players, tmp_path, capsys):
    rec = play_game(players, 10 + players, ["random"] * players, max_rounds=3).to_record()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec))
    for r in range(len(rec["rounds"])):
        n_actions = len(rec["rounds"][r]["actions"])
        for a in sorted({0, 3, n_actions // 2, n_actions}):
            core = game_at(rec, r, a).current.core
            for d in (0, 1, 2, 4):
                assert perft_cli(capsys, path, r, a, d) == core.perft(d)
    # --action defaults to 0
    assert perft_cli(capsys, path, 0, None, 2) == game_at(rec, 0, 0).current.core.perft(2)


def test_perft_counts_turns(records, tmp_path, capsys):
    """Independent of the core's perft: depth 0 is 1, depth 1 at a placement turn is the number of
    legal placements, depth d is the sum over them of depth d-1, and a finished round counts 0."""
    rec = records["unfinished"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec))
    checked = 0
    for a, act in enumerate(rec["rounds"][0]["actions"]):
        game = game_at(rec, 0, a)
        if game.current.core.turn_kind() != "place":
            continue
        moves = game.legal_moves
        assert perft_cli(capsys, path, 0, a, 0) == 1
        assert perft_cli(capsys, path, 0, a, 1) == len(moves)
        total = 0
        for m in moves:
            game.push(m)
            total += game.current.core.perft(1)
            game.pop()
        assert perft_cli(capsys, path, 0, a, 2) == total
        checked += 1
    assert checked >= 3
    end = len(rec["rounds"][0]["actions"])
    assert perft_cli(capsys, path, 0, end, 1) == 0
    assert perft_cli(capsys, path, 0, end, 0) == 1


def test_perft_on_the_opening_position(tmp_path, capsys):
    """At the opening the starter may play any of its 5 tiles: perft(1) = 5 in every deal."""
    for players in (2, 3, 4):
        g = Game(players=players, seed=players)
        path = tmp_path / f"open{players}.json"
        path.write_text(json.dumps(g.to_record()))
        assert perft_cli(capsys, path, 0, 0, 1) == 5


def test_perft_refuses_a_seat_view(tmp_path, capsys):
    """A view's hidden hands are filled in by the sampler, one consistent deal among many, so
    its counts were that deal's, not the game's (13 against 15 turn pairs in one game); perft,
    like solve, needs the full record."""
    g = Game(players=2, seed=3)
    path = tmp_path / "view.json"
    path.write_text(json.dumps(g.to_record(view=1)))
    rc, out, err = run(capsys, ["perft", str(path), "--round", "0", "--depth", "2"])
    assert rc == 2 and out == ""
    assert err == f"error: {path} is seat 1's view: perft needs every hand (the full record)\n"


# ---------------------------------------------------------------- bench

def test_bench_json(capsys):
    import resource
    peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    rc, out, err = run(capsys, ["bench", "--json", "--rounds", "200", "--reference-rounds", "2"])
    assert rc == 0 and err == ""
    assert out.count("\n") == 1
    result = json.loads(out)
    assert set(result) == {"rounds_per_s", "reference_rounds_per_s", "max_rss_mb", "ratio", "repetitions", "rounds",
                           "reference_rounds", "seed", "load_average", "cpu_count", "warnings"}
    assert result["rounds"] == 200 and result["reference_rounds"] == 2 and result["seed"] == 1
    assert set(result["ratio"]) == {"2", "3", "4"}
    assert all(r["min"] <= r["median"] <= r["max"] for r in result["ratio"].values())
    # this process's peak resident memory (the bench ran in it), in MB: a peak only grows, so
    # it lies between the peaks before and after the run (0.1: the one-decimal rounding)
    peak_now = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    assert peak_before - 0.1 <= result["max_rss_mb"] <= peak_now + 0.1
    for key in ("rounds_per_s", "reference_rounds_per_s"):
        assert set(result[key]) == {"2", "3", "4"}
        for v in result[key].values():
            assert isinstance(v, (int, float)) and v > 0
    rc, out, err = run(capsys, ["bench", "--rounds", "200", "--reference-rounds", "2"])
    assert rc == 0 and "peak resident memory" in out


def test_bench_text(capsys):
    rc, out, err = run(capsys, ["bench", "--rounds", "100", "--reference-rounds", "1"])
    assert rc == 0 and err == ""
    lines = out.splitlines()
    assert "players" in lines[1] and "core" in lines[1] and "reference" in lines[1]
    rows = [line.split() for line in lines[2:5]]
    assert [r[0] for r in rows] == ["2", "3", "4"]
    for r in rows:
        assert float(r[1].replace(",", "")) > 0 and float(r[2].replace(",", "")) > 0
    assert lines[5].startswith("ratio range over the 5 repetitions: 2p ")
    assert lines[7].startswith("load average ") and " CPUs" in lines[7]
    assert lines[8].startswith("peak resident memory ") and lines[8].endswith(" MB")


# ---------------------------------------------------------------- hint, sample, match

def hint_record(tmp_path):
    """A greedy game record, a position of round 0 where seat 1 chooses, and seat 1's view."""
    rec = play_game(2, 3, ["greedy", "greedy"]).to_record()
    full = tmp_path / "full.json"
    full.write_text(json.dumps(rec))
    view = tmp_path / "view1.json"
    view.write_text(json.dumps(game_from_record(rec).to_record(view=1)))
    for i in range(len(rec["rounds"][0]["actions"])):
        g = game_at(rec, 0, i)
        if g.to_move == 1 and len(g.legal_moves) > 1:
            return rec, full, view, i, g
    raise AssertionError("no decision of seat 1")


def test_hint_json_from_full_record_and_view_agree(tmp_path, capsys):
    rec, full, view, i, g = hint_record(tmp_path)
    outs = []
    for path in (full, view):
        rc, out, err = run(capsys, ["hint", str(path), "--seat", "1", "--round", "0", "--action", str(i),
                                    "--samples", "16", "--seed", "4", "--json"])
        assert rc == 0 and err == ""
        d = json.loads(out)
        assert set(d) >= {"seat", "moves", "best", "method", "samples", "seconds"}
        assert d["seat"] == 1 and d["samples"] == 16 and d["method"] == "pimc"
        assert sorted(m["move"] for m in d["moves"]) == sorted(str(m) for m in g.legal_moves)
        assert d["best"] == d["moves"][0]["move"]
        assert all(isinstance(m["value"], float) and m["stderr"] >= 0 for m in d["moves"])
        del d["seconds"]
        outs.append(d)
    assert outs[0] == outs[1]
    rc, out, err = run(capsys, ["hint", str(full), "--seat", "1", "--round", "0", "--action", str(i),
                                "--method", "expectimax", "--time-ms", "40"])
    assert rc == 0 and "best: " in out and "expectimax" in out


def test_hint_defaults_to_the_last_position(tmp_path, capsys):
    rec, full, view, i, g = hint_record(tmp_path)
    last = dict(rec, rounds=[dict(rec["rounds"][0], actions=rec["rounds"][0]["actions"][:i])])
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(last))
    a = run(capsys, ["hint", str(path), "--seat", "1", "--samples", "8", "--json"])[1]
    b = run(capsys, ["hint", str(full), "--seat", "1", "--round", "0", "--action", str(i), "--samples", "8",
                     "--json"])[1]
    da, db = json.loads(a), json.loads(b)
    del da["seconds"], db["seconds"]
    assert da == db


def test_sample_deals_and_probabilities(tmp_path, capsys):
    rec, full, view, i, g = hint_record(tmp_path)
    rc, out, err = run(capsys, ["sample", str(view), "--seat", "1", "--round", "0", "--action", str(i),
                                "--n", "5", "--seed", "2", "--json"])
    assert rc == 0 and err == ""
    deals = json.loads(out)
    assert len(deals) == 5
    sizes = {len(d["hands"]["0"]) for d in deals}
    assert sizes == {len(g.hand(0))}
    assert {len(d["boneyard"]) for d in deals} == {len(g.boneyard)}
    rc, out, err = run(capsys, ["sample", str(full), "--seat", "1", "--round", "0", "--action", str(i),
                                "--probabilities", "--json"])
    probs = json.loads(out)
    unseen = 28 - len(g.board) - len(g.hand(1))
    assert len(probs) == unseen
    for tile, p in probs.items():
        assert set(p) == {"0", "boneyard"} and abs(sum(p.values()) - 1) < 1e-9
    # the expected number of tiles in seat 0's hand is its hand size
    assert abs(sum(p["0"] for p in probs.values()) - len(g.hand(0))) < 1e-9


@pytest.mark.parametrize("argv,text", [
    (["--seat", "0"], "is not to move"),
    (["--seat", "5"], "--seat must be 0..1"),
    (["--seat", "1", "--samples", "0"], "error: --samples must be"),
    (["--seat", "1", "--round", "0"], "give --round and --action together"),
    (["--seat", "1", "--round", "9", "--action", "0"], "--round 9 is not in the record"),
    (["--seat", "1", "--world-nodes", "0"], "error: --world-nodes must be"),
    # the value as typed, not as a float ('not 0.0')
    (["--seat", "1", "--time-ms", "0"], "error: --time-ms must be a number from 1 to 3600000, not 0\n"),
    (["--seat", "1", "--time-ms", "1e9"], "error: --time-ms must be a number from 1 to 3600000, not 1e9\n"),
    (["--seat", "1", "--depth", "2"], "error: --depth is an option of method 'alphamu'"),
    (["--seat", "1", "--method", "alphamu", "--depth", "99"], "error: --depth must be"),
])
def test_hint_bad_options(argv, text, tmp_path, capsys):
    rec, full, view, i, g = hint_record(tmp_path)
    cut = dict(rec, rounds=[dict(rec["rounds"][0], actions=rec["rounds"][0]["actions"][:i])])
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(cut))
    rc, out, err = run(capsys, ["hint", str(path), *argv])
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and text in err


def test_sample_of_another_seats_view_is_refused(tmp_path, capsys):
    rec, full, view, i, g = hint_record(tmp_path)
    rc, out, err = run(capsys, ["sample", str(view), "--seat", "0", "--round", "0", "--action", str(i)])
    assert rc == 2 and "is seat 1's view" in err and err.count("\n") == 1


def test_match_reports_win_rate(capsys):
    rc, out, err = run(capsys, ["match", "--players", "2", "--bots", "greedy,random", "--deals", "3",
                                "--seed", "1", "--json"])
    assert rc == 0
    r = json.loads(out)
    assert r["games"] == 6 and 0 <= r["wins"] <= 6 and r["ci95"][0] <= r["win_rate"] <= r["ci95"][1]
    rc, out, err = run(capsys, ["match", "--players", "3", "--bots", "hint:4:500,greedy", "--deals", "1"])
    assert rc == 0 and "3 games" in out or "/3 games" in out


def test_bench_hint_on_a_small_suite(tmp_path, capsys):
    suite = json.loads((ROOT / "benchmarks" / "data" / "hint_positions.json").read_text())
    two = [p for p in suite if p["record"]["players"] == 2]
    small = [p for p in two if p["phase"] == "early"][:2] + [p for p in two if p["phase"] == "late"][:2]
    # and one position of 3 and of 4 players: every method runs on the player counts it searches
    small += [next(p for p in suite if p["record"]["players"] == n and p["phase"] == "late") for n in (3, 4)]
    (tmp_path / "hint_positions.json").write_text(json.dumps(small))
    rc, out, err = run(capsys, ["bench", "--hint", str(tmp_path), "--json"])
    assert rc == 0 and err == ""
    r = json.loads(out)
    assert r["latency"]["pimc"]["positions"] == 6 and r["latency"]["expectimax_late"]["positions"] == 4
    assert r["latency"]["alphamu"]["positions"] == 4 and r["latency"]["alphamu_late"]["positions"] == 2
    assert r["sampler"]["deals_per_s"] > 0 and r["rejection_sampler_python"]["positions"] == 2
    assert set(r["both_to_single"]) == set(r["both_to_single_paired"]) == {"pimc", "expectimax", "alphamu"}
    assert "ms_each" not in r["latency"]["pimc"]
    # the other objective (a review: "pimc_win" timed the default's configuration again)
    assert r["latency"]["pimc_points"]["positions"] == 6 and "pimc_win" not in r["latency"]
    # on a terminal: the table, and meanwhile (a review: a minute of nothing) the step being timed
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(sys.executable, ["-m", "fiveup_solver.cli", "bench", "--hint", str(tmp_path)],
                          encoding="utf-8", timeout=120, dimensions=(24, 100))
    child.expect(pexpect.EOF)
    child.close()
    text = child.before.replace("\r\n", "\n")
    assert child.exitstatus == 0
    assert "both currencies / one, pimc:" in text and "median of each position's ratio" in text
    steps = re.findall(r"\rtiming hints (\d+)/(\d+) ([\w, -]+): \d+ s; Ctrl-C stops it", text)
    labels = {"the exact sampler", "pure-Python rejection sampling", "the exact sampler, early positions"}
    assert steps and {(n, label in labels | set(r["latency"])) for _, n, label in steps} == {("18", True)}
    assert [int(k) for k, _, _ in steps] == sorted(int(k) for k, _, _ in steps)     # in order
    assert text.split("\rtiming")[-1].count("\r") >= 2        # the line cleared (spaces, back to the start)
    assert text.rstrip().endswith("x") or "note:" in text
    rc, out, err = run(capsys, ["bench", "--hint", str(tmp_path / "nowhere")])
    assert rc == 2 and "hint_positions.json is missing" in err


def test_the_solver_bench_reports_each_timing_before_it_starts(tmp_path):
    """`fiveup bench --solver` shows the timing under way on a terminal (_bench_steps, as
    the hint bench's test sees in a pseudo-terminal): solver_report calls on_step once
    before each timing, in the report's order, each with its number and the total."""
    from fiveup_solver.bench import SOLVER_SUITES, solver_report
    for name in SOLVER_SUITES:    # the first two positions of each suite
        entries = json.loads((ROOT / "benchmarks" / "data" / f"{name}.json").read_text())[:2]
        (tmp_path / f"{name}.json").write_text(json.dumps(entries))
    seen = []
    report = solver_report(tmp_path, on_step=lambda label, k, n: seen.append((label, k, n)))
    timed = [f"{name} {mode}" for name, modes in report.items() for mode in modes]
    assert seen == [(label, k, len(timed)) for k, label in enumerate(timed)]
    assert "openings_2p value_win" in timed and "midround all_moves" in timed and len(timed) >= 16


def test_a_bad_bench_suite_position_is_named_with_its_file(tmp_path, capsys):
    """A review: a hint suite's bad seat, record or round was refused without the file or
    the position; a solver suite's "scores": null was benchmarked from 0 : 0."""
    suite = json.loads((ROOT / "benchmarks" / "data" / "hint_positions.json").read_text())
    entry = next(p for p in suite if p["record"]["players"] == 2)
    for key, value, words in (("seat", 9, "seat must be 0..1, not 9"), ("round", 99, "round 99 is not in the record")):
        folder = tmp_path / key
        folder.mkdir()
        (folder / "hint_positions.json").write_text(json.dumps([entry, {**entry, key: value}]))
        rc, out, err = run(capsys, ["bench", "--hint", str(folder)])
        assert rc == 2 and err.startswith(f"error: {folder / 'hint_positions.json'}: position 1: {words}")
        assert err.count("\n") == 1
    from fiveup_solver.bench import load_suite
    from fiveup_solver.errors import OptionError
    near = json.loads((ROOT / "benchmarks" / "data" / "near_target.json").read_text())
    path = tmp_path / "near_target.json"
    path.write_text(json.dumps([{**near[0], "scores": None}]))
    with pytest.raises(OptionError, match=r"position 0: scores must list the sides' raw scores, not null"):
        load_suite(path)


# ---------------------------------------------------------------- race equity and objectives

@pytest.mark.parametrize("players,scores", [(2, "290,0"), (3, "100,200,0"), (4, "0,300")])
def test_equity_prints_win_probabilities(players, scores, capsys):
    from fiveup_solver.equity import win_probabilities
    rc, out, err = run(capsys, ["equity", "--players", str(players), "--scores", scores, "--starter", "1",
                                "--json"])
    assert rc == 0 and err == ""
    d = json.loads(out)
    want = win_probabilities(players, [int(x) for x in scores.split(",")], starter=1)
    assert d["win"] == [round(p, 6) for p in want]
    assert abs(sum(d["win"]) + d["unfinished"] - 1) < 1e-5
    rc, out, err = run(capsys, ["equity", "--players", str(players), "--scores", scores])
    assert rc == 0 and "side 0: win" in out and "starter drawn" in out


@pytest.mark.parametrize("argv,text", [
    (["equity", "--players", "2"], "--scores"),
    (["equity", "--players", "2", "--scores", "1,0"], "multiple of 5"),
    (["equity", "--players", "2", "--scores", "0,x"], "--scores"),
    (["equity", "--players", "3", "--scores", "0,0"], "3 raw scores"),
    (["equity", "--players", "2", "--scores", "0,0", "--starter", "2"], "starter"),
    (["equity", "--players", "2", "--scores", "0,0", "--starter", "one"], "--starter"),
    (["equity", "build", "--players", "2", "--samples", "/nonexistent.npz"], "no such file"),
    # options of the other form were silently dropped (a build that ignores --scores runs for minutes)
    (["equity", "--players", "2", "--scores", "0,0", "--rounds", "5"], "--rounds: an option of 'fiveup equity build'"),
    (["equity", "--players", "2", "--scores", "0,0", "--out", "t.npz"], "--out: an option of 'fiveup equity build'"),
    (["equity", "build", "--players", "2", "--scores", "0,0"], "--scores: not an option of 'fiveup equity build'"),
    (["equity", "build", "--players", "2", "--json"], "--json: not an option of 'fiveup equity build'"),
    (["equity", "build", "--players", "2", "--samples", "--rounds", "5"], "--rounds: an option of the self-play"),
])
def test_equity_bad_options(argv, text, capsys):
    rc, out, err = run(capsys, argv)
    assert rc == 2 and out == "" and err.startswith("error: ") and text in err and err.count("\n") == 1


def test_equity_build_from_saved_samples(tmp_path, capsys):
    from fiveup_solver.equity import EquityTable, collect_rounds
    samples = collect_rounds(2, 4, seed=3, bot="greedy")
    samples.save(str(tmp_path / "s.npz"))
    rc, out, err = run(capsys, ["equity", "build", "--players", "2", "--samples", str(tmp_path / "s.npz"),
                                "--out", str(tmp_path / "t.npz")])
    assert rc == 0 and "4 rounds" in out
    t = EquityTable.load(str(tmp_path / "t.npz"))
    assert t.rounds == 4 and t.bot == "greedy" and abs(sum(t.probabilities([0, 0], 0)) - 1) < 1e-4


def test_hint_and_solve_report_both_currencies(tmp_path, capsys):
    rec, full, view, i, g = hint_record(tmp_path)
    rc, out, err = run(capsys, ["hint", str(full), "--seat", "1", "--round", "0", "--action", str(i),
                                "--samples", "12", "--objective", "win"])
    assert rc == 0 and "objective win" in out
    lines = [line for line in out.splitlines() if re.match(r"^\s+\d+\. ", line)]
    assert len(lines) == len(g.legal_moves)
    # each value with its standard error (a review: only the differences carried one)
    assert all(re.search(r"win +\d+\.\d \+- \d+\.\d %  +[+-]\d+\.\d \+- \d+\.\d pts", line) for line in lines)
    assert "best" in lines[0] and all("win-%" in line for line in lines[1:])
    assert out.endswith("+-: a standard error over the worlds searched\n")
    rc, out, err = run(capsys, ["hint", str(full), "--seat", "1", "--round", "0", "--action", str(i),
                                "--samples", "12", "--objective", "win", "--json"])
    d = json.loads(out)
    assert d["objective"] == "win"
    for m in d["moves"]:
        assert 0 <= m["win"] <= 1 and m["value"] == m["win"] and m["loss"] >= 0 and m["loss_stderr"] >= 0
    # the text marks the best move by the objective it is best by (points by default)
    rc, out, err = run(capsys, ["solve", str(full), "--round", "0", "--action", str(i)])
    assert rc == 0 and "objective points" in out and "  best (points)\n" in out and "  best\n" not in out
    rc, out, err = run(capsys, ["solve", str(full), "--round", "0", "--action", str(i), "--objective", "win",
                                "--json"])
    d = json.loads(out)
    assert rc == 0 and d["objective"] == "win" and set(d["win"]) == set(d["points"]) == set(d["values"])
    assert all(abs(d["win"][m] - (1000 + v) / 2000) < 1e-6 for m, v in d["values"].items())


def test_show_writes_svg_and_png(tmp_path, capsys):
    import xml.etree.ElementTree as ET
    g = play_game(2, 5, ["greedy", "random"], max_rounds=2)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(g.to_record()))
    rc, out, err = run(capsys, ["show", str(path), "--round", "0", "--action", "6"])
    assert rc == 0 and err == ""
    root = ET.fromstring(out)
    pos = game_at(g.to_record(), 0, 6)
    tiles = [e.get("data-tile") for e in root.iter() if e.get("data-tile")]
    assert sorted(tiles) == sorted(str(t) for t in pos.board)
    assert run(capsys, ["show", str(path), "--svg", str(tmp_path / "b.svg")])[0] == 0
    assert (tmp_path / "b.svg").read_text().startswith("<svg")
    pytest.importorskip("cairosvg")
    assert run(capsys, ["show", str(path), "--png", str(tmp_path / "b.png")])[0] == 0
    assert (tmp_path / "b.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("argv,text", [
    (["--round", "9", "--action", "0"], "round 9"),
    (["--round", "0"], "together"),
    (["--size", "3"], "size"),
    (["--svg", "a.svg", "--png", "b.png"], "not both"),
    (["--svg", "/nonexistent/dir/b.svg"], "cannot write"),
    (["--png", "out.jpg"], "--png out.jpg: give a .png file name"),      # wrote PNG bytes into out.jpg
    (["--svg", "out.png"], "--svg out.png: give a .svg file name"),      # wrote SVG text into out.png
])
def test_show_bad_options(argv, text, tmp_path, capsys):
    g = play_game(2, 5, ["greedy", "random"], max_rounds=2)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(g.to_record()))
    rc, out, err = run(capsys, ["show", str(path)] + argv)
    assert rc == 2 and out == "" and err.startswith("error: ") and text in err and err.count("\n") == 1


def test_equity_build_with_near_target_sets(tmp_path, capsys):
    import numpy as np
    from fiveup_solver.equity import EquityTable, RoundSamples, collect_samples, near_anchors
    s, t = str(tmp_path / "s.npz"), str(tmp_path / "t.npz")
    rc, out, err = run(capsys, ["equity", "build", "--players", "2", "--rounds", "6", "--near-rounds", "1",
                                "--bot", "greedy", "--workers", "2", "--seed", "1", "--save-samples", s,
                                "--out", t, "--quiet"])
    anchors = near_anchors(2)
    assert rc == 0 and f"{6 + len(anchors):,} rounds" in out
    samples = RoundSamples.load(s)
    assert samples.anchors == tuple(anchors) and list(samples.set_offset[:3]) == [0, 6, 7]
    assert len(samples.set_offset) == len(anchors) + 2
    # the same samples, played in one process, are the same rounds
    again = collect_samples(2, 6, 1, seed=1, bot="greedy", workers=1)
    assert np.array_equal(again.ev_raw, samples.ev_raw) and np.array_equal(again.end, samples.end)
    table = EquityTable.load(t)
    assert abs(sum(table.probabilities([295, 40], 1)) - 1) < 1e-4
    rc, out, err = run(capsys, ["equity", "build", "--players", "2", "--near-rounds", "-1"])
    assert rc == 2 and "--near-rounds" in err


@pytest.mark.parametrize("argv,worker", [
    (["selfplay", "--games", "2", "--out", "{missing}/games.jsonl"], "selfplay.play_game"),
    (["match", "--bots", "greedy,random", "--deals", "2", "--workers", "1", "--records", "{dir}"], "match.play_pairs"),
    (["ladder", "--games", "2", "--entrants", "level1,level5", "--workers", "1", "--out", "{missing}/l.json"],
     "ladder.run_ladder"),
    (["analyze", "{record}", "--html", "{missing}/report.html"], "analysis.analyze"),
    (["analyze", "{record}", "--plot", "{dir}"], "analysis.analyze"),
    (["play", "--bots", "greedy", "--record", "{missing}/game.json"], "play.play_in_terminal"),
])
def test_an_output_file_that_cannot_be_written_fails_before_the_work(argv, worker, tmp_path, capsys,
                                                                     monkeypatch):
    """These commands wrote their file only at the end: a ladder of 25 minutes, an analysis or a
    whole game typed in the terminal ran first, then was lost to a missing directory."""
    g = Game(players=2, seed=3)
    (tmp_path / "g.json").write_text(json.dumps(g.to_record()))
    argv = [a.format(missing=tmp_path / "no-such-dir", dir=tmp_path, record=tmp_path / "g.json") for a in argv]

    def must_not_run(*a, **k):
        raise AssertionError(f"{worker} ran before the output path was checked")
    # the command imports its worker from the worker's module when it runs
    monkeypatch.setattr(f"fiveup_solver.{worker}", must_not_run)
    rc, out, err = run(capsys, argv)
    assert rc == 2 and out == ""
    assert err.startswith("error: --") and err.count("\n") == 1
    assert "cannot write" in err or "give a .png or .svg" in err


def test_options_the_output_would_drop_are_refused(tmp_path, capsys):
    """An option the chosen form does not use is one error line, not silently dropped."""
    rec, full, view, i, g = hint_record(tmp_path)
    where = [str(full), "--seat", "1", "--round", "0", "--action", str(i)]
    cases = [
        (["sample", *where, "--probabilities", "--n", "5"], "--n sets how many deals"),
        (["sample", *where, "--probabilities", "--seed", "3"], "--seed does not apply"),
        (["ladder", "--shipped", "--games", "4"], "--games is for running one"),
        (["ladder", "--shipped", "--seed", "1"], "--seed is for running one"),
        (["ladder", "--shipped", "--out", str(tmp_path / "l.json")], "--out is for running one"),
        (["match", "--bots", "greedy,random", "--deals", "1", "--workers", "2", "--ray", "auto"],
         "--workers sets local worker processes"),
        (["sprt", "--bots", "greedy,random", "--workers", "2", "--ray", "auto"], "--workers sets local"),
        (["ladder", "--games", "2", "--workers", "2", "--ray", "auto"], "--workers sets local"),
    ]
    for argv, text in cases:
        rc, out, err = run(capsys, argv)
        assert rc == 2 and out == "", argv
        assert err.startswith("error: ") and err.count("\n") == 1 and text in err, (argv, err)
    assert not (tmp_path / "l.json").exists()
    # the forms that use them still work: n deals listed, and the exact probabilities without n or seed
    rc, out, _ = run(capsys, ["sample", *where, "--n", "3", "--seed", "3", "--json"])
    assert rc == 0 and len(json.loads(out)) == 3
    rc, out, _ = run(capsys, ["sample", *where, "--json"])
    assert rc == 0 and len(json.loads(out)) == 10                      # the default n
    rc, out, _ = run(capsys, ["sample", *where, "--probabilities", "--json"])
    assert rc == 0 and all(abs(sum(p.values()) - 1) < 1e-9 for p in json.loads(out).values())
    rc, out, _ = run(capsys, ["ladder", "--shipped", "--json"])
    assert rc == 0 and json.loads(out)


def test_bench_names_a_malformed_suite_entry_in_one_line(tmp_path, capsys):
    """A suite file whose entries are not position objects gave a 25-line traceback."""
    solver_dir, hint_dir = tmp_path / "s", tmp_path / "h"
    solver_dir.mkdir()
    hint_dir.mkdir()
    (solver_dir / "openings_2p.json").write_text("[1, 2]")
    for name in ("openings_4p", "midround", "near_target"):
        (solver_dir / f"{name}.json").write_text("{}")
    (hint_dir / "hint_positions.json").write_text('[{"x": 1}]')
    for argv, text in ((["bench", "--solver", str(solver_dir)], "position 0 is a JSON object"),
                       (["bench", "--hint", str(hint_dir)], "position 0 has no 'record'")):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert text in err and err.count("\n") == 1 and "Traceback" not in err
    (hint_dir / "hint_positions.json").write_text('[{"record": {}, "round": 0, "action": "1", "seat": 0}]')
    assert main(["bench", "--hint", str(hint_dir)]) == 2
    assert "position 0's action is an integer" in capsys.readouterr().err


def test_a_bot_for_another_player_count_is_refused_before_the_game_starts(capsys):
    """demo and play printed the banner and the first round before alphamu's first decision
    refused 3 players; the bot list is checked against the player count first."""
    for argv in (["demo", "--players", "3", "--bots", "hint-alphamu"],
                 ["demo", "--players", "4", "--bots", "greedy,hint-alphamu-d3"],
                 ["selfplay", "--players", "3", "--bots", "hint-alphamu:2:50", "--games", "1"]):
        assert main(argv) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and "searches 2 players" in captured.err, argv


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("args", [["demo"], ["demo", "--players", "4", "--bots", "greedy"]])
def test_an_output_that_cannot_be_written_is_one_error_line(args):
    """A review: `fiveup demo > /dev/full` ended in an OSError traceback (exit 1)."""
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "fiveup_solver.cli", *args], stdout=full,
                           stderr=subprocess.PIPE, text=True, timeout=120)
    assert r.returncode == 2
    assert r.stderr == "error: cannot write the output (No space left on device)\n"


def test_selfplay_writes_each_game_as_it_ends(tmp_path, monkeypatch, capsys):
    """A review: selfplay kept every game (and a list of every seed) until the end, so a
    long run printed nothing and Ctrl-C lost every finished game. Interrupted at its third
    game, the file holds the first two, whole."""
    from fiveup_solver import selfplay
    played = []
    real = selfplay.play_game

    def play(*args, **kwargs):
        if len(played) == 2:
            raise KeyboardInterrupt
        played.append(1)
        return real(*args, **kwargs)
    monkeypatch.setattr(selfplay, "play_game", play)
    path = tmp_path / "games.jsonl"
    assert main(["selfplay", "--games", "1000000000", "--bots", "greedy", "--out", str(path)]) == 130
    lines = path.read_text().splitlines()
    assert len(lines) == 2 and all(json.loads(line)["format"] == "fiveup-record/1" for line in lines)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
@pytest.mark.parametrize("how", ["worlds", "exact"])
def test_ctrl_c_stops_a_long_hint(tmp_path, how):
    """A review: Ctrl-C during a hint waited for the search's end: 40 s for many worlds, 13 s
    for --method exact. The main thread now looks for it between worlds, and every 65,536
    positions of the exact search: exit 130 with the one-line message (uninterrupted, the
    first takes minutes, the second about 15 s)."""
    if how == "worlds":
        record = tmp_path / "game.json"
        assert main(["selfplay", "--seed", "2", "--out", str(record)]) == 0
        args = ["--seat", "0", "--round", "0", "--action", "0", "--samples", "200000", "--threads", "2"]
    else:
        record = Path(__file__).parent / "data" / "exact_slow_position.json"      # the review's game
        args = ["--seat", "0", "--round", "1", "--action", "3", "--method", "exact"]
    assert interrupted_after(5, ["hint", str(record), *args]) == (130, "", "error: interrupted\n")


def interrupted_after(seconds, argv) -> tuple:
    """(exit status, stdout, stderr) of `fiveup ARGV` sent SIGINT after `seconds` (past the
    imports: in the search), as from a terminal (a test runner's worker may ignore SIGINT)."""
    import signal
    import time
    proc = subprocess.Popen([sys.executable, "-m", "fiveup_solver.cli", *argv],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(seconds)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    return proc.returncode, out, err


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_ctrl_c_stops_a_deep_perft(tmp_path):
    """A review: `fiveup perft --depth 40` ignored two Ctrl-Cs for minutes (its count never
    looked for a signal). It now looks every 65,536 counted positions: exit 130, one line.
    The count itself is unchanged (the perft tests' numbers)."""
    record = tmp_path / "game.jsonl"
    # (the review's game: seed 0's round 0 has over 10^8 sequences at depth 18, in 0.5 s)
    assert main(["selfplay", "--games", "1", "--out", str(record)]) == 0
    assert interrupted_after(3, ["perft", str(record), "--round", "0", "--depth", "40"]) == (
        130, "", "error: interrupted\n")


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
@pytest.mark.parametrize("how", ["maxn", "threads"])
def test_ctrl_c_stops_a_long_solve(tmp_path, how):
    """A review: Ctrl-C during `fiveup solve` waited for the search's end (94 s for a 3-player
    max^n solve of 1.04 billion nodes). The solver now looks for it every 65,536 nodes: exit
    130 with the one-line message. "threads": the 2-player opening whose every-move solve
    takes minutes, with a helper thread (Lazy SMP), which ends with the main search."""
    if how == "maxn":
        record = Path(__file__).parent / "data" / "maxn_slow_position.json"
        args = ["--round", "0", "--action", "0", "--three", "maxn"]
    else:
        entry = json.loads((Path(__file__).parent.parent / "benchmarks" / "data" / "openings_2p.json").read_text())[22]
        record = tmp_path / "opening22.json"
        record.write_text(json.dumps(entry["record"]))
        args = ["--round", str(entry["round"]), "--action", str(entry["action"]), "--threads", "2"]
    assert interrupted_after(4, ["solve", str(record), *args]) == (130, "", "error: interrupted\n")


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
@pytest.mark.parametrize("quiet", [False, True])
def test_a_long_solve_says_on_the_terminal_that_it_is_still_at_work(quiet):
    """A review: a rare exact solve ran for over 10 minutes and showed nothing meanwhile.
    On a terminal, after 2 s, stderr carries a line rewritten every second with the time so
    far and how to stop it; Ctrl-C clears it. --quiet (and a stderr that is no terminal,
    test_ctrl_c_stops_a_long_solve) shows none."""
    pexpect = pytest.importorskip("pexpect")
    record = Path(__file__).parent / "data" / "maxn_slow_position.json"
    args = ["-m", "fiveup_solver.cli", "solve", str(record), "--round", "0", "--action", "0", "--three", "maxn"]
    child = pexpect.spawn(sys.executable, args + ["--quiet"] * quiet, encoding="utf-8", timeout=60,
                          dimensions=(24, 100))
    if quiet:
        assert child.expect([r"solving exactly", pexpect.TIMEOUT], timeout=4) == 1
    else:
        child.expect(r"\rsolving exactly: (\d+) s; Ctrl-C stops it, --node-limit N bounds it")
        first = int(child.match.group(1))
        child.expect(r"\rsolving exactly: (\d+) s;")
        assert first >= 2 and int(child.match.group(1)) > first      # rewritten as the time goes on
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    rest = child.before                   # (the terminal echoes the ^C)
    assert rest.rstrip().endswith("\nerror: interrupted")
    assert not quiet or "solving" not in rest
    # cleared before the error line: spaces over the whole line, back to its start
    assert quiet or re.search(r"\r {50,}\r", rest)


def test_a_file_of_several_games_is_read_one_game_at_a_time(tmp_path, capsys):
    """A review: replay and analyze could not read what selfplay and match --records write
    (JSON Lines: 'Extra data'), and a UTF-8 byte-order mark was refused. --game K picks a
    game; a file of several without it names how many it holds."""
    path = tmp_path / "three.jsonl"
    assert main(["selfplay", "--games", "3", "--seed", "5", "--bots", "greedy", "--out", str(path)]) == 0
    lines = path.read_text().splitlines()
    capsys.readouterr()
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err == f"error: {path}: 3 games (JSON Lines): choose one with --game K, 0 to 2\n"
    for k, line in enumerate(lines):
        one = tmp_path / f"one{k}.json"
        one.write_text(line)
        assert main(["replay", str(path), "--game", str(k), "--json"]) == 0
        from_lines = capsys.readouterr().out
        assert main(["replay", str(one), "--json"]) == 0
        assert from_lines == capsys.readouterr().out
    assert main(["replay", str(path), "--game", "3"]) == 2
    assert capsys.readouterr().err == f"error: {path}: no game 3 (it holds 3: --game 0 to 2)\n"
    assert main(["replay", str(path), "--game", "-1"]) == 2
    assert capsys.readouterr().err == "error: the game number (--game) counts from 0, not -1\n"
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + lines[0].encode())
    assert main(["replay", str(bom), "--json"]) == 0
    starter = json.loads(lines[1])["rounds"][0]["starter"]        # to move at game 1's first action
    assert main(["hint", str(path), "--game", "1", "--seat", str(starter), "--round", "0", "--action", "0",
                 "--samples", "4"]) == 0


def test_errors_name_the_option_not_the_api_parameter(tmp_path, capsys, monkeypatch):
    """A review: messages named the Python parameter (max_games, elo1, size, threads), and
    match --records - wrote a file named '-'."""
    monkeypatch.chdir(tmp_path)
    record = tmp_path / "game.json"
    assert main(["selfplay", "--seed", "2", "--out", str(record)]) == 0     # seat 0 starts its first round
    cases = [
        (["sprt", "--bots", "greedy,random", "--elo1", "-5"], "error: --elo1 (-5.0) must be larger than --elo0 (0.0)"),
        (["sprt", "--bots", "greedy,random", "--max-games", "1"], "error: --max-games must be an integer from 2"),
        (["show", str(record), "--size", "5"], "error: --size must be a number of pixels from 16 to 20000, not 5"),
        (["solve", str(record), "--round", "0", "--action", "0", "--threads", "80"],
         "error: --threads must be an integer from 1 to 64, not 80"),
        (["hint", str(record), "--seat", "0", "--round", "0", "--action", "0", "--threads", "80"],
         "error: --threads must be an integer from 1 to 64, not 80"),
        # a location and a seat are not options: left as they are
        (["hint", str(record), "--seat", "1", "--round", "0", "--action", "0"],
         "error: round 0 action 0: seat 1 is not to move (seat 0 is to move)"),
        (["match", "--bots", "greedy,random", "--deals", "1", "--records", "-"],
         "error: --records needs a file name: standard output carries the match's result"),
    ]
    for argv, start in cases:
        capsys.readouterr()
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith(start) and err.count("\n") == 1, (argv, err)
    assert not (tmp_path / "-").exists()


def test_small_things_a_review_found(tmp_path, capsys, monkeypatch):
    """--version; a hint at a finished record's default position says to give a position;
    a forced move's hint says nothing was searched; bench outside a checkout says where the
    suites are."""
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0 and re.fullmatch(r"fiveup \d+\.\d+\.\d+\n", capsys.readouterr().out)
    record = tmp_path / "game.json"
    assert main(["selfplay", "--seed", "2", "--out", str(record)]) == 0
    capsys.readouterr()
    assert main(["hint", str(record), "--seat", "0"]) == 2
    assert "is the end of its round: give --round and --action" in capsys.readouterr().err
    # the units of a hint's numbers, said under its table
    assert main(["hint", str(record), "--seat", "0", "--round", "0", "--action", "0", "--samples", "4"]) == 0
    assert capsys.readouterr().out.endswith("win: the chance that the seat's side wins the game\n"
                                            "pts: expected raw points this round, side less others "
                                            "(5 raw = 1 display point; a world where the game is won or "
                                            "lost counts +-1000)\n+-: a standard error over the worlds searched\n")
    monkeypatch.chdir(tmp_path)
    assert main(["bench", "--solver"]) == 2
    assert "a source checkout's benchmarks/data" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["demo"], ["play"], ["selfplay"], ["match"], ["sprt", "--bots", "greedy,random"],
                                  ["equity", "--scores", "0,0"], ["equity", "build"]])
def test_every_players_option_refuses_alike(argv, capsys):
    """A review: --players 5 read as argparse's "invalid choice" in demo and play, and as the
    engine's own line elsewhere."""
    assert main(argv + ["--players", "5"]) == 2
    assert capsys.readouterr().err == "error: --players must be 2, 3 or 4, not 5\n"


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc (Linux): a folder no file can be made in")
def test_an_output_file_in_a_folder_that_takes_none_fails_before_the_work(tmp_path, capsys, monkeypatch):
    """A review: `analyze --html /proc/r.html` ran the whole analysis, then failed at its
    write (the text report lost too); `show --png` there printed cairo's status code."""
    record = tmp_path / "g.json"
    record.write_text(json.dumps(Game(players=2, seed=3).to_record()))

    def must_not_run(*a, **k):
        raise AssertionError("the analysis ran before the output path was checked")
    monkeypatch.setattr("fiveup_solver.analysis.analyze", must_not_run)
    for argv, option in ((["analyze", str(record), "--html", "/proc/r.html"], "--html"),
                         (["show", str(record), "--png", "/proc/x.png"], "--png"),
                         (["show", str(record), "--svg", "/proc/x.svg"], "--svg")):
        rc, out, err = run(capsys, argv)
        assert rc == 2 and out == ""
        assert err == f"error: {option} {argv[-1]}: cannot write (No such file or directory)\n", err


def test_match_writes_each_units_records_as_it_ends(tmp_path, monkeypatch):
    """A review: `fiveup match --records` kept every record until the match's end (10 to 15 KB
    a game) and Ctrl-C lost them all. Interrupted after its second pair, the file holds the
    first two pairs' four games, whole."""
    from fiveup_solver import match
    real = match.play_pairs

    def pairs(*args, **kwargs):
        for k, unit in enumerate(real(*args, **kwargs)):
            if k == 2:
                raise KeyboardInterrupt
            yield unit
    monkeypatch.setattr(match, "play_pairs", pairs)
    path = tmp_path / "records.jsonl"
    assert main(["match", "--bots", "greedy,random", "--deals", "1000", "--workers", "1",
                 "--records", str(path)]) == 130
    lines = path.read_text().splitlines()
    assert len(lines) == 4 and all(json.loads(line)["format"] == "fiveup-record/1" for line in lines)


def test_solve_reads_in_win_probability_first_and_says_what_it_could_not_value(capsys, tmp_path, monkeypatch):
    """A review of `fiveup solve`: its header gave raw points only (or 1000 x (P(win) -
    P(loss)) under --objective win), a lost game as "-1000 raw"; under --node-limit the
    win column vanished with exit 0 and "win": {} in JSON, nothing saying why; a
    transposition table the machine cannot hold was a MemoryError traceback."""
    path = tmp_path / "game.json"
    assert main(["selfplay", "--seed", "2", "--out", str(path)]) == 0
    capsys.readouterr()
    rc, out, err = run(capsys, ["solve", str(path), "--round", "0", "--action", "0", "--json"])
    d = json.loads(out)
    assert rc == 0 and d["exact"] is True and set(d["win"]) == set(d["values"])
    rc, out, err = run(capsys, ["solve", str(path), "--round", "0", "--action", "0"])
    lines = out.splitlines()
    best_win, best_points = max(d["win"].values()), max(d["points"].values())
    assert lines[1] == (f"value: win {100 * best_win:.1f} %; {best_points:+d} raw points this round for its side "
                        "(each with its own best move)")
    assert lines[-1].startswith("win: P(its side wins the game), exact play to the round's end, then the "
                                "race-equity table (an estimate")
    # the same position under --objective win: its header is a win probability too
    rc, out, err = run(capsys, ["solve", str(path), "--round", "0", "--action", "0", "--objective", "win"])
    assert out.splitlines()[1].startswith(f"value: win {100 * best_win:.1f} %; ")
    # a seat that must draw first: the draws, as the record's own actions made them
    record = json.loads(path.read_text())
    actions = record["rounds"][0]["actions"]
    first = next(i for i, a in enumerate(actions) if "draw" in a)
    drawn = [a["draw"] for a in actions[first:] if "draw" in a and a["seat"] == actions[first]["seat"]]
    drawn = drawn[:next((k for k, a in enumerate(actions[first:]) if "draw" not in a), len(drawn))]
    rc, out, err = run(capsys, ["solve", str(path), "--round", "0", "--action", str(first), "--json"])
    assert json.loads(out)["draws"] == drawn and drawn
    rc, out, err = run(capsys, ["solve", str(path), "--round", "0", "--action", str(first)])
    assert out.splitlines()[2] == f"it must draw first: {' '.join(drawn)} (the boneyard's next tiles), then the moves below"
    # the draws end the round (blocked): no move to value, the position's value in both
    # currencies (a review: the objective's alone, and "it passes"), and no currency "cut by the
    # node limit" (there is none: a reread of the change found it said so)
    import random
    from fiveup_solver import Game
    g, rng = Game(players=2, seed=107), random.Random(107)
    while g.round_over or [m.kind for m in g.legal_moves] != ["draw"] or len(g.boneyard) != 1:
        g.next_round() if g.round_over else g.push(rng.choice(g.legal_moves))
    passing = tmp_path / "passing.json"
    passing.write_text(json.dumps(g.to_record()))
    where = ["--round", str(len(g.rounds) - 1), "--action", str(len(g.current.moves))]
    rc, out, err = run(capsys, ["solve", str(passing), *where, "--json"])
    d = json.loads(out)
    assert rc == 0 and d["values"] == {} and d["draws"] == [str(g.boneyard[0])]
    rc, out, err = run(capsys, ["solve", str(passing), *where, "--objective", "win", "--json"])
    value = json.loads(out)["value"]
    win = (1000 + value) / 2000                                                         # P(win) = (1000 + v) / 2000
    rc, out, err = run(capsys, ["solve", str(passing), *where])
    lines = out.splitlines()
    assert lines[1] == f"value: win {100 * win:.1f} %; {d['value']:+d} raw points this round for its side"
    assert lines[2] == (f"it must draw first: {g.boneyard[0]} (the boneyard's next tiles), and the round ends "
                        "blocked: nobody can place")
    assert "not known" not in out and "principal variation" not in out
    rc, out, err = run(capsys, ["solve", str(passing), *where, "--objective", "win"])
    assert out.splitlines()[1] == f"value: win {100 * win:.1f} %; {d['value']:+d} raw points this round for its side"
    # a round whose every line ends the game lost: said so, not as -1000 raw points
    last = len(record["rounds"]) - 1
    rc, out, err = run(capsys, ["solve", str(path), "--round", str(last), "--action", "0", "--json"])
    assert set(json.loads(out)["points"].values()) == {-1000}       # (this seed's last round)
    rc, out, err = run(capsys, ["solve", str(path), "--round", str(last), "--action", "0"])
    assert out.splitlines()[1] == "value: win 0.0 %; another side reaches 305: lost (each with its own best move)"
    # the second currency's search cut by the node limit: said, and an empty win in JSON
    for limit in range(500, 20_000, 500):
        rc, out, err = run(capsys, ["solve", str(path), "--round", "0", "--action", "0", "--node-limit", str(limit),
                                    "--json"])
        if rc == 0 and not json.loads(out)["win"]:
            break
    else:
        pytest.fail("no node limit cut the win search alone")
    assert json.loads(out)["exact"] is True and json.loads(out)["points"]
    rc, out, err = run(capsys, ["solve", str(path), "--round", "0", "--action", "0", "--node-limit", str(limit)])
    assert rc == 0 and f"win %: not known: its search needed more than --node-limit {limit:,} nodes\n" in out
    assert "win " not in out.splitlines()[1]
    # a table this machine cannot allocate: one line naming the option, exit 2
    from fiveup_solver import _solver

    def no_memory(*a):
        raise MemoryError("cannot allocate the transposition table")
    monkeypatch.setattr(_solver, "SolverCore", no_memory)
    rc, out, err = run(capsys, ["solve", str(path), "--round", "0", "--action", "0", "--tt-mb", "4000"])
    assert rc == 2 and err.startswith("error: --tt-mb 4000.0: this machine cannot allocate a transposition table")
    assert err.count("\n") == 1
    from fiveup_solver.errors import OptionError
    from fiveup_solver.solver import Solver
    with pytest.raises(OptionError, match=r"^tt_mb 16: this machine cannot allocate"):
        Solver()
    # any other allocation failure: one line too
    monkeypatch.setattr("fiveup_solver.cli.load_record", no_memory)
    rc, out, err = run(capsys, ["replay", str(path)])
    assert (rc, err) == (2, "error: out of memory: cannot allocate the transposition table\n")


@pytest.mark.parametrize("command", [["solve", "--round", "0", "--action", "2"],
                                     ["hint", "--round", "0", "--action", "2", "--seat", "1"],
                                     ["analyze", "--quiet"]])
def test_three_is_refused_for_a_game_of_two_or_four_players(tmp_path, capsys, command):
    """A session's note: `--three maxn` on a 2-player game was taken and dropped (one
    minimax: nothing to choose), by solve, hint and analyze alike. It names what it is for
    and the game's players; with 3 players it is taken (test_ctrl_c_stops_a_long_solve)."""
    for players in (2, 4):
        record = tmp_path / f"game{players}.json"
        assert main(["selfplay", "--players", str(players), "--seed", "2", "--out", str(record)]) == 0
        capsys.readouterr()
        args = [command[0], str(record), *command[1:], "--three", "maxn"]
        if players == 4 and command[0] == "hint":
            args[args.index("--seat") + 1] = str(json.loads(record.read_text())["rounds"][0]["starter"] + 2 & 3)
        assert main(args) == 2
        assert capsys.readouterr().err == (f"error: --three maxn: says how 3 players are searched; this game has "
                                           f"{players} players (one minimax, nothing to choose)\n")


def test_a_png_picture_has_a_size_cap(tmp_path, capsys):
    """A review: `fiveup show --size 20000 --png` drew a 20000 x 12000 PNG, 625 MB and 11 s.
    A PNG is at most cli.PNG_MAX_SIZE pixels wide; an SVG scales to any size."""
    from fiveup_solver.cli import PNG_MAX_SIZE
    record = tmp_path / "g.json"
    assert main(["selfplay", "--seed", "2", "--out", str(record)]) == 0
    capsys.readouterr()
    assert main(["show", str(record), "--size", str(PNG_MAX_SIZE + 1), "--png", str(tmp_path / "b.png")]) == 2
    assert capsys.readouterr().err == (f"error: --size {PNG_MAX_SIZE + 1}: a PNG is at most {PNG_MAX_SIZE} pixels "
                                       "wide (an SVG, --svg, scales to any size)\n")
    assert not (tmp_path / "b.png").exists()
    assert main(["show", str(record), "--size", "20000", "--svg", str(tmp_path / "b.svg")]) == 0


def test_a_large_power_of_two_bound_reads_as_one(tmp_path, capsys):
    """A review: "--world-nodes must be an integer from 1 to 4611686018427387904"."""
    path = tmp_path / "g.json"
    assert main(["selfplay", "--seed", "2", "--out", str(path)]) == 0
    for argv, want in ((["hint", str(path), "--seat", "0", "--round", "0", "--action", "0", "--world-nodes", "0"],
                        "error: --world-nodes must be an integer from 1 to 2^62, not 0\n"),
                       (["analyze", str(path), "--dd-nodes", "-1"],
                        "error: analysis budget: --dd-nodes must be an integer from 0 to 2^62, not -1\n")):
        capsys.readouterr()
        assert main(argv) == 2
        assert capsys.readouterr().err == want


def test_show_on_a_terminal_says_how_to_write_a_file(tmp_path, capsys, monkeypatch):
    """A review: `fiveup show` on a terminal printed 3 KB of SVG and no word of --svg or
    --png; piped, the SVG alone (as before)."""
    import io
    path = tmp_path / "g.json"
    assert main(["selfplay", "--seed", "2", "--out", str(path)]) == 0
    capsys.readouterr()
    assert main(["show", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("<svg") and err == ""

    class Terminal(io.StringIO):
        def isatty(self):
            return True
    term = Terminal()
    monkeypatch.setattr("sys.stdout", term)
    assert main(["show", str(path)]) == 0
    assert term.getvalue().startswith("<svg")
    assert capsys.readouterr().err == "(the board as SVG text: --svg FILE writes it to a file, --png FILE as a picture)\n"


def test_hint_says_a_second_port_of_one_placement_once(tmp_path, capsys):
    """0-2 on 2-2's branchA and branchB are one placement (RULES §3.4): the hint's table
    gives its values once and says the other row is the same; --json keeps every legal
    move with its values, equal for the two. The position: seed 0, 2 players, the first
    legal move played seven times by seat 0 against greedy (as fiveup play's test)."""
    import io
    import re

    from fiveup_solver.play import TerminalGame
    tg = TerminalGame(2, ["greedy"], 0, 0, out=io.StringIO())
    tg.advance()
    for _ in range(7):
        tg.handle("1")
    path = tmp_path / "g.json"
    path.write_text(json.dumps(tg.game.to_record()))
    args = ["hint", str(path), "--seat", "0", "--samples", "8", "--beliefs", "uniform"]
    assert main(args) == 0
    rows = [x for x in capsys.readouterr().out.splitlines() if re.match(r" +\d\. ", x)]
    first = next(x for x in rows if "branchA" in x or "branchB" in x)
    other = "branchB" if "branchA" in first else "branchA"
    rank = re.match(r" +(\d)\.", first).group(1)
    assert [x for x in rows if other in x] == [f"   {int(rank) + 1}. 0-2@2-2:{other}  the same as {rank}"]
    assert sum(" win " in x for x in rows) == 2
    assert main(args + ["--json"]) == 0
    moves = {m["move"]: m for m in json.loads(capsys.readouterr().out)["moves"]}
    assert len(moves) == 3 and moves["0-2@2-2:branchA"]["win"] == moves["0-2@2-2:branchB"]["win"]


def test_a_wrong_word_for_equity_names_the_word_not_argparses_insides(capsys):
    """A review: `fiveup equity rebuild` said "argument action: invalid choice" (the
    parser's name for the positional)."""
    assert main(["equity", "rebuild"]) == 2
    err = capsys.readouterr().err
    assert err.endswith("error: argument build: invalid choice: 'rebuild' (choose from 'build')\n"), err
    assert "action" not in err
