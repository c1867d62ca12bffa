"""Hints and the exact deal sampler, against pure-Python baselines in the same run.

    pytest benchmarks/test_bench_hint.py --benchmark-enable

The full suite (200 positions) runs with ``fiveup bench --hint``.
"""
import pytest

from conftest import DATA
from fiveup_solver.bench import load_hint_suite, rejection_deals_per_s
from fiveup_solver.hint import Hinter
from fiveup_solver.inference import DealSampler

SUITE = load_hint_suite(DATA / "hint_positions.json")
EARLY = [o for o, phase in SUITE if phase == "early"][:6]
SAMPLE = [o for o, _ in SUITE][::20]


def test_sampler_exact_c(benchmark):
    samplers = [DealSampler(o) for o in EARLY]
    benchmark(lambda: [s.counter.bench(2000, 1) for s in samplers])


def test_sampler_rejection_python(benchmark):
    result = benchmark.pedantic(rejection_deals_per_s, args=(EARLY, 0.05), rounds=1, iterations=1)
    assert result["deals_per_s"] > 0


@pytest.mark.parametrize("method", ["pimc", "expectimax"])
def test_hint_default_budget(benchmark, method):
    hinter = Hinter()
    hints = benchmark.pedantic(lambda: [hinter.hint(o, method=method, seed=1) for o in SAMPLE],
                               rounds=1, iterations=1)
    assert all(h.best in o.legal_moves for h, o in zip(hints, SAMPLE))
