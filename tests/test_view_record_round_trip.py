"""A game read from a seat's view writes that view back (Game.to_record).

Its hidden tiles were filled in from a seed (record.view_deal): one possibility, not
the truth. Before, ``game_from_record(view).to_record()`` wrote a full-looking record
of those invented tiles (other seats' hands, the boneyard's order), which a reader
could not tell from a real one."""
import random

import pytest

from fiveup_solver import Game
from fiveup_solver.errors import OptionError
from fiveup_solver.inference import redeal_unseen
from fiveup_solver.record import check_record, game_from_record


def _played(players, seed, rounds=3):
    g = Game(players=players, seed=seed, max_rounds=rounds)
    rng = random.Random(seed)
    while not g.game_over:
        g.push(rng.choice(g.legal_moves))
        if g.round_over and not g.game_over:
            if len(g.rounds) >= rounds:
                break
            g.next_round()
    return g


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_view_read_is_the_view_written(players):
    for seed in range(4):
        g = _played(players, seed)
        for seat in range(players):
            view = g.to_record(view=seat)
            h = game_from_record(view, seed=1000 + seed)
            assert h.to_record() == view                   # not a full record of filled-in tiles
            assert h.to_record(view=seat) == view
            other = (seat + 1) % players
            with pytest.raises(OptionError, match=f"read from seat {seat}'s view: seat {other}'s view"):
                h.to_record(view=other)


def test_the_seats_hand_keeps_its_order_in_the_record():
    g = _played(3, 7, rounds=1)
    view = g.to_record(view=2)
    view["rounds"][0]["hands"][2] = list(reversed(view["rounds"][0]["hands"][2]))    # any order is a hand
    check_record(view)
    assert game_from_record(view, seed=3).to_record() == view


def test_a_game_going_on_from_a_view_stays_that_view():
    g = _played(2, 5, rounds=1)
    view = g.to_record(view=0)
    h = game_from_record(view, seed=99, max_rounds=3)
    assert h.round_over
    h.next_round()
    h.push(h.legal_moves[0])
    rec = h.to_record()
    assert rec["view"] == 0
    # the round dealt after the view's hides the other hand and the boneyard too
    assert [r["hands"][1] for r in rec["rounds"]] == [None, None]
    assert all(r["boneyard"] is None for r in rec["rounds"])
    assert rec["rounds"][0] == view["rounds"][0]


def test_a_view_round_dealt_again_stays_marked():
    """redeal_unseen (the web app's undo, and its load of a view) deals the hidden tiles
    again: the round's past was still played on tiles nobody here knows."""
    g = _played(2, 11, rounds=1)
    view = g.to_record(view=1)
    view["rounds"][0]["actions"] = view["rounds"][0]["actions"][:3]      # an unfinished game
    view["rounds"][0].pop("revealed", None)
    h = game_from_record(view, seed=4)
    assert h.current.filled_for == 1
    redeal_unseen(h, 1, seed=77)
    assert h.current.filled_for == 1
    assert h.to_record() == view
    # a round of a game dealt in full is not marked by a redeal
    fresh = Game(players=2, seed=11)
    fresh.push(fresh.legal_moves[0])
    redeal_unseen(fresh, 0, seed=5)
    assert fresh.current.filled_for is None and "view" not in fresh.to_record()
