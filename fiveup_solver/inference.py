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
from fiveup_solver.beliefs import EVIDENCE_WORLDS, Beliefs, OpponentModel, WeightedWorlds, check_beliefs, check_worlds
from fiveup_solver.errors import (MAX_SAMPLES, InconsistentObservationError, OptionError, as_int, check_seed,
                                  check_switch, is_int as _is_int, short_repr as _short)
from fiveup_solver.game import Game, check_observation, core_legal_moves  # check_observation: public here too (the sampler's reads)
from fiveup_solver.notation import ALL_TILES, BONEYARD, Move, Tile

__all__ = ["BONEYARD", "Deal", "DealSampler", "check_decision", "check_observation", "observation_signature",
           "past_evidence", "deals_from", "redeal_unseen"]

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


# bit mask of each tile's two pip values (the core's numbering), for the inner loops below
_VALUE_BITS = tuple((1 << _core.tile_lo(t)) | (1 << _core.tile_hi(t)) for t in range(28))


def _matches(tile: int, open_values: int) -> bool:
    """Whether the tile shows a value some open port takes (open_values: bit v per value)."""
    return bool(open_values & _VALUE_BITS[tile])


def observation_signature(obs) -> tuple:
    """Everything the inference reads from an observation (for no-peeking checks)."""
    check_observation(obs)
    return (obs.players, obs.seat, obs.starter, tuple(sorted(t.index for t in obs.hand)), tuple(obs.hand_sizes),
            obs.boneyard_size,
            tuple(tuple(sorted(a.items())) for a in obs.history), obs.status,
            None if obs.revealed is None else tuple(tuple(h) for h in obs.revealed))


