"""``fiveup play`` as a person uses it: through a pseudo-terminal (pexpect), and scripted."""
from __future__ import annotations

import io
import json
import re
import sys

import pytest

from fiveup_solver.play import HELP, TerminalGame
from fiveup_solver.record import game_from_record, load_record, replay

pexpect = pytest.importorskip("pexpect")


def test_a_whole_game_through_a_pseudo_terminal(tmp_path):
    record = tmp_path / "game.json"
    saved = tmp_path / "early.json"
    child = pexpect.spawn(sys.executable, ["-m", "fiveup_solver.cli", "play", "--players", "2", "--bots", "greedy",
                                           "--seat", "1", "--seed", "7", "--record", str(record)],
                          encoding="utf-8", timeout=60, dimensions=(50, 200))
    child.expect("Type help for the commands")
    child.expect("> ")
    child.sendline("help")
    child.expect("commands: ")
    child.sendline("no-such-move")
    child.expect("error: not a move or a command")
    child.sendline("hint")
    child.expect(r"win +\d+\.\d %")
    child.sendline(f"save {saved}")
    child.expect("saved your view of the record")     # the game is not over: the others stay hidden
    child.sendline("board")                      # the position and the numbered moves again
    moves = 0
    undone = False
    while True:
        i = child.expect([r"your moves:\r?\n +1\. (\S+)", "game over: .*\r?\n", pexpect.EOF])
        if i != 0:
            break
        first = child.match.group(1)
        child.expect("> ")
        if moves == 3 and not undone:
            child.sendline("1")
            child.expect("> ")
            child.sendline("undo")
            child.expect("undone: your move")
            undone = True
            continue
        # alternate typing the number and the move in record notation
        child.sendline("1" if moves % 2 else first)
        moves += 1
    assert i == 1, child.before
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    rec = load_record(record)
    result = replay(rec)
    assert result["winner"] is not None and moves > 10
    # a review: save wrote every hidden tile (the bot's hand, the boneyard in draw order)
    # while the game went on; it writes seat 1's view until the game is over
    early = load_record(saved)
    assert early["view"] == 1 and early["rounds"][0]["hands"][0] is None and early["rounds"][0]["boneyard"] is None
    view = game_from_record(rec).to_record(view=1)
    assert early["rounds"][0]["actions"] == view["rounds"][0]["actions"][:len(early["rounds"][0]["actions"])]


def test_a_terminal_edits_the_line_and_recalls_the_last_one():
    """A review: the arrow keys reached the game as escape codes ("not a move or a command:
    '\\x1b[A'"). On a terminal the line is read with readline: Left moves in it, Up recalls
    the last line, Ctrl-D ends the game (exit 0)."""
    child = pexpect.spawn(sys.executable, ["-m", "fiveup_solver.cli", "play", "--bots", "greedy", "--seed", "4"],
                          encoding="utf-8", timeout=60, dimensions=(50, 200))
    child.expect("> ")
    child.send("hnt\x1b[D\x1b[Di\r")              # "hnt", Left Left, "i": hint
    child.expect(r"win +\d+\.\d %")
    child.expect("> ")
    child.send("\x1b[A\r")                         # Up, Enter: hint again
    assert child.expect([r"win +\d+\.\d %", "error: "]) == 0
    child.expect("> ")
    child.sendcontrol("d")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_play_help_names_the_game_commands_the_notation_and_the_bots(capsys, monkeypatch):
    """A review: `fiveup play --help` named neither the game's commands (hint, undo, save,
    board, quit) nor a bot, and the game's own help did not say what lineB or branchA are."""
    from fiveup_solver.cli import main
    monkeypatch.setenv("COLUMNS", "80")         # (argparse fills the options' help to it)
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = capsys.readouterr().out
    for word in ("hint", "undo", "save FILE", "board", "quit", "level1", "level8", "greedy", "random",
                 "lineA", "branchB", "low, high", "305"):
        assert word in text, word
    assert max(map(len, text.splitlines())) <= 80
    out = io.StringIO()
    TerminalGame(2, ["greedy"], 0, 3, out=out).run(["help", "quit"])
    assert "3-4@4-4:lineB puts\n  3-4 on the lineB end of 4-4" in out.getvalue()


