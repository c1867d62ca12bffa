# cython: language_level=3
"""World positions for the exact information-set search (``fiveup_solver.exact``).

The exact yardstick follows every world of a seat's information set through
the rest of the round: boneyard draws are chance events over the tiles of the
world's boneyard (its order is not part of the world), so a world position
here is the core's compact :c:type:`Position` with the boneyard kept as a
*set*: the undrawn tiles sorted, the drawn slots blanked. Two histories that
reach the same state then give byte-identical positions, which is what the
search groups and memoises on.

Positions travel as ``bytes`` (``sizeof(Position)``); every function checks
that it was given one (a caller's bytes of another length are refused), and the
moves and tiles it applies are checked against the position, so nothing a
Python caller passes reaches the rules unchecked. The rules themselves are
``_rules.pxd``'s, unchanged.
"""
from libc.string cimport memcpy
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from fiveup_solver._rules cimport *
from fiveup_solver._core cimport CoreRound
from fiveup_solver._solver cimport accepted_credit
from fiveup_solver.errors import CoreError

POSITION_BYTES = sizeof(Position)
STATUS_PLAYING = ST_PLAYING
STATUS_DOMINO = ST_DOMINO
STATUS_BLOCKED = ST_BLOCKED
STATUS_WON = ST_WON


cdef void canonical_boneyard(Position* p) noexcept nogil:
    """The undrawn tiles sorted, the drawn slots set to 0xFF: the boneyard as a set."""
    cdef uint32_t m = 0
    cdef int i, t, k
    for i in range(p.bone_next, p.bone_len):
        m |= <uint32_t>1 << p.boneyard[i]
    for i in range(p.bone_next):
        p.boneyard[i] = 0xFF
    k = p.bone_next
    for t in range(28):
        if (m >> t) & 1:
            p.boneyard[k] = t
            k += 1
    for i in range(p.bone_len, 28):
        p.boneyard[i] = 0xFF


cdef inline uint32_t bone_mask(const Position* p) noexcept nogil:
    cdef uint32_t m = 0
    cdef int i
    for i in range(p.bone_next, p.bone_len):
        m |= <uint32_t>1 << p.boneyard[i]
    return m


cdef int load(object pos, Position* out) except -1:
    """A caller's world position, refused unless every field the rules index with is
    in range (a hand-made or damaged one must not reach the C code)."""
    cdef int s, i
    cdef uint32_t seen = 0
    if not isinstance(pos, bytes) or len(<bytes>pos) != sizeof(Position):
        raise CoreError(f"a world position is {sizeof(Position)} bytes from fiveup_solver._exact, "
                        f"not {type(pos).__name__}")
    memcpy(out, <const char*>(<bytes>pos), sizeof(Position))
    ok = (2 <= out.players <= 4 and out.sides == (3 if out.players == 3 else 2) and out.to_move < out.players
          and out.starter < out.players and out.status <= ST_WON and out.bone_next <= out.bone_len <= N_TILES
          and out.open_values < 128 and (out.end_seat < out.players or out.end_seat == NO_SEAT)
          and out.board < (1 << N_TILES))
    for s in range(4):
        ok = ok and out.hand[s] < (1 << N_TILES) and not (seen & out.hand[s]) and (s < out.players or not out.hand[s])
        seen |= out.hand[s]
    for i in range(7):
        ok = ok and out.double_state[i] <= DS_BRANCH0 and out.open_ends[i] <= N_TILES
    for i in range(out.bone_next, out.bone_len if out.bone_len <= N_TILES else 0):
        ok = ok and out.boneyard[i] < N_TILES and not ((seen >> out.boneyard[i]) & 1)
        if ok:
            seen |= <uint32_t>1 << out.boneyard[i]
    if not ok or (seen & out.board):
        raise CoreError("not a world position of fiveup_solver._exact (a field is out of range)")
    return 0


cdef bytes dump(Position* p):
    return (<char*>p)[:sizeof(Position)]


