"""Speed and stability of post-game analysis at the default budget.

For seeded whole games (2 players: hint v greedy; 4 players: hint and greedy
pairs), the time to analyse every seat, and how stable the judgement is: the
share of judged decisions whose mark changes when the analysis seed changes.

    python benchmarks/analysis_speed.py --games 3 --out benchmarks/results/analysis_speed.json
"""
from __future__ import annotations

import argparse
import json
import time

from fiveup_solver.analysis import AnalysisBudget, analyze
from fiveup_solver.selfplay import play_game


def measure(players: int, seed: int, budget: AnalysisBudget) -> dict:
    bots = ["hint", "greedy"] * (players // 2) if players != 3 else ["hint", "greedy", "greedy"]
    game = play_game(players, seed, bots)
    record = game.to_record()
    t = time.perf_counter()
    a = analyze(record, budget=budget, seed=1)
    seconds = time.perf_counter() - t
    b = analyze(record, budget=budget, seed=2)
    judged = [(x, y) for x, y in zip(a.decisions, b.decisions) if not x.forced]
    changed = sum(1 for x, y in judged if x.mark != y.mark)
    marked = sum(1 for x, y in judged if x.mark or y.mark)
    return {"players": players, "seed": seed, "rounds": len(record["rounds"]),
            "actions": sum(len(r["actions"]) for r in record["rounds"]), "judged": len(judged),
            "seconds": round(seconds, 2), "marks_changed": changed, "marked_either": marked,
            "mark_change_rate": round(changed / len(judged), 4) if judged else 0.0}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--players", default="2,4")
    ap.add_argument("--samples", type=int, default=AnalysisBudget().samples)
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    budget = AnalysisBudget(samples=args.samples)
    rows = [measure(int(p), 100 + k, budget) for p in args.players.split(",") for k in range(args.games)]
    for r in rows:
        print(json.dumps(r))
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"budget": budget.__dict__, "games": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
