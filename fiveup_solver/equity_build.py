"""Building the equity tables: self-play rounds of a bot, played from 0 : 0 and from
the near-target anchors (:mod:`fiveup_solver.equity` holds the tables and solves
them from these samples). ``fiveup equity build`` writes where the user says, or
to the user cache directory (:func:`fiveup_solver.equity.cache_dir`).

>>> events, end = play_sample_round(2, seed=0, index=0, bot="greedy")
>>> all(0 <= side < 2 and raw % 5 == 0 for side, raw in events) and end in (-1, 0, 1)
True
"""
from __future__ import annotations

import random

import numpy as np
from tqdm import tqdm

from fiveup_solver.bots import choose_in_game
from fiveup_solver.equity import (DEFAULT_BOT, DEFAULT_NEAR_ROUNDS, DEFAULT_ROUNDS, RoundSamples, _check_players,
                                  _sides, near_anchors)
from fiveup_solver.errors import OptionError, check_seed, is_int as _is_int, short_repr as _short
from fiveup_solver.game import Game
from fiveup_solver.parallel import ordered_map

__all__ = ["round_seed", "play_sample_round", "collect_rounds", "collect_samples"]


def round_seed(players: int, seed: int, index: int) -> int:
    """The deal seed of sample round `index`: depends on nothing but its arguments."""
    return random.Random(f"equity/{players}/{seed}/{index}").getrandbits(63)


def play_sample_round(players: int, seed: int, index: int, bot: str = DEFAULT_BOT, anchor=None):
    """One round of self-play: (relative events [(side, raw)], relative end side or -1).

    From 0 : 0 with the starter drawn, or with `anchor` (raw scores per side) from
    those scores with seat 0 to start; a round that ends the game counts as -1."""
    game_seed = round_seed(players, seed, index)
    if anchor is None:
        game = Game(players=players, seed=game_seed)
    else:
        game_seed = random.Random(f"{game_seed}/anchor/{list(anchor)}").getrandbits(63)
        game = Game(players=players, seed=game_seed, scores=list(anchor), starter=0)
    sides = _sides(players)
    rngs = [random.Random(f"{game_seed}/{s}") for s in range(players)]
    start_side = game.current.core.side_of(game.current.starter)
    events = []
    while not game.round_over:
        seat = game.to_move
        for e in game.push(choose_in_game(bot, game.observation(seat), rngs[seat])):
            events.append(((e.side - start_side) % sides, e.raw))
    nxt = None if game.game_over else game.next_starter()
    end = -1 if nxt is None else (game.current.core.side_of(nxt) - start_side) % sides
    return events, end


def _play_job(job):
    players, seed, index, bot, anchor = job
    return play_sample_round(players, seed, index, bot, anchor)


MAX_SAMPLE_ROUNDS = 10_000_000     # sample rounds one build plays (each kept in memory until the table is built)


def collect_rounds(players: int, rounds: int, seed: int = 0, *, bot: str = DEFAULT_BOT, start: int = 0,
                   progress: bool = False, anchor=None, workers: int = 1, desc: str | None = None) -> RoundSamples:
    """Play sample rounds ``start .. start + rounds - 1`` (each seeded by its index alone,
    and by `anchor` when given), in `workers` processes."""
    players = _check_players(players)
    seed = check_seed(seed)
    jobs = [(players, seed, i, bot, anchor) for i in range(start, start + rounds)]
    results = _map(_play_job, jobs, workers, progress, desc or f"rounds ({players} players)")
    return _samples_of(players, bot, seed, results)


def _map(fn, jobs, workers, progress, desc):
    """fn over jobs in order, in `workers` processes, with a progress bar."""
    bar = None
    if progress:
        bar = tqdm(total=len(jobs), desc=desc, unit="round")
    out = []
    for r in ordered_map(fn, jobs, workers=workers, in_flight=8):
        out.append(r)
        if bar is not None:
            bar.update()
    if bar is not None:
        bar.close()
    return out


def _samples_of(players, bot, seed, results) -> RoundSamples:
    offsets, sides_, raws, ends = [0], [], [], []
    for events, end in results:
        for s, r in events:
            sides_.append(s)
            raws.append(r)
        offsets.append(len(raws))
        ends.append(end)
    return RoundSamples(players, bot, seed, np.array(offsets, np.int32), np.array(sides_, np.int8),
                        np.array(raws, np.int16), np.array(ends, np.int8))


def collect_samples(players: int, rounds: int | None = None, near_rounds: int | None = None, seed: int = 0, *,
                    bot: str = DEFAULT_BOT, workers: int = 1, progress: bool = False) -> RoundSamples:
    """The samples a table is built from: `rounds` at 0 : 0 (set 0), then
    `near_rounds` at every near-target anchor (sets 1, 2, ...; none if 0)."""
    players = _check_players(players)
    rounds = DEFAULT_ROUNDS[players] if rounds is None else rounds
    near_rounds = DEFAULT_NEAR_ROUNDS[players] if near_rounds is None else near_rounds
    for name, v in (("rounds", rounds), ("near_rounds", near_rounds)):
        if not _is_int(v) or v < 0:
            raise OptionError(f"{name} must be a whole number >= 0, not {_short(v)}")
    if rounds < 1:
        raise OptionError("rounds must be at least 1 (the 0 : 0 set)")
    anchors = near_anchors(players) if near_rounds else []
    total = rounds + near_rounds * len(anchors)
    if total > MAX_SAMPLE_ROUNDS:
        # every round's events are held until the table is built: 3 players' 2,743 anchors
        # times --near-rounds 1000000 asked for about 300 GB before a round was played
        raise OptionError(f"{total:,} sample rounds ({rounds:,} at 0 : 0 and {near_rounds:,} at each of "
                          f"{len(anchors):,} near-target anchors) are over the {MAX_SAMPLE_ROUNDS:,} a build holds")
    base = collect_rounds(players, rounds, seed, bot=bot, workers=workers, progress=progress)
    if near_rounds == 0:
        return base
    jobs = [(players, seed, i, bot, a) for a in anchors for i in range(near_rounds)]
    results = _map(_play_job, jobs, workers, progress, f"near-target rounds ({players} players)")
    sets = [_samples_of(players, bot, seed, results[j * near_rounds:(j + 1) * near_rounds])
            for j in range(len(anchors))]
    return base.with_sets(sets, anchors)
