"""How often the SPRT of ``fiveup sprt`` decides wrongly: simulated tests at a known Elo.

    python benchmarks/sprt_calibration.py [--runs 20000] [--seed 2] [--formulas exact,normal] [--out FILE.json]

Each case runs ``--runs`` SPRTs (alpha = beta = 0.05) on simulated units whose games
are independent, with BOT's win probability that of the case's true Elo
(``match.score_of_elo``: a pair or a triple of such games, no unfinished ones), and
reports the share that accepted H1, the share that accepted H0, and the median
number of units a decision took. At a true Elo of elo0 the share accepting H1 is the
test's false-positive rate (alpha asked); at elo1 the share accepting H0 is its
false-negative rate (beta asked).

Each case is run twice on the same draws: with the package's LLR (``--formula exact``,
``PairStats.llr``: the exact generalised LLR, one unit of prior at the hypotheses' mean)
and with the normal approximation it replaced on 2026-12-06 (``normal``:
``n (s1 - s0)(2m - s0 - s1) / (2v)``, v with half a unit of pseudo-count on every
outcome), so the table compares them in one run.

The LLR is computed for all runs at once with numpy; the exact one's at a few steps of
the first run is checked against ``PairStats.llr`` itself, so the simulation cannot drift
from the package's code.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fiveup_solver.match import SPRT_PRIOR_UNITS, PairStats, score_of_elo, sprt_bounds  # noqa: E402

# (sides, elo0, elo1, true Elo): the docs' 3-player example and its H1, a wide 3-player test
# at both ends, the 2-player default and its H1, 2-player windows of 100 Elo at both ends
# (where a review found the normal approximation over the asked 5 %), 50 and 200 Elo
CASES = [(3, 0, 15, 0), (3, 0, 15, 15), (3, 0, 100, 0), (3, 0, 100, 100), (2, 0, 20, 0), (2, 0, 20, 20),
         (2, 0, 100, 0), (2, 0, 100, 100), (2, -200, -100, -200), (2, -200, -100, -100), (2, 0, 50, 0),
         (2, 0, 200, 0)]
FORMULAS = ("exact", "normal")


def exact_llr(counts: np.ndarray, value: np.ndarray, s0: float, s1: float) -> np.ndarray:
    """PairStats.llr for every row of counts at once: n (D(s0) - D(s1)), D by the dual of
    match._min_divergence with x bisected for all rows together."""
    n = counts.sum(1)
    mid = (s0 + s1) / 2
    q = counts.astype(float)
    q[:, 0] += SPRT_PRIOR_UNITS * (1 - mid)
    q[:, -1] += SPRT_PRIOR_UNITS * mid
    q /= (n + SPRT_PRIOR_UNITS)[:, None]

    def divergence(s):
        d = value[None, :] - s
        lo = np.full(len(q), -1.0 / (1.0 - s))
        hi = np.full(len(q), 1.0 / s)
        for _ in range(80):
            x = (lo + hi) / 2
            slope = (q * d / (1 + x[:, None] * d)).sum(1)
            lo, hi = np.where(slope > 0, x, lo), np.where(slope > 0, hi, x)
        x = (lo + hi) / 2
        return (q * np.log1p(x[:, None] * d)).sum(1)
    return n * (divergence(s0) - divergence(s1))


def normal_llr(counts: np.ndarray, value: np.ndarray, s0: float, s1: float) -> np.ndarray:
    """The normal approximation used until 2026-12-06: the observed mean, the variance with
    half a unit of pseudo-count on every outcome."""
    n = counts.sum(1)
    mean = (counts * value).sum(1) / n
    reg = counts + 0.5
    reg_mean = (reg * value).sum(1) / reg.sum(1)
    var = (reg * (value - reg_mean[:, None]) ** 2).sum(1) / reg.sum(1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def unit_probabilities(sides: int, elo: float) -> np.ndarray:
    """P(a unit's score is k / sides^2) for independent games won with probability p."""
    p = score_of_elo(elo, sides)
    probs = np.zeros(sides * sides + 1)
    for wins in range(sides + 1):
        probs[sides * wins] = math.comb(sides, wins) * p ** wins * (1 - p) ** (sides - wins)
    return probs


def simulate(sides: int, elo0: float, elo1: float, true_elo: float, runs: int, seed: int,
             max_units: int = 20_000, formula: str = "exact") -> dict:
    rng = np.random.default_rng(seed)
    k = sides * sides + 1
    value = np.arange(k) / (sides * sides)
    s0, s1 = score_of_elo(elo0, sides), score_of_elo(elo1, sides)
    lower, upper = sprt_bounds(0.05, 0.05)
    probs = unit_probabilities(sides, true_elo)
    counts = np.zeros((runs, k))
    alive = np.ones(runs, bool)
    decision = np.zeros(runs, int)
    stopped = np.zeros(runs, int)
    checked = 0
    llr_of = {"exact": exact_llr, "normal": normal_llr}[formula]
    for t in range(1, max_units + 1):
        draw = rng.choice(k, size=runs, p=probs)     # every run draws (the same draws for both formulas)
        live = np.flatnonzero(alive)
        counts[live, draw[live]] += 1
        llr = np.zeros(runs)
        llr[live] = llr_of(counts[live], value, s0, s1)
        if alive[0] and formula == "exact" and t in (1, 2, 5, 20, 100):
            st = PairStats(sides=sides)
            st.counts = [int(c) for c in counts[0]]
            assert abs(st.llr(elo0, elo1) - llr[0]) < 1e-9, (t, st.llr(elo0, elo1), llr[0])
            checked += 1
        up = alive & (llr >= upper)
        down = alive & (llr <= lower)
        decision[up], decision[down] = 1, -1
        stopped[up | down] = t
        alive &= ~(up | down)
        if not alive.any():
            break
    decided = decision != 0
    return {"sides": sides, "elo0": elo0, "elo1": elo1, "true_elo": true_elo, "formula": formula, "runs": runs,
            "seed": seed,
            "accepted_h1": float(np.mean(decision == 1)), "accepted_h0": float(np.mean(decision == -1)),
            "undecided": float(np.mean(~decided)),
            "median_units": float(np.median(stopped[decided])) if decided.any() else None,
            "checked_against_pairstats": checked}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--max-units", type=int, default=20_000)
    ap.add_argument("--formulas", default=",".join(FORMULAS),
                    help="the LLRs to run, of exact (the package's) and normal (the one before)")
    ap.add_argument("--out", help="write the rows as JSON")
    args = ap.parse_args(argv)
    rows = []
    for sides, elo0, elo1, true_elo in CASES:
        for formula in args.formulas.split(","):
            row = simulate(sides, elo0, elo1, true_elo, args.runs, args.seed, args.max_units, formula)
            rows.append(row)
            wrong = row["accepted_h1"] if true_elo == elo0 else row["accepted_h0"]
            se = math.sqrt(wrong * (1 - wrong) / args.runs)
            print(f"{sides} sides, H0 {elo0:+} H1 {elo1:+}, true {true_elo:+}, {formula}: "
                  f"H1 {100 * row['accepted_h1']:.2f} %, H0 {100 * row['accepted_h0']:.2f} %, wrong {100 * wrong:.2f} % "
                  f"(se {100 * se:.2f}), median units {row['median_units']}", flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
