"""Where ``fiveup equity build`` reads round samples and writes its files.

The shipped tables' round samples are not package data: they live in the source
checkout's ``benchmarks/data/``. A build writes where ``--out`` says, or to the
user cache directory, never into the installed package by default.
"""
import json
import os

import numpy as np
import pytest

from fiveup_solver import equity
from fiveup_solver.cli import main
from fiveup_solver.errors import OptionError


def run(capsys, argv):
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


def _package_data():
    return sorted((f, os.path.getmtime(os.path.join(equity.DATA_DIR, f))) for f in os.listdir(equity.DATA_DIR))


def test_the_package_ships_tables_not_samples():
    files = os.listdir(equity.DATA_DIR)
    assert {"equity_2p.npz", "equity_3p.npz", "equity_4p.npz", "ladder_2p.json"} <= set(files)
    assert not [f for f in files if f.startswith("rounds_")]
    for players in (2, 3, 4):
        assert os.path.dirname(equity.samples_path(players)).endswith(os.path.join("benchmarks", "data"))
        assert os.path.isfile(equity.samples_path(players))   # a source checkout holds them


def test_the_shipped_samples_rebuild_the_shipped_table(tmp_path, capsys):
    out = tmp_path / "t.npz"
    # (without the bootstrap's 100 tables, a minute here: the values do not depend on them)
    rc, text, err = run(capsys, ["equity", "build", "--players", "2", "--samples", "--out", str(out),
                                 "--bootstrap", "0"])
    assert rc == 0 and err == "" and f"-> {out}" in text and "bootstrap" not in text
    built, shipped = equity.EquityTable.load(str(out)), equity.load_table(2)
    assert built.rounds == shipped.rounds == 19_700
    assert np.array_equal(built.win, shipped.win)
    assert built.stderr is None and shipped.bootstrap == equity.DEFAULT_BOOTSTRAP[2]
    # a review: the samples' meta says "hint", the bot's name before the rename; the rebuilt
    # table must be labelled as the shipped one is, by the bot's name today
    assert built.bot == shipped.bot == "hint-uniform"
    rc, text, err = run(capsys, ["equity", "--players", "2", "--scores", "0,0", "--table", str(out)])
    assert rc == 0 and "19,700 rounds of hint-uniform self-play" in text


def test_a_build_without_out_writes_to_the_cache_directory(tmp_path, monkeypatch, capsys):
    before = _package_data()
    monkeypatch.setenv("FIVEUP_CACHE_DIR", str(tmp_path / "cache"))
    rc, text, err = run(capsys, ["equity", "build", "--players", "2", "--rounds", "3", "--near-rounds", "0",
                                 "--bot", "greedy", "--quiet"])
    assert rc == 0 and err == ""
    assert sorted(os.listdir(tmp_path / "cache")) == ["equity_2p.npz", "rounds_2p.npz"]
    assert equity.EquityTable.load(str(tmp_path / "cache" / "equity_2p.npz")).rounds == 3
    assert equity.RoundSamples.load(str(tmp_path / "cache" / "rounds_2p.npz")).rounds == 3
    assert _package_data() == before
    # a review: a built table could not be looked up from the command line (it read the shipped one)
    table = str(tmp_path / "cache" / "equity_2p.npz")
    rc, text, err = run(capsys, ["equity", "--players", "2", "--scores", "250,280", "--table", table, "--json"])
    built = equity.EquityTable.load(table)
    assert rc == 0 and json.loads(text)["rounds_sampled"] == 3
    assert json.loads(text)["win"] == [round(p, 6) for p in built.probabilities([250, 280], None)]
    rc, text, err = run(capsys, ["equity", "--players", "2", "--scores", "250,280", "--table", table])
    assert rc == 0 and f"({table}: 3 rounds of greedy self-play)" in text
    # a build gives each probability its standard error (the default bootstrap)
    assert built.bootstrap == 100
    se = built.standard_errors([250, 280], None)
    assert f"side 0: win {100 * built.probabilities([250, 280], None)[0]:5.1f} % +- {100 * se[0]:.1f}\n" in text
    assert "+-: the table's standard error from its sampling (100 bootstrap tables)" in text
    rc, text, err = run(capsys, ["equity", "--players", "4", "--scores", "0,0", "--table", table])
    assert rc == 2 and err == f"error: --table {table} is a 2-player table, not 4\n"
    rc, text, err = run(capsys, ["equity", "build", "--players", "2", "--table", table])
    assert rc == 2 and "--table" in err


