"""Before/after speed comparison of two builds of fiveup_solver, measured in one run.

    python benchmarks/compare_builds.py [--baseline DIR] [--current DIR] [--reps N] [--quick] [--json [FILE]]

Each build is a source tree with its compiled extensions in place (``DIR/fiveup_solver/*.so``),
used as it is: nothing is built or installed. Every measurement runs in a fresh
interpreter (this one, ``sys.executable``) with ``PYTHONPATH=DIR`` and ``cwd=DIR``,
and the worker checks that ``fiveup_solver`` was imported from DIR. The
measurements are interleaved: for each repetition, for each benchmark, baseline
then current (A B A B ...), so that drift in the machine's load hits both alike.

Benchmarks (the suite files are the current tree's ``benchmarks/data`` for both builds):

* playouts: ``fiveup_solver._core.random_playouts(players, rounds, seed)`` for 2, 3
  and 4 players, whole random rounds per second (one core, after a short warm-up).
* solver: ``fiveup_solver.bench.load_suite`` / ``run_solver_suite(games, "value")`` on
  openings_2p, openings_4p, midround and near_target. A measurement repeats the
  suite (a fresh Solver each pass) until ``--solver-seconds`` have passed and keeps
  the median pass: seconds per pass (sum of the per-position solve times), total
  nodes and nodes/s. ``--current-threads N``: the current build's suites with a
  Solver of N threads (the exact node counts stay those of one thread). The
  values (and node counts) must be identical between the builds; the report
  says whether they are.
* hint: ``fiveup_solver.bench.load_hint_suite`` / ``run_hint_suite`` on the first
  ``--hint-positions`` positions of hint_positions.json (pimc, default budget, 2
  threads): mean and median ms per decision. Only if it runs on both builds
  (probed first); the worlds searched, and once per build the hints themselves,
  are compared.

Reported per metric: the median over the repetitions for each build, the ratio
current/baseline of the medians, the spread (min-max over repetitions) and the
range of the per-repetition ratios (each from a back-to-back pair). Output is
Markdown; ``--json`` prints the raw and summarised results as JSON instead, and
``--json FILE`` writes them to FILE as well as printing the Markdown.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SUITES = ("openings_2p", "openings_4p", "midround", "near_target")
PLAYERS = (2, 3, 4)


# ---------------------------------------------------------------- worker (runs inside a build's tree)

def _memory(untimed) -> dict:
    """Peak memory of this (fresh) measurement process: its resident set so far (C tables
    included) and, over one more untimed call of `untimed`, Python's own allocations."""
    import resource
    import tracemalloc
    tracemalloc.start()
    untimed()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {"max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "python_peak_mb": peak / 2 ** 20}


def _worker(spec: dict) -> dict:
    """One measurement in this interpreter; spec["tree"] is the build it must come from."""
    import fiveup_solver
    tree = Path(spec["tree"]).resolve()
    where = Path(fiveup_solver.__file__).resolve()
    if tree not in where.parents:
        raise RuntimeError(f"fiveup_solver was imported from {where}, not from {tree}")
    kind = spec["kind"]
    out = {"kind": kind, "module": str(where.parent)}
    if kind == "probe":
        from fiveup_solver import bench
        out["bench_api"] = {name: hasattr(bench, name)
                            for name in ("load_suite", "run_solver_suite", "load_hint_suite", "run_hint_suite")}
        if spec.get("hint_path"):
            try:
                obs = [o for o, _ in bench.load_hint_suite(spec["hint_path"])][:1]
                r = bench.run_hint_suite(obs, method=spec["method"], threads=spec["threads"])
                out["hint_ok"] = r["positions"] == 1
            except Exception as e:   # noqa: BLE001 -- reported, and the hint part is skipped
                out["hint_ok"] = False
                out["hint_error"] = f"{type(e).__name__}: {e}"
        return out
    if kind == "playouts":
        from fiveup_solver import _core
        n, rounds, seed = spec["players"], spec["rounds"], spec["seed"]
        _core.random_playouts(n, max(1, rounds // 20), seed + 1)          # warm-up
        t0 = time.perf_counter()
        result = _core.random_playouts(n, rounds, seed)
        seconds = time.perf_counter() - t0
        out.update(seconds=seconds, rounds_per_s=rounds / seconds, result=list(result))
        return out
    if kind == "solver":
        from fiveup_solver import bench
        games = bench.load_suite(spec["path"])
        passes = []
        t_start = time.perf_counter()
        while True:
            r = bench.run_solver_suite(games, "value", **({"threads": spec["threads"]} if spec.get("threads") else {}))
            seconds = r["ms"]["mean"] * r["positions"] / 1000.0
            passes.append({"seconds": seconds, "nodes_per_s": r["nodes_per_s"], "values": r["values"],
                           "ms_median": r["ms"]["median"], "ms_p95": r["ms"]["p95"]})
            if len(passes) >= spec["min_passes"] and time.perf_counter() - t_start >= spec["min_seconds"]:
                break
        # exact node counts (the Solver is what run_solver_suite uses; one more, untimed pass)
        from fiveup_solver.solver import Solver
        solver = Solver(tt_mb=16)
        exact = [solver.value(g) for g in games]
        values = [v for v, _ in exact]
        ok = all(p["values"] == values for p in passes)
        passes.sort(key=lambda p: p["seconds"])
        mid = passes[(len(passes) - 1) // 2]          # the median pass (lower median)
        total_nodes = sum(n for _, n in exact)
        out.update(positions=len(games), passes=len(passes), seconds=mid["seconds"],
                   pass_seconds=sorted(p["seconds"] for p in passes), nodes=total_nodes,
                   nodes_per_s=total_nodes / mid["seconds"] if mid["seconds"] > 0 else float("nan"),
                   reported_nodes_per_s=mid["nodes_per_s"], values=values, values_stable=ok,
                   ms_median=mid["ms_median"], ms_p95=mid["ms_p95"], **_memory(lambda: [solver.value(g) for g in games]))
        return out
    if kind == "hint":
        from fiveup_solver import bench
        obs = [o for o, _ in bench.load_hint_suite(spec["path"])]
        both = spec.get("both", False)
        r = bench.run_hint_suite(obs, method=spec["method"], threads=spec["threads"], both=both)
        out.update(positions=r["positions"], ms_mean=r["ms"]["mean"], ms_median=r["ms"]["median"],
                   ms_p95=r["ms"]["p95"], worlds=r["worlds"], exact_worlds=r["exact_worlds"],
                   **_memory(lambda: bench.run_hint_suite(obs[:5], method=spec["method"], threads=spec["threads"],
                                                          both=both)))
        return out
    if kind == "hint_check":
        from fiveup_solver import bench
        from fiveup_solver.hint import Hinter
        hinter = Hinter(threads=spec["threads"])
        rows = []
        for o, _ in bench.load_hint_suite(spec["path"]):
            h = hinter.hint(o, method=spec["method"], seed=1)
            rows.append([str(h.best), h.samples, h.nodes, [(str(m.move), m.value) for m in h.moves]])
        out["hints"] = rows
        return out
    raise ValueError(f"unknown worker kind {kind!r}")


# ---------------------------------------------------------------- driver

class WorkerError(RuntimeError):
    pass


def run_worker(tree: Path, spec: dict, timeout: float, retries: int = 1) -> dict:
    """Run one measurement in a fresh interpreter inside tree (retried on failure:
    a build being rewritten in place can fail to import for a moment)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(tree)
    env["PYTHONHASHSEED"] = "0"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    spec = dict(spec, tree=str(tree))
    last = ""
    for attempt in range(retries + 1):
        try:
            proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", json.dumps(spec)],
                                  cwd=tree, env=env, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            last = f"timed out after {timeout:.0f} s"
        else:
            if proc.returncode == 0:
                return json.loads(proc.stdout.strip().splitlines()[-1])
            last = (proc.stderr.strip().splitlines() or [f"exit status {proc.returncode}"])[-1]
        if attempt < retries:
            time.sleep(3)
    raise WorkerError(f"{tree} {spec['kind']}: {last}")


def summary(xs):
    xs = [x for x in xs if x is not None]
    if not xs:
        return None
    return {"median": statistics.median(xs), "min": min(xs), "max": max(xs), "n": len(xs)}


def fmt(x, unit):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    if unit in ("rounds/s", "nodes/s"):
        return f"{x:,.0f}"
    if unit == "nodes":
        return f"{x:,.0f}"
    if unit == "s":
        return f"{x:.4f}" if x < 1 else f"{x:.3f}"
    if unit == "ms":
        return f"{x:.3f}" if x < 1 else f"{x:.2f}"
    if unit == "MB":
        return f"{x:.1f}"
    return f"{x:.4g}"


def measure(args) -> dict:
    baseline, current = Path(args.baseline).resolve(), Path(args.current).resolve()
    data = Path(args.data).resolve() if args.data else current / "benchmarks" / "data"
    builds = {"baseline": baseline, "current": current}
    for name, tree in builds.items():
        if not (tree / "fiveup_solver" / "__init__.py").is_file():
            raise SystemExit(f"error: {name} build {tree} has no fiveup_solver package")
        # the workers write no bytecode (PYTHONDONTWRITEBYTECODE): a module edited since its
        # .pyc was written would be compiled again in every worker, its time and memory (a
        # large module: 17 ms, 3 MB of peak RSS) measured as the build's. Compiled once here.
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "fiveup_solver")], check=False,
                       capture_output=True)
    for suite in SUITES:
        if not (data / f"{suite}.json").is_file():
            raise SystemExit(f"error: {data / (suite + '.json')} is missing")

    tmp = tempfile.TemporaryDirectory(prefix="fiveup-compare-")
    hint_path = None
    if args.hint_positions > 0 and (data / "hint_positions.json").is_file():
        positions = json.loads((data / "hint_positions.json").read_text())[: args.hint_positions]
        hint_path = Path(tmp.name) / "hint_positions.json"
        hint_path.write_text(json.dumps(positions))
    hint_spec = {"method": args.hint_method, "threads": args.hint_threads}

    log = lambda msg: print(msg, file=sys.stderr, flush=True)   # noqa: E731
    notes = []
    probes = {}
    for name, tree in builds.items():
        try:
            probes[name] = run_worker(tree, {"kind": "probe", "hint_path": str(hint_path) if hint_path else None,
                                             **hint_spec}, args.timeout, retries=2)
        except WorkerError as e:
            raise SystemExit(f"error: the {name} build does not run: {e}")
        log(f"{name}: fiveup_solver from {probes[name]['module']}")
        missing = [k for k, ok in probes[name]["bench_api"].items() if not ok and "hint" not in k]
        if missing:
            raise SystemExit(f"error: the {name} build lacks fiveup_solver.bench.{', '.join(missing)}")
    do_hint = hint_path is not None and all(p.get("hint_ok") for p in probes.values())
    if hint_path is not None and not do_hint:
        why = "; ".join(f"{n}: {p.get('hint_error', 'no hint API')}" for n, p in probes.items() if not p.get("hint_ok"))
        notes.append(f"hint latency skipped: it does not run on both builds ({why})")

    jobs = [("playouts", f"playouts {n}p", {"kind": "playouts", "players": n, "rounds": args.rounds, "seed": 1})
            for n in PLAYERS]
    jobs += [("solver", f"solver {s}", {"kind": "solver", "path": str(data / f"{s}.json"),
                                        "min_seconds": args.solver_seconds, "min_passes": 2}) for s in SUITES]
    if do_hint:
        jobs.append(("hint", f"hint {args.hint_method} x{args.hint_positions}",
                     {"kind": "hint", "path": str(hint_path), **hint_spec}))
        # both currencies (what analysis and `fiveup hint` ask for by default)
        jobs.append(("hint", f"hint {args.hint_method} both x{args.hint_positions}",
                     {"kind": "hint", "path": str(hint_path), "both": True, **hint_spec}))

    raw = {label: {"baseline": [], "current": []} for _, label, _ in jobs}
    failures = []
    t0 = time.perf_counter()
    for rep in range(args.reps):
        for kind, label, spec in jobs:
            for name, tree in builds.items():
                if kind == "solver" and name == "current" and args.current_threads:
                    spec = {**spec, "threads": args.current_threads}
                try:
                    r = run_worker(tree, spec, args.timeout)
                except WorkerError as e:
                    failures.append(f"rep {rep + 1} {label} {name}: {e}")
                    log(f"  FAILED {failures[-1]}")
                    r = None
                raw[label][name].append(r)
        log(f"rep {rep + 1}/{args.reps} done ({time.perf_counter() - t0:.0f} s)")

    checks = {}
    if do_hint and args.hint_check:
        try:
            hb, hc = (run_worker(tree, {"kind": "hint_check", "path": str(hint_path), **hint_spec}, args.timeout)
                      for tree in builds.values())
            same_best = sum(a[0] == b[0] for a, b in zip(hb["hints"], hc["hints"]))
            checks["hint results identical"] = hb["hints"] == hc["hints"]
            checks["hint best moves equal"] = f"{same_best}/{len(hb['hints'])}"
        except WorkerError as e:
            notes.append(f"hint check failed: {e}")
    tmp.cleanup()
    return {"baseline": str(baseline), "current": str(current), "data": str(data), "reps": args.reps,
            "python": sys.version.split()[0], "cpus": os.cpu_count(), "settings": {
                "rounds": args.rounds, "solver_seconds": args.solver_seconds,
                "hint_positions": args.hint_positions if do_hint else 0, **hint_spec,
                "current_solver_threads": args.current_threads},
            "jobs": [(kind, label) for kind, label, _ in jobs], "raw": raw, "failures": failures,
            "notes": notes, "checks": checks, "seconds": time.perf_counter() - t0}


def metrics_of(kind: str):
    """(key, name, unit, higher is better) measured by a job kind."""
    if kind == "playouts":
        return [("rounds_per_s", "rounds/s", "rounds/s", True)]
    memory = [("max_rss_mb", "peak RSS MB", "MB", False), ("python_peak_mb", "Python peak MB", "MB", False)]
    if kind == "solver":
        return [("seconds", "s per pass", "s", False), ("ms_median", "median ms/position", "ms", False),
                ("ms_p95", "p95 ms/position", "ms", False), ("nodes_per_s", "nodes/s", "nodes/s", True),
                ("nodes", "nodes (total)", "nodes", None)] + memory
    if kind == "hint":
        return [("ms_mean", "mean ms/decision", "ms", False), ("ms_median", "median ms/decision", "ms", False),
                ("ms_p95", "p95 ms/decision", "ms", False)] + memory
    return []


def summarise(res: dict) -> dict:
    rows, checks = [], dict(res["checks"])
    for kind, label in res["jobs"]:
        runs = res["raw"][label]
        for key, name, unit, higher in metrics_of(kind):
            b = [r.get(key) if r else None for r in runs["baseline"]]
            c = [r.get(key) if r else None for r in runs["current"]]
            sb, sc = summary(b), summary(c)
            ratio = sc["median"] / sb["median"] if sb and sc and sb["median"] else None
            pairs = [y / x for x, y in zip(b, c) if x and y is not None]
            rows.append({"benchmark": label, "metric": name, "unit": unit,
                         "better": {True: "higher", False: "lower", None: "-"}[higher],
                         "baseline": sb, "current": sc, "ratio": ratio,
                         "pair_ratio": summary(pairs)})
        ok_b = [r for r in runs["baseline"] if r]
        ok_c = [r for r in runs["current"] if r]
        if kind == "playouts" and ok_b and ok_c:
            checks[f"{label}: same rounds played (result)"] = (
                all(r["result"] == ok_b[0]["result"] for r in ok_b + ok_c))
        if kind == "solver" and ok_b and ok_c:
            checks[f"{label}: values identical"] = (
                all(r["values"] == ok_b[0]["values"] and r["values_stable"] for r in ok_b + ok_c))
            checks[f"{label}: node counts identical"] = all(r["nodes"] == ok_b[0]["nodes"] for r in ok_b + ok_c)
        if kind == "hint" and ok_b and ok_c:
            checks[f"{label}: worlds searched identical"] = (
                all((r["worlds"], r["exact_worlds"]) == (ok_b[0]["worlds"], ok_b[0]["exact_worlds"])
                    for r in ok_b + ok_c))
    return {"rows": rows, "checks": checks}


def markdown(res: dict, summ: dict) -> str:
    s = res["settings"]
    lines = [f"Baseline `{res['baseline']}` vs current `{res['current']}`: {res['reps']} interleaved repetitions "
             f"(fresh process per measurement), Python {res['python']}, {res['cpus']} CPUs, "
             f"{res['seconds']:.0f} s.",
             f"Playouts: {s['rounds']:,} rounds per measurement; solver: suite passes repeated for "
             f">= {s['solver_seconds']} s, median pass; hint: first {s['hint_positions']} positions, "
             f"{s['method']}, default budget, {s['threads']} threads.",
             "",
             "| benchmark | metric | better | baseline median (min–max) | current median (min–max) "
             "| current/baseline | per-rep ratio (min–max) |",
             "|---|---|---|---|---|---|---|"]
    for r in summ["rows"]:
        b, c, p = r["baseline"], r["current"], r["pair_ratio"]
        cell = lambda x: "n/a" if x is None else (   # noqa: E731
            f"{fmt(x['median'], r['unit'])} ({fmt(x['min'], r['unit'])}–{fmt(x['max'], r['unit'])})")
        ratio = "n/a" if r["ratio"] is None else f"{r['ratio']:.3f}"
        pr = "n/a" if p is None else f"{p['min']:.3f}–{p['max']:.3f}"
        lines.append(f"| {r['benchmark']} | {r['metric']} | {r['better']} | {cell(b)} | {cell(c)} | {ratio} | {pr} |")
    if summ["checks"]:
        lines += ["", "Checks:", ""]
        lines += [f"- {k}: {'yes' if v is True else 'NO' if v is False else v}" for k, v in summ["checks"].items()]
    for n in res["notes"]:
        lines.append(f"- note: {n}")
    for f in res["failures"]:
        lines.append(f"- failed measurement: {f}")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    here = Path(__file__).resolve().parent.parent
    p = argparse.ArgumentParser(description="Compare the speed of two builds of fiveup_solver in one run.")
    p.add_argument("--baseline", default="/work/baseline", help="the baseline tree (default: /work/baseline)")
    p.add_argument("--current", default=str(here), help=f"the current tree (default: {here})")
    p.add_argument("--reps", type=int, default=None, help="interleaved repetitions (default 5; 3 with --quick)")
    p.add_argument("--quick", action="store_true", help="fewer rounds, a shorter solver time, 20 hint positions")
    p.add_argument("--json", nargs="?", const="-", default=None, metavar="FILE",
                   help="print JSON instead of Markdown; with FILE, write JSON there and print Markdown")
    p.add_argument("--data", default=None, help="suite directory (default: CURRENT/benchmarks/data)")
    p.add_argument("--rounds", type=int, default=None, help="playout rounds per measurement (default 300000)")
    p.add_argument("--solver-seconds", type=float, default=None,
                   help="repeat each solver suite for at least this long per measurement (default 1.0)")
    p.add_argument("--hint-positions", type=int, default=None, help="first N hint positions (default 60; 0: skip)")
    p.add_argument("--hint-method", default="pimc", choices=["pimc", "expectimax"])
    p.add_argument("--hint-threads", type=int, default=2)
    p.add_argument("--current-threads", type=int, default=0,
                   help="the current build's solver suites with this many Solver threads (0: its default)")
    p.add_argument("--no-hint-check", dest="hint_check", action="store_false",
                   help="do not compare the hints' moves and values between the builds")
    p.add_argument("--timeout", type=float, default=900, help="seconds per measurement process")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        print(json.dumps(_worker(json.loads(args.worker))))
        return 0
    q = args.quick
    args.reps = args.reps if args.reps is not None else (3 if q else 5)
    args.rounds = args.rounds if args.rounds is not None else (60_000 if q else 300_000)
    args.solver_seconds = args.solver_seconds if args.solver_seconds is not None else (0.3 if q else 1.0)
    args.hint_positions = args.hint_positions if args.hint_positions is not None else (20 if q else 60)
    if args.reps < 1 or args.rounds < 1:
        p.error("--reps and --rounds must be at least 1")
    res = measure(args)
    summ = summarise(res)
    res["summary"] = summ
    text = markdown(res, summ)
    if args.json == "-":
        print(json.dumps(res, indent=1, default=str))
    else:
        if args.json:
            Path(args.json).write_text(json.dumps(res, indent=1, default=str))
        print(text, end="")
    return 1 if res["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
