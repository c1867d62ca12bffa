"""Run independent jobs (games, pairs of games) in order, locally or on a Ray cluster.

``ordered_map(fn, jobs, workers=K)`` yields ``fn(job)`` for every job in the
order of `jobs`, whatever finishes first, with a few jobs in flight per worker.
With ``workers=1`` it runs in this process; with more, in worker processes
(one search thread each: two processes use two cores better than one process
with two threads); with ``ray="auto"`` or ``ray="ADDRESS"`` on a Ray cluster
(the optional ``[ray]`` extra). A job carries every seed it needs, so the
results never depend on where or how many ways it runs. With
``stop_hung=True`` the jobs run in worker processes even with one worker, and a
bot move armed with :func:`arm_move_stop` that outlives its deadline ends its
worker: the run fails with that move's BotError instead of waiting for good.

Errors come back as in one process, wherever the jobs run: a
:class:`~fiveup_solver.errors.FiveUpError` of ``fn`` as itself (its cause
too). Any other exception of ``fn`` in a worker process or a Ray task is one
:class:`~fiveup_solver.errors.WorkerError` line naming it and the job, its
``__cause__`` the exception itself; with ``workers=1`` (no worker) it is
raised as itself.

>>> list(ordered_map(abs, [-3, 1, -2]))
[3, 1, 2]
"""
from __future__ import annotations

import contextlib
import os
import pickle
import shutil
import sys
import tempfile
import threading
import time
from collections import deque

from fiveup_solver.errors import (BotError, FiveUpError, OptionError, WorkerError, as_int, check_switch,
                                  is_int as _is_int, short_repr as _short)

__all__ = ["ordered_map", "workers_are_forked", "default_workers", "check_workers", "check_ray", "arm_move_stop", "disarm_move_stop"]


def default_workers() -> int:
    """The machine's cores (the default of ``--workers``)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def check_workers(workers) -> int:
    """`workers` as an int (a numpy integer too: errors.as_int) from 1 to 256, or a
    one-line OptionError."""
    workers = as_int(workers)
    if not _is_int(workers) or not 1 <= workers <= 256:
        raise OptionError(f"workers must be an integer from 1 to 256, not {_short(workers)}")
    return workers


def check_ray(ray) -> str | None:
    """None (no Ray), or the address: 'auto' (a running cluster, else a local one)
    or a cluster address like 'ray://host:10001'. Fails if the extra is missing."""
    if ray is None:
        return None
    if not isinstance(ray, str) or not ray.strip() or len(ray) > 300:
        raise OptionError(f"ray must be 'auto' or a cluster address, not {_short(ray)}")
    try:
        import ray as _ray  # noqa: F401
    except ImportError:
        raise OptionError("running on Ray needs the ray extra: pip install 'fiveup_solver[ray]'") from None
    return ray.strip()


_WORKER_SETUP = []      # functions a worker process runs first (hint: one search thread per process)
_in_worker = False
_stop_reports = None    # in a worker of a run with a move watchdog: where it leaves its message
_watchdog = None        # that worker's _MoveWatchdog, started by its first arm_move_stop


def on_worker_start(fn) -> None:
    """Have every worker process call ``fn()`` before its first job (modules above this
    one register here, so parallel need not import them)."""
    if fn not in _WORKER_SETUP:
        _WORKER_SETUP.append(fn)


def in_worker() -> bool:
    """Whether this process is one of ordered_map's workers (the hint then searches with one thread)."""
    return _in_worker


def _single_thread_search():
    """Worker setup: one search thread per process."""
    global _in_worker
    _in_worker = True
    for fn in _WORKER_SETUP:
        fn()


