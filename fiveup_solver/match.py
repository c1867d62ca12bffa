"""Duplicate matches that measure well: pairs, pentanomial statistics, Elo, SPRT.

Every deal sequence (a game seed) is played from both seatings, BOT on side 0
then on side 1 (2 and 4 players), so the two games of a *pair* see the same
tiles round by round (:meth:`fiveup_solver.game.Game.next_round` derives each
round's deal from the seed and the round number alone). A game scores 1 for
BOT's side winning, 0 for losing and 1/2 when unfinished (D6); a pair scores
the mean of its two games: 0, 1/4, 1/2, 3/4 or 1 — the *pentanomial*
counts of fishtest (LL, LD+DL, LW+WL+DD, WD+DW, WW).

With 3 players every side is one seat: a deal sequence is played three times,
a lone BOT in seat 0, 1, 2 against two OTHERs, and the three games form the
unit (a *triple*). A game scores 1 when BOT wins, 0 when an OTHER does and 1/3
when unfinished (an equal share); a triple scores the mean of its games, a
multiple of 1/9. Equal strength is a score of 1/3, and the Elo difference is
the Bradley-Terry one extended to a field of three (Plackett-Luce, first
place): BOT with strength ``g = 10^(elo/400)`` against two of strength 1 wins
``g / (g + 2)`` of its games. With 2 sides this is the logistic Elo.

The pairs, not the games, are the independent units: the variance of the
mean score is the pentanomial per-pair variance over the number of pairs.
The Elo difference is the logistic one, ``-400 log10(1/s - 1)`` of the mean
score s, with a 95 % interval from the pair variance (an end it would put at 0
or 1 is the profile likelihood's: :meth:`PairStats.interval`). A sweep (every
game won, or lost) has an infinite Elo and one finite end.

SPRT (:func:`sprt`): H0 Elo = elo0 against H1 Elo = elo1 with error rates
alpha and beta, the generalised SPRT of fishtest on pentanomial pairs in its
exact form (:meth:`PairStats.llr`): ``LLR = n sum_k q_k log(p1_k / p0_k)``,
q the pairs' observed distribution over the outcomes and p0, p1 the
distributions of largest likelihood whose mean pair scores are s0 and s1 (the
scores of elo0, elo1). q has one pair of prior added, split between the
lowest and the highest outcome with the mean (s0 + s1) / 2, so that
identical pairs are decided after a few, and the prior leans to neither
hypothesis. Stops when the LLR leaves ``(log(beta / (1 - alpha)),
log((1 - beta) / alpha))``. Van den Bergh's normal approximation,
``n (s1 - s0) (2 m - s0 - s1) / (2 v)``, used before 2026-12-06, decided
wrongly in up to 7 % of tests with windows of 100 Elo (docs/matches.md).

>>> st = PairStats()
>>> for pair in ([1, 1], [1, 0], [0, 1], [1, 1], [0, 0]):
...     st.add(pair)
>>> st.counts, st.pairs, round(st.score, 2)
([1, 0, 2, 0, 2], 5, 0.6)
"""
from __future__ import annotations

import json
import math
import os
import random
from dataclasses import dataclass, field
from typing import NamedTuple, Optional

from fiveup_solver.bots import check_bot, check_move_time, worker_setup
from fiveup_solver.errors import (BotError, OptionError, as_int, as_number, check_players, check_seed, is_int as _is_int, is_number,
                                  short_repr as _short)
from fiveup_solver.notation import format_number
from fiveup_solver.parallel import check_ray, check_workers, ordered_map
from fiveup_solver.selfplay import _check_callback, match_seatings, play_game

# units of prior in the SPRT's outcome distribution (PairStats.llr): one, split between the
# lowest and the highest outcome with the hypotheses' mean score
SPRT_PRIOR_UNITS = 1.0
Z95 = 1.959964          # the normal quantile of a two-sided 95 % interval

__all__ = ["PairStats", "elo_of_score", "score_of_elo", "sides_of", "sprt", "play_pairs", "SprtResult", "sprt_bounds"]


def _check_sides(sides) -> int:
    sides = as_int(sides)
    if not _is_int(sides) or sides not in (2, 3):
        raise OptionError(f"sides must be 2 or 3, not {_short(sides)}")
    return sides


def score_of_elo(elo: float, sides: int = 2) -> float:
    """Expected score of a player `elo` points stronger: logistic with 2 sides; with 3
    sides its share of wins against two equal others, ``g / (g + 2)``, ``g = 10^(elo/400)``.

    >>> score_of_elo(0), round(score_of_elo(400), 4)
    (0.5, 0.9091)
    >>> round(score_of_elo(0, sides=3), 4), round(score_of_elo(400, sides=3), 4)
    (0.3333, 0.8333)
    """
    sides = _check_sides(sides)
    elo = as_number(elo)            # (numpy's numbers are numbers of Elo too)
    if not is_number(elo):
        raise OptionError(f"an Elo difference is a finite number, not {_short(elo)}")
    # past +-12,000 Elo the expected score is 1 or 0 to a float's precision (10^30 overflows no sooner)
    g = 10.0 ** (min(max(elo, -12_000.0), 12_000.0) / 400.0)
    return g / (g + sides - 1)


