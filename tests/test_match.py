"""Duplicate matches: the same tiles from both seatings, pentanomial pair statistics,
Elo, SPRT decisions on pairs whose answer is known, and worker-independent results."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

from fiveup_solver import OptionError
from fiveup_solver.cli import main
from fiveup_solver.match import PairStats, elo_of_score, format_elo, play_pairs, score_of_elo, sprt, sprt_bounds
from fiveup_solver.selfplay import play_game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_rounds_deal_depends_on_the_seed_and_round_only(players):
    a = play_game(players, 77, ["random"] * players)
    b = play_game(players, 77, ["greedy"] * players)
    assert [r.hands for r in a.rounds[:2]] != [] and len(a.rounds) > 1 and len(b.rounds) > 1
    for ra, rb in zip(a.rounds, b.rounds):
        assert ra.hands == rb.hands and ra.boneyard == rb.boneyard
    # starters agree whenever both were drawn (first round, or after a block in both)
    assert a.rounds[0].starter == b.rounds[0].starter


def test_pair_statistics_by_hand():
    st = PairStats()
    for pair in ([1, 1], [1, 0], [0, 0.5], [0.5, 0.5], [1, 1], [0, 0]):
        st.add(pair)
    # pair scores 1, 1/2, 1/4, 1/2, 1, 0 -> counts [1, 1, 2, 0, 2]
    assert st.counts == [1, 1, 2, 0, 2] and st.pairs == 6 and st.games == 12
    assert st.wins == 5 and st.unfinished == 3
    m = (1 + 0.5 + 0.25 + 0.5 + 1 + 0) / 6
    assert st.score == pytest.approx(m)
    v = sum((x - m) ** 2 for x in (1, 0.5, 0.25, 0.5, 1, 0)) / 6
    assert st.variance == pytest.approx(v)
    lo, hi = st.interval()
    assert (lo, hi) == pytest.approx((m - 1.959964 * math.sqrt(v / 6), m + 1.959964 * math.sqrt(v / 6)))
    assert st.elo == pytest.approx(-400 * math.log10(1 / m - 1))
    # the LLR by hand: the counts with one pair of prior on the lowest and highest outcome at
    # the hypotheses' mean score, then the likelihoods of the best distributions of mean s0, s1
    s0, s1 = score_of_elo(0), score_of_elo(20)
    mid = (s0 + s1) / 2
    q = [1 + (1 - mid), 1, 2, 0, 2 + mid]
    assert st.llr(0, 20) == pytest.approx(_llr_by_hand(q, 6, s0, s1), abs=1e-9)
    with pytest.raises(OptionError):
        st.add([1])
    with pytest.raises(OptionError):
        st.add([1, 0.3])


def _llr_by_hand(counts, n, s0, s1):
    """The generalised LLR from its definition, without the package's solver: for each s the
    distribution p of mean s on the unit scores most likely for the outcome frequencies q
    has the form p_k = q_k / (1 + x (v_k - s)) (a Lagrange multiplier x); x is read off a
    fine grid as the maximum of sum q_k log(1 + x (v_k - s)), p is checked to be a
    distribution of mean s, and the LLR is n sum q_k log(p1_k / p0_k)."""
    q = np.array(counts, float) / sum(counts)
    v = np.arange(len(q)) / (len(q) - 1)
    best = {}
    for s in (s0, s1):
        xs = np.linspace(-1 / (1 - s), 1 / s, 4_000_001)[1:-1]
        for _ in range(3):        # the grid, then twice a finer one around its best point
            g = sum(qk * np.log1p(xs * (vk - s)) for qk, vk in zip(q, v) if qk)
            k = int(np.argmax(g))
            xs = np.linspace(xs[max(k - 2, 0)], xs[min(k + 2, len(xs) - 1)], 400_001)
        p = q / (1 + xs[200_000] * (v - s))
        # (the grid's x is within about 1e-8 of the maximum, where the function is flat)
        assert abs(p.sum() - 1) < 1e-7 and abs((p * v).sum() - s) < 1e-7
        best[s] = p
    seen = q > 0
    return n * float(np.sum(q[seen] * np.log(best[s1][seen] / best[s0][seen])))


def test_elo_and_bounds():
    assert elo_of_score(score_of_elo(123.0)) == pytest.approx(123.0)
    assert sprt_bounds(0.05, 0.05) == pytest.approx((math.log(0.05 / 0.95), math.log(0.95 / 0.05)))
    for bad in ((0, 0.05), (0.05, 0.5), (True, 0.05)):
        with pytest.raises(OptionError):
            sprt_bounds(*bad)


def test_results_do_not_depend_on_workers():
    one = list(play_pairs(2, "greedy", "random", 5, workers=1, max_pairs=6))
    two = list(play_pairs(2, "greedy", "random", 5, workers=2, max_pairs=6))
    assert one == two and [k for k, _, _ in one] == list(range(6))


def test_sprt_known_answers():
    strong = sprt(2, "greedy", "random", elo0=0, elo1=100, max_games=400, seed=1)
    assert strong.decision == "H1 accepted" and strong.llr >= strong.bounds[1]
    itself = sprt(2, "greedy", "greedy", elo0=0, elo1=100, max_games=400, seed=1)
    assert itself.decision == "H0 accepted" and itself.llr <= itself.bounds[0]
    capped = sprt(2, "greedy", "greedy", elo0=0, elo1=5, max_games=4, seed=1)
    assert capped.decision == "no decision" and capped.stats.games == 4
    with pytest.raises(OptionError):
        sprt(2, "greedy", "random", elo0=10, elo1=0)
    with pytest.raises(OptionError):
        sprt(5, "greedy", "random")


def test_cli_match_pairs_and_sprt(capsys):
    assert main(["match", "--bots", "greedy,random", "--deals", "4", "--seed", "3", "--workers", "2", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["games"] == 8 and r["pairs"]["pairs"] == 4 and sum(r["pairs"]["pentanomial"]) == 4
    lo, elo, hi = r["pairs"]["elo_ci95"][0], r["pairs"]["elo"], r["pairs"]["elo_ci95"][1]
    # None: an infinite Elo (a score of 1, or an interval reaching it)
    assert lo <= (math.inf if elo is None else elo) <= (math.inf if hi is None else hi)
    assert main(["match", "--bots", "greedy,random", "--deals", "4", "--seed", "3", "--workers", "1", "--json"]) == 0
    r1 = json.loads(capsys.readouterr().out)
    del r["workers"], r1["workers"]
    assert r == r1
    assert main(["sprt", "--bots", "greedy,random", "--elo0", "0", "--elo1", "100", "--every", "1",
                 "--workers", "1"]) == 0
    captured = capsys.readouterr()
    # the progress on stderr, the result alone on stdout (as match's)
    assert captured.err.splitlines()[0].startswith("pairs     1  games      2") and "score" not in captured.out
    assert captured.out.splitlines()[0].startswith("H1 accepted")
    for argv, text in ((["sprt", "--bots", "greedy,random", "--players", "5"], "--players"),
                       (["sprt", "--bots", "greedy,random", "--alpha", "0.7"], "alpha"),
                       (["sprt", "--bots", "greedy,random", "--elo0", "5", "--elo1", "1"], "elo1"),
                       (["match", "--bots", "greedy,random", "--workers", "0"], "--workers")):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and text in err and err.count("\n") == 1


def test_triple_statistics_by_hand():
    """3 players: a unit is three games (BOT alone in each seat); an unfinished game is 1/3."""
    st = PairStats(sides=3)
    for triple in ([1, 0, 0], [1, 1, 0], [0, 0, 0], [1 / 3, 0, 1], [1, 1, 1]):
        st.add(triple)
    # triple scores: 1/3, 2/3, 0, 4/9, 1 -> ninths 3, 6, 0, 4, 9
    assert st.counts == [1, 0, 0, 1, 1, 0, 1, 0, 0, 1] and st.pairs == 5 and st.games == 15
    assert st.wins == 7 and st.unfinished == 1
    scores = (1 / 3, 2 / 3, 0, 4 / 9, 1)
    m = sum(scores) / 5
    assert st.score == pytest.approx(m)
    v = sum((x - m) ** 2 for x in scores) / 5
    assert st.variance == pytest.approx(v)
    # Plackett-Luce first place: g / (g + 2) = m  ->  g = 2 m / (1 - m)
    assert st.elo == pytest.approx(400 * math.log10(2 * m / (1 - m)))
    g = 10 ** (15 / 400)
    s0, s1 = 1 / 3, g / (g + 2)
    mid = (s0 + s1) / 2
    q = [c + (1 - mid if k == 0 else mid if k == 9 else 0) for k, c in enumerate(st.counts)]
    assert st.llr(0, 15) == pytest.approx(_llr_by_hand(q, 5, s0, s1), abs=1e-9)
    for bad in ([1, 0], [0.5, 0, 0], [True, 0, 0], "abc"):
        with pytest.raises(OptionError):
            st.add(bad)
    with pytest.raises(OptionError):
        PairStats(sides=4)


def test_elo_with_three_sides():
    assert score_of_elo(0, sides=3) == pytest.approx(1 / 3)
    assert score_of_elo(400, sides=3) == pytest.approx(10 / 12)      # g = 10: 10 / (10 + 2)
    assert elo_of_score(0.5, sides=3) == pytest.approx(400 * math.log10(2))
    assert elo_of_score(score_of_elo(-77.0, sides=3), sides=3) == pytest.approx(-77.0)


def test_three_player_units_put_bot_in_every_seat():
    units = list(play_pairs(3, "greedy", "random", 4, workers=1, max_pairs=3, records=True))
    assert [k for k, _, _ in units] == [0, 1, 2]
    for _, scores, records in units:
        assert len(scores) == 3 and len(records) == 3
        # the same deal sequence in each game: the first round's hands agree
        firsts = [r["rounds"][0]["hands"] if isinstance(r, dict) else None for r in records]
        assert firsts[0] == firsts[1] == firsts[2]


def test_three_player_sprt_known_answers():
    strong = sprt(3, "greedy", "random", elo0=0, elo1=100, max_games=600, seed=2)
    assert strong.decision == "H1 accepted" and strong.stats.sides == 3
    assert strong.stats.games % 3 == 0
    itself = sprt(3, "greedy", "greedy", elo0=0, elo1=100, max_games=600, seed=2)
    assert itself.decision == "H0 accepted"
    assert abs(itself.stats.score - 1 / 3) < 0.1


def test_sprt_journal_resumes_where_it_stopped(tmp_path):
    """A run cut short and resumed from its journal ends where one uninterrupted run ends."""
    whole = sprt(2, "greedy", "random", elo0=0, elo1=5, max_games=12, seed=3)
    path = str(tmp_path / "sprt.jsonl")
    first = sprt(2, "greedy", "random", elo0=0, elo1=5, max_games=6, seed=3, journal=path)
    assert first.stats.pairs == 3
    again = sprt(2, "greedy", "random", elo0=0, elo1=5, max_games=12, seed=3, journal=path)
    assert again.stats.counts == whole.stats.counts and again.llr == pytest.approx(whole.llr)
    rows = [json.loads(line) for line in open(path)]
    assert rows[0] == {"players": 2, "bot": "greedy", "other": "random", "seed": 3}
    assert [r["index"] for r in rows[1:]] == list(range(6))
    # the field that differs is named (the headers, cut to a line, hid it)
    with pytest.raises(OptionError, match=r"another match: seed 3 \(this match: 4\)$"):
        sprt(2, "greedy", "random", elo0=0, elo1=5, max_games=12, seed=4, journal=path)
    with open(path, "a") as f:
        f.write('{"index": 9, "scores": [1, 0]}\n')
    with pytest.raises(OptionError, match="line 8: expected unit 6"):
        sprt(2, "greedy", "random", elo0=0, elo1=5, max_games=12, seed=3, journal=path)
    with pytest.raises(OptionError, match="no such bot|bot"):
        sprt(2, "greedy", "nobody", journal=str(tmp_path / "new.jsonl"))
    assert not (tmp_path / "new.jsonl").exists()


def test_a_resumed_sprt_is_the_sequential_test_of_its_own_settings(tmp_path):
    """A review: a resumed SPRT added every journaled unit and looked at its bounds once:
    a journal of 20 games resumed with elo1 100 accepted H1 after 40 games, where the same
    test uninterrupted stops at its first crossing; resumed with --max-games 6 it reported
    20 games. The journal's units are taken one at a time now, bounds after each, at most
    the cap: the result is an uninterrupted run's with the resuming settings."""
    path = str(tmp_path / "sprt.jsonl")
    first = sprt(2, "greedy", "random", elo0=0, elo1=5, max_games=40, seed=3, journal=path)
    assert first.decision == "no decision" and first.stats.pairs == 20
    for settings in ({"elo0": 0, "elo1": 100}, {"elo0": -400, "elo1": -300}, {"elo0": 0, "elo1": 5, "max_games": 6},
                     {"elo0": 0, "elo1": 5, "max_games": 20}, {"elo0": 0, "elo1": 5, "max_games": 24}):
        settings = {"max_games": 20, **settings}
        whole = sprt(2, "greedy", "random", seed=3, **settings)
        resumed = sprt(2, "greedy", "random", seed=3, journal=path, **settings)
        assert (resumed.decision, resumed.stats.counts, resumed.llr) == (whole.decision, whole.stats.counts,
                                                                         pytest.approx(whole.llr)), settings
        assert resumed.stats.games <= settings["max_games"]
    # elo1 100 decides within the journal, before its last unit
    assert sprt(2, "greedy", "random", seed=3, journal=path, elo0=0, elo1=100).stats.pairs < 20


