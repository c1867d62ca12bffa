"""Bad arguments to the public API from a fuzz campaign: each is one typed error naming the
argument (never a TypeError, OverflowError, MemoryError or hang from deep inside, nor an
impossible value returned), and good arguments give what they gave before."""
import json
import math
import subprocess
import sys

import numpy as np
import pytest

from fiveup_solver.cli import main
from fiveup_solver.errors import OptionError
from fiveup_solver.ladder import LadderResult, bootstrap_elo, fit_elo, load_ladder
from fiveup_solver.selfplay import match_seatings, play_game, play_match, wilson_interval
from fiveup_solver.solver import win_probability

NAN = float("nan")


# ---------------------------------------------------------------- selfplay
@pytest.mark.parametrize("players", [1.5, -1, 0, 1, 5, True, None, "2"])
def test_match_seatings_checks_players(players):
    with pytest.raises(OptionError, match=r"^players must be 2, 3 or 4, not "):
        match_seatings(players, "greedy", "random")


def test_match_seatings_of_a_huge_player_count_is_refused_before_any_loop():
    """It built 2^31-seat lists until the memory ran out (a hang); a subprocess with a
    timeout keeps a regression from hanging the suite."""
    code = ("from fiveup_solver.selfplay import match_seatings\n"
            "try:\n    match_seatings(2 ** 31, 'greedy', 'random')\n"
            "except Exception as e:\n    print(type(e).__name__, e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout == "OptionError players must be 2, 3 or 4, not 2147483648\n", out


@pytest.mark.parametrize("bot, other, name", [(None, "random", "bot"), ("greedy", 3, "other"),
                                              (["greedy"], "random", "bot")])
def test_match_seatings_checks_the_bot_names(bot, other, name):
    with pytest.raises(OptionError, match=rf"^{name} must be a bot name \(a string\), not "):
        match_seatings(2, bot, other)


def test_match_seatings_are_the_documented_ones():
    assert match_seatings(2, "a", "b") == [["a", "b"], ["b", "a"]]
    assert match_seatings(4, "a", "b") == [["a", "b", "a", "b"], ["b", "a", "b", "a"]]
    assert match_seatings(3, "a", "b") == [["a", "b", "b"], ["b", "a", "b"], ["b", "b", "a"]]


@pytest.mark.parametrize("wins, n, match", [
    (3, 10 ** 400, r"^a win rate's games n must be an integer from 0 to 2\^53, not "),
    (3, 2 ** 53 + 1, r"games n must be an integer from 0 to 2\^53"),
    (3, 10.0, r"games n must be an integer"), (0, True, r"games n must be an integer"),
    (0, -1, r"games n must be an integer"), (3, None, r"games n must be an integer"),
    (None, 10, r"^a win rate needs a number of wins from 0 to the games"),
    (NAN, 10, r"number of wins"), (11, 10, r"number of wins"), (-1, 10, r"number of wins"),
    (10 ** 400, 10, r"number of wins"), ("3", 10, r"number of wins"),
])
def test_wilson_interval_checks_wins_and_games(wins, n, match):
    with pytest.raises(OptionError, match=match):
        wilson_interval(wins, n)


def test_wilson_interval_values_unchanged():
    # 5 of 10, z = 1.959964: centre 1/2, half-width z sqrt(1/40 + z^2/400) / (1 + z^2/10) = 0.26341
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(0.23659, abs=1e-5) and high == pytest.approx(0.76341, abs=1e-5)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(10, 10)[1] == 1.0 and wilson_interval(0, 10)[0] == 0.0
    low, high = wilson_interval(2 ** 52, 2 ** 53)       # the largest count: still a float interval
    assert 0.4999 < low < 0.5 < high < 0.5001


@pytest.mark.parametrize("kwargs, match", [
    ({"bots": None}, r"^bots must be a list of one bot name per seat \(2\), not None$"),
    ({"bots": "greedy"}, r"^bots must be a list"),
    ({"bots": iter(["greedy", "random"])}, r"^bots must be a list"),
    ({"bots": [None, "random"]}, r"^seat 0's bot must be a name, not None$"),
    # a function is named, not passed (a review: it got the generic "one known bot name")
    ({"bots": [print, "random"]}, r"^seat 0's bot must be a name, not <built-in function print>: give a function "
                                  r"a name with bots\.register_bot\(name, function\), or name it MODULE:FUNCTION$"),
    # the bot's own fault, not a generic one: a method of 2 players at a 3-player game
    ({"players": 3, "bots": ["greedy", "hint-alphamu", "greedy"]},
     r"^seat 1: bot 'hint-alphamu': method 'alphamu' searches 2 players, not 3$"),
    ({"players": 1.5}, r"^players must be 2, 3 or 4, not 1.5$"),
    ({"bot_seed": -1}, r"^bot_seed must be an integer from 0 to 2\^64-1, not -1$"),
    ({"bot_seed": "s"}, r"^bot_seed must be an integer"),
    ({"on_action": 5}, r"^on_action must be a function or None, not 5$"),
])
def test_play_game_checks_its_arguments(kwargs, match):
    args = {"players": 2, "seed": 1, "bots": ["greedy", "random"], **kwargs}
    with pytest.raises(OptionError, match=match):
        play_game(args.pop("players"), args.pop("seed"), args.pop("bots"), **args)


def test_play_match_checks_on_game():
    with pytest.raises(OptionError, match=r"^on_game must be a function or None, not 'x'$"), \
            pytest.deprecated_call():
        play_match(2, "greedy", "random", 1, on_game="x")


def test_play_game_still_plays_the_same_game():
    one = play_game(2, 5, ["greedy", "random"])
    two = play_game(2, 5, ("greedy", "random"), bot_seed=None, on_action=lambda *a: None)
    assert one.to_record() == two.to_record() and (one.game_over or one.unfinished)


# ---------------------------------------------------------------- solver
@pytest.mark.parametrize("value", [5000, -1000.5, NAN, float("inf"), None, 10 ** 400, "0", True])
def test_win_probability_takes_a_win_objective_value_only(value):
    with pytest.raises(OptionError, match=r"^value must be a win-objective value, a number from -1000 to 1000, "):
        win_probability(value)


def test_win_probability_values_unchanged():
    assert (win_probability(0), win_probability(1000), win_probability(-1000)) == (0.5, 1.0, 0.0)
    assert win_probability(250) == 0.625 and win_probability(-500.0) == 0.25


# ---------------------------------------------------------------- ladder
COUNTS = {("a", "b"): [0, 0, 4, 2, 4]}       # 15 of 20 games for a


@pytest.mark.parametrize("counts, names, kwargs, match", [
    (None, ["a", "b"], {}, r"^counts must be a dict \{\(a, b\): pentanomial\}, not None$"),
    ([[0, 0, 4, 2, 4]], ["a", "b"], {}, r"^counts must be a dict"),
    ({"ab": [0, 0, 4, 2, 4]}, ["a", "b"], {}, r"^counts: a pairing is a tuple \(a, b\) of entrants, not 'ab'$"),
    ({("a", "b"): [0, 0, 4, 2]}, ["a", "b"], {}, r"^counts: pairing 'a' v 'b': its pentanomial must be five counts"),
    ({("a", "b"): [10 ** 400, 0, 0, 0, 0]}, ["a", "b"], {}, r"pentanomial must be five counts >= 0 \(at most 10\^9"),
    ({("a", "b"): [10 ** 9 + 1, 0, 0, 0, 0]}, ["a", "b"], {}, r"at most 10\^9 each"),
    ({("a", "b"): [-1, 0, 0, 0, 0]}, ["a", "b"], {}, r"pentanomial must be five counts"),
    ({("a", "b"): [1.0, 0, 0, 0, 0]}, ["a", "b"], {}, r"pentanomial must be five counts"),
    ({("a", "b"): None}, ["a", "b"], {}, r"pentanomial must be five counts"),
    (COUNTS, None, {}, r"^names must be a list of distinct entrant names, not None$"),
    (COUNTS, "ab", {}, r"^names must be a list"), (COUNTS, ["a", "a", "b"], {}, r"^names must be a list"),
    (COUNTS, ["a", 3], {}, r"^names must be a list"),
    (COUNTS, ["a", "b"], {"anchor": None}, r"^the anchor None is not an entrant$"),
    (COUNTS, ["a", "b"], {"anchor": "c"}, r"^the anchor 'c' is not an entrant$"),
    (COUNTS, ["a", "b"], {"prior": 0}, r"^prior must be a finite number > 0"),
    (COUNTS, ["a", "b"], {"prior": NAN}, r"^prior must be a finite number > 0"),
    (COUNTS, ["a", "b"], {"prior": "1"}, r"^prior must be a finite number > 0"),
])
def test_fit_elo_and_bootstrap_check_their_arguments(counts, names, kwargs, match):
    kwargs = {"anchor": "b", **kwargs}
    with pytest.raises(OptionError, match=match):
        fit_elo(counts, names, **kwargs)
    with pytest.raises(OptionError, match=match):
        bootstrap_elo(counts, names, **kwargs, resamples=100)


@pytest.mark.parametrize("kwargs, match", [
    ({"resamples": -1}, r"^resamples must be an integer from 100 to 100000, not -1$"),
    ({"resamples": 2 ** 31}, r"^resamples must be an integer from 100 to 100000, not 2147483648$"),
    ({"resamples": 99}, r"^resamples must be"), ({"resamples": 500.0}, r"^resamples must be"),
    ({"seed": -1}, r"^seed must be an integer from 0 to 2\^64-1, not -1$"),
    ({"seed": 2 ** 64}, r"^seed must be an integer"), ({"seed": None}, r"^seed must be an integer"),
])
def test_bootstrap_elo_bounds_resamples_and_seed(kwargs, match):
    with pytest.raises(OptionError, match=match):
        bootstrap_elo(COUNTS, ["a", "b"], "b", **kwargs)


def test_fit_and_bootstrap_values_unchanged():
    # with the virtual draw a scored 15.5 of 21: 400 log10(15.5 / 5.5)
    elo = fit_elo(COUNTS, ["a", "b"], anchor="b")
    assert elo["b"] == 0.0 and elo["a"] == pytest.approx(400 * math.log10(15.5 / 5.5), abs=1e-6)
    assert fit_elo({("a", "b"): (0, 0, 4, 2, 4)}, ("a", "b"), anchor="b") == pytest.approx(elo)
    boot = bootstrap_elo(COUNTS, ["a", "b"], "b", resamples=100, seed=3)
    assert boot.shape == (100, 2) and np.all(boot[:, 1] == 0.0)
    assert np.array_equal(boot, bootstrap_elo(COUNTS, ["a", "b"], "b", resamples=100, seed=3))


def _ladder_file(tmp_path, change):
    d = load_ladder(2).to_dict()
    change(d)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(d))
    return path


