"""``fiveup serve`` after a security review (docs/serve.md, "Putting it on a network"):
one bounded queue for every request that waits for a search worker, a web game's bots
within the strongest level's budget, recent games and analyses never dropped to make
room, large bodies checked off the event loop, the uvicorn settings ``fiveup serve``
builds (a bound on connections, no WebSocket), ``--allow-host``, ``--access-log``,
``HEAD``, and the Content-Security-Policy.

No test here times anything: a blocked worker, a slow check or a full cap is held by an
event or set by hand, and every wait has a deadline only so that a broken server fails
the test instead of hanging it."""
import json
import random
import re
import subprocess
import sys
import threading
import time
import http.client

import pytest

pytest.importorskip("fastapi", reason="the serve extra is part of the test extra")
from fastapi.testclient import TestClient  # noqa: E402

from fiveup_solver import Game  # noqa: E402
from fiveup_solver import serve  # noqa: E402
from fiveup_solver.bots import choose  # noqa: E402
from fiveup_solver.cli import main  # noqa: E402

BASE = "http://127.0.0.1:8061"
HANG = 60            # seconds: a guard against a hang, never a measurement


def fresh_client(workers=None):
    return TestClient(serve.create_app(workers=workers), base_url=BASE, raise_server_exceptions=False)


def error_of(r, status):
    assert r.status_code == status, (r.status_code, r.text[:300])
    body = r.json()
    assert set(body) == {"error"} and "\n" not in body["error"]
    return body["error"]


def played(seed=5, players=2):
    """A record of one round of greedy bots."""
    g = Game(players=players, seed=seed)
    rng = random.Random(seed)
    while not g.round_over:
        g.push(choose("greedy", g.observation(g.to_move), rng))
    return g.to_record()


def until(predicate, what):
    """Wait for predicate() (a guard: fails after HANG seconds instead of hanging)."""
    deadline = time.monotonic() + HANG
    while not predicate():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.01)


class Call(threading.Thread):
    """A request in a thread of its own: a request that should not wait, guarded."""

    def __init__(self, fn, *args, **kwargs):
        super().__init__(daemon=True)
        self.fn, self.args, self.kwargs = fn, args, kwargs
        self.answer = self.error = None
        self.start()

    def run(self):
        try:
            self.answer = self.fn(*self.args, **self.kwargs)
        except BaseException as e:      # (said by result())
            self.error = e

    def result(self, what="the request"):
        self.join(HANG)
        assert not self.is_alive(), f"{what} did not answer"
        if self.error is not None:
            raise self.error
        return self.answer


