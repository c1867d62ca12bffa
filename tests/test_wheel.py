"""The wheel people install: built, checked, installed into a fresh virtual
environment without Cython, and run there.

Marked ``wheel`` and left out of the default run (pyproject's addopts has
``-m "not wheel"``): compiling the core takes about two minutes. Run it with
``pytest -m wheel``; ``.ci/run`` does, after the README's test command.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.wheel

ROOT = Path(__file__).resolve().parent.parent


def _run(argv, cwd, timeout=900, env=None):
    proc = subprocess.run([str(a) for a in argv], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env=env)
    assert proc.returncode == 0, f"{argv} exited {proc.returncode}:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    """``python -m build``: the sdist, then the wheel built from the sdist."""
    out = tmp_path_factory.mktemp("dist")
    _run([sys.executable, "-m", "build", "--outdir", out, ROOT], cwd=ROOT, timeout=1800)
    wheels, sdists = sorted(out.glob("*.whl")), sorted(out.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1
    return wheels[0], sdists[0]


@pytest.fixture(scope="module")
def installed(dist, tmp_path_factory):
    """A fresh venv (no system site-packages) with the wheel and its dependencies only."""
    home = tmp_path_factory.mktemp("venv")
    venv.create(home, with_pip=True, clear=True)
    bindir = home / ("Scripts" if os.name == "nt" else "bin")
    _run([bindir / "python", "-m", "pip", "install", "--quiet", dist[0]], cwd=home)
    return home, bindir


def test_twine_check_passes(dist):
    proc = _run([sys.executable, "-m", "twine", "check", "--strict", *dist], cwd=ROOT)
    assert proc.stdout.count("PASSED") == 2


def test_the_wheel_ships_the_package_and_its_tables_only(dist):
    names = zipfile.ZipFile(dist[0]).namelist()
    package = [n for n in names if not n.startswith("fiveup_solver-")]
    assert all(n.startswith("fiveup_solver/") for n in package), package
    assert not [n for n in names if "test" in n.lower() or "/rounds_" in n or "benchmarks" in n]
    data = sorted(n for n in package if n.startswith("fiveup_solver/data/"))
    assert data == ["fiveup_solver/data/equity_2p.npz", "fiveup_solver/data/equity_2p_search.npy",
                    "fiveup_solver/data/equity_3p.npz", "fiveup_solver/data/equity_4p.npz",
                    "fiveup_solver/data/equity_4p_search.npy", "fiveup_solver/data/ladder_2p.json",
                    "fiveup_solver/data/ladder_4p.json"]
    for core in ("_core", "_solver", "_sampler", "_hint", "_equity", "_beliefs"):
        assert any(n.startswith(f"fiveup_solver/{core}.") and n.endswith((".so", ".pyd")) for n in package), core
    assert not [n for n in package if n.endswith((".pyx", ".pxd", ".c"))]


def test_the_sdist_holds_the_sources_the_wheel_is_built_from(dist):
    import tarfile
    with tarfile.open(dist[1]) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for name in ("setup.py", "pyproject.toml", "README.md", "CHANGELOG.md", "src/fiveup_solver/_rules.pxd",
                 "src/fiveup_solver/fiveup_tables.h", "src/fiveup_solver/_core.pyx"):
        assert name in names
    assert not [n for n in names if n.endswith((".c", ".so")) or "/rounds_" in n]
    assert not [n for n in names if n.startswith(("tests/", "benchmarks/", "docs/"))]


def test_the_installed_wheel_runs_without_cython(installed, tmp_path):
    home, bindir = installed
    py, fiveup = bindir / "python", bindir / "fiveup"
    env = dict(os.environ, FIVEUP_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("PYTHONPATH", None)
    # the package comes from the venv, not from this checkout, and Cython is absent
    where = _run([py, "-c", "import fiveup_solver, sys; print(fiveup_solver.__file__); "
                            "print(__import__('importlib.util').util.find_spec('Cython'))"], cwd=tmp_path, env=env)
    location, cython = where.stdout.split("\n")[:2]
    assert Path(location).resolve().is_relative_to(home.resolve()) and cython == "None"
    demo = _run([fiveup, "demo"], cwd=tmp_path, env=env)
    assert demo.stdout.startswith("Exact 61 Five Up demo: 2 players, seed 1")
    assert "wins with exactly 305 raw" in demo.stdout or "Unfinished" in demo.stdout
    _run([fiveup, "selfplay", "--players", "2", "--seed", "3", "--bots", "greedy,random", "--out", "g.jsonl"],
         cwd=tmp_path, env=env)
    record = json.loads((tmp_path / "g.jsonl").read_text().splitlines()[0])
    (tmp_path / "g.json").write_text(json.dumps(record))
    starter = record["rounds"][0]["starter"]
    hint = _run([fiveup, "hint", "g.json", "--seat", starter, "--round", "0", "--action", "0",
                 "--samples", "8", "--json"], cwd=tmp_path, env=env)
    moves = json.loads(hint.stdout)["moves"]
    assert len(moves) == 5 and all(0 <= m["win"] <= 1 for m in moves)   # the starter may open with any tile
    # the shipped table's round samples are not in the wheel: a one-line error, no traceback
    proc = subprocess.run([fiveup, "equity", "build", "--players", "2", "--samples"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "source checkout only" in proc.stderr
