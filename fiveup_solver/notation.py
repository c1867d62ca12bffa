"""Notation and small value types: tiles, ports, moves, events; ``parse_*``/``format_*`` pairs.

>>> t = Tile.parse("4-1")
>>> t, t.pips, t.is_double
(Tile.parse('1-4'), 5, False)
>>> Port.parse("4-4:lineB")
Port.parse('4-4:lineB')
>>> str(Move.parse("3-4@4-4:lineB")), str(Move.parse("6-6")), str(Move.parse("pass"))
('3-4@4-4:lineB', '6-6', 'pass')
"""
from __future__ import annotations

import json
import os
import re
import shutil
import textwrap
from dataclasses import dataclass, field

from fiveup_solver import _core
from fiveup_solver.errors import OptionError, ParseError, RecordError, as_int as _as_int, is_int as _is_int, short_repr as _short

__all__ = [
    "Tile", "Port", "Move", "Event", "ALL_TILES",
    "parse_tile", "format_tile", "parse_port", "format_port", "parse_move", "format_move",
    "raw_to_display", "format_number", "format_seat", "format_round_end", "format_domino_parts", "block_parts", "format_block_part", "TARGET_RAW", "MIN_SCORE", "LOWEST_SCORE", "score_floor", "NEGATIVE_SCORE_PLAYERS", "BONEYARD", "check_action",
    "fit_to_terminal",
]

TARGET_RAW = 305
# the lowest raw score a game starts from (Game(scores=)); D4 sets no floor: scores a game
# reaches are kept down to _core.LOWEST_SCORE, a billion lower, which no game reaches
MIN_SCORE = -1_000_000_000
LOWEST_SCORE = _core.LOWEST_SCORE
NEGATIVE_SCORE_PLAYERS = 4      # only a partner's pips (RULES §3.3, D4) take a score below 0
BONEYARD = "boneyard"   # where an unseen tile lies when no seat holds it (the key next to the seats)
# port names and tile numbers are the core's (one home): a port is a name here, an index there
SINGLE_PORTS = _core.PORT_NAMES_SINGLE     # ("low", "high")
DOUBLE_PORTS = _core.PORT_NAMES_DOUBLE     # ("lineA", "lineB", "branchA", "branchB")


def score_floor(players: int) -> int:
    """The lowest raw score a round may start from with `players` (``Game(scores=)``,
    ``equity.win_probabilities``): 0, or MIN_SCORE with 4 players, where a partner's pips
    may take a score below 0 (RULES §3.3, D4). The highest is 304 (TARGET_RAW - 1)."""
    return MIN_SCORE if players == NEGATIVE_SCORE_PLAYERS else 0


def _is_pip(x) -> bool:
    return _is_int(_as_int(x)) and 0 <= x <= 6


