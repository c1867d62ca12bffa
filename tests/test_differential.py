"""Differential test: the engine against the independent pure-Python reference.

Thousands of seeded whole games (2, 3 and 4 players; the built-in bots and
uniformly random moves) are played by the engine and replayed by
``tests/reference.py``, which was written from the spec alone.  Every
placement's end sum, every scoring event, the round ends, the final scores and
the winner must agree.  In a few hundred further games the two are walked in
lockstep and the set of legal actions is compared at every single position.

Nothing expected here comes from the engine: the reference decides.
"""
import os
import random

import pytest

from fiveup_solver import Game, Move, Port, Tile
from fiveup_solver.notation import ALL_TILES
from fiveup_solver.selfplay import play_game

try:
    from . import reference as R
except ImportError:  # tests/ is not a package: pytest puts tests/ on sys.path
    import reference as R

# Game counts. The suite's slice keeps the file near a minute; FIVEUP_DIFFERENTIAL_BOT_GAMES
# sets a longer campaign (450, the suite's count before: 86 s of bot games against about 30 s).
BOT_GAMES = int(os.environ.get("FIVEUP_DIFFERENTIAL_BOT_GAMES", "150"))   # per player count, shared by its line-ups
RANDOM_GAMES = 220       # per player count, uniformly random legal moves
LOCKSTEP_GAMES = 70      # per player count, legal sets compared at every position
MAX_ROUND_ACTIONS = 200
BOT_LINEUPS = {
    2: [["random", "random"], ["greedy", "greedy"], ["greedy", "random"]],
    3: [["random", "greedy", "random"], ["greedy", "greedy", "greedy"]],
    4: [["random", "greedy", "random", "greedy"], ["greedy", "random", "greedy", "random"]],
}


class Trace:
    """on_action callback: the engine's end sum after every placement, and its events."""

    def __init__(self):
        self.placements = []
        self.events = []

    def __call__(self, game, move, events):
        if move is None:       # a round was dealt
            return
        # a round has at most 28 placements, 18 draws and, once the boneyard is
        # empty, fewer passes in a row than seats (D2): a longer one never ends
        assert len(game.current.actions) <= MAX_ROUND_ACTIONS
        if move.kind == "play":
            r = len(game.rounds) - 1
            a = len(game.current.actions) - 1
            act = game.current.actions[-1]
            self.placements.append({"round": r, "action": a, "seat": act["seat"],
                                    "tile": str(move.tile), "end_sum": game.end_sum})
        self.events += [e.to_dict() for e in events]


def _compare_with_reference(game, trace):
    record = game.to_record()
    ref = R.replay(record)
    # every placement's end sum, read from the engine right after the push
    assert trace.placements == ref["placements"]
    # every event, in order, with its scores after it (from push() and from game.events)
    assert trace.events == ref["events"]
    assert [e.to_dict() for e in game.events] == ref["events"]
    assert game.round_ends() == ref["rounds"]
    assert game.scores == ref["scores"]
    assert game.winner == ref["winner"]
    assert game.result() == {k: ref[k] for k in ("winner", "scores", "rounds", "events")}
    # a domino's parts (shown at a round's end) as the reference computes them from the hands left
    for rl, end in zip(game.rounds, ref["rounds"]):
        parts = rl.domino_parts()
        assert (parts is None) == (end["end"] != "domino")
        if parts is not None:
            left = [[str(ALL_TILES[t]) for t in rl.core.hand(s)] for s in range(game.players)]
            assert (parts["placement"], parts["opponents"], parts["partner"]) == R.domino_event_value(
                game.players, parts["seat"], rl.core.end_sum, left)
    return ref


def _lineups():
    for players, lineups in BOT_LINEUPS.items():
        for bots in lineups:
            yield pytest.param(players, bots, id=f"{players}p-{'-'.join(bots)}")


@pytest.mark.parametrize("players,bots", list(_lineups()))
def test_bot_games_match_reference(players, bots):
    n_games = BOT_GAMES // len(BOT_LINEUPS[players])
    ends, won = set(), 0
    for seed in range(n_games):
        trace = Trace()
        game = play_game(players, 10_000 * players + seed, bots, on_action=trace)
        ref = _compare_with_reference(game, trace)
        ends |= {r["end"] for r in ref["rounds"]}
        won += ref["winner"] is not None
    # the sample must actually exercise the interesting endings
    assert {"domino", "blocked"} <= ends
    assert won >= n_games * 0.9


