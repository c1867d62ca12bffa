"""Solver threads (Lazy SMP, issue 24): the values do not depend on the thread count.

Helper threads search the same position in their own move orders and share the
transposition table without locks (an entry's key word is stored XOR its data,
so an entry torn by two writers is never read as another position's). Every
bound in the table is a true bound, so the main thread's value is the exact one
whatever the helpers stored; only the node counts vary. Checked here: the
values with 2 and 3 threads equal those of 1 thread on every benchmark suite
(both objectives), every move's value of `Solver.solve` too, and on positions
small enough for it the value of a full-window alpha-beta without any table
(an independent search: no MTD(f), no shared entries).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from fiveup_solver.bench import load_suite
from fiveup_solver.cli import main
from fiveup_solver.errors import OptionError
from fiveup_solver.game import Game
from fiveup_solver.solver import DEFAULT_THREADS, MAX_THREADS, Solver

DATA = Path(__file__).resolve().parent.parent / "benchmarks" / "data"
SUITES = ("openings_2p", "openings_4p", "midround", "near_target")


@pytest.mark.parametrize("name", SUITES)
def test_two_threads_give_the_values_of_one(name):
    games = load_suite(DATA / f"{name}.json")
    one = Solver(tt_mb=16, both=False, threads=1)
    two = Solver(tt_mb=16, both=False, threads=2)
    helper_nodes = 0
    for g in games:
        v1, _ = one.value(g)
        v2, n2 = two.value(g)
        assert v2 == v1
        helper_nodes += two.core.helper_nodes
        assert 0 <= two.core.helper_nodes < n2
        assert one.core.helper_nodes == 0
    if name == "openings_4p":
        # the helper really searched (20 tiles in the hands): the test above can fail
        assert helper_nodes > 0
    if name == "openings_2p":
        # 14 tiles in the hands: below the size where a helper is started
        assert helper_nodes == 0


@pytest.mark.parametrize("name", ["openings_4p", "midround"])
def test_three_threads_win_objective_values(name):
    games = load_suite(DATA / f"{name}.json")[:30]
    one = Solver(tt_mb=16, both=False, threads=1, objective="win")
    three = Solver(tt_mb=16, both=False, threads=3, objective="win")
    for g in games:
        assert three.value(g)[0] == one.value(g)[0]


def test_every_move_value_both_currencies():
    games = load_suite(DATA / "openings_4p.json")[:12] + load_suite(DATA / "midround.json")[:12]
    one = Solver(tt_mb=16, threads=1)
    two = Solver(tt_mb=16, threads=2)
    for g in games:
        a, b = one.solve(g), two.solve(g)
        assert (b.value, b.values, b.best, b.win, b.points) == (a.value, a.values, a.best, a.win, a.points)
        # the line is one of best play: its first move has the root's value
        if b.pv:
            assert b.values[b.pv[0]] == b.value


def test_two_threads_equal_a_full_window_search_without_table():
    """An independent search: plain alpha-beta, full window, no table (a node cap keeps it small),
    on 4-player positions two placements in (18 tiles in the hands: the helper is started)."""
    plain = Solver(tt_mb=1, use_tt=False, node_limit=1_000_000, both=False)
    two = Solver(tt_mb=16, both=False, threads=2)
    compared = helper_nodes = 0
    for seed in range(60):
        g = Game(players=4, seed=1000 + seed)
        for _ in range(2):
            g.push(g.legal_moves[0])
        if g.round_over:
            continue
        v, _ = plain.value(g)
        if v is None:
            continue
        assert two.value(g)[0] == v
        helper_nodes += two.core.helper_nodes
        compared += 1
    assert compared >= 20 and helper_nodes > 0


def test_the_line_is_reproducible_with_threads():
    g = load_suite(DATA / "openings_4p.json")[7]
    lines = [Solver(tt_mb=16, threads=2, both=False).solve(g).pv for _ in range(3)]
    assert lines[0] == lines[1] == lines[2] and lines[0]


def test_a_node_limit_searches_on_one_thread():
    """Where a node limit cuts a search must be reproducible: no helper then."""
    games = load_suite(DATA / "openings_4p.json")[:20]
    for limit in (5_000, 10 ** 9):
        one = Solver(tt_mb=16, both=False, threads=1, node_limit=limit)
        two = Solver(tt_mb=16, both=False, threads=2, node_limit=limit)
        for g in games:
            assert two.value(g) == one.value(g)
            assert two.core.helper_nodes == 0


@pytest.mark.parametrize("bad", [0, 65, -1, 1.5, True, "2", None])
def test_threads_option_is_checked(bad):
    with pytest.raises(OptionError, match="threads must be an integer from 1 to 64"):
        Solver(threads=bad)


def test_a_solver_and_a_hint_take_the_same_thread_counts():
    # one limit for both (they were 1..16 and 1..64): the largest works in each
    from fiveup_solver.hint import Hinter
    assert MAX_THREADS == 64
    assert Solver(threads=MAX_THREADS, tt_mb=1).core.threads == MAX_THREADS
    assert Hinter(threads=MAX_THREADS, tt_mb=0.1).threads == MAX_THREADS
    with pytest.raises(OptionError, match="from 1 to 64"):
        Hinter(threads=MAX_THREADS + 1)


def test_default_threads():
    assert Solver().threads == DEFAULT_THREADS == Solver().core.threads


def test_cli_solve_threads(tmp_path, capsys):
    g = Game(players=4, seed=5)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(g.to_record()))
    outs = []
    for threads in ("1", "2"):
        assert main(["solve", str(path), "--round", "0", "--action", "0", "--json", "--threads", threads]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0]["values"] == outs[1]["values"] and outs[0]["win"] == outs[1]["win"]
    assert main(["solve", str(path), "--round", "0", "--action", "0", "--threads", "0"]) != 0
    err = capsys.readouterr().err
    assert "threads must be an integer from 1 to 64" in err and "Traceback" not in err


def test_bench_times_two_threads_only_where_they_start():
    """A review: ``fiveup bench --solver`` timed ``value_2_threads`` on the 2-player
    openings, where the solver never starts a helper (it does from 18 hand tiles on), so
    the row timed one thread under another name. RULES 2.1 deals 5 tiles a seat: a
    2-player opening holds 10 hand tiles, a 4-player one 20."""
    from fiveup_solver.bench import solver_modes
    labels = {name: [m[0] for m in solver_modes(name, load_suite(DATA / f"{name}.json"))]
              for name in ("openings_2p", "openings_4p")}
    assert "value_2_threads" not in labels["openings_2p"] and "value_2_threads" in labels["openings_4p"]
    assert labels["openings_2p"] == ["value", "value_win", "value_no_pruning"]
