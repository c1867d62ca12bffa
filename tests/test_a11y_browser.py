"""The accessibility review's findings on the pages (Playwright driving Debian's chromium, as
tests/test_serve_browser.py; ``FIVEUP_SKIP_BROWSER=1`` leaves them out on a machine that
cannot have it). What a keyboard or screen-reader user gets:

- H1: the focus stays on a control (a hand tile, Next round, the result's heading, the move
  list, a what-if move) after Start, every move, Next round, the game's end, the last Undo,
  Analyse, a what-if move and Evaluate; never on the page itself;
- M1: one short polite live region says what happened (the others' moves, the scoring,
  "your move", the hint, a round's end, the result); the long status line is not live;
- M2: the progress bar is named, the analysis's end and each decision stepped to are said,
  the move list is a listbox, the graph has a summary in words;
- M3: the analysis board's keys act only on the board view, never with Alt, Ctrl or Meta;
- M4, M5: text contrast 4.5:1 and the focus ring and the picked tile 3:1, computed here from
  the computed styles with WCAG's formula, in the light and the dark scheme;
- M6, M7, M8, L1, L2, L3, L4, L6: forced colours, the seats' shapes on the graph, the record
  field's label, reduced motion, a phone's targets, 320 px, states in words, the board's role.
"""
import re

import pytest

pytest.importorskip("fastapi", reason="the serve extra is part of the test extra")
pytest.importorskip("playwright", reason="playwright is part of the test extra")

from browser_chromium import browser_type_launch_args, record3, server  # noqa: E402,F401  (fixtures)
from browser_chromium import LAPTOP, PHONE, close_page as _close, open_page  # noqa: E402
from browser_chromium import analyse_on_page, round_record_file  # noqa: E402

GAME = "players=2&seat=0&bots=level1&seed=3&delay=0"
SETTLED = "body[data-state=ready], body[data-state=roundover], body[data-state=over]"
# what has the focus: "BODY", "tile", "end" (a board end), "#id", or "over h2"
FOCUS = """() => { const a = document.activeElement;
  if (!a || a === document.body) return 'BODY';
  if (a.closest('#hand') && a.classList.contains('tile')) return 'tile';
  if (a.closest('#board')) return 'end';
  if (a.matches('#over h2')) return 'over h2';
  if (a.closest('#whatif') && a.matches('button.link')) return 'what-if';
  return a.id ? '#' + a.id : a.tagName; }"""
# every text the live region #say took, in order (a MutationObserver from the page's start)
RECORD_SAID = """() => { window.said = [];
  const watch = () => { const box = document.getElementById('say');
    if (!box) return;
    new MutationObserver(() => window.said.push(box.textContent))
      .observe(box, {childList: true, subtree: true, characterData: true}); };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', watch); else watch(); }"""


def _page(browser, options=LAPTOP, **context_options):
    return open_page(browser, options, f"({RECORD_SAID})()", **context_options)


def _rgb(text):
    return [float(v) for v in re.findall(r"[\d.]+", text)[:3]]


def ratio(a, b):
    """WCAG 2 contrast ratio of two CSS colours (rgb()/rgba() strings, taken as opaque)."""
    def lum(c):
        f = [v / 255 for v in _rgb(c)]
        f = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in f]
        return 0.2126 * f[0] + 0.7152 * f[1] + 0.0722 * f[2]
    x, y = sorted((lum(a), lum(b)), reverse=True)
    return (x + 0.05) / (y + 0.05)


# a node's colour and the first opaque background behind it (its own or an ancestor's)
STYLE = """(n) => { const bg = (e) => { for (; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor;
    const p = c.match(/[\\d.]+/g).map(Number); if (p.length < 4 || p[3] > 0) return c; } return 'rgb(255, 255, 255)'; };
  const s = getComputedStyle(n);
  return {color: s.color, background: bg(n), page: bg(document.body), outlineColor: s.outlineColor,
          outlineStyle: s.outlineStyle, outlineWidth: parseFloat(s.outlineWidth), outlineOffset: parseFloat(s.outlineOffset),
          borderColor: s.borderTopColor, boxShadow: s.boxShadow, animation: s.animationName}; }"""


