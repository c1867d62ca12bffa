"""The decision functions behind the bots: ``(observation, rng) -> move``.

Each reads only the deciding seat's :class:`~fiveup_solver.game.Observation`
and draws every random choice from the generator it is given. :mod:`fiveup_solver.bots`
names them (``random``, ``greedy``, ``hint:S:N``, ...) and :mod:`fiveup_solver.levels`
grades them; the hint bot is built here once (:func:`hint_bot`), with uniform or
model beliefs, playing the best move or drawing by win % at a temperature.

>>> import random
>>> from fiveup_solver.game import Game
>>> g = Game(players=2, seed=1)
>>> greedy_bot(g.observation(g.to_move), random.Random(0)) in g.legal_moves
True
"""
from __future__ import annotations

import functools
import math
import random as _random
import weakref
from dataclasses import replace

from fiveup_solver import _core
from fiveup_solver.beliefs import OpponentModel, check_beliefs
from fiveup_solver.errors import OptionError, is_number, short_repr as _short
from fiveup_solver.game import Observation, not_to_move
from fiveup_solver.hint import SearchBudget
# module attributes, read at each decision: a caller may replace hint.hint or inference.past_evidence
from fiveup_solver import hint as hints, inference
from fiveup_solver.notation import TARGET_RAW

__all__ = ["random_bot", "greedy_bot", "hint_bot", "model_hint_bot", "softmax_choice", "decision"]


def decision(fn):
    """``fn``, a decision function ``(observation, rng) -> move``, refusing with a one-line
    OptionError what it cannot decide from: an ``rng`` that is not a random.Random (the
    bot's seeded generator), anything but an Observation; an IllegalMoveError for a
    seat that is not to move.
    Every bot's decision function is one (:func:`fiveup_solver.bots.bot_function`)."""
    @functools.wraps(fn)
    def decide(obs, rng):
        if not isinstance(rng, _random.Random):
            raise OptionError(f"rng must be a random.Random (the bot's seeded generator), not {_short(rng)}")
        if not isinstance(obs, Observation):
            raise OptionError(f"a bot decides from an Observation, not {_short(obs)}")
        if not obs.legal_moves:
            # as a hint says it (hint.Hinter.hint)
            raise not_to_move(obs, "choose")
        return fn(obs, rng)
    return decide


@decision
def random_bot(obs, rng: _random.Random):
    """A uniformly random legal move."""
    return rng.choice(obs.legal_moves)


@decision
def greedy_bot(obs, rng: _random.Random):
    """The largest immediate accepted credit (counted 0 above 305); ties broken by `rng`."""
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


def softmax_choice(hint_moves, temperature: float, rng: _random.Random):
    """A move drawn with weight exp((win% - best win%) / temperature) (a finite number > 0)."""
    if not is_number(temperature) or temperature <= 0:
        raise OptionError(f"temperature must be a finite number > 0, not {_short(temperature)}")
    wins = [100.0 * (m.value if m.value is not None else 0.0) for m in hint_moves]
    top = max(wins)
    weights = [math.exp((w - top) / temperature) for w in wins]
    x = rng.random() * sum(weights)
    for m, w in zip(hint_moves, weights):
        x -= w
        if x < 0:
            return m.move
    return hint_moves[-1].move


def hint_bot(budget: SearchBudget | None = None, *, temperature: float = 0.0):
    """The hint bot: the hint's best move for the seat at ``budget`` (None: the default
    :class:`~fiveup_solver.hint.SearchBudget`), searched in its own currency only;
    ``temperature`` > 0: a move drawn by win % at that temperature (:func:`softmax_choice`).
    Under model beliefs (the default beliefs) it is :func:`model_hint_bot`, which
    remembers the game."""
    budget = SearchBudget() if budget is None else budget
    if not isinstance(budget, SearchBudget):
        raise OptionError(f"budget must be a SearchBudget, not {_short(budget)}")
    if not is_number(temperature) or temperature < 0:
        # NaN or a negative temperature weighed the worst move highest
        raise OptionError(f"temperature must be a finite number >= 0, not {_short(temperature)}")
    if check_beliefs(budget.beliefs) == "model":
        if temperature > 0.0:
            raise OptionError("a temperature is for the uniform-beliefs hint bot (the model bot plays its best move)")
        return model_hint_bot(budget)
    budget = replace(budget, beliefs="uniform")

    @decision
    def bot(obs, rng: _random.Random):
        if len(obs.legal_moves) == 1:
            return obs.legal_moves[0]
        h = hints.hint(obs, seed=rng.getrandbits(63), both=False, budget=budget)
        if temperature <= 0.0:
            return h.best
        return softmax_choice(h.moves, temperature, rng)
    return bot


_BOT_MEMORY = weakref.WeakKeyDictionary()     # a model bot's generator -> what it remembers of its game


def _same_round(remembered, obs) -> bool:
    """Whether `obs` is of the round the bot last saw as `remembered`: the same start, and a
    history going on from it or taken back along it (an undo)."""
    if (remembered.starter, tuple(remembered.scores_before)) != (obs.starter, tuple(obs.scores_before)):
        return False
    a, b = tuple(remembered.history), tuple(obs.history)
    shorter = min(len(a), len(b))
    return a[:shorter] == b[:shorter]


def model_hint_bot(budget: SearchBudget | None = None, *, model: OpponentModel | None = None):
    """The hint bot with ``beliefs="model"`` and a memory of the game: the last
    observation it had of each earlier round, whose evidence (computed once and
    kept) is its prior for each other seat in the rounds after.

    The memory belongs to the bot's generator and seat (a generator per seat and
    game, as :func:`fiveup_solver.selfplay.play_game` gives them, or one for all the
    seats of a game; a fresh generator at every call forgets it): a round number lower
    than one remembered, or a round that is not the remembered one, starts a new game.
    The same round is one with the same starter and scores at its start whose history
    continues the remembered one, or is part of it (an app's undo, ``Game.pop``: the
    earlier rounds are kept). ``budget``: how it searches (None: the
    default :class:`~fiveup_solver.hint.SearchBudget`; its beliefs are "model"
    whatever it says); ``model``: the family and prior (None: the default
    :class:`OpponentModel`)."""
    budget = SearchBudget() if budget is None else budget
    if not isinstance(budget, SearchBudget):
        raise OptionError(f"budget must be a SearchBudget, not {_short(budget)}")
    if model is not None and not isinstance(model, OpponentModel):
        raise OptionError(f"model must be an OpponentModel or None, not {_short(model)}")
    budget = replace(budget, beliefs="model")

    @decision
    def bot(obs, rng):
        # per generator, then per seat: one generator shared by every seat of a game (an
        # app's single Random) keeps each seat's memory apart instead of mixing them
        memory = _BOT_MEMORY.setdefault(rng, {})
        mem = memory.get(obs.seat)
        last = None if mem is None else mem["rounds"].get(obs.round)
        if mem is None or any(r > obs.round for r in mem["rounds"]) or (
                last is not None and not _same_round(last, obs)):
            mem = memory[obs.seat] = {"rounds": {}, "cache": {}}
        mem["rounds"][obs.round] = obs
        if len(obs.legal_moves) == 1:
            return obs.legal_moves[0]
        past = [mem["rounds"][r] for r in sorted(mem["rounds"]) if r < obs.round]
        evidence = inference.past_evidence(obs, past, model, 0, mem["cache"]) if past else None
        return hints.hint(obs, seed=rng.getrandbits(63), both=False, past=evidence, model=model,
                          budget=budget).best
    return bot
