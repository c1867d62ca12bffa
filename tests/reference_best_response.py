"""Independent oracle for the exact yardstick against greedy (points objective).

Written from the spec alone, on the reference rules (``tests/reference.py``) and
the brute-force deal enumeration (``tests/brute_deals.py``); it shares no code
with ``fiveup_solver.exact`` or the engine's core. Exact arithmetic (Fraction).

The value of seat S's placement: S places it, then to the end of the round S
chooses, at each of its information sets, the placement with the largest
expected value, where an information set is everything S has observed (its
own hand and draws, every action of the others with their draws hidden); the
other seats play greedy: among their legal concrete placements the largest
placement credit the board shows, counted 0 when it would take the side above
305, ties uniformly among those concrete placements; draws are uniform over
the tiles of the world's boneyard. Value: raw points of the round for S's side
minus every other side's, or +-1000 for an accepted exact 305.
"""
from __future__ import annotations

from fractions import Fraction

try:
    from . import brute_deals as B
    from . import reference as R
    from .reference_expectimax import draw_tile as _draw
except ImportError:  # tests/ is not a package: pytest puts tests/ on sys.path
    import brute_deals as B
    import reference as R
    from reference_expectimax import draw_tile as _draw

WIN = 1000


def worlds(game, seat: int) -> list:
    """[(RoundState now, probability)] for every way the hidden tiles lie now, from the
    brute-force enumeration of the consistent full deals (all equally likely)."""
    view = B.view_of(game, seat, len(game.current.actions))
    weight: dict = {}
    state_of: dict = {}
    for c in B.consistent_deals(view):
        hands, bone = c.full_deal()
        st = R.RoundState(view.players, hands, bone, view.starter, list(view.scores))
        for a in B.fill_hidden_draws(view, bone):
            st.apply(a)
        weight[c.current] = weight.get(c.current, 0) + 1
        state_of[c.current] = st
    total = sum(weight.values())
    return [(state_of[k], Fraction(w, total)) for k, w in weight.items()]


def _tiles_left(st) -> list:
    return sorted(st.boneyard_left())


def _after(st, action):
    c = st.copy()
    c.apply(action)
    return c


class BestResponse:
    def __init__(self, seat: int, players: int, root_scores: list):
        self.seat, self.players = seat, players
        self.side = R.side_of(players, seat)
        self.root = list(root_scores)

    def terminal(self, st) -> Fraction:
        if st.winner is not None:
            return Fraction(WIN if st.winner == self.side else -WIN)
        return Fraction(sum((s - r) * (1 if k == self.side else -1)
                            for k, (s, r) in enumerate(zip(st.scores, self.root))))

    def greedy_actions(self, st) -> list:
        legal = st.legal_actions()
        if "play" not in legal[0]:
            return [(a, Fraction(1)) for a in legal]
        side = R.side_of(self.players, st.turn)

        def credit(a):
            c = R.placement_credit(_after_board(st, a))
            return 0 if st.scores[side] + c > R.TARGET else c
        best = max(credit(a) for a in legal)
        top = [a for a in legal if credit(a) == best]
        return [(a, Fraction(1, len(top))) for a in top]

    def follow(self, st, p, seen, groups, acc) -> None:
        """One world to S's next decision, the end, or on through chance and greedy."""
        if st.over:
            acc[0] += p * self.terminal(st)
            return
        s = st.turn
        legal = st.legal_actions()
        if s == self.seat:
            if "play" in legal[0]:
                groups.setdefault(seen, []).append((st, p))
            elif "draw" in legal[0]:
                left = _tiles_left(st)
                for t in left:
                    self.follow(_draw(st, t), p / len(left), seen + (("draw", t),), groups, acc)
            else:
                self.follow(_after(st, legal[0]), p, seen + (("pass",),), groups, acc)
            return
        if "draw" in legal[0]:
            left = _tiles_left(st)
            for t in left:
                self.follow(_draw(st, t), p / len(left), seen + ((s, "draw"),), groups, acc)
            return
        for a, q in self.greedy_actions(st):
            shown = (s, a.get("play"), a.get("at")) if "play" in a else (s, "pass")
            self.follow(_after(st, a), p * q, seen + (shown,), groups, acc)

    def value_of(self, node: list, action: dict) -> Fraction:
        groups: dict = {}
        acc = [Fraction(0)]
        for st, p in node:
            self.follow(_after(st, action), p, (), groups, acc)
        total = acc[0]
        for items in groups.values():
            mass = sum(p for _, p in items)
            total += mass * self.decide([(st, p / mass) for st, p in items])
        return total

    def decide(self, node: list) -> Fraction:
        return max(self.value_of(node, a) for a in node[0][0].legal_actions())


def _after_board(st, action) -> int:
    """The end sum the board shows after a placement (the greedy credit's base)."""
    b = st.board.copy()
    return b.place(action["play"], action.get("at"))


def best_response_values(game, seat: int) -> dict:
    """{(tile, at): exact value (Fraction)} of every legal placement of `seat` (to move)."""
    node = worlds(game, seat)
    br = BestResponse(seat, game.players, list(node[0][0].scores))
    return {(a["play"], a.get("at")): br.value_of(node, a) for a in node[0][0].legal_actions()}
