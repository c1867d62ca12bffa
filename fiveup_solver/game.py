"""The game object: whole games of several rounds, in the style of python-chess.

Draws are explicit actions, exactly as in records: when the seat to move holds
no playable tile, ``legal_moves`` is ``[Move.draw()]`` and pushing it takes the
boneyard's next tile (the engine knows the boneyard order; an observation of a
seat does not). When the boneyard is empty too, it is ``[Move.pass_()]``.
Rounds are dealt from the game's seeded generator by :meth:`Game.next_round`
(or from a given deal by :meth:`Game.start_round`).

>>> g = Game(players=2, seed=7)
>>> g.to_move in (0, 1), len(g.hand(g.to_move))
(True, 5)
>>> m = g.legal_moves[0]
>>> events = g.push(m)
>>> g.pop() == m
True
"""
from __future__ import annotations

import numbers
import random
from dataclasses import dataclass, field

from fiveup_solver import _core
from fiveup_solver.errors import (IllegalMoveError, InconsistentObservationError, OptionError, ParseError, RecordError,
                                  as_int as _as_int, check_players, check_seed, check_switch, int_list, is_int as _is_int,
                                  name_fault, short_repr as _short)
from fiveup_solver.notation import (ALL_TILES, DOUBLE_PORTS, LOWEST_SCORE, NEGATIVE_SCORE_PLAYERS, SINGLE_PORTS, Event,
                                    Move, Port, Tile, block_dicts, check_action, format_move, parse_move, raw_to_display,
                                    score_floor)
from fiveup_solver.svg import board_svg

__all__ = ["Game", "Observation", "RoundLog", "DEFAULT_MAX_ROUNDS", "check_observation", "not_to_move"]

DEFAULT_MAX_ROUNDS = 1000  # D6: simulations stop a game as unfinished after this many rounds

@dataclass
class RoundLog:
    """One round: its deal, its moves (typed, in memory) and the events they made.

    ``actions`` gives the moves in record form (I/O only)."""

    starter: int
    hands: list            # list[list[Tile]] dealt hands
    boneyard: list         # list[Tile] in draw order
    core: object           # _core.CoreRound
    moves: list = field(default_factory=list)        # (seat, Move) per action; a draw's Move names its tile
    events: list = field(default_factory=list)       # list[list[Event]], one list per action
    scores_before: tuple = ()
    # the seat whose view of a record this round was read from (record.positions): its
    # hidden tiles were filled in (record.view_deal), one possibility, not the truth; None
    # for a round dealt or read from a full record. The solver refuses such a round.
    filled_for: int | None = None
    # {seat: the seat's Observation of this round's end}, made once the round is over and a
    # later round asks (Observation.previous_round); Game.pop clears it
    end_views: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def actions(self) -> list:
        """The round's actions as record dicts (``{"seat": 0, "play": "1-4"}``, ...)."""
        return [m.to_action(s) for s, m in self.moves]

    def history(self, seat: int) -> tuple:
        """The actions as `seat` saw them: other seats' draws hidden."""
        return tuple({"seat": s, "draw": None} if m.kind == "draw" and s != seat else m.to_action(s)
                     for s, m in self.moves)

    def last_placement_events(self) -> list | None:
        """The scoring events of the round's last placement (its credit, or a domino's:
        what made the board as it is now); None where the round has no placement."""
        k = next((k for k in range(len(self.moves) - 1, -1, -1) if self.moves[k][1].kind == "play"), None)
        if k is None:
            return None
        return list(self.events[k]) if k < len(self.events) else []

    def domino_parts(self) -> dict | None:
        """The parts of the round's domino event (RULES §6.3), or None if the round
        did not end with a hand emptied: the seat, P (``placement``: the last placement's
        credit), the opponents' pips together and O (``opponents``: them rounded once),
        the partner's pips and D (``partner``: them rounded apart; None and 0 without
        partners). The event's raw credit is P + O - D, accepted or rejected whole.

        >>> g = Game(players=2, seed=7)
        >>> while not g.round_over:
        ...     _ = g.push(g.legal_moves[0])
        >>> parts = g.current.domino_parts()
        >>> parts["seat"], parts["opponents_pips"], parts["opponents"], parts["partner_pips"]
        (1, 32, 30, None)
        >>> [e.raw for e in g.current.events[-1]] == [parts["placement"] + parts["opponents"] - parts["partner"]]
        True
        """
        if self.end()["end"] != "domino":
            return None
        seat = self.moves[-1][0]
        p, opponents_pips, o, partner_pips, d = self.core.domino_parts(seat)
        return {"seat": seat, "placement": p, "opponents_pips": opponents_pips, "opponents": o,
                "partner_pips": partner_pips, "partner": d}

    def block_parts(self) -> list | None:
        """A blocked round's credits (RULES §6.5), seat by seat as the scoring worked them
        (:func:`fiveup_solver.notation.block_parts`: lightest first, each seat's heavier
        opponents, their total and its credit rounded once), or None if the round did not
        end blocked. Every non-zero credit is one block event, in this order, until one
        reaches 305 exactly.

        Seat 1 kept 8 pips, seat 0 12: seat 1's credit is 12 - 8 = 4, rounded to 5.

        >>> g = Game(players=2, seed=38)
        >>> while not g.round_over:
        ...     _ = g.push(g.legal_moves[-1])
        >>> g.current.end()["end"]
        'blocked'
        >>> [(p["seat"], p["pips"], p["above"], p["total"], p["credit"]) for p in g.current.block_parts()]
        [(1, 8, [[0, 12]], 4, 5), (0, 12, [], 0, 0)]
        >>> [(e.seat, e.raw) for e in g.current.events[-1] if e.kind == "block"]
        [(1, 5)]
        """
        if self.end()["end"] != "blocked":
            return None
        return block_dicts(self.core.block_parts())

    def end(self) -> dict:
        """The round's end as RECORD.md's replay lists it."""
        status = self.core.status
        if status == "won":
            # the winning event says how the round ended: by a placement in mid-round,
            # by the hand-emptying event, or by a block credit
            status = {"placement": "won", "domino": "domino", "block": "blocked"}[self.events[-1][-1].kind]
        if status == "domino":
            return {"end": "domino", "seat": self.moves[-1][0]}
        if status == "blocked":
            return {"end": "blocked", "winner": self.core.blocked_winner_side()}
        if status == "won":
            return {"end": "won", "seat": self.core.end_seat}
        return {"end": "unfinished"}


