"""Every worked example of the spec (tests/data/seed_examples.json, a copy of
shared/spec/examples/seed_examples.json) run through the ENGINE.

* boards: each example's placements are played as a real 2-player round
  (seats alternate); after every step the engine's end sum, the credit in the
  events it returns, its scoring ends and its open ports must equal the example.
* domino_events / blocked_rounds: for each example a full 28-tile deal and an
  action sequence were designed so that the round reaches exactly the
  example's situation; the events of the final action must equal the
  example's event dicts (round/action filled in as the engine numbers them),
  and the round end and the game winner must be the example's.
* round_to_nearest_5 and raw_to_display tables.

Expected values are the example's own numbers or hand calculations written
here; nothing is taken from the engine under test.
"""
import json
from pathlib import Path

import pytest

from fiveup_solver import _core
from fiveup_solver.game import Game, RoundLog
from fiveup_solver.notation import ALL_TILES, Move, Port, Tile, raw_to_display

try:
    from . import reference as R
except ImportError:  # tests/ is not a package: pytest puts tests/ on sys.path
    import reference as R

EX = json.loads((Path(__file__).parent / "data" / "seed_examples.json").read_text())
TILES = [str(t) for t in ALL_TILES]


def pips(tile: str) -> int:
    a, b = tile.split("-")
    return int(a) + int(b)


def port_value(port: str) -> int:
    """Value a tile must show to attach at 'a-b:NAME' (RULES §3.2): high -> b, else a."""
    tile, name = port.split(":")
    a, b = sorted(int(x) for x in tile.split("-"))
    return b if name == "high" else a


def side_of(players: int, seat: int) -> int:
    return seat % 2 if players == 4 else seat  # RULES §1.3


def start(players, hands, boneyard, starter, scores):
    """A game whose current round is the given deal, with the given raw scores.

    A deal is always the 28 tiles.  The public API starts every game at 0
    points; the examples' scores_before are set by building the round on the
    core directly (a RoundLog exactly as Game.start_round makes one).
    """
    assert sorted([t for h in hands for t in h] + list(boneyard)) == sorted(TILES)
    assert all(len(h) == 5 for h in hands)
    hands_t = [[Tile.parse(t) for t in h] for h in hands]
    bone_t = [Tile.parse(t) for t in boneyard]
    game = Game(players=players, deal=False)
    if not any(scores):
        game.start_round(hands_t, bone_t, starter)
    else:
        core = _core.CoreRound(players, [[t.index for t in h] for h in hands_t],
                               [t.index for t in bone_t], starter, list(scores))
        game.rounds.append(RoundLog(starter, hands_t, bone_t, core, scores_before=tuple(scores)))
    assert game.scores == list(scores)
    assert game.to_move == starter
    return game


def play(game, moves):
    """Push 'draw' / 'pass' / 'TILE' / 'TILE@PORT' moves, each checked legal
    first; returns the list of event lists (one per action)."""
    out = []
    for text in moves:
        if text in ("draw", "pass"):
            # a draw or a pass is the ONLY legal move (RULES §5.1-5.3)
            assert game.legal_moves == [Move.parse(text)], (text, game.legal_moves)
        else:
            assert Move.parse(text) in game.legal_moves, (text, game.legal_moves)
        out.append([e.to_dict() for e in game.push(Move.parse(text))])
    return out


# ================================================================ boards

def board_deal(steps):
    """A 2-player deal in which seat 0 plays steps 0, 2, 4, ... and seat 1 steps
    1, 3, 5, ...  A seat may be dealt at most 4 of its tiles (a 5th would empty
    its hand and end the round with a domino event); a 5th tile comes from the
    boneyard: the seat is dealt a *dead* tile instead, one whose halves never
    show on any open port of the example, so it must draw (and then place the
    drawn tile at once, RULES §5.2)."""
    plays = [s["play"] for s in steps]
    shown = {port_value(p) for s in steps for p in s["open_ports"]}
    dead = [t for t in TILES if t not in plays and not {int(x) for x in t.split("-")} & shown]
    spare = [t for t in TILES if t not in plays and t not in dead]
    hands, drawn = [], []
    for seat in (0, 1):
        mine = plays[seat::2]
        hand = mine[:4]
        if len(mine) > 4:
            assert len(mine) == 5
            drawn.append(mine[4])
            hand.append(dead.pop(0))
        while len(hand) < 5:  # any other tile will do as padding
            hand.append(spare.pop(0) if spare else dead.pop())
        hands.append(hand)
    rest = [t for t in TILES if t not in drawn and all(t not in h for h in hands)]
    return hands, drawn + rest


def test_board_deal_of_the_first_example():
    # Hand check of board_deal on the 9-step example: seat 0 plays 1-4, 4-4, 1-2,
    # 5-5 and 1-3; open ports over the example show 0..5, so 6-6 is the only dead
    # tile: seat 0 is dealt 1-4 4-4 1-2 5-5 6-6 and draws 1-3 at step 9.
    hands, bone = board_deal(EX["boards"][0]["steps"])
    assert hands[0] == ["1-4", "4-4", "1-2", "5-5", "6-6"]
    assert hands[1][:4] == ["1-1", "3-4", "1-5", "0-5"]
    assert bone[0] == "1-3"


