"""How soon Hinter.stop ends a hint with a large sample budget, and how long its planning takes.

    python benchmarks/stop_latency.py [--samples 100000,1000000] [--after 0.2,0.6,1.5] [--json FILE]

A 4-player position (seed 2, six moves in): for each budget, beliefs and delay, a hint
runs on one thread and another calls ``Hinter.stop()`` that many seconds after it started
(several delays reach several stages: drawing, weighing, planning, grouping, searching);
the report gives the time from the stop to the hint's SearchStopped, and each budget's
worst. Then, with no stop,
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
        t.join()
        return None                 # the hint ended before the stop: nothing to measure
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
    ap.add_argument("--after", default="0.2", help="seconds from the hint's start to the stop, comma-separated")
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    obs = position()
    rows = []
    for samples in [int(x) for x in args.samples.split(",")]:
        for beliefs in ("model", "uniform"):
            worst = None
            for after in [float(x) for x in args.after.split(",")]:
                s = stop_latency(obs, samples, beliefs, after)
                rows.append({"samples": samples, "beliefs": beliefs, "after_s": after, "stop_to_stopped_s": s})
                if s is None:
                    print(f"samples {samples:>9,} {beliefs:7s} stop at {after:.2f} s: the hint had ended", flush=True)
                    continue
                worst = s if worst is None else max(worst, s)
                print(f"samples {samples:>9,} {beliefs:7s} stop at {after:.2f} s: stopped {s:.3f} s after it",
                      flush=True)
            if worst is not None:
                print(f"samples {samples:>9,} {beliefs:7s}: worst {worst:.3f} s", flush=True)
    plan = planning(obs, max(r["samples"] for r in rows))
    print(f"planning {max(r['samples'] for r in rows):,} worlds (model): weigh {plan['weigh_s']:.2f} s, "
          f"search plan {plan['search_plan_s']:.2f} s, grouping {plan['group_s']:.2f} s "
          f"({plan['candidates']:,} candidates)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"stops": rows, "planning": plan}, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
