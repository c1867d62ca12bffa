"""Rollout judgement: each candidate move valued by whole-game playouts.

``rollout(obs, candidates=None, rollouts=32, bot="hint", seed=0, horizon="game") -> Rollout``

The slow, faithful judge of a decision (issue 21, item 4). For the seat of
``obs`` (an :class:`~fiveup_solver.game.Observation`, the seat to move):

* **Worlds from the seat's observation only.** World k is a full deal of the
  round (dealt hands, boneyard order) drawn by
  ``DealSampler(obs).sample_round(world_seed(seed, k))``: uniform over the deals
  consistent with what the seat has seen. The history is replayed on it, so the
  position is the seat's as it stands, with one consistent filling of what it
  cannot see. The true hidden tiles are never read (this module takes nothing
  else).
* **Whole-game playouts.** In world k each candidate move is played, then the
  game is played to its end (later rounds dealt from world k's seed) with the
  named bot in every seat, each seat deciding from its own observation, as in
  :func:`fiveup_solver.selfplay.play_game`.
* **Horizon.** ``horizon="game"`` (the default) plays to the game's end and
  counts a win as 1; ``horizon="round"`` stops each playout at the end of the
  current round and values it there by the race-equity table
  (:func:`fiveup_solver.equity.win_probabilities` at the next round's scores and
  starter, as the solver's win objective values a round's end): 1 or 0 when the
  round ended the game. Its value is the expected game result *if* the table is
  right about the rounds after, so it trades the table's error (its
  calibration, docs/results/equity.md) for the noise and the cost of the later
  rounds: 13 to 34 times fewer CPU seconds per playout early in a game
  (docs/results/analysis_judges.md). The points currency is the current
  round's under either horizon.
* **Paired.** World k, its later deals and every seat's bot generator for
  world k are the same for every candidate, so a difference between two
  candidates is known much better than either value; each loss carries its
  *paired* standard error (the standard error of the mean of the per-world
  differences).
* **Two currencies**, as the hint's: ``win``, whether the seat's side wins the
  game (an unfinished game, D6, counts as not won), and ``points``, the raw
  points the seat's side gains from here to the round's end minus the other
  sides' gains, +1000 / -1000 when the round ends with the seat's side / another
  side reaching exactly 305.

Equivalent concrete moves (the same canonical move, ports the engine treats as
one) are played out once and share their values. Every random choice comes
from ``seed``: world k from ``world_seed(seed, k)``, independent of how many
worlds are played, so ``rollouts=N`` plays a prefix of ``rollouts=2N``'s worlds;
``workers`` > 1 plays worlds in worker processes with identical results.
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from fiveup_solver import _core
from fiveup_solver.bots import bot_function, check_bot, choose_in_game
from fiveup_solver.equity import win_probabilities
from fiveup_solver.errors import (IllegalMoveError, OptionError, ParseError, as_int, check_seed, is_digits,
                                  is_int as _is_int, short_repr as _short)
from fiveup_solver.game import DEFAULT_MAX_ROUNDS, Game, Observation, action_to_move, not_to_move
from fiveup_solver.inference import DealSampler, check_decision
from fiveup_solver.hint import SearchBudget
from fiveup_solver.notation import Move, format_move, parse_move
from fiveup_solver.parallel import ordered_map

__all__ = ["Rollout", "RolloutMove", "rollout", "playout", "world_seed", "check_rollout_options",
           "parse_candidates", "DEFAULT_ROLLOUTS", "DEFAULT_ROLLOUT_BOT", "WIN_POINTS", "HORIZONS"]

DEFAULT_ROLLOUTS = 32          # playouts per candidate (paired worlds)
DEFAULT_ROLLOUT_BOT = "hint"   # the default hint bot (fiveup_solver.bots)
WIN_POINTS = 1000              # the points currency of an exact 305 reached in the round (the solver's)
MAX_ROLLOUTS = 100_000
HORIZONS = ("game", "round")   # where a playout stops (the first is the default; module text)


def world_seed(seed: int, k: int) -> int:
    """The seed of world k: its deal, its later rounds and its bots' generators.
    ``seed``: a seed (0 to 2^64 - 1, :func:`~fiveup_solver.errors.check_seed`);
    ``k``: a world's index, an integer >= 0 (a numpy integer too); else a one-line
    OptionError.

    >>> world_seed(0, 1) == world_seed(0, 1) != world_seed(0, 2)
    True
    """
    seed = check_seed(seed)
    k = as_int(k)
    if not _is_int(k) or k < 0:
        raise OptionError(f"k must be a world's index, an integer >= 0, not {_short(k)}")
    return random.Random(f"fiveup-rollout/{seed}/{k}").getrandbits(63)


def parse_candidates(text) -> int | None:
    """``"all"`` -> None (every legal move); ``"top:K"`` -> K (the played move and
    the K best of the search judge).

    >>> parse_candidates("all"), parse_candidates("top:3")
    (None, 3)
    """
    if text == "all":
        return None
    if isinstance(text, str) and text.startswith("top:"):
        k = text[4:]
        if is_digits(k) and len(k) <= 2 and 1 <= int(k) <= 64:
            return int(k)
    raise OptionError(f"candidates must be 'all' or 'top:K' with K from 1 to 64, not {_short(text)}")


def _candidate(m):
    """A rollout candidate: a Move, or a move in record notation read as one."""
    if isinstance(m, str):
        try:
            return parse_move(m)
        except ParseError as e:
            raise OptionError(f"candidate {_short(m)}: {e}") from None
    return m


def check_rollout_options(rollouts, bot, workers=1, candidates="all", horizon="game") -> tuple:
    """(rollouts, workers) as ints (a numpy integer too: errors.as_int), or a one-line
    :class:`OptionError` for a bad option of the rollout judge."""
    if not isinstance(horizon, str) or horizon not in HORIZONS:
        raise OptionError(f"horizon must be one of {', '.join(HORIZONS)}, not {_short(horizon)}")
    rollouts, workers = as_int(rollouts), as_int(workers)
    if not _is_int(rollouts) or not 2 <= rollouts <= MAX_ROLLOUTS:
        raise OptionError(f"rollouts must be an integer from 2 to {MAX_ROLLOUTS}, not {_short(rollouts)}")
    _check_rollout_bot(bot)
    # (64, not parallel.check_workers' 256: the rollout judge's own cap, shared with the
    # analysis, which takes its workers through this check; the tests pin 65 as refused)
    if not _is_int(workers) or not 1 <= workers <= 64:
        raise OptionError(f"workers must be an integer from 1 to 64, not {_short(workers)}")
    parse_candidates(candidates)
    return rollouts, workers


def _check_rollout_bot(bot, players: int | None = None) -> None:
    """A bot a playout may run: a bot name (:func:`~fiveup_solver.bots.bot_function`;
    with `players`, one whose search takes that many: :func:`~fiveup_solver.bots.check_bot`)
    with no time budget, or a one-line OptionError."""
    try:
        bot_function(bot) if players is None else check_bot(bot, players)
    except OptionError as e:
        raise OptionError(f"rollout bot: {e}"[:300]) from None
    budget = SearchBudget.from_bot_name(bot)
    if budget is not None and budget.time_ms is not None:
        # (a review: taken, and the judgement then depended on the machine's load, not on the seed)
        raise OptionError(f"rollout bot {bot!r} searches for a time: playouts must be the seed's alone; give a "
                          f"fixed budget (hint:SAMPLES:NODES) or a level")


@dataclass(frozen=True)
class RolloutMove:
    """One candidate: its concrete moves (equivalent ports share one playout) and
    its playout values over the paired worlds. Losses are against the best
    candidate in each currency, with paired standard errors."""

    move: Move                  # the candidate played out
    moves: tuple                # every concrete move it stands for (the same canonical move)
    rank: int                   # 1 = best by win probability (then points)
    win: float                  # mean over worlds: P(the seat's side wins the game) (horizon "round": the
                                # table's value at the round's end)
    win_stderr: float
    points: float               # mean over worlds: the round's raw points, side minus others (+-1000: 305)
    points_stderr: float
    win_loss: float = 0.0       # best win - this win (probability), paired
    win_loss_stderr: float = 0.0
    points_loss: float = 0.0    # the best move's (by win) points - this move's points, paired
    points_loss_stderr: float = 0.0

    def to_dict(self) -> dict:
        return {"move": format_move(self.move), "moves": [format_move(m) for m in self.moves], "rank": self.rank,
                "win": self.win, "win_stderr": self.win_stderr, "points": self.points,
                "points_stderr": self.points_stderr, "win_loss": self.win_loss,
                "win_loss_stderr": self.win_loss_stderr, "points_loss": self.points_loss,
                "points_loss_stderr": self.points_loss_stderr}


@dataclass(frozen=True)
class Rollout:
    """Every candidate of the seat, best first (by win probability, then points)."""

    seat: int
    moves: tuple                # RolloutMove, best first
    best: Move
    bot: str
    rollouts: int               # paired worlds (playouts per candidate)
    horizon: str                # "game" or "round": where each playout stopped
    playouts: int               # playouts played (candidates x worlds)
    actions: int                # actions played in all the playouts
    unfinished: int             # playouts that hit the round limit (D6): counted as not won
    seconds: float
    seed: int

    def of(self, move: Move) -> RolloutMove:
        """The candidate that stands for a concrete move."""
        for m in self.moves:
            if move in m.moves:
                return m
        raise OptionError(f"{format_move(move)} is not a candidate of this rollout")

    def to_dict(self) -> dict:
        return {"seat": self.seat, "best": format_move(self.best), "bot": self.bot, "rollouts": self.rollouts,
                "horizon": self.horizon,
                "playouts": self.playouts, "actions": self.actions, "unfinished": self.unfinished,
                "seconds": round(self.seconds, 6), "seed": self.seed, "moves": [m.to_dict() for m in self.moves]}


def _world_game(obs, hands, boneyard, game_seed: int):
    """The observation's position in one world: a game whose current round is dealt
    `hands` / `boneyard` at the round's starting scores, the history replayed."""
    game = Game(obs.players, seed=game_seed, deal=False, max_rounds=max(1, DEFAULT_MAX_ROUNDS - obs.round))
    start = list(obs.scores_before) if obs.scores_before else list(obs.scores)
    game.start_round(hands, boneyard, obs.starter, scores=start)
    for a in obs.history:
        game.push(action_to_move(a))
    return game


