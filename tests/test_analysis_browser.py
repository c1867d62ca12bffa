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
from browser_chromium import round_record_file  # noqa: E402
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
        # a board is shown whole in the square layout, at the page's width, with readable numbers
        # (a review: 7 px captions and 6 px badge digits when the wide boards shrank to the phone's
        # width; another: a ghost at the right end off screen when they kept a 440 px least width)
        shown = page.evaluate("""() => [...document.querySelectorAll('figure.board svg')]
            .filter(s => s.getBoundingClientRect().width > 0).map(s => {
                const r = s.getBoundingClientRect();
                const caption = [...s.querySelectorAll('text')].find(t => t.textContent.startsWith('ends'));
                return [s.closest('.boards').className, r.left, r.right,
                        caption ? caption.getBoundingClientRect().height : null]; })""")
        figures = page.evaluate("document.querySelectorAll('figure.board').length")
        twos = page.evaluate("""document.querySelectorAll('figure.board[data-boards="2"]').length""")
        assert len(shown) == figures + twos, shown          # one layout's boards each, not both
        assert all(cls == "boards layout-narrow" and left >= 0 and right <= 390 for cls, left, right, _ in shown)
        captions = [h for *_, h in shown if h]
        assert captions and min(captions) >= 10, captions
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
            .map(f => [...f.querySelectorAll('svg')].filter(s => s.getBoundingClientRect().width > 0)
                 .map(s => s.getBoundingClientRect().bottom))""")
        assert bottoms and all(len(b) == 2 and abs(b[0] - b[1]) < 1 for b in bottoms), bottoms
        layouts = page.evaluate("""() => [...document.querySelectorAll('figure.board svg')]
            .filter(s => s.getBoundingClientRect().width > 0).map(s => s.closest('.boards').className)""")
        assert layouts and set(layouts) == {"boards layout-wide"}         # the wide layout on a screen
        # a "loss win-%" cell ("8.1 ± 1.0") and a "loss pts" one are one line each (a review: "0.0 ±" / "0.0")
        lines = page.evaluate("""() => [...document.querySelectorAll('table tr')].slice(1).flatMap(r =>
            [...r.cells].filter(c => c.textContent.includes('\u00b1')).map(c => {
                const range = document.createRange(); range.selectNodeContents(c);
                return new Set([...range.getClientRects()].map(x => Math.round(x.top))).size; }))""")
        assert lines and max(lines) == 1, lines
        assert outside == []
    finally:
        context.close()


# ---------------------------------------------------------------- the web analysis board (fiveup serve)
@pytest.fixture(scope="module")
def server():
    """``fiveup serve``'s app on 127.0.0.1 in a thread (as tests/test_serve_browser.py)."""
    pytest.importorskip("fastapi", reason="the serve extra is part of the test extra")
    from browser_chromium import served_app
    with served_app() as (url, _):
        yield url


@pytest.fixture
def board_page(browser, server):
    """The analysis page; requests leaving 127.0.0.1 and page errors fail the test."""
    from browser_chromium import checked_page
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        with checked_page(context, timeout_ms=60_000) as page:
            page.goto(f"{server}/analysis")
            yield page
    finally:
        context.close()


def _analyse(page, path, seat=None):
    from browser_chromium import analyse_on_page
    analyse_on_page(page, path, seat)


