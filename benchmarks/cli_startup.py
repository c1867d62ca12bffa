"""How long a ``fiveup`` command takes as a user runs it, two builds interleaved.

    python benchmarks/cli_startup.py --baseline /work/wt-prev [--current .] [--reps 15] [--json FILE]

Each command below runs in a fresh interpreter (``cli.main``, as the ``fiveup`` script runs it;
bytecode cached as an installed package has it), the baseline build and the
current one alternately, ``--reps`` times each after one warm-up run of both. A
run's time is the whole process's wall time as the shell sees it: interpreter
start, the package's and the command's imports, the work, the exit. The report
gives each command's median and spread per build, the ratio current / baseline
of the medians, each process's peak resident memory, and the modules each build
imports for the command. Outputs are checked equal across the builds.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# the command as a user runs it, then this process's peak resident memory and the package's
# modules it imported (on stderr)
CLI = r"""
import resource, sys
from fiveup_solver import cli
try:
    code = cli.main(sys.argv[1:])
except SystemExit as e:      # --version, --help
    code = e.code
finally:
    print("MAXRSS_KB", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
    print("MODULES", ",".join(sorted(m for m in sys.modules if m.startswith("fiveup_solver.") or m == "tqdm")),
          file=sys.stderr)
sys.exit(code)
"""


def commands(records: Path) -> list:
    """(label, argv) of the timed commands; the records are made once by the baseline."""
    g2, g4 = records / "g2.json", records / "g4.json"
    return [
        ("--version", ["--version"]),
        ("replay", ["replay", str(g2)]),
        ("perft", ["perft", str(g2), "--round", "0", "--depth", "2"]),
        ("equity", ["equity", "--players", "2", "--scores", "250,280"]),
        ("solve (2 players)", ["solve", str(g2), "--round", "0", "--action", "0"]),
        ("solve (4 players)", ["solve", str(g4), "--round", "0", "--action", "0"]),
        ("hint", ["hint", str(g2), "--seat", "0", "--round", "0", "--action", "0", "--seed", "1"]),
        ("show", ["show", str(g2), "--round", "0", "--action", "5"]),
    ]


def run(tree: Path, argv: list) -> tuple:
    """argv in a fresh interpreter with the build at tree: (wall seconds, stdout, peak RSS MB, modules)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    env.pop("PYTHONDONTWRITEBYTECODE", None)      # bytecode cached, as an installed package has it
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", CLI, *argv], cwd=tree, env=env, capture_output=True, text=True,
                          timeout=600)
    seconds = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"{tree}: fiveup {' '.join(argv)} failed: {proc.stderr.strip()[-300:]}")
    rss = modules = None
    for line in proc.stderr.splitlines():
        if line.startswith("MAXRSS_KB "):
            rss = int(line.split()[1]) / 1024
        elif line.startswith("MODULES "):
            modules = line.split()[1].split(",")
    return seconds, proc.stdout, rss, modules


def stable(text: str) -> str:
    """Output without the times a command reports (they differ from run to run) and
    without legends (their wording may change between builds; the values may not)."""
    lines = []
    for line in text.splitlines():
        if "seconds" in line or " ms" in line or "time" in line or line.startswith(("pts:", "win:")):
            continue
        lines.append(line)
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", type=Path, required=True, help="a built tree of the build to compare against")
    ap.add_argument("--current", type=Path, default=Path("."), help="the built tree to measure (default .)")
    ap.add_argument("--reps", type=int, default=15, help="timed runs of each command and build")
    ap.add_argument("--json", type=Path, default=None, help="write the results here")
    args = ap.parse_args(argv)
    trees = {"baseline": args.baseline.resolve(), "current": args.current.resolve()}
    with tempfile.TemporaryDirectory() as tmp:
        records = Path(tmp)
        for players, name in ((2, "g2.json"), (4, "g4.json")):
            run(trees["baseline"], ["selfplay", "--seed", "2", "--players", str(players), "--out",
                                    str(records / name)])
        results = []
        for label, cmd in commands(records):
            times = {k: [] for k in trees}
            rss = {}
            modules = {}
            outputs = {}
            for k, tree in trees.items():          # warm-up: bytecode written, files in the page cache
                _, outputs[k], rss[k], modules[k] = run(tree, cmd)
            if stable(outputs["baseline"]) != stable(outputs["current"]):
                raise SystemExit(f"fiveup {' '.join(cmd)}: the two builds print different results")
            for _ in range(args.reps):
                for k, tree in trees.items():
                    seconds, _, r, _ = run(tree, cmd)
                    times[k].append(seconds)
                    rss[k] = max(rss[k], r)
            row = {"command": label, "argv": cmd}
            for k in trees:
                row[k] = {"median_ms": 1000 * statistics.median(times[k]), "min_ms": 1000 * min(times[k]),
                          "max_ms": 1000 * max(times[k]), "peak_rss_mb": rss[k], "runs_ms": [1000 * t for t in times[k]],
                          "modules": modules[k]}
            row["ratio"] = row["current"]["median_ms"] / row["baseline"]["median_ms"]
            results.append(row)
            print(f"{label:20s} baseline {row['baseline']['median_ms']:6.1f} ms "
                  f"({row['baseline']['min_ms']:.1f}-{row['baseline']['max_ms']:.1f}, {rss['baseline']:.1f} MB, "
                  f"{len(modules['baseline'])} modules)   current {row['current']['median_ms']:6.1f} ms "
                  f"({row['current']['min_ms']:.1f}-{row['current']['max_ms']:.1f}, {rss['current']:.1f} MB, "
                  f"{len(modules['current'])} modules)   ratio {row['ratio']:.3f}", flush=True)
    if args.json is not None:
        load = os.getloadavg()
        args.json.write_text(json.dumps({"baseline": str(trees["baseline"]), "current": str(trees["current"]),
                                         "reps": args.reps, "python": sys.version.split()[0],
                                         "load_average": load, "results": results}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
