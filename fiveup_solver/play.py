"""A person plays a whole game against the bots in the terminal.

``fiveup play [--players N] [--bots B1,...] [--seat S] [--seed X] [--record OUT.json]``

The program reads one command per line from its input, so a game can be
scripted (``fiveup play ... < commands.txt``):

* a move: its number in the list, or record notation (``3-4@4-4:lineB``);
* ``hint``: the engine's ranked moves for the person's seat (win % and points),
  each under its own number from the move list;
* ``undo``: take back the person's last move in this round (and the bots' replies);
  the tiles the person has not seen are dealt again (:meth:`TerminalGame.undo`);
* ``save FILE``: write the game's record now;
* ``board``: show the position again; ``help``; ``quit``.

Forced draws and passes are made for the person, and said. Bad input is one
line and a new prompt. At the end of the game, or of the input, the record is
written to ``--record`` (when given) and the program exits 0; the record is
the format ``fiveup replay`` and ``fiveup analyze`` read.
"""
from __future__ import annotations

import json
import os
import random
import secrets

from fiveup_solver.bots import bot_function, bot_move, check_bot
from fiveup_solver.errors import (BotError, FiveUpError, IllegalMoveError, OptionError, ParseError, as_int, check_players, is_digits, is_int as _is_int,
                                  short_repr as _short)
from fiveup_solver.game import Game
from fiveup_solver.hint import hint
from fiveup_solver.inference import redeal_unseen
from fiveup_solver.notation import (fit_to_terminal, format_block_part, format_domino_parts, format_move,
                                    format_round_end, raw_to_display, same_as_earlier, terminal_width)

__all__ = ["EditedInput", "TerminalGame", "play_in_terminal"]

HELP = ("commands: a move number, or a move in record notation: 3-4@4-4:lineB puts\n"
        "  3-4 on the lineB end of 4-4 (a tile's ends: low, high; a double's: lineA,\n"
        "  lineB, then branchA, branchB); a tile alone where it fits one place\n"
        "  hint: the engine's ranked moves; undo: take back your last move this round\n"
        "  save FILE, board, help (?), quit (q, exit); the target: exactly 305 raw (61)")
# what a command may also be typed as (in any case)
COMMAND_ALIASES = {"?": "help", "q": "quit", "exit": "quit"}


