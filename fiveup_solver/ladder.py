"""The Elo ladder of the graded levels: a round-robin of duplicate pairs, Bradley–Terry.

Every pairing of entrants plays ``games`` games: ``games / 2`` deal sequences,
each from both seatings (a duplicate pair; the deals depend only on the
ladder's seed, the pairing and the pair's index). A pair scores 0, 0.5, 1,
1.5 or 2 for the first entrant; the ladder keeps, per pairing, how many pairs
scored each (the pentanomial counts), which is all the fit needs.

*Fit*: Bradley–Terry by maximum likelihood on the Elo scale,
P(i beats j) = 1 / (1 + 10^((R_j - R_i) / 400)), every game a trial (an
unfinished game counts half), with one virtual drawn game per pairing as a
weak prior (it keeps the fit finite when one entrant wins every game), and
the anchor ``level1`` (uniformly random play) at 0. *Intervals*: 95 %
percentile intervals from a parametric bootstrap over pairs: each pairing's
pairs are redrawn from its pentanomial frequencies and the ladder refitted
(pairs, not games, are the independent unit of a duplicate match); a
pairing whose pairs all scored the same is redrawn with half a pair added to
each outcome, so that it does not read as exact. A neighbour's step is
*significant* when its interval excludes 0.

>>> counts = {("a", "b"): [0, 0, 4, 2, 4]}    # pairs scoring 0, .5, 1, 1.5, 2 for a: 15 of 20 games
>>> elo = fit_elo(counts, ["a", "b"], anchor="b")
>>> round(elo["a"])                           # with the virtual draw 15.5 of 21: 400 log10(15.5 / 5.5)
180
"""
from __future__ import annotations

import json
import math
import os
import random
from dataclasses import dataclass, field

import numpy as np

from fiveup_solver.bots import check_bot, check_move_time, not_a_bot_name
from fiveup_solver.errors import (OptionError, as_int, check_seed, is_int as _is_int, name_fault, is_number,
                                  short_repr as _short)
from fiveup_solver.levels import LEVELS, Level, recipe_stamp
from fiveup_solver.match import PairJob, journal_lines, pairs_setup, open_journal, pair_seeds, play_pair, write_journal
from fiveup_solver.parallel import check_ray, check_workers, ordered_map
from fiveup_solver.selfplay import _check_callback

__all__ = ["LadderResult", "run_ladder", "fit_elo", "bootstrap_elo", "load_ladder", "ladder_path",
           "Placement", "place_agent", "placement_interval", "placement_seed", "DEFAULT_ENTRANTS", "ANCHOR"]

ANCHOR = "level1"                   # random play: 0 Elo
ELO_SCALE = 400.0 / math.log(10.0)  # Elo per natural-log unit of odds
PAIR_SCORES = (0.0, 0.5, 1.0, 1.5, 2.0)
MAX_PAIRS = 10 ** 9                 # most pairs one pentanomial count holds (a run plays 500,000 a pairing at most)


def _pair_points(counts) -> float:
    """Games won in pentanomial counts (a pair scores 0, 1/2, 1, 3/2 or 2 games)."""
    return sum(k * s for k, s in zip(counts, PAIR_SCORES))


def _is_pentanomial(c) -> bool:
    """Five pair counts, whole numbers from 0 to MAX_PAIRS."""
    return isinstance(c, (list, tuple)) and len(c) == 5 and all(_is_int(x) and 0 <= x <= MAX_PAIRS for x in c)


def _default_entrants() -> list:
    return list(LEVELS)


DEFAULT_ENTRANTS = tuple(_default_entrants())


def ladder_path(players: int = 2) -> str:
    return os.path.join(os.path.dirname(__file__), "data", f"ladder_{players}p.json")


# ---------------------------------------------------------------- the fit
def _totals(counts: dict, names: list):
    """(pairings [(i, j)], score of i, games) from pentanomial counts per pairing."""
    index = {n: k for k, n in enumerate(names)}
    pairings, scores, games = [], [], []
    for (a, b), c in counts.items():
        if a not in index or b not in index or a == b:
            raise OptionError(f"pairing {a!r} v {b!r} names an entrant not in the ladder")
        pairs = sum(c)
        if pairs == 0:
            continue
        pairings.append((index[a], index[b]))
        scores.append(_pair_points(c))
        games.append(2 * pairs)
    return pairings, scores, games


def _fit(n: int, pairings, scores, games, anchor: int, prior: float = 1.0) -> list:
    """Newton's method on the concave BT log-likelihood (natural-log units)."""
    theta = np.zeros(n)
    free = [k for k in range(n) if k != anchor]
    pos = {k: m for m, k in enumerate(free)}
    w = np.array(scores, float) + 0.5 * prior
    g_ = np.array(games, float) + prior
    ii = np.array([p[0] for p in pairings], int)
    jj = np.array([p[1] for p in pairings], int)
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(theta[jj] - theta[ii]))
        resid = w - g_ * p
        info = g_ * p * (1.0 - p)
        grad = np.zeros(n)
        np.add.at(grad, ii, resid)
        np.add.at(grad, jj, -resid)
        hess = np.zeros((n, n))
        np.add.at(hess, (ii, ii), info)
        np.add.at(hess, (jj, jj), info)
        np.add.at(hess, (ii, jj), -info)
        np.add.at(hess, (jj, ii), -info)
        h = hess[np.ix_(free, free)]
        try:
            step = np.linalg.solve(h, grad[free])
        except np.linalg.LinAlgError:
            raise OptionError("the ladder's pairings do not connect every entrant to the anchor") from None
        step = np.clip(step, -2.0, 2.0)          # damped: far-apart entrants converge without overshoot
        for k in free:
            theta[k] += step[pos[k]]
        if np.max(np.abs(step)) < 1e-10:
            break
    return list(theta * ELO_SCALE)


def _check_fit(counts, names, anchor, prior) -> list:
    """`names` as a list, once what a fit reads is checked: ``counts`` a dict {(a, b): five
    pair counts from 0 to MAX_PAIRS}, ``names`` distinct entrant names with ``anchor``
    among them, ``prior`` a finite number of virtual games > 0."""
    if (isinstance(names, str) or not isinstance(names, (list, tuple)) or not all(isinstance(n, str) for n in names)
            or len(set(names)) != len(names)):
        raise OptionError(f"names must be a list of distinct entrant names, not {_short(names)}")
    if not isinstance(anchor, str) or anchor not in names:
        raise OptionError(f"the anchor {_short(anchor)} is not an entrant")
    if not isinstance(counts, dict):
        raise OptionError(f"counts must be a dict {{(a, b): pentanomial}}, not {_short(counts)}")
    for key, c in counts.items():
        if not isinstance(key, tuple) or len(key) != 2:
            raise OptionError(f"counts: a pairing is a tuple (a, b) of entrants, not {_short(key)}")
        if not _is_pentanomial(c):
            raise OptionError(f"counts: pairing {_short(key[0])} v {_short(key[1])}: its pentanomial must be five "
                              f"counts >= 0 (at most 10^9 each), not {_short(c)}")
    if not is_number(prior) or prior <= 0:
        raise OptionError(f"prior must be a finite number > 0 (virtual drawn games a pairing), not {_short(prior)}")
    return list(names)


