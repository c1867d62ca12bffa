"""Objects shared between the caller's own threads (an app's thread pool, a GUI's
worker): a search runs without the GIL on its context, so two at once on one
context would corrupt it. A `Solver` shared between threads takes turns (a lock);
a `SolverCore` used by a second thread while it searches refuses with a one-line
`CoreError` instead of crashing, and is usable again once the search is over.

Before this (3c9dae3), two threads calling one Solver's `solve` ended the
interpreter with a segmentation fault; the first test then fails (its worker
dies).
"""
from __future__ import annotations

import copy
import threading
import time
from pathlib import Path

import pytest

from fiveup_solver import _hint, _solver
from fiveup_solver.bench import load_suite
from fiveup_solver.errors import CoreError
from fiveup_solver.game import Game
from fiveup_solver.hint import METHODS, Hinter
from fiveup_solver.solver import Solver

SUITES = Path(__file__).resolve().parent.parent / "benchmarks" / "data"


def _run_threads(target, count):
    threads = [threading.Thread(target=target, args=(k,)) for k in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
        assert not t.is_alive()


def test_a_solver_shared_by_threads_gives_each_the_values_it_gives_alone():
    games = [Game(players=p, seed=s) for p in (2, 4) for s in range(10)]   # (2-player seed 10 takes 5 s)
    alone = [Solver(tt_mb=4).solve(g) for g in games]
    shared = Solver(tt_mb=4)
    got = [None] * len(games)
    errors = []

    def work(k):
        try:
            for i in range(k, len(games), 3):
                got[i] = shared.solve(games[i])
        except Exception as e:      # noqa: BLE001 - reported by the test below
            errors.append(repr(e))

    _run_threads(work, 3)
    assert errors == []
    for a, b in zip(alone, got):
        # a shared table changes the node counts, never a value
        assert (b.value, b.values, b.win, b.points, b.best) == (a.value, a.values, a.win, a.points, a.best)


def test_value_and_solve_of_a_shared_solver_interleave_between_threads():
    games = [Game(players=4, seed=s) for s in range(8)]
    want_values = [Solver(tt_mb=4, objective="win").value(g)[0] for g in games]
    want_solves = [Solver(tt_mb=4, objective="win").solve(g).values for g in games]
    shared = Solver(tt_mb=4, objective="win")
    values, solves = [None] * 8, [None] * 8

    def work(k):
        for i in range(8):
            if k == 0:
                values[i] = shared.value(games[i])[0]
            else:
                solves[i] = shared.solve(games[i]).values
                shared.forget()

    _run_threads(work, 2)
    assert values == want_values
    assert solves == want_solves


def _busy_core():
    """A core searching in a thread of its own (opening 26 of the 4-player suite without
    a table, cut at 4 M nodes: about 0.3 s, long enough to be seen in use), and that
    thread; None when the search ended before it was seen."""
    core = _solver.SolverCore(1.0, False)
    game = load_suite(SUITES / "openings_4p.json")[26]
    out = {}
    t = threading.Thread(target=lambda: out.setdefault("r", core.value(game.current.core, 4_000_000)))
    t.start()
    for _ in range(200_000):
        if core.in_use or not t.is_alive():
            break
    if not core.in_use:
        t.join()
        return None, None, game
    return core, t, game


@pytest.mark.parametrize("call", ["value", "solve_moves", "principal_variation", "maxn_moves", "debug_window",
                                  "set_objective", "clear", "forget", "set_search", "best_move", "reply_order",
                                  "lean_leaves", "history_cap", "world_search"])
def test_a_core_searching_in_one_thread_refuses_another(call):
    for _ in range(5):
        core, t, game = _busy_core()
        if core is not None:
            break
    else:  # pragma: no cover - a 4 M-node search always outlasts the polling loop
        pytest.fail("the search always ended before it was seen in use")
    rnd = game.current.core
    calls = {
        "value": lambda: core.value(rnd),
        "solve_moves": lambda: core.solve_moves(rnd),
        "principal_variation": lambda: core.principal_variation(rnd),
        "maxn_moves": lambda: core.maxn_moves(Game(players=3, seed=1).current.core),
        "debug_window": lambda: core.debug_window(rnd, -1, 1),
        "set_objective": lambda: core.set_objective(0),
        "clear": core.clear,
        "forget": core.forget,
        "set_search": lambda: core.set_search(1),
        "best_move": lambda: core.best_move(rnd),
        "reply_order": lambda: setattr(core, "reply_order", False),
        "lean_leaves": lambda: setattr(core, "lean_leaves", False),
        "history_cap": lambda: setattr(core, "history_cap", 100),
        "world_search": lambda: _world_search_with(core),
    }
    try:
        with pytest.raises(CoreError, match="in use by another thread") as info:
            calls[call]()
        assert "\n" not in str(info.value)
    finally:
        t.join()
    # the search went on undisturbed, and the core is free again
    assert not core.in_use
    assert core.reply_order and core.lean_leaves and not core.search_maxn
    v, nodes, aborted = core.value(rnd, 1000)
    assert aborted and nodes >= 1000


def _world_search_with(core):
    """One hint world searched on `core` (what each hint thread does with its own)."""
    from fiveup_solver._core import canonical_of
    game = Game(players=2, seed=2)
    rnd = game.current.core
    roots = sorted({canonical_of(*m.placement) for m in game.legal_moves if m.kind == "play"})
    search = _hint.WorldSearch(rnd, None, (), roots, METHODS["pimc"].code, 1000, 1, 7, 1, 1, 0.0, greedy_seats=[])
    return search.value_world(core, [rnd.hand(s) for s in range(2)], rnd.boneyard_left)


def test_a_core_is_free_again_after_a_search_refused_its_arguments():
    core = _solver.SolverCore(1.0)
    game = Game(players=2, seed=1)
    for bad in (lambda: core.value(game.current.core, -1), lambda: core.value("no round"),
                lambda: core.solve_moves(game.current.core, guesses="x"),
                lambda: core.principal_variation(game.current.core, max_len=-1)):
        with pytest.raises(CoreError):
            bad()
        assert not core.in_use
    assert core.value(game.current.core)[0] == Solver(tt_mb=1, both=False).value(game)[0]


def test_a_hinter_shared_by_threads_gives_each_the_hint_it_gives_alone():
    games = [Game(players=p, seed=s) for p in (2, 4) for s in range(3)]
    obs = [g.observation(g.to_move) for g in games]
    alone = [Hinter(threads=1).hint(o, seed=7, samples=16) for o in obs]
    shared = Hinter(threads=1)
    got = [None] * len(obs)

    def work(k):
        for i in range(k, len(obs), 2):
            got[i] = shared.hint(obs[i], seed=7, samples=16)

    _run_threads(work, 2)
    for a, b in zip(alone, got):
        assert [(m.move, m.value, m.win) for m in b.moves] == [(m.move, m.value, m.win) for m in a.moves]


def test_a_game_played_on_in_another_thread_is_solved_as_it_was_at_the_call():
    # one thread pushes and pops a move while another solves the same Game: every solve
    # is of one of the two positions, never a mixture (before: KeyError on a move number,
    # or "principal variation left the legal moves", in about one call in ten)
    game = Game(players=2, seed=3)
    move = game.legal_moves[0]
    want = {}
    for pushed in (False, True):
        if pushed:
            game.push(move)
        r = Solver(tt_mb=1).solve(game)
        want[pushed] = (r.seat, r.value, r.values, r.win, r.points, r.pv)
        if pushed:
            game.pop()
    stop = threading.Event()

    def play():
        while not stop.is_set():
            game.push(move)
            game.pop()

    player = threading.Thread(target=play)
    player.start()
    solver = Solver(tt_mb=1)
    try:
        got = [solver.solve(game) for _ in range(150)]
    finally:
        stop.set()
        player.join()
    seen = [(r.seat, r.value, r.values, r.win, r.points, r.pv) for r in got]
    assert all(s in want.values() for s in seen)


class _SignallingLock:
    """A Solver's lock that says when a call starts waiting for it (no sleep needed to
    know a worker is waiting)."""

    def __init__(self, lock):
        self.lock = lock
        self.waiting = threading.Event()

    def __enter__(self):
        self.waiting.set()
        self.lock.acquire()
        return self

    def __exit__(self, *exc):
        self.lock.release()


@pytest.mark.parametrize("call", ["solve", "value", "solve_many"])
@pytest.mark.parametrize("later", ["one move", "the round's end"])
def test_a_call_waiting_for_a_busy_solver_solves_the_position_of_the_call(call, later):
    """docs/api.md: "A Solver solves the position the game had when it was called, even
    while another thread plays on in that Game". A review: a call that waited for the
    Solver (another thread's solve held it) copied the position only once it got it,
    so it solved a later one; if the round had ended meanwhile it returned an empty
    result marked exact. Here this thread holds the lock (standing for another call's
    solve), plays on while the call waits, then lets it run."""
    game = Game(players=2, seed=3)
    for _ in range(4):
        game.push(game.legal_moves[0])
    at_call = copy.deepcopy(game)
    # what the call must give: the seat to move then, and a value for each of its legal moves
    want_seat, want_moves = at_call.to_move, sorted(str(m) for m in at_call.legal_moves)
    solver = Solver(tt_mb=4)
    lock = _SignallingLock(solver._lock)
    solver._lock = lock
    out = {}

    def work():
        try:
            out["result"] = {"solve": solver.solve, "value": solver.value,
                             "solve_many": lambda g: solver.solve_many([g])[0]}[call](game)
        except Exception as e:      # noqa: BLE001 - reported by the assertions below
            out["error"] = e

    lock.lock.acquire()
    worker = threading.Thread(target=work)
    try:
        worker.start()
        assert lock.waiting.wait(timeout=60)
        game.push(game.legal_moves[0])
        while later == "the round's end" and not game.round_over:
            game.push(game.legal_moves[0])
    finally:
        lock.lock.release()
        worker.join(timeout=600)
    assert not worker.is_alive() and "error" not in out, out.get("error")
    alone = Solver(tt_mb=4)
    if call == "value":
        assert out["result"][0] == alone.value(at_call)[0]
        return
    got = out["result"]
    assert (got.seat, sorted(got.values)) == (want_seat, want_moves)
    ref = alone.solve(at_call)
    assert (got.value, got.values, got.win, got.points) == (ref.value, ref.values, ref.win, ref.points)


def test_a_ctrl_c_while_waiting_for_the_helpers_stops_them_first():
    # the calling thread's part of a hint ends with a KeyboardInterrupt while a helper
    # thread still searches: the helper is told to stop (job.stop) and waited for, so no
    # core of the Hinter is left searching when the interrupt reaches the caller
    hinter = Hinter(threads=2)
    main = threading.get_ident()

    class Job:
        def __init__(self):
            self.stopped = threading.Event()
            self.helper_done = threading.Event()

        def work(self, core):
            if threading.get_ident() == main:
                raise KeyboardInterrupt
            self.stopped.wait(60)       # a long search, until told to stop
            self.helper_done.set()

        def stop(self):
            self.stopped.set()

    job = Job()
    with pytest.raises(KeyboardInterrupt):
        hinter._dispatch([("points", job)], 2)
    assert job.stopped.is_set() and job.helper_done.is_set()
    assert not any(core.in_use for core in hinter._cores)


def test_an_exception_sent_to_a_hint_helper_as_it_starts_does_not_hang_the_hinter(monkeypatch):
    # PyThreadState_SetAsyncExc (thread-stopping tools) into a helper before it runs any
    # code: the hint raises it, the Hinter's lock is free, and the next hint works (before:
    # the helper died before its try, its lock was never released, the hint hung for good)
    import _thread
    import ctypes

    from fiveup_solver import hint as hint_module
    game = Game(players=2, seed=9)
    obs = game.observation(game.to_move)
    hinter = Hinter(threads=2)
    want = hinter.hint(obs, samples=4, seed=1)
    real = _thread.start_new_thread

    class Patched:
        def __getattr__(self, name):
            return getattr(_thread, name)

        @staticmethod
        def start_new_thread(function, args):
            ident = real(function, args)
            # the GIL is held here: the new thread has not run any code yet; it is found by
            # its ident once it has set that up (before it asks for the GIL). On a loaded
            # machine the new thread may wait long for a core: look for up to a minute (10
            # million looks ran out once, at a load of 5 on 2 cores)
            give_up = time.monotonic() + 60
            while time.monotonic() < give_up:
                if ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident),
                                                              ctypes.py_object(KeyboardInterrupt)) == 1:
                    sent.append(ident)
                    break
            return ident

    sent = []
    monkeypatch.setattr(hint_module, "_thread", Patched())
    out = {}

    def ask():
        try:
            hinter.hint(obs, samples=4, seed=1)
            out["r"] = "returned"
        except KeyboardInterrupt:
            out["r"] = "KeyboardInterrupt"

    t = threading.Thread(target=ask, daemon=True)
    t.start()
    t.join(60)
    assert not t.is_alive() and out["r"] in ("KeyboardInterrupt", "returned")
    assert sent, "the helper thread was never found to send it the exception"
    monkeypatch.setattr(hint_module, "_thread", _thread)
    assert not hinter._lock.locked()
    again = hinter.hint(obs, samples=4, seed=1)
    assert [(m.move, m.value) for m in again.moves] == [(m.move, m.value) for m in want.moves]


