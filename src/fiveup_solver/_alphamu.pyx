# cython: language_level=3
"""alphamu (Cazenave and Ventos 2019, 2021) for 2 players: the seat's own decisions
chosen once per information set across sampled worlds.

PIMC values a move by solving every world as if everything were known, so the
seat's later choices in one world may differ from its choices in another world
it cannot tell apart (strategy fusion). Here the seat's next M decisions after
the root move are one choice per information set: at a node, every world that
is still possible shares the seat's observable history (its own moves and draws,
the opponent's placements, how many tiles the opponent drew, passes), and the
seat picks one move for them all. The opponent is assumed to see everything and
picks per world, unless the world reads it as greedy: then it places for the
largest accepted credit and its coin picks among those placements. After the M-th decision (or at the round's end) each world is
valued by the perfect-information solver, as PIMC values it (its boneyard order
taken as known, iterative deepening under a node budget per leaf).

A node's value is a Pareto front of value vectors (one entry per world, for the
observer's team, relative to the root's scores):

* the seat's decision: the union of its moves' fronts (the dominated removed);
* the opponent's turn: each world's options are grouped by what the seat sees of
  them (tiles drawn, the placement or the pass); the front is every combination
  of one vector per group, each world taking the least over its own groups (a
  world with a greedy opponent: the mean over its tied placements, each concrete
  placement alike, truncated toward zero as in the solver);
* the seat's draw: the worlds split by the tile drawn; every combination of one
  vector per split (disjoint worlds).

A node with a single world left is valued by the solver at once: a joint choice
for one world is that world's own choice (with exact leaves the value is the same).

A front keeps at most ``front_cap`` vectors, the best by weighted mean (the
rest are dropped; with small fronts, as in the tests, nothing is dropped).
A root move is worth the best weighted mean over its front.

The walk never looks at a value: under either objective a root move visits the
same leaves in the same order. Each leaf records how far its search got, and a
second currency's search (``follow``) searches each leaf to the horizon the
first reached there, as a PIMC hint's second currency follows its worlds.

Depth 0 is PIMC: every world's value of the root move comes from the solver.
Each root move is searched on its own (threads take root moves), and every
leaf search starts from a fresh context, so the values do not depend on the
number of threads.
"""
from libc.stdlib cimport malloc, calloc, realloc, free, qsort
from libc.string cimport memcpy, memmove, memcmp
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from fiveup_solver._rules cimport *
from fiveup_solver._core cimport CoreRound, read_world, checked_round
from fiveup_solver._solver cimport (
    SolverCore, SolverCtx, checked_core, set_root_side, terminal_or_search, team_value, accepted_credit, keep_greedy,
    trunc_div, begin_pass, signed_horizon, horizon_skips, horizon_stops, horizon_redo, MAX_PLY, INF,
)
from fiveup_solver.errors import CoreError

cdef extern from *:
    """
    static inline long fiveup_amu_next(long* counter) { return __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED); }
    static inline long fiveup_amu_taken(long* counter) { return __atomic_load_n(counter, __ATOMIC_RELAXED); }
    static inline int fiveup_amu_load_finished(uint8_t* x) { return __atomic_load_n(x, __ATOMIC_ACQUIRE); }
    static inline void fiveup_amu_store_finished(uint8_t* x) { __atomic_store_n(x, 1, __ATOMIC_RELEASE); }
    """
    long fiveup_amu_next(long* counter) noexcept nogil
    long fiveup_amu_taken(long* counter) noexcept nogil
    int fiveup_amu_load_finished(uint8_t* x) noexcept nogil
    void fiveup_amu_store_finished(uint8_t* x) noexcept nogil

cdef extern from "<sched.h>" nogil:
    int sched_yield()

cdef enum:
    N_DEPTHS = 6
    SIG_ENDED = 0xFE           # an opponent's turn whose draws ended the round (the low byte of a signature)
    POS_POOL = 1 << 16         # positions per thread
    IDX_POOL = 1 << 20         # ints of world lists per thread
    VEC_POOL = 1 << 22         # ints of value vectors per thread

cdef int DEPTHS[N_DEPTHS]
DEPTHS[:] = [1, 2, 4, 8, 16, MAX_PLY]

MAX_WORLDS = AMU_MAX_WORLDS
MAX_FRONT = AMU_MAX_FRONT
MAX_DEPTH = AMU_MAX_DEPTH


cdef double now_seconds() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline Position* push_pos(AmuJob* J, AmuStack* T, long n) noexcept nogil:
    """n positions from the pool (NULL, and the job marked, when it is full)."""
    cdef Position* out
    if T.pos_top + n > T.pos_cap:
        J.overflow = 1
        return NULL
    out = T.pos + T.pos_top
    T.pos_top += n
    return out


cdef inline int* push_idx(AmuJob* J, AmuStack* T, long n) noexcept nogil:
    cdef int* out
    if T.idx_top + n > T.idx_cap:
        J.overflow = 1
        return NULL
    out = T.idx + T.idx_top
    T.idx_top += n
    return out