def test_a_sweep_has_a_real_interval_and_infinite_elo(capsys):
    """Ten pairs all won (score 1, no spread): the interval uses a prior's variance instead
    of a point. By hand: counts + 1/2 each = [0.5, 0.5, 0.5, 0.5, 10.5] (total 12.5) over
    unit scores 0, 1/4, 1/2, 3/4, 1: mean (0.5 * 1.5 + 10.5) / 12.5 = 0.9, variance
    (0.5 * (0.81 + 0.4225 + 0.16 + 0.0225) + 10.5 * 0.01) / 12.5 = 0.065, half width
    1.959964 * sqrt(0.065 / 10)."""
    st = PairStats()
    for _ in range(10):
        st.add([1, 1])
    low, high = st.interval()
    assert high == 1.0 and low == pytest.approx(1 - 1.959964 * math.sqrt(0.065 / 10), abs=1e-12)
    assert st.elo_interval()[0] == pytest.approx(400 * math.log10(low / (1 - low)))
    # one pair split: its observed variance, (1 x (1/2 - 21/22)^2 + 10 x (1 - 21/22)^2) / 11 =
    # 0.0207, is below the prior's (counts [0.5, 0.5, 1.5, 0.5, 10.5], total 13.5: mean
    # 11.75 / 13.5, variance 0.0712): the interval takes the larger (a review: the plain one
    # covered 81 % at 10 pairs at 0.85, and its lower bound sat above the sweep's)
    st.add([0, 1])
    m = 11.75 / 13.5
    prior = sum(c * (x - m) ** 2 for c, x in zip([0.5, 0.5, 1.5, 0.5, 10.5], [0, 0.25, 0.5, 0.75, 1])) / 13.5
    assert st.variance == pytest.approx(((1 / 2 - 21 / 22) ** 2 + 10 * (1 - 21 / 22) ** 2) / 11)
    assert st.interval()[0] == pytest.approx(21 / 22 - 1.959964 * math.sqrt(prior / 11), abs=1e-12)
    # a worse record never gets a higher lower bound: 9 won and 1 split against 10 won
    worse = PairStats()
    for _ in range(9):
        worse.add([1, 1])
    worse.add([0, 1])
    assert worse.interval()[0] < low
    # with much spread the observed variance is the larger: the plain interval
    wide = PairStats()
    for scores in ([1, 1], [0, 0], [1, 1], [0, 0], [1, 0], [1, 1]):
        wide.add(scores)
    assert wide.variance > wide._prior_variance()
    assert wide.interval()[0] == pytest.approx(wide.score - 1.959964 * math.sqrt(wide.variance / 6), abs=1e-12)
    # the text gives a sweep's one finite end in words (neither the clamp's number nor
    # "+inf"); the JSON keeps numbers
    assert main(["sprt", "--bots", "greedy,random", "--elo1", "100", "--max-games", "40", "--workers", "1",
                 "--every", "100"]) == 0
    lines = capsys.readouterr().out.splitlines()
    out = lines[-2]
    games = int(out.split(" after ")[1].split()[0])
    n = games // 2
    # its lower end by hand: n pairs all won, the prior's counts [.5, .5, .5, .5, n + .5]
    mean = (0.5 * 1.5 + n + 0.5) / (n + 2.5)
    var = (0.5 * sum((x - mean) ** 2 for x in (0, .25, .5, .75)) + (n + .5) * (1 - mean) ** 2) / (n + 2.5)
    low = 1 - 1.959964 * math.sqrt(var / n)
    assert out.startswith("H1 accepted: greedy vs random") and (
        f"; Elo {400 * math.log10(low / (1 - low)):+.1f} or more (greedy won all {games} games: a 95 % lower "
        "bound, no point estimate)") in out
    # (a review: after a stop on the LLR, the fixed-sample estimate and interval are biased)
    assert out.endswith(" (indicative: a test that stops on its LLR biases both)")
    assert "3600" not in out and "inf" not in out
    # and its win rate as `match` gives it: every game won, the interval over the pairs
    assert lines[-1] == f"  greedy won {games}/{games} games (100.0%, 95% CI " + \
        f"{100 * low:.1f}-100.0% over the pairs), 0 unfinished"


