"""The hint's expectimax world search against a plain pure-Python oracle.

``fiveup_solver.hint.world_values(game, method="expectimax", chance_width=28)``
values every legal placement of the seat to move in the game's own world: every
hand is known, the boneyard's tiles are known but not their order, so each draw
is a chance node (uniform over the tiles left; the average truncated toward zero
to an integer).  The oracle (tests/reference_expectimax.py) is written on the
independent reference rules (tests/reference.py) with the value definition of
tests/reference_minimax.py: raw accepted points of the root's team minus the
other team's to the end of the round, +-1000 for an exact 305 (for the whole
rest of the line); 3 players paranoid (root seat vs the two others).

Positions are generated with the reference rules from seeded deals, played at
random until few tiles are left in the hands and at most 4 in the boneyard, and
kept only when the oracle's whole tree is small.  Every position is a plain dict
(players, hands, boneyard, starter, scores, actions): a failing test prints it,
and it can be replayed in both implementations (tests/positions.py).
"""
from __future__ import annotations

import random

import pytest

try:
    from . import reference as R
    from . import reference_expectimax as X
    from . import reference_minimax as M
    from .positions import build_game, build_reference, deal_spec, random_deal, random_scores
except ImportError:  # tests/ is not a package: pytest puts tests/ on sys.path
    import reference as R
    import reference_expectimax as X
    import reference_minimax as M
    from positions import build_game, build_reference, deal_spec, random_deal, random_scores

from fiveup_solver.hint import world_values
from fiveup_solver.solver import Solver

WIN = 1000
CHANCE_WIDTH = 28     # no boneyard is wider: every chance node is searched whole
HAND_MAX = {2: 6, 3: 7, 4: 8}   # tiles in all hands together at a generated position


# ------------------------------------------------------------ positions

def _scores(rng, players, mode):
    return random_scores(rng, players, mode, low=270)


_ORACLE: dict = {}   # name -> (oracle move values, oracle tree statistics)


def make_position(name, players, mode="zero", bone_max=4, cap=800, want=None, tree=None, tries=3000):
    """A small random position, seeded by `name`: a random deal (scores by `mode`)
    played at random until at most HAND_MAX tiles are left in the hands and at
    most `bone_max` in the boneyard, with the seat to move able to place; then at
    random later states (so the positions vary) until `want(state, actions)` holds,
    the oracle's tree has at most `cap` states and `tree(stats)` holds."""
    rng = random.Random(name)
    for _ in range(tries):
        hands, boneyard, starter, scores, st = random_deal(rng, players, _scores(rng, players, mode))
        actions = []
        while not st.over:
            if (sum(map(len, st.hands)) <= HAND_MAX[players] and len(st.boneyard_left()) <= bone_max
                    and st.can_place(st.turn) and rng.random() < 0.6
                    and (want is None or want(st, actions))):
                stats = {}
                try:
                    values = X.move_values(st, cap, stats)
                except X.TooBig:
                    pass
                else:
                    if tree is None or tree(stats):
                        spec = {"name": name, "players": players, "hands": hands, "boneyard": boneyard,
                                "starter": starter, "scores": scores, "actions": actions}
                        _ORACLE[name] = (values, stats)
                        return spec
            moves = st._legal()
            move = moves[0] if len(moves) == 1 else rng.choice(moves)
            actions.append(R._action_dict(st.turn, move))
            st._do(move)
    raise RuntimeError(f"no position found for {name}")


def _two_moves(st, actions):
    return len(st.legal_actions()) >= 2


def _just_drew(st, actions):
    """The seat to move has just drawn the tile it must place, and tiles are left."""
    return bool(actions) and "draw" in actions[-1] and len(st.boneyard_left()) >= 1


def _has_chance(stats):
    return stats["chance"] >= 1


EXP = [make_position(f"x{n}-{i}", n, "near" if i % 3 else "zero",
                     want=_two_moves if i % 4 else None, tree=_has_chance if i % 5 else None)
       for n in (2, 3, 4) for i in range(50)]
