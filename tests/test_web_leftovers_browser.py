"""The web app's leftovers in the browser (Playwright driving Debian's chromium, as
tests/test_a11y_browser.py; ``FIVEUP_SKIP_BROWSER=1`` leaves them out on a machine that cannot
have it):

- an unknown page opened in the browser is a small page in the app's style, naming the path,
  with links to the play page and the analysis board (it was the raw JSON error);
- L2 of the accessibility review: every pointer target 24 × 24 px or more, or spaced as WCAG
  2.5.8 allows, on a phone and on a laptop: the hint table's and the what-if table's moves, the
  legal moves, the move list's rows, the nav links, and each point of the win-% graph (its column
  of the plot; the points themselves were 6 to 12 px);
- L5: the Next round button is described by the round's summary it leads past;
- M2: the win-% graph has a text alternative giving each seat's (each side's) win % round by
  round, with 2, 3 and 4 players.
"""
import json
import re
from decimal import ROUND_HALF_UP, Decimal

import pytest

pytest.importorskip("fastapi", reason="the serve extra is part of the test extra")
pytest.importorskip("playwright", reason="playwright is part of the test extra")

from playwright.sync_api import expect  # noqa: E402

from browser_chromium import browser_type_launch_args, record3, server  # noqa: E402,F401  (fixtures)
from browser_chromium import LAPTOP, PHONE, close_page as _close, open_page as _page  # noqa: E402
from browser_chromium import analyse_on_page, round_record_file  # noqa: E402

GAME = "players=2&seat=0&bots=level1&seed=3&delay=0"
SETTLED = "body[data-state=ready], body[data-state=roundover], body[data-state=over]"
SCREENS = pytest.mark.parametrize("options", [PHONE, LAPTOP], ids=["phone", "laptop"])

# every pointer target shown (a container whose rows are the targets, the move list, is not one)
TARGETS = "a[href], button, input, select, summary, [role=button], [role=option], #graph .hit"
BOXES = """(sel) => [...document.querySelectorAll(sel)].filter((n) => {
    const r = n.getBoundingClientRect(), s = getComputedStyle(n);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && !n.closest('[hidden], .sr-only'); })
  .map((n) => { const r = n.getBoundingClientRect();
    return {name: (n.id || n.getAttribute('class') || n.tagName) + ' ' + (n.textContent || '').trim().slice(0, 30),
            x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height}; })"""


def _boxes(page, selector):
    """The boxes of the targets `selector` shows, in the page's coordinates."""
    return page.evaluate(BOXES, selector)


def small_targets(page, selector):
    """The targets of `selector` that WCAG 2.5.8 (Target Size, Minimum) fails: under 24 × 24 px, and
    a 24 px circle on its centre reaching another target, or the circle of another small one."""
    every = _boxes(page, TARGETS)
    mine = _boxes(page, selector)

    def centre(b):
        return b["x"] + b["w"] / 2, b["y"] + b["h"] / 2

    def reaches(c, b):              # the 24 px circle at c meets box b
        dx = max(b["x"] - c[0], 0, c[0] - b["x"] - b["w"])
        dy = max(b["y"] - c[1], 0, c[1] - b["y"] - b["h"])
        return dx * dx + dy * dy < 144 - 1e-6

    def small(b):
        return b["w"] < 24 - 1e-6 or b["h"] < 24 - 1e-6

    same = lambda a, b: all(abs(a[k] - b[k]) < 1e-6 for k in "xywh")      # noqa: E731
    fails = []
    for b in filter(small, mine):
        c = centre(b)
        for o in every:
            if same(o, b):
                continue
            oc = centre(o)
            if reaches(c, o) or (small(o) and (c[0] - oc[0]) ** 2 + (c[1] - oc[1]) ** 2 < 576 - 1e-6):
                fails.append((b["name"], round(b["w"]), round(b["h"]), "near", o["name"]))
                break
    assert mine, f"nothing shown for {selector}"
    return fails


# ------------------------------------------------------------------ an unknown page
@pytest.mark.parametrize("path", ["/nonexistent", "/play/foo"])
def test_an_unknown_page_in_the_browser_says_so_with_links(browser, server, path):
    context, checked, page = _page(browser, LAPTOP)
    try:
        answer = page.goto(f"{server}{path}")
        assert answer.status == 404 and answer.headers["content-type"].startswith("text/html")
        assert page.title() == "Exact 61 Five Up: page not found"
        assert page.locator("h2").inner_text() == "Page not found"
        assert page.locator("#not-found").inner_text() == \
            f"There is no page at {path}: go to the play page or the analysis board."
        # in the app's style: its stylesheet loaded (the panel's background, the header's rule)
        assert page.evaluate("getComputedStyle(document.querySelector('.panel')).backgroundColor") == "rgb(246, 248, 250)"
        assert page.evaluate("getComputedStyle(document.querySelector('header')).borderBottomStyle") == "solid"
        # a script's fetch() of the same path still gets the JSON error
        assert page.evaluate(f"fetch('{path}').then(r => r.json())") == {"error": f"no such page: '{path}'"}
        # the links go to the two pages
        page.get_by_role("link", name="play page").click()
        page.wait_for_selector("#bot-choices select")
        assert page.url == f"{server}/"
        page.go_back()
        page.get_by_role("link", name="analysis board").last.click()
        page.wait_for_selector("#file", state="attached")
        assert page.url == f"{server}/analysis"
        # an API path opened in the browser stays the API's JSON
        answer = page.goto(f"{server}/api/nothing")
        assert answer.status == 404 and answer.headers["content-type"] == "application/json"
        assert json.loads(page.locator("body").inner_text()) == {"error": "no such page: '/api/nothing'"}
    finally:
        _close(context, checked)


