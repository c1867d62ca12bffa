"""Post-game analysis: every decision judged, luck measured, a summary per seat.

``analyze(record, seats=None, budget=AnalysisBudget(), seed=0) -> Analysis``

For each analysed seat and each of its actions:

* **Hidden-information judgement** (only what the seat knew then, as a hint
  sees it): every legal move's win probability and expected points, searched
  in the same sampled worlds (``budget.samples``, more than a live hint); the
  played move's loss against the best in win-% points and raw points, with
  the paired standard error; a mark by the loss in win-% points
  (:data:`MARKS`), given only when the loss is at least twice its standard
  error (a loss within its own noise is not marked). Forced actions (one
  legal move, draws, passes) are listed, not judged.
* **Adaptive search judge** (sequential sampling): the worlds are searched in
  stages, ``budget.first_stage`` (``min_samples``, default 24), then twice as
  many, and so on up to ``budget.samples``; each stage's worlds are the next
  ones of the fixed judge's plan (the same worlds in the same order, so a
  stopped judgement is the fixed one's over a prefix of its worlds, and one
  that runs every stage is exactly the fixed one). After a stage the judge
  stops when (:func:`judgement_settled`, margin ``SETTLE_SIGMAS`` = 3
  standard errors s of the worlds so far) either no other move could still
  become the best (each one's loss to the stage's best is at least 3 of its
  standard errors) and the played move's loss L +- 3 s crosses no mark
  threshold and is unmarked, or the played move stays clearly under the
  first mark against every move that could still become the best. A
  decision marked for sure (L - 3 s >= 5) runs every stage: stopped, its
  loss read high (optional stopping). Why it is safe: the full run's loss differs
  from L with a standard deviation of about s*sqrt(1 - k/n) (0.87 s at 24 of
  96 worlds), so a 3 s margin is about 3.5 of them, and the full run's
  standard error is smaller than s. What it costs: a stopped decision
  (unmarked) reports the loss and the standard error of the worlds actually
  searched (``Decision.worlds``), larger than the full budget's; the best move may be
  another near-equal one when the played move is clearly unmarked.
  ``min_samples == samples`` is the fixed judge, value for value; alphamu
  searches its worlds together and is always fixed (docs/analysis.md).
* **Double-dummy judgement** (full records only): the solver's best moves and
  the played move's loss with every hand and the boneyard order known, so a
  player can tell a bad decision from bad luck. A solve that passes
  ``budget.dd_nodes`` gives no DD judgement (``dd_best`` None) rather than a
  guess.
* **Luck** (gnubg style, in win-% points for the seat's side): at each deal,
  the seat's win probability once it has seen its hand (its position value)
  minus the same judge's value before the deal (``Hinter.deal_value``: its
  mean over random deals at the round's scores, and over the starter when it
  was drawn), so that deal luck averages zero; at each of its draw sequences,
  its position value after the draws minus before. Each event has the
  standard error of its two sampled values, and each seat's totals theirs
  (:func:`_luck_stderr`: an estimate used twice counts once; estimates of
  different seats at one moment share random numbers and add in absolute value).
* **Per seat**: decisions judged, total and mean loss, error rate (share of
  judged decisions with a mark), marks per kind, accuracy, luck, result and
  luck-adjusted result.

Accuracy is lichess's per-move formula on the win-% loss L,
``103.1668 * exp(-0.04354 * L) - 3.1669`` clipped to 0..100, averaged over
the judged decisions. Marks: lichess's 5 / 10 / 15 win-% points (see docs/analysis.md
for the distribution of losses that supports keeping them).
"""
from __future__ import annotations

import hashlib
import io
import json
import math
import os
import re
import sys
import time
from dataclasses import asdict, dataclass, field, replace
from html import escape
from pathlib import Path
from string import Template
from typing import Callable, NamedTuple

from tqdm import tqdm

from fiveup_solver import _core
from fiveup_solver.beliefs import check_beliefs
from fiveup_solver.errors import OptionError, as_int, bound_text, check_seed, is_int, is_number, short_repr as _short
from fiveup_solver.game import action_to_move
from fiveup_solver.hint import METHODS, Hinter, SearchBudget
from fiveup_solver.inference import past_evidence
from fiveup_solver.notation import Move, format_move, format_number, format_seat, same_as_earlier, terminal_width
from fiveup_solver.record import check_record, game_from_record, positions
from fiveup_solver.rollout import check_rollout_options, parse_candidates, rollout
from fiveup_solver.solver import MAX_THREADS, Solver, WIN_VALUE, check_search
from fiveup_solver.svg import DEFAULT_BOUNDS, NARROW_BOUNDS, arrow_groups, board_svg

__all__ = ["AnalysisBudget", "Analysis", "Decision", "SeatSummary", "LuckEvent", "analyze", "judge_decision", "MARKS",
           "JUDGES", "accuracy", "judgement_settled", "mark_of", "format_text", "to_html", "plot_win_probability"]

# a marked decision's board: the move played and the best one (red and blue: told apart by a
# colour-blind eye too; red and green read as one olive to a deuteranope, a review)
PLAYED_COLOUR, BEST_COLOUR = "#cc0000", "#1864ab"
MARKS = (("blunder", 15.0), ("mistake", 10.0), ("inaccuracy", 5.0))   # win-% points lost, largest first
MARK_SIGMAS = 2.0     # a loss is marked only when it is at least this many standard errors
# The adaptive search judge (module text): the first stage's worlds when AnalysisBudget.min_samples is
# None, and the margin, in standard errors of the worlds searched so far, by which a stage's judgement
# must clear every mark threshold and its best move every other move before the judge stops there.
MIN_SAMPLES = 24
SETTLE_SIGMAS = 3.0
JUDGES = ("search", "rollout")   # how a decision's moves are valued (the first is the default)
# 3 players: the search judge's default search. Max^n (each side plays for itself) judged
# planted errors closer to their playout loss than paranoid (the other two gang up):
# mean distance 7.7 against 21.5 win-% points on 10 refused exact 305s
# (docs/analysis_judges.md, benchmarks/planted_judges.py). The bots keep the solver's default.
ANALYSIS_SEARCH = "maxn"
_STAGED_METHODS = ("pimc", "expectimax")   # one world at a time: a stage can stop anywhere (alphamu: all at once)


def accuracy(loss_win: float) -> float:
    """lichess's accuracy of one move from its win-% loss.

    >>> accuracy(0.0) > 99.99, round(accuracy(10.0), 1), accuracy(100.0)
    (True, 63.6, 0.0)
    """
    if not is_number(loss_win):
        raise OptionError(f"loss_win must be a finite number of win-% points, not {_short(loss_win)}")
    a = 103.1668 * math.exp(-0.04354 * max(0.0, loss_win)) - 3.1669
    return max(0.0, min(100.0, a))


def shown(x: float) -> float:
    """A loss or standard error (win-% points) as the reports show it: one decimal (of
    the value stored, to 3 decimals, in the Decision)."""
    return float(format(round(x, 3), SHOWN_FMT))


SHOWN_FMT = ".1f"     # how the reports show a win-% loss and its standard error


def mark_of(loss_win: float, stderr_win: float) -> str | None:
    """The mark of a loss (win-% points) and its standard error, decided on the two
    numbers as the reports show them (:func:`shown`), so the number read and its
    mark always agree by the reports' rule.

    >>> mark_of(16.0, 2.0), mark_of(7.0, 1.0), mark_of(7.0, 4.0), mark_of(2.0, 0.1)
    ('blunder', 'inaccuracy', None, None)
    >>> mark_of(4.973, 1.783), mark_of(10.04, 5.03), mark_of(4.949, 1.0)   # shown 5.0 +- 1.8, 10.0 +- 5.0, 4.9
    ('inaccuracy', 'mistake', None)
    """
    loss_win, stderr_win = shown(loss_win), shown(stderr_win)
    if loss_win < MARK_SIGMAS * stderr_win:
        return None
    for name, threshold in MARKS:
        if loss_win >= threshold:
            return name
    return None


