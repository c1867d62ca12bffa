# cython: language_level=3
"""Owner objects over the C rules: one round's position stack with its port
topology, concrete <-> canonical move mapping, perft and random playouts.

The Python layer (``fiveup_solver.game``) builds games, records and errors on
top of :class:`CoreRound`; it never re-implements a rule.
"""
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memset, memcmp
from libc.stdint cimport uint8_t, int8_t, int16_t, uint32_t, uint64_t
from fiveup_solver._rules cimport *

PORT_NAMES_SINGLE = ("low", "high")
PORT_NAMES_DOUBLE = ("lineA", "lineB", "branchA", "branchB")

STATUS_NAMES = {ST_PLAYING: "playing", ST_DOMINO: "domino", ST_BLOCKED: "blocked", ST_WON: "won"}
EVENT_NAMES = {EV_PLACEMENT: "placement", EV_DOMINO: "domino", EV_BLOCK: "block"}


# Why a concrete placement is illegal (CoreRound.check_placement).
cpdef enum:
    PLACE_OK = 0
    PLACE_ROUND_OVER = 1
    PLACE_NOT_IN_HAND = 2
    PLACE_NEEDS_PORT = 3
    PLACE_OPENING_HAS_NO_PORT = 4
    PLACE_TARGET_NOT_ON_BOARD = 5
    PLACE_BAD_PORT_NAME = 6
    PLACE_BRANCH_CLOSED = 7
    PLACE_PORT_TAKEN = 8
    PLACE_NO_MATCH = 9


PLACE_MESSAGES = {   # why a placement is illegal; the one home of these messages (see placement_message)
    PLACE_ROUND_OVER: "the round is over",
    PLACE_NOT_IN_HAND: "tile {tile} is not in seat {seat}'s hand",
    PLACE_NEEDS_PORT: "the round is already opened: {tile} needs a port ('TILE@PORT')",
    PLACE_OPENING_HAS_NO_PORT: "nothing is on the board yet: the opening {tile} takes no port",
    PLACE_TARGET_NOT_ON_BOARD: "port {at}: {target} is not on the board",
    PLACE_BAD_PORT_NAME: "port {at}: not a port of {target}",
    PLACE_BRANCH_CLOSED: "port {at} is not open: a branch opens only after both line ports are filled",
    PLACE_PORT_TAKEN: "port {at} is already taken",
    PLACE_NO_MATCH: "{tile} does not match port {at} (value {value})",
}


def _tile_text(t):
    return f"{TILE_LO[t]}-{TILE_HI[t]}" if 0 <= t < 28 else f"tile #{t}"


def placement_message(code, t, g, k, seat=-1):
    """The one-line reason for a PLACE_* code of tile t on port k of tile g."""
    if isinstance(code, bool) or not isinstance(code, int) or code not in PLACE_MESSAGES:
        raise CoreError(f"placement_message: {code!r} is not a PLACE_* reason"[:200])
    t = checked_int(t, -2 ** 31, 2 ** 31 - 1, "placement_message tile")
    g = checked_int(g, -2 ** 31, 2 ** 31 - 1, "placement_message target")
    k = checked_int(k, -2 ** 31, 2 ** 31 - 1, "placement_message port")
    seat = checked_int(seat, -1, 3, "placement_message seat")
    if 0 <= g < 28 and 0 <= k < (4 if TILE_LO[g] == TILE_HI[g] else 2):
        at = f"{_tile_text(g)}:{(PORT_NAMES_DOUBLE if TILE_LO[g] == TILE_HI[g] else PORT_NAMES_SINGLE)[k]}"
        value = port_value(g, k)
    else:
        at = f"{_tile_text(g)}:#{k}"
        value = None
    return PLACE_MESSAGES[code].format(tile=_tile_text(t), at=at, target=_tile_text(g), value=value,
                                       seat="to move" if seat < 0 else seat)


from fiveup_solver.errors import CoreError   # a FiveUpError: the core's refusals stay in the typed tree


cdef CoreRound checked_round(object r, str what):
    """r as the CoreRound a core owner was given as `what` (anything else, None
    included: a one-line CoreError)."""
    if not isinstance(r, CoreRound):
        raise CoreError(f"{what} must be a CoreRound, not {type(r).__name__}")
    return <CoreRound>r


