"""The argument checks of rollout.playout / world_seed / rollout's candidates and of
parallel.ordered_map (a review's L3, L4 and L5): one-line typed errors at the call,
nothing pushed or started before them, and a worker's error the same on the process
pool as on Ray."""
import pickle
import re
import threading
import types

import numpy as np
import pytest

from fiveup_solver import Game, IllegalMoveError, OptionError, WorkerError
from fiveup_solver.errors import FiveUpError, check_players
from fiveup_solver.rollout import playout, rollout, world_seed
from fiveup_solver import parallel
from fiveup_solver.parallel import ordered_map


def _one_line(e) -> str:
    text = str(e.value)
    assert "\n" not in text and "Traceback" not in text, text
    return text


def _state(game):
    """What a playout would change: the moves of every round and the scores."""
    return [[(s, str(m)) for s, m in r.moves] for r in game.rounds], list(game.scores)


# ---------------------------------------------------------------- L3: playout, world_seed
def test_playout_refuses_an_observation_with_a_typed_error():
    g = Game(players=2, seed=4)
    with pytest.raises(OptionError, match=r"^playout takes a Game \(a world: every hand known\), not Observation$"):
        playout(g.observation(g.to_move), g.legal_moves[0], g.to_move, "greedy", 1)


@pytest.mark.parametrize("bot, players, text", [
    ("nosuch", 2, r"^rollout bot: unknown bot 'nosuch'"),
    (5, 2, r"^rollout bot: a bot name is a string"),
    # a bot whose search does not take the game's players: refused before the move too
    ("hint-alphamu:2:100", 3, r"^rollout bot: bot 'hint-alphamu:2:100': method 'alphamu' searches 2 players, not 3$"),
])
def test_a_refused_bot_leaves_the_game_as_it_was(bot, players, text):
    g = Game(players=players, seed=4)
    before = _state(g)
    with pytest.raises(OptionError) as e:
        playout(g, g.legal_moves[0], g.to_move, bot, 1)
    assert _state(g) == before        # the move was pushed before the bot was refused
    assert re.match(text, _one_line(e))


@pytest.mark.parametrize("seat", [2, -1, True, "0", None, 1.0])
def test_playout_seat_is_checked(seat):
    g = Game(players=2, seed=4)
    before = _state(g)
    with pytest.raises(OptionError, match=r"^seat must be a seat 0\.\.1, not ") as e:
        playout(g, g.legal_moves[0], seat, "greedy", 1)
    _one_line(e)
    assert _state(g) == before


@pytest.mark.parametrize("bot_seed", [-1, 2 ** 64, "1", True])
def test_playout_bot_seed_is_checked(bot_seed):
    g = Game(players=2, seed=4)
    before = _state(g)
    with pytest.raises(OptionError, match=r"^bot_seed must be an integer from 0 to 2\^64-1"):
        playout(g, g.legal_moves[0], 0, "greedy", bot_seed)
    assert _state(g) == before


def test_playout_refuses_a_timed_bot_as_the_rollout_does():
    g = Game(players=2, seed=4)
    before = _state(g)
    with pytest.raises(OptionError, match="searches for a time: playouts must be the seed's alone"):
        playout(g, g.legal_moves[0], 0, "hint@50ms", 1, "round")
    assert _state(g) == before


def test_playout_move_is_checked_before_anything_is_pushed():
    """(A guard, not a fix: Game.push refused these before changing anything already, with
    the same words; the playout now checks them before its other work.)"""
    g = Game(players=2, seed=4)
    before = _state(g)
    other = g.copy()
    other.push(other.legal_moves[0])
    not_legal = next(m for m in other.legal_moves if m not in g.legal_moves)
    for move, text in ((not_legal, r"^tile \d-\d is not in seat \d's hand$"), ("0-0", r"'0-0'"),
                       (None, r"^not a move: None$")):
        with pytest.raises(IllegalMoveError, match=text):
            playout(g, move, 0, "greedy", 1)
        assert _state(g) == before
    with pytest.raises(IllegalMoveError, match="no round has been dealt"):
        playout(Game(players=2, seed=4, deal=False), not_legal, 0, "greedy", 1)
    over = Game(players=2, seed=4, max_rounds=1)
    playout(over, over.legal_moves[0], 0, "greedy", 1, "round")
    with pytest.raises(IllegalMoveError, match="^the (round has ended|game is already won)$"):
        playout(over, not_legal, 0, "greedy", 1)


