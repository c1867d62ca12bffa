#!/usr/bin/env python3
"""A long fuzz campaign against every input boundary of fiveup_solver.

The contract under test: every call either succeeds or raises a subclass of
``fiveup_solver.errors.FiveUpError`` whose message is exactly one line.
Anything else is a *finding*: another exception type, an empty or multi-line
message, a crash (a signal or a non-zero exit of the worker, e.g. a sanitizer
report), or a hang (one input running longer than ``--time-limit``).

Families of inputs (``--list-families``; weights give their share):

* ``parse``: tile, port and move strings and constructors, bot names, raw
  scores, with random and malformed values;
* ``bytes``: byte-level mutations of record files (self-play records and seat
  views) through ``parse_record_text``, ``check_record``, ``game_from_record``;
* ``json``: structural mutations of records (wrong types, huge and negative
  numbers, out-of-range seats, tiles and ports, duplicated tiles, truncated
  lists, extra and missing keys, shuffled actions), through ``check_record``,
  ``replay``, ``game_at`` and ``observation_at``;
* ``view``: seat views (``Game.to_record(view=s)``), mutated, then checked,
  replayed (their hidden tiles are sampled) and turned into observations;
* ``game``: ``Game`` API calls in random orders: legal, illegal and malformed
  pushes, pop, copy, observation, next_round, start_round with bad deals,
  starters and scores, to_record and its replay;
* ``core``: the Cython core's own entry points (``CoreRound``,
  ``board_trace``, ``canonical_of``, ``DealCounter``, ...) with bad arguments;
* ``observation``: hand-built ``Observation`` objects (fields replaced with
  wrong lengths, types and values, made-up legal moves, scores of the wrong
  length) given to ``DealSampler``, ``hint`` and the bots;
* ``options``: ``hint``, ``DealSampler.sample``/``marginals``,
  ``Solver.solve``/``value``, ``world_values`` and ``perft`` on real
  positions with random and bad options (tiny budgets: samples 1-4, about
  200 nodes per world, node_limit 2000);
* ``owners``: the Cython owners the Python layer drives, called directly:
  ``SolverCore`` (constructor, ``set_objective`` with equity tables of wrong
  dtypes, shapes and values, ``set_search``, the ``history_cap`` and
  ``lean_leaves`` setters, ``solve_moves``, ``value``, ``debug_window`` with
  any window, ``maxn_moves``, ``best_move``, ``principal_variation``),
  ``WorldSearch`` (constructor with sampled or given worlds, ``source``,
  ``depth_of``, ``horizons``; ``work``, ``value_world``, ``results``,
  ``group_plan``, ``_set_max_groups``), ``AlphaMuSearch`` (constructor,
  ``follow``, ``work``, ``results``, ``leaf_horizons``), ``BeliefWorlds``
  (constructor, ``inspect``, ``draw`` with arrays of wrong dtypes, shapes and
  ndim) and ``_beliefs.move_features``: valid arguments from the base
  material's positions, one or two replaced by wrong types, lengths and
  values, objects of the wrong class, and calls in odd orders (work twice,
  results first, a search bound to a search of another position, a max^n
  core or one with another player count's table given to a search, objects
  made with ``__new__`` only, or initialised twice or after a refused
  ``__init__``). Tiny budgets (node limits up to 2000, world and leaf budgets
  up to 300 nodes, 1-4 worlds). On late positions (8-12 tiles left) a
  ``SolverCore`` that went through odd calls must give the exact values of a
  fresh one (a ``ValueMismatch`` finding otherwise).

Design: ``--workers`` processes (forked from the parent, which builds the
seeded base material once) each run their own deterministic stream: input i
of worker w comes only from (seed, w, i), so ``--replay FAMILY:SEED:W:I``
rebuilds and reruns exactly that input (``--show`` prints it). Before each
input a worker writes its index, its start time and the call it is in into
shared memory; the parent's watchdog names the input a worker crashed on, or
dumps the stack (faulthandler) of one that exceeded the time limit, kills it,
and restarts the worker after that input. Findings are deduplicated by kind,
exception type and raising location (for crashes: signal, call and sanitizer
or faulthandler frame); the report (``--out`` JSON, Markdown on stdout) gives
inputs and inputs/s per family, every finding group with examples and a
replay command.

Usage::

    python benchmarks/fuzz_campaign.py                          # 1,000,000 inputs, 2 workers, seed 0
    python benchmarks/fuzz_campaign.py --inputs 20000 --seed 3 --out /tmp/fuzz.json
    python benchmarks/fuzz_campaign.py --replay json:0:1:4711 --show

Under AddressSanitizer + UndefinedBehaviorSanitizer (a sanitizer build in a
copy of the tree, see ``benchmarks/sanitize.sh``)::

    PYTHON=/tmp/fiveup-san-venv/bin/python benchmarks/sanitize.sh --fuzz --inputs 100000 --out /tmp/fuzz-san.json

which runs, in the sanitized copy, with LD_PRELOAD of libasan and libubsan,
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:..., PYTHONMALLOC=malloc::

    python benchmarks/fuzz_campaign.py --sanitized [options]

``--sanitized`` checks that the imported extensions are ASan builds, re-executes
itself with the sanitizer runtimes preloaded when they are not yet, and
attaches each worker's sanitizer report to its crash finding.
"""
from __future__ import annotations

import argparse
import copy
import dataclasses
import faulthandler
import json
import math
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

DEFAULT_INPUTS = 1_000_000
DEFAULT_WORKERS = 2
DEFAULT_TIME_LIMIT = 10.0
DEFAULT_MEMORY_LIMIT_MB = 4096
EXAMPLES_PER_GROUP = 5
TAG_BYTES = 96

# --------------------------------------------------------------------------- the API (imported lazily)
# fiveup_solver is imported only when inputs run: collecting this file (pytest
# --doctest-modules) stays cheap, and --sanitized can re-execute itself with the
# sanitizer runtimes preloaded before any sanitized extension is loaded.
A = None


def load_api():
    global A
    if A is not None:
        return A
    import types

    import fiveup_solver
    from fiveup_solver import _core, bots, game, hint, inference, record, selfplay, solver
    try:
        from fiveup_solver import errors, notation
    except ImportError:  # older trees (before errors.py/notation.py): one types module held both
        from fiveup_solver import types as errors
        notation = errors
    if not hasattr(errors, "short_repr"):
        errors.short_repr = getattr(errors, "_short", repr)
    ns = types.SimpleNamespace(
        fs=fiveup_solver, core=_core, bots=bots, errors=errors, game=game, hint=hint, inference=inference,
        notation=notation, record=record, selfplay=selfplay, solver=solver,
        FiveUpError=errors.FiveUpError, Game=game.Game, Observation=game.Observation,
        Move=notation.Move, Tile=notation.Tile, Port=notation.Port, ALL_TILES=notation.ALL_TILES,
    )
    for name in ("_sampler", "_solver", "_hint", "_alphamu"):   # the extensions: A.c_sampler, A.c_solver, ...
        try:
            setattr(ns, "c" + name, __import__(f"fiveup_solver.{name}", fromlist=["x"]))
        except ImportError:  # pragma: no cover
            setattr(ns, "c" + name, None)
    A = ns
    return A


# --------------------------------------------------------------------------- the contract
class Finding(Exception):
    """A broken contract: kind is exception, multiline, empty-message (crash and hang come from the parent)."""

    def __init__(self, kind, op, exc_type, message, where, tb=""):
        super().__init__(kind)
        self.kind, self.op, self.exc_type, self.message, self.where, self.tb = kind, op, exc_type, message, where, tb


def _innermost(tb_obj) -> str:
    frames = traceback.extract_tb(tb_obj)
    if not frames:
        return "?"
    inside = [f for f in frames if "fiveup_solver" in f.filename.replace("\\", "/")
              or f.filename.endswith((".pyx", ".pxd"))]
    f = (inside or frames)[-1]
    return f"{_short_path(f.filename)}:{f.lineno} {f.name}"


def _short_path(path: str) -> str:
    path = path.replace("\\", "/")
    for marker in ("fiveup_solver/", "benchmarks/"):
        if marker in path:
            return marker + path.rsplit(marker, 1)[1]
    return path.rsplit("/", 1)[-1]


class Ctx:
    """Runs calls under the contract; names the current call in shared memory for the watchdog."""

    def __init__(self, tag_writer=None, verbose=False, workdir=None):
        self.tag_writer = tag_writer
        self.verbose = verbose
        self.workdir = workdir
        self.index = 0
        self.op = ""
        self.calls = 0

    def call(self, op, fn, *args, **kw):
        """(True, result) or (False, the FiveUpError); raises Finding on a broken contract."""
        self.op = op
        self.calls += 1
        if self.tag_writer is not None:
            self.tag_writer(op)
        if self.verbose:
            print(f"  call {op}", flush=True)
        try:
            result = fn(*args, **kw)
        except A.FiveUpError as e:
            message = str(e)
            if not message:
                raise Finding("empty-message", op, type(e).__name__, "", _innermost(e.__traceback__),
                              traceback.format_exc()) from None
            if "\n" in message or "\r" in message:
                raise Finding("multiline", op, type(e).__name__, message[:300], _innermost(e.__traceback__),
                              traceback.format_exc()) from None
            if self.verbose:
                print(f"    -> {type(e).__name__}: {message}", flush=True)
            return False, e
        except (Exception, SystemExit) as e:  # noqa: BLE001 - anything else breaks the contract
            message = str(e)
            first = message.splitlines()[0] if message.splitlines() else message
            raise Finding("exception", op, type(e).__name__, first[:300], _innermost(e.__traceback__),
                          traceback.format_exc()) from None
        if self.verbose:
            print(f"    -> ok {_brief(result)}", flush=True)
        return True, result


def _brief(x, limit=100) -> str:
    try:
        s = repr(x)
    except Exception as e:  # noqa: BLE001
        s = f"<unrepresentable {type(e).__name__}>"
    return s if len(s) <= limit else s[: limit - 3] + "..."


# --------------------------------------------------------------------------- random values
HUGE_INTS = [2 ** 31 - 1, 2 ** 31, -2 ** 31 - 1, 2 ** 32, 2 ** 53 + 1, 2 ** 63 - 1, 2 ** 63, 2 ** 64,
             -2 ** 63 - 1, 10 ** 20, -10 ** 20, 10 ** 100]
EDGE_INTS = [-1, -2, -5, 0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 15, 27, 28, 29, 31, 32, 63, 64, 65, 100, 127, 128,
             255, 256, 300, 304, 305, 306, 1000, 30000, -30000, -30001, 32767, 32768, -32768, -32769, 65535,
             65536]
WEIRD_STRINGS = ["", "0", "1", "-1", "3-4", "4-3", "6-6", "0-0", "7-7", "3-7", "-3-4", "3--4", "34", "3-4-5",
                 "3-4@4-4:lineB", "1-4:low", "6-6:branchA", "draw", "pass", "play", "x", "None", "null",
                 "\n", "a\nb", "3-4\n", "\r", "\u2028", "\x00", "\x0b", "é", "３-４", " 3-4", "3-4 ", "3_4",
                 "lineA", "low", "x" * 300, "9" * 60, "[", "{}", "\ud800"]
PORT_NAMES = ["low", "high", "lineA", "lineB", "branchA", "branchB"]
BAD_PORT_NAMES = ["", "LOW", "line", "lineC", "branch", "branchC", "hi", "lo", "mid", "low ", "0", "lineA\n"]
RECORD_KEYS = ["format", "players", "seats", "rounds", "view", "starter", "hands", "boneyard", "actions",
               "revealed", "seat", "play", "at", "draw", "pass", "winner", "scores", "x", ""]


def weird(rng: random.Random, json_only: bool = False):
    """A value of a random kind, mostly wrong for wherever it lands."""
    r = rng.random()
    if r < 0.08:
        return None
    if r < 0.13:
        return rng.choice([True, False])
    if r < 0.33:
        return rng.choice(EDGE_INTS)
    if r < 0.43:
        return rng.choice(HUGE_INTS)
    if r < 0.50:
        return rng.choice([1.5, -0.0, 0.0, 2.0, 1e308, -1e308, 5e-324, 3.0] +
                          ([] if json_only else [math.nan, math.inf, -math.inf]))
    if r < 0.72:
        return rng.choice(WEIRD_STRINGS)
    if r < 0.82:
        return rng.choice([[], [None], [0, 1, 2], list(range(70)), [[[]]], ["3-4"] * 6, [{"seat": 0}],
                           [rand_tile_str(rng) for _ in range(rng.randrange(12))]])
    if r < 0.90:
        return rng.choice([{}, {"seat": 0}, {"seat": 0, "play": "3-4"}, {"x": 1}, {"format": "fiveup-record/1"},
                           {str(i): i for i in range(5)}])
    if json_only:
        return rng.choice([[0] * 5, "fiveup-record/1", -0.5, 12345678901234567890])
    api = load_api()
    return rng.choice([
        (1, 2), (), {1, 2}, frozenset(), b"3-4", bytearray(b"x"), object(), 1 + 2j, range(5), iter([1]),
        api.ALL_TILES[rng.randrange(28)], api.Port.parse("1-4:low"), api.Move.draw(), api.Move.pass_(),
        api.Tile, Ellipsis, NotImplemented, float, "3-4".encode("utf-16"),
    ])


def rand_tile_str(rng: random.Random) -> str:
    a, b = rng.randrange(7), rng.randrange(7)
    if rng.random() < 0.85:
        return f"{a}-{b}"
    return rng.choice([f"{a}-{b + 7}", f"{a}{b}", f"{a}-", f"-{b}", f"{a}-{b}-{a}", f"{a}:{b}", f"{a + 7}-{b}",
                       f"{a}-{b}".upper() + " ", f"{a} - {b}", f"{a}-{b}\n"])


def rand_port_str(rng: random.Random) -> str:
    t = rand_tile_str(rng)
    name = rng.choice(PORT_NAMES) if rng.random() < 0.85 else rng.choice(BAD_PORT_NAMES)
    if rng.random() < 0.05:
        return rng.choice([t, f"{t}:{name}:{name}", f":{name}", f"{t}:", f"{t}@{name}"])
    return f"{t}:{name}"


def rand_tile(rng):
    return A.ALL_TILES[rng.randrange(28)]


def rand_port(rng):
    t = rand_tile(rng)
    return A.Port(t, rng.choice(t.port_names))


def rand_move(rng):
    r = rng.random()
    if r < 0.1:
        return A.Move.play(rand_tile(rng))
    if r < 0.9:
        return A.Move.play(rand_tile(rng), rand_port(rng))
    if r < 0.95:
        return A.Move.draw(rand_tile(rng) if rng.random() < 0.5 else None)
    return A.Move.pass_()


def bad_move(rng):
    """A Move-like value that is malformed (bypassing the dataclass's types) or not a move at all."""
    r = rng.random()
    if r < 0.5:
        kind = rng.choice(["play", "draw", "pass", "", "PLAY", "undo", None, 3])
        tile = rng.choice([None, rand_tile(rng), "3-4", 5, rand_port(rng), weird(rng)])
        at = rng.choice([None, rand_port(rng), "1-4:low", rand_tile(rng), 0, weird(rng)])
        return A.Move(kind, tile, at)
    return weird(rng)


def mutate_text(rng: random.Random, s: str) -> str:
    if not s or rng.random() < 0.2:
        return rng.choice(WEIRD_STRINGS)
    ops = rng.randrange(1, 3)
    s = list(s)
    for _ in range(ops):
        k = rng.randrange(len(s) + 1)
        r = rng.random()
        if r < 0.3 and s:
            del s[min(k, len(s) - 1)]
        elif r < 0.6:
            s.insert(k, rng.choice("0123456789-@:lowhighnABrc \n\x00é"))
        elif s:
            s[min(k, len(s) - 1)] = rng.choice("0123456789-@:xX7\t")
    return "".join(s)


# --------------------------------------------------------------------------- the base material
class Pool:
    """Seeded base material, built once in the parent (inherited by forked workers)."""

    def __init__(self, seed: int):
        api = load_api()
        rng = random.Random(f"pool:{seed}")
        self.records, self.views, self.games, self.observations, self.to_move_obs = [], [], [], [], []
        specs = []
        for players in (2, 3, 4):
            for k in range(4):
                specs.append((players, 1, ["random"] * players, 0.7))       # one round, mostly cut
            specs.append((players, 2, ["greedy"] * players, 0.5))          # two rounds
            specs.append((players, 1000, ["greedy"] * players, 0.0))       # a whole game
        for players, rounds, bots, cut in specs:
            game = api.selfplay.play_game(players, rng.getrandbits(32), bots, max_rounds=rounds)
            # snapshots along the way: copies of the game at a few points
            self._snapshots(game, rng)
            if rng.random() < cut:
                game = self._cut(game, rng)
            self.records.append(game.to_record())
        self.records_text = [json.dumps(r).encode() for r in self.records]
        for g in self.games:
            for s in range(g.players):
                if rng.random() < 0.5:
                    self.views.append(g.to_record(view=s))
        self.views_text = [json.dumps(v).encode() for v in self.views]
        for g in self.games:
            for s in range(g.players):
                obs = g.observation(s)
                self.observations.append(obs)
                if obs.to_move == s and len(obs.legal_moves) >= 2:
                    self.to_move_obs.append((obs, g))
        self.playing_games = [g for g in self.games if not g.round_over]
        # every placement of a tile on a port of another tile that shows one of its values:
        # made-up legal moves that look right one by one (2,000+ distinct canonical moves)
        self.matching_moves = [api.Move.play(t, api.Port(h, name)) for t in api.ALL_TILES for h in api.ALL_TILES
                               if h != t for name in h.port_names
                               if api.Port(h, name).value in (t.lo, t.hi)]

    def _cut(self, game, rng):
        """The game truncated in its last round (at most 15 actions kept there)."""
        g = game.copy()
        r = g.current
        keep = rng.randrange(0, min(len(r.actions), 15) + 1)
        while len(g.current.actions) > keep:
            g.pop()
        return g

    def _snapshots(self, game, rng):
        last = len(game.rounds) - 1
        for _ in range(3):
            g = game.copy()
            cut_round = rng.randrange(len(g.rounds))
            while len(g.rounds) - 1 > cut_round:
                g.rounds.pop()
            n = len(g.current.actions)
            keep = rng.randrange(0, n + 1)
            while len(g.current.actions) > keep:
                g.pop()
            self.games.append(g)
        self.games.append(game.copy())          # the end (round over; sometimes game over)
        if last >= 0 and rng.random() < 0.5:
            g = game.copy()
            while len(g.current.actions) > 1:
                g.pop()
            self.games.append(g)


