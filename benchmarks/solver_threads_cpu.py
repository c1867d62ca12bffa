"""Solver threads (Lazy SMP) measured by the calling thread's CPU time, for a shared machine.

    python benchmarks/solver_threads_cpu.py [--reps 3] [--threads 1,2] [--suites openings_4p,...] [--out FILE]

On a machine whose cores are busy with other work, the wall-clock time of a
search with helper threads mostly measures how much CPU the scheduler gives
them (`compare_builds.py --current-threads 2` shows it). This measures what an
idle machine with a free core for every helper would show as wall-clock time:
the CPU time of the thread that calls `Solver.value` (`time.thread_time`: it
does not count the time that thread waits or is descheduled, and counts its
memory stalls). It assumes the helpers advance at the main thread's pace, as
they do on free cores; on a busy machine both are time-sliced alike.

Per suite and thread count: every position solved `--reps` times, each pass
with a fresh Solver; per position the median over the passes, then the total,
median and 95th percentile over the positions; node counts (all threads, and
the main thread's). The values of every pass must equal those of one thread.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from fiveup_solver.bench import SOLVER_SUITES, load_suite  # noqa: E402
from fiveup_solver.solver import Solver  # noqa: E402


def measure(games, threads: int, reps: int) -> dict:
    per = [[] for _ in games]
    nodes = [[] for _ in games]
    main = [[] for _ in games]
    values = None
    for _ in range(reps):
        solver = Solver(tt_mb=16, both=False, threads=threads)
        vs = []
        for i, g in enumerate(games):
            t0 = time.thread_time()
            v, n = solver.value(g)
            per[i].append(time.thread_time() - t0)
            nodes[i].append(n)
            main[i].append(n - solver.core.helper_nodes)
            vs.append(v)
        if values is not None and vs != values:
            raise SystemExit("error: the values differ between passes")
        values = vs
    med = sorted(statistics.median(x) for x in per)
    k = len(med)
    return {"cpu_s_total": round(sum(med), 4), "cpu_ms_median": round(med[k // 2] * 1e3, 3),
            "cpu_ms_p95": round(med[min(k - 1, int(0.95 * k))] * 1e3, 3),
            "nodes_total": round(sum(statistics.median(x) for x in nodes)),
            "main_thread_nodes_total": round(sum(statistics.median(x) for x in main)), "values": values}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--threads", default="1,2", help="thread counts, the first is the reference")
    p.add_argument("--suites", default=",".join(SOLVER_SUITES))
    p.add_argument("--data", default=str(HERE / "data"))
    p.add_argument("--out", default=None, help="write the results as JSON here")
    args = p.parse_args(argv)
    counts = [int(t) for t in args.threads.split(",")]
    out = {"command": " ".join(sys.argv), "reps": args.reps, "suites": {}}
    for suite in args.suites.split(","):
        games = load_suite(Path(args.data) / f"{suite}.json")
        res = {str(t): measure(games, t, args.reps) for t in counts}
        ref = res[str(counts[0])]
        for t in counts[1:]:
            r = res[str(t)]
            if r["values"] != ref["values"]:
                raise SystemExit(f"error: {suite}: the values with {t} threads differ from {counts[0]}")
            r["ratio_to_first"] = {k: round(r[k] / ref[k], 3) if ref[k] else None
                                   for k in ("cpu_s_total", "cpu_ms_median", "cpu_ms_p95", "main_thread_nodes_total")}
        for r in res.values():
            r.pop("values")
        out["suites"][suite] = res
        print(suite, json.dumps(res), flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
