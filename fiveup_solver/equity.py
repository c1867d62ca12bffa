"""Race equity: the probability that each side wins the game from the start of a round.

``win_probabilities(players, scores, starter)`` reads a table shipped with the
package: for every raw score state (multiples of 5 from 0 to 300 per side) and
starter side, the probability that each side is the first to reach exactly 305,
when every seat plays the default hint bot.

How the tables are built (``fiveup equity build``):

1. *Round samples*: whole rounds of hint-bot self-play from a 0 : 0 score,
   each recorded as its starter, the ordered list of its scoring events
   (side, raw credit) and how it ended (the seat that emptied its hand, or a
   block). Stored relative to the starter's side, so every round serves every
   starter (all seats play the same bot).
2. *Exact-target replay*: from any score state, a sampled round's events are
   applied in their order with the rule of RULES §6: an event above 305 is
   rejected whole, an exact 305 wins at once. Its end gives the next state
   (the emptier's side starts; after a block the starter is drawn: every seat
   alike, D1).
3. *Fixed point*: a state's value is the mean over the samples of the value of
   where it leads. Scores only grow with 2 and 3 players, so states are solved
   from the highest score sum down; states that lead back to themselves (every
   event rejected) form a small linear system per score vector, solved exactly.
   With 4 players a hand-emptying event can be negative (RULES §6.3, D4), so
   sweeps repeat until nothing changes by more than 1e-10.

Near the target the bots play differently (at 290 a side wants exactly 15),
so rounds played at 0 : 0 are a poor model there. States where some side is
near (``NEAR_FROM`` raw or more; 2 and 4 players) take their rounds from a
*sample set* played at an anchor score instead: every near side at its own
score, every far side at ``FAR_ANCHOR``; the 0 : 0 set serves the states with
no side near. A state picks its set as seen from its starter (the starter's
side is relabelled 0), so the tables keep their exact side symmetry. A round
at an anchor may end the game before its last tile; replayed from a state
where that event is not the exact 305 (only a far side's score differs from
the anchor, so this is rare), the round ends there and the next starter is
drawn. Three players use the 0 : 0 set everywhere (61^3 anchors' worth of
near states is more self-play than the table is worth); the calibration
(``benchmarks/equity_calibration.py``) measures how well each model does.

>>> p = win_probabilities(2, [0, 0], starter=0)
>>> round(sum(p), 6)
1.0
>>> p[0] > p[1]                       # the starter's edge
True
>>> win_probabilities(2, [300, 0], starter=1)[0] > 0.5
True
"""
from __future__ import annotations

import dataclasses
import itertools
import json
import os
import re
import zipfile
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from fiveup_solver import _equity
from fiveup_solver._solver import WIN_VALUE
from fiveup_solver.errors import OptionError, as_int, check_players, int_list, is_int, name_fault, short_repr as _short, type_note
from fiveup_solver.notation import NEGATIVE_SCORE_PLAYERS, TARGET_RAW, score_floor

__all__ = ["RoundSamples", "EquityTable", "near_anchors", "state_sets",
           "build_table", "with_bootstrap_errors", "load_table", "win_probabilities",
           "equity_of_scores", "equity_result", "SCORE_STEP", "SCORE_LEVELS", "DATA_DIR"]

SCORE_STEP = 5                                   # every event is a multiple of 5 raw
SCORE_LEVELS = TARGET_RAW // SCORE_STEP          # 61 levels: 0, 5, ..., 300
DATA_DIR = os.path.join(os.path.dirname(__file__), "data")
# the shipped tables' round samples: a source checkout's benchmarks/data (not package data)
SAMPLES_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks", "data")
DEFAULT_BOT = "hint-uniform"                     # the bot the shipped tables were built with
DEFAULT_ROUNDS = {2: 8000, 3: 3000, 4: 2400}      # `equity build`'s sample rounds at 0 : 0
NEAR_FROM = 240                                  # raw: a side this close to 305 plays for the target
FAR_ANCHOR = 150                                 # raw: where far sides sit in a near-target set
DEFAULT_NEAR_ROUNDS = {2: 60, 3: 0, 4: 20}        # rounds per near-target anchor (0: none)
SEARCH_CHUNK = 4096                              # states a step when the solver form is computed


def _sides(players: int) -> int:
    return 2 if players in (2, 4) else 3


def _check_players(players) -> int:
    return check_players(players)


