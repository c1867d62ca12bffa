"""Perfect-information (double-dummy) solver API.

Every hand and the boneyard order are known, so forced draws are
deterministic. The value of a position is for the side of the seat to move
(with 3 players: that seat against the other two, paranoid): the raw points
its side gains from accepted events until the round ends minus the other
side's, or +1000 / -1000 when an accepted event reaches exactly 305 (instead
of any points). See ``src/fiveup_solver/_solver.pyx`` for the search.

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

import time
from dataclasses import dataclass, field

from fiveup_solver import _core, _solver
from fiveup_solver.errors import IllegalMoveError, OptionError, short_repr as _short
from fiveup_solver.notation import ALL_TILES

__all__ = ["Solver", "SolveResult", "WIN_VALUE", "OBJECTIVES", "check_objective", "win_probability"]

WIN_VALUE = _solver.WIN_VALUE
OBJECTIVES = ("points", "win")


def check_objective(objective) -> str:
    if not isinstance(objective, str) or objective not in OBJECTIVES:
        raise OptionError(f"objective must be one of {', '.join(OBJECTIVES)}, not {_short(objective)}")
    return objective


def win_probability(value: float) -> float:
    """A win-objective value (1000 x (P(win) - P(loss))) as the probability of winning.

    >>> win_probability(0), win_probability(1000), win_probability(-500)
    (0.5, 1.0, 0.25)
    """
    return (WIN_VALUE + value) / (2 * WIN_VALUE)


def set_core_objective(core, objective: str, players: int, equity=None) -> None:
    """Point a SolverCore at `objective` (for "win": the EquityTable `equity`, or the
    shipped table for `players`)."""
    if objective == "points":
        if core.objective != _solver.POINTS:
            core.set_objective(_solver.POINTS)
        return
    if equity is None:
        from fiveup_solver.equity import search_values
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
    """Exact values of one position (DDS style: every result carries its node count)."""

    seat: int
    value: int | None       # None only when a node limit cut the search
    values: dict            # every legal concrete move string -> exact value
    best: list              # the move strings with the best value
    pv: list                # a principal variation (move strings; forced draws implied)
    nodes: int
    seconds: float
    exact: bool = True      # False only when a node limit cut the search
    extra: dict = field(default_factory=dict)
    objective: str = "points"
    win: dict = field(default_factory=dict)     # move -> P(the side wins the game), from the win search
    points: dict = field(default_factory=dict)  # move -> raw points of the round, from the points search

    def to_dict(self) -> dict:
        return {"seat": self.seat, "objective": self.objective, "value": self.value, "values": dict(self.values),
                "best": list(self.best), "pv": list(self.pv),
                "win": {m: round(p, 6) for m, p in self.win.items()}, "points": dict(self.points),
                "nodes": self.nodes, "seconds": round(self.seconds, 6)}


def move_string(t: int, g: int, k: int) -> str:
    tile = ALL_TILES[t]
    if g < 0:
        return str(tile)
    target = ALL_TILES[g]
    return f"{tile}@{target}:{target.port_names[k]}"


def _check_game(game) -> None:
    from fiveup_solver.game import Game
    if not isinstance(game, Game):
        raise OptionError(f"the solver takes a Game, not {type(game).__name__}")
    if not game.rounds or game.round_over:
        raise IllegalMoveError("there is no position to solve: the round is over")


class Solver:
    """A reusable solver context: the transposition table is kept between calls.

    ``tt_mb``: table size in MB. ``use_tt`` and ``target_pruning`` switch the
    table and the exact-target pruning off (for tests and benchmarks; values
    are identical either way). ``node_limit`` (0 = none) bounds each call; a
    cut result has ``exact=False``. ``tt_min_tiles``: positions with this many
    tiles in hands or fewer skip the table (-1: 2 + 3 x players, measured best).
    ``objective``: "points" (raw points of the round) or "win" (game-win
    probability through the equity tables); ``both``: also solve with the other
    objective, so every result has ``win`` and ``points`` per move.
    """

    def __init__(self, tt_mb: float = 16, use_tt: bool = True, target_pruning: bool = True,
                 tt_min_tiles: int = -1, node_limit: int = 0, pv: bool = True, objective: str = "points",
                 both: bool = True, equity=None):
        if isinstance(tt_mb, bool) or not (isinstance(tt_mb, (int, float)) and 0.001 <= tt_mb <= 16384):
            raise OptionError(f"tt_mb must be between 0.001 and 16384, not {_short(tt_mb)}")
        if isinstance(node_limit, bool) or not isinstance(node_limit, int) or not 0 <= node_limit < 2 ** 63:
            raise OptionError(f"node_limit must be an integer from 0 to 2^63-1, not {_short(node_limit)}")
        if isinstance(tt_min_tiles, bool) or not isinstance(tt_min_tiles, int) or not -1 <= tt_min_tiles <= 28:
            raise OptionError(f"tt_min_tiles must be an integer from -1 to 28, not {_short(tt_min_tiles)}")
        self.core = _solver.SolverCore(float(tt_mb), bool(use_tt), bool(target_pruning), tt_min_tiles)
        self.node_limit = node_limit
        self.want_pv = pv
        self.objective = check_objective(objective)
        if not isinstance(both, bool):
            raise OptionError(f"both must be True or False, not {_short(both)}")
        self.both = both
        from fiveup_solver.equity import EquityTable
        if equity is not None and not isinstance(equity, EquityTable):
            raise OptionError(f"equity must be an EquityTable or None, not {type(equity).__name__}")
        self.equity = equity

    def clear(self) -> None:
        """Forget the table."""
        self.core.clear()

    def solve(self, game) -> SolveResult:
        """Exact value of every legal move of the seat to move in `game`'s current round.

        If that seat must draw first, the forced draws are made from the known
        boneyard and the drawn tile's placements are valued.
        """
        _check_game(game)
        t0 = time.perf_counter()
        core = game.current.core
        seat = core.to_move
        set_core_objective(self.core, self.objective, game.players, self.equity)
        value, values, nodes, aborted = self._solve_values(core)
        if aborted:
            # a node limit cut the search: no value is known exactly
            return SolveResult(seat, None, {}, [], [], nodes, time.perf_counter() - t0, exact=False,
                               objective=self.objective)
        best = [m for m, v in values.items() if v == value] if values else []
        pv = []
        if self.want_pv:
            line, pv_nodes = self.core.principal_variation(core, 64, self.node_limit)
            nodes += pv_nodes
            pv = self._pv_strings(core, line)
        by_objective = {self.objective: values}
        if self.both:
            other = "win" if self.objective == "points" else "points"
            set_core_objective(self.core, other, game.players, self.equity)
            _, other_values, other_nodes, aborted = self._solve_values(core)
            set_core_objective(self.core, self.objective, game.players, self.equity)
            nodes += other_nodes
            if not aborted:
                by_objective[other] = other_values
        win = {m: win_probability(v) for m, v in by_objective.get("win", {}).items()}
        return SolveResult(seat, value, values, best, pv, nodes, time.perf_counter() - t0, exact=not aborted,
                           objective=self.objective, win=win, points=dict(by_objective.get("points", {})))

    def _solve_values(self, core):
        """(root value, {move string: value}, nodes, aborted) under the core's objective."""
        value, canon, nodes, aborted = self.core.solve_moves(core, self.node_limit)
        by_canon = dict(canon)
        after = core.copy()
        while after.turn_kind() == "draw":
            after.draw()
        kind = after.turn_kind()
        values = {}
        if kind == "place":
            for t, g, k in after.concrete_moves():
                values[move_string(t, g, k)] = by_canon[_core.canonical_of(t, g, k)]
        elif kind == "pass":
            values["pass"] = by_canon[_PASS]
        return value, values, nodes, aborted

    def solve_many(self, games) -> list:
        """Solve a batch of positions with the same table (results in order)."""
        if isinstance(games, (str, bytes)) or not hasattr(games, "__iter__"):
            raise OptionError(f"solve_many takes a list of Game, not {type(games).__name__}")
        return [self.solve(g) for g in games]

    def value(self, game) -> tuple:
        """(value, nodes) of the current position, without per-move values (value None if cut)."""
        _check_game(game)
        set_core_objective(self.core, self.objective, game.players, self.equity)
        v, nodes, aborted = self.core.value(game.current.core, self.node_limit)
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
