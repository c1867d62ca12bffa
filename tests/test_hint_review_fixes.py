"""A review of the hint engine (one seat's knowledge): each test fails on the code before
its fix, unless it says it is a guard."""
from __future__ import annotations

import numpy as np
import pytest

from fiveup_solver import Game
from fiveup_solver.errors import OptionError
from fiveup_solver.hint import Hinter, SearchBudget, deal_value, hint, position_value


def test_the_equity_table_is_loaded_before_a_hints_clock_starts(monkeypatch):
    """M1: the race-equity table's first load in a process (0.5 s with 3 players) fell inside
    the first timed hint's budget: a 20 ms hint took 0.69 s and searched 2 worlds. The table
    is now asked for before the clock starts (taken just before the observation is checked,
    by DealSampler): the order of the two calls is what is checked, not a time."""
    import fiveup_solver.hint as H
    calls = []
    real_values, real_sampler = H.search_values, H.DealSampler
    monkeypatch.setattr(H, "search_values", lambda players: calls.append(("table", players)) or real_values(players))
    monkeypatch.setattr(H, "DealSampler", lambda obs: calls.append(("clock", None)) or real_sampler(obs))
    g = Game(players=3, seed=3)
    Hinter(threads=1).hint(g.observation(g.to_move), time_ms=20, seed=0, beliefs="uniform")
    assert calls[:2] == [("table", 3), ("clock", None)]
    # points alone, one currency: no table is needed, none is asked for
    calls.clear()
    Hinter(threads=1).hint(g.observation(g.to_move), samples=2, objective="points", both=False, beliefs="uniform")
    assert calls[0] == ("clock", None) and ("table", 3) not in calls


def test_a_time_budget_takes_numpys_numbers():
    """L3: ``SearchBudget(time_ms=np.float32(50))`` was refused (float64 passed, being a float)."""
    assert SearchBudget(time_ms=np.float32(50)).time_ms == 50.0
    assert type(SearchBudget(time_ms=np.int64(50)).time_ms) is int
    with pytest.raises(OptionError, match="time_ms must be a number from 1 to 3600000"):
        SearchBudget(time_ms=np.float32("nan"))


def test_values_take_samples_and_say_so_for_a_time_budget():
    """L4: ``position_value(obs, time_ms=...)`` was a TypeError (an unknown keyword)."""
    g = Game(players=2, seed=4)
    with pytest.raises(OptionError, match=r"a position value takes samples \(an integer >= 1\), not a time budget"):
        position_value(g.observation(0), time_ms=50)
    with pytest.raises(OptionError, match="a deal value takes samples .*, not a time budget"):
        deal_value(2, [0, 0], 0, time_ms=5)


def test_settled_returns_a_bool():
    """L4: a ``settled`` answering "no" was read as true (a stop)."""
    g = Game(players=2, seed=4)
    obs = g.observation(g.to_move)
    h = Hinter(threads=1)
    with pytest.raises(OptionError, match="settled must return True or False, not 'no'"):
        h.hint(obs, samples=16, stages=(8, 16), settled=lambda x: "no")
    stopped = h.hint(obs, samples=16, stages=(8, 16), settled=lambda x: np.float64(1.0) > 0)   # numpy's bool
    assert stopped.samples == 8


def test_a_hints_moves_by_their_move_and_its_names_as_a_solves():
    """L1: a hint had no way to a move's values by its Move or text (``SolveResult.value_of``,
    ``Rollout.of``), nor ``best_move``/``next_move``, as a SolveResult now has."""
    g = Game(players=2, seed=3)
    h = hint(g.observation(g.to_move), samples=8, seed=1)
    for m in h.moves:
        assert h.of(m.move) is m and h.of(str(m.move)) is m
    assert h.best_move == h.next_move == h.best == h.moves[0].move
    with pytest.raises(OptionError, match="is not a move of this hint"):
        h.of("6-6@9-9:low")


def test_the_web_hint_says_exact_is_not_its_method():
    """M3: /api/hint listed "exact" among its methods and refused it always, naming a command
    line flag (--opponent) the request has no field for."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from fiveup_solver.serve import create_app
    g = Game(players=2, seed=3)
    with TestClient(create_app(), base_url="http://127.0.0.1", raise_server_exceptions=False) as client:
        r = client.post("/api/hint", json={"record": g.to_record(), "seat": g.to_move, "method": "exact"})
        assert r.status_code == 400
        assert r.json()["error"].startswith("method must be one of pimc, expectimax, alphamu here, not 'exact'")
        assert "--opponent" not in r.json()["error"]
        ok = client.post("/api/hint", json={"record": g.to_record(), "seat": g.to_move, "samples": 4})
        assert ok.status_code == 200
    with pytest.raises(OptionError, match="plays the other seats by its opponent option"):
        Hinter(threads=1).hint(g.observation(g.to_move), method="exact", search="maxn")
