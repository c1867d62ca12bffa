"""The engine's solver against a pure-Python alpha-beta on the same positions, same run.

    pytest benchmarks/test_bench_solver_vs_python.py --benchmark-enable

The baseline is tests/reference_alphabeta.py: a plain negamax alpha-beta with a
dictionary transposition table on the independent reference rules
(tests/reference.py).  Positions: the first 20 of the `midround` suite; those
whose pure-Python solve needs more than PY_NODE_LIMIT nodes are skipped (and
counted in extra_info["skipped"]).  Both solvers get a fresh table for every
position (a new Solver, built outside the timed region, and a new dict); only
the solve calls are timed.  The values must be identical.
"""
import json
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


def compare(games, states):
    """Solve every position with both solvers; per-position values, nodes and seconds."""
    py, skipped = [], []
    for i, st in enumerate(states):
        t0 = time.perf_counter()
        try:
            value, nodes = AB.solve_value(st, node_limit=PY_NODE_LIMIT)
        except AB.NodeLimit:
            skipped.append(i)
            continue
        py.append((i, value, nodes, time.perf_counter() - t0))
    solvers = {i: Solver() for i, *_ in py}
    cy = []
    for i, *_ in py:
        t0 = time.perf_counter()
        value, nodes = solvers[i].value(games[i])
        cy.append((i, value, nodes, time.perf_counter() - t0))
    return py, cy, skipped


def test_solver_vs_pure_python_alphabeta(benchmark):
    with open(DATA / "midround.json", encoding="utf-8") as f:
        positions = json.load(f)[:N_POSITIONS]
    games = load_suite(DATA / "midround.json")[:N_POSITIONS]
    assert len(games) == len(positions) == N_POSITIONS
    states = [reference_state(p) for p in positions]
    for g, st in zip(games, states):   # the two builds describe the same position
        assert not st.over and st.turn == g.current.core.to_move
        assert list(st.scores) == list(g.scores)

    py, cy, skipped = benchmark.pedantic(compare, args=(games, states), rounds=1, iterations=1)

    assert len(py) + len(skipped) == N_POSITIONS
    assert len(py) >= N_POSITIONS // 2, f"too many positions skipped: {skipped}"
    assert [v for _, v, _, _ in cy] == [v for _, v, _, _ in py]
    py_s = sum(s for *_, s in py)
    cy_s = sum(s for *_, s in cy)
    benchmark.extra_info.update({
        "positions": len(py),
        "skipped": len(skipped),
        "skipped_positions": skipped,
        "python_node_limit": PY_NODE_LIMIT,
        "python_seconds": round(py_s, 6),
        "cython_seconds": round(cy_s, 6),
        "ratio_python_over_cython": round(py_s / cy_s, 1),
        "python_nodes_total": sum(n for _, _, n, _ in py),
        "cython_nodes_total": sum(n for _, _, n, _ in cy),
        "python_nodes_median": _median([n for _, _, n, _ in py]),
        "cython_nodes_median": _median([n for _, _, n, _ in cy]),
        "python_nodes_per_s": round(sum(n for _, _, n, _ in py) / py_s),
        "cython_nodes_per_s": round(sum(n for _, _, n, _ in cy) / cy_s),
    })
