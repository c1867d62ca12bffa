"""What the second currency's horizon costs in accuracy and saves in work (issue 24).

    python benchmarks/currency_horizon.py [--positions N] [--method pimc|expectimax|alphamu] [--out FILE.json]

A hint with both currencies searches the second objective in each world no deeper
than the first reached there where the node budget cut it (``_hint.WorldSearch``
``depth_of``; alphamu: each leaf of its tree to the first's horizon there,
``_alphamu.AlphaMuSearch`` ``follow``). On the hint suite (benchmarks/data/hint_positions.json, default
budget, seed 1, 2 threads) this compares, per position and objective:

* the second currency of a both-currency hint against a separate single-currency
  hint of that objective (searched as deep as its own budget goes), per move:
  the absolute difference, and the same difference over the separate hint's
  standard error of that move;
* whether the second currency's best move is the same;
* the nodes of the second search against the separate hint's, and the time of a
  both-currency hint against a single-currency one (median over positions,
  measured alternately in this run).

Writes JSON (with ``--out``) and prints a Markdown summary.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fiveup_solver.bench import load_hint_suite  # noqa: E402
from fiveup_solver.hint import Hinter  # noqa: E402

UNIT = {"win": 100.0, "points": 1.0}        # win in win-% points


def measure(positions: int, method: str, seed: int) -> dict:
    # alphamu: the suite's 2-player positions (the players it searches)
    suite = [(o, p) for o, p in load_hint_suite(ROOT / "benchmarks" / "data" / "hint_positions.json")
             if method != "alphamu" or o.players == 2][:positions]
    hinter = Hinter(threads=2)
    out = {"positions": len(suite), "method": method, "seed": seed, "by_objective": {}}
    for objective in ("win", "points"):
        other = "points" if objective == "win" else "win"
        diffs, ratios, same_best, nodes_both, nodes_single, nodes_second = [], [], 0, 0, 0, 0
        t_both, t_single = [], []
        for obs, _ in suite:
            single = hinter.hint(obs, method=method, seed=seed, objective=objective, both=False)
            both = hinter.hint(obs, method=method, seed=seed, objective=objective)
            alone = hinter.hint(obs, method=method, seed=seed, objective=other, both=False)
            t_single.append(single.seconds)
            t_both.append(both.seconds)
            nodes_single += single.nodes
            nodes_both += both.nodes
            nodes_second += alone.nodes
            by_move = {m.move: m for m in both.moves}
            for m in alone.moves:
                d = abs(getattr(by_move[m.move], other) - m.value) * UNIT[other]
                diffs.append(d)
                if m.stderr:
                    ratios.append(d / (m.stderr * UNIT[other]))
            second_best = max(both.moves, key=lambda m: getattr(m, other))
            top = max(m.value for m in alone.moves)
            same_best += second_best.move in {m.move for m in alone.moves if m.value == top}
        out["by_objective"][objective] = {
            "second": other,
            "moves": len(diffs),
            "abs_diff_mean": round(statistics.fmean(diffs), 4),
            "abs_diff_p95": round(sorted(diffs)[int(0.95 * (len(diffs) - 1))], 4),
            "abs_diff_max": round(max(diffs), 4),
            "identical_moves": sum(1 for d in diffs if d == 0),
            "diff_over_stderr_mean": round(statistics.fmean(ratios), 4) if ratios else None,
            "diff_over_stderr_p95": round(sorted(ratios)[int(0.95 * (len(ratios) - 1))], 4) if ratios else None,
            "same_best_second": same_best,
            "second_nodes_over_separate": round((nodes_both - nodes_single) / nodes_second, 4),
            "both_over_single_median_ms": round(statistics.median(t_both) / statistics.median(t_single), 4),
            "both_over_single_mean_ms": round(statistics.fmean(t_both) / statistics.fmean(t_single), 4),
            "median_ms": {"single": round(1000 * statistics.median(t_single), 3),
                          "both": round(1000 * statistics.median(t_both), 3)},
        }
    return out


def markdown(r: dict) -> str:
    lines = [f"{r['positions']} hint-suite positions, {r['method']}, default budget, seed {r['seed']}",
             "",
             "| objective (second) | moves | identical | mean abs diff | p95 | max | diff / stderr mean (p95) "
             "| same best | second nodes / separate | both / single ms median (mean) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for obj, s in r["by_objective"].items():
        unit = "win-%" if s["second"] == "win" else "points"
        lines.append(f"| {obj} ({s['second']}) | {s['moves']} | {s['identical_moves']} | {s['abs_diff_mean']} {unit} "
                     f"| {s['abs_diff_p95']} | {s['abs_diff_max']} | {s['diff_over_stderr_mean']} "
                     f"({s['diff_over_stderr_p95']}) | {s['same_best_second']}/{r['positions']} "
                     f"| {s['second_nodes_over_separate']} | {s['both_over_single_median_ms']} "
                     f"({s['both_over_single_mean_ms']}) |")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--method", default="pimc", choices=("pimc", "expectimax", "alphamu"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path)
    a = ap.parse_args(argv)
    if a.positions < 1:
        ap.error("--positions must be at least 1")
    t0 = time.perf_counter()
    r = measure(a.positions, a.method, a.seed)
    r["seconds"] = round(time.perf_counter() - t0, 1)
    if a.out:
        a.out.write_text(json.dumps(r, indent=1) + "\n")
    print(markdown(r))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
