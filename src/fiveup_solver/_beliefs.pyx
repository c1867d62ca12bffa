# cython: language_level=3
"""The hot loops of the opponent model (``fiveup_solver.beliefs``): worlds drawn
exactly as the hint search draws them, each with the likelihood of every observed
choice of the other seats under every model of a small family.

A *decision* is a placement another seat chose freely: it could place at the
start of its turn (a placement right after its own draws is the drawn tile, so
its choice is only a port, the same in every world). Its hand at that moment is
its dealt tiles and the tiles it had drawn, less those it had placed. A world
drawn from the exact sampler gives the class of every hidden tile (a seat's
dealt hand, one of its draw sequences, the boneyard); the tiles of a class are
then spread over its interchangeable slots in a uniform random order, which
completes a full deal of the round uniformly, and the hand at every past
decision follows.

Move values are public (the board, the scores, the mover): per decision and
model, ``table[move] = exp(beta * (v(move) - vmax))`` over every move the mover
could hold, computed once; a world's likelihood of the choice is then
``floor / n + (1 - floor) * table[chosen] / sum(table[legal])`` over the n
canonical moves its hand allowed.
"""
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset
from libc.math cimport exp, log, isfinite
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from fiveup_solver._rules cimport *
from fiveup_solver._core cimport CoreRound, checked_round
from fiveup_solver._sampler cimport DealCounter, world_stream, MAX_ITEMS, MAX_CLASSES
from fiveup_solver.errors import CoreError

cdef enum:
    MOVE_CODES = 224           # canonical move bytes: tile | kind << 5, kind <= 6
    MAX_MODELS = 32
    ALL_TILES_MASK = 0x0FFFFFFF

# model kinds (fiveup_solver.beliefs.KINDS)
cdef enum:
    KIND_NONE = 0      # the choice is not read: likelihood 1 in every world (uniform beliefs)
    KIND_RANDOM = 1    # every legal canonical move equally likely: 1/n
    KIND_CREDIT = 2    # softmax over the accepted placement credit
    KIND_ENGINE = 3    # softmax over the cheap engine value (credit, reply threat, pips shed, exact 305)
    ENGINE_WIN = 1000  # the engine value of a placement that reaches exactly 305

KINDS = {"none": KIND_NONE, "random": KIND_RANDOM, "credit": KIND_CREDIT, "engine": KIND_ENGINE}


cdef inline int accepted_credit(const Position* p, int seat, int s) noexcept nogil:
    """The credit of end sum s for seat's side, 0 when it would take it above 305."""
    cdef int c = placement_credit(s)
    if p.score[side_of(p, seat)] + c > TARGET:
        return 0
    return c


cdef void move_values(const Position* p, uint8_t move, int* credit, int* threat, int* exact,
                      uint32_t exclude=0) noexcept nogil:
    """credit: the move's accepted placement credit (as greedy counts it); exact: 1 when
    it reaches 305; threat: the largest accepted credit the next seat could answer
    with, over every tile off the board (the mover's view, its own tiles not excluded)."""
    cdef Position q = p[0]
    cdef uint8_t replies[MAX_MOVES]
    cdef int mover = p.to_move, n, i, c, best = 0, nxt
    cdef uint32_t off = <uint32_t>ALL_TILES_MASK & ~p.board
    c = accepted_credit(p, mover, end_sum_after(p, p.ends, move))
    credit[0] = c
    exact[0] = 1 if c > 0 and p.score[side_of(p, mover)] + c == TARGET else 0
    threat[0] = 0
    if exact[0]:
        return
    for i in range(4):
        q.hand[i] = 0
    q.hand[mover] = off                 # the hand never empties here: no hand-emptying event
    q.bone_len = q.bone_next + 1        # nor a block check
    place(&q, move, NULL)
    if q.status != ST_PLAYING:
        return
    nxt = q.to_move
    q.hand[nxt] = off & ~(<uint32_t>1 << (move & 31)) & ~exclude
    n = gen_moves(&q, replies)
    for i in range(n):
        c = accepted_credit(&q, nxt, end_sum_after(&q, q.ends, replies[i]))
        if c > best:
            best = c
    threat[0] = best


cdef inline double engine_value(int credit, int threat, int exact, int tile, double a, double b) noexcept nogil:
    if exact:
        return ENGINE_WIN
    return credit - a * threat + b * TILE_PIPS[tile]


