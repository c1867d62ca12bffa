"""Best-move hints for one seat, from that seat's observation only.

The hint samples deals of the hidden tiles uniformly from those consistent with
the observation (:mod:`fiveup_solver.inference`), searches each sampled world
in C on every core (:mod:`fiveup_solver._hint`), and averages each legal move's
value over the worlds, with its standard error. Two objectives:

* ``objective="points"``: raw points the seat's side gains in the rest of the
  round minus what the other side gains, or +-1000 for reaching exactly 305;
* ``objective="win"``: the probability that the seat's side wins the game, the
  round's end valued by the race-equity table (:mod:`fiveup_solver.equity`).

By default a hint reports every move in both currencies (``win`` and
``points``, the second objective searched in the same worlds, following the
first's passes in each: no deeper than the first reached where the node budget
cut it, straight to the pass that solved it where it was solved), and each
move's difference to the best with its paired standard error.

* ``method="pimc"``: each world is solved with the perfect-information solver
  (the world's boneyard order taken as known), iterative deepening under a
  node budget per world.
* ``method="expectimax"``: each world keeps the sampled hands, but every draw
  is a chance node over the world's boneyard tiles (Star1 pruning, sampled
  outcomes where the boneyard is wide), under the same budgets.

``search``: how a world is searched with 3 players: ``"paranoid"`` (the seat
against the other two together) or ``"maxn"`` (max^n: every side maximises its
own value, :mod:`fiveup_solver.solver`); None: :data:`DEFAULT_SEARCH`. With
expectimax, max^n averages value vectors at chance nodes (no Star1 pruning:
it bounds one value, not a vector). With 2 or 4 players both are the same
minimax. Under max^n the points currency is the seat's raw points minus the
mean of the two others' (+1000 for reaching 305); see docs/maxn.md.

Budgets: ``samples`` (deterministic for a seed, whatever the thread count) or
``time_ms`` (anytime: worlds are started until the time is up). A seat with a
single legal move gets it at once, without search.

>>> from fiveup_solver import Game
>>> g = Game(players=2, seed=4)
>>> h = hint(g.observation(g.to_move), samples=8, seed=1)
>>> h.best == h.moves[0].move and len(h.moves) == len(g.legal_moves)
True
"""
from __future__ import annotations

import _thread
import contextlib
import contextvars
import functools
import math
import os
import re
import threading
import time
from dataclasses import asdict, dataclass, fields, replace
from typing import Callable

try:
    # CPython's own BLAKE2 (what hashlib falls back to), without hashlib's OpenSSL: loading
    # that took 3 ms and 4 MB in every process that imports the hints (as random.py takes
    # _sha512)
    from _blake2 import blake2b as _blake2b
except ImportError:     # pragma: no cover - another Python
    from hashlib import blake2b as _blake2b

from fiveup_solver import _alphamu, _core, _exact, _hint, _solver, exact as _exact_search
from fiveup_solver.beliefs import BELIEFS, PLAN_CHUNK, Beliefs, OpponentModel, check_beliefs, check_evidence, search_plan
from fiveup_solver.equity import search_values
from fiveup_solver.errors import (MAX_SAMPLES, IllegalMoveError, InconsistentObservationError, OptionError,
                                  SearchStopped, as_int, as_number, check_players, check_seed, check_switch, is_digits, is_int,
                                  bound_text, short_repr as _short)
from fiveup_solver.game import Game, not_to_move
from fiveup_solver.inference import DealSampler, check_decision, past_evidence
from fiveup_solver.notation import Move, format_move, same_as_earlier
from fiveup_solver.parallel import in_worker, on_worker_start
from fiveup_solver.solver import DEFAULT_SEARCH, MAX_THREADS, OBJECTIVES, SEARCHES, check_objective, check_search, set_core_objective, set_core_search

__all__ = ["Hint", "HintMove", "Hinter", "PositionValue", "SearchMethod", "hint", "position_value", "deal_value",
           "world_values", "set_default_threads", "stop_searches", "use_hinter",
           "METHODS", "HINT_METHODS", "DEFAULT_SAMPLES", "DEFAULT_WORLD_NODES", "DEFAULT_SEARCH", "SearchBudget"]


@dataclass(frozen=True)
class SearchMethod:
    """One way to value moves under hidden information: the registry entry that the
    API, the bots, the command line and the benchmarks all read."""

    name: str                 # the API and --method name
    code: int                 # the core's METHOD_* number (_hint.pxd)
    bot: str                  # the bot of this method at the default budget (bot:SAMPLES:NODES for others)
    chance_width: bool        # whether chance_width bounds its chance nodes
    summary: str              # one line for help texts
    depth: bool = False       # whether it takes ``depth`` (the seat's later decisions chosen jointly)
    players: tuple = (2, 3, 4)    # the player counts it searches


METHODS = {m.name: m for m in (
    SearchMethod("pimc", _hint.PIMC, "hint", False,
                 "each sampled world solved with its boneyard order known (perfect-information search)"),
    SearchMethod("expectimax", _hint.EXPECTIMAX, "expectimax", True,
                 "sampled hands, every boneyard draw a chance node"),
    SearchMethod("alphamu", -1, "hint-alphamu", False,
                 "the seat's next --depth decisions chosen once per information set across the "
                 "sampled worlds, Pareto fronts, leaves solved as PIMC (2 players)", depth=True, players=(2,)),
)}
HINT_METHODS = (*METHODS, "exact")   # the sampled methods, and the exact yardstick (fiveup_solver.exact)
_WORLD_METHODS = tuple(m for m in METHODS if METHODS[m].code >= 0)   # one world at a time (_hint.WorldSearch)
_WORLD_STREAM = 0xC2B2AE3D27D4EB4F    # _sampler.world_stream: a hint's world k is stream (seed ^ this, k)
DEFAULT_SAMPLES = 48          # worlds per hint (the default budget)
DEFAULT_WORLD_NODES = 20_000  # search nodes per world before the last complete depth stands
DEFAULT_CHANCE_WIDTH = 6      # expectimax: outcomes searched at a chance node
DEFAULT_THREADS = 2
DEFAULT_OBJECTIVE = "win"     # the hint bot's objective: stronger than "points" (README: Race equity, Strength)
BUDGET_MAX_DIGITS = 4000      # a bot name's SAMPLES or NODES: longer is refused (int() stops at 4,300 digits)
TIME_BUDGET_WORLDS = 256      # beliefs="model" under time_ms: weighted draws prepared, searched until the time is up
# uniform beliefs under time_ms: the most draws (where worlds are solved in microseconds, more draws only
# add summary time in Python, about a microsecond each, well below the estimate's noise)
TIME_BUDGET_DRAWS = 16_384
# time_ms with both currencies: the first search's share of the time; the second gets the
# rest, in the worlds the first searched (as many as it reaches: docs/results/performance.md)
FIRST_CURRENCY_TIME_SHARE = 0.75
# ... and at least this part of the time, when the first search ran past its share (on a busy
# machine): without it the second currency could rest on one world a thread, its standard
# error 0 from two agreeing draws (a review)
SECOND_CURRENCY_MIN_SHARE = 0.125
DEFAULT_DEPTH = 1             # alphamu: the seat's later decisions chosen jointly (docs/alphamu.md: measured)
ALPHAMU_SAMPLES = 48          # alphamu: worlds per hint (as PIMC: the same worlds, the method alone differs)
ALPHAMU_LEAF_NODES = 2_000    # alphamu: search nodes per leaf (a world after the last joint decision)
ALPHAMU_FRONT_CAP = 16        # alphamu: value vectors kept per Pareto front (the best by weighted mean)


