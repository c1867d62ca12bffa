"""The PettingZoo adapter (fiveup_solver.pettingzoo): PettingZoo's API and seed tests, action
masks against the engine's legal moves, rewards against the record replay, truncation,
observations that hide other seats' tiles, and the text rendering."""
from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")

import random  # noqa: E402
import re  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

from fiveup_solver import ALL_TILES, Game, OptionError, Tile, _core  # noqa: E402
from fiveup_solver.openspiel import DRAW_ACTION, NUM_ACTIONS, Encoder, action_to_move, move_to_action  # noqa: E402
from fiveup_solver.pettingzoo import env, raw_env  # noqa: E402
from fiveup_solver.record import replay  # noqa: E402

PLAYERS = (2, 3, 4)


def expected_rewards(result, players, whole_game):
    sides = [_core.side_of_seat(players, s) for s in range(players)]
    if whole_game:
        if result["winner"] is None:
            return [0.0] * players
        return [1.0 if sides[s] == result["winner"] else (-0.5 if players == 3 else -1.0) for s in range(players)]
    gain = result["scores"]
    if players == 3:
        return [gain[s] - (sum(gain) - gain[s]) / 2 for s in range(players)]
    return [gain[sides[s]] - gain[1 - sides[s]] for s in range(players)]


def run(e, seed):
    """Play random legal actions to the end; returns each agent's total reward."""
    e.reset(seed=seed)
    rng = random.Random(seed)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        total[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        raw = e.unwrapped
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,)
        assert np.flatnonzero(mask).tolist() == sorted(move_to_action(m) for m in raw.game.legal_moves)
        assert raw.possible_agents[raw.game.to_move] == agent
        e.step(rng.choice(np.flatnonzero(mask).tolist()))
    return total


@pytest.mark.parametrize("players", PLAYERS)
def test_api_and_seed_tests(players):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")        # dict observations draw PettingZoo's generic advice
        api_test(env(players=players), num_cycles=1000)
        api_test(env(players=players, whole_game=False, perfect_recall=True), num_cycles=200)
        seed_test(lambda: env(players=players), num_cycles=200)
        seed_test(lambda: env(players=players, whole_game=False), num_cycles=200)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("whole_game", [True, False])
def test_rewards_are_the_record_replays(players, whole_game):
    e = env(players=players, whole_game=whole_game)
    for seed in range(2):
        total = run(e, seed)
        game = e.unwrapped.game
        assert game.round_over and (game.game_over or not whole_game)
        want = expected_rewards(replay(game.to_record()), players, whole_game)
        assert [total[a] for a in e.possible_agents] == pytest.approx(want)
        assert sum(want) == pytest.approx(0.0)


def test_truncated_when_the_round_limit_stops_the_game():
    e = env(players=2, max_rounds=1)
    for seed in range(10):
        total = run(e, seed)
        raw = e.unwrapped
        if raw.game.winner is None:
            assert raw.game.unfinished and raw._over and total == {"player_0": 0.0, "player_1": 0.0}
            break
    else:
        pytest.fail("no unfinished one-round game among the seeds")


def test_same_seed_same_game_and_draws_are_forced_actions():
    a, b = raw_env(players=3), raw_env(players=3)
    a.reset(seed=9)
    b.reset(seed=9)
    rng = random.Random(1)
    drew = False
    while not a._over:
        agent = a.agent_selection
        mask = a.observe(agent)["action_mask"]
        assert np.array_equal(mask, b.observe(agent)["action_mask"])
        legal = np.flatnonzero(mask).tolist()
        if DRAW_ACTION in legal:
            assert legal == [DRAW_ACTION]
            drew = True
        act = rng.choice(legal)
        a.step(act)
        b.step(act)
    assert drew and a.game.to_record() == b.game.to_record()
    c = raw_env(players=3)
    c.reset(seed=10)
    assert c.game.to_record()["rounds"][0]["hands"] != a.game.to_record()["rounds"][0]["hands"]


