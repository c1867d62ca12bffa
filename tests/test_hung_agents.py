"""A bot that never returns from a move, under a time limit (docs/matches.md "A time
limit per move"): a match, an SPRT or a ladder with --move-time plays its games in
worker processes, even with one worker, and a move still running at twice the limit
and a second ends its worker; the run fails with one BotError line naming the bot, its
seat and where. Each run is a subprocess with a generous timeout of its own: a stop
that failed would otherwise hang the test run instead of failing it."""
from __future__ import annotations

import glob
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from fiveup_solver.bots import stop_after
from fiveup_solver.parallel import arm_move_stop, disarm_move_stop, in_worker, ordered_map

AGENTS = textwrap.dedent('''
    import time

    def sleeps(obs, rng):
        """Never returns from its move at round 0 action 3 (waits, releasing the interpreter)."""
        while obs.round == 0 and len(obs.history) == 3:
            time.sleep(0.05)
        return min(obs.legal_moves, key=str)

    def marks_then_sleeps(obs, rng):
        """Leaves a file named "hung" when its move at round 0 action 3 starts, then never returns."""
        if obs.round == 0 and len(obs.history) == 3:
            open("hung", "w").close()
            while True:
                time.sleep(0.05)
        return min(obs.legal_moves, key=str)

    def spins(obs, rng):
        """Never returns from its moves from action 3 on (a busy loop in Python)."""
        while len(obs.history) >= 3:
            pass
        return min(obs.legal_moves, key=str)
''')

SAFETY = 120    # seconds before a run that was not stopped counts as hung (a failure, not a time limit)


@pytest.fixture
def agents(tmp_path):
    (tmp_path / "hangers.py").write_text(AGENTS)
    return tmp_path


def _run(agents, command: list, what: str = "") -> subprocess.CompletedProcess:
    """Run `command` (fiveup's arguments, or a whole command) in the agents' directory,
    in a process group of its own: a run that was not stopped is ended with its workers."""
    if command[0] != sys.executable:
        command = [sys.executable, "-m", "fiveup_solver", *command]
    proc = subprocess.Popen(command, cwd=agents, env={**os.environ, "TMPDIR": str(agents)}, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=SAFETY)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"{what or command[3:]} was not stopped within {SAFETY} s")
    return subprocess.CompletedProcess(command, proc.returncode, out, err)


def _stopped_line(move_time: float) -> str:
    """The end of the one line a stopped move gives, from the rule stated in the docs:
    stopped at twice the limit and a second."""
    limit = 2 * move_time + 1
    return f": did not return within {limit:g} s (the limit is {move_time:g} s a move); its worker process was stopped"


def test_the_stop_comes_at_twice_the_limit_and_a_second():
    assert stop_after(0.05) == pytest.approx(1.1)
    assert stop_after(2) == pytest.approx(5.0)


@pytest.mark.parametrize("argv", [
    ["match", "--bots", "hangers:sleeps,greedy", "--deals", "2", "--workers", "1"],
    ["match", "--bots", "greedy,hangers:spins", "--deals", "3", "--workers", "2"],
    ["sprt", "--bots", "hangers:spins,greedy", "--workers", "1", "--max-games", "4"],
    ["ladder", "--place", "hangers:sleeps", "--against", "level1", "--games", "2", "--workers", "1"],
    ["ladder", "--entrants", "level1,hangers:spins", "--games", "2", "--workers", "1"],
], ids=["match", "match-2-workers", "sprt", "ladder-place", "ladder-entrants"])
def test_a_move_that_never_returns_stops_the_run_with_one_line(agents, argv):
    r = _run(agents, argv + ["--move-time", "0.05"])
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    err = r.stderr.splitlines()
    assert len(err) == 1, r.stderr[-2000:]
    bot = next(b for b in argv[2].split(",") if b.startswith("hangers:"))
    assert re.fullmatch(rf"error: bot '{bot}' \(seat [0-3]\) at round 0 action [3-9] of the game with seed \d+ \(bot seed \d+\)"
                        + re.escape(_stopped_line(0.05)), err[0]), err[0]
    # the directory the workers leave their messages in is removed
    assert glob.glob(os.path.join(agents, "fiveup-stops-*")) == []


def test_a_hint_bot_deep_in_its_search_is_stopped(agents):
    """A bot whose move is a long threaded search (a hint with a budget far beyond the
    limit) is stopped as a Python loop is: the whole worker ends, search threads and all."""
    r = _run(agents, ["match", "--bots", "hint:4000:1000000,greedy", "--deals", "1", "--workers", "1",
                      "--move-time", "0.01"])
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr[-2000:]
    assert r.stderr.startswith("error: bot 'hint:4000:1000000' (seat 0) at round 0 action ")
    assert r.stderr.rstrip("\n").endswith(_stopped_line(0.01))


