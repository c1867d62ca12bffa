"""Judged loss against playout loss on planted errors, with 2, 3 and 4 players.

A planted error is one move of a greedy game (greedy in every seat) replaced by
a worse one, at the first position of the game where the plant applies:

* ``exact305``: the mover's side could reach exactly 305 with an ordinary
  placement, and another side stands at 275 or more; the planted move is the
  non-hitting move with the largest accepted credit (a big loss);
* ``small``: late in the race (the mover's side at 220 or more, no exact 305
  available), the planted move's accepted credit is 5 or 10 below the best
  credit available (a small loss, if any).

Each planted decision is judged three ways, from the seat's observation only:

* ``search``: the search judge at the default budget with every world searched
  (96 worlds, model beliefs; ``min_samples == samples``, the fixed judge this
  journal was measured with; :func:`fiveup_solver.analysis.judge_decision`);
* ``rollout``: the rollout judge (``--rollouts`` paired playouts per candidate,
  every legal move, the default bot ``hint`` in every seat);
* ``reference``: the "playout loss", the same playouts with many more worlds
  (``--reference``, 150 by default) from an independent seed.

Each journal line (JSON) holds the three losses in win-% points and raw points
with their paired standard errors. The journal is appended as it goes and a
run resumes where it stopped. ``--summary`` prints the table of the docs
(docs/analysis_judges.md).

    nice -n 10 python benchmarks/planted_errors.py --players 2,3,4 --per-kind 3 \\
        --rollouts 32 --reference 150 --out benchmarks/results/planted_errors.jsonl
    python benchmarks/planted_errors.py --summary benchmarks/results/planted_errors.jsonl
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time

from fiveup_solver import Game, _core
from fiveup_solver.analysis import AnalysisBudget, judge_decision
from fiveup_solver.bots import choose
from fiveup_solver.notation import TARGET_RAW, format_move
from fiveup_solver.record import observation_at
from fiveup_solver.rollout import rollout

KINDS = ("exact305", "small")


def _credit(game, move) -> int:
    """The accepted placement credit of a move, as greedy counts it (0 above 305)."""
    if move.kind != "play":
        return 0
    after = game.current.core.copy()
    after.place(*move.placement)
    credit = _core.end_sum_credit(after.end_sum)
    side = game.current.core.side_of(game.to_move)
    return 0 if game.scores[side] + credit > TARGET_RAW else credit


def _exact_hit(game, move) -> bool:
    """`move` makes the mover's side reach exactly 305 with an ordinary placement."""
    if move.kind != "play" or len(game.hand(game.to_move)) == 1:
        return False
    side = game.current.core.side_of(game.to_move)
    return game.scores[side] + _credit(game, move) == TARGET_RAW and _credit(game, move) > 0


def plant_exact305(game, legal):
    side = game.current.core.side_of(game.to_move)
    others = [x for k, x in enumerate(game.scores) if k != side]
    misses = [m for m in legal if not _exact_hit(game, m)]
    if max(others) < 275 or not misses or len(misses) == len(legal):
        return None
    return max(misses, key=lambda m: _credit(game, m))      # the first of the largest credits


def plant_small(game, legal):
    side = game.current.core.side_of(game.to_move)
    if game.scores[side] < 220 or any(_exact_hit(game, m) for m in legal):
        return None
    credits = [_credit(game, m) for m in legal]
    best = max(credits)
    worse = [m for m, c in zip(legal, credits) if best - c in (5, 10)]
    return worse[0] if worse else None


PLANTS = {"exact305": plant_exact305, "small": plant_small}


