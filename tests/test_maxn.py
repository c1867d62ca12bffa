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


# ------------------------------------------------------------ where the two searches part
# A hand-made case (the deal and the play to it were drawn with a seeded search
# for small positions where the two searches disagree, then fixed here).
# Seat 1 to move, scores 275 / 265 / 80 (seat 2 is far behind), the boneyard empty.
# Hands: seat 0 4-4 6-6, seat 1 0-6 5-5 0-0, seat 2 2-6 2-2; open 0-3:low, 1-2:low,
# 1-3:low, 2-4:low and 3-3's branches. Seat 1 has two moves:
# * 0-6@0-3:low scores 10 (265 -> 275). Then seat 2 can play 2-2@2-4:low, its own
#   best, after which nobody scores; or 2-6@2-4:low, worse for seat 2 itself,
#   which lets seat 0 play 6-6 for 20 (295) and block the round lightest.
#   Paranoid takes seat 2 for seat 1's enemy and assumes the sacrifice: -507.
#   Max^n lets seat 2 play for itself (2-2): seat 1 keeps its 10 points, -53.
# * 0-0@0-3:low scores nothing; seat 2's best reply (2-2@2-4:low) is also the worst
#   for seat 1: -202 under both.
# So paranoid plays 0-0 (-202 > -507) and max^n plays 0-6 (-53 > -202): the
# difference is the coalition paranoid assumes, not the value scale. (Win
# objective, the shipped 3-player equity table; the oracles are asked too.)
PART = {"name": "maxn-v-paranoid", "players": 3,
        "hands": [['4-4', '1-5', '0-1', '3-5', '1-1'], ['0-4', '0-6', '1-6', '3-4', '5-6'], ['3-6', '2-5', '2-3', '2-6', '4-6']],
        "boneyard": ['4-5', '0-5', '6-6', '0-2', '5-5', '0-0', '1-2', '2-2', '2-4', '1-3', '3-3', '1-4', '0-3'],
        "starter": 1, "scores": [275, 265, 60], "actions": [
    {'seat': 1, 'play': '0-4'}, {'seat': 2, 'play': '4-6', 'at': '0-4:high'},
    {'seat': 0, 'play': '0-1', 'at': '0-4:low'}, {'seat': 1, 'play': '5-6', 'at': '4-6:high'},
    {'seat': 2, 'play': '2-5', 'at': '5-6:low'}, {'seat': 0, 'play': '1-1', 'at': '0-1:high'},
    {'seat': 1, 'play': '1-6', 'at': '1-1:lineB'}, {'seat': 2, 'play': '3-6', 'at': '1-6:high'},
    {'seat': 0, 'play': '3-5', 'at': '3-6:low'}, {'seat': 1, 'draw': '4-5'},
    {'seat': 1, 'play': '4-5', 'at': '3-5:high'}, {'seat': 2, 'play': '2-3', 'at': '2-5:low'},
    {'seat': 0, 'play': '1-5', 'at': '1-1:branchB'}, {'seat': 1, 'play': '3-4', 'at': '4-5:low'},
    {'seat': 2, 'draw': '0-5'}, {'seat': 2, 'play': '0-5', 'at': '1-5:high'}, {'seat': 0, 'draw': '6-6'},
    {'seat': 0, 'draw': '0-2'}, {'seat': 0, 'play': '0-2', 'at': '0-5:low'}, {'seat': 1, 'draw': '5-5'},
    {'seat': 1, 'draw': '0-0'}, {'seat': 1, 'draw': '1-2'}, {'seat': 1, 'play': '1-2', 'at': '0-2:high'},
    {'seat': 2, 'draw': '2-2'}, {'seat': 2, 'draw': '2-4'}, {'seat': 2, 'draw': '1-3'},
    {'seat': 2, 'play': '1-3', 'at': '2-3:high'}, {'seat': 0, 'draw': '3-3'},
    {'seat': 0, 'play': '3-3', 'at': '3-4:low'}, {'seat': 1, 'draw': '1-4'},
    {'seat': 1, 'play': '1-4', 'at': '1-1:branchA'}, {'seat': 2, 'play': '2-4', 'at': '1-4:high'},
    {'seat': 0, 'draw': '0-3'}, {'seat': 0, 'play': '0-3', 'at': '3-3:lineB'},]}


