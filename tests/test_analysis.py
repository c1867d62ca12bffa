"""Post-game analysis: planted errors are found, self-play is clean, nothing is
peeked at, views and bad options are handled, the command line reads it."""
from __future__ import annotations

import dataclasses
import json
import random
import re

import pytest

from fiveup_solver import Game, OptionError, RecordError
from fiveup_solver import _core
from fiveup_solver.analysis import AnalysisBudget, accuracy, analyze, mark_of
from fiveup_solver.bots import choose
from fiveup_solver.cli import main
from fiveup_solver.notation import TARGET_RAW
from fiveup_solver.selfplay import play_game

try:
    from .test_hint import twin_game
except ImportError:
    from test_hint import twin_game

FAST = AnalysisBudget(samples=24, luck_samples=8, world_nodes=5_000, dd_nodes=300_000)


def _exact_hit(game, move) -> bool:
    """`move` makes the mover's side reach exactly 305 with an ordinary placement."""
    core = game.current.core
    if move.kind != "play" or len(game.hand(game.to_move)) == 1:
        return False
    side = core.side_of(game.to_move)
    after = game.copy()
    events = after.push(move)
    return after.game_over and any(e.accepted and e.side == side for e in events)


def planted_game(plant, players=2, seeds=range(1, 400)):
    """A greedy game in which, once, ``plant(game, legal)`` replaces greedy's move (it
    returns a move, or None to leave greedy's); then greedy on to the end.
    (record, (round, action, seat)) of the first seed whose game ends with a plant."""
    for seed in seeds:
        game = Game(players=players, seed=seed)
        rngs = [random.Random(f"{seed}/{s}") for s in range(players)]
        planted = None
        while True:
            if game.round_over:
                if game.game_over or len(game.rounds) >= 60:
                    break
                game.next_round()
            seat = game.to_move
            move = choose("greedy", game.observation(seat), rngs[seat])
            if planted is None and len(game.legal_moves) > 1:
                other = plant(game, game.legal_moves)
                if other is not None:
                    planted = (len(game.rounds) - 1, len(game.current.moves), seat)
                    move = other
            game.push(move)
        if planted and game.game_over:
            return game.to_record(), planted
    raise AssertionError("no planted game found")


def planted_blunder():
    """The mover could reach exactly 305 and plays another move, while another side
    is near 305 too (a close race)."""
    def plant(game, legal):
        seat = game.to_move
        close = max(x for k, x in enumerate(game.scores) if k != game.current.core.side_of(seat)) >= 260
        others = [m for m in legal if not _exact_hit(game, m)]
        if close and others and len(others) < len(legal):
            return others[0]
        return None
    return planted_game(plant)


def _lets_opponent_win(game, move, opp) -> bool:
    after = game.copy()
    after.push(move)
    if after.round_over or after.to_move != opp:
        return False
    for reply in after.legal_moves:
        if reply.kind == "play":
            last = after.copy()
            last.push(reply)
            if last.game_over and last.winner == last.current.core.side_of(opp):
                return True
    return False


def planted_gift():
    """With the boneyard empty (the seat can tell the other hand from what it has
    seen), the mover plays a tile that lets the other side score exactly its last
    20, when another move would not."""
    def plant(game, legal):
        opp = 1 - game.to_move
        if game.scores[opp] != TARGET_RAW - 20 or game.current.core.boneyard_size != 0:
            return None
        gifts = [m for m in legal if _lets_opponent_win(game, m, opp)]
        return gifts[0] if gifts and len(gifts) < len(legal) else None
    return planted_game(plant)


@pytest.mark.parametrize("method", ["pimc", "expectimax", "alphamu"])
def test_giving_the_opponent_its_last_20_is_a_blunder(method):
    record, (r, i, seat) = planted_gift()
    a = analyze(record, seats=[seat], budget=dataclasses.replace(FAST, method=method), seed=1)
    assert a.judge["method"] == method
    d = next(d for d in a.decisions if (d.round, d.action) == (r, i))
    assert d.mark == "blunder", d
    # with the boneyard empty the seat knows every hand: under uniform beliefs (every
    # other seat a perfect player) both judgements agree. Model beliefs may read the
    # greedy opponent as greedy, whose ties are a coin: then the worlds disagree on it.
    u = analyze(record, seats=[seat], budget=dataclasses.replace(FAST, method=method, beliefs="uniform"), seed=1)
    d = next(d for d in u.decisions if (d.round, d.action) == (r, i))
    assert d.mark == "blunder", d
    assert d.loss_win == pytest.approx(d.dd_loss_win, abs=1e-6) and d.stderr_win == 0