@pytest.mark.parametrize("case", EX["boards"], ids=lambda c: c["name"])
def test_board_example(case):
    steps = case["steps"]
    hands, bone = board_deal(steps)
    game = start(2, hands, bone, 0, [0, 0])
    scores = [0, 0]
    for i, step in enumerate(steps):
        seat = i % 2
        assert game.to_move == seat
        if step["play"] not in [str(t) for t in game.hand(seat)]:
            # seat holds only its dead tile: the draw is forced and the drawn tile fits
            assert game.legal_moves == [Move.draw()]
            assert [e for e in game.push(Move.draw())] == []
            assert step["play"] in [str(t) for t in game.hand(seat)]
        move = Move.play(Tile.parse(step["play"]),
                         None if step["at"] is None else Port.parse(step["at"]))
        assert move in game.legal_moves
        events = game.push(move)
        assert not game.round_over
        assert game.end_sum == step["end_sum"]
        # raw credit: an event exactly when the example's raw is non-zero (RULES §4.2)
        if step["raw"]:
            scores[seat] += step["raw"]
            assert [e.to_dict() for e in events] == [
                {"round": 0, "action": len(game.current.actions) - 1, "kind": "placement",
                 "seat": seat, "side": seat, "end_sum": step["end_sum"], "raw": step["raw"],
                 "accepted": True, "scores": scores}]
        else:
            assert events == []
        assert game.scores == scores
        assert sorted([str(t), v] for t, v in game.scoring_ends()) == step["scoring_ends"]
        assert sorted(str(p) for p in game.open_ports()) == sorted(step["open_ports"])
        assert game.current.core.topology_agrees()


def test_board_examples_branch_ports_are_two_choices():
    # After the first example's 4th step (open: 1-1:lineB, 3-4:low, 4-4:branchA,
    # 4-4:branchB) a 2-4 in hand fits both branches of the 4-4 spinner: two
    # concrete moves, while 1-3 fits 1-1:lineB and 3-4:low (RULES §3.3-3.4).
    steps = EX["boards"][0]["steps"]
    hands = [["1-4", "4-4", "2-4", "1-3", "6-6"], ["1-1", "3-4", "0-0", "0-2", "2-2"]]
    bone = [t for t in TILES if all(t not in h for h in hands)]
    game = start(2, hands, bone, 0, [0, 0])
    play(game, ["1-4", "1-1@1-4:low", "4-4@1-4:high", "3-4@4-4:lineB"])
    assert sorted(str(p) for p in game.open_ports()) == steps[3]["open_ports"]
    assert sorted(str(m) for m in game.legal_moves) == [
        "1-3@1-1:lineB", "1-3@3-4:low", "2-4@4-4:branchA", "2-4@4-4:branchB"]


# ================================================================ domino and blocked rounds
#
# Each position below is a full 28-tile deal plus an action sequence, designed
# by hand (with a small search for a sequence, then checked step by step; the
# comment on every action gives the end sum after it, and on every draw why it
# is forced).  In all of them no placement before the last one has an end sum
# that is a positive multiple of 5, so no event happens before the final
# action and the scores are still the example's scores_before when it comes.
#
# The domino examples' hands_left are used exactly.  The blocked examples'
# hands_left cannot be left over at a block of a real (28-tile) round, so those
# positions keep hands with the example's pip sums (the credits depend on the
# sums only): every value v is on 6 non-doubles, so if v shows on an odd number
# of left-over non-doubles it shows on an odd number of board non-doubles; the
# board's connections pair v-ports, so an odd number of v-ports stays
# unconnected, and one of them is open (a double's branch only when one of its
# line ports is), so the left-over tile with v could be placed: no block.  The
# spec's hands fail this (e.g. for 1: only 0-1 is left in the 4-player example,
# only 1-5 in the 3-player ones); test_blocked_example_hands_fail_the_parity_check
# computes it.  Their open_values ([5], [0]) go with those impossible hands; the
# positions' own open values are listed in POSITIONS and checked instead.

