# cython: language_level=3
"""Search under hidden information: many sampled worlds, each searched in C.

A *world* is one uniformly sampled deal of the hidden tiles (``_sampler``) put
into the observer's position. World k always comes from the random stream
(seed, k) and is searched in a fresh context (``SolverCore.fresh_context``), so
its values do not depend on which thread searched it or what that thread did
before: the hint is deterministic for a seed under a sample budget, with any
number of threads.

Two ways to value the root moves in a world:

* PIMC: the world's boneyard order is taken as known; every root move gets the
  perfect-information value of the solver, by iterative deepening (depth 2, 4,
  8, 16, then unlimited) under a node budget per world. When the budget runs
  out, the last completed depth stands, its horizon valued by ``cut_value``.
* Expectimax: the hidden hands are the world's, but each draw is a chance node,
  uniform over the tiles of the world's boneyard (its order stays unknown).
  Alpha-beta for the placements, Star1 pruning at chance nodes (every value
  lies in [-WIN, WIN], and within the round's exact-target bounds), at most
  ``chance_width`` sampled outcomes where the boneyard is wider, and the same
  iterative deepening and horizon value.
"""
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memset, memcpy, memcmp
from libc.stdint cimport uint8_t, uint32_t, uint64_t, int64_t, int32_t
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from fiveup_solver._rules cimport *
from fiveup_solver._core cimport CoreRound, read_world, checked_round
from fiveup_solver._solver cimport (
    SolverCore, SolverCtx, checked_core, set_root, set_root_side, terminal_or_search, cut_value, team_value, ended_value, enter_node, WIN, INF, MAX_PLY,
    accepted_credit, keep_greedy, keep_greedy_placements, trunc_div, star1_window, star1_settled, VecMean, vm_start, vm_add, vm_finish, maxn_child, maxn_scale, mx_win_vec, mx_ended, mx_cut, mx_better,
    OBJ_POINTS, begin_pass, signed_horizon, horizon_skips, horizon_stops, horizon_redo,
    NODE_GO, NODE_ABORTED,
)
from fiveup_solver._sampler cimport DealCounter, seed_stream, world_stream
from fiveup_solver.errors import CoreError

cdef extern from *:
    """
    static inline long fiveup_next_index(long* counter) { return __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED); }
    static inline void fiveup_spin_lock(int* l) {
        while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE))
            while (__atomic_load_n(l, __ATOMIC_RELAXED)) {}
    }
    static inline void fiveup_spin_unlock(int* l) { __atomic_store_n(l, 0, __ATOMIC_RELEASE); }
    static inline long fiveup_load_index(long* x) { return __atomic_load_n(x, __ATOMIC_RELAXED); }
    static inline int fiveup_load_done(uint8_t* x) { return __atomic_load_n(x, __ATOMIC_ACQUIRE); }
    static inline void fiveup_store_done(uint8_t* x) { __atomic_store_n(x, 1, __ATOMIC_RELEASE); }
    """
    long fiveup_next_index(long* counter) noexcept nogil
    void fiveup_spin_lock(int* l) noexcept nogil
    void fiveup_spin_unlock(int* l) noexcept nogil
    long fiveup_load_index(long* x) noexcept nogil
    int fiveup_load_done(uint8_t* x) noexcept nogil
    void fiveup_store_done(uint8_t* x) noexcept nogil

cdef extern from "<sched.h>" nogil:
    int sched_yield()

cdef extern from "Python.h":
    int PyErr_CheckSignals()        # with the GIL; -1 with the handler's exception set (Ctrl-C)
    void PyErr_Clear()

cdef double SIGNAL_CHECK_SECONDS = 0.05     # how often work() in the main thread looks for Ctrl-C

cdef enum:
    N_DEPTHS = 6

# the core's method numbers, for the Python registry (fiveup_solver.hint.METHODS)
PIMC = METHOD_PIMC
EXPECTIMAX = METHOD_EXPECTIMAX

cdef int DEPTHS[N_DEPTHS]
DEPTHS[:] = [1, 2, 4, 8, 16, MAX_PLY]


cdef double now_seconds() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


# ---------------------------------------------------------------- expectimax
cdef inline int clamp_line(int v) noexcept nogil:
    """A line that is no win stays one: inside +-(WIN - 1)."""
    return -(WIN - 1) if v < -(WIN - 1) else (WIN - 1 if v > WIN - 1 else v)


cdef inline int banked(const SolverCtx* S, const Position* c, int team, int origin) noexcept nogil:
    """`team`'s points from the search's root (whose team value was `origin`) to c."""
    return clamp_line(team_value(S, c, team) - origin)


cdef inline int cut_from_root(const SolverCtx* S, const Position* p, int team, bint maximise,
                              int origin) noexcept nogil:
    """A horizon at p from the root: the points banked to p and cut_value's estimate of
    the rest (for p's mover: `maximise` when that is `team`)."""
    cdef int v = cut_value(S, p)
    return clamp_line(banked(S, p, team, origin) + (v if maximise else -v))


# Values below are from the world's root: a line is worth its points from the root, or
# +-WIN instead of them when the game is won on it. A chance node averages those: with
# values relative to each node, the points banked above a chance node were added to its
# average, on the outcomes that win as well (a review: 512 for 502.5).
cdef inline int settle(SolverCtx* S, const WorldJob* J, Position* c, int team, int alpha, int beta,
                       int ply, Rng* rng, int origin) noexcept nogil:
    """Value for `team` (from the root: `origin`) after a placement: passes are
    made here; a seat that cannot place with tiles left in the boneyard draws
    (a chance node)."""
    while c.status == ST_PLAYING and not can_place(c):
        if not boneyard_empty(c):
            return expecti_chance(S, J, c, team, alpha, beta, ply, rng, 0, origin)
        pass_turn(c)
    if c.status == ST_WON:
        return WIN if S.side_team[side_of(c, c.end_seat)] == team else -WIN
    if c.status != ST_PLAYING:
        return ended_value(S, c, team, banked(S, c, team, origin))
    return expecti_node(S, J, c, team, alpha, beta, ply, rng, origin)


cdef inline int after_placement(SolverCtx* S, const WorldJob* J, const Position* p, uint8_t move, int team,
                                int alpha, int beta, int ply, Rng* rng, int origin) noexcept nogil:
    """Value for `team` (from the root: `origin`) of placing `move` in p."""
    cdef Position c = p[0]
    place(&c, move, NULL)
    if c.status == ST_WON:
        return WIN if S.side_team[side_of(&c, c.end_seat)] == team else -WIN
    if c.status != ST_PLAYING:
        return ended_value(S, &c, team, banked(S, &c, team, origin))
    return settle(S, J, &c, team, alpha, beta, ply + 1, rng, origin)


cdef int expecti_greedy(SolverCtx* S, const WorldJob* J, Position* p, const uint8_t* moves, int n, int team,
                        int alpha, int beta, int ply, Rng* rng, int origin) noexcept nogil:
    """A greedy seat's tied moves, each concrete placement alike: their weighted
    average for `team`, truncated toward zero (Star1 over [-WIN, WIN], fail-soft), as
    greedy_chance in the solver's search."""
    cdef long total = 0, rest, done = 0
    cdef int i, w, v, lo_w, hi_w
    for i in range(n):
        total += move_multiplicity(p, moves[i])
    rest = total
    for i in range(n):
        w = move_multiplicity(p, moves[i])
        rest -= w
        star1_window(alpha, beta, total, done, rest, w, &lo_w, &hi_w)
        v = after_placement(S, J, p, moves[i], team, lo_w, hi_w, ply, rng, origin)
        if S.aborted:
            return 0
        done += <long>w * v
        if star1_settled(done, rest, total, alpha, beta, &v):
            return v
    return <int>trunc_div(done, total)