def playout(game, move: Move, seat: int, bot: str, bot_seed: int, horizon: str = "game") -> tuple:
    """Play `move` in `game` (a world: every hand known to the engine, not to the
    bots), then on with `bot` in every seat, each deciding from its own
    observation: to the game's end (``horizon="game"``) or to the current round's
    end (``"round"``). Returns (won, points, actions, unfinished) for `seat`'s
    side: won 1 or 0 when the game ended, else (``"round"``) the race-equity
    table's P(win) from the next round's start; points as the module says;
    unfinished 1 when the game hit its round limit (D6: not won).

    Every argument is checked before the move is played, so a refused call leaves
    `game` as it was: a :class:`~fiveup_solver.game.Game` (not an Observation), a
    seat of it, a bot as the rollout's (no time budget; its search must take the
    game's players), a seed, a horizon (OptionError), and a legal move of the seat
    to move (IllegalMoveError)."""
    if not isinstance(game, Game):
        raise OptionError(f"playout takes a Game (a world: every hand known), not {type(game).__name__}")
    if not isinstance(horizon, str) or horizon not in HORIZONS:
        raise OptionError(f"horizon must be one of {', '.join(HORIZONS)}, not {_short(horizon)}")
    n = game.players
    seat = as_int(seat)
    if not _is_int(seat) or not 0 <= seat < n:
        raise OptionError(f"seat must be a seat 0..{n - 1}, not {_short(seat)}")
    _check_rollout_bot(bot, n)
    bot_seed = check_seed(bot_seed, "bot_seed")
    _check_playout_move(game, move)
    side = _core.side_of_seat(n, seat)
    before = list(game.scores)
    rngs = [random.Random(f"fiveup-rollout-bot/{bot_seed}/{s}") for s in range(n)]
    game.push(move)
    actions = 1
    points = None
    while True:
        if game.round_over:
            if points is None:
                points = _round_points(game, side, before)
            if game.game_over or len(game.rounds) >= game.max_rounds:
                break
            game.next_round()
            if horizon == "round":
                return _round_start_equity(game, side), points, actions, 0
        s = game.to_move
        game.push(choose_in_game(bot, game.observation(s), rngs[s]))
        actions += 1
    won = 1 if game.winner == side else 0
    return won, points, actions, int(game.winner is None)