class TerminalGame:
    """One person (``seat``) against bots; input lines in, text out."""

    def __init__(self, players: int = 2, bots=None, seat: int = 0, seed: int | None = 0, *, out, record_path=None,
                 hint_samples: int = 32):
        """``bots``: the other seats' bots in seat order (a shorter list repeats), or one name
        per seat (the person's own unused); None: the hint bot. ``seed`` None: one drawn in
        secret (the seed deals every hidden tile, so a seed the person knows hides nothing),
        said at the game's end."""
        players = check_players(players)
        self.secret_seed = seed is None
        if seed is None:
            seed = secrets.randbits(63)
        seat = as_int(seat)
        if not _is_int(seat) or not 0 <= seat < players:
            raise OptionError(f"--seat must be 0..{players - 1}, not {_short(seat)}")
        bots = list(bots or ["hint"]) if isinstance(bots, (list, tuple)) or bots is None else bots
        if not isinstance(bots, list) or len(bots) != players:
            # the other seats' bots in seat order (a shorter list repeats), as fiveup play takes them
            bots = bots_for_seats(players, seat, bots)
        for b in bots:
            bot_function(b)
        self.bots = bots[:]
        self.bots[seat] = "you"
        self.players, self.seat, self.seed = players, seat, seed
        self.out = out
        self.record_path = record_path
        self.hint_samples = hint_samples
        names = [("you" if s == seat else f"{self.bots[s]}") for s in range(players)]
        self.game = Game(players=players, seed=seed, seats=names)
        self.rngs = [random.Random(f"{seed}/play/{s}") for s in range(players)]
        self.finished = False
        self.undos = 0                      # undos so far: each deals the unseen tiles again
        self.prompt_text = "> "             # none when the input draws its own (EditedInput)

    # ------------------------------------------------------------ output
    def say(self, text: str = "") -> None:
        self.out.write(fit_to_terminal(text, self.out) + "\n")
        self.out.flush()

    def seat_name(self, s: int) -> str:
        """``you``, or ``seat S (BOT)``; with 4 players the partner (the seat opposite) is named so."""
        if s == self.seat:
            return "you"
        partner = "partner, " if self.players == 4 and s == (self.seat + 2) % 4 else ""
        return f"seat {s} ({partner}{self.bots[s]})"

    def starts_text(self) -> str:
        """Who opens this round: "you start", or "seat 1 (greedy) starts"."""
        starter = self.game.current.starter
        return "you start" if starter == self.seat else f"{self.seat_name(starter)} starts"

    def scores_text(self, scores=None) -> str:
        """The scores now, or ``scores`` (those after one event of several: a blocked round's)."""
        g = self.game
        side = g.current.core.side_of(self.seat)
        return ", ".join(f"side {s}{' (you)' if s == side else ''} {x} raw ({raw_to_display(x)})"
                         for s, x in enumerate(g.scores if scores is None else scores))

    def show(self) -> None:
        g = self.game
        r = g.current
        self.say(f"--- round {len(g.rounds) - 1}, scores: {self.scores_text()}")
        board = " ".join(format_move(m) for _, m in r.moves if m.kind == "play")
        self.say(f"board (in play order): {board or '(empty)'}")
        ports = ", ".join(f"{p}={p.value}" for p in g.open_ports())
        ends = " + ".join(str(v) for _, v in g.scoring_ends()) or "0"
        # (the last placement's credit, already in the scores: "scores!" read as one to come;
        # a credit the exact target rejected is said as such, a review: it read "scored")
        credit = [e for e in r.last_placement_events() or () if e.kind == "placement"]
        scoring = ("" if not credit else "  (the last placement scored)" if credit[0].accepted
                   else f"  (the last placement's {credit[0].raw} not counted: above 305)")
        self.say(f"open ends: {ports or '(any tile opens)'}; end sum {ends} = {g.end_sum}{scoring}")
        hands = ", ".join(f"{self.seat_name(s)}: {len(g.hand(s))}" for s in range(g.players) if s != self.seat)
        self.say(f"boneyard {r.core.boneyard_size} tiles; hand sizes {hands}")
        self.say(f"your hand: {' '.join(str(t) for t in g.hand(self.seat))}")

    def show_moves(self) -> None:
        legal = self.game.legal_moves
        for k, (m, same) in enumerate(zip(legal, same_as_earlier(legal)), 1):
            # a second port of one placement (RULES §3.4) is said to be one, not offered as a choice
            self.say(f"  {k:>2}. {format_move(m)}" + ("" if same is None else f"  (the same as {same + 1})"))

    def report_events(self, seat: int, move, events) -> None:
        who = self.seat_name(seat)
        if move.kind == "play":
            self.say(f"{who} play{'s' if seat != self.seat else ''} {format_move(move)}; end sum {self.game.end_sum}")
        elif move.kind == "draw":
            tile = f" {move.tile}" if seat == self.seat and move.tile is not None else ""
            self.say(f"{who} draw{'s' if seat != self.seat else ''}{tile}")
        else:
            self.say(f"{who} pass{'es' if seat != self.seat else ''}")
        for e in events:
            verdict = "" if e.accepted else " REJECTED (above 305)"
            self.say(f"  {e.kind} event: side {e.side} {e.raw:+d} raw{verdict}; scores {self.scores_text(e.scores)}")
            if e.kind == "domino":
                # (how the credit was made, from the hands shown next: RULES §6.3)
                self.say(f"    {format_domino_parts(self.game.current.domino_parts())}")
            elif e.kind == "block":
                # (and a block credit's, seat by seat: RULES §6.5)
                part = next(p for p in self.game.current.block_parts() if p["seat"] == e.seat)
                self.say(f"    {format_block_part(part, self.seat_name)}")

    # ------------------------------------------------------------ flow
    def advance(self) -> None:
        """Bots move, forced draws and passes are made, rounds are dealt, until the
        person has a choice to make or the game is over."""
        g = self.game
        while True:
            if g.round_over:
                end = g.current.end()
                # the hands that scored the round, shown as the rules show them (RULES 2.2): from the
                # person's own observation, whose `revealed` holds them once the round is over
                left = g.observation(self.seat).revealed or ()
                self.say("hands left:")
                for s, hand in enumerate(left):      # (a line each: one line broke inside a seat's name)
                    tiles = f"{' '.join(str(t) for t in hand)} ({sum(t.pips for t in hand)} pips)" if hand else "none"
                    self.say(f"  {self.seat_name(s)}: {tiles}")
                self.say(f"round {len(g.rounds) - 1} ends: {format_round_end(end, g.seats)}; "
                         f"scores {self.scores_text()}")
                if g.game_over:
                    side = g.winner
                    mine = g.current.core.side_of(self.seat)
                    self.say(f"game over: side {side} reaches 305 exactly. "
                             f"{'You win!' if side == mine else 'You lose.'}")
                    self.finished = True
                    return
                if g.unfinished:
                    self.say("game over: the round limit is reached (unfinished)")
                    self.finished = True
                    return
                g.next_round()
                self.say(f"round {len(g.rounds) - 1}: {self.starts_text()}")
                continue
            seat = g.to_move
            if seat == self.seat:
                legal = g.legal_moves
                if len(legal) == 1 and legal[0].kind in ("draw", "pass"):
                    move = legal[0]
                    if move.kind == "draw":
                        move = type(move).draw(g.boneyard[0])
                    events = g.push(move)
                    self.report_events(seat, move, events)
                    continue
                return
            if self.stop_requested():
                return              # a bot is to move: advance() again goes on from here
            # (the game's seed is not named: it may be the secret one)
            move = bot_move(self.bots[seat], g.observation(seat), self.rngs[seat])
            events = g.push(move)
            self.report_events(seat, move, events)

    def stop_requested(self) -> bool:
        """Whether advance() stops before the next bot's move (the browser app's game, when
        nobody waits for it any more); the terminal's game never does."""
        return False

    def prompt(self) -> None:
        self.show()
        self.say("your moves:")
        self.show_moves()
        self.out.write(self.prompt_text)
        self.out.flush()

    def handle(self, line: str) -> bool:
        """One input line (the person is to move); True when the position changed
        (or was asked for) and is shown again."""
        text = line.strip()
        if not text:
            return False
        word, _, rest = text.partition(" ")
        word = COMMAND_ALIASES.get(word.lower(), word.lower())
        g = self.game
        if word == "help":
            self.say(HELP)
            return False
        if word == "board":
            return True
        if word == "hint":
            try:
                self.hint()
            except KeyboardInterrupt:
                # (it ended the whole game, exit 130; at the prompt Ctrl-C still does)
                self.say("hint stopped (Ctrl-C); your move")
            return False
        if word == "undo":
            self.undo()
            return True
        if word == "save":
            if not rest.strip():
                raise OptionError("save needs a file name: save FILE")
            self.save(os.path.expanduser(rest.strip()))     # ("save ~/game.json", as a shell reads it)
            return False
        if word == "quit":
            self.finished = True
            return False
        legal = g.legal_moves
        if is_digits(text):
            # (a number past Python's 4,300-digit conversion limit is no move either)
            k = int(text) if len(text) <= 9 else 0
            if not 1 <= k <= len(legal):
                shown = text if len(text) <= 20 else text[:17] + "..."
                raise OptionError(f"no move number {shown}: choose 1..{len(legal)}")
            move = legal[k - 1]
        else:
            move = self.parse_entry(text)
        events = g.push(move)
        self.report_events(self.seat, move, events)
        self.advance()
        return True

    def parse_entry(self, text: str):
        """The legal move a typed move names (:meth:`Game.parse_move`: record notation, its
        port's name in any case, or a tile alone when it has one legal placement); else a
        one-line OptionError saying what is wrong with it."""
        try:
            return self.game.parse_move(text)
        except ParseError:
            raise OptionError(f"not a move or a command: {text[:40]!r} (help or ? lists the commands)") from None
        except IllegalMoveError as e:
            raise OptionError(str(e)) from None

    def hint(self) -> None:
        h = hint(self.game.observation(self.seat), samples=self.hint_samples, seed=len(self.game.current.moves))
        # each move keeps its own number from the move list, so typing the number a hint shows plays that move
        number = {m: k for k, m in enumerate(self.game.legal_moves, 1)}
        if h.samples == 0:
            # one legal move: returned unsearched (a review: "0 sampled worlds" read as a failure)
            self.say("engine: one legal move, nothing to search:")
        else:
            self.say(f"engine ({h.objective} objective, {h.samples} sampled worlds), best first; "
                     f"the numbers are the move numbers:")
        for m, same in zip(h.moves, same_as_earlier(m.move for m in h.moves)):
            k = number[m.move]
            if same is not None:
                self.say(f"  {k:>2}. {format_move(m.move)}  the same as {number[h.moves[same].move]}")
                continue
            if m.value is None:
                self.say(f"  {k:>2}. {format_move(m.move)} (the only move)")
                continue
            def values(win_width: str, points_width: str) -> str:
                return (f"win {100 * m.win:{win_width}.1f} % +-{100 * (m.win_stderr or 0):.1f}"
                        f"  {m.points:+{points_width}.1f} pts +-{m.points_stderr or 0:.1f}")
            row = f"  {k:>2}. {format_move(m.move):<15} {values('4', '5')}  #{m.rank}"
            if len(row) > (terminal_width(self.out) or len(row)):
                # a narrow terminal: the move and its rank, its values unpadded under it (a review
                # saw rows broken mid-row under 60 columns)
                row = f"  {k:>2}. {format_move(m.move)}  #{m.rank}\n      {values('', '')}"
            self.say(row)
        if h.samples:
            self.say("win: your side's chance to win the game; pts: raw points of this round, your side "
                     "less the others (5 raw = 1 display point; a world won or lost counts +-1000); "
                     "+-: standard errors; #: rank")

    def undo(self) -> None:
        g = self.game
        if g.game_over:
            # the game's end is final: taking a move back would leave it neither over nor playable
            raise OptionError("the game is over: nothing to undo")
        moves = g.current.moves
        mine = [k for k, (s, m) in enumerate(moves) if s == self.seat and m.kind == "play"]
        if not mine:
            raise OptionError("nothing to undo in this round")
        taken = format_move(moves[mine[-1]][1])
        while len(g.current.moves) > mine[-1]:
            g.pop()
        self.undos += 1
        self._deal_hidden_again(f"undo/{self.undos}")
        self.say(f"undone: your move {taken} and every action after it; the tiles you have not seen "
                 f"are dealt again")

    def _deal_hidden_again(self, why: str) -> None:
        """Deal the round's tiles the person has not seen again, consistently with all it
        has seen (the exact sampler on its observation), and replay the round's actions on
        that deal. Undo would otherwise replay the same tiles: what the bots showed and
        drew after the undone move, and the boneyard's order, would be known in advance;
        a game going on from the person's view would play the tiles its replay sampled
        with a seed anyone can use. The deal's seed flows from the game's seed and `why`
        (``undo/N``: the Nth undo)."""
        seed = random.Random(f"{self.seed}/{why}").getrandbits(63)
        redeal_unseen(self.game, self.seat, seed)

    def save(self, path: str) -> None:
        """The whole record once the game is over; before that, the person's view of it
        (as the browser app saves it): the bots' hands and the boneyard's order stay
        hidden while the game can go on."""
        g = self.game
        over = g.game_over or g.unfinished
        if "\0" in path:
            # (open() would raise ValueError: a typed Ctrl-@ must not end the game)
            raise OptionError(f"cannot write {_short(path, 60)}: a file name cannot hold a NUL byte")
        try:
            with open(path, "w", encoding="utf-8") as f:
                json.dump(g.to_record() if over else g.to_record(view=self.seat), f)
                f.write("\n")
        except OSError as e:
            raise OptionError(f"cannot write {path}: {e.strerror}") from None
        self.say(f"saved the record to {path}" if over else f"saved your view of the record to {path} "
                 f"(the other hands and the boneyard stay hidden until the game is over)")

    def run(self, lines) -> int:
        if isinstance(lines, EditedInput):
            self.prompt_text = ""
        self.say(f"Exact 61 Five Up, {self.players} players: you are seat {self.seat}; "
                 f"bots {', '.join(f'seat {s}: {b}' for s, b in enumerate(self.bots) if s != self.seat)}"
                 f"{f'; your partner is seat {(self.seat + 2) % 4}' if self.players == 4 else ''}. "
                 f"Type help for the commands.")
        self.say(f"round 0: {self.starts_text()}")
        failed = False
        try:
            self.advance()
            if not self.finished:
                self.prompt()
            for line in lines:
                if self.finished:
                    break
                try:
                    changed = self.handle(line)
                except BotError:
                    raise
                except FiveUpError as e:
                    self.say(f"error: {e}")
                    changed = False
                if self.finished:
                    break
                if changed:
                    self.prompt()
                else:
                    self.out.write(self.prompt_text)
                    self.out.flush()
        except BotError as e:
            # a bot that cannot move (an agent of one's own that raised, or returned no legal
            # move): the game cannot go on; what was played is kept
            self.say(f"error: {e}")
            failed = True
        except KeyboardInterrupt:
            # Ctrl-C: what was played is kept, as at the end of the input; the exit stays 130
            if self.record_path:
                self.say("")
                try:
                    self.save(self.record_path)
                except FiveUpError as e:
                    self.say(f"error: {e}")
            raise
        self.say("")
        over = self.game.game_over or self.game.unfinished
        if self.finished and not over:
            self.say("you left the game unfinished (quit)")
        # the seed deals every hidden tile: said only once the game is over (a review: quit
        # said it while the saved view claimed the other hands stay hidden)
        if self.secret_seed and over:
            if self.undos:
                # (each undo dealt the unseen tiles again: the seed no longer gives this game)
                self.say(f"this game's seed was {self.seed}: --seed {self.seed} deals its first deal; "
                         f"your {self.undos} undo{'s' if self.undos > 1 else ''} dealt the tiles you had not "
                         f"seen again, so the record holds the game as played")
            else:
                self.say(f"this game's seed was {self.seed}: --seed {self.seed} deals it again")
        if self.record_path:
            self.save(self.record_path)
        return 2 if failed else 0