def test_observation_hides_other_seats_tiles():
    e = raw_env(players=2)
    e.reset(seed=4)
    enc = Encoder(2, False)
    g = e.game
    r = g.current
    # the same deal with a tile of seat 1 swapped for the boneyard's last tile
    hands = [list(h) for h in r.hands]
    bone = list(r.boneyard)
    hands[1][0], bone[-1] = bone[-1], hands[1][0]
    other = Game(2, deal=False)
    other.start_round(hands, bone, r.starter)
    for seat in (0, 1):
        view = enc.views(e.observe(f"player_{seat}")["observation"])
        assert np.flatnonzero(view["hand"]).tolist() == sorted(t.index for t in g.hand(seat))
        assert view["player"][seat] == 1 and view["to_move"][g.to_move] == 1
    before = {s: e.observe(f"player_{s}")["observation"] for s in (0, 1)}
    e.game = other
    assert np.array_equal(before[0], e.observe("player_0")["observation"])
    assert not np.array_equal(before[1], e.observe("player_1")["observation"])


def test_illegal_action_ends_the_game_through_the_wrapper():
    raw = raw_env(players=2)
    raw.reset(seed=2)
    legal = {move_to_action(m) for m in raw.game.legal_moves}
    bad = next(a for a in range(NUM_ACTIONS) if a not in legal)
    with pytest.raises(OptionError):
        raw.step(bad)
    e = env(players=2)
    e.reset(seed=2)
    agent = e.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(bad)
    assert all(e.terminations.values()) and e.rewards[agent] == -1


def test_ansi_render_shows_the_board():
    e = raw_env(players=4, render_mode="ansi")
    e.reset(seed=3)
    rng = random.Random(3)
    for _ in range(6):
        e.step(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]).tolist()))
    text = e.render()
    g = e.game
    assert f"End sum: {g.end_sum}" in text
    for p in g.open_ports():
        assert f"{p} ({p.value})" in text
    assert f"side 0: {g.scores[0]} ({g.scores[0] // 5})" in text
    for _, m in g.current.moves:
        if m.kind == "play":
            assert str(m) in text
    for s in range(4):   # no tile in a hand is shown: only hand sizes
        assert not any(re.search(rf"(?<![\d-]){t}(?![\d])", text) for t in g.hand(s))
    quiet = raw_env(players=2)
    quiet.reset(seed=0)
    with pytest.warns(UserWarning, match="render mode"):
        assert quiet.render() is None
    assert str(action_to_move(27)) == str(ALL_TILES[27])


def test_pettingzoos_render_test_and_the_human_mode(capsys):
    """A review: PettingZoo's render_test builds the environment with render_mode="human"
    first, which was refused. "human" prints the table (and returns None, PettingZoo's
    convention); the render test passes for both modes."""
    render_test(lambda render_mode=None: env(players=3, render_mode=render_mode))
    e = raw_env(players=2, render_mode="human")
    e.reset(seed=4)
    capsys.readouterr()
    assert e.render() is None
    assert capsys.readouterr().out == e.board_text() + "\n"


def test_bad_options():
    for kw in ({"players": 1}, {"whole_game": "yes"}, {"max_rounds": 0}, {"render_mode": "rgb_array"}):
        with pytest.raises(OptionError):
            raw_env(**kw)


