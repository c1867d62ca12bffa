"""Pure-Python negamax alpha-beta with a transposition table: the speed baseline.

Built only on the independent reference rules (tests/reference.py), like the
plain minimax oracle (tests/reference_minimax.py), and computing exactly the
same value as ``reference_minimax.minimax``:

* the value is for the side/team of the seat to move at the root: its accepted
  raw gains minus the other side's gains (3 players: paranoid, the root seat
  against the sum of the two others) from now to the end of the round;
* an accepted event that makes a side's score exactly 305 ends the game and
  makes the whole line +-1000 (gains earlier on the line are dropped);
* draws and passes are forced: nodes with a single child.

Search: fail-soft negamax alpha-beta.  A node's value is for the team of the
seat to move there.  A child reached by move m with immediate gain g (for the
mover's team) contributes f(w) = w if w is a win (|w| == WIN) else g + w, where
w is the child's value seen from the mover's team.  Every value that is not a
win is bounded by the 305 cap well inside (-WIN, WIN), so f is monotone on all
possible values and the child window is (alpha - g, beta - g), clamped so that
a +-WIN bound never crosses it (see _search).

Transposition table: a plain dict keyed by a canonical description of the state
(seat to move, hands as frozensets, the boneyard still to draw, scores, and the
open-port structure of the board, which is all the rest of the round depends
on) -> (lower, upper) bounds of its value.  Moves are ordered by immediate gain
(wins first); moves leading to the same canonical child are searched once.

Nodes: every state produced by applying a move counts 1 (the root counts 1).
``solve_value(state, node_limit)`` raises NodeLimit once more nodes than
node_limit were produced.
"""
from __future__ import annotations

try:
    from . import reference as R
except ImportError:  # tests/ is not a package: pytest puts tests/ on sys.path
    import reference as R

WIN = 1000


class NodeLimit(Exception):
    """The search produced more nodes than node_limit."""


def board_key(board: R.Board):
    """The open-port structure of the board, independent of which tiles made it.

    A non-double's open end of value v is (0, v); a double d-d whose line is not
    complete is (1, d, open line ports) (it counts 2d in the end sum); a double
    with a complete line is (2, d, open branch ports) (counts nothing).  The
    legal moves up to tile identities, the end sums and so every future score
    depend only on this multiset.  None for an empty board."""
    if not board.tiles:
        return None
    out = []
    for tile, ports in board.tiles.items():
        a, b = R.VALUES[tile]
        if a != b:
            if not ports["low"]:
                out.append((0, a, 0))
            if not ports["high"]:
                out.append((0, b, 0))
        else:
            line_open = (not ports["lineA"]) + (not ports["lineB"])
            if line_open:
                out.append((1, a, line_open))
            else:
                branch_open = (not ports["branchA"]) + (not ports["branchB"])
                if branch_open:
                    out.append((2, a, branch_open))
    out.sort()
    return tuple(out)


def state_key(state: R.RoundState):
    """Hashable canonical description of a (not over) state."""
    return (state.turn,
            tuple(frozenset(h) for h in state.hands),
            tuple(state.boneyard[state.drawn:]),
            tuple(state.scores),
            board_key(state.board))


class _Search:
    def __init__(self, players: int, root: int, node_limit):
        self.players = players
        self.root = root
        self.node_limit = node_limit
        self.nodes = 1
        self.table: dict = {}
        if players == 3:   # paranoid: the root seat (team 0) against the two others
            self.team = [0 if s == root else 1 for s in range(3)]
            self.side_team = self.team            # score sides are seats
        else:              # the two sides of the rules
            self.team = [R.side_of(players, s) for s in range(players)]
            self.side_team = [0, 1]

    def _children(self, state: R.RoundState):
        """[(order, child or None, gain, win, same team to move)], best first.
        win: +1/-1 when the move wins/loses the game for the mover's team."""
        me = self.team[state.turn]
        side_team = self.side_team
        out, seen = [], set()
        for move in state._legal():
            child = state.copy()
            child._do(move)
            self.nodes += 1
            if self.node_limit is not None and self.nodes > self.node_limit:
                raise NodeLimit(self.node_limit)
            if child.winner is not None:
                win = 1 if side_team[child.winner] == me else -1
                out.append((win * WIN, None, 0, win, True))
                continue
            gain = 0
            for side, (before, after) in enumerate(zip(state.scores, child.scores)):
                gain += (after - before) if side_team[side] == me else (before - after)
            if child.over:
                out.append((gain, None, gain, 0, True))
                continue
            key = state_key(child)
            if key in seen:   # the same state through another port of the same kind
                continue
            seen.add(key)
            out.append((gain, child, gain, 0, self.team[child.turn] == me))
        out.sort(key=lambda c: c[0], reverse=True)
        return out

    def search(self, state: R.RoundState, alpha: int, beta: int) -> int:
        """Fail-soft value of a state that is not over, for the team to move."""
        if alpha < -WIN:
            alpha = -WIN
        if beta > WIN:
            beta = WIN
        key = state_key(state)
        lo, hi = self.table.get(key, (-WIN, WIN))
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
        alpha0 = alpha
        best = -WIN - 1
        for _, child, gain, win, same in self._children(state):
            if win:
                cand = win * WIN
            elif child is None:          # the round ended with this move
                cand = gain
            else:
                # child window for w (the child's value seen from this team):
                # f(w) <= alpha iff w <= alpha - gain, f(w) >= beta iff w >= beta - gain,
                # with a +-WIN w kept strictly outside so that it is never cut wrongly
                a1 = min(alpha - gain, WIN - 1)
                b1 = max(beta - gain, -WIN + 1)
                w = self.search(child, a1, b1) if same else -self.search(child, -b1, -a1)
                cand = w if w == WIN or w == -WIN else gain + w
            if cand > best:
                best = cand
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        break
        assert best >= -WIN, "no legal move in a state that is not over"
        if best <= alpha0:
            hi = min(hi, best)
        elif best >= beta:
            lo = max(lo, best)
        else:
            lo = hi = best
        self.table[key] = (lo, hi)
        return best


def solve_value(state: R.RoundState, node_limit: int | None = None):
    """(value, nodes) of `state` for the side/team of the seat to move (the root
    seat of the paranoid teams with 3 players), as reference_minimax.minimax.
    A round that is over is worth 0.  Raises NodeLimit past node_limit nodes."""
    if state.over:
        return 0, 1
    s = _Search(state.players, state.turn, node_limit)
    return s.search(state, -WIN, WIN), s.nodes
