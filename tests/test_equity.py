"""Race equity: the exact-target replay and fixed point on hand-made samples,
the shipped tables' checks, and the win objective against a brute-force oracle."""
from __future__ import annotations

import json
import os
import random

import numpy as np
import pytest

from fiveup_solver import Game, OptionError
from fiveup_solver.equity import EquityTable, RoundSamples, build_table, load_table, win_probabilities
from fiveup_solver.solver import Solver, win_probability

try:
    from . import reference_win_minimax as WM
    from .positions import build_game, build_reference, choices, random_deal, random_scores, tiles_left
except ImportError:
    import reference_win_minimax as WM
    from positions import build_game, build_reference, choices, random_deal, random_scores, tiles_left


def samples(players, rounds):
    """RoundSamples from [(events [(rel side, raw)], end rel side or -1)]."""
    offsets, sides, raws, ends = [0], [], [], []
    for events, end in rounds:
        for s, r in events:
            sides.append(s)
            raws.append(r)
        offsets.append(len(raws))
        ends.append(end)
    return RoundSamples(players, "test", 0, np.array(offsets, np.int32), np.array(sides, np.int8),
                        np.array(raws, np.int16), np.array(ends, np.int8))


# ------------------------------------------------------------ the fixed point, by hand
def test_starter_who_always_scores_five_and_keeps_starting_wins():
    # one kind of round: the starter's side scores 5 and empties its hand (starts again):
    # whoever starts wins the game, from every score
    t = build_table(samples(2, [([(0, 5)], 0)]))
    assert t.probabilities([0, 0], 0) == [1.0, 0.0]
    assert t.probabilities([120, 300], 0) == [1.0, 0.0]
    assert t.probabilities([300, 0], 1) == [0.0, 1.0]
    assert t.probabilities([0, 0]) == [0.5, 0.5]          # drawn starter: a fair draw


def test_rejected_events_make_states_repeat_and_are_solved_exactly():
    # (i) starter +10, starter again; (ii) the other side +10 and it starts; (iii) starter +5, starter again.
    t = build_table(samples(2, [([(0, 10)], 0), ([(1, 10)], 1), ([(0, 5)], 0)]))
    # at 300 : 300 every +10 is rejected (above 305), only (iii) ends the game:
    # x = P0 with side 0 starting, y = with side 1 starting
    # x = 1/3 + x/3 + y/3 and y = y/3 + x/3 + 0  =>  x = 2/3, y = 1/3
    assert t.probabilities([300, 300], 0) == pytest.approx([2 / 3, 1 / 3], abs=1e-12)
    assert t.probabilities([300, 300], 1) == pytest.approx([1 / 3, 2 / 3], abs=1e-12)
    # at 295 : 295 every round ends the game at once: (i) and (iii) side 0, (ii) side 1... for starter 0
    # (i) 305 wins, (ii) side 1 305 wins, (iii) 300 : 295 and side 0 starts
    p300_295 = t.probabilities([300, 295], 0)
    assert t.probabilities([295, 295], 0)[0] == pytest.approx(1 / 3 + 0 + p300_295[0] / 3, abs=1e-12)
    assert t.stuck == 0 and t.sweeps == 1       # no negative event: one sweep is exact


def test_event_order_decides_which_exact_hit_counts():
    # both sides could reach 305 in one round: the earlier event wins the game
    t = build_table(samples(2, [([(1, 10), (0, 10)], 0)]))
    assert t.probabilities([295, 295], 0) == [0.0, 1.0]   # the other side scores first
    # a rejected event does not stop a later one: side 1 +10 from 300 is rejected, then side 0 hits
    assert t.probabilities([295, 300], 0) == [1.0, 0.0]


def test_block_redraws_the_starter():
    # a block in which only the starter's side scores 5: the next starter is drawn (1/2 each)
    t = build_table(samples(2, [([(0, 5)], -1)]))
    # from 300 : 300 the starter wins at once
    assert t.probabilities([300, 300], 0) == [1.0, 0.0]
    # from 295 : 300 with side 1 starting, side 1 wins; with side 0 starting it goes to 300 : 300, drawn starter
    assert t.probabilities([295, 300], 0) == pytest.approx([0.5, 0.5])


