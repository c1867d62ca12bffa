"""Whole games between bots, every random choice from one explicit seed.

>>> g = play_game(2, seed=5, bots=["greedy", "random"])
>>> g.game_over or g.unfinished
True
>>> play_game(2, seed=5, bots=["greedy", "random"]).to_record() == g.to_record()
True
"""
from __future__ import annotations

import random

from fiveup_solver.bots import choose
from fiveup_solver.game import DEFAULT_MAX_ROUNDS, Game

__all__ = ["play_game", "game_seeds"]


def game_seeds(seed: int, games: int):
    """(deal seed, bot seed) for each of `games` games derived from one seed."""
    master = random.Random(seed)
    return [(master.getrandbits(63), master.getrandbits(63)) for _ in range(games)]


def play_game(players: int, seed: int, bots, *, bot_seed: int | None = None,
              max_rounds: int = DEFAULT_MAX_ROUNDS, on_action=None) -> Game:
    """Play one whole game; `bots` names one bot per seat.

    ``on_action(game, move, events)`` is called after every action (for display),
    and with ``move=None`` when a round has been dealt.
    """
    from fiveup_solver.bots import BOTS
    from fiveup_solver.types import OptionError
    if len(bots) != players or any(b not in BOTS for b in bots):
        raise OptionError(f"play_game needs one known bot name per seat ({players}), not {list(bots)!r}")
    game = Game(players=players, seed=seed, max_rounds=max_rounds,
                seats=[f"{b}{i}" for i, b in enumerate(bots)])
    rngs = [random.Random(f"{seed if bot_seed is None else bot_seed}/{s}") for s in range(players)]
    if on_action is not None:
        on_action(game, None, [])
    while True:
        if game.round_over:
            if game.game_over or len(game.rounds) >= max_rounds:
                return game
            game.next_round()
            if on_action is not None:
                on_action(game, None, [])
        seat = game.to_move
        move = choose(bots[seat], game.observation(seat), rngs[seat])
        events = game.push(move)
        if on_action is not None:
            on_action(game, move, events)