# --------------------------------------------------------------------------- finding 1: the pool's queue
def test_every_request_that_waits_for_a_worker_counts_against_one_bound(monkeypatch):
    """Only hints and solves were counted: new games, moves, undos, boards, positions and an
    analysis's replay queued for the workers without a bound, each holding its parsed body (a
    review: 40 waiting /api/position requests of 1 MB took RSS from 65 MB to 1.1 GB). Now the
    one worker is held (an event), two positions wait for it, and every other request that
    needs a worker is a 429 at once, before its body is parsed (malformed JSON and a repeated
    key get the 429 too); the two answer once the worker is free, and the count goes back."""
    monkeypatch.setattr(serve, "MAX_WAITING_SEARCHES", 2)
    record = played()
    position = {"record": record, "round": 0, "action": 3}
    release = threading.Event()
    with fresh_client(workers=1) as c:
        state = c.app.state.fiveup
        game = c.post("/api/games", json={"players": 2, "seat": 0, "bots": ["level1"], "seed": 3}).json()
        gid, view = game["id"], game["view"]
        here = {"round": view["round"], "action": len(view["history"])}
        held = state.pool.submit(release.wait, HANG)             # the one worker, busy
        waiting = []
        try:
            waiting = [Call(c.post, "/api/position", json=position) for _ in range(2)]
            until(lambda: state.searches == 2, "two positions waiting for the worker are counted")
            refused = {
                "hint": lambda: c.post("/api/hint", json={"record": record, "seat": 0, "samples": 2}),
                "solve": lambda: c.post("/api/solve", json={"record": record, "round": 0, "action": 0}),
                "new game": lambda: c.post("/api/games", json={"players": 2, "seat": 0, "bots": ["level1"]}),
                "move": lambda: c.post(f"/api/games/{gid}/moves", json={"move": view["legal_moves"][0], **here}),
                "undo": lambda: c.post(f"/api/games/{gid}/undo", json=here),
                "board": lambda: c.post(f"/api/games/{gid}/board", json=here),
                "position": lambda: c.post("/api/position", json=position),
                "analysis": lambda: c.post("/api/analyses", json={"record": record, "samples": 2}),
                "malformed body": lambda: c.post("/api/position", content=b'{"record": [1,',
                                                 headers={"content-type": "application/json"}),
                "repeated key": lambda: c.post("/api/position", content=b'{"round": 0, "round": 1}',
                                               headers={"content-type": "application/json"}),
            }
            for what, ask in refused.items():
                answer = Call(ask).result(what)
                err = error_of(answer, 429)
                assert err.startswith("busy, try again shortly: 2 searches are running or waiting"), (what, err)
                # when to come back: a busy pool frees within seconds
                assert answer.headers["retry-after"] == str(serve.RETRY_AFTER_SECONDS) == "2", what
            # a game's view whose bots' replies are still to make needs a worker too
            with monkeypatch.context() as m:
                m.setattr(serve.WebGame, "bots_to_move", property(lambda self: True))
                assert "busy, try again shortly" in error_of(Call(c.get, f"/api/games/{gid}").result(), 429)
            # what needs no worker answers meanwhile
            assert Call(c.get, "/api/health").result().status_code == 200
            assert Call(c.get, f"/api/games/{gid}").result().status_code == 200
            assert Call(c.get, f"/api/games/{gid}/record").result().status_code == 200
        finally:
            release.set()
        held.result(HANG)
        for call in waiting:
            r = call.result("a waiting position")
            assert r.status_code == 200 and r.json()["round"] == 0, r.text[:200]
        assert state.searches == 0
        assert c.post("/api/position", json=position).status_code == 200


def test_a_web_games_bot_searches_at_most_as_much_as_the_strongest_level():
    """A bot named with a budget was allowed a hint's (hint:1024:1000000: 59 s of a worker at
    one game's start, a review measured); now at most level8's, 48 worlds of 20,000 nodes
    (alphamu: the hint-alphamu bot's 2,000 nodes a leaf and depth 1; a time budget 250 ms), and
    the refusal names the limit. The levels and the bots /api/bots lists stay."""
    with fresh_client() as c:
        def start(bot):
            return c.post("/api/games", json={"players": 2, "seat": 1, "bots": [bot], "seed": 6})
        for bot, limit in (("hint:49:1", "samples must be 1..48 (a web game's bot searches at most as much as "
                                         "level8, 48 worlds of 20,000 nodes), not 49"),
                           ("hint-win:2:20001", "world nodes must be 1..20,000"),
                           ("hint-alphamu:2:2001", "world nodes must be 1..2,000 (alphamu's are per leaf"),
                           ("hint-alphamu-d2:2:10", "depth must be 0..1"),
                           ("hint@251ms", "time_ms must be 1..250")):
            err = error_of(start(bot), 400)
            assert err.startswith(f"bot {bot}: {limit}"), err
        for bot in ("level8", "hint", "hint:48:20000", "hint-alphamu-d1:2:50", "hint@20ms"):
            assert start(bot).status_code == 200, bot
    assert (serve.WEB_BOT_LEVEL.name, serve.WEB_BOT_MAX_SAMPLES, serve.WEB_BOT_MAX_WORLD_NODES) == \
        ("level8", 48, 20_000)


