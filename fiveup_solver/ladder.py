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

from fiveup_solver.bots import bot_function
from fiveup_solver.errors import OptionError, check_seed, is_int as _is_int, short_repr as _short
from fiveup_solver.levels import LEVELS
from fiveup_solver.match import journal_lines, open_journal, pair_seeds, play_pair, write_journal
from fiveup_solver.parallel import check_ray, check_workers, ordered_map

__all__ = ["LadderResult", "run_ladder", "fit_elo", "bootstrap_elo", "load_ladder", "ladder_path",
           "DEFAULT_ENTRANTS", "ANCHOR"]

ANCHOR = "level1"                   # random play: 0 Elo
ELO_SCALE = 400.0 / math.log(10.0)  # Elo per natural-log unit of odds
PAIR_SCORES = (0.0, 0.5, 1.0, 1.5, 2.0)


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
        scores.append(sum(k * s for k, s in zip(c, PAIR_SCORES)))
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


def fit_elo(counts: dict, names: list, anchor: str = ANCHOR, prior: float = 1.0) -> dict:
    """Elo of every entrant (anchor = 0) from pentanomial counts per pairing."""
    if anchor not in names:
        raise OptionError(f"the anchor {anchor!r} is not an entrant")
    pairings, scores, games = _totals(counts, names)
    elo = _fit(len(names), pairings, scores, games, names.index(anchor), prior)
    return dict(zip(names, elo))


def bootstrap_elo(counts: dict, names: list, anchor: str = ANCHOR, *, resamples: int = 1000, seed: int = 0,
                  prior: float = 1.0):
    """Bootstrap fits: a (resamples x entrants) array of Elo, pairs redrawn per pairing."""
    rng = np.random.default_rng(seed)
    keys = [k for k, c in counts.items() if sum(c) > 0]
    out = np.empty((resamples, len(names)))
    for r in range(resamples):
        redrawn = {}
        for k in keys:
            c = np.asarray(counts[k], float)
            if np.count_nonzero(c) == 1:
                # every pair scored the same: no spread to redraw from (a zero-width
                # interval); half a pair per outcome, as the SPRT's prior and the match
                # interval in that case (match.py)
                c = c + 0.5
            redrawn[k] = list(rng.multinomial(int(np.asarray(counts[k]).sum()), c / c.sum()))
        pairings, scores, games = _totals(redrawn, names)
        out[r] = _fit(len(names), pairings, scores, games, names.index(anchor), prior)
    return out


# ---------------------------------------------------------------- the result
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
        """(a's score fraction v b, games)."""
        if (a, b) in self.counts:
            c = self.counts[(a, b)]
            pairs = sum(c)
            return sum(k * s for k, s in zip(c, PAIR_SCORES)) / (2 * pairs) if pairs else float("nan"), 2 * pairs
        frac, games = self.score(b, a)
        return 1.0 - frac, games

    def to_dict(self) -> dict:
        return {"format": "fiveup-ladder/1", "players": self.players, "anchor": ANCHOR,
                "games_per_pairing": self.games_per_pairing, "seed": self.seed,
                "entrants": [{"name": n, "elo": round(self.elo[n], 1),
                              "ci95": [round(x, 1) for x in self.ci95[n]],
                              "recipe": LEVELS[n].to_dict() if n in LEVELS else None} for n in self.entrants],
                "steps": [{**s, "elo": round(s["elo"], 1), "ci95": [round(x, 1) for x in s["ci95"]]}
                          for s in self.steps],
                "pairings": [{"a": a, "b": b, "pentanomial": list(map(int, c))} for (a, b), c in self.counts.items()]}

    @classmethod
    def from_dict(cls, d: dict) -> "LadderResult":
        try:
            entrants = [e["name"] for e in d["entrants"]]
            counts = {(p["a"], p["b"]): list(p["pentanomial"]) for p in d["pairings"]}
            res = cls(d["players"], entrants, counts, d["games_per_pairing"], d["seed"])
            res.elo = {e["name"]: float(e["elo"]) for e in d["entrants"]}
            res.ci95 = {e["name"]: tuple(e["ci95"]) for e in d["entrants"]}
            res.steps = list(d["steps"])
        except (KeyError, TypeError, ValueError) as e:
            raise OptionError(f"not a ladder table ({_short(e)})") from None
        return res

    def format_table(self) -> str:
        """A Markdown table: level, Elo, 95 % interval, step from the level below."""
        lines = ["| level | Elo | 95 % interval | step from below | recipe |", "|---|---|---|---|---|"]
        for k, n in enumerate(self.entrants):
            step = ""
            if k > 0:
                s = self.steps[k - 1]
                step = f"{_whole(s['elo'], '+')} [{_whole(s['ci95'][0], '+')}, {_whole(s['ci95'][1], '+')}]"
            lo, hi = self.ci95[n]
            recipe = LEVELS[n].summary if n in LEVELS else n
            lines.append(f"| {n} | {_whole(self.elo[n])} | [{_whole(lo)}, {_whole(hi)}] | {step} | {recipe} |")
        return "\n".join(lines) + "\n"


