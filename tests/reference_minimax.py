"""Independent pure-Python minimax oracle for the solver tests.

Built only on tests/reference.py (the independent rules) and the value
definition of the solver brief, written without looking at the solver:

* Two sides (2 players, or 4 players in the pairs 0+2 / 1+3).  The value of a
  position for the side S of the seat to move is the raw points S gains from
  ACCEPTED scoring events from now to the end of the round, minus the raw
  points the other side gains; both sides maximise their own value (zero-sum
  minimax).  Rejected events (above 305) gain nothing.  An accepted event that
  makes a side's score exactly 305 ends the game: the value of the whole line
  is then +1000 if that side is S, -1000 otherwise (points gained earlier on
  that line are ignored).
* 3 players: paranoid.  The root seat R is one team, the two other seats the
  other team; value for R = R's accepted gains - the SUM of the two others'
  accepted gains; an exact 305 by R is +1000, by another seat -1000.  R
  maximises, the other seats minimise R's value.
* Draws and passes are forced; they are nodes with a single child (a draw can
  itself end the round: drawing the last tile may block it).

Gains are read off the score differences before/after each action (the scores
are carried in the RoundState); a win is read off ``state.winner``.

Plain minimax on purpose: no pruning, no transposition table, no memo.  Keep
positions small (about 6-12 tiles in hands + boneyard).
"""
from __future__ import annotations

try:
    from . import reference as R
except ImportError:  # tests/ is not a package: pytest puts tests/ on sys.path
    import reference as R

WIN = 1000


class TooBig(Exception):
    """The game tree has more states than allowed (tree_size, move_values' max_states)."""


def _team_of(players: int, root_seat: int, seat: int) -> int:
    """0 for the root's side/team, 1 for the other side/team."""
    if players == 3:
        return 0 if seat == root_seat else 1
    return 0 if R.side_of(players, seat) == R.side_of(players, root_seat) else 1


def _side_sign(players: int, root_seat: int, side: int) -> int:
    """+1 for a score side on the root's team, -1 otherwise (score sides: seat%2 / seat)."""
    if players == 3:
        return 1 if side == root_seat else -1
    return 1 if side == R.side_of(players, root_seat) else -1


def _step(parent: R.RoundState, child: R.RoundState, root_seat: int):
    """(gain for the root team, won) of the action parent -> child.

    won is +1 / -1 when the action made the root team / the other team reach
    exactly 305 (then the gain is irrelevant), else 0."""
    n = parent.players
    if child.winner is not None:
        return 0, _side_sign(n, root_seat, child.winner)
    gain = 0
    for side, (before, after) in enumerate(zip(parent.scores, child.scores)):
        gain += _side_sign(n, root_seat, side) * (after - before)
    return gain, 0


def _line_value(parent: R.RoundState, child: R.RoundState, root_seat: int, budget=None, greedy=()) -> int:
    """Value for the root team of the action parent -> child followed by best play.

    A win anywhere on the line makes the whole line +-WIN (gains earlier on it
    are dropped), so the recursion returns (value, won) pairs and only adds a
    step's gain to a child value that is not a win."""
    return _line(parent, child, root_seat, budget, greedy)[0]


def _line(parent, child, root_seat, budget=None, greedy=()):
    gain, won = _step(parent, child, root_seat)
    if won:
        return WIN * won, True
    if child.over:
        return gain, False
    v, is_win = _best(child, root_seat, budget, greedy)
    # a line that is no win stays one (an average over a greedy seat's coin can mix
    # wins with points): its value is kept inside +-(WIN - 1)
    return (v, True) if is_win else (max(-(WIN - 1), min(WIN - 1, gain + v)), False)


def greedy_moves(state: R.RoundState) -> list:
    """The moves a greedy seat considers: the placements with the largest accepted
    credit (RULES §4.2: the end sum after the placement if positive and a multiple
    of 5, counted 0 when it would take the side above 305); draws and passes are
    forced anyway."""
    moves = state._legal()
    side = R.side_of(state.players, state.turn)
    credits = []
    for move in moves:
        child = state.copy()
        child._do(move)
        credit = R.placement_credit(child.end_sum)
        credits.append(credit if state.scores[side] + credit <= 305 else 0)
    top = max(credits)
    return [m for m, c in zip(moves, credits) if c == top]