def test_the_starter_is_named_as_the_seats_are_a_save_takes_a_home_folder_and_an_empty_record_name(
        tmp_path, monkeypatch, capsys):
    """Review nits: "round 1: seat 0 starts" where seat 0 is "you" everywhere else; `save
    ~/x.json` was "No such file or directory"; `--record ''` said "Is a directory"."""
    from fiveup_solver.cli import main
    monkeypatch.setenv("HOME", str(tmp_path))
    out = io.StringIO()
    tg = TerminalGame(2, ["greedy"], 0, 3, out=out)
    tg.run(["save ~/x.json"] + ["1"] * 1500)
    starts = re.findall(r"^round (\d+): (.*)$", out.getvalue(), re.M)
    assert [who for _, who in starts] == ["you start" if rl.starter == 0 else "seat 1 (greedy) starts"
                                          for rl in tg.game.rounds]
    assert {who for _, who in starts} == {"you start", "seat 1 (greedy) starts"}
    assert json.loads((tmp_path / "x.json").read_text())["view"] == 0
    assert main(["play", "--record", ""]) == 2
    assert capsys.readouterr().err == "error: --record needs a file name, not an empty one\n"


def test_scripted_input_ends_with_a_record(tmp_path):
    out = io.StringIO()
    record = tmp_path / "r.json"
    lines = ["9", "0-0@9-9:low", "save", "undo", "1", "1", "board"]
    rc = TerminalGame(2, ["random"], 0, 3, out=out, record_path=str(record)).run(iter(lines))
    text = out.getvalue()
    assert rc == 0
    assert "error: no move number 9" in text or "error: nothing to undo" in text
    assert "error: " in text and "Traceback" not in text
    assert "save needs a file name" in text
    rec = json.loads(record.read_text())
    assert rec["players"] == 2 and rec["rounds"]
    replay(rec)


def test_bad_options_are_one_line(capsys):
    from fiveup_solver.cli import main
    for argv, text in ((["play", "--seat", "5"], "--seat"), (["play", "--bots", "nobot"], "unknown bot")):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and text in err and err.count("\n") == 1


def test_typing_the_number_a_hint_shows_plays_that_move():
    """The hint lists moves best first, each under its own move number: typing the
    number on a hint line plays the move on that line (here always the last line,
    the worst move, whose rank differs from its number somewhere in the game)."""
    import re

    from fiveup_solver.notation import format_move
    out = io.StringIO()
    tg = TerminalGame(2, ["greedy"], 0, 5, out=out, hint_samples=8)
    tg.advance()
    checked = differed = 0
    line_re = re.compile(r"^ +(\d+)\. (\S+)(?: +win +[\d.]+ % \+-[\d.]+ +[+-][\d.]+ pts \+-[\d.]+  #(\d+)"
                         r"| \(the only move\))$")
    while not tg.finished and checked < 12:
        legal = tg.game.legal_moves
        out.seek(0)
        out.truncate()
        tg.handle("hint")
        shown = [line_re.match(x) for x in out.getvalue().splitlines()]
        shown = [m for m in shown if m]
        assert len(shown) == len(legal)
        assert sorted(int(m.group(1)) for m in shown) == list(range(1, len(legal) + 1))
        for m in shown:                          # each number is the move's own number in the list
            assert format_move(legal[int(m.group(1)) - 1]) == m.group(2)
        number, text, rank = shown[-1].groups()
        differed += rank is not None and number != rank
        before = len(tg.game.current.moves)
        round_before = len(tg.game.rounds)
        tg.handle(number)
        moves = tg.game.rounds[round_before - 1].moves
        seat, played = moves[before]
        assert seat == 0 and format_move(played) == text
        checked += 1
    assert checked == 12 and differed > 0


def test_play_names_the_other_seats_bots_as_the_browser_app_does(capsys):
    """--bots named one bot per seat, the person's entry dropped: 'greedy,random' with 2
    players played random, and level3 of 'level1,level2,level3' never played from seat 2
    of 4. It now names the other seats in seat order, as POST /api/games does."""
    from fiveup_solver import OptionError
    from fiveup_solver.play import bots_for_seats
    assert bots_for_seats(4, 2, ["level1", "level2", "level3"]) == ["level1", "level2", "level1", "level3"]
    assert bots_for_seats(3, 0, ["greedy"]) == ["greedy", "greedy", "greedy"]
    with pytest.raises(OptionError, match="2 bots named for 1 other seat$"):
        bots_for_seats(2, 0, ["greedy", "random"])
    from fiveup_solver.cli import main
    assert main(["play", "--players", "2", "--bots", "greedy,random"]) == 2
    assert "2 bots named for 1 other seat\n" in capsys.readouterr().err


def _hidden(game, seat):
    """The tiles `seat` cannot see: every other hand, and the boneyard in its order."""
    return ([sorted(map(str, game.hand(s))) for s in range(game.players) if s != seat],
            [str(t) for t in game.boneyard])


