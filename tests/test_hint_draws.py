"""A world drawn k times is searched once with k times the nodes (``hint._group_draws``,
``_hint.WorldSearch(shares=)``): the same budget as k searches of it, spent on one."""
from __future__ import annotations

import functools
import itertools
import re

import pytest

from fiveup_solver import _core, _hint
from fiveup_solver.errors import CoreError
from fiveup_solver.hint import Hinter, _group_draws, hint
from fiveup_solver.inference import DealSampler

try:
    from .test_exact import iter_late_positions, late_positions
except ImportError:
    from test_exact import iter_late_positions, late_positions


def test_grouping_keeps_each_draw_and_the_first_draws_stream():
    a, b = ([1, 0], [5, 6]), ([2, 0], [5, 6])
    worlds = [(10, *a), (11, *b), (12, *a), (13, *a), (14, *b)]
    g = _group_draws(worlds)
    assert [w[0] for w in g.worlds] == [10, 11]          # a group searches with its first draw's stream
    assert g.shares == [3, 2] and g.members == [[0, 2, 3], [1, 4]]
    # a resampled plan's entries already stand for several draws each
    assert _group_draws(worlds[:2], [4, 1]).shares == [4, 1]
    # another opponent model (greedy seats) is another world
    assert len(_group_draws([(0, *a, 0), (1, *a, 2)]).worlds) == 2
    out = g.expand([(0, 2, 5, 100, [1.0]), (1, 1, 3, 40, [2.0])])
    assert [r[0] for r in out] == [0, 1, 2, 3, 4]
    assert [r[4] for r in out] == [[1.0], [2.0], [1.0], [1.0], [2.0]]
    assert sum(r[3] for r in out) == 140                 # a repeated draw adds no nodes of its own


def _one_world_positions(count):
    """2-player positions with an empty boneyard: the other hand is known, one world."""
    out = _late_one_world()
    assert len(out) >= count
    return out[:count]


@functools.lru_cache(maxsize=1)
def _late_one_world():
    # the first 4 with 10 tiles in hand among the first 40 late positions, played lazily
    found = (p for p in itertools.islice(iter_late_positions(0, 9, seed=700), 40)
             if sum(len(p[0].hand(s)) for s in range(2)) >= 10)
    return list(itertools.islice(found, 4))


@pytest.mark.parametrize("beliefs", ["uniform", "model"])
def test_one_possible_world_is_searched_once_with_the_whole_budget(beliefs):
    # 48 draws of the one world: one search with 48 x the nodes, as a 1-world hint with them
    bigger = 0
    for g, seat in _one_world_positions(4):
        obs = g.observation(seat)
        many = hint(obs, seed=5, samples=48, world_nodes=300, beliefs="uniform")
        one = hint(obs, seed=5, samples=1, world_nodes=48 * 300, beliefs="uniform")
        assert many.budget["distinct_worlds"] == 1 and many.samples == 48
        assert [(m.move, m.win, m.points) for m in many.moves] == [(m.move, m.win, m.points) for m in one.moves]
        assert many.nodes == one.nodes
        bigger += many.nodes > 2 * 300          # more than one 300-node search could take
        if beliefs == "model":
            h = hint(obs, seed=5, samples=48, world_nodes=300, beliefs="model")
            assert h.budget["distinct_worlds"] <= 2 and h.samples == 48   # the world, greedy or not
    assert bigger >= 2


def _roots(obs):
    return sorted({_core.canonical_of(*m.placement) for m in obs.legal_moves if m.kind == "play"})


def test_a_share_multiplies_the_node_budget_of_its_world():
    g, seat = _one_world_positions(4)[1]
    obs = g.observation(seat)
    ds = DealSampler(obs)
    base = ds.replayed
    (hands, bone), = ds.counter.worlds(1, 7)
    roots = _roots(obs)
    core = Hinter(threads=1)._cores[0]
    from fiveup_solver.solver import set_core_objective
    set_core_objective(core, "points", 2)
    status = {}
    for share in (1, 64):
        job = _hint.WorldSearch(base, ds.counter, ds.hidden_seats, roots, 0, 200, 6, 1, 1, 1, 0.0, None,
                                [(0, hands[:2], bone)], shares=[share])
        job.work(core)
        (_, st, _, nodes, _), = job.results()
        status[share] = (st, nodes)
    assert status[1][0] == 1 and status[1][1] <= 200 + 2000      # cut at its depth (one budget)
    assert status[64][1] > status[1][1]                          # searched further with 64 budgets