def world_position(base, hands, bone, order=None):
    """The position of `base` (its current state) with the hidden part replaced:
    ``hands`` a hand mask per seat, ``bone`` the boneyard's tile mask (as a set).
    The masks must partition the tiles off the board, with the boneyard's size
    and every hand's size unchanged. ``order``: the boneyard's tiles in the order
    they will be drawn (a sampled world with its draws, for ``greedy_search(...,
    ordered=True)``); None keeps the boneyard as a set (sorted)."""
    if not isinstance(base, CoreRound):
        raise CoreError(f"a world position is made from a CoreRound, not {type(base).__name__}")
    cdef Position p = (<CoreRound>base).top().pos
    cdef int s, n = p.players
    cdef uint32_t total = 0, m
    hands = list(hands)
    if len(hands) != n:
        raise CoreError(f"a world lists {n} hands, not {len(hands)}")
    for s in range(n):
        m = <uint32_t>checked_int(hands[s], 0, (1 << 28) - 1, f"hand mask of seat {s}")
        if fiveup_popcount(m) != fiveup_popcount(p.hand[s]):
            raise CoreError(f"seat {s} holds {fiveup_popcount(p.hand[s])} tiles, not {fiveup_popcount(m)}")
        if total & m:
            raise CoreError("a tile is in two hands of the world")
        total |= m
        p.hand[s] = m
    m = <uint32_t>checked_int(bone, 0, (1 << 28) - 1, "boneyard mask")
    if fiveup_popcount(m) != p.bone_len - p.bone_next:
        raise CoreError(f"the boneyard holds {p.bone_len - p.bone_next} tiles, not {fiveup_popcount(m)}")
    if (total & m) or ((total | m) & p.board) or fiveup_popcount(total | m | p.board) != 28:
        raise CoreError("the world's hands, boneyard and the board must hold every tile once")
    cdef int i, k = p.bone_next
    cdef uint32_t seen = 0
    for i in range(28):
        if (m >> i) & 1:
            p.boneyard[k] = i
            k += 1
    canonical_boneyard(&p)
    if order is not None:
        order = list(order)
        if len(order) != p.bone_len - p.bone_next:
            raise CoreError(f"the boneyard's order lists {len(order)} tiles, not {p.bone_len - p.bone_next}")
        for i in range(len(order)):
            k = checked_int(order[i], 0, 27, "boneyard tile")
            if not (m >> k) & 1 or (seen >> k) & 1:
                raise CoreError("the boneyard's order must list the boneyard's tiles once each")
            seen |= <uint32_t>1 << k
            p.boneyard[p.bone_next + i] = k
    return dump(&p)


def state(pos):
    """(status, seat to move, whether it can place, boneyard tiles left, scores, end seat)."""
    cdef Position p
    load(pos, &p)
    return (p.status, p.to_move, bool(p.status == ST_PLAYING and can_place(&p)), p.bone_len - p.bone_next,
            tuple(p.score[s] for s in range(p.sides)), p.end_seat)


def hand(pos, seat):
    cdef Position p
    load(pos, &p)
    return p.hand[checked_int(seat, 0, p.players - 1, "seat")]


def boneyard(pos):
    """The undrawn tiles (a tile mask)."""
    cdef Position p
    load(pos, &p)
    return bone_mask(&p)


def moves(pos):
    """[(canonical move, concrete placements it stands for, accepted placement credit)]
    of the seat to move; [] when it cannot place or the round is over."""
    cdef Position p
    cdef uint8_t ms[MAX_MOVES]
    cdef int i, n, gap
    load(pos, &p)
    if p.status != ST_PLAYING:
        return []
    n = gen_moves(&p, ms)
    gap = TARGET - p.score[side_of(&p, p.to_move)]
    return [(ms[i], move_multiplicity(&p, ms[i]), accepted_credit(&p, p.ends, ms[i], gap)) for i in range(n)]


def place_move(pos, move):
    """The position after a canonical placement of the seat to move (with its scoring)."""
    cdef Position p
    cdef uint8_t ms[MAX_MOVES]
    cdef int i, n
    load(pos, &p)
    mv = checked_int(move, 0, 255, "move")
    if p.status != ST_PLAYING:
        raise CoreError("the round is over")
    place_move_checked(&p, mv)
    canonical_boneyard(&p)
    return dump(&p)


def draw_move(pos, tile):
    """The seat to move, unable to place, draws `tile` from the boneyard (a chance outcome)."""
    cdef Position p
    cdef int i, t
    load(pos, &p)
    t = checked_int(tile, 0, 27, "tile")
    if p.status != ST_PLAYING or can_place(&p) or not (bone_mask(&p) >> t) & 1:
        raise CoreError(f"tile {t} cannot be drawn now")
    draw_tile(&p, t, NULL)
    canonical_boneyard(&p)
    return dump(&p)


def pass_move(pos):
    """The seat to move passes (it cannot place and the boneyard is empty)."""
    cdef Position p
    load(pos, &p)
    if p.status != ST_PLAYING or can_place(&p) or p.bone_next < p.bone_len:
        raise CoreError("the seat to move cannot pass now")
    pass_turn(&p)
    return dump(&p)


# ---------------------------------------------------------------- greedy opponents, walked in C
# What the seat sees on the way to its next decision, two bytes an action:
cdef enum:
    OBS_OWN_DRAW = 1      # the seat drew (value: the tile)
    OBS_OWN_PASS = 2      # the seat passed
    OBS_PLACE = 3         # another seat placed (kind byte + 16 * seat; value: canonical move)
    OBS_DRAW = 4          # another seat drew a hidden tile
    OBS_PASS = 5          # another seat passed
    MAX_OBS = 512         # bytes of one walk's observations (far above a round's actions)


cdef inline int push_draw(uint8_t* obs, int n, int seat, int me, int tile) noexcept nogil:
    """Write at obs[n] what seat `me` sees of a draw by `seat`: its own drawn tile, or
    another seat's draw without the tile. Returns the new length (n + 2)."""
    obs[n] = OBS_OWN_DRAW if seat == me else OBS_DRAW + 16 * seat
    obs[n + 1] = tile if seat == me else 0
    return n + 2


cdef struct Walk:
    int seat              # the seat whose information sets are walked to
    long long nodes       # world positions visited
    long long limit       # stop (aborted) past this many
    bint aborted
    uint8_t obs[MAX_OBS]  # the observations so far
    int n_obs