def bots_for_seats(players: int, seat: int, bots: list) -> list:
    """One bot name per seat from ``bots``, the names of the other seats' bots in seat
    order (a shorter list repeats), as ``fiveup play`` and the browser app take them; the
    person's own entry (at ``seat``) is unused.

    >>> bots_for_seats(4, 2, ["level1", "level2"])
    ['level1', 'level2', 'level1', 'level1']
    """
    players = check_players(players)
    seat = as_int(seat)
    if not _is_int(seat) or not 0 <= seat < players:
        raise OptionError(f"seat must be 0..{players - 1}, not {_short(seat)}")
    if not isinstance(bots, (list, tuple)) or not bots:
        raise OptionError("bots must name at least one bot")
    if len(bots) > players - 1:
        raise OptionError(f"{len(bots)} bots named for {players - 1} other seat{'s' if players > 2 else ''}")
    for b in bots:
        check_bot(b, players)
    others = iter([bots[i % len(bots)] for i in range(players - 1)])
    return [bots[0] if s == seat else next(others) for s in range(players)]


class EditedInput:
    """The person's lines from a terminal, read with line editing and a history (GNU
    readline): the arrow keys move in the line and Up recalls an earlier line, as in a
    shell (a review: they reached the game as escape codes, "'\\x1b[A' is not a move").
    The prompt is input()'s own, so a recalled line is drawn after it; the game does not
    write one (``TerminalGame.run`` knows this input by its type)."""

    prompt = "> "

    def __init__(self, out):
        self.out = out

    def __iter__(self):
        try:
            import readline  # noqa: F401  (importing it gives input() its line editing)
        except ImportError:   # (a Python built without it: lines as typed)
            pass
        while True:
            self.out.flush()
            try:
                yield input(self.prompt)
            except EOFError:  # Ctrl-D: the end of the input
                return


class EchoedInput:
    """The lines of piped input, each written after the prompt as it is read, as a
    terminal shows what is typed: a transcript of a scripted game reads "> hint" and
    the answer under it, where the prompts ran together ("> > engine ...", a review)."""

    def __init__(self, lines, out):
        self.lines = lines
        self.out = out

    def __iter__(self):
        for line in self.lines:
            self.out.write(line.rstrip("\r\n") + "\n")
            yield line


def play_in_terminal(players: int, bots, seat: int, seed: int | None, *, inp, out, record_path=None) -> int:
    """The ``fiveup play`` loop over the lines of `inp`."""
    return TerminalGame(players, bots, seat, seed, out=out, record_path=record_path).run(inp)
