"""Write the fixed, seeded benchmark suites of benchmarks/data/ (run once; the files are committed).

    python benchmarks/make_suites.py

Each suite is a JSON list of positions {"record": full record of one round,
"round": 0, "action": I}: the position before action I; "scores" (raw, per
side) when the round starts from scores other than 0.
"""
import json
import random
import sys
from pathlib import Path

from fiveup_solver.game import Game

HERE = Path(__file__).parent / "data"


def opening(players, seed):
    g = Game(players=players, seed=seed)
    return {"record": g.to_record(), "round": 0, "action": 0}


def mid_round(seed):
    rng = random.Random(seed)
    players = (2, 3, 4)[seed % 3]
    g = Game(players=players, seed=10_000 + seed)
    # a random point of the round: after 4..20 actions, not over
    target = rng.randrange(4, 21)
    while not g.round_over and len(g.current.actions) < target:
        g.push(rng.choice(g.legal_moves))
    while g.round_over:
        g.pop()
    return {"record": g.to_record(), "round": 0, "action": len(g.current.actions)}


def near_target(seed):
    """A mid-round position with both sides 5-50 raw short of 305 (exact-target pruning matters)."""
    from fiveup_solver.notation import ALL_TILES
    rng = random.Random(50_000 + seed)
    players = (2, 4)[seed % 2]
    tiles = list(ALL_TILES)
    rng.shuffle(tiles)
    scores = [305 - 5 * rng.randrange(1, 11) for _ in range(2)]
    g = Game(players=players, deal=False)
    g.start_round([tiles[5 * s: 5 * s + 5] for s in range(players)], tiles[5 * players:],
                  rng.randrange(players), scores=scores)
    target = rng.randrange(0, 4)
    while not g.round_over and len(g.current.actions) < target:
        g.push(rng.choice(g.legal_moves))
    while g.round_over:
        g.pop()
    return {"record": g.to_record(scores_kept_apart=True), "round": 0, "action": len(g.current.actions), "scores": scores}


def hint_positions(players, count, seed):
    """Decisions (two or more legal moves) from greedy self-play games, spread over
    the phases of a round: early (at most 4 tiles on the board), middle, and late
    (boneyard empty); rounds of all stages of a game, so scores vary too."""
    from fiveup_solver.selfplay import play_game
    rng = random.Random(seed)
    phases = {"early": [], "middle": [], "late": []}
    want = {k: count // 3 + (1 if i < count % 3 else 0) for i, k in enumerate(phases)}
    g_seed = seed
    while any(len(phases[k]) < want[k] for k in phases):
        g_seed += 1
        game = play_game(players, g_seed, ["greedy"] * players)
        record = game.to_record()
        r = rng.randrange(len(record["rounds"]))
        from fiveup_solver.record import game_at
        g = game_at(record, r, 0)
        actions = record["rounds"][r]["actions"]
        candidates = []
        for i, a in enumerate(actions):
            if len(g.legal_moves) >= 2:
                on_board = len(g.board)
                phase = "late" if not g.boneyard else ("early" if on_board <= 4 else "middle")
                candidates.append((phase, i, g.to_move))
            from fiveup_solver.game import action_to_move
            g.push(action_to_move(a))
        rng.shuffle(candidates)
        for phase, i, seat in candidates:
            if len(phases[phase]) < want[phase]:
                cut = dict(record, rounds=record["rounds"][: r + 1])
                phases[phase].append({"record": cut, "round": r, "action": i, "seat": seat, "phase": phase})
                break
    return [p for k in phases for p in phases[k]]


def main():
    HERE.mkdir(exist_ok=True)
    suites = {
        "openings_2p.json": [opening(2, 1000 + i) for i in range(100)],
        "openings_4p.json": [opening(4, 2000 + i) for i in range(100)],
        "midround.json": [mid_round(i) for i in range(200)],
        "near_target.json": [near_target(i) for i in range(100)],
        "hint_positions.json": hint_positions(2, 68, 3000) + hint_positions(3, 66, 4000)
        + hint_positions(4, 66, 5000),
    }
    only = set(sys.argv[1:])
    for name, positions in suites.items():
        if only and name not in only:
            continue
        (HERE / name).write_text(json.dumps(positions, separators=(",", ":")) + "\n")
        print(name, len(positions))


if __name__ == "__main__":
    main()
