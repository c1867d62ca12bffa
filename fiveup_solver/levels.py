"""Graded bot levels: ``level1`` (weakest) to ``level8`` (the hint search with uniform
beliefs). The default ``hint`` bot, which weighs the hidden hands by how the other seats
played, measured +36 Elo [+10, +63] over the uniform-belief hint bot head to head
(docs/beliefs.md), but placed on the shipped ladders it is level with ``level8`` within
their intervals (+721 against +722 with 2 players, +877 against +848 with 4:
docs/results/ladder.md). The ladders measure 2 and 4 players; with 3 players each
level's step over the one below is measured (docs/levels.md), not a ladder.

Every level is a fixed recipe built from the existing bots, deterministic for
a seed (all its random choices come from the bot's seeded generator):

- ``blunder``: with this probability the level plays a uniformly random legal
  move instead of its own choice (beginners miss things);
- ``base``: ``random``, ``greedy`` (the largest immediate credit) or ``hint``
  (the PIMC search at a budget of ``samples`` worlds and ``world_nodes``
  nodes per world, valuing moves by the probability of winning the game);
- ``temperature``: for hint levels, the move is drawn with probability
  proportional to ``exp((win% - best win%) / temperature)``, in percentage
  points of win probability (0: always the best move). A hot level still
  prefers good moves but does not always find them.

Their strengths are measured, not asserted: ``fiveup ladder`` plays a
round-robin of duplicate pairs and fits an Elo scale (``random`` = 0); the
shipped table is :func:`fiveup_solver.ladder.load_ladder`.

>>> [lv.name for lv in LEVELS.values()][:3]
['level1', 'level2', 'level3']
>>> LEVELS["level1"].base, LEVELS["level8"].base
('random', 'hint')

``LEVELS`` is a read-only mapping: a name that is not a level is an
:class:`~fiveup_solver.errors.OptionError` (a ``ValueError``, and a ``KeyError`` as a
dict's would be) that lists the levels:

>>> LEVELS["level9"]
Traceback (most recent call last):
...
fiveup_solver.levels.UnknownLevelError: unknown level 'level9' (known: level1, level2, level3, level4, level5, level6, level7, level8)
"""
from __future__ import annotations

import random as _random
from collections.abc import Mapping
from dataclasses import asdict, dataclass

from fiveup_solver.errors import OptionError, short_repr
from fiveup_solver.hint import SearchBudget
from fiveup_solver.policies import decision, greedy_bot, hint_bot, random_bot

__all__ = ["Level", "LEVELS", "UnknownLevelError", "level_bot", "describe", "recipe_stamp"]


@dataclass(frozen=True)
class Level:
    name: str
    base: str                  # "random", "greedy" or "hint"
    blunder: float = 0.0       # probability of a uniformly random legal move instead
    temperature: float = 0.0   # hint levels: softmax temperature in win-% points (0: the best move)
    samples: int = 0           # hint levels: worlds per decision
    world_nodes: int = 0       # hint levels: search nodes per world
    summary: str = ""

    def to_dict(self) -> dict:
        return asdict(self)

    # the fields that decide how a level plays (its summary only describes them)
    PLAYING_FIELDS = ("base", "blunder", "temperature", "samples", "world_nodes")

    @property
    def stamp(self) -> str:
        """The recipe in one short line, every field that decides its play (the ladder and
        placement journals carry it, so that pairs played under another recipe are not
        resumed): ``"greedy, blunder 0.5"``, ``"hint 16x5000, temperature 1.4"``.

        >>> LEVELS["level7"].stamp, LEVELS["level1"].stamp
        ('hint 16x5000, temperature 1.4', 'random')
        """
        search = f" {self.samples}x{self.world_nodes}" if self.samples or self.world_nodes else ""
        parts = [f"{self.base}{search}"]
        if self.blunder:
            parts.append(f"blunder {float(self.blunder)!r}")
        if self.temperature:
            parts.append(f"temperature {float(self.temperature)!r}")
        return ", ".join(parts)

    @property
    def budget(self) -> SearchBudget | None:
        """A hint level's search budget (None for the others): the win objective and uniform
        beliefs, as the levels were rated (README: Bot levels)."""
        if self.base != "hint":
            return None
        return SearchBudget(samples=self.samples, world_nodes=self.world_nodes, objective="win", beliefs="uniform")


