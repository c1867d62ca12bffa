"""Game records (``fiveup-record/1``): load, validate, save, replay.

Every rule check is the core's: a record is validated by replaying it through
:class:`~fiveup_solver.game.Game`; errors name the round and action at fault.

>>> g = Game(players=2, seed=3)
>>> while not g.round_over:
...     _ = g.push(g.legal_moves[0])
>>> rec = g.to_record()
>>> replay(rec)["scores"] == g.scores
True
>>> bad = g.to_record(); bad["rounds"][0]["actions"][0]["seat"] = 1 - bad["rounds"][0]["starter"]
>>> try:
...     replay(bad)
... except RecordError as e:
...     print(e)  # doctest: +ELLIPSIS
round 0 action 0: seat ... acted but seat ... is to move
"""
from __future__ import annotations

import json
import numbers
import os
import re
import threading
from pathlib import Path

from fiveup_solver import _core
from fiveup_solver.errors import (PLAYER_COUNTS, FiveUpError, InconsistentObservationError, OptionError, ParseError,
                                  RecordError,
                                  as_int as _as_int, check_players, check_seed, is_int as _is_int, name_fault, json_fault,
                                  json_kind, short_repr as _short)
from fiveup_solver.game import DEFAULT_MAX_ROUNDS, Game, Observation, action_to_move
from fiveup_solver.inference import DealSampler
from fiveup_solver.notation import Tile, check_action  # check_action: public here too

__all__ = ["FORMAT", "load_record", "parse_record_text", "check_record", "check_action", "game_from_record",
           "past_observations", "positions", "replay", "save_record", "game_at", "observation_at", "dumps_record",
           "MAX_RECORD_BYTES", "max_round_actions", "repeated_key_fault"]

FORMAT = "fiveup-record/1"

# The most one game's record may take: a record file, or one line of a file of JSON Lines
# (which may hold any number of such lines: load_record reads a larger file a line at a
# time and keeps only the chosen game). A game of 1000 rounds (the simulations' limit)
# takes 2 to 3 MB as indented JSON, about 1 MB as one line. Reading stops one byte past
# the limit in a file that is not such lines (a reading of /dev/zero grew without bound).
MAX_RECORD_BYTES = 32 * 2 ** 20

# JSON Lines end at "\n", "\r\n" or "\r", and only there: str.splitlines also splits at
# U+2028, U+2029 and U+0085, which a JSON string may hold raw (a seat's name written with
# ensure_ascii=False). A raw "\r" or "\n" is never inside a JSON string.
_LINE_END = re.compile(r"\r\n|\r|\n")
_LINE_END_BYTES = re.compile(rb"[\r\n]")


def parse_record_text(data: bytes | str, name: str = "record", game: int | None = None) -> dict:
    """Parse the bytes of a record file into a JSON object (no rule checks yet). A file of
    JSON Lines (``fiveup selfplay``'s, ``match --records``') holds one game a line: ``game``
    picks one (0 the first; a file of one game needs none). A UTF-8 byte-order mark is
    skipped."""
    name = _short(name, 80) if not isinstance(name, str) else " ".join(name.split()) or "record"
    if not isinstance(data, (bytes, str)):
        raise RecordError(f"{name}: a record is bytes or text, not {type(data).__name__}")
    if isinstance(data, bytes):
        if not data.strip():
            raise RecordError(f"{name}: empty file")
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise RecordError(f"{name}: not UTF-8 text (byte {e.start})") from None
    data = data.removeprefix("\ufeff")
    if not data.strip():
        raise RecordError(f"{name}: empty file")
    _check_game_number(game)
    # (the file's line number, as an editor counts it, and the text) of each non-blank line
    lines = [(number, line) for number, line in enumerate(_LINE_END.split(data), 1) if line.strip()]
    try:
        obj = _json_object(data, name)
    except RecordError as e:
        if getattr(e, "parsed", False) or len(lines) < 2 or not _one_line_object(lines[0][1]):
            raise
        # JSON Lines: one record a line
        return _game_of_lines(lines, name, game)
    if game is not None and game >= 1:
        raise RecordError(f"{name}: no game {game} (it holds 1: --game 0 to 0)")
    return obj


def _check_game_number(game) -> None:
    if game is not None and (not _is_int(game) or game < 0):
        # the caller's option, not the file's fault
        raise OptionError(f"the game number (--game) counts from 0, not {_short(game)}")


def _one_line_object(line: str) -> bool:
    return line.lstrip().startswith("{") and line.rstrip().endswith("}")


def _game_of_lines(lines, name: str, game: int | None) -> dict:
    """Game `game` (None: the only one) of JSON Lines: `lines`, (the file's line number, the
    text) of each non-blank line, are each checked to be a JSON object; only the chosen one
    is kept."""
    chosen, count = None, 0
    for count, (number, line) in enumerate(lines, 1):
        # "FILE: line 3 (game 1)": the file named once, as every message names it first (a
        # review: "FILE game 0: FILE line 2: ..." named it twice, the command line adding it);
        # the line as an editor numbers it, blank lines counted (a review: they were not)
        obj = _json_object(line, f"{name}: line {number} (game {count - 1})")
        if game is None or count - 1 == game:
            chosen = obj
    if count == 0:
        raise RecordError(f"{name}: empty file")
    if game is None:
        if count > 1:
            raise RecordError(f"{name}: {count} games (JSON Lines): choose one with --game K, 0 to {count - 1}")
        return chosen
    if game >= count:
        raise RecordError(f"{name}: no game {game} (it holds {count}: --game 0 to {count - 1})")
    return chosen