def _random_move_game(players, seed, max_rounds=200):
    """A whole game with uniformly random legal moves (draws and passes forced)."""
    rng = random.Random(seed)
    game = Game(players=players, seed=seed, max_rounds=max_rounds)
    trace = Trace()
    while True:
        if game.round_over:
            if game.game_over or len(game.rounds) >= max_rounds:
                return game, trace
            game.next_round()
        move = rng.choice(game.legal_moves)
        events = game.push(move)
        trace(game, move, events)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_move_games_match_reference(players):
    ends = set()
    kinds = set()
    for seed in range(RANDOM_GAMES):
        game, trace = _random_move_game(players, 777_000 + 1000 * players + seed)
        ref = _compare_with_reference(game, trace)
        ends |= {r["end"] for r in ref["rounds"]}
        kinds |= {(e["kind"], e["accepted"]) for e in ref["events"]}
    assert {"domino", "blocked"} <= ends
    # rejected events (the exact target) must occur in the sample, accepted ones of every kind too
    assert {("placement", True), ("placement", False), ("domino", True), ("block", True)} <= kinds


# ---------------------------------------------------------------- lockstep legal sets

def _engine_actions(game):
    """The engine's legal moves of the seat to move, as record action dicts."""
    seat = game.to_move
    out = []
    for m in game.legal_moves:
        if m.kind == "play":
            a = {"seat": seat, "play": str(m.tile)}
            if m.at is not None:
                a["at"] = str(m.at)
        elif m.kind == "draw":
            a = {"seat": seat, "draw": str(game.boneyard[0])}
        else:
            a = {"seat": seat, "pass": True}
        out.append(a)
    return out


def _key(a):
    return tuple(sorted(a.items()))


def _to_move(action):
    if "play" in action:
        return Move.play(Tile.parse(action["play"]),
                         Port.parse(action["at"]) if "at" in action else None)
    if "draw" in action:
        return Move.draw(Tile.parse(action["draw"]))
    return Move.pass_()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_legal_sets_match_reference_at_every_position(players):
    positions = 0
    saw = {"draw": 0, "pass": 0, "branch": 0, "multi_port": 0}
    for seed in range(LOCKSTEP_GAMES):
        rng = random.Random(seed * 7 + players)
        game = Game(players=players, seed=55_000 + 100 * players + seed, max_rounds=100)
        scores = [0] * R.n_sides(players)
        while True:
            rl = game.current
            st = R.RoundState(players, [[str(t) for t in h] for h in rl.hands],
                              [str(t) for t in rl.boneyard], rl.starter, scores,
                              len(game.rounds) - 1)
            while not st.over:
                assert not game.round_over
                assert game.to_move == st.turn
                ours = _engine_actions(game)
                theirs = st.legal_actions()
                assert len(ours) == len({_key(a) for a in ours}), "duplicate engine moves"
                assert {_key(a) for a in ours} == {_key(a) for a in theirs}
                assert game.end_sum == st.end_sum
                assert sorted(str(p) for p in game.open_ports()) == st.open_ports()
                positions += 1
                if "draw" in theirs[0]:
                    saw["draw"] += 1
                elif "pass" in theirs[0]:
                    saw["pass"] += 1
                else:
                    saw["branch"] += any("branch" in a.get("at", "") for a in theirs)
                    tiles = [a["play"] for a in theirs]
                    saw["multi_port"] += len(tiles) != len(set(tiles))
                action = rng.choice(theirs)
                events = game.push(_to_move(action))
                n_before = len(st.events)
                st.apply(action)
                assert [e.to_dict() for e in events] == st.events[n_before:]
            assert game.round_over
            assert rl.end() == st.end
            assert game.scores == st.scores
            assert [sorted(str(t) for t in game.hand(s)) for s in range(players)] == \
                [sorted(h) for h in st.hands]
            scores = st.scores
            if game.game_over or len(game.rounds) >= game.max_rounds:
                assert game.winner == st.winner
                break
            assert st.winner is None
            game.next_round()
            if st.end["end"] == "domino":
                assert game.current.starter == st.end["seat"]
    assert positions > 1000 * LOCKSTEP_GAMES // 10
    assert all(v > 0 for v in saw.values()), saw
