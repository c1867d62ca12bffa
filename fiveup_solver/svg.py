"""Board pictures as SVG, in the style of python-chess's ``chess.svg``: small pure functions, no global state.

``board_svg(game_or_moves, *, lastmove=None, arrows=(), flipped=False, size=720, title=None) -> str``
draws the current round's board as players lay it out: the opening tile in the
middle, the line running left and right of it, doubles across their line, each
spinner's branches at right angles to its line, long lines bent by 90 degrees
before they run off the picture or into other tiles; a tile is never drawn against
one it is not joined to (it would read as joined). A tile with no room next to its
port (rare on crowded boards) is drawn apart, with a dashed connector over the tiles
from a dot on its port. The scoring open ends carry
a badge with the value they count, and the end sum is written under the board.

``layout(moves) -> list[TileBox]`` gives the geometry alone (for tests and other
front ends) and ``svg_to_png(svg, path)`` renders a picture with ``cairosvg``.

>>> from fiveup_solver import Move
>>> moves = [Move.parse(m) for m in ("4-4", "4-6@4-4:lineB", "1-4@4-4:lineA")]
>>> [(str(b.tile), b.width, b.height) for b in layout(moves)]      # the double stands across the line
[('4-4', 1.0, 2.0), ('4-6', 2.0, 1.0), ('1-4', 2.0, 1.0)]
>>> svg = board_svg(moves, lastmove="1-4@4-4:lineA", arrows=[("5-6@4-6:high", "red")])
>>> svg.startswith("<svg") and svg.count("data-tile=") == 3
True
>>> 'data-end-sum="7"' in svg                                         # ends 1 + 6, the double counts 0
True
"""
from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from xml.etree.ElementTree import ParseError

from fiveup_solver.errors import FiveUpError, OptionError, check_switch, short_repr as _short
from fiveup_solver.notation import Move, Port, Tile

__all__ = ["TileBox", "layout", "board_svg", "arrow_groups", "svg_to_png", "DEFAULT_BOUNDS", "NARROW_BOUNDS"]


def _escape(text: str) -> str:
    """Text for an XML element, with &, < and > escaped (what xml.sax.saxutils.escape
    does; that module imports urllib.request, and with it http, ssl and email: about
    25 ms and 8 MB more in every process that imports the package)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _quoteattr(text: str) -> str:
    """An XML attribute value in double quotes: _escape's characters and the double
    quote escaped, and newline, return and tab as character references (which an
    attribute's value would otherwise turn into spaces)."""
    text = _escape(text).replace('"', "&quot;").replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    return f'"{text}"'


# Geometry is kept on an integer grid of half units ("q"): a tile's short side is 2 q,
# its long side 4 q. Pictures are drawn at Q pixels per q. Screen axes: x right, y down.
Q = 20
DEFAULT_BOUNDS = (-20, -14, 20, 14)     # q: where lines should stay (10 x 7 tile lengths); they bend before
# for a narrow, portrait screen (a phone): lines bend after 6 tile lengths and the board fills a
# square; shown 358 px wide, random self-play's boards were drawn at a median 0.87 of their size
# (p10 0.70, least 0.53) against 0.63 (0.48, 0.41) with DEFAULT_BOUNDS
NARROW_BOUNDS = (-12, -12, 12, 12)
MIN_EXTENT = (24, 12)                    # q: the least picture (tiles, ends, margin), so a tile is never huge
_RUNWAY = 6                              # unit cells of free line looked for ahead of a new open end
_RESERVE_FIRST = 50                      # weight of the cell right in front of an open port
_RESERVE_NEAR = 4                        # weight of the cells a double or the next straight tile there would need
_SLIDE = 12                              # cost of a tile slid along its port's face
_CROSSING = 25                           # cost of a detached tile's connector passing over a tile
_SEARCH_ON = 2                           # rings searched past the first with room, for a shorter connector
_BESIDE = ((0, 0), (0.3, 0.3), (-0.3, -0.3), (0.3, -0.3), (-0.3, 0.3))   # a connector's clearance, in q
_COLOURS = ("#2f9e44", "#e03131", "#1971c2", "#f08c00", "#9c36b5")
_COLOUR_RE = re.compile(r"^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{1,30}|rgba?\([0-9., %]{1,40}\))$")

_PIPS = {
    0: (),
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (-1, 1), (1, -1), (1, 1)),
    5: ((-1, -1), (-1, 1), (1, -1), (1, 1), (0, 0)),
    6: ((-1, -1), (0, -1), (1, -1), (-1, 1), (0, 1), (1, 1)),   # rows of three along the tile
}


# --------------------------------------------------------------------------- geometry types
@dataclass(frozen=True)
class TileBox:
    """One tile as laid out, in units of a tile's short side (a tile is 2 x 1, a double 1 x 2 across).

    ``x0, y0, x1, y1``: its rectangle (y grows downwards); ``halves``: ``((value, cx, cy), (value, cx, cy))``,
    the half that touches its parent first; ``line``: the direction ``(dx, dy)`` the line ran in where the
    tile was attached (the opening: ``(1, 0)``); ``detached``: no room next to its port (clear of the other
    tiles) was found, so it is drawn apart with a dashed connector (passing as few tiles as it can).
    """

    tile: Tile
    move: Move
    x0: float
    y0: float
    x1: float
    y1: float
    halves: tuple
    line: tuple
    detached: bool = False

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    @property
    def rect(self) -> tuple:
        return (self.x0, self.y0, self.x1, self.y1)


@dataclass(frozen=True)
class _Ghost:
    """A candidate placement drawn for an arrow (same units as :class:`TileBox`)."""

    move: Move
    box: TileBox
    colour: str
    on_board: bool      # the move is a placement already on the board: its tile is outlined


@dataclass
class _Cand:
    rect: tuple                 # q
    halves: tuple               # ((value, cx, cy), ...) in q, attaching half first
    ports: dict                 # port name -> (x, y, dx, dy) in q, every port of the tile
    attached: str | None        # the tile's own port that touches its parent
    main: str | None            # the open port the line continues from (None: the opening)
    turned: bool
    line: tuple
    detached: bool = False
    penalty: float = 0.0        # a tile slid along the port's face (still touching it) looks a little off


def _left(d):
    return (d[1], -d[0])


def _right(d):
    return (-d[1], d[0])


def _cells(rect):
    x0, y0, x1, y1 = rect
    return [(i, j) for i in range(x0, x1) for j in range(y0, y1)]


def _square(cx, cy):
    return (cx - 1, cy - 1, cx + 1, cy + 1)


