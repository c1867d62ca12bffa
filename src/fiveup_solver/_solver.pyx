# cython: language_level=3
"""Perfect-information solver: negamax alpha-beta over canonical moves.

Value of a position, for the team of the seat to move: the raw points its
team gains from accepted events until the round ends minus the other team's,
or +-WIN when an accepted event reaches exactly 305 (instead of any points).
Teams: the two sides with 2 or 4 players; with 3 players the search is
*paranoid*: the root seat against the other two together.

Forced draws and passes are resolved inline (``resolve_turn``); every node
is a seat that can place. A transposition table (4-way buckets keyed by a
64-bit hash of the compact position, the remaining boneyard order, the
scores and the seat to move) keeps lower/upper bounds and the best move.
"""
from libc.stdlib cimport calloc, malloc, free
from fiveup_solver.errors import CoreError
from libc.string cimport memset
from libc.stdint cimport uint8_t, int16_t, uint16_t, uint32_t, uint64_t
from fiveup_solver._rules cimport *
from fiveup_solver._core cimport CoreRound

# the objectives, for Python callers
POINTS = OBJ_POINTS
WIN_OBJECTIVE = OBJ_WIN
WIN_VALUE = WIN


cdef extern from *:
    """
    #include <sys/mman.h>
    /* The table in 2 MB-aligned memory, advised onto huge pages where the kernel
       allows it: random probes then miss the TLB far less. */
    static void* fiveup_alloc_table(size_t bytes) {
        void* p = NULL;
        if (posix_memalign(&p, 2u << 20, bytes) != 0) return NULL;
    #ifdef MADV_HUGEPAGE
        madvise(p, bytes, MADV_HUGEPAGE);
    #endif
        memset(p, 0, bytes);
        return p;
    }
    static inline void fiveup_prefetch(const void* p) { __builtin_prefetch(p); }
    """
    void fiveup_prefetch(const void* p) noexcept nogil
    void* fiveup_alloc_table(size_t nbytes) noexcept nogil


cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


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
    h ^= S.bone_hash[p.bone_next] ^ S.salt
    if S.objective == OBJ_WIN:
        h ^= <uint64_t>0x9FB21C651E98DF25      # the same position has other values under another objective
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
    for s in range(p.sides):
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


cdef inline TTEntry* tt_probe(SolverCtx* S, uint64_t key) noexcept nogil:
    cdef TTEntry* b = &S.table[key & S.mask & ~(<uint64_t>3)]
    cdef int i
    for i in range(4):
        if b[i].key == key:
            return &b[i]
    return NULL


cdef inline void tt_store(SolverCtx* S, uint64_t key, int lower, int upper, int move, uint64_t work) noexcept nogil:
    cdef TTEntry* b = &S.table[key & S.mask & ~(<uint64_t>3)]
    cdef TTEntry* e = NULL
    cdef int i, w = 0, score, worst = 1 << 30
    while work > 1:
        work >>= 1
        w += 1
    for i in range(4):
        if b[i].key == key:
            e = &b[i]
            break
    if e == NULL:
        for i in range(4):
            score = 0 if b[i].key == 0 else (b[i].work + (64 if b[i].generation == S.generation else 0))
            # ties go by key, not by slot: what is evicted never depends on where
            # older searches left their entries (hint searches stay deterministic)
            if score < worst or (score == worst and b[i].key < e.key):
                worst = score
                e = &b[i]
    e.key = key
    e.lower = lower
    e.upper = upper
    e.move = move
    e.generation = S.generation
    e.work = w


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
    S.bone_hash[p.bone_len] = <uint64_t>0x5851F42D4C957F2D
    k = p.bone_len - 1
    while k >= 0:
        S.bone_hash[k] = mix64(S.bone_hash[k + 1] * <uint64_t>31 + p.boneyard[k] + 1 + (<uint64_t>k << 8))
        k -= 1
    for k in range(p.bone_len + 1, 29):
        S.bone_hash[k] = 0


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
    return clampi(r + gain, -WIN, WIN)


cdef inline void insert_by_key(int* order, const int* keys, int i) noexcept nogil:
    """Insert move i into order[0..i), keeping the largest key first."""
    cdef int j = i
    while j > 0 and keys[order[j - 1]] < keys[i]:
        order[j] = order[j - 1]
        j -= 1
    order[j] = i


