"""What an app developer and a newcomer met (two reviews, docs/results/hardening.md): saving
and going on with a game, hiding what a person has not seen, the hint bot's memory with one
generator for every seat, the default hinter's threads, cancelling a hint from another thread,
and the package's way in
(``python -m fiveup_solver``, a source tree without its build, the browser app without its extra)."""
from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fiveup_solver import Game, IllegalMoveError, Move, OptionError, RecordError, Tile
from fiveup_solver import hint as hint_module
from fiveup_solver.bots import choose
from fiveup_solver.inference import DealSampler, redeal_unseen
from fiveup_solver.policies import _BOT_MEMORY
from fiveup_solver.record import game_from_record

ROOT = Path(__file__).resolve().parent.parent


def play_round_out(game, rng):
    while not game.round_over:
        game.push(rng.choice(game.legal_moves))


def game_at_a_draw(seed):
    """A game played at random up to a position whose seat must draw."""
    g = Game(players=2, seed=seed)
    rng = random.Random(seed)
    while g.legal_moves != [Move.draw()]:
        if g.round_over:
            g.next_round()
            continue
        g.push(rng.choice(g.legal_moves))
    return g


# ---------------------------------------------------------------- saving and going on
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_game_read_back_with_its_seed_deals_its_own_later_rounds(players):
    """A record holds no seed: read back with the game's seed, the next round is the one the
    game itself deals; with the default seed every game's next round is the same."""
    nexts = []
    for seed in (11, 12):
        g = Game(players=players, seed=seed, max_rounds=5)
        play_round_out(g, random.Random(seed))
        if g.game_over:
            continue
        h = game_from_record(g.to_record(), seed=seed, max_rounds=5)
        blind = game_from_record(g.to_record())          # the default seed: 0
        assert (h.seed, h.max_rounds, blind.seed) == (seed, 5, 0)
        g.next_round()
        h.next_round()
        blind.next_round()
        assert [h.hand(s) for s in range(players)] == [g.hand(s) for s in range(players)]
        assert h.boneyard == g.boneyard and h.current.starter == g.current.starter
        nexts.append([sorted(blind.hand(s)) for s in range(players)] + [blind.boneyard])
    assert len(nexts) == 2 and nexts[0] == nexts[1]      # no seed: both games go on alike


def test_the_round_limit_and_seed_are_checked():
    g = Game(players=2, seed=3)
    play_round_out(g, random.Random(3))
    record = g.to_record()
    for bad, message in ((0, "max_rounds must be an integer >= 1"), (True, "max_rounds must be"),
                         ("3", "max_rounds must be")):
        with pytest.raises(OptionError, match=message):
            game_from_record(record, max_rounds=bad)
    with pytest.raises(OptionError, match="seed"):
        game_from_record(record, seed=-1)
    two = Game(players=2, seed=3)
    while len(two.rounds) < 2 and not two.game_over:
        play_round_out(two, random.Random(4))
        if not two.game_over:
            two.next_round()
    if len(two.rounds) == 2:
        with pytest.raises(OptionError, match="max_rounds 1 is below the record's 2 rounds"):
            game_from_record(two.to_record(), max_rounds=1)


def test_a_view_read_back_fills_the_unseen_tiles_from_the_seed():
    """A seat's view read back fills what the seat did not see from the seed given: the same
    seed the same tiles, other seeds other tiles (with the default, anyone can compute them)."""
    g = Game(players=2, seed=21)
    rng = random.Random(21)
    for _ in range(4):
        g.push(rng.choice(g.legal_moves))
    view = g.to_record(view=0)
    fills = {}
    for seed in (0, 0, 5, 6, 7, 8):
        h = game_from_record(view, seed=seed)
        assert h.observation(0) == g.observation(0)
        fills.setdefault(seed, set()).add((tuple(h.hand(1)), tuple(h.boneyard)))
    assert len(fills[0]) == 1
    assert len({f for seed, fs in fills.items() for f in fs}) > 2


