"""How many of a seat's decisions fall in each phase of the round (the boneyard's size).

The exact yardstick (docs/exact.md) reaches positions with at most 6 tiles in the
boneyard; this counts how many of a seat's real choices (two or more placements)
a whole game puts there, to turn a loss per decision into a loss per game.

    python benchmarks/decisions_by_phase.py --games 200 --bots greedy,greedy
"""
from __future__ import annotations

import argparse
import statistics
import sys

from fiveup_solver.record import positions
from fiveup_solver.selfplay import play_game

PHASES = ((0, 0), (1, 2), (3, 4), (5, 6), (7, 18))


def count(record, seat: int) -> dict:
    out = {p: 0 for p in PHASES}
    for game, r, i in positions(record, check=False):
        if r is None or game.round_over or game.to_move != seat:
            continue
        if sum(1 for m in game.legal_moves if m.kind == "play") < 2:
            continue
        bone = game.observation(seat).boneyard_size
        out[next(p for p in PHASES if p[0] <= bone <= p[1])] += 1
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--bots", default="greedy,greedy")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    bots = a.bots.split(",")
    per_game = []
    for k in range(a.games):
        g = play_game(2, a.seed + k, bots)
        per_game.append(count(g.to_record(), 0))
    print(f"seat 0 ({bots[0]} against {bots[1]}), {a.games} games, decisions with 2+ placements per game:")
    for p in PHASES:
        xs = [c[p] for c in per_game]
        print(f"  boneyard {p[0]}-{p[1]}: mean {statistics.mean(xs):.2f} (sd {statistics.pstdev(xs):.2f})")
    late = [sum(c[p] for p in PHASES[:4]) for c in per_game]
    print(f"  boneyard 0-6 (the yardstick's reach): mean {statistics.mean(late):.2f}; "
          f"all: {statistics.mean(sum(c.values()) for c in per_game):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
