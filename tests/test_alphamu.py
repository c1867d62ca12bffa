"""alphamu (method="alphamu"): against an independent reference on tiny positions,
its relations to the solver and to PIMC on the same worlds, determinism across
threads, bad options, the command line and the bot."""
from __future__ import annotations

import functools
import json
import random

import pytest

from fiveup_solver import Game, OptionError, _alphamu, _core, _solver
from fiveup_solver.bots import choose
from fiveup_solver.cli import main
from fiveup_solver.errors import CoreError
from fiveup_solver.hint import Hinter, hint, world_values
from fiveup_solver.inference import DealSampler
from fiveup_solver.solver import set_core_objective

try:
    from . import reference as R
    from .reference_alphamu import alphamu_values
    from .test_exact import _tile_index, late_positions
except ImportError:
    import reference as R
    from reference_alphamu import alphamu_values
    from test_exact import _tile_index, late_positions

EXACT = 2 ** 40        # a leaf budget no position here reaches: every leaf is solved exactly


def _name(t: int) -> str:
    return f"{_core.tile_lo(t)}-{_core.tile_hi(t)}"


def _engine(obs, worlds, depth, objective="points", threads=1, greedy=()):
    """{canonical move: value} of AlphaMuSearch on explicit worlds (hands, boneyard order);
    greedy: the indices of the worlds that search the opponent as greedy."""
    ds = DealSampler(obs)
    roots = sorted({_core.canonical_of(*m.placement) for m in obs.legal_moves})
    other = 1 << (1 - obs.seat)
    job = _alphamu.AlphaMuSearch(ds.replayed, roots, [(h, b, other if i in greedy else 0)
                                                      for i, (h, b) in enumerate(worlds)], None, depth,
                                 _alphamu.MAX_FRONT, EXACT, 0.0)
    core = _solver.SolverCore(4.0)
    set_core_objective(core, objective, 2)
    job.work(core)
    complete, rows = job.results()
    assert complete
    return {root: row[0] for root, row in zip(roots, rows)}, {root: row[1] for root, row in zip(roots, rows)}


def _reference_states(g, seat, worlds):
    """The reference rules' state of g's position in each world (its own hands and boneyard order)."""
    base = R.state_at(g.to_record(), len(g.rounds) - 1, len(g.current.actions))
    out = []
    for hands, bone in worlds:
        st = base.copy()
        st.hands = [sorted((_name(t) for t in range(28) if (hands[s] >> t) & 1), key=_tile_index)
                    if s != seat else list(base.hands[s]) for s in range(2)]
        st.boneyard = list(base.boneyard[:base.drawn]) + [_name(t) for t in bone]
        out.append(st)
    return out


def _sampled_worlds(obs, n, seed):
    return [(h[:2], b) for h, b in DealSampler(obs).counter.worlds(n, seed)]


# (bone_max, hand_max, seed, k, worlds): late_positions(...)[k] with that many sampled worlds;
# the last two show strategy fusion (alphamu below PIMC on some move; checked below)
# (found by searching late_positions for a move alphamu values below PIMC at depth 2 in the
# reference; re-found when the sampler's world streams changed)
POSITIONS = [(3, 4, 300, k, 2 + k % 3) for k in range(5)] + [(3, 4, 500, 10, 3), (3, 4, 500, 8, 4)]


# the positions of a seed, found once per process: finding them (greedy games played until
# one reaches a late position) took 5-11 s, for each of the 42 cases that read them
_late_positions = functools.lru_cache(maxsize=None)(late_positions)


def _case(bone_max, hand_max, seed, k, n):
    g, seat = _late_positions(12, bone_max, hand_max, seed)[k]      # (read, never changed)
    obs = g.observation(seat)
    return g, seat, obs, _sampled_worlds(obs, n, seed=k)


@pytest.mark.parametrize("case", POSITIONS)
@pytest.mark.parametrize("depth", [1, 2])
def test_values_equal_the_independent_reference(case, depth):
    # 2-4 hidden worlds, draws still to come on some: the reference enumerates the
    # information sets itself, on the reference rules, with exact fractions and full fronts
    g, seat, obs, worlds = _case(*case)
    got, _ = _engine(obs, worlds, depth)
    want = alphamu_values(_reference_states(g, seat, worlds), depth)
    assert len(want) == len(obs.legal_moves)
    for m in obs.legal_moves:
        key = (str(m.tile), None if m.at is None else str(m.at))
        assert got[_core.canonical_of(*m.placement)] == pytest.approx(float(want[key]), abs=1e-9), str(m)