POSITIONS = {
    # ---------------------------------------------------------------- pairs4
    # 4 players, seat 2 starts and places its 5 tiles on its 5 turns (actions
    # 0, 5, 9, 13, 18).  Seats 0 and 3 draw once each (a draw whose tile fits at
    # once), so they keep 2 tiles; seat 1 keeps 1.
    # Left: seat 0 0-4 1-3 (8), seat 1 1-6 (7), seat 3 2-3 2-2 (9).
    # Last placement 4-6 on 3-6:high; scoring ends 1-2:high 2, 2-4:high 4,
    # 4-6:low 4 and 0-0 with lineB open (2 x 0) -> 10 = placement_end_sum.
    # P = 10; O = 7 + 9 = 16 -> 15; D (partner seat 0) = 8 -> 10; net 15.
    "pairs4": dict(
        players=4, starter=2,
        hands=[["0-4", "1-3", "1-4", "2-4", "1-2"], ["1-6", "6-6", "0-3", "3-6", "0-6"],
               ["4-4", "5-6", "0-0", "1-5", "4-6"], ["2-3", "2-2", "2-6", "5-5", "0-1"]],
        boneyard=["3-5", "3-4", "4-5", "0-5", "0-2", "2-5", "1-1", "3-3"],
        hands_left=[["0-4", "1-3"], ["1-6"], [], ["2-3", "2-2"]],
        moves=[
            "5-6",              # s2: sum 5+6 = 11
            "5-5@5-6:low",      # s3: 10 + 6 = 16
            "draw",             # s0 holds 0-4 1-2 1-3 1-4 2-4; open values 5, 6: no fit, draws 3-5
            "3-5@5-5:lineB",    # s0: 3 + 6 = 9 (5-5 has both line ports filled: counts 0)
            "0-3@3-5:low",      # s1: 0 + 6 = 6
            "1-5@5-5:branchA",  # s2: 0 + 1 + 6 = 7
            "0-1@0-3:low",      # s3: 1 + 1 + 6 = 8
            "1-4@1-5:low",      # s0: 1 + 4 + 6 = 11
            "6-6@5-6:high",     # s1: 1 + 4 + 12 = 17
            "4-4@1-4:high",     # s2: 1 + 8 + 12 = 21
            "2-6@6-6:lineB",    # s3: 1 + 8 + 2 = 11
            "2-4@2-6:low",      # s0: 1 + 8 + 4 = 13
            "0-6@6-6:branchA",  # s1: 1 + 8 + 4 + 0 = 13
            "0-0@0-6:low",      # s2: 1 + 8 + 4 + 0 = 13
            "draw",             # s3 holds 2-2 2-3; open values 0, 1, 4, 5, 6: no fit, draws 3-4
            "3-4@4-4:lineB",    # s3: 1 + 4 + 3 + 0 = 8
            "1-2@0-1:high",     # s0: 2 + 4 + 3 + 0 = 9
            "3-6@3-4:low",      # s1: 2 + 4 + 6 + 0 = 12
            "4-6@3-6:high",     # s2, last tile: 2 + 4 + 4 + 0 = 10
        ]),
    # ---------------------------------------------------------------- three
    # 3 players, seat 0 starts and places its 5 tiles at actions 0, 3, 6, 9, 12;
    # seats 1 and 2 place 4 each and keep 0-4 and 1-2: the example's hands.
    # Last: 1-5 on 5-5:branchA; scoring ends 0-3:low 0, 0-6:low 0, 1-5:low 1,
    # 2-3:low 2, 4-5:low 4 (3-3, 4-4, 5-5 have both line ports filled) -> 7.
    # P = 0 (7 is no multiple of 5); O = 4 + 3 = 7 -> 5 (rounded once); net 5.
    "three": dict(
        players=3, starter=0,
        hands=[["1-3", "2-3", "0-3", "3-3", "1-5"], ["0-4", "2-5", "4-5", "1-4", "2-4"],
               ["1-2", "4-6", "4-4", "5-5", "0-6"]],
        boneyard=["3-5", "3-4", "0-1", "2-2", "6-6", "0-0", "2-6", "1-6", "3-6", "5-6", "1-1",
                  "0-5", "0-2"],
        hands_left=[[], ["0-4"], ["1-2"]],
        moves=[
            "1-3",              # s0: 1 + 3 = 4
            "1-4@1-3:low",      # s1: 4 + 3 = 7
            "4-4@1-4:high",     # s2: 8 + 3 = 11
            "3-3@1-3:high",     # s0: 8 + 6 = 14
            "2-4@4-4:lineB",    # s1: 2 + 6 = 8
            "4-6@4-4:branchA",  # s2: 2 + 6 + 6 = 14
            "0-3@3-3:lineB",    # s0: 2 + 6 + 0 = 8
            "2-5@2-4:low",      # s1: 5 + 6 + 0 = 11
            "5-5@2-5:high",     # s2: 10 + 6 + 0 = 16
            "2-3@3-3:branchB",  # s0: 10 + 6 + 0 + 2 = 18
            "4-5@5-5:lineB",    # s1: 4 + 6 + 0 + 2 = 12
            "0-6@4-6:high",     # s2: 4 + 0 + 0 + 2 = 6
            "1-5@5-5:branchA",  # s0, last tile: 4 + 0 + 0 + 2 + 1 = 7
        ]),
    # ---------------------------------------------------------------- negative
    # 4 players, seat 1 starts and places 3-6 1-3 2-4 1-1 0-4 (actions 0, 5,
    # 10, 14, 18).  Seat 3 is dealt 6-6 5-6 4-6 2-6 0-0; on its first two turns
    # only 1 and 3 are open, so it draws 3-5, then 3-4 (each fits at once) and
    # keeps 6-6 5-6 4-6.  Seats 0 and 2 keep 0-1 and 1-2: the example's hands.
    # Last: 0-4 on 1-4:high; open ends 0-4:low 0 and 0-0 (lineB open, 2 x 0);
    # 1-1 has both line ports filled -> end sum 0.
    # P = 0; O = 1 + 3 = 4 -> 5; D (partner seat 3) = 12 + 11 + 10 = 33 -> 35;
    # net 5 - 35 = -30, applied (no floor, D4): side 1 goes 10 -> -20.
    "negative": dict(
        players=4, starter=1,
        hands=[["0-1", "0-5", "2-3", "1-5", "1-4"], ["3-6", "1-3", "2-4", "1-1", "0-4"],
               ["1-2", "1-6", "0-3", "2-5", "0-6"], ["6-6", "5-6", "4-6", "2-6", "0-0"]],
        boneyard=["3-5", "3-4", "0-2", "4-5", "2-2", "3-3", "4-4", "5-5"],
        hands_left=[["0-1"], [], ["1-2"], ["6-6", "5-6", "4-6"]],
        moves=[
            "3-6",              # s1: 3 + 6 = 9
            "1-6@3-6:high",     # s2: 3 + 1 = 4
            "draw",             # s3 holds 0-0 2-6 4-6 5-6 6-6; open values 1, 3: no fit, draws 3-5
            "3-5@3-6:low",      # s3: 5 + 1 = 6
            "0-5@3-5:high",     # s0: 0 + 1 = 1
            "1-3@1-6:low",      # s1: 0 + 3 = 3
            "0-3@0-5:low",      # s2: 3 + 3 = 6
            "draw",             # s3 holds 0-0 2-6 4-6 5-6 6-6; open value 3 only: draws 3-4
            "3-4@0-3:high",     # s3: 4 + 3 = 7
            "2-3@1-3:high",     # s0: 4 + 2 = 6
            "2-4@3-4:high",     # s1: 2 + 2 = 4
            "2-5@2-4:low",      # s2: 5 + 2 = 7
            "2-6@2-3:low",      # s3: 5 + 6 = 11
            "1-5@2-5:high",     # s0: 1 + 6 = 7
            "1-1@1-5:low",      # s1: 2 + 6 = 8
            "0-6@2-6:high",     # s2: 2 + 0 = 2
            "0-0@0-6:low",      # s3: 2 + 0 = 2
            "1-4@1-1:lineB",    # s0: 4 + 0 = 4 (1-1 now has both line ports filled)
            "0-4@1-4:high",     # s1, last tile: 0 + 0 = 0
        ]),
    # ---------------------------------------------------------------- block4
    # 4 players, seat 1 starts.  Left at the end: seat 0 0-1 0-2 (3, the
    # example's), seat 1 5-5 (10), seat 2 6-6 (12), seat 3 1-2 2-2 (7).  The
    # other 22 tiles go on the board; the 8 boneyard tiles are drawn one a turn
    # (each fits at once).  The round blocks the moment seat 2 places the last
    # drawn tile 4-4: the boneyard is empty and only 3s and 4s are open, which
    # no left-over tile shows.
    # Credits (sums 3, 10, 12, 7; order 0, 3, 1, 2): seat 0: (10-3) + (7-3) = 11
    # -> 10; seat 3: 12 - 7 = 5 -> 5; seat 1: 12 - 10 = 2 -> 0; seat 2: 0.
    # Round winner: the smallest hand (3) is side 0's.
    "block4": dict(
        players=4, starter=1,
        hands=[["0-1", "0-2", "2-4", "5-6", "1-5"], ["5-5", "0-4", "0-6", "1-1", "1-3"],
               ["6-6", "0-0", "1-6", "3-3", "2-5"], ["1-2", "2-2", "0-5", "0-3", "1-4"]],
        boneyard=["3-5", "4-5", "2-6", "2-3", "3-4", "4-6", "3-6", "4-4"],
        hands_left=[["0-1", "0-2"], ["5-5"], ["6-6"], ["1-2", "2-2"]],
        open_values=[3, 4],     # open: 2-3:high 3-3:lineB 3-5:low 3-6:low 4-4:lineB 4-5:low
        moves=[
            "0-4",              # s1: 0 + 4 = 4
            "0-0@0-4:low",      # s2: 0 + 4 = 4
            "0-5@0-0:lineB",    # s3: 5 + 4 = 9 (0-0 line ports filled)
            "2-4@0-4:high",     # s0: 5 + 2 = 7
            "0-6@0-0:branchB",  # s1: 5 + 2 + 6 = 13
            "1-6@0-6:high",     # s2: 5 + 2 + 1 = 8
            "0-3@0-0:branchA",  # s3: 5 + 2 + 1 + 3 = 11
            "5-6@0-5:high",     # s0: 6 + 2 + 1 + 3 = 12
            "1-1@1-6:low",      # s1: 6 + 2 + 2 + 3 = 13
            "3-3@0-3:high",     # s2: 6 + 2 + 2 + 6 = 16
            "1-4@1-1:lineB",    # s3: 6 + 2 + 4 + 6 = 18
            "1-5@1-1:branchA",  # s0: 6 + 2 + 4 + 5 + 6 = 23
            "1-3@1-1:branchB",  # s1: 6 + 2 + 4 + 5 + 3 + 6 = 26
            "2-5@2-4:low",      # s2: 6 + 5 + 4 + 5 + 3 + 6 = 29
            "draw",             # s3 holds 1-2 2-2; open values 3, 4, 5, 6: no fit, draws 3-5
            "3-5@1-5:high",     # s3: 6 + 5 + 4 + 3 + 3 + 6 = 27
            "draw",             # s0 holds 0-1 0-2; open values 3, 4, 5, 6: no fit, draws 4-5
            "4-5@2-5:high",     # s0: 6 + 4 + 4 + 3 + 3 + 6 = 26
            "draw",             # s1 holds 5-5; open values 3, 4, 6: no fit, draws 2-6
            "2-6@5-6:high",     # s1: 2 + 4 + 4 + 3 + 3 + 6 = 22
            "draw",             # s2 holds 6-6; open values 2, 3, 4: no fit, draws 2-3
            "2-3@2-6:low",      # s2: 3 + 4 + 4 + 3 + 3 + 6 = 23
            "draw",             # s3 holds 1-2 2-2; open values 3, 4: no fit, draws 3-4
            "3-4@1-3:high",     # s3: 3 + 4 + 4 + 3 + 4 + 6 = 24
            "draw",             # s0 holds 0-1 0-2; open values 3, 4: no fit, draws 4-6
            "4-6@1-4:high",     # s0: 3 + 6 + 4 + 3 + 4 + 6 = 26
            "draw",             # s1 holds 5-5; open values 3, 4, 6: no fit, draws 3-6
            "3-6@4-6:high",     # s1: 3 + 3 + 4 + 3 + 4 + 6 = 23
            "draw",             # s2 holds 6-6; open values 3, 4: no fit, draws 4-4 (the last)
            "4-4@3-4:high",     # s2: 3 + 3 + 4 + 3 + 8 + 6 = 27 -> blocked
        ]),
    # ---------------------------------------------------------------- block3 (starter 1)
    # 3 players, seat 1 starts.  Left at the end: seat 0 3-3 (6), seat 1 1-1
    # 2-2 (6), seat 2 4-4 6-6 (20).  Seats 1, 2, 0 draw the 13 boneyard tiles in
    # three long draws (each until a tile fits; seat 0's last draw empties the
    # boneyard without a fit, so it passes).  The round blocks when seat 1 places
    # 0-6: only 0s and 5s are open, which no left-over tile shows.
    # Credits (sums 6, 6, 20; the tie 6 = 6 ordered clockwise from the starter:
    # seat 1, then seat 0, then seat 2): seat 1: 20 - 6 = 14 -> 15 -> 290 + 15 =
    # 305 wins at once, seat 0's credit is not applied.  Round: the smallest sum
    # 6 is shared by two sides -> tie (winner None).
    "block3_s1": dict(
        players=3, starter=1,
        hands=[["3-3", "1-5", "0-3", "2-3", "3-6"], ["1-1", "2-2", "0-2", "2-4", "3-5"],
               ["4-4", "6-6", "0-1", "0-5", "2-5"]],
        boneyard=["0-6", "2-6", "5-5", "5-6", "0-0", "3-4", "1-2", "1-6", "1-4", "4-5", "1-3",
                  "4-6", "0-4"],
        hands_left=[["3-3"], ["1-1", "2-2"], ["4-4", "6-6"]],
        open_values=[0, 5],     # open: 0-0:lineB 0-6:low 5-5:branchA 5-5:branchB
        moves=[
            "0-2",              # s1: 0 + 2 = 2
            "0-1@0-2:low",      # s2: 1 + 2 = 3
            "1-5@0-1:high",     # s0: 5 + 2 = 7
            "2-4@0-2:high",     # s1: 5 + 4 = 9
            "0-5@1-5:high",     # s2: 0 + 4 = 4
            "0-3@0-5:low",      # s0: 3 + 4 = 7
            "3-5@0-3:high",     # s1: 5 + 4 = 9
            "2-5@3-5:high",     # s2: 2 + 4 = 6
            "2-3@2-5:low",      # s0: 3 + 4 = 7
            "draw",             # s1 holds 1-1 2-2; open values 3, 4: no fit, draws 0-6
            "draw",             # ... 2-6 (no 3 or 4)
            "draw",             # ... 5-5
            "draw",             # ... 5-6
            "draw",             # ... 0-0
            "draw",             # ... 3-4, which fits
            "3-4@2-4:high",     # s1: 3 + 3 = 6
            "draw",             # s2 holds 4-4 6-6; open value 3 only: draws 1-2
            "draw",             # ... 1-6
            "draw",             # ... 1-4
            "draw",             # ... 4-5
            "draw",             # ... 1-3, which fits
            "1-3@2-3:high",     # s2: 1 + 3 = 4
            "3-6@3-4:low",      # s0: 1 + 6 = 7
            "5-6@3-6:high",     # s1: 1 + 5 = 6
            "1-2@1-3:low",      # s2: 2 + 5 = 7
            "draw",             # s0 holds 3-3; open values 2, 5: draws 4-6
            "draw",             # ... 0-4: the boneyard is empty, nothing fits
            "pass",             # s0 holds 0-4 3-3 4-6; seat 1 can still place: pass
            "5-5@5-6:low",      # s1: 2 + 10 = 12
            "4-5@5-5:lineB",    # s2: 2 + 4 = 6
            "0-4@4-5:low",      # s0: 2 + 0 = 2
            "2-6@1-2:high",     # s1: 6 + 0 = 6
            "1-6@2-6:high",     # s2: 1 + 0 = 1
            "pass",             # s0 holds 3-3 4-6; open values 0, 1, 5: pass
            "0-0@0-4:low",      # s1: 1 + 0 = 1
            "1-4@1-6:low",      # s2: 4 + 0 = 4
            "4-6@1-4:high",     # s0: 6 + 0 = 6
            "0-6@4-6:high",     # s1: 0 + 0 = 0 -> blocked
        ]),
    # ---------------------------------------------------------------- block3 (starter 0)
    # Same left-over hands, seat 0 starts.  Credits in order seat 0 (tie with
    # seat 1, clockwise from the starter), seat 1, seat 2: seat 0: 14 -> 15, 295 +
    # 15 = 310 > 305: rejected, score stays; seat 1: 15, accepted -> 15; seat 2:
    # 0 (no event).  Nobody reaches 305; the round is a tie.
    "block3_s0": dict(
        players=3, starter=0,
        hands=[["3-3", "1-6", "0-3", "1-2", "2-5"], ["1-1", "2-2", "3-6", "3-5", "0-5"],
               ["4-4", "6-6", "0-1", "1-3", "0-4"]],
        boneyard=["2-6", "0-2", "2-3", "1-4", "2-4", "3-4", "0-6", "4-6", "5-6", "5-5", "0-0",
                  "4-5", "1-5"],
        hands_left=[["3-3"], ["1-1", "2-2"], ["4-4", "6-6"]],
        open_values=[0, 5],
        moves=[
            "1-6",              # s0: 1 + 6 = 7
            "3-6@1-6:high",     # s1: 1 + 3 = 4
            "0-1@1-6:low",      # s2: 0 + 3 = 3
            "0-3@0-1:low",      # s0: 3 + 3 = 6
            "3-5@0-3:high",     # s1: 5 + 3 = 8
            "1-3@3-6:low",      # s2: 5 + 1 = 6
            "1-2@1-3:low",      # s0: 5 + 2 = 7
            "0-5@3-5:high",     # s1: 0 + 2 = 2
            "0-4@0-5:low",      # s2: 4 + 2 = 6
            "2-5@1-2:high",     # s0: 4 + 5 = 9
            "draw",             # s1 holds 1-1 2-2; open values 4, 5: no fit, draws 2-6
            "draw",             # ... 0-2
            "draw",             # ... 2-3
            "draw",             # ... 1-4, which fits
            "1-4@0-4:high",     # s1: 1 + 5 = 6
            "draw",             # s2 holds 4-4 6-6; open values 1, 5: no fit, draws 2-4
            "draw",             # ... 3-4
            "draw",             # ... 0-6
            "draw",             # ... 4-6
            "draw",             # ... 5-6, which fits
            "5-6@2-5:high",     # s2: 1 + 6 = 7
            "draw",             # s0 holds 3-3; open values 1, 6: no fit, draws 5-5
            "draw",             # ... 0-0
            "draw",             # ... 4-5
            "draw",             # ... 1-5 (the last tile), which fits
            "1-5@1-4:low",      # s0: 5 + 6 = 11
            "2-6@5-6:high",     # s1: 5 + 2 = 7
            "2-4@2-6:low",      # s2: 5 + 4 = 9
            "5-5@1-5:high",     # s0: 10 + 4 = 14
            "pass",             # s1 holds 0-2 1-1 2-2 2-3; open values 4, 5: pass
            "3-4@2-4:high",     # s2: 10 + 3 = 13
            "4-5@5-5:lineB",    # s0: 4 + 3 = 7
            "2-3@3-4:low",      # s1: 4 + 2 = 6
            "4-6@4-5:low",      # s2: 6 + 2 = 8
            "pass",             # s0 holds 0-0 3-3; open values 2, 5, 6: pass
            "0-2@2-3:low",      # s1: 6 + 0 = 6
            "0-6@4-6:high",     # s2: 0 + 0 = 0
            "0-0@0-2:low",      # s0: 0 + 0 (0-0 with lineB open) = 0 -> blocked
        ]),
}

