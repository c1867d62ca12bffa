"""Board pictures read right: in the SVG as drawn, no two tiles overlap or come closer than a clear gap
unless they are joined on the board (a tile and the tile it was placed against), and every tile lies
inside the picture's viewBox. A branch that turned and ran its end tile against an unrelated line tile
read as joined to it although it was not.

The checker reads only the picture: each tile's rectangle from its ``<g data-tile>`` and the tile it was
placed against from its ``data-move``."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from fiveup_solver import Move
from fiveup_solver.selfplay import play_game
from fiveup_solver.svg import DEFAULT_BOUNDS, NARROW_BOUNDS, board_svg

SVG = "{http://www.w3.org/2000/svg}"
GAP = 0.25          # the clear gap between unjoined tiles, as a share of a tile's short side


# --------------------------------------------------------------------------- the checker
def drawn_tiles(svg: str) -> list:
    """(tile, parent tile or None, (x0, y0, x1, y1)) per tile as drawn: the first ``<rect>`` of each
    ``<g data-tile>`` (the tile's face) and its ``data-move``'s port tile."""
    out = []
    for g in ET.fromstring(svg).iter(f"{SVG}g"):
        if g.get("data-tile") is None:
            continue
        r = g.find(f"{SVG}rect")
        x, y, w, h = (float(r.get(a)) for a in ("x", "y", "width", "height"))
        move = Move.parse(g.get("data-move"))
        parent = None if move.at is None else str(move.at.tile)
        out.append((g.get("data-tile"), parent, (x, y, x + w, y + h)))
    return out


def _separation(a, b):
    """(gap along x, gap along y) between two rectangles; negative: their spans overlap by that much."""
    return max(a[0], b[0]) - min(a[2], b[2]), max(a[1], b[1]) - min(a[3], b[3])


def _crosses(p, q, rect) -> bool:
    """The segment p-q passes through the inside of rect (Liang-Barsky clipping)."""
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for d, lo, hi, v in ((dx, rect[0], rect[2], p[0]), (dy, rect[1], rect[3], p[1])):
        if d == 0:
            if not lo < v < hi:
                return False
            continue
        a, b = (lo - v) / d, (hi - v) / d
        t0, t1 = max(t0, min(a, b)), min(t1, max(a, b))
    return t1 - t0 > 1e-9


def layout_faults(svg: str) -> list:
    """What makes a board picture misleading, as (kind, tile, other tile or None): two unjoined tiles
    that "overlap", lie "side by side" closer than the clear gap (they read as joined), or meet
    "corner" to corner closer than it; a tile "outside" the viewBox; a detached tile's "connector"
    drawn under another tile (the tile seems to hang off that one)."""
    tiles = drawn_tiles(svg)
    root = ET.fromstring(svg)
    vx, vy, vw, vh = (float(v) for v in root.get("viewBox").split())
    faults = []
    order = [g.get("data-tile") or "connector" for g in root.iter(f"{SVG}g")
             if g.get("data-tile") is not None or g.get("class") == "connector"]
    for k, g in enumerate(g for g in root.iter(f"{SVG}g") if g.get("class") == "connector"):
        move = Move.parse(g.get("data-connects"))
        line = g.find(f"{SVG}line")
        p, q = (float(line.get("x1")), float(line.get("y1"))), (float(line.get("x2")), float(line.get("y2")))
        at = [i for i, t in enumerate(order) if t == "connector"][k]
        above = order[at + 1:]                  # tiles drawn after the connector hide it
        faults += [("connector", str(move.tile), t) for t, _, r in tiles if t in above and _crosses(p, q, r)]
    for tile, _, (x0, y0, x1, y1) in tiles:
        if x0 < vx or y0 < vy or x1 > vx + vw or y1 > vy + vh:
            faults.append(("outside", tile, None))
    for i, (ta, pa, ra) in enumerate(tiles):
        for tb, pb, rb in tiles[i + 1:]:
            if pa == tb or pb == ta:
                continue                                    # joined on the board: they touch on purpose
            gap = GAP * min(ra[2] - ra[0], ra[3] - ra[1], rb[2] - rb[0], rb[3] - rb[1])
            sx, sy = _separation(ra, rb)
            if sx < 0 and sy < 0:
                faults.append(("overlap", ta, tb))
            elif (sx < 0 and sy < gap) or (sy < 0 and sx < gap):
                faults.append(("side by side", ta, tb))
            elif sx >= 0 and sy >= 0 and (sx * sx + sy * sy) ** 0.5 < gap:
                faults.append(("corner", ta, tb))
    return faults


# --------------------------------------------------------------------------- boards
def random_rounds(players: int, seeds, max_rounds: int) -> list:
    """(players, seed, round number, placements) of every round of seeded random self-play."""
    out = []
    for seed in seeds:
        game = play_game(players, seed, ["random"] * players, max_rounds=max_rounds)
        for k, r in enumerate(game.rounds):
            out.append((players, seed, k, [m for _, m in r.moves if m.kind == "play"]))
    return out


def _spinners(moves) -> int:
    """Doubles with a branch opened."""
    return len({m.at.tile for m in moves if m.at is not None and m.at.name.startswith("branch")})


# --------------------------------------------------------------------------- tests
def test_the_checker_flags_unjoined_tiles_that_touch():
    """The checker itself: 1-4 on the opening's 4 touches it (joined); 2-6 against 1-4 does not (it was
    placed against 4-6), nor does a tile past the viewBox."""
    def picture(tiles, view="0 0 200 100"):
        body = "".join(f'<g data-tile="{t}" data-move="{m}"><rect x="{x}" y="{y}" width="{w}" height="{h}"/></g>'
                       for t, m, x, y, w, h in tiles)
        return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{view}">{body}</svg>'

    opening, joined = ("4-6", "4-6", 40, 40, 40, 20), ("1-4", "1-4@4-6:low", 0, 40, 40, 20)
    assert layout_faults(picture([opening, joined])) == []
    against = ("2-6", "2-6@4-6:high", 0, 62, 40, 20)                  # 2 units under 1-4: side by side
    assert layout_faults(picture([opening, joined, against])) == [("side by side", "1-4", "2-6")]
    corner = ("2-6", "2-6@4-6:high", 41, 61, 40, 20)                   # corner to corner with 1-4
    assert layout_faults(picture([opening, joined, corner])) == [("corner", "1-4", "2-6")]
    clear = ("2-6", "2-6@4-6:high", 0, 70, 40, 20)                      # 10 units apart: a clear gap
    assert layout_faults(picture([opening, joined, clear])) == []
    assert layout_faults(picture([opening, joined], view="10 0 200 100")) == [("outside", "1-4", None)]
    over = ("2-6", "2-6@4-6:high", 20, 50, 40, 20)
    assert ("overlap", "1-4", "2-6") in layout_faults(picture([opening, joined, over]))


def test_a_turned_branch_keeps_clear_of_the_line_beside_it():
    """6-6's branch 3-6 turned along the line and lay against 5-6 and 5-5 (the line the double sits in),
    reading as joined to them (2 players, seed 1034, round 2)."""
    moves = ("4-4 2-4@4-4:lineB 0-4@4-4:lineA 1-2@2-4:low 0-1@0-4:low 1-6@0-1:high 6-6@1-6:high "
             "5-6@6-6:lineB 5-5@5-6:low 3-6@6-6:branchA 3-3@3-6:low").split()
    for flipped in (False, True):
        assert layout_faults(board_svg(moves, flipped=flipped)) == []
    svg = board_svg(moves, lastmove=moves[-1], arrows=["3-5@3-3:lineB"])
    assert layout_faults(svg) == []


def test_a_detached_tiles_connector_is_drawn_over_the_tiles_from_its_port():
    """A review of the browser app: the one detached tile in 827 self-play rounds (4 players, game 16,
    round 6), 2-2 on 1-2's high end, was drawn three tiles away, and its dashed connector ran under the
    column of 6-6's branch, so the double seemed to hang off that column. 1-2's end faces a pocket closed
    by other tiles: any connector must pass one. It is drawn over the tiles, from a dot on the port to
    the detached tile's edge."""
    moves = ("4-6 6-6@4-6:high 0-6@6-6:lineB 4-4@4-6:low 3-4@4-4:lineB 1-4@4-4:branchA 5-6@6-6:branchB "
             "1-1@1-4:low 1-6@1-1:lineB 3-6@1-6:high 0-5@5-6:low 0-0@0-5:low 1-2@1-1:branchA 2-3@3-4:low "
             "0-3@0-6:low 2-5@2-3:low 2-2@1-2:high").split()
    svg = board_svg(moves)
    assert 'data-detached="1"' in svg                     # still drawn apart: no room by 1-2
    assert layout_faults(svg) == []
    root = ET.fromstring(svg)
    (g,) = [g for g in root.iter(f"{SVG}g") if g.get("class") == "connector"]
    assert g.get("data-connects") == "2-2@1-2:high"
    line, dot = g.find(f"{SVG}line"), g.find(f"{SVG}circle")
    p, q = (float(line.get("x1")), float(line.get("y1"))), (float(line.get("x2")), float(line.get("y2")))
    rects = {t: r for t, _, r in drawn_tiles(svg)}
    parent, double = rects["1-2"], rects["2-2"]
    # from 1-2's high end: the short edge of the vertical 1-2 nearer the connector, at its middle
    assert parent[3] - parent[1] > parent[2] - parent[0]
    end_y = parent[1] if abs(p[1] - parent[1]) < abs(p[1] - parent[3]) else parent[3]
    assert abs(p[0] - (parent[0] + parent[2]) / 2) < 3 and abs(p[1] - end_y) < 3, (p, parent)
    assert (float(dot.get("cx")), float(dot.get("cy"))) == p
    # to the double's edge, not into it (the tile's face would hide its end)
    on_edge = (min(abs(q[0] - double[0]), abs(q[0] - double[2])) < 3.5 and double[1] - 3.5 < q[1] < double[3] + 3.5) \
        or (min(abs(q[1] - double[1]), abs(q[1] - double[3])) < 3.5 and double[0] - 3.5 < q[0] < double[2] + 3.5)
    assert on_edge, (q, double)
    # the checker sees a connector under a tile: the same picture with the connector drawn first
    group = re.search(r'<g class="connector".*?</g>', svg).group(0)
    under = svg.replace(group, "").replace('<g class="tile', group + '<g class="tile', 1)
    assert layout_faults(under) == [("connector", "2-2", "4-6")]


