"""More rules with an engine test of their own (the rules audit of shared/spec, 2026):
D2 block on a draw, the round end "won", a partners-only smallest hand, 2-player
scoring, free openings, the drawn starter after a block and the D6 round limit.

Every expected number is worked out by hand in the comments from RULES.md and
RECORD.md, never read from the engine.  Positions that need no full deal are
built on the core directly (as test_examples.test_round_to_nearest_5_through_domino
does): a RoundLog around a CoreRound with the given hands, boneyard and scores.
"""
import pytest

from fiveup_solver import _core
from fiveup_solver.errors import FiveUpError
from fiveup_solver.game import Game, RoundLog
from fiveup_solver.notation import ALL_TILES, Move, Tile
from fiveup_solver.record import replay

try:
    from .test_examples import POSITIONS, play, start
except ImportError:  # tests/ is not a package: pytest puts tests/ on sys.path
    from test_examples import POSITIONS, play, start

TILES = [str(t) for t in ALL_TILES]


def partial(players, hands, boneyard, starter, scores, *, seed=0, max_rounds=1000):
    """A game whose current round is the given (partial) deal, on the core directly."""
    hands_t = [[Tile.parse(t) for t in h] for h in hands]
    bone_t = [Tile.parse(t) for t in boneyard]
    game = Game(players=players, seed=seed, deal=False, max_rounds=max_rounds)
    core = _core.CoreRound(players, [[t.index for t in h] for h in hands_t],
                           [t.index for t in bone_t], starter, list(scores))
    game.rounds.append(RoundLog(starter, hands_t, bone_t, core, scores_before=tuple(scores)))
    assert game.to_move == starter and game.scores == list(scores)
    return game


def full_deal(*starts, players):
    """5-tile hands beginning with the given tiles, filled up from the unused tiles in
    set order, and the rest as the boneyard (set order)."""
    free = [t for t in TILES if all(t not in s for s in starts)]
    hands = []
    for s in starts:
        h = list(s)
        while len(h) < 5:
            h.append(free.pop(0))
        hands.append(h)
    assert len(hands) == players
    return hands, free


def dicts(events):
    return [e.to_dict() for e in events]


def block_event(seat, side, raw, scores, accepted=True):
    return {"round": 0, "action": None, "kind": "block", "seat": seat, "side": side,
            "end_sum": None, "raw": raw, "accepted": accepted, "scores": scores}


# ------------------------------------------------------------------ a. D2 on a draw

def test_d2_a_round_blocks_right_after_the_last_tile_is_drawn_without_a_pass():
    """RULES §5.4, D2: the round ends the moment the boneyard is empty and no seat can
    place, also right after a draw. Catches an engine that checks the block only after
    placements (or after a full round of passes) and so records a pass for seat 1."""
    # 2 players. Seat 0 opens 1-1: open 1-1:lineA/lineB (value 1), end sum 2 x 1 = 2: no
    # credit. Seat 1 (4-4 5-6) shows no 1: it must draw; the boneyard's only tile 5-5 shows
    # no 1 either. Now the boneyard is empty, seat 0 holds 6-6 and seat 1 4-4 5-6 5-5:
    # nobody can place -> blocked at once, no pass.
    g = partial(2, [["1-1", "6-6"], ["4-4", "5-6"]], ["5-5"], 0, [0, 0])
    assert play(g, ["1-1"]) == [[]]
    assert g.legal_moves == [Move.draw()]
    events = dicts(g.push(Move.draw()))
    # hand sums: seat 0 12, seat 1 8 + 11 + 10 = 29. Seat 0 (lighter): 29 - 12 = 17 -> 15;
    # seat 1 has no larger opponent: 0, no event (RULES §6.5)
    assert events == [block_event(0, 0, 15, [15, 0])]
    assert g.current.core.status == "blocked"
    assert g.round_over and not g.game_over and g.legal_moves == [] and g.to_move is None
    assert g.current.actions == [{"seat": 0, "play": "1-1"}, {"seat": 1, "draw": "5-5"}]
    assert g.round_ends() == [{"end": "blocked", "winner": 0}]
    assert g.scores == [15, 0]