DREW = [make_position(f"dr{n}-{i}", n, "near" if i % 2 else "zero", want=_just_drew, tree=_has_chance)
        for n in (2, 3, 4) for i in range(4)]
EMPTY = [make_position(f"e{n}-{i}", n, "near" if i % 2 else "zero", bone_max=0, cap=1500,
                       want=_two_moves if i % 4 else None)
         for n in (2, 3, 4) for i in range(8)]


def _ids(spec):
    return spec["name"]


def oracle(spec):
    """The oracle's move values of a position (computed once)."""
    if spec["name"] not in _ORACLE:
        _ORACLE[spec["name"]] = (X.move_values(build_reference(spec)), None)
    return _ORACLE[spec["name"]][0]


def engine(spec, **kw):
    g = build_game(spec)
    return {str(m): v for m, v in world_values(g, method="expectimax", chance_width=CHANCE_WIDTH, **kw).items()}


# ------------------------------------------------------------ the oracle on its own

def test_trunc_div():
    assert [X.trunc_div(s, n) for s, n in [(45, 2), (-45, 2), (35, 3), (-35, 3), (-995, 2),
                                            (1005, 2), (-1, 3), (0, 4), (-8, 4)]] == \
        [22, -22, 11, -11, -497, 502, 0, 0, -2]


@pytest.mark.parametrize("spec", EXP[::10] + DREW[::3], ids=_ids)
def test_oracle_leaves_the_state_alone(spec):
    st = build_reference(spec)
    before = (list(st.boneyard), st.drawn, [list(h) for h in st.hands], list(st.scores), st.turn)
    assert X.move_values(st) == oracle(spec)
    assert (list(st.boneyard), st.drawn, [list(h) for h in st.hands], list(st.scores), st.turn) == before


def _order_known(spec):
    return len(build_reference(spec).boneyard_left()) <= 1


@pytest.mark.parametrize("spec", [s for s in EXP + DREW if _order_known(s)] + EMPTY, ids=_ids)
def test_oracle_is_minimax_when_the_order_is_known(spec):
    """With at most one tile in the boneyard every chance node has one outcome:
    expectimax is the perfect-information minimax of reference_minimax."""
    assert oracle(spec) == M.move_values(build_reference(spec))


def test_positions_cover_the_cases():
    """The generated positions reach what the comparison is meant to exercise."""
    specs = EXP + DREW
    stats = [_ORACLE[s["name"]][1] for s in specs]
    assert len(specs) >= 150
    for n in (2, 3, 4):
        assert sum(s["players"] == n for s in specs) >= 50
    bone = [len(build_reference(s).boneyard_left()) for s in specs]
    assert {0, 1, 2, 3, 4} <= set(bone)
    assert sum(st["chance"] > 0 for st in stats) >= 100          # some seat draws with 2+ outcomes
    assert sum(st["inexact"] > 0 for st in stats) >= 50           # an average truncated...
    assert sum(st["neg_inexact"] > 0 for st in stats) >= 30       # ...toward zero from below
    assert sum(st["mixed_win"] > 0 for st in stats) >= 15         # some draws win, others not
    assert sum(st["rejected"] > 0 for st in stats) >= 40          # exact-305 rejections
    values = [v for s in specs for v in oracle(s).values()]
    assert WIN in values and -WIN in values
    assert sum(any(v % 5 for v in oracle(s).values()) for s in specs) >= 30   # off the 5-grid: averages
    assert sum(len(oracle(s)) >= 2 for s in specs) >= 100
    assert len(DREW) == 12


# ------------------------------------------------------------ engine vs oracle

def _check_symmetric(values):
    """The two branches of a double are distinct moves with equal values."""
    for mv, v in values.items():
        if mv.endswith(":branchA"):
            twin = mv[:-1] + "B"
            if twin in values:
                assert values[twin] == v, (mv, twin)


