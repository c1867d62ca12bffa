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
  actions are grouped by what S sees (tiles drawn, the placement, placements
  alike on the board counted as one: the same tile on the same kind of port of
  the same value); the front holds every combination of one vector per group,
  each world taking the least entry over the groups it belongs to.
* A world in which the opponent is read as greedy (``greedy``): there it plays
  only the placements of the largest accepted credit
  (``reference_minimax.greedy_moves``) and tosses a coin among them, every
  concrete placement alike, so that world's entry is the mean over its groups,
  each weighted by the concrete placements it holds, truncated toward zero;
  the leaves' minimax averages the same coin (``reference_minimax``).

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


def _trunc_mean(total: int, weight: int) -> int:
    """total / weight truncated toward zero (weight > 0)."""
    return abs(total) // weight * (1 if total >= 0 else -1)


def _coin_product(fronts: list, weights: list) -> list:
    """_min_product, except that a world w with weights[g][w] for its groups g is a
    coin: its entry is the weighted mean of its groups' entries, truncated."""
    out = []
    for combo in product(*fronts):
        v: dict = {}
        sums: dict = {}
        totals: dict = {}
        for g, part in enumerate(combo):
            for w, x in part.items():
                if w in weights[g]:
                    sums[w] = sums.get(w, 0) + weights[g][w] * x
                    totals[w] = totals.get(w, 0) + weights[g][w]
                else:
                    v[w] = x if w not in v else min(v[w], x)
        for w in sums:
            v[w] = _trunc_mean(sums[w], totals[w])
        out.append(v)
    return _pareto(out)


def _shown(state, drawn: int, action: dict):
    """What S sees of the opponent's placement: the tile and the board's port it took,
    ports alike (the same kind and value: a non-double's end, a double's line or
    branch) counted as one, since they leave the same board up to its drawing."""
    at = action.get("at")
    if at is None:
        return (drawn, action["play"], None)
    other, name = at.split(":")
    lo, hi = other.split("-")
    kind = "end" if lo != hi else ("line" if name.startswith("line") else "branch")
    return (drawn, action["play"], kind, dict(state.board.open)[at])


class AlphaMu:
    def __init__(self, seat: int, roots: dict, depth: int, greedy=frozenset()):
        self.seat = seat
        self.side = R.side_of(2, seat)
        self.roots = roots            # world -> its state at the root (the scores gains count from)
        self.depth = depth
        self.greedy = greedy          # the worlds that read the opponent as greedy

    def _gain(self, w, st) -> int:
        root = self.roots[w]
        return sum((s - r) * (1 if k == self.side else -1) for k, (s, r) in enumerate(zip(st.scores, root.scores)))

    def leaf(self, w, st) -> int:
        """World w's full-information value of st for S's side, from the root's scores."""
        if st.over:
            if st.winner is not None:
                return WIN if st.winner == self.side else -WIN
            return self._gain(w, st)
        # for S's side; the opponent greedy (its coin averaged) in a world that reads it so
        v = M._best(st, self.seat, None, (1 - self.seat,) if w in self.greedy else ())[0]
        if abs(v) == WIN:                   # a game won on the line: its gains do not count
            return v
        # a line that is no win stays one (a coin's mean can mix wins with points)
        return max(-(WIN - 1), min(WIN - 1, self._gain(w, st) + v))

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
        weights: dict = {}
        for w, st in node:
            c, drawn = st, 0
            while not c.over and "draw" in c.legal_actions()[0]:
                c = _after(c, c.legal_actions()[0])
                drawn += 1
            if c.over:
                groups.setdefault((drawn, "over"), []).append((w, c))
                continue
            if w in self.greedy and "play" in c.legal_actions()[0]:
                actions = [R._action_dict(c.turn, m) for m in M.greedy_moves(c)]
            else:
                actions = c.legal_actions()
            for a in actions:
                shown = _shown(c, drawn, a) if "play" in a else (drawn, "pass")
                if w in self.greedy and "play" in a:
                    weights.setdefault(shown, {})
                    weights[shown][w] = weights[shown].get(w, 0) + 1
                if all(x != w for x, _ in groups.get(shown, [])):
                    groups.setdefault(shown, []).append((w, _after(c, a)))
        keys = sorted(groups, key=repr)
        return _coin_product([self.front(groups[k], r) for k in keys], [weights.get(k, {}) for k in keys])


def alphamu_values(states: list, depth: int, greedy=frozenset()) -> dict:
    """{(tile, at): value (Fraction)} of every legal placement of the seat to move, over
    the worlds `states` (equally weighted), with `depth` joint decisions after it;
    greedy: the indices of the worlds that read the opponent as greedy."""
    seat = states[0].turn
    roots = dict(enumerate(states))
    am = AlphaMu(seat, roots, depth, frozenset(greedy))
    out = {}
    for a in states[0].legal_actions():
        children = [(w, _after(st, a)) for w, st in roots.items()]
        if depth == 0:
            front = [{w: am.leaf(w, c) for w, c in children}]
        else:
            front = am.front(children, depth)
        out[(a["play"], a.get("at"))] = max(Fraction(sum(v.values()), len(v)) for v in front)
    return out
