"""How much the opponent model learns of a greedy seat's hand (2 players).

Seeded rounds of greedy against greedy; at each decision of seat 0 with two or
more moves, the log-probability (nats) of the true location (seat 1's hand or
the boneyard) of every unseen tile, under the exact uniform marginals and
under the model's weighted marginals (512 worlds). Reported: the mean per
position of each, and the gain in bits. A model told the seat is greedy is
``--grid '(("credit", 3.0),)' --floor 0.005``.

    python benchmarks/beliefs_information.py --rounds 100
    python benchmarks/beliefs_information.py --rounds 100 --grid '(("credit", 3.0),)' --floor 0.005
"""
from __future__ import annotations

import argparse
import ast
import math
import random

from fiveup_solver import Game
from fiveup_solver.beliefs import DEFAULT_FLOOR, DEFAULT_GRID, Beliefs, OpponentModel
from fiveup_solver.bots import choose
from fiveup_solver.inference import BONEYARD, DealSampler


def measure(rounds: int, model: OpponentModel, worlds: int = 512) -> dict:
    total_uniform = total_model = 0.0
    positions = 0
    for k in range(rounds):
        g = Game(players=2, seed=1000 + k)
        rng = random.Random(k)
        while not g.round_over:
            seat = g.to_move
            obs = g.observation(seat)
            if seat == 0 and len(obs.legal_moves) > 1:
                ds = DealSampler(obs)
                uniform = ds._uniform_marginals()
                weighted = Beliefs(ds, model).weigh(worlds, seed=k * 1000 + len(g.current.moves)).marginals(ds)
                hand = {t.index for t in g.hand(1)}
                for tile in uniform:
                    where = 1 if tile.index in hand else BONEYARD
                    total_uniform += math.log(max(uniform[tile][where], 1e-12))
                    total_model += math.log(max(weighted[tile][where], 1e-12))
                positions += 1
            g.push(choose("greedy", obs, rng))
    return {"positions": positions, "uniform_nats": total_uniform / positions, "model_nats": total_model / positions,
            "gain_bits": (total_model - total_uniform) / positions / math.log(2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--grid", default=None, help="the model's (kind, beta) pairs as a Python literal")
    ap.add_argument("--floor", type=float, default=DEFAULT_FLOOR)
    args = ap.parse_args()
    grid = ast.literal_eval(args.grid) if args.grid else DEFAULT_GRID
    r = measure(args.rounds, OpponentModel(grid=grid, floor=args.floor))
    print(f"{r['positions']} positions: mean log-probability of the true locations {r['uniform_nats']:.3f} nats "
          f"(uniform), {r['model_nats']:.3f} (model); gain {r['gain_bits']:.3f} bits per position")


if __name__ == "__main__":
    main()
