"""The game as the learning adapters see it: actions as numbers, positions as tensors.

One encoding serves the OpenSpiel adapter (:mod:`fiveup_solver.openspiel`) and the
PettingZoo one (:mod:`fiveup_solver.pettingzoo`): the action numbering
(:func:`move_to_action`, :func:`action_to_move`; 450 actions for every player
count), a position as the encoder reads it (:class:`Table`), the observation
tensors and strings of a seat (:class:`Encoder`), the returns of a finished game
or round (:func:`outcome_returns`) and the parameters (:func:`check_params`).
Neither framework is needed here.

>>> move_to_action(Move.parse("6-6")), str(action_to_move(448)), str(action_to_move(449))
(27, 'draw', 'pass')
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from fiveup_solver import _core
from fiveup_solver.errors import OptionError, as_int, check_players, check_switch, is_int as _is_int, short_repr as _short, type_note
from fiveup_solver.game import DEFAULT_MAX_ROUNDS, Game, check_observation
from fiveup_solver.notation import ALL_TILES, Move, Port

__all__ = [
    "DEFAULT_PARAMS", "NUM_ACTIONS", "DRAW_ACTION", "PASS_ACTION", "PLACEMENTS", "PORTS", "action_to_move",
    "move_to_action", "max_round_actions", "outcome_returns", "utility_bound", "check_params", "Encoder", "Table",
    "observation_tensor", "action_mask", "policy_agent", "tiles_text", "action_text", "DEAL", "STARTER", "PLAY",
    "DRAW", "OVER", "PHASE_NAMES", "HAND_SIZE",
]

DEFAULT_PARAMS = {"players": 2, "whole_game": True, "max_rounds": DEFAULT_MAX_ROUNDS}   # D6
MAX_ROUNDS_PARAM = 1_000_000     # the largest max_rounds of the adapters
HAND_SIZE = 5

# ----------------------------------------------------------------------------- action mapping
#: every port of the set: (tile g, port index k), 21 singles x 2 + 7 doubles x 4 = 70
PORTS: tuple = tuple((g, k) for g in range(28) for k in range(len(ALL_TILES[g].port_names)))
PORT_INDEX: dict = {p: i for i, p in enumerate(PORTS)}
#: every placement on a port: (tile t, board tile g, port k), t showing the port's value
PLACEMENTS: tuple = tuple((t, g, k) for t in range(28) for (g, k) in PORTS
                          if g != t and _core.value_of_port(g, k) in (ALL_TILES[t].lo, ALL_TILES[t].hi))
OPENING_BASE = 0
PLACE_BASE = 28
DRAW_ACTION = PLACE_BASE + len(PLACEMENTS)     # 448
PASS_ACTION = DRAW_ACTION + 1                  # 449
NUM_ACTIONS = PASS_ACTION + 1                  # 450
_PLACE_ID = {p: PLACE_BASE + i for i, p in enumerate(PLACEMENTS)}


def move_to_action(move: Move) -> int:
    """The action id of a concrete engine move (a draw's tile, if named, is ignored)."""
    if not isinstance(move, Move):
        raise OptionError(f"not a move: {_short(move)}")
    if move.kind == "draw":
        return DRAW_ACTION
    if move.kind == "pass":
        return PASS_ACTION
    t, g, k = move.placement
    if g < 0:
        return OPENING_BASE + t
    try:
        return _PLACE_ID[(t, g, k)]
    except KeyError:
        raise OptionError(f"{move} is no placement of the set (the tile does not show the port's value)") from None


def action_to_move(action: int) -> Move:
    """The concrete engine move of an action id (inverse of :func:`move_to_action`)."""
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or not 0 <= action < NUM_ACTIONS:
        raise OptionError(f"action must be an integer 0..{NUM_ACTIONS - 1}, not {_short(action)}")
    action = int(action)
    if action == DRAW_ACTION:
        return Move.draw()
    if action == PASS_ACTION:
        return Move.pass_()
    if action < PLACE_BASE:
        return Move.play(ALL_TILES[action])
    t, g, k = PLACEMENTS[action - PLACE_BASE]
    return Move.play(ALL_TILES[t], Port(ALL_TILES[g], ALL_TILES[g].port_names[k]))


def max_round_actions(players: int) -> int:
    """Player actions in one round at most: 28 placements, every boneyard draw, and at most
    players - 1 passes before each placement and at the end (D2: a round with nobody able to
    place is over)."""
    _, bone = _core.deal_shape(players)
    return 28 + bone + (players - 1) * 29


# ----------------------------------------------------------------------------- a position, as the encoder reads it
DEAL, STARTER, PLAY, DRAW, OVER = range(5)
PHASE_NAMES = ("deal", "starter", "play", "draw", "over")


@dataclass
class Table:
    """What the encoder reads: one position of the adapter (OpenSpiel state or PettingZoo env).

    ``game`` is the engine game with the current round started (None while its tiles are
    dealt); ``base`` the game before the current round's deal; ``dealt`` the tiles dealt so
    far (deal phase); ``pending`` a draw chosen whose tile chance has not picked yet."""

    players: int
    phase: int
    game: Game | None
    base: Game
    dealt: tuple = ()
    pending: bool = False

    @property
    def live(self) -> Game:
        return self.game if self.game is not None else self.base

    @property
    def round_index(self) -> int:
        return len(self.game.rounds) - 1 if self.game is not None else len(self.base.rounds)

    def completed_rounds(self):
        """RoundLogs of the rounds that have ended (the current one included once over)."""
        if self.game is None:
            return list(self.base.rounds)
        rounds = self.game.rounds
        return list(rounds) if self.game.round_over else list(rounds[:-1])

    def dealt_to(self, seat: int) -> list:
        return [t for i, t in enumerate(self.dealt) if i // HAND_SIZE == seat]

    def hand(self, seat: int) -> list:
        """Tile indices `seat` holds now (in the deal phase: dealt to it so far)."""
        if self.game is None:
            return sorted(self.dealt_to(seat))
        return [t.index for t in self.game.hand(seat)]

    def seat_to_act(self):
        if self.phase in (PLAY, DRAW):
            return self.game.to_move
        return None


def tiles_text(indices) -> str:
    return ",".join(str(ALL_TILES[t]) for t in sorted(indices)) or "-"


def action_text(action: dict) -> str:
    s = action["seat"]
    if "play" in action:
        return f"{s}:{action['play']}" + (f"@{action['at']}" if action.get("at") else "")
    if "draw" in action:
        return f"{s}:draw {action['draw'] or '?'}"
    return f"{s}:pass"


def _history(round_log, player: int, private: str) -> tuple:
    """A round's actions as `player` saw them (all tiles when private is "all")."""
    if private == "all":
        return tuple(m.to_action(s) for s, m in round_log.moves)
    return round_log.history(player if private == "single" else -1)


def _left_hands(round_log) -> list:
    """The hands left at a round's end (shown for scoring), from the engine."""
    return [round_log.core.hand(s) for s in range(round_log.core.players)]


class Encoder:
    """Tensors and strings of what a player may know.

    ``perfect_recall``: the information state (adds the current round's action history;
    the string also holds every earlier round), else the observation of the position.
    ``private``: ``"single"`` (the player's own tiles), ``"none"`` (public only) or
    ``"all"`` (every hand: a perfect-information view).

    Tensor pieces (flat, float32, in this order; n = players, sides = 2 or 3):
    ``player`` n one-hot; ``phase`` 5 (deal, starter draw, play, draw pending, over);
    ``to_move`` n; ``starter`` n; ``hand`` 28 (own tiles; in the deal: dealt so far;
    private "all": ``hands`` n x 28); ``board`` 28; ``placed_by`` n x 28 (seat that placed
    each tile this round); ``open_ports`` 70 (:data:`PORTS`); ``end_sum`` 1 (raw);
    ``hand_sizes`` n; ``boneyard_size`` 1; ``scores`` sides (raw); ``round`` 1 (index);
    ``dealt`` 1 (tiles dealt so far in the deal phase); ``revealed`` n x 28 (hands shown at
    the round's end). Perfect recall adds ``history`` A x (n + 3 + 28 + 71), A =
    :func:`max_round_actions`: per action of the current round its seat, kind (play, draw,
    pass), tile (zero for another seat's draw) and port (opening first, then :data:`PORTS`).
    """

    def __init__(self, players: int, perfect_recall: bool, private: str = "single"):
        if private not in ("single", "none", "all"):
            raise OptionError(f"private must be single, none or all, not {_short(private)}")
        # (a review: "no" turned it on; every other entry point refuses a non-switch)
        perfect_recall = check_switch("perfect_recall", perfect_recall)
        players = check_players(players)
        n, sides = players, _core.sides_of(players)
        self.players, self.perfect_recall, self.private = n, perfect_recall, private
        pieces = [("player", (n,)), ("phase", (5,)), ("to_move", (n,)), ("starter", (n,))]
        if private == "single":
            pieces.append(("hand", (28,)))
        elif private == "all":
            pieces.append(("hands", (n, 28)))
        pieces += [("board", (28,)), ("placed_by", (n, 28)), ("open_ports", (len(PORTS),)), ("end_sum", (1,)),
                   ("hand_sizes", (n,)), ("boneyard_size", (1,)), ("scores", (sides,)), ("round", (1,)),
                   ("dealt", (1,)), ("revealed", (n, 28))]
        if self.perfect_recall:
            self.action_size = n + 3 + 28 + 1 + len(PORTS)
            pieces.append(("history", (max_round_actions(n), self.action_size)))
        self.pieces = pieces
        self.size = sum(int(np.prod(shape)) for _, shape in pieces)

    def index(self, name: str) -> slice:
        """Where the piece `name` lies in the flat tensor (the pieces in order: ``pieces``).

        >>> Encoder(2, False).index("hand")
        slice(11, 39, None)
        """
        if not isinstance(name, str):
            # (an array's or an odd object's == is not a truth value)
            raise OptionError(f"a piece name is a str, not {_short(name)}{type_note(name)}")
        i = 0
        for piece, shape in self.pieces:
            size = int(np.prod(shape))
            if piece == name:
                return slice(i, i + size)
            i += size
        raise OptionError(f"no piece {name!r} in the tensor (pieces: {', '.join(p for p, _ in self.pieces)})"[:200])

    def views(self, tensor: np.ndarray) -> dict:
        out, i = {}, 0
        for name, shape in self.pieces:
            size = int(np.prod(shape))
            out[name] = tensor[i:i + size].reshape(shape)
            i += size
        return out

    # ------------------------------------------------------------------ tensor
    def fill(self, views: dict, table: Table, player: int) -> None:
        """Write `player`'s view of `table` into the named views (zeroed first by the caller)."""
        n, g = self.players, table.game
        views["player"][player] = 1
        views["phase"][table.phase] = 1
        seat = table.seat_to_act()
        if seat is not None:
            views["to_move"][seat] = 1
        if g is not None:
            views["starter"][g.current.starter] = 1
        if "hand" in views:
            views["hand"][table.hand(player)] = 1
        if "hands" in views:
            for s in range(n):
                views["hands"][s][table.hand(s)] = 1
        views["scores"][:] = table.live.scores
        views["round"][0] = table.round_index
        views["dealt"][0] = len(table.dealt) if g is None else 0
        if g is None:
            return
        r = g.current
        views["board"][[t.index for t in g.board]] = 1
        for s, m in r.moves:
            if m.kind == "play":
                views["placed_by"][s][m.tile.index] = 1
        for p in g.open_ports():
            views["open_ports"][PORT_INDEX[(p.tile.index, p.index)]] = 1
        views["end_sum"][0] = g.end_sum
        views["hand_sizes"][:] = [len(g.hand(s)) for s in range(n)]
        views["boneyard_size"][0] = len(g.boneyard)
        if g.round_over:
            for s, hand in enumerate(_left_hands(r)):
                views["revealed"][s][list(hand)] = 1
        if self.perfect_recall:
            self._fill_history(views["history"], r.moves, lambda s: s == player and self.private != "none"
                               or self.private == "all")

    def fill_observation(self, views: dict, obs) -> None:
        """Write an engine :class:`~fiveup_solver.game.Observation` (``Game.observation(seat)``,
        what an agent of ``fiveup match`` gets) into the named views (zeroed first by the
        caller): the tensor the adapters give that seat in that position, built from what the
        seat knows alone. The round is in play (phase "play") unless the observation shows
        it over ("over", the hands shown). Only for ``private="single"``."""
        if self.private != "single":
            raise OptionError(f"an observation holds one seat's tiles: the encoder's private must be "
                              f"'single', not {self.private!r}")
        moves = check_observation(obs)
        if obs.players != self.players:
            raise OptionError(f"an observation of {obs.players} players, not {self.players}")
        self._fill_checked(views, obs, moves)

    def _fill_checked(self, views: dict, obs, moves) -> None:
        """fill_observation of a checked observation (its history as typed ``moves``)."""
        n, player = self.players, obs.seat
        playing = obs.status == "playing"
        views["player"][player] = 1
        views["phase"][PLAY if playing else OVER] = 1
        if playing and obs.to_move is not None:
            views["to_move"][obs.to_move] = 1
        views["starter"][obs.starter] = 1
        views["hand"][[t.index for t in obs.hand]] = 1
        views["scores"][:] = obs.scores
        views["round"][0] = obs.round
        for s, m in moves:
            if m.kind == "play":
                views["board"][m.tile.index] = 1
                views["placed_by"][s][m.tile.index] = 1
        for p in obs.open_ports:
            views["open_ports"][PORT_INDEX[(p.tile.index, p.index)]] = 1
        views["end_sum"][0] = obs.end_sum
        views["hand_sizes"][:] = obs.hand_sizes
        views["boneyard_size"][0] = obs.boneyard_size
        if obs.revealed is not None:
            for s, hand in enumerate(obs.revealed):
                views["revealed"][s][[t.index for t in hand]] = 1
        if self.perfect_recall:
            # the observation names the seat's own draws only (the others' tiles are None)
            self._fill_history(views["history"], moves, lambda s: s == player)

    def _fill_history(self, hist, moves, shows_draw) -> None:
        """The round's actions, a row each: seat, kind, tile (a draw's when ``shows_draw(seat)``
        and it is named) and port."""
        n = self.players
        k3 = n + 3
        for i, (s, m) in enumerate(moves):
            row = hist[i]
            row[s] = 1
            row[n + ("play", "draw", "pass").index(m.kind)] = 1
            if m.kind == "play":
                t, tg, tk = m.placement
                row[k3 + t] = 1
                row[k3 + 28 + (0 if tg < 0 else 1 + PORT_INDEX[(tg, tk)])] = 1
            elif m.kind == "draw" and m.tile is not None and shows_draw(s):
                row[k3 + m.tile.index] = 1

    # ------------------------------------------------------------------ string
    def round_text(self, round_log, index: int, player: int) -> str:
        """One round as `player` saw it (used for the rounds of the information state)."""
        parts = [f"r{index} starter {round_log.starter}"]
        if self.private == "single":
            parts.append(f"dealt {tiles_text(t.index for t in round_log.hands[player])}")
        elif self.private == "all":
            parts.append("dealt " + " ".join(tiles_text(t.index for t in h) for h in round_log.hands))
        parts.append(" ".join(action_text(a) for a in _history(round_log, player, self.private)) or "-")
        if round_log.core.status != "playing":
            parts.append(f"{round_log.core.status} shown " + " ".join(tiles_text(h) for h in _left_hands(round_log)))
        return " | ".join(parts)

    def text(self, table: Table, player: int, cache: dict | None = None) -> str:
        n, g = self.players, table.game
        head = f"p{player} n{n} {PHASE_NAMES[table.phase]} round {table.round_index} " \
               f"scores {','.join(map(str, table.live.scores))}"
        parts = [head]
        if self.perfect_recall:
            for i, r in enumerate(table.completed_rounds()):
                key = (i, player, self.private)
                text = None if cache is None else cache.get(key)
                if text is None:
                    text = self.round_text(r, i, player)
                    if cache is not None:
                        cache[key] = text
                parts.append(text)
        if g is None:
            if self.private == "all":
                parts.append("dealing " + " ".join(tiles_text(table.dealt_to(s)) for s in range(n)))
            elif self.private == "single":
                parts.append(f"dealing {len(table.dealt)} hand {tiles_text(table.dealt_to(player))}")
            else:
                # public only: no "hand" ("hand -" read as no tiles dealt, not as tiles not shown)
                parts.append(f"dealing {len(table.dealt)}")
            return " || ".join(parts)
        if self.perfect_recall and not g.round_over:
            parts.append(self.round_text(g.current, table.round_index, player))
        if self.private == "single":
            parts.append(f"hand {tiles_text(table.hand(player))}")
        elif self.private == "all":
            parts.append("hands " + " ".join(tiles_text(table.hand(s)) for s in range(n)))
        ends = " ".join(f"{p}={p.value}" for p in g.open_ports()) or "-"
        parts.append(f"starter {g.current.starter} board {len(g.board)} ends {ends} sum {g.end_sum} "
                     f"sizes {','.join(str(len(g.hand(s))) for s in range(n))} boneyard {len(g.boneyard)}")
        if not self.perfect_recall:
            if g.round_over:
                parts.append(f"{g.current.core.status} shown " + " ".join(tiles_text(h) for h in
                                                                        _left_hands(g.current)))
            hist = _history(g.current, player, self.private)
            if hist:
                parts.append("last " + action_text(hist[-1]))
        seat = table.seat_to_act()
        if seat is not None:
            parts.append(f"to move {seat}" + (" drawing" if table.pending else ""))
        return " || ".join(parts)


def outcome_returns(game: Game, whole_game: bool) -> list:
    """Per-seat returns of a finished engine game (``whole_game``) or of its current,
    finished round (see the module doc); zero-sum."""
    if not isinstance(game, Game):
        raise OptionError(f"outcome_returns takes a Game, not {_short(game)}")
    whole_game = check_switch("whole_game", whole_game)
    if not (game.game_over or game.unfinished if whole_game else game.round_over):
        raise OptionError("outcome_returns: the " + ("game" if whole_game else "round") + " is not over")
    n = game.players
    sides = [_core.side_of_seat(n, s) for s in range(n)]
    if whole_game:
        if game.winner is None:
            return [0.0] * n
        lose = -0.5 if n == 3 else -1.0
        return [1.0 if sides[s] == game.winner else lose for s in range(n)]
    gain = [a - b for a, b in zip(game.scores, game.current.scores_before)]
    if n == 3:
        return [float(gain[s] - (sum(gain) - gain[s]) / 2) for s in range(n)]
    return [float(gain[sides[s]] - gain[1 - sides[s]]) for s in range(n)]


_ENCODERS: dict = {}


def observation_tensor(obs, perfect_recall: bool = False) -> np.ndarray:
    """The adapters' tensor of what one seat knows (:class:`Encoder`, ``private="single"``),
    from an engine :class:`~fiveup_solver.game.Observation`: the OpenSpiel observation
    tensor (``perfect_recall=False``) or information-state tensor of the current round
    (``True``), and the PettingZoo ``observation`` vector, of that seat in that position.

    >>> g = Game(players=2, seed=1)
    >>> x = observation_tensor(g.observation(g.to_move))
    >>> x.shape, x.dtype.name, int(x[:2].sum()), int(x[Encoder(2, False).index("hand")].sum())
    ((257,), 'float32', 1, 5)
    """
    perfect_recall = check_switch("perfect_recall", perfect_recall)
    return _tensor(obs, check_observation(obs), perfect_recall)


def _tensor(obs, moves, perfect_recall: bool) -> np.ndarray:
    """observation_tensor of a checked observation (``moves``: its typed history)."""
    key = (obs.players, perfect_recall)
    encoder = _ENCODERS.get(key)
    if encoder is None:
        encoder = _ENCODERS[key] = Encoder(obs.players, perfect_recall, "single")
    tensor = np.zeros(encoder.size, np.float32)
    encoder._fill_checked(encoder.views(tensor), obs, moves)
    return tensor


def action_mask(obs) -> np.ndarray:
    """The observation's legal moves as a 0/1 vector over the 450 action ids (int8), the
    PettingZoo ``action_mask`` (all zeros when the seat is not to move)."""
    check_observation(obs)
    return _mask(obs.legal_moves)[0]


def _mask(legal_moves) -> tuple:
    """(the action mask, {action id: move}) of checked legal moves."""
    legal = {move_to_action(m): m for m in legal_moves}
    mask = np.zeros(NUM_ACTIONS, np.int8)
    if legal:
        mask[list(legal)] = 1
    return mask, legal


def policy_agent(policy, perfect_recall: bool = False):
    """An agent for matches, ladders and ``fiveup play`` (``agent(observation, rng) ->
    Move``, see "Your own agent" in the documentation) from a policy over the adapters'
    numbers: ``policy(tensor, mask, rng) -> action id``, where ``tensor`` is
    :func:`observation_tensor`, ``mask`` :func:`action_mask` and ``rng`` the seat's own
    ``random.Random``. A policy trained on the OpenSpiel or PettingZoo tensors plays as
    it was trained; an action id outside the mask is an error naming it.

    >>> import random
    >>> first = policy_agent(lambda tensor, mask, rng: int(mask.nonzero()[0][0]))
    >>> g = Game(players=2, seed=1)
    >>> obs = g.observation(g.to_move)
    >>> first(obs, random.Random(0)) in obs.legal_moves
    True
    """
    if not callable(policy):
        raise OptionError(f"policy must be a function (tensor, mask, rng) -> action id, not {_short(policy)}")
    perfect_recall = check_switch("perfect_recall", perfect_recall)

    def agent(obs, rng):
        tensor = _tensor(obs, check_observation(obs), perfect_recall)     # checked once
        mask, legal = _mask(obs.legal_moves)
        action = policy(tensor, mask, rng)
        if isinstance(action, np.integer):
            action = int(action)
        if not _is_int(action) or action not in legal:
            raise OptionError(f"the policy chose {_short(action)}" + f", not one of the {len(legal)} action ids "
                              f"of its mask ({', '.join(map(str, sorted(legal)))})"[:160])
        return legal[action]
    agent.__name__ = getattr(policy, "__name__", "policy_agent")
    agent.__doc__ = f"policy_agent({agent.__name__}): decides by the policy over the adapters' tensors"
    return agent


def utility_bound(players: int, whole_game: bool) -> float:
    """The largest return of a seat in absolute value (:func:`outcome_returns`): 1 for a
    whole game; for one round, a side gains at most 305 from 0, and with 4 players a
    domino event may be negative (D4), by at most the partner's pips (all 28 tiles hold 168)."""
    players = check_players(players)
    if check_switch("whole_game", whole_game):
        return 1.0
    return 305.0 + (170.0 if players == 4 else 0.0)


def check_params(params) -> dict:
    """The game parameters (players, whole_game, max_rounds) with their defaults, checked."""
    if params is not None and not isinstance(params, Mapping):
        raise OptionError(f"the game parameters are a mapping (players, whole_game, max_rounds), not {_short(params)}")
    params = {**DEFAULT_PARAMS, **(params or {})}
    unknown = set(params) - set(DEFAULT_PARAMS)
    if unknown:
        raise OptionError(f"unknown parameter(s) {', '.join(sorted(unknown))} (known: players, whole_game, "
                          f"max_rounds)")
    players, whole, max_rounds = params["players"], params["whole_game"], params["max_rounds"]
    players = check_players(players)
    whole = check_switch("whole_game", whole)
    max_rounds = as_int(max_rounds)
    if not _is_int(max_rounds) or not 1 <= max_rounds <= MAX_ROUNDS_PARAM:
        # OpenSpiel keeps it (and the game length it bounds) in a C++ int
        raise OptionError(f"max_rounds must be an integer from 1 to {MAX_ROUNDS_PARAM}, not {_short(max_rounds)}")
    return {"players": players, "whole_game": whole, "max_rounds": max_rounds}
