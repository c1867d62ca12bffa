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

from fiveup_solver.bots import bot_function, check_move_time
from fiveup_solver.errors import OptionError, check_seed, is_int as _is_int, short_repr as _short
from fiveup_solver.levels import LEVELS
from fiveup_solver.match import journal_lines, open_journal, pair_seeds, play_pair, write_journal
from fiveup_solver.parallel import check_ray, check_workers, ordered_map

__all__ = ["LadderResult", "run_ladder", "fit_elo", "bootstrap_elo", "load_ladder", "ladder_path",
           "Placement", "place_agent", "DEFAULT_ENTRANTS", "ANCHOR"]

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
               ray: str | None = None, on_pair=None, journal: str | None = None,
               move_time: float | None = None) -> LadderResult:
    """Play the round-robin and fit it. ``on_pair(a, b, scores)`` after every pair.
    With `journal` (a JSON Lines file), every pair is appended as it finishes and
    pairs already there are not played again: a long ladder can stop and resume.
    ``move_time``: seconds a bot may take over one move (match.play_pairs)."""
    if players not in (2, 4):
        raise OptionError(f"the ladder plays duplicate pairs: 2 or 4 players, not {_short(players)}")
    check_seed(seed)
    check_workers(workers)
    check_move_time(move_time)
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
            jobs.append((players, a, b, k, *pair_seeds(s, k), 1000, False, move_time))
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


# ---------------------------------------------------------------- one agent on a measured ladder
def placement_seed(seed: int, level: str) -> int:
    """The deal sequences of a placement's games against `level`: from the seed and the
    level alone, so every agent placed with one seed meets the same deals (a duplicate
    comparison of agents), and none of them are the ladder's own games."""
    return random.Random(f"fiveup-place/{seed}/{level}").getrandbits(63)


def _fit_one(levels_elo, scores, games, prior: float = 1.0) -> float:
    """The agent's Elo against levels of fixed Elo: Newton's method on the 1-parameter
    Bradley-Terry log-likelihood, one virtual drawn game per level (as :func:`fit_elo`)."""
    r = np.asarray(levels_elo, float) / ELO_SCALE
    w = np.asarray(scores, float) + 0.5 * prior
    g = np.asarray(games, float) + prior
    theta = float(np.sum(r * g) / np.sum(g))
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(r - theta))
        grad = float(np.sum(w - g * p))
        info = float(np.sum(g * p * (1.0 - p)))
        step = max(-2.0, min(2.0, grad / info))     # info > 0: every level has a virtual game
        theta += step
        if abs(step) < 1e-12:
            break
    return theta * ELO_SCALE


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
    ladder_seed: int              # the ladder table's own seed (its bootstrap's)
    elo: float = 0.0
    ci95: tuple = (0.0, 0.0)

    def score(self, level: str) -> tuple:
        """(the agent's score fraction against `level`, games)."""
        c = self.counts[level]
        pairs = sum(c)
        return (sum(k * s for k, s in zip(c, PAIR_SCORES)) / (2 * pairs) if pairs else float("nan")), 2 * pairs

    def neighbours(self) -> tuple:
        """(the highest level of the ladder at or below the agent's Elo, the lowest above it),
        played or not; None at an end."""
        below = [n for n in self.level_elo if self.level_elo[n] <= self.elo]
        above = [n for n in self.level_elo if self.level_elo[n] > self.elo]
        return (max(below, key=self.level_elo.get) if below else None,
                min(above, key=self.level_elo.get) if above else None)

    def to_dict(self) -> dict:
        return {"format": "fiveup-placement/1", "agent": self.agent, "players": self.players,
                "elo": round(self.elo, 1), "ci95": [round(x, 1) for x in self.ci95],
                "games_per_level": self.games_per_level, "seed": self.seed, "anchor": ANCHOR,
                "levels": [{"name": n, "elo": round(self.level_elo[n], 1), "score": round(self.score(n)[0], 4),
                            "games": self.score(n)[1], "pentanomial": list(map(int, self.counts[n]))}
                           for n in self.levels],
                "ladder": {n: round(e, 1) for n, e in self.level_elo.items()}}

    def format_text(self) -> str:
        lo, hi = self.ci95
        below, above = self.neighbours()
        where = (f"between {below} ({_whole(self.level_elo[below], '+')}) and {above} "
                 f"({_whole(self.level_elo[above], '+')})" if below and above else
                 f"above {below} ({_whole(self.level_elo[below], '+')})" if below else
                 f"below {above} ({_whole(self.level_elo[above], '+')})")
        lines = [f"{self.agent} on the {self.players}-player ladder ({ANCHOR} = random play = 0): "
                 f"Elo {_whole(self.elo, '+')} [{_whole(lo, '+')}, {_whole(hi, '+')}], {where}", "",
                 "| level | its Elo | agent's score | games | pentanomial (pairs scoring 0, 1/2, 1, 3/2, 2) |",
                 "|---|---|---|---|---|"]
        for n in self.levels:
            s, g = self.score(n)
            lines.append(f"| {n} | {_whole(self.level_elo[n], '+')} | {100 * s:.1f} % | {g} | "
                         f"{' '.join(str(int(x)) for x in self.counts[n])} |")
        return "\n".join(lines) + "\n"

    def fit(self, table: "LadderResult", resamples: int = 1000) -> "Placement":
        """The agent's Elo with the levels' Elo held at the table's, and a 95 % percentile
        interval from a parametric bootstrap that redraws both the agent's pairs against
        each level and the ladder's own pairs (refitted: the levels' uncertainty is part of
        the agent's)."""
        played = [n for n in self.levels if sum(self.counts[n]) > 0]
        if not played:
            raise OptionError("a placement needs at least one pair played")

        def totals(counts):
            return ([sum(k * s for k, s in zip(counts[n], PAIR_SCORES)) for n in played],
                    [2 * sum(counts[n]) for n in played])

        scores, games = totals(self.counts)
        self.elo = _fit_one([self.level_elo[n] for n in played], scores, games)
        boot_levels = bootstrap_elo(table.counts, table.entrants, resamples=resamples, seed=table.seed)
        col = [table.entrants.index(n) for n in played]
        rng = np.random.default_rng([self.seed, 1])
        boot = np.empty(resamples)
        for r in range(resamples):
            redrawn = {}
            for n in played:
                c = np.asarray(self.counts[n], float)
                if np.count_nonzero(c) == 1:
                    c = c + 0.5        # every pair alike: half a pair per outcome (bootstrap_elo)
                redrawn[n] = list(rng.multinomial(int(sum(self.counts[n])), c / c.sum()))
            s_r, g_r = totals(redrawn)
            boot[r] = _fit_one(boot_levels[r, col], s_r, g_r)
        lo, hi = np.percentile(boot, [2.5, 97.5])
        self.ci95 = (float(lo), float(hi))
        return self