# ------------------------------------------------------------------ L2: targets of 24 px
@SCREENS
def test_the_play_pages_moves_are_24_px_targets(browser, server, options):
    context, checked, page = _page(browser, options)
    try:
        page.goto(f"{server}/?{GAME}")
        page.wait_for_selector("#bot-choices select")
        page.click("#start")
        page.wait_for_selector("body[data-state=ready]")
        page.check("#hints")
        page.wait_for_selector("#hint-box[data-state=ready]")
        # the hint table's moves were 16 px tall, 21 px apart, on a laptop; the legal moves 20 px, 22 apart
        assert small_targets(page, "#hint-table button.link") == []
        assert small_targets(page, "#moves button") == []
        assert small_targets(page, "nav a") == []
    finally:
        _close(context, checked)


@SCREENS
def test_the_analysis_boards_targets_are_24_px_and_each_point_has_its_column(browser, server, tmp_path, options):
    path, _ = round_record_file(tmp_path, 2, 2)
    context, checked, page = _page(browser, options)
    try:
        page.goto(f"{server}/analysis")
        analyse_on_page(page, path)
        page.click('#movelist li[data-k="3"]')
        page.wait_for_selector("body[data-state=ready]")
        assert small_targets(page, "#whatif button.link") == []
        assert small_targets(page, "#movelist li") == []           # (18 px rows on a laptop)
        # each judged decision's target on the graph: a column of the plot 24 px or more each
        # way, its point inside it, no two overlapping (the points alone were 6 to 12 px)
        points = page.evaluate("""[...document.querySelectorAll('#graph circle.pt')].map(c => {
            const r = c.getBoundingClientRect(); return [c.dataset.k, r.left + r.width / 2, r.top + r.height / 2]; })""")
        hits = page.evaluate("""[...document.querySelectorAll('#graph .hit')].map(c => {
            const r = c.getBoundingClientRect(); return [c.dataset.hit, r.left, r.top, r.width, r.height]; })""")
        assert len(points) >= 4 and [h[0] for h in hits] == [p[0] for p in points], (points, hits)
        for (k, cx, cy), (_, x, y, w, h) in zip(points, hits):
            assert w >= 24 and h >= 24, (k, w, h)
            assert x <= cx <= x + w and y <= cy <= y + h, (k, cx, cy, x, y, w, h)
        assert all(a[1] + a[3] <= b[1] + 0.01 for a, b in zip(hits, hits[1:])), hits
        assert small_targets(page, "#graph .hit") == []
        # a click or a tap near a point, off the point itself, goes to its decision
        for k, _, _ in points[1::3]:
            column = page.locator(f'#graph .hit[data-hit="{k}"]')
            column.scroll_into_view_if_needed()
            box = column.bounding_box()
            dot = page.locator(f'#graph circle.pt[data-k="{k}"]').bounding_box()
            cx, cy = dot["x"] + dot["width"] / 2, dot["y"] + dot["height"] / 2
            y = cy - 16 if cy - 16 > box["y"] + 2 else cy + 16            # above it, or below near the top
            if options is PHONE:
                page.touchscreen.tap(cx, y)
            else:
                page.mouse.click(cx, y)
            page.wait_for_selector(f'#movelist li.current[data-k="{k}"]', timeout=10_000)
            page.wait_for_selector("body[data-state=ready]")
        assert small_targets(page, "nav a") == []
    finally:
        _close(context, checked)


# ------------------------------------------------------------------ L5: Next round described
@SCREENS
def test_next_round_is_described_by_the_rounds_summary(browser, server, options):
    context, checked, page = _page(browser, options)
    try:
        page.goto(f"{server}/?{GAME}")
        page.wait_for_selector("#bot-choices select")
        page.click("#start")
        page.wait_for_selector(SETTLED)
        for _ in range(60):
            if page.evaluate("document.body.dataset.state") != "ready":
                break
            page.locator("#moves button").first.click()
            page.wait_for_selector(SETTLED)
        assert page.evaluate("document.body.dataset.state") == "roundover"
        button = page.locator("#next-round")
        expect(button).to_be_focused()
        # the description is the summary shown (beside the board on a laptop, below it on a phone)
        summary_id = button.get_attribute("aria-describedby")
        assert summary_id == "round-end"
        summary = page.locator(f"#{summary_id}")
        assert summary.is_visible() and "sr-only" not in (summary.get_attribute("class") or "")
        heading = summary.locator("h3").inner_text()
        scores = summary.locator("p.scores").last.inner_text()
        assert heading.startswith("Round 0 is over: ") and scores.startswith("Scores after the round: ")
        expect(button).to_have_accessible_description(re.compile(f"^{re.escape(heading)}.*{re.escape(scores)}"))
        expect(button).to_have_accessible_name("Next round (round 1)")
    finally:
        _close(context, checked)


