"""How far each hint method's choices are from the exact best, by phase of the round.

For seeded 2-player positions, the exact yardstick (:mod:`fiveup_solver.exact`)
values every legal move of the seat to move when it then best-responds from its
own information, against ``greedy`` and against ``best-defence``, in both
currencies (win probability through the equity table; points of the round).
Each method at its default budget picks a move from the same observation; its
loss is the exact value of the exact best move minus the exact value of its
pick. Positions beyond the yardstick's reach (too many hidden configurations or
world positions) are journalled as refused: the table says how far it reaches.

Positions: seeded games of ``hint`` (seat 0) against ``greedy`` (seat 1)
played to a target phase (the boneyard's size), the decision of the seat to
move there when it has two or more placements. Phases: boneyard 0, 1-2, 3-4,
5-6, 7+ (one target per position, cycling).

    python benchmarks/exact_yardstick.py --positions 1000 --seed 1 \\
        --out benchmarks/results/exact_yardstick_2p.jsonl        # resumable
    python benchmarks/exact_yardstick.py --report benchmarks/results/exact_yardstick_2p.jsonl

Best defence again with the C search at the default limits, on the positions
solved against greedy (``--compare N``: the first N solved before are timed
against the Python search in the same process):

    python benchmarks/exact_yardstick.py --defence benchmarks/results/exact_yardstick_2p.jsonl \
        benchmarks/results/exact_yardstick_2p_reach.jsonl --compare 40 \
        --out benchmarks/results/exact_yardstick_2p_defence.jsonl
    python benchmarks/exact_yardstick.py --report-defence benchmarks/results/exact_yardstick_2p_defence.jsonl
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

PHASES = ((0, 0), (1, 2), (3, 4), (5, 6), (7, 18))
METHODS = {   # name -> hint options (each at its default budget and objective)
    "pimc": {"method": "pimc"},                              # the default bot's hint (model beliefs)
    "pimc-uniform": {"method": "pimc", "beliefs": "uniform"},
    "expectimax": {"method": "expectimax"},
    "expectimax-uniform": {"method": "expectimax", "beliefs": "uniform"},
}
BASELINES = ("greedy", "random")
PHASES_3P = ((0, 0), (1, 2), (3, 4))
METHODS_3P = {   # 3 players: the default hint (paranoid) and max^n, at their default budgets
    "pimc": {"method": "pimc"},
    "pimc-maxn": {"method": "pimc", "search": "maxn"},
}
METHODS_4P = {   # 4 players (two sides: max^n is paranoid): the default hint, model and uniform beliefs
    "pimc": {"method": "pimc"},
    "pimc-uniform": {"method": "pimc", "beliefs": "uniform"},
}
METHODS_OF = {2: METHODS, 3: METHODS_3P, 4: METHODS_4P}


def phase_of(bone: int) -> str:
    for lo, hi in PHASES:
        if lo <= bone <= hi:
            return f"{lo}" if lo == hi else f"{lo}-{hi}"
    raise ValueError(bone)


def find_position(seed: int, index: int, players: int = 2):
    """A position of the target phase of job `index`: (observation, phase) or None. With 3
    or 4 players: the late phases only, seat 0 the hint bot and the other seats greedy."""
    from fiveup_solver import Game, _core
    from fiveup_solver.bots import choose
    phases = PHASES if players == 2 else PHASES_3P
    lo, hi = phases[index % len(phases)]
    rng = random.Random(f"{seed}/{index}" if players == 2 else f"{seed}/{index}/{players}p")
    g = Game(players=players, seed=rng.randrange(2 ** 31))
    bots = ["hint-uniform:16:5000"] + ["greedy"] * (players - 1)
    while not g.round_over:
        s = g.to_move
        obs = g.observation(s)
        canon = {_core.canonical_of(*m.placement) for m in g.legal_moves if m.kind == "play"}
        if lo <= len(g.boneyard) <= hi and len(canon) > 1 and rng.random() < 0.5:
            return obs
        if len(g.boneyard) < lo:
            return None
        g.push(choose(bots[s], obs, rng))
    return None


def exact_both(obs, opponent: str, node_limit: int, max_worlds: int) -> dict:
    from fiveup_solver.exact import exact_result
    out = {"opponent": opponent}
    t = time.perf_counter()
    try:
        for obj in ("win", "points"):
            r = exact_result(obs, objective=obj, opponent=opponent, node_limit=node_limit, max_worlds=max_worlds)
            out[obj] = {str(m): v for m, v in r.values.items()}
            out["worlds"] = r.worlds
            out[f"nodes_{obj}"] = r.nodes
    except ValueError as e:     # beyond the yardstick's reach: refused with a reason
        out["refused"] = str(e)
    out["seconds"] = round(time.perf_counter() - t, 3)
    return out


def run_job(job) -> dict:
    seed, index, node_limit, max_worlds, bd_node_limit = job
    from fiveup_solver import _core
    from fiveup_solver.bots import choose
    from fiveup_solver.hint import hint
    obs = None
    k = 0
    while obs is None:
        obs = find_position(seed * 1_000_003 + k, index)
        k += 1
    row = {"index": index, "seed": seed, "phase": phase_of(obs.boneyard_size), "bone": obs.boneyard_size,
           "hands": list(obs.hand_sizes), "scores": list(obs.scores), "seat": obs.seat,
           "observation": obs.to_dict()}
    greedy = exact_both(obs, "greedy", node_limit, max_worlds)
    if "refused" in greedy:     # best defence needs more still: refused for the same reason
        defence = {"opponent": "best-defence", "refused": "greedy refused: " + greedy["refused"], "seconds": 0.0}
    else:
        defence = exact_both(obs, "best-defence", bd_node_limit, max_worlds)
    row["exact"] = [greedy, defence]
    picks, seconds = {}, {}
    for name, options in METHODS.items():
        t = time.perf_counter()
        h = hint(obs, seed=index, both=False, **options)
        seconds[name] = round(time.perf_counter() - t, 4)
        picks[name] = _core.canonical_of(*h.best.placement)
    for name in BASELINES:
        picks[name] = _core.canonical_of(*choose(name, obs, random.Random(index)).placement)
    row["picks"] = picks
    row["method_seconds"] = seconds
    return row


def run_job_many(job) -> dict:
    """A 3- or 4-player position: its exact values with every other seat greedy (or refused)
    and the picks of the player count's methods (METHODS_OF) and the baselines."""
    seed, index, node_limit, max_worlds, players = job
    from fiveup_solver import _core
    from fiveup_solver.bots import choose
    from fiveup_solver.hint import hint
    obs, k = None, 0
    while obs is None:
        obs = find_position(seed * 1_000_003 + k, index, players=players)
        k += 1
    row = {"index": index, "seed": seed, "players": players, "phase": phase_of(obs.boneyard_size),
           "bone": obs.boneyard_size, "hands": list(obs.hand_sizes), "scores": list(obs.scores), "seat": obs.seat,
           "observation": obs.to_dict()}
    row["exact"] = [exact_both(obs, "greedy", node_limit, max_worlds)]
    picks, seconds = {}, {}
    for name, options in METHODS_OF[players].items():
        t = time.perf_counter()
        h = hint(obs, seed=index, both=False, **options)
        seconds[name] = round(time.perf_counter() - t, 4)
        picks[name] = _core.canonical_of(*h.best.placement)
    for name in BASELINES:
        picks[name] = _core.canonical_of(*choose(name, obs, random.Random(index)).placement)
    row["picks"] = picks
    row["method_seconds"] = seconds
    return row


