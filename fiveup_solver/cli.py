"""The ``fiveup`` command line.

Bad input of any kind ends with exit status 2 and one stderr line
``error: ...``; never a traceback.
"""
from __future__ import annotations

import argparse
import importlib.util
import contextlib
import json
import os
import re
import sys
import textwrap
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from fiveup_solver import __version__
from fiveup_solver.errors import FiveUpError, OptionError, RecordError, check_players, check_seed, short_repr
from fiveup_solver.game import DEFAULT_MAX_ROUNDS
from fiveup_solver.notation import (fit_to_terminal, format_move, format_round_end, raw_to_display, same_as_earlier,
                                    terminal_width)
from fiveup_solver.record import game_at, game_from_record, load_record, observation_at, past_observations

if TYPE_CHECKING:      # the commands import what they run (build_parser); annotations only
    from fiveup_solver.hint import SearchBudget

__all__ = ["main"]

_C_INT_MAX = 2 ** 31 - 1  # the core takes depths and counts as C ints


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2 (argparse would print the usage too)
        raise OptionError(message)


def _seed(text: str) -> int:
    """A --seed: an integer from 0 to 2^64-1, as every seed of the package (check_seed)."""
    try:
        value = int(text) if text.isascii() else text      # int() would read other scripts' digits
    except ValueError:
        value = text
    return check_seed(value, "a seed", argparse.ArgumentTypeError)


def _ascii_option(convert, what: str):
    """An option's parser reading ASCII text only, as --seed does: int() and float() also read
    other scripts' digits ('--samples \u0663' ran 3 worlds, '--move-time \u0663' was 3 s)."""
    def parse(text: str):
        if text.isascii():
            try:
                return convert(text)
            except ValueError:
                pass
        raise argparse.ArgumentTypeError(f"must be {what}, not {short_repr(text)}")
    parse.__name__ = convert.__name__
    return parse


class _TypedNumber(float):
    """A decimal option's value that names itself as typed: an error echoes '--time-ms 0'
    as 'not 0', not as the float's 'not 0.0'. Its str and arithmetic are float's."""
    __slots__ = ("text",)

    def __new__(cls, text: str):
        value = super().__new__(cls, text)
        value.text = text
        return value

    def __repr__(self) -> str:
        return self.text

    __str__ = float.__repr__

    def __reduce__(self):   # pickled (to a worker) as the plain float it is
        return (float, (float(self),))


_int = _ascii_option(int, "an integer (digits 0-9)")                   # every integer option but --seed (_seed)
_number = _ascii_option(_TypedNumber, "a number (digits 0-9, '.', 'e')")  # every decimal option


def _fmt_scores(scores) -> str:
    return " / ".join(f"{s} raw ({raw_to_display(s)})" for s in scores)


def _describe_board(game) -> str:
    ports = ", ".join(f"{p}={p.value}" for p in game.open_ports())
    ends = " + ".join(f"{t}:{v}" for t, v in game.scoring_ends()) or "0"
    return f"open ends [{ports}]; scoring ends {ends} = {game.end_sum}"


def _print_action(game, move, events, out) -> None:
    r = game.current
    if move is None:
        out.write(f"\nRound {len(game.rounds) - 1}: starter seat {r.starter}; scores {_fmt_scores(game.scores)}\n")
        return
    act = r.actions[-1]
    who = f"seat {act['seat']}"
    if "play" in act:
        where = f" on {act['at']}" if "at" in act else " (opening)"
        out.write(f"  {who} plays {act['play']}{where}: {_describe_board(game)}\n")
    elif "draw" in act:
        out.write(f"  {who} draws {act['draw']} ({r.core.boneyard_size} left in the boneyard)\n")
    else:
        out.write(f"  {who} passes\n")
    for e in events:
        verdict = "accepted" if e.accepted else "REJECTED (above 305)"
        out.write(f"    {e.kind} event seat {e.seat} side {e.side}: {e.raw:+d} raw "
                  f"({raw_to_display(e.raw):+d}) {verdict}; scores {_fmt_scores(e.scores)}\n")
    if game.round_over:
        end = r.end()
        out.write(f"  round {len(game.rounds) - 1} ends: {format_round_end(end, game.seats)}; hands left "
                  + "; ".join(f"seat {s}: {' '.join(str(t) for t in game.hand(s)) or '-'}"
                              for s in range(game.players)) + "\n")


def cmd_demo(args, out) -> int:
    from fiveup_solver.bots import parse_bot_list
    from fiveup_solver.selfplay import play_game
    check_players(args.players, "--players")
    bots = parse_bot_list(args.bots, args.players)
    out = _Fitted(out, fit_to_terminal)         # a narrow terminal: lines break between words
    out.write(f"Exact 61 Five Up demo: {args.players} players, seed {args.seed}, bots {', '.join(bots)}\n")
    out.write("Scores are raw points (display points in brackets); the target is exactly 305 raw = 61.\n")
    game = play_game(args.players, args.seed, bots,
                     on_action=lambda g, move, events: _print_action(g, move, events, out))
    if game.game_over:
        out.write(f"\nSide {game.winner} wins with exactly 305 raw (61) after {len(game.rounds)} rounds; "
                  f"final scores {_fmt_scores(game.scores)}\n")
    else:
        out.write(f"\nUnfinished after {len(game.rounds)} rounds; scores {_fmt_scores(game.scores)}\n")
    return 0


def cmd_replay(args, out) -> int:
    record = load_record(args.file, args.game)
    game = game_from_record(record, check=False)
    result = game.result()
    if args.json:
        out.write(json.dumps(result) + "\n")
        return 0
    out = _Fitted(out, fit_to_terminal)         # (a review: "+10" broke as "+1" / "0" at 40 columns)
    for line in _replay_lines(game, result, record.get("seats")):
        out.write(line + "\n")
    return 0


def _replay_lines(game, result, names) -> list:
    """`fiveup replay`'s summary: each round's start, its events in order and its end
    together (a review: every round's end came first, then every event), scores as the
    other commands show them (305 raw (61)), a domino's parts P + O - D, and with 4
    players the side of each event's seat."""
    from fiveup_solver.notation import format_block_part, format_domino_parts, format_seat
    events = {}
    for e in result["events"]:
        events.setdefault(e["round"], []).append(e)
    lines = []
    for r, end in enumerate(result["rounds"]):
        log = game.rounds[r]
        lines.append(f"round {r}: starter {format_seat(log.starter, names)}; scores {_fmt_scores(log.scores_before)}")
        parts = log.domino_parts()
        blocks = {p["seat"]: p for p in log.block_parts() or ()}
        for e in events.get(r, []):
            # a blocked round's credit follows no action (RECORD.md: its action is null)
            where = "end" if e["action"] is None else f"action {e['action']}"
            side = f", side {e['side']}" if game.players == 4 else ""
            verdict = "accepted" if e["accepted"] else "rejected (above 305)"
            how = ""
            if e["kind"] == "domino" and parts is not None and parts["seat"] == e["seat"]:
                how = f" [{format_domino_parts(parts)}]"
            elif e["kind"] == "block" and e["seat"] in blocks:
                # (RULES §6.5: the credit from the hands left, as the play app shows it)
                how = f" [{format_block_part(blocks[e['seat']], names)}]"
            lines.append(f"  {where}: {e['kind']} {format_seat(e['seat'], names)}{side}: "
                         f"{e['raw']:+d} raw ({raw_to_display(e['raw']):+d}) {verdict}{how}; "
                         f"scores {_fmt_scores(e['scores'])}")
        lines.append(f"  round {r} ends: {format_round_end(end, names)}")
    winner = "none" if result["winner"] is None else f"side {result['winner']}"
    lines.append(f"winner: {winner}; scores {_fmt_scores(result['scores'])}")
    return lines


def check_output_path(path, option: str) -> None:
    """Refuse an output file that cannot be written before the work that fills it (a ladder,
    a match, an analysis, a whole game in the terminal), not after it: a directory, or a file
    in a directory that does not exist. The same words as the write's own error; so is a
    path the system refuses to look at (a name too long, a loop of links)."""
    if path == "":
        raise OptionError(f"{option} needs a file name, not an empty one")    # (it read "Is a directory")
    p = Path(path)
    try:
        # (is_dir and exists raise OSError on a name too long: a traceback, a fuzz campaign)
        if p.is_dir():
            raise OptionError(f"{option} {path}: cannot write (Is a directory)")
        if not p.parent.is_dir():
            raise OptionError(f"{option} {path}: cannot write (No such file or directory)")
        existed = p.exists()
        if existed and not p.is_file():
            return          # a device or a pipe: written where it is (opening a pipe would wait)
        # a folder the file cannot be made in (/proc, a read-only mount): an analysis of
        # seconds ran first, then failed at its write (a review)
        with open(p, "a", encoding="utf-8"):
            pass
        if not existed:
            p.unlink(missing_ok=True)
    except OSError as e:
        raise OptionError(f"{option} {path}: cannot write ({e.strerror or e})") from None


def cmd_selfplay(args, out) -> int:
    from fiveup_solver.bots import parse_bot_list
    from fiveup_solver.selfplay import game_seeds, play_game
    check_players(args.players, "--players")
    if args.out != "-":
        check_output_path(args.out, "--out")
    if args.games < 0:
        raise OptionError(f"--games must be >= 0, not {args.games}")
    if args.max_rounds < 1:
        raise OptionError(f"--max-rounds must be >= 1, not {args.max_rounds}")
    bots = parse_bot_list(args.bots, args.players)
    seeds = game_seeds(args.seed, args.games)
    # each game's line is written as it ends (a long run shows its games, keeps none in
    # memory, and Ctrl-C leaves every finished game in the file)
    f = out if args.out == "-" else _open_output(args.out, "--out")
    bar = _progress(args.games, "game") if args.out != "-" else None
    try:
        for deal_seed, bot_seed in seeds:
            game = play_game(args.players, deal_seed, bots, bot_seed=bot_seed, max_rounds=args.max_rounds)
            f.write(json.dumps(game.to_record(), separators=(",", ":")) + "\n")
            f.flush()
            if bar is not None:
                bar.update(1)
    except BrokenPipeError:
        raise               # a reader that has read enough (| head): main's quiet exit 0
    except OSError as e:
        raise OptionError(f"--out {args.out}: cannot write ({e.strerror or e})") from None
    finally:
        if bar is not None:
            bar.close()
        if f is not out:
            f.close()
    return 0


def _open_output(path: str, option: str):
    """A file an option names, opened for writing (one line naming it if it cannot be)."""
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as e:
        raise OptionError(f"{option} {path}: cannot write ({e.strerror or e})") from None


def _write_lines(f, path: str, option: str, lines) -> None:
    """Lines written and flushed (a full disk is one line naming the option and file)."""
    try:
        f.writelines(lines)
        f.flush()
    except OSError as e:
        raise OptionError(f"{option} {path}: cannot write ({e.strerror or e})") from None


def cmd_match(args, out) -> int:
    from fiveup_solver.bots import check_bot, check_move_time
    from fiveup_solver.match import PairStats, play_pairs, sides_of
    from fiveup_solver.parallel import check_ray
    check_players(args.players, "--players")
    if not 1 <= args.deals <= 10_000_000:
        # (the cap sprt's --max-games and ladder's --games have too: a review's 10^20 just ran)
        raise OptionError(f"--deals must be 1..10000000, not {args.deals}")
    if args.records == "-":
        # (selfplay's --out - is standard output; here that carries the match's result)
        raise OptionError("--records needs a file name: standard output carries the match's result")
    if args.records:
        check_output_path(args.records, "--records")
    workers = _workers(args.workers, args.ray)
    bot, other = _bot_and_other(args.bots)
    check_bot(bot, args.players)          # a bot that cannot play this many: refused before a game
    check_bot(other, args.players)
    ray = check_ray(args.ray)
    check_move_time(args.move_time, "--move-time")
    # duplicate units: pairs (sides swapped) with 2 and 4 players, triples (BOT alone in each seat) with 3
    stats = PairStats(sides=sides_of(args.players))
    units = play_pairs(args.players, bot, other, args.seed, workers=workers, max_pairs=args.deals,
                       records=bool(args.records), ray=ray, move_time=args.move_time)
    # the records are written as each unit ends (a long match kept them all in memory, and
    # Ctrl-C lost them); the units arrive in order
    records = _open_output(args.records, "--records") if args.records else None
    bar = _progress(args.deals * stats.sides, "games")
    try:
        for _, scores, recs in units:
            stats.add(scores)
            if records is not None and recs:
                _write_lines(records, args.records, "--records",
                             [json.dumps(r, separators=(",", ":")) + "\n" for r in recs])
            if bar is not None:
                lo, hi = stats.win_interval()
                bar.set_postfix_str(f"win {100 * stats.win_rate:.1f}% [{100 * lo:.0f}-{100 * hi:.0f}]")
                bar.update(stats.sides)
    finally:
        units.close()
        if bar is not None:
            bar.close()
        if records is not None:
            records.close()
    # the win rate's interval over the units, as the score's (the games of a unit share its
    # deals: a review found the games-as-independent one covering 91.5 % to 96.7 %)
    low, high = stats.win_interval()
    result = {"players": args.players, "bot": bot, "other": other, "deals": args.deals, "games": stats.games,
              "wins": stats.wins, "unfinished": stats.unfinished, "win_rate": stats.win_rate,
              "ci95": [low, high], "seed": args.seed, "move_time": args.move_time,
              # (a review: "workers": 2 for games Ray played) the processes of this machine, or
              # null and the Ray address
              "workers": None if ray is not None else workers, "ray": ray, "pairs": stats.to_dict()}
    if args.json:
        out.write(json.dumps(result) + "\n")
    else:
        out = _Fitted(out, fit_to_terminal)     # a narrow terminal: lines break between words
        units_name = "pairs" if stats.sides == 2 else "triples"
        out.write(f"{bot} vs {other}, {args.players} players: {result['wins']}/{result['games']} games won "
                  f"({100 * result['win_rate']:.1f}%, 95% CI {100 * low:.1f}-{100 * high:.1f}% over the "
                  f"{units_name}), {result['unfinished']} unfinished\n")
        p = result["pairs"]
        described = (f"duplicate pairs: {p['pairs']} (pentanomial {p['pentanomial']})" if p["sides"] == 2 else
                     f"duplicate triples: {p['pairs']} (BOT alone in each seat; Elo of a field of three)")
        lo, hi = p["score_ci95"]
        out.write(f"  {described}; score {p['score']:.3f} [{lo:.3f}, {hi:.3f}] over them, "
                  f"{stats.format_elo(bot)}\n")
    return 0


