"""Tests of the pure-Python reference (tests/reference.py) on its own."""
import copy
import json
import random
from pathlib import Path

import pytest

try:
    from . import reference as R
except ImportError:  # tests/ is not a package: pytest puts tests/ on sys.path
    import reference as R

EXAMPLES = json.loads((Path(__file__).parent / "data" / "seed_examples.json").read_text())


# ------------------------------------------------------------ seed: boards

def _check_board_step(board, step):
    assert board.end_sum == step["end_sum"]
    assert R.end_sum(board) == step["end_sum"]
    assert R.placement_credit(board.end_sum) == step["raw"]
    assert sorted(map(tuple, step["scoring_ends"])) == board.scoring_ends()
    assert sorted(step["open_ports"]) == board.open_ports()


@pytest.mark.parametrize("case", EXAMPLES["boards"], ids=lambda c: c["name"])
def test_seed_board(case):
    board = R.Board()
    for step in case["steps"]:
        assert board.place(step["play"], step["at"]) == step["end_sum"]
        _check_board_step(board, step)


@pytest.mark.parametrize("case", EXAMPLES["boards"], ids=lambda c: c["name"])
def test_seed_board_through_roundstate(case):
    """The same steps played as a 2-player round (seat 0 starts, seats alternate)."""
    steps = case["steps"]
    tiles = [s["play"] for s in steps]
    hands = [tiles[0::2], tiles[1::2]]
    spare = [t for t in R.ALL_TILES if t not in tiles]
    for h in hands:  # pad to 5 so no hand empties early (avoid tiles of the board's values)
        while len(h) < 5:
            h.append(spare.pop())
    st = R.RoundState(2, hands, spare, 0, [0, 0])
    for i, step in enumerate(steps):
        action = {"seat": i % 2, "play": step["play"]}
        if step["at"] is not None:
            action["at"] = step["at"]
        assert action in st.legal_actions()
        st.apply(action)
        _check_board_step(st.board, step)
        assert st.placements[-1]["end_sum"] == step["end_sum"]
        assert st.open_ports() == sorted(step["open_ports"])
    placement_raw = [e["raw"] for e in st.events if e["kind"] == "placement"]
    assert placement_raw == [s["raw"] for s in steps if s["raw"]]


def test_seed_board_concrete_ports():
    """Steps of the first seed board: the 4-4 spinner gives branchA/branchB as
    two different actions for the same tile."""
    board = R.Board()
    for step in EXAMPLES["boards"][0]["steps"][:4]:
        board.place(step["play"], step["at"])
    # open: 1-1:lineB (1), 3-4:low (3), 4-4:branchA (4), 4-4:branchB (4)
    assert board.ports_for("2-4") == ["4-4:branchA", "4-4:branchB"]
    assert board.ports_for("1-3") == ["1-1:lineB", "3-4:low"]
    assert board.ports_for("4-4") == ["4-4:branchA", "4-4:branchB"]
    assert board.ports_for("5-6") == []


# ------------------------------------------------------------ seed: scoring

@pytest.mark.parametrize("case", EXAMPLES["domino_events"], ids=lambda c: c["name"])
def test_seed_domino_event(case):
    n, seat = case["players"], case["seat"]
    assert R.domino_event_value(n, seat, case["placement_end_sum"], case["hands_left"]) == (
        case["P"], case["O"], case["D"])
    scores = list(case["scores_before"])
    ev, winner = R.settle_domino(n, seat, case["placement_end_sum"], case["hands_left"], scores)
    assert ev == case["event"]
    assert scores == case["event"]["scores"]
    assert winner == case["winner"]


@pytest.mark.parametrize("case", EXAMPLES["blocked_rounds"], ids=lambda c: c["name"])
def test_seed_blocked_round(case):
    n, starter, hands = case["players"], case["starter"], case["hands_left"]
    assert [R.hand_pips(h) for h in hands] == case["hand_sums"]
    assert R.block_credits(n, hands, starter) == [tuple(c) for c in case["credits_in_order"]]
    scores = list(case["scores_before"])
    events, round_winner, game_winner = R.settle_block(n, hands, starter, scores)
    assert events == case["events"]
    assert round_winner == case["round_winner_side"]
    assert game_winner == case["game_winner"]
    assert scores == (events[-1]["scores"] if events else case["scores_before"])