@dataclass(frozen=True)
class AnalysisBudget:
    """How hard the analysis looks (defaults: about twice a live hint per decision)."""

    samples: int = 96             # sampled worlds per decision (a live hint: 48)
    # the search judge's first stage (the adaptive judge, module text): worlds searched before it may
    # stop (then 2x, 4x, ... up to samples); None: min(MIN_SAMPLES, samples); samples: every decision
    # searches all samples worlds (the fixed judge)
    min_samples: int | None = None
    method: str = "pimc"          # the search judge's method (fiveup_solver.hint.METHODS: pimc, expectimax, alphamu)
    world_nodes: int = 20_000     # search nodes per world
    luck_samples: int = 48        # worlds per position value, and deals per deal value (the luck of deals and draws)
    dd_nodes: int = 2_000_000     # node limit of each double-dummy solve (0: none)
    threads: int = 2
    beliefs: str | None = None    # how the hidden worlds are weighted (fiveup_solver.beliefs; None: the default)
    search: str | None = None     # 3 players: "paranoid" or "maxn" (fiveup_solver.solver.SEARCHES; None: ANALYSIS_SEARCH)
    # the judge: "search" (PIMC over sampled worlds, above) or "rollout" (fiveup_solver.rollout:
    # whole-game playouts with `rollout_bot` in every seat, `rollouts` paired worlds per candidate)
    judge: str = "search"
    rollouts: int = 32            # rollout judge: playouts per candidate (the same worlds for every candidate)
    rollout_bot: str = "hint"     # rollout judge: the bot of every seat (a name of fiveup_solver.bots)
    candidates: str = "all"       # rollout judge: "all" legal moves, or "top:K" (the played move and the search's K best)
    workers: int = 1              # rollout judge: worker processes for the playouts (same results for any number)
    rollout_horizon: str = "game"  # rollout judge: playouts to the game's end, or to the round's end valued by
                                   # the race-equity table ("round": far cheaper; fiveup_solver.rollout)

    def __post_init__(self):
        # an integer of any type (numpy's) is kept as its int (errors.as_int), as by SearchBudget
        for name in ("samples", "min_samples", "world_nodes", "luck_samples", "dd_nodes", "threads", "rollouts",
                     "workers"):
            object.__setattr__(self, name, as_int(getattr(self, name)))

    def check(self) -> "AnalysisBudget":
        if not isinstance(self.method, str) or self.method not in METHODS:
            raise OptionError(f"analysis budget: method must be one of {', '.join(METHODS)}, not {_short(self.method)}")
        check_beliefs(self.beliefs)
        check_search(self.search)
        if not isinstance(self.judge, str) or self.judge not in JUDGES:
            raise OptionError(f"judge must be one of {', '.join(JUDGES)}, not {_short(self.judge)}")
        check_rollout_options(self.rollouts, self.rollout_bot, self.workers, self.candidates, self.rollout_horizon)
        for name, low, high in (("samples", 2, 100_000), ("world_nodes", 1, 2 ** 40), ("luck_samples", 1, 100_000),
                                ("dd_nodes", 0, 2 ** 62), ("threads", 1, MAX_THREADS)):
            v = getattr(self, name)
            if not is_int(v) or not low <= v <= high:
                raise OptionError(f"analysis budget: {name} must be an integer from {low} to {bound_text(high)}, "
                                  f"not {_short(v)}")
        if self.min_samples is not None and (not is_int(self.min_samples)
                                             or not 2 <= self.min_samples <= self.samples):
            raise OptionError(f"analysis budget: min_samples must be an integer from 2 to samples ({self.samples}), "
                              f"not {_short(self.min_samples)}")
        return self

    @property
    def first_stage(self) -> int:
        """The worlds of the search judge's first stage (min_samples, or its default)."""
        return min(MIN_SAMPLES, self.samples) if self.min_samples is None else self.min_samples

    @property
    def stages(self) -> tuple | None:
        """The adaptive search judge's world counts (first_stage, doubling, ending at
        samples), or None for the fixed judge (a first stage of every world, or a method
        that searches its worlds together: alphamu)."""
        if self.first_stage >= self.samples or self.method not in _STAGED_METHODS:
            return None
        out = [self.first_stage]
        while 2 * out[-1] < self.samples:
            out.append(2 * out[-1])
        return (*out, self.samples)

    def check_players(self, players: int) -> None:
        """Refuse a search judge whose method does not search `players` players (alphamu: 2)."""
        if self.judge == "search" and players not in METHODS[self.method].players:
            raise OptionError(f"analysis method {self.method} judges "
                              f"{' or '.join(map(str, METHODS[self.method].players))}-player games, "
                              f"not {players}-player ones")

    @property
    def search_of_three(self) -> str:
        """How 3-player positions are searched: ``search``, or ANALYSIS_SEARCH when None."""
        return check_search(self.search or ANALYSIS_SEARCH)

    def search_budget(self) -> SearchBudget:
        """The hint budget the search judge gives each decision (the win objective)."""
        return SearchBudget(method=self.method, samples=self.samples, world_nodes=self.world_nodes, objective="win",
                            beliefs=self.beliefs, search=self.search_of_three)

    def luck_budget(self) -> SearchBudget:
        """The budget of each position value behind the luck of deals and draws (PIMC
        whatever the judge's method: the luck and the win graph do not depend on it)."""
        return replace(self.search_budget(), method="pimc", samples=self.luck_samples)


@dataclass
class Decision:
    """One action of an analysed seat, judged unless forced."""

    round: int
    action: int
    seat: int
    played: str
    forced: bool
    best: str | None = None
    loss_win: float | None = None        # win-% points
    stderr_win: float | None = None      # paired standard error, win-% points
    loss_points: float | None = None     # raw points
    stderr_points: float | None = None
    mark: str | None = None
    win: float | None = None             # the seat's side's win probability with best play here
    win_stderr: float | None = None      # its standard error (probability, as win)
    moves: list = field(default_factory=list)   # [{"move", "win", "points"}] best first
    dd_best: list | None = None          # double-dummy best moves (None: not solved)
    dd_loss_win: float | None = None
    dd_loss_points: float | None = None
    playouts: int | None = None          # rollout judge: playouts behind this judgement
    search: dict | None = None           # rollout judge with top:K candidates: the search judge's best, loss, worlds
    worlds: int | None = None            # search judge: the worlds searched for this judgement (adaptive: <= samples)

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class LuckEvent:
    round: int
    action: int                          # the first action after the chance event
    seat: int
    kind: str                            # "deal" or "draw"
    before: float                        # win probability (side of the seat) before
    after: float
    luck: float                          # (after - before), win-% points
    # standard error of luck, win-% points: of the sampled values before and after (a position
    # value's worlds, a deal value's deals); 0 where both are exact (a game's result)
    stderr: float = 0.0

    def to_dict(self) -> dict:
        return asdict(self)


class _Estimate(NamedTuple):
    """A value behind luck: a sampled position or deal value (its standard error, and
    a key naming the estimate: one key, one estimate, however many events use it), or
    an exact one (key None: a game's result, an equal share)."""

    value: float
    stderr: float = 0.0
    key: tuple | None = None


def _luck_event(r: int, i: int, seat: int, kind: str, before: _Estimate, after: _Estimate, terms: list) -> LuckEvent:
    """The LuckEvent from `before` to `after`; appends its estimates to `terms` (what
    the totals' standard errors are made of, :func:`_luck_stderr`)."""
    terms.append(((before.key, before.stderr, -1.0), (after.key, after.stderr, 1.0)))
    return LuckEvent(r, i, seat, kind, before.value, after.value, 100 * (after.value - before.value),
                     round(_luck_stderr([(1.0, terms[-1])]), 3))


def _luck_stderr(weighted) -> float:
    """The standard error (win-% points) of a weighted sum of luck events, from
    ``[(weight, event terms)]`` (each event's terms: (key, stderr, sign) of its value
    before, sign -1, and after, +1).

    One estimate used by two events counts once, with its weights added: the value
    before a deal is also the end value of the draws that blocked the round before
    it, so it cancels from a seat's own total. Estimates of different seats at one
    moment share their random numbers (a round's deal values deal the same games for
    every seat; position values of one action use one seed), so their errors may be
    correlated, with either sign: they add in absolute value (the largest the sum's
    error can be), and only estimates of different moments are taken as independent.

    >>> d = ("deal", 1, 0)           # a deal value, used by a blocked round's draws and the next deal
    >>> draws = ((("position", 0, 5, 0), 0.02, -1.0), (d, 0.03, 1.0))
    >>> deal = ((d, 0.03, -1.0), (("position", 1, 0, 0), 0.04, 1.0))
    >>> round(_luck_stderr([(1.0, draws), (1.0, deal)]), 3)       # sqrt(2^2 + 4^2): the deal value cancels
    4.472
    >>> other = (((("deal", 1, 1), 0.03, -1.0), (("position", 1, 0, 1), 0.04, 1.0)))
    >>> round(_luck_stderr([(1.0, deal), (-1.0, other)]), 3)      # sqrt((3 + 3)^2 + (4 + 4)^2)
    10.0
    """
    weights = {}                        # estimate key -> [summed weight, its standard error]
    for w, terms in weighted:
        for key, se, sign in terms:
            if key is not None and se:
                weights.setdefault(key, [0.0, se])[0] += w * sign
    moments = {}                        # one moment's estimates (every seat's): their errors add
    for key, (w, se) in weights.items():
        moments[key[:-1]] = moments.get(key[:-1], 0.0) + abs(w) * se
    return 100 * math.sqrt(sum(v * v for v in moments.values()))


