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
from fiveup_solver.errors import CoreError, SearchStopped

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
    ok = (2 <= out.players <= 4 and out.to_move < out.players
          and out.starter < out.players and out.status <= ST_WON and out.bone_next <= out.bone_len <= N_TILES
          and out.open_values < 128 and (out.end_seat < out.players or out.end_seat == NO_SEAT)
          and out.board < (1 << N_TILES))
    for s in range(4):
        ok = ok and out.hand[s] < (1 << N_TILES) and not (seen & out.hand[s]) and (s < out.players or not out.hand[s])
        seen |= out.hand[s]
    for s in range(3):
        # (a score the core keeps: TARGET - score must not overflow; none past the sides, or
        # one position would be two worlds to world_hash and same_world)
        ok = ok and SCORE_FLOOR <= out.score[s] <= TARGET and (s < side_count(out) or out.score[s] == 0)
    for i in range(7):
        # a double's state is DS_NONE exactly while the double is off the board: the
        # placements step the state by table (a double in hand on a damaged state
        # would step past DS_BRANCH0)
        ok = ok and out.double_state[i] <= DS_BRANCH0 and out.open_ends[i] <= N_TILES \
            and (out.double_state[i] != DS_NONE) == <bint>((out.board >> TILE_INDEX[i][i]) & 1)
    for i in range(out.bone_next, out.bone_len if out.bone_len <= N_TILES else 0):
        ok = ok and out.boneyard[i] < N_TILES and not ((seen >> out.boneyard[i]) & 1)
        if ok:
            seen |= <uint32_t>1 << out.boneyard[i]
    if not ok or (seen & out.board):
        raise CoreError("not a world position of fiveup_solver._exact (a field is out of range)")
    return 0


cdef list _listed(obj, str what):
    """list(obj), or a CoreError naming `what` (a caller's None or number where a
    list belongs: a review saw bare TypeErrors)."""
    try:
        return list(obj)
    except TypeError:
        raise CoreError(f"{what} must be a list, not {type(obj).__name__}") from None


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
    hands = _listed(hands, "a world's hands")
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
        order = _listed(order, "the boneyard's order")
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
            tuple(p.score[s] for s in range(side_count(&p))), p.end_seat)


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
        key = (p.status, tuple(p.score[i] for i in range(side_count(p))), p.end_seat)
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
    for item in _listed(node, "a belief state"):
        if not isinstance(item, tuple) or len(item) != 2:
            raise CoreError("a belief state lists (world position, probability) pairs")
        pos, prob = item
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
from libc.string cimport memset, memcmp, memmove
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
    for i in range(3):      # (a score's low 16 bits: same_world compares the whole)
        h = fiveup_mix64(h ^ <uint64_t><uint16_t>p.score[i] ^ (<uint64_t>i << 20))
    h = fiveup_mix64(h ^ p.to_move ^ (<uint64_t>p.status << 8) ^ (<uint64_t>p.end_seat << 16)
                     ^ (<uint64_t>p.starter << 24))
    return h


cdef inline bint same_world(const Position* a, const Position* b) noexcept nogil:
    """Equal as world positions (every field the rest of the round depends on)."""
    cdef int i
    for i in range(4):
        if a.hand[i] != b.hand[i]:
            return False
    for i in range(3):
        if a.score[i] != b.score[i]:
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


cdef extern from "Python.h":
    int PyErr_CheckSignals()        # with the GIL; -1 with the handler's exception set (Ctrl-C)
    void PyErr_Clear()


cdef bint interrupt_seen(int* poll, const int* stop, int* stopped) noexcept nogil:
    """Every 65,536 nodes: has Ctrl-C reached the main thread? (Its exception is cleared: the
    search stops and the caller raises KeyboardInterrupt.) A search of millions of positions
    would otherwise hold Ctrl-C off to its end; other threads never see it (0). At the same
    look, a set StopFlag (`stop`, NULL for none) stops it too, with stopped[0] = 1."""
    cdef int got = 0
    poll[0] -= 1
    if poll[0] > 0:
        return False
    poll[0] = 65536
    if stop != NULL and stop[0]:
        stopped[0] = 1
        return True
    with gil:
        if PyErr_CheckSignals() != 0:
            PyErr_Clear()
            got = 1
    return got


cdef class StopFlag:
    """Stops the exact searches given it (greedy_search, defence_search: ``stop=``) from
    any thread: within 65,536 more nodes of theirs they end with SearchStopped."""

    cdef int flag

    def stop(self):
        self.flag = 1

    @property
    def stopped(self):
        return bool(self.flag)


cdef inline long long look_every(int n) noexcept nogil:
    """Comparisons of n values between two looks for a stop (stop_seen): about 262,144 values."""
    return 1024 if n >= 256 else 262144 // (n if n > 0 else 1)


cdef inline bint stop_seen(DefenceSearch* d, long long* countdown, long long every) noexcept nogil:
    """One comparison more, counted down from `every`: at its end a look for a stop and
    Ctrl-C (an embedder's review: sorting or reducing a front of a million vectors held a
    stop off for minutes); 1 when one is seen (d.interrupted or d.stopped, d.aborted set)."""
    cdef int look = 1
    countdown[0] -= 1
    if countdown[0] > 0:
        return 0
    countdown[0] = every
    if interrupt_seen(&look, d.pool.stop, &d.stopped):
        if not d.stopped:
            d.interrupted = 1       # (only ever set: a Ctrl-C seen is never cleared here)
        d.aborted = 1
        return 1
    return 0


cdef inline bint work_seen(DefenceSearch* d, long long work) noexcept nogil:
    """`work` more of the search's counted work (front vectors, dominance tests) toward its
    next look for a stop and Ctrl-C, as a search node counts one; 1 when one is seen."""
    if work > 1:
        d.poll -= <int>(work - 1 if work < 65536 else 65536)
    if interrupt_seen(&d.poll, d.pool.stop, &d.stopped):
        if not d.stopped:
            d.interrupted = 1
        d.aborted = 1
        return 1
    return 0