# ---------------------------------------------------------------- round samples
@dataclass
class RoundSamples:
    """Sampled rounds, each relative to its starter's side (side 0 = the starter's).

    ``ev_offset[i]:ev_offset[i+1]`` index round i's events in ``ev_side`` and
    ``ev_raw``; ``end[i]`` is the relative side of the seat that emptied its
    hand, or -1 for a blocked round.
    """

    players: int
    bot: str
    seed: int
    ev_offset: "object"     # int32 (n + 1)
    ev_side: "object"       # int8, relative side of each event
    ev_raw: "object"        # int16, raw credit of each event (may be negative with 4 players)
    end: "object"           # int8, relative side that starts next, -1 after a block
    set_offset: "object" = None   # int32 (sets + 1): rounds of set j; None: one set of all rounds
    anchors: tuple = ()           # raw scores (starter's frame) of sets 1.. ; set 0 is 0 : 0

    @property
    def rounds(self) -> int:
        return len(self.end)

    def _check_layout(self) -> None:
        """ValueError unless the arrays index each other: round i's events are
        ``ev_offset[i]:ev_offset[i+1]``, from 0, never decreasing, to the events' end."""
        off = np.asarray(self.ev_offset)
        if off.ndim != 1 or off.dtype.kind not in "iu" or len(off) != len(self.end) + 1:
            raise ValueError(f"ev_offset must be {len(self.end) + 1} integers, one more than the rounds")
        if len(self.ev_side) != len(self.ev_raw) or (len(off) and (off[0] != 0 or off[-1] != len(self.ev_side))):
            raise ValueError("ev_offset must run from 0 to the number of events")
        if np.any(np.diff(off) < 0):
            raise ValueError("ev_offset must never decrease")

    def save(self, path: str) -> None:
        set_offset = self.set_offset if self.set_offset is not None else np.array([0, self.rounds], np.int32)
        np.savez_compressed(path, ev_offset=self.ev_offset, ev_side=self.ev_side, ev_raw=self.ev_raw,
                            end=self.end, set_offset=set_offset, meta=np.array(json.dumps(
                                {"players": self.players, "bot": self.bot, "seed": self.seed,
                                 "anchors": [list(a) for a in self.anchors]})))

    @classmethod
    def load(cls, path: str) -> "RoundSamples":
        """Read samples written by `save`; any other file is a one-line OptionError."""
        fault = _npz_fault(path)
        if fault is not None:
            raise OptionError(f"{path}: not a round-samples file (.npz from fiveup equity build): {fault}")
        try:
            # allow_pickle=False: a file that is not ours must not run code on load
            with np.load(path, allow_pickle=False) as z:
                meta = json.loads(str(z["meta"]))
                set_offset = z["set_offset"] if "set_offset" in z.files else None
                samples = cls(meta["players"], _current_bot_name(meta["bot"]), meta["seed"], z["ev_offset"], z["ev_side"], z["ev_raw"],
                              z["end"], set_offset, tuple(tuple(a) for a in meta.get("anchors", ())))
            samples._check_layout()
            return samples
        except OSError as e:
            raise OptionError(f"{path}: cannot read round samples ({e.strerror or _short(e)})") from None
        except (ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile) as e:
            raise OptionError(f"{path}: not a round-samples file (.npz from fiveup equity build): "
                              f"{type(e).__name__}: {' '.join(str(e).split())[:120]}") from None

    @classmethod
    def concat(cls, parts: list) -> "RoundSamples":
        if not parts:
            raise OptionError("no round samples to join")
        if any(p.set_offset is not None and len(p.set_offset) > 2 for p in parts):
            raise OptionError("only single-set round samples can be joined")
        offsets, base = [np.zeros(1, np.int32)], 0
        for p in parts:
            offsets.append(p.ev_offset[1:] + base)
            base += int(p.ev_offset[-1])
        return cls(parts[0].players, parts[0].bot, parts[0].seed, np.concatenate(offsets).astype(np.int32),
                   np.concatenate([p.ev_side for p in parts]).astype(np.int8),
                   np.concatenate([p.ev_raw for p in parts]).astype(np.int16),
                   np.concatenate([p.end for p in parts]).astype(np.int8))

    def zero_set(self) -> "RoundSamples":
        """Set 0 alone (the rounds played at 0 : 0): the model without near-target sets."""
        if self.set_offset is None or len(self.set_offset) <= 2:
            return self
        n = int(self.set_offset[1])
        e = int(self.ev_offset[n])
        return RoundSamples(self.players, self.bot, self.seed, self.ev_offset[:n + 1].copy(), self.ev_side[:e].copy(),
                            self.ev_raw[:e].copy(), self.end[:n].copy())

    def with_sets(self, sets: list, anchors) -> "RoundSamples":
        """These rounds as set 0 (the 0 : 0 set), then `sets` (single-set samples, one
        per anchor, in order) as sets 1, 2, ..."""
        joined = RoundSamples.concat([self] + list(sets))
        sizes = [self.rounds] + [p.rounds for p in sets]
        if any(n == 0 for n in sizes) or len(sets) != len(anchors):
            raise OptionError("every sample set needs rounds, and every near set its anchor")
        joined.set_offset = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int32)
        joined.anchors = tuple(tuple(int(x) for x in a) for a in anchors)
        return joined

    def resampled(self, rng) -> "RoundSamples":
        """A bootstrap copy: each set's rounds drawn again with replacement from that
        set (as many as it has), with `rng` (a numpy Generator)."""
        sets = self.set_offset if self.set_offset is not None else np.array([0, self.rounds], np.int32)
        picks = np.concatenate([rng.integers(int(a), int(b), int(b) - int(a))
                                for a, b in zip(sets[:-1], sets[1:])])
        off = np.asarray(self.ev_offset, dtype=np.int64)
        lengths = off[picks + 1] - off[picks]
        new_off = np.zeros(len(picks) + 1, dtype=np.int64)
        np.cumsum(lengths, out=new_off[1:])
        # every event of the picked rounds, in order: round i's events start at off[picks[i]]
        events = np.repeat(off[picks] - new_off[:-1], lengths) + np.arange(int(new_off[-1]))
        return RoundSamples(self.players, self.bot, self.seed, new_off.astype(np.int32),
                            np.asarray(self.ev_side)[events], np.asarray(self.ev_raw)[events],
                            np.asarray(self.end)[picks], None if self.set_offset is None else sets.copy(),
                            self.anchors)


