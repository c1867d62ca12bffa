"""The analysis report's boards on a phone: the caption's text height in each layout
(CHANGELOG: the report draws the square layout below 640 px).

    python benchmarks/report_board_text.py

Greedy self-play of four 2-player games (seeds 5-8); the board before every third action
(a placement to draw as an arrow) in the wide layout at 440 px (the report's least width on a
phone before) and the square layout at the page's width, in chromium at 390 x 844 (a phone,
device scale 2). Prints the least, 10th percentile and median caption height in CSS pixels.
"""
from __future__ import annotations

import statistics

from playwright.sync_api import sync_playwright

from fiveup_solver.record import positions
from fiveup_solver.selfplay import play_game
from fiveup_solver.svg import DEFAULT_BOUNDS, NARROW_BOUNDS, board_svg


def boards(limit: int = 120) -> list:
    out = []
    for seed in (5, 6, 7, 8):
        record = play_game(2, seed, ["greedy", "greedy"]).to_record()
        for game, _, i in positions(record, check=False):
            if game.legal_moves and game.legal_moves[0].kind == "play" and i % 3 == 0:
                arrows = [(game.legal_moves[0], "#c00")]
                out.append((board_svg(game, arrows=arrows, size=480, bounds=DEFAULT_BOUNDS),
                            board_svg(game, arrows=arrows, size=480, bounds=NARROW_BOUNDS)))
    return out[:limit]


def main() -> dict:
    page_html = ["<html><head><meta name='viewport' content='width=device-width, initial-scale=1'/>"
                 "<style>svg{width:100%;height:auto;max-height:480px}</style></head>"
                 "<body style='margin:0;padding:0 0.6em'>"]
    for wide, narrow in boards():
        page_html.append(f"<div class='wide' style='width:440px'>{wide}</div><div class='narrow'>{narrow}</div>")
    page_html.append("</body></html>")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                   device_scale_factor=2).new_page()
        page.set_content("".join(page_html))
        heights = page.evaluate("""() => Object.fromEntries(['wide', 'narrow'].map(c => [c,
            [...document.querySelectorAll('div.' + c + ' svg')].map(s =>
                [...s.querySelectorAll('text')].find(t => t.textContent.startsWith('ends')))
            .filter(t => t).map(t => t.getBoundingClientRect().height)]))""")
        browser.close()
    out = {}
    for name, hs in heights.items():
        hs = sorted(hs)
        out[name] = {"boards": len(hs), "least": round(hs[0], 1), "p10": round(hs[len(hs) // 10], 1),
                     "median": round(statistics.median(hs), 1)}
        print(f"{name:6s} {out[name]}")
    return out


if __name__ == "__main__":
    main()