def test_a_huge_count_in_a_ladder_file_is_one_line(tmp_path, capsys):
    """It was `OverflowError: int too large to convert to float` from the fit."""
    path = _ladder_file(tmp_path, lambda d: d["pairings"][0].update(pentanomial=[10 ** 400, 0, 0, 0, 0]))
    assert main(["ladder", "--place", "greedy", "--ladder", str(path), "--against", "level1", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(
        f"error: {path}: not a ladder table (pairing level1 v level2: its pentanomial must be five counts >= 0 "
        "(at most 10^9 each), not [1000"), err


def _set_step(k, **fields):
    return lambda d: d["steps"][k].update(fields)


@pytest.mark.parametrize("change, msg", [
    (lambda d: d.update(steps=None), "its steps must be a list of the 7 steps between neighbouring entrants, not None"),
    (lambda d: d.update(steps="abc"), "its steps must be a list of the 7 steps"),
    (lambda d: d.update(steps=[]), "its steps must be a list of the 7 steps"),
    (lambda d: d["steps"].pop(), "its steps must be a list of the 7 steps"),
    (lambda d: d.update(steps=[1] * 7), "steps[0] must be the step from level1 to level2: a finite elo, "
                                        "a ci95 of two finite numbers and significant true or false, not 1"),
    (lambda d: d.pop("steps"), "a field 'steps' is missing"),
    (_set_step(0, elo=None), "steps[0] must be the step from level1 to level2"),
    (_set_step(1, elo=NAN), "steps[1] must be the step from level2 to level3"),
    (_set_step(1, elo=10 ** 400), "steps[1] must be the step"),
    (_set_step(2, ci95=[1.0]), "steps[2] must be the step"), (_set_step(2, ci95=None), "steps[2] must be the step"),
    (_set_step(2, ci95=[1.0, "x"]), "steps[2] must be the step"),
    (_set_step(3, significant=1), "steps[3] must be the step"), (_set_step(3, to="level9"), "steps[3] must be"),
    (lambda d: d["steps"][4].pop("from"), "steps[4] must be the step from level5 to level6"),
    (lambda d: d["steps"].reverse(), "steps[0] must be the step from level1 to level2"),
    (lambda d: d["steps"][2].update(elo=d["steps"][2]["elo"] + 5), "steps[2]: its elo +119.8 is not level4's Elo "
                                                                    "less level3's, +114.8"),
])
def test_a_ladder_file_with_bad_steps_is_one_line_naming_the_file_and_field(tmp_path, change, msg):
    """from_dict never read "steps": format_table() raised TypeError, KeyError or IndexError."""
    path = _ladder_file(tmp_path, change)
    with pytest.raises(OptionError) as err:
        load_ladder(2, str(path)).format_table()
    text = str(err.value)
    assert text.startswith(f"{path}: not a ladder table (") and "\n" not in text and msg in text, text


def test_a_ladder_round_trips_its_steps_and_table():
    shipped = load_ladder(2)
    back = LadderResult.from_dict(json.loads(json.dumps(shipped.to_dict())))
    assert back.steps == shipped.steps and back.format_table() == shipped.format_table()
    assert shipped.steps[0] == {"from": "level1", "to": "level2", "elo": 139.526, "ci95": [108.36, 170.102],
                                "significant": True}


# ---------------------------------------------------------------- match.PairStats, analysis.accuracy, bots.bot_move
def test_pair_stats_refuses_counts_that_are_no_counts():
    from fiveup_solver.match import PairStats
    assert PairStats(2).counts == [0, 0, 0, 0, 0] and PairStats(3).counts == [0] * 10
    for kwargs, what in [({"counts": True}, "counts must be None or a list of 5"),
                         ({"counts": [0, 0, 0, 0]}, "counts must be None or a list of 5"),
                         ({"counts": [0, -1, 0, 0, 0]}, "counts must be None or a list of 5"),
                         ({"counts": [0, 0.5, 0, 0, 0]}, "counts must be None or a list of 5"),
                         ({"games": -1}, "games must be an integer >= 0"),
                         ({"wins": 1.5}, "wins must be an integer >= 0"),
                         ({"unfinished": None}, "unfinished must be an integer >= 0")]:
        with pytest.raises(OptionError, match=what):
            PairStats(2, **kwargs)


@pytest.mark.parametrize("bad", [10 ** 400, float("nan"), float("inf"), None, "3", True])
def test_accuracy_takes_a_finite_loss(bad):
    from fiveup_solver.analysis import accuracy
    with pytest.raises(OptionError, match="loss_win must be a finite number of win-% points"):
        accuracy(bad)
    # lichess's formula by hand: 103.1668 exp(-0.04354 * 10) - 3.1669
    assert accuracy(10) == pytest.approx(103.1668 * 0.6470058 - 3.1669, abs=1e-4)   # exp(-0.4354) = 0.6470058


def test_bot_move_refuses_the_callers_bad_arguments_as_their_own_errors():
    """Bad arguments of the caller are typed errors naming them, not a BotError blaming a bot
    (nor an AttributeError from formatting one)."""
    import random

    from fiveup_solver import InconsistentObservationError
    from fiveup_solver.bots import bot_move
    from fiveup_solver.game import Game
    obs = Game(players=2, seed=1).observation(Game(players=2, seed=1).to_move)
    with pytest.raises(InconsistentObservationError, match="expected an Observation"):
        bot_move("greedy", None, random.Random(0))
    with pytest.raises(OptionError, match="rng must be a random.Random"):
        bot_move("greedy", obs, None)
    with pytest.raises(OptionError):
        bot_move(None, obs, random.Random(0))
    with pytest.raises(OptionError, match="move_time must be a finite number of seconds > 0"):
        bot_move("greedy", obs, random.Random(0), move_time=-1)
    with pytest.raises(OptionError, match="game_seed"):
        bot_move("greedy", obs, random.Random(0), game_seed=-5)
    assert bot_move("greedy", obs, random.Random(0), 7, 5.0) in obs.legal_moves


# ---------------------------------------------------------------- numbers past Python's digit limit
HUGE = 10 ** 5000     # repr() and int(text) of 4,300+ digits raise a bare ValueError


@pytest.mark.parametrize("call, match", [
    (lambda: __import__("fiveup_solver.bots", fromlist=["x"]).check_bot("hint:" + "9" * 5000 + ":5", 2),
     r"SAMPLES and NODES must each be a number of at most 4000 digits"),
    (lambda: __import__("fiveup_solver.encoding", fromlist=["x"]).action_to_move(HUGE),
     r"^action must be an integer 0\.\.449, not <int>$"),
    (lambda: __import__("fiveup_solver.encoding", fromlist=["x"]).check_params({"max_rounds": HUGE}),
     r"^max_rounds must be an integer from 1 to \d+, not <int>$"),
    (lambda: __import__("fiveup_solver.game", fromlist=["x"]).Game(2, deal=False).start_round(
        [[], []], [], HUGE), r"^starter <int> is not a seat$"),
    (lambda: __import__("fiveup_solver.rollout", fromlist=["x"]).parse_candidates("top:" + "9" * 5000),
     r"^candidates must be 'all' or 'top:K' with K from 1 to 64"),
])
def test_a_number_of_thousands_of_digits_is_named_in_one_line(call, match):
    """Each gave `ValueError: Exceeds the limit (4300 digits) for integer string conversion`,
    naming neither the argument nor the call; `fiveup play --bots hint:<5000 digits>:5`
    ended in a traceback."""
    from fiveup_solver.errors import FiveUpError
    with pytest.raises(FiveUpError, match=match) as info:
        call()
    assert "\n" not in str(info.value) and len(str(info.value)) < 300


def test_a_bot_budget_of_thousands_of_digits_is_one_line_from_the_command_line(capsys):
    assert main(["play", "--bots", "hint:" + "9" * 5000 + ":5"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: bot 'hint:999") and err.count("\n") == 1


def test_a_format_function_takes_its_own_type_only():
    """format_tile((1, 2)) printed "(1, 2)" and format_move("3-4") "3-4": a value that is
    none printed as if it were one."""
    from fiveup_solver.notation import Move, Port, Tile, format_move, format_port, format_tile
    tile = Tile.parse("2-5")
    assert format_tile(tile) == "2-5" and format_move(Move.parse("2-5")) == "2-5"
    assert format_port(Port.parse("1-4:low")) == "1-4:low"
    for fn, bad in ((format_tile, (1, 2)), (format_port, "5"), (format_move, "3-4"), (format_move, tile)):
        with pytest.raises(OptionError, match=rf"^{fn.__name__} takes a "):
            fn(bad)


def test_a_numpy_integer_is_taken_as_its_int_wherever_an_integer_is():
    """One policy (a review found numpy integers taken as action ids and PettingZoo seeds,
    refused as Solver(tt_mb=, threads=), win_probabilities scores and starter,
    Game(scores=), Tile.from_index, and a seed refused with "give int(seed)"): an
    integer of any type is taken as its int, never kept as numpy's."""
    from fiveup_solver.equity import equity_of_scores, win_probabilities
    from fiveup_solver.errors import check_players, check_seed
    from fiveup_solver.game import Game
    from fiveup_solver.hint import Hinter, SearchBudget
    from fiveup_solver.notation import Tile
    from fiveup_solver.record import game_at, observation_at
    from fiveup_solver.solver import Solver
    i64 = np.int64
    seed = check_seed(np.uint64(2 ** 64 - 1))
    assert seed == 2 ** 64 - 1 and type(seed) is int
    assert type(check_players(np.int8(3))) is int
    solver = Solver(tt_mb=i64(4), threads=i64(2), node_limit=i64(0), tt_min_tiles=i64(-1))
    assert type(solver.threads) is int and type(solver.node_limit) is int
    assert type(Hinter(threads=i64(1), tt_mb=i64(2)).threads) is int
    budget = SearchBudget(samples=i64(8), world_nodes=np.uint16(100), chance_width=i64(3))
    assert (type(budget.samples), type(budget.world_nodes), type(budget.chance_width)) == (int, int, int)
    # the same probabilities as for the ints (a list, a tuple or an array of scores)
    want = win_probabilities(2, [290, 150], 1)
    assert win_probabilities(2, [i64(290), 150], i64(1)) == want
    assert win_probabilities(2, np.array([290, 150]), starter=np.int32(1)) == want
    assert equity_of_scores(2, (290, 150), 1, side=i64(1)) == want[1]
    g = Game(players=i64(2), seed=i64(5), scores=(i64(290), np.int16(150)), starter=i64(1), max_rounds=i64(3))
    assert repr(g) == repr(Game(players=2, seed=5, scores=[290, 150], starter=1))
    assert all(type(x) is int for x in (g.players, g.seed, g.max_rounds, *g.current.scores_before))
    assert Game(2, seed=5, scores=np.array([290, 150]), starter=1).scores == [290, 150]
    assert g.hand(i64(1)) == g.hand(1) and g.observation(i64(0)) == g.observation(0)
    assert Tile.from_index(i64(3)) is Tile.from_index(3)
    tile = Tile(np.int8(2), i64(5))
    assert tile == Tile.parse("2-5") and type(tile.lo) is int and hash(tile) == hash(Tile.parse("2-5"))
    record = Game(players=2, seed=1).to_record()
    assert game_at(record, i64(0), i64(0)).to_move == game_at(record, 0, 0).to_move
    assert observation_at(record, i64(1), i64(0), i64(0)) == observation_at(record, 1, 0, 0)


def test_a_numpy_integer_is_taken_by_every_count_and_seat_option():
    """The rest of the policy above (a left-out item of an earlier session): the rollout
    judge's counts, the analysis budget, the sampler's counts and seeds, the exact
    search's limits, the match and ladder statistics, worker counts and seats. A numpy
    seed given to DealSampler.sample_rounds raised Python's TypeError (random.Random takes
    no numpy integer) and to sample an OverflowError: the checked seed was not used."""
    import json
    from fiveup_solver import exact, ladder, match, parallel, play, rollout, selfplay
    from fiveup_solver.analysis import AnalysisBudget
    from fiveup_solver.game import Game
    from fiveup_solver.inference import DealSampler
    i64 = np.int64
    g = Game(players=2, seed=3)
    obs = g.observation(g.to_move)
    ds = DealSampler(obs)
    big = 2 ** 64 - 1
    assert ds.sample_rounds(i64(2), seed=np.uint64(big)) == ds.sample_rounds(2, seed=big)
    assert ds.sample(np.int32(2), seed=np.uint64(big)) == ds.sample(2, seed=big)
    assert ds.marginals(seed=i64(1), worlds=i64(8)) == ds.marginals(seed=1, worlds=8)
    assert len(ds.exact_worlds(i64(10 ** 6))) == len(ds.exact_worlds(10 ** 6))
    r = rollout.rollout(obs, rollouts=i64(2), bot="greedy", seed=i64(1), workers=np.int8(1))
    again = rollout.rollout(obs, rollouts=2, bot="greedy", seed=1)
    assert r.moves == again.moves and (r.rollouts, r.seed) == (2, 1) and type(r.rollouts) is int
    b = AnalysisBudget(samples=i64(8), min_samples=i64(4), threads=i64(1), rollouts=i64(4), workers=i64(1),
                       luck_samples=i64(4), world_nodes=i64(100), dd_nodes=i64(0)).check()
    assert all(type(getattr(b, f)) is int for f in ("samples", "min_samples", "threads", "rollouts", "workers",
                                                      "luck_samples", "world_nodes", "dd_nodes"))
    with pytest.raises(exact.SearchLimitError):      # the limit read as 5, not refused for its type
        exact.sampled_result(obs, sample_worlds=i64(4), node_limit=i64(5))
    with pytest.raises(OptionError, match=r"more than the limit of 10 \(max_worlds\)"):
        exact.exact_result(obs, max_worlds=i64(10))
    assert match.format_elo(12.345, digits=i64(2), sides=i64(2)) == "+12.35"
    assert match.score_of_elo(i64(100)) == match.score_of_elo(100)
    assert match.elo_of_score(np.float32(0.75)) == match.elo_of_score(0.75)
    assert match.sprt_bounds(np.float32(0.25), 0.05) == match.sprt_bounds(0.25, 0.05)
    from fiveup_solver.solver import Solver, win_probability
    assert win_probability(i64(500)) == win_probability(np.float32(500.0)) == 0.75   # (1000 + 500) / 2000
    assert type(win_probability(np.float64(0))) is float
    assert Solver(tt_mb=np.float32(2.0)).solve(g).values == Solver(tt_mb=2).solve(g).values
    assert match.elo_of_score(i64(1)) == match.elo_of_score(1)
    stats = match.PairStats(sides=i64(2), counts=[i64(0)] * 5, games=i64(0), wins=np.uint8(0))
    json.dumps(stats.to_dict())                      # numpy's integers are not JSON: none kept
    stats.add([i64(1), np.uint8(0)])
    assert stats.counts == [0, 0, 1, 0, 0] and type(stats.wins) is int
    assert selfplay.wilson_interval(i64(7), i64(10)) == selfplay.wilson_interval(7, 10)
    assert list(selfplay.game_seeds(i64(1), i64(2))) == list(selfplay.game_seeds(1, 2))
    assert type(parallel.check_workers(i64(2))) is int
    assert play.bots_for_seats(i64(4), i64(2), ["level1"]) == play.bots_for_seats(4, 2, ["level1"])
    assert type(ladder.load_ladder(i64(2)).players) is int
    from fiveup_solver.beliefs import Beliefs
    from fiveup_solver.equity import EquityTable, load_table
    ww = Beliefs(ds).weigh(i64(8), i64(1), max_factor=i64(2))
    assert ww.log_weights.tolist() == Beliefs(ds).weigh(8, 1, max_factor=2).log_weights.tolist()
    t = load_table(2)
    table = EquityTable(i64(2), t.win, i64(t.rounds), t.bot, i64(t.seed), sweeps=i64(1), stuck=np.uint8(0))
    assert all(type(getattr(table, f)) is int for f in ("players", "rounds", "seed", "sweeps", "stuck"))
    # a float or a bool is no player or side count (2.0 in (2, 4) is True: it was taken)
    for call in (lambda: ladder.load_ladder(2.0), lambda: match.score_of_elo(0, sides=2.0),
                 lambda: match.PairStats(sides=True)):
        with pytest.raises(OptionError, match=r"2 or [34].*, not (2\.0|True)$"):
            call()


def test_a_numpy_bool_is_taken_as_its_bool_wherever_a_switch_is():
    """A review (the adapters): numpy integers were taken as ints, but a numpy bool was
    refused as a switch (PettingZoo's whole_game). It is taken as its bool everywhere a
    True/False option is; "no", 0 and None stay refused."""
    from fiveup_solver.game import Game
    from fiveup_solver.hint import Hinter
    from fiveup_solver.inference import DealSampler
    from fiveup_solver.solver import Solver
    from fiveup_solver.svg import board_svg
    yes, no = np.bool_(True), np.bool_(False)
    g = Game(players=2, seed=3)
    obs = g.observation(g.to_move)
    assert Solver(both=no, use_tt=yes, target_pruning=yes, pv=no).solve(g).values == Solver(both=False).solve(g).values
    assert Hinter(threads=1).hint(obs, samples=4, seed=1, both=no).best == Hinter(threads=1).hint(
        obs, samples=4, seed=1, both=False).best
    assert DealSampler(obs, drawing=no).count == DealSampler(obs, drawing=False).count
    assert g.to_record(scores_kept_apart=yes) == g.to_record(scores_kept_apart=True)
    assert board_svg(g, flipped=yes) == board_svg(g, flipped=True)
    assert not Game(players=2, seed=3, deal=no).rounds and len(Game(players=2, seed=3, deal=yes).rounds) == 1
    for bad in ("no", 0, None):
        with pytest.raises(OptionError, match=r"^both must be True or False, not "):
            Solver(both=bad)


def test_a_ladder_rating_of_a_name_not_on_it_is_an_option_error():
    """ladder.elo[name] was a plain dict: a misspelt level gave a bare KeyError."""
    from fiveup_solver.ladder import load_ladder
    table = load_ladder(2)
    with pytest.raises(OptionError, match=r"^'levle2' is not on the ladder \(its entrants: level1, level2, "):
        table.elo["levle2"]
    with pytest.raises(OptionError, match=r"^'x' is not on the ladder"):
        table.ci95["x"]
    assert table.elo.get("x") is None and "level2" in table.elo and table.elo["level1"] == 0.0


@pytest.mark.parametrize("call,message", [
    (lambda: __import__("fiveup_solver.errors").errors.check_seed(True),
     r"^seed must be an integer from 0 to 2\^64-1, not True \(a bool is not a seed\)$"),
    (lambda: __import__("fiveup_solver.errors").errors.check_seed(np.True_),
     r"not np\.True_ \(a numpy\.bool_?\)$"),
    (lambda: __import__("fiveup_solver.errors").errors.check_seed(-1), r"not -1$"),
    (lambda: __import__("fiveup_solver.errors").errors.check_seed(np.int64(-1)), r"not -1$"),
    (lambda: __import__("fiveup_solver.solver").solver.Solver(threads=True), r"^threads must be .*, not True$"),
])
def test_a_refused_seed_or_integer_option_says_why(call, message):
    """A review: "give int(seed)" was the advice for True too, and int(True) is seed 1: a
    bool is now refused as no seed (and any bool as no integer)."""
    with pytest.raises(OptionError, match=message):
        call()


@pytest.mark.parametrize("players,scores,words", [
    # 2 or 3 players: 0..304 (no score below 0 without a partner's pips: RULES §3.3, D4)
    (2, [310, 0], ["from 0 to 304", "2 players", "[310, 0]"]),
    (2, [305, 0], ["from 0 to 304", "[305, 0]"]),
    (3, [0, 0, 400], ["from 0 to 304", "3 players", "[0, 0, 400]"]),
    (2, "ab", ["2 integers", "from 0 to 304", "'ab'"]),
    (2, {0: 1}, ["2 integers", "{0: 1}"]),
    (2, [0, 0, 0], ["2 integers", "[0, 0, 0]"]),
    (2, [-5, 0], ["below 0", "4 players", "from 0 to 304", "[-5, 0]"]),
    # 4 players: a start score may be below 0, down to MIN_SCORE (-10^9)
    (4, [-1_000_000_005, 0], ["from -1000000000 to 304", "4 players", "[-1000000005, 0]"]),
    (4, [305, 0], ["from -1000000000 to 304", "[305, 0]"]),
])
def test_game_score_errors_name_the_value_and_this_player_counts_range(players, scores, words):
    from fiveup_solver.game import Game
    with pytest.raises(OptionError) as e:
        Game(players=players, seed=1, scores=scores)
    message = str(e.value)
    assert "\n" not in message and all(w in message for w in words), message


@pytest.mark.parametrize("players,scores,words", [
    (2, [305, 0], ["side 0's score", "from 0 to 304", "2 players", "305"]),
    (3, [0, 310, 0], ["side 1's score", "from 0 to 304", "3 players", "310"]),
    (2, [-5, 0], ["side 0's score -5", "below 0", "4 players"]),
    (2, [0.0, 0], ["side 0's score", "integer from 0 to 304", "0.0"]),
    (4, [-1_000_000_005, 0], ["side 0's score", "from -1000000000 to 304", "4 players", "-1000000005"]),
    # a dict is not a sequence of scores (its keys were read as them)
    (2, {0: 0, 1: 0}, ["scores must list 2 raw scores", "{0: 0, 1: 0}"]),
    (2, {0, 5}, ["scores must list 2 raw scores"]),
])
def test_win_probabilities_refuses_scores_as_game_does(players, scores, words):
    from fiveup_solver.equity import win_probabilities
    from fiveup_solver.game import Game
    with pytest.raises(OptionError) as e:
        win_probabilities(players, scores)
    message = str(e.value)
    assert "\n" not in message and all(w in message for w in words), message
    with pytest.raises(OptionError):        # the same bound: Game refuses them too
        Game(players=players, seed=1, scores=scores)


def test_the_lowest_start_score_is_valued_as_game_takes_it():
    """4 players: Game takes a start score down to MIN_SCORE, and so does the table
    (which reads a score below 0 as 0: docs/equity.md)."""
    from fiveup_solver.equity import win_probabilities
    from fiveup_solver.game import Game
    from fiveup_solver.notation import MIN_SCORE
    Game(players=4, seed=1, scores=[MIN_SCORE, 0])
    assert win_probabilities(4, [MIN_SCORE, 0]) == win_probabilities(4, [0, 0])


def test_a_game_before_its_first_deal_has_no_legal_moves_to_list():
    """A review: Game(deal=False).legal_moves was [] while to_move, board and
    observation raised "no round has been dealt": no position exists, so all raise."""
    from fiveup_solver.errors import IllegalMoveError
    from fiveup_solver.game import Game
    g = Game(players=2, deal=False)
    for read in (lambda: g.legal_moves, lambda: g.to_move, lambda: g.board, lambda: g.observation(0)):
        with pytest.raises(IllegalMoveError, match=r"^no round has been dealt$"):
            read()


class _EqRaises:
    def __eq__(self, other):
        raise RuntimeError("eq fails")

    __hash__ = object.__hash__


@pytest.mark.parametrize("bad", [np.array([1, 2]), np.array(["low", "high"]), _EqRaises()],
                         ids=["int array", "str array", "eq raises"])
def test_an_array_or_odd_object_as_a_name_is_refused_in_one_line(bad):
    """A review: Port(tile, array), Encoder.index(array) and raw_env(render_mode=array)
    raised numpy's "truth value of an array ... is ambiguous", and an object whose ==
    raises passed its exception on: each is now the package's one-line error."""
    from fiveup_solver.encoding import Encoder
    from fiveup_solver.errors import FiveUpError
    from fiveup_solver.notation import Port, Tile
    calls = [lambda: Port(Tile.parse("1-4"), bad), lambda: Encoder(2, False).index(bad)]
    try:
        from fiveup_solver.pettingzoo import raw_env
        import pettingzoo  # noqa: F401
        calls.append(lambda: raw_env(render_mode=bad))
    except ImportError:         # pragma: no cover - pettingzoo is an extra
        pass
    for call in calls:
        with pytest.raises(FiveUpError) as e:
            call()
        assert "\n" not in str(e.value)