EXAMPLE_POSITION = {
    "pairs: partner hand rounded separately; one event": "pairs4",
    "pairs: whole event rejected when the net overshoots": "pairs4",
    "pairs: exact hit wins": "pairs4",
    "three players: opponents' hands combined then rounded once": "three",
    "pairs: net may be negative": "negative",
    "pairs: lighter hands credited against larger opponents only": "block4",
    "tie order from the starter; first exact hit ends the round": "block3_s1",
    "a rejected credit does not stop the next one": "block3_s0",
}


def test_every_example_has_a_position():
    names = [c["name"] for c in EX["domino_events"] + EX["blocked_rounds"]]
    assert sorted(names) == sorted(EXAMPLE_POSITION)


def _parity_values(hands):
    """Values shown on an odd number of the non-doubles in `hands` (see the note above
    POSITIONS: such hands cannot all be left over at a block of a 28-tile round)."""
    odd = set()
    for tile in (t for h in hands for t in h):
        a, b = (int(x) for x in tile.split("-"))
        if a != b:
            odd ^= {a}
            odd ^= {b}
    return sorted(odd)


def _left_hands_match(case, pos):
    """The designed left-over hands are the example's own; only a blocked example whose
    hands are impossible (parity, see above) has a substitute with its pip sums."""
    mine = pos["hands_left"]
    theirs = case["hands_left"]
    if "hand_sums" in case and _parity_values(theirs):
        assert [sum(map(pips, h)) for h in mine] == [sum(map(pips, h)) for h in theirs]
        assert _parity_values(mine) == []
    else:
        assert [sorted(h) for h in mine] == [sorted(h) for h in theirs]
    return mine