class DealSampler:
    """Exact inference over the hidden deals consistent with one seat's observation.

    ``DealSampler(obs)`` with an :class:`~fiveup_solver.game.Observation`
    (``Game.observation(seat)``). Sampling is deterministic for a seed: sample
    k of ``sample(n, seed)`` comes from its own stream (seed, k).

    Building one checks the observation whole: ``replayed`` is the core's
    replay of its history on one consistent deal (``position(0)``).

    ``beliefs="model"`` weights the deals by how the other seats have played
    (:mod:`fiveup_solver.beliefs`, ``model`` an ``OpponentModel`` or None for the
    default family): :meth:`sample` then resamples weighted deals and
    :meth:`marginals` estimates the weighted probabilities; :meth:`weighted`
    gives the weighted worlds themselves. Full deals of the round
    (:meth:`sample_rounds`) stay uniform.
    """

    def __reduce__(self):
        # (an embedder's review: pickle raised Cython's "no default __reduce__" TypeError)
        raise OptionError("a DealSampler cannot be pickled or copied: "
                          "make one from the observation in each process (DealSampler(obs))")

    def __init__(self, obs, *, check_summary: bool = True, beliefs: str = "uniform", model=None,
                 drawing: bool = False):
        """``check_summary=False``: the observation gives only its history, hand and
        revealed hands (a record view's round); its summary fields (to move, hand
        sizes, board, scores) are not compared with the replay.
        ``drawing``: the seat to move (another seat) has chosen to draw and its tile is
        not yet picked (OpenSpiel's chance node): it holds no tile playable now, and
        nothing more is known; the deals are those of the observation with that void."""
        # (None is this function's own default, uniform: check_beliefs reads None as the hints'
        # default, the model, which a review found where the docs said uniform)
        self.beliefs = "uniform" if beliefs is None else check_beliefs(beliefs)
        check_summary = check_switch("check_summary", check_summary)
        if model is not None and (self.beliefs != "model" or not isinstance(model, OpponentModel)):
            raise OptionError("model must be an OpponentModel, and is for beliefs='model'")
        self.model = model
        self._actions = check_observation(obs)
        drawing = check_switch("drawing", drawing)
        if drawing and (obs.status != "playing" or obs.to_move == obs.seat or obs.boneyard_size == 0):
            raise OptionError(f"drawing: seat {obs.seat}'s observation has no other seat about to draw "
                              f"(status {obs.status}, seat {obs.to_move} to move, boneyard {obs.boneyard_size})")
        self._drawing = drawing
        self._check_summary = check_summary
        self.obs = obs
        self.seat = obs.seat
        self.players = obs.players
        self.hidden_seats = tuple(s for s in range(obs.players) if s != obs.seat)
        self._build()
        # the rules themselves are the core's: a history that some deal fits replays on that deal
        self.replayed = self.position(0)

    # ------------------------------------------------------------ the matching problem
    def _build(self) -> None:
        obs, me, n = self.obs, self.seat, self.players
        actions = self._actions
        hand_size, bone_size = _core.deal_shape(n)
        # the board at every action: open values before each action
        placements, place_at = [], []
        for i, (s, m) in enumerate(actions):
            if m.kind == "play":
                placements.append((s, *m.placement))
                place_at.append(i)
        try:
            trace = _core.board_trace(n, placements)
        except _core.CoreError as e:
            raise InconsistentObservationError(f"action {place_at[e.index]}: {e.reason}") from None
        open_before, cur, j = [], 0, 0
        for i in range(len(actions)):
            open_before.append(cur)
            if j < len(place_at) and place_at[j] == i:
                cur = trace[j][0]
                j += 1
        open_now = cur

        self._check_own_tiles()
        own = {t.index for t in obs.hand}
        voids = {s: [] for s in self.hidden_seats}       # seat -> [(action, open values)]
        slots: list[_Slot] = []
        placed_items = []                                 # (tile, seat, action)
        known_drawn = {}                                  # action of a hidden draw -> tile placed right after
        draws_left = bone_size
        for i, (s, m) in enumerate(actions):
            prev = actions[i - 1] if i > 0 else None
            after_draw = prev is not None and prev[1].kind == "draw" and prev[0] == s
            if m.kind == "draw":
                draws_left -= 1
                if s == me:
                    if m.tile is None:
                        raise InconsistentObservationError(f"action {i}: seat {me}'s own draw must name its tile")
                    own.add(m.tile.index)
                    continue
                if not after_draw:
                    voids[s].append((i, open_before[i]))   # a new draw sequence: nothing playable now
                nxt = actions[i + 1] if i + 1 < len(actions) else None
                if nxt is not None and nxt[0] == s and nxt[1].kind == "play":
                    known_drawn[i] = nxt[1].tile.index
                elif nxt is None and obs.status == "playing":
                    # the sequence is still going on: nothing is known of this tile yet
                    slots.append(_Slot(s, i, 10 ** 6, i))
                else:
                    slots.append(_Slot(s, i, len(voids[s]) - 1, i))
            elif m.kind == "pass":
                if s != me:
                    voids[s].append((i, open_before[i]))
            else:
                t = m.tile.index
                if s == me:
                    own.add(t)
                elif not after_draw:
                    placed_items.append((t, s, i))
        if draws_left != obs.boneyard_size:
            raise InconsistentObservationError(
                f"boneyard size {obs.boneyard_size} does not match the {bone_size - draws_left} draws seen")
        end = len(actions)
        if obs.status == "blocked" and obs.revealed is None:
            for s in self.hidden_seats:
                voids[s].append((end, open_now))
        if self._drawing:
            # the drawer's new draw: nothing it holds fits now, nor the tile of a sequence
            # still going on (it draws again), whose slot knew nothing
            drawer = obs.to_move
            voids[drawer].append((end, open_now))
            for k, slot in enumerate(slots):
                if slot.seat == drawer and slot.cover == 10 ** 6:
                    slots[k] = _Slot(drawer, slot.arrival, len(voids[drawer]) - 1, slot.action)
        for s in self.hidden_seats:
            slots[:0] = [_Slot(s, -1, 0, -1) for _ in range(hand_size)]
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
        if revealed is not None:
            for s, h in revealed.items():
                seen = sorted(h & (board | own))
                if seen:
                    raise InconsistentObservationError(
                        f"seat {s}'s revealed hand holds {ALL_TILES[seen[0]]}, which "
                        + ("is on the board" if seen[0] in board else f"seat {me} holds"))
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
            seat_voids = voids[slot.seat]
            # (no generator where the seat has shown no void: every slot at a round's start)
            if seat_voids and any(_matches(t, w) for k, (_, w) in enumerate(seat_voids) if k >= slot.cover):
                return False
            return not (strict and _matches(t, open_now))

        def bone_ok(item) -> bool:
            t, seat, _ = item
            return seat is None and (revealed is None or all(t not in h for h in revealed.values()))

        # classes: slots of one seat with the same allowed items, and the boneyard
        groups: dict = {}
        cols: dict = {}     # a slot's items depend on its seat, arrival and cover alone: a dealt hand's slots share them
        for idx, slot in enumerate(slots):
            sig = (slot.seat, slot.arrival, slot.cover)
            col = cols.get(sig)
            if col is None:
                col = cols[sig] = (slot.seat, tuple(allowed(it, slot, False) for it in items),
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
        self._allowed_masks = allowed_masks
        self._strict_masks = strict_masks if strict_now else None
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
                + ("and its revealed hands " if obs.revealed is not None else "")
                + f"(round {obs.round}, after action {len(actions) - 1})")

    def _check_own_tiles(self) -> None:
        """The observer's own bookkeeping: what it holds, placed and drew adds up to a dealt hand."""
        me = self.seat
        hand_size, _ = _core.deal_shape(self.players)
        own_drawn = [m.tile.index for s, m in self._actions if s == me and m.kind == "draw" and m.tile is not None]
        own_played = [m.tile.index for s, m in self._actions if s == me and m.kind == "play"]
        held = {t.index for t in self.obs.hand}
        dealt = (held | set(own_played)) - set(own_drawn)
        if (len(dealt) != hand_size or len(own_played) != len(set(own_played)) or len(own_drawn) != len(set(own_drawn))
                or held & set(own_played) or not set(own_drawn) <= held | set(own_played)):
            raise InconsistentObservationError(
                f"seat {me}'s hand, draws and plays do not add up to a dealt hand of {hand_size} tiles")

    def position(self, seed: int = 0):
        """The observer's position with one consistent deal filled in (a ``_core.CoreRound``):
        the history replayed by the core on ``sample_round(seed)``. Every rule of the
        history (who is to move, when a seat may draw or pass, what fits where) is the
        core's to check; the observation's public fields must then be the replay's.
        Raises :class:`InconsistentObservationError` naming the first disagreement."""
        obs, me, n = self.obs, self.seat, self.players
        hands, boneyard = self.sample_round(seed)
        start = list(obs.scores_before) or [0] * _core.sides_of(n)
        rnd = _core.CoreRound(n, [[t.index for t in h] for h in hands], [t.index for t in boneyard],
                              obs.starter, start)
        for i, (s, m) in enumerate(self._actions):
            if rnd.status != "playing":
                raise InconsistentObservationError(f"action {i}: the round was already over")
            if s != rnd.to_move:
                raise InconsistentObservationError(f"action {i}: seat {s} acted but seat {rnd.to_move} is to move")
            try:
                if m.kind == "play":
                    rnd.place(*m.placement)
                elif m.kind == "draw":
                    rnd.draw()
                else:
                    rnd.pass_turn()
            except _core.CoreError as e:
                raise InconsistentObservationError(f"action {i}: seat {s} {m}: {e}") from None
        status = rnd.status
        if not self._check_summary:
            return rnd
        if obs.status != "ended" and obs.status != status:
            raise InconsistentObservationError(f"status {obs.status!r} does not follow from the history ({status!r})")
        if obs.status == "ended" and status == "playing":
            raise InconsistentObservationError("the round is said to be over, but the history does not end it")
        sizes = tuple(len(rnd.hand(s)) for s in range(n))
        if obs.hand_sizes and tuple(obs.hand_sizes) != sizes:
            raise InconsistentObservationError(f"hand sizes {list(obs.hand_sizes)} do not follow from the history "
                                               f"({list(sizes)})")
        if status == "playing" and obs.to_move != rnd.to_move:
            raise InconsistentObservationError(f"seat {obs.to_move} is said to move, but seat {rnd.to_move} is")
        if status != "playing" and obs.to_move is not None:
            raise InconsistentObservationError(f"seat {obs.to_move} is said to move, but the round is over")
        if obs.scores_before and list(rnd.scores) != list(obs.scores):
            raise InconsistentObservationError(f"seat {me}'s scores {list(obs.scores)} do not follow from the "
                                               f"round's start {list(obs.scores_before)} and its events")
        if not obs.scores_before and obs.scores:
            # built by hand without the round's starting scores: take the scores as they are now
            rnd.set_scores(list(obs.scores))
        ports = sorted(str(p) for p in obs.open_ports)
        true_ports = sorted(f"{ALL_TILES[g]}:{_core.port_name(g, k)}" for g, k, _ in rnd.open_ports())
        if ports != true_ports or obs.end_sum != rnd.end_sum:
            raise InconsistentObservationError(
                f"open ports and end sum ({', '.join(ports) or '-'}; {obs.end_sum}) are not the board's "
                f"({', '.join(true_ports) or '-'}; {rnd.end_sum})")
        return rnd

    # ------------------------------------------------------------ results
    @property
    def count(self) -> float:
        """Consistent class assignments (proportional to the consistent full deals)."""
        return self._counter.count

    @property
    def counter(self):
        """The C-level counter (used by the hint search to sample worlds without the GIL)."""
        return self._counter

    def weighted(self, n: int = 4096, seed: int = 0):
        """The opponent model's weighted worlds (:class:`fiveup_solver.beliefs.WeightedWorlds`):
        worlds 0..n-1 of the hint's streams for `seed`, more while the ESS is low."""
        if self.beliefs != "model":
            raise OptionError("weighted worlds need beliefs='model'")
        return Beliefs(self, self.model).weigh(n, seed)

    def marginals(self, *, seed: int = 0, worlds: int = 4096) -> dict:
        """Probability of each unseen tile being in each hidden seat's hand or in the boneyard:
        exact under uniform beliefs (`seed` and `worlds` are checked, then unused); under
        ``beliefs="model"`` the weighted estimate over the worlds :meth:`weighted` draws from
        `seed`: ``worlds`` of them, doubled while their effective sample size is below half
        of ``worlds``, up to 32 times as many."""
        seed = check_seed(seed)
        worlds = check_worlds(worlds, "the number of worlds")
        if self.beliefs == "model":
            return self.weighted(worlds, seed).marginals(self)
        return self._uniform_marginals()

    def _uniform_marginals(self) -> dict:
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
        """n uniformly sampled deals as they stand now (sample k from stream (seed, k)); under
        ``beliefs="model"``, n draws from the weighted worlds (see :meth:`weighted`)."""
        n, seed = _check_count(n, seed)
        out = []
        if self.beliefs == "model":
            return deals_from(self.weighted(n, seed), self, n, seed) if n else out
        for masks, bone in self._counter.worlds(n, seed & (2 ** 64 - 1)):
            hands = {s: tuple(ALL_TILES[t] for t in range(28) if (masks[s] >> t) & 1) for s in self.hidden_seats}
            out.append(Deal(hands, tuple(ALL_TILES[t] for t in bone)))
        return out

    def sample_rounds(self, n: int, seed: int = 0) -> list:
        """n uniformly sampled full deals of the round: (dealt hands of all seats, full boneyard order)."""
        n, seed = _check_count(n, seed)
        rng = random.Random(seed)
        return [self._full_deal(cls, rng) for cls in self._counter.classes(n, seed & (2 ** 64 - 1))]

    def sample_round(self, seed: int = 0):
        """One full deal of the round consistent with the observation."""
        return self.sample_rounds(1, seed)[0]

    def configurations(self) -> int:
        """How many ways the unseen tiles can lie now (each in a hidden hand or the boneyard,
        every hand and the boneyard at its size, each tile only where the inference allows
        it): the number of worlds :meth:`exact_worlds` would weigh (some may weigh 0)."""
        places, need = self._places()
        counts = {tuple(need): 1}
        for opts in places:
            nxt: dict = {}
            for left, ways in counts.items():
                for k in opts:
                    if left[k]:
                        key = left[:k] + (left[k] - 1,) + left[k + 1:]
                        nxt[key] = nxt.get(key, 0) + ways
            counts = nxt
        return counts.get(tuple(0 for _ in need), 0)

    def _places(self):
        """For each unseen tile, the places (indices into the hidden seats, then the
        boneyard last) it may be in; and how many tiles each place holds now."""
        rows = self._counter.marginals()
        n_places = len(self.hidden_seats) + 1
        place_of_class = [n_places - 1 if c == self._bone else self.hidden_seats.index(self._class_seat[c])
                          for c in range(len(self._caps))]
        places = []
        for i, (t, seat, _) in enumerate(self._items):
            if seat is None:
                places.append(sorted({place_of_class[c] for c, p in enumerate(rows[i]) if p > 0}))
        need = [len(self.replayed.hand(s)) for s in self.hidden_seats] + [self.obs.boneyard_size]
        return places, need

    def exact_worlds(self, limit: int) -> list:
        """Every way the hidden tiles can lie now, with its exact probability under uniform
        beliefs: ``[({seat: hand mask}, boneyard mask, p), ...]`` (tile masks of the core's
        tile numbers; the boneyard as a set: its order is chance). A world's weight is the
        number of full deals of the round that lead to it. More than `limit` candidate
        configurations (:meth:`configurations`) raise :class:`OptionError`."""
        limit = as_int(limit)
        if not _is_int(limit) or limit < 1:
            raise OptionError(f"the world limit must be an integer >= 1, not {_short(limit)}")
        total = self.configurations()
        if total > limit:
            raise OptionError(f"seat {self.seat}'s position has {total} hidden configurations, more than the "
                              f"limit of {limit} (max_worlds)")
        places, need = self._places()
        n_places = len(need)
        unseen_items = [i for i, (_, seat, _) in enumerate(self._items) if seat is None]
        class_masks = [0] * n_places
        for c in range(len(self._caps)):
            k = n_places - 1 if c == self._bone else self.hidden_seats.index(self._class_seat[c])
            class_masks[k] |= 1 << c
        item_tiles = [it[0] for it in self._items]
        item_held = [1 if it[1] is None else 0 for it in self._items]
        out = []
        where = [0] * len(unseen_items)

        def weigh():
            allowed, strict = list(self._allowed_masks), (None if self._strict_masks is None
                                                           else list(self._strict_masks))
            for j, i in enumerate(unseen_items):
                allowed[i] &= class_masks[where[j]]
                if strict is not None:
                    strict[i] &= class_masks[where[j]]
            w = _sampler.DealCounter(self._caps, allowed, strict, self._bone, item_tiles, item_held,
                                     self._class_seat).count
            if w > 0:
                masks = [0] * n_places
                for j, i in enumerate(unseen_items):
                    masks[where[j]] |= 1 << self._items[i][0]
                out.append(({s: masks[k] for k, s in enumerate(self.hidden_seats)}, masks[-1], w))

        def fill(j, left):
            if j == len(unseen_items):
                weigh()
                return
            for k in places[j]:
                if left[k]:
                    where[j] = k
                    left[k] -= 1
                    fill(j + 1, left)
                    left[k] += 1

        fill(0, list(need))
        total_w = sum(w for _, _, w in out)
        return [(h, b, w / total_w) for h, b, w in out]

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
        for i, (s, m) in enumerate(self._actions):
            if s == me and m.kind == "play":
                own.add(m.tile.index)
            if m.kind == "draw":
                if s == me:
                    t = m.tile.index
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


