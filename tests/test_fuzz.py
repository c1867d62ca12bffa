"""Hypothesis fuzzing of the record reader, the core (through Game) and the parsers.

(a) Anything fed to the record reader / ``replay`` gives a result or a
    FiveUpError with a one-line message -- never another exception.
(b) Arbitrary placement attempts, draws, passes and undos on a Game each either
    apply (exactly when the move is legal) or raise IllegalMoveError and leave
    the game untouched; the invariants hold after every step.
(c) parse_tile / parse_port / parse_move round trips and rejection of garbage.
"""
from __future__ import annotations

import contextlib
import copy
import io
import json
import re
import tempfile
from pathlib import Path

import pytest
try:
    from . import hypothesis_profiles  # noqa: F401  (seeded unless HYPOTHESIS_PROFILE says otherwise)
except ImportError:
    import hypothesis_profiles  # noqa: F401
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fiveup_solver import (
    ALL_TILES, FiveUpError, Game, IllegalMoveError, Move, ParseError, Port, Tile,
    format_move, format_port, format_tile, parse_move, parse_port, parse_tile,
)
from fiveup_solver.cli import main
from fiveup_solver.game import DEFAULT_MAX_ROUNDS
from fiveup_solver.record import check_record, game_at, parse_record_text, replay
from fiveup_solver.selfplay import play_game

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PORT_NAMES = ("low", "high", "lineA", "lineB", "branchA", "branchB")

# ---------------------------------------------------------------- base records

BASE = [
    play_game(2, 3, ["greedy", "random"], max_rounds=2).to_record(),
    play_game(3, 4, ["random"] * 3, max_rounds=2).to_record(),
    play_game(4, 5, ["greedy", "random", "random", "greedy"], max_rounds=2).to_record(),
    play_game(2, 6, ["random", "random"], max_rounds=1).to_record(),
]
BASE_TEXT = [json.dumps(r).encode() for r in BASE]


def test_base_records_are_valid():
    for rec in BASE:
        result = replay(rec)
        assert len(result["rounds"]) == len(rec["rounds"])


def reader_outcome(fn):
    """fn() returns normally, or raises a FiveUpError with a one-line message."""
    try:
        return fn()
    except FiveUpError as e:
        message = str(e)
        assert isinstance(e, ValueError)
        assert message and "\n" not in message and len(message.splitlines()) == 1, repr(message)
        assert len(message) < 400, message
        return e


def check_result(result):
    assert set(result) == {"winner", "scores", "rounds", "events"}
    assert all(s <= 305 for s in result["scores"])
    assert (result["winner"] is not None) == (305 in result["scores"])
    for e in result["events"]:
        assert all(s <= 305 for s in e["scores"])


def read_and_replay(data):
    record = parse_record_text(data, "fuzz")
    record = check_record(record)
    result = replay(record)
    check_result(result)
    return result


# ---------------------------------------------------------------- (a) reader

@SETTINGS
@given(st.binary(max_size=400))
def test_reader_arbitrary_bytes(data):
    reader_outcome(lambda: read_and_replay(data))


@st.composite
def mangled_text(draw):
    """A valid record's text with a few bytes overwritten, deleted or inserted."""
    data = bytearray(draw(st.sampled_from(BASE_TEXT)))
    for _ in range(draw(st.integers(1, 4))):
        pos = draw(st.integers(0, len(data) - 1))
        op = draw(st.sampled_from(["set", "del", "ins", "cut"]))
        byte = draw(st.integers(0, 255) | st.sampled_from(list(b'{}[]",:0123456789-')))
        if op == "set":
            data[pos] = byte
        elif op == "del":
            del data[pos]
        elif op == "ins":
            data.insert(pos, byte)
        else:
            del data[pos:]
        if not data:
            break
    return bytes(data)


@SETTINGS
@given(mangled_text())
def test_reader_mangled_text(data):
    reader_outcome(lambda: read_and_replay(data))