@dataclass(frozen=True)
class Observation:
    """What one seat may know: its own hand and draws, the board and the public history.

    What a bot (an agent of one's own too) decides from. Its fields:

    - ``seat``, ``players``, ``round`` (from 0), ``starter`` (the round's first
      seat), ``to_move`` (None when the round is over), ``side`` (the seat's
      side: its score is ``scores[side]``; with 4 players seats 0 and 2 are
      side 0, seats 1 and 3 side 1);
    - ``hand``: the seat's own tiles now; ``hand_sizes``: every seat's count;
      ``boneyard_size``: the tiles left to draw (their order is hidden);
    - ``scores``: raw points per side now; ``scores_before``: at the round's
      start (the race is to exactly 305);
    - ``history``: this round's actions in record form, as the seat saw them
      (another seat's draw is ``{"seat": s, "draw": None}``); earlier rounds
      are in the game's record, not here;
    - ``open_ports``: the board's open ports; ``end_sum``: the sum of the open
      ends now (placement credit when a positive multiple of 5);
    - ``legal_moves``: the seat's moves when it is to move (a ``Move`` each,
      else empty); ``end_sums_after``: the end sum after each of them, in the
      same order;
    - ``status``: ``playing``, ``domino``, ``blocked`` or ``won``;
      ``revealed``: the hands left once the round is over and shown, else None;
    - ``previous_round``: the seat's observation at the previous round's end
      (that round's whole history as the seat saw it, the hands shown, its
      status and the scores it left), or None in a game's first round; its own
      ``previous_round`` is None (older rounds are in the game's record). An
      agent is called only at its own decisions: this is how it learns how the
      last round ended.

    >>> g = Game(players=2, seed=7)
    >>> while not g.round_over:
    ...     _ = g.push(g.legal_moves[0])
    >>> _ = g.next_round()
    >>> last = g.observation(g.to_move).previous_round
    >>> last.round, last.status, last.to_move, len(last.revealed), last.scores == g.current.scores_before
    (0, 'domino', None, 2, True)
    """

    seat: int
    players: int
    round: int
    starter: int
    to_move: int | None
    hand: tuple            # the seat's own tiles now
    side: int              # the seat's side (its score is scores[side])
    hand_sizes: tuple      # every seat's hand size
    boneyard_size: int
    scores: tuple          # raw per side
    history: tuple         # this round's actions; other seats' draws as {"seat": s, "draw": None}
    open_ports: tuple      # Port objects
    end_sum: int
    legal_moves: tuple = ()     # the seat's legal moves when it is to move, else ()
    end_sums_after: tuple = ()  # end sum after each legal move (board only: public)
    status: str = "playing"     # the round's status: playing, domino, blocked or won
    scores_before: tuple = ()   # raw per side when this round started
    revealed: tuple | None = None  # hands left at the round's end, when the round is over and shown
    previous_round: "Observation | None" = None  # the seat's view of the previous round's end

    def __hash__(self) -> int:
        """Over the fields that are values (the history's actions are dicts): equal
        observations hash alike, so one can key a cache of hints."""
        return hash((self.seat, self.players, self.round, self.to_move, tuple(self.hand), tuple(self.scores),
                     tuple(self.hand_sizes), self.boneyard_size, len(self.history), self.end_sum))

    def to_dict(self) -> dict:
        """Every field in JSON's types: tiles, ports and moves in their notation (a move as
        ``format_move`` writes it), the history's actions in record form. ``from_dict``
        reads it back.

        >>> obs = Game(players=2, seed=5).observation(0)
        >>> d = obs.to_dict()
        >>> d["hand"], d["legal_moves"][:2], d["end_sums_after"][:2]
        (['0-1', '0-3', '3-3', '3-4', '5-6'], ['0-1', '0-3'], [1, 3])
        >>> Observation.from_dict(d) == obs
        True
        """
        check_observation(self)   # a hand-built observation may hold anything
        return {"seat": self.seat, "side": self.side, "players": self.players, "round": self.round,
                "starter": self.starter, "to_move": self.to_move,
                "hand": [str(t) for t in self.hand], "hand_sizes": list(self.hand_sizes),
                "boneyard_size": self.boneyard_size, "scores": list(self.scores),
                "history": [dict(a) for a in self.history],
                "open_ports": [str(p) for p in self.open_ports], "end_sum": self.end_sum,
                "legal_moves": [format_move(m) for m in self.legal_moves],
                "end_sums_after": list(self.end_sums_after),
                "status": self.status, "scores_before": list(self.scores_before),
                "revealed": None if self.revealed is None else [[str(t) for t in h] for h in self.revealed],
                "previous_round": None if self.previous_round is None else self.previous_round.to_dict()}

    @classmethod
    def from_dict(cls, d) -> Observation:
        """The observation ``to_dict`` gave (read from JSON, say), checked as
        :func:`check_observation` checks one; a field missing, of the wrong kind or out
        of range raises :class:`InconsistentObservationError` naming it."""
        if not isinstance(d, dict):
            raise InconsistentObservationError(f"an observation's dict is a dict as Observation.to_dict() gives it, "
                                               f"not {_short(d)}")
        unknown = sorted(set(d) - _OBSERVATION_FIELDS, key=str)
        if unknown:
            raise InconsistentObservationError(f"observation dict: unknown field {_short(unknown[0], 40)}")
        missing = [f for f in _OBSERVATION_FIELDS if f not in d and f not in _OBSERVATION_OPTIONAL]
        if missing:
            raise InconsistentObservationError(f"observation dict: missing field '{missing[0]}'")

        def listed(name, parse):
            v = d.get(name, ())
            if not isinstance(v, list | tuple):
                raise InconsistentObservationError(f"observation dict: {name} must be a list, not {_short(v)}")
            try:
                return tuple(parse(x) for x in v)
            except ParseError as e:
                raise InconsistentObservationError(f"observation dict: {name}: {e}") from None

        revealed = d.get("revealed")
        if revealed is not None:
            if not isinstance(revealed, list | tuple):
                raise InconsistentObservationError(f"observation dict: revealed must be a list of hands or null, "
                                                   f"not {_short(revealed)}")
            revealed = tuple(listed("revealed", lambda h: tuple(Tile.parse(t) for t in _hand_list(h))))
        history = listed("history", lambda a: dict(a) if isinstance(a, dict) else a)
        previous = d.get("previous_round")
        if previous is not None:
            if not isinstance(previous, dict):
                raise InconsistentObservationError(f"observation dict: previous_round must be an observation's "
                                                   f"dict or null, not {_short(previous)}")
            try:
                previous = cls.from_dict(previous)
            except InconsistentObservationError as e:
                raise InconsistentObservationError(f"observation dict: previous_round: "
                                                   f"{str(e).removeprefix('observation dict: ')}") from None
        obs = cls(seat=d["seat"], players=d["players"], round=d["round"], starter=d["starter"],
                  to_move=d["to_move"], hand=listed("hand", Tile.parse), side=d["side"],
                  hand_sizes=listed("hand_sizes", lambda x: x), boneyard_size=d["boneyard_size"],
                  scores=listed("scores", lambda x: x), history=history,
                  open_ports=listed("open_ports", Port.parse), end_sum=d["end_sum"],
                  legal_moves=listed("legal_moves", parse_move), end_sums_after=listed("end_sums_after", lambda x: x),
                  status=d.get("status", "playing"), scores_before=listed("scores_before", lambda x: x),
                  revealed=revealed, previous_round=previous)
        check_observation(obs)
        return obs