def _check_count(n, seed) -> tuple:
    """(n, seed) as ints (a numpy integer too: errors.as_int), or a one-line OptionError."""
    n = as_int(n)
    if not _is_int(n) or not 0 <= n <= MAX_SAMPLES:
        raise OptionError(f"the number of samples must be an integer from 0 to {MAX_SAMPLES}, not {_short(n)}")
    return n, check_seed(seed)


def deals_from(ww: WeightedWorlds, ds, n: int, seed: int) -> list:
    """n deals (``inference.Deal``) resampled from weighted worlds, in world order."""
    out = []
    if n == 0:
        return out
    for k, times in ww.resample(n, seed):
        masks, bone = ww.world(k)
        hands = {s: tuple(ALL_TILES[t] for t in range(28) if (masks[s] >> t) & 1) for s in ds.hidden_seats}
        out.extend([Deal(hands, tuple(ALL_TILES[t] for t in bone))] * times)
    return out


def redeal_unseen(game: Game, seat: int, seed: int) -> None:
    """Deal the current round's tiles that `seat` has not seen again, in place:
    the other hands and the boneyard's order drawn exactly uniformly among the
    deals consistent with everything the seat has seen (:class:`DealSampler` on its
    observation), and the round's actions replayed on that deal. What the seat saw
    stays as it was; what it did not see is new.

    For an app that lets a person undo (``Game.pop`` is an exact undo: after it the
    person would know the boneyard's next tile and the bots' replies) or go on from
    a saved view of theirs: call it after the undo or the load, with a seed nobody
    can guess (``fiveup play`` and the browser app do so).

    >>> g = Game(players=2, seed=3)
    >>> seat = g.to_move
    >>> _ = g.push(g.legal_moves[0])
    >>> before = g.observation(seat)
    >>> redeal_unseen(g, seat, seed=12345)
    >>> g.observation(seat) == before
    True
    """
    if not isinstance(game, Game) or not game.rounds:
        raise OptionError(f"redeal_unseen needs a Game with a round dealt, not {_short(game)}")
    seen = game.observation(seat)       # checks the seat
    seed = check_seed(seed)
    hands, boneyard = DealSampler(seen).sample_round(seed)
    old = game.rounds.pop()             # the round as it was: replayed on the new deal
    assert sorted(hands[seat]) == sorted(old.hands[seat])
    hands[seat] = list(old.hands[seat])     # (the seat's own hand as it was dealt, in its order)
    first = not game.rounds
    game.start_round(hands, boneyard, old.starter, scores=list(old.scores_before) if first else None)
    # a round read from a view stays one: its past was played on tiles nobody here knows
    game.current.filled_for = old.filled_for
    for s, m in old.moves:
        # another seat's draw takes the new boneyard's next tile (the seat never saw it)
        game.push(Move.draw(None) if m.kind == "draw" and s != seat else m)