@dataclass
class SeatSummary:
    seat: int
    side: int
    decisions: int = 0                   # judged decisions
    forced: int = 0
    loss_win: float = 0.0                # total, win-% points
    loss_win_mean: float | None = None   # None with no judged decision (as accuracy and error_rate)
    loss_points: float = 0.0
    loss_points_mean: float | None = None
    error_rate: float | None = None
    marks: dict = field(default_factory=lambda: {"inaccuracy": 0, "mistake": 0, "blunder": 0})
    accuracy: float | None = None
    luck_win: float = 0.0                # own chance events, win-% points
    luck_win_net: float | None = None    # own side's minus the other sides' (mean), win-% points;
                                         # None in a view (the other seats' luck is not known there)
    result: float | None = None          # 100 won, 0 lost, None unfinished
    luck_adjusted: float | None = None   # result - net luck
    # standard errors of the three luck figures (win-% points; _luck_stderr: the sampled
    # position and deal values behind them; budget.luck_samples more of each makes them smaller)
    luck_win_stderr: float = 0.0
    luck_win_net_stderr: float | None = None
    luck_adjusted_stderr: float | None = None
    name: str | None = None              # the record's name of the seat (its "seats"), if it has names

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Column:
    """One column of the analysis tables: ``key`` is where the value is in the JSON
    (:meth:`SeatSummary.to_dict`, :meth:`Decision.to_dict`; ``a.b`` a nested key), and
    the text table, the HTML table and the JSON all read it from there."""

    key: str          # JSON key ("marks.blunder": key blunder of marks)
    text: str         # text table header ("" : not in the text table)
    html: str         # HTML table header
    fmt: str = ""     # format spec of the value; None shows as "-"
    width: int = 0    # text table width (right-aligned)
    html_cell: Callable | None = None   # (row) -> HTML of the cell, when it is more than the escaped value
    # which text table shows it (the seats' text summary is two tables, each within 80 columns
    # with a short name: the play, then the luck); None: both (the seat and its name)
    text_table: int | None = 0
    err: str | None = None       # the key of the value's standard error, shown after it: "+41.9 +- 11.6"
    err_fmt: str = ".1f"         # its format spec

    def value(self, row: dict, key: str | None = None):
        for part in (key or self.key).split("."):
            row = row[part]
        return row

    def cell(self, row: dict, plus_minus: str = "+-") -> str:
        v = self.value(row)
        if v is None:
            return "-"
        text = format_number(v, self.fmt)
        if self.err is not None and self.value(row, self.err) is not None:
            text += f" {plus_minus} {format_number(self.value(row, self.err), self.err_fmt)}"
        return text

    def html_of(self, row: dict) -> str:
        if self.html_cell is not None:
            return self.html_cell(row)
        return escape(self.cell(row, "\u00b1"))


# The per-seat summary: the text table (format_text), the HTML report (to_html) and the JSON
# (Analysis.to_dict "seats") read these; a new column is one row here (and its SeatSummary field).
SEAT_COLUMNS = (
    Column("seat", "seat", "seat", "", 4, text_table=None),
    Column("side", "side", "side", "", 4, text_table=None),
    Column("decisions", "judged", "judged", "", 6),
    Column("loss_win", "loss win-%", "loss win-%", ".1f", 10),
    Column("loss_win_mean", "mean", "mean", ".2f", 6),     # None ("-") with no judged decision
    Column("loss_points", "loss pts", "loss pts", ".0f", 8),
    Column("accuracy", "accuracy", "accuracy", ".1f", 8),
    Column("marks.inaccuracy", "inacc", "inaccuracies", "", 5),
    Column("marks.mistake", "mist", "mistakes", "", 5),
    Column("marks.blunder", "blund", "blunders", "", 5),
    Column("luck_win", "own", "own luck", "+.1f", 14, text_table=1, err="luck_win_stderr"),
    Column("luck_win_net", "luck", "net luck", "+.1f", 14, text_table=1, err="luck_win_net_stderr"),
    Column("result", "result", "result", ".0f", 6, text_table=1),
    Column("luck_adjusted", "adj.", "luck-adjusted", ".1f", 14, text_table=1, err="luck_adjusted_stderr"),
    Column("name", "name", "name", "", 0, text_table=None),       # last: a name's length varies
)


def _win_text(d: dict, plus_minus: str = "+-") -> str:
    """The best move's win probability in % with its standard error: "54.3 +- 1.6"."""
    text = format_number(100 * d["win"], ".1f")
    return text if d.get("win_stderr") is None else f"{text} {plus_minus} {format_number(100 * d['win_stderr'], '.1f')}"


def _dd_cell(d: dict) -> str:
    return "-" if d["dd_best"] is None else escape(", ".join(d["dd_best"])) + f" ({d['dd_loss_win']:.1f})"


# Every judged decision in the HTML report (the JSON: Analysis.to_dict "decisions"; the text
# report lists only the marked ones, in words).
DECISION_COLUMNS = (
    Column("round", "", "round"),
    Column("action", "", "action"),
    Column("seat", "", "seat"),
    Column("played", "", "played"),
    Column("best", "", "best", html_cell=lambda d: escape(d["best"] or "")),
    Column("loss_win", "", "loss win-%", ".1f", err="stderr_win"),
    Column("loss_points", "", "loss pts", ".0f", err="stderr_points", err_fmt=".0f"),
    Column("worlds", "", "worlds"),
    Column("win", "", "win % (best)", html_cell=lambda d: escape(_win_text(d, "\u00b1"))),
    Column("mark", "", "mark", html_cell=lambda d: f'<a href="#d{d["round"]}-{d["action"]}">{d["mark"]}</a>'
           if d["mark"] else ""),
    Column("dd_best", "", "double-dummy best (loss win-%)", html_cell=_dd_cell),
)
REPORT_TEMPLATE = Path(__file__).with_name("templates") / "analysis_report.html"


@dataclass
class Analysis:
    players: int
    seats: dict                           # seat -> SeatSummary
    decisions: list                       # Decision, in game order
    luck: list                            # LuckEvent, in game order
    budget: AnalysisBudget
    seed: int
    view: int | None
    winner: int | None
    seconds: float = 0.0                  # wall time of the whole analysis
    names: tuple | None = None            # the record's seat names ("seats"), if it has them
    # what to_html checks its record against (_record_source; None: not checked)
    source: dict | None = field(default=None, repr=False, compare=False)

    def seat_text(self, seat: int) -> str:
        """'seat 1 (greedy)': the seat with its record name, if there is one."""
        return format_seat(seat, self.names)

    @property
    def judge(self) -> dict:
        """Which judge valued the decisions, with its budget."""
        b = self.budget
        if b.judge == "rollout":
            return {"name": "rollout", "rollouts": b.rollouts, "bot": b.rollout_bot, "candidates": b.candidates,
                    "horizon": b.rollout_horizon, "worlds": "sampled uniformly from the seat's observation"}
        judge = {"name": "search", "method": b.method, "samples": b.samples, "world_nodes": b.world_nodes,
                 "beliefs": check_beliefs(b.beliefs), "stages": None if b.stages is None else list(b.stages)}
        if self.players == 3:
            judge["search"] = b.search_of_three
        return judge

    @property
    def cost(self) -> dict:
        """What the analysis cost: judged decisions, playouts (rollout judge; else None), the
        search's worlds (all decisions; None where no decision was searched), seconds."""
        judged = [d for d in self.decisions if not d.forced]
        # (the rollout judge's top:K candidates are picked by a search: its worlds count too)
        searched = [w for w in (d.worlds if d.worlds is not None else (d.search or {}).get("worlds") for d in judged)
                    if w is not None]
        # (None, not 0, for what the judge does not do: a review read "worlds": 0 as none searched)
        return {"judged": len(judged),
                "playouts": sum(d.playouts or 0 for d in judged) if self.budget.judge == "rollout" else None,
                "worlds": sum(searched) if searched or self.budget.judge == "search" else None,
                "seconds": round(self.seconds, 3)}

    def to_dict(self) -> dict:
        return {"players": self.players, "view": self.view, "winner": self.winner, "seed": self.seed,
                "judge": self.judge, "cost": self.cost, "budget": asdict(self.budget),
                "names": None if self.names is None else list(self.names),
                "seats": {str(s): v.to_dict() for s, v in self.seats.items()},
                "decisions": [d.to_dict() for d in self.decisions],
                "luck": [e.to_dict() for e in self.luck]}