cdef inline int* push_vec(AmuJob* J, AmuStack* T, long n) noexcept nogil:
    """Room for n vectors at the top of the vector pool (NULL when it is full)."""
    cdef int* out
    if T.vec_top + n * J.n_worlds > T.vec_cap:
        J.overflow = 1
        return NULL
    out = T.vec + T.vec_top
    T.vec_top += n * J.n_worlds
    return out


cdef inline uint64_t leaf_budget(const AmuJob* J, int w) noexcept nogil:
    """World w's leaf budget: leaf_nodes times the draws the world stands for
    (saturating), as PIMC's world budget: a world drawn k times is searched once
    with k times the nodes, so that fewer distinct worlds do not mean less search."""
    cdef uint64_t k = J.shares[w]
    if k > 1 and J.leaf_nodes > (<uint64_t>0xFFFFFFFFFFFFFFFF) // k:
        return <uint64_t>0xFFFFFFFFFFFFFFFF
    return J.leaf_nodes * k


cdef void record_leaf(AmuJob* J, AmuStack* T, long leaf, int status, int depth) noexcept nogil:
    """Leaf `leaf` of the current root move reached (status, depth): its record grows by
    doubling (amortised: a leaf costs a search); if memory runs out, recording stops
    there and a search following this one searches the later leaves without a horizon."""
    cdef int m = T.move
    cdef long cap = J.record_cap[m]
    cdef uint8_t* grown
    if cap < 0 or leaf != J.record_len[m]:
        return
    if leaf >= cap:
        cap = 256 if cap == 0 else 2 * cap
        grown = <uint8_t*>realloc(J.leaf_record[m], 2 * cap)
        if grown == NULL:
            J.record_cap[m] = -1
            return
        J.leaf_record[m] = grown
        J.record_cap[m] = cap
    J.leaf_record[m][2 * leaf] = <uint8_t>status
    J.leaf_record[m][2 * leaf + 1] = <uint8_t>depth
    J.record_len[m] = leaf + 1


cdef inline int followed_horizon(const AmuJob* J, const AmuStack* T, long leaf) noexcept nogil:
    """The horizon a followed first currency's search reached at this leaf (both walks
    visit the same leaves in the same order): +depth (cut there), -depth (solved at
    that pass), 0 (none: no search followed, a round's end, or not recorded)."""
    cdef const AmuJob* F = J.follow
    if F == NULL or leaf >= F.record_len[T.move]:
        return 0
    return signed_horizon(F.leaf_record[T.move][2 * leaf], F.leaf_record[T.move][2 * leaf + 1])


cdef int amu_leaf(SolverCore core, AmuJob* J, AmuStack* T, int w, const Position* after) noexcept nogil:
    """World w's value, for the observer's team relative to the root's scores, of the
    position `after` (just after a placement or a turn), as PIMC values a root move:
    forced draws and passes by the world's boneyard order, then the solver by
    iterative deepening (depth 1 always completes, then the node budget; the last
    complete depth stands). The leaf's (status, depth) is recorded: 1, cut at that
    pass; 2, solved at it; 0, the round's end.

    A search following a first currency's (J.follow) takes that leaf's horizon, as a
    hint's world search does (_hint.search_world): where the first was cut at pass d,
    no pass deeper than d once one is cut here; where it solved the leaf at pass d,
    the passes between the first and d are skipped, unless the budget runs out in
    pass d: then the leaf is searched again with every pass (its nodes count both)."""
    cdef SolverCtx* S = &core.ctx
    cdef Position c = after[0]
    cdef const Position* root = &J.roots[w]
    cdef int gain, d, v = 0, x, status = 0, depth = 0
    cdef long leaf = <long>T.leaves
    cdef int horizon = followed_horizon(J, T, leaf)
    cdef uint64_t spent = 0
    cdef bint skipped
    T.leaves += 1
    if J.deadline > 0 and now_seconds() >= J.deadline:
        J.aborted = 1
    resolve_turn(&c)
    if c.status != ST_PLAYING:
        record_leaf(J, T, leaf, 0, 0)
        set_root_side(S, root, side_of(root, J.observer))
        return terminal_or_search(S, &c, 0, team_value(S, &c, 0) - team_value(S, root, 0))
    while True:
        core.fresh_context()
        set_root_side(S, root, side_of(root, J.observer))
        S.greedy_seats = J.greedy[w]
        gain = team_value(S, &c, 0) - team_value(S, root, 0)
        status = depth = 0
        skipped = False
        for d in range(N_DEPTHS):
            if d > 0 and horizon_skips(DEPTHS[d], horizon):
                skipped = True
                continue
            begin_pass(S, DEPTHS[d], 0 if d == 0 else leaf_budget(J, w))
            x = terminal_or_search(S, &c, 0, gain)
            if S.aborted:
                break
            v = x
            depth = DEPTHS[d]
            status = 1 if S.cut else 2
            if horizon_stops(S.cut, depth, horizon):
                break
        spent += S.nodes
        if not horizon_redo(S.aborted, skipped, depth, horizon):
            break
        horizon = 0         # the skipped passes were needed after all: all of them, afresh
    S.max_ply = MAX_PLY
    T.nodes += spent
    record_leaf(J, T, leaf, status, depth)
    return v