@pytest.mark.parametrize("spec", EXP + DREW, ids=_ids)
def test_expectimax_matches_oracle(spec):
    expected = oracle(spec)
    got = engine(spec)
    assert got == expected, spec
    _check_symmetric(got)


@pytest.mark.parametrize("spec", EXP[::7], ids=_ids)
def test_expectimax_full_width_ignores_the_seed(spec):
    """Every chance node is searched whole (no boneyard is wider than 28): the
    seed of the sampling does not matter, nor does the game's own boneyard order."""
    assert engine(spec, seed=12345) == oracle(spec)
    st = build_reference(spec)
    left = st.boneyard_left()
    if len(left) >= 2:
        shuffled = dict(spec, boneyard=spec["boneyard"][:st.drawn] + left[::-1])
        assert engine(shuffled) == oracle(spec)


@pytest.mark.parametrize("spec", EMPTY, ids=_ids)
def test_empty_boneyard_is_perfect_information(spec):
    """No draw is left: expectimax, PIMC and the exact solver agree (and the oracles)."""
    g = build_game(spec)
    ex = {str(m): v for m, v in world_values(g, method="expectimax", chance_width=CHANCE_WIDTH).items()}
    pimc = {str(m): v for m, v in world_values(g, method="pimc").items()}
    solved = Solver().solve(build_game(spec)).values
    assert ex == pimc == solved == oracle(spec) == M.move_values(build_reference(spec)), spec
    # the same under the win objective (the round's end valued by the equity table)
    ex_w = {str(m): v for m, v in world_values(g, method="expectimax", chance_width=CHANCE_WIDTH,
                                               objective="win").items()}
    pimc_w = {str(m): v for m, v in world_values(g, method="pimc", objective="win").items()}
    assert ex_w == pimc_w == Solver(objective="win", both=False).solve(build_game(spec)).values, spec


# ------------------------------------------------------------ hand-calculated cases
#
# Full deals plus the actions leading to the position (the engine only accepts
# full deals); found among random rounds for their small trees and worked out by
# hand from RULES.md.  Actions: "SEAT:TILE", "SEAT:TILE@PORT", "SEAT:draw TILE".