def _seats_to_analyse(record: dict, seats) -> list:
    n = record["players"]
    view = record.get("view")
    if seats is None:
        return [view] if view is not None else list(range(n))
    seats = as_int(seats)
    if is_int(seats):
        seats = [seats]
    if isinstance(seats, (dict, str, bytes)) or not hasattr(seats, "__iter__"):
        # a dict's keys or a string's characters are not a list of seats
        raise OptionError(f"seats must be a seat number or a list of seat numbers, not {_short(seats)}")
    try:
        seats = sorted(set(as_int(s) for s in seats))
    except TypeError:
        raise OptionError(f"seats must be seat numbers, not {_short(seats)}") from None
    for s in seats:
        if not is_int(s) or not 0 <= s < n:
            raise OptionError(f"seat must be 0..{n - 1}, not {_short(s)}")
        if view is not None and s != view:
            raise OptionError(f"this record is seat {view}'s view: seat {s} cannot be analysed from it")
    if not seats:
        raise OptionError("no seat to analyse")
    return seats


def analyze(record, seats=None, budget: AnalysisBudget | None = None, seed: int = 0, *,
            progress: bool = False, on_progress=None) -> Analysis:
    """Analyse a game record (a full record, or one seat's view: that seat only).
    Deterministic for a seed. ``on_progress(done, total)``: called with the count of
    the analysed seats' actions done, once before the first and after each one."""

    started = time.perf_counter()
    budget = _checked_budget(budget)
    seed = check_seed(seed)
    record = check_record(record)
    who = _seats_to_analyse(record, seats)
    budget.check_players(record["players"])
    final = _final_game(record)         # the whole record replayed first: an illegal action is a RecordError
    if on_progress is not None and not callable(on_progress):
        raise OptionError(f"on_progress must be a function of (done, total) or None, not {_short(on_progress)}")
    view = record.get("view")
    n = record["players"]
    # luck is valued for every seat of a full record, whichever seats' decisions are judged:
    # a seat's net luck is its side's luck less the other sides' (a view knows its own only)
    luck_seats = tuple(who) if view is not None else tuple(range(n))
    hinter = Hinter(threads=budget.threads)
    solver = None if view is not None else _double_dummy_solver(budget)
    rounds = record["rounds"]
    total = sum(1 for r in rounds for a in r["actions"] if a.get("seat") in who)
    bar = None
    if progress:
        # the terminal's last columns left free, as the command line's bars leave them (a Ctrl-C's
        # "^C" in the last column wrapped to a new row and half a bar stayed: a review)
        width = terminal_width(sys.stderr)
        bar = tqdm(total=total, desc="analysing", unit="action", leave=False,
                   ncols=None if width is None else max(20, width - 2))
    done = 0
    if on_progress is not None:
        on_progress(0, total)

    decisions, luck = [], []
    drawing = {}                        # seat -> position value before its current draw sequence
    seed_of = lambda r, i: _seed_of(seed, r, i)   # noqa: E731
    past = _Past(record, budget)

    terms = []                          # per luck event, its estimates (_luck_event)

    def value(game, seat, r, i):
        v = hinter.position_value(game.observation(seat), seed=seed_of(r, i), past=past(game, seat, r),
                                  budget=budget.luck_budget())
        return _Estimate(v.value, v.stderr, ("position", r, i, seat))

    def deal_value(game, seat, r, starter):
        # the same judge before the deal: its mean over random deals at these scores (and
        # starters, when drawn), not the race-equity table's value, which its values do not
        # average to (docs/results/analysis.md: deal luck not centred)
        v = hinter.deal_value(n, list(game.current.scores_before), seat, starter=starter, seed=seed_of(r, 0),
                              past=past(game, seat, r), budget=budget.luck_budget())
        return _Estimate(v.value, v.stderr, ("deal", r, seat))

    winner = None
    for game, r, i in positions(record, check=False):
        if r is None:
            break
        actions = rounds[r]["actions"]
        if i == 0:
            # the starter was drawn (D1) in the first round and after a block: chance too
            starter_drawn = r == 0 or game.rounds[r - 1].core.status != "domino"
            for seat in luck_seats:
                if not game.round_over:
                    before = deal_value(game, seat, r, None if starter_drawn else game.current.starter)
                    if seat in drawing:
                        # its draws blocked the last round (no pass follows them, D2): they are
                        # valued at the round's end, the value before this deal
                        luck.append(_draws_to_end(r - 1, len(rounds[r - 1]["actions"]), seat,
                                                  drawing.pop(seat), before, terms))
                    luck.append(_luck_event(r, 0, seat, "deal", before, value(game, seat, r, i), terms))
            drawing.clear()
        if i >= len(actions):
            continue
        act = actions[i]
        seat = act["seat"]
        if seat not in luck_seats:
            continue
        move = action_to_move(act)
        if move.kind == "draw":
            if seat not in drawing:
                drawing[seat] = value(game, seat, r, i)
            if seat not in who:
                continue
            decisions.append(Decision(r, i, seat, _action_text(act), True))
        else:
            if seat in drawing:
                luck.append(_luck_event(r, i, seat, "draw", drawing.pop(seat), value(game, seat, r, i), terms))
            if seat not in who:
                continue
            if move.kind == "pass" or _one_choice(game):
                decisions.append(Decision(r, i, seat, _action_text(act), True))
            else:
                decisions.append(_judge(hinter, solver, game, seat, move, budget, seed_of(r, i), WIN_VALUE,
                                        past(game, seat, r)))
        if bar is not None:
            bar.update(1)
        if on_progress is not None:
            done += 1
            on_progress(done, total)
    if bar is not None:
        bar.close()
    winner = final.winner
    next_round = None
    for seat in sorted(drawing):
        # draws that blocked the record's last round (unless it stops mid-round): valued at
        # the round's end, as those of any other round: the game's result when it ends there,
        # an equal share when it stopped at its round limit (D6), else the value before the
        # next deal at these scores (a record may stop between rounds of a game that goes
        # on: an equal share there moved one seat's luck by 49 win-% points, a review found)
        if final.round_over:
            r = len(rounds) - 1
            if winner is not None:
                end = _Estimate(float(winner == _core.side_of_seat(n, seat)))
            elif final.unfinished:
                end = _Estimate(1.0 / _core.sides_of(n))
            else:
                # the game's next round started (its deal is not looked at): the value before
                # its deal, as for every other round; after a block the starter is drawn (D1)
                if next_round is None:
                    next_round = game_from_record(record, check=False)
                    next_round.next_round()
                end = deal_value(next_round, seat, r + 1, None)
            luck.append(_draws_to_end(r, len(rounds[r]["actions"]), seat, drawing[seat], end, terms))
    summaries = _summaries(n, who, decisions, luck, terms, winner, final.unfinished or winner is None,
                           every_seat=len(luck_seats) == n)
    names = record.get("seats")
    for seat, summary in summaries.items():
        summary.name = None if names is None else names[seat]
    return Analysis(n, summaries, decisions, luck, budget, seed, view, winner, time.perf_counter() - started,
                    None if names is None else tuple(names), _record_source(record))


def _record_source(record: dict) -> dict:
    """What identifies an analysed game (a checked record): its players, view, every
    round's actions, and a digest of its deals and actions (not its seat names)."""
    game = {"players": record["players"], "view": record.get("view"), "rounds": record["rounds"]}
    return {"players": record["players"], "view": record.get("view"),
            "actions": [[_action_text(act) for act in rnd["actions"]] for rnd in record["rounds"]],
            "digest": hashlib.sha256(json.dumps(game, sort_keys=True, default=str).encode()).hexdigest()}


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _record_mismatch(a: "Analysis", record: dict) -> str | None:
    """How a checked record differs from the game ``a`` analysed, in words (None: the same
    game, or an analysis that does not know its record)."""
    if a.source is None:
        return None
    mine, theirs = a.source, _record_source(record)
    if mine["digest"] == theirs["digest"]:
        return None
    if mine["players"] != theirs["players"]:
        return f"it has {theirs['players']} players, the analysed game {mine['players']}"
    if mine["view"] != theirs["view"]:
        def who(v):
            return "a full record" if v is None else f"seat {v}'s view"
        return f"it is {who(theirs['view'])}, the analysed game {who(mine['view'])}"
    for r, (x, y) in enumerate(zip(theirs["actions"], mine["actions"])):
        for i, (p, q) in enumerate(zip(x, y)):
            if p != q:
                return f"round {r} action {i} is {p} in it, {q} in the analysed game"
        if len(x) != len(y):
            return f"its round {r} has {_count(len(x), 'action')}, the analysed game's {len(y)}"
    if len(theirs["actions"]) != len(mine["actions"]):
        return f"it has {_count(len(theirs['actions']), 'round')}, the analysed game {len(mine['actions'])}"
    return "the same actions, other deals"