def test_blocked_example_hands_fail_the_parity_check():
    """The substitutes above are needed exactly for the 3 blocked examples (value 1 on one
    left-over non-double); the domino examples' hands are used as they are."""
    assert [_parity_values(c["hands_left"]) for c in EX["blocked_rounds"]] == \
        [[0, 1, 2, 3], [1, 2, 3, 4], [1, 2, 3, 4]]
    for c in EX["blocked_rounds"]:
        # the example itself is consistent: no left-over tile shows an open value
        shown = {int(x) for h in c["hands_left"] for t in h for x in t.split("-")}
        assert not shown & set(c["open_values"])
        assert [sum(map(pips, h)) for h in c["hands_left"]] == c["hand_sums"]


def _play_position(case, key):
    pos = POSITIONS[key]
    assert pos["players"] == case["players"]
    if "starter" in case:
        assert pos["starter"] == case["starter"]
    game = start(pos["players"], pos["hands"], pos["boneyard"], pos["starter"],
                 case["scores_before"])
    events = play(game, pos["moves"])
    # no event before the final action: scores_before holds until then
    assert all(ev == [] for ev in events[:-1])
    assert game.round_over
    left = _left_hands_match(case, pos)
    assert [sorted(str(t) for t in game.hand(s)) for s in range(pos["players"])] == \
        [sorted(h) for h in left]
    return game, events[-1]


