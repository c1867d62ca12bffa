"""What the 4-player openings' slow tail is made of: order, first guess, table.

    python benchmarks/tail_anatomy.py [--suite openings_4p] [--reps 3] [--top 10] [--out FILE]

Issue 24 asks for the ``openings_4p`` p95 at 0.32 of the issue's code. This
script asks three questions of the slowest positions, each with exact node
counts (one thread, deterministic) from the public options:

* **Order.** Every position valued with the reply order on and off
  (``SolverCore.reply_order``, a reused ``Solver(tt_mb=16)`` per setting, as a
  suite pass runs), and an oracle that takes the better of the two for each
  position: how far any choice between the two orders could move the tail.
* **First guess.** The ``--top`` slowest positions, each in a fresh table, with
  MTD(f)'s own first guess and with the exact value as its guess
  (``SolverCore.value(guess=)``): what a perfect guess would leave of them.
* **Table.** One pass per setting of ``tt_min_tiles`` (the hand tiles above
  which a node asks the table; -1 the default, 14 with 4 players) and
  ``tt_mb``, ``--reps`` passes alternated: nodes, median and p95 wall time.

Values are checked identical across every setting.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from fiveup_solver import _solver
from fiveup_solver.bench import load_suite
from fiveup_solver.solver import Solver, set_core_objective

DATA = Path(__file__).resolve().parent / "data"
TABLE_SETTINGS = ((16.0, -1), (16.0, 12), (16.0, 10), (16.0, 16), (0.25, -1), (0.25, 12))


def rank(values: list, q: float):
    """The suite's own percentile: the value at rank ceil(q * n) (p95 of 100: the 95th)."""
    s = sorted(values)
    return s[max(0, -(-int(q * 100) * len(s) // 100) - 1)]


def suite_pass(games, reply: bool = True, tt_mb: float = 16.0, tt_min_tiles: int = -1) -> tuple:
    solver = Solver(tt_mb=tt_mb, objective="points", both=False, tt_min_tiles=tt_min_tiles)
    solver.core.reply_order = reply
    values, nodes, ms = [], [], []
    for g in games:
        t0 = time.perf_counter()
        v, n = solver.value(g)
        ms.append((time.perf_counter() - t0) * 1e3)
        values.append(v)
        nodes.append(n)
    return values, nodes, ms


def order_part(games) -> dict:
    on_v, on_n, _ = suite_pass(games, reply=True)
    off_v, off_n, _ = suite_pass(games, reply=False)
    if on_v != off_v:
        raise SystemExit("the reply order changed a value")
    best = [min(a, b) for a, b in zip(on_n, off_n)]
    out = {}
    for name, nodes in (("reply order (default)", on_n), ("without it", off_n), ("better of the two", best)):
        out[name] = {"nodes": sum(nodes), "median": rank(nodes, 0.5), "p95": rank(nodes, 0.95)}
        print(f"| {name} | {sum(nodes):,} | {rank(nodes, 0.5):,} | {rank(nodes, 0.95):,} |", flush=True)
    slowest = sorted(range(len(games)), key=lambda k: -on_n[k])
    out["slowest"] = [{"position": k, "value": on_v[k], "nodes_with": on_n[k], "nodes_without": off_n[k]}
                      for k in slowest[:12]]
    return out, on_v, slowest


def guess_part(games, values, slowest, top: int) -> list:
    rows = []
    for k in slowest[:top]:
        pos, players = games[k].current.core, games[k].players
        counts = {}
        for label, guess in (("own first guess", None), ("exact value", values[k])):
            core = _solver.SolverCore(16.0)
            set_core_objective(core, "points", players)
            v, n, aborted = core.value(pos, 0, guess)
            if aborted or v != values[k]:
                raise SystemExit(f"position {k}: value {v} against {values[k]}")
            counts[label] = n
        ratio = counts["exact value"] / counts["own first guess"]
        rows.append({"position": k, **counts, "ratio": round(ratio, 3)})
        print(f"| {k} | {values[k]} | {counts['own first guess']:,} | {counts['exact value']:,} | {ratio:.2f} |",
              flush=True)
    return rows


def table_part(games, values, reps: int) -> list:
    runs = {s: [] for s in TABLE_SETTINGS}
    nodes = {}
    for _ in range(reps):
        for s in TABLE_SETTINGS:
            v, n, ms = suite_pass(games, tt_mb=s[0], tt_min_tiles=s[1])
            if v != values:
                raise SystemExit(f"tt_mb={s[0]}, tt_min_tiles={s[1]} changed a value")
            nodes[s] = sum(n)
            runs[s].append((statistics.median(ms), rank(ms, 0.95), sum(ms)))
    rows = []
    base = TABLE_SETTINGS[0]
    for s in TABLE_SETTINGS:
        med = statistics.median(r[0] for r in runs[s])
        p95 = statistics.median(r[1] for r in runs[s])
        # each repetition against the default's repetition of the same round
        r_med = statistics.median(a[0] / b[0] for a, b in zip(runs[s], runs[base]))
        r_p95 = statistics.median(a[1] / b[1] for a, b in zip(runs[s], runs[base]))
        rows.append({"tt_mb": s[0], "tt_min_tiles": s[1], "nodes": nodes[s], "median_ms": round(med, 3),
                     "p95_ms": round(p95, 3), "median_ratio": round(r_med, 3), "p95_ratio": round(r_p95, 3)})
        print(f"| {s[0]} | {s[1]} | {nodes[s]:,} | {med:.2f} ({r_med:.3f}) | {p95:.2f} ({r_p95:.3f}) |", flush=True)
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--suite", default="openings_4p", help="a suite of benchmarks/data")
    ap.add_argument("--reps", type=int, default=3, help="alternated passes per table setting")
    ap.add_argument("--top", type=int, default=10, help="slowest positions given the exact value as the guess")
    ap.add_argument("--positions", type=int, default=0, help="the first N positions of the suite (0: all)")
    ap.add_argument("--out", default=None, help="write the JSON journal here")
    args = ap.parse_args(argv)
    games = load_suite(DATA / f"{args.suite}.json")
    if args.positions:
        games = games[: args.positions]
    print("| order | nodes | median nodes | p95 nodes |\n|---|---|---|---|")
    order, values, slowest = order_part(games)
    print("\n| position | value | nodes, own first guess | nodes, exact value as guess | ratio |\n|---|---|---|---|---|")
    guesses = guess_part(games, values, slowest, args.top)
    print("\n| tt_mb | tt_min_tiles | nodes | median ms (ratio) | p95 ms (ratio) |\n|---|---|---|---|---|")
    table = table_part(games, values, args.reps)
    if args.out:
        Path(args.out).write_text(json.dumps({
            "command": "python benchmarks/tail_anatomy.py " + " ".join(argv if argv is not None else sys.argv[1:]),
            "suite": args.suite, "positions": len(games), "order": order, "first_guess": guesses,
            "table": table}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
