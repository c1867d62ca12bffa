"""Board pictures (fiveup_solver.svg): no tile covers another on seeded self-play boards walked
prefix by prefix, tiles touch the port they attach to, doubles lie across their line, and the
picture shows exactly the engine's board, open ports, scoring ends and end sum."""
from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from fiveup_solver import Game, Move, OptionError, Port, Tile
from fiveup_solver.selfplay import play_game
from fiveup_solver.svg import DEFAULT_BOUNDS, board_svg, layout, svg_to_png

EPS = 1e-9
SVG = "{http://www.w3.org/2000/svg}"


# --------------------------------------------------------------------------- helpers (independent geometry)
def _placements(moves):
    return [m for _, m in moves if m.kind == "play"]


def _overlap(a, b) -> float:
    """Area shared by two rectangles (x0, y0, x1, y1)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > EPS and h > EPS else 0.0


def _contact(a, b):
    """The edge two touching rectangles share: ('x', at, lo, hi) for a vertical edge x = at, ('y', ...) for
    a horizontal one; None when they do not share an edge of positive length."""
    for axis, (a0, a1, b0, b1, c0, c1, d0, d1) in (
            ("x", (a[0], a[2], b[0], b[2], a[1], a[3], b[1], b[3])),
            ("y", (a[1], a[3], b[1], b[3], a[0], a[2], b[0], b[2]))):
        for at in ((a1,) if abs(a1 - b0) < EPS else ()) + ((a0,) if abs(a0 - b1) < EPS else ()):
            lo, hi = max(c0, d0), min(c1, d1)
            if hi - lo > EPS:
                return axis, at, lo, hi
    return None


def _square(cx, cy):
    return (cx - 0.5, cy - 0.5, cx + 0.5, cy + 0.5)


def _check_new_tile(boxes, k):
    """Tile k of a layout: the right size, over no earlier tile, touching its parent's port by the half
    that matches the port; a double across its line."""
    box = boxes[k]
    tile, move = box.tile, box.move
    assert tile == move.tile
    dims = sorted((box.width, box.height))
    assert dims == [1.0, 2.0], (move, box.rect)
    assert box.halves[0][0] in (tile.lo, tile.hi) and sorted(h[0] for h in box.halves) == [tile.lo, tile.hi]
    for h in box.halves:                                   # each half is one unit square of the tile
        sq = _square(h[1], h[2])
        assert _overlap(sq, box.rect) == pytest.approx(1.0), (move, box.rect, h)
    for j in range(k):
        assert _overlap(box.rect, boxes[j].rect) == 0.0, f"{move} covers {boxes[j].move}"
    if move.at is None:
        assert k == 0
        return
    assert not box.detached, f"{move} found no room next to its port"
    parent = next(b for b in boxes[:k] if b.tile == move.at.tile)
    assert box.halves[0][0] == move.at.value
    assert _contact(box.rect, parent.rect) is not None, f"{move} does not touch {parent.tile}"
    if not tile.is_double:
        touch = _contact(_square(*box.halves[0][1:]), parent.rect)
        assert touch is not None, f"{move}: its {move.at.value} half does not touch {parent.tile}"
        assert _contact(_square(*box.halves[1][1:]), parent.rect) is None, f"{move}: both halves touch the parent"
    long_horizontal = box.width > box.height
    if tile.is_double:
        # across the line: the line reaches the double through one of its long sides
        edge = _contact(box.rect, parent.rect)
        assert edge is not None and edge[0] == ("y" if long_horizontal else "x"), (move, box.rect, parent.rect)
        assert (box.line[0] != 0) == (not long_horizontal), (move, box.line)
    if parent.tile.is_double:
        edge = _contact(box.rect, parent.rect)
        parent_long_horizontal = parent.width > parent.height
        on_long_side = edge[0] == ("y" if parent_long_horizontal else "x")
        assert on_long_side == move.at.name.startswith("line"), f"{move} enters {parent.tile} from the wrong side"
    else:
        # a non-double parent is touched at its port's half
        port_half = next(h for h in parent.halves if h[0] == move.at.value)
        near = box.rect if tile.is_double else _square(*box.halves[0][1:])
        assert _contact(near, _square(*port_half[1:])) is not None, \
            f"{move} does not touch the {move.at.name} half of {parent.tile}"


def _corpus(players, seeds, max_rounds):
    return [play_game(players, seed, ["random"] * players, max_rounds=max_rounds) for seed in seeds]


@pytest.fixture(scope="module")
def corpus():
    """Seeded random self-play: every player count, many rounds each (the round lists of every game)."""
    games = _corpus(2, range(24), 6) + _corpus(3, range(100, 122), 6) + _corpus(4, range(200, 222), 6)
    return [(g.players, _placements(r.moves)) for g in games for r in g.rounds]


def _spinners(moves) -> int:
    """Doubles with a branch opened."""
    return len({m.at.tile for m in moves if m.at is not None and m.at.name.startswith("branch")})


# --------------------------------------------------------------------------- geometry
def test_corpus_has_long_rounds_with_several_spinners(corpus):
    for players in (2, 3, 4):
        rounds = [m for p, m in corpus if p == players]
        assert len(rounds) >= 60
        assert max(len(m) for m in rounds) >= 20
        assert max(_spinners(m) for m in rounds) >= 3
        assert sum(1 for m in rounds if _spinners(m) >= 2 and len(m) >= 15) >= 5


def test_no_tile_covers_another_prefix_by_prefix(corpus):
    """Every prefix of every round: the new tile lies next to its port, over no other tile. A prefix's
    layout is the layout before it plus the new tile (else it was laid again: checked whole)."""
    relaid = 0
    for _, moves in corpus:
        before = []
        for k in range(len(moves)):
            boxes = layout(moves[: k + 1])
            assert len(boxes) == k + 1
            if boxes[:k] != before:
                relaid += 1
                for j in range(k):
                    _check_new_tile(boxes, j)
            _check_new_tile(boxes, k)
            before = boxes
    assert relaid <= len(corpus) // 20


def test_layout_geometry_details():
    boxes = layout(["3-4", "4-4@3-4:high", "4-6@4-4:lineB", "1-4@4-4:branchA", "2-4@4-4:branchB",
                    "3-3@3-4:low"])
    rects = {str(b.tile): b.rect for b in boxes}
    assert rects["3-4"] == (-1.0, -0.5, 1.0, 0.5)           # the opening in the middle, the line left-right
    assert rects["4-4"] == (1.0, -1.0, 2.0, 1.0)            # a double across the line
    assert rects["4-6"] == (2.0, -0.5, 4.0, 0.5)            # the line goes on through the spinner
    assert rects["1-4"][2] - rects["1-4"][0] == 1.0 and rects["1-4"][3] == -1.0   # branch A up
    assert rects["2-4"][2] - rects["2-4"][0] == 1.0 and rects["2-4"][1] == 1.0    # branch B down
    assert rects["3-3"] == (-2.0, -1.0, -1.0, 1.0)
    # the opening double stands across a horizontal line; its branches leave from its ends
    boxes = layout(["5-5", "0-5@5-5:lineA", "5-6@5-5:lineB", "1-5@5-5:branchA"])
    assert boxes[0].rect == (-0.5, -1.0, 0.5, 1.0)
    assert boxes[3].rect[3] == -1.0 and boxes[3].width == 1.0


def test_long_line_bends_inside_the_bounds():
    """A long line with no spinner (0-1, 1-2, ... ) bends before leaving the bounds, never crosses itself."""
    chain = ["0-1"]
    last, value = Tile.parse("0-1"), 1
    for t in ["1-2", "2-3", "3-4", "4-5", "5-6", "6-6", "0-6", "0-0", "0-2", "2-2", "2-4", "4-4", "4-6",
              "3-6", "3-3", "1-3", "1-1", "1-5", "5-5", "3-5", "0-3"]:
        tile = Tile.parse(t)
        name = "lineB" if last.is_double else ("high" if value == last.hi else "low")
        chain.append(f"{tile}@{last}:{name}")
        last, value = tile, (tile.hi if tile.lo == value else tile.lo)
    boxes = layout(chain)
    for k in range(len(boxes)):
        _check_new_tile(boxes, k)
    x0, y0, x1, y1 = (b / 2 for b in DEFAULT_BOUNDS)
    turned = {b.line for b in boxes}
    assert len(turned) >= 3                                   # it went round at least two corners
    assert sum(1 for b in boxes if not (b.x0 >= x0 and b.y0 >= y0 and b.x1 <= x1 and b.y1 <= y1)) <= 2


# --------------------------------------------------------------------------- the picture against the engine
def _parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def _tiles_in(root):
    return Counter(e.get("data-tile") for e in root.iter() if e.get("data-tile") is not None)


def _viewbox(root):
    return tuple(float(v) for v in root.get("viewBox").split())


def _check_picture(game, svg: str, credit=None):
    """``credit``: the caption's end, by RULES, for the placement that made the board (None:
    a list of moves, whose caption only says whether the sum is a multiple of 5)."""
    root = _parse(svg)
    assert _tiles_in(root) == Counter(str(t) for t in game.board)           # every tile once
    assert all(n == 1 for n in _tiles_in(root).values())
    sums = [e for e in root.iter() if e.get("data-end-sum") is not None]
    assert len(sums) == 1 and int(sums[0].get("data-end-sum")) == game.end_sum
    text = "".join(sums[0].itertext())
    multiple = game.end_sum > 0 and game.end_sum % 5 == 0
    if credit is None:
        assert text == "empty board" if not game.board else (
            text.endswith(f" = {game.end_sum}" + (" (a multiple of 5)" if multiple else "")))
    else:
        assert text.endswith(f"= {game.end_sum}{credit}")
    ends = Counter((e.get("data-end").split(":")[0], int(e.get("data-value")))
                   for e in root.iter() if e.get("data-end") is not None)
    assert ends == Counter((str(t), v) for t, v in game.scoring_ends())
    for e in root.iter():
        if e.get("data-end") is not None:     # the badge shows the value
            assert "".join(e.itertext()).strip() == e.get("data-value")
    ports = {e.get("data-port") for e in root.iter() if e.get("data-port") is not None}
    assert ports == {str(p) for p in game.open_ports()}
    # the viewBox holds every tile
    vx, vy, vw, vh = _viewbox(root)
    for g in root.iter(f"{SVG}g"):
        if g.get("data-tile") is None:
            continue
        r = g.find(f"{SVG}rect")
        x, y, w, h = (float(r.get(a)) for a in ("x", "y", "width", "height"))
        assert vx <= x and vy <= y and x + w <= vx + vw and y + h <= vy + vh


def test_picture_matches_the_engine_after_every_placement():
    """During self-play (every player count), after every placement: the tiles, open ports, scoring
    ends and end sum shown are the engine's; a move list lays the same tiles as the game. The
    caption says what the placement credited, as the game's events say (a review: "scores 25"
    was written under a placement the exact target rejected, RULES §6.1, and under a last tile,
    whose sum is part of the domino credit, §6.3); a move list knows no scores."""
    seen = Counter()

    def check(game, move, events):
        if move is None or move.kind != "play":
            return
        credit = ""
        for e in events:
            if e.kind == "placement":
                credit = f" \u2014 scores {e.raw}" if e.accepted else f" \u2014 {e.raw} not counted (above 305)"
                assert e.raw == game.end_sum
            elif e.kind == "domino":
                credit = f" \u2014 hand emptied: {e.raw:+d}" + ("" if e.accepted else " not counted (above 305)")
                break
        svg = board_svg(game)
        _check_picture(game, svg, credit)
        listed = board_svg(game.current.moves)
        _check_picture(game, listed)
        tiles = re.compile(r'<g class="tile".*?</g>', re.S)
        assert tiles.findall(listed) == tiles.findall(svg)
        seen[game.players] += 1
        seen[next((k for k in ("not counted", "emptied", "scores") if k in credit), "none")] += 1

    for players, seed, rounds in ((2, 1, 4), (2, 2, 4), (3, 3, 4), (3, 4, 4), (4, 5, 4), (4, 6, 4), (2, 3, 30)):
        play_game(players, seed, ["random"] * players, max_rounds=rounds, on_action=check)
    assert all(seen[p] >= 60 for p in (2, 3, 4))
    assert seen["emptied"] and seen["not counted"] and seen["scores"] and seen["none"], seen


def test_lastmove_and_arrows():
    game = play_game(2, 7, ["random", "random"], max_rounds=1)
    moves = _placements(game.current.moves)
    k = len(moves) // 2
    board = moves[:k]
    # a board in mid-round (a prefix of the round's placements), its last placement outlined
    svg = board_svg(board, lastmove=board[-1], title="Round 1 <&>")
    root = _parse(svg)
    last = [e for e in root.iter() if "lastmove" in (e.get("class") or "").split() and e.get("data-tile")]
    assert [e.get("data-tile") for e in last] == [str(board[-1].tile)]
    assert root.find(f"{SVG}title").text == "Round 1 <&>"
    # candidates: every tile not on the board that fits an open port
    on = {m.tile for m in board}
    boxes = layout(board)
    open_ports = _open_ports(board)
    cands = [Move.play(t, p) for p in open_ports for t in _all_tiles() if t not in on and p.value in (t.lo, t.hi)]
    # two arrows on one end are refused (a review: the second ghost lay apart from every port)
    same = [c for c in cands if c.at == cands[0].at][:2]
    with pytest.raises(OptionError, match=rf"^arrows 0 and 1 both take {re.escape(str(cands[0].at))}: draw them "
                                          r"on a board each \(svg.arrow_groups\)$"):
        board_svg(board, arrows=same)
    with pytest.raises(OptionError, match=r"^arrows 0 and 1 both take the opening"):
        board_svg([], arrows=["1-1", "2-2", "3-3"])
    cands = [cands[0], next(c for c in cands if c.at != cands[0].at)]
    arrows = [(cands[0], "#ff0000"), cands[1], (board[1], "blue")]
    svg = board_svg(board, arrows=arrows)
    root = _parse(svg)
    drawn = {e.get("data-move"): e.get("data-colour") for e in root.iter() if "arrow" == e.get("class")}
    assert drawn[str(cands[0])] == "#ff0000" and str(cands[1]) in drawn and drawn[str(board[1])] == "blue"
    ghosts = [e.get("data-ghost") for e in root.iter() if e.get("data-ghost")]
    assert ghosts == [str(cands[0]), str(cands[1])]          # a move on the board is outlined, not a ghost
    assert _tiles_in(root) == Counter(str(m.tile) for m in board)
    # a ghost lies next to its port over no tile
    for g in root.iter(f"{SVG}g"):
        if g.get("data-ghost"):
            r = g.find(f"{SVG}rect")
            gr = tuple(float(r.get(a)) for a in ("x", "y", "width", "height"))
            for t in root.iter(f"{SVG}g"):
                if t.get("data-tile"):
                    tr = tuple(float(t.find(f"{SVG}rect").get(a)) for a in ("x", "y", "width", "height"))
                    assert _overlap((gr[0], gr[1], gr[0] + gr[2], gr[1] + gr[3]),
                                    (tr[0], tr[1], tr[0] + tr[2], tr[1] + tr[3])) == 0.0
    assert boxes == layout(board)                              # drawing arrows does not move tiles
    # an opening candidate on an empty board
    root = _parse(board_svg([], arrows=["6-6"]))
    assert [e.get("data-ghost") for e in root.iter() if e.get("data-ghost")] == ["6-6"]


def test_an_arrow_from_a_scoring_end_keeps_its_number_readable():
    # 1-4 opened, 4-4 on its 4: the ends are the 1 and the double 4-4 (4 + 4 = 8), 9 in all
    board = ["1-4", "4-4@1-4:high"]
    root = _parse(board_svg(board))
    assert sorted(int(e.get("data-value")) for e in root.iter() if e.get("class") == "end") == [1, 8]
    assert not [e for e in root.iter() if e.get("class") == "endlabel"]     # no arrow, no second label
    root = _parse(board_svg(board, arrows=[("1-5@1-4:low", "red"), ("4-6@4-4:lineB", "green")]))
    order = list(root.iter())
    labels = [e for e in order if e.get("class") == "endlabel"]
    # each end an arrow leaves gets its number again, drawn after (over) every arrow
    assert sorted(int(e.text) for e in labels) == [1, 8]
    last_arrow = max(k for k, e in enumerate(order) if e.get("class") == "arrow")
    assert all(order.index(e) > last_arrow for e in labels)
    # an arrow from one end only: only that end's number is repeated
    root = _parse(board_svg(board, arrows=["1-5@1-4:low"]))
    assert [int(e.text) for e in root.iter() if e.get("class") == "endlabel"] == [1]


def _all_tiles():
    from fiveup_solver import ALL_TILES
    return ALL_TILES


def _open_ports(moves):
    """Open ports of a move list, by the rules (independent of the module)."""
    placed, linked = [], set()
    for m in moves:
        placed.append(m.tile)
        if m.at is not None:
            linked.add((m.at.tile, m.at.name))
            if m.tile.is_double:
                linked.add((m.tile, "lineA"))
            else:
                linked.add((m.tile, "low" if m.tile.lo == m.at.value else "high"))
    out = []
    for t in placed:
        for n in t.port_names:
            if (t, n) in linked:
                continue
            if n.startswith("branch") and not {(t, "lineA"), (t, "lineB")} <= linked:
                continue
            out.append(Port(t, n))
    return out


def test_open_ports_helper_agrees_with_the_engine():
    game = play_game(4, 11, ["random"] * 4, max_rounds=1)
    assert set(_open_ports(_placements(game.current.moves))) == set(game.open_ports())


def test_flipped_turns_the_picture():
    moves = ["2-5", "5-5@2-5:high", "0-2@2-5:low", "1-5@5-5:lineB", "3-5@5-5:branchA"]

    def centres(svg):
        out = {}
        for g in _parse(svg).iter(f"{SVG}g"):
            if g.get("data-tile"):
                r = g.find(f"{SVG}rect")
                x, y, w, h = (float(r.get(a)) for a in ("x", "y", "width", "height"))
                out[g.get("data-tile")] = (x + w / 2, y + h / 2)
        return out

    plain, flipped = centres(board_svg(moves)), centres(board_svg(moves, flipped=True))
    assert plain.keys() == flipped.keys()
    for t in plain:
        assert flipped[t] == pytest.approx((-plain[t][0], -plain[t][1]))
    assert plain["3-5"][1] < plain["5-5"][1] < flipped["3-5"][1]          # branch A above, then below


def test_size_sets_the_longer_side():
    root = _parse(board_svg(["1-2", "2-2@1-2:high"], size=300))
    assert max(float(root.get("width")), float(root.get("height"))) == 300


def test_empty_board():
    game = Game(players=3, seed=4)
    root = _parse(board_svg(game))
    assert _tiles_in(root) == Counter()
    assert [e.get("data-end-sum") for e in root.iter() if e.get("data-end-sum")] == ["0"]


def test_bad_arguments():
    good = ["1-4", "4-4@1-4:high"]
    bad_calls = [
        lambda: board_svg(42),
        lambda: board_svg("1-4"),
        lambda: board_svg(["1-4", "4-5@1-4:low"]),            # the low end shows 1, not 4
        lambda: board_svg(["1-4", "2-4@1-4:high", "3-4@1-4:high"]),   # the port is taken
        lambda: board_svg(["1-4", "4-6@1-4:high", "4-6@4-6:high"]),   # a tile twice
        lambda: board_svg(["1-4", "1-1"]),                     # a second opening
        lambda: board_svg(["4-4", "4-5@4-4:lineB", "1-4@4-4:branchA"]),  # branch not open yet
        lambda: board_svg(["x"]),
        lambda: board_svg([3.5]),
        lambda: board_svg(good, lastmove="2-3@1-4:low"),
        lambda: board_svg(good, lastmove="4-4@1-4:low"),
        lambda: board_svg(good, lastmove="draw"),
        lambda: board_svg(good, arrows=["draw"]),
        lambda: board_svg(good, arrows=["4-6@1-4:high"]),     # port taken by 4-4
        lambda: board_svg(good, arrows=["2-3@4-4:lineB"]),    # no 4 on 2-3
        lambda: board_svg(good, arrows=["3-3"]),               # the board is open already
        lambda: board_svg(good, arrows=[("4-6@4-4:lineB", 'red" onload="x')]),
        lambda: board_svg(good, arrows=[("4-6@4-4:lineB",)]),
        lambda: board_svg(good, arrows=42),
        lambda: board_svg(good, size=0),
        lambda: board_svg(good, size=True),
        lambda: board_svg(good, flipped="yes"),
        lambda: board_svg(good, title=5),
        lambda: board_svg(good, bounds=(1, 2, 3)),
        lambda: layout(good, bounds=(0, 0, 10, 10)),
        lambda: svg_to_png(42, "/tmp/x.png"),
    ]
    for i, call in enumerate(bad_calls):
        with pytest.raises(OptionError) as info:
            call()
        assert "\n" not in str(info.value), i


def test_colours_are_safe_in_the_picture():
    svg = board_svg(["1-4"], arrows=[("4-5@1-4:high", "rgb(10, 20, 30)")], title='a "quoted" <title>')
    root = _parse(svg)
    assert any(e.get("data-colour") == "rgb(10, 20, 30)" for e in root.iter())


def test_text_and_attributes_round_trip_through_an_xml_parser():
    """The picture's own escaping (xml.sax.saxutils is not imported: see the next test):
    a title with every character XML treats specially, and an attribute value with
    quotes, apostrophes, newline, return and tab, parse back to themselves."""
    from fiveup_solver.svg import _escape, _quoteattr
    tricky = "a & b < c > d \"e\" 'f'"
    root = _parse(board_svg(["1-4"], title=tricky))
    assert [t.text for t in root.iter(f"{SVG}title")] == [tricky]
    value = "x \"y\" 'z' & <w>\nnext\rline\tend"
    el = ET.fromstring(f"<e a={_quoteattr(value)}>{_escape(value)}</e>")
    assert el.get("a") == value
    assert el.text == value.replace("\r", "\n")      # a parser normalises a raw return in text


def test_importing_the_package_does_not_import_the_network_modules():
    """`import fiveup_solver` (every `fiveup` command, every program built on the package)
    stays free of urllib.request, http, ssl and email: xml.sax.saxutils pulled them in,
    about 25 ms and 8 MB per process. And of OpenSSL's hashes (_hashlib: 3 ms and 4 MB;
    the deal values' seeds take CPython's own BLAKE2)."""
    import subprocess
    code = ("import sys, fiveup_solver, fiveup_solver.svg, fiveup_solver.solver, fiveup_solver.hint; "
            "print(sorted(m for m in ('urllib.request', 'http.client', 'ssl', 'email', 'xml.sax', '_hashlib') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", out


# --------------------------------------------------------------------------- PNG
def test_svg_to_png(tmp_path):
    pytest.importorskip("cairosvg")
    path = svg_to_png(board_svg(["3-3", "3-6@3-3:lineB"], title="png"), tmp_path / "b.png")
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 1000


def test_svg_to_png_without_cairosvg(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "cairosvg", None)        # import cairosvg raises ImportError
    with pytest.raises(OptionError, match=re.escape("pip install 'fiveup_solver[analysis]'")):
        svg_to_png(board_svg(["3-3"]), tmp_path / "b.png")


def test_a_board_is_never_drawn_taller_than_wide():
    """An opening's two ghost tiles (played and best) stacked made a board 350 x 480, which
    a report scaled to its width drew larger than every other board."""
    import re

    from fiveup_solver import Game
    from fiveup_solver.svg import board_svg
    checked = 0
    for seed in range(6):
        g = Game(players=2, seed=seed)
        moves = g.legal_moves
        # (two openings are refused now: two boards, arrow_groups)
        for arrows in ([(moves[0], "#cc0000")], [(moves[-1], "#1a7f37")], []):
            svg = board_svg(g, arrows=arrows, size=480)
            w, h = (int(x) for x in re.search(r'width="(\d+)" height="(\d+)"', svg).groups())
            assert w == 480 and h <= w, (seed, w, h)
            checked += 1
    assert checked == 18


def test_svg_to_png_names_a_picture_it_cannot_draw(tmp_path):
    """A review: bad SVG text raised XML's ParseError (no ValueError) or cairosvg's plain
    ValueError "The SVG size is undefined", each with a traceback."""
    pytest.importorskip("cairosvg")
    for text, cause in (("<svg><g></svg>", "mismatched tag"),
                        ("<svg xmlns='http://www.w3.org/2000/svg'></svg>", "size is undefined")):
        with pytest.raises(OptionError, match=rf"^svg_to_png: not an SVG picture it can draw \(.*{cause}"):
            svg_to_png(text, tmp_path / "x.png")
        assert not (tmp_path / "x.png").exists()


def test_a_board_is_a_named_image_and_a_ghost_lies_over_its_ports_dot():
    """A review: a board had no text alternative (no role, no label: a screen reader had
    nothing), and an open port's dot was drawn over the ghost tile lying on that port (now
    under it; a later review: without the dot the play page had no click target there)."""
    root = _parse(board_svg(["4-4"], title="round 0"))
    # 4-4 opened: both line ports open, the double counts 2 x 4 once (RULES §4.1)
    assert root.get("role") == "img" and root.get("aria-label") == ("round 0: 1 tile laid; ends 8 = 8; "
                                                                    "the ends: the double 4-4 shows 8")
    assert _parse(board_svg([])).get("aria-label") == "An empty board"
    # 5-5 opened scores 10; its two branches are ports (dots) once both line ports are filled
    board = ["5-5", "0-5@5-5:lineA", "5-6@5-5:lineB"]
    dots = lambda root: sorted(e.get("data-port") for e in root.iter() if e.get("class") == "port")
    assert dots(_parse(board_svg(board))) == ["5-5:branchA", "5-5:branchB"]
    root = _parse(board_svg(board, arrows=["1-5@5-5:branchA"]))
    # the ghost's port keeps its dot (the play page's click target), drawn under the ghost
    assert dots(root) == ["5-5:branchA", "5-5:branchB"]
    order = [e.get("data-port") or e.get("class") for e in root.iter() if e.get("class") in ("port", "ghost")]
    assert order == ["5-5:branchA", "ghost", "5-5:branchB"]
    # each end said by its port (an accessibility review: the sum alone did not say which
    # end holds what): the 0-5 on lineA shows its 0, the 5-6 on lineB its 6
    assert root.get("aria-label") == "3 tiles laid; ends 0 + 6 = 6; the ends: 0-5:low shows 0, 5-6:high shows 6"
    # 1-4 opened, 4-4 on its 4: the 1 and the double's 4 + 4 (RULES §4.1)
    assert _parse(board_svg(["1-4", "4-4@1-4:high"])).get("aria-label") == (
        "2 tiles laid; ends 1 + 8 = 9; the ends: 1-4:low shows 1, the double 4-4 shows 8")


def test_one_tile_is_drawn_at_about_a_rounds_scale():
    """A review: an opening's one tile filled its picture (tiles 3-4 times as large as a
    round's board next to it, "empty board" in 30-60 px type). A picture is at least
    MIN_EXTENT q wide and high, so a tile is at most an eighth of its width."""
    from fiveup_solver.svg import MIN_EXTENT, Q
    for board in ([], ["6-6"], ["1-2"]):
        vx, vy, vw, vh = _viewbox(_parse(board_svg(board, arrows=[] if board else ["3-4"])))
        assert vw >= MIN_EXTENT[0] * Q and vh >= MIN_EXTENT[1] * Q
        assert 2 * Q / vw <= 1 / 8


def test_a_pairs_seat_a_png_name_and_a_png_plot_to_text_are_checked(tmp_path):
    """A review: board_svg took any first element of a (seat, move) pair; svg_to_png wrote
    PNG bytes to a .svg name; a PNG plot into a text file object raised matplotlib's
    TypeError."""
    with pytest.raises(OptionError, match=r"^move 0: a \(seat, move\) pair's seat must be 0..3, not 'x'$"):
        board_svg([("x", "4-4")])
    assert 'data-tile="4-4"' in board_svg([(1, "4-4")])
    pytest.importorskip("cairosvg")
    with pytest.raises(OptionError, match=r"^svg_to_png writes a PNG file: give a name ending in \.png"):
        svg_to_png(board_svg(["4-4"]), tmp_path / "x.svg")
    assert not (tmp_path / "x.svg").exists()
    assert svg_to_png(board_svg(["4-4"]), tmp_path / "x.PNG").endswith("x.PNG")
    pytest.importorskip("matplotlib")
    import io

    from fiveup_solver.analysis import AnalysisBudget, analyze, plot_win_probability
    game = play_game(2, 1, ["greedy", "greedy"], max_rounds=1)
    a = analyze(game.to_record(), seats=0, budget=AnalysisBudget(samples=4, min_samples=4, luck_samples=2, threads=1))
    with pytest.raises(OptionError, match=r"^plot_win_probability: a PNG is bytes: give a binary file object"):
        plot_win_probability(a, io.StringIO(), fmt="png")
    binary = io.BytesIO()
    plot_win_probability(a, binary, fmt="png")
    assert binary.getvalue().startswith(b"\x89PNG")
