"""The browser app's dark scheme (``prefers-color-scheme: dark``), in Debian's chromium as the
other browser tests: every text keeps WCAG AA contrast (4.5:1, 3:1 for large text and a
control's border) against the colours it is drawn on, the board keeps its green felt and
ivory tiles, and the light scheme keeps its colours. ``FIVEUP_SCREENSHOTS=dir`` writes the
pages seen (desktop and phone) there."""
import json
import os
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the serve extra is part of the test extra")
pytest.importorskip("playwright", reason="playwright is part of the test extra")

from browser_chromium import browser_type_launch_args  # noqa: E402,F401  (the fixture)

SHOTS = os.environ.get("FIVEUP_SCREENSHOTS")
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

# the colours (and the contrast) the page computes for `selector`'s first element: its text on the
# background it is drawn on (the nearest opaque one up the tree, translucent ones blended in), and
# its border on the background around it
MEASURE = """([selector, border]) => {
  const el = document.querySelector(selector);
  if (!el) return null;
  const parse = (c) => { const m = c.match(/[\\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
  const over = (top, under) => top.slice(0, 3).map((v, i) => v * top[3] + under[i] * (1 - top[3])).concat([1]);
  const backdrop = (node) => {
    const layers = [];
    for (let n = node; n; n = n.parentElement) {
      const c = parse(getComputedStyle(n).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    let out = [255, 255, 255, 1];   // the canvas under everything (a dark page paints its own body)
    for (const c of layers.reverse()) out = over(c, out);
    return out;
  };
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const style = getComputedStyle(el);
  const bg = backdrop(el);
  const fg = over(parse(style.color), bg);
  const out = { color: style.color, background: `rgb(${bg.slice(0, 3).map(Math.round).join(", ")})`, text: ratio(fg, bg),
                size: parseFloat(style.fontSize), bold: Number(style.fontWeight) >= 700 };
  if (border) {
    const around = backdrop(el.parentElement);
    out.border = ratio(over(parse(style.borderTopColor), around), around);
  }
  return out;
}"""


def measure(page, selector, border=False):
    m = page.evaluate(MEASURE, [selector, border])
    assert m is not None, f"{selector}: not on the page"
    return m


def assert_readable(page, selectors, buttons=(), report=None):
    """WCAG AA: 4.5:1 for text, 3:1 for large text (24 px, or 18.7 px bold) and a button's border."""
    for sel in [*selectors, *buttons]:
        m = measure(page, sel, border=sel in buttons)
        large = m["size"] >= 24 or (m["bold"] and m["size"] >= 18.66)
        need = 3 if large else 4.5
        assert m["text"] >= need, f"{sel}: {m['color']} on {m['background']} is {m['text']:.2f}:1 (< {need})"
        if sel in buttons:
            assert m["border"] >= 3, f"{sel}: its border is {m['border']:.2f}:1 against the page (< 3)"
        if report is not None:
            report[sel] = (round(m["text"], 2), round(m["border"], 2) if "border" in m else None)


def assert_dark(page):
    bg = measure(page, "body")["background"]
    r, g, b = (int(v) for v in bg[4:-1].split(","))
    assert max(r, g, b) < 60, f"the page is not dark in the dark scheme: {bg}"


def assert_board_kept(page, board):
    """The board is the server's SVG, colours in its attributes: the felt green and the tiles ivory."""
    assert page.evaluate(f"getComputedStyle(document.querySelector('{board}')).backgroundColor") == "rgb(43, 110, 68)"
    felt = page.evaluate(f"getComputedStyle(document.querySelector('{board} svg > rect')).fill")
    assert felt == "rgb(43, 110, 68)"
    faces = page.evaluate(f"""[...document.querySelectorAll('{board} svg g.tile rect, {board} svg [data-tile] > rect')]
        .map((r) => getComputedStyle(r).fill)""")
    assert faces and set(faces) == {"rgb(251, 248, 238)"}, faces


def shot(page, name):
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / name), full_page=True)


@pytest.fixture(scope="module")
def server():
    from browser_chromium import served_app
    with served_app() as (url, app):
        yield url


def wait_state(page):
    page.wait_for_selector("body[data-state=ready], body[data-state=over], body[data-state=roundover]")
    return page.get_attribute("body", "data-state")


def play_first(page):
    """The first legal move played from the list, and its entry in the log waited for."""
    logged = page.locator("#log li").count()
    page.locator("#moves button").first.click()
    page.wait_for_selector(f"#log li:nth-child({logged + 1})", state="attached")


def play_to_hints(page, url):
    """A 2-player game against level1 (seed 4) played to a turn with three moves or more, the hints on."""
    page.goto(f"{url}/?delay=0&seed=4")
    page.wait_for_selector("#bot-choices select")
    page.click("#start")
    for _ in range(30):
        state = wait_state(page)
        if state == "roundover":
            page.click("#next-round")
            continue
        if page.locator("#moves button").count() >= 3 and page.locator("#board svg [data-tile]").count() >= 3:
            break
        play_first(page)
    page.check("#hints")
    page.wait_for_selector("#hint-box[data-state=ready]")


def play_to_round_end(page):
    for _ in range(60):
        if wait_state(page) == "roundover":
            return
        play_first(page)
    raise AssertionError("no round end")


