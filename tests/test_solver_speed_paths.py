"""The speed paths of the solver give the values of the plain search (issue 24).

* Win objective: an exact solve (no depth or node limit) steps its MTD(f) tests
  further on repeated fails; its values must equal a full-window alpha-beta
  without the table (no MTD(f) at all), and the plain MTD(f) run under a node
  limit too large to be reached.
* The transposition table stays within the size it was given (its bytes, and
  the resident memory of a fresh process that solves with it).

Speed itself is measured in benchmarks/ (compare_builds.py, cli_solve_speed.py).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fiveup_solver import _solver
from fiveup_solver.bench import load_suite
from fiveup_solver.solver import Solver

from bench_scripts import benchmark_script

DATA = Path(__file__).resolve().parent.parent / "benchmarks" / "data"


def _small_positions(name, node_cap, players=None):
    """Suite positions a full-window search without the table solves within node_cap nodes."""
    out = []
    plain = Solver(tt_mb=1, use_tt=False, node_limit=node_cap, objective="win", both=False)
    for g in load_suite(DATA / f"{name}.json"):
        if players is not None and g.players != players:
            continue
        v, _ = plain.value(g)
        if v is not None:
            out.append((g, v))
    return out


@pytest.mark.parametrize("name", ["midround", "near_target"])
def test_win_values_with_mtd_steps_equal_full_window_search(name):
    positions = _small_positions(name, 150_000)
    assert len(positions) >= 40, "too few positions to compare"
    stepped = Solver(tt_mb=4, objective="win", both=False)
    plain_mtd = Solver(tt_mb=4, objective="win", both=False, node_limit=2 ** 62)  # a limit: no steps
    for g, full_window in positions:
        assert stepped.value(g)[0] == full_window
        assert plain_mtd.value(g)[0] == full_window


def test_win_move_values_with_mtd_steps_equal_full_window_search():
    positions = _small_positions("midround", 40_000)[:25]
    assert len(positions) >= 20
    stepped = Solver(tt_mb=4, objective="win", both=False, pv=False)
    plain = Solver(tt_mb=1, use_tt=False, objective="win", both=False, pv=False)
    for g, _ in positions:
        a, b = stepped.solve(g), plain.solve(g)
        assert a.values == b.values and a.value == b.value


def test_win_openings_stepped_equal_plain_mtd():
    """Whole openings (too big for a search without the table): the stepped tests
    against the plain MTD(f) under an unreachable node limit."""
    for name in ("openings_2p", "openings_4p"):
        games = load_suite(DATA / f"{name}.json")[:6]
        stepped = Solver(tt_mb=8, objective="win", both=False)
        plain = Solver(tt_mb=8, objective="win", both=False, node_limit=2 ** 62)
        for g in games:
            assert stepped.value(g)[0] == plain.value(g)[0]


@pytest.mark.parametrize("tt_mb", [0.01, 0.5, 1, 3, 16, 64])
def test_table_within_its_stated_size(tt_mb):
    core = _solver.SolverCore(float(tt_mb))
    limit = tt_mb * 2 ** 20
    n = core.table_entries
    assert n & (n - 1) == 0                           # a power of two (the bucket mask)
    assert core.table_bytes == 16 * n                 # 16-byte entries (TTEntry, _solver.pxd)
    assert core.table_bytes <= limit
    assert n == 4 or core.table_bytes * 2 > limit     # the largest power of two that fits


RSS_SCRIPT = r"""
import json, resource, sys
from fiveup_solver.bench import load_suite
from fiveup_solver.solver import Solver
games = load_suite(sys.argv[1])[:8]
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
solver = Solver(tt_mb=float(sys.argv[2]), both=False)
for g in games:
    solver.value(g)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"grew_kb": after - before, "table_bytes": solver.core.table_bytes}))