def past_evidence(obs, past, model: OpponentModel | None = None, seed: int = 0, cache: dict | None = None) -> dict:
    """{seat: summed log evidence per grid point} of the earlier rounds of obs's game:
    `past` lists the observer's own observations of them (the last it had of
    each round: its view at the round's end, or at its last decision there).
    ``cache``: {key: evidence} kept between calls (a bot's memory)."""
    if model is not None and not isinstance(model, OpponentModel):
        # (checked with no past too: a review's model=1 was taken while past was empty)
        raise OptionError(f"model must be an OpponentModel or None, not {_short(model)}")
    model = model or OpponentModel()
    seed = check_seed(seed)
    try:
        past = list(past)
    except TypeError:
        raise OptionError(f"past must be a list of observations, not {_short(past)}") from None
    total = {}
    for p in past:
        if not all(hasattr(p, f) for f in ("seat", "players", "round")) or p.seat != obs.seat \
                or p.players != obs.players or not (isinstance(p.round, int) and 0 <= p.round < obs.round):
            raise OptionError(f"past observations must be seat {obs.seat}'s, of earlier rounds of the same game")
        key = (p.round, len(p.history), model)
        ev = None if cache is None else cache.get(key)
        if ev is None:
            ev = Beliefs(DealSampler(p, check_summary=False), model).evidence(EVIDENCE_WORLDS, seed)
            if cache is not None:
                cache[key] = ev
        for s, e in ev.items():
            total[s] = total.get(s, 0.0) + e
    return total


