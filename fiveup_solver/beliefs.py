"""Beliefs weighted by how the other seats play: an opponent model over sampled worlds.

The exact sampler (:mod:`fiveup_solver.inference`) gives every full deal that
fits a seat's observation the same weight. But the other seats' choices say
more: a seat that could have scored 20 with a tile and scored nothing probably
does not hold it. Here each world drawn from the exact sampler is weighted by
the likelihood of every choice the other seats made in the round so far,
under an opponent model fitted to those same choices.

**Decisions.** A decision is a placement another seat chose freely (it could
place at the start of its turn); draws and passes are forced, and the tile
placed right after a seat's own draws is the drawn tile. The seat's hand at a
decision is its dealt tiles plus what it had drawn, less what it had placed:
a world from the sampler gives the class of every hidden tile, and the tiles
of a class are spread over its interchangeable slots (a seat's dealt hand,
the tiles of one of its draw sequences) in a uniform random order, which
completes a uniform full deal of the round (:mod:`fiveup_solver._beliefs`).

**The model.** Given the seat's hand and the public position, the probability
of the move it made among the n canonical moves its hand allowed is

    P(move) = floor / n + (1 - floor) * exp(beta v(move)) / sum exp(beta v(m))

over a small grid of value functions and temperatures (:data:`DEFAULT_GRID`):
``random`` (beta = 0: every move alike), ``credit`` (v = the accepted
placement credit, as greedy counts it), ``engine`` (v = credit - a threat + b
pips + 1000 for an exact 305, where threat is the largest credit the next seat
could answer with from any tile off the board, and pips those of the tile
shed; a and b fitted to the default hint bot's own choices). The floor keeps
every world's weight above zero, whatever the seat really does.

**The fit**, online and per seat, from nothing but that seat's choices as the
observer saw them: Bayesian over the grid, jointly with the hidden tiles. The
prior of each seat's model is the grid's prior times the evidence of the
game's earlier rounds (``past``: the observer's own observations of them, the
last it had of each; :func:`fiveup_solver.inference.past_evidence`), where the evidence of a round is
``mean over its worlds of L_seat(theta, world)``. In this round a world's
weight is the product over the other seats of ``sum_theta prior_seat(theta)
L_seat(theta, world)``, and the posterior of each seat's model is reported.
A greedy player is read sharply (the sharp credit models explain it best); a
random player is read as random (beta = 0), where the only thing a choice
tells is how many moves the hand allowed.

**Importance sampling.** Worlds 0..N-1 are drawn from the hint's own world
streams and weighted. While the effective sample size ``(sum w)^2 / sum w^2``
is at least ``MIN_ESS_FRACTION * N``, the hint searches exactly those N
worlds (the uniform hint's own) and averages each move's values with the
weights (:func:`search_plan`): the same search as a uniform hint, plus the
weighting. Otherwise more worlds are drawn (doubling, up to
``MAX_CANDIDATE_FACTOR * N``), N draws are resampled from all of them
(systematic resampling), and each distinct world drawn is searched once,
weighted by the times it was drawn. With equal weights (the ``none`` model)
the hint is exactly the uniform one (tested).

**The search.** PIMC searches a world as if every seat played perfectly with
everything known. Each searched world also draws a model for every other seat
from that seat's posterior given the world (``prior(theta) L(theta, world)``):
a seat drawn greedy (``credit`` with beta >= :data:`GREEDY_BETA`) is searched
as greedy plays, its largest accepted credits only, ties by its coin (their average), so the
hidden tiles and the way a seat plays come jointly from the posterior
(:meth:`WeightedWorlds.greedy_masks`; ``OpponentModel(search_greedy=False)``
turns it off). Other models are searched as perfect players: the search has no
cheaper proxy for them.

Only the deciding seat's :class:`~fiveup_solver.game.Observation` is read.

>>> from fiveup_solver import Game
>>> from fiveup_solver.inference import DealSampler
>>> g = Game(players=2, seed=3)
>>> for _ in range(6):
...     _ = g.push(g.legal_moves[0])
>>> ww = Beliefs(DealSampler(g.observation(g.to_move))).weigh(64, seed=1)
>>> 0 < ww.ess <= ww.candidates and len(ww.resample(64, seed=1)) <= 64
True
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from fiveup_solver import _beliefs, _core
from fiveup_solver.errors import (MAX_SAMPLES, CoreError, OptionError, as_int, check_seed, is_int as _is_int, is_number as _is_number,
                                  short_repr as _short)
from fiveup_solver.notation import ALL_TILES, BONEYARD

__all__ = ["BELIEFS", "DEFAULT_BELIEFS", "DEFAULT_GRID", "KINDS", "Beliefs", "OpponentModel", "WeightedWorlds",
           "check_beliefs", "decisions_of"]

BELIEFS = ("uniform", "model")
DEFAULT_BELIEFS = "model"        # the hint's default: stronger head to head than "uniform" (README: Reading the opponents)
KINDS = tuple(_beliefs.KINDS)    # none, random, credit, engine
DEFAULT_GRID = (("random", 0.0), ("credit", 0.15), ("credit", 0.5), ("credit", 3.0),
                ("engine", 0.15), ("engine", 0.5))
ENGINE_WEIGHTS = (0.1, 0.05)     # a, b: fitted to 641 choices of the default hint bot (docs/beliefs.md)
MAX_ENGINE_WEIGHT = 1000         # |a|, |b| at most: engine values stay finite at every beta
DEFAULT_FLOOR = 0.05
MIN_ESS_FRACTION = 0.5           # draw more worlds while the ESS is below this share of the worlds wanted
MAX_CANDIDATE_FACTOR = 32        # ... up to this many times the worlds wanted
PLAN_CHUNK = 8192                # worlds drawn or listed between two stop checks (weigh, search_plan)
EVIDENCE_WORLDS = 256            # worlds per earlier round for its evidence
GREEDY_BETA = 3.0                # credit models this sharp (or sharper) describe a greedy player


def check_beliefs(beliefs) -> str:
    """``beliefs`` as given, or None for :data:`DEFAULT_BELIEFS`; OptionError otherwise."""
    if beliefs is None:
        return DEFAULT_BELIEFS
    if not isinstance(beliefs, str) or beliefs not in BELIEFS:
        raise OptionError(f"beliefs must be one of {', '.join(BELIEFS)}, not {_short(beliefs)}")
    return beliefs



@dataclass(frozen=True)
class OpponentModel:
    """The family of opponent models and its prior (one for every other seat).

    ``grid``: (kind, beta) pairs, kind one of :data:`KINDS`; ``prior``: one weight
    per grid point (None: uniform); ``floor``: the uniform share mixed into every
    model; ``engine_weights``: (a, b) of the engine value; ``search_greedy``: each
    searched world also draws a model for every other seat, and a seat drawn
    greedy (credit, beta >= :data:`GREEDY_BETA`) is searched as greedy plays
    (:meth:`WeightedWorlds.greedy_masks`); False: every seat is searched as a
    perfect player.

    >>> OpponentModel(grid=(("credit", 1.0),)).grid
    (('credit', 1.0),)
    >>> OpponentModel(floor=2)
    Traceback (most recent call last):
    ...
    fiveup_solver.errors.OptionError: the model's floor must be a number from 0 to 1, not 2
    """

    grid: tuple = DEFAULT_GRID
    prior: tuple | None = None
    floor: float = DEFAULT_FLOOR
    engine_weights: tuple = ENGINE_WEIGHTS
    search_greedy: bool = True

    def __post_init__(self):
        try:
            grid = tuple((k, b) for k, b in self.grid)
        except (TypeError, ValueError):
            raise OptionError(f"the model's grid must be (kind, beta) pairs, not {_short(self.grid)}") from None
        if not 1 <= len(grid) <= 32:
            raise OptionError(f"the model's grid must have 1 to 32 points, not {len(grid)}")
        for kind, beta in grid:
            if not isinstance(kind, str) or kind not in KINDS:
                raise OptionError(f"a model kind must be one of {', '.join(KINDS)}, not {_short(kind)}")
            if not _is_number(beta) or not 0 <= beta <= 100:
                raise OptionError(f"a model's beta must be a number from 0 to 100, not {_short(beta)}")
        object.__setattr__(self, "grid", grid)
        if self.prior is not None:
            try:
                prior = tuple(self.prior)
            except TypeError:
                raise OptionError(f"the model's prior must be one weight per grid point, "
                                  f"not {_short(self.prior)}") from None
            if len(prior) != len(grid) or not all(_is_number(p) and p >= 0 for p in prior) or sum(prior) <= 0:
                raise OptionError(f"the model's prior must be {len(grid)} weights >= 0, not all 0, "
                                  f"not {_short(self.prior)}")
            object.__setattr__(self, "prior", prior)
        if not _is_number(self.floor) or not 0 <= self.floor <= 1:
            raise OptionError(f"the model's floor must be a number from 0 to 1, not {_short(self.floor)}")
        try:
            a, b = self.engine_weights
        except (TypeError, ValueError):
            a = b = None
        if not (_is_number(a) and _is_number(b) and abs(a) <= MAX_ENGINE_WEIGHT and abs(b) <= MAX_ENGINE_WEIGHT):
            # bounded: a weight near the float limit makes every engine value infinite and
            # the log-likelihoods NaN
            raise OptionError(f"engine_weights must be two numbers (a, b) from -{MAX_ENGINE_WEIGHT} to "
                              f"{MAX_ENGINE_WEIGHT}, not {_short(self.engine_weights)}")
        if not isinstance(self.search_greedy, bool):
            raise OptionError(f"search_greedy must be True or False, not {_short(self.search_greedy)}")

    @property
    def log_prior(self) -> np.ndarray:
        p = np.ones(len(self.grid)) if self.prior is None else np.asarray(self.prior, dtype=float)
        with np.errstate(divide="ignore"):
            return np.log(p / p.sum())

    def labels(self) -> list:
        return [kind if kind in ("none", "random") else f"{kind} {beta:g}" for kind, beta in self.grid]


def decisions_of(ds) -> list:
    """The other seats' free placements in a :class:`~fiveup_solver.inference.DealSampler`'s
    observation: (action index, seat, canonical move, hidden slots it held by
    then, tiles it had placed before, as a mask)."""
    out = []
    placed = {s: 0 for s in range(ds.players)}
    actions = ds._actions
    for i, (s, m) in enumerate(actions):
        if m.kind != "play":
            continue
        after_draw = i > 0 and actions[i - 1][0] == s and actions[i - 1][1].kind == "draw"
        if s != ds.seat and not after_draw:
            slots = [j for j, slot in enumerate(ds._slots) if slot.seat == s and slot.arrival < i]
            out.append((i, s, _core.canonical_of(*m.placement), slots, placed[s]))
        placed[s] |= 1 << m.tile.index
    return out


@dataclass
class WeightedWorlds:
    """Worlds drawn from the exact sampler with their opponent-model weights.

    World k (row k) is the hint's world k for the same seed. ``log_weights`` are
    relative (the largest is 0); ``ess`` is the effective sample size of the
    candidates; ``posterior[seat]`` the posterior over the model grid."""

    seed: int
    hands: np.ndarray          # (M, 4) uint32: the hidden seats' hand masks now
    boneyard: np.ndarray       # (M, 28) uint8: the boneyard in draw order (255 past its end)
    bone_len: int
    loglik: np.ndarray         # (M, 4, models): log-likelihood of each seat's decisions
    log_weights: np.ndarray    # (M,)
    ess: float
    posterior: dict            # seat -> [probability of each grid point]
    decisions: dict            # seat -> free placements seen
    players: int = 4
    model: OpponentModel = field(default_factory=OpponentModel)
    log_prior: np.ndarray | None = None   # (4, models): each seat's log prior (with the earlier rounds)

    def greedy_probabilities(self) -> np.ndarray:
        """(M, 4): each world's probability that each other seat plays a greedy model
        (credit, beta >= :data:`GREEDY_BETA`): its model's posterior given the world,
        prior(theta) L(theta, world) normalised over theta."""
        return self._greedy_rows(slice(None))

    def _greedy_rows(self, rows) -> np.ndarray:
        """:meth:`greedy_probabilities` of the candidates `rows` (an index array or a slice):
        each row is its world's own, so a part of the rows gives that part of the whole."""
        loglik = self.loglik[rows]
        out = np.zeros((len(loglik), 4))
        sharp = [i for i, (kind, beta) in enumerate(self.model.grid) if kind == "credit" and beta >= GREEDY_BETA]
        if not sharp or self.log_prior is None:
            return out
        for s in self.posterior:
            x = loglik[:, s, :] + self.log_prior[s][None, :]
            x = np.where(np.isnan(x), -np.inf, x)
            top = x.max(axis=1, keepdims=True)
            top = np.where(np.isfinite(top), top, 0.0)
            e = np.exp(x - top)
            total = e.sum(axis=1)
            out[:, s] = np.divide(e[:, sharp].sum(axis=1), total, out=np.zeros(len(total)), where=total > 0)
        return out

    def greedy_masks(self, worlds, seed: int, check=None) -> list:
        """For the worlds numbered `worlds` (candidates), the seats drawn greedy in each
        (a bit mask): seat s with world k's probability of a greedy model, from
        the seed's own stream, so that the opponent model and the hidden tiles of a
        searched world come jointly from the posterior. Empty masks when the model
        does not search greedy seats. ``check``: None, or a function called before each
        PLAN_CHUNK worlds (a hint's stop, as :meth:`Beliefs.weigh`'s)."""
        if check is not None and not callable(check):
            raise OptionError(f"check must be a function or None, not {_short(check)}")
        given = worlds
        n = self.candidates
        try:
            worlds = list(worlds)
        except TypeError:
            worlds = None
        # plain ints (a hint's own) checked at once; other integer types (numpy's) one by one
        if worlds is not None and not all(type(k) is int for k in worlds):
            worlds = [as_int(k) for k in worlds]
            if not all(map(_is_int, worlds)):
                worlds = None
        if worlds is None or (worlds and not 0 <= min(worlds) <= max(worlds) < n):
            raise OptionError(f"worlds must be candidate numbers from 0 to {n - 1}, not {_short(given)}")
        seed = check_seed(seed)
        if not self.model.search_greedy:
            return [0] * len(worlds)
        u = np.random.default_rng([int(seed) & (2 ** 64 - 1), 0x6EED]).random((self.candidates, 4))
        ks = np.asarray(worlds, dtype=np.int64)
        bits = []
        for i in range(0, len(ks), PLAN_CHUNK):
            if check is not None:
                check()
            part = ks[i:i + PLAN_CHUNK]
            drawn = u[part] < self._greedy_rows(part)
            bits.extend((drawn.astype(np.int64) @ np.array([1, 2, 4, 8], dtype=np.int64)).tolist())
        return bits        # seat s drawn greedy in a world: bit s of its mask

    @property
    def candidates(self) -> int:
        return len(self.log_weights)

    @property
    def weights(self) -> np.ndarray:
        """Normalised weights of the candidates."""
        w = np.exp(self.log_weights - self.log_weights.max())
        return w / w.sum()

    def resample(self, n: int, seed: int = 0) -> list:
        """Systematic resampling: [(world, times drawn)] for n draws, worlds in order.
        Equal weights over exactly n candidates give every world once."""
        n = check_worlds(n, "the number of worlds to resample")
        seed = check_seed(seed)
        w = np.exp(self.log_weights - self.log_weights.max())     # equal weights: exactly 1.0 each
        c = np.cumsum(w)
        c *= n / c[-1]
        u = np.random.default_rng([int(seed) & (2 ** 64 - 1), 0x5EED]).random()
        picks = np.searchsorted(c, u + np.arange(n), side="right")
        picks = np.minimum(picks, len(w) - 1)
        worlds, counts = np.unique(picks, return_counts=True)
        return [(int(k), int(c_)) for k, c_ in zip(worlds, counts)]

    def world(self, k: int) -> tuple:
        """(hand masks per seat, boneyard tiles in draw order) of world k."""
        k = as_int(k)
        if not _is_int(k) or not 0 <= k < self.candidates:
            # (-1 read the last world)
            raise OptionError(f"world must be a candidate number from 0 to {self.candidates - 1}, not {_short(k)}")
        return ([int(x) for x in self.hands[k, :self.players]], [int(t) for t in self.boneyard[k, :self.bone_len]])

    def marginals(self, ds) -> dict:
        """The weighted probability of each unseen tile being in each hidden seat's hand
        or in the boneyard (a Monte Carlo estimate over the candidates); ``ds``: the
        DealSampler the worlds were drawn for."""
        _check_sampler(ds)
        w = self.weights
        out = {}
        for tile in ds.unseen_tiles:
            t = tile.index
            probs = {s: float(w @ ((self.hands[:, s] >> t) & 1)) for s in ds.hidden_seats}
            probs[BONEYARD] = float(w @ (self.boneyard[:, :self.bone_len] == t).any(axis=1))
            out[tile] = probs
        return out

    def summary(self) -> dict:
        labels = self.model.labels()
        return {"candidates": self.candidates, "ess": round(self.ess, 3),
                "opponents": {str(s): {"decisions": self.decisions[s],
                                       "posterior": {lab: round(p, 4) for lab, p in zip(labels, post)}}
                              for s, post in sorted(self.posterior.items())}}