def test_undo_deals_the_unseen_tiles_again():
    """Undo replayed the same deal: the bots' tiles shown after the undone move and the
    boneyard's order were known in advance. Now the unseen tiles are dealt again,
    consistently with everything the person saw (its view is the same as before the
    move), deterministically for the game's seed."""
    from fiveup_solver.notation import format_move
    changed = checked = 0
    for seed in range(12):
        runs = []
        for _ in range(2):
            tg = TerminalGame(2, ["greedy"], 0, seed, out=io.StringIO())
            tg.advance()
            g = tg.game
            before_obs = g.observation(0).to_dict()
            before_hidden = _hidden(g, 0)
            move = g.legal_moves[-1]
            g.push(move)
            tg.report_events(0, move, [])
            tg.advance()
            if tg.finished or len(g.rounds) > 1:
                break
            tg.undo()
            assert g.observation(0).to_dict() == before_obs         # all the person saw, unchanged
            # the deal is a deal: every tile once, the round replays to this position
            tiles = [t for h in range(2) for t in g.current.hands[h]] + list(g.current.boneyard)
            assert len(set(tiles)) == 28 and len(tiles) == 28
            runs.append((_hidden(g, 0), [format_move(m) for _, m in g.current.moves]))
            changed += _hidden(g, 0) != before_hidden
            checked += 1
            tg.advance()                                              # and play goes on
            assert not tg.finished or g.game_over
        if len(runs) == 2:
            assert runs[0] == runs[1]                                 # the same for the same seed
    assert checked >= 10 and changed >= checked // 2, (changed, checked)


def test_without_a_seed_a_game_is_dealt_in_secret_and_its_seed_said_at_the_end(tmp_path):
    """--seed defaulted to 0: every game without one was the same deal, and a known seed
    deals every hidden tile. Now a secret seed is drawn and said when the game ends."""
    import re

    from fiveup_solver import Game
    from fiveup_solver.play import play_in_terminal
    firsts = set()
    for k in range(3):
        out = io.StringIO()
        path = tmp_path / f"g{k}.json"
        assert play_in_terminal(2, ["greedy", "greedy"], 0, None, inp=io.StringIO("1\n" * 3000), out=out,
                                record_path=str(path)) == 0
        said = re.search(r"this game's seed was (\d+): --seed \1 deals it again", out.getvalue())
        assert said, out.getvalue()[-500:]
        record = json.loads(path.read_text())
        seed = int(said.group(1))
        assert record["rounds"][0]["hands"] == Game(players=2, seed=seed).to_record()["rounds"][0]["hands"]
        firsts.add(json.dumps(record["rounds"][0]["hands"]))
    assert len(firsts) == 3
    # a seed given deals that seed's game and is not said again
    out = io.StringIO()
    play_in_terminal(2, ["greedy", "greedy"], 0, 5, inp=io.StringIO("quit\n"), out=out)
    assert "seed was" not in out.getvalue()


def test_the_secret_seed_is_said_only_at_the_end_and_never_as_this_game_after_an_undo(tmp_path):
    """A review: `quit` said the secret seed (which deals every hidden tile) while the saved
    view said the other hands stay hidden; and after an undo, which deals the unseen tiles
    again, "--seed S deals it again" was false: that seed deals another game."""
    from fiveup_solver import Game
    from fiveup_solver.play import play_in_terminal
    out = io.StringIO()
    play_in_terminal(2, ["greedy"], 0, None, inp=io.StringIO("1\nquit\n"), out=out, record_path=str(tmp_path / "q.json"))
    assert "seed was" not in out.getvalue() and "you left the game unfinished (quit)" in out.getvalue()
    out = io.StringIO()
    path = tmp_path / "u.json"
    assert play_in_terminal(2, ["greedy"], 0, None, inp=io.StringIO("1\nundo\n" + "1\n" * 3000), out=out,
                            record_path=str(path)) == 0
    said = re.search(r"this game's seed was (\d+): --seed \1 deals its first deal; your 1 undo dealt the tiles "
                     r"you had not seen again, so the record holds the game as played", out.getvalue())
    assert said, out.getvalue()[-400:]
    # the claim checked: the seed's first deal gives the person's hand as dealt, and the
    # record (the game as played) differs from the seed's deal in the tiles dealt again
    first = Game(players=2, seed=int(said.group(1))).to_record()["rounds"][0]
    played = json.loads(path.read_text())["rounds"][0]
    assert sorted(played["hands"][0]) == sorted(first["hands"][0])
    assert (played["hands"][1], played["boneyard"]) != (first["hands"][1], first["boneyard"])


