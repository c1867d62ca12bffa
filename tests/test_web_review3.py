"""The browser review's low findings that live in the server and the pictures (the pages'
side is tests/test_web_review3_browser.py):

- L2: an illegal record was refused only at Analyse; ``POST /api/records/check`` replays a
  record through the rules, for the analysis board to ask as a file is chosen;
- L9: the what-if table listed both ports of one placement as two moves; ``/api/position``
  now says which legal move is the same as an earlier one (``legal_same_as``), as a game's
  view does;
- L1: a hint arrow could pass over the value badge of another open end than its own, whose
  number was redrawn on top only for the arrow's own end.

Expected numbers come from the independent reference replay (tests/reference.py) and from
the pictures' own coordinates, not from the code under test."""
import json
import math
import xml.etree.ElementTree as ET

import pytest

pytest.importorskip("fastapi", reason="the serve extra is part of the test extra")
from fastapi.testclient import TestClient  # noqa: E402

from fiveup_solver import Game, serve  # noqa: E402
from fiveup_solver.selfplay import play_game  # noqa: E402
from fiveup_solver.svg import NARROW_BOUNDS, board_svg  # noqa: E402

try:
    from . import reference  # noqa: E402
except ImportError:
    import reference  # noqa: E402

BASE = "http://127.0.0.1:8061"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def client():
    with TestClient(serve.create_app(), base_url=BASE, raise_server_exceptions=False) as c:
        yield c


def _one_round(players, seed):
    g = Game(players=players, seed=seed)
    while not g.round_over:
        g.push(g.legal_moves[0])
    return g.to_record()


# ------------------------------------------------------------------ L2: /api/records/check
@pytest.mark.parametrize("players,seed", [(2, 3), (3, 1), (4, 5)])
def test_a_record_is_checked_with_its_summary(client, players, seed):
    record = play_game(players, seed, ["greedy"] * players).to_record()
    ref = reference.replay(record)
    r = client.post("/api/records/check", json={"record": record})
    assert r.status_code == 200, r.text
    assert r.json() == {"players": players, "rounds": len(record["rounds"]), "view": None,
                        "scores": ref["scores"], "finished": ref["winner"] is not None}
    assert ref["winner"] is not None and 305 in ref["scores"]        # play_game plays to the end


def test_an_unfinished_game_and_a_seats_view(client):
    record = _one_round(2, 6)
    ref = reference.replay(record)
    assert ref["winner"] is None
    assert client.post("/api/records/check", json={"record": record}).json() == {
        "players": 2, "rounds": 1, "view": None, "scores": ref["scores"], "finished": False}
    g = Game(players=2, seed=6)
    while not g.round_over:
        g.push(g.legal_moves[0])
    view = g.to_record(view=1)
    # a view's events and scores are the game's (RECORD.md): the same scores
    assert client.post("/api/records/check", json={"record": view}).json() == {
        "players": 2, "rounds": 1, "view": 1, "scores": ref["scores"], "finished": False}


def test_an_illegal_record_is_a_400_naming_its_first_fault(client):
    record = _one_round(2, 6)
    opener = record["rounds"][0]["actions"][0]
    hand = {t for t in record["rounds"][0]["hands"][opener["seat"]]}
    other = next(t for t in record["rounds"][0]["hands"][1 - opener["seat"]] if t not in hand)
    bad = json.loads(json.dumps(record))
    bad["rounds"][0]["actions"][0]["play"] = other
    with pytest.raises(reference.ReferenceRuleError):
        reference.replay(bad)                     # the reference refuses it too
    r = client.post("/api/records/check", json={"record": bad})
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert error.startswith("round 0 action 0: ") and other in error and "\n" not in error, error
    for body, word in (({"record": [1]}, "record"), ({}, "record"), ({"record": record, "seat": 0}, "seat")):
        r = client.post("/api/records/check", json=body)
        assert r.status_code in (400, 422) and word in r.json()["error"], (body, r.text)


# ------------------------------------------------------------------ L9: legal_same_as
def test_the_analysis_boards_position_says_which_moves_are_one(client):
    # seed 2, every seat its first legal move: before action 3 the 0-5 goes on either branch
    # of the 0-0 spinner (RULES §3.4: one placement), and elsewhere on the 0-2
    record = _one_round(2, 2)
    p = client.post("/api/position", json={"record": record, "round": 0, "action": 3}).json()
    assert p["legal_moves"] == ["0-5@0-0:branchA", "0-5@0-0:branchB", "1-2@0-2:high", "2-2@0-2:high",
                                "2-5@0-2:high"]
    assert p["legal_same_as"] == [None, 0, None, None, None]
    # a seat's view on another seat's turn has no legal moves, and so nothing the same
    view = Game(players=2, seed=2)
    for _ in range(3):
        view.push(view.legal_moves[0])
    who = view.to_move
    q = client.post("/api/position", json={"record": record | {"view": 1 - who, "rounds": [
        {k: v for k, v in view.to_record(view=1 - who)["rounds"][0].items()}]}, "round": 0, "action": 3})
    assert q.status_code == 200, q.text
    assert q.json()["legal_moves"] == [] and q.json()["legal_same_as"] == []


# ------------------------------------------------------------------ L1: badges under arrows
def _distance(px, py, x1, y1, x2, y2):
    dx, dy = x2 - x1, y2 - y1
    t = max(0.0, min(1.0, ((px - x1) * dx + (py - y1) * dy) / (dx * dx + dy * dy)))
    return math.hypot(x1 + t * dx - px, y1 + t * dy - py)


def test_an_arrow_over_another_ends_badge_leaves_its_number_on_top():
    # a 4-player round (seed 19, random play) on a phone's narrow board: the arrow of 0-3 on
    # the 0-1 passes over the badge of the 1-6's open end, another end than its own
    placements = ["0-4", "0-5@0-4:low", "4-6@0-4:high", "4-5@0-5:high", "3-4@4-5:low", "6-6@4-6:high",
                  "2-3@3-4:low", "3-6@6-6:lineB", "5-6@6-6:branchA", "1-5@5-6:low", "1-6@6-6:branchB",
                  "1-4@1-5:low", "3-5@3-6:low", "2-2@2-3:low", "1-2@2-2:lineB", "4-4@1-4:high",
                  "0-1@1-2:low", "2-6@2-2:branchA"]
    root = ET.fromstring(board_svg(placements, arrows=[("0-3@0-1:low", "blue")], bounds=NARROW_BOUNDS))
    arrow = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "arrow")
    line = arrow.find(f"{SVG}line")
    tip = [float(v) for v in arrow.find(f"{SVG}polygon").get("points").split()[0].split(",")]
    head = max(math.dist(tip, [float(v) for v in p.split(",")])
               for p in arrow.find(f"{SVG}polygon").get("points").split()[1:])
    shaft = (float(line.get("x1")), float(line.get("y1")), *tip)
    covered = []
    for end in (g for g in root.iter(f"{SVG}g") if g.get("class") == "end"):
        c = end.find(f"{SVG}circle")
        if _distance(float(c.get("cx")), float(c.get("cy")), *shaft) < float(c.get("r")) + head:
            covered.append(end.get("data-end"))
    assert "1-6:low" in covered and covered != ["0-1:low"], covered
    labels = {t.get("data-end") for t in root.iter(f"{SVG}text") if t.get("class") == "endlabel"}
    assert set(covered) <= labels, (covered, labels)
    # drawn after the arrow: over it
    order = list(root.iter())
    assert all(order.index(t) > order.index(arrow) for t in root.iter(f"{SVG}text") if t.get("class") == "endlabel")