def test_evaluate_searches_as_the_analysis_beside_it(board_page, tmp_path):
    """A review (D2): at a 3-player position the analysis did not judge, Evaluate asked
    /api/hint's default (paranoid, 32 worlds) beside the analysis's max^n rows (96 worlds
    at the standard strength). It asks the analysis's own search, worlds and method, for
    the win, and the panel says how its values were searched."""
    path, g = round_record_file(tmp_path, 3, 6)
    _analyse(board_page, path, seat=0)
    sent = []
    board_page.on("request", lambda r: sent.append(r.post_data_json) if r.url.endswith("/api/hint") else None)
    # seat 1's first action: not analysed (seat 0 was)
    k = next(k for k, (s, _) in enumerate(g.current.moves) if s == 1)
    board_page.click(f'#movelist li[data-k="{k}"]')
    board_page.wait_for_selector("#evaluate")
    board_page.click("#evaluate")
    board_page.wait_for_selector("#whatif-legend:has-text('evaluated here')")
    (body,) = sent
    assert (body["search"], body["samples"], body["method"], body["objective"]) == ("maxn", 16, "pimc", "win")
    legend = board_page.locator("#whatif-legend").inner_text()
    assert "max^n search, 16 worlds" in legend and "less the mean of the two others'" in legend
    # a judged decision's rows say they are the analysis's
    board_page.locator("#graph circle.pt").first.dispatch_event("click")      # a judged decision
    board_page.wait_for_selector("#whatif-legend:has-text(\"the analysis's max^n search, 16 worlds\")")


def test_a_new_record_file_clears_the_old_error_and_a_bad_one_leaves_nothing_to_run(board_page, tmp_path):
    """A review (nit 5): an error stayed over a good file chosen after it; after a good file
    then a bad one, Run stayed on (it would have analysed the good one) under its name."""
    good, _ = round_record_file(tmp_path, 2, 6)
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "fiveup-rec')
    array = tmp_path / "array.json"
    array.write_text("[1, 2]")
    page = board_page
    page.set_input_files("#file", str(broken))
    page.wait_for_selector("#error:not([hidden])")
    assert "broken.json: not valid JSON" in page.locator("#error").inner_text()
    page.set_input_files("#file", str(good))
    page.wait_for_selector("#run:enabled")
    assert page.locator("#error").is_hidden() and "game.json" in page.locator("#source").inner_text()
    page.set_input_files("#file", str(array))
    page.wait_for_selector("#error:not([hidden])")
    assert page.locator("#error").inner_text() == "array.json: a record is a JSON object, not an array"
    assert page.locator("#run").is_disabled() and "game.json" not in page.locator("#source").inner_text()
    page.set_input_files("#file", str(good))
    page.wait_for_selector("#run:enabled")
    page.set_input_files("#file", str(broken))
    page.wait_for_selector("#error:not([hidden])")
    assert page.locator("#run").is_disabled() and "game.json" not in page.locator("#source").inner_text()


def test_the_board_shows_the_position_after_the_last_action(board_page, tmp_path):
    """A review (nit 6): the board showed each position before an action, so the game's
    end (the winning move) was never on it. After the last action comes its final position:
    every placement on the board, the last one outlined."""
    path, g = round_record_file(tmp_path, 2, 6)
    _analyse(board_page, path)
    page = board_page
    n = len(g.current.moves)
    page.keyboard.press("End")                       # End: the final position
    page.wait_for_selector(f'#movelist li.final.current[data-k="{n}"]')
    page.keyboard.press("ArrowLeft")                 # the last action, then again after it
    page.wait_for_selector(f'#movelist li.current[data-k="{n - 1}"]')
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(f'#movelist li.final.current[data-k="{n}"]')
    page.wait_for_selector(f'#aboard[data-action="{n}"]')
    page.wait_for_selector("body[data-state=ready]")
    placements = [m for _, m in g.current.moves if m.kind == "play"]
    assert page.locator("#aboard g.tile").count() == len(placements)
    last = page.locator("#aboard [data-lastmove]").first.get_attribute("data-lastmove")
    assert last == str(placements[-1])
    assert page.locator("#aboard title").first.text_content() == f"round 0, after action {n - 1}"
    assert "the final position" in page.locator("#decision").inner_text()
    assert "round over" in page.locator("#pos-info").inner_text()
    # a click on the list's last entry shows it too
    page.keyboard.press("Home")
    page.wait_for_selector('#movelist li.current[data-k="0"]')
    page.click("#movelist li.final")
    page.wait_for_selector(f'#movelist li.final.current[data-k="{n}"]')