cdef int greedy_moves(const Position* p, int seat, uint8_t* ms, int* credits, int* total) noexcept nogil:
    """The greedy policy at a placement, in one place for both walks: the moves into ms
    (returns n), their accepted credits (0 above 305) into credits with -1 for every move
    below the top credit, and in *total the concrete multiplicity of the top moves (greedy
    picks uniformly among those concrete moves)."""
    cdef int n = gen_moves(<Position*>p, ms)
    cdef int gap = TARGET - p.score[side_of(p, seat)]
    cdef int i, top = -1
    for i in range(n):
        credits[i] = accepted_credit(p, p.ends, ms[i], gap)
        if credits[i] > top:
            top = credits[i]
    total[0] = 0
    for i in range(n):
        if credits[i] == top:
            total[0] += move_multiplicity(p, ms[i])
        else:
            credits[i] = -1      # not a greedy choice
    return n


cdef int walk_greedy(Walk* w, Position* p, double prob, dict groups, dict ends) except -1:
    cdef Position c
    cdef uint8_t ms[MAX_MOVES]
    cdef int credits[MAX_MOVES]
    cdef int i, n, k, total, seat, bone_n
    cdef uint32_t bm
    w.nodes += 1
    if w.nodes > w.limit:
        w.aborted = True
        return 0
    if w.n_obs + 2 > MAX_OBS:
        raise CoreError("a walk observed more actions than a round has")
    if p.status != ST_PLAYING:
        key = (p.status, tuple(p.score[i] for i in range(p.sides)), p.end_seat)
        ends[key] = ends.get(key, 0.0) + prob
        return 0
    seat = p.to_move
    bone_n = p.bone_len - p.bone_next
    if can_place(p):
        if seat == w.seat:
            key = (<char*>w.obs)[:w.n_obs]
            group = groups.get(key)
            if group is None:
                group = groups[key] = []
            (<list>group).append(((<char*>p)[:sizeof(Position)], prob))
            return 0
        n = greedy_moves(p, seat, ms, credits, &total)
        for i in range(n):
            if credits[i] < 0:
                continue
            c = p[0]
            place(&c, ms[i], NULL)
            canonical_boneyard(&c)
            w.obs[w.n_obs] = OBS_PLACE + 16 * seat
            w.obs[w.n_obs + 1] = ms[i]
            w.n_obs += 2
            walk_greedy(w, &c, prob * move_multiplicity(p, ms[i]) / total, groups, ends)
            w.n_obs -= 2
            if w.aborted:
                return 0
        return 0
    if bone_n > 0:
        bm = bone_mask(p)
        while bm:
            k = fiveup_ctz(bm)
            bm &= bm - 1
            c = p[0]
            draw_tile(&c, k, NULL)
            canonical_boneyard(&c)
            w.n_obs = push_draw(w.obs, w.n_obs, seat, w.seat, k)
            walk_greedy(w, &c, prob / bone_n, groups, ends)
            w.n_obs -= 2
            if w.aborted:
                return 0
        return 0
    c = p[0]
    pass_turn(&c)
    w.obs[w.n_obs] = OBS_OWN_PASS if seat == w.seat else OBS_PASS + 16 * seat
    w.obs[w.n_obs + 1] = 0
    w.n_obs += 2
    walk_greedy(w, &c, prob, groups, ends)
    w.n_obs -= 2
    return 0


def walk_after_move(node, move, seat, limit):
    """Every world of `node` ((position, p) pairs, `seat` to place) after the seat's
    canonical `move`, walked on to the seat's next decisions or the round's end, the
    other seats playing greedy (ties by concrete placements, draws uniform over each
    world's boneyard). Returns (groups, ends, nodes, aborted): groups maps what the
    seat observed on the way (bytes) to [(position, p)]; ends maps (status, scores,
    end seat) to the probability of ending so."""
    cdef Walk w
    cdef Position p
    cdef dict groups = {}, ends = {}
    w.seat = checked_int(seat, 0, 3, "seat")
    w.limit = checked_int(limit, 0, 2 ** 62, "limit")
    w.nodes = 0
    w.aborted = False
    w.n_obs = 0
    mv = checked_int(move, 0, 255, "move")
    for pos, prob in node:
        load(pos, &p)
        if p.status != ST_PLAYING or p.to_move != w.seat:
            raise CoreError(f"seat {w.seat} is not to move in a world of the node")
        place_move_checked(&p, mv)
        canonical_boneyard(&p)
        walk_greedy(&w, &p, float(prob), groups, ends)
        if w.aborted:
            break
    return groups, ends, w.nodes, w.aborted


cdef int place_move_checked(Position* p, int mv) except -1:
    cdef uint8_t ms[MAX_MOVES]
    cdef int i, n = gen_moves(p, ms)
    for i in range(n):
        if ms[i] == mv:
            place(p, ms[i], NULL)
            return 0
    raise CoreError(f"{mv} is not a canonical move of the seat to move")


# ---------------------------------------------------------------- the belief-state search against greedy, in C
# A belief state is the set of world positions consistent with what the seat has
# seen, with their probabilities: ids into the search's world pool, sorted, and
# probabilities summing to 1. Its value is a vector (one value per world, under the
# strategy the search chooses), memoised on the belief state. The seat's move at a
# belief state maximises the value over the worlds marked `chooser`; a world that is
# not is only evaluated (the split-sample estimate chooses on one half of a sample
# and evaluates on the other; the exact search marks every world).

