"""How often the pair interval (match.PairStats.interval) covers the true mean score, by
simulation, against the same rule with a Student t quantile or an n - 1 variance
(docs/matches.md: the interval's small-sample coverage).

    python benchmarks/pair_interval_coverage.py [RUNS]

Units drawn from six pentanomial (3-player: ten-outcome) distributions, among them the
shipped ladder's level5 against level4 and a measured 3-player one; RUNS (4000) samples each
of 5, 10, 20, 50 and 100 units (numpy seed 5). Prints the coverage in % per rule, case and
size. Needs scipy (the t quantile), which the package does not.
"""
import math
import sys

import numpy as np

import fiveup_solver.match as M

RULE = M._unit_interval           # the package's rule ("z" below)
CASES = {
    "2p l5vl4": (2, [12, 0, 56, 0, 32]),
    "2p lopsided .9": (2, [1, 0, 18, 0, 81]),
    "2p even": (2, [25, 0, 50, 0, 25]),
    "2p wide": (2, [30, 0, 40, 0, 30]),
    "3p l3vl2": (3, [8, 0, 0, 25, 0, 0, 13, 0, 0, 4]),
    "3p weak": (3, [70, 0, 0, 25, 0, 0, 5, 0, 0, 0]),
}


def variant(kind: str):
    """The package's rule with an n - 1 variance ("n1"), a Student t quantile ("t"), or both."""
    from scipy import stats

    def interval(counts, sides, z):
        n = sum(counts)
        if not n:
            return (0.0, 1.0)
        step = 1.0 / (sides * sides)
        values = [k * step for k in range(len(counts))]
        mean = sum(c * v for c, v in zip(counts, values)) / n
        variance = sum(c * (v - mean) ** 2 for c, v in zip(counts, values)) / n
        reg = [c + 0.5 for c in counts]
        total = sum(reg)
        m = sum(c * v for c, v in zip(reg, values)) / total
        prior = sum(c * (v - m) ** 2 for c, v in zip(reg, values)) / total
        var = max(variance * n / max(n - 1, 1) if kind in ("n1", "t_n1") else variance, prior)
        q = stats.t.ppf(stats.norm.cdf(z), n - 1) if kind in ("t", "t_n1") and n > 1 else z
        half = q * math.sqrt(var / n)
        low, high = mean - half, mean + half
        if low <= 0.0 or high >= 1.0:
            shares = [c / n for c in counts]
            if low <= 0.0:
                low = M._likelihood_end(shares, values, n, mean, 0.0, q * q / 2)
            if high >= 1.0:
                high = M._likelihood_end(shares, values, n, mean, 1.0, q * q / 2)
        return (low, high)
    return interval


def coverage(runs: int) -> dict:
    out = {}
    for kind in ("z", "n1", "t", "t_n1"):
        M._unit_interval = RULE if kind == "z" else variant(kind)
        try:
            for name, (sides, counts) in CASES.items():
                rng = np.random.default_rng(5)
                p = np.array(counts, float) / sum(counts)
                mu = (p * np.arange(len(counts)) / (sides * sides)).sum()
                row = []
                for n in (5, 10, 20, 50, 100):
                    hit = 0
                    for _ in range(runs):
                        lo, hi = M.PairStats(sides=sides, counts=list(rng.multinomial(n, p))).interval()
                        hit += lo <= mu <= hi
                    row.append(100 * hit / runs)
                out[(kind, name)] = row
        finally:
            M._unit_interval = RULE
    return out


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
    table = coverage(runs)
    print("rule / case: coverage % at 5, 10, 20, 50, 100 units")
    for (kind, name), row in table.items():
        print(f"{kind:5s} {name:16s}", " ".join(f"{x:5.1f}" for x in row))


if __name__ == "__main__":
    main()