def _ahead(anchor, k=0):
    """The unit square k cells in front of a port (k = 0: the cell a tile placed there covers first)."""
    x, y, dx, dy = anchor
    return _square(x + dx * (2 * k + 1), y + dy * (2 * k + 1))


def _double_area(anchor):
    """The rectangle a double attached at this port would cover."""
    x, y, dx, dy = anchor
    cx, cy = x + dx, y + dy
    return (cx - 1 - abs(dy), cy - 1 - abs(dx), cx + 1 + abs(dy), cy + 1 + abs(dx))


def _offset(c: _Cand, ox: int, oy: int, detached: bool = True, penalty: float = 0.0) -> _Cand:
    x0, y0, x1, y1 = c.rect
    ports = {n: (x + ox, y + oy, dx, dy) for n, (x, y, dx, dy) in c.ports.items()}
    if not detached:
        ports[c.attached] = c.ports[c.attached]      # still touching its parent's port
    return _Cand((x0 + ox, y0 + oy, x1 + ox, y1 + oy), tuple((v, x + ox, y + oy) for v, x, y in c.halves),
                 ports, c.attached, c.main, c.turned, c.line, detached, penalty)


def _opening(tile: Tile) -> _Cand:
    if tile.is_double:
        v = tile.lo
        return _Cand((-1, -2, 1, 2), ((v, 0, -1), (v, 0, 1)),
                     {"lineA": (-1, 0, -1, 0), "lineB": (1, 0, 1, 0), "branchA": (0, -2, 0, -1),
                      "branchB": (0, 2, 0, 1)}, None, None, False, (1, 0))
    return _Cand((-2, -1, 2, 1), ((tile.lo, -1, 0), (tile.hi, 1, 0)),
                 {"low": (-2, 0, -1, 0), "high": (2, 0, 1, 0)}, None, None, False, (1, 0))


def _attachments(tile: Tile, value: int, anchor, straight: bool = False) -> list:
    """Where `tile` may lie when attached at the port `anchor` (of pip value `value`), best first:
    a double across the line; a non-double straight on, or turned left or right (its first half in
    front of the port, its second half beside it: the line bends by 90 degrees); then the same slid
    sideways by half a unit (a double by up to a unit along itself), still touching the port.
    `straight`: the port is a double's line port, wider than the tile: a tile bent there is slid by half a
    unit towards its bend, or its far half would touch the double too."""
    x, y, dx, dy = anchor
    d = (dx, dy)
    cx, cy = x + dx, y + dy                      # centre of the cell in front of the port
    if tile.is_double:
        l, r = _left(d), _right(d)
        c = _Cand(_double_area(anchor), ((value, cx + l[0], cy + l[1]), (value, cx + r[0], cy + r[1])),
                  {"lineA": (x, y, -dx, -dy), "lineB": (cx + dx, cy + dy, dx, dy),
                   "branchA": (cx + 2 * l[0], cy + 2 * l[1]) + l,
                   "branchB": (cx + 2 * r[0], cy + 2 * r[1]) + r}, "lineA", "lineB", False, d)
        return [c] + [_offset(c, k * l[0], k * l[1], False, _SLIDE * abs(k)) for k in (1, -1, 2, -2)]
    near, far = ("low", "high") if tile.lo == value else ("high", "low")
    other = tile.hi if tile.lo == value else tile.lo
    out, slid = [], []
    for e in (d, _left(d), _right(d)):
        fx, fy = cx + 2 * e[0], cy + 2 * e[1]
        rect = (min(cx, fx) - 1, min(cy, fy) - 1, max(cx, fx) + 1, max(cy, fy) + 1)
        c = _Cand(rect, ((value, cx, cy), (other, fx, fy)),
                  {near: (x, y, -dx, -dy), far: (fx + e[0], fy + e[1]) + e}, near, far, e != d, e)
        if e == d:
            out.append(c)
            slid += [_offset(c, s[0], s[1], False, _SLIDE * 1.5) for s in (_left(d), _right(d))]
        elif straight:
            out.append(_offset(c, e[0], e[1], False, 1.0))   # the corner after a double
        else:
            out.append(c)
            slid.append(_offset(c, e[0], e[1], False, _SLIDE * 1.5))   # away from the parent only
    return out + slid


