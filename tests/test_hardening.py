"""Every boundary a caller can reach checks what it is given (issue: hardening).

Each test names an input that once reached C arrays unchecked (a crash, a write
out of bounds, or a silently wrong answer) and asserts the typed one-line
error that replaces it. The two reported crashes run in a child process, so a
regression fails the test instead of killing the test run.
"""
from __future__ import annotations

import dataclasses
import json
import math
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import fiveup_solver
from fiveup_solver import (
    CoreError, FiveUpError, Game, InconsistentObservationError, Move, OptionError, RecordError, _alphamu, _core,
    _hint, _sampler, _solver,
)
from fiveup_solver.hint import hint
from fiveup_solver.inference import DealSampler, check_observation
from fiveup_solver.notation import ALL_TILES, Port
from fiveup_solver.record import observation_at


def one_line(e: BaseException) -> str:
    text = str(e)
    assert text and "\n" not in text, repr(text)
    return text


def played(players: int, seed: int, steps: int) -> Game:
    g = Game(players=players, seed=seed)
    for _ in range(steps):
        if g.round_over:
            break
        g.push(g.legal_moves[0])
    return g


def mover_observation(players=2, seed=4, steps=6):
    """An observation of the seat to move with at least two legal placements."""
    for s in range(seed, seed + 200):
        g = played(players, s, steps)
        if not g.round_over and len(g.legal_moves) >= 2 and g.legal_moves[0].kind == "play":
            return g, g.observation(g.to_move)
    raise AssertionError("no position found")


def run_child(code: str) -> subprocess.CompletedProcess:
    """Run code in a fresh interpreter: a crash shows as a negative return code."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=120)


# ---------------------------------------------------------------- the reported cases

def test_made_up_legal_moves_are_refused_before_the_search():
    """70 made-up moves (the search copies roots into a 64-slot array): one typed
    error naming the legal moves, nothing ranked, nothing written out of bounds."""
    g, obs = mover_observation()
    fake = tuple(Move.play(t, Port.parse("0-0:lineA")) for t in ALL_TILES for _ in range(3))[:70]
    bad = dataclasses.replace(obs, legal_moves=fake, end_sums_after=(0,) * 70)
    with pytest.raises(InconsistentObservationError, match="legal_moves are not the position's") as e:
        hint(bad, samples=4, seed=1)
    one_line(e.value)
    # one made-up move added to the true ones, one true move left out, a move listed twice
    extra = dataclasses.replace(obs, legal_moves=obs.legal_moves + (Move.play(ALL_TILES[0], Port.parse("6-6:lineA")),),
                                end_sums_after=obs.end_sums_after + (0,))
    with pytest.raises(InconsistentObservationError, match="not legal: 0-0@6-6:lineA"):
        hint(extra, samples=2, seed=1)
    fewer = dataclasses.replace(obs, legal_moves=obs.legal_moves[1:], end_sums_after=obs.end_sums_after[1:])
    with pytest.raises(InconsistentObservationError, match="missing"):
        hint(fewer, samples=2, seed=1)
    twice = dataclasses.replace(obs, legal_moves=obs.legal_moves + obs.legal_moves[:1],
                                end_sums_after=obs.end_sums_after + obs.end_sums_after[:1])
    with pytest.raises(InconsistentObservationError, match="listed twice"):
        hint(twice, samples=2, seed=1)
    # a single made-up move is not returned unsearched either
    single = dataclasses.replace(obs, legal_moves=(Move.play(ALL_TILES[0], Port.parse("6-6:lineA")),),
                                 end_sums_after=(0,))
    with pytest.raises(InconsistentObservationError):
        hint(single, samples=2, seed=1)


def test_five_scores_before_do_not_kill_the_process():
    """3 players, late game, scores_before replaced by five zeros: once SIGFPE
    (exit 136). Now a typed error in the caller's process."""
    child = run_child("""
        import dataclasses
        from fiveup_solver import Game, FiveUpError
        from fiveup_solver.hint import hint
        g = Game(players=3, seed=16)
        while not (not g.round_over and g.to_move is not None and len(g.legal_moves) >= 2 and len(g.current.actions) > 3):
            if g.round_over:
                g.next_round()
            else:
                g.push(g.legal_moves[-1])
        obs = dataclasses.replace(g.observation(g.to_move), scores_before=(0, 0, 0, 0, 0))
        try:
            hint(obs, samples=2, seed=1)
        except FiveUpError as e:
            print(type(e).__name__, "|", e)
    """)
    assert child.returncode == 0, (child.returncode, child.stderr[-500:])
    assert child.stdout.startswith("InconsistentObservationError | observation scores_before must list 3"), child.stdout


def test_scores_past_the_core_arrays():
    obs = mover_observation(players=3)[1]
    for field, value in (("scores", (0,) * 5), ("scores_before", (0,) * 4), ("scores", (0, 0)),
                         ("scores", (0, 999, 0)), ("scores", (0, "1", 0)), ("scores_before", (0, 0, 2 ** 40))):
        with pytest.raises(InconsistentObservationError, match=field) as e:
            DealSampler(dataclasses.replace(obs, **{field: value}))
        one_line(e.value)
    with pytest.raises(CoreError, match="scores must be 2 integers"):
        _core.CoreRound(2, [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]], list(range(10, 28)), 0, [0, 0, 0, 0, 0])
    rnd = _core.CoreRound(2, [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]], list(range(10, 28)), 0, [0, 0])
    for scores in ([0] * 5, [1, 2, 3], [305, 0], [0.5, 0], [True, 0]):
        with pytest.raises(CoreError):
            rnd.set_scores(scores)


# ---------------------------------------------------------------- the core owner (CoreRound)

HANDS2 = [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]]
BONE2 = list(range(10, 28))


