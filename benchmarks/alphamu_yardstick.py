"""alphamu against the exact yardstick: its picks' losses next to PIMC's, by phase.

The positions are those of ``benchmarks/exact_yardstick.py``'s journal
(``benchmarks/results/exact_yardstick_2p.jsonl``), re-created from their seeds
with that script's own ``find_position`` (each checked against the journalled
observation); the exact values of every move, against greedy and against best
defence, are read from that journal. In one run per position, the default hint
(PIMC, model beliefs) and alphamu at each depth pick a move from the same
observation with the same seed (the position's index, as the yardstick's
methods), and each is timed; the loss of a pick is the exact value of the
exact best move minus the exact value of the pick.

    python benchmarks/alphamu_yardstick.py --depths 1,2,3 --positions 1000 \\
        --out benchmarks/results/alphamu_yardstick_2p.jsonl          # resumable
    python benchmarks/alphamu_yardstick.py --report benchmarks/results/alphamu_yardstick_2p.jsonl
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exact_yardstick import MIN_INTERVAL_N, PHASES, _mean_cell, _stats, find_position, merged_rows  # noqa: E402

YARDSTICK = "benchmarks/results/exact_yardstick_2p.jsonl"


def methods(depths, samples, time_ms):
    out = {"pimc": {"method": "pimc"}}
    for d in depths:
        opts = {"method": "alphamu", "depth": d}
        if samples is not None:
            opts["samples"] = samples
        if time_ms is not None:
            opts["time_ms"] = time_ms   # a cap: the journal keeps the depth reached
        out[f"alphamu-d{d}"] = opts
    return out


def _from_view(d):
    """The observation of a journalled observation dict (round 0), through the seat's view
    record: its dealt hand is its hand now, plus the tiles it placed, minus those it drew."""
    from fiveup_solver.record import observation_at
    seat = d["seat"]
    placed = {a["play"] for a in d["history"] if a["seat"] == seat and "play" in a}
    drawn = {a["draw"] for a in d["history"] if a["seat"] == seat and a.get("draw")}
    hand = (set(d["hand"]) | placed) - drawn
    record = {"format": "fiveup-record/1", "players": d["players"], "view": seat,
              "seats": [f"seat{s}" for s in range(d["players"])],
              "rounds": [{"starter": d["starter"], "boneyard": None, "actions": d["history"],
                          "hands": [sorted(hand) if s == seat else None for s in range(d["players"])]}]}
    return observation_at(record, seat, 0, len(d["history"]))


def observation_of(row):
    """The yardstick's position of a journal row: from its journalled observation when that
    rebuilds it exactly (checked), else re-created from its seed (slow: the games are replayed)."""
    if row["observation"]["round"] == 0 and row["observation"]["scores_before"] == [0] * len(row["hands"]):
        try:
            obs = _from_view(row["observation"])
            if obs.to_dict() == row["observation"]:
                return obs
        except ValueError:
            pass
    k, obs = 0, None
    while obs is None:
        obs = find_position(row["seed"] * 1_000_003 + k, row["index"])
        k += 1
    if obs.to_dict() != row["observation"]:
        raise SystemExit(f"position {row['index']}: re-created observation differs from the journal's")
    return obs


def run_row(row, names_options, threads) -> dict:
    from fiveup_solver import _core
    from fiveup_solver.hint import Hinter
    obs = observation_of(row)
    hinter = Hinter(threads=threads)
    picks, seconds, extra = {}, {}, {}
    for name, options in names_options.items():
        t = time.perf_counter()
        h = hinter.hint(obs, seed=row["index"], both=False, **options)
        seconds[name] = round(time.perf_counter() - t, 4)
        picks[name] = _core.canonical_of(*h.best.placement)
        if "leaves" in h.budget:
            extra[name] = {"leaves": h.budget["leaves"], "nodes": h.nodes, "depth": h.budget["depth_reached"],
                           "worlds": h.budget["distinct_worlds"],
                           "front_max": max(h.budget["front_sizes"].values())}
    return {"index": row["index"], "bone": row["bone"], "phase": row["phase"], "picks": picks,
            "method_seconds": seconds, "search": extra}


def report(path: str, yardstick: str = YARDSTICK, markdown: bool = False, with_defence: tuple = ()) -> str:
    """``with_defence``: ``exact_yardstick.py --defence`` journals whose best-defence values (solved
    or refused) replace the yardstick's own where they tried a position (later journals win)."""
    exact = {r["index"]: r for r in map(json.loads, open(yardstick))}
    for r in merged_rows(list(with_defence)) if with_defence else ():
        if r["index"] in exact:
            exact[r["index"]]["exact"][1] = r["defence"]
    rows = [json.loads(line) for line in open(path)]
    names = list(rows[0]["picks"]) if rows else []
    lines = [f"{len(rows)} positions of {yardstick} (loss = exact value of the exact best move - "
             f"exact value of the pick)"]
    for opponent_i, opponent in enumerate(("greedy", "best-defence")):
        lines.append(f"\nAgainst {opponent}:")
        header = ["phase (boneyard)", "solved", "method", "differs", "win-% loss mean ± 95 %", "p95",
                  "points loss mean ± 95 %", "p95"]
        table = []
        for lo, hi in PHASES + ((0, 18),):
            label = (f"{lo}" if lo == hi else f"{lo}-{hi}") if (lo, hi) != (0, 18) else "all"
            sel = [r for r in rows if lo <= r["bone"] <= hi
                   and "refused" not in exact[r["index"]]["exact"][opponent_i]]
            for name in names:
                differs, lw, lp = 0, [], []
                for r in sel:
                    ex = exact[r["index"]]["exact"][opponent_i]
                    pick = str(r["picks"][name])
                    best_w, best_p = max(ex["win"].values()), max(ex["points"].values())
                    lw.append(100 * (best_w - ex["win"][pick]))
                    lp.append(best_p - ex["points"][pick])
                    differs += ex["win"][pick] < best_w - 1e-9
                _, pw = _stats(lw)
                _, pp = _stats(lp)
                # the mean with its 95 % interval (30 positions or more), else "mean (n = k)"
                table.append([label, str(len(sel)), name, f"{differs}/{len(sel)}" if sel else "-",
                              _mean_cell(lw, 3), f"{pw:.2f}" if pw is not None else "-",
                              _mean_cell(lp, 2), f"{pp:.1f}" if pp is not None else "-"])
        if markdown:
            lines.append("| " + " | ".join(header) + " |")
            lines.append("|" + "---|" * len(header))
            lines += ["| " + " | ".join(t) + " |" for t in table]
        else:
            lines.append("  ".join(f"{h:>16}" for h in header))
            lines += ["  ".join(f"{c:>16}" for c in t) for t in table]
    def paired(sel, opponent_i, base, name) -> str:
        parts = []
        for cur, scale in (("win", 100.0), ("points", 1.0)):
            d = []
            for r in sel:
                ex = exact[r["index"]]["exact"][opponent_i][cur]
                d.append(scale * (ex[str(r["picks"][name])] - ex[str(r["picks"][base])]))
            m = sum(d) / len(d) if d else 0.0
            se = (sum((x - m) ** 2 for x in d) / (len(d) - 1) / len(d)) ** 0.5 if len(d) > 1 else 0.0
            parts.append(f"{'win-%' if cur == 'win' else 'points'} {m:+.3f} [{m - 1.96 * se:+.3f}, "
                         f"{m + 1.96 * se:+.3f}]")
        return ", ".join(parts)

    lines.append("\nPaired against PIMC, same positions (PIMC's loss - the method's loss; > 0: it loses "
                 "less), mean with a 95 % interval (normal, per-position differences):")
    for opponent_i, opponent in enumerate(("greedy", "best-defence")):
        sel = [r for r in rows if "refused" not in exact[r["index"]]["exact"][opponent_i]]
        for name in names[1:]:
            lines.append(f"  against {opponent}, {name} ({len(sel)} positions): "
                         + paired(sel, opponent_i, "pimc", name))
    # every other pair of methods (a shallower depth's loss - a deeper one's), and each pair by
    # phase, where the per-phase tables' unpaired intervals overlap
    lines.append("\nPaired between the other methods (the first's loss - the second's), and every pair by "
                 "phase (boneyard), the same form:")
    for opponent_i, opponent in enumerate(("greedy", "best-defence")):
        sel = [r for r in rows if "refused" not in exact[r["index"]]["exact"][opponent_i]]
        for i, base in enumerate(names[1:], 1):
            for name in names[i + 1:]:
                lines.append(f"  against {opponent}, {base} - {name} ({len(sel)} positions): "
                             + paired(sel, opponent_i, base, name))
        for lo, hi in PHASES:
            part = [r for r in sel if lo <= r["bone"] <= hi]
            if len(part) < MIN_INTERVAL_N:
                continue
            for i, base in enumerate(names):
                for name in names[i + 1:]:
                    lines.append(f"  against {opponent}, boneyard {lo if lo == hi else f'{lo}-{hi}'}, "
                                 f"{base} - {name} ({len(part)} "
                                 f"positions): " + paired(part, opponent_i, base, name))
    for name in names[1:]:
        differ = [r for r in rows if r["picks"][name] != r["picks"]["pimc"]]
        depths = {}
        for r in rows:
            d = r.get("search", {}).get(name, {}).get("depth")
            depths[d] = depths.get(d, 0) + 1
        lines.append(f"{name}: picks another move than PIMC in {len(differ)}/{len(rows)} positions; "
                     f"depth reached: " + ", ".join(f"{d}: {n}" for d, n in sorted(depths.items(), key=str)))
    same = sum(r["picks"]["pimc"] == exact[r["index"]]["picks"]["pimc"] for r in rows)
    lines.append(f"\nPIMC re-run picks the yardstick journal's PIMC move in {same}/{len(rows)} positions")
    lines.append("\ntime per decision (s, same run, same positions): " + ", ".join(
        f"{n} median {t[len(t) // 2]:.4f} p95 {t[int(0.95 * (len(t) - 1))]:.4f}"
        for n in names for t in [sorted(r["method_seconds"][n] for r in rows)]))
    for lo, hi in PHASES:
        sel = [r for r in rows if lo <= r["bone"] <= hi]
        if sel:
            lines.append(f"  boneyard {lo}-{hi}: " + ", ".join(
                f"{n} median {t[len(t) // 2]:.4f} p95 {t[int(0.95 * (len(t) - 1))]:.4f}"
                for n in names for t in [sorted(r["method_seconds"][n] for r in sel)]))
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--yardstick", default=YARDSTICK)
    ap.add_argument("--out", default="benchmarks/results/alphamu_yardstick_2p.jsonl")
    ap.add_argument("--depths", default="1,2,3")
    ap.add_argument("--samples", type=int, default=None, help="alphamu worlds (default: the hint's)")
    ap.add_argument("--time-ms", type=float, default=None,
                    help="alphamu: a time cap per decision (the last complete depth stands; journalled)")
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--stride", type=int, default=1, help="take every STRIDE-th journal position (the journal cycles through the "
                         "5 phases: a multiple of 5 takes one phase only)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--report", metavar="JOURNAL", default=None)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--with-defence", metavar="JOURNAL", nargs="*", default=[],
                    help="--report: best defence from these exact_yardstick.py --defence journals")
    args = ap.parse_args(argv)
    if args.report:
        print(report(args.report, args.yardstick, args.markdown, tuple(args.with_defence)))
        return 0
    names_options = methods([int(d) for d in args.depths.split(",") if d], args.samples, args.time_ms)
    rows = [json.loads(line) for line in open(args.yardstick)][::args.stride][:args.positions]
    done = set()
    if os.path.exists(args.out):
        done = {json.loads(line)["index"] for line in open(args.out)}
    with open(args.out, "a") as out:
        for row in rows:
            if row["index"] in done:
                continue
            out.write(json.dumps(run_row(row, names_options, args.threads)) + "\n")
            out.flush()
    print(report(args.out, args.yardstick))
    return 0


if __name__ == "__main__":
    sys.exit(main())
