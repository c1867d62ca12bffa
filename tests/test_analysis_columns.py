"""The analysis tables are data: SEAT_COLUMNS and DECISION_COLUMNS drive the text table,
the HTML report (from its template) and name the JSON keys they read."""
from __future__ import annotations

import re

import pytest

from fiveup_solver import analysis
from fiveup_solver.analysis import (DECISION_COLUMNS, SEAT_COLUMNS, Analysis, AnalysisBudget, Column, Decision,
                                    SeatSummary)
from fiveup_solver.selfplay import play_game


def _analysis(decisions=(), names=("Ann", "greedy")):
    seats = {0: SeatSummary(0, 0, decisions=10, loss_win=12.5, loss_win_mean=1.25, loss_points=33.0,
                            luck_win=2.5, luck_win_stderr=1.2, luck_win_net=-3.2, luck_win_net_stderr=4.0,
                            result=100.0, name="Ann"),
             1: SeatSummary(1, 1, decisions=9, loss_win=2.0, loss_win_mean=0.222, loss_points=-4.0, accuracy=88.84,
                            luck_win_stderr=0.5, luck_win_net=4.0, luck_win_net_stderr=4.0, result=0.0,
                            luck_adjusted=-4.0, luck_adjusted_stderr=4.0,
                            marks={"inaccuracy": 2, "mistake": 1, "blunder": 0}, name="greedy")}
    return Analysis(2, seats, list(decisions), [], AnalysisBudget(), 5, None, 0, 1.0, names)


def test_every_column_reads_a_json_key():
    seat = SeatSummary(0, 0).to_dict()
    decision = Decision(0, 1, 0, "6-6", False, best="6-6", loss_win=0.0, stderr_win=0.0, loss_points=0.0,
                        win=0.5).to_dict()
    for c in SEAT_COLUMNS:
        c.value(seat)
    for c in DECISION_COLUMNS:
        c.value(decision)


def test_the_text_table_is_the_columns():
    lines = analysis.format_text(_analysis()).splitlines()
    # the widths and formats of the columns, written out by hand: two tables, the play and
    # the luck, each within 80 columns with a name of up to 8 characters (a review: one table
    # of 111 columns broke in an 80-column terminal)
    assert lines[3] == "seat side judged loss win-%   mean loss pts accuracy inacc  mist blund name"
    assert lines[4] == "   0    0     10       12.5   1.25       33        -     0     0     0 Ann"
    assert lines[5] == "   1    1      9        2.0   0.22       -4     88.8     2     1     0 greedy"
    assert lines[6] == ""
    # the luck with its standard error (the second review: it was shown as exact)
    assert lines[7] == "seat side            own           luck result           adj. name"
    assert lines[8] == "   0    0    +2.5 +- 1.2    -3.2 +- 4.0    100              - Ann"
    assert lines[9] == "   1    1    +0.0 +- 0.5    +4.0 +- 4.0      0    -4.0 +- 4.0 greedy"
    assert len(lines[7]) - len("name") + len("greedy#1") <= 79
    assert len(lines[3]) - len("name") + len("greedy#1") <= 79


def test_a_table_wider_than_the_terminal_is_split_into_narrower_ones():
    """A review: at 60 columns each row of the 74-character table ran onto a second line, its
    numbers no longer under their headers. Given a terminal's width, a wider table is shown
    as narrower ones, each led by the seat and side, each row whole (the cells as above)."""
    lines = analysis.format_text(_analysis(), width=60).splitlines()
    assert lines[3:18] == [
        "seat side judged loss win-%   mean loss pts accuracy inacc",
        "   0    0     10       12.5   1.25       33        -     0",
        "   1    1      9        2.0   0.22       -4     88.8     2",
        "",
        "seat side  mist blund name",
        "   0    0     0     0 Ann",
        "   1    1     1     0 greedy",
        "",
        "seat side            own           luck result",
        "   0    0    +2.5 +- 1.2    -3.2 +- 4.0    100",
        "   1    1    +0.0 +- 0.5    +4.0 +- 4.0      0",
        "",
        "seat side           adj. name",
        "   0    0              - Ann",
        "   1    1    -4.0 +- 4.0 greedy"]
    assert max(len(line) for line in lines[3:18]) <= 60
    assert analysis.format_text(_analysis(), width=80) == analysis.format_text(_analysis())   # it fits: as it was
    for bad in ("x", 0, -5, True, 2.5):
        with pytest.raises(analysis.OptionError, match=r"^width must be a terminal's columns .* or None, not "):
            analysis.format_text(_analysis(), width=bad)


