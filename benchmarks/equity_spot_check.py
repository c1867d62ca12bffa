"""A spot check of the shipped equity tables near the target (docs/equity.md, "How far to trust W").

    python benchmarks/equity_spot_check.py [--scale 1.5] [--workers 2] [--out benchmarks/results/equity_spot_check.jsonl]
    python benchmarks/equity_spot_check.py --report-only

Whole games of ``hint-uniform`` self-play (the bot the tables assume) from twelve score states,
2 and 4 players, chosen where the table moves most near 305: both sides near it, a side at
300, the table's largest drop when side 0 gains 5 (4 players, 270 : 295 to 275 : 295), and a
negative 4-player score. Each game's seed is drawn from ``random.Random(f"review-equity/{k}/{g}")``
(state k, game g). The report gives side 0's observed win rate with its 95 % Wilson interval,
W with its standard error, and z = (observed - W) / sqrt(W (1 - W) / n + SE^2); then the
table's non-monotone steps (side 0's chance falling when its own score rises by 5).
About 300 s of worker CPU at --scale 1.5 (2,265 games).
"""
from __future__ import annotations

import argparse
import collections
import json
import math
import random
import sys
import time
from multiprocessing import Pool

import numpy as np

from fiveup_solver.equity import load_table
from fiveup_solver.selfplay import play_game, wilson_interval

STATES = [  # (players, scores, starter seat, games at --scale 1)
    (2, [300, 300], 0, 200), (2, [295, 300], 1, 200), (2, [290, 290], 0, 160), (2, [300, 250], 1, 120),
    (2, [255, 280], 0, 120), (2, [260, 280], 0, 120), (2, [300, 0], 1, 40),
    (4, [300, 300], 0, 150), (4, [270, 295], 0, 100), (4, [275, 295], 0, 100), (4, [300, 250], 1, 100),
    (4, [-20, 290], 1, 100),
]
BOT = "hint-uniform"


def play(job) -> dict:
    k, players, scores, starter, g = job
    seed = random.Random(f"review-equity/{k}/{g}").getrandbits(63)
    t = time.process_time()
    game = play_game(players, seed, [BOT] * players, scores=scores, starter=starter)
    return {"state": k, "game": g, "players": players, "scores": scores, "starter": starter,
            "winner": game.winner, "rounds": len(game.rounds), "cpu": time.process_time() - t}


def report(path: str) -> float:
    rows = collections.defaultdict(list)
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            rows[r["state"]].append(r)
    chi = 0.0
    print(f"{'players':>7} {'scores':>12} {'start':>5} {'n':>4} {'side 0':>7} {'95 % interval':>16} {'W':>6} "
          f"{'SE':>6} {'z':>6}")
    for k in sorted(rows):
        rs = rows[k]
        players, scores, starter = rs[0]["players"], rs[0]["scores"], rs[0]["starter"]
        table = load_table(players)
        n, wins = len(rs), sum(r["winner"] == 0 for r in rs)
        w, se = table.probabilities(scores, starter)[0], table.standard_errors(scores, starter)[0]
        lo, hi = wilson_interval(wins, n)
        z = (wins / n - w) / math.sqrt(max(w * (1 - w), 1e-4) / n + se * se)
        chi += z * z
        print(f"{players:>7} {str(scores):>12} {starter:>5} {n:>4} {wins / n:>7.3f}  [{lo:.3f}, {hi:.3f}] {w:>6.3f} "
              f"{se:>6.3f} {z:>+6.2f}")
    print(f"sum of z^2 {chi:.1f} on {len(rows)} states")
    for players in (2, 4):
        t = load_table(players)
        w, se = t.win[..., :2, 0], t.stderr[..., :2, 0]
        d = np.diff(w, axis=0)
        worst = np.unravel_index(np.argmin(d), d.shape)
        a, b, s = (int(x) for x in worst)
        print(f"{players} players: side 0's chance falls at {int((d < -1e-9).sum())} of {d.size} steps of +5, "
              f"by more than 0.10 at {int((d < -0.10).sum())}; the largest: W({5 * a}, {5 * b}) {w[a, b, s]:.3f} "
              f"+- {se[a, b, s]:.3f} -> W({5 * a + 5}, {5 * b}) {w[a + 1, b, s]:.3f} +- {se[a + 1, b, s]:.3f} "
              f"(side {s} starts)")
    return chi


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=1.5, help="games per state: this times the listed count")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default="benchmarks/results/equity_spot_check.jsonl")
    ap.add_argument("--report-only", action="store_true", help="report the journal --out, play nothing")
    args = ap.parse_args(argv)
    if not args.report_only:
        jobs = [(k, p, sc, st, g) for k, (p, sc, st, n) in enumerate(STATES) for g in range(max(1, int(n * args.scale)))]
        random.Random(0).shuffle(jobs)
        with Pool(args.workers) as pool, open(args.out, "w") as f:
            for r in pool.imap_unordered(play, jobs, chunksize=2):
                f.write(json.dumps(r) + "\n")
    report(args.out)


if __name__ == "__main__":
    sys.exit(main())
