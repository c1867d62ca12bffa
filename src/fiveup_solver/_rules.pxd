# cython: language_level=3
"""The rules of Exact 61 Five Up on a compact position: the one place they live.

Everything here is C-level: plain structs and ``noexcept nogil`` inline
functions on struct pointers, so that the game owner (``_core.pyx``) and the
solver compile them into their own hot loops without any call through Python.

Compact position (RULES §3-§4): what matters for the future of a round is, per
pip value, how many regular (non-double) ends are open and in which state the
double of that value is; hands and the boneyard are 28-bit tile masks.
"""
from libc.stdint cimport uint8_t, int8_t, int16_t, uint16_t, uint32_t, uint64_t, int32_t
from libc.string cimport memcpy

cdef extern from "fiveup_tables.h":
    const uint8_t TILE_LO[28]
    const uint8_t TILE_HI[28]
    const uint8_t TILE_PIPS[28]
    const uint32_t PIP_MASK[7]
    const uint32_t PLAYABLE_BY_OPEN_VALUES[128]
    const uint16_t PIPS_BY_BYTE[4][256]
    const uint8_t TILE_INDEX[7][7]
    const uint32_t DOUBLES_MASK
    const uint8_t DS_PORTS[6]
    const int8_t MOVE_SUM_DELTA[256]
    const uint8_t MOVE_LINE_VALUE[256]
    const uint8_t DS_ATTACH_KIND[6]
    const uint8_t MOVE_AT[256]
    const uint8_t MOVE_NEW_END[256]
    const uint8_t MOVE_SHAPE[256]

cdef extern from *:
    """
    static inline int fiveup_popcount(uint32_t x) { return __builtin_popcount(x); }
    static inline int fiveup_ctz(uint32_t x) { return __builtin_ctz(x); }
    """
    int fiveup_popcount(uint32_t x) noexcept nogil
    int fiveup_ctz(uint32_t x) noexcept nogil

# ---------------------------------------------------------------- constants
cdef enum:
    N_TILES = 28
    HAND_SIZE = 5               # tiles dealt to each seat (RULES §2)
    TARGET = 305                # exact raw target (61 display points)
    # the lowest raw score kept: D4 sets no floor; a game starts at notation.MIN_SCORE
    # (-1,000,000,000) or above, and a round costs a side at most a few hundred raw: no
    # game reaches this (int32 scores; TARGET - SCORE_FLOOR still fits an int)
    SCORE_FLOOR = -2000000000
    NO_SEAT = 255

# State of the double of one pip value (RULES §3.2-§3.4).
cdef enum:
    DS_NONE = 0      # not on the board
    DS_LINE2 = 1     # the opening double: lineA and lineB both open
    DS_LINE1 = 2     # one line port open (counts 2 x value)
    DS_BRANCH2 = 3   # both line ports filled: two free branches
    DS_BRANCH1 = 4   # one branch opened, one free
    DS_BRANCH0 = 5   # both branches opened

# Canonical move kinds: move = tile | kind << 5 (one byte).  _LO attaches the
# tile's low half (the new open end is its high half); _HI the other way round.
cdef enum:
    MK_OPEN = 0        # opening tile of the round
    MK_END_LO = 1      # on a regular end of value lo (a double always uses this kind)
    MK_END_HI = 2      # on a regular end of value hi
    MK_LINE_LO = 3     # on a free line port of double lo-lo
    MK_LINE_HI = 4     # on a free line port of double hi-hi
    MK_BRANCH_LO = 5   # on a free branch of double lo-lo
    MK_BRANCH_HI = 6   # on a free branch of double hi-hi
    MOVE_PASS = 0xE0   # kind 7: pass (the only move when nothing can be placed)

# Round status.
cdef enum:
    ST_PLAYING = 0
    ST_DOMINO = 1    # a hand was emptied
    ST_BLOCKED = 2   # boneyard empty and nobody can place (D2)
    ST_WON = 3       # an accepted event reached exactly 305: the game is over

# Scoring event kinds (RECORD.md).
cdef enum:
    EV_PLACEMENT = 0
    EV_DOMINO = 1
    EV_BLOCK = 2

cdef enum:
    MAX_EVENTS = 8       # one action yields at most 1 placement + 4 block events
    MAX_MOVES = 64       # canonical moves of one seat never exceed 5 kinds x 12 tiles