def _elo_so_far(stats) -> str:
    """An SPRT progress line's Elo, one word: a sweep so far as its bound (">=+348.8")."""
    from fiveup_solver.match import format_elo
    if stats.all_won or stats.all_lost:
        lo, hi = stats.elo_interval()
        return (">=" + format_elo(lo, 1, stats.sides)) if stats.all_won else ("<=" + format_elo(hi, 1, stats.sides))
    return format_elo(stats.elo, 1, stats.sides)


def _workers(value, ray=None) -> int:
    from fiveup_solver.parallel import default_workers
    if value is not None and ray is not None:     # on Ray the cluster sets the parallelism
        raise OptionError("--workers sets local worker processes; with --ray the cluster runs the games, "
                          "give one of them")
    if value is None:
        return min(default_workers(), 64)
    if not 1 <= value <= 256:
        raise OptionError(f"--workers must be 1..256, not {value}")
    return value


def _progress(total: int, unit: str):
    """A tqdm bar on stderr when it is a terminal, else None. It leaves the terminal's last
    columns free: a Ctrl-C's echoed "^C" in the last column wrapped to a new row, which
    the bar's clean-up then cleared instead of the bar (a review saw half a bar left)."""
    from tqdm import tqdm
    width = terminal_width(sys.stderr)
    if width is None:
        return None
    return tqdm(total=total, unit=unit, file=sys.stderr, leave=False, ncols=max(20, width - 2))


def cmd_ladder(args, out) -> int:
    from fiveup_solver import ladder
    from fiveup_solver.bots import check_move_time
    if args.place is not None:
        return _place_on_ladder(args, out)
    for flag, v in (("--against", args.against), ("--ladder", args.ladder)):
        if v is not None:
            raise OptionError(f"{flag} is for placing one agent: give it with --place AGENT")
    if args.shipped:
        given = [flag for flag, v in (("--games", args.games), ("--entrants", args.entrants), ("--seed", args.seed),
                                      ("--workers", args.workers), ("--ray", args.ray), ("--out", args.out),
                                      ("--journal", args.journal), ("--move-time", args.move_time)) if v is not None]
        if given:      # the shipped ladder is read, not run: a run's options would be dropped
            raise OptionError(f"--shipped shows the shipped ladder; {given[0]} is for running one")
        res = ladder.load_ladder(args.players)
    else:
        args.games = 100 if args.games is None else args.games
        args.seed = 0 if args.seed is None else args.seed
        if not 2 <= args.games <= 1_000_000 or args.games % 2:
            raise OptionError(f"--games must be an even number from 2 to 1000000, not {args.games}")
        if args.out:
            check_output_path(args.out, "--out")
            _not_the_same_file(args.out, "--out", ("--journal", args.journal))
        if args.entrants is not None and not args.entrants.strip():
            # (a review: "" ran the whole default ladder, 28 pairings)
            raise OptionError("--entrants names the ladder's entrants, comma-separated, level1 among them "
                              "(leave it out for level1..level8)")
        entrants = [e.strip() for e in args.entrants.split(",")] if args.entrants else None
        n = len(entrants) if entrants else len(ladder.DEFAULT_ENTRANTS)
        if args.journal:
            args.journal = str(args.journal)
        res = _with_pair_bar(n * (n - 1) // 2 * args.games, lambda a, b: f"{a} v {b}",
                             lambda on_pair: ladder.run_ladder(
                                 args.players, entrants, games=args.games, seed=args.seed,
                                 workers=_workers(args.workers, args.ray), ray=args.ray, on_pair=on_pair,
                                 journal=args.journal, move_time=check_move_time(args.move_time, "--move-time")))
        if args.out:
            _write_json(args.out, res.to_dict())
    if args.json:
        out.write(json.dumps(res.to_dict()) + "\n")
        return 0
    out = _Fitted(out, fit_to_terminal)         # on a narrow terminal: the table as aligned columns
    out.write(f"Elo ladder, {res.players} players ({ladder.ANCHOR} = random play = 0), "
              f"{res.games_per_pairing} games per pairing, seed {res.seed}:\n\n")
    out.write(res.format_table())
    return 0


def _place_on_ladder(args, out) -> int:
    """fiveup ladder --place AGENT: one agent against the levels of a measured ladder."""
    from fiveup_solver import ladder
    from fiveup_solver.bots import check_move_time
    for flag, v in (("--entrants", args.entrants), ("--shipped", args.shipped or None)):
        if v is not None:
            raise OptionError(f"--place plays one agent against a measured ladder; {flag} is for the ladder itself")
    games = 100 if args.games is None else args.games
    seed = 0 if args.seed is None else args.seed
    if not 2 <= games <= 1_000_000 or games % 2:
        raise OptionError(f"--games must be an even number from 2 to 1000000, not {games}")
    if args.out:
        check_output_path(args.out, "--out")
        _not_the_same_file(args.out, "--out", ("--journal", args.journal), ("--ladder", args.ladder))
    if args.players not in (2, 4):
        raise OptionError(f"--place plays duplicate pairs: --players 2 or 4, not {args.players}")
    if args.ladder:
        table = ladder.load_ladder(args.players, args.ladder)
        if table.players != args.players:
            raise OptionError(f"--ladder {args.ladder} is a {table.players}-player ladder: "
                              f"add --players {table.players}")
    else:
        table = ladder.load_ladder(args.players)
    if args.against is not None and not args.against.strip():
        raise OptionError("--against names the levels to play, comma-separated (leave it out for all)")
    levels = [e.strip() for e in args.against.split(",")] if args.against else None
    res = _with_pair_bar((len(levels) if levels else len(table.entrants)) * games, lambda level: f"v {level}",
                         lambda on_pair: ladder.place_agent(
                             args.place, args.players, levels=levels, games=games, seed=seed, table=table,
                             workers=_workers(args.workers, args.ray), ray=args.ray,
                             journal=str(args.journal) if args.journal else None, on_pair=on_pair,
                             move_time=check_move_time(args.move_time, "--move-time")))
    if args.out:
        _write_json(args.out, res.to_dict())
    if args.json:
        out.write(json.dumps(res.to_dict()) + "\n")
    else:
        _Fitted(out, fit_to_terminal).write(res.format_text())
    return 0


def _with_pair_bar(games: int, label, run):
    """run(on_pair) under a progress bar of `games` games, two a pair; on_pair(*key, scores)
    names the pair by label(*key)."""
    bar = _progress(games, "games")

    def on_pair(*key_and_scores):
        if bar is not None:
            bar.set_postfix_str(label(*key_and_scores[:-1]))
            bar.update(2)
    try:
        return run(on_pair)
    finally:
        if bar is not None:
            bar.close()


def _write_json(path: str, data: dict) -> None:
    """--out FILE: `data` as indented JSON (a ladder, a placement)."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1)
            f.write("\n")
    except OSError as e:
        raise OptionError(f"--out {path}: cannot write ({e.strerror or e})") from None


def cmd_sprt(args, out) -> int:
    from fiveup_solver.bots import check_bot, check_move_time
    from fiveup_solver.match import sprt, sprt_bounds
    check_players(args.players, "--players")
    if not 1 <= args.every <= 1_000_000_000:
        raise OptionError(f"--every must be 1..1000000000 pairs, not {args.every}")
    bot, other = _bot_and_other(args.bots)
    check_bot(bot, args.players)
    check_bot(other, args.players)
    # the progress goes to stderr, as match's bar: stdout holds the result alone (a review:
    # `| cat > file` left the terminal silent and the file full of progress lines)
    progress = sys.stderr
    tty = terminal_width(progress) is not None
    units = "triples" if args.players == 3 else "pairs"
    drawn = False

    def on_pair(stats, llr):
        nonlocal drawn
        fields = [f"LLR {llr:+.3f} [{lower:+.2f}, {upper:+.2f}]", f"{units} {stats.pairs}", f"games {stats.games}",
                  f"score {stats.score:.3f}", f"Elo {_elo_so_far(stats)}"]
        if tty:
            # one line that fits stderr's own terminal (not stdout's: a review's `--json > file` read 80
            # columns), two columns free for an echoed ^C, whole fields only (the LLR first)
            width = terminal_width(progress) - 2
            while len(fields) > 1 and len("  ".join(fields)) > width:
                fields.pop()
            line = "  ".join(fields)[:width]
            progress.write("\r" + line.ljust(width))
            drawn = True
        elif stats.pairs % args.every == 0:
            # (the log's own order, which benchmarks/sprt_progress.py reads)
            progress.write(f"{units} {stats.pairs:>5}  games {stats.games:>6}  score {stats.score:.3f}  "
                           f"Elo {_elo_so_far(stats):>7}  LLR {llr:+.3f} "
                           f"[{lower:+.2f}, {upper:+.2f}]\n")
        progress.flush()

    lower, upper = sprt_bounds(args.alpha, args.beta)
    res = sprt(args.players, bot, other, elo0=args.elo0, elo1=args.elo1, alpha=args.alpha, beta=args.beta,
               max_games=args.max_games, seed=args.seed, workers=_workers(args.workers, args.ray), ray=args.ray,
               on_pair=on_pair, journal=args.journal, move_time=check_move_time(args.move_time, "--move-time"))
    if drawn:
        progress.write("\n")      # (none when a journal had decided it: no line was drawn)
    if args.json:
        # the test it is the result of, named as `fiveup match --json` names its match
        test = {"players": args.players, "bot": bot, "other": other, "elo0": args.elo0, "elo1": args.elo1,
                "alpha": args.alpha, "beta": args.beta, "max_games": args.max_games}
        out.write(json.dumps({**test, **res.to_dict(), "seed": args.seed, "move_time": args.move_time}) + "\n")
        return 0
    decision = res.decision if res.decision != "no decision" else f"no decision after {res.stats.games} games"
    out = _Fitted(out, fit_to_terminal)
    out.write(f"{decision}: {bot} vs {other}, LLR {res.llr:+.3f} after {res.stats.games} games; "
              f"{res.stats.format_elo(bot)}"
              # (a review: after a stop on the LLR the fixed-sample interval held the truth
              # 88-93 % of the time, and the estimate leans away from the bound it stopped at)
              + (" (indicative: a test that stops on its LLR biases both)\n" if res.decision != "no decision"
                 else "\n"))
    if res.stats.games:
        # the same win rate as `fiveup match` prints (games won, its interval over the units)
        low, high = res.win_interval()
        units_name = "pairs" if res.stats.sides == 2 else "triples"
        out.write(f"  {bot} won {res.stats.wins}/{res.stats.games} games ({100 * res.win_rate:.1f}%, "
                  f"95% CI {100 * low:.1f}-{100 * high:.1f}% over the {units_name}), "
                  f"{res.stats.unfinished} unfinished\n")
    return 0


def cmd_perft(args, out) -> int:
    if not 0 <= args.depth <= _C_INT_MAX:
        raise OptionError(f"--depth must be 0..{_C_INT_MAX}, not {args.depth}")
    record = load_record(args.file, args.game)
    game = game_at(record, args.round, args.action)   # first: a broken record is named as such
    if record.get("view") is not None:
        # a view's hidden hands are one consistent deal filled in by the sampler: the count
        # would be that deal's, not the game's
        raise OptionError(f"{args.file} is seat {record['view']}'s view: perft needs every hand "
                          "(the full record)")
    with _still_working("counting", sys.stderr, "Ctrl-C stops it"):
        count = game.current.core.perft(args.depth)
    out.write(f"{count}\n")
    return 0


SOLVE_PROGRESS_AFTER = 2.0     # seconds before `fiveup solve` says it is still at work (most solves take ms)


@contextmanager
def _still_working(what, err, how_to_stop: str, after: float | None = None, every: float = 1.0):
    """Around a long call: on a terminal ``err``, after ``after`` seconds (default
    SOLVE_PROGRESS_AFTER) the line "what: N s; how_to_stop", rewritten every
    ``every`` seconds and cleared at the end. A rare exact solve runs for minutes, and a
    review saw nothing at all meanwhile. Nothing where ``err`` is None or no terminal.
    ``what`` is a text, or a function giving it anew each time (a step that changes)."""
    import threading
    import time
    width = None if err is None else terminal_width(err)
    if width is None:
        yield
        return
    done = threading.Event()
    start = time.monotonic()
    shown = 0

    def report() -> None:
        nonlocal shown
        if done.wait(SOLVE_PROGRESS_AFTER if after is None else after):
            return
        while True:
            line = f"{what() if callable(what) else what}: {int(time.monotonic() - start)} s; {how_to_stop}"[:width]
            err.write("\r" + line.ljust(shown))
            err.flush()
            shown = max(shown, len(line))
            if done.wait(every):
                return

    thread = threading.Thread(target=report, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
        if shown:
            err.write("\r" + " " * shown + "\r")
            err.flush()


def _options(flags: list) -> str:
    """ "an option" or "options", as many as ``flags`` (an error naming flags a command refuses)."""
    return "an option" if len(flags) == 1 else "options"


def _bot_and_other(text) -> tuple:
    """--bots BOT,OTHER of match and sprt (one name: it against itself). A review read "4 bots
    named for 2 seats" in a 4-player match: the two are bots, not seats."""
    from fiveup_solver.bots import parse_bot_list
    if isinstance(text, str) and text.count(",") > 1:
        raise OptionError(f"--bots takes BOT,OTHER: two bots, BOT against OTHER on every seating, "
                          f"not {text.count(',') + 1}")
    if isinstance(text, str):
        # (a review: "greedy," said "unknown bot ''", not which of the two is missing)
        names = [b.strip() for b in text.split(",")]
        for name, what in zip(names, ("BOT", "OTHER")):
            if not name:
                raise OptionError(f"--bots: {what} is empty (--bots BOT,OTHER, or one bot against itself)")
    return tuple(parse_bot_list(text, 2))


