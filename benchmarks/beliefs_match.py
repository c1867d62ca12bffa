"""Strength of the model-belief hint bot on duplicate deals, resumable.

Each matchup plays BOT against OTHER on seeded deal sequences from every
seating: with 2 and 4 players a *pair* (the same seed, BOT's side 0 then side
1, ``fiveup_solver.match.play_pair``); with 3 players a *triple* (BOT in each
seat against two OTHERs). Every finished pair or triple is one line of a JSON
Lines file, so a run can stop and resume; the report gives BOT's win rate with
its 95 % Wilson interval, and its mean score per pair with the interval from
the per-pair variance and the logistic Elo (match.PairStats). With 3 players
chance gives 1/3: the Elo is the Plackett-Luce one that makes 1/3 even
(``elo_of_share3``).

The suite (``--suite``) is the issue's table: the hint bot with model beliefs
against greedy (2, 3 and 4 players), random, expectimax, the uniform-belief
hint bot head to head, and ``hint-noisy`` (the uniform hint bot's move, but a
uniformly random legal move with probability 0.25: a player the model fits
badly). Each matchup writes ``OUT_DIR/<bot>_vs_<other>_<players>p.jsonl``.

    python benchmarks/beliefs_match.py --suite --pairs 1000 --workers 2 --out-dir benchmarks/results/beliefs
    python benchmarks/beliefs_match.py --players 2 --bots hint-model,greedy --pairs 20 --workers 1 \\
        --out /tmp/smoke.jsonl
    python benchmarks/beliefs_match.py --suite --out-dir benchmarks/results/beliefs --report-only
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time

from fiveup_solver import bots as _bots
from fiveup_solver.match import PairStats, pair_seeds, play_pair
from fiveup_solver.selfplay import match_seatings, play_game, wilson_interval

NOISE = 0.25


def _noisy_hint_bot(obs, rng: random.Random):
    """The uniform-belief hint bot's move, or with probability NOISE a uniformly random legal move."""
    if rng.random() < NOISE:
        return rng.choice(obs.legal_moves)
    return _bots.BOTS["hint-uniform"](obs, rng)


# registered here, at import, so that worker processes know it too
_bots.BOTS.setdefault("hint-noisy", _noisy_hint_bot)

SUITE = [  # (players, bot, other, pairs as a share of --pairs)
    (2, "hint-model", "greedy", 1.0),
    (2, "hint-uniform", "greedy", 1.0),            # the baseline, on the same deals
    (2, "hint-model", "hint-uniform", 1.0),
    (2, "hint-model", "random", 0.25),
    (2, "hint-model", "expectimax-uniform", 0.5),
    (2, "hint-model", "hint-noisy", 0.5),
    (4, "hint-model", "greedy", 0.25),
    (3, "hint-model", "greedy", 0.25),
]


def _play(job):
    players, bot, other, index, deal_seed, bot_seed = job
    t = time.perf_counter()
    if players == 3:
        scores = []
        for seat, seats in enumerate(match_seatings(3, bot, other)):
            game = play_game(3, deal_seed, seats, bot_seed=bot_seed)
            scores.append(0.5 if game.winner is None else float(game.winner == seat))
    else:
        _, scores, _ = play_pair((players, bot, other, index, deal_seed, bot_seed, 1000, False))
    return {"index": index, "scores": scores, "seconds": round(time.perf_counter() - t, 3)}


def _init_worker():
    from fiveup_solver import hint
    hint._default = hint.Hinter(threads=1)   # one search thread per process: the workers fill the cores


def run(players: int, bot: str, other: str, pairs: int, seed: int, workers: int, out: str, progress=True) -> None:
    """Play the pairs (or triples) of indices 0..pairs-1 not yet in `out`, appending each."""
    _bots.bot_function(bot)
    _bots.bot_function(other)
    done = set()
    if os.path.exists(out):
        with open(out) as f:
            done = {json.loads(line)["index"] for line in f if line.strip()}
    jobs = [(players, bot, other, k, *pair_seeds(seed, k)) for k in range(pairs) if k not in done]
    if not jobs:
        return
    from tqdm import tqdm
    bar = tqdm(total=len(jobs), desc=f"{bot} v {other} ({players}p)", unit="pair", disable=not progress)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "a") as f:
        if workers <= 1:
            _init_worker()
            results = map(_play, jobs)
            pool = None
        else:
            from concurrent.futures import ProcessPoolExecutor
            pool = ProcessPoolExecutor(workers, initializer=_init_worker)
            results = pool.map(_play, jobs, chunksize=1)
        try:
            for r in results:
                f.write(json.dumps(r) + "\n")
                f.flush()
                bar.update(1)
        finally:
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)
    bar.close()