# ---------------------------------------------------------------- structs
ctypedef struct Position:
    # 84 bytes, widest fields first: no padding anywhere (_exact orders positions by their
    # bytes, and a memcmp of two Positions compares their fields only)
    uint32_t hand[4]          # tile mask held by each seat
    uint32_t board            # tile mask on the board
    int32_t score[3]          # raw score per side, 0 past side_count (may be negative, D4: 16 bits ran out after ~550 rounds)
    int16_t ends              # the end sum of RULES §4.1 (derived, kept in step)
    uint8_t open_ends[7]      # open regular (non-double) ends per pip value
    uint8_t double_state[7]   # DS_* of the double of each pip value
    uint8_t boneyard[28]      # undealt tiles in draw order; [bone_next, bone_len) still there
    uint8_t open_values       # bit v set when some port of value v is open (derived, kept in step)
    uint8_t bone_next         # index of the next tile to draw
    uint8_t bone_len          # number of tiles in this round's boneyard
    uint8_t players           # 2, 3 or 4
    uint8_t to_move           # seat to act
    uint8_t starter           # seat that opened (or opens) this round
    uint8_t status            # ST_*
    uint8_t end_seat          # seat that emptied its hand or reached 305, else NO_SEAT

ctypedef struct Event:
    uint8_t kind              # EV_*
    uint8_t seat              # seat credited
    uint8_t side              # side credited
    uint8_t accepted          # 0 when rejected by the exact target
    int16_t end_sum           # placement end sum; -1 for block events
    int16_t raw               # net raw credit as computed

ctypedef struct EventLog:
    Event ev[MAX_EVENTS]      # events of one action, in the order applied
    int n                     # number of events written