@pytest.mark.parametrize("shares, words", [
    ([1, 1], ["2 shares", "n_worlds 1"]), ([0], ["share", "0"]), (["2"], ["share"]), (7, ["list"]),
])
def test_bad_shares_are_refused(shares, words):
    g, seat = _one_world_positions(1)[0]
    obs = g.observation(seat)
    ds = DealSampler(obs)
    (hands, bone), = ds.counter.worlds(1, 7)
    legal = _roots(obs)
    with pytest.raises(CoreError) as err:
        _hint.WorldSearch(ds.replayed, ds.counter, ds.hidden_seats, legal, 0, 200, 6, 1, 1, 1, 0.0, None,
                          [(0, hands[:2], bone)], shares=shares)
    assert all(w in str(err.value) for w in words), str(err.value)
    with pytest.raises(CoreError, match="given worlds"):
        _hint.WorldSearch(ds.replayed, ds.counter, ds.hidden_seats, legal, 0, 200, 6, 1, 1, 1, 0.0, shares=[1])


def test_a_model_hint_says_how_many_searches_its_plan_took():
    from fiveup_solver.beliefs import describe
    g, seat = _one_world_positions(1)[0]
    h = hint(g.observation(seat), seed=1, samples=48, world_nodes=300)      # model beliefs, the default
    n = h.budget["distinct_worlds"]
    assert h.belief["searches"] == n < h.belief["distinct_worlds"] == 48
    assert f"48 worlds planned, {n} searched" in describe(h.belief)


# ---------------------------------------------------------------- repeated draws under a time budget
# A time budget draws worlds until its time is up: a repeated draw takes its world's
# values, and the world is searched again with k x the nodes when its draws reach k = 2, 4,
# 8, ... (unless a search of it finished uncut). Expected: the draw numbers searched are
# the powers of two minus one (a world's k-th draw is draw k - 1 when every draw is the one
# world), and every draw carries the values of the largest search.

def _sampled_job(obs, ds, n_worlds, world_nodes, seconds=0.0):
    return _hint.WorldSearch(ds.replayed, ds.counter, ds.hidden_seats, _roots(obs), 0, world_nodes, 6, 3,
                             n_worlds, 1, seconds)


def _points_core():
    from fiveup_solver.solver import set_core_objective
    core = Hinter(threads=1)._cores[0]
    set_core_objective(core, "points", 2)
    return core


def test_a_repeated_draw_is_searched_again_only_when_its_draws_double():
    g, seat = _one_world_positions(4)[1]          # its exact solve takes about a million nodes
    obs = g.observation(seat)
    ds = DealSampler(obs)
    core = _points_core()
    job = _sampled_job(obs, ds, 8, 50)
    job.work(core)
    res = job.results()
    assert [r[0] for r in res] == list(range(8))
    assert [r[0] for r in res if r[3] > 0] == [0, 1, 3, 7] == job.searched_draws()
    assert len({tuple(r[4]) for r in res}) == 1
    # the values are those of one search of the world with 8 x the nodes
    (hands, bone), = ds.counter.worlds(1, 7)
    alone = _hint.WorldSearch(ds.replayed, ds.counter, ds.hidden_seats, _roots(obs), 0, 50, 6, 3, 1, 1, 0.0,
                              None, [(7, hands[:2], bone)], shares=[8])
    alone.work(core)
    (_, st, depth, nodes, values), = alone.results()
    assert res[0][1:3] == (st, depth) and res[0][4] == values
    assert res[7][3] == nodes                     # the eighth draw made that search
    assert job.group_plan() == ([7], [8], [list(range(8))]) and job.distinct_worlds == 1
    # the second currency's search of the plan: the world copied in C, with its stream and budget
    again = _hint.WorldSearch(ds.replayed, ds.counter, ds.hidden_seats, _roots(obs), 0, 50, 6, 3, 1, 1, 0.0,
                              shares=[8], source=job, source_draws=[7])
    again.work(core)
    assert again.results() == alone.results()


