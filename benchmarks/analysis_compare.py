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
t = time.perf_counter()
a = analyze(record, budget=AnalysisBudget(), seed=1)
seconds = time.perf_counter() - t
print(json.dumps({"seconds": seconds, "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "decisions": [[d.round, d.action, d.seat, d.forced, d.mark, d.best, d.loss_win, d.loss_points]
                                for d in a.decisions],
                  "double_dummy": [[d.dd_best, d.dd_loss_win] for d in a.decisions]}))
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
    args = ap.parse_args(argv)
    trees = {"baseline": Path(args.baseline).resolve(), "current": Path(args.current).resolve()}
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
                    runs[name].append(run(tree, [WORKER, str(path)]))
                    print(f"{players}p game {k} {name}: {runs[name][-1]['seconds']:.1f} s", file=sys.stderr, flush=True)
            sec = {name: statistics.median(r["seconds"] for r in rs) for name, rs in runs.items()}
            rows.append({"players": players, "seed": 100 + k, "rounds": len(record["rounds"]),
                         "judged": sum(1 for d in runs["current"][0]["decisions"] if not d[3]),
                         "seconds": {n: round(s, 2) for n, s in sec.items()},
                         "ratio": round(sec["current"] / sec["baseline"], 3),
                         "max_rss_mb": {n: round(max(r["max_rss_mb"] for r in rs), 1) for n, rs in runs.items()},
                         "same_judgements": all(r["decisions"] == runs["baseline"][0]["decisions"]
                                                for rs in runs.values() for r in rs),
                         "same_double_dummy": all(r["double_dummy"] == runs["baseline"][0]["double_dummy"]
                                                  for rs in runs.values() for r in rs)})
    tmp.cleanup()
    print("| players | seed | rounds | baseline s | current s | current/baseline | peak RSS MB (base / cur) "
          "| same marks, best moves, losses | same double-dummy judgements |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['players']} | {r['seed']} | {r['rounds']} | {r['seconds']['baseline']} | {r['seconds']['current']} "
              f"| {r['ratio']} | {r['max_rss_mb']['baseline']} / {r['max_rss_mb']['current']} "
              f"| {'yes' if r['same_judgements'] else 'NO'} | {'yes' if r['same_double_dummy'] else 'NO'} |")
    if args.out:
        Path(args.out).write_text(json.dumps({"reps": args.reps, "games": rows}, indent=1))
    return 0 if all(r["same_judgements"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