def journal_observation(row: dict):
    """The observation of a journal row, rebuilt from the journalled observation (the seat's
    view as a record: its hand at the deal and the round's actions, replayed through the rules
    on a consistent deal) and checked equal to it. (Playing the position again from its seed
    no longer reproduces every row: the hint bot that played to it has changed since.)"""
    from fiveup_solver.record import observation_at
    o = row["observation"]
    if o["round"] != 0 or any(o["scores_before"]):
        raise RuntimeError(f"position {row['index']}: only a game's first round is rebuilt")
    hand = list(o["hand"])      # the seat's hand at the deal: now, plus what it placed, minus what it drew
    own = [a for a in o["history"] if a["seat"] == o["seat"]]
    hand += [a["play"] for a in own if "play" in a]
    for a in own:
        if a.get("draw"):
            hand.remove(a["draw"])
    record = {"format": "fiveup-record/1", "players": o["players"], "seats": [f"seat{s}" for s in range(o["players"])],
              "rounds": [{"starter": o["starter"], "hands": [hand if s == o["seat"] else None
                                                             for s in range(o["players"])],
                          "boneyard": None, "actions": [dict(a) for a in o["history"]]}], "view": o["seat"]}
    obs = observation_at(record, o["seat"], 0, len(o["history"]))
    if obs.to_dict() != o:
        raise RuntimeError(f"position {row['index']} does not rebuild as journalled")
    return obs


