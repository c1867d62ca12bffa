"""Every integer option of the command line reads ASCII digits only, as --seed does (a
review: `fiveup analyze --samples \u0663` ran 3 worlds, int() reading Arabic-Indic digits,
while --seed refused them): one parser (cli._int), a one-line error naming the option."""
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


def test_no_option_is_read_by_int():
    assert not [a.option_strings for a in _actions(build_parser()) if a.type is int]


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