def _worker_start(stop_reports=None, one_thread: bool = True, setup=None):
    """A local worker process's start: one search thread (`one_thread`: other workers
    fill the cores; a single worker searches with the hint's threads, as the run would
    in its own process); with `stop_reports` (a directory), the move watchdog may stop
    this process (arm_move_stop); `setup` (function, args): called once (ordered_map's).
    A worker whose parent has gone ends itself. Its standard output is its standard
    error: the parent's carries the run's result (a review: an agent's print() in a
    worker went into ``fiveup match --json``'s output)."""
    global _stop_reports
    _stop_reports = stop_reports
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stdout.flush()
        os.dup2(sys.stderr.fileno(), 1)
    if setup is not None:
        setup[0](*setup[1])
    threading.Thread(target=_end_with_parent, args=(os.getppid(), stop_reports), name="fiveup-parent-watch",
                     daemon=True).start()
    if one_thread:
        _single_thread_search()


def _end_with_parent(parent: int, stop_reports) -> None:
    """A worker's thread: end the worker within a second of its parent's end (a parent
    killed, by SIGKILL say, leaves its pool's workers waiting for jobs for good), and
    remove the stop messages' directory the parent can no longer remove."""
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            if stop_reports is not None:
                shutil.rmtree(stop_reports, ignore_errors=True)
            os._exit(STOPPED_EXIT)


class _MoveWatchdog:
    """A thread of a worker process that ends the process when a bot's move outlives
    its deadline. A bot that never returns cannot be stopped from inside the process
    without its cooperation (an exception raised into it from outside can land inside
    a hint's threaded search and leave the run waiting for good,
    docs/matches.md); ending the whole worker stops every thread at once, and the
    parent reads the message this leaves and raises it as the BotError."""

    def __init__(self, reports: str):
        self._reports = reports
        self._cond = threading.Condition()
        self._deadline = None       # time.monotonic() when the armed move is over; None: none armed
        self._describe = None       # the armed move's message, formatted only when it is needed
        self._wake = float("inf")   # when the watcher next looks without being told (inf: it waits to be)
        threading.Thread(target=self._watch, name="fiveup-move-watchdog", daemon=True).start()

    def arm(self, seconds: float, describe) -> None:
        deadline = time.monotonic() + seconds
        with self._cond:
            self._deadline = deadline
            self._describe = describe
            if deadline < self._wake:
                # told only when it would look too late: one bot move after another costs
                # the lock, not a wake-up of the watcher each
                self._cond.notify()

    def disarm(self) -> None:
        with self._cond:
            self._deadline = None

    def _watch(self) -> None:
        with self._cond:
            while True:
                if self._deadline is None:
                    self._wake = float("inf")
                    self._cond.wait()
                    continue
                now = time.monotonic()
                if now >= self._deadline:
                    self._stop()
                # an hour at most at a time: a limit of 1e308 s is a deadline past what a wait takes
                self._wake = min(self._deadline, now + 3600.0)
                self._cond.wait(self._wake - now)

    def _stop(self) -> None:
        try:
            message = str(self._describe())
        except Exception as e:      # noqa: BLE001 -- the process ends either way; say what is known
            message = f"a bot's move did not return in time (its description failed: {type(e).__name__})"
        try:
            path = os.path.join(self._reports, f"{os.getpid()}.txt")
            with open(path + ".part", "w", encoding="utf-8") as f:
                f.write(message)
            os.replace(path + ".part", path)
        finally:
            os._exit(STOPPED_EXIT)


STOPPED_EXIT = 86       # a worker process's exit status when its move watchdog ended it


def arm_move_stop(seconds: float, describe) -> bool:
    """In a worker process of a run with a move watchdog (``ordered_map(...,
    stop_hung=True)``): end this process if the move now starting has not returned
    within `seconds`, the run then failing with the BotError ``describe()`` (a
    function returning its one-line message, called only then). True when armed;
    False elsewhere (this process, or a Ray worker: nothing is armed there)."""
    global _watchdog
    if _stop_reports is None:
        return False
    if _watchdog is None:
        _watchdog = _MoveWatchdog(_stop_reports)
    _watchdog.arm(seconds, describe)
    return True


def disarm_move_stop() -> None:
    """The armed move has returned (arm_move_stop)."""
    if _watchdog is not None:
        _watchdog.disarm()


