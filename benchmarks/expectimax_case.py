"""Issue 21's expectimax case, world by world (docs/expectimax_case.md).

tests/data/expectimax_disagrees.json, round 9 before action 28, seat 1: for each
of the 4 hidden worlds, the hint's expectimax world search at full width and no
budget, then at node budgets (the completed depth, nodes, two moves' values);
then the hint itself (48 worlds, seeds 0-2) at the same budgets.

    python benchmarks/expectimax_case.py                  # about 10 s
    python benchmarks/expectimax_case.py --budgets 20000 150000
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

MOVES = ("4-4@2-4:high", "0-0@0-2:low", "1-4@2-4:high", "0-4@0-2:low", "0-4@2-4:high")


def main(argv=None) -> None:
    from fiveup_solver.hint import Hinter
    from fiveup_solver.record import observation_at
    from positions import build_game
    import test_expectimax_case as case

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budgets", type=int, nargs="+", default=[20_000, 40_000, 60_000, 150_000])
    ap.add_argument("--width", type=int, default=6, help="chance width (default 6, the hint's)")
    args = ap.parse_args(argv)
    print("moves:", " ".join(MOVES))
    for opp in case.WORLDS:
        g = build_game(case.world_spec(opp))
        status, depth, nodes, v = case._search(g, 0, 28)
        print(f"world {opp}: full width, no budget: {nodes:,} nodes, "
              + " ".join(f"{v[m]:+.0f}" for m in MOVES))
        for budget in args.budgets:
            status, depth, nodes, v = case._search(g, budget, args.width)
            print(f"  {budget:>8,} nodes, width {args.width}: {'exact' if status == 2 else 'cut'} depth {depth:>2}, "
                  + " ".join(f"{v[m]:+.0f}" for m in MOVES))
    obs = observation_at(case._record(), case.SEAT, case.ROUND, case.ACTION)
    hinter = Hinter(threads=1)
    for budget in args.budgets:
        for seed in (0, 1, 2):
            t = time.perf_counter()
            h = hinter.hint(obs, method="expectimax", beliefs="uniform", objective="points", world_nodes=budget,
                            chance_width=args.width, seed=seed, both=False)
            v = {str(m.move): m.value for m in h.moves}
            print(f"hint {budget:>8,} seed {seed}: best {h.best}, " + " ".join(f"{v[m]:+.1f}" for m in MOVES)
                  + f"  ({h.exact_worlds}/48 worlds exact, {h.nodes:,} nodes, {time.perf_counter() - t:.2f} s)")


if __name__ == "__main__":
    main()