cdef int read_world(const Position* base, object hands, object bone, uint32_t kept_seats,
                    uint32_t* hands_out, uint8_t* bone_out) except -1:
    """Check one world a caller gives for a search of `base` and write it out: a hand
    mask per seat (a seat in `kept_seats` keeps `base`'s own hand, its entry is ignored),
    each hand as large as `base`'s; a boneyard of `base`'s undrawn size, in draw order;
    with the board, every tile exactly once. hands_out[players], bone_out[undrawn]."""
    cdef int b = base.bone_len - base.bone_next
    cdef int s, i, t
    cdef uint32_t m, seen = base.board
    if len(hands) != base.players or len(bone) != b:
        raise CoreError(f"a world has {base.players} hands and a boneyard of {b} tiles")
    for s in range(base.players):
        m = <uint32_t>checked_int(hands[s], 0, 0x0FFFFFFF, "a hand mask")
        if (kept_seats >> s) & 1:
            m = base.hand[s]
        if seen & m:
            raise CoreError("a world holds a tile twice")
        seen |= m
        hands_out[s] = m
    for i in range(b):
        t = checked_int(bone[i], 0, 27, "a boneyard tile")
        if (seen >> t) & 1:
            raise CoreError("a world holds a tile twice")
        seen |= <uint32_t>1 << t
        bone_out[i] = <uint8_t>t
    if seen != 0x0FFFFFFF:
        raise CoreError("a world must hold every tile off the board once")
    for s in range(base.players):
        if fiveup_popcount(hands_out[s]) != fiveup_popcount(base.hand[s]):
            raise CoreError(f"a world gives seat {s} {fiveup_popcount(hands_out[s])} tiles, "
                            f"not {fiveup_popcount(base.hand[s])}")
    return 0

_COPY_TOKEN = object()   # only CoreRound.copy() may build an empty owner


cdef bint _is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


cdef int checked_tile(x, str what) except -1:
    """A tile number 0..27 from a caller (anything else is a CoreError naming `what`)."""
    if not _is_int(x) or not 0 <= x < N_TILES:
        raise CoreError(f"{what}: tile number must be 0..27, not {x!r}"[:200])
    return x


cdef int checked_port(int g, k, str what) except -2:
    """A port index of tile g: 0..1 for a non-double (low, high), 0..3 for a double."""
    cdef int limit = 4 if TILE_LO[g] == TILE_HI[g] else 2
    if not _is_int(k) or not 0 <= k < limit:
        raise CoreError(f"{what}: port index must be 0..{limit - 1} for tile {TILE_LO[g]}-{TILE_HI[g]}, not {k!r}"[:200])
    return k


cdef int checked_players(players) except -1:
    if not _is_int(players) or players not in (2, 3, 4):
        raise CoreError(f"players must be 2, 3 or 4, not {players!r}"[:200])
    return players


LOWEST_SCORE = SCORE_FLOOR   # the lowest raw score the core keeps (D4 has no floor; see _rules.pxd)


cdef list checked_scores(scores, int sides, str what, int high=TARGET - 1):
    """Raw scores per side: exactly `sides` integers from LOWEST_SCORE to `high`."""
    try:
        values = list(scores)
    except TypeError:
        raise CoreError(f"{what} must be a list of {sides} integers, not {type(scores).__name__}") from None
    if len(values) != sides or not all(_is_int(x) and SCORE_FLOOR <= x <= high for x in values):
        raise CoreError(f"{what} must be {sides} integers from {SCORE_FLOOR} to {high}, not {values!r}"[:200])
    return values


cdef inline int port_value(int g, int k) noexcept nogil:
    if TILE_LO[g] == TILE_HI[g]:
        return TILE_LO[g]
    return TILE_LO[g] if k == 0 else TILE_HI[g]


cdef inline bint port_open(const Position* p, const Topology* topo, int g, int k) noexcept nogil:
    if g < 0 or g >= 28 or not (p.board >> g) & 1:
        return False
    if TILE_LO[g] != TILE_HI[g]:
        return k < 2 and topo.link[g][k] < 0
    if k < 0 or k > 3 or topo.link[g][k] >= 0:
        return False
    if k >= 2:
        return topo.link[g][0] >= 0 and topo.link[g][1] >= 0
    return True


cdef inline int concrete_to_canonical(int t, int g, int k) noexcept nogil:
    """Canonical move for tile t on port k of tile g (the port assumed open and matching)."""
    cdef int x = port_value(g, k)
    cdef bint lo_half = TILE_LO[t] == x
    if TILE_LO[t] == TILE_HI[t] or TILE_LO[g] != TILE_HI[g]:
        return t | ((MK_END_LO if lo_half else MK_END_HI) << 5)
    if k < 2:
        return t | ((MK_LINE_LO if lo_half else MK_LINE_HI) << 5)
    return t | ((MK_BRANCH_LO if lo_half else MK_BRANCH_HI) << 5)