# --------------------------------------------------------------------------- finding 2: caps without eviction
def test_a_new_game_past_the_cap_never_drops_a_game_touched_in_the_last_10_minutes(monkeypatch):
    """A new game past the cap dropped the game untouched longest, whoever's, touched seconds
    before (a review: one client's 64 games in 0.3 s ended another's game in progress). Now
    it is refused with 429; a game untouched for KEEP_RECENT_SECONDS (10 min) or more is
    dropped to make room, the oldest first."""
    monkeypatch.setattr(serve, "MAX_GAMES", 2)
    new = {"players": 2, "seat": 0, "bots": ["level1"]}
    with fresh_client() as c:
        state = c.app.state.fiveup
        first, second = (c.post("/api/games", json=new).json()["id"] for _ in range(2))
        answer = c.post("/api/games", json=new)
        err = error_of(answer, 429)
        assert err == "busy, try again later: 2 games are held, each touched within 10 min", err
        # the game untouched longest may be dropped 10 min after its touch: about 600 s from now
        assert 500 < int(answer.headers["retry-after"]) <= 600, answer.headers
        assert c.get(f"/api/games/{first}").status_code == 200 and c.get(f"/api/games/{second}").status_code == 200
        assert serve.KEEP_RECENT_SECONDS == 600
        state.games[first].touched -= serve.KEEP_RECENT_SECONDS     # untouched for 10 min
        third = c.post("/api/games", json=new)
        assert third.status_code == 200, third.text[:200]
        assert c.get(f"/api/games/{first}").status_code == 404
        assert c.get(f"/api/games/{second}").status_code == 200
        assert error_of(c.post("/api/games", json=new), 429).startswith("busy")


def test_a_new_analysis_never_drops_one_finished_in_the_last_10_minutes(monkeypatch):
    """A new analysis past the cap dropped the oldest finished one, finished a moment before
    (a review: 16 large analyses dropped the 16 results other users had not read). Now it is
    refused with 429 until a finished one is 10 min old; that one is dropped then."""
    monkeypatch.setattr(serve, "MAX_ANALYSES", 1)
    quick = {"record": played(), "samples": 2, "luck_samples": 1, "dd_nodes": 0}
    with fresh_client() as c:
        state = c.app.state.fiveup
        a = c.post("/api/analyses", json=quick).json()["id"]
        until(lambda: c.get(f"/api/analyses/{a}").json()["status"] == "done", "the analysis finishes")
        answer = c.post("/api/analyses", json=quick)
        err = error_of(answer, 429)
        assert err == "1 analyses are queued, running or finished within 10 min: try again later", err
        assert 500 < int(answer.headers["retry-after"]) <= 600, answer.headers
        assert c.get(f"/api/analyses/{a}").json()["status"] == "done"
        state.analyses[a].finished_at -= serve.KEEP_RECENT_SECONDS  # finished 10 min ago
        b = c.post("/api/analyses", json=quick)
        assert b.status_code == 200, b.text[:200]
        assert c.get(f"/api/analyses/{a}").status_code == 404
        until(lambda: c.get(f"/api/analyses/{b.json()['id']}").json()["status"] == "done", "the second finishes")