def test_sprt_reports_the_win_rate_as_match_does(capsys):
    # the same pairs (same seed and bots) give the same games: the SPRT's games won and
    # their interval are match's, when it stops at the same number of pairs
    assert main(["sprt", "--bots", "greedy,random", "--max-games", "12", "--workers", "1", "--seed", "4",
                 "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert main(["match", "--bots", "greedy,random", "--deals", str(res["pairs"]), "--workers", "1", "--seed", "4",
                 "--json"]) == 0
    m = json.loads(capsys.readouterr().out)
    assert (res["wins"], res["games"]) == (m["wins"], m["games"])
    assert res["win_rate"] == pytest.approx(m["wins"] / m["games"])
    # the interval over the pairs, as match's: with no game unfinished, the score's
    assert res["unfinished"] == m["unfinished"] == 0
    assert res["win_ci95"] == m["ci95"] == m["pairs"]["score_ci95"] == res["score_ci95"]
    # by hand, where it lies inside (0, 1): each pair's share of games won, mean +- z sd / sqrt(n), the
    # variance at least that of the counts with half a pair added to every outcome
    shares = [k / 4 for k, c in enumerate(res["pentanomial"]) for _ in range(c)]
    n, mean, z = len(shares), sum(shares) / len(shares), 1.959964
    var = sum((x - mean) ** 2 for x in shares) / n
    reg = [c + 0.5 for c in res["pentanomial"]]
    m_reg = sum(c * k / 4 for k, c in enumerate(reg)) / sum(reg)
    prior = sum(c * (k / 4 - m_reg) ** 2 for k, c in enumerate(reg)) / sum(reg)
    low = mean - z * math.sqrt(max(var, prior) / n)
    assert 0 < low and res["win_ci95"][0] == pytest.approx(low)