cdef extern from *:
    """
    static inline unsigned long long fiveup_mix64(unsigned long long x) {
        x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33;
        x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 33; return x;
    }
    """
    uint64_t fiveup_mix64(uint64_t x) noexcept nogil

from libc.stdlib cimport malloc, realloc, free, qsort
from libc.string cimport memset, memcmp
from libc.math cimport llround, INFINITY

cdef enum:
    OBJ_POINTS = 0
    OBJ_WIN = 1
    WIN_POINTS_C = 1000     # the points objective's value of an accepted exact 305


cdef int grow(void** arr, long long* cap, long long need, size_t item) noexcept nogil:
    """Make room for `need` items (doubling); 0 when memory ran out."""
    cdef long long c = cap[0]
    cdef void* q
    if need <= c:
        return 1
    if c < 64:
        c = 64
    while c < need:
        c *= 2
    q = realloc(arr[0], <size_t>c * item)
    if q == NULL:
        return 0
    arr[0] = q
    cap[0] = c
    return 1


cdef int grow_node(BeliefSearch* s, long long need) noexcept nogil:
    """Room for `need` entries in both arrays of the belief-state stack."""
    cdef long long c = s.node_cap
    if not grow(<void**>&s.node_ids, &c, need, sizeof(int)):
        return 0
    c = s.node_cap
    if not grow(<void**>&s.node_probs, &c, need, sizeof(double)):
        return 0
    s.node_cap = c
    return 1


cdef inline uint64_t world_hash(const Position* p, uint8_t chooser) noexcept nogil:
    cdef uint64_t h = chooser
    cdef int i
    for i in range(4):
        h = fiveup_mix64(h ^ p.hand[i]) + i
    h = fiveup_mix64(h ^ p.board ^ (<uint64_t>bone_mask(p) << 32))
    for i in range(p.bone_next, p.bone_len):     # the undrawn order (sorted when the boneyard is a set)
        h = fiveup_mix64(h ^ p.boneyard[i] ^ (<uint64_t>i << 8))
    for i in range(7):
        h = fiveup_mix64(h ^ (<uint64_t>p.open_ends[i] << 8 | p.double_state[i]) ^ (<uint64_t>i << 20))
    for i in range(4):
        h = fiveup_mix64(h ^ <uint64_t><uint16_t>p.score[i] ^ (<uint64_t>i << 20))
    h = fiveup_mix64(h ^ p.to_move ^ (<uint64_t>p.status << 8) ^ (<uint64_t>p.end_seat << 16)
                     ^ (<uint64_t>p.starter << 24))
    return h


cdef inline bint same_world(const Position* a, const Position* b) noexcept nogil:
    """Equal as world positions (every field the rest of the round depends on)."""
    cdef int i
    for i in range(4):
        if a.hand[i] != b.hand[i] or a.score[i] != b.score[i]:
            return False
    for i in range(7):
        if a.open_ends[i] != b.open_ends[i] or a.double_state[i] != b.double_state[i]:
            return False
    if not (a.board == b.board and a.to_move == b.to_move and a.status == b.status and a.end_seat == b.end_seat
            and a.starter == b.starter and a.bone_len == b.bone_len and a.bone_next == b.bone_next):
        return False
    # the undrawn tiles slot by slot: the set when sorted, the order when the draws are sampled
    return memcmp(a.boneyard + a.bone_next, b.boneyard + b.bone_next, a.bone_len - a.bone_next) == 0


cdef int intern_world(BeliefSearch* s, const Position* p, uint8_t chooser) noexcept nogil:
    """The pool id of a world position (added when new); -1 when memory ran out."""
    cdef uint64_t h = world_hash(p, chooser)
    cdef int i, cap, id_
    cdef long long c
    cdef int* slots
    if 2 * (s.n_worlds + 1) > s.world_slot_cap:
        cap = 1024 if s.world_slot_cap == 0 else 2 * s.world_slot_cap
        slots = <int*>malloc(cap * sizeof(int))
        if slots == NULL:
            return -1
        memset(slots, 0, cap * sizeof(int))
        for id_ in range(s.n_worlds):
            i = <int>(world_hash(&s.worlds[id_], s.chooser[id_]) & (cap - 1))
            while slots[i]:
                i = (i + 1) & (cap - 1)
            slots[i] = id_ + 1
        free(s.world_slots)
        s.world_slots = slots
        s.world_slot_cap = cap
    i = <int>(h & (s.world_slot_cap - 1))
    while s.world_slots[i]:
        id_ = s.world_slots[i] - 1
        if s.chooser[id_] == chooser and same_world(&s.worlds[id_], p):
            return id_
        i = (i + 1) & (s.world_slot_cap - 1)
    c = s.cap_worlds
    if not grow(<void**>&s.worlds, &c, s.n_worlds + 1, sizeof(Position)):
        return -1
    c = s.cap_worlds
    if not grow(<void**>&s.chooser, &c, s.n_worlds + 1, sizeof(uint8_t)):
        return -1
    s.cap_worlds = <int>c
    s.worlds[s.n_worlds] = p[0]
    s.chooser[s.n_worlds] = chooser
    s.world_slots[i] = s.n_worlds + 1
    s.n_worlds += 1
    return s.n_worlds - 1