@pytest.mark.parametrize("case", POSITIONS)
@pytest.mark.parametrize("depth", [1, 2])
@pytest.mark.parametrize("which", ["all", "even"])
def test_greedy_opponents_coin_equals_the_independent_reference(case, depth, which):
    # worlds that read the opponent as greedy: it places for the largest accepted
    # credit and its coin picks among those placements; the seat sees which one and
    # may answer each differently, so the world's entry is the mean over the coin's
    # groups (the reference combines full fronts with exact enumeration)
    g, seat, obs, worlds = _case(*case)
    greedy = set(range(len(worlds))) if which == "all" else set(range(0, len(worlds), 2))
    got, _ = _engine(obs, worlds, depth, greedy=greedy)
    want = alphamu_values(_reference_states(g, seat, worlds), depth, greedy)
    for m in obs.legal_moves:
        key = (str(m.tile), None if m.at is None else str(m.at))
        assert got[_core.canonical_of(*m.placement)] == pytest.approx(float(want[key]), abs=1e-9), str(m)


def test_the_reference_coin_by_hand():
    # The opponent's two tied placements A (weight 2: two ends alike) and B (weight 1)
    # in world 0, which reads it as greedy; world 1 has only B and picks.
    try:
        from .reference_alphamu import _coin_product
    except ImportError:
        from reference_alphamu import _coin_product
    # after A the seat may play for world 0 (30) or not (0); after B: world 0 -> 6, world 1 -> -5
    got = _coin_product([[{0: 30}, {0: 0}], [{0: 6, 1: -5}]], [{0: 2}, {0: 1}])
    # world 0: (2 * 30 + 6) / 3 = 22, or (2 * 0 + 6) / 3 = 2 (dominated); world 1: -5
    assert got == [{0: 22, 1: -5}]
    # truncation toward zero: (2 * -7 + -6) / 3 = -20 / 3 -> -6
    assert _coin_product([[{0: -7}], [{0: -6}]], [{0: 2}, {0: 1}]) == [{0: -6}]


@pytest.mark.parametrize("case", POSITIONS[-2:])
def test_the_reference_cases_show_strategy_fusion(case):
    # the comparison above would be weak if alphamu never differed from PIMC there
    g, seat, obs, worlds = _case(*case)
    pimc = alphamu_values(_reference_states(g, seat, worlds), 0)
    deep = alphamu_values(_reference_states(g, seat, worlds), 2)
    assert all(deep[m] <= pimc[m] for m in pimc) and any(deep[m] < pimc[m] for m in pimc)


def test_the_reference_hand_worked_case():
    # Two worlds, equal weights, the seat's one later decision: its front is the union
    # of two vectors per move; the reference's fronts follow the definition by hand.
    try:
        from .reference_alphamu import _min_product, _pareto
    except ImportError:
        from reference_alphamu import _min_product, _pareto
    # union at the seat: (10, 0) and (0, 10) both kept, (0, 0) dominated, (10, 0) once
    assert _pareto([{0: 10, 1: 0}, {0: 0, 1: 10}, {0: 0, 1: 0}, {0: 10, 1: 0}]) == [{0: 10, 1: 0}, {0: 0, 1: 10}]
    # the opponent with two groups over worlds {0, 1} and {1}: world 1 takes the least
    got = _min_product([[{0: 10, 1: 0}, {0: 0, 1: 10}], [{1: 5}]])
    assert got == [{0: 10, 1: 0}, {0: 0, 1: 5}]
    # best mean: PIMC would take 10 in each world (mean 10); alphamu's best vector is worth 5
    assert max(sum(v.values()) / 2 for v in got) == 5


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_one_world_equals_the_solver_for_every_move(depth):
    # with one world there is nothing to fuse: every move's value is the solver's
    for g, seat in late_positions(4, bone_max=4, hand_max=5, seed=40):
        obs = g.observation(seat)
        world = [([sum(1 << _tile_index(str(t)) for t in g.hand(s)) for s in range(2)],
                  [_tile_index(str(t)) for t in g.boneyard])]
        for objective in ("points", "win"):
            got, _ = _engine(obs, world, depth, objective)
            want = world_values(g, objective=objective)
            for m, v in want.items():
                assert got[_core.canonical_of(*m.placement)] == v, (str(m), objective)