def test_module_imports_without_pettingzoo():
    code = ("import sys; sys.modules['pettingzoo'] = None\n"
            "import fiveup_solver.pettingzoo as m\n"
            "from fiveup_solver.errors import OptionError\n"
            "for build in (m.env, m.raw_env):\n"
            "    try:\n"
            "        build()\n"
            "    except OptionError as e:\n"
            "        print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 2 and all("pip install 'fiveup_solver[pettingzoo]'" in line for line in lines)


def refuses_calls_before_reset(e) -> None:
    for call in (lambda: e.step(0), lambda: e.observe("player_0")):
        with pytest.raises(OptionError, match="reset"):
            call()


def test_last_and_render_before_reset_are_option_errors():
    """A review: env()'s last() and render() before reset() raised PettingZoo's own
    AttributeError and AssertionError; they say what to do, as step() and observe() do."""
    e = env(players=2, render_mode="ansi")
    for call, name in ((e.last, "last"), (e.render, "render")):
        with pytest.raises(OptionError, match=rf"^reset\(\) the environment before {name}\(\)$"):
            call()
    e.reset(seed=1)
    assert e.render().startswith("Round 0") and len(e.last()) == 5


def test_bad_actions_and_calls_are_option_errors():
    """step(0.9) played action 0 and step(True) action 1; step or observe before reset,
    and an unknown agent, raised AttributeError and KeyError."""
    env = raw_env(players=2)
    refuses_calls_before_reset(env)
    env.reset(seed=3)
    legal = [a for a, ok in enumerate(env.observe(env.agent_selection)["action_mask"]) if ok]
    for bad in (float(legal[0]) + 0.1, True, None, [legal[0]], "x", float("nan")):
        with pytest.raises(OptionError, match="action"):
            env.step(bad)
    with pytest.raises(OptionError, match="agent"):
        env.observe("player_9")
    env.step(np.int64(legal[0]))             # numpy integers are actions
    assert env.agent_selection in env.possible_agents


@pytest.mark.parametrize("bad", [999, NUM_ACTIONS, -1, 2.5, "3", None, True, float("nan")])
def test_the_wrapped_env_refuses_what_is_no_action_id(bad):
    """env()'s wrappers read the action mask with the action: 999 was an AssertionError (an
    IndexError under python -O), -1 read the mask's last entry and ended the game as an
    illegal move. Each is a one-line OptionError, and the game goes on."""
    e = env(players=2)
    refuses_calls_before_reset(e)
    e.reset(seed=4)
    agent = e.agent_selection
    with pytest.raises(OptionError, match=r"action must be an integer 0\.\.449"):
        e.step(bad)
    assert not any(e.terminations.values()) and e.agent_selection == agent
    legal = int(np.flatnonzero(e.observe(agent)["action_mask"])[0])
    e.step(legal)
    assert e.agent_selection in e.possible_agents


def illegal_step(e) -> str:
    """The agent to move plays its first illegal action (PettingZoo's warning silenced): the agent."""
    agent = e.agent_selection
    bad = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(bad)
    return agent


def test_after_an_illegal_action_the_env_shows_the_game_over():
    """TerminateIllegalWrapper ends the episode without the raw env knowing: it still showed
    the phase of play, a mask of legal actions and "to move"."""
    e = env(players=2)
    e.reset(seed=2)
    illegal_step(e)
    over = raw_env(players=2)
    over.reset(seed=2)
    over._over = True
    for a in e.possible_agents:
        obs = e.observe(a)
        assert not obs["action_mask"].any()
        # the phase: the encoding of a game over (the raw env told it is over, same deal)
        assert np.array_equal(obs["observation"], over.observe(a)["observation"])
    assert e.unwrapped.board_text().endswith("Game over: an illegal action")
    e.reset(seed=2)
    assert e.observe(e.agent_selection)["action_mask"].any() and "Game over" not in e.unwrapped.board_text()


def test_illegal_action_is_the_worst_outcome():
    """The wrapper's penalty is the least return there is (a round's points reach -305, -475
    with 4 players): an agent that is behind gains nothing by an illegal action."""
    for players, whole_game, worst in ((2, True, -1), (2, False, -305), (3, False, -305), (4, False, -475)):
        e = env(players=players, whole_game=whole_game)
        e.reset(seed=2)
        agent = illegal_step(e)          # (then e.rewards: the step replaces the dict)
        assert e.rewards[agent] == worst


@pytest.mark.parametrize("whole_game, worst", [(True, -1), (False, -475)])
def test_an_illegal_action_with_4_players_costs_the_partner_too(whole_game, worst):
    """A review: with 4 players the offender's partner got PettingZoo's 0, so a side losing
    anyway (both seats -1) ended better off (-1 and 0) by one seat's illegal action. The
    partner (the seat opposite, RULES 1) shares its side's return, as in every legal end;
    the two other seats get 0."""
    e = env(players=4, whole_game=whole_game)
    e.reset(seed=0)
    agent = illegal_step(e)
    k = e.possible_agents.index(agent)
    partner = e.possible_agents[(k + 2) % 4]
    assert e.rewards[agent] == e.rewards[partner] == worst
    assert [e.rewards[a] for a in e.possible_agents if a not in (agent, partner)] == [0, 0]
    assert e._cumulative_rewards[partner] == worst
    for a in e.agent_iter():                    # the game ends for every agent, as before
        e.step(None)


def test_perfect_recall_is_a_switch():
    for value in ("false", 0, 1, None, "no"):
        with pytest.raises(OptionError, match="perfect_recall must be True or False"):
            raw_env(perfect_recall=value)


def test_observations_are_the_engines_observation_tensors_and_the_env_copies():
    """observe() is encoding.observation_tensor of the engine's Observation of that seat, at
    every step and at the end; a copied or pickled environment plays on identically."""
    import copy
    import pickle
    from fiveup_solver.encoding import action_mask, observation_tensor
    for players in (2, 3, 4):
        e = raw_env(players=players, whole_game=False, perfect_recall=True)
        e.reset(seed=players)
        rng = random.Random(players)
        copied = final = None
        for agent in e.agent_iter():
            seat = e.agent_name_mapping[agent]
            seen = e.game.observation(seat)
            got = e.observe(agent)
            assert np.array_equal(got["observation"], observation_tensor(seen, True))
            assert np.array_equal(got["action_mask"], action_mask(seen))
            _, _, terminated, truncated, _ = e.last()
            action = None if terminated or truncated else rng.choice(np.flatnonzero(got["action_mask"]).tolist())
            if copied is None and len(e.game.current.moves) == 3:
                copied = [copy.deepcopy(e), pickle.loads(pickle.dumps(e))]
                replay_from = len(e.game.current.moves)
            e.step(action)
            if final is None and all(e.terminations.values()):
                final = dict(e.rewards)
        assert copied is not None and final and any(final.values())
        moves = e.game.current.moves[replay_from:]
        for other in copied:
            for s, m in moves:
                other.step(move_to_action(m))
            assert other.game.to_record() == e.game.to_record() and other.rewards == final


@pytest.mark.parametrize("seed", [np.int64(9), np.uint32(9), np.int8(9)])
def test_a_numpy_integer_seed_deals_what_its_int_deals(seed):
    """reset(seed=np.int64(9)) was refused as "seed must be an integer from 0 to 2^64-1";
    a numpy integer is taken as its int, as action ids are."""
    a, b = raw_env(players=3), raw_env(players=3)
    a.reset(seed=seed)
    b.reset(seed=9)
    assert [a.game.hand(s) for s in range(3)] == [b.game.hand(s) for s in range(3)]
    assert a.game.boneyard == b.game.boneyard
    with pytest.raises(OptionError, match=r"^seed must be an integer from 0 to 2\^64-1, not -1$"):
        a.reset(seed=np.int64(-1))


def play_out(e, seed) -> None:
    """reset(seed) and random legal actions until agent_iter() has taken every agent off."""
    e.reset(seed=seed)
    rng = random.Random(seed)
    for _ in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        e.step(None if terminated or truncated else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))