@dataclass(frozen=True, order=True)
class Tile:
    """A domino tile a-b with 0 <= lo <= hi <= 6; ``index`` is its number 0..27."""

    lo: int
    hi: int

    def __post_init__(self):
        if not (_is_pip(self.lo) and _is_pip(self.hi) and self.lo <= self.hi):
            raise ParseError(f"bad tile {_short(self.lo)}-{_short(self.hi)}")
        if type(self.lo) is not int or type(self.hi) is not int:
            # another integer type (numpy's) kept as its int: a Tile equals and hashes as ALL_TILES'
            object.__setattr__(self, "lo", int(self.lo))
            object.__setattr__(self, "hi", int(self.hi))

    @classmethod
    def parse(cls, text) -> "Tile":
        """Parse ``"a-b"`` (``"b-a"`` is normalised)."""
        tile = _TILE_OF_TEXT.get(text) if type(text) is str else None
        if tile is not None:            # (a lookup: observations' histories parse thousands a second)
            return tile
        if not isinstance(text, str):
            raise ParseError(f"bad tile {_short(text)}: expected a string like '3-4'")
        parts = text.split("-")
        if len(parts) != 2 or not all(len(p) == 1 and p in "0123456" for p in parts):
            raise ParseError(f"bad tile {_short(text)}: expected 'a-b' with pips 0-6")
        a, b = int(parts[0]), int(parts[1])
        return ALL_TILES[_INDEX[min(a, b)][max(a, b)]]

    @classmethod
    def from_index(cls, index: int) -> "Tile":
        index = _as_int(index)
        if not (_is_int(index) and 0 <= index < 28):
            raise ParseError(f"bad tile index {_short(index)}: expected 0..27")
        return ALL_TILES[index]

    @property
    def index(self) -> int:
        return _INDEX[self.lo][self.hi]

    @property
    def pips(self) -> int:
        return self.lo + self.hi

    @property
    def is_double(self) -> bool:
        return self.lo == self.hi

    @property
    def port_names(self) -> tuple:
        return DOUBLE_PORTS if self.is_double else SINGLE_PORTS

    def __str__(self) -> str:
        return f"{self.lo}-{self.hi}"

    def __repr__(self) -> str:
        # what makes it again, as python-chess's Move.from_uci('e2e4')
        return f"Tile.parse('{self}')"


ALL_TILES: tuple = tuple(Tile(_core.tile_lo(i), _core.tile_hi(i)) for i in range(28))   # the core's numbering
_INDEX = [[0] * 7 for _ in range(7)]
for _i, _t in enumerate(ALL_TILES):
    _INDEX[_t.lo][_t.hi] = _INDEX[_t.hi][_t.lo] = _i
# every text Tile.parse accepts, both orders of the pips
_TILE_OF_TEXT = {f"{a}-{b}": ALL_TILES[_INDEX[a][b]] for a in range(7) for b in range(7)}


@dataclass(frozen=True, order=True)
class Port:
    """A place on the board: a tile and one of its ports (``"1-4:low"``)."""

    tile: Tile
    name: str

    def __post_init__(self):
        if not isinstance(self.tile, Tile):
            raise ParseError(f"bad port tile {_short(self.tile)}: expected a Tile")
        # (typed first: an array's or an odd object's == is not a truth value)
        if not isinstance(self.name, str) or self.name not in self.tile.port_names:
            raise ParseError(f"bad port name {_short(self.name)} for tile {self.tile}")

    @classmethod
    def parse(cls, text) -> "Port":
        port = _PORT_OF_TEXT.get(text) if type(text) is str and cls is Port else None
        if port is not None:
            return port
        if not isinstance(text, str) or text.count(":") != 1:
            raise ParseError(f"bad port {_short(text)}: expected 'TILE:PORT' like '1-4:low'")
        tile_text, name = text.split(":")
        tile = Tile.parse(tile_text)
        if name not in tile.port_names:
            raise ParseError(f"bad port {_short(text)}: {tile} has ports {', '.join(tile.port_names)}")
        return cls(tile, name)

    @property
    def index(self) -> int:
        return self.tile.port_names.index(self.name)

    @property
    def value(self) -> int:
        """The pip value a tile must show to attach here."""
        return _core.value_of_port(self.tile.index, self.index)

    def __str__(self) -> str:
        return f"{self.tile}:{self.name}"

    def __repr__(self) -> str:
        return f"Port.parse('{self}')"


