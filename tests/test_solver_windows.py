"""Regression: zero-window searches and node-limited (aborted) searches leave only
sound bounds in the reused transposition table.

The exact value of each position comes from a fresh solver; then one solver
context runs a random sequence of zero-window searches (some cut by tiny node
limits) on the same position, and every completed search must agree with the
exact value about "value >= beta"; a final exact solve with the dirty table
must give the same value. (A bug here once turned a stored lower bound into a
false forced loss.)
"""
import random

import pytest

from fiveup_solver._solver import SolverCore
from fiveup_solver.game import Game
from fiveup_solver.notation import ALL_TILES


def positions(count, seed0):
    out = []
    seed = seed0
    while len(out) < count:
        seed += 1
        rng = random.Random(seed)
        players = (2, 4)[seed % 2]
        tiles = list(ALL_TILES)
        rng.shuffle(tiles)
        scores = [rng.choice(range(200, 305, 5)) if rng.random() < 0.5 else 0 for _ in range(2)]
        g = Game(players=players, deal=False)
        g.start_round([tiles[5 * s: 5 * s + 5] for s in range(players)], tiles[5 * players:],
                      rng.randrange(players), scores=scores)
        left = rng.choice([12, 14, 16])
        while not g.round_over and len(g.boneyard) + sum(len(g.hand(s)) for s in range(players)) > left:
            g.push(rng.choice(g.legal_moves))
        # the window search is from the seat to move: keep positions where it can place now
        if not g.round_over and g.current.core.turn_kind() == "place":
            out.append((seed, g))
    return out


@pytest.mark.parametrize("pruning", [True, False])
@pytest.mark.parametrize("chunk", range(4))
def test_zero_windows_and_aborts_keep_the_table_sound(pruning, chunk):
    for seed, g in positions(25, 1000 * chunk + (0 if pruning else 500)):
        core = g.current.core
        exact = SolverCore(4, True, pruning, 4).value(core)[0]
        assert exact == SolverCore(4, False, False, 4).value(core)[0]
        rng = random.Random(seed)
        dirty = SolverCore(4, True, pruning, rng.choice([0, 4]))
        for _ in range(rng.randrange(2, 10)):
            beta = rng.choice([rng.randrange(-60, 60), 1000, -999, 0, 5, exact, exact + 1])
            limit = rng.choice([0, 0, 20, 100, 1000])
            r, nodes, aborted = dirty.debug_window(core, beta - 1, beta, limit)
            if not aborted:
                assert (r >= beta) == (exact >= beta), (seed, beta, r, exact)
        assert dirty.value(core)[0] == exact, seed


def test_node_limit_gives_no_value_instead_of_a_wrong_one():
    from fiveup_solver.solver import Solver
    g = Game(players=4, seed=3)
    cut = Solver(tt_mb=1, node_limit=50).solve(g)
    assert cut.exact is False and cut.value is None and cut.values == {} and cut.nodes > 50
    full = Solver(tt_mb=1).solve(g)
    assert full.exact is True and full.value == max(full.values.values())
    assert Solver(tt_mb=1, node_limit=50).value(g)[0] is None
