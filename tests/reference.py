"""Independent pure-Python reference implementation of "Exact 61 Five Up".

Written only from shared/spec/RULES.md, shared/spec/RECORD.md and
shared/spec/examples/seed_examples.json, to cross-check the real engine.
Small and plain on purpose: stdlib only, the board modelled tile by tile.

Public API
    replay(record) -> dict           whole-record replay (RECORD.md output + "placements")
    RoundState(players, hands, boneyard, starter, scores, round_index=0)
        .legal_actions() .apply(action) .copy() .over .end .winner
        .events .placements .board .open_ports() .scoring_ends() .end_sum
    legal_placements(state)          the placement actions among state.legal_actions()
    perft(record, round_index, action_index, depth) -> int
    random_round(rng, players) -> list[int]
    round_to_5, end_sum, block_credits, block_round_winner, domino_event_value,
    settle_domino, settle_block, side_of, n_sides, Board, ReferenceRuleError
"""
from __future__ import annotations

import random

TARGET = 305  # raw points, exactly (RULES §4.3, §7)

ALL_TILES = [f"{a}-{b}" for a in range(7) for b in range(a, 7)]
VALUES = {t: (int(t[0]), int(t[2])) for t in ALL_TILES}  # "a-b" -> (a, b), a <= b
LINE = ("lineA", "lineB")
BRANCH = ("branchA", "branchB")


class ReferenceRuleError(Exception):
    """An illegal action or a malformed record."""


ReferenceError_ = ReferenceRuleError  # alias (the brief uses both names)


# ---------------------------------------------------------------- basics

def norm_tile(t) -> str:
    """'b-a' or 'a-b' -> canonical 'a-b' with a <= b."""
    if t in VALUES:
        return t
    try:
        a, b = (int(x) for x in str(t).split("-"))
    except ValueError:
        raise ReferenceRuleError(f"bad tile {t!r}") from None
    if not (0 <= a <= 6 and 0 <= b <= 6):
        raise ReferenceRuleError(f"bad tile {t!r}")
    return f"{min(a, b)}-{max(a, b)}"


def norm_port(p) -> str:
    """'TILE:PORT' with the tile normalised; the port name must suit the tile."""
    tile, sep, name = str(p).partition(":")
    tile = norm_tile(tile)
    a, b = VALUES[tile]
    if not sep or name not in (LINE + BRANCH if a == b else ("low", "high")):
        raise ReferenceRuleError(f"bad port {p!r}")
    return f"{tile}:{name}"


def pips(tile) -> int:
    a, b = VALUES[norm_tile(tile)]
    return a + b


def hand_pips(hand) -> int:
    return sum(pips(t) for t in hand)


def n_sides(players: int) -> int:
    return 2 if players == 4 else players


def side_of(players: int, seat: int) -> int:
    """RULES §1.3: with 4 players seats 0,2 = side 0 and 1,3 = side 1."""
    return seat % 2 if players == 4 else seat


