"""OpenSpiel-style conformance: random simulations with invariants checked at
every position, record round trips, perft against the independent reference,
and information hiding of observations and seat views.

Expected numbers come from the spec, from hand reasoning, or from
``tests/reference.py`` (written from the spec alone) -- never from the engine.
"""
import copy
import json
import pickle
import random
import re

import pytest

from fiveup_solver import ALL_TILES, Game, Move, OptionError, Tile
from fiveup_solver.record import (
    check_record, dumps_record, game_at, game_from_record, load_record, parse_record_text,
    replay, save_record,
)

try:
    from . import reference as R
except ImportError:  # tests/ is not a package: pytest puts tests/ on sys.path
    import reference as R

TARGET = 305  # RULES §4.3
TILE_RE = re.compile(r"\b[0-6]-[0-6]\b")


# ---------------------------------------------------------------- helpers

def snapshot(game):
    """Everything observable about a game, as plain data."""
    core = game.current.core
    return {
        "legal": [str(m) for m in game.legal_moves],
        "scores": list(game.scores),
        "display": list(game.display_scores),
        "hands": [[str(t) for t in game.hand(s)] for s in range(game.players)],
        "board": [str(t) for t in game.board],
        "boneyard": [str(t) for t in game.boneyard],
        "open": [str(p) for p in game.open_ports()],
        "ends": [(str(t), v) for t, v in game.scoring_ends()],
        "end_sum": game.end_sum,
        "to_move": game.to_move,
        "round_over": game.round_over,
        "game_over": game.game_over,
        "winner": game.winner,
        "events": [e.to_dict() for e in game.events],
        # a game started mid-race has no record (RECORD.md's games start from 0): its moves instead
        "record": game.to_record() if not any(game.rounds[0].scores_before) else
        [[str(m) for _, m in r.moves] for r in game.rounds],
        "open_ends": core.open_ends,
        "double_states": core.double_states,
        "canonical": core.canonical_moves(),
    }


def random_walk(players, seed, max_rounds=5):
    """Play uniformly random legal moves; yields (game, rng) before every action
    of every round (the game is mutated in place between yields)."""
    rng = random.Random(seed)
    game = Game(players=players, seed=seed, max_rounds=max_rounds)
    while True:
        if game.round_over:
            if game.game_over or len(game.rounds) >= max_rounds:
                yield game, rng  # the final position as well
                return
            game.next_round()
        yield game, rng
        game.push(rng.choice(game.legal_moves))
        assert len(game.current.actions) <= 200, "a round that does not end"


def same_move(popped, pushed, drawn):
    """pop() returns the undone move; a draw comes back naming the tile drawn."""
    if pushed.kind == "draw":
        return popped == Move.draw(drawn)
    return popped == pushed


def fitting(game, seat):
    """Tiles of `seat` that fit an open port (RULES §3.1), computed from the
    open ports' names alone."""
    if not game.board:
        return list(game.hand(seat))
    values = {p.tile.hi if p.name == "high" else p.tile.lo for p in game.open_ports()}
    return [t for t in game.hand(seat) if t.lo in values or t.hi in values]


WALKS = [(players, seed) for players in (2, 3, 4) for seed in range(12)]
FULL_GAME_SEEDS = (0, 5, 10)  # these walks play whole games (to 305, where scores are tight)


# ---------------------------------------------------------------- per-position invariants