def _draws_to_end(r: int, end: int, seat: int, before: _Estimate, after: _Estimate, terms: list) -> LuckEvent:
    """The luck of a draw sequence that ended round r (blocked after the last draw):
    the value at the round's end (after) minus the value before the draws."""
    return _luck_event(r, end, seat, "draw", before, after, terms)


def _seed_of(seed: int, r: int, i: int) -> int:
    """The seed of the judgement of round r's action i (search worlds or rollout worlds)."""
    return (seed * 1_000_003 + r * 10_007 + i) & (2 ** 64 - 1)


class _Past:
    """With model beliefs, the earlier rounds' evidence about the other seats, as the
    seat saw those rounds (its own views of them only), computed once per round."""

    def __init__(self, record, budget):
        self.record = record
        self.reads = check_beliefs(budget.beliefs) == "model"
        self.evidence = {}              # (seat, round) -> what the seat's views of earlier rounds say
        self.ends = None                # (seat, round) -> the seat's view at the round's end

    def round_ends(self) -> dict:
        """Every analysable seat's view at the end of every round, from one replay of the
        record (what ``beliefs.past_observations`` gives, which replays the whole record
        once per earlier round: quadratic in the rounds)."""
        if self.ends is None:
            record = check_record(self.record)
            view = record.get("view")
            seats = range(record["players"]) if view is None else (view,)
            last = [len(rnd["actions"]) for rnd in record["rounds"]]
            self.ends = {}
            for game, q, i in positions(record, check=False):
                if q is not None and i == last[q]:
                    for s in seats:
                        self.ends[(s, q)] = game.observation(s)
        return self.ends

    def __call__(self, game, seat, r):
        if not self.reads or r == 0:
            return None
        if (seat, r) not in self.evidence:
            ends = self.round_ends()
            past = [ends[(seat, q)] for q in range(min(r, len(self.record["rounds"])))]
            self.evidence[(seat, r)] = past_evidence(game.observation(seat), past)
        return self.evidence[(seat, r)]


def _checked_budget(budget) -> AnalysisBudget:
    """The analysis budget to use: an AnalysisBudget, checked (None: the default)."""
    if budget is None:
        budget = AnalysisBudget()
    if not isinstance(budget, AnalysisBudget):
        raise OptionError(f"budget must be an AnalysisBudget or None, not {_short(budget)}")
    return budget.check()


def _double_dummy_solver(budget: AnalysisBudget) -> Solver:
    """The solver of the double-dummy judgements (analyze and judge_decision alike)."""
    return Solver(tt_mb=32, node_limit=budget.dd_nodes, pv=False, objective="win", both=True,
                  search=budget.search_of_three)


def judge_decision(record, round: int, action: int, budget: AnalysisBudget | None = None,
                   seed: int = 0) -> Decision:
    """The judgement of one decision of a record (round `round`, action `action`), exactly
    as :func:`analyze` with the same budget and seed gives it (a forced action: listed,
    not judged). Benchmarks and tests judge planted decisions with it."""
    budget = _checked_budget(budget)
    seed = check_seed(seed)
    record = check_record(record)
    rounds = record["rounds"]
    round, action = as_int(round), as_int(action)
    for name, v, high in (("round", round, len(rounds)), ("action", action, None)):
        if not is_int(v) or v < 0 or (high is not None and v >= high):
            raise OptionError(f"{name} {_short(v)} is not in the record")
    if action >= len(rounds[round]["actions"]):
        raise OptionError(f"round {round} has {len(rounds[round]['actions'])} actions: no action {action}")
    act = rounds[round]["actions"][action]
    seat = act["seat"]
    _seats_to_analyse(record, [seat])
    budget.check_players(record["players"])
    _final_game(record)                 # the whole record replayed first: an illegal action is a RecordError
    view = record.get("view")
    for game, r, i in positions(record, check=False):
        if (r, i) == (round, action):
            break
    move = action_to_move(act)
    if move.kind != "play" or _one_choice(game):
        return Decision(round, action, seat, _action_text(act), True)
    solver = None if view is not None else _double_dummy_solver(budget)
    return _judge(Hinter(threads=budget.threads), solver, game, seat, move, budget, _seed_of(seed, round, action),
                  WIN_VALUE, _Past(record, budget)(game, seat, round))


def _one_choice(game) -> bool:
    """Whether the seat to move has one choice only: one legal move, or placements that
    all lead to the same position (one tile on a double's two branch ports, RULES §3.4:
    the hint searches them as one)."""
    legal = game.legal_moves
    if len(legal) == 1:
        return True
    return (all(m.kind == "play" for m in legal)
            and len({_core.canonical_of(*m.placement) for m in legal}) == 1)


def _action_text(act: dict) -> str:
    if "play" in act:
        return act["play"] if "at" not in act else f"{act['play']}@{act['at']}"
    if "draw" in act:
        return f"draw {act['draw']}" if act["draw"] is not None else "draw"
    return "pass"


def _final_game(record):
    """The record replayed to its end: every action checked (RecordError naming the first
    fault's round and action) before any is judged."""
    return game_from_record(record, check=False)


def _judge(hinter, solver, game, seat, move, budget, seed, win_value, past=None) -> Decision:
    """The hidden-information and double-dummy judgements of one decision (``past``:
    the earlier rounds' evidence for model beliefs)."""
    obs = game.observation(seat)
    if budget.judge == "rollout":
        d = _judge_rollout(hinter, obs, game, seat, move, budget, seed, past)
    else:
        d = _judge_search(hinter, obs, game, seat, move, budget, seed, past)
    if solver is not None:
        # each decision's solve as a new Solver's: a node-limited one finishes, or not,
        # whichever decisions were judged before it (analyze with or without --seat, and
        # judge_decision, give the same judgement)
        solver.forget()
        res = solver.solve(game.copy())
        if res.exact and res.values:
            played_text = format_move(move)
            best_v = max(res.values.values())
            best = sorted(m for m, v in res.values.items() if v == best_v)
            # one placement named once (RULES §3.4: a tile on a double's two branch ports is one
            # move; a review read "2-5@5-5:branchA, 2-5@5-5:branchB" as two best moves)
            d.dd_best = [m for m, same in zip(best, same_as_earlier(Move.parse(m) for m in best)) if same is None]
            d.dd_loss_win = round(100 * (best_v - res.values[played_text]) / (2 * win_value), 3)
            if res.points:
                # against the best moves (as the win-% loss): none when the played move is one
                # of them (any port of the placement), else the most points any of them scores
                d.dd_loss_points = (0 if played_text in best
                                    else max(res.points[m] for m in best) - res.points[played_text])
    return d


def judgement_settled(h, move, sigmas: float = SETTLE_SIGMAS) -> bool:
    """Whether a search judgement of `move` (a hint over the worlds searched so far)
    would show the same mark, and a best move that matters as much, over more worlds,
    with a margin of `sigmas` standard errors (the adaptive judge's rule, module text).

    With L +- s the played move's loss to the stage's best and d_m +- s_m each other
    move's, the moves that may still become the best are those with d_m < sigmas s_m
    (the contenders; a move equal to the best in every world, 0 +- 0, is not one).
    Settled when either

    * no move contends (the best move is settled), L +- sigmas s crosses no mark
      threshold, and a marked L keeps L - sigmas s >= MARK_SIGMAS s; or
    * the played move is clearly unmarked whichever contender ends best:
      L + sigmas s + max over contenders of (sigmas s_m - d_m) < the first threshold
      (5 win-% points), a bound on its loss to any of them.

    A hint as the judge gives it (win objective, losses in probability), moves best first:

    >>> from types import SimpleNamespace as M
    >>> best, clear = M(move="a", win_loss=0.0, win_loss_stderr=0.0), M(move="b", win_loss=0.2, win_loss_stderr=0.01)
    >>> judgement_settled(M(moves=[best, clear]), "b"), judgement_settled(M(moves=[best, clear]), "a")
    (True, True)
    >>> close = M(move="c", win_loss=0.02, win_loss_stderr=0.01)   # 2 win-% behind, 1 standard error: contends
    >>> judgement_settled(M(moves=[best, close]), "a")             # a's loss to c: at most 0 + 3 - 2 = 1 < 5
    True
    >>> judgement_settled(M(moves=[best, close, clear]), "b")      # a blunder, but which best move?
    False
    >>> edge = M(move="d", win_loss=0.14, win_loss_stderr=0.01)    # 14 +- 3: the blunder line at 15 is inside
    >>> judgement_settled(M(moves=[best, edge]), "d")
    False
    """
    played = next(m for m in h.moves if m.move == move)
    loss, se = 100 * played.win_loss, 100 * played.win_loss_stderr
    low, high = loss - sigmas * se, loss + sigmas * se
    # how far each contender may still end above the stage's best, in win-% points
    overtake = [100 * (sigmas * m.win_loss_stderr - m.win_loss) for m in h.moves[1:]
                if m.win_loss < sigmas * m.win_loss_stderr]
    if overtake:
        return high + max(overtake) < MARKS[-1][1]
    if any(low < threshold <= high for _, threshold in MARKS):
        return False
    return low < MARKS[-1][1] or low >= MARK_SIGMAS * se


