# cython: language_level=3
"""Perfect-information solver: negamax alpha-beta over canonical moves.

Value of a position, for the team of the seat to move: the raw points its
team gains from accepted events until the round ends minus the other team's,
or +-WIN when an accepted event reaches exactly 305 (instead of any points).
Teams: the two sides with 2 or 4 players; with 3 players the search is
*paranoid* by default: the root seat against the other two together. Or
max^n (``SolverCore.set_search(1)``, the end of this file): every side
maximises its own entry of a value vector, with shallow pruning and exact
vectors in the same table.

Forced draws and passes are resolved inline (``resolve_turn``); every node
is a seat that can place. A transposition table (4-way buckets keyed by a
64-bit hash of the compact position, the remaining boneyard order, the
scores and the seat to move) keeps lower/upper bounds and the best move.
"""
cimport cython
from libc.stdlib cimport calloc, malloc, free
import array

from fiveup_solver.errors import CoreError, SearchStopped
from libc.string cimport memset, memcpy
from libc.stdint cimport uint8_t, int16_t, uint16_t, uint32_t, uint64_t
from fiveup_solver._rules cimport *
from fiveup_solver._core cimport CoreRound, checked_round

# the objectives, for Python callers
POINTS = OBJ_POINTS
WIN_OBJECTIVE = OBJ_WIN
WIN_VALUE = WIN


cdef extern from *:
    """
    #include <sys/mman.h>
    /* The table in 2 MB-aligned memory, advised onto huge pages where the kernel
       allows it: random probes then miss the TLB far less. Mapped for itself and unmapped
       when freed (fiveup_free_table): from malloc's arenas, freed tables stayed resident in
       a process making Solvers and Hinters in several threads (an embedder's review: 590 MB
       resident for 111 MB live). */
    static void* fiveup_alloc_table(size_t bytes) {
        size_t align = (size_t)2 << 20, span = bytes + align;
        char* raw = (char*)mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        char* p;
        size_t head, tail;
        if (raw == (char*)MAP_FAILED) return NULL;
        p = (char*)(((size_t)raw + align - 1) & ~(align - 1));
        head = (size_t)(p - raw);
        tail = span - head - bytes;
        if (head) munmap(raw, head);
        if (tail) munmap(p + bytes, tail);
    #ifdef MADV_HUGEPAGE
        madvise(p, bytes, MADV_HUGEPAGE);
    #endif
        memset(p, 0, bytes);    /* touched now, as before: the table's memory is taken at once */
        return p;
    }
    static void fiveup_free_table(void* p, size_t bytes) {
        if (p != NULL) munmap(p, bytes);
    }
    static inline void fiveup_prefetch(const void* p) { __builtin_prefetch(p); }
    """
    void fiveup_prefetch(const void* p) noexcept nogil
    void* fiveup_alloc_table(size_t nbytes) noexcept nogil
    void fiveup_free_table(void* p, size_t nbytes) noexcept nogil


cdef extern from *:
    """
    #include <pthread.h>
    typedef struct { pthread_t id; } fiveup_thread;
    static int fiveup_thread_start(fiveup_thread* t, void* (*fn)(void*), void* arg) {
        return pthread_create(&t->id, NULL, fn, arg);
    }
    static void fiveup_thread_join(fiveup_thread* t) { pthread_join(t->id, NULL); }
    """
    ctypedef struct fiveup_thread:
        pass
    int fiveup_thread_start(fiveup_thread* t, void* (*fn)(void*) noexcept nogil, void* arg) noexcept nogil
    void fiveup_thread_join(fiveup_thread* t) noexcept nogil


cdef uint64_t WIN_KEY = <uint64_t>0x9FB21C651E98DF25     # mixed into a win-objective key


cdef inline uint64_t points_key(uint64_t win_key) noexcept nogil:
    """The points-objective key of the position whose win-objective key is win_key
    (position_hash: (h ^ WIN_KEY) | 1 against h | 1)."""
    return (win_key ^ WIN_KEY) | 1


cdef inline uint64_t position_hash(const SolverCtx* S, const Position* p, int ply) noexcept nogil:
    cdef uint64_t board = 0
    cdef int v
    for v in range(7):
        board = (board << 8) | (<uint64_t>p.open_ends[v] << 3) | p.double_state[v]
    cdef uint64_t h = mix64(board ^ <uint64_t>0x9E3779B97F4A7C15)
    h ^= mix64((<uint64_t>p.hand[0] | (<uint64_t>p.hand[1] << 32)) + <uint64_t>0x632BE59BD9B4E019)
    h ^= mix64((<uint64_t>p.hand[2] | (<uint64_t>p.hand[3] << 32)) + <uint64_t>0x8CB92BA72F3D8DD7)
    h ^= mix64((<uint64_t><uint16_t>p.score[0] | (<uint64_t><uint16_t>p.score[1] << 16)
                | (<uint64_t><uint16_t>p.score[2] << 32) | (<uint64_t>p.to_move << 48)
                | (<uint64_t>p.starter << 52) | (<uint64_t>p.players << 56)
                | (<uint64_t>S.side_team[0] << 60) | (<uint64_t>S.side_team[1] << 61)
                | (<uint64_t>S.side_team[2] << 62)) + <uint64_t>0xD6E8FEB86659FD93)
    # the scores' high bits (0 for a score that fits 16 bits: the same keys as before for
    # those): a table kept between solves holds positions whose scores differ by 65,536
    # or more (a review: [290, 0] and [290 - 327,680, 0] shared their entries)
    cdef uint64_t high = ((<uint64_t>(<uint32_t>(p.score[0] - <int16_t>p.score[0]) >> 16))
                          | (<uint64_t>(<uint32_t>(p.score[1] - <int16_t>p.score[1]) >> 16) << 16)
                          | (<uint64_t>(<uint32_t>(p.score[2] - <int16_t>p.score[2]) >> 16) << 32))
    # (times an odd constant: one-to-one, and 0 for scores within 16 bits, so no branch)
    h ^= high * <uint64_t>0x9E3779B97F4A7C15
    h ^= S.bone_hash[p.bone_next] ^ S.salt
    if S.objective == OBJ_WIN:
        h ^= WIN_KEY      # the same position has other values under another objective
    if S.greedy_seats:
        # the same position has other values when some seats are searched as greedy
        h ^= mix64(<uint64_t>S.greedy_seats + <uint64_t>0x2D358DCCAA6C78A5)
    if S.max_ply < MAX_PLY:
        # a depth-limited value belongs to its remaining depth
        h ^= mix64(<uint64_t>(S.max_ply - ply) + <uint64_t>0xA0761D6478BD642F)
    return h | 1   # 0 marks an empty slot


cdef inline int team_of(const SolverCtx* S, const Position* p, int seat) noexcept nogil:
    return S.side_team[side_of(p, seat)]


cdef inline int rel_score(const SolverCtx* S, const Position* p, int team) noexcept nogil:
    """Team's raw scores minus the other team's (0 under the win objective, whose
    values are not sums of gains but read off the equity table at the round's end)."""
    cdef int s, r = 0
    if S.objective == OBJ_WIN:
        return 0
    if side_count(p) == 2:
        # two sides (2 or 4 players): one is the team, the other is not (set_root_side);
        # negated without a branch when side 0 is not the team
        r = p.score[0] - p.score[1]
        s = S.side_team[0] != team
        return (r ^ -s) + s
    for s in range(side_count(p)):
        if S.side_team[s] == team:
            r += p.score[s]
        else:
            r -= p.score[s]
    return r


cdef inline int max_nonwin_gain(const Position* p, int side) noexcept nogil:
    """Most a side can gain without reaching 305: its score stays below 305 and
    moves in steps of 5 (every event is a multiple of 5)."""
    cdef int gap = TARGET - p.score[side]
    return gap - 5 if gap % 5 == 0 else gap - 1


cdef enum:
    ALL_PIPS = 168     # pips of the whole double-six set


cdef inline int min_gain(const Position* p) noexcept nogil:
    """Least a side can gain: only a 4-player hand-emptying event can be negative
    (minus the partner's remaining pips, rounded): bounded by all pips off the board."""
    cdef int s
    if p.players != 4:
        return 0
    return -round_to_5(ALL_PIPS - mask_pips(p.board))


cdef inline uint64_t tt_data(const TTEntry* e) noexcept nogil:
    """The entry's 8 bytes after its key word, as one integer."""
    cdef uint64_t d
    memcpy(&d, (<const char*>e) + 8, 8)
    return d


# Every entry's key word holds key ^ data (its other 8 bytes): helper threads
# (Lazy SMP) share the table without locks, and an entry torn by two writers
# fails the check instead of giving one position another's bounds. An empty
# slot is all zeros: key 0 (real keys are odd).

cdef inline bint tt_probe(SolverCtx* S, uint64_t key, TTEntry* out) noexcept nogil:
    """Copy key's entry to out (its key field decoded); whether there is one."""
    cdef TTEntry* b = &S.table[key & S.mask & ~(<uint64_t>3)]
    cdef int i
    for i in range(4):
        if (b[i].key ^ tt_data(&b[i])) == key:
            # the copy is checked again: another thread may have rewritten the slot since
            out[0] = b[i]
            if (out.key ^ tt_data(out)) != key:
                return False
            out.key = key
            return True
    return False


cdef inline void tt_store(SolverCtx* S, uint64_t key, int lower, int upper, int move, uint64_t work) noexcept nogil:
    cdef TTEntry* b = &S.table[key & S.mask & ~(<uint64_t>3)]
    cdef TTEntry* e = NULL
    cdef TTEntry t
    cdef int i, w = 0, score, worst = 1 << 30
    cdef uint64_t k, ek = 0
    while work > 1:
        work >>= 1
        w += 1
    for i in range(4):
        if (b[i].key ^ tt_data(&b[i])) == key:
            e = &b[i]
            break
    if e == NULL:
        for i in range(4):
            k = b[i].key ^ tt_data(&b[i])
            score = 0 if k == 0 else (b[i].work + (64 if b[i].generation == S.generation else 0))
            # ties go by key, not by slot: what is evicted never depends on where
            # older searches left their entries (hint searches stay deterministic)
            if score < worst or (score == worst and k < ek):
                worst = score
                e = &b[i]
                ek = k
    t.lower = lower
    t.upper = upper
    t.move = move
    t.generation = S.generation
    t.work = w
    t.key = key ^ tt_data(&t)
    e[0] = t


cdef void set_root(SolverCtx* S, const Position* p) noexcept nogil:
    """Teams for a search from p (the mover's side is team 0), and the hash of p's
    remaining boneyard order."""
    set_root_side(S, p, side_of(p, p.to_move))


cdef void set_root_side(SolverCtx* S, const Position* p, int root_side) noexcept nogil:
    """set_root with team 0 the side `root_side` (a position valued for an observer
    who is not to move; with 3 players: that side against the other two)."""
    cdef int s, k
    # measured on the opening suites: 8 tiles with 2 players, 14 with 4
    S.tt_skip_tiles = S.tt_min_tiles if S.tt_min_tiles >= 0 else 2 + 3 * p.players
    for s in range(4):
        S.side_team[s] = 0 if s == root_side else 1
    S.root_side = root_side
    S.greedy_seats = 0
    S.maxn = S.search_maxn and p.players == 3
    mx_params(S)
    S.bone_hash[p.bone_len] = <uint64_t>0x5851F42D4C957F2D
    k = p.bone_len - 1
    while k >= 0:
        S.bone_hash[k] = mix64(S.bone_hash[k + 1] * <uint64_t>31 + p.boneyard[k] + 1 + (<uint64_t>k << 8))
        k -= 1
    for k in range(p.bone_len + 1, 29):
        S.bone_hash[k] = 0