def test_a_draw_naming_the_next_tile_is_played_as_push_takes_it():
    from fiveup_solver.notation import Move
    rng = __import__("random").Random(3)
    for seed in range(40):
        g = Game(players=2, seed=seed)
        while not g.round_over and g.legal_moves[0].kind != "draw":
            g.push(rng.choice(g.legal_moves))
        if not g.round_over:
            break
    else:
        pytest.fail("no draw reached in 40 seeded rounds")     # (deterministic: seeds 0..39)
    named = Move.draw(g.boneyard[0])
    assert named not in g.legal_moves
    assert playout(g.copy(), named, g.to_move, "greedy", 1, "round") == playout(
        g.copy(), g.legal_moves[0], g.to_move, "greedy", 1, "round")


def test_playout_of_good_arguments_is_unchanged():
    g = Game(players=3, seed=2)
    m = g.legal_moves[0]
    a = playout(g.copy(), m, g.to_move, "greedy", 5, "round")
    b = playout(g.copy(), m, np.int64(g.to_move), "greedy", np.uint64(5), "round")
    assert a == b and a[2] >= 1


@pytest.mark.parametrize("seed, k, text", [
    (-1, 0, r"^seed must be an integer from 0 to 2\^64-1, not -1$"),
    (2 ** 64, 0, r"^seed must be"), (True, 0, r"^seed must be .*a bool is not a seed"), ("0", 0, r"^seed must be"),
    (0, -1, r"^k must be a world's index, an integer >= 0, not -1$"),
    (0, "x", r"^k must be a world's index"), (0, 1.0, r"^k must be"), (0, True, r"^k must be"), (0, None, r"^k must be"),
])
def test_world_seed_checks_its_arguments(seed, k, text):
    with pytest.raises(OptionError, match=text):
        world_seed(seed, k)


def test_world_seed_values_are_unchanged():
    assert world_seed(np.uint64(7), np.int64(3)) == world_seed(7, 3)
    assert world_seed(0, 1) == world_seed(0, 1) != world_seed(0, 2)


# ---------------------------------------------------------------- L4: rollout's candidates
def _obs():
    g = Game(players=2, seed=4)
    return g.observation(g.to_move)


@pytest.mark.parametrize("lone", ["text", "move", "bytes"])
def test_a_lone_candidate_is_refused_not_read_letter_by_letter(lone):
    obs = _obs()
    m = obs.legal_moves[0]
    value = {"text": str(m), "move": m, "bytes": str(m).encode()}[lone]
    with pytest.raises(OptionError, match=r"^candidates must be a list of moves \(\[move\] for one\), not ") as e:
        rollout(obs, value, rollouts=2, bot="greedy")
    _one_line(e)


def test_a_repeated_candidate_is_refused_naming_it():
    obs = _obs()
    m = obs.legal_moves[0]
    for given in ([m, m], [m, str(m)], [str(m), obs.legal_moves[-1], m]):
        with pytest.raises(OptionError, match=rf"^candidates list {m} twice: give each move once$"):
            rollout(obs, given, rollouts=2, bot="greedy")
    # once each: the candidate stands for its move once
    r = rollout(obs, [m], rollouts=2, bot="greedy")
    assert r.of(m).moves.count(m) == 1