@pytest.mark.parametrize("case", EX["domino_events"], ids=lambda c: c["name"])
def test_domino_example(case):
    key = EXAMPLE_POSITION[case["name"]]
    game, events = _play_position(case, key)
    n = case["players"]
    last = len(POSITIONS[key]["moves"]) - 1
    # the example's event, numbered as the engine numbers it (round 0, last action)
    expected = dict(case["event"], round=0, action=last)
    assert events == [expected]
    # the hand calculation of the example: P + O - D
    assert expected["raw"] == case["P"] + case["O"] - case["D"]
    # the parts as the engine gives them (the web's and the terminal's round end), each from
    # the example, the pips added up here from its hands left (RULES §6.3: the partner's apart)
    pips = [sum(int(a) + int(b) for a, b in (t.split("-") for t in h)) for h in case["hands_left"]]
    partner = (case["seat"] + 2) % 4 if n == 4 else None
    assert game.current.domino_parts() == {
        "seat": case["seat"], "placement": case["P"],
        "opponents_pips": sum(pips[s] for s in range(n) if s not in (case["seat"], partner)), "opponents": case["O"],
        "partner_pips": None if partner is None else pips[partner], "partner": case["D"]}
    assert game.end_sum == case["placement_end_sum"]
    seat = case["seat"]
    assert game.current.actions[-1]["seat"] == seat
    assert game.hand(seat) == []
    assert expected["side"] == side_of(n, seat)
    assert game.scores == case["event"]["scores"]
    assert game.winner == case["winner"]
    assert game.game_over == (case["winner"] is not None)
    assert game.round_ends() == [{"end": "domino", "seat": seat}]
    assert game.legal_moves == []
    if not game.game_over:
        # RULES §2.5: the seat that emptied its hand starts the next round
        assert game.next_starter() == seat
        game.next_round()
        assert game.current.starter == seat and game.to_move == seat
        assert game.scores == case["event"]["scores"]


