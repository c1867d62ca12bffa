"""A bot author's review (an agent of one's own in matches, SPRTs and ladders):

- F1: an agent's print() went into standard output, ahead of ``--json``'s result (in
  this process and in worker processes): it goes to standard error now;
- F2: a registered bot was an "unknown bot" in worker processes started by *spawn* or
  *forkserver* (Linux's default from Python 3.14): the registered functions are sent to
  the workers (``bots.worker_setup``); one pickle cannot send is refused before a game,
  unless the workers are forked; Ray's workers get them too;
- F3: an agent raising a ``BaseException`` kind other than SystemExit printed a
  traceback; it is one BotError line now (KeyboardInterrupt stays Ctrl-C);
- F4: "a worker process died" named its job as nine bare fields (``PairJob``);
- F5: a BotError named the deal seed but not the bot seed, unit or seating that play the
  failing decision again;
- F6: the PettingZoo example of docs/openspiel.md did not play the same game again;
- N1: ``MODULE:NAME`` naming something that is not a function said the module has none;
- N2: ``fiveup match --ray --json`` said ``"workers": 2`` for games Ray played.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from fiveup_solver import Game
from fiveup_solver.bots import BOTS, bot_move, register_bot
from fiveup_solver.cli import main
from fiveup_solver.errors import BotError, OptionError
from fiveup_solver.match import PairJob, pair_seeds, play_pair, play_pairs
from fiveup_solver.selfplay import match_seatings, play_game

ROOT = Path(__file__).resolve().parent.parent

AGENTS = '''
import os

def prints(obs, rng):
    print("thinking about", len(obs.legal_moves), "moves")
    return rng.choice(obs.legal_moves)

class Boom(BaseException):
    pass

def base_exc(obs, rng):
    raise Boom("a BaseException of its own")

def interrupts(obs, rng):
    raise KeyboardInterrupt

def late_key(obs, rng):
    # fails at a decision well into round 0 (a place to find again from the seeds)
    if obs.round == 0 and len(obs.history) >= 4:
        raise KeyError("late")
    return rng.choice(obs.legal_moves)

def dies(obs, rng):
    os._exit(3)

NOT_A_FUNCTION = 42
'''


@pytest.fixture
def agents(tmp_path, monkeypatch):
    (tmp_path / "authoragents.py").write_text(AGENTS)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    monkeypatch.delitem(sys.modules, "authoragents", raising=False)
    return tmp_path


def _fiveup(args, cwd):
    return subprocess.run([sys.executable, "-m", "fiveup_solver", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=600)


# ------------------------------------------------------------------ F1
@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize("command", [
    ["match", "--bots", "authoragents:prints,level1", "--deals", "2"],
    ["sprt", "--bots", "authoragents:prints,level1", "--max-games", "4"],
    ["ladder", "--place", "authoragents:prints", "--against", "level2", "--games", "2"],
])
def test_an_agents_print_leaves_the_json_result_alone(agents, command, workers):
    r = _fiveup([*command, "--workers", workers, "--json"], agents)
    assert r.returncode == 0, r.stderr[-1000:]
    json.loads(r.stdout)                                  # standard output: the result alone
    assert r.stdout.count("\n") == 1, r.stdout[:300]
    assert "thinking about" in r.stderr                   # the agent's lines: standard error


# ------------------------------------------------------------------ F2
SPAWNED = textwrap.dedent('''
    import multiprocessing, sys
    from fiveup_solver.bots import register_bot
    from fiveup_solver.match import play_pairs
    from fiveup_solver.errors import OptionError

    def first(obs, rng):
        return obs.legal_moves[0]

    if __name__ == "__main__":
        multiprocessing.set_start_method(sys.argv[1])
        register_bot("first", first)
        print(repr([s for _, s, _ in play_pairs(2, "first", "greedy", 5, workers=2, max_pairs=3)]))
        print(repr([s for _, s, _ in play_pairs(2, "first", "greedy", 5, workers=1, max_pairs=3, move_time=60)]))
        register_bot("lam", lambda obs, rng: obs.legal_moves[-1])
        try:
            print(repr([s for _, s, _ in play_pairs(2, "lam", "greedy", 5, workers=2, max_pairs=3)]))
        except OptionError as e:
            print("refused:", e)
''')


def test_registered_bots_reach_workers_however_they_start(tmp_path):
    script = tmp_path / "spawned.py"
    script.write_text(SPAWNED)
    # the scores in this process, from the same functions
    first = register_bot("first", lambda obs, rng: obs.legal_moves[0])
    last = register_bot("lam", lambda obs, rng: obs.legal_moves[-1])
    try:
        expected = repr([s for _, s, _ in play_pairs(2, first, "greedy", 5, workers=1, max_pairs=3)])
        expected_last = repr([s for _, s, _ in play_pairs(2, last, "greedy", 5, workers=1, max_pairs=3)])
    finally:
        BOTS.pop("first"), BOTS.pop("lam")
    for method in ("spawn", "forkserver", "fork"):
        r = subprocess.run([sys.executable, str(script), method], capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, (method, r.stderr[-1500:])
        lines = r.stdout.splitlines()
        assert lines[0] == expected and lines[1] == expected, (method, lines)
        if method == "fork":
            assert lines[2] == expected_last                 # a forked worker has the lambda
        else:
            assert lines[2] == ("refused: bot 'lam' is registered with a function worker processes cannot be "
                                "sent (PicklingError: a lambda or a function defined in another?): register a "
                                "module-level function, or name it MODULE:FUNCTION"), (method, lines)


def test_registered_bots_reach_rays_workers():
    ray = pytest.importorskip("ray")
    name = register_bot("raylast", lambda obs, rng: obs.legal_moves[-1])     # Ray sends a lambda too
    try:
        local = list(play_pairs(2, name, "greedy", 4, workers=1, max_pairs=2))
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        try:
            on_ray = list(play_pairs(2, name, "greedy", 4, max_pairs=2, ray="auto"))
        finally:
            ray.shutdown()
    finally:
        BOTS.pop(name)
    assert on_ray == local


# ------------------------------------------------------------------ N2
def test_a_ray_match_says_ray_played_it(capsys):
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        assert main(["match", "--bots", "greedy,random", "--deals", "1", "--ray", "auto", "--json"]) == 0
    finally:
        ray.shutdown()
    result = json.loads(capsys.readouterr().out)
    assert result["workers"] is None and result["ray"] == "auto", result
    assert main(["match", "--bots", "greedy,random", "--deals", "1", "--workers", "2", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["workers"] == 2 and result["ray"] is None, result


# ------------------------------------------------------------------ F3
@pytest.mark.parametrize("workers", ["1", "2"])
def test_an_agents_own_base_exception_is_one_line(agents, capsys, workers):
    assert main(["match", "--bots", "authoragents:base_exc,level1", "--deals", "1", "--workers", workers]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith("error: bot 'authoragents:base_exc' (seat ")
    assert "raised Boom: a BaseException of its own" in err


def test_a_keyboard_interrupt_is_ctrl_c(agents):
    g = Game(players=2, seed=1)
    with pytest.raises(KeyboardInterrupt):
        bot_move("authoragents:interrupts", g.observation(g.to_move), __import__("random").Random(0))


# ------------------------------------------------------------------ F4
def test_a_dead_workers_job_is_named_in_words(agents):
    r = _fiveup(["match", "--bots", "authoragents:dies,level1", "--deals", "2", "--workers", "2"], agents)
    assert r.returncode == 2
    deal, bot = pair_seeds(0, 0)
    assert r.stderr.strip().endswith(f"the first not finished: unit 0 of authoragents:dies v level1 (2 players, "
                                     f"deal seed {deal}, bot seed {bot})"), r.stderr
    job = PairJob(4, "a", "b", 7, 11, 12, 1000, False, 0.5)
    assert repr(job) == "unit 7 of a v b (4 players, deal seed 11, bot seed 12, 0.5 s a move)"
    assert tuple(job) == (4, "a", "b", 7, 11, 12, 1000, False, 0.5)      # still the tuple play_pair reads


# ------------------------------------------------------------------ F5
def test_a_bot_error_gives_what_plays_the_decision_again(agents):
    name = "authoragents:late_key"
    if True:
        deal, bot_seed = pair_seeds(9, 3)
        with pytest.raises(BotError) as info:
            play_pair(PairJob(2, name, "greedy", 3, deal, bot_seed, 1000, False, None))
        text = str(info.value)
        m = re.fullmatch(r"bot 'authoragents:late_key' \(seat (\d)\) at round 0 action (\d+) of the game with seed (\d+) "
                         r"\(bot seed (\d+)\): raised KeyError: 'late' \(in unit 3, seating (\d): (.*)\)", text)
        assert m, text
        seat, action, game_seed, seed_of_bots, seating, seats = m.groups()
        assert (int(game_seed), int(seed_of_bots)) == (deal, bot_seed)
        assert seats.split(", ") == match_seatings(2, name, "greedy")[int(seating)]
        # the message's seeds and seats play the same failure again
        with pytest.raises(BotError) as again:
            play_game(2, int(game_seed), seats.split(", "), bot_seed=int(seed_of_bots))
        assert str(again.value) == text.rsplit(" (in unit", 1)[0]
        assert isinstance(again.value.__cause__, KeyError)
        assert f"(seat {seat}) at round 0 action {action} " in str(again.value)


# ------------------------------------------------------------------ F6
def test_the_pettingzoo_example_plays_the_same_game_again():
    pytest.importorskip("pettingzoo")
    text = (ROOT / "docs" / "openspiel.md").read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"```python\n(.*?)```", text, re.S) if "agent_iter" in b)
    records = []
    for _ in range(3):
        namespace = {}
        exec(block, namespace)
        records.append(json.dumps(namespace["e"].unwrapped.game.to_record()))
    assert len(set(records)) == 1


# ------------------------------------------------------------------ N1
def test_a_module_name_that_is_no_function_says_so(agents, capsys):
    assert main(["match", "--bots", "authoragents:NOT_A_FUNCTION,level1", "--deals", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith("authoragents.NOT_A_FUNCTION is not a function but 42"), err
    assert main(["match", "--bots", "authoragents:missing,level1", "--deals", "1"]) == 2
    assert capsys.readouterr().err.strip().endswith("module authoragents has no function missing")
    with pytest.raises(OptionError):
        play_game(2, 1, ["authoragents:NOT_A_FUNCTION", "greedy"])
