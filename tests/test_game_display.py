"""``Game.__repr__`` (one short line) and ``Game._repr_svg_`` (the board, for notebooks)."""
import re
import xml.etree.ElementTree as ET

from fiveup_solver import Game
from fiveup_solver.selfplay import play_game


def test_repr_names_players_round_scores_and_the_seat_to_move():
    g = Game(players=3, seed=2)
    assert repr(g) == f"<Game 3 players, round 0, scores 0 / 0 / 0, seat {g.to_move} to move>"
    g.push(g.legal_moves[0])
    assert f"seat {g.to_move} to move" in repr(g)


def test_repr_of_a_finished_game_and_of_a_round_over():
    g = play_game(2, 3, ["greedy", "random"])
    assert g.game_over
    text = repr(g)
    assert text == (f"<Game 2 players, round {len(g.rounds) - 1}, scores "
                    f"{g.scores[0]} / {g.scores[1]}, side {g.winner} won>")
    assert 305 in g.scores and "\n" not in text
    r = play_game(4, 1, ["greedy"] * 4, max_rounds=1)
    assert r.round_over and not r.game_over
    assert re.fullmatch(r"<Game 4 players, round 0, scores -?\d+ / -?\d+, (round over|unfinished)>", repr(r))


def test_repr_svg_draws_the_current_board():
    g = Game(players=2, seed=9)
    for _ in range(6):
        if g.round_over:
            break
        g.push(g.legal_moves[0])
    svg = g._repr_svg_()
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    tiles = [e.get("data-tile") for e in root.iter() if e.get("data-tile")]
    assert tiles and sorted(tiles) == sorted(str(t) for t in g.board)
    assert Game(players=2, seed=0, deal=False)._repr_svg_() == ""
