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
           "hint_report", "sampler_deals_per_s", "rejection_deals_per_s", "max_rss_mb"]

SOLVER_SUITES = ("openings_2p", "openings_4p", "midround", "near_target")


REFERENCE_MISSING = ("the pure-Python reference (tests/reference.py) is only in a source checkout: "
                     "run from one, or set FIVEUP_REFERENCE to its path")


def reference_path() -> Path | None:
    """Where the pure-Python reference is: $FIVEUP_REFERENCE, else the source checkout's tests/."""
    env = os.environ.get("FIVEUP_REFERENCE")
    path = Path(env) if env else Path(__file__).resolve().parent.parent / "tests" / "reference.py"
    return path if path.is_file() else None


def load_reference():
    """The independent pure-Python reference module (raises OptionError outside a source checkout)."""
    path = reference_path()
    if path is None:
        raise OptionError(REFERENCE_MISSING)
    spec = importlib.util.spec_from_file_location("fiveup_reference", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def core_rounds_per_s(players: int, rounds: int, seed: int) -> float:
    t0 = time.perf_counter()
    _core.random_playouts(players, rounds, seed)
    return rounds / (time.perf_counter() - t0)


def reference_rounds_per_s(players: int, rounds: int, seed: int, reference=None) -> float:
    reference = reference or load_reference()
    rng = random.Random(seed)
    t0 = time.perf_counter()
    for _ in range(rounds):
        reference.random_round(rng, players)
    return rounds / (time.perf_counter() - t0)


def run_playout_bench(rounds: int = 200_000, reference_rounds: int = 600, seed: int = 1) -> dict:
    """Whole random rounds per second for 2, 3 and 4 players, core and reference in one run.

    Outside a source checkout the reference figures are None and ``reference_missing`` says why."""
    seed = check_seed(seed)
    reference = load_reference() if reference_path() is not None else None
    core, ref = {}, {}
    for n in (2, 3, 4):
        core[str(n)] = round(core_rounds_per_s(n, rounds, seed), 1)
        ref[str(n)] = (round(reference_rounds_per_s(n, reference_rounds, seed, reference), 1)
                       if reference is not None else None)
    out = {"rounds_per_s": core, "reference_rounds_per_s": ref, "max_rss_mb": max_rss_mb()}
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
    if objective == "win":
        # the tables load once per process (about a second for 3 players): not per position
        for players in sorted({g.players for g in games}):
            search_values(players)
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
    ``each``: also every position's ms, in order (``"ms_each"``). The first ``warmup``
    positions are hinted once, untimed, before the timed pass: a review found the first
    of two identical configurations timed 1.6x the second (8.2 against 5.0 ms median),
    the cold one having loaded tables and warmed caches for the other."""
    hinter = Hinter(threads=threads)
    for obs in observations[:warmup]:
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
        single = report["latency"][method]
        both = report["latency"][f"{method}_both"] = run_hint_suite(positions, method=method, both=True, each=True)
        # what the second currency costs: both currencies against the default one, same run;
        # as the ratio of the medians, and as the median of each position's own ratio
        report.setdefault("both_to_single", {})[method] = round(both["ms"]["median"] / single["ms"]["median"], 3)
        report.setdefault("both_to_single_paired", {})[method] = round(statistics.median(
            b / a for a, b in zip(single.pop("ms_each"), both.pop("ms_each")) if a > 0), 3)

    steps = [("the exact sampler", lambda: report.update(sampler=sampler_deals_per_s(observations))),
             ("pure-Python rejection sampling", rejection),
             ("the exact sampler, early positions",
              lambda: report.update(sampler_on_same_positions=sampler_deals_per_s(early)))]
    for method, part in mine.items():
        positions = [o for o, _ in part]
        steps.append((method, lambda m=method, ps=positions:
                      report["latency"].update({m: run_hint_suite(ps, method=m, each=True)})))
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
