# cython: language_level=3
from libc.stdint cimport uint8_t, int8_t, uint32_t, uint64_t
from fiveup_solver._rules cimport Position, EventLog

# Port indices: a non-double has 0 = low, 1 = high; a double has
# 0 = lineA, 1 = lineB, 2 = branchA, 3 = branchB.
ctypedef struct Topology:
    int8_t link[28][4]        # tile attached on each port of each tile, -1 while free

ctypedef struct Frame:
    Position pos              # compact position (what the rules and the search use)
    Topology topo             # which tile sits on which port (notation and display)

cdef class CoreRound:
    cdef Frame* frames        # frames[0..depth]: the position after each action
    cdef int depth            # actions applied in this round
    cdef int capacity         # allocated frames
    cdef EventLog last_log    # events of the last action
    cdef Frame* top(self) noexcept nogil
    cdef Frame* push_frame(self) except NULL
    cdef int checked_seat(self, seat) except -1


cdef CoreRound checked_round(object r, str what)

cdef int read_world(const Position* base, object hands, object bone, uint32_t kept_seats,
                    uint32_t* hands_out, uint8_t* bone_out) except -1
