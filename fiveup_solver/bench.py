"""Random-playout throughput of the core against the pure-Python reference, in one run.

The reference rules live in ``tests/reference.py`` (written apart from the
core, to cross-check it). A regular install ships a copy of it as
``fiveup_solver._reference`` (see setup.py); a source checkout loads it from
``tests/``.
"""
from __future__ import annotations

import importlib
import importlib.util
import random
import time
from pathlib import Path

from fiveup_solver import _core
from fiveup_solver.types import OptionError

__all__ = ["load_reference", "core_rounds_per_s", "reference_rounds_per_s", "run_playout_bench"]


def load_reference():
    """The independent pure-Python reference module."""
    try:
        return importlib.import_module("fiveup_solver._reference")
    except ImportError:
        pass
    path = Path(__file__).resolve().parent.parent / "tests" / "reference.py"
    if not path.exists():
        raise OptionError("the pure-Python reference is not installed (tests/reference.py not found)")
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
    """Whole random rounds per second for 2, 3 and 4 players, core and reference."""
    reference = load_reference()
    core, ref = {}, {}
    for n in (2, 3, 4):
        core[str(n)] = round(core_rounds_per_s(n, rounds, seed), 1)
        ref[str(n)] = round(reference_rounds_per_s(n, reference_rounds, seed, reference), 1)
    return {"rounds_per_s": core, "reference_rounds_per_s": ref}


def load_suite(path) -> list:
    """Games at the positions of a benchmark suite file (benchmarks/data/*.json)."""
    import json

    from fiveup_solver.game import Game
    from fiveup_solver.record import check_record, game_at
    from fiveup_solver.types import Tile
    with open(path, encoding="utf-8") as f:
        positions = json.load(f)
    games = []
    for p in positions:
        if "scores" not in p:
            games.append(game_at(p["record"], p["round"], p["action"]))
            continue
        # a one-round position that starts from given scores (records always start at 0)
        rnd = check_record(p["record"])["rounds"][0]
        g = Game(players=p["record"]["players"], deal=False)
        g.start_round([[Tile.parse(t) for t in h] for h in rnd["hands"]],
                      [Tile.parse(t) for t in rnd["boneyard"]], rnd["starter"], scores=p["scores"])
        from fiveup_solver.game import action_to_move
        for act in rnd["actions"][: p["action"]]:
            g.push(action_to_move(act))
        games.append(g)
    return games


def _stats(values) -> dict:
    xs = sorted(values)
    n = len(xs)
    return {"median": xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2,
            "p95": xs[min(n - 1, int(0.95 * n))], "max": xs[-1], "mean": sum(xs) / n}


def run_solver_suite(games, mode: str = "value", tt_mb: float = 16, use_tt: bool = True,
                     target_pruning: bool = True) -> dict:
    """Solve every position of a suite with one reusable Solver.

    ``mode``: "value" (the position's value) or "solve" (every move's value and the PV).
    Returns per-position seconds and nodes with medians, 95th percentiles and maxima.
    """
    from fiveup_solver.solver import Solver
    solver = Solver(tt_mb=tt_mb, use_tt=use_tt, target_pruning=target_pruning)
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
            "nodes_per_s": round(sum(nodes) / sum(seconds)), "values": values}
