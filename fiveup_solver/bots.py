"""Built-in bots. A bot decides for one seat from that seat's Observation only.

``random``: uniform among the legal concrete moves.
``hint``: the best move of :func:`fiveup_solver.hint.hint` (PIMC) at its
default budget and objective, seeded from the bot's generator; ``expectimax``:
the same with the expectimax method. Both see the seat's observation only.
``hint-win`` / ``hint-points`` (and ``expectimax-win`` / ``-points``) fix the
objective: the probability of winning the game, or the round's raw points.
``hint-model`` / ``expectimax-model``: the default objective, with the worlds
weighted by how the other seats have played (``beliefs="model"``,
:mod:`fiveup_solver.beliefs`), remembering the game's earlier rounds;
``hint-uniform`` / ``expectimax-uniform``: every consistent world alike. The
bots without a beliefs suffix use the default beliefs
(:data:`fiveup_solver.beliefs.DEFAULT_BELIEFS`, ``model``).
``hint-maxn`` / ``hint-paranoid`` (and ``expectimax-maxn`` / ``-paranoid``):
the default hint bot with the 3-player search
fixed (max^n, or paranoid: the seat against the other two together; with 2 or
4 players both are the default hint bot).
``hint-alphamu``: the hint bot with ``method="alphamu"`` (2 players, docs/alphamu.md),
also with ``-win``/``-points``/``-model``/``-uniform`` and as
``hint-alphamu:SAMPLES:NODES`` (NODES per leaf); ``hint-alphamu-d3`` (also with
``:SAMPLES:NODES`` or ``@MSms``): alphamu at depth 3 instead of the default.
``hint@50ms``, ``hint-alphamu@50ms``, ``expectimax-win@20ms``: a hint bot searching
for that time per decision (anytime), for matches at equal time per move; its
moves depend on the machine's speed and load, so such a match is not
reproducible from its seed alone.
``greedy``: the largest immediate accepted credit: the placement credit the
board shows (end sum when positive and a multiple of 5), counted 0 when it
would take the side above 305; ties broken by the bot's seeded generator.
(A hand-emptying placement's opponent bonus depends on hidden hands; every
move of a one-tile hand shares it, so greedy ranks those by the placement
credit alone.)

>>> import random
>>> from fiveup_solver.game import Game
>>> g = Game(players=2, seed=1)
>>> move = choose("greedy", g.observation(g.to_move), random.Random(0))
>>> move in g.legal_moves
True
"""
from __future__ import annotations

import importlib
import os
import pickle
import random as _random
import re
import sys
import time

from fiveup_solver import _core
from fiveup_solver.errors import (BotError, InconsistentObservationError, OptionError, check_players, check_seed,
                                  is_number, short_repr)
from fiveup_solver.game import Game, check_observation, not_to_move
from fiveup_solver.inference import DealSampler, check_decision
from fiveup_solver.notation import Move, format_move, format_number
from fiveup_solver.parallel import arm_move_stop, disarm_move_stop, workers_are_forked
from fiveup_solver.hint import ALPHAMU_MAX_DEPTH, BOT_SUFFIXES, BUDGET_MAX_DIGITS, METHODS, SearchBudget
from fiveup_solver.solver import SEARCHES
from fiveup_solver.levels import LEVELS, level_bot
from fiveup_solver.policies import decision, greedy_bot, hint_bot, random_bot

__all__ = ["BOTS", "bot_function", "bot_move", "check_bot", "check_move_time", "stop_after", "choose", "choose_in_game", "names_a_module",
           "not_a_bot_name", "parse_bot_list", "register_bot", "worker_setup"]

# a bot of one's own named by where it is: "package.module:function"
_AGENT_PATH = re.compile(r"([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*):([A-Za-z_][A-Za-z0-9_]*)")
_AGENT_NAME = re.compile(r"[a-z][a-z0-9_-]{0,39}")
# a function where a bot's name is expected: how to name it (every check that takes a bot
# name says it, in these words)
_NAME_A_FUNCTION = "give a function a name with bots.register_bot(name, function), or name it MODULE:FUNCTION"


def not_a_bot_name(message: str, value) -> OptionError:
    """The error for ``value`` given where a bot's name is expected: ``message``, and when
    ``value`` is a function (or any callable), how to name it (:func:`register_bot`, or
    ``MODULE:FUNCTION``): the one wording of every function that takes bot names.

    >>> str(not_a_bot_name("bot must be a bot name, not <function f>", len))
    'bot must be a bot name, not <function f>: give a function a name with bots.register_bot(name, function), or name it MODULE:FUNCTION'
    >>> str(not_a_bot_name("bot must be a bot name, not 3", 3))
    'bot must be a bot name, not 3'
    """
    return OptionError(f"{message}: {_NAME_A_FUNCTION}" if callable(value) else message)


