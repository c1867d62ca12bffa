"""Guards at the API edges: out-of-range seats and malformed bot lists raise typed errors."""
import importlib.util

import pytest

from fiveup_solver import FiveUpError, Game
from fiveup_solver._core import CoreError
from fiveup_solver.selfplay import play_game


@pytest.mark.parametrize("seat", [-1, 2, 4, 1000])
def test_core_hand_rejects_a_seat_outside_the_round(seat):
    core = Game(players=2, seed=1).current.core
    with pytest.raises(CoreError, match="not a seat"):
        core.hand(seat)
    with pytest.raises(CoreError, match="not a seat"):
        core.hand_pips(seat)


def test_core_hand_of_real_seats_is_five_tiles():
    core = Game(players=3, seed=1).current.core
    assert [len(core.hand(s)) for s in range(3)] == [5, 5, 5]


@pytest.mark.parametrize("bots, message", [
    (["greedy"], r"^bots must name one bot per seat \(2\), not 1: \['greedy'\]$"),
    (["greedy", "random", "random"], r"^bots must name one bot per seat \(2\), not 3: "),
    (["greedy", "nobody"], r"^seat 1: unknown bot 'nobody' \(known: "),
    (["greedy", "level9"], r"^seat 1: unknown level 'level9' \(known: level1\.\.level8\)$"),
    (["Level4", "greedy"], r"^seat 0: unknown bot 'Level4': bot names are lower case \('level4'\)$"),
])
def test_play_game_needs_one_known_bot_per_seat(bots, message):
    with pytest.raises(FiveUpError, match=message):
        play_game(2, 1, bots)


def test_play_game_says_why_an_agent_module_failed(tmp_path, monkeypatch):
    """A bot author's module that fails to import: play_game said only 'needs one known bot
    name per seat', where bot_function (and fiveup match) name the module's error."""
    (tmp_path / "broken_agent_mod.py").write_text("undefined_name\n\ndef play(obs, rng):\n    return obs.legal_moves[0]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(FiveUpError, match=r"^seat 0: bot 'broken_agent_mod:play': cannot import broken_agent_mod "
                                          r"\(NameError: name 'undefined_name' is not defined\)"):
        play_game(2, 1, ["broken_agent_mod:play", "greedy"])