json_scalars = (st.none() | st.booleans() | st.integers(-10, 40) | st.integers()
                | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12)
                | st.sampled_from(["fiveup-record/1", "1-4", "4-1", "6-6", "7-1", "x", "1-4:low", "2-2:branchA",
                                   "draw", "pass", True, 2, 3, 4]))
json_values = st.recursive(json_scalars, lambda ch: st.lists(ch, max_size=5)
                           | st.dictionaries(st.text(max_size=8) | st.sampled_from(
                               ["format", "players", "rounds", "starter", "hands", "boneyard", "actions",
                                "seat", "play", "at", "draw", "pass", "view", "seats"]), ch, max_size=5),
                           max_leaves=30)


TILE_STRINGS = st.sampled_from([str(t) for t in ALL_TILES])
round_shaped = st.fixed_dictionaries({}, optional={
    "starter": st.integers(-1, 4) | json_values,
    "hands": st.lists(st.lists(TILE_STRINGS | json_scalars, max_size=6), max_size=5) | json_values,
    "boneyard": st.lists(TILE_STRINGS, max_size=20) | json_values,
    "actions": st.lists(json_values, max_size=4),
})
# objects with the record's keys and arbitrary values (reaches the deeper checks)
record_shaped = st.fixed_dictionaries({}, optional={
    "format": st.just("fiveup-record/1") | json_scalars,
    "players": st.sampled_from([2, 3, 4]) | json_scalars,
    "rounds": st.lists(round_shaped | json_values, max_size=2),
})


@SETTINGS
@given(json_values | record_shaped)
def test_reader_arbitrary_json(value):
    reader_outcome(lambda: (check_result(replay(value)), check_record(value)))
    text = json.dumps(value).encode()
    reader_outcome(lambda: read_and_replay(text))


# structured mutations of valid records -------------------------------------------------

def nodes(obj, path=()):
    """(container, key) of every value inside obj."""
    out = []
    if isinstance(obj, dict):
        items = list(obj.items())
    elif isinstance(obj, list):
        items = list(enumerate(obj))
    else:
        return out
    for k, v in items:
        out.append((obj, k))
        out.extend(nodes(v, path + (k,)))
    return out


def as_list(value):
    """value if it is a list, else an empty list: a mutation may have retyped any field."""
    return value if isinstance(value, list) else []


def round_dicts(rec):
    return [rnd for rnd in as_list(rec.get("rounds")) if isinstance(rnd, dict)]


def tile_slots(rec):
    """(container, key) of every tile string in hands, boneyard and actions."""
    slots = []
    for rnd in round_dicts(rec):
        for h in as_list(rnd.get("hands")):
            if isinstance(h, list):
                slots.extend((h, i) for i in range(len(h)))
        if isinstance(rnd.get("boneyard"), list):
            slots.extend((rnd["boneyard"], i) for i in range(len(rnd["boneyard"])))
        for a in as_list(rnd.get("actions")):
            if isinstance(a, dict):
                slots.extend((a, k) for k in ("play", "draw") if k in a)
    return slots


def action_lists(rec):
    return [rnd["actions"] for rnd in round_dicts(rec) if isinstance(rnd.get("actions"), list)]


tile_texts = (st.sampled_from([str(t) for t in ALL_TILES]) | st.sampled_from(["4-1", "6-5", "7-1", "x", "", "1-"])
              | st.text(max_size=5))
port_texts = (st.builds(lambda t, n: f"{t}:{n}", st.sampled_from([str(t) for t in ALL_TILES]),
                        st.sampled_from(PORT_NAMES + ("left", "")))
              | st.text(max_size=8))
actions = (st.builds(lambda s, t: {"seat": s, "play": t}, st.integers(-1, 4), tile_texts)
           | st.builds(lambda s, t, p: {"seat": s, "play": t, "at": p}, st.integers(-1, 4), tile_texts, port_texts)
           | st.builds(lambda s, t: {"seat": s, "draw": t}, st.integers(-1, 4), tile_texts | st.none())
           | st.builds(lambda s, v: {"seat": s, "pass": v}, st.integers(-1, 4), st.just(True) | json_scalars)
           | json_values)