def fit_elo(counts: dict, names: list, anchor: str = ANCHOR, prior: float = 1.0) -> dict:
    """Elo of every entrant (anchor = 0) from pentanomial counts per pairing: ``counts``
    {(a, b): pairs scoring 0, 1/2, 1, 3/2, 2 for a}, each count an integer from 0 to
    10^9 (MAX_PAIRS); ``prior`` virtual drawn games a pairing (> 0)."""
    names = _check_fit(counts, names, anchor, prior)
    pairings, scores, games = _totals(counts, names)
    elo = _fit(len(names), pairings, scores, games, names.index(anchor), prior)
    return dict(zip(names, elo))


def bootstrap_elo(counts: dict, names: list, anchor: str = ANCHOR, *, resamples: int = 1000, seed: int = 0,
                  prior: float = 1.0):
    """Bootstrap fits: a (resamples x entrants) array of Elo, pairs redrawn per pairing.
    ``resamples``: an integer from 100 to 100000 (the array's rows; each is a fit); ``seed``:
    an integer from 0 to 2^64 - 1; the rest as :func:`fit_elo`."""
    names = _check_fit(counts, names, anchor, prior)
    resamples = _check_resamples(resamples)
    seed = check_seed(seed)
    rng = np.random.default_rng(seed)
    keys = [k for k, c in counts.items() if sum(c) > 0]
    draw_from, expected = {}, {}
    for k in keys:
        c = np.asarray(counts[k], float)
        expected[k] = counts[k]
        if np.count_nonzero(c) == 1:
            # every pair scored the same: no spread to redraw from (a zero-width
            # interval); half a pair per outcome, as the SPRT's prior and the match
            # interval in that case (match.py)
            c = c + 0.5
            expected[k] = list(c / c.sum() * sum(counts[k]))
        draw_from[k] = c / c.sum()
    # the added halves move the redraws' mean score as well as their spread (level1's 0 of
    # 200 against level7 and level8 with 4 players put every interval 8 to 14 Elo low): the
    # fits are moved back by what the halves alone move the fit (0 where nothing was added)
    index = names.index(anchor)
    bias = (np.array(_fit(len(names), *_totals(expected, names), index, prior))
            - np.array(_fit(len(names), *_totals(counts, names), index, prior)))
    out = np.empty((resamples, len(names)))
    for r in range(resamples):
        redrawn = {k: list(rng.multinomial(int(sum(counts[k])), draw_from[k])) for k in keys}
        pairings, scores, games = _totals(redrawn, names)
        out[r] = np.array(_fit(len(names), pairings, scores, games, index, prior)) - bias
    return out


# ---------------------------------------------------------------- the result
class Ratings(dict):
    """{entrant: value} of a ladder (its ``elo`` and ``ci95``): a name not on the ladder is
    an :class:`~fiveup_solver.errors.OptionError` naming the entrants, not a bare KeyError.

    >>> Ratings({"greedy": 0.0})["levle2"]
    Traceback (most recent call last):
    ...
    fiveup_solver.errors.OptionError: 'levle2' is not on the ladder (its entrants: greedy)
    """

    def __missing__(self, name):
        raise OptionError(f"{_short(name, 40)} is not on the ladder (its entrants: {', '.join(self)})")


