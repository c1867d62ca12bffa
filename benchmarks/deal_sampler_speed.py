"""How long a DealSampler takes to build, and a fingerprint of what it samples.

    PYTHONPATH=TREE python benchmarks/deal_sampler_speed.py [--games 40] [--reps 5]

Run once with each build's tree on PYTHONPATH (a baseline built in its own
worktree, then this one): the times compare, and the fingerprints must be
equal. Times: the fastest of ``--reps`` passes over ``--games`` observations
per row (seat 0 at a round's start; the seat to move half-way through a
greedy round), in ms per sampler. Fingerprint: a hash of three sampled deals
of every fourth position of the first round of 30 greedy games of 2, 3 and 4
players, from every seat's view.
"""
from __future__ import annotations

import argparse
import hashlib
import time

from fiveup_solver.game import Game
from fiveup_solver.inference import DealSampler
from fiveup_solver.selfplay import play_game


def observations(players: int, games: int) -> dict:
    rows = {"start": [], "mid": []}
    for seed in range(games):
        rows["start"].append(Game(players=players, seed=seed).observation(0))
        moves = play_game(players, seed, ["greedy"] * players, max_rounds=1).rounds[0].moves
        g = Game(players=players, seed=seed)
        for _, m in moves[: len(moves) // 2]:
            g.push(m)
        rows["mid"].append(g.observation(g.to_move))
    return rows


def fingerprint() -> str:
    h = hashlib.sha256()
    for players in (2, 3, 4):
        for seed in range(30):
            moves = play_game(players, seed, ["greedy"] * players, max_rounds=1).rounds[0].moves
            g = Game(players=players, seed=seed)
            for i, (_, m) in enumerate(moves):
                if g.round_over:
                    break
                if i % 4 == 0:
                    for seat in range(players):
                        ds = DealSampler(g.observation(seat))
                        h.update(repr([ds.sample_round(k) for k in range(3)]).encode())
                g.push(m)
    return h.hexdigest()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args()
    for players in (2, 4):
        for kind, obs in observations(players, args.games).items():
            best = float("inf")
            for _ in range(args.reps):
                t0 = time.perf_counter()
                for o in obs:
                    DealSampler(o)
                best = min(best, time.perf_counter() - t0)
            print(f"{players} players, {kind}: {1000 * best / len(obs):.3f} ms per sampler")
    print("fingerprint", fingerprint())


if __name__ == "__main__":
    main()