def run_reach_job(job) -> dict:
    """A journalled position again, with the C search at a larger node and world limit: its
    exact values against greedy (or refused); the methods' picks are the journal's (same
    observation). Timed against the Python search at the old limits when ``compare``."""
    row, node_limit, max_worlds, compare = job
    obs = journal_observation(row)
    out = {k: row[k] for k in ("index", "seed", "phase", "bone", "hands", "scores", "seat", "observation",
                               "picks", "method_seconds")}
    greedy = exact_both(obs, "greedy", node_limit, max_worlds)
    out["exact"] = [greedy, row["exact"][1]]
    out["reach"] = {"node_limit": node_limit, "max_worlds": max_worlds, "engine": "c",
                    "before": {"refused": row["exact"][0].get("refused"), "seconds": row["exact"][0]["seconds"]}}
    if compare:
        from fiveup_solver.exact import exact_result
        t = time.perf_counter()
        try:
            for obj in ("win", "points"):
                exact_result(obs, objective=obj, opponent="greedy", node_limit=1_000_000, max_worlds=5_000,
                             engine="python")
            out["reach"]["python_seconds"] = round(time.perf_counter() - t, 3)
        except ValueError as e:
            out["reach"]["python_refused"] = str(e)
    return out


def run_defence_job(job) -> dict:
    """A journalled position solved against greedy, against best defence again with the C search
    at ``node_limit`` (both objectives, or refused); with ``compare`` (a position the first run
    solved against best defence) the Python search too, at the same limit, timed in the same
    process and checked equal. ``memory_gb`` caps the address space (a search whose fronts
    need more is refused: out of memory)."""
    row, node_limit, max_worlds, compare, memory_gb = job
    import resource
    if memory_gb:
        resource.setrlimit(resource.RLIMIT_AS, (int(memory_gb * 2 ** 30), resource.RLIM_INFINITY))
    from fiveup_solver.exact import exact_result
    obs = journal_observation(row)
    out = {k: row[k] for k in ("index", "seed", "phase", "bone", "hands", "scores", "seat", "picks")}
    before = row["exact"][1]
    out["before"] = {"refused": before.get("refused"), "seconds": before["seconds"]}
    out["defence"] = {"opponent": "best-defence", "engine": "c", "node_limit": node_limit}
    t = time.perf_counter()
    try:
        for obj in ("win", "points"):
            r = exact_result(obs, objective=obj, opponent="best-defence", node_limit=node_limit,
                             max_worlds=max_worlds, engine="c")
            out["defence"][obj] = {str(m): v for m, v in r.values.items()}
            out["defence"]["worlds"] = r.worlds
            out["defence"][f"nodes_{obj}"] = r.nodes
    except (ValueError, MemoryError) as e:
        out["defence"]["refused"] = str(e) or type(e).__name__
    out["defence"]["seconds"] = round(time.perf_counter() - t, 4)
    if compare and "refused" not in out["defence"]:
        t = time.perf_counter()
        diff = 0.0
        for obj in ("win", "points"):
            r = exact_result(obs, objective=obj, opponent="best-defence", node_limit=node_limit, max_worlds=5_000,
                             engine="python")
            diff = max([diff] + [abs(v - out["defence"][obj][str(m)]) for m, v in r.values.items()])
            if r.nodes != out["defence"][f"nodes_{obj}"]:
                out["defence"]["python_nodes_differ"] = [obj, r.nodes]
        out["defence"]["python_seconds"] = round(time.perf_counter() - t, 4)
        out["defence"]["python_max_diff"] = diff
    return out


def report_defence(paths: list) -> str:
    """Positions solved against best defence per phase: the first run (Python, 50,000 world
    positions and front vectors) and the C search at its limit; the time of both searches on
    the positions compared; the methods' loss on the positions solved only now."""
    rows = merged_rows(paths)
    if not rows:
        return "no rows"
    limit = rows[0]["defence"]["node_limit"]
    lines = [f"| phase (boneyard) | tried | solved before (Python, 50,000) | solved now (C, {limit:,}) |",
             "|---|---|---|---|"]
    for lo, hi in PHASES + ((0, 18),):
        label = (f"{lo}" if lo == hi else f"{lo}-{hi}") if (lo, hi) != (0, 18) else "all"
        sel = [r for r in rows if lo <= r["bone"] <= hi]
        before = sum(not r["before"]["refused"] for r in sel)
        now = sum("refused" not in r["defence"] for r in sel)
        lines.append(f"| {label} | {len(sel)} | {before} | {now} |")
    refused = [r["defence"]["refused"] for r in rows if "refused" in r["defence"]]
    kinds = {}
    for m in refused:
        k = ("hidden configurations" if "configurations" in m else "node limit" if "node_limit" in m
             else "memory" if "memory" in m.lower() else m[:60])
        kinds[k] = kinds.get(k, 0) + 1
    if kinds:
        lines.append("\nrefused now: " + ", ".join(f"{v} {k}" for k, v in sorted(kinds.items())))
    new = [r for r in rows if "refused" not in r["defence"] and r["before"]["refused"]]
    if new:
        secs = sorted(r["defence"]["seconds"] for r in new)
        lines.append(f"\nthe {len(new)} positions solved now and refused before: C search median "
                     f"{secs[len(secs) // 2]:.2f} s, max {secs[-1]:.1f} s (both objectives); "
                     f"win-% loss mean ± 95 %, points loss mean ± 95 %, differs:")
        lines += _loss_lines(new, lambda r: r["defence"])
    cmp = [r for r in rows if "python_seconds" in r["defence"]]
    if cmp:
        py = sum(r["defence"]["python_seconds"] for r in cmp)
        c = sum(r["defence"]["seconds"] for r in cmp)
        ratios = sorted(r["defence"]["python_seconds"] / max(r["defence"]["seconds"], 1e-6) for r in cmp)
        differ = sum("python_nodes_differ" in r["defence"] for r in cmp)
        diff = max(r["defence"]["python_max_diff"] for r in cmp)
        lines.append(f"\nsame run, {len(cmp)} positions solved by both, both objectives: Python search {py:.2f} s, "
                     f"C search {c:.2f} s (ratio {py / c:.1f}; per position median {ratios[len(ratios) // 2]:.1f}); "
                     f"largest value difference {diff:.1e}, node counts differing on {differ}")
    return "\n".join(lines)