def test_seed_round_to_5():
    for x, y in EXAMPLES["round_to_nearest_5"].items():
        assert R.round_to_5(int(x)) == y


def test_seed_raw_to_display():
    for raw, disp in EXAMPLES["raw_to_display"].items():
        assert int(raw) // 5 == disp


# ------------------------------------------------------------ hand-calculated

def test_block_credits_two_players():
    # sums: seat0 = 0-1 + 1-2 = 4, seat1 = 6-6 + 0-1... use 6-6 (12) + 0-1 (1) = 13
    # seat0: 13-4 = 9 -> 10; seat1: nobody larger -> 0.  Order: lightest first.
    assert R.block_credits(2, [["0-1", "1-2"], ["6-6", "0-1"]], 1) == [(0, 10), (1, 0)]
    # equal sums (4 and 4), starter 1: seat 1 first, then seat 0; both credit 0
    assert R.block_credits(2, [["0-4"], ["1-3"]], 1) == [(1, 0), (0, 0)]
    assert R.block_round_winner(2, [["0-4"], ["1-3"]]) is None


def test_block_pairs_partners_share_smallest():
    # 4 players: sums [3, 9, 3, 20]; smallest shared only by partners 0 and 2 -> side 0.
    # seat0 (3): opponents 1 (9), 3 (20): 6 + 17 = 23 -> 25; seat2 same -> 25;
    # seat1 (9): opponent 3 is its partner, opponents 0,2 smaller -> 0; seat3: 0.
    # starter 2: tie between seats 0 and 2 ordered 2, 0 (clockwise from 2).
    hands = [["1-2"], ["4-5"], ["0-3"], ["4-6", "4-6"]]
    assert R.block_credits(4, hands, 2) == [(2, 25), (0, 25), (1, 0), (3, 0)]
    assert R.block_round_winner(4, hands) == 0


def test_domino_two_players():
    # seat 1 empties its hand with end sum 15 (P = 15); seat 0 holds 6-6 + 5-6 = 23 -> O = 25
    assert R.domino_event_value(2, 1, 15, [["6-6", "5-6"], []]) == (15, 25, 0)
    # end sum 12: P = 0 (not a multiple of 5); opponent 2-3 = 5 -> O = 5
    assert R.domino_event_value(2, 0, 12, [[], ["2-3"]]) == (0, 5, 0)


def test_blocked_after_opening():
    # 2 players, empty boneyard.  Seat 0 opens 0-1 (ends 0 and 1: sum 1, no credit).
    # Seat 0 keeps 6-6 (12), seat 1 holds 2-3, 5-5 (15); no 0 or 1 anywhere -> blocked.
    # Block: seat0 (12) vs 15 -> 3 -> 5; seat1 0.  Round winner side 0.
    st = R.RoundState(2, [["0-1", "6-6"], ["2-3", "5-5"]], [], 0, [0, 0])
    st.apply({"seat": 0, "play": "0-1"})
    assert st.over and st.end == {"end": "blocked", "winner": 0}
    assert st.events == [{"round": 0, "action": None, "kind": "block", "seat": 0, "side": 0,
                          "end_sum": None, "raw": 5, "accepted": True, "scores": [5, 0]}]
    assert st.legal_actions() == []
    with pytest.raises(R.ReferenceRuleError):
        st.apply({"seat": 1, "pass": True})


def test_pass_then_blocked():
    # Seat 0 opens 0-1 (sum 1).  Seat 1 (4-4, 5-5) cannot place, boneyard empty,
    # seat 0 can still place 1-2 -> seat 1 must pass (a draw is illegal).
    # Seat 0 plays 1-2 at 0-1:high: ends 0 + 2 = 2.  Now seat 0 holds 6-6 (12),
    # seat 1 holds 18: blocked.  Credits: seat0 18-12 = 6 -> 5; seat1 0.
    st = R.RoundState(2, [["0-1", "1-2", "6-6"], ["4-4", "5-5"]], [], 0, [0, 0])
    st.apply({"seat": 0, "play": "0-1"})
    assert st.legal_actions() == [{"seat": 1, "pass": True}]
    with pytest.raises(R.ReferenceRuleError, match="empty boneyard"):
        st.apply({"seat": 1, "draw": "3-3"})
    st.apply({"seat": 1, "pass": True})
    assert st.legal_actions() == [{"seat": 0, "play": "1-2", "at": "0-1:high"}]
    st.apply({"seat": 0, "play": "1-2", "at": "0-1:high"})
    assert st.end_sum == 2
    assert st.end == {"end": "blocked", "winner": 0}
    assert [(e["kind"], e["seat"], e["raw"], e["scores"]) for e in st.events] == [
        ("block", 0, 5, [5, 0])]