@st.composite
def mutated_record(draw):
    rec = copy.deepcopy(draw(st.sampled_from(BASE)))
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["drop", "retype", "swap", "insert", "delete", "duplicate", "seat",
                                   "tile", "port", "starter", "move_round"]))
        if op in ("drop", "retype"):
            slots = [(c, k) for c, k in nodes(rec) if op == "retype" or isinstance(c, dict)]
            if not slots:
                continue
            c, k = draw(st.sampled_from(slots))
            if op == "drop":
                del c[k]
            else:
                c[k] = draw(json_values)
        elif op in ("swap", "tile"):
            slots = tile_slots(rec)
            if len(slots) < 2:
                continue
            (c1, k1), (c2, k2) = draw(st.sampled_from(slots)), draw(st.sampled_from(slots))
            if op == "swap":
                c1[k1], c2[k2] = c2[k2], c1[k1]
            else:
                c1[k1] = draw(tile_texts)
        elif op in ("insert", "delete", "duplicate", "seat", "port"):
            lists = [a for a in action_lists(rec) if a or op == "insert"]
            if not lists:
                continue
            acts = draw(st.sampled_from(lists))
            if op == "insert":
                acts.insert(draw(st.integers(0, len(acts))), draw(actions))
                continue
            i = draw(st.integers(0, len(acts) - 1))
            if op == "delete":
                del acts[i]
            elif op == "duplicate":
                acts.insert(i, copy.deepcopy(acts[i]))
            elif op == "seat" and isinstance(acts[i], dict):
                acts[i]["seat"] = draw(st.integers(-1, 5) | json_scalars)
            elif op == "port" and isinstance(acts[i], dict):
                acts[i]["at"] = draw(port_texts)
        elif op == "starter":
            rounds = round_dicts(rec)
            if rounds:
                draw(st.sampled_from(rounds))["starter"] = draw(st.integers(-1, 4))
        elif op == "move_round" and isinstance(rec.get("rounds"), list) and len(rec["rounds"]) > 1:
            rec["rounds"].reverse()
    return rec


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_record())
def test_reader_structured_mutations(rec):
    outcome = reader_outcome(lambda: replay(rec))
    text = json.dumps(rec).encode()
    again = reader_outcome(lambda: read_and_replay(text))
    # the file path and the API agree
    if isinstance(outcome, FiveUpError):
        assert isinstance(again, FiveUpError) and str(again) == str(outcome)
    else:
        check_result(outcome)
        assert again == outcome


_TMP = tempfile.TemporaryDirectory(prefix="fiveup-fuzz-")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_record() | mangled_text())
def test_cli_replay_on_mutations(rec):
    """Through the command line: status 0 with output, or 2 with exactly one 'error: ' line."""
    path = Path(_TMP.name) / "fuzz.json"
    path.write_bytes(rec if isinstance(rec, bytes) else json.dumps(rec).encode())
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(["replay", str(path), "--json"])
    if rc == 0:
        assert err.getvalue() == ""
        check_result(json.loads(out.getvalue()))
    else:
        assert rc == 2
        assert out.getvalue() == ""
        text = err.getvalue()
        assert text.startswith("error: ") and text.endswith("\n") and text.count("\n") == 1, repr(text)
        assert len(text.splitlines()) == 1


# ---------------------------------------------------------------- (b) the core through Game

tiles = st.sampled_from(ALL_TILES)


@st.composite
def ports(draw):
    t = draw(tiles)
    return Port(t, draw(st.sampled_from(t.port_names)))


ALL_PORTS = [Port(t, name) for t in ALL_TILES for name in t.port_names]


def decode_step(code: int):
    """One step from one integer (cheap for hypothesis to generate and shrink).

    code % 16 picks the kind (7/16 a legal move, to make progress), code // 16 its arguments.
    """
    kind, arg = code % 16, code // 16
    tile = ALL_TILES[arg % 28]
    p = arg // 28 % (len(ALL_PORTS) + 1)
    port = None if p == 0 else ALL_PORTS[p - 1]
    if kind <= 6:
        return ("legal", arg)
    if kind <= 8:
        return ("play", tile, port)
    if kind <= 10:
        return ("play_open", arg)
    if kind == 11:
        return ("draw", None)
    if kind == 12:
        return ("draw", tile)
    return [("pass",), ("pop",), ("next_round",)][kind - 13]