def run_estimate_job(job) -> dict:
    """A position beyond exact reach: the sampled estimate (``sample_worlds`` worlds, half choose
    the strategy, half judge it) in both currencies. The reference move is the one the choosing
    half's best response picks; each method's loss is the judging half's value of that move minus
    its pick's, paired over the same worlds (unbiased for that difference), with its standard error."""
    row, sample_worlds, node_limit = job[:3]
    sample_draws = job[3] if len(job) > 3 else False
    objectives = job[4] if len(job) > 4 else ("win", "points")
    from fiveup_solver.exact import sampled_result
    obs = journal_observation(row)
    out = {k: row[k] for k in ("index", "seed", "phase", "bone", "hands", "scores", "seat", "picks")}
    est = {"sample_worlds": sample_worlds, "node_limit": node_limit, "kind": "estimate",
           "sample_draws": sample_draws, "objectives": list(objectives)}
    if "refused" not in row["exact"][0]:    # solved exactly too: kept to check the estimate against
        out["exact_greedy"] = {k: row["exact"][0][k] for k in ("win", "points")}
    t = time.perf_counter()
    try:
        for obj in objectives:
            r = sampled_result(obs, objective=obj, sample_worlds=sample_worlds, seed=row["index"],
                               node_limit=node_limit, sample_draws=sample_draws)
            ref = max(r.in_sample, key=lambda m: (r.in_sample[m], -m))
            est[obj] = {str(m): [r.values[m], r.stderr[m], r.in_sample[m], r.in_sample_stderr[m]] for m in r.values}
            est[f"reference_{obj}"] = ref
            est[f"loss_{obj}"] = {name: list(r.loss(ref, pick)) for name, pick in row["picks"].items()}
            est[f"nodes_{obj}"] = r.nodes
    except ValueError as e:
        est["refused"] = str(e)
    est["seconds"] = round(time.perf_counter() - t, 3)
    out["estimate"] = est
    return out


def merged_rows(paths: list) -> list:
    """Journal rows, a later journal's row replacing an earlier one of the same (seed, index)."""
    rows: dict = {}
    for path in paths:
        for line in open(path):
            r = json.loads(line)
            rows[(r["seed"], r["index"])] = r
    return [rows[k] for k in sorted(rows, key=lambda k: k[1])]


