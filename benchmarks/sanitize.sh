#!/usr/bin/env bash
# Run the test suite (or any pytest arguments) on an AddressSanitizer +
# UndefinedBehaviorSanitizer build of the four extensions.
#
#   benchmarks/sanitize.sh                      # the whole suite: -q -p no:cacheprovider
#   benchmarks/sanitize.sh tests/test_fuzz.py -x -v
#   benchmarks/sanitize.sh --fuzz [fuzz_campaign.py options]   # the fuzz campaign instead of pytest
#
# What it does:
#   1. copies the source tree (git-tracked files plus untracked, non-ignored
#      ones: the work in progress, never build products) to a fresh directory
#      under /tmp; the checkout itself is never touched;
#   2. builds the extensions there in place with FIVEUP_SANITIZE=1 (setup.py:
#      -fsanitize=address,undefined -fno-sanitize-recover=undefined -g -O1
#      -fno-wrapv);
#   3. runs pytest in that copy with the sanitizer runtimes preloaded.
#
# The python used is $PYTHON, else `python` on PATH. It needs Cython,
# setuptools, pytest, pytest-benchmark and hypothesis (the project's .venv has
# no Cython: pip builds in isolation). For example:
#   python3 -m venv /tmp/fiveup-san-venv
#   /tmp/fiveup-san-venv/bin/pip install 'Cython>=3.0' setuptools wheel pytest pytest-benchmark hypothesis
#   PYTHON=/tmp/fiveup-san-venv/bin/python benchmarks/sanitize.sh
#
# Environment:
#   PYTHON               the interpreter (default: python)
#   FIVEUP_SANITIZE_DIR  build/work directory to use and keep (default: a new
#                        mktemp -d /tmp/fiveup-sanitize.XXXXXX, removed on
#                        success unless FIVEUP_SANITIZE_KEEP=1). Reusing one
#                        directory rebuilds only what changed (files deleted
#                        from the checkout since stay there: start afresh then).
#   FIVEUP_SANITIZE_KEEP=1  keep the temporary directory
#
# Runtime options: LD_PRELOAD=libasan.so:libubsan.so (gcc -print-file-name),
# ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:halt_on_error=1:log_path=...,
# UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1:log_path=...,
# PYTHONMALLOC=malloc (every Python allocation goes through ASan's malloc).
# Leak detection is off: CPython keeps memory alive at exit by design.
#
# Exit status: pytest's, and non-zero (1 at least) whenever a sanitizer wrote a
# report, in pytest's own process or in any subprocess it started (each report
# goes to $WORK/logs/sanitizer.PID and is printed at the end). A sanitizer
# report stops the process at once (abort_on_error=1, halt_on_error=1):
# Python's faulthandler then prints the Python stack, which names the test.
set -uo pipefail

