# cython: language_level=3
"""Exact counting and uniform sampling of hidden deals.

The inference (``fiveup_solver.inference``) turns a seat's observation into a
matching problem: *items* (tiles whose slot the seat cannot see) go into
*classes* of interchangeable slots (another seat's dealt hand, the tiles it drew
in one draw sequence, the undrawn boneyard), each item allowed in some classes
only. Every consistent deal of the round corresponds to the same number of
class assignments times a constant, so uniform sampling of deals is uniform
sampling of class assignments with the capacities met exactly.

``ways[i][s]`` counts the completions of items i.. from the used-count vector s
(a mixed-radix index over the non-boneyard classes; the boneyard's count is
implied). Counts stay below 2^53 in practice, so the doubles are exact
integers and an impossible choice has weight exactly 0. One optional
constraint is not per item ("some seat can place now", RULES §5.4/D2, when
the boneyard is empty and the observer cannot place): it is handled by
subtraction, relaxed count minus the count where every hidden seat is void now.
"""
from libc.stdlib cimport calloc, free
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from fiveup_solver._rules cimport Rng, mix64, rng_next, rng_below, checked_int, checked_u64

cdef enum:
    MAX_TABLE = 1 << 24        # doubles per counting table (128 MB): refuse anything larger


cdef void seed_stream(Rng* rng, uint64_t seed, uint64_t index) noexcept nogil:
    """An independent stream per (seed, index): sample i never depends on who draws it.

    The start state is a hash of (seed, index), not an affine function of the index:
    splitmix64 advances its state by a fixed increment, so start states spaced by a
    multiple of that increment would make stream k+1 stream k shifted by one draw
    (correlated worlds, and standard errors that understate the spread)."""
    rng.state = mix64(mix64(seed ^ <uint64_t>0x6A09E667F3BCC909) + index)
    rng_next(rng)



cdef inline double uniform01(Rng* rng) noexcept nogil:
    return (rng_next(rng) >> 11) * (1.0 / 9007199254740992.0)


from fiveup_solver.errors import CoreError, InconsistentObservationError


class TooManyStates(CoreError):
    """The counting table for this observation would be too large."""


cdef bint _is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


cdef void fill_ways(DealCounter dc, double* ways, const uint64_t* allowed) noexcept nogil:
    """Backward counts: ways[i][s] = assignments of items i.. that fill every class exactly."""
    cdef long s, t, n_states = dc.n_states
    cdef int i, c, used, sum_used, n = dc.n_items
    cdef int used_of[MAX_CLASSES]
    cdef double w
    cdef bint full
    for s in range(n_states):
        t = s
        full = True
        for c in range(dc.n_classes):
            if c == dc.bone:
                continue
            used = t % (dc.caps[c] + 1)
            t //= dc.caps[c] + 1
            if used != dc.caps[c]:
                full = False
        ways[<long>n * n_states + s] = 1.0 if full else 0.0
    for i in range(n - 1, -1, -1):
        for s in range(n_states):
            t = s
            sum_used = 0
            for c in range(dc.n_classes):
                if c == dc.bone:
                    continue
                used_of[c] = t % (dc.caps[c] + 1)
                t //= dc.caps[c] + 1
                sum_used += used_of[c]
            w = 0.0
            if sum_used <= i:
                for c in range(dc.n_classes):
                    if not (allowed[i] >> c) & 1:
                        continue
                    if c == dc.bone:
                        if i - sum_used < dc.caps[c]:
                            w += ways[<long>(i + 1) * n_states + s]
                    elif used_of[c] < dc.caps[c]:
                        w += ways[<long>(i + 1) * n_states + s + dc.stride[c]]
            ways[<long>i * n_states + s] = w


