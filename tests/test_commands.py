"""The command line is a table of commands (cli.COMMANDS): name, help, arguments, run."""
from __future__ import annotations

import argparse

from fiveup_solver import cli


def _subcommands(parser) -> dict:
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return action.choices


def test_the_parser_is_built_from_the_table():
    table = [c.name for c in cli.COMMANDS]
    assert len(set(table)) == len(table)
    parsers = _subcommands(cli.build_parser())
    assert list(parsers) == table
    for command in cli.COMMANDS:
        assert parsers[command.name].get_default("func") is command.run


def test_a_new_row_is_a_new_command(monkeypatch, capsys):
    """One row (name, help, arguments, run) is all a command needs: parsed, listed and run."""
    def arguments(p):
        p.add_argument("--times", type=int, default=2)

    def run(args, out):
        out.write("ok " * args.times + "\n")
        return 0
    monkeypatch.setattr(cli, "COMMANDS", cli.COMMANDS + (cli.Command("echo-test", "a test command", arguments, run),))
    assert cli.main(["echo-test", "--times", "3"]) == 0
    assert capsys.readouterr().out == "ok ok ok \n"
    assert cli.main([]) == 2
    assert "echo-test" in capsys.readouterr().err


def test_the_missing_command_message_names_every_command(capsys):
    assert cli.main([]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and all(c.name in err for c in cli.COMMANDS)
