"""The browser app's JSON API (``fiveup serve``, issue 22) through FastAPI's TestClient: every
endpoint, every error path (a 4xx with one line, never a 500), honesty on whole games, a
whole game whose saved record replays with ``fiveup replay``, and the same JSON as the CLI."""
import contextlib
import json
import re
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

pytest.importorskip("fastapi", reason="the serve extra is part of the test extra")
from fastapi.testclient import TestClient  # noqa: E402

from fiveup_solver import Game, format_move  # noqa: E402
from fiveup_solver import serve  # noqa: E402
from fiveup_solver.cli import main  # noqa: E402
from fiveup_solver.notation import block_parts  # noqa: E402

try:
    from . import reference  # noqa: E402
except ImportError:
    import reference  # noqa: E402

BASE = "http://127.0.0.1:8061"


@pytest.fixture(scope="module")
def client():
    with TestClient(serve.create_app(), base_url=BASE, raise_server_exceptions=False) as c:
        yield c


def fresh_client(workers=None):
    return TestClient(serve.create_app(workers=workers), base_url=BASE, raise_server_exceptions=False)


def error_of(r, status=None):
    """A 4xx answer whose body is exactly {"error": one line}."""
    assert 400 <= r.status_code < 500, (r.status_code, r.text[:300])
    if status is not None:
        assert r.status_code == status, (r.status_code, r.text[:300])
    body = r.json()
    assert set(body) == {"error"} and isinstance(body["error"], str) and body["error"]
    assert "\n" not in body["error"] and "Traceback" not in body["error"]
    return body["error"]


def played_game(seed=5, players=2, rounds=1):
    """A game of greedy bots, `rounds` rounds long (the last one finished)."""
    import random

    from fiveup_solver.bots import choose
    g = Game(players=players, seed=seed)
    rng = random.Random(seed)
    while True:
        if g.round_over:
            if len(g.rounds) >= rounds or g.game_over:
                return g
            g.next_round()
        g.push(choose("greedy", g.observation(g.to_move), rng))


