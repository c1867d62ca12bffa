"""Build the Cython core of fiveup_solver.

Compiler directives are set once here. FIVEUP_DEBUG=1 in the environment turns
bounds checks, wraparound and initialisation checks on (and -O0 -g) for hunting
bugs in the extension.
"""
import os
import platform

from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_py import build_py


class build_py_with_reference(build_py):
    """Ship tests/reference.py (the independent pure-Python rules used by
    ``fiveup bench``) as fiveup_solver/_reference.py in regular installs."""

    def run(self):
        super().run()
        src = Path(__file__).parent / "tests" / "reference.py"
        if src.exists():
            dst = Path(self.build_lib) / "fiveup_solver" / "_reference.py"
            dst.parent.mkdir(parents=True, exist_ok=True)
            self.copy_file(str(src), str(dst))

DEBUG = os.environ.get("FIVEUP_DEBUG", "") not in ("", "0")

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "nonecheck": DEBUG,
    "embedsignature": True,
}
compile_args = ["-O0", "-g"] if DEBUG else ["-O3"]
if platform.machine().lower() in ("x86_64", "amd64"):
    compile_args.append("-mpopcnt")  # tile masks: hardware popcount (every x86-64 CPU since 2008)

extensions = [
    Extension(
        f"fiveup_solver.{name}",
        [f"src/fiveup_solver/{name}.pyx"],
        include_dirs=["src/fiveup_solver"],
        extra_compile_args=compile_args,
    )
    for name in ("_core", "_solver", "_sampler", "_hint")
]

setup(
    cmdclass={"build_py": build_py_with_reference},
    ext_modules=cythonize(
        extensions,
        compiler_directives=directives,
        include_path=["src"],
        language_level=3,
    ),
)
