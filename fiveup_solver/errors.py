"""The typed errors of fiveup_solver: every one is a ``ValueError`` with a one-line message.

>>> from fiveup_solver.errors import FiveUpError, RecordError
>>> issubclass(RecordError, FiveUpError) and issubclass(FiveUpError, ValueError)
True
"""
from __future__ import annotations

import math
import numbers
import re
import unicodedata

__all__ = [
    "FiveUpError", "ParseError", "IllegalMoveError", "RecordError", "InconsistentObservationError",
    "OptionError", "CoreError", "BotError", "WorkerError", "SearchStopped", "short_repr", "is_int", "as_int",
    "int_list", "type_note", "is_number", "is_digits", "check_players", "PLAYER_COUNTS",
    "check_seed", "SEED_RANGE", "MAX_SAMPLES", "json_fault",
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


class SearchStopped(Exception):
    """A hint or position value stopped by :meth:`fiveup_solver.hint.Hinter.stop` (an app's
    "cancel" from another thread). Not a :class:`FiveUpError`: nothing was wrong with
    what the caller passed."""


class BotError(FiveUpError):
    """A bot (an agent of one's own, most likely) failed in a game: it raised, or returned
    something that is not one of the legal moves. The message names the bot, the seat and
    where in which game; the bot's own exception is the ``__cause__``."""


class WorkerError(FiveUpError):
    """A worker of a parallel run (``workers`` > 1, or Ray) failed: it died abruptly (a
    crash in native code, or a process exit, in what it ran: an agent of one's own, most
    likely), or what it ran raised an exception that is no FiveUpError (its ``__cause__``),
    or what it returned cannot come back. The message names the job."""


def bound_text(n: int) -> str:
    """A range's bound as people read it: a large power of two as one (a review: "from 1 to
    4611686018427387904").

    >>> bound_text(2 ** 62), bound_text(100_000), bound_text(2 ** 10)
    ('2^62', '100000', '1024')
    """
    return f"2^{n.bit_length() - 1}" if n >= 2 ** 20 and n & (n - 1) == 0 else str(n)


def json_kind(value) -> str:
    """A parsed JSON value's kind in JSON's own words (a review: "not NoneType", "not list").

    >>> [json_kind(v) for v in (None, [], {}, "a", 1.5, True)]
    ['null', 'an array', 'an object', 'a string', 'a number', 'true/false']
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    for kind, words in ((dict, "an object"), (list, "an array"), (str, "a string"), ((int, float), "a number")):
        if isinstance(value, kind):
            return words
    return type(value).__name__


def json_fault(e: BaseException, text: str | None = None) -> str:
    """What is wrong with a JSON text, in words, from what ``json.loads`` raised on it: a
    JSONDecodeError (where and what), a RecursionError (nested too deeply) or another
    ValueError (an integer with more digits than Python converts: where it is, when
    ``text``, the JSON text read, is given; Python's error does not say).

    >>> import json
    >>> try:
    ...     json.loads('{"a": }')
    ... except ValueError as e:
    ...     json_fault(e)
    'line 1 column 7: Expecting value'
    >>> doc = '{"a": "12",\\n "b": ' + "7" * 4400 + '}'
    >>> try:
    ...     json.loads(doc)
    ... except ValueError as e:
    ...     json_fault(e, doc)
    'line 2 column 7: an integer of more than 4300 digits (4400)'
    """
    if isinstance(e, RecursionError):
        return "nested too deeply"
    lineno, colno, msg = (getattr(e, k, None) for k in ("lineno", "colno", "msg"))
    if lineno is not None:
        return f"line {lineno} column {colno}: {msg}"
    words = (str(e).splitlines() or [type(e).__name__])[0]
    long_int = _INT_LIMIT_MESSAGE.match(words)
    if long_int:
        # (Python's words, cut at 80 characters, read "... value has 5001 di" and named no place)
        limit = int(long_int.group(1))
        where, digits = _long_integer_at(text, limit) if isinstance(text, str) else ("", long_int.group(2))
        return f"{where}an integer of more than {limit} digits{f' ({digits})' if digits else ''}"
    return _cut_at_word(words, 80)


# Python's message for an integer longer than sys.get_int_max_str_digits() (4300 by default)
_INT_LIMIT_MESSAGE = re.compile(r"Exceeds the limit \((\d+) digits\) for integer string conversion"
                                r"(?:: value has (\d+) digits)?")
# a JSON string (skipped whole: digits in it are no number) or a JSON number
_JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|-?(\d+)(\.\d+)?([eE][+-]?\d+)?')


def _long_integer_at(text: str, limit: int) -> tuple:
    """("line L column C: ", its digits) of the first integer of more than `limit` digits in
    the JSON text `text`, as json names a place (("", "") if none is found)."""
    for m in _JSON_TOKEN.finditer(text):
        if m.group(1) is not None and m.group(2) is None and m.group(3) is None and len(m.group(1)) > limit:
            pos = m.start()
            line, column = text.count("\n", 0, pos) + 1, pos - text.rfind("\n", 0, pos)
            return f"line {line} column {column}: ", str(len(m.group(1)))
    return "", ""


def _cut_at_word(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters at a space, "..." marking the cut.

    >>> _cut_at_word("one two three", 10), _cut_at_word("one two", 10)
    ('one two...', 'one two')
    """
    if len(text) <= limit:
        return text
    head = text[:limit - 3]
    cut = len(head) if text[len(head)] == " " else head.rfind(" ")     # (a word ends where it is cut)
    return (head[:cut] if cut > 0 else head).rstrip(" ,;:") + "..."


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
    """An int that is not a bool (``True`` is not a player count or a seat). An API
    entry point passes what it takes through :func:`as_int` first, so that another
    integer type (numpy's) is taken as its int."""
    return isinstance(x, int) and not isinstance(x, bool)


def as_int(x):
    """`x` as an ``int`` when it is an integer of any type (``numbers.Integral``: a
    numpy integer too) other than a bool; anything else unchanged, for the caller's
    check to refuse. The API's one policy for integers: a numpy integer is taken
    wherever an integer is (as an int, so it never reaches a record or a seed's
    arithmetic as numpy's), a bool nowhere.

    >>> import numpy as np
    >>> as_int(np.int64(3)), type(as_int(np.uint8(3))).__name__, as_int(True), as_int(3.0), as_int("3")
    (3, 'int', True, 3.0, '3')
    """
    if isinstance(x, numbers.Integral) and not isinstance(x, bool):
        return int(x)
    return x


def as_bool(x):
    """`x` as a ``bool`` when it is numpy's bool (``np.True_``); anything else unchanged, for
    the caller's check to refuse. A switch takes numpy's truth values as numpy integers are
    taken as ints, and nothing else: ``"no"``, 0 and None are no switch.

    >>> import numpy as np
    >>> as_bool(np.bool_(False)), type(as_bool(np.bool_(True))).__name__, as_bool(0), as_bool("no")
    (False, 'bool', 0, 'no')
    """
    if not isinstance(x, bool) and type(x).__module__ == "numpy" and type(x).__name__ in ("bool_", "bool"):
        return bool(x)
    return x


def check_switch(name: str, value) -> bool:
    """``value`` as a switch (:func:`as_bool`: numpy's bool too), or a one-line
    :class:`OptionError` naming ``name``: ``"no"``, 0 or None is no switch.

    >>> import numpy as np
    >>> check_switch("both", np.bool_(True))
    True
    >>> check_switch("both", "no")
    Traceback (most recent call last):
    ...
    fiveup_solver.errors.OptionError: both must be True or False, not 'no'
    """
    value = as_bool(value)
    if not isinstance(value, bool):
        raise OptionError(f"{name} must be True or False, not {short_repr(value)}")
    return value


def as_number(x):
    """`x` as an ``int`` when it is an integer of any type (:func:`as_int`), as a ``float``
    when it is another real number (``numbers.Real``: numpy's float32 too), other than a
    bool; anything else unchanged, for the caller's check to refuse. A number option takes
    another library's number as Python's, so that it never reaches JSON as numpy's.

    >>> import numpy as np
    >>> as_number(np.int64(3)), as_number(np.float32(0.5)), type(as_number(np.float64(1))).__name__
    (3, 0.5, 'float')
    >>> as_number(True), as_number("1")
    (True, '1')
    """
    x = as_int(x)
    # (numpy's float64 is a float subclass: taken as Python's float too)
    if isinstance(x, numbers.Real) and not isinstance(x, bool) and type(x) not in (int, float):
        return float(x)
    return x


def int_list(values):
    """The items of a list, a tuple or a one-dimensional array (numpy's) as a list, each
    integer as an ``int`` (:func:`as_int`); None when `values` is none of those (a
    str, a dict, a set, a number: not a sequence of values).

    >>> import numpy as np
    >>> int_list((np.int64(5), 0)), int_list(np.array([5, 0])), int_list({0: 5}), int_list("ab")
    ([5, 0], [5, 0], None, None)
    """
    if isinstance(values, (list, tuple)):
        return [as_int(x) for x in values]
    if getattr(values, "ndim", None) == 1 and callable(getattr(values, "tolist", None)):
        items = values.tolist()
        if isinstance(items, list):
            return [as_int(x) for x in items]
    return None


def type_note(x) -> str:
    """`` (a MODULE.TYPE)`` when an integer option refuses `x` for its type and its repr
    may not show that type (another library's number: its repr can read as a plain
    number); empty for an integer (its value is the fault) and for Python's own types,
    whose repr shows them ('3', 3.0, None, True).

    >>> import decimal
    >>> type_note(decimal.Decimal(3)), type_note(3.0), type_note(7)
    (' (a decimal.Decimal)', '', '')
    """
    kind = type(x)
    if kind.__module__ == "builtins" or (isinstance(x, numbers.Integral) and not isinstance(x, bool)):
        return ""
    return f" (a {kind.__module__}.{kind.__name__})"


def is_digits(text) -> bool:
    """Text of ASCII digits only (``str.isdigit`` also takes "²" and "١٢", which ``int``
    refuses or reads as another number).

    >>> is_digits("12"), is_digits("²"), is_digits("١٢"), is_digits(""), is_digits(12)
    (True, False, False, False, False)
    """
    return isinstance(text, str) and text.isascii() and text.isdigit()


def control_character(text: str):
    """The first control character of `text` (C0 or C1: a newline, a carriage return, an
    escape, NEL: what starts a line or drives a terminal), or None. (U+2028 and U+2029
    separate lines in Python's splitlines, not in a terminal: JSON allows them raw.)"""
    return next((c for c in text if unicodedata.category(c) == "Cc"), None)


MAX_NAME_LENGTH = 100      # a seat's, an entrant's or a table's bot name: printed in one line of a table
# the controls that reorder the text after them (embeddings, overrides, isolates): a name holding
# one would print the rest of a report's line backwards
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def name_fault(name: str):
    r"""Why the string `name` cannot be a name printed in reports, tables and JSON answers
    (a seat's, a ladder entrant's, a table's bot): one phrase, or None when it can.

    >>> name_fault("Ann"), name_fault("Ann \u00e9 \u4e2d")
    (None, None)
    >>> print(name_fault("Ann\nBob"))
    a name may not hold a control character ('\n')
    >>> print(name_fault("\ud800"))
    a name must be Unicode text, not hold a lone surrogate ('\ud800')
    >>> print(name_fault("\u202eevil"))
    a name may not hold a bidirectional control ('\u202e'): it reorders the text after it
    >>> print(name_fault("x" * 101))
    a name is at most 100 characters, not 101
    >>> print(name_fault(" \u200b"))
    a name must show at least one character: ' \u200b' shows none
    """
    c = control_character(name)
    if c is not None:
        return f"a name may not hold a control character ({c!r})"
    for c in name:
        if "\ud800" <= c <= "\udfff":
            # (valid JSON as an escape, but no UTF-8 encodes it: an answer holding it failed)
            return f"a name must be Unicode text, not hold a lone surrogate ({c!r})"
        if c in BIDI_CONTROLS:
            return f"a name may not hold a bidirectional control ({c!r}): it reorders the text after it"
    if len(name) > MAX_NAME_LENGTH:
        return f"a name is at most {MAX_NAME_LENGTH} characters, not {len(name)}"
    if all(c.isspace() or unicodedata.category(c) == "Cf" for c in name):
        # (a table row or a report line naming no one; zero-width characters inside a
        # name that shows are kept: emoji sequences and some scripts join with them)
        return f"a name must show at least one character: {name!r} shows none"
    return None


def is_number(x) -> bool:
    """A finite int or float, not a bool; an int too large for a float is none
    (math.isfinite would raise OverflowError on it).

    >>> is_number(0.5), is_number(10 ** 400), is_number(float("nan")), is_number(True)
    (True, False, False, False)
    """
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return False
    try:
        return math.isfinite(float(x))
    except OverflowError:
        return False


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
    players = as_int(players)
    if not is_int(players) or players not in PLAYER_COUNTS:
        raise error(f"{name} must be 2, 3 or 4, not {short_repr(players)}")
    return players


SEED_RANGE = (0, 2 ** 64 - 1)   # every seed of the package: the core's streams take 64 bits
MAX_SAMPLES = 1_000_000                   # most sampled worlds or deals one call makes


def check_seed(seed, name: str = "seed", error=OptionError) -> int:
    """``seed`` as an int when it is an integer from 0 to 2^64 - 1 (a numpy integer
    too, :func:`as_int`): every seed of the package, in every function and command,
    takes that range (the core's random streams take 64 bits; a negative seed would be
    the same stream as one 2^64 above it). A caller uses the int returned.

    >>> import numpy as np
    >>> check_seed(2 ** 64 - 1), check_seed(np.uint64(7))
    (18446744073709551615, 7)
    >>> check_seed(2 ** 64)
    Traceback (most recent call last):
    ...
    fiveup_solver.errors.OptionError: seed must be an integer from 0 to 2^64-1, not 18446744073709551616
    >>> check_seed(True)
    Traceback (most recent call last):
    ...
    fiveup_solver.errors.OptionError: seed must be an integer from 0 to 2^64-1, not True (a bool is not a seed)
    """
    seed = as_int(seed)
    if not is_int(seed) or not SEED_RANGE[0] <= seed <= SEED_RANGE[1]:
        # a value whose type is the fault is named with it: a bool (True is no seed 1), a
        # float, a str ...
        note = " (a bool is not a seed)" if isinstance(seed, bool) else type_note(seed)
        raise error(f"{name} must be an integer from 0 to 2^64-1, not {short_repr(seed)}{note}")
    return seed