def _pairs_hook(repeated: dict):
    """A json ``object_pairs_hook`` that notes in `repeated` (id of the object: the key) each
    object writing a key twice."""
    def hook(pairs):
        obj = dict(pairs)
        if len(obj) != len(pairs):
            seen = set()
            repeated[id(obj)] = next(k for k, _ in pairs if k in seen or seen.add(k))
        return obj
    return hook


def _repeated_text(obj, repeated: dict) -> str:
    where, key = _first_repeated(obj, repeated)
    return f"{where}key {_short(key)} written twice (JSON readers differ on which counts)"


def repeated_key_fault(text) -> str | None:
    """None, or one line naming the first key of the JSON `text` (str or bytes) that an
    object writes twice and where ("record.rounds[0].actions[1]: key 'seat' written
    twice ..."). Text that is no JSON gives None: its reader says what is wrong. The web
    app asks it of every request body (its framework reads the last value).

    >>> repeated_key_fault('{"a": 1, "b": {"c": 2, "c": 3}}')
    "b: key 'c' written twice (JSON readers differ on which counts)"
    >>> repeated_key_fault('{"a": 1}') is None
    True
    """
    repeated: dict = {}
    try:
        obj = json.loads(text, object_pairs_hook=_pairs_hook(repeated))
    except (ValueError, RecursionError):
        return None
    return _repeated_text(obj, repeated) if repeated else None


def _json_object(text: str, name: str) -> dict:
    repeated = {}           # id of an object that writes a key twice: the key
    try:
        obj = json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_pairs_hook(repeated))
    except (ValueError, RecursionError) as e:
        raise RecordError(f"{name}: not valid JSON ({json_fault(e, text)})") from None
    if repeated:
        # RECORD.md: a reader rejects what does not follow it. A key written twice is read
        # as its last value by Python and JavaScript, as its first by other readers: one
        # file, two games (a review)
        error = RecordError(f"{name}: {_repeated_text(obj, repeated)}")
        error.parsed = True          # (valid JSON: not read again as JSON Lines)
        raise error
    if not isinstance(obj, dict):
        raise RecordError(f"{name}: a record is a JSON object, not {json_kind(obj)}")
    return obj


def _first_repeated(value, repeated: dict) -> tuple:
    """(where, key): the first object, in the order of the text, of the parsed JSON `value`
    that is in `repeated` (id: the key it writes twice), where named as a record's fault is
    ("round 0 action 3: ", "round 1: ", "seats[0]: "; "" for the record itself)."""
    stack = [(value, ())]
    while stack:
        item, path = stack.pop()
        if isinstance(item, dict):
            if id(item) in repeated:
                return _json_place(path), repeated[id(item)]
            stack.extend((v, path + (k,)) for k, v in reversed(list(item.items())))
        elif isinstance(item, list):
            stack.extend((v, path + (i,)) for i, v in reversed(list(enumerate(item))))
    return "", next(iter(repeated.values()))


_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,39}")


def _json_place(path: tuple) -> str:
    """A place in a record as its messages name it ("round 0 action 3: "), from its JSON path."""
    words = []
    if path[:1] == ("rounds",) and len(path) >= 2 and isinstance(path[1], int):
        words.append(f"round {path[1]}")
        path = path[2:]
        if path[:1] == ("actions",) and len(path) >= 2 and isinstance(path[1], int):
            words.append(f"action {path[1]}")
            path = path[2:]
    # (a key that is no plain word is shown quoted, as the fuzzer's "a\nb" must not break the line)
    rest = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" if _PLAIN_KEY.fullmatch(k) else f"[{_short(k, 40)}]"
                   for k in path).lstrip(".")
    text = " ".join(words + ([rest] if rest else []))
    return f"{text}: " if text else ""


def _reject_constant(name):
    raise ValueError(f"{name} is not a JSON value")


def load_record(path, game: int | None = None) -> dict:
    """Read and check a record file; returns the record object (tiles normalised).
    ``game``: the game to read from a file of JSON Lines (parse_record_text).

    A file of one game takes at most :data:`MAX_RECORD_BYTES` (32 MiB); a file of JSON
    Lines may be larger, each line (game) at most that: it is read a line at a time, and
    only the chosen game is kept. A file that cannot be read is one :class:`RecordError`."""
    if not isinstance(path, (str, os.PathLike)):
        raise RecordError(f"load_record takes a file path, not {type(path).__name__} "
                          f"(a record object: check_record or replay)")
    path = Path(path)
    name = str(path)
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_RECORD_BYTES + 1)
            if len(data) <= MAX_RECORD_BYTES:
                record = parse_record_text(data, name, game)
            else:       # JSON Lines or refused: the rest is read a line at a time
                _check_game_number(game)
                record = _game_of_lines(_big_file_lines(f, data, name), name, game)
    except OSError as e:
        raise RecordError(f"{path}: cannot read ({e.strerror or e})") from None
    except MemoryError:
        raise RecordError(f"{path}: cannot read (out of memory)") from None
    except (RecordError, OptionError):
        raise
    except ValueError as e:      # a path with a NUL character (a caller's, not a command line's)
        raise RecordError(f"{_short(str(path), 80)}: cannot read ({str(e)[:80]})") from None
    try:
        return check_record(record)
    except RecordError as e:
        # what is wrong, after the file it is in (a review: the person named the file on
        # the command line, and a message about a record's content did not say which)
        where = name if game is None else f"{name} game {game}"
        raise RecordError(f"{where}: {e}") from None


