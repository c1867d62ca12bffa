"""Fuzzing the inference: any observation, true or tampered with, either yields
deals that replay to exactly that observation or a one-line FiveUpError."""
from __future__ import annotations

import dataclasses
import random

try:
    from . import hypothesis_profiles  # noqa: F401  (seeded unless HYPOTHESIS_PROFILE says otherwise)
except ImportError:
    import hypothesis_profiles  # noqa: F401
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fiveup_solver import Game
from fiveup_solver.game import action_to_move
from fiveup_solver.inference import DealSampler, observation_signature
from fiveup_solver.errors import FiveUpError
from fiveup_solver.notation import ALL_TILES

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def position(players, seed, steps):
    g = Game(players, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.round_over:
            break
        g.push(rng.choice(g.legal_moves))
    return g


def replays_to(obs, hands, boneyard) -> bool:
    twin = Game(obs.players, deal=False)
    twin.start_round(hands, boneyard, obs.starter)
    for a in obs.history:
        twin.push(action_to_move(a))
    return observation_signature(twin.observation(obs.seat)) == observation_signature(obs)


@FUZZ
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10 ** 6), steps=st.integers(0, 60),
       seat=st.integers(0, 3), sample_seed=st.integers(0, 2 ** 64 - 1))
def test_true_observations_sample_consistent_deals(players, seed, steps, seat, sample_seed):
    g = position(players, seed, steps)
    obs = g.observation(seat % players)
    ds = DealSampler(obs)
    for hands, boneyard in ds.sample_rounds(2, sample_seed):
        assert replays_to(obs, hands, boneyard)
    marg = ds.marginals()
    for tile, probs in marg.items():
        assert abs(sum(probs.values()) - 1) < 1e-9
    # the true deal is possible: every true location has positive probability
    for s in ds.hidden_seats:
        for t in g.hand(s):
            assert marg[t][s] > 0
    for t in g.boneyard:
        assert marg[t]["boneyard"] > 0


def tamper(obs, rng: random.Random):
    history = [dict(a) for a in obs.history]
    kind = rng.randrange(7)
    if kind == 0 and history:
        del history[rng.randrange(len(history))]
    elif kind == 1 and history:
        a = history[rng.randrange(len(history))]
        if "play" in a:
            a["play"] = str(rng.choice(ALL_TILES))
    elif kind == 2 and history:
        history[rng.randrange(len(history))]["seat"] = rng.randrange(-1, obs.players + 1)
    elif kind == 3 and history:
        i = rng.randrange(len(history))
        history.insert(i, {"seat": history[i]["seat"], "pass": True})
    elif kind == 4 and history:
        i = rng.randrange(len(history))
        history.insert(i, {"seat": history[i]["seat"], "draw": None})
    elif kind == 5:
        return dataclasses.replace(obs, boneyard_size=rng.randrange(-2, 20))
    elif kind == 6:
        hand = list(obs.hand)
        if hand:
            hand[rng.randrange(len(hand))] = rng.choice(ALL_TILES)
        return dataclasses.replace(obs, hand=tuple(hand))
    return dataclasses.replace(obs, history=tuple(history))


@FUZZ
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10 ** 6), steps=st.integers(1, 60),
       seat=st.integers(0, 3), tamper_seed=st.integers(0, 10 ** 6))
def test_tampered_observations_never_give_inconsistent_deals(players, seed, steps, seat, tamper_seed):
    g = position(players, seed, steps)
    obs = tamper(g.observation(seat % players), random.Random(tamper_seed))
    try:
        ds = DealSampler(obs)
        rounds = ds.sample_rounds(2, tamper_seed)
    except FiveUpError as e:
        assert "\n" not in str(e) and str(e)
        return
    for hands, boneyard in rounds:
        try:
            ok = replays_to(obs, hands, boneyard)
        except FiveUpError:
            ok = False
        # a tampered history that still samples must be one the rules could produce
        assert ok, (obs.history, hands, boneyard)
