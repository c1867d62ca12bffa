"""The hidden-deal sampler (fiveup_solver.inference) against a brute-force oracle.

The oracle (tests/brute_deals.py) enumerates every full deal of the round that
the independent reference rules (tests/reference.py) replay into exactly what
the seat saw; the posterior is uniform over those deals.  Nothing expected here
comes from the engine or from the sampler: the engine only plays the seeded
random games the positions are taken from, and builds the observation handed
to the sampler.

Positions are picked deterministically from seeded random games (2, 3 and 4
players, round 0, round still going): where the seat knows a lot (games with
many draws, later positions first), small enough for the oracle (at most a few
hundred candidates), with quotas for positions with passes, right after another
seat's hidden draw (the seat is not to move), with the seat to move, and a
preference for non-uniform weights over the current deals.  The selection
(test_positions_are_interesting prints it with -s):

    players  positions  hidden draws  passes  seat not to move  right after a     non-uniform
                                                                hidden draw       current weights
       2         12          12          3           8                6                 7
       3         12          12          3           9                6                 6
       4         12          10          3           9                5                 6

36 positions: 19 with non-uniform weights over the current deals, 34 with other
seats' hidden draws, 9 with passes, 26 where the seat is not to move; 4 to 350
candidates and 1 to 280 distinct current deals each (the pass positions with a
single current deal have several full deals: they test sample_round).  The
file runs in about 25 s of CPU (position selection about 8 s).

test_observer_drawing_with_a_placeable_tile_is_inconsistent: an observation in
which the seat itself drew (or passed) while holding a placeable tile fits no
deal; the sampler as first committed (ae0d59f) accepted it.
"""
from __future__ import annotations

import dataclasses
import math
import random
from collections import Counter
from fractions import Fraction
from functools import cached_property, lru_cache
from math import comb

import pytest

from fiveup_solver.game import Game
from fiveup_solver.inference import DealSampler
from fiveup_solver.errors import InconsistentObservationError
from fiveup_solver.notation import ALL_TILES, Tile

try:
    from . import brute_deals as B
    from . import reference as R
    from .positions import build_game
except ImportError:  # tests/ is not a package: pytest puts tests/ on sys.path
    import brute_deals as B
    import reference as R
    from positions import build_game

# ------------------------------------------------------------------ settings
PER_PLAYERS = 12          # positions per player count
SEEDS = {2: range(0, 800), 3: range(1000, 1400), 4: range(2000, 2400)}  # scanned in order until full
MIN_DRAWS = {2: 8, 3: 6, 4: 4}     # only games with at least this many draws (the seat learns more)
QUOTAS = {                          # per player count, wanted first
    2: {"pass": 2, "after_hidden_draw": 4, "to_move": 3, "not_to_move": 3, "hidden_draw": 9},
    3: {"pass": 3, "after_hidden_draw": 4, "to_move": 3, "not_to_move": 3, "hidden_draw": 9},
    4: {"pass": 3, "after_hidden_draw": 4, "to_move": 3, "not_to_move": 3, "hidden_draw": 9},
}
NONUNIFORM = 8            # positions with uneven weights over the current deals wanted per player count
MAX_FREE_DRAWS = 5        # skip positions after more hidden draws the drawer kept
HAND_BOUND = 400          # skip positions with more dealt-hand tuples than this (cheap bound)
WORK_LIMIT = 1200         # oracle work limit per position (replays + hidden-draw branches)
TRIES_PER_GAME = 6        # oracle runs tried per game
PICKS_PER_GAME = 2        # positions kept per game (different seats)
SAMPLES = 3000            # samples per chi-square test
ROUND_SAMPLES = 1000      # sample_round calls per chi-square test over full deals
P_MIN = 1e-4              # per-position chi-square threshold (36 positions: ~0.4% false alarms overall)
P_MIN_TOTAL = 1e-3        # threshold of the pooled chi-square over all positions
MIN_EXPECTED = 5.0        # cells with fewer expected samples are merged


# ------------------------------------------------------------------ positions

def play_random(players: int, seed: int) -> dict:
    """Round 0 of a game with uniformly random legal moves, as a full round spec."""
    g = Game(players, seed)
    rng = random.Random(seed)
    while not g.round_over:
        g.push(rng.choice(g.legal_moves))
    return B._spec_of(g)