@dataclass
class LadderResult:
    players: int
    entrants: list
    counts: dict                  # (a, b) -> pentanomial counts of a's pair scores
    games_per_pairing: int
    seed: int
    elo: dict = field(default_factory=dict)
    ci95: dict = field(default_factory=dict)
    steps: list = field(default_factory=list)     # neighbours: (lower, upper, step, ci95, significant)

    def __setattr__(self, name, value):
        # elo and ci95 however set (fit, load, by hand) look a name up as Ratings do
        if name in ("elo", "ci95") and isinstance(value, dict) and not isinstance(value, Ratings):
            value = Ratings(value)
        super().__setattr__(name, value)

    def fit(self, resamples: int = 1000) -> "LadderResult":
        self.elo = fit_elo(self.counts, self.entrants)
        boot = bootstrap_elo(self.counts, self.entrants, resamples=resamples, seed=self.seed)
        lo, hi = np.percentile(boot, [2.5, 97.5], axis=0)
        self.ci95 = {n: (float(lo[k]), float(hi[k])) for k, n in enumerate(self.entrants)}
        self.steps = []
        for k in range(len(self.entrants) - 1):
            d = boot[:, k + 1] - boot[:, k]
            dlo, dhi = np.percentile(d, [2.5, 97.5])
            a, b = self.entrants[k], self.entrants[k + 1]
            step = self.elo[b] - self.elo[a]
            self.steps.append({"from": a, "to": b, "elo": step, "ci95": [float(dlo), float(dhi)],
                               "significant": bool(dlo > 0 or dhi < 0)})   # the interval excludes 0
        return self

    def score(self, a: str, b: str) -> tuple:
        """(a's score fraction v b, games): of the pairing the ladder played, either way round.

        >>> ladder = load_ladder()
        >>> frac, games = ladder.score("level8", "level1")
        >>> games == ladder.games_per_pairing, frac > 0.9, round(frac + ladder.score("level1", "level8")[0], 9)
        (True, True, 1.0)
        """
        for name in (a, b):
            if name not in self.entrants:
                raise OptionError(f"{_short(name)} is not on this ladder: its entrants are "
                                  f"{', '.join(self.entrants)}")
        if (a, b) in self.counts:
            c = self.counts[(a, b)]
            pairs = sum(c)
            return _pair_points(c) / (2 * pairs) if pairs else float("nan"), 2 * pairs
        if (b, a) in self.counts:
            frac, games = self.score(b, a)
            return 1.0 - frac, games
        raise OptionError(f"the ladder played no games of {a} against {b}")

    def to_dict(self) -> dict:
        # 3 decimals: a value kept to 0.1 and shown to a whole Elo rounds twice (79.46 kept as
        # 79.5 read +80, where the fit says +79)
        return {"format": "fiveup-ladder/1", "players": self.players, "anchor": ANCHOR,
                "games_per_pairing": self.games_per_pairing, "seed": self.seed,
                "entrants": [{"name": n, "elo": round(self.elo[n], 3),
                              "ci95": [round(x, 3) for x in self.ci95[n]],
                              "recipe": LEVELS[n].to_dict() if n in LEVELS else None} for n in self.entrants],
                "steps": [{**s, "elo": round(s["elo"], 3), "ci95": [round(x, 3) for x in s["ci95"]]}
                          for s in self.steps],
                "pairings": [{"a": a, "b": b, "pentanomial": list(map(int, c))} for (a, b), c in self.counts.items()]}

    @classmethod
    def from_dict(cls, d: dict) -> "LadderResult":
        """A ladder table as ``to_dict`` writes it, checked whole: its format, players, anchor,
        seed, entrants (distinct names, the anchor among them, finite Elo, each inside its
        interval), pairings (entrants' names, five pair counts from 0 to 10^9 each, half
        ``games_per_pairing`` pairs in all), steps (one between each two neighbours, the
        difference of their Elo inside its interval, significant when that excludes 0), Elo
        that are the fit of its own pairings (a table edited by hand would place agents against
        Elo it never measured), and each level's recipe: the one it was measured with must be
        today's (``LEVELS[name]``: its base, blunder, temperature and search; the summary only
        describes them), or the table rates the levels as they no longer play."""
        def bad(what):
            return OptionError(f"not a ladder table ({what})")
        try:
            if not isinstance(d, dict) or d.get("format") != "fiveup-ladder/1":
                raise bad("its format is not fiveup-ladder/1: a file written by fiveup ladder --out")
            players, seed, games = d["players"], d["seed"], d["games_per_pairing"]
            if not _is_int(players) or players not in (2, 4):
                raise bad(f"players {_short(players)}, not 2 or 4")
            if not _is_int(seed) or not 0 <= seed < 2 ** 64:
                raise bad(f"seed {_short(seed)}, not an integer from 0 to 2^64 - 1")
            if not _is_int(games) or games < 2:
                raise bad(f"games_per_pairing {_short(games)}")
            if d.get("anchor", ANCHOR) != ANCHOR:
                # (a review: another anchor was read as level1 = 0 silently)
                raise bad(f"its anchor is {_short(d['anchor'], 40)}: the ladder's zero is {ANCHOR}")
            entrants = [e["name"] for e in d["entrants"]]
            # (at least two: a table of the anchor alone has no fit; a name is printed in the
            # tables: errors.name_fault)
            for n in entrants:
                fault = name_fault(n) if isinstance(n, str) else None
                if fault is not None:
                    raise bad(f"entrant {_short(n)}: {fault}")
            if (not all(isinstance(n, str) and n for n in entrants)
                    or len(set(entrants)) != len(entrants) or ANCHOR not in entrants or len(entrants) < 2):
                raise bad(f"its entrants must be at least 2 distinct names including {ANCHOR}, "
                          f"not {_short(entrants, 80)}")
            # (a review: a table of the first recipes, level3 blundering 45 % where it now
            # blunders 50 %, was loaded and placed agents against Elo today's levels never earned)
            faults = [f for f in (_recipe_fault(e["name"], e["recipe"] if e["name"] in LEVELS else e.get("recipe"))
                                  for e in d["entrants"]) if f]
            if faults:
                more = f"; {len(faults) - 1} more level{'s' * (len(faults) > 2)} changed too" if len(faults) > 1 else ""
                raise OptionError(f"not a ladder table of today's levels ({faults[0]}{more}): "
                                  "measure them again with fiveup ladder --out FILE")
            elo, ci95 = {}, {}
            for e in d["entrants"]:
                lo_hi = e["ci95"]
                if (not is_number(e["elo"]) or not isinstance(lo_hi, list) or len(lo_hi) != 2
                        or not all(is_number(x) for x in lo_hi)):
                    raise bad(f"{e['name']}: its elo and ci95 must be finite numbers")
                if not lo_hi[0] - 0.01 <= e["elo"] <= lo_hi[1] + 0.01:
                    # (a review: a reversed interval, or one beside its Elo, was shown as measured)
                    raise bad(f"{e['name']}: its Elo {e['elo']:+.1f} is not inside its ci95 "
                              f"[{lo_hi[0]:+.1f}, {lo_hi[1]:+.1f}]")
                elo[e["name"]], ci95[e["name"]] = float(e["elo"]), tuple(float(x) for x in lo_hi)
            counts = {}
            for p in d["pairings"]:
                a, b, c = p["a"], p["b"], p["pentanomial"]
                if a not in elo or b not in elo or a == b:
                    raise bad(f"a pairing {_short(a, 40)} v {_short(b, 40)} of entrants not in the table")
                if not _is_pentanomial(c):
                    raise bad(f"pairing {a} v {b}: its pentanomial must be five counts >= 0 (at most 10^9 each), "
                              f"not {_short(c)}")
                if 2 * sum(c) != games:
                    raise bad(f"pairing {a} v {b}: {sum(c)} pairs, not the {games // 2} of its games_per_pairing "
                              f"{games}")
                counts[(a, b)] = list(c)
            steps = d["steps"]
        except OptionError:
            raise
        except KeyError as e:
            # (a review: "KeyError \"'name'\"" named Python's error, not the table's fault)
            raise bad(f"a field {_short(e.args[0], 40)} is missing") from None
        except (TypeError, ValueError, AttributeError):
            raise bad("a field holds the wrong kind of value: not a file fiveup ladder --out wrote") from None
        refit = fit_elo(counts, entrants)
        off = [n for n in entrants if abs(refit[n] - elo[n]) > 0.5]
        if off:
            raise bad(f"its Elo are not the fit of its pairings: {off[0]} {elo[off[0]]:+.1f} stored, "
                      f"{refit[off[0]]:+.1f} fitted")
        res = cls(players, entrants, counts, games, seed)
        res.elo, res.ci95, res.steps = elo, ci95, _read_steps(steps, entrants, elo, bad)
        return res

    def format_table(self) -> str:
        """A Markdown table, win probability first: each level's expected win % against the
        level below, from the fitted Elo (``1 / (1 + 10^(-d / 400))``, d the step), and its
        measured score against it head to head (the pairing's games, an unfinished game half
        won; "-" where the ladder did not play it), then the level, its Elo, 95 % interval,
        the step from the level below and the recipe.

        >>> print(load_ladder().format_table().splitlines()[3])
        | 69.1 % | 66.0 % of 200 | level2 | 140 | [108, 170] | +140 [+108, +170] | greedy, but 70% of moves random |
        """
        lines = ["| expected win % v below | measured v below | level | Elo | 95 % interval | step from below "
                 "| recipe |", "|---|---|---|---|---|---|---|"]
        for k, n in enumerate(self.entrants):
            step = expected = measured = ""
            if k > 0:
                s = self.steps[k - 1]
                below = self.entrants[k - 1]
                step = f"{_whole(s['elo'], '+')} [{_whole(s['ci95'][0], '+')}, {_whole(s['ci95'][1], '+')}]"
                expected = f"{_percent(_expected_score(self.elo[n] - self.elo[below]))} %"
                measured = self._measured(n, below)
            lo, hi = self.ci95[n]
            recipe = LEVELS[n].summary if n in LEVELS else n
            lines.append(f"| {expected} | {measured} | {n} | {_whole(self.elo[n])} | [{_whole(lo)}, {_whole(hi)}] "
                         f"| {step} | {recipe} |")
        return "\n".join(lines) + "\n"

    def _measured(self, a: str, b: str) -> str:
        """a's score against b head to head as text ("-" where the ladder has no games of it)."""
        if (a, b) not in self.counts and (b, a) not in self.counts:
            return "-"
        frac, games = self.score(a, b)
        return f"{_percent(frac)} % of {games}" if games else "-"


