"""Independent pure-Python expectimax oracle for the hint's world search.

Built only on tests/reference.py (the independent rules) and the value
definition of tests/reference_minimax.py, extended with chance nodes:

* One *world*: every hand is known, the boneyard's tiles are known but not
  their order.
* Teams as in reference_minimax: 2 or 4 players the root seat's side against
  the other side; 3 players the root seat alone against the two others
  (paranoid).  Values are for the root's team.
* The value of an action (from the state before it) is the raw points the
  root's team gains from ACCEPTED scoring events caused by it, minus the
  other team's, plus the value of the state after it.  An accepted event that
  makes a side's score exactly 305 ends the game: the action is then worth
  +1000 (root's team) or -1000 (other team), and points gained earlier on the
  line are dropped. The recursion carries the points banked from the root
  (``base``): a line's value is its points from the root, or +-1000 instead of
  them, so a chance node averages what each line is worth from the root (a
  review: adding the banked points to an average that mixes wins counted them
  on the winning outcomes too).
* Decision node (the seat to move can place): max over its placements for a
  seat of the root's team, min for the others.  After a draw of a placeable
  tile the reference rules only offer that tile's placements (RULES §5.2).
* Chance node (the seat to move cannot place, the boneyard is not empty): it
  draws; each tile left in the boneyard is equally likely.  The node's value is
  the average of the outcome values TRUNCATED TOWARD ZERO to an integer; it is
  a win line (is_win) only when every outcome is a win line of the same sign
  (the average is then exactly +-1000).  A draw can itself end the round
  (drawing the last tile may block it: its block events are the outcome's gain).
* Pass (cannot place, boneyard empty, round not blocked): a forced single child.

Plain recursion on purpose: no pruning, no table, no memo.  Keep positions
small (a few tiles in hands, at most ~4 in the boneyard).
"""
from __future__ import annotations

try:
    from . import reference as R
    from . import reference_minimax as M
except ImportError:  # tests/ is not a package: pytest puts tests/ on sys.path
    import reference as R
    import reference_minimax as M

WIN = 1000


# budget / statistics list: [states left, then counters]
_CHANCE, _INEXACT, _NEG_INEXACT, _MIXED_WIN, _REJECTED = 1, 2, 3, 4, 5
STAT_NAMES = ("chance", "inexact", "neg_inexact", "mixed_win", "rejected")


class TooBig(Exception):
    """More states than allowed were visited (only guards the running time)."""


def trunc_div(s: int, n: int) -> int:
    """s / n truncated toward zero (exact integers, no floats)."""
    return s // n if s >= 0 else -((-s) // n)


def draw_tile(state: R.RoundState, tile: str) -> R.RoundState:
    """A copy of `state` in which the seat to move draws `tile` (any tile still in
    the boneyard): the remaining boneyard is reordered so `tile` comes next."""
    left = state.boneyard_left()
    assert tile in left, (tile, left)
    assert state._legal()[0][0] == "draw", "only a seat that cannot place draws"
    c = state.copy()
    rest = list(left)
    rest.remove(tile)
    # RoundState.copy() shares the boneyard list: give the copy its own
    c.boneyard = list(state.boneyard[:state.drawn]) + [tile] + rest
    c._do(("draw", tile, None))
    return c


def _gain(parent: R.RoundState, child: R.RoundState, root: int) -> int:
    n = parent.players
    return sum(M._side_sign(n, root, side) * (after - before)
               for side, (before, after) in enumerate(zip(parent.scores, child.scores)))


def _line(parent, child, root, budget, greedy=(), base=0):
    """(value, is_win) for the root team of the action parent -> child, then best play:
    the points from the root (`base` banked before it), or +-WIN instead of them."""
    budget[0] -= 1
    if budget[0] < 0:
        raise TooBig()
    if any(not e["accepted"] for e in child.events[len(parent.events):]):
        budget[_REJECTED] += 1
    if child.winner is not None:
        return (WIN if M._side_sign(parent.players, root, child.winner) > 0 else -WIN), True
    # a line that is no win stays one: inside +-(WIN - 1)
    banked = max(-(WIN - 1), min(WIN - 1, base + _gain(parent, child, root)))
    if child.over:
        return banked, False
    return _node(child, root, budget, greedy, banked)


