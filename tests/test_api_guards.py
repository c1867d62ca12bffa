"""Guards at the API edges: out-of-range seats and malformed bot lists raise typed errors."""
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


@pytest.mark.parametrize("bots", [["greedy"], ["greedy", "random", "random"], ["greedy", "nobody"]])
def test_play_game_needs_one_known_bot_per_seat(bots):
    with pytest.raises(FiveUpError, match="one known bot name per seat"):
        play_game(2, 1, bots)


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
        r = play_match(players, "greedy", "greedy", 3, seed=5)
        assert r["games"] == 3 * per_deal
        assert r["games"] > r["unfinished"] and r["wins"] * per_deal == r["games"] - r["unfinished"], r
