"""Rules that had no engine test with numbers of their own (a review of 2026-12-04):
each position here is built by hand and its expected numbers are worked out in the
comments from RULES.md, never read from the engine."""
import inspect

import pytest

from fiveup_solver import encoding, selfplay
from fiveup_solver.game import Game
from fiveup_solver.notation import ALL_TILES, Move

try:
    from .test_examples import start
except ImportError:  # tests/ is not a package: pytest puts tests/ on sys.path
    from test_examples import start

TILES = [str(t) for t in ALL_TILES]


def deal(*hands):
    """Two 5-tile hands and the other 18 tiles as the boneyard (in set order)."""
    used = {t for h in hands for t in h}
    return [list(h) for h in hands], [t for t in TILES if t not in used]


def test_an_opening_that_hits_305_exactly_wins_and_one_that_passes_it_is_rejected():
    # RULES §4.1/4.2, §6.1-6.2, §7: seat 0 at 300 raw opens.
    hands, bone = deal(["1-4", "4-6", "0-0", "2-2", "3-3"], ["0-1", "1-1", "1-2", "1-3", "0-2"])
    # 1-4 opens with both ends open: S = 1 + 4 = 5 -> +5 -> exactly 305: the game is won at once
    g = start(2, hands, bone, 0, [300, 0])
    events = [e.to_dict() for e in g.push(Move.parse("1-4"))]
    assert [(e["kind"], e["end_sum"], e["raw"], e["accepted"], e["scores"]) for e in events] == [
        ("placement", 5, 5, True, [305, 0])]
    assert g.game_over and g.winner == 0 and g.legal_moves == []
    with pytest.raises(ValueError):
        g.push(Move.parse("0-0@1-4:low"))
    # 4-6 instead: S = 10 -> 310 > 305: rejected whole, the scores stay and seat 1 plays on
    g = start(2, hands, bone, 0, [300, 0])
    events = [e.to_dict() for e in g.push(Move.parse("4-6"))]
    assert [(e["end_sum"], e["raw"], e["accepted"], e["scores"]) for e in events] == [(10, 10, False, [300, 0])]
    assert not g.round_over and g.scores == [300, 0] and g.to_move == 1


def test_a_lone_opening_double_counts_its_two_halves_once():
    # RULES §4.1: the opening 5-5 has both line ports open and counts 2 x 5 = 10, not 20;
    # from 295 that is exactly 305
    hands, bone = deal(["5-5", "0-1", "1-1", "1-2", "1-3"], ["0-0", "2-2", "3-3", "4-4", "6-6"])
    g = start(2, hands, bone, 0, [295, 0])
    [e] = [e.to_dict() for e in g.push(Move.parse("5-5"))]
    assert (e["end_sum"], e["raw"], e["accepted"], e["scores"]) == (10, 10, True, [305, 0])
    assert g.game_over and g.winner == 0


def test_a_double_on_a_non_double_opening_opens_its_branches_after_both_line_ports():
    # RULES §3.1-3.5, §4.1. Seat 0 holds 3-5 and 2-5, seat 1 holds 5-5 and 0-5; the other
    # tiles of the two hands (1-1 1-4 4-6, 1-6 4-4 6-6) show no 0, 2, 3 or 5.
    hands, bone = deal(["3-5", "2-5", "1-1", "1-4", "4-6"], ["5-5", "0-5", "1-6", "4-4", "6-6"])
    g = start(2, hands, bone, 0, [0, 0])
    steps = [
        # the opening may be any tile (§3.1); 3-5: ends 3 and 5 -> 8, no credit
        ("3-5", ["1-1", "1-4", "2-5", "3-5", "4-6"], 8, ["3-5:high", "3-5:low"]),
        # a 5 goes on 3-5's high end, a 3 on its low end: seat 1 has 0-5 and 5-5 for the 5.
        # 5-5 attaches by lineA; its lineB is open: 3 + 2 x 5 = 13, no credit; its branches
        # stay shut while a line port is open
        ("5-5@3-5:high", ["0-5@3-5:high", "5-5@3-5:high"], 13, ["3-5:low", "5-5:lineB"]),
        # 2-5 on lineB: both line ports connected, 5-5 counts 0: 3 + 2 = 5 -> +5 for side 0;
        # now both branches are open
        ("2-5@5-5:lineB", ["2-5@5-5:lineB"], 5, ["2-5:low", "3-5:low", "5-5:branchA", "5-5:branchB"]),
        # 0-5 may go on either branch (two moves); on branchA: 3 + 2 + 0 = 5 -> +5 for side 1
        ("0-5@5-5:branchA", ["0-5@5-5:branchA", "0-5@5-5:branchB"], 5,
         ["0-5:low", "2-5:low", "3-5:low", "5-5:branchB"]),
    ]
    credits = []
    for move, legal, end_sum, ports in steps:
        assert sorted(str(m) for m in g.legal_moves) == legal
        events = g.push(Move.parse(move))
        assert g.end_sum == end_sum
        assert sorted(str(p) for p in g.open_ports()) == ports
        credits.append([(e.to_dict()["side"], e.to_dict()["raw"]) for e in events])
    assert credits == [[], [], [(0, 5)], [(1, 5)]]
    assert g.scores == [5, 5]


@pytest.mark.parametrize("players,boneyard", [(2, 18), (3, 13), (4, 8)])
def test_every_seat_is_dealt_five_and_the_rest_is_the_boneyard(players, boneyard):
    # RULES §2.1: 5 tiles a seat; 28 - 5n in the boneyard; all 28 tiles, each once
    for seed in range(20):
        g = Game(players=players, seed=seed)
        hands = [g.hand(s) for s in range(players)]
        assert [len(h) for h in hands] == [5] * players
        assert len(g.boneyard) == boneyard
        assert sorted(str(t) for t in [t for h in hands for t in h] + list(g.boneyard)) == sorted(TILES)


def test_the_round_limit_defaults_to_d6s_1000_everywhere():
    # RULES D6: a simulation stops a game unfinished after a configurable number of rounds, default 1000
    assert Game().max_rounds == 1000
    assert inspect.signature(selfplay.play_game).parameters["max_rounds"].default == 1000
    assert encoding.DEFAULT_PARAMS["max_rounds"] == 1000       # the OpenSpiel and PettingZoo adapters
    pettingzoo = pytest.importorskip("fiveup_solver.pettingzoo")
    pytest.importorskip("pettingzoo")
    assert pettingzoo.env().unwrapped.max_rounds == 1000


def test_the_first_starter_is_a_fair_draw():
    # RULES §2.3, D1: a uniform choice of seat. 1,200 seeded games per player count; a
    # chi-square statistic with n - 1 degrees of freedom stays below its 0.1 % critical
    # value (13.8 for 2 df, 16.3 for 3; 10.8 for 1), so this fails for a biased draw
    critical = {2: 10.83, 3: 13.82, 4: 16.27}
    for players in (2, 3, 4):
        counts = [0] * players
        for seed in range(1200):
            counts[Game(players=players, seed=seed).current.starter] += 1
        expected = 1200 / players
        chi2 = sum((c - expected) ** 2 / expected for c in counts)
        assert chi2 < critical[players], (players, counts)