@pytest.mark.parametrize("args,message", [
    ((5, HANDS2, BONE2, 0, [0, 0]), "players must be 2, 3 or 4"),
    ((2, HANDS2, BONE2 + [3] * 20, 0, [0, 0]), "dealt twice"),
    ((2, HANDS2, list(range(10, 40)), 0, [0, 0]), "tile number must be 0..27"),
    ((2, [[0, 1, 2, 3, 28], [5, 6, 7, 8, 9]], BONE2, 0, [0, 0]), "hand of seat 0: tile number"),
    ((2, [[0, 1, 2, 3, -1], [5, 6, 7, 8, 9]], BONE2, 0, [0, 0]), "tile number must be 0..27"),
    ((2, HANDS2, BONE2, 2, [0, 0]), "starter must be a seat 0..1"),
    ((2, HANDS2, BONE2, -1, [0, 0]), "starter must be a seat"),
    ((2, HANDS2[:1], BONE2, 0, [0, 0]), "hands must list 2 hands"),
    # a review: no tile anywhere left the board empty and never blocked, and a search
    # passed for ever in native code (RULES §2 deals every hand a tile)
    ((2, [[], []], [], 0, [0, 0]), "the hand of seat 0 is empty"),
    ((3, [[1], [2], []], [], 2, [0, 0, 0]), "the hand of seat 2 is empty"),
    ((2, HANDS2, BONE2, 0, [0] * 5), "scores must be 2 integers"),
    ((2, None, BONE2, 0, [0, 0]), "hands must be a list"),
    ((2, HANDS2, BONE2, 0, None), "scores must be a list"),
])
def test_core_round_checks_its_arguments(args, message):
    with pytest.raises(CoreError, match=message) as e:
        _core.CoreRound(*args)
    one_line(e.value)


def test_private_copy_path_is_not_reachable():
    """Only CoreRound.copy() may build an empty owner (players 0 would divide by zero)."""
    for flag in (True, 1, object()):
        rnd = _core.CoreRound(2, HANDS2, BONE2, 0, [0, 0], flag)
        assert rnd.players == 2 and rnd.turn_kind() == "place"


def test_core_round_checks_seats_ports_and_move_bytes():
    bone = [t for t in range(5, 27) if t not in (5, 6, 7, 8)]
    rnd = _core.CoreRound(2, [[27, 1, 2, 3, 4], [5, 6, 7, 8, 0]], bone, 0, [0, 0])   # 27 = 6-6
    rnd.place(27, -1, -1)
    for seat in (-1, 2, 4, 2 ** 40, "0", None):
        with pytest.raises(CoreError):
            rnd.hand(seat)
        with pytest.raises(CoreError):
            rnd.side_of(seat)
    # ports out of range, on a double and on a non-double (6-6 is on the board)
    for k in (-1, 4, 7, -2 ** 31):
        assert rnd.check_placement(6, 27, k) == _core.PLACE_BAD_PORT_NAME
    with pytest.raises(CoreError):
        rnd.check_placement(6, 27, 2 ** 40)
    with pytest.raises(CoreError, match="port index must be 0..1"):
        _core.canonical_of(0, 1, 2)     # 0-1 is not a double: ports low, high only
    with pytest.raises(CoreError, match="port index must be 0..3"):
        _core.port_name(27, 4)
    with pytest.raises(CoreError, match="tile number"):
        _core.tile_lo(28)
    with pytest.raises(CoreError, match="does not match"):
        _core.canonical_of(0, 27, 0)    # 0-0 does not fit a 6
    with pytest.raises(CoreError, match="6-6 cannot be placed on itself"):
        _core.canonical_of(27, 27, 3)   # a review: the value fits, the tile is the same one
    legal = rnd.canonical_moves()
    assert legal and all(rnd.multiplicity(m) >= 1 for m in legal)
    for m in (0xFF, 31, 28, 7 << 5 | 3, -1, 256, max(legal) + 1 if max(legal) + 1 not in legal else 255):
        with pytest.raises(CoreError, match="not a canonical move"):
            rnd.multiplicity(m)
    for depth in (-1, -5):
        with pytest.raises(CoreError):
            rnd.perft(depth)
        with pytest.raises(CoreError):
            rnd.perft_canonical(depth)
    with pytest.raises(CoreError):
        _core.random_playouts(2, -1, 1)


def test_board_trace_errors_carry_the_placement_number():
    with pytest.raises(CoreError) as e:
        _core.board_trace(2, [(0, 27, -1, -1), (1, 6, 27, -1)])
    assert e.value.index == 1 and "not a port" in e.value.reason
    for players, placements in ((5, []), (2, [(0, 1)]), (2, [("a", 1, -1, -1)]), (2, [(0, 1, -1, 2 ** 40)])):
        with pytest.raises(CoreError):
            _core.board_trace(players, placements)


def test_five_players_in_an_observation_is_a_typed_error():
    """The board trace's CoreError was indexed as (index, reason) with one argument: a TypeError."""
    obs = mover_observation()[1]
    with pytest.raises(InconsistentObservationError, match="players must be 2, 3 or 4"):
        DealSampler(dataclasses.replace(obs, players=5))


# ---------------------------------------------------------------- the sampler, the solver, the world search

def test_deal_counter_checks_classes_and_capacities():
    ok = dict(caps=[1, 1], allowed=[3, 3], strict=None, bone=1, item_tiles=[3, 4], item_held=[1, 1],
              class_seat=[1, -1])
    assert _sampler.DealCounter(*ok.values()).count == 2
    for change, message in (
            ({"class_seat": [7, -1]}, "class_seat"),
            ({"class_seat": [-3, -1]}, "class_seat"),
            ({"class_seat": [1, 2]}, "class_seat"),
            ({"caps": [-1, 3]}, "capacities"),
            ({"caps": [1, 2]}, "sum to 3"),
            ({"bone": 5}, "bone must be"),
            ({"item_tiles": [3, 40]}, "tile numbers"),
            ({"item_tiles": [3, 3]}, "distinct"),
            ({"item_held": [1, 2]}, "item_held"),
            ({"allowed": [3, 1 << 9]}, "class masks"),
            ({"allowed": [3]}, "sum to"),
            ({"strict": [1]}, "one entry per item"),
            ({"caps": None}, "takes lists")):
        args = dict(ok, **change)
        with pytest.raises(CoreError, match=message) as e:
            _sampler.DealCounter(*args.values())
        one_line(e.value)
    assert issubclass(_sampler.TooManyStates, FiveUpError)
    with pytest.raises(_sampler.TooManyStates):
        _sampler.DealCounter([1] * 40, [1] * 40, None, -1, list(range(28)) + [0] * 12, [1] * 40, [1] * 40)
    impossible = _sampler.DealCounter([1, 1], [1, 1], None, 1, [3, 4], [1, 1], [1, -1])
    with pytest.raises(InconsistentObservationError):
        impossible.worlds(1, 0)
    with pytest.raises(InconsistentObservationError):
        impossible.classes(1, 0)