def canonical_of(t, g, k):
    """Canonical move of a concrete placement (g = -1: the opening). The port must
    exist; its value must match the tile (checked here, the board is not)."""
    cdef int ti = checked_tile(t, "canonical_of")
    if _is_int(g) and g == -1:
        return ti | (MK_OPEN << 5)
    cdef int gi = checked_tile(g, "canonical_of target")
    cdef int ki = checked_port(gi, k, "canonical_of")
    cdef int v = port_value(gi, ki)
    if ti == gi:
        raise CoreError(f"canonical_of: tile {TILE_LO[ti]}-{TILE_HI[ti]} cannot be placed on itself")
    if TILE_LO[ti] != v and TILE_HI[ti] != v:
        raise CoreError(f"canonical_of: tile {TILE_LO[ti]}-{TILE_HI[ti]} does not match value {v}")
    return concrete_to_canonical(ti, gi, ki)


def port_name(g, k):
    cdef int gi = checked_tile(g, "port_name")
    return (PORT_NAMES_DOUBLE if TILE_LO[gi] == TILE_HI[gi] else PORT_NAMES_SINGLE)[checked_port(gi, k, "port_name")]


def value_of_port(g, k):
    """The pip value a tile must show to attach on port k of tile g."""
    cdef int gi = checked_tile(g, "value_of_port")
    return port_value(gi, checked_port(gi, k, "value_of_port"))


def tile_lo(t):
    return TILE_LO[checked_tile(t, "tile_lo")]


def tile_hi(t):
    return TILE_HI[checked_tile(t, "tile_hi")]


def side_of_seat(players, seat):
    """The side (score keeper) of a seat: RULES §1.3 (partners 0-2 and 1-3 with 4 players)."""
    cdef Position p
    p.players = checked_players(players)
    if not _is_int(seat) or not 0 <= seat < players:
        raise CoreError(f"seat must be 0..{players - 1}, not {seat!r}"[:200])
    return side_of(&p, seat)


def sides_of(players):
    """The number of sides (scores): 3 with 3 players, else 2."""
    return 3 if checked_players(players) == 3 else 2


def deal_shape(players):
    """(tiles per hand, boneyard size) of a deal: RULES §2."""
    checked_players(players)
    return HAND_SIZE, N_TILES - HAND_SIZE * players


def end_sum_credit(end_sum):
    """The raw credit a placement earns from the end sum it leaves (RULES §4.2):
    the sum itself when it is a positive multiple of 5, else 0."""
    return placement_credit(checked_int(end_sum, 0, 2 ** 15 - 1, "end sum"))


cdef list _block_parts(int n, int starter, const int* sums):
    cdef int order[4]
    cdef int totals[4]
    cdef int heavier[4]
    cdef int i, s
    block_totals(n, starter, sums, order, totals, heavier)
    out = []
    for i in range(n):
        s = order[i]
        out.append((s, sums[s], [o for o in range(n) if heavier[s] >> o & 1], totals[s], round_to_5(totals[s])))
    return out


def block_parts(pips, starter):
    """A blocked round's credits (RULES §6.5) from each seat's hand sum (``pips``, by
    seat) and the round's starter, as the scoring works them: ``(seat, pips, heavier
    opponents, total, credit)`` tuples, lightest seat first (equal sums clockwise from the
    starter); the total is what those opponents hold more, the credit it rounded once."""
    if not isinstance(pips, (list, tuple)) or not 2 <= len(pips) <= 4:
        raise CoreError(f"pips must be a list of 2 to 4 hand sums, one a seat, not {pips!r}"[:200])
    cdef int n = len(pips)
    cdef int sums[4]
    cdef int s
    for s in range(n):
        sums[s] = checked_int(pips[s], 0, 168, f"seat {s}'s pips")
    if not _is_int(starter) or not 0 <= starter < n:
        raise CoreError(f"starter must be a seat 0..{n - 1}, not {starter!r}"[:200])
    return _block_parts(n, starter, sums)


cdef list _events_to_list(const EventLog* log):
    cdef int i
    return [(EVENT_NAMES[log.ev[i].kind], log.ev[i].seat, log.ev[i].side,
             None if log.ev[i].end_sum < 0 else log.ev[i].end_sum,
             log.ev[i].raw, bool(log.ev[i].accepted)) for i in range(log.n)]


cdef uint32_t _mask(tiles) except? 0:
    cdef uint32_t m = 0
    for t in tiles:
        m |= <uint32_t>1 << <int>t
    return m