@dataclass(frozen=True)
class Move:
    """An action of the seat to move: ``play`` (opening when ``at`` is None), ``draw`` or ``pass``.

    A draw's tile is decided by the boneyard, so a draw move usually has ``tile=None``.
    A draw that came with its tile (a round's history, ``Game.pop``) is written ``draw``
    as any draw is: the text of a move is what a seat chooses, and a draw's tile, which
    other seats must not see, is written only in a record's ``draw`` field
    (``to_action``). So ``Move.parse(str(m)) == m`` holds for every legal move, not for
    a draw with its tile:

    >>> m = Move.draw(Tile.parse("2-5"))
    >>> str(m), Move.parse(str(m)) == Move.draw(), m.to_action(0)
    ('draw', True, {'seat': 0, 'draw': '2-5'})
    """

    kind: str
    tile: Tile | None = None
    at: Port | None = None

    @classmethod
    def play(cls, tile: Tile, at: Port | None = None) -> "Move":
        return cls("play", tile, at)

    @classmethod
    def draw(cls, tile: Tile | None = None) -> "Move":
        return cls("draw", tile)

    @classmethod
    def pass_(cls) -> "Move":
        return cls("pass")

    @classmethod
    def parse(cls, text) -> "Move":
        """``"1-4"`` (opening), ``"3-4@4-4:lineB"``, ``"draw"`` or ``"pass"``."""
        if not isinstance(text, str):
            raise ParseError(f"bad move {_short(text)}")
        if text == "pass":
            return cls.pass_()
        if text == "draw":
            return cls.draw()
        if "@" in text:
            tile_text, _, port_text = text.partition("@")
            return cls.play(Tile.parse(tile_text), Port.parse(port_text))
        return cls.play(Tile.parse(text))

    @property
    def placement(self) -> tuple:
        """The core's numbers for a play: (tile, target tile, port index); (tile, -1, -1) for an opening.

        >>> Move.parse("3-4@4-4:lineB").placement, Move.parse("6-6").placement
        ((19, 22, 1), (27, -1, -1))
        """
        if self.kind != "play":
            raise ParseError(f"{self} is not a placement")
        if not isinstance(self.tile, Tile) or not (self.at is None or isinstance(self.at, Port)):
            # a Move is not checked when made (push refuses a malformed one); its numbers are
            raise ParseError(f"a play is of a Tile, at None or a Port, not {_short(self.tile)} at {_short(self.at)}")
        return (self.tile.index, -1, -1) if self.at is None else (self.tile.index, self.at.tile.index, self.at.index)

    def same_as(self, other: "Move") -> bool:
        """Whether the two moves are one choice: equal, or two plays that leave the same
        game (RULES §3.4: a tile on a double's branchA or branchB; on either line port of a
        lone opening double; on either of two open non-double ends of one value). Legal
        moves lists every port, as the rules name them; a hint values such moves alike.

        >>> Move.parse("4-5@5-5:lineA").same_as(Move.parse("4-5@5-5:lineB"))
        True
        >>> Move.parse("4-5@5-5:lineB").same_as(Move.parse("4-5@5-5:branchA"))
        False
        """
        if self == other:
            return True
        if not isinstance(other, Move) or self.kind != "play" or other.kind != "play":
            return False
        self.placement, other.placement         # a malformed play is refused (ParseError), as placement does
        if any(m.at is not None and m.at.value not in (m.tile.lo, m.tile.hi) for m in (self, other)):
            return False                # a tile that cannot go there is no placement at all
        return _core.canonical_of(*self.placement) == _core.canonical_of(*other.placement)

    @classmethod
    def from_action(cls, action: dict) -> "Move":
        """The move of a record action dict (``{"seat": s, "play": "1-4", "at": ...}``, ``"draw"``, ``"pass"``)."""
        if not isinstance(action, dict):
            raise ParseError(f"bad action {_short(action)}: expected a dict like {{'seat': 0, 'play': '1-4'}}")
        if "play" in action:
            at = action.get("at")
            return cls.play(Tile.parse(action["play"]), None if at is None else Port.parse(at))
        if "draw" in action:
            return cls.draw(None if action["draw"] is None else Tile.parse(action["draw"]))
        if "pass" in action:
            if action["pass"] is not True:
                # (as check_action: a review's {"pass": false} was read as a pass)
                raise ParseError(f"bad action {_short(action)}: pass must be true")
            return cls.pass_()
        raise ParseError(f"bad action {_short(action)}")

    def to_action(self, seat: int) -> dict:
        """The record action dict of this move by `seat` (a hidden draw has ``"draw": None``)."""
        if not _is_int(seat) or not 0 <= seat < 4:
            raise ParseError(f"seat must be 0..3, not {_short(seat)}")
        if self.kind == "play":
            self.placement                  # a malformed play is refused, not written out
            out = {"seat": seat, "play": str(self.tile)}
            if self.at is not None:
                out["at"] = str(self.at)
            return out
        if self.kind == "draw":
            return {"seat": seat, "draw": None if self.tile is None else str(self.tile)}
        if self.kind != "pass":
            raise ParseError(f"a move is a play, a draw or a pass, not {_short(self.kind)}")
        return {"seat": seat, "pass": True}

    def __str__(self) -> str:
        if self.kind == "play":
            return str(self.tile) if self.at is None else f"{self.tile}@{self.at}"
        return self.kind if isinstance(self.kind, str) else _short(self.kind)   # a malformed Move still prints

    def __repr__(self) -> str:
        if self.kind == "draw" and self.tile is not None:
            return f"Move.draw({self.tile!r})"
        return f"Move.parse('{self}')"