@pytest.mark.parametrize("tt_mb", [0, -1, math.inf, math.nan, 1e9])
def test_solver_table_size_is_checked(tt_mb):
    with pytest.raises(CoreError, match="tt_mb"):
        _solver.SolverCore(tt_mb)


def test_solver_table_is_within_its_size():
    """table_bytes is at most tt_mb: a size below the least table (4 entries of 16 bytes) was
    given 64 bytes anyway."""
    with pytest.raises(CoreError, match=r"^tt_mb must hold the least table, 64 bytes \(6.1e-05 MB\), not 1e-09$"):
        _solver.SolverCore(1e-9)
    for tt_mb in (64 / 2 ** 20, 1e-4, 0.001, 1.0):
        assert 64 <= _solver.SolverCore(tt_mb).table_bytes <= tt_mb * 2 ** 20


def test_solver_and_world_search_refuse_none_and_bad_roots():
    g, obs = mover_observation()
    core = g.current.core
    solver = _solver.SolverCore(1.0)
    for call in (lambda: solver.solve_moves(None), lambda: solver.value(None),
                 lambda: solver.principal_variation(None), lambda: solver.best_move(None)):
        with pytest.raises(CoreError, match="the position must be a CoreRound, not NoneType") as e:
            call()
        one_line(e.value)
    legal = core.canonical_moves()
    ds = DealSampler(obs)
    base = ds.position(0)

    def search(**change):
        args = dict(base=base, counter=ds.counter, hidden_seats=ds.hidden_seats, moves=legal, method=0,
                    world_nodes=100, chance_width=6, seed=1, n_worlds=2, min_worlds=1, seconds=0.0)
        args.update(change)
        return _hint.WorldSearch(*args.values())

    search()   # the good call works
    for change, message in (
            ({"moves": list(range(70))}, "root moves"),
            ({"moves": legal + legal[:1]}, "root moves"),
            ({"moves": [0xFF]}, "root moves"),
            ({"moves": []}, "root moves"),
            ({"hidden_seats": [9]}, "hidden seats"),
            ({"hidden_seats": [base.to_move]}, "hidden seats"),
            ({"method": 7}, "method"),
            ({"chance_width": 0}, "chance_width"),
            ({"chance_width": 29}, "chance_width"),
            ({"n_worlds": 0}, "n_worlds"),
            ({"min_worlds": 3}, "min_worlds"),
            ({"seconds": -1.0}, "seconds"),
            ({"seconds": math.nan}, "seconds")):
        with pytest.raises(CoreError, match=message) as e:
            search(**change)
        one_line(e.value)
    with pytest.raises(CoreError, match="base must be a CoreRound, not NoneType"):
        search(base=None)
    no_sampler = search(counter=None)
    with pytest.raises(CoreError, match="no deal sampler"):
        no_sampler.work(_solver.SolverCore(1.0))
    hands = [core.hand(s) for s in range(g.players)]
    bone = core.boneyard_left
    assert len(no_sampler.value_world(_solver.SolverCore(1.0), hands, bone)[3]) == len(legal)
    for bad_hands, bad_bone, message in (
            (hands[:1], bone, "hands must list"),
            ([hands[0], hands[1] + [40]], bone, "distinct tile numbers"),
            ([hands[0], hands[1] + hands[0][:1]], bone, "distinct tile numbers"),
            (hands, bone[:-1] if bone else [0], "boneyard size"),
            ([hands[1], hands[0]], bone, "observer's hand")):
        with pytest.raises(CoreError, match=message):
            no_sampler.value_world(_solver.SolverCore(1.0), bad_hands, bad_bone)
    # a round whose seat must draw has no placement to search
    rnd = _core.CoreRound(2, [[0, 1, 2, 3, 4], [27, 26, 25, 24, 23]], list(range(5, 23)), 0, [0, 0])
    rnd.place(0, -1, -1)   # 0-0 opens; seat 1 holds only tiles with 3..6
    assert rnd.turn_kind() == "draw"
    with pytest.raises(CoreError, match="no placement"):
        _hint.WorldSearch(rnd, None, [0], [1], 0, 10, 6, 1, 1, 1, 0.0)


# ---------------------------------------------------------------- observations built by hand

@pytest.mark.parametrize("field,value,message", [
    ("players", 5, "players must be 2, 3 or 4"),
    ("players", "2", "players must be"),
    ("seat", -1, "seat must be a seat"),
    ("seat", 7, "seat must be a seat"),
    ("starter", 3, "starter must be a seat"),
    ("to_move", 9, "to_move must be"),
    ("round", -1, "round must be"),
    ("side", 5, "not seat"),
    ("status", "lost", "status must be one of"),
    ("hand", ("1-2",), "hand must be a tuple of Tile"),
    ("hand_sizes", (5,), "hand_sizes must list 2"),
    ("hand_sizes", (5, -1), "hand_sizes must be integers"),
    ("boneyard_size", 40, "boneyard_size must be"),
    ("boneyard_size", -1, "boneyard_size must be"),
    ("end_sum", "5", "end_sum must be"),
    ("open_ports", ("1-2:low",), "open_ports must be a tuple of Port"),
    ("legal_moves", ("1-2",), "legal_moves must be a tuple of well-formed Move"),
    ("legal_moves", (Move("jump"),), "legal_moves must be a tuple of well-formed Move"),
    ("end_sums_after", (), "end_sums_after must give one end sum"),
    ("end_sums_after", True, "end_sums_after must give one end sum"),
    ("history", "x", "history must be"),
    ("history", ({"seat": 0},), "history action 0"),
    ("history", ({"seat": 9, "play": "1-2"},), "history action 0: seat must be"),
    ("history", ({"seat": 0, "play": "9-9"},), "history action 0"),
    ("revealed", (("1-2",),), "revealed must list"),
])
def test_observation_fields_are_checked(field, value, message):
    obs = mover_observation()[1]
    bad = dataclasses.replace(obs, **{field: value})
    with pytest.raises(InconsistentObservationError, match=message) as e:
        hint(bad, samples=2, seed=1)
    one_line(e.value)
    with pytest.raises(InconsistentObservationError):
        DealSampler(bad)