def test_a_world_solved_uncut_is_not_searched_again():
    g, seat = _one_world_positions(4)[0]          # solved exactly within a few thousand nodes
    obs = g.observation(seat)
    ds = DealSampler(obs)
    job = _sampled_job(obs, ds, 64, 10 ** 6)
    job.work(_points_core())
    res = job.results()
    assert len(res) == 64 and [r[0] for r in res if r[3] > 0] == [0] == job.searched_draws()
    assert {r[1] for r in res} == {2}             # exact, at every draw


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("beliefs", ["uniform", "model"])
def test_a_time_budget_hint_in_a_one_world_position_reaches_the_exact_values(threads, beliefs):
    # Before, every draw of the one world was searched with world_nodes again: 300-node
    # searches gave win 60.4 % for a move worth 65.5 % exactly (first position). Now the
    # world's search doubles until it is exact, then draws are free until 256 per search.
    from fiveup_solver.solver import Solver
    hinter = Hinter(threads=threads)
    for g, seat in [_one_world_positions(4)[k] for k in (2, 3, 0)]:
        exact = Solver(objective="win").solve(g)
        assert exact.seat == seat
        h = hinter.hint(g.observation(seat), seed=3, time_ms=60_000, world_nodes=300, beliefs=beliefs)
        assert h.budget["distinct_worlds"] <= 2             # the world (greedy or not, by the model)
        assert h.budget["searches"] < h.samples <= 256 * h.budget["searches"]
        if beliefs == "uniform":
            # stopped by the draws cap, not the clock (with 2 threads a draw beside the cap may be left)
            assert 256 * h.budget["searches"] - threads < h.samples <= 256 * h.budget["searches"]
            for m in h.moves:
                assert m.win == pytest.approx(exact.win[str(m.move)], abs=1e-9), m.move
                assert m.points == exact.points[str(m.move)], m.move


