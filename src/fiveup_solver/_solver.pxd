# cython: language_level=3
from libc.stdint cimport uint8_t, int16_t, uint16_t, uint32_t, uint64_t
from fiveup_solver._rules cimport Position, end_sum_after, placement_credit, side_of, MAX_MOVES, TARGET

cdef enum:
    MAX_PLY = 64               # turns in one round never exceed 28 placements (+ slack)
    HISTORY_CAP = 1 << 28      # history counts are halved when one reaches this (age_history): + 29 at a
                               # cutoff, they stay far from an int's limit
    WIN = 1000                 # value of reaching exactly 305 (RULES §6.1), beyond any points
    INF = 30000
    OBJ_POINTS = 0             # values: raw points of the rest of the round (+-WIN for 305)
    OBJ_WIN = 1                # values: WIN x (P(team wins the game) - P(other team wins)) at the round's end
    EQ_LEVELS = 61             # equity tables: score levels 0, 5, ..., 300 raw per side

ctypedef struct TTEntry:
    uint64_t key               # full 64-bit position hash; 0 marks an empty slot
    int16_t lower              # the value is >= lower
    int16_t upper              # the value is <= upper
    uint8_t move               # best canonical move found, 0xFF if none
    uint8_t generation         # solve call that stored it (older entries are replaced first)
    uint16_t work              # log2 of the subtree's node count (bigger work is kept)

ctypedef struct MaxnEntry:
    # a max^n entry, in the same 16 bytes and table as TTEntry (its keys never meet
    # theirs: a max^n key is mixed with its own constant). Only exact vectors are kept.
    uint64_t keygen            # the key's bits 8..63 (bit 8 set: never 0) | generation in bits 0..7
    int16_t v[3]               # the exact value vector, one entry per side (internal units)
    uint8_t move               # the chosen canonical move (the tie-break's), 0xFF if none
    uint8_t work               # log2 of the subtree's node count (bigger work is kept)

ctypedef struct SolverCtx:
    TTEntry* table             # 4-way buckets, n_entries a power of two
    uint64_t mask              # n_entries - 1
    uint64_t nodes             # nodes searched since the counter was reset
    uint64_t node_limit        # 0 = none; otherwise stop (aborted = 1) after this many
    uint64_t next_check        # the node count at which enter_node next looks at the limit, the stop flag and
                               # Ctrl-C (node_checks); 0 whenever any of them changes: the next node looks
    int aborted                # a node limit was hit: the result is not exact
    int use_tt                 # transposition table on/off (for tests and benchmarks)
    int use_pruning            # exact-target pruning on/off (the gap bounds: in hint worlds only)
    int solver_call            # 1: a Solver call (begin_call): exact, no depth limit: the gap bounds are
                               # skipped and win-objective MTD(f) may step; 0: a hint world (fresh_context):
                               # its budget decides how deep it gets, so it is searched as before (mtdf)
    int tt_min_tiles           # near the end (this many tiles in hands or fewer) the table is skipped:
                               # re-searching a tiny subtree is cheaper than a cache miss; -1: by players
    int tt_skip_tiles          # the threshold in force for the current search
    uint8_t generation         # current solve call
    int side_team[4]           # team (0 or 1) of each side: the root's team is 0
    uint64_t bone_hash[29]     # hash of the boneyard's remaining draw order, per next index
    Position* child            # MAX_PLY x MAX_MOVES child positions (no allocation per node)
    int history[256]           # per canonical move: how often it caused a cutoff (ordering); all halved
                               # whenever one reaches history_cap (age_history)
    int history_cap            # HISTORY_CAP (lower only in tests)
    int points_order           # a win search that follows an exact points solve of the same root in
                               # this table (solve_moves' points_values): where it has no table move of
                               # its own, the points search's best move comes first (0: begin_call,
                               # fresh_context)
    int max_ply                # depth limit: a search reaching this ply is cut (MAX_PLY: none)
    int cut                    # a depth-limited search was cut somewhere: its values are not exact
    uint64_t salt              # mixed into every key: searches under different salts never share entries
    int objective              # OBJ_POINTS or OBJ_WIN
    const int16_t* equity      # OBJ_WIN: per score state x starter (side, or `sides` = drawn) x side s,
                               # WIN x (P(s wins the game) - P(another side wins)); owned by SolverCore
    int eq_players             # the player count the equity table is for
    int root_side              # side of the root's seat (team 0)
    uint32_t greedy_seats      # bit s: seat s is read as greedy (beliefs): only its largest-credit
                               # placements are searched, ties averaged (its coin); 0 (set_root) =
                               # every seat plays its best
    int search_maxn            # option: 3-player positions are searched by max^n (else paranoid)
    int maxn                   # the current search is max^n (search_maxn and 3 players; set_root)
    int mx_top                 # max^n: a side's value for reaching 305 (internal units; see MAXN_*)
    int mx_maxsum              # max^n: an upper bound of the sum of a value vector's 3 entries
    int mx_minv                # max^n: a lower bound of every entry of a value vector
    int eq_maxsum              # the largest sum of the 3 sides' values in the 3-player equity table
    int* stop                  # a helper thread's stop flag (set by the main thread; NULL: none); read
                               # every STOP_CHECK_NODES nodes
    uint32_t order_seed        # 0: the plain move order; else a helper thread's own tie order (Lazy SMP)
    SolverCtx* helpers         # Lazy SMP: n_helpers contexts searching with this one (same table), or NULL
    int n_helpers              # helper threads of a Solver call's large searches (0: this thread alone)
    int stop_flag              # the main context's: set when its search is done (helpers' stop points here)
    uint64_t helper_nodes      # of `nodes`, those the helper threads searched (since begin_call)
    int lean_leaves            # a mover's last tile valued without playing it out (last_tile_search, domino_value):
                               # 1; 0 only in tests, which check that it changes no value and no node count
    int reply_order            # Solver calls: moves where the table is asked ordered by credit less the next
                               # seat's best reply (reply_credit): 1; 0 only in tests (the same values)
    int watch_signals          # Solver calls (begin_call): every 65,536 nodes, a look for Ctrl-C (it reaches
                               # the main thread only); 0 in hint worlds (their own loop looks) and helpers
    int interrupted            # Ctrl-C was seen: the search stopped (aborted = 1), the caller raises it
    int stop_asked             # SolverCore.stop() (any thread): a Solver call's search stops at its next look
                               # for Ctrl-C, and the call raises SearchStopped; cleared as a Solver call begins

