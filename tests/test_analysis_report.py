"""The second review of the post-game analysis (2026-12-06, HEAD ac14dfc): the luck totals'
standard errors, the marks decided on the numbers shown, the uncertainty and sign of
every number shown, the 3-player points note, the API's checks, a game with no judged
decision, a best move that is the played one on the other branch port, the report's
labels, and the command line's integer options. The browser half (a phone) is
tests/test_analysis_browser.py.

Expected numbers come from hand calculation, the reports' stated rule (marks at 5 / 10 /
15 win-% points when the loss is at least twice its standard error) or the spec
(docs/maxn.md: another seat's exact 305 counts -500 for a seat under max^n).
"""
from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from fiveup_solver import Move
from fiveup_solver import analysis
from fiveup_solver.analysis import (AnalysisBudget, analyze, format_text, judge_decision, mark_of,
                                    plot_win_probability, to_html)
from fiveup_solver.errors import OptionError
from fiveup_solver.game import Game
from fiveup_solver.selfplay import play_game

DATA = Path(__file__).parent / "data"
FAST = AnalysisBudget(samples=16, luck_samples=8, world_nodes=3_000, dd_nodes=0)


@pytest.fixture(scope="module")
def blocked():
    """Greedy self-play, 2 players, seed 5 (the review's blk2.json): round 0 blocks right
    after two draws of seat 1, and greedy leaves marks."""
    record = play_game(2, 5, ["greedy", "greedy"]).to_record()
    return record, analyze(record, budget=FAST, seed=3)


# ---------------------------------------------------------------- 1. luck's standard errors
def test_one_estimate_used_by_two_events_counts_once():
    # a deal value D (+-3) ends the blocked round's draws (after) and starts the next deal (before):
    # in the seat's total (P1 - P0) it cancels: sqrt(2^2 + 4^2) = 4.472, not sqrt(2^2 + 3^2 + 3^2 + 4^2) = 6.164
    d = ("deal", 1, 0)
    draws = ((("position", 0, 5, 0), 0.02, -1.0), (d, 0.03, 1.0))
    deal = ((d, 0.03, -1.0), (("position", 1, 0, 0), 0.04, 1.0))
    assert analysis._luck_stderr([(1.0, draws), (1.0, deal)]) == pytest.approx(math.sqrt(2 ** 2 + 4 ** 2))
    # one event alone: its two values' errors, independent (different moments)
    assert analysis._luck_stderr([(1.0, deal)]) == pytest.approx(5.0)
    # exact values (a game's result) carry none
    assert analysis._luck_stderr([(1.0, ((None, 0.0, -1.0), (("position", 2, 3, 0), 0.05, 1.0)))]) == pytest.approx(5.0)


def test_estimates_of_one_moment_for_different_seats_add_in_absolute_value():
    # net luck of seat 0, 2 players: its deal minus seat 1's deal of the same round; the two deal values
    # deal the same games and the two position values share a seed, so their errors may be correlated:
    # at most (3 + 1) for the deal values and (4 + 2) for the position values: sqrt(16 + 36) = 7.211
    mine = ((("deal", 1, 0), 0.03, -1.0), (("position", 1, 0, 0), 0.04, 1.0))
    theirs = ((("deal", 1, 1), 0.01, -1.0), (("position", 1, 0, 1), 0.02, 1.0))
    assert analysis._luck_stderr([(1.0, mine), (-1.0, theirs)]) == pytest.approx(math.sqrt(4 ** 2 + 6 ** 2))
    # another round's estimates are independent: they add in squares
    later = ((("deal", 2, 1), 0.01, -1.0), (("position", 2, 0, 1), 0.02, 1.0))
    assert analysis._luck_stderr([(1.0, mine), (-1.0, later)]) == pytest.approx(math.sqrt(3 ** 2 + 4 ** 2 + 1 + 2 ** 2))


