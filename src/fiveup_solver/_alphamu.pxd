# cython: language_level=3
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from fiveup_solver._rules cimport Position, MAX_MOVES
from fiveup_solver._solver cimport SolverCore

cdef enum:
    AMU_MAX_WORLDS = 256       # worlds of one alphamu search (vectors have one entry per world)
    AMU_MAX_FRONT = 64         # the largest front cap (vectors kept per front)
    AMU_MAX_DEPTH = 8          # the largest depth M (the seat's later decisions chosen jointly)

ctypedef struct AmuJob:
    # one alphamu computation: the worlds, the root moves, the budgets and the results
    Position* roots            # n_worlds positions: the observer's position with each world's deal
    uint8_t* greedy            # per world: bit s, seat s is searched as greedy there (model beliefs)
    double* weights            # per world: its weight (positive; equal for uniform beliefs)
    uint32_t* shares           # per world: the sampled draws it stands for (its leaves' budget multiplier)
    int n_worlds               # worlds (entries of every value vector)
    int observer               # the seat to move at the root, whose decisions are joint
    uint8_t moves[MAX_MOVES]   # the root's canonical moves
    int n_moves                # root moves
    int depth                  # M: the seat's later decisions chosen once per information set
    int front_cap              # most vectors kept per front (the best by weighted mean)
    uint64_t leaf_nodes        # node budget of one leaf search (after its first, depth-1 pass)
    double deadline            # monotonic time at which an unfinished search gives up; 0: none
    long next_move             # the next root move to search (shared, atomic)
    int aborted                # the deadline passed: the results are incomplete
    int overflow               # a thread's pools were too small: the results are incomplete
    int* best                  # n_moves x n_worlds: per root move, its front's best vector
    double* value              # per root move: the best weighted mean over its front
    int* front_size            # per root move: vectors in its front
    uint64_t* leaves           # per root move: leaf searches
    uint64_t* nodes            # per root move: solver nodes over its leaves
    uint8_t* done              # per root move: 1 when its front is complete
    uint8_t** leaf_record      # per root move: each leaf's (status, depth) in walk order (see amu_leaf)
    long* record_len           # per root move: leaves recorded (recording stops if memory runs out)
    long* record_cap           # per root move: leaves its record has room for
    uint8_t* finished          # per root move: 1 once a thread is through with it (done or not; atomic)
    AmuJob* follow             # a first currency's search of the same worlds and moves, whose leaf horizons
                               # this one follows (the walk is the same whatever the values); NULL: none

ctypedef struct AmuKey:
    # one candidate vector of a front being reduced
    double mean                # its weighted mean over the node's worlds
    long index                 # its place among the candidates (ties keep the earlier)

ctypedef struct AmuStack:
    # one thread's preallocated pools, used as stacks by the recursion (no allocation per node)
    Position* pos              # world positions of the open nodes
    long pos_top               # first free position
    long pos_cap               # positions in the pool
    int* vec                   # value vectors (n_worlds ints each) of the open fronts
    long vec_top               # first free int
    long vec_cap               # ints in the pool
    int* idx                   # world index lists and signatures of the open nodes
    long idx_top               # first free int
    long idx_cap               # ints in the pool
    AmuKey* keys               # scratch: a front's candidates, to sort by weighted mean
    long keys_cap              # entries of keys
    int* kept                  # scratch: the candidates a reduction keeps
    uint64_t leaves            # leaf searches of the current root move
    uint64_t nodes             # solver nodes of the current root move
    int move                   # the current root move (its leaves' record)

cdef long amu_walk(SolverCore core, AmuJob* J, AmuStack* T, int* ws, int k, Position* P,
                   int r) noexcept nogil
cdef long amu_fold_child(SolverCore core, AmuJob* J, AmuStack* T, long off, long a, const int* ws, int k,
                         int* sub, const int* wt, int ks, Position* subp, int r) noexcept nogil
cdef int amu_leaf(SolverCore core, AmuJob* J, AmuStack* T, int w, const Position* after) noexcept nogil
cdef long amu_reduce(AmuJob* J, AmuStack* T, long off, long n, const int* ws, int k) noexcept nogil
cdef long amu_min_product(AmuJob* J, AmuStack* T, long off_r, long a, long b, const int* ws, int k,
                          const int* sub, const int* wt, int ks) noexcept nogil