def cli_json(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


# --------------------------------------------------------------------------- pages, health, schema
def test_health_bots_pages_and_schema(client):
    h = client.get("/api/health")
    assert h.status_code == 200 and h.json()["status"] == "ok" and h.json()["workers"] >= 1
    b = client.get("/api/bots").json()
    assert [lv["name"] for lv in b["levels"]][:2] == ["level1", "level2"] and "greedy" in b["bots"]
    # the player counts of each (a review: alphamu was offered for 3 and 4, then refused)
    assert b["players"]["greedy"] == [2, 3, 4] and b["players"]["hint-alphamu"] == [2]
    assert set(b["players"]) == set(b["bots"]) | {lv["name"] for lv in b["levels"]}
    for path, kind in (("/", "text/html"), ("/analysis", "text/html"), ("/static/play.js", "text/javascript"),
                       ("/static/analysis.js", "text/javascript"), ("/static/api.js", "text/javascript"),
                       ("/static/tiles.js", "text/javascript"), ("/static/style.css", "text/css")):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith(kind), path
        assert "default-src 'self'" in r.headers["content-security-policy"]
    page = client.get("/").text
    assert 'type="module"' in page and "http" not in page.replace("http-equiv", "")   # nothing from elsewhere
    schema = client.get("/openapi.json").json()
    for path in ("/api/health", "/api/hint", "/api/solve", "/api/equity", "/api/games", "/api/games/{game_id}",
                 "/api/games/{game_id}/moves", "/api/games/{game_id}/record", "/api/analyses",
                 "/api/analyses/{analysis_id}"):
        assert path in schema["paths"], path
    assert "HintRequest" in schema["components"]["schemas"]
    # the errors as the server answers them (a review: only FastAPI's 422 {"detail": ...} was listed)
    games = schema["paths"]["/api/games"]["post"]["responses"]
    assert {"400", "404", "409", "413", "422", "429"} <= set(games)
    assert games["422"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/ErrorAnswer"}
    assert "HTTPValidationError" not in schema["components"]["schemas"]
    assert client.get("/docs").status_code == 404            # no docs page that would load from a CDN


@pytest.mark.parametrize("name", ["../serve.py", ".hidden.js", "serve.py", "nothing.js", "x%2F..%2Fserve.py"])
def test_static_files_outside_the_folder_are_refused(client, name):
    error_of(client.get(f"/static/{name}"), 404)


# --------------------------------------------------------------------------- the same JSON as the CLI
def test_hint_is_the_cli_hint_json(client, tmp_path, capsys):
    g = played_game(seed=7, rounds=1)
    g.pop(), g.pop(), g.pop()
    rec = g.to_record()
    path = tmp_path / "g.json"
    path.write_text(json.dumps(rec))
    seat = g.to_move
    cli = cli_json(capsys, ["hint", str(path), "--seat", str(seat), "--samples", "12", "--seed", "3", "--json"])
    api = client.post("/api/hint", json={"record": rec, "seat": seat, "samples": 12, "seed": 3}).json()
    for d in (cli, api):
        d.pop("seconds"), d["budget"].pop("threads")
    assert api == cli
    # a seat's view gives the same hint as the full record (the hint reads the observation only)
    view = client.post("/api/hint", json={"record": g.to_record(view=seat), "seat": seat, "samples": 12,
                                          "seed": 3}).json()
    view.pop("seconds"), view["budget"].pop("threads")
    assert view == cli
    # an earlier position, another method, a time budget
    r = client.post("/api/hint", json={"record": rec, "seat": rec["rounds"][0]["starter"], "round": 0, "action": 0,
                                       "method": "expectimax", "samples": 4})
    assert r.status_code == 200 and r.json()["method"] == "expectimax"
    r = client.post("/api/hint", json={"record": rec, "seat": seat, "time_ms": 50})
    assert r.status_code == 200 and r.json()["moves"]


def test_solve_and_equity_are_the_cli_json(client, tmp_path, capsys):
    g = Game(players=2, seed=5)
    rec = g.to_record()
    path = tmp_path / "g.json"
    path.write_text(json.dumps(rec))
    # the server caps every solve (SOLVE_DEFAULT_NODES): the CLI is given the same limit (a limit
    # also decides how the second currency is searched: unseeded, so the node counts differ without it)
    limit = ["--node-limit", str(serve.SOLVE_DEFAULT_NODES)]
    cli = cli_json(capsys, ["solve", str(path), "--round", "0", "--action", "0", "--json", *limit])
    api = client.post("/api/solve", json={"record": rec, "round": 0, "action": 0}).json()
    cli.pop("seconds"), api.pop("seconds")
    assert api == cli
    cli = cli_json(capsys, ["solve", str(path), "--round", "0", "--action", "0", "--json", "--objective", "win",
                            *limit])
    api = client.post("/api/solve", json={"record": rec, "round": 0, "action": 0, "objective": "win"}).json()
    cli.pop("seconds"), api.pop("seconds")
    assert api == cli
    for query, argv in (("players=2&scores=100,200", ["--scores", "100,200"]),
                        ("players=3&scores=0,5,300&starter=2", ["--players", "3", "--scores", "0,5,300",
                                                                "--starter", "2"]),
                        ("players=4&scores=150,150&starter=drawn", ["--players", "4", "--scores", "150,150"])):
        assert client.get(f"/api/equity?{query}").json() == cli_json(capsys, ["equity", *argv, "--json"])


def test_analysis_job_is_the_cli_analyze_json(client, tmp_path, capsys):
    g = played_game(seed=11, rounds=1)
    rec = g.to_record()
    path = tmp_path / "g.json"
    path.write_text(json.dumps(rec))
    budget = {"samples": 4, "luck_samples": 2, "dd_nodes": 20000, "seed": 2}
    cli = cli_json(capsys, ["analyze", str(path), "--samples", "4", "--luck-samples", "2", "--dd-nodes", "20000",
                            "--seed", "2", "--threads", "1", "--json", "--quiet"])
    r = client.post("/api/analyses", json={"record": rec, **budget})
    assert r.status_code == 200
    aid = r.json()["id"]
    seen = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        job = client.get(f"/api/analyses/{aid}").json()
        seen.append(job["progress"])
        assert 0.0 <= job["progress"] <= 1.0 and job["status"] in ("queued", "running", "done")
        if job["status"] == "done":
            break
        time.sleep(0.05)
    assert job["status"] == "done" and job["progress"] == 1.0 and job["done"] == job["total"] > 0
    assert seen == sorted(seen)
    # the analysis's cost says its wall-clock seconds: the one field two runs may differ in
    for d in (job["result"], cli):
        d["cost"].pop("seconds")
    assert job["result"] == cli
    # one seat of a seat's view
    seat = rec["rounds"][0]["starter"]
    r = client.post("/api/analyses", json={"record": g.to_record(view=seat), "seat": seat, **budget})
    aid = r.json()["id"]
    while (job := client.get(f"/api/analyses/{aid}").json())["status"] != "done":
        assert job["status"] != "error", job
        time.sleep(0.05)
    assert job["result"]["view"] == seat and list(job["result"]["seats"]) == [str(seat)]


# --------------------------------------------------------------------------- honesty on whole games
TILE_RE = {}


def _mentions(text: str, tile: str) -> bool:
    a, b = tile.split("-")
    rx = TILE_RE.setdefault(tile, re.compile(rf"(?<![0-9A-Za-z_.\-])({a}-{b}|{b}-{a})(?![0-9A-Za-z_.])"))
    return rx.search(text) is not None


def _hidden_after(roundlog, n_actions: int, seat: int, players: int, over: bool) -> set:
    """The tiles `seat` may not know after the first n actions of a round: the other hands
    (until the round's end shows them) and the boneyard."""
    hands = [list(h) for h in roundlog.hands]
    boneyard = list(roundlog.boneyard)
    for s, m in roundlog.moves[:n_actions]:
        if m.kind == "play":
            hands[s].remove(m.tile)
        elif m.kind == "draw":
            hands[s].append(boneyard.pop(0))
    hidden = {str(t) for t in boneyard}
    if not over:
        hidden |= {str(t) for s in range(players) if s != seat for t in hands[s]}
    return hidden


def _check_honest(text_parts, hidden, where):
    for tile in hidden:
        for label, text in text_parts:
            assert not _mentions(text, tile), f"{where}: hidden tile {tile} in {label}"


def _scan_view(view, webgame, where):
    """Every step of last_moves against the hidden tiles right after it, the rest against now."""
    g = webgame.game
    seat = webgame.seat
    for k, step in enumerate(view["last_moves"]):
        rl = g.rounds[step["round"]]
        over = "round_end" in step
        hidden = _hidden_after(rl, step["action"] + 1, seat, g.players, over)
        _check_honest([("step", json.dumps(step))], hidden, f"{where} step {k}")
    rest = {k: v for k, v in view.items() if k not in ("last_moves", "round_end", "previous_round")}
    now = _hidden_after(g.current, len(g.current.moves), seat, g.players, g.round_over)
    _check_honest([("view", json.dumps(rest))], now, where)
    previous = view.get("previous_round")
    # the seat's view of the last round's end, against what that round's end left hidden
    assert (previous is None) == (len(g.rounds) == 1 or view["round"] == 0), where
    if previous is not None:
        r = previous["round"]
        assert r == len(g.rounds) - 2, where
        after = _hidden_after(g.rounds[r], len(g.rounds[r].moves), seat, g.players, True)
        _check_honest([("previous_round", json.dumps(previous))], after, where)
    if view["round_end"] is not None:
        r = view["round_end"]["round"]
        after = _hidden_after(g.rounds[r], len(g.rounds[r].moves), seat, g.players, True)
        _check_honest([("round_end", json.dumps(view["round_end"]))], after, where)


def play_through(client, players, seat, bots, seed, *, hint_every=0, max_moves=600):
    """A whole game through the API, every answer scanned for hidden tiles; returns (id, views)."""
    app_state = client.app.state.fiveup
    r = client.post("/api/games", json={"players": players, "seat": seat, "bots": bots, "seed": seed})
    assert r.status_code == 200, r.text
    gid, view = r.json()["id"], r.json()["view"]
    web = app_state.games[gid]
    _scan_view(view, web, "new game")
    views = [view]
    for n in range(max_moves):
        if view["game_over"] or view["unfinished"]:
            break
        assert view["to_move"] == seat and view["legal_moves"] == [format_move(m) for m in web.game.legal_moves]
        # the other endpoints the page calls, scanned too
        got = client.get(f"/api/games/{gid}").json()["view"]
        _scan_view(dict(got, last_moves=[]), web, f"GET game at move {n}")
        rec = client.get(f"/api/games/{gid}/record").json()
        assert rec["view"] == seat and all(rd["boneyard"] is None for rd in rec["rounds"])
        hidden_now = _hidden_after(web.game.current, len(web.game.current.moves), seat, players, False)
        _check_honest([("record", json.dumps(rec["rounds"][-1]))], hidden_now, f"record at move {n}")
        if hint_every and n % hint_every == 0:
            h = client.post("/api/hint", json={"record": rec, "seat": seat, "samples": 4})
            assert h.status_code == 200, h.text
            _check_honest([("hint", h.text)], hidden_now, f"hint at move {n}")
        r = client.post(f"/api/games/{gid}/moves", json={"move": view["legal_moves"][0]})
        assert r.status_code == 200, r.text
        view = r.json()["view"]
        _scan_view(view, web, f"move {n}")
        views.append(view)
    assert view["game_over"]
    return gid, views


def test_the_honesty_scan_finds_a_leak(client):
    """The scan itself: a hidden tile in any answer is found (the full record leaks them all)."""
    r = client.post("/api/games", json={"players": 2, "seat": 0, "bots": ["level1"], "seed": 19}).json()
    web = client.app.state.fiveup.games[r["id"]]
    hidden = _hidden_after(web.game.current, len(web.game.current.moves), 0, 2, False)
    assert len(hidden) >= 18 and not hidden & set(r["view"]["hand"])       # the boneyard and seat 1's hand
    with pytest.raises(AssertionError, match="hidden tile"):
        _check_honest([("full record", json.dumps(web.game.to_record()))], hidden, "self-check")
    tile = sorted(hidden)[0]
    a, b = tile.split("-")
    with pytest.raises(AssertionError, match="hidden tile"):
        _check_honest([("reversed", f'"{b}-{a}@0-0:lineA"')], {tile}, "self-check")
    _check_honest([("id", f'"x{a}-{b}y", "1{a}-{b}", "{a}-{b}.5"')], {tile}, "not tiles")


def test_every_step_carries_the_hand_sizes_boneyard_and_scores_after_it_and_a_domino_its_parts(client):
    """A review: while the bots' replies were shown one by one the page's status kept the
    scores of before them; each step now carries what the status line shows after it.
    Checked against the rules (RULES §2: 28 tiles, 5 a hand; a placement takes a tile from
    its seat's hand, a draw moves one from the boneyard to it, a pass moves nothing) over
    every action of 3-player games, and against the view at each of the person's turns.
    A round's end gives a domino's parts (P + O - D), checked from the hands it shows."""
    dominoes = 0
    for seed in (4, 23):
        r = client.post("/api/games", json={"players": 3, "seat": 1, "bots": ["level1", "level1"], "seed": seed})
        gid, view = r.json()["id"], r.json()["view"]
        prev = None
        for n in range(40):
            for step in view["last_moves"]:
                hands, boneyard = step["hand_sizes"], step["boneyard_size"]
                if prev is None or step["round"] != prev["round"]:
                    assert step["action"] == 0
                    before, placed = [5, 5, 5], 0
                else:
                    assert step["action"] == prev["action"] + 1      # every action, in order
                    before = list(prev["hand_sizes"])
                want = list(before)
                if "play" in step["act"]:
                    want[step["seat"]] -= 1
                    placed += 1
                elif "draw" in step["act"]:
                    want[step["seat"]] += 1
                assert hands == want, (seed, step)
                assert sum(hands) + boneyard + placed == 28, (seed, step)
                prev = step
                end = step.get("round_end")
                if end is not None:
                    # a domino's parts, from the hands shown (3 players: no partner, RULES §6.3)
                    dominoes += end["end"]["end"] == "domino"
                    if end["end"]["end"] != "domino":
                        assert end["domino"] is None
                        continue
                    d, seat = end["domino"], end["end"]["seat"]
                    opp = sum(int(x) for q, h in enumerate(end["hands"]) if q != seat for t in h for x in t.split("-"))
                    raw = next(e["raw"] for e in end["events"] if e["kind"] == "domino")
                    assert (d["seat"], d["opponents_pips"], d["opponents"], d["partner_pips"], d["partner"]) == \
                        (seat, opp, (opp + 2) // 5 * 5, None, 0)
                    rounded = "" if opp % 5 == 0 else f", rounded to {(opp + 2) // 5 * 5}"
                    assert d["placement"] + d["opponents"] == raw
                    assert d["text"].endswith(f"the opponents' {opp} pips{rounded}) = {raw}")
            if view["game_over"]:
                break
            if not view["round_over"]:
                assert (prev["hand_sizes"], prev["boneyard_size"], prev["scores"]) == \
                    (view["hand_sizes"], view["boneyard_size"], view["scores"])
            view = client.post(f"/api/games/{gid}/moves", json={"move": view["legal_moves"][0]}).json()["view"]
        assert n > 10 and prev["round"] >= 1       # more than one round seen
    assert dominoes >= 1


def test_a_whole_game_is_honest_and_its_record_replays(client, tmp_path, capsys):
    gid, views = play_through(client, 2, 0, ["level1"], 19, hint_every=10)
    final = views[-1]
    assert final["status"] == "won" and 305 in final["scores"] and final["winner"] == final["scores"].index(305)
    # every round's end was shown once, with the hands left
    ends = [s["round_end"] for v in views for s in v["last_moves"] if "round_end" in s]
    assert [e["round"] for e in ends] == list(range(final["round"] + 1))
    assert ends[-1]["game_over"] and ends[-1]["winner"] == final["winner"]
    # the bots' moves came back one by one, each with its board
    bot_steps = [s for v in views for s in v["last_moves"] if s["seat"] == 1]
    assert bot_steps and all(s["board"].startswith("<svg") for s in bot_steps)
    # once the game is over the record is the whole game, and fiveup replay agrees
    rec = client.get(f"/api/games/{gid}/record").json()
    assert "view" not in rec and all(rd["boneyard"] is not None for rd in rec["rounds"])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec))
    replayed = cli_json(capsys, ["replay", str(path), "--json"])
    assert replayed["winner"] == final["winner"] and replayed["scores"] == final["scores"]
    assert replayed == client.app.state.fiveup.games[gid].game.result()
    assert len(replayed["rounds"]) == len(ends)
    # the game stays readable and refuses more moves
    assert client.get(f"/api/games/{gid}").json()["view"]["game_over"]
    assert "game is over" in error_of(client.post(f"/api/games/{gid}/moves", json={"move": "1-1"}), 400)


@pytest.mark.parametrize("players,seat,bots,seed", [(3, 1, ["level5", "level1"], 4), (4, 2, ["level1"], 2)])
def test_whole_games_of_three_and_four_are_honest(client, players, seat, bots, seed):
    gid, views = play_through(client, players, seat, bots, seed)
    assert views[-1]["seats"][seat] == "you" and len(views[-1]["hand_sizes"]) == players


def test_view_is_the_observation_plus_the_game_fields(client):
    r = client.post("/api/games", json={"players": 2, "seat": 1, "bots": ["greedy"], "seed": 8}).json()
    web = client.app.state.fiveup.games[r["id"]]
    view = r["view"]
    obs = web.game.observation(1).to_dict()
    assert {k: view[k] for k in obs} == obs
    assert set(view) - set(obs) == {"legal_same_as", "round_over", "game_over", "winner",
                                    "unfinished", "seats", "placements", "last_moves", "round_end", "board"}
    assert view["legal_moves"] == [format_move(m) for m in web.game.legal_moves]
    assert len(view["legal_same_as"]) == len(view["legal_moves"])


def test_undo_and_going_on_from_a_saved_view(client):
    r = client.post("/api/games", json={"players": 2, "seat": 0, "bots": ["level1"], "seed": 19}).json()
    gid, first = r["id"], r["view"]
    assert "nothing to undo" in error_of(client.post(f"/api/games/{gid}/undo"), 400)
    moved = client.post(f"/api/games/{gid}/moves", json={"move": first["legal_moves"][0]}).json()["view"]
    assert moved["history"] != first["history"]
    back = client.post(f"/api/games/{gid}/undo").json()["view"]
    assert back["hand"] == first["hand"] and back["legal_moves"] == first["legal_moves"]
    client.post(f"/api/games/{gid}/moves", json={"move": first["legal_moves"][0]})
    client.post(f"/api/games/{gid}/moves", json={"move": moved["legal_moves"][0]})
    saved = client.get(f"/api/games/{gid}/record").json()
    now = client.get(f"/api/games/{gid}").json()["view"]
    # load the saved view and go on: the same position for the person
    again = client.post("/api/games", json={"players": 2, "seat": 0, "bots": ["level1"], "seed": 19,
                                            "record": saved}).json()["view"]
    for key in ("hand", "history", "scores", "open_ports", "legal_moves", "hand_sizes", "boneyard_size"):
        assert again[key] == now[key], key
    # a full record goes on too
    g = played_game(seed=3, rounds=1)
    g.next_round()
    r = client.post("/api/games", json={"players": 2, "seat": g.to_move, "bots": ["greedy"], "seed": 1,
                                        "record": g.to_record()})
    assert r.status_code == 200 and r.json()["view"]["round"] >= 1


def test_board_and_position(client):
    svg = client.post("/api/board", json={"placements": ["4-4", "4-6@4-4:lineB"], "arrows": [["1-4@4-4:lineA", "red"]],
                                          "lastmove": "4-6@4-4:lineB"}).json()["svg"]
    assert svg.startswith("<svg") and svg.count("data-tile=") == 2 and 'data-ghost="1-4@4-4:lineA"' in svg
    g = played_game(seed=5, rounds=1)
    rec = g.to_record()
    p = client.post("/api/position", json={"record": rec, "round": 0, "action": 3, "arrows": []}).json()
    assert p["to_move"] is not None and p["board"].startswith("<svg") and all(h is not None for h in p["hands"])
    seat = rec["rounds"][0]["starter"]
    p = client.post("/api/position", json={"record": g.to_record(view=seat), "round": 0, "action": 0}).json()
    assert [h is None for h in p["hands"]] == [s != seat for s in range(2)] and p["legal_moves"]


def test_the_analysis_boards_position_gives_a_board_each_for_one_end(client):
    """Arrows on one open end (played and best there): a board each, titled by its move
    (tests/test_shared_end_boards.py); one arrow: one board, as before."""
    try:
        from .test_shared_end_boards import shared_end_position
    except ImportError:
        from test_shared_end_boards import shared_end_position
    g, a, b = shared_end_position()
    rec, i = g.to_record(), len(g.current.actions)
    p = client.post("/api/position", json={"record": rec, "round": 0, "action": i,
                                           "arrows": [[str(a), "#cc0000"], [str(b), "#1a7f37"]]}).json()
    assert len(p["boards"]) == 2 and p["board"] == p["boards"][0]
    titles = [s.split("<title>")[1].split("</title>")[0] for s in p["boards"]]
    assert titles == [f"round 0, before action {i}: {a}", f"round 0, before action {i}: {b}"]
    one = client.post("/api/position", json={"record": rec, "round": 0, "action": i,
                                             "arrows": [[str(a), "#cc0000"]]}).json()
    assert one["boards"] == [one["board"]] and f"<title>round 0, before action {i}</title>" in one["board"]


# --------------------------------------------------------------------------- bad input: 4xx, one line
GOOD = Game(players=2, seed=5).to_record()


def _bad_cases():
    rec = GOOD
    view = Game(players=2, seed=5).to_record(view=0)
    over = played_game(seed=5, rounds=1)
    ended = over.to_record()
    n_end = len(ended["rounds"][0]["actions"])
    broken = json.loads(json.dumps(rec))
    broken["rounds"][0]["hands"][0][0] = "9-9"
    return [
        ("POST", "/api/hint", {"record": rec}, 422, "seat: Field required"),
        ("POST", "/api/hint", {"record": rec, "seat": "0"}, 422, "seat: Input should be a valid integer"),
        ("POST", "/api/hint", {"record": rec, "seat": True}, 422, "seat"),
        ("POST", "/api/hint", {"record": rec, "seat": 0, "bogus": 1}, 422, "bogus: Extra inputs"),
        ("POST", "/api/hint", {"record": [], "seat": 0}, 422, "record"),
        ("POST", "/api/hint", {"record": broken, "seat": 0}, 400, "bad tile '9-9'"),
        ("POST", "/api/hint", {"record": {"format": "x"}, "seat": 0}, 400, "missing key"),
        ("POST", "/api/hint", {"record": rec, "seat": 7}, 400, "seat must be 0..1"),
        ("POST", "/api/hint", {"record": rec, "seat": 1 - rec["rounds"][0]["starter"]}, 400, "is not to move"),
        ("POST", "/api/hint", {"record": rec, "seat": 0, "round": 0}, 400, "together"),
        ("POST", "/api/hint", {"record": rec, "seat": 0, "round": 5, "action": 0}, 400, "round 5 is not in"),
        ("POST", "/api/hint", {"record": rec, "seat": rec["rounds"][0]["starter"], "method": "magic"}, 400, "method"),
        ("POST", "/api/hint", {"record": rec, "seat": rec["rounds"][0]["starter"], "samples": 0}, 400, "samples"),
        ("POST", "/api/hint", {"record": rec, "seat": rec["rounds"][0]["starter"], "samples": 100000}, 400,
         "samples must be 1..1024"),
        ("POST", "/api/hint", {"record": rec, "seat": rec["rounds"][0]["starter"], "time_ms": 10 ** 9}, 400,
         "time_ms"),
        ("POST", "/api/hint", {"record": rec, "seat": rec["rounds"][0]["starter"], "samples": 4, "time_ms": 5},
         400, "not both"),
        ("POST", "/api/hint", {"record": rec, "seat": rec["rounds"][0]["starter"], "objective": "fun"}, 400,
         "objective"),
        ("POST", "/api/hint", {"record": rec, "seat": rec["rounds"][0]["starter"], "beliefs": "psychic"}, 400,
         "beliefs"),
        ("POST", "/api/hint", {"record": view, "seat": 1}, 400, "view"),
        ("POST", "/api/solve", {"record": view, "round": 0, "action": 0}, 400, "needs every hand"),
        ("POST", "/api/solve", {"record": ended, "round": 0, "action": n_end}, 400, "the round is over"),
        ("POST", "/api/solve", {"record": rec, "round": 0, "action": 0, "node_limit": 5}, 400, "node limit 5"),
        ("POST", "/api/solve", {"record": rec, "round": 0, "action": 0, "node_limit": 0}, 400, "node_limit"),
        ("POST", "/api/solve", {"record": rec, "round": 0, "action": 99}, 400, "action 99 is not in"),
        ("POST", "/api/solve", {"record": rec, "round": 0, "action": 0, "objective": "x"}, 400, "objective"),
        # the query's names, not the command line's flags (a review)
        ("GET", "/api/equity?players=2", None, 400, "scores A,B[,C] is required"),
        ("GET", "/api/equity?players=5&scores=0,0", None, 400, "players must be 2, 3 or 4"),
        ("GET", "/api/equity?players=2&scores=0,0&starter=9", None, 400, "starter must be a seat 0..1"),
        ("GET", "/api/equity?players=two&scores=0,0", None, 422, "players"),
        ("GET", "/api/equity?players=2&scores=1,x", None, 400, "raw scores separated by commas"),
        ("GET", "/api/equity?players=2&scores=3,0", None, 400, "multiple of 5"),
        ("GET", "/api/equity?players=2&scores=0,0&starter=9", None, 400, "starter"),
        ("GET", "/api/equity?players=2&scores=0,0&starter=a", None, 400, "starter must be a seat number or 'drawn'"),
        ("GET", "/api/equity?players=2&scores=" + "5," * 60, None, 400, "at most 100"),
        ("POST", "/api/games", {"players": 5}, 400, "players must be 2, 3 or 4"),
        ("POST", "/api/games", {"players": 2, "seat": 2}, 400, "seat must be 0..1"),
        ("POST", "/api/games", {"players": 2, "bots": ["grandmaster"]}, 400, "unknown bot 'grandmaster'"),
        ("POST", "/api/games", {"players": 2, "bots": []}, 400, "at least one bot"),
        ("POST", "/api/games", {"players": 2, "bots": ["level1", "level2"]}, 400, "2 bots named for 1"),
        ("POST", "/api/games", {"players": 2, "bots": "level1"}, 422, "bots"),
        ("POST", "/api/games", {"players": 2, "seed": 1.5}, 422, "seed"),
        ("POST", "/api/games", {"players": 2, "seed": "x"}, 422, "seed"),
        ("POST", "/api/games", {"players": 3, "record": rec}, 400, "2-player game, not 3"),
        ("POST", "/api/games", {"players": 2, "seat": 1, "record": view}, 400, "seat 0's view"),
        ("POST", "/api/games", {"players": 2, "record": broken}, 400, "bad tile"),
        ("POST", "/api/games/nope/moves", {"move": "1-1"}, 404, "no game 'nope'"),
        ("GET", "/api/games/nope", None, 404, "no game"),
        ("GET", "/api/games/nope/record", None, 404, "no game"),
        ("POST", "/api/games/nope/undo", None, 404, "no game"),
        ("GET", "/api/analyses/nope", None, 404, "no analysis 'nope'"),
        ("POST", "/api/analyses", {"record": rec, "samples": 1}, 400, "samples must be 2..512"),
        ("POST", "/api/analyses", {"record": rec, "dd_nodes": -1}, 400, "dd_nodes"),
        ("POST", "/api/analyses", {"record": rec, "seed": -1}, 400, "seed"),
        ("POST", "/api/analyses", {"record": rec, "seat": 3}, 400, "seat must be 0..1"),
        ("POST", "/api/analyses", {"record": view, "seat": 1}, 400, "seat 0's view"),
        ("POST", "/api/analyses", {"record": broken}, 400, "bad tile"),
        ("POST", "/api/analyses", {"record": rec, "beliefs": "x"}, 400, "beliefs"),
        ("POST", "/api/board", {"placements": ["4-4", "5-5@4-4:lineA"]}, 400, "5-5"),
        ("POST", "/api/board", {"placements": ["4-4"], "arrows": [["1-4@4-4:lineA"]]}, 400, "[move, colour] pair"),
        ("POST", "/api/board", {"placements": ["4-4"], "arrows": [["1-4@4-4:lineA", "url(x)"]]}, 400, "colour"),
        ("POST", "/api/board", {"placements": ["4-4"], "size": 5}, 400, "size must be 100..2000"),
        ("POST", "/api/board", {"placements": ["x"] * 29}, 400, "at most 28"),
        ("POST", "/api/position", {"record": rec, "round": 3, "action": 0}, 400, "round 3 is not in"),
        ("POST", "/api/position", {"record": rec, "round": 0, "action": 0, "arrows": [["6-6@0-0:lineA", "red"]]},
         400, "arrow 0"),
        ("GET", "/api/nothing", None, 404, "no such page"),
        ("DELETE", "/api/health", None, 405, "DELETE is not allowed"),
        ("GET", "/api/hint", None, 405, "not allowed"),
    ]


@pytest.mark.parametrize("method,path,body,status,message", _bad_cases(),
                         ids=lambda x: x if isinstance(x, str) and x.startswith(("/", "GET", "POST")) else None)
def test_bad_input_is_one_line_4xx(client, method, path, body, status, message):
    r = client.request(method, path, json=body) if body is not None else client.request(method, path)
    assert message in error_of(r, status)


def test_bad_moves_in_a_game(client):
    r = client.post("/api/games", json={"players": 2, "seat": 0, "bots": ["level1"], "seed": 19}).json()
    gid, view = r["id"], r["view"]
    illegal = next(f"{t}@{p}" for t in ["0-0"] for p in ["6-6:lineA"])
    for move, status, message in (("9-9", 400, "bad tile '9-9'"), ("", 400, "record notation"),
                                  ("draw", 400, "is not legal here"), (illegal, 400, ""),
                                  ("3-4@4-4:sideways", 400, "")):
        error_of(client.post(f"/api/games/{gid}/moves", json={"move": move}), status)
    error_of(client.post(f"/api/games/{gid}/moves", json={"move": 12}), 422)
    error_of(client.post(f"/api/games/{gid}/moves", json={"moves": view["legal_moves"][0]}), 422)
    assert client.get(f"/api/games/{gid}").json()["view"]["history"] == view["history"]   # nothing changed


@pytest.mark.parametrize("raw,message", [
    (b"{bad json", "malformed JSON"),
    (b"", "JSON object is required"),
    (b"[1, 2]", "JSON object is required"),
    (b"null", "JSON object is required"),
    (b"[" * 50000 + b"]" * 50000, ""),
    (b'{"players": 2, "seed": ' + b"9" * 5000 + b"}", ""),
    (b'{"players": NaN}', ""),
    (b"\xff\xfe{}", ""),
])
def test_malformed_bodies(client, raw, message):
    r = client.post("/api/games", content=raw, headers={"content-type": "application/json"})
    assert message in error_of(r)


def test_body_size_limit_with_and_without_content_length(client):
    big = b'{"players": 2, "pad": "' + b"x" * (serve.MAX_BODY_BYTES + 10) + b'"}'
    assert "over 1,000,000 bytes" in error_of(client.post("/api/games", content=big,
                                                          headers={"content-type": "application/json"}), 413)

    def chunks():      # no Content-Length: the body arrives in pieces and is cut off at the limit
        for _ in range(20):
            yield b"x" * 100_000
    assert "over" in error_of(client.post("/api/games", content=chunks(), headers={"content-type": "application/json"}),
                              413)
    assert "bad Content-Length" in error_of(client.post("/api/games", content=b"{}",
                                                        headers={"content-length": "-1"}), 400)


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8061", "127.0.0.1.evil.example", "", "10.0.0.1:8061"])
def test_host_header_check_against_dns_rebinding(client, host):
    assert "is not served here" in error_of(client.get("/api/health", headers={"host": host}), 400)


@pytest.mark.parametrize("host", ["127.0.0.1:8061", "localhost:8061", "[::1]:8061", "localhost", "LOCALHOST:1"])
def test_loopback_hosts_are_served(client, host):
    assert client.get("/api/health", headers={"host": host}).status_code == 200


def test_a_server_on_every_interface_takes_addresses_not_names():
    with TestClient(serve.create_app(ip_hosts=True), base_url=BASE) as c:
        for host in ("192.0.2.7:8061", "[2001:db8::1]:8061", "127.0.0.1"):
            assert c.get("/api/health", headers={"host": host}).status_code == 200, host
        for host in ("rebind.example:8061", "192.0.2.7.nip.example"):
            assert "not served here" in error_of(c.get("/api/health", headers={"host": host}), 400)


def test_a_games_board_with_arrows_says_what_the_last_placement_credited(client):
    """The play page's hint board came from /api/board, which knows only the placements: under
    a placement that scored 5 its caption said "(a multiple of 5)" (a review). The game's own
    board with the hint's arrow keeps the view's caption; a stale position is a 409."""
    import random
    rng = random.Random(3)
    r = client.post("/api/games", json={"players": 2, "seat": 0, "bots": ["level1"], "seed": 2}).json()
    gid, view = r["id"], r["view"]
    for _ in range(60):
        scored = [e for step in view["last_moves"] for e in step["events"] if e["kind"] == "placement"]
        if scored and scored[-1]["seat"] != 0 and view["legal_moves"] and "@" in view["legal_moves"][0] \
                and not view["round_over"]:
            break
        if view["round_over"] or not view["legal_moves"]:
            break
        view = client.post(f"/api/games/{gid}/moves", json={"move": rng.choice(view["legal_moves"])}).json()["view"]
    raw = scored[-1]["raw"]
    # the view's caption names the credit; the board with an arrow says the same
    caption = re.search(r'aria-label="([^"]*)"', view["board"]).group(1)
    assert f"scores {raw}" in caption and raw % 5 == 0 and raw > 0
    pos = {"round": view["round"], "action": len(view["history"])}
    svg = client.post(f"/api/games/{gid}/board", json={"arrows": [[view["legal_moves"][0], "#1864ab"]], **pos}).json()["svg"]
    assert re.search(r'aria-label="([^"]*)"', svg).group(1) == caption and "a multiple of 5" not in svg
    assert f'data-move="{view["legal_moves"][0]}"' in svg or f'data-ghost="{view["legal_moves"][0]}"' in svg
    # a position the game has left; bad arrows; no such game
    assert client.post(f"/api/games/{gid}/board", json={"round": pos["round"], "action": 0}).status_code == 409
    assert "colour" in error_of(client.post(f"/api/games/{gid}/board",
                                            json={"arrows": [[view["legal_moves"][0], "url(x)"]], **pos}), 400)
    assert client.post("/api/games/nope/board", json=pos).status_code == 404


def test_no_500_on_a_fuzz_of_bodies(client):
    """Random JSON bodies on every POST endpoint: always a 4xx or a 200, never a 5xx."""
    import random
    rng = random.Random(22)
    values = [None, True, -1, 0, 1, 2, 2 ** 70, 1.5, "", "x", "1-1", [], [1], {}, {"a": 1}, GOOD, [["4-4", "red"]]]
    keys = ["record", "seat", "round", "action", "method", "samples", "time_ms", "players", "bots", "move",
            "placements", "arrows", "size", "seed", "objective", "node_limit"]
    gid = client.post("/api/games", json={"players": 2, "seat": 0, "bots": ["level1"], "seed": 1}).json()["id"]
    paths = ["/api/hint", "/api/solve", "/api/games", f"/api/games/{gid}/moves", "/api/analyses", "/api/board",
             "/api/position", f"/api/games/{gid}/board"]
    for _ in range(150):
        body = {k: rng.choice(values) for k in rng.sample(keys, rng.randint(0, 5))}
        r = client.post(rng.choice(paths), json=body)
        assert r.status_code < 500, (body, r.text[:200])
        if r.status_code >= 400:
            error_of(r)


# --------------------------------------------------------------------------- caps and expiry
def test_games_cap_and_expiry(monkeypatch):
    monkeypatch.setattr(serve, "MAX_GAMES", 3)
    with fresh_client() as c:
        state = c.app.state.fiveup
        ids = [c.post("/api/games", json={"players": 2, "seed": s}).json()["id"] for s in range(3)]
        c.get(f"/api/games/{ids[0]}")                                  # touched: now the newest
        # a game touched within KEEP_RECENT_SECONDS is never dropped to make room: 429
        assert "busy" in error_of(c.post("/api/games", json={"players": 2, "seed": 9}), 429)
        for gid in ids:                                                # all untouched for 10 min
            state.games[gid].touched -= serve.KEEP_RECENT_SECONDS
        ids.append(c.post("/api/games", json={"players": 2, "seed": 9}).json()["id"])
        assert c.get(f"/api/games/{ids[1]}").status_code == 404        # the one untouched longest went
        assert all(c.get(f"/api/games/{i}").status_code == 200 for i in (ids[0], ids[2], ids[3]))
        monkeypatch.setattr(serve, "GAME_IDLE_SECONDS", 0)
        time.sleep(0.01)
        assert "untouched" in error_of(c.get(f"/api/games/{ids[0]}"), 404)
        assert c.get("/api/health").json()["games"] == 0


def test_analyses_cap_and_expiry(monkeypatch):
    monkeypatch.setattr(serve, "MAX_ANALYSES", 2)
    rec = played_game(seed=5, rounds=3).to_record()
    slow = {"record": rec, "samples": 512, "luck_samples": 512, "dd_nodes": 10_000_000}
    quick = {"record": rec, "samples": 2, "luck_samples": 1, "dd_nodes": 0}
    with fresh_client(workers=2) as c:          # 2 search workers: one analysis at a time
        assert c.app.state.fiveup.analysis_slots == 1
        state = c.app.state.fiveup
        a = c.post("/api/analyses", json=quick).json()["id"]
        while c.get(f"/api/analyses/{a}").json()["status"] != "done":
            time.sleep(0.05)
        assert state.analyses[a].result is not None
        b = c.post("/api/analyses", json=slow).json()["id"]
        # a finished one makes room once it finished KEEP_RECENT_SECONDS ago, not before
        assert "try again" in error_of(c.post("/api/analyses", json=slow), 429)
        state.analyses[a].finished_at -= serve.KEEP_RECENT_SECONDS
        d = c.post("/api/analyses", json=slow).json()["id"]           # the finished one makes room
        assert c.get(f"/api/analyses/{a}").status_code == 404
        assert c.get(f"/api/analyses/{b}").json()["status"] in ("queued", "running")
        assert c.get(f"/api/analyses/{d}").json()["status"] == "queued"   # one core kept for hints
        full = c.post("/api/analyses", json=quick)
        assert "try again" in error_of(full, 429)
        assert full.headers["retry-after"] == str(serve.ANALYSIS_RETRY_SECONDS)      # all queued or running
        # /api/health and a hint answer while the analysis runs
        t = time.perf_counter()
        assert c.get("/api/health").status_code == 200
        assert time.perf_counter() - t < 1.0
        h = c.post("/api/hint", json={"record": GOOD, "seat": GOOD["rounds"][0]["starter"], "samples": 4})
        assert h.status_code == 200
        jobs = list(state.analyses.values())
    # leaving the app stops the long jobs at their next action
    deadline = time.monotonic() + 60
    while any(j.status in ("queued", "running") for j in jobs) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(j.status in ("done", "error") for j in jobs)
    assert jobs[1].status == "error" and "stopped" in jobs[1].error      # it was still queued
    # a finished analysis is kept ANALYSIS_KEEP_SECONDS
    monkeypatch.setattr(serve, "ANALYSIS_KEEP_SECONDS", 0.2)
    with fresh_client() as c:
        a = c.post("/api/analyses", json=quick).json()["id"]
        while c.get(f"/api/analyses/{a}").json()["status"] != "done":
            time.sleep(0.05)
        time.sleep(0.3)
        assert "dropped" in error_of(c.get(f"/api/analyses/{a}"), 404)


# --------------------------------------------------------------------------- the command
def test_serve_without_the_extra_names_it(monkeypatch, capsys):
    import importlib.util
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "fastapi" else real(name, *a))
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert err == "error: fiveup serve needs the serve extra: pip install 'fiveup_solver[serve]'\n"