def _start(page, server, query=GAME):
    """A new game started from the keyboard (Enter on Start)."""
    page.goto(f"{server}/?{query}")
    page.wait_for_selector("#bot-choices select")
    page.focus("#start")
    page.keyboard.press("Enter")
    page.wait_for_selector(SETTLED)


def _said(page):
    return page.evaluate("window.said")


def _keyboard_move(page):
    """Enter on the focused tile, then (not an opening) Enter on its highlighted end."""
    assert page.evaluate(FOCUS) == "tile"
    page.keyboard.press("Enter")
    if page.evaluate(FOCUS) == "end":
        page.keyboard.press("Enter")
    page.wait_for_selector(SETTLED)


# ------------------------------------------------------------------ H1, M1: the play page
def test_a_whole_game_from_the_keyboard_keeps_the_focus_and_says_what_happened(browser, server):
    context, checked, page = _page(browser)
    try:
        _start(page, server)
        assert page.evaluate(FOCUS) == "tile"                    # Start is hidden: the focus on the hand
        # one polite live region; the long status line and the note are not live (nor inside one)
        live = "[aria-live], [role=status], [role=log], [role=alert], [role=marquee], [role=timer]"
        assert page.evaluate(f"[...document.querySelectorAll('{live}')].map(e => e.id)") == ["error", "say"]
        assert page.evaluate(f"document.getElementById('status').closest('{live}')") is None
        assert page.locator("#say").get_attribute("aria-live") == "polite"
        assert _said(page)[-1].endswith("Your move.")
        moves = rounds = 0
        while page.evaluate("document.body.dataset.state") != "over":
            state = page.evaluate("document.body.dataset.state")
            if state == "roundover":
                # the round's end said: its heading and the scores; the focus on Next round
                assert page.evaluate(FOCUS) == "#next-round"
                heading = page.locator("#round-end h3").inner_text()
                assert heading in _said(page)[-1] and "Scores after the round: " in _said(page)[-1], _said(page)[-1]
                page.keyboard.press("Enter")
                page.wait_for_selector("body[data-state=ready], body[data-state=over]")
                rounds += 1
            else:
                assert state == "ready"
                _keyboard_move(page)
                moves += 1
                said = _said(page)[-1]
                # what happened, short: your move, the bot's reply, the scoring
                assert said.startswith("You played ") or said.startswith("You drew") or said.startswith("You passed"), said
                assert len(said) < 400 and "boneyard" not in said and "target 305" not in said, said
            now = page.evaluate("document.body.dataset.state")
            expected = {"ready": "tile", "roundover": "#next-round", "over": "over h2"}[now]
            assert page.evaluate(FOCUS) == expected, (moves, now)
            if now == "ready":
                assert _said(page)[-1].endswith("Your move."), _said(page)[-1]
            assert moves < 200
        assert moves > 20 and rounds >= 3, (moves, rounds)
        # the game's end: the focus on the result, which is said
        result = page.locator("#over h2").inner_text()
        assert page.evaluate(FOCUS) == "over h2"
        assert result in _said(page)[-1] and "Final scores: " in _said(page)[-1], (result, _said(page)[-1])
        # the status line was never said (not a live region): no text of it in the region
        assert not any("tiles in hand" in s for s in _said(page))
    finally:
        _close(context, checked)


def test_the_last_undo_puts_the_focus_on_the_hand_and_says_so(browser, server):
    context, checked, page = _page(browser)
    try:
        _start(page, server)
        _keyboard_move(page)
        page.focus("#undo")
        page.keyboard.press("Enter")
        page.wait_for_selector("#undo:disabled")
        page.wait_for_selector("body[data-state=ready]")
        assert page.evaluate(FOCUS) == "tile"                    # Undo is off now: not left on it
        assert "taken back" in _said(page)[-1] and _said(page)[-1].endswith("Your move."), _said(page)[-1]
        # the undone entries say so in words, not by their strike-through alone
        undone = page.locator("#log li.undone")
        assert undone.count() >= 1 and all(t.endswith("(undone)") for t in undone.all_text_contents())
    finally:
        _close(context, checked)


