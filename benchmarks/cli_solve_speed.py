"""What ``fiveup solve`` adds to the solve, in fresh processes, two builds interleaved.

    python benchmarks/cli_solve_speed.py --baseline /work/wt-speed-base [--current .] [--positions 10] [--reps 3]

For the first ``--positions`` deals of ``openings_2p`` and ``openings_4p``
(``benchmarks/data``), each build runs, alternately:

* ``cli``: ``fiveup solve FILE --round 0 --action 0 --json`` as a user does (a fresh
  interpreter; the default objective and both currencies): its reported ``seconds``,
  the time of ``Solver.solve`` including the equity table's load;
* ``core``: in a fresh interpreter, ``Solver(both=False).solve`` of the same position
  (the points currency alone, principal variation included): the solve itself.

The overhead of a position is cli - core (medians over the repetitions); the
report gives its median and maximum per suite and build, and each process's peak
resident memory (its own ``ru_maxrss``). Values are checked equal across builds.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

# the CLI as a user runs it, then this process's peak resident memory (on stderr)
CLI = r"""
import resource, sys
from fiveup_solver import cli
try:
    code = cli.main(sys.argv[1:])
finally:
    print("MAXRSS_KB", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
sys.exit(code)
"""
CORE = r"""
import json, resource, sys, time
from fiveup_solver.record import game_at, load_record
from fiveup_solver.solver import Solver
game = game_at(load_record(sys.argv[1]), 0, 0)
solver = Solver(both=False)
res = solver.solve(game)
print(json.dumps({"seconds": res.seconds, "value": res.value}))
print("MAXRSS_KB", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
"""


def run(tree: Path, argv: list) -> tuple:
    """Run argv in a fresh interpreter with the build at tree; (stdout JSON, its peak RSS in MB)."""
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run(argv, cwd=tree, env=env, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise SystemExit(f"{tree}: {' '.join(argv[-6:])} failed: {proc.stderr.strip()[-300:]}")
    rss = [int(line.split()[1]) for line in proc.stderr.splitlines() if line.startswith("MAXRSS_KB ")]
    return json.loads(proc.stdout.strip().splitlines()[-1]), (rss[-1] / 1024 if rss else None)


def measure(trees: dict, suites: list, positions: int, reps: int, data: Path) -> dict:
    tmp = tempfile.TemporaryDirectory(prefix="fiveup-cli-solve-")
    files = []
    for suite in suites:
        for k, p in enumerate(json.loads((data / f"{suite}.json").read_text())[:positions]):
            path = Path(tmp.name) / f"{suite}_{k}.json"
            path.write_text(json.dumps(p["record"]))
            files.append((suite, k, path))
    raw = {name: {} for name in trees}
    for rep in range(reps):
        for suite, k, path in files:
            for name, tree in trees.items():
                cli, rss_cli = run(tree, [sys.executable, "-c", CLI, "solve", str(path),
                                          "--round", "0", "--action", "0", "--json"])
                core, rss_core = run(tree, [sys.executable, "-c", CORE, str(path)])
                row = raw[name].setdefault(f"{suite}/{k}", {"cli": [], "core": [], "value": cli["value"],
                                                            "core_value": core["value"], "rss_mb": []})
                row["cli"].append(cli["seconds"])
                row["core"].append(core["seconds"])
                if rss_cli:
                    row["rss_mb"].append(rss_cli)
        print(f"rep {rep + 1}/{reps} done", file=sys.stderr, flush=True)
    tmp.cleanup()
    out = {}
    for name, rows in raw.items():
        for suite in suites:
            over = [1000 * (statistics.median(r["cli"]) - statistics.median(r["core"]))
                    for key, r in rows.items() if key.startswith(suite + "/")]
            cli = [1000 * statistics.median(r["cli"]) for key, r in rows.items() if key.startswith(suite + "/")]
            core = [1000 * statistics.median(r["core"]) for key, r in rows.items() if key.startswith(suite + "/")]
            rss = [x for key, r in rows.items() if key.startswith(suite + "/") for x in r["rss_mb"]]
            out.setdefault(name, {})[suite] = {
                "cli_ms_median": round(statistics.median(cli), 3), "core_ms_median": round(statistics.median(core), 3),
                "overhead_ms_median": round(statistics.median(over), 3), "overhead_ms_max": round(max(over), 3),
                "max_rss_mb": round(max(rss), 1) if rss else None}
    names = list(trees)
    same = all(raw[names[0]][key]["value"] == raw[n][key]["value"] for n in names for key in raw[names[0]])
    return {"summary": out, "values_identical": same, "reps": reps, "positions": positions, "raw": raw}


def main(argv=None) -> int:
    here = Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", default=None, help="a baseline tree (built in place); omitted: current only")
    ap.add_argument("--current", default=str(here))
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--suites", default="openings_2p,openings_4p")
    ap.add_argument("--out", default=None, help="write the JSON journal here")
    args = ap.parse_args(argv)
    if args.positions < 1 or args.reps < 1:
        ap.error("--positions and --reps must be at least 1")
    trees = {"current": Path(args.current).resolve()}
    if args.baseline:
        trees = {"baseline": Path(args.baseline).resolve(), **trees}
    res = measure(trees, args.suites.split(","), args.positions, args.reps, here / "benchmarks" / "data")
    print("| build | suite | cli solve ms (median) | points solve ms (median) | added ms median | added ms max "
          "| max RSS MB |")
    print("|---|---|---|---|---|---|---|")
    for name, suites in res["summary"].items():
        for suite, r in suites.items():
            print(f"| {name} | {suite} | {r['cli_ms_median']} | {r['core_ms_median']} | {r['overhead_ms_median']} "
                  f"| {r['overhead_ms_max']} | {r['max_rss_mb']} |")
    print(f"\nvalues identical across builds: {'yes' if res['values_identical'] else 'NO'}")
    if args.out:
        Path(args.out).write_text(json.dumps(res, indent=1))
    return 0 if res["values_identical"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