def _big_file_lines(f, head: bytes, name: str):
    """The non-blank lines (text) of a record file larger than MAX_RECORD_BYTES, whose first
    bytes `head` are read from `f`: such a file can only be JSON Lines, each line a game of
    at most that size. Read a line at a time: a file of no line ends (/dev/zero) ends at
    MAX_RECORD_BYTES + 1 bytes, with one line naming the limit."""
    limit = MAX_RECORD_BYTES
    first = True
    for offset, number, line in _byte_lines(f, head, limit):
        if len(line) > limit:
            if first:
                raise RecordError(f"{name}: larger than {limit / 2 ** 20:g} MiB, the most a record file of one game "
                                  f"takes (a file of several games holds one a line, JSON Lines)")
            raise RecordError(f"{name}: the line at byte {offset} is larger than {limit / 2 ** 20:g} MiB, "
                              f"the most one game's record takes")
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as e:
            raise RecordError(f"{name}: not UTF-8 text (byte {offset + e.start})") from None
        if offset == 0:
            text = text.removeprefix("\ufeff")
        if not text.strip():
            continue
        if first and not _one_line_object(text):
            raise RecordError(f"{name}: larger than {limit / 2 ** 20:g} MiB, the most a record file of one game "
                              f"takes (a file of several games holds one a line, JSON Lines)")
        first = False
        yield number, text


def _byte_lines(f, head: bytes, limit: int, chunk_size: int = 2 ** 20):
    """(offset in the file, line number, bytes) of every line of `f` (its first bytes,
    `head`, already read), without its line end ("\\n", "\\r\\n" or "\\r", one line end each,
    also where a chunk ends between the "\\r" and the "\\n"). A line longer than `limit` is
    yielded as its first limit + 1 bytes, and the reading ends: never more than that is held."""
    pieces, held, start, pos = [], 0, 0, 0       # the line so far; its bytes; its offset; the chunk's
    number, after_cr = 1, -1                     # the line's number; the offset just after a "\r"
    chunk = head
    while chunk:
        at = 0
        for m in _LINE_END_BYTES.finditer(chunk):
            if chunk[m.start()] == 0x0A and pos + m.start() == after_cr:
                at, start = m.end(), pos + m.end()      # the "\n" of a "\r\n": no line of its own
                continue
            pieces.append(chunk[at:m.start()])
            yield start, number, b"".join(pieces)
            if chunk[m.start()] == 0x0D:
                after_cr = pos + m.end()
            pieces, held, at, start, number = [], 0, m.end(), pos + m.end(), number + 1
        if at < len(chunk):
            pieces.append(chunk[at:])
            held += len(chunk) - at
            if held > limit:
                yield start, number, b"".join(pieces)[:limit + 1]
                return
        pos += len(chunk)
        chunk = f.read(chunk_size)
    if pieces:
        yield start, number, b"".join(pieces)


def dumps_record(record: dict) -> str:
    """`record` as compact JSON text on one line (a line of a JSON Lines file, as
    ``fiveup selfplay`` writes them). The record is checked first, as :func:`save_record`
    checks it: what :func:`load_record` would refuse is not written, and a value that JSON
    cannot hold is named; either is one :class:`RecordError`.

    >>> g = Game(players=2, seed=3)
    >>> text = dumps_record(g.to_record())
    >>> parse_record_text(text) == g.to_record(), "\\n" in text
    (True, False)
    >>> dumps_record({"format": "fiveup-record/1", "players": 2, "rounds": [], "seats": object()})
    Traceback (most recent call last):
    ...
    fiveup_solver.errors.RecordError: not written: seats holds a builtins.object, which a JSON record cannot hold
    """
    if isinstance(record, Game):
        raise RecordError("dumps_record takes a record (game.to_record()), not a Game")
    try:    # (a review: it wrote {"format": "nope"}, and raised a bare TypeError on object())
        check_record(record)
        return json.dumps(record, separators=(",", ":"), allow_nan=False)
    except RecordError as e:
        raise RecordError(f"not written: {e}") from None
    except (TypeError, ValueError, RecursionError) as e:
        raise RecordError(f"not written: not JSON data ({_short(str(e), 80)})") from None