def format_elo(elo: float, digits: int = 1, sides: int = 2) -> str:
    """An Elo difference as text; an infinite one (``math.inf``: a sweep's, as
    :attr:`PairStats.elo` gives it) is ``+inf`` or ``-inf``, and so is the clamp's number
    that :func:`elo_of_score` gives a score of 0 or 1 (older callers pass that). Any other
    finite number is printed as it is, past the clamp too.

    >>> format_elo(190.849), format_elo(math.inf), format_elo(elo_of_score(1.0)), format_elo(elo_of_score(0.0, 3), 0, 3)
    ('+190.8', '+inf', '+inf', '-inf')
    >>> format_elo(elo_of_score(1 / 3, 3)), format_elo(-0.04), format_elo(4000)
    ('+0.0', '+0.0', '+4000.0')
    """
    sides = _check_sides(sides)
    elo = as_number(elo)            # (numpy's numbers are numbers of Elo too)
    infinite = isinstance(elo, float) and math.isinf(elo)
    if not infinite and not is_number(elo):
        raise OptionError(f"an Elo difference is a number (+-inf for a sweep), not {_short(elo)}")
    digits = as_int(digits)
    if not _is_int(digits) or not 0 <= digits <= 10:
        raise OptionError(f"digits must be an integer from 0 to 10, not {_short(digits)}")
    sign = (1 if elo > 0 else -1) if infinite else _infinite_elo(elo, sides)
    if sign:
        return "+inf" if sign > 0 else "-inf"
    # an Elo 0 of 3 sides reads -1.9e-14: "+0.0", not "-0.0"
    return format_number(elo, f"+.{digits}f")


def _infinite_elo(elo: float, sides: int) -> int:
    """+1 or -1 when ``elo`` is :func:`elo_of_score`'s clamp of a score of 1 or 0 (an
    infinite Elo), else 0. Only the clamp itself: a finite 4000 is 4000 (a review)."""
    if abs(elo - elo_of_score(1.0, sides)) <= 1e-6:
        return 1
    return -1 if abs(elo - elo_of_score(0.0, sides)) <= 1e-6 else 0


def elo_of_score(score: float, sides: int = 2) -> float:
    """The Elo difference of a mean score (clamped away from 0 and 1): the inverse of
    :func:`score_of_elo`.

    >>> round(elo_of_score(0.75), 1), elo_of_score(0.5)
    (190.8, 0.0)
    >>> round(elo_of_score(0.25, sides=3), 1), round(elo_of_score(0.5, sides=3), 1)
    (-70.4, 120.4)
    >>> elo_of_score(1 / 3, sides=3)
    0.0
    """
    sides = _check_sides(sides)
    score = as_number(score)
    if not is_number(score) or not 0.0 <= score <= 1.0:
        raise OptionError(f"a mean score is a number from 0 to 1, not {_short(score)}")
    s = min(max(score, 1e-9), 1 - 1e-9)
    # rounded to 1e-9 Elo: a score of exactly 1/sides is Elo 0, not the -1.9e-14 of the
    # floats' rounding (a review: in match JSON); + 0.0: no -0.0
    return round(400.0 * math.log10((sides - 1) * s / (1.0 - s)), 9) + 0.0



def _unit_interval(counts, sides: int, z: float) -> tuple:
    """(low, high): the interval of the mean unit value, ``counts[k]`` units of value
    ``k / sides^2`` (PairStats.interval, whose rule it is)."""
    n = sum(counts)
    if not n:
        return (0.0, 1.0)             # nothing played: any score
    step = 1.0 / (sides * sides)
    values = [k * step for k in range(len(counts))]
    mean = sum(c * v for c, v in zip(counts, values)) / n
    variance = sum(c * (v - mean) ** 2 for c, v in zip(counts, values)) / n
    # at least the prior's variance (half a unit per outcome): the observed one of a
    # few units, or of units nearly all alike, is too small (78 % coverage with 3 pairs at
    # an even score, 81 % with 10 at 0.85), and a sweep's bound sat above one pair short of it
    reg = [c + 0.5 for c in counts]
    total = sum(reg)
    m = sum(c * v for c, v in zip(reg, values)) / total
    prior = sum(c * (v - m) ** 2 for c, v in zip(reg, values)) / total
    half = z * math.sqrt(max(variance, prior) / n)
    low, high = mean - half, mean + half
    if low <= 0.0 or high >= 1.0:
        # an end the normal interval puts at or past 0 or 1: the likelihood's own end there
        # (a review: a cut end read as an infinite Elo for 99 games won of 100)
        q = [c / n for c in counts]
        if low <= 0.0:
            low = _likelihood_end(q, values, n, mean, 0.0, z * z / 2)
        if high >= 1.0:
            high = _likelihood_end(q, values, n, mean, 1.0, z * z / 2)
    return (low, high)


def _likelihood_end(q, values, n: int, mean: float, bound: float, cut: float) -> float:
    """The mean s between `mean` and `bound` (0 or 1) where the profile log-likelihood of
    the units, ``n * _min_divergence(q, values, s)``, has fallen `cut` below its peak at
    `mean`: the end of the likelihood-ratio interval on that side (`bound` itself when
    `mean` is there: every unit scored it). Bisection: the divergence grows monotonically
    from `mean`, and without bound toward a `bound` some unit's value is away from."""
    if mean == bound:
        return bound
    near, far = mean, bound
    for _ in range(200):
        mid = (near + far) / 2
        if mid in (near, far):
            break
        if n * _min_divergence(q, values, mid) < cut:
            near = mid
        else:
            far = mid
    return (near + far) / 2