def _not_the_same_file(path, option: str, *others) -> None:
    """Refuse an output file that is one of the command's inputs (``others``: (option, path)
    pairs, a path None where not given), before any work: a review's --out naming the
    --journal replaced a ladder's journal by its table, and the next resume was refused."""
    for other, where in others:
        if where is None:
            continue
        try:
            same = os.path.samefile(path, where) if os.path.exists(path) and os.path.exists(where) else (
                os.path.abspath(path) == os.path.abspath(where))
        except (OSError, ValueError):
            same = False
        if same:
            raise OptionError(f"{option} {path} is the {other} file: the one would overwrite the other; "
                              f"give {option} another file")


def _check_three(args, players: int) -> None:
    """--three says how 3 players are searched: refused for a game of 2 or 4 players,
    where it was taken and dropped (one minimax: nothing to choose)."""
    if args.three is not None and players != 3:
        raise OptionError(f"--three {args.three}: says how 3 players are searched; this game has {players} "
                          "players (one minimax, nothing to choose)")


def cmd_solve(args, out) -> int:
    from fiveup_solver.solver import WIN_VALUE, Solver, win_probability
    if not 0.001 <= args.tt_mb <= 16384:      # (the Solver's own range: one message for both)
        raise OptionError(f"--tt-mb must be between 0.001 and 16384, not {args.tt_mb}")
    if not 0 <= args.node_limit < 2 ** 63:
        raise OptionError(f"--node-limit must be from 0 (none) to 2^63-1, not {args.node_limit}")
    record = load_record(args.file, args.game)
    if record.get("view") is not None:
        raise OptionError(f"{args.file} is seat {record['view']}'s view: the solver needs every hand "
                          "(the full record); for one seat's view use 'fiveup hint'")
    game = game_at(record, args.round, args.action)
    if game.round_over:
        raise OptionError(f"round {args.round} action {args.action}: the round is over, nothing to solve")
    _check_three(args, game.players)
    solver = Solver(tt_mb=args.tt_mb, node_limit=args.node_limit, objective=args.objective, search=args.three,
                    threads=args.threads)
    with _still_working("solving exactly", None if args.quiet else sys.stderr,
                        "Ctrl-C stops it" + ("" if args.node_limit else ", --node-limit N bounds it")):
        res = solver.solve(game)
    if not res.exact:
        raise OptionError(f"round {args.round} action {args.action}: {res.cut_text(args.node_limit)}")
    if args.json:
        out.write(json.dumps(res.to_dict()) + "\n")
        return 0
    out = _Fitted(out, fit_to_terminal)         # a narrow terminal: lines break between words
    maxn = bool(res.vectors)

    def points_text(v) -> str:
        # +-1000 is a side reaching 305, not raw points (paranoid and 2 or 4 players)
        if not maxn and abs(v) == WIN_VALUE:
            return "its side reaches 305: won" if v > 0 else "another side reaches 305: lost"
        return f"{_signed(v)} raw points this round for its side" + (", less the others' mean (max^n)" if maxn else "")

    # the position's value, win probability first: each currency's best move's where it is known,
    # the round's end's where the draws end it
    win, points = res.position_win, res.position_points
    parts = [f"win {100 * win:.1f} %" if win is not None else None,
             points_text(points) if points is not None else None]
    out.write(f"seat {res.seat} to move; objective {res.objective}, every hand known ({res.nodes:,} nodes, "
              f"{res.seconds * 1000:.1f} ms)\n")
    out.write("value: " + "; ".join(p for p in parts if p) + (" (each with its own best move)" if res.values else "")
              + "\n")
    if res.draws:
        # (a review: "it passes" was said where the draws end the round, blocked; a pass after
        # draws is the move "pass" below)
        then = "then the moves below" if res.values else "and the round ends blocked: nobody can place"
        out.write(f"it must draw first: {' '.join(res.draws)} (the boneyard's next tiles), {then}\n")
    for move, v in sorted(res.values.items(), key=lambda kv: (-kv[1], kv[0])):
        w = f"win {100 * res.win[move]:5.1f} %  " if move in res.win else ""
        pts = f"{_signed(res.points[move]):>5} pts" if move in res.points else ""
        # best by the solve's objective: with points, a move of a lower win chance can be it
        out.write(f"  {move:<20} {w}{pts}{f'  best ({res.objective})' if move in res.best else ''}\n")
    if res.pv:
        out.write(f"principal variation: {' '.join(res.pv)}\n")
    cut = [name for name, got in (("win %", res.win), ("points", res.points)) if not got and res.values]
    if cut:
        # the objective's search finished; the other currency's was cut by the node limit
        out.write(f"{cut[0]}: not known: its search needed more than --node-limit {args.node_limit:,} nodes\n")
    out.write("win: P(its side wins the game), exact play to the round's end, then the race-equity table "
              "(an estimate: fiveup equity shows its standard error, up to a few points near 305); "
              "pts: raw points of this round, its side less the others (5 raw = 1 display point; "
              "+-1000: a side reaches 305)\n")
    return 0


def _signed(v) -> str:
    """A value with its sign: whole numbers as such, max^n half-point means with one decimal."""
    return f"{v:+d}" if isinstance(v, int) else f"{v:+.1f}"


def _observation_at(args):
    """The observation of --seat at --round/--action of FILE (full record or that seat's view).
    The options are checked here, so that errors name them; the API builds the observation.
    Returns (record, observation, round, action): the record read once, for the past rounds too."""
    record = load_record(args.file, args.game)
    n = record["players"]
    if not 0 <= args.seat < n:
        raise OptionError(f"--seat must be 0..{n - 1}, not {args.seat}")
    view = record.get("view")
    if view is not None and view != args.seat:
        raise OptionError(f"{args.file} is seat {view}'s view: seat {args.seat}'s observation is not in it")
    r = len(record["rounds"]) - 1 if args.round is None else args.round
    if not 0 <= r < len(record["rounds"]):
        raise OptionError(f"--round {r} is not in the record (it has {len(record['rounds'])} rounds)")
    obs = observation_at(record, args.seat, args.round, args.action, check=False)
    return record, obs, r, len(obs.history)


def _add_budget_flags(parser, *names) -> None:
    """The search-budget flags `names` (SearchBudget fields, and threads): flag, help and
    default from the one budget type (fiveup_solver.hint.BUDGET_FLAGS)."""
    from fiveup_solver.hint import BUDGET_DEFAULTS, BUDGET_FLAGS
    for name in names:
        flag, kind, text = BUDGET_FLAGS[name]
        if isinstance(kind, tuple):
            parser.add_argument(flag, default=BUDGET_DEFAULTS[name], choices=kind, help=text)
        else:
            # a number reads ASCII text only, as every option (_int, _number)
            parser.add_argument(flag, type={int: _int, float: _number}.get(kind, kind), default=BUDGET_DEFAULTS[name],
                                help=text)


def _budget_of(args) -> SearchBudget:
    """The SearchBudget of `fiveup hint`'s flags (checked once, there); an error names
    the flag a user typed (``--time-ms``), not the API's field (``time_ms``)."""
    from fiveup_solver.hint import BUDGET_FLAGS, SearchBudget
    try:
        return SearchBudget(method=args.method, samples=args.samples, time_ms=args.time_ms,
                            world_nodes=args.world_nodes, objective=args.objective, beliefs=args.beliefs,
                            search=args.three, depth=args.depth)
    except OptionError as e:
        text = str(e)
        for name, (flag, _, _) in BUDGET_FLAGS.items():
            if text.startswith(name + " "):
                raise OptionError(flag + text[len(name):]) from None
        raise


def cmd_hint(args, out) -> int:
    from fiveup_solver.beliefs import check_beliefs, describe
    from fiveup_solver.hint import Hinter
    out = _Fitted(out, fit_to_terminal)         # a narrow terminal: rows break between words
    if (args.round is None) != (args.action is None):
        raise OptionError("give --round and --action together (or neither: the record's last position)")
    record, obs, r, i = _observation_at(args)
    if obs.to_move is None and args.round is None:
        # the default position of a finished record is its end: nothing to advise there
        raise OptionError(f"the record's last position (round {r} action {i}) is the end of its round: "
                          "give --round and --action")
    if obs.to_move != args.seat:
        who = "the round is over" if obs.to_move is None else f"seat {obs.to_move} is to move"
        raise OptionError(f"round {r} action {i}: seat {args.seat} is not to move ({who})")
    if args.method != "exact":
        _check_three(args, obs.players)     # (exact: --three is refused below whatever the players)
    if args.method == "exact":
        # the flags the exact method does not take, named as typed (the API's checks name its fields)
        given = [flag for flag, v in (("--samples", args.samples), ("--time-ms", args.time_ms),
                                      ("--world-nodes", args.world_nodes), ("--three", args.three),
                                      ("--depth", args.depth)) if v is not None]
        if given:
            raise OptionError(f"{', '.join(given)}: not {_options(given)} of "
                              f"--method exact (it solves every world whole; its bound is --node-limit)")
        if args.beliefs == "model":
            raise OptionError("--method exact weighs the hidden worlds uniformly: --beliefs model does not apply")
        if args.seed is not None and args.sample_worlds is None:
            # (a review: taken and ignored, as the other sampling flags are not)
            raise OptionError("--seed: --method exact samples nothing without --sample-worlds (every world is solved)")
        exact = {"opponent": args.opponent, "max_worlds": args.max_worlds, "node_limit": args.node_limit,
                 "sample_worlds": args.sample_worlds, "seed": args.seed or 0,
                 "sample_draws": True if args.sample_draws else None}
        h = Hinter(threads=args.threads).hint(obs, budget=_budget_of(args), **exact)
    else:
        if (args.opponent is not None or args.max_worlds is not None or args.node_limit is not None
                or args.sample_worlds is not None or args.sample_draws):
            raise OptionError("--opponent, --max-worlds, --node-limit, --sample-draws and --sample-worlds are for "
                              "--method exact")
        past = past_observations(record, args.seat, r) if check_beliefs(args.beliefs) == "model" else None
        h = Hinter(threads=args.threads).hint(obs, seed=args.seed or 0, past=past, budget=_budget_of(args))
    if args.json:
        out.write(json.dumps(h.to_dict()) + "\n")
        return 0
    if h.method == "exact" and "sample_worlds" in h.budget:
        out.write(f"seat {h.seat} to move, round {r} action {i}: estimated best response against greedy, "
                  f"objective {h.objective}, {h.samples} sampled hidden worlds"
                  f"{' with their draws' if h.budget.get('sample_draws') else ''} (half choose the strategy, "
                  f"half judge it: held-out values +- standard errors), {h.nodes:,} nodes, "
                  f"{h.seconds * 1000:.1f} ms\n")
    elif h.method == "exact":
        out.write(f"seat {h.seat} to move, round {r} action {i}: exact best response against "
                  f"{h.budget['opponent']}, objective {h.objective}, {h.samples} hidden worlds (all), "
                  f"{h.nodes:,} nodes, {h.seconds * 1000:.1f} ms\n")
    elif h.samples == 0 and len(h.moves) == 1:
        # (a review: "0 sampled worlds, 0 nodes" read as a failure, as it did in fiveup play)
        out.write(f"seat {h.seat} to move, round {r} action {i}: one legal move, nothing to search\n")
    else:
        three = f", 3 players: {h.search}" if obs.players == 3 else ""
        depth = f" depth {h.budget['depth_reached']}" if "depth_reached" in h.budget else ""
        # a repeated draw is searched once (and again with more nodes under a time budget)
        distinct = h.budget.get("distinct_worlds")
        # the model's resampled plan searches each distinct world once, weighted by its
        # draws: the header counts the draws, as the uniform plan's does (a review)
        drawn = (h.budget["samples"] if h.belief is not None and h.belief.get("plan") == "resampled"
                 and h.budget.get("samples") is not None else h.samples)
        searched = (f" ({distinct} distinct" + (f", {h.budget['searches']} searches" if "searches" in h.budget else "")
                    + ")") if distinct is not None and distinct < drawn else ""
        # a time budget's second currency covers the worlds it reached, maybe fewer: said
        second = h.budget.get("second_currency_searches")
        other = "points" if h.objective == "win" else "win"
        fewer = f", {other} from {second} of them" if second is not None and second < h.samples else ""
        out.write(f"seat {h.seat} to move, round {r} action {i}: {h.method}{depth}{three}, objective {h.objective}, "
                  f"{drawn} sampled worlds{searched}{fewer}, {h.nodes:,} nodes, {h.seconds * 1000:.1f} ms\n")
    if h.belief is not None:
        out.write(describe(h.belief) + "\n")
    column = max(len(format_move(m.move)) for m in h.moves)      # the moves' column: the longest
    # a sampled value shows its standard error even when it is 0 (every world agreed): only
    # an exact value shows none
    sampled = h.method != "exact" or "sample_worlds" in h.budget
    for m, same in zip(h.moves, same_as_earlier(m.move for m in h.moves)):
        if same is not None:
            # a second port of one placement (RULES §3.4): the same values, said once
            out.write(f"  {m.rank:>2}. {format_move(m.move):<{column}}  the same as {h.moves[same].rank}\n")
            continue
        if m.value is None:
            out.write(f"  {m.rank:>2}. {format_move(m.move):<{column}} forced\n")
            continue
        # both currencies with their standard errors (none shown for an exact value); the
        # difference to the best move with its paired standard error
        win = f"win {100 * m.win:5.1f}{_plus_minus(m.win_stderr, 100, sampled)} %" if m.win is not None else ""
        pts = f"{m.points:+7.1f}{_plus_minus(m.points_stderr, 1, sampled)} pts" if m.points is not None else ""
        if m.rank == 1:
            diff = "best"
        elif h.objective == "win":
            # (rounded, + 0.0: a move tied with the best read "-0.0", a review)
            diff = f"{round(-100 * m.loss, 1) + 0.0:+6.1f}{_plus_minus(m.loss_stderr, 100, sampled)} win-%"
        else:
            diff = f"{round(-m.loss, 1) + 0.0:+6.1f}{_plus_minus(m.loss_stderr, 1, sampled)} pts"
        out.write(f"  {m.rank:>2}. {format_move(m.move):<{column}}  {win}  {pts}   {diff}\n")
    if h.method == "exact" and "sample_worlds" in h.budget:
        out.write(f"best: {format_move(h.best)}  (an estimate: +- are standard errors over the judging worlds)\n")
    elif h.method == "exact":
        out.write(f"best: {format_move(h.best)}  (exact values: no sampling error)\n")
    elif len(h.moves) == 1:
        out.write(f"best: {format_move(h.best)}  (the only legal move: nothing was searched)\n")
    else:
        out.write(f"best: {format_move(h.best)}  (differences to the best are paired over the same "
                  f"{h.samples} worlds)\n")
    if len(h.moves) > 1:
        out.write("win: the chance that the seat's side wins the game\n"
                  "pts: expected raw points this round, side less others (5 raw = 1 display point; "
                  "a world where the game is won or lost counts +-1000)\n")
        if sampled:
            out.write("+-: a standard error over the worlds searched\n")
    return 0


