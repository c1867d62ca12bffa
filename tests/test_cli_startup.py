"""A command loads what it needs: the start-up of `fiveup` (issue 24, docs/results/performance.md).

Every command's module used to be imported by every run: `fiveup solve` loaded the ladder,
the analysis, the matches and tqdm. The parser now adds only the options of the command
named, and each command imports its own modules.
"""
import contextlib
import io
import json
import subprocess
import sys

import pytest

from fiveup_solver import Game, cli

# a fresh interpreter runs the command, then prints the package's modules it imported
PROBE = r"""
import contextlib, io, json, sys
from fiveup_solver.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        code = main(sys.argv[1:])
    except SystemExit as e:
        code = e.code
print(json.dumps({"code": code, "modules": sorted(m for m in sys.modules
                                                  if m.startswith("fiveup_solver.") or m in ("tqdm", "multiprocessing"))}))
"""

# what no command below needs: the ladder, the analysis, the matches, the terminal game,
# the benchmarks, the progress bars
OTHER_COMMANDS = {"fiveup_solver.ladder", "fiveup_solver.analysis", "fiveup_solver.match", "fiveup_solver.play",
                  "fiveup_solver.bench", "fiveup_solver.selfplay", "fiveup_solver.rollout", "tqdm"}


def loaded(*argv) -> set:
    r = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout.splitlines()[-1])
    assert result["code"] == 0, (argv, r.stderr)
    return set(result["modules"])


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    path = tmp_path_factory.mktemp("startup") / "game.json"
    g = Game(players=2, seed=3)
    for _ in range(6):
        g.push(g.legal_moves[0])
    path.write_text(json.dumps(g.to_record()))
    return str(path)


def test_a_command_loads_only_its_own_modules(record):
    version = loaded("--version")
    assert not version & (OTHER_COMMANDS | {"fiveup_solver.solver", "fiveup_solver.hint", "fiveup_solver.exact"})
    replay = loaded("replay", record)
    assert not replay & (OTHER_COMMANDS | {"fiveup_solver.solver", "fiveup_solver.hint"})
    solve = loaded("solve", record, "--round", "0", "--action", "2")
    assert "fiveup_solver.solver" in solve and not solve & OTHER_COMMANDS
    hint = loaded("hint", record, "--seat", "0", "--round", "0", "--action", "2")
    assert "fiveup_solver.hint" in hint and not hint & OTHER_COMMANDS
    assert "multiprocessing" not in hint       # the process pool only where a run starts one


@pytest.mark.parametrize("command", [c.name for c in cli.COMMANDS])
def test_each_command_has_the_options_of_the_whole_parser(command):
    """The parser built for one command (main's) gives that command the same options, defaults
    and help as the parser of every command."""
    def help_of(parser):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
            parser.parse_args([command, "--help"])
        return out.getvalue()
    whole = help_of(cli.build_parser())
    assert "usage: fiveup " + command in whole and "options:" in whole
    assert help_of(cli.build_parser([command, "--help"])) == whole
    assert help_of(cli.build_parser(["--quiet-typo", command])) == whole   # the command after an option


def test_the_command_list_and_errors_need_no_command_options(capsys):
    """`fiveup --help` lists every command; a typo names the choices; options of one command
    given to another are refused as before."""
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    listing = capsys.readouterr().out
    assert all(c.name in listing for c in cli.COMMANDS)
    assert cli.main(["solv"]) == 2
    assert "invalid choice: 'solv'" in capsys.readouterr().err
    assert cli.main(["replay", "x.json", "--node-limit", "5"]) == 2
    assert "unrecognized arguments: --node-limit 5" in capsys.readouterr().err
