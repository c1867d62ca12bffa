# cython: language_level=3
from libc.stdint cimport uint8_t, uint32_t, uint64_t, int32_t
from fiveup_solver._rules cimport Position, Rng, MAX_MOVES
from fiveup_solver._solver cimport SolverCtx

cdef enum:
    METHOD_PIMC = 0            # perfect-information values of sampled worlds, averaged
    METHOD_EXPECTIMAX = 1      # sampled hands, boneyard draws as chance nodes

cdef enum:
    WS_REPEAT = 3              # a world's status: a repeated draw, valued by its world's search (not searched)

ctypedef struct DrawGroup:
    uint64_t key               # hash of the world (where the index looks for it)
    uint32_t hand[4]           # the world's hands (the observer's and any known hand as in every world)
    uint8_t bone[28]           # its boneyard's tiles still to draw, in draw order (the tail 0)
    uint32_t greedy            # the seats searched as greedy in it
    uint32_t draws             # draws of the sample that were this world, so far
    long best                  # the draw whose search stands for every draw of it (-1: none finished)
    uint64_t best_budget       # that search's node budget
    uint8_t exact              # 1: a search of it finished uncut (a larger budget changes nothing)

ctypedef struct WorldJob:
    Position base              # the observer's position; hidden hands and boneyard filled per world
    uint32_t hidden_seats      # bit s: seat s's hand is hidden from the observer
    uint8_t moves[MAX_MOVES]   # the root's canonical moves
    int n_moves                # root moves; 0: value the position itself for the observer (one value)
    int observer               # seat whose team is team 0 (the mover when there are root moves)
    uint32_t greedy_seats      # bit s: the beliefs read seat s as greedy; the search plays it so
    int method                 # METHOD_*
    uint64_t world_nodes       # node budget of one world (after its first, depth-2 pass)
    int chance_width           # expectimax: most outcomes searched at one chance node
    uint64_t seed              # world k comes from stream (seed, k)
    long n_worlds              # worlds to search (the sample budget, or the capacity under a time budget)
    long min_worlds            # a time budget never stops before this many
    double deadline            # monotonic time to stop starting worlds; 0: none
    long next_world            # the next world to start (shared, atomic)
    long stop                  # non-zero: every thread stops before its next world (Ctrl-C; atomic)
    double* values             # n_worlds x n_moves: each world's value of each root move
    uint8_t* status            # per world: 0 not searched, 1 values at a cut depth, 2 exact, WS_REPEAT
    uint64_t* nodes            # per world: nodes searched
    uint8_t* depth             # per world: the last completed depth
    uint32_t* given_hands      # NULL: worlds sampled from the counter; else n_worlds x 4 hand masks
    uint8_t* given_bone        # with given_hands: n_worlds x 28 boneyard tiles in draw order
    uint64_t* given_stream     # with given_hands: the search stream of each world (its sample index)
    uint8_t* given_greedy      # NULL, or with given_hands: per world, the seats searched as greedy there
                               # (the opponent model drawn for the world; else greedy_seats for all)
    uint32_t* given_share      # NULL, or with given_hands: per world, how many draws of the sample it
                               # stands for (a world drawn k times is searched once, with k x world_nodes)
    DrawGroup* groups          # the distinct worlds drawn so far, in the order first drawn
    long n_groups              # groups in use
    long groups_cap            # groups allocated (doubled as needed, up to max_groups)
    int32_t* group_index       # open addressing over groups by key: a group, or -1 (n_index entries)
    long n_index               # a power of two, kept above 4/3 of n_groups
    int32_t* group_of          # per drawn world: its group, or -1 (searched outside the table, it was full);
                               # read only where status != 0
    long unrecorded            # draws searched outside the table
    long max_groups            # the table's capacity in groups (MAX_GROUPS; lower only in tests)
    int group_lock             # spin lock over the groups (taken once per world, never per node)
    long searches              # world searches started (under group_lock)
    uint64_t nodes_done        # nodes of the finished world searches (under group_lock)
    double search_seconds      # time the finished world searches took, summed (one thread's rate of nodes)
    uint8_t* given_horizon     # NULL, or per world 2 bytes: a first currency's status there (1 cut,
                               # 2 exact, else none) and its depth; the second's passes follow it
    WorldJob* depth_of         # NULL, or a search of the same worlds in the same dispatch whose
                               # world w gives world w's horizon here (as given_horizon)
    uint8_t* finished          # per world: 1 once its search (or repeat) is finished (read by depth_of)

cdef int expecti_node(SolverCtx* S, const WorldJob* J, Position* p, int team, int alpha, int beta,
                      int ply, Rng* rng, int origin) noexcept nogil
cdef int expecti_chance(SolverCtx* S, const WorldJob* J, Position* p, int team, int alpha, int beta,
                        int ply, Rng* rng, int nested, int origin) noexcept nogil
cdef int mxe_after(SolverCtx* S, const WorldJob* J, const Position* p, uint8_t move, int ply, Rng* rng,
                   int* out) noexcept nogil
cdef int mxe_settle(SolverCtx* S, const WorldJob* J, Position* c, int ply, Rng* rng, int* out) noexcept nogil
cdef int mxe_node(SolverCtx* S, const WorldJob* J, Position* p, int ply, Rng* rng, int* out) noexcept nogil
cdef int mxe_chance(SolverCtx* S, const WorldJob* J, Position* p, int ply, Rng* rng, int nested,
                    int* out) noexcept nogil