# ---------------------------------------------------------------- caller values
cdef inline long long checked_int(object x, long long lo, long long hi, str what) except? -1:
    """An integer lo..hi from a caller (the Python side of an owner or module
    function); anything else is a CoreError naming `what`. Only the Python
    boundary calls this: nogil code trusts what passed it."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        from fiveup_solver.errors import CoreError
        raise CoreError(f"{what} must be an integer {lo}..{hi}, not {x!r}"[:200])
    return x

cdef inline int checked_switch(object x, str what) except? -1:
    """A caller's on/off switch: True, False, 0 or 1 (not any truth value: "no" is no
    switch, and bool(NotImplemented) is an error in newer Pythons); else a CoreError."""
    return <int>checked_int(int(x) if isinstance(x, bool) else x, 0, 1, what)

cdef inline uint64_t checked_u64(object x, str what) except? 0:
    """An unsigned 64-bit integer (a seed, a node limit) from a caller."""
    if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < 2 ** 64:
        from fiveup_solver.errors import CoreError
        raise CoreError(f"{what} must be an integer 0..2^64-1, not {x!r}"[:200])
    return x

# ---------------------------------------------------------------- small helpers
cdef inline int side_count(const Position* p) noexcept nogil:
    # the number of sides (scores): 2 for 2 or 4 players, 3 for 3. Derived, not stored: a copy
    # loop `for s in range(side_count(p)): score[s] = p.score[s]` stays a loop of 2 or 3; bounded
    # by a stored byte, gcc made it a memcpy of up to 1,020 bytes (`rep movsq`: about 9 % of an
    # expectimax hint, whose win objective values every round's end by the equity table)
    return 2 + (p.players == 3)

cdef inline int side_of(const Position* p, int seat) noexcept nogil:
    return seat & 1 if p.players == 4 else seat

cdef inline int round_to_5(int x) noexcept nogil:
    # RULES §6.4: remainder 1-2 down, 3-4 up (x >= 0 here: pip sums)
    return ((x + 2) // 5) * 5

cdef inline int mask_pips(uint32_t m) noexcept nogil:
    return (PIPS_BY_BYTE[0][m & 255] + PIPS_BY_BYTE[1][(m >> 8) & 255]
            + PIPS_BY_BYTE[2][(m >> 16) & 255] + PIPS_BY_BYTE[3][(m >> 24) & 255])

cdef inline int double_ports(int ds) noexcept nogil:
    # open ports a double contributes to its value: line ports or free branches
    return DS_PORTS[ds]

cdef inline int open_ports(const Position* p, int v) noexcept nogil:
    return p.open_ends[v] + double_ports(p.double_state[v])

cdef inline int end_sum(const Position* p) noexcept nogil:
    return p.ends

cdef inline int end_sum_full(const Position* p) noexcept nogil:
    # RULES §4.1: regular ends count their value; a double with a free line
    # port counts 2 x value once; filled doubles and branches count 0.
    cdef int v, s = 0
    for v in range(1, 7):
        s += v * p.open_ends[v]
        if p.double_state[v] == DS_LINE1 or p.double_state[v] == DS_LINE2:
            s += 2 * v
    return s

cdef inline uint32_t playable_mask(const Position* p) noexcept nogil:
    # tiles that fit some open port; every tile when the board is empty
    if p.board == 0:
        return 0x0FFFFFFF
    return PLAYABLE_BY_OPEN_VALUES[p.open_values]

cdef inline void update_open_value(Position* p, int v) noexcept nogil:
    # without a branch: whether v has an open port is as good as random in a search
    p.open_values = (p.open_values & ~(1 << v)) | ((open_ports(p, v) != 0) << v)

cdef inline bint nobody_can_place(const Position* p) noexcept nogil:
    # the seats past p.players hold no tile (every position is built so)
    return ((p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]) & playable_mask(p)) == 0

cdef inline int move_tile(uint8_t move) noexcept nogil:
    return move & 31

cdef inline int move_kind(uint8_t move) noexcept nogil:
    return move >> 5

cdef inline int move_multiplicity(const Position* p, uint8_t move) noexcept nogil:
    # number of concrete (tile, port) placements one canonical move stands for
    cdef int t = move & 31, k = move >> 5
    if k == MK_END_LO:
        return p.open_ends[TILE_LO[t]]
    if k == MK_END_HI:
        return p.open_ends[TILE_HI[t]]
    if k == MK_LINE_LO or k == MK_BRANCH_LO:
        return double_ports(p.double_state[TILE_LO[t]])
    if k == MK_LINE_HI or k == MK_BRANCH_HI:
        return double_ports(p.double_state[TILE_HI[t]])
    return 1

# ---------------------------------------------------------------- move generation
cdef inline int tile_moves(const Position* p, int t, uint8_t* out) noexcept nogil:
    """Canonical placements of tile t (assumed in hand) on a non-empty board, in this
    order: on a regular end of value lo, on the double lo-lo (a free line port, else a
    free branch), on a regular end of value hi, on the double hi-hi; a double only on a
    regular end of its value. Writes out[0..3] whatever their number (room for 4), and
    without a branch on which fit: in a search that is as good as random."""
    cdef int lo = TILE_LO[t], hi = TILE_HI[t]
    cdef int single = lo != hi
    cdef int k_lo = DS_ATTACH_KIND[p.double_state[lo]], k_hi = DS_ATTACH_KIND[p.double_state[hi]]
    cdef int n = p.open_ends[lo] != 0
    out[0] = t | (MK_END_LO << 5)
    out[n] = t | (k_lo << 5)
    n += single & (k_lo != 0)
    out[n] = t | (MK_END_HI << 5)
    n += single & (p.open_ends[hi] != 0)
    out[n] = t | ((k_hi + 1) << 5)
    n += single & (k_hi != 0)
    return n

cdef inline int gen_moves(const Position* p, uint8_t* out) noexcept nogil:
    """Canonical placements of the seat to move (0 when it cannot place)."""
    cdef uint32_t h = p.hand[p.to_move]
    cdef uint8_t spare[4]
    cdef int n = 0, t, k
    if p.board == 0:
        while h:
            out[n] = fiveup_ctz(h) | (MK_OPEN << 5); n += 1
            h &= h - 1
        return n
    h &= playable_mask(p)
    while h:
        t = fiveup_ctz(h)
        if n <= MAX_MOVES - 4:
            n += tile_moves(p, t, out + n)
        else:
            # (not reached in play: a hand's canonical moves stay far below MAX_MOVES; kept
            # within the array all the same, a review)
            k = tile_moves(p, t, spare)
            if k > MAX_MOVES - n:
                k = MAX_MOVES - n
            memcpy(out + n, spare, k)
            n += k
        h &= h - 1
    return n

cdef inline int end_sum_after(const Position* p, int s, uint8_t move) noexcept nogil:
    """End sum after a canonical placement, from the current end sum s in O(1).

    Agrees with end_sum() of the placed position (tests check every move). By table
    (fiveup_tables.h), as the search asks this of every move it generates: a regular
    end x covered by y: s - x + y; a double on an end of its value: s + its value
    (it counts 2 x value); y on a double's line or branch: s + y, and minus the
    double's 2 x value when that fills its last line port."""
    cdef int x
    if (move >> 5) == MK_OPEN:
        return MOVE_SUM_DELTA[move]        # the opening tile's pips: the whole end sum
    x = MOVE_LINE_VALUE[move]              # 0 unless a line placement (and 2 x 0 changes nothing)
    return s + MOVE_SUM_DELTA[move] - 2 * x * (p.double_state[x] == DS_LINE1)

