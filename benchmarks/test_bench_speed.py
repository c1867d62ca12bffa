"""Speed where users wait (issue 24): what `fiveup solve` adds, both currencies in a
hint, and, against a baseline build, the 4-player openings in the same run.

    pytest benchmarks/test_bench_speed.py --benchmark-enable
    FIVEUP_BASELINE=/path/to/baseline/tree pytest benchmarks/test_bench_speed.py --benchmark-enable

``extra_info`` holds the ratios. The baseline comparison needs a built tree of
the earlier code (``git worktree add --detach ../baseline main`` and
``python setup.py build_ext --inplace`` in it); without FIVEUP_BASELINE it is
skipped. `benchmarks/compare_builds.py` and `benchmarks/cli_solve_speed.py`
run the full comparisons.
"""
import io
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import DATA
from fiveup_solver.bench import both_currencies_paired, load_hint_suite, load_suite, run_hint_suite
from fiveup_solver.cli import main
from fiveup_solver.solver import Solver


def test_cli_solve_adds_little(benchmark, tmp_path):
    """`fiveup solve` (default objective, both currencies) in this process, against the
    points-only solve of the same 2-player opening; the values must agree."""
    p = json.loads((DATA / "openings_2p.json").read_text())[0]
    path = tmp_path / "opening.json"
    path.write_text(json.dumps(p["record"]))
    out = io.StringIO()

    def cli():
        out.seek(0)
        out.truncate()
        sys_stdout, sys.stdout = sys.stdout, out
        try:
            assert main(["solve", str(path), "--round", "0", "--action", "0", "--json"]) == 0
        finally:
            sys.stdout = sys_stdout
        return json.loads(out.getvalue())

    res = benchmark.pedantic(cli, rounds=3, iterations=1)
    game = load_suite(DATA / "openings_2p.json")[0]
    solver = Solver(both=False)             # made outside the timing, as the CLI's is
    t0 = time.perf_counter()
    alone = solver.solve(game)
    core_ms = 1000 * (time.perf_counter() - t0)
    assert res["values"] == alone.values and res["value"] == alone.value
    assert set(res["win"]) == set(alone.values)
    benchmark.extra_info.update({"cli_solve_ms": round(1000 * res["seconds"], 3),
                                 "points_only_solve_ms": round(core_ms, 3),
                                 "added_ms": round(1000 * res["seconds"] - core_ms, 3)})


@pytest.mark.parametrize("method", ["pimc", "alphamu"])
def test_hint_both_currencies_against_one(benchmark, method):
    """Both currencies against the default one on the same positions, in one run: one
    reusable Hinter, an untimed warm-up, then per position the two alternately, fastest of
    3 each (``fiveup_solver.bench.both_currencies_paired``, as
    benchmarks/both_currencies_time.py does; a review saw single passes of each, one
    after the other, read 0.88). The win currency of the two must be identical (the
    same worlds, the same search). alphamu: the suite's 2-player positions (its second
    currency follows the first's leaves)."""
    obs = [o for o, _ in load_hint_suite(DATA / "hint_positions.json") if method == "pimc" or o.players == 2]
    obs = obs[::10] if method == "pimc" else obs[::4]
    pair = benchmark.pedantic(both_currencies_paired, args=(obs,), kwargs={"method": method, "reps": 3},
                              rounds=1, iterations=1)
    single, both = pair["one"], pair["both"]
    assert both["worlds"] == single["worlds"] and both["exact_worlds"] == single["exact_worlds"]
    benchmark.extra_info.update({"positions": len(obs), "single_ms_median": single["ms"]["median"],
                                 "both_ms_median": both["ms"]["median"],
                                 "both_to_single": pair["ratio_of_medians"],
                                 "both_to_single_paired": pair["ratio_paired"],
                                 "both_to_single_nodes": pair["node_ratio"], "max_rss_mb": both["max_rss_mb"]})


WORKER = r"""
import json, sys, time
from fiveup_solver.bench import load_suite, run_solver_suite
games = load_suite(sys.argv[1])[: int(sys.argv[2])]
r = run_solver_suite(games, "value")
print(json.dumps({"values": r["values"], "ms_median": r["ms"]["median"], "ms_p95": r["ms"]["p95"],
                  "seconds": r["ms"]["mean"] * r["positions"] / 1000, "max_rss_mb": r.get("max_rss_mb")}))
"""


def _run(tree, n):
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run([sys.executable, "-c", WORKER, str(DATA / "openings_4p.json"), str(n)], cwd=tree,
                          env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-500:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_openings_4p_against_baseline(benchmark):
    baseline = os.environ.get("FIVEUP_BASELINE")
    if not baseline or not (Path(baseline) / "fiveup_solver" / "__init__.py").is_file():
        pytest.skip("set FIVEUP_BASELINE to a built tree of the earlier code")
    current = Path(__file__).resolve().parent.parent
    n = 40
    pairs = []

    def interleaved():
        pairs.append((_run(baseline, n), _run(current, n)))
        return pairs[-1]

    benchmark.pedantic(interleaved, rounds=3, iterations=1)
    for b, c in pairs:
        assert b["values"] == c["values"]
    ratio = statistics.median(c["seconds"] / b["seconds"] for b, c in pairs)
    benchmark.extra_info.update({
        "positions": n, "ratio_seconds_current_to_baseline": round(ratio, 3),
        "baseline_ms_median": statistics.median(b["ms_median"] for b, _ in pairs),
        "current_ms_median": statistics.median(c["ms_median"] for _, c in pairs),
        "baseline_ms_p95": statistics.median(b["ms_p95"] for b, _ in pairs),
        "current_ms_p95": statistics.median(c["ms_p95"] for _, c in pairs)})