def _unfinished_of(sides: int) -> list:
    """For each count bin k (a unit score of k / sides^2), the unfinished games u, in
    increasing order, a unit of that score may have: ``k = sides * w + u`` with w games
    won and ``w + u <= sides`` ([] for a score no unit has: 8/9 with 3 sides)."""
    return [[u for u in range(k % sides, min(k, sides) + 1, sides) if (k - u) // sides + u <= sides]
            for k in range(sides * sides + 1)]


def _check_z(z) -> float:
    z = as_number(z)
    if not is_number(z) or z <= 0:
        raise OptionError(f"z must be a finite number > 0 (1.959964 for 95 %), not {_short(z)}")
    return z


def _elo_of_end(x: float, sides: int) -> float:
    """The Elo of an interval's end: -inf and +inf at 0 and 1 (not elo_of_score's clamp)."""
    return -math.inf if x <= 0.0 else math.inf if x >= 1.0 else elo_of_score(x, sides)


@dataclass
class PairStats:
    """Counts of unit scores from BOT's side. With 2 sides a unit is a pair, its score
    0, 1/4, 1/2, 3/4 or 1 (the pentanomial counts); with 3 sides a unit is a triple
    (BOT alone in each seat), its score k/9 for k = 0..9.

    Built from ``counts`` alone, ``games``, ``wins`` and ``unfinished`` are derived from
    them (as few unfinished games as each unit's score allows: a pair that scored 1/2
    won one game and lost one); given, they must agree with the counts.

    >>> st = PairStats(sides=3)
    >>> st.add([1, 0, 0]); st.add([0, 1 / 3, 0])
    >>> st.pairs, round(st.score, 4), st.counts[3], st.counts[1]
    (2, 0.2222, 1, 1)
    >>> st = PairStats(counts=[0, 0, 1, 0, 4])       # 4 pairs won twice, 1 won once
    >>> st.games, st.wins, st.unfinished
    (10, 9, 0)
    """

    sides: int = 2
    counts: list = None
    games: int = 0
    wins: int = 0
    unfinished: int = 0
    # units by the games BOT won in them (won[j]: units with j won, j = 0 .. sides); kept by
    # add() and derived from counts where they tell it; None where they do not
    won: list = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self):
        self.sides = _check_sides(self.sides)
        sides = self.sides
        bins = sides * sides + 1
        if isinstance(self.counts, list):
            self.counts = [as_int(c) for c in self.counts]
        if self.counts is None:
            self.counts = [0] * bins
        elif (not isinstance(self.counts, list) or len(self.counts) != bins
              or not all(_is_int(c) and c >= 0 for c in self.counts)):
            raise OptionError(f"counts must be None or a list of {bins} unit counts >= 0, not {_short(self.counts)}")
        for name in ("games", "wins", "unfinished"):
            setattr(self, name, as_int(getattr(self, name)))
            if not _is_int(getattr(self, name)) or getattr(self, name) < 0:
                raise OptionError(f"{name} must be an integer >= 0, not {_short(getattr(self, name))}")
        # a unit of bin k (score k / sides^2) won w of its games and left u unfinished, with
        # k = sides w + u and w + u <= sides: _unfinished_of(sides)[k] lists the u it may have
        options = _unfinished_of(sides)
        for k, c in enumerate(self.counts):
            if c and not options[k]:
                raise OptionError(f"counts: no unit of {sides} games scores {k}/{sides * sides} "
                                  f"(counts[{k}] = {c})")
        units = sum(self.counts)
        points = sum(k * c for k, c in enumerate(self.counts))
        fewest = sum(options[k][0] * c for k, c in enumerate(self.counts) if c)
        most = sum(options[k][-1] * c for k, c in enumerate(self.counts) if c)
        if self.games == 0:
            self.games = sides * units          # (a review: counts of 5 pairs had 0 games)
        if self.wins == 0 and self.unfinished == 0:
            self.wins, self.unfinished = (points - fewest) // sides, fewest
        if self.games != sides * units:
            raise OptionError(f"games must be {sides} a unit ({sides * units} for the counts' {units} units), "
                              f"not {self.games}")
        if sides * self.wins + self.unfinished != points or not fewest <= self.unfinished <= most:
            raise OptionError(f"wins {self.wins} and unfinished {self.unfinished} do not fit the counts "
                              f"{_short(self.counts, 60)} (a unit scoring k/{sides * sides} won w games and left u "
                              f"unfinished, k = {sides} w + u)")
        if self.unfinished == fewest:
            # every unit at its fewest unfinished games: its games won are known
            self.won = [0] * (sides + 1)
            for k, c in enumerate(self.counts):
                if c:
                    self.won[(k - options[k][0]) // sides] += c

    @property
    def _step(self) -> float:
        """The score of one count bin: a unit's games times the sides, over one."""
        return 1.0 / (self.sides * self.sides)

    def add(self, game_scores) -> None:
        """Add one unit: BOT's score in each of its games (1, 0, or an unfinished game's
        equal share 1/sides), two games for a pair and three for a triple."""
        share = 1.0 / self.sides
        if isinstance(game_scores, (list, tuple)):
            game_scores = [as_int(x) for x in game_scores]
        if (not isinstance(game_scores, (list, tuple)) or len(game_scores) != self.sides
                or any(isinstance(x, bool) or not isinstance(x, (int, float))
                       or not (x in (0, 1) or abs(x - share) < 1e-9) for x in game_scores)):
            raise OptionError(f"a unit of {self.sides} sides is {self.sides} game scores of 0, 1 or "
                              f"{share:.4g}, not {_short(game_scores)}")
        won = sum(1 for x in game_scores if x == 1)
        self.counts[int(round(self.sides * sum(game_scores)))] += 1
        self.games += self.sides
        self.wins += won
        self.unfinished += sum(1 for x in game_scores if 0 < x < 1)
        if self.won is not None:
            self.won[won] += 1

    @property
    def pairs(self) -> int:
        """Units played (pairs, or triples with 3 sides)."""
        return sum(self.counts)

    @property
    def score(self) -> float:
        """BOT's mean unit score; NaN before any unit (no score was measured)."""
        n = self.pairs
        return sum(c * k * self._step for k, c in enumerate(self.counts)) / n if n else math.nan

    @property
    def all_won(self) -> bool:
        """BOT won every game (a sweep: a score of 1)."""
        return self.pairs > 0 and self.counts[-1] == self.pairs

    @property
    def all_lost(self) -> bool:
        """BOT lost every game (an OTHER won each: a score of 0)."""
        return self.pairs > 0 and self.counts[0] == self.pairs

    @property
    def win_rate(self) -> float:
        """BOT's share of the games it won outright; NaN before any game."""
        return self.wins / self.games if self.games else math.nan

    @property
    def variance(self) -> float:
        """Per-pair variance of the pair score."""
        n = self.pairs
        if n == 0:
            return 0.0
        m = self.score
        return sum(c * (k * self._step - m) ** 2 for k, c in enumerate(self.counts)) / n

    def interval(self, z: float = Z95) -> tuple:
        """95 % interval of the mean score over the units: the normal one from the unit
        variance, that variance taken at least as large as that of a prior of half a unit
        on every outcome (units that all scored the same show no spread to estimate it
        from, and a few units, or units nearly all alike, show too little). Where that
        interval would reach past 0 or 1, its end there is the profile likelihood's (the
        mean s at which ``n * D(s)`` reaches ``z^2 / 2``, D the least Kullback-Leibler
        divergence from the units' distribution to one of mean s: :func:`_min_divergence`),
        which is strictly inside unless every unit scored 0 (or 1). ``z``: the normal
        quantile (> 0).

        >>> st = PairStats()
        >>> for _ in range(10): st.add([1, 1])
        >>> [round(x, 4) for x in st.interval()]
        [0.842, 1.0]
        >>> st.add([1, 0]); [round(x, 4) for x in st.interval()]      # 21 games of 22: a finite top
        [0.7969, 0.9973]
        """
        return _unit_interval(self.counts, self.sides, _check_z(z))

    def win_interval(self, z: float = Z95) -> tuple:
        """95 % interval of :attr:`win_rate` over the units, by the rule of :meth:`interval`
        on each unit's share of games won: equal to the score's interval when no game was
        unfinished (the units, not the games, are independent: a pair's two games share
        its deals)."""
        z = _check_z(z)
        if self.won is None:
            raise OptionError("which units' games were won is not known: these counts were given with more "
                              "unfinished games than the fewest they allow (add() keeps it)")
        counts = [0] * len(self.counts)
        for j, c in enumerate(self.won):
            counts[j * self.sides] += c
        return _unit_interval(counts, self.sides, z)

    def _prior_variance(self) -> float:
        """The unit score's variance with half a unit added to every outcome."""
        reg = [c + 0.5 for c in self.counts]
        total = sum(reg)
        m = sum(c * k * self._step for k, c in enumerate(reg)) / total
        return sum(c * (k * self._step - m) ** 2 for k, c in enumerate(reg)) / total

    @property
    def elo(self) -> float:
        """The Elo difference of the mean score: ``math.inf`` when BOT won every game,
        ``-math.inf`` when it lost every one (no estimate: the interval has one finite end),
        NaN before any unit."""
        if not self.pairs:
            return math.nan
        if self.all_won or self.all_lost:
            return math.inf if self.all_won else -math.inf
        return elo_of_score(self.score, self.sides)

    def elo_interval(self, z: float = Z95) -> tuple:
        """The Elo of :meth:`interval`'s ends: infinite only at a score of 0 or 1, i.e. only
        for a sweep's open end (or before any unit)."""
        lo, hi = self.interval(z)
        return (_elo_of_end(lo, self.sides), _elo_of_end(hi, self.sides))

    def format_elo(self, bot: str = "BOT", digits: int = 1) -> str:
        """The Elo and its interval as text; a sweep as its one finite end, in words.

        >>> st = PairStats(counts=[0, 0, 0, 0, 14])
        >>> st.format_elo("greedy")
        'Elo +348.8 or more (greedy won all 28 games: a 95 % lower bound, no point estimate)'
        >>> PairStats(counts=[1, 0, 2, 0, 1]).format_elo()
        'Elo +0.0 [-296.6, +296.6]'
        """
        lo, hi = self.elo_interval()
        text = [format_elo(x, digits, self.sides) for x in (lo, hi)]
        if not self.pairs:
            return "Elo unknown (no games played)"
        if self.all_won:
            return f"Elo {text[0]} or more ({bot} won all {self.games} games: a 95 % lower bound, no point estimate)"
        if self.all_lost:
            return f"Elo {text[1]} or less ({bot} lost all {self.games} games: a 95 % upper bound, no point estimate)"
        return f"Elo {format_elo(self.elo, digits, self.sides)} [{text[0]}, {text[1]}]"

    def llr(self, elo0: float, elo1: float) -> float:
        """The generalised log-likelihood ratio of H1 (elo1) against H0 (elo0), exact
        (fishtest's GSPRT without its normal approximation): ``n (D(s0) - D(s1))``,
        D(s) the least Kullback-Leibler divergence from q, the units' distribution over
        the outcomes, to a distribution whose mean unit score is s (``_min_divergence``).
        elo1 must be larger than elo0.

        q holds SPRT_PRIOR_UNITS of prior, on the lowest and the highest outcome with the
        mean (s0 + s1) / 2: every mean from 0 to 1 stays reachable, so identical units
        are decided, and the prior leans to neither hypothesis (a prior of mean 1/2,
        which with 3 sides is +120 Elo, once pulled the test toward H1). Pairs all won
        accept H1 at alpha = 0.05 after 54 pairs with elo 0 / +20, 13 with 0 / +100, 2
        with -400 / +400: each adds about ``log(s1 / s0)``, as a pair's two games may
        be wholly alike. The normal approximation this replaced decided wrongly in up
        to 7 % of tests asked for 5 % with windows of 100 Elo (docs/matches.md).

        >>> st = PairStats(sides=3)
        >>> for _ in range(10): st.add([1, 0, 0])      # a score of 1/3: exactly H0's Elo 0
        >>> st.llr(0, 15) < 0 < st.llr(-15, 0)
        True
        """
        s0, s1 = score_of_elo(elo0, self.sides), score_of_elo(elo1, self.sides)
        if not as_number(elo1) > as_number(elo0):
            # (a review: elo0 > elo1 gave a value, which sprt() refuses)
            raise OptionError(f"elo1 ({elo1}) must be larger than elo0 ({elo0})")
        n = self.pairs
        if n == 0:
            return 0.0
        mid = (s0 + s1) / 2
        q = [float(c) for c in self.counts]
        q[0] += SPRT_PRIOR_UNITS * (1 - mid)
        q[-1] += SPRT_PRIOR_UNITS * mid
        total = n + SPRT_PRIOR_UNITS
        q = [c / total for c in q]
        values = [k * self._step for k in range(len(q))]
        return n * (_min_divergence(q, values, s0) - _min_divergence(q, values, s1))

    def to_dict(self) -> dict:
        """The statistics as JSON: an infinite Elo (a sweep's, an open end) is null, and
        ``all_won`` / ``all_lost`` say when BOT won / lost every game; the score and Elo
        are null before any unit."""
        lo, hi = self.interval()
        elo_lo, elo_hi = self.elo_interval()
        counts = {"pentanomial": list(self.counts)} if self.sides == 2 else {"counts": list(self.counts)}

        def number(x):                  # JSON has no inf nor NaN
            return x if math.isfinite(x) else None
        return {"sides": self.sides, "pairs": self.pairs, "games": self.games, "wins": self.wins,
                "unfinished": self.unfinished, **counts, "score": number(self.score), "score_ci95": [lo, hi],
                "elo": number(self.elo), "elo_ci95": [number(elo_lo), number(elo_hi)],
                "all_won": self.all_won, "all_lost": self.all_lost}


def _min_divergence(q, values, s: float) -> float:
    """The least Kullback-Leibler divergence ``sum_k q_k log(q_k / p_k)`` from the
    distribution `q` over `values` (0 the lowest, 1 the highest, both with mass) to a
    distribution p over them with mean `s` (0 < s < 1). By its dual it is the largest
    ``sum_k q_k log(1 + x (v_k - s))`` over x in (-1/(1 - s), 1/s), where
    ``p_k = q_k / (1 + x (v_k - s))``; that function is concave, so x is found by
    bisection on the root of its derivative.

    >>> round(_min_divergence([0.5, 0.5], [0.0, 1.0], 0.5), 12)   # q has mean 0.5 already
    0.0
    >>> p = 0.3; round(_min_divergence([1 - p, p], [0.0, 1.0], 0.5) - (p * math.log(p / 0.5)
    ...     + (1 - p) * math.log((1 - p) / 0.5)), 12)                 # two outcomes: Bernoulli's
    0.0
    """
    d = [v - s for v in values]
    lo, hi = -1.0 / (1.0 - s), 1.0 / s
    x = (lo + hi) / 2
    for _ in range(200):            # about 60 halvings reach a float's precision
        slope = sum(qk * dk / (1 + x * dk) for qk, dk in zip(q, d) if qk)
        if slope > 0:
            lo = x
        else:
            hi = x
        nxt = (lo + hi) / 2
        if nxt in (lo, hi):
            break
        x = nxt
    return sum(qk * math.log1p(x * dk) for qk, dk in zip(q, d) if qk)


def sprt_bounds(alpha: float, beta: float) -> tuple:
    """(lower, upper) LLR bounds: below accepts H0, above accepts H1.

    >>> [round(x, 3) for x in sprt_bounds(0.05, 0.05)]
    [-2.944, 2.944]
    """
    alpha, beta = as_number(alpha), as_number(beta)
    for name, x in (("alpha", alpha), ("beta", beta)):
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not 0 < x < 0.5:
            raise OptionError(f"{name} must be a number in (0, 0.5), not {_short(x)}")
    return (math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha))


