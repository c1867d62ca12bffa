"""Fixes of a review of the race-equity tables and ``fiveup replay`` (report only: its
findings 1 to 7). Expected values are worked out here by hand, not read from the code."""
from __future__ import annotations

import json
import os

import numpy as np
import pytest

from fiveup_solver import equity
from fiveup_solver.cli import main
from fiveup_solver.equity import RoundSamples, build_table, equity_result

HERE = os.path.dirname(__file__)
BRANCH_BEST = os.path.join(HERE, "data", "analysis_branch_best.json")


def run(capsys, argv):
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


def one_round_samples(bot="greedy") -> RoundSamples:
    """One hand-made 2-player round: the starter's side scores +10 and its seat empties
    its hand (so the starter's side starts again)."""
    return RoundSamples(2, bot, 0, np.array([0, 1], np.int32), np.array([0], np.int8),
                        np.array([10], np.int16), np.array([0], np.int8))


# ---------------------------------------------------------------- 1. no stderr below the floor

def test_a_score_below_the_floor_gets_no_standard_error(capsys):
    # the 4-player table starts at 0: -4000 is looked up as 0, whose drawn-starter error
    # at 0 : 0 is 0 by symmetry; that is no error of -4000 : 0
    res = equity_result(4, "-4000,0")
    assert res["looked_up_as"] == [0, 0] and res["win"] == [0.5, 0.5]
    assert res["stderr"] is None and res["below_floor"] is True
    assert equity.load_table(4).standard_errors([-4000, 0], None) is None
    assert equity.load_table(4).standard_errors([-5, 0], 1) is None
    # at the scores the table holds the error is still given
    res = equity_result(4, "0,0", "0")
    assert res["below_floor"] is False and len(res["stderr"]) == 2
    rc, out, err = run(capsys, ["equity", "--players", "4", "--scores=-4000,0", "--json"])
    assert rc == 0 and err == ""
    got = json.loads(out)
    assert got["stderr"] is None and got["below_floor"] is True


# ---------------------------------------------------------------- 2. the pre-rename bot name

def test_samples_named_hint_are_read_as_hint_uniform(tmp_path):
    # `hint` named the uniform-beliefs hint bot when the shipped samples were played
    path = str(tmp_path / "old.npz")
    one_round_samples("hint").save(path)
    assert RoundSamples.load(path).bot == "hint-uniform"
    one_round_samples("greedy").save(path)
    assert RoundSamples.load(path).bot == "greedy"
    shipped = equity.samples_path(2)
    if os.path.exists(shipped):                   # a source checkout
        assert RoundSamples.load(shipped).bot == "hint-uniform" == equity.load_table(2).bot


# ---------------------------------------------------------------- 3. stuck states, not D6

def test_stuck_states_are_named_and_counted(tmp_path, capsys):
    samples, table = str(tmp_path / "one.rounds.npz"), str(tmp_path / "one.npz")
    one_round_samples().save(samples)
    rc, out, err = run(capsys, ["equity", "build", "--players", "2", "--samples", samples, "--out", table,
                                "--bootstrap", "0"])
    assert rc == 0 and err == ""
    # by hand: only a starter at 300 has its +10 rejected (310 > 305) and starts again at
    # the same scores, for ever: the score vectors with a side at 300, 61 + 61 - 1 of them
    assert f"{61 + 61 - 1} stuck states" in out
    assert "from 1 round " in out and "1 rounds" not in out
    rc, out, err = run(capsys, ["equity", "--players", "2", "--scores", "300,300", "--starter", "0",
                                "--table", table])
    assert rc == 0 and err == ""
    assert "D6" not in out and "stuck" in out
    assert "100.00 %" in out                      # 300 : 300: no side ever wins
    assert "1 round of greedy self-play" in out and "1 rounds" not in out


def test_a_build_without_stuck_states_does_not_mention_them(tmp_path, capsys):
    # by hand: +5 for the starter, who starts again: every state reaches 305 exactly
    samples, table = str(tmp_path / "five.rounds.npz"), str(tmp_path / "five.npz")
    RoundSamples(2, "greedy", 0, np.array([0, 1, 2], np.int32), np.array([0, 0], np.int8),
                 np.array([5, 5], np.int16), np.array([0, 0], np.int8)).save(samples)
    rc, out, err = run(capsys, ["equity", "build", "--players", "2", "--samples", samples, "--out", table,
                                "--bootstrap", "0"])
    assert rc == 0 and "stuck" not in out.split(" -> ")[0] and "from 2 rounds " in out
    assert build_table(RoundSamples.load(samples)).stuck == 0


# ---------------------------------------------------------------- 5. a record's notation

def test_a_record_play_without_at_is_told_the_record_notation(tmp_path, capsys):
    record = json.load(open(BRANCH_BEST))
    act = record["rounds"][3]["actions"][4]
    assert act == {"seat": 1, "play": "4-6", "at": act["at"]}
    del act["at"]
    path = tmp_path / "no_at.json"
    path.write_text(json.dumps(record))
    rc, out, err = run(capsys, ["replay", str(path)])
    assert rc == 2 and err.count("\n") == 1
    assert "round 3 action 4" in err and "4-6 needs a port" in err
    assert '"at": "TILE:PORT"' in err and "TILE@PORT" not in err