"""


def test_fresh_process_memory_within_table_size():
    """Solving 4-player openings with a 32 MB table grows a fresh process's peak resident
    memory by at most the table, the child-position buffer (64 plies x 64 moves of
    under 100 bytes: 0.4 MB) and 6 MB for Python's own objects."""
    env = dict(os.environ, PYTHONPATH=str(Path(_solver.__file__).resolve().parent.parent))
    proc = subprocess.run([sys.executable, "-c", RSS_SCRIPT, str(DATA / "openings_4p.json"), "32"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    r = json.loads(proc.stdout.strip().splitlines()[-1])
    assert r["table_bytes"] == 32 * 2 ** 20
    assert r["grew_kb"] * 1024 <= r["table_bytes"] + 0.4 * 2 ** 20 + 6 * 2 ** 20


# ---------------------------------------------------------------- a mover's last tile
# A mover down to its last tile ends the round with whatever it places: the search values
# such a node without playing its moves out (last_tile_search, domino_value). It must be
# the same node: the same value, fail-soft bound, order, history and node count, which
# `lean_leaves = False` (the general search for those nodes too) checks here.

def _solvers(objective, **kwargs):
    lean = Solver(tt_mb=4, objective=objective, both=False, **kwargs)
    plain = Solver(tt_mb=4, objective=objective, both=False, **kwargs)
    plain.core.lean_leaves = False
    assert lean.core.lean_leaves and not plain.core.lean_leaves
    return lean, plain


@pytest.mark.parametrize("name, count", [("openings_2p", 60), ("openings_4p", 25), ("midround", 80),
                                         ("near_target", 80)])
@pytest.mark.parametrize("objective", ["points", "win"])
def test_last_tile_path_changes_no_value_and_no_node(name, count, objective):
    lean, plain = _solvers(objective)
    games = load_suite(DATA / f"{name}.json")[:count]
    for g in games:
        assert lean.value(g) == plain.value(g)


@pytest.mark.parametrize("name", ["midround", "near_target"])
def test_last_tile_path_changes_no_solve(name):
    # every move in both currencies, the principal variation and the node counts
    lean, plain = Solver(tt_mb=4), Solver(tt_mb=4)
    plain.core.lean_leaves = False
    for g in load_suite(DATA / f"{name}.json")[:25]:
        a, b = lean.solve(g), plain.solve(g)
        assert (a.values, a.best, a.pv, a.nodes) == (b.values, b.best, b.pv, b.nodes)


@pytest.mark.parametrize("method", ["pimc", "expectimax", "alphamu"])
@pytest.mark.parametrize("beliefs", ["uniform", "model"])
def test_last_tile_path_changes_no_hint(method, beliefs):
    # hint worlds: budgets in nodes (a node more or less would move a cut), the exact-target
    # bounds of the points currency, seats read as greedy (model beliefs), max^n for 3 players
    from fiveup_solver.bench import load_hint_suite
    from fiveup_solver.hint import Hinter
    lean, plain = Hinter(threads=1), Hinter(threads=1)
    for core in plain._cores:
        core.lean_leaves = False
    checked = 0
    for obs, _ in load_hint_suite(DATA / "hint_positions.json")[:40]:
        if method == "alphamu" and obs.players != 2:
            continue
        a = lean.hint(obs, method=method, beliefs=beliefs, seed=3, samples=24, both=True)
        b = plain.hint(obs, method=method, beliefs=beliefs, seed=3, samples=24, both=True)
        assert [(str(m.move), m.win, m.points) for m in a.moves] == [(str(m.move), m.win, m.points) for m in b.moves]
        assert (a.nodes, a.exact_worlds) == (b.nodes, b.exact_worlds)
        checked += 1
    assert checked >= 10


def test_lean_leaves_refuses_what_is_not_a_switch():
    core = _solver.SolverCore(1.0)
    for bad in (2, -1, "yes", None, 0.5):
        with pytest.raises(ValueError, match="lean_leaves"):
            core.lean_leaves = bad


# ---------------------------------------------------------------- the reply in the move order
# Where the table is asked, a Solver call orders the moves by their credit less the best
# credit the next seat (of the other side) can take at once (reply_credit). An order never
# changes an exact value: `reply_order = False` (credit and history alone) must give the
# same values, moves and lines, with more nodes where the order matters.

@pytest.mark.parametrize("name, count", [("openings_2p", 60), ("openings_4p", 25), ("midround", 80),
                                         ("near_target", 80)])
@pytest.mark.parametrize("objective", ["points", "win"])
def test_reply_order_changes_the_work_never_a_value(name, count, objective):
    with_reply = Solver(tt_mb=4, objective=objective, both=False)
    without = Solver(tt_mb=4, objective=objective, both=False)
    without.core.reply_order = False
    assert with_reply.core.reply_order and not without.core.reply_order
    nodes = [0, 0]
    for g in load_suite(DATA / f"{name}.json")[:count]:
        (a, na), (b, nb) = with_reply.value(g), without.value(g)
        assert a == b
        nodes[0] += na
        nodes[1] += nb
    assert nodes[0] != nodes[1]
    if name.startswith("openings"):
        # fewer: 0.82-0.91 of the nodes on the whole suites, 0.70-0.97 on these slices
        # (docs/results/performance.md)
        assert nodes[0] < nodes[1]


@pytest.mark.parametrize("name", ["openings_4p", "midround", "near_target"])
def test_reply_order_changes_no_solve(name):
    # every move in both currencies and the principal variation (its moves: the first of
    # the best by the table's move, so compared as values along the line)
    with_reply, without = Solver(tt_mb=4), Solver(tt_mb=4)
    without.core.reply_order = False
    for g in load_suite(DATA / f"{name}.json")[:12]:
        a, b = with_reply.solve(g), without.solve(g)
        assert a.values == b.values
        assert {str(m) for m in a.best} == {str(m) for m in b.best}


def test_reply_order_with_helper_threads():
    # Lazy SMP helpers copy the main context, the switch included: the values stay exact
    one = Solver(tt_mb=4, both=False)
    two = Solver(tt_mb=4, both=False, threads=2)
    for g in load_suite(DATA / "openings_4p.json")[:8]:
        assert one.value(g)[0] == two.value(g)[0]


def test_reply_order_leaves_hints_as_they_were():
    # hint worlds are budgeted in nodes (an order moves their cuts): the reply order is
    # a Solver call's alone, so a hint's moves, values and nodes do not depend on it
    from fiveup_solver.bench import load_hint_suite
    from fiveup_solver.hint import Hinter
    on, off = Hinter(threads=1), Hinter(threads=1)
    for core in off._cores:
        core.reply_order = False
    for obs, _ in load_hint_suite(DATA / "hint_positions.json")[:12]:
        a = on.hint(obs, method="pimc", seed=3, samples=16, both=True)
        b = off.hint(obs, method="pimc", seed=3, samples=16, both=True)
        assert [(str(m.move), m.win, m.points) for m in a.moves] == [(str(m.move), m.win, m.points) for m in b.moves]
        assert a.nodes == b.nodes


def test_the_reply_order_script_runs_on_a_slice(tmp_path, capsys):
    """benchmarks/reply_order_nodes.py on 3 positions of each suite and 2 held out of each
    kind: both objectives, values checked inside (it exits otherwise), its journal."""
    script = benchmark_script("reply_order_nodes")
    out = tmp_path / "reply.json"
    assert script.main(["--suite-positions", "3", "--held-out", "2", "--out", str(out)]) == 0
    rows = json.loads(out.read_text())["rows"]
    assert len(rows) == 8 * 2 and {r["objective"] for r in rows} == {"points", "win"}
    assert {r["positions"] for r in rows} == {2, 3}
    assert any(r["nodes_with"] != r["nodes_without"] for r in rows)
    assert "held-out openings_4p" in capsys.readouterr().out


def test_the_tail_anatomy_script_runs_on_a_slice(tmp_path):
    """benchmarks/tail_anatomy.py on 8 openings: the better-of-two-orders oracle is
    never above either order, the exact-value guesses keep the values (checked
    inside: it exits otherwise), every table setting is journalled."""
    script = benchmark_script("tail_anatomy")
    out = tmp_path / "tail.json"
    assert script.main(["--positions", "8", "--top", "2", "--reps", "1", "--out", str(out)]) == 0
    journal = json.loads(out.read_text())
    order = journal["order"]
    best = order["better of the two"]["nodes"]
    assert best <= order["reply order (default)"]["nodes"] and best <= order["without it"]["nodes"]
    assert order["reply order (default)"]["nodes"] != order["without it"]["nodes"]
    assert len(journal["first_guess"]) == 2 and len(journal["table"]) == len(script.TABLE_SETTINGS)
    assert len({row["nodes"] for row in journal["table"]}) > 1
    assert script.rank(list(range(1, 101)), 0.95) == 95 and script.rank([5, 1, 3], 0.5) == 3


def test_reply_order_refuses_what_is_not_a_switch():
    core = _solver.SolverCore(1.0)
    for bad in (2, -1, "yes", None, 0.5):
        with pytest.raises(ValueError, match="reply_order"):
            core.reply_order = bad


# ---------------------------------------------------------------- a placement without a log
# The searches place tiles without an event log, and that path updates the score without a
# branch; it must leave the very position the game's logged path leaves, at every score
# (rejections above 305 and exact 305s included).

@pytest.mark.parametrize("players", [2, 3, 4])
def test_unlogged_placement_leaves_the_logged_position(players):
    import random
    from fiveup_solver.game import Game
    from fiveup_solver.notation import ALL_TILES
    rng = random.Random(2400 + players)
    sides = 3 if players == 3 else 2
    checked = 0
    for _ in range(60):
        tiles = list(ALL_TILES)
        rng.shuffle(tiles)
        hands = [tiles[5 * s: 5 * s + 5] for s in range(players)]
        # scores near 305 (multiples of 5): credits are rejected, or win exactly, often
        scores = [rng.choice(range(200, 305, 5)) for _ in range(sides)]
        g = Game(players=players, deal=False)
        g.start_round(hands, tiles[5 * players:], rng.randrange(players), scores=scores)
        while not g.round_over:
            assert g.current.core.unlogged_placements_agree() == []
            checked += len(g.current.core.canonical_moves())
            g.push(rng.choice(g.legal_moves))
    assert checked > 1000


# ---------------------------------------------------------------- the principal variation
# The line is walked with one zero-window test a move (the next position's value is the
# last one less the move's gain): every move of it must still be a best move of its
# position, as a solve of that position from scratch finds. (Two sides only: a paranoid
# 3-player line is best play against the root's seat, which a solve from a later seat
# frames otherwise.)

@pytest.mark.parametrize("name", ["midround", "near_target"])
@pytest.mark.parametrize("objective", ["points", "win"])
def test_every_step_of_the_principal_variation_is_a_best_move(name, objective):
    from fiveup_solver.game import action_to_move
    checked = 0
    for g in [g for g in load_suite(DATA / f"{name}.json") if g.players != 3][:12]:
        res = Solver(tt_mb=4, objective=objective, both=False).solve(g)
        walk = g.copy()
        for mv in res.pv:
            if walk.round_over:
                break
            while not walk.round_over and [m.kind for m in walk.legal_moves] == ["draw"]:
                walk.push(walk.legal_moves[0])
            if mv == "pass":
                assert [m.kind for m in walk.legal_moves] == ["pass"]
                walk.push(walk.legal_moves[0])
                continue
            here = Solver(tt_mb=4, objective=objective, both=False).solve(walk)
            assert mv in here.best, (mv, here.best)
            walk.push(next(m for m in walk.legal_moves if str(m) == mv))
            checked += 1
    assert checked > 40