class _Board:
    """The occupancy model of one layout: tile cells, the cells open ports keep free, port anchors."""

    def __init__(self, bounds):
        self.bounds = bounds
        self.laid_in = bounds        # the bounds the tiles were laid in (_build may have widened them)
        self.occ: dict = {}          # cell -> index of the tile covering it
        self.res: dict = {}          # cell -> {port key: weight}
        self.anchor: dict = {}       # (tile, port name) -> (x, y, dx, dy) in q
        self.linked: set = set()     # (tile, port name) connected to a neighbour
        self.placed: list = []       # (tile, move, _Cand)
        self.index: dict = {}        # tile -> index in placed
        self._memo: dict = {}       # rect -> its cells (a cache)

    def cells(self, rect) -> tuple:
        out = self._memo.get(rect)
        if out is None:
            out = self._memo[rect] = tuple(_cells(rect))
        return out

    def copy(self) -> "_Board":
        b = _Board(self.bounds)
        b.laid_in = self.laid_in
        b.occ = dict(self.occ)
        b.res = {c: dict(w) for c, w in self.res.items()}
        b.anchor, b.linked = dict(self.anchor), set(self.linked)
        b.placed, b.index, b._memo = list(self.placed), dict(self.index), self._memo
        return b

    # ---- rules bookkeeping
    def is_open(self, port: Port) -> bool:
        key = (port.tile, port.name)
        if port.tile not in self.index or key in self.linked:
            return False
        if port.name.startswith("branch"):
            return (port.tile, "lineA") in self.linked and (port.tile, "lineB") in self.linked
        return True

    def open_ports(self) -> list:
        return [Port(t, n) for t, _, _ in self.placed for n in t.port_names if self.is_open(Port(t, n))]

    def scoring_ends(self) -> list:
        """(Port, counted value) per scoring end, RULES §4.1; a double's end sits at an open line port."""
        out = []
        for t, _, _ in self.placed:
            if t.is_double:
                free = [n for n in ("lineB", "lineA") if (t, n) not in self.linked]
                if free:
                    out.append((Port(t, free[0]), 2 * t.lo))
            else:
                out.extend((Port(t, n), v) for n, v in (("low", t.lo), ("high", t.hi)) if (t, n) not in self.linked)
        return out

    # ---- geometry
    def inside(self, rect) -> bool:
        bx0, by0, bx1, by1 = self.bounds
        return rect[0] >= bx0 and rect[1] >= by0 and rect[2] <= bx1 and rect[3] <= by1

    def free(self, rect, extra=()) -> bool:
        occ = self.occ
        return not any(c in occ or c in extra for c in self.cells(rect))

    def reserved(self, rect, skip) -> int:
        """Weight of other ports' reserved cells that `rect` covers (each port counted once, its largest)."""
        worst: dict = {}
        res = self.res
        for c in self.cells(rect):
            held = res.get(c)
            if held:
                for key, w in held.items():
                    if key != skip and w > worst.get(key, 0):
                        worst[key] = w
        return sum(worst.values())

    def runway(self, anchor, own, skip) -> int:
        """Free unit cells straight ahead of a port (bounded by tiles, the bounds and ports' first cells)."""
        n = 0
        res = self.res
        while n < _RUNWAY:
            sq = _ahead(anchor, n)
            if not self.inside(sq) or not self.free(sq, own):
                break
            if any(w >= _RESERVE_FIRST for c in self.cells(sq) for k, w in res.get(c, {}).items() if k != skip):
                break
            n += 1
        return n

    def cost(self, tile: Tile, cand: _Cand, parent_key, limit=None) -> float:
        """How bad a placement is (None: it covers a tile or touches one it is not joined to). Straight lines,
        free ports and the bounds are liked. Once the cost reaches `limit` (the best so far) it is returned
        without the rest."""
        occ = self.occ
        own = self.cells(cand.rect)
        if any(c in occ for c in own):
            return None
        # a tile against one it is not joined to, edge to edge or corner to corner, reads as joined to it
        # (a branch that turned ran its end tile against the line beside it): at least a unit apart
        x0, y0, x1, y1 = cand.rect
        parent = self.index.get(parent_key[0]) if parent_key is not None else None
        if any(occ.get(c, parent) != parent for c in self.cells((x0 - 1, y0 - 1, x1 + 1, y1 + 1))):
            return None
        own = set(own)
        skip = parent_key          # the tile's own ports reserve nothing yet
        cost = self.reserved(cand.rect, skip)
        if not self.inside(cand.rect):
            bx0, by0, bx1, by1 = self.bounds
            x0, y0, x1, y1 = cand.rect
            cost += 30 + 4 * (max(0, bx0 - x0) + max(0, by0 - y0) + max(0, x1 - bx1) + max(0, y1 - by1))
        for name, anchor in cand.ports.items():
            if name == cand.attached:
                continue
            first = _ahead(anchor)
            if not self.free(first):
                cost += 40
            else:
                held = self.reserved(first, skip)
                cost += 20 if held >= _RESERVE_FIRST else held / 2
            if not self.inside(first):
                cost += 10
        if cand.turned:
            cost += 2
        cost += cand.penalty
        if cand.main is not None and (limit is None or cost < limit):
            r = self.runway(cand.ports[cand.main], own, skip)
            cost += 8 if r == 0 else 4 if r == 1 else (_RUNWAY - r) * 0.3
        return cost

    def crossed(self, anchor, cand: _Cand, parent_key, own=None, stop=1000) -> int:
        """How many tiles other than the parent (and the tile itself, index `own` once placed) the
        connector from the port `anchor` to a detached `cand` (to its attaching half's centre, as
        drawn) passes over; counted up to `stop`."""
        x, y, dx, dy = anchor
        _, hx, hy = cand.halves[0]
        # leaving its port backwards, it runs over the parent and out of the wrong end
        hits = int((hx - x) * dx + (hy - y) * dy <= 0)
        parent = self.index.get(parent_key[0])
        occ = self.occ
        steps = 2 * int(max(abs(hx - x), abs(hy - y)) + 1)       # half a cell apart, +-0.3 beside: no cell skipped
        seen = set()
        for k in range(1, steps + 1):
            px, py = x + (hx - x) * k / steps, y + (hy - y) * k / steps
            for ox, oy in _BESIDE:        # (a line grazing a tile's edge reads as touching it too)
                i = occ.get((math.floor(px + ox), math.floor(py + oy)))
                if i is not None and i != parent and i != own and i not in seen:
                    seen.add(i)
                    hits += 1
                    if hits >= stop:
                        return hits
        return hits

    def crossings(self) -> int:
        """Tiles passed over by the connectors of the detached tiles, summed (tiles laid later count too)."""
        return sum(self.crossed(self.anchor[(m.at.tile, m.at.name)], c, (m.at.tile, m.at.name), own=k)
                   for k, (_, m, c) in enumerate(self.placed) if c.detached)

    def choose(self, tile: Tile, value: int, parent_key) -> _Cand:
        anchor = self.anchor[parent_key]
        best, best_cost = None, None
        options = _attachments(tile, value, anchor, parent_key[0].is_double and parent_key[1].startswith("line"))
        for cand in options:
            if best_cost is not None and cand.penalty >= best_cost:
                continue                   # a slid tile never beats a cheaper plain one
            c = self.cost(tile, cand, parent_key, best_cost)
            if c is not None and (best_cost is None or c < best_cost):
                best, best_cost = cand, c
        if best is not None:
            return best
        # no room next to the port: the nearest free spot, drawn apart with a connector (last resort)
        best, best_cost, last = None, None, 200
        for ring in range(1, 200):
            if best is not None and (3 * ring >= best_cost or ring > last):
                break                      # (costs are not negative: no farther ring can be cheaper)
            if best is not None and last == 200:
                last = ring + _SEARCH_ON      # (a little farther, for a connector passing fewer tiles)
            for ox in range(-ring, ring + 1):
                for oy in range(-ring, ring + 1):
                    if max(abs(ox), abs(oy)) != ring:
                        continue
                    for cand in options:
                        moved = _offset(cand, 2 * ox, 2 * oy)
                        # a connector passing over a tile reads as leaving that tile (counted first,
                        # as far as the spot could still be the best: it is cheaper than the cost)
                        stop = 1000 if best_cost is None else math.ceil((best_cost - 3 * ring) / _CROSSING)
                        c = 3 * ring + _CROSSING * self.crossed(anchor, moved, parent_key, stop=stop)
                        if best_cost is not None and c >= best_cost:
                            continue
                        more = self.cost(tile, moved, parent_key, None if best_cost is None else best_cost - c)
                        if more is not None and (best_cost is None or c + more < best_cost):
                            best, best_cost = moved, c + more
        if best is not None:
            return best
        raise OptionError(f"no room on the picture for {tile}")   # pragma: no cover - the rings always end

    def put(self, tile: Tile, move: Move, cand: _Cand, parent_key) -> None:
        k = len(self.placed)
        self.placed.append((tile, move, cand))
        self.index[tile] = k
        for c in self.cells(cand.rect):
            self.occ[c] = k
        for name, anchor in cand.ports.items():
            self.anchor[(tile, name)] = anchor
        if parent_key is not None:
            self.linked.add(parent_key)
            self.linked.add((tile, cand.attached))
            self._unreserve(parent_key)
        for name, anchor in cand.ports.items():
            if (tile, name) not in self.linked:
                self._reserve((tile, name), anchor)

    def _reserve(self, key, anchor) -> None:
        first = _ahead(anchor)
        for rect, w in ((_double_area(anchor), _RESERVE_NEAR), (_ahead(anchor, 1), _RESERVE_NEAR),
                        (first, _RESERVE_FIRST)):
            for c in self.cells(rect):
                self.res.setdefault(c, {})[key] = w

    def swap_branches(self, double: Tile) -> None:
        """Let a spinner's two unopened branches trade sides (by the rules either may be opened first)."""
        a, b = (double, "branchA"), (double, "branchB")
        for key in (a, b):
            self._unreserve(key, first=True)
        self.anchor[a], self.anchor[b] = self.anchor[b], self.anchor[a]
        for key in (a, b):
            self._reserve(key, self.anchor[key])

    def _unreserve(self, key, first: bool = False) -> None:
        """Free the cells a port reserved (its first cell too when `first`: a tile there covers it anyway)."""
        anchor = self.anchor[key]
        for c in self.cells(_double_area(anchor)) + self.cells(_ahead(anchor, 1)) + \
                (self.cells(_ahead(anchor)) if first else ()):
            held = self.res.get(c)
            if held and key in held:
                del held[key]
                if not held:
                    del self.res[c]