def test_save_record_is_never_seen_half_written(tmp_path):
    from fiveup_solver.record import load_record, save_record
    records = [Game(players=p, seed=s).to_record() for p, s in ((2, 1), (4, 2))]
    path = tmp_path / "same.json"
    save_record(records[0], path)
    errors = []

    def work(k):
        for i in range(60):
            try:
                if (i + k) % 2:
                    save_record(records[k % 2], path)
                else:
                    assert load_record(path) in records
            except Exception as e:      # noqa: BLE001 - reported below
                errors.append(repr(e))

    _run_threads(work, 4)
    assert errors == []
    # and nothing is left beside it
    assert [p.name for p in tmp_path.iterdir()] == ["same.json"]


def test_use_hinter_gives_a_thread_s_bots_and_levels_their_own_hinter():
    """A review: levels and hint bots always searched on the package's one default Hinter,
    so an app's games took turns for it whatever its cores. Under ``use_hinter(h)`` a level
    decision searches on ``h``: it completes while the default is busy, and the same
    decision outside it waits for the default. The move is the same on either Hinter."""
    import random

    from fiveup_solver import hint as hints
    from fiveup_solver.bots import choose
    from fiveup_solver.errors import OptionError
    g = Game(players=2, seed=4)
    obs = g.observation(g.to_move)
    want = choose("level6", obs, random.Random(1))
    done = {}

    def decide(key, hinter):
        if hinter is None:
            done[key] = choose("level6", obs, random.Random(1))
        else:
            with hints.use_hinter(hinter) as h:
                assert h is hinter and hints._current_hinter() is hinter
                done[key] = choose("level6", obs, random.Random(1))
    busy = hints._default_hinter()._lock
    with busy:          # the default Hinter searching another game's decision
        own = threading.Thread(target=decide, args=("own", Hinter(threads=1)))
        shared = threading.Thread(target=decide, args=("shared", None))
        own.start()
        shared.start()
        own.join(120)
        assert done.get("own") == want          # searched beside the busy default
        shared.join(0.5)
        assert shared.is_alive() and "shared" not in done        # waits for the default
    shared.join(120)
    assert done["shared"] == want
    assert hints._current_hinter() is hints._default_hinter()   # outside the block: the default again
    with pytest.raises(OptionError, match="^use_hinter takes a Hinter, not 2$"):
        with hints.use_hinter(2):
            pass


def test_a_timed_hint_counts_its_wait_for_a_busy_hinter():
    """A review: two threads' 200 ms hints on the shared default Hinter took 198 and 385 ms,
    the second searching its whole 200 ms after waiting for the first. The wait now counts
    against time_ms: a hint that waited past its budget searches one world a thread (the
    least a hint searches), where an unhindered one searches many."""
    from fiveup_solver.hint import Hinter
    g = Game(players=2, seed=1)
    obs = g.observation(g.to_move)
    hinter = Hinter(threads=1)
    alone = hinter.hint(obs, time_ms=100, seed=1, both=False)
    assert alone.budget["searches"] > 1
    answers = {}
    hinter._lock.acquire()       # another caller's search, longer than the budget
    try:
        t = threading.Thread(target=lambda: answers.setdefault("hint", hinter.hint(obs, time_ms=100, seed=1,
                                                                                     both=False)))
        t.start()
        t.join(0.5)      # the hint plans (milliseconds) and waits for the lock, past its 100 ms
    finally:
        hinter._lock.release()
    t.join()
    assert answers["hint"].budget["searches"] == 1
