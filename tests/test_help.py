"""``fiveup --help`` and every command's ``--help``: exit 0 and a usage text.

The commands are read from the parser itself (every sub-parser, at any depth),
so a new command is covered without touching this file.
"""
import argparse
import os
import subprocess
import sys

import pytest

from fiveup_solver import cli


def _commands(parser, prefix=()):
    """Every command path of `parser`: ('demo',), ('equity',), ... (nested sub-parsers too)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield prefix + (name,)
                yield from _commands(sub, prefix + (name,))


COMMANDS = list(_commands(cli.build_parser()))


def _help(capsys, argv):
    with pytest.raises(SystemExit) as info:
        cli.main(argv)
    out, err = capsys.readouterr()
    return info.value.code, out, err


def test_the_parser_has_the_known_commands():
    # a floor, not the list: the test below runs whatever the parser holds
    names = {c[0] for c in COMMANDS}
    assert {"demo", "hint", "match", "equity", "play", "show", "analyze", "ladder"} <= names
    assert len(COMMANDS) >= 15


def test_top_level_help(capsys):
    code, out, err = _help(capsys, ["--help"])
    assert code in (0, None) and err == ""
    assert out.startswith("usage: fiveup")
    for (name,) in [c for c in COMMANDS if len(c) == 1]:
        assert name in out


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_command_help(command, capsys):
    code, out, err = _help(capsys, list(command) + ["--help"])
    assert code in (0, None) and err == ""
    assert out.startswith(f"usage: fiveup {' '.join(command)}")
    assert len(out.splitlines()) >= 3   # usage, then the options


def test_fiveup_help_is_help_and_no_command_says_where_help_is(capsys):
    """A review: `fiveup help` was "invalid choice: 'help'", and plain `fiveup` listed the
    commands without saying how to learn what they do."""
    for argv, want in ((["help"], "usage: fiveup [-h]"), (["help", "play"], "usage: fiveup play")):
        code, out, err = _help(capsys, argv)
        assert code in (0, None) and err == "" and out.startswith(want)
    assert cli.main([]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: a command is required: demo, ") and err.endswith("(fiveup --help says what each does)\n")


def test_help_through_the_installed_command():
    """The console script itself (no traceback on stderr)."""
    exe = os.path.join(os.path.dirname(sys.executable), "fiveup")
    argv = [exe] if os.path.exists(exe) else [sys.executable, "-m", "fiveup_solver.cli"]
    proc = subprocess.run(argv + ["--help"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.startswith("usage: fiveup") and "match" in proc.stdout


def test_hint_help_names_each_method_once(capsys):
    """`--method` help is "NAME: summary" per method; alphamu's summary began with its name
    again ("alphamu: alphamu: ...")."""
    from fiveup_solver.hint import METHODS
    code, out, err = _help(capsys, ["hint", "--help"])
    text = " ".join(out.split())   # argparse wraps lines
    for name in METHODS:
        assert f"{name}: " in text
        assert f"{name}: {name}:" not in text


@pytest.mark.parametrize("command", [c for c in cli.COMMANDS if c.name not in ("play", "serve")], ids=lambda c: c.name)
def test_every_commands_example_works_as_written(command, tmp_path, monkeypatch, capsys):
    """A review: no command's --help had an example. Each has one now, shown under
    'example:', and it runs as written in an empty folder (play and serve wait for a
    person: their examples only parse)."""
    monkeypatch.chdir(tmp_path)
    code, out, _ = _help(capsys, [command.name, "--help"])
    # a command of several steps shows one a line (each within 80 columns)
    steps = command.example.split(" && ")
    assert "example:\n" + "".join(f"  {step}\n" for step in steps) in out
    assert all(len(step) <= 78 for step in steps)
    for line in command.example.split(" && "):
        argv = line.split()
        assert argv[0] == "fiveup"
        assert cli.main(argv[1:]) == 0, (line, capsys.readouterr().err)
    capsys.readouterr()


@pytest.mark.parametrize("command", ["play", "serve"])
def test_the_examples_of_the_interactive_commands_parse(command):
    example = next(c.example for c in cli.COMMANDS if c.name == command)
    args = cli.build_parser().parse_args(example.split()[1:])
    assert args.command == command


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_option_says_what_it_is(command):
    """A review: most options of demo, selfplay, sprt, bench ... had no help, and their
    defaults and units were nowhere. Every option and argument has a help text now, and
    --help shows each default (the formatter adds it where the text does not say it)."""
    parser = cli.build_parser()
    for name in command:
        parser = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[name]
    for action in parser._actions:
        if action.dest != "help" and not isinstance(action, argparse._SubParsersAction):
            assert action.help, f"{' '.join(command)} {action.option_strings or action.dest}: no help"


def test_help_shows_the_defaults(capsys):
    code, out, _ = _help(capsys, ["solve", "--help"])
    text = " ".join(out.split())
    assert "in MB (default: 16.0)" in text and "(0: none) (default: 0)" in text
    code, out, _ = _help(capsys, ["sprt", "--help"])
    text = " ".join(out.split())
    assert "at least this (default: 20.0)" in text and "when H0 holds (default: 0.05)" in text