cdef extern from *:
    """
    /* A flag shared between threads: one thread sets it, others poll it. */
    static inline int fiveup_load_flag(const int* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void fiveup_store_flag(int* p, int v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    """
    int load_flag "fiveup_load_flag" (const int* p) noexcept nogil
    void store_flag "fiveup_store_flag" (int* p, int v) noexcept nogil

ctypedef struct HelperJob:
    SolverCtx* ctx             # the helper's own context (its table is the main context's)
    Position root              # the resolved position every thread searches

cdef enum:
    NODE_GO = 0                # search this node
    NODE_ABORTED = 1           # the node limit is reached: the result is not usable
    NODE_CUT = 2               # the depth limit is reached: value it with cut_value

cdef enum:
    SIGNAL_CHECK_NODES = 65536 # a Solver call looks for Ctrl-C this often (about 4 ms of search)
    STOP_CHECK_NODES = 1024    # a helper thread looks at its stop flag this often

cdef int node_checks(SolverCtx* S) noexcept nogil

cdef inline int enter_node(SolverCtx* S, int ply) noexcept nogil:
    """Count a node and say whether the search goes on here (one place for every search).
    One compare a node: the node limit, a helper's stop flag and Ctrl-C are looked at
    only when the count reaches next_check (node_checks)."""
    S.nodes += 1
    if S.nodes >= S.next_check and node_checks(S):
        S.aborted = 1
        return NODE_ABORTED
    if ply >= S.max_ply:
        S.cut = 1
        return NODE_CUT
    return NODE_GO

cdef inline int credit_within(int credit, int gap) noexcept nogil:
    """A placement credit as accepted against the mover's distance to 305, `gap` (0 if
    above it; without a branch)."""
    return credit * (credit <= gap)

cdef inline int accepted_credit(const Position* p, int s0, uint8_t move, int gap) noexcept nogil:
    """The placement credit a move earns now, from the end sum s0 (0 if none or if
    rejected above 305: `gap` is the mover's distance to it)."""
    return credit_within(placement_credit(end_sum_after(p, s0, move)), gap)