# --------------------------------------------------------------------------- tree mutation (records)
def clone(x):
    if isinstance(x, dict):
        return {k: clone(v) for k, v in x.items()}
    if isinstance(x, list):
        return [clone(v) for v in x]
    return x


def _random_slot(rng, root):
    """(container, key) somewhere in the tree, biased to deeper places; None if the root is not a container."""
    node, slot = root, None
    for _ in range(8):
        if isinstance(node, dict) and node:
            key = rng.choice(list(node))
        elif isinstance(node, list) and node:
            key = rng.randrange(len(node))
        else:
            break
        slot = (node, key)
        node = node[key]
        if rng.random() < 0.25:
            break
    return slot


def _collect_strings(x, out, parent=None, key=None):
    if isinstance(x, dict):
        for k, v in x.items():
            _collect_strings(v, out, x, k)
    elif isinstance(x, list):
        for i, v in enumerate(x):
            _collect_strings(v, out, x, i)
    elif isinstance(x, str) and parent is not None:
        out.append((parent, key))


def tweak(rng, value, players: int, json_only: bool):
    """A nearby wrong value of the same kind."""
    if isinstance(value, bool):
        return rng.choice([not value, 1, 0, "true", None])
    if isinstance(value, int):
        return rng.choice([value + 1, value - 1, -value - 1, value + players, players, players + 1, 28, 255, -1,
                           value * 1000, 2 ** 63, True])
    if isinstance(value, str):
        r = rng.random()
        if r < 0.35:
            return rand_tile_str(rng)
        if r < 0.55:
            return rand_port_str(rng)
        return mutate_text(rng, value)
    if isinstance(value, list):
        v = list(value)
        r = rng.random()
        if r < 0.25 and v:
            return v[: rng.randrange(len(v))]
        if r < 0.45 and v:
            v.insert(rng.randrange(len(v) + 1), clone(rng.choice(v)))
            return v
        if r < 0.6:
            rng.shuffle(v)
            return v
        if r < 0.75:
            v.append(weird(rng, json_only))
            return v
        if r < 0.85:
            return v * rng.choice([2, 3])
        return []
    if isinstance(value, dict):
        d = dict(value)
        r = rng.random()
        if r < 0.35 and d:
            del d[rng.choice(list(d))]
        elif r < 0.7:
            d[rng.choice(RECORD_KEYS)] = weird(rng, json_only)
        elif d:
            k = rng.choice(list(d))
            d[rng.choice(RECORD_KEYS)] = d.pop(k)
        return d
    if value is None:
        return rng.choice([rand_tile_str(rng), 0, [], "", [rand_tile_str(rng) for _ in range(5)]])
    return weird(rng, json_only)


def mutate_tree(rng, rec, players: int, json_only: bool = True, n_ops: int | None = None):
    """Apply 1-4 structural mutations in place (returns the possibly replaced root)."""
    for _ in range(n_ops or rng.choice([1, 1, 1, 2, 2, 3, 4])):
        r = rng.random()
        slot = _random_slot(rng, rec)
        if slot is None:
            return weird(rng, json_only) if rng.random() < 0.5 else rec
        container, key = slot
        if r < 0.30:
            container[key] = tweak(rng, container[key], players, json_only)
        elif r < 0.50:
            container[key] = weird(rng, json_only)
        elif r < 0.60:
            del container[key]
        elif r < 0.72:
            strings = []
            _collect_strings(rec, strings)
            if len(strings) >= 2:         # a duplicated tile (or any string copied elsewhere)
                (c1, k1), (c2, k2) = rng.sample(strings, 2)
                c2[k2] = c1[k1]
        elif r < 0.80 and isinstance(container, list) and len(container) >= 2:
            i, j = rng.randrange(len(container)), rng.randrange(len(container))
            container[i], container[j] = container[j], container[i]
        elif r < 0.88 and isinstance(container, dict):
            container[rng.choice(RECORD_KEYS)] = weird(rng, json_only)
        else:
            rec = semantic_mutation(rng, rec, players)
    return rec


def semantic_mutation(rng, rec, players: int):
    """Mutations that keep the record's shape: wrong players, starters, seats, tiles, ports, cut lists."""
    if not isinstance(rec, dict):
        return rec
    rounds = rec.get("rounds")
    r = rng.random()
    if r < 0.08:
        rec["players"] = rng.choice([2, 3, 4, 1, 5, 0, -1, 2 ** 63, "2", 2.0, None, True])
    elif r < 0.14:
        rec["view"] = rng.choice([0, 1, 2, 3, 4, -1, None, "0", 1.0, 2 ** 64])
    elif r < 0.18:
        rec["format"] = rng.choice(["fiveup-record/2", "fiveup-record/1 ", "", None, 1, "FIVEUP-RECORD/1"])
    elif r < 0.22:
        rec["seats"] = rng.choice([[], ["a"] * (players + 1), [1] * players, None, "ab", ["\n"] * players])
    elif isinstance(rounds, list) and rounds:
        rnd = rng.choice(rounds)
        if not isinstance(rnd, dict):
            return rec
        acts = rnd.get("actions")
        r = rng.random()
        if r < 0.1:
            rnd["starter"] = rng.choice([0, 1, 2, 3, 4, -1, players, 255, None, "0", 2 ** 63])
        elif r < 0.2 and isinstance(rnd.get("hands"), list) and len(rnd["hands"]) >= 2:
            h = rnd["hands"]
            i, j = rng.sample(range(len(h)), 2)
            h[i], h[j] = h[j], h[i]
        elif r < 0.3 and isinstance(rnd.get("hands"), list) and isinstance(rnd.get("boneyard"), list):
            hands = [h for h in rnd["hands"] if isinstance(h, list) and h]
            if hands and rnd["boneyard"]:          # swap a hand tile with a boneyard tile
                h = rng.choice(hands)
                i, j = rng.randrange(len(h)), rng.randrange(len(rnd["boneyard"]))
                h[i], rnd["boneyard"][j] = rnd["boneyard"][j], h[i]
        elif r < 0.4:
            rounds.append(clone(rnd))
        elif r < 0.5:
            del rounds[rng.randrange(len(rounds)):]
        elif isinstance(acts, list) and acts:
            k = rng.randrange(len(acts))
            act = acts[k]
            r = rng.random()
            if r < 0.15:
                del acts[k:]
            elif r < 0.25:
                del acts[k]
            elif r < 0.35:
                acts.insert(rng.randrange(len(acts) + 1), clone(act))
            elif isinstance(act, dict):
                if r < 0.45:
                    act["seat"] = rng.choice([(act.get("seat", 0) + 1) % players if isinstance(act.get("seat"), int)
                                              else 0, -1, players, 4, 255, 2 ** 63, None, "1"])
                elif r < 0.6 and "play" in act:
                    act["play"] = rand_tile_str(rng)
                elif r < 0.75 and "play" in act:
                    act["at"] = rand_port_str(rng)
                elif r < 0.82:
                    acts[k] = rng.choice([{"seat": act.get("seat"), "draw": rand_tile_str(rng)},
                                          {"seat": act.get("seat"), "draw": None},
                                          {"seat": act.get("seat"), "pass": True},
                                          {"seat": act.get("seat"), "pass": False},
                                          {"seat": act.get("seat"), "play": rand_tile_str(rng)},
                                          {"seat": act.get("seat"), "play": rand_tile_str(rng),
                                           "at": rand_port_str(rng)}])
                elif r < 0.9 and "at" in act:
                    del act["at"]
                else:
                    act[rng.choice(["at", "draw", "pass", "play", "x"])] = weird(rng, True)
    return rec


# --------------------------------------------------------------------------- families
_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?')
# Each family: gen(rng, pool) -> an input (plain data, printable), and run(inp, ctx, pool).
FAMILIES = {}


def family(name, weight, expensive=False):
    def deco(cls):
        FAMILIES[name] = cls(name, weight, expensive)
        return cls
    return deco


class Family:
    def __init__(self, name, weight, expensive):
        self.name, self.weight, self.expensive = name, weight, expensive

    def gen(self, rng, pool):  # pragma: no cover - abstract
        raise NotImplementedError

    def run(self, inp, ctx, pool):  # pragma: no cover - abstract
        raise NotImplementedError


# ------------------------------------------------------------------ parse
@family("parse", 28)
class ParseFamily(Family):
    FNS = ["parse_tile", "parse_port", "parse_move", "Tile.parse", "Port.parse", "Move.parse", "Tile",
           "Tile.from_index", "Port", "raw_to_display", "format_move", "bot_function", "parse_bot_list",
           "Move.from_action", "short_repr"]

    def gen(self, rng, pool):
        fn = rng.choice(self.FNS)
        r = rng.random()
        if fn in ("Tile",):
            arg = (rng.choice([rng.randrange(7), weird(rng)]), rng.choice([rng.randrange(7), weird(rng)]))
        elif fn == "Port":
            arg = (rng.choice([rand_tile(rng), weird(rng)]),
                   rng.choice(PORT_NAMES + BAD_PORT_NAMES + [weird(rng)]))
        elif fn == "Tile.from_index":
            arg = (rng.choice([rng.randrange(28), weird(rng)]),)
        elif fn == "raw_to_display":
            arg = (rng.choice([rng.randrange(-400, 400), weird(rng)]),)
        elif fn == "format_move":
            arg = (rng.choice([rand_move(rng), bad_move(rng)]),)
        elif fn in ("bot_function", "parse_bot_list"):
            names = ["random", "greedy", "hint", "expectimax", "hint:2:200", "expectimax:1:100", "hint:0:0",
                     "hint:-1:5", "hint:x:y", "hint:2", "hint:2:200:3", "hint:99999999999999999999:1",
                     "greedy,random", "random,,greedy", "", ",", "nobody", "hint@5ms", "hint-alphamu@2ms",
                     "expectimax-win@1.5ms", "hint@0ms", "hint@ms", "hint@5", "hint@99999999ms", "greedy@5ms",
                     "hint@5ms,greedy"]
            text = rng.choice(names) if r < 0.7 else mutate_text(rng, rng.choice(names))
            arg = (rng.choice([text, weird(rng)]),) if fn == "bot_function" else (
                rng.choice([text, weird(rng)]), rng.choice([2, 3, 4, 0, 5, -1, weird(rng)]))
        elif fn == "Move.from_action":
            arg = (rng.choice([{"seat": 0, "play": rand_tile_str(rng)},
                               {"seat": 0, "play": rand_tile_str(rng), "at": rand_port_str(rng)},
                               {"seat": 0, "draw": rng.choice([None, rand_tile_str(rng)])}, {"seat": 0, "pass": True},
                               weird(rng)]),)
        elif fn == "short_repr":
            arg = (weird(rng), rng.choice([40, 0, -1, 3, 10 ** 6, weird(rng)]))
        else:
            if r < 0.45:
                text = rand_tile_str(rng) if "tile" in fn.lower() else (
                    rand_port_str(rng) if "port" in fn.lower() else
                    rng.choice([rand_tile_str(rng), f"{rand_tile_str(rng)}@{rand_port_str(rng)}", "draw", "pass"]))
            elif r < 0.8:
                base = rng.choice(["3-4", "1-4:low", "3-4@4-4:lineB", "6-6@6-5:high", "draw", "pass",
                                   "0-0@0-0:branchA"])
                text = mutate_text(rng, base)
            else:
                text = weird(rng)
            arg = (text,)
        return (fn, arg)

    def run(self, inp, ctx, pool):
        fn, arg = inp
        N = A.notation
        target = {
            "parse_tile": N.parse_tile, "parse_port": N.parse_port, "parse_move": N.parse_move,
            "Tile.parse": N.Tile.parse, "Port.parse": N.Port.parse, "Move.parse": N.Move.parse, "Tile": N.Tile,
            "Tile.from_index": N.Tile.from_index, "Port": N.Port, "raw_to_display": N.raw_to_display,
            "format_move": N.format_move,
            "bot_function": A.bots.bot_function, "parse_bot_list": getattr(A.bots, "parse_bot_list", None),
            "Move.from_action": getattr(N.Move, "from_action", None),
            "short_repr": A.errors.short_repr,
        }[fn]
        if target is None:
            return
        ok, value = ctx.call(fn, target, *arg)
        if ok and fn in ("parse_tile", "parse_port", "parse_move", "Tile.parse", "Port.parse", "Move.parse"):
            # what parses must format back and parse to the same value
            ok2, again = ctx.call(f"{fn} round trip", type(value).parse, str(value))
            if ok2 and again != value:
                raise Finding("exception", f"{fn} round trip", "RoundTripMismatch",
                              f"{arg[0]!r} -> {value!r} -> {again!r}"[:300], "fuzz_campaign")


# ------------------------------------------------------------------ record bytes
@family("bytes", 14)
class BytesFamily(Family):
    def gen(self, rng, pool):
        texts = pool.records_text if rng.random() < 0.8 or not pool.views_text else pool.views_text
        k = rng.randrange(len(texts))
        data = bytearray(texts[k])
        # half the inputs edit tokens only (the JSON stays valid: the checks and the replay
        # see them); the other half edit bytes blindly as well
        tokens_only = rng.random() < 0.5
        for _ in range(rng.choice([1, 1, 1, 2, 3, 5])):
            r = rng.uniform(0.5, 0.95) if tokens_only else rng.random()
            n = len(data)
            if n == 0:
                data += bytes([rng.randrange(256)])
                continue
            i = rng.randrange(n)
            if r < 0.1:
                data[i] ^= 1 << rng.randrange(8)
            elif r < 0.2:
                data[i] = rng.choice(b'{}[]":,0123456789-@ \n\\ntfu\xff\xc0\x80\x00')
            elif r < 0.28:
                del data[i: i + rng.randrange(1, 40)]
            elif r < 0.36:
                data[i:i] = rng.choice([b"9" * rng.choice([20, 400, 5000]), b"-", b"1e400", b"NaN", b"Infinity",
                                        b"-0", b"null", b"true", b'"\\ud800"', b'"\\u0000"', b"\xef\xbb\xbf",
                                        b"\xff\xfe", b"\xed\xa0\x80", b'"x":1,', b"[" * rng.choice([10, 3000, 100000]),
                                        b'"3-4"', b'"1-4:low"', b"{}", b"[]", b"0.5", b"\t\r\n"])
            elif r < 0.42:
                j = rng.randrange(i, n)
                data[j:j] = data[i: i + rng.randrange(1, 60)]
            elif r < 0.47:
                del data[rng.randrange(n):]
            elif r < 0.5:
                other = rng.choice(texts)
                j = rng.randrange(len(other))
                data = data[:i] + other[j:]
            elif r < 0.95:
                # a token replaced: keeps the JSON valid more often than a blind byte edit
                tokens = list(_TOKEN.finditer(bytes(data)))
                if tokens:
                    m = rng.choice(tokens)
                    tok = m.group(0)
                    if tok.startswith(b'"'):
                        text = tok[1:-1].decode("utf-8", "replace")
                        new = rng.choice([rand_tile_str(rng), rand_port_str(rng), mutate_text(rng, text),
                                          rand_tile_str(rng), "draw", "pass", "view", "at"])
                        rep = json.dumps(new).encode() if rng.random() < 0.9 else rng.choice(
                            [b"null", b"0", b"true", b"[]", b"{}", b'"3-4"'])
                    else:
                        rep = rng.choice([b"-1", b"0", b"1", b"2", b"3", b"4", b"5", b"28", b"255", b"9" * 30,
                                          b"2.0", b"1e3", b"true", b"null", b'"1"', b"-0", b"[]"])
                    data[m.start(): m.end()] = rep
            else:
                data = bytearray(rng.randbytes(rng.randrange(0, 64)))
        as_str = rng.random() < 0.15
        name = rng.choice(["record", "f.json", "", "\u2028"]) if rng.random() < 0.99 else "x\ny"
        return (bytes(data), as_str, name)

    def run(self, inp, ctx, pool):
        data, as_str, name = inp
        if as_str:
            data = data.decode("utf-8", errors=random.Random(len(data)).choice(["replace", "surrogateescape"]))
        R = A.record
        ok, obj = ctx.call("parse_record_text", R.parse_record_text, data, name)
        if not ok:
            return
        ok, rec = ctx.call("check_record", R.check_record, obj)
        if not ok:
            return
        ok, game = ctx.call("game_from_record", R.game_from_record, rec, check=False)
        if ok:
            ctx.call("Game.result", game.result)


# ------------------------------------------------------------------ record structure
@family("json", 12)
class JsonFamily(Family):
    def gen(self, rng, pool):
        k = rng.randrange(len(pool.records))
        rec = clone(pool.records[k])
        json_only = rng.random() < 0.8
        rec = mutate_tree(rng, rec, pool.records[k]["players"], json_only)
        target = rng.choice(["text", "check+replay", "replay", "replay", "game_at", "observation_at"])
        extra = (rng.choice([0, 1, rng.randrange(-2, 4), weird(rng)]),
                 rng.choice([0, 1, 5, rng.randrange(-2, 60), None, weird(rng)]),
                 rng.choice([0, 1, 2, 3, 4, -1, weird(rng)]))
        return (rec, target, extra)

    def run(self, inp, ctx, pool):
        rec, target, (r, i, seat) = inp
        R = A.record
        if target == "text":
            try:
                text = json.dumps(rec)
            except (TypeError, ValueError):
                text = None
            if text is not None:
                ok, rec = ctx.call("parse_record_text", R.parse_record_text, text.encode())
                if not ok:
                    return
            target = "check+replay"
        if target == "check+replay":
            ok, checked = ctx.call("check_record", R.check_record, rec)
            if ok:
                ok, game = ctx.call("game_from_record", R.game_from_record, checked, check=False)
                if ok:
                    ctx.call("Game.result", game.result)
                    ctx.call("Game.to_record", game.to_record)
        elif target == "replay":
            ctx.call("replay", R.replay, rec)
        elif target == "game_at":
            ok, game = ctx.call("game_at", R.game_at, rec, r, i)
            if ok and not game.round_over:
                ctx.call("Game.observation", game.observation, game.to_move)
        elif target == "observation_at" and hasattr(R, "observation_at"):
            ok, obs = ctx.call("observation_at", R.observation_at, rec, seat, r, i)


