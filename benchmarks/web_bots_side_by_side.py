"""Two games' bot decisions in two threads, as the web app's search workers make their
games' bot replies: on the package's one shared default Hinter ("shared", as the replies
were searched before), or each thread on a Hinter of its own kept for the thread ("own",
``hint.use_hinter``, what ``serve.WebGame.advance`` does now).

    python benchmarks/web_bots_side_by_side.py [BOT] [MOVES] [REPS]

Prints the wall time of both games for each way, alternated, and a digest of the moves
played: the same in both ways (a fixed budget's moves do not depend on the Hinter).
Defaults: level8, 40 moves a game, 3 repetitions. Results: docs/levels.md ("In an app").
"""
from __future__ import annotations

import contextlib
import hashlib
import random
import sys
import threading
import time

from fiveup_solver.bots import bot_move
from fiveup_solver.game import Game
from fiveup_solver.hint import Hinter, set_default_threads, use_hinter

SEEDS = (3, 4)      # the two games' seeds (2 players)


def play(seed: int, moves: int, own: bool, bot: str, seconds: dict, played: dict) -> None:
    """`moves` decisions of `bot` in the game of `seed` (every seat the bot)."""
    game = Game(players=2, seed=seed)
    rng = random.Random(seed)
    hinter = Hinter(threads=1)
    start = time.perf_counter()
    done = []
    while len(done) < moves and not game.game_over:
        if game.round_over:
            game.next_round()
            continue
        with use_hinter(hinter) if own else contextlib.nullcontext():
            move = bot_move(bot, game.observation(game.to_move), rng)
        game.push(move)
        done.append(str(move))
    seconds[seed] = time.perf_counter() - start
    played[seed] = done


def side_by_side(own: bool, bot: str, moves: int) -> tuple:
    """(wall seconds of both games, the moves' digest)."""
    seconds, played = {}, {}
    threads = [threading.Thread(target=play, args=(s, moves, own, bot, seconds, played)) for s in SEEDS]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    digest = hashlib.sha1(" ".join(m for s in SEEDS for m in played[s]).encode()).hexdigest()[:10]
    return time.perf_counter() - start, digest


def main(argv: list) -> None:
    bot = argv[0] if argv else "level8"
    moves = int(argv[1]) if len(argv) > 1 else 40
    reps = int(argv[2]) if len(argv) > 2 else 3
    set_default_threads(1)          # one search thread each, as the web app's pool workers
    for _ in range(reps):
        for mode in ("shared", "own"):
            wall, digest = side_by_side(mode == "own", bot, moves)
            print(f"{mode:<6} {bot} {moves} moves a game: {wall:.2f} s wall, moves {digest}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
