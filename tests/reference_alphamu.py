"""Independent oracle for alphamu (fiveup_solver._alphamu), points objective, 2 players.

Written from the method's definition (docs/alphamu.md; Cazenave and Ventos,
arXiv 1911.07960) on the reference rules (``tests/reference.py``) and the
reference minimax (``tests/reference_minimax.py``); it shares no code with the
engine. Exact arithmetic (Fraction), full Pareto fronts (no cap).

Given worlds (full-information round states that differ only in the hidden
tiles: the opponent's hand and the boneyard's order) and a root placement of
the seat S to move, its value is the best mean, over the root's Pareto front,
of a vector with one entry per world:

* S's placements (forced or not) are its decisions; the next ``depth`` of them
  after the root placement are one action for every world still possible
  (every world where S has seen the same: its own draws, the opponent's
  placements and passes and how many tiles it drew). After the last of them,
  or at the round's end, each world is valued by full-information minimax
  (the world's boneyard order known), for S's side: raw points gained since
  the root minus the other side's, or +-1000 when a side reaches exactly 305.
* S's decision: the union of its actions' fronts.
* S's draw: the worlds split by the tile drawn; the front holds every
  combination of one vector per split.
* The opponent's turn: per world, its forced draws, then each of its legal
  actions (a placement, a pass, or nothing when the draws ended the round);
  actions are grouped by what S sees (tiles drawn, the placement); the front
  holds every combination of one vector per group, each world taking the least
  entry over the groups it belongs to.

A front is reduced to its non-dominated vectors (one of equal vectors).
"""
from __future__ import annotations

from fractions import Fraction
from itertools import product

try:
    from . import reference as R
    from . import reference_minimax as M
except ImportError:  # tests/ is not a package: pytest puts tests/ on sys.path
    import reference as R
    import reference_minimax as M

WIN = 1000


def _after(st, action):
    c = st.copy()
    c.apply(action)
    return c


def _pareto(vectors: list) -> list:
    """The non-dominated vectors (dicts world -> value over the same worlds), duplicates once."""
    out = []
    for v in vectors:
        if any(all(u[w] >= v[w] for w in v) for u in out):
            continue
        out = [u for u in out if not all(v[w] >= u[w] for w in u)]
        out.append(v)
    return out


def _min_product(fronts: list) -> list:
    """Every combination of one vector per front: each world the least of the entries it has."""
    out = []
    for combo in product(*fronts):
        v = {}
        for part in combo:
            for w, x in part.items():
                v[w] = x if w not in v else min(v[w], x)
        out.append(v)
    return _pareto(out)


class AlphaMu:
    def __init__(self, seat: int, roots: dict, depth: int):
        self.seat = seat
        self.side = R.side_of(2, seat)
        self.roots = roots            # world -> its state at the root (the scores gains count from)
        self.depth = depth

    def _gain(self, w, st) -> int:
        root = self.roots[w]
        return sum((s - r) * (1 if k == self.side else -1) for k, (s, r) in enumerate(zip(st.scores, root.scores)))

    def leaf(self, w, st) -> int:
        """World w's full-information value of st for S's side, from the root's scores."""
        if st.over:
            if st.winner is not None:
                return WIN if st.winner == self.side else -WIN
            return self._gain(w, st)
        v = M.minimax(st)                   # for the side of the seat to move
        if R.side_of(2, st.turn) != self.side:
            v = -v
        if abs(v) == WIN:                   # a game won on the line: its gains do not count
            return v
        return self._gain(w, st) + v

    def front(self, node: list, r: int) -> list:
        """node: [(world, state)] alike for S; r >= 1 joint decisions left."""
        st0 = node[0][1]
        if st0.over:
            return [{w: self.leaf(w, st) for w, st in node}]
        legal = st0.legal_actions()
        if st0.turn == self.seat:
            if "play" in legal[0]:
                fronts = []
                for a in legal:
                    children = [(w, _after(st, a)) for w, st in node]
                    if r == 1:
                        fronts.append([{w: self.leaf(w, c) for w, c in children}])
                    else:
                        fronts.append(self.front(children, r - 1))
                return _pareto([v for f in fronts for v in f])
            if "draw" in legal[0]:
                split: dict = {}
                for w, st in node:
                    a = st.legal_actions()[0]
                    split.setdefault(a["draw"], []).append((w, _after(st, a)))
                return _min_product([self.front(split[t], r) for t in sorted(split)])
            return self.front([(w, _after(st, legal[0])) for w, st in node], r)
        groups: dict = {}
        for w, st in node:
            c, drawn = st, 0
            while not c.over and "draw" in c.legal_actions()[0]:
                c = _after(c, c.legal_actions()[0])
                drawn += 1
            if c.over:
                groups.setdefault((drawn, "over"), []).append((w, c))
                continue
            for a in c.legal_actions():
                shown = (drawn, a.get("play"), a.get("at")) if "play" in a else (drawn, "pass")
                groups.setdefault(shown, []).append((w, _after(c, a)))
        return _min_product([self.front(groups[k], r) for k in sorted(groups, key=repr)])


def alphamu_values(states: list, depth: int) -> dict:
    """{(tile, at): value (Fraction)} of every legal placement of the seat to move, over
    the worlds `states` (equally weighted), with `depth` joint decisions after it."""
    seat = states[0].turn
    roots = dict(enumerate(states))
    am = AlphaMu(seat, roots, depth)
    out = {}
    for a in states[0].legal_actions():
        children = [(w, _after(st, a)) for w, st in roots.items()]
        if depth == 0:
            front = [{w: am.leaf(w, c) for w, c in children}]
        else:
            front = am.front(children, depth)
        out[(a["play"], a.get("at"))] = max(Fraction(sum(v.values()), len(v)) for v in front)
    return out