@pytest.mark.parametrize("players,seed", WALKS, ids=[f"{p}p-s{s}" for p, s in WALKS])
def test_invariants_along_random_games(players, seed):
    positions = 0
    max_rounds = 1000 if seed in FULL_GAME_SEEDS else 5
    for game, rng in random_walk(players, 4242 + 100 * players + seed, max_rounds):
        positions += 1
        core = game.current.core

        # tile conservation: hands + board + boneyard are the 28 distinct tiles
        tiles = [t for s in range(players) for t in game.hand(s)] + game.board + game.boneyard
        assert len(tiles) == 28 and set(tiles) == set(ALL_TILES)

        # no score ever above the exact target, not even transiently
        assert all(s <= TARGET for s in game.scores)
        assert all(s <= TARGET for e in game.events for s in e.scores)
        # a rejected event is one that would have gone above 305 (RULES §6.1)
        assert all(e.scores[e.side] + e.raw > TARGET for e in game.events if not e.accepted)

        # the port topology and the compact counts describe the same board
        assert core.topology_agrees()
        # end sum = sum of the counted scoring ends (RULES §4.1)
        assert game.end_sum == sum(v for _, v in game.scoring_ends())

        # canonical moves expand to exactly the concrete placements
        concrete = core.concrete_moves()
        canonical = core.canonical_moves()
        assert sum(core.multiplicity(m) for m in canonical) == len(concrete)
        assert len(canonical) <= len(concrete)
        assert all(core.multiplicity(m) >= 1 for m in canonical)
        kind = core.turn_kind()
        if kind == "place":
            assert len(game.legal_moves) == len(concrete) > 0
        elif kind in ("draw", "pass"):
            assert concrete == [] and canonical == []
            assert [m.kind for m in game.legal_moves] == [kind]
        else:
            assert game.round_over and game.legal_moves == []

        # RULES §5.4 / D2: blocked exactly when the boneyard is empty and no seat can place
        can_place = [bool(fitting(game, s)) for s in range(players)]
        blocked_now = not game.boneyard and not any(can_place) and bool(game.board)
        if not game.round_over:
            assert not blocked_now  # the round ends the moment it is blocked
        elif game.round_ends()[-1]["end"] == "blocked":
            assert blocked_now
        if kind == "pass":
            # a pass only while some other seat can still place
            assert not game.boneyard and any(can_place[s] for s in range(players) if s != game.to_move)
        if kind == "draw":
            assert game.boneyard and not can_place[game.to_move]

        if game.round_over:
            continue

        # push then pop restores everything, for every legal move; the seat to
        # move is shown the right end sum after each of its moves
        before = snapshot(game)
        obs = game.observation(game.to_move)
        assert list(obs.legal_moves) == game.legal_moves
        for m, shown in zip(game.legal_moves, obs.end_sums_after):
            n_events = len(game.events)
            drawn = game.boneyard[0] if m.kind == "draw" else None
            game.push(m)
            assert game.end_sum == shown
            assert len(game.current.actions) == len(before["record"]["rounds"][-1]["actions"]) + 1
            assert len(game.events) >= n_events
            assert same_move(game.pop(), m, drawn)
            assert snapshot(game) == before

        # pickled and deep-copied (replayed from its deals and actions): the same game, with
        # the same events, seats and settings, that undoes and plays on alike
        if rng.random() < 0.04:
            for back in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
                assert snapshot(back) == before and back.events == game.events
                assert (back.seed, back.seats, back.max_rounds) == (game.seed, game.seats, game.max_rounds)
                assert [r.scores_before for r in back.rounds] == [r.scores_before for r in game.rounds]
                m = rng.choice(back.legal_moves)
                drawn = back.boneyard[0] if m.kind == "draw" else None
                assert back.push(m) == game.push(m)
                assert snapshot(back) == snapshot(game)
                assert same_move(back.pop(), m, drawn)
                game.pop()

        # a copy evolves independently of the original (once in a while: it is slow)
        if rng.random() < 0.15:
            c = game.copy()
            moves = []
            while not c.round_over and len(moves) < 12:
                m = rng.choice(c.legal_moves)
                c.push(m)
                moves.append(m)
            assert snapshot(game) == before
            # ... and the original, pushed the same moves, becomes identical to it
            for m in moves:
                game.push(m)
            assert snapshot(game) == snapshot(c)
            for _ in moves:
                game.pop()
            assert snapshot(game) == before
            # the copy can be undone back to the original position too
            for _ in moves:
                c.pop()
            assert snapshot(c) == before
    assert positions > 20
    if max_rounds == 1000:
        assert game.game_over and max(game.scores) == TARGET


def test_pickled_game_keeps_a_race_started_mid_way():
    """A game started from given scores (analysis positions) pickles with them, ended
    rounds and all (the record format has no starting scores: the pickle keeps them)."""
    game = Game(players=4, seed=9, scores=[250, -15], starter=2, seats=list("abcd"), max_rounds=7)
    rng = random.Random(9)
    while not (game.game_over or game.unfinished):
        if game.round_over:
            game.next_round()
        game.push(rng.choice(game.legal_moves))
        if rng.random() < 0.1:
            back = pickle.loads(pickle.dumps(game))
            assert snapshot(back) == snapshot(game) and back.rounds[0].scores_before == (250, -15)
            assert back.result() == game.result() and repr(back) == repr(game)
    with pytest.raises(OptionError, match=r"a game started from scores \[250, -15\] has no fiveup-record/1"):
        game.to_record()
    with pytest.raises(OptionError, match="no round has been dealt"):
        Game(players=2, deal=False).to_record()
    with pytest.raises(OptionError, match="scores_kept_apart must be True or False, not 1"):
        game.to_record(scores_kept_apart=1)
    assert game.to_record(scores_kept_apart=True)["rounds"][0]["hands"] == [
        [str(t) for t in h] for h in game.rounds[0].hands]