@pytest.mark.parametrize("beliefs", ["uniform", "model"])
def test_depth_zero_is_pimc_on_the_same_worlds(beliefs):
    for g, seat in late_positions(3, bone_max=4, hand_max=5, seed=60):
        obs = g.observation(seat)
        a = hint(obs, method="alphamu", depth=0, samples=12, seed=3, beliefs=beliefs, world_nodes=EXACT)
        p = hint(obs, method="pimc", samples=12, seed=3, beliefs=beliefs, world_nodes=EXACT)
        assert p.exact_worlds == p.samples == a.samples
        pv = {str(m.move): m for m in p.moves}
        for m in a.moves:
            assert m.win == pytest.approx(pv[str(m.move)].win, abs=1e-9)
            assert m.points == pytest.approx(pv[str(m.move)].points, abs=1e-9)
            assert m.stderr == pytest.approx(pv[str(m.move)].stderr, abs=1e-9)


@pytest.mark.parametrize("objective", ["points", "win"])
def test_never_above_pimc_on_the_same_worlds_and_leaves(objective):
    # strategy fusion only inflates: a joint strategy is one of the per-world ones
    lower = 0
    for g, seat in late_positions(4, bone_max=6, hand_max=6, seed=80):
        obs = g.observation(seat)
        p = {str(m.move): m.value for m in hint(obs, method="pimc", samples=16, seed=5, beliefs="uniform",
                                                  objective=objective, both=False, world_nodes=EXACT).moves}
        for depth in (1, 2):
            h = hint(obs, method="alphamu", depth=depth, samples=16, seed=5, beliefs="uniform",
                     objective=objective, both=False, world_nodes=EXACT)
            for m in h.moves:
                assert m.value <= p[str(m.move)] + 1e-9
                lower += m.value < p[str(m.move)] - 1e-9
    assert lower >= 1


def test_deterministic_across_thread_counts():
    g, seat = late_positions(1, bone_max=6, hand_max=6, seed=11)[0]
    obs = g.observation(seat)
    out = []
    for threads in (1, 2, 3):
        d = Hinter(threads=threads).hint(obs, method="alphamu", depth=2, samples=16, seed=9).to_dict()
        del d["seconds"]
        d["budget"].pop("threads")
        out.append(d)
    assert out[0] == out[1] == out[2]


def test_time_budget_keeps_the_last_complete_depth():
    g, seat = late_positions(1, bone_max=6, hand_max=6, seed=11)[0]
    obs = g.observation(seat)
    h = hint(obs, method="alphamu", depth=2, time_ms=60_000, seed=9)
    assert h.budget["depth_reached"] == 2
    full = hint(obs, method="alphamu", depth=2, samples=h.samples, seed=9)
    assert [m.to_dict() for m in h.moves] == [m.to_dict() for m in full.moves]
    # a budget too short for depth 1 still answers, at depth 0 (PIMC)
    quick = hint(obs, method="alphamu", depth=8, time_ms=1, seed=9, samples=None)
    assert quick.budget["depth_reached"] < 8


@pytest.mark.parametrize("options,text", [
    ({"depth": -1}, "depth must be an integer from 0 to 8"),
    ({"depth": 9}, "depth must be an integer from 0 to 8"),
    ({"depth": 1.5}, "depth must be an integer"),
    ({"depth": True}, "depth must be an integer"),
    ({"depth": 1, "method": "pimc"}, "depth is an option of method 'alphamu', not of 'pimc'"),
    ({"depth": 1, "method": "exact"}, "depth is an option of method 'alphamu', not of 'exact'"),
    ({"samples": 257}, "samples must be an integer from 1 to 256"),
    ({"world_nodes": 0}, "world_nodes must be"),
])
def test_bad_options(options, text):
    g, seat = late_positions(1, bone_max=6, hand_max=6, seed=11)[0]
    opts = {"method": "alphamu", **options}
    with pytest.raises(OptionError) as e:
        hint(g.observation(seat), **opts)
    assert text in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("players", [3, 4])