def sides_of(players: int) -> int:
    """Sides of a game: 2 with 2 or 4 players (partners), 3 with 3."""
    return 3 if check_players(players) == 3 else 2


def _game_score(game, bot_side: int) -> float:
    if game.winner is None:
        return 1.0 / sides_of(game.players)   # unfinished (D6): an equal share
    return 1.0 if game.winner == bot_side else 0.0


class PairJob(NamedTuple):
    """One duplicate unit to play (:func:`play_pair`): a tuple, named when a run's error
    names it (a review: a worker that died named "the first not finished" as nine bare
    fields)."""
    players: int
    bot: str
    other: str
    index: int              # the unit's number in its match
    deal_seed: int
    bot_seed: int
    max_rounds: int
    records: bool           # the games' records wanted
    move_time: Optional[float]

    def __repr__(self) -> str:
        limit = "" if self.move_time is None else f", {format_number(self.move_time, 'g')} s a move"
        return (f"unit {self.index} of {self.bot[:60]} v {self.other[:60]} ({self.players} players, deal seed "
                f"{self.deal_seed}, bot seed {self.bot_seed}{limit})")


def play_pair(job) -> tuple:
    """(unit index, [BOT's score with BOT on side 0, on side 1 (, on side 2)], records or None)
    for one deal sequence. The job: a :class:`PairJob` (or a tuple of its fields: players,
    bot, other, index, deal seed, bot seed, max_rounds, want_records, move_time). A bot's
    failure is its BotError, the unit and the seating after it (its game replays as
    ``selfplay.play_game(players, deal_seed, seats, bot_seed=bot_seed)`` with the seats of
    :func:`~fiveup_solver.selfplay.match_seatings`)."""
    players, bot, other, index, deal_seed, bot_seed, max_rounds, want_records, move_time = job
    scores, records = [], []
    for side, seats in enumerate(match_seatings(players, bot, other)):
        try:
            game = play_game(players, deal_seed, seats, bot_seed=bot_seed, max_rounds=max_rounds,
                             move_time=move_time)
        except BotError as e:
            raise BotError(f"{e} (in unit {index}, seating {side}: {', '.join(s[:60] for s in seats)})") from e.__cause__
        scores.append(_game_score(game, side))
        if want_records:
            records.append(game.to_record())
    return index, scores, (records if want_records else None)