def test_three_players_rotate_and_four_players_may_lose_points():
    t3 = build_table(samples(3, [([(0, 5)], 0), ([(1, 5)], 1), ([(2, 5)], 2)]))
    for starter in range(3):
        p = t3.probabilities([300, 300, 300], starter)
        assert sum(p) == pytest.approx(1.0)
        # each of the three round kinds wins for its side at once
        assert p == pytest.approx([1 / 3] * 3)
    # 4 players: a net-negative hand-emptying event (D4) moves scores down: sweeps to a fixed point
    # (scores drift up: three rounds of +5 for the starter's side to one of -5)
    t4 = build_table(samples(4, [([(0, -5)], 1)] + [([(0, 5)], 0)] * 3))
    for scores in ([0, 0], [300, 300], [150, 295]):
        assert sum(t4.probabilities(scores, 0)) == pytest.approx(1.0, abs=1e-6)
    assert t4.sweeps > 2
    # by hand at 300 : 300: x (side 0 starts), y (side 1 starts), P(side 0 wins):
    # x = 3/4 + 1/4 * P0(295 : 300, side 1 starts); y = 1/4 * P0(300 : 295, side 0 starts) + 0
    x, y = t4.probabilities([300, 300], 0)[0], t4.probabilities([300, 300], 1)[0]
    assert x == pytest.approx(3 / 4 + t4.probabilities([295, 300], 1)[0] / 4)
    assert y == pytest.approx(t4.probabilities([300, 295], 0)[0] / 4)


def test_near_target_sets_serve_their_states():
    # set 0 (every state with no side near): the starter's side +5, it empties and starts again.
    # set 1, anchored at (300, 150) in the starter's frame: the *other* side +5, and it starts.
    base = samples(2, [([(0, 5)], 0)])
    near = samples(2, [([(1, 5)], 1)])
    t = build_table(base.with_sets([near], [(300, 150)]))
    # (300, 40), side 0 to start: its frame (300, 40) has anchor (300, 150): set 1, side 1 +5 -> (300, 45)
    # with side 1 to start; its frame (45, 300) -> anchor (150, 300), not listed: set 0 from there on,
    # side 1 scores 5 a round and keeps starting until it reaches exactly 305 (300 is never passed)
    assert t.probabilities([300, 40], 0) == [0.0, 1.0]
    # the same state seen from the other side: (40, 300) with side 1 to start -> frame (300, 40): set 1
    assert t.probabilities([40, 300], 1) == [1.0, 0.0]
    # side 1 starting at (300, 40): frame (40, 300), set 0: side 1 climbs to 305 from 40
    assert t.probabilities([300, 40], 1) == [0.0, 1.0]
    # (200, 40), side 0 to start: set 0 climbs side 0 to (300, 40), where set 1 hands the start to
    # side 1, which then climbs to 305
    assert t.probabilities([200, 40], 0) == [0.0, 1.0]
    # (0, 300), side 0 to start: frames (x, 300) and (300, 300) have no listed anchor: set 0 throughout
    assert t.probabilities([0, 300], 0) == [1.0, 0.0]
    # one set of both rounds (no sets): at (300, 40) side 0 wins half at once, and the other half leads to
    # (300, 45) with side 1 starting
    mixed = build_table(RoundSamples.concat([base, near]))
    assert mixed.probabilities([300, 40], 0)[0] > 0.5
    # set 0 alone is the model without its near-target sets: the starter always wins
    zero = base.with_sets([near], [(300, 150)]).zero_set()
    assert zero.rounds == 1 and list(zero.ev_raw) == [5] and zero.set_offset is None
    assert build_table(zero).probabilities([300, 40], 0) == [1.0, 0.0]


