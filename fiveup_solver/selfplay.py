"""Whole games between bots, every random choice from one explicit seed.

>>> g = play_game(2, seed=5, bots=["greedy", "random"])
>>> g.game_over or g.unfinished
True
>>> play_game(2, seed=5, bots=["greedy", "random"]).to_record() == g.to_record()
True
"""
from __future__ import annotations

import random
import warnings

from fiveup_solver.bots import bot_move, check_bot, check_move_time, not_a_bot_name
from fiveup_solver.errors import OptionError, as_int, as_number, check_players, check_seed, is_int, is_number, short_repr
from fiveup_solver.game import DEFAULT_MAX_ROUNDS, Game

__all__ = ["play_game", "game_seeds", "play_match", "match_seatings", "wilson_interval", "MAX_GAMES"]

# most games a win rate counts (2^53: every count up to it is exact in a float, and the
# interval's n * n stays far inside a float's range)
MAX_GAMES = 2 ** 53


def game_seeds(seed: int, games: int):
    """(deal seed, bot seed) for each of `games` games derived from one seed (an iterator;
    the arguments are checked at the call)."""
    games = as_int(games)
    if not is_int(games) or games < 0:
        raise OptionError(f"the number of games must be an integer >= 0, not {short_repr(games)}")
    seed = check_seed(seed)
    return _game_seeds(seed, games)


def _game_seeds(seed: int, games: int):
    # one game's seeds at a time: a run of 10^8 games keeps no list of them
    master = random.Random(seed)
    for _ in range(games):
        yield master.getrandbits(63), master.getrandbits(63)


def play_game(players: int, seed: int, bots, *, bot_seed: int | None = None,
              max_rounds: int = DEFAULT_MAX_ROUNDS, on_action=None, scores=None,
              starter: int | None = None, move_time: float | None = None) -> Game:
    """Play one whole game; `bots` names one bot per seat (``scores``/``starter``:
    start from a race already under way, see :class:`Game`). ``move_time``: a bot
    that takes longer than this many seconds over a move stops the game with a
    :class:`~fiveup_solver.errors.BotError` (None: no limit).

    ``on_action(game, move, events)`` is called after every action (for display),
    and with ``move=None`` when a round has been dealt.
    """
    players = check_players(players)
    if isinstance(bots, str) or not isinstance(bots, (list, tuple)):
        raise OptionError(f"bots must be a list of one bot name per seat ({players}), not {short_repr(bots)}")
    if bot_seed is not None:
        bot_seed = check_seed(bot_seed, "bot_seed")
    _check_callback(on_action, "on_action")
    if len(bots) != players:
        raise OptionError(f"bots must name one bot per seat ({players}), not {len(bots)}: {short_repr(list(bots))}")
    for i, b in enumerate(bots):
        if not isinstance(b, str):
            raise not_a_bot_name(f"seat {i}'s bot must be a name, not {short_repr(b)}", b)
        try:   # the bot's own fault (an import error in its module, a method for other player counts)
            check_bot(b, players)
        except OptionError as e:
            raise OptionError(f"seat {i}: {e}") from None
    check_move_time(move_time)
    game = Game(players=players, seed=seed, max_rounds=max_rounds,
                seats=[f"{b}#{i}" for i, b in enumerate(bots)], scores=scores, starter=starter)
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
        move = bot_move(bots[seat], game.observation(seat), rngs[seat], seed, move_time, bot_seed=bot_seed)
        events = game.push(move)
        if on_action is not None:
            on_action(game, move, events)


def _check_callback(function, name: str) -> None:
    if function is not None and not callable(function):
        raise OptionError(f"{name} must be a function or None, not {short_repr(function)}")