@dataclass(frozen=True)
class SearchBudget:
    """How hard and how a hint searches: one type, checked once when it is made, read by
    :meth:`Hinter.hint`, :meth:`Hinter.position_value` and :meth:`Hinter.deal_value`, the hint bots (a bot name
    ``hint:S:N`` parses into one, :meth:`from_bot_name`), the bot levels
    (:attr:`fiveup_solver.levels.Level.budget`), the analysis
    (:meth:`fiveup_solver.analysis.AnalysisBudget.search_budget`) and the command
    line (:data:`BUDGET_FLAGS`).

    >>> SearchBudget(samples=16, world_nodes=5_000).world_nodes
    5000
    >>> SearchBudget(samples=16, time_ms=100)
    Traceback (most recent call last):
    ...
    fiveup_solver.errors.OptionError: give either samples or time_ms, not both
    """

    method: str = "pimc"                     # a name of METHODS, or "exact" (fiveup_solver.exact)
    samples: int | None = None               # sampled worlds (None: DEFAULT_SAMPLES, or what time_ms allows)
    time_ms: float | None = None             # anytime: search until this time is up (instead of samples)
    world_nodes: int | None = None           # search nodes per world (None: DEFAULT_WORLD_NODES; alphamu: per
                                             # leaf, ALPHAMU_LEAF_NODES)
    chance_width: int = DEFAULT_CHANCE_WIDTH  # expectimax: outcomes searched at a chance node
    objective: str | None = None             # "points" or "win" (None: DEFAULT_OBJECTIVE)
    beliefs: str | None = None               # "uniform" or "model" (None: fiveup_solver.beliefs.DEFAULT_BELIEFS)
    search: str | None = None                # 3 players: "paranoid" or "maxn" (None: DEFAULT_SEARCH)
    depth: int | None = None                 # alphamu: the seat's later decisions chosen jointly (None: DEFAULT_DEPTH)

    def __post_init__(self):
        if self.objective is not None:
            check_objective(self.objective)
        if not isinstance(self.method, str) or self.method not in HINT_METHODS:
            raise OptionError(f"method must be one of {', '.join(HINT_METHODS)}, not {_short(self.method)}")
        check_search(self.search)
        check_beliefs(self.beliefs)
        if self.samples is not None and self.time_ms is not None:
            raise OptionError("give either samples or time_ms, not both")
        for name in ("samples", "world_nodes", "chance_width", "depth"):
            # an integer of any type (numpy's) is kept as its int (errors.as_int)
            object.__setattr__(self, name, as_int(getattr(self, name)))
        if self.samples is not None:
            _check_int("samples", self.samples, 1, MAX_SAMPLES)
        # a number of any type (numpy's float32: a review) is kept as its Python number (errors.as_number)
        if not isinstance(self.time_ms, (int, float)):        # (a float keeps its type: the CLI's echoes as typed)
            object.__setattr__(self, "time_ms", as_number(self.time_ms))
        if self.time_ms is not None and (not isinstance(self.time_ms, (int, float)) or isinstance(self.time_ms, bool)
                                         or not 1 <= self.time_ms <= 3_600_000):
            raise OptionError(f"time_ms must be a number from 1 to 3600000, not {_short(self.time_ms)}")
        if self.world_nodes is not None:
            _check_int("world_nodes", self.world_nodes, 1, 2 ** 62)
        _check_int("chance_width", self.chance_width, 1, 28)
        if self.depth is not None:
            if self.method not in METHODS or not METHODS[self.method].depth:
                raise OptionError(f"depth is an option of method "
                                  f"{' or '.join(repr(m) for m in METHODS if METHODS[m].depth)}, "
                                  f"not of {_short(self.method)}")
            _check_int("depth", self.depth, 0, _alphamu.MAX_DEPTH)

    @classmethod
    def for_bot(cls, method: str, suffix: str = "", samples: int | None = None,
                world_nodes: int | None = None) -> "SearchBudget":
        """The budget of the bot of `method` with name suffix `suffix` ("" or one of
        :data:`BOT_SUFFIXES`: it sets the objective, the beliefs or the 3-player search)."""
        if suffix not in _SUFFIX_FIELD:
            raise OptionError(f"a hint bot's suffix is one of {', '.join(BOT_SUFFIXES)}, not {_short(suffix)}")
        field = _SUFFIX_FIELD[suffix]
        return cls(method=method, samples=samples, world_nodes=world_nodes, **({field: suffix} if field else {}))

    @classmethod
    def from_bot_name(cls, name: str):
        """The budget of a bot name ``METHOD[-X]:SAMPLES:NODES`` or ``METHOD[-X]@MSms``
        (METHOD a bot of METHODS: hint, expectimax, hint-alphamu; X one of
        :data:`BOT_SUFFIXES`; MS the time per decision in milliseconds, anytime: the
        bots of a match at equal time), or ``hint-alphamu-dN`` (also with ``:SAMPLES:NODES``
        or ``@MSms``): alphamu at depth N; None when the name has none of these forms.

        >>> SearchBudget.from_bot_name("hint-win:16:5000")
        SearchBudget(method='pimc', samples=16, time_ms=None, world_nodes=5000, chance_width=6, \
objective='win', beliefs=None, search=None, depth=None)
        >>> SearchBudget.from_bot_name("hint-alphamu-points:8:500").method
        'alphamu'
        >>> SearchBudget.from_bot_name("hint-alphamu@50ms").time_ms
        50.0
        >>> SearchBudget.from_bot_name("hint-alphamu-d3").depth      # alphamu at depth 3 (1 to ALPHAMU_MAX_DEPTH, 8; d0: PIMC)
        3
        """
        name = str(name)
        timed = _TIMED_BOT.fullmatch(name)
        base, _, rest = (timed.group(1), "", "") if timed else name.partition(":")
        parts = rest.split(":")
        method, suffix = None, None
        for bot in sorted((m.bot for m in METHODS.values()), key=len, reverse=True):   # hint-alphamu before hint
            if base == bot or base.startswith(bot + "-"):
                method, suffix = {m.bot: m.name for m in METHODS.values()}[bot], base[len(bot) + 1:]
                break
        if method is None:
            return None
        depth = _DEPTH_SUFFIX.fullmatch(suffix)
        if depth:                       # hint-alphamu-d3: the depth (methods that have one)
            if not METHODS[method].depth or int(depth.group(1)) > ALPHAMU_MAX_DEPTH:
                return None             # (an unknown bot: its message lists the forms)
            depth, suffix = {"depth": int(depth.group(1))}, ""
        else:
            depth = {}
        if suffix not in _SUFFIX_FIELD:
            return None
        if timed:
            time_ms = float(timed.group(2))
            return replace(cls.for_bot(method, suffix), time_ms=time_ms, **depth) if 1 <= time_ms <= 3_600_000 \
                else None
        if depth and not rest:
            return replace(cls.for_bot(method, suffix), **depth)
        # (past BUDGET_MAX_DIGITS int() would near Python's conversion limit: no budget, and the
        # bot's message says why)
        if len(parts) != 2 or not all(is_digits(p) and len(p) <= BUDGET_MAX_DIGITS and int(p) > 0 for p in parts):
            return None
        return replace(cls.for_bot(method, suffix, int(parts[0]), int(parts[1])), **depth)

    def hint_options(self) -> dict:
        """The keyword options of :func:`hint` for this budget (None fields left to the hint's defaults)."""
        return {k: v for k, v in asdict(self).items() if v is not None}


# a time-budgeted bot name: METHOD[-X]@MSms (MS a decimal number of milliseconds)
_TIMED_BOT = re.compile(r"([a-z0-9-]+)@([0-9]{1,7}(?:\.[0-9]{1,3})?)ms")
# hint-alphamu-dN: alphamu at depth N (the methods with a depth)
_DEPTH_SUFFIX = re.compile(r"d([0-9])")
ALPHAMU_MAX_DEPTH = _alphamu.MAX_DEPTH      # the deepest hint-alphamu-dN
# hint-X bots: the budget field each suffix X sets
_SUFFIX_FIELD = {"": None, "win": "objective", "points": "objective", "model": "beliefs", "uniform": "beliefs",
                 "maxn": "search", "paranoid": "search"}
BOT_SUFFIXES = tuple(x for x in _SUFFIX_FIELD if x)
THREE_HELP = ("how 3 players are searched: maxn (every seat maximises its own value) or paranoid (the seat against "
              "the other two together); 2 and 4 players are two sides either way; default: " + DEFAULT_SEARCH)
# The command line's search-budget flags, by SearchBudget field (threads: the Hinter's): flag, type or choices,
# help. The defaults are the budget's own; fiveup hint and fiveup analyze add them from here.
BUDGET_FLAGS = {
    "samples": ("--samples", int, "sampled worlds (deterministic for a seed)"),
    "time_ms": ("--time-ms", float, "anytime: search worlds until this time is up, or until every world drawn "
                f"for it is searched (at most {TIME_BUDGET_WORLDS} with model beliefs, {TIME_BUDGET_DRAWS:,} "
                "with uniform ones)"),
    "world_nodes": ("--world-nodes", int, f"search nodes per world (default {DEFAULT_WORLD_NODES}); --method "
                                          f"alphamu: per leaf (default {ALPHAMU_LEAF_NODES})"),
    "depth": ("--depth", int, f"--method alphamu: the seat's later decisions chosen once per information set "
                              f"across the worlds (0 is PIMC; default {DEFAULT_DEPTH})"),
    "threads": ("--threads", int, "search threads"),
    "objective": ("--objective", OBJECTIVES, "what the ranking maximises (default: the hint bot's); both are reported"),
    "beliefs": ("--beliefs", BELIEFS, "weigh the hidden worlds by how the other seats have played (model) or not "
                                      "(uniform); default: the hint bot's"),
    "search": ("--three", SEARCHES, THREE_HELP),
}
BUDGET_DEFAULTS = {**{f.name: f.default for f in fields(SearchBudget)}, "threads": DEFAULT_THREADS}


@dataclass(frozen=True)
class HintMove:
    """One legal move with its expected value over the sampled worlds.

    ``value``/``stderr`` are in the hint's objective: raw points of the round
    ("points"), or the probability of winning the game ("win"). ``win`` and
    ``points`` give the move in both currencies (the other objective is searched
    in the same worlds, following the first's passes, unless ``both=False``). ``loss`` is the best move's value
    minus this one's, in the objective's unit, and ``loss_stderr`` its *paired*
    standard error: every move is searched in the same worlds, so a difference is
    known far better than either value on its own.
    """

    move: Move
    value: float | None       # mean over worlds (None: the only legal move, not searched)
    stderr: float | None      # standard error of the mean
    rank: int                 # 1 = best
    win: float | None = None          # P(the seat's side wins the game)
    points: float | None = None       # expected raw points of the round (side minus others; +-1000: 305)
    loss: float | None = None         # best value - this value (objective unit), 0 for the best
    loss_stderr: float | None = None  # paired standard error of the loss
    win_loss: float | None = None     # best move's win - this move's win (probability), paired
    win_loss_stderr: float | None = None
    points_loss: float | None = None  # best move's points - this move's points, paired
    points_loss_stderr: float | None = None
    win_stderr: float | None = None   # standard error of win (0.0: an exact value)
    points_stderr: float | None = None  # standard error of points

    def to_dict(self) -> dict:
        return {"move": format_move(self.move), "value": self.value, "stderr": self.stderr, "rank": self.rank,
                "win": self.win, "points": self.points, "loss": self.loss, "loss_stderr": self.loss_stderr,
                "win_loss": self.win_loss, "win_loss_stderr": self.win_loss_stderr,
                "points_loss": self.points_loss, "points_loss_stderr": self.points_loss_stderr,
                "win_stderr": self.win_stderr, "points_stderr": self.points_stderr}


@dataclass(frozen=True)
class Hint:
    """Every legal move of the seat, best first, with the method and budget used."""

    seat: int
    moves: tuple              # HintMove, best first
    best: Move
    method: str
    samples: int              # worlds searched
    budget: dict              # what bounded the search
    seconds: float
    nodes: int                # search nodes over all worlds
    exact_worlds: int         # worlds whose search finished without a depth cut
    objective: str = "points"
    beliefs: str = "uniform"  # how the worlds were weighted (fiveup_solver.beliefs)
    belief: dict | None = None    # beliefs="model": candidates, ess, distinct worlds, each opponent's model posterior
    search: str | None = None  # how 3 players were searched (SEARCHES); None with 2 or 4 players and for "exact"

    @property
    def best_move(self) -> Move:
        """:attr:`best` (the name :class:`~fiveup_solver.solver.SolveResult` gives it)."""
        return self.best

    @property
    def next_move(self) -> Move:
        """The move to push now: :attr:`best` (a hint's best is always one the seat can
        push; :class:`~fiveup_solver.solver.SolveResult`'s after its forced draws)."""
        return self.best

    def of(self, move) -> HintMove:
        """The :class:`HintMove` of a legal move, given as a Move or in record notation
        (as ``SolveResult.value_of`` takes one); an OptionError for another move.

        >>> from fiveup_solver import Game
        >>> g = Game(players=2, seed=3)
        >>> h = hint(g.observation(g.to_move), samples=8, seed=1)
        >>> h.of(str(h.best)).rank, h.of(h.best) is h.moves[0]
        (1, True)
        """
        key = format_move(move) if isinstance(move, Move) else move
        for m in self.moves:
            if isinstance(key, str) and format_move(m.move) == key:
                return m
        raise OptionError(f"{_short(move)} is not a move of this hint "
                          f"({', '.join(format_move(m.move) for m in self.moves)})"[:300])

    def to_dict(self) -> dict:
        # a move that is one choice with a better-ranked one (RULES §3.4: a double's two
        # branch ports...) names that move's rank, so a listing can say it once
        moves = [dict(m.to_dict(), same_as=None if k is None else self.moves[k].rank)
                 for m, k in zip(self.moves, same_as_earlier(m.move for m in self.moves))]
        d = {"seat": self.seat, "objective": self.objective, "moves": moves,
             "best": format_move(self.best), "method": self.method, "samples": self.samples,
             "seconds": round(self.seconds, 6), "nodes": self.nodes, "exact_worlds": self.exact_worlds,
             "budget": dict(self.budget), "search": self.search}
        if self.beliefs != "uniform":
            d["beliefs"] = self.beliefs
            d["belief"] = self.belief
        return d


def _three_search(obs, search: str) -> str | None:
    """What a Hint reports as its search: the 3-player search, None with 2 or 4 players
    (two sides: paranoid and max^n are one minimax, and no reader should think one was chosen)."""
    return search if obs.players == 3 else None


