"""The strength-measurement review's findings (F1-F9), each with its expected numbers
worked out here by hand or by an independent computation, never read off the code:

F1 a sweep (every game won, or lost) reads the same everywhere: its one finite end, in
   words; ``math.inf`` in Python, null plus ``all_won``/``all_lost`` in JSON.
F2 a score strictly between 0 and 1 has a finite Elo interval: an end the normal
   interval would cut at 0 or 1 is the profile likelihood's.
F3 the headline win rate's interval is over the units (pairs), not the games.
F4 on_pair callbacks are checked before anything is played.
F5 play_pairs checks its arguments at the call.
F6 the smaller gaps (bad input, zero units, the clamp, llr's order).
F8 the ladder's table and a placement lead with win probability.
F9 docs/matches.md's numbers.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from fiveup_solver import OptionError
from fiveup_solver.cli import main
from fiveup_solver.match import PairStats, SprtResult, elo_of_score, format_elo, play_pairs, score_of_elo, sprt

Z = 1.959964
CUT = Z * Z / 2                      # half the chi-squared(1) 95 % point, 3.8415 (z^2, as the rule says)
DOCS = Path(__file__).resolve().parent.parent / "docs"


def _normal(counts, sides=2):
    """The normal interval of the mean unit score by the documented rule, written out:
    mean +- z sqrt(v / n), v the larger of the units' variance and that of the counts with
    half a unit added to every outcome (no cut at 0 or 1: the caller sees where it falls)."""
    values = [k / sides ** 2 for k in range(len(counts))]
    n = sum(counts)
    mean = sum(c * v for c, v in zip(counts, values)) / n
    var = sum(c * (v - mean) ** 2 for c, v in zip(counts, values)) / n
    reg = [c + 0.5 for c in counts]
    m = sum(c * v for c, v in zip(reg, values)) / sum(reg)
    prior = sum(c * (v - m) ** 2 for c, v in zip(reg, values)) / sum(reg)
    half = Z * math.sqrt(max(var, prior) / n)
    return mean - half, mean + half


def _root(f, lo, hi):
    """A root of f between lo and hi (f changes sign there), by bisection."""
    flo = f(lo)
    for _ in range(200):
        mid = (lo + hi) / 2
        if (f(mid) > 0) == (flo > 0):
            lo, flo = mid, f(mid)
        else:
            hi = mid
    return (lo + hi) / 2


def _elo(s, sides=2):
    return 400 * math.log10((sides - 1) * s / (1 - s))


# ---------------------------------------------------------------- F1: a sweep
def test_a_sweep_has_an_infinite_elo_and_one_finite_end():
    # 5 pairs all won. Its low end by hand: the counts plus a half each, [.5, .5, .5, .5, 5.5]
    # (7.5 in all), mean (.5 (0 + .25 + .5 + .75) + 5.5) / 7.5 = 0.8333..., variance
    # (.5 (m^2 + (m - .25)^2 + (m - .5)^2 + (m - .75)^2) + 5.5 (1 - m)^2) / 7.5; low = 1 - z sqrt(v / 5)
    m = 6.25 / 7.5
    v = (0.5 * sum((m - x) ** 2 for x in (0, .25, .5, .75)) + 5.5 * (1 - m) ** 2) / 7.5
    low = 1 - Z * math.sqrt(v / 5)
    assert 0 < low < 1
    won = PairStats(counts=[0, 0, 0, 0, 5])
    assert won.elo == math.inf                              # (the clamp's 3600.000004739 before)
    lo, hi = won.elo_interval()
    assert hi == math.inf and lo == pytest.approx(_elo(low), abs=1e-9)
    lost = PairStats(counts=[5, 0, 0, 0, 0])
    assert lost.elo == -math.inf
    assert lost.elo_interval()[0] == -math.inf and lost.elo_interval()[1] == pytest.approx(-_elo(low), abs=1e-9)
    # the JSON: numbers where finite, null where infinite, and the flags saying which side
    d = json.loads(json.dumps(won.to_dict(), allow_nan=False))
    assert (d["elo"], d["elo_ci95"][1], d["all_won"], d["all_lost"]) == (None, None, True, False)
    assert d["elo_ci95"][0] == pytest.approx(_elo(low), abs=1e-9)
    d = json.loads(json.dumps(lost.to_dict(), allow_nan=False))
    assert (d["elo"], d["elo_ci95"][0], d["all_won"], d["all_lost"]) == (None, None, False, True)
    mixed = PairStats(counts=[1, 0, 2, 0, 2]).to_dict()
    assert mixed["all_won"] is False and mixed["all_lost"] is False
    # the text, as `fiveup ladder --place` gives it: the finite end and what it is
    assert won.format_elo("greedy") == (f"Elo {_elo(low):+.1f} or more (greedy won all 10 games: a 95 % lower "
                                        "bound, no point estimate)")
    assert lost.format_elo("random") == (f"Elo {-_elo(low):+.1f} or less (random lost all 10 games: a 95 % upper "
                                         "bound, no point estimate)")


def _sweep_low(n):
    """The low end of n pairs all won, by the rule written out (inside (0, 1) here)."""
    low, _ = _normal([0, 0, 0, 0, n])
    assert 0 < low < 1
    return low


@pytest.mark.parametrize("bots, says", [("greedy,random", "{e:+.1f} or more (greedy won all 28 games: a 95 % "
                                                           "lower bound, no point estimate)"),
                                        ("random,greedy", "{e:+.1f} or less (random lost all 28 games: a 95 % "
                                                          "upper bound, no point estimate)")])
def test_match_text_names_a_sweep_in_words(bots, says, capsys):
    """`fiveup match --bots greedy,random --deals 14` printed `Elo +inf [+348.8, +inf]`."""
    assert main(["match", "--bots", bots, "--deals", "14", "--workers", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    e = _elo(_sweep_low(14)) * (1 if bots.startswith("greedy") else -1)
    assert round(abs(e), 1) == 348.8                         # the review's number
    assert out[1].endswith(", Elo " + says.format(e=e)) and "inf" not in out[1]


def test_sprt_text_and_progress_name_a_sweep(capsys):
    """`fiveup sprt` printed `Elo +inf [+336.0, +inf]` and progress lines `Elo +inf`."""
    assert main(["sprt", "--bots", "greedy,random", "--elo1", "100", "--workers", "1", "--every", "1"]) == 0
    captured = capsys.readouterr()
    first = captured.out.splitlines()[0]
    assert first.startswith("H1 accepted: greedy vs random, LLR ") and " after 26 games; " in first
    assert (f"; Elo {_elo(_sweep_low(13)):+.1f} or more (greedy won all 26 games: a 95 % lower bound, no point "
            "estimate) (indicative: ") in first
    # every progress line a sweep so far: its bound, one word (benchmarks/sprt_progress.py reads one)
    lines = captured.err.splitlines()
    assert len(lines) == 13
    fifth = lines[4]
    assert f"score 1.000  Elo >={_elo(_sweep_low(5)):+.1f}  LLR " in fifth and "inf" not in captured.err


def test_sprt_json_says_which_side_a_sweep_is(capsys):
    assert main(["sprt", "--bots", "random,greedy", "--elo0", "-100", "--elo1", "0", "--workers", "1",
                 "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["decision"] == "H0 accepted" and d["score"] == 0.0
    assert (d["elo"], d["elo_ci95"][0], d["all_lost"], d["all_won"]) == (None, None, True, False)
    assert d["elo_ci95"][1] == pytest.approx(-_elo(_sweep_low(d["pairs"])), abs=1e-9)


# ---------------------------------------------------------------- F2: finite ends
def test_a_score_short_of_one_has_a_finite_upper_end():
    """49 pairs won twice and 1 won once (99 games of 100): the normal interval's top is past
    1, so the top is the profile likelihood's. Only outcomes 1/2 and 1 were seen, and a
    mean above 0.99 is best reached with mass on those two alone (p at 1/2 = a, at 1 =
    1 - a, mean 1 - a / 2): the log-likelihood is log a + 49 log(1 - a), largest at
    a = 1/50; the end is the a < 1/50 where it has fallen by 1.92."""
    st = PairStats(counts=[0, 0, 1, 0, 49])
    low, high = _normal([0, 0, 1, 0, 49])
    assert 0 < low < 1 <= high                               # the normal top is cut

    def drop(a):
        return (math.log(1 / 50) + 49 * math.log(49 / 50)) - (math.log(a) + 49 * math.log(1 - a)) - CUT
    a = _root(drop, 1e-12, 1 / 50)
    top = 1 - a / 2
    lo, hi = st.interval()
    assert lo == pytest.approx(low, abs=1e-12)               # the normal end where it stays inside
    assert hi == pytest.approx(top, abs=1e-9) and hi < 1
    e_lo, e_hi = st.elo_interval()
    assert e_hi == pytest.approx(_elo(top), abs=1e-3) and round(e_hi, 1) == 1295.7    # (the review's +1295.7)
    assert round(e_lo, 1) == 509.1 and format_elo(st.elo) == "+798.3"
    assert st.format_elo("x") == "Elo +798.3 [+509.1, +1295.7]"
    assert st.to_dict()["elo_ci95"] == [pytest.approx(e_lo), pytest.approx(e_hi)]     # no null
    # the same with 9 and 1: the review's [+209.9, +1008.9] has the likelihood's top
    nine = PairStats(counts=[0, 0, 1, 0, 9])

    def drop9(a):
        return (math.log(1 / 10) + 9 * math.log(9 / 10)) - (math.log(a) + 9 * math.log(1 - a)) - CUT
    assert nine.elo_interval()[1] == pytest.approx(_elo(1 - _root(drop9, 1e-12, 1 / 10) / 2), abs=1e-3)
    assert round(nine.elo_interval()[1], 1) == 1008.9


def test_one_split_pair_has_finite_ends():
    """One pair won once (a score of 1/2): the likelihood of a mean s > 1/2 is largest with
    the pair's outcome at 2 - 2 s and the rest at 1 (mass at 3/4 would cost more: 3 - 4 s <
    2 - 2 s), so the top is where log(2 - 2 s) = -1.92: s = 1 - e^-1.92 / 2; the bottom
    mirrors it."""
    st = PairStats(counts=[0, 0, 1, 0, 0])
    assert _normal([0, 0, 1, 0, 0])[1] >= 1
    top = 1 - math.exp(-CUT) / 2
    assert st.interval() == (pytest.approx(1 - top, abs=1e-9), pytest.approx(top, abs=1e-9))
    lo, hi = st.elo_interval()
    assert math.isfinite(lo) and math.isfinite(hi) and hi == pytest.approx(_elo(top), abs=1e-3)


def test_three_sides_a_low_score_has_a_finite_lower_end():
    """`match --players 3 --bots random,greedy --deals 10` read `Elo -464.5 [-inf, -101.2]`: one
    triple of ten won once (score 1/3), nine lost. Below the mean, mass only at 0 and 1/3:
    p(1/3) = b, mean b / 3; log-likelihood log b + 9 log(1 - b), largest at b = 1/10."""
    st = PairStats(sides=3, counts=[9, 0, 0, 1, 0, 0, 0, 0, 0, 0])
    low, high = _normal(st.counts, 3)
    assert low <= 0 < high < 1

    def drop(b):
        return (math.log(0.1) + 9 * math.log(0.9)) - (math.log(b) + 9 * math.log(1 - b)) - CUT
    bottom = _root(drop, 1e-12, 0.1) / 3
    lo, hi = st.interval()
    assert lo == pytest.approx(bottom, abs=1e-9) and hi == pytest.approx(high, abs=1e-12)
    e_lo, e_hi = st.elo_interval()
    assert e_lo == pytest.approx(_elo(bottom, 3), abs=1e-3) and math.isfinite(e_lo)
    assert round(st.elo, 1) == -464.5 and round(e_hi, 1) == -101.2          # unchanged: inside


def test_the_likelihood_end_against_a_constrained_maximum_likelihood():
    """A case with four outcomes seen, checked against scipy's constrained maximum of the
    pentanomial likelihood (SLSQP over the five probabilities), independent of the code's
    dual solver."""
    optimize = pytest.importorskip("scipy.optimize")
    import numpy as np
    counts = [0, 1, 2, 1, 26]
    n, v = sum(counts), np.arange(5) / 4
    c = np.array(counts, float)
    assert _normal(counts)[1] >= 1

    def best(s):
        cons = [{"type": "eq", "fun": lambda p: p.sum() - 1}, {"type": "eq", "fun": lambda p: p @ v - s}]
        start = np.full(5, 0.2) + (v - 0.5) * (s - 0.5)
        r = optimize.minimize(lambda p: -np.sum(c[c > 0] * np.log(np.maximum(p[c > 0], 1e-300))), start,
                              constraints=cons, bounds=[(1e-12, 1)] * 5, method="SLSQP",
                              options={"ftol": 1e-14, "maxiter": 1000})
        return -r.fun
    peak = float(np.sum(c[c > 0] * np.log(c[c > 0] / n)))
    mean = float(c @ v / n)
    top = optimize.brentq(lambda s: peak - best(s) - CUT, mean + 1e-9, 1 - 1e-7, xtol=1e-12)
    assert PairStats(counts=counts).interval()[1] == pytest.approx(top, abs=1e-6)


def test_numbers_inside_zero_and_one_are_unchanged():
    """The normal interval wherever it stays inside (0, 1): the numbers the docs publish."""
    for counts in ([3, 0, 8, 0, 5], [0, 0, 14, 0, 0], [60, 0, 28, 0, 12], [12, 0, 56, 0, 32]):
        low, high = _normal(counts)
        assert 0 < low and high < 1
        assert PairStats(counts=counts).interval() == (pytest.approx(low, abs=1e-12), pytest.approx(high, abs=1e-12))
    assert [round(x, 3) for x in PairStats(counts=[0, 0, 14, 0, 0]).interval()] == [0.428, 0.572]


# ---------------------------------------------------------------- F3: the win rate over the units
def test_the_win_rate_interval_is_over_the_units():
    """Pairs [1, 1/2], [1, 1], [0, 1/2], [1, 0]: games won per pair 1, 2, 0, 1, a share of
    1/2, 1, 0, 1/2: mean 1/2, variance (0 + 1/4 + 1/4 + 0) / 4 = 1/8; the prior's (shares
    counted [1, 0, 2, 0, 1] plus a half each: [1.5, .5, 2.5, .5, 1.5] of 6.5, mean 1/2)
    (1.5 x 1/4 x 2 + .5 x 1/16 x 2) / 6.5 = 1/8: 1/2 +- z sqrt(1/32)."""
    st = PairStats()
    for pair in ([1, 0.5], [1, 1], [0, 0.5], [1, 0]):
        st.add(pair)
    half = Z * math.sqrt(1 / 32)
    assert st.win_interval() == (pytest.approx(0.5 - half, abs=1e-12), pytest.approx(0.5 + half, abs=1e-12))
    assert st.win_rate == 4 / 8 and st.win_interval() != st.interval()        # the score counts the halves
    res = SprtResult("no decision", 0.0, (-1, 1), st)
    assert res.win_interval() == st.win_interval() and res.to_dict()["win_ci95"] == list(st.win_interval())
    # no game unfinished: the score's interval itself
    whole = PairStats()
    for pair in ([1, 0], [1, 1], [0, 0], [1, 1], [0, 1]):
        whole.add(pair)
    assert whole.win_interval() == whole.interval()
    # counts alone tell the games won only when each unit has as few unfinished games as
    # its score allows; otherwise the interval is refused, not guessed
    assert PairStats(counts=[0, 0, 1, 0, 1]).win_interval() == PairStats(counts=[0, 0, 1, 0, 1]).interval()
    with pytest.raises(OptionError, match="games were won is not known"):
        PairStats(counts=[0, 0, 1, 0, 1], wins=2, unfinished=2).win_interval()


def test_match_first_line_is_the_pairs_interval(capsys):
    """`match --bots level2,level2 --deals 14`: every pair won once (identical bots on
    duplicate deals). Line 1 said `95% CI 32.6-67.4%` (games as independent), line 2
    `[0.428, 0.572]`. By hand: counts [0, 0, 14, 0, 0] plus a half each, 16.5 in all, mean
    1/2, variance (2 x .5 x 1/4 + 2 x .5 x 1/16) / 16.5; 1/2 +- z sqrt(v / 14)."""
    v = (2 * 0.5 * 0.25 + 2 * 0.5 / 16) / 16.5
    lo, hi = 0.5 - Z * math.sqrt(v / 14), 0.5 + Z * math.sqrt(v / 14)
    assert main(["match", "--bots", "level2,level2", "--deals", "14", "--workers", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (f"level2 vs level2, 2 players: 14/28 games won (50.0%, 95% CI {100 * lo:.1f}-{100 * hi:.1f}% "
                      "over the pairs), 0 unfinished")
    assert f"score 0.500 [{lo:.3f}, {hi:.3f}] over them" in out[1]
    assert main(["match", "--bots", "level2,level2", "--deals", "14", "--workers", "1", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["ci95"] == d["pairs"]["score_ci95"] == [pytest.approx(lo), pytest.approx(hi)]


# ---------------------------------------------------------------- F4, F5: checked at the call
@pytest.fixture
def no_games(monkeypatch):
    from fiveup_solver import ladder, match

    def must_not_play(*a, **k):
        raise AssertionError("a game was played")
    monkeypatch.setattr(match, "play_pair", must_not_play)
    monkeypatch.setattr(ladder, "play_pair", must_not_play)


def test_a_bad_on_pair_is_refused_before_anything_is_played(no_games, tmp_path):
    from fiveup_solver.ladder import place_agent, run_ladder
    journal = tmp_path / "j.jsonl"
    with pytest.raises(OptionError, match="^on_pair must be a function or None, not 5$"):
        sprt(2, "greedy", "random", max_games=4, on_pair=5, journal=str(journal))
    assert not journal.exists()
    with pytest.raises(OptionError, match="^on_pair must be a function or None, not 5$"):
        run_ladder(2, ["level1", "level2"], games=2, on_pair=5, journal=str(journal))
    with pytest.raises(OptionError, match="^on_pair must be a function or None, not 'x'$"):
        place_agent("greedy", levels=["level1"], games=2, on_pair="x", journal=str(journal))
    assert not journal.exists()


@pytest.mark.parametrize("kwargs, says", [
    ({"seed": -1}, "seed"), ({"workers": 0}, "workers"), ({"max_pairs": -1}, "max_pairs"),
    ({"players": 5}, "players"), ({"bot": None}, "bot"), ({"records": "yes"}, "records must be True or False"),
    ({"max_rounds": 0}, "max_rounds"), ({"ray": ""}, "ray"),
])
def test_play_pairs_checks_its_arguments_at_the_call(kwargs, says, no_games):
    args = {"players": 2, "bot": "greedy", "other": "random", "seed": 1, "max_pairs": 1, **kwargs}
    with pytest.raises(OptionError, match=says):
        play_pairs(args.pop("players"), args.pop("bot"), args.pop("other"), args.pop("seed"), **args)


# ---------------------------------------------------------------- F6: the smaller gaps
def test_smaller_gaps(capsys):
    from fiveup_solver.ladder import run_ladder
    with pytest.raises(OptionError, match=r"^entrants must be a list of bot names, not 'level1,level2'$"):
        run_ladder(2, "level1,level2", games=2)
    for argv, says in ((["match", "--bots", "greedy,", "--deals", "1"], "--bots: OTHER is empty"),
                       (["match", "--bots", ",greedy", "--deals", "1"], "--bots: BOT is empty"),
                       (["sprt", "--bots", "greedy, ", "--max-games", "2"], "--bots: OTHER is empty")):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"error: {says}") and err.count("\n") == 1
    st = PairStats(counts=[1, 0, 2, 0, 3])
    for z in (-1, 0, "x", math.nan, math.inf, True):
        with pytest.raises(OptionError, match="^z must be a finite number > 0"):
            st.interval(z=z)
    # z = 1 by hand: 2/3 +- sqrt(max(v, prior) / 6)
    low, high = _normal([1, 0, 2, 0, 3])
    assert st.interval(z=1) == (pytest.approx(2 / 3 - (2 / 3 - low) / Z), pytest.approx(2 / 3 + (high - 2 / 3) / Z))


def test_counts_alone_give_their_games_and_given_ones_must_agree():
    """Pair scores: 5 pairs won twice are 10 games, 10 won (it said 0 and 0); a pair of
    score 1/4 lost one game and left one unfinished; one of 1/2 won one (or, with two
    unfinished, none)."""
    st = PairStats(counts=[0, 0, 0, 0, 5])
    assert (st.games, st.wins, st.unfinished) == (10, 10, 0)
    st = PairStats(counts=[0, 1, 1, 0, 0])
    assert (st.games, st.wins, st.unfinished) == (4, 1, 1)
    assert PairStats(counts=[0, 1, 1, 0, 0], games=4, wins=0, unfinished=3).unfinished == 3
    for kwargs in ({"games": 3}, {"games": 10, "wins": 100}, {"wins": 3, "unfinished": 1},
                   {"wins": 0, "unfinished": 1}):
        with pytest.raises(OptionError, match="must be 2 a unit|do not fit the counts"):
            PairStats(counts=[0, 1, 1, 0, 0], **kwargs)
    # 3 sides: a triple scoring 8/9 would be 2 won and 2 unfinished of 3 games
    with pytest.raises(OptionError, match=r"no unit of 3 games scores 8/9"):
        PairStats(sides=3, counts=[0] * 8 + [1, 0])
    st = PairStats(sides=3, counts=[0, 0, 0, 0, 1, 0, 0, 0, 0, 1])       # 4/9: 1 won 1 unfinished; 9/9
    assert (st.games, st.wins, st.unfinished) == (6, 4, 1)


def test_zero_units_report_no_score():
    d = PairStats().to_dict()
    assert d["score"] is None and d["elo"] is None and d["elo_ci95"] == [None, None] and d["pairs"] == 0
    res = SprtResult("no decision", 0.0, (-1, 1), PairStats(sides=3))
    assert math.isnan(res.win_rate) and res.to_dict()["win_rate"] is None and res.to_dict()["score"] is None
    json.dumps(res.to_dict(), allow_nan=False)


def test_format_elo_and_llr_edges():
    assert format_elo(4000) == "+4000.0" and format_elo(-3700.25, 2) == "-3700.25"     # finite: as they are
    assert format_elo(math.inf) == "+inf" and format_elo(-math.inf, 0, 3) == "-inf"
    assert format_elo(elo_of_score(1.0)) == "+inf" and format_elo(elo_of_score(0.0, 3), 1, 3) == "-inf"
    with pytest.raises(OptionError):
        format_elo(math.nan)
    st = PairStats(counts=[1, 0, 2, 0, 3])
    for elo0, elo1 in ((20, 0), (5, 5)):
        with pytest.raises(OptionError, match=r"elo1 \(.*\) must be larger than elo0"):
            st.llr(elo0, elo1)


# ---------------------------------------------------------------- F8: win probability first
def test_the_ladder_table_leads_with_win_probability():
    """Each level's expected score against the level below from the fitted Elo,
    1 / (1 + 10^(-d / 400)), and its measured one from the pairing's pentanomial counts
    (pairs scoring 0, 1/2, 1, 3/2, 2 games of 2), worked out from the table's numbers."""
    from fiveup_solver.ladder import load_ladder
    for players in (2, 4):
        table = load_ladder(players)
        lines = table.format_table().splitlines()
        assert lines[0].startswith("| expected win % v below | measured v below | level | Elo |")
        for k, name in enumerate(table.entrants):
            cells = [c.strip() for c in lines[2 + k].strip("|").split("|")]
            if k == 0:
                assert cells[:3] == ["", "", name]
                continue
            below = table.entrants[k - 1]
            d = table.elo[name] - table.elo[below]
            if (name, below) in table.counts:
                c, flip = table.counts[(name, below)], False
            else:
                c, flip = table.counts[(below, name)], True
            won = sum(x * k2 / 2 for k2, x in enumerate(c)) / (2 * sum(c))
            won = 1 - won if flip else won
            assert cells[:3] == [f"{100 / (1 + 10 ** (-d / 400)):.1f} %", f"{100 * won:.1f} % of {2 * sum(c)}", name]
    # the 2-player ladder's level3 against level2: +54.4 Elo, 57.7 %; measured 105 of 200
    two = load_ladder(2).format_table()
    assert "| 57.7 % | 52.5 % of 200 | level3 | 194 |" in two


