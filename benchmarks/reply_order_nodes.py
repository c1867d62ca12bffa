"""The reply in the solver's move order: nodes with and without it, on the suites and held out.

    python benchmarks/reply_order_nodes.py [--held-out 150] [--out FILE]

Where a Solver call asks the transposition table, it orders the moves by their
credit less the best credit the next seat (of the other side) can take at once
(``reply_credit`` in ``src/fiveup_solver/_solver.pyx``); ``SolverCore.reply_order
= False`` orders by credit and history alone. An order changes the work, never a
value: this script values every position both ways and checks that.

Positions: the four solver suites of ``benchmarks/data`` (the ones the order was
measured on when it was written), and held-out positions made by the suites' own
generators (``benchmarks/make_suites.py``) from seeds the suites do not use:
openings 90,000 + k (2 and 4 players), ``mid_round(70,000 + k)`` and
``near_target(80,000 + k)``, ``--held-out`` of each.

Each set and objective: one ``Solver(tt_mb=16)`` per setting, reused over the set
(as ``fiveup bench --solver`` and ``compare_builds.py`` run a suite pass), ``value``
of every position. Nodes are exact (one thread); the CPU seconds of the pass are
printed too, but they move with the machine's load: ``compare_builds.py`` is the
timing.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from fiveup_solver.bench import load_suite
from fiveup_solver.solver import Solver

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
SUITES = ("openings_4p", "openings_2p", "midround", "near_target")


def held_out_sets(count: int, tmp: Path) -> dict:
    """Held-out position files from make_suites' generators (seeds the suites do not use)."""
    sys.path.insert(0, str(HERE))
    import make_suites as m   # noqa: E402  (a script beside this one, not a package module)
    sets = {"held-out openings_4p": [m.opening(4, 90_000 + k) for k in range(count)],
            "held-out openings_2p": [m.opening(2, 90_000 + k) for k in range(count)],
            "held-out midround": [m.mid_round(70_000 + k) for k in range(count)],
            "held-out near_target": [m.near_target(80_000 + k) for k in range(count)]}
    out = {}
    for name, positions in sets.items():
        path = tmp / (name.replace(" ", "_") + ".json")
        path.write_text(json.dumps(positions))
        out[name] = path
    return out


def one_pass(games, objective: str, reply: bool) -> tuple:
    solver = Solver(tt_mb=16, objective=objective, both=False)
    solver.core.reply_order = reply
    t0 = time.process_time()
    results = [solver.value(g) for g in games]
    return [v for v, _ in results], sum(n for _, n in results), time.process_time() - t0


def measure(sets: dict) -> list:
    rows = []
    for name, path in sets.items():
        games = load_suite(path)
        for objective in ("points", "win"):
            # the equity tables of every player count in the set loaded before the timed passes
            one_pass(list({g.players: g for g in games}.values()), objective, True)
            off_values, off_nodes, off_s = one_pass(games, objective, False)
            on_values, on_nodes, on_s = one_pass(games, objective, True)
            if on_values != off_values:
                raise SystemExit(f"{name}, {objective}: the reply order changed a value")
            rows.append({"set": name, "positions": len(games), "objective": objective,
                         "nodes_without": off_nodes, "nodes_with": on_nodes,
                         "nodes_ratio": round(on_nodes / off_nodes, 3),
                         "cpu_s_without": round(off_s, 3), "cpu_s_with": round(on_s, 3)})
            print(f"| {name} | {len(games)} | {objective} | {off_nodes:,} | {on_nodes:,} | "
                  f"{on_nodes / off_nodes:.3f} | {off_s:.2f} / {on_s:.2f} |", flush=True)
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--held-out", type=int, default=150, help="held-out positions of each kind (0: none)")
    ap.add_argument("--suite-positions", type=int, default=0, help="the first N of each suite (0: all)")
    ap.add_argument("--out", default=None, help="write the JSON journal here")
    args = ap.parse_args(argv)
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        sets = {}
        for s in SUITES:
            positions = json.loads((DATA / f"{s}.json").read_text())
            if args.suite_positions:
                positions = positions[: args.suite_positions]
            path = Path(tmp) / f"{s}.json"
            path.write_text(json.dumps(positions))
            sets[s] = path
        if args.held_out:
            sets.update(held_out_sets(args.held_out, Path(tmp)))
        print("| positions | count | objective | nodes without | nodes with | ratio | CPU s without / with |")
        print("|---|---|---|---|---|---|---|")
        rows = measure(sets)
    if args.out:
        Path(args.out).write_text(json.dumps({"command": "python benchmarks/reply_order_nodes.py "
                                              + " ".join(argv if argv is not None else sys.argv[1:]),
                                              "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