cdef class CoreRound:
    """One round of play from a known deal: positions after every action
    (copy-make stack, so undo is exact), events of the last action.

    Tiles are indices 0..27 (see ``fiveup_tables.h``); a concrete placement is
    ``(tile, target, port)`` with target -1 for the opening.
    """

    def __cinit__(self, players, hands, boneyard, starter, scores, _copy_token=None):
        self.capacity = 64
        self.frames = <Frame*>malloc(self.capacity * sizeof(Frame))
        if self.frames == NULL:
            raise MemoryError()
        self.depth = 0
        self.last_log.n = 0
        cdef Frame* f = &self.frames[0]
        memset(f, 0, sizeof(Frame))
        memset(&f.topo, -1, sizeof(Topology))
        cdef Position* p = &f.pos
        cdef int s, i
        if _copy_token is _COPY_TOKEN:
            return
        # Everything a caller gives is checked here: the rules code below trusts the position.
        cdef int n = checked_players(players)
        cdef int sides = 3 if n == 3 else 2
        try:
            hand_lists = [list(h) for h in hands]
            bone_list = list(boneyard)
        except TypeError:
            raise CoreError("hands must be a list of tile-number lists and boneyard a tile-number list") from None
        if len(hand_lists) != n:
            raise CoreError(f"hands must list {n} hands, not {len(hand_lists)}")
        for s in range(n):
            # a round starts with a tile in every hand (RULES §2); with none anywhere nobody
            # could open, the board would stay empty, never blocked, and a search would pass forever
            if not hand_lists[s]:
                raise CoreError(f"the hand of seat {s} is empty: a round starts with a tile in every hand")
        seen = set()
        for s in range(n):
            for t in hand_lists[s]:
                checked_tile(t, f"hand of seat {s}")
                if t in seen:
                    raise CoreError(f"tile number {t} is dealt twice")
                seen.add(t)
        for t in bone_list:
            checked_tile(t, "boneyard")
            if t in seen:
                raise CoreError(f"tile number {t} is dealt twice")
            seen.add(t)
        if not _is_int(starter) or not 0 <= starter < n:
            raise CoreError(f"starter must be a seat 0..{n - 1}, not {starter!r}"[:200])
        score_list = checked_scores(scores, sides, "scores", TARGET)   # 305: a game already won (display tests)
        p.players = n
        for s in range(n):
            p.hand[s] = _mask(hand_lists[s])
        p.bone_len = len(bone_list)
        for i in range(p.bone_len):
            p.boneyard[i] = bone_list[i]
        p.bone_next = 0
        for s in range(sides):
            p.score[s] = score_list[s]
        p.starter = starter
        p.to_move = starter
        p.status = ST_PLAYING
        p.end_seat = NO_SEAT

    def __dealloc__(self):
        free(self.frames)

    cdef Frame* top(self) noexcept nogil:
        return &self.frames[self.depth]

    cdef Frame* push_frame(self) except NULL:
        cdef Frame* nf
        if self.depth + 1 >= self.capacity:
            nf = <Frame*>realloc(self.frames, 2 * self.capacity * sizeof(Frame))
            if nf == NULL:
                raise MemoryError()
            self.frames = nf
            self.capacity *= 2
        memcpy(&self.frames[self.depth + 1], &self.frames[self.depth], sizeof(Frame))
        self.depth += 1
        self.last_log.n = 0
        return &self.frames[self.depth]

    def copy(self):
        """An independent copy with the same history (undo works on it too)."""
        cdef CoreRound c = CoreRound.__new__(CoreRound, 0, None, None, 0, None, _COPY_TOKEN)
        free(c.frames)
        c.frames = <Frame*>malloc(self.capacity * sizeof(Frame))
        if c.frames == NULL:
            raise MemoryError()
        memcpy(c.frames, self.frames, (self.depth + 1) * sizeof(Frame))
        c.capacity = self.capacity
        c.depth = self.depth
        c.last_log = self.last_log
        return c

    # ------------------------------------------------------------ state
    @property
    def players(self):
        return self.top().pos.players

    @property
    def to_move(self):
        return self.top().pos.to_move

    @property
    def starter(self):
        return self.top().pos.starter

    @property
    def status(self):
        return STATUS_NAMES[self.top().pos.status]

    @property
    def end_seat(self):
        cdef int s = self.top().pos.end_seat
        return None if s == NO_SEAT else s

    @property
    def scores(self):
        cdef Position* p = &self.top().pos
        return [p.score[i] for i in range(side_count(p))]

    @property
    def depth(self):
        return self.depth

    def set_scores(self, scores):
        """Overwrite the current position's scores (an analysis position whose
        round start is unknown). Raises CoreError outside LOWEST_SCORE..304."""
        cdef Position* p = &self.top().pos
        values = checked_scores(scores, side_count(p), "scores")
        for i in range(side_count(p)):
            p.score[i] = values[i]

    cdef int checked_seat(self, seat) except -1:
        if not _is_int(seat) or not 0 <= seat < self.top().pos.players:
            raise CoreError(f"seat {seat!r} is not a seat of this round"[:200])
        return seat

    def hand(self, seat):
        cdef uint32_t h = self.top().pos.hand[self.checked_seat(seat)]
        return [t for t in range(28) if (h >> t) & 1]

    @property
    def board_tiles(self):
        cdef uint32_t b = self.top().pos.board
        return [t for t in range(28) if (b >> t) & 1]

    @property
    def boneyard_left(self):
        cdef Position* p = &self.top().pos
        return [p.boneyard[i] for i in range(p.bone_next, p.bone_len)]

    @property
    def boneyard_size(self):
        cdef Position* p = &self.top().pos
        return p.bone_len - p.bone_next

    @property
    def end_sum(self):
        return end_sum(&self.top().pos)

    @property
    def open_ends(self):
        return [self.top().pos.open_ends[v] for v in range(7)]

    @property
    def double_states(self):
        return [self.top().pos.double_state[v] for v in range(7)]

    def side_of(self, seat):
        """The side (score keeper) of a seat: RULES §1.3."""
        return side_of(&self.top().pos, self.checked_seat(seat))

    def hand_pips(self, seat):
        return mask_pips(self.top().pos.hand[self.checked_seat(seat)])

    def domino_parts(self, seat):
        """RULES §6.3's parts of the event of `seat`, whose hand is empty, emptying it
        with the last placement: (P, the opponents' pips, O, the partner's pips, D);
        the partner's pips are None without partners (2 or 3 players), and D is 0."""
        cdef Position* p = &self.top().pos
        cdef int s = self.checked_seat(seat)
        cdef int opp = mask_pips(opponents_hands(p, s))
        cdef int partner
        if p.hand[s]:
            raise CoreError(f"seat {s} still holds tiles: no hand was emptied")
        if p.players == 4:
            partner = mask_pips(p.hand[(s + 2) & 3])
            parts = (placement_credit(end_sum(p)), opp, round_to_5(opp), partner, round_to_5(partner))
        else:
            parts = (placement_credit(end_sum(p)), opp, round_to_5(opp), None, 0)
        # (one rule: the event's raw credit is exactly this sum)
        assert parts[0] + parts[2] - parts[4] == domino_credit(p, s, end_sum(p))
        return parts

    def block_parts(self):
        """The blocked round's credits (RULES §6.5) from the hands as they are now, as
        the scoring worked them (see :func:`block_parts`); a round whose board still
        takes a tile, or whose boneyard is not empty, was not blocked."""
        cdef Position* p = &self.top().pos
        cdef int sums[4]
        cdef int s
        if p.board == 0 or p.bone_next < p.bone_len or not nobody_can_place(p):
            raise CoreError("the round is not blocked: a tile can still be placed or drawn")
        for s in range(p.players):
            sums[s] = mask_pips(p.hand[s])
        return _block_parts(p.players, p.starter, sums)

    def blocked_winner_side(self):
        cdef int s = blocked_winner_side(&self.top().pos)
        return None if s < 0 else s

    def turn_kind(self):
        """'place', 'draw' or 'pass' for the seat to move; None once the round is over."""
        cdef Position* p = &self.top().pos
        if p.status != ST_PLAYING:
            return None
        if can_place(p):
            return "place"
        return "pass" if boneyard_empty(p) else "draw"

    def last_events(self):
        """Events of the last action: (kind, seat, side, end_sum, raw, accepted)."""
        return _events_to_list(&self.last_log)

    # ------------------------------------------------------------ board
    def open_ports(self):
        """Open ports as (tile, port index, value), sorted by tile then port."""
        cdef Frame* f = self.top()
        out = []
        for g in range(28):
            for k in range(4):
                if port_open(&f.pos, &f.topo, g, k):
                    out.append((g, k, port_value(g, k)))
        return out

    def scoring_ends(self):
        """(tile, counted value) for every scoring end (RULES §4.1)."""
        cdef Frame* f = self.top()
        cdef int g
        out = []
        for g in range(28):
            if not (f.pos.board >> g) & 1:
                continue
            if TILE_LO[g] == TILE_HI[g]:
                if f.topo.link[g][0] < 0 or f.topo.link[g][1] < 0:
                    out.append((g, 2 * TILE_LO[g]))
            else:
                if f.topo.link[g][0] < 0:
                    out.append((g, TILE_LO[g]))
                if f.topo.link[g][1] < 0:
                    out.append((g, TILE_HI[g]))
        return out

    def links(self):
        """(tile, port, attached tile) for every connected port."""
        cdef Frame* f = self.top()
        return [(g, k, f.topo.link[g][k]) for g in range(28) for k in range(4)
                if (f.pos.board >> g) & 1 and f.topo.link[g][k] >= 0]

    def topology_agrees(self):
        """True when the port topology gives exactly the compact counts."""
        cdef Frame* f = self.top()
        cdef int v, g, k
        cdef int regular[7]
        cdef int total = 0
        for v in range(7):
            regular[v] = 0
        for g in range(28):
            if (f.pos.board >> g) & 1 and TILE_LO[g] != TILE_HI[g]:
                for k in range(2):
                    if f.topo.link[g][k] < 0:
                        regular[port_value(g, k)] += 1
        for v in range(7):
            if regular[v] != f.pos.open_ends[v]:
                return False
            g = TILE_INDEX[v][v]
            if not (f.pos.board >> g) & 1:
                if f.pos.double_state[v] != DS_NONE:
                    return False
                continue
            total = 0
            for k in range(4):
                if port_open(&f.pos, &f.topo, g, k):
                    total += 1
            if total != double_ports(f.pos.double_state[v]):
                return False
            lines_filled = f.topo.link[g][0] >= 0 and f.topo.link[g][1] >= 0
            if lines_filled != (f.pos.double_state[v] >= DS_BRANCH2):
                return False
        for v in range(7):
            if ((f.pos.open_values >> v) & 1) != (open_ports(&f.pos, v) > 0):
                return False
        return (end_sum(&f.pos) == end_sum_full(&f.pos)
                == sum(val for _, val in self.scoring_ends()))

    # ------------------------------------------------------------ moves
    def concrete_moves(self):
        """Legal placements (tile, target, port) of the seat to move; [] if it cannot place."""
        cdef Frame* f = self.top()
        cdef Position* p = &f.pos
        cdef uint32_t h
        if p.status != ST_PLAYING:
            return []
        h = p.hand[p.to_move] & playable_mask(p)
        if p.board == 0:
            return [(t, -1, -1) for t in range(28) if (h >> t) & 1]
        ports = self.open_ports()
        out = []
        for t in range(28):
            if (h >> t) & 1:
                for g, k, v in ports:
                    if TILE_LO[t] == v or TILE_HI[t] == v:
                        out.append((t, g, k))
        return out

    def canonical_moves(self):
        cdef uint8_t moves[MAX_MOVES]
        cdef Position* p = &self.top().pos
        if p.status != ST_PLAYING:
            return []
        cdef int n = gen_moves(p, moves)
        return [moves[i] for i in range(n)]

    def unlogged_placements_agree(self):
        """For every canonical move of the current position: does place() without an event
        log (the searches' path: its score update has no branch) leave the very position
        that place() with a log (the game's path) leaves? The canonical moves whose
        positions differ, [] when all agree (for tests)."""
        cdef uint8_t moves[MAX_MOVES]
        cdef Position* p = &self.top().pos
        cdef Position a, b
        cdef EventLog log
        cdef int n, i
        if p.status != ST_PLAYING:
            return []
        n = gen_moves(p, moves)
        out = []
        for i in range(n):
            memset(&a, 0, sizeof(Position))
            memset(&b, 0, sizeof(Position))
            a = p[0]
            b = p[0]
            log.n = 0
            place(&a, moves[i], &log)
            place(&b, moves[i], NULL)
            if memcmp(&a, &b, sizeof(Position)) != 0:
                out.append(moves[i])
        return out

    def multiplicity(self, move):
        """Concrete placements one canonical move of the current position stands for."""
        if not (_is_int(move) and move in self.canonical_moves()):
            raise CoreError(f"{move!r} is not a canonical move of the current position"[:200])
        return move_multiplicity(&self.top().pos, move)

    def check_placement(self, t, g, k):
        """0 if tile t on port k of tile g (g = -1: opening) is legal now, else a PLACE_* code."""
        if not (_is_int(t) and _is_int(g) and _is_int(k)) or not (-2 ** 31 <= t < 2 ** 31 and -2 ** 31 <= g < 2 ** 31
                                                                   and -2 ** 31 <= k < 2 ** 31):
            raise CoreError(f"a placement is three integers (tile, target, port), not {(t, g, k)!r}"[:200])
        return placement_check(self.top(), t, g, k)

    def place(self, t, g, k):
        """Apply a concrete placement (check_placement must have returned None)."""
        cdef int why = self.check_placement(t, g, k)
        if why != PLACE_OK:
            raise CoreError(placement_message(why, t, g, k, self.top().pos.to_move))
        cdef Frame* f = self.push_frame()
        return apply_placement(f, t, g, k, &self.last_log)

    def draw(self):
        """The seat to move draws the boneyard's next tile (only when it cannot place)."""
        cdef Position* p = &self.top().pos
        if p.status != ST_PLAYING:
            raise CoreError("the round is over")
        if can_place(p):
            raise CoreError("cannot draw while holding a playable tile")
        if boneyard_empty(p):
            raise CoreError("cannot draw from an empty boneyard")
        cdef Frame* f = self.push_frame()
        return draw_one(&f.pos, &self.last_log)

    def pass_turn(self):
        cdef Position* p = &self.top().pos
        if p.status != ST_PLAYING:
            raise CoreError("the round is over")
        if can_place(p):
            raise CoreError("cannot pass while holding a playable tile")
        if not boneyard_empty(p):
            raise CoreError("cannot pass while the boneyard has tiles")
        cdef Frame* f = self.push_frame()
        pass_turn(&f.pos)

    def undo(self):
        if self.depth == 0:
            raise CoreError("nothing to undo")
        self.depth -= 1
        self.last_log.n = 0

    # ------------------------------------------------------------ perft
    def perft(self, depth_):
        """Distinct sequences of exactly `depth` turns (concrete placements)."""
        cdef int depth = checked_int(depth_, 0, 2 ** 31 - 1, "depth")
        cdef Position p = self.top().pos
        cdef uint64_t n
        cdef int poll = 65536
        with nogil:
            n = perft_count(&p, depth, True, &poll)
        if poll < 0:
            raise KeyboardInterrupt
        return n

    def perft_canonical(self, depth_):
        """As perft, but counting canonical moves (what the search sees)."""
        cdef int depth = checked_int(depth_, 0, 2 ** 31 - 1, "depth")
        cdef Position p = self.top().pos
        cdef uint64_t n
        cdef int poll = 65536
        with nogil:
            n = perft_count(&p, depth, False, &poll)
        if poll < 0:
            raise KeyboardInterrupt
        return n


