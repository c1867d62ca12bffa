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


def test_d4_scores_have_no_floor_over_hundreds_of_rounds():
    """D4: a negative net event is applied and a score has no floor. The core kept scores in
    16 bits and refused any below -30000: a legal game of 600 such rounds stopped at round 546.

    The round (tests/data/d4_negative_round.json, 4 players, seat 1 starts):
    - action 20, seat 1 plays 2-3 on 2-2:lineB with end sum 5: +5 for side 1;
    - action 24, seat 1 places its last tile 2-4 on 2-6:low, end sum 11: P = 0;
      opponents seat 0 (4-4: 8) and seat 2 (0-5: 5): O = round(13) = 15;
      partner seat 3 keeps 3-6 5-6 4-5 3-5 1-4 3-4 5-5 0-0 6-6 1-1 (9 + 11 + 9 + 8 + 5 + 7
      + 10 + 0 + 12 + 2 = 73): D = round(73) = 75; the event is 0 + 15 - 75 = -60.
    Side 1: 5 - 60 = -55 a round, side 0 nothing. Seat 1 emptied its hand, so it starts the
    next round (RULES 2.5): the same round again is legal, and 600 of them leave side 1 at
    600 x -55 = -33000."""
    import copy
    import json
    from pathlib import Path
    from fiveup_solver.record import game_from_record, replay
    one = json.loads((Path(__file__).parent / "data" / "d4_negative_round.json").read_text())
    events = replay({"format": "fiveup-record/1", "players": 4, "rounds": [one]})["events"]
    assert [(e["action"], e["side"], e["end_sum"], e["raw"]) for e in events] == [(20, 1, 5, 5), (24, 1, 11, -60)]
    record = {"format": "fiveup-record/1", "players": 4, "rounds": [copy.deepcopy(one) for _ in range(600)]}
    out = replay(record)
    assert out["scores"] == [0, -33000] and out["winner"] is None
    assert out["rounds"][-1] == {"end": "domino", "seat": 1}
    game = game_from_record(record)
    game.next_round()                          # round 601 starts at -33000
    assert game.scores == [0, -33000] and game.to_move == 1


@pytest.mark.parametrize("seed", [7, 8])
@pytest.mark.parametrize("objective", ["points", "win"])
def test_a_score_far_below_zero_plays_as_one_at_the_old_floor(seed, objective):
    """D4 with 32-bit scores (4 players: the only ones whose scores go below 0): a side at
    the new bound (-1,000,000,000) is as far from 305 as one at -30000 (no round brings
    either near it), so every move's value is the same; a 16-bit value or a sum that
    wrapped would show here."""
    from fiveup_solver.notation import MIN_SCORE
    from fiveup_solver.solver import Solver
    results = []
    for low in (-30000, MIN_SCORE, MIN_SCORE + 5):
        game = Game(players=4, seed=seed, scores=[low, 300], starter=0)
        while len(game.current.moves) < 8 or len(game.legal_moves) < 2:
            game.push(game.legal_moves[0])
        results.append({str(m): v for m, v in Solver(objective=objective).solve(game).values.items()})
    assert results[0] == results[1] == results[2] and len(results[0]) >= 2


@pytest.mark.parametrize("objective", ["points", "win"])
def test_a_reused_solver_tells_scores_apart_that_differ_by_a_multiple_of_65536(objective):
    """A review of the 32-bit scores: the solver's key kept each score's low 16 bits, and a
    Solver keeps its table between solves: after [290, 0] (15 raw from 305), the same deal at
    [290 - 327,680, 0] read its values (win '3-3': 999 for 37)."""
    from fiveup_solver.solver import Solver
    near = Game(players=4, seed=3, scores=[290, 0], starter=0)
    far = Game(players=4, seed=3, scores=[290 - 5 * 65536, 0], starter=0)
    fresh = Solver(tt_mb=4, objective=objective, both=False).solve(far).values
    reused = Solver(tt_mb=4, objective=objective, both=False)
    assert reused.solve(near).values != fresh                 # the target matters there
    assert reused.solve(far).values == fresh


def test_a_game_started_at_the_lowest_start_score_goes_on():
    """A review: a game started at MIN_SCORE took a side below it with a partner's pips (D4),
    and then next_round() and the game's own observation refused the score it had reached.
    Games start at MIN_SCORE or above; scores are kept a billion lower."""
    import random
    from fiveup_solver.notation import LOWEST_SCORE, MIN_SCORE
    assert LOWEST_SCORE <= MIN_SCORE - 10 ** 9
    g = Game(players=4, seed=22, scores=[0, MIN_SCORE], starter=0)
    rng = random.Random(22)
    while not g.round_over:
        g.push(rng.choice(g.legal_moves))
    assert g.scores[1] < MIN_SCORE                            # (this deal's domino: -10)
    g.observation(0).to_dict()
    g.next_round()
    assert g.scores[1] < MIN_SCORE and not g.round_over
    with pytest.raises(Exception, match="from -1000000000 to 304"):
        Game(players=4, seed=22, scores=[0, MIN_SCORE - 5], starter=0)