def check_worlds(n, what: str) -> int:
    """`n` as an int when it is a world count from 1 to MAX_SAMPLES (a numpy integer too:
    errors.as_int), or a one-line OptionError naming `what`."""
    n = as_int(n)
    if not _is_int(n) or not 1 <= n <= MAX_SAMPLES:
        raise OptionError(f"{what} must be an integer from 1 to {MAX_SAMPLES}, not {_short(n)}")
    return n


def check_evidence(evidence, k: int, what: str = "evidence") -> dict:
    """{seat: k finite log evidences as an array} from `evidence` (None: {}), or a one-line
    OptionError naming `what`.

    >>> check_evidence({1: [0.0, -1.5]}, 2)
    {1: array([ 0. , -1.5])}
    >>> check_evidence({1: [0.0, float("inf")]}, 2)
    Traceback (most recent call last):
    ...
    fiveup_solver.errors.OptionError: evidence must map seats 0..3 to 2 finite log evidences, not {1: [0.0, inf]}
    """
    bad = f"{what} must map seats 0..3 to {k} finite log evidences, not {_short(evidence)}"
    if evidence is None:
        return {}
    if not isinstance(evidence, dict):
        raise OptionError(bad)
    out = {}
    for seat, ev in evidence.items():
        seat = as_int(seat)
        try:
            ev = np.asarray(ev, dtype=float)
        except (TypeError, ValueError):
            raise OptionError(bad) from None
        # (an infinite evidence made a NaN prior, then an error that blamed the model's floor)
        if not (_is_int(seat) and 0 <= seat < 4) or ev.shape != (k,) or not np.isfinite(ev).all():
            raise OptionError(bad)
        out[int(seat)] = ev
    return out


