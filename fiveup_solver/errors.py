"""The typed errors of fiveup_solver: every one is a ``ValueError`` with a one-line message.

>>> from fiveup_solver.errors import FiveUpError, RecordError
>>> issubclass(RecordError, FiveUpError) and issubclass(FiveUpError, ValueError)
True
"""
from __future__ import annotations

__all__ = [
    "FiveUpError", "ParseError", "IllegalMoveError", "RecordError", "InconsistentObservationError",
    "OptionError", "CoreError", "short_repr", "is_int", "check_players", "PLAYER_COUNTS",
]


class FiveUpError(ValueError):
    """Base of every error fiveup_solver raises on bad input; the message is one line."""


class ParseError(FiveUpError):
    """A tile, port or move string that does not parse."""


class IllegalMoveError(FiveUpError):
    """A move the rules do not allow in the current position."""


class RecordError(FiveUpError):
    """A game record that does not follow fiveup-record/1 or breaks the rules."""


class InconsistentObservationError(FiveUpError):
    """No deal of the hidden tiles fits what a seat observed, or the observation contradicts itself."""


class OptionError(FiveUpError):
    """A bad option value (player count, seed, bot name, budget, ...)."""


class CoreError(FiveUpError):
    """The Cython core refused a call: an argument out of range, or an action the rules do not allow."""


def short_repr(value, limit: int = 40) -> str:
    """``repr`` cut to ``limit`` characters, for naming bad input in a one-line message."""
    try:
        s = repr(value)
    except Exception:   # a caller's object whose repr fails still gets named
        s = f"<{type(value).__name__}>"
    if not is_int(limit) or limit < 4:
        limit = 40
    s = " ".join(s.split())   # one line, whatever the repr holds
    return s if len(s) <= limit else s[: limit - 3] + "..."


def is_int(x) -> bool:
    """An int that is not a bool (``True`` is not a player count or a seat)."""
    return isinstance(x, int) and not isinstance(x, bool)


PLAYER_COUNTS = (2, 3, 4)


def check_players(players, name: str = "players", error=OptionError) -> int:
    """``players`` when it is 2, 3 or 4; else ``error(message)`` is raised, the message
    naming ``name`` (an option like ``--players``, or a record's field) and the value.

    >>> check_players(3)
    3
    >>> check_players(True, "--players")
    Traceback (most recent call last):
    ...
    fiveup_solver.errors.OptionError: --players must be 2, 3 or 4, not True
    """
    if not is_int(players) or players not in PLAYER_COUNTS:
        raise error(f"{name} must be 2, 3 or 4, not {short_repr(players)}")
    return players