# Bot names that samples saved before a rename carry, and the bot's name today. The
# shipped round samples (benchmarks/data/rounds_{2,3,4}p.npz) were played when
# `hint` named the hint search with uniform beliefs; `hint` now names the bot with
# the opponent model, and that first bot is `hint-uniform`. Their meta still says
# "hint" (the files are kept as they were built), so a table rebuilt from them would
# be labelled with the other bot's name (a review); read it by today's name instead.
_RENAMED_BOTS = {"hint": "hint-uniform"}


def _current_bot_name(name):
    """Today's name of the bot a samples file names (`_RENAMED_BOTS`)."""
    return _RENAMED_BOTS.get(name, name) if isinstance(name, str) else name


def near_anchors(players: int, near_from: int = NEAR_FROM, far_anchor: int = FAR_ANCHOR) -> list:
    """The anchor scores (raw per side, the starter's side first) of the near-target
    sets: every side near (`near_from` .. 300, each score) or far (at `far_anchor`),
    at least one side near."""
    options = list(range(near_from, TARGET_RAW, SCORE_STEP)) + [far_anchor]
    return [a for a in itertools.product(options, repeat=_sides(_check_players(players)))
            if any(x >= near_from for x in a)]


def state_sets(players: int, anchors, near_from: int = NEAR_FROM, far_anchor: int = FAR_ANCHOR):
    """int32 per state (score levels, the starter's side first): the sample set it
    uses; 0 (the 0 : 0 set) unless one of its sides is near and its anchor is listed."""
    sides = _sides(players)
    index = {tuple(a): j + 1 for j, a in enumerate(anchors)}
    raw = np.indices((SCORE_LEVELS,) * sides).reshape(sides, -1).T * SCORE_STEP
    out = np.zeros(len(raw), dtype=np.int32)
    if not index:
        return out
    near = raw >= near_from
    anchored = np.where(near, raw, far_anchor)
    for i in np.flatnonzero(near.any(axis=1)):
        out[i] = index.get(tuple(int(x) for x in anchored[i]), 0)
    return out