def test_refuses_three_and_four_players(players):
    g = Game(players=players, seed=2)
    with pytest.raises(OptionError, match=f"method 'alphamu' searches 2 players, not {players}"):
        hint(g.observation(g.to_move), method="alphamu")


def test_core_checks_its_inputs():
    g, seat = late_positions(1, bone_max=6, hand_max=6, seed=11)[0]
    obs = g.observation(seat)
    ds = DealSampler(obs)
    roots = sorted({_core.canonical_of(*m.placement) for m in obs.legal_moves})
    worlds = [(h[:2], b, 0) for h, b in ds.counter.worlds(2, 1)]
    for bad, text in [((roots + roots, worlds, None, 1), "distinct canonical moves"),
                      ((roots, [], None, 1), "1 to 256 worlds"),
                      ((roots, worlds, [1.0], 1), "one positive number per world"),
                      ((roots, worlds, [1.0, -1.0], 1), "one positive number per world"),
                      ((roots, worlds, None, 9), "depth"),
                      ((roots, [(worlds[0][0], worlds[0][1][:-1], 0)] + worlds[1:], None, 1), "boneyard of"),
                      ((roots, [(worlds[0][0], worlds[0][1], 1 << seat)] + worlds[1:], None, 1),
                       "greedy seats")]:
        with pytest.raises(CoreError, match=text):
            _alphamu.AlphaMuSearch(ds.replayed, *bad, 16, 100, 0.0)
    own = sum(1 << _tile_index(str(t)) for t in g.hand(seat))
    hands = list(worlds[0][0])
    hands[1 - seat] |= own & -own       # one of the seat's own tiles in the opponent's hand too
    twice = [(hands, worlds[0][1], 0)]
    with pytest.raises(CoreError, match="twice"):
        _alphamu.AlphaMuSearch(ds.replayed, roots, twice, None, 1, 16, 100, 0.0)
    for shares, text in [([1], "one number per world"), ([1, 0], "share"), ([1, 2 ** 21], "share"),
                         ([1, "2"], "share"), (3, "list of whole numbers")]:
        with pytest.raises(CoreError, match=text):
            _alphamu.AlphaMuSearch(ds.replayed, roots, worlds, None, 1, 16, 100, 0.0, shares)


def test_a_worlds_share_multiplies_its_leaf_budget():
    # a world drawn k times is searched once with k times the leaf nodes, as PIMC's world
    # budget: the same search as leaf_nodes * k, and (a budget that cuts) not leaf_nodes'
    g = Game(players=2, seed=3)
    g.push(g.legal_moves[0])
    obs = g.observation(g.to_move)
    ds = DealSampler(obs)
    roots = sorted({_core.canonical_of(*m.placement) for m in obs.legal_moves})
    worlds = [(h[:2], b, 0) for h, b in ds.counter.worlds(2, 1)]

    def run_job(leaf, shares):
        job = _alphamu.AlphaMuSearch(ds.replayed, roots, worlds, None, 1, 16, leaf, 0.0, shares)
        job.work(_solver.SolverCore(4.0))
        complete, rows = job.results()
        assert complete
        return [(r[4], r[3]) for r in rows]

    small, shared, big = run_job(200, None), run_job(200, [5, 5]), run_job(1000, None)
    assert shared == big
    assert sum(n for _, n in big) > sum(n for _, n in small) > 0


def _early(seed):
    """A 2-player round after its first placement, the observation of the seat to move."""
    g = Game(players=2, seed=seed)
    g.push(g.legal_moves[0])
    return g.observation(g.to_move)


def _currency_jobs(obs, seed, leaf, first, n=8, depth=1):
    """A first currency's search of the position (n sampled worlds), then the other
    currency's following it, and the other currency's alone."""
    ds = DealSampler(obs)
    roots = sorted({_core.canonical_of(*m.placement) for m in obs.legal_moves})
    worlds = [(h[:2], b, 0) for h, b in ds.counter.worlds(n, seed)]
    second = "points" if first == "win" else "win"
    core = _solver.SolverCore(4.0)

    def run(objective, follow=None):
        set_core_objective(core, objective, 2)
        job = _alphamu.AlphaMuSearch(ds.replayed, roots, worlds, None, depth, 16, leaf, 0.0, follow=follow)
        job.work(core)
        assert job.results()[0]
        return job
    a = run(first)
    return roots, a, run(second, a), run(second)