# --------------------------------------------------------------------------- input
def _open_port_for(board, tile, move, where: str):
    """The open port `move` attaches `tile` to (OptionError naming `where` if none)."""
    port = move.at
    if not board.is_open(port):
        raise OptionError(f"{where}: port {port} is not open on the board")
    if port.value not in (tile.lo, tile.hi):
        raise OptionError(f"{where}: {tile} has no half {port.value} for port {port}")
    return port


def _as_move(item, what: str) -> Move:
    if isinstance(item, Move):
        move = item
    elif isinstance(item, str):
        try:
            move = Move.parse(item.strip())
        except FiveUpError as e:
            raise OptionError(f"{what}: {e}") from None
    elif isinstance(item, Tile):
        move = Move.play(item)
    else:
        raise OptionError(f"{what} must be a Move or a move string like '3-4@4-4:lineB', not {_short(item)}")
    if move.kind not in ("play", "draw", "pass") or (move.kind == "play" and not isinstance(move.tile, Tile)) \
            or (move.at is not None and not isinstance(move.at, Port)):
        raise OptionError(f"{what}: malformed move {_short(move)}")
    return move


def _is_game(x) -> bool:
    """A Game, known by its rounds and current round: svg sits below game in the layers
    (Game._repr_svg_ draws with it), so it cannot import the class to test for it."""
    return hasattr(x, "rounds") and isinstance(getattr(type(x), "current", None), property)


def _placements(game_or_position) -> list:
    """The placements, in order, of a Game's current round or of a list of moves (draws and passes skipped;
    ``(seat, move)`` pairs as in ``game.current.moves`` are accepted too)."""
    if _is_game(game_or_position):
        if not game_or_position.rounds:
            return []
        return [m for _, m in game_or_position.current.moves if m.kind == "play"]
    if isinstance(game_or_position, (str, bytes, dict)) or not hasattr(game_or_position, "__iter__"):
        raise OptionError(f"a board is a Game or a list of moves, not {_short(game_or_position)}")
    out = []
    for i, item in enumerate(game_or_position):
        if isinstance(item, tuple) and len(item) == 2 and not isinstance(item[0], Move):
            if isinstance(item[0], bool) or not isinstance(item[0], int) or not 0 <= item[0] <= 3:
                # (a review: the seat of a (seat, move) pair was never looked at)
                raise OptionError(f"move {i}: a (seat, move) pair's seat must be 0..3, not {_short(item[0])}")
            item = item[1]
        move = _as_move(item, f"move {i}")
        if move.kind == "play":
            out.append(move)
    return out


def _last_credit(game) -> str | None:
    """What the placement that made a Game's current board credited, as the game recorded
    it: " \u2014 scores 25", " \u2014 25 not counted (above 305)", " \u2014 hand emptied: +30"
    (the last tile's sum is part of the domino credit, RULES §6.3); "" for no credit. None
    where the round has no placement."""
    events = game.current.last_placement_events()
    if events is None:
        return None
    for e in events:
        if e.kind not in ("placement", "domino"):
            continue
        what = f"{e.raw}" if e.kind == "placement" else f"hand emptied: {e.raw:+d}"
        if not e.accepted:
            return f" \u2014 {what} not counted (above 305)"
        return f" \u2014 scores {e.raw}" if e.kind == "placement" else f" \u2014 {what}"
    return ""


def _entry(px, py, cx, cy, rect) -> float:
    """Where the segment from (px, py) to the point (cx, cy) inside `rect` enters it, as a share of the segment."""
    t = 0.0
    for d, lo, hi, v in ((cx - px, rect[0], rect[2], px), (cy - py, rect[1], rect[3], py)):
        if d:
            t = max(t, min((lo - v) / d, (hi - v) / d))
    return min(t, 1.0)


def _build(moves, bounds) -> _Board:
    """Lay the moves out; when some tile finds no room next to its port, lay them all out again in wider
    bounds and keep the layout with the fewest tiles drawn apart, then the fewest tiles under their
    connectors (the first such, so usually the plain one)."""
    best = None
    x0, y0, x1, y1 = bounds
    for gx, gy in ((0, 0), (4, 0), (0, 4), (4, 4), (8, 6)):
        board = _lay(moves, (x0 - gx, y0 - gy, x1 + gx, y1 + gy))
        apart = sum(c.detached for _, _, c in board.placed)
        fault = (apart, board.crossings() if apart else 0)
        if best is None or fault < best[0]:
            best = (fault, board)
        if fault == (0, 0):
            break
    board = best[1]
    board.laid_in, board.bounds = board.bounds, bounds
    return board


def _lay(moves, bounds) -> _Board:
    board = _Board(bounds)
    for i, move in enumerate(moves):
        tile = move.tile
        if tile in board.index:
            raise OptionError(f"move {i} ({move}): {tile} is already on the board")
        if move.at is None:
            if board.placed:
                raise OptionError(f"move {i} ({move}): only the first placement opens the board")
            board.put(tile, move, _opening(tile), None)
            continue
        if not board.placed:
            raise OptionError(f"move {i} ({move}): the first placement must open the board (no '@')")
        port = _open_port_for(board, tile, move, f"move {i} ({move})")
        key = (port.tile, port.name)
        cand, _ = _place(board, tile, port)
        board.put(tile, move, cand, key)
    return board


