"""One agent placed on a measured ladder (ladder.place_agent, fiveup ladder --place): the fit
by hand, duplicate deals shared by every agent, the levels' own uncertainty, the journal."""
import json
import math
import re

import pytest

from fiveup_solver import OptionError
from fiveup_solver.cli import main
from fiveup_solver.ladder import Placement, load_ladder, place_agent, placement_interval, placement_seed


def _binomial_lr_interval(wins, games):
    """The 95 % likelihood-ratio interval of a win probability, by bisection (the test's own)."""
    def loglik(p):
        return wins * math.log(p) + (games - wins) * math.log(1 - p)
    top = loglik(wins / games)
    target = top - 3.841458820694124 / 2

    def cross(a, b):          # loglik - target changes sign once in [a, b]
        for _ in range(200):
            m = (a + b) / 2
            if (loglik(m) - target) * (loglik(a) - target) <= 0:
                b = m
            else:
                a = m
        return a
    return cross(1e-12, wins / games), cross(wins / games, 1 - 1e-12)


def elo_of(p, level=0.0):
    return level + 400 * math.log10(p / (1 - p))


def test_the_fit_against_fixed_levels_by_hand():
    # one level at +100, 15 of 20 games: the level plus the logistic Elo of 15/20, and the
    # binomial likelihood-ratio interval mapped the same way
    elo, low, high = placement_interval([100.0], [15], [20])
    assert elo == pytest.approx(100 + 400 * math.log10(15 / 5), abs=1e-6)
    p_lo, p_hi = _binomial_lr_interval(15, 20)
    assert (low, high) == pytest.approx((elo_of(p_lo, 100), elo_of(p_hi, 100)), abs=1e-4)
    # half the games against a level 200 below and one 200 above: the middle, by symmetry
    assert placement_interval([0.0, 200.0], [10, 10], [20, 20])[0] == pytest.approx(100.0, abs=1e-6)
    # every game won against a level at 0: no estimate, a low end where P(20 wins) = e^(-1.92)
    elo, low, high = placement_interval([0.0], [20], [20])
    assert (elo, high) == (math.inf, math.inf)
    assert low == pytest.approx(elo_of(math.exp(-3.841458820694124 / 2 / 20)), abs=1e-4)
    elo, low, high = placement_interval([0.0], [0], [20])
    assert (elo, low) == (-math.inf, -math.inf) and high == pytest.approx(-elo_of(math.exp(-1.9207294 / 20)),
                                                                          abs=1e-3)


def test_one_sided_ends_reach_past_the_levels():
    """A review: with every game won, the low end was searched only down to the highest
    level, so 2 wins of 2 against a level at 0 read "+0 or more"; the end is where
    P(every game won) = e^(-1.92), wherever that is."""
    for wins, level in ((2, 0.0), (4, 0.0), (20, 0.0)):
        elo, low, high = placement_interval([level], [wins], [wins])
        assert elo == high == math.inf
        assert low == pytest.approx(elo_of(math.exp(-3.841458820694124 / 2 / wins), level), abs=1e-4)
        elo, low, high = placement_interval([level], [0], [wins])
        assert elo == low == -math.inf
        assert high == pytest.approx(-elo_of(math.exp(-3.841458820694124 / 2 / wins), -level), abs=1e-4)
    # two levels 1000 apart, 2 of 2 won against each: the end is below the higher level
    _, low, _ = placement_interval([0.0, 1000.0], [2, 2], [2, 2])
    assert low < 1000.0
    for bad in (([100.0], [0], [0]), ([100.0], [3], [2]), ([100.0], [-1], [2]), ([], [], []),
                ([float("nan")], [1], [2]), ([1.0, 2.0], [1], [2])):
        with pytest.raises(OptionError, match="a placement needs"):
            placement_interval(*bad)


def test_a_level_placed_against_itself_scores_every_pair_one():
    res = place_agent("level5", levels=["level4", "level5"], games=4, seed=3)
    # the same bot on both sides of the same deals: each pair is one win and one loss
    assert res.counts["level5"] == [0, 0, 2, 0, 0]
    assert res.score("level5") == (0.5, 4)
    assert res.levels == ["level4", "level5"]
    assert res.level_elo == load_ladder(2).elo          # the whole ladder, for where the agent lands
    lo, hi = res.ci95
    assert lo <= res.elo <= hi


