"""Random-playout throughput: the Cython core against the pure-Python reference, in one run.

    pytest benchmarks/test_bench_playouts.py --benchmark-enable

Each benchmark plays whole random rounds; ``extra_info`` carries rounds/s.
The ratio core/reference is printed by ``fiveup bench`` (same measurement).
"""
import random

import pytest

from fiveup_solver import _core
from fiveup_solver.bench import load_reference

CORE_ROUNDS = 20_000
REFERENCE_ROUNDS = 20


@pytest.mark.parametrize("players", [2, 3, 4])
def test_core_playouts(benchmark, players):
    placements, _ = benchmark(_core.random_playouts, players, CORE_ROUNDS, 7)
    # every round places at least the opening tile of each dealt hand's seat to start
    assert placements >= CORE_ROUNDS
    benchmark.extra_info["rounds_per_call"] = CORE_ROUNDS


@pytest.mark.parametrize("players", [2, 3, 4])
def test_reference_playouts(benchmark, players):
    reference = load_reference()
    rng = random.Random(7)

    def run():
        return [reference.random_round(rng, players) for _ in range(REFERENCE_ROUNDS)]

    scores = benchmark(run)
    assert len(scores) == REFERENCE_ROUNDS
    benchmark.extra_info["rounds_per_call"] = REFERENCE_ROUNDS
