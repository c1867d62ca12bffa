"""A browser review's findings M1-M3 (Playwright driving Debian's chromium, as
tests/test_serve_browser.py; ``FIVEUP_SKIP_BROWSER=1`` leaves them out on a machine that
cannot have it):

- M1: the analysis summary's result column showed a bare 0 / 100, read as a score beside the
  net luck: it says won / lost / unfinished now, and the heading says what it is;
- M2: in the 3-player win-% graph a marked point was filled yellow, orange or red whatever
  its seat; the seat legend was drawn in the graph's bottom right, off a phone's screen. A
  marked point keeps its seat's fill (the mark is a ring), and the key is in the page above
  the graph;
- M3: at the start of a game where the bots move first, the hand was empty, Undo looked live
  and the page was not busy: the dealt hand is shown dimmed, the page busy, the status says
  the others are playing, and Undo is off (in the page's markup too).
"""

import pytest

pytest.importorskip("fastapi", reason="the serve extra is part of the test extra")
pytest.importorskip("playwright", reason="playwright is part of the test extra")

from browser_chromium import browser_type_launch_args, record3, server  # noqa: E402,F401  (fixtures)
from browser_chromium import LAPTOP, PHONE, close_page as _close, open_page as _page  # noqa: E402
from browser_chromium import round_record_file  # noqa: E402

BOTS_FIRST_SEED = 6      # 3 players, seat 0: seats 1 and 2 move before the person in round 0


def _analysed(browser, server, path, options=LAPTOP, seat=None):
    """A context and a page (entered) with `path` analysed on the analysis board at the quick strength."""
    from browser_chromium import analyse_on_page
    context, checked, page = _page(browser, options)
    page.goto(f"{server}/analysis")
    analyse_on_page(page, path, seat)
    return context, checked, page


# ------------------------------------------------------------------ M1
def test_the_summary_says_the_result_in_words(browser, server, record3, tmp_path):
    context, checked, page = _analysed(browser, server, record3)
    try:
        head = page.locator("#summary tr").first.locator("th").all_inner_texts()
        column = head.index("result")
        results = [r.locator("td").nth(column).inner_text() for r in page.locator("#summary tr").all()[1:]]
        assert sorted(results) == ["lost", "lost", "won"], results       # not 0 / 0 / 100
        note = page.locator("h3:has-text('Summary') .small").inner_text()
        assert "result" in note and "won" in note and "lost" in note
    finally:
        _close(context, checked)
    # a game not over yet (one round): no side has won
    path, _ = round_record_file(tmp_path, 2, 6)
    context, checked, page = _analysed(browser, server, path)
    try:
        cells = page.locator("#summary tr").nth(1).locator("td").all_inner_texts()
        assert cells[9] == "unfinished", cells                            # not "-"
    finally:
        _close(context, checked)


# ------------------------------------------------------------------ M2
def _points(page):
    """Every graph point: [seat, mark, its fill, the stroke of its ring or None]."""
    return page.evaluate("""() => [...document.querySelectorAll('#graph circle.pt')].map(c => {
        const seat = [...c.classList].find(k => /^seat\\d$/.test(k));
        const mark = ['inaccuracy', 'mistake', 'blunder'].find(k => c.classList.contains(k)) || null;
        const ring = document.querySelector(`#graph circle.ring[data-ring="${c.dataset.k}"]`);
        return [seat, mark, getComputedStyle(c).fill, ring ? getComputedStyle(ring).stroke : null]; })""")


def test_marked_points_keep_their_seat_colour_in_a_3_player_graph(browser, server, record3):
    context, checked, page = _analysed(browser, server, record3)
    try:
        points = _points(page)
        marked = [p for p in points if p[1]]
        assert len({p[0] for p in points}) == 3 and len({p[0] for p in marked}) >= 2, points
        fills = {}
        for seat, mark, fill, _ in points:
            if not mark:
                fills.setdefault(seat, fill)
        assert len(set(fills.values())) == 3, fills                     # a colour a seat
        # a marked point is filled with its seat's colour; its mark is a ring, one colour a kind
        assert all(fill == fills[seat] for seat, _, fill, _ in marked), marked
        assert all(ring not in (None, "none") for *_, ring in marked), marked
        by_mark = {}
        for _, mark, _, ring in marked:
            by_mark.setdefault(mark, set()).add(ring)
        assert all(len(r) == 1 for r in by_mark.values()) and len({*map(frozenset, by_mark.values())}) == len(by_mark)
        # the key names every seat with its points' colour, and the rings
        keys = page.evaluate("""() => [...document.querySelectorAll('#graph-legend [data-seat]')].map(k =>
            [k.dataset.seat, getComputedStyle(k.querySelector('.swatch')).backgroundColor, k.innerText])""")
        assert [(s, t) for s, _, t in keys] == [("0", "seat 0 (greedy#0)"), ("1", "seat 1 (greedy#1)"),
                                                      ("2", "seat 2 (random#2)")]
        assert all(colour == fills[f"seat{s}"] for s, colour, _ in keys), (keys, fills)
        assert page.locator("#graph-legend [data-mark]").count() == len(by_mark)
    finally:
        _close(context, checked)