cdef int placement_check(const Frame* f, int t, int g, int k) noexcept nogil:
    """PLACE_OK if tile t (in the hand of the seat to move) fits port k of tile g
    (g = -1: the opening), else the PLACE_* reason."""
    cdef const Position* p = &f.pos
    cdef int v
    if p.status != ST_PLAYING:
        return PLACE_ROUND_OVER
    if t < 0 or t >= 28 or not (p.hand[p.to_move] >> t) & 1:
        return PLACE_NOT_IN_HAND
    if g < 0:
        return PLACE_OK if p.board == 0 else PLACE_NEEDS_PORT
    if p.board == 0:
        return PLACE_OPENING_HAS_NO_PORT
    if g >= 28 or not (p.board >> g) & 1:
        return PLACE_TARGET_NOT_ON_BOARD
    if k < 0 or k > 3 or (TILE_LO[g] != TILE_HI[g] and k >= 2):
        return PLACE_BAD_PORT_NAME
    if TILE_LO[g] == TILE_HI[g] and k >= 2 and not (f.topo.link[g][0] >= 0 and f.topo.link[g][1] >= 0):
        return PLACE_BRANCH_CLOSED
    if not port_open(p, &f.topo, g, k):
        return PLACE_PORT_TAKEN
    v = port_value(g, k)
    if TILE_LO[t] != v and TILE_HI[t] != v:
        return PLACE_NO_MATCH
    return PLACE_OK


