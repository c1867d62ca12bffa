"""Calibration of the race-equity tables against real games.

For each of a fixed set of score states (scores and starter), play seeded
games of default hint-bot self-play started there, and compare side 0's
observed win rate (95% Wilson interval) with the table's W. Also the Brier
score of W against a naive points-only predictor (each side's chance in
proportion to 1 / its distance to 305: with two sides, the other side's distance
over both distances), and a reliability plot (PNG).

Games are appended to a JSON Lines file as they finish, so a run can stop and
resume (same --out, same seed). Workers are processes with one search thread
each (two processes use both cores better than one with two threads).

    python benchmarks/equity_calibration.py --players 2 --games 400 --workers 2 \
        --out benchmarks/results/calibration_2p.jsonl --plot benchmarks/results/calibration_2p.png
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time

from resumable import finished, run_jobs

from fiveup_solver.equity import RoundSamples, build_table, load_table, samples_path
from fiveup_solver.selfplay import play_game, wilson_interval

LEVELS_A = (0, 75, 150, 225, 270, 295)
LEVELS_B = (0, 100, 200, 260, 300)


def states(players: int) -> list:
    """30 states across the table: side 0's score x side 1's (x side 2's = side 1's for 3
    players), the starter alternating between seat 0 and seat 1."""
    out = []
    for i, a in enumerate(LEVELS_A):
        for j, b in enumerate(LEVELS_B):
            scores = [a, b] if players != 3 else [a, b, LEVELS_B[(j + 2) % len(LEVELS_B)]]
            out.append((scores, (i + j) % 2))
    return out


def _play(job):
    players, state_index, scores, starter, game_index, seed, bot = job
    game_seed = random.Random(f"calibration/{players}/{seed}/{state_index}/{game_index}").getrandbits(63)
    game = play_game(players, game_seed, [bot] * players, scores=scores, starter=starter)
    return {"state": state_index, "game": game_index, "scores": scores, "starter": starter,
            "winner": game.winner, "rounds": len(game.rounds)}


def run(players: int, games: int, seed: int, workers: int, out: str, bot: str, progress: bool = True) -> None:
    done = finished(out, lambda r: (r["state"], r["game"]))
    jobs = [(players, k, scores, starter, g, seed, bot)
            for g in range(games) for k, (scores, starter) in enumerate(states(players))
            if (k, g) not in done]
    run_jobs(_play, jobs, out, workers, f"calibration {players}p", progress)


def naive(scores) -> float:
    """Points only: each side's chance in proportion to 1 / (its distance to 305); with two
    sides that is the other side's distance over both distances."""
    inverse = [1.0 / (305 - s) for s in scores]
    return inverse[0] / sum(inverse)


def report(players: int, out: str, plot: str | None = None) -> dict:
    table = load_table(players)
    # the same table without its near-target sets (0 : 0 rounds everywhere): what they add
    zero_only = build_table(RoundSamples.load(samples_path(players)).zero_set())
    rows = {}
    with open(out) as f:
        for line in f:
            r = json.loads(line)
            rows.setdefault(r["state"], []).append(r)
    result, brier_w, brier_n, brier_z, n_games, unfinished = [], 0.0, 0.0, 0.0, 0, 0
    for k, (scores, starter) in enumerate(states(players)):
        rs = rows.get(k, [])
        if not rs:
            continue
        wins = sum(1 for r in rs if r["winner"] == 0)
        unfinished += sum(1 for r in rs if r["winner"] is None)
        n = len(rs)
        w = table.probabilities(scores, starter)[0]
        w_zero = zero_only.probabilities(scores, starter)[0]
        p_naive = naive(scores)
        lo, hi = wilson_interval(wins, n)
        for r in rs:
            y = 1.0 if r["winner"] == 0 else 0.0
            brier_w += (w - y) ** 2
            brier_n += (p_naive - y) ** 2
            brier_z += (w_zero - y) ** 2
        n_games += n
        result.append({"scores": scores, "starter": starter, "games": n, "wins": wins, "observed": wins / n,
                       "ci95": [lo, hi], "W": w, "naive": p_naive, "inside": lo <= w <= hi,
                       "W_zero_only": w_zero, "inside_zero_only": lo <= w_zero <= hi})
    summary = {"players": players, "states": len(result), "games": n_games, "unfinished": unfinished,
               "brier_W": brier_w / max(1, n_games), "brier_naive": brier_n / max(1, n_games),
               "brier_W_zero_only": brier_z / max(1, n_games),
               "inside_ci95": sum(r["inside"] for r in result),
               "inside_ci95_zero_only": sum(r["inside_zero_only"] for r in result),
               "mean_abs_error": sum(abs(r["observed"] - r["W"]) for r in result) / max(1, len(result)),
               "table_rounds": table.rounds, "states_detail": result}
    # the share of states whose interval holds W, and a z-score check of the whole set
    chi2 = sum((r["wins"] - r["games"] * r["W"]) ** 2 / max(1e-9, r["games"] * r["W"] * (1 - r["W"]))
               for r in result)
    summary["chi2"] = chi2
    summary["chi2_dof"] = len(result)
    if plot:
        _plot(result, summary, plot)
    return summary