def register_bot(name: str, function) -> str:
    """Enter ``function``, a decision function ``(observation, rng) -> move``, as bot
    ``name``: every function that takes bot names (:func:`fiveup_solver.selfplay.play_game`,
    the matches, the SPRT, the ladder, :func:`choose`) then plays it. ``name``: lower-case
    letters, digits, ``-`` and ``_``, starting with a letter; a built-in name is refused,
    and so is ``level`` and digits (the graded levels' names: a registered ``level9``
    would read as a level the ladder never measured); registering a name again replaces
    its function. The matches, the SPRT and the ladder send a registered function to
    their worker processes (:func:`worker_setup`): a module-level function reaches
    them however they start; one pickle cannot send (a lambda, a function defined in
    another) only workers started by *fork*, which copy this process (Linux before
    Python 3.14), and elsewhere is refused before a game. On the command line, name
    the function by its module (``"mypackage.agents:heuristic"``, see
    :func:`bot_function`). Returns ``name``.

    >>> import random
    >>> from fiveup_solver.game import Game
    >>> def first_move(obs, rng):
    ...     return obs.legal_moves[0]
    >>> register_bot("first", first_move)
    'first'
    >>> g = Game(players=2, seed=1)
    >>> choose("first", g.observation(g.to_move), random.Random(0)) == g.legal_moves[0]
    True
    >>> _ = BOTS.pop("first")     # (the example leaves the registry as it was)
    """
    if not isinstance(name, str) or not _AGENT_NAME.fullmatch(name):
        raise OptionError(f"a bot's name is 1 to 40 lower-case letters, digits, '-' or '_', starting with a letter, "
                          f"not {name!r}"[:160])
    if name in _BUILT_IN or SearchBudget.from_bot_name(name) is not None:
        raise OptionError(f"bot name {name!r} is a built-in bot's")
    if re.fullmatch(r"level[0-9]+", name):
        raise OptionError(f"bot name {name!r}: level and digits name the graded levels "
                          f"({', '.join(LEVELS)}); give your bot another name")
    if not callable(function):
        raise OptionError(f"a bot is a function (observation, rng) -> move, not {type(function).__name__}")
    BOTS[name] = decision(function)
    _REGISTERED[name] = function
    return name


# name -> the function given to register_bot, for worker processes (worker_setup)
_REGISTERED: dict = {}


def worker_setup(names, ray: bool = False):
    """What worker processes need to play the bots ``names`` that were registered in this
    process (:func:`register_bot`): a ``(function, args)`` pair for
    :func:`fiveup_solver.parallel.ordered_map`'s ``setup``, which registers them there, or
    None when none of them is. A worker process started by *spawn* or *forkserver* (the
    default from Python 3.14 on Linux) has only what it is sent (a review: a registered
    bot there was an "unknown bot"); a function pickle cannot send (a lambda, a function
    defined in another) is refused here, in one line, unless the workers are forked
    copies of this process, which have it already. ``ray``: for Ray's workers, which are
    sent every function (Ray pickles lambdas too)."""
    functions = {}
    for name in dict.fromkeys(names):
        function = _REGISTERED.get(name)
        if function is None or name not in BOTS:
            continue
        if ray:
            functions[name] = function
            continue
        try:
            pickle.dumps(function)
        except Exception as e:      # noqa: BLE001 -- what pickle raises varies (PicklingError, AttributeError, ...)
            if workers_are_forked():
                continue            # a forked worker is a copy of this process: it has the bot
            raise OptionError(f"bot {name!r} is registered with a function worker processes cannot be sent "
                              f"({type(e).__name__}: a lambda or a function defined in another?): register a "
                              f"module-level function, or name it MODULE:FUNCTION") from None
        functions[name] = function
    return (restore_registered, (functions,)) if functions else None


def restore_registered(functions: dict) -> None:
    """Register ``functions`` (name -> function) in a worker process (:func:`worker_setup`)."""
    for name, function in functions.items():
        register_bot(name, function)


def names_a_module(name) -> bool:
    """Whether ``name`` is a ``MODULE:FUNCTION`` bot (not a built-in, registered or
    budget name): one that :func:`bot_function` would import."""
    return (isinstance(name, str) and name not in BOTS and _AGENT_PATH.fullmatch(name) is not None
            and SearchBudget.from_bot_name(name) is None)