def test_a_seat_that_draws_the_last_tile_passes_while_another_seat_can_place():
    """RULES §5.3 (the counterpart of D2): the same draw, but seat 0 still holds 1-6, which
    fits a 1: the round goes on and seat 1 passes (a recorded action). Catches an engine
    that blocks as soon as the boneyard is empty and the drawing seat cannot place."""
    g = partial(2, [["1-1", "1-6", "6-6"], ["4-4", "5-6"]], ["5-5"], 0, [0, 0])
    play(g, ["1-1", "draw"])
    assert not g.round_over and g.to_move == 1
    assert g.legal_moves == [Move.pass_()]
    assert play(g, ["pass"]) == [[]]
    assert g.to_move == 0 and not g.round_over
    assert g.current.actions[-1] == {"seat": 1, "pass": True}


# ------------------------------------------------------------------ b. round end "won"

WON_DEAL = full_deal(["1-2"], ["1-1"], ["1-4"], ["2-6"], players=4)


def test_a_placement_in_mid_round_that_reaches_305_ends_the_round_as_won():
    """RECORD.md: round end "won" with the seat (not the side) that placed. 4 players,
    side 1 at 295; seat 3 wins with its first tile, 4 tiles still in hand. Catches an
    engine that writes "domino"/"blocked", the side (1) instead of the seat (3), or
    plays on."""
    hands, bone = WON_DEAL
    g = start(4, hands, bone, 0, [0, 295])
    events = play(g, [
        "1-2",            # s0: 1 + 2 = 3
        "1-1@1-2:low",    # s1: 1-1's lineB open: 2 + 2 x 1 = 4
        "1-4@1-1:lineB",  # s2: 1-1 both line ports connected (0): 2 + 4 = 6
        "2-6@1-2:high",   # s3: 6 + 4 = 10 -> side 1: 295 + 10 = 305, won
    ])
    assert events[:3] == [[], [], []]
    placement = {"round": 0, "action": 3, "kind": "placement", "seat": 3, "side": 1,
                 "end_sum": 10, "raw": 10, "accepted": True, "scores": [0, 305]}
    assert events[3] == [placement]
    assert len(g.hand(3)) == 4
    assert g.game_over and g.winner == 1 and g.legal_moves == []
    assert g.round_ends() == [{"end": "won", "seat": 3}]
    # the replay object of RECORD.md
    assert g.result() == {"winner": 1, "scores": [0, 305], "rounds": [{"end": "won", "seat": 3}],
                          "events": [placement]}


def test_replay_of_a_record_won_in_mid_round_lists_won_with_the_seat():
    """RECORD.md replay output: the last round of a record whose last action is a
    placement that leaves the seat's hand non-empty can only have ended by the game
    being won, so replay lists {"end": "won", "seat": s} with that seat. Checked on a
    seeded 4-player game (seed 0, first legal move each time: it ends in its 9th round
    with a mid-round win of seat 3), with everything expected derived from the record
    text. Catches a replay that labels it "domino"/"blocked", gives the side, or leaves
    the game without a winner."""
    g = Game(players=4, seed=0)
    while not g.game_over:
        if g.round_over:
            g.next_round()
        g.push(g.legal_moves[0])
    record = g.to_record()
    last = record["rounds"][-1]
    act = last["actions"][-1]
    seat = act["seat"]
    assert "play" in act
    mine = [a for a in last["actions"] if a["seat"] == seat]
    held = 5 + sum("draw" in a for a in mine) - sum("play" in a for a in mine)
    assert held > 0                            # not the hand's last tile: no domino
    assert seat in (2, 3)                      # seat and side differ (side = seat % 2)
    out = replay(record)
    assert out["rounds"][-1] == {"end": "won", "seat": seat}
    assert len(out["rounds"]) == len(record["rounds"])
    assert all(r["end"] in ("domino", "blocked") for r in out["rounds"][:-1])
    assert out["winner"] == seat % 2 and out["scores"][seat % 2] == 305
    ev = out["events"][-1]
    assert (ev["kind"], ev["seat"], ev["side"], ev["accepted"], ev["action"], ev["round"]) == \
        ("placement", seat, seat % 2, True, len(last["actions"]) - 1, len(record["rounds"]) - 1)
    assert ev["scores"][seat % 2] == 305 and ev["raw"] == ev["end_sum"]


