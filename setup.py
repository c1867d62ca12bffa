"""Build the Cython core of fiveup_solver.

Compiler directives are set once here. FIVEUP_DEBUG=1 in the environment turns
bounds checks, wraparound and initialisation checks on (and -O0 -g) for hunting
bugs in the extension.
"""
import os

from Cython.Build import cythonize
from setuptools import Extension, setup

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

extensions = [
    Extension(
        f"fiveup_solver.{name}",
        [f"src/fiveup_solver/{name}.pyx"],
        include_dirs=["src/fiveup_solver"],
        extra_compile_args=compile_args,
    )
    for name in ("_core",)
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives=directives,
        include_path=["src"],
        language_level=3,
    ),
)