cdef int compare_keys(const void* a, const void* b) noexcept nogil:
    """Higher mean first; equal means in candidate order (deterministic)."""
    cdef const AmuKey* x = <const AmuKey*>a
    cdef const AmuKey* y = <const AmuKey*>b
    if x.mean > y.mean:
        return -1
    if x.mean < y.mean:
        return 1
    return -1 if x.index < y.index else (1 if x.index > y.index else 0)


cdef long amu_reduce(AmuJob* J, AmuStack* T, long off, long n, const int* ws, int k) noexcept nogil:
    """Reduce the n candidate vectors at `off` to their Pareto front over the worlds
    ws (one of equal vectors kept), at most front_cap of them, the best by weighted
    mean. A vector is only dominated by one of at least its mean, so the candidates
    are taken by decreasing mean and each is checked against those kept. The front
    is left at `off`, the pool's top just after it; its size is returned."""
    cdef long N = J.n_worlds, c, j, kept = 0
    cdef int i, w
    cdef int* v
    cdef int* u
    cdef double m
    cdef bint dominated
    cdef int* tmp
    if n <= 1:
        T.vec_top = off + n * N
        return n
    if n > T.keys_cap:
        J.overflow = 1
        return -1
    for c in range(n):
        v = T.vec + off + c * N
        m = 0.0
        for i in range(k):
            m += J.weights[ws[i]] * v[ws[i]]
        T.keys[c].mean = m
        T.keys[c].index = c
    qsort(T.keys, n, sizeof(AmuKey), compare_keys)
    for c in range(n):
        v = T.vec + off + T.keys[c].index * N
        dominated = 0
        for j in range(kept):
            u = T.vec + off + <long>T.kept[j] * N
            dominated = 1
            for i in range(k):
                w = ws[i]
                if u[w] < v[w]:
                    dominated = 0
                    break
            if dominated:
                break
        if not dominated:
            T.kept[kept] = <int>T.keys[c].index
            kept += 1
            if kept >= J.front_cap:
                break
    # the kept vectors, in order of decreasing mean, moved to the front of the block
    T.vec_top = off + n * N
    tmp = push_vec(J, T, kept)
    if tmp == NULL:
        return -1
    for j in range(kept):
        memcpy(tmp + j * N, T.vec + off + <long>T.kept[j] * N, N * sizeof(int))
    memmove(T.vec + off, tmp, kept * N * sizeof(int))
    T.vec_top = off + kept * N
    return kept


cdef long amu_min_product(AmuJob* J, AmuStack* T, long off_r, long a, long b, const int* ws, int k,
                          const int* sub, const int* wt, int ks) noexcept nogil:
    """Combine the front R (a vectors at off_r) with a child's front F (b vectors just
    above it) over the child's worlds `sub`: every pair (x, y) gives x with each
    world of sub lowered to y's entry where that is less (the opponent picks per
    world; a world of a disjoint split simply takes y's entry, R starting at +INF).
    A world whose weight wt[i] is positive is a greedy seat's coin instead: it adds
    wt[i] times y's entry (R starting at 0; opponent_average divides at the end).
    wt is NULL when every world picks. Both are monotone in every entry, so the
    dominated partial vectors may go at once. The reduced front replaces R; its
    size is returned."""
    cdef long N = J.n_worlds, x, y, n
    cdef int i, w
    cdef long off_c = off_r + (a + b) * N
    cdef int* z
    cdef int* yv
    T.vec_top = off_c
    z = push_vec(J, T, a * b)
    if z == NULL:
        return -1
    for x in range(a):
        for y in range(b):
            memcpy(z, T.vec + off_r + x * N, N * sizeof(int))
            yv = T.vec + off_r + (a + y) * N
            for i in range(ks):
                w = sub[i]
                if wt != NULL and wt[i] > 0:
                    z[w] += wt[i] * yv[w]
                elif yv[w] < z[w]:
                    z[w] = yv[w]
            z += N
    n = amu_reduce(J, T, off_c, a * b, ws, k)
    if n < 0:
        return -1
    memmove(T.vec + off_r, T.vec + off_c, n * N * sizeof(int))
    T.vec_top = off_r + n * N
    return n


cdef long start_product(AmuJob* J, AmuStack* T, const int* ws, int k, const int* total) noexcept nogil:
    """One vector over ws, the neutral start of a product: +INF for a world that picks
    (its least entry), 0 for a world whose total coin weight total[i] is positive
    (total NULL: every world picks)."""
    cdef int* v = push_vec(J, T, 1)
    cdef int i
    if v == NULL:
        return -1
    for i in range(k):
        v[ws[i]] = 0 if total != NULL and total[i] > 0 else INF
    return 1


cdef long opponent_average(AmuJob* J, AmuStack* T, long off, long a, const int* ws, int k,
                           const int* total) noexcept nogil:
    """The coin worlds' weighted sums of the front (a vectors at off) divided by their
    total weights, truncated toward zero as the solver's greedy_chance; the front is
    reduced again (two sums may now be equal). Its size is returned."""
    cdef long N = J.n_worlds, x
    cdef int i
    cdef int* v
    for x in range(a):
        v = T.vec + off + x * N
        for i in range(k):
            if total[i] > 0:
                v[ws[i]] = <int>trunc_div(v[ws[i]], total[i])
    return amu_reduce(J, T, off, a, ws, k)


