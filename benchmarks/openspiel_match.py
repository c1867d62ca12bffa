"""The project's hint bot against OpenSpiel's searches on the OpenSpiel adapter, on duplicate deals.

Opponents: OpenSpiel's ISMCTS (``open_spiel/python/algorithms/ismcts.py``) with the
adapter's exact resampler (DealSampler) at each budget of ``--ismcts-sims``, and
OpenSpiel's MCTS (perfect-information UCT) run on one state resampled from the bot's
own information per move (a determinization: it never sees hidden tiles), by default
with the simulations that take it as long per move as the hint bot took in this run. Both use
OpenSpiel's random-rollout evaluator. ``--engine-bots`` adds the project's own bots
(e.g. ``greedy,random``) as opponents on the same deals, a yardstick for the rest.
Every deal sequence is played from every seating (2 and 4 players: sides swapped;
3 players: the hint bot in each seat against two of the opponent), and chance is replayed identically in every seating: each round's tiles
come from one seeded permutation (the deal, then the draws in that order) and its
starter, when drawn, from one seeded draw.

Reports, per opponent: the hint bot's wins, ties and losses, its win rate with a 95 %
Wilson interval (a tie counts half), and the mean seconds per decision of each side
(moves with one legal action are not counted); then the adapter's random simulations
per second (one round, and whole games) against OpenSpiel's ``python_block_dominoes``,
measured in the same run.

``--mode round`` (default) plays one round per game (won by the side gaining more raw
points in it); ``--mode game`` plays whole games to 305 (hours at 1,000 simulations:
OpenSpiel's searches run in Python).

    python benchmarks/openspiel_match.py --players 2 --deals 100 --ismcts-sims 100,1000 --mcts-sims auto \
        --workers 2 --journal benchmarks/results/openspiel_match.jsonl

A quick check of the script (seconds):

    python benchmarks/openspiel_match.py --deals 1 --ismcts-sims 10 --mcts-sims 10 --sim-seconds 0.5

Deal sequences run in ``--workers`` processes; ``--journal`` keeps finished deals
(JSON Lines), so a long run can stop and resume with the same command.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time

from fiveup_solver import _core
from fiveup_solver.openspiel import STARTER
from fiveup_solver.selfplay import match_seatings, wilson_interval


def _chance(state, deal_seed: int, players: int) -> int:
    """Chance outcomes that are the same in every seating of a deal sequence."""
    table = state.table()
    r = table.round_index
    outcomes = [a for a, _ in state.chance_outcomes()]
    if table.phase == STARTER:
        return random.Random(f"{deal_seed}/{r}/starter").randrange(players)
    perm = random.Random(f"{deal_seed}/{r}").sample(range(28), 28)
    allowed = set(outcomes)
    return next(t for t in perm if t in allowed)


class EnginePlayer:
    """One of the project's bots (``hint-uniform`` by default: the recorded matches were
    played with it), from the player's own observation."""

    def __init__(self, seed, name="hint-uniform"):
        self.name = name
        self.rng = random.Random(seed)

    def act(self, state):
        from fiveup_solver.bots import choose
        from fiveup_solver.openspiel import move_to_action
        p = state.current_player()
        return move_to_action(choose(self.name, state.engine_game.observation(p), self.rng))


class ISMCTSPlayer:
    def __init__(self, game, sims, seed, uct_c):
        import numpy as np
        from open_spiel.python.algorithms import ismcts, mcts
        from fiveup_solver.openspiel import make_resampler
        rs = np.random.RandomState(seed % 2 ** 32)
        self.name = f"ismcts-{sims}"
        self.bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs), uct_c=uct_c,
                                    max_simulations=sims, random_state=rs,
                                    final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        self.bot.set_resampler(make_resampler(seed))

    def act(self, state):
        return int(self.bot.step(state))


class MCTSPlayer:
    """OpenSpiel's MCTS on one state resampled from the player's information (no peeking)."""

    def __init__(self, game, sims, seed, uct_c):
        import numpy as np
        from open_spiel.python.algorithms import mcts
        rs = np.random.RandomState(seed % 2 ** 32)
        self.name = f"mcts-{sims}"
        self.rng = random.Random(seed)
        self.bot = mcts.MCTSBot(game, uct_c, sims, mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs),
                                solve=False, random_state=rs)

    def act(self, state):
        world = state.resample(state.current_player(), self.rng.getrandbits(63))
        return int(self.bot.step(world))