def test_marks_and_accuracy_by_hand():
    assert mark_of(15.0, 7.4) == "blunder" and mark_of(15.0, 7.6) is None
    assert mark_of(10.0, 1.0) == "mistake" and mark_of(4.94, 0.1) is None
    # decided on the numbers as shown (one decimal): 4.99 reads 5.0, an inaccuracy
    assert mark_of(4.99, 0.1) == "inaccuracy"
    # lichess: 103.1668 * exp(-0.04354 * 10) - 3.1669 = 63.67...
    assert accuracy(10.0) == pytest.approx(103.1668 * 2.718281828 ** (-0.4354) - 3.1669)
    assert accuracy(0.0) == pytest.approx(100.0, abs=1e-3) and accuracy(200.0) == 0.0


@pytest.mark.parametrize("method", ["pimc", "expectimax"])
def test_throwing_away_an_exact_305_is_a_blunder(method):
    record, (r, i, seat) = planted_blunder()
    a = analyze(record, seats=[seat], budget=dataclasses.replace(FAST, method=method), seed=1)
    d = next(d for d in a.decisions if (d.round, d.action) == (r, i))
    assert d.seat == seat and not d.forced
    assert d.mark == "blunder", d
    assert d.loss_win >= 15 and d.loss_win >= 2 * d.stderr_win
    # all hands known, the exact 305 was there too
    assert d.dd_best is not None and d.played not in d.dd_best and d.dd_loss_win >= 15
    # the best move is an exact hit
    s = a.seats[seat]
    assert s.marks["blunder"] >= 1 and s.decisions >= 1 and 0 <= s.accuracy <= 100


def test_greedy_shows_more_marks_than_the_hint_bot():
    # one game is too noisy a witness (luck decides which decisions matter): two games
    budget = AnalysisBudget(samples=32, luck_samples=8, world_nodes=10_000, dd_nodes=300_000)
    marks, loss = [0, 0], [0.0, 0.0]
    for seed in (6, 7):
        g = play_game(2, seed, ["hint", "greedy"])
        a = analyze(g.to_record(), budget=budget, seed=2)
        for seat in (0, 1):
            marks[seat] += sum(a.seats[seat].marks.values())
            loss[seat] += a.seats[seat].loss_win
        # luck: own chance events; 2 sides: the net luck of one is minus the other's
        assert a.seats[0].luck_win_net == pytest.approx(-a.seats[1].luck_win_net, abs=1e-6)
        for s in a.seats.values():
            if s.result is not None:
                assert s.luck_adjusted == pytest.approx(s.result - s.luck_win_net)
    assert marks[1] > marks[0] and loss[1] > loss[0], (marks, loss)


def test_hint_bot_against_itself_has_few_marks():
    g = play_game(2, 8, ["hint", "hint"])
    a = analyze(g.to_record(), budget=FAST, seed=3)
    for s in a.seats.values():
        assert s.error_rate <= 0.1, s
        assert s.marks["blunder"] == 0


def test_analysis_is_deterministic_and_json():
    g = play_game(2, 11, ["greedy", "random"], max_rounds=2)
    a = analyze(g.to_record(), budget=FAST, seed=4).to_dict()
    b = analyze(g.to_record(), budget=FAST, seed=4).to_dict()
    assert a["cost"].pop("seconds") > 0 and b["cost"].pop("seconds") > 0    # the wall time: not reproducible
    assert a == b
    # 24 worlds: the default first stage is every world (the fixed judge, no stages)
    assert a["judge"] == {"name": "search", "method": "pimc", "samples": 24, "world_nodes": 5_000, "beliefs": "model",
                          "stages": None}
    assert a["cost"] == {"judged": sum(1 for d in a["decisions"] if not d["forced"]), "playouts": None,
                         "worlds": sum(d["worlds"] for d in a["decisions"] if not d["forced"])}
    json.dumps(a)
    assert set(a["seats"]) == {"0", "1"}
    for s in a["seats"].values():
        assert {"decisions", "loss_win", "loss_points", "accuracy", "marks", "luck_win", "result"} <= set(s)
    for d in a["decisions"]:
        assert {"round", "action", "seat", "played", "best", "forced", "loss_win", "loss_points", "stderr_win",
                "mark", "dd_best", "dd_loss_points"} <= set(d)
        if not d["forced"]:
            assert d["loss_win"] >= 0 and d["best"] is not None
            # every move's value with its standard errors, as the rollout judge gives them (the
            # analysis board shows win % with its +-)
            assert all({"move", "win", "points", "win_stderr", "points_stderr"} <= set(m) for m in d["moves"])
    # every action of the record appears once, in order
    assert [(d["round"], d["action"]) for d in a["decisions"]] == [
        (r, i) for r, rnd in enumerate(g.to_record()["rounds"]) for i in range(len(rnd["actions"]))]