def test_decode_step_reaches_every_kind():
    kinds = {decode_step(c)[0] for c in range(16)}
    assert kinds == {"legal", "play", "play_open", "draw", "pass", "pop", "next_round"}
    assert {decode_step(16 * a + 7)[2] for a in range(28 * 71)} == set(ALL_PORTS) | {None}


def snapshot(g: Game):
    """Everything a push or pop may change (earlier rounds are fixed once ended)."""
    r = g.current
    core = r.core
    return (len(g.rounds), r.starter, [dict(a) for a in r.actions], core.depth, tuple(core.scores),
            tuple(tuple(core.hand(s)) for s in range(g.players)), tuple(core.board_tiles),
            tuple(core.boneyard_left), tuple(core.open_ports()), core.status, core.to_move,
            len(g.events), tuple(g.events[-1:]))


def check_invariants(g: Game):
    core = g.current.core
    hands = [g.hand(s) for s in range(g.players)]
    parts = [t for h in hands for t in h] + g.board + g.boneyard
    assert len(parts) == 28 and set(parts) == set(ALL_TILES)        # 28 tiles, each once
    assert core.topology_agrees()
    assert g.end_sum == sum(v for _, v in g.scoring_ends())
    assert all(s <= 305 for s in g.scores)
    assert g.game_over == (305 in g.scores)
    if g.round_over:
        assert g.to_move is None and g.legal_moves == []
    else:
        assert 0 <= g.to_move < g.players and g.legal_moves
        assert {p.value for p in g.open_ports()} >= {m.at.value for m in g.legal_moves
                                                    if m.kind == "play" and m.at is not None}
    if g.board:
        assert all(p.tile in g.board for p in g.open_ports())


def expected_ok(g: Game, move: Move, legal) -> bool:
    if g.round_over:
        return False
    if move.kind == "play":
        return move in legal
    if move.kind == "draw":
        return legal == [Move.draw()] and (move.tile is None or move.tile == g.boneyard[0])
    return legal == [Move.pass_()]