PLAY_TEXT = ["header h1", "nav a:not([aria-current])", "nav a[aria-current]", "#status", "#hint-state",
             "#hint-legend", "#hint-table th", "#hint-table tbody tr:not(.best) td.num",
             "#hint-table tr.best td.num", "#hint-table tr.best button.link", "#hint-table tbody tr:not(.best) button.link",
             "#log li", "#log li.mine", "#log li.round", "#moves-box summary", "#moves button", "label.switch"]
PLAY_BUTTONS = ["#undo", "#save", "#again"]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_dark_scheme_keeps_every_text_readable(browser, server, tmp_path, viewport):
    figures = {}
    context = browser.new_context(color_scheme="dark")
    from browser_chromium import checked_page
    with checked_page(context, timeout_ms=60_000) as page:
        page.set_viewport_size(viewport)
        name = "desktop" if viewport is DESKTOP else "phone"
        play_to_hints(page, server)
        assert_dark(page)
        assert_readable(page, PLAY_TEXT, PLAY_BUTTONS, figures)
        assert_board_kept(page, "#board")
        faces = page.evaluate("[...document.querySelectorAll('#hand .tile svg .face')].map((r) => getComputedStyle(r).fill)")
        assert faces and set(faces) == {"rgb(251, 248, 238)"}
        # focus stays visible: the outline of a focused button against the page
        page.focus("#undo")
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")
        outline = page.evaluate("""(() => { const s = getComputedStyle(document.activeElement);
            return [s.outlineStyle, s.outlineColor, parseFloat(s.outlineWidth)]; })()""")
        assert outline[0] != "none" and outline[2] >= 2 and outline[1] == "rgb(116, 192, 252)", outline
        shot(page, f"play_hints_{name}.png")
        # a round's end: its summary, and the "Next round" pause
        play_to_round_end(page)
        assert_readable(page, ["#round-end", "#round-end ul", "#next-box .small"], ["#next-round"], figures)
        if viewport is PHONE:
            assert_readable(page, ["#next-box a", "#round-flag"], (), figures)
        assert_board_kept(page, "#board")
        shot(page, f"round_end_{name}.png")
        # the analysis board, a record analysed and a decision open
        from browser_chromium import round_record_file
        path, _ = round_record_file(tmp_path, 2, 6, "one.json")
        page.goto(f"{server}/analysis")
        assert_readable(page, ["#pick h2", "#source", "label[for], #analyse-form label"], ["#run"], figures)
        from browser_chromium import analyse_on_page
        analyse_on_page(page, path)
        for item in page.locator("#movelist li.act").all()[2:]:    # a decision with a choice, tiles on the board
            item.click()
            page.wait_for_selector("body[data-state=ready]")
            if page.locator("#whatif tr.played").count() and page.locator("#whatif button.link").count() > 1:
                break
        page.locator("#whatif tr:not(.played) button.link").first.click()
        page.wait_for_selector("body[data-state=ready]")
        assert_readable(page, ["#pos-info", "#hands", "#decision", "#whatif-value", "#whatif .hint-table th",
                               "#whatif tr.played td.num", "#whatif button.link", "#movelist li.current",
                               "#movelist li.act:not(.current)", "#movelist li.round", "#summary th", "#summary td",
                               "h3 .small"], (), figures)
        axis = page.evaluate("""(() => [getComputedStyle(document.querySelector('#graph .axis')).fill,
            getComputedStyle(document.querySelector('#graph .plot')).fill])()""")
        assert axis[0] != axis[1]
        assert_board_kept(page, "#aboard")
        shot(page, f"analysis_{name}.png")
        page.evaluate("document.getElementById('error').hidden = false; document.getElementById('error').textContent = 'an error'")
        assert_readable(page, ["#error"], (), figures)
    context.close()
    print(name, json.dumps(figures))


def _colours(page, selectors):
    return {s: page.evaluate("""(s) => { const e = document.querySelector(s); if (!e) return null;
        const c = getComputedStyle(e); return [c.color, c.backgroundColor, c.borderTopColor, c.outlineColor]; }""", s)
            for s in selectors}


LIGHT_PLAY = ["body", "header", "nav a", "#status", "#hint-table th", "#hint-table tr.best td", "#log li",
              "#log li.mine", "#undo", "#hand .tile", "#board", ".panel"]
LIGHT_EXPECTED = {
    "body": ["rgb(31, 35, 40)", "rgb(255, 255, 255)", "rgb(31, 35, 40)", "rgb(31, 35, 40)"],
}


def test_the_light_scheme_keeps_its_colours(browser, server):
    """The light scheme's computed colours are the ones of the stylesheet without its dark part."""
    import re
    from fiveup_solver import serve
    css = (Path(serve.__file__).parent / "static" / "style.css").read_text()
    start = css.index("@media (prefers-color-scheme: dark)")
    light_only = css[:start]
    seen = []
    for variant in ("as served", "without the dark part"):
        context = browser.new_context(color_scheme="light")
        from browser_chromium import checked_page
        with checked_page(context, timeout_ms=60_000) as page:
            if variant != "as served":
                page.route(re.compile(r".*/static/style\.css$"),
                           lambda r: r.fulfill(status=200, content_type="text/css", body=light_only))
            play_to_hints(page, server)
            seen.append(_colours(page, LIGHT_PLAY))
        context.close()
    assert seen[0] == seen[1]
    assert seen[0]["body"] == LIGHT_EXPECTED["body"]
    assert seen[0]["#hint-table tr.best td"][1] == "rgb(218, 251, 225)"
    assert seen[0]["#undo"][:3] == ["rgb(31, 35, 40)", "rgb(255, 255, 255)", "rgb(208, 215, 222)"]
