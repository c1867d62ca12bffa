"""The engine's solver against a pure-Python alpha-beta on the same positions, same run.

    pytest benchmarks/test_bench_solver_vs_python.py --benchmark-enable

The baseline is tests/reference_alphabeta.py: a plain negamax alpha-beta with a
dictionary transposition table on the independent reference rules
(tests/reference.py).  Positions: the first 20 of the `midround` suite; those
whose pure-Python solve needs more than PY_NODE_LIMIT nodes are skipped (and
counted in extra_info["skipped"]).  The measurement is
:func:`fiveup_solver.bench.solver_against_python` (``fiveup bench --solver
--python`` runs the same): both solvers get a fresh table for every position
(one Solver built outside the timed region, ``forget`` before each position,
and a new dict); only the solve calls are timed, after an untimed warm-up.
``REPS`` passes of both, which one first alternating by pass: the ratio is the
median of the passes' own ratios, with its range.  The values must be identical.
"""
import json

import reference as R
import reference_alphabeta as AB
from conftest import DATA
from fiveup_solver.bench import load_suite, solver_against_python

N_POSITIONS = 20
PY_NODE_LIMIT = 200_000
REPS = 3


def test_solver_vs_pure_python_alphabeta(benchmark):
    path = DATA / "midround.json"
    with open(path, encoding="utf-8") as f:
        positions = json.load(f)[:N_POSITIONS]
    games = load_suite(path)[:N_POSITIONS]
    assert len(games) == len(positions) == N_POSITIONS
    for g, p in zip(games, positions):   # the two builds describe the same position
        if "scores" not in p:
            st = R.state_at(p["record"], p["round"], p["action"])
            assert not st.over and st.turn == g.current.core.to_move and list(st.scores) == list(g.scores)

    res = benchmark.pedantic(solver_against_python, args=(path,),
                             kwargs={"positions": N_POSITIONS, "passes": REPS, "node_limit": PY_NODE_LIMIT,
                                     "games": games, "alphabeta": AB}, rounds=1, iterations=1)

    assert res["positions"] + res["skipped"] == N_POSITIONS
    assert res["positions"] >= N_POSITIONS // 2, f"too many positions skipped: {res['skipped']}"
    assert res["values_identical"]
    benchmark.extra_info.update({
        "positions": res["positions"],
        "skipped": res["skipped"],
        "python_node_limit": PY_NODE_LIMIT,
        "passes": res["passes"],
        "python_seconds_median": res["python_seconds"],
        "cython_seconds_median": res["solver_seconds"],
        # the median of the passes' own ratios, with its range (the machines are shared)
        "ratio_python_over_cython": res["ratio"]["median"],
        "ratio_python_over_cython_range": [res["ratio"]["min"], res["ratio"]["max"]],
        "python_nodes_total": res["python_nodes"],
        "cython_nodes_total": res["solver_nodes"],
        "python_nodes_per_s": round(res["python_nodes"] / res["python_seconds"]),
        "cython_nodes_per_s": round(res["solver_nodes"] / res["solver_seconds"]),
    })