def _stopped_move(reports: str | None):
    """The BotError a worker's move watchdog left in `reports` (the first, by name),
    or None when none did."""
    if reports is None:
        return None
    try:
        names = sorted(n for n in os.listdir(reports) if n.endswith(".txt"))
    except OSError:
        return None
    for name in names:
        try:
            with open(os.path.join(reports, name), encoding="utf-8") as f:
                return BotError(" ".join(f.read().split())[:400])
        except OSError:
            continue
    return None


def _call(fn, job, setup=None):
    _single_thread_search()
    if setup is not None:
        setup[0](*setup[1])
    return _in_process(fn, job)


def _in_process(fn, job):
    """fn(job) in a worker process. A FiveUpError's cause (a BotError's: the agent's own
    exception) does not cross to the parent as __cause__ (the pool puts its remote
    traceback there): it travels as an attribute, pickled or, if it cannot be, as a
    RuntimeError naming it, and ordered_map makes it the cause again."""
    try:
        return fn(job)
    except FiveUpError as e:
        cause = e.__cause__
        if cause is not None:
            try:
                pickle.loads(pickle.dumps(cause))
            except Exception:       # noqa: BLE001 -- whatever fails to pickle is named instead
                cause = RuntimeError(f"{type(cause).__name__}: {' '.join(str(cause).split())[:160]}")
            e._worker_cause = cause
        raise


def _result(future, job, reports=None):
    """A worker's result, or its error as in one process: a FiveUpError with its own
    cause; a worker its move watchdog ended, the BotError it left in `reports`; a worker
    that died otherwise (a crash in native code, os._exit) one line naming the job; any
    other exception one WorkerError line naming it and the job, as a Ray task's
    (:func:`_ray_result`), its cause the exception itself (with the pool's remote
    traceback as that one's cause)."""
    from concurrent.futures import BrokenExecutor     # (the pool's BrokenProcessPool)
    try:
        return future.result()
    except FiveUpError as e:
        cause = getattr(e, "_worker_cause", None)
        if cause is not None:
            del e._worker_cause
            raise e from cause
        raise
    except BrokenExecutor:
        stopped = _stopped_move(reports)
        if stopped is not None:
            raise stopped from None
        raise WorkerError(f"a worker process died abruptly (a crash in native code, or os._exit or "
                          f"sys.exit in a thread of an agent?) while running its jobs; the first not "
                          f"finished: {_short(job, 160)}") from None
    except Exception as e:      # noqa: BLE001 -- whatever fn raised in its worker: one line, as on Ray
        raise _worker_failure(e, job) from e


def _worker_failure(e: Exception, job) -> FiveUpError:
    """The one-line error for an exception `e` (not a FiveUpError) that came back from a
    worker process running `job`. The pool's remote traceback (``e.__cause__.tb``) tells
    where it was raised: pickling the job on its way to the worker (the pool's feeder
    thread: a job pickle does not take), pickling what fn returned or raised on its way
    back, or fn itself. (Read only to choose the words: a Python whose traceback reads
    otherwise gets the last, general line.)"""
    what = f"{type(e).__name__}: {' '.join(str(e).split())[:160]}"
    where = getattr(e.__cause__, "tb", None)
    where = where if isinstance(where, str) else ""
    if "in _feed" in where:
        return OptionError(f"job {_short(job, 160)} cannot be sent to a worker process ({what}): a job must be "
                           f"what pickle takes")
    if "in _sendback_result" in where:
        return WorkerError(f"what fn returned or raised for job {_short(job, 160)} cannot come back from its "
                           f"worker process ({what}): it must be what pickle takes")
    return WorkerError(f"a worker process failed ({what}) while running {_short(job, 160)}")