def _place(board: _Board, tile: Tile, port: Port) -> tuple:
    """(cand, swapped): where `tile` goes at the open `port`, as the layout lays it. When a
    spinner's first branch finds no room on its side, it opens on the other side (RULES
    §3.4: branchA and branchB are one placement): the board's two branches are left
    swapped (``swapped`` True) and the port's anchor is the other side's."""
    key = (port.tile, port.name)
    cand = board.choose(tile, port.value, key)
    other = (port.tile, "branchB" if port.name == "branchA" else "branchA")
    if cand.detached and port.name.startswith("branch") and other not in board.linked:
        # the spinner's first branch finds no room on its side: open it on the other side
        board.swap_branches(port.tile)
        swapped = board.choose(tile, port.value, key)
        if not swapped.detached:
            return swapped, True
        board.swap_branches(port.tile)
    return cand, False


def _box(tile: Tile, move: Move, c: _Cand) -> TileBox:
    x0, y0, x1, y1 = c.rect
    return TileBox(tile, move, x0 / 2, y0 / 2, x1 / 2, y1 / 2,
                   tuple((v, x / 2, y / 2) for v, x, y in c.halves), c.line, c.detached)


def _check_bounds(bounds):
    if not (isinstance(bounds, (tuple, list)) and len(bounds) == 4 and all(
            isinstance(b, int) and not isinstance(b, bool) for b in bounds)
            and bounds[0] + 4 <= 0 <= bounds[2] - 4 and bounds[1] + 4 <= 0 <= bounds[3] - 4):
        raise OptionError(f"bounds must be 4 integers (x0, y0, x1, y1) in half units around 0, not {_short(bounds)}")
    return tuple(bounds)


def layout(moves, *, bounds=DEFAULT_BOUNDS) -> list:
    """The tiles of a board (a Game's current round, or its placements in order) as :class:`TileBox` es.

    Each placement is laid in order, next to the port it attaches to: straight on when there is room,
    otherwise bent by 90 degrees (or slid along the port's face), never over another tile nor against one
    it is not joined to (edge or corner: at least half a tile's short side apart). `bounds`
    (half units, x0 y0 x1 y1) is where lines should stay. The layout of a prefix of the moves is a prefix
    of the layout, except when the longer board had to be laid out again in wider bounds to find room.

    >>> [b.rect for b in layout(["2-5", "5-5@2-5:high"])]
    [(-1.0, -0.5, 1.0, 0.5), (1.0, -1.0, 2.0, 1.0)]
    """
    board = _build(_placements(moves), _check_bounds(bounds))
    return [_box(t, m, c) for t, m, c in board.placed]


# --------------------------------------------------------------------------- drawing
def _f(v: float) -> str:
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _colour(c, what: str) -> str:
    if not isinstance(c, str) or not _COLOUR_RE.match(c.strip()):
        raise OptionError(f"{what}: bad colour {_short(c)} (use a name like 'red' or '#rrggbb')")
    return c.strip()


def _arrow_items(arrows) -> list:
    if arrows is None:
        return []
    if isinstance(arrows, (str, Move)):
        arrows = [arrows]
    if not hasattr(arrows, "__iter__") or isinstance(arrows, (bytes, dict)):
        raise OptionError(f"arrows must be a list of moves or (move, colour) pairs, not {_short(arrows)}")
    out = []
    for i, item in enumerate(arrows):
        if isinstance(item, (tuple, list)):
            if len(item) != 2:
                raise OptionError(f"arrow {i} must be a move or a (move, colour) pair, not {_short(item)}")
            move, colour = _as_move(item[0], f"arrow {i}"), _colour(item[1], f"arrow {i}")
        else:
            move, colour = _as_move(item, f"arrow {i}"), _COLOURS[i % len(_COLOURS)]
        if move.kind != "play":
            raise OptionError(f"arrow {i}: {move} is not a placement")
        out.append((move, colour))
    return out


def _shared_end(items) -> tuple | None:
    """(j, i, end) of the first two arrows (j < i) that take one open end, or are both
    openings (an empty board's one place), or None."""
    ends = ["the opening" if m.at is None else str(m.at) for m, _ in items]
    for i, end in enumerate(ends):
        if ends.index(end) != i:
            return ends.index(end), i, end
    return None


def _find_placed(board: _Board, move: Move, what: str, by_tile: bool = False):
    """The placed (tile, move, cand) of a move on the board, or None when it is not placed."""
    k = board.index.get(move.tile)
    if k is None:
        return None
    placed = board.placed[k]
    if placed[1] == move or (by_tile and move.at is None):
        return placed
    raise OptionError(f"{what} {move}: {move.tile} is on the board as {placed[1]}")


def arrow_groups(arrows) -> list:
    """The boards a set of arrows is drawn on: one board with them all, or, when two of
    them are placements at the same open port or two openings (a played and a best
    move on one end), one board each, so that every ghost tile lies at its own end
    (on one board the second would be pushed aside). ``arrows`` as :func:`board_svg`
    takes them; each group is a list of ``(Move, colour)`` pairs.

    >>> [len(g) for g in arrow_groups(["1-1@1-5:low", "1-3@1-5:low"])]
    [1, 1]
    >>> [len(g) for g in arrow_groups(["1-1@1-5:low", "5-6@1-5:high"])]
    [2]
    >>> [len(g) for g in arrow_groups(["0-0", "5-5"])]      # two openings
    [1, 1]
    """
    items = _arrow_items(arrows)
    # opening tiles (no port) all lie in the middle of an empty board: one end too
    return [items] if _shared_end(items) is None else [[item] for item in items]


def _ghosts(board: _Board, arrows) -> list:
    """(Ghost, anchor of its port in q or None, cand in q) per arrow; ghosts do not cover each other."""
    scratch = board.copy()
    # in the bounds the board was laid in, as the layout lays the tile after the move (a board
    # laid again in wider bounds by _build: its ghosts were placed for the narrower ones)
    scratch.bounds = board.laid_in
    out = []
    for i, (move, colour) in enumerate(arrows):
        placed = _find_placed(board, move, f"arrow {i}")
        if placed is not None:
            t, m, c = placed
            anchor = None if m.at is None else board.anchor[(m.at.tile, m.at.name)]
            out.append((_Ghost(move, _box(t, m, c), colour, True), anchor, c))
            continue
        tile = move.tile
        if move.at is None:
            if board.placed:
                raise OptionError(f"arrow {i} {move}: the board is already open")
            cand, anchor = _opening(tile), None
            if not scratch.free(cand.rect):
                cand = _offset(cand, 0, 4 * len(out))
        else:
            port = _open_port_for(board, tile, move, f"arrow {i} {move}")
            key = (port.tile, port.name)
            # laid as the layout lays it once the move is made (_place): a spinner's branch
            # with no room on its side opens on the other (a review: the ghost of a branchA
            # move was drawn apart, at a far free cell, where the board puts the tile on
            # the other side)
            cand, swapped = _place(scratch, tile, port)
            anchor = scratch.anchor[key]
            if swapped:
                scratch.swap_branches(port.tile)     # the other arrows see the board's own ports
        for c in _cells(cand.rect):
            scratch.occ[c] = -1 - i
        out.append((_Ghost(move, _box(tile, move, cand), colour, False), anchor, cand))
    return out