def planted_game(players: int, kind: str, seed: int):
    """A greedy game of `seed` with one planted move (the first position where the
    plant applies), played on to its end: (record, round, action, seat, scores),
    or None when no position applies or the game does not finish."""
    plant = PLANTS[kind]
    game = Game(players=players, seed=seed)
    rngs = [random.Random(f"{seed}/{s}") for s in range(players)]
    planted = None
    while True:
        if game.round_over:
            if game.game_over or len(game.rounds) >= 60:
                break
            game.next_round()
        seat = game.to_move
        move = choose("greedy", game.observation(seat), rngs[seat])
        if planted is None and len(game.legal_moves) > 1:
            other = plant(game, game.legal_moves)
            if other is not None and other != move:
                planted = (len(game.rounds) - 1, len(game.current.moves), seat, list(game.scores))
                move = other
        game.push(move)
    if planted is None or not game.game_over:
        return None
    return (game.to_record(),) + planted


def _loss(d) -> dict:
    return {"best": d.best, "loss_win": d.loss_win, "stderr_win": d.stderr_win, "loss_points": d.loss_points,
            "stderr_points": d.stderr_points, "mark": d.mark, "playouts": d.playouts}


def measure(players: int, kind: str, index: int, seed: int, record, r: int, i: int, seat: int, scores,
            rollouts: int, reference: int, bot: str) -> dict:
    played = record["rounds"][r]["actions"][i]
    row = {"players": players, "kind": kind, "index": index, "seed": seed, "round": r, "action": i, "seat": seat,
           "scores": scores, "played": played["play"] + (f"@{played['at']}" if "at" in played else "")}
    t = time.perf_counter()
    budget = AnalysisBudget(min_samples=AnalysisBudget.samples)    # the fixed judge (the journal's)
    d = judge_decision(record, r, i, budget, seed=1)
    row["search"] = dict(_loss(d), seconds=round(time.perf_counter() - t, 2))
    if players == 3:     # rows without it were judged with paranoid, the default before ANALYSIS_SEARCH
        row["search"]["search"] = budget.search_of_three
    t = time.perf_counter()
    d = judge_decision(record, r, i, AnalysisBudget(judge="rollout", rollouts=rollouts, rollout_bot=bot), seed=1)
    row["rollout"] = dict(_loss(d), rollouts=rollouts, seconds=round(time.perf_counter() - t, 2))
    row["candidates"] = d.playouts // rollouts          # canonical candidates (equivalent ports played once)
    # the reference: the same playouts, many more worlds, an independent seed
    obs = observation_at(record, seat, r, i)
    t = time.perf_counter()
    ref = rollout(obs, rollouts=reference, bot=bot, seed=10_000 + index)
    move = next(m for m in obs.legal_moves if format_move(m) == row["played"])
    p = ref.of(move)
    row["reference"] = {"best": format_move(ref.best), "loss_win": round(100 * p.win_loss, 3),
                        "stderr_win": round(100 * p.win_loss_stderr, 3), "loss_points": round(p.points_loss, 3),
                        "stderr_points": round(p.points_loss_stderr, 3), "rollouts": reference,
                        "playouts": ref.playouts, "actions": ref.actions, "unfinished": ref.unfinished,
                        "seconds": round(time.perf_counter() - t, 2)}
    row["search_minus_reference"] = round(row["search"]["loss_win"] - row["reference"]["loss_win"], 3)
    row["rollout_minus_reference"] = round(row["rollout"]["loss_win"] - row["reference"]["loss_win"], 3)
    return row