def test_rollout_refuses_a_bot_that_cannot_play_its_players_at_the_call():
    g = Game(players=3, seed=4)
    with pytest.raises(OptionError, match=r"^rollout bot: bot 'hint-alphamu:2:100': method 'alphamu' searches 2"):
        rollout(g.observation(g.to_move), rollouts=2, bot="hint-alphamu:2:100")


# ---------------------------------------------------------------- L5: ordered_map
def _square(x):
    return x * x


def _plain_error(x):
    raise KeyError(f"plain {x}")


def _typed_error(x):
    return check_players(x)


def _a_lock(x):
    return threading.Lock()


@pytest.mark.parametrize("kwargs, text", [
    ({"workers": 0}, r"^workers must be an integer from 1 to 256, not 0$"),
    ({"workers": "2"}, r"^workers must be"),
    ({"in_flight": "x"}, r"^in_flight must be an integer >= 1, not 'x'$"),
    ({"in_flight": 0}, r"^in_flight must be an integer >= 1, not 0$"),
    ({"in_flight": 1.5, "workers": 2}, r"^in_flight must be"),
    ({"jobs": None}, r"^jobs must be an iterable of jobs \(a list, a generator\), not None$"),
    ({"jobs": 5}, r"^jobs must be an iterable"),
    ({"fn": 5}, r"^fn must be a function called with each job, not 5$"),
    ({"stop_hung": "yes"}, r"^stop_hung must be True or False, not 'yes'$"),
    ({"ray": ""}, r"^ray must be"),
])
def test_ordered_map_checks_its_arguments_at_the_call(kwargs, text):
    args = {"fn": abs, "jobs": [1, -2], **kwargs}
    with pytest.raises(OptionError, match=text) as e:
        ordered_map(args.pop("fn"), args.pop("jobs"), **args)      # not iterated: refused at the call
    _one_line(e)


def test_ordered_map_still_yields_lazily_in_order():
    gen = ordered_map(abs, iter([-3, 1, -2]))
    assert next(gen) == 3 and list(gen) == [1, 2]
    assert list(ordered_map(np.negative, [1, 2], in_flight=np.int64(1))) == [-1, -2]


def test_a_function_pickle_does_not_take_is_refused_before_any_process_starts(capfd):
    for fn, workers, stop_hung in ((lambda x: x, 2, False), (lambda x: x, 1, True)):
        with pytest.raises(OptionError, match=r"^fn must be a module-level function \(worker processes get it by "
                                              r"name\), not <function .*Can't pickle") as e:
            ordered_map(fn, [1, 2], workers=workers, stop_hung=stop_hung)
        _one_line(e)
    assert capfd.readouterr().err == ""          # the pool's feeder thread printed tracebacks
    # in this process a lambda runs as before
    assert list(ordered_map(lambda x: x + 1, [1, 2])) == [2, 3]


def test_a_plain_error_in_a_worker_is_a_worker_error_as_on_ray():
    with pytest.raises(WorkerError, match=r"^a worker process failed \(KeyError: 'plain 2'\) while running 2$") as e:
        list(ordered_map(_plain_error, [2], workers=2))
    assert isinstance(e.value.__cause__, KeyError)          # the function's own exception, as the cause
    # in one process it is the function's own error, as before
    with pytest.raises(KeyError):
        list(ordered_map(_plain_error, [2], workers=1))
    # a FiveUpError comes back as itself from a worker (unchanged)
    with pytest.raises(OptionError) as typed:
        list(ordered_map(_typed_error, [2, 7], workers=2))
    assert type(typed.value) is OptionError and str(typed.value) == "players must be 2, 3 or 4, not 7"


def test_a_result_pickle_does_not_take_is_one_worker_error_line():
    with pytest.raises(WorkerError, match=r"^what fn returned or raised for job 1 cannot come back from its worker "
                                          r"process \(TypeError: cannot pickle '_thread.lock' object\): it must be "
                                          r"what pickle takes$") as e:
        list(ordered_map(_a_lock, [1], workers=2))
    _one_line(e)