# --------------------------------------------------------------------------- finding 3: big bodies off the loop
def test_health_answers_while_a_large_body_is_checked_for_repeated_keys(monkeypatch):
    """The repeated-key check (a full JSON parse) ran on the event loop: 1 MB of {} held it
    0.2 s and eight clients kept /api/health waiting a second. A body over LOOP_BODY_BYTES is
    checked on a thread now: with the check held (an event), /api/health answers."""
    real = serve.repeated_key_fault
    started, release = threading.Event(), threading.Event()
    where = {}

    def slow_check(body):
        if len(body) >= 100_000:                # (the large body below; LOOP_BODY_BYTES is 64 kB)
            where["thread"] = threading.current_thread().name
            started.set()
            release.wait(HANG)
        return real(body)
    monkeypatch.setattr(serve, "repeated_key_fault", slow_check)
    big = b'{"record": {"pad": "' + b"x" * 100_000 + b'"}, "x": 1, "x": 2}'       # a repeated key
    with fresh_client() as c:
        posted = Call(c.post, "/api/records/check", content=big, headers={"content-type": "application/json"})
        try:
            assert started.wait(HANG), "the check never began"
            health = Call(c.get, "/api/health")
            health.join(HANG)
            answered_while_held = not health.is_alive() and not release.is_set()
        finally:
            release.set()
        assert answered_while_held, "/api/health waited for the check of a large body"
        assert health.result().status_code == 200
        err = error_of(posted.result(), 400)
        assert err == "malformed JSON: key 'x' written twice (JSON readers differ on which counts)", err
        assert where["thread"].startswith("fiveup-light"), where
        # a small body is checked at once, with the same answer
        small = b'{"record": {}, "x": 1, "x": 2}'
        assert error_of(c.post("/api/records/check", content=small, headers={"content-type": "application/json"}),
                        400) == err
    assert serve.LOOP_BODY_BYTES < len(big)


# --------------------------------------------------------------------------- findings 4, 5, 8: fiveup serve
@pytest.fixture
def served(monkeypatch):
    """run() as `fiveup serve` calls it, with uvicorn's Server replaced: the Config it builds."""
    import uvicorn
    seen = {}

    class Server:
        def __init__(self, config):
            seen["config"] = config

        def run(self, sockets=None):
            seen["sockets"] = sockets
    monkeypatch.setattr(uvicorn, "Server", Server)
    return seen


def test_serve_bounds_connections_and_takes_no_websockets(served, capsys):
    """uvicorn.Config had no limit_concurrency (idle connections are never timed out: a few
    thousand exhausted the descriptors) and its WebSocket support on; no access log unless
    asked."""
    assert main(["serve", "--port", "0"]) == 0
    config = served["config"]
    assert config.limit_concurrency == 256 and config.ws == "none"
    assert config.access_log is False and config.server_header is False
    assert serve.MAX_CONNECTIONS == 256
    assert capsys.readouterr().out.startswith("fiveup serve: http://127.0.0.1:")


def test_allow_host_adds_names_to_the_host_check(served, capsys):
    """A reverse proxy forwarding Host: fiveup.example.org got 400, and no option could allow
    the name while binding 127.0.0.1 (--host NAME binds NAME's address)."""
    assert main(["serve", "--port", "0", "--allow-host", "fiveup.example.org", "--allow-host", "MyBox.Local",
                 "--allow-host", "::2", "--access-log"]) == 0
    config = served["config"]
    assert config.access_log is True
    c = TestClient(config.app, raise_server_exceptions=False)
    for host, status in (("fiveup.example.org", 200), ("FIVEUP.example.org:443", 200), ("mybox.local:8061", 200),
                         ("[::2]:8061", 200), ("127.0.0.1:8061", 200), ("localhost", 200),
                         ("evil.example", 400), ("example.org", 400), ("[::3]", 400)):
        assert c.get("/api/health", headers={"host": host}).status_code == status, host