def test_the_cache_directory_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.delenv("FIVEUP_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert equity.cache_dir() == os.path.join(str(tmp_path), "fiveup_solver")
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert equity.cache_dir() == os.path.join(os.path.expanduser("~"), ".cache", "fiveup_solver")
    monkeypatch.setenv("FIVEUP_CACHE_DIR", str(tmp_path / "x"))
    assert equity.cache_dir() == str(tmp_path / "x")


@pytest.mark.parametrize("argv,text", [
    (["--out", "table.txt"], "must end in .npz"),
    (["--save-samples", "rounds"], "must end in .npz"),
    (["--samples", "--players", "3", "--out", "{tmp}/a-file/t.npz"], "cannot write"),
    (["--samples", "/nonexistent.npz"], "no such file"),
    # a file that is not saved round samples (here a text file) was a numpy traceback
    (["--samples", "{tmp}/a-file", "--out", "{tmp}/t.npz"], "not a round-samples file"),
    (["--samples", "{tmp}", "--out", "{tmp}/t.npz"], "cannot read round samples"),
])
def test_bad_build_paths_are_one_line(argv, text, tmp_path, capsys):
    (tmp_path / "a-file").write_text("a file, not a directory")
    rc, out, err = run(capsys, ["equity", "build"] + [a.replace("{tmp}", str(tmp_path)) for a in argv])
    assert rc == 2 and out == "" and err.startswith("error: ") and text in err and err.count("\n") == 1


def test_shipped_samples_missing_outside_a_checkout(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(equity, "SAMPLES_DIR", str(tmp_path))
    rc, out, err = run(capsys, ["equity", "build", "--players", "4", "--samples", "--out", str(tmp_path / "t.npz")])
    assert rc == 2 and "source checkout only" in err and err.count("\n") == 1


@pytest.mark.parametrize("argv", [
    ["--rounds", "50", "--out", "{tmp}/folder.npz"],
    ["--rounds", "50", "--out", "{tmp}/a-file/t.npz"],
    ["--rounds", "50", "--out", "{tmp}/t.npz", "--save-samples", "{tmp}/a-file/more/r.npz"],
])
def test_an_unwritable_table_fails_before_the_self_play(argv, tmp_path, capsys, monkeypatch):
    """`--out` / `--save-samples` that cannot be written were found after the self-play."""
    (tmp_path / "a-file").write_text("a file, not a directory")
    (tmp_path / "folder.npz").mkdir()

    def must_not_run(*a, **k):
        raise AssertionError("self-play ran before the output paths were checked")
    monkeypatch.setattr(equity, "collect_samples", must_not_run)
    rc, out, err = run(capsys, ["equity", "build", "--players", "2"]
                       + [a.replace("{tmp}", str(tmp_path)) for a in argv])
    assert rc == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("error: --") and "cannot write" in err


def test_an_out_folder_that_does_not_exist_is_refused(tmp_path, capsys):
    """equity build made the folders of any --out it was given (it created /nonexistent);
    as every other command, a folder the user names must exist (only the default cache
    folder is made)."""
    from fiveup_solver.cli import main
    for option in ("--out", "--save-samples"):
        target = tmp_path / "no" / "such" / "x.npz"
        assert main(["equity", "build", "--players", "2", "--rounds", "1", "--near-rounds", "0",
                     "--bot", "random", "--quiet", option, str(target)]) == 2
        assert "cannot write (No such file or directory)" in capsys.readouterr().err
        assert not (tmp_path / "no").exists()


def test_the_shipped_tables_name_the_bot_they_were_played_by():
    """A review: `fiveup equity` said "rounds of hint self-play": the tables were played by
    the uniform-beliefs bot, named "hint" then and "hint-uniform" since ("hint" is now the
    model-beliefs bot). The tables' own metadata names it, and the name is a bot's."""
    from fiveup_solver.bots import bot_function
    for players in (2, 3, 4):
        table = equity.load_table(players)
        assert table.bot == "hint-uniform" == equity.DEFAULT_BOT
        assert bot_function(table.bot) is not None


def test_a_negative_score_is_said_to_be_read_as_zero(capsys):
    """A review: `fiveup equity --players 4 --scores=-10,0` printed 50 % / 50 % with no word
    that -10 was looked up as 0 (the tables start at 0)."""
    rc, text, err = run(capsys, ["equity", "--players", "4", "--scores=-10,0"])
    assert rc == 0 and "a score below 0 (side 0) was looked up as 0, so these are the chances at 0 raw (0) / 0 raw (0)" in text
    # a later review: -4000 against 0 read "50.0 % +- 0.0", an error the table does not have
    # for a score it does not hold; and --json did not say what was looked up
    rc, text, err = run(capsys, ["equity", "--players", "4", "--scores=-4000,-20", "--starter", "1"])
    assert rc == 0 and "+-" not in text.split("unfinished")[0] and "(side 0 and side 1)" in text
    rc, text, err = run(capsys, ["equity", "--players", "4", "--scores=-40, 25", "--json"])   # (a space: as --bots)
    assert json.loads(text)["looked_up_as"] == [0, 25]
    rc, text, err = run(capsys, ["equity", "--players", "4", "--scores=10,0"])
    assert rc == 0 and "below 0" not in text and "+-" in text
    rc, text, err = run(capsys, ["equity", "--players", "2", "--scores", "0,0", "--starter", "x"])
    assert rc == 2 and err == "error: --starter must be a seat number or 'drawn', not 'x'\n"


def test_a_build_that_would_not_fit_in_memory_is_refused_before_it_plays(capsys):
    """A review: --near-rounds is per anchor (195 with 2 or 4 players, 2,743 with 3), and every
    round is kept until the table is built: 3 players with --near-rounds 1000000 asked for
    2.7 billion rounds (about 300 GB) before saying anything."""
    from fiveup_solver.cli import main
    assert main(["equity", "build", "--players", "3", "--rounds", "10", "--near-rounds", "1000000"]) == 2
    assert capsys.readouterr().err == ("error: 2,743,000,010 sample rounds (10 at 0 : 0 and 1,000,000 at each of "
                                       "2,743 near-target anchors) are over the 10,000,000 a build holds\n")
    from fiveup_solver.equity_build import collect_samples
    from fiveup_solver.errors import OptionError
    with pytest.raises(OptionError, match=r"^19,500,001 sample rounds \(1 at 0 : 0 and 100,000 at each of 195 "):
        collect_samples(2, rounds=1, near_rounds=100_000)          # 1 + 100,000 x 195


def test_standard_errors_in_the_lookup_and_the_bootstrap_option(tmp_path, capsys):
    """A review: `fiveup equity` gave its probabilities without saying how well the table
    knows them. The shipped tables carry a bootstrap's standard errors; a table without
    them says how to add them."""
    rc, text, err = run(capsys, ["equity", "--players", "2", "--scores", "290,290", "--starter", "0", "--json"])
    res = json.loads(text)
    t = equity.load_table(2)
    assert rc == 0 and res["bootstrap"] == t.bootstrap
    assert res["stderr"] == [round(e, 6) for e in t.standard_errors([290, 290], 0)]
    rc, text, err = run(capsys, ["equity", "--players", "2", "--scores", "290,290", "--starter", "0"])
    assert rc == 0 and " % +- " in text.splitlines()[1]
    out = tmp_path / "bare.npz"
    assert run(capsys, ["equity", "build", "--players", "2", "--rounds", "2", "--near-rounds", "0", "--bot",
                        "random", "--quiet", "--bootstrap", "0", "--out", str(out)])[0] == 0
    rc, text, err = run(capsys, ["equity", "--players", "2", "--scores", "0,0", "--table", str(out)])
    assert rc == 0 and "+-" not in text and "--bootstrap N' adds them" in text
    rc, text, err = run(capsys, ["equity", "--players", "2", "--scores", "0,0", "--table", str(out), "--json"])
    assert json.loads(text)["stderr"] is None and json.loads(text)["bootstrap"] == 0
    for value in ("1", "-3", "10001"):
        rc, text, err = run(capsys, ["equity", "build", "--players", "2", "--samples", "--bootstrap", value])
        assert rc == 2 and err == f"error: --bootstrap must be 0 (no standard errors) or 2..10000, not {value}\n"
    rc, text, err = run(capsys, ["equity", "--players", "2", "--scores", "0,0", "--bootstrap", "5"])
    assert rc == 2 and "--bootstrap: an option of 'fiveup equity build'" in err


def test_two_builds_into_one_folder_keep_their_own_samples(tmp_path, capsys):
    """A review: two builds with --out a.npz and --out b.npz in one folder both wrote their
    round samples to rounds_2p.npz there; the second overwrote the first's without a word.
    With --out the samples are named after the table."""
    for name, seed in (("a", "1"), ("b", "2")):
        rc, text, err = run(capsys, ["equity", "build", "--players", "2", "--rounds", "3", "--near-rounds", "0",
                                     "--bot", "greedy", "--bootstrap", "0", "--seed", seed, "--quiet",
                                     "--out", str(tmp_path / f"{name}.npz")])
        assert rc == 0 and err == "" and f"-> {tmp_path / f'{name}.rounds.npz'}" in text
    assert sorted(os.listdir(tmp_path)) == ["a.npz", "a.rounds.npz", "b.npz", "b.rounds.npz"]
    a, b = (equity.RoundSamples.load(str(tmp_path / f"{n}.rounds.npz")) for n in "ab")
    assert (a.seed, b.seed) == (1, 2)


@pytest.mark.parametrize("argv, message", [
    # int() took these as 0,5 and 5,0
    (["--scores", "0_0,5"], "--scores must be raw scores separated by commas, not '0_0,5'"),
    (["--scores", "+5,0"], "--scores must be raw scores separated by commas, not '+5,0'"),
    (["--scores", "0,0", "--starter", "+1"], "--starter must be a seat number or 'drawn', not '+1'"),
    # the API's wording ("or None (drawn)") where the command line's word is 'drawn'
    (["--scores", "0,0", "--starter", "2"], "--starter must be a seat 0..1 or 'drawn', not 2"),
])
def test_equity_lookups_read_their_options_strictly(argv, message, capsys):
    rc, text, err = run(capsys, ["equity", "--players", "2", *argv])
    assert rc == 2 and err == f"error: {message}\n"


def test_a_file_that_is_not_a_npz_is_named_so(tmp_path, capsys):
    """A review: a text file given as a table got numpy's message about pickled data, cut off
    mid-word at 120 characters."""
    text_file = tmp_path / "notes.md"
    text_file.write_text("# not a table\n")
    rc, _, err = run(capsys, ["equity", "--players", "2", "--scores", "0,0", "--table", str(text_file)])
    assert rc == 2 and err == f"error: {text_file}: not an equity table: not a .npz file (a zip archive of arrays)\n"
    with pytest.raises(OptionError, match=r"not a round-samples file .*: not a \.npz file \(a zip archive of arrays\)$"):
        equity.RoundSamples.load(str(text_file))