def test_sprt_json_is_one_json_object_and_an_infinite_elo_is_null(capsys):
    """`sprt --json` printed its JSON followed by the text summary (and, with --every,
    progress lines before it): stdout did not parse. An Elo of a score of 1 was the
    clamp's 3600.000004739357 in JSON, where the text says +inf."""
    assert main(["sprt", "--bots", "greedy,random", "--elo0", "0", "--elo1", "100", "--json", "--every", "1"]) == 0
    captured = capsys.readouterr()
    d = json.loads(captured.out)                      # the whole of stdout: one object
    assert d["decision"] == "H1 accepted" and "pairs" in captured.err
    assert d["score"] == 1.0 and d["elo"] is None and d["elo_ci95"][1] is None and d["elo_ci95"][0] > 0
    assert d["all_won"] is True and d["all_lost"] is False       # (the null says which side)
    # a review: the object did not say which test it is the result of
    assert {k: d[k] for k in ("players", "bot", "other", "elo0", "elo1", "alpha", "beta", "max_games")} == {
        "players": 2, "bot": "greedy", "other": "random", "elo0": 0.0, "elo1": 100.0, "alpha": 0.05, "beta": 0.05,
        "max_games": 20000}
    st = PairStats()
    st.add([1, 0])
    st.add([1, 1])
    assert st.to_dict()["elo"] == pytest.approx(elo_of_score(0.75))