def _agent_at(name: str):
    """The decision function of ``module:function`` (imported; the current directory is
    looked in too, as the command line is run from there), or None when ``name`` is not
    of that form."""
    m = _AGENT_PATH.fullmatch(name)
    if m is None:
        return None
    module_name, attr = m.groups()
    try:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as e:
            if e.name != module_name.split(".")[0] or os.getcwd() in sys.path or "" in sys.path:
                raise
            sys.path.append(os.getcwd())
            module = importlib.import_module(module_name)
    except Exception as e:     # an agent's module that fails to import: its error, in one line
        raise OptionError(f"bot {name[:80]!r}: cannot import {module_name} ({type(e).__name__}: "
                          f"{' '.join(str(e).split())[:120]})") from None
    if not hasattr(module, attr):
        raise OptionError(f"bot {name[:80]!r}: module {module_name} has no function {attr}")
    function = getattr(module, attr)
    if not callable(function):
        raise OptionError(f"bot {name[:80]!r}: {module_name}.{attr} is not a function but {short_repr(function)}")
    return decision(function)


def bot_function(name: str):
    """The decision function of a bot name: a built-in name, ``hint:SAMPLES:NODES``
    / ``expectimax:SAMPLES:NODES`` (also ``hint-win:...``) for a hint bot with another
    budget, a name given to :func:`register_bot`, or ``MODULE:FUNCTION`` for a
    function ``(observation, rng) -> move`` of one's own (``mypackage.agents:heuristic``;
    the module is imported, from the current directory too): the form the command
    line and worker processes take.

    >>> bot_function("hint:16:5000") is not None and bot_function("hint-uniform:16:5000") is not None
    True
    """
    if not isinstance(name, str):
        raise not_a_bot_name(f"a bot name is a string, not {type(name).__name__}", name)
    if name in BOTS:
        return BOTS[name]
    budget = SearchBudget.from_bot_name(name)
    if budget is not None:
        return hint_bot(budget)
    agent = _agent_at(name)
    if agent is not None:
        return agent
    # a well-formed budget name with a number out of range: say which number
    base, sep, rest = name.partition(":")
    if sep and re.fullmatch(r"[0-9]+:[0-9]+", rest) and SearchBudget.from_bot_name(base + ":1:1") is not None:
        too_long = max(map(len, rest.split(":"))) > BUDGET_MAX_DIGITS
        raise OptionError(f"bot {name[:40]!r}: SAMPLES and NODES must each be "
                          + (f"a number of at most {BUDGET_MAX_DIGITS} digits" if too_long else "at least 1"))
    timed = re.fullmatch(r"([a-z0-9-]+)@([0-9]+(?:\.[0-9]+)?)ms", name)
    if timed and SearchBudget.from_bot_name(timed.group(1) + "@1ms") is not None:
        raise OptionError(f"bot {name[:40]!r}: the time per decision must be 1 to 3600000 ms")
    # the built-in names only (benchmarks register bots of their own, whose names would take
    # the line past its length; register_bot refuses level names)
    plain = sorted(b for b in _BUILT_IN if "-" not in b and not b.startswith("level"))
    levels = sorted(LEVELS, key=lambda b: int(b[len("level"):]))
    if name.lower() != name and name.lower() in _BUILT_IN:
        raise OptionError(f"unknown bot {name[:40]!r}: bot names are lower case ({name.lower()!r})")
    if re.fullmatch(r"level[0-9]+", name):    # a level out of range: the levels, not every form
        raise OptionError(f"unknown level {name[:40]!r} (known: {levels[0]}..{levels[-1]})")
    known = ", ".join([b + "[-X]" if b in _METHOD_OF_BOT else b for b in plain] + [f"{levels[0]}..{levels[-1]}"])
    methods = "|".join(_METHOD_OF_BOT)
    raise OptionError(f"unknown bot {str(name)[:40]!r} (known: {known}, METHOD[-X]:SAMPLES:NODES, METHOD[-X]@MSms with METHOD {methods}, "
                      f"your own MODULE:FUNCTION; "
                      f"X: {', '.join(BOT_SUFFIXES[:-1])} or {BOT_SUFFIXES[-1]}; hint-alphamu-dN: depth N, 0 to "
                      f"{ALPHAMU_MAX_DEPTH})")