def pair_seeds(seed: int, index: int) -> tuple:
    """(deal seed, bot seed) of pair `index`: from the match seed and the index alone."""
    rng = random.Random(f"fiveup-pair/{seed}/{index}")
    return rng.getrandbits(63), rng.getrandbits(63)


def play_pairs(players: int, bot: str, other: str, seed: int, *, workers: int = 1, max_pairs: int,
               max_rounds: int = 1000, start: int = 0, records: bool = False, ray: str | None = None,
               move_time: float | None = None):
    """An iterator of (index, scores, records) for units (pairs; triples with 3 players) start ..
    start + max_pairs - 1, in index order, played in `workers` processes or on Ray (the
    results never depend on either). Unit k's deals and bot generators come from
    :func:`pair_seeds` ``(seed, k)``; its games are played in the seatings of
    :func:`~fiveup_solver.selfplay.match_seatings`, in order. ``records``: True to have
    each unit's game records (else None). ``move_time``: seconds a bot may take over one
    move (a slower move stops the match with a BotError). Every argument is checked at
    the call, before anything is played (a review: a generator checked them at its first
    ``next()``, far from the bad call)."""
    players = check_players(players)
    check_move_time(move_time)
    check_bot(bot, players)
    check_bot(other, players)
    max_pairs, start, max_rounds = as_int(max_pairs), as_int(start), as_int(max_rounds)
    for name, v in (("max_pairs", max_pairs), ("start", start)):
        if not _is_int(v) or v < 0:
            raise OptionError(f"{name} must be an integer >= 0, not {_short(v)}")
    if not _is_int(max_rounds) or max_rounds < 1:
        raise OptionError(f"max_rounds must be an integer >= 1, not {_short(max_rounds)}")
    if not isinstance(records, bool):
        raise OptionError(f"records must be True or False, not {_short(records)}")
    seed = check_seed(seed)
    workers = check_workers(workers)
    ray = check_ray(ray)
    jobs = (PairJob(players, bot, other, k, *pair_seeds(seed, k), max_rounds, records, move_time)
            for k in range(start, start + max_pairs))
    stop_hung = move_time is not None
    return _yield_units(jobs, workers, ray, stop_hung, pairs_setup([bot, other], workers, ray, stop_hung))