@pytest.mark.parametrize("sides", [2, 3])
@pytest.mark.parametrize("units", [1, 2, 10, 50, 100])
def test_a_score_at_one_hypothesis_is_evidence_for_it(sides, units):
    """Units that score exactly H0's expected score move the LLR toward H0, and exactly
    H1's toward H1, at every sample size. The padded mean (half a unit on each outcome)
    has mean 1/2, which with 3 sides is +120 Elo: ten triples of one win each (a score of
    1/3, Elo 0 exactly) read LLR +0.222 for H1 = +15 against H0 = 0."""
    st = PairStats(sides=sides)
    share = [1] + [0] * (sides - 1)             # one win a unit: a score of 1/sides, Elo 0
    for _ in range(units):
        st.add(share)
    assert st.score == pytest.approx(1 / sides) and st.elo == pytest.approx(0, abs=1e-9)
    for elo1 in (5, 15, 100):
        assert st.llr(0, elo1) < 0 < st.llr(-elo1, 0), (elo1, st.llr(0, elo1))


def test_nothing_played_is_any_score_and_an_elo_of_zero_has_no_sign():
    for sides in (2, 3):
        st = PairStats(sides=sides)
        assert st.interval() == (0.0, 1.0)
        assert st.to_dict()["elo_ci95"] == [None, None]
    # 3 sides: the Elo of a score of 1/3 is 0 up to rounding (-1.9e-14), printed "+0.0"
    assert format_elo(elo_of_score(1 / 3, 3), 1, 3) == "+0.0" and format_elo(-1e-9) == "+0.0"
    assert format_elo(-0.06) == "-0.1" and format_elo(0.04) == "+0.0"