def test_the_seat_legend_is_on_a_phones_screen_without_scrolling_the_graph(browser, server, record3):
    context, checked, page = _analysed(browser, server, record3, PHONE)
    try:
        page.locator("#graph").scroll_into_view_if_needed()
        assert page.evaluate("document.getElementById('graph').scrollLeft") == 0
        assert page.evaluate("document.getElementById('graph').scrollWidth") > 390     # the graph scrolls sideways
        keys = page.locator("#graph-legend [data-seat]")
        assert keys.count() == 3
        for k in keys.all():
            assert k.is_visible()
            box = k.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
        # the key is outside the graph's sideways scrolling box
        assert page.evaluate("document.getElementById('graph').contains(document.getElementById('graph-legend'))") is False
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        _close(context, checked)


# ------------------------------------------------------------------ M3
def test_undo_is_off_in_the_pages_markup(browser, server):
    context, checked, page = _page(browser, LAPTOP)
    try:
        page.goto(f"{server}/")
        page.wait_for_selector("#bot-choices select")
        assert page.locator("#undo").is_disabled()
    finally:
        _close(context, checked)


def test_while_the_bots_open_the_hand_is_shown_dimmed_and_the_page_is_busy(browser, server):
    context, checked, page = _page(browser, LAPTOP)
    try:
        # a long pause after each bot move: the page is looked at while the first one is shown
        page.goto(f"{server}/?players=3&seat=0&bots=level1,level1&seed={BOTS_FIRST_SEED}&delay=6000")
        page.wait_for_selector("#bot-choices select")
        page.click("#start")
        page.wait_for_selector("#log li[data-round]")          # the first bot move is on the board
        seen = page.evaluate("""() => ({
            state: document.body.dataset.state,
            tiles: [...document.querySelectorAll('#hand button.tile')].map(b => [b.dataset.tile, b.disabled]),
            opacity: getComputedStyle(document.getElementById('hand')).opacity,
            undo: document.getElementById('undo').disabled,
            moves: document.querySelectorAll('#moves button').length,
            status: document.getElementById('status').innerText })""")
        assert seen["state"] == "busy", seen
        assert len(seen["tiles"]) == 5 and all(disabled for _, disabled in seen["tiles"]), seen
        assert float(seen["opacity"]) < 1, seen                  # dimmed (style.css: the busy state)
        assert seen["undo"] is True and seen["moves"] == 0, seen
        assert "the others are playing" in seen["status"], seen
        # the person's turn: the same tiles, playable now; still nothing to undo
        page.wait_for_selector("body[data-state=ready]")
        assert sorted(page.locator("#hand button.tile").evaluate_all("bs => bs.map(b => b.dataset.tile)")) \
            == sorted(t for t, _ in seen["tiles"])
        assert page.locator("#hand button.tile.playable").count() >= 1
        assert page.locator("#undo").is_disabled()
        assert "your move" in page.locator("#status").inner_text()
    finally:
        _close(context, checked)


# ------------------------------------------------------------------ L3, L4: a bad file, one wording
def _file_error(page, selector, path):
    page.set_input_files(selector, str(path))
    # (the line names the file: the one before it is gone, whatever the order of the two)
    page.wait_for_function("name => { const e = document.getElementById('error');"
                           " return !e.hidden && e.textContent.includes(name); }", arg=path.name)
    return page.locator("#error").inner_text()


def test_a_bad_file_reads_the_same_on_both_pages_and_never_shows_its_bytes(browser, server, tmp_path):
    """A review (L3, L4): a picture chosen by mistake printed its bytes in the error line (as
    boxes), and a JSON array read "record: a record is ..." on the play page but "FILE: a
    record is ..." on the analysis board. Both pages now read a record file through one
    function: the file named first, a binary file called one, and JSON's words for a value
    that is no object."""
    binary = tmp_path / "picture.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    array = tmp_path / "array.json"
    array.write_text("[1, 2]")
    seen = {}
    for where, selector in (("/", "#load"), ("/analysis", "#file")):
        context, checked, page = _page(browser, LAPTOP)
        try:
            page.goto(f"{server}{where}")
            page.wait_for_selector(selector, state="attached")
            seen[where] = (_file_error(page, selector, binary), _file_error(page, selector, array))
        finally:
            _close(context, checked)
    for where, (bin_text, array_text) in seen.items():
        assert bin_text == ("picture.png: not a JSON text file (a record is JSON text, as fiveup-record/1 "
                            "writes it)"), where
        assert array_text == "array.json: a record is a JSON object, not an array", where