# TWO (2 players).  Seat 1 to move has just drawn 2-5 and must place it; it also
# holds 6-6 (no 6 port is open).  Seat 0 holds 3-3 (6 pips).  Boneyard left: 0-6
# and 4-6, order unknown.  Open: 0-0, 2-2, 4-4, 5-5, each on lineB (lineA taken),
# each counting 2x: end sum 0 + 4 + 8 + 10 = 22.
#  a) 2-5@2-2:lineB: 2-2 closes (0), 2-5 shows 5: 0 + 8 + 10 + 5 = 23, nothing.
#     Seat 0 (3-3) cannot place and draws:
#       0-6 (fits only 0-0:lineB): 0-0 closes, 0-6 shows 6: 8 + 10 + 5 + 6 = 29,
#         nothing; seat 1's 6-6@0-6:high is its last tile: 8 + 10 + 5 + 12 = 35,
#         P = 35, O = round5(6) = 5: +40 for seat 1
#       4-6 (fits only 4-4:lineB): 0 + 10 + 5 + 6 = 21, nothing; 6-6@4-6:high:
#         0 + 10 + 5 + 12 = 27, P = 0, O = 5: +5
#     average (40 + 5) / 2 = 22.5 -> 22
#  b) 2-5@5-5:lineB: 5-5 closes, 2-5 shows 2: 0 + 4 + 8 + 2 = 14, nothing.  Seat 0 draws:
#       0-6 on 0-0:lineB: 4 + 8 + 2 + 6 = 20 -> +20 for seat 0; then seat 1's
#         6-6@0-6:high: 4 + 8 + 2 + 12 = 26, P = 0, O = 5: +5.  Line: 5 - 20 = -15
#       4-6 on 4-4:lineB: 4 + 2 + 6 = 12, nothing; 6-6@4-6:high: 4 + 2 + 12 = 18,
#         P = 0, O = 5: +5
#     average (-15 + 5) / 2 = -5
# Before the position seat 1 made 15 and 20: scores at the position = start + [0, 35].
H_TWO = deal_spec(2, ["5-6 0-4 0-1 3-3 2-6", "2-3 1-1 2-2 1-4 3-4"],
              "0-2 0-3 1-6 0-5 4-5 3-5 1-3 1-5 0-0 3-6 5-5 6-6 1-2 2-4 4-4 2-5 0-6 4-6", 0,
              "0:0-4; 1:1-4@0-4:high; 0:0-1@0-4:low; 1:1-1@1-4:low; 0:draw 0-2; 0:draw 0-3; "
              "0:draw 1-6; 0:1-6@1-1:lineB; 1:draw 0-5; 1:draw 4-5; 1:draw 3-5; 1:draw 1-3; "
              "1:1-3@0-1:high; 0:0-3@1-3:high; 1:0-5@0-3:low; 0:2-6@1-6:high; 1:2-3@2-6:low; "
              "0:5-6@0-5:high; 1:3-5@2-3:high; 0:draw 1-5; 0:1-5@1-1:branchA; 1:4-5@3-5:high; "
              "0:draw 0-0; 0:draw 3-6; 0:3-6@5-6:high; 1:3-4@3-6:low; 0:draw 5-5; "
              "0:5-5@1-5:high; 1:draw 6-6; 1:draw 1-2; 1:1-2@1-1:branchB; 0:0-2@1-2:high; "
              "1:draw 2-4; 1:2-4@3-4:high; 0:0-0@0-2:low; 1:2-2@2-4:low; 0:draw 4-4; "
              "0:4-4@4-5:low; 1:draw 2-5")
TWO_A, TWO_B = "2-5@2-2:lineB", "2-5@5-5:lineB"

# THREE (2 players, a nested chance node).  Seat 0 to move has just drawn 5-6 and
# must place it; it also holds 4-4 (no 4 port).  Seat 1 holds 5-5 (10 pips).
# Boneyard left: 3-4, 2-2, 0-4.  Open: 0-0:branchA/B (0), 0-3:low (0), 1-1:branchA/B
# (1), 2-5:high (5), 3-3:branchA (3), 6-6:lineB (6); end sum 0 + 5 + 12 = 17.
#  a) 5-6@2-5:high: 0 + 6 + 12 = 18, nothing.  Seat 1 (5-5, no 5 port) draws:
#       3-4 on 3-3:branchA: 0 + 6 + 12 + 4 = 22; seat 0's 4-4@3-4:high is its last
#         tile: 0 + 6 + 12 + 8 = 26, P = 0, O = round5(10) = 10: +10
#       2-2 fits nothing: seat 1 draws again from 3-4, 0-4:
#         3-4: as above, but O = round5(5-5 + 2-2 = 14) = 15: +15
#         0-4 on 0-0:branchA/B or 0-3:low (every one: 0 + 6 + 12 + 4 = 22 or
#           6 + 12 + 4 = 22); 4-4@0-4:high: 26, P = 0, O = 15: +15
#         average 15
#       0-4 (any 0 port, 22): 4-4@0-4:high: 26, P = 0, O = round5(10) = 10: +10
#     average (10 + 15 + 10) / 3 = 11.67 -> 11
#  b) 5-6@6-6:lineB: 6-6 closes, 5-6 shows 5: 0 + 5 + 5 = 10 -> +10.  Seat 1's
#     5-5 (on 2-5:high or 5-6:low, 0 + 5 + 10 = 15 either way) is its last tile:
#     P = 15, O = round5(4-4 = 8) = 10: +25 for seat 1.  10 - 25 = -15
# Before the position seat 0 made 10 and 10, seat 1 10: scores = start + [20, 10].
H_THREE = deal_spec(2, ["2-6 4-4 3-6 0-1 4-6", "0-2 4-5 1-3 3-5 0-5"],
                "1-2 3-3 1-5 0-0 0-6 2-5 5-5 2-4 0-3 1-6 1-4 2-3 1-1 6-6 5-6 3-4 2-2 0-4", 0,
                "0:4-6; 1:4-5@4-6:low; 0:3-6@4-6:high; 1:3-5@3-6:low; 0:draw 1-2; 0:draw 3-3; "
                "0:draw 1-5; 0:1-5@4-5:high; 1:1-3@1-5:low; 0:3-3@1-3:high; 1:0-5@3-5:high; "
                "0:0-1@0-5:low; 1:draw 0-0; 1:draw 0-6; 1:draw 2-5; 1:draw 5-5; 1:draw 2-4; "
                "1:draw 0-3; 1:0-3@3-3:lineB; 0:1-2@0-1:high; 1:0-2@1-2:high; 0:draw 1-6; "
                "0:draw 1-4; 0:draw 2-3; 0:2-3@3-3:branchB; 1:0-0@0-2:low; 0:2-6@2-3:low; "
                "1:0-6@0-0:lineB; 0:1-6@0-6:high; 1:draw 1-1; 1:1-1@1-6:low; 0:1-4@1-1:lineB; "
                "1:2-4@1-4:high; 0:draw 6-6; 0:6-6@2-6:high; 1:2-5@2-4:low; 0:draw 5-6")
