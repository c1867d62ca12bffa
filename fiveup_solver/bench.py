"""Random-playout throughput of the core against the pure-Python reference, in one run.

The reference rules live in ``tests/reference.py`` (written apart from the
core, to cross-check it) and are not shipped: the package holds the rules once,
in the core. Comparisons against the reference therefore run from a source
checkout (``FIVEUP_REFERENCE=path/to/reference.py`` points at another copy);
from a regular install ``fiveup bench`` reports the core alone and says why.
"""
from __future__ import annotations

import importlib.util
import json
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path

from fiveup_solver import _core, _solver
from fiveup_solver.equity import search_values
from fiveup_solver.errors import FiveUpError, OptionError, check_seed, is_int, json_fault, short_repr as _short
from fiveup_solver.game import Game, action_to_move
from fiveup_solver.hint import Hinter, METHODS
from fiveup_solver.inference import DealSampler
from fiveup_solver.notation import Tile
from fiveup_solver.record import check_record, game_at
from fiveup_solver.solver import Solver

__all__ = ["load_reference", "core_rounds_per_s", "reference_rounds_per_s", "run_playout_bench", "load_suite",
           "run_solver_suite", "solver_report", "SOLVER_SUITES", "load_hint_suite", "run_hint_suite",
           "hint_report", "sampler_deals_per_s", "rejection_deals_per_s", "max_rss_mb", "warm_tables",
           "solver_bench", "solver_against_python", "load_alphabeta", "sampler_against_rejection"]

SOLVER_SUITES = ("openings_2p", "openings_4p", "midround", "near_target")


REFERENCE_MISSING = ("the pure-Python reference (tests/reference.py) is only in a source checkout: "
                     "run from one, or set FIVEUP_REFERENCE to its path")


REFERENCE_NAMES = ("random_round", "RoundState", "ALL_TILES", "ReferenceRuleError")   # what the benchmarks use


def reference_path() -> Path | None:
    """Where the pure-Python reference is: $FIVEUP_REFERENCE, else the source checkout's
    tests/ (None outside one). $FIVEUP_REFERENCE set to what is not a file is an
    OptionError naming the variable and the path (a review: it was silently ignored)."""
    env = os.environ.get("FIVEUP_REFERENCE")
    if env:
        path = Path(env)
        try:
            ok = path.is_file()
        except OSError as e:          # (a name too long)
            raise OptionError(f"FIVEUP_REFERENCE={env}: cannot read ({e.strerror or e})") from None
        if not ok:
            raise OptionError(f"FIVEUP_REFERENCE={env}: "
                              f"{'not a file' if path.exists() else 'no such file'} (the pure-Python "
                              "reference, tests/reference.py of a source checkout)")
        return path
    path = Path(__file__).resolve().parent.parent / "tests" / "reference.py"
    return path if path.is_file() else None


def load_reference():
    """The independent pure-Python reference module (raises OptionError outside a source
    checkout, or naming FIVEUP_REFERENCE and its path when that file does not import or
    lacks what the benchmarks use)."""
    path = reference_path()
    if path is None:
        raise OptionError(REFERENCE_MISSING)
    where = (f"FIVEUP_REFERENCE={os.environ['FIVEUP_REFERENCE']}" if os.environ.get("FIVEUP_REFERENCE")
             else f"the reference {path}")
    try:
        spec = importlib.util.spec_from_file_location("fiveup_reference", path)
        if spec is None or spec.loader is None:
            raise ImportError("not a Python module")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except SyntaxError as e:
        raise OptionError(f"{where}: does not import (SyntaxError: {e.msg}, line {e.lineno})") from None
    except Exception as e:        # (whatever the file raises as it runs: one line, not its traceback)
        raise OptionError(f"{where}: does not import ({type(e).__name__}: {_short(str(e))})") from None
    missing = [name for name in REFERENCE_NAMES if not hasattr(module, name)]
    if missing:
        raise OptionError(f"{where}: not the pure-Python reference (no {', '.join(missing)})")
    return module


def core_rounds_per_s(players: int, rounds: int, seed: int) -> float:
    return rounds / _core_seconds(players, rounds, seed)


def reference_rounds_per_s(players: int, rounds: int, seed: int, reference=None) -> float:
    return rounds / _reference_seconds(players, rounds, seed, reference or load_reference())


def _core_seconds(players: int, rounds: int, seed: int) -> float:
    """Seconds of one timing of `rounds` core playouts (the timed region: the playouts alone)."""
    t0 = time.perf_counter()
    _core.random_playouts(players, rounds, seed)
    return time.perf_counter() - t0


def _reference_seconds(players: int, rounds: int, seed: int, reference) -> float:
    rng = random.Random(seed)
    t0 = time.perf_counter()
    for _ in range(rounds):
        reference.random_round(rng, players)
    return time.perf_counter() - t0


PLAYOUT_REPETITIONS = 5
MIN_TIMING_S = 0.05      # a timing shorter than this is mostly clock and scheduling noise
WIDE_SPREAD = 0.3        # (max - min) / median of the ratios above which the output warns


def _warm_up(reference, seed: int) -> None:
    """Untimed: a few rounds of each side for each player count (a review saw the first core
    timing of a fresh process read 0.35 M rounds/s against 1.4-2.0 M after it)."""
    for n in (2, 3, 4):
        _core.random_playouts(n, 2000, seed)
        if reference is not None:
            _reference_seconds(n, 5, seed, reference)