def _check_playout_move(game, move) -> None:
    """`move` is a legal move of the seat to move in `game` (a round under way), or the
    IllegalMoveError Game.push gives for it, before anything is pushed on `game`."""
    if not game.rounds:
        raise IllegalMoveError("no round has been dealt")      # (game.current's words)
    if isinstance(move, Move) and not game.round_over and move in game.legal_moves:
        return
    # anything else: push's own words, on a copy (a round over, text or no move at all, a tile
    # not in the hand, a port it does not fit); a move push takes all the same (a draw naming
    # the boneyard's next tile) is legal
    game.copy().push(move)


def _round_start_equity(game, side: int) -> float:
    """The race-equity table's P(`side` wins) at the start of `game`'s current round:
    its scores, and its starter unless the rules drew it (D1: after a blocked round)."""
    starter_drawn = game.rounds[-2].core.status != "domino"
    # (below 0, 4 players: read as 0 by the table, and so passed: see exact._equity)
    return win_probabilities(game.players, [max(0, x) for x in game.current.scores_before],
                             None if starter_drawn else game.current.starter)[side]


def _round_points(game, side: int, before: list) -> int:
    """The raw points the side gained since `before` minus the others' (the current
    round), or +-1000 when the round ended the game."""
    if game.game_over:
        return WIN_POINTS if game.winner == side else -WIN_POINTS
    gains = [a - b for a, b in zip(game.scores, before)]
    return gains[side] - (sum(gains) - gains[side])