def test_solve_node_limit_is_one_clear_error(tmp_path, capsys):
    import json

    from fiveup_solver.cli import main
    g = Game(players=4, seed=3)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(g.to_record()))
    assert main(["solve", str(path), "--round", "0", "--action", "0", "--node-limit", "50"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: round 0 action 0: node limit 50 reached")
    assert main(["solve", str(path), "--round", "0", "--action", "0", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["value"] == max(out["values"].values()) and out["nodes"] > 0


def test_mirror_match_credits_seats_not_names():
    """A bot against itself: each deal is the same game from every seating, so the
    side that wins it wins exactly one seating of it (one of two, one of three)."""
    from fiveup_solver.selfplay import play_match
    for players, per_deal in ((2, 2), (3, 3), (4, 2)):
        with pytest.deprecated_call():      # (kept working, deprecated for match.play_pairs)
            r = play_match(players, "greedy", "greedy", 3, seed=5)
        assert r["games"] == 3 * per_deal
        assert r["games"] > r["unfinished"] and r["wins"] * per_deal == r["games"] - r["unfinished"], r


def test_observation_to_dict_of_a_won_game_shows_305():
    """A won game's final observation holds the winner's exact 305 (issue 22): every seat's
    to_dict() works, while 305 stays refused for a round still being played."""
    import dataclasses
    import random

    from fiveup_solver import InconsistentObservationError
    from fiveup_solver.bots import choose
    g = Game(players=2, seed=3)
    rng = random.Random(0)
    while not g.game_over:
        if g.round_over:
            g.next_round()
            continue
        g.push(choose("greedy", g.observation(g.to_move), rng))
    for seat in (0, 1):
        d = g.observation(seat).to_dict()
        assert d["status"] == "won" and 305 in d["scores"] and g.winner == d["scores"].index(305)
    obs = g.observation(0)
    # (2 players: no score goes below 0, D4 is the 4-player rule)
    with pytest.raises(InconsistentObservationError, match="from 0 to 304"):
        dataclasses.replace(obs, status="playing").to_dict()
    with pytest.raises(InconsistentObservationError, match="scores_before must be integers from 0 to 304"):
        dataclasses.replace(obs, scores_before=(305, 0)).to_dict()
    with pytest.raises(InconsistentObservationError, match="from 0 to 305"):
        dataclasses.replace(obs, scores=(306, 0)).to_dict()

def test_observation_dict_round_trips_through_json_with_its_legal_moves():
    """A review: ``to_dict()`` left out the legal moves (and the end sums after them, and
    the hands revealed at a round's end), and nothing read it back. Every seat's observation
    in self-played games of 2, 3 and 4 players, the rounds' ends included, goes through JSON
    and back unchanged; the dict's legal moves are the moves the seat may play."""
    import json
    import random

    from fiveup_solver import InconsistentObservationError, Observation, format_move
    seen = {"legal": 0, "revealed": 0}
    for players in (2, 3, 4):
        for seed in range(4):
            g = Game(players=players, seed=seed)
            rng = random.Random(seed)
            while not g.game_over and len(g.rounds) <= 3:
                for s in range(players):
                    obs = g.observation(s)
                    d = json.loads(json.dumps(obs.to_dict()))
                    assert Observation.from_dict(d) == obs
                    if s == g.to_move and not g.round_over:
                        assert d["legal_moves"] == [format_move(m) for m in g.legal_moves]
                        seen["legal"] += 1
                    else:
                        assert d["legal_moves"] == []
                    if g.round_over:
                        assert d["revealed"] == [[str(t) for t in g.hand(q)] for q in range(players)]
                        seen["revealed"] += 1
                if g.round_over:
                    g.next_round()
                    continue
                g.push(rng.choice(g.legal_moves))
    assert seen["legal"] > 100 and seen["revealed"] > 10, seen
    # bad dicts: one line naming the field
    d = Game(players=2, seed=5).observation(0).to_dict()
    for change, what in (({"hand": ["9-9"]}, "hand: bad tile '9-9'"), ({"legal_moves": "0-1"}, "legal_moves must be a list"),
                         ({"legal_moves": ["0-1@middle"]}, "legal_moves: "), ({"seat": 2}, "seat must be a seat 0..1"),
                         ({"colour": 1}, "unknown field 'colour'"), ({"revealed": [["0-1"], 3]}, "revealed: "),
                         ({"open_ports": [1]}, "open_ports: ")):
        with pytest.raises(InconsistentObservationError, match=what) as e:
            Observation.from_dict({**d, **change})
        assert "\n" not in str(e.value)
    with pytest.raises(InconsistentObservationError, match="missing field 'hand'"):
        Observation.from_dict({k: v for k, v in d.items() if k != "hand"})
    with pytest.raises(InconsistentObservationError, match="is a dict as Observation.to_dict"):
        Observation.from_dict([d])


def test_a_game_read_back_from_its_record_goes_on_as_the_game_did():
    """game_from_record used the record's round count as the round limit (D6): a finished
    round read back made the game 'unfinished' and refused next_round()."""
    import random
    from fiveup_solver import Game, game_from_record
    g = Game(players=2, seed=8)
    rng = random.Random(1)
    while not g.round_over:
        g.push(rng.choice(g.legal_moves))
    back = game_from_record(g.to_record())
    assert back.round_over and not back.unfinished and not g.unfinished
    assert back.to_record() == g.to_record()
    back.next_round()
    g.next_round()
    assert back.to_move == g.to_move and back.scores == g.scores and len(back.rounds) == 2


def test_game_scores_and_starter_of_the_wrong_kind_are_option_errors():
    """Game(scores=5) raised a bare TypeError (list(5) in next_round)."""
    from fiveup_solver import Game, OptionError
    for bad in (5, None.__class__, iter([0, 0]), {0: 0, 1: 0}):
        with pytest.raises(OptionError, match="scores"):
            Game(players=2, seed=1, scores=bad)
    with pytest.raises(OptionError, match="starter"):
        Game(players=2, seed=1, starter=True)
    assert Game(players=2, seed=1, scores=(0, 5), starter=1).scores == [0, 5]


def _bad_calls():
    """(label, call, message fragment): public functions given what they cannot take,
    each found raising a bare TypeError, IndexError, AttributeError, OverflowError or
    RuntimeError, or returning something silently wrong, before it was checked."""
    import math
    import random

    from fiveup_solver.beliefs import Beliefs
    from fiveup_solver.bots import bot_function
    from fiveup_solver.encoding import check_params
    from fiveup_solver.equity import equity_of_scores, equity_result
    from fiveup_solver.hint import SearchBudget, world_values
    from fiveup_solver.inference import DealSampler
    from fiveup_solver.match import PairStats, elo_of_score, format_elo, play_pairs, score_of_elo, sides_of
    from fiveup_solver.notation import Move, Tile
    from fiveup_solver.selfplay import game_seeds, play_match, wilson_interval
    from fiveup_solver.svg import svg_to_png
    g = Game(players=2, seed=3)
    rng = random.Random(1)
    for _ in range(6):
        g.push(rng.choice(g.legal_moves))
    ds = DealSampler(g.observation(g.to_move))
    beliefs = Beliefs(ds)
    ww = beliefs.weigh(8, 1)
    return [
        ("wilson_interval wins > games", lambda: wilson_interval(5, 3), "win rate"),
        ("wilson_interval wins < 0", lambda: wilson_interval(-1, 3), "win rate"),
        ("score_of_elo huge", lambda: score_of_elo("x"), "Elo"),
        ("score_of_elo nan", lambda: score_of_elo(math.nan), "Elo"),
        ("elo_of_score nan", lambda: elo_of_score(math.nan), "mean score"),
        ("elo_of_score above 1", lambda: elo_of_score(1.5), "mean score"),
        ("format_elo nan", lambda: format_elo(math.nan), "Elo"),
        ("sides_of 5", lambda: sides_of(5), "players"),
        ("sides_of True", lambda: sides_of(True), "players"),
        ("PairStats.add None", lambda: PairStats().add(None), "game scores"),
        ("play_pairs max_pairs", lambda: list(play_pairs(2, "random", "greedy", 1, max_pairs="x")), "max_pairs"),
        ("play_pairs max_pairs True", lambda: list(play_pairs(2, "random", "greedy", 1, max_pairs=True)), "max_pairs"),
        ("play_match deals -1", lambda: play_match(2, "random", "greedy", -1), "games"),
        ("game_seeds games", lambda: game_seeds(0, "x"), "games"),
        ("equity_of_scores side 2", lambda: equity_of_scores(2, [0, 0], side=2), "side"),
        ("equity_of_scores side -1", lambda: equity_of_scores(2, [0, 0], side=-1), "side"),
        ("equity_result scores 5", lambda: equity_result(2, 5), "--scores"),
        ("equity_result starter list", lambda: equity_result(2, "0,0", [1]), "--starter"),
        ("equity_result starter 1.5", lambda: equity_result(2, "0,0", "1.5"), "--starter"),
        ("bot name superscript", lambda: bot_function("hint:\u00b2:2"), "unknown bot"),
        ("bot name Arabic-Indic digits", lambda: bot_function("hint:\u0661\u0662:2"), "unknown bot"),
        ("bot name timed Arabic-Indic", lambda: bot_function("hint@\u0661\u0662ms"), "unknown bot"),
        ("alphamu deeper than 8", lambda: bot_function("hint-alphamu-d9:1:1"), "depth N, 0 to 8"),
        ("openspiel max_rounds 2^70", lambda: check_params({"max_rounds": 2 ** 70}), "max_rounds"),
        ("svg_to_png path None", lambda: svg_to_png("<svg></svg>", None), "file path"),
        ("svg_to_png missing folder", lambda: svg_to_png("<svg></svg>", "/no/such/folder/x.png"),
         r"cannot write '/no/such/folder/x.png' \(No such file or directory\)$"),
        ("Beliefs(None)", lambda: Beliefs(None), "DealSampler"),
        ("Beliefs.evidence(0)", lambda: beliefs.evidence(0), "number of worlds"),
        ("world 99", lambda: ww.world(99), "candidate"),
        ("world -1", lambda: ww.world(-1), "candidate"),
        ("world True", lambda: ww.world(True), "candidate"),
        ("greedy_masks 5", lambda: ww.greedy_masks(5, 0), "candidate"),
        ("marginals None", lambda: ww.marginals(None), "DealSampler"),
        ("world_values greedy seat True", lambda: world_values(g, greedy_seats=[True]), "greedy seats"),
        ("Move(5).to_action", lambda: Move(5).to_action(0), "a move is"),
        ("Move play x .placement", lambda: Move("play", "x").placement, "a play is"),
        ("Move play x .to_action", lambda: Move("play", Tile.parse("1-2"), "x").to_action(0), "a play is"),
        ("SearchBudget from a superscript", lambda: SearchBudget.from_bot_name("hint:\u00b2:2") or _none(), "none"),
    ]


def _none():
    raise ValueError("none")


@pytest.mark.filterwarnings("ignore:selfplay.play_match is deprecated:DeprecationWarning")
def test_public_functions_refuse_what_they_cannot_take():
    for label, call, fragment in _bad_calls():
        with pytest.raises(ValueError, match=fragment) as info:
            call()
        assert "\n" not in str(info.value), label


def test_the_guards_leave_good_input_alone():
    from fiveup_solver.match import elo_of_score, score_of_elo
    from fiveup_solver.selfplay import wilson_interval
    from fiveup_solver.equity import equity_of_scores
    assert score_of_elo(1e6) == 1.0 and score_of_elo(-1e6) < 1e-20       # an Elo past any float: 1 or about 0
    assert round(elo_of_score(0.75), 1) == 190.8
    assert wilson_interval(2.5, 5)[0] < 0.5 < wilson_interval(2.5, 5)[1]   # a tie counts half a win
    assert abs(sum(equity_of_scores(2, [0, 0], side=s) for s in (0, 1)) - 1.0) < 0.01


def test_the_value_types_repr_makes_them_again():
    """repr(Tile) was Tile('3-4'), which Tile('3-4') refused with a TypeError; now each
    value type's repr is the call that makes it (as python-chess's Move.from_uci('e2e4'))."""
    from fiveup_solver.notation import Move, Port, Tile
    values = [Tile.parse("3-4"), Tile.parse("6-6"), Port.parse("4-4:lineB"), Move.parse("3-4@4-4:lineB"),
              Move.parse("6-6"), Move.parse("draw"), Move.draw(Tile.parse("1-2")), Move.parse("pass")]
    for game_move in Game(players=3, seed=2).legal_moves:
        values.append(game_move)
    namespace = {"Tile": Tile, "Port": Port, "Move": Move}
    for v in values:
        assert eval(repr(v), namespace) == v, repr(v)


def _seed_takers():
    """Every public function or command-line subcommand that takes a seed, called with one."""
    from fiveup_solver import equity_build, ladder, match, openspiel, selfplay
    from fiveup_solver.analysis import analyze
    from fiveup_solver.bench import run_playout_bench
    from fiveup_solver.exact import sampled_result
    from fiveup_solver.hint import hint
    from fiveup_solver.inference import DealSampler
    from fiveup_solver.rollout import rollout
    try:
        from .test_exact import late_positions
    except ImportError:  # tests/ is not a package: pytest puts tests/ on sys.path
        from test_exact import late_positions
    g = Game(players=2, seed=4)
    obs = g.observation(g.to_move)
    lg, lseat = late_positions(1, bone_max=2, hand_max=2, seed=3)[0]
    late = lg.observation(lseat)
    takers = {
        "Game": lambda s: Game(players=2, seed=s),
        "hint": lambda s: hint(obs, samples=2, seed=s),
        "rollout": lambda s: rollout(obs, rollouts=2, bot="greedy", seed=s),
        "sampled_result": lambda s: sampled_result(late, sample_worlds=4, seed=s),
        "DealSampler.sample": lambda s: DealSampler(obs).sample(1, seed=s),
        "analyze": lambda s: analyze(g.to_record(), seed=s),
        "play_game": lambda s: selfplay.play_game(2, s, ["greedy", "greedy"]),
        "play_pairs": lambda s: list(match.play_pairs(2, "greedy", "random", s, max_pairs=1)),
        "run_ladder": lambda s: ladder.run_ladder(2, ["level1", "random"], games=2, seed=s),
        "collect_rounds": lambda s: equity_build.collect_rounds(2, 1, seed=s),
        "run_playout_bench": lambda s: run_playout_bench(1, 1, seed=s),
        "make_resampler": lambda s: openspiel.make_resampler(s),
    }
    if importlib.util.find_spec("pettingzoo") is not None:
        from fiveup_solver import pettingzoo
        takers["pettingzoo reset"] = lambda s: pettingzoo.env(players=2).reset(seed=s)
    return takers


@pytest.mark.parametrize("name", sorted(_seed_takers()))
def test_every_seed_is_an_integer_from_0_to_2_64_minus_1(name):
    """One rule for every seed: 0 to 2^64 - 1. Before, the sampler took -2^63 to 2^64 - 1,
    where -1 dealt exactly what 2^64 - 1 dealt; the analysis and rollouts took 0 to 2^63 - 1;
    games, ladders and equity builds any integer."""
    from fiveup_solver import OptionError
    call = _seed_takers()[name]
    for bad in (-1, 2 ** 64, -(2 ** 63), True, "3", 1.0):
        with pytest.raises(OptionError, match="from 0 to 2\\^64-1"):
            call(bad)
    call(2 ** 64 - 1)       # the largest is taken
    call(0)


@pytest.mark.parametrize("argv", [["demo"], ["selfplay", "--games", "1"], ["hint", "--players", "2"],
                                  ["ladder", "--games", "2", "--entrants", "greedy,random"]])
@pytest.mark.parametrize("seed", ["-1", "18446744073709551616", "\u0663", "x"])
def test_every_seed_option_takes_0_to_2_64_minus_1(argv, seed, capsys):
    from fiveup_solver.cli import main
    assert main(argv + ["--seed", seed]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--seed" in err and "from 0 to 2^64-1" in err, err
