"""Time of max^n against paranoid with 3 players, in the same run (issue 21, item 3).

Two suites, both the 3-player positions of the committed seeded suites:

Positions where the seat to move has a single legal move are left out.

* ``solve``: benchmarks/data/midround.json, every move of the seat to move
  solved exactly (``Solver(objective, both=False, pv=False)``, table cleared
  before each solve);
* ``solve2``: the same solves on benchmarks/data/hint_positions.json (earlier
  in the round, harder), each under a limit of 5,000,000 nodes: the timing
  report keeps the positions both searches solved exactly and counts the
  others;
* ``hint``: benchmarks/data/hint_positions.json, one hint for the seat to move
  at the default budget (48 worlds, 20,000 nodes per world, model beliefs, win
  objective), one thread, seed = the position's index.

Each position is timed under both searches one right after the other, the
order alternating from position to position, so that the load of the machine
weighs on both alike. One journal line per (suite, position, search):
seconds, nodes, best move(s). The report gives the median and 95th percentile
of each search, the ratio of the medians, and the median of the per-position
ratios with a 95 % bootstrap interval (seeded), plus how often the best moves
differ.

    nice -n 10 python benchmarks/maxn_speed.py --out benchmarks/results/maxn_speed.jsonl
    python benchmarks/maxn_speed.py --out benchmarks/results/maxn_speed.jsonl --report-only
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

DATA = Path(__file__).parent / "data"
SEARCHES = ("paranoid", "maxn")
SOLVE2_NODES = 5_000_000


def _positions(suite: str):
    from fiveup_solver.bench import load_suite
    name = {"solve": "midround", "solve2": "hint_positions", "hint": "hint_positions"}[suite]
    raw = json.loads((DATA / f"{name}.json").read_text())
    games = load_suite(DATA / f"{name}.json")
    return [(i, g, raw[i]) for i, g in enumerate(games) if g.players == 3]


def _done(out: str) -> set:
    if not os.path.exists(out):
        return set()
    with open(out, encoding="utf-8") as f:
        return {(r["suite"], r["index"], r["search"]) for r in map(json.loads, f)}


def run(out: str, suites, limit: int, objective: str) -> None:
    from fiveup_solver.hint import Hinter
    from fiveup_solver.solver import Solver
    done = _done(out)
    solvers = {s: Solver(tt_mb=64, objective=objective, both=False, pv=False, search=s) for s in SEARCHES}
    limited = {s: Solver(tt_mb=64, objective=objective, both=False, pv=False, search=s, node_limit=SOLVE2_NODES)
               for s in SEARCHES}
    hinter = Hinter(threads=1)
    # warm-up, not timed: the equity table is loaded and checked once per process
    _, game, _ = _positions("solve")[0]
    for search in SEARCHES:
        solvers[search].solve(game.copy())
        hinter.hint(game.observation(game.to_move), samples=2, seed=0, search=search, objective=objective)
    with open(out, "a", encoding="utf-8") as f:
        for suite in suites:
            # positions where the seat to move has a choice (a single move is played without search)
            todo = [p for p in _positions(suite) if len(p[1].legal_moves) > 1][:limit]
            for k, (i, game, raw) in enumerate(todo):
                order = SEARCHES if k % 2 == 0 else SEARCHES[::-1]
                for search in order:
                    if (suite, i, search) in done:
                        continue
                    if suite in ("solve", "solve2"):
                        solver = (solvers if suite == "solve" else limited)[search]
                        solver.clear()
                        t = time.perf_counter()
                        res = solver.solve(game.copy())
                        secs = time.perf_counter() - t
                        row = {"nodes": res.nodes, "best": sorted(res.best), "tiles_left": _tiles(game),
                               "exact": res.exact, "phase": raw.get("phase")}
                    else:
                        obs = game.observation(game.to_move)
                        t = time.perf_counter()
                        h = hinter.hint(obs, seed=i, search=search, objective=objective, both=False)
                        secs = time.perf_counter() - t
                        row = {"nodes": h.nodes, "best": [str(h.best)], "phase": raw.get("phase")}
                    row.update(suite=suite, index=i, search=search, seconds=round(secs, 6), objective=objective)
                    f.write(json.dumps(row) + "\n")
                    f.flush()


def _tiles(game) -> int:
    core = game.current.core
    return sum(len(core.hand(s)) for s in range(game.players)) + len(core.boneyard_left)


def _pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def _median(xs):
    xs = sorted(xs)
    n = len(xs)
    return (xs[n // 2] + xs[(n - 1) // 2]) / 2


def report(out: str, seed: int = 21) -> dict:
    rows = {}
    with open(out, encoding="utf-8") as f:
        for r in map(json.loads, f):
            rows.setdefault(r["suite"], {}).setdefault(r["index"], {})[r["search"]] = r
    result = {}
    rng = random.Random(seed)
    for suite, by_index in sorted(rows.items()):
        both = [v for v in by_index.values() if all(s in v for s in SEARCHES)]
        pairs = [v for v in both if all(v[s].get("exact", True) for s in SEARCHES)]
        if not pairs:
            continue
        s = {}
        for search in SEARCHES:
            secs = [p[search]["seconds"] for p in pairs]
            nodes = [p[search]["nodes"] for p in pairs]
            s[search] = {"median_s": _median(secs), "p95_s": _pct(secs, 0.95), "mean_s": sum(secs) / len(secs),
                         "median_nodes": _median(nodes)}
        ratios = [p["maxn"]["seconds"] / p["paranoid"]["seconds"] for p in pairs]
        node_ratios = [p["maxn"]["nodes"] / max(1, p["paranoid"]["nodes"]) for p in pairs]
        boot = sorted(_median([rng.choice(ratios) for _ in ratios]) for _ in range(2000))
        result[suite] = {
            "positions": len(pairs),
            "cut_by_node_limit": {s: sum(1 for v in both if not v[s].get("exact", True)) for s in SEARCHES}, **{f"{k}": v for k, v in s.items()},
            "ratio_of_medians": s["maxn"]["median_s"] / s["paranoid"]["median_s"],
            "ratio_of_p95": s["maxn"]["p95_s"] / s["paranoid"]["p95_s"],
            "median_ratio": _median(ratios), "median_ratio_ci95": [boot[49], boot[1949]],
            "median_node_ratio": _median(node_ratios),
            "best_differs": sum(1 for p in pairs if not set(p["maxn"]["best"]) & set(p["paranoid"]["best"])),
        }
    return result


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="the journal (JSON lines; resumed when it exists)")
    ap.add_argument("--suites", default="solve,hint,solve2", help="solve, solve2 and/or hint (comma-separated)")
    ap.add_argument("--limit", type=int, default=1000, help="at most this many positions per suite")
    ap.add_argument("--objective", default="win", choices=("win", "points"))
    ap.add_argument("--report-only", action="store_true")
    args = ap.parse_args(argv)
    suites = [s.strip() for s in args.suites.split(",")]
    if any(s not in ("solve", "solve2", "hint") for s in suites):
        ap.error(f"--suites must name solve, solve2 and/or hint, not {args.suites!r}")
    if args.limit < 1:
        ap.error(f"--limit must be >= 1, not {args.limit}")
    if not args.report_only:
        run(args.out, suites, args.limit, args.objective)
    res = report(args.out)
    print(json.dumps(res, indent=1))
    for suite, r in res.items():
        print(f"{suite}: {r['positions']} positions; paranoid median {1000 * r['paranoid']['median_s']:.1f} ms "
              f"p95 {1000 * r['paranoid']['p95_s']:.1f} ms; max^n median {1000 * r['maxn']['median_s']:.1f} ms "
              f"p95 {1000 * r['maxn']['p95_s']:.1f} ms; per-position ratio median {r['median_ratio']:.2f} "
              f"[{r['median_ratio_ci95'][0]:.2f}, {r['median_ratio_ci95'][1]:.2f}]; best differs in "
              f"{r['best_differs']}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