def test_luck_events_and_totals_carry_standard_errors(blocked):
    record, a = blocked
    sampled = [e for e in a.luck if e.kind == "deal"]
    assert sampled and all(e.stderr > 0 for e in sampled)
    for seat, s in a.seats.items():
        own = [e.stderr for e in a.luck if e.seat == seat]
        # at least the largest event's, at most every event's added in squares (shared estimates cancel)
        assert max(own) - 1e-3 <= s.luck_win_stderr <= math.sqrt(sum(x * x for x in own)) + 1e-3
        assert s.luck_win_net_stderr >= s.luck_win_stderr - 1e-3
        assert s.luck_adjusted_stderr == s.luck_win_net_stderr          # the result is exact
    # seat 1's draws blocked round 0: the deal value before round 1 ends them and starts its deal,
    # so it cancels from seat 1's own total, which is below its events' errors added in squares
    own1 = [e.stderr for e in a.luck if e.seat == 1]
    assert a.seats[1].luck_win_stderr < math.sqrt(sum(x * x for x in own1)) - 0.05
    d = a.to_dict()
    assert {"luck_win_stderr", "luck_win_net_stderr", "luck_adjusted_stderr"} <= set(d["seats"]["0"])
    assert all("stderr" in e for e in d["luck"])


def test_luck_is_shown_with_its_standard_error(blocked):
    record, a = blocked
    s = a.seats[0]
    text, html = format_text(a), to_html(a, record)
    own = f"{s.luck_win:+.1f} +- {s.luck_win_stderr:.1f}"
    net = f"{s.luck_win_net:+.1f} +- {s.luck_win_net_stderr:.1f}"
    adj = f"{s.luck_adjusted:.1f} +- {s.luck_adjusted_stderr:.1f}"
    assert own in text and net in text and adj in text, text
    assert own.replace("+-", "\u00b1") in html and adj.replace("+-", "\u00b1") in html


# ---------------------------------------------------------------- 3. the mark of the number shown
def test_the_mark_is_decided_on_the_numbers_as_shown():
    # the review's case: 4.973 +- 1.783 shows as 5.0 +- 1.8: 5.0 >= 5 and 5.0 >= 2 x 1.8, an inaccuracy
    assert mark_of(4.973, 1.783) == "inaccuracy"
    # 10.04 +- 5.03 shows as 10.0 +- 5.0: 10.0 >= 10 and 10.0 >= 2 x 5.0, a mistake
    assert mark_of(10.04, 5.03) == "mistake"
    # 4.949 shows as 4.9: no mark; 15.0 +- 7.54 shows 15.0 +- 7.5, a blunder
    assert mark_of(4.949, 0.5) is None and mark_of(15.0, 7.54) == "blunder"


def _rule(loss: str, se: str):
    """The reports' stated rule, on the two numbers as printed."""
    loss, se = float(loss), float(se)
    if loss < 2 * se:
        return None
    return next((m for m, t in (("blunder", 15), ("mistake", 10), ("inaccuracy", 5)) if loss >= t), None)


def test_the_reviews_decision_is_marked_as_its_shown_numbers_say():
    # blk2.json of the review (greedy self-play, 2 players, seed 5), round 0 action 16: the old code
    # gave loss 4.973 +- 1.783, shown 5.0 +- 1.8, and no mark
    record = play_game(2, 5, ["greedy", "greedy"]).to_record()
    d = judge_decision(record, 0, 16, AnalysisBudget(dd_nodes=0), seed=0)
    loss, se = f"{d.loss_win:.1f}", f"{d.stderr_win:.1f}"
    assert d.mark == _rule(loss, se), (loss, se, d.mark)


def test_every_decision_shown_agrees_with_its_mark(blocked):
    record, a = blocked
    html = to_html(a, record)
    for d in a.decisions:
        if not d.forced:
            assert d.mark == _rule(f"{d.loss_win:.1f}", f"{d.stderr_win:.1f}"), d
            assert f"{d.loss_win:.1f} \u00b1 {d.stderr_win:.1f}" in html


# ---------------------------------------------------------------- 4. every number with its error, one sign
def test_the_best_moves_win_has_its_standard_error(blocked):
    record, a = blocked
    judged = [d for d in a.decisions if not d.forced]
    assert judged and all(d.win_stderr == d.moves[0]["win_stderr"] for d in judged)
    assert all("win_stderr" in d for d in a.to_dict()["decisions"])
    html = to_html(a, record)
    d = next(d for d in judged if d.win_stderr)
    assert f"{100 * d.win:.1f} \u00b1 {100 * d.win_stderr:.1f}" in html


