"""A newcomer's pass through the docs (2026-12-07): the analysis' text report says what its
columns are, and counts in words."""
from fiveup_solver import Game
from fiveup_solver.analysis import AnalysisBudget, analyze, format_text

FAST = AnalysisBudget(samples=8, luck_samples=4, world_nodes=2_000, dd_nodes=50_000)


def _one_decision_record():
    g = Game(players=2, seed=3)
    assert len(g.legal_moves) > 1          # the opening is a choice: judged
    g.push(g.legal_moves[0])
    return g.to_record()


def test_one_judged_decision_is_one_decision():
    text = format_text(analyze(_one_decision_record(), budget=FAST, seed=1))
    cost = next(line for line in text.splitlines() if line.startswith("cost:"))
    assert cost.startswith("cost: 1 judged decision,")


def test_the_text_report_says_what_mean_is():
    text = format_text(analyze(_one_decision_record(), budget=FAST, seed=1))
    header = next(line for line in text.splitlines() if line.lstrip().startswith("seat side judged"))
    assert "mean" in header
    assert "mean: the loss a judged decision" in text
