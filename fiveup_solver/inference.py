"""What a seat can infer about the hidden tiles, and exact uniform sampling of them.

A seat S sees its own dealt hand and draws, the board, every placement, other
seats' draws as hidden tiles, passes, hand sizes and the boneyard size. The
rules then prove more (RULES §5):

* a seat that starts a draw sequence or passes holds no tile matching an open
  value *at that moment*: this covers exactly the tiles it holds then, and the
  tiles it draws in that sequence and does not place (they were unplayable
  the moment they were drawn: the open values do not change while it draws);
* the tile placed right after a draw sequence is the sequence's last drawn tile;
* while the boneyard is empty and the round goes on, some seat can place
  (D2): when the observer itself cannot, some hidden seat can;
* a round that ended blocked leaves every hand void of the open values;
  a shown (revealed) end-of-round hand is known outright.

Every full deal of the round (dealt hands and boneyard order) is a priori
equally likely, so the posterior is uniform over the full deals under which
the round plays out exactly as S saw it. :class:`DealSampler` counts them
exactly (``fiveup_solver._sampler``), samples them uniformly without rejection,
gives exact marginals, and raises :class:`InconsistentObservationError` when
none fits. Deals as they stand now (other hands, boneyard in draw order) carry
the weights of the full deals that lead to them.

>>> from fiveup_solver import Game
>>> g = Game(players=2, seed=3)
>>> ds = DealSampler(g.observation(g.to_move))
>>> other = 1 - g.to_move
>>> p = ds.marginals()[ds.unseen_tiles[0]]   # nothing played yet: 5 of the 23 unseen tiles
>>> len(ds.unseen_tiles), round(p[other], 6), round(p["boneyard"], 6)
(23, 0.217391, 0.782609)
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from fiveup_solver import _core, _sampler
from fiveup_solver.types import (
    ALL_TILES, InconsistentObservationError, OptionError, Port, Tile,
)

__all__ = ["BONEYARD", "Deal", "DealSampler", "observation_signature"]

BONEYARD = "boneyard"


@dataclass(frozen=True)
class Deal:
    """Hidden tiles as they stand now: other seats' hands, the boneyard in draw order."""

    hands: dict        # seat -> tuple[Tile]
    boneyard: tuple    # tuple[Tile], next draw first

    def to_dict(self) -> dict:
        return {"hands": {str(s): [str(t) for t in h] for s, h in sorted(self.hands.items())},
                "boneyard": [str(t) for t in self.boneyard]}


@dataclass
class _Slot:
    seat: int          # owner (hidden seat)
    arrival: int       # action index it was drawn at; -1 for the dealt hand
    cover: int         # index of the seat's first void event that covers it
    action: int        # the draw action (-1: dealt)


def _matches(tile: int, open_values: int) -> bool:
    return bool((open_values >> _core.tile_lo(tile)) & 1 or (open_values >> _core.tile_hi(tile)) & 1)


def observation_signature(obs) -> tuple:
    """Everything the inference reads from an observation (for no-peeking checks)."""
    return (obs.players, obs.seat, obs.starter, tuple(sorted(t.index for t in obs.hand)), tuple(obs.hand_sizes),
            obs.boneyard_size,
            tuple(tuple(sorted(a.items())) for a in obs.history), obs.status,
            None if obs.revealed is None else tuple(tuple(h) for h in obs.revealed))