cdef int apply_placement(Frame* f, int t, int g, int k, EventLog* log) noexcept nogil:
    """Apply a checked concrete placement to a frame: port links, then the rules' place()."""
    cdef int move, x, own
    if g < 0:
        move = t | (MK_OPEN << 5)
    else:
        move = concrete_to_canonical(t, g, k)
        x = port_value(g, k)
        own = 0 if (TILE_LO[t] == TILE_HI[t] or TILE_LO[t] == x) else 1
        f.topo.link[g][k] = t
        f.topo.link[t][own] = g
    place(&f.pos, move, log)
    return move


def board_trace(players, placements):
    """Open-value masks and end sums after each public placement of a round.

    ``placements`` are (seat, tile, target, port) in play order (target -1: the
    opening). Only the board is known here, not the hands: the placing seat is
    given the tile, plus a sentinel bit that keeps its hand from ever looking
    empty, and a one-tile phantom boneyard keeps the round from looking blocked.
    The board itself follows the same place() as every real round.
    Returns [(open_values, end_sum), ...]; raises CoreError on an impossible
    placement, with the placement's number in its ``index`` attribute.
    """
    cdef Frame f
    cdef int i = 0, seat, t, g, k, why
    checked_players(players)
    if placements is None or isinstance(placements, (str, bytes)):
        raise CoreError("placements must be a list of (seat, tile, target, port)")
    try:
        placements = list(placements)
    except TypeError:
        raise CoreError("placements must be a list of (seat, tile, target, port)") from None
    memset(&f, 0, sizeof(Frame))
    memset(&f.topo, -1, sizeof(Topology))
    f.pos.players = players
    f.pos.bone_len = 1
    f.pos.status = ST_PLAYING
    f.pos.end_seat = NO_SEAT
    out = []
    for item in placements:
        try:
            values = tuple(item)
        except TypeError:
            values = ()
        if len(values) != 4 or not all(_is_int(x) and -2 ** 31 <= x < 2 ** 31 for x in values):
            raise _trace_error(i, "a placement is four integers (seat, tile, target, port)")
        seat, t, g, k = values
        if seat < 0 or seat >= players:
            raise _trace_error(i, f"seat {seat} is not a seat of this round")
        if t < 0 or t >= 28 or (f.pos.board >> t) & 1:
            raise _trace_error(i, "tile is already on the board" if 0 <= t < 28 else "no such tile")
        f.pos.to_move = seat
        f.pos.hand[seat] = (<uint32_t>1 << t) | (<uint32_t>1 << 31)
        f.pos.status = ST_PLAYING
        memset(f.pos.score, 0, sizeof(f.pos.score))   # scores play no part here: never near 305
        why = placement_check(&f, t, g, k)
        if why != PLACE_OK:
            raise _trace_error(i, placement_message(why, t, g, k, seat))
        apply_placement(&f, t, g, k, NULL)
        out.append((f.pos.open_values, f.pos.ends))
        i += 1
    return out


