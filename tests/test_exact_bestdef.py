"""The best-defence yardstick in C (``_exact.defence_search``) against the Python search it
replaces (``exact._Search.front``, kept as the oracle): the same fronts, values and node
counts on seeded positions whose trees hold every kind of node, the same refusals at every
node limit, and its checks of what a caller hands it."""
from __future__ import annotations

import itertools
import math

import pytest

from fiveup_solver import Game, _core, _exact
from fiveup_solver import exact as E
from fiveup_solver.errors import CoreError
from fiveup_solver.exact import SearchLimitError, exact_result

try:
    from .test_exact import iter_late_positions, late_positions
except ImportError:
    from test_exact import iter_late_positions, late_positions

# Late 2-player positions (seeded) with hidden worlds and draws still to come: what the
# yardstick solves against best defence in well under a second in Python.
POSITIONS = [p for p in late_positions(14, bone_max=4, hand_max=5, seed=300)
             if exact_result(p[0].observation(p[1]), opponent="best-defence", engine="c").nodes < 30_000]


def _searches(obs, objective, minimax=True):
    """(Python _Search, C _Search, root node, root moves) of one observation."""
    from fiveup_solver.inference import DealSampler
    ds = DealSampler(obs)
    base = ds.replayed
    own = sum(1 << t for t in base.hand(obs.seat))
    node = E._normalised([(_exact.world_position(base, [own if s == obs.seat else h[s] for s in range(2)], bone), p)
                          for h, bone, p in ds.exact_worlds(E.DEFAULT_MAX_WORLDS)], 1.0)
    make = lambda: E._Search(2, obs.seat, tuple(base.scores), objective, "best-defence", E.DEFAULT_NODE_LIMIT,
                             minimax)
    return make(), make(), node, [m for m, _, _ in _exact.moves(node[0][0])]


def test_the_positions_have_hidden_worlds_and_draws_to_come():
    assert len(POSITIONS) >= 10
    results = [exact_result(g.observation(s), opponent="best-defence") for g, s in POSITIONS]
    assert sum(r.worlds > 1 for r in results) >= 6 and max(r.worlds for r in results) >= 5
    assert sum(len(g.boneyard) > 0 for g, _ in POSITIONS) >= 6


@pytest.mark.parametrize("minimax", [True, False])
@pytest.mark.parametrize("objective", ["points", "win"])
def test_the_c_fronts_equal_the_python_fronts_and_every_kind_of_node_occurs(objective, minimax):
    stats_total = dict.fromkeys(_exact.STAT_NAMES, 0)
    for g, seat in POSITIONS:
        py, c, node, roots = _searches(g.observation(seat), objective, minimax)
        fronts, stats = E._defence_c(c, node, roots)
        for m in roots:
            want = py.sub([_exact.place_move(pos, m) for pos, _ in node])
            got = fronts[m]
            # the same set of vectors (the C front is in reduction order, Python's sorted)
            assert sorted(got) == want
        assert (c.nodes, c.belief_states) == (py.nodes, len(py.memo))
        assert sum(v for k, v in stats.items() if k != "terminal_worlds") >= c.belief_states
        for k, v in stats.items():
            stats_total[k] += v
    # every branch of the search ran on these positions (the test cannot pass on a tree
    # that never draws, passes or ends); with alpha-beta on, the one-world nodes with no
    # draw to come (where every pass is: 2 players, an empty boneyard) are its roots
    ab = ("minimax_nodes", "alphabeta_nodes")
    if minimax:
        assert all(v > 0 for k, v in stats_total.items() if k not in ("seat_passes", "other_passes")), stats_total
    else:
        assert all(v > 0 for k, v in stats_total.items() if k not in ab), stats_total
        assert all(stats_total[k] == 0 for k in ab)


@pytest.mark.parametrize("objective", ["points", "win"])
def test_alpha_beta_on_one_world_nodes_gives_the_fronts_values_with_fewer_nodes(objective):
    # with no draw to come (an empty boneyard) a 2-player node has one world: its front is
    # the minimax value, which the full front search finds by walking the whole tree
    saved = 0
    for g, seat in POSITIONS:
        obs = g.observation(seat)
        results = []
        for minimax in (True, False):
            py, c, node, roots = _searches(obs, objective, minimax)
            fronts, stats = E._defence_c(c, node, roots)
            results.append(({m: sorted(f) for m, f in fronts.items()}, c.nodes, stats))
        (on, on_nodes, on_stats), (off, off_nodes, _) = results
        assert on == off
        if on_stats["minimax_nodes"]:
            saved += off_nodes - on_nodes
    assert saved > 0