_OBSERVATION_FIELDS = frozenset(f for f in Observation.__dataclass_fields__)
# (fields with a default: a dict of an older version may leave them out)
_OBSERVATION_OPTIONAL = frozenset({"legal_moves", "end_sums_after", "status", "scores_before", "revealed",
                                   "previous_round"})


def _hand_list(h):
    if not isinstance(h, list | tuple):
        raise ParseError(f"a revealed hand is a list of tiles, not {_short(h)}")
    return h


def turn_fault(seat: int, kind: str, want: str) -> str:
    """Why `seat`, whose turn is of `kind` (the core's turn_kind: place, draw or pass),
    cannot `want` ("draw" or "pass"): the engine's words for it (an adapter's too)."""
    if kind == "place":
        return f"seat {seat} cannot {want}: it holds a playable tile"
    return f"seat {seat} cannot draw: the boneyard is empty" if want == "draw" \
        else f"seat {seat} cannot pass: the boneyard is not empty"


class Game:
    """A game of Exact 61 Five Up for 2-4 players.

    ``Game(players, seed)`` deals round 0 and draws its starter from ``seed``
    (D1). Without a seed the game draws one from the operating system
    (``random.SystemRandom``, as ``secrets`` does), kept in ``seed``
    (``Game(players, g.seed)`` deals the same game), which cannot be guessed
    from a hand: what a game a person plays needs. A small or fixed seed (a
    test's, a match's) deals a game anyone can recompute.
    ``Game(players, seed, deal=False)`` starts empty for
    :meth:`start_round` with a given deal (used by record replay).
    ``scores`` (raw, per side) and ``starter`` start the game from a position
    of a race already under way (analysis, calibration): round 0 is dealt from
    ``seed`` as usual, at those scores, opened by that seat.

    >>> g = Game(players=2, seed=5, scores=[290, 100], starter=1)
    >>> g.scores, g.current.starter
    ([290, 100], 1)
    """

    def __init__(self, players: int = 2, seed: int | None = None, *, seats=None,
                 max_rounds: int = DEFAULT_MAX_ROUNDS, deal: bool = True, scores=None, starter: int | None = None):
        players = check_players(players)
        # the one random choice not from a caller's seed: a person's game must not be
        # recomputable from their hand (a brute force over small seeds takes a second)
        seed = random.SystemRandom().getrandbits(63) if seed is None else check_seed(seed)
        if seats is not None and (isinstance(seats, (str, bytes)) or not hasattr(seats, "__iter__")):
            raise OptionError(f"seats must be a list of {players} names, not {_short(seats)}")
        seats = list(seats) if seats is not None else [f"seat{i}" for i in range(players)]
        if len(seats) != players or not all(isinstance(s, str) for s in seats):
            raise OptionError(f"seats must be a list of {players} names, not {_short(seats)}")
        for i, name in enumerate(seats):      # (printed in reports: no line of their own)
            fault = name_fault(name)
            if fault is not None:
                raise OptionError(f"seats[{i}] {_short(name)}: {fault}")
        max_rounds, starter = _as_int(max_rounds), _as_int(starter)
        if not _is_int(max_rounds) or max_rounds < 1:
            raise OptionError(f"max_rounds must be an integer >= 1, not {_short(max_rounds)}")
        # a switch, not a truth value: "no" would deal, NotImplemented is an error in newer Pythons
        deal = check_switch("deal", deal)
        self.players = players
        self.sides = _core.sides_of(players)
        self.seed = seed
        self.seats = seats
        self.max_rounds = max_rounds
        self.rounds: list[RoundLog] = []
        if (scores is not None or starter is not None) and not deal:
            raise OptionError("scores and starter are for a game that deals its first round (deal=True)")
        if starter is not None and (not _is_int(starter)
                                    or not 0 <= starter < players):
            raise OptionError(f"starter must be a seat 0..{players - 1}, not {_short(starter)}")
        if deal:
            try:
                self.next_round(scores=scores, starter=starter)
            except IllegalMoveError as e:
                raise OptionError(str(e)) from None

    # ------------------------------------------------------------------ display
    def __repr__(self) -> str:
        """Players, round, raw scores per side and who is to move (or how the game stands).

        >>> Game(players=2, seed=5, scores=[290, 100], starter=1)
        <Game 2 players, round 0, scores 290 / 100, seat 1 to move>
        >>> Game(players=4, seed=0, deal=False)
        <Game 4 players, no round dealt>
        """
        head = f"<Game {self.players} players"
        if not self.rounds:
            return head + ", no round dealt>"
        scores = " / ".join(str(s) for s in self.scores)
        if self.game_over:
            state = f"side {self.winner} won"
        elif self.unfinished:
            state = "unfinished"
        elif self.round_over:
            state = "round over"
        else:
            state = f"seat {self.to_move} to move"
        return f"{head}, round {len(self.rounds) - 1}, scores {scores}, {state}>"

    def _repr_svg_(self) -> str:
        """The current round's board as SVG (:func:`fiveup_solver.svg.board_svg`), so a
        notebook shows the board; an empty string before any round is dealt."""
        if not self.rounds:
            return ""
        return board_svg(self, size=480)

    # ------------------------------------------------------------------ rounds
    @property
    def current(self) -> RoundLog:
        if not self.rounds:
            raise IllegalMoveError("no round has been dealt")
        return self.rounds[-1]

    @property
    def scores(self) -> list:
        """Raw score per side."""
        if not self.rounds:
            return [0] * self.sides
        return self.current.core.scores

    @property
    def display_scores(self) -> list:
        return [raw_to_display(s) for s in self.scores]

    @property
    def game_over(self) -> bool:
        return bool(self.rounds) and self.current.core.status == "won"

    @property
    def round_over(self) -> bool:
        return bool(self.rounds) and self.current.core.status != "playing"

    @property
    def unfinished(self) -> bool:
        """D6: the round limit was reached without a winner."""
        return self.round_over and not self.game_over and len(self.rounds) >= self.max_rounds

    @property
    def winner(self) -> int | None:
        """The side that reached exactly 305, or None."""
        if not self.game_over:
            return None
        return self.current.core.side_of(self.current.core.end_seat)

    def next_starter(self) -> int | None:
        """The starter the rules fix for the next round, or None when it is drawn (D1)."""
        if not self.rounds:
            return None
        core = self.current.core
        return core.end_seat if core.status == "domino" else None

    def next_round(self, *, scores=None, starter: int | None = None) -> RoundLog:
        """Deal the next round (shuffle, then the starter when drawn, D1).

        Round r's shuffle and starter draw come from the game's seed and r alone,
        never from how earlier rounds went: two games of one seed see the same
        tiles round by round whoever plays them (duplicate matches rely on it).
        ``scores``/``starter``: the first round's, for a game started mid-race."""
        r = len(self.rounds)
        rng = random.Random(f"fiveup-deal/{self.seed}/{r}")
        order = list(range(28))
        rng.shuffle(order)
        drawn = self.next_starter()
        if drawn is None:
            drawn = random.Random(f"fiveup-starter/{self.seed}/{r}").randrange(self.players)
        starter = drawn if starter is None else starter
        tiles = [ALL_TILES[i] for i in order]
        n, (size, _) = self.players, _core.deal_shape(self.players)
        # scores are start_round's to check (a list or tuple of the sides' raw scores)
        return self.start_round([tiles[size * s: size * (s + 1)] for s in range(n)], tiles[size * n:], starter,
                                scores=scores)

    def start_round(self, hands, boneyard, starter: int, scores=None) -> RoundLog:
        """Start a round from a given deal (lists of Tile) and starter.

        ``scores`` (raw, per side) may be given for the first round only: an
        analysis position that starts from a score other than 0.
        """
        if self.rounds:
            if not self.round_over:
                raise IllegalMoveError("the current round has not ended")
            if self.game_over:
                raise IllegalMoveError("the game is over")
        if len(self.rounds) >= self.max_rounds:
            raise IllegalMoveError(f"the round limit ({self.max_rounds}) is reached")
        starter = _as_int(starter)
        fixed = self.next_starter()
        if fixed is not None and starter != fixed:
            raise IllegalMoveError(f"starter must be seat {fixed}, who emptied their hand last round")
        if not (_is_int(starter) and 0 <= starter < self.players):
            raise IllegalMoveError(f"starter {_short(starter)} is not a seat")
        _check_deal(self.players, hands, boneyard)
        if scores is not None:
            if self.rounds:
                raise IllegalMoveError("scores carry over from the previous round")
            # a list, a tuple or a numpy array of integers (numpy's too: errors.int_list); the
            # same range as equity.win_probabilities (notation.score_floor)
            values, low = int_list(scores), score_floor(self.players)
            if values is None or len(values) != self.sides or not all(_is_int(x) for x in values):
                raise IllegalMoveError(f"scores must be {self.sides} integers from {low} to 304 (raw, one per "
                                       f"side, with {self.players} players), not {_short(scores)}")
            if self.players != NEGATIVE_SCORE_PLAYERS and min(values) < 0:
                raise IllegalMoveError(f"scores below 0 occur only with 4 players (a partner's pips, D4): with "
                                       f"{self.players} they are from 0 to 304, not {_short(values)}")
            if not all(low <= x < 305 for x in values):
                raise IllegalMoveError(f"scores must be from {low} to 304 with {self.players} players, "
                                       f"not {_short(values)}")
            if any(x % 5 for x in values):   # every credit is a multiple of 5 (RULES §4, §5): no other score exists
                raise IllegalMoveError(f"scores must be multiples of 5 (raw points), not {_short(values)}")
            scores = values
        scores = tuple(self.scores) if scores is None else tuple(scores)
        core = _core.CoreRound(self.players, [[t.index for t in h] for h in hands],
                               [t.index for t in boneyard], starter, list(scores))
        log = RoundLog(starter, [list(h) for h in hands], list(boneyard), core, scores_before=scores)
        self.rounds.append(log)
        return log

    # ------------------------------------------------------------------ state
    @property
    def to_move(self) -> int | None:
        return None if self.round_over else self.current.core.to_move

    def hand(self, seat: int) -> list:
        seat = _as_int(seat)
        if not (_is_int(seat) and 0 <= seat < self.players):
            raise OptionError(f"seat must be 0..{self.players - 1}, not {_short(seat)}")
        return [ALL_TILES[i] for i in self.current.core.hand(seat)]

    @property
    def boneyard(self) -> list:
        """Tiles still in the boneyard, in draw order (hidden from the seats)."""
        return [ALL_TILES[i] for i in self.current.core.boneyard_left]

    @property
    def board(self) -> list:
        return [ALL_TILES[i] for i in self.current.core.board_tiles]

    def open_ports(self) -> list:
        return _open_ports(self.current.core)

    def scoring_ends(self) -> list:
        """(Tile, counted value) pairs of RULES §4.1."""
        return [(ALL_TILES[g], v) for g, v in self.current.core.scoring_ends()]

    @property
    def end_sum(self) -> int:
        return self.current.core.end_sum

    @property
    def legal_moves(self) -> list:
        """Concrete legal moves of the seat to move (placements, or the forced draw or pass);
        before any round is dealt an IllegalMoveError, as ``to_move`` and ``board``."""
        return core_legal_moves(self.current.core)

    @property
    def events(self) -> list:
        """All scoring events so far, in the order applied."""
        return [e for r in self.rounds for per_action in r.events for e in per_action]

    # ------------------------------------------------------------------ push / pop
    def push(self, move: Move, *, seat: int | None = None) -> list:
        """Apply a move of the seat to move; returns the scoring events it caused (a draw's
        tile is then :meth:`peek`'s).

        ``seat``: the seat the move is from (a person's, in an app). A move of another seat
        is refused before anything about it is checked: an error about a tile tells whether
        the seat to move holds it, so an app pushing a person's move at another seat's turn
        would let them read that hand one tile at a time.

        >>> g = Game(players=2, seed=5, scores=[290, 100], starter=1)
        >>> g.push(g.legal_moves[0], seat=0)
        Traceback (most recent call last):
        ...
        fiveup_solver.errors.IllegalMoveError: seat 0 is not to move (seat 1 is)
        """
        r = self.current
        core = r.core
        if self.game_over:
            raise IllegalMoveError("the game is already won")
        if core.status != "playing":
            raise IllegalMoveError("the round has ended")
        if seat is not None:
            asked = _as_int(seat)
            if not _is_int(asked) or not 0 <= asked < self.players:
                raise OptionError(f"seat must be a seat 0..{self.players - 1}, not {_short(seat)}")
            if asked != core.to_move:
                raise IllegalMoveError(f"seat {asked} is not to move (seat {core.to_move} is)")
        seat = core.to_move
        kind = core.turn_kind()
        before = list(core.scores)
        if isinstance(move, str):
            # (a review: a solve's move string pushed was told "not a move: '0-0'", a well-formed one)
            raise IllegalMoveError(f"push takes a Move, not the text {_short(move)}: Move.parse(text), or "
                                   "game.parse_move(text) for what a person types")
        if not isinstance(move, Move):
            raise IllegalMoveError(f"not a move: {_short(move)}")
        if not _well_formed(move):
            raise IllegalMoveError(f"malformed move: kind {_short(move.kind)}, tile {_short(move.tile)}, "
                                   f"at {_short(move.at)}")
        if move.kind == "play":
            tile = move.tile
            if kind != "place":
                raise IllegalMoveError(f"seat {seat} holds no playable tile and must {kind}")
            _, g, k = move.placement
            code = core.check_placement(tile.index, g, k)
            if code != _core.PLACE_OK:
                raise IllegalMoveError(_core.placement_message(code, tile.index, g, k, seat))
            core.place(tile.index, g, k)
            done = move
        elif move.kind == "draw":
            if kind != "draw":
                raise IllegalMoveError(turn_fault(seat, kind, "draw"))
            nxt = ALL_TILES[core.boneyard_left[0]]
            if move.tile is not None and move.tile != nxt:
                # the next tile is not named: the seats must not learn it from an error
                raise IllegalMoveError(f"draw {move.tile} is not the boneyard's next tile")
            core.draw()
            done = Move.draw(nxt)
        elif move.kind == "pass":
            if kind != "pass":
                raise IllegalMoveError(turn_fault(seat, kind, "pass"))
            core.pass_turn()
            done = move
        else:
            raise IllegalMoveError(f"unknown move kind {_short(move.kind)}")
        index = len(r.moves)
        scores = before
        events = []
        for ev_kind, ev_seat, side, es, raw, accepted in core.last_events():
            if accepted:
                scores[side] += raw
            events.append(Event(len(self.rounds) - 1, None if ev_kind == "block" else index,
                                ev_kind, ev_seat, side, es, raw, accepted, tuple(scores)))
        r.moves.append((seat, done))
        r.events.append(events)
        return events

    def parse_move(self, text: str) -> Move:
        """The legal move of the seat to move that `text` names as a person types it: record
        notation (:func:`~fiveup_solver.notation.parse_move`), a port's name in any case
        (``1-5@0-1:High``), or a tile alone where it has one legal placement. What is no move
        is a :class:`~fiveup_solver.errors.ParseError`; a move that is not legal here an
        :class:`~fiveup_solver.errors.IllegalMoveError` in words for the person to move
        ("... is not in your hand", where the tile goes, or the legal moves). ``fiveup play``
        and the browser app read typed moves with it.

        >>> g = Game(players=2, seed=0)
        >>> g.push(g.parse_move("0-3"))
        []
        >>> g.parse_move("0-4"), g.parse_move("1-3@0-3:HIGH")
        (Move.parse('0-4@0-3:low'), Move.parse('1-3@0-3:high'))
        >>> g.parse_move("0-4@0-3:high")
        Traceback (most recent call last):
        ...
        fiveup_solver.errors.IllegalMoveError: 0-4@0-3:high is not legal here; 0-4 goes 0-4@0-3:low
        """
        if not isinstance(text, str):
            raise ParseError(f"a move is typed text, not {_short(text)}")
        legal = self.legal_moves
        if not legal:
            raise IllegalMoveError("no move is legal: the round is over" if self.rounds else "no round is dealt")
        tile_text, at, port = text.strip().partition("@")
        head, colon, tail = port.rpartition(":")
        name = next((n for n in SINGLE_PORTS + DOUBLE_PORTS if n.lower() == tail.lower()), None)
        move = parse_move(f"{tile_text}@{head}:{name}" if at and colon and name else text.strip())
        if move in legal:
            return move
        if move.kind == "play":
            placements = [m for m in legal if m.kind == "play" and m.tile == move.tile]
            if move.at is None and len(placements) == 1:
                return placements[0]            # the tile's one placement
            if move.tile not in self.hand(self.to_move):
                raise IllegalMoveError(f"{move.tile} is not in your hand")
            if placements and all(m.at is None for m in placements):
                # (a review: "3-6 goes 3-6" read as a riddle)
                raise IllegalMoveError(f"{format_move(move)} is not legal here: the opening is a tile alone, "
                                       f"{move.tile}")
            if placements:
                raise IllegalMoveError(f"{format_move(move)} is not legal here; {move.tile} goes "
                                       + " or ".join(format_move(m) for m in placements))
        raise IllegalMoveError(f"{format_move(move)} is not legal here: legal are "
                               + ", ".join(format_move(m) for m in legal))

    def peek(self) -> Move | None:
        """The last action of the game (a draw with its tile, which :meth:`push` returns no
        event for), or None before the first; at a round's start, the previous round's last.

        >>> g = Game(players=2, seed=5, scores=[290, 100], starter=1)
        >>> g.peek() is None
        True
        >>> move = g.legal_moves[0]
        >>> _ = g.push(move)
        >>> g.peek() == move
        True
        """
        for r in reversed(self.rounds):
            if r.moves:
                return r.moves[-1][1]
        return None

    def pop(self) -> Move:
        """Undo the last action and return it.

        At the start of a round (no action yet) the round's deal is removed too,
        and the previous round's last action, the one that ended it, is undone.
        """
        r = self.current
        if not r.moves:
            if len(self.rounds) == 1:
                raise IllegalMoveError("nothing to undo")
            self.rounds.pop()
            return self.pop()
        _, move = r.moves.pop()
        r.events.pop()
        r.core.undo()
        r.end_views.clear()             # the round's end is no longer what its views saw
        return move

    def __reduce__(self):
        """Pickled as what it is made of: its settings, and every round's deal, starter
        and actions (the core's Cython objects do not pickle; they are rebuilt by replaying
        the actions through the rules). So ``pickle``, ``copy.deepcopy``, worker processes
        and OpenSpiel's serialisation take a Game (``copy()`` is the fast copy).

        >>> import pickle
        >>> g = Game(players=3, seed=4)
        >>> _ = g.push(g.legal_moves[0])
        >>> h = pickle.loads(pickle.dumps(g))
        >>> h.to_record() == g.to_record(), h.scores == g.scores, h.to_move == g.to_move
        (True, True, True)
        """
        rounds = [(r.starter, [[t.index for t in h] for h in r.hands], [t.index for t in r.boneyard],
                   r.actions, list(r.scores_before), r.filled_for) for r in self.rounds]
        return _rebuilt_game, (self.players, self.seed, list(self.seats), self.max_rounds, rounds)

    def copy(self) -> "Game":
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.seats = list(self.seats)
        g.rounds = [RoundLog(r.starter, [list(h) for h in r.hands], list(r.boneyard), r.core.copy(),
                             list(r.moves), [list(e) for e in r.events], r.scores_before, r.filled_for)
                    for r in self.rounds]
        return g

    # ------------------------------------------------------------------ views
    def observation(self, seat: int) -> Observation:
        """What `seat` knows now: nothing of other hands or the boneyard order."""
        seat = _as_int(seat)
        if not (_is_int(seat) and 0 <= seat < self.players):
            raise OptionError(f"seat must be 0..{self.players - 1}, not {_short(seat)}")
        previous = None
        if len(self.rounds) > 1:
            last = self.rounds[-2]
            previous = last.end_views.get(seat)
            if previous is None:
                previous = last.end_views[seat] = self._view(last, len(self.rounds) - 2, seat, None)
        return self._view(self.current, len(self.rounds) - 1, seat, previous)

    def _view(self, r: RoundLog, index: int, seat: int, previous) -> Observation:
        """Seat's observation of round r (number index) as it stands."""
        core = r.core
        moves = tuple(core_legal_moves(core)) if core.status == "playing" and core.to_move == seat else ()
        sums = []
        for m in moves:
            if m.kind == "play":
                trial = core.copy()
                trial.place(*m.placement)
                sums.append(trial.end_sum)
            else:
                sums.append(core.end_sum)
        hands = [tuple(ALL_TILES[i] for i in core.hand(s)) for s in range(self.players)]
        return Observation(
            seat=seat, players=self.players, round=index, starter=r.starter,
            to_move=None if core.status != "playing" else core.to_move, hand=hands[seat], side=core.side_of(seat),
            hand_sizes=tuple(len(h) for h in hands),
            boneyard_size=core.boneyard_size, scores=tuple(core.scores),
            history=r.history(seat),
            open_ports=tuple(_open_ports(core)),
            end_sum=core.end_sum, legal_moves=moves, end_sums_after=tuple(sums), status=core.status,
            scores_before=tuple(r.scores_before),
            # the hands left are shown for end-of-round scoring (RULES §2.2)
            revealed=None if core.status == "playing" else tuple(hands), previous_round=previous)

    def round_ends(self) -> list:
        return [r.end() for r in self.rounds]

    def result(self) -> dict:
        """The replay object of RECORD.md: winner, scores, rounds, events."""
        return {"winner": self.winner, "scores": list(self.scores), "rounds": self.round_ends(),
                "events": [e.to_dict() for e in self.events]}

    def to_record(self, view: int | None = None, *, scores_kept_apart: bool = False) -> dict:
        """The game as a fiveup-record/1 object; with ``view`` a seat's view of it.

        A game read from a seat's view (:func:`~fiveup_solver.record.game_from_record`
        of a record with ``"view"``) gives that view back: the tiles hidden from the
        seat were filled in, not known, so no full record of it exists, and another
        seat's view is refused.

        A record's game starts from 0 (RECORD.md): a game started from other scores
        is refused, since its replay would be another game, unless the caller keeps
        them apart (``scores_kept_apart=True``, as the benchmark suites store a
        position: its record, and its scores beside it)."""
        view = _as_int(view)
        if view is not None and not (_is_int(view) and 0 <= view < self.players):
            raise OptionError(f"view must be a seat 0..{self.players - 1} or None, not {_short(view)}")
        scores_kept_apart = check_switch("scores_kept_apart", scores_kept_apart)
        if not self.rounds:
            raise OptionError("no round has been dealt: a record holds at least one round")
        filled = sorted({r.filled_for for r in self.rounds if r.filled_for is not None})
        if filled:
            # read from a seat's view (RoundLog.filled_for): its hidden tiles were filled in,
            # so the record it has is that view, never a full record of invented tiles
            if view is None:
                view = filled[0]
            elif view != filled[0]:
                raise OptionError(f"this game was read from seat {filled[0]}'s view: seat {view}'s view of it "
                                  f"is not known (the tiles hidden from seat {filled[0]} were filled in)")
        start = list(self.rounds[0].scores_before)
        if any(start) and not scores_kept_apart:
            # RECORD.md's games start from 0: its replay would be another game (pickle keeps it)
            raise OptionError(f"a game started from scores {start} has no fiveup-record/1 (records start "
                              f"from 0); pickle the Game to keep it")
        rounds = []
        for r in self.rounds:
            entry = {"starter": r.starter,
                     "hands": [[str(t) for t in h] for h in r.hands],
                     "boneyard": [str(t) for t in r.boneyard],
                     "actions": [dict(a) for a in r.actions]}
            if view is not None:
                entry["hands"] = [h if s == view else None for s, h in enumerate(entry["hands"])]
                entry["boneyard"] = None
                entry["actions"] = list(r.history(view))
                if r.core.status != "playing":
                    entry["revealed"] = [[str(ALL_TILES[t]) for t in r.core.hand(s)] for s in range(self.players)]
            rounds.append(entry)
        record = {"format": "fiveup-record/1", "players": self.players, "seats": list(self.seats),
                  "rounds": rounds}
        if view is not None:
            record["view"] = view
        return record