@pytest.mark.parametrize("build", [raw_env, env])
def test_after_every_agent_has_left_step_and_last_say_to_reset(build):
    """A review: once agent_iter() had taken every agent off, raw_env's step() and last(), and
    env()'s last(), raised a bare KeyError 'player_1'. They say what to do, in one line, as
    before reset(); env()'s step() keeps PettingZoo's warning (its wrapper's convention)."""
    e = build(players=2, whole_game=False)
    play_out(e, 1)
    assert e.agents == []
    calls = [e.last, lambda: e.last(observe=False)] + ([lambda: e.step(None), lambda: e.step(0)]
                                                          if build is raw_env else [])
    for call in calls:
        with pytest.raises(OptionError, match=r"^the game is over and every agent has left: reset\(\) the "
                                              r"environment$"):
            call()
    e.reset(seed=2)
    assert len(e.last()) == 5


def test_unknown_agent_spaces_are_option_errors():
    """A review: observe("bogus") named the agents, action_space("bogus") and
    observation_space("bogus") raised a bare KeyError."""
    for e in (raw_env(players=3), env(players=3)):
        for space in (e.action_space, e.observation_space):
            for bad in ("bogus", 0, "player_3"):
                with pytest.raises(OptionError, match=r"^agent must be one of player_0, player_1, player_2, not "):
                    space(bad)
        assert e.action_space("player_2").n == NUM_ACTIONS


