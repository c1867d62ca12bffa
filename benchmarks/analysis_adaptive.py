"""The adaptive search judge against the fixed one: agreement and worlds searched.

    python benchmarks/analysis_adaptive.py --games 2:8,4:4,3:1 [--first-seed 200] [--min-samples 24]
        [--journal benchmarks/results/analysis_adaptive.jsonl] [--seed-check]

For each seeded game (the hint bot against greedy, as ``benchmarks/analysis_speed.py``
plays them: seeds ``first-seed``, ``first-seed + 1``, ...), every seat is analysed
twice with the analysis seed 1: the fixed judge (``min_samples == samples``, today's
judge) and the adaptive one (``AnalysisBudget(min_samples=...)``; the default when
not given). Per judged decision: the same mark, the same best move, |loss
difference| (win-% points), the worlds the adaptive judge searched; the decisions
whose mark or best move differ are listed. ``--seed-check`` also runs the fixed
judge with the analysis seed 2: how often the fixed judge's own mark changes with
the seed (the noise the adaptive judge's disagreement compares with).

``--planted JOURNAL`` (``benchmarks/planted_errors.py``'s journal): its planted
errors (refused exact 305s, small credit losses) are rebuilt and judged by both
judges too, listed one per line.

One line per game is appended to the journal as it finishes (a rerun skips the
games already there); the summary table is printed at the end from the journal.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time

from fiveup_solver.analysis import AnalysisBudget, analyze
from fiveup_solver.selfplay import play_game

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from resumable import finished  # noqa: E402


def _judgements(a) -> list:
    return [d for d in a.decisions if not d.forced]


def measure(players: int, seed: int, adaptive: AnalysisBudget, seed_check: bool) -> dict:
    bots = ["hint", "greedy"] * (players // 2) if players != 3 else ["hint", "greedy", "greedy"]
    record = play_game(players, seed, bots).to_record()
    fixed = dataclasses.replace(adaptive, min_samples=adaptive.samples)
    t = time.perf_counter()
    af = analyze(record, budget=fixed, seed=1)
    fixed_s = time.perf_counter() - t
    t = time.perf_counter()
    aa = analyze(record, budget=adaptive, seed=1)
    adaptive_s = time.perf_counter() - t
    pairs = list(zip(_judgements(af), _judgements(aa)))
    differ = []
    for f, a in pairs:
        if f.mark != a.mark or f.best != a.best:
            differ.append({"round": f.round, "action": f.action, "seat": f.seat, "played": f.played,
                           "fixed": [f.mark, f.best, f.loss_win, f.stderr_win],
                           "adaptive": [a.mark, a.best, a.loss_win, a.stderr_win, a.worlds]})
    row = {"players": players, "seed": seed, "rounds": len(record["rounds"]), "judged": len(pairs),
           "min_samples": adaptive.first_stage, "samples": adaptive.samples,
           "same_mark": sum(1 for f, a in pairs if f.mark == a.mark),
           "same_best": sum(1 for f, a in pairs if f.best == a.best),
           "marked_fixed": sum(1 for f, _ in pairs if f.mark), "marked_adaptive": sum(1 for _, a in pairs if a.mark),
           "loss_diff_sum": round(sum(abs(f.loss_win - a.loss_win) for f, a in pairs), 3),
           "worlds_fixed": sum(f.worlds for f, _ in pairs), "worlds_adaptive": sum(a.worlds for _, a in pairs),
           "stopped_first": sum(1 for _, a in pairs if a.worlds <= adaptive.first_stage),
           "seconds_fixed": round(fixed_s, 2), "seconds_adaptive": round(adaptive_s, 2), "differ": differ}
    if seed_check:
        a2 = analyze(record, budget=fixed, seed=2)
        row["fixed_seed2_same_mark"] = sum(1 for f, g in zip(_judgements(af), _judgements(a2)) if f.mark == g.mark)
        row["fixed_seed2_same_best"] = sum(1 for f, g in zip(_judgements(af), _judgements(a2)) if f.best == g.best)
    return row


def summary(rows: list) -> str:
    lines = ["| players | games | judged | same mark | same best | marked fixed / adaptive | mean abs loss diff "
             "(win-%) | worlds per decision fixed / adaptive | stopped at the first stage | seconds fixed / "
             "adaptive | fixed seed 1 v 2: same mark | fixed seed 1 v 2: same best |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for p in sorted({r["players"] for r in rows}) + [None]:
        rs = [r for r in rows if p is None or r["players"] == p]
        j = sum(r["judged"] for r in rs)
        if not j:
            continue
        seed2 = [r for r in rs if "fixed_seed2_same_mark" in r]
        check = (f"{sum(r['fixed_seed2_same_mark'] for r in seed2)}/{sum(r['judged'] for r in seed2)} | "
                 f"{sum(r['fixed_seed2_same_best'] for r in seed2)}/{sum(r['judged'] for r in seed2)}"
                 if seed2 else "- | -")
        lines.append(
            f"| {p or 'all'} | {len(rs)} | {j} | {sum(r['same_mark'] for r in rs)} "
            f"({100 * sum(r['same_mark'] for r in rs) / j:.1f} %) | {sum(r['same_best'] for r in rs)} "
            f"({100 * sum(r['same_best'] for r in rs) / j:.1f} %) | {sum(r['marked_fixed'] for r in rs)} / "
            f"{sum(r['marked_adaptive'] for r in rs)} | {sum(r['loss_diff_sum'] for r in rs) / j:.3f} | "
            f"{sum(r['worlds_fixed'] for r in rs) / j:.1f} / {sum(r['worlds_adaptive'] for r in rs) / j:.1f} | "
            f"{100 * sum(r['stopped_first'] for r in rs) / j:.1f} % | "
            f"{sum(r['seconds_fixed'] for r in rs):.1f} / {sum(r['seconds_adaptive'] for r in rs):.1f} | {check} |")
    lines.append("")
    lines.append("decisions whose mark or best move differ (fixed: mark, best, loss, se; adaptive: the same, worlds):")
    lines.append("")        # (Markdown: a list after a line of text starts after a blank line)
    for r in rows:
        for d in r["differ"]:
            lines.append(f"- {r['players']}p game {r['seed']} round {d['round']} action {d['action']} seat "
                         f"{d['seat']} played {d['played']}: fixed {d['fixed']}, adaptive {d['adaptive']}")
    return "\n".join(lines)


def planted(journal: str, adaptive: AnalysisBudget) -> str:
    """Both judges on the planted errors of a planted_errors.py journal, one line each."""
    from fiveup_solver.analysis import judge_decision
    from planted_errors import planted_game
    fixed = dataclasses.replace(adaptive, min_samples=adaptive.samples)
    lines = ["| players | kind | seed | fixed: mark, best, loss +- se (worlds) | adaptive: the same | same mark | "
             "same best |", "|---|---|---|---|---|---|---|"]
    with open(journal) as f:
        rows = [json.loads(x) for x in f]
    for row in rows:
        record, r, i, seat, _ = planted_game(row["players"], row["kind"], row["seed"])
        assert (r, i) == (row["round"], row["action"]), row
        f_, a_ = (judge_decision(record, r, i, b, seed=1) for b in (fixed, adaptive))
        lines.append(f"| {row['players']} | {row['kind']} | {row['seed']} | {f_.mark}, {f_.best}, {f_.loss_win:.1f} "
                     f"+- {f_.stderr_win:.1f} ({f_.worlds}) | {a_.mark}, {a_.best}, {a_.loss_win:.1f} +- "
                     f"{a_.stderr_win:.1f} ({a_.worlds}) | {'yes' if f_.mark == a_.mark else 'NO'} | "
                     f"{'yes' if f_.best == a_.best else 'NO'} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="2:8,4:4,3:1", help="players:games, comma separated")
    ap.add_argument("--first-seed", type=int, default=200)
    ap.add_argument("--min-samples", type=int, default=None, help="default: AnalysisBudget's")
    ap.add_argument("--samples", type=int, default=AnalysisBudget.samples)
    ap.add_argument("--journal", default="benchmarks/results/analysis_adaptive.jsonl")
    ap.add_argument("--seed-check", action="store_true")
    ap.add_argument("--planted", default=None, help="a planted_errors.py journal: judge its planted errors (only)")
    args = ap.parse_args(argv)
    adaptive = AnalysisBudget(samples=args.samples, min_samples=args.min_samples).check()
    if args.planted:
        print(planted(args.planted, adaptive))
        return 0
    jobs = [(int(p), args.first_seed + k) for part in args.games.split(",") for p, n in [part.split(":")]
            for k in range(int(n))]
    key = lambda r: (r["players"], r["seed"], r["min_samples"], r["samples"])   # noqa: E731
    done = finished(args.journal, key)
    for players, seed in jobs:
        if (players, seed, adaptive.first_stage, adaptive.samples) in done:
            continue
        row = measure(players, seed, adaptive, args.seed_check)
        with open(args.journal, "a") as f:
            f.write(json.dumps(row) + "\n")
        print(f"{players}p game {seed}: {row['same_mark']}/{row['judged']} same marks, worlds "
              f"{row['worlds_fixed']} -> {row['worlds_adaptive']}, {row['seconds_fixed']} -> "
              f"{row['seconds_adaptive']} s", file=sys.stderr, flush=True)
    with open(args.journal) as f:
        rows = [r for r in map(json.loads, f) if (r["players"], r["seed"]) in set(jobs)
                and r["min_samples"] == adaptive.first_stage and r["samples"] == adaptive.samples]
    print(summary(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
