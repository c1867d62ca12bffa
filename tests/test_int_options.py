"""Every integer option of the command line reads ASCII digits only, as --seed does (a
review: `fiveup analyze --samples \u0663` ran 3 worlds, int() reading Arabic-Indic digits,
while --seed refused them): one parser (cli._int), a one-line error naming the option.
Decimal options likewise (cli._number: float() reads them too)."""
from __future__ import annotations

import argparse

from fiveup_solver.cli import build_parser, main


def _actions(parser):
    for act in parser._actions:
        if isinstance(act, argparse._SubParsersAction):
            for sub in act.choices.values():
                yield from _actions(sub)
        else:
            yield act


def test_no_option_is_read_by_int_or_float():
    assert not [a.option_strings for a in _actions(build_parser()) if a.type in (int, float)]


def test_other_scripts_digits_are_a_one_line_error(capsys):
    for argv in (["analyze", "game.json", "--samples", "\u0663"], ["analyze", "game.json", "--luck-samples", "\u0663"],
                 ["analyze", "game.json", "--dd-nodes", "\u0663"], ["analyze", "game.json", "--threads", "\u0663"],
                 ["selfplay", "--players", "\u0662"], ["hint", "game.json", "--seat", "0", "--samples", "\u0664"]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"argument {argv[-2]}: must be an integer (digits 0-9), not" in err, err


def test_ascii_integers_still_parse():
    args = build_parser(["analyze"]).parse_args(["analyze", "g.json", "--samples", "48", "--luck-samples", "+12"])
    assert (args.samples, args.luck_samples) == (48, 12)


def test_other_scripts_digits_in_a_decimal_option_are_a_one_line_error(capsys):
    for argv in (["match", "--bots", "greedy,random", "--move-time", "\u0663"],
                 ["solve", "game.json", "--tt-mb", "\u0664"],
                 ["sprt", "--bots", "greedy,random", "--elo1", "\u0662\u0660"],
                 ["hint", "game.json", "--seat", "0", "--time-ms", "\u0665\u0660"]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"argument {argv[-2]}: must be a number (digits 0-9, '.', 'e'), not" in err, err


def test_ascii_decimals_still_parse():
    args = build_parser(["solve"]).parse_args(["solve", "g.json", "--round", "0", "--action", "0", "--tt-mb", "0.5"])
    assert args.tt_mb == 0.5
    args = build_parser(["hint"]).parse_args(["hint", "g.json", "--seat", "0", "--time-ms", "1e2"])
    assert args.time_ms == 100.0
