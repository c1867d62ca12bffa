"""How much the order of the draws still to come moves a position's exact value.

    python benchmarks/draw_order_spread.py [POSITIONS] [ORDERS]

Issue 24's exact-bounds question (docs/results/performance.md, "What exact
bounds could save"): a bound for the search nodes that do not ask the table
(14 hand tiles or fewer with 4 players, draws still to come) would have to
be within about 20 raw of the exact value to pay. This asks how much of that
slack ignoring the draw order would take. The first POSITIONS (30) 4-player
openings of ``benchmarks/data/openings_4p.json`` are played at random (seed 7)
down to 14 hand tiles with a boneyard left; each is solved exactly (points,
``Solver.value``) with its own draw order and with ORDERS (12) random orders
of the tiles still to draw, the drawn ones kept. Prints a row a position and
the spread's quartiles; the rows go to
``benchmarks/results/draw_order_spread.json``.
"""
from __future__ import annotations

import json
import random
import statistics
import sys
from pathlib import Path

from fiveup_solver.game import Game
from fiveup_solver.notation import Tile
from fiveup_solver.solver import Solver

HERE = Path(__file__).resolve().parent


def held(g: Game) -> int:
    return sum(len(g.hand(s)) for s in range(g.players))


def main() -> None:
    positions = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    orders = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    entries = json.loads((HERE / "data" / "openings_4p.json").read_text())
    rng = random.Random(7)
    solver = Solver(tt_mb=16, objective="points", both=False)
    rows = []
    for i, entry in enumerate(entries[:positions]):
        rnd = entry["record"]["rounds"][0]
        hands = [[Tile.parse(t) for t in h] for h in rnd["hands"]]
        boneyard = [Tile.parse(t) for t in rnd["boneyard"]]

        def start(order):
            g = Game(players=4, deal=False)
            g.start_round(hands, order, rnd["starter"])
            return g

        g = start(boneyard)
        moves = []
        while not g.round_over and not (held(g) <= 14 and g.boneyard):
            moves.append(rng.choice(g.legal_moves))
            g.push(moves[-1])
        if g.round_over:
            continue
        left = list(g.boneyard)
        drawn = boneyard[: len(boneyard) - len(left)]
        value = solver.value(g)[0]
        values = [value]
        for _ in range(orders):
            order = left[:]
            rng.shuffle(order)
            h = start(drawn + order)
            for m in moves:
                h.push(m)
            values.append(solver.value(h)[0])
        rows.append({"opening": i, "held": held(g), "left": len(left), "value": value,
                     "max_minus_v": max(values) - value, "v_minus_min": value - min(values),
                     "range": max(values) - min(values)})
        print(rows[-1], flush=True)
    for key in ("max_minus_v", "v_minus_min", "range"):
        xs = sorted(r[key] for r in rows)
        print(f"{key}: median {statistics.median(xs)}, quartiles {xs[len(xs) // 4]} / {xs[3 * len(xs) // 4]}, "
              f"max {xs[-1]}, above 20 raw {sum(x > 20 for x in xs)} of {len(xs)}")
    (HERE / "results" / "draw_order_spread.json").write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