def fuzz_game(g: Game, codes):
    """Apply the decoded steps to g, checking each outcome and the invariants."""
    history = []           # ("deal" | "move", snapshot before it)
    check_invariants(g)
    for step in map(decode_step, codes):
        kind = step[0]
        before = snapshot(g)
        if kind == "next_round":
            if not g.round_over or g.game_over or len(g.rounds) >= g.max_rounds:
                with pytest.raises(IllegalMoveError):
                    g.next_round()
                assert snapshot(g) == before
            else:
                g.next_round()
                history.append(("deal", before))
                assert g.current.actions == [] and len(g.hand(g.to_move)) == 5
            check_invariants(g)
            continue
        if kind == "pop":
            if not history or (history[-1][0] == "deal" and len(history) < 2):
                continue             # only what this test did is undone (pop undoes a deal and the
                #                      action before it)
            else:
                if history[-1][0] == "deal":
                    history.pop()
                undone = g.pop()
                assert isinstance(undone, Move)
                assert history.pop()[1] == snapshot(g)
            check_invariants(g)
            continue
        legal = g.legal_moves
        if kind == "legal":
            if not legal:
                continue
            move = legal[step[1] % len(legal)]
        elif kind == "play":
            move = Move.play(step[1], step[2])
        elif kind == "play_open":
            ports_ = g.open_ports() if g.rounds else []
            hand = g.hand(g.to_move) if not g.round_over else []
            if not ports_ or not hand:
                continue
            port = ports_[step[1] % len(ports_)]
            move = Move.play(hand[step[1] // 7 % len(hand)], port)
        elif kind == "draw":
            move = Move.draw(step[1])
        else:
            move = Move.pass_()
        ok = expected_ok(g, move, legal)
        drawing_seat = g.to_move
        try:
            events = g.push(move)
        except IllegalMoveError as e:
            assert not ok, (move, legal, str(e))
            assert "\n" not in str(e)
            assert snapshot(g) == before                   # a refused move changes nothing
        else:
            assert ok, (move, legal)
            history.append(("move", before))
            assert all(ev.round == len(g.rounds) - 1 for ev in events)
            accepted = [ev for ev in events if ev.accepted]
            if accepted:
                assert list(accepted[-1].scores) == g.scores
            if move.kind == "draw" and not g.round_over and g.to_move == drawing_seat:
                drawn = Tile.parse(g.current.actions[-1]["draw"])
                nxt = g.legal_moves
                if nxt and nxt[0].kind == "play":                 # RULES 5.2: play the drawn tile
                    assert {m.tile for m in nxt} == {drawn}
        check_invariants(g)
    # whatever happened, the game's record replays to the same result
    assert replay(g.to_record()) == g.result()
    if g.game_over:
        with pytest.raises(IllegalMoveError):
            g.push(Move.pass_())
        with pytest.raises(IllegalMoveError):
            g.next_round()


CODES = st.lists(st.integers(0, 2 ** 16 - 1), min_size=40, max_size=250)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([2, 3, 4]), st.integers(0, 2 ** 32), CODES)
def test_core_random_actions(players, seed, codes):
    fuzz_game(Game(players=players, seed=seed), codes)


def test_core_pop_to_the_start_is_refused():
    g = Game(players=2, seed=1)
    with pytest.raises(IllegalMoveError):
        g.pop()


# whole games, to start the fuzzing near the exact target (rejections, wins, blocked rounds)
FULL = [play_game(n, seed, ["greedy", "random", "random", "greedy"][:n]).to_record()
        for n, seed in ((2, 1), (3, 2), (4, 3), (2, 8))]


def test_full_games_reach_the_target():
    for rec in FULL:
        result = replay(rec)
        assert 305 in result["scores"] and max(result["scores"]) == 305


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(FULL))), st.integers(1, 3), st.integers(0, 10 ** 6), CODES)
def test_core_random_actions_late_in_a_game(k, back, where, codes):
    rec = FULL[k]
    r = max(0, len(rec["rounds"]) - back)
    a = where % (len(rec["rounds"][r]["actions"]) + 1)
    g = game_at(rec, r, a)
    g.max_rounds = DEFAULT_MAX_ROUNDS            # let the fuzz deal further rounds
    fuzz_game(g, codes)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([2, 3, 4]), st.integers(0, 2 ** 16),
       st.builds(Move, st.sampled_from(["play", "draw", "pass", "jump", ""]),
                 st.none() | tiles | json_scalars, st.none() | ports() | json_scalars))
def test_core_malformed_moves(players, seed, move):
    """Move objects with wrong contents are refused with IllegalMoveError, never another error."""
    g = Game(players=players, seed=seed)
    before = snapshot(g)
    legal = g.legal_moves
    try:
        g.push(move)
    except IllegalMoveError as e:
        assert "\n" not in str(e)
        assert snapshot(g) == before
    else:
        assert move in legal


# ---------------------------------------------------------------- (c) parsers

def test_every_tile_port_and_move_round_trips():
    for t in ALL_TILES:
        assert parse_tile(format_tile(t)) is t
        assert parse_tile(f"{t.hi}-{t.lo}") is t
        assert Tile.from_index(t.index) is t and Tile(t.lo, t.hi) == t
        for name in t.port_names:
            p = Port(t, name)
            assert parse_port(format_port(p)) == p
            assert parse_port(f"{t.hi}-{t.lo}:{name}") == p
            for u in ALL_TILES:
                m = Move.play(u, p)
                assert parse_move(format_move(m)) == m
        assert parse_move(format_move(Move.play(t))) == Move.play(t)
    assert parse_move("draw") == Move.draw() and parse_move("pass") == Move.pass_()
    assert len({str(t) for t in ALL_TILES}) == 28


