"""Hints, and the exact deal sampler against pure-Python rejection sampling in the same run.

    pytest benchmarks/test_bench_hint.py --benchmark-enable

The full suite (200 positions) runs with ``fiveup bench --hint``.
"""
import pytest

from conftest import DATA
from fiveup_solver.bench import load_hint_suite, rejection_deals_per_s, sampler_deals_per_s, warm_tables
from fiveup_solver.hint import Hinter
from fiveup_solver.inference import DealSampler

SUITE = load_hint_suite(DATA / "hint_positions.json")
EARLY = [o for o, phase in SUITE if phase == "early"][:6]
SAMPLE = [o for o, _ in SUITE][::20]
EXACT_DEALS = 2000           # a position, each call
REJECTION_DEALS = 50         # accepted a position: count-based, the same work on every run


def test_sampler_exact_c(benchmark):
    samplers = [DealSampler(o) for o in EARLY]
    benchmark(lambda: [s.counter.bench(EXACT_DEALS, 1) for s in samplers])


def test_sampler_rejection_python(benchmark):
    """Rejection sampling until REJECTION_DEALS deals are accepted at each of the EARLY
    positions: a fixed workload, so the benchmark's time measures its speed (a review: it
    was time-boxed, 0.05 s a position, and took the same time whatever the speed). The
    table's time against test_sampler_exact_c's is not the speed ratio (other deal
    counts): ``extra_info`` holds both samplers' deals/s on these positions, the exact
    sampler's timed right after, and their ratio (each weighs every position alike)."""
    result = benchmark.pedantic(rejection_deals_per_s, args=(EARLY,), kwargs={"deals": REJECTION_DEALS},
                                rounds=1, iterations=1)
    assert result["deals_per_s"] > 0 and result["capped"] == 0
    assert result["accepted"] == REJECTION_DEALS * len(EARLY)
    exact = sampler_deals_per_s(EARLY, deals=EXACT_DEALS)
    benchmark.extra_info.update({
        "positions": len(EARLY), "rejection_deals_per_position": REJECTION_DEALS,
        "rejection_deals_per_s": result["deals_per_s"], "rejection_acceptance": result["acceptance"],
        "exact_deals_per_position": EXACT_DEALS, "exact_deals_per_s": exact["deals_per_s"],
        "ratio_exact_over_rejection": round(exact["deals_per_s"] / result["deals_per_s"], 1)})


def warm_up(hinter, method):
    """Untimed, before a timed pass over SAMPLE: every lazy table its player counts read,
    and one hint of each player count (a review: the first 3-player position of the pass
    paid the 3-player table's load, and pimc, timed first, read 806 ms to expectimax's 434)."""
    warm_tables(o.players for o in SAMPLE)
    first = {}
    for o in SAMPLE:
        first.setdefault(o.players, o)
    for o in first.values():
        hinter.hint(o, method=method, seed=1)


@pytest.mark.parametrize("method", ["pimc", "expectimax"])
def test_hint_default_budget(benchmark, method):
    hinter = Hinter()
    # untimed: the tables (3 players: about 0.5 s) and one hint of each player count
    warm_up(hinter, method)
    hints = benchmark.pedantic(lambda: [hinter.hint(o, method=method, seed=1) for o in SAMPLE],
                               rounds=1, iterations=1)
    assert all(h.best in o.legal_moves for h, o in zip(hints, SAMPLE))