cdef class DealCounter:
    """Counting tables of one observation's matching problem; samples and marginals."""

    def __cinit__(self, caps, allowed, strict, bone, item_tiles, item_held, class_seat):
        cdef int c, i
        cdef long n_states = 1
        self.ways = NULL
        self.ways_strict = NULL
        # Everything is checked here: the counting and sampling loops index C arrays with it.
        try:
            caps, allowed, item_tiles, item_held, class_seat = (
                list(caps), list(allowed), list(item_tiles), list(item_held), list(class_seat))
            strict = None if strict is None else list(strict)
        except TypeError:
            raise CoreError("DealCounter takes lists (caps, allowed, strict or None, bone, "
                            "item_tiles, item_held, class_seat)") from None
        self.n_items = len(allowed)
        self.n_classes = len(caps)
        if self.n_items > MAX_ITEMS or self.n_classes > MAX_CLASSES:
            raise TooManyStates(f"{self.n_items} hidden tiles in {self.n_classes} slot classes: too many")
        if not all(_is_int(x) and 0 <= x <= 28 for x in caps):
            raise CoreError(f"class capacities must be integers 0..28, not {caps!r}"[:200])
        if sum(caps) != self.n_items:
            raise CoreError(f"slot capacities sum to {sum(caps)}, not to the {self.n_items} hidden tiles")
        if not _is_int(bone) or not -1 <= bone < self.n_classes:
            raise CoreError(f"bone must be -1 or a class 0..{self.n_classes - 1}, not {bone!r}"[:200])
        if len(class_seat) != self.n_classes or not all(
                _is_int(class_seat[c]) and (class_seat[c] == -1 if c == bone else 0 <= class_seat[c] < 4)
                for c in range(self.n_classes)):
            raise CoreError(f"class_seat must give each class a seat 0..3 (-1 for the boneyard), "
                            f"not {class_seat!r}"[:200])
        if len(item_tiles) != self.n_items or len(item_held) != self.n_items or (
                strict is not None and len(strict) != self.n_items):
            raise CoreError(f"item_tiles, item_held and strict must have one entry per item ({self.n_items})")
        if not all(_is_int(t) and 0 <= t < 28 for t in item_tiles) or len(set(item_tiles)) != self.n_items:
            raise CoreError(f"item_tiles must be distinct tile numbers 0..27, not {item_tiles!r}"[:200])
        if not all(x in (0, 1) and not isinstance(x, float) for x in item_held):
            raise CoreError(f"item_held must be 0 or 1 per item, not {item_held!r}"[:200])
        for masks in (allowed, strict or ()):
            if not all(_is_int(m) and 0 <= m < (1 << self.n_classes) for m in masks):
                raise CoreError(f"class masks must be integers 0..2^{self.n_classes}-1")
        self.bone = bone
        for c in range(self.n_classes):
            self.caps[c] = caps[c]
            self.class_seat[c] = class_seat[c]
            if c == bone:
                self.stride[c] = 0
            else:
                self.stride[c] = n_states
                n_states *= caps[c] + 1
                if n_states * (self.n_items + 1) > MAX_TABLE:
                    raise TooManyStates(f"the hidden slots form {n_states}+ counting states: too many")
        self.n_states = n_states
        for i in range(self.n_items):
            self.allowed[i] = allowed[i]
            self.strict[i] = strict[i] if strict is not None else 0
            self.item_tile[i] = item_tiles[i]
            self.item_held[i] = item_held[i]
        self.has_strict = strict is not None
        self.ways = <double*>calloc((self.n_items + 1) * n_states, sizeof(double))
        if self.ways == NULL:
            raise MemoryError()
        with nogil:
            fill_ways(self, self.ways, self.allowed)
        self.total = self.ways[0]
        if self.has_strict:
            self.ways_strict = <double*>calloc((self.n_items + 1) * n_states, sizeof(double))
            if self.ways_strict == NULL:
                raise MemoryError()
            with nogil:
                fill_ways(self, self.ways_strict, self.strict)
            self.total -= self.ways_strict[0]

    def __dealloc__(self):
        free(self.ways)
        free(self.ways_strict)

    @property
    def count(self):
        """Consistent class assignments (deals up to a constant factor)."""
        return self.total

    @property
    def states(self):
        return self.n_states

    cdef int sample_classes(self, Rng* rng, int* out) noexcept nogil:
        """One uniform consistent assignment: out[i] = class of item i. Returns 0, or -1 if none."""
        cdef long s = 0, nxt, n_states = self.n_states
        cdef int i, c, chosen, sum_used = 0
        cdef bint ok = self.has_strict
        cdef double weights[MAX_CLASSES]
        cdef double tot, r, w
        if self.total <= 0:
            return -1
        for i in range(self.n_items):
            tot = 0.0
            for c in range(self.n_classes):
                w = 0.0
                if (self.allowed[i] >> c) & 1:
                    nxt = s + self.stride[c]
                    if c == self.bone:
                        if i - sum_used < self.caps[c]:
                            w = self.ways[<long>(i + 1) * n_states + nxt]
                    elif (s // self.stride[c]) % (self.caps[c] + 1) < self.caps[c]:
                        w = self.ways[<long>(i + 1) * n_states + nxt]
                    if w > 0 and ok and (self.strict[i] >> c) & 1:
                        w -= self.ways_strict[<long>(i + 1) * n_states + nxt]
                weights[c] = w
                tot += w
            if tot <= 0:
                return -1
            r = uniform01(rng) * tot
            chosen = -1
            for c in range(self.n_classes):
                if weights[c] > 0:
                    chosen = c
                    if r < weights[c]:
                        break
                    r -= weights[c]
            out[i] = chosen
            if ok and not (self.strict[i] >> chosen) & 1:
                ok = False          # the strict branch can no longer hold: plain counts from here
            s += self.stride[chosen]
            if chosen != self.bone:
                sum_used += 1
        return 0

    cdef int sample_world(self, Rng* rng, uint32_t* hands, uint8_t* boneyard) noexcept nogil:
        """One uniform consistent deal as it stands now: hidden seats' hand masks
        (hands[seat] |= ...; the caller zeroes them) and the remaining boneyard in
        a uniform random order. Returns the boneyard size, or -1 if none fits."""
        cdef int cls[MAX_ITEMS]
        return self.sample_world_classes(rng, hands, boneyard, cls)

    cdef int sample_world_classes(self, Rng* rng, uint32_t* hands, uint8_t* boneyard, int* cls) noexcept nogil:
        """``sample_world``, also giving the class of every item (``cls``): the same
        draws from ``rng`` in the same order, so a stream gives the same world."""
        cdef int i, j, n = 0, seat
        cdef uint8_t tmp
        if self.sample_classes(rng, cls) < 0:
            return -1
        for i in range(self.n_items):
            if not self.item_held[i]:
                continue
            seat = self.class_seat[cls[i]]
            if seat < 0:
                boneyard[n] = self.item_tile[i]
                n += 1
            else:
                hands[seat] |= <uint32_t>1 << self.item_tile[i]
        for i in range(n - 1, 0, -1):
            j = rng_below(rng, i + 1)
            tmp = boneyard[i]; boneyard[i] = boneyard[j]; boneyard[j] = tmp
        return n

    # ------------------------------------------------------------ Python API
    def classes(self, n_, seed_):
        """n uniform class assignments (lists of class per item), sample k from stream (seed, k)."""
        cdef long n = checked_int(n_, 0, 10 ** 9, "the number of samples")
        cdef uint64_t seed = checked_u64(seed_, "seed")
        cdef Rng rng
        cdef int cls[MAX_ITEMS]
        cdef int k
        out = []
        for k in range(n):
            seed_stream(&rng, seed, k)
            if self.sample_classes(&rng, cls) < 0:
                raise InconsistentObservationError("no consistent deal of the hidden tiles")
            out.append([cls[i] for i in range(self.n_items)])
        return out

    def worlds(self, n_, seed_, start_=0):
        """n deals as they stand now: (hand masks per seat, boneyard tile order); deal k
        from stream (seed, start + k), so that a long list can be made in parts."""
        cdef long n = checked_int(n_, 0, 10 ** 9, "the number of samples")
        cdef uint64_t seed = checked_u64(seed_, "seed")
        cdef long start = checked_int(start_, 0, 2 ** 40, "start")
        cdef Rng rng
        cdef uint32_t hands[4]
        cdef uint8_t bone[28]
        cdef long k
        cdef int b
        out = []
        for k in range(n):
            seed_stream(&rng, seed, start + k)
            hands[0] = hands[1] = hands[2] = hands[3] = 0
            b = self.sample_world(&rng, hands, bone)
            if b < 0:
                raise InconsistentObservationError("no consistent deal of the hidden tiles")
            out.append(([hands[s] for s in range(4)], [bone[i] for i in range(b)]))
        return out

    def bench(self, n_, seed_):
        """Sample n deals without the GIL; returns a checksum (for the throughput benchmark)."""
        cdef long n = checked_int(n_, 0, 10 ** 9, "the number of samples")
        cdef uint64_t seed = checked_u64(seed_, "seed")
        cdef Rng rng
        cdef uint32_t hands[4]
        cdef uint8_t bone[28]
        cdef long k
        cdef uint64_t check = 0
        with nogil:
            for k in range(n):
                seed_stream(&rng, seed, k)
                hands[0] = hands[1] = hands[2] = hands[3] = 0
                if self.sample_world(&rng, hands, bone) < 0:
                    break
                check += hands[0] ^ hands[1] ^ hands[2] ^ hands[3]
        return check

    def marginals(self):
        """P(item i in class c) for every item and class, by forward x backward counts."""
        cdef long s, nxt, n_states = self.n_states
        cdef int i, c, sum_used
        cdef double* fwd
        cdef double* cur
        cdef double* new
        cdef double* ways
        cdef const uint64_t* allowed
        result = [[0.0] * self.n_classes for _ in range(self.n_items)]
        if self.total <= 0:
            return result
        for table in range(2 if self.has_strict else 1):
            ways = self.ways if table == 0 else self.ways_strict
            if table == 0:
                allowed = &self.allowed[0]
            else:
                allowed = &self.strict[0]
            sign = 1.0 if table == 0 else -1.0
            fwd = <double*>calloc(2 * n_states, sizeof(double))
            if fwd == NULL:
                raise MemoryError()
            try:
                fwd[0] = 1.0
                for i in range(self.n_items):
                    cur = fwd + (i & 1) * n_states
                    new = fwd + ((i + 1) & 1) * n_states
                    for s in range(n_states):
                        new[s] = 0.0
                    for s in range(n_states):
                        if cur[s] == 0:
                            continue
                        sum_used = 0
                        for c in range(self.n_classes):
                            if c != self.bone:
                                sum_used += (s // self.stride[c]) % (self.caps[c] + 1)
                        for c in range(self.n_classes):
                            if not (allowed[i] >> c) & 1:
                                continue
                            if c == self.bone:
                                if i - sum_used >= self.caps[c]:
                                    continue
                            elif (s // self.stride[c]) % (self.caps[c] + 1) >= self.caps[c]:
                                continue
                            nxt = s + self.stride[c]
                            result[i][c] += sign * cur[s] * ways[(i + 1) * n_states + nxt]
                            new[nxt] += cur[s]
            finally:
                free(fwd)
        return [[x / self.total for x in row] for row in result]