def test_placement_win_exact_and_overshoot():
    # Seat 0 at 300: opening 1-4 (sum 5) -> 305 exactly: game won, round ends "won".
    st = R.RoundState(2, [["1-4", "6-6"], ["2-3"]], ["0-0"], 0, [300, 0])
    st.apply({"seat": 0, "play": "1-4"})
    assert st.end == {"end": "won", "seat": 0} and st.winner == 0 and st.scores == [305, 0]
    # Seat 0 at 301: 5 would make 306 -> rejected, play goes on.
    st = R.RoundState(2, [["1-4", "6-6"], ["2-3"]], ["0-0"], 0, [301, 0])
    st.apply({"seat": 0, "play": "1-4"})
    assert not st.over and st.scores == [301, 0]
    assert st.events[-1]["accepted"] is False and st.events[-1]["scores"] == [301, 0]


def _tiles_except(*groups):
    used = {t for g in groups for t in g}
    return [t for t in R.ALL_TILES if t not in used]


# Round 0: the first seed board played by 2 seats.  Seat 0 plays steps 1,3,5,7,9
# and empties its hand with 1-3; seat 1 plays steps 2,4,6,8 and keeps 6-6.
R0_HANDS = [["1-4", "4-4", "1-2", "5-5", "1-3"], ["1-1", "3-4", "1-5", "0-5", "6-6"]]
R0_ACTIONS = [
    {"seat": 0, "play": "1-4"},                        # sum 5  -> +5   [5, 0]
    {"seat": 1, "play": "1-1", "at": "1-4:low"},       # sum 6  -> 0
    {"seat": 0, "play": "4-4", "at": "1-4:high"},      # sum 10 -> +10  [15, 0]
    {"seat": 1, "play": "3-4", "at": "4-4:lineB"},     # sum 5  -> +5   [15, 5]
    {"seat": 0, "play": "1-2", "at": "1-1:lineB"},     # sum 5  -> +5   [20, 5]
    {"seat": 1, "play": "1-5", "at": "1-1:branchA"},   # sum 10 -> +10  [20, 15]
    {"seat": 0, "play": "5-5", "at": "1-5:high"},      # sum 15 -> +15  [35, 15]
    {"seat": 1, "play": "0-5", "at": "5-5:lineB"},     # sum 5  -> +5   [35, 20]
    {"seat": 0, "play": "1-3", "at": "1-1:branchB"},   # sum 8, last tile: P=0,
]                                                      # O = 6-6 = 12 -> 10: [45, 20]
# Round 1 (seat 0 must start: it emptied its hand).  Seat 0 opens 6-6 (sum 12);
# seat 1 has no 6: draws 0-0, 1-4 (unplayable), 5-6 (playable) and must place it.
R1_HANDS = [["6-6", "0-1", "0-2", "0-3", "0-4"], ["1-1", "1-2", "2-2", "1-3", "2-3"]]
R1_BONE_HEAD = ["0-0", "1-4", "5-6", "3-5"]
R1_ACTIONS = [
    {"seat": 0, "play": "6-6"},                        # sum 12 -> 0
    {"seat": 1, "draw": "0-0"},
    {"seat": 1, "draw": "1-4"},
    {"seat": 1, "draw": "5-6"},
    {"seat": 1, "play": "5-6", "at": "6-6:lineA"},     # 12 (lineB open) + 5 = 17 -> 0
]