@dataclass(frozen=True)
class Event:
    """A scoring event as RECORD.md lists it."""

    round: int
    action: int | None
    kind: str
    seat: int
    side: int
    end_sum: int | None
    raw: int
    accepted: bool
    scores: tuple = field(default=())

    def to_dict(self) -> dict:
        return {"round": self.round, "action": self.action, "kind": self.kind, "seat": self.seat,
                "side": self.side, "end_sum": self.end_sum, "raw": self.raw,
                "accepted": self.accepted, "scores": list(self.scores)}


def parse_tile(text) -> Tile:
    return Tile.parse(text)


def _formatted(value, kind: type) -> str:
    """str(value) for a value of the type a format_* function names; anything else is an
    OptionError (a tuple or a string is no tile, and must not print as if it were one)."""
    if not isinstance(value, kind):
        raise OptionError(f"format_{kind.__name__.lower()} takes a {kind.__name__}, not {_short(value)}")
    return str(value)


def format_tile(tile: Tile) -> str:
    """The text of a tile (:meth:`Tile.parse` reads it back).

    >>> format_tile(parse_tile("6-3"))
    '3-6'
    >>> format_tile((3, 6))
    Traceback (most recent call last):
    ...
    fiveup_solver.errors.OptionError: format_tile takes a Tile, not (3, 6)
    """
    return _formatted(tile, Tile)


def parse_port(text) -> Port:
    return Port.parse(text)


def format_port(port: Port) -> str:
    """The text of a port (:meth:`Port.parse` reads it back); anything else is an OptionError."""
    return _formatted(port, Port)


def parse_move(text) -> Move:
    return Move.parse(text)


def format_move(move: Move) -> str:
    """The text of a move (:meth:`Move.parse` reads it back).

    >>> format_move("3-4")
    Traceback (most recent call last):
    ...
    fiveup_solver.errors.OptionError: format_move takes a Move, not '3-4'
    """
    return _formatted(move, Move)


def same_as_earlier(moves) -> list:
    """For each move of a list, the index of the first earlier move that is the same
    choice (:meth:`Move.same_as`), or None: how a listing marks the second port of one
    placement instead of offering it as another choice.

    >>> same_as_earlier([Move.parse(t) for t in ("4-5@5-5:lineA", "draw", "4-5@5-5:lineB")])
    [None, None, 0]
    """
    try:
        moves = list(moves)
    except TypeError:
        raise OptionError(f"same_as_earlier takes a list of Moves, not {_short(moves)}") from None
    for m in moves:
        if not isinstance(m, Move):
            raise OptionError(f"same_as_earlier takes a list of Moves, not one holding {_short(m)}")
    return [next((j for j in range(i) if moves[j].same_as(m)), None) for i, m in enumerate(moves)]


