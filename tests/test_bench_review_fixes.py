"""The fixes of a review of how ``fiveup bench`` and benchmarks/ measure speed: what can be
checked without timing anything (the warnings, the lines of the output, the order of
warm-up and timer, one-line errors)."""
from __future__ import annotations

import json

import pytest

from fiveup_solver import bench
from fiveup_solver.cli import main


def run(capsys, argv):
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


# ---------------------------------------------------------------- the playout bench (H1)

def test_playout_bench_warns_on_a_single_reference_round(capsys):
    rc, out, err = run(capsys, ["bench", "--rounds", "100", "--reference-rounds", "1"])
    assert rc == 0 and err == ""
    assert "warning: the reference's 1 round took" in out and "give --reference-rounds" in out
    assert "warning: the core's 100 rounds took" in out and "give --rounds" in out


def test_playout_bench_output_has_repetitions_range_and_load(capsys):
    rc, out, err = run(capsys, ["bench", "--rounds", "300", "--reference-rounds", "2"])
    assert rc == 0
    assert "median of 5 alternated repetitions after a warm-up" in out.splitlines()[0]
    assert "ratio range over the 5 repetitions: 2p " in out and ", 3p " in out and ", 4p " in out
    assert "load average " in out and " CPUs" in out
    rc, out, err = run(capsys, ["bench", "--json", "--rounds", "300", "--reference-rounds", "2"])
    r = json.loads(out)
    assert r["repetitions"] == 5 and r["cpu_count"] and len(r["load_average"]) == 3
    assert any("reference" in w for w in r["warnings"])


def test_playout_bench_warns_on_a_wide_spread(monkeypatch):
    times = iter([0.1, 0.1, 0.1, 0.3] * 100)     # core, reference alternately: ratios 1x and 3x
    monkeypatch.setattr(bench, "_core_seconds", lambda *a: next(times))
    monkeypatch.setattr(bench, "_reference_seconds", lambda *a: next(times))
    r = bench.run_playout_bench(rounds=1000, reference_rounds=1000, repetitions=4)
    assert any(w.startswith("wide spread of the ratio") for w in r["warnings"])
    assert not any("stable time" in w for w in r["warnings"])     # 0.1 s timings: long enough


def test_playout_bench_warms_up_and_alternates(monkeypatch):
    calls = []
    real_core, real_ref = bench._core_seconds, bench._reference_seconds
    monkeypatch.setattr(bench._core, "random_playouts",
                        lambda *a, _f=bench._core.random_playouts: (calls.append("untimed core"), _f(*a))[1])
    monkeypatch.setattr(bench, "_core_seconds", lambda *a: (calls.append("core"), real_core(*a))[1])
    monkeypatch.setattr(bench, "_reference_seconds", lambda *a: (calls.append("ref"), real_ref(*a))[1])
    bench.run_playout_bench(rounds=50, reference_rounds=1, repetitions=4)
    timed = [c for c in calls if c != "untimed core"]
    first_timed = calls.index("core", calls.index("untimed core"))
    # the warm-up runs every player count of both sides before the first timing
    assert calls[:first_timed].count("untimed core") == 3 and calls[:first_timed].count("ref") == 3
    # then per player count: core first, then reference first, alternately
    assert timed[3:11] == ["core", "ref", "ref", "core", "core", "ref", "ref", "core"]


# ---------------------------------------------------------------- lazy tables before the timer (H3)

class _Obs:
    def __init__(self, players):
        self.players = players


class _Hint:
    seconds, samples, exact_worlds = 0.001, 1, 0


def _recording_hinter(events):
    class FakeHinter:
        def __init__(self, *a, **k):
            pass

        def hint(self, obs, **k):
            events.append(("hint", obs.players))
            return _Hint()
    return FakeHinter


def test_run_hint_suite_loads_every_table_and_warms_each_player_count(monkeypatch):
    events = []
    monkeypatch.setattr(bench, "search_values", lambda n: events.append(("table", n)))
    monkeypatch.setattr(bench, "Hinter", _recording_hinter(events))
    observations = [_Obs(2)] * 5 + [_Obs(3), _Obs(4), _Obs(3)]
    r = bench.run_hint_suite(observations, warmup=3)
    assert r["positions"] == len(observations)
    untimed = events[: len(events) - len(observations)]
    assert sorted(e for e in untimed if e[0] == "table") == [("table", 2), ("table", 3), ("table", 4)]
    assert {n for kind, n in untimed if kind == "hint"} == {2, 3, 4}
    assert all(kind == "hint" for kind, _ in events[len(untimed):])


