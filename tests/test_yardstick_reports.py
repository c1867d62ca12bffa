"""The yardstick reports' "mean ± 95 %" cells: benchmarks/exact_yardstick.py's ``_mean_cell``
(the normal 95 % interval of the mean from 30 values on; below 30 the mean and its count,
"mean (n = k)", with no interval; "-" for none) and benchmarks/alphamu_yardstick.py's ``report``,
whose loss columns use it, on tiny journals written here with hand-written exact values."""
from __future__ import annotations

import json
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))   # as the benchmark scripts import each other

import alphamu_yardstick  # noqa: E402
import exact_yardstick  # noqa: E402

# 1.96 * sqrt(s² / n) for 15 values of 2 and 15 of 0: mean 1, s² = 30 * 1² / 29, so
# s² / n = 1 / 29 and the half-width is 1.96 / sqrt(29) = 0.36396...
HALF_WIDTH_15_TWOS_15_ZEROS = 1.96 / 29 ** 0.5


def test_thirty_values_or_more_give_the_normal_half_width():
    assert abs(HALF_WIDTH_15_TWOS_15_ZEROS - 0.36396) < 1e-5
    values = [2.0] * 15 + [0.0] * 15
    assert exact_yardstick._mean_cell(values, 2) == "1.00 ± 0.36"
    assert exact_yardstick._mean_cell(values, 3) == "1.000 ± 0.364"
    # 36 zeros and 4 tens: mean 1, s² = (36 * 1 + 4 * 81) / 39 = 360 / 39, s² / 40 = 9 / 39,
    # half-width 1.96 * sqrt(9 / 39) = 0.94155...
    assert exact_yardstick._mean_cell([0.0] * 36 + [10.0] * 4, 2) == "1.00 ± 0.94"
    assert exact_yardstick._mean_cell([0.0] * 36 + [10.0] * 4, 1) == "1.0 ± 0.9"
    # all equal: a zero-width interval, but over 30 positions (it says none of them lost)
    assert exact_yardstick._mean_cell([0.0] * 30, 2) == "0.00 ± 0.00"


def test_fewer_than_thirty_values_give_the_mean_and_the_count_with_no_interval():
    assert exact_yardstick._mean_cell([0.0, 0.0], 2) == "0.00 (n = 2)"     # was "0.00 ± 0.00"
    assert exact_yardstick._mean_cell([0.0, 1.0], 2) == "0.50 (n = 2)"
    assert exact_yardstick._mean_cell([0.0, 1.0], 3) == "0.500 (n = 2)"
    assert exact_yardstick._mean_cell([3.0], 1) == "3.0 (n = 1)"
    # the boundary: 29 values are below it, 30 are not
    cell = exact_yardstick._mean_cell([2.0] * 15 + [0.0] * 14, 2)
    assert cell == f"{30 / 29:.2f} (n = 29)" == "1.03 (n = 29)" and "±" not in cell
    assert "±" in exact_yardstick._mean_cell([2.0] * 15 + [0.0] * 15, 2)


def test_no_values_give_a_dash():
    assert exact_yardstick._mean_cell([], 2) == "-"
    assert exact_yardstick._mean_cell([], 3) == "-"


def test_the_exact_yardstick_loss_lines_use_the_cell():
    """``_loss_lines`` (the --merge and --report-defence summaries): fewer than 30 rows read
    "mean (n = k)" in both currencies."""
    rows = [{"picks": {name: 1 for name in list(exact_yardstick.METHODS) + list(exact_yardstick.BASELINES)}}
            for _ in range(2)]
    exact = {"win": {"1": 0.40, "2": 0.50}, "points": {"1": 1.0, "2": 4.0}}
    lines = exact_yardstick._loss_lines(rows, lambda r: exact)
    assert lines[0] == "  pimc: 10.00 (n = 2) win-%, 3.0 (n = 2) points, 2/2"


# --- alphamu_yardstick.report on a tiny journal pair --------------------------------------