@pytest.mark.parametrize("first", ["win", "points"])
def test_second_currency_follows_the_first_ones_leaves(first):
    # both currencies walk the same tree (the walk never looks at values), so the
    # second searches each leaf to the horizon the first reached there: no deeper
    # where the budget cut the first (status 1), the round's ends alike (status 0)
    cut = bounded = 0
    followed_nodes = alone_nodes = 0
    for seed in range(1, 6):
        roots, a, b, c = _currency_jobs(_early(seed), seed, 2_000, first)
        for m in range(len(roots)):
            ha, hb, hc = a.leaf_horizons(m), b.leaf_horizons(m), c.leaf_horizons(m)
            assert len(ha) == len(hb) == len(hc) == a.results()[1][m][2] > 0
            for x, y, z in zip(ha, hb, hc):
                assert (x[0] == 0) == (y[0] == 0) == (z[0] == 0)
                if x[0] == 1:
                    cut += 1
                    assert y[1] <= x[1]
                bounded += y[1] < z[1]
        followed_nodes += sum(r[3] for r in b.results()[1])
        alone_nodes += sum(r[3] for r in c.results()[1])
    assert cut > 0 and bounded > 0, "no horizon bounded the second currency: the test shows nothing"
    assert followed_nodes < 0.8 * alone_nodes


@pytest.mark.parametrize("first", ["win", "points"])
def test_second_currency_following_exact_leaves_has_the_same_values(first):
    # every leaf solved exactly: the horizons skip passes (less or other work), never a value
    changed = 0
    for k, (g, seat) in enumerate(late_positions(4, bone_max=6, hand_max=6, seed=80)):
        roots, a, b, c = _currency_jobs(g.observation(seat), k, EXACT, first, depth=2)
        rb, rc = b.results()[1], c.results()[1]
        assert [(r[0], r[1], r[2], r[4]) for r in rb] == [(r[0], r[1], r[2], r[4]) for r in rc]
        assert all(h[0] != 1 for m in range(len(roots)) for h in b.leaf_horizons(m))
        changed += [r[3] for r in rb] != [r[3] for r in rc]
    assert changed, "following changed no search: the test shows nothing"


def test_follow_is_checked():
    obs = _early(3)
    ds = DealSampler(obs)
    roots = sorted({_core.canonical_of(*m.placement) for m in obs.legal_moves})
    worlds = [(h[:2], b, 0) for h, b in ds.counter.worlds(3, 1)]
    core = _solver.SolverCore(4.0)

    def job(depth=1, leaf=200, ws=worlds, moves=roots, shares=None, follow=None):
        return _alphamu.AlphaMuSearch(ds.replayed, moves, ws, None, depth, 16, leaf, 0.0, shares, follow=follow)
    first = job()
    waiting = job(follow=first)
    with pytest.raises(CoreError, match="work the followed search first"):
        waiting.work(core)                  # its moves not taken: waiting on them could wait forever
    first.work(core)
    assert waiting.following is first and first.following is None
    waiting.work(core)
    assert waiting.results()[0]
    for kwargs, text in [(dict(depth=2), "same position"), (dict(leaf=300), "same position"),
                         (dict(ws=worlds[:2]), "same position"), (dict(ws=worlds[::-1]), "same position"),
                         (dict(moves=roots[:-1]), "same position"), (dict(shares=[1, 2, 1]), "same position")]:
        with pytest.raises(CoreError, match=text):
            job(follow=first, **kwargs)
    for bad in (3, "job", [first]):
        with pytest.raises(CoreError, match="follow must be an AlphaMuSearch"):
            job(follow=bad)
    with pytest.raises(CoreError, match="initialised"):
        job(follow=_alphamu.AlphaMuSearch.__new__(_alphamu.AlphaMuSearch))
    with pytest.raises(CoreError, match="move_index"):
        first.leaf_horizons(len(roots))


