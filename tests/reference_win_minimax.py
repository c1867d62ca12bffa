"""Independent pure-Python minimax oracle for the win objective.

Written from the issue's value definition, on tests/reference.py (the
independent rules), without looking at the solver:

* A line that makes a side reach exactly 305 is worth +1000 to that side's
  team (-1000 to the other team), whatever happened before on the line.
* A line on which the round ends without a game win is worth, to the root's
  team, 1000 x (P(root side wins) - P(some other side wins)) read off an
  equity table at the scores the round ends with: levels score // 5 clamped to
  0..60; the next starter is the seat that emptied its hand, or, after a
  block, drawn (the mean of the table over every starter side), rounded to
  the nearest integer and kept within -999..999.
* Teams as the points oracle: 2 sides with 2 or 4 players; 3 players
  paranoid (the root seat against the other two).  Plain minimax, no pruning.
"""
from __future__ import annotations

import numpy as np

try:
    from . import reference as R
    from . import reference_minimax as M
except ImportError:  # tests/ is not a package
    import reference as R
    import reference_minimax as M

WIN = 1000


def _root_side(players: int, root_seat: int) -> int:
    return R.side_of(players, root_seat) if players != 3 else root_seat


def leaf_value(win_table: np.ndarray, players: int, state: R.RoundState, root_seat: int) -> int:
    """Value for the root's team of a round that ended without a game win."""
    sides = 3 if players == 3 else 2
    levels = tuple(min(60, max(0, s // 5)) for s in state.scores)
    cell = win_table[levels]                              # starter side x winner side
    if state.end["end"] == "domino":
        seat = state.end["seat"]
        w = cell[R.side_of(players, seat) if players != 3 else seat]
    else:
        w = cell.mean(axis=0)
    r = _root_side(players, root_seat)
    v = float(w[r]) - sum(float(w[s]) for s in range(sides) if s != r)
    return int(max(-(WIN - 1), min(WIN - 1, round(WIN * v))))


def _value(state: R.RoundState, root_seat: int, table, budget) -> int:
    maximise = M._team_of(state.players, root_seat, state.turn) == 0
    best = None
    for move in state._legal():
        child = state.copy()
        child._do(move)
        if budget is not None:
            budget[0] -= 1
            if budget[0] < 0:
                raise M.TooBig()
        v = _line(child, root_seat, table, budget)
        if best is None or (v > best if maximise else v < best):
            best = v
    return best


def _line(child: R.RoundState, root_seat: int, table, budget) -> int:
    if child.winner is not None:
        return WIN * M._side_sign(child.players, root_seat, child.winner)
    if child.over:
        return leaf_value(table, child.players, child, root_seat)
    return _value(child, root_seat, table, budget)


def move_values(state: R.RoundState, table: np.ndarray, max_states: int | None = None) -> dict:
    """Every legal move of the seat to move -> its win-objective value for that seat's team
    (forced draws first, as the points oracle's move_values)."""
    budget = None if max_states is None else [max_states]
    if state.over:
        return {}
    root_seat = state.turn
    s = M.forced_draws(state)
    if s.over:
        return {}
    out = {}
    for a in s.legal_actions():
        child = s.copy()
        child.apply(a)
        out[M.move_string(a)] = _line(child, root_seat, table, budget)
    return out
