"""Both currencies (win and points) in one result (issue 24). A solve's equal two
separate single-currency solves: the seeded win search (its MTD(f) started from the
points values) changes the work, never a value. A hint's first currency is a
single-currency hint's; its second follows the first's passes in each world (no
deeper where the node budget cut the first, straight to the pass that solved it
where it was solved), in the same dispatch.

Speed itself is measured in benchmarks/ (compare_builds.py, cli_solve_speed.py).
"""
from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from fiveup_solver import CoreError, _core, _hint, _solver
from fiveup_solver.bench import load_suite
from fiveup_solver.hint import DEFAULT_CHANCE_WIDTH, DEFAULT_WORLD_NODES, METHODS, Hinter
from fiveup_solver.inference import DealSampler
from fiveup_solver.solver import Solver, set_core_objective, win_probability

from bench_scripts import benchmark_script
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


@pytest.mark.parametrize("name", ["openings_2p", "near_target"])
def test_the_points_solves_best_moves_order_the_win_search(name):
    """A win search after the points solve of the same position in the same table
    tries the points search's best move first where it has no table move of its own:
    the same values as the same seeded search in an empty table, in fewer nodes
    (0.77 and 0.78 of them on these 8 positions each; the 2-player ones took
    1.05 without the points moves)."""
    after_points, cold = 0, 0
    for g in _solvable(name, 200_000, 8):
        core = _solver.SolverCore(4.0)
        set_core_objective(core, "points", g.players)
        _, points_moves, _, aborted = core.solve_moves(g.current.core)
        assert not aborted
        set_core_objective(core, "win", g.players)
        ordered = core.solve_moves(g.current.core, 0, dict(points_moves))
        fresh = _solver.SolverCore(4.0)
        set_core_objective(fresh, "win", g.players)
        plain = fresh.solve_moves(g.current.core, 0, dict(points_moves))
        assert ordered[0] == plain[0] and ordered[1] == plain[1] and not ordered[3]
        after_points += ordered[2]
        cold += plain[2]
    assert after_points < 0.9 * cold, (after_points, cold)


def test_points_values_are_checked():
    core = _solver.SolverCore(1.0)
    g = _solvable("openings_2p", 100_000, 1)[0]
    for bad in ([1, 2], {1: 1001}, {300: 0}, {-1: 0}, {1: 2.5}, {"a": 0}, {1: True}):
        with pytest.raises(CoreError, match="points_values"):
            core.solve_moves(g.current.core, 0, bad)


def _fresh_core(objective, players):
    core = _solver.SolverCore(4.0)
    set_core_objective(core, objective, players)
    return core


@pytest.mark.parametrize("objective", ["points", "win"])
def test_guesses_change_the_work_never_a_value(objective):
    """SolverCore.value(guess=) and solve_moves(guesses=) only place MTD(f)'s first
    tests (benchmarks/mtdf_floor.py measures a perfect guess): any guess, the extremes
    and wrong ones included, gives the values of the search's own first guess. The
    guess is used (the exact value as value()'s guess changes the work; with the
    reply order, under the points objective, not always for less), and the exact
    values as solve_moves() guesses take fewer nodes in all."""
    rng = random.Random(11)
    win = _solver.WIN_VALUE
    own = exact = own_solve = exact_solve = 0
    for name in ("openings_4p", "midround", "near_target"):
        for g in _solvable(name, 200_000, 4):
            pos = g.current.core
            v, n, aborted = _fresh_core(objective, g.players).value(pos)
            assert not aborted
            own += n
            for guess in (v, -win, win, rng.randint(-win, win), 0, min(v + 5, win)):
                w, m, aborted = _fresh_core(objective, g.players).value(pos, 0, guess)
                assert w == v and not aborted, (name, guess)
                if guess == v:
                    exact += m
            root, moves, n, _ = _fresh_core(objective, g.players).solve_moves(pos)
            own_solve += n
            some = {k: rng.choice([-win, -300, -5, 0, 5, 300, win]) for k, _ in moves[::2]}
            for guesses in (some, dict(moves)):
                again = _fresh_core(objective, g.players).solve_moves(pos, 0, None, guesses)
                assert again[0] == root and again[1] == moves and not again[3], name
            exact_solve += again[2]
    assert exact != own and exact_solve < 0.95 * own_solve, (exact, own, exact_solve, own_solve)