def _check_sampler(ds) -> None:
    """A DealSampler (duck-typed: what the model reads of one), or a one-line OptionError."""
    if not all(hasattr(ds, name) for name in ("obs", "counter", "hidden_seats", "unseen_tiles", "players")):
        raise OptionError(f"the worlds come from a DealSampler, not {_short(ds)}")


class Beliefs:
    """The opponent model over one observation's worlds (``Beliefs(ds, model)`` with a
    :class:`~fiveup_solver.inference.DealSampler`).

    Built once per observation: the other seats' decisions and, per decision
    and model, the value table of every move a hand could make there.
    ``evidence``: {seat: log evidence per grid point} of earlier rounds
    (:func:`fiveup_solver.inference.past_evidence`), added to the seat's log prior."""

    def __init__(self, ds, model: OpponentModel | None = None, evidence: dict | None = None):
        if model is None:
            model = OpponentModel()
        if not isinstance(model, OpponentModel):
            raise OptionError(f"model must be an OpponentModel, not {type(model).__name__}")
        _check_sampler(ds)
        self.ds = ds
        self.model = model
        k = len(model.grid)
        self._log_prior = np.tile(model.log_prior, (4, 1))
        for seat, ev in check_evidence(evidence, k).items():
            x = self._log_prior[seat] + ev
            self._log_prior[seat] = x - (x.max() + np.log(np.exp(x - x.max()).sum()))
        self.decisions = decisions_of(ds)
        codes = [(_beliefs.KINDS[k], float(b)) for k, b in model.grid]
        try:
            self._worlds = _beliefs.BeliefWorlds(ds.replayed, ds.counter, ds._class_slots, self.decisions, codes,
                                                 float(model.floor), tuple(float(x) for x in model.engine_weights))
        except CoreError as e:   # the decisions come from a checked observation: this is a bug
            raise RuntimeError(f"opponent model tables: {e}") from None
        self._bone_len = ds.obs.boneyard_size

    def _draw(self, start: int, count: int, seed: int, check=None):
        """Worlds start .. start + count - 1, in parts of PLAN_CHUNK worlds (each world from
        its own stream: the parts change nothing) with `check` called before each."""
        hands = np.zeros((count, 4), dtype=np.uint32)
        bone = np.zeros((count, 28), dtype=np.uint8)
        ll = np.zeros((count, 4, len(self.model.grid)), dtype=np.float64)
        for i in range(0, count, PLAN_CHUNK):
            if check is not None:
                check()
            j = min(count, i + PLAN_CHUNK)
            bad = self._worlds.draw(seed & (2 ** 64 - 1), start + i, ll[i:j], hands[i:j], bone[i:j])
            if bad:
                raise RuntimeError(f"{bad} past decisions were not legal in their worlds: the model tables are wrong")
        return hands, bone, ll

    def weigh(self, n: int, seed: int = 0, *, min_ess_fraction: float = MIN_ESS_FRACTION,
              max_factor: int = MAX_CANDIDATE_FACTOR, check=None) -> WeightedWorlds:
        """Worlds 0..n-1 (the hint's, for this seed) and their weights; more worlds
        (doubling) while the ESS is below ``min_ess_fraction * n``, up to
        ``max_factor * n`` worlds. ``check``: None, or a function called before each
        part of PLAN_CHUNK worlds, which stops the work by raising (a hint's stop)."""
        if check is not None and not callable(check):
            raise OptionError(f"check must be a function or None, not {_short(check)}")
        n = check_worlds(n, "the number of worlds")
        seed = check_seed(seed)
        if not _is_number(min_ess_fraction) or not 0 <= min_ess_fraction <= 1:
            raise OptionError(f"min_ess_fraction must be a number from 0 to 1, not {_short(min_ess_fraction)}")
        max_factor = as_int(max_factor)
        if not _is_int(max_factor) or not 1 <= max_factor <= 1024:
            raise OptionError(f"max_factor must be an integer from 1 to 1024, not {_short(max_factor)}")
        parts = [self._draw(0, n, seed, check)]
        m = n
        # each part's seat terms once (they are per world), a part at a time with a stop check
        terms = [self._seat_terms(parts[0][2], check)]
        lw, ess = self._log_weights(np.concatenate(terms))
        while ess < min_ess_fraction * n and m < max_factor * n:
            step = min(m, max_factor * n - m)
            parts.append(self._draw(m, step, seed, check))
            terms.append(self._seat_terms(parts[-1][2], check))
            m += step
            lw, ess = self._log_weights(np.concatenate(terms))
        def joined(k):      # one part (the ESS kept up) is used as it is, not copied
            if check is not None:
                check()
            return parts[0][k] if len(parts) == 1 else np.concatenate([p[k] for p in parts])
        ll, hands, bone = joined(2), joined(0), joined(1)
        seats = [s for s in self.ds.hidden_seats]
        return WeightedWorlds(seed, hands, bone, self._bone_len, ll, lw, ess,
                              self._posterior(ll, terms[0] if len(terms) == 1 else np.concatenate(terms), seats,
                                              check),
                              {s: sum(1 for d in self.decisions if d[1] == s) for s in seats}, self.ds.players,
                              self.model, self._log_prior.copy())

    def evidence(self, n: int = EVIDENCE_WORLDS, seed: int = 0) -> dict:
        """{seat: log evidence of each grid point}: log of the mean over n uniform worlds
        of the likelihood of the seat's decisions in this observation's round."""
        n = check_worlds(n, "the number of worlds")
        seed = check_seed(seed)
        _, _, ll = self._draw(0, n, seed & (2 ** 64 - 1))
        top = ll.max(axis=0, keepdims=True)
        ev = top[0] + np.log(np.exp(ll - top).mean(axis=0))
        return {s: ev[s].copy() for s in self.ds.hidden_seats}

    def _seat_terms(self, ll, check=None):
        """log sum_theta prior_seat(theta) L_seat(theta, world): (M, 4), PLAN_CHUNK worlds
        at a time (each world's row is its own: the parts change nothing) with `check`
        called before each (a hint's stop, as :meth:`_draw`'s)."""
        out = np.empty(ll.shape[:2], dtype=np.float64)
        for i in range(0, len(ll), PLAN_CHUNK):
            if check is not None:
                check()
            x = ll[i:i + PLAN_CHUNK] + self._log_prior[None, :, :]
            top = x.max(axis=2, keepdims=True)
            top = np.where(np.isfinite(top), top, 0.0)     # a seat whose every model excludes the world
            with np.errstate(divide="ignore"):
                out[i:i + PLAN_CHUNK] = (top + np.log(np.exp(x - top).sum(axis=2, keepdims=True)))[:, :, 0]
        return out

    def _log_weights(self, terms):
        """The candidates' log weights (the largest 0) and their ESS, from their seat terms."""
        lw = terms.sum(axis=1)
        if not np.isfinite(lw.max()):
            raise OptionError("the opponent model excludes every world drawn: give it a floor above 0")
        lw = lw - lw.max()
        w = np.exp(lw)
        return lw, float(w.sum() ** 2 / (w * w).sum())

    def _posterior(self, ll, terms, seats, check=None) -> dict:
        total = terms.sum(axis=1)
        out = {}
        for s in seats:
            # joint over (model of s, world), the other seats' models summed out; built
            # PLAN_CHUNK worlds at a time with a stop check before each, then summed whole
            x = np.empty(ll.shape[::2], dtype=np.float64)
            for i in range(0, len(ll), PLAN_CHUNK):
                if check is not None:
                    check()
                with np.errstate(invalid="ignore"):
                    x[i:i + PLAN_CHUNK] = (ll[i:i + PLAN_CHUNK, s, :] + self._log_prior[s][None, :]
                                           + (total[i:i + PLAN_CHUNK] - terms[i:i + PLAN_CHUNK, s])[:, None])
            x = np.where(np.isnan(x), -np.inf, x)     # worlds a floorless model excludes
            x = x - x.max()
            p = np.exp(x).sum(axis=0)
            out[s] = [float(v) for v in p / p.sum()]
        return out