def test_paranoid_and_maxn_pick_different_moves():
    try:
        from . import reference_win_minimax as WM
    except ImportError:
        import reference_win_minimax as WM
    from fiveup_solver.equity import load_table
    table = load_table(3).win
    st = build_reference(PART)
    assert st.turn == 1 and st.scores == [275, 265, 80] and not st.boneyard_left()
    assert [sorted(h) for h in st.hands] == [["4-4", "6-6"], ["0-0", "0-6", "5-5"], ["2-2", "2-6"]]
    paranoid = Solver(objective="win", both=False, search="paranoid").solve(build_game(PART))
    maxn = Solver(objective="win", both=False, search="maxn").solve(build_game(PART))
    assert paranoid.values == WM.move_values(st, table) == {"0-6@0-3:low": -507, "0-0@0-3:low": -202}
    assert {m: tuple(v) for m, v in maxn.vectors.items()} == X.move_vectors(st, "win", table)
    assert maxn.values == {"0-6@0-3:low": -53, "0-0@0-3:low": -202}
    assert paranoid.best == ["0-0@0-3:low"] and maxn.best == ["0-6@0-3:low"]
    # the reply each search expects from seat 2 after 0-6: the sacrifice, or its own best
    assert paranoid.pv[:1] == ["0-0@0-3:low"] and maxn.pv[:2] == ["0-6@0-3:low", "2-2@2-4:low"]
    after = build_game(PART)
    after.push(next(m for m in after.legal_moves if str(m) == "0-6@0-3:low"))
    reply = Solver(objective="win", both=False, search="maxn").solve(after)
    assert reply.best == ["2-2@2-4:low"] and reply.vectors["2-6@2-4:low"][2] < reply.vectors["2-2@2-4:low"][2]


# ------------------------------------------------------------ 2 and 4 players: two sides, nothing changes
def _two_sided(players, i):
    rng = random.Random(f"maxn-2s-{players}-{i}")
    for _ in range(400):
        hands, boneyard, starter, scores, st = random_deal(rng, players, random_scores(rng, players, "near"))
        stop = rng.randint(8, 14)
        actions = []
        while not st.over:
            if tiles_left(st) <= stop and choices(st) >= 2:
                return {"name": f"2s-{players}-{i}", "players": players, "hands": hands, "boneyard": boneyard,
                        "starter": starter, "scores": scores, "actions": actions}
            a = rng.choice(st.legal_actions())
            st.apply(a)
            actions.append(a)
    raise RuntimeError(players)


@pytest.mark.parametrize("spec", [_two_sided(n, i) for n in (2, 4) for i in range(4)], ids=lambda s: s["name"])
def test_two_sides_are_searched_the_same(spec):
    """With 2 or 4 players max^n is the zero-sum minimax: the option changes nothing."""
    a = Solver(search="paranoid").solve(build_game(spec))
    b = Solver(search="maxn").solve(build_game(spec))
    assert (a.values, a.win, a.points, a.pv, a.nodes) == (b.values, b.win, b.points, b.pv, b.nodes)
    # (no search is chosen with two sides: a review read "search": "paranoid" in a 2-player hint's JSON)
    assert b.vectors == {} and a.search is None and b.search is None and b.to_dict()["search"] is None
    game = build_game(spec)
    obs = game.observation(game.to_move)
    from fiveup_solver.hint import Hinter
    h = Hinter(threads=1)
    ha = h.hint(obs, samples=6, seed=3, search="paranoid")
    hb = h.hint(obs, samples=6, seed=3, search="maxn")
    assert [(m.move, m.value, m.win, m.points) for m in ha.moves] == [(m.move, m.value, m.win, m.points)
                                                                      for m in hb.moves]
    assert ha.search is None and hb.to_dict()["search"] is None
    for method, bound in (("expectimax", dict(samples=2)), ("exact", dict(sample_worlds=4))):
        assert h.hint(obs, method=method, seed=3, **bound).to_dict()["search"] is None


# ------------------------------------------------------------ hints
def test_hint_maxn_is_deterministic_and_thread_independent():
    from fiveup_solver.hint import Hinter
    game = build_game(POSITIONS[3])
    obs = game.observation(game.to_move)
    one = Hinter(threads=1).hint(obs, samples=12, seed=5, search="maxn", beliefs="uniform")
    two = Hinter(threads=2).hint(obs, samples=12, seed=5, search="maxn", beliefs="uniform")
    assert one.search == "maxn" and one.to_dict()["search"] == "maxn"
    assert [(m.move, m.value, m.win, m.points) for m in one.moves] == [(m.move, m.value, m.win, m.points)
                                                                       for m in two.moves]


def test_hint_world_values_are_the_solver_s_under_maxn():
    """A world whose hands are the game's and whose boneyard is the game's: the PIMC
    max^n value of every move is the max^n solver's."""
    from fiveup_solver.hint import world_values
    for spec in POSITIONS[:8]:
        game = build_game(spec)
        if not all(m.kind == "play" for m in game.legal_moves):
            continue
        for objective in ("points", "win"):
            wv = {str(m): v for m, v in world_values(game, objective=objective, search="maxn").items()}
            solved = Solver(search="maxn", objective=objective, both=False).solve(build_game(spec)).values
            assert wv == solved, spec["name"]