def test_a_follower_of_a_search_that_gave_up_gives_up():
    # a followed search past its deadline leaves root moves unsearched (and untaken): a
    # search following it, after it or on other threads at once, neither waits forever
    # nor refuses; it gives up too, incomplete
    import threading
    obs = _early(2)
    ds = DealSampler(obs)
    roots = sorted({_core.canonical_of(*m.placement) for m in obs.legal_moves})
    assert len(roots) >= 3
    worlds = [(h[:2], b, 0) for h, b in ds.counter.worlds(8, 1)]

    def job(seconds, follow=None):
        return _alphamu.AlphaMuSearch(ds.replayed, roots, worlds, None, 1, 16, 2_000, seconds, follow=follow)
    first = job(1e-9)
    first.work(_solver.SolverCore(1.0))
    assert not first.results()[0]
    second = job(0.0, follow=first)
    second.work(_solver.SolverCore(1.0))
    assert not second.results()[0]
    for _ in range(5):
        first = job(1e-9)
        second = job(0.0, follow=first)
        cores = [_solver.SolverCore(1.0) for _ in range(3)]
        threads = [threading.Thread(target=lambda c=c: (first.work(c), second.work(c)), daemon=True) for c in cores]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        assert not any(t.is_alive() for t in threads), "a follower waited forever"
        assert not first.results()[0] and not second.results()[0]


def _spied_runs(hinter):
    """The hinter's alphamu runs, recorded as they are made: (depth, objectives, the
    search followed, the searches made)."""
    runs = []
    orig = hinter._alphamu_run

    def spy(*args, **kw):
        out = orig(*args, **kw)
        runs.append((args[5], args[6], kw.get("follow"), [job for _, _, job in out]))
        return out
    hinter._alphamu_run = spy
    return runs


def test_hint_second_currency_follows_the_first_search():
    # a both-currency alphamu hint: one dispatch of the threads for both searches; its
    # first currency is the single-currency hint's, value for value; its second is
    # searched following that first search's leaves, for fewer nodes than a separate
    # hint of that currency
    hinter = Hinter(threads=2)
    runs = _spied_runs(hinter)
    second_nodes = separate_nodes = 0
    for seed in (2, 8, 10):
        obs = _early(seed)
        assert len(obs.legal_moves) > 1
        for objective in ("win", "points"):
            other = "points" if objective == "win" else "win"
            runs.clear()
            both = hinter.hint(obs, method="alphamu", seed=4, objective=objective)
            (_, objectives, follow, (first, second)), = runs
            assert objectives == (objective, other) and follow is None
            assert first.following is None and second.following is first
            main_ = hinter.hint(obs, method="alphamu", seed=4, objective=objective, both=False)
            assert [(m.move, m.value, m.stderr) for m in both.moves] == \
                [(m.move, m.value, m.stderr) for m in main_.moves]
            alone = hinter.hint(obs, method="alphamu", seed=4, objective=other, both=False)
            second_nodes += both.nodes - main_.nodes
            separate_nodes += alone.nodes
    assert 0 < second_nodes < 0.8 * separate_nodes


def test_time_budget_second_currency_follows_the_depth_reached():
    # under time_ms the first currency deepens from 0; the second is searched at the
    # depth reached, following the first currency's search of that depth
    hinter = Hinter(threads=2)
    runs = _spied_runs(hinter)
    h = hinter.hint(_early(2), method="alphamu", depth=2, time_ms=60_000, seed=4)
    assert h.budget["depth_reached"] == 2
    *firsts, (depth, objectives, follow, (second,)) = runs
    assert [(d, o, f) for d, o, f, _ in firsts] == [(0, ("win",), None), (1, ("win",), None), (2, ("win",), None)]
    assert (depth, objectives) == (2, ("points",)) and follow is firsts[-1][3][0] and second.following is follow


