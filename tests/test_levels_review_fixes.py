"""The review of the levels, the ladder and the matches (M1, M2, L1-L8): each test's
expectation comes from the docs (docs/levels.md, docs/results/ladder.md, docs/beliefs.md,
docs/api.md, docs/matches.md) or a hand calculation, not from the code it checks."""
import argparse
import copy
import json
import math
import pickle
import re
import shutil
import warnings
from collections.abc import Mapping
from pathlib import Path

import pytest

from fiveup_solver import cli
from fiveup_solver.errors import OptionError
from fiveup_solver.ladder import LadderResult, load_ladder, place_agent, run_ladder

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
RESULTS = ROOT / "benchmarks" / "results"


def _text(path: Path) -> str:
    """A doc's text with its line breaks as spaces (a phrase may wrap anywhere)."""
    return " ".join(path.read_text(encoding="utf-8").split())


def _section(text: str, start: str, end: str) -> str:
    i = text.index(start)
    return text[i:text.index(end, i + len(start))]


def _help(command: str, option: str) -> str:
    """The help text of `option` of `fiveup command`, its whitespace as single spaces."""
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[command]
    action = next(a for a in sub._actions if option in a.option_strings)
    return " ".join(action.help.split())


def _first_move(obs, rng):
    return obs.legal_moves[0]


# ---------------------------------------------------------------- M1: recipes of tables and journals
# docs/results/ladder.md: the first ladder had level3 / level4 blundering 45 % / 25 % and
# level7 at temperature 1; today's recipes (docs/levels.md's table): 50 %, 20 %, 1.4.

def test_a_table_whose_level_was_measured_with_another_recipe_is_refused_naming_both():
    d = load_ladder(2).to_dict()
    level3 = next(e for e in d["entrants"] if e["name"] == "level3")
    level3["recipe"].update(blunder=0.45, summary="greedy, but 45% of moves random")
    with pytest.raises(OptionError) as info:
        LadderResult.from_dict(d)
    msg = str(info.value)
    assert "\n" not in msg
    assert "level3" in msg and "greedy, but 45% of moves random" in msg and "greedy, but 50% of moves random" in msg


def test_a_recipe_changed_in_its_fields_alone_is_refused_too():
    """The same summary, another temperature (level7: 1 then, 1.4 now): the fields decide."""
    d = load_ladder(2).to_dict()
    level7 = next(e for e in d["entrants"] if e["name"] == "level7")
    level7["recipe"]["temperature"] = 1.0
    with pytest.raises(OptionError, match=r"level7: .*temperature 1\.0.*temperature 1\.4"):
        LadderResult.from_dict(d)