# ------------------------------------------------------------------ seat views
@family("view", 3, expensive=True)
class ViewFamily(Family):
    def gen(self, rng, pool):
        k = rng.randrange(len(pool.views))
        view = clone(pool.views[k])
        players = view["players"]
        seat = view["view"]
        r = rng.random()
        if r < 0.15:
            pass                                    # the view as it is: must replay
        elif r < 0.55:
            view = self._view_mutation(rng, view, players, seat)
        else:
            view = mutate_tree(rng, view, players, json_only=rng.random() < 0.9)
        target = rng.choice(["replay", "replay", "check", "game_at", "observation_at"])
        extra = (rng.choice([0, rng.randrange(-1, 3), weird(rng)]), rng.choice([0, 3, rng.randrange(-1, 40), None]),
                 rng.choice([seat, seat, rng.randrange(-1, 5), weird(rng)]))
        return (view, target, extra)

    def _view_mutation(self, rng, view, players, seat):
        rounds = view.get("rounds") or []
        if not rounds:
            return view
        rnd = rng.choice(rounds)
        acts = rnd.get("actions", [])
        r = rng.random()
        if r < 0.12:
            other = (seat + 1) % players
            rnd["hands"][other] = [rand_tile_str(rng) for _ in range(5)]           # shows a hidden hand
        elif r < 0.2:
            rnd["hands"][seat] = None                                              # hides its own hand
        elif r < 0.28:
            rnd["boneyard"] = [rand_tile_str(rng) for _ in range(rng.randrange(20))]
        elif r < 0.4:
            hidden = [a for a in acts if "draw" in a and a["draw"] is None]
            if hidden:
                rng.choice(hidden)["draw"] = rand_tile_str(rng)                    # a hidden draw shown
        elif r < 0.5:
            own = [a for a in acts if "draw" in a and a["draw"] is not None]
            if own:
                rng.choice(own)["draw"] = None                                     # its own draw hidden
        elif r < 0.62:
            if "revealed" in rnd:
                rev = rnd["revealed"]
                choice = rng.random()
                if choice < 0.3:
                    del rnd["revealed"]
                elif choice < 0.6 and rev:
                    h = rng.choice(rev)
                    if isinstance(h, list):
                        h.append(rand_tile_str(rng)) if rng.random() < 0.5 or not h else h.pop()
                else:
                    rnd["revealed"] = weird(rng, True)
            else:
                rnd["revealed"] = [[rand_tile_str(rng) for _ in range(rng.randrange(6))] for _ in range(players)]
        elif r < 0.72:
            view["view"] = rng.choice([(seat + 1) % players, -1, players, None, "0"])
        elif r < 0.85 and acts:
            i = rng.randrange(len(acts))
            acts[i] = {"seat": acts[i].get("seat"), "draw": None} if "play" in acts[i] else {
                "seat": acts[i].get("seat"), "play": rand_tile_str(rng)}
        else:
            view = semantic_mutation(rng, view, players)
        return view

    def run(self, inp, ctx, pool):
        view, target, (r, i, seat) = inp
        R = A.record
        if target == "replay":
            ctx.call("replay(view)", R.replay, view)
        elif target == "check":
            ok, checked = ctx.call("check_record(view)", R.check_record, view)
            if ok:
                ok, game = ctx.call("game_from_record(view)", R.game_from_record, checked, check=False)
                if ok and game.rounds:
                    ctx.call("Game.to_record(view=)", game.to_record, view=checked.get("view"))
        elif target == "game_at":
            ctx.call("game_at(view)", R.game_at, view, r, i)
        elif target == "observation_at" and hasattr(R, "observation_at"):
            ok, obs = ctx.call("observation_at(view)", R.observation_at, view, seat)
            if ok:
                ctx.call("DealSampler(view obs)", A.inference.DealSampler, obs)


# ------------------------------------------------------------------ the Game API
@family("game", 24)
class GameFamily(Family):
    OPS = [("push_legal", 30), ("push_random", 8), ("push_bad", 5), ("push_draw_pass", 4), ("pop", 9),
           ("copy", 3), ("observation", 6), ("next_round", 4), ("start_round", 5), ("to_record", 3),
           ("replay_own", 0.3), ("query", 10), ("advance", 4), ("hand", 3), ("parse_move", 6),
           ("push_seat", 3), ("peek", 2)]

    def gen(self, rng, pool):
        r = rng.random()
        if r < 0.45 and pool.games:
            start = ("pool", rng.randrange(len(pool.games)))
        elif r < 0.9:
            start = ("new", rng.choice([2, 3, 4]), rng.getrandbits(rng.choice([8, 32, 64])), True, None, None)
        else:
            start = ("new", rng.choice([2, 3, 4, weird(rng)]), rng.choice([rng.getrandbits(16), weird(rng)]),
                     rng.choice([True, False, weird(rng)]), rng.choice([None, 1, 2, 0, -1, weird(rng)]),
                     rng.choice([None, ["a", "b"], weird(rng)]))
        names, weights = zip(*self.OPS)
        ops = []
        for op in rng.choices(names, weights, k=rng.randrange(3, 20)):
            if op == "push_legal":
                ops.append((op, rng.randrange(1000)))
            elif op == "push_random":
                ops.append((op, rand_move(rng)))
            elif op == "push_bad":
                ops.append((op, bad_move(rng)))
            elif op == "push_draw_pass":
                ops.append((op, rng.choice([A.Move.draw(), A.Move.pass_(), A.Move.draw(rand_tile(rng))])))
            elif op == "observation" or op == "hand":
                ops.append((op, rng.choice([0, 1, 2, 3, rng.randrange(4), weird(rng)])))
            elif op == "start_round":
                ops.append((op, self._deal(rng)))
            elif op == "to_record":
                ops.append((op, rng.choice([None, None, 0, 1, 2, 3, weird(rng)])))
            elif op == "query":
                ops.append((op, rng.choice(["legal_moves", "scores", "display_scores", "result", "round_ends",
                                            "open_ports", "scoring_ends", "board", "boneyard", "end_sum",
                                            "winner", "next_starter", "events", "to_move", "unfinished"])))
            elif op == "advance":
                ops.append((op, rng.randrange(1, 30), rng.randrange(2 ** 32)))
            elif op == "copy":
                ops.append((op, rng.random() < 0.5))
            elif op == "parse_move":
                # text as a person types it: a move's notation, its tile alone, its port's name
                # in another case, mangled, or anything at all
                text = A.notation.format_move(rand_move(rng))
                r = rng.random()
                if r < 0.2:
                    text = text.split("@")[0]
                elif r < 0.35:
                    text = text.upper() if rng.random() < 0.5 else text.swapcase()
                elif r < 0.6:
                    text = mutate_text(rng, text)
                elif r < 0.7:
                    text = weird(rng)
                ops.append((op, rng.randrange(1000), text, rng.random() < 0.4))
            elif op == "push_seat":
                ops.append((op, rng.randrange(1000), rng.choice([0, 1, 2, 3, 3, 4, -1, weird(rng)])))
            else:
                ops.append((op,))
        return (start, ops)

    def _deal(self, rng):
        players = rng.choice([2, 3, 4])
        tiles = list(A.ALL_TILES)
        rng.shuffle(tiles)
        hands = [tiles[5 * s: 5 * s + 5] for s in range(players)]
        bone = tiles[5 * players:]
        starter = rng.randrange(players)
        scores = None
        r = rng.random()
        if r < 0.25:
            hands[0] = hands[0][:4]
        elif r < 0.35:
            hands[0][0] = hands[1][0]                        # a duplicated tile
        elif r < 0.45:
            hands = [[str(t) for t in h] for h in hands]     # strings, not Tiles
        elif r < 0.52:
            bone = bone + [rand_tile(rng)]
        elif r < 0.6:
            hands, bone = weird(rng), weird(rng)
        elif r < 0.7:
            hands = hands[:-1]
        if rng.random() < 0.3:
            starter = rng.choice([-1, players, 4, 255, None, "0", 1.0, True, 2 ** 63])
        if rng.random() < 0.4:
            sides = 3 if players == 3 else 2
            scores = rng.choice([[0] * sides, [300] * sides, [304, 0, 0][:sides], [0] * 5, [0] * (sides + 1),
                                 [305] * sides, [-30000] * sides, [-30001] * sides, [2 ** 40] * sides,
                                 [1.5] * sides, [True] * sides, None, "00", [None] * sides, weird(rng)])
        return (players, hands, bone, starter, scores)

    def run(self, inp, ctx, pool):
        start, ops = inp
        if start[0] == "pool":
            ok, g = ctx.call("Game.copy", pool.games[start[1]].copy)
        else:
            _, players, seed, deal, max_rounds, seats = start
            kw = {"deal": deal}
            if max_rounds is not None:
                kw["max_rounds"] = max_rounds
            if seats is not None:
                kw["seats"] = seats
            ok, g = ctx.call("Game()", A.Game, players=players, seed=seed, **kw)
        if not ok:
            return
        for op in ops:
            name = op[0]
            if name == "push_legal":
                ok, legal = ctx.call("Game.legal_moves", lambda: g.legal_moves)
                if ok and legal:
                    ctx.call("Game.push(legal)", g.push, legal[op[1] % len(legal)])
                elif ok and g.rounds and g.round_over and not g.game_over:
                    ctx.call("Game.next_round", g.next_round)
            elif name in ("push_random", "push_bad", "push_draw_pass"):
                ctx.call(f"Game.push({name[5:]})", g.push, op[1])
            elif name == "pop":
                ctx.call("Game.pop", g.pop)
            elif name == "copy":
                ok, c = ctx.call("Game.copy", g.copy)
                if ok and op[1]:
                    g = c
            elif name == "observation":
                ok, obs = ctx.call("Game.observation", g.observation, op[1])
                if ok:
                    ctx.call("Observation.to_dict", obs.to_dict)
            elif name == "hand":
                ctx.call("Game.hand", g.hand, op[1])
            elif name == "next_round":
                ctx.call("Game.next_round", g.next_round)
            elif name == "start_round":
                players, hands, bone, starter, scores = op[1]
                if scores is None:
                    ctx.call("Game.start_round", g.start_round, hands, bone, starter)
                else:
                    ctx.call("Game.start_round(scores)", g.start_round, hands, bone, starter, scores=scores)
            elif name == "to_record":
                ctx.call("Game.to_record", g.to_record, view=op[1])
            elif name == "replay_own":
                ok, rec = ctx.call("Game.to_record", g.to_record)
                if ok:
                    ctx.call("replay(own record)", A.record.replay, rec)
            elif name == "query":
                ctx.call(f"Game.{op[1]}", lambda a=op[1]: (lambda v: v() if callable(v) else v)(getattr(g, a)))
            elif name == "parse_move":
                ok, legal = ctx.call("Game.legal_moves", lambda: g.legal_moves)
                if not ok:
                    continue
                # 40 %: a legal move's own text, which must read back as that move
                want = legal[op[1] % len(legal)] if legal and op[3] else None
                text = op[2] if want is None else A.notation.format_move(want)
                ok, move = ctx.call("Game.parse_move", g.parse_move, text)
                if ok and (move not in legal or want is not None and move != want):
                    raise Finding("wrong-result", "Game.parse_move", "", f"{text!r} read as {move!r}", "?")
            elif name == "push_seat":
                ok, legal = ctx.call("Game.legal_moves", lambda: g.legal_moves)
                if ok and legal:
                    before = len(g.current.moves)
                    mover = g.to_move
                    ok, _ = ctx.call("Game.push(seat=)", g.push, legal[op[1] % len(legal)], seat=op[2])
                    asked = A.errors.as_int(op[2])      # None: no seat check; a numpy integer is an int
                    mine = op[2] is None or A.errors.is_int(asked) and asked == mover
                    if ok != mine or ok != (len(g.current.moves) == before + 1):
                        raise Finding("wrong-result", "Game.push(seat=)", "", f"seat {op[2]!r}, mover {mover}: "
                                      f"{'played' if ok else 'refused'}", "?")
            elif name == "peek":
                ctx.call("Game.peek", g.peek)
            elif name == "advance":
                rng = random.Random(op[2])
                for _ in range(op[1]):
                    if not g.rounds:
                        break
                    if g.round_over:
                        if g.game_over or len(g.rounds) >= g.max_rounds:
                            break
                        ok, _ = ctx.call("Game.next_round", g.next_round)
                        if not ok:
                            break
                        continue
                    ok, legal = ctx.call("Game.legal_moves", lambda: g.legal_moves)
                    if not ok or not legal:
                        break
                    ctx.call("Game.push(legal)", g.push, rng.choice(legal))


# ------------------------------------------------------------------ the Cython core
@family("core", 12)
class CoreFamily(Family):
    def gen(self, rng, pool):
        r = rng.random()
        if r < 0.55:
            return ("round", self._round_args(rng), self._round_ops(rng))
        if r < 0.8:
            fn = rng.choice(["canonical_of", "port_name", "tile_lo", "tile_hi", "side_of_seat", "sides_of",
                             "deal_shape", "end_sum_credit", "random_playouts", "placement_message", "block_parts"])
            arity = {"canonical_of": 3, "port_name": 2, "side_of_seat": 2, "placement_message": rng.choice([4, 5])}
            args = tuple(rng.choice([rng.randrange(-1, 29), rng.randrange(4), rng.randrange(12), weird(rng)])
                         for _ in range(arity.get(fn, 1)))
            if fn == "random_playouts":     # never a long valid run: rounds at most 2
                rounds = rng.choice([0, 1, 2, -1, 2 ** 63, -2 ** 63, weird(rng)])
                if isinstance(rounds, (int, float)) and 2 < rounds < 2 ** 63 or isinstance(rounds, bool):
                    rounds = 2 ** 63 if rng.random() < 0.5 else -rounds
                args = (rng.choice([2, 3, 4, weird(rng)]), rounds, rng.choice([0, 1, 2 ** 64 - 1, -1, 2 ** 64,
                                                                               weird(rng)]))
            if fn == "block_parts":         # hand sums by seat (2 to 4 of them) and the starter
                pips = [rng.choice([rng.randrange(0, 169), rng.randrange(-3, 200), weird(rng)])
                        if rng.random() < 0.2 else rng.randrange(0, 60) for _ in range(rng.randrange(0, 6))]
                args = (pips if rng.random() < 0.9 else weird(rng), rng.choice([0, 1, 2, 3, 4, -1, weird(rng)]))
            return ("fn", fn, args)
        if r < 0.9:
            placements = []
            for _ in range(rng.randrange(0, 12)):
                placements.append(tuple(rng.choice([rng.randrange(-1, 29), rng.randrange(4), weird(rng)])
                                        if rng.random() < 0.2 else v
                                        for v in (rng.randrange(4), rng.randrange(28), rng.randrange(-1, 28),
                                                  rng.randrange(4))))
            if rng.random() < 0.1:
                placements = weird(rng)
            return ("board_trace", rng.choice([2, 3, 4, 2, 1, 5, weird(rng)]), placements)
        # the sampler's counter with random (mostly wrong) tables
        n_classes = rng.randrange(0, 8)
        n_items = rng.randrange(0, 30)
        caps = [rng.randrange(0, 6) for _ in range(n_classes)]
        if rng.random() < 0.5 and n_classes:
            caps[-1] += n_items - sum(caps)
        bone = rng.choice([n_classes - 1, -1, 0, n_classes, weird(rng)])
        allowed = [rng.randrange(1 << max(n_classes, 1)) for _ in range(n_items)]
        strict = None if rng.random() < 0.6 else [rng.randrange(1 << max(n_classes, 1)) for _ in range(n_items)]
        tiles = rng.sample(range(28), min(n_items, 28)) + [rng.randrange(40) for _ in range(max(0, n_items - 28))]
        held = [rng.randrange(2) for _ in range(n_items)]
        seats = [(-1 if c == bone else rng.randrange(4)) for c in range(n_classes)]
        args = [caps, allowed, strict, bone, tiles, held, seats]
        if rng.random() < 0.3:
            args[rng.randrange(7)] = weird(rng)
        return ("counter", args, rng.choice(["count", "marginals", "worlds", "classes"]), rng.randrange(0, 4))

    def _round_args(self, rng):
        players = rng.choice([2, 3, 4])
        order = list(range(28))
        rng.shuffle(order)
        hands = [order[5 * s: 5 * s + 5] for s in range(players)]
        bone = order[5 * players:]
        starter = rng.randrange(players)
        scores = [0] * (3 if players == 3 else 2)
        r = rng.random()
        if r < 0.1:
            players = rng.choice([1, 5, 0, -1, 255, 2 ** 63, None, "2"])
        elif r < 0.2:
            bone = bone + rng.sample(range(28), rng.randrange(1, 20))               # boneyard > 28 - 5n
        elif r < 0.27:
            bone = list(range(40))
        elif r < 0.35:
            hands[0] = hands[0] + [rng.choice([28, 31, 32, 63, 64, 255, -1, 2 ** 40])]  # tile numbers >= 28
        elif r < 0.42:
            bone = [rng.choice([28, 100, -1, 255, 256]) for _ in range(len(bone))]
        elif r < 0.5:
            scores = rng.choice([[0] * 5, [0] * 8, [0], [], [305, 305], [2 ** 20, 0], [-2 ** 20, 0],
                                 [32767, 0, 0], [304] * 4, None, "00"])
        elif r < 0.57:
            starter = rng.choice([-1, players, 4, 255, 256, 2 ** 40, None])
        elif r < 0.62:
            hands = hands + [[]] * rng.randrange(1, 4)
        elif r < 0.67:
            hands = hands[:-1]
        elif r < 0.72:
            hands[0] = [hands[0][0]] * 5                                            # a tile held 5 times
        elif r < 0.77:
            hands[1] = hands[0]
        elif r < 0.82:
            hands = weird(rng)
        elif r < 0.88:
            # a partial deal, as the core takes one (a review: no tile anywhere hung a search)
            hands = [order[3 * s: 3 * s + rng.randrange(0, 3)] for s in range(players)]
            bone = order[12: 12 + rng.randrange(0, 3)]
        return (players, hands, bone, starter, scores)

    def _round_ops(self, rng):
        ops = []
        for _ in range(rng.randrange(1, 25)):
            r = rng.random()
            if r < 0.35:
                ops.append(("legal",))
            elif r < 0.5:
                ops.append(("place", tuple(rng.choice([rng.randrange(-1, 28), weird(rng)]) if rng.random() < 0.15
                                           else rng.randrange(-1, 28) for _ in range(3))))
            elif r < 0.55:
                ops.append(("check_placement", tuple(rng.choice(EDGE_INTS + [weird(rng)]) for _ in range(3))))
            elif r < 0.6:
                ops.append((rng.choice(["draw", "pass_turn", "undo", "copy"]),))
            elif r < 0.72:
                ops.append((rng.choice(["hand", "side_of", "hand_pips"]), rng.choice([0, 1, 2, 3, 4, -1, 255,
                                                                                      2 ** 40, weird(rng)])))
            elif r < 0.78:
                ops.append(("multiplicity", rng.choice([rng.randrange(256), -1, 256, 2 ** 40, weird(rng)])))
            elif r < 0.84:
                ops.append(("set_scores", rng.choice([[0, 0], [0, 0, 0], [0] * 5, [304, -30000], [305, 0],
                                                      [2 ** 40, 0], [1.5, 0], weird(rng)])))
            elif r < 0.87:
                ops.append((rng.choice(["perft", "perft_canonical"]),
                            rng.choice([0, 1, 2, -1, -2 ** 31, 2 ** 31, 2 ** 63, weird(rng)])))
            elif r < 0.9:
                # the round as it stands searched, within a small node limit (it must return)
                ops.append(("solve", rng.choice(["value", "solve_moves"]), rng.choice([1, 50, 2000])))
            else:
                ops.append(("query", rng.choice(["concrete_moves", "canonical_moves", "open_ports", "scoring_ends",
                                                 "links", "topology_agrees", "turn_kind", "last_events",
                                                 "blocked_winner_side", "block_parts", "end_sum", "scores", "status",
                                                 "boneyard_left", "board_trace_of", "open_ends", "double_states"])))
        return ops

    def run(self, inp, ctx, pool):
        C = A.core
        kind = inp[0]
        if kind == "round":
            args, ops = inp[1], inp[2]
            ok, rnd = ctx.call("CoreRound()", C.CoreRound, *args)
            if not ok:
                return
            for op in ops:
                name = op[0]
                if name == "legal":
                    ok, moves = ctx.call("CoreRound.concrete_moves", rnd.concrete_moves)
                    ok2, kind_ = ctx.call("CoreRound.turn_kind", rnd.turn_kind)
                    if ok and moves:
                        ctx.call("CoreRound.place(legal)", rnd.place, *moves[ctx.calls % len(moves)])
                    elif ok2 and kind_ == "draw":
                        ctx.call("CoreRound.draw", rnd.draw)
                    elif ok2 and kind_ == "pass":
                        ctx.call("CoreRound.pass_turn", rnd.pass_turn)
                elif name in ("place", "check_placement"):
                    ctx.call(f"CoreRound.{name}", getattr(rnd, name), *op[1])
                elif name == "copy":
                    ok, c = ctx.call("CoreRound.copy", rnd.copy)
                    if ok:
                        rnd = c
                elif name in ("draw", "pass_turn", "undo"):
                    ctx.call(f"CoreRound.{name}", getattr(rnd, name))
                elif name in ("hand", "side_of", "hand_pips", "multiplicity", "set_scores", "perft",
                              "perft_canonical"):
                    fn = getattr(rnd, name, None)
                    if fn is not None:
                        if name.startswith("perft") and isinstance(op[1], int) and op[1] > 2:
                            continue               # a deep valid perft is a long computation, not a bug
                        ctx.call(f"CoreRound.{name}", fn, op[1])
                elif name == "solve":
                    if A.c_solver is not None and rnd.status == "playing":
                        ctx.call(f"SolverCore.{op[1]}", getattr(A.c_solver.SolverCore(0.01), op[1]), rnd.copy(), op[2])
                elif name == "query":
                    attr = getattr(type(rnd), op[1], None)
                    if attr is None:
                        continue
                    ctx.call(f"CoreRound.{op[1]}",
                             lambda a=op[1]: (lambda v: v() if callable(v) else v)(getattr(rnd, a)))
        elif kind == "fn":
            fn = getattr(C, inp[1], None)
            if fn is not None:
                ctx.call(f"_core.{inp[1]}", fn, *inp[2])
        elif kind == "board_trace":
            ctx.call("_core.board_trace", C.board_trace, inp[1], inp[2])
        elif kind == "counter" and A.c_sampler is not None:
            args, what, n = inp[1], inp[2], inp[3]
            ok, dc = ctx.call("DealCounter()", A.c_sampler.DealCounter, *args)
            if not ok:
                return
            if what == "count":
                ctx.call("DealCounter.count", lambda: dc.count)
            elif what == "marginals":
                ctx.call("DealCounter.marginals", dc.marginals)
            elif what == "worlds":
                ctx.call("DealCounter.worlds", dc.worlds, n, n)
            else:
                ctx.call("DealCounter.classes", dc.classes, n, n)


