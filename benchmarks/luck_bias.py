"""Is the analysis's deal luck centred on zero? Its mean over random deals, by seat.

    python benchmarks/luck_bias.py [--deals 40] [--json FILE]

The analysis values a seat's deal luck as its win probability once it has seen its
hand (``hint.position_value`` with the analysis's luck budget, PIMC) minus the
race-equity table's value at the round's start (docs/analysis.md). Over all deals
that difference should average zero for every seat if the two valuations agree.
For a few score states and both starters, ``--deals`` random deals (seeded) are
valued from every seat; the report gives the mean deal luck of the round's starter
and of the other seats with its standard error, and the mean sum over the sides of
the judge's win probabilities (1 if it is a distribution).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys

from fiveup_solver import Game
from fiveup_solver.analysis import AnalysisBudget
from fiveup_solver.equity import win_probabilities
from fiveup_solver.hint import Hinter

STATES = [(2, (0, 0)), (2, (75, 85)), (2, (200, 150)), (4, (0, 0))]


def mean_se(xs) -> tuple:
    return statistics.mean(xs), statistics.stdev(xs) / len(xs) ** 0.5


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    budget = AnalysisBudget().luck_budget()
    hinter = Hinter()
    rows = []
    for players, scores in STATES:
        starter_luck, other_luck, sums = [], [], []
        for k in range(args.deals):
            starter = k % players
            g = Game(players=players, seed=5000 + k, scores=list(scores), starter=starter)
            table = win_probabilities(players, list(scores), starter=starter)
            side_value = {}
            for seat in range(players):
                v = hinter.position_value(g.observation(seat), seed=k, budget=budget).value
                side = g.current.core.side_of(seat)
                side_value.setdefault(side, []).append(v)
                (starter_luck if seat == starter else other_luck).append(v - table[side])
            sums.append(sum(statistics.mean(vs) for vs in side_value.values()))
        row = {"players": players, "scores": list(scores), "deals": args.deals,
               "starter_luck": mean_se(starter_luck), "other_luck": mean_se(other_luck),
               "sum_of_sides": mean_se(sums)}
        rows.append(row)
        print(f"{players} players at {scores[0]}:{scores[1]}, {args.deals} deals: deal luck of the starter "
              f"{100 * row['starter_luck'][0]:+.1f} +- {100 * row['starter_luck'][1]:.1f} win-%, of the others "
              f"{100 * row['other_luck'][0]:+.1f} +- {100 * row['other_luck'][1]:.1f}; the sides' values sum to "
              f"{row['sum_of_sides'][0]:.3f}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"luck_samples": budget.samples, "rows": rows}, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