def test_expectimax_maxn_hint_runs_and_bots_are_registered():
    from fiveup_solver.bots import BOTS, bot_function
    from fiveup_solver.hint import Hinter
    game = build_game(EXP_POSITIONS[6])
    obs = game.observation(game.to_move)
    h = Hinter(threads=1).hint(obs, method="expectimax", samples=4, seed=1, search="maxn")
    assert h.search == "maxn" and {m.move for m in h.moves} == set(obs.legal_moves)
    for name in ("hint-maxn", "hint-paranoid", "expectimax-maxn", "expectimax-paranoid"):
        assert name in BOTS
    assert bot_function("hint-maxn:8:1000") is not None


# ------------------------------------------------------------ bad options: one line each
@pytest.mark.parametrize("call", [
    lambda: Solver(search="max"),
    lambda: Solver(search=None, objective="win").solve(Game(players=3, seed=1)) and Solver(search=1),
    lambda: __import__("fiveup_solver.hint", fromlist=["hint"]).hint(
        Game(players=3, seed=1).observation(Game(players=3, seed=1).to_move), search="MAXN"),
    lambda: __import__("fiveup_solver.hint", fromlist=["world_values"]).world_values(
        Game(players=3, seed=1), search=["maxn"]),
    lambda: __import__("fiveup_solver.analysis", fromlist=["AnalysisBudget"]).AnalysisBudget(search="both").check(),
    lambda: __import__("fiveup_solver.bots", fromlist=["bot_function"]).bot_function("hint-maxnn:8:100"),
])
def test_bad_search_options_are_one_line_errors(call):
    with pytest.raises(OptionError) as e:
        call()
    assert "\n" not in str(e.value) and len(str(e.value)) < 300


def test_core_refuses_bad_search_values():
    from fiveup_solver import _solver
    from fiveup_solver.errors import CoreError
    core = _solver.SolverCore(1.0)
    with pytest.raises(CoreError):
        core.set_search(2)
    with pytest.raises(CoreError):
        core.set_search("maxn")
    with pytest.raises(CoreError):
        core.maxn_moves(Game(players=2, seed=1).current.core)


