"""What a review of the post-game analysis found (2026-12-07), each against what the
rules and the docs say:

- D1: the ghost tile of a move on a spinner's branch was drawn apart, at a far free
  cell, when that branch's side had no room, where the board puts the tile on the other
  side once the move is made (RULES §3.4: branchA and branchB are one placement);
- D2: the web analysis board's "Evaluate" searched a 3-player position paranoid with 32
  worlds beside the analysis's own max^n rows of 96 worlds;
- the double-dummy best moves named one placement twice (both branch ports);
- ``fiveup analyze --seat 1 --plot`` drew side 0's curve for a full record;
- the web page's record file: an old error kept, a bad file left Run on the file before;
  a JSON array and a truncated body answered in pydantic's and json's words;
- the web board could not show the position after the game's last action;
- the HTML report's board captions left out the best move's win %.
"""
from __future__ import annotations

import json
import re

import pytest

from fiveup_solver import Move, svg
from fiveup_solver.selfplay import play_game

# game.json of the review (fiveup selfplay --seed 2 --bots hint,greedy), round 9 before action 19:
# the round's placements; 2-5 on the 5-5 spinner's branchA finds no room on that side
R9A19 = ["6-6", "5-6@6-6:lineB", "1-5@5-6:low", "1-3@1-5:low", "0-3@1-3:high", "0-0@0-3:low", "0-2@0-0:lineB",
         "2-3@0-2:high", "0-5@0-0:branchA", "5-5@0-5:high", "0-1@0-0:branchB", "3-5@5-5:lineB", "1-2@0-1:high"]


def _rect(svg_text: str, opening: str) -> tuple:
    """The x, y, width, height of the first <rect> after `opening` (a <g ...> of a tile or ghost)."""
    at = svg_text.index(opening)
    m = re.compile(r'<rect x="([-\d.]+)" y="([-\d.]+)" width="([-\d.]+)" height="([-\d.]+)"').search(svg_text, at)
    return tuple(float(v) for v in m.groups())


@pytest.mark.parametrize("port", ["branchA", "branchB"])
def test_a_branch_moves_ghost_lies_where_the_board_puts_the_tile(port):
    move = f"2-5@5-5:{port}"
    ghost = _rect(svg.board_svg(R9A19, arrows=[(move, "#cc0000")]), f'class="ghost" data-ghost="{move}"')
    after = _rect(svg.board_svg(R9A19 + [move]), 'data-tile="2-5"')
    assert ghost == after
    # drawn against the tile (not apart, with a connector), as the board draws it
    assert not svg.layout(R9A19 + [move])[-1].detached


def _ghost_and_after(placements, move, bounds):
    board = svg._build(placements, bounds)
    after = svg._build(placements + [move], bounds)
    if [c.rect for *_, c in after.placed[:-1]] != [c.rect for *_, c in board.placed]:
        return None                 # the longer board was laid out again, wider: nothing to compare
    (ghost,) = svg._ghosts(board, [(move, "#cc0000")])
    return ghost[2].rect, after.placed[-1][2].rect


@pytest.mark.parametrize("players, seeds", [(2, range(8, 16)), (3, range(4)), (4, range(4))])
def test_every_played_moves_ghost_lies_where_the_board_then_puts_it(players, seeds):
    """Every placement of greedy games, in both layouts the web uses: the ghost drawn
    before the move is the tile the board draws after it (where the board before is a
    prefix of the board after). Seed 10 (2 players) was a board laid in wider bounds, its
    ghost placed for the narrower ones; seed 12 a spinner's branch with no room."""
    compared = 0
    for seed in seeds:
        game = play_game(players, seed, ["greedy"] * players, max_rounds=2)
        for rnd in game.rounds:
            placements = [m for _, m in rnd.moves if m.kind == "play"]
            for k in range(1, len(placements)):
                for bounds in (svg.DEFAULT_BOUNDS, svg.NARROW_BOUNDS):
                    pair = _ghost_and_after(placements[:k], placements[k], bounds)
                    if pair is not None:
                        compared += 1
                        assert pair[0] == pair[1], (seed, placements[k], bounds)
    assert compared > 100