def _plus_minus(stderr, scale, sampled: bool = False) -> str:
    """" +- 2.4" of a standard error (times ``scale``); nothing for none, or for 0 unless the
    value is ``sampled`` (an exact value has no error; a sampled one whose worlds agreed has 0)."""
    return f" +- {scale * stderr:.1f}" if stderr or (sampled and stderr is not None) else ""


def cmd_analyze(args, out) -> int:
    from fiveup_solver.analysis import AnalysisBudget, analyze, format_text, plot_win_probability, to_html
    if args.plot is not None:
        _need_extra("matplotlib", "--plot")
        if not args.plot.lower().endswith((".png", ".svg")):
            raise OptionError(f"--plot {args.plot}: give a .png or .svg file name")
        check_output_path(args.plot, "--plot")
    if args.html is not None:
        _need_extra("matplotlib", "--html")
        check_output_path(args.html, "--html")
    record = load_record(args.file, args.game)
    _check_three(args, record["players"])
    rollout_options = {"rollouts": args.rollouts, "rollout_bot": args.rollout_bot, "candidates": args.candidates,
                       "workers": args.workers, "rollout_horizon": args.rollout_horizon}
    given = {k: v for k, v in rollout_options.items() if v is not None}
    if given and args.judge != "rollout":
        option = "--" + next(iter(given)).replace("_", "-")
        raise OptionError(f"{option} is an option of the rollout judge: add --judge rollout")
    if args.method != "pimc" and args.judge != "search":
        raise OptionError("--method is an option of the search judge: drop --judge rollout")
    if args.min_samples is not None and args.judge != "search":
        raise OptionError("--min-samples is an option of the search judge: drop --judge rollout")
    budget = AnalysisBudget(samples=args.samples, min_samples=args.min_samples, method=args.method,
                            luck_samples=args.luck_samples,
                            dd_nodes=args.dd_nodes, threads=args.threads, beliefs=args.beliefs, search=args.three, judge=args.judge,
                            **given)
    progress = not args.quiet and sys.stderr.isatty()
    a = analyze(record, seats=args.seat, budget=budget, seed=args.seed, progress=progress)
    if args.plot is not None:
        plot_win_probability(a, args.plot)
    if args.html is not None:
        try:
            with open(args.html, "w", encoding="utf-8") as f:
                f.write(to_html(a, record))
        except OSError as e:
            raise OptionError(f"--html {args.html}: cannot write ({e.strerror})") from None
    if args.json:
        out.write(json.dumps(a.to_dict()) + "\n")
        return 0
    # a narrow terminal: notes break between words, a wide table becomes narrower ones
    _Fitted(out, fit_to_terminal).write(format_text(a, width=terminal_width(out)))
    return 0


def _need_extra(module: str, option: str) -> None:
    if importlib.util.find_spec(module) is None:
        raise OptionError(f"{option} needs the analysis extra: pip install 'fiveup_solver[analysis]'")


PNG_MAX_SIZE = 6000     # pixels: fiveup show --png (a 6000-pixel board took 140 MB and 2 s to draw)


def cmd_show(args, out) -> int:
    from fiveup_solver.svg import board_svg, svg_to_png
    if args.svg is not None and args.png is not None:
        raise OptionError("give --svg or --png, not both")
    for option, path, suffix in (("--svg", args.svg, ".svg"), ("--png", args.png, ".png")):
        # the picture's format is the option's: a name saying another would mislabel the file
        if path is not None and not path.lower().endswith(suffix):
            raise OptionError(f"{option} {path}: give a {suffix} file name")
        if path is not None:
            check_output_path(path, option)
    if args.png is not None and args.size > PNG_MAX_SIZE:
        # (a review: a 20000-pixel PNG took 625 MB and 11 s; an SVG of any size costs nothing)
        raise OptionError(f"--size {args.size}: a PNG is at most {PNG_MAX_SIZE} pixels wide (an SVG, --svg, "
                          "scales to any size)")
    record = load_record(args.file, args.game)
    if (args.round is None) != (args.action is None):
        raise OptionError("give --round and --action together (or neither: the record's last position)")
    rounds = record["rounds"]
    if not rounds:
        raise OptionError(f"{args.file}: the record has no rounds")
    r = len(rounds) - 1 if args.round is None else args.round
    i = len(rounds[r]["actions"]) if args.action is None and 0 <= r < len(rounds) else args.action
    game = game_at(record, r, i)
    last = next((m for _, m in reversed(game.current.moves) if m.kind == "play"), None)
    at = "at its end" if i == len(rounds[r]["actions"]) and game.round_over else f"before action {i}"
    picture = board_svg(game, lastmove=last, size=args.size, flipped=args.flipped, title=f"round {r}, {at}")
    if args.png is not None:
        svg_to_png(picture, args.png)
    elif args.svg is not None:
        try:
            with open(args.svg, "w", encoding="utf-8") as f:
                f.write(picture)
        except OSError as e:
            raise OptionError(f"--svg {args.svg}: cannot write ({e.strerror})") from None
    else:
        out.write(picture + "\n")
        if terminal_width(out) is not None:
            # (a review: 3 KB of SVG on a screen, and no word of what to do with it)
            sys.stderr.write("(the board as SVG text: --svg FILE writes it to a file, --png FILE as a picture)\n")
    return 0


def cmd_play(args, out) -> int:
    from fiveup_solver.play import EchoedInput, EditedInput, bots_for_seats, play_in_terminal
    check_players(args.players, "--players")
    if not 0 <= args.seat < args.players:
        raise OptionError(f"--seat must be 0..{args.players - 1}, not {args.seat}")
    # the other seats' bots in seat order, as the browser app takes them (the person's seat skipped)
    bots = bots_for_seats(args.players, args.seat, [b.strip() for b in args.bots.split(",")])
    if args.record is not None:
        check_output_path(args.record, "--record")
    # a person at a terminal edits lines (arrow keys, history); piped input is read as it
    # is, each line echoed after its prompt as a terminal would show it typed
    inp = (EditedInput(out) if sys.stdin.isatty() and sys.stdout.isatty()
           else sys.stdin if sys.stdin.isatty() else EchoedInput(sys.stdin, out))
    return play_in_terminal(args.players, bots, args.seat, args.seed, inp=inp, out=out,
                            record_path=args.record)


def cmd_serve(args, out) -> int:
    if any(importlib.util.find_spec(m) is None for m in ("fastapi", "uvicorn")):
        raise OptionError("fiveup serve needs the serve extra: pip install 'fiveup_solver[serve]'")
    from fiveup_solver.serve import run
    return run(args.host, args.port, args.open, out=out, allow_hosts=args.allow_host or (),
               access_log=args.access_log)


# (dest, flag, default) of the options that only `equity build` reads, and of those only the
# lookup reads: given to the other form they would be silently ignored (a long build that
# drops --scores, a lookup that drops --rounds), so they are refused instead
_EQUITY_BUILD_ONLY = (("rounds", "--rounds", None), ("near_rounds", "--near-rounds", None),
                      ("workers", "--workers", 1), ("seed", "--seed", 0), ("bot", "--bot", "hint-uniform"),
                      ("samples", "--samples", None), ("save_samples", "--save-samples", None),
                      ("out", "--out", None), ("bootstrap", "--bootstrap", None), ("quiet", "--quiet", False))
_EQUITY_LOOKUP_ONLY = (("scores", "--scores", None), ("starter", "--starter", None), ("json", "--json", False),
                       ("table", "--table", None))
# with --samples the rounds are read, not played: the self-play options have nothing to do
_EQUITY_SELF_PLAY_ONLY = ("rounds", "near_rounds", "workers", "seed", "bot", "save_samples")


def _given(args, options, only=None) -> list:
    return [flag for dest, flag, default in options
            if (only is None or dest in only) and getattr(args, dest) != default]


def cmd_equity(args, out) -> int:
    from fiveup_solver import equity
    check_players(args.players, "--players")
    if args.action == "build":
        wrong = _given(args, _EQUITY_LOOKUP_ONLY)
        if wrong:
            raise OptionError(f"{', '.join(wrong)}: not an option of 'fiveup equity build' (it rebuilds a table)")
        if args.samples is not None:
            wrong = _given(args, _EQUITY_BUILD_ONLY, _EQUITY_SELF_PLAY_ONLY)
            if wrong:
                raise OptionError(f"{', '.join(wrong)}: {_options(wrong)} of the self-play, which --samples replaces")
        return _equity_build(args, out)
    wrong = _given(args, _EQUITY_BUILD_ONLY)
    if wrong:
        raise OptionError(f"{', '.join(wrong)}: {_options(wrong)} of 'fiveup equity build', not of the lookup")
    res = equity.equity_result(args.players, args.scores, args.starter, args.table)
    if args.json:
        out.write(json.dumps(res) + "\n")
        return 0
    out = _Fitted(out, fit_to_terminal)         # a narrow terminal: the notes break between words
    scores, starter, win = res["scores"], res["starter"], res["win"]
    who = "drawn" if starter is None else f"seat {starter}"
    out.write(f"{args.players} players, scores {_fmt_scores(scores)}, starter {who}:\n")
    stderr = res["stderr"]
    # (a review: -4000 against 0 read "50.0 % +- 0.0": the table's cell at 0 has no error to
    # give for a score it does not hold, so none is shown)
    below = [s for s, x in enumerate(scores) if x < 0]
    for side, p in enumerate(win):
        err = "" if stderr is None or below else f" +- {100 * stderr[side]:.1f}"
        out.write(f"  side {side}: win {100 * p:5.1f} %{err}\n")
    # (a review: this line said "unfinished (D6)", but the model has no round cap: 1 - the
    # sides' sum is the chance of reaching a stuck state, one from which no sampled round
    # ends the game (valued 0), plus the table's rounding)
    rounds = res["rounds_sampled"]
    out.write(f"  no side wins in the model (stuck states, rounding): {100 * res['unfinished']:.2f} %   "
              f"({args.table or 'the shipped table'}: {rounds:,} round{'s' if rounds != 1 else ''} of "
              f"{res['bot']} self-play)\n")
    if below:
        sides = " and ".join(f"side {s}" for s in below)
        out.write(f"  the tables start at 0: a score below 0 ({sides}) was looked up as 0, so these are the "
                  f"chances at {_fmt_scores(res['looked_up_as'])}, not at the scores asked (docs/equity.md)\n")
    elif stderr is None:
        out.write("  (this table has no standard errors: 'fiveup equity build --bootstrap N' adds them)\n")
    else:
        out.write(f"  +-: the table's standard error from its sampling ({res['bootstrap']} bootstrap tables), "
                  f"not how well its bots model players (docs/equity.md)\n")
    return 0