# ------------------------------------------------------------------ M2: the graph in a table
def rounds_record(tmp_path, players, seed, rounds=2):
    """A game of `rounds` rounds (every seat playing its first legal move) as a record file."""
    from fiveup_solver import Game
    g = Game(players=players, seed=seed)
    while True:
        while not g.round_over:
            g.push(g.legal_moves[0])
        if g.game_over or len(g.rounds) >= rounds:
            break
        g.next_round()
    path = tmp_path / f"game{players}.json"
    path.write_text(json.dumps(g.to_record()))
    return path


def percent(v):
    """As the page writes it, JavaScript's (100 * v).toFixed(0) (half up on the exact value) + " %"."""
    return f"{Decimal(100 * v).quantize(Decimal(1), rounding=ROUND_HALF_UP)} %"


def expected_table(record, result):
    """The graph's table worked out here from the record and the analysis's JSON: a header row, then
    a row a round: each seat's (3 players) or each side's (2 and 4) first and last win %."""
    players = result["players"]
    sides = 2 if players == 4 else players
    decisions = {(d["round"], d["action"]): d for d in result["decisions"]}
    points = [(r, a["seat"], decisions[r, i]["win"]) for r, rnd in enumerate(record["rounds"])
              for i, a in enumerate(rnd["actions"]) if (r, i) in decisions and not decisions[r, i]["forced"]]
    names = record.get("seats") or []

    def seat_text(s):
        name = names[s] if s < len(names) else None
        return f"seat {s}" if name in (None, f"seat{s}") else f"seat {s} ({name})"
    analysed = {s["side"] for s in result["seats"].values()}
    shown = next(iter(analysed)) if sides == 2 and len(analysed) == 1 else 0
    if sides == 2:
        def line(side):
            def v(seat, win):
                value = win if seat % 2 == shown else 1 - win        # the side shown's chance, as the graph
                return value if side == shown else 1 - value
            return lambda p: True, v
        lines = [(seat_text(s) if players == 2 else f"side {s} ({seat_text(s)} and {seat_text(s + 2)})", *line(s))
                 for s in (0, 1)]
    else:
        lines = [(seat_text(s), lambda p, s=s: p[1] == s, lambda seat, win: win)
                 for s in sorted({p[1] for p in points})]
    rows = [["round", *[name for name, _, _ in lines]]]
    for r in sorted({p[0] for p in points}):
        row = [f"round {r}"]
        for _, of, v in lines:
            mine = [p for p in points if p[0] == r and of(p)]
            row.append("none" if not mine else percent(v(mine[0][1], mine[0][2])) if len(mine) == 1
                       else f"{percent(v(mine[0][1], mine[0][2]))} to {percent(v(mine[-1][1], mine[-1][2]))}")
        rows.append(row)
    return rows


@pytest.mark.parametrize("players,seat", [(2, None), (3, None), (4, 1)])
def test_the_graph_gives_each_seats_win_by_round_in_a_table(browser, server, record3, tmp_path, players, seat):
    path = record3 if players == 3 else rounds_record(tmp_path, players, 5)
    record = json.loads(path.read_text())
    context, checked, page = _page(browser, LAPTOP)
    answers = []
    page.on("response", lambda r: answers.append(r) if re.search(r"/api/analyses/\w+$", r.url) else None)
    try:
        page.goto(f"{server}/analysis")
        analyse_on_page(page, path, seat=seat)
        result = next(a.json()["result"] for a in reversed(answers) if a.json()["status"] == "done")
        graph = page.locator("#win-graph")
        # the graph points to its table (aria-details), and its summary says the table is there
        assert graph.get_attribute("aria-details") == "graph-table"
        summary = page.locator(f"#{graph.get_attribute('aria-describedby')}").text_content()
        assert "table after the graph" in summary, summary
        table = page.locator("#graph-table")
        rows = page.evaluate("""[...document.querySelectorAll('#graph-table tr')]
            .map(tr => [...tr.children].map(c => c.textContent))""")
        want = expected_table(record, result)
        assert rows == want
        assert len(want) >= 3 and len(want[0]) >= 3, want          # 2 rounds or more, 2 lines or more
        if players == 3:
            assert len(want[0]) == 4 and want[0][1].startswith("seat 0")      # a column a seat
        # visually hidden, there for a screen reader: a table with its headers
        hidden = table.locator("xpath=..")
        assert hidden.get_attribute("class") == "sr-only" and hidden.bounding_box()["width"] <= 1
        snap = table.aria_snapshot()
        assert 'columnheader "round"' in snap and f'rowheader "{want[1][0]}"' in snap, snap
        assert table.locator("caption").text_content().startswith("Win % by round: ")
    finally:
        _close(context, checked)