@pytest.mark.parametrize("name, why", [
    ("fiveup.example.org:443", "without a port"),
    ("https://fiveup.example.org", "no scheme or path"),
    ("*.example.org", "no wildcards"),
    ("a..b", "dot-separated labels of 1 to 63"),
    ("bad name", "dot-separated labels of 1 to 63"),
    ("", "not ''"),
])
def test_a_bad_allow_host_is_a_one_line_error(name, why, capsys):
    assert main(["serve", "--port", "0", "--allow-host", name]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1, captured.err
    assert captured.err.startswith("error: --allow-host takes a host name or address") and why in captured.err


def test_a_real_server_logs_each_request_and_answers_head(tmp_path):
    """--access-log: uvicorn's line for each request on standard error (off by default);
    HEAD as GET without the body; a WebSocket upgrade asked adds no warning lines."""
    err_path = tmp_path / "stderr.txt"
    with open(err_path, "w") as err:
        proc = subprocess.Popen([sys.executable, "-m", "fiveup_solver.cli", "serve", "--port", "0", "--access-log",
                                 "--allow-host", "fiveup.example.org"],
                                stdout=subprocess.PIPE, stderr=err, text=True)
    try:
        line = proc.stdout.readline()
        m = re.fullmatch(r"fiveup serve: http://127\.0\.0\.1:(\d+)/ \(Ctrl-C stops\)\n", line)
        assert m, line
        port = int(m.group(1))

        def ask(method, path, headers=()):
            deadline = time.monotonic() + HANG
            while True:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG)
                try:
                    conn.request(method, path, headers=dict(headers))
                    r = conn.getresponse()
                    return r.status, dict(r.getheaders()), r.read()
                except ConnectionRefusedError:
                    assert time.monotonic() < deadline, "the server never answered"
                    time.sleep(0.05)
                finally:
                    conn.close()
        status, _, body = ask("GET", "/api/health")
        assert status == 200 and json.loads(body)["status"] == "ok"
        for path in ("/", "/api/health", "/static/style.css"):
            got, got_headers, got_body = ask("GET", path)
            status, headers, body = ask("HEAD", path)
            assert (status, body) == (200, b""), (path, status, body[:80])
            assert headers["content-type"] == got_headers["content-type"], path
            assert int(headers["content-length"]) == len(got_body), path
        assert ask("GET", "/api/health", {"Host": "fiveup.example.org"})[0] == 200
        assert ask("GET", "/api/health", {"Connection": "Upgrade", "Upgrade": "websocket",
                                          "Sec-WebSocket-Version": "13",
                                          "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})[0] == 200
    finally:
        proc.terminate()
        proc.wait(timeout=HANG)
    log = err_path.read_text()
    assert '"GET /api/health HTTP/1.1" 200' in log and '"HEAD / HTTP/1.1" 200' in log, log[-2000:]
    assert "WebSocket" not in log and "upgrade" not in log.lower(), log[-2000:]


# --------------------------------------------------------------------------- findings 9, 10: HEAD, CSP
@pytest.mark.parametrize("path", ["/", "/analysis", "/static/style.css", "/static/play.js", "/api/health"])
def test_head_answers_as_get_without_the_body(path):
    """HEAD got 405 everywhere: a proxy's or an uptime monitor's check saw the server down."""
    with fresh_client() as c:
        got, head = c.get(path), c.head(path)
        assert got.status_code == head.status_code == 200, (path, head.status_code, head.text[:100])
        assert head.content == b"" and head.headers["content-type"] == got.headers["content-type"]
        assert head.headers["content-security-policy"] == got.headers["content-security-policy"]
    assert set(c.app.openapi()["paths"]["/api/health"]) == {"get"}              # one operation in the schema


def test_the_content_security_policy_names_base_uri_and_form_action():
    with fresh_client() as c:
        for r in (c.get("/"), c.get("/api/health"), c.get("/api/nothing"), c.get("/", headers={"host": "evil"})):
            policy = r.headers["content-security-policy"]
            assert "base-uri 'none'" in policy and "form-action 'self'" in policy, policy
            assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy


# --------------------------------------------------------------------------- finding 6: the docs
def test_the_docs_say_how_to_put_it_on_a_network():
    from pathlib import Path
    docs = Path(__file__).resolve().parents[1] / "docs"
    text = (docs / "serve.md").read_text()
    assert "## Putting it on a network" in text
    section = text.split("## Putting it on a network", 1)[1].split("\n## ", 1)[0]
    for words in ("--allow-host", "--access-log", "client_header_timeout", "limit_req", "bearer token",
                  "no TLS", "shared by every client", "forced"):
        assert words in section, words
    assert "200 kB" not in text and "about 1 kB a round" in text
    assert "10 minutes" in text.split("## Limits", 1)[1]
    assert "[--allow-host NAME]... [--access-log]" in (docs / "cli.md").read_text()