TILE_RE = re.compile(r"([0-6])-([0-6])")


def tile_ok(text) -> bool:
    return isinstance(text, str) and TILE_RE.fullmatch(text) is not None


def port_ok(text) -> bool:
    if not isinstance(text, str) or text.count(":") != 1:
        return False
    t, name = text.split(":")
    if not tile_ok(t):
        return False
    double = t[0] == t[2]
    return name in (("lineA", "lineB", "branchA", "branchB") if double else ("low", "high"))


def move_ok(text) -> bool:
    if text in ("draw", "pass"):
        return True
    if not isinstance(text, str):
        return False
    if "@" in text:
        t, _, p = text.partition("@")
        return tile_ok(t) and port_ok(p)
    return tile_ok(text)


tile_like = st.from_regex(r"\A[0-8x ]?-?[0-8]?[-]?\Z") | st.text(max_size=6)
port_like = (st.builds(lambda a, b: f"{a}:{b}", tile_like | st.sampled_from([str(t) for t in ALL_TILES]),
                       st.sampled_from(PORT_NAMES + ("LOW", "line", "", "low ")) | st.text(max_size=6))
             | st.text(max_size=10))
move_like = (st.builds(lambda a, b: f"{a}@{b}", tile_like | st.sampled_from(["1-4", "3-3"]), port_like)
             | tile_like | port_like | st.sampled_from(["draw", "pass", "Pass", "draw ", "@", ""]))
non_strings = st.none() | st.integers() | st.floats() | st.binary(max_size=4) | st.lists(st.integers(), max_size=2)


@SETTINGS
@given(tile_like | non_strings)
def test_parse_tile_accepts_exactly_a_b(text):
    if tile_ok(text):
        t = parse_tile(text)
        a, b = int(text[0]), int(text[2])
        assert (t.lo, t.hi) == (min(a, b), max(a, b))
        assert format_tile(t) == f"{t.lo}-{t.hi}"
    else:
        with pytest.raises(ParseError) as info:
            parse_tile(text)
        assert "\n" not in str(info.value)


@SETTINGS
@given(port_like | non_strings)
def test_parse_port_accepts_exactly_valid_ports(text):
    if port_ok(text):
        p = parse_port(text)
        assert p.name == text.split(":")[1]
        assert parse_port(format_port(p)) == p
        assert p.value in (p.tile.lo, p.tile.hi)
    else:
        with pytest.raises(ParseError) as info:
            parse_port(text)
        assert "\n" not in str(info.value)


@SETTINGS
@given(move_like | non_strings)
def test_parse_move_accepts_exactly_valid_moves(text):
    if move_ok(text):
        m = parse_move(text)
        assert parse_move(format_move(m)) == m
        assert m.kind == ("play" if text not in ("draw", "pass") else text)
    else:
        with pytest.raises(ParseError) as info:
            parse_move(text)
        assert "\n" not in str(info.value)


@SETTINGS
@given(st.integers(-3, 9) | st.booleans() | json_scalars, st.integers(-3, 9) | st.booleans() | json_scalars)
def test_tile_constructor_checks_pips(lo, hi):
    good = all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 6 for x in (lo, hi)) and lo <= hi
    if good:
        assert Tile(lo, hi) is not None and Tile(lo, hi).index == ALL_TILES.index(Tile(lo, hi))
    else:
        with pytest.raises(ParseError):
            Tile(lo, hi)


@SETTINGS
@given(st.integers(-40, 40) | json_scalars, st.sampled_from(PORT_NAMES) | json_scalars)
def test_from_index_and_port_constructor(index, name):
    if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < 28:
        t = Tile.from_index(index)
        assert t.index == index
        if name in t.port_names:
            assert Port(t, name).name == name
        else:
            with pytest.raises(ParseError):
                Port(t, name)
    else:
        with pytest.raises(ParseError):
            Tile.from_index(index)
        with pytest.raises(ParseError):
            Port(index, "low")