def test_the_first_recipes_table_is_refused_by_load_ladder_and_by_place(capsys):
    path = RESULTS / "ladder_2p_first_recipes.json"
    with pytest.raises(OptionError, match=r"level3: measured as \"greedy, but 45% of moves random\", "
                                          r"today \"greedy, but 50% of moves random\""):
        load_ladder(2, str(path))
    # the review's command: it placed level4 against the old Elo (+349 [+255, +444])
    assert cli.main(["ladder", "--place", "level4", "--ladder", str(path), "--against", "level3,level4,level5",
                     "--games", "2", "--workers", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith(f"error: {path}: ") and "level3" in err


def test_the_shipped_tables_still_load_with_todays_recipes():
    """Guard (passes on the old code too): the check refuses no shipped table."""
    for players, span in ((2, 722), (4, 848)):          # docs/levels.md: the spans
        table = load_ladder(players)
        assert round(table.elo["level8"]) == span


def test_a_summary_reworded_alone_is_the_same_recipe():
    """Guard: level8's summary was reworded when the default beliefs changed (the first
    table's "the default hint search"); the recipe, and so the table, is the same."""
    d = load_ladder(2).to_dict()
    next(e for e in d["entrants"] if e["name"] == "level8")["recipe"]["summary"] = "the default hint search"
    assert LadderResult.from_dict(d).elo["level8"] == pytest.approx(load_ladder(2).elo["level8"])


def test_a_ladder_journal_carries_the_recipes_and_refuses_another(tmp_path):
    journal = tmp_path / "ladder.jsonl"
    run_ladder(2, ["level1", "level4"], games=2, seed=4, workers=1, journal=str(journal))
    (line,) = [json.loads(x) for x in journal.read_text().splitlines()]
    # docs/levels.md: level1 plays as random, level4 greedy with 20 % blunders
    assert line["recipes"]["level4"].startswith("greedy") and "0.2" in line["recipes"]["level4"]
    assert line["recipes"]["level1"].startswith("random")
    line["recipes"]["level4"] = "greedy, blunder 0.25"        # played with the first recipe
    journal.write_text(json.dumps(line) + "\n")
    with pytest.raises(OptionError) as info:
        run_ladder(2, ["level1", "level4"], games=4, seed=4, workers=1, journal=str(journal))
    msg = str(info.value)
    assert "\n" not in msg and "line 1" in msg and "level4" in msg and "0.25" in msg and "0.2\"" in msg


def test_a_placement_journal_carries_the_recipes_and_refuses_another(tmp_path):
    journal = tmp_path / "place.jsonl"
    place_agent("greedy", levels=["level3"], games=2, seed=2, journal=str(journal), resamples=100)
    (line,) = [json.loads(x) for x in journal.read_text().splitlines()]
    assert "0.5" in line["recipes"]["level3"]                 # docs/levels.md: 50 % blunders
    line["recipes"]["level3"] = "greedy, blunder 0.45"
    journal.write_text(json.dumps(line) + "\n")
    with pytest.raises(OptionError, match=r"line 1: .*level3.*0\.45"):
        place_agent("greedy", levels=["level3"], games=2, seed=2, journal=str(journal), resamples=100)


def test_journal_lines_without_recipes_still_resume(tmp_path):
    """Guard: journals written before lines carried recipes (benchmarks/results/) resume."""
    journal = tmp_path / "ladder.jsonl"
    first = run_ladder(2, ["level1", "level4"], games=4, seed=4, workers=1, journal=str(journal))
    rows = [json.loads(x) for x in journal.read_text().splitlines()]
    journal.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "recipes"}) + "\n" for r in rows))
    again = run_ladder(2, ["level1", "level4"], games=4, seed=4, workers=1, journal=str(journal))
    assert again.counts == first.counts


def test_the_documented_journal_slice_check_gives_the_shipped_table(tmp_path):
    """Guard (L8's documented check; it passes on the old code too): the shipped journal
    with a few cheap pairs deleted, resumed with the documented options, replays just those
    and gives the shipped table; resumed again, with the replayed lines now carrying their
    recipes, it still does."""
    lines = (RESULTS / "ladder_2p.jsonl").read_text().splitlines(keepends=True)
    cut = {("level1", "level2", 3), ("level2", "level4", 50), ("level3", "level5", 17), ("level4", "level5", 99)}
    kept = [x for x in lines if (lambda r: (r["a"], r["b"], r["pair"]))(json.loads(x)) not in cut]
    assert len(kept) == len(lines) - 4
    journal = tmp_path / "ladder.jsonl"
    journal.write_text("".join(kept))
    shipped = json.loads((ROOT / "fiveup_solver" / "data" / "ladder_2p.json").read_text())
    for _ in range(2):
        table = run_ladder(2, games=200, seed=2026, workers=1, journal=str(journal))
        assert json.loads(json.dumps(table.to_dict())) == shipped
        assert len(journal.read_text().splitlines()) == len(lines)


# ---------------------------------------------------------------- M2: 3 players: the steps, no ladder
def test_the_docs_and_the_play_help_give_the_3_player_steps():
    """No 3-player ladder: the docs say so and give each level's measured step over the one
    below, as benchmarks/results/levels_3p_steps.json (the measurement's journal) has them."""
    picking = _section(_text(DOCS / "levels.md"), "**Picking a level for a win rate.**", "To give a player")
    assert "With 3 players no ladder has been played, only the steps" in picking, picking
    steps = json.loads((ROOT / "benchmarks" / "results" / "levels_3p_steps.json").read_text())["steps"]
    assert [(s["bot"], s["other"]) for s in steps] == [(f"level{k + 1}", f"level{k}") for k in range(1, 8)]
    for s in steps:
        lo, hi = s["elo_ci95"]
        row = (f"| `{s['bot']}` over `{s['other']}` | {s['wins']} | {round(s['elo']):+d} "
               f"[{round(lo):+d}, {round(hi):+d}] |")
        assert row in picking, row
    assert "step over the one below with 3" in _help("play", "--bots")


