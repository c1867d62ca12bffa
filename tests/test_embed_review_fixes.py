"""An embedder's review (a long-running service that holds hints, bots and solves):

- F1: ``method="exact"`` against best defence ignored ``Hinter.stop()`` and Ctrl-C while it
  sorted and reduced large fronts (minutes with a large node limit), and a Ctrl-C seen
  by the search could be lost to a later pass of the node limit;
- F5: a process forked while another thread searched on the module's default Hinter
  inherited its lock held, and its first ``hint()`` waited for ever;
- F9: a Hinter, Solver or DealSampler given to pickle raised Cython's own TypeError.
"""
from __future__ import annotations

import os
import pickle
import random
import sys
import threading
import time

import pytest

from fiveup_solver import Game, SearchStopped
from fiveup_solver import hint as hint_module
from fiveup_solver.errors import OptionError


def _late_positions(count=8):
    """Late 2-player positions (4 tiles or fewer in hand, a placement to choose), as the
    review drew them: their best-defence fronts grow to millions of vectors."""
    late, r = [], random.Random(5)
    while len(late) < count:
        g = Game(players=2, seed=r.getrandbits(32))
        while not g.round_over:
            lm = g.legal_moves
            if len(g.observation(g.to_move).hand) <= 4 and len(lm) >= 2 and g.current.core.turn_kind() == "place":
                late.append(g.copy())
                break
            g.push(r.choice(lm))
    return late


def _searching(hinter):
    for _ in range(6000):                     # a hang guard, not a timing
        if hinter._jobs and hinter._calls >= 1:
            return True
        time.sleep(0.005)
    return False


# ------------------------------------------------------------------ F1
@pytest.mark.parametrize("position, delay", [(6, 0.2), (7, 0.2), (7, 0.5)])
def test_an_exact_best_defence_hint_stops_while_it_reduces_fronts(position, delay):
    """The review's positions 6 and 7 (with no practical node limit): stopped 0.2 s in, the old
    search ran on for over two minutes inside the fronts' sort and reduction; now it ends
    with SearchStopped, and the Hinter hints again as a fresh one."""
    g = _late_positions()[position]
    obs = g.observation(g.to_move)
    h = hint_module.Hinter(threads=1)
    out = {}

    def run():
        try:
            out["r"] = h.hint(obs, method="exact", opponent="best-defence", both=False, max_worlds=10 ** 9,
                              node_limit=10 ** 12)
        except BaseException as e:      # noqa: BLE001 -- what the call raised is the result here
            out["r"] = e
    t = threading.Thread(target=run, daemon=True)
    t.start()
    assert _searching(h)
    time.sleep(delay)                          # into the search (a placement, not a timing)
    assert h.stop() is True
    t.join(120)                                # a hang guard: the old search ran on for minutes
    assert not t.is_alive(), "the exact search did not stop"
    assert isinstance(out["r"], SearchStopped), out["r"]
    after = h.hint(obs, samples=16, seed=2)
    fresh = hint_module.Hinter(threads=1).hint(obs, samples=16, seed=2)
    assert [(str(m.move), m.value) for m in after.moves] == [(str(m.move), m.value) for m in fresh.moves]


# ------------------------------------------------------------------ F5
@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX's")
def test_a_child_forked_while_the_default_hinter_searches_hints_on_its_own():
    """A thread searching on the module's default Hinter when the process forks: the child
    has the parent's Hinter with its lock held and no thread to release it; its first hint()
    waited for ever. The child makes its own default now."""
    import warnings
    g = Game(players=4, seed=3)
    obs = g.observation(g.to_move)
    small = Game(players=2, seed=1)
    small_obs = small.observation(small.to_move)
    expected = [str(m.move) for m in hint_module.Hinter(threads=1).hint(small_obs, samples=8, seed=1).moves]
    out = {}

    def long_search():
        try:
            out["r"] = hint_module.hint(obs, samples=3000, world_nodes=1_000_000, seed=1)
        except BaseException as e:      # noqa: BLE001 -- stopped below
            out["r"] = e
    t = threading.Thread(target=long_search, daemon=True)
    t.start()
    try:
        assert _searching(hint_module._default_hinter())
        read, write = os.pipe()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)     # (3.12+: fork with threads)
            pid = os.fork()
        if pid == 0:                                                 # the child
            try:
                moves = [str(m.move) for m in hint_module.hint(small_obs, samples=8, seed=1).moves]
                os.write(write, (" ".join(moves) + "\n").encode())
            finally:
                os._exit(0)
        os.close(write)
        for _ in range(6000):                                       # a hang guard, not a timing
            done, _ = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            time.sleep(0.01)
        else:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            pytest.fail("the forked child's hint() did not return")
        answer = os.read(read, 4096).decode().split()
        os.close(read)
        assert answer == expected
    finally:
        hint_module.stop_searches()
        t.join(60)
    assert isinstance(out["r"], SearchStopped)