cdef long amu_decide(SolverCore core, AmuJob* J, AmuStack* T, int* ws, int k, Position* P,
                     int r) noexcept nogil:
    """The seat places: one move for every world of the node; the union of the fronts.
    Every placement of the seat is one of its M decisions, forced or not."""
    cdef uint8_t moves[MAX_MOVES]
    cdef int n = gen_moves(&P[0], moves), j, i
    cdef int r2 = r - 1
    cdef long off = T.vec_top, total = 0, c
    cdef long pos_save = T.pos_top
    cdef Position* C = push_pos(J, T, k)
    cdef int* v
    if C == NULL:
        return -1
    for j in range(n):
        for i in range(k):
            C[i] = P[i]
            place(&C[i], moves[j], NULL)
        if r2 == 0:
            v = push_vec(J, T, 1)
            if v == NULL:
                return -1
            for i in range(k):
                v[ws[i]] = amu_leaf(core, J, T, ws[i], &C[i])
            c = 1
        else:
            c = amu_walk(core, J, T, ws, k, C, r2)
        if c < 0 or J.aborted:
            return -1
        total = amu_reduce(J, T, off, total + c, ws, k)
        if total < 0:
            return -1
    T.pos_top = pos_save
    return total


cdef long amu_seat_draw(SolverCore core, AmuJob* J, AmuStack* T, int* ws, int k, Position* P,
                        int r) noexcept nogil:
    """The seat cannot place and draws: it sees the tile, so the worlds split by it."""
    cdef long off = T.vec_top, a, b
    cdef long pos_save = T.pos_top, idx_save = T.idx_top, pos_mark, idx_mark
    cdef Position* C = push_pos(J, T, k)
    cdef int* tile = push_idx(J, T, k)
    cdef Position* subp
    cdef int* sub
    cdef int i, t, ks
    if C == NULL or tile == NULL:
        return -1
    for i in range(k):
        C[i] = P[i]
        tile[i] = draw_one(&C[i], NULL)
    a = start_product(J, T, ws, k, NULL)
    if a < 0:
        return -1
    pos_mark = T.pos_top
    idx_mark = T.idx_top
    for t in range(N_TILES):
        ks = 0
        for i in range(k):
            ks += tile[i] == t
        if ks == 0:
            continue
        subp = push_pos(J, T, ks)
        sub = push_idx(J, T, ks)
        if subp == NULL or sub == NULL:
            return -1
        ks = 0
        for i in range(k):
            if tile[i] == t:
                subp[ks] = C[i]
                sub[ks] = ws[i]
                ks += 1
        a = amu_fold_child(core, J, T, off, a, ws, k, sub, NULL, ks, subp, r)
        if a < 0:
            return -1
        T.pos_top = pos_mark
        T.idx_top = idx_mark
    T.pos_top = pos_save
    T.idx_top = idx_save
    return a