def test_the_mtdf_floor_script_runs_on_a_slice(tmp_path, capsys):
    """benchmarks/mtdf_floor.py (what a perfect first guess leaves) on 3 + 2 positions:
    its journal, its values checked inside, and the exact guesses cheaper than the seeds."""
    import json
    script = benchmark_script("mtdf_floor")
    out = tmp_path / "floor.json"
    assert script.main(["--positions", "3", "--solve-positions", "2", "--reps", "1", "--out", str(out)]) == 0
    journal = json.loads(out.read_text())
    assert journal["value"]["positions"] == 3 and journal["solve"]["positions"] == 2
    nodes = journal["solve"]["nodes_total"]
    assert nodes["win_exact"] < nodes["win_seeded"], nodes
    assert "the exact value" in capsys.readouterr().out


def test_guesses_are_checked():
    g = _solvable("openings_2p", 100_000, 1)[0]
    core = _fresh_core("points", 2)
    for bad in ([1, 2], {1: 1001}, {300: 0}, {-1: 0}, {1: 2.5}, {"a": 0}, {1: True}):
        with pytest.raises(CoreError, match="guesses must be"):
            core.solve_moves(g.current.core, 0, None, bad)
    for bad in (1001, -1001, 2.5, "0", True):
        with pytest.raises(CoreError, match="guess"):
            core.value(g.current.core, 0, bad)
    three = next(x for x in load_suite(DATA / "midround.json") if x.players == 3)
    maxn = _fresh_core("points", 3)
    maxn.set_search(1)
    with pytest.raises(CoreError, match="max\\^n"):
        maxn.value(three.current.core, 0, 0)
    with pytest.raises(CoreError, match="max\\^n"):
        maxn.solve_moves(three.current.core, 0, None, {})


def _spied(hinter):
    """The hinter, its _search_many calls recorded: (args, kwargs, results)."""
    calls = []
    orig = hinter._search_many

    def spy(*a, **k):
        out = orig(*a, **k)
        calls.append((a, k, out))
        return out
    hinter._search_many = spy
    return calls


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("beliefs", ["uniform", "model"])
def test_hint_both_currencies_first_as_a_single_hint_second_at_its_horizon(players, beliefs):
    """Both currencies of a hint (one dispatch of the threads for the two searches):
    the first currency is a single-currency hint's, value for value; the second
    follows the first's passes in each world. That second search is done again here
    alone, on one core, with the horizons given as a list (``horizons``): the same
    status, depth, nodes and values. Where the second currency solves a world both
    ways, the values are the same exact values."""
    bounded = skipped = 0
    for threads in (1, 2):
        hinter = Hinter(threads=threads)
        calls = _spied(hinter)
        for g, seat in positions(players, 3, seed=60 + players):
            obs = g.observation(seat)
            for objective in ("win", "points"):
                other = "points" if objective == "win" else "win"
                calls.clear()
                both = hinter.hint(obs, samples=12, seed=9, objective=objective, beliefs=beliefs)
                main = hinter.hint(obs, samples=12, seed=9, objective=objective, beliefs=beliefs, both=False)
                assert [(m.move, m.value, m.stderr, m.loss, m.loss_stderr) for m in both.moves] == \
                    [(m.move, m.value, m.stderr, m.loss, m.loss_stderr) for m in main.moves]
                assert all(getattr(m, other) is not None for m in both.moves)
                (args, kw, (first, second)), = calls
                obs_, base, ds, roots, method, objectives = args[:6]
                assert objectives == (objective, other)
                horizon = [(r[1], r[2]) for r in first]
                assert [r[0] for r in first] == [r[0] for r in second] == list(range(len(first)))
                # a world the first currency cut goes no deeper in the second
                for a, b in zip(first, second):
                    assert a[1] == 2 or b[2] <= a[2]
                core = _solver.SolverCore(4.0)
                set_core_objective(core, other, players)
                alone = _hint.WorldSearch(base, ds.counter, ds.hidden_seats, roots, METHODS[method].code,
                                          DEFAULT_WORLD_NODES, DEFAULT_CHANCE_WIDTH, 9, len(first), 1, 0.0, None,
                                          kw["worlds"], shares=kw["shares"], horizons=horizon)
                alone.work(core)
                assert alone.results() == second
                free = _hint.WorldSearch(base, ds.counter, ds.hidden_seats, roots, METHODS[method].code,
                                         DEFAULT_WORLD_NODES, DEFAULT_CHANCE_WIDTH, 9, len(first), 1, 0.0, None,
                                         kw["worlds"], shares=kw["shares"])
                free.work(core)
                unbounded = free.results()
                bounded += sum(1 for a, b in zip(second, unbounded) if a[2] < b[2])
                # one the first solved skips to the pass that solved it: the same exact values
                for a, b, c in zip(first, second, unbounded):
                    if a[1] == 2 and b[1] == 2 and c[1] == 2:
                        assert b[4] == c[4]
                        skipped += b[3] < c[3]
                assert both.nodes == main.nodes + sum(r[3] for r in second)
    assert bounded > 0 and skipped > 0, "no horizon changed the second currency's search: the test shows nothing"


