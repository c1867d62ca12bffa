"""Brute-force oracle for hidden deals: every full deal of a round that fits one seat's view.

Independent of ``fiveup_solver.inference`` and of the engine's core: a deal is
*consistent* exactly when the reference rules (``tests/reference.py``, written
from the spec alone) replay the round's recorded actions under it without an
error and end up in the same round status (over / not over) that the seat saw.

What seat S observes of round r up to action I (RULES §2.2, RECORD.md "A seat's
view"): its own dealt hand and its own draws, every placement (tile and port),
every pass, every other seat's draw as a hidden tile, the starter, the scores
and whether the round is still going.  Hidden: the other seats' dealt hands
and the boneyard order.  All shuffles are equally likely, so the posterior is
uniform over the consistent full deals.

A *candidate* stands for a class of full deals of equal size:
    - the dealt hand of every seat, as a set (5! orders each);
    - the boneyard positions drawn so far (actions[:I]), in order, as tiles;
    - the undrawn rest of the boneyard, as a set (every order of it gives the
      same replay of actions[:I]: the same number of orders per candidate).
So every candidate has the same weight and probabilities are candidate counts.

Enumeration: the hidden seats' dealt hands are chosen first (5-sets), then the
reference replays the actions incrementally and branches at every hidden draw
on the tile drawn, sharing the replay of common prefixes.  The reference alone
decides; a few cheap *necessary* conditions of the rules only skip deals the
replay would reject anyway (``_hand_options`` for the dealt hands,
``_draw_filters`` for the hidden draws, ``can_still_fetch``: a tile a seat places
later from its hand must reach it by one of its earlier draws).  ``prune=False``
switches them all off (every 5-set of the unknown tiles, every tile at every
hidden draw): slow, used to check on small positions that pruning loses nothing.
"""
from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

try:
    from . import reference as R
except ImportError:  # tests/ is not a package: pytest puts tests/ on sys.path
    import reference as R

__all__ = [
    "View", "Candidate", "TooManyCandidates", "view_of", "consistent_deals",
    "current_deal", "current_distribution", "current_marginals", "marginals_from",
    "unseen_tiles", "hand_bound", "fill_hidden_draws", "replay_full_deal", "views_along",
]

ALL = frozenset(R.ALL_TILES)


class TooManyCandidates(Exception):
    """The enumeration went over its limit."""


@dataclass(frozen=True)
class View:
    """What seat `seat` knows of one round after `len(actions)` actions."""

    players: int
    seat: int
    starter: int
    scores: tuple          # raw per side at the start of the round
    own_hand: tuple        # the seat's dealt hand (tile strings)
    actions: tuple         # record actions, other seats' draws as {"seat": s, "draw": None}
    over: bool             # the round has ended after these actions

    @property
    def hidden_seats(self) -> tuple:
        return tuple(q for q in range(self.players) if q != self.seat)

    @property
    def n_draws(self) -> int:
        return sum("draw" in a for a in self.actions)


@dataclass(frozen=True)
class Candidate:
    """One class of consistent full deals (see the module docstring); all have equal weight."""

    hands: tuple           # dealt hand of every seat (frozenset of tile strings), S's included
    drawn: tuple           # the boneyard's first len(drawn) tiles, in draw order
    undrawn: frozenset     # the rest of the boneyard (any order)
    current: tuple         # (hands now of the hidden seats in seat order, boneyard now): frozensets

    def full_deal(self):
        """(dealt hands as lists, one full boneyard order)."""
        return [sorted(h) for h in self.hands], list(self.drawn) + sorted(self.undrawn)


def _spec_of(game_or_spec) -> dict:
    """A full-information round spec: players, hands, boneyard, starter, scores, actions."""
    if isinstance(game_or_spec, dict):
        return game_or_spec
    g = game_or_spec  # fiveup_solver.game.Game: its current round
    r = g.current
    return {"players": g.players, "hands": [[str(t) for t in h] for h in r.hands],
            "boneyard": [str(t) for t in r.boneyard], "starter": r.starter,
            "scores": list(r.scores_before), "actions": [dict(a) for a in r.actions]}


def _hide(action: dict, seat: int) -> dict:
    if "draw" in action and action["seat"] != seat:
        return {"seat": action["seat"], "draw": None}
    return dict(action)


