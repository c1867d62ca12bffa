"""Two arrows on one open end (a played and a best move there) are drawn a board each:
on one board the second ghost tile could not lie at its end (a review). The split is
svg.arrow_groups, used by the HTML report and the browser's analysis board."""
from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from fiveup_solver import Game, OptionError
from fiveup_solver.analysis import AnalysisBudget, analyze, to_html
from fiveup_solver.bots import choose
from fiveup_solver.svg import arrow_groups, board_svg

NS = "{http://www.w3.org/2000/svg}"


def shared_end_position():
    """(game, a, b): a greedy 2-player game at a position where two legal placements a and
    b (other tiles) go on the same open port, with at least 6 actions behind it."""
    g, rng = Game(players=2, seed=21), random.Random(1)
    while not g.round_over:
        by_port = {}
        for m in g.legal_moves:
            if m.kind == "play" and m.at is not None:
                by_port.setdefault(str(m.at), []).append(m)
        pairs = [v for v in by_port.values() if len({m.tile for m in v}) > 1]
        if pairs and len(g.current.actions) > 6:
            a = pairs[0][0]
            return g, a, next(m for m in pairs[0] if m.tile != a.tile)
        g.push(choose("greedy", g.observation(g.to_move), rng))
    raise AssertionError("no such position in the game")   # pragma: no cover


def ghost_box(svg: str, move) -> tuple:
    """The rectangle of the ghost tile of `move` in a board picture."""
    root = ET.fromstring(svg)
    ghost = next(e for e in root.iter(NS + "g") if e.get("data-ghost") == str(move))
    rect = next(ghost.iter(NS + "rect"))
    return tuple(round(float(rect.get(k)), 1) for k in ("x", "y", "width", "height"))


def test_arrows_on_one_end_are_a_board_each_and_each_ghost_lies_where_it_lies_alone():
    g, a, b = shared_end_position()
    assert str(a.at) == str(b.at)
    # apart from the other ghost, each lies where it lies alone: on one board the second did not
    assert [[str(m) for m, _ in grp] for grp in arrow_groups([(a, "red"), (b, "green")])] == [[str(a)], [str(b)]]
    alone_b = ghost_box(board_svg(g, arrows=[(b, "green")]), b)
    assert ghost_box(board_svg(g, arrows=[(b, "green")]), b) == alone_b
    # on one board the second was pushed aside: board_svg refuses the two now (a later review)
    with pytest.raises(OptionError, match=rf"^arrows 0 and 1 both take {re.escape(str(a.at))}: draw them on a "
                                          r"board each \(svg.arrow_groups\)$"):
        board_svg(g, arrows=[(a, "red"), (b, "green")])
    # arrows on different ends stay together, in their order
    other = next(m for m in g.legal_moves if m.kind == "play" and m.at is not None and str(m.at) != str(a.at)) \
        if any(m.kind == "play" and m.at is not None and str(m.at) != str(a.at) for m in g.legal_moves) else None
    if other is not None:
        assert [[str(m) for m, _ in grp] for grp in arrow_groups([a, other])] == [[str(a), str(other)]]
    assert arrow_groups([]) == [[]]


def test_the_report_draws_played_and_best_on_one_end_a_board_each():
    g, a, b = shared_end_position()
    # the game's record up to that position, the played move a, then on to the round's end
    rng = random.Random(2)
    g.push(a)
    while not g.round_over:
        g.push(choose("greedy", g.observation(g.to_move), rng))
    record = g.to_record()
    budget = AnalysisBudget(samples=4, min_samples=4, world_nodes=500, luck_samples=2, dd_nodes=0, threads=1)
    analysis = analyze(record, budget=budget, seed=1)
    d = next(d for d in analysis.decisions if d.played == str(a))
    # that decision read as a blunder whose best is b (the judge's own view does not matter here)
    d.best, d.mark, d.loss_win, d.stderr_win = str(b), "blunder", 20.0, 1.0
    html = to_html(analysis, record)
    root = ET.fromstring(html[len("<!DOCTYPE html>"):])
    fig = next(e for e in root.iter("figure") if e.get("id") == f"d{d.round}-{d.action}")
    assert fig.get("data-boards") == "2" and "on the same end, so a board each" in "".join(fig.itertext())
    # (each layout's boards: the wide one a screen shows, the square one a phone's)
    wide, narrow = (next(e for e in fig.iter("div") if e.get("class") == f"boards layout-{k}") for k in ("wide", "narrow"))
    svgs = [e for e in wide.iter() if e.tag in ("svg", NS + "svg")]
    assert [[next(e.iter(NS + "title")).text for e in layout.iter() if e.tag in ("svg", NS + "svg")]
            for layout in (wide, narrow)] == [[next(e.iter(NS + "title")).text for e in svgs]] * 2
    assert [next(e.iter(NS + "title")).text for e in svgs] == [f"round {d.round}, action {d.action}: before the move: "
                                                               f"{which}" for which in ("played", "best")]
    assert [[x.get("data-ghost") for x in s.iter(NS + "g") if x.get("data-ghost")] for s in svgs] == [[str(a)], [str(b)]]