def test_the_hint_is_said_when_it_is_ready(browser, server):
    context, checked, page = _page(browser)
    try:
        _start(page, server)
        page.check("#hints")
        page.wait_for_selector("#hint-box[data-state=ready]")
        best = page.locator("#hint-table tr.best button").first.inner_text()
        page.wait_for_function("(b) => window.said.some(s => s.startsWith('Hint ready: ') && s.includes(b))", arg=best)
    finally:
        _close(context, checked)


# ------------------------------------------------------------------ M8, L4, L5, L6: names and roles
def test_names_roles_and_states_in_the_play_page(browser, server):
    context, checked, page = _page(browser)
    try:
        page.goto(f"{server}/?{GAME}")
        page.wait_for_selector("#bot-choices select")
        # the record field is named by its sentence (a review: "Choose File, button")
        setup = page.locator("#setup").aria_snapshot()
        assert 'button "Or go on from a record (fiveup-record/1):"' in setup, setup
        assert page.evaluate("Boolean(document.getElementById('setup').closest('main'))")       # in a landmark
        # the seed's warning is on the page, and the field's description (it was a hover title only)
        assert page.locator("#seed-note").is_visible()
        described = page.evaluate("document.getElementById(document.getElementById('seed')"
                                  ".getAttribute('aria-describedby')).textContent")
        assert "whoever knows it can compute every hidden tile" in " ".join(described.split())
        page.focus("#start")
        page.keyboard.press("Enter")
        page.wait_for_selector("body[data-state=ready]")
        assert page.evaluate("[...document.querySelectorAll('#table h2')].map(h => h.textContent.trim())")[:2] == \
            ["Your hand", "Hint"]
        # a tile picked is a pressed toggle; its ends are buttons named in words, in a group (not an image)
        tile = page.locator("#hand button.tile:not(:disabled)").first
        assert tile.get_attribute("aria-pressed") == "false"
        _keyboard_move(page)              # (then the board has open ends)
        page.locator("#hand button.tile:not(:disabled)").first.focus()
        page.keyboard.press("Enter")
        assert page.evaluate(FOCUS) == "end"
        name = page.evaluate("document.querySelector('#hand .tile.selected').dataset.tile")
        assert page.locator("#hand .tile.selected").get_attribute("aria-pressed") == "true"
        assert page.evaluate("document.querySelector('#board svg').getAttribute('role')") == "group"
        label = page.evaluate("document.activeElement.getAttribute('aria-label')")
        assert re.fullmatch(rf"play {name} on (the \w+ end of )?\d-\d", label), label
        snap = page.locator("#board").aria_snapshot()
        assert f'button "{label}"' in snap, snap
    finally:
        _close(context, checked)


# ------------------------------------------------------------------ M4, M5, L1, M6: contrast and motion
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_focus_ring_and_the_picked_tile_stand_out(browser, server, scheme):
    context, checked, page = _page(browser, color_scheme=scheme)
    try:
        _start(page, server)
        _keyboard_move(page)                                    # (then the board has open ends)
        # the focus ring around a hand tile (Tab there and back), 3:1 against the page, with a gap
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")
        assert page.evaluate(FOCUS) == "tile"
        s = page.evaluate(f"({STYLE})(document.activeElement)")
        assert s["outlineStyle"] != "none" and s["outlineWidth"] >= 2
        assert ratio(s["outlineColor"], s["page"]) >= 3, s
        # next to the tile's own border only with a gap of the page between them
        assert s["outlineOffset"] >= 1 or ratio(s["outlineColor"], s["borderColor"]) >= 3, s
        # the picked tile: its border and its outer ring 3:1 against the page (not a pale glow)
        page.keyboard.press("Enter")
        tile = page.locator("#hand .tile.selected")
        s = page.evaluate(f"({STYLE})(document.querySelector('#hand .tile.selected'))")
        rings = re.findall(r"rgba?\([^)]*\)", s["boxShadow"])
        assert rings and ratio(rings[-1], s["page"]) >= 3, s
        assert ratio(s["borderColor"], s["background"]) >= 3, s
        assert tile.get_attribute("aria-pressed") == "true"
        # the highlighted end's focus ring on the felt
        e = page.evaluate(f"({STYLE})(document.activeElement)")
        felt = page.evaluate("getComputedStyle(document.getElementById('board')).backgroundColor")
        assert ratio(e["outlineColor"], felt) >= 3, (e, felt)
    finally:
        _close(context, checked)


