"""A race-equity table at a game's start against whole games (docs/equity.md, "The game's
start, checked against whole games").

    python benchmarks/equity_start_check.py ROUNDS.npz [--bot greedy] [--games 3000] [--first 0]
        [--model-games 20000]

Plays ``--games`` seeded 2-player games of BOT against itself from 0 : 0 with seat 0 to
open (``selfplay.play_game``; game i's seed from ``"equity-start/{i}"``, i from ``--first``:
runs with disjoint ranges are independent samples to pool), and chains
``--model-games`` games of rounds drawn from the round samples ROUNDS.npz (``fiveup equity
build --players 2 --bot BOT --out T.npz`` saves them beside the table, as T.rounds.npz: the
table's own model, each round replayed with RULES §6 from the state's sample set). Prints, for both,
seat 0's share of wins with its standard error and, round by round, the mean score lead
of seat 0 and the share of games in which seat 0 opens that round: where the model's
independent rounds and the games part, if they do.
"""
from __future__ import annotations

import argparse
import random
import time

import numpy as np

from fiveup_solver.equity import SCORE_LEVELS, RoundSamples, state_sets
from fiveup_solver.selfplay import play_game

ROUNDS_SHOWN = 8


def whole_games(bot: str, games: int, first: int = 0) -> tuple:
    wins, lead, opens, count = 0, np.zeros(ROUNDS_SHOWN), np.zeros(ROUNDS_SHOWN), np.zeros(ROUNDS_SHOWN)
    for i in range(first, first + games):
        g = play_game(2, random.Random(f"equity-start/{i}").getrandbits(63), [bot, bot], scores=[0, 0], starter=0)
        wins += g.winner == 0
        for r, rl in enumerate(g.rounds[:ROUNDS_SHOWN]):
            lead[r] += rl.scores_before[0] - rl.scores_before[1]
            opens[r] += rl.starter == 0
            count[r] += 1
    return wins / games, lead / count, opens / count


def chained_model(path: str, games: int, seed: int = 1) -> tuple:
    samples = RoundSamples.load(path)
    set_of, offsets = state_sets(2, samples.anchors), samples.set_offset
    rounds = [(list(zip(samples.ev_side[samples.ev_offset[i]:samples.ev_offset[i + 1]].tolist(),
                        samples.ev_raw[samples.ev_offset[i]:samples.ev_offset[i + 1]].tolist())), int(samples.end[i]))
              for i in range(samples.rounds)]
    rng = random.Random(seed)
    wins, lead, opens, count = 0, np.zeros(ROUNDS_SHOWN), np.zeros(ROUNDS_SHOWN), np.zeros(ROUNDS_SHOWN)
    for _ in range(games):
        scores, starter = [0, 0], 0
        for r in range(1000):                # (D6's default round limit)
            if r < ROUNDS_SHOWN:
                lead[r] += scores[0] - scores[1]
                opens[r] += starter == 0
                count[r] += 1
            # the state's sample set, seen from its starter; its events replayed (RULES §6)
            rel = [scores[(s + starter) % 2] // 5 for s in range(2)]
            a = set_of[rel[0] * SCORE_LEVELS + rel[1]]
            events, end = rounds[rng.randrange(offsets[a], offsets[a + 1])]
            won = None
            for side_rel, raw in events:
                side = (side_rel + starter) % 2
                if scores[side] + raw <= 305:
                    scores[side] += raw
                    if scores[side] == 305:
                        won = side
                        break
            if won is not None:
                wins += won == 0
                break
            starter = (end + starter) % 2 if end >= 0 else rng.randrange(2)
    return wins / games, lead / count, opens / count


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rounds", help="the round samples (.npz) the table was built from")
    ap.add_argument("--bot", default="greedy")
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--first", type=int, default=0, help="the first game's index (its seed's)")
    ap.add_argument("--model-games", type=int, default=20000)
    args = ap.parse_args(argv)
    for name, run in (("whole games", lambda: whole_games(args.bot, args.games, args.first)),
                      ("chained model", lambda: chained_model(args.rounds, args.model_games))):
        t = time.perf_counter()
        win, lead, opens = run()
        n = args.games if name == "whole games" else args.model_games
        print(f"{name}: seat 0 wins {win:.4f} +- {(win * (1 - win) / n) ** 0.5:.4f} ({n} games, "
              f"{time.perf_counter() - t:.0f} s)")
        print("  seat 0's lead before round 0..7:", " ".join(f"{x:.2f}" for x in lead))
        print("  seat 0 opens round 0..7:        ", " ".join(f"{x:.3f}" for x in opens))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