def test_an_observation_field_holding_a_numpy_integer_is_named_so():
    """A review: boneyard_size=np.int64(3) read "must be 0..18, not np.int64(3)", and a
    2-player score's range was given as the 4-player one (-2000000000 to 304)."""
    import numpy as np
    obs = mover_observation()[1]
    bad = dataclasses.replace(obs, boneyard_size=np.int64(3))
    with pytest.raises(InconsistentObservationError,
                       match=r"^observation boneyard_size holds numpy.int64 3: an Observation's integers are "
                             r"Python ints \(give int\(x\)\)$"):
        hint(bad, samples=2, seed=1)
    with pytest.raises(InconsistentObservationError, match=r"^observation scores holds numpy.int16 35"):
        hint(dataclasses.replace(obs, scores=(np.int16(35), 25)), samples=2, seed=1)
    assert obs.players == 2
    with pytest.raises(InconsistentObservationError, match=r"scores must be integers from 0 to 304"):
        hint(dataclasses.replace(obs, scores=(-5, 25)), samples=2, seed=1)


def test_deal_sampler_and_past_evidence_check_what_they_take():
    """A review: DealSampler(beliefs=None) gave the model beliefs where its default is
    uniform; check_summary="no" was taken as true; past_evidence checked model and seed
    only when there was a past."""
    from fiveup_solver.inference import past_evidence
    obs = mover_observation()[1]
    assert DealSampler(obs, beliefs=None).beliefs == DealSampler(obs).beliefs == "uniform"
    with pytest.raises(OptionError, match=r"^check_summary must be True or False, not 'no'$"):
        DealSampler(obs, check_summary="no")
    with pytest.raises(OptionError, match=r"^model must be an OpponentModel or None, not 1$"):
        past_evidence(obs, [], model=1)
    with pytest.raises(OptionError, match=r"^seed must be an integer from 0 to 2\^64-1, not -1"):
        past_evidence(obs, [], seed=-1)
    assert past_evidence(obs, []) == {}


def test_observation_revealed_hands_are_checked_by_size_and_overlap():
    """A revealed hand must be as large as the seat's hand and share no tile with another (a
    review: such a view was refused as "no deal fits", not naming revealed)."""
    obs = mover_observation()[1]
    empty = dataclasses.replace(obs, revealed=tuple(() for _ in range(obs.players)))
    with pytest.raises(InconsistentObservationError,
                       match=f"revealed hand of seat 0 holds 0 tiles, but hand_sizes says {obs.hand_sizes[0]}$"):
        hint(empty, samples=2, seed=1)
    tile = obs.hand[0]
    hands = [tuple(obs.hand) if s == obs.seat else () for s in range(obs.players)]
    other = (obs.seat + 1) % obs.players
    hands[other] = (tile,) + tuple(t for t in ALL_TILES if t not in obs.hand)[:obs.hand_sizes[other] - 1]
    both = dataclasses.replace(obs, revealed=tuple(hands), hand_sizes=tuple(len(h) for h in hands))
    with pytest.raises(InconsistentObservationError, match=f"revealed tile {tile} is in the hands of seats "):
        hint(both, samples=2, seed=1)


def test_observation_summary_must_be_the_replayed_position():
    """Hand sizes, the board, who is to move and the scores follow from the history:
    an observation that says otherwise is refused (the core replays the history)."""
    g, obs = mover_observation(steps=8)
    sizes = list(obs.hand_sizes)
    sizes[0] += 1
    other = (obs.to_move + 1) % obs.players
    cases = [
        (dict(hand_sizes=tuple(sizes)), "hand sizes"),
        (dict(open_ports=obs.open_ports[1:]), "open ports and end sum"),
        (dict(end_sum=obs.end_sum + 5), "open ports and end sum"),
        (dict(to_move=other), "is said to move"),
        (dict(scores=(obs.scores[0] + 5, obs.scores[1])), "do not follow"),
        (dict(status="blocked"), "status"),
        (dict(history=obs.history + ({"seat": obs.to_move, "pass": True},)), "action"),
    ]
    for change, message in cases:
        with pytest.raises(InconsistentObservationError, match=message):
            DealSampler(dataclasses.replace(obs, **change))
    assert check_observation(obs) and DealSampler(obs).count > 0


def test_observation_turn_rules_are_the_cores():
    """A history that breaks a turn rule is refused with the action's number."""
    g = played(3, 21, 4)
    h = list(g.current.actions)
    observer = ({0, 1, 2} - {h[0]["seat"], h[1]["seat"]}).pop()
    obs = g.observation(observer)
    wrong_seat = [dict(a) for a in obs.history]
    wrong_seat[1]["seat"] = wrong_seat[0]["seat"]
    with pytest.raises(InconsistentObservationError, match="action 1: seat .* acted but seat"):
        DealSampler(dataclasses.replace(obs, history=tuple(wrong_seat)))
    early_pass = h[:1] + [{"seat": h[1]["seat"], "pass": True}]
    with pytest.raises(InconsistentObservationError):
        DealSampler(dataclasses.replace(obs, history=tuple(early_pass)))


def test_not_an_observation():
    with pytest.raises(InconsistentObservationError, match="has no field"):
        DealSampler(object())
    with pytest.raises(InconsistentObservationError, match=r"^expected an Observation \(game\.observation\(seat\)\), "
                                                       r"not \{'seat': 0\}$"):
        hint({"seat": 0}, samples=2)
    # a review: hint(game) and hint(None) said "observation has no field 'seat'"
    for wrong, named in ((Game(players=2, seed=1), "<Game 2 players"), (None, "None")):
        with pytest.raises(InconsistentObservationError, match=f"^expected an Observation .*, not {named}"):
            hint(wrong)


# ---------------------------------------------------------------- the public API's shape

def test_every_public_error_is_a_fiveup_error():
    for cls in (CoreError, _sampler.TooManyStates, _core.CoreError, InconsistentObservationError, RecordError,
                OptionError):
        assert issubclass(cls, FiveUpError) and issubclass(cls, ValueError)
    assert _core.CoreError is CoreError
    assert "InconsistentObservationError" in fiveup_solver.__all__
    assert "CoreError" in fiveup_solver.__all__


def test_package_ships_py_typed_and_no_test_code():
    package = Path(fiveup_solver.__file__).parent
    assert (package / "py.typed").is_file()
    assert not (package / "_reference.py").exists()
    assert not (package / "types.py").exists()   # no module named like the standard library's