def _tile_svg(cand: _Cand, tf, *, attrs: str, fill: str, stroke: str, pip: str, dash: bool = False) -> list:
    x0, y0, x1, y1 = tf.rect(cand.rect)
    inset = 1.5
    horizontal = (x1 - x0) > (y1 - y0)
    out = [f"<g {attrs}>",
           f'<rect x="{_f(x0 + inset)}" y="{_f(y0 + inset)}" width="{_f(x1 - x0 - 2 * inset)}" '
           f'height="{_f(y1 - y0 - 2 * inset)}" rx="6" fill="{fill}" stroke="{stroke}" stroke-width="1.6"'
           + (' stroke-dasharray="5 3"' if dash else "") + "/>"]
    if horizontal:
        mx = (x0 + x1) / 2
        out.append(f'<line x1="{_f(mx)}" y1="{_f(y0 + 6)}" x2="{_f(mx)}" y2="{_f(y1 - 6)}" '
                   f'stroke="{stroke}" stroke-width="1.2"/>')
    else:
        my = (y0 + y1) / 2
        out.append(f'<line x1="{_f(x0 + 6)}" y1="{_f(my)}" x2="{_f(x1 - 6)}" y2="{_f(my)}" '
                   f'stroke="{stroke}" stroke-width="1.2"/>')
    step = 0.52 * Q
    for value, cx, cy in cand.halves:
        px, py = tf.pt(cx, cy)
        for u, v in _PIPS[value]:
            dx, dy = (u, v) if horizontal else (v, u)
            out.append(f'<circle cx="{_f(px + dx * step)}" cy="{_f(py + dy * step)}" r="{_f(0.19 * Q)}" '
                       f'fill="{pip}"/>')
    out.append("</g>")
    return out


def _distance_to_segment(px, py, x1, y1, x2, y2) -> float:
    """The distance from the point (px, py) to the segment from (x1, y1) to (x2, y2)."""
    dx, dy = x2 - x1, y2 - y1
    n2 = dx * dx + dy * dy
    t = 0.0 if n2 == 0 else max(0.0, min(1.0, ((px - x1) * dx + (py - y1) * dy) / n2))
    cx, cy = x1 + t * dx - px, y1 + t * dy - py
    return (cx * cx + cy * cy) ** 0.5


def _arrow_svg(x1, y1, x2, y2, colour) -> list:
    dx, dy = x2 - x1, y2 - y1
    n = (dx * dx + dy * dy) ** 0.5 or 1.0
    ux, uy = dx / n, dy / n
    head = 0.7 * Q
    bx, by = x2 - ux * head, y2 - uy * head
    w = 0.42 * Q
    pts = f"{_f(x2)},{_f(y2)} {_f(bx - uy * w)},{_f(by + ux * w)} {_f(bx + uy * w)},{_f(by - ux * w)}"
    return [f'<line x1="{_f(x1)}" y1="{_f(y1)}" x2="{_f(bx)}" y2="{_f(by)}" stroke="{colour}" '
            f'stroke-width="{_f(0.28 * Q)}" stroke-linecap="round" opacity="0.85"/>',
            f'<polygon points="{pts}" fill="{colour}" opacity="0.85"/>']


class _Transform:
    """Board q coordinates to picture pixels (turned by 180 degrees when flipped)."""

    def __init__(self, flipped: bool):
        self.s = -Q if flipped else Q

    def pt(self, x, y):
        return (x * self.s, y * self.s)

    def rect(self, r):
        ax, ay = self.pt(r[0], r[1])
        bx, by = self.pt(r[2], r[3])
        return (min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))