cdef inline bint in_endgame(const SolverCtx* S, const Position* p) noexcept nogil:
    """Boneyard empty and few tiles left: the lean endgame path takes over."""
    return (p.bone_next >= p.bone_len
            and fiveup_popcount(p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]) <= S.tt_skip_tiles)


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
        r = endgame_search(S, c, a_c, b_c, ply + 1) if in_endgame(S, c) else search(S, c, a_c, b_c, ply + 1)
        v = child_value(1, r, g)
        if r >= b_c and v < beta:
            v = beta
        elif r <= a_c and v > alpha:
            v = alpha
    else:
        # v = g - r: the window flips
        a_c = clampi(g - beta, -WIN, WIN - 1)
        b_c = clampi(g - alpha, -(WIN - 1), WIN)
        r = endgame_search(S, c, a_c, b_c, ply + 1) if in_endgame(S, c) else search(S, c, a_c, b_c, ply + 1)
        v = child_value(0, r, g)
        if r <= a_c and v < beta:
            v = beta
        elif r >= b_c and v > alpha:
            v = alpha
    return v


cdef inline int move_value(SolverCtx* S, const Position* p, uint8_t move, Position* c, int team,
                           int base, int alpha, int beta, int ply) noexcept nogil:
    """Play `move` from p into the child slot c (forced draws and passes included)
    and value it for the parent's team within the parent's window."""
    c[0] = p[0]
    place(c, move, NULL)
    resolve_turn(c)
    return child_search(S, c, team, base, alpha, beta, ply)


cdef int endgame_search(SolverCtx* S, const Position* p, int alpha, int beta, int ply) noexcept nogil:
    """The endgame path: the boneyard is empty (no draws can follow), few tiles are
    left, and a small subtree is re-searched faster than the table could be asked.
    Plain fail-soft alpha-beta ordered by immediate credit; no table, history or
    gap bounds. Blocked rounds are detected by resolve_turn in O(1)."""
    cdef uint8_t moves[MAX_MOVES]
    cdef int order[MAX_MOVES]
    cdef int keys[MAX_MOVES]
    cdef Position* children = &S.child[ply * MAX_MOVES]
    cdef Position* c
    cdef int n, i, k, x, s0, gap, team, base, v, best = -INF
    cdef bint last_tile
    x = enter_node(S, ply)
    if x != NODE_GO:
        return 0 if x == NODE_ABORTED else cut_value(S, p)
    alpha = clampi(alpha, -WIN, WIN - 1)
    beta = clampi(beta, alpha + 1, WIN)
    team = team_of(S, p, p.to_move)
    base = rel_score(S, p, team)
    n = gen_moves(p, moves)
    s0 = end_sum(p)
    gap = TARGET - p.score[side_of(p, p.to_move)]
    last_tile = fiveup_popcount(p.hand[p.to_move]) == 1
    for i in range(n):
        keys[i] = accepted_credit(p, s0, moves[i], gap)
        if keys[i] == gap and not last_tile and S.use_pruning:
            return WIN    # an exact 305 now: nothing can do better
    if (S.greedy_seats >> p.to_move) & 1:
        n = keep_greedy(moves, keys, n)
    for i in range(n):
        insert_by_key(order, keys, i)
    for k in range(n):
        i = order[k]
        v = move_value(S, p, moves[i], &children[i], team, base, alpha, beta, ply)
        if S.aborted:
            return 0
        if v > best:
            best = v
        if best > alpha:
            alpha = best
        if alpha >= beta:
            break
    return best