def _hand_record():
    return {
        "format": "fiveup-record/1", "players": 2, "seats": ["A", "B"],
        "rounds": [
            {"starter": 0, "hands": copy.deepcopy(R0_HANDS),
             "boneyard": _tiles_except(*R0_HANDS), "actions": copy.deepcopy(R0_ACTIONS)},
            {"starter": 0, "hands": copy.deepcopy(R1_HANDS),
             "boneyard": R1_BONE_HEAD + _tiles_except(R1_BONE_HEAD, *R1_HANDS),
             "actions": copy.deepcopy(R1_ACTIONS)},
        ],
    }


def test_hand_record_replay():
    out = R.replay(_hand_record())
    assert out["winner"] is None
    assert out["scores"] == [45, 20]
    assert out["rounds"] == [{"end": "domino", "seat": 0}, {"end": "unfinished"}]
    summary = [(e["round"], e["action"], e["kind"], e["seat"], e["end_sum"], e["raw"],
                e["accepted"], e["scores"]) for e in out["events"]]
    assert summary == [
        (0, 0, "placement", 0, 5, 5, True, [5, 0]),
        (0, 2, "placement", 0, 10, 10, True, [15, 0]),
        (0, 3, "placement", 1, 5, 5, True, [15, 5]),
        (0, 4, "placement", 0, 5, 5, True, [20, 5]),
        (0, 5, "placement", 1, 10, 10, True, [20, 15]),
        (0, 6, "placement", 0, 15, 15, True, [35, 15]),
        (0, 7, "placement", 1, 5, 5, True, [35, 20]),
        (0, 8, "domino", 0, 8, 10, True, [45, 20]),
    ]
    assert [(p["round"], p["action"], p["seat"], p["tile"], p["end_sum"]) for p in out["placements"]] == [
        (0, 0, 0, "1-4", 5), (0, 1, 1, "1-1", 6), (0, 2, 0, "4-4", 10), (0, 3, 1, "3-4", 5),
        (0, 4, 0, "1-2", 5), (0, 5, 1, "1-5", 10), (0, 6, 0, "5-5", 15), (0, 7, 1, "0-5", 5),
        (0, 8, 0, "1-3", 8), (1, 0, 0, "6-6", 12), (1, 4, 1, "5-6", 17)]


def test_hand_record_accepts_reversed_tiles():
    rec = _hand_record()
    rec["rounds"][0]["actions"][1] = {"seat": 1, "play": "1-1", "at": "4-1:low"}
    rec["rounds"][0]["actions"][3] = {"seat": 1, "play": "4-3", "at": "4-4:lineB"}
    assert R.replay(rec)["scores"] == [45, 20]


def _bad(mutate, match=None):
    rec = _hand_record()
    mutate(rec)
    with pytest.raises(R.ReferenceRuleError, match=match):
        R.replay(rec)


def test_hand_record_illegal_actions():
    r1 = lambda rec: rec["rounds"][1]["actions"]  # noqa: E731
    # wrong seat
    _bad(lambda rec: r1(rec).__setitem__(1, {"seat": 0, "draw": "0-0"}), "wrong seat")
    # tile not in hand
    _bad(lambda rec: r1(rec).__setitem__(1, {"seat": 1, "play": "0-6", "at": "6-6:lineA"}),
         "not in seat 1's hand")
    # a draw that is not the boneyard's next tile
    _bad(lambda rec: r1(rec).__setitem__(1, {"seat": 1, "draw": "1-4"}), "next tile is 0-0")
    # pass while the boneyard is non-empty
    _bad(lambda rec: r1(rec).__setitem__(2, {"seat": 1, "pass": True}), "boneyard is not empty")
    # drawing again after a playable draw (5-6) instead of placing it
    _bad(lambda rec: r1(rec).__setitem__(4, {"seat": 1, "draw": "3-5"}), "able to place")
    # illegal port: 5-6 does not fit 6-6:branchA (branches closed while the line is open)
    _bad(lambda rec: r1(rec).__setitem__(4, {"seat": 1, "play": "5-6", "at": "6-6:branchA"}),
         "cannot be placed")
    # drawing while able to place (round 0, seat 1 holds 1-1 for the open 1 end)
    _bad(lambda rec: rec["rounds"][0]["actions"].__setitem__(1, {"seat": 1, "draw": "0-0"}),
         "able to place")
    # pass while able to place
    _bad(lambda rec: rec["rounds"][0]["actions"].__setitem__(1, {"seat": 1, "pass": True}),
         "able to place")
    # opening by a non-starter, opening with 'at', non-opening without 'at'
    _bad(lambda rec: rec["rounds"][0].__setitem__("starter", 1), "round 0 action 0")
    _bad(lambda rec: rec["rounds"][0]["actions"][0].__setitem__("at", "1-4:low"))
    _bad(lambda rec: rec["rounds"][0]["actions"][1].pop("at"))
    # an action after the round ended (domino)
    _bad(lambda rec: rec["rounds"][0]["actions"].append({"seat": 1, "play": "6-6", "at": "5-5:branchA"}),
         "after the round ended")
    # round 1 must be started by seat 0, who emptied its hand
    _bad(lambda rec: rec["rounds"][1].__setitem__("starter", 1), "starter must be seat 0")
    # a non-last round may not stop before it ended
    _bad(lambda rec: rec["rounds"][0]["actions"].pop(), "stops before it ended")
    # the deal must be exactly the 28 tiles
    _bad(lambda rec: rec["rounds"][1]["boneyard"].pop())


