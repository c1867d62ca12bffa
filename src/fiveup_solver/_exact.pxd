# cython: language_level=3
"""The exact yardstick's searches in C (``_exact.pyx``): the belief-state search against greedy
and the Pareto fronts against best defence."""
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from fiveup_solver._rules cimport Position

cdef enum:
    MAX_PATH = 512          # bytes of what the seat observes between two of its decisions

ctypedef struct Leaf:
    int obs                 # id of what the seat observed on the way (ids of one move's walk)
    int world               # world id of the position reached (the seat to place there)
    int origin              # index, in the walked belief state, of the world it came from
    int child               # index of `world` in the belief state of its group (set when grouped)
    double prob             # probability of reaching it from the origin world

ctypedef struct MemoEntry:
    uint64_t hash           # hash of the belief state (world ids and rounded probabilities)
    long long at            # offset of its ids, probabilities and values in the memo arena
    int n                   # worlds of the belief state

ctypedef struct BeliefSearch:
    int seat                # the seat whose information sets are searched
    int side                # its side
    int objective           # 0 points, 1 win
    int players             # seats of the round
    int sides               # sides of the round
    int root_score[4]       # scores at the root (the points objective's origin)
    const double* equity    # P(side wins) per score state (levels) x starter slot (sides + 1: drawn)
    long long nodes         # world positions walked
    int interrupted         # Ctrl-C reached the main thread (interrupt_seen): stopped, to be raised
    int poll                # nodes to go before the next look for Ctrl-C
    const int* stop         # a StopFlag's flag, looked at with Ctrl-C (NULL: none)
    int stopped             # the flag was seen set: stopped, SearchStopped to be raised
    long long limit         # stop (aborted) past this many
    int aborted             # the node limit was passed
    int ordered             # 1: world positions keep the boneyard's order (sampled draws: every draw is
                            # the next tile of the world's order); 0: the boneyard is a set, draws chance
    int failed              # memory ran out
    # the world pool: distinct world positions, with a hash index
    Position* worlds        # world positions by id
    uint8_t* chooser        # per world id: 1 when it counts in the seat's choice (0: evaluated only)
    int n_worlds            # worlds in the pool
    int cap_worlds          # capacity of the pool
    int* world_slots        # open-addressing index: world id + 1, 0 empty
    int world_slot_cap      # slots (a power of two)
    # the memo of belief states: key (ids, probabilities) and the per-world values
    int* memo_ids           # world ids of the stored belief states
    double* memo_probs      # their probabilities
    double* memo_vals       # the value of each world of a belief state under the chosen strategy
    long long memo_n        # entries of the three arrays used
    long long memo_cap      # their capacity
    MemoEntry* memo_slots   # open-addressing table of the stored belief states (n 0: empty)
    long long memo_slot_cap # slots (a power of two)
    long long memo_count    # belief states stored
    # scratch stacks (indices, never pointers, across a call that may grow them)
    Leaf* leaves            # the walks' arrivals at the seat's next decisions
    long long leaf_n        # used
    long long leaf_cap      # capacity
    int* node_ids           # belief states being searched: world ids
    double* node_probs      # and their probabilities
    long long node_n        # used
    long long node_cap      # capacity
    double* vec             # per-world value vectors being computed
    long long vec_n         # used
    long long vec_cap       # capacity
    # what the seat observed on a walk, interned per move (a generation-stamped index)
    uint8_t* obs_bytes      # the observation sequences, back to back
    long long obs_bytes_n   # used
    long long obs_bytes_cap # capacity
    long long* obs_at       # per observation id: its offset in obs_bytes
    int* obs_len            # its length
    int obs_n               # ids given this move
    int obs_cap             # capacity of obs_at and obs_len
    int* obs_slots          # open-addressing index: id + 1
    int* obs_stamp          # generation of each slot (older: empty)
    int obs_slot_cap        # slots (a power of two)
    int obs_gen             # current generation
    uint8_t path[MAX_PATH]  # the walk's observations so far
    int path_n              # bytes used

ctypedef struct FrontEntry:
    uint64_t hash           # hash of the node's world ids (0 slots are empty when n is 0)
    long long ids_at        # offset of its world ids in the memo's id arena
    long long at            # offset of its front in the front arena (count x n values, vector by vector)
    int n                   # worlds of the node (0: an empty slot)
    int count               # vectors of its front

ctypedef struct DefenceSearch:
    BeliefSearch pool       # the world pool (worlds, world_slots) and the terminal values' fields
    long long nodes         # memo misses, alpha-beta nodes, front vectors and their dominance tests,
                            # counted as the Python search counts them
    long long limit         # stop (aborted) past this many
    int aborted             # 0 running, 1 a node past the limit, 2 front vectors or tests past it
    int failed              # memory ran out
    int interrupted         # Ctrl-C reached the main thread (interrupt_seen): stopped, to be raised
    int poll                # nodes to go before the next look for Ctrl-C
    int stopped             # pool.stop was seen set: stopped, SearchStopped to be raised
    # the memo: a node (its world ids, in the order of the positions' bytes) -> its Pareto front
    int* memo_ids           # world ids of the stored nodes, back to back
    long long memo_ids_n    # used
    long long memo_ids_cap  # capacity
    double* arena           # the stored fronts' values, back to back
    long long arena_n       # used
    long long arena_cap     # capacity
    FrontEntry* slots       # open-addressing table of the stored nodes
    long long slot_cap      # slots (a power of two)
    long long memo_count    # nodes stored
    # scratch stacks (offsets, never pointers, across a call that may grow them)
    int* ids                # world ids, index maps and flags of the nodes being searched
    long long ids_n         # used
    long long ids_cap       # capacity
    double* vecs            # front vectors being built
    long long vecs_n        # used
    long long vecs_cap      # capacity
    # the Pareto reduction's scratch (never used across a recursive call)
    int* order              # vector indices in reduction order
    int* order_tmp          # the merge sort's buffer
    double* sums            # each vector's sum
    long long order_cap     # capacity of the three
    double* kept            # the kept vectors, before they are copied back
    long long kept_cap      # capacity
    long long stat[10]      # memo misses by kind (see STAT_* in _exact.pyx), for the tests
    # one-world nodes with no draw to come, by alpha-beta (minimax set): bounds per world id
    int minimax             # 1: such nodes searched by alpha-beta; 0: by fronts like any other
    double* ab_lower        # per world id: its value is at least this (-inf: unknown)
    double* ab_upper        # per world id: its value is at most this (+inf: unknown)
    uint8_t* ab_best        # per world id: the move that decided its last search (0xFF: none)
    long long ab_n          # world ids with bounds set up (ids beyond: unknown)
    long long ab_cap        # capacity of the three
