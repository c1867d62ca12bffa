"""Both currencies (win and points) in one result equal two separate single-currency
searches (issue 24): the seeded win search of a solve (its MTD(f) started from the
points values) and a hint's two searches in one thread dispatch change the work,
never a value.

Speed itself is measured in benchmarks/ (compare_builds.py, cli_solve_speed.py).
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from fiveup_solver import CoreError, _solver
from fiveup_solver.bench import load_suite
from fiveup_solver.hint import Hinter
from fiveup_solver.solver import Solver, set_core_objective, win_probability

from test_hint import positions

DATA = Path(__file__).resolve().parent.parent / "benchmarks" / "data"


def _solvable(name, cap, count):
    """Suite positions whose win and points solves each finish within cap nodes."""
    win = Solver(tt_mb=4, objective="win", both=False, pv=False, node_limit=cap)
    points = Solver(tt_mb=4, objective="points", both=False, pv=False, node_limit=cap)
    out = []
    for g in load_suite(DATA / f"{name}.json"):
        if win.solve(g).exact and points.solve(g).exact:
            out.append(g)
        if len(out) == count:
            break
    return out


@pytest.mark.parametrize("name", ["openings_2p", "openings_4p", "midround", "near_target"])
def test_solve_both_currencies_equal_two_separate_solves(name):
    games = _solvable(name, 400_000, 12)
    assert len(games) >= 8, "too few positions to compare"
    both_p = Solver(tt_mb=4, objective="points", both=True, pv=False)
    both_w = Solver(tt_mb=4, objective="win", both=True, pv=False)
    win = Solver(tt_mb=4, objective="win", both=False, pv=False)
    points = Solver(tt_mb=4, objective="points", both=False, pv=False)
    for g in games:
        w, p = win.solve(g), points.solve(g)
        want_win = {m: win_probability(v) for m, v in w.values.items()}
        for res, main in ((both_p.solve(g), p), (both_w.solve(g), w)):
            assert res.exact
            assert res.values == main.values and res.value == main.value and res.best == main.best
            assert res.points == p.values
            assert res.win == want_win


def test_seeded_solve_also_gives_the_principal_variation_of_its_objective():
    g = _solvable("openings_2p", 200_000, 1)[0]
    for objective in ("win", "points"):
        a = Solver(tt_mb=4, objective=objective, both=True).solve(g)
        b = Solver(tt_mb=4, objective=objective, both=False).solve(g)
        assert a.pv == b.pv and a.values == b.values


def test_any_first_guesses_give_the_same_values():
    """The points values only place MTD(f)'s first test: arbitrary ones (a wrong
    'points solve') change nothing but the node count."""
    rng = random.Random(5)
    core = _solver.SolverCore(4.0)
    for g in _solvable("midround", 100_000, 10):
        set_core_objective(core, "win", g.players)
        plain = core.solve_moves(g.current.core)
        guesses = {m: rng.choice([-1000, -999, -400, -5, 0, 5, 300, 999, 1000]) for m, _ in plain[1]}
        seeded = core.solve_moves(g.current.core, 0, guesses)
        assert seeded[0] == plain[0] and seeded[1] == plain[1] and not seeded[3]


def test_points_values_are_checked():
    core = _solver.SolverCore(1.0)
    g = _solvable("openings_2p", 100_000, 1)[0]
    for bad in ([1, 2], {1: 1001}, {300: 0}, {-1: 0}, {1: 2.5}, {"a": 0}, {1: True}):
        with pytest.raises(CoreError, match="points_values"):
            core.solve_moves(g.current.core, 0, bad)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("beliefs", ["uniform", "model"])
def test_hint_both_currencies_equal_two_separate_hints(players, beliefs):
    """Both currencies of a hint (one dispatch of the threads for the two searches)
    against a hint per currency, with one thread and with two."""
    for threads in (1, 2):
        hinter = Hinter(threads=threads)
        for g, seat in positions(players, 3, seed=60 + players):
            obs = g.observation(seat)
            for objective in ("win", "points"):
                other = "points" if objective == "win" else "win"
                both = hinter.hint(obs, samples=12, seed=9, objective=objective, beliefs=beliefs)
                main = hinter.hint(obs, samples=12, seed=9, objective=objective, beliefs=beliefs, both=False)
                second = hinter.hint(obs, samples=12, seed=9, objective=other, beliefs=beliefs, both=False)
                assert [(m.move, m.value, m.stderr, m.loss, m.loss_stderr) for m in both.moves] == \
                    [(m.move, m.value, m.stderr, m.loss, m.loss_stderr) for m in main.moves]
                by_move = {m.move: m for m in both.moves}
                for m in second.moves:
                    assert getattr(by_move[m.move], other) == m.value
                assert both.samples == main.samples and both.nodes == main.nodes + second.nodes