def test_the_text_report_fits_a_narrow_terminal(tmp_path):
    """`fiveup analyze` in a terminal breaks its notes between words, as hint and play do;
    its tables stay whole (a pseudo-terminal of 80 columns)."""
    import json
    import sys
    pexpect = pytest.importorskip("pexpect")
    record = play_game(2, 3, ["greedy", "greedy"], max_rounds=1).to_record()
    path = tmp_path / "g.json"
    path.write_text(json.dumps(record))
    child = pexpect.spawn(sys.executable, ["-m", "fiveup_solver.cli", "analyze", str(path), "--samples", "8",
                                           "--luck-samples", "4", "--dd-nodes", "1000", "--quiet"],
                          dimensions=(24, 80), encoding="utf-8", timeout=300)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    lines = child.before.replace("\r\n", "\n").splitlines()
    assert max(len(line) for line in lines) <= 79 and any(line.startswith("    ") for line in lines[:3])
    assert "seat side judged loss win-%   mean loss pts accuracy inacc  mist blund name" in lines
    assert "seat side            own           luck result           adj. name" in lines
    # at 60 columns (a review): the tables as narrower ones, and the progress bar two columns
    # short of the width, as the command line's other bars (a Ctrl-C's "^C" wrapped and half a
    # bar stayed)
    child = pexpect.spawn(sys.executable, ["-m", "fiveup_solver.cli", "analyze", str(path), "--samples", "8",
                                           "--luck-samples", "4", "--dd-nodes", "1000"],
                          dimensions=(24, 60), encoding="utf-8", timeout=300)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    parts = re.split(r"\r\n|\r|\n", child.before)
    bars = [part for part in parts if part.startswith("analysing:")]
    assert bars and max(map(len, bars)) <= 58
    assert "seat side judged loss win-%   mean loss pts accuracy inacc" in parts
    assert max(len(part) for part in parts if not part.startswith("analysing:")) <= 59


def test_marked_decisions_name_their_seat():
    """A marked decision says whose it was, with the record's name of the seat when it has one."""
    d = Decision(2, 5, 1, "6-6", False, best="5-5", loss_win=12.0, stderr_win=1.5, loss_points=20.0, win=0.3,
                 mark="mistake")
    named = analysis.format_text(_analysis([d])).splitlines()
    plain = analysis.format_text(_analysis([d], names=None)).splitlines()
    # the best move's win % beside it (a review: the text showed none; win 0.3 -> 30.0 %)
    assert named[-1] == ("  round 2 action 5 seat 1 (greedy): mistake: played 6-6, best 5-5 (win 30.0 %): "
                         "loss 12.0 +- 1.5 win-%, 20 pts")
    assert plain[-1] == "  round 2 action 5 seat 1: mistake: played 6-6, best 5-5 (win 30.0 %): loss 12.0 +- 1.5 win-%, 20 pts"
    d.win_stderr = 0.012
    assert "best 5-5 (win 30.0 +- 1.2 %): loss" in analysis.format_text(_analysis([d])).splitlines()[-1]
    assert _analysis([d]).to_dict()["names"] == ["Ann", "greedy"] and _analysis(names=None).to_dict()["names"] is None


def test_a_new_column_is_one_row(monkeypatch):
    """A column added to SEAT_COLUMNS appears in the text table and the HTML report, read from the JSON."""
    own_luck = Column("luck_win", "own luck", "own luck (win-%)", "+.2f", 9)
    monkeypatch.setattr(analysis, "SEAT_COLUMNS", SEAT_COLUMNS + (own_luck,))
    a = _analysis()
    text = analysis.format_text(a).splitlines()
    assert text[3].endswith(" own luck") and text[4].endswith("    +2.50") and text[5].endswith("    +0.00")
    pytest.importorskip("matplotlib")
    record = play_game(2, 7, ["greedy", "greedy"], max_rounds=1).to_record()
    html = analysis.to_html(a, record)
    assert "<th>own luck (win-%)</th>" in html and "<td>+2.50</td>" in html
    assert a.to_dict()["seats"]["0"]["luck_win"] == 2.5


def test_the_html_report_fills_its_template():
    pytest.importorskip("matplotlib")
    record = play_game(2, 7, ["greedy", "greedy"], max_rounds=1).to_record()
    d = Decision(0, 0, 0, "6-6", False, best="5-5", loss_win=3.0, stderr_win=1.0, loss_points=7.0, win=0.25,
                 dd_best=["<5-5>"], dd_loss_win=2.0, worlds=24)
    html = analysis.to_html(_analysis([d]), record)
    assert not re.search(r"\$[a-z_]+", html)      # every placeholder filled
    assert "".join(f"<th>{c.html}</th>" for c in SEAT_COLUMNS) in html
    assert ("<tr><td>0</td><td>0</td><td>0</td><td>6-6</td><td>5-5</td><td>3.0 \u00b1 1.0</td><td>7</td><td>24</td>"
            "<td>25.0</td><td></td><td>&lt;5-5&gt; (2.0)</td></tr>") in html