cdef const int* stop_flag_of(object stop) except? NULL:
    """The flag of a StopFlag (NULL for None); anything else is a CoreError."""
    if stop is None:
        return NULL
    if not isinstance(stop, StopFlag):
        raise CoreError(f"stop must be a StopFlag or None, not {type(stop).__name__}")
    return &(<StopFlag>stop).flag


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
    if s.nodes > s.limit or interrupt_seen(&s.poll, s.stop, &s.stopped):
        if s.nodes <= s.limit and not s.stopped:
            s.interrupted = 1   # (kept: a later pass of the limit must not lose a Ctrl-C seen)
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


ctypedef fused SlotEntry:
    MemoEntry
    FrontEntry


cdef inline SlotEntry* free_slot(SlotEntry* slots, long long cap, uint64_t h) noexcept nogil:
    """The first empty slot (n == 0) from h's home slot on, by linear probing (cap: a power of two)."""
    cdef long long i = <long long>(h & <uint64_t>(cap - 1))
    while slots[i].n:
        i = (i + 1) & (cap - 1)
    return &slots[i]


cdef int rehash(SlotEntry** slots, long long* cap) noexcept nogil:
    """Double an open-addressing table of memo entries (1024 slots when empty), every stored
    entry moved to its new slot (an empty slot has n == 0); 0: no memory (the table unchanged)."""
    cdef long long new_cap = 1024 if cap[0] == 0 else 2 * cap[0]
    cdef long long j
    cdef SlotEntry* grown = <SlotEntry*>malloc(new_cap * sizeof(SlotEntry))
    if grown == NULL:
        return 0
    memset(grown, 0, new_cap * sizeof(SlotEntry))
    for j in range(cap[0]):
        if slots[0][j].n:
            free_slot(grown, new_cap, slots[0][j].hash)[0] = slots[0][j]
    free(slots[0])
    slots[0] = grown
    cap[0] = new_cap
    return 1


cdef int memo_store(BeliefSearch* s, long long node, int n, long long vals, uint64_t h) noexcept nogil:
    """Store the belief state at node (scratch) with the values at s.vec[vals]; 0: no memory."""
    cdef long long j, at
    cdef long long c
    cdef MemoEntry* e
    if 2 * (s.memo_count + 1) > s.memo_slot_cap and not rehash(&s.memo_slots, &s.memo_slot_cap):
        return 0
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
    e = free_slot(s.memo_slots, s.memo_slot_cap, h)
    e.hash = h
    e.at = at
    e.n = n
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


def greedy_search(node, choosers, moves, seat, objective, root_scores, equity, limit, ordered=False, stop=None):
    """The seat's best response against greedy from the belief state `node` ((position, p)
    pairs, the seat to place): for each canonical move in `moves`, the value of every world
    of `node` when the seat plays it and then the strategy that maximises the value over the
    worlds whose `choosers` entry is true (the others are only evaluated; with none in a
    belief state the seat plays its greedy move there). ``objective`` 0 points, 1 win;
    ``equity`` (objective win) the float64 P(seat's side wins) per score state (levels, 61
    per side) x starter slot (side, then drawn). Returns (values: [list per move], nodes,
    belief states, aborted); a search that runs out of memory raises CoreError. ``ordered``:
    the worlds' boneyards are orders (:func:`world_position` with ``order``), every draw the
    next tile of its world's order (sampled draws); else sets, every draw a chance node.
    ``stop``: a :class:`StopFlag` that ends the search with SearchStopped when set."""
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
    s.stop = stop_flag_of(stop)
    node = _listed(node, "a belief state")
    choosers = _listed(choosers, "the chooser flags")
    moves = [checked_int(m, 0, 255, "move") for m in _listed(moves, "the moves")]
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
                s.players, s.sides = p.players, side_count(&p)
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
        root_scores = _listed(root_scores, "the root scores")
        if len(root_scores) != s.sides:
            raise CoreError(f"the root scores list {s.sides} sides, not {len(root_scores)}")
        for i in range(s.sides):
            s.root_score[i] = checked_int(root_scores[i], SCORE_FLOOR, TARGET, "root score")
        if s.objective == OBJ_WIN:
            if equity is None:          # (a typed memoryview takes None)
                raise CoreError("the win objective needs the equity table, not None")
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
            if s.interrupted:
                raise KeyboardInterrupt
            if s.stopped:
                raise SearchStopped("the search was stopped (Hinter.stop)")
            if s.aborted:
                break
            values.append([s.vec[i] for i in range(n)])
        return values, s.nodes, s.memo_count, bool(s.aborted)
    finally:
        free_search(&s)


# ---------------------------------------------------------------- best defence, in C
# The public tree of the rest of the round: a node is the sorted distinct world positions
# consistent with what the seat has seen (sorted as the Python search sorts their bytes),
# and its value a Pareto front of per-world value vectors: the union over the seat's moves
# at its decisions, the sum over the tiles it may draw at its draws, the per-world minimum
# over the other seat's actions legal in that world (a draw: the mean over its tiles). The
# same operations in the same order as ``fiveup_solver.exact._Search.front`` (the oracle), so
# the values are the same doubles and the node counts the same numbers.