def _open_ports(core) -> list:
    """A round's open ports now, as Port values."""
    return [Port(ALL_TILES[g], ALL_TILES[g].port_names[k]) for g, k, _ in core.open_ports()]


def _rebuilt_game(players, seed, seats, max_rounds, rounds) -> Game:
    """The game :meth:`Game.__reduce__` describes, replayed through the rules."""
    game = Game(players, seed, seats=seats, max_rounds=max_rounds, deal=False)
    for i, (starter, hands, boneyard, actions, scores, *filled) in enumerate(rounds):
        game.start_round([[ALL_TILES[t] for t in h] for h in hands], [ALL_TILES[t] for t in boneyard], starter,
                         scores=scores if i == 0 else None)
        game.current.filled_for = filled[0] if filled else None     # (a pickle of before it: none)
        for action in actions:
            game.push(Move.from_action(action))
    return game


def not_to_move(obs, what: str) -> IllegalMoveError:
    """The one error for an observation whose seat has no move to ``what`` (hint, choose,
    value, judge): another seat is to move, the round is over, or the game is (a side
    reached 305)."""
    if obs.to_move is not None:
        return IllegalMoveError(f"seat {obs.seat} is not to move")
    if obs.status == "won":
        return IllegalMoveError(f"the game is over (a side reached 305): no move to {what}")
    return IllegalMoveError(f"the round is over: no move to {what}")