# ------------------------------------------------------------------ hand-built observations
@family("observation", 4, expensive=True)
class ObservationFamily(Family):
    FIELDS = ["legal_moves", "legal_moves", "legal_moves", "scores", "scores_before", "scores_before", "hand",
              "hand_sizes", "boneyard_size", "history", "history", "seat", "players", "to_move", "starter", "side",
              "round", "open_ports", "end_sum", "end_sums_after", "status", "revealed", "previous_round",
              "previous_round"]

    def gen(self, rng, pool):
        if pool.to_move_obs and rng.random() < 0.7:
            obs = rng.choice(pool.to_move_obs)[0]
        else:
            obs = rng.choice(pool.observations)
        changes = []
        for _ in range(rng.choice([0, 1, 1, 1, 2, 2, 3])):
            fld = rng.choice(self.FIELDS)
            changes.append((fld, self._value(rng, fld, obs, pool)))
        target = rng.choice(["hint", "hint", "sampler", "sampler", "greedy", "random", "signature"])
        options = dict(samples=rng.randrange(1, 5), world_nodes=rng.choice([1, 50, 200, 300]), seed=rng.randrange(100),
                       method=rng.choice(["pimc", "pimc", "expectimax"]))
        return (obs, changes, target, options)

    def _value(self, rng, fld, obs, pool):
        n = obs.players
        sides = 3 if n == 3 else 2
        r = rng.random()
        if fld == "legal_moves":
            if r < 0.2:
                k = rng.choice([2, 5, 20, 63, 64, 65, 70, 100, 200])
                return tuple(rng.sample(pool.matching_moves, k))
            if r < 0.45:
                k = rng.choice([1, 2, 5, 20, 63, 64, 65, 70, 100, 200])
                return tuple(rand_move(rng) for _ in range(k))
            if r < 0.6 and obs.legal_moves:
                return tuple(obs.legal_moves) * rng.choice([2, 10, 40])
            if r < 0.7:
                return tuple(list(obs.legal_moves) + [rand_move(rng) for _ in range(rng.randrange(1, 4))])
            if r < 0.8:
                return ()
            if r < 0.9:
                return tuple(bad_move(rng) for _ in range(rng.randrange(1, 5)))
            return weird(rng)
        if fld in ("scores", "scores_before"):
            return rng.choice([(0,) * 5, (0,) * (sides + 1), (0,) * (sides - 1), (), (305,) * sides,
                               (304,) * sides, (-30000,) * sides, (2 ** 40,) * sides, (-2 ** 40,) * sides,
                               (1.5,) * sides, (None,) * sides, ("0",) * sides, (0,) * 8, weird(rng)])
        if fld == "hand":
            return rng.choice([tuple(rand_tile(rng) for _ in range(rng.randrange(0, 30))),
                               tuple(obs.hand) * 2, tuple(obs.hand)[:-1], tuple(str(t) for t in obs.hand),
                               tuple(A.ALL_TILES), weird(rng)])
        if fld == "hand_sizes":
            return rng.choice([(5,) * n, (5,) * (n + 1), (0,) * n, (-1,) * n, (30,) * n, (2 ** 40,) * n, (),
                               weird(rng)])
        if fld == "boneyard_size":
            return rng.choice([0, -1, 1, 27, 28, 29, 100, 2 ** 40, weird(rng)])
        if fld == "history":
            h = [dict(a) for a in obs.history]
            if r < 0.2 and h:
                return tuple(h[: rng.randrange(len(h))])
            if r < 0.35:
                h.append(rng.choice([{"seat": obs.to_move if obs.to_move is not None else 0, "draw": None},
                                     {"seat": rng.randrange(n), "pass": True},
                                     {"seat": rng.randrange(n), "play": rand_tile_str(rng)},
                                     {"seat": rng.randrange(n), "play": rand_tile_str(rng), "at": rand_port_str(rng)},
                                     {"seat": rng.choice([-1, n, 7, None, "0"]), "play": "3-4"},
                                     {"play": "3-4"}, {}, weird(rng)]))
                return tuple(h)
            if r < 0.6 and h:
                i = rng.randrange(len(h))
                h[i] = tweak(rng, h[i], n, False) if rng.random() < 0.5 else mutate_tree(rng, h[i], n, False, 1)
                return tuple(h)
            if r < 0.7 and h:
                rng.shuffle(h)
                return tuple(h)
            if r < 0.8:
                return tuple(h) * 2
            return weird(rng)
        if fld in ("seat", "to_move", "starter", "side", "round", "players"):
            return rng.choice([0, 1, 2, 3, 4, 5, -1, 255, 2 ** 40, None, "0", 1.0, True])
        if fld == "open_ports":
            return rng.choice([tuple(rand_port(rng) for _ in range(rng.randrange(0, 8))), (), weird(rng)])
        if fld == "end_sum":
            return rng.choice([0, 5, -5, 300, 2 ** 40, None, 1.5])
        if fld == "end_sums_after":
            return rng.choice([(), (0,) * 70, tuple(obs.end_sums_after)[:-1], (None,) * len(obs.legal_moves),
                               weird(rng)])
        if fld == "status":
            return rng.choice(["playing", "won", "domino", "blocked", "ended", "", None, 3])
        if fld == "revealed":
            return rng.choice([None, (), tuple(() for _ in range(n)),
                               tuple(tuple(rand_tile(rng) for _ in range(rng.randrange(4))) for _ in range(n)),
                               tuple(tuple(obs.hand) for _ in range(n + 1)), weird(rng)])
        if fld == "previous_round":
            prev = obs.previous_round
            if prev is not None and r < 0.5:
                # one field of the last round's end changed, as a field of this one is
                sub = rng.choice(self.FIELDS[:-2] + ["previous_round"])
                return dataclasses.replace(prev, **{sub: self._value(rng, sub, prev, pool)})
            return rng.choice([None, rng.choice(pool.observations), obs, weird(rng),
                               rng.choice(pool.observations).previous_round])
        return weird(rng)

    def run(self, inp, ctx, pool):
        obs, changes, target, options = inp
        if changes:
            ok, obs = ctx.call("Observation(replaced)", dataclasses.replace, obs, **dict(changes))
            if not ok:
                return
        if target == "hint":
            ctx.call("hint(obs)", _hinter(1).hint, obs, **options)
        elif target == "sampler":
            ok, ds = ctx.call("DealSampler(obs)", A.inference.DealSampler, obs)
            if ok:
                ok, _ = ctx.call("DealSampler.sample", ds.sample, options["samples"], options["seed"])
                ok, _ = ctx.call("DealSampler.marginals", ds.marginals)
                ok, _ = ctx.call("DealSampler.sample_round", ds.sample_round, options["seed"])
        elif target in ("greedy", "random"):
            ctx.call(f"bots.choose({target})", A.bots.choose, target, obs, random.Random(options["seed"]))
        else:
            ctx.call("observation_signature", A.inference.observation_signature, obs)
            ctx.call("Observation.to_dict", obs.to_dict)


_HINTERS = {}
_SOLVERS = {}


def _hinter(threads):
    if threads not in _HINTERS:
        _HINTERS[threads] = A.hint.Hinter(threads=threads, tt_mb=1)
    return _HINTERS[threads]


def _solver(key):
    if key not in _SOLVERS:
        tt_mb, use_tt, pruning, min_tiles, pv = key
        _SOLVERS[key] = A.solver.Solver(tt_mb=tt_mb, use_tt=use_tt, target_pruning=pruning,
                                        tt_min_tiles=min_tiles, node_limit=2000, pv=pv)
    return _SOLVERS[key]


# ------------------------------------------------------------------ options of the searches
def _late_observation(seed):
    """The observation of the seat to move in the first of the seeded 2-player greedy games
    (seeds from seed * 100) that reaches at most 4 tiles in the boneyard and 5 in each hand
    with two placements to choose from (else the last game's end)."""
    for k in range(100):
        g = A.Game(players=2, seed=seed * 100 + k)
        rng = random.Random(seed * 100 + k)
        while not g.round_over:
            if (len(g.boneyard) <= 4 and all(len(g.hand(s)) <= 5 for s in range(2))
                    and sum(m.kind == "play" for m in g.legal_moves) > 1):
                return g.observation(g.to_move)
            g.push(A.bots.choose("greedy", g.observation(g.to_move), rng))
    return g.observation(0)