cdef int expecti_node(SolverCtx* S, const WorldJob* J, Position* p, int team, int alpha, int beta,
                      int ply, Rng* rng, int origin) noexcept nogil:
    """A seat that can place: the best of its placements for its team (values are
    kept from `team`'s point of view: max for team, min for the others)."""
    cdef uint8_t moves[MAX_MOVES]
    cdef int credits[MAX_MOVES]
    cdef int n, i, v, best, gap
    cdef bint greedy, last_tile
    cdef bint maximise = S.side_team[side_of(p, p.to_move)] == team
    v = enter_node(S, ply)
    if v != NODE_GO:
        return 0 if v == NODE_ABORTED else cut_from_root(S, p, team, maximise, origin)
    n = gen_moves(p, moves)
    gap = TARGET - p.score[side_of(p, p.to_move)]
    greedy = (S.greedy_seats >> p.to_move) & 1
    last_tile = fiveup_popcount(p.hand[p.to_move]) == 1
    if greedy or not last_tile:
        for i in range(n):
            credits[i] = accepted_credit(p, p.ends, moves[i], gap)
            # exact-target cutoff: a placement worth exactly the gap to 305 wins now,
            # and nothing is better for the mover (a last tile scores P + O - D instead)
            if credits[i] and credits[i] == gap and not last_tile:
                return WIN if maximise else -WIN
    if greedy:
        # a seat read as greedy (this world's draw): only its largest accepted credits are
        # searched, and its own coin picks among them (the average, as the solver's search)
        n = keep_greedy(moves, credits, n)
        if n > 1:
            return expecti_greedy(S, J, p, moves, n, team, alpha, beta, ply, rng, origin)
    best = -INF if maximise else INF
    for i in range(n):
        v = after_placement(S, J, p, moves[i], team, alpha, beta, ply, rng, origin)
        if S.aborted:
            return 0
        if maximise:
            if v > best:
                best = v
            if best > alpha:
                alpha = best
        else:
            if v < best:
                best = v
            if best < beta:
                beta = best
        if alpha >= beta:
            break
    return best


cdef enum:
    MEMO_MAX = 8        # draw memo: boneyards of at most this many tiles (2^8 drawn sets)

ctypedef struct DrawMemo:
    # the values of the draw-again nodes of one run of draws, by the set of tiles drawn
    # so far (bit j: tiles[j], the boneyard where the run began)
    uint8_t tiles[MEMO_MAX]
    int n
    uint8_t known[1 << MEMO_MAX]
    int value[1 << MEMO_MAX]


cdef int expecti_chance(SolverCtx* S, const WorldJob* J, Position* p, int team, int alpha, int beta,
                        int ply, Rng* rng, int nested, int origin) noexcept nogil:
    """The seat to move draws: each tile of the boneyard equally likely. A drawn
    tile that fits must be placed at once (its ports are the seat's choice);
    otherwise the seat draws again (another chance node).

    Star1: with n outcomes, k searched summing to `done`, and every value in
    [-WIN, WIN], the average is at most (done + (n-k) WIN)/n and at least
    (done - (n-k) WIN)/n; each outcome is searched with the window that keeps
    these bounds decisive, and the node stops as soon as one is."""
    return draw_chance(S, J, p, team, alpha, beta, ply, rng, nested, NULL, 0, origin)


cdef int draw_chance(SolverCtx* S, const WorldJob* J, Position* p, int team, int alpha, int beta,
                     int ply, Rng* rng, int nested, DrawMemo* memo, uint32_t drawn, int origin) noexcept nogil:
    """expecti_chance, with the draw memo of the run of draws it belongs to.

    A seat that cannot place draws until a tile fits: the board does not change
    meanwhile, so the position after drawing some unplayable tiles is the same
    whatever their order, and so is its value. Without a memo a run of draws from
    b tiles searches every ordered sequence (up to b!/(b-k)! nodes for k draws);
    with it each set of drawn tiles once (2^b). A draw-again node is memoised only
    when it searches every outcome (no sampling, so no random choice below it) and
    with the full window [-WIN, WIN] (its exact value, whatever window asked).
    `drawn`: the tiles of memo.tiles drawn so far in this run."""
    cdef uint8_t bone_copy[28 + MEMO_MAX]     # (slack: the memo copies MEMO_MAX bytes from tiles)
    cdef uint8_t* tiles
    cdef uint8_t moves[MAX_MOVES]
    cdef int n = p.bone_len - p.bone_next, k, i, j, t, m, tmp, v, best
    cdef int outcomes, width
    cdef long done = 0
    cdef int lo_w, hi_w
    cdef Position c
    cdef bint maximise
    cdef DrawMemo local
    cdef uint32_t key
    v = enter_node(S, ply)      # a chance node is a node: draws and their forced placements stop at the horizon
    if v != NODE_GO:
        maximise = S.side_team[side_of(p, p.to_move)] == team
        return 0 if v == NODE_ABORTED else cut_from_root(S, p, team, maximise, origin)
    # copies of a constant size: gcc made the copies of n bytes `rep movsq` / `rep stosq`,
    # slow to start at every chance node (as the score copies were, docs/results/performance.md)
    memcpy(bone_copy, p.boneyard, 28)
    tiles = &bone_copy[p.bone_next]
    if not nested:
        # a new run of draws: its memo (small boneyards only)
        memo = NULL
        drawn = 0
        if n <= MEMO_MAX:
            local.n = n
            memcpy(local.tiles, tiles, MEMO_MAX)      # (those past n are never read)
            memset(local.known, 0, sizeof(local.known))
            memo = &local
    outcomes = n
    width = J.chance_width
    if nested and n > width:
        width = 1
    if n > width:
        # a wide boneyard: a uniform sample of the outcomes (without replacement)
        for i in range(width):
            j = i + rng_below(rng, n - i)
            tmp = tiles[i]; tiles[i] = tiles[j]; tiles[j] = tmp
        outcomes = width
    for k in range(outcomes):
        t = tiles[k]
        c = p[0]
        draw_tile(&c, t, NULL)    # from any place in the boneyard: the order is unknown
        # Star1 window for this outcome: the remaining ones could all be +-WIN
        star1_window(alpha, beta, outcomes, done, outcomes - k - 1, 1, &lo_w, &hi_w)
        if c.status == ST_WON:
            v = WIN if S.side_team[side_of(&c, c.end_seat)] == team else -WIN
        elif c.status != ST_PLAYING:
            v = ended_value(S, &c, team, banked(S, &c, team, origin))
        elif can_place(&c):
            # the drawn tile must be placed now: only its own placements
            m = tile_moves(&c, t, moves)
            maximise = S.side_team[side_of(&c, c.to_move)] == team
            best = -INF if maximise else INF
            if (S.greedy_seats >> c.to_move) & 1:
                # a greedy seat places it by credit, its coin among ties
                m = keep_greedy_placements(&c, moves, m)
                if m > 1:
                    best = expecti_greedy(S, J, &c, moves, m, team, lo_w, hi_w, ply, rng, origin)
                    m = 0
            for i in range(m):
                v = after_placement(S, J, &c, moves[i], team, lo_w, hi_w, ply, rng, origin)
                if S.aborted:
                    return 0
                if (maximise and v > best) or (not maximise and v < best):
                    best = v
                if (maximise and best >= hi_w) or (not maximise and best <= lo_w):
                    break
            v = best
        elif not boneyard_empty(&c):
            # unplayable: the same seat draws again. From a wide boneyard the rest of
            # the sequence is followed along one sampled line (an unbiased estimate)
            if memo != NULL and n - 1 <= J.chance_width:
                # every outcome of the next draw is searched: its value depends only on
                # the set of tiles drawn so far (see above)
                key = drawn
                for j in range(memo.n):
                    if memo.tiles[j] == t:
                        key |= <uint32_t>1 << j
                if memo.known[key]:
                    v = memo.value[key]
                else:
                    v = draw_chance(S, J, &c, team, -WIN, WIN, ply, rng, 1, memo, key, origin)
                    if S.aborted:
                        return 0
                    memo.known[key] = 1
                    memo.value[key] = v
            else:
                v = draw_chance(S, J, &c, team, lo_w, hi_w, ply, rng, 1, NULL, 0, origin)
        else:
            v = settle(S, J, &c, team, lo_w, hi_w, ply, rng, origin)
        if S.aborted:
            return 0
        done += v
        # fail high (low): even all-losses (all-wins) in the rest keep the average >= beta
        # (<= alpha). Fail-soft: the bound itself, not beta (alpha). A window shifted by
        # the gains above (alpha - gain, beta - gain) may have its top below WIN, and a
        # caller only recognises a win line by a value of exactly +-WIN: returning
        # beta there turned a forced win into 999 points (docs/expectimax_case.md).
        if star1_settled(done, outcomes - k - 1, outcomes, alpha, beta, &v):
            return v
    return <int>trunc_div(done, outcomes)