cdef int search(SolverCtx* S, const Position* p, int alpha, int beta, int ply) noexcept nogil:
    """Negamax value of p (its seat can place) for the team to move; fail-soft."""
    cdef uint8_t moves[MAX_MOVES]
    cdef int order[MAX_MOVES]
    cdef int credits[MAX_MOVES]
    cdef int s0, es, gap, side, g
    cdef bint use_tt
    cdef bint last_tile
    cdef int keys[MAX_MOVES]
    cdef Position* children = &S.child[ply * MAX_MOVES]
    cdef Position* c
    cdef int n, i, j, k, x, team, base, v, r, best = -INF, best_move = 0xFF, tt_move = 0xFF
    cdef int alpha0, beta0, ub = INF, lb = -INF, s, mode = 0
    cdef uint64_t key = 0, nodes0 = S.nodes
    cdef TTEntry* e
    x = enter_node(S, ply)
    if x != NODE_GO:
        return 0 if x == NODE_ABORTED else cut_value(S, p)
    team = team_of(S, p, p.to_move)
    # every value lies in [-WIN, WIN]: keep the window inside it and non-empty
    alpha = clampi(alpha, -WIN, WIN - 1)
    beta = clampi(beta, alpha + 1, WIN)
    use_tt = S.use_tt and fiveup_popcount(p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]) > S.tt_skip_tiles
    if use_tt:
        key = position_hash(S, p, ply)
        fiveup_prefetch(&S.table[key & S.mask & ~(<uint64_t>3)])
    # moves and their immediate credits while the table's bucket is on its way
    n = gen_moves(p, moves)
    s0 = end_sum(p)
    side = side_of(p, p.to_move)
    gap = TARGET - p.score[side]
    last_tile = fiveup_popcount(p.hand[p.to_move]) == 1
    for i in range(n):
        credits[i] = accepted_credit(p, s0, moves[i], gap)
        if credits[i] == gap and not last_tile and S.use_pruning:
            # an exact 305 is the best any line can do: immediate cutoff
            if use_tt:
                tt_store(S, key, WIN, WIN, moves[i], 1)
            return WIN
    if (S.greedy_seats >> p.to_move) & 1:
        n = keep_greedy(moves, credits, n)
    if use_tt:
        e = tt_probe(S, key)
        if e != NULL:
            if e.lower >= beta or e.lower == e.upper:
                return e.lower
            if e.upper <= alpha:
                return e.upper
            if e.lower > alpha:
                alpha = e.lower
            if e.upper < beta:
                beta = e.upper
            tt_move = e.move
    alpha0 = alpha
    beta0 = beta
    if S.use_pruning and S.objective == OBJ_POINTS:
        # Exact-target bounds: unless a team reaches 305, each side gains at most
        # up to its gap (credits above it are rejected) and at least min_gain.
        ub = 0
        lb = 0
        x = min_gain(p)
        for s in range(p.sides):
            if S.side_team[s] == team:
                ub += max_nonwin_gain(p, s)
                lb += x
            else:
                ub -= x
                lb -= max_nonwin_gain(p, s)
        if alpha >= ub:
            # no non-win line can beat alpha: only ask "can the team win?"
            mode = 1
            alpha = WIN - 1
            beta = WIN
        elif beta <= lb:
            # every non-losing line reaches beta: only ask "must the team lose?"
            mode = 2
            alpha = -WIN
            beta = -(WIN - 1)
    base = rel_score(S, p, team)
    for i in range(n):
        # order: table move, then immediate accepted credit, then history
        keys[i] = (credits[i] << 20) + S.history[moves[i]]
        if moves[i] == tt_move:
            keys[i] = 1 << 30
        insert_by_key(order, keys, i)
    for k in range(n):
        i = order[k]
        v = move_value(S, p, moves[i], &children[i], team, base, alpha, beta, ply)
        if S.aborted:
            return 0
        if v > best:
            best = v
            best_move = moves[i]
        if best > alpha:
            alpha = best
        if alpha >= beta:
            S.history[moves[i]] += 1 + fiveup_popcount(p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3])
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
        for s in range(p.sides):
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
        return equity_lookup(S, score, p.sides, p.sides, team)
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
    for s in range(c.sides):
        score[s] = c.score[s]
    return equity_lookup(S, score, c.sides, side_of(c, c.end_seat) if c.status == ST_DOMINO else c.sides, team)


cdef int team_value(const SolverCtx* S, const Position* p, int team) noexcept nogil:
    """Team's raw scores minus the other team's (the base every value is relative to)."""
    return rel_score(S, p, team)


cdef inline void begin_call(SolverCtx* S, uint64_t node_limit) noexcept nogil:
    """A new solve call: fresh node count and limit, a new table generation."""
    S.nodes = 0
    S.aborted = 0
    S.cut = 0
    S.node_limit = node_limit
    S.generation = (S.generation + 1) & 0xFF