def test_beliefs_benchmark_warms_up_and_alternates(monkeypatch):
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    try:
        import test_bench_beliefs as tb
    finally:
        sys.path.pop(0)
    events = []
    from fiveup_solver import bench
    monkeypatch.setattr(bench, "warm_tables", lambda ps: events.append(("table", sorted(set(ps)))))

    class H:
        seconds, belief = 0.001, None

    class FakeHinter:
        def __init__(self, *a, **k):
            pass

        def hint(self, obs, beliefs, **k):
            events.append((beliefs, obs.players))
            return H()
    monkeypatch.setattr(tb, "Hinter", FakeHinter)
    with pytest.raises(Exception):      # no position weighed (all faked): its statistics fail; the order is the test
        tb.measure([_Obs(2), _Obs(2), _Obs(3), _Obs(3)])
    assert events[0] == ("table", [2, 3])
    warm = events[1:5]
    assert {p for _, p in warm} == {2, 3} and {b for b, _ in warm} == {"uniform", "model"}
    assert [b for b, _ in events[5:9]] == ["uniform", "model", "model", "uniform"]


# ---------------------------------------------------------------- both currencies against one (H2)

def test_both_currencies_alternate_per_position(monkeypatch):
    events = []

    class H:
        seconds, samples, exact_worlds = 0.001, 4, 1

        def __init__(self, both):
            self.nodes = 13 if both else 10

    class FakeHinter:
        def __init__(self, *a, **k):
            pass

        def hint(self, obs, both, **k):
            events.append((obs.players, both))
            return H(both)
    monkeypatch.setattr(bench, "Hinter", FakeHinter)
    monkeypatch.setattr(bench, "search_values", lambda n: None)
    r = bench.both_currencies_paired([_Obs(2), _Obs(3)], reps=3)
    assert events[:4] == [(2, False), (2, True), (3, False), (3, True)]          # the warm-up, untimed
    assert [b for _, b in events[4:10]] == [False, True, True, False, False, True]
    assert [p for p, _ in events[4:]] == [2] * 6 + [3] * 6
    assert r["node_ratio"] == 1.3 and r["one"]["worlds"] == r["both"]["worlds"] == 8
    assert r["ratio_paired"] == {"median": 1.0, "min": 1.0, "max": 1.0} and r["reps"] == 3


# ---------------------------------------------------------------- FIVEUP_REFERENCE (M6)

@pytest.mark.parametrize("content, message", [
    (None, "no such file"),
    ("x = (\n", "does not import (SyntaxError"),
    ("raise RuntimeError('boom')\n", "does not import (RuntimeError"),
    ("pass\n", "not the pure-Python reference (no random_round, RoundState, ALL_TILES, ReferenceRuleError)"),
])
def test_a_bad_fiveup_reference_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys, content, message):
    path = tmp_path / "ref.py"
    if content is not None:
        path.write_text(content)
    monkeypatch.setenv("FIVEUP_REFERENCE", str(path))
    rc, out, err = run(capsys, ["bench", "--rounds", "10", "--reference-rounds", "1"])
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"error: FIVEUP_REFERENCE={path}: ") and message in err


def test_fiveup_reference_naming_a_folder_or_not_python(tmp_path, monkeypatch, capsys):
    (tmp_path / "data.txt").write_text("root:x:0:0\n")
    for value, message in ((tmp_path, "not a file"), (tmp_path / "data.txt", "does not import")):
        monkeypatch.setenv("FIVEUP_REFERENCE", str(value))
        rc, out, err = run(capsys, ["bench", "--rounds", "10", "--reference-rounds", "1"])
        assert rc == 2 and err.count("\n") == 1 and f"FIVEUP_REFERENCE={value}: {message}" in err


def test_fiveup_reference_pointing_at_the_reference_works(monkeypatch):
    from pathlib import Path
    monkeypatch.setenv("FIVEUP_REFERENCE", str(Path(__file__).resolve().parent / "reference.py"))
    assert hasattr(bench.load_reference(), "random_round")
