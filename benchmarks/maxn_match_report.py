"""Strength of max^n against paranoid with 3 players, from two duplicate-match journals.

The journals are those of benchmarks/duplicate_match.py on the same deal seeds:

    nice -n 10 python benchmarks/duplicate_match.py --players 3 --bots hint-maxn,hint-paranoid \\
        --deals 100 --seed 2026 --workers 1 --out benchmarks/results/maxn_vs_paranoid_3p.jsonl
    nice -n 10 python benchmarks/duplicate_match.py --players 3 --bots hint-paranoid,hint-maxn \\
        --deals 100 --seed 2026 --workers 1 --out benchmarks/results/paranoid_vs_maxn_3p.jsonl
    python benchmarks/maxn_match_report.py

In the first, one max^n seat plays two paranoid seats (each seat in turn, the
same deals: three games a deal); in the second one paranoid seat plays two
max^n seats. A fair bot wins 1/3 of its games either way. Reported: each
journal's win rate with its 95 % Wilson interval; per deal (complete in the
journal: all three seatings) the lone bot's share of wins, its mean with a
95 % t-interval (the deal is the unit: its seatings share the tiles); and on
the deals complete in both journals the paired difference "max^n alone minus
paranoid alone", with its 95 % interval. Max^n is at least as strong when that
difference is not below 0 (and A's share not below 1/3).
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

RESULTS = Path(__file__).parent / "results"


def _wilson(k: int, n: int, z: float = 1.96):
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def _t975(df: int) -> float:
    table = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 8: 2.31, 10: 2.23, 15: 2.13, 20: 2.09,
             30: 2.04, 60: 2.00}
    for k in sorted(table, reverse=True):
        if df >= k:
            return table[k] if df < 120 else 1.96
    return table[1]


def _mean_ci(xs):
    n = len(xs)
    if n < 2:
        return (sum(xs) / n if n else 0.0), (float("nan"), float("nan"))
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    h = _t975(n - 1) * sd / math.sqrt(n)
    return m, (m - h, m + h)


def _load(path: Path):
    games, by_deal = [], {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            games.append(r)
            by_deal.setdefault(r["deal"], {})[r["seating"]] = r
    return games, by_deal


def summary(a_path: Path, b_path: Path) -> dict:
    out = {}
    shares = {}
    for name, path in (("maxn_alone", a_path), ("paranoid_alone", b_path)):
        games, by_deal = _load(path)
        wins = sum(1 for g in games if g["winner"] == g["bot_side"])
        unfinished = sum(1 for g in games if g["winner"] is None)
        complete = {d: rs for d, rs in by_deal.items() if len(rs) == 3}
        share = {d: sum(r["winner"] == r["bot_side"] for r in rs.values()) / 3 for d, rs in complete.items()}
        shares[name] = share
        m, ci = _mean_ci(list(share.values()))
        out[name] = {"games": len(games), "wins": wins, "unfinished": unfinished,
                     "win_rate": wins / len(games) if games else 0.0, "wilson95": _wilson(wins, len(games)),
                     "complete_deals": len(complete), "deal_share": m, "deal_share_ci95": ci,
                     "seconds_per_game": sum(g.get("seconds", 0.0) for g in games) / max(1, len(games))}
    common = sorted(set(shares["maxn_alone"]) & set(shares["paranoid_alone"]))
    diffs = [shares["maxn_alone"][d] - shares["paranoid_alone"][d] for d in common]
    m, ci = _mean_ci(diffs)
    out["paired"] = {"deals": len(common), "maxn_minus_paranoid": m, "ci95": ci}
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", default=str(RESULTS / "maxn_vs_paranoid_3p.jsonl"), help="max^n alone v two paranoid")
    ap.add_argument("--b", default=str(RESULTS / "paranoid_vs_maxn_3p.jsonl"), help="paranoid alone v two max^n")
    args = ap.parse_args(argv)
    for p in (args.a, args.b):
        if not Path(p).is_file():
            ap.error(f"no journal {p}")
    s = summary(Path(args.a), Path(args.b))
    print(json.dumps(s, indent=1))
    for name in ("maxn_alone", "paranoid_alone"):
        r = s[name]
        print(f"{name}: {r['wins']}/{r['games']} won = {100 * r['win_rate']:.1f} % "
              f"[{100 * r['wilson95'][0]:.1f}, {100 * r['wilson95'][1]:.1f}] (fair: 33.3 %); "
              f"{r['complete_deals']} complete deals, share {100 * r['deal_share']:.1f} % "
              f"[{100 * r['deal_share_ci95'][0]:.1f}, {100 * r['deal_share_ci95'][1]:.1f}]", file=sys.stderr)
    p = s["paired"]
    print(f"paired over {p['deals']} deals: max^n alone minus paranoid alone {100 * p['maxn_minus_paranoid']:+.1f} "
          f"win-% points [{100 * p['ci95'][0]:+.1f}, {100 * p['ci95'][1]:+.1f}]", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
