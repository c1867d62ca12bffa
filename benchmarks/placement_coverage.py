"""How often a placement's 95 % interval holds the truth (``ladder.place_agent``'s fit).

    python benchmarks/placement_coverage.py [--runs 400] [--out benchmarks/results/placement_coverage.json]

A placement fits one agent's Elo against levels whose Elo are held at the shipped
2-player table's. Here the truth is known: simulated agents of a given Elo play
simulated duplicate pairs against the levels, each game won with the logistic
probability of the Elo difference (the two games of a pair drawn independently:
the model the interval assumes, without the duplicate's shared deals), and the
placement's interval either holds the agent's true Elo or not. Each scenario is
an agent's true Elo, the levels it plays and the games per level; each run draws
its own games (seeded). Reported per scenario: the share of runs whose interval
holds the truth (with its 95 % Wilson interval), how often the agent won or lost
every game (a one-sided answer), and the median width of the two-sided intervals.
The levels' own uncertainty widens every interval (the table's bootstrap), so the
intervals should hold the truth at least 95 % of the time.
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys

import numpy as np

from fiveup_solver.ladder import Placement, load_ladder
from fiveup_solver.selfplay import wilson_interval

SCENARIOS = [
    # (true Elo, levels played, games per level)
    (0.0, "all", 10), (250.0, "all", 10), (722.0, "all", 10), (900.0, "all", 10),
    (250.0, ["level3", "level4"], 40), (450.0, ["level5", "level6"], 40), (650.0, ["level7", "level8"], 40),
    (330.0, ["level3", "level4", "level5", "level6"], 200), (800.0, ["level8"], 200), (-100.0, ["level1"], 100),
    # mostly one-sided: every game won (lost) in most runs
    (1300.0, ["level1", "level2", "level3"], 10), (-400.0, ["level6", "level7", "level8"], 10),
]


def simulate(table, truth: float, levels: list, games: int, rng) -> dict:
    counts = {}
    for n in levels:
        p = 1.0 / (1.0 + 10.0 ** ((table.elo[n] - truth) / 400.0))
        wins = rng.binomial(1, p, size=(games // 2, 2)).sum(axis=1)       # 0, 1 or 2 of a pair's games
        counts[n] = [int(np.sum(wins == 0)), 0, int(np.sum(wins == 1)), 0, int(np.sum(wins == 2))]
    return counts


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=400, help="simulated placements per scenario")
    ap.add_argument("--resamples", type=int, default=200, help="the ladder's bootstrap refits per placement")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=None, help="write the results here (JSON)")
    args = ap.parse_args(argv)
    table = load_ladder(2)
    rng = np.random.default_rng(args.seed)
    rows = []
    for truth, levels, games in SCENARIOS:
        levels = list(table.entrants) if levels == "all" else levels
        held = one_sided = 0
        widths = []
        for run in range(args.runs):
            counts = simulate(table, truth, levels, games, rng)
            p = Placement("sim", 2, levels, counts, dict(table.elo), games, run).fit(table, args.resamples)
            lo, hi = p.ci95
            held += lo <= truth <= hi
            if math.isinf(p.elo):
                one_sided += 1
            else:
                widths.append(hi - lo)
        lo_ci, hi_ci = wilson_interval(held, args.runs)
        row = {"truth": truth, "levels": levels, "games_per_level": games, "runs": args.runs,
               "coverage": held / args.runs, "coverage_ci95": [lo_ci, hi_ci], "one_sided": one_sided,
               "median_width": statistics.median(widths) if widths else None}
        rows.append(row)
        print(f"truth {truth:+6.0f}  {len(levels)} levels x {games:>3} games: holds the truth in "
              f"{100 * row['coverage']:5.1f} % [{100 * lo_ci:.1f}, {100 * hi_ci:.1f}] of {args.runs} runs; "
              f"one-sided {one_sided}; median width "
              f"{'-' if row['median_width'] is None else round(row['median_width'])}", flush=True)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump({"command": "python benchmarks/placement_coverage.py " + " ".join(argv or sys.argv[1:]),
                       "rows": rows}, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