def raw_to_display(raw: int) -> int:
    """5 raw points = 1 display point (RULES §4.3).

    >>> raw_to_display(305), raw_to_display(-20)
    (61, -4)
    """
    if not _is_int(raw):
        raise ParseError(f"raw points must be an integer, not {_short(raw)}")
    return raw // 5 if raw >= 0 else -((-raw) // 5)


def format_number(value, spec: str) -> str:
    """``format(value, spec)``, with no minus sign on a number that rounds to zero (a
    rounding error's -0.0 read as a loss, or as a negative Elo); a ``+`` spec keeps its +.

    >>> format_number(-0.04, "+.1f"), format_number(-0.3, ".0f"), format_number(-0.6, ".0f")
    ('+0.0', '0', '-1')
    """
    text = format(value, spec)
    if isinstance(value, (int, float)) and text.startswith("-") and float(text) == 0:
        text = ("+" if spec.startswith("+") else "") + text[1:]
    return text


def format_seat(seat: int, names=None) -> str:
    """A seat in words: its number, and its name from a record's ``seats`` when it has
    one other than the default (``Game``'s ``seat0``, ``seat1``, ...).

    >>> format_seat(1, ["hint", "greedy"]), format_seat(1), format_seat(1, ["seat0", "seat1"])
    ('seat 1 (greedy)', 'seat 1', 'seat 1')
    """
    if not _is_int(seat) or seat < 0 or (names and seat >= len(names)):
        raise ParseError(f"a seat is a number from 0 to the seats named, not {_short(seat)}")
    name = names[seat] if names else None
    return f"seat {seat}" if name is None or name == f"seat{seat}" else f"seat {seat} ({name})"


def format_round_end(end: dict, names=None) -> str:
    """How a round ended (a round's ``end`` of RECORD.md or ``Game.result()``) in words,
    the seats named as :func:`format_seat` names them.

    >>> format_round_end({"end": "domino", "seat": 1}, ["you", "greedy"])
    'seat 1 (greedy) emptied their hand'
    >>> format_round_end({"end": "blocked", "winner": None}), format_round_end({"end": "unfinished"})
    ('blocked, a tie', 'unfinished')
    """
    kind = end.get("end") if isinstance(end, dict) else None
    needs = {"domino": "seat", "won": "seat", "blocked": "winner", "unfinished": "end"}.get(kind)
    if needs is None or needs not in end:
        raise ParseError(f"a round's end is a dict as RECORD.md has it, not {_short(end)}")
    if kind == "domino":
        return f"{format_seat(end['seat'], names)} emptied their hand"
    if kind == "won":
        return f"{format_seat(end['seat'], names)} reached exactly 305: the game is won"
    if kind == "blocked":
        # RULES §6.6: the side holding the smallest single hand sum wins the round
        return ("blocked, a tie" if end["winner"] is None
                else f"blocked, side {end['winner']} held the lightest hand")
    return kind                                  # "unfinished"


def format_domino_parts(parts: dict) -> str:
    """A domino event's parts (RULES §6.3, ``RoundLog.domino_parts``) in words: the
    credit can be checked by hand from the hands left.

    >>> format_domino_parts({"seat": 2, "placement": 10, "opponents_pips": 13, "opponents": 15,
    ...                      "partner_pips": 9, "partner": 10})
    "P 10 + O 15 (the opponents' 13 pips, rounded to 15) - D 10 (the partner's 9 pips, rounded to 10) = 15"
    >>> format_domino_parts({"seat": 1, "placement": 0, "opponents_pips": 30, "opponents": 30,
    ...                      "partner_pips": None, "partner": 0})
    "P 0 + O 30 (the opponents' 30 pips) = 30"
    """
    def pips(count, credit) -> str:
        # the rounding said where it changes the number (a review: "O 20 (the opponents' 22
        # pips)" read as a sum gone wrong; the block credits already say "rounded to")
        return f"{count} pips" if count == credit else f"{count} pips, rounded to {credit}"
    try:
        text = f"P {parts['placement']} + O {parts['opponents']} (the opponents' " \
               f"{pips(parts['opponents_pips'], parts['opponents'])})"
        if parts["partner_pips"] is not None:
            text += f" - D {parts['partner']} (the partner's {pips(parts['partner_pips'], parts['partner'])})"
        return f"{text} = {parts['placement'] + parts['opponents'] - parts['partner']}"
    except (KeyError, TypeError):
        raise ParseError(f"a domino's parts are a dict as RoundLog.domino_parts gives them, not {_short(parts)}") from None