def test_commands_in_any_case_and_their_short_forms():
    """A review: `q`, `exit`, `Quit`, `HINT` and `?` were "not a move or a command"; the
    help line (81 characters) wrapped at 80 columns; a round's end was printed as JSON."""
    out = io.StringIO()
    tg = TerminalGame(2, ["greedy"], 0, 7, out=out)
    tg.run(["?", "HELP", "Board", "q"])
    text = out.getvalue()
    assert text.count("commands: a move number") == 2 and "error" not in text
    help_lines = HELP.splitlines()
    assert all(len(line) < 80 for line in help_lines) and text.count(help_lines[-1]) == 2
    assert tg.finished
    for word in ("exit", "Quit", "QUIT", "q"):
        tg = TerminalGame(2, ["greedy"], 0, 7, out=io.StringIO())
        tg.run([word, "1"])
        assert tg.finished and len(tg.game.current.moves) <= 2       # quit before the move


def test_a_round_end_is_said_in_words():
    out = io.StringIO()
    tg = TerminalGame(2, ["greedy"], 0, 3, out=out)
    tg.run(["1"] * 400)
    ends = [line for line in out.getvalue().splitlines() if " ends: " in line]
    assert ends and not any("{" in line for line in ends)
    # by hand from the record: each round's end as RECORD.md has it, in words
    for r, log in enumerate(tg.game.rounds):
        end = log.end()
        if end["end"] == "domino":
            assert any(line.startswith(f"round {r} ends: seat {end['seat']} (") and "emptied their hand" in line
                       for line in ends)


def test_a_narrow_terminal_breaks_lines_between_words():
    """A review: at 60 columns the terminal broke lines inside tokens ('35 raw (' / '7)',
    '1' / '-6@3-6:high'). Lines now break between words at the terminal's own width, and
    the hint table fits 60 columns."""
    child = pexpect.spawn(sys.executable, ["-m", "fiveup_solver.cli", "play", "--bots", "greedy", "--seed", "4"],
                          encoding="utf-8", timeout=60, dimensions=(40, 60))
    child.expect("> ")
    first = child.before
    child.sendline("hint")
    child.expect(r"#: rank\r\n> ")
    text = (first + child.before + child.after).replace("\r", "")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    lines = text.split("\n")
    assert all(len(line) <= 60 for line in lines), max(lines, key=len)
    assert sum(1 for line in lines if re.search(r"win +\d+\.\d % \+-\d+\.\d .* #\d$", line)) == 5
    assert "0 raw (0)" in text.replace("\n    ", " ")          # a score is never cut inside


def test_each_event_of_a_blocked_round_shows_the_scores_after_it():
    """A blocked round's credits are several events of one action: each line showed the
    scores after the last. This game (4 players, seed 0, the person seat 1 against random
    bots) blocks in round 4 with side 1 at 115 raw; its block credits +20 then +15 are
    accepted (115 + 20 = 135 < 305, 135 + 15 = 150), so the lines read 135, then 150."""
    out = io.StringIO()
    moves = "4 4 3 1 1 5 1 1 4 4 1 1 1 2 1 2 4 3 1 1 5 1 1 2".split()
    TerminalGame(4, ["random"], 1, 0, out=out).run(iter(moves))
    lines = [line for line in out.getvalue().splitlines() if "block event" in line]
    assert [re.search(r"side 1 (\+\d+) raw; scores side 0 165 raw \(33\), side 1 \(you\) (\d+) raw", line).groups()
            for line in lines] == [("+20", "135"), ("+15", "150")]
    # each credit's parts follow it (RULES §6.5), checked by hand from the hands left: seat 0
    # 2-2 4-4 (12 pips), you 1-1 1-5 (8), seat 2 0-0 0-3 0-5 1-2 2-3 3-3 (22), seat 3 5-5 (10).
    # You (8): opponents 0 and 2 hold 12 - 8 = 4 and 22 - 8 = 14 more, 18, rounded to 20;
    # seat 3 (10): 12 - 10 = 2 and 22 - 10 = 12, 14, rounded to 15
    text = out.getvalue().splitlines()
    parts = [text[k + 1] for k, line in enumerate(text) if "block event" in line]
    assert parts == ["    you: 8 pips; heavier opponents: seat 0 (random) (12 - 8 = 4), seat 2 (random) (22 - 8 = 14); "
                     "4 + 14 = 18, rounded to 20",
                     "    seat 3 (partner, random): 10 pips; heavier opponents: seat 0 (random) (12 - 10 = 2), "
                     "seat 2 (random) (22 - 10 = 12); 2 + 12 = 14, rounded to 15"]
    assert "  seat 0 (random): 2-2 4-4 (12 pips)" in text and "  you: 1-1 1-5 (8 pips)" in text


def test_ctrl_c_keeps_the_game_in_the_record(tmp_path):
    """Ctrl-C at the prompt (KeyboardInterrupt from the input) saved nothing, though Ctrl-D
    and quit write the record: now the person's view is written and the interrupt goes on."""
    record = tmp_path / "r.json"
    out = io.StringIO()

    def typed():
        yield "1"
        raise KeyboardInterrupt
    game = TerminalGame(2, ["random"], 0, 3, out=out, record_path=str(record))
    with pytest.raises(KeyboardInterrupt):
        game.run(typed())
    rec = json.loads(record.read_text())
    assert rec["rounds"][0]["actions"], "the move typed before Ctrl-C is in the record"
    assert "saved your view of the record" in out.getvalue()
    replay(rec)


