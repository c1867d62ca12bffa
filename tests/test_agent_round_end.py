"""A bot author's review, F9 and F10:

- F9: an agent is called only at its own decisions, so it never saw how a round ended
  (the last actions, the hands shown for scoring). ``Observation.previous_round`` is now
  the seat's own view of the last round's end;
- F10: ``policy_agent`` spent most of a decision re-reading the observation's notation
  (``Tile.parse``/``Port.parse`` of every history action); the texts are looked up now.
  Its speed is a benchmark (benchmarks/test_bench_agents.py); here, that the lookups
  read exactly what the parser read.
"""
from __future__ import annotations

import dataclasses
import json
import pickle
import random

import pytest

from fiveup_solver import Game
from fiveup_solver.bots import register_bot
from fiveup_solver.errors import InconsistentObservationError, ParseError
from fiveup_solver.game import Observation, check_observation
from fiveup_solver.notation import ALL_TILES, Port, Tile
from fiveup_solver.selfplay import play_game

SEEN: list = []


def _watcher(obs, rng):
    """An agent that keeps every observation it is given."""
    SEEN.append(obs)
    return rng.choice(obs.legal_moves)


def _played_round_end(game, r, seat):
    """What round r's end showed seat, from the played game itself: its actions as the
    seat saw them (RECORD.md's view), the hands left and the scores after it."""
    view = game.to_record(view=seat)["rounds"][r]
    log = game.rounds[r]
    return {"history": view["actions"], "revealed": view["revealed"],
            "scores": list(log.core.scores), "end": log.end()["end"]}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_agent_in_a_game_sees_every_earlier_round_end_through_previous_round(players):
    register_bot("round_end_watcher", _watcher)
    SEEN.clear()
    bots = ["round_end_watcher"] + ["greedy"] * (players - 1)
    game = play_game(players, 40 + players, bots, bot_seed=3)
    assert len(game.rounds) >= 3, "a game of several rounds"
    rounds_seen = set()
    for obs in SEEN:
        assert obs.seat == 0
        if obs.round == 0:
            assert obs.previous_round is None
            continue
        prev = obs.previous_round
        rounds_seen.add(obs.round)
        assert prev.round == obs.round - 1 and prev.seat == 0 and prev.previous_round is None
        assert prev.to_move is None and prev.legal_moves == ()
        want = _played_round_end(game, prev.round, 0)
        assert prev.to_dict()["history"] == want["history"]
        assert [[str(t) for t in h] for h in prev.revealed] == want["revealed"]
        assert list(prev.scores) == want["scores"] == list(obs.scores_before)
        # RULES §6: a round that goes on to another ends by a domino or a block
        assert prev.status in ("domino", "blocked") and want["end"] == prev.status
        # the seat's own hand at the end is its revealed hand, and the hand sizes match
        assert prev.hand == prev.revealed[0]
        assert list(prev.hand_sizes) == [len(h) for h in prev.revealed]
    # the watcher decided in every round it was dealt a move in (all but perhaps the last)
    assert rounds_seen >= set(range(1, len(game.rounds) - 1))


def test_previous_round_is_the_same_object_within_a_round_and_other_seats_draws_stay_hidden():
    game = Game(players=3, seed=11)
    rng = random.Random(5)
    while len(game.rounds) < 2:
        if game.round_over:
            game.next_round()
            continue
        game.push(rng.choice(game.legal_moves))
    first = {s: game.observation(s).previous_round for s in range(3)}
    _ = game.push(game.legal_moves[0])
    for s in range(3):
        again = game.observation(s).previous_round
        assert again is first[s]            # made once per seat, not at every decision
        for a in again.history:
            if "draw" in a and a["seat"] != s:
                assert a["draw"] is None
        # the boneyard's tiles at the round's end are in no field of the view
        text = json.dumps(again.to_dict())
        for t in game.rounds[0].core.boneyard_left:
            assert f'"{ALL_TILES[t]}"' not in text


def _random_round_end(game, rng):
    while not game.round_over:
        game.push(rng.choice(game.legal_moves))