# ---------------------------------------------------------------- record round trips

@pytest.mark.parametrize("players", [2, 3, 4])
def test_record_round_trips(players, tmp_path):
    checked = 0
    for seed in range(8):
        for game, rng in random_walk(players, 900 + 10 * players + seed, max_rounds=4):
            if not (game.round_over or rng.random() < 0.05):
                continue
            rec = game.to_record()
            # to_record -> game_from_record -> to_record is the identity
            again = game_from_record(copy.deepcopy(rec))
            assert again.to_record() == rec
            assert again.result() == game.result()
            assert replay(rec) == game.result()
            # JSON dump/load is the identity, in both the compact and the file form
            assert json.loads(json.dumps(rec)) == rec
            assert parse_record_text(dumps_record(rec)) == rec
            assert check_record(rec) == rec
            path = tmp_path / f"g{players}-{seed}-{checked}.json"
            save_record(rec, path)
            assert load_record(path) == rec
            assert game_from_record(load_record(path)).to_record() == rec
            # the reference reads the same record to the same result
            ref = R.replay(rec)
            assert {k: ref[k] for k in ("winner", "scores", "rounds", "events")} == game.result()
            # game_at: the position before an action of a round, as a prefix of the record
            r = rng.randrange(len(rec["rounds"]))
            i = rng.randrange(len(rec["rounds"][r]["actions"]) + 1)
            at = game_at(rec, r, i)
            prefix = copy.deepcopy(rec)
            del prefix["rounds"][r + 1:]
            del prefix["rounds"][r]["actions"][i:]
            at_rec = at.to_record()
            at_rec["seats"] = prefix["seats"] = None
            assert at_rec == prefix
            # seat views survive JSON and the structural check unchanged
            for s in range(players):
                view = game.to_record(view=s)
                assert json.loads(json.dumps(view)) == view
                assert check_record(view) == view
            checked += 1
    assert checked >= 10


# ---------------------------------------------------------------- information hiding

