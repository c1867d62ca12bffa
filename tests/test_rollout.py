"""The rollout judge (fiveup_solver.rollout, analyze(judge="rollout")): paired worlds,
seeds, statistics, nothing hidden read, a planted blunder found, bad options refused."""
from __future__ import annotations

import json
import random
import statistics

import pytest

from fiveup_solver import Game, IllegalMoveError, OptionError
from fiveup_solver import rollout as rollout_module
from fiveup_solver.analysis import AnalysisBudget, analyze, judge_decision
from fiveup_solver.bots import choose
from fiveup_solver.cli import main
from fiveup_solver.rollout import playout, rollout, world_seed
from fiveup_solver.selfplay import play_game

try:
    from .test_analysis import planted_blunder
    from .test_hint import twin_game
except ImportError:
    from test_analysis import planted_blunder
    from test_hint import twin_game

ROLL = AnalysisBudget(samples=16, luck_samples=4, world_nodes=3_000, dd_nodes=100_000, judge="rollout",
                      rollouts=3, rollout_bot="greedy")


def position(players: int, seed: int, min_moves: int = 3):
    """A greedy game stopped where the seat to move has at least `min_moves` legal moves."""
    rng = random.Random(seed)
    g = Game(players=players, seed=seed)
    stop = rng.randrange(2, 10)
    while True:
        if len(g.legal_moves) >= min_moves and len(g.current.moves) >= stop:
            return g
        g.push(choose("greedy", g.observation(g.to_move), rng))
        if g.round_over:
            g = Game(players=players, seed=seed + 1000)


class Recorder:
    """Wraps rollout.playout: what each playout started from (the world's current
    round, its bots' seed) and what it returned."""

    def __init__(self, monkeypatch):
        self.calls = []
        monkeypatch.setattr(rollout_module, "playout", self)

    def __call__(self, game, move, seat, bot, bot_seed, horizon="game"):
        world = (tuple(tuple(h) for h in game.current.hands), tuple(game.current.boneyard), game.seed, bot_seed)
        result = playout(game, move, seat, bot, bot_seed, horizon)
        self.calls.append((world, move, result))
        return result


@pytest.mark.parametrize("players", [2, 3, 4])
def test_paired_worlds_and_statistics(players, monkeypatch):
    g = position(players, 40 + players)
    obs = g.observation(g.to_move)
    rec = Recorder(monkeypatch)
    r = rollout(obs, rollouts=5, bot="greedy", seed=7)
    k = len(r.moves)
    assert len(rec.calls) == 5 * k == r.playouts
    # world by world (played in order), every candidate starts from the same world and bot seeds
    worlds = [rec.calls[w * k:(w + 1) * k] for w in range(5)]
    for w, calls in enumerate(worlds):
        assert len({c[0] for c in calls}) == 1
        assert calls[0][0][2] == calls[0][0][3] == world_seed(7, w)
        assert {c[1] for c in calls} == {m.move for m in r.moves}
        # the world agrees with what the seat saw: its own dealt hand and the round's starter
        assert sorted(calls[0][0][0][obs.seat]) == sorted(g.current.hands[obs.seat])
    assert len({ws[0][0] for ws in worlds}) > 1                 # and the worlds differ from each other
    # means, standard errors and paired losses, recomputed with the statistics module
    per = {m: ([c[2][0] for ws in worlds for c in ws if c[1] == m], [c[2][1] for ws in worlds for c in ws if c[1] == m])
           for m in (x.move for x in r.moves)}
    best = r.moves[0]
    assert best.win == max(statistics.mean(per[m][0]) for m in per)
    for m in r.moves:
        wins, pts = per[m.move]
        assert m.win == pytest.approx(statistics.mean(wins)) and m.points == pytest.approx(statistics.mean(pts))
        assert m.win_stderr == pytest.approx(statistics.stdev(wins) / 5 ** 0.5)
        diff = [a - b for a, b in zip(per[best.move][0], wins)]
        assert m.win_loss == pytest.approx(statistics.mean(diff))
        assert m.win_loss_stderr == pytest.approx(statistics.stdev(diff) / 5 ** 0.5)
        assert all(p == 1000 or p == -1000 or p % 5 == 0 for p in pts) and set(wins) <= {0, 1}


