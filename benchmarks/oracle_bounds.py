"""How many nodes could exact bounds save? A free oracle, measured (issue 24).

    git apply benchmarks/oracle_bounds.patch && python setup.py build_ext --inplace
    python benchmarks/oracle_bounds.py [--suite openings_4p] [--out FILE]
    git apply -R benchmarks/oracle_bounds.patch && python setup.py build_ext --inplace

Issue 24's last solver target (the 4-player openings' p95 at 0.32 of the
issue's code; today's code reads about 0.41) was left to "exact bounds that
cut whole endgames". Whatever such a bound is, it is an upper bound ``ub >= v``
and a lower bound ``lb <= v`` of a node's exact value ``v``, and it cuts
where ``ub <= alpha`` or ``lb >= beta``. This script measures the best any
bound of a given slack could do: the patched build (``oracle_bounds.patch``,
never part of the package) gives chosen nodes an oracle that knows ``v`` (a
full-window search of the node, whose nodes are counted apart and not in the
search's count) and answers ``ub = v + slack``, ``lb = v - slack``.

* ``at_search 0``: the oracle at every node of the lean endgame search (the
  boneyard empty, 14 hand tiles or fewer with 4 players), where such bounds
  would be computed.
* ``at_search 1``: also at every ``search`` node that does not ask the
  table (14 hand tiles or fewer, a boneyard not yet empty).

Slack 0 is a perfect bound at no cost: no real bound saves more. The values
are checked identical to the unpatched search's (the bounds are valid).
Node counts are exact (one thread, deterministic): one reused
``Solver(tt_mb=16)`` per setting, points objective, as the suite passes of
``tail_anatomy.py`` run.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from fiveup_solver import _solver
from fiveup_solver.bench import load_suite
from fiveup_solver.solver import Solver

DATA = Path(__file__).resolve().parent / "data"
SETTINGS = [(-1, 0)] + [(s, 0) for s in (0, 5, 10, 20, 40)] + [(s, 1) for s in (0, 10, 20)]


def rank(values: list, q: float):
    """The suite's own percentile: the value at rank ceil(q * n) (p95 of 100: the 95th)."""
    s = sorted(values)
    return s[max(0, -(-int(q * 100) * len(s) // 100) - 1)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--suite", default="openings_4p", help="a suite in benchmarks/data (default: openings_4p)")
    ap.add_argument("--out", help="write the rows as JSON here")
    args = ap.parse_args()
    if not hasattr(_solver, "oracle_set"):
        raise SystemExit("this needs the build patched with benchmarks/oracle_bounds.patch (see the docstring)")
    games = load_suite(DATA / f"{args.suite}.json")
    base_values = base_nodes = None
    rows = []
    print("| slack | where | nodes (ratio) | median (ratio) | p95 (ratio) | oracle's own nodes |")
    print("|---|---|---|---|---|---|")
    for slack, at_search in SETTINGS:
        _solver.oracle_set(slack, at_search)
        solver = Solver(tt_mb=16, objective="points", both=False)
        values, nodes = [], []
        for g in games:
            v, n = solver.value(g)
            values.append(v)
            nodes.append(n)
        if base_values is None:
            base_values, base_nodes = values, nodes
        if values != base_values:
            raise SystemExit(f"slack {slack}: a value changed (the oracle's bounds must be valid)")
        row = {"slack": slack, "at_search": at_search, "nodes": sum(nodes), "median": rank(nodes, 0.5),
               "p95": rank(nodes, 0.95), "ratio": sum(nodes) / sum(base_nodes),
               "median_ratio": rank(nodes, 0.5) / rank(base_nodes, 0.5),
               "p95_ratio": rank(nodes, 0.95) / rank(base_nodes, 0.95), **_solver.oracle_stats()}
        rows.append(row)
        where = "none" if slack < 0 else ("endgame + no-table search" if at_search else "endgame")
        print(f"| {max(slack, 0) if slack >= 0 else '-'} | {where} | {row['nodes']:,} ({row['ratio']:.3f}) | "
              f"{row['median']:,} ({row['median_ratio']:.3f}) | {row['p95']:,} ({row['p95_ratio']:.3f}) | "
              f"{row['oracle_nodes']:,} |", flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps({"suite": args.suite, "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