def _expected_score(d: float) -> float:
    """The expected score of a player ``d`` Elo stronger: ``1 / (1 + 10^(-d / 400))``."""
    return 1.0 / (1.0 + 10.0 ** (-d / 400.0))


def _percent(x: float) -> str:
    """A fraction as a percentage to 0.1, never "-0.0"."""
    return format(round(100.0 * x, 1) + 0.0, ".1f")


def _read_steps(steps, entrants: list, elo: dict, bad) -> list:
    """A ladder file's "steps", checked (LadderResult.from_dict): one per neighbouring pair of
    entrants, in order, each with a finite elo that is the difference of theirs (to the
    0.1 both are rounded to), a ci95 of two finite numbers and a significant true or false;
    ``bad(what)`` is the error raised."""
    if not isinstance(steps, list) or len(steps) != len(entrants) - 1:
        raise bad(f"its steps must be a list of the {len(entrants) - 1} steps between neighbouring entrants, "
                  f"not {_short(steps)}")
    out = []
    for k, s in enumerate(steps):
        a, b = entrants[k], entrants[k + 1]
        if (not isinstance(s, dict) or s.get("from") != a or s.get("to") != b or not is_number(s.get("elo"))
                or not isinstance(s.get("ci95"), list) or len(s["ci95"]) != 2
                or not all(is_number(x) for x in s["ci95"]) or not isinstance(s.get("significant"), bool)):
            raise bad(f"steps[{k}] must be the step from {a} to {b}: a finite elo, a ci95 of two finite numbers "
                      f"and significant true or false, not {_short(s)}")
        lo, hi = s["ci95"]
        if not lo - 0.01 <= s["elo"] <= hi + 0.01 or s["significant"] != (lo > 0 or hi < 0):
            raise bad(f"steps[{k}]: its elo {s['elo']:+.1f} must lie in its ci95 [{lo:+.1f}, {hi:+.1f}], and it is "
                      "significant exactly when that interval excludes 0")
        if abs(s["elo"] - (elo[b] - elo[a])) > 0.2:
            raise bad(f"steps[{k}]: its elo {s['elo']:+.1f} is not {b}'s Elo less {a}'s, "
                      f"{elo[b] - elo[a]:+.1f}")
        out.append({"from": a, "to": b, "elo": float(s["elo"]), "ci95": [float(x) for x in s["ci95"]],
                    "significant": s["significant"]})
    return out


def _recipe_text(name: str, recipe) -> str:
    """A stored recipe (a ladder table's ``recipe``) as :attr:`Level.stamp` writes one, or
    its text shortened when it is not a recipe."""
    try:
        return Level(name, **{f: recipe[f] for f in Level.PLAYING_FIELDS}).stamp
    except (TypeError, KeyError, ValueError):
        return _short(recipe, 60)


def _recipe_fault(name, recipe) -> str | None:
    """What is wrong with the ``recipe`` a table stored for entrant ``name``, in words (None
    when it is today's: the same playing fields as ``LEVELS[name]``; a bot that is no level
    stores none): the level and both recipes, by their summaries where those differ."""
    today = LEVELS.get(name)
    if today is None:
        if recipe is None:
            return None
        return f'{_short(name, 40)}: measured as the level "{_recipe_text(name, recipe)}", today no level'
    if isinstance(recipe, dict) and all(f in recipe and recipe[f] == getattr(today, f) for f in Level.PLAYING_FIELDS):
        return None
    was, now = _recipe_text(name, recipe), today.stamp
    summary = recipe.get("summary") if isinstance(recipe, dict) else None
    if isinstance(summary, str) and summary != today.summary:
        was, now = summary, today.summary
    return f'{name}: measured as "{_cut(was)}", today "{_cut(now)}"'


def _cut(text: str, most: int = 70) -> str:
    """``text`` of at most ``most`` characters (its end replaced by "...")."""
    return text if len(text) <= most else text[:most - 3] + "..."


def _whole(x: float, sign: str = "") -> str:
    """An Elo to the nearest whole number, never "-0" (-0.3 is 0, as 0.3 is)."""
    return format(round(x) + 0, sign + "d")


def _pair_players(players, what: str) -> int:
    """`players` as an int when it is 2 or 4 (a numpy integer too: errors.as_int; not 2.0
    nor True), or a one-line OptionError beginning with `what`."""
    players = as_int(players)
    if not _is_int(players) or players not in (2, 4):
        raise OptionError(f"{what}: 2 or 4 players, not {_short(players)}")
    return players


LADDER_TABLE_BYTES = 4 * 2 ** 20     # the largest ladder file read (a table of 8 levels is about 10 kB)