def board_svg(game_or_position, *, lastmove=None, arrows=(), flipped=False, size=720, title=None,
              bounds=DEFAULT_BOUNDS) -> str:
    """An SVG picture of a board: a :class:`~fiveup_solver.game.Game` (its current round) or a list of
    placements in order (Moves, move strings or ``(seat, move)`` pairs; draws and passes are skipped).

    ``lastmove``: a placement on the board (or just its tile), outlined. ``arrows``: moves, or
    ``(move, colour)`` pairs, drawn as an arrow from their port to a ghost tile where they would lie
    (a move already on the board is outlined instead). ``flipped`` turns the picture by 180 degrees;
    ``size`` is the longer side in pixels; ``bounds`` (half units) is where lines should stay.
    Every tile is a ``<g data-tile="a-b">``, every open port carries ``data-port``, every scoring end
    ``data-end`` and ``data-value``, and the end sum is on ``data-end-sum``.
    """
    if isinstance(size, bool) or not isinstance(size, (int, float)) or not 16 <= size <= 20000:
        raise OptionError(f"size must be a number of pixels from 16 to 20000, not {_short(size)}")
    if title is not None and not isinstance(title, str):
        raise OptionError(f"title must be a string, not {_short(title)}")
    flipped = check_switch("flipped", flipped)
    board = _build(_placements(game_or_position), _check_bounds(bounds))
    last = None
    if lastmove is not None:
        lm = _as_move(lastmove, "lastmove")
        if lm.kind != "play":
            raise OptionError(f"lastmove {lm} is not a placement")
        last = _find_placed(board, lm, "lastmove", by_tile=True)
        if last is None:
            raise OptionError(f"lastmove {lm} is not on the board")
    items = _arrow_items(arrows)
    shared = _shared_end(items)
    if shared is not None:
        # (a review: the second ghost was drawn apart from every port, at a spot that means nothing)
        raise OptionError(f"arrows {shared[0]} and {shared[1]} both take {shared[2]}: draw them on a board each "
                          "(svg.arrow_groups)")
    ghosts = _ghosts(board, items)
    tf = _Transform(flipped)
    ends = board.scoring_ends()
    end_sum = sum(v for _, v in ends)
    scores = end_sum > 0 and end_sum % 5 == 0

    # ---- picture extent: tiles, ghosts, the cells the end badges sit in
    rects = [tf.rect(c.rect) for _, _, c in board.placed] + [tf.rect(g[2].rect) for g in ghosts]
    rects += [tf.rect(_ahead(board.anchor[(p.tile, p.name)])) for p in board.open_ports()]
    if not rects:
        rects = [tf.rect((-4, -2, 4, 2))]
    pad = 0.8 * Q
    x0 = min(r[0] for r in rects) - pad
    y0 = min(r[1] for r in rects) - pad
    x1 = max(r[2] for r in rects) + pad
    y1 = max(r[3] for r in rects) + pad
    # at least MIN_EXTENT: an opening's one or two tiles were drawn 3-4 times as large as a
    # round's board, and "empty board" in 30-60 px type (a review)
    grow_x = max(0.0, (MIN_EXTENT[0] * Q - (x1 - x0)) / 2)
    grow_y = max(0.0, (MIN_EXTENT[1] * Q - (y1 - y0)) / 2)
    x0, x1, y0, y1 = x0 - grow_x, x1 + grow_x, y0 - grow_y, y1 + grow_y
    font = 0.8 * Q
    if not board.placed:
        caption = "empty board"
    else:
        terms = " + ".join(str(v) for _, v in ends) or "0"
        # a Game says what its last placement credited (a review: "scores 25" was written under
        # a placement the exact target rejected, and under a last tile whose credit was the
        # domino's); a list of moves knows no scores: the sum is only said to be a multiple of 5
        credit = _last_credit(game_or_position) if _is_game(game_or_position) else None
        if credit is None:
            credit = " (a multiple of 5)" if scores else ""
        caption = f"ends {terms} = {end_sum}{credit}"
    need = max(len(caption) * 0.56 * font, len(title or "") * 0.6 * font * 1.1) + 2 * pad
    if x1 - x0 < need:
        grow = (need - (x1 - x0)) / 2
        x0, x1 = x0 - grow, x1 + grow
    head = 1.6 * font if title else 0.0
    foot = 1.7 * font
    tall = (y1 - y0) + head + foot - (x1 - x0)
    if tall > 0:
        # never taller than wide: `size` is the longer side, and an opening's two ghost tiles
        # stacked drew larger than every other board of a report (a page sets the width)
        x0, x1 = x0 - tall / 2, x1 + tall / 2
    vx, vy, vw, vh = x0, y0 - head, x1 - x0, (y1 - y0) + head + foot
    scale = size / max(vw, vh)
    width, height = max(1, round(vw * scale)), max(1, round(vh * scale))

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" height="{height}" '
           f'viewBox="{_f(vx)} {_f(vy)} {_f(vw)} {_f(vh)}" class="fiveup-board" role="img" '
           f'aria-label={_quoteattr(_label(title, len(board.placed), caption, ends))}>']
    if title:
        out.append(f"<title>{_escape(title)}</title>")
    out.append(f'<rect x="{_f(vx)}" y="{_f(vy)}" width="{_f(vw)}" height="{_f(vh)}" fill="#2b6e44"/>')
    if title:
        out.append(f'<text x="{_f(vx + vw / 2)}" y="{_f(vy + 1.15 * font)}" text-anchor="middle" '
                   f'font-family="sans-serif" font-weight="bold" font-size="{_f(font * 1.1)}" fill="#ffffff">'
                   f"{_escape(title)}</text>")

    # ---- tiles
    for tile, move, cand in board.placed:
        is_last = last is not None and last[0] == tile
        if is_last:
            lx0, ly0, lx1, ly1 = tf.rect(cand.rect)
            out.append(f'<rect class="lastmove" data-lastmove="{move}" x="{_f(lx0 - 2)}" y="{_f(ly0 - 2)}" '
                       f'width="{_f(lx1 - lx0 + 4)}" height="{_f(ly1 - ly0 + 4)}" rx="8" fill="#ffd43b"/>')
        attrs = (f'class="tile{" lastmove" if is_last else ""}" data-tile="{tile}" '
                 f'data-move={_quoteattr(str(move))}' + (' data-detached="1"' if cand.detached else ""))
        out += _tile_svg(cand, tf, attrs=attrs, fill="#fbf8ee", stroke="#222222", pip="#1a1a1a")

    # ---- a connector from its port to any tile that found no room there: over the tiles, so that
    # one it must pass does not seem to hold the tile; from a dot on the port to the tile's edge
    for tile, move, cand in board.placed:
        if cand.detached:
            ax, ay, _, _ = board.anchor[(move.at.tile, move.at.name)]
            (px, py), (cx, cy) = tf.pt(ax, ay), tf.pt(cand.halves[0][1], cand.halves[0][2])
            t = _entry(px, py, cx, cy, tf.rect(cand.rect))
            qx, qy = px + t * (cx - px), py + t * (cy - py)
            seg = f'x1="{_f(px)}" y1="{_f(py)}" x2="{_f(qx)}" y2="{_f(qy)}"'
            out.append(f'<g class="connector" data-connects={_quoteattr(str(move))}>'
                       f'<line {seg} stroke="#1a1a1a" stroke-width="5" stroke-linecap="round" opacity="0.55"/>'
                       f'<line {seg} stroke="#f8f9fa" stroke-width="2.5" stroke-dasharray="6 4"/>'
                       f'<circle cx="{_f(px)}" cy="{_f(py)}" r="4" fill="#f8f9fa" stroke="#1a1a1a"/></g>')

    # ---- open ports: a dot each; where a ghost lies on the port, under the ghost (a review saw
    # the dot over the ghost; the dot stays, the play page's click target on that end)
    end_at = {p: v for p, v in ends}
    badge = "#fab005" if scores else "#ff8c42"
    ghost_at = {anchor for g, anchor, _ in ghosts if anchor is not None and not g.on_board}
    dots = {True: [], False: []}
    for port in board.open_ports():
        ax, ay, dx, dy = board.anchor[(port.tile, port.name)]
        if port in end_at:
            continue
        px, py = tf.pt(ax + 0.8 * dx, ay + 0.8 * dy)
        dots[(ax, ay, dx, dy) in ghost_at].append(
            f'<circle class="port" data-port="{port}" data-value="{port.value}" cx="{_f(px)}" '
            f'cy="{_f(py)}" r="{_f(0.32 * Q)}" fill="#a5d8ff" stroke="#1c7ed6" stroke-width="1.5"/>')
    out += dots[True]

    # ---- ghost tiles where candidate moves would lie (under the badges, which stay readable)
    for ghost, _, cand in ghosts:
        if not ghost.on_board:
            out += _tile_svg(cand, tf, attrs=f'class="ghost" data-ghost={_quoteattr(str(ghost.move))} '
                             f'opacity="0.75"', fill="#ffffff", stroke=ghost.colour, pip=ghost.colour, dash=True)

    # ---- the other open ports, and the scoring ends
    out += dots[False]
    for port, value in ends:
        ax, ay, dx, dy = board.anchor[(port.tile, port.name)]
        span = 1.6 if port.tile.is_double else 0.7
        (bx1, by1), (bx2, by2) = tf.pt(ax - dy * span, ay + dx * span), tf.pt(ax + dy * span, ay - dx * span)
        px, py = tf.pt(ax + 0.85 * dx, ay + 0.85 * dy)
        out += [f'<g class="end" data-end="{port}" data-port="{port}" data-value="{value}">',
                f'<line x1="{_f(bx1)}" y1="{_f(by1)}" x2="{_f(bx2)}" y2="{_f(by2)}" stroke="{badge}" '
                f'stroke-width="4" stroke-linecap="round"/>',
                f'<circle cx="{_f(px)}" cy="{_f(py)}" r="{_f(0.62 * Q)}" fill="{badge}" stroke="#ffffff" '
                f'stroke-width="1.5"/>',
                f'<text x="{_f(px)}" y="{_f(py + 0.26 * Q)}" text-anchor="middle" font-family="sans-serif" '
                f'font-weight="bold" font-size="{_f(0.75 * Q)}" fill="#1a1a1a">{value}</text>', "</g>"]

    # ---- arrows: from the port's half into the ghost tile (or the tile on the board, outlined)
    segments = []           # each arrow's shaft, start to tip in pixels
    for ghost, anchor, cand in ghosts:
        out.append(f'<g class="arrow" data-move={_quoteattr(str(ghost.move))} data-colour="{ghost.colour}">')
        gx0, gy0, gx1, gy1 = tf.rect(cand.rect)
        if ghost.on_board:
            out.append(f'<rect x="{_f(gx0 - 1)}" y="{_f(gy0 - 1)}" width="{_f(gx1 - gx0 + 2)}" '
                       f'height="{_f(gy1 - gy0 + 2)}" rx="7" fill="none" stroke="{ghost.colour}" '
                       f'stroke-width="4"/>')
        if anchor is not None:
            ax, ay, dx, dy = anchor
            sx, sy = tf.pt(ax - 1.0 * dx, ay - 1.0 * dy)
            out += _arrow_svg(sx, sy, (gx0 + gx1) / 2, (gy0 + gy1) / 2, ghost.colour)
            segments.append((sx, sy, (gx0 + gx1) / 2, (gy0 + gy1) / 2))
        out.append("</g>")
    # an arrow leaving a scoring end crosses its badge, and one may pass over another end's (a
    # browser review): such an end's number again on top, outlined (not a click target: a click
    # falls through to the end below, which the app plays on)
    arrow_anchors = {anchor for _, anchor, _ in ghosts if anchor is not None}
    for port, value in ends:
        ax, ay, dx, dy = board.anchor[(port.tile, port.name)]
        px, py = tf.pt(ax + 0.85 * dx, ay + 0.85 * dy)
        # the badge's radius and stroke, and the arrowhead's half width: near enough to cover it
        crossed = any(_distance_to_segment(px, py, *seg) < 0.62 * Q + 0.42 * Q + 1.5 for seg in segments)
        if (ax, ay, dx, dy) in arrow_anchors or crossed:
            out.append(f'<text class="endlabel" data-end="{port}" x="{_f(px)}" y="{_f(py + 0.26 * Q)}" '
                       f'text-anchor="middle" font-family="sans-serif" font-weight="bold" '
                       f'font-size="{_f(0.75 * Q)}" fill="#1a1a1a" stroke="#ffffff" stroke-width="1.5" '
                       f'paint-order="stroke" pointer-events="none">{value}</text>')

    out.append(f'<text class="endsum" data-end-sum="{end_sum}" x="{_f(vx + vw / 2)}" '
               f'y="{_f(y1 + foot * 0.62)}" text-anchor="middle" font-family="sans-serif" '
               f'font-size="{_f(font)}" fill="{"#ffe066" if scores else "#ffffff"}"'
               + (' font-weight="bold"' if scores else "") + f">{_escape(caption)}</text>")
    out.append("</svg>")
    return "\n".join(out)