def _search_hint(hinter, obs, budget, seed, past, move=None):
    """The search judge's hint; with the played `move` and an adaptive budget, in stages
    until :func:`judgement_settled` (rollout candidates: every world, move None)."""
    stages = budget.stages if move is not None else None
    if stages is None:
        return hinter.hint(obs, seed=seed, both=True, past=past, budget=budget.search_budget())
    return hinter.hint(obs, seed=seed, both=True, past=past, budget=budget.search_budget(), stages=stages,
                       settled=lambda h: judgement_settled(h, move) and not _marked_for_sure(h, move))


def _marked_for_sure(h, move) -> bool:
    """Whether the played move's loss is above the first mark even at its low end (L − 3 s
    >= 5): such a judgement is searched on to the full budget. Stopped early, a marked
    decision stops only after a first stage that read high, so its shown loss was biased
    up (optional stopping; a review measured 32.4 +- 5.4 win-% where 96 worlds give 17.4,
    and 960 16.5). Marked decisions are a few a game: the full budget costs little."""
    played = next(m for m in h.moves if m.move == move)
    return 100 * (played.win_loss - SETTLE_SIGMAS * played.win_loss_stderr) >= MARKS[-1][1]


def _best_text(best: Move, played: Move) -> str:
    """The best move as the report names it: the played move when the two are one move
    (the other branch port of the played placement reads as a different move)."""
    return format_move(played if best.same_as(played) else best)      # one placement (RULES §3.4)


def _judge_search(hinter, obs, game, seat, move, budget, seed, past) -> Decision:
    """The search judge: every legal move searched in the same sampled worlds (PIMC);
    adaptive (module text) unless the budget's first stage is every world."""
    h = _search_hint(hinter, obs, budget, seed, past, move)
    played = next(m for m in h.moves if m.move == move)
    loss_win = 100 * played.win_loss
    se_win = 100 * played.win_loss_stderr
    return Decision(len(game.rounds) - 1, len(game.current.moves), seat, format_move(move), False,
                    best=_best_text(h.best, move), loss_win=round(loss_win, 3), stderr_win=round(se_win, 3),
                    loss_points=round(played.points_loss, 3), stderr_points=round(played.points_loss_stderr, 3),
                    mark=mark_of(loss_win, se_win), win=h.moves[0].win, win_stderr=h.moves[0].win_stderr,
                    moves=[{"move": format_move(m.move), "win": m.win, "points": m.points,
                            "win_stderr": m.win_stderr, "points_stderr": m.points_stderr} for m in h.moves],
                    worlds=h.samples)


def _judge_rollout(hinter, obs, game, seat, move, budget, seed, past) -> Decision:
    """The rollout judge (fiveup_solver.rollout): the candidates played out in the same
    worlds, drawn from the seat's observation; with ``top:K`` candidates the search
    judge picks them (the played move is always one)."""
    top = parse_candidates(budget.candidates)
    candidates, search = None, None
    if top is not None:
        h = _search_hint(hinter, obs, budget, seed, past)
        candidates = [move] + [m.move for m in h.moves[:top] if m.move != move]
        played_h = next(m for m in h.moves if m.move == move)
        search = {"best": _best_text(h.best, move), "loss_win": round(100 * played_h.win_loss, 3),
                  "stderr_win": round(100 * played_h.win_loss_stderr, 3), "worlds": h.samples}
    r = rollout(obs, candidates, rollouts=budget.rollouts, bot=budget.rollout_bot, seed=seed,
                workers=budget.workers, horizon=budget.rollout_horizon)
    played = r.of(move)
    loss_win = 100 * played.win_loss
    se_win = 100 * played.win_loss_stderr
    moves = [{"move": format_move(m), "win": c.win, "points": c.points, "win_stderr": c.win_stderr,
              "points_stderr": c.points_stderr} for c in r.moves for m in c.moves]
    return Decision(len(game.rounds) - 1, len(game.current.moves), seat, format_move(move), False,
                    best=_best_text(r.best, move), loss_win=round(loss_win, 3), stderr_win=round(se_win, 3),
                    loss_points=round(played.points_loss, 3), stderr_points=round(played.points_loss_stderr, 3),
                    mark=mark_of(loss_win, se_win), win=r.moves[0].win, win_stderr=r.moves[0].win_stderr,
                    moves=moves, playouts=r.playouts,
                    search=search)


def _summaries(n, who, decisions, luck, terms, winner, unfinished, every_seat: bool = True) -> dict:
    """Per analysed seat. ``every_seat``: luck was valued for every seat (a full record),
    so net luck and the luck-adjusted result exist; a view has its own seat's luck only.
    ``terms``: each luck event's estimates (:func:`_luck_event`), for the standard errors."""
    sides = _core.sides_of(n)
    own_luck = {s: sum(e.luck for e in luck if _core.side_of_seat(n, e.seat) == s) for s in range(sides)}
    side_of = [_core.side_of_seat(n, e.seat) for e in luck]
    out = {}
    for seat in who:
        side = _core.side_of_seat(n, seat)
        s = SeatSummary(seat, side)
        judged = [d for d in decisions if d.seat == seat and not d.forced]
        s.decisions = len(judged)
        s.forced = sum(1 for d in decisions if d.seat == seat and d.forced)
        s.loss_win = round(sum(d.loss_win for d in judged), 3)
        s.loss_points = round(sum(d.loss_points for d in judged), 3)
        if judged:
            s.loss_win_mean = round(s.loss_win / len(judged), 3)
            s.loss_points_mean = round(s.loss_points / len(judged), 3)
            s.accuracy = round(sum(accuracy(d.loss_win) for d in judged) / len(judged), 2)
        for d in judged:
            if d.mark:
                s.marks[d.mark] += 1
        s.error_rate = round(sum(s.marks.values()) / len(judged), 4) if judged else None
        s.luck_win = round(sum(e.luck for e in luck if e.seat == seat), 3)
        s.luck_win_stderr = round(_luck_stderr([(1.0, t) for e, t in zip(luck, terms) if e.seat == seat]), 3)
        if every_seat:
            others = [own_luck[o] for o in range(sides) if o != side]
            s.luck_win_net = round(own_luck[side] - sum(others) / len(others), 3)
            # the same events' estimates, weighted +1 (own side) and -1/(sides - 1) (each other side)
            s.luck_win_net_stderr = round(_luck_stderr(
                [(1.0 if o == side else -1.0 / (sides - 1), t) for o, t in zip(side_of, terms)]), 3)
        if not unfinished:
            s.result = 100.0 if winner == side else 0.0
            if s.luck_win_net is not None:
                s.luck_adjusted = round(s.result - s.luck_win_net, 3)
                s.luck_adjusted_stderr = s.luck_win_net_stderr      # the result is exact
        out[seat] = s
    return out


# ---------------------------------------------------------------- how people read it
def _beliefs_text(a: Analysis) -> str:
    return {"model": "beliefs weighted by how the other seats played",
            "uniform": "uniform beliefs"}[check_beliefs(a.budget.beliefs)]


def judge_text(a: Analysis) -> str:
    """Which judge valued the decisions, in words."""
    b = a.budget
    if b.judge == "rollout":
        which = ("every legal move" if b.candidates == "all"
                 else f"the played move and the search's best {b.candidates[4:]}")
        playouts = ("whole-game playouts" if b.rollout_horizon == "game"
                    else "playouts to the round's end (valued by the race-equity table)")
        return (f"rollout judge: {b.rollouts} {playouts} per candidate ({which}), {b.rollout_bot} "
                f"in every seat, the same worlds for every candidate, drawn from the seat's observation")
    three = f", {b.search_of_three} search" if a.players == 3 else ""
    method = "" if b.method == "pimc" else f" ({b.method})"
    worlds = (f"{b.samples} worlds per decision" if b.stages is None
              else f"{'/'.join(map(str, b.stages))} worlds per decision (adaptive: stops when the mark and best "
                   f"move are settled)")
    return f"search judge: {worlds}{method}, {_beliefs_text(a)}{three}"


def cost_text(a: Analysis) -> str:
    """What the analysis cost, in words."""
    c = a.cost
    playouts = f", {c['playouts']:,} playouts" if a.budget.judge == "rollout" else ""
    worlds = f", {c['worlds']:,} worlds searched" if a.budget.judge == "search" else ""
    judged = f"{c['judged']} judged decision{'' if c['judged'] == 1 else 's'}"
    return f"cost: {judged}{playouts}{worlds}, {c['seconds']:.1f} s"