@pytest.mark.parametrize("players, seat, bots, want", [
    (3, 1, ["level1", "level2"], ["level1", "you", "level2"]),
    (4, 1, ["level1", "level2", "level3"], ["level1", "you", "level2", "level3"]),
    (4, 3, ["greedy"], ["greedy", "greedy", "greedy", "you"]),
    (3, 2, ["random", "greedy", "level1"], ["random", "greedy", "you"]),     # one per seat, as the CLI gives them
])
def test_the_other_seats_bots_are_given_in_seat_order(players, seat, bots, want):
    """TerminalGame took a shorter list by seat index and then put the person over one of
    them: level2 was lost when the person was seat 1 of 3."""
    assert TerminalGame(players, bots, seat, 0, out=io.StringIO()).bots == want


def test_a_value_and_its_error_stay_on_one_line_in_a_narrow_terminal(monkeypatch):
    """A review: at 60 columns `fiveup hint` rows broke inside numbers ("-7" / ".1 +- 3.0"):
    the terminal's own wrap. Lines now break between words, and never between a value and
    its standard error (the spaces around "+-" are not break points)."""
    from fiveup_solver import notation

    class Terminal(io.StringIO):
        def isatty(self):
            return True
    monkeypatch.setattr(notation, "_terminal_columns", lambda out: 41)
    row = "   2. 4-6  win  53.3 +- 1.2 %     +7.9 +- 2.9 pts     -1.9 +- 1.1 win-%"
    lines = notation.fit_to_terminal(row, Terminal()).split("\n")
    # nor between a number and its unit (a later review: "win-%" alone on a line of its own)
    assert lines == ["   2. 4-6  win  53.3 +- 1.2 %", "    +7.9 +- 2.9 pts", "    -1.9 +- 1.1 win-%"]
    assert notation.fit_to_terminal(row, io.StringIO()) == row            # not a terminal: as it is


@pytest.mark.parametrize("columns", [40, 52, 80])
def test_the_hint_table_keeps_its_rows_whole_in_a_narrow_terminal(monkeypatch, columns):
    """A review: under 60 columns each hint row was broken mid-row by the line filling
    ("2. 2-5@3-5:high    win 29.5 % +-0.8" / "    -21.7 pts +-3.7  #1"). A row too wide
    for the terminal is the move with its rank, and its values on the next line."""
    import re

    from fiveup_solver import notation

    class Terminal(io.StringIO):
        def isatty(self):
            return True
    monkeypatch.setattr(notation, "_terminal_columns", lambda out: columns)
    out = Terminal()
    tg = TerminalGame(2, ["greedy"], 0, 5, out=out, hint_samples=4)
    tg.advance()
    while len(tg.game.legal_moves) < 3 or not any("@" in str(m) for m in tg.game.legal_moves):
        tg.handle("1")
    legal = tg.game.legal_moves
    out.seek(0)
    out.truncate()
    tg.handle("hint")
    lines = out.getvalue().splitlines()
    values = r"win +[\d.]+ % \+-[\d.]+ +[+-][\d.]+ pts \+-[\d.]+"
    wide = [line for line in lines if re.fullmatch(rf" +\d+\. \S+ +{values}  #\d+", line)]
    heads = [k for k, line in enumerate(lines) if re.fullmatch(r" +\d+\. \S+  #\d+", line)]
    if columns == 80:
        assert len(wide) == len(legal) and not heads
    else:
        # (the widest 2-player move names a port: "1-5@0-1:lineA", a row of 59 or more characters)
        assert not wide and len(heads) == len(legal)
        assert all(re.fullmatch(rf" {{6}}{values}", lines[k + 1]) for k in heads)
        assert max(len(lines[k]) for k in heads) < columns and max(len(lines[k + 1]) for k in heads) < columns


