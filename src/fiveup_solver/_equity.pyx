# cython: language_level=3
"""Race-equity fixed point in C (the hot loop of ``fiveup_solver.equity``).

A state is a score vector in levels of 5 raw (0..60 per side) and a starter
side; its value is, per side, the probability of winning the game from the
start of a round there. Each sampled round (events relative to its starter's
side, in the order they happened) is replayed from the state with the exact
target of RULES §6: an event that would pass level 61 (305 raw) is rejected
whole, one that reaches it wins at once. The state's value is the mean over
samples of the value where the round leads.

Samples may come in sets (``set_offset``): a state uses the set that
``set_of`` names for it, indexed by the state seen from its starter (the
starter's side relabelled 0), so rounds played near the target serve the
states near the target. Without sets every state uses every sample.

Rounds that lead back to the same score vector (every event rejected, or none
scored) are collected as a small matrix A over starters and solved exactly:
(I - A) X = B. Score vectors are visited from the highest level sum down, so
with non-negative events (2 and 3 players) one sweep is exact; with 4 players
a hand-emptying event may be negative, and sweeps repeat to a fixed point.
"""
import numpy as np
from libc.math cimport fabs
from libc.stdlib cimport malloc, free
from fiveup_solver.errors import CoreError
from fiveup_solver._rules cimport checked_int

cdef enum:
    LEVELS = 61         # score levels 0, 5, ..., 300 raw
    TARGET_LEVEL = 61   # 305 raw: the exact target
    MAX_SIDES = 3


cdef inline int state_index(const int* lv, int sides) noexcept nogil:
    cdef int s, idx = 0
    for s in range(sides):
        idx = idx * LEVELS + (0 if lv[s] < 0 else lv[s])   # below 0 (D4, rare): read as 0
    return idx


cdef int solve_block(double* M, double* B, int n) noexcept nogil:
    """Solve M X = B in place (n x n, n right-hand sides in B's columns); 0 if singular."""
    cdef int i, j, k, piv
    cdef double f, t
    for i in range(n):
        piv = i
        for j in range(i + 1, n):
            if fabs(M[j * n + i]) > fabs(M[piv * n + i]):
                piv = j
        if fabs(M[piv * n + i]) < 1e-12:
            return 0
        if piv != i:
            for k in range(n):
                t = M[i * n + k]; M[i * n + k] = M[piv * n + k]; M[piv * n + k] = t
                t = B[i * n + k]; B[i * n + k] = B[piv * n + k]; B[piv * n + k] = t
        for j in range(n):
            if j != i:
                f = M[j * n + i] / M[i * n + i]
                if f != 0.0:
                    for k in range(n):
                        M[j * n + k] -= f * M[i * n + k]
                        B[j * n + k] -= f * B[i * n + k]
    for i in range(n):
        f = M[i * n + i]
        for k in range(n):
            B[i * n + k] /= f
    return 1


def solve_equity(sides_, order_, ev_offset_, ev_side_, ev_level_, end_, W_, tol_, max_sweeps_,
                 set_offset_=None, set_of_=None):
    """Sweep W (flat: state x starter x winner) to the fixed point; returns
    (sweeps, last max change, states with no way out). Arrays: int32 order and
    offsets, int8 sides and ends, int16 levels, float64 W (written), all contiguous;
    optional int32 ``set_offset`` (rounds of set j: set_offset[j]..set_offset[j+1])
    and int32 ``set_of`` (per state in the starter's frame: its set)."""
    cdef int sides = checked_int(sides_, 2, 3, "sides")
    cdef int max_sweeps = checked_int(max_sweeps_, 1, 1_000_000, "max_sweeps")
    if isinstance(tol_, bool) or not isinstance(tol_, (int, float)) or not 0.0 <= tol_ < 1.0:
        raise CoreError(f"tol must be a number in [0, 1), not {tol_!r}"[:200])
    if any(a is None for a in (order_, ev_offset_, ev_side_, ev_level_, end_, W_)):
        raise CoreError("equity arrays must all be given (None is not an array)")
    if (set_offset_ is None) != (set_of_ is None):
        raise CoreError("set_offset and set_of go together (both or neither)")
    try:
        if set_offset_ is None:
            n_states = int(LEVELS) ** int(sides)
            set_offset_ = np.array([0, len(end_)], dtype=np.int32)
            set_of_ = np.zeros(n_states, dtype=np.int32)
        return _solve(sides, order_, ev_offset_, ev_side_, ev_level_, end_, W_, tol_, max_sweeps,
                      set_offset_, set_of_)
    except (TypeError, ValueError, BufferError) as e:
        raise CoreError(f"equity arrays of the wrong type or layout ({e})"[:200]) from None


