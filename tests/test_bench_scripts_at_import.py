"""The README's test command collects benchmarks/ with --doctest-modules, so every script
there is imported by the tests. A script that did its work at import ran it inside the test
run: benchmarks/pair_interval_coverage.py swapped the package's pair-interval rule while it
simulated, and the clean-clone CI's match tests then failed. A script's top level holds
imports, definitions, assignments and its ``if __name__ == "__main__":`` guard only."""
from __future__ import annotations

import ast
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"

# top-level calls that are set-up, not work: the import path, and the bots beliefs_match
# registers by name so that worker processes find them
ALLOWED_CALLS = ("sys.path.insert(", "_bots.BOTS.setdefault(")


def _work_at_import(path: Path) -> list:
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                             ast.Assign, ast.AnnAssign, ast.Try)):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue                                    # the docstring
        if isinstance(node, ast.If) and "__name__" in ast.unparse(node.test):
            continue
        text = ast.unparse(node)
        if isinstance(node, ast.Expr) and text.startswith(ALLOWED_CALLS):
            continue
        found.append(f"{path.name}:{node.lineno}: {text.splitlines()[0][:80]}")
    return found


def test_benchmark_scripts_do_no_work_at_import():
    scripts = sorted(BENCHMARKS.glob("*.py"))
    assert len(scripts) > 40
    assert [w for p in scripts for w in _work_at_import(p)] == []


def test_the_check_finds_a_loop_at_the_top_level(tmp_path):
    script = tmp_path / "loop.py"
    script.write_text('"""A script."""\nimport sys\nfor k in range(3):\n    print(k)\nmain()\n')
    assert _work_at_import(script) == ["loop.py:3: for k in range(3):", "loop.py:5: main()"]