cdef enum:
    STAT_DECIDE = 0         # the seat places (the union of its moves' fronts)
    STAT_OWN_DRAW = 1       # the seat draws (the sum over the tiles it may see)
    STAT_OWN_PASS = 2       # the seat passes
    STAT_OPP_PLACE = 3      # the other seat's turn with a placement in some world
    STAT_OPP_DRAW = 4       # ... with a draw in some world
    STAT_OPP_PASS = 5       # ... with a pass in some world
    STAT_TERMINAL = 6       # worlds over at a node (valued as terminals)
    STAT_ALL_OVER = 7       # nodes whose every world is over
    STAT_MINIMAX = 8        # one-world nodes with no draw to come, valued by alpha-beta
    STAT_AB_NODES = 9       # the alpha-beta searches' nodes
    KEY_DRAW = 256          # the other seat's action keys: a canonical move, or these two
    KEY_PASS = 257
    N_KEYS = 258

ctypedef int (*index_cmp)(void* ctx, int a, int b) noexcept nogil

cdef Position _LAYOUT
cdef size_t POS_END = <size_t>(<char*>&_LAYOUT.end_seat - <char*>&_LAYOUT) + 1        # the end of the fields
# _rules.pxd orders the fields so that no padding falls between them: the fields are the
# first POS_END bytes, one run (and with 84 bytes of fields, the whole Position)
if POS_END != (sizeof(_LAYOUT.hand) + sizeof(_LAYOUT.board) + sizeof(_LAYOUT.score) + sizeof(_LAYOUT.ends)
               + sizeof(_LAYOUT.open_ends) + sizeof(_LAYOUT.double_state) + sizeof(_LAYOUT.boneyard)
               + 8 * sizeof(uint8_t)):
    raise ImportError("a Position has padding between its fields: pos_cmp would compare it")


cdef inline int pos_cmp(const Position* a, const Position* b) noexcept nogil:
    """The order of the positions' bytes (Python's order of the ``bytes``)."""
    return memcmp(a, b, POS_END)


cdef int world_cmp(void* ctx, int a, int b) noexcept nogil:
    cdef Position* w = <Position*>ctx
    return pos_cmp(&w[a], &w[b])


ctypedef struct ParetoOrder:
    const double* v         # the vectors, back to back
    const double* sums      # their sums
    int n                   # values per vector


cdef int pareto_cmp(void* ctx, int a, int b) noexcept nogil:
    """Larger sum first, then lexicographically larger (so a vector that dominates another
    always comes before it, ties of the rounded sums included), then by index."""
    cdef ParetoOrder* o = <ParetoOrder*>ctx
    cdef int i
    cdef const double* x
    cdef const double* y
    if o.sums[a] != o.sums[b]:
        return -1 if o.sums[a] > o.sums[b] else 1
    x = o.v + <long long>a * o.n
    y = o.v + <long long>b * o.n
    for i in range(o.n):
        if x[i] != y[i]:
            return -1 if x[i] > y[i] else 1
    return -1 if a < b else (1 if a > b else 0)


cdef int merge_sort(int* a, int* tmp, int n, index_cmp cmp, void* ctx, DefenceSearch* d,
                    int weight) noexcept nogil:
    """Sort a[0..n) by cmp (bottom-up merges, tmp of n ints). `d` (NULL: none): a search
    whose stop and Ctrl-C are looked at every 262,144 / `weight` comparisons (a comparison
    of `weight` values; an embedder's review: sorting a front of a million vectors held a
    stop off for seconds); 1: stopped there (d.aborted set, the order unfinished)."""
    cdef int width = 1, lo, mid, hi, i, j, k
    cdef int* src = a
    cdef int* dst = tmp
    cdef int* sw
    cdef long long every = look_every(weight)
    cdef long long countdown = every
    while width < n:
        lo = 0
        while lo < n:
            mid = lo + width if lo + width < n else n
            hi = lo + 2 * width if lo + 2 * width < n else n
            i, j, k = lo, mid, lo
            while i < mid and j < hi:
                if d != NULL and stop_seen(d, &countdown, every):
                    return 1
                if cmp(ctx, src[j], src[i]) < 0:
                    dst[k] = src[j]
                    j += 1
                else:
                    dst[k] = src[i]
                    i += 1
                k += 1
            while i < mid:
                dst[k] = src[i]
                i += 1
                k += 1
            while j < hi:
                dst[k] = src[j]
                j += 1
                k += 1
            lo = hi
        sw = src
        src = dst
        dst = sw
        width *= 2
    if src != a:
        memcpy(a, src, n * sizeof(int))
    return 0


cdef inline bint at_least(const double* w, const double* v, int n) noexcept nogil:
    """w is at least v everywhere (w dominates v or equals it)."""
    cdef int j
    for j in range(n):
        if w[j] < v[j]:
            return 0
    return 1


