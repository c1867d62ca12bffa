"""The pure-Python alpha-beta baseline (tests/reference_alphabeta.py) against the
plain minimax oracle (tests/reference_minimax.py) and the engine's solver.

Positions are built like tests/test_solver.py does: a seeded random deal (start
scores 0, or near 305 where rejected events and exact hits decide), played at
random with the reference rules until only a few tiles are left in the hands and
the boneyard, kept when the whole game tree is small enough for plain minimax.
Each position is a plain dict that both implementations replay.
"""
from __future__ import annotations

import random

import pytest

try:
    from . import reference as R
    from . import reference_alphabeta as AB
    from . import reference_minimax as M
except ImportError:  # tests/ is not a package: pytest puts tests/ on sys.path
    import reference as R
    import reference_alphabeta as AB
    import reference_minimax as M

try:
    from .positions import build_game, build_reference, choices as _choices, tiles_left as _tiles_left
except ImportError:
    from positions import build_game, build_reference, choices as _choices, tiles_left as _tiles_left
from fiveup_solver.solver import Solver


def make_position(name, players, near, k, cap=6000, tries=400):
    """A seeded small position: random deal and play until at most randint(*k)
    tiles are left, then on until the game tree has at most `cap` states and (for
    3 positions in 4) the seat to move has at least 2 moves."""
    rng = random.Random(name)
    want_choice = rng.random() < 0.75
    for _ in range(tries):
        hands, boneyard, starter = R.deal(rng, players)
        sides = R.n_sides(players)
        if near:
            scores = [rng.randrange(275, 305, 5) if rng.random() < 0.6 else rng.randrange(0, 305, 5)
                      for _ in range(sides)]
        else:
            scores = [0] * sides
        st = R.RoundState(players, hands, boneyard, starter, scores)
        stop = rng.randint(*k)
        actions = []
        while not st.over:
            if _tiles_left(st) <= stop and (not want_choice or _choices(st) >= 2):
                try:
                    M.tree_size(st, cap)
                except M.TooBig:
                    pass
                else:
                    return {"name": name, "players": players, "hands": hands, "boneyard": boneyard,
                            "starter": starter, "scores": scores, "actions": actions}
            a = rng.choice(st.legal_actions())
            st.apply(a)
            actions.append(a)
    raise RuntimeError(f"no position found for {name}")


POSITIONS = ([make_position(f"ab2-{i}", 2, i % 2 == 1, (6, 12)) for i in range(30)]
             + [make_position(f"ab4-{i}", 4, i % 2 == 1, (8, 15)) for i in range(30)])
POSITIONS_3 = [make_position(f"ab3-{i}", 3, i % 2 == 1, (7, 13), cap=4000) for i in range(10)]


def _ids(spec):
    return spec["name"]


@pytest.mark.parametrize("spec", POSITIONS + POSITIONS_3, ids=_ids)
def test_alphabeta_equals_minimax(spec):
    st = build_reference(spec)
    before = st.copy()
    value, nodes = AB.solve_value(st)
    assert value == M.minimax(st)
    assert nodes >= 1
    # the search works on copies: the given state is untouched
    assert st.hands == before.hands and st.scores == before.scores and st.drawn == before.drawn
    assert st.open_ports() == before.open_ports() and st.turn == before.turn


@pytest.mark.parametrize("spec", POSITIONS, ids=_ids)
def test_alphabeta_equals_engine_solver(spec):
    st = build_reference(spec)
    engine_value, _ = Solver().value(build_game(spec))
    assert AB.solve_value(st)[0] == engine_value


def _window_search(st, alpha, beta):
    return AB._Search(st.players, st.turn, None).search(st, alpha, beta)


@pytest.mark.parametrize("spec", POSITIONS + POSITIONS_3, ids=_ids)
def test_fail_soft_windows(spec):
    """Searches with narrow windows around the true value (fresh table each time)
    return fail-soft bounds: r <= alpha -> value <= r; r >= beta -> value >= r;
    otherwise r is the value."""
    st = build_reference(spec)
    value = M.minimax(st)
    for alpha, beta in [(value - 1, value), (value, value + 1), (value - 1, value + 1),
                        (value - 30, value - 5), (value + 5, value + 30),
                        (value - 999, value - 998), (value + 998, value + 999),
                        (-AB.WIN, -AB.WIN + 1), (AB.WIN - 1, AB.WIN)]:
        r = _window_search(st, alpha, beta)
        if r <= alpha:
            assert value <= r, (alpha, beta, r)
        elif r >= beta:
            assert value >= r, (alpha, beta, r)
        else:
            assert r == value, (alpha, beta, r)


def _tree_states(st, cap=3000):
    out, stack = [], [st]
    while stack and len(out) < cap:
        s = stack.pop()
        if s.over:
            continue
        out.append(s)
        for move in s._legal():
            c = s.copy()
            c._do(move)
            stack.append(c)
    return out


