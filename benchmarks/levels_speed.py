"""Speed of the graded levels: decision latency, games per second per core, match throughput.

For every level: seeded self-play games (the level in every seat, one process,
one search thread), every decision with a choice (two or more legal moves) timed: median and
95th percentile seconds per decision, and games per second per core. Then one match (level4 v level7,
duplicate pairs) with 1 and with 2 worker processes in the same run, and the
speed-up.

    python benchmarks/levels_speed.py --games 20 [--players 4] --out benchmarks/results/levels_speed.json
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

from fiveup_solver import hint
from fiveup_solver.bots import BOTS
from fiveup_solver.game import Game
from fiveup_solver.levels import LEVELS
from fiveup_solver.match import play_pairs


def level_speed(name: str, games: int, seed: int, players: int = 2) -> dict:
    bot = BOTS[name]
    times, t0 = [], time.perf_counter()
    for g in range(games):
        # (2 players: the seeds of the journal measured before --players existed)
        game = Game(players=players, seed=random.Random(f"levels-speed/{seed}/{g}"
                                                        + ("" if players == 2 else f"/{players}p")).getrandbits(63))
        rngs = [random.Random(f"{seed}/{g}/{s}") for s in range(players)]
        while not game.game_over and not game.unfinished:
            if game.round_over:
                game.next_round()
                continue
            seat = game.to_move
            obs = game.observation(seat)
            t = time.perf_counter()
            move = bot(obs, rngs[seat])
            if len(obs.legal_moves) > 1:          # forced moves (one legal move) are not decisions
                times.append(time.perf_counter() - t)
            game.push(move)
    total = time.perf_counter() - t0
    times.sort()
    return {"level": name, "players": players, "games": games, "decisions": len(times), "games_per_s": games / total,
            "median_s": statistics.median(times), "p95_s": times[int(0.95 * (len(times) - 1))],
            "max_s": times[-1]}


def match_throughput(pairs: int, workers: int, seed: int, players: int = 2) -> dict:
    t = time.perf_counter()
    n = sum(1 for _ in play_pairs(players, "level4", "level7", seed, workers=workers, max_pairs=pairs))
    dt = time.perf_counter() - t
    return {"workers": workers, "games": 2 * n, "seconds": dt, "games_per_s": 2 * n / dt}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="self-play games per level")
    ap.add_argument("--pairs", type=int, default=10, help="pairs of the throughput match")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    hint._default = hint.Hinter(threads=1)      # one core per game, as in a match worker
    rows = []
    for name in LEVELS:
        r = level_speed(name, args.games, args.seed, args.players)
        rows.append(r)
        print(f"{name}: {r['games_per_s']:7.2f} games/s per core, decision median {1000 * r['median_s']:7.2f} ms, "
              f"p95 {1000 * r['p95_s']:7.1f} ms, max {1000 * r['max_s']:7.1f} ms ({r['decisions']} decisions)",
              file=sys.stderr)
    tp = [match_throughput(args.pairs, w, args.seed, args.players) for w in (1, 2)]
    for r in tp:
        print(f"match level4 v level7, {r['workers']} worker(s): {r['games_per_s']:.2f} games/s", file=sys.stderr)
    print(f"speed-up with 2 workers: {tp[1]['games_per_s'] / tp[0]['games_per_s']:.2f}x", file=sys.stderr)
    result = {"levels": rows, "match": tp}
    if args.out:
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
