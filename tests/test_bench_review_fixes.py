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


# ---------------------------------------------------------------- the pruning comparison (M1)

ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent


def _benchmark_module(name):
    import importlib
    import sys
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.pop(0)


def test_the_pruning_benchmark_runs_where_pruning_changes_the_nodes():
    """It ran on openings_2p and midround, where pruning searches the very same nodes, and
    was named "saves nodes" (near_target: more nodes at the median, fewer at the p95)."""
    tb = _benchmark_module("test_bench_solver")
    tests = {name: f for name, f in vars(tb).items() if name.startswith("test_") and "pruning" in name}
    assert len(tests) == 1
    (name, test), = tests.items()
    assert "saves" not in name and "near_target" in name
    suites = [mark.args[1] for mark in test.pytestmark if mark.name == "parametrize"][0]
    assert list(suites) == ["near_target"]


def _small_solver_suites(folder, positions=2):
    for name in bench.SOLVER_SUITES:
        entries = json.loads((ROOT / "benchmarks" / "data" / f"{name}.json").read_text())[:positions]
        (folder / f"{name}.json").write_text(json.dumps(entries))


def test_solver_rows_of_the_same_work_say_so(tmp_path):
    """value_no_pruning searched value's very nodes on 3 suites of 4 and was printed as a
    timing of its own (0.131 against 0.111 ms: noise); near_target's first two positions
    have other nodes without pruning (248 against 246, 1,418 against 1,362)."""
    _small_solver_suites(tmp_path)
    report = bench.solver_report(tmp_path)
    for name in ("openings_2p", "openings_4p", "midround"):
        assert report[name]["value_no_pruning"]["same_nodes_as"] == "value"
    assert "same_nodes_as" not in report["near_target"]["value_no_pruning"]
    for rows in report.values():
        assert "same_nodes_as" not in rows["value_win"] and "same_nodes_as" not in rows["value"]


# ---------------------------------------------------------------- --solver: passes, spread, load, Python (M5)

def _fake_solver_suite(calls, medians=None):
    def run(games, mode="value", each=False, **kwargs):
        calls.append((len(games), mode, tuple(sorted(kwargs.items()))))
        median = next(medians) if medians is not None else 1.0
        out = {"positions": len(games), "ms": {"median": median, "p95": 2.0, "max": 3.0, "mean": 1.5},
               "nodes": {"median": 10, "p95": 20, "max": 30, "mean": 15}, "nodes_per_s": 1000 * len(calls),
               "values": [0] * len(games), "table_mb": 16.0, "max_rss_mb": 70.0}
        if each:
            out["nodes_each"] = [len(calls)] * len(games)       # (no two timings alike)
        return out
    return run


def test_solver_report_times_the_value_row_three_times_and_alternates(tmp_path, monkeypatch):
    _small_solver_suites(tmp_path, positions=1)
    calls, steps = [], []
    monkeypatch.setattr(bench, "run_solver_suite", _fake_solver_suite(calls))
    report = bench.solver_report(tmp_path, on_step=lambda label, k, n: steps.append((label, k, n)))
    rows = [(name, label) for name, r in report.items() for label in r]
    # one step per row, before its first timing (the progress line), in the report's order
    assert steps == [(f"{name} {label}", k, len(rows)) for k, (name, label) in enumerate(rows)]
    for name, r in report.items():
        assert r["value"]["passes"] == 3 and all(row["passes"] == 1 for label, row in r.items() if label != "value")
    assert len(calls) == len(rows) + 2 * len(report)
    # a suite of three rows: value, value_win, value again in the middle, value_no_pruning, value at the end
    assert [mode_of(c) for c in calls[:5]] == ["value", "value_win", "value", "value_no_pruning", "value"]
    calls.clear()
    report = bench.solver_report(tmp_path, repetitions=2)
    assert all(row["passes"] == (3 if label == "value" else 2) for r in report.values() for label, row in r.items())
    assert [mode_of(c) for c in calls[:7]] == ["value", "value_win", "value_no_pruning", "value",
                                              "value_no_pruning", "value_win", "value"]
    with pytest.raises(bench.OptionError):
        bench.solver_report(tmp_path, repetitions=0)


def mode_of(call):
    _, mode, kwargs = call
    kwargs = dict(kwargs)
    if "objective" in kwargs:
        return "value_win"
    if kwargs.get("target_pruning") is False:
        return "value_no_pruning"
    return "value" if mode == "value" and not kwargs else str(kwargs)


def test_solver_rows_are_medians_with_a_range_and_wide_spreads_warn(tmp_path, monkeypatch):
    _small_solver_suites(tmp_path, positions=1)
    medians = iter([1.0, 5.0, 2.0, 9.0, 3.0] + [1.0] * 200)      # openings_2p: value 1, 2, 3 ms
    monkeypatch.setattr(bench, "run_solver_suite", _fake_solver_suite([], medians))
    r = bench.solver_bench(tmp_path)
    value = r["openings_2p"]["value"]
    assert value["ms"]["median"] == 2.0 and value["ms_median_range"] == [1.0, 3.0] and value["passes"] == 3
    assert r["run"]["repetitions"] == 1 and r["run"]["value_passes"] == 3
    assert r["run"]["cpu_count"] and (r["run"]["load_average"] is None or len(r["run"]["load_average"]) == 3)
    assert r["against_python"] is None
    (w,) = r["run"]["warnings"]
    assert w.startswith("wide spread of the median ms over the passes (openings_2p value 1.000-3.000,")
    assert "openings_4p" not in w          # 1 ms every time: no spread