# ---------------------------------------------------------------- L1: the hint bot's strength
def test_the_strength_descriptions_follow_the_ladders():
    from fiveup_solver import levels
    doc = " ".join(levels.__doc__.split())
    assert "stronger still" not in doc
    # docs/results/ladder.md: the hint bot placed +721 (level8 +722) with 2 players, +877 (+848) with 4
    assert "+721" in doc and "+722" in doc and "+877" in doc and "+848" in doc
    bots_help = _help("play", "--bots")
    assert "the hint bot with a budget" not in bots_help and "uniform beliefs" in bots_help


# ---------------------------------------------------------------- L2: the first decision's cost
def test_the_first_decision_cost_is_api_md_s_and_the_warm_up_is_named():
    import inspect

    from fiveup_solver import equity
    api = _text(DOCS / "api.md")
    assert "0.2 to 0.5 s with 3 players" in api
    app = _section(_text(DOCS / "levels.md"), "**In an app.**", "A level's one-line description")
    assert "0.2 to 0.5 s with 3 players" in app and "0.1-0.3 s" not in app
    assert "`fiveup_solver.equity.search_values(players)`" in app and "hint@50ms" in app
    assert list(inspect.signature(equity.search_values).parameters) == ["players"]


# ---------------------------------------------------------------- L3: a function for a bot name
NAME_IT = "give a function a name with bots.register_bot(name, function), or name it MODULE:FUNCTION"


@pytest.mark.parametrize("call", [
    lambda: __import__("fiveup_solver.bots", fromlist=["bot_function"]).bot_function(_first_move),
    lambda: __import__("fiveup_solver.selfplay", fromlist=["x"]).match_seatings(2, _first_move, "greedy"),
    lambda: __import__("fiveup_solver.match", fromlist=["x"]).sprt(2, _first_move, "greedy"),
    lambda: run_ladder(2, ["level1", _first_move], games=2),
    lambda: place_agent(_first_move),
], ids=["bot_function", "match_seatings", "sprt", "run_ladder", "place_agent"])
def test_a_function_given_for_a_bot_name_says_how_to_name_it(call):
    with pytest.raises(OptionError) as info:
        call()
    assert str(info.value).endswith(NAME_IT) and "\n" not in str(info.value)


# ---------------------------------------------------------------- L4: play_match
def test_play_match_is_deprecated_in_favour_of_play_pairs():
    from fiveup_solver.selfplay import play_match
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = play_match(2, "greedy", "random", 1, seed=1)
    assert r["games"] == 2
    (w,) = [w for w in caught if issubclass(w.category, DeprecationWarning)]
    assert "match.play_pairs" in str(w.message) and w.filename == __file__
    assert "Deprecated" in play_match.__doc__ and "Wilson" in play_match.__doc__


# ---------------------------------------------------------------- L5: a secret seed for --place
def test_placing_an_untrusted_agent_asks_for_a_secret_seed():
    placing = _section(_text(DOCS / "levels.md"), "**Placing your own agent**", "- *The Elo*")
    assert "For an agent you do not trust, give `--seed` a secret value" in placing
    assert "For an agent you do not trust, give --seed a secret value" in _help("ladder", "--place")


# ---------------------------------------------------------------- L6: one interval over pairs
def _score_of(elo: float) -> float:
    return 100.0 / (1.0 + 10.0 ** (-elo / 400.0))


def test_the_beliefs_win_rate_and_elo_intervals_correspond():
    """docs/beliefs.md's head-to-head: the win-rate interval is the Elo interval's ends as
    scores (no game unfinished, so win rate = score), to the rounding of the Elo shown."""
    text = _text(DOCS / "beliefs.md")
    m = re.search(r"55\.2 % of 500 games \[([\d.]+), ([\d.]+)\], \+36 Elo \[\+(\d+), \+(\d+)\]", text)
    assert m, "the head-to-head figures"
    lo, hi, elo_lo, elo_hi = map(float, m.groups())
    # a whole Elo is within 0.5 of the value: its score within 0.5 * d(score)/d(Elo) ~ 0.07 points
    assert abs(_score_of(elo_lo) - lo) <= 0.1 and abs(_score_of(elo_hi) - hi) <= 0.1, (lo, hi)
    assert "+36 Elo [+10, +63]" in _text(DOCS / "levels.md")