cdef int intern_path(BeliefSearch* s) noexcept nogil:
    """The id (this move's generation) of the observation sequence in `s.path`; -1: no memory."""
    cdef uint64_t h = 1469598103934665603ULL
    cdef int i, cap, k, j
    cdef int* slots
    cdef int* stamps
    cdef long long c
    cdef uint64_t h2
    for i in range(s.path_n):
        h = (h ^ s.path[i]) * 1099511628211ULL
    h = fiveup_mix64(h ^ <uint64_t>s.path_n)
    if 2 * (s.obs_n + 1) > s.obs_slot_cap:
        cap = 1024 if s.obs_slot_cap == 0 else 2 * s.obs_slot_cap
        slots = <int*>malloc(cap * sizeof(int))
        stamps = <int*>malloc(cap * sizeof(int))
        if slots == NULL or stamps == NULL:
            free(slots)
            free(stamps)
            return -1
        memset(stamps, 0, cap * sizeof(int))
        for k in range(s.obs_n):
            h2 = 1469598103934665603ULL
            for j in range(s.obs_len[k]):
                h2 = (h2 ^ s.obs_bytes[s.obs_at[k] + j]) * 1099511628211ULL
            h2 = fiveup_mix64(h2 ^ <uint64_t>s.obs_len[k])
            j = <int>(h2 & (cap - 1))
            while stamps[j] == s.obs_gen:
                j = (j + 1) & (cap - 1)
            stamps[j] = s.obs_gen
            slots[j] = k + 1
        free(s.obs_slots)
        free(s.obs_stamp)
        s.obs_slots = slots
        s.obs_stamp = stamps
        s.obs_slot_cap = cap
    i = <int>(h & (s.obs_slot_cap - 1))
    while s.obs_stamp[i] == s.obs_gen:
        k = s.obs_slots[i] - 1
        if s.obs_len[k] == s.path_n and memcmp(s.obs_bytes + s.obs_at[k], s.path, s.path_n) == 0:
            return k
        i = (i + 1) & (s.obs_slot_cap - 1)
    c = s.obs_cap
    if not grow(<void**>&s.obs_at, &c, s.obs_n + 1, sizeof(long long)):
        return -1
    c = s.obs_cap
    if not grow(<void**>&s.obs_len, &c, s.obs_n + 1, sizeof(int)):
        return -1
    s.obs_cap = <int>c
    if not grow(<void**>&s.obs_bytes, &s.obs_bytes_cap, s.obs_bytes_n + s.path_n + 1, 1):
        return -1
    memcpy(s.obs_bytes + s.obs_bytes_n, s.path, s.path_n)
    s.obs_at[s.obs_n] = s.obs_bytes_n
    s.obs_len[s.obs_n] = s.path_n
    s.obs_bytes_n += s.path_n
    s.obs_stamp[i] = s.obs_gen
    s.obs_slots[i] = s.obs_n + 1
    s.obs_n += 1
    return s.obs_n - 1


cdef double terminal_value(BeliefSearch* s, const Position* p) noexcept nogil:
    cdef int k, lv, idx = 0, slot, sign
    cdef double total = 0.0
    if p.status == ST_WON:
        if side_of(p, p.end_seat) == s.side:
            return 1.0 if s.objective == OBJ_WIN else <double>WIN_POINTS_C
        return 0.0 if s.objective == OBJ_WIN else -<double>WIN_POINTS_C
    if s.objective == OBJ_WIN:
        for k in range(s.sides):
            lv = p.score[k] // 5 if p.score[k] > 0 else 0
            if lv > 60:
                lv = 60
            idx = idx * 61 + lv
        slot = side_of(p, p.end_seat) if p.status == ST_DOMINO else s.sides
        return s.equity[idx * (s.sides + 1) + slot]
    for k in range(s.sides):
        sign = 1 if k == s.side else -1
        total += sign * (p.score[k] - s.root_score[k])
    return total


cdef int push_leaf(BeliefSearch* s, const Position* p, double prob, int origin, uint8_t chooser) noexcept nogil:
    cdef int w = intern_world(s, p, chooser)
    cdef int o
    if w < 0:
        s.failed = 1
        return 0
    o = intern_path(s)
    if o < 0 or not grow(<void**>&s.leaves, &s.leaf_cap, s.leaf_n + 1, sizeof(Leaf)):
        s.failed = 1
        return 0
    s.leaves[s.leaf_n].obs = o
    s.leaves[s.leaf_n].world = w
    s.leaves[s.leaf_n].origin = origin
    s.leaves[s.leaf_n].child = -1
    s.leaves[s.leaf_n].prob = prob
    s.leaf_n += 1
    return 0