# ------------------------------------------------------------------ c. partners-only smallest hand

def test_a_smallest_hand_sum_shared_only_by_partners_wins_the_round_for_their_side():
    """RULES §6.6: the smallest sum shared only by partners gives their side the round;
    §6.5 credits both of them against the opponents only. Catches an engine that treats
    every tie of the smallest sum as a tied round (winner null)."""
    # 4 players, seat 0 starts with 5-5: lineA/lineB open, 2 x 5 = 10 -> +10 for side 0.
    # Nobody else shows a 5 and the boneyard is empty: blocked at once.
    g = partial(4, [["5-5", "0-3"], ["4-4"], ["1-2"], ["6-6"]], [], 0, [0, 0])
    events = dicts(g.push(Move.parse("5-5")))
    # sums: seat 0 3, seat 1 8, seat 2 3, seat 3 12; order: seats 0 and 2 (tied, clockwise
    # from the starter 0), then 1, then 3.
    # seat 0: opponents 1 and 3: (8 - 3) + (12 - 3) = 14 -> 15; seat 2 the same -> 15;
    # seat 1: opponents 0 and 2 are lighter: 0; seat 3: 0.
    assert events == [
        {"round": 0, "action": 0, "kind": "placement", "seat": 0, "side": 0, "end_sum": 10,
         "raw": 10, "accepted": True, "scores": [10, 0]},
        block_event(0, 0, 15, [25, 0]),
        block_event(2, 0, 15, [40, 0]),
    ]
    assert g.current.core.status == "blocked"
    assert g.round_ends() == [{"end": "blocked", "winner": 0}]
    assert g.winner is None and g.next_starter() is None


# ------------------------------------------------------------------ d. 2 players by hand

def test_domino_with_two_players_is_p_plus_o_without_d():
    """RULES §6.3 with 2 players: P + O, O = the one opponent's pips rounded, no D; one
    event (D3). Catches P applied on its own, a D taken from some 'partner' seat, or O
    left unrounded."""
    g = partial(2, [["1-4", "1-2"], ["4-4", "6-6", "0-6"]], [], 0, [0, 0])
    events = play(g, [
        "1-4",            # s0: 1 + 4 = 5 -> +5
        "4-4@1-4:high",   # s1: 1 + 2 x 4 = 9
        "1-2@1-4:low",    # s0, last tile: 2 + 8 = 10 -> P = 10
    ])
    # O = 6-6 + 0-6 = 12 + 6 = 18 -> 20 (remainder 3 rounds up); D = 0; net 10 + 20 = 30
    assert events[0] == [{"round": 0, "action": 0, "kind": "placement", "seat": 0, "side": 0,
                          "end_sum": 5, "raw": 5, "accepted": True, "scores": [5, 0]}]
    assert events[1] == []
    assert events[2] == [{"round": 0, "action": 2, "kind": "domino", "seat": 0, "side": 0,
                          "end_sum": 10, "raw": 30, "accepted": True, "scores": [35, 0]}]
    assert g.round_ends() == [{"end": "domino", "seat": 0}] and g.next_starter() == 0


def test_blocked_round_with_two_players_credits_the_lighter_hand_only():
    """RULES §6.5 with 2 players: the lighter seat gets the rounded difference, the heavier
    nothing (no negative credit); §6.6: the lighter seat's side wins the round. Here the
    heavier seat is the starter, so an engine crediting the starter or in seat order
    instead of by hand sum fails."""
    # seat 1 starts with 5-5 (10 -> +10 for seat 1); seat 0 holds 3-4 6-6, no 5: blocked.
    g = partial(2, [["3-4", "6-6"], ["5-5", "1-2"]], [], 1, [0, 0])
    events = dicts(g.push(Move.parse("5-5")))
    # sums: seat 0 7 + 12 = 19, seat 1 3. Seat 1: 19 - 3 = 16 -> 15; seat 0: 0
    assert events == [
        {"round": 0, "action": 0, "kind": "placement", "seat": 1, "side": 1, "end_sum": 10,
         "raw": 10, "accepted": True, "scores": [0, 10]},
        block_event(1, 1, 15, [0, 25]),
    ]
    assert g.round_ends() == [{"end": "blocked", "winner": 1}]


