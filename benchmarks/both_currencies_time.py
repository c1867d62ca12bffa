"""A hint with both currencies against one, timed per position (issue 24).

    python benchmarks/both_currencies_time.py [--method pimc] [--reps 3] [--positions N]
    PYTHONPATH=/path/to/other/tree python benchmarks/both_currencies_time.py   # another build

On the hint suite (benchmarks/data/hint_positions.json; alphamu: its 2-player
positions), one reusable Hinter (2 threads, default budget, seed 1): for each
position, a single-currency hint and a both-currency hint alternately, ``--reps``
times each, keeping each one's fastest (the machine's noise only adds time).
Prints the ratio of the medians, of the means, and the median of each
position's own ratio. Run it on two trees one after the other to compare builds.
"""
from __future__ import annotations

import argparse
import statistics
from pathlib import Path

import fiveup_solver
from fiveup_solver.bench import load_hint_suite
from fiveup_solver.hint import Hinter

SUITE = Path(__file__).resolve().parent / "data" / "hint_positions.json"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--method", default="pimc", choices=("pimc", "expectimax", "alphamu"))
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--positions", type=int, default=0, help="the first N positions (0: all)")
    a = ap.parse_args(argv)
    if a.reps < 1 or a.positions < 0:
        ap.error("--reps must be at least 1 and --positions at least 0")
    obs = [o for o, _ in load_hint_suite(SUITE) if a.method != "alphamu" or o.players == 2]
    if a.positions:
        obs = obs[:a.positions]
    hinter = Hinter(threads=2)
    hinter.hint(obs[0], method=a.method, seed=1)             # tables loaded outside the timing
    one, both = [], []
    for o in obs:
        s = b = float("inf")
        for _ in range(a.reps):
            s = min(s, hinter.hint(o, method=a.method, seed=1, both=False).seconds)
            b = min(b, hinter.hint(o, method=a.method, seed=1, both=True).seconds)
        one.append(s)
        both.append(b)
    print(f"{fiveup_solver.__file__}: {a.method}, {len(obs)} positions, fastest of {a.reps}")
    print(f"  one currency median {1000 * statistics.median(one):.2f} ms, both {1000 * statistics.median(both):.2f} ms")
    print(f"  both / one: ratio of medians {statistics.median(both) / statistics.median(one):.3f}, "
          f"of means {statistics.fmean(both) / statistics.fmean(one):.3f}, "
          f"median of each position's ratio {statistics.median(b / x for x, b in zip(one, both) if x > 0):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
