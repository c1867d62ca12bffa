"""The OpenSpiel adapter (fiveup_solver.openspiel): OpenSpiel's own random simulation test,
every legal action's outcome against the engine stepped independently from the record,
returns against the record replay, exact chance outcomes, information states that show a
player only what it may know, the DealSampler resampler, and ISMCTS games to the end."""
from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")

import random  # noqa: E402
import re  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from collections import Counter  # noqa: E402

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

from fiveup_solver import ALL_TILES, Game, Move, OptionError, Tile, _core  # noqa: E402
from fiveup_solver import openspiel as fo  # noqa: E402
from fiveup_solver.inference import BONEYARD, DealSampler  # noqa: E402
from fiveup_solver.record import replay  # noqa: E402
from fiveup_solver.openspiel import DRAW_ACTION, NUM_ACTIONS, PASS_ACTION, action_to_move, move_to_action  # noqa: E402

PLAYERS = (2, 3, 4)


# --------------------------------------------------------------------------- helpers
def random_action(state, rng):
    if state.is_chance_node():
        return rng.choice([a for a, _ in state.chance_outcomes()])
    return rng.choice(state.legal_actions())


def play_random(game, seed, stop=None):
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal() and not (stop and stop(state)):
        state.apply_action(random_action(state, rng))
    return state


def expected_returns(result, players, whole_game):
    """Returns from the record replay's result (winner side, scores), as the module doc defines them."""
    sides = [_core.side_of_seat(players, s) for s in range(players)]
    if whole_game:
        if result["winner"] is None:
            return [0.0] * players
        return [1.0 if sides[s] == result["winner"] else (-0.5 if players == 3 else -1.0) for s in range(players)]
    gain = result["scores"]            # one round from 0
    if players == 3:
        return [gain[s] - (sum(gain) - gain[s]) / 2 for s in range(players)]
    return [gain[sides[s]] - gain[1 - sides[s]] for s in range(players)]


def same_position(state, ref, obs):
    """The adapter's state shows the reference engine's position."""
    eg = state.engine_game
    assert eg is not None
    assert [t.index for t in eg.board] == [t.index for t in ref.board]
    assert eg.scores == ref.scores and eg.end_sum == ref.end_sum
    assert eg.open_ports() == ref.open_ports()
    assert [eg.hand(s) for s in range(ref.players)] == [ref.hand(s) for s in range(ref.players)]
    assert eg.to_move == ref.to_move
    if not state.is_terminal() and not state.is_chance_node():
        assert state.current_player() == ref.to_move
    # and through OpenSpiel's observation API, from every seat
    for p in range(ref.players):
        obs.set_from(state, p)
        assert np.flatnonzero(obs.dict["board"]).tolist() == sorted(t.index for t in ref.board)
        assert obs.dict["scores"].tolist() == ref.scores
        assert np.flatnonzero(obs.dict["hand"]).tolist() == sorted(t.index for t in ref.hand(p))
        assert obs.dict["hand_sizes"].tolist() == [len(ref.hand(s)) for s in range(ref.players)]
        assert obs.dict["end_sum"][0] == ref.end_sum