@family("options", 3, expensive=True)
class OptionsFamily(Family):
    def gen(self, rng, pool):
        what = rng.choice(["hint", "hint", "sample", "solve", "solve", "world_values", "perft", "hinter", "exact",
                           "judge"])
        bad = rng.random() < 0.5
        if what == "judge" and pool.records:
            # one decision judged by the search judge with a tiny budget: its method and options at the boundary
            record = rng.choice(pool.records)
            rounds = record.get("rounds") or [{"actions": []}]
            r = rng.randrange(len(rounds))
            plays = [k for k, a in enumerate(rounds[r].get("actions", [])) if isinstance(a, dict) and "play" in a]
            i = rng.choice(plays) if plays else 0     # placements: the decisions a judge values
            budget = {"samples": 2, "world_nodes": 50, "luck_samples": 1, "dd_nodes": 500, "threads": 1,
                      "method": rng.choice(["pimc", "expectimax", "alphamu"])}
            if bad and rng.random() < 0.5:
                r, i = rng.choice([(r, -1), (r, 10 ** 6), (-1, i), (10 ** 6, i), ("0", i), (r, None)])
            elif bad:
                budget[rng.choice(["method", "samples", "beliefs", "search", "judge", "rollout_horizon"])] = rng.choice(
                    ["PIMC", "", None, 0, -1, 1.5, "exact", "rollout", "maxn", "turn", True, weird(rng)])
            elif rng.random() < 0.2:
                # the rollout judge, to the game's or the round's end (run() makes its playouts cheap)
                budget.update(judge="rollout", rollout_horizon=rng.choice(["game", "round"]))
                del budget["method"]
            return (what, record, {"budget": budget, "round": r, "action": i}, 1)
        if what == "judge":
            what = "hint"
        if what == "exact":
            # the exact yardstick and its sampled estimate: tiny limits (refused, not slow, when large)
            obs = rng.choice(pool.to_move_obs)[0] if pool.to_move_obs and rng.random() < 0.8 else rng.choice(
                pool.observations)
            opts = {"method": "exact", "node_limit": rng.choice([1, 500, 3000]),
                    "objective": rng.choice(["win", "points"]), "both": False}
            if rng.random() < 0.5:
                opts.update(sample_worlds=rng.choice([3, 4, 5, 8]), seed=rng.choice([0, 1, 2 ** 64 - 1]))
            else:
                opts.update(max_worlds=rng.choice([1, 50, 500]), opponent=rng.choice(["greedy", "best-defence"]))
                if opts["opponent"] == "best-defence" and rng.random() < 0.5:
                    # a late position (few hidden worlds): the C search runs, not only its refusals
                    opts["late_seed"] = rng.randrange(10 ** 6)
            if bad:
                key = rng.choice(["node_limit", "sample_worlds", "seed", "max_worlds", "opponent", "objective"])
                opts[key] = rng.choice([0, 1, -1, 2 ** 64, 1.5, "2", None, True, math.nan, "greedy", weird(rng)])
                if key in ("node_limit", "sample_worlds", "max_worlds") and isinstance(opts[key], int) \
                        and not isinstance(opts[key], bool) and opts[key] > 3000:
                    opts[key] = -opts[key]     # a large valid budget is slow, not wrong
                elif key == "node_limit" and opts[key] is None:
                    # None is the default limit, 20,000,000: valid and as slow (seed 73 found an
                    # opening that takes 10-14 s to reach it, as docs/exact.md says it may)
                    opts[key] = 3000
            return (what, obs, opts, 1)
        if what in ("hint", "sample", "hinter"):
            obs = rng.choice(pool.to_move_obs)[0] if pool.to_move_obs and rng.random() < 0.8 else rng.choice(
                pool.observations)
            if what == "hint":
                opts = {"samples": rng.randrange(1, 5), "world_nodes": rng.choice([1, 10, 200, 300]),
                        "seed": rng.choice([0, 1, rng.getrandbits(64), -1, -2 ** 63]),
                        "method": rng.choice(["pimc", "expectimax"]),
                        "chance_width": rng.choice([1, 2, 6, 28])}
                if rng.random() < 0.1:
                    del opts["samples"]
                    opts["time_ms"] = rng.choice([1, 2, 3])
                if rng.random() < 0.2:
                    # alphamu (2 players; refused with one line for 3 and 4) and its depth
                    opts["method"] = "alphamu"
                    opts["depth"] = rng.choice([0, 1, 2])
                if bad:
                    key = rng.choice(["samples", "world_nodes", "seed", "method", "chance_width", "time_ms",
                                      "depth"])
                    opts[key] = rng.choice([0, -1, 2 ** 64, 2 ** 70, -2 ** 63 - 1, 1.5, "2", None, True, math.nan,
                                            "PIMC", "", 29, 10 ** 7, weird(rng)])
                    if key == "samples" and isinstance(opts[key], int) and not isinstance(opts[key], bool) \
                            and opts[key] > 4:
                        opts[key] = 4          # a large valid budget is slow, not wrong
                    if key == "world_nodes" and isinstance(opts[key], int) and opts[key] > 300:
                        opts[key] = -opts[key]
                    if key == "time_ms" and isinstance(opts[key], (int, float)) and opts[key] > 3:
                        opts[key] = -1
                return (what, obs, opts, rng.choice([1, 1, 2]))
            if what == "hinter":
                return (what, obs, {"threads": rng.choice([1, 2, 0, -1, 65, 2 ** 63, 1.0, None, "1", True]),
                                    "tt_mb": rng.choice([0.01, 1, 0, -1, 0.001, 5000, math.nan, math.inf, "1",
                                                         None, True])}, 1)
            return (what, obs, {"n": rng.choice([0, 1, 3, 5] + ([-1, 2 ** 63, 1.5, "2", None, True] if bad else [])),
                                "seed": rng.choice([0, 7, 2 ** 64 - 1] + ([-1, 2 ** 64, 2 ** 200, 1.5, None, "1"]
                                                                          if bad else []))}, 1)
        game = (GameRef("playing_games", rng.randrange(len(pool.playing_games)))
                if pool.playing_games and rng.random() < 0.9 else GameRef("games", rng.randrange(len(pool.games))))
        if what == "solve":
            key = (rng.choice([0.5, 1, 2]), rng.random() < 0.8, rng.random() < 0.8,
                   rng.choice([-1, -1, 0, 5, 40]), rng.random() < 0.5)
            ctor = None
            if bad:
                ctor = {"tt_mb": rng.choice([0, -1, 0.0001, 16385, math.nan, math.inf, "1", None, True, 2 ** 70]),
                        "node_limit": rng.choice([-1, 2 ** 64, 1.5, None, "5", True, 2000]),
                        "tt_min_tiles": rng.choice([-2, -2 ** 31 - 1, 2 ** 31, 2 ** 63, 1.5, None, "3", 100]),
                        "use_tt": rng.choice([None, "no", 2, [], 0])}
                for k in list(ctor):
                    if rng.random() < 0.6:
                        del ctor[k]
            arg = game if rng.random() < 0.9 else rng.choice([None, "game", 3, rng.choice(pool.observations),
                                                              GameRef("empty", 0)])
            return (what, game, {"key": key, "ctor": ctor, "arg": arg, "call": rng.choice(["solve", "value",
                                                                                         "solve_many"])}, 1)
        if what == "world_values":
            opts = {"method": rng.choice(["pimc", "expectimax"]), "world_nodes": rng.choice([1, 50, 200]),
                    "chance_width": rng.choice([1, 3, 6]), "seed": rng.randrange(100)}
            if bad:
                opts[rng.choice(list(opts))] = rng.choice([0, -1, 2 ** 64, 1.5, None, "x", 29, True])
                wn = opts["world_nodes"]
                if not wn or (isinstance(wn, int) and wn > 200):
                    opts["world_nodes"] = -1   # 0 or None: no budget at all, a full search (slow, not wrong)
            return (what, game, opts, 1)
        depth = rng.choice([0, 1, 2, 3]) if not bad else rng.choice([-1, -2 ** 31 - 1, 2 ** 31, 2 ** 63, 1.5, None,
                                                                     "2", True])
        return ("perft", game, {"depth": depth, "canonical": rng.random() < 0.3}, 1)

    def run(self, inp, ctx, pool):
        what, base, opts, threads = inp
        if isinstance(base, GameRef):
            base = base.resolve(pool)
        if isinstance(opts.get("arg"), GameRef):
            opts = dict(opts, arg=opts["arg"].resolve(pool))
        if what == "hint":
            ctx.call("hint(options)", _hinter(threads).hint, base, **opts)
        elif what == "judge":
            from fiveup_solver import analysis
            budget = opts["budget"]
            if budget.get("judge") == "rollout":
                budget = dict(budget, rollouts=2, rollout_bot="random")    # the rollout judge: cheap playouts
            ok, b = ctx.call("AnalysisBudget(options)", lambda: analysis.AnalysisBudget(**budget).check())
            if ok:
                ctx.call("judge_decision", analysis.judge_decision, base, opts["round"], opts["action"], b, 1)
        elif what == "exact":
            opts = dict(opts)
            late = opts.pop("late_seed", None)
            if late is not None:
                base = _late_observation(late)
            ctx.call("hint(method='exact')", _hinter(threads).hint, base, **opts)
            if opts.get("opponent") == "best-defence":
                # the best-defence search in C against its Python oracle, at the same options:
                # the same refusal or the same values and node count
                from fiveup_solver.exact import exact_result
                exact_opts = {k: v for k, v in opts.items() if k in ("objective", "max_worlds", "node_limit")}
                got = [ctx.call(f"exact_result(best-defence, engine={engine})", exact_result, base,
                                opponent="best-defence", engine=engine, **exact_opts) for engine in ("c", "python")]
                (ok_c, c), (ok_py, py) = got
                same = (ok_c == ok_py and (str(c) == str(py) if not ok_c else
                                           (c.nodes == py.nodes and c.values.keys() == py.values.keys() and all(
                                               abs(c.values[m] - py.values[m]) <= 1e-9 for m in c.values))))
                if not same:
                    raise Finding("exception", "exact_result(best-defence, engine=c)", "EngineMismatch",
                                  f"C {c!s:.140} != Python {py!s:.140}", "fuzz_campaign")
        elif what == "hinter":
            ok, h = ctx.call("Hinter()", A.hint.Hinter, **opts)
            if ok:
                ctx.call("Hinter.hint", h.hint, base, samples=1, world_nodes=50)
        elif what == "sample":
            ok, ds = ctx.call("DealSampler(obs)", A.inference.DealSampler, base)
            if ok:
                ctx.call("DealSampler.sample", ds.sample, opts["n"], opts["seed"])
                if isinstance(opts["n"], int) and not isinstance(opts["n"], bool) and 0 <= opts["n"] <= 5:
                    ctx.call("DealSampler.sample_rounds", ds.sample_rounds, opts["n"], opts["seed"])
                ctx.call("DealSampler.marginals", ds.marginals)
        elif what == "solve":
            if opts["ctor"] is None:
                ok, solver = ctx.call("Solver()", _solver, opts["key"])
            else:
                kw = dict(opts["ctor"])
                kw.setdefault("node_limit", 2000)
                kw.setdefault("tt_mb", 1)
                ok, solver = ctx.call("Solver(bad)", A.solver.Solver, **kw)
            if not ok:
                return
            arg = opts["arg"]
            if opts["call"] == "solve":
                ctx.call("Solver.solve", solver.solve, arg)
            elif opts["call"] == "value":
                ctx.call("Solver.value", solver.value, arg)
            else:
                ctx.call("Solver.solve_many", solver.solve_many, [arg, base])
        elif what == "world_values":
            ctx.call("world_values", A.hint.world_values, base, **opts)
        elif what == "perft":
            if not base.rounds:
                return
            core = base.current.core
            ctx.call("CoreRound.perft_canonical" if opts["canonical"] else "CoreRound.perft",
                     core.perft_canonical if opts["canonical"] else core.perft, opts["depth"])


class GameRef:
    """A game of the base material, by index (inputs stay printable and comparable)."""

    def __init__(self, where: str, index: int):
        self.where, self.index = where, index

    def resolve(self, pool):
        if self.where == "empty":
            return A.Game(players=2, deal=False)
        return getattr(pool, self.where)[self.index]

    def __repr__(self):
        return f"pool.{self.where}[{self.index}]"


# ------------------------------------------------------------------ the Cython owners
class ORef:
    """An object an ``owners`` input refers to, resolved when it runs (inputs stay printable
    and reproducible): ``core`` pool.games[i]'s CoreRound; ``late`` late position i (few
    tiles left: exact solves are cheap); ``base``/``counter`` the replayed position and the
    deal counter of the DealSampler of pool.to_move_obs[i]; ``made`` the i-th search this
    input made; ``obj`` an object of another class (by name); ``table``/``array`` an array
    made from a spec."""

    def __init__(self, kind, index=0):
        self.kind, self.index = kind, index

    def __repr__(self):
        return f"<{self.kind} {self.index!r}>"


OWNER_OBJECTS = ["None", "SolverCore", "DealCounter", "CoreRound", "WorldSearch", "AlphaMuSearch", "BeliefWorlds",
                 "Game", "Observation", "object", "EquityTable"]
TABLE_KINDS = ["ship", "ship", "ship", "copy", "copy", "copy", "other_players", "bad_value", "int32", "float64", "uint16", "2d",
               "strided", "short", "long", "list", "bytes", "array_h", "bytearray", "scalar", "empty", "fortran"]
ARRAY_MUTATIONS = ["int64", "float32", "int32", "uint8", "uint32", "float64", "bool", "object", "1d", "3d", "4d",
                   "rows", "cols", "depth", "none", "list", "readonly", "strided", "fortran", "zero", "scalar",
                   "bytes"]


def owner_weird(rng):
    """weird(), with the values whose repr names an address (object(), iterators) given
    as references: an input must print the same every time it is made."""
    v = weird(rng)
    if " at 0x" in repr(v):
        return ORef("obj", "object")
    return v


def _bad_int(rng, valid_hi=None):
    """A wrong integer argument: out of range, of another type, or any weird value; a large
    valid int (a slow budget, not a bug) becomes a negative one."""
    v = rng.choice([-1, -2, -2 ** 31 - 1, 2 ** 31, 2 ** 63, 2 ** 64, -2 ** 63 - 1, 10 ** 30, 1.5, 2.0, math.nan,
                    None, "3", True, False, [1], owner_weird(rng), owner_weird(rng)])
    if valid_hi is not None and isinstance(v, int) and not isinstance(v, bool) and (v == 0 or 0 < v < 2 ** 64) \
            and (v > valid_hi or v == 0):
        v = -1 - v % 5
    return v


class _OwnerMaterial:
    """Per-worker caches over the pool (pure functions of it: inputs stay reproducible)."""

    def __init__(self, pool):
        self.pool = pool
        self.cores = [k for k, g in enumerate(pool.games) if g.rounds]
        self.entries = list(range(len(pool.to_move_obs)))
        self.two = [k for k in self.entries if pool.to_move_obs[k][0].players == 2]
        self._info, self._late, self._tables = {}, {}, {}

    def info(self, k):
        """What valid calls on entry k need: its sampler, root moves, worlds, hands."""
        if k not in self._info:
            from fiveup_solver.beliefs import decisions_of
            from fiveup_solver.inference import DealSampler
            obs = self.pool.to_move_obs[k][0]
            ds = DealSampler(obs)
            base = ds.replayed
            roots = sorted({A.core.canonical_of(*m.placement) for m in obs.legal_moves if m.kind == "play"})
            worlds = [(h[:obs.players], list(b)) for h, b in ds.counter.worlds(6, k)]
            self._info[k] = {
                "ds": ds, "players": obs.players, "seat": obs.seat, "hidden": list(ds.hidden_seats),
                "roots": roots, "worlds": worlds, "hands": [list(base.hand(s)) for s in range(obs.players)],
                "bone": list(base.boneyard_left), "class_slots": [list(x) for x in ds._class_slots],
                "decisions": [(i, s, m, list(sl), gone) for i, s, m, sl, gone in decisions_of(ds)],
            }
        return self._info[k]

    def late(self, seed):
        """A late position of a seeded random round: 8, 10 or 12 tiles left in the hands
        and the boneyard (an exact solve takes milliseconds), possibly over."""
        if seed not in self._late:
            rng = random.Random(f"late:{seed}")
            players = (2, 3, 4)[seed % 3]
            tiles = list(A.ALL_TILES)
            rng.shuffle(tiles)
            sides = 3 if players == 3 else 2
            scores = [rng.choice(range(200, 305, 5)) if rng.random() < 0.4 else rng.choice(range(0, 200, 5))
                      for _ in range(sides)]
            g = A.Game(players=players, deal=False)
            g.start_round([tiles[5 * s: 5 * s + 5] for s in range(players)], tiles[5 * players:],
                          rng.randrange(players), scores=scores)
            left = rng.choice([8, 10, 12])
            while not g.round_over and len(g.boneyard) + sum(len(g.hand(s)) for s in range(players)) > left:
                g.push(rng.choice(g.legal_moves))
            self._late[seed] = g.current.core
        return self._late[seed]

    def table(self, players):
        if players not in self._tables:
            from fiveup_solver.equity import search_values
            self._tables[players] = search_values(players)
        return self._tables[players]


def _mutate_in_place(table, rng) -> None:
    """Change a table its caller can still write (a writable array, an array.array, a
    bytearray) in place: random int16 values, some far outside (-1000, 1000). Immutable
    tables (the shipped read-only arrays, bytes) are left alone."""
    import array

    import numpy as np
    if isinstance(table, np.ndarray) and table.flags.writeable and table.size:
        flat = table.reshape(-1) if table.flags.c_contiguous else None
        if flat is not None:
            idx = np.array([rng.randrange(flat.size) for _ in range(min(64, flat.size))])
            flat[idx] = [rng.choice([30000, -30000, 1000, -1000, rng.randrange(-999, 1000)]) for _ in idx]
            if rng.random() < 0.5:
                flat[:] = rng.choice([30000, -32768, 0, 999])
    elif isinstance(table, array.array) and len(table):
        for _ in range(min(64, len(table))):
            table[rng.randrange(len(table))] = rng.choice([30000, -30000, rng.randrange(-999, 1000)])
        if rng.random() < 0.5:
            table[:] = array.array(table.typecode, [rng.choice([30000, -32768, 0, 999])]) * len(table)
    elif isinstance(table, bytearray) and len(table):
        for _ in range(min(64, len(table))):
            table[rng.randrange(len(table))] = rng.randrange(256)


def _material(pool):
    m = getattr(pool, "_owner_material", None)
    if m is None:
        m = pool._owner_material = _OwnerMaterial(pool)
    return m