def test_the_hint_command_says_how_many_worlds_it_searched(tmp_path, capsys):
    import json

    from fiveup_solver.cli import main
    g, seat = _one_world_positions(4)[0]
    path = tmp_path / "one_world.json"
    path.write_text(json.dumps(g.to_record()))
    assert main(["hint", str(path), "--seat", str(seat), "--time-ms", "60000", "--world-nodes", "300",
                 "--beliefs", "uniform", "--seed", "2"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    # one world, drawn 256 times per search until the cap (the clock is far off)
    draws, searches = (int(x) for x in re.search(r"(\d+) sampled worlds \(1 distinct, (\d+) searches\)", head).groups())
    assert draws == 256 * searches, head
    assert main(["hint", str(path), "--seat", str(seat), "--samples", "48", "--world-nodes", "300",
                 "--beliefs", "uniform"]) == 0
    assert "48 sampled worlds (1 distinct)," in capsys.readouterr().out.splitlines()[0]


@functools.lru_cache(maxsize=1)
def _few_world_positions():
    """2-player positions with at most one boneyard tile: a handful of possible worlds."""
    return late_positions(6, bone_max=1, hand_max=9, seed=900)


@pytest.mark.parametrize("k", range(6))
def test_repeated_draws_follow_the_doubling_rule_drawn_by_hand(k):
    # An independent account of the rule, from the sampler's own draws (world w of a
    # search with seed s is counter.worlds(., s ^ _WORLD_STREAM)[w], as the hint's plan
    # draws it): in draw order, a world's 1st, 2nd, 4th, 8th ... draw is searched with
    # 1, 2, 4, 8 ... x world_nodes until one of its searches ends uncut; every draw of it
    # then carries the values of its last search. Checked against given-world searches.
    from fiveup_solver.hint import _WORLD_STREAM
    g, seat = _few_world_positions()[k]
    obs = g.observation(seat)
    ds = DealSampler(obs)
    core = _points_core()
    n, nodes, seed = (5, 17, 40, 23, 33, 12)[k], 40, 11 + k
    job = _hint.WorldSearch(ds.replayed, ds.counter, ds.hidden_seats, _roots(obs), 0, nodes, 6, seed, n, 1, 0.0)
    job.work(core)
    got = {r[0]: r for r in job.results()}
    draws = ds.counter.worlds(n, seed ^ _WORLD_STREAM)
    groups = {}
    for w, (hands, bone) in enumerate(draws):
        groups.setdefault((tuple(hands), tuple(bone)), []).append(w)
    assert sorted(got) == list(range(n)) and len(job.group_plan()[0]) == len(groups) == job.distinct_worlds
    expected_searches = set()
    for (hands, bone), members in groups.items():
        last = None
        for j, w in enumerate(members):
            count = j + 1
            if count & (count - 1):
                continue                                   # not a power of two: a repeat
            one = _hint.WorldSearch(ds.replayed, ds.counter, ds.hidden_seats, _roots(obs), 0, nodes, 6, seed, 1, 1,
                                    0.0, None, [(w, list(hands)[:2], list(bone))], shares=[count])
            one.work(core)
            last = one.results()[0]
            expected_searches.add(w)
            if last[1] == 2:
                break                                      # uncut: no draw of it is searched again
        for w in members:
            assert got[w][1:3] == last[1:3] and got[w][4] == last[4], (w, members)
    assert set(job.searched_draws()) == expected_searches
    assert all(got[w][3] == 0 for w in got if w not in expected_searches)   # a repeat adds no nodes


def _many_world_position():
    """A 2-player position with 5 boneyard tiles: thousands of possible worlds."""
    return late_positions(1, bone_max=5, hand_max=7, seed=5)[0]


@pytest.mark.parametrize("max_groups", [None, 10])
def test_the_table_of_worlds_grows_and_a_full_table_searches_every_draw(max_groups):
    # 400 draws of a position with thousands of worlds: the table grows past its first
    # 16 groups and 32 index entries; with room for 10 groups the 11th world on is searched
    # at each of its draws, counted once per draw (an upper bound on the distinct worlds)
    from fiveup_solver.hint import _WORLD_STREAM
    g, seat = _many_world_position()
    obs = g.observation(seat)
    ds = DealSampler(obs)
    job = _hint.WorldSearch(ds.replayed, ds.counter, ds.hidden_seats, _roots(obs), 0, 10, 6, 9, 400, 1, 0.0)
    if max_groups is not None:
        job._set_max_groups(max_groups)
    job.work(_points_core())
    draws = [(tuple(h), tuple(b)) for h, b in ds.counter.worlds(400, 9 ^ _WORLD_STREAM)]
    first = {}
    for w, world in enumerate(draws):
        first.setdefault(world, w)
    assert len(first) > 24                                    # the index was rebuilt
    res = job.results()
    assert [r[0] for r in res] == list(range(400))
    sources, shares, members = job.group_plan()
    assert sorted(w for m in members for w in m) == list(range(400))
    if max_groups is None:
        assert job.distinct_worlds == len(first) == len(sources)
        assert sorted(m[0] for m in members) == sorted(first.values())
        assert all(len({draws[w] for w in m}) == 1 for m in members)
    else:
        recorded = sorted(first.values())[:10]               # the first ten worlds drawn
        outside = [w for w in range(400) if first[draws[w]] not in recorded]
        assert job.distinct_worlds == 10 + len(outside) == len(sources)
        assert sorted(job.searched_draws()) == sorted(set(job.searched_draws()))
        assert set(outside) <= set(job.searched_draws())


def test_a_source_search_is_checked():
    g, seat = _one_world_positions(4)[1]
    obs = g.observation(seat)
    ds = DealSampler(obs)
    core = _points_core()
    job = _sampled_job(obs, ds, 4, 50)
    job.work(core)
    roots = _roots(obs)

    def again(**kw):
        args = dict(base=ds.replayed, counter=ds.counter, roots=roots, n=1, source=job, source_draws=[3])
        args.update(kw)
        return _hint.WorldSearch(args["base"], args["counter"], ds.hidden_seats, args["roots"], 0, 50, 6, 3,
                                 args["n"], 1, 0.0, worlds=args.get("worlds"), source=args["source"],
                                 source_draws=args["source_draws"])

    again()                                                   # draw 3: the world's 4th draw, searched
    with pytest.raises(CoreError, match="was not searched"):
        again(source_draws=[2])                               # a repeat
    with pytest.raises(CoreError, match="source draw"):
        again(source_draws=[4])
    with pytest.raises(CoreError, match="1 source draws given for n_worlds 2"):
        again(n=2)
    with pytest.raises(CoreError, match="same position, seats and root moves"):
        again(roots=roots[:1])
    other, other_seat = _one_world_positions(4)[2]
    with pytest.raises(CoreError, match="same position"):
        again(base=DealSampler(other.observation(other_seat)).replayed, roots=_roots(other.observation(other_seat)))
    (hands, bone), = ds.counter.worlds(1, 7)
    with pytest.raises(CoreError, match="either worlds or source"):
        again(worlds=[(0, hands[:2], bone)])
    with pytest.raises(CoreError, match="source must be a WorldSearch, not str"):
        again(source="x")
    with pytest.raises(CoreError, match="give source too"):
        again(source=None)
    for bad in ([-1], [1.5], ["3"], [True], [2 ** 70], None):
        with pytest.raises(CoreError, match="source draw"):
            again(source_draws=bad)
    # a search of one given world (value_world, no deal sampler) is no source of sampled worlds
    lone = _hint.WorldSearch(ds.replayed, None, ds.hidden_seats, roots, 0, 50, 6, 3, 1, 1, 0.0)
    true = g.current.core                                     # the one world: the game's own
    lone.value_world(core, [true.hand(s) for s in range(2)], true.boneyard_left)
    assert lone.group_plan() == ([0], [1], [[0]])
    with pytest.raises(CoreError, match="neither worlds nor a deal sampler"):
        again(counter=None, source=lone, source_draws=[0])