def test_points_losses_have_their_error_and_one_sign(blocked):
    record, a = blocked
    marked = [d for d in a.decisions if d.mark and d.stderr_points]
    assert marked
    html, text = to_html(a, record), format_text(a)
    d = marked[0]
    # the HTML table's points loss with its error
    assert f"<td>{d.loss_points:.0f} \u00b1 {d.stderr_points:.0f}</td>" in html
    # a loss is positive in the text as in the HTML (the old text wrote it negated: "-8.1 ... -19 pts")
    line = next(x for x in text.splitlines() if f"round {d.round} action {d.action} " in x)
    assert f"loss {d.loss_win:.1f} +- {d.stderr_win:.1f} win-%, {d.loss_points:.0f} +- {d.stderr_points:.0f} pts" \
        in line, line
    assert f"loss {d.loss_win:.1f} &#177; {d.stderr_win:.1f} win-%" in html


# ---------------------------------------------------------------- 5. points with 3 players
def test_another_seats_exact_305_counts_minus_500_under_maxn():
    # the review's end3_blocked_block.json (greedy self-play, 3 players, seed 277), round 9 action 39:
    # 2-5@0-5:high hands another seat its exact 305 in every world; docs/maxn.md: -500 for each other side
    record = play_game(3, 277, ["greedy"] * 3).to_record()
    d = judge_decision(record, 9, 39, AnalysisBudget(dd_nodes=0), seed=0)
    m = next(m for m in d.moves if m["move"] == "2-5@0-5:high")
    assert m["win"] == 0.0 and m["points"] == -500.0


def test_the_points_note_fits_the_player_count():
    record3 = play_game(3, 277, ["greedy"] * 3, max_rounds=1).to_record()
    a3 = analyze(record3, seats=[0], budget=FAST, seed=0)
    for out in (format_text(a3), to_html(a3, record3)):
        assert "-500" in out and "+1000 or -1000" not in out and "+-1000" not in out
    paranoid = analyze(record3, seats=[0], budget=AnalysisBudget(samples=16, luck_samples=2, world_nodes=3_000,
                                                                 dd_nodes=0, search="paranoid"), seed=0)
    assert "another seat's does -1000" in format_text(paranoid)
    # the rollout judge's playouts count the sum and -1000 (rollout._round_points), whatever the
    # 3-player search (a review read max^n's -500 legend over them)
    rollout = analyze(record3, seats=[0], budget=AnalysisBudget(judge="rollout", rollouts=2, luck_samples=2,
                                                                dd_nodes=0, rollout_bot="greedy"), seed=0)
    for out in (format_text(rollout), to_html(rollout, record3)):
        assert "less the sum of the two others" in out and "(the playouts)" in out and "-500" not in out
    record2 = play_game(2, 5, ["greedy", "greedy"], max_rounds=1).to_record()
    a2 = analyze(record2, seats=[0], budget=FAST, seed=0)
    for out in (format_text(a2), to_html(a2, record2)):
        assert "+1000 or -1000" in out and "-500" not in out


# ---------------------------------------------------------------- 6. the API
def test_to_html_refuses_another_games_record(blocked):
    record, a = blocked
    other = play_game(2, 6, ["greedy", "greedy"]).to_record()
    three = play_game(3, 277, ["greedy"] * 3, max_rounds=1).to_record()
    short = dict(record, rounds=record["rounds"][:1])
    for rec, says in ((other, "round 0 action 0 is"), (three, "it has 3 players, the analysed game 2"),
                      (short, "it has 1 round, the analysed game 12")):
        with pytest.raises(OptionError, match="to_html: the record is not the analysed game") as e:
            to_html(a, rec)
        assert says in str(e.value) and "\n" not in str(e.value), str(e.value)
    redealt = json.loads(json.dumps(record))
    redealt["rounds"][0]["boneyard"] = list(reversed(redealt["rounds"][0]["boneyard"]))
    with pytest.raises(OptionError, match="other deals"):
        to_html(a, redealt)
    renamed = dict(record, seats=["x", "y"])       # the same game under other names: its boards are the same
    assert "<h1>" in to_html(a, renamed)


@pytest.mark.parametrize("call", [format_text, lambda a: to_html(a, Game(2, 1).to_record()),
                                  lambda a: plot_win_probability(a, "x.png")])
def test_no_analysis_is_a_one_line_error(call):
    with pytest.raises(OptionError, match=r"^\w+: give an Analysis \(from analyze\), not None$"):
        call(None)