def summary(path: str) -> str:
    """The docs' table: per player count and kind, each judge's mean loss against the
    reference's, the mean absolute difference and how many are within 6 win-% points."""
    rows = [json.loads(line) for line in open(path) if line.strip()]
    out = ["| players | kind | n | reference loss (win-%) | search judge | rollout judge | "
           "search - ref (mean abs) | rollout - ref (mean abs) | within 6: search / rollout |",
           "|---|---|---|---|---|---|---|---|---|"]
    keys = sorted({(r["players"], r["kind"]) for r in rows}, key=lambda k: (k[0], KINDS.index(k[1])))
    for players, kind in keys:
        rs = [r for r in rows if (r["players"], r["kind"]) == (players, kind)]
        n = len(rs)

        def mean(f):
            return sum(f(r) for r in rs) / n

        def pooled(judge):    # the mean loss and the standard error of that mean
            m = mean(lambda r: r[judge]["loss_win"])
            se = math.sqrt(sum(r[judge]["stderr_win"] ** 2 for r in rs)) / n
            return f"{m:.1f} ± {se:.1f}"
        out.append(f"| {players} | {kind} | {n} | {pooled('reference')} | {pooled('search')} | {pooled('rollout')} | "
                   f"{mean(lambda r: abs(r['search_minus_reference'])):.1f} | "
                   f"{mean(lambda r: abs(r['rollout_minus_reference'])):.1f} | "
                   f"{sum(abs(r['search_minus_reference']) <= 6 for r in rs)} / "
                   f"{sum(abs(r['rollout_minus_reference']) <= 6 for r in rs)} |")
    out.append("")
    out.append("| players | kind | seed | round, action | seat | scores | played | reference | search | rollout | "
               "candidates | seconds: search / rollout / reference |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in sorted(rows, key=lambda r: (r["players"], KINDS.index(r["kind"]), r["index"])):
        f = lambda j: f"{r[j]['loss_win']:.1f} ± {r[j]['stderr_win']:.1f}"   # noqa: E731
        out.append(f"| {r['players']} | {r['kind']} | {r['seed']} | {r['round']}, {r['action']} | {r['seat']} | "
                   f"{'/'.join(map(str, r['scores']))} | "
                   f"{r['played']} | {f('reference')} | {f('search')} | {f('rollout')} | "
                   f"{r['rollout']['playouts'] // r['rollout']['rollouts']} | "
                   f"{r['search']['seconds']} / {r['rollout']['seconds']} / {r['reference']['seconds']} |")
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--per-kind", type=int, default=3, help="planted errors per player count and kind")
    ap.add_argument("--rollouts", type=int, default=32, help="the rollout judge's playouts per candidate")
    ap.add_argument("--reference", type=int, default=150, help="the reference's playouts per candidate")
    ap.add_argument("--bot", default="hint", help="the bot of every seat in the playouts")
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--out", default="benchmarks/results/planted_errors.jsonl")
    ap.add_argument("--summary", default=None, metavar="JOURNAL", help="print the table of a journal and stop")
    args = ap.parse_args(argv)
    if args.summary:
        sys.stdout.write(summary(args.summary))
        return 0
    done = set()
    if os.path.exists(args.out):
        with open(args.out) as f:
            done = {(r["players"], r["kind"], r["index"]) for r in map(json.loads, filter(str.strip, f))}
    # one error of every player count and kind, then the next: a run cut short stays balanced
    found = {}
    with open(args.out, "a") as f:
        for index in range(args.per_kind):
            for players in map(int, args.players.split(",")):
                for kind in args.kinds.split(","):
                    seeds = found.setdefault((players, kind), [])
                    seed = seeds[-1] + 1 if seeds else args.first_seed
                    while len(seeds) <= index and seed < args.first_seed + 2000:
                        if planted_game(players, kind, seed) is not None:
                            seeds.append(seed)
                        seed += 1
                    if len(seeds) <= index or (players, kind, index) in done:
                        continue
                    row = measure(players, kind, index, seeds[index], *planted_game(players, kind, seeds[index]),
                                  rollouts=args.rollouts, reference=args.reference, bot=args.bot)
                    f.write(json.dumps(row) + "\n")
                    f.flush()
                    print(json.dumps({k: row[k] for k in ("players", "kind", "seed", "scores", "played",
                                                           "candidates", "search_minus_reference",
                                                           "rollout_minus_reference")}
                                     | {j: [row[j]["loss_win"], row[j]["stderr_win"], row[j]["seconds"]]
                                        for j in ("search", "rollout", "reference")}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
