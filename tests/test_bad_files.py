"""Bad files and paths found by a fuzz campaign: each exits with status 2 and exactly one
stderr line ``error: ...`` naming the option or the file, or raises a typed error from
the API; none is a traceback, a hang or memory used without bound. And valid files that
were refused: JSON Lines whose games hold a raw U+2028 in a string."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fiveup_solver import record as record_module
from fiveup_solver.bench import load_suite
from fiveup_solver.cli import check_output_path, main
from fiveup_solver.errors import OptionError, RecordError
from fiveup_solver.game import Game
from fiveup_solver.match import journal_lines
from fiveup_solver.record import check_record, load_record, parse_record_text, replay
from fiveup_solver.selfplay import play_game

ROOT = Path(__file__).resolve().parent.parent
LONG = "a" * 300        # a file name over NAME_MAX (255 bytes): stat fails with errno 36
# what str.splitlines splits at, raw in a JSON string (NEL, U+0085, too: a control character,
# refused in a seat's name, so the journal test below carries it)
NAMES = ["Ann\u2028Bob", "Cy\u2029Di"]

needs_matplotlib = pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None,
                                      reason="--plot and --html need the analysis extra")
needs_serve = pytest.mark.skipif(any(importlib.util.find_spec(m) is None for m in ("fastapi", "uvicorn")),
                                 reason="fiveup serve needs the serve extra")


def error_line(capsys, argv) -> str:
    """The message of the one stderr line of a command that exits with status 2."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.endswith("\n") and err.count("\n") == 1, err
    return err[len("error: "):-1]


@pytest.fixture(scope="module")
def games():
    """Three whole self-played 2-player games, their seats named with raw line separators."""
    out = []
    for seed in (1, 2, 3):
        rec = play_game(2, seed, ["greedy", "random"]).to_record()
        rec["seats"] = list(NAMES)
        out.append(rec)
    return out


@pytest.fixture
def record_file(tmp_path, games):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(games[0], indent=1), encoding="utf-8")
    return str(path)


def json_lines(records, end="\n") -> str:
    return "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + end for r in records)


# ---------------------------------------------------------------- 1. output paths too long

@pytest.mark.parametrize("argv, option, suffix", [
    (["show", "{record}", "--svg"], "--svg", ".svg"),
    (["show", "{record}", "--png"], "--png", ".png"),
    (["selfplay", "--games", "1", "--out"], "--out", ".jsonl"),
    (["match", "--bots", "random,greedy", "--deals", "1", "--records"], "--records", ".jsonl"),
    pytest.param(["analyze", "{record}", "--plot"], "--plot", ".png", marks=needs_matplotlib),
    pytest.param(["analyze", "{record}", "--html"], "--html", ".html", marks=needs_matplotlib),
    (["play", "--record"], "--record", ".json"),
    (["equity", "build", "--players", "2", "--out"], "--out", ".npz"),
    (["equity", "build", "--players", "2", "--save-samples"], "--save-samples", ".npz"),
    (["ladder", "--games", "2", "--out"], "--out", ".json"),
])
def test_an_output_file_name_too_long_is_one_line(capsys, tmp_path, record_file, argv, option, suffix):
    path = str(tmp_path / (LONG + suffix))
    argv = [a.replace("{record}", record_file) for a in argv] + [path]
    assert error_line(capsys, argv) == f"{option} {path}: cannot write (File name too long)"


@pytest.mark.parametrize("option", ["--solver", "--hint"])
def test_a_bench_folder_name_too_long_is_one_line(capsys, tmp_path, option):
    folder = str(tmp_path / LONG)
    assert error_line(capsys, ["bench", option, folder]) == f"{option} {folder}: cannot read (File name too long)"


def test_check_output_path_raises_option_error(tmp_path):
    path = str(tmp_path / LONG / "x.svg")
    with pytest.raises(OptionError) as e:
        check_output_path(path, "--svg")
    assert str(e.value) == f"--svg {path}: cannot write (File name too long)"


