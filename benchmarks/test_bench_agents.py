"""What an agent of one's own pays the engine per decision: ``Game.observation`` (with
the last round's end, ``previous_round``), ``check_observation`` and a
``policy_agent`` decision (the tensors, the mask and the check) on observations of
seeded 4-player games.

    pytest benchmarks/test_bench_agents.py --benchmark-enable
"""
import random

from fiveup_solver import Game
from fiveup_solver.encoding import policy_agent
from fiveup_solver.game import check_observation


def _games_and_observations(count=600):
    """(game, seat) positions and their observations, from random play of 4-player games."""
    positions, observations = [], []
    seed = 0
    while len(observations) < count:
        game, rng = Game(players=4, seed=seed), random.Random(seed)
        while not game.game_over and not game.unfinished and len(game.rounds) <= 3:
            if game.round_over:
                game.next_round()
                continue
            positions.append((game.copy(), game.to_move))
            observations.append(game.observation(game.to_move))
            game.push(rng.choice(game.legal_moves))
        seed += 1
    return positions[:count], observations[:count]


POSITIONS, OBSERVATIONS = _games_and_observations()


def test_observation(benchmark):
    views = benchmark(lambda: [g.observation(s) for g, s in POSITIONS])
    assert views == OBSERVATIONS


def test_check_observation(benchmark):
    histories = benchmark(lambda: [check_observation(o) for o in OBSERVATIONS])
    assert [len(h) for h in histories] == [len(o.history) for o in OBSERVATIONS]


def test_policy_agent_decision(benchmark):
    first = policy_agent(lambda tensor, mask, rng: int(mask.nonzero()[0][0]))
    rng = random.Random(0)
    moves = benchmark(lambda: [first(o, rng) for o in OBSERVATIONS])
    assert all(m in o.legal_moves for m, o in zip(moves, OBSERVATIONS))