def test_bench_without_the_reference_says_why(monkeypatch, tmp_path):
    from fiveup_solver import bench
    # a regular install: no FIVEUP_REFERENCE, no tests/ beside the package (a FIVEUP_REFERENCE
    # that names no file is an error: tests/test_bench_review_fixes.py)
    monkeypatch.delenv("FIVEUP_REFERENCE", raising=False)
    monkeypatch.setattr(bench, "__file__", str(tmp_path / "site-packages" / "fiveup_solver" / "bench.py"))
    result = bench.run_playout_bench(rounds=200, reference_rounds=5)
    assert result["reference_rounds_per_s"] == {"2": None, "3": None, "4": None}
    assert "source checkout" in result["reference_missing"]
    assert all(v > 0 for v in result["rounds_per_s"].values())
    with pytest.raises(OptionError, match="source checkout"):
        bench.load_reference()


def test_observation_at_is_the_game_observation():
    g = played(3, 9, 12)
    rec = g.to_record()
    for r, i in ((0, 0), (0, 5), (0, len(g.current.actions))):
        twin = played(3, 9, i)
        for seat in range(3):
            assert observation_at(rec, seat, r, i) == twin.observation(seat)
    assert observation_at(rec, 1) == g.observation(1)
    assert observation_at(g.to_record(view=2), 2, 0, 4).hand == played(3, 9, 4).observation(2).hand
    for args, message in (((rec, 3, 0, 0), "seat must be 0..2"), ((rec, 0, 0, None), "together"),
                          ((rec, 0, 4, 0), "round 4 is not in the record"), ((rec, 0, 0, 999), "action 999"),
                          ((g.to_record(view=2), 1, 0, 0), "seat 2's view")):
        with pytest.raises(RecordError, match=message) as e:
            observation_at(*args)
        one_line(e.value)


def test_placement_messages_have_one_home():
    """The core's refusal and the game's are the same text (one table of messages)."""
    g = Game(players=2, seed=1)
    g.push(g.legal_moves[0])
    tile = g.hand(g.to_move)[0]
    bad = Move.play(tile, Port(g.board[0], g.board[0].port_names[0]))
    try:
        g.push(bad)
        return   # it happened to be legal
    except FiveUpError as game_error:
        core = g.current.core
        with pytest.raises(CoreError) as core_error:
            core.place(*bad.placement)
        assert str(core_error.value) == str(game_error)


def test_record_views_and_json_round_trip_still_validate():
    g = played(2, 3, 10)
    text = json.dumps(g.to_record(view=0))
    from fiveup_solver.record import game_from_record, parse_record_text
    rec = parse_record_text(text)
    assert game_from_record(rec).scores == g.scores
    rec["rounds"][0]["actions"][1]["seat"] = 7
    with pytest.raises(RecordError, match="round 0 action 1: seat must be 0..1"):
        game_from_record(rec)


def test_bots_and_solver_refuse_what_is_not_theirs():
    from fiveup_solver.bots import choose, parse_bot_list
    from fiveup_solver.solver import Solver
    import random
    obs = mover_observation()[1]
    for bad in (dataclasses.replace(obs, end_sums_after=()), dataclasses.replace(obs, scores=(0,)),
                dataclasses.replace(obs, legal_moves=(Move("play", [1]),), end_sums_after=(0,))):
        with pytest.raises(InconsistentObservationError):
            choose("greedy", bad, random.Random(1))
    assert choose("greedy", obs, random.Random(1)) in obs.legal_moves
    for text, players in (("greedy", 10 ** 9), ({"a": 1}, 2), ("greedy", "2")):
        with pytest.raises(OptionError):
            parse_bot_list(text, players)
    for game in (None, 3, obs):
        with pytest.raises(OptionError, match="takes a Game"):
            Solver(tt_mb=1).solve(game)
        with pytest.raises(OptionError, match="takes a Game"):
            Solver(tt_mb=1).value(game)


def test_sampled_campaign_findings_stay_fixed():
    """The last findings of the sanitized 1M-input campaign, each a typed error now."""
    from fiveup_solver.bots import choose
    import random
    obs = mover_observation()[1]
    for bad in (dataclasses.replace(obs, scores=()), dataclasses.replace(obs, side=float(obs.side))):
        with pytest.raises(InconsistentObservationError):
            choose("greedy", bad, random.Random(1))
    g = Game(players=2, deal=False)
    hands = [list(ALL_TILES[:5]), list(ALL_TILES[5:10])]
    with pytest.raises(FiveUpError, match="scores must be 2 integers"):
        g.start_round(hands, list(ALL_TILES[10:]), 0, scores=7)


def test_given_worlds_keep_every_hidden_hand_s_size():
    """A world handed to a search must give each hidden seat as many tiles as it holds: with
    3 players, a tile moved from one hidden hand to the other covers every tile once and is
    still refused (_core.read_world)."""
    g = Game(players=3, seed=4)
    obs = g.observation(g.to_move)
    ds = DealSampler(obs)
    core = g.current.core
    legal = core.canonical_moves()
    masks = [sum(1 << t for t in core.hand(s)) for s in range(3)]
    a, b = ds.hidden_seats

    def search(hands):
        return _hint.WorldSearch(ds.position(0), ds.counter, ds.hidden_seats, legal, 0, 100, 6, 1, 1, 1, 0.0,
                                 None, [(0, hands, core.boneyard_left)])
    search(masks)       # the true world is accepted
    moved = list(masks)
    low = moved[a] & -moved[a]
    moved[a] ^= low
    moved[b] |= low
    first = min(a, b)      # the seats are checked in order
    with pytest.raises(CoreError, match=f"a world gives seat {first} {bin(moved[first]).count('1')} tiles, not "
                                        f"{bin(masks[first]).count('1')}") as e:
        search(moved)
    one_line(e.value)


# ---------------------------------------------------------------- the Cython owners called directly
# (benchmarks/fuzz_campaign.py, family `owners`: each test is one of its findings, or a
# check the family's inputs showed missing)

def _owner_setup(players=2):
    """A position whose seat to move can place, its DealSampler, canonical root moves and one
    sampled world (hand masks, boneyard in draw order)."""
    g, obs = mover_observation(players=players)
    ds = DealSampler(obs)
    roots = sorted({_core.canonical_of(*m.placement) for m in obs.legal_moves if m.kind == "play"})
    (hands, bone), = ds.counter.worlds(1, 3)
    return g, obs, ds, roots, hands[:players], bone


