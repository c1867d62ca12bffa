"""OpenSpiel adapter: Exact 61 Five Up as the Python game ``python_exact61_five_up``.

A thin layer over the engine (:class:`fiveup_solver.game.Game` is the only
implementation of the rules here): the adapter turns OpenSpiel actions into
engine moves, makes the deal and every draw explicit chance, and encodes what a
player may know. Needs the ``openspiel`` extra (``pip install
'fiveup_solver[openspiel]'``); importing this module works without it, and
building the game then raises :class:`~fiveup_solver.errors.OptionError`.

Loading::

    import pyspiel
    import fiveup_solver.openspiel   # registers the game
    game = pyspiel.load_game("python_exact61_five_up(players=3,whole_game=false)")

Parameters:

``players`` (2-4, default 2)
``whole_game`` (default ``True``): the whole game to exactly 305 raw, round after
    round. ``False``: one round, from scores 0.
``max_rounds`` (default 1000, D6): a whole game not won after this many rounds stops
    as unfinished (the engine's D6 rule; real games never come near it).

Returns (terminal only, zero-sum):

* whole game: the winning side's seats +1, the others -1 (2 and 4 players); with
  3 players the winner +1 and each other seat -0.5; an unfinished game 0 for all.
* one round: the raw points the player's side gained in the round minus the
  other side's (2 and 4 players); with 3 players the seat's gain minus the mean
  gain of the two others.

Actions (the same for every player count; :func:`action_to_move` and
:func:`move_to_action` convert, ``action_to_string`` is record notation):

* ``0..27``: open the round with tile ``t`` (``ALL_TILES[t]``, e.g. ``"6-6"``);
* ``28..447``: a placement of tile ``t`` on port ``k`` of board tile ``g``, one
  id per (t, g, k) where ``t`` shows the port's value, numbered in increasing
  (t, g, k) order (so sorted ids are sorted moves): :data:`PLACEMENTS`;
* ``448`` draw (the seat cannot place; the tile is then a chance outcome),
  ``449`` pass.

Chance (explicit, exact probabilities): the deal, tile by tile (the k-th tile
of a round goes to seat ``k // 5``; uniform over the tiles not yet dealt;
outcome = tile index); the starter when the rules draw one (the first round
and after a blocked round; uniform over the seats; outcome = seat); and every
boneyard draw (uniform over the tiles neither dealt to a hand nor drawn;
outcome = tile index). The engine needs a boneyard order when a round
starts: the adapter gives it one, and when a draw's outcome ``t`` is not the
engine's next tile it restarts the round with ``t`` moved to the front of the
undrawn part and replays the round's moves, which nothing drawn so far
depends on.

Observations (``make_py_observer``): the information state (perfect recall)
is the player's view of every round so far (its dealt hand, every action with
other seats' drawn tiles hidden, the hands shown at each round's end), the
observation the position now (hand, board, open ports, end sum, hand sizes,
boneyard size, scores). Tensors: see :class:`Encoder`.

``state.resample_from_infostate(player, sampler)`` draws the hidden tiles of
the current round exactly uniformly among those consistent with the player's
information (:class:`fiveup_solver.inference.DealSampler`; a seat that has begun
to draw is known to hold no playable tile), for OpenSpiel's ISMCTS;
:func:`make_resampler` gives a seeded callback for ``ISMCTSBot.set_resampler``.

Errors: a bad action or player is a one-line :class:`~fiveup_solver.errors.OptionError`
(an illegal move an :class:`~fiveup_solver.errors.IllegalMoveError`), from Python also
where pyspiel checks first (``apply_action(-1)``, ``child(2.5)``, ``legal_actions(7)``,
``information_state_string(5)``, the tensors); OpenSpiel's C++ code calls its own methods.

Limits: the information-state *tensor* holds the current round's history (the
string holds every round); a resampled state keeps the earlier rounds as they
were (their hidden draws play no part in what follows). States pickle, copy and
serialise (``pyspiel.serialize_game_and_state``, ``random_sim_test(..., serialize=True)``):
the engine's games pickle as their deals and actions and are replayed on load.

>>> move_to_action(Move.parse("6-6")), str(action_to_move(448)), str(action_to_move(449))
(27, 'draw', 'pass')
>>> a = move_to_action(Move.parse("3-4@4-4:lineB"))
>>> str(action_to_move(a)), NUM_ACTIONS
('3-4@4-4:lineB', 450)
"""
from __future__ import annotations