def _load_average():
    """os.getloadavg() (1, 5 and 15 minutes), None where the system has none."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None


def _median(xs):
    return statistics.median(xs)


def run_playout_bench(rounds: int = 200_000, reference_rounds: int = 600, seed: int = 1,
                      repetitions: int = PLAYOUT_REPETITIONS) -> dict:
    """Whole random rounds per second for 2, 3 and 4 players, core and reference in one run.

    After an untimed warm-up, ``repetitions`` alternated timings of the core and the
    reference, the same workload each (which one goes first alternates too), per player
    count: the rounds/s are medians over the repetitions, and the ratio core/reference
    is the median of the repetitions' own ratios with its min and max. ``load_average``
    (os.getloadavg) and ``cpu_count`` say how busy the machine was; ``warnings`` lists
    timings too short to be stable (under MIN_TIMING_S) and ratios with a wide spread.
    Outside a source checkout the reference figures are None and ``reference_missing`` says why."""
    seed = check_seed(seed)
    reference = load_reference() if reference_path() is not None else None
    _warm_up(reference, seed)
    core, ref, ratio = {}, {}, {}
    short = {"core": [], "reference": []}
    for n in (2, 3, 4):
        cs, rs = [], []
        for k in range(repetitions):
            if reference is not None and k % 2:
                rs.append(_reference_seconds(n, reference_rounds, seed, reference))
            cs.append(_core_seconds(n, rounds, seed))
            if reference is not None and not k % 2:
                rs.append(_reference_seconds(n, reference_rounds, seed, reference))
        core[str(n)] = round(rounds / _median(cs), 1)
        if _median(cs) < MIN_TIMING_S:
            short["core"].append(_median(cs))
        if reference is None:
            ref[str(n)] = None
            continue
        ref[str(n)] = round(reference_rounds / _median(rs), 1)
        if _median(rs) < MIN_TIMING_S:
            short["reference"].append(_median(rs))
        ratios = [(rounds / c) / (reference_rounds / r) for c, r in zip(cs, rs)]
        ratio[str(n)] = {"median": round(_median(ratios), 1), "min": round(min(ratios), 1),
                         "max": round(max(ratios), 1)}
    warnings = []
    for side, option, count in (("core", "--rounds", rounds), ("reference", "--reference-rounds", reference_rounds)):
        if short[side]:
            need = max(math.ceil(count * MIN_TIMING_S / max(min(short[side]), 1e-9)), count + 1)
            warnings.append(f"the {side}'s {count:,} round{'s' if count != 1 else ''} took {1000 * min(short[side]):.1f} ms a timing, "
                            f"under the {1000 * MIN_TIMING_S:.0f} ms a stable time needs: give {option} {need:,} "
                            "or more")
    wide = {n: r for n, r in ratio.items() if r["median"] > 0 and (r["max"] - r["min"]) / r["median"] > WIDE_SPREAD}
    if wide:
        warnings.append("wide spread of the ratio over the repetitions (" + ", ".join(
            f"{n} players {r['min']:,.0f}-{r['max']:,.0f}x" for n, r in wide.items())
            + f", over {100 * WIDE_SPREAD:.0f} % of the median): the machine was busy; run again")
    out = {"rounds_per_s": core, "reference_rounds_per_s": ref, "ratio": ratio if reference is not None else None,
           "repetitions": repetitions, "rounds": rounds, "reference_rounds": reference_rounds, "seed": seed,
           "load_average": _load_average(), "cpu_count": os.cpu_count(),
           "warnings": warnings, "max_rss_mb": max_rss_mb()}
    if reference is None:
        out["reference_missing"] = REFERENCE_MISSING
    return out


def load_suite(path) -> list:
    """Games at the positions of a benchmark suite file (benchmarks/data/*.json). A file
    that cannot be read or is not a suite, or a position that is not one (a broken record,
    an action that is not in it), is one OptionError naming the file and the position."""

    try:
        with open(path, "rb") as f:
            positions = json.loads(f.read().decode("utf-8"))
    except OSError as e:
        raise OptionError(f"{path}: cannot read the suite ({e.strerror or e})") from None
    except UnicodeDecodeError as e:
        raise OptionError(f"{path}: not a suite (not UTF-8 text: byte {e.start})") from None
    except (ValueError, RecursionError) as e:
        raise OptionError(f"{path}: not a suite (not valid JSON: {json_fault(e)})") from None
    games = []
    for i, p in enumerate(_suite_entries(path, positions, ("record", "round", "action"))):
        try:
            games.append(_suite_game(p))
        except FiveUpError as e:
            raise OptionError(f"{path}: position {i}: {e}") from None
        if games[-1].round_over:
            raise OptionError(f"{path}: position {i}: the round is over there (nothing to search)")
    if not games:
        # (its statistics have no median, its speed no time to divide by)
        raise OptionError(f"{path}: the suite has no positions")
    return games


def _suite_game(p: dict) -> Game:
    """The game at one position of a suite (its entry checked by _suite_entries)."""
    if "scores" not in p:
        return game_at(p["record"], p["round"], p["action"])
    if p["scores"] is None:
        # (start_round takes None as "from 0": the suite meant scores and gave none)
        raise OptionError("scores must list the sides' raw scores, not null (leave the key out for 0 : 0)")
    # a one-round position that starts from given scores (records always start at 0): the
    # full record's first round, every hand known, up to an action in it
    record = check_record(p["record"])
    if record.get("view") is not None:
        raise OptionError(f"a position from given scores needs the full record, not seat {record['view']}'s view")
    if p["round"] != 0:
        raise OptionError(f"a position from given scores is in round 0, not round {_short(p['round'])}")
    rnd = record["rounds"][0]
    if not 0 <= p["action"] <= len(rnd["actions"]):
        raise OptionError(f"round 0: action {_short(p['action'])} is not in 0..{len(rnd['actions'])}")
    g = Game(players=record["players"], deal=False)
    g.start_round([[Tile.parse(t) for t in h] for h in rnd["hands"]],
                  [Tile.parse(t) for t in rnd["boneyard"]], rnd["starter"], scores=p["scores"])
    for act in rnd["actions"][: p["action"]]:
        g.push(action_to_move(act))
    return g


def _stats(values) -> dict:
    xs = sorted(values)
    n = len(xs)
    return {"median": xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2,
            "p95": xs[min(n - 1, int(0.95 * n))], "max": xs[-1], "mean": sum(xs) / n}


def run_solver_suite(games, mode: str = "value", tt_mb: float = 16, use_tt: bool = True,
                     target_pruning: bool = True, objective: str = "points", threads: int = 1,
                     each: bool = False) -> dict:
    """Solve every position of a suite with one reusable Solver.

    ``mode``: "value" (the position's value) or "solve" (every move's value and the PV,
    under `objective` only); ``threads``: the Solver's search threads (wall-clock time
    per position; the nodes of every thread). Returns per-position seconds and nodes
    with medians, 95th percentiles and maxima; ``each``: also every position's nodes, in
    order (``"nodes_each"``).
    """
    solver = Solver(tt_mb=tt_mb, use_tt=use_tt, target_pruning=target_pruning, objective=objective, both=False,
                    threads=threads)
    # the tables load once per process (about a second for 3 players): not per position
    warm_tables(g.players for g in games)
    if games:
        # warm-up, untimed, on a Solver of its own (this one's table starts empty as before)
        Solver(tt_mb=tt_mb, objective=objective, both=False).value(games[0])
    seconds, nodes, values = [], [], []
    for g in games:
        t0 = time.perf_counter()
        if mode == "value":
            v, n = solver.value(g)
        else:
            res = solver.solve(g)
            v, n = res.value, res.nodes
        seconds.append(time.perf_counter() - t0)
        nodes.append(n)
        values.append(v)
    out = {"positions": len(games), "ms": {k: round(v * 1000, 3) for k, v in _stats(seconds).items()},
           "nodes": {k: round(v) for k, v in _stats(nodes).items()},
           "nodes_per_s": round(sum(nodes) / sum(seconds)), "values": values,
           "table_mb": round(solver.core.table_bytes / 2 ** 20, 3), "max_rss_mb": max_rss_mb()}
    if each:
        out["nodes_each"] = nodes
    return out


def warm_tables(players) -> None:
    """Load, untimed, the lazy tables a search for these player counts reads: the
    equity tables' solver form (``search_values``: about 0.5 s the first time for 3
    players), cached for the process. A review found that load inside timed regions
    (one 3-player hint at 661 ms cold against 50 ms warm)."""
    for n in sorted(set(players)):
        search_values(n)


def max_rss_mb() -> float:
    """This process's peak resident memory so far, in MB (what a benchmark run in a fresh
    process peaked at; `benchmarks/compare_builds.py` runs each in its own)."""
    import resource     # POSIX only: imported here so that the package imports everywhere
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(rss / (2 ** 20 if sys.platform == "darwin" else 1024), 1)


def solver_modes(name: str, games) -> list:
    """(label, mode, options) of each timing ``fiveup bench --solver`` makes of suite
    ``name``. The 2-thread timing only where a position has the hand tiles at which the
    solver starts its helper threads (``_solver.SMP_MIN_HAND_TILES``): elsewhere it would
    time one thread again under another name. ``value_no_pruning`` is timed on every
    suite, but exact-target pruning changes the nodes only where a side comes within reach
    of 305 (``near_target``): elsewhere the row searches the very nodes of ``value``, and
    :func:`solver_report` says so in the row (``same_nodes_as``; a review: it read as a
    measurement of pruning)."""
    modes = [("value", "value", {}), ("value_win", "value", {"objective": "win"}),
             ("value_no_pruning", "value", {"target_pruning": False})]
    if any(sum(len(g.current.core.hand(s)) for s in range(g.players)) >= _solver.SMP_MIN_HAND_TILES for g in games):
        modes.append(("value_2_threads", "value", {"threads": 2}))
    if name in ("midround", "near_target"):
        modes += [("all_moves", "solve", {}), ("value_no_table", "value", {"use_tt": False})]
    return modes


SOLVER_GAUGE_PASSES = 3     # each suite's value row is timed at least this often


def _solver_schedule(labels, repetitions: int) -> list:
    """The order of a suite's timings: ``repetitions`` passes over its rows, every other
    one backwards (drift hits every row alike), and with fewer than SOLVER_GAUGE_PASSES
    passes the value row again in the middle and (one pass) at the end, so that every
    run says how much the same work's time moved while the suite was timed.

    >>> _solver_schedule(["value", "value_win", "all_moves"], 1)
    ['value', 'value_win', 'value', 'all_moves', 'value']
    >>> _solver_schedule(["value", "value_win"], 2)
    ['value', 'value_win', 'value', 'value_win', 'value']
    >>> _solver_schedule(["value", "value_win"], 3)
    ['value', 'value_win', 'value_win', 'value', 'value', 'value_win']
    """
    order = []
    for k in range(repetitions):
        order += list(labels) if k % 2 == 0 else list(labels)[::-1]
    if "value" in labels and repetitions < SOLVER_GAUGE_PASSES:
        mid = (len(order) + 1) // 2
        if repetitions == 1:
            order.append("value")
        order.insert(mid, "value")
    return order


def _row(results: list) -> dict:
    """One row of :func:`solver_report` from its passes (run_solver_suite's results): each
    statistic the median over the passes, with the range of the median ms and of the
    nodes per second over them."""
    def med(xs):
        return statistics.median(xs)
    medians = [r["ms"]["median"] for r in results]
    rates = [r["nodes_per_s"] for r in results]
    return {"positions": results[0]["positions"], "passes": len(results),
            "ms": {k: round(med([r["ms"][k] for r in results]), 3) for k in results[0]["ms"]},
            "ms_median_range": [min(medians), max(medians)],
            "nodes": {k: round(med([r["nodes"][k] for r in results])) for k in results[0]["nodes"]},
            "nodes_per_s": round(med(rates)), "nodes_per_s_range": [min(rates), max(rates)],
            "table_mb": results[-1]["table_mb"], "max_rss_mb": results[-1]["max_rss_mb"]}


def _load_suites(folder) -> list:
    folder = Path(folder)
    return [(name, load_suite(folder / f"{name}.json")) for name in SOLVER_SUITES]


def solver_report(folder, on_step=None, repetitions: int = 1, suites=None) -> dict:
    """``fiveup bench --solver``: every suite of ``folder`` in each mode (per-position
    values dropped): value, value under the win objective, value without exact-target pruning, value
    with 2 search threads (where they start: :func:`solver_modes`), and on the
    mid-round and near-target suites every move's value and the value without the table.

    Every row is timed ``repetitions`` times, in passes over the suite's rows of which
    every other one runs backwards, each timing a fresh Solver over the whole suite after
    an untimed warm-up (:func:`run_solver_suite`); with fewer than 3 passes the value row
    is timed 3 times, at the start, the middle and the end of its suite's timings
    (:func:`_solver_schedule`: the range of the same work's time, a gauge of the machine's
    drift, for about a quarter more time). Each row's statistics are medians over its
    passes (``passes``), with the range of the median ms and of the nodes per second. A row
    that searched exactly the value row's nodes at every position (no pruning where no side
    comes within reach of 305; two threads where the helpers never start) says so:
    ``"same_nodes_as": "value"`` (the same work timed again: its difference from value is
    the machine's noise). ``on_step(label, k, n)``, if given, is called before the first
    timing of each of the n rows."""
    if not (is_int(repetitions) and repetitions >= 1):
        raise OptionError(f"repetitions must be a whole number from 1, not {_short(repetitions)}")
    suites = _load_suites(folder) if suites is None else suites
    plans = [(name, games, {label: (mode, kwargs) for label, mode, kwargs in solver_modes(name, games)})
             for name, games in suites]
    n_rows = sum(len(modes) for _, _, modes in plans)
    report = {name: {} for name, _ in suites}
    k = 0
    for name, games, modes in plans:
        results, nodes_each = {}, {}
        for label in _solver_schedule(list(modes), repetitions):
            mode, kwargs = modes[label]
            if label not in results:
                if on_step is not None:
                    on_step(f"{name} {label}", k, n_rows)
                k += 1
                results[label] = []
            r = run_solver_suite(games, mode, each=True, **kwargs)
            nodes_each.setdefault(label, r.pop("nodes_each"))
            r.pop("values")
            results[label].append(r)
        for label in modes:
            row = report[name][label] = _row(results[label])
            mode, kwargs = modes[label]
            if (label != "value" and mode == "value" and "objective" not in kwargs and "value" in nodes_each
                    and nodes_each[label] == nodes_each["value"]):
                row["same_nodes_as"] = "value"
    return report


def solver_bench(folder, on_step=None, repetitions: int = 1, python: bool = False) -> dict:
    """``fiveup bench --solver [--repetitions N] [--python]``: :func:`solver_report`'s rows
    under each suite's name, and ``"run"``: the repetitions, ``load_average``
    (os.getloadavg) and ``cpu_count``, and ``warnings`` (rows whose median ms spread over
    30 % of its median over the passes: the machine was busy). ``python``: also
    ``"against_python"``, the solver against the pure-Python alpha-beta
    (:func:`solver_against_python`, about 2 s more; None without). ``on_step`` as
    :func:`solver_report`'s, with one more step for ``python``."""
    suites = _load_suites(folder)
    alphabeta = load_alphabeta() if python else None      # (an error before a minute of timings)
    extra = 1 if python else 0
    total = sum(len(solver_modes(name, games)) for name, games in suites) + extra

    def step(label, k, n):
        if on_step is not None:
            on_step(label, k, total)
    out = solver_report(folder, on_step=step, repetitions=repetitions, suites=suites)
    warnings = []
    wide = [(f"{name} {label}", row["ms_median_range"]) for name, rows in out.items() for label, row in rows.items()
            if row["passes"] > 1 and row["ms"]["median"] > 0
            and (row["ms_median_range"][1] - row["ms_median_range"][0]) / row["ms"]["median"] > WIDE_SPREAD]
    if wide:
        warnings.append("wide spread of the median ms over the passes (" + ", ".join(
            f"{label} {lo:.3f}-{hi:.3f}" for label, (lo, hi) in wide)
            + f", over {100 * WIDE_SPREAD:.0f} % of the median): the machine was busy; run again"
            + (" (--repetitions 5 gives every row a range)" if repetitions == 1 else ""))
    against = None
    if python:
        step("midround against pure Python", total - 1, total)
        midround = dict(suites)["midround"]
        against = solver_against_python(Path(folder) / "midround.json", games=midround, alphabeta=alphabeta)
        r = against["ratio"]
        if r["median"] > 0 and (r["max"] - r["min"]) / r["median"] > WIDE_SPREAD:
            warnings.append(f"wide spread of the ratio to pure Python over its passes ({r['min']:,.0f}-"
                            f"{r['max']:,.0f}x, over {100 * WIDE_SPREAD:.0f} % of the median): the machine was "
                            "busy; run again")
        if not against["values_identical"]:
            warnings.append("the solver's values differ from the pure-Python alpha-beta's on the same positions: "
                            "a bug, not a speed")
    out["run"] = {"repetitions": repetitions, "value_passes": max(repetitions, SOLVER_GAUGE_PASSES),
                  "load_average": _load_average(), "cpu_count": os.cpu_count(), "warnings": warnings}
    out["against_python"] = against
    return out


# ---------------------------------------------------------------- the solver against pure Python

ALPHABETA_MISSING = ("the pure-Python alpha-beta (tests/reference_alphabeta.py, next to the reference) is only in "
                     "a source checkout: run from one, or set FIVEUP_REFERENCE to its tests/reference.py")
PYTHON_POSITIONS = 20           # the first positions of the midround suite (as test_bench_solver_vs_python)
PYTHON_NODE_LIMIT = 200_000     # a position the pure-Python search needs more nodes for is skipped
PYTHON_PASSES = 3


def load_alphabeta():
    """tests/reference_alphabeta.py (next to the reference :func:`reference_path` finds),
    importing the reference of :func:`load_reference` as its ``reference``; OptionError
    outside a source checkout, or naming the file when it does not import or lacks
    ``solve_value``, ``NodeLimit`` or ``R``."""
    reference = load_reference()
    path = reference_path().parent / "reference_alphabeta.py"
    if not path.is_file():
        raise OptionError(ALPHABETA_MISSING)
    saved = sys.modules.get("reference")
    sys.modules["reference"] = reference       # (it imports the rules as `reference`)
    try:
        spec = importlib.util.spec_from_file_location("fiveup_reference_alphabeta", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except Exception as e:        # (one line, not its traceback)
        raise OptionError(f"the pure-Python alpha-beta {path}: does not import "
                          f"({type(e).__name__}: {_short(str(e))})") from None
    finally:
        if saved is None:
            sys.modules.pop("reference", None)
        else:
            sys.modules["reference"] = saved
    missing = [name for name in ("solve_value", "NodeLimit", "R") if not hasattr(module, name)]
    if missing:
        raise OptionError(f"the pure-Python alpha-beta {path}: not the one of the tests (no {', '.join(missing)})")
    return module


def _reference_state(R, position):
    """A suite position as the reference's RoundState, built from the suite file alone."""
    record = position["record"]
    if "scores" not in position:
        return R.state_at(record, position["round"], position["action"])
    rnd = record["rounds"][0]     # a one-round position with given start scores
    st = R.RoundState(record["players"], rnd["hands"], rnd["boneyard"], rnd["starter"], list(position["scores"]))
    for a in rnd["actions"][: position["action"]]:
        st.apply(a)
    return st


def solver_against_python(path, positions: int = PYTHON_POSITIONS, passes: int = PYTHON_PASSES,
                          node_limit: int = PYTHON_NODE_LIMIT, games=None, alphabeta=None) -> dict:
    """The solver against the pure-Python alpha-beta (tests/reference_alphabeta.py: negamax
    with a dictionary table on the independent reference rules) on the first ``positions``
    of the suite ``path``, as ``benchmarks/test_bench_solver_vs_python.py`` measures it:
    positions the Python search needs more than ``node_limit`` nodes for are skipped
    (decided by the first pass); the Solver is built once, outside the timers, and
    forgets its table before each position; both are warmed up untimed; then ``passes``
    passes of both, which one first alternating by pass. Returns the seconds of a pass of
    each (medians), the ratio Python/solver (the median of the passes' own ratios, with
    its min and max), nodes, and whether the values are identical."""
    ab = alphabeta or load_alphabeta()
    with open(path, encoding="utf-8") as f:
        entries = json.load(f)[:positions]
    games = (load_suite(path) if games is None else games)[:positions]
    states = [_reference_state(ab.R, p) for p in entries]
    solver = Solver()

    def python_pass(only=None):
        out, skipped = [], []
        for i, st in enumerate(states):
            if only is not None and i not in only:
                continue
            t0 = time.perf_counter()
            try:
                value, nodes = ab.solve_value(st, node_limit=node_limit)
            except ab.NodeLimit:
                skipped.append(i)
                continue
            out.append((i, value, nodes, time.perf_counter() - t0))
        return out, skipped

    def solver_pass(indices):
        out = []
        for i in indices:
            solver.forget()
            t0 = time.perf_counter()
            value, nodes = solver.value(games[i])
            out.append((i, value, nodes, time.perf_counter() - t0))
        return out

    warm_tables(g.players for g in games)
    solver_pass(range(len(games)))         # untimed warm-ups
    python_pass(only={0})
    py = cy = indices = skipped = None
    rows = []
    for k in range(passes):
        order = ("py", "cy") if k % 2 == 0 or indices is None else ("cy", "py")
        for side in order:
            if side == "py":
                py, sk = python_pass(only=indices)
                if indices is None:        # the first pass decides the positions (deterministic)
                    skipped, indices = sk, sorted(i for i, *_ in py)
            else:
                cy = solver_pass(indices)
        py_s, cy_s = sum(x[3] for x in py), sum(x[3] for x in cy)
        rows.append((py_s, cy_s, py_s / cy_s if cy_s > 0 else float("inf")))
    ratios = [r for *_, r in rows]
    return {"suite": Path(path).stem, "positions": len(indices), "skipped": len(skipped),
            "node_limit": node_limit, "passes": passes,
            "python_seconds": round(statistics.median(r[0] for r in rows), 6),
            "solver_seconds": round(statistics.median(r[1] for r in rows), 6),
            "ratio": {"median": round(statistics.median(ratios), 1), "min": round(min(ratios), 1),
                      "max": round(max(ratios), 1)},
            "python_nodes": sum(x[2] for x in py), "solver_nodes": sum(x[2] for x in cy),
            "values_identical": [x[1] for x in py] == [x[1] for x in cy]}


# ---------------------------------------------------------------- hints and the deal sampler

def load_hint_suite(path) -> list:
    """(observation, phase) for every position of a hint suite (benchmarks/data/hint_positions.json)."""

    try:
        positions = json.loads(Path(path).read_text())
    except (OSError, ValueError) as e:
        raise OptionError(f"{path}: cannot read the hint suite ({e})") from None
    out = []
    for i, p in enumerate(_suite_entries(path, positions, ("record", "round", "action", "seat"))):
        try:
            # (a bad record, round or seat named its fault but not the file or the position)
            out.append((game_at(p["record"], p["round"], p["action"]).observation(p["seat"]), p.get("phase", "")))
        except FiveUpError as e:
            raise OptionError(f"{path}: position {i}: {e}") from None
    return out


def _suite_entries(path, positions, keys) -> list:
    """The entries of a suite file, each checked to be an object with ``keys`` (a record
    object, integers else), or a one-line OptionError naming the file and the entry."""
    if not isinstance(positions, list):
        raise OptionError(f"{path}: a suite is a JSON list of positions, not {type(positions).__name__}")
    for i, p in enumerate(positions):
        if not isinstance(p, dict):
            raise OptionError(f"{path}: position {i} is a JSON object with {', '.join(keys)}, not {_short(p)}")
        for k in keys:
            if k not in p:
                raise OptionError(f"{path}: position {i} has no {k!r}")
            if k == "record" and not isinstance(p[k], dict):
                raise OptionError(f"{path}: position {i}'s record is a JSON object, not {_short(p[k])}")
            if k != "record" and not is_int(p[k]):
                raise OptionError(f"{path}: position {i}'s {k} is an integer, not {_short(p[k])}")
    return positions


def run_hint_suite(observations, *, method: str = "pimc", samples=None, time_ms=None,
                   world_nodes=None, threads: int = 2, seed: int = 1, objective=None, both: bool = False,
                   each: bool = False, warmup: int = 3) -> dict:
    """One hint per position with one reusable Hinter: latency statistics (ms).
    ``both=False`` (default) times a bot's decision: one objective searched.
    ``each``: also every position's ms, in order (``"ms_each"``). The tables of every
    player count present are loaded (:func:`warm_tables`), and the first ``warmup``
    positions and the first position of each player count are hinted once, untimed,
    before the timed pass: a review found the first
    of two identical configurations timed 1.6x the second (8.2 against 5.0 ms median),
    the cold one having loaded tables and warmed caches for the other."""
    hinter = Hinter(threads=threads)
    warm_tables(o.players for o in observations)
    # the first `warmup` positions, and the first of each player count after them
    # (a review: the first 3-player position of a timed pass paid the table's load)
    first = {}
    for obs in observations:
        first.setdefault(obs.players, obs)
    warm = list(observations[:warmup]) + [o for o in first.values()
                                          if not any(o is w for w in observations[:warmup])]
    for obs in warm:
        hinter.hint(obs, method=method, samples=samples, time_ms=time_ms, seed=seed,
                    world_nodes=world_nodes or None, objective=objective, both=both)
    seconds, worlds, exact = [], 0, 0
    for obs in observations:
        h = hinter.hint(obs, method=method, samples=samples, time_ms=time_ms, seed=seed,
                        world_nodes=world_nodes or None, objective=objective, both=both)   # None: the method's default
        seconds.append(h.seconds)
        worlds += h.samples
        exact += h.exact_worlds
    out = {"positions": len(seconds), "method": method, "threads": threads,
           "ms": {k: round(v * 1000, 2) for k, v in _stats(seconds).items()},
           "worlds": worlds, "exact_worlds": exact, "max_rss_mb": max_rss_mb()}
    if each:
        out["ms_each"] = [round(x * 1000, 3) for x in seconds]
    return out


def hint_report(path, on_step=None) -> dict:
    """``fiveup bench --hint``: hint latency of every search method at the default
    budget, over the suite's positions of the player counts it searches and per phase; the exact sampler's speed; and, from a
    source checkout, the exact sampler against pure-Python rejection sampling on 10 early
    positions in the same run (:func:`sampler_against_rejection`: alternated, count-based,
    the ratio with its range: ``sampler_comparison``). ``load_average``, ``cpu_count``, and
    ``warnings`` as the playout bench's (short sampler timings, a wide spread of the
    sampler ratio or of the same hint's repeated times: :func:`_hint_warnings`).
    ``on_step(label, k, n)``, if given, is called before each of the n timings (the
    whole takes about a minute)."""
    suite = load_hint_suite(path)
    observations = [o for o, _ in suite]
    if not observations:
        raise OptionError(f"{path}: the suite has no positions")
    early = [o for o, phase in suite if phase == "early"][:10]
    mine = {}        # each method on the positions of the player counts it searches (alphamu: 2 players)
    for method in METHODS:
        part = [(o, phase) for o, phase in suite if o.players in METHODS[method].players]
        if part:
            mine[method] = part
    phases = {m: [ph for ph in ("early", "middle", "late") if any(p == ph for _, p in part)]
              for m, part in mine.items()}
    report = {"positions": len(observations), "latency": {}}

    def rejection() -> None:
        # the exact sampler and rejection alternated, the same deals a position each time
        # (a review: one time-boxed timing of rejection, its ratio 45x to 119x run to run)
        if reference_path() is None:
            report["rejection_sampler_python"] = report["sampler_comparison"] = None
            report["reference_missing"] = REFERENCE_MISSING
            return
        cmp = report["sampler_comparison"] = sampler_against_rejection(early)
        report["rejection_sampler_python"] = None if cmp is None else {
            "positions": cmp["positions"], "deals_per_s": cmp["rejection"]["deals_per_s"],
            "acceptance": cmp["rejection"]["acceptance"], "deals_per_position": cmp["rejection"]["deals"],
            "repetitions": cmp["repetitions"]}

    def both_currencies(method, positions) -> None:
        # what the second currency costs: one and both currencies alternately per position,
        # fastest of BOTH_CURRENCIES_REPS each (as benchmarks/both_currencies_time.py does; a
        # review saw 0.88 when each was timed in a pass of its own), and the node ratio
        pair = both_currencies_paired(positions, method=method)
        report["latency"][f"{method}_both"] = pair["both"]
        report.setdefault("both_to_single", {})[method] = pair["ratio_of_medians"]
        report.setdefault("both_to_single_paired", {})[method] = pair["ratio_paired"]["median"]
        report.setdefault("both_to_single_paired_range", {})[method] = [pair["ratio_paired"]["min"],
                                                                         pair["ratio_paired"]["max"]]
        report.setdefault("both_to_single_nodes", {})[method] = pair["node_ratio"]
        report.setdefault("both_currencies_repeat_spread", {})[method] = pair["repeat_spread"]
        report["both_currencies_reps"] = pair["reps"]

    steps = [("the exact sampler", lambda: report.update(sampler=sampler_deals_per_s(observations))),
             ("pure-Python rejection sampling", rejection),
             ("the exact sampler, early positions",
              lambda: report.update(sampler_on_same_positions=sampler_deals_per_s(early)))]
    for method, part in mine.items():
        positions = [o for o, _ in part]
        steps.append((method, lambda m=method, ps=positions:
                      report["latency"].update({m: run_hint_suite(ps, method=m)})))
        # (the default objective is win: the other one, not the same configuration again)
        steps.append((f"{method}_points", lambda m=method, ps=positions:
                      report["latency"].update({f"{m}_points": run_hint_suite(ps, method=m, objective="points")})))
        steps.append((f"{method}_both", lambda m=method, ps=positions: both_currencies(m, ps)))
        for phase in phases[method]:
            steps.append((f"{method}_{phase}", lambda m=method, ph=phase, ps=[o for o, p in part if p == phase]:
                          report["latency"].update({f"{m}_{ph}": run_hint_suite(ps, method=m)})))
    for k, (label, run) in enumerate(steps):
        if on_step is not None:
            on_step(label, k, len(steps))
        run()
    report.update(load_average=_load_average(), cpu_count=os.cpu_count(), warnings=_hint_warnings(report))
    return report


def _hint_warnings(report) -> list:
    """What ``fiveup bench --hint`` should not be read without, as the playout bench's
    warnings: a sampler timing under MIN_TIMING_S, the sampler ratio spread over WIDE_SPREAD
    of its median over the repetitions, and the same hint's times differing by more than
    WIDE_SPREAD between its repetitions (both currencies / one: the same work timed
    again, so only the machine's noise)."""
    warnings = []
    cmp = report.get("sampler_comparison")
    if cmp:
        for side, name in (("exact", "the exact sampler"), ("rejection", "pure-Python rejection")):
            seconds = statistics.median(cmp[side]["seconds"])
            if seconds < MIN_TIMING_S:
                warnings.append(f"{name}'s {cmp[side]['deals']:,} deals a position on {cmp['positions']} early "
                                f"position{'s' if cmp['positions'] != 1 else ''} took {1000 * seconds:.1f} ms a "
                                f"timing, under the {1000 * MIN_TIMING_S:.0f} ms a stable time needs: its deals/s "
                                "and the ratio are rough (a suite with more early positions gives more)")
        r = cmp["ratio"]
        if r["median"] > 0 and (r["max"] - r["min"]) / r["median"] > WIDE_SPREAD:
            warnings.append(f"wide spread of the sampler ratio over the {cmp['repetitions']} repetitions "
                            f"({r['min']:,.0f}-{r['max']:,.0f}x, over {100 * WIDE_SPREAD:.0f} % of the median): the "
                            "machine was busy; run again")
    noisy = {m: x for m, x in report.get("both_currencies_repeat_spread", {}).items()
             if x is not None and x > WIDE_SPREAD}
    if noisy:
        warnings.append(f"the same hint timed {report['both_currencies_reps']} times differed by " + ", ".join(
            f"{100 * x:.0f} % ({m})" for m, x in noisy.items())
            + f" at the median, over {100 * WIDE_SPREAD:.0f} % (both currencies / one): the machine was busy; "
            "run again")
    return warnings


BOTH_CURRENCIES_REPS = 2


def warm_hints(hinter, observations, variants) -> None:
    """Untimed, before a timed comparison: the equity tables of every player count among
    `observations` (:func:`warm_tables`), then one hint of the first position of each
    player count for each keyword set in `variants` (each side of the comparison)."""
    warm_tables(o.players for o in observations)
    first = {}
    for obs in observations:
        first.setdefault(obs.players, obs)
    for obs in first.values():
        for options in variants:
            hinter.hint(obs, **options)


def both_currencies_paired(observations, *, method: str = "pimc", reps: int = BOTH_CURRENCIES_REPS,
                           threads: int = 2, seed: int = 1) -> dict:
    """A hint with both currencies against one (the default objective), on the same
    positions with one reusable Hinter: after an untimed warm-up (the tables, one hint of
    each kind per player count), for each position the two alternately, ``reps`` times
    each, each keeping its fastest (the machine's noise only adds time). Returns each
    one's latency row (as :func:`run_hint_suite`'s), the ratio of the medians, the
    median/min/max of each position's own ratio, and the search nodes of each with their
    ratio (deterministic: the work the second currency adds). ``repeat_spread``: how much
    the same hint's times differed between its repetitions ((max - min) / min, the median
    over positions and both kinds; None with one repetition): the same work, so the
    machine's noise."""
    hinter = Hinter(threads=threads)
    warm_hints(hinter, observations, [{"method": method, "seed": seed, "both": both} for both in (False, True)])
    one, two, spreads = [], [], []
    totals = {False: {"worlds": 0, "exact_worlds": 0, "nodes": 0}, True: {"worlds": 0, "exact_worlds": 0, "nodes": 0}}
    for obs in observations:
        times, last = {False: [], True: []}, {}
        for k in range(reps):
            for both in ((False, True) if k % 2 == 0 else (True, False)):
                last[both] = h = hinter.hint(obs, method=method, seed=seed, both=both)
                times[both].append(h.seconds)
        one.append(min(times[False]))
        two.append(min(times[True]))
        spreads += [(max(t) - min(t)) / min(t) for t in times.values() if len(t) > 1 and min(t) > 0]
        for both in (False, True):      # the same search every repetition (one seed): counted once
            totals[both]["worlds"] += last[both].samples
            totals[both]["exact_worlds"] += last[both].exact_worlds
            totals[both]["nodes"] += last[both].nodes

    def row(seconds, both):
        return {"positions": len(seconds), "method": method, "threads": threads,
                "ms": {k: round(v * 1000, 2) for k, v in _stats(seconds).items()},
                "worlds": totals[both]["worlds"], "exact_worlds": totals[both]["exact_worlds"],
                "nodes": totals[both]["nodes"], "max_rss_mb": max_rss_mb()}
    ratios = [b / a for a, b in zip(one, two) if a > 0]
    return {"reps": reps, "one": row(one, False), "both": row(two, True),
            "ratio_of_medians": round(statistics.median(two) / statistics.median(one), 3),
            "ratio_paired": {"median": round(statistics.median(ratios), 3), "min": round(min(ratios), 3),
                             "max": round(max(ratios), 3)},
            "node_ratio": round(totals[True]["nodes"] / max(totals[False]["nodes"], 1), 3),
            "repeat_spread": round(statistics.median(spreads), 3) if spreads else None}


def sampler_deals_per_s(observations, deals: int = 20_000, seed: int = 1) -> dict:
    """The exact sampler's speed over positions: building its tables, and deals per second (C, one core)."""
    build = sample = 0.0
    for obs in observations:
        t0 = time.perf_counter()
        ds = DealSampler(obs)
        t1 = time.perf_counter()
        ds.counter.bench(deals, seed)
        sample += time.perf_counter() - t1
        build += t1 - t0
    n = len(observations)
    if n == 0:
        return {"positions": 0, "deals_per_s": 0, "build_ms_mean": 0.0}
    return {"positions": n, "deals_per_s": round(n * deals / sample), "build_ms_mean": round(1000 * build / n, 3)}


REJECTION_DEALS = 100         # accepted deals a position, each repetition, in `fiveup bench --hint`
REJECTION_CAP_S = 10.0        # count-based rejection gives up on a position after this long
SAMPLER_REPETITIONS = 3


def rejection_deals_per_s(observations, seconds_per_position: float = 0.5, seed: int = 1,
                          reference=None, deals: int | None = None) -> dict:
    """Baseline: pure-Python rejection sampling on the reference rules. Shuffle the
    tiles the seat has not seen into the hidden places, replay the round, keep the
    deal if every recorded action is legal. Accepted deals per second.

    ``deals``: count-based, each position until that many deals are accepted (the same
    work on every run with one seed, as the exact sampler's ``deals``; at most
    REJECTION_CAP_S seconds a position, ``capped`` counts the positions cut there); without
    it, time-boxed: ``seconds_per_position`` each (a review: a constant time by
    construction, whose work depends on the speed). ``seconds``: the time of the whole."""
    reference = reference or load_reference()
    rng = random.Random(seed)
    accepted = tried = capped = 0
    total = 0.0
    for obs in observations:
        me, n = obs.seat, obs.players
        own_draws = [a["draw"] for a in obs.history if "draw" in a and a["seat"] == me]
        own = {str(t) for t in obs.hand} | {a["play"] for a in obs.history if "play" in a and a["seat"] == me}
        dealt = sorted(own - set(own_draws))
        draw_seats = [a["seat"] for a in obs.history if "draw" in a]
        hidden = [t for t in reference.ALL_TILES if t not in own]
        limit = seconds_per_position if deals is None else REJECTION_CAP_S
        goal = accepted + deals if deals is not None else None
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < limit:
            if goal is not None and accepted >= goal:
                break
            rng.shuffle(hidden)
            pool = iter(hidden)
            hands = [dealt if s == me else [next(pool) for _ in range(5)] for s in range(n)]
            mine = iter(own_draws)
            boneyard = [next(mine) if s == me else next(pool) for s in draw_seats] + list(pool)
            tried += 1
            st = reference.RoundState(n, hands, boneyard, obs.starter, list(obs.scores_before))
            try:
                for a in obs.history:
                    if "draw" in a:
                        a = {"seat": a["seat"], "draw": st.boneyard_left()[0]}
                    st.apply(a)
            except (reference.ReferenceRuleError, IndexError):
                continue
            accepted += 1
        else:
            capped += goal is not None
        total += time.perf_counter() - t0
    out = {"positions": len(observations), "deals_per_s": round(accepted / total, 1) if total else 0.0,
           "acceptance": round(accepted / tried, 6) if tried else 0.0, "accepted": accepted,
           "seconds": round(total, 6)}
    if deals is not None:
        out.update(deals_per_position=deals, capped=capped)
    return out


def sampler_against_rejection(observations, deals: int = 20_000, rejection_deals: int = REJECTION_DEALS,
                              repetitions: int = SAMPLER_REPETITIONS, seed: int = 1, reference=None):
    """The exact sampler (C, ``DealCounter.bench``) against pure-Python rejection sampling
    (:func:`rejection_deals_per_s`) on the same positions, in one run: the samplers' tables
    built and both warmed up untimed, then ``repetitions`` alternated timings of each
    (which one first alternates), each count-based: ``deals`` a position for the exact
    sampler, ``rejection_deals`` accepted a position for rejection. Both rates weigh
    every position alike (deals over the time they took), so their ratio is that of the
    time a deal takes. Returns each side's deals/s (median) and seconds per timing, and
    the ratio exact/rejection: the median of the repetitions' own ratios with its min and
    max. None without positions."""
    if not observations:
        return None
    reference = reference or load_reference()
    samplers = [DealSampler(obs) for obs in observations]
    for ds in samplers:              # untimed warm-ups
        ds.counter.bench(min(deals, 1000), seed)
    rejection_deals_per_s(observations[:1], seed=seed, reference=reference, deals=1)
    exact_s, rejected = [], []
    for k in range(repetitions):
        for side in (("exact", "rejection") if k % 2 == 0 else ("rejection", "exact")):
            if side == "exact":
                t = 0.0
                for ds in samplers:
                    t0 = time.perf_counter()
                    ds.counter.bench(deals, seed)
                    t += time.perf_counter() - t0
                exact_s.append(t)
            else:
                rejected.append(rejection_deals_per_s(observations, seed=seed, reference=reference,
                                                      deals=rejection_deals))
    n = len(observations)
    exact_rates = [n * deals / t for t in exact_s]
    ratios = [e / max(r["deals_per_s"], 1e-9) for e, r in zip(exact_rates, rejected)]
    return {"positions": n, "repetitions": repetitions,
            "exact": {"deals": deals, "deals_per_s": round(statistics.median(exact_rates)),
                      "seconds": [round(t, 6) for t in exact_s]},
            "rejection": {"deals": rejection_deals,
                          "deals_per_s": round(statistics.median(r["deals_per_s"] for r in rejected), 1),
                          "acceptance": rejected[0]["acceptance"],
                          "capped": max(r["capped"] for r in rejected),
                          "seconds": [r["seconds"] for r in rejected]},
            "ratio": {"median": round(statistics.median(ratios), 1), "min": round(min(ratios), 1),
                      "max": round(max(ratios), 1)}}