def wilson_interval(wins: int, n: int, z: float = 1.959964) -> tuple:
    """95% Wilson score interval of a win rate: ``wins`` (a number: a tie may count half)
    of ``n`` games (an integer from 0 to :data:`MAX_GAMES`).

    >>> [round(x, 3) for x in wilson_interval(70, 100)]
    [0.604, 0.781]

    All wins reach 1 exactly and no wins 0 (the formula's own bound; in floating point
    the sum read 0.9999999999999999):

    >>> wilson_interval(10, 10)[1], wilson_interval(0, 10)[0]
    (1.0, 0.0)
    """
    n, wins, z = as_int(n), as_number(wins), as_number(z)
    if not is_int(n) or not 0 <= n <= MAX_GAMES:
        raise OptionError(f"a win rate's games n must be an integer from 0 to 2^53, not {short_repr(n)}")
    if not is_number(wins) or not 0 <= wins <= n:
        # wins may count a tie as half a win; games is a count
        raise OptionError(f"a win rate needs a number of wins from 0 to the games (an integer), not "
                          f"{short_repr(wins)} of {short_repr(n)}")
    if not is_number(z) or z <= 0:
        raise OptionError(f"z must be a finite number > 0, not {short_repr(z)}")
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return (0.0 if wins == 0 else max(0.0, centre - half), 1.0 if wins == n else min(1.0, centre + half))


def match_seatings(players: int, bot: str, other: str) -> list:
    """Seatings that give `bot` and `other` the same deals from every seat:
    2 and 4 players swap the sides; 3 players put `bot` in each seat in turn.

    >>> match_seatings(2, "a", "b"), match_seatings(3, "a", "b")[2]
    ([['a', 'b'], ['b', 'a']], ['b', 'b', 'a'])
    """
    players = check_players(players)
    for name, value in (("bot", bot), ("other", other)):
        if not isinstance(value, str):
            raise not_a_bot_name(f"{name} must be a bot name (a string), not {short_repr(value)}", value)
    if players == 3:
        return [[bot if s == k else other for s in range(3)] for k in range(3)]
    return [[bot if s % 2 == k else other for s in range(players)] for k in range(2)]


def play_match(players: int, bot: str, other: str, deals: int, seed: int = 0, *,
               max_rounds: int = DEFAULT_MAX_ROUNDS, on_game=None) -> dict:
    """Deprecated: use :func:`fiveup_solver.match.play_pairs` with
    :class:`fiveup_solver.match.PairStats`, as ``fiveup match`` does (the pairs' scores,
    their 95 % interval and Elo).

    `bot` against `other` on `deals` seeded deal sequences, each played once per seating
    of :func:`match_seatings`. Returns games, wins (by `bot`'s side), unfinished games,
    the win rate and a Wilson 95 % interval over the *games*, as if they were
    independent: they are not (the games of one deal sequence share its deals), which is
    why ``fiveup match`` takes its interval over the pairs since 2026-12-07
    (docs/matches.md). Its deals come from :func:`game_seeds`, not from
    ``match.pair_seeds``: the same seed deals other games than ``fiveup match``. Every
    call warns (DeprecationWarning); the function is kept, unchanged, for code that
    relies on its numbers.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     r = play_match(2, "greedy", "random", 2, seed=1)
    >>> r["games"], 0 <= r["wins"] <= 4, caught[0].category.__name__
    (4, True, 'DeprecationWarning')
    """
    warnings.warn("selfplay.play_match is deprecated: its interval counts a deal's games as independent and its "
                  "deals are not fiveup match's; use fiveup_solver.match.play_pairs with match.PairStats (the "
                  "pairs' interval and Elo, as fiveup match reports them)", DeprecationWarning, stacklevel=2)
    _check_callback(on_game, "on_game")
    wins = games = unfinished = 0
    for deal_seed, bot_seed in game_seeds(seed, deals):
        # seating k puts `bot` on side k (seats k, k + 2 with 4 players): the side, not
        # the name, carries the result, so a bot against itself wins half its games
        for bot_side, seats in enumerate(match_seatings(players, bot, other)):
            game = play_game(players, deal_seed, seats, bot_seed=bot_seed, max_rounds=max_rounds)
            games += 1
            if game.winner is None:
                unfinished += 1
            else:
                wins += game.winner == bot_side
            if on_game is not None:
                on_game(game, seats)
    low, high = wilson_interval(wins, games)
    return {"players": players, "bot": bot, "other": other, "deals": deals, "games": games, "wins": wins,
            "unfinished": unfinished, "win_rate": wins / games if games else 0.0, "ci95": [low, high]}