def report(players: int, out: str) -> dict:
    """Win rate (Wilson 95 %), mean score per pair with its 95 % interval, Elo and interval."""
    rows = []
    with open(out) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    games = sum(len(r["scores"]) for r in rows)
    wins = sum(1 for r in rows for x in r["scores"] if x == 1)
    unfinished = sum(1 for r in rows for x in r["scores"] if x == 0.5)
    low, high = wilson_interval(wins, games)
    seconds = sum(r.get("seconds", 0.0) for r in rows)
    out_d = {"players": players, "games": games, "wins": wins, "unfinished": unfinished,
             "win_rate": wins / games if games else 0.0, "win_rate_ci95": [low, high],
             "seconds_per_game": seconds / games if games else 0.0}
    if players in (2, 4):
        st = PairStats()
        for r in rows:
            st.add(r["scores"])
        out_d.update(st.to_dict())
        return out_d
    # triples: the mean score per triple against the fair share 1/3
    means = [sum(r["scores"]) / 3 for r in rows]
    n = len(means)
    m = sum(means) / n if n else 0.0
    se = math.sqrt(sum((x - m) ** 2 for x in means) / (n - 1) / n) if n > 1 else 0.0
    low, high = max(0.0, m - 1.96 * se), min(1.0, m + 1.96 * se)
    out_d.update({"triples": n, "score": m, "score_ci95": [low, high],
                  "elo": elo_of_share3(m), "elo_ci95": [elo_of_share3(low), elo_of_share3(high)]})
    return out_d


def elo_of_share3(p: float) -> float:
    """Elo of a bot that wins a share p of 3-player games against two equal others:
    with strengths g = 10^(Elo/400) and 1 (Plackett-Luce), it wins g / (g + 2), so
    1/3 is even and Elo = 400 log10(2p / (1 - p)) (clamped to +-3600 at 0 and 1).

    >>> abs(elo_of_share3(1 / 3)) < 1e-6, round(elo_of_share3(0.5))
    (True, 120)
    """
    p = min(max(p, 1e-9), 1 - 1e-9)
    return max(-3600.0, min(3600.0, 400.0 * math.log10(2 * p / (1 - p))))


def _line(bot, other, s) -> str:
    return (f"{bot} v {other}, {s['players']} players: {s['wins']}/{s['games']} = {100 * s['win_rate']:.1f} % "
            f"[{100 * s['win_rate_ci95'][0]:.1f}, {100 * s['win_rate_ci95'][1]:.1f}]; score {s['score']:.3f} "
            f"[{s['score_ci95'][0]:.3f}, {s['score_ci95'][1]:.3f}]; Elo {s['elo']:+.0f} "
            f"[{s['elo_ci95'][0]:+.0f}, {s['elo_ci95'][1]:+.0f}]; {s['seconds_per_game']:.1f} s/game")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--bots", default="hint-model,greedy", help="BOT,OTHER (the rate is BOT's)")
    ap.add_argument("--pairs", type=int, default=1000, help="pairs (triples with 3 players); --suite: the scale")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default=None, help="JSON Lines file of one matchup")
    ap.add_argument("--suite", action="store_true", help="every matchup of the issue's table")
    ap.add_argument("--out-dir", default="benchmarks/results/beliefs", help="--suite: where the files go")
    ap.add_argument("--report-only", action="store_true")
    args = ap.parse_args(argv)
    if args.suite:
        matchups = [(p, b, o, max(1, round(share * args.pairs))) for p, b, o, share in SUITE]
    else:
        bot, _, other = args.bots.partition(",")
        if not other or args.out is None:
            ap.error("give --bots BOT,OTHER and --out FILE, or --suite")
        matchups = [(args.players, bot, other, args.pairs)]
    summaries = []
    for players, bot, other, pairs in matchups:
        out = args.out or os.path.join(args.out_dir, f"{bot}_vs_{other}_{players}p.jsonl")
        if not args.report_only:
            run(players, bot, other, pairs, args.seed, args.workers, out)
        if not os.path.exists(out):
            continue
        s = report(players, out)
        s.update(bot=bot, other=other, file=out)
        summaries.append(s)
        print(json.dumps(s))
        print(_line(bot, other, s), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
