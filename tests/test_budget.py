"""One SearchBudget: checked once, read by the hint, the position value, the bot names,
the levels, the analysis and the command line's flags."""
from __future__ import annotations

import pytest

from fiveup_solver import Game
from fiveup_solver.analysis import AnalysisBudget
from fiveup_solver.cli import build_parser
from fiveup_solver.errors import OptionError
from fiveup_solver.hint import (BOT_SUFFIXES, DEFAULT_CHANCE_WIDTH, DEFAULT_THREADS, DEFAULT_WORLD_NODES, Hinter,
                                SearchBudget)
from fiveup_solver.levels import LEVELS


def _position(players=2, seed=3, pushes=6):
    g = Game(players=players, seed=seed)
    for _ in range(pushes):
        g.push(g.legal_moves[0])
    while len(g.legal_moves) < 2:
        g.push(g.legal_moves[0])
    return g.observation(g.to_move)


@pytest.mark.parametrize("name, expected", [
    ("hint:16:5000", dict(method="pimc", samples=16, world_nodes=5000)),
    ("expectimax:8:300", dict(method="expectimax", samples=8, world_nodes=300)),
    ("hint-win:16:5000", dict(method="pimc", samples=16, world_nodes=5000, objective="win")),
    ("hint-points:4:100", dict(method="pimc", samples=4, world_nodes=100, objective="points")),
    ("hint-uniform:2:10", dict(method="pimc", samples=2, world_nodes=10, beliefs="uniform")),
    ("expectimax-model:3:7", dict(method="expectimax", samples=3, world_nodes=7, beliefs="model")),
    ("hint-maxn:5:50", dict(method="pimc", samples=5, world_nodes=50, search="maxn")),
    ("hint-paranoid:5:50", dict(method="pimc", samples=5, world_nodes=50, search="paranoid")),
    ("hint-alphamu-d3:8:500", dict(method="alphamu", samples=8, world_nodes=500, depth=3)),
])
def test_bot_names_parse_into_the_budget(name, expected):
    b = SearchBudget.from_bot_name(name)
    assert b == SearchBudget(**expected)
    assert b.chance_width == DEFAULT_CHANCE_WIDTH and b.time_ms is None


def test_an_alphamu_depth_suffix_sets_the_depth_only():
    assert SearchBudget.from_bot_name("hint-alphamu-d2") == SearchBudget(method="alphamu", depth=2)
    assert SearchBudget.from_bot_name("hint-alphamu-d3@25ms") == SearchBudget(method="alphamu", depth=3,
                                                                             time_ms=25.0)
    # methods without a depth, two digits, other suffixes after it: not a bot name
    for name in ("hint-d2", "expectimax-d3", "hint-alphamu-d10", "hint-alphamu-d3-win", "hint-alphamu-dx"):
        assert SearchBudget.from_bot_name(name) is None, name


@pytest.mark.parametrize("name, expected", [
    ("hint@50ms", dict(method="pimc", time_ms=50.0)),
    ("hint-alphamu@20ms", dict(method="alphamu", time_ms=20.0)),
    ("expectimax-win@12.5ms", dict(method="expectimax", time_ms=12.5, objective="win")),
    ("hint-maxn@1ms", dict(method="pimc", time_ms=1.0, search="maxn")),
])
def test_timed_bot_names_parse_into_a_time_budget(name, expected):
    b = SearchBudget.from_bot_name(name)
    assert b == SearchBudget(**expected)
    assert b.samples is None and b.world_nodes is None


@pytest.mark.parametrize("name", ["hint", "hint:16", "hint:0:5", "hint:x:5", "mcts:4:4", "hint-fast:4:4",
                                  "hint:4:4:4", "greedy:4:4", "hint@0ms", "hint@50", "hint@50s", "hint@-5ms",
                                  "hint:4:4@5ms", "greedy@5ms", "level1@5ms", "hint-fast@5ms", "hint@4000000ms",
                                  "hint@ms", "hint@1e3ms"])
def test_other_names_are_not_budgets(name):
    assert SearchBudget.from_bot_name(name) is None


def test_the_suffixes_are_the_three_fields():
    assert set(BOT_SUFFIXES) == {"win", "points", "model", "uniform", "maxn", "paranoid"}


@pytest.mark.parametrize("fields, text", [
    (dict(samples=4, time_ms=10), "give either samples or time_ms, not both"),
    (dict(samples=0), "samples must be"),
    (dict(world_nodes=0), "world_nodes must be"),
    (dict(chance_width=29), "chance_width must be"),
    (dict(method="mcts"), "method must be one of"),
    (dict(objective="money"), "objective"),
    (dict(beliefs="psychic"), "beliefs must be one of"),
    (dict(search="alpha"), "search"),
    (dict(time_ms=0.5), "time_ms must be a number"),
])
def test_a_bad_budget_is_refused_when_made(fields, text):
    with pytest.raises(OptionError, match=text):
        SearchBudget(**fields)


def test_the_hint_reads_a_budget_as_its_keywords():
    obs = _position()
    fields = dict(samples=6, world_nodes=300, objective="points", beliefs="uniform")
    hinter = Hinter(threads=1)
    a = hinter.hint(obs, seed=5, both=False, **fields)
    b = hinter.hint(obs, seed=5, both=False, budget=SearchBudget(**fields))
    assert [(str(m.move), m.value) for m in a.moves] == [(str(m.move), m.value) for m in b.moves]
    assert a.budget == b.budget and a.objective == b.objective == "points"
    pa = hinter.position_value(obs, seed=2, **fields)
    pb = hinter.position_value(obs, seed=2, budget=SearchBudget(**fields))
    assert (pa.value, pa.stderr, pa.samples, pa.nodes) == (pb.value, pb.stderr, pb.samples, pb.nodes)