cdef bint is_number(object x):
    """A finite int or float (not a bool, not a string), as OpponentModel's weights are."""
    if isinstance(x, bool):
        return False
    if isinstance(x, int):
        return -1e308 < x < 1e308        # compared exactly: a larger int is no double
    return isinstance(x, float) and isfinite(x)


cdef list checked_list(object x, str what):
    """x as a list (a one-line CoreError naming `what` if it is not a sequence)."""
    if isinstance(x, (str, bytes)) or x is None:
        raise CoreError(f"{what} must be a list, not {type(x).__name__}")
    try:
        return list(x)
    except TypeError:
        raise CoreError(f"{what} must be a list, not {type(x).__name__}") from None


cdef tuple checked_tuple(object x, int n, str what, str form):
    """x as a tuple of n items (a one-line CoreError: `what` must be `form`)."""
    if isinstance(x, (str, bytes)) or x is None:
        raise CoreError(f"{what} must be {form}, not {type(x).__name__}")
    try:
        x = tuple(x)
    except TypeError:
        raise CoreError(f"{what} must be {form}, not {type(x).__name__}") from None
    if len(x) != n:
        raise CoreError(f"{what} must be {form}, not {len(x)} items")
    return x


def move_features(r_, hand, own_threat=False):
    """[(canonical move, credit, threat, pips, exact)] for every canonical move of the
    seat to move in r's current position, as if it held `hand` (a tile mask).
    ``own_threat``: the replies exclude the mover's own tiles (the model's tables
    do not: they are the same in every world)."""
    cdef CoreRound r = checked_round(r_, "the position")
    cdef Position pos = r.top().pos
    cdef uint8_t moves[MAX_MOVES]
    cdef int n, i, c, th, ex, s, t
    cdef uint32_t mask = <uint32_t>checked_int(hand, 0, ALL_TILES_MASK, "hand mask") & ~pos.board
    for s in range(pos.players):
        # a tile both here and in another hand would be counted twice by the replies' threat
        if s != pos.to_move and mask & pos.hand[s]:
            t = fiveup_ctz(mask & pos.hand[s])
            raise CoreError(f"hand mask holds tile {TILE_LO[t]}-{TILE_HI[t]}, which is in seat {s}'s hand")
    pos.hand[pos.to_move] = mask
    if pos.status != ST_PLAYING:
        return []
    n = gen_moves(&pos, moves)
    out = []
    for i in range(n):
        move_values(&pos, moves[i], &c, &th, &ex, pos.hand[pos.to_move] if own_threat else 0)
        out.append((moves[i], c, th, TILE_PIPS[moves[i] & 31], ex))
    return out


ctypedef struct Decision:
    Position pos          # just before the placement: board, scores, the mover to move (hands empty)
    uint32_t slots        # bit j: hidden slot j is the mover's and filled by then (dealt, or drawn before)
    uint32_t gone         # the mover's tiles placed before it (public)
    int seat
    uint8_t chosen        # the canonical move it made