def test_no_peeking_twin_records():
    rng = random.Random(9)
    for seed in range(30, 60):
        g = Game(players=2, seed=seed)
        seat = 1
        stop = rng.randrange(4, 12)
        while not g.round_over and len(g.current.moves) < stop:
            g.push(choose("greedy", g.observation(g.to_move), random.Random(len(g.current.moves))))
        if g.round_over:
            continue
        twin = twin_game(g, seat, seed=3)
        if twin is None:
            continue
        a = analyze(g.to_record(), seats=[seat], budget=FAST, seed=5)
        b = analyze(twin.to_record(), seats=[seat], budget=FAST, seed=5)
        strip = lambda d: {k: v for k, v in d.to_dict().items() if not k.startswith("dd_")}  # noqa: E731
        assert [strip(d) for d in a.decisions] == [strip(d) for d in b.decisions]
        # the seat's own luck events (the other seats' luck is valued too, from their own hands)
        own = lambda an: [e.to_dict() for e in an.luck if e.seat == seat]  # noqa: E731
        assert own(a) == own(b) and own(a)
        assert a.seats[seat].luck_win == b.seats[seat].luck_win
        return
    pytest.fail("no twin record found")


def test_views_and_seat_options():
    g = play_game(2, 12, ["greedy", "greedy"], max_rounds=1)
    view = g.to_record(view=1)
    a = analyze(view, budget=FAST, seed=1)
    assert list(a.seats) == [1] and a.view == 1
    assert all(d.seat == 1 and d.dd_best is None for d in a.decisions)
    with pytest.raises(OptionError, match="seat 1's view"):
        analyze(view, seats=[0], budget=FAST)
    for bad in ([5], ["0"], [], [True]):
        with pytest.raises(OptionError):
            analyze(g.to_record(), seats=bad, budget=FAST)
    with pytest.raises(OptionError, match="samples"):
        analyze(g.to_record(), budget=AnalysisBudget(samples=1))
    with pytest.raises(RecordError):
        analyze({"format": "nope"})


def test_cli_analyze(tmp_path, capsys):
    record, (r, i, seat) = planted_blunder()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    args = ["analyze", str(path), "--samples", "24", "--luck-samples", "8", "--dd-nodes", "300000", "--quiet"]
    assert main(args + ["--seat", str(seat)]) == 0
    out = capsys.readouterr().out
    assert record["seats"] == ["seat0", "seat1"]       # Game's default names: not repeated after the number
    assert f"round {r} action {i} seat {seat}: blunder" in out and "accuracy" in out
    # the marked decision's points loss with its standard error, and what its points are
    line = next(x for x in out.splitlines() if f"round {r} action {i} seat {seat}: blunder" in x)
    assert re.search(r"win-%, -?\d+ \+- \d+ pts", line), line
    assert "pts: raw points of the round (5 raw = 1 display point)" in out
    assert main(args + ["--json", "--plot", str(tmp_path / "w.png")]) == 0
    d = json.loads(capsys.readouterr().out)
    assert set(d["seats"]) == {"0", "1"}
    assert (tmp_path / "w.png").read_bytes()[:4] == b"\x89PNG"
    for bad, text in ([["--seat", "7"], "seat"], [["--samples", "1"], "samples"], [["--plot", "x.gif"], ".png"]):
        assert main(args + bad) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and text in err and err.count("\n") == 1