cdef int pareto(DefenceSearch* d, long long at, long long count, int n) noexcept nogil:
    """Reduce the `count` vectors (n values each) at d.vecs[at] to the maximal ones (none
    other at least as large everywhere), duplicates once, as ``exact._pareto``: returns how
    many, moved to d.vecs[at]; -1 when memory ran out (d.failed set), -2 when the dominance
    tests, counted in d.nodes, passed the limit (d.aborted 2) or a stop or Ctrl-C was seen
    (d.aborted 1, d.stopped or d.interrupted set)."""
    cdef long long i, k, c, tests
    cdef long long every = look_every(n)
    cdef long long countdown = every
    cdef int j, kept = 0, dominated
    cdef long long last = -1
    cdef ParetoOrder o
    cdef const double* v
    cdef double total
    if count <= 1:
        return <int>count
    if count > 2000000000:
        d.failed = 1
        return -1
    c = d.order_cap
    if not grow(<void**>&d.order, &c, count, sizeof(int)):
        d.failed = 1
        return -1
    c = d.order_cap
    if not grow(<void**>&d.order_tmp, &c, count, sizeof(int)):
        d.failed = 1
        return -1
    c = d.order_cap
    if not grow(<void**>&d.sums, &c, count, sizeof(double)):
        d.failed = 1
        return -1
    d.order_cap = c
    for i in range(count):
        v = d.vecs + at + i * n
        total = 0.0
        for j in range(n):
            total += v[j]           # in order, as Python's sum
        d.sums[i] = total
        d.order[i] = <int>i
    o.v = d.vecs + at
    o.sums = d.sums
    o.n = n
    if merge_sort(d.order, d.order_tmp, <int>count, pareto_cmp, &o, d, n):
        return -2
    if not grow(<void**>&d.kept, &d.kept_cap, count * n, sizeof(double)):
        d.failed = 1
        return -1
    for i in range(count):
        v = d.vecs + at + <long long>d.order[i] * n
        dominated = 0
        tests = 0
        # the vector that dominated the previous one first: a duplicate follows its twin in
        # this order, and the vectors of one cross product come in runs (the set is the same
        # whichever kept vector is found)
        if last >= 0:
            tests += 1
            dominated = at_least(d.kept + last * n, v, n)
        if not dominated:
            for k in range(kept):
                tests += 1
                if at_least(d.kept + k * n, v, n):
                    dominated = 1
                    last = k
                    break
                # a front of a million vectors takes seconds to pass once: looked at for a
                # stop within it, not only between vectors
                if stop_seen(d, &countdown, every):
                    return -2
        if not dominated:
            memcpy(d.kept + <long long>kept * n, v, n * sizeof(double))
            kept += 1
        # the tests are the reduction's work: counted so that the limit bounds its time
        d.nodes += tests
        if d.nodes > d.limit:
            d.aborted = 2
            return -2
        # and looked at for a stop and Ctrl-C as often as the search's nodes are
        if work_seen(d, tests):
            return -2
    memcpy(d.vecs + at, d.kept, <long long>kept * n * sizeof(double))
    return kept


cdef inline int push_ids(DefenceSearch* d, long long k) noexcept nogil:
    """Room for k more ids on the id stack (d.ids_n is not moved); 0: no memory."""
    if not grow(<void**>&d.ids, &d.ids_cap, d.ids_n + k, sizeof(int)):
        d.failed = 1
        return 0
    return 1


cdef inline int push_vecs(DefenceSearch* d, long long k) noexcept nogil:
    if not grow(<void**>&d.vecs, &d.vecs_cap, d.vecs_n + k, sizeof(double)):
        d.failed = 1
        return 0
    return 1


cdef inline int check_front(DefenceSearch* d, long long size) noexcept nogil:
    """Count `size` front vectors (as the Python search's check_front); 1: past the limit,
    or a stop or Ctrl-C seen (looked at as often as for the search's nodes)."""
    d.nodes += size
    if d.nodes > d.limit:
        d.aborted = 2
        return 1
    return work_seen(d, size)


cdef inline int child_world(DefenceSearch* d, int world, int kind, int arg) noexcept nogil:
    """The pool id of the world after an action (0 place `arg`, 1 draw tile `arg`, 2 pass),
    as place_move, draw_move and pass_move make it; -1 when memory ran out."""
    cdef Position c = d.pool.worlds[world]
    cdef int w
    if kind == 0:
        place(&c, <uint8_t>arg, NULL)
        canonical_boneyard(&c)
    elif kind == 1:
        draw_tile(&c, arg, NULL)
        canonical_boneyard(&c)
    else:
        pass_turn(&c)
    w = intern_world(&d.pool, &c, 1)
    if w < 0:
        d.failed = 1
    return w


cdef int ab_bounds(DefenceSearch* d, int w) noexcept nogil:
    """Bounds set up (unknown) for every world id up to w; 0: no memory (d.failed set)."""
    cdef long long i, c
    if w < d.ab_n:
        return 1
    c = d.ab_cap
    if not grow(<void**>&d.ab_lower, &c, <long long>w + 1, sizeof(double)):
        d.failed = 1
        return 0
    c = d.ab_cap
    if not grow(<void**>&d.ab_upper, &c, <long long>w + 1, sizeof(double)):
        d.failed = 1
        return 0
    c = d.ab_cap
    if not grow(<void**>&d.ab_best, &c, <long long>w + 1, sizeof(uint8_t)):
        d.failed = 1
        return 0
    d.ab_cap = c
    for i in range(d.ab_n, d.ab_cap):
        d.ab_lower[i] = -INFINITY
        d.ab_upper[i] = INFINITY
        d.ab_best[i] = 0xFF
    d.ab_n = d.ab_cap
    return 1


cdef double alphabeta(DefenceSearch* d, int w, double alpha, double beta) noexcept nogil:
    """Fail-soft alpha-beta over the world `w`, which has no draw to come: the seat maximises,
    the other seat minimises (its front is this one value); bounds kept per world id, the
    same steps as ``exact._Search.alphabeta``. On a stop (d.aborted or d.failed) the value
    is meaningless."""
    cdef Position p
    cdef uint8_t ms[MAX_MOVES]
    cdef int nm, j, c, mine, best
    cdef double a = alpha, b = beta, v, x, lower, upper
    d.nodes += 1
    d.stat[STAT_AB_NODES] += 1
    if d.nodes > d.limit or interrupt_seen(&d.poll, d.pool.stop, &d.stopped):
        if d.nodes <= d.limit and not d.stopped:
            d.interrupted = 1   # (kept: a later pass of the limit must not lose a Ctrl-C seen)
        d.aborted = 1
        return 0.0
    p = d.pool.worlds[w]            # a copy: interning a child may move the pool
    if p.status != ST_PLAYING:
        return terminal_value(&d.pool, &p)
    if not ab_bounds(d, w):
        return 0.0
    lower, upper, best = d.ab_lower[w], d.ab_upper[w], d.ab_best[w]
    if lower >= beta or lower == upper:
        return lower
    if upper <= alpha:
        return upper
    if not can_place(&p):
        c = child_world(d, w, 2, 0)
        if c < 0:
            return 0.0
        v = alphabeta(d, c, a, b)
        if d.aborted or d.failed:
            return 0.0
    else:
        nm = gen_moves(&p, ms)
        for j in range(nm):             # the move that decided last time first
            if ms[j] == best:
                memmove(ms + 1, ms, j)
                ms[0] = <uint8_t>best
                break
        mine = p.to_move == d.pool.seat
        v = -INFINITY if mine else INFINITY
        for j in range(nm):
            c = child_world(d, w, 0, ms[j])
            if c < 0:
                return 0.0
            x = alphabeta(d, c, a, b)
            if d.aborted or d.failed:
                return 0.0
            if (x > v) if mine else (x < v):
                v = x
                best = ms[j]
            if mine and v > a:
                a = v
            elif not mine and v < b:
                b = v
            if a >= b:
                break
    if v <= alpha:
        if v < upper:
            upper = v
    elif v >= beta:
        if v > lower:
            lower = v
    else:
        lower = upper = v
    if not ab_bounds(d, w):
        return 0.0
    d.ab_lower[w], d.ab_upper[w], d.ab_best[w] = lower, upper, <uint8_t>best
    return v