def test_hand_record_perft():
    rec = _hand_record()
    # Depth 0 is 1; an opening with 5 tiles in hand has 5 concrete first turns.
    assert R.perft(rec, 0, 0, 0) == 1
    assert R.perft(rec, 0, 0, 1) == 5
    assert R.perft(rec, 1, 0, 1) == 5
    # Round 1 before action 1: seat 1 draws 0-0, 1-4, 5-6 (forced, same turn) and
    # places 5-6 at 6-6:lineA or 6-6:lineB -> 2.  Mid-draw positions give the same.
    assert R.perft(rec, 1, 1, 1) == 2
    assert R.perft(rec, 1, 2, 1) == 2
    assert R.perft(rec, 1, 4, 1) == 2
    # Depth 2: either way the open ends are 6 (the other line port) and 5-6:low (5);
    # seat 0 (0-1..0-4) cannot place, draws 3-5 which fits only 5-6:low -> 1 each = 2.
    assert R.perft(rec, 1, 1, 2) == 2
    # Depth 3: open ends 6 and 3-5:low (3); seat 1 holds 1-1 1-2 2-2 1-3 2-3 0-0 1-4:
    # only 1-3 and 2-3 fit the 3 -> 2 each = 4.
    assert R.perft(rec, 1, 1, 3) == 4
    # Round 0 before its last action: seat 0 holds only 1-3; open ports
    # 0-5:low 1-1:branchB 1-2:high 3-4:low 4-4:branchA/B 5-5:branchA/B ->
    # 1-3 fits 1-1:branchB and 3-4:low -> 2; depth 2 counts 0 (the round ends).
    assert R.perft(rec, 0, 8, 1) == 2
    assert R.perft(rec, 0, 8, 2) == 0


# ------------------------------------------------------------ random games