def load_ladder(players: int = 2, path: str | None = None) -> LadderResult:
    """The shipped ladder (or one saved by ``fiveup ladder --out``): 2 and 4 players."""
    players = _pair_players(players, "a ladder is of duplicate pairs")
    shipped = path is None
    path = path or ladder_path(players)
    try:
        with open(path, encoding="utf-8") as f:
            # (a review: /dev/zero was read whole, 6 GB in 8 s; a table is about 10 kB)
            text = f.read(LADDER_TABLE_BYTES + 1)
        d = None if len(text) > LADDER_TABLE_BYTES else json.loads(text)
    except FileNotFoundError:
        if shipped:   # only some player counts have a measured ladder in the package
            raise OptionError(f"no {players}-player ladder is shipped with the package "
                              "(fiveup ladder --out FILE measures one)") from None
        raise OptionError(f"{path}: no ladder table (no such file)") from None
    except OSError as e:
        raise OptionError(f"{path}: no ladder table ({e.strerror or _short(e)})") from None
    except UnicodeDecodeError:
        raise OptionError(f"{path}: no ladder table (not UTF-8 text)") from None
    except ValueError as e:
        # (the whole message: cut, it hid the line and column)
        raise OptionError(f"{path}: no ladder table (not JSON: {str(e)[:120]})") from None
    if len(text) > LADDER_TABLE_BYTES:
        raise OptionError(f"{path}: no ladder table (larger than {LADDER_TABLE_BYTES // 2 ** 20} MiB; "
                          "a table is about 10 kB)")
    try:
        return LadderResult.from_dict(d)
    except OptionError as e:
        raise OptionError(f"{path}: {e}") from None


# ---------------------------------------------------------------- the run
def pairing_seed(seed: int, a: str, b: str) -> int:
    return random.Random(f"fiveup-ladder/{seed}/{a}/{b}").getrandbits(63)