def search_plan(ww: WeightedWorlds, n: int, seed: int, check=None) -> tuple:
    """The worlds a hint searches for a budget of n worlds, and their weights:
    ([(stream, hands, boneyard, greedy seats mask)], [weight] or None for equal
    weights). Each world carries the seats drawn greedy in it
    (:meth:`WeightedWorlds.greedy_masks`), which its search plays as greedy.

    When the first n worlds kept the ESS up (no more were drawn), they are all
    searched (the uniform hint's own worlds) and weighted by the model
    (importance sampling); with equal weights this is the uniform hint. When
    more worlds were drawn, n draws are resampled from all of them and each
    distinct world is searched once, weighted by the times it was drawn.
    ``check``: as :meth:`Beliefs.weigh`'s, called before each part of the list."""
    if ww.candidates == n:
        w = ww.weights
        masks = ww.greedy_masks(range(n), seed, check)
        worlds = _plan_worlds(ww, list(range(n)), masks, check)
        same = bool(np.all(ww.log_weights == ww.log_weights[0]))
        return worlds, None if same else [float(x) for x in w]
    picks = ww.resample(n, seed)
    masks = ww.greedy_masks([k for k, _ in picks], seed, check)
    return _plan_worlds(ww, [k for k, _ in picks], masks, check), [float(c) for _, c in picks]