def test_reduced_motion_stops_the_pulse_and_forced_colours_keep_the_picked_tile(browser, server):
    context, checked, page = _page(browser, reduced_motion="reduce", forced_colors="active")
    try:
        _start(page, server)
        _keyboard_move(page)
        page.locator("#hand button.tile:not(:disabled)").first.focus()
        page.keyboard.press("Enter")
        ends = page.evaluate("""[...document.querySelectorAll('#board .target circle, #board circle.target')]
            .map(c => getComputedStyle(c).animationName)""")
        assert ends and set(ends) == {"none"}, ends
        s = page.evaluate(f"({STYLE})(document.querySelector('#hand .tile.selected'))")
        plain = page.evaluate(f"({STYLE})(document.querySelector('#hand .tile.playable:not(.selected)'))")
        assert s["outlineStyle"] != "none" and s["outlineWidth"] >= 2, (s, plain)     # not like the others
    finally:
        _close(context, checked)


# ------------------------------------------------------------------ L3, L2: 320 px, a phone's targets
def test_320_px_needs_no_sideways_scroll_with_the_hint(browser, server):
    context, checked, page = _page(browser, {"viewport": {"width": 320, "height": 640}})
    try:
        _start(page, server, GAME.replace("seed=3", "seed=11"))
        page.check("#hints")
        page.wait_for_selector("#hint-box[data-state=ready]")
        assert page.evaluate("document.documentElement.scrollWidth") <= 320
    finally:
        _close(context, checked)


# ------------------------------------------------------------------ the analysis board
def _current(page):
    page.wait_for_selector("body[data-state=ready]")
    return int(page.locator("#movelist li.current").get_attribute("data-k"))