class DealSampler:
    """Exact inference over the hidden deals consistent with one seat's observation.

    ``DealSampler(obs)`` with an :class:`~fiveup_solver.game.Observation`
    (``Game.observation(seat)``). Sampling is deterministic for a seed: sample
    k of ``sample(n, seed)`` comes from its own stream (seed, k).
    """

    def __init__(self, obs):
        self.obs = obs
        self.seat = obs.seat
        self.players = obs.players
        self.hidden_seats = tuple(s for s in range(obs.players) if s != obs.seat)
        self._build()

    # ------------------------------------------------------------ the matching problem
    def _build(self) -> None:
        obs, me, n = self.obs, self.seat, self.players
        history = list(obs.history)
        # the board at every action: open values before each action
        placements, place_at = [], []
        for i, a in enumerate(history):
            if "play" in a:
                t = Tile.parse(a["play"]).index
                at = a.get("at")
                g, k = (-1, -1) if at is None else (Port.parse(at).tile.index, Port.parse(at).index)
                placements.append((a["seat"], t, g, k))
                place_at.append(i)
        try:
            trace = _core.board_trace(n, placements)
        except _core.CoreError as e:
            raise InconsistentObservationError(f"action {place_at[e.args[0]]}: {e.args[1]}") from None
        open_before, cur, j = [], 0, 0
        for i in range(len(history)):
            open_before.append(cur)
            if j < len(place_at) and place_at[j] == i:
                cur = trace[j][0]
                j += 1
        open_now = cur

        self._check_turns(history, open_before, placements)
        own = {t.index for t in obs.hand}
        voids = {s: [] for s in self.hidden_seats}       # seat -> [(action, open values)]
        slots: list[_Slot] = []
        placed_items = []                                 # (tile, seat, action)
        known_drawn = {}                                  # action of a hidden draw -> tile placed right after
        draws_left = 28 - 5 * n
        for i, a in enumerate(history):
            s = a["seat"]
            if not (isinstance(s, int) and 0 <= s < n):
                raise InconsistentObservationError(f"action {i}: seat {s!r} is not a seat")
            prev = history[i - 1] if i > 0 else None
            if "draw" in a:
                draws_left -= 1
                if s == me:
                    if a["draw"] is None:
                        raise InconsistentObservationError(f"action {i}: seat {me}'s own draw must name its tile")
                    own.add(Tile.parse(a["draw"]).index)
                    continue
                if not (prev is not None and "draw" in prev and prev["seat"] == s):
                    voids[s].append((i, open_before[i]))   # a new draw sequence: nothing playable now
                nxt = history[i + 1] if i + 1 < len(history) else None
                if nxt is not None and nxt["seat"] == s and "play" in nxt:
                    known_drawn[i] = Tile.parse(nxt["play"]).index
                elif nxt is None and obs.status == "playing":
                    # the sequence is still going on: nothing is known of this tile yet
                    slots.append(_Slot(s, i, 10 ** 6, i))
                else:
                    slots.append(_Slot(s, i, len(voids[s]) - 1, i))
            elif "pass" in a:
                if s != me:
                    voids[s].append((i, open_before[i]))
            elif "play" in a:
                t = Tile.parse(a["play"]).index
                if s == me:
                    own.add(t)
                elif not (prev is not None and "draw" in prev and prev["seat"] == s):
                    placed_items.append((t, s, i))
        if draws_left != obs.boneyard_size:
            raise InconsistentObservationError(
                f"boneyard size {obs.boneyard_size} does not match the {28 - 5 * n - draws_left} draws seen")
        end = len(history)
        if obs.status == "blocked" and obs.revealed is None:
            for s in self.hidden_seats:
                voids[s].append((end, open_now))
        for s in self.hidden_seats:
            slots[:0] = [_Slot(s, -1, 0, -1) for _ in range(5)]
        self._slots = slots
        self._known_drawn = known_drawn
        # the D2 constraint: the round goes on with an empty boneyard, the observer cannot place
        playable_now = any(_matches(t.index, open_now) for t in obs.hand)
        strict_now = (obs.status == "playing" and obs.boneyard_size == 0 and bool(placements)
                      and not playable_now)

        board = {p[1] for p in placements}
        placed_by_hidden = {t for t, _, _ in placed_items} | set(known_drawn.values())
        unseen = [t for t in range(28) if t not in own and t not in board]
        if own & placed_by_hidden:
            raise InconsistentObservationError(f"seat {me}'s own tiles appear among other seats' placements")
        self.unseen_tiles = tuple(ALL_TILES[t] for t in unseen)
        revealed = None if obs.revealed is None else {s: {Tile.parse(str(t)).index for t in obs.revealed[s]}
                                                      for s in self.hidden_seats}
        if obs.revealed is not None and sorted(Tile.parse(str(t)).index for t in obs.revealed[me]) != sorted(
                t.index for t in obs.hand):
            raise InconsistentObservationError(f"seat {me}'s revealed hand is not the hand it holds")
        # items: others' placed tiles first (the most constrained), then the unseen tiles
        items = [(t, s, p) for t, s, p in placed_items] + [(t, None, None) for t in unseen]

        def allowed(item, slot: _Slot, strict: bool) -> bool:
            t, seat, p = item
            if seat is not None:
                if slot.seat != seat or slot.arrival >= p:
                    return False
                return not any(_matches(t, w) for k, (when, w) in enumerate(voids[seat])
                               if k >= slot.cover and when < p)
            if revealed is not None and t not in revealed[slot.seat]:
                return False
            if any(_matches(t, w) for k, (_, w) in enumerate(voids[slot.seat]) if k >= slot.cover):
                return False
            return not (strict and _matches(t, open_now))

        def bone_ok(item) -> bool:
            t, seat, _ = item
            return seat is None and (revealed is None or all(t not in h for h in revealed.values()))

        # classes: slots of one seat with the same allowed items, and the boneyard
        groups: dict = {}
        for idx, slot in enumerate(slots):
            col = (slot.seat, tuple(allowed(it, slot, False) for it in items),
                   tuple(allowed(it, slot, True) for it in items) if strict_now else ())
            groups.setdefault(col, []).append(idx)
        class_keys = list(groups)
        self._class_slots = [groups[k] for k in class_keys]
        caps = [len(v) for v in self._class_slots] + [obs.boneyard_size]
        class_seat = [k[0] for k in class_keys] + [-1]
        bone = len(caps) - 1
        allowed_masks, strict_masks = [], []
        for i, it in enumerate(items):
            m = sum(1 << c for c, k in enumerate(class_keys) if k[1][i])
            ms = sum(1 << c for c, k in enumerate(class_keys) if strict_now and k[2][i])
            if bone_ok(it):
                m |= 1 << bone
                ms |= 1 << bone
            allowed_masks.append(m)
            strict_masks.append(ms)
        if sum(caps) != len(items):
            raise InconsistentObservationError(
                f"hand sizes and draws leave {sum(caps)} hidden places for {len(items)} hidden tiles")
        self._items = items
        self._caps = caps
        self._class_seat = class_seat
        self._bone = bone
        try:
            self._counter = _sampler.DealCounter(
                caps, allowed_masks, strict_masks if strict_now else None, bone,
                [it[0] for it in items], [1 if it[1] is None else 0 for it in items], class_seat)
        except _sampler.TooManyStates as e:
            raise InconsistentObservationError(f"seat {me}'s observation is too intricate to count: {e}") from None
        if self._counter.count <= 0:
            raise InconsistentObservationError(
                f"no deal of the hidden tiles fits seat {me}'s observation "
                f"(round {obs.round}, after action {len(history) - 1})")

    def _check_turns(self, history, open_before, placements) -> None:
        """The public history must follow the turn rules (RULES §5): the seat to
        move acts; a draw only from a non-empty boneyard, a pass only from an
        empty one; nothing after a hand is emptied. The observer's own actions
        are checked against its own hand: it draws or passes only with nothing
        playable, and places a playable drawn tile at once."""
        obs, me, n = self.obs, self.seat, self.players
        own_drawn = {Tile.parse(a["draw"]).index for a in history
                     if "draw" in a and a["seat"] == me and a["draw"] is not None}
        own_played = [Tile.parse(a["play"]).index for a in history if "play" in a and a["seat"] == me]
        held = {t.index for t in obs.hand}
        dealt = (held | set(own_played)) - own_drawn
        if (len(dealt) != 5 or len(own_played) != len(set(own_played)) or held & set(own_played)
                or own_drawn & (held | set(own_played)) != own_drawn):
            raise InconsistentObservationError(
                f"seat {me}'s hand, draws and plays do not add up to a dealt hand of 5 tiles")
        hand = set(dealt)
        sizes = [5] * n
        boneyard = 28 - 5 * n
        to_move = obs.starter
        must_play = None
        over = False
        for i, a in enumerate(history):
            s = a["seat"]
            where = f"action {i}"
            if over:
                raise InconsistentObservationError(f"{where}: the round was already over")
            if s != to_move:
                raise InconsistentObservationError(f"{where}: seat {s} acted but seat {to_move} is to move")
            playable = any(_matches(t, open_before[i]) for t in hand) if i > 0 else True
            if must_play is not None and not ("play" in a and Tile.parse(a["play"]).index == must_play):
                raise InconsistentObservationError(f"{where}: seat {me} must place the tile it just drew")
            must_play = None
            if "draw" in a:
                if boneyard == 0:
                    raise InconsistentObservationError(f"{where}: seat {s} draws from an empty boneyard")
                if i == 0:
                    raise InconsistentObservationError(f"{where}: the starter must open, not draw")
                if s == me:
                    if playable:
                        raise InconsistentObservationError(f"{where}: seat {me} draws while holding a playable tile")
                    t = Tile.parse(a["draw"]).index
                    hand.add(t)
                    if _matches(t, open_before[i]):
                        must_play = t
                boneyard -= 1
                sizes[s] += 1
            elif "pass" in a:
                if boneyard != 0:
                    raise InconsistentObservationError(f"{where}: seat {s} passes while the boneyard has tiles")
                if i == 0 or (s == me and playable):
                    raise InconsistentObservationError(f"{where}: seat {s} passes but could place")
                to_move = (s + 1) % n
            else:
                if s == me:
                    hand.discard(Tile.parse(a["play"]).index)
                sizes[s] -= 1
                if sizes[s] < 0:
                    raise InconsistentObservationError(f"{where}: seat {s} places from an empty hand")
                over = sizes[s] == 0
                to_move = (s + 1) % n
        if obs.hand_sizes and tuple(obs.hand_sizes) != tuple(sizes):
            raise InconsistentObservationError(f"hand sizes {list(obs.hand_sizes)} do not follow from the history "
                                               f"({sizes})")
        if obs.status == "playing" and over:
            raise InconsistentObservationError("the history ends the round, but the round is said to go on")
        if obs.status == "playing" and obs.to_move is not None and obs.to_move != to_move:
            raise InconsistentObservationError(f"seat {obs.to_move} is said to move, but seat {to_move} is")

    # ------------------------------------------------------------ results
    @property
    def count(self) -> float:
        """Consistent class assignments (proportional to the consistent full deals)."""
        return self._counter.count

    @property
    def counter(self):
        """The C-level counter (used by the hint search to sample worlds without the GIL)."""
        return self._counter

    def marginals(self) -> dict:
        """Exact probability of each unseen tile being in each hidden seat's hand or in the boneyard."""
        rows = self._counter.marginals()
        out = {}
        for i, (t, seat, _) in enumerate(self._items):
            if seat is not None:
                continue
            probs = {s: 0.0 for s in self.hidden_seats}
            probs[BONEYARD] = 0.0
            for c, p in enumerate(rows[i]):
                key = BONEYARD if c == self._bone else self._class_seat[c]
                probs[key] += p
            out[ALL_TILES[t]] = probs
        return out

    def sample(self, n: int, seed: int = 0) -> list:
        """n uniformly sampled deals as they stand now (sample k from stream (seed, k))."""
        _check_count(n, seed)
        out = []
        for masks, bone in self._counter.worlds(n, seed & (2 ** 64 - 1)):
            hands = {s: tuple(ALL_TILES[t] for t in range(28) if (masks[s] >> t) & 1) for s in self.hidden_seats}
            out.append(Deal(hands, tuple(ALL_TILES[t] for t in bone)))
        return out

    def sample_rounds(self, n: int, seed: int = 0) -> list:
        """n uniformly sampled full deals of the round: (dealt hands of all seats, full boneyard order)."""
        _check_count(n, seed)
        rng = random.Random(seed)
        return [self._full_deal(cls, rng) for cls in self._counter.classes(n, seed & (2 ** 64 - 1))]

    def sample_round(self, seed: int = 0):
        """One full deal of the round consistent with the observation."""
        return self.sample_rounds(1, seed)[0]

    def _full_deal(self, cls, rng: random.Random):
        obs, me = self.obs, self.seat
        by_class: dict = {}
        for i, c in enumerate(cls):
            by_class.setdefault(c, []).append(self._items[i][0])
        slot_tile = {}
        for c, members in enumerate(self._class_slots):
            tiles = by_class.get(c, [])
            rng.shuffle(tiles)
            for idx, t in zip(members, tiles):
                slot_tile[idx] = t
        dealt = {s: [] for s in range(self.players)}
        drawn_at = {}
        for idx, slot in enumerate(self._slots):
            if slot.arrival < 0:
                dealt[slot.seat].append(slot_tile[idx])
            else:
                drawn_at[slot.action] = slot_tile[idx]
        # the observer's dealt hand: what it holds, plus what it placed, minus what it drew
        own, own_drawn, order = {t.index for t in obs.hand}, set(), []
        for i, a in enumerate(obs.history):
            if a["seat"] == me and "play" in a:
                own.add(Tile.parse(a["play"]).index)
            if "draw" in a:
                if a["seat"] == me:
                    t = Tile.parse(a["draw"]).index
                    own_drawn.add(t)
                else:
                    t = self._known_drawn.get(i, drawn_at.get(i))
                order.append(t)
        own -= own_drawn
        dealt[me] = sorted(own)
        rest = list(by_class.get(self._bone, []))
        rng.shuffle(rest)
        hands = [[ALL_TILES[t] for t in dealt[s]] for s in range(self.players)]
        return hands, [ALL_TILES[t] for t in order + rest]


def _check_count(n, seed) -> None:
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise OptionError(f"the number of samples must be an integer >= 0, not {n!r}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise OptionError(f"seed must be an integer, not {seed!r}")
