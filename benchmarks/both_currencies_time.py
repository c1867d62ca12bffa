"""A hint (or a solve) with both currencies against one, timed per position (issue 24).

    python benchmarks/both_currencies_time.py [--method pimc] [--reps 3] [--positions N]
    python benchmarks/both_currencies_time.py --solve openings_4p --positions 20 --reps 5
    PYTHONPATH=/path/to/other/tree python benchmarks/both_currencies_time.py   # another build

On the hint suite (benchmarks/data/hint_positions.json; alphamu: its 2-player
positions), one reusable Hinter (2 threads, default budget, seed 1): for each
position, a single-currency hint and a both-currency hint alternately, ``--reps``
times each, keeping each one's fastest (the machine's noise only adds time).
Prints the ratio of the medians, of the means, and the median of each
position's own ratio. Run it on two trees one after the other to compare builds.

``--solve SUITE``: instead, ``fiveup solve``'s search on a solver suite
(benchmarks/data/SUITE.json): for each position a fresh Solver (as the command
makes), ``Solver(both=False).solve`` and the default ``Solver().solve`` (both
currencies), alternately, fastest of ``--reps``; also prints what the second
currency adds (both - one), median and maximum. (2-player opening 22 is a
ten-minute every-move solve: ``--positions 20`` stops before it.)
"""
from __future__ import annotations

import argparse
import statistics
from pathlib import Path

import fiveup_solver
from fiveup_solver.bench import load_hint_suite, load_suite
from fiveup_solver.hint import Hinter
from fiveup_solver.solver import Solver

SUITE = Path(__file__).resolve().parent / "data" / "hint_positions.json"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--method", default="pimc", choices=("pimc", "expectimax", "alphamu"))
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--positions", type=int, default=0, help="the first N positions (0: all)")
    ap.add_argument("--solve", metavar="SUITE", help="time solves of benchmarks/data/SUITE.json instead")
    a = ap.parse_args(argv)
    if a.reps < 1 or a.positions < 0:
        ap.error("--reps must be at least 1 and --positions at least 0")
    if a.solve:
        path = SUITE.parent / f"{a.solve}.json"
        if not path.is_file():
            ap.error(f"--solve: no suite {path}")
        return time_solves(load_suite(path)[:a.positions or None], a.reps, a.solve)
    obs = [o for o, _ in load_hint_suite(SUITE) if a.method != "alphamu" or o.players == 2]
    if a.positions:
        obs = obs[:a.positions]
    hinter = Hinter(threads=2)
    hinter.hint(obs[0], method=a.method, seed=1)             # tables loaded outside the timing
    one, both, nodes_one, nodes_both = [], [], 0, 0
    for o in obs:
        s = b = float("inf")
        for _ in range(a.reps):
            h1 = hinter.hint(o, method=a.method, seed=1, both=False)
            h2 = hinter.hint(o, method=a.method, seed=1, both=True)
            s, b = min(s, h1.seconds), min(b, h2.seconds)
        one.append(s)
        both.append(b)
        nodes_one += h1.nodes
        nodes_both += h2.nodes
    print(f"{fiveup_solver.__file__}: {a.method}, {len(obs)} positions, fastest of {a.reps}")
    print(f"  search nodes (exact, deterministic): one currency {nodes_one:,}, both {nodes_both:,}, "
          f"both / one {nodes_both / max(nodes_one, 1):.3f}")
    print(f"  one currency median {1000 * statistics.median(one):.2f} ms, both {1000 * statistics.median(both):.2f} ms")
    print(f"  both / one: ratio of medians {statistics.median(both) / statistics.median(one):.3f}, "
          f"of means {statistics.fmean(both) / statistics.fmean(one):.3f}, "
          f"median of each position's ratio {statistics.median(b / x for x, b in zip(one, both) if x > 0):.3f}")
    return 0


def time_solves(games, reps: int, name: str) -> int:
    Solver(both=True).solve(games[0])                        # tables loaded outside the timing
    one, both = [], []
    for g in games:
        s = b = float("inf")
        for _ in range(reps):
            s = min(s, Solver(both=False).solve(g).seconds)
            b = min(b, Solver().solve(g).seconds)
        one.append(s)
        both.append(b)
    added = sorted(1000 * (b - s) for s, b in zip(one, both))
    print(f"{fiveup_solver.__file__}: solve, {name}, {len(games)} positions, fastest of {reps}, a fresh Solver each")
    print(f"  one currency median {1000 * statistics.median(one):.2f} ms, both {1000 * statistics.median(both):.2f} ms")
    print(f"  both - one: median {statistics.median(added):.2f} ms, max {added[-1]:.2f} ms, "
          f"sum {sum(added):.1f} ms (one: {1000 * sum(one):.1f} ms)")
    print(f"  both / one: ratio of medians {statistics.median(both) / statistics.median(one):.3f}, "
          f"of means {statistics.fmean(both) / statistics.fmean(one):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
