"""How large boards are drawn on a phone in each layout (docs/serve.md, "Boards come in two layouts").

    python benchmarks/board_layout_scale.py [GAMES]

Seeded random self-play, GAMES (40) games each of 2 and 4 players, at most 4 rounds; every
fifth placement's board of every round is drawn in the wide layout (``svg.DEFAULT_BOUNDS``) and
the narrow one (``svg.NARROW_BOUNDS``). A board's scale is the share of its size it is shown at
in a 358 x 640 px box (a 390-px phone's board, its height bounded by the screen), at most 1.
Prints the least, 10th percentile and median scale per layout, the tiles drawn apart, and the
layout time.
"""
from __future__ import annotations

import re
import statistics
import sys
import time

from fiveup_solver.selfplay import play_game
from fiveup_solver.svg import DEFAULT_BOUNDS, NARROW_BOUNDS, board_svg

WIDTH, HEIGHT = 358, 640


def scale(svg: str) -> float:
    _, _, w, h = (float(v) for v in re.search(r'viewBox="([^"]*)"', svg).group(1).split())
    return min(WIDTH / w, HEIGHT / h, 1.0)


def main(argv=None) -> dict:
    games = int((argv if argv is not None else sys.argv[1:] or ["40"])[0])
    boards = []
    for players in (2, 4):
        for seed in range(7000, 7000 + games):
            g = play_game(players, seed, ["random"] * players, max_rounds=4)
            for r in g.rounds:
                moves = [m for _, m in r.moves if m.kind == "play"]
                boards += [moves[:n] for n in range(5, len(moves) + 1, 5)]
    out = {}
    for name, bounds in (("wide", DEFAULT_BOUNDS), ("narrow", NARROW_BOUNDS)):
        t0 = time.perf_counter()
        svgs = [board_svg(b, bounds=bounds) for b in boards]
        seconds = time.perf_counter() - t0
        sc = sorted(scale(s) for s in svgs)
        out[name] = {"boards": len(sc), "least": sc[0], "p10": sc[len(sc) // 10], "median": statistics.median(sc),
                     "detached": sum("data-detached" in s for s in svgs), "seconds": seconds}
        print(f"{name:6} {len(sc)} boards: scale least {sc[0]:.2f}, p10 {sc[len(sc) // 10]:.2f}, "
              f"median {statistics.median(sc):.2f}; {out[name]['detached']} drawn apart; {seconds:.1f} s")
    return out


if __name__ == "__main__":
    main()
