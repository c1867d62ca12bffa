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
