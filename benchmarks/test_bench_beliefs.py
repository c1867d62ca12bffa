"""What weighting the worlds by the opponent model costs: hint latency with uniform
and model beliefs, measured in the same run on the same positions.

    pytest benchmarks/test_bench_beliefs.py --benchmark-enable
    python benchmarks/test_bench_beliefs.py [--threads 1] [--json]     # the whole 200-position suite

Each position is hinted with uniform beliefs and with model beliefs, which one
first alternating by position (default budget, one objective: a bot's decision),
by one reusable Hinter, after an untimed warm-up (the tables of every player count,
one hint of each kind per player count).
The model's own work (its tables, the weighted draws, the resample) is also
timed alone, without the search. Earlier rounds are not given (``past``): the
suite's positions are single observations.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time

from conftest import DATA
from fiveup_solver.beliefs import Beliefs
from fiveup_solver.bench import load_hint_suite, warm_hints
from fiveup_solver.hint import DEFAULT_SAMPLES, Hinter
from fiveup_solver.inference import DealSampler

SUITE = load_hint_suite(DATA / "hint_positions.json")
SAMPLE = [o for o, _ in SUITE][::20]


def _p95(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]


def measure(observations, threads: int = 2, seed: int = 1) -> dict:
    """Per position: uniform hint, model hint, and the model's weighting alone (ms)."""
    hinter = Hinter(threads=threads)
    # untimed: the tables (3 players: about 0.5 s, which uniform, hinted first, paid in a
    # review's run: ratio of means 0.356) and one hint of each kind per player count
    warm_hints(hinter, observations, [{"seed": seed, "both": False, "beliefs": b} for b in ("uniform", "model")])
    uniform, model, weighting, ess, candidates, distinct = [], [], [], [], [], []
    for k, obs in enumerate(observations):
        # which beliefs go first alternates: drift and caches hit both alike
        if k % 2:
            hm = hinter.hint(obs, seed=seed, both=False, beliefs="model")
            hu = hinter.hint(obs, seed=seed, both=False, beliefs="uniform")
        else:
            hu = hinter.hint(obs, seed=seed, both=False, beliefs="uniform")
            hm = hinter.hint(obs, seed=seed, both=False, beliefs="model")
        uniform.append(1000 * hu.seconds)
        model.append(1000 * hm.seconds)
        if hm.belief is None:        # a single legal move: nothing searched, nothing weighed
            continue
        t = time.perf_counter()
        ds = DealSampler(obs)
        ww = Beliefs(ds).weigh(DEFAULT_SAMPLES, seed)
        ww.resample(DEFAULT_SAMPLES, seed)
        weighting.append(1000 * (time.perf_counter() - t))
        ess.append(ww.ess / DEFAULT_SAMPLES)
        candidates.append(ww.candidates)
        distinct.append(hm.belief["distinct_worlds"])

    def stats(xs):
        return {"median_ms": round(statistics.median(xs), 2), "p95_ms": round(_p95(xs), 2),
                "max_ms": round(max(xs), 2), "mean_ms": round(statistics.fmean(xs), 2)}
    return {"positions": len(observations), "threads": threads, "uniform": stats(uniform), "model": stats(model),
            "ratio_of_means": round(statistics.fmean(model) / statistics.fmean(uniform), 3),
            "ratio_of_medians": round(statistics.median(model) / statistics.median(uniform), 3),
            "weighting_alone": stats(weighting),
            "ess_over_worlds_median": round(statistics.median(ess), 3),
            "candidates_mean": round(statistics.fmean(candidates), 1),
            "candidates_max": max(candidates),
            "distinct_worlds_mean": round(statistics.fmean(distinct), 1)}


def test_hint_latency_uniform_vs_model(benchmark):
    report = benchmark.pedantic(measure, args=(SAMPLE,), rounds=1, iterations=1)
    benchmark.extra_info.update(report)
    assert report["positions"] == len(SAMPLE)
    assert report["model"]["median_ms"] > 0 and report["uniform"]["median_ms"] > 0
    assert 1 <= report["candidates_mean"] and report["distinct_worlds_mean"] <= DEFAULT_SAMPLES


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    report = measure([o for o, _ in SUITE], threads=args.threads)
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{report['positions']} positions, {report['threads']} threads, default budget, one objective")
    for name in ("uniform", "model", "weighting_alone"):
        s = report[name]
        print(f"  {name:<16} median {s['median_ms']:7.2f} ms  p95 {s['p95_ms']:7.2f} ms  max {s['max_ms']:7.2f} ms  "
              f"mean {s['mean_ms']:7.2f} ms")
    print(f"  model / uniform: {report['ratio_of_means']} (means), {report['ratio_of_medians']} (medians); "
          f"ESS / worlds median {report['ess_over_worlds_median']}, candidates mean {report['candidates_mean']} "
          f"(max {report['candidates_max']}), distinct worlds searched mean {report['distinct_worlds_mean']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