def test_levels_are_played_in_the_ladders_order_and_the_deals_do_not_depend_on_the_agent():
    a = place_agent("level3", levels=["level6", "level2"], games=2, seed=9)
    b = place_agent("level3", levels=["level2", "level6"], games=2, seed=9)
    assert a.levels == b.levels == ["level2", "level6"] and a.counts == b.counts
    # the deals come from the seed and the level alone (not the agent, not the ladder's seeds)
    assert placement_seed(9, "level2") != placement_seed(9, "level6")
    assert placement_seed(9, "level2") == placement_seed(9, "level2")
    c = place_agent("level3", levels=["level2", "level6"], games=2, seed=10)
    assert c.seed == 10


def test_the_levels_own_uncertainty_is_part_of_the_agents_interval():
    """An agent that scored exactly half of 200,000 games against level5 is level5's
    equal: its Elo is level5's, and its interval is then the ladder's own interval for
    level5 (the shipped table: nothing the agent played can narrow it)."""
    table = load_ladder(2)
    p = Placement("x", 2, ["level5"], {"level5": [0, 0, 100_000, 0, 0]}, dict(table.elo), 200_000, 0).fit(table)
    assert p.elo == pytest.approx(table.elo["level5"], abs=0.5)
    # (the table's interval is a percentile interval, the placement's a normal one: a few Elo apart)
    assert p.ci95[0] == pytest.approx(table.ci95["level5"][0], abs=4.0)
    assert p.ci95[1] == pytest.approx(table.ci95["level5"][1], abs=4.0)
    assert p.where() == "the interval includes level5 (+388)"


def test_a_swept_level_gives_a_one_sided_answer_and_says_so():
    """Against levels it beat (or lost to) in every game an agent has no finite Elo: the
    placement says so, with the one end the games give (a review: the bootstrap had drawn
    results that never happened, and put the estimate outside its own interval)."""
    res = place_agent("level8", levels=["level1"], games=4, seed=1)
    assert res.counts["level1"] == [0, 0, 0, 0, 2] and res.elo == math.inf and res.ci95[1] == math.inf
    # the games alone: P(10 wins) = e^(-1.92) at the low end; the level's own uncertainty lowers it
    assert res.ci95[0] <= elo_of(math.exp(-3.841458820694124 / 2 / 4)) + 1e-6
    text = res.format_text()
    assert "Elo +" in text and "or more (it won every game; 95 %)" in text
    assert "it won every game against level1: such a level bounds its Elo from one side only" in text
    d = res.to_dict()
    assert d["elo"] is None and d["ci95"][1] is None and d["all_won"] and not d["all_lost"]
    low = place_agent("level1", levels=["level7", "level8"], games=4, seed=1)
    assert low.elo == -math.inf and low.ci95[0] == -math.inf
    assert "or less (it lost every game; 95 %)" in low.format_text()
    # an estimate is always inside its interval
    for agent, levels in (("level1", ["level1", "level2", "level5"]), ("level4", ["level3", "level5"]),
                          ("level5", ["level1", "level6"])):
        r = place_agent(agent, levels=levels, games=6, seed=2)
        assert r.ci95[0] <= r.elo <= r.ci95[1], (agent, r.elo, r.ci95)


def test_a_placement_journal_resumes_without_replaying(tmp_path):
    journal = tmp_path / "place.jsonl"
    whole = place_agent("level4", levels=["level3", "level5"], games=4, seed=2)
    part = place_agent("level4", levels=["level3"], games=2, seed=2, journal=str(journal))
    assert sum(part.counts["level3"]) == 1
    seen = []
    resumed = place_agent("level4", levels=["level3", "level5"], games=4, seed=2, journal=str(journal),
                          on_pair=lambda level, scores: seen.append(level))
    assert seen == ["level3", "level5", "level5"]          # level3's pair 0 read back
    assert resumed.counts == whole.counts and resumed.elo == pytest.approx(whole.elo)
    with pytest.raises(OptionError, match="another placement"):
        place_agent("level6", levels=["level3"], games=2, seed=2, journal=str(journal))
    journal.write_text("[1]\n")
    with pytest.raises(OptionError, match="line 1: not a placement journal line"):
        place_agent("level4", levels=["level3"], games=2, seed=2, journal=str(journal))