def check_against_engine(game, final, whole_game):
    """Step the OpenSpiel actions of a finished game again, next to an engine Game built from the
    record: legal actions, every legal action's outcome, chance outcomes and returns agree."""
    n = game.num_players()
    record = final.to_record()
    rounds = iter(record["rounds"])
    ref = Game(n, deal=False, max_rounds=game.max_rounds)
    obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    state = game.new_initial_state()
    dealt, drawing = [], False

    def start(starter):
        entry = next(rounds)
        hands = [[ALL_TILES[t] for t in dealt[5 * s: 5 * s + 5]] for s in range(n)]
        assert [[str(t) for t in h] for h in hands] == entry["hands"]      # the deal is the chance outcomes
        assert starter == entry["starter"]
        ref.start_round(hands, [Tile.parse(t) for t in entry["boneyard"]], starter)
        dealt.clear()

    for a in final.history():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            probs = [p for _, p in outcomes]
            assert sum(probs) == pytest.approx(1.0) and max(probs) == pytest.approx(min(probs))
            got = [o for o, _ in outcomes]
            assert got == sorted(got)
            if drawing:
                # uniform over the tiles neither dealt nor drawn; the record lists the draws in order
                assert got == sorted(t.index for t in ref.boneyard)
                assert state.action_to_string(pyspiel.PlayerId.CHANCE, a) == f"draw {ALL_TILES[a]}"
                assert ref.boneyard[0].index == a
                ref.push(Move.draw())
                drawing = False
            elif len(dealt) < 5 * n:
                assert got == sorted(set(range(28)) - set(dealt))
                dealt.append(a)
                if len(dealt) == 5 * n and ref.rounds and ref.next_starter() is not None:
                    state.apply_action(a)
                    start(ref.next_starter())
                    same_position(state, ref, obs)
                    continue
            else:
                # the starter draw: first round and after a blocked round only
                assert got == list(range(n)) and (not ref.rounds or ref.next_starter() is None)
                state.apply_action(a)
                start(a)
                same_position(state, ref, obs)
                continue
        else:
            legal = state.legal_actions()
            assert state.current_player() == ref.to_move
            assert legal == sorted(move_to_action(m) for m in ref.legal_moves)
            for b in legal:
                assert state.action_to_string(state.current_player(), b) == str(action_to_move(b))
                child = state.clone()
                child.apply_action(b)
                if b == DRAW_ACTION:
                    assert child.is_chance_node()
                    continue
                other = ref.copy()
                other.push(action_to_move(b))
                if child.engine_game is not None:
                    same_position(child, other, obs)
                else:   # the round ended and the next one is being dealt
                    assert other.round_over and child.table().base.scores == other.scores
            if a == DRAW_ACTION:
                drawing = True
            else:
                ref.push(action_to_move(a))
        state.apply_action(a)
        if state.engine_game is not None and not drawing:
            same_position(state, ref, obs)
    assert state.is_terminal() and state.returns() == final.returns()
    assert ref.round_over and (ref.game_over or ref.unfinished or not whole_game)
    assert final.returns() == pytest.approx(expected_returns(replay(record), n, whole_game))
    assert sum(final.returns()) == pytest.approx(0.0)


# --------------------------------------------------------------------------- actions
def test_action_mapping_is_a_bijection_in_record_notation():
    seen = set()
    for a in range(NUM_ACTIONS):
        m = action_to_move(a)
        assert move_to_action(m) == a and move_to_action(Move.parse(str(m))) == a
        seen.add(str(m))
    assert len(seen) == NUM_ACTIONS
    assert str(action_to_move(DRAW_ACTION)) == "draw" and str(action_to_move(PASS_ACTION)) == "pass"
    assert [str(action_to_move(t)) for t in range(28)] == [str(t) for t in ALL_TILES]
    # placements are numbered in (tile, target, port) order, each one a real port match
    assert list(fo.PLACEMENTS) == sorted(fo.PLACEMENTS) and len(fo.PLACEMENTS) == 420
    for t, g, k in fo.PLACEMENTS:
        _core.canonical_of(t, g, k)    # raises if the tile does not match the port
    with pytest.raises(OptionError):
        action_to_move(NUM_ACTIONS)


def test_game_parameters_and_info():
    game = pyspiel.load_game(fo.SHORT_NAME)
    assert game.num_players() == 2 and game.whole_game and game.max_rounds == 1000     # RULES D6
    assert game.num_distinct_actions() == NUM_ACTIONS and game.max_chance_outcomes() == 28
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    g3 = pyspiel.load_game(f"{fo.SHORT_NAME}(players=3,whole_game=false)")
    assert g3.num_players() == 3 and not g3.whole_game and g3.max_utility() == 305
    for bad in ({"players": 5}, {"whole_game": 1}, {"max_rounds": 0}):
        with pytest.raises(OptionError):
            fo.load_game(**{"players": 2, **bad})


def test_an_illegal_draw_pass_or_play_is_one_error_class_with_the_engines_words():
    """A review: an illegal draw (448) raised OptionError "seat 0 cannot draw", while an
    illegal pass or play raised the engine's IllegalMoveError. All three are now
    IllegalMoveError, the draw with the engine's words (RULES: a seat draws only when it
    holds no playable tile and the boneyard has tiles)."""
    from fiveup_solver import IllegalMoveError
    game = fo.load_game(players=2, whole_game=False)
    rng = random.Random(1)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(random_action(state, rng))
    seat = state.current_player()
    # the round's first placement: every tile of the seat's hand opens it, so it can play
    with pytest.raises(IllegalMoveError, match=rf"^seat {seat} cannot draw: it holds a playable tile$"):
        state.clone().apply_action(DRAW_ACTION)
    with pytest.raises(IllegalMoveError, match=rf"^seat {seat} cannot pass: it holds a playable tile$"):
        state.clone().apply_action(PASS_ACTION)
    not_held = next(a for a in range(28) if a not in state.legal_actions())
    with pytest.raises(IllegalMoveError, match=rf"is not in seat {seat}'s hand"):
        state.clone().apply_action(not_held)
    # a seat that must pass (no playable tile, the boneyard empty) cannot draw either
    for s in range(200):
        state = play_random(game, s, stop=lambda st: not st.is_chance_node()
                            and st.legal_actions() == [PASS_ACTION])
        if not state.is_terminal():
            break
    else:
        pytest.fail("no random round reached a forced pass")
    with pytest.raises(IllegalMoveError, match=rf"^seat {state.current_player()} cannot draw: the boneyard is empty$"):
        state.apply_action(DRAW_ACTION)


