"""A solve cut by its node limit keeps the moves it proved before the cut.

Solver.solve values the root moves one after another; a node limit (or a stop) that
cuts the search at the k-th move used to throw away the k - 1 values already proved.
They are exact values (each move's search finished), so a cut result now holds them:
checked here against an unlimited solve of the same position (whose values the
solver's own tests check against brute force)."""
import random

import pytest

from fiveup_solver import Game
from fiveup_solver.cli import main
from fiveup_solver.solver import Solver


def _positions(players, count, seed=0):
    rng = random.Random(seed)
    for s in range(count):
        g = Game(players=players, seed=s)
        for _ in range(rng.randrange(0, 8)):
            if g.round_over:
                break
            g.push(rng.choice(g.legal_moves))
        if not g.round_over:
            yield g


@pytest.mark.parametrize("players,objective,search", [
    (2, "points", "paranoid"), (2, "win", "paranoid"), (3, "points", "paranoid"), (3, "win", "paranoid"),
    (4, "points", "paranoid"), (4, "win", "paranoid")])
def test_a_cut_solve_keeps_exact_values_of_the_moves_it_proved(players, objective, search):
    proved_some = 0
    for g in _positions(players, 12):
        full = Solver(tt_mb=4, objective=objective, search=search).solve(g)
        for limit in (500, 5_000, 50_000):
            cut = Solver(tt_mb=4, node_limit=limit, objective=objective, search=search).solve(g)
            if cut.exact:
                continue
            assert cut.value is None and cut.best == [] and cut.pv == [] and cut.best_move is None
            assert set(cut.values) <= set(full.values)
            for move, value in cut.values.items():
                assert value == full.values[move]
                assert cut.value_of(move) == value
            mine, other = (cut.win, cut.points) if objective == "win" else (cut.points, cut.win)
            assert set(mine) == set(cut.values) and other == {}
            for move in mine:
                assert mine[move] == (full.win if objective == "win" else full.points)[move]
            proved_some += bool(cut.values)
    assert proved_some >= 1          # (the old code: none ever)


def test_max_n_proves_its_moves_together():
    """3 players under max^n: one root search of every move; a cut proves none of them."""
    cuts = 0
    for g in _positions(3, 8):
        for limit in (500, 5_000):
            cut = Solver(tt_mb=4, node_limit=limit, search="maxn").solve(g)
            if not cut.exact:
                cuts += 1
                assert cut.values == {} and cut.points == {} and cut.vectors == {}
    assert cuts


def test_the_command_line_names_the_moves_proved(tmp_path, capsys):
    g = Game(players=4, seed=2)
    full = Solver(tt_mb=4).solve(g)
    cut = Solver(tt_mb=4, node_limit=20_000).solve(g)
    assert not cut.exact and cut.values
    path = tmp_path / "g.json"
    import json
    path.write_text(json.dumps(g.to_record()))
    assert main(["solve", str(path), "--round", "0", "--action", "0", "--node-limit", "20000", "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    n = len(cut.values)
    assert f"({n} move{'' if n == 1 else 's'} proved before it: " in err
    for move in cut.values:
        assert f"{move} {full.values[move]:+g}" in err
