"""The search judge with max^n against paranoid on the journalled 3-player planted errors.

``benchmarks/planted_errors.py`` measured the search judge (paranoid, the default) on
planted 3-player errors against the playout loss (the reference: 150 paired playouts per
candidate with the default bot in every seat): a refused exact 305 was judged 27 to 36
win-% points worse than the playouts say. Under paranoid search the two other seats gang
up on the judged seat; under max^n (``AnalysisBudget(search="maxn")``) each plays for its
own win. This script re-judges the journal's 3-player decisions with both searches in the
same run (same worlds, same seed) and sets each against the journalled reference.

    python benchmarks/planted_maxn.py --journal benchmarks/results/planted_errors.jsonl \\
        --out benchmarks/results/planted_errors_maxn.jsonl
    python benchmarks/planted_maxn.py --summary benchmarks/results/planted_errors_maxn.jsonl
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fiveup_solver.analysis import AnalysisBudget, judge_decision  # noqa: E402
from planted_errors import planted_game  # noqa: E402

SEARCHES = ("paranoid", "maxn")


def rejudge(row: dict) -> dict:
    planted = planted_game(row["players"], row["kind"], row["seed"])
    if planted is None:
        raise SystemExit(f"seed {row['seed']} ({row['kind']}) no longer plants an error: the journal is stale")
    record, r, i, seat, scores = planted
    if (r, i, seat) != (row["round"], row["action"], row["seat"]):
        raise SystemExit(f"seed {row['seed']}: the planted decision moved ({r}, {i}, {seat}), journal stale")
    out = {k: row[k] for k in ("players", "kind", "seed", "round", "action", "seat", "scores", "played")}
    out["reference"] = {k: row["reference"][k] for k in ("loss_win", "stderr_win")}
    for search in SEARCHES:
        t = time.perf_counter()
        d = judge_decision(record, r, i, AnalysisBudget(search=search), seed=1)
        out[search] = {"best": d.best, "loss_win": d.loss_win, "stderr_win": d.stderr_win, "mark": d.mark,
                       "seconds": round(time.perf_counter() - t, 2)}
        out[f"{search}_minus_reference"] = round(d.loss_win - row["reference"]["loss_win"], 3)
    return out


def summary(path: str) -> str:
    rows = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
    lines = ["| kind | seed | scores | played | reference (win-%) | paranoid | max^n | paranoid - ref | max^n - ref |",
             "|---|---|---|---|---|---|---|---|---|"]
    for x in rows:
        f = lambda d: f"{d['loss_win']:.1f} ± {d['stderr_win']:.1f}"     # noqa: E731
        lines.append(f"| {x['kind']} | {x['seed']} | {'/'.join(map(str, x['scores']))} | {x['played']} | "
                     f"{f(x['reference'])} | {f(x['paranoid'])} | {f(x['maxn'])} | "
                     f"{x['paranoid_minus_reference']:+.1f} | {x['maxn_minus_reference']:+.1f} |")
    for kind in sorted({x["kind"] for x in rows}):
        k = [x for x in rows if x["kind"] == kind]
        mp = sum(abs(x["paranoid_minus_reference"]) for x in k) / len(k)
        mm = sum(abs(x["maxn_minus_reference"]) for x in k) / len(k)
        within = lambda s: sum(abs(x[f"{s}_minus_reference"]) <= 6 for x in k)   # noqa: E731
        lines.append(f"\n{kind}: {len(k)} errors; mean |judged - reference| paranoid {mp:.1f}, max^n {mm:.1f} "
                     f"win-% points; within 6: paranoid {within('paranoid')}, max^n {within('maxn')}")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--journal", default="benchmarks/results/planted_errors.jsonl")
    ap.add_argument("--out", default="benchmarks/results/planted_errors_maxn.jsonl")
    ap.add_argument("--summary", default=None, metavar="JOURNAL")
    a = ap.parse_args(argv)
    if a.summary:
        sys.stdout.write(summary(a.summary))
        return 0
    done = set()
    if os.path.exists(a.out):
        done = {(x["kind"], x["seed"]) for x in map(json.loads, open(a.out, encoding="utf-8")) if x}
    rows = [json.loads(line) for line in open(a.journal, encoding="utf-8") if line.strip()]
    for row in rows:
        if row["players"] != 3 or (row["kind"], row["seed"]) in done:
            continue
        out = rejudge(row)
        with open(a.out, "a", encoding="utf-8") as f:
            f.write(json.dumps(out) + "\n")
        print(out["kind"], out["seed"], "paranoid", out["paranoid_minus_reference"], "maxn",
              out["maxn_minus_reference"], flush=True)
    sys.stdout.write(summary(a.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