def test_rewards_are_floats_from_reset_to_every_end():
    """A review: rewards were int 0 until a terminal step, and stayed int on a truncated
    game (and for the bystanders of an illegal action); a reward is a float throughout."""
    def floats(e):
        return all(type(r) is float for d in (e.rewards, e._cumulative_rewards) for r in d.values())
    e = raw_env(players=2, max_rounds=1)
    for seed in range(10):
        e.reset(seed=seed)
        assert floats(e)
        while not e._over:
            e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
        assert floats(e)
        if e.game.unfinished:
            assert all(e.truncations.values()) and e.rewards == {"player_0": 0.0, "player_1": 0.0}
            break
    else:
        pytest.fail("no unfinished one-round game among the seeds")
    w = env(players=3)
    w.reset(seed=2)
    illegal_step(w)
    assert floats(w.unwrapped)


def hands_left(round_record) -> list:
    """A round's hands at its end, by hand from its record: dealt, plus drawn, minus placed."""
    left = [set(h) for h in round_record["hands"]]
    for a in round_record["actions"]:
        if "play" in a:
            left[a["seat"]].remove(a["play"])
        elif a.get("draw"):
            left[a["seat"]].add(a["draw"])
    return [sorted(h, key=lambda t: ALL_TILES.index(Tile.parse(t))) for h in left]


def pips(hand) -> int:
    return sum(int(x) for t in hand for x in t.split("-"))