@pytest.mark.parametrize("argv,message", [(["--port", "70000"], "--port must be 0..65535"),
                                          (["--port", "x"], "must be an integer (digits 0-9), not 'x'"),
                                          (["--host", "a b"], "--host")])
def test_serve_bad_options(capsys, argv, message):
    assert main(["serve", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_fiveup_serve_answers_on_loopback(tmp_path):
    """--port 0 takes a free port, and the banner names it (a review: it printed ':0')."""
    proc = subprocess.Popen([sys.executable, "-m", "fiveup_solver.cli", "serve", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        m = re.fullmatch(r"fiveup serve: http://127\.0\.0\.1:(\d+)/ \(Ctrl-C stops\)\n", line)
        assert m, line
        port = int(m.group(1))
        assert port > 0
        body = None
        for _ in range(50):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=2) as r:
                    body = json.loads(r.read())
                break
            except OSError:
                time.sleep(0.1)
        assert body is not None and body["status"] == "ok"
        req = urllib.request.Request(f"http://127.0.0.1:{port}/api/health", headers={"Host": "rebind.example"})
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(req, timeout=2)
        assert e.value.code == 400
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_concurrent_hints_and_health():
    """Hints from several threads at once all answer; /api/health stays quick meanwhile."""
    rec = GOOD
    seat = rec["rounds"][0]["starter"]
    with fresh_client() as c:
        answers, lat = [], []

        def ask():
            answers.append(c.post("/api/hint", json={"record": rec, "seat": seat, "samples": 24}).status_code)
        threads = [threading.Thread(target=ask) for _ in range(4)]
        for t in threads:
            t.start()
        while any(t.is_alive() for t in threads):
            t0 = time.perf_counter()
            assert c.get("/api/health").status_code == 200
            lat.append(time.perf_counter() - t0)
            time.sleep(0.01)
        for t in threads:
            t.join()
        assert answers == [200] * 4 and max(lat) < 1.0


def test_a_port_in_use_is_one_error_line(capsys):
    """uvicorn reported a port it cannot bind as a log line after the banner and exit status 3;
    `fiveup serve` names it in one line with status 2, before printing its address."""
    import socket
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"error: cannot serve on 127.0.0.1:{port}: ") and err.count("\n") == 1


def test_a_bot_of_a_web_game_searches_within_a_hints_limits(client):
    """hint:1000000:1000000 as a bot held a worker for hours at its first move (two such
    games took both workers: hints, moves and new games stalled)."""
    for bot, what in (("hint:1000000:5000", "samples"), ("expectimax:16:1000000000000", "world nodes"),
                      ("hint@60000ms", "time_ms")):
        err = error_of(client.post("/api/games", json={"players": 2, "seat": 0, "bots": [bot], "seed": 6}), 400)
        assert f"bot {bot}: {what} must be" in err, err
    ok = client.post("/api/games", json={"players": 2, "seat": 0, "bots": ["hint:8:2000"], "seed": 6})
    assert ok.status_code == 200, ok.text


def test_a_web_game_never_imports_a_module_a_request_names(client):
    # MODULE:FUNCTION bots are for one's own programs and command lines: a request naming
    # one is refused before anything is imported
    import sys
    assert "wave" not in sys.modules
    for bot in ("wave:open", "os:getcwd", "nosuchmodule:f"):
        err = error_of(client.post("/api/games", json={"players": 2, "seat": 0, "bots": [bot], "seed": 6}), 400)
        assert f"bot {bot!r}: a web game takes the server's bots" in err, err
    assert "wave" not in sys.modules


def test_a_finished_game_takes_no_undo(client):
    """An undo after the game's end left it neither over nor playable, and its record a view."""
    r = client.post("/api/games", json={"players": 2, "seat": 0, "bots": ["greedy"], "seed": 3}).json()
    gid, view = r["id"], r["view"]
    for _ in range(2000):
        if view["game_over"]:
            break
        view = client.post(f"/api/games/{gid}/moves", json={"move": view["legal_moves"][0]}).json()["view"]
    assert view["game_over"]
    record = client.get(f"/api/games/{gid}/record").json()
    assert "the game is over" in error_of(client.post(f"/api/games/{gid}/undo"), 400)
    assert client.get(f"/api/games/{gid}").json()["view"]["game_over"]
    assert client.get(f"/api/games/{gid}/record").json() == record and "view" not in record


def test_a_game_without_a_seed_is_dealt_from_a_secret_one(client):
    """The page filled in a seed of one of a million, which deals every hidden tile (a
    review found the seed from the first hand and the starter in 12 s). Without a seed
    the server draws a 63-bit one and never sends it: no two games alike, none that of
    seed 0, and no answer carries a seed."""
    from fiveup_solver import Game
    hands = []
    for _ in range(4):
        r = client.post("/api/games", json={"players": 2, "seat": 0, "bots": ["greedy"]})
        assert r.status_code == 200, r.text
        body = r.json()
        assert "seed" not in body and "seed" not in body["view"]
        record = client.get(f"/api/games/{body['id']}/record").json()
        hands.append(tuple(record["rounds"][0]["hands"][0]))
    assert len(set(hands)) == 4
    seeded = Game(players=2, seed=0).to_record()["rounds"][0]["hands"][0]
    assert tuple(seeded) not in hands
    # a seed given deals that seed's game, as before
    r = client.post("/api/games", json={"players": 2, "seat": 0, "bots": ["greedy"], "seed": 5}).json()
    record = client.get(f"/api/games/{r['id']}/record").json()
    assert record["rounds"][0]["hands"][0] == Game(players=2, seed=5).to_record()["rounds"][0]["hands"][0]


def test_a_game_from_ones_own_view_deals_the_unseen_tiles_in_secret():
    """A game going on from the person's own view played the unseen tiles its replay had
    filled in from a fixed seed (record.view_deal): game_from_record(view) computed the
    bots' hands and the boneyard's order offline (a review: 10 of 10 games). They are
    now dealt from the game's own (secret) seed, consistently with all the person saw."""
    from fiveup_solver.record import game_from_record
    changed = 0
    for seed in range(10):
        g = Game(players=2, seed=seed)
        while g.to_move != 0 or len(g.current.moves) < 3:
            g.push(g.legal_moves[0])
        view = g.to_record(view=0)
        offline = game_from_record(view)
        web = serve.WebGame(2, ["greedy", "greedy"], 0, None, record=view)
        assert web.game.observation(0).to_dict() == offline.observation(0).to_dict() == g.observation(0).to_dict()
        hidden = lambda game: (sorted(map(str, game.hand(1))), [str(t) for t in game.boneyard])  # noqa: E731
        changed += hidden(web.game) != hidden(offline)
    assert changed >= 8, changed


def test_an_analysis_can_be_cancelled(client):
    """There was no way to stop an analysis: a page left while it ran kept its slot to
    the end. A cancelled job stops at its next action; a finished one keeps its answer."""
    rec = played_game(seed=11, rounds=2).to_record()
    aid = client.post("/api/analyses", json={"record": rec, "samples": 256, "luck_samples": 64,
                                             "dd_nodes": 2_000_000}).json()["id"]
    job = client.post(f"/api/analyses/{aid}/cancel").json()
    deadline = time.monotonic() + 60
    while job["status"] in ("queued", "running") and time.monotonic() < deadline:
        time.sleep(0.05)
        job = client.get(f"/api/analyses/{aid}").json()
    assert job["status"] == "error" and job["error_message"] == "the analysis was stopped (cancelled by its client)"
    assert job["done"] < job["total"] or job["total"] == 0
    assert "no analysis" in error_of(client.post("/api/analyses/nope/cancel"), 404)
    # a finished job keeps its result
    small = client.post("/api/analyses", json={"record": played_game(seed=5, rounds=1).to_record(), "samples": 2,
                                               "luck_samples": 1, "dd_nodes": 0}).json()["id"]
    while (job := client.get(f"/api/analyses/{small}").json())["status"] in ("queued", "running"):
        time.sleep(0.05)
    assert job["status"] == "done"
    assert client.post(f"/api/analyses/{small}/cancel").json()["status"] == "done"


def test_a_game_going_on_from_a_view_keeps_a_view_record(client):
    """Its hidden tiles were sampled: at the end its record read as a full record (no
    "view"), and the analysis board judged it double-dummy on tiles nobody held."""
    r = client.post("/api/games", json={"players": 2, "seat": 0, "bots": ["greedy"], "seed": 21}).json()
    gid, view = r["id"], r["view"]
    view = client.post(f"/api/games/{gid}/moves", json={"move": view["legal_moves"][0]}).json()["view"]
    saved = client.get(f"/api/games/{gid}/record").json()
    assert saved["view"] == 0
    r = client.post("/api/games", json={"players": 2, "seat": 0, "bots": ["greedy"], "record": saved}).json()
    gid, view = r["id"], r["view"]
    for _ in range(2000):
        if view["game_over"] or view["unfinished"]:
            break
        view = client.post(f"/api/games/{gid}/moves", json={"move": view["legal_moves"][0]}).json()["view"]
    assert view["game_over"] or view["unfinished"]
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["view"] == 0 and all("revealed" in rnd for rnd in record["rounds"])
    # a game dealt here from the start ends with its full record, as before
    r = client.post("/api/games", json={"players": 2, "seat": 0, "bots": ["greedy"], "seed": 3}).json()
    gid, view = r["id"], r["view"]
    while not (view["game_over"] or view["unfinished"]):
        view = client.post(f"/api/games/{gid}/moves", json={"move": view["legal_moves"][0]}).json()["view"]
    assert "view" not in client.get(f"/api/games/{gid}/record").json()


def test_a_body_that_never_arrives_is_a_408(monkeypatch):
    """A request announcing 500 bytes and sending 10 held its connection open for good."""
    import asyncio
    import concurrent.futures
    monkeypatch.setattr(serve, "BODY_SECONDS", 0.2)

    async def app(scope, receive, send):
        raise AssertionError("an incomplete body reached the app")

    async def run():
        sent, calls = [], 0

        async def receive():
            nonlocal calls
            calls += 1
            if calls == 1:
                return {"type": "http.request", "body": b"0123456789", "more_body": True}
            await asyncio.sleep(3600)

        async def send(message):
            sent.append(message)
        scope = {"type": "http", "method": "POST", "path": "/api/games",
                 "headers": [(b"host", b"127.0.0.1:8061"), (b"content-length", b"500")]}
        await asyncio.wait_for(serve._Guard(app, hosts={"127.0.0.1"})(scope, receive, send), 10)
        return sent
    # in a thread of its own: where the browser tests ran first in this process, Playwright's
    # event loop is running in this thread and asyncio.run would refuse to start
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        sent = pool.submit(asyncio.run, run()).result()
    assert sent[0]["status"] == 408
    body = json.loads(sent[1]["body"])
    assert body == {"error": "the request body did not arrive within 0.2 s"}


def test_a_hint_whose_client_went_away_gives_its_worker_back():
    """The largest hint a request may ask searches for up to a minute: a client that
    closed its connection kept a worker (of one per core) searching for nobody. The
    server now looks every 0.1 s whether the client is still there, and stops the search
    when it is not (Hinter.stop); /api/health counts such hints. With one worker, a second
    hint can only be answered once the first search has stopped."""
    import socket
    import time
    app = serve.create_app(workers=1)
    with live_server(app) as port:
        g = Game(players=2, seed=5)
        record, seat = g.to_record(), g.to_move
        body = json.dumps({"record": record, "seat": seat, "method": "expectimax", "samples": 1024,
                           "world_nodes": 1_000_000}).encode()
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.sendall(b"POST /api/hint HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
            time.sleep(0.5)                                   # the search is under way; the client leaves
        for _ in range(1200):                                 # a hang guard
            if app.state.fiveup.hints_stopped == 1:
                break
            time.sleep(0.05)
        assert app.state.fiveup.hints_stopped == 1
        import http.client
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        conn.request("POST", "/api/hint", json.dumps({"record": record, "seat": seat, "samples": 8}),
                     {"Content-Type": "application/json", "Host": "127.0.0.1"})
        answer = conn.getresponse()
        assert answer.status == 200 and json.loads(answer.read())["seat"] == seat
        conn.request("GET", "/api/health", headers={"Host": "127.0.0.1"})
        assert json.loads(conn.getresponse().read())["hints_stopped"] == 1
        conn.close()


@contextlib.contextmanager
def live_server(app):
    """``app`` served by uvicorn on a free port of 127.0.0.1 in a thread: yields the port."""
    import socket
    import threading
    import time
    import uvicorn
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(600):                                  # a hang guard, not a timing
            if server.started:
                break
            time.sleep(0.05)
        yield port
    finally:
        server.should_exit = True
        thread.join(30)


def test_bot_replies_whose_client_went_away_stop_and_go_on_at_the_next_view():
    """A move's request makes every bot reply up to the person's next decision: with slow
    bots, a client that left kept a worker making them for nobody (102 s was measured with
    three large expectimax bots), its game answered 409 all that while, and reads waited
    for a worker too. Now the replies stop after the bot move being made when the client
    has gone; the next view of the game makes the rest; views and records need no worker."""
    import time
    from fiveup_solver import bots as bots_module
    moves_made = []

    def slow(obs, rng):
        moves_made.append(time.monotonic())
        time.sleep(0.3)
        return obs.legal_moves[0]
    bots_module.register_bot("test-slow-web", slow)
    app = serve.create_app(workers=1)
    try:
        with live_server(app) as port:
            _stop_and_go_on(app, port, moves_made)
    finally:
        bots_module.BOTS.pop("test-slow-web", None)


def _stop_and_go_on(app, port, moves_made):
    """The test above on a live server: a game, a move whose client leaves, the next view."""
    import http.client
    import socket
    import time
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    headers = {"Content-Type": "application/json", "Host": "127.0.0.1"}
    conn.request("POST", "/api/games", json.dumps({"players": 4, "seat": 0, "bots": ["test-slow-web"]}), headers)
    answer = conn.getresponse()
    assert answer.status == 200
    created = json.loads(answer.read())
    gid, view = created["id"], created["view"]
    game = app.state.fiveup.games[gid]
    assert view["legal_moves"] and not game.bots_to_move
    body = json.dumps({"move": view["legal_moves"][0]}).encode()
    before = len(moves_made)
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(f"POST /api/games/{gid}/moves HTTP/1.1\r\nHost: 127.0.0.1\r\n".encode()
                  + b"Content-Type: application/json\r\nContent-Length: " + str(len(body)).encode()
                  + b"\r\n\r\n" + body)
        for _ in range(600):                              # the first bot reply has begun
            if len(moves_made) > before:
                break
            time.sleep(0.01)
    for _ in range(1200):                                 # a hang guard: the stopped request ends
        if not game.lock.locked():
            break
        time.sleep(0.05)
    assert not game.lock.locked()
    # (the person's first placement of a round cannot end it: three bots are still to reply)
    assert not game.finished and game.bots_to_move
    made = len(moves_made)
    assert made - before < 3, "the bots replied on for a client that had gone"
    time.sleep(0.5)
    assert len(moves_made) == made                        # stopped: nothing more is searched
    # reads answer at once, from the event loop, while a bot is still to move
    conn.request("GET", f"/api/games/{gid}/record", headers=headers)
    answer = conn.getresponse()
    assert answer.status == 200 and json.loads(answer.read())["players"] == 4
    conn.request("GET", f"/api/games/{gid}", headers=headers)
    answer = conn.getresponse()
    assert answer.status == 200
    view = json.loads(answer.read())["view"]
    assert view["game_over"] or (view["to_move"] == 0 and view["legal_moves"])
    assert len(moves_made) > made and not game.bots_to_move
    conn.close()


@pytest.mark.parametrize("body, message", [
    (b'{"players": ' + b"9" * 4400 + b"}", "malformed JSON: a number of more than 4,300 digits"),
    (b'{"bots": ["\xff\xfe"]}', "malformed JSON: not UTF-8 text (byte 0xff at offset 11)"),
    (b'{"bots": ' + b"[" * 100000 + b"]" * 100000 + b"}", "malformed JSON: nested too deeply"),
])
def test_a_body_the_json_reader_refuses_is_named(client, body, message):
    """FastAPI answers these with "There was an error parsing the body": now the reason."""
    r = client.post("/api/games", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 400
    assert r.json()["error"].startswith(message), r.json()


# --------------------------------------------------------------------------- review 2 of the browser app
def _key(view):
    return {"round": view["round"], "action": len(view["history"])}


def test_a_move_chosen_on_a_position_the_game_has_left_is_refused(client):
    """A review (F1): two tabs on one game; after tab A moved, tab B's stale but still legal
    move was played on a position B never showed. A move now names the position it was
    chosen on (the view's round and the length of its history): a position the game has
    left is a 409 naming that the game moved on; without the key a move is taken as before."""
    r = client.post("/api/games", json={"players": 2, "seat": 0, "bots": ["level1"], "seed": 19}).json()
    gid, first = r["id"], r["view"]
    web = client.app.state.fiveup.games[gid]
    moved = client.post(f"/api/games/{gid}/moves", json={"move": first["legal_moves"][0], **_key(first)})
    assert moved.status_code == 200, moved.text
    now = moved.json()["view"]
    stale = next((m for m in first["legal_moves"] if m in now["legal_moves"]), first["legal_moves"][0])
    message = error_of(client.post(f"/api/games/{gid}/moves", json={"move": stale, **_key(first)}), 409)
    assert "moved on" in message and "another tab" in message
    assert f"round {first['round']} action {len(first['history'])}" in message
    assert client.get(f"/api/games/{gid}").json()["view"]["history"] == now["history"]     # nothing played
    assert "go together" in error_of(client.post(f"/api/games/{gid}/moves",
                                                 json={"move": stale, "round": now["round"]}), 400)
    # the position the person sees: played
    again = client.post(f"/api/games/{gid}/moves", json={"move": now["legal_moves"][0], **_key(now)})
    assert again.status_code == 200, again.text
    # the documented API without the key still plays (on whatever position the game is at)
    view = again.json()["view"]
    if not view["game_over"]:
        assert client.post(f"/api/games/{gid}/moves", json={"move": view["legal_moves"][0]}).status_code == 200
    assert web.game is not None


def test_a_seed_above_2_53_given_as_digits_deals_that_seed(client):
    """A review (F6): the page sent 9007199254740993 as the JavaScript number
    9007199254740992, another deal. A seed may now come as a string of decimal digits,
    read exactly; check_seed checks its range as for a number."""
    seed = 9007199254740993
    r = client.post("/api/games", json={"players": 2, "seat": 0, "bots": ["level1"], "seed": str(seed)})
    assert r.status_code == 200, r.text
    web = client.app.state.fiveup.games[r.json()["id"]]
    assert web.seed == seed
    assert web.game.rounds[0].hands == Game(players=2, seed=seed).rounds[0].hands
    assert web.game.rounds[0].hands != Game(players=2, seed=seed - 1).rounds[0].hands
    assert client.post("/api/games", json={"players": 2, "seed": seed}).status_code == 200   # a number, as before
    for bad in ("x", "-1", "1.5", " 7", "", "١٢", "9" * 40):
        assert "seed" in error_of(client.post("/api/games", json={"players": 2, "seed": bad}), 422), bad
    assert "seed must be an integer from 0 to 2^64-1" in error_of(
        client.post("/api/games", json={"players": 2, "seed": str(2 ** 64)}), 400)


def test_the_last_rounds_end_is_in_the_view_again_after_an_undo(client):
    """A review (F9): after undoing one's first move of a round the last round's summary
    was gone (the view's round_end came from the last request's steps only). The view's
    round_end is now the latest ended round's: this round's once over, else the one before."""
    r = client.post("/api/games", json={"players": 2, "seat": 0, "bots": ["level1"], "seed": 19}).json()
    gid, view = r["id"], r["view"]
    assert view["round_end"] is None
    for _ in range(200):
        mine = [a for a in view["history"] if a["seat"] == 0 and "play" in a]
        if view["round"] >= 1 and not mine and view["legal_moves"]:
            break
        view = client.post(f"/api/games/{gid}/moves", json={"move": view["legal_moves"][0]}).json()["view"]
    else:
        pytest.fail("no round began with the person to play")
    ended = view["round_end"]
    assert ended is not None and ended["round"] == view["round"] - 1
    assert ended["scores"] == view["scores_before"]
    moved = client.post(f"/api/games/{gid}/moves", json={"move": view["legal_moves"][0]}).json()["view"]
    # (seed 19 is dealt the same every run: a first move that ended the round would be a
    # changed deal, and the undo below would test nothing)
    assert moved["round"] == view["round"], "seed 19's first move of the round ended it"
    back = client.post(f"/api/games/{gid}/undo").json()["view"]
    assert back["round"] == view["round"] and back["round_end"] == ended
    assert client.get(f"/api/games/{gid}").json()["view"]["round_end"] == ended


def test_an_undo_asked_on_a_position_the_game_has_left_is_refused(client):
    """The move check's twin (left out when moves got it): a stale tab's Undo took back the
    move another tab had just made, which its person never saw. An undo may name the
    position it was asked on, and a position the game has left is a 409; without a body
    the undo is made as before."""
    r = client.post("/api/games", json={"players": 2, "seat": 0, "bots": ["level1"], "seed": 23}).json()
    gid, first = r["id"], r["view"]
    moved = client.post(f"/api/games/{gid}/moves", json={"move": first["legal_moves"][0], **_key(first)})
    assert moved.status_code == 200, moved.text
    now = moved.json()["view"]
    message = error_of(client.post(f"/api/games/{gid}/undo", json=_key(first)), 409)
    assert message.startswith("the game has moved on (in another tab?): the undo was asked at round "
                              f"{first['round']} action {len(first['history'])}")
    assert client.get(f"/api/games/{gid}").json()["view"]["history"] == now["history"]     # nothing taken back
    assert "go together" in error_of(client.post(f"/api/games/{gid}/undo", json={"round": now["round"]}), 400)
    undone = client.post(f"/api/games/{gid}/undo", json=_key(now))
    assert undone.status_code == 200, undone.text
    assert len(undone.json()["view"]["history"]) < len(now["history"])
    again = client.post(f"/api/games/{gid}/moves", json={"move": first["legal_moves"][0], **_key(first)})
    assert again.status_code == 200, again.text
    assert client.post(f"/api/games/{gid}/undo").status_code == 200        # no body: as before


# a 4-player round of 17 placements (self-play game 16, round 6 of a review): its lines bend
# sooner in the narrow layout
LONG_ROUND = ("4-6 6-6@4-6:high 0-6@6-6:lineB 4-4@4-6:low 3-4@4-4:lineB 1-4@4-4:branchA 5-6@6-6:branchB "
              "1-1@1-4:low 1-6@1-1:lineB 3-6@1-6:high 0-5@5-6:low 0-0@0-5:low 1-2@1-1:branchA 2-3@3-4:low "
              "0-3@0-6:low 2-5@2-3:low 2-2@1-2:high").split()


def _box(svg: str) -> list:
    return [float(v) for v in re.search(r'viewBox="([^"]*)"', svg).group(1).split()]


def test_boards_come_in_a_narrow_layout_for_a_phone(client):
    """A review (F4): boards laid out for a wide screen shrank on a phone. ``layout: narrow``
    (the page sends it on a narrow screen) bends the lines sooner: the long round's board fits
    a phone's 358 x 640 px at least 1.3 times the wide layout's size. The default and
    a game's boards stay wide unless asked; a game asked narrow keeps it until asked again."""
    from fiveup_solver.svg import NARROW_BOUNDS, board_svg
    wide = client.post("/api/board", json={"placements": LONG_ROUND}).json()["svg"]
    narrow = client.post("/api/board", json={"placements": LONG_ROUND, "layout": "narrow"}).json()["svg"]
    (_, _, ww, wh), (_, _, nw, nh) = _box(wide), _box(narrow)
    assert min(358 / nw, 640 / nh) >= 1.3 * min(358 / ww, 640 / wh), (ww, wh, nw, nh)
    assert narrow == board_svg(LONG_ROUND, size=serve.BOARD_SIZE, bounds=NARROW_BOUNDS)
    r = client.post("/api/board", json={"placements": LONG_ROUND, "layout": "tall"})
    assert r.status_code == 422 and r.json()["error"] == "layout: Input should be 'wide' or 'narrow'"
    # a game: narrow from its start, wide after a GET that asks, narrow again with a move that asks
    g = client.post("/api/games", json={"players": 2, "seed": 19, "layout": "narrow"}).json()
    gid, view = g["id"], g["view"]
    web = client.app.state.fiveup.games[gid]
    assert web.bounds == NARROW_BOUNDS
    assert client.get(f"/api/games/{gid}?layout=wide").status_code == 200 and web.bounds != NARROW_BOUNDS
    move = {"move": view["legal_moves"][0], "round": view["round"], "action": len(view["history"]), "layout": "narrow"}
    assert client.post(f"/api/games/{gid}/moves", json=move).status_code == 200 and web.bounds == NARROW_BOUNDS
    assert client.get(f"/api/games/{gid}?layout=square").status_code == 422


def test_a_web_game_s_bots_search_beside_other_games():
    """A review: a web game's bot replies searched on the package's one default Hinter, so
    the games of a server took turns for it whatever its workers. Each advance() now
    searches on a Hinter of its own: the bots reply while the default is busy."""
    from fiveup_solver import hint as hints
    seed = next(s for s in range(50) if Game(players=2, seed=s).to_move == 1)
    web = serve.WebGame(2, ["level6", "level6"], 0, seed)
    assert web.game.to_move == 1 and not web.game.current.moves       # the bot opens: advance() has work
    with hints._default_hinter()._lock:          # the default busy with another game's decision
        t = threading.Thread(target=web.advance)
        t.start()
        t.join(60)
        assert not t.is_alive()
    assert web.game.current.moves and web.game.current.moves[0][0] == 1


def test_validation_errors_name_the_request_s_fields(client):
    """A review (F11): pydantic's internals showed in the errors ("seed.int: ...", "Value
    error, ..."), and a JSON body sent as a form (curl -d without -H) was told "a JSON object
    is required" although it was one."""
    assert error_of(client.post("/api/games", json={"players": 2, "seed": 1.5}), 422) == (
        "seed: Input should be a valid integer")
    assert error_of(client.post("/api/games", json={"players": 2, "seed": "-1"}), 422).startswith(
        "seed: a seed given as a string must be decimal digits")
    assert error_of(client.post("/api/games", content='{"players": 2}',
                                headers={"content-type": "application/x-www-form-urlencoded"}), 422) == (
        "body: a JSON object is required, sent as Content-Type: application/json (this request's is "
        "'application/x-www-form-urlencoded'; curl -d needs -H 'Content-Type: application/json')")
    assert error_of(client.post("/api/games", json=[1]), 422) == "body: a JSON object is required"
    # /api/equity's errors name its query's fields, not the command line's flags
    assert error_of(client.get("/api/equity?players=5&scores=0,0"), 400) == "players must be 2, 3 or 4, not 5"
    assert error_of(client.get("/api/equity?players=2"), 400) == "scores A,B[,C] is required"


# --------------------------------------------------------------------------- review 3: the play app
def test_an_empty_or_unknown_web_bot_is_said_in_the_web_s_words(client):
    """A review (F1): a blank bot name (the set-up's select left empty) was refused with the
    library's list ending "your own MODULE:FUNCTION", which a web game refuses. The web's
    words name the seat the entry was for and where the bots are listed."""
    def refused(bots, players=2, seat=0):
        err = error_of(client.post("/api/games", json={"players": players, "seat": seat, "bots": bots}), 400)
        assert "MODULE" not in err, err
        return err
    assert refused(["level1", ""], players=3) == \
        "bots: seat 2 has no bot (an empty name); GET /api/bots lists the server's bots"
    assert refused([""], seat=1).startswith("bots: seat 0 has no bot")
    assert refused(["grandmaster"], players=4, seat=1) == (
        "unknown bot 'grandmaster' for seat 0: a web game takes a bot GET /api/bots lists (level1..level8, "
        "greedy, hint, ...) or a hint bot with a budget, METHOD[-X]:SAMPLES:NODES or METHOD[-X]@MSms, within "
        "level8's budget (48 worlds of 20,000 nodes, 250 ms)")
    assert refused(["level1", "level2", "Level3"], players=4, seat=1).startswith("unknown bot 'Level3' for seat 3:")
    # a budget name with a number out of range keeps the library's words
    assert "SAMPLES and NODES must each be at least 1" in refused(["hint:0:5"])


def test_a_round_or_action_that_is_no_position_is_a_400_naming_it(client):
    """A review (F7): a move's round -1 or action 10**20 was answered 409 "the game has moved
    on (in another tab?)"; a position no view can have named is a 400 naming its field. A
    stale position is a 409 still."""
    r = client.post("/api/games", json={"players": 2, "seat": 0, "bots": ["level1"], "seed": 19}).json()
    gid, view = r["id"], r["view"]
    move = view["legal_moves"][0]
    here = {"round": view["round"], "action": len(view["history"])}
    for position, start in (({"round": -1}, "round must be 0 or more"), ({"action": -5}, "action must be 0 or more"),
                            ({"round": 10 ** 20}, "round 100000000..."), ({"round": 1}, "round 1 is not a round of"),
                            ({"action": 10 ** 20}, "action 100000000... is not an action of a round"),
                            ({"action": 188}, "action 188 is not an action of a round")):
        for path, body in ((f"/api/games/{gid}/moves", {"move": move}), (f"/api/games/{gid}/undo", {})):
            err = error_of(client.post(path, json={**body, **here, **position}), 400)
            assert err.startswith(start), err
    # 28 placements, 18 draws, at most 3 passes in a row between them: 187 actions at most
    assert serve.MAX_ROUND_ACTIONS == 187
    assert client.post(f"/api/games/{gid}/undo", json={**here, "action": 187}).status_code == 409
    stale = error_of(client.post(f"/api/games/{gid}/moves", json={"move": move, **here, "action": here["action"] + 1}),
                     409)
    assert stale.startswith("the game has moved on")
    assert client.post(f"/api/games/{gid}/moves", json={"move": move, **here}).status_code == 200


def test_a_move_is_read_as_fiveup_play_reads_a_typed_one(client):
    """A review (F7): the API took strict record notation only, where `fiveup play` takes a
    tile alone with one legal placement and a port's name in any case; a tile not in the hand
    was "not legal here". The API reads a move with fiveup play's own parser now
    (Game.parse_move, as fiveup play), its refusals in the API's words."""
    r = client.post("/api/games", json={"players": 2, "seat": 0, "bots": ["level1"], "seed": 19}).json()
    gid, view = r["id"], r["view"]
    seen = set()
    for _ in range(60):
        if view["game_over"] or seen >= {"alone", "case", "two"}:
            break
        legal = view["legal_moves"]
        places = {}
        for m in legal:
            places.setdefault(m.partition("@")[0], []).append(m)
        lone = next((ms[0] for ms in places.values() if len(ms) == 1 and "@" in ms[0]), None)
        twice = next((ms for ms in places.values() if len({m.split("@")[1].split(":")[0] for m in ms}) > 1), None)
        if twice and "two" not in seen:
            tile = twice[0].partition("@")[0]
            err = error_of(client.post(f"/api/games/{gid}/moves", json={"move": tile}), 400)
            assert err.startswith(f"{tile} is not legal here; {tile} goes "), err
            seen.add("two")
        outside = next(f"{a}-{b}" for a in range(7) for b in range(a, 7) if f"{a}-{b}" not in view["hand"])
        assert error_of(client.post(f"/api/games/{gid}/moves", json={"move": f"{outside}@{legal[0].split('@')[-1]}"}),
                        400) == f"{outside} is not in your hand"
        if lone and "alone" not in seen:
            text, seen_as, want = lone.partition("@")[0], "alone", lone            # 1-5 for 1-5@0-1:high
        elif "@" in legal[0] and "case" not in seen:
            head, _, port = legal[0].rpartition(":")
            text, seen_as, want = f"{head}:{port.upper()}", "case", legal[0]      # 1-5@0-1:HIGH
        else:
            text, seen_as, want = legal[0], None, legal[0]
        answer = client.post(f"/api/games/{gid}/moves", json={"move": text})
        assert answer.status_code == 200, (text, answer.text)
        played = client.get(f"/api/games/{gid}/record").json()
        mine = [a for rnd in played["rounds"] for a in rnd["actions"] if a["seat"] == 0 and "play" in a]
        assert f"{mine[-1]['play']}@{mine[-1]['at']}" == want, (text, mine[-1])
        if seen_as:
            seen.add(seen_as)
        view = answer.json()["view"]
    assert seen == {"alone", "case", "two"}
    # what is no move keeps the notation's own words; an illegal draw lists the legal moves
    assert error_of(client.post(f"/api/games/{gid}/moves", json={"move": "9-9"}), 400).startswith("bad tile '9-9'")
    err = error_of(client.post(f"/api/games/{gid}/moves", json={"move": "draw"}), 400)
    assert err.startswith("draw is not legal here: legal are "), err


def test_a_blocked_rounds_credits_come_with_their_parts():
    """A review (F5): a blocked round's summary gave "+25 raw for your side", not whose hand
    it was nor how it was counted. ``round_end["block"]`` gives each seat's part of RULES §6.5,
    checked here on cases worked by hand and against the engine's own block events."""
    # worked by hand: 4 players, hands 42/21/13/32 pips (the review's seed 7 below). Seat 2 is
    # lightest; its opponents 1 and 3 hold 21 - 13 = 8 and 32 - 13 = 19 more: 27, rounded to 25.
    # Seat 1 (21): seat 0's 42 - 21 = 21 (seat 2's 13 is lighter), rounded to 20. Seat 3 (32):
    # seat 0's 42 - 32 = 10. Seat 0 (42): nobody heavier
    hand_worked = [{"seat": 2, "pips": 13, "above": [[1, 21], [3, 32]], "total": 27, "credit": 25},
                   {"seat": 1, "pips": 21, "above": [[0, 42]], "total": 21, "credit": 20},
                   {"seat": 3, "pips": 32, "above": [[0, 42]], "total": 10, "credit": 10},
                   {"seat": 0, "pips": 42, "above": [], "total": 0, "credit": 0}]
    assert block_parts([42, 21, 13, 32], 0) == hand_worked
    # 3 players, seats 0 and 2 tied at 10, seat 2 started: the tie is ordered clockwise from the
    # starter (D5), seat 2 first; each has seat 1's 20 - 10 = 10; seat 1 nobody
    assert [(p["seat"], p["above"], p["credit"]) for p in block_parts([10, 20, 10], 2)] == \
        [(2, [[1, 20]], 10), (0, [[1, 20]], 10), (1, [], 0)]
    # rounding once to the nearest 5 (RULES §6.4): 2 down to 0, 3 up to 5, 28 up to 30
    assert [p["credit"] for p in block_parts([11, 13], 0)] == [0, 0]
    assert [p["credit"] for p in block_parts([10, 13], 0)] == [5, 0]
    assert [p["credit"] for p in block_parts([2, 30], 1)] == [30, 0]
    # the review's round: seed 7, 4 players, the first legal move against level1, round 3
    web = serve.WebGame(4, serve.bots_for_seats(4, 0, ["level1"]), 0, 7)
    web.advance()
    for _ in range(19):
        web.play(web.view()["legal_moves"][0])
    end = web.view()["round_end"]
    assert end["round"] == 3 and end["end"]["end"] == "blocked" and end["block"] == hand_worked
    assert [(e["seat"], e["raw"]) for e in end["events"] if e["kind"] == "block"] == [(2, 25), (1, 20), (3, 10)]
    assert end["domino"] is None
    # every blocked round of some self-play: the engine's block events are the non-zero credits
    # in this order (a prefix of them when one ends the game)
    import random
    blocked = {2: 0, 3: 0, 4: 0}
    for players in (2, 3, 4):
        for seed in range(20):
            g = Game(players=players, seed=seed)
            rng = random.Random(seed)
            while not g.game_over and len(g.rounds) <= 20:
                if g.round_over:
                    g.next_round()
                g.push(rng.choice(g.legal_moves))
                if g.round_over and g.current.end()["end"] == "blocked":
                    parts = g.current.block_parts()
                    hands = [[str(t) for t in g.hand(s)] for s in range(players)]
                    # the engine's events, the core's parts and the tests' own reference agree
                    assert [(p["seat"], p["credit"]) for p in parts] == \
                        reference.block_credits(players, hands, g.current.starter)
                    assert parts == block_parts([sum(t.pips for t in g.hand(s)) for s in range(players)],
                                                g.current.starter)
                    events = [(e.seat, e.raw) for e in g.current.events[-1] if e.kind == "block"]
                    credits = [(p["seat"], p["credit"]) for p in parts if p["credit"]]
                    assert events == credits[:len(events)] and (events == credits or g.game_over)
                    blocked[players] += 1
    assert min(blocked.values()) >= 2, blocked
    # a round that did not end blocked has no block parts; the core refuses a round not blocked
    g = Game(players=2, seed=1)
    assert g.current.block_parts() is None
    with pytest.raises(ValueError, match="the round is not blocked"):
        g.current.core.block_parts()
    # bad pips or starter: one line naming what is wrong
    for pips, starter, what in (([10], 0, "pips must be a list of 2 to 4"), ([10, -1], 0, "seat 1's pips"),
                                ([10, 20], 2, "starter must be a seat 0..1"), ("10,20", 0, "pips must be"),
                                ([10, 20.5], 0, "seat 1's pips"), ([10, 20], True, "starter")):
        with pytest.raises(ValueError, match=what):
            block_parts(pips, starter)
