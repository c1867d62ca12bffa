"""The cost of the rollout judge per game (``fiveup analyze --judge rollout``).

A whole game analysed with the rollout judge plays, at every judged decision,
``rollouts`` playouts per candidate (canonical move) to the game's end. Played
out in full that is hours per game on this machine, so the cost is estimated
from one game played by the rollout bot in every seat, timing every action:

    cost = rollouts x sum over judged decisions of (candidates x seconds of the
           game's actions after the decision)

(the game's own continuation stands for a playout's length). With
``--horizons game,round`` the same game also gives the estimate for playouts
that stop at the round's end (``--rollout-horizon round``): the seconds of the
rest of the decision's round instead of the rest of the game. Seconds are CPU
seconds of this process (``time.process_time``: both search threads counted),
which a machine shared with other work does not inflate; on a quiet machine
the wall time is lower (the hint search runs on 2 threads). The estimate is
checked on a few decisions (spread over the game) by running the rollout judge
there with a few playouts: measured CPU seconds per playout against the
estimate's.

    nice -n 10 python benchmarks/rollout_cost.py --players 2,3,4 --check 3 \\
        --out benchmarks/results/rollout_cost.json
    nice -n 10 python benchmarks/rollout_cost.py --players 2,3,4 --check 3 --horizons game,round \\
        --out benchmarks/results/rollout_cost_horizon.json
"""
from __future__ import annotations

import argparse
import json
import random
import time

from fiveup_solver import Game, _core
from fiveup_solver.bots import choose
from fiveup_solver.rollout import DEFAULT_ROLLOUTS, HORIZONS, rollout


def timed_game(players: int, seed: int, bot: str):
    """A whole game with `bot` in every seat: (game, seconds of each action in order,
    the round of each action, positions of the judged decisions: (action index, seat,
    candidates, observation))."""
    game = Game(players=players, seed=seed)
    rngs = [random.Random(f"{seed}/{s}") for s in range(players)]
    times, round_of, judged = [], [], []
    while True:
        if game.round_over:
            if game.game_over or len(game.rounds) >= 60:
                break
            game.next_round()
        seat = game.to_move
        legal = game.legal_moves
        obs = game.observation(seat)
        if len(legal) > 1:
            judged.append((len(times), seat, len({_core.canonical_of(*m.placement) for m in legal}), obs))
        t = time.process_time()
        game.push(choose(bot, obs, rngs[seat]))
        times.append(time.process_time() - t)
        round_of.append(len(game.rounds) - 1)
    return game, times, round_of, judged


def measure(players: int, seed: int, bot: str, rollouts: int, check: int, horizons=("game",)) -> dict:
    game, times, round_of, judged = timed_game(players, seed, bot)
    after = {"game": [sum(times[i + 1:]) for i in range(len(times))],      # seconds of the game after action i
             "round": [sum(t for t, q in zip(times[i + 1:], round_of[i + 1:]) if q == round_of[i])
                       for i in range(len(times))]}                       # ... of the rest of its round
    row = {"players": players, "seed": seed, "bot": bot, "rounds": len(game.rounds), "actions": len(times),
           "judged": len(judged), "candidates_mean": round(sum(c for _, _, c, _ in judged) / len(judged), 2),
           "game_cpu_seconds": round(sum(times), 2), "rollouts": rollouts,
           "estimate_playouts": rollouts * sum(c for _, _, c, _ in judged)}
    for horizon in horizons:
        per_decision = [cands * after[horizon][i] for i, _, cands, _ in judged]
        key = "estimate_cpu_seconds" + ("" if horizon == "game" else f"_{horizon}")
        row[key] = round(rollouts * sum(per_decision), 1)
    checks = []
    for q in range(check):
        i, seat, cands, obs = judged[len(judged) * q // check]
        for horizon in horizons:
            t = time.process_time()
            r = rollout(obs, rollouts=2, bot=bot, seed=q, horizon=horizon)
            seconds = time.process_time() - t
            checks.append({"action": i, "horizon": horizon, "candidates": cands,
                           "estimated_cpu_seconds_per_playout": round(after[horizon][i], 3),
                           "measured_cpu_seconds_per_playout": round(seconds / r.playouts, 3),
                           "measured_actions_per_playout": round(r.actions / r.playouts, 1),
                           "game_actions_after": len(times) - i - 1})
    row["checks"] = checks
    return row


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--bot", default="hint")
    ap.add_argument("--rollouts", type=int, default=DEFAULT_ROLLOUTS)
    ap.add_argument("--check", type=int, default=3, help="decisions on which the estimate is checked")
    ap.add_argument("--horizons", default="game", help=f"comma-separated, of {', '.join(HORIZONS)}")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    rows = []
    horizons = args.horizons.split(",")
    if any(h not in HORIZONS for h in horizons):
        ap.error(f"--horizons: each of {', '.join(HORIZONS)}")
    for players in map(int, args.players.split(",")):
        rows.append(measure(players, args.seed, args.bot, args.rollouts, args.check, horizons))
        print(json.dumps(rows[-1]), flush=True)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