def test_hint_both_currencies_equal_two_separate_hints_where_every_world_is_solved():
    """With a budget that solves every world, the horizon bounds nothing: the second
    currency is a separate hint's, value for value."""
    hinter = Hinter(threads=2)
    checked = 0
    for g, seat in positions(2, 5, seed=77, predicate=lambda g: len(g.current.core.boneyard_left) == 0):
        obs = g.observation(seat)
        for objective in ("win", "points"):
            other = "points" if objective == "win" else "win"
            both = hinter.hint(obs, samples=8, seed=3, objective=objective, world_nodes=10 ** 8)
            second = hinter.hint(obs, samples=8, seed=3, objective=other, world_nodes=10 ** 8, both=False)
            assert both.exact_worlds == both.samples
            by_move = {m.move: m for m in both.moves}
            for m in second.moves:
                assert getattr(by_move[m.move], other) == m.value
            checked += 1
    assert checked == 10


def test_time_budget_second_currency_gets_the_first_ones_horizons():
    """Under a time budget the second currency searches the first one's worlds (its
    draws' groups) with the horizon each reached. Both fit in the hint's time: the first
    search gets FIRST_CURRENCY_TIME_SHARE of it, the second what is left (a review: the
    second came after the whole budget, 50 ms hints took 55 to 160 ms), and searches the
    first one's worlds in order as far as it gets."""
    from fiveup_solver.hint import FIRST_CURRENCY_TIME_SHARE, SECOND_CURRENCY_MIN_SHARE
    hinter = Hinter(threads=2)
    calls = []
    orig = hinter._search

    def spy(*a, **k):
        t0 = time.perf_counter()
        out = orig(*a, **k)
        calls.append((a, k, out, k.get("job_out"), time.perf_counter() - t0))
        return out
    hinter._search = spy
    g, seat = positions(4, 1, seed=91)[0]
    hinter.hint(g.observation(seat), time_ms=60, seed=2, objective="win")
    (a1, k1, first, job, took), (a2, k2, second, _, _) = calls
    # the first search's seconds: its share of what is left of the hint's 60 ms once the
    # worlds are planned (and the Hinter free: the time counts from the call)
    assert 0 < a1[10] <= 0.060 * FIRST_CURRENCY_TIME_SHARE
    # the second's: the time left, and at least its minimum share (the first may overrun)
    assert 0.060 * SECOND_CURRENCY_MIN_SHARE <= a2[10] <= max(0.060 * SECOND_CURRENCY_MIN_SHARE, 0.060 - took)
    assert k1.get("horizons") is None
    sources, _, _ = job[0].group_plan()
    by_draw = {r[0]: r for r in first}
    assert k2["horizons"] == [(by_draw[w][1], by_draw[w][2]) for w in sources]
    assert 1 <= len(second) <= len(sources)
    assert [r[0] for r in second] == list(range(len(second)))   # the first one's worlds in order
    for w, r in zip(sources, second):
        assert by_draw[w][1] == 2 or r[2] <= by_draw[w][2]