def workers_are_forked() -> bool:
    """Whether this machine's worker processes (ordered_map's pool, the default start
    method) start by *fork*, a copy of this process with all it has set up: the default on
    Linux until Python 3.14 (from 3.14 *forkserver*), never on macOS or Windows (*spawn*)."""
    import multiprocessing
    # (get_start_method() would fix the method for good, and a later set_start_method fail)
    method = multiprocessing.get_start_method(allow_none=True) or multiprocessing.get_all_start_methods()[0]
    return method == "fork"


def ordered_map(fn, jobs, *, workers: int = 1, ray: str | None = None, in_flight: int = 2,
                stop_hung: bool = False, setup=None):
    """A generator of fn(job) for each job, in order. `fn` must be a module-level
    function (it is sent to other processes by name) when it runs in worker
    processes. Closing the generator early cancels the jobs it no longer needs.
    ``in_flight``: jobs sent ahead per worker (an integer >= 1). ``stop_hung``: the
    jobs run in worker processes even with one worker, where a bot move armed with
    :func:`arm_move_stop` that outlives its deadline ends its worker and the run
    fails with that move's BotError (on Ray nothing is armed). ``setup``: None, or a
    (function, args) pair called in each worker process before its jobs (on Ray before
    each job), as :func:`fiveup_solver.bots.worker_setup` gives the bots registered in
    this process; never in this process. A worker process's standard output goes to
    standard error.

    The arguments are checked here, at the call, not at the first ``next()``: a bad
    one is a one-line OptionError, and so is an `fn` that pickle does not take (a
    lambda, a local function) when the jobs run in worker processes of this machine
    (``workers`` > 1, or ``stop_hung``; Ray sends functions its own way). Errors of
    the jobs: the module text.

    >>> ordered_map(abs, [1], workers=0)
    Traceback (most recent call last):
    ...
    fiveup_solver.errors.OptionError: workers must be an integer from 1 to 256, not 0
    """
    workers = check_workers(workers)
    ray = check_ray(ray)
    in_flight = as_int(in_flight)
    if not _is_int(in_flight) or in_flight < 1:
        raise OptionError(f"in_flight must be an integer >= 1, not {_short(in_flight)}")
    stop_hung = check_switch("stop_hung", stop_hung)
    if not callable(fn):
        raise OptionError(f"fn must be a function called with each job, not {_short(fn)}")
    if setup is not None and not (isinstance(setup, tuple) and len(setup) == 2 and callable(setup[0])
                                  and isinstance(setup[1], tuple)):
        raise OptionError(f"setup must be None or a (function, args tuple) pair, not {_short(setup)}")
    try:
        jobs = iter(jobs)
    except TypeError:
        raise OptionError(f"jobs must be an iterable of jobs (a list, a generator), not {_short(jobs)}") from None
    if ray is None and (workers > 1 or stop_hung):
        try:
            pickle.dumps(fn)
        except Exception as e:      # noqa: BLE001 -- what pickle raises varies (AttributeError, TypeError, ...)
            raise OptionError(f"fn must be a module-level function (worker processes get it by name), not "
                              f"{_short(fn)}: {type(e).__name__}: {' '.join(str(e).split())[:120]}") from None
    if ray is not None:
        return _ray_map(fn, jobs, ray, in_flight, setup)
    return _local_map(fn, jobs, workers, in_flight, stop_hung, setup)


def _local_map(fn, jobs, workers: int, in_flight: int, stop_hung: bool, setup=None):
    """ordered_map's generator on this machine, its arguments checked."""
    if workers == 1 and not stop_hung:
        for job in jobs:
            yield fn(job)
        return
    # imported here: the process pool (multiprocessing) is 20-40 ms of every import of the
    # hints, which need this module only for in_worker (tests/test_cli_startup.py)
    from concurrent.futures import ProcessPoolExecutor
    reports, pool, finished = None, None, False
    try:
        reports = tempfile.mkdtemp(prefix="fiveup-stops-") if stop_hung else None
        pool = ProcessPoolExecutor(workers, initializer=_worker_start, initargs=(reports, workers > 1, setup))
        window = deque()
        for job in jobs:
            window.append((pool.submit(_in_process, fn, job), job))
            if len(window) >= in_flight * workers:
                yield _result(*window.popleft(), reports)
        while window:
            yield _result(*window.popleft(), reports)
        finished = True
    finally:
        if pool is not None:
            if not finished:
                # an error, Ctrl-C or the generator closed early: jobs already sent to a worker
                # cannot be cancelled, and one may never return (a hung bot); end the workers
                _terminate_workers(pool)
            pool.shutdown(wait=True, cancel_futures=True)
        if reports is not None:
            shutil.rmtree(reports, ignore_errors=True)