import random
from dataclasses import replace

import numpy as np

from fiveup_solver import _core
from fiveup_solver.encoding import (DEAL, DEFAULT_PARAMS, DRAW, DRAW_ACTION, HAND_SIZE, NUM_ACTIONS, OVER, PASS_ACTION,
                                    PHASE_NAMES, PLACEMENTS, PLAY, PORTS, STARTER, Encoder, Table, action_text,
                                    action_to_move, check_params, max_round_actions, move_to_action, outcome_returns,
                                    tiles_text, utility_bound)
from fiveup_solver.errors import IllegalMoveError, OptionError, as_int, as_number, check_seed, is_int, is_number, short_repr as _short
from fiveup_solver.game import Game, turn_fault
from fiveup_solver.inference import DealSampler
from fiveup_solver.notation import ALL_TILES, Move

try:  # the extra is optional: the module imports without it
    import pyspiel
except ImportError:  # pragma: no cover - depends on the environment
    pyspiel = None

__all__ = [
    "SHORT_NAME", "DEFAULT_PARAMS", "NUM_ACTIONS", "DRAW_ACTION", "PASS_ACTION", "PLACEMENTS", "PORTS",
    "action_to_move", "move_to_action", "max_round_actions", "outcome_returns", "Encoder", "Table",
    "load_game", "make_resampler", "FiveUpGame", "FiveUpState", "FiveUpObserver",
]

