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


def _line(parent, child, objective, table, budget, greedy=()):
    """(vector of the action parent -> child and best play after it, is it a win line?)."""
    if child.winner is not None:
        return win_vector(objective, child.winner), True
    gain = _gain_vector(parent, child) if objective == "points" else (0, 0, 0)
    if child.over:
        base = (0, 0, 0) if objective == "points" else leaf_vector(table, child)
        return tuple(b + d for b, d in zip(base, gain)), False
    vec, won = _best(child, objective, table, budget, greedy)
    if won:
        return vec, True
    return tuple(b + d for b, d in zip(vec, gain)), False


def _greedy_mean(cands, objective):
    """A greedy seat's coin among its tied moves: the mean vector (entries truncated
    toward zero in internal units), a win line only when every move is the same win."""
    if len(cands) == 1:
        return cands[0]
    if all(c[1] for c in cands) and all(c[0] == cands[0][0] for c in cands):
        return cands[0]
    unit = 2 if objective == "points" else 1
    return tuple(_trunc_mean([c[0][s] for c in cands], unit) for s in range(3)), False


def _best(state, objective, table, budget, greedy=()):
    """greedy: seats that play M.greedy_moves only, uniformly at random among them."""
    greedy_now = state.turn in greedy
    steps = M.greedy_moves(state) if greedy_now else state._legal()
    cands = []
    for step in steps:
        child = state.copy()
        child._do(step)
        if budget is not None:
            budget[0] -= 1
            if budget[0] < 0:
                raise M.TooBig()
        cands.append(_line(state, child, objective, table, budget, greedy))
    assert cands, "no legal action in a state that is not over"
    if greedy_now:
        return _greedy_mean(cands, objective)
    best = None
    for cand in cands:
        if best is None or _key(cand[0], state.turn) > _key(best[0], state.turn):
            best = cand
    return best


def move_vectors(state: R.RoundState, objective: str = "points", table=None, max_states=None, greedy=()) -> dict:
    """Every legal move of the seat to move (after its forced draws) -> the vector of
    playing it, from the current scores on (as reference_minimax.move_values);
    greedy: other seats that play greedy (their tied moves averaged)."""
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
        out[M.move_string(action)] = _line(s, child, objective, table, budget, greedy)[0]
    return out


def root_vector(state: R.RoundState, objective: str = "points", table=None) -> tuple:
    """The vector of the position (the mover's tie-break choice among its moves)."""
    vecs = move_vectors(state, objective, table)
    seat = state.turn
    return max(vecs.values(), key=lambda v: _key(v, seat))


# ---------------------------------------------------------------- expectimax (one world, draws as chance)
# One world: every hand known, the boneyard's tiles known but not their order.
# A seat that cannot place draws: each tile left is equally likely; the chance
# node's vector is the mean of its outcomes' vectors, each entry truncated
# toward zero to a whole number of internal units (half points under
# "points", 1 under "win"); it is a win line only when every outcome is the
# same win line. A drawn tile that fits is placed at once (its ports are the
# seat's choice). Decision nodes and the tie-break as above.

def _trunc_mean(values, unit) -> float:
    scaled = [round(v * unit) for v in values]
    s, n = sum(scaled), len(scaled)
    q = s // n if s >= 0 else -((-s) // n)
    return q / unit


def _draw(state, tile):
    try:
        from . import reference_expectimax as E
    except ImportError:
        import reference_expectimax as E
    return E.draw_tile(state, tile)


def _line_e(parent, child, objective, table, greedy=()):
    if child.winner is not None:
        return win_vector(objective, child.winner), True
    gain = _gain_vector(parent, child) if objective == "points" else (0, 0, 0)
    if child.over:
        base = (0, 0, 0) if objective == "points" else leaf_vector(table, child)
        return tuple(b + d for b, d in zip(base, gain)), False
    vec, won = _node_e(child, objective, table, greedy)
    if won:
        return vec, True
    return tuple(b + d for b, d in zip(vec, gain)), False


def _node_e(state, objective, table, greedy=()):
    moves = state._legal()
    if moves[0][0] == "draw":
        unit = 2 if objective == "points" else 1
        outs = [_line_e(state, _draw(state, t), objective, table, greedy) for t in state.boneyard_left()]
        vec = tuple(_trunc_mean([o[0][s] for o in outs], unit) for s in range(3))
        won = all(w for _, w in outs) and all(o[0] == outs[0][0] for o in outs)
        return (outs[0][0], True) if won else (vec, False)
    if state.turn in greedy:
        cands = []
        for move in M.greedy_moves(state):
            child = state.copy()
            child._do(move)
            cands.append(_line_e(state, child, objective, table, greedy))
        return _greedy_mean(cands, objective)
    best = None
    for move in moves:
        child = state.copy()
        child._do(move)
        cand = _line_e(state, child, objective, table, greedy)
        if best is None or _key(cand[0], state.turn) > _key(best[0], state.turn):
            best = cand
    return best


def expectimax_move_vectors(state: R.RoundState, objective: str = "points", table=None, greedy=()) -> dict:
    """Every placement of the seat to move (which must be able to place) -> its
    expectimax max^n vector in this world (draws as chance nodes)."""
    assert state.players == 3 and not state.over
    acts = state.legal_actions()
    assert acts and "play" in acts[0], "the seat to move must be able to place"
    out = {}
    for a in acts:
        child = state.copy()
        child.apply(a)
        out[M.move_string(a)] = _line_e(state, child, objective, table, greedy)[0]
    return out
