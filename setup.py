"""Build the Cython core of fiveup_solver.

Compiler directives are set once here. Two build-time switches in the
environment help hunt bugs in the extensions; they check different things:

* ``FIVEUP_DEBUG=1``: Cython's own checks (``boundscheck``, ``wraparound``,
  ``initializedcheck``, ``nonecheck``) and ``-O0 -g``. They apply only to
  Python-level indexing: typed memoryviews and buffers, and Python objects
  (``None`` attribute access, negative indices). They do NOT check raw C
  arrays or struct fields indexed in ``nogil`` code (``p.hand[seat]``,
  ``moves[n]``, ``boneyard[i]``): an out-of-range index there is never caught.
* ``FIVEUP_SANITIZE=1``: compiles and links the extensions with
  AddressSanitizer and UndefinedBehaviorSanitizer
  (``-fsanitize=address,undefined -fno-sanitize-recover=undefined
  -fno-omit-frame-pointer -g -O1 -fno-wrapv``: ``-fno-wrapv`` undoes the
  ``-fwrapv`` in Python's own CFLAGS, which defines signed overflow as wrapping
  and so turns UBSan's signed-overflow check off). ASan catches out-of-bounds reads and
  writes on heap, stack and global C arrays (including the struct fields and
  fixed-size arrays above) and use after free; UBSan catches undefined
  behaviour such as integer division by zero, signed overflow and bad shifts,
  and stops at the first report. The extensions then need the sanitizer
  runtimes preloaded into the Python process: ``benchmarks/sanitize.sh``
  builds a copy of the tree this way and runs the tests under it.

Both may be combined (FIVEUP_DEBUG's Cython checks with the sanitizers' -O1).
"""
import os
import platform

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
SANITIZE = os.environ.get("FIVEUP_SANITIZE", "") not in ("", "0")

# -g0 (last wins over the interpreter's own -g): no debug information in a release build,
# a fifth of the size (the wheel 7.7 MB -> about 2.8 MB); FIVEUP_DEBUG keeps it for debuggers
compile_args = ["-O0", "-g"] if DEBUG else ["-O3", "-g0"]
link_args = []
if platform.machine().lower() in ("x86_64", "amd64"):
    compile_args.append("-mpopcnt")  # tile masks: hardware popcount (every x86-64 CPU since 2008)
if SANITIZE:
    # ASan + UBSan (see the module docstring); the last -O wins over -O3 / -O0
    # -fno-wrapv: Python's own CFLAGS (sysconfig) carry -fwrapv, which makes signed
    # overflow defined, and GCC's -fsanitize=signed-integer-overflow then checks
    # nothing; extra_compile_args come after CFLAGS, so this -fno-wrapv wins
    compile_args += ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined",
                     "-fno-omit-frame-pointer", "-g", "-O1", "-fno-wrapv"]
    link_args += ["-fsanitize=address,undefined"]

extensions = [
    Extension(
        f"fiveup_solver.{name}",
        [f"src/fiveup_solver/{name}.pyx"],
        include_dirs=["src/fiveup_solver"],
        extra_compile_args=compile_args,
        extra_link_args=link_args,
    )
    for name in ("_core", "_solver", "_sampler", "_hint", "_equity", "_beliefs", "_exact", "_alphamu")
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives=directives,
        include_path=["src"],
        language_level=3,
    ),
)