cdef long amu_opponent(SolverCore core, AmuJob* J, AmuStack* T, int* ws, int k, Position* P,
                       int r) noexcept nogil:
    """The opponent's turn. Its options in a world: a placement from its hand; or,
    unable to place, its forced draws (the world's boneyard order) and then a
    placement of the drawn tile, or a pass, or the round's end by a block. The seat
    sees the number of tiles drawn and the placement: options alike in that are one
    child, over the worlds that have it. In a world where the opponent is read as
    greedy it places for the largest accepted credit and its coin picks among those
    placements, each concrete one alike (the solver's greedy_chance): the world's
    entry is their average, weighted by move_multiplicity. Elsewhere it sees
    everything and picks per world: the least entry."""
    cdef uint8_t moves[MAX_MOVES]
    cdef int credits[MAX_MOVES]
    cdef long off = T.vec_top, a, b
    cdef long pos_save = T.pos_top, idx_save = T.idx_top, pos_mark, idx_mark
    cdef long n_opt = 0, o
    cdef Position c
    cdef Position* O = T.pos + T.pos_top      # the options' positions, pushed one by one
    cdef int* total = push_idx(J, T, k)       # per world (its place in ws): its coin's total weight, 0 if it picks
    cdef int* pairs                           # per option: its world's place in ws, its signature, its coin weight
    cdef Position* subp
    cdef int* sub
    cdef int* wt
    cdef int i, j, n, nd, ks, gap, last, cur
    cdef bint coin = 0
    if total == NULL:
        return -1
    pairs = T.idx + T.idx_top
    for i in range(k):
        total[i] = 0
        c = P[i]
        nd = 0
        while c.status == ST_PLAYING and not can_place(&c) and not boneyard_empty(&c):
            draw_one(&c, NULL)
            nd += 1
        if c.status != ST_PLAYING or not can_place(&c):
            if push_pos(J, T, 1) == NULL or push_idx(J, T, 3) == NULL:
                return -1
            O[n_opt] = c
            pairs[3 * n_opt] = i
            pairs[3 * n_opt + 2] = 0
            if c.status == ST_PLAYING:
                pass_turn(&O[n_opt])
                pairs[3 * n_opt + 1] = nd << 8 | MOVE_PASS
            else:
                pairs[3 * n_opt + 1] = nd << 8 | SIG_ENDED
            n_opt += 1
            continue
        n = gen_moves(&c, moves)
        if (J.greedy[ws[i]] >> c.to_move) & 1:
            # a seat read as greedy (this world's model): its largest accepted credits only
            gap = TARGET - c.score[side_of(&c, c.to_move)]
            for j in range(n):
                credits[j] = accepted_credit(&c, c.ends, moves[j], gap)
            n = keep_greedy(moves, credits, n)
            for j in range(n):
                total[i] += move_multiplicity(&c, moves[j])
            coin = 1
        if push_pos(J, T, n) == NULL or push_idx(J, T, 3 * n) == NULL:
            return -1
        for j in range(n):
            O[n_opt] = c
            place(&O[n_opt], moves[j], NULL)
            pairs[3 * n_opt] = i
            pairs[3 * n_opt + 1] = nd << 8 | moves[j]
            pairs[3 * n_opt + 2] = move_multiplicity(&c, moves[j]) if total[i] > 0 else 0
            n_opt += 1
    a = start_product(J, T, ws, k, total)
    if a < 0:
        return -1
    pos_mark = T.pos_top
    idx_mark = T.idx_top
    last = -1
    while True:
        # the next signature in increasing order (a fixed order of the children)
        cur = -1
        for o in range(n_opt):
            if pairs[3 * o + 1] > last and (cur < 0 or pairs[3 * o + 1] < cur):
                cur = pairs[3 * o + 1]
        if cur < 0:
            break
        last = cur
        ks = 0
        for o in range(n_opt):
            ks += pairs[3 * o + 1] == cur
        subp = push_pos(J, T, ks)
        sub = push_idx(J, T, ks)
        wt = push_idx(J, T, ks)
        if subp == NULL or sub == NULL or wt == NULL:
            return -1
        ks = 0
        for o in range(n_opt):
            if pairs[3 * o + 1] == cur:
                subp[ks] = O[o]
                sub[ks] = ws[pairs[3 * o]]
                wt[ks] = pairs[3 * o + 2]
                ks += 1
        a = amu_fold_child(core, J, T, off, a, ws, k, sub, wt if coin else NULL, ks, subp, r)
        if a < 0:
            return -1
        T.pos_top = pos_mark
        T.idx_top = idx_mark
    if coin:
        a = opponent_average(J, T, off, a, ws, k, total)
    T.pos_top = pos_save
    T.idx_top = idx_save
    return a


cdef long amu_fold_child(SolverCore core, AmuJob* J, AmuStack* T, long off, long a, const int* ws, int k,
                         int* sub, const int* wt, int ks, Position* subp, int r) noexcept nogil:
    """One child of a chance or opponent node (its worlds `sub`, their positions
    `subp`): its front walked and folded into the node's front (a vectors at off).
    The new size is returned, or -1 when the search gave up."""
    cdef long b = amu_walk(core, J, T, sub, ks, subp, r)
    if b < 0 or J.aborted:
        return -1
    return amu_min_product(J, T, off, a, b, ws, k, sub, wt, ks)


cdef long amu_walk(SolverCore core, AmuJob* J, AmuStack* T, int* ws, int k, Position* P,
                   int r) noexcept nogil:
    """The front of a node: the worlds ws (k of them, their positions P) share the
    seat's observable history; r of the seat's decisions are left to choose jointly
    (r >= 1). The front is pushed on the vector pool; its size is returned, or -1
    when the search gave up (deadline or full pools)."""
    cdef long pos_save, off = T.vec_top, n
    cdef Position* C
    cdef int* v
    cdef int i
    cdef Position* p0 = &P[0]
    if J.aborted or J.overflow:
        return -1
    if p0.status != ST_PLAYING or k == 1:
        # the round's end; or a single world, where nothing is left to fuse: the
        # seat's later choices may as well be that world's, the solver's value
        v = push_vec(J, T, 1)
        if v == NULL:
            return -1
        for i in range(k):
            v[ws[i]] = amu_leaf(core, J, T, ws[i], &P[i])
        return 1
    if p0.to_move != J.observer:
        return amu_opponent(core, J, T, ws, k, P, r)
    if can_place(p0):
        return amu_decide(core, J, T, ws, k, P, r)
    if not boneyard_empty(p0):
        return amu_seat_draw(core, J, T, ws, k, P, r)
    # the seat passes, in every world alike
    pos_save = T.pos_top
    C = push_pos(J, T, k)
    if C == NULL:
        return -1
    for i in range(k):
        C[i] = P[i]
        pass_turn(&C[i])
    n = amu_walk(core, J, T, ws, k, C, r)
    T.pos_top = pos_save
    return n