# ------------------------------------------------------------------ e. free openings

def test_every_tile_in_the_starters_hand_is_a_legal_opening():
    """RULES §3.1, §2.4: the starter opens with any tile: 5 opening moves, no draw or
    pass. Catches a 'highest double starts' rule or an opening restricted to doubles."""
    hand = ["0-0", "1-4", "2-6", "3-3", "5-6"]
    hands, bone = full_deal(hand, [], players=2)
    g = start(2, hands, bone, 0, [0, 0])
    assert sorted(str(m) for m in g.legal_moves) == hand
    # each opening: a non-double opens low and high, a double lineA and lineB (§3.5);
    # end sums 0, 5, 8, 6, 11 (a lone double counts 2 x its value once, §4.1)
    expected = {"0-0": (0, ["0-0:lineA", "0-0:lineB"]), "1-4": (5, ["1-4:high", "1-4:low"]),
                "2-6": (8, ["2-6:high", "2-6:low"]), "3-3": (6, ["3-3:lineA", "3-3:lineB"]),
                "5-6": (11, ["5-6:high", "5-6:low"])}
    for tile, (end_sum, ports) in expected.items():
        h = g.copy()
        h.push(Move.parse(tile))
        assert (h.end_sum, sorted(str(p) for p in h.open_ports())) == (end_sum, ports)
        assert h.to_move == 1 and len(h.hand(0)) == 4
    # and in dealt games of every size, whatever the hand
    for players in (2, 3, 4):
        for seed in range(30):
            d = Game(players=players, seed=seed)
            s = d.current.starter
            assert sorted(str(m) for m in d.legal_moves) == sorted(str(t) for t in d.hand(s))


# ------------------------------------------------------------------ f. starter after a block

BLOCKED = {  # a round blocked by the opening 5-5 (no other 5 anywhere), starter 0
    2: [["5-5", "1-2"], ["3-4", "6-6"]],
    3: [["5-5", "1-2"], ["3-4"], ["6-6"]],
    4: [["5-5", "0-3"], ["4-4"], ["1-2"], ["6-6"]],
}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_after_a_blocked_round_the_next_starter_is_drawn_uniformly(players):
    """RULES §2.5, D1: after a block the starter is drawn again, whatever the result.
    The blocked round here always has starter 0 and round winner seat 0's side; over 300
    seeds every seat must start the next round at least 60 % of its fair share. Catches
    a next starter fixed by the block (its starter, its winner, the next seat)."""
    counts = [0] * players
    for seed in range(300):
        g = partial(players, BLOCKED[players], [], 0, [0] * (2 if players == 4 else players),
                    seed=seed)
        g.push(Move.parse("5-5"))
        assert g.current.core.status == "blocked"
        assert g.round_ends()[0]["winner"] == 0
        assert g.next_starter() is None
        g.next_round()
        assert g.to_move == g.current.starter
        counts[g.current.starter] += 1
    assert sum(counts) == 300
    assert min(counts) >= 0.6 * 300 / players, counts


def test_after_a_blocked_round_any_seat_may_be_given_as_starter():
    """start_round after a block takes any starter (none is fixed, §2.5), unlike after a
    domino, where only the emptying seat may start."""
    for starter in range(4):
        g = partial(4, BLOCKED[4], [], 0, [0, 0])
        g.push(Move.parse("5-5"))
        hands, bone = full_deal([], [], [], [], players=4)
        g.start_round([[Tile.parse(t) for t in h] for h in hands], [Tile.parse(t) for t in bone], starter)
        assert g.to_move == starter


# ------------------------------------------------------------------ g. D6 round limit

