"""The exact yardstick's belief-state search against greedy: in C, against the same search in
Python over the C walk, in the same run (their values and world positions walked are equal).

    pytest benchmarks/test_bench_exact.py --benchmark-enable

Reach and time on the yardstick's own positions: ``benchmarks/exact_yardstick.py --reach``
(docs/results/exact.md).
"""
import json
import os

import pytest

from fiveup_solver.exact import exact_result, sampled_result
from fiveup_solver.record import observation_at

CASE = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "expectimax_disagrees.json")
OBS = observation_at(json.load(open(CASE)), 1, 9, 28)    # 4 hidden worlds, 6 in the boneyard


@pytest.mark.parametrize("engine", ["c", "python"])
def test_exact_greedy_search(benchmark, engine):
    result = benchmark.pedantic(lambda: exact_result(OBS, objective="win", engine=engine), rounds=3, iterations=1)
    assert result.nodes > 100_000


def test_sampled_estimate_40_worlds(benchmark):
    result = benchmark.pedantic(lambda: sampled_result(OBS, objective="win", sample_worlds=40, seed=1),
                                rounds=3, iterations=1)
    assert set(result.values) == set(exact_result(OBS, objective="points").values)


def test_sampled_estimate_40_worlds_with_their_draws(benchmark):
    # the same 40 worlds, each fixing its boneyard's order: no chance tree (compare with the above)
    result = benchmark.pedantic(lambda: sampled_result(OBS, objective="win", sample_worlds=40, seed=1,
                                                       sample_draws=True), rounds=3, iterations=1)
    assert result.sample_draws and set(result.values) == set(exact_result(OBS, objective="points").values)