cdef enum:
    MTD_STEP = 5       # the first larger MTD(f) step (win objective, see mtdf)
    GUESS_PLIES = 6    # depth of the search that gives MTD(f) its first guess (first_guess)


cdef inline int clampi(int x, int lo, int hi) noexcept nogil:
    return lo if x < lo else (hi if x > hi else x)


cdef inline int child_value(int same_team, int r, int gain) noexcept nogil:
    """Value for the parent of a child worth r to its own mover, after an immediate gain."""
    if not same_team:
        r = -r
    if r >= WIN:
        return WIN
    if r <= -WIN:
        return -WIN
    # a value that is no win stays one: an average over a greedy seat's coin that mixes
    # wins with points, plus a gain, must not become a forced win (no other value comes near)
    return clampi(r + gain, -(WIN - 1), WIN - 1)


cdef inline void insert_by_key(int* order, const int* keys, int i) noexcept nogil:
    """Insert move i into order[0..i), keeping the largest key first."""
    cdef int j = i
    while j > 0 and keys[order[j - 1]] < keys[i]:
        order[j] = order[j - 1]
        j -= 1
    order[j] = i


# The searches' move order is stable, largest key first (the order insert_by_key builds
# move by move). Most nodes that cut do so on their first move: the first is found while
# the keys are computed, the next ones only when needed (next_by_key).

cdef inline int next_by_key(int* keys, int n, int done) noexcept nogil:
    """The move after `done` in the order: `done`'s key is spent (-1; keys are >= 0),
    then the largest key left, the first move of equal ones. A scan without a branch
    on the keys: nodes have few moves, and an insertion sort's branches mispredict."""
    cdef int j, b = 0
    keys[done] = -1
    for j in range(1, n):
        b = j if keys[j] > keys[b] else b
    return b


cdef inline bint in_endgame(const SolverCtx* S, const Position* p) noexcept nogil:
    """Boneyard empty and few tiles left: the lean endgame path takes over."""
    return (p.bone_next >= p.bone_len
            and fiveup_popcount(p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]) <= S.tt_skip_tiles)


cdef inline bint uses_table(const SolverCtx* S, const Position* p) noexcept nogil:
    """Does search() ask the table at p? Not near the end (tt_skip_tiles)."""
    return S.use_tt and fiveup_popcount(p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]) > S.tt_skip_tiles


cdef inline bint entered(SolverCtx* S, const Position* p, int* alpha, int* beta, int ply, int* value) noexcept nogil:
    """A search node's entry: count it (enter_node) and keep its window inside
    [-WIN, WIN] and non-empty. False when it is not searched: `value` is then what
    it returns (0 when the node limit stopped the search, the horizon's estimate
    where a depth limit cuts it)."""
    cdef int x = enter_node(S, ply)
    if x != NODE_GO:
        value[0] = 0 if x == NODE_ABORTED else cut_value(S, p)
        return False
    alpha[0] = clampi(alpha[0], -WIN, WIN - 1)
    beta[0] = clampi(beta[0], alpha[0] + 1, WIN)
    return True


cdef inline bint gap_bounds_apply(const SolverCtx* S) noexcept nogil:
    """Exact-target bounds: unless a team reaches 305, each side gains at most up to
    its gap (credits above it are rejected) and at least min_gain. Only in hint
    worlds, where they also keep horizon estimates (cut_value) inside what the round
    allows, so they are part of a budgeted world's value. An exact solve skips them:
    measured on every suite they never saved a node there and cost time at every node
    (issue 24). Not with seats read as greedy: their averages mix wins with points,
    which these bounds exclude."""
    return S.use_pruning and S.objective == OBJ_POINTS and not S.solver_call and not S.greedy_seats


cdef inline int gap_mode(const SolverCtx* S, const Position* p, int team, int* alpha, int* beta,
                         int* lb, int* ub) noexcept nogil:
    """The exact-target bounds of p for `team` into lb and ub, and the search they leave:
    0 as it was; 1 when no non-win line can beat alpha (the window becomes "can the team
    win?"); 2 when every non-losing line reaches beta ("must the team lose?")."""
    cdef int s, x = min_gain(p)
    ub[0] = 0
    lb[0] = 0
    for s in range(side_count(p)):
        if S.side_team[s] == team:
            ub[0] += max_nonwin_gain(p, s)
            lb[0] += x
        else:
            ub[0] -= x
            lb[0] -= max_nonwin_gain(p, s)
    if alpha[0] >= ub[0]:
        alpha[0] = WIN - 1
        beta[0] = WIN
        return 1
    if beta[0] <= lb[0]:
        alpha[0] = -WIN
        beta[0] = -(WIN - 1)
        return 2
    return 0


cdef inline int order_key(const SolverCtx* S, uint8_t move, int credit) noexcept nogil:
    """search()'s move order below the table move: immediate accepted credit, then history."""
    cdef int key = (credit << 20) + S.history[move]
    if S.order_seed:
        # a helper thread's own order among moves of equal credit and history
        key += <int>((move * <uint32_t>0x9E3779B1 + S.order_seed) >> 26)
    return key


cdef inline void credit_cutoff(SolverCtx* S, const Position* p, uint8_t move) noexcept nogil:
    """search()'s history: a move that cut counts more the more tiles are left."""
    S.history[move] += 1 + fiveup_popcount(p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3])
    if S.history[move] >= S.history_cap:
        age_history(S)


cdef int last_tile_search(SolverCtx* S, const Position* p, int alpha, int beta, int ply, bint endgame) noexcept nogil:
    """search() (or endgame_search(), `endgame`) of a position whose mover holds one tile
    and can place it, where neither the table nor a greedy coin is asked: every move
    ends the round (domino_value). The same node as theirs, counted, ordered, cut and
    remembered (history) alike, with the same fail-soft value, without their general
    machinery: 45 % of the nodes of the 4-player solver suites are such leaves."""
    cdef uint8_t moves[MAX_MOVES]
    cdef int keys[MAX_MOVES]
    cdef int n, i, k, team, v, s0, gap, bonus, first, best = -INF, mode = 0, ub = INF, lb = -INF
    if not entered(S, p, &alpha, &beta, ply, &v):
        return v
    team = team_of(S, p, p.to_move)
    n = gen_moves(p, moves)
    s0 = end_sum(p)
    gap = TARGET - p.score[side_of(p, p.to_move)]
    first = 0
    for i in range(n):
        # (an exact 305 with the last tile is no early cutoff: the hand's event is P + O - D)
        keys[i] = accepted_credit(p, s0, moves[i], gap)
        if not endgame:
            keys[i] = order_key(S, moves[i], keys[i])
        first = i if keys[i] > keys[first] else first
    if not endgame and gap_bounds_apply(S):
        mode = gap_mode(S, p, team, &alpha, &beta, &lb, &ub)
    bonus = domino_bonus(p, p.to_move)
    i = first
    for k in range(n):
        if k:
            i = next_by_key(keys, n, i)
        v = domino_value(S, p, moves[i], team, bonus)
        if v > best:
            best = v
        if best > alpha:
            alpha = best
        if alpha >= beta:
            if not endgame:
                credit_cutoff(S, p, moves[i])
            break
    if mode == 1 and best < WIN and best > ub:
        best = ub       # no win: the value is a non-win one, so at most ub
    elif mode == 2 and best > -WIN and best < lb:
        best = lb       # no forced loss: the value is a non-loss one, so at least lb
    return best


cdef inline int node_search(SolverCtx* S, const Position* c, int alpha, int beta, int ply) noexcept nogil:
    """The search of a resolved position that is still being played: endgame_search near
    the end, search elsewhere, last_tile_search for a mover's last tile where it is theirs."""
    cdef bint endgame = in_endgame(S, c)
    if (S.lean_leaves and fiveup_popcount(c.hand[c.to_move]) == 1 and not ((S.greedy_seats >> c.to_move) & 1)
            and (endgame or not uses_table(S, c))):
        return last_tile_search(S, c, alpha, beta, ply, endgame)
    return endgame_search(S, c, alpha, beta, ply) if endgame else search(S, c, alpha, beta, ply)


cdef inline int child_search(SolverCtx* S, Position* c, int team, int base, int alpha, int beta, int ply) noexcept nogil:
    """Value, for the parent's team, of the resolved child c reached from a parent
    whose relative score was base; the window (alpha, beta) is the parent's."""
    cdef int g, a_c, b_c, r, v
    if c.status == ST_WON:
        return WIN if team_of(S, c, c.end_seat) == team else -WIN
    g = rel_score(S, c, team) - base
    if c.status != ST_PLAYING:
        return ended_value(S, c, team, g)
    if team_of(S, c, c.to_move) == team:
        # the child's window is the parent's mapped through v = r + g (wins absorb):
        # fail-high/low of the child must stay fail-high/low here
        a_c = clampi(alpha - g, -WIN, WIN - 1)
        b_c = clampi(beta - g, -(WIN - 1), WIN)
        r = node_search(S, c, a_c, b_c, ply + 1)
        v = child_value(1, r, g)
        if r >= b_c and v < beta:
            v = beta
        elif r <= a_c and v > alpha:
            v = alpha
    else:
        # v = g - r: the window flips
        a_c = clampi(g - beta, -WIN, WIN - 1)
        b_c = clampi(g - alpha, -(WIN - 1), WIN)
        r = node_search(S, c, a_c, b_c, ply + 1)
        v = child_value(0, r, g)
        if r <= a_c and v < beta:
            v = beta
        elif r >= b_c and v > alpha:
            v = alpha
    return v


cdef inline int move_value(SolverCtx* S, const Position* p, uint8_t move, int es, Position* c, int team,
                           int base, int alpha, int beta, int ply) noexcept nogil:
    """Play `move` from p into the child slot c (forced draws and passes included)
    and value it for the parent's team within the parent's window; es: the end sum
    after the move (end_sum_after)."""
    c[0] = p[0]
    place_at(c, move, es, NULL)
    resolve_turn(c)
    return child_search(S, c, team, base, alpha, beta, ply)


cdef inline int domino_value(const SolverCtx* S, const Position* p, uint8_t move, int team, int bonus) noexcept nogil:
    """move_value of a placement of the mover's last tile, without playing it out: the
    round ends with that one event (RULES §6.3: P + O - D, `bonus` = domino_bonus, the
    same for every placement; accepted or rejected whole against 305), valued as
    child_search values the ended child. A third of all placements in the 4-player
    solver suites empty a hand; this leaves out their copy, place and resolve."""
    cdef int seat = p.to_move, side = side_of(p, seat), s
    cdef int credit = placement_credit(end_sum_after(p, p.ends, move)) + bonus
    cdef int score[4]
    if p.score[side] + credit == TARGET:
        return WIN if team_of(S, p, seat) == team else -WIN
    if p.score[side] + credit > TARGET:
        credit = 0                         # rejected: the scores stay, the round still ends
    if S.objective != OBJ_WIN:
        return credit if team_of(S, p, seat) == team else -credit
    for s in range(side_count(p)):
        score[s] = p.score[s]
    score[side] += credit
    return equity_lookup(S, score, side_count(p), side, team)    # the seat that emptied its hand starts next


