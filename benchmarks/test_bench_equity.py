"""Race equity: the calibration and duplicate-match scripts on a small slice.

The full runs (30 states x 400 games of hint self-play; 2,000-game duplicate
matches) are scripts whose results are in docs/results/equity.md:

    python benchmarks/equity_calibration.py --players 2 --games 400 --out ... --plot ...
    python benchmarks/duplicate_match.py --players 2 --bots hint-win,hint-points --deals 1000 --out ...
"""
import json

import duplicate_match
import equity_calibration
from fiveup_solver.equity import win_probabilities


def test_calibration_slice(tmp_path):
    out = tmp_path / "cal.jsonl"
    equity_calibration.run(2, 2, seed=5, workers=1, out=str(out), bot="greedy", progress=False)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 2 * len(equity_calibration.states(2)) == 60
    # resuming plays nothing more
    equity_calibration.run(2, 2, seed=5, workers=1, out=str(out), bot="greedy", progress=False)
    assert len(out.read_text().splitlines()) == 60
    s = equity_calibration.report(2, str(out), str(tmp_path / "cal.png"))
    assert s["states"] == 30 and s["games"] == 60
    assert (tmp_path / "cal.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    first = s["states_detail"][0]
    assert first["W"] == win_probabilities(2, first["scores"], first["starter"])[0]
    assert 0 <= s["brier_W"] <= 1 and 0 <= s["brier_naive"] <= 1


def test_duplicate_match_slice(tmp_path):
    out = tmp_path / "m.jsonl"
    duplicate_match.run(2, "greedy", "greedy", 6, seed=3, workers=1, out=str(out), progress=False)
    s = duplicate_match.report(2, str(out))
    assert s["games"] == 12 and s["deals"] == 6
    # a bot against itself on duplicate deals: every deal is split or decided by luck alone
    assert 0 <= s["wins"] <= 12 and s["elo_ci95"][0] <= s["elo"] <= s["elo_ci95"][1]
    assert duplicate_match.elo(0.5) == 0 and round(duplicate_match.elo(0.75)) == 191