@pytest.mark.parametrize("kwargs, match", [
    ({"agent": "nobody"}, "unknown bot"), ({"agent": 5}, "bot name"),
    ({"players": 3}, "2 or 4 players"), ({"players": True}, "2 or 4 players"),
    ({"levels": ["level9"]}, "not on the ladder"), ({"levels": "level3"}, "a list"),
    ({"levels": []}, "at least one"), ({"levels": ["level3", "level3"]}, "distinct"),
    ({"games": 3}, "even"), ({"games": 0}, "even"), ({"seed": -1}, "seed"), ({"workers": 0}, "workers"),
    ({"table": "ladder.json"}, "LadderResult"), ({"players": 4, "table": load_ladder(2)}, "of 2 players"),
    ({"resamples": 10}, "resamples"),
])
def test_placement_options_checked(kwargs, match):
    args = {"agent": "level3", "levels": ["level2"], "games": 2, **kwargs}
    with pytest.raises(OptionError, match=match):
        place_agent(args.pop("agent"), **args)


def test_cli_place(capsys, tmp_path):
    out = tmp_path / "place.json"
    assert main(["ladder", "--place", "level4", "--against", "level3,level5", "--games", "2", "--workers", "1",
                 "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("level4 on the 2-player ladder (level1 = random play = 0): Elo ")
    assert "| level3 | +194 |" in text and "| level5 | +388 |" in text
    saved = json.loads(out.read_text())
    assert saved["format"] == "fiveup-placement/1" and [x["name"] for x in saved["levels"]] == ["level3", "level5"]
    assert main(["ladder", "--place", "level4", "--against", "level3", "--games", "2", "--workers", "1",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["agent"] == "level4"
    # a ladder saved by --out is a table to place against
    table = tmp_path / "ladder.json"
    table.write_text(json.dumps(load_ladder(2).to_dict()))
    assert main(["ladder", "--place", "level2", "--against", "level1", "--games", "2", "--workers", "1",
                 "--ladder", str(table)]) == 0
    assert "level2 on the 2-player ladder" in capsys.readouterr().out
    for argv, msg in [
        (["ladder", "--against", "level3"], "error: --against is for placing one agent: give it with --place AGENT"),
        (["ladder", "--place", "level4", "--entrants", "level1,level2"], "error: --place plays one agent against a "
         "measured ladder; --entrants is for the ladder itself"),
        (["ladder", "--place", "level4", "--games", "5"], "error: --games must be an even number from 2 to "
         "1000000, not 5"),
        (["ladder", "--place", "level4", "--against", "level3,levelx", "--games", "2"],
         "error: 'levelx' is not on the ladder (its entrants: level1, level2, level3, level4, level5, level6, "
         "level7, level8)"),
        (["ladder", "--place", "level4", "--ladder", str(tmp_path / "none.json")],
         f"error: {tmp_path / 'none.json'}: no ladder table (no such file)"),
    ]:
        assert main(argv) == 2
        assert capsys.readouterr().err == msg + "\n"


def test_a_placement_round_trips_its_numbers():
    res = place_agent("level6", levels=["level5", "level7"], games=2, seed=1)
    d = json.loads(json.dumps(res.to_dict()))
    assert d["elo"] == round(res.elo, 1) and d["ci95"] == [round(x, 1) for x in res.ci95]
    assert [lv["games"] for lv in d["levels"]] == [2, 2]
    assert sum(sum(lv["pentanomial"]) for lv in d["levels"]) == 2


def _edited(tmp_path, name, change):
    d = load_ladder(2).to_dict()
    change(d)
    path = tmp_path / name
    path.write_text(json.dumps(d))
    return path


@pytest.mark.parametrize("change, msg", [
    (lambda d: d["pairings"][0].update(pentanomial=["1", 0, 0, 0, 0]), "pentanomial must be five counts >= 0"),
    (lambda d: d["pairings"][0].update(pentanomial=[-1, 0, 0, 0, 0]), "pentanomial must be five counts >= 0"),
    (lambda d: d["pairings"][0].update(pentanomial=[1, 0]), "pentanomial must be five counts >= 0"),
    (lambda d: d["entrants"][3].update(elo=float("nan")), "level4: its elo and ci95 must be finite numbers"),
    (lambda d: d["entrants"][3].update(elo=1000.0, ci95=[900, 1100]),
     "its Elo are not the fit of its pairings: level4 +1000.0 stored, +308.5 fitted"),
    # (a review: these were accepted and shown as measured)
    (lambda d: d["entrants"][3].update(ci95=d["entrants"][3]["ci95"][::-1]), "level4: its Elo +308.5 is not inside "
                                                                             "its ci95 [+342.2, +278.7]"),
    (lambda d: d["entrants"][3].update(ci95=[400, 500]), "level4: its Elo +308.5 is not inside its ci95"),
    (lambda d: d["steps"][0].update(significant=False), "steps[0]: its elo +139.5 must lie in its ci95 [+108.4, "
                                                        "+170.1], and it is significant exactly when"),
    (lambda d: d["steps"][0].update(ci95=[150, 900]), "steps[0]: its elo +139.5 must lie in its ci95"),
    (lambda d: d.update(games_per_pairing=2), "pairing level1 v level2: 100 pairs, not the 1 of its "
                                              "games_per_pairing 2"),
    (lambda d: d.update(anchor="level5"), "its anchor is 'level5': the ladder's zero is level1"),
    (lambda d: d.update(seed="s"), "seed 's', not an integer from 0 to 2^64 - 1"),
    (lambda d: d.update(seed=-5), "seed -5, not an integer"),
    (lambda d: d.update(format="something-else"), "its format is not fiveup-ladder/1"),
    (lambda d: d.pop("entrants"), "a field 'entrants' is missing"),
    (lambda d: d["entrants"][2].pop("name"), "a field 'name' is missing"),
    (lambda d: d.update(entrants="level1"), "a field holds the wrong kind of value"),
    (lambda d: d["entrants"].pop(0), "including level1"),
    (lambda d: d["entrants"].append(dict(d["entrants"][1])), "distinct names"),
    (lambda d: d["pairings"].append({"a": "level1", "b": "nobody", "pentanomial": [0, 0, 1, 0, 0]}),
     "a pairing 'level1' v 'nobody' of entrants not in the table"),
])
def test_a_ladder_file_is_checked_whole_and_named(tmp_path, capsys, change, msg):
    """A review: a ladder file with strings or negative counts in a pentanomial, a NaN Elo
    or a bad seed gave tracebacks; an Elo edited by hand was used as if measured."""
    path = _edited(tmp_path, "edited.json", change)
    assert main(["ladder", "--place", "level2", "--against", "level1", "--games", "2", "--workers", "1",
                 "--ladder", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}: not a ladder table (") and err.count("\n") == 1 and msg in err, err


def test_a_placement_file_is_not_a_ladder_and_players_come_from_the_table(tmp_path, capsys):
    placed = tmp_path / "placed.json"
    assert main(["ladder", "--place", "level2", "--against", "level1", "--games", "2", "--workers", "1",
                 "--out", str(placed)]) == 0
    capsys.readouterr()
    assert main(["ladder", "--place", "level2", "--ladder", str(placed), "--games", "2"]) == 2
    assert "not a ladder table (its format is not fiveup-ladder/1" in capsys.readouterr().err
    four = tmp_path / "four.json"
    four.write_text(json.dumps(load_ladder(4).to_dict()))
    assert main(["ladder", "--place", "level2", "--ladder", str(four), "--games", "2"]) == 2
    assert capsys.readouterr().err == f"error: --ladder {four} is a 4-player ladder: add --players 4\n"
    assert main(["ladder", "--place", "level2", "--players", "3", "--games", "2"]) == 2
    assert capsys.readouterr().err == "error: --place plays duplicate pairs: --players 2 or 4, not 3\n"
    assert main(["ladder", "--place", "level2", "--against", " ", "--games", "2"]) == 2
    assert capsys.readouterr().err.startswith("error: --against names the levels to play")


@pytest.mark.parametrize("line, msg", [
    ({"scores": [5, 5]}, "two scores of 0, 0.5 or 1"), ({"scores": [-1, 0]}, "two scores"),
    ({"scores": [1.0]}, "two scores"), ({"pair": 1.7}, "a pair number >= 0"), ({"pair": -1}, "a pair number"),
    ({"level": 3}, "not a placement journal line"), ({"scores": [True, 0]}, "two scores"),
])
def test_every_journal_line_is_checked(tmp_path, line, msg):
    """A review: a journal line with scores [5, 5] raised IndexError, [-1, 0] was counted as
    a 3/2 pair, and one score or a pair of 1.7 were taken."""
    journal = tmp_path / "j.jsonl"
    row = {"agent": "level2", "players": 2, "seed": 4, "level": "level1", "pair": 0, "scores": [1.0, 0.0], **line}
    journal.write_text(json.dumps(row) + "\n")
    with pytest.raises(OptionError, match=f"journal {journal} line 1: .*{re.escape(msg)}"):
        place_agent("level2", levels=["level1"], games=2, seed=4, journal=str(journal))
    with pytest.raises(OptionError, match="journal must be a file name, not 5"):
        place_agent("level2", levels=["level1"], games=2, seed=4, journal=5)


def test_the_coverage_benchmark_runs_a_small_slice(tmp_path, capsys):
    """benchmarks/placement_coverage.py (its results: docs/results/ladder.md) on 3 runs a row."""
    try:
        from .bench_scripts import benchmark_script
    except ImportError:
        from bench_scripts import benchmark_script
    out = tmp_path / "coverage.json"
    assert benchmark_script("placement_coverage").main(["--runs", "3", "--resamples", "100", "--out", str(out)]) == 0
    rows = json.loads(out.read_text())["rows"]
    assert len(rows) == 12 and all(r["runs"] == 3 and 0.0 <= r["coverage"] <= 1.0 for r in rows)
    assert rows[-2]["one_sided"] >= 1        # +1300 against level1..level3 in 10 games: most runs won every game
    assert "holds the truth in" in capsys.readouterr().out


@pytest.mark.parametrize("change, msg", [
    (dict(counts={"level5": [1, 2]}), "level5: a placement's counts are five pair counts >= 0 per level, not [1, 2]"),
    (dict(counts={}), "level5: a placement's counts are five pair counts >= 0 per level, not None"),
    (dict(counts={"level5": [-1, 0, 3, 0, 0]}), "five pair counts >= 0"),
    (dict(levels=["level9"], counts={"level9": [0, 0, 1, 0, 0]}), "'level9' is not on the ladder"),
    (dict(levels="level5"), "a placement's levels are a list of the ladder's entrants, not 'level5'"),
    (dict(level_elo={}), "level5: a placement's level_elo holds each level's finite Elo"),
    (dict(counts={"level5": [0, 0, 0, 0, 0]}), "a placement needs at least one pair played"),
])
def test_a_placement_built_by_hand_is_checked_before_its_fit(change, msg):
    table = load_ladder(2)
    fields = {"agent": "x", "players": 2, "levels": ["level5"], "counts": {"level5": [0, 0, 3, 0, 0]},
              "level_elo": dict(table.elo), "games_per_level": 6, "seed": 0, **change}
    with pytest.raises(OptionError, match=re.escape(msg)):
        Placement(**fields).fit(table)
    good = Placement(**{**fields, "levels": ["level5"], "counts": {"level5": [0, 0, 3, 0, 0]},
                        "level_elo": dict(table.elo)})
    with pytest.raises(OptionError, match="table must be a LadderResult"):
        good.fit("ladder.json")
    with pytest.raises(OptionError, match="resamples must be an integer from 100"):
        good.fit(table, resamples=0)
