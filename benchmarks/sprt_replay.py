"""Replay SPRT journals under today's statistics: where would each SPRT stop, and with what
decision, if it were run again now? (No game is played: the journal holds every unit's
scores, and a unit's scores do not depend on the statistics.)

    python benchmarks/sprt_replay.py [--elo0 0 --elo1 15 --alpha 0.05 --beta 0.05] JOURNAL ... [--json FILE]

The LLR changed on 2026-12-04 (the mean is the observed one; the half-pair pseudo-counts
stay in the variance only) and again on 2026-12-06 (the exact generalised LLR instead of
the normal approximation, docs/matches.md), so SPRTs run before then may stop at another
unit. For each journal: the units it holds, where today's SPRT decides (or "no decision"
after all of them), the LLR there, and the Elo with its interval after every unit.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from fiveup_solver.match import PairStats, format_elo, journal_lines, sprt_bounds  # noqa: E402


def replay(path: str, elo0: float, elo1: float, alpha: float, beta: float) -> dict:
    lines, _ = journal_lines(path)
    if not lines:
        raise SystemExit(f"{path}: no journal")
    header = json.loads(lines[0])
    units = [json.loads(line)["scores"] for line in lines[1:]]
    lower, upper = sprt_bounds(alpha, beta)
    sides = 3 if header["players"] == 3 else 2
    stats = PairStats(sides=sides)
    decided_at, decision, llr = None, "no decision", 0.0
    for k, scores in enumerate(units, 1):
        stats.add(scores)
        llr = stats.llr(elo0, elo1)
        if llr >= upper or llr <= lower:
            decided_at, decision = k, ("H1 accepted" if llr >= upper else "H0 accepted")
            break
    at_end = PairStats(sides=sides)
    for scores in units:
        at_end.add(scores)
    return {"journal": os.path.basename(path), "bots": f"{header['bot']} vs {header['other']}",
            "players": header["players"], "seed": header["seed"], "units": len(units),
            "decision": decision, "decided_at": decided_at, "llr": round(llr, 5),
            "bounds": [round(lower, 5), round(upper, 5)],
            "elo_all_units": [format_elo(x, 1, sides) for x in (at_end.elo, *at_end.elo_interval())],
            "llr_all_units": round(at_end.llr(elo0, elo1), 5)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("journals", nargs="+")
    ap.add_argument("--elo0", type=float, default=0.0)
    ap.add_argument("--elo1", type=float, default=15.0)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--json", default=None, help="also write the results here")
    args = ap.parse_args()
    rows = [replay(p, args.elo0, args.elo1, args.alpha, args.beta) for p in args.journals]
    print("| journal | bots | units in it | today's SPRT | at unit | LLR there | Elo over all units |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        e = r["elo_all_units"]
        print(f"| `{r['journal']}` | {r['bots']} ({r['players']} players) | {r['units']:,} | {r['decision']} | "
              f"{r['decided_at'] or '-'} | {r['llr']:+.4f} | {e[0]} [{e[1]}, {e[2]}] |")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"elo0": args.elo0, "elo1": args.elo1, "alpha": args.alpha, "beta": args.beta,
                       "journals": rows}, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