cdef int walk_c(BeliefSearch* s, Position* p, double prob, int origin_world, int origin,
                long long out) noexcept nogil:
    """Walk one world on to the seat's next decisions (leaves) or the round's end (the
    terminal value into s.vec[out + origin]); the other seats play greedy. 1: stop."""
    cdef Position c
    cdef uint8_t ms[MAX_MOVES]
    cdef int credits[MAX_MOVES]
    cdef int i, n, k, total, seat, bone_n
    cdef uint32_t bm
    s.nodes += 1
    if s.nodes > s.limit:
        s.aborted = 1
        return 1
    if s.path_n + 2 > MAX_PATH:
        s.failed = 1
        return 1
    if p.status != ST_PLAYING:
        s.vec[out + origin] += prob * terminal_value(s, p)
        return 0
    seat = p.to_move
    bone_n = p.bone_len - p.bone_next
    if can_place(p):
        if seat == s.seat:
            push_leaf(s, p, prob, origin, s.chooser[origin_world])
            return s.failed
        n = greedy_moves(p, seat, ms, credits, &total)
        for i in range(n):
            if credits[i] < 0:
                continue
            c = p[0]
            place(&c, ms[i], NULL)
            if not s.ordered:
                canonical_boneyard(&c)
            s.path[s.path_n] = OBS_PLACE + 16 * seat
            s.path[s.path_n + 1] = ms[i]
            s.path_n += 2
            k = walk_c(s, &c, prob * move_multiplicity(p, ms[i]) / total, origin_world, origin, out)
            s.path_n -= 2
            if k:
                return 1
        return 0
    if bone_n > 0 and s.ordered:
        # a sampled world fixes the order: the draw is its next tile, no chance branch
        c = p[0]
        k = draw_one(&c, NULL)
        c.boneyard[c.bone_next - 1] = 0xFF      # drawn slots blank, as in the set form
        s.path_n = push_draw(s.path, s.path_n, seat, s.seat, k)
        i = walk_c(s, &c, prob, origin_world, origin, out)
        s.path_n -= 2
        return i
    if bone_n > 0:
        bm = bone_mask(p)
        while bm:
            k = fiveup_ctz(bm)
            bm &= bm - 1
            c = p[0]
            draw_tile(&c, k, NULL)
            canonical_boneyard(&c)
            s.path_n = push_draw(s.path, s.path_n, seat, s.seat, k)
            i = walk_c(s, &c, prob / bone_n, origin_world, origin, out)
            s.path_n -= 2
            if i:
                return 1
        return 0
    c = p[0]
    pass_turn(&c)
    s.path[s.path_n] = OBS_OWN_PASS if seat == s.seat else OBS_PASS + 16 * seat
    s.path[s.path_n + 1] = 0
    s.path_n += 2
    k = walk_c(s, &c, prob, origin_world, origin, out)
    s.path_n -= 2
    return k


cdef int leaf_order(const void* a, const void* b) noexcept nogil:
    cdef const Leaf* x = <const Leaf*>a
    cdef const Leaf* y = <const Leaf*>b
    if x.obs != y.obs:
        return -1 if x.obs < y.obs else 1
    if x.world != y.world:
        return -1 if x.world < y.world else 1
    if x.origin != y.origin:
        return -1 if x.origin < y.origin else 1
    return 0


cdef inline uint64_t prob_key(double p) noexcept nogil:
    # probabilities equal to 12 decimals are one key (as the Python search rounds them)
    return <uint64_t>llround(p * 1e12)


cdef uint64_t belief_hash(const int* ids, const double* probs, int n) noexcept nogil:
    cdef uint64_t h = <uint64_t>n
    cdef int i
    for i in range(n):
        h = fiveup_mix64(h ^ <uint64_t>ids[i]) ^ prob_key(probs[i])
        h = fiveup_mix64(h)
    return h


cdef long long memo_find(BeliefSearch* s, const int* ids, const double* probs, int n, uint64_t h) noexcept nogil:
    """The memo arena offset of this belief state's values, or -1."""
    cdef long long i
    cdef int k
    cdef MemoEntry* e
    if s.memo_slot_cap == 0:
        return -1
    i = <long long>(h & <uint64_t>(s.memo_slot_cap - 1))
    while s.memo_slots[i].n:
        e = &s.memo_slots[i]
        if e.hash == h and e.n == n:
            for k in range(n):
                if s.memo_ids[e.at + k] != ids[k] or prob_key(s.memo_probs[e.at + k]) != prob_key(probs[k]):
                    break
            else:
                return e.at
        i = (i + 1) & (s.memo_slot_cap - 1)
    return -1