def test_a_world_searched_to_a_horizon():
    """``value_world(horizon=(status, depth))``. Cut at d (status 1): no pass deeper
    than d once one is cut; depth 1 is the pass that always completes, as a search
    whose budget ends there; at the depth reached, the same values without the pass
    the budget cut. Solved at d (status 2): straight from the first pass to d, the
    same exact values."""
    seen = solved = 0
    for g, seat in positions(4, 10, seed=33, predicate=lambda g: len(g.current.core.boneyard_left) >= 8):
        obs = g.observation(seat)
        ds = DealSampler(obs)
        roots = sorted({_core.canonical_of(*m.placement) for m in g.legal_moves if m.kind == "play"})
        hands = [g.current.core.hand(s) for s in range(4)]
        bone = g.current.core.boneyard_left
        core = _solver.SolverCore(4.0)
        set_core_objective(core, "win", 4)

        def value(nodes, horizon=None):
            job = _hint.WorldSearch(ds.replayed, None, ds.hidden_seats, roots, _hint.PIMC, nodes, 6, 0, 1, 1, 0.0)
            return job.value_world(core, hands, bone, horizon=horizon)
        free = value(5_000)
        assert value(5_000, (0, 0)) == free
        if free[0] == 2 and free[1] >= 8:
            solved += 1
            jump = value(5_000, (2, free[1]))
            assert jump[:2] == free[:2] and jump[3] == free[3] and jump[2] != free[2]
            continue
        if free[0] != 1 or free[1] < 4:
            continue
        seen += 1
        one = value(5_000, (1, 1))
        assert one[:2] == (1, 1) and one[2] < free[2]
        assert one[3] == value(1)[3]           # the depth-1 pass alone: what a spent budget leaves
        for d in (2, 4, 8, 16):
            if d < free[1]:
                st, depth, nodes, _ = value(5_000, (1, d))
                assert (st, depth) == (1, d) and nodes < free[2]
        assert value(5_000, (1, 64)) == free
        at = value(5_000, (1, free[1]))          # the same values, without the pass the budget cut
        assert at[:2] == free[:2] and at[3] == free[3] and at[2] < free[2]
    assert seen >= 2 and solved >= 2