SHORT_NAME = "python_exact61_five_up"
INSTALL_HINT = "pip install 'fiveup_solver[openspiel]'"
# ----------------------------------------------------------------------------- engine side of a state
class _Engine:
    """The engine data of one OpenSpiel state. Copied by ``clone`` (OpenSpiel deep-copies a
    Python state's attributes): the live game is copied, the base game (the game before the
    current round's deal) is never changed and is shared."""

    def __init__(self, players: int, whole_game: bool, max_rounds: int):
        self.players = players
        self.whole_game = whole_game
        self.base = Game(players, deal=False, max_rounds=max_rounds)
        self.game = None            # live engine game of the current round
        self.dealt = []             # tile indices dealt so far (deal phase)
        self.pending = False        # a draw chosen, its tile not yet picked by chance
        self.terminal = False
        self.actions = 0            # OpenSpiel actions applied
        self.round_starts = [0]     # action count at which each round's deal began
        self.hints = {}             # round index -> boneyard order to start the round with
        self.text_cache = {}        # (round, player, private) -> text of an ended round
        self.samplers = {}          # (player, actions) -> DealSampler of this state (never copied)

    def __deepcopy__(self, memo):
        e = _Engine.__new__(_Engine)
        e.__dict__.update(self.__dict__)
        e.game = None if self.game is None else self.game.copy()
        e.dealt = list(self.dealt)
        e.round_starts = list(self.round_starts)
        e.text_cache = dict(self.text_cache)
        e.samplers = {}
        return e

    def __getstate__(self):
        # pickled (OpenSpiel's serialisation pickles a Python state's attributes): the games
        # pickle as their deals and actions (Game.__reduce__); the samplers are a cache
        state = dict(self.__dict__)
        state["samplers"] = {}
        return state

    @property
    def phase(self) -> int:
        if self.terminal:
            return OVER
        if self.game is None:
            return DEAL if len(self.dealt) < HAND_SIZE * self.players else STARTER
        return DRAW if self.pending else PLAY

    def table(self) -> Table:
        return Table(self.players, self.phase, self.game, self.base, tuple(self.dealt), self.pending)

    # ------------------------------------------------------------------ transitions
    def deal(self, tile: int) -> None:
        if tile in self.dealt or not 0 <= tile < 28:
            raise OptionError(f"tile {tile} cannot be dealt")
        self.dealt.append(tile)
        if len(self.dealt) == HAND_SIZE * self.players:
            fixed = self.base.next_starter()
            if fixed is not None:
                self.start(fixed)

    def start(self, starter: int) -> None:
        n, dealt = self.players, self.dealt
        hands = [[ALL_TILES[t] for t in dealt[HAND_SIZE * s: HAND_SIZE * (s + 1)]] for s in range(n)]
        rest = sorted(set(range(28)) - set(dealt))
        hint = self.hints.get(len(self.base.rounds))
        order = hint if hint is not None and sorted(hint) == rest else rest
        game = self.base.copy()
        game.start_round(hands, [ALL_TILES[t] for t in order], starter)
        self.game, self.dealt = game, []

    def push(self, move: Move) -> None:
        self.game.push(move)
        self.after_push()

    def draw(self, tile: int) -> None:
        """Chance picked `tile` for the pending draw: make it the boneyard's next tile."""
        game = self.game
        left = [t.index for t in game.boneyard]
        if tile not in left:
            raise OptionError(f"tile {ALL_TILES[tile] if 0 <= tile < 28 else tile} is not in the boneyard")
        if left[0] != tile:
            # restart the round with `tile` first in the undrawn part; the moves so far drew
            # only from the drawn part, so they replay to the same position
            r = game.current
            drawn = [m.tile for _, m in r.moves if m.kind == "draw"]
            order = drawn + [ALL_TILES[tile]] + [ALL_TILES[t] for t in left if t != tile]
            game = self.base.copy()
            game.start_round(r.hands, order, r.starter)
            for _, m in r.moves:
                game.push(m)
            self.game = game
        self.pending = False
        self.push(Move.draw(ALL_TILES[tile]))

    def after_push(self) -> None:
        game = self.game
        if not game.round_over:
            return
        if game.game_over or game.unfinished or not self.whole_game:
            self.terminal = True
            return
        self.base, self.game, self.dealt = game, None, []
        self.round_starts.append(self.actions + 1)   # the next deal starts after this action

    # ------------------------------------------------------------------ results
    def returns(self) -> list:
        if not self.terminal:
            return [0.0] * self.players
        return outcome_returns(self.game, self.whole_game)


def _require_pyspiel() -> None:
    if pyspiel is None:
        raise OptionError(f"the OpenSpiel adapter needs open_spiel: {INSTALL_HINT}")


# ----------------------------------------------------------------------------- OpenSpiel classes
_GameBase = pyspiel.Game if pyspiel is not None else object
_StateBase = pyspiel.State if pyspiel is not None else object


def _game_type():
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Python Exact 61 Five Up (fiveup_solver)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(DEFAULT_PARAMS),
    )


class FiveUpGame(_GameBase):
    """The OpenSpiel game; parameters ``players``, ``whole_game``, ``max_rounds`` (module doc)."""

    def __init__(self, params=None):
        _require_pyspiel()
        p = check_params(params)
        n = p["players"]
        self.players, self.whole_game, self.max_rounds = n, p["whole_game"], p["max_rounds"]
        _, bone = _core.deal_shape(n)
        per_round = HAND_SIZE * n + 1 + max_round_actions(n) + bone
        bound = utility_bound(n, self.whole_game)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=28,
            num_players=n,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=per_round * (self.max_rounds if self.whole_game else 1),
        )
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self):
        return FiveUpState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return FiveUpObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                              self.players, params)