def test_play_pairs_raises_the_bot_error(agents):
    """The API: play_pairs with a limit raises BotError (not a WorkerError of a dead worker)."""
    script = textwrap.dedent('''
        import sys
        sys.path.insert(0, ".")
        from fiveup_solver import BotError
        from fiveup_solver.match import play_pairs
        try:
            list(play_pairs(2, "hangers:sleeps", "greedy", 5, max_pairs=2, move_time=0.2))
        except BotError as e:
            print("BotError:", e)
    ''')
    r = _run(agents, [sys.executable, "-c", script], "play_pairs")
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.startswith("BotError: bot 'hangers:sleeps' (seat ") and " at round 0 action 3 " in r.stdout
    assert r.stdout.rstrip("\n").endswith(_stopped_line(0.2))
    assert glob.glob(os.path.join(agents, "fiveup-stops-*")) == []


def test_a_limit_kept_changes_nothing_and_fast_bots_are_never_stopped(agents):
    """Under a limit the games run in a worker process: the same results as without one,
    for a whole match of quick bots (each move armed and disarmed)."""
    plain = _run(agents, ["match", "--bots", "greedy,random", "--deals", "6", "--workers", "1", "--json"])
    timed = _run(agents, ["match", "--bots", "greedy,random", "--deals", "6", "--workers", "1", "--json",
                          "--move-time", "0.5"])
    assert plain.returncode == 0 and timed.returncode == 0, timed.stderr[-2000:]
    a, b = json.loads(plain.stdout), json.loads(timed.stdout)
    assert b.pop("move_time") == 0.5 and a.pop("move_time") is None
    assert a == b


def test_nothing_is_armed_outside_a_worker_of_a_stopping_run():
    """In the caller's own process (play_game, a match without a limit) a move cannot be
    stopped: arming says so and nothing watches."""
    assert arm_move_stop(0.01, lambda: "never") is False
    disarm_move_stop()
    assert not any(t.name == "fiveup-move-watchdog" for t in threading.enumerate())


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False


def _wait_for(what, test, seconds: float = SAFETY) -> None:
    """Wait for a state (not a speed: the safety bound only keeps a failure from hanging)."""
    end = time.monotonic() + seconds
    while not test():
        if time.monotonic() > end:
            pytest.fail(f"{what} did not happen within {seconds} s")
        time.sleep(0.05)


def _start_hung(agents, move_time: str, workers: str = "1") -> subprocess.Popen:
    """A match whose agent hangs at round 0 action 3, started once the agent has hung."""
    proc = subprocess.Popen([sys.executable, "-m", "fiveup_solver", "match", "--bots",
                             "hangers:marks_then_sleeps,greedy", "--deals", "50", "--workers", workers,
                             "--move-time", move_time], cwd=agents, env={**os.environ, "TMPDIR": str(agents)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            # as from a terminal: a test runner's worker may ignore SIGINT, and a child
                            # inherits that (Python then installs no KeyboardInterrupt handler)
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    _wait_for("the agent's hang", lambda: (agents / "hung").exists() or proc.poll() is not None)
    assert proc.poll() is None, proc.communicate()
    return proc


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_ends_a_run_whose_bot_hangs_and_its_workers(agents, workers):
    """Ctrl-C (SIGINT to the terminal's process group) while a move hangs under a long limit:
    the run ends with its one-line message and exit 130, its workers with it (the jobs
    already sent to a worker are not waited for), and it leaves no directory behind."""
    proc = _start_hung(agents, "100", workers)
    os.killpg(proc.pid, signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=SAFETY)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("the run did not end after Ctrl-C")
    assert proc.returncode == 130 and err.strip().splitlines()[-1] == "error: interrupted", err[-2000:]
    _wait_for("the workers' end", lambda: not _group_alive(proc.pid))
    assert glob.glob(os.path.join(agents, "fiveup-stops-*")) == []


def test_workers_end_when_their_parent_is_killed(agents):
    """A parent killed outright (SIGKILL: no clean-up of its own) leaves no worker behind:
    each ends within about a second of noticing, the hung one too, and the stop
    messages' directory goes with them."""
    proc = _start_hung(agents, "100")
    proc.kill()
    proc.communicate()
    _wait_for("the workers' end", lambda: not _group_alive(proc.pid))
    assert glob.glob(os.path.join(agents, "fiveup-stops-*")) == []


def _worker_view(job):
    """In a worker: (whether it searches with one thread, the watchdog thread's life after
    arming a deadline too far for a wait)."""
    armed = arm_move_stop(job, lambda: "never")
    time.sleep(0.05)
    alive = any(t.name == "fiveup-move-watchdog" and t.is_alive() for t in threading.enumerate())
    disarm_move_stop()
    return in_worker(), armed, alive


def test_one_worker_keeps_the_hint_threads_and_any_limit_is_watched():
    """A single worker searches as the run's own process would (the hint's threads: a bot
    at a time budget plays as strong as without a limit); with two, one thread each.
    A limit of 1e308 s (a finite number) keeps the watchdog alive."""
    assert list(ordered_map(_worker_view, [1e308], workers=1, stop_hung=True)) == [(False, True, True)]
    assert list(ordered_map(_worker_view, [1e308, 5.0], workers=2, stop_hung=True)) == [(True, True, True)] * 2
    assert list(ordered_map(_worker_view, [5.0], workers=2)) == [(True, False, False)]