@dataclass(frozen=True)
class PositionValue:
    """A position's value to one seat (see :meth:`Hinter.position_value`)."""

    seat: int
    objective: str
    value: float              # P(the seat's side wins) under "win"; raw points of the round under "points"
    stderr: float             # standard error over the worlds
    samples: int
    nodes: int
    seconds: float
    beliefs: str = "uniform"

    def to_dict(self) -> dict:
        d = {"seat": self.seat, "objective": self.objective, "value": self.value, "stderr": self.stderr,
             "samples": self.samples, "nodes": self.nodes, "seconds": round(self.seconds, 6)}
        if self.beliefs != "uniform":
            d["beliefs"] = self.beliefs
        return d


def _mean_se(vals, weights=None) -> tuple:
    """Mean and standard error; with ``weights`` (one per value, not all equal) the
    self-normalised weighted mean and its delta-method standard error,
    ``sqrt(n / (n - 1) * sum w^2 (v - mean)^2) / sum w``, which is the plain one
    for equal weights."""
    n = len(vals)
    if weights is not None and n and any(w != weights[0] for w in weights):
        total = sum(weights)
        mean = sum(w * v for w, v in zip(weights, vals)) / total
        spread = sum((w * (v - mean)) ** 2 for w, v in zip(weights, vals))
        return mean, (math.sqrt(spread * n / (n - 1)) / total if n > 1 else 0.0)
    mean = sum(vals) / n
    var = sum((v - mean) ** 2 for v in vals) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var / n)


def _r(x):
    return None if x is None else round(x, 6)


# a core value in each objective's unit: points as they are; win: WIN x (P(win) - P(loss)) -> P(win)
_SCALE = {"points": 1.0, "win": 1.0 / (2 * _solver.WIN_VALUE)}
_SHIFT = {"points": 0.0, "win": 0.5}


def _root_mean(objective, results, weights) -> tuple:
    """(mean, standard error) of a value's world results at the root, in the objective's
    unit, weighted by a weighted plan's weights (None: equal)."""
    return _mean_se([_SHIFT[objective] + _SCALE[objective] * r[4][0] for r in results],
                    None if weights is None else [weights[r[0]] for r in results])


def _ranked(per_world, wts, objective, legal, canon, roots) -> tuple:
    """HintMoves best first from each root's per-world values ({objective: {root: [value]}},
    in the objective's unit) and the worlds' weights ({objective: [weight] or None})."""
    main = per_world[objective]
    stats = {root: _mean_se(main[root], wts[objective]) for root in roots}
    order = sorted(range(len(legal)), key=lambda i: (-stats[canon[i]][0], format_move(legal[i])))
    best_root = canon[order[0]]

    def paired(obj, root):
        if obj not in per_world:
            return None, None
        d = [b - v for b, v in zip(per_world[obj][best_root], per_world[obj][root])]
        return _mean_se(d, wts[obj])

    def mean_se(obj, root):
        return _mean_se(per_world[obj][root], wts[obj]) if obj in per_world else (None, None)

    moves = []
    for r, i in enumerate(order):
        c = canon[i]
        loss = paired(objective, c)
        wl = paired("win", c)
        pl = paired("points", c)
        win, points = mean_se("win", c), mean_se("points", c)
        moves.append(HintMove(
            legal[i], _r(stats[c][0]), _r(stats[c][1]), r + 1, win=_r(win[0]), points=_r(points[0]),
            loss=_r(loss[0]), loss_stderr=_r(loss[1]), win_loss=_r(wl[0]), win_loss_stderr=_r(wl[1]),
            points_loss=_r(pl[0]), points_loss_stderr=_r(pl[1]), win_stderr=_r(win[1]),
            points_stderr=_r(points[1])))
    return tuple(moves)


def _check_int(name, value, low, high=None):
    """`value` as an int when it is an integer (numpy's too: errors.as_int) from `low`
    to `high`; else an OptionError naming `name`."""
    value = as_int(value)
    if not is_int(value) or value < low or (high is not None and value > high):
        # worded as every other range of the package's options
        bound = f"from {low} to {bound_text(high)}" if high is not None else f">= {low}"
        raise OptionError(f"{name} must be an integer {bound}, not {_short(value)}")
    return value


def _stoppable(method):
    """A Hinter call that :meth:`Hinter.stop` can stop: counted while it runs or waits, and
    marked with the stops made before it began (its thread's generation), so that a stop
    reaches the calls under way and none that begins later."""
    @functools.wraps(method)
    def call(self, *args, **kwargs):
        local = self._local
        outer = getattr(local, "generation", None) is not None      # (a call inside a call: the outer one's)
        with self._stop_lock:
            self._calls += 1
            if not outer:
                local.generation = self._generation
        try:
            return method(self, *args, **kwargs)
        finally:
            with self._stop_lock:
                self._calls -= 1
                if not outer:
                    local.generation = None
    return call