cdef uint64_t ids_hash(const int* ids, int n) noexcept nogil:
    cdef uint64_t h = <uint64_t>n
    cdef int i
    for i in range(n):
        h = fiveup_mix64(h ^ <uint64_t>ids[i]) + <uint64_t>i
    return h


cdef FrontEntry* front_find(DefenceSearch* d, const int* ids, int n, uint64_t h) noexcept nogil:
    cdef long long i
    cdef FrontEntry* e
    if d.slot_cap == 0:
        return NULL
    i = <long long>(h & <uint64_t>(d.slot_cap - 1))
    while d.slots[i].n:
        e = &d.slots[i]
        if e.hash == h and e.n == n and memcmp(d.memo_ids + e.ids_at, ids, n * sizeof(int)) == 0:
            return e
        i = (i + 1) & (d.slot_cap - 1)
    return NULL


cdef int front_store(DefenceSearch* d, long long ids_at, int n, uint64_t h, long long at, int count) noexcept nogil:
    """Store the node whose ids are at d.ids[ids_at] with its front at d.arena[at]; 0: no memory."""
    cdef long long m
    cdef FrontEntry* e
    if 2 * (d.memo_count + 1) > d.slot_cap and not rehash(&d.slots, &d.slot_cap):
        return 0
    m = d.memo_ids_n
    if not grow(<void**>&d.memo_ids, &d.memo_ids_cap, m + n, sizeof(int)):
        return 0
    memcpy(d.memo_ids + m, d.ids + ids_at, n * sizeof(int))
    d.memo_ids_n += n
    e = free_slot(d.slots, d.slot_cap, h)
    e.hash = h
    e.ids_at = m
    e.at = at
    e.n = n
    e.count = count
    d.memo_count += 1
    return 1


cdef int sub_front(DefenceSearch* d, long long kids, int k, long long* at, int* count, int* nd,
                   long long* idx) noexcept nogil:
    """The front of the node of the k worlds at d.ids[kids] (repeats allowed): its arena
    offset (*at), vectors (*count) and distinct worlds (*nd); *idx the offset on the id stack
    of each world's place in the node (vector j's value for world i is
    d.arena[*at + j * *nd + d.ids[*idx + i]]). Pushes 3k ids (the caller pops). 1: stop."""
    cdef long long D, T, M
    cdef int i, m, lo, hi, mid, r
    if not push_ids(d, 3 * <long long>k):
        return 1
    D = d.ids_n
    T = D + k
    M = T + k
    d.ids_n = M + k
    memcpy(d.ids + D, d.ids + kids, k * sizeof(int))
    merge_sort(d.ids + D, d.ids + T, k, world_cmp, d.pool.worlds, NULL, 1)
    m = 0
    for i in range(k):
        if i == 0 or d.ids[D + i] != d.ids[D + m - 1]:
            d.ids[D + m] = d.ids[D + i]
            m += 1
    for i in range(k):
        lo, hi = 0, m - 1
        while lo < hi:
            mid = (lo + hi) // 2
            r = pos_cmp(&d.pool.worlds[d.ids[D + mid]], &d.pool.worlds[d.ids[kids + i]])
            if r < 0:
                lo = mid + 1
            else:
                hi = mid
        d.ids[M + i] = lo
    nd[0] = m
    idx[0] = M
    return node_front(d, D, m, at, count)