@pytest.mark.parametrize("bounds", [DEFAULT_BOUNDS, NARROW_BOUNDS], ids=["wide", "narrow"])
def test_seeded_random_boards_read_right(bounds):
    """Every round's final board of seeded random self-play, 2, 3 and 4 players (a few hundred boards,
    long rounds with several spinners among them; about one in seven drew unjoined tiles together),
    and every fifth board along the way: no tile against one it is not joined to, none outside the
    picture; in the wide layout and in the narrow one (a phone's), whose lines bend sooner."""
    rounds = random_rounds(2, range(1000, 1020), 6) + random_rounds(3, range(2000, 2020), 6) \
        + random_rounds(4, range(3000, 3020), 6)
    boards = Counter()
    for players, seed, k, moves in rounds:
        for n in sorted({len(moves), *range(5, len(moves), 5)}):
            if n:
                faults = layout_faults(board_svg(moves[:n], bounds=bounds))
                assert faults == [], (players, seed, k, [str(m) for m in moves[:n]], faults)
                boards[players] += 1
    assert all(boards[p] >= 200 for p in (2, 3, 4)), boards
    assert max(len(m) for _, _, _, m in rounds) >= 20
    assert sum(1 for *_, m in rounds if _spinners(m) >= 2 and len(m) >= 15) >= 10