def save_record(record: dict, path) -> None:
    """Write `record` to `path` as indented JSON. Written whole to a file beside it and
    then renamed over it: a reader (another thread or process) finds the old record or
    the new one, never a half-written file. A path that cannot be written is one
    :class:`RecordError` naming it."""
    if not isinstance(path, (str, os.PathLike)):
        raise RecordError(f"save_record takes a file path, not {type(path).__name__}")
    if isinstance(record, Game):
        raise RecordError("save_record takes a record (game.to_record()), not a Game")
    path = Path(path)
    try:    # refused now, not when the file is read back (a review: None was written)
        check_record(record)
    except RecordError as e:
        raise RecordError(f"{path}: not saved: {e}") from None
    text = json.dumps(record, indent=1) + "\n"
    try:
        if path.exists() and not path.is_file():
            # a device, a pipe or a directory (an error): written (or refused) where it is
            path.write_text(text, encoding="utf-8")
            return
        part = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.part")
        try:
            part.write_text(text, encoding="utf-8")
            os.replace(part, path)
        except BaseException:
            part.unlink(missing_ok=True)
            raise
    except OSError as e:
        # as load_record names a file it cannot read: the path given, not the part file
        raise RecordError(f"{path}: cannot write ({e.strerror or e})") from None


def _tiles(value, where: str, size: int | None = None) -> list:
    if not isinstance(value, list):
        raise RecordError(f"{where}: expected a list of tiles")
    if size is not None and len(value) != size:
        raise RecordError(f"{where}: {len(value)} tiles, expected {size}")
    try:
        return [Tile.parse(t) for t in value]
    except ParseError as e:
        raise RecordError(f"{where}: {e}") from None


_RECORD_KEYS = frozenset({"format", "players", "seats", "rounds", "view"})
_ROUND_KEYS = frozenset({"starter", "hands", "boneyard", "actions"})


_JSON_SCALARS = (str, int, float, bool, type(None))


def _check_json_values(record) -> None:
    """A record built in Python holds JSON's values only: a numpy integer (a record filled
    from an array) is named with where it is, not refused by a range check that shows the
    value in range (a review: "starter must be a seat 0..1, not np.int64(0)"). Where a value
    is, is written out only for a fault (an embedder's review: the path of every value of a
    1 MB body took a second, the GIL held)."""
    done = object()             # the marker: a container's items are all walked
    stack = [(record, None)]    # (value, where: None, or (where its container is, key or index))
    on_path = set()             # ids of the dicts and lists being walked: one met again is a cycle
    while stack:
        value, where = stack.pop()
        if where is done:
            on_path.discard(value)
            continue
        if isinstance(value, (dict, list, tuple)):
            # a container inside itself (built in Python; JSON cannot write one) was walked for
            # ever; the same list met twice side by side is no cycle (it leaves the path between)
            if id(value) in on_path:
                raise RecordError(f"{_json_path(where) or 'the record'} holds itself (a JSON record cannot)")
            on_path.add(id(value))
            stack.append((id(value), done))
        if isinstance(value, dict):
            stack.extend((v, (where, k, False)) for k, v in reversed(list(value.items())))
        elif isinstance(value, (list, tuple)):
            # (a tuple is JSON's array to json.dumps: where a list is asked for, that check says so)
            stack.extend((v, (where, i, True)) for i, v in reversed(list(enumerate(value))))
        elif not isinstance(value, _JSON_SCALARS):
            kind = f"{type(value).__module__}.{type(value).__name__}"
            if isinstance(value, numbers.Integral):
                raise RecordError(f"{_json_path(where)} holds {kind} {int(value)}: a record holds JSON values "
                                  f"(give int(x))")
            raise RecordError(f"{_json_path(where)} holds a {kind}, which a JSON record cannot hold")


def _json_path(where) -> str:
    """A place _check_json_values noted, as text: "rounds[0].actions[2].seat"."""
    steps = []
    while where is not None:
        where, key, index = where
        steps.append((key, index))
    text = ""
    for key, index in reversed(steps):
        text += f"[{key}]" if index else (f".{key}" if text else str(key))
    return text


def check_record(record) -> dict:
    """Check the structure of a record (full or seat view) and return it with tiles normalised.

    The rules themselves are checked by :func:`game_from_record` (full records and
    seat views alike).
    """
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object")
    _check_round_lengths(record)        # first: before every value and every action is looked at
    # the record's own keys before its values are walked (an embedder's review: a megabyte
    # under an unknown key was walked before "missing key 'players'" was said)
    for key in ("format", "players", "rounds"):
        if key not in record:
            raise RecordError(f"missing key '{key}'")
    unknown = sorted(str(k) for k in record if k not in _RECORD_KEYS)
    if unknown:      # RECORD.md: a reader rejects anything that does not follow it
        raise RecordError(f"unknown key {_short(unknown[0])} in the record "
                          f"(a record has {', '.join(sorted(_RECORD_KEYS))})")
    _check_json_values(record)
    if record["format"] != FORMAT:
        raise RecordError(f"unknown format {_short(record['format'])} (expected '{FORMAT}')")
    n = record["players"]
    check_players(n, error=RecordError)
    seats = record.get("seats")
    if seats is not None and (not isinstance(seats, list) or len(seats) != n
                              or not all(isinstance(s, str) for s in seats)):
        # the count said against "players", which may be the field in error (a review)
        given = f", not {len(seats)}" if isinstance(seats, list) and len(seats) != n else ""
        raise RecordError(f"seats must be a list of {n} names (players is {n}){given}")
    for i, name in enumerate(seats or ()):
        # a name is printed in reports and tables: a newline in it would print lines the
        # report never wrote (a review made a fake "blunder" line so)
        fault = name_fault(name)
        if fault is not None:
            raise RecordError(f"seats[{i}] {_short(name)}: {fault}")
    view = record.get("view")
    if view is not None and (not _is_int(view) or not 0 <= view < n):
        raise RecordError(f"view must be a seat 0..{n - 1}, not {_short(view)}")
    if not isinstance(record["rounds"], list):
        raise RecordError("rounds must be a list")
    if not record["rounds"]:
        raise RecordError("rounds is empty: a record holds at least the first round's deal")
    out = dict(record)
    out["rounds"] = [_check_round(r, i, n, view) for i, r in enumerate(record["rounds"])]
    if view is not None:
        for i, rnd in enumerate(out["rounds"][:-1]):
            if "revealed" not in rnd:
                raise _no_revealed(i)
    return out