def test_alpha_beta_equals_plain_minimax_at_the_round_end():
    # an empty boneyard from the root (one hidden world): the value of every root move by
    # alpha-beta against an independent plain minimax over the reference's own moves
    found = 0
    for g, seat in itertools.islice(iter_late_positions(0, 4, seed=301), 40):
        if found == 12:
            break
        obs = g.observation(seat)
        for objective in ("points", "win"):
            r = exact_result(obs, objective=objective, opponent="best-defence")
            assert r.worlds == 1
            for m, v in r.values.items():
                assert v == pytest.approx(_plain_minimax(g, seat, m, objective), abs=1e-12)
        found += 1
    assert found >= 10


def _plain_minimax(game, seat, move, objective):
    """Value for `seat`'s side of the core move `move`, both seats seeing every hand: the
    seat maximises, the other minimises, over the Game API's legal moves (no table)."""
    from fiveup_solver.equity import win_probabilities
    g = game.copy()
    root = list(g.scores)
    side = seat % 2
    g.push(next(m for m in g.legal_moves if m.kind == "play" and _core.canonical_of(*m.placement) == move))

    def value(g):
        if g.game_over:
            won = g.winner == side
            if objective == "win":
                return 1.0 if won else 0.0
            return 1000.0 if won else -1000.0
        if g.round_over:
            if objective == "win":
                return win_probabilities(2, list(g.scores), g.next_starter())[side]
            return float(sum((s - r) * (1 if k == side else -1) for k, (s, r) in enumerate(zip(g.scores, root))))
        vals = []
        for m in g.legal_moves:
            g.push(m)
            vals.append(value(g))
            g.pop()
        return max(vals) if g.to_move == seat else min(vals)
    return value(g)


@pytest.mark.parametrize("objective", ["points", "win"])
def test_the_c_engine_equals_the_python_engine_move_by_move(objective):
    for g, seat in POSITIONS:
        obs = g.observation(seat)
        a = exact_result(obs, objective=objective, opponent="best-defence", engine="python")
        b = exact_result(obs, objective=objective, opponent="best-defence", engine="c")
        assert (a.nodes, a.belief_states, a.worlds) == (b.nodes, b.belief_states, b.worlds)
        assert set(a.values) == set(b.values)
        for m, v in a.values.items():
            assert b.values[m] == pytest.approx(v, abs=1e-9)


def test_c_is_the_default_engine_against_best_defence(monkeypatch):
    calls = []
    real = _exact.defence_search
    monkeypatch.setattr(_exact, "defence_search", lambda *a: calls.append(1) or real(*a))
    g, seat = POSITIONS[0]
    exact_result(g.observation(seat), opponent="best-defence")
    assert calls == [1]
    exact_result(g.observation(seat), opponent="best-defence", engine="python")
    assert calls == [1]


def test_the_pareto_reduction_drops_dominated_vectors_whose_sums_tie():
    # the other seat's running minimum starts at +inf: every sum below is inf, and the
    # dominated (inf, 1.0) and (inf, 1.0, ...) must go whatever the set's order
    inf = math.inf
    assert E._pareto([(inf, 1.0), (inf, 2.0)]) == [(inf, 2.0)]
    assert E._pareto([(inf, 2.0, 0.0), (inf, 1.0, 0.0), (inf, 1.0, 1.0), (inf, 2.0, 0.0)]) \
        == [(inf, 1.0, 1.0), (inf, 2.0, 0.0)]
    # 0.1 + 0.2 rounds to the sum of 0.3 + 0.0: (0.3, 0.0) does not dominate (0.1, 0.2)
    assert E._pareto([(0.1, 0.2), (0.3, 0.0), (0.0, 0.0)]) == [(0.1, 0.2), (0.3, 0.0)]