def worlds_of(d: Decision) -> str:
    """'; N worlds' for a search judgement (the worlds behind its loss), else ''."""
    return "" if d.worlds is None else f"; {d.worlds} worlds"


def _check_analysis(a, what: str) -> None:
    if not isinstance(a, Analysis):
        raise OptionError(f"{what}: give an Analysis (from analyze), not {_short(a)}")


def points_note(a: Analysis) -> str:
    """What a points loss counts, for the analysis's player count (and 3-player search):
    two sides' difference and +-1000 for a game won or lost with 2 or 4 players; with 3,
    the seat's gains less the mean of the two others' (max^n, +1000 for its own exact 305,
    -500 for another's) or less their sum (paranoid, and the rollout judge's playouts:
    -1000 for another's)."""
    if a.players != 3:
        return ("raw points of the round (5 raw = 1 display point): the seat's side's less the other side's, "
                "a world where the game is won or lost counting +1000 or -1000")
    if a.budget.judge == "rollout":
        # (the playouts' own currency, rollout._round_points: a review read max^n's legend over them)
        return ("raw points of the round (5 raw = 1 display point): the seat's gains less the sum of the two "
                "others' (the playouts), a playout where its own exact 305 wins the game counting +1000 and one "
                "where another seat's does -1000")
    if a.budget.search_of_three == "paranoid":
        return ("raw points of the round (5 raw = 1 display point): the seat's gains less the sum of the two "
                "others' (paranoid search), a world where its own exact 305 wins the game counting +1000 and one "
                "where another seat's does -1000")
    return ("raw points of the round (5 raw = 1 display point): the seat's gains less the mean of the two others' "
            "(max^n), a world where its own exact 305 wins the game counting +1000 and one where another seat's "
            "does -500")


NO_JUDGED = "No judged decisions: every action was forced (a draw, a pass, one legal move) or none was played."


def _seat_table(columns: list, rows: list, width: int | None) -> list:
    """A per-seat text table's lines; one wider than ``width`` characters (a terminal's) is
    split into tables of fewer columns, each led by the seat and side, so that no row
    breaks (a review: at 60 columns each row ran onto a second line, its numbers no longer
    under their headers)."""
    def lines(cols: list) -> list:
        return ([" ".join(f"{c.text:>{c.width}}" for c in cols)]
                + [" ".join(f"{c.cell(row):>{c.width}}" for c in cols) for row in rows])
    whole = lines(columns)
    if width is None or max(map(len, whole)) <= width:
        return whole
    keys = [c for c in columns if c.text_table is None and c.width]        # seat, side
    groups = [[]]
    for c in (c for c in columns if c not in keys):
        if groups[-1] and max(map(len, lines(keys + groups[-1] + [c]))) > width:
            groups.append([])
        groups[-1].append(c)
    return [line for k, group in enumerate(groups) for line in [""] * (k > 0) + lines(keys + group)]


def format_text(a: Analysis, width: int | None = None) -> str:
    """The analysis as text: the per-seat tables (luck with its standard error), then
    the marked decisions with best and played moves (what ``fiveup analyze`` prints).
    ``width``: a terminal's columns; a wider table is shown as narrower ones."""
    _check_analysis(a, "format_text")
    if width is not None and (not is_int(width) or width < 1):
        raise OptionError(f"width must be a terminal's columns (a positive integer) or None, not {_short(width)}")
    lines = [f"{a.players}-player game" + (f", {a.seat_text(a.view)}'s view" if a.view is not None else "")
             + (f"; side {a.winner} won" if a.winner is not None else "; unfinished")
             + f"; {judge_text(a)}; seed {a.seed}", cost_text(a), ""]
    rows = [v.to_dict() for v in a.seats.values()]
    for table in sorted({c.text_table for c in SEAT_COLUMNS} - {None}):
        columns = [c for c in SEAT_COLUMNS if c.text_table in (None, table)]
        lines.extend(_seat_table(columns, rows, width))
        lines.append("")
    lines.append("(losses are positive: what the move played lost against the move best in win-%, summed over "
                 "the judged decisions; mean: the loss a judged decision; loss and luck "
                 "in win-% points of the seat's side, +- a standard error; own: the seat's own chance events; "
                 "luck: its side's chance events minus the other sides' mean; adj.: result minus luck"
                 + ("; a seat's view knows no other seat's luck: '-'" if a.view is not None else "")
                 + f"; pts: {points_note(a)}; a points loss is negative where the move played scores more "
                   "points but wins less often)")
    if not any(not d.forced for d in a.decisions):
        lines.append("")
        lines.append(NO_JUDGED)
        return "\n".join(lines) + "\n"
    marked = [d for d in a.decisions if d.mark]
    if marked:
        lines.append("")
        lines.append("marked decisions:")
        for d in marked:
            dd = ""
            if d.dd_best is not None:
                dd = f"; all hands known: best {', '.join(d.dd_best)}, loss {d.dd_loss_win:.1f} win-%"
            # the best move's win % (a review: 8 win-% lost read alike from 90 or from 52)
            best_win = "" if d.win is None else f" (win {_win_text(d.to_dict())} %)"
            lines.append(f"  round {d.round} action {d.action} {a.seat_text(d.seat)}: {d.mark}: played {d.played}, "
                         f"best {d.best}{best_win}: loss {d.loss_win:.1f} +- {d.stderr_win:.1f} win-%, "
                         f"{format_number(d.loss_points, '.0f')}{_points_error(d)} pts{worlds_of(d)}{dd}")
    else:
        lines.append("no marked decisions")
    return "\n".join(lines) + "\n"


def _points_error(d) -> str:
    """" +- 12" of a decision's points loss (nothing where it has none)."""
    return f" +- {d.stderr_points:.0f}" if d.stderr_points else ""


def win_curve(a: Analysis) -> list:
    """[(index, round, seat, side, P(side 0 wins) or None, P(own side wins))] at every judged decision."""
    sides = _core.sides_of(a.players)
    out = []
    for k, d in enumerate(x for x in a.decisions if not x.forced):
        side = _core.side_of_seat(a.players, d.seat)
        p0 = d.win if side == 0 else (1 - d.win if sides == 2 else None)
        out.append((k, d.round, d.seat, side, p0, d.win, d.mark))
    return out


def shown_side(a: Analysis) -> int | None:
    """The side whose win probability the graph draws: with 2 sides, the analysed seats'
    side where they are all on one (``--seat 1``, a seat's view, a 4-player side's two
    seats), else side 0; None with 3 players (each side its own). The web board's graph
    draws the same side (a review: ``--seat 1`` of a full record drew side 0's chance, its
    view side 1's, and the web side 1's in both)."""
    if a.players == 3:
        return None
    analysed = {s.side for s in a.seats.values()}
    return analysed.pop() if len(analysed) == 1 else 0


def _graph_label(a: Analysis) -> str:
    """What the graph draws, as its title and text alternative say it."""
    side = shown_side(a)
    return "each side's own chance" if side is None else f"side {side}'s chance"