def test_deterministic_per_seed_prefix_and_workers():
    g = position(2, 3)
    obs = g.observation(g.to_move)
    a = rollout(obs, rollouts=6, bot="greedy", seed=11).to_dict()
    b = rollout(obs, rollouts=6, bot="greedy", seed=11, workers=2).to_dict()
    c = rollout(obs, rollouts=6, bot="greedy", seed=12).to_dict()
    for d in (a, b, c):
        del d["seconds"]
    assert a == b
    assert a["moves"] != c["moves"]
    # only the candidates asked for; worlds do not depend on which candidates are played
    first = obs.legal_moves[0]
    one = rollout(obs, [first], rollouts=6, bot="greedy", seed=11)
    assert [m.move for m in one.moves] == [first] and one.playouts == 6
    same = next(m for m in a["moves"] if m["move"] == one.moves[0].to_dict()["move"])
    assert same["win"] == one.moves[0].win and same["points"] == one.moves[0].points


def test_equivalent_ports_are_played_once():
    # a double on the board with two equivalent open ports: one playout per canonical move
    from fiveup_solver import _core
    for seed in range(1, 300):
        g = position(2, seed, min_moves=2)
        canon = [_core.canonical_of(*m.placement) for m in g.legal_moves]
        if len(set(canon)) < len(canon) and len(set(canon)) >= 2:
            break
    else:
        raise AssertionError("no seeded position with equivalent ports: the test would check nothing")
    r = rollout(g.observation(g.to_move), rollouts=3, bot="greedy", seed=1)
    assert len(r.moves) == len(set(canon)) and r.playouts == 3 * len(set(canon))
    assert sorted(map(str, (m for c in r.moves for m in c.moves))) == sorted(map(str, g.legal_moves))


def test_no_peeking_twin_records(tmp_path, capsys):
    """Two full records the seat cannot tell apart (different hidden tiles) give
    identical rollout judgements, through the API and the command line."""
    rng = random.Random(5)
    for seed in range(70, 120):
        g = Game(players=2, seed=seed)
        seat = 1
        stop = rng.randrange(3, 10)
        while not g.round_over and not (len(g.current.moves) >= stop and g.to_move == seat
                                        and len(g.legal_moves) >= 2):
            g.push(choose("greedy", g.observation(g.to_move), random.Random(len(g.current.moves))))
        if g.round_over:
            continue
        twin = twin_game(g, seat, seed=3)
        if twin is None:
            continue
        move = g.legal_moves[0]
        for game in (g, twin):
            game.push(move)
        r, i = len(g.rounds) - 1, len(g.current.moves) - 1
        assert g.to_record() != twin.to_record()
        a = judge_decision(g.to_record(), r, i, ROLL, seed=2).to_dict()
        b = judge_decision(twin.to_record(), r, i, ROLL, seed=2).to_dict()
        assert a["playouts"] > 0
        strip = lambda d: {k: v for k, v in d.items() if not k.startswith("dd_")}  # noqa: E731
        assert strip(a) == strip(b)
        outs = []
        for k, game in enumerate((g, twin)):
            path = tmp_path / f"r{k}.json"
            path.write_text(json.dumps(game.to_record()))
            assert main(["analyze", str(path), "--seat", str(seat), "--samples", "8", "--luck-samples", "4",
                         "--dd-nodes", "0", "--judge", "rollout", "--rollouts", "3", "--rollout-bot", "greedy",
                         "--quiet", "--json"]) == 0
            d = json.loads(capsys.readouterr().out)
            del d["cost"]["seconds"]
            # the seat's own luck (the other seats' luck is valued from their own hands)
            outs.append([strip(x) for x in d["decisions"]] + [d["judge"], d["cost"],
                                                                [e for e in d["luck"] if e["seat"] == seat]])
        assert outs[0] == outs[1]
        return
    pytest.fail("no twin record found")