@family("owners", 4, expensive=True)
class OwnersFamily(Family):
    """The Cython owners the Python layer drives: SolverCore, WorldSearch, AlphaMuSearch,
    BeliefWorlds (and _beliefs.move_features), with valid argument sets from real positions
    mutated one or two at a time, objects of the wrong class, and methods in odd orders
    (work twice, results first, a search bound to a search of another position, objects
    never or twice initialised). On late positions, a SolverCore that went through odd
    calls must still give the exact values a fresh one gives."""

    def gen(self, rng, pool):
        M = _material(pool)
        what = rng.choice(["solver", "solver", "solver", "world", "world", "world", "alphamu", "alphamu",
                           "beliefs", "beliefs"])
        return getattr(self, "_gen_" + what)(rng, pool, M)

    # ---------------------------------------------------------------- SolverCore
    def _wrong_object(self, rng):
        return rng.choice([None, owner_weird(rng)] + [ORef("obj", n) for n in OWNER_OBJECTS])

    def _position(self, rng, M, late):
        r = rng.random()
        if late is not None and r < 0.55:
            return late
        if r < 0.85 and M.cores:
            return ORef("core", rng.choice(M.cores))
        if r < 0.9 and M.entries:
            return ORef("base", rng.choice(M.entries))
        return self._wrong_object(rng)

    def _node_limit(self, rng, pos):
        if rng.random() < 0.12:
            return _bad_int(rng, 5000)
        if isinstance(pos, ORef) and pos.kind == "late" and rng.random() < 0.4:
            return 0                                   # exact: cheap on a late position
        return rng.choice([1, 5, 50, 300, 2000])

    def _gen_solver(self, rng, pool, M):
        ctor = {"tt_mb_": rng.choice([0.01, 0.05, 0.25, 1.0]), "use_tt": rng.random() < 0.85,
                "use_pruning": rng.random() < 0.85, "tt_min_tiles_": rng.choice([-1, -1, 0, 4, 12, 28]),
                "threads_": rng.choice([1, 1, 1, 2])}
        if rng.random() < 0.25:
            key = rng.choice(list(ctor))
            if key == "tt_mb_":
                v = rng.choice([0, -1, 65537, 1e9, math.nan, math.inf, -math.inf, "1", None, True, 2 ** 70, [1],
                                owner_weird(rng)])
                if isinstance(v, (int, float)) and not isinstance(v, bool) and 4 < v <= 65536:
                    v = -v                             # a large valid table is slow, not wrong
            elif key in ("use_tt", "use_pruning"):
                v = owner_weird(rng)
            else:
                v = _bad_int(rng)
            ctor[key] = v
        late = ORef("late", rng.randrange(240)) if rng.random() < 0.45 else None
        ops = [self._solver_op(rng, M, late) for _ in range(rng.randrange(1, 9))]
        return ("solver", ctor, ops, late)

    def _solver_op(self, rng, M, late):
        r = rng.random()
        if r < 0.14:
            players = rng.choice([2, 3, 4])
            objective = rng.choice([0, 1, 1, 1]) if rng.random() < 0.9 else _bad_int(rng)
            table = ORef("table", (rng.choice(TABLE_KINDS), players, rng.randrange(10 ** 6)))
            if rng.random() < 0.1:
                table = owner_weird(rng)
            given = rng.choice(["position", "position", "table", "table"]) if rng.random() < 0.9 else _bad_int(rng)
            return ("set_objective", objective, table, given, self._position(rng, M, late))
        if r < 0.2:
            return ("set_search", rng.choice([0, 1, 1]) if rng.random() < 0.8 else _bad_int(rng))
        if r < 0.25:
            return ("history_cap", rng.choice([2, 3, 64, 1000, 1 << 28]) if rng.random() < 0.6 else
                    rng.choice([1, 0, (1 << 28) + 1, _bad_int(rng)]))
        if r < 0.29:
            return ("lean_leaves", rng.choice([True, False, 0, 1]) if rng.random() < 0.6 else _bad_int(rng))
        if r < 0.35:
            # the caller changes the table it gave (when it can): the core must not see it
            return ("mutate_table", rng.randrange(10 ** 6))
        pos = self._position(rng, M, late)
        nl = self._node_limit(rng, pos)
        if r < 0.45:
            pv = guesses = None
            if rng.random() < 0.3:
                pv = self._move_values(rng)
            if rng.random() < 0.3:
                guesses = self._move_values(rng)
            return ("solve_moves", pos, nl, pv, guesses)
        if r < 0.57:
            return ("value", pos, nl, None if rng.random() < 0.5 else self._value(rng))
        if r < 0.72:
            a, b = self._window(rng)
            return ("debug_window", pos, a, b, nl)
        if r < 0.78:
            return ("maxn_moves", pos, nl)
        if r < 0.83:
            return ("best_move", pos)
        if r < 0.93:
            return ("principal_variation", pos, rng.choice([0, 1, 3, 64, 2 ** 31 - 1]) if rng.random() < 0.85
                    else _bad_int(rng), nl, None if rng.random() < 0.5 else self._value(rng))
        if r < 0.96:
            return ("clear",)
        return ("properties",)

    def _value(self, rng):
        if rng.random() < 0.8:
            return rng.choice([0, 5, -5, 1000, -1000, 999, rng.randrange(-1000, 1001)])
        return rng.choice([1001, -1001, 30000, 2 ** 40, 1.5, True, None, "5", math.nan])

    def _window(self, rng):
        r = rng.random()
        if r < 0.4:
            beta = rng.randrange(-60, 60)
            return beta - 1, beta                      # a zero window
        if r < 0.6:
            return rng.choice([(-30000, 30000), (-1000, 1000), (-1001, 1001), (0, 0), (5, -5), (1000, -1000),
                               (30000, -30000), (7, 7), (-30000, -29999), (29999, 30000)])
        if r < 0.85:
            a, b = rng.randrange(-1200, 1200), rng.randrange(-1200, 1200)
            return a, b                                # any order: an empty or inverted window too
        return rng.choice([30001, -30001, 2 ** 31, 1.5, None, "0", True, 0]), rng.choice([0, 30001, None, 2 ** 63])

    def _move_values(self, rng):
        r = rng.random()
        if r < 0.6:
            return {rng.randrange(256): rng.randrange(-1000, 1001) for _ in range(rng.randrange(0, 6))}
        if r < 0.8:
            return rng.choice([{256: 0}, {-1: 0}, {1: 1001}, {1: -1001}, {True: 0}, {1: True}, {1: 1.5}, {"1": 0},
                               {None: 0}, {1: None}, {2 ** 64: 0}])
        return rng.choice([[(1, 0)], [], (), "x", 5, None, owner_weird(rng)])

    def _run_solver(self, inp, ctx, pool, M):
        _, ctor, ops, late = inp
        ok, core = ctx.call("SolverCore()", A.c_solver.SolverCore, **{k: self._resolve(v, pool, M, None)
                                                                     for k, v in ctor.items()})
        if not ok:
            return
        eq_players = None          # the players of the table the core holds (win objective)
        given = pristine = None    # the table as given to the core, and a copy as it was then
        for op in ops:
            name = op[0]
            if name == "set_objective":
                objective, table, given, pos = op[1], op[2], op[3], self._resolve(op[4], pool, M, None)
                t = self._resolve(table, pool, M, None)
                if given == "position":
                    players = getattr(pos, "players", 2)
                elif given == "table":
                    players = table.index[1] if isinstance(table, ORef) and table.kind == "table" else 2
                else:
                    players = given
                ok, _ = ctx.call("SolverCore.set_objective", core.set_objective, objective, t, players)
                if ok:
                    eq_players = players if core.objective == 1 else None
                    given, pristine = (t, copy.copy(t)) if core.objective == 1 else (None, None)
            elif name == "mutate_table":
                _mutate_in_place(given, random.Random(op[1]))
            elif name in ("set_search",):
                ctx.call("SolverCore.set_search", core.set_search, op[1])
            elif name in ("history_cap", "lean_leaves"):
                ctx.call(f"SolverCore.{name}=", setattr, core, name, op[1])
            elif name == "clear":
                ctx.call("SolverCore.clear", core.clear)
            elif name == "properties":
                for attr in ("history_peak", "history_cap", "lean_leaves", "helper_nodes", "threads", "objective",
                             "equity_table", "table_entries", "table_bytes", "search_maxn", "value_scale"):
                    ctx.call(f"SolverCore.{attr}", getattr, core, attr)
            else:
                args = [self._resolve(a, pool, M, None) for a in op[1:]]
                ctx.call(f"SolverCore.{name}", getattr(core, name), *args)
        if late is not None:
            self._exact_oracle(ctx, core, M.late(late.index), eq_players, pristine)

    def _exact_oracle(self, ctx, core, rnd, eq_players, pristine):
        """The core after its odd calls against a fresh one under the same objective and
        search, given the table as it was when the core got it (`pristine`): the same
        exact values of the late position (or the same refusal)."""
        ok, got = ctx.call("SolverCore.solve_moves(oracle)", core.solve_moves, rnd, 0)
        fresh = A.c_solver.SolverCore(0.25)
        fresh.set_search(int(core.search_maxn))
        if core.objective == 1:
            ctx.call("SolverCore.set_objective(fresh)", fresh.set_objective, 1, pristine, eq_players)
        ok2, want = ctx.call("SolverCore.solve_moves(fresh)", fresh.solve_moves, rnd, 0)
        if ok != ok2 or (ok and (got[0], got[1], got[3]) != (want[0], want[1], want[3])):
            raise Finding("exception", "SolverCore.solve_moves(oracle)", "ValueMismatch",
                          f"used core {_brief(got, 120)} != fresh core {_brief(want, 120)}", "fuzz_campaign")
        ok, got = ctx.call("SolverCore.value(oracle)", core.value, rnd, 0)
        ok2, want = ctx.call("SolverCore.value(fresh)", fresh.value, rnd, 0)
        if ok != ok2 or (ok and got[0] != want[0]):
            raise Finding("exception", "SolverCore.value(oracle)", "ValueMismatch",
                          f"used core {_brief(got, 120)} != fresh core {_brief(want, 120)}", "fuzz_campaign")

    def _table(self, spec, M):
        import array

        import numpy as np
        kind, players, salt = spec
        t = M.table(players)
        rng = random.Random(salt)
        if kind == "ship":
            return t
        if kind == "copy":
            return t.copy()
        if kind == "other_players":
            return M.table({2: 3, 3: 4, 4: 3}[players])
        if kind == "bad_value":
            c = t.copy()
            c[rng.randrange(len(c))] = rng.choice([1000, -1000, 32767, -32768])
            return c
        if kind in ("int32", "float64", "uint16"):
            return t.astype(kind)
        if kind == "2d":
            return t.reshape(-1, 3 if players == 3 else 2)
        if kind == "fortran":
            return np.asfortranarray(t.reshape(3 if players == 3 else 2, -1))
        if kind == "strided":
            return np.repeat(t, 2)[::2]
        if kind == "short":
            return t[:-1].copy()
        if kind == "long":
            return np.append(t, np.int16(0))
        if kind == "list":
            return [0] * 10
        if kind == "bytes":
            return t.tobytes()
        if kind == "array_h":
            return array.array("h", t.tolist())
        if kind == "bytearray":
            return bytearray(t.tobytes())
        if kind == "scalar":
            return np.int16(5)
        return np.zeros(0, dtype=np.int16)

    # ---------------------------------------------------------------- cores given to the searches
    def _core_spec(self, rng, players):
        r = rng.random()
        if r < 0.08:
            return self._wrong_object(rng)
        objective = rng.choice(["points", "points", "win", "win"])
        if r < 0.14:
            objective = ("win", {2: 3, 3: 4, 4: 3}[players])      # a table for another player count
        return ("core", objective, rng.random() < 0.3, players)

    def _make_core(self, spec, pool, M):
        if not (isinstance(spec, tuple) and spec and spec[0] == "core"):
            return self._resolve(spec, pool, M, None)
        _, objective, maxn, players = spec
        core = A.c_solver.SolverCore(0.05)
        core.set_search(int(maxn))
        if objective != "points":
            p = objective[1] if isinstance(objective, tuple) else players
            core.set_objective(1, M.table(p), p)
        return core

    # ---------------------------------------------------------------- WorldSearch
    WORLD_ARGS = ["base", "counter", "hidden_seats", "moves", "method_", "world_nodes_", "chance_width_", "seed_",
                  "n_worlds_", "min_worlds_", "seconds_"]

    def _world_args(self, rng, M, k, n=None):
        info = M.info(k)
        n = n or rng.choice([1, 1, 2, 3, 4])
        roots = info["roots"]
        moves = roots if rng.random() < 0.6 else sorted(rng.sample(roots, rng.randrange(1, len(roots) + 1)))
        args = {"base": ORef("base", k), "counter": ORef("counter", k), "hidden_seats": list(info["hidden"]),
                "moves": list(moves), "method_": rng.choice([0, 1]), "world_nodes_": rng.choice([1, 20, 100, 300]),
                "chance_width_": rng.choice([1, 2, 6]), "seed_": rng.getrandbits(64), "n_worlds_": n,
                "min_worlds_": rng.randrange(n + 1), "seconds_": 0.0 if rng.random() < 0.9 else 0.002}
        kw = {}
        mode = rng.random()
        if mode < 0.35:
            # given worlds: (stream, hands, boneyard[, greedy seats mask])
            greedy = rng.random() < 0.3
            others = [s for s in range(info["players"]) if s != info["seat"]]
            kw["worlds"] = [[w, [h for h in hands], list(bone)] + ([1 << rng.choice(others)] if greedy else [])
                            for w, (hands, bone) in enumerate(info["worlds"][:n])]
            if len(kw["worlds"]) < n:
                args["n_worlds_"] = n = len(kw["worlds"])
                args["min_worlds_"] = min(args["min_worlds_"], n)
            if rng.random() < 0.3:
                kw["shares"] = [rng.randrange(1, 4) for _ in range(n)]
            if rng.random() < 0.2:
                args["counter"] = None
        elif mode < 0.5:
            # the position's own value for a seat (no root moves)
            args["moves"] = []
            kw["observer_"] = info["seat"] if rng.random() < 0.8 else rng.randrange(info["players"])
            args["hidden_seats"] = [s for s in range(info["players"]) if s != kw["observer_"]]
        elif mode < 0.6:
            args["counter"] = None                     # no sampler: value_world only
        if rng.random() < 0.2:
            kw["greedy_seats"] = [s for s in info["hidden"] if rng.random() < 0.5]
        if rng.random() < 0.15:
            kw["horizons"] = [(rng.choice([0, 1, 2]), rng.choice([1, 2, 4, 8, 16, 64])) for _ in range(n)]
            kw["horizons"] = [(0, 0) if s == 0 else (s, d) for s, d in kw["horizons"]]
        return args, kw

    def _mutate_call(self, rng, pool, M, args, kw, k, players,
                     extra=("worlds", "shares", "greedy_seats", "horizons", "observer_")):
        """One wrong argument of an owner's constructor (positional, or keyword: those of
        kw and `extra`)."""
        keys = list(args) + list(dict.fromkeys(list(kw) + list(extra)))
        key = rng.choice(keys)
        cur = args.get(key, kw.get(key))
        r = rng.random()
        if key in ("base", "counter", "replayed"):
            if r < 0.4 and len(M.entries) > 1:
                v = ORef(key if key != "replayed" else "base", rng.choice(M.entries))    # another position's
            elif r < 0.55 and key in ("base", "replayed") and M.cores:
                v = ORef("core", rng.choice(M.cores))
            else:
                v = self._wrong_object(rng)
        elif isinstance(cur, (list, tuple)) and r < 0.75:
            v = tweak(rng, clone(list(cur)), players, False)
            if r < 0.4 and isinstance(v, list) and v:
                i = rng.randrange(len(v))
                v[i] = tweak(rng, clone(v[i]), players, False) if rng.random() < 0.7 else owner_weird(rng)
        elif isinstance(cur, bool) or isinstance(cur, int) or isinstance(cur, float):
            v = _bad_int(rng, 300 if "nodes" in key else 4 if "worlds" in key or "depth" in key else None)
        else:
            v = rng.choice([None, owner_weird(rng), [], [None], [[0, [], []]], 7, (1, 2)])
        if key in args:
            args[key] = v
        else:
            kw[key] = v

    def _gen_world(self, rng, pool, M):
        k = rng.choice(M.entries)
        info = M.info(k)
        args, kw = self._world_args(rng, M, k)
        for _ in range(rng.choice([0, 0, 0, 1, 1, 2])):
            self._mutate_call(rng, pool, M, args, kw, k, info["players"])
        make = self._make_mode(rng)
        searches = [("WorldSearch", args, kw, make)]
        ops = self._world_ops(rng, M, k, 0)
        if rng.random() < 0.4:
            # a second search bound to the first: its source, or depth_of; of the same position mostly
            k2 = k if rng.random() < 0.8 else rng.choice(M.entries)
            args2, kw2 = self._world_args(rng, M, k2, args["n_worlds_"] if isinstance(args["n_worlds_"], int)
                                          and not isinstance(args["n_worlds_"], bool) and 1 <= args["n_worlds_"] <= 4
                                          else None)
            if rng.random() < 0.5:
                kw2.pop("worlds", None)
                kw2.pop("shares", None)
                kw2["source"] = ORef("made", 0) if rng.random() < 0.9 else self._wrong_object(rng)
                kw2["source_draws"] = [rng.randrange(max(1, args2["n_worlds_"])) for _ in range(args2["n_worlds_"])]
                if rng.random() < 0.3:
                    kw2["source_draws"] = tweak(rng, kw2["source_draws"], info["players"], False)
            else:
                kw2.pop("horizons", None)
                kw2["depth_of"] = ORef("made", 0) if rng.random() < 0.9 else self._wrong_object(rng)
                if k2 == k and rng.random() < 0.6:
                    args2 = dict(args2, **{key: args[key] for key in ("moves", "seed_", "n_worlds_", "hidden_seats")})
                    if "worlds" in kw:
                        kw2["worlds"] = clone(kw["worlds"])
            if rng.random() < 0.3:
                self._mutate_call(rng, pool, M, args2, kw2, k2, info["players"])
            searches.append(("WorldSearch", args2, kw2, self._make_mode(rng)))
            ops += self._world_ops(rng, M, k2, 1)
        if rng.random() < 0.15:
            # __init__ again, with the arguments of another call
            k3 = rng.choice(M.entries)
            args3, kw3 = self._world_args(rng, M, k3)
            ops.insert(rng.randrange(len(ops) + 1), ("reinit", rng.randrange(len(searches)), args3, kw3))
        return ("world", searches, ops)

    def _make_mode(self, rng):
        """new: Class(*args); init: Class.__new__ then __init__ (an error there leaves the
        object alive); bare: __new__ only; twice: Class(*args) then __init__ again."""
        return rng.choice(["new"] * 16 + ["init", "bare", "twice"])

    def _world_ops(self, rng, M, k, s):
        info = M.info(k)
        ops = []
        for _ in range(rng.randrange(1, 5)):
            r = rng.random()
            target = s if rng.random() < 0.85 else rng.randrange(s + 1)
            if r < 0.4:
                ops.append(("work", target, self._core_spec(rng, info["players"])))
            elif r < 0.6:
                hands, bone = clone(info["hands"]), list(info["bone"])
                if rng.random() < 0.5 and info["worlds"]:
                    masks, bone = rng.choice(info["worlds"])
                    hands = [[t for t in range(28) if (masks[p] >> t) & 1] if p != info["seat"] else
                             list(info["hands"][p]) for p in range(info["players"])]
                    bone = list(bone)
                if rng.random() < 0.4:
                    if rng.random() < 0.5:
                        hands = tweak(rng, hands, info["players"], False)
                    else:
                        i = rng.randrange(len(hands))
                        hands[i] = tweak(rng, hands[i], info["players"], False)
                if rng.random() < 0.2:
                    bone = tweak(rng, bone, info["players"], False)
                if rng.random() < 0.15:                # the world of another position
                    other = M.info(rng.choice(M.entries))
                    hands, bone = clone(other["hands"]), list(other["bone"])
                horizon = None
                if rng.random() < 0.3:
                    horizon = rng.choice([(0, 0), (1, 2), (2, 4), (1, 64), (2, 16), (1, 3), (3, 4), (1,), 5, None,
                                          "ab", (True, 4), (1, 4.0)])
                ops.append(("value_world", target, self._core_spec(rng, info["players"]), hands, bone, horizon))
            elif r < 0.75:
                ops.append((rng.choice(["results", "group_plan", "searched_draws", "distinct_worlds"]), target))
            elif r < 0.85:
                ops.append(("max_groups", target, rng.choice([0, 1, 2, 1 << 18]) if rng.random() < 0.7 else
                            _bad_int(rng)))
            else:
                ops.append(("work", target, self._core_spec(rng, info["players"])))
                ops.append(("work", target, self._core_spec(rng, info["players"])))
        return ops

    def _construct(self, ctx, cls, name, args, kw, make, pool, M, made):
        args = [self._resolve(v, pool, M, made) for v in args]
        kw = {key: self._resolve(v, pool, M, made) for key, v in kw.items()}
        if make == "bare":
            ok, obj = ctx.call(f"{name}.__new__", cls.__new__, cls)
            return obj if ok else None
        if make == "init":
            ok, obj = ctx.call(f"{name}.__new__", cls.__new__, cls)
            if ok:
                ctx.call(f"{name}.__init__", obj.__init__, *args, **kw)
                return obj
            return None
        ok, obj = ctx.call(f"{name}()", cls, *args, **kw)
        if not ok:
            return None
        if make == "twice":
            ctx.call(f"{name}.__init__(again)", obj.__init__, *args, **kw)
        return obj

    def _run_world(self, inp, ctx, pool, M):
        _, searches, ops = inp
        WS = A.c_hint.WorldSearch
        made = []
        # a search is made just before the first op that names it (the second one after
        # the first's own ops: it may take the first as its source or depth_of)
        for op in ops + [("end", len(searches) - 1)]:
            while op[1] >= len(made) and len(made) < len(searches):
                _, a, kw, mk = searches[len(made)]
                made.append(self._construct(ctx, WS, "WorldSearch", a.values(), kw, mk, pool, M, made))
            if op[0] != "end":
                self._world_op(ctx, op, made, pool, M)

    def _world_op(self, ctx, op, made, pool, M):
        name, s = op[0], op[1]
        ws = made[s] if s < len(made) else None
        if ws is None:
            return
        if name == "work":
            ok, core = ctx.call("SolverCore(for a search)", self._make_core, op[2], pool, M)
            if ok:
                ctx.call("WorldSearch.work", ws.work, core)
        elif name == "value_world":
            ok, core = ctx.call("SolverCore(for a search)", self._make_core, op[2], pool, M)
            if ok:
                ctx.call("WorldSearch.value_world", ws.value_world, core, op[3], op[4], op[5])
        elif name == "max_groups":
            ctx.call("WorldSearch._set_max_groups", ws._set_max_groups, op[2])
        elif name == "reinit":
            args = [self._resolve(v, pool, M, made) for v in op[2].values()]
            kw = {key: self._resolve(v, pool, M, made) for key, v in op[3].items()}
            ctx.call("WorldSearch.__init__(again)", ws.__init__, *args, **kw)
        elif name == "distinct_worlds":
            ctx.call("WorldSearch.distinct_worlds", getattr, ws, "distinct_worlds")
        else:
            ctx.call(f"WorldSearch.{name}", getattr(ws, name))

    # ---------------------------------------------------------------- AlphaMuSearch
    def _amu_args(self, rng, M, k):
        info = M.info(k)
        roots = info["roots"]
        n = rng.choice([1, 2, 3])
        other = 1 << (1 - info["seat"]) if info["players"] == 2 else 2
        moves = roots if rng.random() < 0.6 else sorted(rng.sample(roots, rng.randrange(1, len(roots) + 1)))
        worlds = [[list(h), list(b), other if rng.random() < 0.3 else 0] for h, b in info["worlds"][:n]]
        args = {"base": ORef("base", k), "moves": list(moves), "worlds": worlds,
                "weights": None if rng.random() < 0.6 else [rng.choice([1.0, 0.5, 2, 3.5]) for _ in worlds],
                "depth_": rng.choice([0, 1, 1, 2]), "front_cap_": rng.choice([1, 4, 16]),
                "leaf_nodes_": rng.choice([1, 20, 100, 200]), "seconds_": 0.0 if rng.random() < 0.9 else 0.002}
        kw = {}
        if rng.random() < 0.3:
            kw["shares"] = [rng.randrange(1, 4) for _ in worlds]
        return args, kw

    def _gen_alphamu(self, rng, pool, M):
        k = rng.choice(M.two) if M.two and rng.random() < 0.92 else rng.choice(M.entries)
        args, kw = self._amu_args(rng, M, k)
        for _ in range(rng.choice([0, 0, 0, 1, 1, 2])):
            if rng.random() < 0.3:
                # (an earlier mutation may have made `worlds` something without a length)
                nw = len(args["worlds"]) if isinstance(args["worlds"], (list, tuple)) else 1
                args["weights"] = rng.choice([[10 ** 400] * nw, [math.nan] * nw, [math.inf] * nw, [-1.0] * nw,
                                              [0] * nw, ["1"] * nw, [1e300] * nw, [True] * nw,
                                              [1.0], "12", [None], [[1.0]], owner_weird(rng)])
            else:
                self._mutate_call(rng, pool, M, args, kw, k, 2, extra=("shares",))
        searches = [("AlphaMuSearch", args, kw, self._make_mode(rng))]
        ops = self._amu_ops(rng, M, 0)
        if rng.random() < 0.4:
            k2 = k if rng.random() < 0.8 else rng.choice(M.two or M.entries)
            if k2 == k and rng.random() < 0.7:
                args2, kw2 = clone(args), clone(kw)
                if rng.random() < 0.3:
                    args2["weights"] = None                 # weights aside: the same tree
            else:
                args2, kw2 = self._amu_args(rng, M, k2)
            kw2["follow"] = ORef("made", 0) if rng.random() < 0.9 else self._wrong_object(rng)
            if rng.random() < 0.25:
                self._mutate_call(rng, pool, M, args2, kw2, k2, 2, extra=("shares", "follow"))
            searches.append(("AlphaMuSearch", args2, kw2, self._make_mode(rng)))
            ops += self._amu_ops(rng, M, 1)
        if rng.random() < 0.12:
            args3, kw3 = self._amu_args(rng, M, rng.choice(M.two or M.entries))
            ops.insert(rng.randrange(len(ops) + 1), ("reinit", rng.randrange(len(searches)), args3, kw3))
        return ("alphamu", searches, ops)

    def _amu_ops(self, rng, M, s):
        ops = []
        for _ in range(rng.randrange(1, 5)):
            r = rng.random()
            target = s if rng.random() < 0.85 else rng.randrange(s + 1)
            if r < 0.45:
                ops.append(("work", target, self._core_spec(rng, 2)))
            elif r < 0.65:
                ops.append(("results", target))
            elif r < 0.85:
                ops.append(("leaf_horizons", target, rng.choice([0, 1, 2]) if rng.random() < 0.7 else _bad_int(rng)))
            else:
                ops.append((rng.choice(["following", "overflow"]), target))
        return ops

    def _run_alphamu(self, inp, ctx, pool, M):
        _, searches, ops = inp
        AM = A.c_alphamu.AlphaMuSearch
        made = []
        for op in ops + [("end", len(searches) - 1)]:       # each search made as in _run_world
            while op[1] >= len(made) and len(made) < len(searches):
                _, a, kw, mk = searches[len(made)]
                made.append(self._construct(ctx, AM, "AlphaMuSearch", a.values(), kw, mk, pool, M, made))
            js = made[op[1]] if op[1] < len(made) else None
            if js is None or op[0] == "end":
                continue
            if op[0] == "work":
                ok, core = ctx.call("SolverCore(for a search)", self._make_core, op[2], pool, M)
                if ok:
                    ctx.call("AlphaMuSearch.work", js.work, core)
            elif op[0] == "results":
                ctx.call("AlphaMuSearch.results", js.results)
            elif op[0] == "leaf_horizons":
                ctx.call("AlphaMuSearch.leaf_horizons", js.leaf_horizons, op[2])
            elif op[0] == "reinit":
                args = [self._resolve(v, pool, M, made) for v in op[2].values()]
                kw = {key: self._resolve(v, pool, M, made) for key, v in op[3].items()}
                ctx.call("AlphaMuSearch.__init__(again)", js.__init__, *args, **kw)
            else:
                ctx.call(f"AlphaMuSearch.{op[0]}", getattr, js, op[0])

    # ---------------------------------------------------------------- BeliefWorlds
    def _gen_beliefs(self, rng, pool, M):
        k = rng.choice(M.entries)
        info = M.info(k)
        from fiveup_solver.beliefs import DEFAULT_FLOOR, DEFAULT_GRID, ENGINE_WEIGHTS
        from fiveup_solver._beliefs import KINDS
        grid = list(DEFAULT_GRID) if rng.random() < 0.6 else rng.sample(DEFAULT_GRID, rng.randrange(1, 4))
        args = {"replayed": ORef("base", k), "counter": ORef("counter", k),
                "class_slots": clone(info["class_slots"]), "decisions": clone([list(d) for d in info["decisions"]]),
                "models": [[KINDS[kd], float(b)] for kd, b in grid], "floor_": DEFAULT_FLOOR,
                "engine_weights": list(ENGINE_WEIGHTS)}
        for _ in range(rng.choice([0, 0, 0, 1, 1, 2])):
            key = rng.choice(list(args) + ["engine_weights", "models", "decisions"])
            if key == "engine_weights":
                args[key] = rng.choice([(math.nan, 0.0), (0.0, math.inf), ("a", 1), (1,), None, (1, 2, 3),
                                        (1e308, 1e308), (-1.0, 0.5), owner_weird(rng)])
            elif key == "models" and rng.random() < 0.5:
                args[key] = rng.choice([[], [[0, 0.0]] * 33, [[4, 1.0]], [[1, -1.0]], [[2, 101.0]], [[2, math.nan]],
                                        [[True, 1.0]], [[2]], [[2, 1.0, 3]], [[2, "1"]], "ab", [None]])
            else:
                self._mutate_call(rng, pool, M, args, {}, k, info["players"], extra=())
        ops = []
        n_models = len(args["models"]) if isinstance(args["models"], list) else 1
        for _ in range(rng.randrange(1, 5)):
            r = rng.random()
            if r < 0.3:
                ops.append(("inspect", rng.getrandbits(64) if rng.random() < 0.8 else _bad_int(rng),
                            rng.randrange(100) if rng.random() < 0.8 else _bad_int(rng)))
            elif r < 0.8:
                n = rng.choice([0, 1, 2, 5])
                specs = [("loglik", n, n_models), ("hands", n), ("bone", n)]
                for i in range(3):
                    if rng.random() < 0.12:
                        specs[i] = specs[i] + (rng.choice(ARRAY_MUTATIONS),)
                ops.append(("draw", rng.getrandbits(64) if rng.random() < 0.9 else _bad_int(rng),
                            rng.randrange(1000) if rng.random() < 0.9 else _bad_int(rng),
                            *[ORef("array", s) for s in specs]))
            elif r < 0.9:
                ops.append(("decisions",))
            else:
                hand = rng.getrandbits(28) if rng.random() < 0.7 else _bad_int(rng)
                ops.append(("move_features", ORef("base", k) if rng.random() < 0.8 else self._position(rng, M, None),
                            hand, rng.choice([False, True, 0, 1, None])))
        return ("beliefs", args, self._make_mode(rng), ops)

    def _array(self, spec):
        import numpy as np
        what, n = spec[0], spec[1]
        shape, dtype = {"loglik": ((n, 4, spec[2] if len(spec) > 2 and isinstance(spec[2], int) else 1), np.float64),
                        "hands": ((n, 4), np.uint32), "bone": ((n, 28), np.uint8)}[what]
        mut = spec[-1] if isinstance(spec[-1], str) and spec[-1] in ARRAY_MUTATIONS else None
        a = np.zeros(shape, dtype=dtype)
        if mut is None:
            return a
        if mut in ("int64", "float32", "int32", "uint8", "uint32", "float64", "bool", "object"):
            return a.astype(mut if mut != "object" else object)
        if mut == "1d":
            return a.reshape(-1)
        if mut == "3d":
            return a.reshape(shape + (1,)) if len(shape) == 2 else a.reshape((n, shape[1] * shape[2]))
        if mut == "4d":
            return a.reshape(shape + (1,) * (4 - len(shape)) if len(shape) < 4 else shape)
        if mut == "rows":
            return np.zeros((n + 1,) + shape[1:], dtype=dtype)
        if mut == "cols":
            return np.zeros((n, shape[1] + 1) + shape[2:], dtype=dtype)
        if mut == "depth":
            return np.zeros(shape[:-1] + (shape[-1] + 1,), dtype=dtype)
        if mut == "none":
            return None
        if mut == "list":
            return a.tolist()
        if mut == "readonly":
            a.setflags(write=False)
            return a
        if mut == "strided":
            return np.zeros((shape[0] * 2,) + shape[1:], dtype=dtype)[::2]
        if mut == "fortran":
            return np.asfortranarray(a)
        if mut == "zero":
            return np.zeros((0,) + shape[1:], dtype=dtype)
        if mut == "scalar":
            return dtype(0)
        return a.tobytes()

    def _run_beliefs(self, inp, ctx, pool, M):
        _, args, make, ops = inp
        from fiveup_solver import _beliefs
        bw = self._construct(ctx, _beliefs.BeliefWorlds, "BeliefWorlds", args.values(), {}, make, pool, M, [])
        for op in ops:
            if op[0] == "move_features":
                ctx.call("_beliefs.move_features", _beliefs.move_features,
                         *[self._resolve(v, pool, M, None) for v in op[1:]])
                continue
            if bw is None:
                continue
            if op[0] == "inspect":
                ctx.call("BeliefWorlds.inspect", bw.inspect, op[1], op[2])
            elif op[0] == "draw":
                ctx.call("BeliefWorlds.draw", bw.draw, *[self._resolve(v, pool, M, None) for v in op[1:]])
            else:
                ctx.call("BeliefWorlds.decisions", getattr, bw, "decisions")

    # ---------------------------------------------------------------- references
    def _resolve(self, v, pool, M, made):
        if isinstance(v, list):
            return [self._resolve(x, pool, M, made) for x in v]
        if not isinstance(v, ORef):
            return v
        kind, i = v.kind, v.index
        if kind == "core":
            return pool.games[i].current.core
        if kind == "late":
            return M.late(i)
        if kind == "base":
            return M.info(i)["ds"].replayed
        if kind == "counter":
            return M.info(i)["ds"].counter
        if kind == "made":
            return made[i] if made is not None and i < len(made) else None
        if kind == "array":
            return self._array(i)
        if kind == "table":
            return self._table(i, M)
        if kind == "obj":
            if i == "None":
                return None
            if i == "SolverCore":
                return A.c_solver.SolverCore(0.01)
            if i == "DealCounter":
                return M.info(M.entries[0])["ds"].counter
            if i == "CoreRound":
                return pool.games[M.cores[0]].current.core
            if i == "WorldSearch":
                return A.c_hint.WorldSearch.__new__(A.c_hint.WorldSearch)
            if i == "AlphaMuSearch":
                return A.c_alphamu.AlphaMuSearch.__new__(A.c_alphamu.AlphaMuSearch)
            if i == "BeliefWorlds":
                from fiveup_solver import _beliefs
                return _beliefs.BeliefWorlds.__new__(_beliefs.BeliefWorlds)
            if i == "Game":
                return pool.games[0]
            if i == "Observation":
                return pool.observations[0]
            if i == "EquityTable":
                return M.table(2)
            return object()
        raise ValueError(f"unknown reference {v!r}")

    def run(self, inp, ctx, pool):
        M = _material(pool)
        getattr(self, "_run_" + inp[0])(inp, ctx, pool, M)


