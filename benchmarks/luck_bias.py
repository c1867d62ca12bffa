"""Is the analysis's deal luck centred on zero? Its mean over random deals, by seat.

    python benchmarks/luck_bias.py [--deals 40] [--first-seed 5000] [--states 0,1,2,3] [--json FILE]

The analysis values a seat's deal luck as its win probability once it has seen its
hand (``hint.position_value`` with the analysis's luck budget, PIMC) minus a value
before the deal. Over all deals that difference should average zero for every seat.
Two values before the deal are measured side by side:

- ``table``: the race-equity table's value at the round's start (the analysis
  before 2026-12-06), another valuation than the judge's;
- ``judge``: ``Hinter.deal_value``, the judge's own mean over random deals, made
  afresh for every deal as the analysis makes it for every round (its own seed).

For a few score states and the starter rotating over the seats, ``--deals`` random
deals (seeded) are valued from every seat; the report gives the mean deal luck of
the round's starter and of the other seats under each, with its standard error, and
the mean sum over the sides of the judge's win probabilities (1 if it were a
distribution: model beliefs search some opponents as greedy, which favours each
observer).
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
    ap.add_argument("--first-seed", type=int, default=5000, help="deal k is Game(seed=FIRST_SEED + k)")
    ap.add_argument("--states", default=None, help="only these states, by index (0-3), comma-separated")
    args = ap.parse_args(argv)
    budget = AnalysisBudget().luck_budget()
    hinter = Hinter()
    rows = []
    states = STATES if args.states is None else [STATES[int(i)] for i in args.states.split(",")]
    for players, scores in states:
        luck = {"table": ([], []), "judge": ([], [])}     # (the starter's, the other seats')
        sums = []
        for k in range(args.deals):
            starter = k % players
            g = Game(players=players, seed=args.first_seed + k, scores=list(scores), starter=starter)
            table = win_probabilities(players, list(scores), starter=starter)
            side_value = {}
            for seat in range(players):
                v = hinter.position_value(g.observation(seat), seed=k, budget=budget).value
                side = g.current.core.side_of(seat)
                side_value.setdefault(side, []).append(v)
                judge = hinter.deal_value(players, list(scores), seat, starter=starter, seed=90_000 + k,
                                          budget=budget).value
                role = 0 if seat == starter else 1
                luck["table"][role].append(v - table[side])
                luck["judge"][role].append(v - judge)
            sums.append(sum(statistics.mean(vs) for vs in side_value.values()))
        row = {"players": players, "scores": list(scores), "deals": args.deals, "sum_of_sides": mean_se(sums)}
        for name, (starter_luck, other_luck) in luck.items():
            row[name] = {"starter_luck": mean_se(starter_luck), "other_luck": mean_se(other_luck)}
        rows.append(row)
        print(f"{players} players at {scores[0]}:{scores[1]}, {args.deals} deals; the sides' values sum to "
              f"{row['sum_of_sides'][0]:.3f}", flush=True)
        for name in luck:
            r = row[name]
            print(f"  before the deal by the {name}: deal luck of the starter "
                  f"{100 * r['starter_luck'][0]:+.1f} +- {100 * r['starter_luck'][1]:.1f} win-%, of the others "
                  f"{100 * r['other_luck'][0]:+.1f} +- {100 * r['other_luck'][1]:.1f}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"luck_samples": budget.samples, "first_seed": args.first_seed, "rows": rows}, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