def _trace_error(int index, str reason):
    e = CoreError(f"placement {index}: {reason}")
    e.index = index
    e.reason = reason
    return e


cdef extern from "Python.h":
    int PyErr_CheckSignals()        # with the GIL; -1 with the handler's exception set (Ctrl-C)
    void PyErr_Clear()


cdef int perft_interrupted(int* poll) noexcept nogil:
    """Every 65,536 nodes: has Ctrl-C reached the main thread? Then poll[0] is set to -1 for
    good (every count after it returns at once) and the handler's exception cleared: the
    caller raises KeyboardInterrupt. A deep perft runs for hours; a review's ignored two
    Ctrl-Cs. Other threads never see a signal (0)."""
    if poll[0] < 0:
        return 1
    poll[0] -= 1
    if poll[0] > 0:
        return 0
    poll[0] = 65536
    with gil:
        if PyErr_CheckSignals() != 0:
            PyErr_Clear()
            poll[0] = -1
    return poll[0] < 0


cdef uint64_t perft_count(const Position* p, int depth, bint concrete, int* poll) noexcept nogil:
    """Turn sequences of exactly `depth` turns; concrete: a canonical move counts
    as the number of (tile, port) placements it stands for. ``poll``: perft_interrupted's
    countdown (the count is meaningless once it is -1)."""
    cdef Position q, r
    cdef uint8_t moves[MAX_MOVES]
    cdef int n, i
    cdef uint64_t total = 0
    if depth == 0:
        return 1
    if perft_interrupted(poll):
        return 0
    if p.status != ST_PLAYING:
        return 0
    q = p[0]
    forced_draws(&q, NULL)
    if q.status != ST_PLAYING:
        return 0
    n = gen_moves(&q, moves)
    if n == 0:
        pass_turn(&q)
        return perft_count(&q, depth - 1, concrete, poll)
    for i in range(n):
        r = q
        place(&r, moves[i], NULL)
        total += (<uint64_t>move_multiplicity(&q, moves[i]) if concrete else 1) * perft_count(&r, depth - 1, concrete,
                                                                                              poll)
    return total


