"""The HTML analysis report in a real browser (Playwright driving Debian's chromium, as
tests/test_serve_browser.py; ``FIVEUP_SKIP_BROWSER=1`` leaves them out on a machine that
cannot have it): on a phone (390 x 844, mobile emulation) the page does not scroll
sideways and its text is not scaled down (a review: no viewport meta, 500 px figures,
the page laid out 996 px wide at 6 px text); on a desktop the played/best boards'
bottoms line up and no loss cell wraps. The report is self-contained: any request is
blocked and fails the test."""
from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright", reason="playwright is part of the test extra")
pytest.importorskip("matplotlib", reason="the HTML report needs the analysis extra")

from browser_chromium import browser_type_launch_args  # noqa: E402,F401  (the fixture)
from fiveup_solver.analysis import AnalysisBudget, analyze, to_html  # noqa: E402
from fiveup_solver.selfplay import play_game  # noqa: E402

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}


@pytest.fixture(scope="module")
def report():
    """Greedy self-play (2 players, seed 5): marked decisions, among them one whose played and
    best moves are on one end (a board each)."""
    record = play_game(2, 5, ["greedy", "greedy"]).to_record()
    a = analyze(record, budget=AnalysisBudget(samples=16, luck_samples=8, world_nodes=3_000, dd_nodes=0), seed=3)
    return to_html(a, record)


def _open(browser, html, options):
    context = browser.new_context(**options)
    outside = []

    def route(r):
        outside.append(r.request.url)
        r.abort()
    context.route(re.compile(r"^(?!data:|about:).*"), route)
    page = context.new_page()
    page.set_content(html)
    return context, page, outside


def test_the_report_has_a_viewport_meta_tag(report):
    assert re.search(r'<meta name="viewport" content="width=device-width, initial-scale=1"\s*/?>', report)


def test_a_phone_shows_the_report_without_sideways_scrolling(browser, report):
    assert 'data-boards="2"' in report and 'data-boards="1"' in report   # both kinds of figure
    context, page, outside = _open(browser, report, PHONE)
    try:
        assert page.evaluate("window.innerWidth") == 390          # laid out at the phone's width, not 980
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        # no element sticks out of the page (a wide table, the graph and a board scroll in their own box)
        sticking = page.evaluate("""() => [...document.body.querySelectorAll('*')]
            .filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5
                      && !e.closest('.scroll, .graph, .boards')).map(e => e.tagName)""")
        assert sticking == []
        # a board keeps readable numbers: at least 440 px wide, in a box that scrolls sideways
        # (a review: 7 px captions and 6 px badge digits when boards shrank to the phone's width)
        widths = page.evaluate("""() => [...document.querySelectorAll('figure.board svg')].map(s =>
            [s.getBoundingClientRect().width, getComputedStyle(s.closest('.boards')).overflowX])""")
        assert widths and all(w >= 440 and scroll == "auto" for w, scroll in widths), widths
        # side margins: the text does not touch the screen's edges
        left = page.evaluate("document.querySelector('h1').getBoundingClientRect().left")
        assert left >= 8
        # the body text is read at its size, and the graph's labels are not shrunk below a third of it
        assert page.evaluate("parseFloat(getComputedStyle(document.querySelector('p')).fontSize)") >= 14
        graph = page.evaluate("document.getElementById('win-graph').getBoundingClientRect().width")
        assert graph >= 560
        assert outside == []
    finally:
        context.close()


def test_a_desktop_aligns_the_board_pair_and_keeps_loss_cells_on_one_line(browser, report):
    context, page, outside = _open(browser, report, DESKTOP)
    try:
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280
        bottoms = page.evaluate("""() => [...document.querySelectorAll('figure.board[data-boards="2"]')]
            .map(f => [...f.querySelectorAll('svg')].map(s => s.getBoundingClientRect().bottom))""")
        assert bottoms and all(len(b) == 2 and abs(b[0] - b[1]) < 1 for b in bottoms), bottoms
        # a "loss win-%" cell ("8.1 ± 1.0") and a "loss pts" one are one line each (a review: "0.0 ±" / "0.0")
        lines = page.evaluate("""() => [...document.querySelectorAll('table tr')].slice(1).flatMap(r =>
            [...r.cells].filter(c => c.textContent.includes('\u00b1')).map(c => {
                const range = document.createRange(); range.selectNodeContents(c);
                return new Set([...range.getClientRects()].map(x => Math.round(x.top))).size; }))""")
        assert lines and max(lines) == 1, lines
        assert outside == []
    finally:
        context.close()