def report_estimates(path: str, markdown: bool = False) -> str:
    """The table of an estimate journal: per phase, each method's mean loss against the sampled
    best response's move (the judging half's values, paired), with the 95 % interval of the mean
    over positions (normal; its spread holds both the positions' and the sampling's variance).
    Where a position is solved exactly too, the same methods' exact losses on those positions are
    given beside the estimate's (the estimator checked where the truth is known)."""
    rows = [json.loads(line) for line in open(path)]
    names = list(METHODS) + list(BASELINES)
    objectives = [o for o in ("win", "points") if any(f"loss_{o}" in r["estimate"] for r in rows)]
    header = ["phase (boneyard)", "positions", "estimated", "method", "differs"]
    header += [f"{'win-%' if o == 'win' else 'points'} loss mean ± 95 %" for o in objectives]
    header += ["exact solved", "same positions: estimated / exact win-% loss"]
    scale = {"win": 100, "points": 1}
    table = []
    for lo, hi in PHASES + ((0, 18),):
        label = (f"{lo}" if lo == hi else f"{lo}-{hi}") if (lo, hi) != (0, 18) else "all"
        sel = [r for r in rows if lo <= r["bone"] <= hi]
        done = [r for r in sel if "refused" not in r["estimate"]]
        if not sel:
            continue
        both = [r for r in done if "exact_greedy" in r]
        for name in names:
            cells = [label, str(len(sel)), str(len(done)), name]
            if not done:
                table.append(cells + ["-"] * (len(header) - 4))
                continue
            differs = sum(r["picks"][name] != r["estimate"]["reference_" + objectives[0]] for r in done)
            cells.append(f"{differs}/{len(done)}")
            for o in objectives:
                xs = [scale[o] * r["estimate"][f"loss_{o}"][name][0] for r in done]
                cells.append(_mean_cell(xs, 2))
            cells.append(str(len(both)))
            if both and "win" in objectives:
                est = [100 * r["estimate"]["loss_win"][name][0] for r in both]
                ex = [100 * (max(r["exact_greedy"]["win"].values()) - r["exact_greedy"]["win"][str(r["picks"][name])])
                      for r in both]
                cells.append(f"{_mean_cell(est, 2)} / {_mean_cell(ex, 2)}")
            else:
                cells.append("-")
            table.append(cells)
    kinds = sorted({(r["estimate"]["sample_worlds"], bool(r["estimate"].get("sample_draws")),
                     r["estimate"]["node_limit"]) for r in rows})
    lines = [f"\nEstimated against greedy (an estimate, not exact): {len(rows)} positions, "
             + "; ".join(f"{k} sampled worlds{' with their draws' if d else ''}, node limit {n:,}"
                         for k, d, n in kinds)
             + " (loss = held-out value of the move the choosing half's best response picks - held-out value "
               "of the method's pick, paired over the judging worlds)"]
    if markdown:
        lines.append("| " + " | ".join(header) + " |")
        lines.append("|" + "---|" * len(header))
        lines += ["| " + " | ".join(t) + " |" for t in table]
    else:
        lines.append("  ".join(f"{h:>16}" for h in header))
        lines += ["  ".join(f"{c:>16}" for c in t) for t in table]
    secs = sorted(r["estimate"]["seconds"] for r in rows if "refused" not in r["estimate"])
    if secs:
        lines.append(f"estimate time ({', '.join(objectives)}): median {secs[len(secs) // 2]:.3f} s, "
                     f"p95 {secs[int(0.95 * (len(secs) - 1))]:.3f} s, max {secs[-1]:.3f} s")
    return "\n".join(lines)


def report_reach(paths: list) -> str:
    """Before and after: positions solved against greedy per phase, the first journal's search
    against the last one's, and the time of both searches on the positions compared."""
    first = {(r["seed"], r["index"]): r for r in map(json.loads, open(paths[0]))}
    rows = merged_rows(paths)
    lines = ["| phase (boneyard) | positions | solved before | solved now |", "|---|---|---|---|"]
    for lo, hi in PHASES + ((0, 18),):
        label = (f"{lo}" if lo == hi else f"{lo}-{hi}") if (lo, hi) != (0, 18) else "all"
        sel = [r for r in rows if lo <= r["bone"] <= hi]
        before = sum("refused" not in first[(r["seed"], r["index"])]["exact"][0] for r in sel)
        now = sum("refused" not in r["exact"][0] for r in sel)
        lines.append(f"| {label} | {len(sel)} | {before} | {now} |")
    new = [r for r in rows if "refused" not in r["exact"][0]
           and "refused" in first[(r["seed"], r["index"])]["exact"][0]]
    if new:
        lines.append(f"\nthe {len(new)} positions solved now and refused before (win-% loss mean ± 95 %, "
                     f"points loss mean ± 95 %, differs):")
        lines += _loss_lines(new, lambda r: r["exact"][0])
    cmp = [r for r in rows if "python_seconds" in r.get("reach", {})]
    if cmp:
        py = sum(r["reach"]["python_seconds"] for r in cmp)
        c = sum(r["exact"][0]["seconds"] for r in cmp)
        lines.append(f"\nsame run, {len(cmp)} positions solved by both, both objectives: Python search "
                     f"{py:.2f} s, C search {c:.2f} s (ratio {py / c:.1f})")
    return "\n".join(lines)


def _stats(losses: list) -> tuple:
    if not losses:
        return None, None
    s = sorted(losses)
    return sum(s) / len(s), s[min(len(s) - 1, int(0.95 * len(s)))]