class Hinter:
    """A reusable hint context (one search table per thread, kept between calls).

    ``Hinter(threads=2, tt_mb=8)``; :meth:`hint` as the module function.
    """

    def __reduce__(self):
        # (an embedder's review: pickle raised Cython's "no default __reduce__" TypeError)
        raise OptionError("a Hinter cannot be pickled or copied: "
                          "make one in each process or thread that searches (its search tables are its own)")

    def __init__(self, threads: int = DEFAULT_THREADS, tt_mb: float = 8.0):
        self.threads = _check_int("threads", threads, 1, MAX_THREADS)
        tt_mb = as_number(tt_mb)
        if not isinstance(tt_mb, (int, float)) or isinstance(tt_mb, bool) or not 0.01 <= tt_mb <= 4096:
            raise OptionError(f"tt_mb must be a number from 0.01 to 4096, not {_short(tt_mb)}")
        self._cores = [_solver.SolverCore(tt_mb) for _ in range(self.threads)]
        self._lock = threading.Lock()
        # Hinter.stop, from any thread: the calls running or waiting, whether they are
        # being stopped, and the searches under way (told to stop before their next world)
        self._stop_lock = threading.Lock()
        self._calls = 0
        # stops made so far; a call is stopped by those made after it began (kept per thread:
        # _stoppable). A flag cleared when no call ran never cleared while calls overlapped,
        # and one stop refused every later call of a busy shared Hinter (a review).
        self._generation = 0
        self._local = threading.local()
        self._jobs = []         # every running call's searches (each call adds and removes its own)

    def _stopped(self) -> bool:
        """Whether a stop came after this thread's call began."""
        began = getattr(self._local, "generation", None)
        return began is not None and began < self._generation

    def _check_stop(self) -> None:
        """SearchStopped when :meth:`stop` stopped this thread's call: checked by a hint's
        planning (its worlds drawn, weighed and listed a part at a time), which a large
        ``samples`` makes long (seconds at 10^5 worlds)."""
        if self._stopped():
            raise SearchStopped("the search was stopped (Hinter.stop)")

    def stop(self) -> bool:
        """Stop the hints, position values and deal values that run on this Hinter now, or
        wait for it: each raises :class:`~fiveup_solver.errors.SearchStopped` once its searches reach
        their next world (or alphamu's next root move), within milliseconds at the default
        budgets. For an app's "cancel" from another thread; a call that starts after they
        have ended is not stopped. Returns whether there was a call to stop. The Hinter
        stays as good as before. ``method="exact"`` stops within 65,536 more positions of
        its search (usually within 0.1 s; up to about 1 s was measured at a few moments); a
        single legal move is returned without a search.

        >>> Hinter(threads=1).stop()        # nothing running
        False
        """
        with self._stop_lock:
            if self._calls == 0:
                return False
            self._generation += 1
            for job in list(self._jobs):
                job.stop()
            return True

    @_stoppable
    def hint(self, obs, *, method: str = "pimc", samples: int | None = None, time_ms: float | None = None,
             seed: int = 0, world_nodes: int | None = None,
             chance_width: int = DEFAULT_CHANCE_WIDTH, objective: str | None = None, both: bool = True,
             beliefs: str | None = None, model: OpponentModel | None = None, past=None,
             search: str | None = None, opponent: str | None = None, max_worlds: int | None = None,
             node_limit: int | None = None, depth: int | None = None, budget: SearchBudget | None = None,
             sample_worlds: int | None = None, sample_draws: bool | None = None,
             stages: tuple | None = None, settled: Callable[["Hint"], bool] | None = None) -> Hint:
        """Rank every legal move of the observation's seat (see the module text).

        ``objective``: "points" or "win" (None: DEFAULT_OBJECTIVE); ``both``: also
        search the other objective in the same worlds, following the first
        objective's passes in each (no deeper than the first reached where the
        node budget cut it; straight to the pass that solved it where it was
        solved): the ranking is unchanged and the second currency costs about a
        third of the first (docs/results/performance.md). Under a time budget the
        first search gets FIRST_CURRENCY_TIME_SHARE of the time and the second the
        rest, in the worlds the first found, as many as it reaches
        (``budget["second_currency_searches"]`` draws). ``both=False`` and a second
        hint with the other objective give the second currency searched as deep as
        its own budget goes.

        ``beliefs``: "uniform" (every consistent deal alike) or "model" (worlds
        weighted by how the other seats have played, :mod:`fiveup_solver.beliefs`;
        ``model`` an :class:`~fiveup_solver.beliefs.OpponentModel`, None for the
        default family); None: :data:`fiveup_solver.beliefs.DEFAULT_BELIEFS`.
        ``past``: the seat's own observations of the game's earlier rounds (or
        their evidence from :func:`fiveup_solver.inference.past_evidence`): what
        the model learnt of each seat there is its prior here.
        ``search``: "paranoid" or "maxn" for 3 players (None: DEFAULT_SEARCH; module text).

        ``method="exact"``: not sampled but exact (:mod:`fiveup_solver.exact`): each
        move's value when the seat then best-responds from its own information to
        ``opponent`` ("greedy" or "best-defence"), over every hidden world (uniform
        beliefs) and every later draw; refused above ``max_worlds`` hidden
        configurations or ``node_limit`` world positions. The sampling options and
        ``search`` do not apply to it. With ``sample_worlds`` (against greedy) it is an
        estimate instead: the same best response over that many hidden worlds drawn with
        ``seed``, half choosing the strategy and half judging it (values and standard
        errors are the judging half's; see :class:`fiveup_solver.exact.SampledResult`).
        ``sample_draws=True`` (with ``sample_worlds``): each sampled world fixes the
        boneyard's order too, so the later draws are sampled with it (no chance tree;
        the reach of boneyard 7+).

        ``method="alphamu"`` (2 players; docs/alphamu.md): the seat's next ``depth``
        decisions after the root move are chosen once per information set across
        the sampled worlds (None: DEFAULT_DEPTH; 0 is PIMC), the opponent choosing
        per world; ``world_nodes`` bounds each leaf search (None: ALPHAMU_LEAF_NODES),
        ``samples`` the worlds (None: ALPHAMU_SAMPLES); under ``time_ms`` the depth
        deepens from 0 to ``depth`` and the last complete depth stands.

        ``budget``: a :class:`SearchBudget` instead of its fields as keywords.

        ``stages`` (pimc or expectimax under a sample budget): increasing world counts
        ending at ``samples``, e.g. ``(24, 48, 96)``; the planned worlds (the ones the
        fixed budget searches, in order) are searched a stage at a time, and after each
        stage ``settled(hint)`` is called with the hint of the worlds searched so far
        (an exception it raises comes out of the call as it is; it returns a bool):
        True stops there (``Hint.samples`` says how many were searched). A stopped hint
        is exactly the fixed budget's over the first worlds of its plan, and a hint
        that runs every stage is exactly the fixed budget's (world k is searched alike
        whichever stage it falls in, and the statistics are taken in world order).
        """
        b = _budget(budget, method=method, samples=samples, time_ms=time_ms, world_nodes=world_nodes,
                    chance_width=chance_width, objective=objective, beliefs=beliefs, search=search, depth=depth)
        method, samples, time_ms, world_nodes = b.method, b.samples, b.time_ms, b.world_nodes
        chance_width, objective, beliefs, search, depth = b.chance_width, b.objective, b.beliefs, b.search, b.depth
        objective = DEFAULT_OBJECTIVE if objective is None else objective
        if method == "exact":
            if search is not None:
                raise OptionError("method 'exact' plays the other seats by its opponent option (greedy or "
                                  "best-defence): search is no option of it")
            # (a review: these were taken and ignored, a --world-nodes bound silently not applied)
            if world_nodes is not None or chance_width != DEFAULT_CHANCE_WIDTH:
                raise OptionError("world_nodes and chance_width are not options of method 'exact': it solves "
                                  "every world whole (its bound is node_limit)")
            with self._exact_stop() as stop:
                return _exact_hint(obs, objective, both, beliefs, model, past, samples, time_ms, opponent,
                                   max_worlds, node_limit, sample_worlds, seed, sample_draws, stop)
        if (opponent is not None or max_worlds is not None or node_limit is not None or sample_worlds is not None
                or sample_draws is not None):
            raise OptionError("opponent, max_worlds, node_limit, sample_worlds and sample_draws are options of "
                              "method='exact'")
        if stages is not None or settled is not None:
            stages = _check_stages(stages, settled, method, samples, time_ms)
        search = check_search(search)
        beliefs = _check_beliefs(beliefs, model, past)
        both = check_switch("both", both)
        seed = check_seed(seed)
        if world_nodes is None:
            world_nodes = ALPHAMU_LEAF_NODES if method == "alphamu" else DEFAULT_WORLD_NODES
        if method == "alphamu" and samples is not None:
            samples = _check_int("samples", samples, 1, _alphamu.MAX_WORLDS)
        if (objective == "win" or both) and getattr(obs, "players", None) in (2, 3, 4):
            # the race-equity table's first load in a process (0.5 s for 3 players) before the
            # clock starts: inside it a first 20 ms hint took 0.7 s (a review); later hints
            # find it loaded (an observation not checked yet: the wrong table loaded costs time only)
            search_values(obs.players)
        start = time.perf_counter()
        # the observation is checked whole before anything reaches the search: its fields,
        # its history (replayed by the core on a consistent deal) and its legal moves
        ds = DealSampler(obs)
        if obs.to_move != obs.seat:
            raise not_to_move(obs, "hint")
        if obs.players not in METHODS[method].players:
            raise OptionError(f"method {method!r} searches {' or '.join(map(str, METHODS[method].players))} "
                              f"players, not {obs.players}")
        base = check_decision(ds, obs)
        legal = list(obs.legal_moves)
        budget = {"samples": samples, "time_ms": time_ms, "world_nodes": world_nodes, "threads": self.threads}
        if METHODS[method].chance_width:
            budget["chance_width"] = chance_width
        if METHODS[method].depth:
            budget["depth"] = DEFAULT_DEPTH if depth is None else depth
        if len(legal) == 1:
            only = HintMove(legal[0], None, None, 1)
            return Hint(obs.seat, (only,), legal[0], method, 0, budget, time.perf_counter() - start, 0, 0,
                        objective, beliefs, search=_three_search(obs, search))
        canon = [_core.canonical_of(*m.placement) for m in legal]
        roots = sorted(set(canon))
        if method == "alphamu":
            return self._alphamu_hint(obs, ds, base, legal, canon, roots, objective, both, beliefs, model, past,
                                      samples, time_ms, seed, world_nodes, budget, start, search)
        if samples is None and time_ms is None:
            samples = DEFAULT_SAMPLES
            budget["samples"] = samples
        n_worlds = samples if samples is not None else TIME_BUDGET_DRAWS
        seconds = 0.0 if time_ms is None else time_ms / 1000.0
        worlds, weights, belief = None, None, None
        if beliefs == "model":
            draws = samples if samples is not None else TIME_BUDGET_WORLDS
            ww = Beliefs(ds, model, _evidence(obs, past, model)).weigh(draws, seed, check=self._check_stop)
            worlds, weights = search_plan(ww, draws, seed, check=self._check_stop)
            n_worlds = len(worlds)
            belief = dict(ww.summary(), distinct_worlds=len(worlds),
                          plan="weighted" if ww.candidates == draws else "resampled",
                          greedy_worlds={str(s): sum(1 for w in worlds if (w[3] >> s) & 1) for s in ds.hidden_seats})
        if stages is not None:
            return self._staged_hint(obs, ds, base, legal, canon, roots, method, objective, both, world_nodes,
                                     chance_width, seed, worlds, weights, belief, stages, settled, budget, beliefs,
                                     search, start)
        grouped = None
        if seconds == 0.0:
            # a sample budget: the worlds are known before the first search starts. A world
            # drawn k times is searched once with k times the nodes (the same budget, not k
            # equal searches), its values standing for each of its draws
            if worlds is None:
                worlds = _uniform_worlds(ds, n_worlds, seed, self._check_stop)
            resampled = belief is not None and belief["plan"] == "resampled"
            grouped = _group_draws(worlds, [int(round(w)) for w in weights] if resampled else None,
                                   self._check_stop)
            budget["distinct_worlds"] = len(grouped.worlds)
            if belief is not None:
                belief["searches"] = len(grouped.worlds)
        with self._lock:
            other = "win" if objective == "points" else "points"
            if both and seconds == 0.0:
                # both currencies' searches go in one dispatch (each thread takes the first's
                # worlds, then the second's: one start and join of the threads, no idle tail
                # between); the second follows the first's passes in each world (depth_of)
                results, extra = self._search_many(obs, base, ds, roots, method, (objective, other), world_nodes,
                                                   chance_width, seed, len(grouped.worlds), worlds=grouped.worlds,
                                                   search=search, shares=grouped.shares)
                results, extra = grouped.expand(results), grouped.expand(extra)
            elif grouped is not None:
                results = grouped.expand(self._search(
                    obs, base, ds, roots, method, objective, world_nodes, chance_width, seed, len(grouped.worlds), 0.0,
                    worlds=grouped.worlds, search=search, shares=grouped.shares))
                extra = None
            else:
                # a time budget: worlds are drawn until the time is up; a repeated draw takes
                # its world's values (searched again, with more nodes, when its draws double)
                job = []
                deadline = start + seconds      # the hint's own end, its planning included
                # and the wait for this Hinter (a review: two threads' 200 ms hints on the shared
                # default took 198 and 385 ms); at least one world a thread is searched whatever is left
                left = max(deadline - time.perf_counter(), 1e-6)
                results = self._search(obs, base, ds, roots, method, objective, world_nodes, chance_width, seed,
                                       n_worlds, left * (FIRST_CURRENCY_TIME_SHARE if both else 1.0),
                                       worlds=worlds, search=search, job_out=job)
                extra = None
                budget["searches"] = len(job[0].searched_draws())
                budget["distinct_worlds"] = job[0].distinct_worlds
                if belief is not None:
                    belief["searches"] = budget["searches"]
            n = len(results)
            if n == 0:
                raise InconsistentObservationError(f"no world could be searched for seat {obs.seat}")
            by_objective = {objective: results}
            if both and extra is not None:
                # the same numbered worlds as the first search's (what the sequential form keeps)
                keep = {r[0] for r in results}
                by_objective[other] = [r for r in extra if r[0] in keep]
            elif both:
                # the other currency in the same worlds, each searched once with the budget its
                # values in the first currency came from, following that search's passes (its
                # horizon), and standing for the same draws
                sources, shares, members = job[0].group_plan()
                horizon = {r[0]: (r[1], r[2]) for r in results}
                # within the hint's time: the worlds it reaches, in the first search's order
                # (at least one a thread)
                by_objective[other] = _Draws(sources, shares, members).expand(self._search(
                    obs, base, ds, roots, method, other, world_nodes, chance_width, seed, len(sources),
                    max(seconds * SECOND_CURRENCY_MIN_SHARE, deadline - time.perf_counter()), search=search,
                    shares=shares,
                    source=(job[0], sources), horizons=[horizon[w] for w in sources]))
                budget["second_currency_searches"] = len(by_objective[other])
        nodes = sum(r[3] for rs in by_objective.values() for r in rs)
        # per objective and root: each world's value in the objective's unit (and its weight)
        per_world = {obj: {root: [_SHIFT[obj] + _SCALE[obj] * r[4][k] for r in rs]
                           for k, root in enumerate(roots)}
                     for obj, rs in by_objective.items()}
        wts = {obj: None if weights is None else [weights[r[0]] for r in rs] for obj, rs in by_objective.items()}
        n = len(results)
        moves = _ranked(per_world, wts, objective, legal, canon, roots)
        return Hint(obs.seat, moves, moves[0].move, method, n, budget, time.perf_counter() - start,
                    nodes, sum(1 for r in results if r[1] == 2), objective, beliefs, belief, _three_search(obs, search))

    def _staged_hint(self, obs, ds, base, legal, canon, roots, method, objective, both, world_nodes, chance_width,
                     seed, worlds, weights, belief, stages, settled, budget, beliefs, search, start) -> Hint:
        """:meth:`hint` with ``stages``: the planned worlds searched a stage at a time
        until ``settled`` says the hint of the worlds so far is enough, or none is left."""
        if worlds is None:
            # the uniform hint's own worlds, made explicit so a stage can start anywhere:
            # world k from stream (seed, k) (_sampler.world_stream), searched with stream k
            worlds = _uniform_worlds(ds, stages[-1], seed, self._check_stop)
        objectives = (objective, "win" if objective == "points" else "points")[:2 if both else 1]
        # the plan's draws grouped as the one-shot hint groups them (a world drawn k times:
        # one search with k times the nodes); a group is searched in the stage of its first
        # draw, and its values join the hint stage by stage, draw by draw
        grouped = _group_draws(worlds, [int(round(w)) for w in weights]
                               if belief is not None and belief["plan"] == "resampled" else None, self._check_stop)
        searched = {obj: [] for obj in objectives}
        done, groups_done = 0, 0
        for end in stages:
            end = min(end, len(worlds))
            if end <= done:
                continue
            groups = [j for j in range(groups_done, len(grouped.worlds)) if grouped.members[j][0] < end]
            groups_done += len(groups)
            if groups:
                with self._lock:
                    parts = self._search_many(obs, base, ds, roots, method, objectives, world_nodes, chance_width,
                                              seed, len(groups), worlds=[grouped.worlds[j] for j in groups],
                                              search=search, shares=[grouped.shares[j] for j in groups])
                for obj, part in zip(objectives, parts):
                    # numbers within the stage's search -> groups of the plan
                    searched[obj].extend((groups[r[0]], *r[1:]) for r in part)
            done = end
            found = {obj: [r for r in grouped.expand(rs) if r[0] < end] for obj, rs in searched.items()}
            results = found[objective]
            if not results:
                if done < len(worlds):
                    continue
                raise InconsistentObservationError(f"no world could be searched for seat {obs.seat}")
            keep = {r[0] for r in results}
            by_objective = {obj: results if obj == objective else [r for r in rs if r[0] in keep]
                            for obj, rs in found.items()}
            nodes = sum(r[3] for rs in by_objective.values() for r in rs)
            per_world = {obj: {root: [_SHIFT[obj] + _SCALE[obj] * r[4][k] for r in rs]
                               for k, root in enumerate(roots)}
                         for obj, rs in by_objective.items()}
            wts = {obj: None if weights is None else [weights[r[0]] for r in rs] for obj, rs in by_objective.items()}
            moves = _ranked(per_world, wts, objective, legal, canon, roots)
            h = Hint(obs.seat, moves, moves[0].move, method, len(results),
                     dict(budget, stages=list(stages), distinct_worlds=groups_done),
                     time.perf_counter() - start, nodes, sum(1 for r in results if r[1] == 2), objective, beliefs,
                     belief, _three_search(obs, search))
            if done == len(worlds) or _settled(settled, h):
                return h
        raise AssertionError("unreachable: the last stage searches every planned world")

    def _alphamu_hint(self, obs, ds, base, legal, canon, roots, objective, both, beliefs, model, past,
                      samples, time_ms, seed, leaf_nodes, budget, start, search) -> Hint:
        """method="alphamu": the worlds as PIMC draws them (the same sampler, beliefs and
        seed), then :class:`fiveup_solver._alphamu.AlphaMuSearch` over them; each root
        move's per-world values are its front's best vector (what its value averages)."""
        depth = budget["depth"]
        n = ALPHAMU_SAMPLES if samples is None else samples
        budget["samples"] = n
        budget["front_cap"] = ALPHAMU_FRONT_CAP
        belief = None
        if beliefs == "model":
            ww = Beliefs(ds, model, _evidence(obs, past, model)).weigh(n, seed, check=self._check_stop)
            plan, weights = search_plan(ww, n, seed, check=self._check_stop)
            worlds = [(hands, bone, greedy) for _, hands, bone, greedy in plan]
            belief = dict(ww.summary(), distinct_worlds=len(worlds),
                          plan="weighted" if ww.candidates == n else "resampled",
                          greedy_worlds={str(s): sum(1 for w in worlds if (w[2] >> s) & 1) for s in ds.hidden_seats})
        else:
            # the uniform hint's own worlds: world k from stream (seed, k) (_sampler.world_stream)
            worlds = [(hands, bone, 0) for _, hands, bone in _uniform_worlds(ds, n, seed, self._check_stop)]
            weights = None
        # a world drawn twice is searched once, with the weight of both (its entries are
        # equal in every vector: the front is the same) and, as PIMC's, the leaf budget of
        # both; the statistics see every draw
        distinct, slot = {}, []
        for i, w in enumerate(worlds):
            key = (tuple(w[0]), tuple(w[1]), w[2])
            if key not in distinct:
                distinct[key] = [len(distinct), 0.0, 0]
            distinct[key][1] += 1.0 if weights is None else weights[i]
            distinct[key][2] += 1
            slot.append(distinct[key][0])
        searched = list(distinct)
        merged = [distinct[k][1] for k in searched]
        shares = [distinct[k][2] for k in searched]
        budget["distinct_worlds"] = len(searched)
        if belief is not None:
            belief["searches"] = len(searched)      # as PIMC's: the planned draws, and those searched
        deadline = None if time_ms is None else start + time_ms / 1000.0
        if len(searched) == 1:
            # one distinct world: nothing to fuse, every depth's value is the solver's in that
            # world (the node rule of docs/alphamu.md), so it is searched as PIMC searches it,
            # with PIMC's budget for the draws it stands for (measured: alphamu's small leaf
            # budget lost 0.57 win-% a decision at an empty boneyard against PIMC's 0.03)
            objectives = (objective, "win" if objective == "points" else "points")[:2 if both else 1]
            # (a deadline only stops new worlds being taken: the one world is always searched whole;
            # the second currency to the first one's horizon, as PIMC's)
            by_objective, horizon = {}, None
            for obj in objectives:
                by_objective[obj], horizon = self._alphamu_one_world(base, roots, searched[0], shares[0], obj,
                                                                     deadline, horizon)
            budget["depth_reached"] = depth
            return self._alphamu_result(obs, legal, canon, roots, by_objective, slot, weights, objective, budget,
                                        beliefs, belief, search, start, len(worlds))
        other = "win" if objective == "points" else "points"
        with self._lock:
            if deadline is None:
                # both currencies in one dispatch of the threads: the second walks the same
                # tree, each leaf searched to the horizon the first reached there (as PIMC's
                # second currency follows its worlds), a root move as soon as the first is
                # through with it
                runs = self._alphamu_run(base, roots, searched, merged, shares, depth,
                                         (objective, other)[:2 if both else 1], leaf_nodes, 0.0)
                budget["depth_reached"] = depth
                by_objective = {obj: rows for obj, (_, rows, _) in zip((objective, other), runs)}
            else:
                got = {}
                # anytime: depth 0 (PIMC) always completes, deeper ones while the time lasts
                for d in range(depth + 1):
                    left = 0.0 if d == 0 else deadline - time.perf_counter()
                    if d > 0 and left <= 0:
                        break
                    (complete, rows, job), = self._alphamu_run(base, roots, searched, merged, shares, d,
                                                               (objective,), leaf_nodes, left)
                    if not complete:
                        break
                    got[objective] = (d, rows, job)
                reached, rows, job = got[objective]
                budget["depth_reached"] = reached
                by_objective = {objective: rows}
                if both:
                    # the second currency at the depth reached, following that complete search
                    (_, other_rows, _), = self._alphamu_run(base, roots, searched, merged, shares, reached,
                                                            (other,), leaf_nodes, 0.0, follow=job)
                    by_objective[other] = other_rows
        return self._alphamu_result(obs, legal, canon, roots, by_objective, slot, weights, objective, budget,
                                    beliefs, belief, search, start, len(worlds))

    @staticmethod
    def _alphamu_result(obs, legal, canon, roots, by_objective, slot, weights, objective, budget, beliefs, belief,
                        search, start, n_worlds) -> Hint:
        """The Hint of alphamu's rows (per objective, per root move: value, front size,
        leaves, nodes, per distinct world its entry); slot maps each draw to its world."""
        per_world = {obj: {root: [_SHIFT[obj] + _SCALE[obj] * rows[k][4][j] for j in slot]
                           for k, root in enumerate(roots)}
                     for obj, rows in by_objective.items()}
        wts = {obj: weights for obj in by_objective}
        moves = _ranked(per_world, wts, objective, legal, canon, roots)
        nodes = sum(r[3] for rows in by_objective.values() for r in rows)
        budget["leaves"] = sum(r[2] for rows in by_objective.values() for r in rows)
        budget["front_sizes"] = {format_move(m): rows[roots.index(c)][1]
                                 for m, c in zip(legal, canon) for rows in [by_objective[objective]]}
        return Hint(obs.seat, moves, moves[0].move, "alphamu", n_worlds, budget, time.perf_counter() - start,
                    nodes, 0, objective, beliefs, belief, _three_search(obs, search))

    def _alphamu_one_world(self, base, roots, world, share, objective, deadline, horizon=None) -> tuple:
        """alphamu's rows for a single distinct world: PIMC's search of it (its hands, its
        boneyard order, its greedy seats) at PIMC's default budget times its draws; and
        the (status, depth) it reached. ``horizon``: a first currency's (status, depth)
        there, for a second currency to follow (as a PIMC hint's second currency)."""
        hands, bone, greedy = world
        seat = base.to_move
        tiles = [base.hand(seat) if s == seat else [t for t in range(28) if (hands[s] >> t) & 1]
                 for s in range(2)]
        seconds = 0.0 if deadline is None else max(deadline - time.perf_counter(), 1e-6)
        with self._lock:
            status, depth, nodes, values = _value_one_world(
                self._cores[0], base, roots, "pimc", DEFAULT_WORLD_NODES * share, DEFAULT_CHANCE_WIDTH, 0, seconds,
                tuple(s for s in range(2) if (greedy >> s) & 1), objective, tiles, list(bone), horizon)
        return [(v, 1, 1, nodes if k == 0 else 0, [v]) for k, v in enumerate(values)], (status, depth)

    def _alphamu_run(self, base, roots, worlds, weights, shares, depth, objectives, leaf_nodes, seconds,
                     follow=None) -> list:
        """alphamu searches under each of `objectives` on every thread's core, in one
        dispatch (the lock is held): per objective (complete, rows, the search). Each
        later objective follows the first's leaves; the first follows ``follow`` (a
        complete search of the same tree) when given."""
        jobs = []
        for obj in objectives:
            jobs.append((obj, _alphamu.AlphaMuSearch(base, roots, worlds, weights, depth, ALPHAMU_FRONT_CAP,
                                                     leaf_nodes, max(seconds, 1e-6) if seconds else 0.0, shares,
                                                     follow=jobs[0][1] if jobs else follow)))
        self._dispatch(jobs, 2)
        out = []
        for _, job in jobs:
            if job.overflow:
                raise OptionError(f"alphamu depth {depth} needs more memory than its pools hold: use a smaller "
                                  f"depth or fewer samples")
            complete, rows = job.results()
            out.append((complete, rows, job))
        return out

    @_stoppable
    def position_value(self, obs, *, samples: int = DEFAULT_SAMPLES, seed: int = 0,
                       world_nodes: int = DEFAULT_WORLD_NODES, method: str = "pimc",
                       chance_width: int = DEFAULT_CHANCE_WIDTH, objective: str = "win",
                       beliefs: str | None = None, model: OpponentModel | None = None,
                       past=None, search: str | None = None, budget: SearchBudget | None = None,
                       time_ms: float | None = None) -> "PositionValue":
        """What the position is worth to the observation's seat as it stands, whoever is
        to move: over worlds sampled from the seat's view, the value of best play from
        here for the seat's team (the mover's forced draws and passes included).
        For luck and win-probability graphs: the seat need not be to move.
        ``beliefs``/``model``/``past``/``search`` as for :meth:`hint`; ``budget``: a
        :class:`SearchBudget` instead of those fields. A position value takes samples,
        not a time budget: ``time_ms`` is refused in those words (as in a budget)."""
        method, samples, world_nodes, chance_width, objective, search, beliefs = _value_options(
            "a position value takes samples (an integer >= 1)", budget, method=method, samples=samples,
            world_nodes=world_nodes, chance_width=chance_width, objective=objective, beliefs=beliefs, model=model,
            past=past, search=search, time_ms=time_ms)
        seed = check_seed(seed)
        start = time.perf_counter()
        ds = DealSampler(obs)
        if obs.to_move is None:
            raise IllegalMoveError("the round is over: the position has no value left to search")
        grouped, weights = self._value_plan(obs, ds, samples, seed, beliefs, model, past)
        with self._lock:
            results = grouped.expand(self._search(obs, ds.replayed, ds, [], method, objective, world_nodes,
                                                  chance_width, seed, len(grouped.worlds), 0.0, observer=obs.seat,
                                                  worlds=grouped.worlds, search=search, shares=grouped.shares))
        if not results:
            raise InconsistentObservationError(f"no world could be searched for seat {obs.seat}")
        mean, se = _root_mean(objective, results, weights)
        return PositionValue(obs.seat, objective, _r(mean), _r(se), len(results),
                             sum(r[3] for r in results), time.perf_counter() - start, beliefs)

    def _value_plan(self, obs, ds, samples, seed, beliefs, model, past) -> tuple:
        """A position value's worlds: (their draws grouped, the weights of a weighted
        plan or None)."""
        weights, counts = None, None
        if beliefs == "model":
            ww = Beliefs(ds, model, _evidence(obs, past, model)).weigh(samples, seed, check=self._check_stop)
            worlds, weights = search_plan(ww, samples, seed, check=self._check_stop)
            if ww.candidates != samples:        # resampled: each entry stands for its draws
                counts = [int(round(w)) for w in weights]
        else:
            worlds = _uniform_worlds(ds, samples, seed, self._check_stop)
        # a world drawn k times: one search, k x the nodes
        return _group_draws(worlds, counts, self._check_stop), weights

    @_stoppable
    def deal_value(self, players: int, scores, seat: int, *, starter: int | None = None,
                   samples: int = DEFAULT_SAMPLES, seed: int = 0, world_nodes: int = DEFAULT_WORLD_NODES,
                   method: str = "pimc", chance_width: int = DEFAULT_CHANCE_WIDTH, objective: str = "win",
                   beliefs: str | None = None, model: OpponentModel | None = None, past=None,
                   search: str | None = None, budget: SearchBudget | None = None,
                   time_ms: float | None = None) -> "PositionValue":
        """What a round not yet dealt is worth to ``seat`` by this judge: the mean, over
        ``samples`` random deals at ``scores`` (one per side; None: 0 each, as
        :class:`~fiveup_solver.game.Game` takes them), of :meth:`position_value` of the
        seat once it has seen its hand, each deal valued in one world sampled from the
        seat's view. The starter is ``starter``, or drawn for every deal when None
        (RULES D1: the first round, and after a blocked round). Deal k is
        ``Game(players, deal_value_seed(seed, k), scores=scores, starter=starter)``.

        This is the position value's own expectation before the deal: a position value
        averages world values over the deals the seat cannot tell apart, so its mean
        over random hands is the mean world value over random deals. The deal luck of
        :mod:`fiveup_solver.analysis` is measured from it (docs/analysis.md); the
        race-equity table's value at the round's start is another valuation, from the
        bots' games, which the judge's values do not average to.

        ``past``: with model beliefs, the earlier rounds' evidence per seat
        (:func:`fiveup_solver.inference.past_evidence`), as the seat read them; other
        options as :meth:`position_value` (``budget.samples``: the deals). The deals
        and their worlds are searched together on the Hinter's threads.

        >>> v = Hinter(threads=1).deal_value(2, [0, 0], 0, samples=8, seed=1)
        >>> 0 < v.value < 1 and v.samples == 8
        True
        """
        method, samples, world_nodes, chance_width, objective, search, beliefs = _value_options(
            "a deal value takes samples (the deals: an integer >= 1)", budget, method=method, samples=samples,
            world_nodes=world_nodes, chance_width=chance_width, objective=objective, beliefs=beliefs, model=model,
            past=past, search=search, time_ms=time_ms)
        if past is not None and not isinstance(past, dict):
            raise OptionError(f"past must be the earlier rounds' evidence per seat (inference.past_evidence), "
                              f"not {_short(past)}")
        players, seat = check_players(players), as_int(seat)
        if not is_int(seat) or not 0 <= seat < players:
            raise OptionError(f"seat must be 0..{players - 1}, not {_short(seat)}")
        seed = check_seed(seed)
        start = time.perf_counter()
        values, nodes = [], 0
        for first in range(0, samples, DEAL_CHUNK):
            # DEAL_CHUNK deals at a time: a stop is seen between them, and memory stays bounded
            self._check_stop()
            jobs, plans = [], []
            for k in range(first, min(first + DEAL_CHUNK, samples)):
                # deal k: its own game (scores and starter checked there), its world from the same seed
                deal_seed = deal_value_seed(seed, k)
                g = Game(players=players, seed=deal_seed, scores=scores, starter=starter)
                obs = g.observation(seat)
                ds = DealSampler(obs)
                grouped, weights = self._value_plan(obs, ds, 1, deal_seed, beliefs, model, past)
                plans.append((grouped, weights))
                jobs.append((objective, _hint.WorldSearch(
                    ds.replayed, ds.counter, ds.hidden_seats, [], METHODS[method].code, world_nodes, chance_width,
                    deal_seed, len(grouped.worlds), 1, 0.0, seat, grouped.worlds, shares=grouped.shares)))
            with self._lock:
                for core in self._cores:
                    set_core_search(core, search)
                self._dispatch(jobs, players)
            for (grouped, weights), (_, job) in zip(plans, jobs):
                results = grouped.expand(job.results())
                if not results:     # pragma: no cover - a fresh deal always has a world
                    raise InconsistentObservationError(f"no world could be searched for seat {seat}")
                values.append(_root_mean(objective, results, weights)[0])
                nodes += sum(r[3] for r in results)
        mean, se = _mean_se(values)
        return PositionValue(seat, objective, _r(mean), _r(se), samples, nodes, time.perf_counter() - start,
                             beliefs)

    def _search(self, obs, base, ds, roots, method, objective, world_nodes, chance_width, seed, n_worlds,
                seconds, observer=None, worlds=None, search="paranoid", shares=None, job_out=None,
                source=None, horizons=None) -> list:
        """One world search over every thread's core under `objective` (the lock is held);
        ``worlds``: the worlds to search (see ``_hint.WorldSearch``), else sampled;
        ``shares``: with them, the draws each stands for (its node budget's multiple);
        ``job_out``: a list the WorldSearch is appended to (its draws' groups);
        ``source``: (a WorldSearch, its draws): search the worlds of those draws;
        ``horizons``: per world, (status, depth) of a first currency's search of it."""
        three = search
        for core in self._cores:
            set_core_search(core, three)
        search = _hint.WorldSearch(base, ds.counter, ds.hidden_seats, roots, METHODS[method].code, world_nodes,
                                   chance_width, seed & (2 ** 64 - 1), n_worlds,
                                   min(self.threads, n_worlds), seconds, observer, worlds, shares=shares,
                                   source=None if source is None else source[0],
                                   source_draws=None if source is None else source[1], horizons=horizons)
        self._dispatch([(objective, search)], obs.players)
        if job_out is not None:
            job_out.append(search)
        return search.results()

    def _search_many(self, obs, base, ds, roots, method, objectives, world_nodes, chance_width, seed, n_worlds,
                     worlds=None, search="paranoid", shares=None) -> list:
        """_search under each of `objectives` in the same worlds (a sample budget: no time
        limit), in one dispatch of the threads; their results in that order. Each world's
        search is independent of the thread and of what it searched before (a fresh
        context). The first objective's results are those of its own _search; each later
        one follows the first's passes in each world (``depth_of``): no deeper than the
        first reached where the budget cut it, straight to the pass that solved it where
        it was solved."""
        for core in self._cores:
            set_core_search(core, search)
        jobs = []
        for obj in objectives:
            jobs.append((obj, _hint.WorldSearch(base, ds.counter, ds.hidden_seats, roots, METHODS[method].code,
                                                world_nodes, chance_width, seed & (2 ** 64 - 1), n_worlds,
                                                min(self.threads, n_worlds), 0.0, None, worlds, shares=shares,
                                                depth_of=jobs[0][1] if jobs else None)))
        self._dispatch(jobs, obs.players)
        return [job.results() for _, job in jobs]

    @contextlib.contextmanager
    def _exact_stop(self):
        """A StopFlag for an exact hint's searches, which :meth:`stop` sets while it runs;
        SearchStopped when stop had been called before it started, or is called before it
        ends (as _dispatch)."""
        flag = _exact.StopFlag()
        with self._registered([flag]):
            yield flag

    @contextlib.contextmanager
    def _registered(self, jobs: list):
        """`jobs` (objects with a stop()) in :meth:`stop`'s reach while the block runs,
        beside those of any other call running on this Hinter; SearchStopped before the
        block when a stop is under way, and after it when one came meanwhile (the stop is
        the answer, whatever the block returned or raised)."""
        with self._stop_lock:
            if self._stopped():
                raise SearchStopped("the search was stopped (Hinter.stop)")
            self._jobs.extend(jobs)
        stopped = False
        try:
            yield
        except Exception:   # noqa: BLE001 -- a stopped search's follower may refuse to start
            with self._stop_lock:
                stopped = self._stopped()
            if not stopped:
                raise
        finally:
            with self._stop_lock:
                for job in jobs:
                    self._jobs.remove(job)
                stopped = stopped or self._stopped()
        if stopped:
            raise SearchStopped("the search was stopped (Hinter.stop)") from None

    def _dispatch(self, jobs, players) -> None:
        """Every thread's core works through the world searches of `jobs` ([(objective,
        WorldSearch)]) in order, switching its own objective between them; SearchStopped
        when :meth:`stop` stopped them (or had been called before they started)."""
        with self._registered([job for _, job in jobs]):
            self._run_jobs(jobs, players)

    def _run_jobs(self, jobs, players) -> None:
        """_dispatch's work: the helper threads and this one through `jobs`."""
        # every objective set once here first (its table loaded and checked in this thread,
        # where an error is raised to the caller), ending with the first job's
        for core in self._cores:
            for objective, _ in reversed(jobs):
                set_core_objective(core, objective, players)
        errors = []

        def set_objective(core, objective):
            set_core_objective(core, objective, players)
        # The helpers are started without waiting for them to run (threading.Thread.start
        # waits until the new thread is scheduled: milliseconds on a busy machine, idle
        # time of this thread at every search); each releases its lock when it is done.
        done = []
        for core in self._cores[1:]:
            lock = threading.Lock()
            lock.acquire()
            try:
                # the compiled run_jobs itself, not a Python function around it: it cannot
                # die before its finally releases the lock (see run_jobs)
                _thread.start_new_thread(_hint.run_jobs, (core, jobs, set_objective, lock, errors))
            except RuntimeError:
                # no thread to be had: the other threads take its worlds (they are pulled one by one)
                lock.release()
            done.append(lock)
        try:
            _hint.run_jobs(self._cores[0], jobs, set_objective, None, errors)
            if errors:
                # this thread's search failed or saw a Ctrl-C: the helpers need not finish theirs
                for _, job in jobs:
                    job.stop()
            while done:
                done[0].acquire()
                done.pop(0)
        except BaseException:
            # (a Ctrl-C while waiting for the helpers) they are told to stop before their next
            # world or root move, and waited for: none is left searching on this Hinter's cores
            for _, job in jobs:
                job.stop()
            while done:
                try:
                    done[0].acquire()
                    done.pop(0)
                except BaseException:   # noqa: BLE001 -- another Ctrl-C: the helpers are stopping
                    pass
            raise
        if errors:
            raise errors[0]