def _fast():
    from fiveup_solver.analysis import AnalysisBudget
    return AnalysisBudget(samples=16, luck_samples=8, world_nodes=3_000, dd_nodes=300_000)


@pytest.mark.parametrize("seed, r, i, best", [
    # the two open 3 ends of 3-5 and 3-6 (one placement: the same game after either)
    (1, 0, 9, ["1-3@3-5:low"]),
    # a spinner's two branch ports (the move played among them: no points lost), two open 5 ends
    (2, 2, 25, ["1-3@3-3:branchA", "1-5@2-5:high", "2-6@2-2:branchA"]),
])
def test_the_double_dummy_best_moves_name_a_placement_once(seed, r, i, best):
    from fiveup_solver.analysis import judge_decision
    from fiveup_solver.notation import same_as_earlier
    record = play_game(2, seed, ["greedy", "greedy"], max_rounds=3).to_record()
    d = judge_decision(record, r, i, budget=_fast(), seed=1)
    assert d.dd_best == best
    assert same_as_earlier(Move.parse(m) for m in d.dd_best) == [None] * len(best)
    if d.played in best:
        assert d.dd_loss_win == 0 and d.dd_loss_points == 0


def _plot(a) -> str:
    import io

    import matplotlib
    from fiveup_solver.analysis import plot_win_probability
    out = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none"}):      # text as text, to read it back
        plot_win_probability(a, out, fmt="svg")
    return out.getvalue().replace("&#x27;", "'")


def test_the_plot_of_one_seat_draws_its_side_from_a_full_record_as_from_its_view():
    """``--seat 1`` on a full record drew side 0's chance (seat 1's good moves as drops), its
    view side 1's, and the web board side 1's in both: the plot draws the analysed side,
    named in its title, the same picture from either record."""
    pytest.importorskip("matplotlib")
    from fiveup_solver.analysis import analyze, shown_side
    g = play_game(2, 12, ["greedy", "greedy"], max_rounds=1)
    full = analyze(g.to_record(), seats=[1], budget=_fast(), seed=1)
    view = analyze(g.to_record(view=1), budget=_fast(), seed=1)
    both = analyze(g.to_record(), budget=_fast(), seed=1)
    assert (shown_side(full), shown_side(view), shown_side(both)) == (1, 1, 0)
    plot = _plot(full)
    assert "side 1's win probability (%)" in plot and "Win probability over the game: side 1's chance" in plot
    assert "side 0" not in plot
    assert plot == _plot(view)
    assert "Win probability over the game: side 0's chance" in _plot(both)
    # 4 players, one side's two seats: that side
    g4 = play_game(4, 3, ["greedy"] * 4, max_rounds=1)
    assert shown_side(analyze(g4.to_record(), seats=[1, 3], budget=_fast(), seed=1)) == 1


def test_the_reports_board_captions_give_the_best_moves_win():
    """The text report and the HTML decisions table give the best move's win % (with its
    standard error) at a marked decision; the HTML report's board caption left it out."""
    pytest.importorskip("matplotlib")
    from fiveup_solver.analysis import analyze, format_text, to_html
    record = play_game(2, 5, ["greedy", "greedy"]).to_record()
    a = analyze(record, budget=_fast(), seed=3)
    marked = [d for d in a.decisions if d.mark]
    assert marked
    html, text = to_html(a, record), format_text(a)
    captions = dict(re.findall(r'<figure id="d(\d+-\d+)" class="board"[^>]*><figcaption>(.*?)</figcaption>', html))
    for d in marked:
        win = f"{100 * d.win:.1f} &#177; {100 * d.win_stderr:.1f} %"
        assert f"(win {win.replace('&#177;', '+-')})" in text            # the text report's
        assert f"best <b>{d.best}</b> (win {win}): loss {d.loss_win:.1f} &#177; {d.stderr_win:.1f} win-%" \
            in captions[f"{d.round}-{d.action}"], captions[f"{d.round}-{d.action}"]


