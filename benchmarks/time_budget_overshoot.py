"""How far hints with a time budget run over it, with one currency and with both.

    python benchmarks/time_budget_overshoot.py [--time-ms 50] [--json FILE]

Positions: 2- and 4-player games (seeds 0-29), greedy play for seed % 9 actions,
those with at least two legal moves. Each is hinted with ``time_ms`` on a reused
``Hinter()`` (2 threads), for each of both=True/False and model/uniform beliefs; the
overshoot is the call's wall time less the budget. With both currencies the report
also gives the share of the draws the second currency covered
(``budget["second_currency_searches"]``, where the build reports it); every row keeps
each position's draws of the first currency (``Hint.samples``).
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

from fiveup_solver import Game
from fiveup_solver.bots import choose
from fiveup_solver.hint import Hinter


def positions() -> list:
    out = []
    for players in (2, 4):
        for seed in range(30):
            g, rng = Game(players=players, seed=seed), random.Random(seed)
            for _ in range(seed % 9):
                g.push(choose("greedy", g.observation(g.to_move), rng))
            obs = g.observation(g.to_move)
            if len(obs.legal_moves) >= 2:
                out.append(obs)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time-ms", type=float, default=50.0)
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    budget = args.time_ms
    hinter = Hinter()
    obs_list = positions()
    hinter.hint(obs_list[0], samples=4)     # the tables loaded, the threads started once
    rows = []
    for both in (True, False):
        for beliefs in ("model", "uniform"):
            for players in (2, 4):
                over, cover, draws = [], [], []
                for obs in (o for o in obs_list if o.players == players):
                    t0 = time.perf_counter()
                    h = hinter.hint(obs, time_ms=budget, beliefs=beliefs, seed=1, both=both)
                    over.append(1000 * (time.perf_counter() - t0) - budget)
                    draws.append(h.samples)
                    if both and "second_currency_searches" in h.budget:
                        cover.append(h.budget["second_currency_searches"] / h.samples)
                over.sort()
                row = {"both": both, "beliefs": beliefs, "players": players, "positions": len(over),
                       "median_ms": statistics.median(over), "p90_ms": over[int(0.9 * len(over))],
                       "max_ms": over[-1], "overshoot_ms": over, "first_currency_draws": draws}
                if cover:
                    row["second_currency_cover_median"] = statistics.median(cover)
                    row["second_currency_cover_min"] = min(cover)
                rows.append(row)
                extra = (f"; the second currency covered a median {row['second_currency_cover_median']:.2f} "
                         f"of the draws (min {row['second_currency_cover_min']:.2f})" if cover else "")
                print(f"both={str(both):5s} {beliefs:7s} {players} players ({len(over)} positions): over by a median "
                      f"{row['median_ms']:.1f} ms, p90 {row['p90_ms']:.1f}, max {row['max_ms']:.1f}{extra}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"time_ms": budget, "rows": rows}, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