def block_parts(pips, starter: int) -> list:
    """A blocked round's credits (RULES §6.5) from each seat's hand sum (``pips``, by seat)
    and the round's starter, as the core's scoring works them (``RoundLog.block_parts``
    gives them for a played round): the seats lightest first (equal sums clockwise from
    the starter), each with its opponents' heavier hands (``above``: ``[seat, pips]``; never
    the partner's), the differences' ``total`` and its ``credit``, the total rounded once
    to the nearest 5. A non-zero credit is one block event, in this order (each checked on
    its own against 305; the first to reach it exactly ends the game).

    Worked by hand: 4 players, hands of 42, 21, 13 and 32 pips, seat 0 started. Seat 2
    (13) is lightest: its opponents (seats 1 and 3) hold 21 - 13 = 8 and 32 - 13 = 19 more,
    27 in all, rounded to 25; seat 1 (21): seat 0's 42 - 21 = 21, rounded to 20 (seat 2's 13
    is lighter); seat 3 (32): seat 0's 42 - 32 = 10; seat 0 (42): no heavier opponent, 0.

    >>> [(p["seat"], p["above"], p["total"], p["credit"]) for p in block_parts([42, 21, 13, 32], 0)]
    [(2, [[1, 21], [3, 32]], 27, 25), (1, [[0, 42]], 21, 20), (3, [[0, 42]], 10, 10), (0, [], 0, 0)]
    """
    try:
        return block_dicts(_core.block_parts(pips, starter))
    except _core.CoreError as e:
        raise OptionError(str(e)) from None


def block_dicts(parts: list) -> list:
    """The core's block parts (``(seat, pips, heavier seats, total, credit)``) as dicts."""
    pips = {part[0]: part[1] for part in parts}
    return [{"seat": s, "pips": p, "above": [[o, pips[o]] for o in heavier], "total": total, "credit": credit}
            for s, p, heavier, total, credit in parts]


def format_block_part(part: dict, names=None) -> str:
    """One seat's part of a blocked round's credits (:func:`block_parts`) in words, as a
    person checks it from the hands left: its heavier opponents' differences, their sum
    and the sum rounded once (RULES §6.4, §6.5). ``names``: a record's seat names (as
    :func:`format_seat` takes them), or a function giving a seat in words.

    >>> format_block_part(block_parts([42, 21, 13, 32], 0)[0])
    'seat 2: 13 pips; heavier opponents: seat 1 (21 - 13 = 8), seat 3 (32 - 13 = 19); 8 + 19 = 27, rounded to 25'
    >>> format_block_part(block_parts([42, 21, 13, 32], 0)[3])
    'seat 0: 42 pips; no opponent holds more'
    """
    who = names if callable(names) else (lambda q: format_seat(q, names))
    try:
        seat, pips, above, total, credit = part["seat"], part["pips"], part["above"], part["total"], part["credit"]
        head = f"{who(seat)}: {pips} pips"
        if not above:
            return f"{head}; no opponent holds more"
        diffs = ", ".join(f"{who(o)} ({x} - {pips} = {x - pips})" for o, x in above)
        added = f"{' + '.join(str(x - pips) for _, x in above)} = {total}" if len(above) > 1 else f"{total}"
    except (KeyError, TypeError, ValueError):
        raise ParseError(f"a block's part is a dict as block_parts gives it, not {_short(part)}") from None
    return f"{head}; heavier opponents: {diffs}; {added}" + (f", rounded to {credit}" if credit != total else "")