def _equity_build(args, out) -> int:
    from fiveup_solver import equity
    from fiveup_solver.bots import bot_function
    if args.rounds is not None and not 1 <= args.rounds <= 10_000_000:
        raise OptionError(f"--rounds must be 1..10000000, not {args.rounds}")
    if args.near_rounds is not None and not 0 <= args.near_rounds <= 1_000_000:
        raise OptionError(f"--near-rounds must be 0..1000000, not {args.near_rounds}")
    if not 1 <= args.workers <= 256:
        raise OptionError(f"--workers must be 1..256, not {args.workers}")
    replicates = equity.DEFAULT_BOOTSTRAP[args.players] if args.bootstrap is None else args.bootstrap
    if replicates != 0 and not 2 <= replicates <= 10_000:
        raise OptionError(f"--bootstrap must be 0 (no standard errors) or 2..10000, not {replicates}")
    for name, value in (("--out", args.out), ("--save-samples", args.save_samples)):
        if value is not None and not value.endswith(".npz"):
            raise OptionError(f"{name} {value}: the file name must end in .npz")
        # a path the user gives must be in a folder that exists (as every command's output);
        # only the default cache folder is made
        if value is not None:
            check_output_path(value, name)
    path = args.out or os.path.join(equity.cache_dir(), f"equity_{args.players}p.npz")
    _check_npz_target(path, "--out")   # before minutes of self-play, not after them
    _not_round_samples(path, "--out")
    # the samples beside the table, named after it (--out a.npz: a.rounds.npz): two builds into one
    # folder each keep their own (a shared rounds_Np.npz was overwritten without a word)
    saved = args.save_samples or (path[:-len(".npz")] + ".rounds.npz" if args.out
                                  else os.path.join(os.path.dirname(path), f"rounds_{args.players}p.npz"))
    if args.samples is None:
        _check_npz_target(saved, "--save-samples")
    if args.samples is not None:
        source = equity.samples_path(args.players) if args.samples == _SHIPPED_SAMPLES else args.samples
        if not os.path.exists(source):
            if args.samples == _SHIPPED_SAMPLES:
                raise OptionError(f"--samples: the shipped tables' round samples ({source}) are in a source "
                                  f"checkout only; pass --samples FILE")
            raise OptionError(f"--samples {args.samples}: no such file")
        samples = equity.RoundSamples.load(source)
        if samples.players != args.players:
            raise OptionError(f"--samples {source} holds {samples.players}-player rounds, not {args.players}")
    else:
        bot_function(args.bot)
        samples = equity.collect_samples(args.players, args.rounds, args.near_rounds, args.seed, bot=args.bot,
                                         workers=args.workers, progress=not args.quiet and sys.stderr.isatty())
        _write_npz(samples, saved, "--save-samples")
        out.write(f"{args.players} players: {samples.rounds:,} round sample{'s' if samples.rounds != 1 else ''} "
                  f"-> {saved}\n")
    table = equity.build_table(samples)
    if replicates:
        bar = None if args.quiet else _progress(replicates, "table")
        try:
            table = equity.with_bootstrap_errors(table, samples, replicates,
                                                 progress=None if bar is None else bar.update)
        finally:
            if bar is not None:
                bar.close()
    _write_npz(table, path, "--out")
    equity.load_table.cache_clear()   # in case --out replaced a shipped table in this process
    errors = f", standard errors from {replicates} bootstrap tables" if replicates else ""
    # (a review: stuck states, from which no sampled round ever ends the game, were never
    # reported; each is valued 0 for every side)
    stuck = (f", {table.stuck:,} stuck state{'s' if table.stuck != 1 else ''} (no sampled round ends the "
             f"game from {'them' if table.stuck != 1 else 'it'}: valued 0)" if table.stuck > 0 else "")
    out.write(f"{args.players} players: table from {samples.rounds:,} round{'s' if samples.rounds != 1 else ''} "
              f"({table.sweeps} sweep{'s' if table.sweeps != 1 else ''}{errors}{stuck}) -> {path}\n")
    return 0


_SHIPPED_SAMPLES = "<shipped>"   # ``--samples`` without a file: the checkout's benchmarks/data/rounds_Np.npz


def _check_npz_target(path, option) -> None:
    """What `_write_npz` would fail on, checked first: the path is a directory, or one of its
    folders is a file (missing folders are made), or the system refuses to look at it (a
    name too long, in $FIVEUP_CACHE_DIR too)."""
    p = Path(path)
    try:
        if p.is_dir():
            raise OptionError(f"{option} {path}: cannot write (Is a directory)")
        folder = p.parent
        while not folder.exists() and folder != folder.parent:
            folder = folder.parent
        if not folder.is_dir():
            raise OptionError(f"{option} {path}: cannot write (Not a directory)")
    except OSError as e:
        raise OptionError(f"{option} {path}: cannot write ({e.strerror or e})") from None


def _not_round_samples(path, option) -> None:
    """Refuse to write a table over a file of round samples (a review: ``--out
    ga.rounds.npz`` replaced a build's samples, minutes of self-play, with a table)."""
    import zipfile
    try:
        with zipfile.ZipFile(path) as z:
            names = set(z.namelist())
    except (OSError, zipfile.BadZipFile):
        return                                  # no file, or none of ours: written as before
    if "ev_offset.npy" in names and "win_starter0.npy" not in names:
        raise OptionError(f"{option} {path}: holds round samples (fiveup equity build's .rounds.npz); "
                          f"a table is not written over them: name another file")


def _write_npz(obj, path, option) -> None:
    """Save a table or samples to `path`, making its directory; a failure is one line."""
    try:
        folder = os.path.dirname(path)
        if folder:
            os.makedirs(folder, exist_ok=True)
        obj.save(path)
    except OSError as e:
        raise OptionError(f"{option} {path}: cannot write ({e.strerror or e})") from None


def cmd_sample(args, out) -> int:
    # options the chosen output does not use are refused, not dropped
    from fiveup_solver.inference import BONEYARD, DealSampler
    if args.probabilities and args.n is not None:
        raise OptionError("--n sets how many deals to list; --probabilities lists every tile's probabilities, "
                          "give one of them")
    if args.probabilities and args.beliefs == "uniform" and args.seed is not None:
        raise OptionError("--seed does not apply to --probabilities with uniform beliefs (exact, nothing sampled)")
    args.n = 10 if args.n is None else args.n
    args.seed = 0 if args.seed is None else args.seed
    if not 0 <= args.n <= 1_000_000:
        raise OptionError(f"--n must be 0..1000000, not {args.n}")
    record, obs, r, i = _observation_at(args)
    if not args.json:
        # (a review: a tile broke as "1-" / "3" at 80 columns; lines now break between words)
        out = _Fitted(out, fit_to_terminal)
    if args.beliefs == "model":
        return _sample_model(record, args, obs, out)
    ds = DealSampler(obs)
    if args.probabilities:
        marg = ds.marginals()
        table = {str(t): {("boneyard" if k == BONEYARD else str(k)): p for k, p in probs.items()}
                 for t, probs in marg.items()}
        if args.json:
            out.write(json.dumps(table) + "\n")
            return 0
        keys = [str(s) for s in ds.hidden_seats] + ["boneyard"]
        out.write("tile  " + "".join(f"{('seat ' + k) if k != 'boneyard' else k:>9}" for k in keys) + "\n")
        for t, probs in table.items():
            out.write(f"{t:<6}" + "".join(f"{probs[k]:>9.4f}" for k in keys) + "\n")
        return 0
    return write_deals(out, ds.sample(args.n, args.seed), args.json)


MARGINAL_WORLDS = 4096   # worlds behind the weighted marginals of `fiveup sample --probabilities`


def _sample_model(record, args, obs, out) -> int:
    """``fiveup sample --beliefs model``: weighted deals, or the weighted probabilities
    next to the exact uniform ones (``--probabilities``)."""
    from fiveup_solver.beliefs import Beliefs, describe
    from fiveup_solver.inference import BONEYARD, DealSampler, deals_from, past_evidence
    ds = DealSampler(obs, beliefs="model")
    evidence = past_evidence(obs, past_observations(record, args.seat, obs.round)) if obs.round else None
    beliefs = Beliefs(ds, None, evidence)
    if not args.probabilities:
        return write_deals(out, deals_from(beliefs.weigh(max(1, args.n), args.seed), ds, args.n, args.seed),
                           args.json)
    ww = beliefs.weigh(MARGINAL_WORLDS, args.seed)
    name = lambda k: "boneyard" if k == BONEYARD else str(k)   # noqa: E731
    tables = {kind: {str(t): {name(k): p for k, p in probs.items()} for t, probs in marg.items()}
              for kind, marg in (("uniform", ds._uniform_marginals()), ("model", ww.marginals(ds)))}
    if args.json:
        out.write(json.dumps(dict(tables, belief=ww.summary())) + "\n")
        return 0
    keys = [str(s) for s in ds.hidden_seats] + ["boneyard"]
    out.write(describe(ww.summary()) + "\n")
    # (74 columns with 4 players: a review's 82 broke every row at 80)
    out.write("tile  " + "".join(f"{('seat ' + k) if k != 'boneyard' else k:>17}" for k in keys) + "\n")
    out.write("      " + "".join(f"{'uniform':>9}{'model':>8}" for _ in keys) + "\n")
    for t in tables["uniform"]:
        out.write(f"{t:<6}" + "".join(f"{tables['uniform'][t][k]:>9.4f}{tables['model'][t][k]:>8.4f}"
                                      for k in keys) + "\n")
    return 0


def write_deals(out, deals, as_json: bool) -> int:
    """`fiveup sample`'s deal list (uniform or weighted draws alike)."""
    deals = [d.to_dict() for d in deals]
    if as_json:
        out.write(json.dumps(deals) + "\n")
        return 0
    for k, d in enumerate(deals):
        hands = "; ".join(f"seat {s}: {' '.join(h)}" for s, h in d["hands"].items())
        out.write(f"{k}: {hands}; boneyard: {' '.join(d['boneyard'])}\n")
    return 0


def cmd_bench(args, out) -> int:
    from fiveup_solver.bench import PLAYOUT_REPETITIONS, run_playout_bench
    if args.solver is not None and args.hint is not None:   # each replaces the playout bench: one at a time
        raise OptionError("give --solver or --hint, not both (each is a benchmark of its own)")
    wrong = _given(args, _BENCH_PLAYOUT_ONLY)
    if wrong and (args.solver is not None or args.hint is not None):
        # read by the playout bench alone: with --solver or --hint they were silently dropped
        raise OptionError(f"{', '.join(wrong)}: {_options(wrong)} of the playout bench, not of "
                          f"{'--solver' if args.solver is not None else '--hint'}")
    if args.python and args.solver is None:
        raise OptionError("--python: an option of --solver (the solver against the pure-Python alpha-beta), not of "
                          f"{'--hint' if args.hint is not None else 'the playout bench'}")
    if args.repetitions is not None:
        if args.hint is not None:
            raise OptionError("--repetitions: an option of the playout bench and of --solver, not of --hint")
        if not 0 < args.repetitions <= _BENCH_MAX_REPETITIONS:
            raise OptionError(f"--repetitions must be 1..{_BENCH_MAX_REPETITIONS}, not {args.repetitions}")
    if args.solver is not None:
        return _bench_solver(args, out)
    if args.hint is not None:
        return _bench_hint(args, out)
    if not (0 < args.rounds <= _C_INT_MAX and 0 < args.reference_rounds <= _C_INT_MAX):
        raise OptionError(f"--rounds and --reference-rounds must be 1..{_C_INT_MAX}")
    result = run_playout_bench(args.rounds, args.reference_rounds, args.seed,
                               repetitions=args.repetitions or PLAYOUT_REPETITIONS)
    if args.json:
        out.write(json.dumps(result) + "\n")
        return 0
    # (38 columns: a review saw the 44-column table break mid-word at 40)
    out = _Fitted(out, fit_to_terminal)
    reps = result["repetitions"]
    out.write(f"random playouts, whole rounds per second (one core; median of {reps} alternated "
              "repetitions after a warm-up)\n")
    out.write(f"{'players':>7} {'core':>11} {'reference':>10} {'ratio':>7}\n")
    for n in ("2", "3", "4"):
        core, ref = result["rounds_per_s"][n], result["reference_rounds_per_s"][n]
        r = (result["ratio"] or {}).get(n)
        ratio = f"{r['median']:6.0f}x" if r else f"{'n/a':>7}"
        ref_text = f"{ref:10,.0f}" if ref is not None else f"{'n/a':>10}"
        out.write(f"{n:>7} {core:11,.0f} {ref_text} {ratio}\n")
    if result["ratio"]:
        out.write(f"ratio range over the {reps} repetitions: " + ", ".join(
            f"{n}p {r['min']:,.0f}-{r['max']:,.0f}x" for n, r in result["ratio"].items()) + "\n")
    out.write(f"{result['rounds']:,} core and {result['reference_rounds']:,} reference rounds a timing, "
              f"seed {result['seed']}\n")
    load = result["load_average"]
    out.write(f"load average {' '.join(f'{x:.2f}' for x in load) if load else 'n/a'} "
              f"on {result['cpu_count'] or '?'} CPUs\n")
    out.write(f"peak resident memory {result['max_rss_mb']:.1f} MB\n")
    for w in result["warnings"]:
        out.write(f"warning: {w}\n")
    if "reference_missing" in result:
        out.write(f"note: {result['reference_missing']}\n")
    return 0