THREE_A, THREE_B = "5-6@2-5:high", "5-6@6-6:lineB"


def hand_case(name, deal, start, at_position, values):
    spec = dict(deal, name=name, scores=list(start))
    return pytest.param(spec, list(at_position), values, id=name)


HAND_CASES = [
    hand_case("two-0", H_TWO, [0, 0], [0, 35], {TWO_A: 22, TWO_B: -5}),
    # seat 0 at 285: in b) its +20 after drawing 0-6 is an exact 305 (-1000):
    # (-1000 + 5) / 2 = -497.5 -> -497 (toward zero, not -498); a) unchanged
    hand_case("two-opp-wins", H_TWO, [285, 0], [285, 35], {TWO_A: 22, TWO_B: -497}),
    # seat 1 at 265: in a) its +40 is an exact 305: (1000 + 5) / 2 = 502.5 -> 502;
    # b) +5 -> 270 is accepted: still -5
    hand_case("two-wins", H_TWO, [0, 230], [0, 265], {TWO_A: 502, TWO_B: -5}),
    # seat 1 at 270: in a) its +40 (310) is rejected: (0 + 5) / 2 = 2.5 -> 2
    hand_case("two-rejected", H_TWO, [0, 235], [0, 270], {TWO_A: 2, TWO_B: -5}),
    hand_case("three-0", H_THREE, [0, 0], [20, 10], {THREE_A: 11, THREE_B: -15}),
    # seat 0 at 295: b) its +10 is an exact 305 at once: +1000.  a) the dominoes
    # worth +10 win (305), those worth +15 are rejected (310): draws 3-4 -> 1000,
    # 2-2 -> (0 + 0) / 2 = 0, 0-4 -> 1000: 2000 / 3 = 666.67 -> 666
    hand_case("three-near", H_THREE, [275, 0], [295, 10], {THREE_A: 666, THREE_B: WIN}),
    # seat 1 at 280: b) its +25 domino is an exact 305: -1000 (seat 0's +10 before
    # it does not count); a) seat 1 scores nothing: still 11
    hand_case("three-opp-near", H_THREE, [0, 270], [20, 280], {THREE_A: 11, THREE_B: -WIN}),
]


@pytest.mark.parametrize("spec, at_position, values", HAND_CASES)
def test_hand_cases(spec, at_position, values):
    st = build_reference(spec)
    assert st.scores == at_position
    assert X.move_values(st) == values
    assert engine(spec) == values