# one bot per search method of the registry (fiveup_solver.hint.METHODS), at the default budget
_METHOD_OF_BOT = {m.bot: m.name for m in METHODS.values()}
BOTS = {"random": random_bot, "greedy": greedy_bot,
        **{bot: hint_bot(SearchBudget(method=method)) for bot, method in _METHOD_OF_BOT.items()},
        # hint-win, hint-points, hint-model, hint-uniform, hint-maxn, hint-paranoid (and expectimax-...,
        # hint-alphamu-...; the 3-player searches only for methods that search 3 players)
        **{f"{bot}-{suffix}": hint_bot(SearchBudget.for_bot(method, suffix))
           for bot, method in _METHOD_OF_BOT.items() for suffix in BOT_SUFFIXES
           if suffix not in SEARCHES or 3 in METHODS[method].players}}


def choose(bot: str, obs, rng: _random.Random):
    """The move `bot` picks from observation `obs` (the seat must be to move). The
    observation is checked whole first, for every bot as for a hint: fields that do not
    follow from its history (its hand, scores, board, legal moves, end sums) are one
    :class:`~fiveup_solver.errors.InconsistentObservationError`.

    >>> import random
    >>> from fiveup_solver import Game
    >>> g = Game(players=2, seed=4)
    >>> choose("greedy", g.observation(g.to_move), random.Random(1)) in g.legal_moves
    True
    """
    _check_choice(obs, rng)
    check_decision(DealSampler(obs), obs)     # the replay of its history must give its every field
    return bot_function(bot)(obs, rng)


def choose_in_game(bot: str, obs, rng: _random.Random):
    """:func:`choose` for an observation that a :class:`~fiveup_solver.game.Game` made
    (``game.observation(seat)``), which needs no replay to be trusted: the rollouts of
    the analysis and the equity tables' games, where the check would cost more than
    the cheap bots' decisions."""
    _check_choice(obs, rng)
    return bot_function(bot)(obs, rng)


def _check_choice(obs, rng) -> None:
    """What a bot may be asked to decide from (choose)."""
    if isinstance(obs, Game):
        # (as a bot's own decision function says it: a Game was read as a malformed observation)
        raise OptionError(f"a bot decides from an Observation (game.observation(seat)), not {short_repr(obs)}")
    check_observation(obs)    # a bot reads only the observation: a malformed one is refused whole
    if not isinstance(rng, _random.Random):
        raise OptionError(f"rng must be a random.Random (the bot's seeded generator), not {type(rng).__name__}")
    if not obs.legal_moves:
        raise not_to_move(obs, "choose")
    if len(obs.scores) != _core.sides_of(obs.players):
        raise InconsistentObservationError(f"observation scores must list the {_core.sides_of(obs.players)} "
                                           f"sides' scores for a bot to decide, not {list(obs.scores)}")


def check_move_time(move_time, name: str = "move_time"):
    """A time limit per move: None (none) or a finite number of seconds > 0."""
    if move_time is not None and (not is_number(move_time) or move_time <= 0):
        raise OptionError(f"{name} must be a finite number of seconds > 0, not {short_repr(move_time)}")
    return move_time


def stop_after(move_time: float) -> float:
    """When a move over ``move_time`` is stopped where it can be (in a worker process
    of a match, a ladder or an SPRT): at twice the limit and a second. A move that
    returns before is judged by the time it took; the margin keeps a move slightly
    over the limit a "took" error with its time, and allows for a busy machine."""
    return 2 * move_time + 1.0