cdef inline int loop_move_value(SolverCtx* S, const Position* p, uint8_t move, int es, bint last_tile,
                                Position* child, int team, int base, int alpha, int beta, int ply) noexcept nogil:
    """A move's value in the move loop of search or endgame_search: played out into the
    child slot (move_value), or, when it is the mover's last tile, valued at once
    (domino_value: the same value)."""
    if last_tile and S.lean_leaves:
        return domino_value(S, p, move, team, domino_bonus(p, p.to_move))
    return move_value(S, p, move, es, child, team, base, alpha, beta, ply)


cdef int greedy_chance(SolverCtx* S, const Position* p, const uint8_t* moves, int n, Position* children,
                       int team, int base, int alpha, int beta, int ply) noexcept nogil:
    """A seat read as greedy with tied largest credits: its own coin picks each concrete
    placement alike (greedy_bot, and the credit model of the beliefs), so the node is
    worth the average of its moves, each weighted by the concrete placements it stands
    for; truncated toward zero, as the expectimax chance nodes. Star1 over [-WIN, WIN]:
    each move is searched with the window that keeps the average's bounds decisive,
    and the node stops as soon as one is (fail-soft: the bound itself)."""
    cdef long total = 0, rest, done = 0
    cdef int i, w, v, lo_w, hi_w
    for i in range(n):
        total += move_multiplicity(p, moves[i])
    rest = total
    for i in range(n):
        w = move_multiplicity(p, moves[i])
        rest -= w
        star1_window(alpha, beta, total, done, rest, w, &lo_w, &hi_w)
        v = move_value(S, p, moves[i], end_sum_after(p, p.ends, moves[i]), &children[i], team, base, lo_w, hi_w, ply)
        if S.aborted:
            return 0
        done += <long>w * v
        if star1_settled(done, rest, total, alpha, beta, &v):
            return v
    return <int>trunc_div(done, total)


cdef int endgame_search(SolverCtx* S, const Position* p, int alpha, int beta, int ply) noexcept nogil:
    """The endgame path: the boneyard is empty (no draws can follow), few tiles are
    left, and a small subtree is re-searched faster than the table could be asked.
    Plain fail-soft alpha-beta ordered by immediate credit; no table, history or
    gap bounds. Blocked rounds are detected by resolve_turn in O(1)."""
    cdef uint8_t moves[MAX_MOVES]
    cdef int sums[MAX_MOVES]
    cdef int keys[MAX_MOVES]
    cdef Position* children = &S.child[ply * MAX_MOVES]
    cdef Position* c
    cdef int n, i, k, s0, gap, team, base, v, first, best = -INF
    cdef bint last_tile
    if not entered(S, p, &alpha, &beta, ply, &v):
        return v
    team = team_of(S, p, p.to_move)
    base = rel_score(S, p, team)
    n = gen_moves(p, moves)
    s0 = end_sum(p)
    gap = TARGET - p.score[side_of(p, p.to_move)]
    last_tile = fiveup_popcount(p.hand[p.to_move]) == 1
    first = 0
    for i in range(n):
        # the key is the accepted credit alone; the first of the order found on the way
        sums[i] = end_sum_after(p, s0, moves[i])
        keys[i] = credit_within(placement_credit(sums[i]), gap)
        if keys[i] == gap and not last_tile and S.use_pruning:
            return WIN    # an exact 305 now: nothing can do better
        first = i if keys[i] > keys[first] else first
    if (S.greedy_seats >> p.to_move) & 1:
        n = keep_greedy(moves, keys, n)
        if n > 1:
            return greedy_chance(S, p, moves, n, children, team, base, alpha, beta, ply)
        first = 0
        sums[0] = end_sum_after(p, s0, moves[0])     # the kept move's (keep_greedy moved it)
    i = first
    for k in range(n):
        if k:
            i = next_by_key(keys, n, i)
        v = loop_move_value(S, p, moves[i], sums[i], last_tile, children, team, base, alpha, beta, ply)
        if S.aborted:
            return 0
        if v > best:
            best = v
        if best > alpha:
            alpha = best
        if alpha >= beta:
            break
    return best


cdef void age_history(SolverCtx* S) noexcept nogil:
    """Halve every history count: they live below history_cap (HISTORY_CAP), so that no
    search, however long, and no Solver, however many calls it makes, can overflow
    them (docs/results/performance.md: a cap of 2^20 was measured and cost nodes)."""
    cdef int i
    for i in range(256):
        S.history[i] >>= 1


cdef enum:
    # keeps an ordering key's credit term >= 0 (next_by_key spends keys as -1): a credit
    # is at most 305, a reply's too, so keys stay below the table move's 1 << 30
    REPLY_KEY_OFFSET = 305


cdef inline int reply_credit(const SolverCtx* S, const Position* p, uint8_t move, int es, Position* c) noexcept nogil:
    """Play `move` from p into c (forced draws and passes included, as move_value does)
    and return the largest accepted credit the next seat can take at once, when it is
    of the other team; 0 when it is not, or when the round has ended. search()'s order
    at the nodes that ask the table: a move's credit less this (docs/results/performance.md:
    the 4-player openings' nodes 0.82, held-out openings 0.49 to 0.80)."""
    cdef uint8_t replies[MAX_MOVES]
    cdef int m, i, s1, gap, x, best = 0
    c[0] = p[0]
    place_at(c, move, es, NULL)
    resolve_turn(c)
    if c.status != ST_PLAYING or team_of(S, c, c.to_move) == team_of(S, p, p.to_move):
        return 0
    m = gen_moves(c, replies)
    s1 = end_sum(c)
    gap = TARGET - c.score[side_of(c, c.to_move)]
    for i in range(m):
        x = credit_within(placement_credit(end_sum_after(c, s1, replies[i])), gap)
        best = x if x > best else best
    return best


cdef int search(SolverCtx* S, const Position* p, int alpha, int beta, int ply) noexcept nogil:
    """Negamax value of p (its seat can place) for the team to move; fail-soft."""
    cdef uint8_t moves[MAX_MOVES]
    cdef int credits[MAX_MOVES]
    cdef int sums[MAX_MOVES]
    cdef int s0, es, gap, side, g
    cdef bint use_tt
    cdef bint last_tile
    cdef int keys[MAX_MOVES]
    cdef Position* children = &S.child[ply * MAX_MOVES]   # the loop's child: slot 0 (a coin: one a move)
    cdef Position* c
    cdef int n, i, j, k, x, team, base, v, r, best = -INF, best_move = 0xFF, tt_move = 0xFF
    cdef int alpha0, beta0, ub = INF, lb = -INF, s, mode = 0, first, best_key
    cdef bint chance = 0, built = 0
    cdef uint64_t key = 0, nodes0 = S.nodes
    cdef TTEntry e
    if not entered(S, p, &alpha, &beta, ply, &v):
        return v
    team = team_of(S, p, p.to_move)
    use_tt = uses_table(S, p)
    if use_tt:
        key = position_hash(S, p, ply)
        fiveup_prefetch(&S.table[key & S.mask & ~(<uint64_t>3)])
    # moves and their immediate credits while the table's bucket is on its way
    n = gen_moves(p, moves)
    s0 = end_sum(p)
    side = side_of(p, p.to_move)
    gap = TARGET - p.score[side]
    last_tile = fiveup_popcount(p.hand[p.to_move]) == 1
    # one pass: end sum, accepted credit, order key (order_key; the table move's comes
    # later) and the first move of the order (without a branch)
    first = 0
    best_key = -1
    for i in range(n):
        sums[i] = end_sum_after(p, s0, moves[i])
        credits[i] = credit_within(placement_credit(sums[i]), gap)
        if credits[i] == gap and not last_tile and S.use_pruning:
            # an exact 305 is the best any line can do: immediate cutoff
            if use_tt:
                tt_store(S, key, WIN, WIN, moves[i], 1)
            return WIN
        keys[i] = order_key(S, moves[i], credits[i])
        first = i if keys[i] > best_key else first
        best_key = keys[i] if keys[i] > best_key else best_key
    if (S.greedy_seats >> p.to_move) & 1:
        n = keep_greedy(moves, credits, n)
        chance = n > 1
        first = 0
        sums[0] = end_sum_after(p, s0, moves[0])     # the kept move's (keep_greedy moved it)
    if use_tt:
        if tt_probe(S, key, &e):
            if e.lower >= beta or e.lower == e.upper:
                return e.lower
            if e.upper <= alpha:
                return e.upper
            if e.lower > alpha:
                alpha = e.lower
            if e.upper < beta:
                beta = e.upper
            tt_move = e.move
        if tt_move == 0xFF and S.points_order and tt_probe(S, points_key(key), &e):
            # no move of its own: the points solve's best move here comes first (its
            # bounds are in other units and are not used)
            tt_move = e.move
    if use_tt and S.solver_call and S.reply_order and not chance and n > 1 and not last_tile:
        # where the subtree is large enough to ask the table, each move is played into
        # its own child slot and ordered by its credit less the best credit the next
        # seat can take at once when it is the other side's (reply_credit; the table
        # move still first); the loop searches those children as they are
        built = 1
        best_key = -1
        for i in range(n):
            keys[i] = order_key(S, moves[i], credits[i] + REPLY_KEY_OFFSET
                                - reply_credit(S, p, moves[i], sums[i], &children[i]))
            first = i if keys[i] > best_key else first
            best_key = keys[i] if keys[i] > best_key else best_key
    alpha0 = alpha
    beta0 = beta
    if gap_bounds_apply(S):
        mode = gap_mode(S, p, team, &alpha, &beta, &lb, &ub)
    base = rel_score(S, p, team)
    if chance:
        best = greedy_chance(S, p, moves, n, children, team, base, alpha, beta, ply)
        if S.aborted:
            return 0
        best_move = moves[0]
        n = 0       # no move loop: the average is the value
    # order: table move (the points solve's where points_order and the win search has
    # none), then immediate accepted credit, then history (above)
    if tt_move != 0xFF:
        for i in range(n):
            if moves[i] == tt_move:
                keys[i] = 1 << 30
                first = i
                break
    i = first
    for k in range(n):
        if k:
            i = next_by_key(keys, n, i)
        if built:
            v = child_search(S, &children[i], team, base, alpha, beta, ply)
        else:
            v = loop_move_value(S, p, moves[i], sums[i], last_tile, children, team, base, alpha, beta, ply)
        if S.aborted:
            return 0
        if v > best:
            best = v
            best_move = moves[i]
        if best > alpha:
            alpha = best
        if alpha >= beta:
            credit_cutoff(S, p, moves[i])
            break
    if mode == 1:
        if best >= WIN:
            lb = WIN
            ub = WIN
        else:
            # no win: the value is a non-win one, so at most ub
            if best > ub:
                best = ub
            lb = -WIN
            ub = best
    elif mode == 2:
        if best <= -WIN:
            lb = -WIN
            ub = -WIN
        else:
            # no forced loss: the value is a non-loss one, so at least lb
            if best < lb:
                best = lb
            ub = WIN
            lb = best
    elif best <= alpha0:
        lb = -WIN
        ub = best
    elif best >= beta0:
        lb = best
        ub = WIN
    else:
        lb = best
        ub = best
    if use_tt:
        tt_store(S, key, lb, ub, best_move, S.nodes - nodes0)
    return best