_BENCH_PLAYOUT_ONLY = (("rounds", "--rounds", 200_000), ("reference_rounds", "--reference-rounds", 600),
                       ("seed", "--seed", 1))
_BENCH_MAX_REPETITIONS = 100


def _warnings_and_load(result, out) -> None:
    """The load line and the warnings of a benchmark's result (load_average, cpu_count, warnings)."""
    load = result["load_average"]
    out.write(f"load average {' '.join(f'{x:.2f}' for x in load) if load else 'n/a'} "
              f"on {result['cpu_count'] or '?'} CPUs\n")
    for w in result["warnings"]:
        out.write(f"warning: {w}\n")


def _is_file(path: Path, option: str, folder) -> bool:
    """Path.is_file, a folder the system refuses to look in (a name too long) one line naming it."""
    try:
        return path.is_file()
    except OSError as e:
        raise OptionError(f"{option} {folder}: cannot read ({e.strerror or e})") from None


@contextmanager
def _bench_steps(what: str, args):
    """The on_step of a benchmark of many timings (``fiveup bench --hint`` takes about a
    minute, and showed nothing meanwhile): on a terminal, unless --quiet, the line "what
    k/n label: N s; Ctrl-C stops it" on stderr."""
    step = ["starting"]

    def on_step(label: str, k: int, n: int) -> None:
        step[0] = f"{k + 1}/{n} {label}"

    with _still_working(lambda: f"{what} {step[0]}", None if args.quiet else sys.stderr, "Ctrl-C stops it",
                        after=1.0):
        yield on_step


def _bench_hint(args, out) -> int:

    from fiveup_solver.bench import hint_report
    path = Path(args.hint) / "hint_positions.json"
    if not _is_file(path, "--hint", args.hint):
        raise OptionError(f"--hint {args.hint}: hint_positions.json is missing (it is in a source checkout's "
                          "benchmarks/data: give that folder)")
    with _bench_steps("timing hints", args) as on_step:
        report = hint_report(path, on_step=on_step)
    if args.json:
        out.write(json.dumps(report) + "\n")
        return 0
    out.write(f"hints at the default budget, {report['positions']} positions (ms per decision, 2 threads)\n")
    for label, r in report["latency"].items():
        ms = r["ms"]
        out.write(f"  {label:<18} median {ms['median']:8.2f}  p95 {ms['p95']:8.2f}  max {ms['max']:8.2f}  "
                  f"worlds exact {r['exact_worlds']}/{r['worlds']}  peak {r['max_rss_mb']:.1f} MB\n")
    for method, ratio in report.get("both_to_single", {}).items():
        lo, hi = report["both_to_single_paired_range"][method]
        out.write(f"both currencies / one, {method}: {ratio:.3f} (medians), "
                  f"{report['both_to_single_paired'][method]:.3f} (median of each position's ratio, "
                  f"{lo:.2f}-{hi:.2f}); nodes {report['both_to_single_nodes'][method]:.3f}; alternated per "
                  f"position, fastest of {report['both_currencies_reps']}\n")
    s, cmp = report["sampler"], report.get("sampler_comparison")
    out.write(f"exact sampler: {s['deals_per_s']:,} deals/s (one core), tables built in {s['build_ms_mean']} ms\n")
    _warnings_and_load(report, out)
    if "reference_missing" in report:
        out.write(f"note: {report['reference_missing']}\n")
    elif cmp is None:
        out.write("note: the suite has no early positions: no pure-Python rejection sampling to compare\n")
    else:
        r, rj = cmp["ratio"], cmp["rejection"]
        # (last: the figure the run is read for)
        out.write(f"{cmp['positions']} early positions, {cmp['repetitions']} alternated repetitions, "
                  f"{cmp['exact']['deals']:,} (exact) and {rj['deals']:,} (rejection) deals a position: exact "
                  f"sampler {cmp['exact']['deals_per_s']:,} deals/s, pure-Python rejection {rj['deals_per_s']:,.0f} "
                  f"deals/s (acceptance {rj['acceptance']:.3f}): {r['median']:,.0f}x, range "
                  f"{r['min']:,.0f}-{r['max']:,.0f}x\n")
    return 0


def _bench_solver(args, out) -> int:

    from fiveup_solver.bench import SOLVER_SUITES, solver_bench
    folder = Path(args.solver)
    missing = [n for n in SOLVER_SUITES if not _is_file(folder / f"{n}.json", "--solver", folder)]
    if missing:
        raise OptionError(f"--solver {folder}: suite files missing ({', '.join(m + '.json' for m in missing)}; "
                          "they are in a source checkout's benchmarks/data: give that folder)")
    with _bench_steps("timing the solver", args) as on_step:
        report = solver_bench(folder, on_step=on_step, repetitions=args.repetitions or 1, python=args.python)
    if args.json:
        out.write(json.dumps(report) + "\n")
        return 0
    run, against = report.pop("run"), report.pop("against_python")
    out.write(f"{'suite':<12} {'mode':<18} {'median ms':>10} {'its range':>13} {'p95 ms':>10} {'max ms':>10} "
              f"{'nodes med':>10} {'nodes p95':>10} {'nodes max':>10} {'Mnodes/s':>9} {'peak MB':>8} "
              f"{'table MB':>9}\n")
    same = False
    for name, entry in report.items():
        for mode, r in entry.items():
            lo, hi = r["ms_median_range"]
            spread = f"{lo:.3f}-{hi:.3f}" if r["passes"] > 1 else "-"
            mark = "=" if r.get("same_nodes_as") else ""
            same = same or bool(mark)
            out.write(f"{name:<12} {mode + mark:<18} {r['ms']['median']:>10.3f} {spread:>13} "
                      f"{r['ms']['p95']:>10.3f} {r['ms']['max']:>10.1f} {r['nodes']['median']:>10,} "
                      f"{r['nodes']['p95']:>10,} {r['nodes']['max']:>10,} {r['nodes_per_s'] / 1e6:>9.2f} "
                      f"{r['max_rss_mb']:>8.1f} {r['table_mb']:>9.1f}\n")
    reps = run["repetitions"]
    out.write(f"each row: the median over its passes (a fresh Solver over the whole suite each, after an untimed "
              f"warm-up), {'one pass' if reps == 1 else f'{reps} alternated passes'} a row"
              + (f" and {run['value_passes']} of value, at the start, middle and end of its suite (its range: the "
                 "same work timed again)" if run["value_passes"] > reps else "")
              + "; --repetitions N: N passes a row\n")
    if same:
        out.write("=: the same nodes as value at every position (no side within reach of 305, or no helper "
                  "thread started): the same work timed again, its difference from value is noise\n")
    out.write("peak MB: the process's peak resident memory so far\n")
    if against is not None:
        r = against["ratio"]
        out.write(f"{against['suite']}, first {against['positions'] + against['skipped']} positions "
                  f"({against['skipped']} over {against['node_limit']:,} Python nodes skipped), against the "
                  f"pure-Python alpha-beta: Python {against['python_seconds']:.3f} s, solver "
                  f"{1000 * against['solver_seconds']:.2f} ms a pass; values "
                  f"{'identical' if against['values_identical'] else 'DIFFER'}; {against['passes']} alternated "
                  f"passes: {r['median']:,.0f}x, range {r['min']:,.0f}-{r['max']:,.0f}x\n")
    _warnings_and_load(run, out)
    return 0


@dataclass(frozen=True)
class Command:
    """One command of the command line: its name, its one-line help, a function that adds
    its arguments to its parser, and the function that runs it (``run(args, out) -> exit code``)."""

    name: str
    help: str
    arguments: Callable
    run: Callable
    example: str = ""     # a command line that works as it is in an empty folder ('&&' joins two)


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """A command's --help: its description and example as written, and every option's
    default after its help unless the help already says it."""

    def _fill_text(self, text, width, indent):
        # a line of words is wrapped to the terminal (a command's description was one line
        # of up to 115 columns); an indented line, an example command, stays as written
        return "\n".join(indent + line if not line or line.startswith(" ") else
                         textwrap.fill(line, width, initial_indent=indent, subsequent_indent=indent,
                                       break_on_hyphens=False, break_long_words=False)
                         for line in text.splitlines())

    def _get_help_string(self, action):
        text = action.help or ""
        if (action.option_strings and not any(action.default is x for x in (None, False, argparse.SUPPRESS))
                and "default" not in text):
            text += " (default: %(default)s)"
        return text


def _record_file_arguments(p, what: str) -> None:
    """The record file of a command that reads one, and --game for a file of several."""
    p.add_argument("file", help=what)
    p.add_argument("--game", type=_int, default=None,
                   help="the game to read from a file of several, one a line (JSON Lines: 0 the first)")


def _demo_arguments(p) -> None:
    p.add_argument("--players", type=_int, default=2, help="players: 2, 3 or 4")
    p.add_argument("--seed", type=_seed, default=1, help="the game's seed (the deals and the bots' choices)")
    p.add_argument("--bots", default="hint,greedy",
                   help="bots in seat order, comma-separated (a shorter list repeats): a bot name as in docs/levels.md")


def _replay_arguments(p) -> None:
    _record_file_arguments(p, "a game record (RECORD.md's JSON)")
    p.add_argument("--json", action="store_true", help="print Game.result() as JSON (RECORD.md's replay output)")


def _selfplay_arguments(p) -> None:
    p.add_argument("--players", type=_int, default=2, help="players: 2, 3 or 4")
    p.add_argument("--seed", type=_seed, default=0, help="the run's seed: each game's seeds are drawn from it")
    p.add_argument("--bots", default="random", help="bots in seat order, comma-separated (a shorter list repeats)")
    p.add_argument("--games", type=_int, default=1, help="how many games")
    p.add_argument("--max-rounds", type=_int, default=DEFAULT_MAX_ROUNDS,
                   help="a game not won after this many rounds stops unfinished (RULES D6)")
    p.add_argument("--out", default="-", help="where the records go, one JSON line a game ('-': standard output)")


def _match_arguments(p) -> None:
    p.add_argument("--players", type=_int, default=2, help="players: 2, 3 or 4")
    p.add_argument("--bots", default="hint,greedy", help="BOT,OTHER (the rate is BOT's)")
    p.add_argument("--deals", type=_int, default=10, help="deal sequences; each is played from every seating")
    p.add_argument("--seed", type=_seed, default=0, help="the match's seed: every deal and bot choice comes from it")
    p.add_argument("--records", default=None,
                   help="write every game's record here (JSON Lines; line u*S+k: unit u's game in seating k, "
                        "S the seatings: 2, or 3 with 3 players)")
    p.add_argument("--move-time", type=_number, default=None, metavar="SECONDS",
                   help="a bot that takes longer over one move stops the run with an error naming it (default: no limit)")
    p.add_argument("--workers", type=_int, default=None, help="worker processes (default: the cores)")
    p.add_argument("--ray", default=None, help="run on Ray: 'auto' (a running cluster, else a local one) or an address (needs the ray extra)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")


def _sprt_arguments(p) -> None:
    p.add_argument("--players", type=_int, default=2, help="players: 2, 3 or 4")
    p.add_argument("--bots", required=True, help="BOT,OTHER")
    p.add_argument("--elo0", type=_number, default=0.0, help="H0: BOT's Elo advantage is at most this")
    p.add_argument("--elo1", type=_number, default=20.0, help="H1: BOT's Elo advantage is at least this")
    p.add_argument("--alpha", type=_number, default=0.05, help="the chance of accepting H1 when H0 holds")
    p.add_argument("--beta", type=_number, default=0.05, help="the chance of accepting H0 when H1 holds")
    p.add_argument("--max-games", type=_int, default=20_000,
                   help="stop after this many games, in whole pairs (triples with 3 players): 3 plays 2")
    p.add_argument("--seed", type=_seed, default=0, help="the run's seed: every deal and bot choice comes from it")
    p.add_argument("--workers", type=_int, default=None, help="worker processes (default: the cores)")
    p.add_argument("--ray", default=None, help="run on Ray: 'auto' (a running cluster, else a local one) or an address (needs the ray extra)")
    p.add_argument("--every", type=_int, default=10, help="stderr not a terminal: a progress line there every N pairs (triples)")
    p.add_argument("--move-time", type=_number, default=None, metavar="SECONDS",
                   help="a bot that takes longer over one move stops the run with an error naming it (default: no limit)")
    p.add_argument("--journal", default=None,
                   help="keep every pair's (triple's) scores in this JSON Lines file; a rerun with the same "
                        "journal, bots, players and seed resumes after its last pair")
    p.add_argument("--json", action="store_true", help="print the result as JSON")