# ---------------------------------------------------------------- expectimax, max^n (3 players)
# The same tree as expecti_*, with max^n value vectors (see _solver.pyx: entries,
# units, tie-break): a seat that can place picks the placement best for its own
# side, a chance node averages its outcomes' vectors entry by entry (each
# truncated toward zero, in internal units), and is a win line only when every
# outcome is the same win. No pruning but the immediate exact-305 cutoff (Star1
# bounds one value, not a vector); the node budget and the depth bound it.
# Each function returns 1 for a win line (out is then the win vector), else 0;
# out is relative to the scores of the position it is given.

cdef inline void mxe_add_gain(const SolverCtx* S, const Position* a, const Position* b, int* out) noexcept nogil:
    """Add the gains from a to b (points: each side's own minus the mean of the others', in half points)."""
    cdef int s, g = 0
    if S.objective != OBJ_POINTS:
        return
    for s in range(3):
        g += b.score[s] - a.score[s]
    for s in range(3):
        out[s] += 3 * (b.score[s] - a.score[s]) - g


cdef int mxe_after(SolverCtx* S, const WorldJob* J, const Position* p, uint8_t move, int ply, Rng* rng,
                   int* out) noexcept nogil:
    """Vector of placing `move` in p, then best play."""
    cdef Position c = p[0]
    place(&c, move, NULL)
    if c.status == ST_WON:
        mx_win_vec(S, side_of(&c, c.end_seat), out)
        return 1
    if c.status != ST_PLAYING:
        mx_ended(S, &c, out)
    elif mxe_settle(S, J, &c, ply + 1, rng, out):
        return 1
    mxe_add_gain(S, p, &c, out)
    return 0


cdef int mxe_settle(SolverCtx* S, const WorldJob* J, Position* c, int ply, Rng* rng, int* out) noexcept nogil:
    """Vector of c: passes are made here (they score nothing); a seat that cannot place
    with tiles left in the boneyard draws (a chance node)."""
    while c.status == ST_PLAYING and not can_place(c):
        if not boneyard_empty(c):
            return mxe_chance(S, J, c, ply, rng, 0, out)
        pass_turn(c)
    if c.status == ST_WON:
        mx_win_vec(S, side_of(c, c.end_seat), out)
        return 1
    if c.status != ST_PLAYING:
        mx_ended(S, c, out)
        return 0
    return mxe_node(S, J, c, ply, rng, out)


cdef int mxe_greedy(SolverCtx* S, const WorldJob* J, const Position* p, const uint8_t* moves, int n, int ply,
                    Rng* rng, int* out) noexcept nogil:
    """A greedy seat's coin among its tied moves: their vectors' average, each move weighted
    by the concrete placements it stands for (entries truncated toward zero, as maxn_search);
    returns 1 for a win line, only when every move is the same win."""
    cdef int v[3]
    cdef int i, w
    cdef VecMean acc
    vm_start(&acc)
    for i in range(n):
        w = mxe_after(S, J, p, moves[i], ply, rng, v)
        if S.aborted:
            return 0
        vm_add(&acc, v, w, move_multiplicity(p, moves[i]))
    return vm_finish(&acc, out)


cdef int mxe_node(SolverCtx* S, const WorldJob* J, Position* p, int ply, Rng* rng, int* out) noexcept nogil:
    """A seat that can place: the placement whose vector is best for its side (the tie-break of _solver)."""
    cdef uint8_t moves[MAX_MOVES]
    cdef int credits[MAX_MOVES]
    cdef int v[3]
    cdef int n, i, x, gap, side, w, best_w = 0, best_mv = 0xFF, have = 0
    cdef bint greedy, last_tile
    x = enter_node(S, ply)
    if x != NODE_GO:
        if x == NODE_ABORTED:
            return 0
        mx_cut(S, p, out)
        return 0
    side = side_of(p, p.to_move)
    n = gen_moves(p, moves)
    gap = TARGET - p.score[side]
    greedy = (S.greedy_seats >> p.to_move) & 1
    last_tile = fiveup_popcount(p.hand[p.to_move]) == 1
    if greedy or not last_tile:
        for i in range(n):
            credits[i] = accepted_credit(p, p.ends, moves[i], gap)
            if credits[i] and credits[i] == gap and not last_tile:
                mx_win_vec(S, side, out)
                return 1
    if greedy:
        n = keep_greedy(moves, credits, n)
        if n > 1:
            return mxe_greedy(S, J, p, moves, n, ply, rng, out)
    for i in range(n):
        w = mxe_after(S, J, p, moves[i], ply, rng, v)
        if S.aborted:
            return 0
        if not have or mx_better(v, moves[i], out, best_mv, side):
            out[0] = v[0]
            out[1] = v[1]
            out[2] = v[2]
            best_mv = moves[i]
            best_w = w
            have = 1
    return best_w


cdef int mxe_chance(SolverCtx* S, const WorldJob* J, Position* p, int ply, Rng* rng, int nested,
                    int* out) noexcept nogil:
    """The seat to move draws: each tile of the boneyard equally likely (at most chance_width
    sampled outcomes where it is wider, one sampled line for a repeated draw, as expecti_chance)."""
    cdef uint8_t bone_copy[28]
    cdef uint8_t* tiles
    cdef uint8_t moves[MAX_MOVES]
    cdef int n = p.bone_len - p.bone_next, k, i, j, t, m, tmp, x, w, outcomes, width, side
    cdef int v[3]
    cdef int bv[3]
    cdef VecMean acc
    cdef int best_w, best_mv, have
    cdef Position c
    x = enter_node(S, ply)
    if x != NODE_GO:
        if x == NODE_ABORTED:
            return 0
        mx_cut(S, p, out)
        return 0
    memcpy(bone_copy, p.boneyard, 28)       # (a constant size: see draw_chance)
    tiles = &bone_copy[p.bone_next]
    outcomes = n
    width = J.chance_width
    if nested and n > width:
        width = 1
    if n > width:
        for i in range(width):
            j = i + rng_below(rng, n - i)
            tmp = tiles[i]; tiles[i] = tiles[j]; tiles[j] = tmp
        outcomes = width
    vm_start(&acc)
    for k in range(outcomes):
        t = tiles[k]
        c = p[0]
        for i in range(c.bone_next, c.bone_len):
            if c.boneyard[i] == t:
                c.boneyard[i] = c.boneyard[c.bone_next]
                c.boneyard[c.bone_next] = t
                break
        draw_one(&c, NULL)
        if c.status == ST_WON:
            mx_win_vec(S, side_of(&c, c.end_seat), v)
            w = 1
        elif c.status != ST_PLAYING:
            mx_ended(S, &c, v)
            mxe_add_gain(S, p, &c, v)
            w = 0
        elif can_place(&c):
            # the drawn tile must be placed now: only its own placements
            m = tile_moves(&c, t, moves)
            side = side_of(&c, c.to_move)
            have = 0
            best_w = 0
            best_mv = 0xFF
            if (S.greedy_seats >> c.to_move) & 1:
                # a greedy seat places it by credit, its coin among ties
                m = keep_greedy_placements(&c, moves, m)
                if m > 1:
                    best_w = mxe_greedy(S, J, &c, moves, m, ply, rng, v)
                    m = 0
            for i in range(m):
                w = mxe_after(S, J, &c, moves[i], ply, rng, bv)
                if S.aborted:
                    return 0
                if not have or mx_better(bv, moves[i], v, best_mv, side):
                    v[0] = bv[0]
                    v[1] = bv[1]
                    v[2] = bv[2]
                    best_mv = moves[i]
                    best_w = w
                    have = 1
            w = best_w
        elif not boneyard_empty(&c):
            w = mxe_chance(S, J, &c, ply, rng, 1, v)
        else:
            w = mxe_settle(S, J, &c, ply, rng, v)
        if S.aborted:
            return 0
        vm_add(&acc, v, w, 1)
    return vm_finish(&acc, out)


