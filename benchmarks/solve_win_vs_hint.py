"""The solver's win probability against a hint's and the race-equity table's at one score
(docs/solver.md: a solve's win % knows the round exactly, a seat does not).

    python benchmarks/solve_win_vs_hint.py [DEALS]

DEALS (100) 2-player rounds at 280 : 250 with seat 0 to open (Game seeds 0..DEALS-1). For each:
the solver's win value of the position (every hand and the boneyard's order known), and the
best move's win of a `hint-uniform` hint of seat 0 (its observation alone; seed = the deal's).
Prints their means, each with its standard error over the deals, and the table's W(280, 250).
"""
import statistics
import sys

from fiveup_solver import Game
from fiveup_solver.equity import equity_of_scores
from fiveup_solver.hint import hint
from fiveup_solver.solver import Solver


def main() -> None:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    solver = Solver(objective="win")
    solved, hinted = [], []
    for seed in range(deals):
        game = Game(players=2, seed=seed, scores=[280, 250], starter=0)
        solved.append(solver.solve(game).position_win)
        hinted.append(hint(game.observation(0), beliefs="uniform", objective="win", seed=seed).moves[0].win)

    def mean_se(xs):
        return f"{100 * statistics.mean(xs):.1f} % ± {100 * statistics.stdev(xs) / len(xs) ** 0.5:.1f}"
    print(f"{deals} deals at 280 : 250, seat 0 to open: solve {mean_se(solved)}, hint-uniform {mean_se(hinted)} "
          f"(± one standard error over the deals); the table {100 * equity_of_scores(2, [280, 250], 0, 0):.1f} %")


if __name__ == "__main__":
    main()