cdef class SolverCore:
    """Reusable search context: the transposition table is kept between calls."""

    def __cinit__(self, tt_mb_=64.0, use_tt=True, use_pruning=True, tt_min_tiles_=-1):
        cdef uint64_t n = 4
        cdef double tt_mb
        cdef int tt_min_tiles = checked_int(tt_min_tiles_, -1, 28, "tt_min_tiles")
        self.ctx.table = NULL
        self.ctx.child = NULL
        if isinstance(tt_mb_, bool) or not isinstance(tt_mb_, (int, float)) or not 0.0 < tt_mb_ <= 65536.0:
            # also refuses NaN; the table is a power of two up to this size
            raise CoreError(f"tt_mb must be a number in (0, 65536], not {tt_mb_!r}"[:200])
        tt_mb = tt_mb_
        while (n * 2) * sizeof(TTEntry) <= tt_mb * 1024 * 1024:
            n *= 2
        memset(&self.ctx, 0, sizeof(SolverCtx))
        self.n_entries = n
        self.ctx.table = <TTEntry*>fiveup_alloc_table(n * sizeof(TTEntry))
        self.ctx.child = <Position*>malloc(MAX_PLY * MAX_MOVES * sizeof(Position))
        if self.ctx.table == NULL or self.ctx.child == NULL:
            raise MemoryError("cannot allocate the transposition table")
        self.ctx.mask = n - 1
        self.ctx.use_tt = bool(use_tt)
        self.ctx.use_pruning = bool(use_pruning)
        self.ctx.tt_min_tiles = tt_min_tiles
        self.ctx.max_ply = MAX_PLY

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
        self.ctx.nodes = 0
        self.ctx.aborted = 0
        self.ctx.cut = 0
        self.ctx.node_limit = 0

    def __dealloc__(self):
        free(self.ctx.table)
        free(self.ctx.child)

    def set_objective(self, objective_, table=None, players_=None):
        """Values of later searches: OBJ_POINTS (0, the default), or OBJ_WIN (1) with
        `table`, a contiguous int16 array for `players` (see SolverCtx.equity):
        EQ_LEVELS ** sides x (sides + 1) x sides values strictly inside (-WIN, WIN)."""
        cdef int objective = checked_int(objective_, OBJ_POINTS, OBJ_WIN, "objective")
        cdef const int16_t[::1] view
        cdef int players, sides, i
        cdef long need
        if objective == OBJ_POINTS:
            self.ctx.objective = OBJ_POINTS
            self.ctx.equity = NULL
            self.ctx.eq_players = 0
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
        for known, known_players, known_view in self.equity_checked:
            if known is table and known_players == players:
                # a read-only table checked before: its values cannot have changed
                self.equity_owner = known_view
                self.equity_id = table
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
        for i in range(need):
            if not -WIN < view[i] < WIN:
                raise CoreError(f"equity table value {i} is {view[i]}, outside (-{WIN}, {WIN})")
        flags = getattr(table, "flags", None)
        if flags is not None and not flags.writeable and len(self.equity_checked) < 8:
            self.equity_checked.append((table, players, view))
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

    @property
    def table_entries(self):
        return self.n_entries

    def clear(self):
        memset(self.ctx.table, 0, self.n_entries * sizeof(TTEntry))

    def solve_moves(self, CoreRound rnd not None, node_limit_=0):
        """Exact value of every root canonical move of the round's current position.

        Returns (root_value, [(move, value), ...], nodes, aborted). The seat's
        forced draws are made first; a seat that then cannot place has the
        single move MOVE_PASS. With no move at all (the round ended during the
        draws, or was already over) the list is empty.
        """
        cdef Position root = rnd.frames[rnd.depth].pos
        cdef Position q, c
        cdef uint8_t moves[MAX_MOVES]
        cdef int n, i, team, base, r, best = -INF
        cdef int values[MAX_MOVES]
        cdef SolverCtx* S = &self.ctx
        cdef uint64_t node_limit = checked_u64(node_limit_, "node_limit")
        self.check_players(root.players)
        begin_call(S, node_limit)
        with nogil:
            set_root(S, &root)
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
            for i in range(n):
                c = q
                if moves[i] == MOVE_PASS:
                    pass_turn(&c)
                else:
                    place(&c, moves[i], NULL)
                resolve_turn(&c)
                values[i] = terminal_or_search(S, &c, team, rel_score(S, &c, team) - base)
                if values[i] > best:
                    best = values[i]
        if n == 0:
            best = terminal_or_search(S, &q, team, rel_score(S, &q, team) - base) if q.status != ST_PLAYING else 0
        return best, [(moves[i], values[i]) for i in range(n)], S.nodes, bool(S.aborted)

    def value(self, CoreRound rnd not None, node_limit_=0):
        """Value of the current position for the seat to move (root window only)."""
        cdef Position q = rnd.frames[rnd.depth].pos
        cdef SolverCtx* S = &self.ctx
        cdef uint64_t node_limit = checked_u64(node_limit_, "node_limit")
        cdef int v
        self.check_players(q.players)
        begin_call(S, node_limit)
        with nogil:
            set_root(S, &q)
            resolve_turn(&q)
            v = terminal_or_search(S, &q, 0, rel_score(S, &q, 0) - rel_score(S, &rnd.frames[rnd.depth].pos, 0))
        return v, S.nodes, bool(S.aborted)

    def debug_window(self, CoreRound rnd not None, alpha_, beta_, node_limit_=0):
        """One search of the current (resolved) position with a given window: (result, nodes)."""
        cdef Position q = rnd.frames[rnd.depth].pos
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

    def best_move(self, CoreRound rnd not None):
        """Best canonical move stored for the current position (after its forced draws), or None."""
        cdef Position q = rnd.frames[rnd.depth].pos
        cdef TTEntry* e
        forced_draws(&q, NULL)
        if q.status != ST_PLAYING or not can_place(&q) or not self.ctx.use_tt:
            return None
        e = tt_probe(&self.ctx, position_hash(&self.ctx, &q, 0))
        return None if e == NULL or e.move == 0xFF else e.move

    def principal_variation(self, CoreRound rnd not None, max_len=64, node_limit_=0):
        """A line of best play from the current position: canonical moves, with
        MOVE_PASS for forced passes (forced draws are implied).

        At every step the exact value V of the position is known and the first
        move (table move first) whose exact value equals V is played."""
        cdef Position q = rnd.frames[rnd.depth].pos
        cdef Position c, cr
        cdef uint8_t moves[MAX_MOVES]
        cdef SolverCtx* S = &self.ctx
        cdef int n, i, team, best, v, base, first
        cdef TTEntry* e
        cdef uint64_t node_limit = checked_u64(node_limit_, "node_limit")
        checked_int(max_len, 0, 2 ** 31 - 1, "max_len")
        self.check_players(q.players)
        out = []
        begin_call(S, node_limit)
        set_root(S, &q)
        while len(out) < max_len:
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
            if S.use_tt:
                e = tt_probe(S, position_hash(S, &q, 0))
                if e != NULL:
                    first = e.move
            with nogil:
                cr = q
                best = mtdf(S, &cr, 0)     # exact value of this position for its mover
                # the table move first, then the others: the first that keeps the value
                for i in range(n):
                    if moves[i] == first and i > 0:
                        moves[i] = moves[0]
                        moves[0] = first
                for i in range(n):
                    c = q
                    place(&c, moves[i], NULL)
                    resolve_turn(&c)
                    v = terminal_or_search(S, &c, team, rel_score(S, &c, team) - base)
                    if v == best or S.aborted:
                        first = moves[i]
                        break
            if S.aborted:
                break
            out.append(first)
            place(&q, first, NULL)
        return out, S.nodes


cdef int mtdf(SolverCtx* S, const Position* p, int guess) noexcept nogil:
    """Exact value by zero-window searches converging on it (MTD(f)); the table
    carries the bounds from one search to the next."""
    cdef int g = clampi(guess, -WIN, WIN), lower = -WIN, upper = WIN, beta
    if not S.use_tt:
        return search(S, p, -INF, INF, 0)
    while lower < upper:
        beta = g + 1 if g == lower else g
        g = search(S, p, beta - 1, beta, 0)
        if S.aborted:
            return 0
        if g < beta:
            upper = g
        else:
            lower = g
    return g


cdef int terminal_or_search(SolverCtx* S, const Position* c, int team, int gain) noexcept nogil:
    """Exact value, for `team`, of a resolved child position reached with an immediate gain."""
    cdef int r
    if c.status == ST_WON:
        return WIN if team_of(S, c, c.end_seat) == team else -WIN
    if c.status != ST_PLAYING:
        return ended_value(S, c, team, gain)
    r = mtdf(S, c, 0)
    return child_value(team_of(S, c, c.to_move) == team, r, gain)