# ------------------------------------------------------------------ F9
def test_search_objects_refuse_pickling_in_one_line():
    import copy

    from fiveup_solver.inference import DealSampler
    from fiveup_solver.solver import Solver
    g = Game(players=2, seed=1)
    for thing, name in ((hint_module.Hinter(threads=1), "Hinter"), (Solver(), "Solver"),
                        (DealSampler(g.observation(g.to_move)), "DealSampler")):
        for attempt in (pickle.dumps, copy.deepcopy):
            with pytest.raises(OptionError, match=rf"^a {name} cannot be pickled or copied: make one "):
                attempt(thing)


# ------------------------------------------------------------------ F6
def _malloc_in_use():
    """Bytes malloc holds for the program now, over all its arenas (glibc's mallinfo2)."""
    import ctypes

    class MallInfo2(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd",
                                                          "usmblks", "fsmblks", "uordblks", "fordblks",
                                                          "keepcost")]
    libc = ctypes.CDLL(None)
    libc.mallinfo2.restype = MallInfo2
    info = libc.mallinfo2()
    return info.hblkhd + info.uordblks


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallinfo2")
def test_search_tables_are_not_mallocs_memory():
    """A Solver's (and a Hinter's) tables came from malloc, whose arenas kept them resident
    once freed in a process making them in several threads (the review: 590 MB resident
    for 111 MB live; 170 MB with this change, the review's own script, the same run). They
    are mapped for themselves now and unmapped when freed: malloc never holds them."""
    import ctypes
    if not hasattr(ctypes.CDLL(None), "mallinfo2"):
        pytest.skip("a C library without mallinfo2 (glibc 2.33 or later)")
    from fiveup_solver.solver import Solver
    g = Game(players=2, seed=1)
    Solver(tt_mb=1, node_limit=2000).solve(g)             # first allocations
    before = _malloc_in_use()
    solvers = [Solver(tt_mb=16, node_limit=2000) for _ in range(3)]
    hinters = [hint_module.Hinter(threads=2, tt_mb=8) for _ in range(2)]
    held = _malloc_in_use() - before
    assert solvers[0].core.table_bytes == 16 * 2 ** 20
    assert held < 2 * 2 ** 20, held                      # 80 MB of tables, none of it malloc's


# ------------------------------------------------------------------ F2, F4, F8: the web app
def _client():
    pytest.importorskip("fastapi", reason="the serve extra is part of the test extra")
    from fastapi.testclient import TestClient

    from fiveup_solver import serve
    return TestClient(serve.create_app(), base_url="http://127.0.0.1:8061", raise_server_exceptions=False)


def _hint_body():
    g = Game(players=2, seed=1)
    return {"record": g.to_record(), "seat": g.to_move, "samples": 4}


def test_searches_past_the_queue_are_refused_with_429(monkeypatch):
    """Hints waiting for a worker had no cap (200 took 1.7 GB and seconds of the event loop):
    past MAX_WAITING_SEARCHES running or waiting, a hint or a solve is a 429 at once."""
    from fiveup_solver import serve
    with _client() as client:
        assert client.post("/api/hint", json=_hint_body()).status_code == 200
        monkeypatch.setattr(serve, "MAX_WAITING_SEARCHES", 0)
        for url, body in (("/api/hint", _hint_body()),
                          ("/api/solve", {"record": Game(players=2, seed=1).to_record(), "round": 0, "action": 0})):
            r = client.post(url, json=body)
            assert r.status_code == 429, (url, r.text)
            assert "searches are running or waiting" in r.json()["error"]
        assert client.get("/api/health").json()["status"] == "ok"


def test_a_hint_stopped_before_a_worker_takes_it_never_searches(monkeypatch):
    """A hint request's Hinter was made on arrival (8 MB, on the event loop) and a stop
    before its search began did nothing: the Hinter is made as a worker starts the call,
    and a call stopped before that raises SearchStopped without one."""
    from fiveup_solver import serve
    made = []
    real = serve.Hinter
    monkeypatch.setattr(serve, "Hinter", lambda **kw: made.append(kw) or real(**kw))
    body = serve.HintRequest(**_hint_body())
    call = serve._HintCall()
    call.stop()
    with pytest.raises(SearchStopped):
        call.run(body)
    assert made == []
    fresh = serve._HintCall()
    assert fresh.run(body)["best"] and made == [{"threads": 1}] and fresh.searcher is None