# ---------------------------------------------------------------- the tables
@dataclass
class EquityTable:
    """Win probabilities per score state and starter side.

    ``win`` has shape ``(61,) * sides + (sides, sides)``: score levels (raw / 5)
    of every side, the starter's side, then the probability that each side wins.
    """

    players: int
    win: "object"            # float64 array, see above
    rounds: int              # sampled rounds it was built from
    bot: str
    seed: int
    sweeps: int = 0
    stuck: int = 0           # states from which no sampled round ever leads on (valued 0)
    # the bootstrap's standard errors of `win` (see `with_bootstrap_errors`), shape
    # ``(61,) * sides + (sides + 1, sides)``: the starter's side, or drawn (the last), then
    # each side; None for a table built without them
    stderr: "object" = None
    bootstrap: int = 0       # bootstrap replicates behind `stderr` (0: none)

    def __post_init__(self):
        # an integer of any type (numpy's) is kept as its int (errors.as_int): these fields
        # are written to JSON and a table's file
        for name in ("players", "rounds", "seed", "sweeps", "stuck", "bootstrap"):
            setattr(self, name, as_int(getattr(self, name)))
        # the solver reads these values at its leaves (search_values): a table with values
        # that are no probabilities would give answers that mean nothing, not an error
        sides = _sides(_check_players(self.players))
        shape = (SCORE_LEVELS,) * sides + (sides, sides)
        win = self.win
        if not isinstance(win, np.ndarray) or win.dtype.kind != "f" or win.shape != shape:
            raise OptionError(f"an equity table's win must be a float array of shape {shape}, not "
                              f"{_short(getattr(win, 'shape', win))} {getattr(win, 'dtype', type(win).__name__)}")
        # (NaN fails: a minimum with NaN is NaN, and NaN compares false; the sides' sums
        # as column adds: numpy's sum over a short last axis is several times slower)
        cells = win.reshape(-1, sides)
        total = cells[:, 0].copy()
        for side in range(1, sides):
            total += cells[:, side]
        if not (win.min() >= 0.0 and win.max() <= 1.0 and total.max() <= 1.0 + 1e-6):
            raise OptionError("an equity table's win must hold probabilities (each 0..1, each state's sides "
                              "summing to at most 1)")
        if self.stderr is not None:
            err = self.stderr
            err_shape = (SCORE_LEVELS,) * sides + (sides + 1, sides)
            if not isinstance(err, np.ndarray) or err.dtype.kind != "f" or err.shape != err_shape:
                raise OptionError(f"an equity table's stderr must be a float array of shape {err_shape}, not "
                                  f"{_short(getattr(err, 'shape', err))} {getattr(err, 'dtype', type(err).__name__)}")
            # the spread of a probability is at most 1/2 (NaN fails as above)
            if not (err.min() >= 0.0 and err.max() <= 0.5):
                raise OptionError("an equity table's stderr must hold standard errors of probabilities (0..0.5)")
            if not is_int(self.bootstrap) or not 2 <= self.bootstrap <= 10_000:
                raise OptionError(f"an equity table's stderr needs its bootstrap replicates (2 to 10000), "
                                  f"not {_short(self.bootstrap)}")
        elif self.bootstrap != 0:
            raise OptionError(f"an equity table without stderr has no bootstrap replicates, not {_short(self.bootstrap)}")
        for name in ("rounds", "seed", "sweeps", "stuck"):
            v = getattr(self, name)
            if not is_int(v) or v < 0:
                raise OptionError(f"an equity table's {name} must be an integer >= 0, not {_short(v)}")
        if not isinstance(self.bot, str) or name_fault(self.bot) is not None:
            # (printed by fiveup equity: a name as printable as a seat's)
            raise OptionError(f"an equity table's bot must be a bot name, not {_short(self.bot)}")

    @property
    def sides(self) -> int:
        return _sides(self.players)

    def probabilities(self, scores, starter=None) -> list:
        """[P(side s wins)] from the start of a round at `scores` (raw) whose starter
        is seat `starter` (None: drawn, every seat alike)."""
        levels = _score_levels(self.players, scores)
        cell = self.win[tuple(levels)]
        starter = as_int(starter)
        if starter is None:
            return [float(x) for x in cell.mean(axis=0)]
        if not is_int(starter) or not 0 <= starter < self.players:
            raise OptionError(f"starter must be a seat 0..{self.players - 1} or None (drawn), not {_short(starter)}")
        return [float(x) for x in np.asarray(cell[_side_of_seat(self.players, starter)])]

    def standard_errors(self, scores, starter=None):
        """The standard errors of `probabilities(scores, starter)` from the table's own
        sampling (a bootstrap over its rounds: `with_bootstrap_errors`), or None for a
        table built without them, and None for scores below the table's floor of 0
        (4 players, D4): those are looked up as 0, and the floor cell's error (0.0 at a
        tied score with a drawn starter) says nothing about the scores asked. They do
        not include how far the bots' play is from the players' (docs/equity.md, the
        calibration)."""
        levels = _score_levels(self.players, scores)
        starter = as_int(starter)
        if starter is not None and (not is_int(starter) or not 0 <= starter < self.players):
            raise OptionError(f"starter must be a seat 0..{self.players - 1} or None (drawn), not {_short(starter)}")
        if self.stderr is None or _below_floor(scores):
            return None
        row = self.sides if starter is None else _side_of_seat(self.players, starter)
        return [float(x) for x in self.stderr[tuple(levels)][row]]

    def search_values(self):
        """The solver's int16 table: per state, starter (side, or drawn), side s:
        WIN x (P(s wins) - P(another side wins)), kept inside (-WIN, WIN).
        Computed once per table (read-only)."""
        cached = self.__dict__.get("_search_values")
        if cached is None:
            cached = self._search_values()
            cached.setflags(write=False)
            self.__dict__["_search_values"] = cached
        return cached

    def _search_values(self):
        sides = self.sides
        states = self.win.reshape(-1, sides, sides)
        # `flat` owns its memory (a reshape of it would be a view): once read-only it is
        # immutable, and a SolverCore reads it without a private copy and its check of every
        # value at each set_objective (SolverCore.set_objective)
        flat = np.empty(len(states) * (sides + 1) * sides, dtype=np.int16)
        out = flat.reshape(len(states), sides + 1, sides)
        # SEARCH_CHUNK states at a time: the same arithmetic for each state, without
        # float temporaries of the whole table (the 3-player one: 0.25 s and 80 MB -> 0.05 s)
        for first in range(0, len(states), SEARCH_CHUNK):
            w = states[first:first + SEARCH_CHUNK]
            drawn = w.mean(axis=1, keepdims=True)
            w = np.concatenate([w, drawn], axis=1)             # states x (sides + 1) x sides
            total = w.sum(axis=2, keepdims=True)
            v = np.rint(WIN_VALUE * (2 * w - total))
            out[first:first + SEARCH_CHUNK] = np.clip(v, -(WIN_VALUE - 1), WIN_VALUE - 1, out=v)
        return flat

    def save(self, path: str) -> None:
        """Only the starter-side-0 slice is stored (uint16): the others follow from it
        by relabelling the sides, exactly, since every sample is kept relative to
        its starter (see :func:`_with_all_starters`)."""
        q = np.rint(np.clip(self.win[..., 0, :], 0.0, 1.0) * 65535).astype(np.uint16)
        arrays = {"win_starter0": q}
        if self.stderr is not None:
            # the starter-0 slice follows the same relabelling as `win`; drawn does not
            # (a mean over starters: its spread is its own), so it is stored too
            for name, part in (("stderr_starter0", self.stderr[..., 0, :]), ("stderr_drawn", self.stderr[..., -1, :])):
                arrays[name] = np.rint(np.clip(part, 0.0, 0.5) * 65535).astype(np.uint16)
        np.savez_compressed(path, **arrays, meta=np.array(json.dumps(
            {"players": self.players, "rounds": self.rounds, "bot": self.bot, "seed": self.seed,
             "sweeps": self.sweeps, "stuck": self.stuck, "bootstrap": self.bootstrap})))

    @classmethod
    def load(cls, path: str) -> "EquityTable":
        """Read a table written by `save`; any other file is a one-line OptionError."""
        fault = _npz_fault(path)
        if fault is not None:
            raise OptionError(f"{path}: not an equity table: {fault}")
        try:
            # allow_pickle=False: a file that is not ours must not run code on load
            with np.load(path, allow_pickle=False) as z:
                meta = json.loads(str(z["meta"]))
                stored = z["win_starter0"]
                errors = [z[name] for name in ("stderr_starter0", "stderr_drawn") if name in z.files]
            for name, a in zip(("win_starter0", "stderr_starter0", "stderr_drawn"), [stored] + errors):
                if a.dtype != np.uint16:
                    raise ValueError(f"{name} of type {a.dtype}, not uint16")
            win0 = stored.astype(np.float64) / 65535.0
            # rounding each side to 1/65535 can push a state's sum just above 1: scale it back
            total = win0.sum(axis=-1, keepdims=True)
            win0 = win0 / np.maximum(total, 1.0)
            if not isinstance(meta, dict):
                raise ValueError("its meta is not a JSON object")
            players = meta["players"]
            sides = _sides(_check_players(players))
            if win0.shape != (SCORE_LEVELS,) * sides + (sides,):
                raise ValueError(f"a table of shape {win0.shape}")
            stderr = None
            if errors:
                if len(errors) != 2 or any(a.shape != win0.shape for a in errors):
                    raise ValueError("stderr_starter0 and stderr_drawn must both be there, each of the table's shape")
                err0, err_drawn = (a.astype(np.float64) / 65535.0 for a in errors)
                stderr = np.concatenate([_with_all_starters(err0), err_drawn[..., None, :]], axis=-2)
            return cls(players, _with_all_starters(win0), meta["rounds"], meta["bot"], meta["seed"],
                       meta.get("sweeps", 0), meta.get("stuck", 0), stderr, meta.get("bootstrap", 0))
        except OSError as e:
            raise OptionError(f"{path}: cannot read an equity table ({e.strerror or _short(e)})") from None
        except (KeyError, ValueError, TypeError, EOFError, zipfile.BadZipFile) as e:
            # (an OptionError of the checks above is a ValueError: named with the file too)
            raise OptionError(f"{path}: not an equity table ({type(e).__name__}: "
                              f"{' '.join(str(e).split())[:120]})") from None