def _loss_lines(rows: list, exact_of) -> list:
    """One line per method: its win-% and points loss against the exact values
    ``exact_of(row)`` (mean ± 95 %), and on how many rows its pick is off the best."""
    lines = []
    for name in list(METHODS) + list(BASELINES):
        lw, lp, differs = [], [], 0
        for r in rows:
            ex = exact_of(r)
            pick = str(r["picks"][name])
            lw.append(100 * (max(ex["win"].values()) - ex["win"][pick]))
            lp.append(max(ex["points"].values()) - ex["points"][pick])
            differs += ex["win"][pick] < max(ex["win"].values()) - 1e-9
        lines.append(f"  {name}: {_mean_cell(lw, 2)} win-%, {_mean_cell(lp, 1)} points, {differs}/{len(rows)}")
    return lines


def _half_width(losses: list) -> float:
    """Half the width of the normal 95 % interval of the mean."""
    n = len(losses)
    if n < 2:
        return 0.0
    m = sum(losses) / n
    return 1.96 * (sum((x - m) ** 2 for x in losses) / (n - 1) / n) ** 0.5


MIN_INTERVAL_N = 30     # below this many positions a cell gives the mean and its count, no interval


def _mean_cell(values: list, digits: int = 2) -> str:
    """A "mean ± 95 %" cell: with ``MIN_INTERVAL_N`` (30) values or more, the mean and the half-width
    of the normal 95 % interval of the mean (``_half_width``), both to ``digits`` decimals; with
    fewer, the mean and the count, ``"0.50 (n = 2)"``, and no interval (a normal interval on a
    handful of values means nothing: on 2 equal losses it would read ± 0.00); with none, ``"-"``."""
    n = len(values)
    if n == 0:
        return "-"
    m = sum(values) / n
    if n < MIN_INTERVAL_N:
        return f"{m:.{digits}f} (n = {n})"
    return f"{m:.{digits}f} ± {_half_width(values):.{digits}f}"


def estimate_rows(path: str, names: list) -> list:
    """Rows for the by-phase table from an estimate journal, each marked as an estimate (its
    worlds, the draws sampled or not): the loss is the judging half's paired difference (see
    :func:`report_estimates`), the interval the normal 95 % interval of the mean over positions."""
    rows = [json.loads(line) for line in open(path)]
    table = []
    for lo, hi in PHASES:
        label = f"{lo}" if lo == hi else f"{lo}-{hi}"
        sel = [r for r in rows if lo <= r["bone"] <= hi]
        done = [r for r in sel if "refused" not in r["estimate"]]
        if not sel:
            continue
        ks = sorted({r["estimate"]["sample_worlds"] for r in sel})
        draws = " with draws" if all(r["estimate"].get("sample_draws") for r in sel) else ""
        mark = f"{label} (estimate, {'/'.join(map(str, ks))} worlds{draws})"
        for name in names:
            cells = [mark, str(len(sel)), str(len(done)), name]
            if not done:
                table.append(cells + ["-"] * 5)
                continue
            ref = "reference_win" if "reference_win" in done[0]["estimate"] else "reference_points"
            cells.append(f"{sum(r['picks'][name] != r['estimate'][ref] for r in done)}/{len(done)}")
            for o, scale, digits in (("win", 100, 2), ("points", 1, 1)):
                xs = [scale * r["estimate"][f"loss_{o}"][name][0] for r in done if f"loss_{o}" in r["estimate"]]
                if xs:
                    _, p95 = _stats(xs)
                    cells += [_mean_cell(xs, digits), f"{p95:.{digits}f}"]
                else:
                    cells += ["-", "-"]
            table.append(cells)
    return table