cdef int node_front(DefenceSearch* d, long long node, int n, long long* at, int* count) noexcept nogil:
    """The front of the node whose n sorted distinct world ids are at d.ids[node] (memoised):
    *at its arena offset, *count its vectors. 1: stop (aborted or no memory)."""
    cdef uint64_t h = ids_hash(d.ids + node, n)
    cdef FrontEntry* e = front_find(d, d.ids + node, n, h)
    cdef long long ids0 = d.ids_n, vecs0 = d.vecs_n, F, L, R, a
    cdef int i, j, nl = 0, c
    cdef double x
    cdef const Position* p
    if e != NULL:
        at[0] = e.at
        count[0] = e.count
        return 0
    d.nodes += 1
    if d.nodes > d.limit or interrupt_seen(&d.poll, d.pool.stop, &d.stopped):
        if d.nodes <= d.limit and not d.stopped:
            d.interrupted = 1   # (kept: a later pass of the limit must not lose a Ctrl-C seen)
        d.aborted = 1
        return 1
    if not push_vecs(d, n):
        return 1
    F = d.vecs_n
    d.vecs_n += n
    for i in range(n):
        p = &d.pool.worlds[d.ids[node + i]]
        if p.status != ST_PLAYING:
            d.vecs[F + i] = terminal_value(&d.pool, p)
            d.stat[STAT_TERMINAL] += 1
        else:
            nl += 1
    if nl == 0:
        d.stat[STAT_ALL_OVER] += 1
        R = F
        c = 1
    elif n == 1 and d.minimax and d.pool.worlds[d.ids[node]].bone_next == d.pool.worlds[d.ids[node]].bone_len:
        # one world and no draw to come: the seat sees everything, its front is one value
        d.stat[STAT_MINIMAX] += 1
        x = alphabeta(d, d.ids[node], -INFINITY, INFINITY)
        if d.aborted or d.failed:
            return 1
        d.vecs[F] = x
        R = F
        c = 1
    else:
        # the live worlds' ids, then their places in the node
        if not push_ids(d, 2 * <long long>nl):
            return 1
        L = d.ids_n
        d.ids_n += 2 * nl
        j = 0
        for i in range(n):
            if d.pool.worlds[d.ids[node + i]].status == ST_PLAYING:
                d.ids[L + j] = d.ids[node + i]
                d.ids[L + nl + j] = i
                j += 1
        R = d.vecs_n
        if live_front(d, L, nl, &c):
            return 1
        # each live vector with the terminal values put back (into the fixed slot's place)
        if not push_vecs(d, <long long>c * n):
            return 1
        a = d.vecs_n
        for j in range(c):
            memcpy(d.vecs + a + <long long>j * n, d.vecs + F, n * sizeof(double))
            for i in range(nl):
                d.vecs[a + <long long>j * n + d.ids[L + nl + i]] = d.vecs[R + <long long>j * nl + i]
        R = a
    if not grow(<void**>&d.arena, &d.arena_cap, d.arena_n + <long long>c * n, sizeof(double)):
        d.failed = 1
        return 1
    memcpy(d.arena + d.arena_n, d.vecs + R, <long long>c * n * sizeof(double))
    at[0] = d.arena_n
    count[0] = c
    d.arena_n += <long long>c * n
    d.ids_n = ids0
    d.vecs_n = vecs0
    if not front_store(d, node, n, h, at[0], c):
        d.failed = 1
        return 1
    return 0


cdef int keep_front(DefenceSearch* d, long long R, long long B, long long m, int n) noexcept nogil:
    """Reduce the m vectors at d.vecs[B] to their Pareto front and move it down to d.vecs[R]
    (d.vecs_n just past it); its size, or -1 to stop (d.failed or d.aborted set)."""
    cdef int k = pareto(d, B, m, n)
    if k < 0:
        return -1
    memmove(d.vecs + R, d.vecs + B, <long long>k * n * sizeof(double))
    d.vecs_n = R + <long long>k * n
    return k


cdef int child_front(DefenceSearch* d, long long L, int n, int kind, int arg, long long out,
                     int* count) noexcept nogil:
    """The front of the node reached from every one of the n worlds at d.ids[L] by the same
    action (`kind`, `arg` as for child_world), its vectors in those worlds' order written at
    d.vecs[out] (*count of them; d.vecs_n = the end of them). 1: stop."""
    cdef long long C, at, idx, v
    cdef int i, w, nd
    if not push_ids(d, n):
        return 1
    C = d.ids_n
    d.ids_n += n
    for i in range(n):
        w = child_world(d, d.ids[L + i], kind, arg)
        if w < 0:
            return 1
        d.ids[C + i] = w
    if sub_front(d, C, n, &at, count, &nd, &idx):
        return 1
    if not push_vecs(d, <long long>count[0] * n):
        return 1
    for v in range(count[0]):
        for i in range(n):
            d.vecs[out + v * n + i] = d.arena[at + v * nd + d.ids[idx + i]]
    d.vecs_n = out + <long long>count[0] * n
    d.ids_n = C
    return 0