def test_match_and_placement_text_fit_the_terminal_and_tables_stay_whole(monkeypatch):
    """A review: `fiveup match` and `sprt` result lines (84 to 98 columns) and the ladder
    placement's text broke mid-word in an 80-column terminal. They are fitted as hint's
    are; a Markdown table's row is never broken (broken, it is no row): one that fits is
    kept, one too wide becomes aligned columns, its last column below each row."""
    from fiveup_solver import notation
    from fiveup_solver.cli import main

    class Terminal(io.StringIO):
        def isatty(self):
            return True
    monkeypatch.setattr(notation, "_terminal_columns", lambda out: 60)
    table = ("| level | its Elo | agent's score | games | pentanomial (pairs scoring 0, 1/2, 1, 3/2, 2) |\n"
             "|---|---|---|---|---|\n| level2 | +140 | 81.0 % | 200 | 0 3 10 30 57 |")
    assert notation.fit_to_terminal(table + "\n" + "word " * 12, Terminal()).split("\n") == [
        "level   its Elo  agent's score  games",
        "    pentanomial (pairs scoring 0, 1/2, 1, 3/2, 2)",
        "level2     +140         81.0 %    200",
        "    0 3 10 30 57",
        "word word word word word word word word word word word word"]
    narrow = "| level | Elo | recipe |\n|---|---|---|\n| level5 | 388 | the largest immediate credit |"
    assert notation.fit_to_terminal(narrow, Terminal()) == narrow          # it fits: as written
    monkeypatch.setattr(notation, "_terminal_columns", lambda out: 44)     # rows of 47
    assert notation.fit_to_terminal(narrow, Terminal()).split("\n") == [
        "level   Elo  recipe", "level5  388  the largest immediate credit"]
    monkeypatch.setattr(notation, "_terminal_columns", lambda out: 60)
    for argv in (["match", "--bots", "greedy,random", "--deals", "2", "--workers", "1"],
                 ["sprt", "--bots", "greedy,random", "--max-games", "4", "--workers", "1"]):
        term = Terminal()
        monkeypatch.setattr("sys.stdout", term)
        assert main(argv) == 0
        # (sprt's progress line on a terminal is cut to the terminal's own width: not these)
        lines = [line for line in term.getvalue().splitlines() if line.strip() and not line.startswith("pairs ")]
        assert len(lines) >= 3 and max(map(len, lines)) <= 59, lines


def test_solve_and_demo_fit_a_narrow_terminal(monkeypatch, tmp_path):
    """A review: `fiveup solve` and `fiveup demo` were not fitted to the terminal, so at 40
    columns numbers broke apart ("+1" / "0 pts", "+10 r" / "aw"). Their lines now break
    between words, and a number keeps its per cent sign ("56.2 %")."""
    from fiveup_solver import notation
    from fiveup_solver.cli import main
    from fiveup_solver.selfplay import play_game

    class Terminal(io.StringIO):
        def isatty(self):
            return True
    monkeypatch.setattr(notation, "_terminal_columns", lambda out: 40)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(play_game(2, 2, ["greedy", "greedy"]).to_record()))
    for argv in (["solve", str(path), "--round", "0", "--action", "0", "--quiet"], ["demo", "--bots", "greedy"]):
        texts = []
        for out in (Terminal(), io.StringIO()):          # on a terminal, then piped (as it is)
            monkeypatch.setattr("sys.stdout", out)
            assert main(argv) == 0
            texts.append(re.sub(r"[\d.]+ ms\)", "ms)", out.getvalue()))     # (solve's time varies)
        lines = texts[0].splitlines()
        assert len(lines) > 5 and lines != texts[1].splitlines()
        # a line longer than the terminal is one word too long to break (a record-notation move)
        assert all(len(line) <= 40 or " " not in line.strip() for line in lines), [x for x in lines if len(x) > 40]
        # broken only between words: the same words as piped, and a per cent sign after its number
        assert texts[0].split() == texts[1].split()
        assert not any(line.lstrip().startswith("%") for line in lines)


def test_a_nul_byte_in_a_file_name_and_a_huge_move_number_are_one_line_each(tmp_path):
    """A NUL typed into `save` (Ctrl-@ in a terminal) made open() raise ValueError, and a
    move number past Python's 4,300-digit limit made int() raise: either ended the game
    with a traceback and lost its record. Both are one error line; the game goes on."""
    out = io.StringIO()
    record = tmp_path / "r.json"
    huge = "9" * 5000
    lines = [f"save {tmp_path}/a\0b.json", huge, "1", "quit"]
    rc = TerminalGame(2, ["random"], 0, 3, out=out, record_path=str(record)).run(iter(lines))
    text = out.getvalue()
    assert rc == 0 and "Traceback" not in text
    assert "a file name cannot hold a NUL byte" in text
    errors = [line[line.index("error: "):] for line in text.splitlines() if "error: no move number" in line]
    assert len(errors) == 1 and errors[0].startswith(f"error: no move number {'9' * 17}...: choose 1..")
    assert len(errors[0]) < 60
    rec = json.loads(record.read_text())
    assert rec["rounds"][0]["actions"], "the move after the errors was played"
    replay(rec)