def test_one_distinct_world_is_pimcs_hint():
    # at an empty boneyard with 2 players every hidden tile is the opponent's: the 48
    # draws are one world (the told model draws greedy in all), nothing is left to fuse,
    # and alphamu's hint is PIMC's: the same world, searched with PIMC's budget for the
    # draws it stands for, whatever alphamu's own leaf budget (here 1 node a leaf)
    from fiveup_solver.beliefs import OpponentModel
    told = OpponentModel(grid=(("credit", 3.0),), floor=0.005)
    for g, seat in late_positions(4, bone_max=0, hand_max=7, seed=5):
        obs = g.observation(seat)
        for beliefs, model in (("uniform", None), ("model", told)):
            a = hint(obs, method="alphamu", seed=1, beliefs=beliefs, model=model, world_nodes=1)
            p = hint(obs, method="pimc", seed=1, beliefs=beliefs, model=model)
            assert a.budget["distinct_worlds"] == 1
            pv = {str(m.move): m for m in p.moves}
            for m in a.moves:
                assert m.win == pytest.approx(pv[str(m.move)].win, abs=1e-12), str(m.move)
                assert m.points == pytest.approx(pv[str(m.move)].points, abs=1e-12), str(m.move)


def _record(tmp_path):
    g, seat = late_positions(1, bone_max=6, hand_max=6, seed=11)[0]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(g.to_record()))
    return g, seat, path


def run(capsys, argv):
    rc = main(argv)
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def test_cli_hint_alphamu(tmp_path, capsys):
    g, seat, path = _record(tmp_path)
    rc, out, err = run(capsys, ["hint", str(path), "--seat", str(seat), "--method", "alphamu", "--depth", "2",
                                "--samples", "8", "--seed", "3", "--json"])
    assert rc == 0 and err == ""
    d = json.loads(out)
    assert d["method"] == "alphamu" and d["budget"]["depth"] == 2 and d["samples"] == 8
    api = Hinter().hint(g.observation(seat), method="alphamu", depth=2, samples=8, seed=3).to_dict()
    del d["seconds"], api["seconds"]
    assert d == api
    rc, out, err = run(capsys, ["hint", str(path), "--seat", str(seat), "--method", "alphamu", "--samples", "4"])
    assert rc == 0 and "alphamu depth 1" in out and "best: " in out


@pytest.mark.parametrize("argv,text", [
    (["--method", "pimc", "--depth", "1"], "depth is an option of method 'alphamu'"),
    (["--method", "alphamu", "--depth", "-1"], "depth must be an integer from 0 to 8"),
    (["--method", "alphamu", "--samples", "300"], "samples must be an integer from 1 to 256"),
])
def test_cli_bad_depth(argv, text, tmp_path, capsys):
    g, seat, path = _record(tmp_path)
    rc, out, err = run(capsys, ["hint", str(path), "--seat", str(seat), *argv])
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and text in err


def test_bot_hint_alphamu_plays_legal_moves():
    g = Game(players=2, seed=5)
    rng = random.Random(1)
    for _ in range(6):
        if g.round_over:
            break
        obs = g.observation(g.to_move)
        m = choose("hint-alphamu" if g.to_move == 0 else "greedy", obs, rng)
        assert m in g.legal_moves
        g.push(m)


def test_bot_names_with_a_budget():
    from fiveup_solver.bots import BOTS, bot_function
    assert bot_function("hint-alphamu:8:500") is not None and bot_function("hint-alphamu-win:8:500") is not None
    assert "hint-alphamu-maxn" not in BOTS            # 2 players only: no 3-player search variants
    with pytest.raises(OptionError, match="unknown bot"):
        bot_function("hint-alphamu-x:8:500")


def test_a_model_belief_line_counts_the_worlds_searched_once():
    """4 sampled worlds of which 2 distinct: the header said '(2 distinct)' while the
    beliefs line said '4 distinct worlds searched' (alphamu's belief had no 'searches',
    as PIMC's has). A late position of a self-play game (tests/data)."""
    from pathlib import Path

    from fiveup_solver.beliefs import describe
    from fiveup_solver.record import game_at, load_record
    g = game_at(load_record(str(Path(__file__).parent / "data" / "alphamu_repeated_draws.json")), 11, 39)
    h = hint(g.observation(0), method="alphamu", samples=4, depth=1)
    assert h.belief["distinct_worlds"] == 4 and h.belief["searches"] == h.budget["distinct_worlds"] == 2
    assert "4 worlds planned, 2 searched" in describe(h.belief)