def _play_world(job) -> list:
    """Every candidate in one world: [(won, points, actions, unfinished)] per candidate.
    A module-level function so worker processes can run it."""
    obs, moves, seed, bot, horizon = job
    hands, boneyard = DealSampler(obs).sample_round(seed)
    base = _world_game(obs, hands, boneyard, seed)
    return [playout(base.copy(), m, obs.seat, bot, seed, horizon) for m in moves]


def _mean_se(xs) -> tuple:
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, 0.0
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, math.sqrt(var / n)


def rollout(obs, candidates=None, *, rollouts: int = DEFAULT_ROLLOUTS, bot: str = DEFAULT_ROLLOUT_BOT,
            seed: int = 0, workers: int = 1, horizon: str = "game") -> Rollout:
    """Value the candidates of the seat of ``obs`` by paired whole-game playouts.

    ``candidates``: a list (any iterable) of legal moves of the seat, each a Move or
    in record notation (None: every legal move); a lone move (a Move or a str) is
    refused, give ``[move]``, and so is a move listed twice. They are played out in
    the legal moves' order whatever the order given (a set's too: the result does not
    depend on it). Equivalent concrete moves are played out once. ``horizon``: "game" or "round" (module text). Reads
    the observation only.

    >>> from fiveup_solver import Game
    >>> g = Game(players=2, seed=4)
    >>> r = rollout(g.observation(g.to_move), rollouts=2, bot="greedy", seed=1)
    >>> r.playouts == 2 * len(r.moves) and r.moves[0].move == r.best
    True
    """
    start = time.perf_counter()
    if not isinstance(obs, Observation):
        raise OptionError(f"rollout takes an Observation, not {type(obs).__name__}")
    rollouts, workers = check_rollout_options(rollouts, bot, workers, horizon=horizon)
    seed = check_seed(seed)
    ds = DealSampler(obs)                   # the observation is checked whole (InconsistentObservationError)
    if obs.to_move != obs.seat:
        raise not_to_move(obs, "judge")
    check_decision(ds, obs)                 # and its legal moves are the position's, as a hint checks them
    _check_rollout_bot(bot, obs.players)    # its search must take this many players (here, not in a playout)
    legal = list(obs.legal_moves)
    if candidates is None:
        chosen = legal
    else:
        if isinstance(candidates, (str, bytes, Move)):
            # (a review: a lone "0-0" was read character by character, "candidate '0': bad tile")
            raise OptionError(f"candidates must be a list of moves ([move] for one), not {_short(candidates)}")
        try:
            chosen = list(candidates)
        except TypeError:
            raise OptionError(f"candidates must be a list of legal moves, not {_short(candidates)}") from None
        # a move in record notation is read as its Move (a review: "3-5@2-3:high" was said not legal)
        chosen = [_candidate(m) for m in chosen]
        for m in chosen:
            if m not in legal:
                raise OptionError(f"candidate {_short(format_move(m) if isinstance(m, Move) else m)} is not a "
                                  f"legal move of seat {obs.seat} here")
        if not chosen:
            raise OptionError("no candidate to play out")
        seen = set()
        for m in chosen:
            # (a review: a move given twice was kept twice in its candidate's moves)
            text = format_move(m)
            if text in seen:
                raise OptionError(f"candidates list {text} twice: give each move once")
            seen.add(text)
        # in the legal moves' order whatever the order given: the results (ties, which move
        # stands for its equivalents) do not depend on it, nor on a set's hash order
        chosen.sort(key=legal.index)
    # one playout per canonical move: the first candidate of each stands for the others
    groups: dict = {}
    for m in chosen:
        key = _core.canonical_of(*m.placement) if m.kind == "play" else m.kind
        groups.setdefault(key, []).append(m)
    for m in legal:                          # equivalent legal moves share the value too
        key = _core.canonical_of(*m.placement) if m.kind == "play" else m.kind
        if key in groups and m not in groups[key]:
            groups[key].append(m)
    reps = [g[0] for g in groups.values()]
    seeds = [world_seed(seed, k) for k in range(rollouts)]
    results = list(ordered_map(_play_world, [(obs, reps, s, bot, horizon) for s in seeds], workers=workers))
    wins = [[results[k][c][0] for k in range(rollouts)] for c in range(len(reps))]
    pts = [[results[k][c][1] for k in range(rollouts)] for c in range(len(reps))]
    stats = []
    for c in range(len(reps)):
        w, w_se = _mean_se(wins[c])
        p, p_se = _mean_se(pts[c])
        stats.append((w, w_se, p, p_se))
    order = sorted(range(len(reps)), key=lambda c: (-stats[c][0], -stats[c][2], c))
    best_w = order[0]
    moves = []
    for rank, c in enumerate(order, 1):
        wl, wl_se = _mean_se([a - b for a, b in zip(wins[best_w], wins[c])])
        # both losses against the best move (by win %), as a search's hint gives them: the
        # points loss of the shown best move is 0 (it was measured against the most points)
        pl, pl_se = _mean_se([a - b for a, b in zip(pts[best_w], pts[c])])
        w, w_se, p, p_se = stats[c]
        moves.append(RolloutMove(reps[c], tuple(groups[list(groups)[c]]), rank, w, w_se, p, p_se,
                                 wl, wl_se, pl, pl_se))
    actions = sum(r[2] for per_world in results for r in per_world)
    unfinished = sum(r[3] for per_world in results for r in per_world)
    return Rollout(obs.seat, tuple(moves), reps[best_w], bot, rollouts, horizon, rollouts * len(reps), actions,
                   unfinished,
                   time.perf_counter() - start, seed)