cdef void search_root_move(SolverCore core, AmuJob* J, AmuStack* T, int m) noexcept nogil:
    """Root move m searched, then marked finished. A search following another waits
    first for that one's move m (taken by a thread that does not wait itself: the
    followed search's moves are all taken before a follower's work starts)."""
    if J.follow != NULL:
        while not fiveup_amu_load_finished(&J.follow.finished[m]):
            if J.follow.aborted or J.follow.overflow:
                break
            sched_yield()
        if J.follow.aborted or J.follow.overflow:
            J.aborted = 1           # the followed search gave up: so does this one
            fiveup_amu_store_finished(&J.finished[m])
            return
    search_one_root_move(core, J, T, m)
    fiveup_amu_store_finished(&J.finished[m])


cdef void search_one_root_move(SolverCore core, AmuJob* J, AmuStack* T, int m) noexcept nogil:
    """Root move m's front over every world; its best vector and mean into the job."""
    cdef long N = J.n_worlds, n, c, best = 0
    cdef int w
    cdef Position* C
    cdef int* ws
    cdef int* v
    cdef double total = 0.0, mean, best_mean = 0.0
    T.pos_top = T.idx_top = T.vec_top = 0
    T.leaves = T.nodes = 0
    T.move = m
    J.record_len[m] = 0
    C = push_pos(J, T, N)
    ws = push_idx(J, T, N)
    if C == NULL or ws == NULL:
        return
    for w in range(N):
        ws[w] = w
        C[w] = J.roots[w]
        place(&C[w], J.moves[m], NULL)
        total += J.weights[w]
    if J.depth == 0:
        v = push_vec(J, T, 1)
        if v == NULL:
            return
        for w in range(N):
            v[w] = amu_leaf(core, J, T, w, &C[w])
        n = 1
    else:
        n = amu_walk(core, J, T, ws, N, C, J.depth)
    if n <= 0 or J.aborted or J.overflow:
        return
    v = T.vec + T.vec_top - n * N
    for c in range(n):
        mean = 0.0
        for w in range(N):
            mean += J.weights[w] * v[c * N + w]
        mean /= total
        if c == 0 or mean > best_mean:
            best_mean = mean
            best = c
    memcpy(J.best + m * N, v + best * N, N * sizeof(int))
    J.value[m] = best_mean
    J.front_size[m] = <int>n
    J.leaves[m] = T.leaves
    J.nodes[m] = T.nodes
    J.done[m] = 1


cdef bint is_weight(object x):
    """A world's weight: a positive finite number (not a bool, not a string) below 1e300."""
    return isinstance(x, (int, float)) and not isinstance(x, bool) and 0.0 < x < 1e300