def test_html_report_is_well_formed_with_graph_and_boards(tmp_path, capsys):
    import xml.etree.ElementTree as ET
    record, (r, i, seat) = planted_blunder()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    html_path = tmp_path / "report.html"
    args = ["analyze", str(path), "--samples", "24", "--luck-samples", "8", "--dd-nodes", "300000", "--quiet",
            "--html", str(html_path), "--json"]
    assert main(args) == 0
    d = json.loads(capsys.readouterr().out)
    marked = [x for x in d["decisions"] if x["mark"]]
    assert marked
    text = html_path.read_text()
    assert text.startswith("<!DOCTYPE html>")
    root = ET.fromstring(text[len("<!DOCTYPE html>"):])          # well-formed: every tag closed
    ns = "{http://www.w3.org/2000/svg}"
    graphs = [e for e in root.iter() if e.get("id") == "win-graph"]
    assert len(graphs) == 1 and graphs[0].tag in ("svg", ns + "svg")
    figures = [e for e in root.iter("figure") if e.get("class") == "board"]
    assert len(figures) == len(marked)
    assert {f.get("id") for f in figures} == {f"d{x['round']}-{x['action']}" for x in marked}
    for f in figures:
        assert any(e.tag in ("svg", ns + "svg") for e in f.iter())
    assert f'id="d{r}-{i}"' in text


def test_past_rounds_from_one_replay_equal_past_observations():
    """The analysis reads every seat's earlier rounds from one replay of the record;
    they must be the views ``beliefs.past_observations`` gives (a replay per round)."""
    from fiveup_solver.analysis import _Past
    from fiveup_solver.beliefs import past_observations
    for players, seed in ((2, 5), (3, 6), (4, 7)):
        g = play_game(players, seed, ["greedy"] * players)
        assert len(g.rounds) >= 3
        for record, seats in ((g.to_record(), range(players)), (g.to_record(view=1), (1,))):
            ends = _Past(record, AnalysisBudget(beliefs="model")).round_ends()
            assert sorted(ends) == sorted((s, q) for s in seats for q in range(len(g.rounds)))
            for s in seats:
                assert [ends[(s, q)] for q in range(len(g.rounds))] == past_observations(record, s, len(g.rounds))


def test_the_search_judges_method_is_checked():
    record, _ = planted_gift()
    with pytest.raises(OptionError, match="method must be one of pimc, expectimax, alphamu, not 'mcts'"):
        analyze(record, budget=AnalysisBudget(method="mcts"))
    three = play_game(3, 2, ["greedy"] * 3, max_rounds=1).to_record()
    with pytest.raises(OptionError, match="analysis method alphamu judges 2-player games, not 3-player ones"):
        analyze(three, budget=AnalysisBudget(method="alphamu"))
    AnalysisBudget(method="alphamu", judge="rollout").check().check_players(3)   # the rollout judge has no method


def test_judge_decision_judges_as_analyze_with_three_players():
    """judge_decision gives a decision exactly as analyze does with the same budget and
    seed, its double-dummy judgement too: with 3 players both use the budget's search
    (max^n by default; judge_decision used the paranoid search, and 4 of this game's 9
    decisions differed). (The game starts from 0: a record cannot hold other starting scores.)"""
    from fiveup_solver.analysis import judge_decision
    g = Game(players=3, seed=21)
    rng = random.Random(2)
    while not g.round_over:
        g.push(rng.choice(g.legal_moves))
    rec = g.to_record()
    budget = AnalysisBudget(samples=4, min_samples=4, world_nodes=500, luck_samples=2, threads=1)
    judged = [d for d in analyze(rec, seats=[0, 1, 2], budget=budget, seed=1).decisions if not d.forced]
    assert len(judged) >= 5
    for d in judged:
        assert judge_decision(rec, d.round, d.action, budget=budget, seed=1) == d