@pytest.mark.parametrize("case", EX["blocked_rounds"], ids=lambda c: c["name"])
def test_blocked_example(case):
    key = EXAMPLE_POSITION[case["name"]]
    game, events = _play_position(case, key)
    n = case["players"]
    assert [game.current.core.hand_pips(s) for s in range(n)] == case["hand_sums"]
    # blocked (RULES §5.4): boneyard empty and no left-over tile fits an open port
    assert game.boneyard == []
    open_values = {port_value(str(p)) for p in game.open_ports()}
    pos = POSITIONS[key]
    exact = pos["hands_left"] == case["hands_left"]
    assert sorted(open_values) == (case["open_values"] if exact else pos["open_values"])
    for s in range(n):
        for t in game.hand(s):
            assert not {t.lo, t.hi} & open_values
    # the credits in the example's order, zero credits making no event
    assert [[e["seat"], e["raw"]] for e in events] == \
        [c for c in case["credits_in_order"] if c[1]][:len(events)]
    assert events == case["events"]
    assert game.scores == (case["events"][-1]["scores"] if case["events"] else case["scores_before"])
    assert game.round_ends() == [{"end": "blocked", "winner": case["round_winner_side"]}]
    assert game.current.domino_parts() is None
    assert game.winner == case["game_winner"]
    assert game.game_over == (case["game_winner"] is not None)
    assert game.legal_moves == []
    if not game.game_over:
        # RULES §2.5: after a blocked round the starter is drawn again
        assert game.next_starter() is None


