"""The engine's solver against a pure-Python alpha-beta on the same positions, same run.

    pytest benchmarks/test_bench_solver_vs_python.py --benchmark-enable

The baseline is tests/reference_alphabeta.py: a plain negamax alpha-beta with a
dictionary transposition table on the independent reference rules
(tests/reference.py).  Positions: the first 20 of the `midround` suite; those
whose pure-Python solve needs more than PY_NODE_LIMIT nodes are skipped (and
counted in extra_info["skipped"]).  Both solvers get a fresh table for every
position (one Solver built outside the timed region, ``forget`` before each
position, and a new dict); only the solve calls are timed, after an untimed
warm-up.  ``REPS`` passes of both, which one first alternating by pass: the
ratio is the median of the passes' own ratios, with its range.  The values must
be identical.
"""
import json
import statistics
import time

import reference as R
import reference_alphabeta as AB
from conftest import DATA
from fiveup_solver.bench import load_suite
from fiveup_solver.solver import Solver

N_POSITIONS = 20
PY_NODE_LIMIT = 200_000


def reference_state(position) -> R.RoundState:
    """The position as a reference RoundState, built from the suite file alone."""
    record = position["record"]
    if "scores" not in position:
        return R.state_at(record, position["round"], position["action"])
    rnd = record["rounds"][0]   # a one-round position with given start scores
    st = R.RoundState(record["players"], rnd["hands"], rnd["boneyard"], rnd["starter"],
                      list(position["scores"]))
    for a in rnd["actions"][: position["action"]]:
        st.apply(a)
    return st


def _median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


REPS = 3


def python_pass(states, only=None):
    """The pure-Python solve of every position (of `only`, if given): (i, value, nodes,
    seconds) each, and the positions over PY_NODE_LIMIT nodes."""
    py, skipped = [], []
    for i, st in enumerate(states):
        if only is not None and i not in only:
            continue
        t0 = time.perf_counter()
        try:
            value, nodes = AB.solve_value(st, node_limit=PY_NODE_LIMIT)
        except AB.NodeLimit:
            skipped.append(i)
            continue
        py.append((i, value, nodes, time.perf_counter() - t0))
    return py, skipped


def cython_pass(games, indices, solver):
    """The engine's solve of each position, as a new Solver's (``forget``, untimed, before
    each: the same values and nodes as a fresh table; the Solver is built before the pass)."""
    cy = []
    for i in indices:
        solver.forget()
        t0 = time.perf_counter()
        value, nodes = solver.value(games[i])
        cy.append((i, value, nodes, time.perf_counter() - t0))
    return cy


def compare(games, states, solver, reps=REPS):
    """``reps`` passes of both solvers over the positions, which one first alternating by
    pass (drift hits both); per pass the total seconds of each and their ratio. The
    first Python pass decides which positions are skipped (deterministic)."""
    passes, skipped, py, cy, indices = [], None, None, None, None
    for k in range(reps):
        order = ("py", "cy") if k % 2 == 0 else ("cy", "py")
        if indices is None:       # the first pass: Python first, to know the positions
            order = ("py", "cy")
        for side in order:
            if side == "py":
                py, sk = python_pass(states, only=indices)
                if skipped is None:
                    skipped, indices = sk, {i for i, *_ in py}
            else:
                cy = cython_pass(games, sorted(indices), solver)
        py_s, cy_s = sum(s for *_, s in py), sum(s for *_, s in cy)
        passes.append({"python_seconds": py_s, "cython_seconds": cy_s, "ratio": py_s / cy_s})
    return py, cy, skipped, passes


def test_solver_vs_pure_python_alphabeta(benchmark):
    with open(DATA / "midround.json", encoding="utf-8") as f:
        positions = json.load(f)[:N_POSITIONS]
    games = load_suite(DATA / "midround.json")[:N_POSITIONS]
    assert len(games) == len(positions) == N_POSITIONS
    states = [reference_state(p) for p in positions]
    for g, st in zip(games, states):   # the two builds describe the same position
        assert not st.over and st.turn == g.current.core.to_move
        assert list(st.scores) == list(g.scores)
    # outside the timed region: the Solver (a review found 20 Solvers built inside it were
    # most of the benchmark's time), and a warm-up of both solvers
    solver = Solver()
    cython_pass(games, range(N_POSITIONS), solver)
    python_pass(states[:1])

    py, cy, skipped, passes = benchmark.pedantic(compare, args=(games, states, solver), rounds=1, iterations=1)

    assert len(py) + len(skipped) == N_POSITIONS
    assert len(py) >= N_POSITIONS // 2, f"too many positions skipped: {skipped}"
    assert [v for _, v, _, _ in cy] == [v for _, v, _, _ in py]
    ratios = sorted(p["ratio"] for p in passes)
    py_s = statistics.median(p["python_seconds"] for p in passes)
    cy_s = statistics.median(p["cython_seconds"] for p in passes)
    benchmark.extra_info.update({
        "positions": len(py),
        "skipped": len(skipped),
        "skipped_positions": skipped,
        "python_node_limit": PY_NODE_LIMIT,
        "passes": len(passes),
        "python_seconds_median": round(py_s, 6),
        "cython_seconds_median": round(cy_s, 6),
        # the median of the passes' own ratios, with its range (the machines are shared)
        "ratio_python_over_cython": round(statistics.median(ratios), 1),
        "ratio_python_over_cython_range": [round(ratios[0], 1), round(ratios[-1], 1)],
        "python_nodes_total": sum(n for _, _, n, _ in py),
        "cython_nodes_total": sum(n for _, _, n, _ in cy),
        "python_nodes_median": _median([n for _, _, n, _ in py]),
        "cython_nodes_median": _median([n for _, _, n, _ in cy]),
        "python_nodes_per_s": round(sum(n for _, _, n, _ in py) / py_s),
        "cython_nodes_per_s": round(sum(n for _, _, n, _ in cy) / cy_s),
    })