def _read_place_journal(path: str, lines: list, agent: str, players: int, seed: int) -> dict:
    """{(level, k): scores} of the pairs already in a placement journal (its lines:
    match.journal_lines); a line of another placement is refused, naming it."""
    done = {}
    for n, line in enumerate(lines, 1):
        try:
            r = json.loads(line)
            other = (r["agent"], r["players"], r["seed"])
            key, scores = (r["level"], int(r["pair"])), [float(x) for x in r["scores"]]
        except (ValueError, KeyError, TypeError):
            raise OptionError(f"journal {path} line {n}: not a placement journal line") from None
        if other != (agent, players, seed):
            raise OptionError(f"journal {path} line {n}: a pair of another placement (agent {_short(other[0], 40)}, "
                              f"players {_short(other[1])}, seed {_short(other[2])}), not agent {_short(agent, 40)}, "
                              f"players {players}, seed {seed}")
        done[key] = scores
    return done


def place_agent(agent: str, players: int = 2, *, levels=None, games: int = 100, seed: int = 0,
                table: LadderResult | None = None, workers: int = 1, ray: str | None = None,
                journal: str | None = None, on_pair=None, resamples: int = 1000,
                move_time: float | None = None) -> Placement:
    """Place one agent (a bot name, or ``MODULE:FUNCTION``) on a measured ladder without
    playing the round-robin again: ``games`` games (``games / 2`` duplicate pairs) against
    each of ``levels`` (default: every entrant of the table), fitted with the levels' Elo
    held at the table's. ``table``: the ladder (default: the one shipped for ``players``,
    :func:`load_ladder`). ``on_pair(level, scores)`` after every pair; with ``journal``
    (JSON Lines) every pair is appended as it finishes and pairs already there are not
    played again. ``move_time``: seconds a bot may take over one move (match.play_pairs).

    The deals depend on ``seed``, the level and the pair alone: two agents placed with
    the same seed meet the same deals."""
    if players not in (2, 4) or isinstance(players, bool):
        raise OptionError(f"a placement plays duplicate pairs: 2 or 4 players, not {_short(players)}")
    check_seed(seed)
    check_workers(workers)
    check_move_time(move_time)
    ray = check_ray(ray)
    if not isinstance(agent, str):
        raise OptionError(f"the agent is a bot name or MODULE:FUNCTION, not {_short(agent)}")
    bot_function(agent)
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
        bot_function(n)
    if not _is_int(games) or not 2 <= games <= 1_000_000 or games % 2:
        raise OptionError(f"games per level must be an even number from 2 to 1000000, not {_short(games)}")
    if not _is_int(resamples) or not 100 <= resamples <= 100_000:
        raise OptionError(f"resamples must be an integer from 100 to 100000, not {_short(resamples)}")
    lines, size = journal_lines(journal) if journal else ([], 0)
    done = _read_place_journal(journal, lines, agent, players, seed)
    counts = {n: [0] * 5 for n in levels}
    jobs, owner = [], []
    for n in levels:
        s = placement_seed(seed, n)
        for k in range(games // 2):
            if (n, k) in done:
                counts[n][int(round(2 * sum(done[(n, k)])))] += 1
                continue
            jobs.append((players, agent, n, k, *pair_seeds(s, k), 1000, False, move_time))
            owner.append(n)
    log = open_journal(journal, size) if journal else None
    try:
        for n, (k, scores, _) in zip(owner, ordered_map(play_pair, jobs, workers=workers, ray=ray)):
            counts[n][int(round(2 * sum(scores)))] += 1
            if log is not None:
                write_journal(log, {"agent": agent, "players": players, "seed": seed, "level": n, "pair": k,
                                    "scores": scores})
            if on_pair is not None:
                on_pair(n, scores)
    finally:
        if log is not None:
            log.close()
    return Placement(agent, players, levels, counts, {n: table.elo[n] for n in table.entrants}, games, seed,
                     table.seed).fit(table, resamples)