cdef int live_front(DefenceSearch* d, long long L, int n, int* count) noexcept nogil:
    """The front over the n live worlds at d.ids[L] (one public state), written at the top of
    the vector stack (left there: d.vecs_n = where it was + count * n). 1: stop."""
    cdef const Position* p0 = &d.pool.worlds[d.ids[L]]
    cdef int seat = p0.to_move, bone_n = p0.bone_len - p0.bone_next
    cdef uint8_t ms[MAX_MOVES]
    cdef int nm, i, j, k, w, cnt, nd, acc_n, t, key, nkeys, share
    cdef long long R = d.vecs_n, C, B, B2, at, idx, total, v, a, row
    cdef uint32_t union_, bm
    cdef double scale, x
    cdef int keys[N_KEYS]
    cdef uint8_t seen[N_KEYS]
    cdef int ki
    if seat == d.pool.seat:
        if can_place(p0):
            d.stat[STAT_DECIDE] += 1
            nm = gen_moves(p0, ms)
            total = 0
            for j in range(nm):
                if child_front(d, L, n, 0, ms[j], R + total * n, &cnt):
                    return 1
                total += cnt
            if check_front(d, total):
                return 1
            k = pareto(d, R, total, n)
            if k < 0:
                return 1
            count[0] = k
            d.vecs_n = R + <long long>k * n
            return 0
        if bone_n == 0:
            d.stat[STAT_OWN_PASS] += 1
            if child_front(d, L, n, 2, 0, R, &cnt):
                return 1
            count[0] = cnt
            return 0
        # the seat draws and sees the tile: an independent continuation per tile
        d.stat[STAT_OWN_DRAW] += 1
        union_ = 0
        for i in range(n):
            union_ |= bone_mask(&d.pool.worlds[d.ids[L + i]])
        if not push_vecs(d, n):
            return 1
        for i in range(n):
            d.vecs[R + i] = 0.0
        d.vecs_n = R + n
        acc_n = 1
        scale = 1.0 / bone_n
        while union_:
            t = fiveup_ctz(union_)
            union_ &= union_ - 1
            k = 0
            for i in range(n):
                if (bone_mask(&d.pool.worlds[d.ids[L + i]]) >> t) & 1:
                    k += 1
            if not push_ids(d, 2 * <long long>k):
                return 1
            C = d.ids_n
            d.ids_n += 2 * k
            k = 0
            for i in range(n):
                if (bone_mask(&d.pool.worlds[d.ids[L + i]]) >> t) & 1:
                    w = child_world(d, d.ids[L + i], 1, t)
                    if w < 0:
                        return 1
                    d.ids[C + k] = w
                    k += 1
            j = 0
            for i in range(n):
                if (bone_mask(&d.pool.worlds[d.ids[L + i]]) >> t) & 1:
                    d.ids[C + k + j] = i
                    j += 1
            if sub_front(d, C, k, &at, &cnt, &nd, &idx):
                return 1
            if check_front(d, <long long>acc_n * cnt):
                return 1
            B = R + <long long>acc_n * n
            if not push_vecs(d, <long long>acc_n * cnt * n):
                return 1
            for a in range(acc_n):
                for v in range(cnt):
                    row = B + (a * cnt + v) * n
                    memcpy(d.vecs + row, d.vecs + R + a * n, n * sizeof(double))
                    for j in range(k):
                        d.vecs[row + d.ids[C + k + j]] += scale * d.arena[at + v * nd + d.ids[idx + j]]
            acc_n = keep_front(d, R, B, <long long>acc_n * cnt, n)
            if acc_n < 0:
                return 1
            d.ids_n = C
        count[0] = acc_n
        return 0
    # the other seat: in each world its own legal actions, the minimum over them, the
    # actions in the order they first occur (world by world, moves in generation order)
    nkeys = 0
    memset(seen, 0, sizeof(seen))
    for i in range(n):
        p0 = &d.pool.worlds[d.ids[L + i]]
        if can_place(p0):
            nm = gen_moves(p0, ms)
            for j in range(nm):
                if not seen[ms[j]]:
                    seen[ms[j]] = 1
                    keys[nkeys] = ms[j]
                    nkeys += 1
        else:
            key = KEY_DRAW if p0.bone_next < p0.bone_len else KEY_PASS
            if not seen[key]:
                seen[key] = 1
                keys[nkeys] = key
                nkeys += 1
    if not push_vecs(d, n):
        return 1
    for i in range(n):
        d.vecs[R + i] = INFINITY
    d.vecs_n = R + n
    acc_n = 1
    for ki in range(nkeys):
        key = keys[ki]
        d.stat[STAT_OPP_PLACE if key < KEY_DRAW else (STAT_OPP_DRAW if key == KEY_DRAW else STAT_OPP_PASS)] += 1
        # the items: (world, child) in world order, a draw's tiles ascending
        k = 0
        for i in range(n):
            p0 = &d.pool.worlds[d.ids[L + i]]
            k += opp_items(p0, key, ms)
        # children at C, their worlds at C + k, per world its share (0: absent) at C + 2k
        if not push_ids(d, 2 * <long long>k + n):
            return 1
        C = d.ids_n
        d.ids_n += 2 * k + n
        j = 0
        for i in range(n):
            p0 = &d.pool.worlds[d.ids[L + i]]
            share = opp_items(p0, key, ms)
            d.ids[C + 2 * k + i] = share
            if share == 0:
                continue
            if key == KEY_DRAW:
                bm = bone_mask(p0)
                while bm:
                    t = fiveup_ctz(bm)
                    bm &= bm - 1
                    w = child_world(d, d.ids[L + i], 1, t)
                    if w < 0:
                        return 1
                    d.ids[C + j] = w
                    d.ids[C + k + j] = i
                    j += 1
            else:
                w = child_world(d, d.ids[L + i], 2 if key == KEY_PASS else 0, key)
                if w < 0:
                    return 1
                d.ids[C + j] = w
                d.ids[C + k + j] = i
                j += 1
        if sub_front(d, C, k, &at, &cnt, &nd, &idx):
            return 1
        if check_front(d, <long long>acc_n * cnt):
            return 1
        # the child's vectors per world of this node (a draw: the mean over the world's tiles)
        B = R + <long long>acc_n * n
        B2 = B + <long long>cnt * n
        if not push_vecs(d, <long long>cnt * n + <long long>acc_n * cnt * n):
            return 1
        for v in range(cnt):
            for i in range(n):
                d.vecs[B + v * n + i] = 0.0
            for j in range(k):
                i = d.ids[C + k + j]
                d.vecs[B + v * n + i] = d.vecs[B + v * n + i] + \
                    d.arena[at + v * nd + d.ids[idx + j]] / d.ids[C + 2 * k + i]
        for a in range(acc_n):
            for v in range(cnt):
                row = B2 + (a * cnt + v) * n
                for i in range(n):
                    x = d.vecs[R + a * n + i]
                    if d.ids[C + 2 * k + i] and d.vecs[B + v * n + i] < x:
                        x = d.vecs[B + v * n + i]       # Python's min(a, m): a unless m is smaller
                    d.vecs[row + i] = x
        acc_n = keep_front(d, R, B2, <long long>acc_n * cnt, n)
        if acc_n < 0:
            return 1
        d.ids_n = C
    count[0] = acc_n
    return 0


cdef inline int opp_items(const Position* p, int key, uint8_t* ms) noexcept nogil:
    """How many children the action `key` gives in this world (0: not legal there)."""
    cdef int nm, j
    if can_place(p):
        if key >= KEY_DRAW:
            return 0
        nm = gen_moves(p, ms)
        for j in range(nm):
            if ms[j] == key:
                return 1
        return 0
    if p.bone_next < p.bone_len:
        return p.bone_len - p.bone_next if key == KEY_DRAW else 0
    return 1 if key == KEY_PASS else 0