def plot_win_probability(a: Analysis, path, fmt: str | None = None) -> None:
    """Draw the win-probability graph of an analysis to ``path``: the analysed side's win
    probability over the game's judged decisions (2 sides, :func:`shown_side`: the side of
    every analysed seat, side 0 where both sides were analysed; with 3 players each side's
    own), rounds separated, marks shown; its title names the side. PNG or SVG by the file
    name's suffix (a str or an ``os.PathLike``), or ``fmt`` ("png", "svg") for a file
    object. Needs matplotlib (``pip install 'fiveup_solver[analysis]'``); OptionError
    for another suffix or a file that cannot be written."""
    _check_analysis(a, "plot_win_probability")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if fmt is None:
        if not isinstance(path, str) or not path.lower().endswith((".png", ".svg")):
            raise OptionError(f"plot_win_probability: give a .png or .svg file name (or fmt for a file object), "
                              f"not {_short(path, 1000)}")
        fmt = path.lower().rsplit(".", 1)[1]
    elif fmt not in ("png", "svg"):
        raise OptionError(f"plot_win_probability: fmt must be png or svg, not {_short(fmt)}")
    elif fmt == "png" and isinstance(path, io.TextIOBase):
        # (a review: a TypeError "string argument expected, got 'bytes'" from deep in matplotlib)
        raise OptionError("plot_win_probability: a PNG is bytes: give a binary file object (io.BytesIO, "
                          "open(name, 'wb')), or fmt='svg' for a text one")
    curve = win_curve(a)
    fig, ax = plt.subplots(figsize=(9, 3.6), dpi=110)
    colours = {"inaccuracy": "#e6b800", "mistake": "#e67300", "blunder": "#cc0000"}
    # a shape each too: told apart by colour alone, a mistake's orange read as side 1's line
    # (3 players) and the three as one to a colour-blind eye (a review)
    shapes = {"inaccuracy": "o", "mistake": "s", "blunder": "X"}
    # two sides: the analysed seats' side (a seat's view, --seat S: a seat's good moves rise),
    # side 0's where both sides were analysed
    shown = shown_side(a) or 0

    def height(p0, w):      # a point's height: its side's chance (3 players), else the shown side's
        return 100 * (w if p0 is None else (p0 if shown == 0 else 1 - p0))
    if a.players == 3:
        for side in range(3):
            pts = [(k, 100 * w) for k, _, _, s, _, w, _ in curve if s == side]
            if pts or a.view is None:      # a view judges its own side only: no empty sides listed
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=".", lw=1, label=f"side {side}",
                        color=f"C{side}")
        ax.set_ylabel("own side's win probability (%)")
    else:
        ax.plot([c[0] for c in curve], [height(c[4], c[5]) for c in curve], color="tab:blue",
                lw=1.2, marker=".", ms=3, label=f"side {shown}")
        ax.set_ylabel(f"side {shown}'s win probability (%)")
    for k, r, seat, side, p0, w, mark in curve:
        if mark:
            ax.scatter([k], [height(p0, w)], s=40 if mark == "inaccuracy" else 46, color=colours[mark],
                       marker=shapes[mark], zorder=3, edgecolor="black", linewidth=0.5)
    prev = None
    for k, r, *_ in curve:
        if prev is not None and r != prev:
            ax.axvline(k - 0.5, color="0.8", lw=0.8)
        prev = r
    for name, c in colours.items():
        ax.scatter([], [], s=40, color=c, marker=shapes[name], edgecolor="black", linewidth=0.5, label=name)
    # a little room above 100 % and under 0 %: a point there is drawn whole, not cut by the axes
    ax.set_ylim(-4, 104)
    ax.yaxis.set_major_locator(matplotlib.ticker.FixedLocator([0, 25, 50, 75, 100]))
    if not curve:
        ax.text(0.5, 0.5, "no judged decisions", transform=ax.transAxes, ha="center", va="center", color="0.4")
    if len(curve) < 2:
        # no span to scale to (matplotlib's ticks of one point read -0.04 .. 0.04)
        ax.set_xlim(-0.5, 1.5)
    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))   # decisions are counted: no 2.5
    ax.set_xlabel("judged decisions (grey lines: new round)")
    ax.set_title(f"Win probability over the game: {_graph_label(a)}")
    # the legend under the axes: inside them it covered points near 100 %
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), fontsize=8, ncol=8, frameon=False)
    ax.grid(alpha=0.25)
    fig.tight_layout()
    try:
        # the same file for the same analysis: no date, and SVG ids from a fixed salt, not a random one
        # (SVG text as text, not glyph outlines: a screen reader, a search and a copy read it)
        with matplotlib.rc_context({"svg.hashsalt": "fiveup", "svg.fonttype": "none"}):
            fig.savefig(path, format=fmt, bbox_inches="tight",
                        metadata={"Date": None} if fmt == "svg" else None)
    except OSError as e:
        raise OptionError(f"plot file {path}: cannot write ({e.strerror})") from None
    finally:
        plt.close(fig)


def _graph_svg(a: Analysis) -> str:
    """The win-probability graph as an inline SVG element (matplotlib)."""
    buf = io.StringIO()
    plot_win_probability(a, buf, fmt="svg")
    text = buf.getvalue()
    text = text[text.index("<svg"):]                         # drop the XML prolog and doctype
    label = (f"Win probability over the game: {_graph_label(a)}"
             + ", per judged decision, marks at inaccuracies, mistakes and blunders")
    text = re.sub(r"<svg ", f'<svg id="win-graph" role="img" aria-label="{escape(label)}" ', text, count=1)
    return text


def to_html(a: Analysis, record) -> str:
    """One self-contained HTML report of an analysis (what ``fiveup analyze --html``
    writes): summary table, the win-probability graph, the per-decision table, and a
    board picture (the position before the move, played and best moves drawn) at every
    marked decision. ``record`` is the analysed game's record (the boards are drawn from
    it); another game's is an OptionError naming what differs. Needs matplotlib."""
    _check_analysis(a, "to_html")
    record = check_record(record)
    differs = _record_mismatch(a, record)
    if differs is not None:
        raise OptionError(f"to_html: the record is not the analysed game ({differs})")
    marked = {(d.round, d.action): d for d in a.decisions if d.mark}
    boards = {}
    if marked:
        for game, r, i in positions(record, check=False):
            d = marked.get((r, i))
            if d is not None:
                played = (Move.parse(d.played), PLAYED_COLOUR)
                best = [(Move.parse(d.best), BEST_COLOUR)] if d.best and d.best != d.played else []
                # (the round and action in the title: every board's text alternative was
                # "before the move", a review)
                title = f"round {r}, action {i}: before the move"
                if len(arrow_groups([played, *best])) == 1:
                    drawn = [([played, *best], 480, title)]
                else:
                    # played and best on one end: a board each (a review: one ghost was pushed aside)
                    drawn = [([played], 360, f"{title}: played"), (best, 360, f"{title}: best")]
                # each board in both layouts: the wide one for a screen, the square one a phone's
                # width shows whole at a readable size (a review: a 440 px least width on a phone
                # put a ghost at the right end off screen; at 390 px the square layout's captions
                # are 14 px at the median, 11 px at least, against 14 and 10 px for the wide one at 440:
                # benchmarks/report_board_text.py)
                boards[(r, i)] = {layout: [board_svg(game, arrows=arrows, size=size, title=t, bounds=bounds)
                                           for arrows, size, t in drawn]
                                  for layout, bounds in (("wide", DEFAULT_BOUNDS), ("narrow", NARROW_BOUNDS))}
    e = escape

    def table_rows(columns, rows, classes=None):
        return "".join(f"<tr{classes(r) if classes else ''}>" + "".join(f"<td>{c.html_of(r)}</td>" for c in columns)
                       + "</tr>" for r in rows)
    seat_rows = table_rows(SEAT_COLUMNS, [v.to_dict() for v in a.seats.values()])
    judged = [d.to_dict() for d in a.decisions if not d.forced]
    if judged:
        graph = f'<div class="graph">{_graph_svg(a)}</div>'
        decisions = (f'<div class="scroll"><table id="decisions"><tr>'
                     f'{"".join(f"<th>{c.html}</th>" for c in DECISION_COLUMNS)}</tr>'
                     + table_rows(DECISION_COLUMNS, judged, lambda r: f' class="{r["mark"]}"' if r["mark"] else "")
                     + "</table></div>")
    else:
        graph = decisions = f'<p class="none">{e(NO_JUDGED)}</p>'
    pictures = []
    for (r, i), d in marked.items():
        shown = boards[(r, i)]["wide"]
        pictures.append(f'<figure id="d{r}-{i}" class="board" data-boards="{len(shown)}"><figcaption>'
                        f"Round {r}, action {i}: {e(a.seat_text(d.seat))}, "
                        f"{d.mark}: played <b>{e(d.played)}</b>, best <b>{e(d.best or '')}</b>"
                        # the best move's win %, as the text report and the decisions table give it
                        # (a review: the caption alone left it out)
                        + ("" if d.win is None else f" (win {_win_text(d.to_dict(), '&#177;')} %)")
                        + f": loss {format_number(d.loss_win, '.1f')} &#177; {format_number(d.stderr_win, '.1f')} "
                        f"win-%, {format_number(d.loss_points, '.0f')}"
                        + (f" &#177; {format_number(d.stderr_points, '.0f')}" if d.stderr_points else "")
                        + " pts; red: played, blue: best"
                        + ("; on the same end, so a board each" if len(shown) > 1 else "")
                        + f'</figcaption><div class="boards layout-wide">{"".join(shown)}</div>'
                        f'<div class="boards layout-narrow">{"".join(boards[(r, i)]["narrow"])}</div></figure>')
    return Template(REPORT_TEMPLATE.read_text(encoding="utf-8")).substitute(
        players=a.players, view="" if a.view is None else f" ({e(a.seat_text(a.view))}'s view)",
        result="unfinished" if a.winner is None else f"side {a.winner} won", seed=a.seed,
        judge=e(judge_text(a)), cost=e(cost_text(a)), points=e(points_note(a)),
        seat_header="".join(f"<th>{c.html}</th>" for c in SEAT_COLUMNS), seat_rows=seat_rows,
        graph=graph, pictures="".join(pictures) or "<p>No marked decisions.</p>", decisions=decisions)