def test_planted_blunder_found_by_the_rollout_judge():
    record, (r, i, seat) = planted_blunder()
    for bot, n in (("greedy", 24), ("hint", 16)):          # the default bot too, at fewer playouts
        d = judge_decision(record, r, i, AnalysisBudget(samples=16, world_nodes=3_000, dd_nodes=0, judge="rollout",
                                                        rollouts=n, rollout_bot=bot), seed=1)
        assert not d.forced and d.seat == seat and d.playouts >= 16
        assert d.mark == "blunder", d
        # the best candidate reaches exactly 305 at once: the game is won in every world
        best = next(m for m in d.moves if m["move"] == d.best)
        assert best["win"] == 1.0 and best["points"] == 1000 and best["win_stderr"] == 0
        assert d.loss_win >= 15 and d.loss_win >= 2 * d.stderr_win
    # top:1 candidates: the played move and the search judge's best; the search's judgement kept
    d = judge_decision(record, r, i, AnalysisBudget(samples=16, world_nodes=3_000, dd_nodes=0, judge="rollout",
                                                    rollouts=4, rollout_bot="greedy", candidates="top:1"), seed=1)
    assert d.playouts == 8 and d.search["best"] == d.best and d.search["loss_win"] >= 15
    assert {m["move"] for m in d.moves} == {d.best, d.played}
    # the candidates' search is the search judge's own judgement of the decision (same budget and
    # seed), its worlds counted in the cost (a review: it read None, "nothing searched")
    alone = judge_decision(record, r, i, AnalysisBudget(samples=16, world_nodes=3_000, dd_nodes=0), seed=1)
    assert (d.search["worlds"], d.search["loss_win"], d.search["best"]) == (alone.worlds, alone.loss_win, alone.best)
    g = play_game(2, 12, ["greedy", "greedy"], max_rounds=1)
    a = analyze(g.to_record(), seats=[0], budget=AnalysisBudget(samples=8, world_nodes=2_000, dd_nodes=0,
                                                                luck_samples=2, judge="rollout", rollouts=2,
                                                                rollout_bot="greedy", candidates="top:1"), seed=1)
    judged = [x for x in a.decisions if not x.forced]
    assert a.cost["worlds"] == sum(x.search["worlds"] for x in judged) > 0 and a.cost["playouts"] > 0


