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

Two yardsticks bound what reading the opponent can give, and are not fair
players: ``hint-told-greedy`` is the model bot told that the other seats play
greedy (its family is that one policy), so its beliefs are the posterior under
the opponent's true policy; ``hint-told-hand`` cheats, reading every other
seat's hand from the game being played (the boneyard's order stays unknown).
``--paired-with FILE`` adds the paired difference against another journal of
the same seed (the pairs both have): BOT's mean score per game here minus there.

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
from fiveup_solver.errors import OptionError
from fiveup_solver.match import PairStats, pair_seeds
from fiveup_solver.selfplay import match_seatings, play_game, wilson_interval

NOISE = 0.25


def _noisy_hint_bot(obs, rng: random.Random):
    """The uniform-belief hint bot's move, or with probability NOISE a uniformly random legal move."""
    if rng.random() < NOISE:
        return rng.choice(obs.legal_moves)
    return _bots.BOTS["hint-uniform"](obs, rng)


def _told_greedy_bot():
    """A yardstick, not a fair player: the model hint bot *told* that every other
    seat plays greedy (its family is the one sharp credit model, with a 0.5 % floor),
    so its beliefs are the posterior under the opponent's true policy. What it
    scores bounds what reading greedy from its play can give this search."""
    from fiveup_solver.beliefs import OpponentModel
    from fiveup_solver.policies import model_hint_bot
    return model_hint_bot(model=OpponentModel(grid=(("credit", 3.0),), floor=0.005))


_TABLE = {"game": None}    # the game being played (for hint-told-hand only)


def _told_hand_bot(obs, rng: random.Random):
    """A yardstick that cheats: the PIMC hint search told every other seat's hand
    exactly (read from the game being played); only the boneyard's order stays
    unknown, drawn anew in each of the default number of worlds, and the other
    seats are searched as perfect players. It measures what knowing the hands is
    worth to this search (the issue's second row)."""
    from fiveup_solver import hint as _hint_module
    if len(obs.legal_moves) == 1:
        return obs.legal_moves[0]
    core = _TABLE["game"].current.core
    hands = [sum(1 << t for t in core.hand(s)) for s in range(obs.players)]
    boneyard = list(core.boneyard_left)
    seed = rng.getrandbits(63)
    shuffle = random.Random(seed)

    def told_plan(ww, n, _seed, check=None):
        worlds = []
        for k in range(n):
            order = boneyard[:]
            shuffle.shuffle(order)
            worlds.append((k, hands, order, 0))
        return worlds, None

    saved = _hint_module.search_plan
    _hint_module.search_plan = told_plan
    try:
        return _hint_module.hint(obs, seed=seed, both=False, beliefs="model").best
    finally:
        _hint_module.search_plan = saved


# registered here, at import, so that worker processes know them too
_bots.BOTS.setdefault("hint-noisy", _noisy_hint_bot)
_bots.BOTS.setdefault("hint-told-greedy", _told_greedy_bot())
_bots.BOTS.setdefault("hint-told-hand", _told_hand_bot)

SUITE = [  # (players, bot, other, pairs as a share of --pairs): --pairs 1000 gives the table of docs/results/beliefs.md
    (2, "hint-model", "greedy", 1.0),
    (2, "hint-uniform", "greedy", 1.0),            # the baseline, on the same deals
    (2, "hint-model", "hint-uniform", 0.25),
    (2, "hint-model", "random", 0.1),
    (2, "hint-model", "expectimax-uniform", 0.1),
    (2, "hint-model", "hint-noisy", 0.15),
    (4, "hint-model", "greedy", 0.5),
    (4, "hint-uniform", "greedy", 0.5),
    (3, "hint-model", "greedy", 0.5),
    (3, "hint-uniform", "greedy", 0.5),
    (2, "hint-told-greedy", "greedy", 0.5),       # yardsticks: the opponent's policy told,
    (2, "hint-told-hand", "greedy", 0.5),         # and its hand told (a cheat)
]


def _remember_game(game, move, events):
    _TABLE["game"] = game


def _play(job):
    players, bot, other, index, deal_seed, bot_seed = job
    t = time.perf_counter()
    scores = []
    # BOT's side in seating k is k: 2 and 4 players swap the sides, 3 put BOT in seat k
    for k, seats in enumerate(match_seatings(players, bot, other)):
        game = play_game(players, deal_seed, seats, bot_seed=bot_seed, on_action=_remember_game)
        scores.append(0.5 if game.winner is None else float(game.winner == k))
    return {"index": index, "scores": scores, "seconds": round(time.perf_counter() - t, 3)}