def core_legal_moves(core) -> list:
    """The concrete legal moves of the seat to move in a ``_core.CoreRound``, as Move objects."""
    kind = core.turn_kind()
    if kind == "place":
        return [Move.play(ALL_TILES[t], None if g < 0 else Port(ALL_TILES[g], ALL_TILES[g].port_names[k]))
                for t, g, k in core.concrete_moves()]
    if kind == "draw":
        return [Move.draw()]
    if kind == "pass":
        return [Move.pass_()]
    return []


def _well_formed(move: Move) -> bool:
    """A play has a Tile and an optional Port; a draw an optional Tile; a pass neither."""
    if move.kind == "play":
        return isinstance(move.tile, Tile) and (move.at is None or isinstance(move.at, Port))
    if not isinstance(move.kind, str) or move.kind not in ("draw", "pass"):
        return False
    tile_ok = move.tile is None or (move.kind == "draw" and isinstance(move.tile, Tile))
    return tile_ok and move.at is None


def _check_deal(players: int, hands, boneyard) -> None:
    """A deal is `players` hands of 5 Tiles and a boneyard of the other 28 - 5n, all distinct."""
    size, bone = _core.deal_shape(players)
    try:
        hands, boneyard = [list(h) for h in hands], list(boneyard)
    except TypeError:
        raise IllegalMoveError("a deal is a list of hands (lists of Tile) and a boneyard list") from None
    if len(hands) != players or any(len(h) != size for h in hands) or len(boneyard) != bone:
        raise IllegalMoveError(f"a deal for {players} players is {players} hands of {size} tiles "
                               f"and a boneyard of {bone}")
    tiles = [t for h in hands for t in h] + boneyard
    if not all(isinstance(t, Tile) for t in tiles):
        raise IllegalMoveError("a deal must consist of Tile objects")
    if len(set(tiles)) != 28:
        raise IllegalMoveError("a deal must use each of the 28 tiles once")