# Everything runs inside main, read whole before it starts: editing this file
# while it runs cannot change what a running copy does.
main() {

    repo=$(cd "$(dirname "$0")/.." && pwd)
    py=${PYTHON:-python}

    fuzz=0
    if [ "${1:-}" = "--fuzz" ]; then
        fuzz=1
        shift
    fi
    if [ $# -eq 0 ] && [ $fuzz -eq 0 ]; then
        set -- -q -p no:cacheprovider
    elif [ $fuzz -eq 0 ]; then
        set -- -p no:cacheprovider "$@"
    fi

    if ! "$py" -c "import Cython, setuptools, pytest, pytest_benchmark, hypothesis" 2>/dev/null; then
        echo "sanitize.sh: $py lacks one of Cython, setuptools, pytest, pytest-benchmark, hypothesis." >&2
        echo "  python3 -m venv /tmp/fiveup-san-venv && /tmp/fiveup-san-venv/bin/pip install 'Cython>=3.0' setuptools wheel pytest pytest-benchmark hypothesis" >&2
        echo "  PYTHON=/tmp/fiveup-san-venv/bin/python $0 $*" >&2
        exit 2
    fi
    libasan=$(gcc -print-file-name=libasan.so)
    libubsan=$(gcc -print-file-name=libubsan.so)
    for lib in "$libasan" "$libubsan"; do
        if [ ! -e "$lib" ]; then
            echo "sanitize.sh: gcc has no $lib (install gcc's libasan/libubsan)" >&2
            exit 2
        fi
    done

    if [ -n "${FIVEUP_SANITIZE_DIR:-}" ]; then
        work=$FIVEUP_SANITIZE_DIR
        keep=1
        mkdir -p "$work"
    else
        work=$(mktemp -d /tmp/fiveup-sanitize.XXXXXX)
        keep=${FIVEUP_SANITIZE_KEEP:-0}
    fi
    work=$(cd "$work" && pwd)
    case "$work/" in
        "$repo"/*) echo "sanitize.sh: the work directory must be outside the checkout ($work)" >&2; exit 2 ;;
    esac
    tree=$work/tree
    logs=$work/logs
    mkdir -p "$tree"
    rm -rf "$logs"
    mkdir -p "$logs"

    # 1. the source tree: tracked + untracked non-ignored files that exist now
    (
        cd "$repo" &&
        git ls-files -co --exclude-standard -z |
        while IFS= read -r -d '' f; do
            if [ -f "$f" ]; then printf '%s\0' "$f"; fi
        done |
        tar --null -T - -cf -
    ) | tar -C "$tree" -xf - || { echo "sanitize.sh: copying the tree failed" >&2; exit 2; }

    # 2. the sanitizer build, in place in the copy
    echo "sanitize.sh: building in $tree (log: $work/build.log)" >&2
    if ! (cd "$tree" && FIVEUP_SANITIZE=1 "$py" setup.py build_ext --inplace -j 2) >"$work/build.log" 2>&1; then
        tail -n 40 "$work/build.log" >&2
        echo "sanitize.sh: the sanitizer build failed (full log: $work/build.log)" >&2
        exit 2
    fi
    for so in "$tree"/fiveup_solver/_core*.so "$tree"/fiveup_solver/_solver*.so \
              "$tree"/fiveup_solver/_sampler*.so "$tree"/fiveup_solver/_hint*.so \
              "$tree"/fiveup_solver/_equity*.so "$tree"/fiveup_solver/_beliefs*.so; do
        if ! [ -f "$so" ] || ! ldd "$so" 2>/dev/null | grep libasan >/dev/null; then
            echo "sanitize.sh: $so is missing or not linked with ASan" >&2
            exit 2
        fi
    done

    # 3. run it with the runtimes preloaded (ASan must come first)
    export LD_PRELOAD="$libasan:$libubsan"
    export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:halt_on_error=1:log_path=$logs/sanitizer"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:abort_on_error=1:log_path=$logs/sanitizer"
    export PYTHONMALLOC=malloc          # every Python allocation through ASan's malloc, no pymalloc arenas
    # With ASan loaded, libubsan ignores UBSAN_OPTIONS' log_path and writes to fd 2,
    # which pytest captures and loses when the process aborts (and a subprocess's
    # report could be swallowed by a test that only expects a failure). Every
    # Python process started from here (pytest, its CLI subprocesses, the fuzz
    # workers) sets libubsan's report path itself, through this sitecustomize.
    mkdir -p "$work/site"
    cat >"$work/site/sitecustomize.py" <<'PY'
import os as _os
if _os.environ.get("FIVEUP_UBSAN_LIB") and _os.environ.get("FIVEUP_SANITIZER_LOG"):
    import ctypes as _ctypes
    _ctypes.CDLL(_os.environ["FIVEUP_UBSAN_LIB"]).__sanitizer_set_report_path(
        _os.environ["FIVEUP_SANITIZER_LOG"].encode())
PY
    export FIVEUP_UBSAN_LIB="$libubsan"
    export FIVEUP_SANITIZER_LOG="$logs/sanitizer"
    export PYTHONPATH="$tree:$work/site${PYTHONPATH:+:$PYTHONPATH}"
    export PYTHONDONTWRITEBYTECODE=1
    export PYTHONFAULTHANDLER=1
    export FIVEUP_SANITIZED=1           # lets the fuzz campaign know where it runs

    where=$(cd "$tree" && "$py" -c "import fiveup_solver._core as c; print(c.__file__)" 2>&1)
    case "$where" in
        "$tree"/*) ;;
        *) echo "sanitize.sh: the copy's build is not the one imported: $where" >&2; exit 2 ;;
    esac

    cd "$tree"
    if [ $fuzz -eq 1 ]; then
        echo "sanitize.sh: $py benchmarks/fuzz_campaign.py --sanitized $*" >&2
        "$py" benchmarks/fuzz_campaign.py --sanitized "$@"
    else
        echo "sanitize.sh: $py -m pytest $*" >&2
        "$py" -m pytest "$@"
    fi
    rc=$?

    reports=$(find "$logs" -type f -name 'sanitizer*' -size +0 2>/dev/null | sort)
    if [ -n "$reports" ]; then
        n=0
        for f in $reports; do
            n=$((n + 1))
            if [ $n -le 10 ]; then
                echo "===== sanitizer report $f" >&2
                cat "$f" >&2
            else
                echo "===== sanitizer report $f: $(grep -m1 -E 'ERROR: |runtime error' "$f")" >&2
            fi
        done
        echo "sanitize.sh: $n sanitizer report(s) in $logs; exit status $rc; kept $work" >&2
        [ $rc -eq 0 ] && rc=1
        exit $rc
    fi
    if [ $rc -gt 128 ]; then
        echo "sanitize.sh: killed by signal $((rc - 128)); kept $work" >&2
        exit $rc
    fi
    if [ $rc -ne 0 ] || [ "$keep" = 1 ]; then
        echo "sanitize.sh: exit status $rc; kept $work" >&2
    else
        rm -rf "$work"
    fi
    exit $rc
}

main "$@"
exit $?