def _terminate_workers(pool) -> None:
    """End a process pool's workers now (what they run is no longer wanted). The pool
    has no public way to in Python 3.11 (3.14's terminate_workers): its process table."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        try:
            process.terminate()
        except (OSError, ValueError, AttributeError):      # already gone, or closed
            pass


def _ray_result(ray, ref, job):
    """A Ray task's result, or its error as in one process (as `_result` does for the
    pool): Ray raises a FiveUpError of a task as its own subclass whose text is the
    remote traceback; the task's own error, with its cause, is raised instead. Any
    other error is one WorkerError line naming it and the job (as the pool's), its
    cause the task's own exception."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as e:
        cause = getattr(e, "cause", None)
        if isinstance(cause, FiveUpError):
            worker_cause = getattr(cause, "_worker_cause", None)
            if worker_cause is not None:
                del cause._worker_cause
            raise cause from worker_cause
        raise WorkerError(f"a Ray task failed ({type(cause).__name__}: "
                          f"{' '.join(str(cause).split())[:160]}) while running {_short(job, 160)}") from (
            cause if isinstance(cause, BaseException) else None)


def _ray_send_failure(ray, fn, job, e: Exception) -> OptionError:
    """The one-line error for a task Ray could not send (its text: many lines on what it
    tried): `fn` or `job` is not what Ray's cloudpickle takes; which one, in words."""
    try:
        ray.cloudpickle.dumps(fn)
    except Exception as fn_error:       # noqa: BLE001 -- what pickling raises varies
        first = (str(fn_error).splitlines() or [""])[0][:120]
        return OptionError(f"fn cannot be sent to a Ray task ({type(fn_error).__name__}: {first}), not {_short(fn)}")
    cause = e.__cause__ if isinstance(e.__cause__, Exception) else e
    first = (str(cause).splitlines() or [""])[0][:120]
    return OptionError(f"job {_short(job, 160)} cannot be sent to a Ray task ({type(cause).__name__}: {first}): "
                       f"a job must be what pickle takes")


def _ray_map(fn, jobs, address: str, in_flight: int, setup=None):
    import ray as _ray
    started = False
    if not _ray.is_initialized():
        try:
            if address == "auto":
                try:
                    _ray.init(address="auto", log_to_driver=False)
                except (ConnectionError, RuntimeError):
                    _ray.init(log_to_driver=False, include_dashboard=False)     # no cluster: a local one
            else:
                _ray.init(address=address, log_to_driver=False)
        except Exception as e:     # Ray's own errors vary by version: one line, what and where
            raise OptionError(f"could not connect to Ray at {address!r}: {str(e).splitlines()[0][:200]}") from None
        started = True
    try:
        remote = _ray.remote(num_cpus=1)(_call)
        cpus = max(1, int(_ray.cluster_resources().get("CPU", 1)))
        window = deque()
        try:
            for job in jobs:
                try:
                    ref = remote.remote(fn, job, setup)
                except (TypeError, pickle.PicklingError, AttributeError) as e:
                    raise _ray_send_failure(_ray, fn, job, e) from None
                window.append((ref, job))
                if len(window) >= in_flight * cpus:
                    yield _ray_result(_ray, *window.popleft())
            while window:
                yield _ray_result(_ray, *window.popleft())
        finally:
            for ref, _ in window:
                _ray.cancel(ref, force=True)
    finally:
        if started:
            _ray.shutdown()