# ---------------------------------------------------------------- what a person has not seen
def test_a_wrong_draw_does_not_name_the_next_tile():
    g = game_at_a_draw(1)
    nxt = g.boneyard[0]
    wrong = next(t for t in g.boneyard[1:])
    with pytest.raises(IllegalMoveError) as caught:
        g.push(Move.draw(wrong))
    assert str(caught.value) == f"draw {wrong} is not the boneyard's next tile" and str(nxt) not in str(caught.value)
    # a record holds its boneyard: replaying one with a wrong draw names the tile expected
    g.push(Move.draw())
    record = g.to_record()
    r = len(record["rounds"]) - 1
    i = len(record["rounds"][r]["actions"]) - 1
    record["rounds"][r]["actions"][i]["draw"] = str(wrong)
    with pytest.raises(RecordError, match=rf"round {r} action {i}: draw {wrong} is not the boneyard's next tile "
                                          rf"\({nxt}\)"):
        game_from_record(record)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_redeal_unseen_keeps_what_the_seat_saw_and_deals_the_rest_again(players):
    rng = random.Random(players)
    g = Game(players=players, seed=40 + players)
    steps = 0
    while steps < 12 and not g.round_over:
        g.push(rng.choice(g.legal_moves))
        steps += 1
    seat = 1
    seen = g.observation(seat)
    record = g.to_record()
    others = set()
    for seed in range(8):
        h = g.copy()
        redeal_unseen(h, seat, seed)
        assert h.observation(seat) == seen                                 # all it saw, as it was
        assert h.scores == g.scores and h.end_sum == g.end_sum and h.board == g.board
        assert DealSampler(h.observation(seat)) is not None                # consistent
        others.add(tuple(tuple(h.hand(s)) for s in range(players) if s != seat) + (tuple(h.boneyard),))
        h2 = g.copy()
        redeal_unseen(h2, seat, seed)
        assert h2.to_record() == h.to_record()                             # the seed decides
    assert len(others) > 4 and g.to_record() == record                     # the copies, not g
    for bad in (True, players, -1):
        with pytest.raises(OptionError, match="seat"):
            redeal_unseen(g.copy(), bad, 1)
    with pytest.raises(OptionError, match="seed"):
        redeal_unseen(g.copy(), seat, -5)
    with pytest.raises(OptionError, match="a Game with a round dealt"):
        redeal_unseen(Game(players=2, deal=False), 0, 1)


def test_a_bool_is_no_seat():
    g = Game(players=2, seed=1)
    for call in (g.observation, g.hand):
        with pytest.raises(OptionError, match="seat must be 0..1, not True"):
            call(True)


# ---------------------------------------------------------------- the hint bot and the default hinter
def test_the_hint_bot_with_one_generator_for_every_seat():
    """An app's one Random for the whole game: the model hint bot keeps each seat's memory
    apart (it mixed them and failed in round 1: "past observations must be seat 1's")."""
    g = Game(players=2, seed=1)
    rng = random.Random(0)
    while len(g.rounds) < 3 and not g.game_over:
        if g.round_over:
            g.next_round()
            continue
        seat = g.to_move
        move = choose("hint", g.observation(seat), rng)
        assert move in g.legal_moves
        g.push(move)
    assert len(g.rounds) >= 2
    assert set(_BOT_MEMORY[rng]) == {0, 1}
    assert all(all(o.seat == s for o in mem["rounds"].values()) for s, mem in _BOT_MEMORY[rng].items())


def test_set_default_threads():
    g = Game(players=2, seed=5)
    obs = g.observation(g.to_move)
    saved = hint_module._default
    try:
        results = []
        for threads in (1, 2):
            hint_module.set_default_threads(threads)
            assert hint_module._default_hinter().threads == threads
            h = hint_module.hint(obs, samples=16, seed=3)
            results.append([(str(m.move), m.value) for m in h.moves])
        assert results[0] == results[1]          # a sample budget: the same hint on any number of threads
        for bad in (0, 65, 1.5, "2", True):
            with pytest.raises(OptionError, match="threads"):
                hint_module.set_default_threads(bad)
        assert hint_module._default_hinter().threads == 2   # a refused number changes nothing
    finally:
        hint_module._default = saved