# ---------------------------------------------------------------- the web API (fiveup serve)
@pytest.fixture(scope="module")
def client():
    pytest.importorskip("fastapi", reason="the serve extra is part of the test extra")
    from fastapi.testclient import TestClient

    from fiveup_solver import serve
    with TestClient(serve.create_app(), base_url="http://127.0.0.1:8061", raise_server_exceptions=False) as c:
        yield c


def _three():
    from fiveup_solver import Game
    g = Game(players=3, seed=6)
    while len(g.legal_moves) < 3:       # a choice to search
        g.push(g.legal_moves[0])
    return g


def test_a_hint_takes_the_3_player_search_the_analysis_board_asks(client):
    """D2: the analysis board's Evaluate asks the analysis's search (max^n with 3 players);
    /api/hint had no such field and searched paranoid. A bad one is one line."""
    g = _three()
    body = {"record": g.to_record(), "seat": g.to_move, "samples": 8, "world_nodes": 2_000, "objective": "win"}
    default = client.post("/api/hint", json=body).json()
    maxn = client.post("/api/hint", json={**body, "search": "maxn"}).json()
    assert (default["search"], maxn["search"]) == ("paranoid", "maxn")
    assert maxn["samples"] == 8 and maxn["objective"] == "win"
    r = client.post("/api/hint", json={**body, "search": "maxm"})
    assert (r.status_code, r.json()) == (400, {"error": "search must be one of paranoid, maxn, not 'maxm'"})
    r = client.post("/api/hint", json={**body, "search": 3})
    assert r.status_code == 422 and r.json()["error"].startswith("search: ")


@pytest.mark.parametrize("path, extra", [("/api/analyses", {}), ("/api/hint", {"seat": 0}),
                                         ("/api/position", {"round": 0, "action": 0})])
def test_a_record_that_is_no_json_object_is_named_as_the_command_line_names_it(client, path, extra):
    """Nit 5: a JSON array as the record got pydantic's "Input should be a valid dictionary"."""
    for value, kind in (([1, 2], "an array"), (None, "null"), ("x", "a string")):
        r = client.post(path, json={"record": value, **extra})
        assert (r.status_code, r.json()) == (422, {"error": f"record: a record is a JSON object, not {kind}"})


def test_a_truncated_body_says_where(client):
    """Nit 5: a truncated body answered "malformed JSON: Unterminated string starting at",
    the position cut off; it says where, as the command line does (line, column)."""
    for body, error in ((b'{"record": {"format": "fiveup-rec', "line 1 column 23: Unterminated string starting at"),
                        (b'{"record": {},\n "seat": 0,,}', "line 2 column 12: Expecting property name enclosed in "
                                                           "double quotes")):
        r = client.post("/api/analyses", content=body, headers={"content-type": "application/json"})
        assert (r.status_code, r.json()) == (400, {"error": f"malformed JSON: {error}"})
        try:
            json.loads(body)
        except ValueError as e:
            from fiveup_solver.errors import json_fault
            assert json_fault(e) == error          # the command line's words for the same text


def test_the_position_after_a_rounds_last_action_is_titled_so(client):
    """Nit 6: the analysis board's final position, after the record's last action."""
    from fiveup_solver import Game
    g = Game(players=2, seed=6)
    while not g.round_over:
        g.push(g.legal_moves[0])
    n = len(g.current.moves)
    p = client.post("/api/position", json={"record": g.to_record(), "round": 0, "action": n}).json()
    assert f"<title>round 0, after action {n - 1}</title>" in p["board"] and p["to_move"] is None
    placements = [m for _, m in g.current.moves if m.kind == "play"]
    assert p["board"].count('class="tile') == len(placements)
    before = client.post("/api/position", json={"record": g.to_record(), "round": 0, "action": n - 1}).json()
    assert f"<title>round 0, before action {n - 1}</title>" in before["board"]