@dataclasses.dataclass
class Position:
    players: int
    seed: int
    seat: int
    index: int             # number of actions seen
    spec: dict             # the full round (true deal and all actions)
    view: B.View
    cands: list            # oracle candidates
    kinds: frozenset       # pass / hidden_draw / after_hidden_draw / not_to_move / nonuniform

    @property
    def name(self) -> str:
        return f"{self.players}p seed {self.seed} seat {self.seat} after {self.index} actions"

    @cached_property
    def dist(self) -> dict:
        return B.current_distribution(self.cands)

    def game(self) -> Game:
        return build_game(dict(self.spec, actions=self.spec["actions"][:self.index]))

    def observation(self):
        return self.game().observation(self.seat)


def _to_move(view: B.View) -> int:
    """The seat to act after the view's actions (a drawing seat keeps the turn)."""
    if not view.actions:
        return view.starter
    last = view.actions[-1]
    return last["seat"] if "draw" in last else (last["seat"] + 1) % view.players


def _free_draws(view: B.View) -> int:
    """Hidden draws not followed by the drawer's placement (tiles it may still hold)."""
    acts = view.actions
    return sum(1 for i, a in enumerate(acts) if "draw" in a and a["draw"] is None
               and not (i + 1 < len(acts) and "play" in acts[i + 1]))


def _kinds(view: B.View) -> set:
    acts = view.actions
    out = set()
    if any("pass" in a for a in acts):
        out.add("pass")
    if any("draw" in a and a["draw"] is None for a in acts):
        out.add("hidden_draw")
    if acts and "draw" in acts[-1] and acts[-1]["draw"] is None:
        out.add("after_hidden_draw")
    out.add("not_to_move" if _to_move(view) != view.seat else "to_move")
    return out


def _pick_from_game(players, seed, spec, picked, have, only=None):
    """Add up to PICKS_PER_GAME positions of one game (different seats) to picked.
    only: a kind every position must have.  Kinds whose quota is unmet come first;
    once the free places are used up, only positions of such kinds are taken."""
    quotas = QUOTAS[players]
    options = []
    for seat in range(players):
        views = B.views_along(spec, seat)
        draws = 0
        for index in range(1, len(spec["actions"])):
            v = views[index]
            draws += "draw" in v.actions[-1]
            if v.over:
                break
            kinds = _kinds(v)
            if only is not None and only not in kinds:
                continue
            free = _free_draws(v)
            if free > MAX_FREE_DRAWS:   # their orders multiply the oracle's work
                continue
            bound = B.hand_bound(v)
            if not 0 < bound <= HAND_BOUND:
                continue
            needed = sum(have[k] < q for k, q in quotas.items() if k in kinds)
            # wanted kinds first, then positions after more draws that other seats kept
            # (those make the weights of the current deals uneven), then after more draws
            options.append((-needed, -free, -draws, -index, seat, index, v, kinds))
    options.sort(key=lambda o: o[:6])
    tries, seats_used = 0, set()
    for neg_needed, _, _, _, seat, index, v, kinds in options:
        if tries >= TRIES_PER_GAME or len(seats_used) >= PICKS_PER_GAME or len(picked) >= PER_PLAYERS:
            break
        if seat in seats_used:
            continue
        missing = sum(max(0, q - have[k]) for k, q in quotas.items())
        if PER_PLAYERS - len(picked) <= missing and neg_needed == 0:
            continue
        tries += 1
        try:
            cands = B.consistent_deals(v, limit=WORK_LIMIT)
        except B.TooManyCandidates:
            continue
        dist = B.current_distribution(cands)
        # one current deal only: kept for the full-deal tests when there are several
        # full deals (2 players with an empty boneyard: the other hand is known)
        if len(cands) < 2 or (len(dist) < 2 and "pass" not in kinds):
            continue
        if len(set(dist.values())) > 1:
            kinds = kinds | {"nonuniform"}
        elif have["nonuniform"] < NONUNIFORM and not any(
                have[k] < quotas[k] for k in ("pass", "to_move") if k in kinds):
            continue
        picked.append(Position(players, seed, seat, index, spec, v, cands, frozenset(kinds)))
        have.update(kinds)
        seats_used.add(seat)