def _hands_left(rnd: dict) -> list:
    """A record round's hands at its end, by hand: the dealt hands, plus each seat's draws,
    less its plays."""
    hands = [set(h) for h in rnd["hands"]]
    for a in rnd["actions"]:
        if "draw" in a:
            hands[a["seat"]].add(a["draw"])
        if "play" in a:
            hands[a["seat"]].discard(a["play"])
    return hands


def test_a_round_end_shows_the_hands_left_and_four_players_name_the_partner():
    """A review (RULES 2.2: the hands left are shown for the end's scoring): a domino's or a
    blocked round's credit could not be checked, no hand being shown; with 4 players
    nothing said which seat is the partner."""
    out = io.StringIO()
    tg = TerminalGame(2, ["greedy"], 0, 3, out=out)
    tg.run(["1"] * 400)
    lines = out.getvalue().splitlines()
    shown = [lines[k + 1:k + 3] for k, line in enumerate(lines) if line == "hands left:"]
    record = tg.game.to_record()
    assert len(shown) == len(record["rounds"])
    for r, rnd in enumerate(record["rounds"]):
        hands = _hands_left(rnd)
        want = []
        for s, hand in enumerate(hands):
            name = "you" if s == 0 else "seat 1 (greedy)"
            pips = sum(int(x) for t in hand for x in t.split("-"))
            want.append(f"  {name}: {' '.join(sorted(hand))} ({pips} pips)" if hand else f"  {name}: none")
        assert shown[r] == want
    out = io.StringIO()
    TerminalGame(4, ["level3"], 1, 21, out=out).run(["quit"])
    text = out.getvalue()
    assert "; your partner is seat 3. " in text.splitlines()[0]
    assert re.search(r"hand sizes seat 0 \(level3\): \d, seat 2 \(level3\): \d, seat 3 \(partner, level3\): \d", text)


def test_the_board_says_whether_the_last_placement_counted():
    """A review: the board said "(the last placement scored)" under a placement whose credit
    the exact target had rejected (RULES §6.1: an event above 305 is rejected whole). Each
    board line's note is checked against the events printed after the last placement."""
    out = io.StringIO()
    TerminalGame(2, ["greedy"], 0, 11, out=out).run(["1"] * 1500)
    lines = out.getvalue().splitlines()
    notes = {"scored": 0, "rejected": 0}
    for k, line in enumerate(lines):
        if not line.startswith("open ends:"):
            continue
        placed = max(i for i in range(k) if re.search(r"^(you play|seat \d .*plays) ", lines[i]))
        event = lines[placed + 1] if lines[placed + 1].startswith("  placement event:") else ""
        if "REJECTED" in event:
            raw = re.search(r"\+(\d+) raw REJECTED", event).group(1)
            assert line.endswith(f"(the last placement's {raw} not counted: above 305)"), (event, line)
            notes["rejected"] += 1
        elif event:
            assert line.endswith("(the last placement scored)"), (event, line)
            notes["scored"] += 1
        else:
            assert not line.endswith(")"), line
    assert notes["scored"] >= 3 and notes["rejected"] >= 1


@pytest.mark.parametrize("players,seed", [(4, 5), (3, 8)])
def test_a_domino_shows_its_parts_each_checked_by_hand(players, seed):
    """A review: the round's end gave the hands' pips but not how a domino's credit is
    made of them. Each domino event is followed by "P + O (the opponents' pips) - D (the
    partner's pips) = raw" (RULES §6.3); here P comes from the independent reference's
    end sum, the pips from the record's hands (dealt, plus draws, less plays) and the
    rounding from the rule, and the total from the event's own line."""
    try:
        from . import reference as R
    except ImportError:
        import reference as R
    out = io.StringIO()
    tg = TerminalGame(players, ["greedy"], 0, seed, out=out)
    tg.run(["1"] * 1500)
    lines = out.getvalue().splitlines()
    record = tg.game.to_record()
    ref = R.replay(record)
    parts = [(lines[k - 1], line) for k, line in enumerate(lines) if line.startswith("    P ")]
    dominoes = [r for r, end in enumerate(ref["rounds"]) if end["end"] == "domino"]
    assert len(parts) == len(dominoes) >= 2
    for r, (event_line, line) in zip(dominoes, parts):
        rnd = record["rounds"][r]
        hands = _hands_left(rnd)
        pips = [sum(int(x) for t in hand for x in t.split("-")) for hand in hands]
        seat = rnd["actions"][-1]["seat"]
        partner = (seat + 2) % 4 if players == 4 else None
        opp = sum(pips[q] for q in range(players) if q not in (seat, partner))
        nearest5 = lambda x: (x + 2) // 5 * 5          # RULES §6.4
        p = R.placement_credit([pl for pl in ref["placements"] if pl["round"] == r][-1]["end_sum"])
        raw = int(re.search(r"domino event: side \d ([+-]\d+) raw", event_line).group(1))
        def said(count):        # the rounding said where it changes the number
            return f"{count} pips" if count % 5 == 0 else f"{count} pips, rounded to {nearest5(count)}"
        want = f"    P {p} + O {nearest5(opp)} (the opponents' {said(opp)})"
        if partner is not None:
            want += f" - D {nearest5(pips[partner])} (the partner's {said(pips[partner])})"
        assert line == f"{want} = {raw}"