cdef class AlphaMuSearch:
    """One alphamu computation: the worlds, the root moves, the depth and the results."""
    cdef AmuJob job
    cdef object followed       # the AlphaMuSearch whose leaf horizons this one follows (kept alive)
    cdef bint started          # __init__ was called (once only: a second would leave stale arrays)
    cdef bint ready            # __init__ returned: every array is allocated and filled

    def __cinit__(self):
        self.job.roots = NULL
        self.job.greedy = NULL
        self.job.weights = NULL
        self.job.shares = NULL
        self.job.best = NULL
        self.job.value = NULL
        self.job.front_size = NULL
        self.job.leaves = NULL
        self.job.nodes = NULL
        self.job.done = NULL
        self.job.leaf_record = NULL
        self.job.record_len = NULL
        self.job.record_cap = NULL
        self.job.follow = NULL
        self.job.finished = NULL
        self.job.n_moves = 0

    def __init__(self, base, moves, worlds, weights, depth_, front_cap_, leaf_nodes_,
                 seconds_, shares=None, follow=None):
        """`base`: the position, 2 players, its mover (the observer) able to place.
        `moves`: distinct canonical root moves. `worlds`: a list of (hands, boneyard,
        greedy seats mask): hand masks per seat (the mover's entry is ignored: its own),
        boneyard tiles in draw order, the opponent seats searched as greedy there.
        `weights`: None (equal) or one positive number per world. `seconds_`: 0 for
        no deadline; else the search gives up (``aborted``) when the time is up.
        `shares`: None (1 each) or per world the sampled draws it stands for, 1 to
        2**20: its leaves' budget is leaf_nodes times that. `follow`: None, or a search of
        the same position, moves, worlds (weights aside), depth and leaf budget under the
        other currency: each leaf is searched to the horizon that search reached there
        (see amu_leaf), as a hint's second currency follows its first. Its work is
        started first (every root move of it taken); this one's threads may start on a
        root move as soon as that search has finished it.

        An AlphaMuSearch is initialised once: __init__ again is a CoreError, and a search
        whose __init__ was not called or raised refuses every method."""
        if self.started:
            raise CoreError("an AlphaMuSearch is initialised once: make a new one")
        self.started = True
        cdef Position* p = &checked_round(base, "base").top().pos
        cdef AmuJob* J = &self.job
        cdef uint8_t legal[MAX_MOVES]
        cdef int n_legal, i, s, b
        cdef long w
        cdef uint32_t seen, m
        cdef double seconds
        if p.players != 2:
            raise CoreError(f"alphamu searches 2 players, not {p.players}")
        if p.status != ST_PLAYING or not can_place(p):
            raise CoreError("the position has no placement to search (the round is over, or the seat must "
                            "draw or pass)")
        J.depth = checked_int(depth_, 0, AMU_MAX_DEPTH, "depth")
        J.front_cap = checked_int(front_cap_, 1, AMU_MAX_FRONT, "front_cap")
        J.leaf_nodes = checked_u64(leaf_nodes_, "leaf_nodes")
        if isinstance(seconds_, bool) or not isinstance(seconds_, (int, float)) or not 0.0 <= seconds_ <= 1e7:
            raise CoreError(f"seconds must be a number from 0 to 1e7, not {seconds_!r}"[:200])
        seconds = seconds_
        try:
            moves = list(moves)
            worlds = list(worlds)
            weights = None if weights is None else list(weights)
        except TypeError:
            raise CoreError("moves and worlds must be lists, weights a list of numbers") from None
        n_legal = gen_moves(p, legal)
        if not 1 <= len(moves) <= n_legal or not all(
                type(x) is int and any(x == legal[i] for i in range(n_legal)) for x in moves) \
                or len(set(moves)) != len(moves):
            raise CoreError(f"root moves must be distinct canonical moves of the position, not {moves!r}"[:200])
        if not 1 <= len(worlds) <= AMU_MAX_WORLDS:
            raise CoreError(f"alphamu searches 1 to {AMU_MAX_WORLDS} worlds, not {len(worlds)}")
        if weights is not None and (len(weights) != len(worlds) or not all(is_weight(x) for x in weights)):
            raise CoreError("weights must be one positive number per world (below 1e300)")
        if weights is not None:
            weights = [float(x) for x in weights]
        if shares is not None:
            try:
                shares = list(shares)
            except TypeError:
                raise CoreError("shares must be a list of whole numbers") from None
            if len(shares) != len(worlds):
                raise CoreError(f"shares must be one number per world ({len(worlds)}), not {len(shares)}")
            shares = [checked_int(x, 1, 1 << 20, "a world's share") for x in shares]
        J.n_worlds = len(worlds)
        J.n_moves = len(moves)
        J.observer = p.to_move
        for i in range(J.n_moves):
            J.moves[i] = moves[i]
        J.deadline = now_seconds() + seconds if seconds > 0 else 0.0
        J.next_move = 0
        J.aborted = 0
        J.overflow = 0
        J.roots = <Position*>malloc(J.n_worlds * sizeof(Position))
        J.greedy = <uint8_t*>malloc(J.n_worlds + 8)
        J.weights = <double*>malloc(J.n_worlds * sizeof(double))
        J.shares = <uint32_t*>malloc(J.n_worlds * sizeof(uint32_t))
        J.best = <int*>malloc(J.n_moves * J.n_worlds * sizeof(int))
        J.value = <double*>malloc(J.n_moves * sizeof(double))
        J.front_size = <int*>malloc(J.n_moves * sizeof(int))
        J.leaves = <uint64_t*>malloc(J.n_moves * sizeof(uint64_t))
        J.nodes = <uint64_t*>malloc(J.n_moves * sizeof(uint64_t))
        J.done = <uint8_t*>malloc(J.n_moves + 8)
        J.leaf_record = <uint8_t**>calloc(J.n_moves, sizeof(uint8_t*))     # NULLs: freed safely
        J.record_len = <long*>malloc(J.n_moves * sizeof(long))
        J.record_cap = <long*>malloc(J.n_moves * sizeof(long))
        J.finished = <uint8_t*>malloc(J.n_moves + 8)
        if not (J.roots and J.greedy and J.weights and J.shares and J.best and J.value and J.front_size and J.leaves
                and J.nodes and J.done and J.leaf_record and J.record_len and J.record_cap and J.finished):
            raise MemoryError()
        for i in range(J.n_moves):
            J.done[i] = 0
            J.finished[i] = 0
            J.record_len[i] = J.record_cap[i] = 0
        b = p.bone_len - p.bone_next
        for w in range(J.n_worlds):
            try:
                hands, bone, greedy = worlds[w]
                hands, bone = list(hands), list(bone)
            except (TypeError, ValueError):
                raise CoreError("each world is (hands, boneyard, greedy seats mask)") from None
            m = <uint32_t>checked_int(greedy, 0, 3, "a greedy seats mask")
            if (m >> J.observer) & 1:
                raise CoreError("a world's greedy seats must be seats other than the observer")
            J.greedy[w] = m
            J.weights[w] = 1.0 if weights is None else weights[w]
            J.shares[w] = 1 if shares is None else shares[w]
            J.roots[w] = p[0]
            # the observer's own hand is kept (its entry is ignored)
            read_world(p, hands, bone, <uint32_t>1 << J.observer, J.roots[w].hand,
                       &J.roots[w].boneyard[p.bone_next])
        if follow is not None:
            self._follow(follow)
        self.ready = True

    cdef int check_ready(self) except -1:
        if not self.ready:
            raise CoreError("this AlphaMuSearch is not initialised (its __init__ was not called, or it failed)")
        return 0

    cdef _follow(self, follow):
        """Check that `follow` walks the same tree as this search, then follow it."""
        cdef AmuJob* J = &self.job
        cdef AmuJob* F
        cdef AlphaMuSearch other
        if not isinstance(follow, AlphaMuSearch):
            raise CoreError(f"follow must be an AlphaMuSearch, not {type(follow).__name__}")
        other = <AlphaMuSearch>follow
        F = &other.job
        if other is self or not other.ready:
            raise CoreError("follow must be another, initialised AlphaMuSearch")
        if (F.n_worlds != J.n_worlds or F.n_moves != J.n_moves or F.depth != J.depth or F.observer != J.observer
                or F.leaf_nodes != J.leaf_nodes or memcmp(F.moves, J.moves, J.n_moves) != 0
                or memcmp(F.roots, J.roots, J.n_worlds * sizeof(Position)) != 0
                or memcmp(F.greedy, J.greedy, J.n_worlds) != 0
                or memcmp(F.shares, J.shares, J.n_worlds * sizeof(uint32_t)) != 0):
            raise CoreError("follow must be a search of the same position, root moves, worlds, depth and "
                            "leaf budget")
        J.follow = F
        self.followed = other

    def __dealloc__(self):
        cdef int i
        free(self.job.roots)
        free(self.job.greedy)
        free(self.job.weights)
        free(self.job.shares)
        free(self.job.best)
        free(self.job.value)
        free(self.job.front_size)
        free(self.job.leaves)
        free(self.job.nodes)
        free(self.job.done)
        if self.job.leaf_record != NULL:
            for i in range(self.job.n_moves):
                free(self.job.leaf_record[i])
        free(self.job.leaf_record)
        free(self.job.record_len)
        free(self.job.record_cap)
        free(self.job.finished)

    def work(self, core_):
        """Search root moves until none is left (call from any thread, one core each)."""
        cdef SolverCore core = checked_core(core_)
        with core.claimed():      # one search at a time on a core (SolverCore.claim)
            return self._work(core)

    cdef object _work(self, SolverCore core):
        """work, with the core claimed."""
        cdef AmuJob* J = &self.job
        cdef AmuStack T
        cdef long m
        self.check_ready()
        core.check_players(2)
        if (J.follow != NULL and fiveup_amu_taken(&J.follow.next_move) < J.follow.n_moves
                and not (J.follow.aborted or J.follow.overflow)):
            # its root moves not all taken yet: waiting on them could wait forever
            raise CoreError("work the followed search first (every root move of it taken)")
        T.pos_cap = POS_POOL
        T.idx_cap = IDX_POOL
        T.vec_cap = VEC_POOL
        T.keys_cap = <long>AMU_MAX_FRONT * AMU_MAX_FRONT + 2 * AMU_MAX_FRONT
        T.pos = <Position*>malloc(T.pos_cap * sizeof(Position))
        T.idx = <int*>malloc(T.idx_cap * sizeof(int))
        T.vec = <int*>malloc(T.vec_cap * sizeof(int))
        T.keys = <AmuKey*>malloc(T.keys_cap * sizeof(AmuKey))
        T.kept = <int*>malloc(T.keys_cap * sizeof(int))
        try:
            if not (T.pos and T.idx and T.vec and T.keys and T.kept):
                raise MemoryError()
            with nogil:
                while True:
                    m = fiveup_amu_next(&J.next_move)
                    if m >= J.n_moves:
                        break
                    if J.aborted or J.overflow:
                        # taken, not searched: finished all the same (a follower waits on it)
                        fiveup_amu_store_finished(&J.finished[m])
                        break
                    search_root_move(core, J, &T, <int>m)
        finally:
            free(T.pos)
            free(T.idx)
            free(T.vec)
            free(T.keys)
            free(T.kept)
        return None

    def stop(self):
        """Give the search up, as at its deadline (``aborted``): every thread working on it
        stops at its next leaf or root move."""
        self.job.aborted = 1

    def results(self):
        """(complete, [(value, front size, leaves, nodes, [best vector per world])] per root move).
        complete is False when the deadline passed or the pools were too small."""
        cdef AmuJob* J = &self.job
        cdef int i, w
        self.check_ready()
        complete = not J.aborted and not J.overflow and all(J.done[i] for i in range(J.n_moves))
        out = []
        for i in range(J.n_moves):
            if not J.done[i]:
                out.append(None)
                continue
            out.append((J.value[i], J.front_size[i], J.leaves[i], J.nodes[i],
                        [J.best[i * J.n_worlds + w] for w in range(J.n_worlds)]))
        return complete, out

    def leaf_horizons(self, move_index):
        """Root move `move_index`'s leaves in walk order, each (status, depth): 1, the
        budget cut its search at that pass; 2, solved at that pass; 0, the round's end."""
        cdef AmuJob* J = &self.job
        self.check_ready()
        cdef int m = checked_int(move_index, 0, J.n_moves - 1, "move_index")
        cdef long i
        return [(J.leaf_record[m][2 * i], J.leaf_record[m][2 * i + 1]) for i in range(J.record_len[m])]

    @property
    def following(self):
        """The search whose leaf horizons this one follows (None: none)."""
        return self.followed

    @property
    def overflow(self):
        return bool(self.job.overflow)