@lru_cache(maxsize=None)
def selected(players: int) -> tuple:
    """The test positions for one player count (deterministic)."""
    picked: list[Position] = []
    have = Counter()
    used = set()
    # passes are rare (the boneyard must be empty): first the games that have one
    for seed in SEEDS[players]:
        if have["pass"] >= QUOTAS[players]["pass"]:
            break
        spec = play_random(players, seed)
        if any("pass" in a for a in spec["actions"]):
            before = len(picked)
            _pick_from_game(players, seed, spec, picked, have, only="pass")
            if len(picked) > before:
                used.add(seed)
    for seed in SEEDS[players]:
        if len(picked) >= PER_PLAYERS:
            break
        if seed in used:
            continue
        spec = play_random(players, seed)
        if sum("draw" in a for a in spec["actions"]) >= MIN_DRAWS[players]:
            _pick_from_game(players, seed, spec, picked, have)
    picked.sort(key=lambda p: (p.seed, p.seat))
    return tuple(picked)


def all_positions() -> list:
    return [p for n in (2, 3, 4) for p in selected(n)]


def canon(key):
    """A canonical, hash-seed independent sort key for frozensets nested in tuples."""
    if isinstance(key, (frozenset, set)):
        return tuple(sorted(key))
    if isinstance(key, tuple):
        return tuple(canon(k) for k in key)
    return key


_STR = {t: str(t) for t in ALL_TILES}


def _key(tiles) -> frozenset:
    return frozenset(_STR[t] if t in _STR else str(t) for t in tiles)


def current_key(deal, hidden_seats) -> tuple:
    """A sampled Deal as the oracle's current deal: (hands in seat order, boneyard) as sets."""
    return tuple(_key(deal.hands[q]) for q in hidden_seats), _key(deal.boneyard)


def candidate_key(view: B.View, hands, boneyard) -> tuple:
    """A full deal as the oracle's candidate key: (dealt hand sets, drawn prefix, undrawn set)."""
    d = view.n_draws
    bone = [str(t) for t in boneyard]
    return tuple(_key(h) for h in hands), tuple(bone[:d]), frozenset(bone[d:])


def _cand_key(c: B.Candidate) -> tuple:
    return c.hands, c.drawn, c.undrawn


# ------------------------------------------------------------------ chi-square without scipy

def _gamma_q(a: float, x: float) -> float:
    """Regularized upper incomplete gamma Q(a, x) (series / continued fraction)."""
    if x <= 0:
        return 1.0
    gln = math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        ap = a
        for _ in range(10000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-x + a * math.log(x) - gln))
    # Lentz's continued fraction
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - gln) * h


def chi2_sf(x: float, dof: int) -> float:
    """P(chi-square with dof degrees of freedom >= x)."""
    return _gamma_q(dof / 2, x / 2)


def chi2_test(probs: dict, counts: Counter, n: int):
    """(statistic, dof, p-value) of counts against probs; cells with an expected count
    under MIN_EXPECTED are merged, smallest first.  Counts outside probs' support are
    not allowed (checked separately)."""
    cells = sorted(probs, key=lambda k: (probs[k], canon(k)))
    groups, cur, cur_p = [], [], 0.0
    for k in cells:
        cur.append(k)
        cur_p += float(probs[k])
        if cur_p * n >= MIN_EXPECTED:
            groups.append((cur, cur_p))
            cur, cur_p = [], 0.0
    if cur:
        if groups:
            last, last_p = groups.pop()
            groups.append((last + cur, last_p + cur_p))
        else:
            groups.append((cur, cur_p))
    stat = 0.0
    for members, p in groups:
        observed = sum(counts.get(k, 0) for k in members)
        expected = p * n
        stat += (observed - expected) ** 2 / expected
    dof = len(groups) - 1
    return stat, dof, (chi2_sf(stat, dof) if dof > 0 else 1.0)


# ------------------------------------------------------------------ the chi-square helper itself

@pytest.mark.parametrize("x,dof,p", [
    (3.841458820694124, 1, 0.05), (5.991464547107979, 2, 0.05), (11.070497693516351, 5, 0.05),
    (18.307038053275146, 10, 0.05), (43.77297182574219, 30, 0.05), (124.34211340400407, 100, 0.05),
    (10.827566170662733, 1, 0.001), (29.58829844507442, 10, 0.001), (86.66082, 50, 0.001),
    (0.0, 3, 1.0), (1.0, 4, 0.9097959895689501), (0.001, 1, 0.9747728793699604),
    (300.0, 250, 0.016518273157868715), (400.0, 200, 1.8438936497115418e-15),
])
def test_chi2_sf_known_values(x, dof, p):
    got = chi2_sf(x, dof)
    assert got == pytest.approx(p, rel=2e-4, abs=0)