# ---------------------------------------------------------------- one world
cdef inline int world_value(SolverCtx* S, const WorldJob* J, const Position* pos, int i, Rng* rng) noexcept nogil:
    """Root move i's value for the observer's team (team 0) at the current depth, or
    with no root moves (i = -1) the position's own value: the mover's forced draws
    and passes first (from the world's boneyard order with PIMC, as chance nodes
    with expectimax), then best play."""
    cdef Position c = pos[0]
    cdef int vec[3]
    if S.maxn and J.method == METHOD_EXPECTIMAX:
        # 3 players, max^n: the observer's entry of the vector (internal units)
        if i >= 0:
            mxe_after(S, J, pos, J.moves[i], 0, rng, vec)
        else:
            mxe_settle(S, J, &c, 0, rng, vec)
        return vec[S.root_side]
    if S.maxn and J.method == METHOD_PIMC:
        # 3 players, max^n: the observer's entry of the move's vector (internal units)
        if i >= 0:
            place(&c, J.moves[i], NULL)
        resolve_turn(&c)
        maxn_child(S, pos, &c, -1, -1, 0, vec)
        return vec[S.root_side]
    if i < 0:
        if J.method == METHOD_PIMC:
            resolve_turn(&c)
            return terminal_or_search(S, &c, 0, team_value(S, &c, 0) - team_value(S, pos, 0))
        return settle(S, J, &c, 0, -WIN, WIN, 0, rng, team_value(S, pos, 0))
    if J.method == METHOD_PIMC:
        place(&c, J.moves[i], NULL)
        resolve_turn(&c)
        return terminal_or_search(S, &c, 0, team_value(S, &c, 0) - team_value(S, pos, 0))
    return after_placement(S, J, pos, J.moves[i], 0, -WIN, WIN, 0, rng, team_value(S, pos, 0))


cdef inline uint64_t times_draws(uint64_t budget, uint64_t k) noexcept nogil:
    """budget x k, saturating."""
    if k > 1 and budget > (<uint64_t>0xFFFFFFFFFFFFFFFF) // k:
        return <uint64_t>0xFFFFFFFFFFFFFFFF
    return budget * k


cdef inline uint64_t world_budget(const WorldJob* J, long w) noexcept nogil:
    """World w's node budget: world_nodes, times the draws it stands for (saturating)."""
    return times_draws(J.world_nodes, 1 if J.given_share == NULL else J.given_share[w])


cdef inline bint same_root(const WorldJob* a, const WorldJob* b) noexcept nogil:
    """Whether two searches value the same position's same root moves for the same seat."""
    return (memcmp(&a.base, &b.base, sizeof(Position)) == 0 and a.hidden_seats == b.hidden_seats
            and a.n_moves == b.n_moves and memcmp(a.moves, b.moves, a.n_moves) == 0 and a.observer == b.observer)


cdef int horizon_of(const WorldJob* J, long w) noexcept nogil:
    """World w's horizon from a first currency's search of it (see search_world): 0
    (none), +depth (cut there) or -depth (solved exactly at that pass). Given, or read
    from the first currency's search of the same world (waited for: the other thread
    may still be on it, and it is never waiting itself)."""
    cdef WorldJob* F = J.depth_of
    cdef int status, depth
    if J.given_horizon != NULL:
        status, depth = J.given_horizon[2 * w], J.given_horizon[2 * w + 1]
    elif F != NULL:
        while not fiveup_load_done(&F.finished[w]):
            sched_yield()
        status, depth = F.status[w], F.depth[w]
    else:
        return 0
    return signed_horizon(status, depth)


cdef void search_world(SolverCore core, WorldJob* J, long w, const Position* world,
                       uint64_t stream, uint32_t greedy_seats, uint64_t budget, int horizon) noexcept nogil:
    """Value every root move in world w (the observer's position with a sampled deal),
    or the position itself when there are no root moves (one value); the search's
    random choices come from stream (seed, stream); the seats of greedy_seats are
    searched as greedy; `budget` nodes after the first pass.

    `horizon`: what a first currency's search of this world reached, for a second
    currency's passes to follow: +d, it was cut at pass d, and no pass deeper than d
    is searched once one is cut here (the same horizon); -d, it solved the world at
    pass d, and the passes between the first and d are skipped (a world that needed
    depth d: the shallower passes would only order its moves), unless the budget
    runs out in pass d: then the world is searched again from the start with every
    pass, as without a horizon (its nodes count both); 0, none."""
    cdef SolverCtx* S = &core.ctx
    cdef Position pos = world[0]
    cdef Rng rng
    cdef int d, i
    cdef int n = J.n_moves if J.n_moves else 1
    cdef int vals[MAX_MOVES]
    cdef double* out = &J.values[w * n]
    cdef uint64_t spent = 0
    cdef bint skipped
    while True:
        seed_stream(&rng, J.seed, stream)
        core.fresh_context()
        set_root_side(S, &pos, side_of(&pos, J.observer))
        S.greedy_seats = greedy_seats
        J.status[w] = 0
        skipped = False
        for d in range(N_DEPTHS):
            if d > 0 and horizon_skips(DEPTHS[d], horizon):
                skipped = True
                continue
            # the depth-1 pass (each move, its draws, a horizon value) always completes
            begin_pass(S, DEPTHS[d], 0 if d == 0 else budget)
            for i in range(n):
                vals[i] = world_value(S, J, &pos, i if J.n_moves else -1, &rng)
                if S.aborted:
                    break
            if S.aborted:
                break
            for i in range(n):
                out[i] = vals[i] / <double>(maxn_scale(S) if S.maxn else 1)
            J.depth[w] = DEPTHS[d]
            J.status[w] = 1 if S.cut else 2
            if horizon_stops(S.cut, DEPTHS[d], horizon):
                break
        spent += S.nodes
        if not horizon_redo(S.aborted, skipped, J.depth[w], horizon):
            break
        horizon = 0         # the skipped passes were needed after all: all of them, afresh
    J.nodes[w] = spent
    S.max_ply = MAX_PLY


cdef enum:
    MAX_GROUPS = 1 << 18       # most distinct worlds a search records (beyond: searched at every draw)
    DRAWS_PER_SEARCH = 256     # a time budget stops drawing at this many draws per world search: where
                               # every world drawn is solved exactly, more draws only refine the weights


cdef inline bint same_world(const DrawGroup* d, uint64_t key, const Position* pos, uint32_t greedy) noexcept nogil:
    cdef int i
    if d.key != key or d.greedy != greedy:
        return False
    for i in range(4):
        if d.hand[i] != pos.hand[i]:
            return False
    for i in range(pos.bone_len - pos.bone_next):
        if d.bone[i] != pos.boneyard[pos.bone_next + i]:
            return False
    return True


cdef inline bint fits_deadline(const WorldJob* J, uint64_t budget) noexcept nogil:
    """Whether a search of `budget` nodes, at the rate of nodes so far, ends before the
    deadline (always without one): a re-search must not carry a hint past its time."""
    cdef double now
    if J.deadline <= 0:
        return True
    now = now_seconds()
    if J.nodes_done == 0:
        return now < J.deadline
    return now + <double>budget * J.search_seconds / <double>J.nodes_done < J.deadline


cdef bint grow_groups(WorldJob* J) noexcept nogil:
    """Room for one more group (the lock is held): the groups doubled, the index doubled
    and rebuilt above 3/4 full. False at max_groups or when memory runs out."""
    cdef long i, n, j
    cdef DrawGroup* g
    cdef int32_t* index
    if J.n_groups >= J.max_groups:
        return False
    if J.n_groups == J.groups_cap:
        g = <DrawGroup*>realloc(J.groups, 2 * J.groups_cap * sizeof(DrawGroup))
        if g == NULL:
            return False
        J.groups = g
        J.groups_cap *= 2
    if 4 * (J.n_groups + 1) > 3 * J.n_index:
        n = 2 * J.n_index
        index = <int32_t*>malloc(n * sizeof(int32_t))
        if index == NULL:
            return False
        memset(index, 0xFF, n * sizeof(int32_t))      # every entry -1
        for j in range(J.n_groups):
            i = <long>(J.groups[j].key & <uint64_t>(n - 1))
            while index[i] >= 0:
                i = (i + 1) & (n - 1)
            index[i] = <int32_t>j
        free(J.group_index)
        J.group_index = index
        J.n_index = n
    return True


