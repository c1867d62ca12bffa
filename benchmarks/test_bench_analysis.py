"""Post-game analysis speed (one round of a seeded game, every seat, default budget).

The whole-game figures and the judgement stability are from
``benchmarks/analysis_speed.py`` (docs/results/analysis.md)."""
import analysis_speed
import pytest

from fiveup_solver.analysis import AnalysisBudget, analyze
from fiveup_solver.selfplay import play_game


@pytest.mark.parametrize("players", [2, 4])
def test_analyse_one_round(benchmark, players):
    record = play_game(players, 7, ["hint", "greedy"] * (players // 2), max_rounds=1).to_record()
    a = benchmark.pedantic(analyze, args=(record,), kwargs={"budget": AnalysisBudget(samples=48, luck_samples=16),
                                                           "seed": 1}, rounds=1, iterations=1)
    assert len(a.decisions) == len(record["rounds"][0]["actions"])
    benchmark.extra_info["judged"] = sum(1 for d in a.decisions if not d.forced)


def test_stability_measure_runs():
    r = analysis_speed.measure(2, 3, AnalysisBudget(samples=16, luck_samples=4, world_nodes=2_000, dd_nodes=100_000))
    assert r["judged"] > 0 and 0 <= r["mark_change_rate"] <= 1