def _whole(x: float, sign: str = "") -> str:
    """An Elo to the nearest whole number, never "-0" (-0.3 is 0, as 0.3 is)."""
    return format(round(x) + 0, sign + "d")


def load_ladder(players: int = 2, path: str | None = None) -> LadderResult:
    """The shipped ladder (or one saved by ``fiveup ladder --out``)."""
    shipped = path is None
    path = path or ladder_path(players)
    try:
        with open(path, encoding="utf-8") as f:
            d = json.load(f)
    except FileNotFoundError:
        if shipped:   # only some player counts have a measured ladder in the package
            raise OptionError(f"no {players}-player ladder is shipped with the package "
                              "(fiveup ladder --out FILE measures one)") from None
        raise OptionError(f"{path}: no ladder table (no such file)") from None
    except OSError as e:
        raise OptionError(f"{path}: no ladder table ({e.strerror or _short(e)})") from None
    except ValueError as e:
        raise OptionError(f"{path}: no ladder table ({_short(e)})") from None
    return LadderResult.from_dict(d)


# ---------------------------------------------------------------- the run
def pairing_seed(seed: int, a: str, b: str) -> int:
    return random.Random(f"fiveup-ladder/{seed}/{a}/{b}").getrandbits(63)


def _read_journal(path: str, lines: list, players: int, seed: int) -> dict:
    """{(a, b, k): scores} of the pairs already in a journal of this ladder (its lines:
    match.journal_lines)."""
    done = {}
    for n, line in enumerate(lines, 1):
        try:
            r = json.loads(line)
            other = (r["players"], r["seed"])
            key, scores = (r["a"], r["b"], int(r["pair"])), [float(x) for x in r["scores"]]
        except (ValueError, KeyError, TypeError):
            raise OptionError(f"journal {path} line {n}: not a ladder journal line") from None
        if other != (players, seed):
            raise OptionError(f"journal {path} line {n}: a pair of another ladder (players {other[0]}, seed "
                              f"{_short(other[1])}), not players {players}, seed {seed}")
        done[key] = scores
    return done


def run_ladder(players: int = 2, entrants=None, *, games: int = 100, seed: int = 0, workers: int = 1,
               ray: str | None = None, on_pair=None, journal: str | None = None) -> LadderResult:
    """Play the round-robin and fit it. ``on_pair(a, b, scores)`` after every pair.
    With `journal` (a JSON Lines file), every pair is appended as it finishes and
    pairs already there are not played again: a long ladder can stop and resume."""
    if players not in (2, 4):
        raise OptionError(f"the ladder plays duplicate pairs: 2 or 4 players, not {_short(players)}")
    check_seed(seed)
    check_workers(workers)
    ray = check_ray(ray)           # before anything runs or a journal is opened
    entrants = list(DEFAULT_ENTRANTS if entrants is None else entrants)
    if len(set(entrants)) != len(entrants) or len(entrants) < 2 or ANCHOR not in entrants:
        raise OptionError(f"a ladder needs at least 2 distinct entrants including {ANCHOR}, not {_short(entrants)}")
    for e in entrants:
        bot_function(e)
    if not _is_int(games) or not 2 <= games <= 1_000_000 or games % 2:
        raise OptionError(f"games per pairing must be an even number from 2 to 1000000, not {_short(games)}")
    pairings = [(a, b) for k, a in enumerate(entrants) for b in entrants[k + 1:]]
    lines, size = journal_lines(journal) if journal else ([], 0)           # the journal read once
    done = _read_journal(journal, lines, players, seed)
    counts = {p: [0] * 5 for p in pairings}
    jobs, owner = [], []
    for a, b in pairings:
        s = pairing_seed(seed, a, b)
        for k in range(games // 2):
            if (a, b, k) in done:
                counts[(a, b)][int(round(2 * sum(done[(a, b, k)])))] += 1
                continue
            jobs.append((players, a, b, k, *pair_seeds(s, k), 1000, False))
            owner.append((a, b))
    log = open_journal(journal, size) if journal else None
    try:
        for (a, b), (k, scores, _) in zip(owner, ordered_map(play_pair, jobs, workers=workers, ray=ray)):
            counts[(a, b)][int(round(2 * sum(scores)))] += 1
            if log is not None:
                write_journal(log, {"players": players, "seed": seed, "a": a, "b": b, "pair": k, "scores": scores})
            if on_pair is not None:
                on_pair(a, b, scores)
    finally:
        if log is not None:
            log.close()
    return LadderResult(players, entrants, counts, games, seed).fit()
