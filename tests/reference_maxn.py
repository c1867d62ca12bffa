"""Independent pure-Python max^n oracle (3 players) for the solver tests.

Built only on tests/reference.py (the independent rules) and the max^n value
definition of the issue (item 3 of issue 21), written without the solver's
code: plain max^n (Luckhardt and Irani), no pruning, no transposition table,
no memo. Keep positions small.

With 3 players every seat is its own side. A position's value is a vector
with one entry per side; the seat to move picks the action whose vector is
best for itself.

* objective "points": side s's entry is the raw points s gains from ACCEPTED
  scoring events from now to the end of the round minus the mean of the two
  other sides' gains. An accepted event that makes a side reach exactly 305
  ends the game: the whole line's vector is then +1000 for that side and
  -500 for each other side (a 1000-point gain in the same formula), whatever
  was gained before on the line.
* objective "win": an exact 305 is +1000 for that side and -1000 for the
  others. A round that ends without a game win is worth, to side s,
  round(1000 x (2 P(s) - sum of P)) from the equity table's win probabilities
  P at the scores the round ends with (levels score // 5, clamped to 0..60),
  the next starter being the seat that emptied its hand, or (after a block)
  drawn: the mean of P over the three starters; clamped to -999..999.
* Ties in the mover's entry: the vector whose two other entries add up to
  the least; then the one with the least entry for the next seat clockwise.
  (This fixes the vector; which of several moves with the same vector is
  played does not matter to any value.)
* Draws and passes are forced: one child.
"""
from __future__ import annotations

try:
    from . import reference as R
    from . import reference_minimax as M
except ImportError:  # tests/ is not a package
    import reference as R
    import reference_minimax as M

WIN = 1000


def win_vector(objective: str, side: int) -> tuple:
    lose = -WIN / 2 if objective == "points" else -WIN
    return tuple(WIN if s == side else lose for s in range(3))


def leaf_vector(table, state: R.RoundState) -> tuple:
    """Win objective: the vector of a round that ended without a game win."""
    levels = tuple(min(60, max(0, s // 5)) for s in state.scores)
    cell = table[levels]                             # starter side x winner side: P(winner wins)
    if state.end["end"] == "domino":
        p = cell[state.end["seat"]]
    else:
        p = cell.mean(axis=0)
    total = float(sum(p))
    return tuple(int(max(-(WIN - 1), min(WIN - 1, round(WIN * (2 * float(p[s]) - total))))) for s in range(3))


def _gain_vector(parent: R.RoundState, child: R.RoundState) -> tuple:
    g = [after - before for before, after in zip(parent.scores, child.scores)]
    return tuple(g[s] - (sum(g) - g[s]) / 2 for s in range(3))


def _key(vec: tuple, seat: int) -> tuple:
    """Larger is preferred by `seat`."""
    return (vec[seat], -(sum(vec) - vec[seat]), -vec[(seat + 1) % 3])


def _line(parent, child, objective, table, budget):
    """(vector of the action parent -> child and best play after it, is it a win line?)."""
    if child.winner is not None:
        return win_vector(objective, child.winner), True
    gain = _gain_vector(parent, child) if objective == "points" else (0, 0, 0)
    if child.over:
        base = (0, 0, 0) if objective == "points" else leaf_vector(table, child)
        return tuple(b + d for b, d in zip(base, gain)), False
    vec, won = _best(child, objective, table, budget)
    if won:
        return vec, True
    return tuple(b + d for b, d in zip(vec, gain)), False


def _best(state, objective, table, budget):
    best = None
    for action in state.legal_actions():
        child = state.copy()
        child.apply(action)
        if budget is not None:
            budget[0] -= 1
            if budget[0] < 0:
                raise M.TooBig()
        cand = _line(state, child, objective, table, budget)
        if best is None or _key(cand[0], state.turn) > _key(best[0], state.turn):
            best = cand
    assert best is not None, "no legal action in a state that is not over"
    return best


def move_vectors(state: R.RoundState, objective: str = "points", table=None, max_states=None) -> dict:
    """Every legal move of the seat to move (after its forced draws) -> the vector of
    playing it, from the current scores on (as reference_minimax.move_values)."""
    assert state.players == 3, "max^n here is for 3 players"
    assert objective == "points" or table is not None
    budget = None if max_states is None else [max_states]
    if state.over:
        return {}
    s = M.forced_draws(state)
    if s.over:
        return {}
    out = {}
    for action in s.legal_actions():
        child = s.copy()
        child.apply(action)
        out[M.move_string(action)] = _line(s, child, objective, table, budget)[0]
    return out


def root_vector(state: R.RoundState, objective: str = "points", table=None) -> tuple:
    """The vector of the position (the mover's tie-break choice among its moves)."""
    vecs = move_vectors(state, objective, table)
    seat = state.turn
    return max(vecs.values(), key=lambda v: _key(v, seat))