def round_to_5(x: int) -> int:
    """RULES §6.4: remainder 1,2 round down; 3,4 round up (x >= 0)."""
    return 5 * ((x + 2) // 5)


def placement_credit(s: int) -> int:
    """RULES §4.2: S if S is positive and divisible by 5, else 0."""
    return s if s > 0 and s % 5 == 0 else 0


# ---------------------------------------------------------------- board

class Board:
    """The placed tiles.  tiles: tile -> {port name: connected?}.

    Non-double ports: low, high.  Double ports: lineA, lineB, branchA, branchB;
    a placed double is always attached by its lineA (the opening tile is
    attached by nothing).
    """

    def __init__(self):
        self.tiles: dict[str, dict[str, bool]] = {}
        self.open: list[tuple[str, int]] = []  # sorted (port string, value)

    def copy(self) -> "Board":
        b = Board()
        b.tiles = {t: dict(p) for t, p in self.tiles.items()}
        b.open = list(self.open)
        return b

    def _compute_open(self) -> list[tuple[str, int]]:
        """RULES §3.4."""
        out = []
        for tile, ports in self.tiles.items():
            a, b = VALUES[tile]
            if a != b:
                if not ports["low"]:
                    out.append((tile + ":low", a))
                if not ports["high"]:
                    out.append((tile + ":high", b))
            elif not (ports["lineA"] and ports["lineB"]):
                out += [(f"{tile}:{n}", a) for n in LINE if not ports[n]]
            else:
                out += [(f"{tile}:{n}", a) for n in BRANCH if not ports[n]]
        out.sort()
        return out

    def open_ports(self) -> list[str]:
        return [p for p, _ in self.open]

    def scoring_ends(self) -> list[tuple[str, int]]:
        """RULES §4.1: [(tile, counted value)], sorted."""
        return sorted(self._scoring_ends())

    def _scoring_ends(self) -> list[tuple[str, int]]:
        out = []
        for tile, ports in self.tiles.items():
            a, b = VALUES[tile]
            if a != b:
                if not ports["low"]:
                    out.append((tile, a))
                if not ports["high"]:
                    out.append((tile, b))
            elif not (ports["lineA"] and ports["lineB"]):
                out.append((tile, 2 * a))  # counted once, however many line ports are open
        return out

    @property
    def end_sum(self) -> int:
        return sum(v for _, v in self._scoring_ends())

    def open_values(self) -> set[int]:
        return {v for _, v in self.open}

    def ports_for(self, tile: str) -> list[str]:
        """The open ports this tile can be attached to (board non-empty)."""
        a, b = VALUES[tile]
        return [p for p, v in self.open if v == a or v == b]

    def place(self, tile: str, at: str | None = None) -> int:
        """Place tile (at=None: the opening).  Returns the new end sum."""
        if tile in self.tiles:
            raise ReferenceRuleError(f"{tile} is already on the board")
        a, b = VALUES[tile]
        ports = dict.fromkeys(LINE + BRANCH if a == b else ("low", "high"), False)
        if at is None:
            if self.tiles:
                raise ReferenceRuleError(f"{tile}: only the opening tile is placed without 'at'")
        else:
            if not self.tiles:
                raise ReferenceRuleError(f"{tile}: the opening tile takes no 'at'")
            value = dict(self.open).get(at)
            if value is None:
                raise ReferenceRuleError(f"{at} is not an open port")
            if value not in (a, b):
                raise ReferenceRuleError(f"{tile} does not match {at} (value {value})")
            other, name = at.split(":")
            self.tiles[other][name] = True
            if a == b:
                ports["lineA"] = True
            else:
                ports["low" if value == a else "high"] = True
        self.tiles[tile] = ports
        self.open = self._compute_open()
        return self.end_sum


def end_sum(board: Board) -> int:
    """RULES §4.1 end sum of a board."""
    return board.end_sum


# ---------------------------------------------------------------- scoring events

def domino_event_value(players: int, seat: int, placement_end_sum: int, hands_left) -> tuple[int, int, int]:
    """RULES §6.3: (P, O, D); the event's raw credit is P + O - D."""
    mine = side_of(players, seat)
    p = placement_credit(placement_end_sum)
    o = round_to_5(sum(hand_pips(hands_left[q]) for q in range(players)
                       if side_of(players, q) != mine))
    d = round_to_5(sum(hand_pips(hands_left[q]) for q in range(players)
                       if q != seat and side_of(players, q) == mine))  # partner (4 players only)
    return p, o, d


def block_credits(players: int, hands_left, starter: int) -> list[tuple[int, int]]:
    """RULES §6.5: [(seat, credit)] in application order (zero credits included)."""
    sums = [hand_pips(h) for h in hands_left]
    order = sorted(range(players), key=lambda q: (sums[q], (q - starter) % players))
    out = []
    for q in order:
        diff = sum(sums[o] - sums[q] for o in range(players)
                   if side_of(players, o) != side_of(players, q) and sums[o] > sums[q])
        out.append((q, round_to_5(diff)))
    return out


def block_round_winner(players: int, hands_left):
    """RULES §6.6: side with the smallest single hand sum; None for a tie between sides."""
    sums = [hand_pips(h) for h in hands_left]
    low = min(sums)
    sides = {side_of(players, q) for q in range(players) if sums[q] == low}
    return sides.pop() if len(sides) == 1 else None


def _event(scores, players, round_index, action, kind, seat, end_sum_, raw):
    """Apply one scoring event (RULES §6.1) to scores in place.
    Returns (event dict, True if it won the game)."""
    side = side_of(players, seat)
    accepted = scores[side] + raw <= TARGET
    if accepted:
        scores[side] += raw
    ev = {"round": round_index, "action": action, "kind": kind, "seat": seat, "side": side,
          "end_sum": end_sum_, "raw": raw, "accepted": accepted, "scores": list(scores)}
    return ev, accepted and scores[side] == TARGET


def settle_domino(players, seat, placement_end_sum, hands_left, scores, round_index=0, action=0):
    """The domino event (always listed).  scores is updated in place.
    Returns (event, game winner side or None)."""
    p, o, d = domino_event_value(players, seat, placement_end_sum, hands_left)
    ev, won = _event(scores, players, round_index, action, "domino", seat, placement_end_sum, p + o - d)
    return ev, (ev["side"] if won else None)


def settle_block(players, hands_left, starter, scores, round_index=0):
    """Blocked-round credits.  scores is updated in place.
    Returns (events, round winner side or None, game winner side or None)."""
    events, winner = [], None
    for seat, credit in block_credits(players, hands_left, starter):
        if credit == 0:
            continue
        ev, won = _event(scores, players, round_index, None, "block", seat, None, credit)
        events.append(ev)
        if won:
            winner = ev["side"]
            break
    return events, block_round_winner(players, hands_left), winner


# ---------------------------------------------------------------- one round

def _action_dict(seat, move):
    kind, tile, at = move
    if kind == "play":
        return {"seat": seat, "play": tile} if at is None else {"seat": seat, "play": tile, "at": at}
    if kind == "draw":
        return {"seat": seat, "draw": tile}
    return {"seat": seat, "pass": True}


def _parse_action(action):
    """Record action dict -> (seat, (kind, tile, at))."""
    if not isinstance(action, dict) or not isinstance(action.get("seat"), int):
        raise ReferenceRuleError(f"bad action {action!r}")
    seat = action["seat"]
    if "play" in action:
        at = action.get("at")
        return seat, ("play", norm_tile(action["play"]), None if at is None else norm_port(at))
    if "draw" in action:
        if action["draw"] is None:
            raise ReferenceRuleError("hidden draws (seat-view records) are not supported")
        return seat, ("draw", norm_tile(action["draw"]), None)
    if action.get("pass") is True:
        return seat, ("pass", None, None)
    raise ReferenceRuleError(f"bad action {action!r}")


class RoundState:
    """One round in progress, with full information.

    Moves internally are tuples (kind, tile, at): ("play", t, None) opening,
    ("play", t, "X:port"), ("draw", t, None), ("pass", None, None).
    The public API uses record-form dicts.
    """

    def __init__(self, players, hands, boneyard, starter, scores, round_index=0):
        if players not in (2, 3, 4):
            raise ReferenceRuleError(f"bad player count {players!r}")
        if not (isinstance(starter, int) and 0 <= starter < players):
            raise ReferenceRuleError(f"bad starter {starter!r}")
        if len(hands) != players or len(scores) != n_sides(players):
            raise ReferenceRuleError("hands/scores do not match the player count")
        self.players = players
        self.hands = [[norm_tile(t) for t in h] for h in hands]
        self.boneyard = [norm_tile(t) for t in boneyard]
        self.drawn = 0               # boneyard[drawn] is the next tile to draw
        self.starter = starter
        self.turn = starter
        self.scores = list(scores)
        self.round_index = round_index
        self.board = Board()
        self.n_actions = 0           # actions applied so far (= next action index)
        self.events: list[dict] = []
        self.placements: list[dict] = []
        self.end = None              # round end dict once the round has ended
        self.winner = None           # game winner side once the game is won

    def copy(self) -> "RoundState":
        c = RoundState.__new__(RoundState)
        c.__dict__.update(self.__dict__)
        c.hands = [list(h) for h in self.hands]
        c.scores = list(self.scores)
        c.board = self.board.copy()
        c.events = list(self.events)          # event dicts are never mutated
        c.placements = list(self.placements)
        return c

    # -- queries
    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def end_sum(self) -> int:
        return self.board.end_sum

    def open_ports(self) -> list[str]:
        return self.board.open_ports()

    def scoring_ends(self) -> list[tuple[str, int]]:
        return self.board.scoring_ends()

    def boneyard_left(self) -> list[str]:
        return self.boneyard[self.drawn:]

    def can_place(self, seat: int) -> bool:
        if not self.board.tiles:
            return bool(self.hands[seat])
        vals = self.board.open_values()
        return any(VALUES[t][0] in vals or VALUES[t][1] in vals for t in self.hands[seat])

    def _legal(self):
        """RULES §3, §5.  A seat that drew only gets to play after every earlier
        tile proved unplayable on the same board, so "place the drawn tile"
        (§5.2) needs no extra bookkeeping: it is the only placeable tile."""
        if self.end is not None:
            return []
        hand = self.hands[self.turn]
        if not self.board.tiles:
            return [("play", t, None) for t in hand]
        moves = [("play", t, p) for t in hand for p in self.board.ports_for(t)]
        if moves:
            return moves
        if self.drawn < len(self.boneyard):
            return [("draw", self.boneyard[self.drawn], None)]
        return [("pass", None, None)]  # not blocked, or the round would have ended (D2)

    def legal_actions(self) -> list[dict]:
        return [_action_dict(self.turn, m) for m in self._legal()]

    # -- actions
    def apply(self, action: dict) -> None:
        seat, move = _parse_action(action)
        if self.end is not None:
            raise ReferenceRuleError("action after the round ended")
        if seat != self.turn:
            raise ReferenceRuleError(f"wrong seat {seat}: seat {self.turn} is to act")
        if move not in self._legal():
            raise ReferenceRuleError(self._why_illegal(move))
        self._do(move)

    def _why_illegal(self, move) -> str:
        kind, tile, at = move
        s = self.turn
        able = any(m[0] == "play" for m in self._legal())
        if kind == "play":
            if tile not in self.hands[s]:
                return f"{tile} is not in seat {s}'s hand"
            if not self.board.tiles:
                return "the opening tile takes no 'at'"
            if at is None:
                return f"{tile}: only the opening is placed without 'at'"
            return f"{tile} cannot be placed at {at}"
        if kind == "draw":
            if able:
                return f"seat {s} draws while able to place"
            if self.drawn >= len(self.boneyard):
                return "draw from an empty boneyard"
            return f"drew {tile} but the boneyard's next tile is {self.boneyard[self.drawn]}"
        if able:
            return f"seat {s} passes while able to place"
        return f"seat {s} passes while the boneyard is not empty"

    def _do(self, move) -> None:
        """Apply a move known to be legal."""
        kind, tile, at = move
        s, n = self.turn, self.players
        index = self.n_actions
        self.n_actions += 1
        if kind == "draw":
            self.hands[s].append(tile)
            self.drawn += 1
        elif kind == "pass":
            self.turn = (s + 1) % n
        else:
            self.hands[s].remove(tile)
            total = self.board.place(tile, at)
            self.placements.append({"round": self.round_index, "action": index, "seat": s,
                                    "tile": tile, "end_sum": total})
            if not self.hands[s]:  # domino (§6.3): the round ends whatever the result
                ev, won = settle_domino(n, s, total, self.hands, self.scores, self.round_index, index)
                self.events.append(ev)
                self.winner = won
                self.end = {"end": "domino", "seat": s}
                return
            credit = placement_credit(total)
            if credit:
                ev, won = _event(self.scores, n, self.round_index, index, "placement", s, total, credit)
                self.events.append(ev)
                if won:
                    self.winner = ev["side"]
                    self.end = {"end": "won", "seat": s}
                    return
            self.turn = (s + 1) % n
        # D2: blocked the moment the boneyard is empty and no seat can place.
        if self.drawn == len(self.boneyard) and not any(self.can_place(q) for q in range(n)):
            evs, round_winner, game_winner = settle_block(n, self.hands, self.starter,
                                                          self.scores, self.round_index)
            self.events += evs
            self.winner = game_winner
            self.end = {"end": "blocked", "winner": round_winner}


def legal_placements(state: RoundState) -> list[dict]:
    """The placement actions available now (empty when a draw or pass is forced)."""
    return [a for a in state.legal_actions() if "play" in a]


# ---------------------------------------------------------------- records

def _check_deal(players, rnd, r):
    hands, boneyard = rnd.get("hands"), rnd.get("boneyard")
    if hands is None or boneyard is None or any(h is None for h in hands):
        raise ReferenceRuleError(f"round {r}: hidden hands/boneyard are not supported")
    if len(hands) != players or any(len(h) != 5 for h in hands):
        raise ReferenceRuleError(f"round {r}: every seat must be dealt 5 tiles")
    tiles = [norm_tile(t) for h in hands for t in h] + [norm_tile(t) for t in boneyard]
    if sorted(tiles) != sorted(ALL_TILES):
        raise ReferenceRuleError(f"round {r}: hands and boneyard are not exactly the 28 tiles")


def _replay(record, stop=None):
    """Replay a record.  stop=(round_index, action_index): return the RoundState
    just before that action instead of the replay output."""
    if "format" in record and record["format"] != "fiveup-record/1":
        raise ReferenceRuleError(f"unknown format {record['format']!r}")
    if record.get("view") is not None:
        raise ReferenceRuleError("seat-view records are not supported")
    players = record["players"]
    if players not in (2, 3, 4):
        raise ReferenceRuleError(f"bad player count {players!r}")
    rounds = record["rounds"]
    if stop is not None and not 0 <= stop[0] < len(rounds):
        raise ReferenceRuleError(f"no round {stop[0]}")
    scores = [0] * n_sides(players)
    out = {"winner": None, "scores": scores, "rounds": [], "events": [], "placements": []}
    prev_end = None
    for r, rnd in enumerate(rounds):
        if out["winner"] is not None:
            raise ReferenceRuleError(f"round {r}: the game was already won")
        _check_deal(players, rnd, r)
        starter = rnd["starter"]
        if prev_end is not None and prev_end["end"] == "domino" and starter != prev_end["seat"]:
            raise ReferenceRuleError(f"round {r}: starter must be seat {prev_end['seat']}, "
                                     f"who emptied their hand")
        try:
            state = RoundState(players, rnd["hands"], rnd["boneyard"], starter, scores, r)
        except ReferenceRuleError as e:
            raise ReferenceRuleError(f"round {r}: {e}") from None
        actions = rnd["actions"]
        if stop is not None and stop[0] == r:
            if not 0 <= stop[1] <= len(actions):
                raise ReferenceRuleError(f"round {r} has no action {stop[1]}")
            actions = actions[:stop[1]]
        for i, a in enumerate(actions):
            try:
                state.apply(a)
            except ReferenceRuleError as e:
                raise ReferenceRuleError(f"round {r} action {i}: {e}") from None
        if stop is not None and stop[0] == r:
            return state
        if state.over:
            out["rounds"].append(state.end)
        elif r == len(rounds) - 1:
            out["rounds"].append({"end": "unfinished"})
        else:
            raise ReferenceRuleError(f"round {r} action {len(actions)}: "
                                     f"the round stops before it ended")
        scores = state.scores
        out["scores"] = scores
        out["events"] += state.events
        out["placements"] += state.placements
        out["winner"] = state.winner
        prev_end = state.end
    return out


def replay(record: dict) -> dict:
    """Replay a full-information fiveup-record/1; raises ReferenceRuleError."""
    return _replay(record)


def state_at(record: dict, round_index: int, action_index: int) -> RoundState:
    """The RoundState of round round_index just before action action_index."""
    return _replay(record, (round_index, action_index))


# ---------------------------------------------------------------- perft

def perft(record: dict, round_index: int, action_index: int, depth: int) -> int:
    return perft_state(state_at(record, round_index, action_index), depth)


def perft_state(state: RoundState, depth: int) -> int:
    """Sequences of exactly `depth` turns; a turn = forced draws + one placement,
    or a pass.  Sequences cut short by the end of the round/game count 0."""
    if depth == 0:
        return 1
    if state.over:
        return 0
    total = 0
    for move in state._legal():
        if move[0] == "draw":   # part of the current turn
            child = state.copy()
            child._do(move)
            total += perft_state(child, depth)
        elif depth == 1:        # this move completes the last turn
            total += 1
        else:
            child = state.copy()
            child._do(move)
            total += perft_state(child, depth - 1)
    return total


# ---------------------------------------------------------------- random playout

def deal(rng: random.Random, players: int):
    """(hands, boneyard, starter) for a fresh round."""
    tiles = list(ALL_TILES)
    rng.shuffle(tiles)
    hands = [tiles[5 * s:5 * s + 5] for s in range(players)]
    return hands, tiles[5 * players:], rng.randrange(players)


def random_round(rng: random.Random, players: int) -> list[int]:
    """Deal and play one round with uniformly random placements; final scores."""
    hands, boneyard, starter = deal(rng, players)
    state = RoundState(players, hands, boneyard, starter, [0] * n_sides(players))
    while state.end is None:
        moves = state._legal()
        state._do(moves[0] if len(moves) == 1 else rng.choice(moves))
    return state.scores
