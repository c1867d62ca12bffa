"""Instructions and mispredicted branches of the solver in two builds, counted by callgrind.

    python benchmarks/callgrind_compare.py --baseline DIR [--current DIR] [--suites openings_4p:30,...]
        [--objectives points,win] [--json FILE]

Wall-clock time on a shared virtual machine moves with what its neighbours do (a
third of the CPU stolen was seen here); valgrind's callgrind counts what the code
does instead, the same count for the same binary and input whatever else runs.
For each build (a source tree with its extensions built in place, used as it is)
and each suite slice and objective, a fresh interpreter under
``valgrind --tool=callgrind --branch-sim=yes`` solves the first N positions of the
suite with one ``Solver(tt_mb=16, both=False)`` (``value``), and only the
``SolverCore.value`` calls are counted (``--toggle-collect``): instructions (Ir),
conditional branches (Bc) and those its branch predictor model mispredicts (Bcm),
with the node count. An estimate of cycles, Ir / 2.5 + 15 Bcm (a guess at the
instructions a cycle and the cost of a mispredicted branch on a current x86 core),
is reported beside them; it is a model, not a measurement. Node counts must be
equal between builds that keep the search's tree.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

WORKER = r"""
import sys
from fiveup_solver.bench import load_suite
from fiveup_solver.solver import Solver
suite, k, objective = sys.argv[1], int(sys.argv[2]), sys.argv[3]
games = load_suite(suite)[:k]
solver = Solver(tt_mb=16, objective=objective, both=False)
if objective == "win":
    from fiveup_solver.equity import search_values
    search_values(games[0].players)
print("NODES", sum(solver.value(g)[1] for g in games))
"""

EVENTS = ("Ir", "Bc", "Bcm")


def measure(tree: Path, suite_file: Path, count: int, objective: str) -> dict:
    """One build, one suite slice, one objective: callgrind's totals over the value calls."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        worker = Path(tmp) / "worker.py"
        worker.write_text(WORKER)
        env = dict(os.environ, PYTHONPATH=str(tree))
        cmd = ["valgrind", "--tool=callgrind", "--branch-sim=yes", f"--callgrind-out-file={out}",
               "--toggle-collect=__pyx_pw_13fiveup_solver_7_solver_10SolverCore_*value*",
               sys.executable, str(worker), str(suite_file), str(count), objective]
        run = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
        if run.returncode != 0:
            raise SystemExit(f"{tree}: callgrind run failed: {run.stderr.strip().splitlines()[-1:]}")
        nodes = int(re.search(r"NODES (\d+)", run.stdout).group(1))
        text = out.read_text()
    events = re.search(r"^events: (.*)$", text, re.M).group(1).split()
    totals = [int(x) for x in re.search(r"^totals: (.*)$", text, re.M).group(1).split()]
    counts = dict(zip(events, totals))
    row = {e: counts[e] for e in EVENTS}
    row["nodes"] = nodes
    row["cycles_model"] = round(row["Ir"] / 2.5 + 15 * row["Bcm"])
    return row


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", required=True, type=Path)
    ap.add_argument("--current", default=Path(__file__).resolve().parent.parent, type=Path)
    ap.add_argument("--suites", default="openings_4p:30,openings_2p:100,midround:100,near_target:100",
                    help="suite:positions, comma separated (benchmarks/data of the current tree)")
    ap.add_argument("--objectives", default="points,win")
    ap.add_argument("--json", type=Path, help="also write the results here")
    args = ap.parse_args(argv)
    data = args.current / "benchmarks" / "data"
    rows = []
    print("| suite | positions | objective | build | Ir | Bcm | Bcm a node | cycles (model) | nodes |")
    print("|---|---|---|---|---|---|---|---|---|")
    for spec in args.suites.split(","):
        suite, _, count = spec.partition(":")
        for objective in args.objectives.split(","):
            pair = {}
            for name, tree in (("baseline", args.baseline), ("current", args.current)):
                r = measure(tree.resolve(), data / f"{suite}.json", int(count or 30), objective)
                pair[name] = r
                print(f"| {suite} | {count} | {objective} | {name} | {r['Ir']:,} | {r['Bcm']:,} | "
                      f"{r['Bcm'] / max(r['nodes'], 1):.2f} | {r['cycles_model']:,} | {r['nodes']:,} |", flush=True)
            b, c = pair["baseline"], pair["current"]
            ratios = {k: round(c[k] / b[k], 3) for k in ("Ir", "Bcm", "cycles_model")}
            print(f"| {suite} | {count} | {objective} | current/baseline | {ratios['Ir']} | {ratios['Bcm']} | | "
                  f"{ratios['cycles_model']} | {'same' if b['nodes'] == c['nodes'] else 'differ'} |", flush=True)
            rows.append({"suite": suite, "positions": int(count or 30), "objective": objective, **pair,
                         "ratios": ratios, "same_nodes": b["nodes"] == c["nodes"]})
    if args.json:
        args.json.write_text(json.dumps({"baseline": str(args.baseline), "current": str(args.current),
                                         "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
