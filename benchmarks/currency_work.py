"""The nodes of a both-currency hint's two searches, by world status (issue 24).

    python benchmarks/currency_work.py [--methods pimc,expectimax]

The 200 hint-suite positions, default budget, seed 1, one thread: per method and
objective (the first, win, then the second, points), the worlds and nodes of the
worlds whose search the budget cut (status 1) and of those solved exactly
(status 2), and how many worlds' values came from each depth.
"""
from __future__ import annotations

import argparse
import collections
from pathlib import Path

from fiveup_solver.bench import load_hint_suite
from fiveup_solver.hint import DEFAULT_WORLD_NODES, Hinter

SUITE = Path(__file__).resolve().parent / "data" / "hint_positions.json"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--methods", default="pimc,expectimax")
    a = ap.parse_args(argv)
    suite = load_hint_suite(SUITE)
    print(f"{len(suite)} positions, {DEFAULT_WORLD_NODES:,} nodes a world")
    hinter = Hinter(threads=1)
    search_many = hinter._search_many
    stats = collections.defaultdict(collections.Counter)

    def counted(*args, **kw):
        results = search_many(*args, **kw)
        for objective, rows in zip(args[5], results):
            s = stats[objective]
            for _, status, depth, nodes, _ in rows:
                s["worlds"] += 1
                s["nodes"] += nodes
                s[f"status {status} worlds"] += 1
                s[f"status {status} nodes"] += nodes
                s[f"depth {depth}"] += 1
        return results
    hinter._search_many = counted
    for method in a.methods.split(","):
        stats.clear()
        for obs, _ in suite:
            hinter.hint(obs, method=method, seed=1, objective="win", both=True)
        print(method)
        for objective, s in stats.items():
            print(f"  {objective}: " + ", ".join(f"{k} {v:,}" for k, v in sorted(s.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