def _world_search(ds, roots, **kw):
    return _hint.WorldSearch(ds.replayed, ds.counter, ds.hidden_seats, roots, _hint.PIMC, 50, 6, 1, 2, 2, 0.0, **kw)


@pytest.mark.parametrize("method,args", [("solve_moves", (100,)), ("value", (100,)), ("debug_window", (-5, 5, 100)),
                                         ("maxn_moves", (100,)), ("best_move", ()),
                                         ("principal_variation", (4, 100))])
def test_solver_core_methods_take_only_a_core_round(method, args):
    """Given the Game instead of its CoreRound (or a search), Cython's own argument check
    raised a TypeError."""
    g, obs = mover_observation()
    solver = _solver.SolverCore(0.05)
    for wrong, name in ((g, "Game"), (DealSampler(obs).counter, "DealCounter"), ("3-4", "str")):
        with pytest.raises(CoreError, match=f"the position must be a CoreRound, not {name}$") as e:
            getattr(solver, method)(wrong, *args)
        one_line(e.value)
    getattr(solver, method)(g.current.core, *args) if method != "maxn_moves" else None


def test_world_search_takes_only_its_own_classes():
    """A WorldSearch's base, counter and core of the wrong class were TypeErrors of Cython's
    argument check (work(None) too)."""
    g, obs, ds, roots, hands, bone = _owner_setup()
    for call, message in (
            (lambda: _hint.WorldSearch(g, ds.counter, ds.hidden_seats, roots, 0, 50, 6, 1, 1, 1, 0.0),
             "base must be a CoreRound, not Game"),
            (lambda: _hint.WorldSearch(ds.replayed, ds, ds.hidden_seats, roots, 0, 50, 6, 1, 1, 1, 0.0),
             "counter must be a DealCounter or None, not DealSampler"),
            (lambda: _world_search(ds, roots).work(None), "a search works with a SolverCore, not NoneType"),
            (lambda: _world_search(ds, roots).work(ds.replayed), "a search works with a SolverCore, not CoreRound"),
            (lambda: _world_search(ds, roots).value_world(ds.counter, hands, bone),
             "a search works with a SolverCore, not DealCounter")):
        with pytest.raises(CoreError, match=message) as e:
            call()
        one_line(e.value)


def test_root_moves_that_cannot_be_hashed_are_refused_in_one_line():
    """set(moves) came before the type check: a list among the root moves was a TypeError
    (unhashable), in both searches."""
    g, obs, ds, roots, hands, bone = _owner_setup()
    for moves in ([[roots[0]]], [roots[0], {}], [roots[0], [roots[0]]]):
        with pytest.raises(CoreError, match="root moves must be distinct canonical moves") as e:
            _world_search(ds, moves)
        one_line(e.value)
        with pytest.raises(CoreError, match="root moves must be distinct canonical moves"):
            _alphamu.AlphaMuSearch(ds.replayed, moves, [(hands, bone, 0)], None, 1, 4, 50, 0.0)


def test_uninitialised_owners_refuse_every_method():
    """__new__ without __init__ left NULL arrays behind: value_world and BeliefWorlds.inspect
    and draw read through them (a segfault; run in a child process)."""
    out = run_child("""
        import numpy as np
        from fiveup_solver import _alphamu, _beliefs, _hint, _solver
        from fiveup_solver.errors import CoreError
        core = _solver.SolverCore(0.05)
        ws = _hint.WorldSearch.__new__(_hint.WorldSearch)
        am = _alphamu.AlphaMuSearch.__new__(_alphamu.AlphaMuSearch)
        bw = _beliefs.BeliefWorlds.__new__(_beliefs.BeliefWorlds)
        arrays = (np.zeros((1, 4, 1)), np.zeros((1, 4), np.uint32), np.zeros((1, 28), np.uint8))
        for call in (lambda: ws.value_world(core, [], []), lambda: ws.work(core), ws.results, ws.group_plan,
                     lambda: ws._set_max_groups(4), lambda: am.work(core), am.results,
                     lambda: am.leaf_horizons(0), lambda: bw.inspect(0, 0), lambda: bw.draw(0, 0, *arrays)):
            try:
                call()
                print("accepted")
            except CoreError as e:
                print(e)
    """)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.splitlines()
    assert len(lines) == 10, out.stdout
    for line, name in zip(lines, ["WorldSearch"] * 5 + ["AlphaMuSearch"] * 3 + ["BeliefWorlds"] * 2):
        assert line == f"this {name} is not initialised (its __init__ was not called, or it failed)", lines


def test_a_refused_init_leaves_nothing_to_search():
    """An __init__ that raised part way (the second world malformed) left the worlds not yet
    read uninitialised; work() then searched whatever the memory held (a hang or a crash;
    run in a child process)."""
    out = run_child("""
        from fiveup_solver import Game, _alphamu, _core, _hint, _solver
        from fiveup_solver.errors import CoreError
        from fiveup_solver.inference import DealSampler
        for seed in range(4, 200):
            g = Game(players=2, seed=seed)
            for _ in range(6):
                g.push(g.legal_moves[0])
            if not g.round_over and g.legal_moves[0].kind == "play":
                break
        obs = g.observation(g.to_move)
        ds = DealSampler(obs)
        roots = sorted({_core.canonical_of(*m.placement) for m in obs.legal_moves if m.kind == "play"})
        (hands, bone), = ds.counter.worlds(1, 3)
        core = _solver.SolverCore(0.05)
        ws = _hint.WorldSearch.__new__(_hint.WorldSearch)
        am = _alphamu.AlphaMuSearch.__new__(_alphamu.AlphaMuSearch)
        for obj, init in ((ws, lambda: ws.__init__(ds.replayed, ds.counter, ds.hidden_seats, roots, 0, 50, 6, 1,
                                                    2, 2, 0.0, None, [(0, hands[:2], bone), "x"])),
                          (am, lambda: am.__init__(ds.replayed, roots, [(hands[:2], bone, 0), []], None, 1, 4, 50,
                                                   0.0))):
            try:
                init()
                print("init accepted")
            except CoreError as e:
                print("init:", e)
            try:
                obj.work(core)
                print("work accepted")
            except CoreError as e:
                print("work:", e)
    """)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.splitlines() == [
        "init: each world is (stream, hands, boneyard[, greedy seats mask])",
        "work: this WorldSearch is not initialised (its __init__ was not called, or it failed)",
        "init: each world is (hands, boneyard, greedy seats mask)",
        "work: this AlphaMuSearch is not initialised (its __init__ was not called, or it failed)"], out.stdout