cdef int memo_store(BeliefSearch* s, long long node, int n, long long vals, uint64_t h) noexcept nogil:
    """Store the belief state at node (scratch) with the values at s.vec[vals]; 0: no memory."""
    cdef long long cap, i, j, at
    cdef MemoEntry* slots
    cdef long long c
    if 2 * (s.memo_count + 1) > s.memo_slot_cap:
        cap = 1024 if s.memo_slot_cap == 0 else 2 * s.memo_slot_cap
        slots = <MemoEntry*>malloc(cap * sizeof(MemoEntry))
        if slots == NULL:
            return 0
        memset(slots, 0, cap * sizeof(MemoEntry))
        for j in range(s.memo_slot_cap):
            if s.memo_slots[j].n:
                i = <long long>(s.memo_slots[j].hash & <uint64_t>(cap - 1))
                while slots[i].n:
                    i = (i + 1) & (cap - 1)
                slots[i] = s.memo_slots[j]
        free(s.memo_slots)
        s.memo_slots = slots
        s.memo_slot_cap = cap
    at = s.memo_n
    c = s.memo_cap
    if not grow(<void**>&s.memo_ids, &c, at + n, sizeof(int)):
        return 0
    c = s.memo_cap
    if not grow(<void**>&s.memo_probs, &c, at + n, sizeof(double)):
        return 0
    c = s.memo_cap
    if not grow(<void**>&s.memo_vals, &c, at + n, sizeof(double)):
        return 0
    s.memo_cap = c
    for j in range(n):
        s.memo_ids[at + j] = s.node_ids[node + j]
        s.memo_probs[at + j] = s.node_probs[node + j]
        s.memo_vals[at + j] = s.vec[vals + j]
    s.memo_n += n
    i = <long long>(h & <uint64_t>(s.memo_slot_cap - 1))
    while s.memo_slots[i].n:
        i = (i + 1) & (s.memo_slot_cap - 1)
    s.memo_slots[i].hash = h
    s.memo_slots[i].at = at
    s.memo_slots[i].n = n
    s.memo_count += 1
    return 1


cdef double move_values(BeliefSearch* s, long long node, int n, int move, long long out) noexcept nogil:
    """The value of each world of the belief state at `node` (n worlds) when the seat plays
    `move` and then its chosen strategy, into s.vec[out..out+n]; returns the chooser-weighted
    value (the seat's criterion). Sets s.aborted or s.failed to stop."""
    cdef long long l0, l1, j, g0, g1, child, child_vals, first
    cdef int i, k, w, m
    cdef double mass, crit = 0.0
    cdef Position c
    for i in range(n):
        s.vec[out + i] = 0.0
    s.obs_gen += 1
    s.obs_n = 0
    s.obs_bytes_n = 0
    l0 = s.leaf_n
    for i in range(n):
        c = s.worlds[s.node_ids[node + i]]
        place(&c, <uint8_t>move, NULL)
        if not s.ordered:
            canonical_boneyard(&c)
        s.path_n = 0
        if walk_c(s, &c, 1.0, s.node_ids[node + i], i, out):
            s.leaf_n = l0
            return 0.0
    l1 = s.leaf_n
    if l1 > l0:     # (no arrival: every world ended; qsort must not see a null array)
        qsort(s.leaves + l0, <size_t>(l1 - l0), sizeof(Leaf), leaf_order)
    g0 = l0
    while g0 < l1:
        g1 = g0
        while g1 < l1 and s.leaves[g1].obs == s.leaves[g0].obs:
            g1 += 1
        # the group's belief state: its distinct worlds, weighted by how the node reaches them
        child = s.node_n
        k = 0
        mass = 0.0
        for j in range(g0, g1):
            if j == g0 or s.leaves[j].world != s.leaves[j - 1].world:
                k += 1
        if not grow_node(s, child + k):
            s.failed = 1
            s.leaf_n = l0
            return 0.0
        k = -1
        for j in range(g0, g1):
            if j == g0 or s.leaves[j].world != s.leaves[j - 1].world:
                k += 1
                s.node_ids[child + k] = s.leaves[j].world
                s.node_probs[child + k] = 0.0
            s.leaves[j].child = k
            s.node_probs[child + k] += s.node_probs[node + s.leaves[j].origin] * s.leaves[j].prob
        k += 1
        for j in range(k):
            mass += s.node_probs[child + j]
        for j in range(k):
            s.node_probs[child + j] /= mass
        s.node_n = child + k
        child_vals = decide(s, child, k)
        s.node_n = child
        if s.aborted or s.failed:
            s.leaf_n = l0
            return 0.0
        # child_vals is a memo arena offset: read it only now (the arena may have moved)
        for j in range(g0, g1):
            s.vec[out + s.leaves[j].origin] += s.leaves[j].prob * s.memo_vals[child_vals + s.leaves[j].child]
        g0 = g1
    s.leaf_n = l0
    for i in range(n):
        if s.chooser[s.node_ids[node + i]]:
            crit += s.node_probs[node + i] * s.vec[out + i]
    return crit


cdef long long decide(BeliefSearch* s, long long node, int n) noexcept nogil:
    """The values of the belief state at `node` (n worlds) under the seat's best choice there
    (the best chooser-weighted value; the greedy move when no world is a chooser): the memo
    arena offset of its value vector (-1 when stopped)."""
    cdef uint64_t h = belief_hash(s.node_ids + node, s.node_probs + node, n)
    cdef long long found = memo_find(s, s.node_ids + node, s.node_probs + node, n, h)
    cdef uint8_t ms[MAX_MOVES]
    cdef int i, nm, best_i = -1, any_chooser = 0, top, cr, gap
    cdef long long tmp, best
    cdef double v, best_v = -INFINITY
    cdef const Position* p
    if found >= 0:
        return found
    p = &s.worlds[s.node_ids[node]]
    nm = gen_moves(p, ms)
    for i in range(n):
        any_chooser |= s.chooser[s.node_ids[node + i]]
    if not any_chooser:
        # no world to choose by: the seat plays its greedy move (the first of the largest credit)
        gap = TARGET - p.score[side_of(p, p.to_move)]
        top = -1
        for i in range(nm):
            cr = accepted_credit(p, p.ends, ms[i], gap)
            if cr > top:
                top = cr
                best_i = i
        ms[0] = ms[best_i]
        nm = 1
    best = s.vec_n
    tmp = best + n
    if not grow(<void**>&s.vec, &s.vec_cap, tmp + n, sizeof(double)):
        s.failed = 1
        return -1
    s.vec_n = tmp + n
    for i in range(nm):
        v = move_values(s, node, n, ms[i], tmp)
        if s.aborted or s.failed:
            s.vec_n = best
            return -1
        if v > best_v or i == 0:
            best_v = v
            memcpy(s.vec + best, s.vec + tmp, n * sizeof(double))
    if not memo_store(s, node, n, best, h):
        s.failed = 1
        s.vec_n = best
        return -1
    s.vec_n = best
    return s.memo_n - n