class FiveUpState(_StateBase):
    """An OpenSpiel state over the engine. ``engine_game`` is the engine's game of the current
    round (None while the round is being dealt); ``to_record()`` the record so far."""

    def __init__(self, game):
        super().__init__(game)
        self._e = _Engine(game.players, game.whole_game, game.max_rounds)

    # ------------------------------------------------------------------ OpenSpiel API
    def current_player(self):
        phase = self._e.phase
        if phase == OVER:
            return pyspiel.PlayerId.TERMINAL
        if phase == PLAY:
            return self._e.game.to_move
        return pyspiel.PlayerId.CHANCE

    def _legal_actions(self, player):
        e = self._e
        if e.phase != PLAY or player != e.game.to_move:
            return []
        return sorted(move_to_action(m) for m in e.game.legal_moves)

    def chance_outcomes(self):
        e = self._e
        phase = e.phase
        if phase == DEAL:
            left = sorted(set(range(28)) - set(e.dealt))
        elif phase == STARTER:
            left = list(range(e.players))
        elif phase == DRAW:
            left = sorted(t.index for t in e.game.boneyard)
        else:
            return []
        p = 1.0 / len(left)
        return [(a, p) for a in left]

    def _apply_action(self, action):
        e = self._e
        action = int(action)
        phase = e.phase
        if phase == DEAL:
            e.deal(action)
        elif phase == STARTER:
            e.start(action)
        elif phase == DRAW:
            e.draw(action)
        elif phase == PLAY:
            if action == DRAW_ACTION:
                kind = e.game.current.core.turn_kind()
                if kind != "draw":
                    # the engine's error and words, as for an illegal pass or play
                    raise IllegalMoveError(turn_fault(e.game.to_move, kind, "draw"))
                e.pending = True
            else:
                e.push(action_to_move(action))
        else:
            raise OptionError("the game is over")
        e.actions += 1

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            e = self._e
            phase = e.phase
            # (OpenSpiel asks for the text of outcomes; a review got "chance 40" for none, and
            # "deal 0-3 to 0" for a tile dealt already)
            fault = self._chance_fault(action)
            if fault is not None:
                raise OptionError(fault)
            if phase == STARTER:
                return f"starter {action}"
            if phase == DEAL:
                return f"deal {ALL_TILES[action]} to {len(e.dealt) // HAND_SIZE}"
            if phase == DRAW:
                return f"draw {ALL_TILES[action]}"
            return f"tile {ALL_TILES[action]}"
        return str(action_to_move(action))

    def _chance_fault(self, action) -> str | None:
        """Why `action` is no outcome of this chance node, or None if it is one (at another
        node: None for a tile 0..27)."""
        e = self._e
        phase = e.phase
        if phase == STARTER:
            if not is_int(action) or not 0 <= action < e.players:
                return f"chance action {_short(action)} is no starter (seats 0..{e.players - 1})"
            return None
        if not is_int(action) or not 0 <= action < 28:
            return f"chance action {_short(action)} is no chance outcome (a tile 0..27)"
        if phase == DEAL and action in e.dealt:
            return f"chance action {action} is no outcome here: tile {ALL_TILES[action]} is dealt already"
        if phase == DRAW and action not in {t.index for t in e.game.boneyard}:
            return f"chance action {action} is no outcome here: tile {ALL_TILES[action]} is not in the boneyard"
        return None

    # ------------------------------------------------------------------ Python callers' checks
    # pyspiel checks some input itself before the adapter sees it, in its own words: -1 (its
    # kInvalidAction) and a player out of range are SpielErrors of two lines naming C++ files, a
    # str or a float an 8-line TypeError, and legal_actions(7) is []. Python callers reach these
    # overrides; C++ callers (random_sim_test, serialisation) call the C++ methods, which reach
    # _apply_action, _legal_actions and the observer as before.
    def apply_action(self, action):
        checked = as_int(action)
        if not is_int(checked) or not 0 <= checked < NUM_ACTIONS:
            # no action of any node (every node's actions lie in 0..449): the node's own words
            phase = self._e.phase
            if phase == OVER:
                raise OptionError("the game is over")
            if phase == PLAY:
                action_to_move(action)      # raises: "action must be an integer 0..449, not ..."
            raise OptionError(self._chance_fault(action))
        super().apply_action(checked)

    def child(self, action):
        state = self.clone()
        state.apply_action(action)
        return state

    def _player(self, player, pseudo: bool = False) -> int:
        """`player` checked: a seat 0..n-1 (``pseudo``: or the current player, chance or terminal);
        None: the current player."""
        n = self._e.players
        checked = as_int(self.current_player() if player is None else player)
        if is_int(checked) and (0 <= checked < n or pseudo and checked == self.current_player()):
            return checked
        raise OptionError(f"player must be 0..{n - 1}, not {_short(checked)}")    # (PlayerId.CHANCE as -1)

    def legal_actions(self, player=None):
        # (the chance player at a chance node: its outcomes, as OpenSpiel gives them)
        return super().legal_actions(self._player(player, True))

    def information_state_string(self, player=None):
        return super().information_state_string(self._player(player))

    def information_state_tensor(self, player=None):
        return super().information_state_tensor(self._player(player))

    def observation_string(self, player=None):
        return super().observation_string(self._player(player))

    def observation_tensor(self, player=None):
        return super().observation_tensor(self._player(player))

    def is_terminal(self):
        return self._e.terminal

    def returns(self):
        return self._e.returns()

    def __str__(self):
        e = self._e
        t = e.table()
        lines = [f"{PHASE_NAMES[t.phase]} round {t.round_index} scores {t.live.scores}"]
        if e.game is None:
            lines.append("dealt " + " ".join(tiles_text(t.dealt_to(s)) for s in range(e.players)))
        else:
            g = e.game
            lines.append("hands " + " ".join(tiles_text(t.hand(s)) for s in range(e.players)))
            lines.append(f"boneyard {tiles_text(x.index for x in g.boneyard)}")
            lines.append("actions " + (" ".join(action_text(m.to_action(s)) for s, m in g.current.moves) or "-"))
            lines.append(f"ends {' '.join(str(p) for p in g.open_ports()) or '-'} sum {g.end_sum}"
                         + (f" to move {g.to_move}" if not g.round_over else "")
                         + (" drawing" if e.pending else ""))
        return "\n".join(lines)

    # ------------------------------------------------------------------ engine access
    @property
    def engine_game(self):
        """The engine's Game of the current round (a live object: copy() it to keep it)."""
        return self._e.game

    def table(self) -> Table:
        return self._e.table()

    def to_record(self) -> dict:
        """The fiveup-record/1 of the game so far (the boneyard: tiles drawn, then the
        rest in the order the engine was given); an OptionError while the first round
        is being dealt (a record holds at least one round)."""
        return (self._e.game or self._e.base).to_record()

    # ------------------------------------------------------------------ resampling
    def resample_from_infostate(self, player_id, probability_sampler=None):
        """A state `player_id` cannot tell from this one, the hidden tiles of the current round
        drawn exactly uniformly among those consistent with its information (DealSampler).
        Earlier rounds are kept as they are (nothing of them matters for what follows).
        ``probability_sampler``: a callable giving a uniform [0, 1) number (OpenSpiel's
        ``UniformProbabilitySampler``); None: Python's generator."""
        if probability_sampler is None:
            seed = random.getrandbits(63)
        elif not callable(probability_sampler):
            raise OptionError(f"probability_sampler must be a callable giving a number in [0, 1) or None, "
                              f"not {_short(probability_sampler)}")
        else:
            u = as_number(probability_sampler())
            if not is_number(u) or not 0.0 <= u < 1.0:
                # (a review: -0.5 became a seed the caller never gave, named in the error)
                raise OptionError(f"probability_sampler must give a number in [0, 1), not {_short(u)}")
            seed = int(u * 2.0 ** 53)
        # the player as given: resample() checks it (int() read 1.9 as player 1)
        return self.resample(player_id, seed)

    def resample(self, player: int, seed: int):
        """:meth:`resample_from_infostate` with an explicit integer seed (deterministic)."""
        e = self._e
        n = e.players
        player = as_int(player)
        if not is_int(player) or not 0 <= player < n:
            raise OptionError(f"player must be 0..{n - 1}, not {_short(player)}")
        seed = check_seed(seed)
        history = self.history()
        start = e.round_starts[-1]
        actions = list(history[:start])
        hints = {}
        for i, r in enumerate(e.base.rounds):
            hints[i] = [t.index for t in r.boneyard]
        if e.game is None:
            # dealing: the other seats' tiles so far are uniform among the tiles the player lacks
            rng = random.Random(seed)
            own = set(e.table().dealt_to(player))
            pool = [t for t in range(28) if t not in own]
            rng.shuffle(pool)
            for i, t in enumerate(e.dealt):
                actions.append(t if i // HAND_SIZE == player else pool.pop())
        else:
            game = e.game
            r = game.current
            key = (player, e.actions)     # the state may have moved on since the last call
            sampler = e.samplers.get(key)
            if sampler is None:
                obs = game.observation(player)
                if game.game_over:
                    # the final score (305) is outside what the sampler's checks accept; scores
                    # play no part in the inference, so it reads the round's starting ones
                    sampler = DealSampler(replace(obs, scores=obs.scores_before), check_summary=False)
                else:
                    # another seat has begun to draw: it holds no playable tile, and no more is
                    # known (the engine's draw is not made: its tile, and a round it would end,
                    # are chance's to come)
                    sampler = DealSampler(obs, drawing=e.pending and player != game.to_move)
                e.samplers = {key: sampler}
            hands, bone = sampler.sample_round(seed)
            for s in range(n):
                actions.extend(t.index for t in hands[s])
            if e.base.next_starter() is None:
                actions.append(r.starter)
            drawn = iter(bone)
            for _, m in r.moves:
                if m.kind == "draw":
                    actions.extend((DRAW_ACTION, next(drawn).index))
                else:
                    actions.append(move_to_action(m))
            if e.pending:
                actions.append(DRAW_ACTION)
            hints[len(e.base.rounds)] = [t.index for t in bone]
        new = self.get_game().new_initial_state()
        new._e.hints = hints
        for a in actions:
            new.apply_action(a)
        return new


class FiveUpObserver:
    """OpenSpiel's Python observer: tensor and string of what a player may know (:class:`Encoder`)."""

    def __init__(self, iig_obs_type, players: int, params=None):
        if params:
            raise OptionError(f"observation parameters are not supported, got {params!r}")
        if not iig_obs_type.public_info:
            # the tensors and strings always hold the public part (the board, scores, sizes)
            raise OptionError("observations without the public information (public_info=False) are not "
                              "offered: every tensor and string holds it")
        private = {pyspiel.PrivateInfoType.SINGLE_PLAYER: "single", pyspiel.PrivateInfoType.NONE: "none",
                   pyspiel.PrivateInfoType.ALL_PLAYERS: "all"}[iig_obs_type.private_info]
        self.encoder = Encoder(players, iig_obs_type.perfect_recall, private)
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = self.encoder.views(self.tensor)

    def set_from(self, state, player):
        self.tensor.fill(0)
        self.encoder.fill(self.dict, state._e.table(), player)

    def string_from(self, state, player):
        return self.encoder.text(state._e.table(), player, state._e.text_cache)


if pyspiel is not None:
    _GAME_TYPE = _game_type()
    if SHORT_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_GAME_TYPE, FiveUpGame)


# ----------------------------------------------------------------------------- helpers
def load_game(players: int = 2, whole_game: bool = True, max_rounds: int = DEFAULT_PARAMS["max_rounds"]):
    """``pyspiel.load_game`` of this game with its parameters checked."""
    _require_pyspiel()
    p = check_params({"players": players, "whole_game": whole_game, "max_rounds": max_rounds})
    return pyspiel.load_game(SHORT_NAME, p)


def make_resampler(seed: int = 0):
    """A seeded resampler for ``ISMCTSBot.set_resampler``: ``cb(state, player)`` returns
    ``state.resample(player, s)`` with seeds from one generator (reproducible searches)."""
    rng = random.Random(check_seed(seed))

    def resampler(state, player):
        return state.resample(player, rng.getrandbits(63))
    return resampler
