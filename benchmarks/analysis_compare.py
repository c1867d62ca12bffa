"""Whole-game analysis at the default budget, two builds in one run (fresh processes, interleaved).

    python benchmarks/analysis_compare.py --baseline /work/wt-speed-base [--current .] [--players 2,4]
        [--games 1] [--reps 1] [--out benchmarks/results/analysis_compare.json]

For each seeded game (``benchmarks/analysis_speed.py``'s games: the hint bot
against greedy, seed 100 + k), each build analyses every seat once per
repetition (``analyze(record, seed=1)``, ``AnalysisBudget()``), baseline then
current, each in a fresh interpreter with ``PYTHONPATH`` at its tree. Reported:
seconds (median over repetitions), the ratio current/baseline, each process's
peak resident memory, and whether every decision's mark, best move and losses are
identical between the builds (and, apart, the double-dummy judgements) (the game itself is played once, by the current build).

``--fixed``: the current build also runs with ``min_samples == samples`` (its fixed
search judge, in the same interleaving): its judgements must equal the baseline's
value for value. When the current build's judge is adaptive, the marks and best
moves are compared apart from the losses (a stopped decision's loss is that of
fewer worlds), and the worlds searched per game are reported (``Decision.worlds``,
the builds that have it).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

WORKER = r"""
import json, resource, sys, time
from fiveup_solver.analysis import AnalysisBudget, analyze
record = json.load(open(sys.argv[1]))
budget = AnalysisBudget()
if sys.argv[2:] == ["fixed"]:
    budget = AnalysisBudget(min_samples=budget.samples)
t = time.perf_counter()
a = analyze(record, budget=budget, seed=1)
seconds = time.perf_counter() - t
print(json.dumps({"seconds": seconds, "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "decisions": [[d.round, d.action, d.seat, d.forced, d.mark, d.best, d.loss_win, d.loss_points]
                                for d in a.decisions],
                  "double_dummy": [[d.dd_best, d.dd_loss_win] for d in a.decisions],
                  "worlds": sum(getattr(d, "worlds", None) or 0 for d in a.decisions)}))
"""

PLAY = r"""
import json, sys
from fiveup_solver.selfplay import play_game
players, seed = int(sys.argv[1]), int(sys.argv[2])
bots = ["hint", "greedy"] * (players // 2) if players != 3 else ["hint", "greedy", "greedy"]
print(json.dumps(play_game(players, seed, bots).to_record()))
"""


def run(tree: Path, argv: list) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run([sys.executable, "-c", *argv], cwd=tree, env=env, capture_output=True, text=True,
                          timeout=3600)
    if proc.returncode != 0:
        raise SystemExit(f"{tree}: failed: {proc.stderr.strip()[-400:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    here = Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", required=True)
    ap.add_argument("--current", default=str(here))
    ap.add_argument("--players", default="2,4")
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--out", default=None)
    ap.add_argument("--fixed", action="store_true", help="also run the current build's fixed judge")
    args = ap.parse_args(argv)
    trees = {"baseline": Path(args.baseline).resolve(), "current": Path(args.current).resolve()}
    modes = {"baseline": [], "current": []}
    if args.fixed:
        trees["fixed"] = trees["current"]
        modes["fixed"] = ["fixed"]
    tmp = tempfile.TemporaryDirectory(prefix="fiveup-analysis-")
    rows = []
    for players in (int(p) for p in args.players.split(",")):
        for k in range(args.games):
            record = run(trees["current"], [PLAY, str(players), str(100 + k)])
            path = Path(tmp.name) / f"game_{players}p_{k}.json"
            path.write_text(json.dumps(record))
            runs = {name: [] for name in trees}
            for _ in range(args.reps):
                for name, tree in trees.items():
                    runs[name].append(run(tree, [WORKER, str(path), *modes[name]]))
                    print(f"{players}p game {k} {name}: {runs[name][-1]['seconds']:.1f} s", file=sys.stderr, flush=True)
            sec = {name: statistics.median(r["seconds"] for r in rs) for name, rs in runs.items()}
            base = runs["baseline"][0]["decisions"]
            # [round, action, seat, forced, mark, best, ...]: the marks and best moves alone
            marks_best = lambda ds: [d[:6] for d in ds]   # noqa: E731
            rows.append({"players": players, "seed": 100 + k, "rounds": len(record["rounds"]),
                         "judged": sum(1 for d in runs["current"][0]["decisions"] if not d[3]),
                         "seconds": {n: round(s, 2) for n, s in sec.items()},
                         "ratio": round(sec["current"] / sec["baseline"], 3),
                         "ratios": {n: round(sec[n] / sec["baseline"], 3) for n in sec},
                         "worlds": {n: rs[0]["worlds"] for n, rs in runs.items()},
                         "same_marks": [sum(1 for a, b in zip(r["decisions"], base) if not a[3] and a[4] == b[4])
                                        for r in runs["current"]],
                         "same_best": [sum(1 for a, b in zip(r["decisions"], base) if not a[3] and a[5] == b[5])
                                       for r in runs["current"]],
                         "same_marks_and_best": all(marks_best(r["decisions"]) == marks_best(base)
                                                    for r in runs["baseline"] + runs["current"]),
                         "fixed_same_judgements": (all(r["decisions"] == base for r in runs["fixed"])
                                                   if "fixed" in runs else None),
                         "max_rss_mb": {n: round(max(r["max_rss_mb"] for r in rs), 1) for n, rs in runs.items()},
                         "same_judgements": all(r["decisions"] == base for r in runs["baseline"] + runs["current"]),
                         "same_double_dummy": all(r["double_dummy"] == runs["baseline"][0]["double_dummy"]
                                                  for rs in runs.values() for r in rs)})
    tmp.cleanup()
    names = list(trees)
    print("| players | seed | rounds | judged | " + " | ".join(f"{n} s" for n in names) + " | "
          + " | ".join(f"{n}/baseline" for n in names[1:]) + " | worlds searched (" + " / ".join(names[1:])
          + ") | same marks (current) | same best moves (current) | same marks, best moves, losses "
          "| fixed judge value for value | same double-dummy judgements | peak RSS MB |")
    print("|" + "---|" * (10 + 2 * len(names)))
    yes = lambda x: "-" if x is None else ("yes" if x else "NO")   # noqa: E731
    for r in rows:
        print(f"| {r['players']} | {r['seed']} | {r['rounds']} | {r['judged']} | "
              + " | ".join(str(r['seconds'][n]) for n in names) + " | "
              + " | ".join(str(r['ratios'][n]) for n in names[1:]) + " | "
              + " / ".join(f"{r['worlds'][n]:,}" for n in names[1:])
              + f" | {'/'.join(map(str, r['same_marks']))} of {r['judged']} | "
              f"{'/'.join(map(str, r['same_best']))} of {r['judged']} | {yes(r['same_judgements'])} | "
              f"{yes(r['fixed_same_judgements'])} | {yes(r['same_double_dummy'])} | "
              + " / ".join(str(r['max_rss_mb'][n]) for n in names) + " |")
    if args.out:
        Path(args.out).write_text(json.dumps({"reps": args.reps, "games": rows}, indent=1))
    return 0 if all(r["same_marks_and_best"] if not args.fixed else r["fixed_same_judgements"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