def test_the_analysis_board_from_the_keyboard_and_a_screen_reader(browser, server, tmp_path):
    path, g = round_record_file(tmp_path, 2, 2)
    context, checked, page = _page(browser)
    try:
        page.goto(f"{server}/analysis")
        page.wait_for_selector("#file", state="attached")
        # the progress bar is named
        page.evaluate("document.getElementById('progress').hidden = false")
        assert 'progressbar "analysis progress"' in page.locator("#progress").aria_snapshot()
        page.evaluate("document.getElementById('progress').hidden = true")
        page.set_input_files("#file", str(path))
        page.wait_for_selector("#run:enabled")
        page.select_option("#strength", "quick")
        page.select_option("#seat", "0")
        page.focus("#run")
        page.keyboard.press("Enter")                              # Analyse from the keyboard
        page.wait_for_selector("#board-view:not([hidden])", timeout=120_000)
        page.wait_for_selector("body[data-state=ready]")
        # the focus on the move list, a listbox whose current move is its active option
        assert page.evaluate(FOCUS) == "#movelist"
        assert page.locator("#movelist").get_attribute("role") == "listbox"
        k = _current(page)
        current = page.locator("#movelist li.current")
        assert current.get_attribute("role") == "option" and current.get_attribute("aria-selected") == "true"
        assert page.locator("#movelist").get_attribute("aria-activedescendant") == current.get_attribute("id")
        page.wait_for_function("() => window.said.some(s => s.startsWith('Analysis done: '))")
        said = _said(page)[-1]
        assert said.startswith("Analysis done: ") and f"Round 0, action {k}: " in said and " played " in said, said
        # stepping says the move, its mark in words and its loss
        page.keyboard.press("ArrowDown")
        assert _current(page) == k + 1
        said = _said(page)[-1]
        assert said.startswith(f"Round 0, action {k + 1}: ") and " played " in said, said
        marked = page.locator("#movelist li.inaccuracy, #movelist li.mistake, #movelist li.blunder")
        if marked.count():
            mark = next(m for m in ("inaccuracy", "mistake", "blunder")
                        if m in marked.first.get_attribute("class").split())
            page.keyboard.press("Home")
            page.keyboard.press("n")
            page.wait_for_selector(f"#movelist li.current.{mark}")
            assert f" {mark}, loses " in _said(page)[-1], _said(page)[-1]
            assert mark in marked.first.locator(".sr-only").text_content()
        # (the words for screen readers inside the scrolling list stay inside it: the page is no longer)
        assert page.evaluate("document.documentElement.scrollHeight") < 1600
        # the summary's mark columns in words
        assert page.locator("#summary th[aria-label=inaccuracies]").count() == 1
        # the graph: described in words
        graph = page.locator("#win-graph")
        summary = page.locator(f"#{graph.get_attribute('aria-describedby')}").text_content()
        assert "judged decisions" in summary and "win probability" in summary, summary
        # M3: the keys act on the board view only, and never with a modifier; the browser's own
        # shortcuts and the page's scrolling are left alone
        page.evaluate("""() => { window.prevented = [];
            window.addEventListener('keydown', (e) => window.prevented.push([e.key, e.defaultPrevented])); }""")
        page.keyboard.press("Home")
        assert _current(page) == 0
        page.evaluate("window.prevented = []")
        for key in ("Control+End", "Control+p", "Alt+ArrowRight", "Meta+ArrowRight", "Control+n"):
            page.keyboard.press(key)
        page.wait_for_selector("body[data-state=ready]")
        assert _current(page) == 0
        assert [p for p in page.evaluate("window.prevented") if p[1]] == [], page.evaluate("window.prevented")
        # a what-if move: N and End there are the browser's; Enter on it keeps the focus on it
        page.keyboard.press("End")
        page.wait_for_selector("#movelist li.final.current")
        page.keyboard.press("Home")
        assert _current(page) == 0
        step = next(i for i in range(1, len(g.current.moves)) if page.locator(f'#movelist li[data-k="{i}"]').count())
        page.keyboard.press("ArrowRight")
        assert _current(page) == step
        page.wait_for_selector("#whatif button.link")
        button = page.locator("#whatif button.link").last
        move = button.get_attribute("data-move")
        button.focus()
        page.evaluate("window.prevented = []")
        for key in ("n", "End", "ArrowLeft"):
            page.keyboard.press(key)
        assert _current(page) == step
        assert [p for p in page.evaluate("window.prevented") if p[1]] == []
        page.keyboard.press("Enter")
        page.wait_for_function("m => document.getElementById('whatif-value').textContent.startsWith(m)", arg=move)
        page.wait_for_selector("body[data-state=ready]")
        assert page.evaluate(FOCUS) == "what-if"
        assert page.evaluate("document.activeElement.dataset.move") == move
        # Evaluate (another seat's action: not analysed): the focus on the table's first move
        other = page.locator("#movelist li.act").all()
        for item in other:
            item.click()
            page.wait_for_selector("body[data-state=ready]")
            if page.locator("#evaluate").count():
                break
        else:
            pytest.fail("no position to evaluate")
        page.focus("#evaluate")
        page.keyboard.press("Enter")
        page.wait_for_selector("#evaluate", state="detached")
        page.wait_for_selector("body[data-state=ready]")
        assert page.evaluate(FOCUS) == "what-if"
    finally:
        _close(context, checked)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_marks_and_what_if_rows_keep_their_text_readable(browser, server, tmp_path, scheme):
    path, _ = round_record_file(tmp_path, 2, 2)
    context, checked, page = _page(browser, color_scheme=scheme)
    try:
        page.goto(f"{server}/analysis")
        analyse_on_page(page, path)
        # every kind of mark, current or not, in the list; a badge of each; a move on each kind of
        # what-if row (drawn into the page's own list and table: the stylesheet's colours)
        page.evaluate("""() => { const list = document.getElementById('movelist');
            for (const m of ['inaccuracy', 'mistake', 'blunder']) for (const c of ['', ' current']) {
              const li = document.createElement('li'); li.className = `act ${m}${c} probe`; li.textContent = 'seat 0: 2-5@0-5:high ?!';
              list.append(li);
              const b = document.createElement('span'); b.className = `badge ${m} probe`; b.textContent = m;
              document.getElementById('decision').append(b); }
            const t = document.createElement('table'); t.className = 'hint-table probe-table';
            for (const r of ['played', 'tried', 'best', 'played best', '']) {
              const tr = t.insertRow(); tr.className = r; const td = tr.insertCell();
              const b = document.createElement('button'); b.className = 'link probe'; b.textContent = '2-5@0-5:high'; td.append(b); }
            document.getElementById('whatif').append(t); }""")
        figures = page.evaluate(f"""() => [...document.querySelectorAll('.probe')].map(n => {{
            const s = ({STYLE})(n); return [n.className + ' ' + (n.closest('tr') ? n.closest('tr').className : ''),
            s.color, s.background]; }})""")
        low = [(name, round(ratio(fg, bg), 2)) for name, fg, bg in figures if ratio(fg, bg) < 4.5]
        assert len(figures) == 17 and low == [], low
        # the current move: not by its background alone (a bar 3:1 against the list)
        s = page.evaluate(f"({STYLE})(document.querySelector('#movelist li.current'))")
        bar = re.findall(r"rgba?\([^)]*\)", s["boxShadow"]) or [s["outlineColor"]]
        assert ratio(bar[0], s["background"]) >= 3, s
    finally:
        _close(context, checked)