def _init_worker():
    from fiveup_solver import hint
    hint._default = hint.Hinter(threads=1)   # one search thread per process: the workers fill the cores


def run(players: int, bot: str, other: str, pairs: int, seed: int, workers: int, out: str, progress=True) -> None:
    """Play the pairs (or triples) of indices 0..pairs-1 not yet in `out`, appending each."""
    _bots.bot_function(bot)
    _bots.bot_function(other)
    done = {r["index"] for r in journal(out)} if os.path.exists(out) else set()
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


def journal(path: str) -> list:
    """The rows of a journal: {"index": int, "scores": [numbers], ...} per line."""
    rows = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                ok = (isinstance(row.get("index"), int) and isinstance(row.get("scores"), list)
                      and row["scores"] and all(x in (0, 0.5, 1) for x in row["scores"]))
            except (ValueError, AttributeError):
                ok = False
            if not ok:
                raise OptionError(f"{path}, line {n}: not a journal line ({line.strip()[:60]!r})")
            rows.append(row)
    return rows


def report(players: int, out: str) -> dict:
    """Win rate (Wilson 95 %), mean score per pair with its 95 % interval, Elo and interval."""
    rows = journal(out)
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


def paired(out: str, other_out: str) -> dict:
    """BOT's mean score per game in `out` minus that in `other_out`, over the pair
    (or triple) indices both journals hold, with its 95 % interval from the
    per-pair differences (the same deals on both sides cancel most of the luck)."""
    a, b = ({r["index"]: r["scores"] for r in journal(path)} for path in (out, other_out))
    common = sorted(set(a) & set(b))
    diffs = [sum(a[k]) / len(a[k]) - sum(b[k]) / len(b[k]) for k in common]
    n = len(diffs)
    mean = sum(diffs) / n if n else 0.0
    half = 1.96 * math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n) if n > 1 else float("nan")
    return {"pairs": n, "difference": mean, "difference_ci95": [mean - half, mean + half], "other_file": other_out}


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
            f"[{s['score_ci95'][0]:.3f}, {s['score_ci95'][1]:.3f}]; Elo {_elo(s['elo'], s['score'])} "
            f"[{_elo(s['elo_ci95'][0], 0.0)}, {_elo(s['elo_ci95'][1], 1.0)}]; {s['seconds_per_game']:.1f} s/game")


def _elo(x, score) -> str:
    """An Elo difference as text; None (PairStats.to_dict's infinite Elo, of a score of
    0 or 1) as -inf or +inf."""
    return f"{x:+.0f}" if x is not None else ("+inf" if score >= 0.5 else "-inf")


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
    ap.add_argument("--paired-with", default=None, metavar="FILE",
                    help="also report the paired difference against this journal (same --seed)")
    args = ap.parse_args(argv)
    if args.paired_with is not None and not os.path.isfile(args.paired_with):
        ap.error(f"--paired-with: no journal at {args.paired_with}")
    if args.suite:
        matchups = [(p, b, o, max(1, round(share * args.pairs))) for p, b, o, share in SUITE]
    else:
        bot, _, other = args.bots.partition(",")
        if not other or args.out is None:
            ap.error("give --bots BOT,OTHER and --out FILE, or --suite")
        matchups = [(args.players, bot, other, args.pairs)]
    try:
        for players, bot, other, pairs in matchups:
            _run_matchup(args, players, bot, other, pairs)
    except OptionError as e:
        # a bad bot name or a journal that is not ours: one line, no traceback
        print(f"beliefs_match.py: error: {e}"[:400], file=sys.stderr)
        return 2
    return 0


def _run_matchup(args, players, bot, other, pairs) -> None:
    out = args.out or os.path.join(args.out_dir, f"{bot}_vs_{other}_{players}p.jsonl")
    if not args.report_only:
        run(players, bot, other, pairs, args.seed, args.workers, out)
    if not os.path.exists(out):
        return
    s = report(players, out)
    s.update(bot=bot, other=other, file=out)
    print(json.dumps(s))
    print(_line(bot, other, s), file=sys.stderr)
    if args.paired_with:
        d = paired(out, args.paired_with)
        print(json.dumps({"paired": d}))
        print(f"  paired with {args.paired_with} on {d['pairs']} common pairs: "
              f"{100 * d['difference']:+.1f} points [{100 * d['difference_ci95'][0]:+.1f}, "
              f"{100 * d['difference_ci95'][1]:+.1f}]", file=sys.stderr)


if __name__ == "__main__":
    raise SystemExit(main())