# ---------------------------------------------------------------- the way in
def test_python_dash_m_runs_the_command_line():
    out = subprocess.run([sys.executable, "-m", "fiveup_solver", "--version"], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0 and out.stdout.startswith("fiveup ")


def test_the_source_tree_without_its_build_says_so(tmp_path):
    """A clone's fiveup_solver/ holds no compiled core: imported from there (a plain
    `pip install .` run inside the clone) it says what is wrong in one line."""
    shutil.copytree(ROOT / "fiveup_solver", tmp_path / "fiveup_solver",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__", "data", "static", "templates"))
    out = subprocess.run([sys.executable, "-S", "-c", "import fiveup_solver"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode != 0
    last = out.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: fiveup_solver's compiled core is missing from") and "pip install -e ." in last


def test_the_browser_app_module_names_its_extra():
    code = ("import sys; sys.modules['fastapi'] = None\n"
            "try:\n    import fiveup_solver.serve\nexcept ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == ("the browser app needs the serve extra (fastapi is missing): "
                                  "pip install 'fiveup_solver[serve]'")


def test_a_tile_draw_of_the_record_is_parsed_as_written():
    """(the record's draw is compared as a Tile: "b-a" is the same tile as "a-b")"""
    g = game_at_a_draw(1)
    g.push(Move.draw())
    record = g.to_record()
    r = len(record["rounds"]) - 1
    drawn = Tile.parse(record["rounds"][r]["actions"][-1]["draw"])
    record["rounds"][r]["actions"][-1]["draw"] = f"{drawn.hi}-{drawn.lo}"
    assert game_from_record(record).to_record() == g.to_record()


def test_both_currencies_carry_their_standard_errors():
    """win_stderr and points_stderr: the objective's own is the move's stderr; the other
    currency's is the standard error of its mean over the same worlds (checked against
    the per-move value spread: positive where the values differ between worlds);
    the exact method's are 0."""
    g = Game(players=2, seed=6)
    obs = g.observation(g.to_move)
    for objective in ("win", "points"):
        h = hint_module.hint(obs, samples=24, seed=2, objective=objective)
        other = "points" if objective == "win" else "win"
        for m in h.moves:
            assert getattr(m, f"{objective}_stderr") == m.stderr
            assert getattr(m, f"{other}_stderr") is not None and getattr(m, f"{other}_stderr") >= 0
            d = m.to_dict()
            assert d["win_stderr"] == m.win_stderr and d["points_stderr"] == m.points_stderr
        assert any(getattr(m, f"{other}_stderr") > 0 for m in h.moves)
        one = hint_module.hint(obs, samples=24, seed=2, objective=objective, both=False)
        assert all(getattr(m, f"{other}_stderr") is None for m in one.moves)


# ---------------------------------------------------------------- cancelling a hint from another thread
def _searching(hinter, calls=1):
    """Wait (a hang guard, not a timing) until `hinter` runs a search and has `calls` calls."""
    import time
    for _ in range(6000):
        if hinter._jobs and hinter._calls >= calls:
            return True
        time.sleep(0.005)
    return False


def _in_thread(call):
    import threading
    out = {}

    def run():
        try:
            out["result"] = call()
        except BaseException as e:       # noqa: BLE001 -- what the call raised is the result here
            out["result"] = e
    t = threading.Thread(target=run)
    t.start()
    return t, out


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("method, budget", [("pimc", dict(samples=3000, world_nodes=1_000_000)),
                                            ("expectimax", dict(samples=3000, world_nodes=1_000_000)),
                                            ("alphamu", dict(samples=256, depth=3, world_nodes=2_000_000))])
def test_a_hint_stopped_from_another_thread(threads, method, budget):
    """Hinter.stop ends a hint that would run for minutes with SearchStopped (not a
    FiveUpError), and the Hinter then hints as a fresh one does."""
    g = Game(players=2, seed=5)
    obs = g.observation(g.to_move)
    _stopped_then_as_fresh(obs, threads, lambda h: h.hint(obs, method=method, seed=1, **budget))


def _stopped_then_as_fresh(obs, threads, call):
    """call(hinter) in a thread, stopped once it searches: SearchStopped (not a
    FiveUpError), and the Hinter then hints as a fresh one does."""
    from fiveup_solver import FiveUpError, SearchStopped
    h = hint_module.Hinter(threads=threads)
    t, out = _in_thread(lambda: call(h))
    assert _searching(h)
    assert h.stop() is True
    t.join(120)
    assert not t.is_alive()
    assert isinstance(out["result"], SearchStopped) and not isinstance(out["result"], FiveUpError)
    after = h.hint(obs, samples=16, seed=2)
    fresh = hint_module.Hinter(threads=threads).hint(obs, samples=16, seed=2)
    assert [(str(m.move), m.value) for m in after.moves] == [(str(m.move), m.value) for m in fresh.moves]


def _exact_slow_positions():
    """(observation, options) of exact hints that run for seconds before their node limit:
    against greedy (the review's position, about 14 s), its sampled estimate (4,000 worlds),
    and best defence (found by a scan: greedy play from seed 4, 8 actions in; about 14 s)."""
    import random
    from pathlib import Path
    from fiveup_solver.bots import choose
    from fiveup_solver.record import game_at, load_record
    slow = game_at(load_record(Path(__file__).parent / "data" / "exact_slow_position.json"), 1, 3)
    g, rng = Game(players=2, seed=4), random.Random(4)
    for _ in range(8):
        g.push(choose("greedy", g.observation(g.to_move), rng))
    return [(slow.observation(slow.to_move), {}), (slow.observation(slow.to_move), {"sample_worlds": 4000}),
            (g.observation(g.to_move), {"opponent": "best-defence"})]


@pytest.mark.parametrize("case", range(3))
def test_an_exact_hint_stopped_from_another_thread(case):
    """method="exact" (the C searches poll a StopFlag with Ctrl-C, every 65,536 positions)
    stops as the sampled methods do, and the Hinter then hints as a fresh one."""
    obs, options = _exact_slow_positions()[case]
    _stopped_then_as_fresh(obs, 1, lambda h: h.hint(obs, method="exact", both=False, **options))


def _jobs_at_least(hinter, n):
    import time
    for _ in range(6000):                     # a hang guard, not a timing
        if len(hinter._jobs) >= n:
            return True
        time.sleep(0.005)
    return False


def test_a_stop_reaches_every_call_running_on_one_hinter():
    """A review: an exact hint replaced the Hinter's one slot of searches to stop with its
    own, and cleared it when it ended: a pimc hint running beside it on the same Hinter
    then ran on for 38 s after stop() (and of two exact hints only the later stopped)."""
    from fiveup_solver import SearchStopped
    from fiveup_solver.exact import SearchLimitError
    slow = _exact_slow_positions()[0][0]
    g = Game(players=2, seed=5)
    obs = g.observation(g.to_move)
    h = hint_module.Hinter(threads=1)
    pimc, out_pimc = _in_thread(lambda: h.hint(obs, samples=3000, world_nodes=1_000_000, seed=1))
    assert _jobs_at_least(h, 1)
    n = len(h._jobs)
    # an exact hint that ends at once (its node limit) beside it leaves the pimc search registered
    with pytest.raises(SearchLimitError):
        h.hint(slow, method="exact", both=False, node_limit=1000)
    assert len(h._jobs) == n
    first, out1 = _in_thread(lambda: h.hint(slow, method="exact", both=False))
    assert _jobs_at_least(h, n + 1)
    second, out2 = _in_thread(lambda: h.hint(slow, method="exact", both=False, sample_worlds=4000))
    assert _jobs_at_least(h, n + 2)
    assert h.stop() is True
    for t in (pimc, first, second):
        t.join(120)
        assert not t.is_alive()
    assert all(isinstance(o["result"], SearchStopped) for o in (out_pimc, out1, out2))
    assert h._jobs == [] and h.hint(obs, samples=8, seed=1).samples == 8


def test_a_stop_flag_is_checked_where_the_exact_search_takes_it():
    from fiveup_solver import OptionError, SearchStopped, _exact, exact
    obs = _exact_slow_positions()[0][0]
    flag = _exact.StopFlag()
    flag.stop()
    assert flag.stopped
    with pytest.raises(SearchStopped):
        exact.exact_result(obs, stop=flag)             # set before it started: stops at its first look
    with pytest.raises(OptionError, match="stop must be a fiveup_solver._exact.StopFlag or None, not 1"):
        exact.exact_result(obs, stop=1)
    with pytest.raises(OptionError, match="stop must be"):
        exact.sampled_result(obs, stop="now")
    with pytest.raises(OptionError, match="engine='python' .* takes no stop"):
        exact.exact_result(obs, engine="python", stop=_exact.StopFlag())


def test_stop_stops_the_waiting_calls_too_and_nothing_later():
    from fiveup_solver import SearchStopped
    g = Game(players=3, seed=8)
    obs = g.observation(g.to_move)
    h = hint_module.Hinter(threads=1)
    assert h.stop() is False                               # nothing running: nothing to stop ...
    assert h.hint(obs, samples=8, seed=1).samples == 8     # ... and the next call runs
    first, out1 = _in_thread(lambda: h.position_value(obs, samples=3000, world_nodes=1_000_000, seed=1))
    assert _searching(h)
    second, out2 = _in_thread(lambda: h.hint(obs, samples=3000, world_nodes=1_000_000, seed=1))
    assert _searching(h, calls=2)
    assert h.stop() is True
    for t in (first, second):
        t.join(120)
        assert not t.is_alive()
    assert isinstance(out1["result"], SearchStopped) and isinstance(out2["result"], SearchStopped)
    assert h.hint(obs, samples=8, seed=1).samples == 8     # a call after the stopped ones runs


def test_a_call_that_begins_after_a_stop_runs_while_the_stopped_ones_end():
    """A review: the stop was a flag cleared only once no call ran on the Hinter. With calls
    overlapping (bots of several games on the shared default Hinter) it never cleared, and
    one stop_searches() refused every later decision for as long as calls kept overlapping.
    Here the stopped call still waits for the searches when the next call begins: the next
    call runs to its answer."""
    import threading
    from fiveup_solver import SearchStopped

    class Gate:
        """The Hinter's search lock, counting the calls that reached it."""
        def __init__(self):
            self.lock, self.arrived = threading.Lock(), 0

        def __enter__(self):
            self.arrived += 1
            self.lock.acquire()

        def __exit__(self, *exc):
            self.lock.release()

    def arrived(n):                 # (a hang guard, not a timing)
        import time
        for _ in range(6000):
            if gate.arrived >= n:
                return True
            time.sleep(0.005)
        return False
    g = Game(players=2, seed=5)
    obs = g.observation(g.to_move)
    h = hint_module.Hinter(threads=1)
    h._lock = gate = Gate()
    with gate.lock:                 # the searches busy: the calls wait at them, planned
        first, out1 = _in_thread(lambda: h.hint(obs, samples=8, seed=1))
        assert arrived(1)
        assert h.stop() is True                 # the first call, waiting, is stopped
        second, out2 = _in_thread(lambda: h.hint(obs, samples=8, seed=2))
        assert arrived(2) and h._calls == 2     # the second began after the stop; the first runs on
    for t in (first, second):
        t.join(120)
        assert not t.is_alive()
    assert isinstance(out1["result"], SearchStopped)
    assert not isinstance(out2["result"], BaseException) and out2["result"].samples == 8, out2["result"]


def test_stop_searches_stops_the_levels_and_module_hints():
    from fiveup_solver import SearchStopped
    g = Game(players=2, seed=9)
    obs = g.observation(g.to_move)
    saved = hint_module._default
    try:
        hint_module.set_default_threads(1)
        t, out = _in_thread(lambda: hint_module.hint(obs, samples=3000, world_nodes=1_000_000))
        assert _searching(hint_module._default_hinter())
        assert hint_module.stop_searches() is True
        t.join(120)
        assert isinstance(out["result"], SearchStopped)
        assert hint_module.stop_searches() is False
    finally:
        hint_module._default = saved


def test_stop_searches_reaches_a_default_that_set_default_threads_replaced():
    """A review: after set_default_threads (an app's settings change), stop_searches stopped
    only the new default, and a hint already running on the old one ran to its end."""
    from fiveup_solver import SearchStopped
    g = Game(players=2, seed=9)
    obs = g.observation(g.to_move)
    saved, saved_retired = hint_module._default, list(hint_module._retired)
    try:
        hint_module.set_default_threads(1)
        old = hint_module._default_hinter()
        t, out = _in_thread(lambda: hint_module.hint(obs, samples=3000, world_nodes=1_000_000))
        assert _searching(old)
        hint_module.set_default_threads(2)
        assert hint_module._default_hinter() is not old and old in hint_module._retired
        assert hint_module.stop_searches() is True
        t.join(120)
        assert isinstance(out["result"], SearchStopped)
        hint_module.set_default_threads(1)
        assert old not in hint_module._retired          # no call runs on it: not kept
        assert hint_module.stop_searches() is False
    finally:
        hint_module._default, hint_module._retired[:] = saved, saved_retired


@pytest.mark.parametrize("beliefs", ["model", "uniform"])
@pytest.mark.parametrize("method", ["pimc", "expectimax", "staged", "value"])   # (alphamu: 256 worlds at most)
def test_a_stop_reaches_a_hint_while_it_plans_its_worlds(monkeypatch, beliefs, method):
    """A review: the worlds of a hint are drawn, weighed and listed before the first search,
    and that took seconds (26 s for 10^6 samples) with no look at a stop. The planning looks
    a part (beliefs.PLAN_CHUNK worlds) at a time: a stop that comes while the first part is
    made ends the hint at the next part, before any world is searched."""
    from fiveup_solver import SearchStopped
    from fiveup_solver.beliefs import PLAN_CHUNK
    g = Game(players=2, seed=8)
    for _ in range(3):
        g.push(g.legal_moves[0])
    obs = g.observation(g.to_move)
    assert len(obs.legal_moves) == 3        # (a single move is returned without a plan)
    h = hint_module.Hinter(threads=1)
    checks = []
    real_check = hint_module.Hinter._check_stop

    def check(self):
        checks.append(1)
        real_check(self)
        if len(checks) == 1:
            assert self.stop() is True          # the stop comes while the first part is made
    monkeypatch.setattr(hint_module.Hinter, "_check_stop", check)

    def no_search(*args, **kwargs):
        raise AssertionError("a world was searched after the stop")
    monkeypatch.setattr(hint_module._hint, "WorldSearch", no_search)
    samples = 3 * PLAN_CHUNK
    with pytest.raises(SearchStopped):
        if method == "value":
            h.position_value(obs, samples=samples, beliefs=beliefs, seed=1)
        elif method == "staged":
            h.hint(obs, samples=samples, beliefs=beliefs, seed=1, stages=(8, samples), settled=lambda hint: False)
        else:
            h.hint(obs, method=method, samples=samples, beliefs=beliefs, seed=1)
    assert len(checks) == 2         # stopped at the next part: none of the rest was made
    monkeypatch.undo()
    assert h.hint(obs, samples=8, seed=1).samples == 8


def test_weigh_calls_its_check_before_each_part_and_stops_where_it_raises():
    from fiveup_solver.beliefs import PLAN_CHUNK, Beliefs
    g = Game(players=4, seed=2)
    for _ in range(6):
        g.push(g.legal_moves[0])
    beliefs = Beliefs(DealSampler(g.observation(g.to_move)))
    calls = []
    beliefs.weigh(2 * PLAN_CHUNK + 1, 1, min_ess_fraction=0, check=lambda: calls.append(1))
    # 3 parts, each drawn and its seat terms computed; the 3 arrays (log likelihoods, hands,
    # boneyards) taken whole; then each hidden seat's (3) posterior built a part at a time
    assert len(calls) == 3 + 3 + 3 + 3 * 3

    def third():
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
    calls.clear()
    with pytest.raises(KeyboardInterrupt):       # before the third of 4 parts is drawn
        beliefs.weigh(4 * PLAN_CHUNK, 1, min_ess_fraction=0, check=third)
    assert len(calls) == 3
    with pytest.raises(OptionError, match="^check must be a function or None, not 5$"):
        beliefs.weigh(10, check=5)


def _edited_observations():
    """A 4-player observation (seed 2, nine actions in) and copies with one field edited
    by hand so that it no longer follows from the history: (what was edited, the copy)."""
    from dataclasses import replace
    g = Game(players=4, seed=2)
    for _ in range(9):
        g.push(g.legal_moves[0])
    obs = g.observation(g.to_move)
    assert [str(m) for m in obs.legal_moves] == ["1-2@1-1:lineB", "1-2@1-6:low", "2-5@0-5:high"]
    assert obs.end_sums_after == (8, 9, 5)        # the board's, as Game.observation gives them
    hand = tuple(t for t in obs.hand if str(t) != "1-2") + (Tile.parse("3-3"),)
    return obs, [
        ("end sums", replace(obs, end_sums_after=(25, 9, 5)), "end sum after 1-2@1-1:lineB is 8, not 25"),
        ("legal moves", replace(obs, legal_moves=obs.legal_moves[:1], end_sums_after=(8,)),
         "legal_moves are not the position's (1 given, 3 legal; missing: 1-2@1-6:low, 2-5@0-5:high)"),
        ("hand", replace(obs, hand=hand), "legal_moves are not the position's"),
        ("scores", replace(obs, scores=(5, 0)), "scores [5, 0] do not follow"),
        ("hand sizes", replace(obs, hand_sizes=(5, 5, 5, 5)), "hand sizes [5, 5, 5, 5] do not follow"),
    ]


@pytest.mark.parametrize("bot", ["random", "greedy", "level1", "level3", "level5", "level6", "hint:2:100"])
def test_every_bot_refuses_an_observation_edited_by_hand(bot):
    """A review: the greedy and random levels (level1-5 too) chose from an observation whose
    hand, scores, hand sizes or end sums had been edited (level1 played a tile not in the
    hand, level5 followed made-up end sums), where the hint levels refused it; and a hint
    took any end sums. choose() now checks the observation whole for every bot."""
    from fiveup_solver import InconsistentObservationError
    obs, edited = _edited_observations()
    assert choose(bot, obs, random.Random(0)) in obs.legal_moves
    for what, bad, message in edited:
        with pytest.raises(InconsistentObservationError, match=re.escape(message)):
            choose(bot, bad, random.Random(0))


def test_a_hint_refuses_end_sums_edited_by_hand():
    from fiveup_solver import InconsistentObservationError
    _, edited = _edited_observations()
    what, bad, message = edited[0]
    with pytest.raises(InconsistentObservationError, match=re.escape(message)):
        hint_module.hint(bad, samples=4, seed=1)


def test_a_record_that_cannot_be_saved_is_one_line_naming_its_path(tmp_path):
    """A review: save_record to a missing directory raised FileNotFoundError naming the
    hidden part file beside the path, and onto a directory IsADirectoryError."""
    from fiveup_solver import save_record
    record = Game(players=2, seed=1).to_record()
    missing = tmp_path / "no-such-dir" / "game.json"
    with pytest.raises(RecordError, match=f"^{re.escape(str(missing))}: cannot write \\(No such file or directory\\)$"):
        save_record(record, missing)
    with pytest.raises(RecordError, match=f"^{re.escape(str(tmp_path))}: cannot write \\(Is a directory\\)$"):
        save_record(record, tmp_path)
    with pytest.raises(RecordError, match="^save_record takes a file path, not int$"):
        save_record(record, 5)
    assert list(tmp_path.iterdir()) == []         # no part file left behind
    save_record(record, tmp_path / "game.json")
    assert json.loads((tmp_path / "game.json").read_text()) == record


def test_save_record_refuses_what_is_not_a_record(tmp_path):
    """A review: save_record wrote None and {"a": 1}, found broken only when read back, and a
    Game raised an untyped TypeError."""
    from fiveup_solver import save_record
    path = tmp_path / "game.json"
    for bad, message in ((None, "a record is a JSON object"), ({"a": 1}, "missing key 'format'")):
        with pytest.raises(RecordError, match=f"^{re.escape(str(path))}: not saved: {message}$"):
            save_record(bad, path)
    with pytest.raises(RecordError, match=r"^save_record takes a record \(game\.to_record\(\)\), not a Game$"):
        save_record(Game(players=2, seed=1), path)
    assert list(tmp_path.iterdir()) == []


def test_check_decision_refuses_what_it_cannot_check():
    from fiveup_solver.inference import check_decision
    obs, edited = _edited_observations()
    ds = DealSampler(obs)
    assert check_decision(ds, obs) is ds.replayed
    with pytest.raises(OptionError, match="^check_decision takes a DealSampler, not 'x'$"):
        check_decision("x", obs)
    with pytest.raises(OptionError, match="^check_decision takes the observation its DealSampler was made from$"):
        check_decision(ds, edited[0][1])


def test_a_move_asked_after_the_game_ended_says_the_game_is_over():
    """A review: choose and hint said "the round is over" for an observation taken after a
    side reached 305; the game is over."""
    from fiveup_solver.bots import choose
    from fiveup_solver.selfplay import play_game
    g = play_game(2, 3, ["greedy", "greedy"])
    assert g.game_over and g.winner is not None
    obs = g.observation(0)
    assert obs.status == "won" and obs.to_move is None
    with pytest.raises(IllegalMoveError, match=r"^the game is over \(a side reached 305\): no move to choose$"):
        choose("level1", obs, random.Random(0))
    with pytest.raises(IllegalMoveError, match=r"^the game is over \(a side reached 305\): no move to hint$"):
        hint_module.hint(obs)
    ended = Game(players=2, seed=3)
    while not ended.round_over:
        ended.push(ended.legal_moves[0])
    assert not ended.game_over
    with pytest.raises(IllegalMoveError, match=r"^the round is over: no move to choose$"):
        choose("level1", ended.observation(0), random.Random(0))


def test_a_game_given_for_an_observation_is_the_same_error_by_every_route():
    """A review: a Game passed where a bot wants an Observation was an OptionError from the
    bot's own function but an InconsistentObservationError ("observation has no field
    'seat'") from choose."""
    from fiveup_solver.bots import bot_function, choose
    g = Game(players=2, seed=1)
    for call in (lambda: choose("level1", g, random.Random(0)), lambda: bot_function("level1")(g, random.Random(0))):
        with pytest.raises(OptionError, match=r"^a bot decides from an Observation"):
            call()