def max_round_actions(players: int) -> int:
    """The most actions one round of `players` players can hold (RULES §2, §3, §5):

    - plays: at most 28, each tile placed once;
    - draws: at most the boneyard, 28 - 5 * players (18, 13 or 8);
    - passes: at most players - 1 after each play. A pass is made only with the boneyard
      empty (§5.3), so no draw comes after one and the hands no longer change but by
      plays; after n - 1 passes in a row every other seat has passed on the board as it
      is, and if the seat to move could not place either, no seat could: the round was
      blocked, and ended, before a further pass (D2). The round's first action is a play
      (the opening), so each run of passes follows a play: at most 28 * (players - 1).

    That is 28 + 28 - 5n + 28(n - 1) = 23n + 28: 74, 97 and 120 actions. The longest
    rounds of 3000 self-played games (random legal moves) for each count held 57, 56 and
    51 actions.

    >>> [max_round_actions(n) for n in (2, 3, 4)]
    [74, 97, 120]
    """
    return 28 + (28 - 5 * players) + 28 * (players - 1)


def _check_round_lengths(record: dict) -> None:
    """Refuse a round holding more actions than any round can (a review: a million passes
    were each checked, 15 s and 500 MB, before the replay stopped at the 12th). Done before
    anything else of the rounds is read; a record whose player count is not one is refused
    for that later."""
    n, rounds = _as_int(record.get("players")), record.get("rounds")
    if not _is_int(n) or n not in PLAYER_COUNTS or not isinstance(rounds, list):
        return
    most = max_round_actions(n)
    for r, rnd in enumerate(rounds):
        actions = rnd.get("actions") if isinstance(rnd, dict) else None
        if isinstance(actions, list) and len(actions) > most:
            raise RecordError(f"round {r}: {len(actions)} actions, more than a round of {n} players can hold "
                              f"(at most {most}: 28 plays, {28 - 5 * n} draws, {28 * (n - 1)} passes)")


def _no_revealed(r: int) -> RecordError:
    # without the hands revealed at the end, a view cannot know their pips: its scores (and
    # every later round's) would be guessed, not read
    return RecordError(f"round {r}: a seat's view ends every finished round with 'revealed'")


def _check_round(rnd, r: int, n: int, view) -> dict:
    where = f"round {r}"
    if not isinstance(rnd, dict):
        raise RecordError(f"{where}: a round is a JSON object")
    for key in ("starter", "hands", "boneyard", "actions"):
        if key not in rnd:
            raise RecordError(f"{where}: missing key '{key}'")
    allowed = _ROUND_KEYS if view is None else _ROUND_KEYS | {"revealed"}
    unknown = sorted(str(k) for k in rnd if k not in allowed)
    if unknown:
        what = "only a seat's view has 'revealed'" if unknown[0] == "revealed" else \
            f"a round has {', '.join(sorted(allowed))}"
        raise RecordError(f"{where}: unknown key {_short(unknown[0])} ({what})")
    if not _is_int(rnd["starter"]) or not 0 <= rnd["starter"] < n:
        raise RecordError(f"{where}: starter must be a seat 0..{n - 1}, not {_short(rnd['starter'])}")
    hands = rnd["hands"]
    if not isinstance(hands, list) or len(hands) != n:
        given = f", not {len(hands)}" if isinstance(hands, list) else ""
        raise RecordError(f"{where}: hands must list {n} hands (players is {n}){given}")
    out = dict(rnd)
    seen = {}

    def note(tiles, what):
        # (each place named with its position: "boneyard and boneyard" named neither)
        for k, t in enumerate(tiles):
            if t in seen:
                raise RecordError(f"{where}: tile {t} dealt twice ({seen[t]} and {what} tile {k})")
            seen[t] = f"{what} tile {k}"

    new_hands = []
    for s, h in enumerate(hands):
        if view is not None and s != view:
            if h is not None:
                raise RecordError(f"{where}: seat {view}'s view must not show seat {s}'s hand")
            new_hands.append(None)
            continue
        tiles = _tiles(h, f"{where}: hand of seat {s}")
        if len(tiles) != _core.deal_shape(n)[0]:
            raise RecordError(f"{where}: seat {s} was dealt {len(tiles)} tiles, expected {_core.deal_shape(n)[0]}")
        note(tiles, f"hand of seat {s}")
        new_hands.append([str(t) for t in tiles])
    out["hands"] = new_hands
    if view is None:
        bone = _tiles(rnd["boneyard"], f"{where}: boneyard")
        note(bone, "boneyard")
        if len(bone) != _core.deal_shape(n)[1]:
            raise RecordError(f"{where}: boneyard has {len(bone)} tiles, expected {_core.deal_shape(n)[1]}")
        out["boneyard"] = [str(t) for t in bone]
    elif rnd["boneyard"] is not None:
        raise RecordError(f"{where}: a seat's view must not show the boneyard")
    if not isinstance(rnd["actions"], list):
        raise RecordError(f"{where}: actions must be a list")
    out["actions"] = [_check_action(a, r, i, n, view) for i, a in enumerate(rnd["actions"])]
    if view is not None and "revealed" in rnd:
        rev = rnd["revealed"]
        if not isinstance(rev, list) or len(rev) != n:
            raise RecordError(f"{where}: revealed must list {n} hands")
        out["revealed"] = [[str(t) for t in _tiles(h, f"{where}: revealed hand of seat {s}")]
                           for s, h in enumerate(rev)]
        # each tile exists once: in one revealed hand, once (the sampler reads them as sets)
        seen = {}
        for s, h in enumerate(out["revealed"]):
            for t in h:
                if t in seen:
                    again = "twice" if seen[t] == s else f"and seat {seen[t]}'s too"
                    raise RecordError(f"{where}: revealed hand of seat {s} holds {t} {again}")
                seen[t] = s
    return out


