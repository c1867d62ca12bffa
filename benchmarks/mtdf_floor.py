"""What a perfect first guess would leave: MTD(f) told the exact value in advance.

    python benchmarks/mtdf_floor.py [--positions 100] [--solve-positions 40] [--reps 3] [--out FILE]

Two of issue 24's targets are search costs: the 4-player solver's median
(``openings_4p``, ``Solver.value``) and what ``fiveup solve`` adds for its
second currency (the win search after the points solve). Both searches are
MTD(f): zero-window tests converging on the value from a first guess. This
script measures the cheapest such a search can get by giving it the exact
value as its first guess (``SolverCore.value(..., guess=)``,
``SolverCore.solve_moves(..., guesses=)``): what is left is the cost of
proving the value, which no better guess can remove.

1. ``value``: every position of a suite (default ``openings_4p``) valued three
   ways, each in a fresh 16 MB ``SolverCore``: from today's first guess (a
   6-ply search), from the exact value, and from 0.
2. ``second currency``: the first ``--solve-positions`` positions of the suite
   whose solves finish within ``--cap`` nodes: the points solve of every root
   move (``solve_moves``), then the win solve as ``fiveup solve`` runs it
   (seeded by the points values), and again with every move's exact win value
   as its guess.

Nodes are exact; times are the fastest of ``--reps`` per position and mode
(alternating), as medians over positions. Values are checked identical.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from fiveup_solver import _solver
from fiveup_solver.bench import load_suite
from fiveup_solver.solver import Solver, set_core_objective

DATA = Path(__file__).resolve().parent / "data"


def fresh_core(objective: str, players: int):
    core = _solver.SolverCore(16.0)
    set_core_objective(core, objective, players)
    return core


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def value_floor(games, reps: int) -> dict:
    modes = ("first_guess", "exact", "zero")
    rows = []
    for g in games:
        pos = g.current.core
        (v, _, _), _ = timed(lambda: fresh_core("points", g.players).value(pos))
        guess = {"first_guess": None, "exact": v, "zero": 0}
        best = {m: None for m in modes}
        nodes = {}
        for _ in range(reps):
            for m in modes:
                core = fresh_core("points", g.players)
                (val, n, aborted), dt = timed(lambda: core.value(pos, 0, guess[m]))
                if aborted or val != v:
                    raise SystemExit(f"value changed with the guess {m}: {val} against {v}")
                nodes[m] = n
                best[m] = dt if best[m] is None else min(best[m], dt)
        rows.append({"value": v, "nodes": nodes, "ms": {m: round(best[m] * 1e3, 4) for m in modes}})
    return summarise(rows, modes)


def solve_floor(games, reps: int, count: int, cap: int) -> dict:
    modes = ("points", "win_seeded", "win_exact")
    rows = []
    win_check = Solver(objective="win", both=False, pv=False, node_limit=cap)
    points_check = Solver(objective="points", both=False, pv=False, node_limit=cap)
    for g in games:
        if len(rows) >= count:
            break
        if not (win_check.solve(g).exact and points_check.solve(g).exact):
            continue
        pos = g.current.core
        best = {m: None for m in modes}
        nodes = {}
        exact = None
        for _ in range(reps):
            for m in ("win_seeded", "win_exact"):
                core = fresh_core("points", g.players)
                (_, pts, pn, _), dp = timed(lambda: core.solve_moves(pos))
                set_core_objective(core, "win", g.players)
                guesses = dict(exact) if m == "win_exact" else None
                (_, win, wn, aborted), dw = timed(lambda: core.solve_moves(pos, 0, dict(pts), guesses))
                if exact is None:
                    exact = win
                if aborted or win != exact:
                    raise SystemExit(f"the win values changed with the guesses ({m})")
                nodes["points"], nodes[m] = pn, wn
                best["points"] = dp if best["points"] is None else min(best["points"], dp)
                best[m] = dw if best[m] is None else min(best[m], dw)
        rows.append({"nodes": nodes, "ms": {m: round(best[m] * 1e3, 4) for m in modes}})
    return summarise(rows, modes)


def summarise(rows, modes) -> dict:
    return {"positions": len(rows),
            "nodes_total": {m: sum(r["nodes"][m] for r in rows) for m in modes},
            "nodes_median": {m: statistics.median(r["nodes"][m] for r in rows) for m in modes},
            "ms_median": {m: round(statistics.median(r["ms"][m] for r in rows), 3) for m in modes},
            "ms_mean": {m: round(statistics.fmean(r["ms"][m] for r in rows), 3) for m in modes},
            "rows": rows}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--suite", default="openings_4p")
    ap.add_argument("--positions", type=int, default=100, help="positions valued (part 1)")
    ap.add_argument("--solve-positions", type=int, default=40, help="positions solved (part 2)")
    ap.add_argument("--cap", type=int, default=3_000_000, help="part 2 skips positions whose solves need more nodes")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--out", default=None, help="write the JSON journal here")
    args = ap.parse_args(argv)
    games = load_suite(DATA / f"{args.suite}.json")
    value = value_floor(games[: args.positions], args.reps)
    solve = solve_floor(games, args.reps, args.solve_positions, args.cap)
    print(f"## {args.suite}: Solver.value, {value['positions']} positions, a fresh table each\n")
    print("| first guess | nodes (total) | nodes (median) | ms (median) | ms (mean) |")
    print("|---|---|---|---|---|")
    for m, label in (("first_guess", "today's (6-ply search)"), ("exact", "the exact value"), ("zero", "0")):
        print(f"| {label} | {value['nodes_total'][m]:,} | {value['nodes_median'][m]:,.0f} "
              f"| {value['ms_median'][m]} | {value['ms_mean'][m]} |")
    print(f"\n## {args.suite}: the second currency of a solve, {solve['positions']} positions\n")
    print("| search | nodes (total) | nodes (median) | ms (median) | ms (mean) |")
    print("|---|---|---|---|---|")
    for m, label in (("points", "points solve (every root move)"), ("win_seeded", "win solve, seeded (fiveup solve)"),
                     ("win_exact", "win solve, every move's exact value as its guess")):
        print(f"| {label} | {solve['nodes_total'][m]:,} | {solve['nodes_median'][m]:,.0f} "
              f"| {solve['ms_median'][m]} | {solve['ms_mean'][m]} |")
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"suite": args.suite, "reps": args.reps, "cap": args.cap, "value": value, "solve": solve},
                      f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