def run_ladder(players: int = 2, entrants=None, *, games: int = 100, seed: int = 0, workers: int = 1,
               ray: str | None = None, on_pair=None, journal: str | None = None,
               move_time: float | None = None) -> LadderResult:
    """Play the round-robin and fit it. ``on_pair(a, b, scores)`` after every pair.
    With `journal` (a JSON Lines file), every pair is appended as it finishes and
    pairs already there are not played again: a long ladder can stop and resume. Each
    line carries its levels' recipes (``"recipes"``: :attr:`~fiveup_solver.levels.Level.stamp`),
    and a line of another recipe than today's is refused; lines written before journals
    carried them are taken unchecked.
    ``move_time``: seconds a bot may take over one move (match.play_pairs)."""
    players = _pair_players(players, "the ladder plays duplicate pairs")
    seed = check_seed(seed)
    workers = check_workers(workers)
    check_move_time(move_time)
    _check_journal(journal)
    ray = check_ray(ray)           # before anything runs or a journal is opened
    _check_callback(on_pair, "on_pair")      # (a review: a bad one failed after the first pair)
    if entrants is not None and (isinstance(entrants, str) or not isinstance(entrants, (list, tuple))):
        # (a review: "level1,level2" was read letter by letter)
        raise OptionError(f"entrants must be a list of bot names, not {_short(entrants)}")
    entrants = list(DEFAULT_ENTRANTS if entrants is None else entrants)
    if len(set(entrants)) != len(entrants) or len(entrants) < 2 or ANCHOR not in entrants:
        raise OptionError(f"a ladder needs at least 2 distinct entrants including {ANCHOR}, not {_short(entrants)}")
    for e in entrants:
        check_bot(e, players)      # (a bot of other player counts: refused before any pairing is played)
    games = as_int(games)
    if not _is_int(games) or not 2 <= games <= 1_000_000 or games % 2:
        raise OptionError(f"games per pairing must be an even number from 2 to 1000000, not {_short(games)}")
    pairings = [(a, b) for k, a in enumerate(entrants) for b in entrants[k + 1:]]
    lines, size = journal_lines(journal) if journal else ([], 0)           # the journal read once
    done = _read_pairs(journal, lines, {"players": players, "seed": seed}, ("a", "b"), "ladder", ("a", "b"))
    counts = {p: [0] * 5 for p in pairings}
    jobs, owner = [], []
    for a, b in pairings:
        s = pairing_seed(seed, a, b)
        for k in range(games // 2):
            if (a, b, k) in done:
                counts[(a, b)][int(round(2 * sum(done[(a, b, k)])))] += 1
                continue
            jobs.append(PairJob(players, a, b, k, *pair_seeds(s, k), 1000, False, move_time))
            owner.append((a, b))
    _play_into(counts, owner, jobs, workers, ray, open_journal(journal, size) if journal else None,
               lambda ab, k, scores: {"players": players, "seed": seed, "a": ab[0], "b": ab[1], "pair": k,
                                      "scores": scores, "recipes": _stamps(ab)},
               None if on_pair is None else (lambda ab, scores: on_pair(ab[0], ab[1], scores)))
    return LadderResult(players, entrants, counts, games, seed).fit()


# ---------------------------------------------------------------- one agent on a measured ladder
LR_95 = 3.841458820694124           # the chi-squared(1) quantile of a 95 % likelihood-ratio interval
_THETA_SPAN = 12_000.0 / ELO_SCALE  # the search range around the estimate, in natural-log units


def placement_seed(seed: int, level: str) -> int:
    """The deal sequences of a placement's games against `level`: from the seed and the
    level alone, so every agent placed with one seed meets the same deals (a duplicate
    comparison of agents), and none of them are the ladder's own games."""
    return random.Random(f"fiveup-place/{seed}/{level}").getrandbits(63)


def _loglik(theta: float, r, w, g) -> float:
    """Bernoulli log-likelihood of the agent's games (w of g won against levels at r, in
    natural-log units; an unfinished game is half a win) at strength theta."""
    x = theta - r
    # log sigma(x) = -log(1 + e^-x), stable both ways
    return float(np.sum(-w * np.logaddexp(0.0, -x) - (g - w) * np.logaddexp(0.0, x)))


def _mle(r, w, g) -> float:
    """The agent's strength (natural-log units) maximising _loglik: finite when it has both
    won and lost something; +inf / -inf when it won / lost every game."""
    if np.sum(w) <= 0:
        return -math.inf
    if np.sum(w) >= np.sum(g):
        return math.inf
    theta = float(np.sum(r * g) / np.sum(g))
    for _ in range(200):
        p = 1.0 / (1.0 + np.exp(r - theta))
        grad = float(np.sum(w - g * p))
        info = float(np.sum(g * p * (1.0 - p)))
        step = max(-2.0, min(2.0, grad / max(info, 1e-300)))     # damped: far from the levels too
        theta += step
        if abs(step) < 1e-12:
            break
    return theta


def _lr_end(r, w, g, near: float, far: float, peak: float) -> float:
    """Where the log-likelihood has fallen LR_95 / 2 below its peak, between `near` (where
    it has not) and `far` (returned if it has not there either); bisection: the function is
    concave, so the end is unique."""
    target = peak - LR_95 / 2.0
    if _loglik(far, r, w, g) >= target:
        return far
    for _ in range(200):
        mid = (near + far) / 2.0
        if _loglik(mid, r, w, g) >= target:
            near = mid
        else:
            far = mid
        if abs(far - near) < 1e-9:
            break
    return (near + far) / 2.0


def placement_interval(levels_elo, scores, games) -> tuple:
    """(Elo, low, high) of an agent that scored ``scores[i]`` of ``games[i]`` games against
    levels of Elo ``levels_elo[i]`` held fixed: the maximum-likelihood Elo and its 95 %
    likelihood-ratio interval, every game a Bernoulli trial. An agent that won every game
    has Elo +inf and a finite low end only (lost every game: -inf, a finite high end).

    >>> elo, low, high = placement_interval([100.0], [15], [20])   # 15 of 20 against +100
    >>> round(elo, 1), round(elo - 100 - 400 * math.log10(15 / 5), 6)
    (290.8, 0.0)
    >>> round(low), round(high)
    (126, 486)
    """
    try:
        r = np.asarray(levels_elo, float) / ELO_SCALE
        w = np.asarray(scores, float)
        g = np.asarray(games, float)
    except (TypeError, ValueError):
        raise OptionError("levels_elo, scores and games must be lists of numbers") from None
    if (r.ndim != 1 or not len(r) or w.shape != r.shape or g.shape != r.shape or not np.all(np.isfinite(r))
            or not np.all(np.isfinite(g)) or np.any(g <= 0) or not np.all(np.isfinite(w)) or np.any(w < 0)
            or np.any(w > g)):
        raise OptionError("a placement needs, per level, a finite Elo and a score from 0 to its games (> 0)")
    theta = _mle(r, w, g)
    low_end, high_end = float(np.min(r)) - _THETA_SPAN, float(np.max(r)) + _THETA_SPAN
    if theta == math.inf:
        # every game won: the likelihood rises toward its peak (log 1 = 0) for ever; its
        # low end lies somewhere below the far side of the levels
        return theta, _lr_end(r, w, g, high_end, low_end, 0.0) * ELO_SCALE, math.inf
    if theta == -math.inf:
        return theta, -math.inf, _lr_end(r, w, g, low_end, high_end, 0.0) * ELO_SCALE
    peak = _loglik(theta, r, w, g)
    return (theta * ELO_SCALE, _lr_end(r, w, g, theta, theta - _THETA_SPAN, peak) * ELO_SCALE,
            _lr_end(r, w, g, theta, theta + _THETA_SPAN, peak) * ELO_SCALE)


@dataclass
class Placement:
    """One agent's place on a measured ladder (:func:`place_agent`)."""

    agent: str
    players: int
    levels: list                  # the levels it played, in the ladder's order
    counts: dict                  # level -> pentanomial counts of the agent's pair scores
    level_elo: dict               # every level of the ladder -> its Elo there (held fixed in the fit)
    games_per_level: int
    seed: int
    ladder: dict = field(default_factory=dict)    # the ladder table's players, seed and games per pairing
    elo: float = 0.0              # +inf / -inf: it won / lost every game (the interval is one-sided)
    ci95: tuple = (0.0, 0.0)

    def score(self, level: str) -> tuple:
        """(the agent's score fraction against `level`, games)."""
        c = self.counts[level]
        pairs = sum(c)
        return (_pair_points(c) / (2 * pairs) if pairs else float("nan")), 2 * pairs

    def where(self) -> str:
        """Where the interval lies on the ladder, in words (the levels it includes, or the
        two it lies between), whether or not the agent played them."""
        lo, hi = self.ci95
        order = sorted(self.level_elo, key=self.level_elo.get)
        inside = [n for n in order if lo <= self.level_elo[n] <= hi]
        tag = {n: f"{n} ({_whole(self.level_elo[n], '+')})" for n in order}
        if inside:
            span = tag[inside[0]] if len(inside) == 1 else f"{tag[inside[0]]} to {tag[inside[-1]]}"
            return f"the interval includes {span}"
        below = [n for n in order if self.level_elo[n] < lo]
        above = [n for n in order if self.level_elo[n] > hi]
        if below and above:
            return f"between {tag[below[-1]]} and {tag[above[0]]}"
        return f"above {tag[below[-1]]}" if below else f"below {tag[above[0]]}"

    def format_elo(self) -> str:
        lo, hi = self.ci95
        if self.elo == math.inf:
            return f"Elo {_whole(lo, '+')} or more (it won every game; 95 %)"
        if self.elo == -math.inf:
            return f"Elo {_whole(hi, '+')} or less (it lost every game; 95 %)"
        return f"Elo {_whole(self.elo, '+')} [{_whole(lo, '+')}, {_whole(hi, '+')}]"

    def swept(self) -> list:
        """The levels against which every game went one way: (level, "won" or "lost")."""
        out = []
        for n in self.levels:
            s, g = self.score(n)
            if g and s in (0.0, 1.0):
                out.append((n, "won" if s == 1.0 else "lost"))
        return out

    def to_dict(self) -> dict:
        def num(x):
            return None if math.isinf(x) else round(x, 1)
        return {"format": "fiveup-placement/1", "agent": self.agent, "players": self.players,
                "elo": num(self.elo), "ci95": [num(x) for x in self.ci95],
                "all_won": self.elo == math.inf, "all_lost": self.elo == -math.inf,
                "games_per_level": self.games_per_level, "seed": self.seed, "anchor": ANCHOR,
                "levels": [{"name": n, "elo": round(self.level_elo[n], 1), "score": round(self.score(n)[0], 4),
                            "games": self.score(n)[1], "pentanomial": list(map(int, self.counts[n]))}
                           for n in self.levels],
                "ladder": {**self.ladder, "elo": {n: round(e, 1) for n, e in self.level_elo.items()}}}

    def nearest(self) -> str | None:
        """The level played whose Elo is nearest the agent's (for a one-sided answer, its
        finite end); None when no level was played."""
        played = [n for n in self.levels if self.score(n)[1]]
        if not played:
            return None
        lo, hi = self.ci95
        at = self.elo if math.isfinite(self.elo) else (lo if self.elo > 0 else hi)
        return min(played, key=lambda n: abs(self.level_elo[n] - at))

    def format_text(self) -> str:
        """The placement as text: its Elo, then its score against the nearest level it
        played (the win probability one reads first), where it lands, and a table of the
        levels."""
        near = self.nearest()
        score = ""
        if near is not None:
            s, g = self.score(near)
            score = (f", scoring {100 * s:.1f} % of {g} games against {near} "
                     f"({_whole(self.level_elo[near], '+')}), the nearest level it played")
        lines = [f"{self.agent} on the {self.players}-player ladder ({ANCHOR} = random play = 0): "
                 f"{self.format_elo()}{score}; {self.where()}"]
        swept = self.swept()
        if swept:
            parts = [f"it {how} every game against {', '.join(n for n, h in swept if h == how)}"
                     for how in ("won", "lost") if any(h == how for _, h in swept)]
            lines.append("; ".join(parts) + ": such a level bounds its Elo from one side only")
        lines += ["", "| level | its Elo | agent's score | games | pentanomial (pairs scoring 0, 1/2, 1, 3/2, 2) |",
                  "|---|---|---|---|---|"]
        for n in self.levels:
            s, g = self.score(n)
            lines.append(f"| {n} | {_whole(self.level_elo[n], '+')} | {100 * s:.1f} % | {g} | "
                         f"{' '.join(str(int(x)) for x in self.counts[n])} |")
        return "\n".join(lines) + "\n"

    def _check(self, table, resamples) -> None:
        """What fit reads, for a Placement built by hand: the table, the levels (entrants of
        it, each with five pair counts) and their finite Elo."""
        if not isinstance(table, LadderResult):
            raise OptionError(f"table must be a LadderResult (load_ladder), not {_short(table)}")
        resamples = _check_resamples(resamples)
        if isinstance(self.levels, str) or not isinstance(self.levels, (list, tuple)) or not self.levels:
            raise OptionError(f"a placement's levels are a list of the ladder's entrants, not {_short(self.levels)}")
        for n in self.levels:
            if n not in table.entrants:
                raise OptionError(f"{_short(n, 40)} is not on the ladder (its entrants: {', '.join(table.entrants)})")
            if not isinstance(self.counts, dict) or not _is_pentanomial(self.counts.get(n)):
                got = self.counts.get(n) if isinstance(self.counts, dict) else self.counts
                raise OptionError(f"{n}: a placement's counts are five pair counts >= 0 per level, not "
                                  f"{_short(got)} (at most 10^9 each)")
            if not isinstance(self.level_elo, dict) or not is_number(self.level_elo.get(n)):
                raise OptionError(f"{n}: a placement's level_elo holds each level's finite Elo")

    def fit(self, table: "LadderResult", resamples: int = 1000) -> "Placement":
        """The agent's Elo with the levels' Elo held at the table's (maximum likelihood,
        every game a Bernoulli trial), and a 95 % interval: the likelihood-ratio interval
        of its own games, widened by the levels' own uncertainty (the spread of the same
        end over the ladder's bootstrap refits, ``resamples`` of them, added in quadrature).
        Games as independent trials usually overstate the spread of duplicate pairs, whose two
        games share the deals: the interval mostly errs a little wide (pair variances a median
        0.95 of the independent games' over 64 measured pairings, quartiles 0.87 and 1.00;
        17 were above, up to 1.27)."""
        self._check(table, resamples)
        played = [n for n in self.levels if sum(self.counts[n]) > 0]
        if not played:
            raise OptionError("a placement needs at least one pair played")
        scores = [_pair_points(self.counts[n]) for n in played]
        games = [2 * sum(self.counts[n]) for n in played]
        self.elo, lo, hi = placement_interval([self.level_elo[n] for n in played], scores, games)
        # the same ends with the levels' Elo from each refit of the ladder's redrawn pairs
        boot_levels = bootstrap_elo(table.counts, table.entrants, resamples=resamples, seed=table.seed)
        col = [table.entrants.index(n) for n in played]
        z = 1.959964
        w, g = np.asarray(scores, float), np.asarray(games, float)
        if math.isinf(self.elo):
            # the one finite end, with each refit's levels
            k = 1 if self.elo > 0 else 2
            spread = np.std([placement_interval(boot_levels[b, col], scores, games)[k] for b in range(resamples)])
            lo, hi = (lo - z * float(spread), hi) if k == 1 else (lo, hi + z * float(spread))
        else:
            # its own games' half-widths and the levels' spread of the estimate, in quadrature
            levels_sd = float(np.std([_mle(boot_levels[b, col] / ELO_SCALE, w, g) for b in range(resamples)])
                              * ELO_SCALE)
            lo = self.elo - math.hypot(self.elo - lo, z * levels_sd)
            hi = self.elo + math.hypot(hi - self.elo, z * levels_sd)
        self.ci95 = (lo, hi)
        return self


def _check_resamples(resamples) -> int:
    resamples = as_int(resamples)
    if not _is_int(resamples) or not 100 <= resamples <= 100_000:
        raise OptionError(f"resamples must be an integer from 100 to 100000, not {_short(resamples)}")
    return resamples


def _stamps(names) -> dict:
    """A journal line's "recipes": {level: its recipe's stamp} for the names that are levels
    (levels.Level.stamp), so that a journal is not resumed under other recipes."""
    return {n: recipe_stamp(n) for n in names if n in LEVELS}


def _recipes_fault(r: dict, names: tuple):
    """What is wrong with a journal line's "recipes" for the bots `names` it played (None
    when every level among them has today's recipe; a line without "recipes", written before
    journals carried them, cannot be checked and is taken as it is)."""
    if "recipes" not in r:
        return None
    recipes = r["recipes"]
    if not isinstance(recipes, dict):
        return f"its recipes must be {{level: recipe}}, not {_short(recipes, 40)}"
    for n in names:
        got, want = recipes.get(n), recipe_stamp(n)
        if got != want:
            def said(x):
                return "no level" if x is None else f'"{_cut(str(x))}"'
            return f"{n[:40]} was {said(got)} when it was played, today {said(want)}"
    return None


def _read_pairs(path: str, lines: list, header: dict, keys: tuple, what: str, named: tuple = ()) -> dict:
    """{(the `keys` fields of a line..., its pair): its two scores} of a journal's lines
    (match.journal_lines), each of which must carry `header`'s fields with its values (a
    pair of another run is refused, naming it), a pair number >= 0 and two scores of 0,
    1/2 or 1 (the games of one seating each). `named`: the fields that name the line's
    bots, whose levels' recipes, where the line carries them ("recipes"), must be today's
    (a pair played under another recipe is refused, naming the level and both)."""
    done, line_of = {}, {}
    for n, line in enumerate(lines, 1):
        try:
            r = json.loads(line)
            own = {k: r[k] for k in header}
            key = tuple(r[k] for k in keys) + (r["pair"],)
            scores = r["scores"]
        except (ValueError, KeyError, TypeError):
            raise OptionError(f"journal {path} line {n}: not a {what} journal line") from None
        if own != header:
            def fields(d):
                return ", ".join(f"{k} {_short(v, 40)}" for k, v in d.items())
            raise OptionError(f"journal {path} line {n}: a pair of another {what} ({fields(own)}), "
                              f"not {fields(header)}")
        if (not all(isinstance(x, str) for x in key[:-1]) or not _is_int(key[-1]) or key[-1] < 0
                or not isinstance(scores, list) or len(scores) != 2
                or any(isinstance(x, bool) or x not in (0, 0.5, 1) for x in scores)):
            raise OptionError(f"journal {path} line {n}: not a {what} journal line (a pair number >= 0 and "
                              "two scores of 0, 0.5 or 1)")
        scores = [float(x) for x in scores]
        fault = _recipes_fault(r, tuple(r[k] for k in named))
        if fault is not None:
            # (a review: pairs played under old recipes were resumed into a ladder of today's)
            raise OptionError(f"journal {path} line {n}: pair {key[-1]} of {' v '.join(key[:-1])}: {fault}; "
                              f"a journal of other level recipes: start another {what} journal")
        if key in done and done[key] != scores:
            # (a review: the last line won; two lines of one pair come from two runs in one file)
            raise OptionError(f"journal {path} lines {line_of[key]} and {n}: pair {key[-1]} of "
                              f"{' v '.join(key[:-1])} twice, with other scores: two runs' journals in one file?")
        done[key], line_of[key] = scores, n
    return done


def _check_journal(journal) -> None:
    if journal is not None and not isinstance(journal, (str, os.PathLike)):
        raise OptionError(f"journal must be a file name, not {_short(journal)}")


def _play_into(counts: dict, owner: list, jobs: list, workers: int, ray, log, row, on_pair) -> None:
    """Play `jobs` (match.play_pair's), each unit's pentanomial count into counts[owner],
    its journal line ``row(owner, pair, scores)`` appended as it finishes."""
    # a job's last field is its move_time: with a limit, a move that never returns is stopped
    stop_hung = any(job[-1] is not None for job in jobs)
    setup = pairs_setup([b for job in jobs for b in (job.bot, job.other)], workers, ray, stop_hung)
    try:
        for key, (k, scores, _) in zip(owner, ordered_map(play_pair, jobs, workers=workers, ray=ray,
                                                          stop_hung=stop_hung, setup=setup)):
            counts[key][int(round(2 * sum(scores)))] += 1
            if log is not None:
                write_journal(log, row(key, k, scores))
            if on_pair is not None:
                on_pair(key, scores)
    finally:
        if log is not None:
            log.close()


def place_agent(agent: str, players: int = 2, *, levels=None, games: int = 100, seed: int = 0,
                table: LadderResult | None = None, workers: int = 1, ray: str | None = None,
                journal: str | None = None, on_pair=None, resamples: int = 1000,
                move_time: float | None = None) -> Placement:
    """Place one agent (a bot name, or ``MODULE:FUNCTION``) on a measured ladder without
    playing the round-robin again: ``games`` games (``games / 2`` duplicate pairs) against
    each of ``levels`` (default: every entrant of the table), fitted with the levels' Elo
    held at the table's (:meth:`Placement.fit`). ``table``: the ladder (default: the one
    shipped for ``players``, :func:`load_ladder`). ``on_pair(level, scores)`` after every
    pair; with ``journal`` (JSON Lines) every pair is appended as it finishes and pairs
    already there are not played again (their levels' recipes checked, as
    :func:`run_ladder`'s). ``move_time``: seconds a bot may take over one
    move (match.play_pairs).

    The deals depend on ``seed``, the level and the pair alone: two agents placed with
    the same seed meet the same deals."""
    players = _pair_players(players, "a placement plays duplicate pairs")
    seed = check_seed(seed)
    workers = check_workers(workers)
    check_move_time(move_time)
    _check_journal(journal)
    ray = check_ray(ray)
    _check_callback(on_pair, "on_pair")      # (a review: a bad one failed after the first pair)
    if not isinstance(agent, str):
        raise not_a_bot_name(f"the agent is a bot name or MODULE:FUNCTION, not {_short(agent)}", agent)
    check_bot(agent, players)
    if table is None:
        table = load_ladder(players)
    elif not isinstance(table, LadderResult):
        raise OptionError(f"table must be a LadderResult (load_ladder), not {_short(table)}")
    if table.players != players:
        raise OptionError(f"the ladder table is of {table.players} players, not {players}")
    if levels is None:
        levels = list(table.entrants)
    elif isinstance(levels, str) or not all(isinstance(n, str) for n in levels):
        raise OptionError(f"levels must be a list of the ladder's entrants, not {_short(levels)}")
    levels = list(levels)
    unknown = [n for n in levels if n not in table.entrants]
    if unknown:
        raise OptionError(f"{_short(unknown[0], 40)} is not on the ladder (its entrants: {', '.join(table.entrants)})")
    if not levels or len(set(levels)) != len(levels):
        raise OptionError(f"levels must name distinct entrants of the ladder, at least one, not {_short(levels)}")
    levels = [n for n in table.entrants if n in levels]        # the ladder's order
    for n in levels:
        check_bot(n, players)
    games = as_int(games)
    if not _is_int(games) or not 2 <= games <= 1_000_000 or games % 2:
        raise OptionError(f"games per level must be an even number from 2 to 1000000, not {_short(games)}")
    resamples = _check_resamples(resamples)
    lines, size = journal_lines(journal) if journal else ([], 0)
    done = _read_pairs(journal, lines, {"agent": agent, "players": players, "seed": seed}, ("level",), "placement",
                       ("agent", "level"))
    counts = {n: [0] * 5 for n in levels}
    jobs, owner = [], []
    for n in levels:
        s = placement_seed(seed, n)
        for k in range(games // 2):
            if (n, k) in done:
                counts[n][int(round(2 * sum(done[(n, k)])))] += 1
                continue
            jobs.append(PairJob(players, agent, n, k, *pair_seeds(s, k), 1000, False, move_time))
            owner.append(n)
    _play_into(counts, owner, jobs, workers, ray, open_journal(journal, size) if journal else None,
               lambda n, k, scores: {"agent": agent, "players": players, "seed": seed, "level": n, "pair": k,
                                     "scores": scores, "recipes": _stamps((agent, n))}, on_pair)
    return Placement(agent, players, levels, counts, {n: table.elo[n] for n in table.entrants}, games, seed,
                     {"players": table.players, "seed": table.seed,
                      "games_per_pairing": table.games_per_pairing}).fit(table, resamples)