def pairs_setup(bots, workers: int, ray, stop_hung: bool):
    """ordered_map's ``setup`` for play_pair jobs of ``bots``: the bots registered in this
    process, sent to the worker processes the run has (refused now if they cannot go), or
    None when it plays in this process."""
    if workers > 1 or ray is not None or stop_hung:
        return worker_setup(bots, ray is not None)
    return None


def _yield_units(jobs, workers: int, ray, stop_hung: bool, setup=None):
    """play_pairs' generator, its arguments checked (closing it ends the workers)."""
    yield from ordered_map(play_pair, jobs, workers=workers, ray=ray, stop_hung=stop_hung, setup=setup)


@dataclass
class SprtResult:
    decision: str              # "H1 accepted", "H0 accepted" or "no decision"
    llr: float
    bounds: tuple
    stats: PairStats

    @property
    def win_rate(self) -> float:
        """BOT's share of the games it won outright (NaN before any game)."""
        return self.stats.win_rate

    def win_interval(self) -> tuple:
        """95 % interval of :attr:`win_rate` over the units (:meth:`PairStats.win_interval`:
        as `fiveup match` reports it; the score's interval when no game was unfinished)."""
        return self.stats.win_interval()

    def to_dict(self) -> dict:
        rate = self.win_rate
        return {"decision": self.decision, "llr": self.llr, "bounds": list(self.bounds), **self.stats.to_dict(),
                "win_rate": rate if math.isfinite(rate) else None, "win_ci95": list(self.win_interval())}