def test_analysis_outputs_name_the_judge_and_its_cost(tmp_path, capsys):
    g = play_game(2, 12, ["greedy", "greedy"], max_rounds=1)
    a = analyze(g.to_record(), seats=[0], budget=ROLL, seed=4)
    b = analyze(g.to_record(), seats=[0], budget=ROLL, seed=4)
    da, db = a.to_dict(), b.to_dict()
    assert da["cost"].pop("seconds") >= 0 and db["cost"].pop("seconds") >= 0 and da == db
    judged = [d for d in a.decisions if not d.forced]
    assert da["judge"] == {"name": "rollout", "rollouts": 3, "bot": "greedy", "candidates": "all",
                           "horizon": "game", "worlds": "sampled uniformly from the seat's observation"}
    assert da["cost"]["judged"] == len(judged) > 0
    assert da["cost"]["playouts"] == sum(d.playouts for d in judged) >= 3 * 2 * len(judged)
    assert da["cost"]["worlds"] is None          # candidates "all": no decision searched (not 0 worlds)
    # one decision judged alone is the analysis's judgement of it (same seeds)
    last = judged[-1]
    assert judge_decision(g.to_record(), last.round, last.action, ROLL, seed=4) == last
    path = tmp_path / "g.json"
    path.write_text(json.dumps(g.to_record()))
    html = tmp_path / "r.html"
    args = ["analyze", str(path), "--seat", "0", "--samples", "8", "--luck-samples", "4", "--dd-nodes", "0",
            "--judge", "rollout", "--rollouts", "3", "--rollout-bot", "greedy", "--candidates", "top:2", "--quiet"]
    assert main(args + ["--html", str(html)]) == 0
    out = capsys.readouterr().out
    assert "rollout judge: 3 whole-game playouts per candidate (the played move and the search's best 2), " \
           "greedy in every seat" in out and "playouts, " in out
    assert 'id="judge"' in html.read_text() and "rollout judge" in html.read_text()
    assert main(args[:10] + ["--quiet", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["judge"]["name"] == "search" and d["judge"]["samples"] == 8 and d["cost"]["playouts"] is None
    x = next(x for x in d["decisions"] if not x["forced"])
    alone = judge_decision(g.to_record(), x["round"], x["action"],
                           AnalysisBudget(samples=8, luck_samples=4, dd_nodes=0), seed=0)
    assert alone.to_dict() == x


@pytest.mark.parametrize("bad, text", [
    ({"judge": "exhaustive"}, "judge must be"), ({"rollouts": 1}, "rollouts must be"),
    ({"rollouts": True}, "rollouts must be"), ({"rollouts": "8"}, "rollouts must be"),
    ({"rollout_bot": "nope"}, "rollout bot: unknown bot"), ({"candidates": "top:0"}, "candidates must be"),
    ({"candidates": "best"}, "candidates must be"), ({"workers": 0}, "workers must be"),
    ({"rollout_horizon": "turn"}, "horizon must be one of game, round"), ({"rollout_horizon": None}, "horizon must be")])
def test_bad_budget_options(bad, text):
    g = play_game(2, 12, ["greedy", "greedy"], max_rounds=1)
    with pytest.raises(OptionError, match=text) as e:
        analyze(g.to_record(), budget=AnalysisBudget(judge="rollout", **{k: v for k, v in bad.items()
                                                                          if k != "judge"})
                if "judge" not in bad else AnalysisBudget(**bad))
    assert "\n" not in str(e.value)


def test_bad_rollout_calls():
    g = position(2, 3)
    obs = g.observation(g.to_move)
    other = g.observation(1 - g.to_move)
    with pytest.raises(IllegalMoveError, match="not to move"):
        rollout(other, rollouts=2, bot="greedy")
    with pytest.raises(OptionError, match="not a legal move"):
        rollout(obs, ["2-2"], rollouts=2, bot="greedy")
    with pytest.raises(OptionError, match="no candidate"):
        rollout(obs, [], rollouts=2, bot="greedy")
    # a candidate in record notation is its Move (a review: a legal move as text was "not legal")
    text = str(obs.legal_moves[0])
    assert rollout(obs, [text], rollouts=2, bot="greedy", seed=3).moves == rollout(
        obs, [obs.legal_moves[0]], rollouts=2, bot="greedy", seed=3).moves
    with pytest.raises(OptionError, match=r"^candidate '9-9':"):
        rollout(obs, ["9-9"], rollouts=2, bot="greedy")
    with pytest.raises(OptionError, match="Observation"):
        rollout(g, rollouts=2)
    import dataclasses
    from fiveup_solver import InconsistentObservationError
    for tampered in (obs.legal_moves[:-1], obs.legal_moves + ("x",), ("pass",)):
        with pytest.raises(InconsistentObservationError, match="legal_moves|legal move"):
            rollout(dataclasses.replace(obs, legal_moves=tampered), rollouts=2, bot="greedy")
    # a move dropped from legal_moves (its end sum too): the replay's legal moves disagree
    with pytest.raises(InconsistentObservationError, match="legal_moves are not the position's"):
        rollout(dataclasses.replace(obs, legal_moves=obs.legal_moves[:-1], end_sums_after=obs.end_sums_after[:-1]),
                rollouts=2, bot="greedy")
    with pytest.raises(InconsistentObservationError):
        rollout(dataclasses.replace(obs, scores=(1, 2, 3)), rollouts=2, bot="greedy")
    with pytest.raises(OptionError, match="seed"):
        rollout(obs, rollouts=2, bot="greedy", seed=-1)
    record = g.to_record()
    with pytest.raises(OptionError, match="no action"):
        judge_decision(record, 0, 99, ROLL)
    with pytest.raises(OptionError, match="round"):
        judge_decision(record, 5, 0, ROLL)


def test_cli_bad_options(tmp_path, capsys):
    g = play_game(2, 12, ["greedy", "greedy"], max_rounds=1)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(g.to_record()))
    base = ["analyze", str(path), "--quiet"]
    for bad, text in ((["--rollouts", "8"], "--rollouts is an option of the rollout judge"),
                      (["--rollout-bot", "greedy"], "--rollout-bot is an option of the rollout judge"),
                      (["--judge", "rollout", "--rollouts", "1"], "rollouts must be"),
                      (["--judge", "rollout", "--rollouts", "x"], "--rollouts"),
                      (["--judge", "rollout", "--rollout-bot", "nope"], "unknown bot"),
                      (["--judge", "rollout", "--candidates", "top:x"], "candidates must be"),
                      (["--judge", "rollout", "--workers", "0"], "workers must be"),
                      (["--judge", "playout"], "--judge"),
                      (["--method", "mcts"], "--method"),
                      (["--judge", "rollout", "--method", "expectimax"], "--method is an option of the search judge"),
                      # (a review: taken, and the judgement then hung on the machine's load, not on the seed)
                      (["--judge", "rollout", "--rollout-bot", "hint@50ms"],
                       "rollout bot 'hint@50ms' searches for a time: playouts must be the seed's alone")):
        assert main(base + bad) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and text in err and err.count("\n") == 1, (bad, err)


def test_weird_option_values_are_one_line_option_errors():
    from fiveup_solver.rollout import check_rollout_options
    good = {"rollouts": 4, "bot": "greedy", "workers": 1, "candidates": "all"}
    weird = {"rollouts": [2.5, None, -3, 10 ** 9, "4", [4]], "bot": [None, 5, "", "hint:0:0", "greedy,random", "x" * 500],
             "workers": ["2", 0, 65, 1.0, None], "candidates": [None, ["all"], "top:", "top:65", "top:-1", "ALL", 3]}
    for name, values in weird.items():
        for v in values:
            with pytest.raises(OptionError) as e:
                check_rollout_options(**dict(good, **{name: v}))
            assert "\n" not in str(e.value) and len(str(e.value)) <= 300, (name, v)
    check_rollout_options(**good)
    check_rollout_options(4, "hint:8:2000", 2, "top:3")


# ---------------------------------------------------------------- the round horizon
def _play_round_by_hand(game, move, seat, bot_seed):
    """The round of a round-horizon playout played here with the module's bot generators
    (greedy), and its value worked out from the rules: 1 or 0 when an exact 305 ended the
    game; else the race-equity table at the next round's start, whose starter is the seat
    that emptied its hand (RULES.md 2.5), or drawn after a block (D1: None)."""
    from fiveup_solver import _core
    from fiveup_solver.equity import win_probabilities
    n = game.players
    side = _core.side_of_seat(n, seat)
    rngs = [random.Random(f"fiveup-rollout-bot/{bot_seed}/{s}") for s in range(n)]
    game.push(move)
    while not game.round_over:
        s = game.to_move
        game.push(choose("greedy", game.observation(s), rngs[s]))
    if 305 in [game.scores[x] for x in range(_core.sides_of(n))]:
        winner = [game.scores[x] for x in range(_core.sides_of(n))].index(305)
        return ("ended", 1.0 if winner == side else 0.0)
    emptied = [x for x in range(n) if len(game.hand(x)) == 0]
    starter = emptied[0] if emptied else None
    return ("on", win_probabilities(n, list(game.scores), starter)[side])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_round_horizon_playout_stops_at_the_round_and_reads_the_table(players):
    kinds = set()
    for seed in range(6):
        g = position(players, 300 + 17 * seed + players, min_moves=2)
        seat = g.to_move
        for m in g.legal_moves[:2]:
            v_round, pts_round, acts_round, unfinished = playout(g.copy(), m, seat, "greedy", 5 + seed, "round")
            v_game, pts_game, acts_game, _ = playout(g.copy(), m, seat, "greedy", 5 + seed, "game")
            kind, expected = _play_round_by_hand(g.copy(), m, seat, 5 + seed)
            kinds.add(kind)
            assert v_round == pytest.approx(expected, abs=1e-12)
            assert pts_round == pts_game and unfinished == 0 and acts_round <= acts_game
            if kind == "ended":
                assert v_round == v_game and acts_round == acts_game
    # late-race positions too: a greedy game near 305, so that some rounds end the game
    for seed in range(40):
        g = Game(players=players, seed=900 + seed, scores=[280] + [290] * (_sides(players) - 1))
        if len(g.legal_moves) < 1:
            continue
        kind, expected = _play_round_by_hand(g.copy(), g.legal_moves[0], g.to_move, seed)
        v_round = playout(g.copy(), g.legal_moves[0], g.to_move, "greedy", seed, "round")[0]
        assert v_round == pytest.approx(expected, abs=1e-12)
        kinds.add(kind)
    assert kinds == {"ended", "on"}     # both branches were exercised


def _sides(players):
    from fiveup_solver import _core
    return _core.sides_of(players)


def test_the_round_horizon_in_the_rollout_and_the_analysis(tmp_path, capsys):
    g = position(2, 21)
    obs = g.observation(g.to_move)
    r = rollout(obs, rollouts=4, bot="greedy", seed=3, horizon="round")
    whole = rollout(obs, rollouts=4, bot="greedy", seed=3)
    assert r.horizon == "round" and r.to_dict()["horizon"] == "round" and whole.horizon == "game"
    # the same worlds and the same round: the points currency is the round's under both horizons
    assert {m.move: m.points for m in r.moves} == {m.move: m.points for m in whole.moves}
    assert all(0.0 <= m.win <= 1.0 for m in r.moves) and r.actions < whole.actions
    game = play_game(2, 12, ["greedy", "greedy"], max_rounds=1)
    budget = AnalysisBudget(samples=16, luck_samples=4, world_nodes=3_000, dd_nodes=0, judge="rollout",
                            rollouts=3, rollout_bot="greedy", rollout_horizon="round")
    a = analyze(game.to_record(), seats=[0], budget=budget, seed=4)
    assert a.to_dict()["judge"]["horizon"] == "round"
    path = tmp_path / "g.json"
    path.write_text(json.dumps(game.to_record()))
    args = ["analyze", str(path), "--seat", "0", "--samples", "8", "--luck-samples", "4", "--dd-nodes", "0",
            "--judge", "rollout", "--rollouts", "3", "--rollout-bot", "greedy", "--rollout-horizon", "round",
            "--quiet"]
    assert main(args) == 0
    assert "rollout judge: 3 playouts to the round's end (valued by the race-equity table) per candidate" \
        in capsys.readouterr().out
    assert main(args[:10] + ["--rollout-horizon", "round", "--quiet"]) == 2
    assert "--rollout-horizon is an option of the rollout judge" in capsys.readouterr().err
    with pytest.raises(OptionError, match="horizon must be one of game, round, not 'turn'"):
        rollout(obs, rollouts=2, bot="greedy", horizon="turn")
    with pytest.raises(OptionError, match="horizon must be one of game, round, not 5"):
        playout(g.copy(), g.legal_moves[0], g.to_move, "greedy", 1, 5)


def test_both_losses_are_against_the_best_move_as_a_hint_gives_them():
    """The points loss was measured against the move with the most points, not the best
    one shown: an analysis read 'played X, best X, loss 15 pts'."""
    from fiveup_solver import Game
    from fiveup_solver.rollout import rollout
    seen = 0
    for seed in range(12):
        g = Game(players=3, seed=seed)
        r = rollout(g.observation(g.to_move), rollouts=6, bot="greedy", seed=seed, horizon="round")
        best = next(m for m in r.moves if m.move == r.best)
        assert best.win_loss == 0 and best.points_loss == 0
        for m in r.moves:
            assert m.points_loss == pytest.approx(best.points - m.points, abs=1e-9)
            seen += 1
    assert seen > 12