def _check_action(act, r: int, i: int, n: int, view) -> dict:
    return check_action(act, i, n, view, f"round {r} action {i}")


def view_deal(record: dict, r: int, seed: int = 0, ended: bool | None = None, *, revealed: bool = True):
    """A full deal of round r of a seat's view consistent with everything that seat
    saw (its hand and draws, every public action, the hands revealed at the end):
    (hands, boneyard) as lists of Tile, from the exact sampler with `seed`.

    ``ended``: whether the round's actions end it; None (the reader's case): it ended if
    it has ``revealed``. The revealed hands are read only for a round that ended, and
    with ``revealed`` (False: a deal that fits the rest, the revealed hands unread).

    Every public outcome of the round (placements, events, scores) is the same
    under any such deal, so a view replays to the true game's result.
    """
    n, seat, rnd = record["players"], record["view"], record["rounds"][r]
    hand = [Tile.parse(t) for t in rnd["hands"][seat]]
    sizes = [_core.deal_shape(n)[0]] * n        # each seat's hand size, by the public actions
    draws = 0
    for i, a in enumerate(rnd["actions"]):
        if "draw" in a:
            draws += 1
            sizes[a["seat"]] += 1
            if a["seat"] == seat:
                hand.append(Tile.parse(a["draw"]))
        elif "play" in a:
            sizes[a["seat"]] -= 1
            if a["seat"] == seat:
                tile = Tile.parse(a["play"])
                if tile not in hand:
                    raise RecordError(f"round {r} action {i}: seat {seat} plays {tile}, which it does not hold")
                hand.remove(tile)
    shown = rnd.get("revealed")
    if ended is None:
        ended = shown is not None
    revealed = shown if ended and revealed else None
    if revealed is not None:
        # (a review: a hand of the wrong size was told "no deal of the hidden tiles fits", which
        # the public actions say more plainly)
        for s, h in enumerate(revealed):
            if len(h) != sizes[s]:
                raise RecordError(f"round {r}: seat {s}'s revealed hand holds {len(h)} tile{'s' * (len(h) != 1)}, "
                                  f"but the actions leave it {sizes[s]}")
    pseudo = Observation(
        seat=seat, players=n, round=r, starter=rnd["starter"], to_move=None, hand=tuple(hand),
        side=_core.side_of_seat(n, seat), hand_sizes=(), boneyard_size=_core.deal_shape(n)[1] - draws, scores=(),
        history=tuple(dict(a) for a in rnd["actions"]), open_ports=(), end_sum=0,
        status="ended" if ended else "playing",
        revealed=None if revealed is None else tuple(tuple(Tile.parse(t) for t in h) for h in revealed))
    try:
        hands, boneyard = DealSampler(pseudo, check_summary=False).sample_round(seed)
    except InconsistentObservationError as e:
        # the round named once, first (the sampler's words end "(round 0, after action 19)")
        raise RecordError(f"round {r}: " + re.sub(rf"\(round {r}, (after action -?\d+)\)", r"(\1)", str(e))) from None
    # the seat's own hand as its record lists it (the sampler's is in tile order), so
    # that the view written back (Game.to_record) is the view read
    dealt = [Tile.parse(t) for t in rnd["hands"][seat]]
    assert sorted(dealt) == sorted(hands[seat])
    hands[seat] = dealt
    return hands, boneyard


def game_from_record(record, *, check: bool = True, seed: int = 0, max_rounds: int | None = None) -> Game:
    """Replay a record through the rules; raises RecordError at the first fault.

    A seat's view is replayed on deals filled in by :func:`view_deal`: its
    events and scores are exactly the true game's; its hidden tiles are one
    consistent possibility, not the truth.

    A record holds neither the game's seed nor its round limit. ``seed`` is the
    game's seed: it deals the rounds after the record's (:meth:`Game.next_round`)
    and fills in a view's hidden tiles; give the seed the game was played with
    to go on with its deals, and an unguessable one when a view is played on
    (with the default 0 anyone holding the file can compute the tiles filled in).
    ``max_rounds``: the round limit (D6; default 1000, or the record's rounds
    if more).

    >>> g = Game(players=2, seed=11, max_rounds=3)
    >>> while not g.round_over:
    ...     _ = g.push(g.legal_moves[0])
    >>> h = game_from_record(g.to_record(), seed=11, max_rounds=3)
    >>> _, _ = g.next_round(), h.next_round()
    >>> h.hand(0) == g.hand(0), h.max_rounds
    (True, 3)
    """
    game = None
    for game, _, _ in positions(record, check=check, seed=seed, max_rounds=max_rounds):
        pass
    return game