cdef inline int keep_greedy(uint8_t* moves, int* credits, int n) noexcept nogil:
    """A seat read as greedy places for the largest accepted credit: keep only those
    moves, in their order; their number. Which tie it picks is its own coin: the
    searches average the moves kept (greedy_chance, expecti_greedy, mxe_greedy)."""
    cdef int i, k = 0, top = -1
    for i in range(n):
        if credits[i] > top:
            top = credits[i]
    for i in range(n):
        if credits[i] == top:
            moves[k] = moves[i]
            credits[k] = credits[i]
            k += 1
    return k

cdef inline int keep_greedy_placements(const Position* p, uint8_t* moves, int n) noexcept nogil:
    """keep_greedy with the credits computed here (the placements of a drawn tile)."""
    cdef int credits[MAX_MOVES]
    cdef int i, gap = TARGET - p.score[side_of(p, p.to_move)]
    for i in range(n):
        credits[i] = accepted_credit(p, p.ends, moves[i], gap)
    return keep_greedy(moves, credits, n)

cdef inline long trunc_div(long x, long d) noexcept nogil:
    """x / d truncated toward zero (d > 0): an average that is the same for either team's sign."""
    return x // d if x >= 0 else -((-x) // d)

cdef inline void star1_window(int alpha, int beta, long total, long done, long rest, int w,
                              int* lo_w, int* hi_w) noexcept nogil:
    """Star1 (Ballard): the window for the next outcome, of weight w, of an average over
    `total` weights whose values lie in [-WIN, WIN]: `done` the weighted sum so far, `rest`
    the weight still to come. At or below lo_w the average is at most alpha whatever the
    rest, at or above hi_w at least beta; both stay inside [-WIN, WIN] and lo_w < hi_w
    while star1_settled has not decided the average."""
    cdef long x = <long>alpha * total - done - rest * WIN
    # v w <= x: v <= floor(x / w) (C division truncates: floor by hand)
    x = x // w if x >= 0 else -((-x + w - 1) // w)
    lo_w[0] = <int>(-WIN if x < -WIN else (WIN if x > WIN else x))
    # v w >= x: v >= ceil(x / w)
    x = <long>beta * total - done + rest * WIN
    x = (x + w - 1) // w if x >= 0 else -((-x) // w)
    hi_w[0] = <int>(-WIN if x < -WIN else (WIN if x > WIN else x))

cdef inline bint star1_settled(long done, long rest, long total, int alpha, int beta, int* out) noexcept nogil:
    """After an outcome: is the average decided against the window whatever the rest
    is worth? Then out is its bound (fail-soft: the bound itself, not alpha or beta: a
    caller recognises a win line only by a value of exactly +-WIN)."""
    cdef long low = done - rest * WIN, high = done + rest * WIN
    if low >= <long>beta * total:
        out[0] = <int>trunc_div(low, total)
        return 1
    if high <= <long>alpha * total:
        out[0] = <int>trunc_div(high, total)
        return 1
    return 0

ctypedef struct VecMean:
    # a weighted average of max^n vectors, entry by entry (maxn_search, mxe_greedy, mxe_chance)
    long sums[3]               # weighted sums of the entries
    long weight                # the weights added
    int first[3]               # the first vector added
    int all_win                # every vector added so far is a win line, the same one


cdef inline void vm_start(VecMean* a) noexcept nogil:
    """An empty average (every field set: the compiler cannot see that vm_add fills them)."""
    a.weight = 0
    a.all_win = 0
    a.sums[0] = a.sums[1] = a.sums[2] = 0
    a.first[0] = a.first[1] = a.first[2] = 0


cdef inline void vm_add(VecMean* a, const int* v, int win, long weight) noexcept nogil:
    cdef int k
    if a.weight == 0:
        a.first[0] = v[0]
        a.first[1] = v[1]
        a.first[2] = v[2]
        a.all_win = win
        a.sums[0] = a.sums[1] = a.sums[2] = 0
    elif not win or v[0] != a.first[0] or v[1] != a.first[1] or v[2] != a.first[2]:
        a.all_win = 0
    for k in range(3):
        a.sums[k] += weight * v[k]
    a.weight += weight


cdef inline int vm_finish(const VecMean* a, int* out) noexcept nogil:
    """The average into out (each entry truncated toward zero); 1 for a win line (every
    vector the same win, which is then the average itself)."""
    cdef int k
    for k in range(3):
        out[k] = <int>trunc_div(a.sums[k], a.weight)
    return a.all_win

cdef enum:
    MAXN_POINTS_SCALE = 2      # max^n points values are kept in half raw points (the mean of two gains)

