"""Count the score steps that lower a side's chance in the shipped equity tables.

docs/equity.md ("Steps that are noise") quotes these counts: for each table, side 0's
win probability W when its own score rises by 5 (every other side's score and the
starter side fixed), the steps where W falls at all, by more than 1e-4 (above the
tables' uint16 rounding) and by more than 0.10, the own scores at which the larger falls happen, and the largest fall.
(From a review's script; reads the tables only, about a second.)

    python benchmarks/equity_monotone.py
"""
from __future__ import annotations

import sys
from collections import Counter

import numpy as np

from fiveup_solver.equity import SCORE_STEP, load_table


def own_score_steps(players: int):
    """W(side 0 at s + 5) - W(side 0 at s), for every state and starter side: an array
    whose first axis is side 0's score level s (0 .. 59)."""
    win = load_table(players).win              # (61,) * sides + (starter side, side)
    w0 = win[..., 0]                           # side 0's chance
    return w0[1:] - w0[:-1]


def report(players: int, out=sys.stdout) -> dict:
    d = own_score_steps(players)
    big = np.argwhere(d < -0.10)
    at = Counter(f"{int(i[0]) * SCORE_STEP} -> {int(i[0]) * SCORE_STEP + SCORE_STEP}" for i in big)
    worst = np.unravel_index(int(d.argmin()), d.shape)
    res = {"players": players, "steps": int(d.size), "falls": int((d < 0).sum()), "falls_1e-4": int((d < -1e-4).sum()),
           "falls_0.10": int(len(big)), "falls_0.10_at": dict(at), "worst": round(float(d.min()), 4),
           "worst_state": [int(x) * SCORE_STEP for x in worst[:-1]], "worst_starter_side": int(worst[-1])}
    out.write(f"{players} players: {res['falls']:,} of {res['steps']:,} own-score steps lower side 0's "
              f"chance, {res['falls_1e-4']:,} by more than 1e-4, {res['falls_0.10']:,} by more than 0.10 "
              f"(at {', '.join(f'{k}: {v}' for k, v in sorted(at.items())) or '-'}); "
              f"the largest fall {res['worst']} from {res['worst_state']} (raw, side 0 first), "
              f"starter side {res['worst_starter_side']}\n")
    return res


def main() -> int:
    for players in (2, 3, 4):
        report(players)
    return 0


if __name__ == "__main__":
    sys.exit(main())