# `fiveup play`'s notation in the core's message for a play without a port; a record
# names the port in its action's "at" (RECORD.md), and that is what its reader is told
_PLAY_PORT_NOTATION = "('TILE@PORT')"


def _in_record_notation(error, act) -> str:
    """`error`'s message, with a play's port asked for as a record writes it (a review: a
    record's play without "at" was told fiveup play's 'TILE@PORT')."""
    text = str(error)
    needs_port = _core.PLACE_MESSAGES[_core.PLACE_NEEDS_PORT].format(tile="{tile}")
    head = needs_port[:needs_port.index("{tile}")]
    if isinstance(act, dict) and "play" in act and "at" not in act and text.startswith(head) \
            and text.endswith(_PLAY_PORT_NOTATION):
        return text[:-len(_PLAY_PORT_NOTATION)] + '(a record names it in the action: "at": "TILE:PORT", e.g. "at": "1-4:low")'
    return text


def positions(record, *, check: bool = True, seed: int = 0, max_rounds: int | None = None):
    """Replay a record once, yielding ``(game, round, action)`` at every position:
    before each action of each round, and after a round's last action (``action``
    = the round's action count). The same :class:`Game` object is yielded each
    time, moved on between yields: copy it (``game.copy()``) to keep a position.
    The whole record is checked as it goes (RecordError at the first fault).
    ``seed`` and ``max_rounds``: the game's, as :func:`game_from_record` takes them.

    >>> g = Game(players=2, seed=3)
    >>> _ = g.push(g.legal_moves[0])
    >>> [(r, i) for _, r, i in positions(g.to_record())]
    [(0, 0), (0, 1)]
    """
    seed, max_rounds = check_seed(seed), _as_int(max_rounds)
    if max_rounds is not None and (not _is_int(max_rounds) or max_rounds < 1):
        raise OptionError(f"max_rounds must be an integer >= 1 or None, not {_short(max_rounds)}")
    if check:
        record = check_record(record)
    view = record.get("view")
    n = record["players"]
    rounds = record["rounds"]
    if max_rounds is not None and max_rounds < len(rounds):
        raise OptionError(f"max_rounds {max_rounds} is below the record's {len(rounds)} rounds")
    # without a limit: the record's rounds within the default one (D6), not the limit itself,
    # so that a game read back from its record goes on to its next round as the game did
    limit = max(DEFAULT_MAX_ROUNDS, len(rounds)) if max_rounds is None else max_rounds
    game = Game(players=n, seed=seed, deal=False, seats=record.get("seats"), max_rounds=limit)
    if not rounds:
        yield game, None, None
        return
    for r, rnd in enumerate(rounds):
        if game.game_over:
            raise RecordError(f"round {r}: the game was already won in round {r - 1}")
        fixed = game.next_starter()
        if fixed is not None and rnd["starter"] != fixed:
            raise RecordError(f"round {r}: starter must be seat {fixed}, who emptied their hand in round {r - 1}")
        if view is not None:
            if "revealed" in rnd and _view_round_ends(record, r, seed, game) is False:
                # refused before the made-up hands are dealt (a review: they were used as the
                # hidden hands); a round that may be blocked is checked after its actions
                raise _revealed_unfinished(r)
            hands, boneyard = view_deal(record, r, seed)
        else:
            hands = [[Tile.parse(t) for t in h] for h in rnd["hands"]]
            boneyard = [Tile.parse(t) for t in rnd["boneyard"]]
        game.start_round(hands, boneyard, rnd["starter"])
        game.current.filled_for = view          # (a view's hidden tiles: filled in, not known)
        for i, act in enumerate(rnd["actions"]):
            yield game, r, i
            where = f"round {r} action {i}"
            if game.round_over:
                raise RecordError(f"{where}: action after the round ended")
            if act["seat"] != game.to_move:
                raise RecordError(f"{where}: seat {act['seat']} acted but seat {game.to_move} is to move")
            try:
                move = action_to_move(act)
                if move.kind == "draw" and move.tile is not None and view is None and game.boneyard \
                        and move.tile != game.boneyard[0]:
                    # the record holds its boneyard: the tile expected may be named (Game.push does not)
                    raise RecordError(f"draw {move.tile} is not the boneyard's next tile ({game.boneyard[0]})")
                game.push(move)
            except FiveUpError as e:
                raise RecordError(f"{where}: {_in_record_notation(e, act)}") from None
        if not game.round_over and r < len(rounds) - 1:
            raise RecordError(f"round {r}: actions stop before the round ended")
        if view is not None and game.round_over and "revealed" not in rnd:
            raise _no_revealed(r)
        if view is not None and not game.round_over and "revealed" in rnd:
            raise _revealed_unfinished(r)
        yield game, r, len(rnd["actions"])