cdef void free_defence(DefenceSearch* d) noexcept nogil:
    free_search(&d.pool)
    free(d.memo_ids); free(d.arena); free(d.slots); free(d.ids); free(d.vecs)
    free(d.order); free(d.order_tmp); free(d.sums); free(d.kept)
    free(d.ab_lower); free(d.ab_upper); free(d.ab_best)
    memset(d, 0, sizeof(DefenceSearch))


STAT_NAMES = ("seat_decisions", "seat_draws", "seat_passes", "other_places", "other_draws", "other_passes",
              "terminal_worlds", "all_over_nodes", "minimax_nodes", "alphabeta_nodes")


def defence_search(node, moves, seat, objective, root_scores, equity, limit, minimax=True, stop=None):
    """Best defence (2 players) from the information set `node` (distinct world positions,
    the seat to place in each): for each canonical move in `moves`, the Pareto front of the
    node after it (a list of vectors, one value per world of `node`, in its order), as
    ``fiveup_solver.exact._Search.sub`` gives it. ``objective`` 0 points, 1 win (``equity``
    as for :func:`greedy_search`); ``minimax``: one-world nodes with no draw to come valued by
    alpha-beta (else by fronts, like any node). Returns (fronts, nodes, memo size, aborted: 0,
    1 past the limit at a node, 2 past it counting front vectors or their dominance tests,
    stats: {kind: count}); a search that runs out of memory raises CoreError. ``stop``: a
    :class:`StopFlag` that ends the search with SearchStopped when set."""
    cdef DefenceSearch d
    cdef Position p
    cdef uint8_t ms[MAX_MOVES]
    cdef int i, j, n, nm, w, mv, cnt, nd, halt
    cdef long long C, at, idx
    cdef const double[::1] eq
    memset(&d, 0, sizeof(DefenceSearch))
    try:
        d.pool.seat = checked_int(seat, 0, 3, "seat")
        d.pool.objective = checked_int(objective, 0, 1, "objective")
        d.limit = checked_int(limit, 0, 2 ** 62, "limit")
        d.pool.stop = stop_flag_of(stop)
        if minimax not in (True, False, 0, 1):
            raise CoreError(f"minimax must be True or False, not {minimax!r}")
        d.minimax = 1 if minimax else 0
        node = _listed(node, "a best-defence node")
        moves = [checked_int(m, 0, 255, "move") for m in _listed(moves, "the moves")]
        n = len(node)
        if n == 0:
            raise CoreError("a best-defence node lists at least one world")
        if not push_ids(&d, n):
            raise MemoryError()
        for i in range(n):
            load(node[i], &p)
            if p.status != ST_PLAYING or p.to_move != d.pool.seat or not can_place(&p):
                raise CoreError(f"seat {d.pool.seat} is not to place in a world of the node")
            if i == 0:
                if p.players != 2:
                    raise CoreError(f"best defence is for 2 players, not {p.players}")
                d.pool.players, d.pool.sides = p.players, side_count(&p)
                d.pool.side = side_of(&p, d.pool.seat)
            elif p.players != d.pool.players:
                raise CoreError("the worlds of a node are of one round")
            nm = gen_moves(&p, ms)
            for mv in moves:
                for j in range(nm):
                    if ms[j] == mv:
                        break
                else:
                    raise CoreError(f"{mv} is not a canonical move of the seat to move")
            canonical_boneyard(&p)
            w = intern_world(&d.pool, &p, 1)
            if w < 0:
                raise MemoryError()
            d.ids[i] = w
        d.ids_n = n
        for i in range(1, n):
            if d.ids[i] == d.ids[i - 1] or world_cmp(d.pool.worlds, d.ids[i - 1], d.ids[i]) > 0:
                raise CoreError("a best-defence node lists distinct world positions in sorted order")
        root_scores = _listed(root_scores, "the root scores")
        if len(root_scores) != d.pool.sides:
            raise CoreError(f"the root scores list {d.pool.sides} sides, not {len(root_scores)}")
        for i in range(d.pool.sides):
            d.pool.root_score[i] = checked_int(root_scores[i], SCORE_FLOOR, TARGET, "root score")
        if d.pool.objective == OBJ_WIN:
            if equity is None:          # (a typed memoryview takes None)
                raise CoreError("the win objective needs the equity table, not None")
            try:
                eq = equity
            except (TypeError, ValueError, BufferError):
                raise CoreError("the equity table must be a contiguous float64 array") from None
            if eq.shape[0] < (61 ** d.pool.sides) * (d.pool.sides + 1):
                raise CoreError("the equity table is too small for the round's sides")
            d.pool.equity = &eq[0]
        fronts = []
        for mv in moves:
            with nogil:
                halt = 0
                C = d.ids_n
                if not push_ids(&d, n):
                    halt = 1
                else:
                    d.ids_n += n
                    for i in range(n):
                        w = child_world(&d, d.ids[i], 0, mv)
                        if w < 0:
                            halt = 1
                            break
                        d.ids[C + i] = w
                if not halt:
                    halt = sub_front(&d, C, n, &at, &cnt, &nd, &idx)
            if d.failed:
                raise CoreError("the exact search ran out of memory")
            if d.interrupted:
                raise KeyboardInterrupt
            if d.stopped:
                raise SearchStopped("the search was stopped (Hinter.stop)")
            if halt or d.aborted:
                break
            fronts.append([tuple([d.arena[at + <long long>j * nd + d.ids[idx + i]] for i in range(n)])
                           for j in range(cnt)])
            d.ids_n = C
        stats = {name: d.stat[i] for i, name in enumerate(STAT_NAMES)}
        return fronts, d.nodes, d.memo_count, d.aborted, stats
    finally:
        free_defence(&d)