def test_bench_solver_prints_the_range_the_load_and_the_python_ratio(tmp_path, capsys):
    _small_solver_suites(tmp_path, positions=3)
    rc, out, err = run(capsys, ["bench", "--solver", str(tmp_path), "--python", "--quiet"])
    assert rc == 0 and err == ""
    lines = out.splitlines()
    assert "its range" in lines[0]
    value = next(line for line in lines if line.startswith("openings_4p  value "))
    assert len(value.split()) == 12 and "-" in value.split()[3]          # median, then its range
    assert any(line.startswith("openings_2p  value_no_pruning= ") for line in lines)
    assert any(line.startswith("=: the same nodes as value at every position") for line in lines)
    assert any(line.startswith("load average ") and line.endswith(" CPUs") for line in lines)
    python = next(line for line in lines if "against the pure-Python alpha-beta" in line)
    assert "values identical" in python and "3 alternated passes" in python and python.endswith("x")
    rc, out, err = run(capsys, ["bench", "--solver", str(tmp_path), "--json", "--repetitions", "2", "--python"])
    r = json.loads(out)
    assert r["run"]["repetitions"] == 2 and r["openings_2p"]["value_win"]["passes"] == 2
    a = r["against_python"]
    assert a["values_identical"] and a["positions"] + a["skipped"] == 3 and a["passes"] == 3
    assert a["ratio"]["min"] <= a["ratio"]["median"] <= a["ratio"]["max"] and a["ratio"]["min"] > 1


@pytest.mark.parametrize("argv, message", [
    (["bench", "--python"], "--python: an option of --solver (the solver against the pure-Python alpha-beta), "
                            "not of the playout bench"),
    (["bench", "--hint", "benchmarks/data", "--python"], "--python: an option of --solver"),
    (["bench", "--hint", "benchmarks/data", "--repetitions", "2"],
     "--repetitions: an option of the playout bench and of --solver, not of --hint"),
    (["bench", "--repetitions", "0"], "--repetitions must be 1..100, not 0"),
    (["bench", "--solver", "benchmarks/data", "--repetitions", "101"], "--repetitions must be 1..100, not 101"),
])
def test_bad_bench_repetitions_or_python_is_one_line(capsys, argv, message):
    rc, out, err = run(capsys, argv)
    assert rc == 2 and out == "" and err.count("\n") == 1 and err.startswith(f"error: {message}")


def test_playout_bench_takes_repetitions(capsys):
    rc, out, err = run(capsys, ["bench", "--json", "--rounds", "100", "--reference-rounds", "1", "--repetitions", "2"])
    assert rc == 0 and json.loads(out)["repetitions"] == 2


def test_solver_python_needs_the_alpha_beta_next_to_the_reference(tmp_path, monkeypatch, capsys):
    """FIVEUP_REFERENCE names a reference without reference_alphabeta.py beside it: one line."""
    (tmp_path / "reference.py").write_text((ROOT / "tests" / "reference.py").read_text())
    monkeypatch.setenv("FIVEUP_REFERENCE", str(tmp_path / "reference.py"))
    rc, out, err = run(capsys, ["bench", "--solver", str(ROOT / "benchmarks" / "data"), "--python", "--quiet"])
    assert rc == 2 and out == "" and err.count("\n") == 1 and "the pure-Python alpha-beta" in err


# ---------------------------------------------------------------- the rejection baseline (M3) and --hint's warnings

def test_rejection_sampling_counts_deals_and_does_the_same_work_each_run():
    suite = bench.load_hint_suite(ROOT / "benchmarks" / "data" / "hint_positions.json")
    early = [o for o, phase in suite if phase == "early"][:3]
    a = bench.rejection_deals_per_s(early, deals=5)
    b = bench.rejection_deals_per_s(early, deals=5)
    assert a["accepted"] == b["accepted"] == 15 and a["capped"] == 0
    assert a["acceptance"] == b["acceptance"] > 0       # the same tries: one seed, a fixed count
    assert a["seconds"] > 0 and a["deals_per_position"] == 5


def test_the_rejection_benchmark_reports_both_samplers_and_their_ratio():
    tb = _benchmark_module("test_bench_hint")

    class Bench:
        extra_info = {}

        def pedantic(self, f, args=(), kwargs=None, **k):
            self.call = (args, kwargs or {})
            return f(*args, **(kwargs or {}))
    b = Bench()
    tb.test_sampler_rejection_python(b)
    assert b.call[1].get("deals")                       # count-based, not time-boxed
    info = b.extra_info
    assert info["exact_deals_per_s"] > info["rejection_deals_per_s"] > 0
    assert info["ratio_exact_over_rejection"] == round(info["exact_deals_per_s"] / info["rejection_deals_per_s"], 1)