def expected_round_end(record, index, players, events) -> dict:
    """How round `index` of a record ended, from the rules (RULES 6.3, 6.6): a seat that
    placed its last tile made a domino; otherwise the round was blocked, won by the side
    holding the smallest single hand sum (a tie when different sides share it)."""
    r = record["rounds"][index]
    left = hands_left(r)
    last = r["actions"][-1]
    if "play" in last and not left[last["seat"]]:
        end = {"end": "domino", "seat": last["seat"]}
    else:
        side = [s % 2 if players == 4 else s for s in range(players)]
        low = min(pips(h) for h in left)
        sides = {side[s] for s in range(players) if pips(left[s]) == low}
        end = {"end": "blocked", "winner": sides.pop() if len(sides) == 1 else None}
    move = "draw" if "draw" in last else last["play"] + (f"@{last['at']}" if last.get("at") else "")
    mine = [x for x in events if x["round"] == index and x["action"] in (len(r["actions"]) - 1, None)]
    domino = None
    if end["end"] == "domino":
        # RULES 6.3: P the placement's credit, O the opponents' pips rounded once, D the partner's apart
        seat, nearest5 = last["seat"], lambda x: (x + 2) // 5 * 5
        partner = (seat + 2) % 4 if players == 4 else None
        es = next(x["end_sum"] for x in mine if x["kind"] == "domino")
        opponents = sum(pips(left[q]) for q in range(players) if q not in (seat, partner))
        domino = {"seat": seat, "placement": es if es % 5 == 0 else 0, "opponents_pips": opponents,
                  "opponents": nearest5(opponents), "partner_pips": None if partner is None else pips(left[partner]),
                  "partner": 0 if partner is None else nearest5(pips(left[partner]))}
    block = None
    if end["end"] == "blocked":
        # RULES 6.5: lightest first (ties clockwise from the starter); each seat's opponents
        # (never the partner) holding more: their differences added, rounded once
        side = [s % 2 if players == 4 else s for s in range(players)]
        sums = [pips(h) for h in left]
        order = sorted(range(players), key=lambda s: (sums[s], (s - r["starter"]) % players))
        block = []
        for s in order:
            above = [[o, sums[o]] for o in range(players) if side[o] != side[s] and sums[o] > sums[s]]
            total = sum(x - sums[s] for _, x in above)
            block.append({"seat": s, "pips": sums[s], "above": above, "total": total, "credit": (total + 2) // 5 * 5})
    return {"round": index, "end": end, "last": {"seat": last["seat"], "move": move}, "events": mine,
            "domino": domino, "block": block, "hands": left}


def shows_a_tile(text: str, tiles) -> bool:
    return any(re.search(rf"(?<![\d-]){t}(?![\d])", text) for t in tiles)


@pytest.mark.parametrize("players", PLAYERS)
def test_a_whole_game_shows_how_each_round_ended(players):
    """A review: with whole_game=True the step that ends a round deals the next one, so no
    render() and no observation showed the round's last events or the hands shown for its
    scoring. The step that ends a round puts it in every agent's infos["round_end"] (kept
    until the agent acts again) and render() shows it: only what every seat sees then (RULES
    2.2: the hands left are shown; the boneyard's undrawn tiles are not)."""
    kinds = set()
    for seed in range(40):     # random play blocks a round now and then (seeds 5, 4 and 8 do)
        e = raw_env(players=players, render_mode="ansi")
        e.reset(seed=seed)
        rng = random.Random(seed)
        waiting = None          # agents yet to act since a round ended
        while not e._over:
            rounds = len(e.game.rounds)
            agent = e.agent_selection
            e.step(rng.choice(np.flatnonzero(e.observe(agent)["action_mask"]).tolist()))
            if len(e.game.rounds) == rounds and not e._over:
                if waiting is not None:
                    waiting.discard(agent)
                    assert e.infos[agent] == {} and all("round_end" in e.infos[a] for a in waiting)
                continue
            if len(e.game.rounds) == rounds:
                break           # the game's last round (its end: the next test)
            record = e.game.to_record()
            want = expected_round_end(record, rounds - 1, players, replay(record)["events"])
            kinds.add(want["end"]["end"])
            for a in e.possible_agents:
                got = dict(e.infos[a]["round_end"])
                assert got.pop("scores") == list(e.game.scores)      # the new round's starting scores
                assert got == want
            line = e.render().splitlines()[1]
            assert line.startswith(f"Round {rounds - 1} ended: ")
            assert line.endswith("; hands shown: " + ", ".join(f"seat {s} {','.join(h) or '-'}"
                                                                 for s, h in enumerate(want["hands"])))
            if want["end"]["end"] == "domino":
                assert f"domino by seat {want['end']['seat']}" in line
            r = record["rounds"][rounds - 1]
            undrawn = r["boneyard"][sum(1 for a in r["actions"] if "draw" in a):]
            assert not shows_a_tile(line, undrawn) and not shows_a_tile(repr(e.infos), undrawn)
            waiting = set(e.possible_agents)
        if kinds >= {"domino", "blocked"}:
            break
    assert kinds >= {"domino", "blocked"}, kinds


def test_the_round_that_ends_the_game_shows_the_hands_to_every_agent():
    """One round (whole_game=False): each agent reads the round's end in last() as it leaves."""
    e = env(players=3, whole_game=False, render_mode="ansi")
    e.reset(seed=5)
    rng = random.Random(5)
    seen = {}
    for agent in e.agent_iter():
        obs, _, terminated, truncated, info = e.last()
        if terminated or truncated:
            seen[agent] = info["round_end"]
            text = e.render()
            e.step(None)
            continue
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    record = e.unwrapped.game.to_record()
    want = hands_left(record["rounds"][0])
    assert sorted(seen) == e.possible_agents and all(s["hands"] == want for s in seen.values())
    assert "Round 0 ended: " in text and text.splitlines()[1].endswith(
        "hands shown: " + ", ".join(f"seat {s} {','.join(h) or '-'}" for s, h in enumerate(want)))


def test_an_unseeded_reset_goes_on_from_the_environments_generator():
    """docs/openspiel.md (a review: it read as if every unseeded reset were fresh randomness):
    after reset(seed=3) the unseeded resets repeat; a new environment's first unseeded reset
    is seeded by the operating system."""
    def games(seeds):
        e = raw_env(players=2)
        out = []
        for seed in seeds:
            e.reset(seed=seed)
            out.append(e.game.to_record()["rounds"][0]["hands"])
        return out
    a, b = games([3, None, None]), games([3, None, None])
    assert a == b and len({str(h) for h in a}) == 3
    assert games([None]) != games([None])