def _ladder_arguments(p) -> None:
    p.add_argument("--players", type=_int, default=2, help="players: 2 or 4 (duplicate pairs)")
    p.add_argument("--games", type=_int, default=None,
                   help="games per pairing (even: pairs of seatings; default 100)")
    p.add_argument("--entrants", default=None, help="bots, comma-separated (default: level1..level8)")
    p.add_argument("--seed", type=_seed, default=None, help="default 0")
    p.add_argument("--workers", type=_int, default=None, help="worker processes (default: the cores)")
    p.add_argument("--ray", default=None, help="run on Ray: 'auto' or a cluster address (needs the ray extra)")
    p.add_argument("--out", default=None, help="write the ladder (JSON) here")
    p.add_argument("--journal", default=None,
                   help="append every pair here (JSON Lines) and skip pairs already there: stop and resume")
    p.add_argument("--move-time", type=_number, default=None, metavar="SECONDS",
                   help="a bot that takes longer over one move stops the run with an error naming it (default: no limit)")
    p.add_argument("--shipped", action="store_true", help="show the ladder shipped with the package")
    p.add_argument("--place", default=None, metavar="AGENT",
                   help="place one agent (a bot, or MODULE:FUNCTION) on a measured ladder: --games games against "
                        "each level, their Elo held fixed; no round-robin. For an agent you do not trust, give "
                        "--seed a secret value (the default seed 0 lets an agent learn the deals from its own "
                        "generator); the deals then differ from other placements")
    p.add_argument("--against", default=None, help="with --place: the levels to play, comma-separated (default: all)")
    p.add_argument("--ladder", default=None, metavar="FILE",
                   help="with --place: a ladder saved by --out, measured with today's level recipes (default: "
                        "the one shipped for --players)")
    p.add_argument("--json", action="store_true", help="print the ladder (or the placement) as JSON")


def _perft_arguments(p) -> None:
    _record_file_arguments(p, "a full game record (every hand known)")
    p.add_argument("--round", type=_int, required=True, help="the round (0: the first)")
    p.add_argument("--action", type=_int, default=0, help="the position before this action of the round (0: its start)")
    p.add_argument("--depth", type=_int, required=True,
                   help="count the sequences of this many turns (a draw or a pass is a turn)")


def _solve_arguments(p) -> None:
    from fiveup_solver.solver import DEFAULT_THREADS as SOLVER_THREADS
    _record_file_arguments(p, "a full game record (every hand known)")
    p.add_argument("--round", type=_int, required=True, help="the round (0: the first)")
    p.add_argument("--action", type=_int, required=True,
                   help="the position before this action of the round (0: its start)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--tt-mb", type=_number, default=16.0, help="the transposition table's size, in MB")
    p.add_argument("--node-limit", type=_int, default=0, help="stop after this many nodes (0: none)")
    p.add_argument("--objective", default="points", choices=("points", "win"),
                   help="what the search maximises (both are reported per move)")
    p.add_argument("--threads", type=_int, default=SOLVER_THREADS,
                   help="search threads of large positions (the values do not depend on it)")
    _add_budget_flags(p, "search")
    p.add_argument("--quiet", action="store_true",
                   help=f"no line on a terminal's stderr saying a solve is still at work (after "
                        f"{SOLVE_PROGRESS_AFTER:g} s)")


def _hint_arguments(p) -> None:
    from fiveup_solver.exact import DEFAULT_MAX_WORLDS, DEFAULT_NODE_LIMIT, OPPONENTS
    from fiveup_solver.hint import HINT_METHODS, METHODS
    _record_file_arguments(p, "a game record: the full one or the seat's view")
    p.add_argument("--seat", type=_int, required=True, help="the seat to advise (it must be to move)")
    p.add_argument("--round", type=_int, default=None, help="default: the record's last position")
    p.add_argument("--action", type=_int, default=None, help="with --round: the position before this action")
    p.add_argument("--method", default="pimc", choices=HINT_METHODS,
                   help="; ".join(f"{m.name}: {m.summary}" for m in METHODS.values())
                   + "; exact: every hidden world and draw, the seat best-responding from its own information "
                     "to --opponent (small positions)")
    p.add_argument("--opponent", default=None, choices=OPPONENTS,
                   help="--method exact: how the other seats play (default greedy; best-defence: 2 players)")
    p.add_argument("--max-worlds", type=_int, default=None,
                   help=f"--method exact: refuse above this many hidden configurations (default {DEFAULT_MAX_WORLDS})")
    p.add_argument("--node-limit", type=_int, default=None,
                   help=f"--method exact: refuse a search above this many world positions "
                        f"(default {DEFAULT_NODE_LIMIT})")
    p.add_argument("--sample-worlds", type=_int, default=None,
                   help="--method exact against greedy: estimate over this many hidden worlds drawn with "
                        "--seed (for positions beyond exact reach)")
    p.add_argument("--sample-draws", action="store_true",
                   help="with --sample-worlds: each sampled world fixes the boneyard's order too, the later "
                        "draws sampled with it (reaches boneyard 7+)")
    _add_budget_flags(p.add_mutually_exclusive_group(), "samples", "time_ms")
    p.add_argument("--seed", type=_seed, default=None, help="the seed of the sampled worlds (default 0)")
    _add_budget_flags(p, "world_nodes", "depth", "threads", "objective", "beliefs", "search")
    p.add_argument("--json", action="store_true", help="print the hint as JSON")


def _analyze_arguments(p) -> None:
    from fiveup_solver.analysis import ANALYSIS_SEARCH, AnalysisBudget, MIN_SAMPLES
    from fiveup_solver.hint import METHODS
    from fiveup_solver.rollout import HORIZONS
    from fiveup_solver.solver import SEARCHES
    _record_file_arguments(p, "a game record: the full one (every seat) or a seat's view (that seat)")
    p.add_argument("--seat", type=_int, default=None, help="analyse this seat only (a view: its own seat)")
    p.add_argument("--samples", type=_int, default=AnalysisBudget.samples, help="sampled worlds per decision")
    p.add_argument("--min-samples", type=_int, default=None,
                   help="search judge: worlds of the first stage; the judge stops after a stage (then 2x, 4x, ... "
                        f"up to --samples) once the mark and best move are settled (default: {MIN_SAMPLES}, at most "
                        "--samples; --min-samples equal to --samples searches every world)")
    p.add_argument("--luck-samples", type=_int, default=AnalysisBudget.luck_samples,
                   help="sampled worlds per luck value (and random deals per value before a deal)")
    p.add_argument("--dd-nodes", type=_int, default=AnalysisBudget.dd_nodes,
                   help="node limit of each double-dummy solve")
    _add_budget_flags(p, "threads")
    p.add_argument("--seed", type=_seed, default=0, help="the seed of every sampled world")
    p.add_argument("--plot", default=None, help="write the win probability over the game (PNG or SVG): the analysed "
                   "side's (side 0's when both are analysed; with 3 players each seat's own)")
    p.add_argument("--html", default=None, help="write one self-contained HTML report")
    p.add_argument("--json", action="store_true", help="print the analysis as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    _add_budget_flags(p, "beliefs")
    p.add_argument("--three", default=None, choices=SEARCHES,
                   help="how 3 players are searched by the search judge: maxn (every seat maximises its own "
                        "value) or paranoid (the seat against the other two together); default: "
                        f"{ANALYSIS_SEARCH} (closer to playout losses, docs/analysis_judges.md)")
    p.add_argument("--method", default=AnalysisBudget.method, choices=tuple(METHODS),
                   help="the search judge's method: pimc (default), expectimax (every later draw a chance node) "
                        "or alphamu (2 players); docs/analysis_judges.md measures them")
    p.add_argument("--judge", default="search", choices=("search", "rollout"),
                   help="search: every move searched in sampled worlds (PIMC, fast); rollout: every candidate "
                        "played out to the game's end by a bot in every seat, paired worlds (slow, faithful)")
    p.add_argument("--rollouts", type=_int, default=None,
                   help="rollout judge: playouts per candidate (default 32)")
    p.add_argument("--rollout-bot", default=None, help="rollout judge: the bot of every seat (default: hint)")
    p.add_argument("--candidates", default=None,
                   help="rollout judge: 'all' legal moves (default) or 'top:K' (the played move and the "
                        "search judge's K best)")
    p.add_argument("--workers", type=_int, default=None,
                   help="rollout judge: worker processes for the playouts (the results do not depend on it)")
    p.add_argument("--rollout-horizon", default=None, choices=HORIZONS,
                   help="rollout judge: play each playout to the game's end (default) or to the round's end, "
                        "valued there by the race-equity table (9 to 31 times cheaper per game: docs/analysis_judges.md)")


def _play_arguments(p) -> None:
    from fiveup_solver.play import HELP
    # (a review: nowhere did the help name the game's own commands or the bots to choose)
    p.epilog = "in the game, one a line:\n" + "".join(f"  {line.strip()}\n" for line in HELP.split("\n")) + p.epilog
    p.add_argument("--players", type=_int, default=2, help="players: 2, 3 or 4")
    p.add_argument("--bots", default="hint",
                   help="the other seats' bots in seat order, your seat skipped (a shorter list repeats): "
                        "level1 (weakest) to level8 (the hint search with uniform beliefs; the hint bot "
                        "places level with it on the ladders), hint, greedy, random; docs/levels.md gives each level's "
                        "strength: ladders with 2 and 4 players, each level's step over the one below with 3 "
                        "(level6 no stronger than level5 with 3 or 4 players)")
    p.add_argument("--seat", type=_int, default=0, help="your seat")
    p.add_argument("--seed", type=_seed, default=None,
                   help="deal this seed's game (default: a secret seed, said at the game's end)")
    p.add_argument("--record", default=None, help="write the game's record here at the end")


def _serve_arguments(p) -> None:
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: this machine only)")
    p.add_argument("--port", type=_int, default=8061,
                   help="the port to listen on (0: a free one, printed at the start)")
    p.add_argument("--open", action="store_true", help="open the page in a web browser")
    p.add_argument("--allow-host", action="append", default=None, metavar="NAME",
                   help="also answer requests whose Host header names NAME (repeatable): the name a reverse "
                        "proxy forwards, or a LAN name such as mybox.local")
    p.add_argument("--access-log", action="store_true",
                   help="write a line for each request (client address, request line, status) on standard error")


def _show_arguments(p) -> None:
    _record_file_arguments(p, "a game record")
    p.add_argument("--round", type=_int, default=None, help="default: the record's last position")
    p.add_argument("--action", type=_int, default=None, help="with --round: the position before this action")
    p.add_argument("--svg", default=None, help="write the SVG here (default: standard output)")
    p.add_argument("--png", default=None, help="write a PNG here (needs cairosvg: the analysis extra)")
    p.add_argument("--size", type=_int, default=720, help="the picture's width in pixels")
    p.add_argument("--flipped", action="store_true", help="turn the board by 180 degrees")


def _equity_arguments(p) -> None:
    # (metavar: argparse names a positional by it in its errors, "argument action:" read as
    # the program's insides, a review)
    p.add_argument("action", nargs="?", choices=("build",), default=None, metavar="build",
                   help="build: rebuild a table (without it: look P(win) up)")
    p.add_argument("--players", type=_int, default=2, help="players: 2, 3 or 4")
    p.add_argument("--scores", default=None,
                   help="raw scores A,B[,C] (multiples of 5 below 305; with 4 players a side's score may be below "
                        "0: give it as --scores=-20,100)")
    p.add_argument("--starter", default=None, help="the starter seat, or 'drawn' (default)")
    p.add_argument("--table", default=None, metavar="FILE",
                   help="look up in this table (one 'fiveup equity build' wrote) instead of the shipped one")
    p.add_argument("--json", action="store_true", help="print the probabilities as JSON")
    p.add_argument("--rounds", type=_int, default=None, help="build: sample rounds of self-play at 0:0")
    p.add_argument("--near-rounds", type=_int, default=None,
                   help="build: sample rounds per near-target anchor score (0: none; 195 anchors with 2 or 4 "
                        "players, 2,743 with 3; at most 10,000,000 sample rounds in all)")
    p.add_argument("--workers", type=_int, default=1, help="build: self-play processes")
    p.add_argument("--seed", type=_seed, default=0, help="build: seed of the sample rounds")
    p.add_argument("--bot", default="hint-uniform",
                   help="build: the bot every seat plays (default: the shipped tables' bot, hint-uniform; it has "
                        "changed since they were played, so only --samples rebuilds them exactly)")
    p.add_argument("--samples", nargs="?", const=_SHIPPED_SAMPLES, default=None, metavar="FILE",
                   help="build: reuse saved round samples (.npz), no self-play; without FILE, the shipped "
                        "tables' samples in a source checkout (benchmarks/data/rounds_Np.npz)")
    p.add_argument("--save-samples", default=None,
                   help="build: where to save the round samples (default: beside the table, OUT.rounds.npz for "
                        "--out OUT.npz, rounds_Np.npz for the default table)")
    p.add_argument("--out", default=None,
                   help="build: where to write the table (default: equity_Np.npz in the user cache directory, "
                        "$FIVEUP_CACHE_DIR, else $XDG_CACHE_HOME/fiveup_solver, else ~/.cache/fiveup_solver; "
                        "never the installed package)")
    p.add_argument("--bootstrap", type=_int, default=None, metavar="N",
                   help="build: tables from N bootstrap copies of the rounds give each probability its standard "
                        "error (default: 100 with 2 or 4 players, 16 with 3, whose tables take ~100 x longer; "
                        "0: none)")
    p.add_argument("--quiet", action="store_true", help="build: no progress bar")