def test_plot_takes_a_path_and_names_no_command_line_option(blocked, tmp_path):
    record, a = blocked
    plot_win_probability(a, tmp_path / "w.png")
    assert (tmp_path / "w.png").read_bytes().startswith(b"\x89PNG")
    with pytest.raises(OptionError) as e:
        plot_win_probability(a, tmp_path / "w.pdf")
    assert "--plot" not in str(e.value) and "w.pdf" in str(e.value)
    with pytest.raises(OptionError) as e:
        plot_win_probability(a, tmp_path / "missing" / "w.svg")
    assert "--plot" not in str(e.value) and "cannot write" in str(e.value)


@pytest.mark.parametrize("seats", [{0: 1}, "0"])
def test_seats_must_be_a_list_of_seats(seats):
    with pytest.raises(OptionError, match="seats must be a seat number or a list of seat numbers"):
        analyze(Game(2, 1).to_record(), seats=seats, budget=FAST)


def test_the_reports_functions_are_public():
    assert {"format_text", "to_html", "plot_win_probability"} <= set(analysis.__all__)
    doc = (Path(__file__).parent.parent / "docs" / "analysis.md").read_text(encoding="utf-8")
    assert all(f"`{name}(" in doc for name in ("format_text", "to_html", "plot_win_probability"))


# ---------------------------------------------------------------- 7. no judged decision
def test_no_judged_decision_shows_no_mean_and_says_so():
    record = Game(2, 1).to_record()            # round 0 dealt, nothing played
    a = analyze(record, budget=FAST, seed=0)
    s = a.seats[0]
    assert s.decisions == 0 and s.loss_win_mean is None and s.loss_points_mean is None and s.error_rate is None
    text, html = format_text(a), to_html(a, record)
    header, row = [line.split() for line in text.splitlines()[3:5]]
    assert row[header.index("mean") + 1] == "-"          # "loss win-%" is two words in the header
    assert "No judged decisions" in text and "No judged decisions" in html
    assert 'id="win-graph"' not in html and 'id="decisions"' not in html and "0.00" not in html


# ---------------------------------------------------------------- 8. the other branch port is the same move
def test_best_is_the_played_move_on_the_other_branch_port():
    played, other = Move.parse("3-4@3-3:branchB"), Move.parse("3-4@3-3:branchA")
    assert analysis._best_text(other, played) == "3-4@3-3:branchB"
    assert analysis._best_text(Move.parse("3-4@2-4:high"), played) == "3-4@2-4:high"
    # the review's game (g4.json: 4 players, hint and greedy), round 8 action 14: best was branchA, loss 0
    record = json.loads((DATA / "analysis_branch_best.json").read_text(encoding="utf-8"))
    d = judge_decision(record, 8, 14, AnalysisBudget(dd_nodes=0), seed=0)
    assert d.played == "3-4@3-3:branchB" and d.loss_win == 0
    assert d.best == d.played


# ---------------------------------------------------------------- 9. the report's labels and graph
def test_boards_are_labelled_as_the_position_before_the_move(blocked):
    record, a = blocked
    html = to_html(a, record)
    figures = re.findall(r'<figure id="d.*?</figure>', html, re.S)
    assert figures and all("before the move" in f for f in figures)
    assert "Each board is the position before the move" in html


def test_the_graphs_axes_reach_above_100_percent(blocked, monkeypatch):
    # a point at 100 % (a won game's last decision) is drawn whole: the axes end above 100
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    record, a = blocked
    closed = []
    real_close = plt.close
    monkeypatch.setattr(plt, "close", lambda fig=None: (closed.append(fig), real_close(fig)))
    import io
    plot_win_probability(a, io.StringIO(), fmt="svg")
    (fig,) = closed
    low, high = fig.axes[0].get_ylim()
    assert high > 100 and low < 0


def test_a_numpy_seed_analyses_as_its_int():
    """check_seed now takes a numpy integer and returns its int: analyze and judge_decision
    kept numpy's value (into the seeds' arithmetic and the JSON's "seed")."""
    np = pytest.importorskip("numpy")
    record = Game(2, 1).to_record()
    a = analyze(record, budget=FAST, seed=np.uint64(7))
    assert type(a.seed) is int and a.seed == 7
    assert json.loads(json.dumps(a.to_dict()))["seed"] == 7