class _Draws:
    """A sample's worlds grouped by what is searched: ``worlds`` the distinct ones (a
    world's first draw stands for the group: its stream, its greedy seats), ``shares``
    the draws each stands for, ``expand`` a search's results back to every draw."""

    def __init__(self, worlds: list, shares: list, members: list):
        self.worlds, self.shares, self.members = worlds, shares, members

    def expand(self, results: list) -> list:
        """[(world, status, depth, nodes, values)] per distinct world -> the same per draw,
        in draw order (a repeated draw: the group's values, 0 nodes of its own)."""
        out = []
        for w, status, depth, nodes, values in results:
            first, *rest = self.members[w]
            out.append((first, status, depth, nodes, values))
            out += [(i, status, depth, 0, values) for i in rest]
        out.sort(key=lambda r: r[0])
        return out


def _uniform_worlds(ds, n: int, seed: int, check) -> list:
    """The uniform hint's own n worlds, [(k, hand masks, boneyard order)]: world k from
    stream (seed, k) (_sampler.world_stream), made PLAN_CHUNK at a time with `check`
    (Hinter._check_stop) called before each part."""
    stream = (seed & (2 ** 64 - 1)) ^ _WORLD_STREAM
    out = []
    for start in range(0, n, PLAN_CHUNK):
        check()
        part = ds.counter.worlds(min(PLAN_CHUNK, n - start), stream, start)
        out.extend((start + i, hands[:ds.players], bone) for i, (hands, bone) in enumerate(part))
    return out


