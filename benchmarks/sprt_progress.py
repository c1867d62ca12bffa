"""Where an unfinished SPRT got to: its pentanomial counts, score and Elo with a 95 % interval,
rebuilt from the progress lines of ``fiveup sprt --every 1`` (an SPRT stopped before a
decision prints no summary).

Each line holds the cumulative score after that pair; the difference between two
lines times the games is the pair's score (0, 0.5, 1, 1.5 or 2 of 2 games). The
score is printed with 3 decimals, which pins each pair's score down while fewer
than 250 pairs have been played; the rebuilt LLR is checked against the log's.

    python benchmarks/sprt_progress.py benchmarks/results/sprt_alphamu_2p.log --elo0 0 --elo1 15

``--journal FILE --bots BOT,OTHER --seed S``: write the rebuilt units as a journal of
``fiveup sprt --journal`` (:func:`fiveup_solver.match.read_journal`), so that the SPRT
resumes after its last logged pair. A pair's total is exact; which of its two games
scored is not in the log (a total of 1 is written as [1, 0], 1.5 as [1, 0.5]), which
the SPRT, the score and the Elo do not read.
"""
from __future__ import annotations

import argparse
import json
import re
import sys

from fiveup_solver.match import PairStats

LINE = re.compile(r"pairs\s+(\d+)\s+games\s+(\d+)\s+score\s+([0-9.]+)\s+Elo\s+\S+\s+LLR\s+([-+0-9.]+)")
HALVES = {0: [0, 0], 1: [0.5, 0], 2: [1, 0], 3: [1, 0.5], 4: [1, 1]}


def rebuild(lines) -> tuple:
    """(PairStats, the last logged LLR, the units' scores in order) from the progress lines."""
    stats, before, last_llr, units = PairStats(), 0.0, None, []
    for line in lines:
        m = LINE.search(line)
        if not m:
            continue
        pairs, games, score, llr = int(m.group(1)), int(m.group(2)), float(m.group(3)), float(m.group(4))
        if pairs != stats.pairs + 1:
            raise SystemExit(f"pair {pairs} follows pair {stats.pairs}: the log needs --every 1")
        total = score * games
        halves = round(2 * (total - before))
        if not 0 <= halves <= 4 or abs(total - before - halves / 2) > 0.24:
            raise SystemExit(f"pair {pairs}: cannot rebuild its score from the log (too many pairs?)")
        stats.add(HALVES[halves])
        units.append(HALVES[halves])
        before += halves / 2
        last_llr = llr
    return stats, last_llr, units


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("log")
    ap.add_argument("--elo0", type=float, default=0.0)
    ap.add_argument("--elo1", type=float, default=15.0)
    ap.add_argument("--journal", default=None, help="write the rebuilt units as an SPRT journal")
    ap.add_argument("--bots", default=None, help="BOT,OTHER of the logged SPRT (with --journal)")
    ap.add_argument("--seed", type=int, default=0, help="the logged SPRT's seed (with --journal)")
    ap.add_argument("--players", type=int, default=2)
    args = ap.parse_args(argv)
    stats, logged, units = rebuild(open(args.log))
    if not stats.pairs:
        raise SystemExit("no progress lines in the log")
    llr = stats.llr(args.elo0, args.elo1)
    if logged is not None and abs(llr - logged) > 0.002:
        raise SystemExit(f"the rebuilt LLR {llr:+.3f} differs from the log's {logged:+.3f}")
    lo, hi = stats.interval()
    elo_lo, elo_hi = stats.elo_interval()
    print(f"pairs {stats.pairs}, games {stats.games}, pentanomial {stats.counts}, score {stats.score:.4f} "
          f"[{lo:.4f}, {hi:.4f}], Elo {stats.elo:+.1f} [{elo_lo:+.1f}, {elo_hi:+.1f}], LLR {llr:+.3f}")
    if args.journal:
        if not args.bots or args.bots.count(",") != 1:
            raise SystemExit("--journal needs --bots BOT,OTHER")
        bot, other = args.bots.split(",")
        with open(args.journal, "x", encoding="utf-8") as f:
            f.write(json.dumps({"players": args.players, "bot": bot, "other": other, "seed": args.seed}) + "\n")
            for k, scores in enumerate(units):
                f.write(json.dumps({"index": k, "scores": scores}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