def test_a_node_limited_double_dummy_judgement_is_the_same_whichever_seats_are_analysed():
    """analyze kept one double-dummy Solver for the whole game, and its table carried one
    decision's solve into the next: whether a solve finished within --dd-nodes depended
    on the decisions judged before it (a review: with --seat 3, a decision solved that
    the whole analysis left unsolved). Each solve is now a new Solver's (Solver.forget):
    the same judgement alone, in the whole analysis, and from judge_decision."""
    from fiveup_solver.analysis import judge_decision
    rec = play_game(4, 1, ["greedy"] * 4, max_rounds=1).to_record()
    budget = AnalysisBudget(samples=4, min_samples=4, world_nodes=500, luck_samples=2, threads=1, dd_nodes=6000)
    whole = [d for d in analyze(rec, budget=budget, seed=1).decisions if not d.forced]
    # the limit decides: some solves finish within it and some do not
    assert any(d.dd_best is None for d in whole) and any(d.dd_best is not None for d in whole)
    for seat in range(4):
        alone = [d for d in analyze(rec, seats=[seat], budget=budget, seed=1).decisions if not d.forced]
        assert [(d.dd_best, d.dd_loss_win) for d in alone] == [(d.dd_best, d.dd_loss_win) for d in whole
                                                                 if d.seat == seat]
    for d in whole:
        assert judge_decision(rec, d.round, d.action, budget=budget, seed=1).dd_best == d.dd_best


def test_analyze_refuses_a_budget_or_progress_callback_of_another_kind():
    rec = Game(players=2, seed=3).to_record()
    from fiveup_solver.analysis import judge_decision
    for bad in (5, "fast", {"samples": 4}):
        with pytest.raises(OptionError, match="AnalysisBudget"):
            analyze(rec, budget=bad)
        with pytest.raises(OptionError, match="AnalysisBudget"):
            judge_decision(rec, 0, 0, budget=bad)
    with pytest.raises(OptionError, match="on_progress"):
        analyze(rec, on_progress=5)


def _with_illegal_play(seed: int = 7):
    """A 2-player record whose first decision with a choice (a play by a seat with 2 or
    more legal moves) plays a tile of the other seat's hand instead, and its place."""
    g = play_game(2, seed, ["greedy", "random"])
    record = g.to_record()
    replay = Game(players=2, deal=False)
    rnd = record["rounds"][0]
    from fiveup_solver.notation import Tile
    replay.start_round([[Tile.parse(t) for t in h] for h in rnd["hands"]],
                       [Tile.parse(t) for t in rnd["boneyard"]], rnd["starter"])
    from fiveup_solver.game import action_to_move
    for i, act in enumerate(rnd["actions"]):
        if "play" in act and "at" in act and len(replay.legal_moves) >= 2:
            other = rnd["hands"][1 - act["seat"]]
            foreign = next(t for t in other if t not in rnd["hands"][act["seat"]])
            rnd["actions"][i] = {"seat": act["seat"], "play": foreign, "at": act["at"]}
            return record, i
        replay.push(action_to_move(act))
    raise AssertionError("no decision with a choice in round 0")