def _group_draws(worlds: list, counts: list | None = None, check=None) -> _Draws:
    """Group `worlds` (``(stream, hands, boneyard[, greedy seats])``) that are the same deal
    with the same opponent model; ``counts``: the draws each entry already stands for (a
    resampled plan's), else 1 each; ``check``: called before each PLAN_CHUNK worlds."""
    index, distinct, shares, members = {}, [], [], []
    for i, w in enumerate(worlds):
        if check is not None and i % PLAN_CHUNK == 0:
            check()
        key = (tuple(w[1]), tuple(w[2]), tuple(w[3:]))
        j = index.get(key)
        if j is None:
            index[key] = j = len(distinct)
            distinct.append(w)
            shares.append(0)
            members.append([])
        shares[j] += 1 if counts is None else max(1, counts[i])
        members[j].append(i)
    return _Draws(distinct, shares, members)


def _exact_hint(obs, objective, both, beliefs, model, past, samples, time_ms, opponent, max_worlds,
                node_limit, sample_worlds=None, seed=0, sample_draws=None, stop=None) -> Hint:
    """A hint whose values are exact (see :mod:`fiveup_solver.exact`): every move, both
    currencies unless ``both=False``, standard errors 0. ``stop``: the Hinter's StopFlag."""
    start = time.perf_counter()
    both = check_switch("both", both)
    # used only by the sampled estimate, but checked always, as every other method checks
    # it (a review: seed=-5 was taken without a word)
    seed = check_seed(seed)
    if beliefs is not None and check_beliefs(beliefs) != "uniform" or model is not None or past is not None:
        raise OptionError("method 'exact' weighs the hidden worlds uniformly: beliefs='uniform', no model or past")
    if samples is not None or time_ms is not None:
        raise OptionError("method 'exact' is not sampled: no samples or time_ms")
    options = {"opponent": "greedy" if opponent is None else opponent,
               "max_worlds": _exact_search.DEFAULT_MAX_WORLDS if max_worlds is None else max_worlds,
               "node_limit": _exact_search.DEFAULT_NODE_LIMIT if node_limit is None else node_limit}
    if sample_draws is not None:
        sample_draws = check_switch("sample_draws", sample_draws)
        if sample_worlds is None:
            raise OptionError("sample_draws is an option of the sampled estimate: give sample_worlds too")
    if sample_worlds is not None:
        if options["opponent"] != "greedy":
            raise OptionError("sample_worlds (the sampled estimate) is against greedy only")
        if max_worlds is not None:
            raise OptionError("give either max_worlds (exact) or sample_worlds (an estimate), not both")
        del options["max_worlds"]
        options.update(sample_worlds=sample_worlds, seed=seed, sample_draws=bool(sample_draws))
    ds = DealSampler(obs)
    if obs.to_move != obs.seat:
        raise not_to_move(obs, "hint")
    check_decision(ds, obs)
    legal = list(obs.legal_moves)
    budget = dict(options)
    options["stop"] = stop
    if sample_worlds is not None:
        return _sampled_hint(obs, ds, legal, objective, both, options, budget, start)
    if len(legal) == 1:
        only = HintMove(legal[0], None, None, 1)
        return Hint(obs.seat, (only,), legal[0], "exact", 0, budget, time.perf_counter() - start, 0, 0,
                    objective, "uniform")
    objectives = [objective] + ([("win" if objective == "points" else "points")] if both else [])
    results = {obj: _exact_search.exact_result(obs, objective=obj, sampler=ds, **options) for obj in objectives}
    canon = [_core.canonical_of(*m.placement) for m in legal]
    main = results[objective].values
    order = sorted(range(len(legal)), key=lambda i: (-main[canon[i]], format_move(legal[i])))
    best = canon[order[0]]

    def of(obj, c):
        return _r(results[obj].values[c]) if obj in results else None

    def loss(obj, c):
        return _r(results[obj].values[best] - results[obj].values[c]) if obj in results else None

    moves = tuple(HintMove(legal[i], _r(main[canon[i]]), 0.0, r + 1, win=of("win", canon[i]),
                           points=of("points", canon[i]), loss=loss(objective, canon[i]), loss_stderr=0.0,
                           win_loss=loss("win", canon[i]), win_loss_stderr=0.0 if "win" in results else None,
                           points_loss=loss("points", canon[i]),
                           points_loss_stderr=0.0 if "points" in results else None,
                           win_stderr=0.0 if "win" in results else None,
                           points_stderr=0.0 if "points" in results else None)
                  for r, i in enumerate(order))
    res = results[objective]
    budget["worlds"] = res.worlds
    return Hint(obs.seat, moves, moves[0].move, "exact", res.worlds, budget, time.perf_counter() - start,
                sum(r.nodes for r in results.values()), res.worlds, objective, "uniform")