cdef void free_search(BeliefSearch* s) noexcept nogil:
    free(s.worlds); free(s.chooser); free(s.world_slots)
    free(s.memo_ids); free(s.memo_probs); free(s.memo_vals); free(s.memo_slots)
    free(s.leaves); free(s.node_ids); free(s.node_probs); free(s.vec)
    free(s.obs_bytes); free(s.obs_at); free(s.obs_len); free(s.obs_slots); free(s.obs_stamp)
    memset(s, 0, sizeof(BeliefSearch))


def greedy_search(node, choosers, moves, seat, objective, root_scores, equity, limit, ordered=False):
    """The seat's best response against greedy from the belief state `node` ((position, p)
    pairs, the seat to place): for each canonical move in `moves`, the value of every world
    of `node` when the seat plays it and then the strategy that maximises the value over the
    worlds whose `choosers` entry is true (the others are only evaluated; with none in a
    belief state the seat plays its greedy move there). ``objective`` 0 points, 1 win;
    ``equity`` (objective win) the float64 P(seat's side wins) per score state (levels, 61
    per side) x starter slot (side, then drawn). Returns (values: [list per move], nodes,
    belief states, aborted); a search that runs out of memory raises CoreError. ``ordered``:
    the worlds' boneyards are orders (:func:`world_position` with ``order``), every draw the
    next tile of its world's order (sampled draws); else sets, every draw a chance node."""
    cdef BeliefSearch s
    cdef Position p
    cdef int i, n, mv, w
    cdef long long node_at, out
    cdef const double[::1] eq
    memset(&s, 0, sizeof(BeliefSearch))
    s.seat = checked_int(seat, 0, 3, "seat")
    s.objective = checked_int(objective, 0, 1, "objective")
    s.limit = checked_int(limit, 0, 2 ** 62, "limit")
    s.ordered = 1 if ordered else 0
    node = list(node)
    choosers = list(choosers)
    moves = [checked_int(m, 0, 255, "move") for m in moves]
    n = len(node)
    if n == 0 or len(choosers) != n:
        raise CoreError("a belief state lists one chooser flag per world, and at least one world")
    try:
        for i in range(n):
            if not isinstance(node[i], tuple) or len(node[i]) != 2:
                raise CoreError("a belief state lists (world position, probability) pairs")
            pos, prob = node[i]
            if isinstance(prob, bool) or not isinstance(prob, (int, float)) or not 0.0 < prob <= 1.0:
                raise CoreError(f"a world's probability must be a number in (0, 1], not {prob!r}"[:200])
            load(pos, &p)
            if p.status != ST_PLAYING or p.to_move != s.seat or not can_place(&p):
                raise CoreError(f"seat {s.seat} is not to place in a world of the belief state")
            if i == 0:
                s.players, s.sides = p.players, p.sides
                s.side = side_of(&p, s.seat)
            elif p.players != s.players:
                raise CoreError("the worlds of a belief state are of one round")
            if not s.ordered:
                canonical_boneyard(&p)      # a set: one form per state
            w = intern_world(&s, &p, 1 if choosers[i] else 0)
            if w < 0:
                raise MemoryError()
            if not grow_node(&s, i + 1):
                raise MemoryError()
            s.node_ids[i] = w
            s.node_probs[i] = float(prob)
        root_scores = list(root_scores)
        for i in range(s.sides):
            s.root_score[i] = checked_int(root_scores[i], -30000, 30000, "root score")
        if s.objective == OBJ_WIN:
            try:
                eq = equity
            except (TypeError, ValueError, BufferError):
                raise CoreError("the equity table must be a contiguous float64 array") from None
            if eq.shape[0] < (61 ** s.sides) * (s.sides + 1):
                raise CoreError("the equity table is too small for the round's sides")
            s.equity = &eq[0]
        s.node_n = n
        if not grow(<void**>&s.vec, &s.vec_cap, n, sizeof(double)):
            raise MemoryError()
        s.vec_n = n
        values = []
        for mv in moves:
            with nogil:
                move_values(&s, 0, n, mv, 0)
            if s.failed:
                raise CoreError("the exact search ran out of memory")
            if s.aborted:
                break
            values.append([s.vec[i] for i in range(n)])
        return values, s.nodes, s.memo_count, bool(s.aborted)
    finally:
        free_search(&s)
