"""The bot levels' steps at 3 players: each level against the level below it, on duplicate
triples (``fiveup match --players 3``: the stronger level alone in each seat against two of
the weaker, every triple's deals played from the three seatings).

    python benchmarks/levels_3p_steps.py [TRIPLES] [--out FILE]

The 2- and 4-player ladders (docs/levels.md) are of duplicate pairs; a 3-player game has no
two sides, so this measures only the steps, each an Elo of a field of three (the match's
Plackett-Luce fit, match.PairStats) with its 95 % interval over the triples. TRIPLES (200)
per step, seed 3 + the step's index, one worker. The result goes to FILE
(benchmarks/results/levels_3p_steps.json) after each step; a step already there is kept,
so a stopped run goes on where it stopped.
"""
import argparse
import json
import os
import time

from fiveup_solver.match import PairStats, play_pairs, sides_of

STEPS = [(f"level{k + 1}", f"level{k}") for k in range(1, 8)]
OUT = os.path.join(os.path.dirname(__file__), "results", "levels_3p_steps.json")


def step(bot: str, other: str, triples: int, seed: int) -> dict:
    stats = PairStats(sides=sides_of(3))
    start = time.process_time()
    units = play_pairs(3, bot, other, seed, workers=1, max_pairs=triples)
    try:
        for _, scores, _ in units:
            stats.add(scores)
    finally:
        units.close()
    lo, hi = stats.elo_interval()
    return {"bot": bot, "other": other, "triples": triples, "seed": seed, "games": stats.games,
            "wins": stats.wins, "elo": stats.elo, "elo_ci95": [lo, hi], "cpu_s": round(time.process_time() - start, 1),
            "line": stats.format_elo(bot), "pairs": stats.to_dict()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("triples", nargs="?", type=int, default=200)
    ap.add_argument("--out", default=OUT)
    args = ap.parse_args()
    done = {}
    if os.path.exists(args.out):
        with open(args.out, encoding="utf-8") as f:
            done = {(r["bot"], r["other"]): r for r in json.load(f)["steps"]}
    rows = []
    for i, (bot, other) in enumerate(STEPS):
        row = done.get((bot, other))
        if row is None or row["triples"] != args.triples:
            row = step(bot, other, args.triples, 3 + i)
        rows.append(row)
        print(f"{bot} vs {other}: {row['line']} ({row['cpu_s']} s CPU)", flush=True)
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump({"players": 3, "triples": args.triples, "steps": rows + [done[s] for s in STEPS[i + 1:]
                                                                           if s in done]}, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
