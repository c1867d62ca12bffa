"""One agent placed on a measured ladder (ladder.place_agent, fiveup ladder --place): the fit
by hand, duplicate deals shared by every agent, the levels' own uncertainty, the journal."""
import json
import math

import pytest

from fiveup_solver import OptionError
from fiveup_solver.cli import main
from fiveup_solver.ladder import Placement, _fit_one, load_ladder, place_agent, placement_seed


def test_the_fit_against_fixed_levels_by_hand():
    # one level at +100, 15 of 20 games and one virtual draw: 100 + 400 log10(15.5 / 5.5)
    assert _fit_one([100.0], [15.0], [20]) == pytest.approx(100 + 400 * math.log10(15.5 / 5.5), abs=1e-6)
    # half the games against a level 200 below and one 200 above: the middle, by symmetry
    assert _fit_one([0.0, 200.0], [10.0, 10.0], [20, 20]) == pytest.approx(100.0, abs=1e-6)
    # a clean sweep stays finite: 20.5 of 21 against a level at 0
    assert _fit_one([0.0], [20.0], [20]) == pytest.approx(400 * math.log10(20.5 / 0.5), abs=1e-6)


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
    p = Placement("x", 2, ["level5"], {"level5": [0, 0, 100_000, 0, 0]}, dict(table.elo),
                  200_000, 0, table.seed).fit(table)
    assert p.elo == pytest.approx(table.elo["level5"], abs=0.5)
    assert p.ci95[0] == pytest.approx(table.ci95["level5"][0], abs=2.0)
    assert p.ci95[1] == pytest.approx(table.ci95["level5"][1], abs=2.0)
    assert p.neighbours() == ("level5", "level6") or p.neighbours() == ("level4", "level5")


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