def test_owners_are_initialised_once():
    """__init__ again kept the first call's arrays where the second had none (a WorldSearch
    kept its given worlds, sized for the first n_worlds, and work() read past them)."""
    from fiveup_solver import _beliefs
    from fiveup_solver.beliefs import OpponentModel, decisions_of
    g, obs, ds, roots, hands, bone = _owner_setup()
    ws = _hint.WorldSearch(ds.replayed, ds.counter, ds.hidden_seats, roots, 0, 50, 6, 1, 1, 1, 0.0, None,
                           [(0, hands, bone)])
    with pytest.raises(CoreError, match="a WorldSearch is initialised once: make a new one"):
        ws.__init__(ds.replayed, ds.counter, ds.hidden_seats, roots, 0, 50, 6, 1, 3, 3, 0.0)
    am = _alphamu.AlphaMuSearch(ds.replayed, roots, [(hands, bone, 0)], None, 1, 4, 50, 0.0)
    with pytest.raises(CoreError, match="an AlphaMuSearch is initialised once: make a new one"):
        am.__init__(ds.replayed, roots, [(hands, bone, 0)] * 3, None, 1, 4, 50, 0.0)
    model = OpponentModel()
    args = (ds.replayed, ds.counter, ds._class_slots, decisions_of(ds),
            [(_beliefs.KINDS[k], b) for k, b in model.grid], model.floor, model.engine_weights)
    bw = _beliefs.BeliefWorlds(*args)
    with pytest.raises(CoreError, match="BeliefWorlds is initialised once: make a new one"):
        bw.__init__(*args)
    # the first initialisation stands
    ws.work(_solver.SolverCore(0.05))
    assert [r[0] for r in ws.results()] == [0]


def test_alphamu_weights_must_be_numbers():
    """float() of each weight came first: an int past a double's range was an OverflowError,
    and a numeric string was taken as its number."""
    g, obs, ds, roots, hands, bone = _owner_setup()
    for weights in ([10 ** 400], ["2"], [True], [math.nan], [math.inf], [0], [-1.0], [1e300]):
        with pytest.raises(CoreError, match="weights must be one positive number per world") as e:
            _alphamu.AlphaMuSearch(ds.replayed, roots, [(hands, bone, 0)], weights, 1, 4, 50, 0.0)
        one_line(e.value)
    _alphamu.AlphaMuSearch(ds.replayed, roots, [(hands, bone, 0)], [2], 1, 4, 50, 0.0)


def test_belief_worlds_checks_its_arguments():
    """BeliefWorlds unpacked and converted what it was given unchecked: TypeErrors and
    ValueErrors of Python (None not iterable, too many values to unpack, a str where a
    double goes) and Cython's TypeError for a replayed position of the wrong class."""
    from fiveup_solver import _beliefs
    from fiveup_solver.beliefs import OpponentModel, decisions_of
    g, obs = mover_observation(players=4)
    ds = DealSampler(obs)
    model = OpponentModel()
    ok = dict(replayed=ds.replayed, counter=ds.counter, class_slots=ds._class_slots, decisions=decisions_of(ds),
              models=[(_beliefs.KINDS[k], b) for k, b in model.grid], floor=model.floor,
              engine_weights=model.engine_weights)
    assert ok["decisions"], "the position has decisions to check"
    _beliefs.BeliefWorlds(*ok.values())
    d0 = ok["decisions"][0]
    for change, message in (
            ({"replayed": g}, "replayed must be a CoreRound, not Game"),
            ({"counter": None}, "counter must be a DealCounter, not NoneType"),
            ({"class_slots": None}, "class_slots must be a list, not NoneType"),
            ({"class_slots": [5] + ok["class_slots"][1:]}, "a class's slots must be a list, not int"),
            ({"models": None}, "models must be a list, not NoneType"),
            ({"models": [(2,)]}, r"a model must be \(kind, beta\), not 1 items"),
            ({"models": [2.5]}, r"a model must be \(kind, beta\), not float"),
            ({"engine_weights": None}, r"engine_weights must be two finite numbers \(a, b\), not NoneType"),
            ({"engine_weights": (1,)}, r"engine_weights must be two finite numbers \(a, b\), not 1 items"),
            ({"engine_weights": ("a", 1)}, r"engine_weights must be two numbers \(a, b\) from -1000 to 1000"),
            ({"engine_weights": (math.nan, 0.0)}, r"engine_weights must be two numbers \(a, b\) from -1000 to 1000"),
            ({"engine_weights": (10 ** 400, 0.0)}, r"engine_weights must be two numbers \(a, b\) from -1000 to 1000"),
            ({"engine_weights": (1e308, 1e308)}, r"engine_weights must be two numbers \(a, b\) from -1000 to 1000"),
            ({"decisions": 7}, "decisions must be a list, not int"),
            ({"decisions": [d0[:4]]}, r"a decision must be \(action, seat, move, slots, placed tiles\), not 4"),
            ({"decisions": [{str(i): i for i in range(5)}]}, "a decision's action must be an integer"),
            ({"decisions": [d0[:3] + (None, d0[4])]}, "a decision's slots must be a list, not NoneType"),
            ({"decisions": [d0[:3] + (["a"], d0[4])]}, "a decision's slot must be an integer"),
            ({"decisions": [d0[:3] + ([1.5], d0[4])]}, "a decision's slot must be an integer")):
        args = dict(ok, **change)
        with pytest.raises(CoreError, match=message) as e:
            _beliefs.BeliefWorlds(*args.values())
        one_line(e.value)