cdef _solve(int sides, const int[::1] order, const int[::1] ev_offset, const signed char[::1] ev_side,
            const short[::1] ev_level, const signed char[::1] end, double[::1] W, double tol, int max_sweeps,
            const int[::1] set_offset, const int[::1] set_of):
    cdef int n_rounds = end.shape[0]
    cdef int n_states = 1
    cdef int s
    for s in range(sides):
        n_states *= LEVELS
    if W.shape[0] != n_states * sides * sides or order.shape[0] != n_states:
        raise CoreError("equity table of the wrong size")
    # offsets from 0, never decreasing (below), ending at the events' count: every round's
    # events are inside the arrays
    if ev_offset.shape[0] != n_rounds + 1 or n_rounds == 0 or ev_offset[0] != 0 \
            or ev_offset[n_rounds] != ev_side.shape[0] or ev_side.shape[0] != ev_level.shape[0]:
        raise CoreError("round samples of inconsistent sizes")
    for s in range(ev_side.shape[0]):
        if not 0 <= ev_side[s] < sides or not -TARGET_LEVEL <= ev_level[s] <= TARGET_LEVEL:
            raise CoreError(f"event {s} has side {ev_side[s]} or level {ev_level[s]} out of range")
    for s in range(n_rounds):
        if not -1 <= end[s] < sides or ev_offset[s] > ev_offset[s + 1]:
            raise CoreError(f"round sample {s} is malformed")
    for s in range(n_states):
        if not 0 <= order[s] < n_states:
            raise CoreError("state order out of range")
    cdef int n_sets = set_offset.shape[0] - 1
    if n_sets < 1 or set_of.shape[0] != n_states or set_offset[0] != 0 or set_offset[n_sets] != n_rounds:
        raise CoreError("sample sets of inconsistent sizes")
    for s in range(n_sets):
        if set_offset[s] >= set_offset[s + 1]:
            raise CoreError(f"sample set {s} is empty or out of order")
    for s in range(n_states):
        if not 0 <= set_of[s] < n_sets:
            raise CoreError(f"state {s} names sample set {set_of[s]}, out of range")
    cdef int* pos_gain = <int*>malloc(n_rounds * MAX_SIDES * sizeof(int))
    cdef int* tot_gain = <int*>malloc(n_rounds * MAX_SIDES * sizeof(int))
    if pos_gain == NULL or tot_gain == NULL:
        free(pos_gain); free(tot_gain)
        raise MemoryError()
    cdef int k, e, i, t, t2, w, a, idx, nidx, sweeps = 0, stuck = 0, won, k_lo, k_hi
    cdef int lv[MAX_SIDES]
    cdef int rel[MAX_SIDES]
    cdef int cur[MAX_SIDES]
    cdef double A[MAX_SIDES * MAX_SIDES]
    cdef double B[MAX_SIDES * MAX_SIDES]
    cdef double inv_n, q = 1.0 / sides, change, d
    cdef bint fast
    with nogil:
        for k in range(n_rounds):
            for s in range(MAX_SIDES):
                pos_gain[k * MAX_SIDES + s] = 0
                tot_gain[k * MAX_SIDES + s] = 0
            for e in range(ev_offset[k], ev_offset[k + 1]):
                tot_gain[k * MAX_SIDES + ev_side[e]] += ev_level[e]
                if ev_level[e] > 0:
                    pos_gain[k * MAX_SIDES + ev_side[e]] += ev_level[e]
        change = 1.0
        while sweeps < max_sweeps and change > tol:
            sweeps += 1
            change = 0.0
            stuck = 0
            for i in range(n_states):
                idx = order[i]
                a = idx
                for s in range(sides - 1, -1, -1):
                    lv[s] = a % LEVELS
                    a = a // LEVELS
                for t in range(sides * sides):
                    A[t] = 0.0
                    B[t] = 0.0
                for t in range(sides):            # starter side of this state
                    # the state from the starter's frame picks the sample set
                    for s in range(sides):
                        rel[s] = lv[(s + t) % sides]
                    a = set_of[state_index(rel, sides)]
                    k_lo = set_offset[a]
                    k_hi = set_offset[a + 1]
                    inv_n = 1.0 / (k_hi - k_lo)
                    for k in range(k_lo, k_hi):
                        fast = True
                        for s in range(sides):
                            cur[s] = lv[s]
                            if lv[s] + pos_gain[k * MAX_SIDES + (s - t + sides) % sides] >= TARGET_LEVEL:
                                fast = False
                        won = -1
                        if fast:
                            for s in range(sides):
                                cur[s] = lv[s] + tot_gain[k * MAX_SIDES + (s - t + sides) % sides]
                        else:
                            for e in range(ev_offset[k], ev_offset[k + 1]):
                                s = (ev_side[e] + t) % sides
                                if cur[s] + ev_level[e] <= TARGET_LEVEL:
                                    cur[s] += ev_level[e]
                                    if cur[s] == TARGET_LEVEL:
                                        won = s
                                        break
                        if won >= 0:
                            B[t * sides + won] += inv_n
                            continue
                        nidx = state_index(cur, sides)
                        if end[k] >= 0:
                            t2 = (end[k] + t) % sides
                            if nidx == idx:
                                A[t * sides + t2] += inv_n
                            else:
                                for w in range(sides):
                                    B[t * sides + w] += inv_n * W[(nidx * sides + t2) * sides + w]
                        else:
                            # a block: the next starter is drawn, every seat alike (D1)
                            for t2 in range(sides):
                                if nidx == idx:
                                    A[t * sides + t2] += inv_n * q
                                else:
                                    for w in range(sides):
                                        B[t * sides + w] += inv_n * q * W[(nidx * sides + t2) * sides + w]
                # (I - A) X = B
                for t in range(sides * sides):
                    A[t] = -A[t]
                for t in range(sides):
                    A[t * sides + t] += 1.0
                if not solve_block(A, B, sides):
                    stuck += 1
                    for t in range(sides * sides):
                        B[t] = 0.0
                for t in range(sides * sides):
                    d = fabs(B[t] - W[idx * sides * sides + t])
                    if d > change:
                        change = d
                    W[idx * sides * sides + t] = B[t]
    free(pos_gain)
    free(tot_gain)
    return sweeps, change, stuck