# --------------------------------------------------------------------------- OpenSpiel's checks
@pytest.mark.parametrize("players", PLAYERS)
def test_random_sim_test(players):
    pyspiel.random_sim_test(fo.load_game(players, whole_game=False), num_sims=8, serialize=True, verbose=False)
    pyspiel.random_sim_test(fo.load_game(players, whole_game=True), num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("players", PLAYERS)
def test_states_serialise_pickle_and_copy(players):
    """OpenSpiel's serialisation pickles a Python state's attributes: the engine's games
    pickle as deals and actions. Every kind of state (deal, starter, play, a draw's
    chance node, a later round, the end) comes back the same and plays on the same."""
    import copy
    import pickle
    game = fo.load_game(players, whole_game=True)
    rng = random.Random(players)
    state, seen = game.new_initial_state(), set()
    steps = 0
    while not state.is_terminal() and steps < 3000:
        phase = state._e.phase
        if phase not in seen or rng.random() < 0.02:
            seen.add(phase)
            text = pyspiel.serialize_game_and_state(game, state)
            for back in (pyspiel.deserialize_game_and_state(text)[1], pickle.loads(pickle.dumps(state)),
                         copy.deepcopy(state)):
                assert back.history() == state.history() and str(back) == str(state)
                assert back.current_player() == state.current_player()
                if not state.is_chance_node():
                    for p in range(players):
                        assert back.information_state_string(p) == state.information_state_string(p)
                        assert back.observation_tensor(p) == state.observation_tensor(p)
                if (state._e.game or state._e.base).rounds:     # (no record before the first deal)
                    assert back.to_record() == state.to_record()
                follow = random_action(state, random.Random(steps))
                a, b = state.clone(), back.clone()
                a.apply_action(follow)
                b.apply_action(follow)
                assert str(a) == str(b) and a.returns() == b.returns()
        state.apply_action(random_action(state, rng))
        steps += 1
    assert {fo.DEAL, fo.PLAY, fo.DRAW} <= seen and len(state._e.base.rounds) > 1


# --------------------------------------------------------------------------- against the engine
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("whole_game", [False, True])
def test_every_action_matches_the_engine(players, whole_game):
    game = fo.load_game(players, whole_game)
    seeds = range(4) if not whole_game else range(1)
    draws = 0
    for seed in seeds:
        final = play_random(game, 100 * players + seed)
        draws += final.history().count(DRAW_ACTION)
        check_against_engine(game, final, whole_game)
    assert draws > 0      # the draws' chance nodes were exercised


def test_unfinished_game_returns_zero():
    game = fo.load_game(2, True, max_rounds=1)
    for seed in range(6):
        final = play_random(game, seed)
        rec = final.to_record()
        assert len(rec["rounds"]) == 1
        if final.engine_game.winner is None:
            assert final.engine_game.unfinished and final.returns() == [0.0, 0.0]
            break
    else:
        pytest.fail("no unfinished one-round game among the seeds")


# --------------------------------------------------------------------------- hidden information
def _views(state, player, game):
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    info.set_from(state, player)
    obs.set_from(state, player)
    return (state.information_state_string(player), state.observation_string(player),
            np.asarray(state.information_state_tensor(player)).tolist(),
            np.asarray(state.observation_tensor(player)).tolist(), info.tensor.tolist(), obs.tensor.tolist())


def test_swapped_hidden_tile_is_invisible_to_the_others():
    """Two deals that differ only in one tile of seat 1's hand (swapped with a boneyard tile)."""
    game = fo.load_game(2, False)
    order = list(range(28))
    random.Random(5).shuffle(order)
    swapped = list(order)
    swapped[5], swapped[20] = swapped[20], swapped[5]      # seat 1's first tile <-> an undealt tile
    a, b = game.new_initial_state(), game.new_initial_state()
    for t1, t2 in zip(order[:10], swapped[:10]):
        a.apply_action(t1)
        b.apply_action(t2)
    for s in (a, b):
        s.apply_action(0)                                  # seat 0 starts
    for _ in range(2):
        assert _views(a, 0, game) == _views(b, 0, game)
        va, vb = _views(a, 1, game), _views(b, 1, game)
        assert all(x != y for x, y in zip(va, vb))
        # seat 0 moves the same in both; its move is legal in both
        act = a.legal_actions()[0]
        a.apply_action(act)
        b.apply_action(act)


@pytest.mark.parametrize("players", PLAYERS)
def test_resampled_states_look_the_same_to_the_player(players):
    """resample_from_infostate keeps everything the player knows (strings and tensors equal) and
    changes what it does not; a seat whose own tiles changed sees the difference."""
    game = fo.load_game(players, True)
    rng = random.Random(players)
    state = game.new_initial_state()
    sampler = pyspiel.UniformProbabilitySampler(players, 0.0, 1.0)
    checked = differ = drawing = 0
    while True:
        e = state._e
        # player nodes now and then; every starter draw, every draw's tile (a seat has begun to
        # draw: the resampled worlds must let it), and the end
        if (not state.is_chance_node() and rng.random() < 0.25 or e.pending or e.phase == fo.STARTER
                or state.is_terminal()):
            p = rng.randrange(players)
            drawing += e.pending and p != state.engine_game.to_move
            other = state.resample_from_infostate(p, sampler)
            assert type(other) is type(state)
            assert _views(other, p, game) == _views(state, p, game)
            assert other.current_player() == state.current_player()
            if state.current_player() == p:
                assert other.legal_actions() == state.legal_actions()
            if state.engine_game is not None and other.engine_game is not None:
                for q in range(players):
                    if q != p and other.engine_game.hand(q) != state.engine_game.hand(q):
                        assert other.information_state_string(q) != state.information_state_string(q)
                        assert other.observation_tensor(q) != state.observation_tensor(q)
                        differ += 1
            checked += 1
        if state.is_terminal():
            assert other.is_terminal() and other.returns() == state.returns()
            break
        state.apply_action(random_action(state, rng))
    assert checked > 20 and differ > 5 and drawing > 3


def test_resampler_is_the_exact_sampler():
    """The hidden hand of the other seat, resampled many times mid-round, has the DealSampler's
    exact marginals (within sampling error, fixed seeds)."""
    game = fo.load_game(2, False)

    def some_draws(s):
        g = s.engine_game
        return (g is not None and not s.is_chance_node() and s.current_player() == 0
                and sum(m.kind == "draw" for seat, m in g.current.moves if seat == 1) >= 1)
    for seed in range(50):
        state = play_random(game, seed, stop=some_draws)
        if not state.is_terminal():
            break
    g = state.engine_game
    exact = DealSampler(g.observation(0)).marginals()
    counts, n = Counter(), 400
    for k in range(n):
        other = state.resample(0, k)
        counts.update(other.engine_game.hand(1))
        assert other.information_state_string(0) == state.information_state_string(0)
    for tile, probs in exact.items():
        assert abs(counts[tile] / n - probs[1]) < 0.09, (tile, counts[tile] / n, probs[1], probs[BONEYARD])


@pytest.mark.parametrize("player, seed, message", [("a", 1, "player must be 0..1"), (True, 1, "player must be 0..1"),
                                                    (0, -1, "seed must be an integer"), (0, 1.5, "seed must be")])
def test_resample_refuses_bad_arguments(player, seed, message):
    state = play_random(fo.load_game(2, False), 0, stop=lambda s: s.engine_game is not None)
    with pytest.raises(OptionError, match=message):
        state.resample(player, seed)


def test_resample_from_infostate_checks_the_player_and_the_sampler_as_resample_does():
    """A review: resample_from_infostate read its player through int() (1.9 was player 1,
    "x" a bare ValueError), and a sampler's -0.5 became a seed named in the error as if
    the caller had given it."""
    state = play_random(fo.load_game(2, False), 0, stop=lambda s: s.engine_game is not None)
    for player in (1.9, "1", "x"):
        with pytest.raises(OptionError, match=r"^player must be 0\.\.1, not "):
            state.resample_from_infostate(player, lambda: 0.3)
    for u in (-0.5, 1.0, float("nan"), "0.3"):
        with pytest.raises(OptionError, match=r"^probability_sampler must give a number in \[0, 1\), not "):
            state.resample_from_infostate(1, lambda: u)
    same = state.resample_from_infostate(np.int64(1), lambda: np.float64(0.25))
    assert same.history() == state.resample(1, int(0.25 * 2 ** 53)).history()


def test_the_encoding_helpers_check_their_arguments():
    """A review: four public helpers of fiveup_solver.encoding took anything: Encoder's
    perfect_recall "no" turned it on, utility_bound(9, ...) answered, outcome_returns(None)
    and check_params([1]) raised AttributeError and TypeError. A numpy bool is a switch,
    as a numpy integer is an integer."""
    from fiveup_solver.encoding import Encoder, check_params, outcome_returns, utility_bound
    for call, message in ((lambda: Encoder(2, "no"), "perfect_recall must be True or False, not 'no'"),
                          (lambda: Encoder(9, False), "players must be 2, 3 or 4, not 9"),
                          (lambda: utility_bound(9, False), "players must be 2, 3 or 4, not 9"),
                          (lambda: utility_bound(2, "yes"), "whole_game must be True or False, not 'yes'"),
                          (lambda: outcome_returns(None, True), "outcome_returns takes a Game, not None"),
                          (lambda: outcome_returns(Game(players=2, seed=1), False),
                           "outcome_returns: the round is not over"),
                          (lambda: check_params([1]), "the game parameters are a mapping"),
                          (lambda: check_params({"whole_game": "no"}), "whole_game must be True or False")):
        with pytest.raises(OptionError, match=message):
            call()
    assert Encoder(2, np.bool_(True)).perfect_recall is True
    assert check_params({"whole_game": np.bool_(False), "max_rounds": np.int64(5)}) == {
        "players": 2, "whole_game": False, "max_rounds": 5}
    assert type(check_params({"max_rounds": np.int64(5)})["max_rounds"]) is int
    assert utility_bound(4, False) == 475.0 and utility_bound(np.int64(3), np.bool_(True)) == 1.0


def test_the_text_of_a_chance_action_that_is_no_outcome_is_refused():
    """A review: action_to_string(CHANCE, 40) answered "chance 40"."""
    state = play_random(fo.load_game(2, False), 0, stop=lambda s: s.engine_game is not None)
    with pytest.raises(OptionError, match=r"^chance action 40 is no chance outcome \(a tile 0\.\.27\)$"):
        state.action_to_string(pyspiel.PlayerId.CHANCE, 40)
    start = fo.load_game(2, False).new_initial_state()
    while start.chance_outcomes() != [(0, 0.5), (1, 0.5)]:       # the deal, up to the starter's draw
        start.apply_action(start.chance_outcomes()[0][0])
    assert start.action_to_string(pyspiel.PlayerId.CHANCE, 1) == "starter 1"
    for bad in (2, 40, -1):
        with pytest.raises(OptionError, match=rf"^chance action {bad} is no starter \(seats 0\.\.1\)$"):
            start.action_to_string(pyspiel.PlayerId.CHANCE, bad)


def _last_draw_pending(seed):
    """A 3-player random game stopped where a seat has chosen to draw the boneyard's last
    tile and the engine's draw would block the round (every hand shown): None if it has none."""
    game = fo.load_game(3, False)

    def stop(s):
        e = s._e
        if not (e.pending and len(e.game.boneyard) == 1):
            return False
        after = e.game.copy()
        after.push(Move.draw())
        return after.round_over
    state = play_random(game, seed, stop=stop)
    return None if state.is_terminal() else state


@pytest.mark.parametrize("seed", [232, 431, 555])
def test_a_pending_draw_is_resampled_from_what_the_player_knows(seed):
    """While another seat's draw waits on chance, the player knows only that the drawer holds
    no tile that fits now. The resampled worlds must be the player's pre-draw worlds with that
    void, uniform: compared here with the pre-draw DealSampler's worlds kept where the drawer
    could not place (rejection keeps them uniform). The engine's own next draw, made early,
    would have shown every hand (a block), and the third seat's true hand every time."""
    state = _last_draw_pending(seed)
    assert state is not None
    g = state.engine_game
    drawer = g.to_move
    opens = {p.value for p in g.open_ports()}

    def fits(hand):
        return any(t.lo in opens or t.hi in opens for t in hand)

    def current(hands, bone):
        w = Game(3, deal=False)
        w.start_round(hands, bone, g.current.starter)
        for _, m in g.current.moves:
            w.push(Move.draw() if m.kind == "draw" else m)
        return w

    n = 300
    for player in (s for s in range(3) if s != drawer):
        third = 3 - player - drawer
        got = Counter()
        for k in range(n):
            other = state.resample(player, k)
            w = other.engine_game
            assert not fits(w.hand(drawer)), "the drawer could have placed"
            assert other.information_state_string(player) == state.information_state_string(player)
            got.update(w.hand(third))
        pre, want, k = DealSampler(g.observation(player)), Counter(), 0
        while sum(want.values()) < n * len(g.hand(third)):
            w = current(*pre.sample_round(k))
            k += 1
            if not fits(w.hand(drawer)):
                want.update(w.hand(third))
        for tile in set(got) | set(want):
            assert abs(got[tile] - want[tile]) / n < 0.15, (player, str(tile), got[tile] / n, want[tile] / n)


@pytest.mark.parametrize("players", [3, 4])
def test_every_pending_draw_resamples_a_drawer_that_cannot_place(players):
    """At every pending draw of random games (the first of a sequence, and one after tiles
    already drawn that did not fit), no resampled world lets the drawer place now."""
    game = fo.load_game(players, False)
    checked = again = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            e = state._e
            if e.pending:
                g = e.game
                opens = {p.value for p in g.open_ports()}
                again += bool(g.current.moves) and g.current.moves[-1] == (g.to_move, g.current.moves[-1][1]) \
                    and g.current.moves[-1][1].kind == "draw"
                for player in range(players):
                    if player != g.to_move:
                        w = state.resample(player, seed).engine_game
                        assert not any(t.lo in opens or t.hi in opens for t in w.hand(g.to_move))
                        checked += 1
            state.apply_action(random_action(state, rng))
    assert checked > 50 and again > 5


# --------------------------------------------------------------------------- ISMCTS
def _ismcts(game, seed, sims=12, resampler=None):
    rs = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs), uct_c=2.0,
                           max_simulations=sims, random_state=rs)
    if resampler is not None:
        bot.set_resampler(resampler)
    return bot