def test_the_equity_table_and_a_records_walk_run_off_the_event_loop(monkeypatch):
    """/api/equity (its first call of a player count loads the table: 258 ms of the event
    loop, the review measured) and /api/records/check (a large body's walk) run off the
    event loop, on a thread of their own (in the search pool they waited behind every
    queued hint)."""
    from fiveup_solver import serve
    seen = {}
    real_equity, real_check = serve.equity_result, serve.check_record

    def equity(*args):
        seen["equity"] = threading.current_thread().name
        return real_equity(*args)

    def check(record):
        seen["check"] = threading.current_thread().name
        return real_check(record)
    monkeypatch.setattr(serve, "equity_result", equity)
    monkeypatch.setattr(serve, "check_record", check)
    with _client() as client:
        assert client.get("/api/equity?players=2&scores=0,0").status_code == 200
        assert client.post("/api/records/check", json={"record": Game(players=2, seed=1).to_record()}).status_code == 200
    # off the event loop, and not behind the searches: the one thread of quick work
    assert seen["equity"].startswith("fiveup-light") and seen["check"].startswith("fiveup-light"), seen


def test_a_records_own_keys_are_checked_before_its_values():
    """check_record walked every value (building where each is) before it said a key was
    missing: 1.24 s of a megabyte body, the GIL held."""
    from fiveup_solver.errors import RecordError
    from fiveup_solver.record import check_record
    np = pytest.importorskip("numpy")
    body = {"format": "fiveup-record/1", "x": [{"a": np.int64(1)}] * 1000}
    # the record's own fault first (the old walk said "x[0].a holds numpy.int64 1 ...")
    with pytest.raises(RecordError, match=r"^missing key 'players'$"):
        check_record(body)
    with pytest.raises(RecordError, match=r"^unknown key 'x' in the record"):
        check_record({**body, "players": 2, "rounds": []})
    # a value's place is still named when it is the fault
    record = Game(players=2, seed=1).to_record()
    record["rounds"][0]["starter"] = np.int64(record["rounds"][0]["starter"])
    with pytest.raises(RecordError, match=r"^rounds\[0\]\.starter holds numpy\.int64 \d: "):
        check_record(record)


# ------------------------------------------------------------------ F3: a solve can be stopped
def _hard_deal():
    """openings_2p deal 22 (docs/solver.md): proving its hopeless 4-4 opening takes minutes."""
    from pathlib import Path

    from fiveup_solver.bench import load_suite
    return load_suite(Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "openings_2p.json")[22]


@pytest.mark.parametrize("threads", [1, 2])
def test_a_solve_stopped_from_another_thread(threads):
    """A running Solver call could be ended only by Ctrl-C in the main thread or its node
    limit; Solver.stop() from another thread now ends it with SearchStopped, and the
    Solver then solves as a fresh one."""
    from fiveup_solver import FiveUpError
    from fiveup_solver.solver import Solver
    g = _hard_deal()
    solver = Solver(tt_mb=16, threads=threads)
    assert solver.stop() is False                          # nothing running
    out = {}

    def run():
        try:
            out["r"] = solver.solve(g)
        except BaseException as e:      # noqa: BLE001 -- what the call raised is the result here
            out["r"] = e
    t = threading.Thread(target=run, daemon=True)
    t.start()
    for _ in range(6000):                                  # a hang guard, not a timing
        if solver.core.in_use:
            break
        time.sleep(0.005)
    time.sleep(0.2)                                        # into the minutes-long proof
    assert solver.stop() is True
    t.join(120)
    assert not t.is_alive(), "the solve did not stop"
    assert isinstance(out["r"], SearchStopped) and not isinstance(out["r"], FiveUpError), out["r"]
    # a later call is not stopped, and gives what a fresh Solver gives
    small = Game(players=2, seed=3)
    assert solver.solve(small).values == Solver(tt_mb=16).solve(small).values
    assert solver.best(g).value == Solver(tt_mb=16).best(g).value


def test_a_web_solve_whose_client_left_gives_its_worker_back(monkeypatch):
    """/api/solve searched on to its node limit after its client had gone (two abandoned
    solves held both workers for 14 s): it is stopped as a hint is."""
    from fiveup_solver import serve
    pytest.importorskip("fastapi", reason="the serve extra is part of the test extra")
    stopped = []
    real = serve._SolveCall.stop
    monkeypatch.setattr(serve._SolveCall, "stop", lambda self: stopped.append(1) or real(self))
    body = serve.SolveRequest(record=_hard_deal().to_record(), round=0, action=0, node_limit=200_000_000)
    call = serve._SolveCall()
    out = {}
    t = threading.Thread(target=lambda: out.setdefault("r", _catch(call.run, body)), daemon=True)
    t.start()
    for _ in range(6000):                                  # a hang guard, not a timing
        if call.searcher is not None and call.searcher.core.in_use:
            break
        time.sleep(0.005)
    call.stop()
    t.join(120)
    assert not t.is_alive() and isinstance(out["r"], SearchStopped), out
    assert stopped == [1]
    # one stopped before a worker takes it up never searches
    early = serve._SolveCall()
    early.stop()
    with pytest.raises(SearchStopped):
        early.run(body)
    assert early.searcher is None


def _catch(fn, *args):
    try:
        return fn(*args)
    except BaseException as e:          # noqa: BLE001 -- the result here
        return e