def _three_round_game(max_rounds):
    """POSITIONS["three"] of test_examples as round 0 from 0:0: seat 0 empties its hand;
    end sum 7 (P = 0), O = 4 + 3 = 7 -> 5: scores [5, 0, 0], no winner."""
    pos = POSITIONS["three"]
    g = Game(players=3, seed=4, deal=False, max_rounds=max_rounds)
    g.start_round([[Tile.parse(t) for t in h] for h in pos["hands"]],
                  [Tile.parse(t) for t in pos["boneyard"]], pos["starter"])
    play(g, pos["moves"])
    assert g.round_ends() == [{"end": "domino", "seat": 0}] and g.scores == [5, 0, 0]
    return g


def test_d6_the_game_stops_unfinished_at_the_round_limit():
    """RULES D6: with max_rounds 1 the game stops after its first round, unwon:
    unfinished, no winner, no next round. Catches a limit that is off by one or
    ignored, or a game reported won/over at the limit."""
    g = _three_round_game(1)
    assert g.unfinished and not g.game_over and g.winner is None
    assert g.round_over and g.legal_moves == [] and g.to_move is None
    with pytest.raises(FiveUpError):
        g.next_round()
    assert len(g.rounds) == 1
    # the same game with a limit of 2 is not unfinished after round 0 and deals round 1
    g = _three_round_game(2)
    assert not g.unfinished
    g.next_round()
    assert g.current.starter == 0          # seat 0 emptied its hand (§2.5)
    assert not g.unfinished


def test_a_record_stopped_in_mid_round_replays_with_an_unfinished_last_round():
    """RECORD.md: an unfinished last round (the record stops before it ended) is listed
    as {"end": "unfinished"}; the game has no winner. Catches a replay that refuses such a
    record, drops the round or labels it otherwise."""
    g = _three_round_game(2)
    g.next_round()
    g.push(g.legal_moves[0])        # the opening of round 1, then the game is stopped
    record = g.to_record()
    out = replay(record)
    assert out["rounds"] == [{"end": "domino", "seat": 0}, {"end": "unfinished"}]
    assert out["winner"] is None
    # round 0's only event: seat 0's domino, 5 raw (see _three_round_game); round 1's
    # opening adds an event only if its end sum is a positive multiple of 5
    assert out["events"][0] == {"round": 0, "action": 12, "kind": "domino", "seat": 0, "side": 0,
                                "end_sum": 7, "raw": 5, "accepted": True, "scores": [5, 0, 0]}
    opening = record["rounds"][1]["actions"][0]["play"]
    a, b = (int(x) for x in opening.split("-"))
    s = 2 * a if a == b else a + b
    assert out["events"][1:] == ([{"round": 1, "action": 0, "kind": "placement", "seat": 0, "side": 0,
                                   "end_sum": s, "raw": s, "accepted": True, "scores": [5 + s, 0, 0]}]
                                 if s and s % 5 == 0 else [])


def _same_by_the_rules(a: Move, b: Move) -> bool:
    """RULES §3.4 and §4.1 by hand: two placements of one tile leave the same game when
    they go on one double's two branch ports (equivalent), on a lone opening double's two
    line ports (both connect its line; the double counts once while a line port is open),
    or on two non-double ends of one value (each counts its value, §4.1). A double's port
    and a non-double end differ: an open branch counts 0, a non-double end its value."""
    if a.tile != b.tile or a.at is None or b.at is None:
        return False
    da, db = (m.at.tile.lo == m.at.tile.hi for m in (a, b))
    if da and db:
        kinds = {m.at.name[:4] for m in (a, b)}
        return a.at.tile == b.at.tile and len(kinds) == 1
    return not da and not db and a.at.value == b.at.value


@pytest.mark.parametrize("players", [2, 3, 4])
def test_moves_that_are_one_choice_are_those_the_rules_make_equal(players):
    """Move.same_as, which the move lists and hints use to say "the same as", against
    the rules' reading above, over every pair of legal placements in seeded games."""
    import random
    seen = {True: 0, False: 0}
    for seed in range(12):
        g = Game(players=players, seed=seed)
        rng = random.Random(seed)
        while not (g.game_over or g.unfinished) and len(g.rounds) <= 3:
            if g.round_over:
                g.next_round()
                continue
            legal = g.legal_moves
            plays = [m for m in legal if m.kind == "play"]
            for i, a in enumerate(plays):
                for b in plays[i + 1:]:
                    want = _same_by_the_rules(a, b)
                    assert a.same_as(b) == b.same_as(a) == want, (str(a), str(b))
                    if a.tile == b.tile:
                        seen[want] += 1
            g.push(rng.choice(legal))
    assert seen[True] >= 5 and seen[False] >= 5, seen