def play(game, players, seats, deal_seed):
    """One game; returns (returns, {bot name: [seconds per decision]})."""
    state = game.new_initial_state()
    times = {}
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(_chance(state, deal_seed, players))
            continue
        legal = state.legal_actions()
        bot = seats[state.current_player()]
        if len(legal) == 1:
            action = legal[0]
        else:
            t = time.perf_counter()
            action = bot.act(state)
            times.setdefault(bot.name, []).append(time.perf_counter() - t)
        if action not in legal:
            raise RuntimeError(f"{bot.name} chose an illegal action {action}")
        state.apply_action(action)
    return state.returns(), times


_GAMES = {}


def _game(players, whole):
    """The OpenSpiel game, loaded once per process."""
    key = (players, whole)
    if key not in _GAMES:
        from fiveup_solver import openspiel as fo
        _GAMES[key] = fo.load_game(players, whole_game=whole)
    return _GAMES[key]


def _opponent(game, kind, sims, seed, uct_c):
    if kind == "bot":   # `sims` is the engine bot's name: a yardstick for the OpenSpiel results
        return EnginePlayer(seed, sims)
    return ISMCTSPlayer(game, sims, seed, uct_c) if kind == "ismcts" else MCTSPlayer(game, sims, seed, uct_c)


def play_deal(job):
    """Every seating of one deal sequence against one opponent: {"deal", "values", "times"}."""
    players, whole, kind, sims, uct_c, seed, d = job
    game = _game(players, whole)
    deal_seed = random.Random(f"{seed}/deal/{d}").getrandbits(63)
    values, times = [], {}
    for k, seating in enumerate(match_seatings(players, "hint", "other")):
        seats = [EnginePlayer(hash((deal_seed, k, s)) & (2 ** 62 - 1)) if b == "hint"
                 else _opponent(game, kind, sims, deal_seed ^ (k * 7919 + s), uct_c) for s, b in enumerate(seating)]
        returns, t = play(game, players, seats, deal_seed)
        for bot, ts in t.items():
            times.setdefault(bot, []).extend(ts)
        hint_seat = seating.index("hint")
        v = returns[hint_seat]
        if players == 3:
            best = max(returns)
            v = 1 if returns[hint_seat] == best and returns.count(best) == 1 else (0 if returns[hint_seat] == best
                                                                                   else -1)
        values.append(1 if v > 0 else (0 if v == 0 else -1))
    return {"opponent": f"{kind}-{sims}", "deal": d, "values": values, "times": times}


def match(players, whole, kind, sims, uct_c, deals, seed, workers=1, journal=None):
    """The hint bot against one opponent over `deals` deal sequences, in `workers`
    processes; with `journal` (JSON Lines) finished deals are kept and not replayed."""
    import os

    from fiveup_solver.parallel import ordered_map
    name = f"{kind}-{sims}"
    done = {}
    if journal and os.path.exists(journal):
        with open(journal) as f:
            for line in f:
                r = json.loads(line)
                if r["opponent"] == name:
                    done[r["deal"]] = r
    jobs = [(players, whole, kind, sims, uct_c, seed, d) for d in range(deals) if d not in done]
    log = open(journal, "a") if journal else None
    try:
        for r in ordered_map(play_deal, jobs, workers=workers):
            done[r["deal"]] = r
            if log:
                log.write(json.dumps(r) + "\n")
                log.flush()
    finally:
        if log:
            log.close()
    wins = ties = losses = 0
    times = {}
    for d in range(deals):
        r = done[d]
        wins += sum(v > 0 for v in r["values"])
        ties += sum(v == 0 for v in r["values"])
        losses += sum(v < 0 for v in r["values"])
        for bot, ts in r["times"].items():
            times.setdefault(bot, []).extend(ts)
    games = wins + ties + losses
    low, high = wilson_interval(wins + ties / 2, games) if games else (0.0, 1.0)
    return {"opponent": name, "games": games, "wins": wins, "ties": ties, "losses": losses,
            "win_rate": (wins + ties / 2) / games if games else 0.0, "ci95": [low, high],
            "seconds_per_move": {b: sum(ts) / len(ts) for b, ts in times.items() if ts}}


def mcts_sims_per_second(game, uct_c, sims: int = 200, states: int = 6) -> float:
    """OpenSpiel MCTS simulations per second on this game, from a few early decision states."""
    done, spent = 0, 0.0
    for k in range(states):
        state = game.new_initial_state()
        rng = random.Random(k)
        while state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            state.apply_action(rng.choice(outcomes))
        bot = MCTSPlayer(game, sims, k, uct_c)
        t = time.perf_counter()
        bot.act(state)
        spent += time.perf_counter() - t
        done += sims
    return done / spent


