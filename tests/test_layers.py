"""The layers of fiveup_solver (docs/architecture.md): the import-linter contract in
pyproject.toml holds, places every module, and fails on an upward import (one inside
a function included); the package root is imported only for submodules; and the
Cython modules cimport only downward."""
from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
try:
    import tomllib
except ImportError:     # Python 3.10: tomli is tomllib before 3.11 (the test extra installs it there)
    import tomli as tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "fiveup_solver"
SRC = ROOT / "src" / "fiveup_solver"
CONTRACT = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]

# The compiled core, lowest first: a .pyx/.pxd may cimport only from a line above its own
# (the .pxd order: _rules holds the rules; _core owns rounds; the searches build on both).
CYTHON_LAYERS = [
    ("_rules",),
    ("_core", "_sampler", "_equity"),
    ("_solver", "_beliefs"),
    ("_hint", "_exact", "_alphamu"),
]

lint_imports = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
needs_linter = pytest.mark.skipif(lint_imports is None, reason="import-linter is in the [test] extra")


def _layer_of() -> dict:
    (contract,) = CONTRACT["contracts"]
    return {m.strip(): i for i, line in enumerate(reversed(contract["layers"])) for m in re.split(r"[|:]", line)}


def _lint(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run([lint_imports, "--no-cache"], cwd=root, capture_output=True, text=True, timeout=300)


def test_every_module_has_a_layer():
    """A new module gets a place in the contract (the contract says nothing about modules it does not list)."""
    modules = {p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    assert modules == set(_layer_of())


@needs_linter
def test_the_layers_contract_is_kept():
    r = _lint(ROOT)
    assert r.returncode == 0 and "1 kept, 0 broken" in r.stdout, r.stdout[-3000:] + r.stderr[-2000:]


@needs_linter
@pytest.mark.parametrize("low, high", [("game", "cli"), ("notation", "game"), ("beliefs", "hint")])
def test_an_upward_import_inside_a_function_breaks_the_contract(tmp_path, low, high):
    """The contract counts imports inside functions: one added to a copy of the package fails it."""
    shutil.copytree(PACKAGE, tmp_path / "fiveup_solver", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    assert _lint(tmp_path).returncode == 0          # the copy alone keeps it
    with open(tmp_path / "fiveup_solver" / f"{low}.py", "a") as f:
        f.write(f"\n\ndef _upward():\n    from fiveup_solver import {high}\n    return {high}\n")
    r = _lint(tmp_path)
    assert r.returncode != 0 and f"fiveup_solver.{low} is not allowed to import fiveup_solver.{high}" in r.stdout


def test_the_package_root_is_imported_only_for_submodules():
    """`from fiveup_solver import X` inside the package names a module (Python or compiled): the
    contract ignores imports of the package root, so a name re-exported there (Game, Move, ...)
    would hide an upward import."""
    submodules = {p.stem for p in PACKAGE.glob("*.py")} | {p.stem for p in SRC.glob("*.pyx")} | {"__version__"}
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "fiveup_solver":
                names = {a.name for a in node.names}
                assert names <= submodules, f"{path.name}:{node.lineno} imports {names - submodules} from the root"
            if isinstance(node, ast.ImportFrom) and node.level > 0:
                pytest.fail(f"{path.name}:{node.lineno}: a relative import (the package uses absolute ones)")


def _cimports(path: Path) -> set:
    return _cimports_text(path.read_text())


def test_cython_cimports_point_down():
    rank = {m: i for i, line in enumerate(CYTHON_LAYERS) for m in line}
    files = sorted(SRC.glob("*.pyx")) + sorted(SRC.glob("*.pxd"))
    assert {p.stem for p in files} == set(rank), "a new Cython module needs a place in CYTHON_LAYERS"
    seen = 0
    for path in files:
        for target in _cimports(path):
            seen += 1
            assert target in rank, f"{path.name} cimports {target}, which has no layer"
            assert rank[target] < rank[path.stem], f"{path.name} cimports {target}, not below it"
    assert seen >= 10     # the scan reads the cimports (a changed syntax would make it read none)


def test_cimport_scan_reads_both_forms():
    assert _cimports_text("from fiveup_solver._core cimport CoreRound\n    cimport fiveup_solver._rules\n") \
        == {"_core", "_rules"}


def _cimports_text(text: str) -> set:
    return set(re.findall(r"^\s*from\s+fiveup_solver\.(\w+)\s+cimport", text, re.M)) \
        | set(re.findall(r"^\s*cimport\s+fiveup_solver\.(\w+)", text, re.M))


def test_moved_names_still_import_from_their_old_modules():
    """Public names that moved up a layer keep working from where a user imported them."""
    from fiveup_solver import beliefs, equity, equity_build, inference, policies, record
    assert beliefs.model_hint_bot is policies.model_hint_bot
    assert beliefs.past_evidence is inference.past_evidence and beliefs.deals_from is inference.deals_from
    assert beliefs.past_observations is record.past_observations
    assert equity.collect_samples is equity_build.collect_samples
    assert equity.play_sample_round is equity_build.play_sample_round
    from fiveup_solver.inference import check_observation
    from fiveup_solver.record import check_action
    from fiveup_solver.game import check_observation as game_check
    from fiveup_solver.notation import check_action as notation_check
    assert check_observation is game_check and check_action is notation_check
    with pytest.raises(AttributeError):
        beliefs.no_such_name


def test_one_home_for_the_int_and_player_count_checks():
    """`is_int` and the player-count check live in errors.py; no module keeps its own copy."""
    pattern = re.compile(r"def _is_int\b|not in \(2, 3, 4\)|isinstance\((\w+), bool\) or not isinstance\(\1, int\)"
                         r"|not isinstance\((\w+), int\) or isinstance\(\2, bool\)")
    for path in PACKAGE.glob("*.py"):
        if path.name == "errors.py":
            continue
        for i, line in enumerate(path.read_text().splitlines(), 1):
            m = pattern.search(line)
            if m:
                pytest.fail(f"{path.name}:{i}: use errors.is_int / errors.check_players: {line.strip()}")


# Imports a function may make where it is used: the optional extras (and what only they
# need), a POSIX-only module, the process pool (only local parallel runs start one) and
# the compatibility re-exports of moved names.
LAZY_ALLOWED = {"matplotlib", "cairosvg", "ray", "pyspiel", "gymnasium", "pettingzoo", "uvicorn", "rich",
                "fiveup_solver.serve", "fiveup_solver.pettingzoo", "fiveup_solver.openspiel", "resource",
                "ipaddress", "sys", "webbrowser", "concurrent.futures", "multiprocessing",
                "readline"}     # (line editing for a person at a terminal only: importing it changes input())
LAZY_REEXPORTS = {("beliefs.py", "fiveup_solver"), ("equity.py", "fiveup_solver")}
# The command line's commands import their own modules (cli.build_parser): a run loads what
# its command needs (test_a_command_loads_only_its_own_modules in tests/test_cli_startup.py).
LAZY_FILES = {"cli.py"}


def test_imports_inside_functions_are_only_optional_extras():
    """Imports sit at the top of the files: only the optional extras, what only the web
    server needs, POSIX-only `resource`, the terminal's `readline` and the moved names'
    re-exports stay lazy."""
    lazy = re.compile(r"^\s+(?:import ([\w.]+)|from ([\w.]+) import)")
    for path in PACKAGE.glob("*.py"):
        if path.name in LAZY_FILES:
            continue
        top_try = False     # inside a `try:` at the top of the file: imports there are top imports
        for i, line in enumerate(path.read_text().splitlines(), 1):
            if line.startswith("try:"):
                top_try = True
            elif line[:1].strip() and not line.startswith(("except", "else:", "finally:")):
                top_try = False
            m = lazy.match(line)
            if not m or (top_try and re.match(r"    \S", line)):
                continue
            module = m.group(1) or m.group(2)
            root = module.split(".")[0]
            if module in LAZY_ALLOWED or root in LAZY_ALLOWED or (path.name, module) in LAZY_REEXPORTS:
                continue
            pytest.fail(f"{path.name}:{i}: import at the top of the file: {line.strip()}")
