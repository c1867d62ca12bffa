# cython: language_level=3
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from fiveup_solver._rules cimport Rng

cdef enum:
    MAX_ITEMS = 32             # hidden tiles to place (at most 28 - 5 of the observer's own)
    MAX_CLASSES = 64           # slot classes (hidden hand slots grouped by constraints, + the boneyard)

cdef class DealCounter:
    cdef int n_items           # tiles whose slot is hidden (unseen tiles + others' placed tiles)
    cdef int n_classes         # slot classes; their capacities sum to n_items
    cdef int bone              # index of the boneyard class, -1 if there is none
    cdef int caps[MAX_CLASSES]         # slots in each class
    cdef long stride[MAX_CLASSES]      # mixed-radix stride of each class's used count (0 for the boneyard)
    cdef long n_states                 # product of (cap + 1) over the non-boneyard classes
    cdef uint64_t allowed[MAX_ITEMS]   # per item: the classes it may occupy (observation constraints)
    cdef uint64_t strict[MAX_ITEMS]    # per item: the classes it may occupy when every hidden seat
                                       # is also void now (the complement of "someone can place")
    cdef int has_strict                # the "someone can place now" constraint is in force
    cdef uint8_t item_tile[MAX_ITEMS]  # tile index of each item
    cdef uint8_t item_held[MAX_ITEMS]  # 1: the item is in a hand or the boneyard now; 0: already placed
    cdef int class_seat[MAX_CLASSES]   # seat owning each class (the boneyard class: -1)
    cdef double* ways                  # (n_items + 1) x n_states: completions from (item, used counts)
    cdef double* ways_strict           # the same under the strict constraint (NULL if not in force)
    cdef double total                  # consistent class assignments
    cdef int sample_classes(self, Rng* rng, int* out) noexcept nogil
    cdef int sample_world(self, Rng* rng, uint32_t* hands, uint8_t* boneyard) noexcept nogil
    cdef int sample_world_classes(self, Rng* rng, uint32_t* hands, uint8_t* boneyard, int* cls) noexcept nogil

cdef void seed_stream(Rng* rng, uint64_t seed, uint64_t index) noexcept nogil

cdef inline void world_stream(Rng* rng, uint64_t seed, uint64_t index) noexcept nogil:
    """The stream a hint's world `index` is sampled from (its search has stream (seed, index)):
    the hint search and the belief weighting draw the same world from the same seed and index."""
    seed_stream(rng, seed ^ <uint64_t>0xC2B2AE3D27D4EB4F, index)
