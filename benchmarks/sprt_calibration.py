"""How often the SPRT of ``fiveup sprt`` decides wrongly: simulated tests at a known Elo.

    python benchmarks/sprt_calibration.py [--runs 20000] [--seed 2] [--out FILE.json]

Each case runs ``--runs`` SPRTs (alpha = beta = 0.05) on simulated units whose games
are independent, with BOT's win probability that of the case's true Elo
(``match.score_of_elo``: a pair or a triple of such games, no unfinished ones), and
reports the share that accepted H1, the share that accepted H0, and the median
number of units a decision took. At a true Elo of elo0 the share accepting H1 is the
test's false-positive rate (alpha asked); at elo1 the share accepting H0 is its
false-negative rate (beta asked).

The LLR is computed for all runs at once with numpy, by the formula of
``PairStats.llr``; at a few steps of the first run it is checked against
``PairStats.llr`` itself, so the simulation cannot drift from the package's code.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fiveup_solver.match import PairStats, score_of_elo, sprt_bounds  # noqa: E402

# (sides, elo0, elo1, true Elo): the docs' 3-player example, its H1, a wide 3-player test,
# the 2-player default and its H1, and a 2-player test far from 0
CASES = [(3, 0, 15, 0), (3, 0, 15, 15), (3, 0, 100, 0), (2, 0, 20, 0), (2, 0, 20, 20), (2, -200, -100, -200)]


def unit_probabilities(sides: int, elo: float) -> np.ndarray:
    """P(a unit's score is k / sides^2) for independent games won with probability p."""
    p = score_of_elo(elo, sides)
    probs = np.zeros(sides * sides + 1)
    for wins in range(sides + 1):
        probs[sides * wins] = math.comb(sides, wins) * p ** wins * (1 - p) ** (sides - wins)
    return probs


def simulate(sides: int, elo0: float, elo1: float, true_elo: float, runs: int, seed: int,
             max_units: int = 20_000) -> dict:
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
    for t in range(1, max_units + 1):
        draw = rng.choice(k, size=runs, p=probs)
        counts[np.arange(runs), draw] += alive
        n = counts.sum(1)
        mean = (counts * value).sum(1) / n                      # the observed mean
        reg = counts + 0.5                                      # the variance's pseudo-counts
        reg_mean = (reg * value).sum(1) / reg.sum(1)
        var = (reg * (value - reg_mean[:, None]) ** 2).sum(1) / reg.sum(1)
        llr = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
        if alive[0] and t in (1, 2, 5, 20, 100):
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
    return {"sides": sides, "elo0": elo0, "elo1": elo1, "true_elo": true_elo, "runs": runs, "seed": seed,
            "accepted_h1": float(np.mean(decision == 1)), "accepted_h0": float(np.mean(decision == -1)),
            "undecided": float(np.mean(~decided)),
            "median_units": float(np.median(stopped[decided])) if decided.any() else None,
            "checked_against_pairstats": checked}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--max-units", type=int, default=20_000)
    ap.add_argument("--out", help="write the rows as JSON")
    args = ap.parse_args(argv)
    rows = []
    for sides, elo0, elo1, true_elo in CASES:
        row = simulate(sides, elo0, elo1, true_elo, args.runs, args.seed, args.max_units)
        rows.append(row)
        wrong = row["accepted_h1"] if true_elo == elo0 else row["accepted_h0"]
        se = math.sqrt(wrong * (1 - wrong) / args.runs)
        print(f"{sides} sides, H0 {elo0:+} H1 {elo1:+}, true {true_elo:+}: H1 {100 * row['accepted_h1']:.2f} %, "
              f"H0 {100 * row['accepted_h0']:.2f} %, wrong {100 * wrong:.2f} % (se {100 * se:.2f}), "
              f"median units {row['median_units']}", flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