# A second currency's iterative deepening follows its first currency's `horizon` there
# (a hint's world, an alphamu leaf): +d, the budget cut the first at pass d; -d, the
# first solved it at pass d; 0, none (_hint.search_world, _alphamu.amu_leaf).
cdef inline int signed_horizon(int status, int depth) noexcept nogil:
    """A first currency's (status, depth) there as a `horizon`: status 1 (cut), +depth;
    2 (solved), -depth; anything else, 0."""
    return depth if status == 1 else (-depth if status == 2 else 0)


cdef inline void begin_pass(SolverCtx* S, int depth, uint64_t node_limit) noexcept nogil:
    """One pass of iterative deepening: to `depth` plies, under `node_limit` (0: none)."""
    S.max_ply = depth
    S.cut = 0
    S.node_limit = node_limit
    S.next_check = 0


cdef inline bint horizon_skips(int depth, int horizon) noexcept nogil:
    """A pass to `depth` after the first one is skipped: the first currency needed a
    deeper pass, and the shallower ones would only order the moves."""
    return depth < -horizon


cdef inline bint horizon_stops(bint cut, int depth, int horizon) noexcept nogil:
    """No pass after the one to `depth`: it solved the world, or it reached the depth
    at which the budget cut the first currency (both look as far ahead)."""
    return not cut or (horizon > 0 and depth >= horizon)


cdef inline bint horizon_redo(bint aborted, bint skipped, int depth, int horizon) noexcept nogil:
    """The budget ran out before the pass that solved the first currency, after passes
    were skipped: the skipped passes were needed, the world is searched again with all."""
    return aborted and skipped and depth < -horizon


cdef int search(SolverCtx* S, const Position* p, int alpha, int beta, int ply) noexcept nogil
cdef int endgame_search(SolverCtx* S, const Position* p, int alpha, int beta, int ply) noexcept nogil
cdef void set_root(SolverCtx* S, const Position* p) noexcept nogil
cdef void set_root_side(SolverCtx* S, const Position* p, int root_side) noexcept nogil
cdef int mtdf(SolverCtx* S, const Position* p, int guess) noexcept nogil
cdef int terminal_or_search(SolverCtx* S, const Position* c, int team, int gain) noexcept nogil
cdef int cut_value(const SolverCtx* S, const Position* p) noexcept nogil
cdef int team_value(const SolverCtx* S, const Position* p, int team) noexcept nogil
cdef int ended_value(const SolverCtx* S, const Position* c, int team, int gain) noexcept nogil
cdef int maxn_child(SolverCtx* S, const Position* p, const Position* c, int ply, int bside, int bound,
                    int* out) noexcept nogil
cdef int maxn_search(SolverCtx* S, const Position* p, int ply, int bside, int bound, int* out) noexcept nogil
cdef int maxn_scale(const SolverCtx* S) noexcept nogil
cdef void mx_win_vec(const SolverCtx* S, int side, int* out) noexcept nogil
cdef void mx_ended(const SolverCtx* S, const Position* c, int* out) noexcept nogil
cdef void mx_cut(const SolverCtx* S, const Position* p, int* out) noexcept nogil
cdef bint mx_better(const int* v, int mv, const int* best, int best_mv, int side) noexcept nogil

cdef class SolverCore:
    cdef SolverCtx ctx
    cdef uint64_t n_entries
    cdef uint64_t searches       # independent searches started (each gets its own salt)
    cdef object equity_owner     # keeps the buffer under ctx.equity alive
    cdef object equity_id        # what set_objective was given (for objective())
    cdef object equity_checked   # [(table, players, view, maxsum)]: immutable tables already checked
    cdef int threads             # search threads of one Solver call (1: this context alone)
    cdef bint busy               # a thread is searching with this context (claim / release)
    cdef void fresh_context(self) noexcept nogil
    cdef int check_players(self, int players) except -1
    cdef int check_idle(self) except -1
    cdef int claim(self) except -1
    cdef void release(self) noexcept
    cdef object _set_objective(self, object objective_, object table, object players_)
    cdef object _solve_moves(self, object rnd, object node_limit_, object points_values, object guesses)
    cdef object _value(self, object rnd, object node_limit_, object guess)
    cdef object _debug_window(self, object rnd, object alpha_, object beta_, object node_limit_)
    cdef object _maxn_moves(self, object rnd, object node_limit_)
    cdef object _principal_variation(self, object rnd, object max_len, object node_limit_, object value_)


cdef SolverCore checked_core(object core)