class UnknownLevelError(OptionError, KeyError):
    """A name that is not a level, looked up in :data:`LEVELS`: an OptionError (a
    ValueError) that lists the levels, and a KeyError, as a dict's missing key is."""

    __str__ = Exception.__str__      # the message as written (a KeyError quotes it)


class _Levels(Mapping):
    """The levels by name, read-only: a dict's reading methods (iteration in order, len,
    ``in``, ``get``, ``keys``/``values``/``items``, ``==`` a dict), and an unknown name
    an :class:`UnknownLevelError` listing the levels instead of a bare KeyError."""

    def __init__(self, levels):
        self._levels = {lv.name: lv for lv in levels}

    def __getitem__(self, name) -> Level:
        try:
            return self._levels[name]
        except (KeyError, TypeError):       # (a list is unhashable: the same error)
            raise UnknownLevelError(f"unknown level {short_repr(name, 40)} (known: {', '.join(self._levels)})") from None

    def __contains__(self, name) -> bool:
        try:
            return name in self._levels
        except TypeError:
            return False

    def get(self, name, default=None):
        return self._levels.get(name, default) if name in self else default

    def __iter__(self):
        return iter(self._levels)

    def __len__(self) -> int:
        return len(self._levels)

    def __repr__(self) -> str:
        return f"LEVELS({self._levels!r})"

    def __reduce__(self):
        return (_Levels, (tuple(self._levels.values()),))


def recipe_stamp(name) -> str | None:
    """:attr:`Level.stamp` of a level's name; None for any other bot."""
    return LEVELS[name].stamp if name in LEVELS else None


LEVELS = _Levels((
    Level("level1", "random", summary="a uniformly random legal move"),
    Level("level2", "greedy", blunder=0.7, summary="greedy, but 70% of moves random"),
    Level("level3", "greedy", blunder=0.5, summary="greedy, but 50% of moves random"),
    Level("level4", "greedy", blunder=0.2, summary="greedy, but 20% of moves random"),
    Level("level5", "greedy", summary="the largest immediate credit"),
    Level("level6", "hint", temperature=2.5, samples=8, world_nodes=2_000,
          summary="a small search (8 worlds), moves drawn by win % at temperature 2.5"),
    Level("level7", "hint", temperature=1.4, samples=16, world_nodes=5_000,
          summary="a medium search (16 worlds), moves drawn by win % at temperature 1.4"),
    Level("level8", "hint", samples=48, world_nodes=20_000,
          summary="the hint search with uniform beliefs (48 worlds), the best move"),
))


def describe(name: str) -> str:
    lv = _level(name)
    return f"{lv.name}: {lv.summary}"


def _level(name) -> Level:
    if not isinstance(name, str) or name not in LEVELS:
        raise OptionError(f"unknown level {name!r} (known: {', '.join(LEVELS)})"[:200])
    return LEVELS[name]


def level_bot(name: str):
    """The decision function ``(observation, rng) -> move`` of a level."""
    lv = _level(name)
    base = {"random": random_bot, "greedy": greedy_bot}.get(lv.base) or hint_bot(lv.budget,
                                                                                temperature=lv.temperature)

    @decision
    def bot(obs, rng: _random.Random):
        legal = obs.legal_moves
        if len(legal) == 1:
            return legal[0]
        if lv.blunder > 0.0 and rng.random() < lv.blunder:
            return rng.choice(legal)
        return base(obs, rng)
    return bot