def test_near_anchors_and_state_sets():
    from fiveup_solver.equity import FAR_ANCHOR, NEAR_FROM, near_anchors, state_sets
    a = near_anchors(2)
    near_levels = (300 - NEAR_FROM) // 5 + 1            # 240, 245, ..., 300: 13 scores
    assert len(a) == (near_levels + 1) ** 2 - 1        # every pair but far : far
    assert (300, FAR_ANCHOR) in a and (FAR_ANCHOR, FAR_ANCHOR) not in a
    sets = state_sets(2, a)
    assert sets[0] == 0                                  # 0 : 0
    assert sets[(245 // 5) * 61 + 10 // 5] == a.index((245, FAR_ANCHOR)) + 1
    assert sets[(235 // 5) * 61 + 300 // 5] == a.index((FAR_ANCHOR, 300)) + 1
    assert sets[(235 // 5) * 61 + 235 // 5] == 0
    assert len(near_anchors(3)) == (near_levels + 1) ** 3 - 1


def test_bad_samples_are_refused():
    with pytest.raises(OptionError, match="multiple of 5"):
        build_table(samples(2, [([(0, 7)], 0)]))
    with pytest.raises(Exception, match="side|malformed"):
        build_table(samples(2, [([(2, 5)], 0)]))


# ------------------------------------------------------------ the shipped tables
@pytest.mark.parametrize("players", [2, 3, 4])
def test_shipped_probabilities_never_sum_above_one(players):
    # each side's probability is stored rounded to 1/65535; three sides rounded up
    # together would otherwise sum to 1 + 1.5e-5 and leave a negative 'unfinished'
    w = load_table(players).win
    assert w.min() >= 0.0 and w.sum(axis=-1).max() <= 1.0 + 1e-12


@pytest.mark.parametrize("players", [2, 4])
def test_side_swap_symmetry(players):
    t = load_table(players)
    w = t.win
    # W(a, b, starter side t)[side 0] == W(b, a, other side)[side 1]
    assert np.allclose(w[:, :, 0, 0], w.transpose(1, 0, 2, 3)[:, :, 1, 1], atol=2e-5)
    assert np.allclose(w.sum(axis=-1), 1.0, atol=1e-4)


def test_three_player_rotation_symmetry():
    w = load_table(3).win
    # every seat moved one place on: W(a0, a1, a2, starter t)[side s] = W(a2, a0, a1, t + 1)[s + 1]
    rng = random.Random(3)
    for _ in range(2000):
        a = [rng.randrange(61) for _ in range(3)]
        t, s = rng.randrange(3), rng.randrange(3)
        assert abs(w[a[0], a[1], a[2], t, s] - w[a[2], a[0], a[1], (t + 1) % 3, (s + 1) % 3]) < 2e-5
    assert np.allclose(w.sum(axis=-1), 1.0, atol=1e-4)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_near_target_and_the_starters_edge(players):
    sides = 3 if players == 3 else 2
    far = [0] * sides
    near = [300] + [0] * (sides - 1)
    p_near = win_probabilities(players, near, starter=1)
    assert p_near[0] > 0.9                   # 5 to go against 305: nearly sure
    p_far = win_probabilities(players, [0] + [300] * (sides - 1), starter=0)
    assert p_far[0] < 0.1
    # the starter's edge: the starter's side is ahead at 0 : 0
    p = win_probabilities(players, far, starter=0)
    assert p[0] > max(p[1:]) and p[0] > 1 / sides
    assert sum(win_probabilities(players, far)) == pytest.approx(1.0, abs=1e-4)


def test_options_are_checked():
    for bad in ([0], [0, 0, 0], [3, 0], [305, 0], ["0", 0], [True, 0]):
        with pytest.raises(OptionError):
            win_probabilities(2, bad)
    with pytest.raises(OptionError):
        win_probabilities(5, [0, 0])
    with pytest.raises(OptionError):
        win_probabilities(2, [0, 0], starter=2)


def test_one_sweep_is_the_fixed_point_without_negative_events():
    from fiveup_solver import _equity
    s = samples(2, [([(0, 10), (1, 5)], 1), ([(1, 10)], 1), ([(0, 5), (0, 15)], -1), ([(1, 20)], 0)])
    t = build_table(s)
    # a second sweep over the first's result changes nothing
    grid = np.indices((61, 61)).reshape(2, -1)
    order = np.argsort(-grid.sum(axis=0), kind="stable").astype(np.int32)
    w = t.win.reshape(-1).copy()
    sweeps, change, stuck = _equity.solve_equity(2, order, s.ev_offset, s.ev_side, (s.ev_raw // 5).astype(np.int16),
                                                 s.end, w, 0.0, 1)
    assert change < 1e-12 and stuck == 0


def test_table_round_trip(tmp_path):
    t = build_table(samples(2, [([(0, 10)], 0), ([(1, 10)], 1), ([(0, 5)], 0)]))
    t.save(tmp_path / "t.npz")
    u = EquityTable.load(str(tmp_path / "t.npz"))
    assert np.allclose(t.win, u.win, atol=1e-5) and u.rounds == 3


# ------------------------------------------------------------ standard errors by the bootstrap
def test_bootstrap_standard_error_of_a_one_round_race():
    # n rounds of one event each: in k of them the starter's side scores 305 at once (wins),
    # in the others the other side does. From 0 : 0 with side 0 starting, P(side 0 wins) is
    # the fraction k / n, and over bootstrap copies of the rounds that fraction is a binomial
    # mean: its standard deviation is sqrt(p (1 - p) / n). With a drawn starter side 0 wins
    # with k / n when it starts and 1 - k / n when the other does: 1/2 in every copy, spread 0.
    from fiveup_solver.equity import with_bootstrap_errors
    n, k = 50, 15
    rounds = [([(0, 305)], -1)] * k + [([(1, 305)], -1)] * (n - k)
    s = samples(2, rounds)
    t = with_bootstrap_errors(build_table(s), s, 300)
    p = k / n
    expected = (p * (1 - p) / n) ** 0.5                       # 0.0648
    se = t.standard_errors([0, 0], 0)
    # 300 replicates: the estimate's own relative spread is about 1 / sqrt(600) = 4 %
    assert se[0] == pytest.approx(expected, rel=0.15) and se[1] == pytest.approx(se[0], abs=1e-12)
    assert t.standard_errors([0, 0], 1) == pytest.approx(se, abs=1e-12)   # the relabelled starter
    assert t.standard_errors([0, 0]) == pytest.approx([0.0, 0.0], abs=1e-12)
    assert t.probabilities([0, 0], 0) == pytest.approx([p, 1 - p])   # the values are the table's own
    assert t.bootstrap == 300
    # the same seed, the same errors; a table without them says so
    assert np.array_equal(with_bootstrap_errors(build_table(s), s, 300).stderr, t.stderr)
    assert build_table(s).standard_errors([0, 0], 0) is None


def test_a_bootstrap_copy_draws_each_sets_rounds_from_that_set():
    # set 0: rounds scoring 5 (side 0); set 1: rounds scoring 10 (side 1), 2 events each
    base = samples(2, [([(0, 5)], 0)] * 6)
    near = samples(2, [([(1, 10), (1, 10)], 1)] * 3)
    joined = base.with_sets([near], [(240, 150)])
    copy = joined.resampled(np.random.default_rng(3))
    copy._check_layout()
    assert list(copy.set_offset) == [0, 6, 9] and copy.anchors == joined.anchors
    first = copy.ev_offset[6]
    assert set(copy.ev_raw[:first].tolist()) == {5} and set(copy.ev_raw[first:].tolist()) == {10}
    assert list(np.diff(copy.ev_offset)) == [1] * 6 + [2] * 3
    # with distinct rounds a copy repeats some and leaves some out
    marked = samples(2, [([(0, 5 * (i + 1))], 0) for i in range(40)])
    drawn = marked.resampled(np.random.default_rng(0)).ev_raw.tolist()
    assert len(drawn) == 40 and set(drawn) <= set(marked.ev_raw.tolist()) and len(set(drawn)) < 40


def test_standard_errors_round_trip_and_are_checked(tmp_path):
    from fiveup_solver.equity import with_bootstrap_errors
    s = samples(2, [([(0, 10)], 0), ([(1, 10)], 1), ([(0, 5)], 0), ([(1, 305)], -1)])
    t = with_bootstrap_errors(build_table(s), s, 20)
    t.save(tmp_path / "t.npz")
    u = EquityTable.load(str(tmp_path / "t.npz"))
    assert u.bootstrap == 20 and np.allclose(u.stderr, t.stderr, atol=1e-5)
    for scores, starter in (([300, 300], 0), ([295, 300], 1), ([100, 5], None)):
        assert u.standard_errors(scores, starter) == pytest.approx(t.standard_errors(scores, starter), abs=1e-5)
    with pytest.raises(OptionError, match="bootstrap replicates must be 2..10000"):
        with_bootstrap_errors(build_table(s), s, 1)
    with pytest.raises(OptionError, match="stderr must hold standard errors"):
        EquityTable(2, t.win, 4, "test", 0, stderr=np.full_like(t.stderr, 0.7), bootstrap=20)
    with pytest.raises(OptionError, match="stderr must be a float array of shape"):
        EquityTable(2, t.win, 4, "test", 0, stderr=t.stderr[..., :2, :], bootstrap=20)
    with pytest.raises(OptionError, match="needs its bootstrap replicates \\(2 to 10000\\)"):
        EquityTable(2, t.win, 4, "test", 0, stderr=t.stderr, bootstrap=0)
    with pytest.raises(OptionError, match="without stderr has no bootstrap"):
        EquityTable(2, t.win, 4, "test", 0, bootstrap=5)
    # a file with one of the two error arrays is not a table
    with np.load(tmp_path / "t.npz") as z:
        parts = {name: z[name] for name in z.files if name != "stderr_drawn"}
    np.savez(tmp_path / "half.npz", **parts)
    with pytest.raises(OptionError, match="half.npz: not an equity table .*stderr_drawn"):
        EquityTable.load(str(tmp_path / "half.npz"))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_shipped_tables_carry_standard_errors(players):
    t = load_table(players)
    assert t.stderr is not None and t.bootstrap >= 16
    # the starter's own edge is known to a fraction of a per cent at 0 : 0, the
    # near-target states (few rounds per anchor) far less well
    assert max(t.standard_errors([0] * t.sides, 0)) < 0.01
    assert 0 < max(t.standard_errors([0] * t.sides, 0)) < max(t.standard_errors([290] * t.sides, 0))


# ------------------------------------------------------------ the win objective against the oracle
def _random_table(players, seed):
    """A table with random win probabilities: every leaf distinct, so a wrong lookup shows."""
    rng = np.random.default_rng(seed)
    sides = 3 if players == 3 else 2
    w = rng.dirichlet(np.ones(sides), size=(61,) * sides + (sides,))
    return EquityTable(players, w, 0, "random", seed)


def _small_tree(st) -> bool:
    """The oracle's tree is small enough to search whole (the same tree under either objective)."""
    try:
        WM.M.move_values(st, max_states=40_000)
    except WM.M.TooBig:
        return False
    return True


def _position(name, players, mode):
    rng = random.Random(name)
    for _ in range(400):
        hands, boneyard, starter, scores, st = random_deal(rng, players, random_scores(rng, players, mode, low=270))
        stop = rng.randint(6, 11)
        actions = []
        while not st.over:
            if tiles_left(st) <= stop and choices(st) >= 2 and _small_tree(st):
                return {"name": name, "players": players, "hands": hands, "boneyard": boneyard,
                        "starter": starter, "scores": scores, "actions": actions}
            a = rng.choice(st.legal_actions())
            st.apply(a)
            actions.append(a)
    raise RuntimeError(name)


WIN_POSITIONS = [_position(f"w{n}-{mode}-{i}", n, mode) for n in (2, 3, 4) for mode in ("zero", "near")
                 for i in range(8 if n != 3 else 5)]


@pytest.mark.parametrize("spec", WIN_POSITIONS, ids=lambda s: s["name"])
@pytest.mark.parametrize("use_tt,target_pruning", [(True, True), (False, False)])
def test_win_objective_matches_oracle(spec, use_tt, target_pruning):
    table = _random_table(spec["players"], hash(spec["name"]) & 0xFFFF)
    st = build_reference(spec)
    want = WM.move_values(st, table.win)      # positions are made small enough (_small_tree)
    res = Solver(tt_mb=2, use_tt=use_tt, target_pruning=target_pruning, objective="win", equity=table,
                 both=False).solve(build_game(spec))
    assert res.values == want, spec
    assert res.value == max(want.values())
    assert res.win == {m: pytest.approx(win_probability(v)) for m, v in want.items()}


def test_both_objectives_reported():
    spec = WIN_POSITIONS[0]
    table = _random_table(2, 7)
    res = Solver(tt_mb=2, objective="points", equity=table).solve(build_game(spec))
    res_w = Solver(tt_mb=2, objective="win", equity=table, both=False).solve(build_game(spec))
    assert set(res.win) == set(res.points) == set(res.values)
    assert res.points == res.values
    assert res.win == {m: win_probability(v) for m, v in res_w.values.items()}
    d = res.to_dict()
    assert d["objective"] == "points" and set(d["win"]) == set(d["points"])
    json.dumps(d)


def test_objective_and_table_checks():
    with pytest.raises(OptionError, match="objective"):
        Solver(objective="elo")
    with pytest.raises(OptionError, match="players"):
        Solver(objective="win", equity=_random_table(3, 1)).solve(Game(players=2, seed=1))


# ------------------------------------------------------------ the C boundaries refuse bad input
def test_set_objective_checks_its_table():
    from fiveup_solver import CoreError, _solver
    core = _solver.SolverCore(1.0)
    good = load_table(2).search_values()
    for bad_args, text in [
        ((2,), "objective"), ((1, good, 5), "players"), ((1, good, 3), "values"),
        ((1, good[:-1], 2), "values"), ((1, good.astype(np.int32), 2), "int16"), ((1, "table", 2), "int16"),
        ((1, None, 2), "not None"), ((1, np.full_like(good, 1000), 2), "outside"), ((True,), "objective"),
    ]:
        with pytest.raises(CoreError, match=text):
            core.set_objective(*bad_args)
    assert core.objective == _solver.POINTS
    core.set_objective(1, good, 2)
    g = Game(players=4, seed=3)
    with pytest.raises(CoreError, match="for 2 players"):
        core.solve_moves(g.current.core)
    core.set_objective(0)
    assert core.objective == _solver.POINTS and core.equity_table is None


def test_solve_equity_checks_its_arrays():
    from fiveup_solver import CoreError, _equity
    s = samples(2, [([(0, 5)], 0)])
    order = np.arange(61 * 61, dtype=np.int32)
    w = np.zeros(61 * 61 * 4)
    lv = (s.ev_raw // 5).astype(np.int16)
    cases = [
        (3, order, s.ev_offset, s.ev_side, lv, s.end, w),                       # sides vs table size
        (2, order[:-1], s.ev_offset, s.ev_side, lv, s.end, w),                 # order size
        (2, order + 10_000, s.ev_offset, s.ev_side, lv, s.end, w),             # order range
        (2, order, np.array([0, 5], np.int32), s.ev_side, lv, s.end, w),       # offsets past the events
        (2, order, s.ev_offset, np.array([7], np.int8), lv, s.end, w),         # side out of range
        (2, order, s.ev_offset, s.ev_side, np.array([99], np.int16), s.end, w),  # level out of range
        (2, order, s.ev_offset, s.ev_side, lv, np.array([5], np.int8), w),     # end side out of range
        (2, order, s.ev_offset, s.ev_side, lv, s.end, w[:-1]),                 # table size
        # offsets that start below 0 (a review's fuzzing: read before the arrays, a crash)
        (2, order, np.array([-2 ** 31, 1], np.int32), s.ev_side, lv, s.end, w),
        (2, order, np.array([-3, 1], np.int32), s.ev_side, lv, s.end, w),
    ]
    for args in cases:
        with pytest.raises(CoreError):
            _equity.solve_equity(*args, 1e-9, 3)
    one = np.array([0, 1], np.int32)
    for sets in [(one, None), (np.array([0, 2], np.int32), np.zeros(61 * 61, np.int32)),   # set past the rounds
                 (np.array([0, 1, 1], np.int32), np.zeros(61 * 61, np.int32)),            # an empty set
                 (one, np.ones(61 * 61, np.int32)),                                       # a set out of range
                 (one, np.zeros(61, np.int32))]:                                          # set_of size
        with pytest.raises(CoreError):
            _equity.solve_equity(2, order, s.ev_offset, s.ev_side, lv, s.end, w, 1e-9, 3, *sets)
    for args in [(2, order.astype(np.int64), s.ev_offset, s.ev_side, lv, s.end, w, 1e-9, 3),
                 (2, None, s.ev_offset, s.ev_side, lv, s.end, w, 1e-9, 3),
                 (2, order, s.ev_offset, s.ev_side, lv, s.end, w.reshape(61, -1), 1e-9, 3),
                 (4, order, s.ev_offset, s.ev_side, lv, s.end, w, 1e-9, 3),
                 (2, order, s.ev_offset, s.ev_side, lv, s.end, w, float("nan"), 3),
                 (2, order, s.ev_offset, s.ev_side, lv, s.end, w, 1e-9, 0)]:
        with pytest.raises(CoreError):
            _equity.solve_equity(*args)


def test_equity_table_file_errors(tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(OptionError, match="not an equity table"):
        EquityTable.load(str(bad))
    np.savez_compressed(tmp_path / "shape.npz", win_starter0=np.zeros((3, 3), np.uint16),
                        meta=np.array(json.dumps({"players": 2, "rounds": 1, "bot": "x", "seed": 0})))
    with pytest.raises(OptionError, match="not an equity table"):
        EquityTable.load(str(tmp_path / "shape.npz"))


def test_round_samples_files_that_do_not_index_their_events_are_one_line(tmp_path):
    """A samples file whose offsets start below 0 (it crashed the build) or decrease, or
    whose arrays disagree in length, is refused on load, naming the file."""
    one = dict(ev_side=np.array([0], np.int8), ev_raw=np.array([5], np.int16), end=np.array([0], np.int8))
    for name, offsets in [("below", [-2 ** 31, 1]), ("minus3", [-3, 1]), ("past", [0, 2]), ("floats", [0.0, 1.0])]:
        RoundSamples(2, "greedy", 0, np.array(offsets), **one).save(str(tmp_path / f"{name}.npz"))
        with pytest.raises(OptionError, match=rf"^{tmp_path}/{name}.npz: not a round-samples file .*ev_offset"):
            RoundSamples.load(str(tmp_path / f"{name}.npz"))
    RoundSamples(2, "greedy", 0, np.array([0, 1, 0], np.int32), np.array([0], np.int8), np.array([5], np.int16),
                 np.array([0, 0], np.int8)).save(str(tmp_path / "down.npz"))
    with pytest.raises(OptionError, match="ev_offset must run from 0 to the number of events"):
        RoundSamples.load(str(tmp_path / "down.npz"))
    RoundSamples(2, "greedy", 0, np.array([0, 2, 1], np.int32), np.array([0, 0], np.int8), np.array([5], np.int16),
                 np.array([0, 0], np.int8)).save(str(tmp_path / "lengths.npz"))
    with pytest.raises(OptionError, match="ev_offset must run from 0"):
        RoundSamples.load(str(tmp_path / "lengths.npz"))
    RoundSamples(2, "greedy", 0, np.array([0, 2, 1], np.int32), np.array([0], np.int8), np.array([5], np.int16),
                 np.array([0, 0], np.int8)).save(str(tmp_path / "decrease.npz"))
    with pytest.raises(OptionError, match="ev_offset must never decrease"):
        RoundSamples.load(str(tmp_path / "decrease.npz"))


def _table_file(path, win0, **meta):
    meta = {"players": 2, "rounds": 1, "bot": "x", "seed": 0, **meta}
    np.savez_compressed(path, win_starter0=win0, meta=np.array(json.dumps(meta)))
    return str(path)


def test_equity_table_files_with_values_that_are_no_probabilities_are_refused(tmp_path):
    """A table's values must be what save writes (uint16 fractions): a float file holding
    NaN or negative values printed nonsense and made the solver's win values meaningless."""
    good = np.full((61, 61, 2), 30000, np.uint16)
    assert EquityTable.load(_table_file(tmp_path / "good.npz", good)).probabilities([0, 0], 0) == pytest.approx(
        [30000 / 65535] * 2)
    for name, win0 in [("nan", np.full((61, 61, 2), np.nan)), ("negative", np.full((61, 61, 2), -0.5)),
                       ("floats", np.full((61, 61, 2), 0.5))]:
        with pytest.raises(OptionError, match=rf"{name}.npz: not an equity table \(ValueError: win_starter0 of type"):
            EquityTable.load(_table_file(tmp_path / f"{name}.npz", win0))
    empty = tmp_path / "empty.npz"
    empty.write_bytes(b"")
    zipped = tmp_path / "cut.npz"
    zipped.write_bytes(open(_table_file(tmp_path / "whole.npz", good), "rb").read()[:200])
    # an empty file is no zip archive: said so before numpy reads it
    with pytest.raises(OptionError, match=rf"^{empty}: not an equity table: not a \.npz file"):
        EquityTable.load(str(empty))
    cases = [(str(zipped), "BadZipFile"),
             (_table_file(tmp_path / "no_rounds.npz", good, rounds=None), "rounds must be an integer >= 0"),
             (_table_file(tmp_path / "abc.npz", good, rounds="abc"), "rounds must be an integer >= 0"),
             (_table_file(tmp_path / "bot.npz", good, bot=7), "bot must be a bot name")]
    for path, what in cases:
        with pytest.raises(OptionError, match=rf"^{path}: not an equity table \(.*{what}"):
            EquityTable.load(path)
    np.savez_compressed(tmp_path / "no_meta_key.npz", win_starter0=good,
                        meta=np.array(json.dumps({"players": 2, "bot": "x", "seed": 0})))
    with pytest.raises(OptionError, match="not an equity table \\(KeyError: 'rounds'"):
        EquityTable.load(str(tmp_path / "no_meta_key.npz"))


def test_an_equity_table_made_in_python_holds_probabilities():
    """The API's EquityTable (the solver's win objective reads it): NaN, values outside
    0..1, sides summing above 1 or another shape are one OptionError, not a value of -999."""
    ok = np.full((61, 61, 2, 2), 0.5)
    EquityTable(2, ok, 1, "x", 0)
    bad = [(np.full((61, 61, 2, 2), np.nan), "must hold probabilities"),
           (np.full((61, 61, 2, 2), -0.1), "must hold probabilities"),
           (np.full((61, 61, 2, 2), 0.6), "must hold probabilities"),
           (np.zeros(3), "must be a float array of shape"),
           (np.zeros((61, 61, 2, 2), np.int64), "must be a float array of shape"),
           ([[0.5]], "must be a float array of shape")]
    for win, what in bad:
        with pytest.raises(OptionError, match=what):
            EquityTable(2, win, 1, "x", 0)
    for kwargs, what in [({"rounds": -1}, "rounds must be"), ({"seed": 1.5}, "seed must be"),
                         ({"bot": None}, "bot must be")]:
        args = {"rounds": 1, "bot": "x", "seed": 0, **kwargs}
        with pytest.raises(OptionError, match=what):
            EquityTable(2, ok, args["rounds"], args["bot"], args["seed"])
    with pytest.raises(OptionError):
        EquityTable("2", ok, 1, "x", 0)


# ------------------------------------------------------------ the shipped solver forms
@pytest.mark.parametrize("players", [2, 4])
def test_shipped_search_form_equals_the_table(players):
    """The .npy read by search_values is the shipped table's own solver form, computed here
    from the .npz (a stale .npy after a table is replaced fails here)."""
    from fiveup_solver import equity
    shipped = equity.search_values(players)
    assert os.path.exists(equity.search_table_path(players))
    computed = equity.EquityTable.load(equity.table_path(players)).search_values()
    assert shipped.dtype == np.int16 and not shipped.flags.writeable
    assert np.array_equal(shipped, computed)
    assert equity.search_values(players) is shipped       # one object: the solver checks it once


def test_damaged_search_form_is_refused(tmp_path, monkeypatch):
    from fiveup_solver import equity
    bad = tmp_path / "equity_2p_search.npy"
    np.save(bad, np.zeros(10, np.int16))
    monkeypatch.setattr(equity, "search_table_path", lambda players: str(bad))
    equity.search_values.cache_clear()
    try:
        with pytest.raises(OptionError, match="not a solver equity table for 2 players"):
            equity.search_values(2)
        bad.write_bytes(b"not a numpy file")
        with pytest.raises(OptionError, match="not a solver equity table"):
            equity.search_values(2)
    finally:
        equity.search_values.cache_clear()


def test_a_table_changed_after_set_objective_changes_no_value():
    """A table its caller can still change (writable, or a read-only view of writable
    memory) is read from a private copy, checked when given: changing it afterwards
    changes no value and cannot bring an unchecked value into a search. The package's
    own tables are immutable (read-only, owning their memory) and read where they are."""
    from fiveup_solver import _solver
    from fiveup_solver.equity import search_values
    shipped = search_values(2)
    assert shipped.base is None and not shipped.flags.writeable
    g = Game(players=2, seed=11)
    pos = g.current.core
    expected = None
    for make in (lambda t: t.copy(), lambda t: _read_only_view(t.copy())):
        table = make(shipped)
        core = _solver.SolverCore(1.0)
        core.set_objective(1, table, 2)
        assert core.equity_table is table
        fresh = core.value(pos)[0]
        if expected is None:
            expected = fresh
        assert fresh == expected
        target = table if table.base is None else table.base
        target[:] = 30000           # outside (-1000, 1000): refused had it been given
        target[::7] = -30000
        assert core.value(pos)[0] == expected
        # given again, the changed table is checked again and refused
        with pytest.raises(Exception, match="outside"):
            core.set_objective(1, table, 2)


def _read_only_view(a):
    v = a.view()
    v.setflags(write=False)
    return v


def test_the_three_player_search_form_follows_its_definition():
    """The 3-player solver form is computed, not shipped: per state, starter t (0..2, and 3:
    drawn, the mean of the three) and side s, round(1000 x (P(s wins) - P(another side wins))),
    kept inside (-1000, 1000). Checked here state by state from the table's probabilities,
    at the corners, at states around each chunk boundary and at random states."""
    from fiveup_solver import equity
    table = equity.load_table(3)
    form = table.search_values().reshape(equity.SCORE_LEVELS ** 3, 4, 3)
    assert form.dtype == np.int16 and not table.search_values().flags.writeable
    # an array of its own (a view was copied and checked whole at every switch to the win objective)
    assert table.search_values().base is None and equity.search_values(3).base is None
    levels = equity.SCORE_LEVELS
    states = {0, levels ** 3 - 1, levels - 1, levels ** 2}
    for edge in range(equity.SEARCH_CHUNK, levels ** 3, 7 * equity.SEARCH_CHUNK):
        states |= {edge - 1, edge}
    states |= set(np.random.default_rng(3).integers(0, levels ** 3, 300).tolist())
    for state in sorted(states):
        a, rest = divmod(state, levels ** 2)
        b, c = divmod(rest, levels)
        scores = [5 * a, 5 * b, 5 * c]
        for t, starter in enumerate([0, 1, 2, None]):
            p = table.probabilities(scores, starter)
            for s in range(3):
                want = round(1000 * (p[s] - (sum(p) - p[s])))
                want = max(-999, min(999, want))
                assert abs(int(form[state, t, s]) - want) <= 1, (scores, starter, s)


def test_an_equity_tables_printed_fields_are_checked(tmp_path):
    """A review: a crafted table's bot name with a newline and an escape printed as it was,
    and its bootstrap count had no bound (a 401-digit count was printed)."""
    t = build_table(samples(2, [([(0, 5)], 0)]))
    with pytest.raises(OptionError, match="bot must be a bot name"):
        EquityTable(2, t.win, 1, "hint\n  side 0: win 100.0 %\x1b[0m", 0)
    s = samples(2, [([(0, 5)], 0), ([(1, 5)], 1)])
    from fiveup_solver.equity import with_bootstrap_errors
    good = with_bootstrap_errors(build_table(s), s, 3)
    with pytest.raises(OptionError, match=r"bootstrap replicates \(2 to 10000\)"):
        EquityTable(2, good.win, 2, "test", 0, stderr=good.stderr, bootstrap=10 ** 400)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_far_from_the_target_more_score_never_lowers_a_sides_chance(players):
    """Near 305 a higher score can hurt (a side at 300 needs exactly 5: RULES' exact target;
    docs/equity.md, "Steps that are noise"). Far from it, with every side below 240 raw (a
    step s -> s + 5 both ends below 240), side 0's chance rises with its own score, the other
    sides' scores and the starter side fixed: a review found every shipped table so, with no
    fall at all (the smallest rise 0.0003 to 0.0006)."""
    from fiveup_solver.equity import SCORE_STEP, load_table
    win = load_table(players).win[..., 0]        # (61,) * sides + (starter side,)
    far = 240 // SCORE_STEP                      # score levels 0 .. 47 are below 240 raw
    steps = win[1:far] - win[:far - 1]           # side 0 from level s to s + 1, s + 1 < 48
    others = (slice(None),) + tuple(slice(0, far) for _ in range(win.ndim - 2)) + (slice(None),)
    assert steps[others].min() > 0