cdef bint record_draw(WorldJob* J, long w, const Position* pos, uint32_t greedy, uint64_t* budget) noexcept nogil:
    """Note draw w of the world pos (with its greedy seats): whether to search it, and
    with what node budget. A world's first draw is searched with its own budget; a
    repeated draw takes that world's values (WS_REPEAT), except when the world's draws
    reach a power of two and no search of it has finished uncut: then it is searched
    again with that many times the budget (a world drawn k times gets at least k/2 x
    the nodes, as a sample budget gives it k x, and re-searching costs at most as much
    again). Past MAX_GROUPS distinct worlds, a new world is searched at every draw."""
    cdef uint64_t h = mix64(<uint64_t>greedy + <uint64_t>0x9E3779B97F4A7C15)
    cdef long i
    cdef int k
    cdef int32_t g
    cdef DrawGroup* d
    budget[0] = world_budget(J, w)
    J.group_of[w] = -1
    for k in range(4):
        h = mix64(h ^ pos.hand[k])
    for k in range(pos.bone_len - pos.bone_next):
        h = mix64(h ^ (<uint64_t>pos.boneyard[pos.bone_next + k] << 8) ^ <uint64_t>k)
    fiveup_spin_lock(&J.group_lock)
    i = <long>(h & <uint64_t>(J.n_index - 1))
    g = J.group_index[i]
    while g >= 0 and not same_world(&J.groups[g], h, pos, greedy):
        i = (i + 1) & (J.n_index - 1)
        g = J.group_index[i]
    if g < 0:
        J.searches += 1
        if not grow_groups(J):
            J.unrecorded += 1
            fiveup_spin_unlock(&J.group_lock)
            return True
        # the index may have been rebuilt: find the new group's entry again
        i = <long>(h & <uint64_t>(J.n_index - 1))
        while J.group_index[i] >= 0:
            i = (i + 1) & (J.n_index - 1)
        g = <int32_t>J.n_groups
        J.group_index[i] = g
        J.n_groups += 1
        d = &J.groups[g]
        d.key = h
        for k in range(4):
            d.hand[k] = pos.hand[k]
        memset(d.bone, 0, sizeof(d.bone))
        for k in range(pos.bone_len - pos.bone_next):
            d.bone[k] = pos.boneyard[pos.bone_next + k]
        d.greedy = greedy
        d.draws = 1
        d.best = -1
        d.best_budget = 0
        d.exact = 0
        J.group_of[w] = g
        fiveup_spin_unlock(&J.group_lock)
        return True
    d = &J.groups[g]
    d.draws += 1
    J.group_of[w] = g
    if not d.exact and (d.draws & (d.draws - 1)) == 0 and fits_deadline(J, times_draws(budget[0], d.draws)):
        budget[0] = times_draws(budget[0], d.draws)
        J.searches += 1
        fiveup_spin_unlock(&J.group_lock)
        return True
    J.status[w] = WS_REPEAT
    fiveup_spin_unlock(&J.group_lock)
    return False


cdef void finish_draw(WorldJob* J, long w, uint64_t budget, double seconds) noexcept nogil:
    """World w was searched with `budget`: its world's draws now stand on it if it is
    the first search of that world to finish, the first uncut one, or a larger one."""
    cdef DrawGroup* d
    fiveup_spin_lock(&J.group_lock)
    J.nodes_done += J.nodes[w]
    J.search_seconds += seconds
    if J.group_of[w] >= 0:
        d = &J.groups[J.group_of[w]]
        if not d.exact and (d.best < 0 or J.status[w] == 2 or budget > d.best_budget):
            d.best = w
            d.best_budget = budget
            if J.status[w] == 2:
                d.exact = 1
    fiveup_spin_unlock(&J.group_lock)


cdef inline void search_draw(SolverCore core, WorldJob* J, long w, const Position* pos, uint64_t stream,
                             uint32_t greedy) noexcept nogil:
    """Draw w of the sample: searched (record_draw says how), or a repeat of a world."""
    cdef uint64_t budget
    cdef double t0
    if record_draw(J, w, pos, greedy, &budget):
        t0 = now_seconds()
        search_world(core, J, w, pos, stream, greedy, budget, horizon_of(J, w))
        finish_draw(J, w, budget, now_seconds() - t0)
    fiveup_store_done(&J.finished[w])


cdef int check_method_search(SolverCore core, const WorldJob* J) except -1:
    if core.ctx.search_maxn and J.base.players == 3 and J.method not in (METHOD_PIMC, METHOD_EXPECTIMAX):
        raise CoreError(f"max^n has no search for method {J.method}")
    return 0


cdef tuple checked_horizon(object h):
    """(status, depth) of a first currency's search of a world, checked (a one-line CoreError)."""
    try:
        status, depth = h
    except (TypeError, ValueError):
        raise CoreError(f"a horizon is (status, depth), not {h!r}"[:200]) from None
    status = checked_int(status, 0, 2, "a horizon's status")
    if isinstance(depth, bool) or not isinstance(depth, int) or not (
            (status == 0 and depth == 0) or any(depth == DEPTHS[i] for i in range(N_DEPTHS))):
        raise CoreError(f"a horizon's depth must be a pass depth "
                        f"({', '.join(str(DEPTHS[i]) for i in range(N_DEPTHS))}; 0 with status 0), not {depth!r}"[:200])
    return status, depth


cdef list per_world(object items, long n, str what, str form):
    """`items` as a list of n entries, one per world, or a one-line CoreError."""
    try:
        items = list(items)
    except TypeError:
        raise CoreError(f"{what} must be a list of {form}") from None
    if len(items) != n:
        raise CoreError(f"{len(items)} {what} given for n_worlds {n}")
    return items


