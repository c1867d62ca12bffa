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
from libc.stdint cimport uint8_t, uint32_t
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


def world_position(base, hands, bone):
    """The position of `base` (its current state) with the hidden part replaced:
    ``hands`` a hand mask per seat, ``bone`` the boneyard's tile mask (as a set).
    The masks must partition the tiles off the board, with the boneyard's size
    and every hand's size unchanged."""
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
    for i in range(28):
        if (m >> i) & 1:
            p.boneyard[k] = i
            k += 1
    canonical_boneyard(&p)
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


cdef struct Walk:
    int seat              # the seat whose information sets are walked to
    long long nodes       # world positions visited
    long long limit       # stop (aborted) past this many
    bint aborted
    uint8_t obs[MAX_OBS]  # the observations so far
    int n_obs


cdef int walk_greedy(Walk* w, Position* p, double prob, dict groups, dict ends) except -1:
    cdef Position c
    cdef uint8_t ms[MAX_MOVES]
    cdef int credits[MAX_MOVES]
    cdef int i, n, k, top, total, gap, seat, bone_n
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
        n = gen_moves(p, ms)
        gap = TARGET - p.score[side_of(p, seat)]
        top = -1
        for i in range(n):
            credits[i] = accepted_credit(p, p.ends, ms[i], gap)
            if credits[i] > top:
                top = credits[i]
        total = 0
        for i in range(n):
            if credits[i] == top:
                total += move_multiplicity(p, ms[i])
        for i in range(n):
            if credits[i] != top:
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
            if seat == w.seat:
                w.obs[w.n_obs] = OBS_OWN_DRAW
                w.obs[w.n_obs + 1] = k
            else:
                w.obs[w.n_obs] = OBS_DRAW + 16 * seat
                w.obs[w.n_obs + 1] = 0
            w.n_obs += 2
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