# ------------------------------------------------------------------ the watchdog's own test
@family("_selftest", 0)
class SelfTestFamily(Family):
    """Not part of a normal campaign (weight 0): input 1 of each worker raises a plain
    exception, 2 a multi-line FiveUpError, 3 kills itself with SIGSEGV, 5 hangs."""

    def gen(self, rng, pool):
        return None

    def run(self, inp, ctx, pool):
        i = ctx.index
        if i == 1:
            ctx.call("selftest.raise", lambda: {}["missing"])
        elif i == 2:
            def multiline():
                raise A.errors.OptionError("line one\nline two")
            ctx.call("selftest.multiline", multiline)
        elif i == 3:
            _redirect_sanitizer_reports(os.path.join(ctx.workdir or tempfile.gettempdir(), "selftest-crash"))
            ctx.call("selftest.crash", _selftest_crash)
        elif i == 5:
            ctx.call("selftest.hang", _selftest_hang)
        else:
            ctx.call("selftest.ok", lambda: None)


def _selftest_crash():
    os.kill(os.getpid(), signal.SIGSEGV)
    time.sleep(5)


def _selftest_hang():
    time.sleep(3600)


def _redirect_sanitizer_reports(path: str) -> None:
    """Under ASan, the selftest's deliberate SIGSEGV is reported like a real one: send that
    report elsewhere, so that a sanitizer run (sanitize.sh counts every report) stays clean."""
    if "libasan" not in os.environ.get("LD_PRELOAD", ""):
        return
    import ctypes
    for lib in (None, os.environ.get("FIVEUP_UBSAN_LIB")):
        try:
            fn = getattr(ctypes.CDLL(lib), "__sanitizer_set_report_path")
            fn(path.encode())
        except (OSError, AttributeError, TypeError):
            pass


# --------------------------------------------------------------------------- inputs
def family_of(seed: int, worker: int, index: int, names, weights) -> str:
    return random.Random(f"pick:{seed}:{worker}:{index}").choices(names, weights)[0]


def make_input(fam: Family, seed: int, worker: int, index: int, pool):
    rng = random.Random(f"{fam.name}:{seed}:{worker}:{index}")
    return fam.gen(rng, pool)


def run_input(fam: Family, seed: int, worker: int, index: int, pool, ctx: Ctx):
    """Generate and run one input; returns None or a Finding."""
    ctx.index = index
    ctx.calls = 0
    try:
        inp = make_input(fam, seed, worker, index, pool)
    except Finding as f:
        return f
    except Exception as e:  # a bug of the campaign itself: reported, not hidden
        return Finding("generator-error", "gen", type(e).__name__, str(e)[:300], _innermost(e.__traceback__),
                       traceback.format_exc())
    try:
        fam.run(inp, ctx, pool)
    except Finding as f:
        return f
    except Exception as e:  # noqa: BLE001 - an exception outside ctx.call: the campaign's own code
        return Finding("campaign-error", ctx.op, type(e).__name__, str(e)[:300], _innermost(e.__traceback__),
                       traceback.format_exc())
    return None


def group_key(f: dict) -> str:
    if f["kind"] in ("crash", "hang"):
        return " | ".join([f["kind"], f.get("type", ""), f.get("op", ""), f.get("where", "")])
    return " | ".join([f["kind"], f.get("type", ""), f.get("where", "")])


# --------------------------------------------------------------------------- worker
class Shared:
    """Shared memory of the workers and the watchdog (fork-inherited)."""

    def __init__(self, mp, workers: int, n_families: int):
        self.cur = mp.RawArray("q", workers)         # input index in progress (-1: starting)
        self.started = mp.RawArray("d", workers)     # its start, time.monotonic()
        self.done = mp.RawArray("i", workers)        # 1: the worker finished its range
        self.tags = mp.RawArray("c", workers * TAG_BYTES)
        self.count = mp.RawArray("q", workers * n_families)
        self.seconds = mp.RawArray("d", workers * n_families)

    def tag(self, w: int) -> str:
        raw = bytes(self.tags[w * TAG_BYTES: (w + 1) * TAG_BYTES])
        return raw.split(b"\0", 1)[0].decode("utf-8", "replace")


def _worker_main(w, start, stop, seed, names, weights, shared, workdir, pool, incarnation, memory_limit_mb):
    if memory_limit_mb and "libasan" not in os.environ.get("LD_PRELOAD", ""):
        # a runaway allocation becomes a MemoryError finding, not a machine out of memory
        # (not under ASan: its shadow memory needs terabytes of address space)
        import resource
        limit = memory_limit_mb * 2 ** 20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    fh = open(os.path.join(workdir, f"faulthandler.w{w}.{os.getpid()}"), "w")
    # disable first: enable() on an already enabled faulthandler (pytest enables it) only
    # changes the file and does not reinstall its signal handlers, and a library loaded in
    # the parent since (seen in a pytest run) may have put its own SIGSEGV handler there
    faulthandler.disable()
    faulthandler.enable(file=fh, all_threads=True)
    if hasattr(signal, "SIGUSR1"):
        faulthandler.unregister(signal.SIGUSR1)
        faulthandler.register(signal.SIGUSR1, file=fh, all_threads=True)
    base = w * TAG_BYTES

    def write_tag(op):
        b = op.encode("utf-8", "replace")[: TAG_BYTES - 1]
        shared.tags[base: base + TAG_BYTES] = b + b"\0" * (TAG_BYTES - len(b))

    ctx = Ctx(write_tag, workdir=workdir)
    fams = [FAMILIES[n] for n in names]
    index_of = {n: k for k, n in enumerate(names)}
    nf = len(names)
    out = open(os.path.join(workdir, f"findings.w{w}.{incarnation}.jsonl"), "w")
    per_key = {}
    last_flush = 0
    mono, perf = time.monotonic, time.perf_counter
    for i in range(start, stop):
        name = family_of(seed, w, i, names, weights) if len(names) > 1 else names[0]
        k = index_of[name]
        write_tag("gen")
        shared.started[w] = mono()
        shared.cur[w] = i
        t0 = perf()
        f = run_input(fams[k], seed, w, i, pool, ctx)
        shared.seconds[w * nf + k] += perf() - t0
        shared.count[w * nf + k] += 1
        if f is not None:
            rec = {"family": name, "id": f"{name}:{seed}:{w}:{i}", "kind": f.kind, "op": f.op, "type": f.exc_type,
                   "message": f.message, "where": f.where}
            key = group_key(rec)
            per_key[key] = per_key.get(key, 0) + 1
            if per_key[key] <= EXAMPLES_PER_GROUP:
                rec["traceback"] = f.tb[-3000:]
                out.write(json.dumps({"finding": rec}) + "\n")
                out.flush()
        if i - last_flush >= 2000:
            out.write(json.dumps({"counts": per_key}) + "\n")
            out.flush()
            last_flush = i
    out.write(json.dumps({"counts": per_key}) + "\n")
    out.close()
    shared.done[w] = 1
    fh.close()