def test_a_move_typed_wrongly_says_why_and_a_tile_with_one_placement_needs_no_port(monkeypatch):
    """A review: a tile not in the hand and a tile at a wrong port both read "not legal
    here"; a port's name was case-sensitive though commands are not; a tile alone was
    refused where it has one placement; Ctrl-C during a hint ended the whole game."""
    from fiveup_solver.errors import OptionError
    tg = TerminalGame(2, ["greedy"], 0, 5, out=io.StringIO())
    g = tg.game
    while True:           # play on until the person has a tile with exactly one placement
        plays = [m for m in g.legal_moves if m.kind == "play" and m.at is not None]
        by_tile = {}
        for m in plays:
            by_tile.setdefault(m.tile, []).append(m)
        single = [ms[0] for ms in by_tile.values() if len(ms) == 1]
        if single:
            break
        tg.handle("1")
    move = single[0]
    assert tg.parse_entry(str(move.tile)) == move
    port = str(move.at)
    upper = f"{move.tile}@{port.split(':')[0]}:{port.split(':')[1].upper()}"
    assert tg.parse_entry(upper) == move
    absent = next(t for t in ("0-0", "1-1", "2-2", "3-3", "4-4", "5-5", "6-6", "0-6", "1-6")
                  if t not in {str(x) for x in g.hand(0)})
    with pytest.raises(OptionError, match=rf"^{absent} is not in your hand$"):
        tg.parse_entry(absent)
    wrong = next(p for p in g.open_ports() if str(p) != port)
    if f"{move.tile}@{wrong}" not in {str(m) for m in g.legal_moves}:
        with pytest.raises(OptionError, match=rf"is not legal here; {move.tile} goes {re.escape(str(move))}$"):
            tg.parse_entry(f"{move.tile}@{wrong}")

    # at an opening, a tile typed with a port (a review: "3-6 goes 3-6")
    opening = TerminalGame(2, ["greedy"], 0, 4, out=io.StringIO())
    opening.advance()
    first = opening.game.legal_moves[0]
    assert not opening.game.current.moves and first.at is None
    with pytest.raises(OptionError, match=rf"^{first.tile}@3-3:lineB is not legal here: the opening is a tile "
                                          rf"alone, {first.tile}$"):
        opening.parse_entry(f"{first.tile}@3-3:lineB")

    def interrupted():
        raise KeyboardInterrupt
    monkeypatch.setattr(tg, "hint", interrupted)
    assert tg.handle("hint") is False and not tg.finished
    assert "hint stopped (Ctrl-C); your move" in tg.out.getvalue()


def test_a_second_port_of_one_placement_is_said_to_be_the_same_move():
    """A review: 0-2 on 2-2's branchA and on its branchB were listed, and hinted, as two
    moves with the same values (RULES §3.4: the branches are equivalent). The list keeps
    both numbers (either can be typed) and says the second is the first; the hint gives
    the values once. Seed 0 against greedy, after seven "1"s: 0-2 fits 0-5's low end and
    2-2's two open branches (2-3 is on its lineB)."""
    from fiveup_solver.notation import Move
    out = io.StringIO()
    tg = TerminalGame(2, ["greedy"], 0, 0, out=out, hint_samples=8)
    tg.advance()
    for _ in range(7):
        tg.handle("1")
    assert [str(m) for m in tg.game.legal_moves] == ["0-2@0-5:low", "0-2@2-2:branchA", "0-2@2-2:branchB"]
    out.seek(0)
    out.truncate()
    tg.show_moves()
    assert out.getvalue().splitlines() == ["   1. 0-2@0-5:low", "   2. 0-2@2-2:branchA",
                                           "   3. 0-2@2-2:branchB  (the same as 2)"]
    out.seek(0)
    out.truncate()
    tg.handle("hint")
    rows = [x for x in out.getvalue().splitlines() if re.match(r" +\d\. ", x)]
    assert len(rows) == 3
    same = [x for x in rows if "0-2@2-2:branchB" in x]
    assert same == ["   3. 0-2@2-2:branchB  the same as 2"]
    assert sum("win " in x for x in rows) == 2
    before = len(tg.game.current.moves)
    tg.handle("3")                                     # the number said to be the same still plays
    assert tg.game.current.moves[before] == (0, Move.parse("0-2@2-2:branchB"))