def view_of(game_or_spec, seat: int, action_index: int) -> View:
    """Seat `seat`'s view of the round after its first `action_index` actions."""
    spec = _spec_of(game_or_spec)
    actions = spec["actions"][:action_index]
    if len(actions) != action_index:
        raise ValueError(f"the round has only {len(spec['actions'])} actions")
    st = R.RoundState(spec["players"], spec["hands"], spec["boneyard"], spec["starter"],
                      list(spec["scores"]))
    for a in actions:
        st.apply(a)
    return View(spec["players"], seat, spec["starter"], tuple(spec["scores"]),
                tuple(R.norm_tile(t) for t in spec["hands"][seat]),
                tuple(_hide(a, seat) for a in actions), st.over)


def views_along(game_or_spec, seat: int) -> list:
    """Seat `seat`'s view after every action count 0..len(actions), from one replay."""
    spec = _spec_of(game_or_spec)
    st = R.RoundState(spec["players"], spec["hands"], spec["boneyard"], spec["starter"],
                      list(spec["scores"]))
    own = tuple(R.norm_tile(t) for t in spec["hands"][seat])
    hidden = tuple(_hide(a, seat) for a in spec["actions"])
    out = [View(spec["players"], seat, spec["starter"], tuple(spec["scores"]), own, (), st.over)]
    for i, a in enumerate(spec["actions"]):
        st.apply(a)
        out.append(View(spec["players"], seat, spec["starter"], tuple(spec["scores"]), own,
                        hidden[:i + 1], st.over))
    return out


def _values(tile: str) -> tuple:
    return R.VALUES[tile]


def _timeline(view: View):
    """Public facts: open values before every action (None: empty board), and who placed what."""
    board = R.Board()
    open_before = []
    placed = {}            # tile -> (seat, action index, right after that seat's draw)
    for i, a in enumerate(view.actions):
        open_before.append(board.open_values() if board.tiles else None)
        if "play" in a:
            tile = R.norm_tile(a["play"])
            prev = view.actions[i - 1] if i else None
            after_draw = prev is not None and "draw" in prev and prev["seat"] == a["seat"]
            placed[tile] = (a["seat"], i, after_draw)
            board.place(tile, None if a.get("at") is None else R.norm_port(a["at"]))
    return open_before, placed


def _known_to_seat(view: View) -> set:
    own_draws = {R.norm_tile(a["draw"]) for a in view.actions
                 if "draw" in a and a["seat"] == view.seat}
    return set(view.own_hand) | own_draws


def _hand_options(view: View, prune: bool):
    """Per hidden seat q: (tiles q must have been dealt, tiles q may have been dealt).

    With prune, only necessary conditions of the rules (§5.1, §5.2):
      - a tile placed by another seat was never in q's hand;
      - a tile q placed right after its own draw is that drawn tile (before the
        draw q held nothing placeable and the board has not changed), so it
        came from the boneyard, not from q's deal;
      - a tile q placed before it ever drew was dealt to q;
      - a dealt tile stays in q's hand until q places it, and whenever q drew
        or passed it held nothing placeable: the tile matches no open value at
        any of q's draws/passes before it leaves q's hand.
    """
    pool = ALL - _known_to_seat(view)
    out = {}
    if not prune:
        for q in view.hidden_seats:
            out[q] = (frozenset(), frozenset(pool))
        return out
    open_before, placed = _timeline(view)
    for q in view.hidden_seats:
        stuck = [i for i, a in enumerate(view.actions)
                 if a["seat"] == q and ("draw" in a or "pass" in a)]
        draws = [i for i in stuck if "draw" in view.actions[i]]
        forced, allowed = set(), set()
        for t in pool:
            who = placed.get(t)
            if who is not None:
                seat, when, after_draw = who
                if seat != q or after_draw:
                    continue
                if not any(i < when for i in draws):
                    forced.add(t)
            else:
                when = len(view.actions)
            if any(i < when and set(_values(t)) & open_before[i] for i in stuck):
                continue
            allowed.add(t)
        out[q] = (frozenset(forced), frozenset(allowed))
    return out


def _draw_filters(view: View) -> dict:
    """Per hidden draw (action index): the tiles it may have taken, by necessary conditions:
      - followed by the drawer's placement: exactly the placed tile (§5.2);
      - never a tile another seat places, nor one of S's own draws, nor a tile the
        drawer places right after a later draw of its own (that one is the later draw);
      - followed by the drawer's next draw or pass: no tile matching an open value
        (the board does not change in between, §5.2);
      - a drawn tile stays in the drawer's hand until the drawer places it, so it
        matches no open value at any later draw or pass of the drawer before that."""
    open_before, placed = _timeline(view)
    own = _known_to_seat(view)
    out = {}
    for i, a in enumerate(view.actions):
        if "draw" not in a or a["draw"] is not None:
            continue
        q = a["seat"]
        nxt = view.actions[i + 1] if i + 1 < len(view.actions) else None
        if nxt is not None and "play" in nxt:
            out[i] = frozenset([R.norm_tile(nxt["play"])])
            continue
        stuck = [j for j, b in enumerate(view.actions)
                 if j > i and b["seat"] == q and ("draw" in b or "pass" in b)]
        ok = set()
        for t in ALL - own:
            who = placed.get(t)
            if who is not None and (who[0] != q or who[2] or who[1] < i):
                continue
            gone = who[1] if who is not None else len(view.actions)
            if any(j < gone and set(_values(t)) & open_before[j] for j in stuck):
                continue
            ok.add(t)
        out[i] = frozenset(ok)
    return out