def test_a_budget_and_its_fields_are_not_both_given():
    obs = _position()
    with pytest.raises(OptionError, match="give the budget or its fields"):
        Hinter(threads=1).hint(obs, samples=4, budget=SearchBudget(samples=6))
    with pytest.raises(OptionError, match="budget must be a SearchBudget"):
        Hinter(threads=1).hint(obs, budget={"samples": 6})


def test_a_level_budget_is_its_rated_search():
    lv = LEVELS["level6"]     # levels.py: 8 worlds, 2,000 nodes, rated with the win objective and uniform beliefs
    assert lv.budget == SearchBudget(samples=8, world_nodes=2_000, objective="win", beliefs="uniform")
    assert LEVELS["level1"].budget is None


def test_the_analysis_budget_gives_the_hint_its_budget():
    a = AnalysisBudget(samples=24, luck_samples=8, world_nodes=5_000, beliefs="uniform", search="maxn")
    assert a.search_budget() == SearchBudget(samples=24, world_nodes=5_000, objective="win", beliefs="uniform",
                                             search="maxn")
    assert a.luck_budget().samples == 8 and a.luck_budget().world_nodes == 5_000


def test_the_hint_command_flags_default_to_the_budget():
    args = build_parser().parse_args(["hint", "game.json", "--seat", "0"])
    default = SearchBudget()
    assert (args.samples, args.time_ms, args.world_nodes, args.objective, args.beliefs, args.three) == \
        (default.samples, default.time_ms, default.world_nodes, default.objective, default.beliefs, default.search)
    assert args.world_nodes is None and args.depth is None and args.threads == DEFAULT_THREADS
    args = build_parser().parse_args(["analyze", "game.json"])
    assert args.threads == DEFAULT_THREADS and args.beliefs is None and args.three is None


def test_the_hint_bot_takes_a_budget():
    from fiveup_solver.policies import hint_bot
    with pytest.raises(OptionError, match="budget must be a SearchBudget"):
        hint_bot({"samples": 4})
    with pytest.raises(OptionError, match="a temperature is for the uniform-beliefs hint bot"):
        hint_bot(SearchBudget(beliefs="model"), temperature=1.0)


def test_world_nodes_default_to_the_method_s_own():
    """world_nodes None: DEFAULT_WORLD_NODES a world for pimc, ALPHAMU_LEAF_NODES a leaf for
    alphamu; depth is alphamu's alone."""
    from fiveup_solver import Game
    from fiveup_solver.hint import ALPHAMU_LEAF_NODES, hint
    g = Game(players=2, seed=7)
    obs = g.observation(g.to_move)
    assert hint(obs, budget=SearchBudget(samples=2), both=False).budget["world_nodes"] == DEFAULT_WORLD_NODES
    h = hint(obs, budget=SearchBudget(method="alphamu", samples=2, depth=0), both=False)
    assert h.budget["world_nodes"] == ALPHAMU_LEAF_NODES
    assert SearchBudget.from_bot_name("hint-alphamu:8:300") == SearchBudget(method="alphamu", samples=8,
                                                                             world_nodes=300)
    with pytest.raises(OptionError, match="depth is an option of method 'alphamu'"):
        SearchBudget(method="pimc", depth=1)
    with pytest.raises(OptionError, match="depth"):
        SearchBudget(method="alphamu", depth=-1)


@pytest.mark.parametrize("name", ["hint@5ms", "hint-uniform@5ms", "hint-alphamu@5ms"])
def test_a_timed_bot_searches_by_time_not_by_samples(monkeypatch, name):
    import random

    from fiveup_solver import bots, hint as hints
    seen = []
    real = hints.hint

    def spy(obs, **options):
        budget = options.get("budget")
        seen.append((options.get("time_ms"), options.get("samples"), options.get("method"))
                    if budget is None else (budget.time_ms, budget.samples, budget.method))
        return real(obs, **options)
    monkeypatch.setattr(hints, "hint", spy)
    obs = _position()
    move = bots.bot_function(name)(obs, random.Random(1))
    assert move in obs.legal_moves
    method = "alphamu" if "alphamu" in name else None
    assert seen == [(5.0, None, method)] or seen == [(5.0, None, method or "pimc")]


@pytest.mark.parametrize("name, text", [
    ("hint:0:0", "SAMPLES and NODES must each be at least 1"),
    ("hint:0:5", "SAMPLES and NODES must each be at least 1"),
    ("hint-win:5:0", "SAMPLES and NODES must each be at least 1"),
    ("hint@0ms", "the time per decision must be 1 to 3600000 ms"),
    ("expectimax@4000000ms", "the time per decision must be 1 to 3600000 ms"),
    ("hint:x:5", "unknown bot"), ("mcts:0:0", "unknown bot"), ("hint@-5ms", "unknown bot"),
])
def test_a_budget_name_with_a_number_out_of_range_says_which(name, text):
    """A well-formed budget name whose number is out of range names the number, not 'unknown bot'."""
    from fiveup_solver.bots import bot_function
    with pytest.raises(OptionError) as info:
        bot_function(name)
    assert text in str(info.value) and "\n" not in str(info.value)