def _tables(text: str) -> dict:
    """The report's markdown tables by opponent: {"greedy": rows, "best-defence": rows}, each
    row a list of cells, the header first (the |---| line left out)."""
    out, current = {}, None
    for line in text.split("\n"):
        if line.startswith("Against "):
            current = line[len("Against "):].rstrip(":")
            out[current] = []
        elif current and line.startswith("| "):
            out[current].append([c.strip() for c in line.strip().strip("|").split("|")])
    return out


def _write(path: Path, rows: list) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return str(path)


def _journals(tmp_path):
    """Three positions: two at boneyard 0, one at 2 (refused against best defence). Moves
    are canonical numbers, the exact values the yardstick's (win probability, points)."""
    yard = [
        {"index": 1, "exact": [
            {"opponent": "greedy", "win": {"10": 0.60, "11": 0.55}, "points": {"10": 5.0, "11": 2.0}},
            {"opponent": "best-defence", "win": {"10": 0.50, "11": 0.40}, "points": {"10": 3.0, "11": 1.0}}],
         "picks": {"pimc": 11}},
        {"index": 2, "exact": [
            {"opponent": "greedy", "win": {"20": 0.70, "21": 0.70, "22": 0.65},
             "points": {"20": 8.0, "21": 9.0, "22": 4.0}},
            {"opponent": "best-defence", "win": {"20": 0.50, "21": 0.45, "22": 0.50},
             "points": {"20": 2.0, "21": 2.0, "22": 2.0}}],
         "picks": {"pimc": 20}},
        {"index": 3, "exact": [
            {"opponent": "greedy", "win": {"30": 0.30, "31": 0.20}, "points": {"30": 1.0, "31": -1.0}},
            {"opponent": "best-defence", "refused": "node limit"}],
         "picks": {"pimc": 30}},
    ]
    picks = {1: {"pimc": 11, "alphamu-d1": 10}, 2: {"pimc": 20, "alphamu-d1": 22},
             3: {"pimc": 30, "alphamu-d1": 31}}
    bone = {1: 0, 2: 0, 3: 2}
    runs = [{"index": i, "bone": bone[i], "phase": "0" if bone[i] == 0 else "1-2", "picks": picks[i],
             "method_seconds": {"pimc": 0.01, "alphamu-d1": 0.02}, "search": {"alphamu-d1": {"depth": 1}}}
            for i in (1, 2, 3)]
    return _write(tmp_path / "alphamu.jsonl", runs), _write(tmp_path / "yardstick.jsonl", yard)