def bot_move(bot: str, obs, rng: _random.Random, game_seed: int | None = None, move_time: float | None = None,
             *, bot_seed: int | None = None):
    """The move `bot` picks (:func:`choose`), checked: a bot that raises, or returns
    anything but one of ``obs.legal_moves``, or takes longer than ``move_time`` seconds
    (wall clock, the bot's own call; None: no limit), is one :class:`BotError` naming it,
    its seat, the round and action (from the observation) and ``game_seed`` when given,
    with its own exception as the cause. The legal moves are read before the bot runs:
    what it returns is checked against them (as text: a Move, equal to one of them),
    not against an observation or a move object it could have changed. In a worker
    process of a run that stops hung moves (``parallel.ordered_map(stop_hung=True)``:
    a match, an SPRT or a ladder with a limit), a move that has not returned at
    :func:`stop_after` ``(move_time)`` ends the worker, and the run fails with one
    BotError saying so. ``bot_seed``: the seed of the game's bot generators when it is not
    ``game_seed`` (:func:`~fiveup_solver.selfplay.play_game`'s), named too: with both,
    the failing decision can be played again.

    An agent that raises anything, ``SystemExit`` and other ``BaseException`` kinds too,
    fails; ``KeyboardInterrupt`` is passed on as it is (it is how Ctrl-C stops a run)."""
    # the caller's arguments first: a bad one is the caller's typed error, not the bot's failure
    _check_choice(obs, rng)
    function = bot_function(bot)
    check_move_time(move_time)
    if game_seed is not None:
        game_seed = check_seed(game_seed, "game_seed")
    if bot_seed is not None:
        bot_seed = check_seed(bot_seed, "bot_seed")
    try:
        legal = {format_move(m) for m in obs.legal_moves}
        armed = False
        if move_time is not None:
            # where, read before the bot runs (what it does to its observation cannot change
            # it); the message formatted only if the move is stopped
            where = (bot, obs.seat, obs.round, len(obs.history), game_seed, bot_seed)
            armed = arm_move_stop(stop_after(move_time), lambda: (
                f"{_where(*where)}: did not return within {format_number(stop_after(move_time), 'g')} s "
                f"(the limit is {format_number(move_time, 'g')} s a move); its worker process was stopped"))
        start = time.perf_counter()
        try:
            move = function(obs, rng)
        finally:
            if armed:
                disarm_move_stop()
        took = time.perf_counter() - start
    except KeyboardInterrupt:
        raise                   # Ctrl-C (one the agent raised itself cannot be told from it)
    except BaseException as e:  # noqa: BLE001 -- whatever a bot raises (sys.exit, BaseException kinds too) is its failure
        raise BotError(f"{_bot_at(bot, obs, game_seed, bot_seed)}: raised {type(e).__name__}: "
                       f"{' '.join(str(e).split())[:160]}") from e
    try:
        text = format_move(move) if type(move) is Move else None
    except Exception:      # noqa: BLE001 -- a Move whose fields the bot changed
        text = None
    if text not in legal:
        raise BotError(f"{_bot_at(bot, obs, game_seed, bot_seed)}: returned {short_repr(move)}, "
                       f"not one of the {len(legal)} legal moves (a Move of obs.legal_moves)")
    if move_time is not None and took > move_time:
        raise BotError(f"{_bot_at(bot, obs, game_seed, bot_seed)}: took {took:.3g} s, over the limit of "
                       f"{format_number(move_time, 'g')} s a move")
    return move


def _bot_at(bot: str, obs, game_seed: int | None, bot_seed: int | None = None) -> str:
    """Which bot failed where (formatted only when one has)."""
    return _where(bot, obs.seat, obs.round, len(obs.history), game_seed, bot_seed)


def _where(bot: str, seat: int, rnd: int, action: int, game_seed: int | None, bot_seed: int | None = None) -> str:
    seed = "" if game_seed is None else f" of the game with seed {game_seed}"
    if bot_seed is not None and bot_seed != game_seed:
        seed += f" (bot seed {bot_seed})"
    return f"bot {bot[:60]!r} (seat {seat}) at round {rnd} action {action}{seed}"


def _method_of(name: str):
    """The search method of a hint bot's name (None for the other bots)."""
    budget = SearchBudget.from_bot_name(name)
    if budget is not None:
        return budget.method
    for bot in sorted(_METHOD_OF_BOT, key=len, reverse=True):
        if name == bot or name.startswith(bot + "-"):
            return _METHOD_OF_BOT[bot]
    return None


def check_bot(name, players: int) -> str:
    """``name`` when it is a bot that can play a game of ``players``: a hint bot's method
    must search that many players (refused before a game starts and prints, as demo and
    play would, not at the bot's first decision)."""
    bot_function(name)
    method = _method_of(name)
    if method is not None and players not in METHODS[method].players:
        raise OptionError(f"bot {name!r}: method {method!r} searches "
                          f"{' or '.join(map(str, METHODS[method].players))} players, not {players}")
    return name


def parse_bot_list(text: str, players: int) -> list:
    """'greedy,random' -> one bot name per seat, the list repeated if shorter."""
    if not isinstance(text, str):
        raise OptionError(f"a bot list is a string like 'greedy,random', not {type(text).__name__}")
    players = check_players(players)
    names = [b.strip() for b in text.split(",")]
    for b in names:
        check_bot(b, players)
    if len(names) > players:
        raise OptionError(f"{len(names)} bots named for {players} seats")
    return [names[i % len(names)] for i in range(players)]


# the graded levels (fiveup_solver.levels): level1 .. level8
BOTS.update({name: level_bot(name) for name in LEVELS})
_BUILT_IN = frozenset(BOTS)