# ---------------------------------------------------------------- 2. record files without end

DEV_ZERO_MESSAGE = ("{path}: larger than 32 MiB, the most a record file of one game takes "
                    "(a file of several games holds one a line, JSON Lines)")

# the command in a child process whose address space is capped: were the file read whole,
# it would end in a MemoryError (a traceback, status 1) instead of eating the machine's memory
_CAPPED_MAIN = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (2 ** 30, 2 ** 30)); "
                "from fiveup_solver.cli import main; sys.exit(main(sys.argv[1:]))")


def run_capped(argv) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    return subprocess.run([sys.executable, "-c", _CAPPED_MAIN, *argv], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=120)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
@pytest.mark.parametrize("argv", [["replay", "/dev/zero"], ["hint", "/dev/zero", "--seat", "0"],
                                  ["replay", "/dev/zero", "--game", "3"]])
def test_a_record_file_of_endless_zeros_is_refused_in_bounded_memory(argv):
    proc = run_capped(argv)
    assert (proc.returncode, proc.stdout) == (2, ""), proc.stderr[-2000:]
    assert proc.stderr == "error: " + DEV_ZERO_MESSAGE.format(path="/dev/zero") + "\n"


def test_a_huge_sparse_record_file_is_refused_in_bounded_memory(tmp_path):
    path = tmp_path / "huge.json"
    with open(path, "wb") as f:
        f.truncate(8 * 2 ** 30)          # 8 GiB of NUL bytes, taking no disk
    proc = run_capped(["replay", str(path)])
    assert (proc.returncode, proc.stdout) == (2, ""), proc.stderr[-2000:]
    assert proc.stderr == "error: " + DEV_ZERO_MESSAGE.format(path=path) + "\n"


def test_the_record_size_limit_is_32_mib():
    assert record_module.MAX_RECORD_BYTES == 32 * 2 ** 20


@pytest.fixture
def small_limit(monkeypatch):
    """A record size limit of 64 KiB, so that a few games make a file above it."""
    monkeypatch.setattr(record_module, "MAX_RECORD_BYTES", 64 * 1024)
    return 64 * 1024