def _best(state: R.RoundState, root_seat: int, budget=None, greedy=()):
    """(minimax value for the root team, is it a +-WIN line?) of a state not over.
    budget: None, or a one-element list of states still allowed (TooBig when spent).
    greedy: seats that play greedy_moves only, picking among them uniformly at random
    (the greedy bot's coin): their value is the mean of those lines, truncated toward
    zero, and a win line only when every one is the same win; the others play their best."""
    maximise = _team_of(state.players, root_seat, state.turn) == 0
    best = None
    cands = []
    for move in (greedy_moves(state) if state.turn in greedy else state._legal()):
        child = state.copy()
        child._do(move)
        if budget is not None:
            budget[0] -= 1
            if budget[0] < 0:
                raise TooBig()
        cand = _line(state, child, root_seat, budget, greedy)
        cands.append(cand)
        if best is None or (cand[0] > best[0] if maximise else cand[0] < best[0]):
            best = cand
    assert best is not None, "no legal move in a state that is not over"
    if state.turn in greedy and len(cands) > 1:
        if all(c == cands[0] for c in cands) and cands[0][1]:
            return cands[0]
        total = sum(c[0] for c in cands)
        mean = abs(total) // len(cands) * (1 if total >= 0 else -1)
        return mean, False
    return best


def _value_root(state: R.RoundState, root_seat: int) -> int:
    """Minimax value from now to the end of the round, for the root's team."""
    return _best(state, root_seat)[0]


def _own_sign(state: R.RoundState, root_seat: int) -> int:
    """+1 when the seat to move is on the root's team, -1 otherwise."""
    return 1 if _team_of(state.players, root_seat, state.turn) == 0 else -1


def minimax(state: R.RoundState, root_seat: int | None = None) -> int:
    """Value of `state` for the side/team of the seat to move.

    root_seat (default: the seat to move) only matters with 3 players: it fixes
    the paranoid teams (root seat vs the two others).  A round that is over is
    worth 0 (nothing more can be gained)."""
    if state.over:
        return 0
    if root_seat is None:
        root_seat = state.turn
    return _own_sign(state, root_seat) * _value_root(state, root_seat)


def move_string(action: dict) -> str:
    """Record action dict -> solver move string: 'TILE', 'TILE@TARGET:PORT' or 'pass'."""
    if "play" in action:
        tile = R.norm_tile(action["play"])
        at = action.get("at")
        return tile if at is None else f"{tile}@{R.norm_port(at)}"
    if action.get("pass") is True:
        return "pass"
    if "draw" in action:
        return "draw"
    raise ValueError(f"bad action {action!r}")


def forced_draws(state: R.RoundState) -> R.RoundState:
    """A copy of state after the forced draws of the seat to move (no choice in them)."""
    s = state.copy()
    while not s.over:
        moves = s._legal()
        if len(moves) == 1 and moves[0][0] == "draw":
            s._do(moves[0])
        else:
            break
    return s


def move_values(state: R.RoundState, max_states: int | None = None, greedy=()) -> dict[str, int]:
    """Every legal concrete move of the seat to move -> its value for that seat's side/team.

    If the seat must draw, the forced draws are performed first and the values are
    those of the drawn tile's placements (or {"pass": v} when the boneyard ran out
    without a playable tile and the round goes on).  If the round ends during the
    draws (or is already over), {}.

    max_states (optional) only guards the running time: TooBig is raised once
    more states than that have been visited (it never changes a value).
    greedy: seats other than the mover's that play greedy_moves only."""
    budget = None if max_states is None else [max_states]
    if state.over:
        return {}
    root_seat = state.turn
    s = forced_draws(state)
    if s.over:
        return {}
    assert s.turn == root_seat
    out = {}
    for move in s._legal():
        child = s.copy()
        child._do(move)
        val = _line_value(s, child, root_seat, budget, greedy)
        key = move_string(R._action_dict(root_seat, move))
        assert key not in out
        out[key] = val
    return out


def tree_size(state: R.RoundState, cap: int) -> int:
    """Number of states in the game tree below `state` (itself included), to pick
    positions small enough for plain minimax; raises TooBig above `cap`."""
    count = 0
    stack = [state]
    while stack:
        s = stack.pop()
        count += 1
        if count > cap:
            raise TooBig(cap)
        if s.over:
            continue
        for move in s._legal():
            child = s.copy()
            child._do(move)
            stack.append(child)
    return count
