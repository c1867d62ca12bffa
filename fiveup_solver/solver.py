"""Perfect-information (double-dummy) solver API.

Every hand and the boneyard order are known, so forced draws are
deterministic. The value of a position is for the side of the seat to move
(with 3 players: that seat against the other two, paranoid): the raw points
its side gains from accepted events until the round ends minus the other
side's, or +1000 / -1000 when an accepted event reaches exactly 305 (instead
of any points). See ``src/fiveup_solver/_solver.pyx`` for the search.

``search`` says how 3 players are searched: ``"paranoid"`` (the default: the
seat to move against the other two together, as above) or ``"maxn"`` (max^n:
every side maximises its own value; see :data:`SEARCHES` and ``_solver.pyx``).
Under max^n a 3-player value is the mover's own entry of the position's value
vector: under ``objective="points"`` its raw points of the rest of the round
minus the mean of the two others' (a multiple of 2.5: a float when it is not a
whole number), +1000 when it reaches 305 and -500 when another side does;
under ``objective="win"`` 1000 x (P(it wins the game) - P(another side wins)),
+1000 when it reaches 305 and -1000 when another side does. With 2 or 4
players (two sides) both searches are the same minimax.

``objective="win"`` values the end of the round by the race-equity table
(:mod:`fiveup_solver.equity`) instead: a move's value is 1000 x (P(the side
wins the game) - P(another side wins)), still +-1000 for reaching 305, and
every result carries both currencies per move (``win``: probability,
``points``: raw points of the round) unless ``both=False``.

>>> from fiveup_solver.game import Game
>>> solver = Solver(tt_mb=4)
>>> res = solver.solve(Game(players=2, seed=3))
>>> res.value == max(res.values.values()) and res.best[0] in res.values and res.nodes > 0
True
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from fiveup_solver import _core, _solver
from fiveup_solver.equity import EquityTable, search_values
from fiveup_solver.errors import (IllegalMoveError, OptionError, as_int, as_number, check_switch, is_int, is_number,
                                  short_repr as _short)
from fiveup_solver.game import Game
from fiveup_solver.notation import ALL_TILES, Move, format_move

__all__ = ["Solver", "SolveResult", "WIN_VALUE", "OBJECTIVES", "SEARCHES", "DEFAULT_SEARCH", "check_objective",
           "check_search", "win_probability"]

WIN_VALUE = _solver.WIN_VALUE
OBJECTIVES = ("points", "win")
# how 3 players are searched: "paranoid" (the mover against the other two together) or
# "maxn" (every side maximises its own value); 2 and 4 players are two sides either way
SEARCHES = ("paranoid", "maxn")
DEFAULT_SEARCH = "paranoid"
# search threads of a Solver (see Solver): the default is set by measurement (docs/results/performance.md)
DEFAULT_THREADS = 1
MAX_THREADS = _solver.MAX_SEARCH_THREADS    # of a Solver and of a hint


def check_objective(objective) -> str:
    if not isinstance(objective, str) or objective not in OBJECTIVES:
        raise OptionError(f"objective must be one of {', '.join(OBJECTIVES)}, not {_short(objective)}")
    return objective


def check_search(search) -> str:
    """A search name of SEARCHES (None: DEFAULT_SEARCH)."""
    if search is None:
        return DEFAULT_SEARCH
    if not isinstance(search, str) or search not in SEARCHES:
        raise OptionError(f"search must be one of {', '.join(SEARCHES)}, not {_short(search)}")
    return search


def set_core_search(core, search: str) -> None:
    """Point a SolverCore at `search` ("paranoid" or "maxn")."""
    if core.search_maxn != (search == "maxn"):
        core.set_search(int(search == "maxn"))


def _unit(v, scale: int):
    """An internal max^n value in reported units (a float only when not a whole number)."""
    if scale == 1:
        return v
    q = v / scale
    return int(q) if q == int(q) else q


def win_probability(value: float) -> float:
    """A win-objective value (1000 x (P(win) - P(loss))) as the probability of winning.
    ``value`` is a finite number from -1000 to 1000 (``WIN_VALUE``); anything else is no
    such value (a points value, a node-limited None) and an OptionError.

    >>> win_probability(0), win_probability(1000), win_probability(-500)
    (0.5, 1.0, 0.25)
    """
    value = as_number(value)         # (numpy's numbers too: a researcher's array of values)
    if not is_number(value) or not -WIN_VALUE <= value <= WIN_VALUE:
        raise OptionError(f"value must be a win-objective value, a number from -{WIN_VALUE} to {WIN_VALUE}, "
                          f"not {_short(value)}")
    return (WIN_VALUE + value) / (2 * WIN_VALUE)


def set_core_objective(core, objective: str, players: int, equity=None) -> None:
    """Point a SolverCore at `objective` (for "win": the EquityTable `equity`, or the
    shipped table for `players`)."""
    if objective == "points":
        if core.objective != _solver.POINTS:
            core.set_objective(_solver.POINTS)
        return
    if equity is None:
        table = search_values(players)
    else:
        if equity.players != players:
            raise OptionError(f"the equity table is for {equity.players} players, the game has {players}")
        table = equity.search_values()
    if core.equity_table is not table or core.objective != _solver.WIN_OBJECTIVE:
        core.set_objective(_solver.WIN_OBJECTIVE, table, players)
_PASS = 0xE0  # MOVE_PASS of the core


@dataclass
class SolveResult:
    """Exact values of one position (DDS style: every result carries its node count).

    Moves are keyed by their text (record notation; :meth:`value_of` takes a Move too).
    ``value`` and ``values`` are in the objective's units: raw points of the round, or
    under ``objective="win"`` 1000 x (P(win) - P(loss)) (:func:`win_probability` turns
    one into a probability; ``win`` gives every move's). ``best`` lists the tied best
    moves' text; :attr:`best_move` is the first as a Move, and :attr:`next_move` the move
    to push now (a forced draw before them: ``draws``).

    A solve cut by the node limit (``exact`` False) knows no value of the position
    (``value`` None, no best move, no line); ``values`` (and the objective's ``win``
    or ``points``) hold the moves it proved before the cut, each exactly (none under
    max^n with 3 players, which proves its moves together).
    """

    seat: int
    value: int | None       # None only when a node limit cut the search
    values: dict            # every legal concrete move string -> exact value (cut: the moves proved before it)
    best: list              # the move strings with the best value
    pv: list                # a principal variation (move strings; forced draws implied)
    nodes: int
    seconds: float
    exact: bool = True      # False only when a node limit cut the search
    extra: dict = field(default_factory=dict)
    objective: str = "points"
    win: dict = field(default_factory=dict)     # move -> P(the side wins the game), from the win search
    points: dict = field(default_factory=dict)  # move -> raw points of the round, from the points search
    search: str | None = None                   # how 3 players were searched (SEARCHES); None with 2 or 4
    vectors: dict = field(default_factory=dict)  # max^n, 3 players: move -> every side's value (objective's units)
    draws: list = field(default_factory=list)   # the tiles the seat must draw first (its moves place the last)
    # the position's value in each currency: its best move's in each (they may differ), or with
    # no move left (the draws end the round) the round's end's; None where not searched or cut
    position_win: float | None = None           # P(the side wins the game)
    position_points: int | float | None = None  # raw points of the round

    @property
    def best_move(self) -> Move | None:
        """The first of the best moves as a Move (after ``draws``, if the seat must draw
        first); None when a node limit cut the search or no move is left."""
        return Move.parse(self.best[0]) if self.best else None

    @property
    def next_move(self) -> Move | None:
        """The move to push now: a draw while the seat must draw first (``draws``; a
        review found ``best`` names a tile not yet in the hand there), else
        :attr:`best_move`.

        >>> from fiveup_solver.game import Game
        >>> g = Game(players=2, seed=3)
        >>> res = Solver(tt_mb=4).solve(g)
        >>> _ = g.push(res.next_move); res.next_move == res.best_move
        True
        """
        if self.value is None:
            return None
        return Move.draw() if self.draws else self.best_move

    def value_of(self, move) -> int | float:
        """A move's value in the objective's units, given as a Move or as its text (a
        review: ``values[move]`` with a Move found nothing); an OptionError for a move
        that is not among the solved ones."""
        key = format_move(move) if isinstance(move, Move) else move
        if not isinstance(key, str) or key not in self.values:
            raise OptionError(f"{_short(move)} is not a solved move of this position "
                              f"({', '.join(self.values) or 'none: the search was cut'})"[:300])
        return self.values[key]

    def cut_text(self, node_limit: int) -> str:
        """A cut solve in words, with the moves it proved (``fiveup solve``, ``/api/solve``).

        >>> from fiveup_solver.game import Game
        >>> Solver(tt_mb=4, node_limit=20_000).solve(Game(players=4, seed=2)).cut_text(20_000)
        "node limit 20,000 reached before every move's exact value was known (3 moves proved before it: 0-2 -35, 0-6 -15, 1-6 -15)"
        """
        shown = ", ".join(f"{m} {v:+g}" for m, v in list(self.values.items())[:4])
        more = ", ..." if len(self.values) > 4 else ""
        proved = f"{len(self.values)} move{'' if len(self.values) == 1 else 's'} proved before it"
        return (f"node limit {node_limit:,} reached before every move's exact value was known "
                f"({proved}{': ' + shown + more if shown else ''})")

    def to_dict(self) -> dict:
        # exact: False when the node limit cut the objective's search (value None, values the moves
        # proved before the cut, best and pv empty); a
        # currency cut alone (its search past the limit after the objective's) is an empty win or points
        d = {"seat": self.seat, "objective": self.objective, "exact": self.exact, "value": self.value,
             "values": dict(self.values),
             "best": list(self.best), "pv": list(self.pv),
             "win": {m: round(p, 6) for m, p in self.win.items()}, "points": dict(self.points),
             "nodes": self.nodes, "seconds": round(self.seconds, 6), "search": self.search, "draws": list(self.draws),
             "position_win": None if self.position_win is None else round(self.position_win, 6),
             "position_points": self.position_points}
        if self.vectors:
            d["vectors"] = {m: list(v) for m, v in self.vectors.items()}
        return d


def move_string(t: int, g: int, k: int) -> str:
    tile = ALL_TILES[t]
    if g < 0:
        return str(tile)
    target = ALL_TILES[g]
    return f"{tile}@{target}:{target.port_names[k]}"


def _position(game):
    """A copy of `game`'s current position (its core; 0.1 us), checked: taken before a call
    waits for its Solver, so another thread may play on in `game` meanwhile (docs/api.md)."""
    if not isinstance(game, Game):
        raise OptionError(f"the solver takes a Game, not {type(game).__name__}")
    if not game.rounds:
        raise IllegalMoveError("there is no position to solve: no round has been dealt (start_round first)")
    if game.current.filled_for is not None:
        # (a review: a game read from a view was "solved exactly" on tiles made up from a seed, and
        # the value's sign flipped against the true deal's)
        raise IllegalMoveError(f"this round was read from seat {game.current.filled_for}'s view: its hidden tiles "
                               "are filled in from a seed, not known; the solver needs every hand (hint() judges "
                               "what one seat knows)")
    core = game.current.core.copy()
    # (checked on the copy: the game may end its round between a look at it and the copy)
    if core.status != "playing":
        raise IllegalMoveError("there is no position to solve: the round is over")
    return core


def _forced_draws(core) -> list:
    """The tiles (text) the seat to move must draw before it can place or pass, in order."""
    draws = []
    if core.turn_kind() == "draw":          # (a copy only then: most solves have a move)
        ahead = core.copy()
        while ahead.turn_kind() == "draw":
            draws.append(str(ALL_TILES[ahead.boneyard_left[0]]))
            ahead.draw()
    return draws


class Solver:
    """A reusable solver context: the transposition table is kept between calls.

    ``tt_mb``: table size in MB. ``use_tt`` and ``target_pruning`` switch the
    table and the exact-target pruning off (for tests and benchmarks; values
    are identical either way). ``node_limit`` (0 = none) bounds each search of a
    call (the objective's, the other currency's and the principal variation's, each
    its own; a cut stops within a few nodes of it); a result cut in the objective's
    search has ``exact=False``. ``tt_min_tiles``: positions with this many
    tiles in hands or fewer skip the table (-1: 2 + 3 x players, measured best).
    ``objective``: "points" (raw points of the round) or "win" (game-win
    probability through the equity tables); ``both``: also solve with the other
    objective, so every result has ``win`` and ``points`` per move. ``search``:
    "paranoid" or "maxn", how 3-player positions are searched (module text).
    ``threads``: search threads for large positions (Lazy SMP: helpers share the
    table and search the same position in their own move orders; the values are
    the same for every thread count, the node counts are not). A call with a
    ``node_limit`` searches on one thread, so that where it is cut is reproducible.
    """

    def __reduce__(self):
        # (an embedder's review: pickle raised Cython's "no default __reduce__" TypeError)
        raise OptionError("a Solver cannot be pickled or copied: "
                          "make one in each process (its transposition table is its own)")

    def __init__(self, tt_mb: float = 16, use_tt: bool = True, target_pruning: bool = True,
                 tt_min_tiles: int = -1, node_limit: int = 0, pv: bool = True, objective: str = "points",
                 both: bool = True, equity=None, search: str | None = None, threads: int = DEFAULT_THREADS):
        # an integer of any type (numpy's) is taken as its int (errors.as_int), as everywhere
        tt_mb = as_number(tt_mb)
        node_limit, tt_min_tiles, threads = (as_int(x) for x in (node_limit, tt_min_tiles, threads))
        if isinstance(tt_mb, bool) or not (isinstance(tt_mb, (int, float)) and 0.001 <= tt_mb <= 16384):
            raise OptionError(f"tt_mb must be between 0.001 and 16384, not {_short(tt_mb)}")
        if not is_int(node_limit) or not 0 <= node_limit < 2 ** 63:
            raise OptionError(f"node_limit must be an integer from 0 to 2^63-1, not {_short(node_limit)}")
        if not is_int(tt_min_tiles) or not -1 <= tt_min_tiles <= 28:
            raise OptionError(f"tt_min_tiles must be an integer from -1 to 28, not {_short(tt_min_tiles)}")
        if not is_int(threads) or not 1 <= threads <= MAX_THREADS:
            raise OptionError(f"threads must be an integer from 1 to {MAX_THREADS}, not {_short(threads)}")
        use_tt, target_pruning, pv, both = (check_switch(name, on) for name, on in (
            ("use_tt", use_tt), ("target_pruning", target_pruning), ("pv", pv), ("both", both)))
        self.search = check_search(search)
        self.threads = threads
        try:
            self.core = _solver.SolverCore(float(tt_mb), use_tt, target_pruning, tt_min_tiles, threads)
        except MemoryError:
            # (a table of the allowed size this machine cannot hold: a traceback before)
            raise OptionError(f"tt_mb {_short(tt_mb)}: this machine cannot allocate a transposition table "
                              f"of {_short(tt_mb)} MB (with the threads' contexts); a smaller tt_mb may fit") from None
        self.core.set_search(int(self.search == "maxn"))
        self.node_limit = node_limit
        self.want_pv = pv
        self.objective = check_objective(objective)
        self.both = both
        if equity is not None and not isinstance(equity, EquityTable):
            raise OptionError(f"equity must be an EquityTable or None, not {type(equity).__name__}")
        self.equity = equity
        # one search at a time: calls from several threads take turns (the core refuses
        # a second search at once; see SolverCore.claim)
        self._lock = threading.RLock()

    def clear(self) -> None:
        """Erase the table: the next solves give a new Solver's values, nodes and
        node-limit cuts (:meth:`forget` does the same without erasing)."""
        with self._lock:
            self.core.clear()

    def forget(self) -> None:
        """Make the next solve independent of the earlier ones, as after :meth:`clear`
        (the same values, nodes and node-limit cuts as a new Solver's), at no cost: the
        table's entries are not erased but can no longer be found."""
        with self._lock:
            self.core.forget()

    def stop(self) -> bool:
        """Stop this Solver's call running now (``solve``, ``best``, ``value``,
        ``solve_many``), from any thread (an app's "cancel"; ``fiveup serve`` when a solve's
        client leaves): its search ends at its next look for Ctrl-C (every 65,536 nodes,
        milliseconds) and the call raises :class:`~fiveup_solver.errors.SearchStopped` (not a
        FiveUpError). A call that begins later is not stopped. Returns whether a call was
        searching. The Solver stays as good as before.

        >>> Solver(tt_mb=1).stop()          # nothing running
        False
        """
        return self.core.stop()

    def solve(self, game) -> SolveResult:
        """Exact value of every legal move of the seat to move in `game`'s current round.

        If that seat must draw first, the forced draws are made from the known
        boneyard and the drawn tile's placements are valued.
        A Solver may be shared between threads: their calls take turns.
        """
        core = _position(game)      # before the lock: the position the game has now
        with self._lock:
            self.core.clear_stop()
            return self._solve(core)

    def _solve(self, core) -> SolveResult:
        """:meth:`solve` of a position copied from a game (the lock is held)."""
        t0 = time.perf_counter()
        players = core.players
        seat = core.to_move
        three = self.search if players == 3 else None     # (2 or 4 players: one minimax, no search chosen)
        # the draws the seat must make first (the search makes them; its moves and PV leave them
        # implied, and a review read moves of a tile not in the hand)
        draws = _forced_draws(core)
        # Both currencies of an unlimited solve: points first, whose exact values seed
        # the win search's MTD(f) (its values are exact whatever the guess: fewer
        # nodes only). Under a node limit each search stays as it was (unseeded,
        # the objective's own first): a seeded search could finish where the
        # unseeded one was cut, or the other way round.
        seeds = None
        if self._seeded(players) and self.objective == "win":
            set_core_objective(self.core, "points", players, self.equity)
            points_first = self._solve_values(core)
            seeds = points_first[5]
        set_core_objective(self.core, self.objective, players, self.equity)
        value, values, nodes, aborted, vectors, canon = self._solve_values(core, seeds)
        if aborted:
            # a node limit cut the search: the position's value is not known, but the moves
            # searched before the cut are, exactly (a review: they were thrown away)
            return SolveResult(seat, None, values, [], [], nodes, time.perf_counter() - t0, exact=False,
                               objective=self.objective, search=three, draws=draws,
                               win={m: win_probability(v) for m, v in values.items()} if self.objective == "win"
                               else {}, points=dict(values) if self.objective == "points" else {})
        best = [m for m, v in values.items() if v == value] if values else []
        pv = []
        if self.want_pv:
            # the root's value places the line's first test (max^n: a vector, its own root)
            known = None if self.search == "maxn" and players == 3 else value
            line, pv_nodes = self.core.principal_variation(core, 64, self.node_limit, known)
            nodes += pv_nodes
            pv = self._pv_strings(core, line)
        by_objective = {self.objective: values}
        if seeds is not None:
            by_objective["points"] = points_first[1]
            nodes += points_first[2]
        elif self.both:
            other = "win" if self.objective == "points" else "points"
            set_core_objective(self.core, other, players, self.equity)
            # (its own flag: the first search finished, its values exact whatever this one does;
            # a review found exact=False beside exact values when only this one was cut)
            _, other_values, other_nodes, other_aborted, _, _ = self._solve_values(
                core, canon if other == "win" and self._seeded(players) else None)
            set_core_objective(self.core, self.objective, players, self.equity)
            nodes += other_nodes
            if not other_aborted:
                by_objective[other] = other_values
        position = {name: max(got.values()) for name, got in by_objective.items() if got}
        if not values:
            # no move left: the draws end the round (blocked), whose value is the position's; the
            # other currency's from its own search of it (a review: it was left out)
            position[self.objective] = value
            if self.both:
                other = "win" if self.objective == "points" else "points"
                set_core_objective(self.core, other, players, self.equity)
                v, other_nodes, other_aborted = self.core.value(core, self.node_limit)
                set_core_objective(self.core, self.objective, players, self.equity)
                nodes += other_nodes
                if not other_aborted:
                    position[other] = _unit(v, self.core.value_scale) if three == "maxn" else v
        win = {m: win_probability(v) for m, v in by_objective.get("win", {}).items()}
        return SolveResult(seat, value, values, best, pv, nodes, time.perf_counter() - t0, exact=True,
                           objective=self.objective, win=win, points=dict(by_objective.get("points", {})),
                           search=three, vectors=vectors, draws=draws,
                           position_win=win_probability(position["win"]) if "win" in position else None,
                           position_points=position.get("points"))

    def best(self, game) -> SolveResult:
        """The position's exact value and one best move, without every move's value: the
        value, then the principal variation's first move (a move worth exactly the value:
        one zero-window test a move tried). What an app's "best move, all hands known" needs;
        much cheaper than :meth:`solve` where proving every other move's value is hard (a
        review: docs/solver.md's hard 2-player deal, whose value takes 2,059 nodes, gave its
        best move in 2,223, where ``solve`` needs more than 10^9). The result's ``values``,
        ``best`` and the objective's currency (``win`` or ``points``) hold that move alone;
        the other currency is not searched. A node limit bounds the value's search and the
        line's; a cut result has ``exact=False`` and no move.

        >>> from fiveup_solver.game import Game
        >>> g = Game(players=2, seed=3)
        >>> solver = Solver(tt_mb=4)
        >>> quick, full = solver.best(g), solver.solve(g)
        >>> quick.value == full.value and quick.best[0] in full.best and list(quick.values) == quick.best
        True
        """
        core = _position(game)
        with self._lock:
            self.core.clear_stop()
            t0 = time.perf_counter()
            players = core.players
            three = self.search if players == 3 else None
            draws = _forced_draws(core)
            value, nodes = self._value(core)
            line = []
            if value is not None:
                known = None if three == "maxn" else value
                line, pv_nodes = self.core.principal_variation(core, 64, self.node_limit, known)
                nodes += pv_nodes
            pv = self._pv_strings(core, line)
            if value is None or not pv:
                # cut (by the node limit), or no move left: the draws end the round
                return SolveResult(core.to_move, value, {}, [], [], nodes, time.perf_counter() - t0,
                                   exact=value is not None, objective=self.objective, search=three, draws=draws,
                                   position_win=win_probability(value) if value is not None and
                                   self.objective == "win" else None,
                                   position_points=value if self.objective == "points" else None)
            move = pv[0]
            win = {move: win_probability(value)} if self.objective == "win" else {}
            points = {move: value} if self.objective == "points" else {}
            return SolveResult(core.to_move, value, {move: value}, [move], pv, nodes, time.perf_counter() - t0,
                               exact=True, objective=self.objective, win=win, points=points, search=three,
                               draws=draws, position_win=win.get(move), position_points=points.get(move))

    def _seeded(self, players: int) -> bool:
        """Whether the win search of a solve with both currencies starts from the points
        values (SolverCore.solve_moves): without a node limit, and where it measured
        fewer nodes over the suites (docs/results/performance.md, issue 24: both currencies'
        nodes 0.55 of the unseeded ones on 2-player openings, 0.81 on 3-player mid-round
        positions, 0.89 on 4-player near-target ones, 1.01 on 4-player openings);
        not under max^n (its own root search)."""
        return self.both and self.node_limit == 0 and not (self.search == "maxn" and players == 3)

    def _solve_values(self, core, points_values=None):
        """(root value, {move string: value}, nodes, aborted, {move string: vector},
        {canonical move: value}) under the core's objective; the vectors only for max^n
        with 3 players. ``points_values``: the canonical moves' exact points values, the
        win search's first guesses (see ``SolverCore.solve_moves``)."""
        vectors = {}
        if self.search == "maxn" and core.players == 3:
            scale = self.core.value_scale
            root_vec, canon_vecs, nodes, aborted = self.core.maxn_moves(core, self.node_limit)
            if aborted:
                canon_vecs = []     # (its root searches the moves together: a cut proves none)
            side = core.to_move
            value = _unit(root_vec[side], scale)
            by_canon = {m: _unit(vec[side], scale) for m, vec in canon_vecs}
            vec_of = {m: [_unit(x, scale) for x in vec] for m, vec in canon_vecs}
        else:
            value, canon, nodes, aborted = self.core.solve_moves(core, self.node_limit, points_values)
            by_canon = dict(canon)
            vec_of = None
        after = core.copy()
        while after.turn_kind() == "draw":
            after.draw()
        kind = after.turn_kind()
        values = {}
        # (a cut search proved only some moves, max^n none: the others are left out)
        if kind == "place":
            for t, g, k in after.concrete_moves():
                if _core.canonical_of(t, g, k) in by_canon:
                    values[move_string(t, g, k)] = by_canon[_core.canonical_of(t, g, k)]
                    if vec_of is not None:
                        vectors[move_string(t, g, k)] = vec_of[_core.canonical_of(t, g, k)]
        elif kind == "pass" and _PASS in by_canon:
            values["pass"] = by_canon[_PASS]
            if vec_of is not None:
                vectors["pass"] = vec_of[_PASS]
        return value, values, nodes, aborted, vectors, (None if aborted or vec_of is not None else by_canon)

    def solve_many(self, games) -> list:
        """Solve a batch of positions with the same table (results in order)."""
        if isinstance(games, (str, bytes)) or not hasattr(games, "__iter__"):
            raise OptionError(f"solve_many takes a list of Game, not {type(games).__name__}")
        cores = [_position(g) for g in games]      # every position as it is now, checked first
        with self._lock:
            self.core.clear_stop()
            return [self._solve(core) for core in cores]

    def value(self, game) -> tuple:
        """(value, nodes) of the current position, without per-move values (value None if cut)."""
        core = _position(game)      # before the lock: the position the game has now
        with self._lock:
            self.core.clear_stop()
            return self._value(core)

    def _value(self, core) -> tuple:
        set_core_objective(self.core, self.objective, core.players, self.equity)
        v, nodes, aborted = self.core.value(core, self.node_limit)
        if self.search == "maxn" and core.players == 3:
            v = _unit(v, self.core.value_scale)
        return (None if aborted else v), nodes

    @staticmethod
    def _pv_strings(core, line) -> list:
        walk = core.copy()
        out = []
        for move in line:
            while walk.turn_kind() == "draw":
                walk.draw()
            if move == _PASS:
                walk.pass_turn()
                out.append("pass")
                continue
            for t, g, k in walk.concrete_moves():
                if _core.canonical_of(t, g, k) == move:
                    out.append(move_string(t, g, k))
                    walk.place(t, g, k)
                    break
            else:  # pragma: no cover - the core's moves always have a concrete form
                raise AssertionError("principal variation left the legal moves")
        return out
