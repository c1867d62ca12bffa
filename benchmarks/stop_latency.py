"""How soon Hinter.stop ends a hint with a large sample budget, and how long its planning takes.

    python benchmarks/stop_latency.py [--samples 100000,1000000] [--after 0.2] [--json FILE]

A 4-player position (seed 2, six moves in): for each budget and beliefs, a hint runs
on one thread and another calls ``Hinter.stop()`` ``--after`` seconds after it started;
the report gives the time from the stop to the hint's SearchStopped. Then, with no stop,
the planning alone of the largest budget (the worlds drawn and weighed, the search plan
listed, the draws grouped) as the hint runs it.
"""
from __future__ import annotations

import argparse
import json
import sys
import threading
import time

from fiveup_solver import Game, SearchStopped
from fiveup_solver import hint as hint_module
from fiveup_solver.beliefs import Beliefs, search_plan
from fiveup_solver.inference import DealSampler


def position():
    g = Game(players=4, seed=2)
    for _ in range(6):
        g.push(g.legal_moves[0])
    return g.observation(g.to_move)


def stop_latency(obs, samples: int, beliefs: str, after: float) -> float:
    h = hint_module.Hinter(threads=1)
    out = {}

    def run():
        try:
            h.hint(obs, samples=samples, beliefs=beliefs, seed=1)
        except SearchStopped:
            out["stopped"] = time.perf_counter()
    t = threading.Thread(target=run)
    t.start()
    time.sleep(after)
    t0 = time.perf_counter()
    if not h.stop():
        raise SystemExit("the hint ended before the stop")
    t.join()
    return out["stopped"] - t0


def planning(obs, samples: int) -> dict:
    ds = DealSampler(obs)
    t0 = time.perf_counter()
    ww = Beliefs(ds).weigh(samples, 1)
    t1 = time.perf_counter()
    worlds, weights = search_plan(ww, samples, 1)
    t2 = time.perf_counter()
    hint_module._group_draws(worlds, [int(round(w)) for w in weights] if ww.candidates != samples else None)
    t3 = time.perf_counter()
    return {"weigh_s": t1 - t0, "search_plan_s": t2 - t1, "group_s": t3 - t2, "candidates": ww.candidates}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", default="100000,1000000")
    ap.add_argument("--after", type=float, default=0.2)
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    obs = position()
    rows = []
    for samples in [int(x) for x in args.samples.split(",")]:
        for beliefs in ("model", "uniform"):
            s = stop_latency(obs, samples, beliefs, args.after)
            rows.append({"samples": samples, "beliefs": beliefs, "stop_to_stopped_s": s})
            print(f"samples {samples:>9,} {beliefs:7s}: stopped {s:.3f} s after the stop", flush=True)
    plan = planning(obs, max(r["samples"] for r in rows))
    print(f"planning {max(r['samples'] for r in rows):,} worlds (model): weigh {plan['weigh_s']:.2f} s, "
          f"search plan {plan['search_plan_s']:.2f} s, grouping {plan['group_s']:.2f} s "
          f"({plan['candidates']:,} candidates)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"after_s": args.after, "stops": rows, "planning": plan}, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