# --------------------------------------------------------------------------- the parent
def _sanitizer_report(pid: int) -> str:
    """The sanitizer log of a dead worker (ASan/UBSan log_path.PID), if any."""
    paths = []
    for var in ("FIVEUP_SANITIZER_LOG",):
        if os.environ.get(var):
            paths.append(os.environ[var])
    for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS"):
        m = re.search(r"log_path=([^:]+)", os.environ.get(var, ""))
        if m:
            paths.append(m.group(1))
    for p in dict.fromkeys(paths):
        f = Path(f"{p}.{pid}")
        if f.exists():
            try:
                return f.read_text(errors="replace")
            except OSError:
                pass
    return ""


def _summarise_sanitizer(text: str) -> tuple:
    """(first report line, the first frame in fiveup_solver's C code)."""
    head, frame = "", ""
    for line in text.splitlines():
        s = line.strip()
        if not head and ("ERROR: AddressSanitizer" in s or "runtime error:" in s or "ERROR: " in s):
            head = re.sub(r"0x[0-9a-f]+", "0x…", s)
            head = re.sub(r"==\d+==", "", head)
        if not frame and s.startswith("#") and re.search(r"fiveup_solver/_\w+\.(c|pyx|pxd|h)|_\w+\.c:\d+", s):
            m = re.search(r" in (\S+) (\S+)", s)
            frame = f"{m.group(1)} {_short_path(m.group(2))}" if m else s
        if head and frame:
            break
    if not head:
        for line in text.splitlines():
            if line.startswith("SUMMARY:"):
                head = line.strip()
                break
    return head[:300], frame[:200]


def _faulthandler_frames(workdir: str, w: int, pid: int) -> tuple:
    """(innermost fiveup_solver frame, the whole dump) of a worker's faulthandler file."""
    p = Path(workdir) / f"faulthandler.w{w}.{pid}"
    try:
        text = p.read_text(errors="replace")
    except OSError:
        return "", ""
    # the first thread block is the current thread: its first frame is the innermost
    frames = []
    for line in text.splitlines():
        m = re.match(r'\s*File "([^"]+)", line (\d+) in (\S+)', line)
        if m:
            frames.append(f"{_short_path(m.group(1))}:{m.group(2)} {m.group(3)}")
        elif frames and not line.strip():
            break                        # the end of the first (current) thread's stack
    ours = [f for f in frames if f.startswith("fiveup_solver/")]
    return (ours or frames or [""])[0], text[:4000]          # the innermost frames come first


def _signal_name(code: int) -> str:
    if code < 0:
        try:
            return signal.Signals(-code).name
        except ValueError:
            return f"signal {-code}"
    return f"exit status {code}"


def run_campaign(inputs=DEFAULT_INPUTS, workers=DEFAULT_WORKERS, seed=0, time_limit=DEFAULT_TIME_LIMIT,
                 families=None, progress=None, workdir=None, sanitized=False,
                 memory_limit_mb=DEFAULT_MEMORY_LIMIT_MB) -> dict:
    """Run a campaign; returns the report (a dict, see ``--out``)."""
    import multiprocessing as mp_mod
    load_api()
    mp = mp_mod.get_context("fork")
    if families is None:
        families = [n for n, f in FAMILIES.items() if f.weight > 0]
    names = list(families)
    for n in names:
        if n not in FAMILIES:
            raise SystemExit(f"unknown family {n!r} (known: {', '.join(FAMILIES)})")
    weights = [max(FAMILIES[n].weight, 1e-9) for n in names]
    t_pool = time.perf_counter()
    pool = Pool(seed)
    pool_seconds = time.perf_counter() - t_pool
    own_dir = workdir is None
    workdir = workdir or tempfile.mkdtemp(prefix="fiveup-fuzz-")
    shared = Shared(mp, workers, len(names))
    per_worker = [inputs // workers + (1 if w < inputs % workers else 0) for w in range(workers)]
    procs, incarnations, crashes = {}, [0] * workers, []
    startup_failures = [0] * workers

    def spawn(w, start):
        shared.cur[w] = -1
        shared.started[w] = time.monotonic()
        shared.done[w] = 0
        incarnations[w] += 1
        p = mp.Process(target=_worker_main, args=(w, start, per_worker[w], seed, names, weights, shared, workdir,
                                                  pool, incarnations[w], memory_limit_mb), daemon=True)
        p.start()
        procs[w] = (p, start)

    t0 = time.perf_counter()
    for w in range(workers):
        if per_worker[w] > 0:
            spawn(w, 0)
    last_progress = time.perf_counter()
    while procs:
        time.sleep(0.05)
        for w in list(procs):
            p, start = procs[w]
            i = shared.cur[w]
            if p.exitcode is not None:
                if shared.done[w] and p.exitcode == 0:
                    del procs[w]
                    continue
                # died on input i (or while starting, i == -1)
                op = shared.tag(w)
                name = family_of(seed, w, i, names, weights) if (i >= 0 and len(names) > 1) else names[0]
                report = _sanitizer_report(p.pid)
                head, cframe = _summarise_sanitizer(report)
                pyframe, dump = _faulthandler_frames(workdir, w, p.pid)
                crashes.append({"family": name, "id": f"{name}:{seed}:{w}:{i}", "kind": "crash",
                                "type": _signal_name(p.exitcode), "op": op, "message": head,
                                "where": cframe or pyframe, "python_frame": pyframe,
                                "sanitizer": report[-6000:], "faulthandler": dump})
                del procs[w]
                if i < 0:
                    startup_failures[w] += 1
                    if startup_failures[w] >= 3:
                        continue      # a worker that cannot start: stop it (reported as crashes)
                    spawn(w, start)
                elif i + 1 < per_worker[w]:
                    spawn(w, i + 1)
            elif time.monotonic() - shared.started[w] > time_limit:
                op = shared.tag(w)
                name = family_of(seed, w, i, names, weights) if (i >= 0 and len(names) > 1) else names[0]
                if hasattr(signal, "SIGUSR1"):
                    try:
                        os.kill(p.pid, signal.SIGUSR1)     # faulthandler: dump the stacks
                    except OSError:
                        pass
                    time.sleep(0.3)
                p.kill()
                p.join(5)
                pyframe, dump = _faulthandler_frames(workdir, w, p.pid)
                crashes.append({"family": name, "id": f"{name}:{seed}:{w}:{i}", "kind": "hang",
                                "type": f"over {time_limit:g} s", "op": op, "message": "", "where": pyframe,
                                "python_frame": pyframe, "faulthandler": dump})
                del procs[w]
                if i + 1 < per_worker[w]:
                    spawn(w, max(i + 1, start))
        if progress and time.perf_counter() - last_progress > progress:
            last_progress = time.perf_counter()
            done = sum(shared.count)
            el = last_progress - t0
            print(f"[fuzz] {done:,}/{inputs:,} inputs, {el:.0f} s, {done / max(el, 1e-9):,.0f}/s, "
                  f"{len(crashes)} crashes/hangs", file=sys.stderr, flush=True)
    wall = time.perf_counter() - t0
    report = _build_report(inputs, workers, seed, time_limit, names, shared, crashes, workdir, wall, pool_seconds,
                           sanitized)
    if own_dir:
        shutil.rmtree(workdir, ignore_errors=True)
    return report


def _build_report(inputs, workers, seed, time_limit, names, shared, crashes, workdir, wall, pool_seconds, sanitized):
    nf = len(names)
    fams = {}
    for k, n in enumerate(names):
        count = sum(shared.count[w * nf + k] for w in range(workers))
        secs = sum(shared.seconds[w * nf + k] for w in range(workers))
        fams[n] = {"inputs": count, "worker_seconds": round(secs, 3),
                   "inputs_per_s_per_worker": round(count / secs, 1) if secs > 0 else None}
    for c in crashes:               # an input a worker died or hung on was attempted too
        if c["family"] in fams and int(c["id"].rsplit(":", 1)[1]) >= 0:
            fams[c["family"]]["inputs"] += 1
            fams[c["family"]]["crashed_or_hung"] = fams[c["family"]].get("crashed_or_hung", 0) + 1
    total = sum(f["inputs"] for f in fams.values())
    examples, counts = [], {}
    for path in sorted(Path(workdir).glob("findings.w*.jsonl")):
        # one file per worker incarnation: its last counts line, or (if it died before
        # writing one) at least the examples it wrote
        snapshot, written = {}, {}
        for line in path.read_text().splitlines():
            try:
                obj = json.loads(line)
            except ValueError:
                continue          # a line cut by a crash
            if "finding" in obj:
                examples.append(obj["finding"])
                key = group_key(obj["finding"])
                written[key] = written.get(key, 0) + 1
            elif "counts" in obj:
                snapshot = obj["counts"]
        for key in set(snapshot) | set(written):
            counts[key] = counts.get(key, 0) + max(snapshot.get(key, 0), written.get(key, 0))
    for c in crashes:
        counts[group_key(c)] = counts.get(group_key(c), 0) + 1
    groups = {}
    for f in examples + crashes:
        key = group_key(f)
        g = groups.setdefault(key, {"key": key, "kind": f["kind"], "type": f.get("type", ""), "op": f.get("op", ""),
                                    "where": f.get("where", ""), "count": 0, "families": [], "examples": []})
        if f["family"] not in g["families"]:
            g["families"].append(f["family"])
        if len(g["examples"]) < EXAMPLES_PER_GROUP:
            ex = {k: v for k, v in f.items() if k not in ("traceback", "sanitizer", "faulthandler") or v}
            ex["replay"] = f"python benchmarks/fuzz_campaign.py --replay {f['id']} --show"
            g["examples"].append(ex)
    for key, g in groups.items():
        g["count"] = counts.get(key, len(g["examples"]))
    order = {"crash": 0, "hang": 1, "exception": 2, "multiline": 3, "empty-message": 4}
    return {
        "config": {"inputs": inputs, "workers": workers, "seed": seed, "time_limit": time_limit, "families": names,
                   "sanitized": sanitized, "python": sys.version.split()[0],
                   "fiveup_solver": os.path.dirname(A.fs.__file__)},
        "total_inputs": total, "wall_seconds": round(wall, 2), "pool_seconds": round(pool_seconds, 2),
        "inputs_per_s": round(total / wall, 1) if wall > 0 else None,
        "families": fams,
        "findings": sorted(groups.values(), key=lambda g: (order.get(g["kind"], 9), -g["count"], g["key"])),
        "finding_count": sum(g["count"] for g in groups.values()),
    }


def markdown(report: dict) -> str:
    c = report["config"]
    out = [f"# fuzz campaign: {report['total_inputs']:,} inputs, seed {c['seed']}, {c['workers']} workers"
           f"{', sanitized' if c['sanitized'] else ''}", "",
           f"{report['wall_seconds']:.1f} s wall, {report['inputs_per_s']:,} inputs/s overall "
           f"(base material built in {report['pool_seconds']:.1f} s); fiveup_solver from {c['fiveup_solver']}", "",
           "| family | inputs | share | worker s | inputs/s per worker |", "|---|---:|---:|---:|---:|"]
    total = max(report["total_inputs"], 1)
    for n, f in report["families"].items():
        out.append(f"| {n} | {f['inputs']:,} | {100 * f['inputs'] / total:.1f} % | {f['worker_seconds']:.1f} | "
                   f"{f['inputs_per_s_per_worker'] or 0:,} |")
    out += ["", f"## findings: {len(report['findings'])} groups, {report['finding_count']:,} inputs", ""]
    for k, g in enumerate(report["findings"], 1):
        ex = g["examples"][0]
        out.append(f"{k}. **{g['kind']}** {g['type']} in `{g['op']}` at `{g['where']}`: {g['count']:,} inputs "
                   f"({', '.join(g['families'])})")
        if ex.get("message"):
            out.append(f"   - message: {ex['message'][:200]!r}")
        out.append(f"   - e.g. `{ex['replay']}`")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- replay
def replay_one(spec: str, show: bool = False) -> int:
    load_api()
    try:
        name, seed, w, i = spec.split(":")
        seed, w, i = int(seed), int(w), int(i)
    except ValueError:
        raise SystemExit(f"--replay takes FAMILY:SEED:WORKER:INDEX, not {spec!r}")
    if name not in FAMILIES:
        raise SystemExit(f"unknown family {name!r}")
    faulthandler.enable(all_threads=True)
    pool = Pool(seed)
    fam = FAMILIES[name]
    if show:
        inp = make_input(fam, seed, w, i, pool)
        print(f"input {spec}:")
        print(_show(inp))
        for ref in _refs(inp):
            g = ref.resolve(pool)
            print(f"{ref!r}: the game whose record is (its position: the record's last action)")
            print(json.dumps(g.to_record(scores_kept_apart=True), separators=(",", ":")) if g.rounds else "Game(players=2, deal=False)")
    ctx = Ctx(verbose=True)
    f = run_input(fam, seed, w, i, pool, ctx)
    if f is None:
        print("no finding: every call succeeded or raised a one-line FiveUpError")
        return 0
    print(f"FINDING {f.kind}: {f.exc_type} in {f.op} at {f.where}: {f.message}")
    print(f.tb)
    return 1


def _refs(x, out=None):
    out = [] if out is None else out
    if isinstance(x, GameRef):
        out.append(x)
    elif isinstance(x, (list, tuple)):
        for v in x:
            _refs(v, out)
    elif isinstance(x, dict):
        for v in x.values():
            _refs(v, out)
    return out


def _show(inp, limit=6000) -> str:
    import pprint
    s = pprint.pformat(inp, width=120, compact=True)
    return s if len(s) <= limit else s[:limit] + f"\n... ({len(s)} characters)"


# --------------------------------------------------------------------------- command line
def _sanitizer_env_ok() -> bool:
    return "libasan" in os.environ.get("LD_PRELOAD", "")


def _reexec_sanitized(argv):
    """Re-execute with the sanitizer runtimes preloaded (the options sanitize.sh uses)."""
    def lib(name):
        return subprocess.run(["gcc", f"-print-file-name={name}"], capture_output=True, text=True).stdout.strip()
    env = dict(os.environ)
    env["LD_PRELOAD"] = f"{lib('libasan.so')}:{lib('libubsan.so')}"
    logdir = tempfile.mkdtemp(prefix="fiveup-fuzz-san-")
    env.setdefault("ASAN_OPTIONS", f"detect_leaks=0:abort_on_error=1:halt_on_error=1:log_path={logdir}/sanitizer")
    env.setdefault("UBSAN_OPTIONS", f"print_stacktrace=1:halt_on_error=1:abort_on_error=1:log_path={logdir}/sanitizer")
    env.setdefault("FIVEUP_SANITIZER_LOG", f"{logdir}/sanitizer")
    env["PYTHONMALLOC"] = "malloc"
    print(f"[fuzz] re-executing with LD_PRELOAD={env['LD_PRELOAD']} (sanitizer logs in {logdir})", file=sys.stderr)
    os.execve(sys.executable, [sys.executable, os.path.abspath(__file__)] + list(argv), env)


def _check_sanitized_build():
    load_api()
    so = A.core.__file__
    out = subprocess.run(["ldd", so], capture_output=True, text=True).stdout
    if "libasan" not in out:
        raise SystemExit(f"--sanitized: {so} is not an ASan build (build with FIVEUP_SANITIZE=1, "
                         f"or run through benchmarks/sanitize.sh --fuzz)")
    # libubsan ignores UBSAN_OPTIONS' log_path once ASan is loaded: set it by hand (as sanitize.sh does)
    path = os.environ.get("FIVEUP_SANITIZER_LOG")
    if path:
        import ctypes
        try:
            lib = os.environ.get("FIVEUP_UBSAN_LIB") or subprocess.run(
                ["gcc", "-print-file-name=libubsan.so"], capture_output=True, text=True).stdout.strip()
            ctypes.CDLL(lib).__sanitizer_set_report_path(path.encode())
        except OSError:
            pass


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--inputs", type=int, default=DEFAULT_INPUTS, help="inputs in all (default 1,000,000)")
    ap.add_argument("--workers", type=int, default=DEFAULT_WORKERS, help="worker processes (default 2)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT, help="seconds per input (default 10)")
    ap.add_argument("--families", help="comma-separated families (default: all)")
    ap.add_argument("--memory-limit-mb", type=int, default=DEFAULT_MEMORY_LIMIT_MB,
                    help="address-space limit of each worker (default 4096; 0: none; never under ASan)")
    ap.add_argument("--list-families", action="store_true")
    ap.add_argument("--out", help="write the JSON report here")
    ap.add_argument("--md", help="write the Markdown summary here (it is printed anyway)")
    ap.add_argument("--progress", type=float, default=30.0, help="seconds between progress lines (0: none)")
    ap.add_argument("--replay", metavar="FAMILY:SEED:WORKER:INDEX", help="rerun one input, verbosely")
    ap.add_argument("--show", action="store_true", help="with --replay: print the generated input")
    ap.add_argument("--sanitized", action="store_true",
                    help="run on a sanitizer build (re-executes with the runtimes preloaded if needed)")
    ap.add_argument("--fail-on-findings", action="store_true", help="exit 1 when there is any finding")
    args = ap.parse_args(argv)
    if args.list_families:
        for n, f in FAMILIES.items():
            print(f"{n:12s} weight {f.weight:3g}{'  (expensive)' if f.expensive else ''}")
        return 0
    if args.sanitized:
        if not _sanitizer_env_ok():
            _reexec_sanitized(sys.argv[1:] if argv is None else argv)
        _check_sanitized_build()
    if args.replay:
        return replay_one(args.replay, args.show)
    if args.inputs < 1 or args.workers < 1 or not args.time_limit > 0:
        ap.error("--inputs and --workers must be >= 1 and --time-limit > 0")
    families = args.families.split(",") if args.families else None
    report = run_campaign(args.inputs, args.workers, args.seed, args.time_limit, families,
                          progress=args.progress or None, sanitized=args.sanitized,
                          memory_limit_mb=args.memory_limit_mb)
    text = markdown(report)
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=1, default=str) + "\n")
    if args.md:
        Path(args.md).write_text(text)
    print(text)
    return 1 if (args.fail_on_findings and report["findings"]) else 0


if __name__ == "__main__":
    sys.exit(main())