def _revealed_unfinished(r: int) -> RecordError:
    # RECORD.md: "revealed" is what every hand held when the round ended; a view cannot
    # know the other hands before (a review: made-up hands on an unfinished round were
    # read as the hidden hands)
    return RecordError(f"round {r}: 'revealed' is only for a finished round, and the actions leave this one unfinished")


def _view_round_ends(record: dict, r: int, seed: int, game: Game):
    """Whether the actions of round r of a seat's view end the round (`game`: the game
    before it): True, False, or None when only the hands revealed can tell (or the
    rules refuse an action: the replay names it).

    A hand emptied shows in the public counts. A round may be blocked only once the
    boneyard is empty, and whether it is depends on the hands left: what ``revealed``
    says (the replay on the deal read from it, and the check after the round, decide).
    A round neither emptied nor blocked ended only if the game was won, which the public
    actions decide: they are replayed, in a game of its own, on a deal that reads no
    revealed hand."""
    n, rnd = record["players"], record["rounds"][r]
    size, bone = [_core.deal_shape(n)[0]] * n, _core.deal_shape(n)[1]
    for a in rnd["actions"]:
        size[a["seat"]] += 1 if "draw" in a else -1 if "play" in a else 0
        bone -= 1 if "draw" in a else 0
        if not size[a["seat"]]:
            return True          # a domino (or, if an action follows, a fault the replay names)
    if bone <= 0:
        return None
    for ended in (True, False):      # (a deal read as of an ended round, else as of one going on)
        try:
            hands, boneyard = view_deal(record, r, seed, ended=ended, revealed=False)
            trial = Game(players=n, seed=seed, deal=False)
            trial.start_round(hands, boneyard, rnd["starter"], scores=game.scores)
            for act in rnd["actions"]:
                if trial.round_over or act["seat"] != trial.to_move:
                    return None
                trial.push(action_to_move(act))
        except FiveUpError:
            continue
        return trial.round_over
    return None


def replay(record) -> dict:
    """The replay object of RECORD.md for a record: a full record or a seat's view (a
    view replays to the true game's result: events and scores are public)."""
    return game_from_record(record).result()


def game_at(record, round_index, action_index, *, check: bool = True) -> Game:
    """The game at the position before action `action_index` of round `round_index`
    (``check=False``: the record was already checked by :func:`check_record`).
    The whole record is replayed once, so a fault anywhere in it is reported; the
    position is copied on the way, not reached by undoing."""
    if check:
        record = check_record(record)
    rounds = record["rounds"]
    round_index, action_index = _as_int(round_index), _as_int(action_index)
    if not _is_int(round_index) or not 0 <= round_index < len(rounds):
        raise RecordError(f"round {_short(round_index)} is not in the record (it has {len(rounds)} rounds)")
    n_actions = len(rounds[round_index]["actions"])
    if not _is_int(action_index) or not 0 <= action_index <= n_actions:
        raise RecordError(f"round {round_index}: action {_short(action_index)} is not in 0..{n_actions}")
    found = None
    for game, r, i in positions(record, check=False):
        if (r, i) == (round_index, action_index):
            found = game.copy()
    return found


def observation_at(record, seat, round_index=None, action_index=None, *, check: bool = True):
    """What `seat` knew before action `action_index` of round `round_index` of a
    record (a full record, or that seat's view): its
    :class:`~fiveup_solver.game.Observation`. Without a round and action: the
    record's last position. Only the observation is handed on: the rest of a
    full record never leaves this function. ``check=False``: the record was
    already checked by :func:`check_record` (as :func:`load_record` does).

    >>> g = Game(players=2, seed=5)
    >>> obs = observation_at(g.to_record(), g.to_move, 0, 0)
    >>> obs.seat == g.to_move and obs.history == () and len(obs.hand) == 5
    True
    """
    if check:
        record = check_record(record)
    n = record["players"]
    seat, round_index, action_index = _as_int(seat), _as_int(round_index), _as_int(action_index)
    if not _is_int(seat) or not 0 <= seat < n:
        raise RecordError(f"seat must be 0..{n - 1}, not {_short(seat)}")
    view = record.get("view")
    if view is not None and view != seat:
        raise RecordError(f"this is seat {view}'s view: seat {seat}'s observation is not in it")
    if (round_index is None) != (action_index is None):
        raise RecordError("give a round and an action together (or neither: the record's last position)")
    if not record["rounds"]:
        raise RecordError("the record has no rounds")
    r = len(record["rounds"]) - 1 if round_index is None else round_index
    if not _is_int(r) or not 0 <= r < len(record["rounds"]):
        raise RecordError(f"round {_short(r)} is not in the record (it has {len(record['rounds'])} rounds)")
    i = len(record["rounds"][r]["actions"]) if action_index is None else action_index
    return game_at(record, r, i, check=False).observation(seat)


def past_observations(record, seat: int, round_index: int) -> list:
    """The seat's views of the rounds before `round_index` of a record (a file name, a
    full record or the seat's view), each at the round's end: what ``past`` takes."""
    record = load_record(record) if isinstance(record, str) else check_record(record)
    return [observation_at(record, seat, q, len(record["rounds"][q]["actions"]), check=False)
            for q in range(min(round_index, len(record["rounds"])))]