# ---------------------------------------------------------------- scoring events
cdef inline void log_event(EventLog* log, int kind, int seat, int side, int end_sum_, int raw, int accepted) noexcept nogil:
    if log != NULL and log.n < MAX_EVENTS:
        log.ev[log.n].kind = kind
        log.ev[log.n].seat = seat
        log.ev[log.n].side = side
        log.ev[log.n].end_sum = end_sum_
        log.ev[log.n].raw = raw
        log.ev[log.n].accepted = accepted
        log.n += 1

cdef inline bint apply_event(Position* p, int kind, int seat, int end_sum_, int raw, EventLog* log) noexcept nogil:
    """RULES §6.1: accept unless above 305; an exact 305 wins at once. Returns accepted."""
    cdef int side = side_of(p, seat)
    cdef int new = p.score[side] + raw
    cdef bint ok = new <= TARGET
    if ok:
        p.score[side] = new
        if new == TARGET:
            p.status = ST_WON
            p.end_seat = seat
    log_event(log, kind, seat, side, end_sum_, raw, ok)
    return ok

cdef inline int placement_credit(int s) noexcept nogil:
    """RULES §4.2: an end sum s scores itself when it is a positive multiple of 5.
    (For s > 0, s is a multiple of 5 exactly when s x 5^-1 mod 2^32, 0xCCCCCCCD, is at
    most (2^32 - 1) / 5: one multiplication instead of a division's sequence.)"""
    # (a product, not a choice: compilers turn a choice into a branch, mispredicted in a search)
    return s * ((s > 0) & (<uint32_t>s * <uint32_t>0xCCCCCCCD <= <uint32_t>0x33333333))

cdef inline uint32_t opponents_hands(const Position* p, int seat) noexcept nogil:
    """RULES §6.3: the tiles left in all of `seat`'s opponents' hands, together (hands
    are disjoint, so their pips are the pips of this one mask: O is rounded once)."""
    if p.players == 4:
        return p.hand[(seat + 1) & 3] | p.hand[(seat + 3) & 3]
    return (p.hand[0] | p.hand[1] | p.hand[2]) & ~p.hand[seat]

cdef inline int domino_bonus(const Position* p, int seat) noexcept nogil:
    """RULES §6.3: O - D for `seat` emptying its hand (the other hands as they are now)."""
    if p.players == 4:
        # D: the partner's pips, rounded on their own
        return round_to_5(mask_pips(opponents_hands(p, seat))) - round_to_5(mask_pips(p.hand[(seat + 2) & 3]))
    return round_to_5(mask_pips(opponents_hands(p, seat)))

cdef inline int domino_credit(const Position* p, int seat, int s) noexcept nogil:
    """RULES §6.3: P + O - D for the seat that emptied its hand (end sum s)."""
    return placement_credit(s) + domino_bonus(p, seat)

cdef inline void block_totals(int n, int starter, const int* sums, int* order, int* totals,
                              int* heavier) noexcept nogil:
    """RULES §6.5's credits of a blocked round from its hands' pip sums (`sums`, by seat;
    `n` players, `starter` the round's): `order` the seats lightest first, equal sums
    clockwise from the starter; `totals[s]` what seat s's opponents hold more than it
    (the sum of the differences, before rounding; never the partner's); `heavier[s]`
    those opponents as a seat mask. The one place the rule is worked: scoring and the
    explanation (CoreRound.block_parts, block_parts) both read it."""
    cdef int i, j, k, s, o, opponent
    for i in range(n):
        order[i] = (starter + i) % n     # clockwise from the starter
    # stable insertion sort by hand sum keeps the clockwise order among ties
    for i in range(1, n):
        k = order[i]
        j = i - 1
        while j >= 0 and sums[order[j]] > sums[k]:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = k
    for s in range(n):
        totals[s] = 0
        heavier[s] = 0
        for o in range(n):
            # opponents: another side (partners 0-2, 1-3 with 4 players; every other seat else)
            opponent = ((o ^ s) & 1) if n == 4 else (o != s)
            if opponent and sums[o] > sums[s]:
                totals[s] += sums[o] - sums[s]
                heavier[s] |= 1 << o