def _with_all_starters(win0):
    """The full table from its starter-side-0 slice: with side t starting, relabel
    side s as s - t (the starter becomes side 0), read the slice, relabel back.

    W(a, t)[w] = W(b, 0)[(w - t) mod n] with b[s] = a[(s + t) mod n].
    """
    sides = win0.shape[-1]
    out = np.empty(win0.shape[:-1] + (sides, sides), dtype=win0.dtype)
    for t in range(sides):
        # b[s] = a[(s + t) % n]: axis s of the slice is axis (s + t) % n of the result
        axes = [0] * sides
        for s_ in range(sides):
            axes[(s_ + t) % sides] = s_
        moved = np.transpose(win0, axes + [sides])
        out[..., t, :] = moved[..., [(w - t) % sides for w in range(sides)]]
    return out


def _side_of_seat(players: int, seat: int) -> int:
    return seat % 2 if players == 4 else seat


def _score_levels(players: int, scores) -> list:
    sides = _sides(players)
    # a list, a tuple or a numpy array (not a dict: its keys are no scores), integers of
    # any type (numpy's too); the range is Game(scores=)'s (notation.score_floor)
    values = int_list(scores)
    if values is None or len(values) != sides:
        raise OptionError(f"scores must list {sides} raw scores (one per side), not {_short(scores)}")
    low, levels = score_floor(players), []
    for s, x in enumerate(values):
        if not is_int(x):
            raise OptionError(f"side {s}'s score must be an integer from {low} to {TARGET_RAW - 1} with "
                              f"{players} players, not {_short(x)}{type_note(x)}")
        if x < 0 and players != NEGATIVE_SCORE_PLAYERS:
            raise OptionError(f"side {s}'s score {x} is below 0, which occurs only with 4 players (a partner's "
                              f"pips, D4): with {players} scores are from 0 to {TARGET_RAW - 1}")
        if not low <= x < TARGET_RAW:
            raise OptionError(f"side {s}'s score must be from {low} to {TARGET_RAW - 1} with {players} players, "
                              f"not {x}")
        if x % SCORE_STEP:
            raise OptionError(f"side {s}'s score {x} is not a multiple of {SCORE_STEP}")
        levels.append(max(0, x // SCORE_STEP))     # below 0 (D4, 4 players only): read as 0
    return levels


def _below_floor(scores) -> bool:
    """Whether a side's score (checked by `_score_levels`) is below the tables' floor of 0."""
    return any(x < 0 for x in int_list(scores))


def build_table(samples: RoundSamples, *, tol: float = 1e-10, max_sweeps: int = 2000) -> EquityTable:
    """The fixed point of the exact-target replay of `samples` (see the module text)."""
    sides = _sides(samples.players)
    if samples.rounds == 0:
        raise OptionError("no round samples to build from")
    raws = np.asarray(samples.ev_raw, dtype=np.int64)
    if np.any(raws % SCORE_STEP):
        raise OptionError("round samples hold an event that is not a multiple of 5")
    grid = np.indices((SCORE_LEVELS,) * sides).reshape(sides, -1)
    order = np.argsort(-grid.sum(axis=0), kind="stable").astype(np.int32)
    win = np.zeros(SCORE_LEVELS ** sides * sides * sides, dtype=np.float64)
    # with no negative event a round never lowers a score: every successor of a state
    # has a larger level sum (or is the state itself, solved in its block), so one
    # sweep from the highest sum down is exact
    monotone = not np.any(raws < 0)
    set_offset = set_of = None
    if samples.set_offset is not None and len(samples.set_offset) > 2:
        set_offset = np.ascontiguousarray(samples.set_offset, dtype=np.int32)
        set_of = state_sets(samples.players, samples.anchors)
    sweeps, change, stuck = _equity.solve_equity(
        sides, order, np.ascontiguousarray(samples.ev_offset, dtype=np.int32),
        np.ascontiguousarray(samples.ev_side, dtype=np.int8), (raws // SCORE_STEP).astype(np.int16),
        np.ascontiguousarray(samples.end, dtype=np.int8), win, tol, 1 if monotone else max_sweeps,
        set_offset, set_of)
    if not monotone and change > tol:
        raise OptionError(f"the equity fixed point did not converge in {sweeps} sweeps (last change {change:.2e})")
    # a sure win summed from its rounds' shares, or solved from a loop, can come out a
    # rounding step above 1 (1.0000000000000007), which is no probability
    np.clip(win, 0.0, 1.0, out=win)
    return EquityTable(samples.players, win.reshape((SCORE_LEVELS,) * sides + (sides, sides)),
                       samples.rounds, samples.bot, samples.seed, sweeps, stuck)


BOOTSTRAP_STREAM = 0xB0075   # the bootstrap's random stream, beside the samples' seed
DEFAULT_BOOTSTRAP = {2: 100, 3: 16, 4: 100}   # `equity build`'s replicates (a 3-player build is ~100 x slower)


def with_bootstrap_errors(table: EquityTable, samples: RoundSamples, replicates: int, *,
                          progress=None) -> EquityTable:
    """`table` (built from `samples`) with the standard errors of its probabilities: the
    spread of the tables built from `replicates` bootstrap copies of the samples (each
    sample set's rounds drawn again with replacement), seeded by the samples' seed.
    `progress` (if given) is called with 1 after each replicate."""
    replicates = as_int(replicates)
    if not is_int(replicates) or not 2 <= replicates <= 10_000:
        raise OptionError(f"bootstrap replicates must be 2..10000, not {_short(replicates)}")
    rng = np.random.default_rng([samples.seed, BOOTSTRAP_STREAM])
    mean = m2 = None
    for k in range(1, replicates + 1):
        win = build_table(samples.resampled(rng)).win
        x = np.concatenate([win, win.mean(axis=-2, keepdims=True)], axis=-2)   # the starters, then drawn
        if mean is None:
            mean, m2 = x, np.zeros_like(x)
        else:
            # Welford's update: one pass, no table kept per replicate
            delta = x - mean
            mean += delta / k
            m2 += delta * (x - mean)
        if progress is not None:
            progress(1)
    stderr = np.minimum(np.sqrt(m2 / (replicates - 1)), 0.5)
    return dataclasses.replace(table, stderr=stderr, bootstrap=replicates)


def table_path(players: int) -> str:
    """The shipped table's file (in the package)."""
    return os.path.join(DATA_DIR, f"equity_{players}p.npz")


def samples_path(players: int) -> str:
    """The round samples the shipped table was built from. They are not package data:
    they sit in a source checkout's ``benchmarks/data/`` (this path may not exist)."""
    return os.path.join(SAMPLES_DIR, f"rounds_{players}p.npz")


def cache_dir() -> str:
    """Where ``fiveup equity build`` writes unless told: ``$FIVEUP_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/fiveup_solver``, else ``~/.cache/fiveup_solver``. Never the package."""
    env = os.environ.get("FIVEUP_CACHE_DIR")
    if env:
        return env
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "fiveup_solver")


@lru_cache(maxsize=None)
def load_table(players: int) -> EquityTable:
    """The shipped table for `players` (built by ``fiveup equity build``)."""
    _check_players(players)
    path = table_path(players)
    if not os.path.exists(path):
        raise OptionError(f"no equity table for {players} players in the package "
                          f"(build one: fiveup equity build --players {players})")
    return load_table_file(path)


def load_table_file(path: str) -> EquityTable:
    return EquityTable.load(path)


# players whose solver form ships beside the table (`search_table_path`): read in about
# 0.1 ms instead of decompressing and converting the table (tens of ms) in every process
# that searches for the win. The 3-player form (5.4 MB) is computed when first needed
# (about 0.05 s after the table's load, 0.04 s).
SHIPPED_SEARCH_FORMS = (2, 4)


def search_table_path(players: int) -> str:
    """The shipped table's solver form (int16 .npy, `EquityTable.search_values`)."""
    return os.path.join(DATA_DIR, f"equity_{players}p_search.npy")


def save_search_values(table: "EquityTable", path: str) -> None:
    """Write a table's solver form as .npy (what `search_values` reads for the shipped
    tables; re-write it whenever a shipped table is replaced: tests/test_equity.py checks)."""
    np.save(path, table.search_values(), allow_pickle=False)


@lru_cache(maxsize=None)
def search_values(players: int):
    """The shipped table in the solver's int16 form (cached: every search shares it).
    Read from its shipped .npy where there is one, else computed from the table."""
    _check_players(players)
    path = search_table_path(players)
    if players in SHIPPED_SEARCH_FORMS and os.path.exists(path):
        sides = _sides(players)
        need = SCORE_LEVELS ** sides * (sides + 1) * sides
        try:
            values = np.load(path, allow_pickle=False)
        except (OSError, ValueError) as e:
            raise OptionError(f"{path}: not a solver equity table ({e})"[:200]) from None
        if values.dtype != np.int16 or values.shape != (need,):
            raise OptionError(f"{path}: not a solver equity table for {players} players "
                              f"({values.dtype}, shape {values.shape})")
        # np.array: memory of its own (np.load's array is a view of what it read), so
        # that read-only it is immutable and SolverCores read it without a copy
        values = np.array(values)
        values.setflags(write=False)
        return values
    return load_table(players).search_values()


def win_probabilities(players: int, scores, starter=None) -> list:
    """P(each side wins the game) from the start of a round at raw `scores` with
    seat `starter` to open (None: the starter is drawn, as after a block)."""
    return load_table(_check_players(players)).probabilities(scores, starter)


def equity_of_scores(players: int, scores, starter=None, side: int = 0) -> float:
    """P(side wins) for one side: ``win_probabilities(...)[side]``."""
    win = win_probabilities(players, scores, starter)
    side = as_int(side)
    if not is_int(side) or not 0 <= side < len(win):
        raise OptionError(f"side must be a side 0..{len(win) - 1}, not {_short(side)}")
    return win[side]


def equity_result(players, scores_text, starter_text=None, table_file=None) -> dict:
    """``fiveup equity --json``'s object: P(win) of each side from a round's start at the raw
    scores ``"A,B[,C]"``, the starter a seat number (text) or ``None``/``"drawn"``; from the
    shipped table, or from ``table_file`` (one ``fiveup equity build`` wrote)."""
    check_players(players, "--players")
    if scores_text is None:
        raise OptionError("--scores A,B[,C] is required (or: fiveup equity build)")
    for name, text in (("--scores", scores_text), ("--starter", starter_text)):
        if text is not None and (not isinstance(text, str) or not text.isascii()):
            raise OptionError(f"{name} is text of ASCII digits, not {_short(text)}")
    # digits, a minus sign for a 4-player side's score below 0; not int()'s "+5" or "0_0";
    # spaces around the commas as --bots takes them ("250, 280")
    scores_text = ",".join(x.strip(" ") for x in scores_text.split(","))
    too_long = [x for x in scores_text.split(",") if len(x.lstrip("-")) > 12]
    if too_long and re.fullmatch(r"-?[0-9]+(,-?[0-9]+)*", scores_text):
        # (a review: 99999999999999 was told "must be raw scores separated by commas")
        long, low = too_long[0], score_floor(players)
        raise OptionError(f"--scores: {long[:20]}{'...' if len(long) > 20 else ''} is out of range: a raw "
                          f"score is from {low} to {TARGET_RAW - 1} with {players} players")
    if not re.fullmatch(r"-?[0-9]{1,12}(,-?[0-9]{1,12})*", scores_text):
        raise OptionError(f"--scores must be raw scores separated by commas, not {scores_text!r}"[:120])
    scores = [int(x) for x in scores_text.split(",")]
    starter = None if starter_text in (None, "drawn") else _int_text("--starter", starter_text,
                                                                      "a seat number or 'drawn'")
    if starter is not None and not 0 <= starter < players:
        # (the API's message says None for a drawn starter: here it is the word 'drawn')
        raise OptionError(f"--starter must be a seat 0..{players - 1} or 'drawn', not {starter}")
    if table_file is None:
        table = load_table(players)
    else:
        if not isinstance(table_file, str):
            raise OptionError(f"--table must be a file name, not {_short(table_file)}")
        table = load_table_file(table_file)
        if table.players != players:
            raise OptionError(f"--table {table_file} is a {table.players}-player table, not {players}")
    win = table.probabilities(scores, starter)
    # None below the floor too (standard_errors): the floor cell's error is no error of
    # the scores asked; "below_floor" says that is why
    stderr = table.standard_errors(scores, starter)
    unfinished = max(0.0, 1.0 - sum(win))
    return {"players": players, "scores": scores, "starter": starter,
            # the scores the table was read at: below 0 (4 players, D4) as 0, where it starts
            "looked_up_as": [max(0, x) for x in scores],
            "below_floor": _below_floor(scores),
            "win": [round(p, 6) for p in win],
            "stderr": None if stderr is None else [round(e, 6) for e in stderr],
            # 1 - the sides' sum: states from which no sampled round ends the game
            # (stuck, valued 0), plus the table's rounding; the model has no D6 cap
            "unfinished": round(unfinished, 6),
            "rounds_sampled": table.rounds, "bootstrap": table.bootstrap, "bot": table.bot}


def _npz_fault(path):
    """Why `path` cannot be a .npz file written by this package, or None: np.load reads a file
    that is not a zip archive as a single array, and its message about pickled data (cut at
    120 characters) was all a text file given as a table got."""
    try:
        with open(path, "rb") as f:
            head = f.read(4)
    except OSError:
        return None                             # (the load says why, in its own words)
    return None if head == b"PK\x03\x04" else "not a .npz file (a zip archive of arrays)"


def _int_text(name, text, what: str = "an integer") -> int:
    if not re.fullmatch(r"[0-9]{1,12}", text):     # (int() takes "+1" and "1_0" too)
        raise OptionError(f"{name} must be {what}, not {text!r}"[:120])
    return int(text)


def __getattr__(name):
    """The self-play that builds the tables moved to :mod:`fiveup_solver.equity_build` (above
    the bots in the layers); its names still import from here (the import-linter contract
    lists this import)."""
    if name in _MOVED_TO_BUILD:
        from fiveup_solver import equity_build
        return getattr(equity_build, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_MOVED_TO_BUILD = ("round_seed", "play_sample_round", "collect_rounds", "collect_samples")
