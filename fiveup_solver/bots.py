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
``hint-alphamu:SAMPLES:NODES`` (NODES per leaf).
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

import random as _random

from fiveup_solver import _core
from fiveup_solver.errors import InconsistentObservationError, OptionError
from fiveup_solver.hint import METHODS
from fiveup_solver.notation import TARGET_RAW

__all__ = ["BOTS", "bot_function", "choose", "parse_bot_list"]


def _random_bot(obs, rng: _random.Random):
    return rng.choice(obs.legal_moves)


def _greedy_bot(obs, rng: _random.Random):
    score = obs.scores[obs.side]
    best, best_moves = -1, []
    for move, s in zip(obs.legal_moves, obs.end_sums_after):
        credit = _core.end_sum_credit(s) if move.kind == "play" else 0
        if score + credit > TARGET_RAW:
            credit = 0
        if credit > best:
            best, best_moves = credit, [move]
        elif credit == best:
            best_moves.append(move)
    return rng.choice(best_moves)


def _hint_bot(method: str, samples: int | None = None, world_nodes: int | None = None,
              objective: str | None = None, beliefs: str | None = None, search: str | None = None):
    from fiveup_solver.beliefs import check_beliefs
    if check_beliefs(beliefs) == "model":
        from fiveup_solver.beliefs import model_hint_bot
        return model_hint_bot(method, samples, world_nodes, objective, search=search)

    def bot(obs, rng: _random.Random):
        if len(obs.legal_moves) == 1:
            return obs.legal_moves[0]
        from fiveup_solver.hint import hint
        options = {"objective": objective, "both": False, "beliefs": "uniform", "search": search}  # own currency only
        if samples is not None:
            options["samples"] = samples
        if world_nodes is not None:
            options["world_nodes"] = world_nodes
        return hint(obs, method=method, seed=rng.getrandbits(63), **options).best
    return bot


def bot_function(name: str):
    """The decision function of a bot name: a built-in name, or ``hint:SAMPLES:NODES``
    / ``expectimax:SAMPLES:NODES`` (also ``hint-win:...``) for a hint bot with another budget.

    >>> bot_function("hint:16:5000") is not None and bot_function("hint-uniform:16:5000") is not None
    True
    """
    if not isinstance(name, str):
        raise OptionError(f"a bot name is a string, not {type(name).__name__}")
    if name in BOTS:
        return BOTS[name]
    base, _, rest = str(name).partition(":")
    parts = rest.split(":")
    method_bot, _, objective = base.partition("-")
    for known in sorted(_METHOD_OF_BOT, key=len, reverse=True):   # the longest: hint-alphamu before hint
        if base == known or base.startswith(known + "-"):
            method_bot, objective = known, base[len(known) + 1:]
            break
    if (method_bot in _METHOD_OF_BOT and objective in ("", "win", "points", "model", "uniform", "maxn", "paranoid")
            and len(parts) == 2 and all(p.isdigit() and int(p) > 0 for p in parts)):
        if objective in ("model", "uniform"):
            return _hint_bot(_METHOD_OF_BOT[method_bot], int(parts[0]), int(parts[1]), beliefs=objective)
        if objective in ("maxn", "paranoid"):
            return _hint_bot(_METHOD_OF_BOT[method_bot], int(parts[0]), int(parts[1]), search=objective)
        return _hint_bot(_METHOD_OF_BOT[method_bot], int(parts[0]), int(parts[1]), objective or None)
    plain = sorted(b for b in BOTS if "-" not in b and not b.startswith("level"))
    levels = sorted(b for b in BOTS if b.startswith("level"))
    known = ", ".join([b + "[-X]" if b in _METHOD_OF_BOT else b for b in plain]
                      + ([f"{levels[0]}..{levels[-1]}"] if levels else []))
    methods = "|".join(_METHOD_OF_BOT)
    raise OptionError(f"unknown bot {str(name)[:40]!r} (known: {known}, or {methods}[-X]:SAMPLES:NODES; "
                      f"X: win, points, model, uniform, maxn or paranoid)")


# one bot per search method of the registry (fiveup_solver.hint.METHODS), at the default budget
_METHOD_OF_BOT = {m.bot: m.name for m in METHODS.values()}
BOTS = {"random": _random_bot, "greedy": _greedy_bot,
        **{bot: _hint_bot(method) for bot, method in _METHOD_OF_BOT.items()},
        **{f"{bot}-{objective}": _hint_bot(method, objective=objective)
           for bot, method in _METHOD_OF_BOT.items() for objective in ("win", "points")},
        **{f"{bot}-{beliefs}": _hint_bot(method, beliefs=beliefs)
           for bot, method in _METHOD_OF_BOT.items() for beliefs in ("model", "uniform")},
        # the 3-player search fixed
        **{f"{bot}-{search}": _hint_bot(method, search=search)
           for bot, method in _METHOD_OF_BOT.items() for search in ("maxn", "paranoid")
           if 3 in METHODS[method].players}}


def choose(bot: str, obs, rng: _random.Random):
    """The move `bot` picks from observation `obs` (the seat must be to move)."""
    from fiveup_solver.inference import check_observation
    check_observation(obs)    # a bot reads only the observation: a malformed one is refused whole
    if not obs.legal_moves:
        raise OptionError(f"seat {obs.seat} is not to move")
    if len(obs.scores) != _core.sides_of(obs.players):
        raise InconsistentObservationError(f"observation scores must list the {_core.sides_of(obs.players)} "
                                           f"sides' scores for a bot to decide, not {list(obs.scores)}")
    return bot_function(bot)(obs, rng)


def parse_bot_list(text: str, players: int) -> list:
    """'greedy,random' -> one bot name per seat, the list repeated if shorter."""
    if not isinstance(text, str):
        raise OptionError(f"a bot list is a string like 'greedy,random', not {type(text).__name__}")
    if isinstance(players, bool) or not isinstance(players, int) or players not in (2, 3, 4):
        raise OptionError(f"players must be 2, 3 or 4, not {players!r}"[:120])
    names = [b.strip() for b in text.split(",")]
    for b in names:
        bot_function(b)
    if len(names) > players:
        raise OptionError(f"{len(names)} bots named for {players} seats")
    return [names[i % len(names)] for i in range(players)]


# the graded levels (fiveup_solver.levels): level1 .. level8
from fiveup_solver.levels import LEVELS as _LEVELS, level_bot as _level_bot  # noqa: E402

BOTS.update({name: _level_bot(name) for name in _LEVELS})