@pytest.mark.parametrize("players", PLAYERS)
def test_ismcts_plays_rounds_to_the_end(players):
    game = fo.load_game(players, whole_game=False)
    for seed in range(2):
        bots = {0: _ismcts(game, seed, resampler=fo.make_resampler(seed) if seed else None)}
        if players == 2:
            bots[1] = _ismcts(game, seed + 10)
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            p = state.current_player()
            a = bots[p].step(state) if p in bots else random_action(state, rng)
            assert a in state.legal_actions()
            state.apply_action(a)
        assert sum(state.returns()) == pytest.approx(0.0)


def test_ismcts_searches_in_a_later_round_of_a_whole_game():
    game = fo.load_game(3, whole_game=True)

    def later(s):
        return (not s.is_chance_node() and len(s.legal_actions()) > 1 and s.engine_game is not None
                and len(s.engine_game.rounds) >= 2)
    state = play_random(game, 3, stop=later)
    assert not state.is_terminal()
    policy = _ismcts(game, 1, sims=8).get_policy(state)      # asserts every resample's infostate
    assert {a for a, _ in policy} == set(state.legal_actions())


# --------------------------------------------------------------------------- optional extra
def test_module_imports_without_open_spiel():
    code = ("import sys; sys.modules['pyspiel'] = None\n"
            "import fiveup_solver.openspiel as m\n"
            "from fiveup_solver.errors import OptionError\n"
            "assert m.action_to_move(27).tile.index == 27\n"
            "for build in (m.load_game, m.FiveUpGame):\n"
            "    try:\n"
            "        build()\n"
            "    except OptionError as e:\n"
            "        print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 2 and all("pip install 'fiveup_solver[openspiel]'" in line for line in lines)


def test_observations_without_the_public_part_are_refused():
    game = fo.load_game(2, False)
    with pytest.raises(OptionError, match="public_info=False"):
        make_observation(game, pyspiel.IIGObservationType(public_info=False, perfect_recall=False,
                                                          private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER))


# --------------------------------------------------------------------------- a trained policy as an agent
@pytest.mark.parametrize("players", PLAYERS)
def test_observation_tensor_is_the_adapters_tensor(players):
    """encoding.observation_tensor, built from the engine's Observation of a seat alone, is
    the OpenSpiel observation and information-state tensor of that seat, at every play
    node of whole games (every seat, to move or not) and at the end of one-round games."""
    from fiveup_solver.encoding import observation_tensor
    checked = 0
    for whole_game, seeds in ((True, range(1)), (False, range(3))):
        game = fo.load_game(players, whole_game)
        info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
        obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
        for seed in seeds:
            rng = random.Random(1000 * players + seed)
            state = game.new_initial_state()
            while True:
                over = state.is_terminal()
                if (state._e.phase == fo.PLAY and rng.random() < 0.3) or over:
                    for p in range(players):
                        seen = state.engine_game.observation(p)
                        info.set_from(state, p)
                        obs.set_from(state, p)
                        assert np.array_equal(observation_tensor(seen, True), info.tensor)
                        assert np.array_equal(observation_tensor(seen), obs.tensor)
                        checked += 1
                if over:
                    break
                state.apply_action(random_action(state, rng))
    assert checked > 50 * players


def test_policy_agent_plays_matches_and_names_a_bad_action():
    """A policy over tensors and masks plays through selfplay as any agent does; its games are
    the engine's, and an action outside the mask stops the game with a BotError naming it."""
    from fiveup_solver import bots
    from fiveup_solver.encoding import DRAW_ACTION as DRAW, policy_agent
    from fiveup_solver.errors import BotError
    from fiveup_solver.selfplay import play_game

    def lowest(tensor, mask, rng):
        assert tensor.dtype == np.float32 and mask.dtype == np.int8 and mask.any()
        return int(np.flatnonzero(mask)[0])

    bots.register_bot("test_lowest_action", policy_agent(lowest))
    for players in PLAYERS:
        record = play_game(players, players, ["test_lowest_action"] + ["random"] * (players - 1)).to_record()
        game = Game(players, deal=False)
        for r in record["rounds"]:                       # replay: seat 0 always took its lowest action id
            game.start_round([[Tile.parse(t) for t in h] for h in r["hands"]],
                             [Tile.parse(t) for t in r["boneyard"]], r["starter"])
            for a in r["actions"]:
                if a["seat"] == 0:
                    ids = sorted(move_to_action(m) for m in game.legal_moves)
                    assert move_to_action(Move.from_action(a)) == ids[0]
                game.push(Move.from_action(a))
    bots.register_bot("test_bad_action", policy_agent(lambda tensor, mask, rng: DRAW + 1))
    with pytest.raises(BotError, match=r"the policy chose 449, not one of the \d+ action ids"):
        play_game(2, 1, ["test_bad_action", "random"])
    bots.BOTS.pop("test_lowest_action")
    bots.BOTS.pop("test_bad_action")
    with pytest.raises(OptionError, match="policy must be a function"):
        policy_agent(3)


def _draw_node(seed_range=range(200)):
    """A 2-player round stopped at a draw's chance node."""
    for seed in seed_range:
        state = play_random(fo.load_game(2, False), seed, stop=lambda s: s._e.phase == fo.DRAW)
        if not state.is_terminal():
            return state
    pytest.fail("no random round reached a draw")


def test_what_pyspiel_refused_in_its_own_words_is_a_one_line_option_error():
    """A review: pyspiel checks some input before the adapter sees it: apply_action(-1) (its
    kInvalidAction) at every kind of node was a two-line SpielError naming C++ files, a str or
    a float an 8-line TypeError, a player out of range for the strings and tensors a SpielError,
    and legal_actions(7) answered []. Each is a one-line OptionError from Python, the state
    unchanged; OpenSpiel's C++ checks (random_sim_test) call the C++ methods as before."""
    game = fo.load_game(2, False)
    deal = game.new_initial_state()
    deal.apply_action(3)
    starter = game.new_initial_state()
    for t in range(10):                   # RULES D1: the first round's starter is drawn
        starter.apply_action(t)
    play = play_random(game, 0, stop=lambda s: s.engine_game is not None and not s.is_chance_node())
    over = play_random(game, 0)
    nodes = [(deal, "chance action {} is no chance outcome (a tile 0..27)"),
             (starter, "chance action {} is no starter (seats 0..1)"),
             (_draw_node(), "chance action {} is no chance outcome (a tile 0..27)"),
             (play, "action must be an integer 0..449, not {}"),
             (over, "the game is over")]
    for state, message in nodes:
        history = state.history()
        for bad in (-1, "x", 2.5, 2 ** 70, None):
            with pytest.raises(OptionError, match=f"^{re.escape(message.format(repr(bad)))}$"):
                state.apply_action(bad)
            with pytest.raises(OptionError):
                state.child(bad)
        assert state.history() == history
    legal = play.legal_actions()
    assert play.legal_actions(np.int64(play.current_player())) == legal and legal
    assert play.legal_actions(1 - play.current_player()) == []
    assert deal.legal_actions(pyspiel.PlayerId.CHANCE) == [a for a, _ in deal.chance_outcomes()]
    assert over.legal_actions() == [] and play.child(legal[0]).history() == play.history() + [legal[0]]
    for player in (7, -1, 2, "0", 1.0, True):
        for call in (play.legal_actions, play.information_state_string, play.information_state_tensor,
                     play.observation_string, play.observation_tensor):
            with pytest.raises(OptionError, match=r"^player must be 0\.\.1, not "):
                call(player)
    for call in (deal.information_state_string, deal.observation_tensor):      # the chance player has no view
        with pytest.raises(OptionError, match=r"^player must be 0\.\.1, not -1$"):
            call()
    assert play.information_state_string() == play.information_state_string(play.current_player())
    assert play.observation_tensor(np.int64(0)) == play.observation_tensor(0)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_a_sampler_that_is_not_callable_is_refused():
    """A review: resample_from_infostate(0, 5) raised TypeError "'int' object is not callable"."""
    state = play_random(fo.load_game(2, False), 0, stop=lambda s: s.engine_game is not None)
    for bad in (5, 0.3, "u"):
        with pytest.raises(OptionError, match=r"^probability_sampler must be a callable giving a number in "
                                              r"\[0, 1\) or None, not "):
            state.resample_from_infostate(0, bad)


def test_the_text_of_a_tile_dealt_or_held_as_a_chance_outcome_is_refused():
    """A review: at the deal a tile dealt already read "deal 0-3 to 0", and at a draw a tile
    in a hand "draw ..."; neither is a chance outcome there (RULES 2.1: each tile is dealt
    once; a draw takes a boneyard tile), as a non-starter was already refused."""
    deal = fo.load_game(2, False).new_initial_state()
    deal.apply_action(3)
    with pytest.raises(OptionError, match=r"^chance action 3 is no outcome here: tile 0-3 is dealt already$"):
        deal.action_to_string(pyspiel.PlayerId.CHANCE, 3)
    assert deal.action_to_string(pyspiel.PlayerId.CHANCE, 4) == "deal 0-4 to 0"
    draw = _draw_node()
    held = draw.engine_game.hand(0)[0]
    with pytest.raises(OptionError, match=rf"^chance action {held.index} is no outcome here: tile {held} is not in "
                                          r"the boneyard$"):
        draw.action_to_string(pyspiel.PlayerId.CHANCE, held.index)
    for a, _ in draw.chance_outcomes():
        assert draw.action_to_string(pyspiel.PlayerId.CHANCE, a) == f"draw {ALL_TILES[a]}"


def test_the_public_only_text_while_dealing_names_no_hand():
    """A review: the public-only observer (private_info NONE) said "dealing 3 hand -" while
    dealing, as if no tile were dealt; it says how many tiles are dealt, the same to all."""
    game = fo.load_game(2, False)
    state = game.new_initial_state()
    for t in (3, 5, 6):
        state.apply_action(t)
    for recall in (False, True):
        public = make_observation(game, pyspiel.IIGObservationType(
            perfect_recall=recall, private_info=pyspiel.PrivateInfoType.NONE))
        for p in (0, 1):
            assert public.string_from(state, p) == f"p{p} n2 deal round 0 scores 0,0 || dealing 3"
    own = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    assert own.string_from(state, 0).endswith("dealing 3 hand 0-3,0-5,0-6")


def test_deserialising_in_a_new_process_needs_the_import_first():
    """docs/openspiel.md: OpenSpiel knows the game once fiveup_solver.openspiel is imported
    (a review: "Unknown game" in a new process, not said in the docs)."""
    state = play_random(fo.load_game(2, False), 0, stop=lambda s: len(s.history()) == 14)
    text = pyspiel.serialize_game_and_state(state.get_game(), state)
    code = ("import sys, pyspiel\n"
            "text = sys.stdin.read()\n"
            "try:\n"
            "    pyspiel.deserialize_game_and_state(text)\n"
            "except pyspiel.SpielError as e:\n"
            "    print('refused' if \"Unknown game 'python_exact61_five_up'\" in str(e) else e)\n"
            "import fiveup_solver.openspiel\n"
            "print(pyspiel.deserialize_game_and_state(text)[1].history())\n")
    out = subprocess.run([sys.executable, "-c", code], input=text, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[:2] == ["refused", str(state.history())]