def test_a_ladder_step_is_significant_when_its_interval_excludes_0():
    """Also a step down: a level placed above a stronger one (docs/levels.md)."""
    from fiveup_solver.ladder import LadderResult
    counts = {("level1", "level5"): [78, 0, 22, 0, 0], ("level1", "level3"): [61, 0, 34, 0, 5],
              ("level5", "level3"): [5, 0, 40, 0, 55]}
    steps = LadderResult(2, ["level1", "level5", "level3"], counts, 200, 0).fit(resamples=300).steps
    down = steps[1]
    assert down["ci95"][1] < 0 and down["significant"], down
    up = steps[0]
    assert up["ci95"][0] > 0 and up["significant"], up


def test_sprt_plays_no_more_games_than_its_cap(capsys):
    """--max-games 2 with 3 players played a whole triple (3 games); now it is refused."""
    from fiveup_solver.cli import main
    with pytest.raises(OptionError, match="at least one unit's games \\(3 with 3 players\\)"):
        sprt(3, "greedy", "random", max_games=2)
    assert main(["sprt", "--players", "3", "--bots", "greedy,random", "--max-games", "2", "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error: --max-games must be at least" in err     # the option, not the API name
    res = sprt(3, "greedy", "random", max_games=3, elo1=100)
    assert res.stats.games == 3


def test_the_sprt_calibration_script_runs_a_slice(tmp_path):
    """benchmarks/sprt_calibration.py on 400 runs a case: its LLR is PairStats.llr (the
    script checks it), and at a true Elo far outside the test's bounds it decides right."""
    try:
        from .bench_scripts import benchmark_script
    except ImportError:
        from bench_scripts import benchmark_script
    script = benchmark_script("sprt_calibration")
    row = script.simulate(3, 0, 100, 300, runs=400, seed=1)
    assert row["checked_against_pairstats"] >= 1 and row["accepted_h1"] > 0.99
    row = script.simulate(2, 0, 20, -100, runs=400, seed=1)
    assert row["checked_against_pairstats"] >= 1 and row["accepted_h0"] > 0.99
    out = tmp_path / "rows.json"
    script.CASES = [(2, 0, 50, 0)]
    assert script.main(["--runs", "200", "--out", str(out)]) == 0
    assert json.loads(out.read_text())[0]["runs"] == 200


def test_an_sprt_journal_cut_mid_line_or_with_its_header_only_resumes(tmp_path):
    """A run killed while writing a unit's line, or before its first unit, resumed into a
    journal it then refused (a unit glued to the cut line; a second header)."""
    whole = sprt(2, "greedy", "random", elo0=0, elo1=5, max_games=8, seed=3)
    path = tmp_path / "sprt.jsonl"
    sprt(2, "greedy", "random", elo0=0, elo1=5, max_games=4, seed=3, journal=str(path))
    lines = path.read_text().splitlines(keepends=True)
    path.write_text(lines[0] + lines[1] + lines[2][:9])
    again = sprt(2, "greedy", "random", elo0=0, elo1=5, max_games=8, seed=3, journal=str(path))
    assert again.stats.counts == whole.stats.counts
    assert [json.loads(line).get("index") for line in path.read_text().splitlines()] == [None, 0, 1, 2, 3]
    path.write_text(lines[0])                                  # the header alone
    again = sprt(2, "greedy", "random", elo0=0, elo1=5, max_games=8, seed=3, journal=str(path))
    assert again.stats.counts == whole.stats.counts
    assert [json.loads(line).get("index") for line in path.read_text().splitlines()] == [None, 0, 1, 2, 3]
    (tmp_path / "bin.jsonl").write_bytes(b"\xff\xfe\x00garbage\n")
    with pytest.raises(OptionError, match="not UTF-8 text"):
        sprt(2, "greedy", "random", max_games=4, seed=3, journal=str(tmp_path / "bin.jsonl"))


def test_the_sprt_replay_script_stops_where_the_sprt_stops(tmp_path):
    """benchmarks/sprt_replay.py replays a journal under today's statistics: on a journal
    that sprt() itself wrote, it decides at the same unit with the same LLR."""
    try:
        from .bench_scripts import benchmark_script
    except ImportError:
        from bench_scripts import benchmark_script
    script = benchmark_script("sprt_replay")
    path = tmp_path / "sprt.jsonl"
    res = sprt(2, "greedy", "random", elo0=0, elo1=100, max_games=400, seed=3, journal=str(path))
    assert res.decision == "H1 accepted"
    row = script.replay(str(path), 0, 100, 0.05, 0.05)
    assert (row["decision"], row["decided_at"], row["units"]) == ("H1 accepted", res.stats.pairs, res.stats.pairs)
    assert row["llr"] == pytest.approx(res.llr, abs=1e-5)
    short = tmp_path / "short.jsonl"
    short.write_text("".join(path.read_text().splitlines(keepends=True)[:2]))    # the header and one pair
    row = script.replay(str(short), 0, 100, 0.05, 0.05)
    assert (row["decision"], row["decided_at"], row["units"]) == ("no decision", None, 1)


@pytest.mark.parametrize("pairs, p", [(3, 0.5), (5, 0.7), (10, 0.5), (10, 0.85), (20, 0.6), (50, 0.95), (100, 0.98)])
def test_the_score_interval_covers_the_true_score(pairs, p):
    """Exact coverage, every outcome enumerated: each game won with probability p alone,
    so a pair is won twice with p^2, split with 2p(1 - p), lost twice with (1 - p)^2. The
    interval on the observed variance alone covered 78 % (3 pairs, p = 0.5) to 90 %
    (100 pairs, p = 0.98); with the prior's variance as its floor it covers at least 92 %
    here (below 95 % only where the outcomes are few: discreteness)."""
    won, split, lost = p * p, 2 * p * (1 - p), (1 - p) ** 2
    covered = 0.0
    for a in range(pairs + 1):
        for b in range(pairs + 1 - a):
            c = pairs - a - b
            chance = math.comb(pairs, a) * math.comb(pairs - a, b) * won ** a * split ** b * lost ** c
            st = PairStats(counts=[c, 0, b, 0, a])
            lo, hi = st.interval()
            covered += chance * (lo <= p <= hi)
    assert covered >= 0.92, covered


@pytest.mark.parametrize("argv", [
    ["match", "--players", "3", "--bots", "hint-alphamu,greedy", "--deals", "1"],
    ["match", "--players", "4", "--bots", "greedy,hint-alphamu", "--deals", "1"],
    ["sprt", "--players", "4", "--bots", "hint-alphamu,greedy", "--max-games", "4"],
])
def test_a_bot_of_another_player_count_is_refused_before_a_game(argv, capsys, monkeypatch):
    """A review: match and sprt checked their bots against 2 players and the ladder not at
    all: 'hint-alphamu' (2 players only) started a 3- or 4-player match and failed at its
    first decision, reading as the bot's crash; a ladder played every pairing before it."""
    from fiveup_solver import match as match_module
    from fiveup_solver.cli import main

    def must_not_play(*a, **k):
        raise AssertionError("a game was played")
    monkeypatch.setattr(match_module, "play_pair", must_not_play)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: bot 'hint-alphamu': method 'alphamu' searches 2 players, not ")
    assert err.count("\n") == 1


def test_the_library_refuses_a_bot_of_another_player_count():
    from fiveup_solver.ladder import place_agent, run_ladder
    with pytest.raises(OptionError, match="searches 2 players, not 4"):
        list(play_pairs(4, "hint-alphamu", "greedy", 0, max_pairs=1))
    with pytest.raises(OptionError, match="searches 2 players, not 3"):
        sprt(3, "greedy", "hint-alphamu", max_games=3)
    with pytest.raises(OptionError, match="searches 2 players, not 4"):
        run_ladder(4, ["level1", "hint-alphamu"], games=2)
    with pytest.raises(OptionError, match="searches 2 players, not 4"):
        place_agent("hint-alphamu", 4, games=2)


def test_a_file_with_no_whole_line_is_not_taken_for_a_journal(tmp_path, capsys):
    """A review: a file with no "\\n" (a text without a newline at its end, a journal of
    another match written with "\\r" line ends) was read as no lines and a killed run's cut
    line: emptied and overwritten, exit 0. It is refused, and left as it was."""
    for content in ('{"players": 2, "bot": "x", "other": "y", "seed": 9}\r{"index": 0, "scores": [1, 0]}\r',
                    "my notes, no newline at the end"):
        path = tmp_path / "notes.txt"
        path.write_text(content, newline="")
        with pytest.raises(OptionError, match="not a journal, or one whose header a stop cut"):
            sprt(2, "greedy", "random", max_games=4, seed=3, journal=str(path))
        assert main(["sprt", "--bots", "greedy,random", "--max-games", "4", "--journal", str(path)]) == 2
        assert capsys.readouterr().err.count("\n") == 1
        assert path.read_bytes().decode() == content
    from fiveup_solver.ladder import run_ladder
    with pytest.raises(OptionError, match="not a journal"):
        run_ladder(2, ["level1", "level2"], games=2, journal=str(path))
    assert path.read_bytes().decode() == content


@pytest.mark.parametrize("unit", ['{"index": 0, "scores": ["a", 1]}', '{"index": 0, "scores": [1]}',
                                  '{"index": 0, "scores": [2, 0]}', '[' * 100_000 + ']' * 100_000,
                                  # a score no game has (a second review: refused, but not by line)
                                  '{"index": 0, "scores": [0.7, 0.3]}'])
def test_a_journal_unit_that_is_no_unit_is_named_with_its_line(unit, tmp_path):
    """A review: bad unit scores, or a line nested too deeply, failed with one line naming
    neither the journal nor the line."""
    path = tmp_path / "j.jsonl"
    path.write_text('{"players": 2, "bot": "greedy", "other": "random", "seed": 3}\n' + unit + "\n")
    with pytest.raises(OptionError, match=rf"^journal {path} line 2: "):
        sprt(2, "greedy", "random", max_games=4, seed=3, journal=str(path))


def test_review_of_match_and_sprt_options(tmp_path, capsys):
    """A review: `--bots a,b,c,d` in a 4-player match read "4 bots named for 2 seats" (the
    two are bots, not seats); `match --deals` had no cap (sprt and ladder have one); and a
    journal whose first line is a unit's, or an sprt --json result, was reported as
    another match's header field by field."""
    for argv, message in (
            (["match", "--players", "4", "--bots", "greedy,random,greedy,random", "--deals", "1"],
             "--bots takes BOT,OTHER: two bots, BOT against OTHER on every seating, not 4"),
            (["sprt", "--bots", "greedy,random,level2"], "--bots takes BOT,OTHER: two bots, BOT against OTHER on "
                                                         "every seating, not 3"),
            (["match", "--deals", "10000001"], "--deals must be 1..10000000, not 10000001")):
        assert main(argv) == 2
        assert capsys.readouterr().err == f"error: {message}\n"
    journal = tmp_path / "j.jsonl"
    journal.write_text('{"index": 0, "scores": [1, 1]}\n')
    assert main(["sprt", "--bots", "greedy,random", "--max-games", "4", "--workers", "1",
                 "--journal", str(journal)]) == 2
    assert capsys.readouterr().err == (f"error: journal {journal} line 1: not an sprt journal's header (the fields "
                                       "players, bot, other, seed; it has 'index, scores')\n")
