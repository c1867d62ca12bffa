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
           "hint_report", "sampler_deals_per_s", "rejection_deals_per_s", "max_rss_mb", "warm_tables"]

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
                     target_pruning: bool = True, objective: str = "points", threads: int = 1) -> dict:
    """Solve every position of a suite with one reusable Solver.

    ``mode``: "value" (the position's value) or "solve" (every move's value and the PV,
    under `objective` only); ``threads``: the Solver's search threads (wall-clock time
    per position; the nodes of every thread). Returns per-position seconds and nodes
    with medians, 95th percentiles and maxima.
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
    return {"positions": len(games), "ms": {k: round(v * 1000, 3) for k, v in _stats(seconds).items()},
            "nodes": {k: round(v) for k, v in _stats(nodes).items()},
            "nodes_per_s": round(sum(nodes) / sum(seconds)), "values": values,
            "table_mb": round(solver.core.table_bytes / 2 ** 20, 3), "max_rss_mb": max_rss_mb()}


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
    time one thread again under another name."""
    modes = [("value", "value", {}), ("value_win", "value", {"objective": "win"}),
             ("value_no_pruning", "value", {"target_pruning": False})]
    if any(sum(len(g.current.core.hand(s)) for s in range(g.players)) >= _solver.SMP_MIN_HAND_TILES for g in games):
        modes.append(("value_2_threads", "value", {"threads": 2}))
    if name in ("midround", "near_target"):
        modes += [("all_moves", "solve", {}), ("value_no_table", "value", {"use_tt": False})]
    return modes


def solver_report(folder, on_step=None) -> dict:
    """``fiveup bench --solver``: every suite of ``folder`` in each mode (per-position
    values dropped): value, value under the win objective, value without exact-target pruning, value
    with 2 search threads (where they start: :func:`solver_modes`), and on the
    mid-round and near-target suites every move's value and the value without the table.
    ``on_step(label, k, n)``, if given, is called before each of the n timings."""
    folder = Path(folder)
    suites = [(name, load_suite(folder / f"{name}.json")) for name in SOLVER_SUITES]
    steps = [(name, games, mode) for name, games in suites for mode in solver_modes(name, games)]
    report = {name: {} for name, _ in suites}
    for k, (name, games, (label, mode, kwargs)) in enumerate(steps):
        if on_step is not None:
            on_step(f"{name} {label}", k, len(steps))
        r = run_solver_suite(games, mode, **kwargs)
        r.pop("values")
        report[name][label] = r
    return report


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
    source checkout, pure-Python rejection sampling on 10 early positions in the same run.
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
        if reference_path() is not None:
            report["rejection_sampler_python"] = rejection_deals_per_s(early)
        else:
            report["rejection_sampler_python"] = None
            report["reference_missing"] = REFERENCE_MISSING

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
    return report


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
    ratio (deterministic: the work the second currency adds)."""
    hinter = Hinter(threads=threads)
    warm_hints(hinter, observations, [{"method": method, "seed": seed, "both": both} for both in (False, True)])
    one, two = [], []
    totals = {False: {"worlds": 0, "exact_worlds": 0, "nodes": 0}, True: {"worlds": 0, "exact_worlds": 0, "nodes": 0}}
    for obs in observations:
        best, last = {False: float("inf"), True: float("inf")}, {}
        for k in range(reps):
            for both in ((False, True) if k % 2 == 0 else (True, False)):
                last[both] = h = hinter.hint(obs, method=method, seed=seed, both=both)
                best[both] = min(best[both], h.seconds)
        one.append(best[False])
        two.append(best[True])
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
            "node_ratio": round(totals[True]["nodes"] / max(totals[False]["nodes"], 1), 3)}


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


def rejection_deals_per_s(observations, seconds_per_position: float = 0.5, seed: int = 1,
                          reference=None) -> dict:
    """Baseline: pure-Python rejection sampling on the reference rules. Shuffle the
    tiles the seat has not seen into the hidden places, replay the round, keep the
    deal if every recorded action is legal. Accepted deals per second."""
    reference = reference or load_reference()
    rng = random.Random(seed)
    accepted = tried = 0
    total = 0.0
    for obs in observations:
        me, n = obs.seat, obs.players
        own_draws = [a["draw"] for a in obs.history if "draw" in a and a["seat"] == me]
        own = {str(t) for t in obs.hand} | {a["play"] for a in obs.history if "play" in a and a["seat"] == me}
        dealt = sorted(own - set(own_draws))
        draw_seats = [a["seat"] for a in obs.history if "draw" in a]
        hidden = [t for t in reference.ALL_TILES if t not in own]
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds_per_position:
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
        total += time.perf_counter() - t0
    return {"positions": len(observations), "deals_per_s": round(accepted / total, 1) if total else 0.0,
            "acceptance": round(accepted / tried, 6) if tried else 0.0}