def sims_per_second(game, seconds: float) -> float:
    import numpy as np
    rng = np.random.RandomState(0)
    done, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        done += 1
    return done / (time.perf_counter() - t0)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--mode", choices=("round", "game"), default="round")
    ap.add_argument("--deals", type=int, default=10, help="deal sequences (each played from every seating)")
    ap.add_argument("--ismcts-sims", default="100,1000", help="comma-separated ISMCTS budgets ('' for none)")
    ap.add_argument("--mcts-sims", default="auto",
                    help="MCTS budget (0: no MCTS match; 'auto': the simulations that take MCTS as long per move "
                         "as the hint bot took in the ISMCTS matches, measured in this run)")
    ap.add_argument("--engine-bots", default="",
                    help="comma-separated project bots to play the hint bot the same way (e.g. greedy,random): "
                         "a yardstick on the same deals")
    ap.add_argument("--uct-c", type=float, default=None,
                    help="UCT constant (default 2 for whole games, 60 for rounds: about 2x the spread of round points)")
    ap.add_argument("--sim-seconds", type=float, default=3.0, help="seconds per random-simulation measurement")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1, help="worker processes (deal sequences in parallel)")
    ap.add_argument("--journal", default=None, help="JSON Lines of finished deals: a stopped run resumes")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    try:
        import importlib

        import pyspiel
        importlib.import_module("open_spiel.python.games.block_dominoes")   # registers python_block_dominoes
        from fiveup_solver import openspiel as fo
        fo.load_game()
    except ImportError:   # the extra is missing
        print("error: this benchmark needs open_spiel: pip install 'fiveup_solver[openspiel]'", file=sys.stderr)
        return 2
    whole = args.mode == "game"
    game = fo.load_game(args.players, whole_game=whole)
    uct_c = args.uct_c if args.uct_c is not None else (2.0 if whole else 60.0)
    try:
        opponents = [("ismcts", int(x)) for x in args.ismcts_sims.split(",") if x.strip()]
    except ValueError:
        print(f"error: --ismcts-sims must be comma-separated integers, not {args.ismcts_sims!r}", file=sys.stderr)
        return 2
    from fiveup_solver.bots import bot_function
    for name in (x.strip() for x in args.engine_bots.split(",") if x.strip()):
        try:
            bot_function(name)
        except ValueError as e:
            print(f"error: --engine-bots: {e}", file=sys.stderr)
            return 2
        opponents.append(("bot", name))
    results = [match(args.players, whole, kind, sims, uct_c, args.deals, args.seed, args.workers, args.journal)
               for kind, sims in opponents]
    mcts_sims = args.mcts_sims
    if mcts_sims == "auto":
        hint_times = [r["seconds_per_move"]["hint"] for r in results
                      if r["opponent"].startswith("ismcts") and "hint" in r["seconds_per_move"]]
        if not hint_times:
            print("error: --mcts-sims auto needs an ISMCTS match first (to time the hint bot)", file=sys.stderr)
            return 2
        rate = mcts_sims_per_second(game, uct_c)
        mcts_sims = max(10, int(round(sum(hint_times) / len(hint_times) * rate)))
        print(f"MCTS: {rate:.0f} simulations/s here; {mcts_sims} simulations = the hint bot's mean time per move",
              file=sys.stderr)
    mcts_sims = int(mcts_sims)
    if mcts_sims > 0:
        results.append(match(args.players, whole, "mcts", mcts_sims, uct_c, args.deals, args.seed, args.workers,
                             args.journal))
    speed = {"fiveup_round": sims_per_second(fo.load_game(2, False), args.sim_seconds),
             "fiveup_game": sims_per_second(fo.load_game(2, True), args.sim_seconds),
             "python_block_dominoes": sims_per_second(pyspiel.load_game("python_block_dominoes"), args.sim_seconds)}
    report = {"players": args.players, "mode": args.mode, "deals": args.deals, "seed": args.seed, "uct_c": uct_c,
              "matches": results, "random_sims_per_second": speed,
              "sides": _core.sides_of(args.players)}
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    print(f"hint vs OpenSpiel searches, {args.players} players, {args.mode} mode, {args.deals} deal sequences, "
          f"every seating (UCT c = {uct_c:g})")
    for r in results:
        secs = ", ".join(f"{b} {s * 1000:.1f} ms" for b, s in sorted(r["seconds_per_move"].items()))
        print(f"  vs {r['opponent']:<12} {r['games']:>5} games  hint {r['wins']}-{r['ties']}-{r['losses']} (W-T-L)  "
              f"win rate {100 * r['win_rate']:.1f} % [{100 * r['ci95'][0]:.1f}, {100 * r['ci95'][1]:.1f}]  "
              f"per move: {secs}")
    print("random simulations per second (2 players; OpenSpiel Python games, same run):")
    for name, v in speed.items():
        print(f"  {name:<22} {v:10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
