"""Search-judge variants re-judging the journalled planted errors, each set against the playout loss.

``benchmarks/planted_errors.py`` measured the search judge on planted errors against the
playout loss (the reference: 150 paired playouts per candidate with the default bot in
every seat). This script re-judges the journal's decisions with several search-judge
variants in the same run (same worlds, same seed) and sets each against the journalled
reference. A variant is a named :class:`~fiveup_solver.analysis.AnalysisBudget` change:

* ``paranoid`` / ``maxn``: the 3-player search (the two other seats ganging up, or each
  playing for its own win; 3-player errors only);
* ``pimc`` / ``pimc-uniform``: today's judge with model / uniform beliefs;
* ``expectimax`` / ``expectimax-uniform``: every later draw a chance node instead of a
  boneyard order fixed per world;
* ``rollout`` / ``rollout-round``: the rollout judge at its default 32 playouts per
  candidate, to the game's end or to the round's end valued by the race-equity table;
  ``rollout-round-150``: to the round's end with the reference's 150 playouts.

    python benchmarks/planted_judges.py --variants paranoid,maxn --players 3 \\
        --out benchmarks/results/planted_errors_maxn.jsonl
    python benchmarks/planted_judges.py --variants pimc,pimc-uniform,expectimax,expectimax-uniform \\
        --players 3,4 --out benchmarks/results/planted_errors_methods.jsonl
    python benchmarks/planted_judges.py --variants rollout,rollout-round --players 2,3,4 \\
        --out benchmarks/results/planted_errors_horizon.jsonl
    python benchmarks/planted_judges.py --summary benchmarks/results/planted_errors_methods.jsonl
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

VARIANTS = {"paranoid": {"search": "paranoid"}, "maxn": {"search": "maxn"},
            "pimc": {}, "pimc-uniform": {"beliefs": "uniform"},
            "expectimax": {"method": "expectimax"}, "expectimax-uniform": {"method": "expectimax", "beliefs": "uniform"},
            "rollout": {"judge": "rollout"}, "rollout-round": {"judge": "rollout", "rollout_horizon": "round"},
            "rollout-round-150": {"judge": "rollout", "rollout_horizon": "round", "rollouts": 150}}
WITHIN = 6.0     # the target: judged loss within 6 win-% points of the playout loss


def rejudge(row: dict, variants) -> dict:
    planted = planted_game(row["players"], row["kind"], row["seed"])
    if planted is None:
        raise SystemExit(f"seed {row['seed']} ({row['kind']}) no longer plants an error: the journal is stale")
    record, r, i, seat, scores = planted
    if (r, i, seat) != (row["round"], row["action"], row["seat"]):
        raise SystemExit(f"seed {row['seed']}: the planted decision moved ({r}, {i}, {seat}), journal stale")
    out = {k: row[k] for k in ("players", "kind", "seed", "round", "action", "seat", "scores", "played")}
    out["reference"] = {k: row["reference"][k] for k in ("loss_win", "stderr_win")}
    for name in variants:
        t = time.perf_counter()
        fields = dict(VARIANTS[name])
        if fields.get("judge", "search") == "search":     # the fixed search judge, as the journals were measured
            fields["min_samples"] = AnalysisBudget.samples
        d = judge_decision(record, r, i, AnalysisBudget(**fields), seed=1)
        out[name] = {"best": d.best, "loss_win": d.loss_win, "stderr_win": d.stderr_win, "mark": d.mark,
                     "seconds": round(time.perf_counter() - t, 2)}
        out[f"{name}_minus_reference"] = round(d.loss_win - row["reference"]["loss_win"], 3)
    return out


def summary(path: str) -> str:
    rows = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
    names = [v for v in VARIANTS if any(v in x for x in rows)]
    lines = ["| players | kind | seed | scores | played | reference (win-%) | "
             + " | ".join(names) + " | " + " | ".join(f"{v} - ref" for v in names) + " |",
             "|---" * (6 + 2 * len(names)) + "|"]
    f = lambda d: f"{d['loss_win']:.1f} ± {d['stderr_win']:.1f}"     # noqa: E731
    for x in rows:
        lines.append(f"| {x['players']} | {x['kind']} | {x['seed']} | {'/'.join(map(str, x['scores']))} | "
                     f"{x['played']} | {f(x['reference'])} | " + " | ".join(f(x[v]) for v in names) + " | "
                     + " | ".join(f"{x[f'{v}_minus_reference']:+.1f}" for v in names) + " |")
    lines += ["", "| players | kind | errors | variant | mean (judged - ref) | mean abs | within 6 | mean s.e. | mean s |",
              "|---" * 9 + "|"]
    for key in sorted({(x["players"], x["kind"]) for x in rows}):
        k = [x for x in rows if (x["players"], x["kind"]) == key]
        for v in names:
            d = [x[f"{v}_minus_reference"] for x in k]
            se = sum(x[v]["stderr_win"] for x in k) / len(k)
            secs = sum(x[v]["seconds"] for x in k) / len(k)
            lines.append(f"| {key[0]} | {key[1]} | {len(k)} | {v} | {sum(d) / len(d):+.1f} | "
                         f"{sum(map(abs, d)) / len(d):.1f} | {sum(abs(e) <= WITHIN for e in d)} / {len(d)} | "
                         f"{se:.1f} | {secs:.1f} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--journal", default="benchmarks/results/planted_errors.jsonl")
    ap.add_argument("--out", default="benchmarks/results/planted_errors_maxn.jsonl")
    ap.add_argument("--variants", default="paranoid,maxn", help=f"comma-separated, of {', '.join(VARIANTS)}")
    ap.add_argument("--players", default="3", help="the planted errors' player counts, e.g. 3,4")
    ap.add_argument("--summary", default=None, metavar="JOURNAL")
    a = ap.parse_args(argv)
    if a.summary:
        sys.stdout.write(summary(a.summary))
        return 0
    variants = a.variants.split(",")
    bad = [v for v in variants if v not in VARIANTS]
    if bad:
        ap.error(f"unknown variant {bad[0]!r} (known: {', '.join(VARIANTS)})")
    players = {int(p) for p in a.players.split(",")}
    done = set()
    if os.path.exists(a.out):
        done = {(x["players"], x["kind"], x["seed"]) for x in map(json.loads, open(a.out, encoding="utf-8")) if x}
    rows = [json.loads(line) for line in open(a.journal, encoding="utf-8") if line.strip()]
    for row in rows:
        if row["players"] not in players or (row["players"], row["kind"], row["seed"]) in done:
            continue
        out = rejudge(row, variants)
        with open(a.out, "a", encoding="utf-8") as f:
            f.write(json.dumps(out) + "\n")
        print(out["players"], out["kind"], out["seed"],
              *(f"{v} {out[f'{v}_minus_reference']:+.1f}" for v in variants), flush=True)
    sys.stdout.write(summary(a.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