def test_belief_worlds_draw_takes_only_its_arrays():
    """draw's typed memoryviews raised Cython's ValueError (dtype, ndim), BufferError (a
    read-only array) or TypeError (a list)."""
    import numpy as np
    from fiveup_solver import _beliefs
    from fiveup_solver.beliefs import OpponentModel, decisions_of
    g, obs = mover_observation(players=3)
    ds = DealSampler(obs)
    model = OpponentModel()
    bw = _beliefs.BeliefWorlds(ds.replayed, ds.counter, ds._class_slots, decisions_of(ds),
                               [(_beliefs.KINDS[k], b) for k, b in model.grid], model.floor, model.engine_weights)
    k = len(model.grid)
    good = [np.zeros((2, 4, k)), np.zeros((2, 4), np.uint32), np.zeros((2, 28), np.uint8)]
    assert bw.draw(0, 0, *good) == 0
    read_only = np.zeros((2, 4), np.uint32)
    read_only.setflags(write=False)
    names = ["loglik must be a writable float64 array", "hands must be a writable uint32 array",
             "boneyard must be a writable uint8 array"]
    for i, wrong in ((0, good[0].astype(np.float32)), (0, good[0].reshape(2, -1)), (0, good[0].tolist()),
                     (1, read_only), (1, good[1].astype(np.int64)), (1, np.uint32(0)),
                     (2, good[2].astype(np.int8)), (2, good[2].tobytes())):
        arrays = list(good)
        arrays[i] = wrong
        with pytest.raises(CoreError, match=names[i]) as e:
            bw.draw(0, 0, *arrays)
        one_line(e.value)
    with pytest.raises(CoreError, match="draw: loglik, hands and boneyard must be arrays, not None"):
        bw.draw(0, 0, good[0], None, good[2])
    with pytest.raises(CoreError, match="the position must be a CoreRound, not Game"):
        _beliefs.move_features(g, 0)


def test_move_features_refuses_a_tile_of_another_hand():
    """move_features took a hand mask holding another seat's tile: that tile was then in two
    hands. Tile 6 is 0-6 and tile 9 is 1-3 (index order 0-0, 0-1, ..., 0-6, 1-1, 1-2, 1-3)."""
    from fiveup_solver import _beliefs, _core
    from fiveup_solver.errors import CoreError
    r = _core.CoreRound(2, [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]], list(range(10, 28)), 0, [0, 0])
    for mask, message in ((0b11111 | 1 << 6, "tile 0-6, which is in seat 1's hand"),
                          (1 << 9, "tile 1-3, which is in seat 1's hand")):
        with pytest.raises(CoreError, match=f"^hand mask holds {message}$"):
            _beliefs.move_features(r, mask)
    # boneyard tiles are another hand's possible holding, taken as the seat's
    assert [m for m, *_ in _beliefs.move_features(r, 1 << 27)] == [27]


def test_value_world_takes_only_a_world_of_the_position():
    """value_world checked each tile but not the world as a whole: a hidden hand one tile
    short (that tile nowhere) or one tile too many (taken from another hidden hand) was
    searched as if it were the position's."""
    g, obs = mover_observation(players=3)
    ds = DealSampler(obs)
    core = g.current.core
    roots = sorted({_core.canonical_of(*m.placement) for m in obs.legal_moves if m.kind == "play"})
    job = _hint.WorldSearch(ds.replayed, None, ds.hidden_seats, roots, _hint.PIMC, 50, 6, 1, 1, 1, 0.0)
    hands = [core.hand(s) for s in range(3)]
    bone = core.boneyard_left
    solver = _solver.SolverCore(0.05)
    assert len(job.value_world(solver, hands, bone)[3]) == len(roots)       # the true world
    a, b = ds.hidden_seats
    short = [list(h) for h in hands]
    short[a] = short[a][1:]
    with pytest.raises(CoreError, match="a world must hold every tile off the board once") as e:
        job.value_world(solver, short, bone)
    one_line(e.value)
    moved = [list(h) for h in hands]
    moved[b].append(moved[a].pop())
    with pytest.raises(CoreError, match=f"a world gives seat {a} {len(hands[a]) - 1} tiles, not {len(hands[a])}"):
        job.value_world(solver, moved, bone)


def test_a_world_search_s_counter_must_deal_its_hidden_tiles():
    """A WorldSearch took any DealCounter: one of another position dealt tiles of this board
    (or of the observer's hand) into its worlds, and a position value for a seat other than
    the counter's observer left a hidden hand empty. Both were searched."""
    g, obs, ds, roots, hands, bone = _owner_setup()
    other_g, other_obs = mover_observation(players=2, seed=40)
    other = DealSampler(other_obs)
    with pytest.raises(CoreError, match="counter must deal this position's hidden tiles to its hidden seats") as e:
        _hint.WorldSearch(ds.replayed, other.counter, ds.hidden_seats, roots, 0, 50, 6, 1, 2, 2, 0.0)
    one_line(e.value)
    seat = obs.seat
    with pytest.raises(CoreError, match="counter must deal this position's hidden tiles to its hidden seats"):
        _hint.WorldSearch(ds.replayed, ds.counter, [seat], [], 0, 50, 6, 1, 2, 2, 0.0, 1 - seat)
    # the counter's own seats and position: accepted, as a position value too
    _hint.WorldSearch(ds.replayed, ds.counter, ds.hidden_seats, [], 0, 50, 6, 1, 2, 2, 0.0, seat)


@pytest.mark.parametrize("bad", [NotImplemented, "no", 0, 1, None])
def test_switches_are_booleans_not_truth_values(bad):
    """A switch given anything but True or False is refused: "no" would have read as on,
    and bool(NotImplemented) is a DeprecationWarning (a TypeError in newer Pythons), which
    the fuzz campaign found at Game(deal=) and SolverCore(use_tt=)."""
    from fiveup_solver.solver import Solver
    with pytest.raises(OptionError, match=r"^deal must be True or False, not "):
        Game(players=2, seed=1, deal=bad)
    for name in ("use_tt", "target_pruning", "pv", "both"):
        with pytest.raises(OptionError, match=rf"^{name} must be True or False, not "):
            Solver(tt_mb=1, **{name: bad})
    if bad in (0, 1):
        return   # SolverCore, the core's own owner, takes its switches as 0 or 1 as well
    for args, name in (((1.0, bad), "use_tt"), ((1.0, True, bad), "use_pruning")):
        with pytest.raises(CoreError, match=rf"^{name} must be an integer 0..1, not "):
            _solver.SolverCore(*args)


def test_a_solver_core_setting_cannot_be_deleted():
    # (Cython's properties raised NotImplementedError("__del__"), which is no FiveUpError)
    core = _solver.SolverCore(1.0)
    for name in ("lean_leaves", "reply_order", "history_cap", "threads"):
        with pytest.raises(CoreError, match=rf"^{name} of a SolverCore cannot be deleted$"):
            delattr(core, name)
    assert core.lean_leaves and core.reply_order