def hand_bound(view: View) -> int:
    """An upper bound on the number of dealt-hand tuples the pruned enumeration replays."""
    total = 1
    for forced, allowed in _hand_options(view, True).values():
        if not forced <= allowed or len(forced) > 5:
            return 0
        total *= _comb(len(allowed) - len(forced), 5 - len(forced))
    return total


def _comb(n, k):
    from math import comb
    return comb(n, k) if 0 <= k <= n else 0


def _hand_tuples(view: View, prune: bool):
    """Every assignment of dealt 5-sets to the hidden seats (disjoint, from the options)."""
    options = _hand_options(view, prune)
    seats = view.hidden_seats

    def rec(k, used):
        if k == len(seats):
            yield {}
            return
        q = seats[k]
        forced, allowed = options[q]
        if forced & used or len(forced) > 5 or not forced <= allowed:
            return
        free = sorted(allowed - forced - used)
        for extra in itertools.combinations(free, 5 - len(forced)):
            hand = forced | frozenset(extra)
            for rest in rec(k + 1, used | hand):
                rest[q] = hand
                yield rest

    yield from rec(0, frozenset())


def consistent_deals(game_or_spec, seat: int | None = None, action_index: int | None = None, *,
                     limit: int | None = None, prune: bool = True) -> list:
    """Every consistent candidate (see the module docstring) for seat `seat` after
    `action_index` actions of the round.  `game_or_spec` is a Game (its current
    round), a full round spec dict, or a View (then seat/action_index are ignored).
    `limit` bounds the work (replays started + hidden-draw branches tried); beyond it
    TooManyCandidates is raised."""
    view = game_or_spec if isinstance(game_or_spec, View) else view_of(game_or_spec, seat, action_index)
    n, S = view.players, view.seat
    acts = view.actions
    out = []
    work = [0]

    def tick():
        work[0] += 1
        if limit is not None and work[0] > limit:
            raise TooManyCandidates(f"more than {limit}")

    def walk(st, i, dealt, drawn, left):
        while i < len(acts):
            a = acts[i]
            if "draw" in a:
                if a["draw"] is not None:
                    options = [R.norm_tile(a["draw"])]
                else:
                    options = sorted(left & draw_filter[i]) if prune else sorted(left)
                for y in options:
                    if y not in left:
                        continue
                    tick()
                    c = st.copy() if len(options) > 1 else st
                    _put_next(c, y)
                    try:
                        c.apply({"seat": a["seat"], "draw": y})
                    except R.ReferenceRuleError:
                        continue
                    if prune and a["draw"] is None and not can_still_fetch(c, a["seat"], i + 1):
                        continue
                    walk(c, i + 1, dealt, drawn + (y,), left - {y})
                return
            try:
                st.apply(a)
            except R.ReferenceRuleError:
                return
            i += 1
        if st.over != view.over:
            return
        hands_now = tuple(frozenset(st.hands[q]) for q in view.hidden_seats)
        out.append(Candidate(dealt, drawn, frozenset(left), (hands_now, frozenset(left))))

    draw_filter = _draw_filters(view) if prune else {}
    # per hidden seat: its draws not followed by its placement ("free" draws), and its
    # placements not right after its own draw (of a tile it held or fetched earlier)
    free_draws = {q: [i for i, a in enumerate(acts) if a["seat"] == q and "draw" in a
                      and not (i + 1 < len(acts) and "play" in acts[i + 1])] for q in view.hidden_seats}
    held_plays = {q: [(i, R.norm_tile(a["play"])) for i, a in enumerate(acts)
                      if a["seat"] == q and "play" in a
                      and not (i and "draw" in acts[i - 1] and acts[i - 1]["seat"] == q)]
                  for q in view.hidden_seats}

    def can_still_fetch(st, q, i):
        """Necessary: every tile q places later from its hand, and does not hold now,
        comes from one of q's free draws before that placement (a draw followed by
        q's placement brings exactly the placed tile).  Hall's condition on deadlines."""
        hand = st.hands[q]
        deadlines = [w for w, t in held_plays[q] if w >= i and t not in hand]
        for k, w in enumerate(deadlines, 1):
            if sum(1 for j in free_draws[q] if i <= j < w) < k:
                return False
        return True

    for assignment in _hand_tuples(view, prune):
        tick()
        hands = [None] * n
        hands[S] = frozenset(view.own_hand)
        for q, h in assignment.items():
            hands[q] = h
        dealt = tuple(hands)
        bone = ALL.difference(*hands)
        st = R.RoundState(n, [sorted(h) for h in hands], sorted(bone), view.starter, list(view.scores))
        if prune and not all(can_still_fetch(st, q, 0) for q in view.hidden_seats):
            continue
        walk(st, 0, dealt, (), frozenset(bone))
    return out