@pytest.mark.parametrize("name", sorted(EXAMPLE_POSITION), ids=str)
def test_positions_replay_in_the_reference(name):
    """The designed deals and moves, checked by the independent reference too:
    every action legal, the same final events as the example."""
    case = next(c for c in EX["domino_events"] + EX["blocked_rounds"] if c["name"] == name)
    pos = POSITIONS[EXAMPLE_POSITION[name]]
    st = R.RoundState(pos["players"], pos["hands"], pos["boneyard"], pos["starter"],
                      case["scores_before"])
    for text in pos["moves"]:
        seat = st.turn
        if text == "draw":
            action = {"seat": seat, "draw": st.boneyard_left()[0]}
        elif text == "pass":
            action = {"seat": seat, "pass": True}
        else:
            tile, _, at = text.partition("@")
            action = {"seat": seat, "play": tile, **({"at": at} if at else {})}
        assert action in st.legal_actions()
        st.apply(action)
    expected = case["events"] if "events" in case else [
        dict(case["event"], round=0, action=len(pos["moves"]) - 1)]
    assert st.events == expected
    assert st.over and st.winner == case.get("game_winner", case.get("winner"))


# ================================================================ tables

def _tiles_with_pips(total, exclude):
    """Some distinct tiles (not in `exclude`) whose pips add up to `total`."""
    pool = sorted((t for t in TILES if t not in exclude), key=pips, reverse=True)

    def search(i, left):
        if left == 0:
            return []
        for j in range(i, len(pool)):
            if pips(pool[j]) <= left:
                rest = search(j + 1, left - pips(pool[j]))
                if rest is not None:
                    return [pool[j]] + rest
        return None

    found = search(0, total)
    assert found is not None and sum(map(pips, found)) == total
    return found


@pytest.mark.parametrize("total,rounded", sorted((int(k), v) for k, v in EX["round_to_nearest_5"].items()))
def test_round_to_nearest_5_through_domino(total, rounded):
    """O of RULES §6.3 is the opponents' pips rounded to the nearest 5.
    Probe on the core round directly (a partial deal, which Game rejects):
    2 players, seat 0 holds only 1-1 and opens with it (end sum 2: P = 0), so
    its hand is empty at once; seat 1 holds tiles of `total` pips (0-0 for 0).
    The domino event is then exactly round5(total)."""
    opp = _tiles_with_pips(total, {"1-1"}) or ["0-0"]
    core = _core.CoreRound(2, [[Tile.parse("1-1").index], [Tile.parse(t).index for t in opp]],
                           [], 0, [0, 0])
    core.place(Tile.parse("1-1").index, -1, -1)
    # (kind, seat, side, end_sum, raw, accepted)
    assert core.last_events() == [("domino", 0, 0, 2, rounded, True)]
    assert core.scores == [rounded, 0]
    assert core.status == "domino"


@pytest.mark.parametrize("raw,display", sorted((int(k), v) for k, v in EX["raw_to_display"].items()))
def test_raw_to_display(raw, display):
    assert raw_to_display(raw) == display
    # the same through a game's display scores (scores set on the core, as above)
    pos = POSITIONS["three"]
    game = start(3, pos["hands"], pos["boneyard"], 0, [raw, 0, 5])
    assert game.display_scores == [display, 0, 1]