def test_an_illegal_action_is_a_record_error_before_anything_is_judged(tmp_path, capsys):
    """analyze judged each action before its replay checked it: an illegal play by an
    analysed seat with a choice of moves raised StopIteration (a traceback, exit 1)."""
    from fiveup_solver.analysis import judge_decision
    record, i = _with_illegal_play()
    budget = AnalysisBudget(samples=2, luck_samples=1, dd_nodes=0)
    where = f"round 0 action {i}: "
    with pytest.raises(RecordError, match=where):
        analyze(record, budget=budget)
    with pytest.raises(RecordError, match=where):
        judge_decision(record, 0, i, budget=budget)
    for judge in ([], ["--judge", "rollout", "--rollouts", "2"]):
        path = tmp_path / "illegal.json"
        path.write_text(json.dumps(record))
        assert main(["analyze", str(path), "--samples", "2", "--quiet", *judge]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith(f"error: {path}: {where}"), err
    # the first action by the wrong seat: said with its round and action, as replay says it
    record, _ = _with_illegal_play()
    first = record["rounds"][0]["actions"][0]
    first["seat"] = 1 - first["seat"]
    with pytest.raises(RecordError, match="round 0 action 0: seat .* acted but seat .* is to move"):
        analyze(record, seats=[first["seat"]], budget=budget)


def test_a_view_writes_other_seats_draws_as_null():
    """RECORD.md: in a seat's view other seats' draws are {"seat": s, "draw": null}; a named
    one was checked against an invented boneyard ("not the boneyard's next tile")."""
    from fiveup_solver.record import check_record
    for seed in range(20):
        g = play_game(2, seed, ["greedy", "greedy"])
        view = g.to_record(view=0)
        for r, rnd in enumerate(view["rounds"]):
            for i, act in enumerate(rnd["actions"]):
                if act.get("seat") == 1 and "draw" in act:
                    assert act["draw"] is None
                    act["draw"] = "6-6"
                    with pytest.raises(RecordError, match=f"round {r} action {i}: seat 0's view writes seat 1's "
                                                          "draw as null, not '6-6'"):
                        check_record(view)
                    return
    raise AssertionError("no draw by seat 1 in 20 games")


def test_net_luck_is_the_same_whichever_seats_are_analysed():
    """A seat's net luck is its side's luck less the other sides' mean: analysing one seat
    (as a player reviews their own game) gave the other sides no luck at all, so the
    same seat read -13.6 alone and -48.3 in the whole analysis (4 players)."""
    for players, seed in ((2, 3), (4, 5)):
        g = play_game(players, seed, ["greedy"] * players)
        record = g.to_record()
        whole = analyze(record, budget=FAST, seed=1)
        for seat in range(players):
            alone = analyze(record, seats=[seat], budget=FAST, seed=1)
            assert alone.seats[seat].luck_win_net == whole.seats[seat].luck_win_net
            assert alone.seats[seat].luck_adjusted == whole.seats[seat].luck_adjusted
            assert sorted(e.to_dict().items().__repr__() for e in alone.luck) == \
                sorted(e.to_dict().items().__repr__() for e in whole.luck)
        # net luck by hand from the luck events: own side's sum less the other sides' mean
        sides = 2
        side_of = (lambda s: s % 2) if players == 4 else (lambda s: s)
        per_side = [sum(e.luck for e in whole.luck if side_of(e.seat) == x) for x in range(sides)]
        assert whole.seats[0].luck_win_net == pytest.approx(per_side[0] - per_side[1], abs=2e-3)
        # a seat's view knows its own luck only: no net luck, no luck-adjusted result
        view = analyze(g.to_record(view=0), budget=FAST, seed=1)
        assert view.seats[0].luck_win_net is None and view.seats[0].luck_adjusted is None
        assert view.seats[0].luck_win == whole.seats[0].luck_win


def test_a_seats_view_plots_its_own_sides_chance(tmp_path):
    """A review: the plot of seat 1's view showed side 0's curve, every point 1 - what the
    judge gave seat 1. Its own side's chance is plotted now."""
    pytest.importorskip("matplotlib")
    import io

    import matplotlib
    from fiveup_solver.analysis import plot_win_probability
    g = play_game(2, 12, ["greedy", "greedy"], max_rounds=1)
    a = analyze(g.to_record(view=1), budget=FAST, seed=1)
    out = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none"}):      # text as text, to read it back
        plot_win_probability(a, out, fmt="svg")
    svg = out.getvalue()
    assert "side 1&#x27;s win probability (%)" in svg or "side 1's win probability (%)" in svg
    assert "side 0" not in svg


def test_the_plot_of_few_decisions_and_of_a_three_player_view(tmp_path):
    """A review: with 0 or 1 judged decisions the x axis read -0.045 .. 0.045; a 3-player
    view's legend listed all three sides where only its own has a line."""
    pytest.importorskip("matplotlib")
    import io
    import re

    import matplotlib
    from fiveup_solver.analysis import plot_win_probability, win_curve

    def svg_of(a):
        out = io.StringIO()
        with matplotlib.rc_context({"svg.fonttype": "none"}):
            plot_win_probability(a, out, fmt="svg")
        return out.getvalue()
    game = play_game(2, 12, ["greedy", "greedy"], max_rounds=1)
    record = game.to_record()
    record["rounds"][0]["actions"] = record["rounds"][0]["actions"][:1]     # one decision: the opening
    a = analyze(record, budget=FAST, seed=1)
    assert len(win_curve(a)) <= 1
    ticks = re.findall(r"<text[^>]*>([^<]*)</text>", svg_of(a))
    assert not [t for t in ticks if re.fullmatch(r"[−-]?0\.\d+", t)], ticks      # no fractional decision
    g3 = play_game(3, 4, ["greedy"] * 3, max_rounds=1)
    view = analyze(g3.to_record(view=1), budget=FAST, seed=1)
    svg = svg_of(view)
    assert "side 1" in svg and "side 0" not in svg and "side 2" not in svg