def test_horizons_are_checked():
    g, seat = positions(2, 1, seed=5)[0]
    obs = g.observation(seat)
    ds = DealSampler(obs)
    roots = sorted({_core.canonical_of(*m.placement) for m in g.legal_moves if m.kind == "play"})
    job = _hint.WorldSearch(ds.replayed, ds.counter, ds.hidden_seats, roots, _hint.PIMC, 100, 6, 0, 2, 2, 0.0)
    worlds = [(k, h[:2], b) for k, (h, b) in enumerate(ds.counter.worlds(2, 1))]
    ok = (0, 0)
    for bad, match in (([(3, 4), ok], "status"), ([(1, 3), ok], "depth"), ([(1, 0), ok], "depth"),
                       ([(2, 65), ok], "depth"), ([(True, 4), ok], "status"), ([(1, 4.0), ok], "depth"),
                       ([5, ok], r"\(status, depth\)"), ([(1, 2, 3), ok], r"\(status, depth\)"),
                       ([ok], "horizons"), (7, "horizons")):
        with pytest.raises(CoreError, match=match):
            _hint.WorldSearch(ds.replayed, ds.counter, ds.hidden_seats, roots, _hint.PIMC, 100, 6, 0, 2, 2, 0.0,
                              None, worlds, horizons=bad)
    with pytest.raises(CoreError, match="horizon's depth"):
        job.value_world(_solver.SolverCore(1.0), [g.current.core.hand(s) for s in range(2)],
                        g.current.core.boneyard_left, horizon=(1, 3))
    given = _hint.WorldSearch(ds.replayed, ds.counter, ds.hidden_seats, roots, _hint.PIMC, 100, 6, 0, 2, 2, 0.0,
                              None, worlds)
    reseeded = _hint.WorldSearch(ds.replayed, ds.counter, ds.hidden_seats, roots, _hint.PIMC, 100, 6, 1, 2, 2,
                                 0.0, None, worlds)
    timed = _hint.WorldSearch(ds.replayed, ds.counter, ds.hidden_seats, roots, _hint.PIMC, 100, 6, 0, 2, 2, 0.5,
                              None, worlds)
    for other, match in ((job, "same position, root moves and worlds"), ("x", "must be a WorldSearch"),
                         (reseeded, "same position, root moves and worlds"), (timed, "no time limit")):
        with pytest.raises(CoreError, match=match):
            _hint.WorldSearch(ds.replayed, ds.counter, ds.hidden_seats, roots, _hint.PIMC, 100, 6, 0, 2, 2, 0.0,
                              None, worlds, depth_of=other)
    with pytest.raises(CoreError, match="either horizons or depth_of"):
        _hint.WorldSearch(ds.replayed, ds.counter, ds.hidden_seats, roots, _hint.PIMC, 100, 6, 0, 2, 2, 0.0,
                          None, worlds, horizons=[ok, ok], depth_of=given)
    other_worlds = [(k, h[:2], b) for k, (h, b) in enumerate(ds.counter.worlds(2, 2))]
    with pytest.raises(CoreError, match="same worlds"):
        _hint.WorldSearch(ds.replayed, ds.counter, ds.hidden_seats, roots, _hint.PIMC, 100, 6, 0, 2, 2, 0.0,
                          None, other_worlds, depth_of=given)
    # bound to a search none of whose worlds were taken yet: refused, not a wait forever
    later = _hint.WorldSearch(ds.replayed, ds.counter, ds.hidden_seats, roots, _hint.PIMC, 100, 6, 0, 2, 2, 0.0,
                              None, worlds, depth_of=given)
    core = _solver.SolverCore(1.0)
    set_core_objective(core, "points", 2)
    with pytest.raises(CoreError, match="depth_of search first"):
        later.work(core)
    given.work(core)
    later.work(core)
    assert len(later.results()) == 2


def test_random_horizons_are_refused_in_one_line_or_searched():
    """Fuzz: horizons of random shapes and numbers. Each list is refused with a
    one-line CoreError, or searched: every world valued, never deeper than a cut
    horizon allows."""
    rng = random.Random(24)
    g, seat = positions(2, 1, seed=8)[0]
    obs = g.observation(seat)
    ds = DealSampler(obs)
    roots = sorted({_core.canonical_of(*m.placement) for m in g.legal_moves if m.kind == "play"})
    worlds = [(k, h[:2], b) for k, (h, b) in enumerate(ds.counter.worlds(3, 5))]
    core = _solver.SolverCore(1.0)
    set_core_objective(core, "win", 2)
    values = [0, 1, 2, 3, 4, 8, 16, 64, -1, 5, 65, 255, 2 ** 40, True, None, 1.0, "4"]
    searched = refused = 0
    for _ in range(300):
        def one():
            kind = rng.random()
            if kind < 0.9:
                return (rng.choice([0, 1, 2]), rng.choice([1, 2, 4, 8, 16, 64]))
            if kind < 0.97:
                return (rng.choice(values), rng.choice(values))
            return rng.choice([(1,), (1, 2, 3), 7, None, "ab", [2, 8]])
        horizons = [one() for _ in range(rng.choice([3, 3, 3, 3, 3, 3, 2, 4]))]
        try:
            job = _hint.WorldSearch(ds.replayed, ds.counter, ds.hidden_seats, roots, _hint.PIMC, 300, 6, 0, 3, 3,
                                    0.0, None, worlds, horizons=horizons)
        except CoreError as e:
            assert "\n" not in str(e) and len(str(e)) <= 200
            refused += 1
            continue
        job.work(core)
        res = job.results()
        assert len(res) == 3
        for (status, depth), r in zip(horizons, res):
            assert r[1] in (1, 2) and len(r[4]) == len(roots)
            if status == 1 and r[1] == 1:
                assert r[2] <= depth
        searched += 1
    assert searched > 20 and refused > 20, (searched, refused)