def check_decision(ds: DealSampler, obs):
    """The observer's position (``ds.replayed``, some consistent deal filled in) when
    the observation's legal moves are exactly the position's, and its end sums after
    them the board's: what a hint ranks and a bot chooses from. Otherwise one
    :class:`InconsistentObservationError` naming the difference.

    >>> from fiveup_solver import Game
    >>> g = Game(players=2, seed=4)
    >>> obs = g.observation(g.to_move)
    >>> check_decision(DealSampler(obs), obs).to_move == g.to_move
    True
    """
    if not isinstance(ds, DealSampler):
        raise OptionError(f"check_decision takes a DealSampler, not {_short(ds)}")
    if obs is not ds.obs:
        # another observation's moves would be checked against this one's replay
        raise OptionError("check_decision takes the observation its DealSampler was made from")
    rnd = ds.replayed
    true_moves = core_legal_moves(rnd)
    given = list(obs.legal_moves)
    if len(set(given)) != len(given) or set(given) != set(true_moves):
        wrong = [str(m) for m in given if m not in true_moves][:3]
        missing = [str(m) for m in true_moves if m not in given][:3]
        raise InconsistentObservationError(
            f"seat {obs.seat}'s legal_moves are not the position's ({len(given)} given, {len(true_moves)} legal"
            + (f"; not legal: {', '.join(wrong)}" if wrong else "")
            + (f"; missing: {', '.join(missing)}" if missing else "")
            + ("; listed twice" if len(set(given)) != len(given) else "") + ")")
    for move, given_sum in zip(given, obs.end_sums_after):
        # a draw or a pass leaves the board as it is (Game.observation)
        if move.kind == "play":
            trial = rnd.copy()
            trial.place(*move.placement)
            true_sum = trial.end_sum
        else:
            true_sum = rnd.end_sum
        if given_sum != true_sum:
            raise InconsistentObservationError(f"seat {obs.seat}'s end sum after {move} is {true_sum}, "
                                               f"not {_short(given_sum)}")
    return rnd