def test_same_as_refuses_what_is_not_a_move_in_one_line():
    """Move.same_as and notation.same_as_earlier with a malformed play or a list of
    other things: one typed error each (an AttributeError before)."""
    from fiveup_solver.errors import OptionError, ParseError
    from fiveup_solver.notation import same_as_earlier
    with pytest.raises(ParseError, match="a play is of a Tile"):
        Move("play", Tile.parse("1-2"), "x").same_as(Move.parse("1-2@2-2:lineA"))
    with pytest.raises(OptionError, match="same_as_earlier takes a list of Moves, not one holding 'x'"):
        same_as_earlier(["x"])
    with pytest.raises(OptionError, match="same_as_earlier takes a list of Moves, not 5"):
        same_as_earlier(5)
    assert Move.parse("1-2@2-2:lineA").same_as("x") is False


# ------------------------------------------------------------------ the core refuses what the rules forbid
# (a mutation review: Game.push checks a turn first, so deleting the core's own refusal of a
# pass while tiles are left failed no test; the deal sampler replays histories through these
# calls directly and relies on them)
def _round_after_opening_1_4(hand1):
    """2 players, seat 0 opens 1-4: ends 1 and 4, end sum 5, +5 (RULES §4); seat 1 to move."""
    idx = [Tile.parse(t).index for t in ("1-4", "0-1", "0-2", "0-3", "0-4")]
    hand1 = [Tile.parse(t).index for t in hand1]
    bone = [t for t in range(28) if t not in idx and t not in hand1]         # 18 tiles, in tile order
    core = _core.CoreRound(2, [idx, hand1], bone, 0, [0, 0])
    core.place(Tile.parse("1-4").index, -1, -1)
    assert core.scores == [5, 0] and core.to_move == 1 and core.boneyard_size == 18
    return core


def test_the_core_refuses_a_draw_while_a_tile_can_be_placed():
    # seat 1's 4-4 fits the end showing 4: it must place (RULES §5.1), not draw
    core = _round_after_opening_1_4(["4-4", "2-2", "3-3", "5-5", "6-6"])
    with pytest.raises(_core.CoreError, match="cannot draw while holding a playable tile"):
        core.draw()
    assert core.to_move == 1 and core.boneyard_size == 18 and len(core.hand(1)) == 5


def test_the_core_refuses_a_pass_while_the_boneyard_has_tiles():
    # no 1 and no 4 in seat 1's hand, 18 tiles left: it must draw (RULES §5.2); a pass is only
    # for an empty boneyard (§5.3)
    core = _round_after_opening_1_4(["0-0", "2-2", "3-3", "5-5", "6-6"])
    with pytest.raises(_core.CoreError, match="cannot pass while the boneyard has tiles"):
        core.pass_turn()
    assert core.to_move == 1 and core.boneyard_size == 18
    # the legal action: the boneyard's first tile, 0-5 (the lowest tile not dealt)
    assert ALL_TILES[core.draw()] == Tile(0, 5)


def test_a_blocked_rounds_equal_hand_sums_are_not_heavier_than_each_other():
    """RULES §6.5 credits each seat the differences to its heavier opponents' hands; an
    opponent with an equal sum is not heavier (its difference would be 0, so only the
    explanation could show the fault). 3 players, sums 10, 20, 10, seat 2 started: seat 2
    and seat 0 tie, clockwise from the starter (D5) seat 2 first; each has only seat 1 above
    it, 20 - 10 = 10; seat 1 has nobody above it."""
    parts = _core.block_parts([10, 20, 10], 2)
    assert [(seat, pips, list(above), total, credit) for seat, pips, above, total, credit in parts] == [
        (2, 10, [1], 10, 10), (0, 10, [1], 10, 10), (1, 20, [], 0, 0)]
