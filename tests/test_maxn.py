"""Max^n for 3 players (issue 21, item 3) against the plain Python oracle.

The oracle (tests/reference_maxn.py) is plain max^n on the independent
reference rules (tests/reference.py): no pruning, no table, its own value
definition and tie-break. Positions are seeded random 3-player deals played at
random until few tiles are left and the whole tree is small. The C search is
checked with its table (forced on at every depth: tt_min_tiles=0), without it,
and without pruning, under both objectives; every side's entry of every move's
vector is compared, not only the mover's.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

try:
    from . import reference as R
    from . import reference_maxn as X
    from . import reference_minimax as M
    from .positions import build_game, build_reference, choices, random_deal, random_scores, tiles_left
except ImportError:  # tests/ is not a package
    import reference as R
    import reference_maxn as X
    import reference_minimax as M
    from positions import build_game, build_reference, choices, random_deal, random_scores, tiles_left

from fiveup_solver.equity import EquityTable
from fiveup_solver.errors import OptionError
from fiveup_solver.game import Game
from fiveup_solver.solver import Solver

CAP = 8000          # states of the oracle's tree


def _position(name, mode):
    """A small 3-player position seeded by `name` (scores all 0, or near 305)."""
    rng = random.Random(name)
    for _ in range(400):
        hands, boneyard, starter, scores, st = random_deal(rng, 3, random_scores(rng, 3, mode, low=265))
        stop = rng.randint(6, 12)
        actions = []
        while not st.over:
            if tiles_left(st) <= stop and choices(st) >= 2:
                try:
                    M.tree_size(st, CAP)
                except M.TooBig:
                    pass
                else:
                    return {"name": name, "players": 3, "hands": hands, "boneyard": boneyard,
                            "starter": starter, "scores": scores, "actions": actions}
            a = rng.choice(st.legal_actions())
            st.apply(a)
            actions.append(a)
    raise RuntimeError(name)


POSITIONS = [_position(f"maxn-{mode}-{i}", mode) for mode in ("zero", "near") for i in range(14)]


def _table(seed):
    """A 3-player table with random win probabilities: every leaf distinct, so a wrong lookup shows."""
    rng = np.random.default_rng(seed)
    w = rng.dirichlet(np.ones(3), size=(61,) * 3 + (3,))
    return EquityTable(3, w, 0, "random", seed)


_ORACLE = {}


def oracle(spec, objective, table=None):
    key = (spec["name"], objective)
    if key not in _ORACLE:
        _ORACLE[key] = X.move_vectors(build_reference(spec), objective, None if table is None else table.win)
    return _ORACLE[key]


VARIANTS = {"table": dict(use_tt=True, tt_min_tiles=0), "no-table": dict(use_tt=False),
            "no-pruning": dict(use_tt=True, tt_min_tiles=0, target_pruning=False), "default": {}}


@pytest.mark.parametrize("spec", POSITIONS, ids=lambda s: s["name"])
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_points_vectors_match_oracle(spec, variant):
    want = oracle(spec, "points")
    res = Solver(tt_mb=1, search="maxn", objective="points", both=False, **VARIANTS[variant]).solve(build_game(spec))
    got = {m: tuple(v) for m, v in res.vectors.items()}
    assert got == want, spec
    seat = res.seat
    assert res.values == {m: v[seat] for m, v in want.items()}
    assert res.value == max(v[seat] for v in want.values())
    assert res.search == "maxn"


@pytest.mark.parametrize("spec", POSITIONS, ids=lambda s: s["name"])
@pytest.mark.parametrize("variant", ["table", "no-table", "no-pruning"])
def test_win_vectors_match_oracle(spec, variant):
    table = _table(hash(spec["name"]) & 0xFFFF)
    want = oracle(spec, "win", table)
    res = Solver(tt_mb=1, search="maxn", objective="win", both=False, equity=table,
                 **VARIANTS[variant]).solve(build_game(spec))
    assert {m: tuple(v) for m, v in res.vectors.items()} == want, spec
    assert res.value == max(v[res.seat] for v in want.values())


def test_principal_variation_follows_the_tie_break():
    """Every step of the max^n principal variation is a move whose vector is the
    oracle's choice at that step."""
    for spec in POSITIONS[:6]:
        game = build_game(spec)
        res = Solver(tt_mb=1, search="maxn", objective="points", both=False).solve(game)
        st = build_reference(spec)
        for move in res.pv:
            if st.over:
                break
            want = X.root_vector(st, "points")
            vecs = X.move_vectors(st, "points")
            assert vecs[move] == want, (spec["name"], move)
            st = M.forced_draws(st)
            act = next(a for a in st.legal_actions() if M.move_string(a) == move)
            st.apply(act)