def test_the_beliefs_interval_is_the_pairs_of_its_journal():
    """The pair interval recomputed by hand from the journal beliefs.md cites: the normal
    interval of the mean pair score (every pair's score its mean of two games)."""
    rows = [json.loads(x) for x in (RESULTS / "beliefs" / "hint-model_vs_hint-uniform_2p.jsonl").read_text()
            .splitlines()]
    pairs = [sum(r["scores"]) / 2 for r in rows]
    n, mean = len(pairs), sum(pairs) / len(pairs)
    sd = math.sqrt(sum((x - mean) ** 2 for x in pairs) / n)
    lo, hi = (100 * (mean + s * 1.959964 * sd / math.sqrt(n)) for s in (-1, 1))
    assert (n, round(100 * mean, 1)) == (250, 55.2)
    assert f"55.2 % of 500 games [{lo:.1f}, {hi:.1f}]" in _text(DOCS / "beliefs.md")


# ---------------------------------------------------------------- L7: level names
def test_an_unknown_level_in_levels_is_an_option_error_listing_them():
    from fiveup_solver.levels import LEVELS
    with pytest.raises(OptionError) as info:
        LEVELS["level9"]
    assert isinstance(info.value, ValueError) and isinstance(info.value, KeyError)   # as a dict's, too
    assert "level9" in str(info.value) and all(f"level{k}" in str(info.value) for k in range(1, 9))
    with pytest.raises(OptionError):
        LEVELS[["level1"]]


def test_levels_is_a_read_only_mapping_that_reads_as_a_dict():
    from fiveup_solver.levels import LEVELS
    names = [f"level{k}" for k in range(1, 9)]        # docs/levels.md: level1 .. level8
    assert isinstance(LEVELS, Mapping) and list(LEVELS) == names and len(LEVELS) == 8
    assert "level3" in LEVELS and "level9" not in LEVELS and ["x"] not in LEVELS and LEVELS.get("level9") is None
    assert [n for n, _ in LEVELS.items()] == names and [lv.name for lv in LEVELS.values()] == names
    assert dict(LEVELS)["level5"].base == "greedy" and LEVELS == dict(LEVELS)
    assert pickle.loads(pickle.dumps(LEVELS)) == LEVELS and copy.deepcopy(LEVELS) == LEVELS
    with pytest.raises(TypeError):
        LEVELS["level9"] = LEVELS["level8"]
    with pytest.raises((TypeError, AttributeError)):
        del LEVELS["level1"]


@pytest.mark.parametrize("name", ["level9", "level12", "level0"])
def test_register_bot_refuses_level_names(name):
    from fiveup_solver.bots import BOTS, register_bot
    try:
        with pytest.raises(OptionError, match="level"):
            register_bot(name, _first_move)
    finally:
        BOTS.pop(name, None)
    assert name not in BOTS


# ---------------------------------------------------------------- L8: the reproduce command
def test_the_documented_reproduce_command_writes_a_file_of_ones_own():
    for doc in (DOCS / "levels.md", DOCS / "results" / "ladder.md"):
        text = _text(doc)
        assert not re.search(r"fiveup ladder [^`]*--out fiveup_solver/data/", text), doc
        assert "--out my_ladder_2p.json" in text and "fiveup ladder --shipped" in text and "--json" in text, doc
        assert "delete a few" in text, doc


def test_the_documented_compare_command_reads_true(tmp_path, capsys):
    """Guard: `fiveup ladder --shipped --json` is the table `--out` writes (the docs
    compare the two as JSON): here the shipped file itself stands for a fresh run's."""
    assert cli.main(["ladder", "--shipped", "--json"]) == 0
    shipped = json.loads(capsys.readouterr().out)
    mine = tmp_path / "my_ladder_2p.json"
    shutil.copy(ROOT / "fiveup_solver" / "data" / "ladder_2p.json", mine)
    assert json.loads(mine.read_text()) == shipped