cdef inline void score_blocked(Position* p, EventLog* log) noexcept nogil:
    """RULES §6.5: lightest hand first, ties clockwise from the starter; each
    non-zero credit its own event; the first exact 305 ends it."""
    cdef int sums[4]
    cdef int order[4]
    cdef int totals[4]
    cdef int heavier[4]
    cdef int i, s, credit
    cdef int n = p.players
    for i in range(4):
        sums[i] = 0                      # (seats past n stay unread; set for the compiler's sake)
        order[i] = 0
        totals[i] = 0
        heavier[i] = 0
    for s in range(n):
        sums[s] = mask_pips(p.hand[s])
    block_totals(n, p.starter, sums, order, totals, heavier)
    p.status = ST_BLOCKED
    for i in range(n):
        s = order[i]
        credit = round_to_5(totals[s])
        if credit != 0:
            apply_event(p, EV_BLOCK, s, -1, credit, log)
            if p.status == ST_WON:
                return

cdef inline int blocked_winner_side(const Position* p) noexcept nogil:
    """RULES §6.6: side with the smallest single hand sum; -1 for a tie."""
    cdef int s, h, best = 1 << 30, side = -1
    for s in range(p.players):
        h = mask_pips(p.hand[s])
        if h < best:
            best = h
            side = side_of(p, s)
        elif h == best and side_of(p, s) != side:
            side = -1
    return side

cdef inline void check_blocked(Position* p, EventLog* log) noexcept nogil:
    if p.status == ST_PLAYING and p.bone_next >= p.bone_len and p.board != 0 and nobody_can_place(p):
        score_blocked(p, log)

# ---------------------------------------------------------------- actions
cdef inline uint8_t next_seat(const Position* p, int seat) noexcept nogil:
    # clockwise; a compare, not a division by the player count (every placement and pass)
    return seat + 1 if seat + 1 < p.players else 0

cdef inline void place(Position* p, uint8_t move, EventLog* log) noexcept nogil:
    """Apply one legal canonical placement of the seat to move, with its scoring."""
    place_at(p, move, end_sum_after(p, p.ends, move), log)

cdef inline void place_at(Position* p, uint8_t move, int s, EventLog* log) noexcept nogil:
    """place, with s = end_sum_after(p, p.ends, move) already known (the search has it
    from ordering the moves)."""
    cdef int t = move & 31, k = move >> 5
    cdef int lo = TILE_LO[t], hi = TILE_HI[t], x, y, f, credit, side, new
    cdef int seat = p.to_move
    p.ends = s
    p.hand[seat] &= ~(<uint32_t>1 << t)
    p.board |= <uint32_t>1 << t
    if k == MK_OPEN:
        if lo == hi:
            p.double_state[lo] = DS_LINE2
        else:
            p.open_ends[lo] += 1
            p.open_ends[hi] += 1
        p.open_values |= (1 << lo) | (1 << hi)
    else:
        # by table (MOVE_SHAPE), without a branch on the kind: a non-double covers a
        # regular end of value x or a port of the double x-x (line: LINE2 -> LINE1 ->
        # BRANCH2; branch: BRANCH2 -> BRANCH1 -> BRANCH0) and opens a regular end y; a
        # double covers a regular end of its value and attaches by its lineA, its lineB
        # the new open line port (NONE -> LINE1)
        x = MOVE_AT[move]
        y = MOVE_NEW_END[move]
        f = MOVE_SHAPE[move]
        p.open_ends[x] -= f & 1
        p.double_state[x] += (f >> 1) & 3
        p.open_ends[y] += (f >> 3) & 1
        p.open_values |= ((f >> 3) & 1) << y
        update_open_value(p, x)
    if p.hand[seat] == 0:
        apply_event(p, EV_DOMINO, seat, s, domino_credit(p, seat, s), log)
        if p.status == ST_PLAYING:
            p.status = ST_DOMINO
            p.end_seat = seat
        return
    credit = placement_credit(s)
    if log == NULL:
        # (a search: no event to log) accepted unless above 305, without a branch; an
        # exact 305 (rare) wins as in apply_event
        side = side_of(p, seat)
        new = p.score[side] + credit
        if new == TARGET and credit:
            apply_event(p, EV_PLACEMENT, seat, s, s, log)
            return
        p.score[side] = new if new <= TARGET else p.score[side]
    elif credit:
        apply_event(p, EV_PLACEMENT, seat, s, s, log)
        if p.status != ST_PLAYING:
            return
    p.to_move = next_seat(p, seat)
    check_blocked(p, log)