# every text Port.parse accepts (a tile's pips in either order)
_PORT_OF_TEXT = {f"{text}:{name}": Port(tile, name) for text, tile in _TILE_OF_TEXT.items()
                 for name in tile.port_names}


# a record action is one of these key sets (RECORD.md); the JSON form of a Move
_ACTION_SHAPES = ({"seat", "play"}, {"seat", "play", "at"}, {"seat", "draw"}, {"seat", "pass"})


def check_action(act, i: int, n: int, view=None, where: str | None = None) -> dict:
    """Check one record action dict (action number i, n players; with ``view`` a
    seat's view, where other seats' draws are hidden) and return it normalised.
    Raises RecordError naming ``where`` (default ``action i``)."""
    where = where or f"action {i}"
    if isinstance(act, dict) and "seat" not in act:
        raise RecordError(f"{where}: missing key 'seat'")
    extra = sorted(set(act) - {"seat", "play", "at", "draw", "pass"}, key=str) if isinstance(act, dict) else []
    if extra:
        raise RecordError(f"{where}: unknown key {_short(extra[0], 40)} (an action has seat, and play (with at), "
                          "draw or pass)")
    if not isinstance(act, dict) or set(act) not in _ACTION_SHAPES:
        try:
            shown = json.dumps(act)
        except (TypeError, ValueError):  # not JSON data (API callers)
            shown = repr(act)
        raise RecordError(f"{where}: unknown action {shown[:60]}")
    seat = act["seat"]
    if not _is_int(seat) or not 0 <= seat < n:
        raise RecordError(f"{where}: seat must be 0..{n - 1}, not {_short(seat)}")
    out = {"seat": seat}
    try:
        if "play" in act:
            out["play"] = str(Tile.parse(act["play"]))
            # an opening is a play without `at` (RECORD.md); `"at": null` says the same (the
            # spec's own examples write openings so), and is read as the opening
            if act.get("at") is not None:
                out["at"] = str(Port.parse(act["at"]))
        elif "draw" in act:
            if view is not None and seat != view:
                if act["draw"] is not None:     # RECORD.md: a view cannot know another seat's draw
                    raise RecordError(f"{where}: seat {view}'s view writes seat {seat}'s draw as null, "
                                      f"not {_short(act['draw'])}")
                out["draw"] = None
            elif act["draw"] is None:
                # (read as a tile it said "bad tile None")
                raise RecordError(f"{where}: the drawn tile is null: a full record names every draw "
                                  f"(only a seat's view writes the other seats' draws as null)")
            else:
                out["draw"] = str(Tile.parse(act["draw"]))
        else:
            if act["pass"] is not True:
                raise RecordError(f"{where}: pass must be true")
            out["pass"] = True
    except ParseError as e:
        raise RecordError(f"{where}: {e}") from None
    return out


def _terminal_columns(out) -> int:
    """The width of the terminal `out` writes to (the terminal's own: an exported COLUMNS,
    as test runners set, may not be it), 80 when it cannot be asked."""
    try:
        return os.get_terminal_size(out.fileno()).columns
    except (AttributeError, ValueError, OSError):
        return shutil.get_terminal_size((80, 24)).columns


def terminal_width(out) -> int | None:
    """The characters a line may hold on the terminal ``out`` writes to (one short of its
    columns, at least 20), None where ``out`` is no terminal."""
    if not (out.isatty() if hasattr(out, "isatty") else False):
        return None
    return max(20, _terminal_columns(out) - 1)