def test_alphamu_report_gives_the_means_with_their_count_on_few_positions(tmp_path):
    path, yard = _journals(tmp_path)
    tables = _tables(alphamu_yardstick.report(path, yard, markdown=True))
    header = ["phase (boneyard)", "solved", "method", "differs", "win-% loss mean ± 95 %", "p95",
              "points loss mean ± 95 %", "p95"]
    assert tables["greedy"][0] == header and tables["best-defence"][0] == header
    greedy = {(r[0], r[2]): r for r in tables["greedy"][1:]}
    # against greedy, loss in win-% = 100 * (best win - pick's win), in points best - pick's:
    #   position 1: pimc 11: 100 * (0.60 - 0.55) = 5, 5 - 2 = 3;  alphamu 10 (the best): 0, 0
    #   position 2: pimc 20: 0 (0.70 is the best win), 9 - 8 = 1;  alphamu 22: 5, 9 - 4 = 5
    #   position 3: pimc 30 (the best): 0, 0;                      alphamu 31: 10, 1 - (-1) = 2
    assert greedy[("0", "pimc")] == ["0", "2", "pimc", "1/2", "2.500 (n = 2)", "5.00", "2.00 (n = 2)", "3.0"]
    assert greedy[("0", "alphamu-d1")] == ["0", "2", "alphamu-d1", "1/2", "2.500 (n = 2)", "5.00",
                                           "2.50 (n = 2)", "5.0"]
    assert greedy[("1-2", "pimc")] == ["1-2", "1", "pimc", "0/1", "0.000 (n = 1)", "0.00", "0.00 (n = 1)", "0.0"]
    assert greedy[("1-2", "alphamu-d1")] == ["1-2", "1", "alphamu-d1", "1/1", "10.000 (n = 1)", "10.00",
                                             "2.00 (n = 1)", "2.0"]
    assert greedy[("3-4", "pimc")][1:] == ["0", "pimc", "-", "-", "-", "-", "-"]
    # all three: pimc (5 + 0 + 0) / 3, (3 + 1 + 0) / 3; alphamu (0 + 5 + 10) / 3, (0 + 5 + 2) / 3
    assert greedy[("all", "pimc")][3:] == ["1/3", "1.667 (n = 3)", "5.00", "1.33 (n = 3)", "3.0"]
    assert greedy[("all", "alphamu-d1")][3:] == ["2/3", "5.000 (n = 3)", "10.00", "2.33 (n = 3)", "5.0"]
    # against best defence position 3 is refused: position 1 pimc 100 * (0.50 - 0.40) = 10,
    # 3 - 1 = 2; position 2 every pick at the best (alphamu's 22 ties 20 at 0.50)
    defence = {(r[0], r[2]): r for r in tables["best-defence"][1:]}
    assert defence[("0", "pimc")][1:] == ["2", "pimc", "1/2", "5.000 (n = 2)", "10.00", "1.00 (n = 2)", "2.0"]
    assert defence[("0", "alphamu-d1")][1:] == ["2", "alphamu-d1", "0/2", "0.000 (n = 2)", "0.00",
                                                "0.00 (n = 2)", "0.0"]
    assert defence[("1-2", "pimc")][1:] == ["0", "pimc", "-", "-", "-", "-", "-"]
    assert defence[("all", "pimc")][1:] == defence[("0", "pimc")][1:]


def test_alphamu_report_gives_the_normal_interval_from_thirty_positions(tmp_path):
    """30 positions at boneyard 0: PIMC picks the worse move (win 0.02 and 4 points below the
    best) on 15 of them, alphamu never. PIMC's losses are 15 twos and 15 zeros in win-%, so
    1.000 ± 1.96 / sqrt(29) = 0.364; in points 15 fours and 15 zeros, 2.00 ± 0.73."""
    yard, runs = [], []
    for i in range(30):
        exact = {"win": {"1": 0.52, "2": 0.50}, "points": {"1": 6.0, "2": 2.0}}
        yard.append({"index": i, "exact": [dict(exact, opponent="greedy"), dict(exact, opponent="best-defence")],
                     "picks": {"pimc": 2 if i % 2 else 1}})
        runs.append({"index": i, "bone": 0, "phase": "0", "picks": {"pimc": 2 if i % 2 else 1, "alphamu-d1": 1},
                     "method_seconds": {"pimc": 0.01, "alphamu-d1": 0.02}, "search": {}})
    text = alphamu_yardstick.report(_write(tmp_path / "a.jsonl", runs), _write(tmp_path / "y.jsonl", yard),
                                    markdown=True)
    for opponent in ("greedy", "best-defence"):
        rows = {(r[0], r[2]): r for r in _tables(text)[opponent][1:]}
        assert rows[("0", "pimc")][3:] == ["15/30", "1.000 ± 0.364", "2.00", "2.00 ± 0.73", "4.0"]
        assert rows[("0", "alphamu-d1")][3:] == ["0/30", "0.000 ± 0.000", "0.00", "0.00 ± 0.00", "0.0"]
        assert rows[("all", "pimc")][3:] == rows[("0", "pimc")][3:]
    assert f"{HALF_WIDTH_15_TWOS_15_ZEROS:.3f}" == "0.364" and f"{2 * HALF_WIDTH_15_TWOS_15_ZEROS:.2f}" == "0.73"
    # paired by phase, PIMC's loss - alphamu's: the same 15 twos and 15 zeros (alphamu loses 0),
    # so the same mean and half-width; printed with 3 decimals in both currencies
    assert ("  against greedy, boneyard 0, pimc - alphamu-d1 (30 positions): win-% +1.000 [+0.636, +1.364], "
            "points +2.000 [+1.272, +2.728]") in text.split("\n")
