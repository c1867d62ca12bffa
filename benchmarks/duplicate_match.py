"""A duplicate match between two bots, in worker processes, resumable.

Every seeded deal sequence is played from every seating (sides swapped with 2
and 4 players, each seat in turn with 3: ``selfplay.match_seatings``), so both
bots see the same tiles. Reports BOT's win rate with its 95% Wilson interval,
and the Elo difference with a 95% interval from the per-deal scores (the deal
is the unit: its seatings are correlated).

    python benchmarks/duplicate_match.py --players 2 --bots hint-win,hint-points --deals 1000 \
        --workers 2 --out benchmarks/results/win_vs_points_2p.jsonl
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time

from resumable import finished, run_jobs

from fiveup_solver.selfplay import game_seeds, match_seatings, play_game, wilson_interval


def _play(job):
    players, bot, other, deal, seating, deal_seed, bot_seed = job
    seats = match_seatings(players, bot, other)[seating]
    t = time.perf_counter()
    game = play_game(players, deal_seed, seats, bot_seed=bot_seed)
    return {"deal": deal, "seating": seating, "winner": game.winner, "bot_side": seating,
            "rounds": len(game.rounds), "seconds": round(time.perf_counter() - t, 3)}


def run(players, bot, other, deals, seed, workers, out, progress=True):
    done = finished(out, lambda r: (r["deal"], r["seating"]))
    n_seatings = len(match_seatings(players, bot, other))
    jobs = [(players, bot, other, d, k, ds, bs) for d, (ds, bs) in enumerate(game_seeds(seed, deals))
            for k in range(n_seatings) if (d, k) not in done]
    run_jobs(_play, jobs, out, workers, f"{bot} v {other} ({players}p)", progress)


def elo(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / p - 1)


def report(players: int, out: str) -> dict:
    by_deal = {}
    with open(out) as f:
        for line in f:
            r = json.loads(line)
            by_deal.setdefault(r["deal"], []).append(r)
    n_seatings = 3 if players == 3 else 2
    games = wins = unfinished = 0
    pair_scores = []
    seconds = 0.0
    for d, rs in sorted(by_deal.items()):
        for r in rs:
            games += 1
            seconds += r.get("seconds", 0.0)
            if r["winner"] is None:
                unfinished += 1
            wins += r["winner"] == r["bot_side"]
        if len(rs) == n_seatings:
            pair_scores.append(sum(r["winner"] == r["bot_side"] for r in rs) / n_seatings)
    low, high = wilson_interval(wins, games)
    n = len(pair_scores)
    mean = sum(pair_scores) / n if n else 0.0
    sd = math.sqrt(sum((x - mean) ** 2 for x in pair_scores) / (n - 1)) if n > 1 else 0.0
    se = sd / math.sqrt(n) if n else 0.0
    # for 3 players a bot wins 1/3 of fair games: Elo against the expected share
    fair = 1 / n_seatings if players == 3 else 0.5
    scale = 0.5 / fair
    return {"games": games, "wins": wins, "unfinished": unfinished, "win_rate": wins / games if games else 0.0,
            "ci95": [low, high], "deals": n, "deal_score": mean, "deal_score_se": se,
            "elo": elo(min(1.0, mean * scale)) if n else 0.0,
            "elo_ci95": [elo(min(1.0, (mean - 1.96 * se) * scale)), elo(min(1.0, (mean + 1.96 * se) * scale))]
            if n else [0.0, 0.0], "seconds_per_game": seconds / games if games else 0.0}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--bots", required=True, help="BOT,OTHER (the rate is BOT's)")
    ap.add_argument("--deals", type=int, required=True)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", required=True)
    ap.add_argument("--report-only", action="store_true")
    args = ap.parse_args(argv)
    bot, other = args.bots.split(",")
    if not args.report_only:
        run(args.players, bot, other, args.deals, args.seed, args.workers, args.out)
    s = report(args.players, args.out)
    s.update(players=args.players, bot=bot, other=other)
    print(json.dumps(s))
    print(f"{bot} v {other}, {args.players} players: {s['wins']}/{s['games']} = {100 * s['win_rate']:.1f} % "
          f"[{100 * s['ci95'][0]:.1f}, {100 * s['ci95'][1]:.1f}]; Elo {s['elo']:+.0f} "
          f"[{s['elo_ci95'][0]:+.0f}, {s['elo_ci95'][1]:+.0f}] over {s['deals']} duplicate deals", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
