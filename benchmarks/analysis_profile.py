"""Where a whole-game analysis spends its time: cProfile at the default budget.

    python benchmarks/analysis_profile.py --players 2 [--game-seed 100] [--lines 35]

The game is ``benchmarks/analysis_compare.py``'s (the hint bot against greedy,
seed 100); ``analyze(record, budget=AnalysisBudget(), seed=1)`` runs under
cProfile, and the functions by cumulative time are printed, after the seconds
and the worlds the search judge searched.
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from fiveup_solver.analysis import AnalysisBudget, analyze
from fiveup_solver.selfplay import play_game


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--game-seed", type=int, default=100)
    ap.add_argument("--lines", type=int, default=35)
    args = ap.parse_args(argv)
    bots = ["hint", "greedy"] * (args.players // 2) if args.players != 3 else ["hint", "greedy", "greedy"]
    record = play_game(args.players, args.game_seed, bots).to_record()
    profile = cProfile.Profile()
    t = time.perf_counter()
    profile.enable()
    a = analyze(record, budget=AnalysisBudget(), seed=1)
    profile.disable()
    print(f"seconds {time.perf_counter() - t:.2f}, worlds {a.cost['worlds']}, judged {a.cost['judged']}")
    pstats.Stats(profile).sort_stats("cumulative").print_stats(args.lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