def _mean(outs):
    """The chance average of (value, is_win) outcomes: truncated toward zero, a win
    line only when every outcome is a win line of the same sign."""
    value = trunc_div(sum(v for v, _ in outs), len(outs))
    return value, all(w for _, w in outs) and abs(value) == WIN


def _node(state, root, budget, greedy=(), base=0):
    """(value, is_win) of a state that is not over, for the root team. Seats in
    `greedy` place for the largest accepted credit (M.greedy_moves), every tied
    concrete placement alike: the average of those lines, as a chance node."""
    moves = state._legal()
    if moves[0][0] == "draw":
        # chance node: every tile left in the boneyard equally likely
        left = state.boneyard_left()
        outs = [_line(state, draw_tile(state, t), root, budget, greedy, base) for t in left]
        total = sum(v for v, _ in outs)
        value = trunc_div(total, len(outs))
        is_win = all(w for _, w in outs) and abs(value) == WIN
        if len(left) > 1:
            budget[_CHANCE] += 1
            budget[_INEXACT] += total % len(outs) != 0
            budget[_NEG_INEXACT] += total < 0 and total % len(outs) != 0
            budget[_MIXED_WIN] += any(w for _, w in outs) and not is_win
        return value, is_win
    if state.turn in greedy and moves[0][0] == "play":
        outs = []
        for move in M.greedy_moves(state):
            child = state.copy()
            child._do(move)
            outs.append(_line(state, child, root, budget, greedy, base))
        return _mean(outs)
    maximise = M._team_of(state.players, root, state.turn) == 0
    best = None
    for move in moves:  # placements, or the single pass
        child = state.copy()
        child._do(move)
        cand = _line(state, child, root, budget, greedy, base)
        if best is None or (cand[0] > best[0] if maximise else cand[0] < best[0]):
            best = cand
    return best


def move_values(state: R.RoundState, max_states: int | None = None, stats: dict | None = None,
                greedy=()) -> dict[str, int]:
    """Every legal placement of the seat to move (which must be able to place)
    -> its expectimax value for that seat's side/team ('TILE@TARGET:PORT' keys).

    max_states (optional) only guards the running time: TooBig is raised once
    more states than that have been visited.  stats (optional dict) receives
    counts over the searched tree: "states" (actions searched), "chance" (chance
    nodes with 2+ outcomes), "inexact" (of them, averages that were truncated),
    "neg_inexact" (truncated negative averages), "mixed_win" (chance nodes with
    some outcomes, not all, that are win lines), "rejected" (actions with an
    event rejected by the exact-305 rule). greedy: other seats that play greedy
    (their tied placements averaged, see _node)."""
    assert not state.over
    acts = state.legal_actions()
    assert acts and "play" in acts[0], "the seat to move must be able to place"
    limit = 10 ** 18 if max_states is None else max_states
    budget = [limit] + [0] * len(STAT_NAMES)
    root = state.turn
    out = {}
    for a in acts:
        child = state.copy()
        child.apply(a)
        key = M.move_string(a)
        assert key not in out
        out[key] = _line(state, child, root, budget, greedy)[0]
    if stats is not None:
        stats["states"] = limit - budget[0]
        stats.update(zip(STAT_NAMES, budget[1:]))
    return out


def value(state: R.RoundState, root_seat: int | None = None) -> int:
    """Expectimax value of a state (not over) for the root team (default root:
    the seat to move).  Works for any state, draws and passes included."""
    assert not state.over
    root = state.turn if root_seat is None else root_seat
    return _node(state, root, [10 ** 18] + [0] * len(STAT_NAMES))[0]