def test_sampler_comparison_warms_up_and_alternates(monkeypatch):
    events = []

    class Counter:
        def bench(self, deals, seed):
            events.append(("exact", deals))

    class FakeSampler:
        def __init__(self, obs):
            self.counter = Counter()

    def rejection(observations, seed=1, reference=None, deals=None, **k):
        events.append(("rejection", deals))
        return {"deals_per_s": 10.0, "acceptance": 0.5, "capped": 0, "seconds": 0.2}
    monkeypatch.setattr(bench, "DealSampler", FakeSampler)
    monkeypatch.setattr(bench, "rejection_deals_per_s", rejection)
    r = bench.sampler_against_rejection([_Obs(2), _Obs(2)], deals=500, rejection_deals=7, repetitions=3,
                                        reference=object())
    assert events[:3] == [("exact", 500), ("exact", 500), ("rejection", 1)]       # the warm-up
    sides = [e[0] for e in events[3:] if e[0] == "rejection" or e == ("exact", 500)]
    assert sides == ["exact", "exact", "rejection", "rejection", "exact", "exact", "exact", "exact", "rejection"]
    assert r["repetitions"] == 3 and r["rejection"]["deals"] == 7 and len(r["exact"]["seconds"]) == 3
    assert bench.sampler_against_rejection([]) is None


def test_hint_warnings_for_short_timings_and_wide_spreads():
    report = {"sampler_comparison": {
        "positions": 2, "repetitions": 3, "ratio": {"median": 600.0, "min": 300.0, "max": 700.0},
        "exact": {"deals": 20000, "seconds": [0.01, 0.012, 0.011]},
        "rejection": {"deals": 100, "seconds": [0.4, 0.5, 0.45]}},
        "both_currencies_repeat_spread": {"pimc": 0.1, "alphamu": 0.45}, "both_currencies_reps": 2}
    w = bench._hint_warnings(report)
    assert len(w) == 3
    assert w[0].startswith("the exact sampler's 20,000 deals a position on 2 early positions took 11.0 ms a timing")
    assert w[1].startswith("wide spread of the sampler ratio over the 3 repetitions (300-700x")
    assert w[2].startswith("the same hint timed 2 times differed by 45 % (alphamu) at the median")
    report["sampler_comparison"]["ratio"] = {"median": 600.0, "min": 550.0, "max": 650.0}
    report["sampler_comparison"]["exact"]["seconds"] = [0.1] * 3
    report["both_currencies_repeat_spread"] = {"pimc": 0.1}
    assert bench._hint_warnings(report) == []


def test_bench_hint_prints_the_load_the_warnings_and_the_ratio_with_its_range(monkeypatch, capsys, tmp_path):
    (tmp_path / "hint_positions.json").write_text("[]")
    latency = {"positions": 1, "ms": {"median": 1.0, "p95": 2.0, "max": 3.0}, "worlds": 48, "exact_worlds": 48,
               "max_rss_mb": 70.0}
    report = {"positions": 1, "latency": {"pimc": latency}, "sampler": {"deals_per_s": 2_000_000, "build_ms_mean": 0.5},
              "sampler_comparison": {"positions": 10, "repetitions": 3, "ratio": {"median": 700.0, "min": 600.0,
                                                                                  "max": 800.0},
                                     "exact": {"deals": 20000, "deals_per_s": 1_900_000, "seconds": [0.1] * 3},
                                     "rejection": {"deals": 100, "deals_per_s": 2714.3, "acceptance": 0.1,
                                                   "seconds": [0.4] * 3}},
              "load_average": [1.0, 2.0, 3.0], "cpu_count": 2, "warnings": ["the machine was busy"]}
    monkeypatch.setattr(bench, "hint_report", lambda path, on_step=None: report)
    rc, out, err = run(capsys, ["bench", "--hint", str(tmp_path), "--quiet"])
    lines = out.splitlines()
    assert rc == 0 and "load average 1.00 2.00 3.00 on 2 CPUs" in lines and "warning: the machine was busy" in lines
    assert lines[-1].startswith("10 early positions, 3 alternated repetitions")
    assert lines[-1].endswith("pure-Python rejection 2,714 deals/s (acceptance 0.100): 700x, range 600-800x")


def test_both_currencies_report_how_much_the_same_hint_moved(monkeypatch):
    times = iter([0.010, 0.020, 0.030, 0.010, 0.020, 0.030])

    class H:
        samples, exact_worlds, nodes = 4, 1, 10

        def __init__(self):
            self.seconds = next(times)

    class FakeHinter:
        def __init__(self, *a, **k):
            pass

        def hint(self, obs, both, **k):
            return H()
    monkeypatch.setattr(bench, "Hinter", FakeHinter)
    monkeypatch.setattr(bench, "search_values", lambda n: None)
    r = bench.both_currencies_paired([_Obs(2)], reps=2)
    # the warm-up takes 10 and 20 ms; then one 30, both 10 ms; both 20, one 30 ms (reversed):
    # one moved 0 %, both 100 %
    assert r["repeat_spread"] == 0.5
