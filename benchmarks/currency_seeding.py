"""The second currency of a solve: the win search's nodes with and without the points seed.

    python benchmarks/currency_seeding.py [--positions 40] [--cap 3000000] [--out FILE]

For the first ``--positions`` positions of each solver suite whose separate win and
points solves each finish within ``--cap`` nodes, one ``SolverCore`` per position
and mode (a fresh table): the points solve (``solve_moves`` under the points
objective), then the win solve either plain (MTD(f) from 0, as before) or seeded
(``points_values``: each move's MTD(f) from ``win_guess`` of its points value, and
where the win search has no table move of its own, the points solve's best move
first; what ``Solver.solve`` does for both currencies). Reported per suite and player count:
the points nodes, the win nodes of each mode and their ratio; the win values of the
two modes must be identical (checked).
"""
from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path

from fiveup_solver import _solver
from fiveup_solver.bench import load_suite
from fiveup_solver.solver import Solver, set_core_objective

SUITES = ("openings_2p", "openings_4p", "midround", "near_target")


def measure(game) -> dict:
    out = {}
    for mode in ("plain", "seeded"):
        core = _solver.SolverCore(16.0)
        set_core_objective(core, "points", game.players)
        _, points, points_nodes, _ = core.solve_moves(game.current.core)
        set_core_objective(core, "win", game.players)
        value, win, win_nodes, aborted = core.solve_moves(game.current.core, 0,
                                                          dict(points) if mode == "seeded" else None)
        assert not aborted
        out[mode] = {"points_nodes": points_nodes, "win_nodes": win_nodes, "win": win}
    if out["plain"]["win"] != out["seeded"]["win"]:
        raise SystemExit("the seeded win search changed a value")
    return {"players": game.players, "points_nodes": out["plain"]["points_nodes"],
            "win_plain": out["plain"]["win_nodes"], "win_seeded": out["seeded"]["win_nodes"]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--cap", type=int, default=3_000_000)
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    data = Path(__file__).resolve().parent / "data"
    rows = []
    for suite in SUITES:
        win = Solver(objective="win", both=False, pv=False, node_limit=args.cap)
        points = Solver(objective="points", both=False, pv=False, node_limit=args.cap)
        k = 0
        for i, g in enumerate(load_suite(data / f"{suite}.json")):
            if k >= args.positions:
                break
            if win.solve(g).exact and points.solve(g).exact:
                k += 1
                rows.append({"suite": suite, "index": i, **measure(g)})
    total = collections.defaultdict(lambda: [0, 0, 0, 0])
    for r in rows:
        t = total[(r["suite"], r["players"])]
        t[0] += 1
        t[1] += r["points_nodes"]
        t[2] += r["win_plain"]
        t[3] += r["win_seeded"]
    summary = [{"suite": s, "players": p, "positions": n, "points_nodes": a, "win_nodes_plain": b,
                "win_nodes_seeded": c, "win_ratio": round(c / b, 3),
                "both_ratio": round((a + c) / (a + b), 3)} for (s, p), (n, a, b, c) in sorted(total.items())]
    print("| suite | players | positions | points nodes | win nodes plain | win nodes seeded | win ratio | both ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for x in summary:
        print(f"| {x['suite']} | {x['players']} | {x['positions']} | {x['points_nodes']:,} | {x['win_nodes_plain']:,} "
              f"| {x['win_nodes_seeded']:,} | {x['win_ratio']} | {x['both_ratio']} |")
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"positions": args.positions, "cap": args.cap, "summary": summary, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
