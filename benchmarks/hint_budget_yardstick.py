"""The default hint's loss against the exact yardstick at other budgets and beliefs.

Where does PIMC's loss on the yardstick come from: too few nodes per world, the
worlds themselves, or the opponent model? This re-picks the yardstick's
positions with the hint at a given budget (``--samples``, ``--world-nodes``,
``--beliefs``; the seed is the position's index, as the yardstick's) and sets
each pick against the exact values of ``benchmarks/exact_yardstick.py``'s
journals: against greedy (the yardstick journal, merged with its reach run)
and against best defence (a ``--defence`` journal). The journal's own PIMC pick
(the default hint when the yardstick ran) is scored beside it.

    python benchmarks/hint_budget_yardstick.py --max-bone 0 --samples 1 --world-nodes 960000 --beliefs uniform
    python benchmarks/hint_budget_yardstick.py --max-bone 2 --time-ms 50     # a time budget per hint

No journal: a run takes seconds to minutes and prints its table; ``--picks-out`` keeps its
picks, and ``--paired-with`` sets another run's picks (another build, from its own tree
on ``PYTHONPATH``, or another budget) against this one's, position by position.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exact_yardstick import PHASES, journal_observation, merged_rows  # noqa: E402

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
YARDSTICK = [os.path.join(RESULTS, "exact_yardstick_2p.jsonl"), os.path.join(RESULTS, "exact_yardstick_2p_reach.jsonl")]
DEFENCE = os.path.join(RESULTS, "exact_yardstick_2p_defence_ab.jsonl")


def loss(exact: dict, move) -> float | None:
    """Win-% loss of `move` against the exact best, or None where the position was refused."""
    if "refused" in exact:
        return None
    win = exact["win"]
    return 100 * (max(win.values()) - win[str(move)])


def main(argv=None) -> int:
    from fiveup_solver import _core
    from fiveup_solver.beliefs import OpponentModel
    from fiveup_solver.hint import hint
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--max-bone", type=int, default=0, help="positions with at most this many boneyard tiles")
    ap.add_argument("--samples", type=int, default=48)
    ap.add_argument("--world-nodes", type=int, default=20_000)
    ap.add_argument("--time-ms", type=int, default=None,
                    help="a time budget per hint instead of --samples (worlds drawn until it is up)")
    ap.add_argument("--beliefs", choices=("model", "uniform"), default="model")
    ap.add_argument("--told-greedy", action="store_true",
                    help="a yardstick, not a fair hint: model beliefs told that the opponent plays greedy "
                         "(the one sharp credit model, a 0.5 %% floor), so every world searches it as greedy")
    ap.add_argument("--method", choices=("pimc", "alphamu"), default="pimc",
                    help="the hint's method (alphamu: --depth joint decisions, at the hint's worlds and leaf budget)")
    ap.add_argument("--depth", type=int, default=None, help="--method alphamu: its depth (default: the hint's)")
    ap.add_argument("--yardstick", nargs="+", default=YARDSTICK)
    ap.add_argument("--defence", nargs="*", default=[DEFENCE])
    ap.add_argument("--picks-out", metavar="FILE", help="write this run's picks ({index: canonical move}) as JSON")
    ap.add_argument("--paired-with", metavar="FILE",
                    help="another run's --picks-out (another build or budget): the paired loss difference")
    args = ap.parse_args(argv)
    rows = [r for r in merged_rows(args.yardstick) if r["bone"] <= args.max_bone]
    defence = {r["index"]: r["defence"] for r in merged_rows(args.defence)} if args.defence else {}
    scored = {"greedy": {"journal": [], "now": []}, "best-defence": {"journal": [], "now": []}}
    other = {int(k): v for k, v in json.load(open(args.paired_with)).items()} if args.paired_with else None
    paired = {"greedy": [], "best-defence": []}
    picks = {}
    times = []
    told = OpponentModel(grid=(("credit", 3.0),), floor=0.005) if args.told_greedy else None
    if told is not None and args.beliefs != "model":
        ap.error("--told-greedy needs --beliefs model")
    method = {"method": args.method}
    if args.method == "alphamu":
        if args.depth is not None:
            method["depth"] = args.depth
    else:
        method["world_nodes"] = args.world_nodes
        if args.time_ms is not None:
            method["time_ms"] = args.time_ms
        else:
            method["samples"] = args.samples
        if args.depth is not None:
            ap.error("--depth needs --method alphamu")
    for r in rows:
        obs = journal_observation(r)
        t = time.perf_counter()
        h = hint(obs, seed=r["index"], both=False, beliefs=args.beliefs, model=told, **method)
        times.append(time.perf_counter() - t)
        pick = _core.canonical_of(*h.best.placement)
        picks[r["index"]] = pick
        for opponent, exact in (("greedy", r["exact"][0]), ("best-defence", defence.get(r["index"]))):
            if exact is None or loss(exact, pick) is None:
                continue
            scored[opponent]["journal"].append((r["bone"], loss(exact, r["picks"]["pimc"])))
            scored[opponent]["now"].append((r["bone"], loss(exact, pick)))
            if other is not None and r["index"] in other:
                paired[opponent].append(loss(exact, other[r["index"]]) - loss(exact, pick))
    budget = ((f"{args.time_ms} ms" if args.time_ms is not None else f"{args.samples} worlds")
              + f" x {args.world_nodes:,} nodes" if args.method == "pimc"
              else f"alphamu at its default budget, depth {args.depth if args.depth is not None else 'default'}")
    print(f"hint at {budget}, {args.beliefs} beliefs"
          f"{' told greedy' if told is not None else ''}, against the "
          f"journal's PIMC pick; positions with at most {args.max_bone} boneyard tiles")
    print("| opponent | phase (boneyard) | positions | journal's PIMC: win-% loss, differs | this budget |")
    print("|---|---|---|---|---|")
    for opponent, s in scored.items():
        for lo, hi in PHASES + ((0, 18),):
            if lo > args.max_bone:
                continue
            sel = [k for k, (b, _) in enumerate(s["now"]) if lo <= b <= hi]
            if not sel:
                continue
            label = (f"{lo}" if lo == hi else f"{lo}-{hi}") if (lo, hi) != (0, 18) else "all"
            cells = []
            for which in ("journal", "now"):
                xs = [s[which][k][1] for k in sel]
                cells.append(f"{sum(xs) / len(xs):.3f}, {sum(x > 1e-9 for x in xs)}/{len(xs)}")
            print(f"| {opponent} | {label} | {len(sel)} | {cells[0]} | {cells[1]} |")
    times.sort()
    print(f"time per hint: median {times[len(times) // 2]:.4f} s, max {times[-1]:.3f} s")
    for opponent, d in paired.items():
        if len(d) > 1:
            m = sum(d) / len(d)
            se = math.sqrt(sum((x - m) ** 2 for x in d) / (len(d) - 1) / len(d))
            print(f"paired with {args.paired_with}, against {opponent} ({len(d)} positions): its loss minus this "
                  f"run's {m:+.3f} win-% [{m - 1.96 * se:+.3f}, {m + 1.96 * se:+.3f}] (above 0: this run loses less)")
    if args.picks_out:
        with open(args.picks_out, "w") as f:
            json.dump(picks, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