def _sampled_hint(obs, ds, legal, objective, both, options, budget, start) -> Hint:
    """The exact method's estimate beyond its reach: held-out values over sampled worlds, with
    standard errors (losses paired over the same judging worlds)."""
    options = {k: v for k, v in options.items() if k != "opponent"}
    if len(legal) == 1:
        only = HintMove(legal[0], None, None, 1)
        return Hint(obs.seat, (only,), legal[0], "exact", 0, budget, time.perf_counter() - start, 0, 0,
                    objective, "uniform")
    objectives = [objective] + ([("win" if objective == "points" else "points")] if both else [])
    results = {obj: _exact_search.sampled_result(obs, objective=obj, sampler=ds, **options) for obj in objectives}
    canon = [_core.canonical_of(*m.placement) for m in legal]
    main = results[objective]
    order = sorted(range(len(legal)), key=lambda i: (-main.values[canon[i]], format_move(legal[i])))
    best = canon[order[0]]

    def of(obj, c):
        return _r(results[obj].values[c]) if obj in results else None

    def loss(obj, c, k):
        return _r(results[obj].loss(best, c)[k]) if obj in results else None

    def se(obj, c):
        return _r(results[obj].stderr[c]) if obj in results else None

    moves = tuple(HintMove(legal[i], _r(main.values[canon[i]]), _r(main.stderr[canon[i]]), r + 1,
                           win=of("win", canon[i]), points=of("points", canon[i]),
                           loss=loss(objective, canon[i], 0), loss_stderr=loss(objective, canon[i], 1),
                           win_loss=loss("win", canon[i], 0), win_loss_stderr=loss("win", canon[i], 1),
                           points_loss=loss("points", canon[i], 0), points_loss_stderr=loss("points", canon[i], 1),
                           win_stderr=se("win", canon[i]), points_stderr=se("points", canon[i]))
                  for r, i in enumerate(order))
    budget["estimate"] = "held-out"
    return Hint(obs.seat, moves, moves[0].move, "exact", main.sample_worlds, budget, time.perf_counter() - start,
                sum(r.nodes for r in results.values()), main.sample_worlds, objective, "uniform")


_HINT_DEFAULTS = {"method": "pimc", "samples": None, "time_ms": None, "world_nodes": None,
                  "chance_width": DEFAULT_CHANCE_WIDTH, "objective": None, "beliefs": None, "search": None,
                  "depth": None}
_VALUE_DEFAULTS = {**_HINT_DEFAULTS, "samples": DEFAULT_SAMPLES, "objective": "win", "world_nodes": DEFAULT_WORLD_NODES}


def _check_stages(stages, settled, method, samples, time_ms) -> tuple:
    """The checked ``stages`` of a staged hint (see :meth:`Hinter.hint`)."""
    if stages is None or settled is None:
        raise OptionError("a staged hint takes both stages (world counts) and settled (a function of a hint)")
    if not callable(settled):
        raise OptionError(f"settled must be a function of a hint (True: stop here), not {_short(settled)}")
    if method not in _WORLD_METHODS:
        raise OptionError(f"stages apply to the methods {', '.join(_WORLD_METHODS)}, not {_short(method)}")
    if time_ms is not None:
        raise OptionError("stages need a sample budget (samples), not a time budget")
    if samples is None:
        raise OptionError("stages need a sample budget: give samples, the last stage's world count")
    try:
        stages = tuple(stages)
    except TypeError:
        raise OptionError(f"stages must be increasing world counts, not {_short(stages)}") from None
    if (not stages or not all(is_int(k) and k >= 1 for k in stages)
            or any(a >= b for a, b in zip(stages, stages[1:])) or stages[-1] != samples):
        raise OptionError(f"stages must be increasing world counts ending at samples ({samples}), "
                          f"not {_short(stages)}")
    return stages


def _budget(budget, _defaults=_HINT_DEFAULTS, **fields) -> SearchBudget:
    """The search budget of a call: ``budget``, or its fields given as keywords (not both)."""
    if budget is None:
        return SearchBudget(**fields)
    if not isinstance(budget, SearchBudget):
        raise OptionError(f"budget must be a SearchBudget, not {type(budget).__name__}")
    if any(v != _defaults[k] for k, v in fields.items()):
        given = ", ".join(k for k, v in fields.items() if v != _defaults[k])
        raise OptionError(f"give the budget or its fields ({given}), not both")
    return budget


def _settled(settled, h) -> bool:
    """``settled(h)``, a bool (a review: "no" read as true)."""
    answer = settled(h)
    if isinstance(answer, bool):
        return answer
    if getattr(answer, "shape", None) == () and getattr(getattr(answer, "dtype", None), "kind", None) == "b":
        return bool(answer)                 # (numpy's bool of a comparison)
    raise OptionError(f"settled must return True or False, not {_short(answer)}")