def _label(title, tiles: int, caption: str, ends=()) -> str:
    """A board's text alternative (a review: a screen reader had nothing): its title, the tiles
    laid, its caption, and each counting end by its port with its value (an accessibility
    review: the sum alone did not say which end holds what, which a sighted player reads off
    the badges)."""
    laid = "an empty board" if not tiles else f"{tiles} tile{'s' if tiles != 1 else ''} laid; {caption}"
    if tiles and ends:
        laid += "; the ends: " + ", ".join(
            f"the double {port.tile} shows {value}" if port.tile.is_double else f"{port} shows {value}"
            for port, value in ends)
    return f"{title}: {laid}" if title else laid[0].upper() + laid[1:]


def svg_to_png(svg_text: str, path) -> str:
    """Render an SVG picture to a PNG file with ``cairosvg``; returns the path written."""
    if not isinstance(svg_text, str) or not svg_text.lstrip().startswith("<svg"):
        raise OptionError(f"svg_to_png needs the text of an SVG picture, not {_short(svg_text)}")
    if not isinstance(path, (str, os.PathLike)) or not str(path):
        # str(None) would have written a file named "None"
        raise OptionError(f"svg_to_png writes to a file path, not {_short(path)}")
    path = str(path)
    if not path.lower().endswith(".png"):
        # (a review: PNG bytes were written to "x.svg" without a word; the command line checks this)
        raise OptionError(f"svg_to_png writes a PNG file: give a name ending in .png, not {_short(path, 80)}")
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path) or not os.path.isdir(folder):
        # (cairo's own error for this is a status code: name the cause as the SVG writer does)
        raise OptionError(f"cannot write {_short(path, 80)} "
                          f"({'Is a directory' if os.path.isdir(path) else 'No such file or directory'})")
    try:
        import cairosvg
    except (ImportError, OSError):
        raise OptionError("PNG output needs cairosvg: install the analysis extra: "
                          "pip install 'fiveup_solver[analysis]'") from None
    try:
        png = cairosvg.svg2png(bytestring=svg_text.encode("utf-8"))
    except (ValueError, ParseError) as e:
        # (a review: XML's ParseError, no ValueError, and cairosvg's "The SVG size is undefined")
        raise OptionError(f"svg_to_png: not an SVG picture it can draw ({e})") from None
    try:
        # written here, not by cairo: its write error is a status code (a review)
        with open(path, "wb") as f:
            f.write(png)
    except OSError as e:
        raise OptionError(f"cannot write {_short(path, 80)} ({e.strerror or e})") from None
    return path