cdef int cut_value(const SolverCtx* S, const Position* p) noexcept nogil:
    """Value of a position where a depth-limited search stops, for the team to move.

    The points banked inside the horizon are already in the parent's value; the
    cut adds an estimate of the rest of the round: half the pip balance between
    the other team's hands and the mover's team's hands (the side that empties
    its hand first collects the others' pips, RULES §6.3), rounded to 5 and kept
    inside the exact-target bounds (no win or loss is ever guessed)."""
    cdef int s, own = 0, other = 0, team = team_of(S, p, p.to_move), v, gainer
    cdef int score[4]
    for s in range(p.players):
        if team_of(S, p, s) == team:
            own += mask_pips(p.hand[s])
        else:
            other += mask_pips(p.hand[s])
    v = round_to_5((other - own + 400) // 2) - 200
    if S.objective == OBJ_WIN:
        # the same estimate as banked points: the leading team's side gains it (unless
        # that passes 305), the next starter is unknown (drawn), and W values the result
        for s in range(side_count(p)):
            score[s] = p.score[s]
        gainer = p.to_move
        if v < 0:
            v = -v
            for s in range(1, p.players):
                gainer = (p.to_move + s) % p.players
                if team_of(S, p, gainer) != team:
                    break
        if score[side_of(p, gainer)] + v < TARGET:
            score[side_of(p, gainer)] += v
        return equity_lookup(S, score, side_count(p), side_count(p), team)
    return clampi(v, -(WIN - 1), WIN - 1)


cdef inline int equity_lookup(const SolverCtx* S, const int* score, int sides, int starter, int team) noexcept nogil:
    """Equity table value for `team` at a round's start with these scores and starter
    index (a side, or `sides` when the starter is drawn)."""
    cdef int s, lv, idx = 0, v
    for s in range(sides):
        lv = score[s] // 5
        idx = idx * EQ_LEVELS + (0 if lv < 0 else (EQ_LEVELS - 1 if lv >= EQ_LEVELS else lv))
    v = S.equity[(idx * (sides + 1) + starter) * sides + S.root_side]
    return v if team == 0 else -v


cdef int ended_value(const SolverCtx* S, const Position* c, int team, int gain) noexcept nogil:
    """Value, for `team`, of a round that has just ended without a game win: the
    points gained (points objective), or the equity of the next round's start
    (win objective): its scores, and its starter (the seat that emptied its hand,
    or drawn after a block)."""
    cdef int s
    cdef int score[4]
    if S.objective != OBJ_WIN:
        return gain
    for s in range(side_count(c)):
        score[s] = c.score[s]
    return equity_lookup(S, score, side_count(c), side_of(c, c.end_seat) if c.status == ST_DOMINO else side_count(c), team)


cdef int team_value(const SolverCtx* S, const Position* p, int team) noexcept nogil:
    """Team's raw scores minus the other team's (the base every value is relative to)."""
    return rel_score(S, p, team)


cdef extern from "Python.h":
    int PyErr_CheckSignals()        # with the GIL; -1 with the handler's exception set (Ctrl-C)
    void PyErr_Clear()


cdef int signal_seen(SolverCtx* S) noexcept nogil:
    """Has Ctrl-C reached the main thread? Then S.interrupted is set, the handler's exception
    cleared (the search stops: the caller raises KeyboardInterrupt once it has). In another
    thread PyErr_CheckSignals does nothing (0)."""
    cdef int got = 0
    with gil:
        if PyErr_CheckSignals() != 0:
            PyErr_Clear()
            got = 1
    if got:
        S.interrupted = 1       # kept until the caller raises it (later looks see no signal)
    return got


cdef int node_checks(SolverCtx* S) noexcept nogil:
    """enter_node at next_check: 1 when the search stops here (the node limit passed, a
    helper's stop flag set, Ctrl-C seen by a Solver call); else the next count to look at.
    A limit stops the search at the same node as a look at every node would."""
    cdef uint64_t step = SIGNAL_CHECK_NODES
    if S.node_limit and S.nodes > S.node_limit:
        return 1
    if S.stop != NULL:
        if load_flag(S.stop):
            return 1
        step = STOP_CHECK_NODES
    if S.interrupted:
        return 1                # (every node after Ctrl-C stops too, as after a limit)
    if S.watch_signals and S.next_check:
        # a stop from another thread (SolverCore.stop; an embedder's review: a server could not
        # give back the worker of a solve its client had left), then Ctrl-C: a solve of
        # millions of nodes held it off to its end (94 s measured); not at next_check 0,
        # which only asks for the next count after a reset
        if load_flag(&S.stop_asked) or signal_seen(S):
            return 1
    S.next_check = S.nodes + step
    if S.node_limit and S.next_check > S.node_limit + 1:
        S.next_check = S.node_limit + 1
    return 0


cdef inline void begin_call(SolverCtx* S, uint64_t node_limit) noexcept nogil:
    """A new solve call: fresh node count and limit, a new table generation."""
    S.nodes = 0
    S.next_check = 0
    S.helper_nodes = 0
    S.aborted = 0
    S.interrupted = 0
    S.watch_signals = 1
    S.cut = 0
    S.node_limit = node_limit
    S.generation = (S.generation + 1) & 0xFF
    S.solver_call = 1
    S.points_order = 0


cdef Position* round_position(object rnd) except NULL:
    """The current position of `rnd`, a CoreRound given to a SolverCore method (anything
    else, None included, is a one-line CoreError)."""
    return &checked_round(rnd, "the position").top().pos


cdef SolverCore checked_core(object core):
    """The SolverCore a search works with (anything else, None included: a one-line CoreError)."""
    if not isinstance(core, SolverCore):
        raise CoreError(f"a search works with a SolverCore, not {type(core).__name__}")
    return <SolverCore>core


cdef class Claimed:
    """SolverCore.claimed(): claims the core on entering the block, releases it on leaving."""
    cdef SolverCore core

    def __enter__(self):
        self.core.claim()
        return self.core

    def __exit__(self, exc_type, exc, tb):
        self.core.release()
        if exc_type is None and self.core.ctx.interrupted:
            # the search saw Ctrl-C and stopped (its result is not used): the interrupt goes on
            self.core.ctx.interrupted = 0
            raise KeyboardInterrupt
        if exc_type is None and self.core.ctx.solver_call and load_flag(&self.core.ctx.stop_asked):
            raise SearchStopped("the solve was stopped (Solver.stop)")
        return False


cdef class SolverCore:
    """Reusable search context: the transposition table is kept between calls."""

    def __cinit__(self, tt_mb_=64.0, use_tt=True, use_pruning=True, tt_min_tiles_=-1, threads_=1):
        cdef uint64_t n = 4
        cdef double tt_mb
        cdef int tt_min_tiles = checked_int(tt_min_tiles_, -1, 28, "tt_min_tiles")
        cdef int threads = checked_int(threads_, 1, MAX_THREADS, "threads"), h
        # switches, not truth values (NotImplemented or "no" would otherwise read as on)
        cdef int table_on = checked_switch(use_tt, "use_tt")
        cdef int pruning_on = checked_switch(use_pruning, "use_pruning")
        if sizeof(MaxnEntry) != sizeof(TTEntry):    # max^n entries share the table's slots
            raise CoreError("max^n table entries must have the size of the table's entries")
        self.ctx.table = NULL
        self.ctx.child = NULL
        if isinstance(tt_mb_, bool) or not isinstance(tt_mb_, (int, float)) or not 0.0 < tt_mb_ <= 65536.0:
            # also refuses NaN; the table is a power of two up to this size
            raise CoreError(f"tt_mb must be a number in (0, 65536], not {tt_mb_!r}"[:200])
        tt_mb = tt_mb_
        if n * sizeof(TTEntry) > tt_mb * 1024 * 1024:
            # the least table (4 entries) must fit, as table_bytes promises at most tt_mb
            raise CoreError(f"tt_mb must hold the least table, {n * sizeof(TTEntry)} bytes "
                            f"({n * sizeof(TTEntry) / 1048576.0:.3g} MB), not {tt_mb_!r}"[:200])
        while (n * 2) * sizeof(TTEntry) <= tt_mb * 1024 * 1024:
            n *= 2
        memset(&self.ctx, 0, sizeof(SolverCtx))
        self.n_entries = n
        self.ctx.table = <TTEntry*>fiveup_alloc_table(n * sizeof(TTEntry))
        # (mapped as the table is: a thread's arena kept the freed ones resident)
        self.ctx.child = <Position*>fiveup_alloc_table(MAX_PLY * MAX_MOVES * sizeof(Position))
        if self.ctx.table == NULL or self.ctx.child == NULL:
            raise MemoryError("cannot allocate the transposition table")
        self.ctx.mask = n - 1
        self.ctx.use_tt = table_on
        self.ctx.use_pruning = pruning_on
        self.ctx.history_cap = HISTORY_CAP
        self.ctx.lean_leaves = 1
        self.ctx.reply_order = 1
        self.ctx.tt_min_tiles = tt_min_tiles
        self.ctx.max_ply = MAX_PLY
        self.threads = threads
        if threads > 1:
            self.ctx.helpers = <SolverCtx*>calloc(threads - 1, sizeof(SolverCtx))
            if self.ctx.helpers == NULL:
                raise MemoryError("cannot allocate the helper threads' contexts")
            for h in range(threads - 1):
                self.ctx.helpers[h].child = <Position*>fiveup_alloc_table(MAX_PLY * MAX_MOVES * sizeof(Position))
                if self.ctx.helpers[h].child == NULL:
                    raise MemoryError("cannot allocate the helper threads' contexts")
            self.ctx.n_helpers = threads - 1

    @cython.nonecheck(False)    # (self is the method's own owner; FIVEUP_DEBUG's check needs the GIL)
    cdef void fresh_context(self) noexcept nogil:
        """Start an independent search: a salt never used before in this context and
        a new generation (older entries can neither be found nor keep newer ones
        out), a cleared move history. What it computes then does not depend on
        earlier searches in this context, even of the same position."""
        self.searches += 1
        self.ctx.salt = mix64(self.searches * <uint64_t>0x9E3779B97F4A7C15 + <uint64_t>0x632BE59BD9B4E019)
        self.ctx.generation = (self.ctx.generation + 1) & 0xFF
        if self.ctx.generation == 0:
            # the generation counter wrapped: entries 256 searches old would look current
            memset(self.ctx.table, 0, self.n_entries * sizeof(TTEntry))
            self.ctx.generation = 1
        memset(self.ctx.history, 0, sizeof(self.ctx.history))
        self.ctx.solver_call = 0
        self.ctx.points_order = 0
        self.ctx.nodes = 0
        self.ctx.next_check = 0
        self.ctx.aborted = 0
        self.ctx.cut = 0
        self.ctx.node_limit = 0
        self.ctx.watch_signals = 0      # a hint world: the hint's own loop looks for Ctrl-C
        self.ctx.interrupted = 0

    def __dealloc__(self):
        cdef int h
        if self.ctx.helpers != NULL:
            for h in range(self.threads - 1):
                fiveup_free_table(self.ctx.helpers[h].child, MAX_PLY * MAX_MOVES * sizeof(Position))
            free(self.ctx.helpers)
        fiveup_free_table(self.ctx.table, self.n_entries * sizeof(TTEntry))
        fiveup_free_table(self.ctx.child, MAX_PLY * MAX_MOVES * sizeof(Position))

    @property
    def history_peak(self):
        """The largest move-ordering history count (below history_cap; for tests)."""
        cdef int i, peak = 0
        for i in range(256):
            if self.ctx.history[i] > peak:
                peak = self.ctx.history[i]
        return peak

    @property
    def history_cap(self):
        """History counts are halved when one reaches this (HISTORY_CAP; lower only in tests)."""
        return self.ctx.history_cap

    @history_cap.setter
    def history_cap(self, cap):
        self.check_idle()
        self.ctx.history_cap = checked_int(cap, 2, HISTORY_CAP, "history_cap")

    @property
    def lean_leaves(self):
        """Whether a mover's last tile is valued without playing it out (last_tile_search,
        domino_value; on by default). Off only in tests: the values and node counts are
        the same either way."""
        return bool(self.ctx.lean_leaves)

    @lean_leaves.setter
    def lean_leaves(self, on):
        self.check_idle()
        self.ctx.lean_leaves = checked_switch(on, "lean_leaves")

    @property
    def reply_order(self):
        """Whether a Solver call orders the moves of the nodes that ask the table by
        their credit less the next seat's best reply credit (reply_credit; on by
        default). Off only in tests: it changes the work, never a value."""
        return bool(self.ctx.reply_order)

    @reply_order.setter
    def reply_order(self, on):
        self.check_idle()
        self.ctx.reply_order = checked_switch(on, "reply_order")

    def __delattr__(self, name):
        # (Cython's properties would raise NotImplementedError: a core's settings are kept, never deleted)
        raise CoreError(f"{name} of a SolverCore cannot be deleted")

    @property
    def helper_nodes(self):
        """Of the last call's nodes, those its helper threads searched."""
        return self.ctx.helper_nodes

    @property
    def threads(self):
        """Search threads of a Solver call's large searches (Lazy SMP; 1: none)."""
        return self.threads

    def set_objective(self, objective_, table=None, players_=None):
        """Values of later searches: OBJ_POINTS (0, the default), or OBJ_WIN (1) with
        `table`, a contiguous int16 array for `players` (see SolverCtx.equity):
        EQ_LEVELS ** sides x (sides + 1) x sides values strictly inside (-WIN, WIN).
        An immutable table (bytes, or a read-only array that owns its memory, as the
        package's own) is read where it is and remembered as checked; any other is
        copied, and the copy checked and read: changing the table later changes nothing."""
        with self.claimed():
            return self._set_objective(objective_, table, players_)

    cdef object _set_objective(self, object objective_, object table, object players_):
        """set_objective, with the context claimed."""
        cdef int objective = checked_int(objective_, OBJ_POINTS, OBJ_WIN, "objective")
        cdef const int16_t[::1] view
        cdef int players, sides, i
        cdef long need
        cdef int k, sm, maxsum
        if objective == OBJ_POINTS:
            self.ctx.objective = OBJ_POINTS
            self.ctx.equity = NULL
            self.ctx.eq_players = 0
            self.ctx.eq_maxsum = 0
            self.equity_owner = None
            self.equity_id = None
            return
        players = checked_int(players_, 2, 4, "players")
        sides = 3 if players == 3 else 2
        need = (EQ_LEVELS * EQ_LEVELS * (EQ_LEVELS if sides == 3 else 1)) * (sides + 1) * sides
        if table is None:
            raise CoreError("the win objective needs an equity table (a contiguous int16 array), not None")
        if self.equity_checked is None:
            self.equity_checked = []
        for known, known_players, known_view, known_maxsum in self.equity_checked:
            if known is table and known_players == players:
                # an immutable table checked before: its values cannot have changed
                self.equity_owner = known_view
                self.equity_id = table
                self.ctx.eq_maxsum = known_maxsum
                view = known_view
                self.ctx.equity = &view[0]
                self.ctx.eq_players = players
                self.ctx.objective = OBJ_WIN
                return
        try:
            view = table
        except (TypeError, ValueError, BufferError):
            raise CoreError(f"the equity table must be a contiguous int16 array, not {type(table).__name__}") from None
        if view.shape[0] != need:
            raise CoreError(f"the equity table for {players} players has {need} values, not {view.shape[0]}")
        flags = getattr(table, "flags", None)
        immutable = isinstance(table, bytes) or (flags is not None and not flags.writeable
                                                 and getattr(table, "base", True) is None)
        if not immutable:
            # a table its caller can still change (writable, or a read-only view of memory
            # that is not): the searches read a private copy, checked below, so a change
            # made after this call can neither reach them unchecked nor change their values
            owned = array.array("h")
            owned.frombytes(memoryview(table).cast("B"))
            view = owned
        for i in range(need):
            if not -WIN < view[i] < WIN:
                raise CoreError(f"equity table value {i} is {view[i]}, outside (-{WIN}, {WIN})")
        # max^n's shallow pruning: the largest sum of the sides' values in one cell
        maxsum = -WIN
        if sides == 3:
            with nogil:
                for i in range(0, need, 3):
                    sm = view[i] + view[i + 1] + view[i + 2]
                    if sm > maxsum:
                        maxsum = sm
        self.ctx.eq_maxsum = maxsum
        if immutable and len(self.equity_checked) < 8:
            self.equity_checked.append((table, players, view, maxsum))
        self.equity_owner = view
        self.equity_id = table
        self.ctx.equity = &view[0]
        self.ctx.eq_players = players
        self.ctx.objective = OBJ_WIN

    @property
    def equity_table(self):
        """The table given to set_objective (None under the points objective)."""
        return self.equity_id

    @property
    def objective(self):
        """OBJ_POINTS or OBJ_WIN."""
        return self.ctx.objective

    cdef int check_players(self, int players) except -1:
        if self.ctx.objective == OBJ_WIN and players != self.ctx.eq_players:
            raise CoreError(f"this solver's equity table is for {self.ctx.eq_players} players, "
                            f"the position has {players}")
        return 0

    # One context, one search at a time: a search runs without the GIL on this context's
    # table, history and child slots, so a second thread searching with it, or changing
    # its objective, table or settings meanwhile, would corrupt it (or free the equity
    # table it reads). Checked and set with the GIL held, so no two threads pass at once.

    cdef int check_idle(self) except -1:
        """A one-line CoreError when another thread is searching with this context."""
        if self.busy:
            raise CoreError("this SolverCore is in use by another thread: give each thread its own "
                            "(a Solver or Hinter shared between threads takes turns)")
        return 0

    cdef int claim(self) except -1:
        """Mark the context in use by the calling thread (check_idle first); release() ends it."""
        self.check_idle()
        self.busy = True
        return 0

    cdef void release(self) noexcept:
        self.busy = False

    def claimed(self):
        """``with core.claimed():`` the context claimed for the block (claim, then release
        however the block ends; a claim refused raises before the block)."""
        cdef Claimed c = Claimed.__new__(Claimed)
        c.core = self
        return c

    @property
    def in_use(self):
        """Whether a thread is searching with this context now."""
        return bool(self.busy)

    def stop(self):
        """Stop the Solver call searching with this context, from any thread: its search
        ends at its next look (every 65,536 nodes) and the call raises SearchStopped (the
        rest of that Solver call is not searched). Kept until :meth:`clear_stop`, which a
        Solver call does as it begins. Returns whether a thread was searching."""
        store_flag(&self.ctx.stop_asked, 1)
        return bool(self.busy)

    def clear_stop(self):
        store_flag(&self.ctx.stop_asked, 0)

    @property
    def table_entries(self):
        return self.n_entries

    @property
    def table_bytes(self):
        """Bytes of the transposition table (at most the tt_mb it was made with)."""
        return self.n_entries * sizeof(TTEntry)

    def clear(self):
        """Erase the table and start again as a new SolverCore does: its salt, generation,
        move history and search count as at construction (a review: the history was kept,
        so node counts and node-limit cuts after a clear differed from a new Solver's)."""
        self.check_idle()
        memset(self.ctx.table, 0, self.n_entries * sizeof(TTEntry))
        memset(self.ctx.history, 0, sizeof(self.ctx.history))
        self.searches = 0
        self.ctx.salt = 0
        self.ctx.generation = 0
        self.ctx.solver_call = 0
        self.ctx.points_order = 0

    def forget(self):
        """Make the next searches independent of the earlier ones, as a cleared table
        would, without clearing it (fresh_context: a new salt and generation; older
        entries are neither found nor kept before newer ones). A node-limited search
        then finishes, or not, whatever was searched before it."""
        self.check_idle()
        self.fresh_context()

    def solve_moves(self, rnd, node_limit_=0, points_values=None, guesses=None):
        """Exact value of every root canonical move of the round's current position.

        Returns (root_value, [(move, value), ...], nodes, aborted). The seat's
        forced draws are made first; a seat that then cannot place has the
        single move MOVE_PASS. With no move at all (the round ended during the
        draws, or was already over) the list is empty. When the node limit (or a
        stop) cut the search (`aborted`), the list holds the moves proved before
        the cut, each with its exact value (max^n: none), and root_value means
        nothing.

        `points_values`: under the win objective, {move: value} of an exact points
        solve of the same position (what solve_moves returned under OBJ_POINTS):
        each move's MTD(f) then starts from win_guess of its points value, and
        where the win search has no table move of its own, the points solve's
        best move (still in this table) is searched first (points_order). Only
        the node count changes: the values are exact either way.

        `guesses`: {move: value} in this objective's own units (a root move's value
        for the seat to move, as returned here): that move's MTD(f) starts there
        instead (with one search thread), for example from an earlier solve's
        values; benchmarks/mtdf_floor.py gives the exact values, to measure what
        a perfect guess would leave. Other moves start as they would. The values
        are exact whatever the guesses. Not with 3 players under max^n.
        """
        with self.claimed():
            return self._solve_moves(rnd, node_limit_, points_values, guesses)

    cdef object _solve_moves(self, object rnd, object node_limit_, object points_values, object guesses):
        """solve_moves, with the context claimed."""
        cdef Position root = round_position(rnd)[0]
        cdef Position q, c
        cdef uint8_t moves[MAX_MOVES]
        cdef int n, i, team, base, r, best = -INF, side, chosen, proved
        cdef int values[MAX_MOVES]
        cdef SolverCtx* S = &self.ctx
        cdef uint64_t node_limit = checked_u64(node_limit_, "node_limit")
        cdef int vecs[3 * MAX_MOVES]
        cdef int root_vec[3]
        cdef int guess_of[256]          # a move's points value, by canonical move (points_values)
        cdef int given_of[256]          # a move's first MTD(f) test, by canonical move (guesses)
        cdef uint8_t given[256]         # whether `guesses` names the canonical move
        cdef bint seeded = False
        self.check_players(root.players)
        memset(given, 0, sizeof(given))
        if guesses is not None:
            if self.ctx.search_maxn and root.players == 3:
                raise CoreError("guesses are for two-team searches: max^n with 3 players has its own root")
            if not isinstance(guesses, dict) or not all(
                    type(k) is int and 0 <= k < 256 and type(v) is int and -WIN <= v <= WIN
                    for k, v in guesses.items()):
                raise CoreError(f"guesses must be {{move: value}} with values in [-{WIN}, {WIN}]")
            for k, v in guesses.items():
                given[<int>k] = 1
                given_of[<int>k] = <int>v
        if points_values is not None:
            if not isinstance(points_values, dict) or not all(
                    type(k) is int and 0 <= k < 256 and type(v) is int and -WIN <= v <= WIN
                    for k, v in points_values.items()):
                raise CoreError(f"points_values must be {{move: value}} with values in [-{WIN}, {WIN}]")
            # max^n has its own root (maxn_root): the guesses are for the two-team search
            seeded = self.ctx.objective == OBJ_WIN and not (self.ctx.search_maxn and root.players == 3)
            memset(guess_of, 0, sizeof(guess_of))
            for k, v in points_values.items():
                guess_of[<int>k] = <int>v
        begin_call(S, node_limit)
        S.points_order = seeded
        set_root(S, &root)
        if S.maxn:
            # max^n: each move's entry for the mover's side (internal units: see value_scale)
            with nogil:
                n = maxn_root(S, &root, &q, moves, vecs, root_vec, &chosen)
            side = side_of(&q, q.to_move)
            if S.aborted:
                # (max^n's root searches its moves together: none is proved alone)
                return root_vec[side], [], S.nodes, True
            return (root_vec[side], [(moves[i], vecs[3 * i + side]) for i in range(n)], S.nodes, False)
        with nogil:
            team = 0
            base = rel_score(S, &root, team)
            q = root
            if q.status == ST_PLAYING:
                forced_draws(&q, NULL)
            n = 0
            if q.status == ST_PLAYING:
                if can_place(&q):
                    n = gen_moves(&q, moves)
                else:
                    n = 1
                    moves[0] = MOVE_PASS
            proved = 0          # the moves whose search finished: all of them, or those before a cut
            for i in range(n):
                c = q
                if moves[i] == MOVE_PASS:
                    pass_turn(&c)
                else:
                    place(&c, moves[i], NULL)
                resolve_turn(&c)
                if S.aborted:
                    break
                if given[moves[i]]:
                    values[i] = guessed_search(S, &c, team, rel_score(S, &c, team) - base, given_of[moves[i]])
                elif seeded:
                    values[i] = guessed_search(S, &c, team, 0, win_guess(S, &root, guess_of[moves[i]]))
                else:
                    values[i] = terminal_or_search(S, &c, team, rel_score(S, &c, team) - base)
                if S.aborted:
                    break       # (this move's search was cut: its value is no value)
                proved = i + 1
                if values[i] > best:
                    best = values[i]
        if n == 0:
            best = terminal_or_search(S, &q, team, rel_score(S, &q, team) - base) if q.status != ST_PLAYING else 0
        return best, [(moves[i], values[i]) for i in range(proved)], S.nodes, bool(S.aborted)

    def value(self, rnd, node_limit_=0, guess=None):
        """Value of the current position for the seat to move (root window only).
        `guess`: MTD(f)'s first test there (that value, for the seat to move, in this
        objective's units; one search thread) instead of first_guess; the value is
        exact whatever it is (benchmarks/mtdf_floor.py). Not with 3 players under max^n."""
        with self.claimed():
            return self._value(rnd, node_limit_, guess)

    cdef object _value(self, object rnd, object node_limit_, object guess):
        """value, with the context claimed."""
        # a copy: the round may be played on by another thread while this one searches
        cdef Position root = round_position(rnd)[0]
        cdef Position* at = &root
        cdef Position q = root
        cdef SolverCtx* S = &self.ctx
        cdef uint64_t node_limit = checked_u64(node_limit_, "node_limit")
        cdef int v, g = 0
        cdef bint guessed = guess is not None
        cdef int vec[3]
        self.check_players(q.players)
        if guessed:
            if self.ctx.search_maxn and q.players == 3:
                raise CoreError("a guess is for two-team searches: max^n with 3 players has its own root")
            g = checked_int(guess, -WIN, WIN, "guess")
        begin_call(S, node_limit)
        set_root(S, &q)
        if S.maxn:
            with nogil:
                resolve_turn(&q)
                maxn_child(S, at, &q, -1, -1, 0, vec)
            return vec[S.root_side], S.nodes, bool(S.aborted)
        with nogil:
            set_root(S, &q)
            resolve_turn(&q)
            if guessed:
                v = guessed_search(S, &q, 0, rel_score(S, &q, 0) - rel_score(S, at, 0), g)
            else:
                v = terminal_or_search(S, &q, 0, rel_score(S, &q, 0) - rel_score(S, at, 0))
        return v, S.nodes, bool(S.aborted)

    def debug_window(self, rnd, alpha_, beta_, node_limit_=0):
        """One search of the current (resolved) position with a given window: (result, nodes)."""
        with self.claimed():
            return self._debug_window(rnd, alpha_, beta_, node_limit_)

    cdef object _debug_window(self, object rnd, object alpha_, object beta_, object node_limit_):
        """debug_window, with the context claimed."""
        cdef Position q = round_position(rnd)[0]
        cdef SolverCtx* S = &self.ctx
        cdef int alpha = checked_int(alpha_, -INF, INF, "alpha")
        cdef int beta = checked_int(beta_, -INF, INF, "beta")
        cdef uint64_t node_limit = checked_u64(node_limit_, "node_limit")
        self.check_players(q.players)
        begin_call(S, node_limit)
        set_root(S, &q)
        resolve_turn(&q)
        r = search(S, &q, alpha, beta, 0)
        return r, S.nodes, bool(S.aborted)

    def set_search(self, maxn_):
        """How later searches treat 3 players: max^n (True) or paranoid (False, the
        default). Positions with 2 or 4 players (two sides) are searched the same way
        under both: max^n of a two-sided zero-sum game is its minimax."""
        self.check_idle()
        self.ctx.search_maxn = checked_int(maxn_, 0, 1, "maxn")

    @property
    def search_maxn(self):
        return bool(self.ctx.search_maxn)

    @property
    def value_scale(self):
        """Internal units per reported unit of a max^n value (2 under the points objective:
        half points) ; paranoid values are always in reported units."""
        return maxn_scale(&self.ctx)

    def maxn_moves(self, rnd, node_limit_=0):
        """Max^n (3 players only): (root vector, [(move, vector), ...], nodes, aborted),
        vectors of 3 entries per side in internal units (value_scale), from the
        current position's scores on; moves as solve_moves."""
        with self.claimed():
            return self._maxn_moves(rnd, node_limit_)

    cdef object _maxn_moves(self, object rnd, object node_limit_):
        """maxn_moves, with the context claimed."""
        cdef Position root = round_position(rnd)[0]
        cdef Position q
        cdef uint8_t moves[MAX_MOVES]
        cdef int vecs[3 * MAX_MOVES]
        cdef int root_vec[3]
        cdef int n, i, chosen
        cdef SolverCtx* S = &self.ctx
        cdef uint64_t node_limit = checked_u64(node_limit_, "node_limit")
        if root.players != 3:
            raise CoreError(f"max^n vectors are for 3 players, not {root.players}")
        self.check_players(root.players)
        begin_call(S, node_limit)
        set_root(S, &root)
        S.maxn = 1
        with nogil:
            n = maxn_root(S, &root, &q, moves, vecs, root_vec, &chosen)
        S.maxn = S.search_maxn
        return ([root_vec[0], root_vec[1], root_vec[2]],
                [(moves[i], [vecs[3 * i], vecs[3 * i + 1], vecs[3 * i + 2]]) for i in range(n)],
                S.nodes, bool(S.aborted))

    def best_move(self, rnd):
        """Best canonical move stored for the current position (after its forced draws), or None."""
        cdef Position q = round_position(rnd)[0]
        cdef TTEntry e
        cdef MaxnEntry* m
        self.check_idle()
        forced_draws(&q, NULL)
        if q.status != ST_PLAYING or not can_place(&q) or not self.ctx.use_tt:
            return None
        if self.ctx.search_maxn and q.players == 3:
            # max^n: the tie-break's move of an exact vector
            m = mx_probe(&self.ctx, (position_hash(&self.ctx, &q, 0) ^ MAXN_KEY) | <uint64_t>0x100)
            return None if m == NULL or m.move == 0xFF else m.move
        if not tt_probe(&self.ctx, position_hash(&self.ctx, &q, 0), &e):
            return None
        return None if e.move == 0xFF else e.move

    def principal_variation(self, rnd, max_len=64, node_limit_=0, value_=None):
        """A line of best play from the current position: canonical moves, with
        MOVE_PASS for forced passes (forced draws are implied).

        At every step the exact value V of the position is known and the first
        move (table move first) whose exact value equals V is played. V is the
        largest value of a move, so a move has it exactly when one zero-window test
        finds it worth V or more; and the next position's V is this V less what the
        move gained. Only the first V is searched (MTD(f)), from `value` if given
        (what solve_moves returned for the seat to move: a guess only, the line is
        the same whatever it is)."""
        with self.claimed():
            return self._principal_variation(rnd, max_len, node_limit_, value_)

    cdef object _principal_variation(self, object rnd, object max_len, object node_limit_, object value_):
        """principal_variation, with the context claimed."""
        cdef Position q = round_position(rnd)[0]
        cdef Position c, cr
        cdef uint8_t moves[MAX_MOVES]
        cdef SolverCtx* S = &self.ctx
        cdef int n, i, team, best, v, base, first
        cdef TTEntry e
        cdef uint64_t node_limit = checked_u64(node_limit_, "node_limit")
        checked_int(max_len, 0, 2 ** 31 - 1, "max_len")
        cdef Position qq
        cdef int vecs[3 * MAX_MOVES]
        cdef int root_vec[3]
        cdef int chosen, known = 0, known_team = 0, gain
        cdef bint exact = False, searched = False, found
        self.check_players(q.players)
        if value_ is not None:
            known = checked_int(value_, -WIN, WIN, "value")
        out = []
        begin_call(S, node_limit)
        set_root(S, &q)
        while S.maxn and len(out) < max_len:
            # max^n: at every step every move's exact vector; the tie-break's choice is played
            forced_draws(&q, NULL)
            if q.status != ST_PLAYING:
                break
            if not can_place(&q):
                out.append(MOVE_PASS)
                pass_turn(&q)
                continue
            with nogil:
                n = maxn_root(S, &q, &qq, moves, vecs, root_vec, &chosen)
            if S.aborted or chosen < 0:
                break
            out.append(moves[chosen])
            place(&q, moves[chosen], NULL)
        while not S.maxn and len(out) < max_len:
            forced_draws(&q, NULL)
            if q.status != ST_PLAYING:
                break
            if not can_place(&q):
                out.append(MOVE_PASS)
                pass_turn(&q)
                continue
            team = team_of(S, &q, q.to_move)
            base = rel_score(S, &q, team)
            n = gen_moves(&q, moves)
            first = 0xFF
            if S.use_tt and not S.n_helpers:
                # (with helper threads the table's move depends on their timing: the line
                # is then the first canonical move that keeps the value, reproducibly)
                if tt_probe(S, position_hash(S, &q, 0), &e):
                    first = e.move
            with nogil:
                if not exact:
                    # exact value of the line's first position for its mover
                    cr = q
                    known = mtdf(S, &cr, known)
                    known_team = team
                    exact = True
                    searched = True
                # two sides: the other team's value is the negation
                best = known if team == known_team else -known
                # the table move first, then the others: the first that keeps the value
                for i in range(n):
                    if moves[i] == first and i > 0:
                        moves[i] = moves[0]
                        moves[0] = first
                found = False
                for i in range(n):
                    c = q
                    place(&c, moves[i], NULL)
                    resolve_turn(&c)
                    gain = rel_score(S, &c, team) - base
                    # worth best or more: exactly best (no move is worth more); when best
                    # is a loss every move is
                    if best <= -WIN or worth_at_least(S, &c, team, gain, best) or S.aborted:
                        first = moves[i]
                        found = True
                        break
            if S.aborted:
                break
            if not found:
                # no move kept the value carried down the line (it cannot happen: the value is
                # exact by construction): search this position's own, once, rather than play on
                if searched:
                    break
                exact = False
                continue
            searched = False
            out.append(first)
            place(&q, first, NULL)
            # the next position's value for this team: the move's, less what it gained now
            known = best if best >= WIN or best <= -WIN else best - gain
            known_team = team
        return out, S.nodes


cdef int mtdf(SolverCtx* S, const Position* p, int guess) noexcept nogil:
    """Exact value by zero-window searches converging on it (MTD(f)); the table
    carries the bounds from one search to the next.

    Under the win objective, in a Solver call (S.solver_call), a bound that moves
    the same way twice in a row makes the next test step further (5, 10, 20, ...
    beyond it, never past the other bound): its values are equity differences on
    a fine scale, and single steps took about 32 searches per 4-player opening
    (about 11 with the steps; `docs/results/performance.md`). Points values move
    in steps of 5 and converge in about 6 searches: there, and in hint worlds
    (whose node budgets decide how deep a world gets: their results stay as
    they were), every test is the plain MTD(f) one."""
    cdef int g = clampi(guess, -WIN, WIN), lower = -WIN, upper = WIN, beta
    cdef int step = MTD_STEP, last = 0
    cdef bint stepping = S.objective == OBJ_WIN and S.solver_call and S.max_ply >= MAX_PLY
    if not S.use_tt:
        return search(S, p, -INF, INF, 0)
    while lower < upper:
        beta = g + 1 if g == lower else g
        if stepping and last > 0 and g == lower:
            beta = clampi(g + step, lower + 1, upper)
        elif stepping and last < 0 and g == upper:
            beta = clampi(g - step + 1, lower + 1, upper)
        g = search(S, p, beta - 1, beta, 0)
        if S.aborted:
            return 0
        # (step is read only when stepping: doubled in every search it overflowed an int
        # after 28 moves of a bound one way, undefined behaviour the sanitizer build found)
        if g < beta:
            upper = g
            step = step * 2 if stepping and last < 0 else MTD_STEP
            last = -1
        else:
            lower = g
            step = step * 2 if stepping and last > 0 else MTD_STEP
            last = 1
    return g


cdef int terminal_or_search(SolverCtx* S, const Position* c, int team, int gain) noexcept nogil:
    """Exact value, for `team`, of a resolved child position reached with an immediate gain."""
    cdef int r
    if c.status == ST_WON:
        return WIN if team_of(S, c, c.end_seat) == team else -WIN
    if c.status != ST_PLAYING:
        return ended_value(S, c, team, gain)
    if (S.n_helpers and S.solver_call and not S.node_limit and S.max_ply >= MAX_PLY
            and fiveup_popcount(c.hand[0] | c.hand[1] | c.hand[2] | c.hand[3]) >= SMP_MIN_TILES):
        r = smp_mtdf(S, c)
    else:
        r = mtdf(S, c, first_guess(S, c))
    return child_value(team_of(S, c, c.to_move) == team, r, gain)


cdef enum:
    MAX_THREADS = 64       # search threads of one SolverCore (and of one hint: MAX_SEARCH_THREADS)
    SMP_MIN_TILES = 18     # Lazy SMP only for positions with at least this many tiles in the hands (the
                           # early 4-player ones): on smaller trees starting a thread (about 15 us)
                           # costs more than it saves (measured: 2-player openings, mid-round)

MAX_SEARCH_THREADS = MAX_THREADS    # for Python callers (a Solver's and a hint's threads)
SMP_MIN_HAND_TILES = SMP_MIN_TILES  # for Python callers (fiveup bench times 2 threads where they start)


cdef void* helper_main(void* arg) noexcept nogil:
    """A helper thread: the same search as the main thread's, in its own context and
    move order, until the main thread is done; its bounds reach the main thread
    through the shared table. Its own result is not used."""
    cdef HelperJob* J = <HelperJob*>arg
    mtdf(J.ctx, &J.root, first_guess(J.ctx, &J.root))
    return NULL


cdef int smp_mtdf(SolverCtx* S, const Position* c) noexcept nogil:
    """mtdf(S, c, first_guess) with S.n_helpers helper threads (Lazy SMP). The value is
    the main thread's: every bound in the table is a true bound of its position, so
    it is the exact value whatever the helpers stored; only node counts vary. The
    helpers' nodes are added to S.nodes."""
    cdef HelperJob jobs[MAX_THREADS]
    cdef fiveup_thread threads[MAX_THREADS]
    cdef int started[MAX_THREADS]
    cdef int h, r
    cdef SolverCtx* H
    cdef Position* child
    store_flag(&S.stop_flag, 0)
    for h in range(S.n_helpers):
        H = &S.helpers[h]
        child = H.child
        H[0] = S[0]                   # the same root, objective, salt, generation and table
        H.child = child
        H.helpers = NULL
        H.n_helpers = 0
        H.order_seed = <uint32_t>(h + 1) * <uint32_t>0x85EBCA6B
        H.stop = &S.stop_flag
        H.node_limit = 0              # none: a helper ends when the main search sets its stop flag
        H.next_check = 0
        H.watch_signals = 0           # (Ctrl-C is the main thread's: the helpers end with its search)
        H.nodes = 0
        H.aborted = 0
        H.cut = 0
        jobs[h].ctx = H
        jobs[h].root = c[0]
        started[h] = fiveup_thread_start(&threads[h], helper_main, &jobs[h]) == 0
    r = mtdf(S, c, first_guess(S, c))
    store_flag(&S.stop_flag, 1)
    for h in range(S.n_helpers):
        if started[h]:
            fiveup_thread_join(&threads[h])
            S.nodes += S.helpers[h].nodes
            S.helper_nodes += S.helpers[h].nodes
    return r


cdef int first_guess(SolverCtx* S, const Position* c) noexcept nogil:
    """MTD(f)'s first test value. In a Solver call under the points objective: the value
    of a search cut at GUESS_PLIES plies (horizon valued by cut_value), whose entries
    stay in the table under their own keys. Measured on the suites: 4-player openings
    17 % fewer nodes in all (the 95th percentile 230 k to 135 k), 2-player openings 7 %,
    mid-round 8 %, near-target the same. Elsewhere (hint worlds, whose budgets must
    buy what they did; the win objective, where it measured worse on 2-player
    openings) the first test is at 0."""
    cdef int saved = S.max_ply, g
    if not S.solver_call or S.objective != OBJ_POINTS or not S.use_tt or S.maxn:
        return 0
    S.max_ply = GUESS_PLIES
    g = mtdf(S, c, 0)
    S.max_ply = saved
    S.cut = 0
    return g


cdef int win_guess(const SolverCtx* S, const Position* root, int points) noexcept nogil:
    """A first guess of a root move's win-objective value (team 0) from its exact
    points value: the round ends with team 0's side `points` ahead (the other team's
    first side ahead when negative; no side passes 305) and the next starter drawn,
    valued by the equity table; +-WIN stays +-WIN. A guess only: it decides where
    MTD(f) starts, never the value (seeding the second currency of a solve)."""
    cdef int s, gainer = S.root_side
    cdef int score[4]
    if points >= WIN or points <= -WIN:
        return WIN if points > 0 else -WIN
    for s in range(side_count(root)):
        score[s] = root.score[s]
    if points < 0:
        points = -points
        for s in range(side_count(root)):
            if S.side_team[s] != 0:
                gainer = s
                break
    if score[gainer] + points < TARGET:
        score[gainer] += points
    return equity_lookup(S, score, side_count(root), side_count(root), 0)


cdef bint worth_at_least(SolverCtx* S, const Position* c, int team, int gain, int v) noexcept nogil:
    """Is the resolved child c, reached with `gain`, worth v or more to `team` (-WIN < v)?
    One zero-window test of c's own value (a principal variation's step). (Not through
    child_search: one more caller of that inline function and the compiler stops
    inlining it into the searches, which costs them 3 %.)"""
    cdef int t
    if c.status == ST_WON:
        return (WIN if team_of(S, c, c.end_seat) == team else -WIN) >= v
    if c.status != ST_PLAYING:
        return ended_value(S, c, team, gain) >= v
    # the value c's own mover must reach (at least t for the same team, at most -t for the
    # other); a win absorbs the gain
    t = WIN if v >= WIN else v - gain
    if team_of(S, c, c.to_move) == team:
        return t <= -WIN or search(S, c, t - 1, t, 0) >= t
    return -t >= WIN or search(S, c, -t, -t + 1, 0) <= -t


cdef int guessed_search(SolverCtx* S, const Position* c, int team, int gain, int guess) noexcept nogil:
    """terminal_or_search with MTD(f) started from `guess`, the value for `team` of the
    move that reached c with `gain` (0 under the win objective, whose values are read at
    the round's end): c's own mover starts at guess - gain, negated for the other team."""
    cdef bint same
    if c.status == ST_WON:
        return WIN if team_of(S, c, c.end_seat) == team else -WIN
    if c.status != ST_PLAYING:
        return ended_value(S, c, team, gain)
    same = team_of(S, c, c.to_move) == team
    guess -= gain
    return child_value(same, mtdf(S, c, guess if same else -guess), gain)


# ---------------------------------------------------------------- max^n (3 players)
#
# With 3 players every seat is its own side, and max^n (Luckhardt and Irani 1986)
# values a position by a vector of 3 entries, one per side; the seat to move
# picks the child whose vector is best for its own side. The entries:
#
# * points objective: the side's own raw points from here to the round's end
#   minus the mean of the two others' (kept x MAXN_POINTS_SCALE, in half points,
#   so that the mean stays an integer); an accepted exact 305 is WIN for its
#   side and -WIN/2 for each other (a 1000-point gain in the same formula).
#   Every vector sums to 0.
# * win objective: the side's WIN x (P(it wins the game) - P(another side
#   wins)) from the 3-player equity table at the round's end (the next
#   starter: the seat that emptied its hand, or drawn after a block); an
#   accepted exact 305 is WIN for its side and -WIN for the others. Vectors
#   sum to about -WIN (the table's rounding aside): at most mx_maxsum.
#
# Tie-break (deterministic, independent of move order, table and pruning):
# among the children best for the mover's side, the one whose other two
# entries add up to the least (the indifferent mover hurts its opponents);
# among those, the one worst for the next seat clockwise (the next to move);
# the vector is then fixed, and among moves with that same vector the lowest
# canonical move number is the chosen move (the principal variation's).
#
# Pruning: the immediate exact-305 cutoff (nothing beats WIN for the mover),
# and Sturtevant's shallow pruning: every entry is at least mx_minv and the
# entries add up to at most mx_maxsum, so once the mover's side i has a child
# worth b to it, the parent's side j (j != i) can get at most
# mx_maxsum - b - mx_minv from this node; when that is below what j already
# has elsewhere (strictly: a tie could be chosen by the tie-break), the node is
# cut and its (inexact) vector is never used. Deep pruning is unsound for
# max^n and is not done. The table keeps exact vectors only.

cdef uint64_t MAXN_KEY = <uint64_t>0x3C6EF372FE94F82B


cdef int maxn_scale(const SolverCtx* S) noexcept nogil:
    """Internal units per reported unit of a max^n value (half points under the points objective)."""
    return MAXN_POINTS_SCALE if S.objective == OBJ_POINTS else 1


cdef inline void mx_params(SolverCtx* S) noexcept nogil:
    """The max^n constants of the current objective."""
    if S.objective == OBJ_POINTS:
        S.mx_top = MAXN_POINTS_SCALE * WIN
        S.mx_maxsum = 0
        S.mx_minv = -(MAXN_POINTS_SCALE * WIN) // 2
    else:
        S.mx_top = WIN
        S.mx_maxsum = S.eq_maxsum if S.eq_maxsum > -WIN else -WIN
        S.mx_minv = -WIN


cdef void mx_win_vec(const SolverCtx* S, int side, int* out) noexcept nogil:
    """The vector of an accepted exact 305 by `side`."""
    cdef int s
    for s in range(3):
        out[s] = S.mx_top if s == side else (-S.mx_top // 2 if S.objective == OBJ_POINTS else -WIN)


cdef inline bint mx_is_win(const SolverCtx* S, const int* v) noexcept nogil:
    return v[0] >= S.mx_top or v[1] >= S.mx_top or v[2] >= S.mx_top


cdef inline void mx_equity(const SolverCtx* S, const int* score, int starter, int* out) noexcept nogil:
    """The 3-player equity table's vector at a round's start with these scores and starter
    (a side, or 3 when the starter is drawn)."""
    cdef int s, lv, idx = 0
    for s in range(3):
        lv = score[s] // 5
        idx = idx * EQ_LEVELS + (0 if lv < 0 else (EQ_LEVELS - 1 if lv >= EQ_LEVELS else lv))
    for s in range(3):
        out[s] = S.equity[(idx * 4 + starter) * 3 + s]


cdef void mx_ended(const SolverCtx* S, const Position* c, int* out) noexcept nogil:
    """A round that has just ended without a game win: nothing more (points: the gains
    on the way are added by the callers), or the equity of the next round's start."""
    cdef int s
    cdef int score[3]
    if S.objective != OBJ_WIN:
        out[0] = out[1] = out[2] = 0
        return
    for s in range(3):
        score[s] = c.score[s]
    mx_equity(S, score, side_of(c, c.end_seat) if c.status == ST_DOMINO else 3, out)


cdef void mx_cut(const SolverCtx* S, const Position* p, int* out) noexcept nogil:
    """Vector where a depth-limited max^n search stops: the side with the lightest hand
    (ties: the first from the seat to move, clockwise) is taken to gain half the pip
    balance between the others' hands and its own (it is the likeliest to empty its
    hand and collect the others' pips, RULES §6.3), rounded to 5 and kept below 305
    (no win is ever guessed); the others gain nothing. Points: that gain in the
    vector's units; win: the equity table at those scores, the next starter drawn."""
    cdef int k, seat, h, hmin = 1 << 20, light = 0, total = 0, e, lim, s
    cdef int score[3]
    for k in range(3):
        seat = (p.to_move + k) % 3
        h = mask_pips(p.hand[seat])
        total += h
        if h < hmin:
            hmin = h
            light = seat
    e = round_to_5(((total - hmin) - hmin) // 2) if total - hmin > hmin else 0
    lim = max_nonwin_gain(p, light)
    if e > lim:
        e = lim if lim > 0 else 0
    if S.objective == OBJ_POINTS:
        for s in range(3):
            out[s] = MAXN_POINTS_SCALE * e if s == light else -(MAXN_POINTS_SCALE * e) // 2
        return
    for s in range(3):
        score[s] = p.score[s]
    score[light] += e
    mx_equity(S, score, 3, out)


cdef inline MaxnEntry* mx_probe(SolverCtx* S, uint64_t key) noexcept nogil:
    cdef MaxnEntry* b = <MaxnEntry*>&S.table[key & S.mask & ~(<uint64_t>3)]
    cdef int i
    for i in range(4):
        if (b[i].keygen >> 8) == (key >> 8):
            return &b[i]
    return NULL


cdef inline void mx_store(SolverCtx* S, uint64_t key, const int* v, int move, uint64_t work) noexcept nogil:
    """Keep an exact vector (the replacement policy of tt_store)."""
    cdef MaxnEntry* b = <MaxnEntry*>&S.table[key & S.mask & ~(<uint64_t>3)]
    cdef MaxnEntry* e = NULL
    cdef int i, w = 0, score, worst = 1 << 30
    while work > 1:
        work >>= 1
        w += 1
    for i in range(4):
        if (b[i].keygen >> 8) == (key >> 8):
            e = &b[i]
            break
    if e == NULL:
        for i in range(4):
            score = 0 if b[i].keygen == 0 else (b[i].work + (64 if (b[i].keygen & 0xFF) == S.generation else 0))
            if score < worst or (score == worst and b[i].keygen < e.keygen):
                worst = score
                e = &b[i]
    e.keygen = (key & ~(<uint64_t>0xFF)) | S.generation
    e.v[0] = <int16_t>v[0]
    e.v[1] = <int16_t>v[1]
    e.v[2] = <int16_t>v[2]
    e.move = move
    e.work = w


cdef bint mx_better(const int* v, int mv, const int* best, int best_mv, int side) noexcept nogil:
    """The tie-break order: is child vector v (move mv) preferred by `side` to best?"""
    cdef int o, ob
    if v[side] != best[side]:
        return v[side] > best[side]
    o = v[0] + v[1] + v[2] - v[side]
    ob = best[0] + best[1] + best[2] - best[side]
    if o != ob:
        return o < ob
    if v[(side + 1) % 3] != best[(side + 1) % 3]:
        return v[(side + 1) % 3] < best[(side + 1) % 3]
    return mv < best_mv


cdef int maxn_child(SolverCtx* S, const Position* p, const Position* c, int ply, int bside, int bound,
                    int* out) noexcept nogil:
    """Vector, from p's scores on, of the resolved child c of p (searched at ply + 1).
    bside/bound: the parent's side and the most it already has elsewhere (-1: none).
    Returns 1 when out is exact, 0 when the search was cut (shallow pruning: then
    out[bside] < bound, so the parent never picks it) or aborted."""
    cdef int d[3]
    cdef int s, g = 0, bc
    if c.status == ST_WON:
        mx_win_vec(S, side_of(c, c.end_seat), out)
        return 1
    d[0] = d[1] = d[2] = 0
    if S.objective == OBJ_POINTS:
        # own gain minus the mean of the others', in half points: 3 g_s - G
        for s in range(3):
            g += c.score[s] - p.score[s]
        for s in range(3):
            d[s] = 3 * (c.score[s] - p.score[s]) - g
    if c.status != ST_PLAYING:
        mx_ended(S, c, out)
    else:
        # the child's bound in its own frame: an entry is the child's plus d, or a win
        # vector as it is, so the parent's entry is at most the child's + max(d, 0)
        bc = bound
        if bside >= 0 and d[bside] > 0:
            bc = bound - d[bside]
        if not maxn_search(S, c, ply + 1, bside, bc, out):
            return 0
        if mx_is_win(S, out):
            return 1
    for s in range(3):
        out[s] += d[s]
    return 1


cdef int maxn_search(SolverCtx* S, const Position* p, int ply, int bside, int bound, int* out) noexcept nogil:
    """Max^n vector of p (its seat can place); see maxn_child for bside, bound and the result."""
    cdef uint8_t moves[MAX_MOVES]
    cdef int order[MAX_MOVES]
    cdef int credits[MAX_MOVES]
    cdef int v[3]
    cdef int best[3]
    cdef Position* children = &S.child[ply * MAX_MOVES]
    cdef Position* c
    cdef int n, i, k, x, side, gap, s0, best_move = 0xFF, have = 0
    cdef bint use_tt, last_tile
    cdef uint64_t key = 0, nodes0 = S.nodes
    cdef MaxnEntry* e
    cdef VecMean acc
    best[0] = best[1] = best[2] = 0
    x = enter_node(S, ply)
    if x != NODE_GO:
        if x == NODE_ABORTED:
            return 0
        mx_cut(S, p, out)
        return 1
    side = side_of(p, p.to_move)
    use_tt = S.use_tt and fiveup_popcount(p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]) > S.tt_skip_tiles
    if use_tt:
        key = (position_hash(S, p, ply) ^ MAXN_KEY) | <uint64_t>0x100
        fiveup_prefetch(&S.table[key & S.mask & ~(<uint64_t>3)])
    n = gen_moves(p, moves)
    s0 = end_sum(p)
    gap = TARGET - p.score[side]
    last_tile = fiveup_popcount(p.hand[p.to_move]) == 1
    for i in range(n):
        credits[i] = accepted_credit(p, s0, moves[i], gap)
        if credits[i] == gap and not last_tile and S.use_pruning:
            # an exact 305 now: the best vector the mover can have, whichever move reaches it
            mx_win_vec(S, side, out)
            return 1
    if (S.greedy_seats >> p.to_move) & 1:
        n = keep_greedy(moves, credits, n)
    if use_tt:
        e = mx_probe(S, key)
        if e != NULL:
            out[0] = e.v[0]
            out[1] = e.v[1]
            out[2] = e.v[2]
            return 1
    if (S.greedy_seats >> p.to_move) & 1 and n > 1:
        # a seat read as greedy with tied largest credits: its coin picks each concrete
        # placement alike, so the vector is their weighted average (entry by entry,
        # truncated toward zero; a win line only when every one is the same win)
        vm_start(&acc)
        for i in range(n):
            c = &children[i]
            c[0] = p[0]
            place(c, moves[i], NULL)
            resolve_turn(c)
            maxn_child(S, p, c, ply, -1, -INF, v)
            if S.aborted:
                return 0
            vm_add(&acc, v, 0, move_multiplicity(p, moves[i]))
        vm_finish(&acc, out)
        if use_tt:
            mx_store(S, key, out, moves[0], S.nodes - nodes0)
        return 1
    for i in range(n):
        insert_by_key(order, credits, i)
    for k in range(n):
        i = order[k]
        c = &children[i]
        c[0] = p[0]
        place(c, moves[i], NULL)
        resolve_turn(c)
        if not maxn_child(S, p, c, ply, side, best[side] if have else -INF, v):
            if S.aborted:
                return 0
            continue        # cut: worse for this side than `best` (strictly), never chosen
        if not have or mx_better(v, moves[i], best, best_move, side):
            best[0] = v[0]
            best[1] = v[1]
            best[2] = v[2]
            best_move = moves[i]
            have = 1
            if (S.use_pruning and bside >= 0 and bside != side
                    and S.mx_maxsum - best[side] - S.mx_minv < bound):
                out[0] = best[0]
                out[1] = best[1]
                out[2] = best[2]
                return 0
    out[0] = best[0]
    out[1] = best[1]
    out[2] = best[2]
    if use_tt:
        mx_store(S, key, best, best_move, S.nodes - nodes0)
    return 1


cdef int maxn_root(SolverCtx* S, const Position* root, Position* q, uint8_t* moves, int* vecs,
                   int* root_vec, int* chosen) noexcept nogil:
    """Every root move's exact vector (3 ints each in vecs) from the root position
    (the seat's forced draws made in q first; a seat that then cannot place has the
    single move MOVE_PASS); their number. root_vec: the root's own vector (from
    root's scores on), the tie-break's choice among the moves."""
    cdef int n = 0, i, k, best_i = -1
    cdef int d[3]
    cdef Position c
    q[0] = root[0]
    if q.status == ST_PLAYING:
        forced_draws(q, NULL)
    if q.status == ST_PLAYING:
        if can_place(q):
            n = gen_moves(q, moves)
        else:
            n = 1
            moves[0] = MOVE_PASS
    for i in range(n):
        c = q[0]
        if moves[i] == MOVE_PASS:
            pass_turn(&c)
        else:
            place(&c, moves[i], NULL)
        resolve_turn(&c)
        maxn_child(S, root, &c, -1, -1, 0, &vecs[3 * i])
        if S.aborted:
            return n
        if best_i < 0 or mx_better(&vecs[3 * i], moves[i], &vecs[3 * best_i], moves[best_i], side_of(q, q.to_move)):
            best_i = i
    chosen[0] = best_i
    if best_i >= 0:
        for k in range(3):
            root_vec[k] = vecs[3 * best_i + k]
    else:
        # no move: the round is over (or ended during the draws)
        c = q[0]
        resolve_turn(&c)
        maxn_child(S, root, &c, -1, -1, 0, root_vec)
    return n
