"""setup.py's debug build compiles. ``FIVEUP_DEBUG=1`` turns Cython's own checks on, and
``nonecheck`` refused the solver's ``fresh_context`` (a nogil method reading its owner's
field: the check would need the GIL), so the documented debug build did not build at all;
nothing built it until a review did. Cythonizing every module with the debug directives
(no C compiler needed) keeps that from coming back."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "src" / "fiveup_solver"


def _directives(debug: bool) -> dict:
    """setup.py's compiler directives, as its DEBUG switch sets them."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["directives"]:
            return eval(compile(ast.Expression(node.value), "setup.py", "eval"), {"DEBUG": debug})
    raise AssertionError("setup.py sets no `directives`")


def test_every_module_cythonizes_with_the_debug_checks(tmp_path):
    pytest.importorskip("Cython", reason="the test extra installs Cython")
    from Cython.Build import cythonize
    from Cython.Compiler import Errors
    if not SOURCES.is_dir():
        pytest.skip("no source tree here (an installed package)")
    directives = _directives(True)
    assert directives["nonecheck"] and directives["boundscheck"], directives
    modules = sorted(SOURCES.glob("*.pyx"))
    assert len(modules) >= 8
    Errors.init_thread()
    for pyx in modules:
        # one at a time, into tmp_path: the tree's own .c files stay as the release build left them
        out = cythonize([str(pyx)], compiler_directives=directives, build_dir=str(tmp_path),
                        include_path=[str(ROOT / "src")], quiet=True, force=True)
        assert out, pyx.name