def test_undoing_into_an_ended_round_and_ending_it_otherwise_gives_the_new_end():
    """Game.pop across a round's start undoes the previous round's last action: a view
    of that round's end made before must not be given for the round ended another way.
    Checked against the same game rebuilt by pickle (which keeps no views)."""
    changed = 0
    for seed in range(30):
        game = Game(players=2, seed=seed)
        rng = random.Random(seed)
        _random_round_end(game, rng)
        if game.game_over:
            continue
        game.next_round()
        before = game.observation(0).previous_round
        for _ in range(1 + min(4, len(game.rounds[0].moves) - 1)):
            game.pop()                      # the deal of round 1, then round 0's last actions
        _random_round_end(game, random.Random(seed + 1000))
        if game.game_over:
            continue
        game.next_round()
        after = game.observation(0).previous_round
        fresh = pickle.loads(pickle.dumps(game)).observation(0).previous_round
        assert after == fresh
        changed += after != before
    assert changed >= 5, changed


def test_previous_round_goes_through_to_dict_json_and_from_dict():
    game = play_game(4, 8, ["greedy"] * 4, bot_seed=1, max_rounds=2)
    game2 = Game(players=4, seed=8)
    # a position in round 1 of the same deals
    for r in range(2):
        log = game.rounds[r]
        if r:
            game2.next_round()
        for s, m in log.moves[: (len(log.moves) if r == 0 else 3)]:
            game2.push(m, seat=s)
    obs = game2.observation(game2.to_move)
    assert obs.previous_round is not None
    d = json.loads(json.dumps(obs.to_dict()))
    assert d["previous_round"]["round"] == 0 and d["previous_round"]["previous_round"] is None
    back = Observation.from_dict(d)
    assert back == obs and back.previous_round == obs.previous_round
    # an older dict without the field reads as before
    old = dict(d)
    del old["previous_round"]
    assert Observation.from_dict(old).previous_round is None
    # a fault inside it is named as being there
    bad = json.loads(json.dumps(d))
    bad["previous_round"]["boneyard_size"] = 99
    with pytest.raises(InconsistentObservationError, match=r"previous_round: .*boneyard_size"):
        Observation.from_dict(bad)
    bad = dict(d, previous_round=[1, 2])
    with pytest.raises(InconsistentObservationError, match="previous_round must be an observation's dict"):
        Observation.from_dict(bad)


def _two_round_observation():
    game = Game(players=2, seed=7)
    while not game.round_over:
        game.push(game.legal_moves[0])
    game.next_round()
    return game.observation(game.to_move)


@pytest.mark.parametrize("change, words", [
    (lambda o: {"previous_round": "round 0"}, "previous_round must be an Observation"),
    (lambda o: {"previous_round": dataclasses.replace(o.previous_round, round=5)}, "view of round 0"),
    (lambda o: {"previous_round": dataclasses.replace(o.previous_round, seat=1 - o.seat,
                                                      side=1 - o.previous_round.side)}, "view of round 0"),
    (lambda o: {"previous_round": dataclasses.replace(o.previous_round, status="playing")}, "a round that is over"),
    (lambda o: {"previous_round": dataclasses.replace(o.previous_round, previous_round=o.previous_round)},
     "own previous_round must be None"),
    (lambda o: {"scores_before": tuple(x + 5 for x in o.scores_before),
                "scores": tuple(x + 5 for x in o.scores)}, "previous_round ends at scores"),
])
def test_a_hand_built_previous_round_that_cannot_be_is_refused_naming_it(change, words):
    obs = _two_round_observation()
    check_observation(obs)
    with pytest.raises(InconsistentObservationError, match=words):
        check_observation(dataclasses.replace(obs, **change(obs)))


def test_the_notation_lookups_read_what_the_parser_reads():
    """Tile.parse and Port.parse look their texts up; every text either accepts gives the
    tile and port it names (pips in either order), and others are refused as before."""
    for a in range(7):
        for b in range(7):
            tile = Tile.parse(f"{a}-{b}")
            assert (tile.lo, tile.hi) == (min(a, b), max(a, b)) and tile is ALL_TILES[tile.index]
            for name in tile.port_names:
                port = Port.parse(f"{a}-{b}:{name}")
                assert port == Port(tile, name) and str(port) == f"{tile}:{name}"
    for text in ("7-1", "1-", "11-2", "1_2", "", " 1-2", "1-2 ", "a-b", "1-2-3"):
        with pytest.raises(ParseError, match="bad tile"):
            Tile.parse(text)
    for text in ("1-2:upA", "1-1:low", "1-2", "1-2:low:x", "9-1:low", 12):
        with pytest.raises(ParseError, match="bad (port|tile)"):
            Port.parse(text)
    with pytest.raises(ParseError, match="expected a string"):
        Tile.parse(12)
    with pytest.raises(ParseError):
        Tile.parse(["1-2"])             # unhashable: refused, not a TypeError