def _value_options(takes: str, budget, *, model, past, time_ms=None, **fields) -> tuple:
    """The checked options of a position or a deal value, from ``budget`` or its
    fields: (method, samples, world_nodes, chance_width, objective, search, beliefs).
    ``takes``: what the value takes, said where a time budget or no samples is given
    (``time_ms``: the keyword a hint takes, refused here in those words)."""
    if time_ms is not None:
        # (a review: position_value(time_ms=...) was a TypeError, unknown keyword)
        raise OptionError(f"{takes}, not a time budget (time_ms)")
    if budget is not None and not isinstance(budget, SearchBudget):
        raise OptionError(f"budget must be a SearchBudget, not {type(budget).__name__}")
    if budget is not None and budget.time_ms is not None:
        raise OptionError(f"{takes}, not a time budget")
    if budget is not None and budget.samples is None:
        budget = replace(budget, samples=DEFAULT_SAMPLES)
    if budget is not None and budget.objective is None:
        budget = replace(budget, objective="win")
    b = _budget(budget, _defaults=_VALUE_DEFAULTS, **fields)
    beliefs = _check_beliefs(b.beliefs, model, past)
    if b.method not in _WORLD_METHODS:
        raise OptionError(f"method must be one of {', '.join(_WORLD_METHODS)}, not {_short(b.method)}")
    if b.samples is None:
        raise OptionError(f"{takes}, not None")
    world_nodes = DEFAULT_WORLD_NODES if b.world_nodes is None else b.world_nodes
    return (b.method, b.samples, world_nodes, b.chance_width, check_objective(b.objective), check_search(b.search),
            beliefs)


def _check_beliefs(beliefs, model, past) -> str:
    beliefs = check_beliefs(beliefs)
    if model is not None:
        if beliefs != "model":
            raise OptionError("an opponent model is for beliefs='model'")
        if not isinstance(model, OpponentModel):
            raise OptionError(f"model must be an OpponentModel, not {type(model).__name__}")
    if past is not None and beliefs != "model":
        raise OptionError("past rounds are for beliefs='model'")
    return beliefs


DEAL_CHUNK = 256      # deals of a deal value searched in one dispatch


def deal_value_seed(seed: int, k: int) -> int:
    """The seed of deal k of a deal value with ``seed`` (its game's and its world's): a
    hash tagged with the purpose, so that no deal value deals a game that a match or a
    self-play run of a small seed deals (as ``seed * c + k`` would, with seed 0).

    >>> deal_value_seed(0, 0) != 0 and deal_value_seed(0, 1) != deal_value_seed(1, 0)
    True
    """
    digest = _blake2b(f"fiveup-deal-value/{seed}/{k}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def _evidence(obs, past, model):
    """The earlier rounds' evidence per seat (None: no earlier rounds given)."""
    if past is None:
        return None
    if isinstance(past, dict):
        return check_evidence(past, len((model or OpponentModel()).grid), "past")
    return past_evidence(obs, past, model)


def world_values(game, *, method: str = "pimc", world_nodes: int = 0, chance_width: int = 28,
                 seed: int = 0, objective: str = "points", greedy_seats=(), search: str | None = None) -> dict:
    """Each legal placement's value in the game's own world (every hand known), as a
    hint's world search computes it: {Move: value}. With ``method="pimc"`` the
    boneyard order is the game's; with ``"expectimax"`` only its tiles are known
    and draws are chance nodes. ``world_nodes=0``: no budget (searches to the end).
    ``greedy_seats``: other seats the search plays as greedy (as model beliefs may).
    For tests and analysis; it sees everything, so no seat may decide from it.
    ``search``: "paranoid" or "maxn" (3 players).
    """
    if not isinstance(method, str) or method not in _WORLD_METHODS:
        raise OptionError(f"method must be one of {', '.join(_WORLD_METHODS)}, not {_short(method)}")
    three = check_search(search)
    if not isinstance(game, Game):
        raise OptionError(f"world_values takes a Game, not {type(game).__name__}")
    world_nodes = _check_int("world_nodes", world_nodes, 0, 2 ** 62)
    chance_width = _check_int("chance_width", chance_width, 1, 28)
    seed = check_seed(seed)
    if not game.rounds or game.round_over:
        raise IllegalMoveError("there is no position: the round is over")
    legal = [m for m in game.legal_moves if m.kind == "play"]
    if not legal:
        raise IllegalMoveError("the seat to move cannot place")
    core = game.current.core
    canon = [_core.canonical_of(*m.placement) for m in legal]
    roots = sorted(set(canon))
    solver_core = _solver.SolverCore(4.0)
    set_core_search(solver_core, three)
    status, depth, nodes, values = _value_one_world(
        solver_core, core, roots, method, world_nodes or 2 ** 62, chance_width, seed, 0.0, greedy_seats,
        check_objective(objective), [core.hand(s) for s in range(game.players)], core.boneyard_left)
    return {m: values[roots.index(c)] for m, c in zip(legal, canon)}


def _value_one_world(solver_core, base, roots, method, world_nodes, chance_width, seed, seconds, greedy_seats,
                     objective, hands, boneyard, horizon=None):
    """One world's search as a hint's world search makes it (every hand and the
    boneyard given), on ``solver_core`` under ``objective``: (status, depth reached,
    nodes, each root's value). ``horizon``: None, or a first currency's (status,
    depth) there to follow. The callers have checked their arguments."""
    search = _hint.WorldSearch(base, None, (), roots, METHODS[method].code, world_nodes, chance_width,
                               seed & (2 ** 64 - 1), 1, 1, seconds, greedy_seats=greedy_seats)
    set_core_objective(solver_core, objective, base.players)
    return search.value_world(solver_core, hands, boneyard, horizon=horizon)


_default: Hinter | None = None
_retired: list = []       # defaults set_default_threads replaced while a call ran on them


def _worker_hinter() -> None:
    """In a worker process of :func:`fiveup_solver.parallel.ordered_map`: one search thread,
    the workers fill the cores."""
    global _default
    if getattr(_default, "threads", None) != 1:
        _default = Hinter(threads=1)


on_worker_start(_worker_hinter)


_default_made = threading.Lock()


def _forked_child() -> None:
    """In a child forked from this process: the parent's default Hinter (and its replaced
    ones) may have been searching in a thread that the child does not have, its lock copied
    held; the child makes its own at its first call (an embedder's review: a fork-start pool
    made while a thread searched hung at its first hint())."""
    global _default, _default_made
    _default = None
    _retired.clear()
    _default_made = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forked_child)


def _default_hinter() -> Hinter:
    """The shared default Hinter, made once (threads calling hint() at once share one:
    their searches take turns, as on any shared Hinter)."""
    global _default
    if _default is None:
        with _default_made:
            if _default is None:
                _default = Hinter(threads=1) if in_worker() else Hinter()
    return _default


def set_default_threads(threads: int) -> None:
    """The search threads of the shared default :class:`Hinter` (1 to 64; it starts with
    2, or 1 in a worker process), which :func:`hint`, :func:`position_value` and every
    hint-based bot and level (``bots.choose("level6", ...)``) search with. An app that
    gives the engine one core calls ``set_default_threads(1)``; results with a sample
    budget are the same for any number of threads. A search running on the old default
    finishes on it, and :func:`stop_searches` still reaches it.

    >>> set_default_threads(1)
    >>> _default_hinter().threads
    1
    >>> set_default_threads(2)
    """
    global _default
    made = Hinter(threads=threads)      # checks the number
    with _default_made:
        if _default is not None:
            _retired.append(_default)
        # the replaced defaults that still run a call (stop_searches stops them too)
        _retired[:] = [h for h in _retired if h._calls]
        _default = made


def stop_searches() -> bool:
    """:meth:`Hinter.stop` of the shared default Hinter (the one :func:`hint`,
    :func:`position_value`, the hint-based bots and the levels use): an app's "cancel".
    It also stops the calls still running on a default that :func:`set_default_threads`
    has replaced; a search on a Hinter of :func:`use_hinter` is that Hinter's to stop
    (``hinter.stop()``). Returns whether there was a call to stop.

    >>> stop_searches()
    False
    """
    with _default_made:
        hinters = [h for h in (_default, *_retired) if h is not None]
    return any([h.stop() for h in hinters])      # (a list: every one is stopped)


# the Hinter of use_hinter in this thread (context), which the module's functions use before the default
_context_hinter: contextvars.ContextVar = contextvars.ContextVar("fiveup_solver_hinter", default=None)


@contextlib.contextmanager
def use_hinter(hinter: Hinter):
    """Within it, in this thread (strictly: this context), :func:`hint`,
    :func:`position_value`, :func:`deal_value` and every hint-based bot and level
    (``bots.choose("level6", ...)``) search on ``hinter`` instead of the shared default.
    An app that serves several games gives each its own Hinter: their decisions then
    search side by side instead of taking turns on the one default, and ``hinter.stop()``
    stops that game's decision only (:func:`stop_searches` stops the default's). The
    values are the same on any Hinter of the same threads (a sample budget: any threads).
    Other threads are not affected; nested, the innermost holds.

    >>> import random
    >>> from fiveup_solver import Game
    >>> from fiveup_solver.bots import choose
    >>> g = Game(players=2, seed=4)
    >>> mine = Hinter(threads=1)
    >>> with use_hinter(mine):
    ...     move = choose("level6", g.observation(g.to_move), random.Random(1))
    >>> move in g.legal_moves
    True
    """
    if not isinstance(hinter, Hinter):
        raise OptionError(f"use_hinter takes a Hinter, not {_short(hinter)}")
    token = _context_hinter.set(hinter)
    try:
        yield hinter
    finally:
        _context_hinter.reset(token)


def _current_hinter() -> Hinter:
    """The Hinter the module's functions use here: use_hinter's, else the shared default."""
    return _context_hinter.get() or _default_hinter()


def position_value(obs, **options) -> PositionValue:
    """The observation's seat's value of the position (see :meth:`Hinter.position_value`),
    with the shared default :class:`Hinter` (or :func:`use_hinter`'s).

    >>> from fiveup_solver import Game
    >>> g = Game(players=2, seed=4)
    >>> v = position_value(g.observation(1 - g.to_move), samples=8, seed=1)
    >>> 0 <= v.value <= 1 and v.samples == 8
    True
    """
    return _current_hinter().position_value(obs, **options)


def deal_value(players: int, scores, seat: int, **options) -> PositionValue:
    """A round not yet dealt, valued for ``seat`` by the position values' own judge
    (see :meth:`Hinter.deal_value`), with the shared default :class:`Hinter` (or
    :func:`use_hinter`'s).

    >>> v = deal_value(2, [0, 0], 1, starter=0, samples=8, seed=1)
    >>> 0 < v.value < 1 and v.samples == 8
    True
    """
    return _current_hinter().deal_value(players, scores, seat, **options)


def hint(obs, **options) -> Hint:
    """Hint for the seat of ``obs`` (a :class:`~fiveup_solver.game.Observation`);
    options as :meth:`Hinter.hint`. Uses a shared default :class:`Hinter` (or
    :func:`use_hinter`'s)."""
    return _current_hinter().hint(obs, **options)