def action_to_move(action: dict) -> Move:
    return Move.from_action(action)


STATUSES = ("playing", "domino", "blocked", "won", "ended")   # "ended": over, how is not said


def check_observation(obs) -> list:
    """Check the types, ranges and bookkeeping of an observation's fields (a
    hand-built one may hold anything); returns its history as typed
    ``(seat, Move)`` pairs. Raises :class:`InconsistentObservationError` naming
    the field. Whether the history follows the rules is checked by the core,
    when :class:`DealSampler` replays it on a consistent deal."""

    def bad(what):
        return InconsistentObservationError(f"observation {what}"[:300])

    if obs is None or isinstance(obs, (Game, dict, str, bytes, numbers.Number)):
        # (a review: hint(game) said "observation has no field 'seat'")
        raise InconsistentObservationError(f"expected an Observation (game.observation(seat)), not {_short(obs)}")
    for name in ("seat", "players", "round", "starter", "to_move", "hand", "side", "hand_sizes", "boneyard_size",
                 "scores", "history", "open_ports", "end_sum", "legal_moves", "status", "scores_before"):
        if not hasattr(obs, name):
            raise bad(f"has no field '{name}': expected an Observation (Game.observation(seat))")
    for name in ("seat", "players", "round", "starter", "to_move", "side", "boneyard_size", "end_sum",
                 "hand_sizes", "scores", "scores_before", "end_sums_after"):
        v = getattr(obs, name, None)
        for x in (v if isinstance(v, (tuple, list)) else (v,)):
            if isinstance(x, numbers.Integral) and not isinstance(x, (int, bool)):
                # (a review read "boneyard_size must be 0..18, not np.int64(3)": the range was not the fault)
                raise bad(f"{name} holds {type(x).__module__}.{type(x).__name__} {int(x)}: an Observation's "
                          f"integers are Python ints (give int(x))")
    n = obs.players
    check_players(n, error=bad)
    sides = _core.sides_of(n)
    for name in ("seat", "starter"):
        v = getattr(obs, name)
        if not _is_int(v) or not 0 <= v < n:
            raise bad(f"{name} must be a seat 0..{n - 1}, not {_short(v)}")
    if obs.to_move is not None and (not _is_int(obs.to_move) or not 0 <= obs.to_move < n):
        raise bad(f"to_move must be a seat 0..{n - 1} or None, not {_short(obs.to_move)}")
    if not _is_int(obs.round) or obs.round < 0:
        raise bad(f"round must be an integer >= 0, not {_short(obs.round)}")
    if not _is_int(obs.side) or obs.side != _core.side_of_seat(n, obs.seat):
        raise bad(f"side {_short(obs.side)} is not seat {obs.seat}'s side ({_core.side_of_seat(n, obs.seat)})")
    if obs.status not in STATUSES:
        raise bad(f"status must be one of {', '.join(STATUSES)}, not {_short(obs.status)}")
    hand = obs.hand
    if not isinstance(hand, (tuple, list)) or not all(isinstance(t, Tile) for t in hand):
        raise bad(f"hand must be a tuple of Tile, not {_short(hand)}")
    if len(set(hand)) != len(hand):
        raise bad("hand holds a tile twice")
    hand_size, bone_size = _core.deal_shape(n)
    for name, size in (("hand_sizes", n), ("scores", sides), ("scores_before", sides)):
        v = getattr(obs, name)
        if not isinstance(v, (tuple, list)) or (len(v) and len(v) != size):
            raise bad(f"{name} must list {size} integers (or nothing), not {_short(v)}")
    if not all(_is_int(x) and 0 <= x <= 28 for x in obs.hand_sizes):
        raise bad(f"hand_sizes must be integers 0..28, not {_short(obs.hand_sizes)}")
    for name in ("scores", "scores_before"):
        v = getattr(obs, name)
        # a won game's scores hold the winner's exact 305 (one side only); a round starts below it
        top = 305 if name == "scores" and obs.status == "won" else 304
        # (below 0 only with 4 players, D4: a review read the 4-player floor in a 2-player message)
        low = LOWEST_SCORE if n == NEGATIVE_SCORE_PLAYERS else 0
        if not all(_is_int(x) and low <= x <= top for x in v):
            raise bad(f"{name} must be integers from {low} to {top}"
                      + (" (305: the winner's, with a won status)" if name == "scores" else "")
                      + f", not {_short(v)}")
    if not _is_int(obs.boneyard_size) or not 0 <= obs.boneyard_size <= bone_size:
        raise bad(f"boneyard_size must be 0..{bone_size}, not {_short(obs.boneyard_size)}")
    if not _is_int(obs.end_sum):
        raise bad(f"end_sum must be an integer, not {_short(obs.end_sum)}")
    if not isinstance(obs.open_ports, (tuple, list)) or not all(isinstance(p, Port) for p in obs.open_ports):
        raise bad(f"open_ports must be a tuple of Port, not {_short(obs.open_ports)}")
    if not isinstance(obs.legal_moves, (tuple, list)) or not all(
            isinstance(m, Move) and _well_formed(m) for m in obs.legal_moves):
        raise bad(f"legal_moves must be a tuple of well-formed Move, not {_short(obs.legal_moves)}")
    sums = getattr(obs, "end_sums_after", ())
    if not isinstance(sums, (tuple, list)) or (obs.legal_moves and len(sums) != len(obs.legal_moves)) or not all(
            _is_int(x) and 0 <= x < 2 ** 15 for x in sums):
        raise bad(f"end_sums_after must give one end sum (integer) per legal move, not {_short(sums)}")
    revealed = getattr(obs, "revealed", None)
    if revealed is not None and (not isinstance(revealed, (tuple, list)) or len(revealed) != n or not all(
            isinstance(h, (tuple, list)) and all(isinstance(t, Tile) for t in h) for h in revealed)):
        raise bad(f"revealed must list {n} hands of Tile, or be None")
    if revealed is not None:
        # (a review: a revealed hand that could not be was refused as "no deal fits", naming nothing)
        where = {}
        for s, h in enumerate(revealed):
            if obs.hand_sizes and len(h) != obs.hand_sizes[s]:
                raise bad(f"revealed hand of seat {s} holds {len(h)} tiles, but hand_sizes says {obs.hand_sizes[s]}")
            for t in h:
                if t in where:
                    raise bad(f"revealed tile {t} is in the hands of seats {where[t]} and {s}")
                where[t] = s
    if not isinstance(obs.history, (tuple, list)):
        raise bad(f"history must be a tuple of actions, not {_short(obs.history)}")
    actions = []
    for i, a in enumerate(obs.history):
        try:
            a = check_action(a, i, n, obs.seat)
        except RecordError as e:
            raise bad(f"history {e}") from None
        actions.append((a["seat"], Move.from_action(a)))
    previous = getattr(obs, "previous_round", None)
    if previous is not None:
        # its own fields are checked where they are read (to_dict, from_dict): the engine's
        # searches decide from this round alone
        if not isinstance(previous, Observation):
            raise bad(f"previous_round must be an Observation (the seat's view of the last round's end) or None, "
                      f"not {_short(previous)}")
        if previous.previous_round is not None:
            raise bad("previous_round's own previous_round must be None (older rounds are in the game's record)")
        if previous.players != n or previous.seat != obs.seat or previous.round != obs.round - 1:
            raise bad(f"previous_round must be seat {obs.seat}'s view of round {obs.round - 1} with {n} players, not "
                      f"seat {_short(previous.seat)}'s of round {_short(previous.round)} with {_short(previous.players)}")
        if previous.status == "playing" or previous.to_move is not None:
            raise bad(f"previous_round must be a round that is over, not one with status {_short(previous.status)}")
        if obs.scores_before and previous.scores and tuple(previous.scores) != tuple(obs.scores_before):
            raise bad(f"previous_round ends at scores {_short(previous.scores)}, but this round starts at "
                      f"{_short(obs.scores_before)}")
    return actions