def fit_to_terminal(text: str, out) -> str:
    """``text`` with each line longer than the terminal ``out`` writes to broken between
    words, its rest indented (unchanged where ``out`` is no terminal; a Markdown table
    is kept whole where it fits, else shown as aligned columns). A terminal breaks a
    long line anywhere: "35 raw (" / "7)", "-7" / ".1 +- 3.0 win-%" read as other numbers."""
    width = terminal_width(out)
    if width is None:
        return text
    # a value and its standard error ("+10.6 +- 2.5") stay on one line, as a number and its
    # unit ("56.2 %", "2.0 win-%", _UNIT): the spaces there are not break points (a stand-in
    # while the line is filled)
    glued = text.replace(" +- ", "\x00+-\x00")
    out, table = [], []
    for line in glued.split("\n") + [""]:
        if line.startswith("|"):
            table.append(line)
            continue
        if table:
            # a Markdown table: kept whole where its rows fit (broken, a row is no row), else
            # as aligned columns (a review: the ladder's rows broke mid-word under ~110 columns)
            out += table if max(map(len, table)) <= width else _table_as_columns(table, width)
            table = []
        out.append(textwrap.fill(_UNIT.sub("\\1\x00\\2", line), width, subsequent_indent="    ",
                                 break_long_words=False, break_on_hyphens=False) or line)
    return "\n".join(out[:-1]).replace("\x00", " ")


_NUMBER_CELL = re.compile(r"[+-]?\d[\d,.]*( ?%)?")
# a number and its unit, not broken apart on a narrow terminal ("45.9 %", "-4.3 win-%", "+7 pts")
_UNIT = re.compile(r"(\d) (%|win-%|pts|raw)(?![\w-])")


def _table_as_columns(rows: list, width: int) -> list:
    """A Markdown table too wide for ``width`` characters as aligned columns without the
    bars: every column but the last on one line (numbers right-aligned), the last column
    (the longest text: a recipe, a pentanomial) after them where every row has room, else
    on the lines below its row, indented."""
    cells = [[c.strip() for c in row.strip().strip("|").split("|")] for row in rows
             if not set(row) <= set("|-: ")]           # (the |---|---| row dropped)
    n = max(len(r) for r in cells)
    cells = [r + [""] * (n - len(r)) for r in cells]
    numeric = [all(_NUMBER_CELL.fullmatch(r[j]) or not r[j] for r in cells[1:]) for j in range(n)]
    widths = [max(len(r[j]) for r in cells) for j in range(n)]

    def head(r: list) -> str:
        return "  ".join(c.rjust(w) if num else c.ljust(w)
                         for c, w, num in zip(r[:-1], widths, numeric)).rstrip()
    lead = sum(widths[:-1]) + 2 * (n - 1)
    if lead + widths[-1] <= width:
        return [(head(r).ljust(lead) + r[-1]).rstrip() for r in cells]
    out = []
    # the headers are often the widest cells ("expected win % v below" over "69.1 %"): where
    # the rows fit once each header is broken between its words, it takes two or three lines
    # (a review: `fiveup ladder --shipped` broke every row mid-cell at 80 columns)
    narrow = [max([len(r[j]) for r in cells[1:]] + [len(w) for w in cells[0][j].split()] + [1])
              for j in range(n)]
    if lead > width and sum(narrow[:-1]) + 2 * (n - 1) <= width:
        widths = narrow
        parts = [textwrap.wrap(c, w, break_long_words=False) or [""] for c, w in zip(cells[0][:-1], widths)]
        depth = max(len(p) for p in parts)
        for k in range(depth):
            # (bottom-aligned: a header's last line sits on the row above the values)
            out.append(head([p[k - (depth - len(p))] if k >= depth - len(p) else "" for p in parts] + [""]))
        out += textwrap.wrap(cells[0][-1], width, initial_indent="    ", subsequent_indent="    ",
                             break_long_words=False, break_on_hyphens=False)
        cells = cells[1:]
    for r in cells:
        out += textwrap.wrap(head(r), width, subsequent_indent="    ", break_long_words=False) or [""]
        out += textwrap.wrap(r[-1], width, initial_indent="    ", subsequent_indent="    ",
                             break_long_words=False, break_on_hyphens=False)
    return out