def test_every_node_limit_gives_the_python_refusal():
    # below its need, each limit stops the C search where it stops the Python search, with the
    # same message (a node past the limit, or front vectors past it); at its need, no refusal
    obs = None
    for g, seat in POSITIONS:
        r = exact_result(g.observation(seat), opponent="best-defence")
        if 100 < r.nodes < 1500 and r.worlds > 1:
            obs, need = g.observation(seat), r.nodes
            break
    assert obs is not None
    kinds = set()
    for limit in range(1, need):
        messages = []
        for engine in ("python", "c"):
            with pytest.raises(SearchLimitError) as err:
                exact_result(obs, objective="win", opponent="best-defence", node_limit=limit, engine=engine)
            messages.append(str(err.value))
        assert messages[0] == messages[1]
        assert f"more than {limit} world position" in messages[0]      # ("1 world position": one)
        kinds.add("front vectors" in messages[0])
    assert kinds == {True, False}
    assert exact_result(obs, objective="win", opponent="best-defence", node_limit=need).nodes == need


def test_the_invariants_hold_with_the_c_engine():
    # best defence minimises over every policy, greedy's included; with the seat's whole
    # posterior, both are values of the same strategies
    for g, seat in POSITIONS[:8]:
        obs = g.observation(seat)
        for objective in ("points", "win"):
            bd = exact_result(obs, objective=objective, opponent="best-defence").values
            gr = exact_result(obs, objective=objective, opponent="greedy").values
            assert all(bd[m] <= gr[m] + 1e-9 for m in gr)


def test_defence_search_checks_what_it_is_given():
    g, seat = POSITIONS[0]
    _, _, node, roots = _searches(g.observation(seat), "points")
    positions = [pos for pos, _ in node]
    args = (seat, 0, (0, 0), E._EMPTY, 1000)
    with pytest.raises(CoreError, match="at least one world"):
        _exact.defence_search([], roots, *args)
    with pytest.raises(CoreError, match="world position is"):
        _exact.defence_search([b"x"], roots, *args)
    with pytest.raises(CoreError, match="not a canonical move"):
        _exact.defence_search(positions, [255], *args)
    with pytest.raises(CoreError, match="not to place"):
        _exact.defence_search(positions, roots, 1 - seat, 0, (0, 0), E._EMPTY, 1000)
    if len(positions) > 1:
        with pytest.raises(CoreError, match="distinct world positions in sorted order"):
            _exact.defence_search(positions[::-1], roots, *args)
        with pytest.raises(CoreError, match="distinct world positions in sorted order"):
            _exact.defence_search([positions[0], positions[0]], roots, *args)
    with pytest.raises(CoreError, match="equity table"):
        _exact.defence_search(positions, roots, seat, 1, (0, 0), b"", 1000)
    for bad in ("yes", 2, None):
        with pytest.raises(CoreError, match="minimax must be True or False"):
            _exact.defence_search(positions, roots, *args, bad)
    # three players: no best defence (the other seats are not one minimiser)
    from fiveup_solver.inference import DealSampler
    g3, seat3 = late_positions(1, bone_max=0, hand_max=3, players=3)[0]
    ds = DealSampler(g3.observation(seat3))
    hands, bone, _ = ds.exact_worlds(E.DEFAULT_MAX_WORLDS)[0]
    own = sum(1 << t for t in ds.replayed.hand(seat3))
    pos3 = _exact.world_position(ds.replayed, [own if s == seat3 else hands[s] for s in range(3)], bone)
    with pytest.raises(CoreError, match="for 2 players"):
        _exact.defence_search([pos3], [m for m, _, _ in _exact.moves(pos3)], seat3, 0, (0, 0, 0), E._EMPTY, 1000)


def test_best_defence_at_an_empty_boneyard_equals_the_solver_move_by_move():
    # with the boneyard empty the seat sees everything: best defence is the perfect-information
    # value, which the double-dummy solver (its own search, table and move generation) gives
    from fiveup_solver.notation import format_move
    from fiveup_solver.solver import Solver
    checked = 0
    for g, seat in itertools.islice(iter_late_positions(0, 7, seed=500), 60):
        if checked == 10:
            break
        if sum(len(g.hand(s)) for s in range(2)) < 9:
            continue
        solved = Solver().solve(g)
        exact = exact_result(g.observation(seat), objective="points", opponent="best-defence")
        for m in g.legal_moves:
            assert exact.values[_core.canonical_of(*m.placement)] == solved.values[format_move(m)], format_move(m)
        checked += 1
    assert checked >= 8