def _sample_arguments(p) -> None:
    _record_file_arguments(p, "a game record: the full one or the seat's view")
    p.add_argument("--seat", type=_int, required=True, help="the seat whose view is sampled")
    p.add_argument("--round", type=_int, required=True, help="the round (0: the first)")
    p.add_argument("--action", type=_int, required=True, help="the position before this action of the round")
    p.add_argument("--n", type=_int, default=None, help="how many deals (default 10; not with --probabilities)")
    p.add_argument("--seed", type=_seed, default=None,
                   help="default 0; not with --probabilities under uniform beliefs (exact, no sampling)")
    p.add_argument("--probabilities", action="store_true", help="exact marginals instead of samples")
    p.add_argument("--beliefs", default="uniform", choices=("uniform", "model"),
                   help="model: deals weighted by how the other seats have played (--probabilities shows the "
                        "weighted probabilities next to the uniform ones)")
    p.add_argument("--json", action="store_true", help="print the deals or marginals as JSON")


def _bench_arguments(p) -> None:
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--rounds", type=_int, default=200_000, help="random rounds played by the core")
    p.add_argument("--reference-rounds", type=_int, default=600,
                   help="random rounds played by the pure-Python reference (slower: fewer)")
    p.add_argument("--seed", type=_seed, default=1, help="the seed of the random rounds")
    p.add_argument("--solver", metavar="DIR", nargs="?", const="benchmarks/data", default=None,
                   help="instead: the solver on the suites in DIR (default benchmarks/data)")
    p.add_argument("--hint", metavar="DIR", nargs="?", const="benchmarks/data", default=None,
                   help="instead: hint latency and sampler speed on DIR/hint_positions.json")
    p.add_argument("--quiet", action="store_true",
                   help="no progress line on the terminal (--solver and --hint; the playout bench takes seconds)")
    p.add_argument("--repetitions", type=_int, default=None, metavar="N",
                   help="alternated repetitions of every timing: the playout bench's (default 5) and --solver's "
                        "rows (default 1, each suite's value row 3 times; N times the time)")
    p.add_argument("--python", action="store_true",
                   help="with --solver: also the solver against the pure-Python alpha-beta "
                        "(tests/reference_alphabeta.py) on 20 mid-round positions, 3 alternated passes, "
                        "a source checkout only (about 2 s more)")



# The commands, in the order --help lists them: a new command is one row here, its arguments
# function and its run function.
COMMANDS = (
    Command("demo", "a seeded game between built-in bots, turn by turn",
            _demo_arguments, cmd_demo,
            "fiveup demo --players 3 --bots hint,greedy,random --seed 4"),
    Command("replay", "replay a record (full, or a seat's view): summary or RECORD.md JSON",
            _replay_arguments, cmd_replay,
            "fiveup selfplay --seed 2 --out game.json && fiveup replay game.json"),
    Command("selfplay", "play whole games between bots, JSON Lines records",
            _selfplay_arguments, cmd_selfplay,
            "fiveup selfplay --games 3 --bots greedy,random --out games.jsonl"),
    Command("match", "two bots on the same deals, seats swapped; win rate with 95%% CI",
            _match_arguments, cmd_match,
            "fiveup match --bots greedy,random --deals 20 --workers 1"),
    Command("sprt", "is BOT stronger than OTHER? duplicate pairs (triples with 3 players: BOT alone in each seat) "
            "until the SPRT decides",
            _sprt_arguments, cmd_sprt,
            "fiveup sprt --bots greedy,random --elo1 200 --max-games 200 --workers 1"),
    Command("ladder", "the Elo ladder of the bot levels: a round-robin of duplicate pairs, "
            "Bradley-Terry fit with 95%% intervals",
            _ladder_arguments, cmd_ladder,
            "fiveup ladder --shipped"),
    Command("perft", "count turn sequences of a given depth",
            _perft_arguments, cmd_perft,
            "fiveup selfplay --seed 2 --out game.json && fiveup perft game.json --round 0 --depth 3"),
    Command("solve", "exact values of every move (all hands known)",
            _solve_arguments, cmd_solve,
            "fiveup selfplay --seed 2 --out game.json && fiveup solve game.json --round 0 --action 0"),
    Command("hint", "best moves for one seat from what it has seen (hidden hands sampled)",
            _hint_arguments, cmd_hint,
            "fiveup selfplay --seed 2 --out game.json && fiveup hint game.json --seat 0 --round 0 --action 0"),
    Command("analyze", "post-game analysis: every decision judged (win %% and points), double-dummy "
            "losses, luck, a summary per seat",
            _analyze_arguments, cmd_analyze,
            "fiveup selfplay --seed 2 --bots hint,greedy --out game.json && fiveup analyze game.json --html report.html"),
    Command("play", "play a whole game against the bots in the terminal (one command a line)",
            _play_arguments, cmd_play,
            "fiveup play --players 2 --bots level4"),
    Command("serve", "the browser app: play the bots with hints, then an analysis board (needs the serve extra)",
            _serve_arguments, cmd_serve,
            "fiveup serve --open"),
    Command("show", "the board at a position as a picture (SVG, or PNG with the analysis extra)",
            _show_arguments, cmd_show,
            "fiveup selfplay --seed 2 --out game.json && fiveup show game.json --round 0 --action 5 --svg board.svg"),
    Command("equity", "P(win) of each side from a round's start (race-equity tables), or 'equity "
            "build' to rebuild a table",
            _equity_arguments, cmd_equity,
            "fiveup equity --players 2 --scores 250,280"),
    Command("sample", "hidden deals consistent with one seat's view, or their exact marginals",
            _sample_arguments, cmd_sample,
            "fiveup selfplay --seed 2 --out game.json && fiveup sample game.json --seat 1 --round 0 --action 3 --probabilities"),
    Command("bench", "speed against the pure-Python reference in the same run: random playouts, "
            "and with --solver or --hint the solver and the hints",
            _bench_arguments, cmd_bench,
            "fiveup bench"),
)




def build_parser(argv=None) -> argparse.ArgumentParser:
    """The parser of every command; given the arguments (main), only the options of the
    command they name are added, so that a run imports only the modules its command needs
    (each command's functions import them: the start-up of `fiveup solve` leaves out the
    ladder, the analysis, the matches and tqdm; docs/results/performance.md)."""
    every = argv is None
    wanted = None if every else _command_named(argv)
    p = _Parser(prog="fiveup", description="Exact 61 Five Up: rules engine, solver and hints")
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)
    for command in COMMANDS:
        # the one-line help is also the description ('%%' there is argparse's escape)
        parser = sub.add_parser(command.name, help=command.help, description=command.help.replace("%%", "%"),
                                epilog="example:\n" + "".join(f"  {step}\n" for step in command.example.split(" && ")),
                                formatter_class=_HelpFormatter)
        if every or command.name == wanted:
            command.arguments(parser)
        parser.set_defaults(func=command.run)
    return p


def _command_named(argv) -> str | None:
    """The command the arguments name: the first that is not an option (the only options
    before it, --help and --version, take no value)."""
    return next((a for a in argv if not a.startswith("-")), None)


class _OutputError(OptionError):
    """Standard output cannot be written."""


class _Output:
    """Standard output for the commands: a write that fails (a full disk, ``> /dev/full``)
    is one error line, not a traceback; a closed pipe stays BrokenPipeError (main: exit 0)."""

    def __init__(self, stream):
        self.stream = stream

    def _check(self, call, *args):
        try:
            return call(*args)
        except BrokenPipeError:
            raise
        except OSError as e:
            raise _OutputError(f"cannot write the output ({e.strerror or e})") from None

    def write(self, text: str) -> int:
        return self._check(self.stream.write, text)

    def flush(self) -> None:
        self._check(self.stream.flush)

    def __getattr__(self, name):
        return getattr(self.stream, name)


class _Fitted:
    """An output whose lines are fitted to its terminal (``fit``) as they are written whole."""

    def __init__(self, out, fit):
        self.out, self.fit = out, fit

    def write(self, text: str) -> int:
        return self.out.write(self.fit(text[:-1], self.out) + "\n" if text.endswith("\n") else text)

    def __getattr__(self, name):
        return getattr(self.out, name)


def _drop_stdout() -> None:
    """Point standard output at /dev/null: what it still buffers cannot fail again when
    the interpreter exits (an 'Exception ignored' message)."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _named_as_options(text: str, parser, argv) -> str:
    """An API error names its parameter (``max_games must be ...``); on the command line
    the message names the option that set it (``--max-games must be ...``)."""
    try:
        args, _ = parser.parse_known_args(argv)
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[args.command]
    except (FiveUpError, SystemExit, StopIteration, KeyError, AttributeError):
        return text                 # the options themselves were refused: their message names them
    for action in sub._actions:
        flags = [f for f in action.option_strings if f.startswith("--")]
        if flags and action.dest != "help":
            # an identifier (max_games, elo0) anywhere; a plain word (threads, size) only as the
            # first word of a message or clause and the subject of "must" ("round 0 action 3:
            # seat 1 is not to move", "the game must ..." name no option)
            if re.search(r"[_0-9]", action.dest):
                text = re.sub(r"(?<![\w-])" + re.escape(action.dest) + r"\b(?=[ )])", flags[0], text)
            else:
                text = re.sub(r"(^|: )" + re.escape(action.dest) + r"(?= must )", rf"\g<1>{flags[0]}", text)
                # and where the message gives the option's value after it ("from 2 to samples
                # (4)", a review)
                value = getattr(args, action.dest, None)
                if value is not None:
                    text = re.sub(r"(?<![\w-])" + re.escape(action.dest) + r"(?= \(" + re.escape(str(value)) + r"\))",
                                  flags[0], text)
    return text


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _one_line(text: str) -> str:
    """An error on one line whatever it quotes: a file name or a value holding a newline
    (or another control character) is shown escaped, as repr shows it."""
    return _CONTROL.sub(lambda m: repr(m.group())[1:-1], text)


def _in_its_file(text: str, args) -> str:
    """A record's fault after the name of the file it is in (and its game, of several),
    as load_record names a file's own faults: a fault found replaying the record (an
    illegal action) did not say in which file, the one the person named (a review)."""
    file = getattr(args, "file", None)
    if not isinstance(file, str):
        return text
    where = str(Path(file))             # as load_record names it
    if getattr(args, "game", None) is not None:
        where += f" game {args.game}"
    return text if text.startswith((where + ": ", str(Path(file)) + ": ")) else f"{where}: {text}"


# the commands that run bots of one's own in this process, whose print() must not reach stdout
_RUNS_AGENTS = frozenset({"match", "sprt", "ladder", "selfplay"})


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["help"]:
        # `fiveup help [COMMAND]`, as git and pip take it: the --help of the command, or of all
        argv = argv[1:2] + ["--help"]
    parser = build_parser(argv)
    out = _Output(sys.stdout)
    args = None
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            raise OptionError("a command is required: " + ", ".join(c.name for c in COMMANDS)
                              + " (fiveup --help says what each does)")
        if args.command in _RUNS_AGENTS:
            # an agent's print() goes to standard error: standard output carries the result,
            # which --json makes a machine's input (a review: a printing agent broke it);
            # `out` writes to the real standard output (worker processes: parallel.py)
            with contextlib.redirect_stdout(sys.stderr):
                code = args.func(args, out)
        else:
            code = args.func(args, out)
        out.flush()
        return code
    except FiveUpError as e:
        if isinstance(e, _OutputError):
            _drop_stdout()
        # a record's own fields keep their names ("round 0 action 3: seat must be 0..1" is the
        # record's seat, not the --seat option)
        text = _in_its_file(str(e), args) if isinstance(e, RecordError) else _named_as_options(str(e), parser, argv)
        sys.stderr.write(f"error: {_one_line(text)}\n")
        return 2
    except RecursionError:
        sys.stderr.write("error: input nested too deeply\n")
        return 2
    except MemoryError as e:
        # (the API names the option where it can: Solver's tt_mb; this is the rest)
        sys.stderr.write(f"error: out of memory{': ' + _one_line(str(e)) if str(e) else ''}\n")
        return 2
    except KeyboardInterrupt:
        # on a line of its own: a progress bar or a prompt may hold the terminal's line
        sys.stderr.write(("\n" if sys.stderr.isatty() else "") + "error: interrupted\n")
        return 130
    except BrokenPipeError:
        _drop_stdout()
        return 0


if __name__ == "__main__":
    sys.exit(main())