# ---------------------------------------------------------------- playouts
cdef int play_random_round(Position* p, Rng* rng) noexcept nogil:
    """Play a dealt round to its end with uniformly random canonical moves."""
    cdef uint8_t moves[MAX_MOVES]
    cdef int n, placements = 0
    while p.status == ST_PLAYING:
        forced_draws(p, NULL)
        if p.status != ST_PLAYING:
            break
        n = gen_moves(p, moves)
        if n == 0:
            pass_turn(p)
        else:
            place(p, moves[rng_below(rng, n)], NULL)
            placements += 1
    return placements


def random_playouts(players_, rounds_, seed_):
    """Deal and play `rounds` whole rounds at random; returns (placements, score checksum).

    The C loop runs without the GIL; used by ``fiveup bench``.
    """
    cdef int players = checked_players(players_)
    cdef long rounds = checked_int(rounds_, 0, 2 ** 40, "rounds")
    cdef uint64_t seed = checked_u64(seed_, "seed")
    cdef Rng rng
    cdef Position p
    cdef long i
    cdef long long placements = 0, checksum = 0
    rng.state = seed
    with nogil:
        for i in range(rounds):
            deal_random(&p, players, &rng)
            placements += play_random_round(&p, &rng)
            checksum += p.score[0] - p.score[1]
    return placements, checksum