def _tile_strings(obj):
    """Every tile named anywhere in a JSON-like object (keys and values)."""
    found = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            found |= _tile_strings(k) | _tile_strings(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            found |= _tile_strings(v)
    elif isinstance(obj, str):
        found |= {str(Tile.parse(t)) for t in TILE_RE.findall(obj)}
    return found


@pytest.mark.parametrize("players", [2, 3, 4])
def test_observation_hides_other_hands_and_boneyard(players):
    checked = 0
    for seed in range(6):
        for game, rng in random_walk(players, 3100 + 10 * players + seed, max_rounds=3):
            bone_now = {str(t) for t in game.boneyard}
            for s in range(players):
                hidden = bone_now | {str(t) for o in range(players) if o != s for t in game.hand(o)}
                obs = game.observation(s)
                d = obs.to_dict()
                previous = d.pop("previous_round")
                if len(game.rounds) == 1:
                    assert previous is None
                else:
                    # the seat's view of the last round's end: the hands left are shown there,
                    # its boneyard's tiles stay hidden, and other seats' draws too
                    last = game.rounds[-2]
                    assert previous["round"] == len(game.rounds) - 2 and previous["to_move"] is None
                    assert previous["previous_round"] is None and previous["status"] != "playing"
                    assert previous["revealed"] == [[str(ALL_TILES[t]) for t in last.core.hand(o)]
                                                    for o in range(players)]
                    assert previous["history"] == list(last.history(s))
                    assert all(a["draw"] is None for a in previous["history"] if "draw" in a and a["seat"] != s)
                    assert not (_tile_strings(previous) & {str(ALL_TILES[t]) for t in last.core.boneyard_left})
                    assert previous["scores"] == list(last.core.scores) == d["scores_before"]
                if game.round_over:
                    # a round's end shows the hands left (RULES §6.5, RECORD.md's revealed): only
                    # the boneyard stays hidden, and the dict gives those hands exactly
                    assert d["revealed"] == [[str(t) for t in game.hand(o)] for o in range(players)]
                    hidden = bone_now
                else:
                    assert d["revealed"] is None
                assert d["hand"] == [str(t) for t in game.hand(s)]
                assert d["boneyard_size"] == len(bone_now)
                assert d["hand_sizes"] == [len(game.hand(o)) for o in range(players)]
                assert not (_tile_strings(d) & hidden), (s, _tile_strings(d) & hidden)
                assert not (_tile_strings([str(m) for m in obs.legal_moves]) & hidden)
                # other seats' draws are hidden in the history
                for a in d["history"]:
                    if "draw" in a and a["seat"] != s:
                        assert a["draw"] is None
                view = game.to_record(view=s)
                assert view["view"] == s
                for r, entry in enumerate(view["rounds"]):
                    assert entry["boneyard"] is None
                    assert [h is None for h in entry["hands"]] == [o != s for o in range(players)]
                    log = game.rounds[r]
                    if r == len(game.rounds) - 1 and not game.round_over:
                        secret = hidden
                        assert "revealed" not in entry
                    else:
                        # a finished round reveals the hands left (RECORD.md), never
                        # the tiles that stayed in the boneyard
                        secret = {str(ALL_TILES[t]) for t in log.core.boneyard_left}
                        assert entry["revealed"] == [[str(ALL_TILES[t]) for t in log.core.hand(o)]
                                                     for o in range(players)]
                    assert not (_tile_strings(entry) & secret)
                checked += 1
    assert checked > 500


# ---------------------------------------------------------------- perft

# Three fixed positions: a deal, a prefix of actions, and the perft counts of the
# position after the prefix (depth 1..6) and at the start of the round.  The
# counts were computed ONCE with the independent reference, via
#     tests/reference.py: perft_state(RoundState(players, hands, boneyard, starter, zeros), d)
# after applying `actions` with RoundState.apply, and written here as literals.
# (The deals are R.deal(random.Random(seed)) for seeds 101/202/303, followed by
# 6/8/9 random legal actions.)
PERFT_TABLE = [
    {"players": 2, "starter": 0,
     "hands": [["0-0", "4-5", "1-4", "1-2", "5-5"], ["4-6", "3-5", "2-2", "1-6", "0-2"]],
     "boneyard": ["0-3", "0-4", "4-4", "6-6", "0-5", "3-4", "2-4", "1-3", "1-1", "5-6", "2-5",
                  "3-6", "0-1", "2-3", "1-5", "2-6", "0-6", "3-3"],
     "actions": [{"seat": 0, "play": "1-2"}, {"seat": 1, "play": "1-6", "at": "1-2:low"},
                 {"seat": 0, "draw": "0-3"}, {"seat": 0, "draw": "0-4"}, {"seat": 0, "draw": "4-4"},
                 {"seat": 0, "draw": "6-6"}],
     "perft_start": [5, 11, 12, 19, 26, 49],
     "perft_after": [1, 3, 8, 19, 77, 136]},
    {"players": 3, "starter": 1,
     "hands": [["0-4", "6-6", "0-0", "5-5", "0-2"], ["1-3", "3-6", "1-4", "3-3", "1-1"],
               ["1-5", "0-3", "0-5", "1-2", "2-5"]],
     "boneyard": ["3-4", "2-6", "2-3", "4-5", "0-1", "5-6", "4-4", "0-6", "2-2", "2-4", "3-5",
                  "1-6", "4-6"],
     "actions": [{"seat": 1, "play": "1-3"}, {"seat": 2, "play": "1-2", "at": "1-3:low"},
                 {"seat": 0, "play": "0-2", "at": "1-2:high"}, {"seat": 1, "play": "3-3", "at": "1-3:high"},
                 {"seat": 2, "play": "0-3", "at": "3-3:lineB"}, {"seat": 0, "play": "0-0", "at": "0-3:low"},
                 {"seat": 1, "play": "3-6", "at": "3-3:branchB"}, {"seat": 2, "play": "0-5", "at": "0-2:low"}],
     "perft_start": [5, 12, 23, 42, 122, 260],
     "perft_after": [3, 3, 7, 15, 30, 49]},
    {"players": 4, "starter": 0,
     "hands": [["3-6", "5-5", "4-6", "1-5", "0-3"], ["2-3", "1-4", "0-0", "2-4", "3-5"],
               ["0-4", "6-6", "1-3", "2-6", "5-6"], ["2-2", "0-5", "1-6", "2-5", "4-4"]],
     "boneyard": ["1-2", "3-4", "3-3", "0-2", "0-6", "4-5", "1-1", "0-1"],
     "actions": [{"seat": 0, "play": "0-3"}, {"seat": 1, "play": "3-5", "at": "0-3:high"},
                 {"seat": 2, "play": "5-6", "at": "3-5:high"}, {"seat": 3, "play": "1-6", "at": "5-6:high"},
                 {"seat": 0, "play": "1-5", "at": "1-6:low"}, {"seat": 1, "play": "0-0", "at": "0-3:low"},
                 {"seat": 2, "play": "0-4", "at": "0-0:lineB"}, {"seat": 3, "play": "0-5", "at": "1-5:high"},
                 {"seat": 0, "play": "4-6", "at": "0-4:high"}],
     "perft_start": [5, 11, 30, 88, 235, 565],
     "perft_after": [3, 9, 30, 51, 198, 426]},
]


def _record(case):
    return {"format": "fiveup-record/1", "players": case["players"],
            "rounds": [{"starter": case["starter"], "hands": case["hands"],
                        "boneyard": case["boneyard"], "actions": case["actions"]}]}


@pytest.mark.parametrize("case", PERFT_TABLE, ids=lambda c: f"{c['players']}p")
def test_perft_table(case):
    rec = _record(case)
    start = game_from_record(rec)
    while start.current.actions:
        start.pop()
    after = game_from_record(rec)
    for d in range(1, 7):
        assert start.current.core.perft(d) == case["perft_start"][d - 1], d
        assert after.current.core.perft(d) == case["perft_after"][d - 1], d
        assert start.current.core.perft_canonical(d) <= case["perft_start"][d - 1]
        assert after.current.core.perft_canonical(d) <= case["perft_after"][d - 1]
    # hand check of depth 1 at the start: the starter may open with any of its 5 tiles
    assert case["perft_start"][0] == 5
    # depth 0 is the position itself
    assert start.current.core.perft(0) == 1


def test_perft_table_literals_still_match_reference():
    """Guards the literals above against a typo (the reference is the source)."""
    for case in PERFT_TABLE:
        rec = _record(case)
        n = len(case["actions"])
        assert [R.perft(rec, 0, n, d) for d in range(1, 7)] == case["perft_after"]
        assert [R.perft(rec, 0, 0, d) for d in range(1, 7)] == case["perft_start"]


# A table of fixed seeds: deal with the engine, play a seeded random prefix, and
# compare the core's perft with the reference's at depths 1..4 along the way.
PERFT_SEEDS = [(p, s) for p in (2, 3, 4) for s in (1, 2, 3, 5, 8, 13)]


@pytest.mark.parametrize("players,seed", PERFT_SEEDS, ids=[f"{p}p-s{s}" for p, s in PERFT_SEEDS])
def test_perft_matches_reference(players, seed):
    rng = random.Random(seed)
    game = Game(players=players, seed=seed)
    compared = 0
    step = 0
    while not game.round_over:
        if step % 3 == 0:
            rec = game.to_record()
            n = len(game.current.actions)
            st = R.state_at(rec, 0, n)
            core = game.current.core
            for d in range(1, 5):
                expected = R.perft_state(st, d)
                assert core.perft(d) == expected, (n, d)
                assert core.perft_canonical(d) <= expected
            compared += 1
        game.push(rng.choice(game.legal_moves))
        step += 1
    assert compared >= 3


def test_perft_of_forced_draws_and_round_end():
    """Hand-made position (the reference's hand record, round 1, RULES §5.2):
    seat 0 opened 6-6; seat 1 holds no 6 and must draw 0-0, 1-4 (unplayable) and
    5-6, which it must place on 6-6:lineA or 6-6:lineB -> perft(1) = 2 from the
    position before the first draw and from every position mid-draw."""
    hands = [["6-6", "0-1", "0-2", "0-3", "0-4"], ["1-1", "1-2", "2-2", "1-3", "2-3"]]
    head = ["0-0", "1-4", "5-6", "3-5"]
    rest = [str(t) for t in ALL_TILES if str(t) not in head and all(str(t) not in h for h in hands)]
    game = Game(players=2, deal=False)
    game.start_round([[Tile.parse(t) for t in h] for h in hands],
                     [Tile.parse(t) for t in head + rest], 0)
    game.push(Move.parse("6-6"))
    core = game.current.core
    assert core.perft(1) == 2
    assert game.legal_moves == [Move.draw()]
    game.push(Move.draw())
    assert core.perft(1) == 2
    game.push(Move.draw())
    assert core.perft(1) == 2
    game.push(Move.draw())
    assert sorted(str(m) for m in game.legal_moves) == ["5-6@6-6:lineA", "5-6@6-6:lineB"]
    # the two concrete placements are one canonical move of multiplicity 2
    assert len(core.canonical_moves()) == 1
    assert core.multiplicity(core.canonical_moves()[0]) == 2
    assert core.perft(1) == 2 and core.perft_canonical(1) == 1