cdef class WorldSearch:
    """One hint computation: the root, the sampler, the budgets and the results."""
    cdef WorldJob job
    cdef DealCounter counter
    cdef object cores
    cdef WorldSearch depth_source    # kept alive while job.depth_of points into it
    cdef bint started                # __init__ was called (once only: a second would leave stale worlds)
    cdef bint ready                  # __init__ returned: every array is allocated and filled

    def __cinit__(self):
        self.job.values = NULL
        self.job.status = NULL
        self.job.nodes = NULL
        self.job.depth = NULL
        self.job.given_hands = NULL
        self.job.given_bone = NULL
        self.job.given_stream = NULL
        self.job.given_greedy = NULL
        self.job.given_share = NULL
        self.job.groups = NULL
        self.job.group_index = NULL
        self.job.group_of = NULL
        self.job.given_horizon = NULL
        self.job.depth_of = NULL
        self.job.finished = NULL

    def __init__(self, base, counter, hidden_seats, moves, method_,
                 world_nodes_, chance_width_, seed_, n_worlds_, min_worlds_, seconds_, observer_=None,
                 worlds=None, greedy_seats=(), shares=None, source=None, source_draws=None, horizons=None,
                 depth_of=None):
        """`moves`: the mover's root moves to value; or an empty list with `observer_`
        (a seat): the position's own value for that seat's team (any seat to move,
        forced draws and passes included).

        `worlds`: None (world k sampled from `counter` with stream k), or the worlds
        to search, in order: a list of (stream, hands, boneyard) with the hidden
        seats' hand masks (a list per seat; the observer's entry is ignored) and the
        boneyard tiles in draw order; world k's search uses its stream (a weighted
        draw keeps the sample index it was drawn with). n_worlds must be their number.
        A world may carry a fourth item, the seats searched as greedy in it (a bit
        mask of seats other than the observer): the opponent model drawn for it.

        `greedy_seats`: seats other than the observer that the search plays as greedy
        (only their largest accepted credits), as the beliefs read them.

        `shares`: with `worlds`, None or one count per world (1 to 2^32 - 1): the draws of
        the sample it stands for; its search gets that many times `world_nodes_`.

        `source`, `source_draws`: instead of `worlds`, the worlds of these draws of another
        search of the same position (a WorldSearch that has worked; ``group_plan`` gives
        them), each with the stream and greedy seats it had there: the second currency
        searched in the first's worlds, copied in C.

        `horizons`: None or one (status, depth) per world, what a first currency's search
        reached there (``results``): status 1, cut at pass `depth` (1, 2, 4, 8, 16 or
        64): no pass deeper is searched once one is cut here; status 2, solved at pass
        `depth`: the passes between the first and that one are skipped; status 0: no
        horizon. `depth_of`: instead, that first currency's WorldSearch of the same
        worlds with no time limit, worked first in the same dispatch (every thread works
        it before this one): each world takes its horizon from it.

        A WorldSearch is initialised once: __init__ again is a CoreError, and a search
        whose __init__ was not called or raised refuses every method."""
        cdef int s, i, n_legal
        cdef uint32_t unseen = 0, held = 0
        if self.started:
            raise CoreError("a WorldSearch is initialised once: make a new one")
        self.started = True
        cdef CoreRound base_round = checked_round(base, "base")
        if counter is not None and not isinstance(counter, DealCounter):
            raise CoreError(f"counter must be a DealCounter or None, not {type(counter).__name__}")
        cdef int method = checked_int(method_, 0, 1, "method")
        cdef uint64_t world_nodes = checked_u64(world_nodes_, "world_nodes")
        cdef int chance_width = checked_int(chance_width_, 1, 28, "chance_width")
        cdef uint64_t seed = checked_u64(seed_, "seed")
        cdef long n_worlds = checked_int(n_worlds_, 1, 10_000_000, "n_worlds")
        cdef long min_worlds = checked_int(min_worlds_, 0, n_worlds, "min_worlds")
        cdef double seconds
        if isinstance(seconds_, bool) or not isinstance(seconds_, (int, float)) or not 0.0 <= seconds_ <= 1e7:
            raise CoreError(f"seconds must be a number from 0 to 1e7, not {seconds_!r}"[:200])
        seconds = seconds_
        cdef uint8_t legal[MAX_MOVES]
        cdef Position* p = &base_round.top().pos
        cdef int observer
        try:
            moves = list(moves)
            hidden_seats = list(hidden_seats)
        except TypeError:
            raise CoreError("moves and hidden_seats must be lists") from None
        # Checked here, once: the searches index C arrays with all of it.
        if observer_ is None:
            observer = p.to_move
            if p.status != ST_PLAYING or not can_place(p):
                raise CoreError("the position has no placement to search (the round is over, or the seat must "
                                "draw or pass)")
            n_legal = gen_moves(p, legal)
            if not 1 <= len(moves) <= n_legal or not all(
                    type(m) is int and any(m == legal[i] for i in range(n_legal)) for m in moves) \
                    or len(set(moves)) != len(moves):
                raise CoreError(f"root moves must be distinct canonical moves of the position, not {moves!r}"[:200])
        else:
            observer = checked_int(observer_, 0, p.players - 1, "observer")
            if moves:
                raise CoreError("a position value has no root moves (give an empty list)")
            if p.status != ST_PLAYING:
                raise CoreError("the round is over: the position has no value to search")
        if not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < p.players and x != observer
                   for x in hidden_seats):
            raise CoreError(f"hidden seats must be seats other than the observer, not {hidden_seats!r}"[:200])
        try:
            greedy_seats = list(greedy_seats)
        except TypeError:
            raise CoreError("greedy_seats must be a list of seats") from None
        if not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < p.players and x != observer
                   for x in greedy_seats):
            raise CoreError(f"greedy seats must be seats other than the observer, not {greedy_seats!r}"[:200])
        self.job.greedy_seats = 0
        for s in greedy_seats:
            self.job.greedy_seats |= 1 << s
        self.counter = counter
        self.job.base = p[0]
        self.job.hidden_seats = 0
        for s in hidden_seats:
            self.job.hidden_seats |= 1 << s
        self.job.n_moves = len(moves)
        self.job.observer = observer
        for i in range(self.job.n_moves):
            self.job.moves[i] = moves[i]
        self.job.method = method
        self.job.world_nodes = world_nodes
        self.job.chance_width = chance_width
        self.job.seed = seed
        self.job.n_worlds = n_worlds
        self.job.min_worlds = min_worlds
        self.job.deadline = now_seconds() + seconds if seconds > 0 else 0.0
        self.job.next_world = 0
        self.job.values = <double*>malloc(n_worlds * max(1, self.job.n_moves) * sizeof(double) + 8)
        # zeroed by calloc: a time budget's capacity of draws costs no page it does not use
        self.job.status = <uint8_t*>calloc(n_worlds + 8, 1)
        self.job.nodes = <uint64_t*>calloc(n_worlds + 1, sizeof(uint64_t))
        self.job.depth = <uint8_t*>calloc(n_worlds + 8, 1)
        self.job.group_of = <int32_t*>malloc(n_worlds * sizeof(int32_t) + 8)
        self.job.finished = <uint8_t*>calloc(n_worlds + 8, 1)
        # the distinct worlds drawn: grown by doubling (grow_groups)
        self.job.groups_cap = 16
        self.job.n_groups = 0
        self.job.groups = <DrawGroup*>malloc(self.job.groups_cap * sizeof(DrawGroup))
        self.job.n_index = 32
        self.job.group_index = <int32_t*>malloc(self.job.n_index * sizeof(int32_t))
        self.job.unrecorded = 0
        self.job.max_groups = MAX_GROUPS
        self.job.group_lock = 0
        self.job.searches = 0
        self.job.nodes_done = 0
        self.job.search_seconds = 0.0
        if not (self.job.values and self.job.status and self.job.nodes and self.job.depth and self.job.group_of
                and self.job.groups and self.job.group_index and self.job.finished):
            raise MemoryError()
        memset(self.job.group_index, 0xFF, self.job.n_index * sizeof(int32_t))
        if source is not None:
            if worlds is not None:
                raise CoreError("give either worlds or source, not both")
            if not isinstance(source, WorldSearch):
                raise CoreError(f"source must be a WorldSearch, not {type(source).__name__}")
            if not (<WorldSearch>source).ready:
                raise CoreError("source must be an initialised WorldSearch")
            self._copy_worlds(source, source_draws)
        elif source_draws is not None:
            raise CoreError("source_draws are draws of a source search: give source too")
        if worlds is not None:
            self._set_worlds(worlds)
        if shares is not None:
            self._set_shares(shares)
        if horizons is not None and depth_of is not None:
            raise CoreError("give either horizons or depth_of, not both")
        if horizons is not None:
            self._set_horizons(horizons)
        if depth_of is not None:
            self._set_depth_of(depth_of)
        if counter is not None:
            # the sampler must deal exactly the tiles hidden here (the hidden seats' hands and
            # the boneyard), to the hidden seats: a sampler of another position (or of other
            # hidden seats) would put tiles of the board or of a known hand into its worlds
            for s in hidden_seats:
                unseen |= self.job.base.hand[<int>s]
            for i in range(self.job.base.bone_next, self.job.base.bone_len):
                unseen |= <uint32_t>1 << self.job.base.boneyard[i]
            for i in range((<DealCounter>counter).n_items):
                if (<DealCounter>counter).item_held[i]:
                    held |= <uint32_t>1 << (<DealCounter>counter).item_tile[i]
            if held != unseen or not all(
                    c == (<DealCounter>counter).bone or (<DealCounter>counter).class_seat[c] in hidden_seats
                    for c in range((<DealCounter>counter).n_classes)):
                raise CoreError("counter must deal this position's hidden tiles to its hidden seats")
        self.ready = True

    cdef int check_ready(self) except -1:
        if not self.ready:
            raise CoreError("this WorldSearch is not initialised (its __init__ was not called, or it failed)")
        return 0

    cdef _set_horizons(self, horizons):
        cdef WorldJob* J = &self.job
        cdef long w
        horizons = per_world(horizons, J.n_worlds, "horizons", "(status, depth) pairs")
        J.given_horizon = <uint8_t*>malloc(2 * J.n_worlds + 8)
        if not J.given_horizon:
            raise MemoryError()
        for w in range(J.n_worlds):
            J.given_horizon[2 * w], J.given_horizon[2 * w + 1] = checked_horizon(horizons[w])

    cdef _set_depth_of(self, other):
        cdef WorldJob* J = &self.job
        cdef WorldJob* F
        cdef long w
        cdef int b = J.base.bone_len - J.base.bone_next
        if not isinstance(other, WorldSearch):
            raise CoreError(f"depth_of must be a WorldSearch, not {type(other).__name__}")
        if not (<WorldSearch>other).ready:
            raise CoreError("depth_of must be an initialised WorldSearch")
        if other is self:
            raise CoreError("depth_of must be another search")
        F = &(<WorldSearch>other).job
        # the same worlds in the same order (world w there is world w here), all of them searched
        if F.n_worlds != J.n_worlds or F.deadline > 0 or J.deadline > 0 or F.depth_of != NULL \
                or (F.given_hands == NULL) != (J.given_hands == NULL) or F.seed != J.seed or not same_root(J, F):
            raise CoreError("depth_of must be a search of the same position, root moves and worlds, "
                            "with no time limit")
        if J.given_hands != NULL:
            for w in range(J.n_worlds):
                # a world's boneyard holds b tiles (the rest of its 28 bytes is unused)
                if memcmp(&J.given_hands[w * 4], &F.given_hands[w * 4], 4 * sizeof(uint32_t)) != 0 \
                        or memcmp(&J.given_bone[w * 28], &F.given_bone[w * 28], b) != 0 \
                        or J.given_stream[w] != F.given_stream[w] \
                        or (J.given_greedy != NULL and J.given_greedy[w] != F.given_greedy[w]) \
                        or (J.given_greedy == NULL) != (F.given_greedy == NULL):
                    raise CoreError("depth_of must be a search of the same worlds")
        self.depth_source = other
        J.depth_of = F

    cdef _set_shares(self, shares):
        cdef WorldJob* J = &self.job
        cdef long w
        if J.given_hands == NULL:
            raise CoreError("shares are for given worlds")
        shares = per_world(shares, J.n_worlds, "shares", "counts, one per world")
        J.given_share = <uint32_t*>malloc(J.n_worlds * sizeof(uint32_t) + 8)
        if not J.given_share:
            raise MemoryError()
        for w in range(J.n_worlds):
            J.given_share[w] = <uint32_t>checked_int(shares[w], 1, 2 ** 32 - 1, "a world's share")

    cdef _set_worlds(self, worlds):
        """Check and copy the given worlds (see __init__)."""
        cdef WorldJob* J = &self.job
        cdef long w
        cdef int s, i, b = J.base.bone_len - J.base.bone_next
        cdef uint32_t seen, m
        worlds = per_world(worlds, J.n_worlds, "worlds", "(stream, hands, boneyard)")
        J.given_hands = <uint32_t*>malloc(J.n_worlds * 4 * sizeof(uint32_t) + 8)
        J.given_bone = <uint8_t*>malloc(J.n_worlds * 28 + 8)
        J.given_stream = <uint64_t*>malloc(J.n_worlds * sizeof(uint64_t) + 8)
        if not (J.given_hands and J.given_bone and J.given_stream):
            raise MemoryError()
        for w in range(J.n_worlds):
            try:
                stream, hands, bone, *greedy = worlds[w]
                hands, bone = list(hands), list(bone)
            except (TypeError, ValueError):
                raise CoreError("each world is (stream, hands, boneyard[, greedy seats mask])") from None
            if len(greedy) > 1 or (w > 0 and bool(greedy) != (J.given_greedy != NULL)):
                raise CoreError("every world or none carries a greedy seats mask, after its boneyard")
            if greedy:
                if J.given_greedy == NULL:
                    J.given_greedy = <uint8_t*>malloc(J.n_worlds + 8)
                    if not J.given_greedy:
                        raise MemoryError()
                m = <uint32_t>checked_int(greedy[0], 0, 15, "a greedy seats mask")
                if (m >> J.observer) & 1 or m >> J.base.players:
                    raise CoreError(f"a world's greedy seats must be seats other than the observer, not mask {m}")
                J.given_greedy[w] = m
            J.given_stream[w] = checked_u64(stream, "a world's stream")
            # the hidden tiles of a world are exactly the base position's hidden tiles
            for s in range(4):
                J.given_hands[w * 4 + s] = 0
            read_world(&J.base, hands, bone, ~J.hidden_seats & 0xF, &J.given_hands[w * 4], &J.given_bone[w * 28])

    def __dealloc__(self):
        free(self.job.values)
        free(self.job.status)
        free(self.job.nodes)
        free(self.job.depth)
        free(self.job.given_hands)
        free(self.job.given_bone)
        free(self.job.given_stream)
        free(self.job.given_greedy)
        free(self.job.given_share)
        free(self.job.groups)
        free(self.job.group_index)
        free(self.job.group_of)
        free(self.job.given_horizon)
        free(self.job.finished)

    def work(self, core_):
        """Search worlds until none is left or the time is up (call from any thread). In the
        main thread a Ctrl-C is seen between worlds (about every 50 ms): KeyboardInterrupt
        is raised and every other thread of the search stops before its next world."""
        cdef SolverCore core = checked_core(core_)
        with core.claimed():      # one search at a time on a core (SolverCore.claim)
            return self._work(core)

    cdef object _work(self, SolverCore core):
        """work, with the core claimed."""
        cdef WorldJob* J = &self.job
        self.check_ready()
        if self.counter is None and J.given_hands == NULL:
            raise CoreError("this search has no deal sampler and no worlds: use value_world")
        core.check_players(J.base.players)
        check_method_search(core, J)
        if J.depth_of != NULL and fiveup_load_index(&J.depth_of.next_world) < J.depth_of.n_worlds:
            # its worlds not all taken yet: waiting on them could wait forever
            raise CoreError("work the depth_of search first (every world of it taken)")
        cdef long w
        cdef uint32_t hands[4]
        cdef uint8_t bone[28]
        cdef Rng rng
        cdef Position pos
        cdef int s, b, i, signalled = 0
        cdef double next_check = now_seconds() + SIGNAL_CHECK_SECONDS
        with nogil:
            while True:
                if now_seconds() >= next_check:
                    # a search of many worlds in the main thread would hold Ctrl-C off to its end
                    next_check = now_seconds() + SIGNAL_CHECK_SECONDS
                    with gil:
                        signalled = PyErr_CheckSignals() != 0
                        if signalled:
                            PyErr_Clear()    # raised again after the loop, once every world is left
                    if signalled:
                        fiveup_next_index(&J.stop)
                if fiveup_load_index(&J.stop):
                    break
                w = fiveup_next_index(&J.next_world)
                if w >= J.n_worlds:
                    break
                if J.deadline > 0 and w >= J.min_worlds and (
                        now_seconds() >= J.deadline
                        or w >= DRAWS_PER_SEARCH * fiveup_load_index(&J.searches)):
                    break
                if J.given_hands != NULL:
                    pos = J.base
                    for s in range(4):
                        pos.hand[s] = J.given_hands[w * 4 + s]
                    for i in range(J.base.bone_len - J.base.bone_next):
                        pos.boneyard[pos.bone_next + i] = J.given_bone[w * 28 + i]
                    search_draw(core, J, w, &pos, J.given_stream[w],
                                J.given_greedy[w] if J.given_greedy != NULL else J.greedy_seats)
                    continue
                # the world's deal: stream (seed, w) for the sample, the search gets its own
                world_stream(&rng, J.seed, <uint64_t>w)
                hands[0] = hands[1] = hands[2] = hands[3] = 0
                b = self.counter.sample_world(&rng, hands, bone)
                if b < 0 or b != J.base.bone_len - J.base.bone_next:
                    fiveup_store_done(&J.finished[w])
                    continue
                pos = J.base
                for s in range(4):
                    if (J.hidden_seats >> s) & 1:
                        pos.hand[s] = hands[s]
                for i in range(b):
                    pos.boneyard[pos.bone_next + i] = bone[i]
                search_draw(core, J, w, &pos, <uint64_t>w, J.greedy_seats)
        if signalled:
            # (what the handler raised: cleared above, raised here); the other threads just
            # return, their worlds unfinished: this thread's KeyboardInterrupt is the answer
            raise KeyboardInterrupt
        return None

    def stop(self):
        """Every thread working on this search stops before its next world (as at a
        Ctrl-C in the main thread); what was searched stays, the rest is unfinished."""
        fiveup_next_index(&self.job.stop)

    def value_world(self, core_, hands, boneyard, horizon=None):
        """Search one given world (hand tile lists per seat, boneyard tiles in order):
        (status, depth, nodes, [value per root move]). For tests and analysis.
        `horizon`: None, or (status, depth) as one world's entry of `horizons`.
        The world must keep the position's board and the observer's hand, give every
        seat as many tiles as it holds and hold every tile off the board once."""
        cdef SolverCore core = checked_core(core_)
        with core.claimed():      # one search at a time on a core (SolverCore.claim)
            return self._value_world(core, hands, boneyard, horizon)

    cdef object _value_world(self, SolverCore core, object hands, object boneyard, object horizon):
        """value_world, with the core claimed."""
        cdef WorldJob* J = &self.job
        self.check_ready()
        cdef Position pos = J.base
        cdef int s, i
        cdef uint32_t seen = J.base.board
        cdef int status, depth, reached = 0
        if horizon is not None:
            status, depth = checked_horizon(horizon)
            reached = signed_horizon(status, depth)
        core.check_players(J.base.players)
        check_method_search(core, J)
        try:
            hands = [list(h) for h in hands]
            boneyard = list(boneyard)
        except TypeError:
            raise CoreError("hands must be lists of tile numbers, one per seat, and boneyard a list") from None
        if len(hands) != J.base.players:
            raise CoreError(f"hands must list {J.base.players} hands, not {len(hands)}")
        if len(boneyard) != J.base.bone_len - J.base.bone_next:
            raise CoreError("the boneyard size does not match the position")
        for t in [t for h in hands for t in h] + boneyard:
            if not isinstance(t, int) or not 0 <= t < 28 or (seen >> <int>t) & 1:
                raise CoreError(f"the world's tiles must be distinct tile numbers 0..27 off the board, not {t!r}"[:200])
            seen |= <uint32_t>1 << <int>t
        for s in range(J.base.players):
            pos.hand[s] = 0
            for t in hands[s]:
                pos.hand[s] |= <uint32_t>1 << <int>t
        if pos.hand[J.observer] != J.base.hand[J.observer]:
            raise CoreError("the world must keep the observer's hand")
        if seen != 0x0FFFFFFF:
            raise CoreError("a world must hold every tile off the board once")
        for s in range(J.base.players):
            if fiveup_popcount(pos.hand[s]) != fiveup_popcount(J.base.hand[s]):
                raise CoreError(f"a world gives seat {s} {fiveup_popcount(pos.hand[s])} tiles, "
                                f"not {fiveup_popcount(J.base.hand[s])}")
        for i in range(len(boneyard)):
            pos.boneyard[pos.bone_next + i] = boneyard[i]
        with nogil:
            J.group_of[0] = -1      # not a draw of the sample (results() reads it)
            search_world(core, J, 0, &pos, 0, J.greedy_seats, world_budget(J, 0), reached)
        return (J.status[0], J.depth[0], J.nodes[0], [J.values[i] for i in range(max(1, J.n_moves))])

    def searched_draws(self):
        """The draws that were searched, in order (the others repeated a world already
        searched: ``results`` gives them its values)."""
        cdef long w
        self.check_ready()
        return [w for w in range(self.job.n_worlds) if self.job.status[w] in (1, 2)]

    def _set_max_groups(self, n):
        """The table's capacity in groups, lower than MAX_GROUPS (for tests of a full table)."""
        self.check_ready()
        self.job.max_groups = checked_int(n, 0, MAX_GROUPS, "max_groups")

    @property
    def distinct_worlds(self):
        """Distinct worlds among the draws (a world searched outside the full table counts
        at each of its draws)."""
        self.check_ready()
        return self.job.n_groups + self.job.unrecorded

    def group_plan(self):
        """The draws grouped by world, to search them again under another objective with
        the same budgets (``source``, ``shares``; ``hint._Draws`` expands the results):
        (sources, shares, members), one entry per group in the order first drawn: the draw
        whose search stands for the group, that search's node budget in world_nodes (at
        least 1), and the draws it stands for, in order."""
        cdef WorldJob* J = &self.job
        cdef long w, src, k
        cdef int32_t g
        cdef uint64_t budget
        self.check_ready()
        cdef long* pos = <long*>malloc((J.n_groups + 1) * sizeof(long))
        if pos == NULL:
            raise MemoryError()
        sources, shares, members = [], [], []
        try:
            for k in range(J.n_groups):
                pos[k] = -1
            for w in range(J.n_worlds):
                if not J.status[w]:
                    continue
                g = J.group_of[w]
                if g >= 0 and pos[g] >= 0:
                    members[pos[g]].append(w)
                    continue
                if g >= 0:
                    src, budget = J.groups[g].best, J.groups[g].best_budget
                    if src < 0:     # pragma: no cover - a world's first draw is always searched
                        continue
                    pos[g] = len(sources)
                else:
                    src, budget = w, world_budget(J, w)
                sources.append(src)
                shares.append(min(max(<uint64_t>1, budget // J.world_nodes if J.world_nodes else <uint64_t>1),
                                  <uint64_t>0xFFFFFFFF))
                members.append([w])
        finally:
            free(pos)
        return sources, shares, members

    cdef _copy_worlds(self, WorldSearch source, source_draws):
        """The worlds of `source`'s draws `source_draws`, as given worlds (see __init__)."""
        cdef WorldJob* J = &self.job
        cdef WorldJob* F = &source.job
        cdef long w, src
        cdef int s, i, b = J.base.bone_len - J.base.bone_next
        cdef uint32_t hands[4]
        cdef uint8_t bone[28]
        cdef Rng rng
        if not same_root(J, F):
            raise CoreError("a source search must be of the same position, seats and root moves")
        source_draws = per_world(source_draws, J.n_worlds, "source draws", "draw numbers")
        J.given_hands = <uint32_t*>calloc(J.n_worlds * 4 + 2, sizeof(uint32_t))
        J.given_bone = <uint8_t*>calloc(J.n_worlds * 28 + 8, 1)
        J.given_stream = <uint64_t*>malloc(J.n_worlds * sizeof(uint64_t) + 8)
        if not (J.given_hands and J.given_bone and J.given_stream):
            raise MemoryError()
        if F.given_greedy != NULL:
            J.given_greedy = <uint8_t*>malloc(J.n_worlds + 8)
            if not J.given_greedy:
                raise MemoryError()
        for w in range(J.n_worlds):
            src = checked_int(source_draws[w], 0, F.n_worlds - 1, "a source draw")
            if F.status[src] not in (1, 2):
                raise CoreError(f"source draw {src} was not searched")
            if F.given_hands != NULL:
                memcpy(&J.given_hands[w * 4], &F.given_hands[src * 4], 4 * sizeof(uint32_t))
                memcpy(&J.given_bone[w * 28], &F.given_bone[src * 28], b)
                J.given_stream[w] = F.given_stream[src]
                if F.given_greedy != NULL:
                    J.given_greedy[w] = F.given_greedy[src]
                continue
            if source.counter is None:
                raise CoreError("the source search has neither worlds nor a deal sampler")
            # a sampled draw: its stream gives its world again (as in work)
            world_stream(&rng, F.seed, <uint64_t>src)
            hands[0] = hands[1] = hands[2] = hands[3] = 0
            source.counter.sample_world(&rng, hands, bone)
            for s in range(4):
                J.given_hands[w * 4 + s] = hands[s] if (F.hidden_seats >> s) & 1 else F.base.hand[s]
            for i in range(b):
                J.given_bone[w * 28 + i] = bone[i]
            J.given_stream[w] = <uint64_t>src

    def results(self):
        """[(world, status, depth, nodes, [values])] for every drawn world, in world order.
        A world drawn more than once has, at each of its draws, the values, status and
        depth of its largest search (or its first uncut one); nodes are each draw's own
        (0 for a draw that was not searched)."""
        cdef WorldJob* J = &self.job
        cdef long w, src
        self.check_ready()
        out = []
        for w in range(J.n_worlds):
            if not J.status[w]:
                continue
            src = w
            if J.group_of[w] >= 0:
                src = J.groups[J.group_of[w]].best
                if src < 0:     # pragma: no cover - a world's first draw is always searched
                    continue
            out.append((w, J.status[src], J.depth[src], J.nodes[w],
                        [J.values[src * max(1, J.n_moves) + i] for i in range(max(1, J.n_moves))]))
        return out


def run_jobs(core, jobs, set_objective, done, errors):
    """One hint thread's work: each of `jobs` ([(objective, search)], WorldSearch or
    AlphaMuSearch) in order on `core`, `set_objective(core, objective)` between them;
    any exception is appended to `errors`, and `done` (a held lock, or None) released
    at the end. Compiled, not Python: an exception sent to the thread from outside
    (PyThreadState_SetAsyncExc) cannot arrive before the try, whose finally then
    always releases `done`; the caller waits on it."""
    try:
        for k, (objective, job) in enumerate(jobs):
            if k:
                set_objective(core, objective)
            job.work(core)
    except BaseException as e:   # raised again by the calling thread
        errors.append(e)
    finally:
        if done is not None:
            done.release()