def _plan_worlds(ww: WeightedWorlds, ks: list, masks: list, check) -> list:
    """[(k, hand masks, boneyard order, greedy seats)] of the candidates `ks` (what
    ``ww.world(k)`` gives, read from the arrays a part at a time)."""
    out = []
    for i in range(0, len(ks), PLAN_CHUNK):
        if check is not None:
            check()
        part = np.asarray(ks[i:i + PLAN_CHUNK], dtype=np.int64)
        hands = ww.hands[part, :ww.players].tolist()
        bones = ww.boneyard[part, :ww.bone_len].tolist()
        out.extend(zip(ks[i:i + PLAN_CHUNK], hands, bones, masks[i:i + PLAN_CHUNK]))
    return out


def tile_names(mask: int) -> list:
    return [str(ALL_TILES[t]) for t in range(28) if (mask >> t) & 1]


def describe(belief: dict) -> str:
    """Lines for a hint's ``belief`` (or a WeightedWorlds summary): worlds, ESS, each
    other seat's decisions and its most probable models."""
    lines = [f"beliefs: model; {belief['candidates']} worlds weighed, effective sample size {belief['ess']:.1f}"
             + (f", {belief['distinct_worlds']} worlds planned, {belief['searches']} searched (a repeated draw once)"
                if "searches" in belief and belief["searches"] < belief.get("distinct_worlds", 0)
                else f", {belief['distinct_worlds']} distinct worlds searched" if "distinct_worlds" in belief else "")]
    for seat, o in belief["opponents"].items():
        top = sorted(o["posterior"].items(), key=lambda kv: -kv[1])[:3]
        greedy = belief.get("greedy_worlds", {}).get(seat)
        n = o["decisions"]
        lines.append(f"  seat {seat}: {n} choice{'' if n == 1 else 's'} read this round; model "
                     + ", ".join(f"{lab} {100 * p:.0f} %" for lab, p in top)
                     + ("" if greedy is None else f"; searched as greedy in {greedy} of "
                        f"{belief['distinct_worlds']} worlds"))
    return "\n".join(lines)


def __getattr__(name):
    """Names that lived here before the layers (docs/architecture.md) moved up to where they
    belong; they still import from here. The import-linter contract lists these imports."""
    if name in ("past_evidence", "deals_from"):
        from fiveup_solver import inference
        return getattr(inference, name)
    if name == "past_observations":
        from fiveup_solver import record
        return record.past_observations
    if name == "model_hint_bot":
        from fiveup_solver import policies
        return policies.model_hint_bot
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