def _raw(st):
    """The exact state, tile identities of the board included."""
    return (st.turn, tuple(tuple(sorted(h)) for h in st.hands), tuple(st.boneyard_left()),
            tuple(st.scores), tuple(st.board.open), tuple(sorted(st.board.tiles)))


def test_table_key_is_sound():
    """States of the game trees that share a table key but are different states
    (another board made of other tiles, reached in another order...) have the
    same minimax value, and the value does not depend on how they were reached."""
    groups: dict = {}
    for spec in POSITIONS[::2] + POSITIONS_3[::2]:
        for s in _tree_states(build_reference(spec)):
            groups.setdefault((spec["name"], AB.state_key(s)), {}).setdefault(_raw(s), s)
    shared = [list(g.values()) for g in groups.values() if len(g) >= 2]
    assert len(shared) >= 50     # the test is not vacuous
    for states in shared[::max(1, len(shared) // 400)]:
        values = {M.minimax(s) for s in states[:4]}
        assert len(values) == 1, [_raw(s) for s in states[:4]]


def test_board_key_determines_ends_and_ports():
    """Boards (of all positions' game trees) with the same key have the same end
    sum and the same open port values; structures of every kind occur."""
    seen: dict = {}
    kinds = set()
    for spec in POSITIONS[::3] + POSITIONS_3[::3]:
        for s in _tree_states(build_reference(spec), cap=1500):
            key = AB.board_key(s.board)
            kinds.update(k[0] for k in key)
            facts = (s.board.end_sum, tuple(sorted(v for _, v in s.board.open)))
            assert seen.setdefault(key, facts) == facts, key
    assert kinds == {0, 1, 2}


def test_table_key_separates():
    st = build_reference(POSITIONS[1])
    other = st.copy()
    other.scores = [x + 5 for x in other.scores]
    assert AB.state_key(other) != AB.state_key(st)
    other = st.copy()
    other.turn = (st.turn + 1) % st.players
    assert AB.state_key(other) != AB.state_key(st)
    # a double with an open line port (counts twice its pips) against one with
    # open branch ports (counts nothing), and against a plain end
    b1, b2, b3, b4 = R.Board(), R.Board(), R.Board(), R.Board()
    b1.place("3-3")
    b2.place("3-3")
    b2.place("0-3", "3-3:lineA")
    b2.place("3-5", "3-3:lineB")
    b3.place("3-3")
    b3.place("0-3", "3-3:lineA")
    b4.place("0-3")                  # a plain 3 end where b3 has the double's line
    keys = [AB.board_key(b) for b in (b1, b2, b3, b4)]
    assert len(set(keys)) == 4
    b5 = R.Board()
    b5.place("3-3")
    b5.place("0-3", "3-3:lineB")     # the other line port: the same structure
    assert AB.board_key(b5) == keys[2]
    b6 = R.Board()                     # the same structure built from other tiles
    b6.place("0-3")
    b6.place("3-3", "0-3:high")
    assert AB.board_key(b6) == keys[2]
    assert AB.board_key(R.Board()) is None
    # by hand: the opening double has both line ports open; after 0-3 and 3-5 on
    # its line, both branch ports are open, then one after 3-4 on branchA
    assert keys[0] == ((1, 3, 2),)
    assert keys[1] == ((0, 0, 0), (0, 5, 0), (2, 3, 2))
    b2.place("3-4", "3-3:branchA")
    assert AB.board_key(b2) == ((0, 0, 0), (0, 4, 0), (0, 5, 0), (2, 3, 1))


def test_positions_are_varied():
    """The generated set covers what it is meant to: both player counts, several
    moves to choose from, wins (+-1000) and negative values."""
    values = [AB.solve_value(build_reference(s))[0] for s in POSITIONS]
    assert {s["players"] for s in POSITIONS} == {2, 4}
    assert sum(_choices(build_reference(s)) >= 2 for s in POSITIONS) >= 30
    assert any(abs(v) == AB.WIN for v in values)
    assert any(-AB.WIN < v < 0 for v in values) and any(0 < v < AB.WIN for v in values)


def test_node_limit():
    spec = max(POSITIONS, key=lambda s: AB.solve_value(build_reference(s))[1])
    st = build_reference(spec)
    value, nodes = AB.solve_value(st)
    assert nodes > 10
    assert AB.solve_value(st, node_limit=nodes) == (value, nodes)
    with pytest.raises(AB.NodeLimit):
        AB.solve_value(st, node_limit=nodes - 1)


def test_table_and_pruning_save_nodes():
    """Alpha-beta with the table visits fewer states than the full tree (summed)."""
    ab = sum(AB.solve_value(build_reference(s))[1] for s in POSITIONS)
    full = sum(M.tree_size(build_reference(s), 10 ** 6) for s in POSITIONS)
    assert ab < full / 2


def test_over_state_is_zero():
    spec = POSITIONS[0]
    st = build_reference(spec)
    while not st.over:
        st.apply(st.legal_actions()[0])
    assert AB.solve_value(st) == (0, 1) and M.minimax(st) == 0