JOURNAL_LINE_BYTES = 2 ** 20     # the most one journal line takes (a unit's line: well under 1 KiB)


def journal_lines(path: str) -> tuple:
    """(lines, size): the complete lines of a JSON Lines journal and the bytes they take
    (([], 0) when there is none). A last line without its newline is a run killed while
    writing it: it is not read, and :func:`open_journal` cuts it off before appending (its
    unit is played again, with the same result). A journal that cannot be read, or is not
    UTF-8 text, is one OptionError."""
    if not os.path.exists(path):
        return [], 0
    complete = []
    try:
        with open(path, "rb") as f:
            # a line at a time, each at most JOURNAL_LINE_BYTES: a file that is no journal
            # (/dev/zero, a large file of no line ends) is refused without reading it all
            while True:
                line = f.readline(JOURNAL_LINE_BYTES + 1)
                if not line.endswith(b"\n"):
                    if len(line) > JOURNAL_LINE_BYTES:
                        raise OptionError(f"journal {path}: not a journal (line {len(complete) + 1} is longer "
                                          f"than {JOURNAL_LINE_BYTES // 2 ** 10} KiB)")
                    if line.strip() and not complete:
                        # no whole line, so no header to check: cut off as a killed run's last
                        # line, any such file (a text without a newline, lines ending in "\r"
                        # only) was emptied and overwritten (a review)
                        raise OptionError(f"journal {path}: not a journal, or one whose header a stop cut "
                                          f"(no whole line: remove it to start again)")
                    break       # the end, or a last line without its newline (above)
                complete.append(line)
    except OSError as e:
        raise OptionError(f"journal {path}: cannot read ({e.strerror or e})") from None
    data = b"".join(complete)
    size = len(data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise OptionError(f"journal {path}: not a journal (not UTF-8 text)") from None
    # lines end at "\n", "\r\n" or "\r" only: str.splitlines also splits at U+2028, U+2029
    # and U+0085, which a JSON string may hold raw (a raw "\r" or "\n" it never holds)
    return [line for line in text.replace("\r", "\n").split("\n") if line.strip()], size


def open_journal(path: str, size: int):
    """The journal opened for appending after its first `size` bytes (journal_lines)."""
    try:
        log = open(path, "a", encoding="utf-8")
    except OSError as e:
        raise OptionError(f"journal {path}: cannot write ({e.strerror or e})") from None
    try:
        if log.tell() > size:
            log.truncate(size)
    except OSError as e:
        log.close()
        raise OptionError(f"journal {path}: cannot write ({e.strerror or e})") from None
    return log


def write_journal(log, row: dict) -> None:
    """One line of a journal, on disk before the next unit starts."""
    try:
        log.write(json.dumps(row) + "\n")
        log.flush()
    except OSError as e:
        raise OptionError(f"journal {log.name}: cannot write ({e.strerror or e})") from None


def read_journal(path, players: int, bot: str, other: str, seed: int) -> list:
    """The unit scores of an SPRT journal, in pair order ([] when the file does not exist).

    A journal is JSON Lines: a header ``{"players", "bot", "other", "seed"}``, then one
    ``{"index": k, "scores": [...]}`` per unit, k = 0, 1, ... A journal of another match, or
    one whose units are out of order or damaged, is refused with one line naming the line."""
    return _journal_units(path, journal_lines(path)[0], {"players": players, "bot": bot, "other": other,
                                                         "seed": seed})


def _journal_units(path: str, lines: list, want: dict) -> list:
    """read_journal of a journal's lines (journal_lines), its header `want`."""
    units = []
    sides = sides_of(want["players"])
    for n, line in enumerate(lines, 1):
        try:
            row = json.loads(line)
        except (ValueError, RecursionError):
            raise OptionError(f"journal {path} line {n}: not JSON (or nested too deeply)") from None
        if n == 1:
            if row != want:
                # name the fields that differ (the whole headers, cut to a line, hid them)
                if not isinstance(row, dict):
                    raise OptionError(f"journal {path} line 1: a header object, not {_short(row)}")
                if not set(want) <= set(row) or not set(row) <= set(want):
                    # (a review: a unit's line, or an sprt --json result, was read as another
                    # match's header, field by field)
                    raise OptionError(f"journal {path} line 1: not an sprt journal's header (the fields "
                                      f"{', '.join(want)}; it has {_short(', '.join(map(str, row)), 80)})")
                diff = [f"{k} {_short(row.get(k), 24)} (this match: {_short(want.get(k), 24)})"
                        for k in sorted(set(row) | set(want), key=str) if row.get(k) != want.get(k)]
                raise OptionError(f"journal {path} is of another match: " + "; ".join(diff))
            continue
        scores = row.get("scores") if isinstance(row, dict) else None
        # a game scores 1, 0 or an unfinished game's share 1/sides (PairStats.add): a line that
        # read 0.7 was taken here and refused later without its line
        if (not isinstance(row, dict) or row.get("index") != len(units) or not isinstance(scores, list)
                or len(scores) != sides
                or not all(is_number(x) and (x in (0, 1) or abs(x - 1 / sides) < 1e-9) for x in scores)):
            raise OptionError(f"journal {path} line {n}: expected unit {len(units)} as "
                              f'{{"index": {len(units)}, "scores": [...]}} ({sides} game scores of 0, 1 or '
                              f"{1 / sides:.4g})")
        units.append(row["scores"])
    return units


def sprt(players: int, bot: str, other: str, *, elo0: float = 0.0, elo1: float = 20.0, alpha: float = 0.05,
         beta: float = 0.05, max_games: int = 20_000, seed: int = 0, workers: int = 1, ray: str | None = None,
         on_pair=None, journal: str | None = None, move_time: float | None = None) -> SprtResult:
    """Play pairs until the LLR of H1 (elo1) against H0 (elo0) leaves its bounds, or
    `max_games` games (whole units: with 2 sides an odd count plays one game fewer).
    ``on_pair(stats, llr)`` after every pair (for a progress line).
    With 3 players the units are triples and Elo is :func:`score_of_elo`'s with 3 sides.
    ``journal``: a file that keeps every unit's scores (:func:`read_journal`); a run with
    the same journal, players, bots and seed resumes after its last unit. ``move_time``:
    seconds a bot may take over one move (:func:`play_pairs`)."""
    _check_callback(on_pair, "on_pair")       # (a review: a bad one failed after the first unit)
    lower, upper = sprt_bounds(alpha, beta)
    check_move_time(move_time)
    elo0, elo1, max_games = as_number(elo0), as_number(elo1), as_int(max_games)
    for name, x in (("elo0", elo0), ("elo1", elo1)):
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not -1000 <= x <= 1000:
            raise OptionError(f"{name} must be a number of Elo from -1000 to 1000, not {_short(x)}")
    if not elo1 > elo0:
        raise OptionError(f"elo1 ({elo1}) must be larger than elo0 ({elo0})")
    if not _is_int(max_games) or not 2 <= max_games <= 10_000_000:
        raise OptionError(f"max_games must be an integer from 2 to 10000000, not {_short(max_games)}")
    players = check_players(players)
    if max_games < sides_of(players):
        # whole units only: fewer games than one unit would still play a whole unit
        raise OptionError(f"max_games must be at least one unit's games ({sides_of(players)} with {players} "
                          f"players), not {max_games}")
    stats = PairStats(sides=sides_of(players))
    llr = 0.0
    check_bot(bot, players)      # bad names, and bots of other player counts, refused before a journal
    check_bot(other, players)
    if journal is not None and not isinstance(journal, str):
        raise OptionError(f"journal must be a file name, not {_short(journal)}")
    lines, size = ([], 0) if journal is None else journal_lines(journal)     # the journal read once
    done = _journal_units(journal, lines, {"players": players, "bot": bot, "other": other, "seed": seed})
    units = max(1, max_games // stats.sides)
    # the journaled units are the test's first ones, taken one at a time with the bounds
    # looked at after each, as when they were played: a resumed run ends where one
    # uninterrupted run of these settings ends (its bounds and cap may differ from the run
    # that wrote the journal: a unit's scores do not depend on them)
    for scores in done[:units]:
        stats.add(scores)
        llr = stats.llr(elo0, elo1)
        if llr >= upper or llr <= lower:
            return SprtResult("H1 accepted" if llr >= upper else "H0 accepted", llr, (lower, upper), stats)
    if len(done) >= units:
        return SprtResult("no decision", llr, (lower, upper), stats)
    # (its arguments checked before the journal is written to: play_pairs checks at the call)
    pairs = play_pairs(players, bot, other, seed, workers=workers, start=len(done),
                       max_pairs=units - len(done), ray=ray, move_time=move_time)
    log = None
    if journal is not None:
        log = open_journal(journal, size)
        if not lines:                      # no header yet
            write_journal(log, {"players": players, "bot": bot, "other": other, "seed": seed})
    try:
        for index, scores, _ in pairs:
            stats.add(scores)
            if log is not None:
                write_journal(log, {"index": index, "scores": scores})
            llr = stats.llr(elo0, elo1)
            if on_pair is not None:
                on_pair(stats, llr)
            if llr >= upper:
                return SprtResult("H1 accepted", llr, (lower, upper), stats)
            if llr <= lower:
                return SprtResult("H0 accepted", llr, (lower, upper), stats)
    finally:
        pairs.close()
        if log is not None:
            log.close()
    return SprtResult("no decision", llr, (lower, upper), stats)