cdef class BeliefWorlds:
    """One observation's decisions, slots and model tables; draws weighted worlds."""
    cdef DealCounter counter
    cdef int n_items, n_classes, bone, n_dec, n_models, players
    cdef int class_start[MAX_CLASSES + 1]
    cdef int class_slot[MAX_ITEMS]
    cdef int kind[MAX_MODELS]
    cdef double floor
    cdef Decision* dec
    cdef double* table         # n_dec x n_models x MOVE_CODES: exp(beta (v - vmax))
    cdef double* logs          # the same as beta (v - vmax), for worlds whose moves all underflow
    cdef bint started          # __init__ was called (once only)
    cdef bint ready            # __init__ returned: the tables are complete

    def __cinit__(self):
        self.dec = NULL
        self.table = NULL
        self.logs = NULL

    def __init__(self, replayed_, counter_, class_slots, decisions, models, floor_, engine_weights):
        """`class_slots`: the slot numbers of each non-boneyard class, in class order
        (the boneyard class is the counter's last); `decisions`: (action index, seat,
        canonical move chosen, slot numbers it held by then, tile mask it had placed);
        `models`: (kind, beta) per model; `floor_`: the uniform floor's share;
        `engine_weights`: (a, b) of the engine value credit - a threat + b pips.

        BeliefWorlds is initialised once: __init__ again is a CoreError, and one whose
        __init__ was not called or raised refuses every method."""
        cdef int c, j, k, i, n, m, d, ct, th, ex, action, slot_count = 0
        cdef uint8_t moves[MAX_MOVES]
        cdef double beta, v, vmax, a, b
        cdef double vals[MAX_MOVES]
        cdef Position* p
        if self.started:
            raise CoreError("BeliefWorlds is initialised once: make a new one")
        self.started = True
        cdef CoreRound replayed = checked_round(replayed_, "replayed")
        if not isinstance(counter_, DealCounter):
            raise CoreError(f"counter must be a DealCounter, not {type(counter_).__name__}")
        cdef DealCounter counter = <DealCounter>counter_
        self.counter = counter
        self.n_items = counter.n_items
        self.n_classes = counter.n_classes
        self.bone = counter.bone
        class_slots = [checked_list(x, "a class's slots") for x in checked_list(class_slots, "class_slots")]
        if self.bone != self.n_classes - 1 or len(class_slots) != self.n_classes - 1:
            raise CoreError("class_slots must list the slots of every class but the boneyard (the last)")
        for c in range(self.n_classes - 1):
            self.class_start[c] = slot_count
            if len(class_slots[c]) != counter.caps[c]:
                raise CoreError(f"class {c} has {counter.caps[c]} slots, not {len(class_slots[c])}")
            for j in class_slots[c]:
                self.class_slot[slot_count] = checked_int(j, 0, MAX_ITEMS - 1, "a slot")
                slot_count += 1
        self.class_start[self.n_classes - 1] = slot_count
        self.class_start[self.n_classes] = slot_count
        if sorted(x for xs in class_slots for x in xs) != list(range(slot_count)):
            raise CoreError("the classes' slots must be 0..slots-1, each once")
        models = checked_list(models, "models")
        self.n_models = len(models)
        if not 1 <= self.n_models <= MAX_MODELS:
            raise CoreError(f"1..{MAX_MODELS} models, not {self.n_models}")
        if isinstance(floor_, bool) or not isinstance(floor_, (int, float)) or not 0.0 <= floor_ <= 1.0:
            raise CoreError(f"floor must be a number from 0 to 1, not {floor_!r}"[:200])
        self.floor = floor_
        a_, b_ = checked_tuple(engine_weights, 2, "engine_weights", "two finite numbers (a, b)")
        if not (is_number(a_) and is_number(b_) and -1000 <= a_ <= 1000 and -1000 <= b_ <= 1000):
            # (beliefs.MAX_ENGINE_WEIGHT: a weight near the float limit makes the log-likelihoods NaN)
            raise CoreError(f"engine_weights must be two numbers (a, b) from -1000 to 1000, not {engine_weights!r}"[:200])
        a, b = a_, b_
        betas = []
        for k in range(self.n_models):
            kd, beta_ = checked_tuple(models[k], 2, "a model", "(kind, beta)")
            self.kind[k] = checked_int(kd, 0, 3, "a model kind")
            if isinstance(beta_, bool) or not isinstance(beta_, (int, float)) or not 0.0 <= beta_ <= 100.0:
                raise CoreError(f"beta must be a number from 0 to 100, not {beta_!r}"[:200])
            betas.append(float(beta_))
        decisions = checked_list(decisions, "decisions")
        self.n_dec = len(decisions)
        self.players = replayed.top().pos.players
        self.dec = <Decision*>calloc(max(1, self.n_dec), sizeof(Decision))
        self.table = <double*>calloc(max(1, self.n_dec) * self.n_models * MOVE_CODES, sizeof(double))
        self.logs = <double*>calloc(max(1, self.n_dec) * self.n_models * MOVE_CODES, sizeof(double))
        if self.dec == NULL or self.table == NULL or self.logs == NULL:
            raise MemoryError()
        for d in range(self.n_dec):
            action_, seat, chosen, slots, gone = checked_tuple(
                decisions[d], 5, "a decision", "(action, seat, move, slots, placed tiles)")
            action = checked_int(action_, 0, replayed.depth - 1, "a decision's action")
            p = &replayed.frames[action].pos
            self.dec[d].pos = p[0]
            self.dec[d].seat = checked_int(seat, 0, self.players - 1, "a decision's seat")
            self.dec[d].chosen = checked_int(chosen, 0, MOVE_CODES - 1, "a decision's move")
            self.dec[d].gone = <uint32_t>checked_int(gone, 0, ALL_TILES_MASK, "a decision's placed tiles")
            self.dec[d].slots = 0
            for slot in checked_list(slots, "a decision's slots"):
                self.dec[d].slots |= <uint32_t>1 << <int>checked_int(slot, 0, slot_count - 1, "a decision's slot")
            if p.status != ST_PLAYING or p.to_move != seat:
                raise CoreError(f"action {action}: seat {seat} is not to place there")
            for i in range(4):
                self.dec[d].pos.hand[i] = 0
            # every move the mover could hold: the hand of all tiles off the board
            self.dec[d].pos.hand[seat] = <uint32_t>ALL_TILES_MASK & ~p.board
            n = gen_moves(&self.dec[d].pos, moves)
            self.dec[d].pos.hand[seat] = 0
            found = False
            for i in range(n):
                found = found or moves[i] == self.dec[d].chosen
            if not found:
                raise CoreError(f"action {action}: move {chosen} is not a placement there")
            for k in range(self.n_models):
                beta = betas[k]
                vmax = -1e300
                for i in range(n):
                    move_values(&self.dec[d].pos, moves[i], &ct, &th, &ex)
                    if self.kind[k] == KIND_ENGINE:
                        v = engine_value(ct, th, ex, moves[i] & 31, a, b)
                    elif self.kind[k] == KIND_CREDIT:
                        v = ct
                    else:
                        v = 0.0
                    vals[i] = v
                    if v > vmax:
                        vmax = v
                for i in range(n):
                    self.logs[(<long>d * self.n_models + k) * MOVE_CODES + moves[i]] = beta * (vals[i] - vmax)
                    self.table[(<long>d * self.n_models + k) * MOVE_CODES + moves[i]] = exp(beta * (vals[i] - vmax))
        self.ready = True

    cdef int check_ready(self) except -1:
        if not self.ready:
            raise CoreError("this BeliefWorlds is not initialised (its __init__ was not called, or it failed)")
        return 0

    def __dealloc__(self):
        free(self.dec)
        free(self.table)
        free(self.logs)

    cdef void fill_slots(self, Rng* rng, const int* cls, uint8_t* slot_tile) noexcept nogil:
        """The full deal: each class's tiles over its slots in a uniform random order."""
        cdef int c, i, j, nb
        cdef uint8_t tmp
        cdef uint8_t buf[MAX_ITEMS]
        for c in range(self.n_classes - 1):
            nb = 0
            for i in range(self.n_items):
                if cls[i] == c:
                    buf[nb] = self.counter.item_tile[i]
                    nb += 1
            for i in range(nb - 1, 0, -1):
                j = rng_below(rng, i + 1)
                tmp = buf[i]; buf[i] = buf[j]; buf[j] = tmp
            for i in range(nb):
                slot_tile[self.class_slot[self.class_start[c] + i]] = buf[i]

    cdef uint32_t hand_at(self, int d, const uint8_t* slot_tile) noexcept nogil:
        """The deciding seat's hand at decision d: its slots filled by then, less its placed tiles."""
        cdef uint32_t h = 0, sl = self.dec[d].slots
        while sl:
            h |= <uint32_t>1 << slot_tile[fiveup_ctz(sl)]
            sl &= sl - 1
        return h & ~self.dec[d].gone

    def inspect(self, seed_, k_):
        """World k of ``draw`` as a full deal, for tests: (tile of each hidden slot, the
        deciding seat's hand mask at each decision)."""
        cdef uint64_t seed = checked_u64(seed_, "seed")
        cdef long k = checked_int(k_, 0, 2 ** 62, "k")
        cdef int cls[MAX_ITEMS]
        cdef uint8_t slot_tile[MAX_ITEMS]
        cdef uint8_t bone[28]
        cdef uint32_t hm[4]
        cdef Rng rng
        cdef int d
        self.check_ready()
        world_stream(&rng, seed, <uint64_t>k)
        hm[0] = hm[1] = hm[2] = hm[3] = 0
        if self.counter.sample_world_classes(&rng, hm, bone, cls) < 0:
            raise CoreError("no consistent deal of the hidden tiles")
        self.fill_slots(&rng, cls, slot_tile)
        return ([slot_tile[i] for i in range(self.class_start[self.n_classes - 1])],
                [self.hand_at(d, slot_tile) for d in range(self.n_dec)])

    @property
    def decisions(self):
        return self.n_dec

    def draw(self, seed_, start_, loglik_, hands_, boneyard_):
        """Worlds start .. start + len(loglik) - 1: world k from the hint's world stream
        (seed, k), so with equal weights they are the hint's own worlds. Fills
        hands[k, seat] (hidden seats' masks now), boneyard[k, :] (draw order) and
        loglik[k, seat, model] (log-likelihood of the seat's decisions). Returns the
        number of decisions whose chosen move the world's hand did not allow (0 unless
        the tables are wrong). The arrays: writable, of dtypes float64, uint32 and uint8."""
        cdef uint64_t seed = checked_u64(seed_, "seed")
        cdef long start = checked_int(start_, 0, 2 ** 62, "start")
        cdef double[:, :, :] loglik
        cdef uint32_t[:, :] hands
        cdef uint8_t[:, :] boneyard
        self.check_ready()
        if loglik_ is None or hands_ is None or boneyard_ is None:
            raise CoreError("draw: loglik, hands and boneyard must be arrays, not None")
        try:
            loglik = loglik_
        except (TypeError, ValueError, BufferError):
            raise CoreError(f"draw: loglik must be a writable float64 array of shape (n, 4, models), "
                            f"not {type(loglik_).__name__}") from None
        try:
            hands = hands_
        except (TypeError, ValueError, BufferError):
            raise CoreError(f"draw: hands must be a writable uint32 array of shape (n, 4), "
                            f"not {type(hands_).__name__}") from None
        try:
            boneyard = boneyard_
        except (TypeError, ValueError, BufferError):
            raise CoreError(f"draw: boneyard must be a writable uint8 array of shape (n, 28), "
                            f"not {type(boneyard_).__name__}") from None
        cdef long count = loglik.shape[0], w
        cdef int cls[MAX_ITEMS]
        cdef uint8_t slot_tile[MAX_ITEMS]
        cdef uint8_t bone[28]
        cdef uint32_t hm[4]
        cdef uint8_t moves[MAX_MOVES]
        cdef Rng rng
        cdef int b, i, k, m, d, n, s, seat, bad = 0
        cdef uint32_t h
        cdef uint8_t chosen
        cdef double z, pc, lk, top
        cdef double* row
        cdef Position pos
        if hands.shape[0] != count or boneyard.shape[0] != count or loglik.shape[1] != 4 or \
                loglik.shape[2] != self.n_models or hands.shape[1] != 4 or boneyard.shape[1] != 28:
            raise CoreError("draw: arrays of shape (n, 4, models), (n, 4) and (n, 28)")
        with nogil:
            for w in range(count):
                world_stream(&rng, seed, <uint64_t>(start + w))
                hm[0] = hm[1] = hm[2] = hm[3] = 0
                b = self.counter.sample_world_classes(&rng, hm, bone, cls)
                if b < 0:
                    bad = -1
                    break
                for s in range(4):
                    hands[w, s] = hm[s]
                for i in range(28):
                    boneyard[w, i] = bone[i] if i < b else 255
                for s in range(4):
                    for k in range(self.n_models):
                        loglik[w, s, k] = 0.0
                if self.n_dec == 0:
                    continue
                self.fill_slots(&rng, cls, slot_tile)
                for d in range(self.n_dec):
                    seat = self.dec[d].seat
                    h = self.hand_at(d, slot_tile)
                    pos = self.dec[d].pos
                    pos.hand[seat] = h
                    n = gen_moves(&pos, moves)
                    chosen = self.dec[d].chosen
                    m = -1
                    for i in range(n):
                        if moves[i] == chosen:
                            m = i
                    if m < 0:
                        bad += 1
                        continue
                    if n < 2:
                        continue
                    for k in range(self.n_models):
                        if self.kind[k] == KIND_NONE:
                            continue
                        if self.kind[k] == KIND_RANDOM:
                            loglik[w, seat, k] += -log(<double>n)
                            continue
                        row = &self.table[(<long>d * self.n_models + k) * MOVE_CODES]
                        z = 0.0
                        for i in range(n):
                            z += row[moves[i]]
                        if z > 1e-250:
                            pc = row[chosen] / z
                        else:
                            # every move this hand allowed is far below the best move off the
                            # board: the softmax again, relative to the hand's own best
                            row = &self.logs[(<long>d * self.n_models + k) * MOVE_CODES]
                            top = row[moves[0]]
                            for i in range(n):
                                if row[moves[i]] > top:
                                    top = row[moves[i]]
                            z = 0.0
                            for i in range(n):
                                z += exp(row[moves[i]] - top)
                            pc = exp(row[chosen] - top) / z
                        lk = self.floor / n + (1.0 - self.floor) * pc
                        loglik[w, seat, k] += log(lk)
        if bad < 0:
            raise CoreError("no consistent deal of the hidden tiles")
        return bad