def _put_next(st, tile):
    """Make `tile` the boneyard's next tile (swap it forward).  The reference reads
    only boneyard[drawn] (the next draw) and the boneyard's length, so this is the
    same as having dealt that order from the start."""
    bone = list(st.boneyard)
    j = bone.index(tile, st.drawn)
    bone[st.drawn], bone[j] = bone[j], bone[st.drawn]
    st.boneyard = bone


def current_deal(c: Candidate) -> tuple:
    """(hands now of the hidden seats in seat order, boneyard now) as frozensets."""
    return c.current


def current_distribution(cands) -> dict:
    """{current deal: Fraction} over the candidates (all weighted equally)."""
    counts = Counter(c.current for c in cands)
    total = sum(counts.values())
    return {k: Fraction(v, total) for k, v in counts.items()}


def unseen_tiles(view: View) -> frozenset:
    """Tiles whose current place S does not know: not in S's hand now and not on the board."""
    st_tiles = set(_known_to_seat(view))
    placed = {R.norm_tile(a["play"]) for a in view.actions if "play" in a}
    return ALL - st_tiles - placed


def marginals_from(view: View, cands) -> dict:
    """{tile: {hidden seat or "boneyard": Fraction}} over every unseen tile."""
    if not cands:
        raise ValueError("no consistent deal")
    keys = list(view.hidden_seats) + ["boneyard"]
    counts = {t: dict.fromkeys(keys, 0) for t in unseen_tiles(view)}
    for c in cands:
        hands_now, bone = c.current
        for q, h in zip(view.hidden_seats, hands_now):
            for t in h:
                counts[t][q] += 1
        for t in bone:
            counts[t]["boneyard"] += 1
    total = len(cands)
    return {t: {k: Fraction(v, total) for k, v in d.items()} for t, d in counts.items()}


def current_marginals(game_or_spec, seat: int | None = None, action_index: int | None = None,
                      **kw) -> dict:
    """{tile string: {seat int or "boneyard": Fraction}} for every tile S cannot place."""
    view = game_or_spec if isinstance(game_or_spec, View) else view_of(game_or_spec, seat, action_index)
    return marginals_from(view, consistent_deals(view, **kw))


# ------------------------------------------------------------ checking a full deal

def fill_hidden_draws(view: View, boneyard) -> list | None:
    """The view's actions with every draw naming boneyard[k] (k-th draw of the round);
    None when one of S's own draws does not match the boneyard."""
    out, k = [], 0
    for a in view.actions:
        if "draw" in a:
            if k >= len(boneyard):
                return None
            tile = R.norm_tile(boneyard[k])
            if a["draw"] is not None and R.norm_tile(a["draw"]) != tile:
                return None
            out.append({"seat": a["seat"], "draw": tile})
            k += 1
        else:
            out.append(dict(a))
    return out


def replay_full_deal(view: View, hands, boneyard) -> str | None:
    """None if the full deal (dealt hands of all seats, full boneyard order) is
    consistent with the view under the reference rules, else the reason."""
    hands = [[R.norm_tile(str(t)) for t in h] for h in hands]
    boneyard = [R.norm_tile(str(t)) for t in boneyard]
    if len(hands) != view.players or any(len(h) != 5 for h in hands):
        return "not 5 tiles per seat"
    if sorted([t for h in hands for t in h] + boneyard) != sorted(ALL):
        return "not the 28 tiles"
    if set(hands[view.seat]) != set(view.own_hand):
        return "the seat's own hand differs"
    actions = fill_hidden_draws(view, boneyard)
    if actions is None:
        return "the seat's own draws differ"
    try:
        st = R.RoundState(view.players, hands, boneyard, view.starter, list(view.scores))
        for a in actions:
            st.apply(a)
    except R.ReferenceRuleError as e:
        return f"illegal replay: {e}"
    if st.over != view.over:
        return "round status differs"
    return None