def _random_record(rng, players, max_rounds=60):
    """Play a random multi-round game with RoundState and write its record."""
    rec = {"format": "fiveup-record/1", "players": players, "rounds": []}
    scores, prev = [0] * R.n_sides(players), None
    states = []
    for r in range(max_rounds):
        hands, bone, starter = R.deal(rng, players)
        if prev is not None and prev.end["end"] == "domino":
            starter = prev.end["seat"]
        st = R.RoundState(players, hands, bone, starter, scores, r)
        rnd = {"starter": starter, "hands": copy.deepcopy(hands), "boneyard": list(bone), "actions": []}
        while not st.over:
            a = rng.choice(st.legal_actions())
            rnd["actions"].append(a)
            st.apply(a)
        rec["rounds"].append(rnd)
        states.append(st)
        scores, prev = st.scores, st
        if st.winner is not None:
            break
    return rec, states


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_records_replay(players):
    rng = random.Random(1000 + players)
    ends = set()
    for _ in range(4):
        rec, states = _random_record(rng, players)
        out = R.replay(rec)
        assert out["scores"] == states[-1].scores
        assert out["winner"] == states[-1].winner
        assert out["rounds"] == [s.end for s in states]
        assert out["events"] == [e for s in states for e in s.events]
        ends |= {s.end["end"] for s in states}
        for ev in out["events"]:
            assert set(ev) == {"round", "action", "kind", "seat", "side", "end_sum", "raw",
                               "accepted", "scores"}
            assert ev["raw"] != 0 or ev["kind"] == "domino"
        # invariants: tiles conserved, placement end sums as recorded
        for s, rnd in zip(states, rec["rounds"]):
            on_board = set(s.board.tiles)
            in_hands = {t for h in s.hands for t in h}
            assert len(on_board) + len(in_hands) + len(s.boneyard_left()) == 28
        # an unfinished last round (stopped one action before its end)
        cut = copy.deepcopy(rec)
        cut["rounds"][-1]["actions"].pop()
        assert R.replay(cut)["rounds"][-1] == {"end": "unfinished"}
    assert "domino" in ends


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_blocked_rounds(players):
    """Blocked rounds are rare (~2%): collect some and check them end to end."""
    rng = random.Random(50 + players)
    found = 0
    while found < 5:
        rec, states = _random_record(rng, players, max_rounds=1)
        st = states[0]
        if st.end["end"] != "blocked":
            continue
        found += 1
        out = R.replay(rec)
        assert out["rounds"] == [st.end]
        # the round ended the moment it was blocked: boneyard empty, nobody can place
        assert not st.boneyard_left() and not any(st.can_place(q) for q in range(players))
        scores = [0] * R.n_sides(players)
        for e in out["events"]:
            if e["kind"] != "block":
                R._event(scores, players, 0, e["action"], e["kind"], e["seat"], e["end_sum"], e["raw"])
        block_events, round_winner, _ = R.settle_block(players, st.hands, st.starter, scores)
        assert [e for e in out["events"] if e["kind"] == "block"] == block_events
        assert st.end["winner"] == round_winner
        assert out["scores"] == scores
        # the last recorded action is never a pass made after the block (D2)
        assert "pass" not in rec["rounds"][0]["actions"][-1]


def test_random_records_corruptions_raise():
    rng = random.Random(7)
    n_checked = 0
    for players in (2, 3, 4):
        for _ in range(5):
            rec, _ = _random_record(rng, players, max_rounds=3)
            for _ in range(10):
                r = rng.randrange(len(rec["rounds"]))
                acts = rec["rounds"][r]["actions"]
                i = rng.randrange(len(acts))
                st = R.state_at(rec, r, i)
                legal = st.legal_actions()
                a = acts[i]
                candidates = [
                    {"seat": (a["seat"] + 1) % players, **{k: v for k, v in a.items() if k != "seat"}},
                    {"seat": a["seat"], "pass": True},
                    {"seat": a["seat"], "draw": rng.choice(R.ALL_TILES)},
                    {"seat": a["seat"], "play": rng.choice(R.ALL_TILES),
                     "at": rng.choice(st.open_ports() or ["0-1:low"])},
                ]
                for bad in candidates:
                    if bad in legal:
                        continue
                    mutated = copy.deepcopy(rec)
                    mutated["rounds"][r]["actions"][i] = bad
                    with pytest.raises(R.ReferenceRuleError):
                        R.replay(mutated)
                    n_checked += 1
    assert n_checked > 100


def test_perft_matches_enumeration():
    """perft by turns == brute-force enumeration of action sequences grouped into turns."""
    rng = random.Random(3)
    for players in (2, 3, 4):
        rec, _ = _random_record(rng, players, max_rounds=1)
        acts = rec["rounds"][0]["actions"]
        for i in (0, len(acts) // 2, max(0, len(acts) - 2)):
            st = R.state_at(rec, 0, i)

            def seqs(s, turns):
                if turns == 0:
                    return 1
                if s.over:
                    return 0
                total = 0
                for a in s.legal_actions():
                    c = s.copy()
                    c.apply(a)
                    total += seqs(c, turns - (0 if "draw" in a else 1))
                return total

            for d in range(3):
                assert R.perft(rec, 0, i, d) == seqs(st, d)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_round(players):
    rng = random.Random(players)
    for _ in range(50):
        scores = R.random_round(rng, players)
        assert len(scores) == R.n_sides(players)
        assert all(s % 5 == 0 and s <= 305 for s in scores)