def test_the_3_player_graph_tells_the_seats_by_shape(browser, server, record3):
    context, checked, page = _page(browser)
    try:
        page.goto(f"{server}/analysis")
        analyse_on_page(page, record3)
        shapes = page.evaluate("""() => [...document.querySelectorAll('#graph circle.pt')].map(c => {
            const seat = [...c.classList].find(k => /^seat\\d$/.test(k));
            const m = document.querySelector(`#graph .marker[data-marker="${c.dataset.k}"]`);
            return [seat, m ? m.getAttribute('d').split('L').length : 0]; })""")
        by_seat = {}
        for seat, corners in shapes:
            by_seat.setdefault(seat, set()).add(corners)
        assert len(by_seat) == 3 and all(len(v) == 1 for v in by_seat.values()), by_seat
        assert len({next(iter(v)) for v in by_seat.values()}) == 3, by_seat      # a shape a seat
        # the key drawn in the same shapes: no two seats' swatches alike but for their colour
        keys = page.evaluate("""() => [...document.querySelectorAll('#graph-legend [data-seat] .swatch')].map(k => {
            const s = getComputedStyle(k); return [s.borderTopLeftRadius, s.clipPath]; })""")
        assert len(keys) == 3 and len({tuple(k) for k in keys}) == 3, keys
        # every seat's points 3:1 against the plot, and the rings too
        plot = page.evaluate("getComputedStyle(document.querySelector('#graph .plot')).fill")
        fills = page.evaluate("""() => [...new Set([...document.querySelectorAll('#graph circle.pt, #graph .marker')]
            .map(c => getComputedStyle(c).fill)), ...new Set([...document.querySelectorAll('#graph .ring')]
            .map(c => getComputedStyle(c).stroke))]""")
        fills.append(page.evaluate("getComputedStyle(document.getElementById('graph-cursor')).stroke"))
        low = [(f, round(ratio(f, plot), 2)) for f in fills if ratio(f, plot) < 3]
        assert low == [], low                 # (the current decision's cursor line too)
    finally:
        _close(context, checked)


def test_a_phones_targets_are_24_px(browser, server, tmp_path):
    path, _ = round_record_file(tmp_path, 2, 2)
    context, checked, page = _page(browser, PHONE)
    try:
        page.goto(f"{server}/analysis")
        analyse_on_page(page, path)
        page.click('#movelist li[data-k="3"]')
        page.wait_for_selector("body[data-state=ready]")
        heights = page.evaluate("""() => [...document.querySelectorAll('nav a, #whatif button.link, #movelist li.act')]
            .map(n => [n.textContent.trim().slice(0, 20), n.getBoundingClientRect().height])""")
        small = [(t, h) for t, h in heights if h < 24]
        assert heights and small == [], small
        # the nav links on one line each
        tops = page.evaluate("[...document.querySelectorAll('nav a')].map(a => a.getClientRects().length)")
        assert tops == [1, 1], tops
    finally:
        _close(context, checked)