# ------------------------------------------------------------ expectimax (draws as chance nodes)
def _exp_position(name, mode):
    """A small 3-player position whose seat to move can place, with at most 3 tiles in
    the boneyard (the oracle's chance tree stays small)."""
    rng = random.Random(name)
    for _ in range(400):
        hands, boneyard, starter, scores, st = random_deal(rng, 3, random_scores(rng, 3, mode, low=265))
        stop = rng.randint(6, 10)
        actions = []
        while not st.over:
            acts = st.legal_actions()
            if (tiles_left(st) <= stop and len(st.boneyard_left()) <= 3 and "play" in acts[0]
                    and len(acts) >= 2):
                try:
                    M.tree_size(st, 2500)
                except M.TooBig:
                    pass
                else:
                    return {"name": name, "players": 3, "hands": hands, "boneyard": boneyard,
                            "starter": starter, "scores": scores, "actions": actions}
            a = rng.choice(acts)
            st.apply(a)
            actions.append(a)
    raise RuntimeError(name)


EXP_POSITIONS = [_exp_position(f"maxn-exp-{mode}-{i}", mode) for mode in ("zero", "near") for i in range(8)]


@pytest.mark.parametrize("spec", EXP_POSITIONS, ids=lambda s: s["name"])
@pytest.mark.parametrize("objective", ["points", "win"])
def test_expectimax_maxn_matches_oracle(spec, objective):
    from fiveup_solver.hint import world_values
    table = _table(7) if objective == "win" else None
    st = build_reference(spec)
    assert st.boneyard_left() or True
    want = X.expectimax_move_vectors(st, objective, None if table is None else table.win)
    seat = st.turn
    game = build_game(spec)
    if objective == "win":
        # world_values reads the shipped table: compare under the random one through a core
        from fiveup_solver import _core, _hint, _solver
        core = game.current.core
        legal = [m for m in game.legal_moves if m.kind == "play"]
        canon = [_core.canonical_of(*m.placement) for m in legal]
        roots = sorted(set(canon))
        search = _hint.WorldSearch(core, None, (), roots, _hint.EXPECTIMAX, 2 ** 62, 28, 0, 1, 1, 0.0)
        sc = _solver.SolverCore(1.0)
        sc.set_objective(_solver.WIN_OBJECTIVE, table.search_values(), 3)
        sc.set_search(1)
        values = search.value_world(sc, [core.hand(s) for s in range(3)], core.boneyard_left)[3]
        got = {str(m): values[roots.index(c)] for m, c in zip(legal, canon)}
    else:
        got = {str(m): v for m, v in world_values(game, method="expectimax", chance_width=28, objective=objective,
                                                  search="maxn").items()}
    assert got == {m: v[seat] for m, v in want.items()}, spec


@pytest.mark.parametrize("spec", [p for p in POSITIONS if not build_reference(p).boneyard_left()
                                  and "play" in M.forced_draws(build_reference(p)).legal_actions()[0]][:6],
                         ids=lambda s: s["name"])
def test_empty_boneyard_expectimax_pimc_and_solver_agree(spec):
    """No draw is left: max^n expectimax, max^n PIMC and the max^n solver give the same values."""
    from fiveup_solver.hint import world_values
    game = build_game(spec)
    ex = {str(m): v for m, v in world_values(game, method="expectimax", search="maxn").items()}
    pimc = {str(m): v for m, v in world_values(game, method="pimc", search="maxn").items()}
    solved = Solver(search="maxn", both=False).solve(build_game(spec)).values
    assert ex == pimc == solved, spec
