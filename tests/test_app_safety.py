"""What an app embedding the engine for a person relies on (a review of the API as an app
developer would use it): a game's deal cannot be recomputed from a hand, and a person's move
at another seat's turn is refused before any look at the hands."""
import re

import pytest

from fiveup_solver import Game
from fiveup_solver.errors import IllegalMoveError, OptionError
from fiveup_solver.notation import ALL_TILES, Move


def test_a_game_without_a_seed_deals_from_a_secret_seed_it_keeps():
    """Game() dealt seed 0's game every time: a person's 5 tiles found the seed among small
    ones in a second, and with it every hidden tile. Two unseeded games now deal from two
    63-bit seeds (the same seed twice: about 1 in 2^63), and the seed kept deals the game again."""
    a, b = Game(players=2), Game(players=2)
    assert a.seed != b.seed and 0 <= a.seed < 2 ** 63 and 0 <= b.seed < 2 ** 63
    again = Game(players=2, seed=a.seed)
    assert [again.hand(s) for s in range(2)] == [a.hand(s) for s in range(2)]
    assert again.current.starter == a.current.starter
    # an explicit seed deals as before: seed 0 is still seed 0
    assert [Game(players=3, seed=0).hand(s) for s in range(3)] == [Game(players=3, seed=0).hand(s) for s in range(3)]


def test_a_move_of_another_seat_is_refused_before_its_tile_is_looked_at():
    """push(move) at a bot's turn answered 'tile X is not in seat 0's hand' or 'X does not match
    port ...' (or played it): one probe a tile read the bot's hand. With seat= the answer is the
    same for every tile, the one a seat not to move gets."""
    g = Game(players=2, seed=11)
    mover = g.to_move
    other = 1 - mover
    answers = set()
    for tile in ALL_TILES:
        for port in g.open_ports() or [None]:
            move = Move.play(tile, port) if port is not None else Move.play(tile)
            with pytest.raises(IllegalMoveError) as e:
                g.push(move, seat=other)
            answers.add(str(e.value))
    assert answers == {f"seat {other} is not to move (seat {mover} is)"}
    assert g.current.moves == []
    # the seat to move plays as without seat=
    move = g.legal_moves[0]
    g.push(move, seat=mover)
    assert g.peek() == move and g.current.moves == [(mover, move)]


@pytest.mark.parametrize("bad", [2, -1, "0", 0.0, True, None.__class__])
def test_push_checks_its_seat(bad):
    g = Game(players=2, seed=11)
    with pytest.raises(OptionError, match=r"^seat must be a seat 0\.\.1, not "):
        g.push(g.legal_moves[0], seat=bad)


def test_peek_gives_a_draw_with_its_tile():
    """push returns the events, none for a draw: the tile drawn is peek()'s, as the seat saw it."""
    for seed in range(200):
        g = Game(players=2, seed=seed)
        while not g.round_over and g.legal_moves[0].kind != "draw":
            g.push(g.legal_moves[0])
        if g.round_over:
            continue
        seat, before = g.to_move, set(g.hand(g.to_move))
        assert g.push(Move.draw()) == []
        drawn = g.peek()
        assert drawn.kind == "draw" and set(g.hand(seat)) - before == {drawn.tile}
        return
    pytest.fail("no draw in 200 seeded games")


BUILT_IN_BOTS_TO_TWIN = ["random", "greedy", "hint:8:2000", "hint-uniform:8:2000", "expectimax:4:2000",
                         "hint-alphamu:4:2000"] + [f"level{k}" for k in range(1, 9)]


@pytest.mark.parametrize("players", [2, 3])
def test_built_in_bots_decide_alike_on_twin_games(players):
    """docs/levels.md and docs/matches.md: every built-in bot decides from its seat's observation
    alone. Twin games, the same from the seat's view (redeal_unseen: the other hands and the
    boneyard's order dealt again), get the same move from every bot with the same generator."""
    import copy
    import random

    from fiveup_solver.bots import check_bot, choose
    from fiveup_solver.inference import redeal_unseen
    g = Game(players=players, seed=21)
    for _ in range(3 * players):          # some actions in: draws and replies in the history
        g.push(g.legal_moves[-1])
    seat = g.to_move
    twin = copy.deepcopy(g)
    redeal_unseen(twin, seat, seed=99)
    others = [s for s in range(players) if s != seat]
    assert [g.hand(s) for s in others] != [twin.hand(s) for s in others]    # the twins differ
    obs, twin_obs = g.observation(seat), twin.observation(seat)
    assert obs == twin_obs
    names = [b for b in BUILT_IN_BOTS_TO_TWIN if not b.startswith("hint-alphamu") or players == 2]
    for name in names:
        check_bot(name, players)
        assert choose(name, obs, random.Random(5)) == choose(name, twin_obs, random.Random(5)), name


def test_an_observation_keys_a_cache():
    """A review: hash(obs) raised TypeError (its history holds dicts), so an app could not
    key a cache of hints by observation. Equal observations hash alike; two positions differ."""
    import copy
    g = Game(players=3, seed=8)
    obs = g.observation(g.to_move)
    cache = {obs: "hint"}
    assert cache[copy.deepcopy(obs)] == "hint" and hash(copy.deepcopy(obs)) == hash(obs)
    g.push(g.legal_moves[0])
    later = g.observation(g.to_move)
    assert later not in cache and len({obs, later, copy.deepcopy(later)}) == 2


def test_a_typed_move_is_read_as_fiveup_play_reads_it():
    """A review: no public helper turned a person's typed text into a legal move (fiveup play
    had one of its own). Game.parse_move: seed 0, seat 1 opened 0-3; seat 0 holds 0-4, 0-6,
    1-3, 1-5 and 5-6: 0-4 and 0-6 fit 0-3's low end (0), 1-3 its high end (3)."""
    from fiveup_solver.errors import ParseError
    g = Game(players=2, seed=0)
    g.push(g.parse_move("0-3"))
    assert g.parse_move("0-4") == Move.parse("0-4@0-3:low")            # a tile alone, one placement
    assert g.parse_move(" 1-3@0-3:HIGH ") == Move.parse("1-3@0-3:high")  # a port's name in any case
    for text, error, message in (
            ("2-2", IllegalMoveError, "2-2 is not in your hand"),
            ("0-4@0-3:high", IllegalMoveError, "0-4@0-3:high is not legal here; 0-4 goes 0-4@0-3:low"),
            ("1-5", IllegalMoveError, "1-5 is not legal here: legal are 0-4@0-3:low, 0-6@0-3:low, 1-3@0-3:high"),
            ("x", ParseError, "bad tile 'x': expected 'a-b' with pips 0-6"),
            (None, ParseError, "a move is typed text, not None")):
        with pytest.raises(error, match=f"^{re.escape(message)}$"):
            g.parse_move(text)
