"""Decision time of every bot level on the hint suite's positions (10 of the 200).

    pytest benchmarks/test_bench_levels.py --benchmark-enable

Decision latency percentiles, games per second per core and the match
throughput with 1 and 2 workers: ``python benchmarks/levels_speed.py``.
"""
import random

import pytest

from conftest import DATA
from fiveup_solver.bench import load_hint_suite
from fiveup_solver.bots import choose
from fiveup_solver.levels import LEVELS

SAMPLE = [o for o, _ in load_hint_suite(DATA / "hint_positions.json")][::20]


@pytest.mark.parametrize("level", list(LEVELS))
def test_level_decisions(benchmark, level):
    moves = benchmark.pedantic(lambda: [choose(level, o, random.Random(7)) for o in SAMPLE],
                               rounds=1, iterations=1)
    assert all(m in o.legal_moves for m, o in zip(moves, SAMPLE))