def test_a_placement_leads_with_its_score_against_the_nearest_level():
    """A placement at +300 against levels at +194 and +388: the nearer is level5 (88 from it,
    against 106), where it scored pairs [1, 0, 3, 0, 1]: 1.5 + 3 + 2 = 5 of 10 games."""
    from fiveup_solver.ladder import Placement
    p = Placement("mine", 2, ["level3", "level5"], {"level3": [0, 0, 2, 0, 3], "level5": [1, 0, 3, 0, 1]},
                  {"level1": 0.0, "level3": 194.0, "level5": 388.0}, 10, 0, elo=300.0, ci95=(250.0, 350.0))
    first = p.format_text().splitlines()[0]
    assert first == ("mine on the 2-player ladder (level1 = random play = 0): Elo +300 [+250, +350], scoring "
                     "50.0 % of 10 games against level5 (+388), the nearest level it played; between level3 "
                     "(+194) and level5 (+388)")
    # won every game: the nearest to its finite end, +250: level3 (56 from it)
    p.elo, p.ci95 = math.inf, (250.0, math.inf)
    assert "Elo +250 or more (it won every game; 95 %), scoring 80.0 % of 10 games against level3 (+194)" in \
        p.format_text()


def test_the_docs_placements_are_todays_output(tmp_path):
    """docs/results/ladder.md shows `fiveup ladder --place hint ...`: its journal refitted
    (nothing played again) prints those lines."""
    from fiveup_solver.ladder import place_agent
    root = DOCS.parent
    journal = tmp_path / "p.jsonl"
    journal.write_bytes((root / "benchmarks" / "results" / "place_hint_2p.jsonl").read_bytes())
    res = place_agent("hint", 2, levels=["level6", "level7", "level8"], games=200, seed=7, workers=1,
                      journal=str(journal))
    docs = (DOCS / "results" / "ladder.md").read_text()
    for line in res.format_text().splitlines():
        if line:
            assert line in docs, line


# ---------------------------------------------------------------- F9: the docs' numbers
def test_the_docs_numbers(capsys):
    docs = (DOCS / "matches.md").read_text()
    flat = " ".join(docs.split())
    assert f"+15 Elo is a score of {score_of_elo(15, 3):.4f}" in flat and f"{score_of_elo(15, 3):.4f}" == "0.3528"
    assert f"+{400 * math.log10(2):.1f} Elo (`400 log10(2)`) a score of 1/2" in flat
    assert "the score, 0 or 1, says which side" not in flat
    # the sweep's line as `fiveup match` prints it today
    assert main(["match", "--bots", "greedy,random", "--deals", "14", "--workers", "1"]) == 0
    elo = capsys.readouterr().out.splitlines()[1].split(" over them, ")[1]
    assert elo.startswith("Elo +348.8 or more (") and f"`{elo}`" in flat