def test_cli_three_option(tmp_path, capsys):
    import json
    from fiveup_solver.cli import main
    game = build_game(PART)
    path = tmp_path / "g.json"
    # (a record starts from 0: the command solves this deal and these actions from scores 0)
    path.write_text(json.dumps(game.to_record(scores_kept_apart=True)))
    n = len(PART["actions"])
    assert main(["solve", str(path), "--round", "0", "--action", str(n), "--objective", "win", "--three", "maxn",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    from fiveup_solver.record import game_at
    at = game_at(json.loads(path.read_text()), 0, n)     # the record's own position (its round's scores)
    want = Solver(objective="win", search="maxn").solve(at)
    assert out["search"] == "maxn" and out["values"] == want.values and out["best"] == want.best
    assert out["vectors"] == {m: list(v) for m, v in want.vectors.items()}
    assert main(["solve", str(path), "--round", "0", "--action", str(n), "--objective", "points", "--three",
                 "paranoid"]) == 0
    text = capsys.readouterr().out
    want = Solver(objective="points", search="paranoid").solve(game_at(json.loads(path.read_text()), 0, n))
    assert f"; {max(want.points.values()):+d} raw points this round" in text.splitlines()[1]
    assert "max^n" not in text
    assert main(["hint", str(path), "--seat", "1", "--samples", "4", "--three", "maxn", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["search"] == "maxn"
    for command in (["solve", str(path), "--round", "0", "--action", str(n)], ["hint", str(path), "--seat", "1"],
                    ["analyze", str(path)]):
        assert main(command + ["--three", "maxN"]) == 2
        err = capsys.readouterr().err
        assert "--three" in err and "maxN" in err and len(err.strip().splitlines()) == 1


# ------------------------------------------------------------ larger positions: pruning and table change nothing
def _larger(i):
    rng = random.Random(f"maxn-larger-{i}")
    hands, boneyard, starter, scores, st = random_deal(rng, 3, random_scores(rng, 3, "near" if i % 2 else "zero"))
    actions = []
    stop = rng.randint(14, 19)
    while not st.over and (tiles_left(st) > stop or choices(st) < 2):
        a = rng.choice(st.legal_actions())
        st.apply(a)
        actions.append(a)
    return {"name": f"larger-{i}", "players": 3, "hands": hands, "boneyard": boneyard, "starter": starter,
            "scores": scores, "actions": actions}


LARGER = [s for s in map(_larger, range(40)) if not build_reference(s).over][:10]


@pytest.mark.parametrize("spec", LARGER, ids=lambda s: s["name"])
@pytest.mark.parametrize("objective", ["points", "win"])
def test_shallow_pruning_and_table_keep_the_vectors(spec, objective):
    """Beyond the oracle's reach: the vectors with shallow pruning and the table are
    those of the plain search (no pruning, no table), and pruning saves nodes overall."""
    plain = Solver(tt_mb=1, search="maxn", objective=objective, both=False, use_tt=False,
                   target_pruning=False).solve(build_game(spec))
    fast = Solver(tt_mb=4, search="maxn", objective=objective, both=False).solve(build_game(spec))
    assert fast.vectors == plain.vectors and fast.pv == plain.pv, spec
    assert fast.nodes <= plain.nodes


def test_best_move_of_the_table_is_the_tie_break_s():
    """After a max^n value search the table holds the root's exact vector and the
    move the tie-break chose: one of the best moves (the first line move)."""
    from fiveup_solver import _core
    from fiveup_solver.solver import move_string
    checked = 0
    for spec in LARGER:
        game = build_game(spec)
        solver = Solver(tt_mb=4, search="maxn", objective="win", both=False, tt_min_tiles=0)
        value, _ = solver.value(game)
        move = solver.core.best_move(game.current.core)
        res = Solver(tt_mb=4, search="maxn", objective="win", both=False).solve(build_game(spec))
        assert value == res.value
        if move is None:
            continue
        after = game.current.core.copy()
        while after.turn_kind() == "draw":
            after.draw()
        names = [move_string(t, g, k) for t, g, k in after.concrete_moves() if _core.canonical_of(t, g, k) == move]
        assert names and set(names) & set(res.best) and res.pv[0] in names, spec["name"]
        checked += 1
    assert checked >= 5


def test_analysis_judges_three_players_with_maxn_by_default(tmp_path, capsys):
    """The search judge's 3-player default is max^n (docs/analysis_judges.md: closer to the
    playout loss of planted errors than paranoid); paranoid stays an option."""
    import json
    from fiveup_solver.analysis import ANALYSIS_SEARCH, AnalysisBudget, analyze, judge_decision
    from fiveup_solver.cli import main
    assert ANALYSIS_SEARCH == "maxn" and AnalysisBudget().search_of_three == "maxn"
    assert AnalysisBudget(search="paranoid").search_of_three == "paranoid"
    record = build_game(PART).to_record(scores_kept_apart=True)   # (replayed from scores 0)
    n = len(PART["actions"])
    small = dict(samples=4, world_nodes=500, luck_samples=2, dd_nodes=20_000)
    at = [(0, i) for i in range(n) if i >= n - 3]
    for r, i in at:
        default = judge_decision(record, r, i, AnalysisBudget(**small), seed=3)
        assert default == judge_decision(record, r, i, AnalysisBudget(search="maxn", **small), seed=3)
    a = analyze(record, budget=AnalysisBudget(**small), seed=3)
    assert a.judge["search"] == "maxn"
    path = tmp_path / "g.json"
    path.write_text(json.dumps(record))
    assert main(["analyze", str(path), "--samples", "4", "--luck-samples", "2", "--quiet"]) == 0
    assert "maxn search" in capsys.readouterr().out
    assert main(["analyze", str(path), "--samples", "4", "--luck-samples", "2", "--quiet", "--three",
                 "paranoid"]) == 0
    assert "paranoid search" in capsys.readouterr().out


@pytest.mark.parametrize("method", ["pimc", "expectimax"])
def test_greedy_seats_under_maxn_average_their_coin(method):
    """Seats read as greedy under max^n: only their largest accepted credits, each
    concrete placement alike (the vector's mean), as the oracle's greedy seats; the
    positions do tell that from max^n play and from a greedy seat that picks its best."""
    from fiveup_solver.hint import world_values
    compared = differs = 0
    for spec in (EXP_POSITIONS if method == "expectimax" else POSITIONS):
        st = build_reference(spec)
        game = build_game(spec)
        if method == "expectimax" and not all(m.kind == "play" for m in game.legal_moves):
            continue
        if method == "pimc" and not all(m.kind == "play" for m in game.legal_moves):
            continue
        seat = st.turn
        others = [s for s in range(3) if s != seat]
        if method == "pimc":
            want = X.move_vectors(st, "points", greedy=frozenset(others))
            plain = X.move_vectors(st, "points")
        else:
            want = X.expectimax_move_vectors(st, "points", greedy=frozenset(others))
            plain = X.expectimax_move_vectors(st, "points")
        kw = dict(chance_width=28) if method == "expectimax" else {}
        got = {str(m): v for m, v in world_values(game, method=method, objective="points", search="maxn",
                                                  greedy_seats=others, **kw).items()}
        assert got == {m: v[seat] for m, v in want.items()}, spec["name"]
        compared += 1
        differs += want != plain
    assert compared >= 6 and differs >= 2, (compared, differs)