def test_json_lines_above_the_limit_are_read_a_line_at_a_time(small_limit, tmp_path, games, capsys):
    records = [games[k % 3] for k in range(20)]
    text = json_lines(records[:10], "\r\n") + "\n" + json_lines(records[10:])   # CRLF, a blank line, LF
    path = tmp_path / "many.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))                      # with a byte-order mark
    assert path.stat().st_size > 2 * small_limit
    for k in (0, 9, 10, 19):
        assert load_record(path, k) == check_record(records[k])
    assert load_record(path, 13)["seats"] == NAMES
    with pytest.raises(RecordError) as e:
        load_record(path)
    assert str(e.value) == f"{path}: 20 games (JSON Lines): choose one with --game K, 0 to 19"
    with pytest.raises(RecordError) as e:
        load_record(path, 20)
    assert str(e.value) == f"{path}: no game 20 (it holds 20: --game 0 to 19)"
    with pytest.raises(OptionError) as e:         # the option's fault, not the file's
        load_record(path, -1)
    assert str(e.value) == "the game number (--game) counts from 0, not -1"
    assert main(["replay", str(path), "--game", "19", "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and json.loads(out)["scores"] == list(replay(records[19])["scores"])


def test_a_file_above_the_limit_that_is_not_json_lines_is_one_line(small_limit, tmp_path, games, capsys):
    path = tmp_path / "big.json"
    path.write_text(json.dumps({**games[0], "rounds": games[0]["rounds"] * 20}, indent=1), encoding="utf-8")
    assert path.stat().st_size > small_limit
    assert error_line(capsys, ["replay", str(path)]) == (
        f"{path}: larger than 0.0625 MiB, the most a record file of one game takes "
        "(a file of several games holds one a line, JSON Lines)")


def test_a_line_above_the_limit_is_named_by_its_offset(small_limit, tmp_path, games, capsys):
    head = json_lines(games).encode("utf-8")
    path = tmp_path / "long_line.jsonl"
    path.write_bytes(head + b"{" + b" " * small_limit + b"}\n" + json_lines(games[:1]).encode("utf-8"))
    assert error_line(capsys, ["replay", str(path), "--game", "0"]) == (
        f"{path}: the line at byte {len(head)} is larger than 0.0625 MiB, the most one game's record takes")


def test_a_file_above_the_limit_not_utf8_names_the_byte(small_limit, tmp_path, games):
    head = json_lines(games * 3).encode("utf-8")
    path = tmp_path / "bad.jsonl"
    path.write_bytes(head + b'{"x": "\xff"}\n')
    with pytest.raises(RecordError) as e:
        load_record(path, 0)
    assert str(e.value) == f"{path}: not UTF-8 text (byte {len(head) + 7})"


def test_a_path_that_cannot_be_read_is_one_record_error(tmp_path):
    with pytest.raises(RecordError) as e:
        load_record(tmp_path)
    assert str(e.value) == f"{tmp_path}: cannot read (Is a directory)"
    with pytest.raises(RecordError) as e:
        load_record("game\x00.json")
    assert str(e.value) == "'game\\x00.json': cannot read (embedded null byte)"


# ---------------------------------------------------------------- 3. JSON Lines split at line ends only

def test_json_lines_with_raw_u2028_in_a_seat_name_are_read(tmp_path, games, capsys):
    text = json_lines(games)
    assert "\u2028" in text and "\u2029" in text     # raw, not escaped
    path = tmp_path / "games.jsonl"
    path.write_text(text, encoding="utf-8")
    for k in range(3):
        assert load_record(path, k) == check_record(games[k])
    assert parse_record_text(text.encode("utf-8"), "games.jsonl", 1)["seats"] == NAMES
    with pytest.raises(RecordError) as e:
        load_record(path)
    assert str(e.value) == f"{path}: 3 games (JSON Lines): choose one with --game K, 0 to 2"
    assert main(["replay", str(path), "--game", "2"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and out.startswith("round 0: ")


def test_json_lines_with_raw_u2028_above_the_limit_are_read(small_limit, tmp_path, games):
    path = tmp_path / "games.jsonl"
    path.write_text(json_lines(games * 4), encoding="utf-8")
    assert path.stat().st_size > small_limit
    assert load_record(path, 10) == check_record(games[1])


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
def test_json_lines_keep_every_line_end_they_had(tmp_path, games, end):
    records = [{**g, "seats": ["Ann", "Bob"]} for g in games]
    path = tmp_path / "games.jsonl"
    path.write_text(json_lines(records, end), encoding="utf-8", newline="")
    assert load_record(path, 1) == check_record(records[1])


def test_a_single_record_with_raw_u2028_is_read(tmp_path, games):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(games[2], indent=1, ensure_ascii=False), encoding="utf-8")
    assert load_record(path)["seats"] == NAMES


def test_journal_lines_split_at_line_ends_only(tmp_path):
    rows = [{"players": 2, "bot": "my\u2028bot", "other": "x\u2029y\x85", "seed": 0},
            {"index": 0, "scores": [1.0, 0.0]}, {"index": 1, "scores": [0.5, 0.5]}]
    lines = [json.dumps(r, ensure_ascii=False) for r in rows]
    path = tmp_path / "journal.jsonl"
    text = lines[0] + "\n" + lines[1] + "\r\n" + lines[2] + "\n" + '{"index": 2'     # a cut last line
    path.write_bytes(text.encode("utf-8"))
    assert journal_lines(str(path)) == (lines, len(text.encode("utf-8")) - len('{"index": 2'))


# ---------------------------------------------------------------- 4. bench suite files

@pytest.fixture(scope="module")
def suite_records():
    full = play_game(2, 5, ["greedy", "random"]).to_record()
    g = Game(players=2, seed=3)
    for _ in range(2):
        g.push(g.legal_moves[0])
    return full, g.to_record(view=0)


def write_suite(path: Path, content) -> Path:
    path.write_bytes(content if isinstance(content, bytes) else json.dumps(content).encode("utf-8"))
    return path


def suite_cases(full, view):
    n = len(full["rounds"][0]["actions"])
    at = {"record": full, "round": 0, "action": 3, "scores": [285, 255]}
    return [
        (b"[\n", "not a suite (not valid JSON: line 2 column 1: Expecting value)"),
        (b"[]\xff", "not a suite (not UTF-8 text: byte 2)"),
        (b"[" * 100_000, "not a suite (not valid JSON: nested too deeply)"),
        ([{**at, "record": view, "action": 1, "scores": [0, 0]}],
         "position 0: a position from given scores needs the full record, not seat 0's view"),
        ([{**at, "action": 10 ** 6}], f"position 0: round 0: action 1000000 is not in 0..{n}"),
        ([{**at, "action": -1}], f"position 0: round 0: action -1 is not in 0..{n}"),
        ([{**at, "round": 1}], "position 0: a position from given scores is in round 0, not round 1"),
        ([{**at, "scores": [1000, 0]}], "position 0: scores must be from 0 to 304 with 2 players, not [1000, 0]"),
        ([at, {"record": {**full, "rounds": None}, "round": 0, "action": 0}], "position 1: rounds must be a list"),
        ([{"record": full, "round": 0, "action": n + 1}], f"position 0: round 0: action {n + 1} is not in 0..{n}"),
        # (a review: an empty suite was an IndexError's traceback in bench --solver; a position
        # at its round's end an error naming neither the file nor the position)
        ([], "the suite has no positions"),
        ([{"record": full, "round": 0, "action": n}], "position 0: the round is over there (nothing to search)"),
    ]


def test_load_suite_refuses_bad_files_and_positions(tmp_path, suite_records):
    for k, (content, message) in enumerate(suite_cases(*suite_records)):
        path = write_suite(tmp_path / f"suite{k}.json", content)
        with pytest.raises(OptionError) as e:
            load_suite(path)
        assert str(e.value) == f"{path}: {message}"


def test_load_suite_reads_a_position_from_given_scores(tmp_path, suite_records):
    full, _ = suite_records
    path = write_suite(tmp_path / "suite.json", [{"record": full, "round": 0, "action": 3, "scores": [285, 255]}])
    (g,) = load_suite(path)
    assert list(g.scores) == [285, 255] and len(g.current.actions) == 3
    assert len(load_suite(ROOT / "benchmarks" / "data" / "near_target.json")) == 100


@pytest.mark.parametrize("case", [0, 1, 3, 4, 5, 10, 11])
def test_bench_solver_names_the_bad_suite_file(capsys, tmp_path, suite_records, case):
    content, message = suite_cases(*suite_records)[case]
    for name in ("openings_4p", "midround", "near_target"):
        write_suite(tmp_path / f"{name}.json", [])
    path = write_suite(tmp_path / "openings_2p.json", content)
    assert error_line(capsys, ["bench", "--solver", str(tmp_path)]) == f"{path}: {message}"


@pytest.mark.parametrize("mode", ["--solver", "--hint"])
@pytest.mark.parametrize("option", [["--rounds", "5"], ["--reference-rounds", "7"], ["--seed", "3"]])
def test_bench_refuses_the_playout_options_with_another_benchmark(capsys, mode, option):
    """--rounds, --reference-rounds and --seed were silently dropped by --solver and --hint."""
    assert error_line(capsys, ["bench", mode, "benchmarks/data", *option]) == \
        f"{option[0]}: an option of the playout bench, not of {mode}"


def test_selfplay_into_a_closed_pipe_ends_quietly():
    """`fiveup selfplay | head -c 5` exited 2 with "cannot write (Broken pipe)": main's quiet
    exit 0 for a reader that has read enough was caught first by the command's OSError."""
    reader = subprocess.Popen([sys.executable, "-m", "fiveup_solver.cli", "selfplay", "--games", "200",
                               "--bots", "greedy"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    reader.stdout.read(5)
    reader.stdout.close()
    err = reader.stderr.read().decode()
    assert reader.wait(timeout=120) == 0 and err == ""


# ---------------------------------------------------------------- 5. serve --host

@needs_serve
@pytest.mark.parametrize("host, reason", [("a..b", "label empty or too long"), ("a" * 64, "label too long")])
def test_serve_a_host_name_idna_refuses_is_one_line(capsys, host, reason):
    assert error_line(capsys, ["serve", "--host", host, "--port", "0"]) == \
        f"cannot serve on {host}:0: not a host name ({reason})"
    assert capsys.readouterr().out == ""


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
@pytest.mark.parametrize("argv", [["sprt", "--bots", "greedy,random", "--max-games", "2", "--journal", "/dev/zero"],
                                  ["ladder", "--entrants", "level1,greedy", "--games", "2", "--journal", "/dev/zero"]])
def test_a_journal_of_endless_zeros_is_refused_in_bounded_memory(argv):
    """A journal is read a line at a time, each line at most 1 MiB (match.JOURNAL_LINE_BYTES):
    /dev/zero is refused at once, in a child whose memory is capped at 1 GiB."""
    proc = run_capped(argv)
    assert (proc.returncode, proc.stdout) == (2, ""), proc.stderr[-2000:]
    assert proc.stderr == "error: journal /dev/zero: not a journal (line 1 is longer than 1024 KiB)\n"


def test_a_journal_line_longer_than_the_limit_is_refused_and_complete_lines_are_read(tmp_path):
    from fiveup_solver.match import JOURNAL_LINE_BYTES, journal_lines
    path = tmp_path / "j.jsonl"
    path.write_bytes(b'{"a": 1}\n{"b": 2}\r\n{"c": 3')         # the last line cut while written
    assert journal_lines(str(path)) == (['{"a": 1}', '{"b": 2}'], 19)
    path.write_bytes(b'{"a": 1}\n' + b"x" * (JOURNAL_LINE_BYTES + 5) + b"\n")
    with pytest.raises(OptionError, match=r"not a journal \(line 2 is longer than 1024 KiB\)"):
        journal_lines(str(path))


@pytest.mark.parametrize("name, shown", [("a\nb.json", "a\\nb.json"), ("c\rd\te\x1b.json", "c\\rd\\te\\x1b.json")])
def test_a_file_name_with_control_characters_is_shown_escaped_on_one_line(capsys, tmp_path, name, shown):
    # the name is quoted in the message; its newline must not split the one error line
    message = error_line(capsys, ["replay", str(tmp_path / name)])
    assert message == f"{tmp_path}/{shown}: cannot read (No such file or directory)"


@pytest.mark.parametrize("size", ["0.0001", "0", "-1", "16385", "nan"])
def test_solve_tt_mb_out_of_range_is_one_line(capsys, size):
    """A review: --tt-mb 0.0001 passed the command's own check "(0, 16384]" and then failed the
    Solver's, with another range in its message."""
    record = ROOT / "tests" / "data" / "maxn_slow_position.json"
    assert error_line(capsys, ["solve", str(record), "--round", "0", "--action", "0", "--tt-mb", size]) == \
        f"--tt-mb must be between 0.001 and 16384, not {float(size)}"


@pytest.mark.parametrize("text,kind", [("null", "null"), ("[1, 2]", "an array"), ('"game"', "a string"),
                                       ("3", "a number"), ("true", "true/false")])
def test_a_record_that_is_no_object_is_named_in_json_words(tmp_path, capsys, text, kind):
    """A review: "a record is a JSON object, not NoneType" (or "not list"): Python's names
    of what JSON calls null and an array."""
    path = tmp_path / "r.json"
    path.write_text(text)
    assert error_line(capsys, ["replay", str(path)]) == f"{path}: a record is a JSON object, not {kind}"