# ---------------------------------------------------------------- 6. the replay text

def test_replay_text_is_checkable_by_hand(capsys):
    rc, out, err = run(capsys, ["replay", BRANCH_BEST])
    assert rc == 0 and err == ""
    lines = out.splitlines()
    # each round's start, its events and its end together, in order
    starts = [i for i, line in enumerate(lines) if line.startswith("round ")]
    ends = [i for i, line in enumerate(lines) if line.startswith("  round ") and " ends: " in line]
    assert len(starts) == len(ends) == 9
    assert all(s < e < (starts[k + 1] if k + 1 < len(starts) else len(lines)) for k, (s, e) in
               enumerate(zip(starts, ends)))
    # round 4, worked by hand from the record (a review): starter seat 2 at 80 : 160; blocked,
    # hand sums [3, 7, 6, 12]: seat 0 gets (7 - 3) + (12 - 3) = 13 -> 15, seat 2 1 + 6 = 7 -> 5
    r4 = lines[starts[4]:ends[4] + 1]
    assert r4[0] == "round 4: starter seat 2 (hint#2); scores 80 raw (16) / 160 raw (32)"
    # (each block credit with its parts, RULES §6.5: seat 0's opponents are seats 1 and 3, seat
    # 2's too; seat 2's 6 pips are above seat 1's 7 - 6 = 1 and seat 3's 12 - 6 = 6)
    assert r4[-3] == ("  end: block seat 0 (hint#0), side 0: +15 raw (+3) accepted [seat 0 (hint#0): 3 pips; "
                      "heavier opponents: seat 1 (greedy#1) (7 - 3 = 4), seat 3 (greedy#3) (12 - 3 = 9); "
                      "4 + 9 = 13, rounded to 15]; scores 160 raw (32) / 215 raw (43)")
    assert r4[-2] == ("  end: block seat 2 (hint#2), side 0: +5 raw (+1) accepted [seat 2 (hint#2): 6 pips; "
                      "heavier opponents: seat 1 (greedy#1) (7 - 6 = 1), seat 3 (greedy#3) (12 - 6 = 6); "
                      "1 + 6 = 7, rounded to 5]; scores 165 raw (33) / 215 raw (43)")
    assert r4[-1] == "  round 4 ends: blocked, side 0 held the lightest hand"
    # round 7: seat 2's domino, P 10, O 13 + 15 = 28 pips -> 30, D 6 pips -> 5: +35, and
    # 275 + 35 > 305, so it is rejected at 275 : 300
    (dom,) = [line for line in lines[starts[7]:ends[7]] if "domino" in line]
    assert dom == ("  action 24: domino seat 2 (hint#2), side 0: +35 raw (+7) rejected (above 305) "
                   "[P 10 + O 30 (the opponents' 28 pips, rounded to 30) - D 5 (the partner's 6 pips, rounded to 5) = 35]; "
                   "scores 275 raw (55) / 300 raw (60)")
    assert lines[-1] == "winner: side 0; scores 305 raw (61) / 300 raw (60)"
    # a side's score as every other command shows it, never a raw list
    assert not any("-> [" in line for line in lines)


def test_replay_text_names_no_side_below_four_players(tmp_path, capsys):
    path = tmp_path / "g.json"
    assert main(["selfplay", "--players", "2", "--seed", "3", "--out", str(path)]) == 0
    capsys.readouterr()
    rc, out, err = run(capsys, ["replay", str(path)])
    assert rc == 0 and ", side " not in out and "-> [" not in out and "  round 0 ends: " in out


# ---------------------------------------------------------------- 7. option messages

@pytest.mark.parametrize("players,scores,low", [(2, "99999999999999,0", 0), (4, "0,-1234567890123", -1_000_000_000)])
def test_too_many_digits_is_a_range_message(players, scores, low, capsys):
    rc, out, err = run(capsys, ["equity", "--players", str(players), f"--scores={scores}"])
    assert rc == 2 and err.count("\n") == 1
    assert "out of range" in err and f"from {low} to 304" in err and "separated by commas" not in err


def test_out_will_not_overwrite_round_samples(tmp_path, capsys):
    samples = tmp_path / "ga.rounds.npz"
    one_round_samples().save(str(samples))
    before = samples.read_bytes()
    rc, out, err = run(capsys, ["equity", "build", "--players", "2", "--rounds", "1", "--near-rounds", "0",
                                "--bot", "greedy", "--bootstrap", "0", "--quiet", "--out", str(samples)])
    assert rc == 2 and err.count("\n") == 1 and "round samples" in err and str(samples) in err
    assert samples.read_bytes() == before
    assert not (tmp_path / "ga.rounds.rounds.npz").exists()
    # a table may still be replaced by a table
    table = tmp_path / "t.npz"
    for _ in range(2):
        rc, out, err = run(capsys, ["equity", "build", "--players", "2", "--samples", str(samples),
                                    "--out", str(table), "--bootstrap", "0"])
        assert rc == 0 and err == ""