def report(path: str, markdown: bool = False, estimates: tuple = ()) -> str:
    rows = [json.loads(line) for line in open(path)]
    players = max(r.get("players", 2) for r in rows)
    three = players > 2         # 3 or 4 players: greedy opponents only
    methods = METHODS_OF[players]
    names = list(methods) + list(BASELINES)
    lines = []
    for opponent_i, opponent in enumerate(("greedy",) if three else ("greedy", "best-defence")):
        lines.append(f"\nAgainst {opponent}: {len(rows)} positions "
                     f"(loss = exact value of the exact best move - exact value of the method's pick)")
        header = ["phase (boneyard)", "positions", "exact", "method", "differs", "win-% loss mean ± 95 %", "p95",
                  "points loss mean ± 95 %", "p95"]
        table = []
        for lo, hi in (PHASES_3P if three else PHASES) + ((0, 18),):
            label = (f"{lo}" if lo == hi else f"{lo}-{hi}") if (lo, hi) != (0, 18) else "all"
            sel = [r for r in rows if lo <= r["bone"] <= hi]
            solved = [r for r in sel if "refused" not in r["exact"][opponent_i]]
            for name in names:
                differs, lw, lp = 0, [], []
                for r in solved:
                    ex = r["exact"][opponent_i]
                    pick = str(r["picks"][name])
                    best_w, best_p = max(ex["win"].values()), max(ex["points"].values())
                    lw.append(100 * (best_w - ex["win"][pick]))
                    lp.append(best_p - ex["points"][pick])
                    differs += ex["win"][pick] < best_w - 1e-9
                _, pw = _stats(lw)
                _, pp = _stats(lp)
                table.append([label, str(len(sel)), f"{len(solved)}", name,
                              f"{differs}/{len(solved)}" if solved else "-",
                              _mean_cell(lw, 2), f"{pw:.2f}" if pw is not None else "-",
                              _mean_cell(lp, 1),
                              f"{pp:.1f}" if pp is not None else "-"])
        if opponent == "greedy":
            for est in estimates:   # beyond exact reach: estimated rows, marked as such
                table += estimate_rows(est, names)
        if markdown:
            lines.append("| " + " | ".join(header) + " |")
            lines.append("|" + "---|" * len(header))
            lines += ["| " + " | ".join(t) + " |" for t in table]
        else:
            lines.append("  ".join(f"{h:>16}" for h in header))
            lines += ["  ".join(f"{c:>16}" for c in t) for t in table]
        secs = [r["exact"][opponent_i]["seconds"] for r in rows if "refused" not in r["exact"][opponent_i]]
        if secs:
            secs.sort()
            lines.append(f"exact search time (both objectives): median {secs[len(secs) // 2]:.3f} s, "
                         f"p95 {secs[int(0.95 * (len(secs) - 1))]:.3f} s, max {secs[-1]:.3f} s")
    times = {n: sorted(r["method_seconds"][n] for r in rows) for n in methods}
    lines.append("\nmethod time per decision (s): " + ", ".join(
        f"{n} median {t[len(t) // 2]:.4f} p95 {t[int(0.95 * (len(t) - 1))]:.4f}" for n, t in times.items() if t))
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="benchmarks/results/exact_yardstick_2p.jsonl")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--node-limit", type=int, default=1_000_000, help="greedy yardstick: world positions")
    ap.add_argument("--defence-node-limit", type=int, default=50_000, help="best-defence yardstick")
    ap.add_argument("--max-worlds", type=int, default=5_000)
    ap.add_argument("--report", metavar="JOURNAL", default=None)
    ap.add_argument("--reach", metavar="JOURNAL", default=None,
                    help="re-solve this journal's positions (refused ones first, by phase, latest first) "
                         "with the C search at --node-limit/--max-worlds; --out the new journal")
    ap.add_argument("--phases", default="5-6,7-18,3-4,1-2,0", help="--reach: the phases, in order")
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--compare", type=int, default=0,
                    help="--reach: also time the Python search on this many positions it solved before")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--merge", nargs="*", default=[],
                    help="--report: later journals whose rows replace the report journal's (a --reach run)")
    ap.add_argument("--estimate", metavar="JOURNAL", nargs="+", default=None,
                    help="estimate the positions of these journals (merged) still refused against greedy; "
                         "--out the estimate journal")
    ap.add_argument("--sample-worlds", type=int, default=40)
    ap.add_argument("--sample-draws", action="store_true",
                    help="--estimate: each sampled world fixes the boneyard's order (the draws sampled with it)")
    ap.add_argument("--objectives", default="win,points", help="--estimate: the objectives estimated")
    ap.add_argument("--include-solved", action="store_true",
                    help="--estimate: the positions solved exactly too (the estimate checked against them)")
    ap.add_argument("--max-bone", type=int, default=18, help="--reach, --estimate: positions with at most "
                                                               "this many boneyard tiles")
    ap.add_argument("--report-estimates", metavar="JOURNAL", default=None)
    ap.add_argument("--estimates", metavar="JOURNAL", nargs="*", default=[],
                    help="--report: estimate journals whose rows join the table against greedy, marked estimate")
    ap.add_argument("--defence", metavar="JOURNAL", nargs="+", default=None,
                    help="best defence again with the C search (--defence-node-limit, default the yardstick's "
                         "default) on the journal's positions solved against greedy (later journals: --reach runs)")
    ap.add_argument("--memory-gb", type=float, default=6.0, help="--defence: address space of a worker")
    ap.add_argument("--refused-in", metavar="JOURNAL", default=None,
                    help="--defence: only the positions this --defence journal refused (a run at a larger limit)")
    ap.add_argument("--report-defence", metavar="JOURNAL", nargs="+", default=None)
    ap.add_argument("--with-defence", metavar="JOURNAL", nargs="*", default=[],
                    help="--report: best defence from these --defence journals (later ones win) where they "
                         "tried a position, instead of the first run's")
    args = ap.parse_args(argv)
    if args.report_defence:
        print(report_defence(args.report_defence))
        return 0
    if args.report_estimates:
        print(report_estimates(args.report_estimates, args.markdown))
        return 0
    if args.report:
        if args.merge or args.with_defence:
            merged = args.report + ".merged.tmp"
            defence = {(r["seed"], r["index"]): r["defence"] for r in merged_rows(args.with_defence)} \
                if args.with_defence else {}
            with open(merged, "w") as f:
                for r in merged_rows([args.report] + args.merge):
                    if (r["seed"], r["index"]) in defence:
                        r["exact"] = [r["exact"][0], defence[(r["seed"], r["index"])]]
                    f.write(json.dumps(r) + "\n")
            if args.merge:
                print(report_reach([args.report] + args.merge))
            print(report(merged, args.markdown, tuple(args.estimates)))
            os.remove(merged)
        else:
            print(report(args.report, args.markdown, tuple(args.estimates)))
        return 0
    sys.path.insert(0, os.path.dirname(__file__))
    from resumable import finished, run_jobs
    if args.estimate:
        order = {ph: i for i, ph in enumerate(args.phases.split(","))}
        rows = [r for r in merged_rows(args.estimate) if ("refused" in r["exact"][0] or args.include_solved)
                and r["phase"] in order and r["bone"] <= args.max_bone]
        # phase by phase in the given order, a phase's positions in journal order, the round's
        # first moves (boneyard 14+: the whole round ahead, the costliest) after the rest
        rows.sort(key=lambda r: (r["bone"] >= 14, order[r["phase"]], r["index"]))
        objectives = tuple(args.objectives.split(","))
        if not set(objectives) <= {"win", "points"} or not objectives:
            ap.error("--objectives: win and/or points")
        done = finished(args.out, lambda r: (r["seed"], r["index"]))
        jobs = [(r, args.sample_worlds, args.node_limit, args.sample_draws, objectives) for r in rows
                if (r["seed"], r["index"]) not in done]
        run_jobs(run_estimate_job, jobs, args.out, args.workers, "positions")
        return 0
    if args.defence:
        from fiveup_solver.exact import DEFAULT_NODE_LIMIT
        limit = args.defence_node_limit if "--defence-node-limit" in (argv or sys.argv) else DEFAULT_NODE_LIMIT
        order = {ph: i for i, ph in enumerate(args.phases.split(","))}
        rows = [r for r in merged_rows(args.defence) if "refused" not in r["exact"][0] and r["phase"] in order
                and r["bone"] <= args.max_bone]
        if args.refused_in:
            refused_before = {(r["seed"], r["index"]) for r in merged_rows([args.refused_in])
                              if "refused" in r["defence"]}
            rows = [r for r in rows if (r["seed"], r["index"]) in refused_before]
        done = finished(args.out, lambda r: (r["seed"], r["index"]))
        # first the --compare positions solved before (timed against Python), then the refused
        # ones phase by phase, then the rest solved before
        solved = [r for r in rows if "refused" not in r["exact"][1]]
        compare = solved[:args.compare]
        refused = sorted((r for r in rows if "refused" in r["exact"][1]), key=lambda r: (order[r["phase"]], r["index"]))
        jobs = [(r, limit, args.max_worlds, r in compare, args.memory_gb) for r in compare + refused + solved[args.compare:]
                if (r["seed"], r["index"]) not in done]
        run_jobs(run_defence_job, jobs, args.out, args.workers, "positions")
        print(report_defence([args.out]))
        return 0
    if args.reach:
        rows = [json.loads(line) for line in open(args.reach)]
        done = finished(args.out, lambda r: (r["seed"], r["index"]))
        order = {ph: i for i, ph in enumerate(args.phases.split(","))}
        solved = [r for r in rows if "refused" not in r["exact"][0] and r["phase"] in order][:args.compare]
        refused = sorted((r for r in rows if "refused" in r["exact"][0] and r["phase"] in order
                          and r["bone"] <= args.max_bone),
                         key=lambda r: (order[r["phase"]], r["index"]))
        jobs = [(r, args.node_limit, args.max_worlds, r in solved) for r in solved + refused
                if (r["seed"], r["index"]) not in done]
        run_jobs(run_reach_job, jobs, args.out, args.workers, "positions")
        return 0
    done = finished(args.out, lambda r: (r["seed"], r["index"]))
    if args.players > 2:
        jobs = [(args.seed, i, args.node_limit, args.max_worlds, args.players) for i in range(args.positions)
                if (args.seed, i) not in done]
        run_jobs(run_job_many, jobs, args.out, args.workers, "positions")
        print(report(args.out))
        return 0
    jobs = [(args.seed, i, args.node_limit, args.max_worlds, args.defence_node_limit)
            for i in range(args.positions) if (args.seed, i) not in done]
    run_jobs(run_job, jobs, args.out, args.workers, "positions")
    print(report(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