def test_chi2_sf_two_dof_is_exponential():
    for x in (0.1, 1.0, 7.5, 30.0):
        assert chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-12)


# ------------------------------------------------------------------ the oracle on its own

def test_positions_are_interesting():
    rows = []
    for n in (2, 3, 4):
        ps = selected(n)
        assert len(ps) == PER_PLAYERS, f"{n} players: only {len(ps)} positions"
        count = Counter(k for p in ps for k in p.kinds)
        rows.append((n, len(ps), count))
        assert count["hidden_draw"] >= PER_PLAYERS // 2
        assert count["pass"] >= 2
        assert count["not_to_move"] >= 3
        assert count["after_hidden_draw"] >= 2
        assert count["nonuniform"] >= 5
        assert len({(p.seed, p.seat) for p in ps}) == len(ps)
    print("\nplayers positions hidden_draw pass not_to_move after_hidden_draw nonuniform")
    for n, k, c in rows:
        print(n, k, c["hidden_draw"], c["pass"], c["not_to_move"], c["after_hidden_draw"], c["nonuniform"])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_oracle_finds_the_true_deal(players):
    """The deal that was actually played is consistent: it is among the candidates,
    and the candidates replay from scratch under the reference rules."""
    for p in selected(players):
        spec, d = p.spec, p.view.n_draws
        true = (tuple(frozenset(h) for h in spec["hands"]), tuple(spec["boneyard"][:d]),
                frozenset(spec["boneyard"][d:]))
        keys = {_cand_key(c) for c in p.cands}
        assert len(keys) == len(p.cands), p.name
        assert true in keys, p.name
        for c in p.cands[:: max(1, len(p.cands) // 40)]:
            assert B.replay_full_deal(p.view, *c.full_deal()) is None, p.name
        # every candidate's current deal partitions exactly the unseen tiles
        unseen = B.unseen_tiles(p.view)
        for c in p.cands:
            hands, bone = c.current
            assert frozenset().union(*hands, bone) == unseen
            assert sum(map(len, hands)) + len(bone) == len(unseen)


def test_oracle_true_deal_in_many_positions():
    """Recall over many more positions: the true deal of every small position is found
    (a pruning rule that threw away consistent deals would miss it sometimes)."""
    checked = 0
    for players, seeds in ((2, range(3000, 3012)), (3, range(3100, 3112)), (4, range(3200, 3212))):
        for seed in seeds:
            spec = play_random(players, seed)
            for seat in range(players):
                for index, v in enumerate(B.views_along(spec, seat)[:-1]):
                    if index % 3 or not 0 < B.hand_bound(v) <= 150:
                        continue
                    try:
                        cands = B.consistent_deals(v, limit=800)
                    except B.TooManyCandidates:
                        continue
                    d = v.n_draws
                    true = (tuple(frozenset(h) for h in spec["hands"]), tuple(spec["boneyard"][:d]),
                            frozenset(spec["boneyard"][d:]))
                    assert true in {_cand_key(c) for c in cands}, (players, seed, seat, index)
                    checked += 1
    assert checked >= 60


def test_oracle_pruning_loses_nothing():
    """On small 2-player positions the pruned enumeration equals the plain one
    (every 5-set of the unknown tiles, every tile at every hidden draw)."""
    compared = 0
    for seed in range(150, 3000):     # games with small enough positions, whatever the dealing
        spec = play_random(2, seed)
        for seat in range(2):
            for index, v in enumerate(B.views_along(spec, seat)[:-1]):
                pool = 28 - len(B._known_to_seat(v))
                hidden = sum("draw" in a and a["draw"] is None for a in v.actions)
                if index % 2 or comb(pool, 5) > 1300 or hidden > 4:
                    continue
                try:
                    plain = B.consistent_deals(v, prune=False, limit=40000)
                except B.TooManyCandidates:
                    continue
                pruned = B.consistent_deals(v)
                keys = set(map(_cand_key, pruned))
                assert len(keys) == len(pruned) and len(plain) == len(pruned), (seed, seat, index)
                assert keys == set(map(_cand_key, plain)), (seed, seat, index)
                compared += 1
                if compared >= 24:
                    return
    assert compared >= 12


def test_chi2_detects_wrong_distributions():
    """The chi-square check fails on deliberately wrong samplers: uniform over the
    oracle's support (where the weights are not uniform), the right weights
    restricted to a subset of the deals, and weights that forget the order of the
    hidden draws."""
    rng = random.Random(20240)
    # 1. uniform over the support, on the positions where that is far off
    strong = []
    for p in all_positions():
        dist = p.dist
        u = 1 / len(dist)
        lam = SAMPLES * sum((u - float(q)) ** 2 / float(q) for q in dist.values())
        strong.append((lam, p))
    strong.sort(key=lambda t: -t[0])
    assert strong[0][0] > 200, "no position with clearly non-uniform weights"
    detected = 0
    for lam, p in strong[:5]:
        dist = p.dist
        support = sorted(dist, key=canon)
        counts = Counter(rng.choice(support) for _ in range(SAMPLES))
        stat, dof, pv = chi2_test(dist, counts, SAMPLES)
        detected += pv < P_MIN
    assert detected == 5
    # 2. the right weights, but a sampler that never puts one tile in the boneyard
    p = strong[0][1]
    dist = p.dist
    marg = B.marginals_from(p.view, p.cands)
    tile = min(marg, key=lambda t: (abs(marg[t]["boneyard"] - Fraction(1, 2)), t))
    keep = {k: q for k, q in dist.items() if tile not in k[1]}
    assert 0 < len(keep) < len(dist)
    cells, weights = zip(*sorted(keep.items(), key=lambda kv: canon(kv[0])))
    counts = Counter(rng.choices(cells, weights=[float(w) for w in weights], k=SAMPLES))
    assert chi2_test(dist, counts, SAMPLES)[2] < P_MIN
    # 3. a subtler bug: weights counting the dealt hands only, not which hidden draw
    #    took which tile (the drawn tiles' order forgotten)
    detected = 0
    for p in all_positions():
        by_hands = {}
        for c in p.cands:
            by_hands.setdefault(c.current, set()).add(c.hands)
        total = sum(len(v) for v in by_hands.values())
        wrong = {k: Fraction(len(v), total) for k, v in by_hands.items()}
        lam = SAMPLES * sum((wrong[k] - q) ** 2 / q for k, q in p.dist.items())
        if lam < 100:
            continue
        cells = sorted(wrong, key=canon)
        counts = Counter(rng.choices(cells, weights=[float(wrong[k]) for k in cells], k=SAMPLES))
        assert chi2_test(p.dist, counts, SAMPLES)[2] < P_MIN, p.name
        detected += 1
    assert detected >= 3
    # 4. the right weights pass (a sanity check of the test, not of the sampler)
    cells, weights = zip(*sorted(dist.items(), key=lambda kv: canon(kv[0])))
    counts = Counter(rng.choices(cells, weights=[float(w) for w in weights], k=SAMPLES))
    assert chi2_test(dist, counts, SAMPLES)[2] > P_MIN


# ------------------------------------------------------------------ the sampler against the oracle

def _sampler(p: Position):
    obs = p.observation()
    # the observation the sampler gets is the oracle's view
    assert [dict(a) for a in obs.history] == [dict(a) for a in p.view.actions]
    assert obs.status == "playing"
    return obs, DealSampler(obs)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_marginals_match_oracle(players):
    for p in selected(players):
        _, ds = _sampler(p)
        exact = B.marginals_from(p.view, p.cands)
        assert {str(t) for t in ds.unseen_tiles} == set(exact), p.name
        assert len(ds.unseen_tiles) == len(exact), p.name
        got = {str(t): d for t, d in ds.marginals().items()}
        assert set(got) == set(exact), p.name
        keys = set(p.view.hidden_seats) | {"boneyard"}
        for t, probs in exact.items():
            assert keys <= set(got[t]), (p.name, t, got[t])
            assert set(got[t]) <= keys, (p.name, t, got[t])
            for k in keys:
                assert abs(got[t][k] - float(probs[k])) <= 1e-9, (p.name, t, k, got[t][k], probs[k])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_samples_in_support_and_shaped_like_the_observation(players):
    for p in selected(players):
        obs, ds = _sampler(p)
        support = set(p.dist)
        hidden = p.view.hidden_seats
        for deal in ds.sample(300, seed=11):
            assert set(deal.hands) == set(hidden), p.name
            for q in hidden:
                assert len(deal.hands[q]) == obs.hand_sizes[q], p.name
            assert len(deal.boneyard) == obs.boneyard_size, p.name
            assert current_key(deal, hidden) in support, p.name


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sample_round_replays_under_the_reference(players):
    """Every sampled full deal replays the recorded actions legally (reference rules),
    reproduces the seat's observation (engine replay), and is one of the oracle's deals."""
    for p in selected(players):
        obs, ds = _sampler(p)
        keys = {_cand_key(c) for c in p.cands}
        for seed in range(25):
            hands, boneyard = ds.sample_round(seed)
            assert all(isinstance(t, Tile) for h in hands for t in h), p.name
            assert B.replay_full_deal(p.view, hands, boneyard) is None, \
                (p.name, seed, B.replay_full_deal(p.view, hands, boneyard))
            assert candidate_key(p.view, hands, boneyard) in keys, (p.name, seed)
            if seed < 5:
                actions = B.fill_hidden_draws(p.view, [str(t) for t in boneyard])
                g = build_game({"players": p.players, "hands": [[str(t) for t in h] for h in hands],
                                "boneyard": [str(t) for t in boneyard], "starter": p.spec["starter"],
                                "scores": p.spec["scores"], "actions": actions})
                again = g.observation(p.seat)
                assert _obs_dict(again) == _obs_dict(obs), (p.name, seed)


def _obs_dict(obs) -> dict:
    d = obs.to_dict()
    d["hand"] = sorted(d["hand"])
    d["legal_moves"] = sorted(str(m) for m in obs.legal_moves)
    d["end_sums_after"] = sorted(zip(map(str, obs.legal_moves), obs.end_sums_after))
    return d


@pytest.mark.parametrize("players", [2, 3, 4])
def test_current_deals_chi_square(players):
    """Sample frequencies of the current deals fit the oracle's weights."""
    pooled_stat, pooled_dof = 0.0, 0
    for p in selected(players):
        _, ds = _sampler(p)
        dist = p.dist
        hidden = p.view.hidden_seats
        counts = Counter(current_key(d, hidden) for d in ds.sample(SAMPLES, seed=1000 + p.seed))
        outside = set(counts) - set(dist)
        assert not outside, p.name
        stat, dof, pv = chi2_test(dist, counts, SAMPLES)
        pooled_stat += stat
        pooled_dof += dof
        assert pv > P_MIN, (p.name, stat, dof, pv)
    # many small biases add up: the pooled statistic over all positions
    assert chi2_sf(pooled_stat, pooled_dof) > P_MIN_TOTAL, (players, pooled_stat, pooled_dof)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_full_deals_chi_square(players):
    """sample_round draws the oracle's candidates (all of equal weight) uniformly,
    on the positions with few enough of them."""
    tested = 0
    for p in selected(players):
        if len(p.cands) * MIN_EXPECTED > ROUND_SAMPLES:
            continue
        _, ds = _sampler(p)
        counts = Counter(candidate_key(p.view, *ds.sample_round(seed)) for seed in range(ROUND_SAMPLES))
        uniform = {_cand_key(c): Fraction(1, len(p.cands)) for c in p.cands}
        assert not set(counts) - set(uniform), p.name
        stat, dof, pv = chi2_test(uniform, counts, ROUND_SAMPLES)
        assert pv > P_MIN, (p.name, stat, dof, pv)
        tested += 1
    assert tested >= 3


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sampling_is_deterministic(players):
    for p in selected(players)[:4]:
        obs, ds = _sampler(p)
        again = DealSampler(obs)
        first = ds.sample(40, seed=5)
        assert first == ds.sample(40, seed=5) == again.sample(40, seed=5), p.name
        assert ds.sample_round(9) == ds.sample_round(9) == again.sample_round(9), p.name
        assert ds.marginals() == again.marginals(), p.name


def _own_hand_swaps(p: Position):
    """Observations with the seat's own dealt hand changed: one tile it still holds
    swapped for an unseen tile.  Yields (x, y, the oracle's view, the changed
    observation, the seat drew or passed while y was placeable)."""
    obs = p.observation()
    unseen = sorted(B.unseen_tiles(p.view))
    held = sorted(str(t) for t in obs.hand if str(t) in p.view.own_hand)
    open_before, _ = B._timeline(p.view)
    for x, y in list(zip(held, unseen))[:3] + list(zip(held[::-1], unseen[::-1]))[:3]:
        own = tuple(sorted(set(p.view.own_hand) - {x} | {y}))
        view = dataclasses.replace(p.view, own_hand=own)
        hand = tuple(sorted((t for t in obs.hand if str(t) != x), key=str)) + (Tile.parse(y),)
        changed = dataclasses.replace(obs, hand=hand, legal_moves=(), end_sums_after=())
        own_illegal = any(a["seat"] == p.seat and ("draw" in a or "pass" in a)
                          and set(R.VALUES[y]) & open_before[i] for i, a in enumerate(p.view.actions))
        yield x, y, view, changed, own_illegal


@pytest.mark.parametrize("players", [2, 3, 4])
def test_changed_own_hand_matches_oracle(players):
    """Hand the sampler observations with a changed own hand (the seat's own draws
    and passes stay legal): where the oracle finds no deal the sampler must raise
    InconsistentObservationError, elsewhere the marginals must agree."""
    raised = agreed = 0
    for p in selected(players)[:8]:
        for x, y, view, changed, own_illegal in _own_hand_swaps(p):
            if own_illegal:
                continue
            try:
                cands = B.consistent_deals(view, limit=2 * WORK_LIMIT)
            except B.TooManyCandidates:
                continue
            if not cands:
                with pytest.raises(InconsistentObservationError):
                    DealSampler(changed)
                raised += 1
                continue
            exact = B.marginals_from(view, cands)
            got = {str(t): d for t, d in DealSampler(changed).marginals().items()}
            assert set(got) == set(exact), (p.name, x, y)
            for t, probs in exact.items():
                for k, v in probs.items():
                    assert abs(got[t][k] - float(v)) <= 1e-9, (p.name, x, y, t, k)
            agreed += 1
    assert agreed >= 5


def test_observer_drawing_with_a_placeable_tile_is_inconsistent():
    """An observation in which the seat itself drew or passed while holding a
    placeable tile fits no deal (RULES §5.1): the sampler must say so."""
    found = 0
    for p in all_positions():
        for x, y, view, changed, own_illegal in _own_hand_swaps(p):
            if not own_illegal:
                continue
            assert B.consistent_deals(view) == [], (p.name, x, y)
            with pytest.raises(InconsistentObservationError):
                DealSampler(changed)
            found += 1
            if found >= 6:
                return
    assert found


def test_the_sampler_refuses_counts_and_seeds_out_of_range():
    """At most 1,000,000 deals a call (10^9 ran out of memory instead), and seeds from
    0 to 2^64-1: a seed of 2^64 gave seed 0's deals, -1 those of 2^64-1."""
    from fiveup_solver import Game, OptionError
    from fiveup_solver.inference import DealSampler
    g = Game(players=3, seed=4)
    ds = DealSampler(g.observation(g.to_move))
    for bad in (10 ** 9, 1_000_001, -1, True, 2.0):
        with pytest.raises(OptionError, match="number of samples"):
            ds.sample(bad)
        with pytest.raises(OptionError, match="number of samples"):
            ds.sample_rounds(bad)
    for bad in (2 ** 64, -1, -(2 ** 63), True, "1", None):
        with pytest.raises(OptionError, match="seed"):
            ds.sample(1, seed=bad)
        with pytest.raises(OptionError, match="seed"):
            ds.sample_rounds(1, seed=bad)
    assert len(ds.sample(2, seed=2 ** 64 - 1)) == 2 and len(ds.sample(1, seed=0)) == 1


def test_drawing_is_refused_where_no_other_seat_is_about_to_draw():
    from fiveup_solver.errors import OptionError
    g = Game(players=3, seed=4)
    me = g.to_move
    with pytest.raises(OptionError, match="no other seat about to draw"):
        DealSampler(g.observation(me), drawing=True)           # the observer itself is to move
    with pytest.raises(OptionError, match="drawing must be True or False"):
        DealSampler(g.observation((me + 1) % 3), drawing=1)