cdef inline bint can_place(const Position* p) noexcept nogil:
    return (p.hand[p.to_move] & playable_mask(p)) != 0

cdef inline bint boneyard_empty(const Position* p) noexcept nogil:
    return p.bone_next >= p.bone_len

cdef inline int draw_one(Position* p, EventLog* log) noexcept nogil:
    """The seat to move (unable to place) draws the boneyard's next tile."""
    cdef int t = p.boneyard[p.bone_next]
    p.bone_next += 1
    p.hand[p.to_move] |= <uint32_t>1 << t
    check_blocked(p, log)
    return t

cdef inline int draw_tile(Position* p, int t, EventLog* log) noexcept nogil:
    """The seat to move draws tile t, which must be in the undrawn boneyard: a chance
    outcome, for searches that treat the boneyard's order as unknown (t moves to the
    next slot; the undrawn rest keeps its tiles)."""
    cdef int i
    for i in range(p.bone_next, p.bone_len):
        if p.boneyard[i] == t:
            p.boneyard[i] = p.boneyard[p.bone_next]
            p.boneyard[p.bone_next] = t
            break
    return draw_one(p, log)

cdef inline void pass_turn(Position* p) noexcept nogil:
    p.to_move = next_seat(p, p.to_move)

cdef inline void forced_draws(Position* p, EventLog* log) noexcept nogil:
    """Draw until the seat to move can place or the boneyard is empty (RULES §5.2)."""
    while p.status == ST_PLAYING and not can_place(p) and not boneyard_empty(p):
        draw_one(p, log)

cdef inline void resolve_turn(Position* p) noexcept nogil:
    """Forced draws and passes until some seat can place or the round ends.

    The search treats these as no-choice steps between placements."""
    while p.status == ST_PLAYING:
        forced_draws(p, NULL)
        if p.status != ST_PLAYING or can_place(p):
            return
        pass_turn(p)

# ---------------------------------------------------------------- random numbers
ctypedef struct Rng:
    uint64_t state            # splitmix64 state; every stream starts from an explicit seed

cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    """splitmix64's output function (Stafford's Mix13): a bijection that spreads every input bit."""
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)

cdef inline uint64_t rng_next(Rng* r) noexcept nogil:
    r.state += <uint64_t>0x9E3779B97F4A7C15
    return mix64(r.state)

cdef inline uint32_t rng_below(Rng* r, uint32_t n) noexcept nogil:
    # multiply-shift range reduction: bias below 2^-32, fine for playouts
    return <uint32_t>(((rng_next(r) >> 32) * <uint64_t>n) >> 32)

cdef inline void deal_random(Position* p, int players, Rng* r) noexcept nogil:
    """A uniformly shuffled deal: HAND_SIZE tiles a seat, the rest the boneyard; random starter."""
    cdef uint8_t tiles[28]
    cdef int i, j, tmp, s
    for i in range(28):
        tiles[i] = i
    for i in range(27, 0, -1):
        j = rng_below(r, i + 1)
        tmp = tiles[i]; tiles[i] = tiles[j]; tiles[j] = tmp
    for s in range(4):
        p.hand[s] = 0
    for s in range(3):
        p.score[s] = 0
    for s in range(players):
        for i in range(HAND_SIZE):
            p.hand[s] |= <uint32_t>1 << tiles[HAND_SIZE * s + i]
    p.bone_len = N_TILES - HAND_SIZE * players
    for i in range(p.bone_len):
        p.boneyard[i] = tiles[HAND_SIZE * players + i]
    p.bone_next = 0
    p.board = 0
    p.open_values = 0
    p.ends = 0
    for i in range(7):
        p.open_ends[i] = 0
        p.double_state[i] = DS_NONE
    p.players = players
    p.starter = rng_below(r, players)
    p.to_move = p.starter
    p.status = ST_PLAYING
    p.end_seat = NO_SEAT