def test_a_job_pickle_does_not_take_is_one_option_error_line(capfd):
    with pytest.raises(OptionError, match=r"^job <unlocked _thread.lock object .*> cannot be sent to a worker "
                                          r"process \(TypeError: cannot pickle '_thread.lock' object\)") as e:
        list(ordered_map(_square, [1, threading.Lock()], workers=2))
    _one_line(e)


# Ray's side without starting Ray (a local Ray takes 5 to 8 s to start here; checked by hand,
# /work/scratch/fix_rollout/ray_check.py): its task errors and the tasks it cannot send
class _RayTaskError(Exception):
    def __init__(self, cause):
        super().__init__("Traceback (most recent call last):\n  ...remote traceback...")
        self.cause = cause


def _fake_ray(error):
    def get(ref):
        raise error
    return types.SimpleNamespace(get=get, cloudpickle=pickle,
                                 exceptions=types.SimpleNamespace(RayTaskError=_RayTaskError))


def test_a_ray_task_error_is_wrapped_as_the_pool_wraps_it():
    cause = KeyError("plain 2")
    with pytest.raises(WorkerError, match=r"^a Ray task failed \(KeyError: 'plain 2'\) while running 2$") as e:
        parallel._ray_result(_fake_ray(_RayTaskError(cause)), None, 2)
    assert e.value.__cause__ is cause                        # as the pool's: the task's own exception
    typed = OptionError("players must be 2, 3 or 4, not 7")
    with pytest.raises(OptionError) as e:
        parallel._ray_result(_fake_ray(_RayTaskError(typed)), None, 7)
    assert e.value is typed


def test_a_job_or_function_ray_cannot_send_is_named():
    sent = TypeError("Could not serialize the argument <lock> for a task\n=====\nChecking Serializability ...")
    sent.__cause__ = TypeError("cannot pickle '_thread.lock' object")
    e = parallel._ray_send_failure(_fake_ray(None), abs, "JOB", sent)
    assert type(e) is OptionError and str(e) == ("job 'JOB' cannot be sent to a Ray task (TypeError: cannot pickle "
                                                 "'_thread.lock' object): a job must be what pickle takes")
    e = parallel._ray_send_failure(_fake_ray(None), lambda x: x, "JOB", sent)
    assert type(e) is OptionError and str(e).startswith("fn cannot be sent to a Ray task (")
    assert isinstance(e, FiveUpError) and "\n" not in str(e)


def test_rollout_results_do_not_depend_on_the_candidates_order():
    """Candidates given in another order, or as a set (whose order follows the hash seed of
    its strings), named the move that stands for equivalent ones (a double's two branch
    ports, RULES §3.4) and broke ties in that order: they are now played out in the legal
    moves' order, and the result is the same. (Seed 1, 2 players, random play to action 7:
    2-6 and 3-6 each fit both branches of 6-6.)"""
    import random

    from fiveup_solver import Game
    from fiveup_solver.rollout import rollout
    g = Game(players=2, seed=1)
    rng = random.Random(1)
    for _ in range(7):
        g.push(rng.choice(g.legal_moves))
    obs = g.observation(g.to_move)
    legal = [str(m) for m in obs.legal_moves]
    assert "2-6@6-6:branchA" in legal and "2-6@6-6:branchB" in legal
    runs = [rollout(obs, c, rollouts=3, bot="greedy", seed=2) for c in (legal, legal[::-1], set(legal))]
    key = [[(str(m.move), [str(x) for x in m.moves], m.rank, m.win, m.points) for m in r.moves] for r in runs]
    assert key[0] == key[1] == key[2] and str(runs[0].best) == str(runs[1].best) == str(runs[2].best)
    # the first of each equivalent pair in the legal order stands for both
    assert {str(m.move) for m in runs[1].moves} >= {"2-6@6-6:branchA", "3-6@6-6:branchA"}
