"""How often the pair interval (match.PairStats.interval) covers the true mean score, by
simulation, against the same rule with a Student t quantile (docs/matches.md: the
interval's small-sample coverage).

    python benchmarks/pair_interval_coverage.py [RUNS]

Units drawn from six pentanomial (3-player: ten-outcome) distributions, among them the
shipped ladder's level5 against level4 and a measured 3-player one; RUNS (4000) samples each
of 5, 10, 20, 50 and 100 units (numpy seed 5). Prints the coverage in % per rule, case and
size. Needs scipy (the t quantile), which the package does not.
"""
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


def with_t_quantile(counts, sides, z):
    """The package's rule with a Student t quantile (n - 1 degrees of freedom) for the normal one."""
    from scipy import stats
    n = sum(counts)
    return RULE(counts, sides, stats.t.ppf(stats.norm.cdf(z), n - 1) if n > 1 else z)


def coverage(runs: int) -> dict:
    out = {}
    for kind in ("z", "t"):
        M._unit_interval = RULE if kind == "z" else with_t_quantile
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