def _plot(result, summary, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6.4, 6.0), dpi=110)
    xs = [r["W"] for r in result]
    ys = [r["observed"] for r in result]
    err = [[r["observed"] - r["ci95"][0] for r in result], [r["ci95"][1] - r["observed"] for r in result]]
    ax.plot([0, 1], [0, 1], color="0.6", lw=1, ls="--", label="perfect calibration")
    ax.errorbar(xs, ys, yerr=err, fmt="o", ms=4, capsize=2, color="tab:blue",
                label=f"W (Brier {summary['brier_W']:.4f})")
    ax.scatter([r["naive"] for r in result], ys, marker="x", s=18, color="tab:red", alpha=0.7,
               label=f"points only (Brier {summary['brier_naive']:.4f})")
    ax.set_xlabel("predicted P(side 0 wins)")
    ax.set_ylabel("observed win rate of side 0 (95% interval)")
    ax.set_title(f"Race equity, {summary['players']} players: {summary['states']} states, "
                 f"{summary['games']:,} games")
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.legend(loc="upper left", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--games", type=int, default=400, help="games per state")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--bot", default="hint")
    ap.add_argument("--out", required=True)
    ap.add_argument("--plot", default=None)
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if not args.report_only:
        t = time.time()
        run(args.players, args.games, args.seed, args.workers, args.out, args.bot)
        print(f"played in {time.time() - t:.0f} s", file=sys.stderr)
    s = report(args.players, args.out, args.plot)
    if args.json:
        print(json.dumps(s))
        return 0
    print(f"{s['players']} players: {s['states']} states, {s['games']} games ({s['unfinished']} unfinished); "
          f"W inside the 95% interval in {s['inside_ci95']}/{s['states']}; mean |observed - W| "
          f"{s['mean_abs_error']:.3f}; Brier W {s['brier_W']:.4f} vs points-only {s['brier_naive']:.4f}; "
          f"chi2 {s['chi2']:.1f} on {s['chi2_dof']} states")
    print(f"without the near-target sets (0:0 rounds everywhere): inside {s['inside_ci95_zero_only']}/{s['states']}, "
          f"Brier {s['brier_W_zero_only']:.4f}")
    print(f"{'scores':<16} {'start':>5} {'games':>5} {'observed':>9} {'95% CI':>15} {'W':>7} {'W 0:0':>7} "
          f"{'naive':>7}")
    for r in s["states_detail"]:
        print(f"{','.join(map(str, r['scores'])):<16} {r['starter']:>5} {r['games']:>5} {r['observed']:>9.3f} "
              f"  [{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}] {r['W']:>7.3f} {r['W_zero_only']:>7.3f} "
              f"{r['naive']:>7.3f}{'' if r['inside'] else '  *'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
