"""The planted-errors measurement and the rollout judge's cost estimate run (tiny
budgets, the greedy bot in the playouts); the figures are from
``benchmarks/planted_errors.py`` and ``benchmarks/rollout_cost.py``
(docs/analysis_judges.md)."""
import json

import planted_errors
import rollout_cost


def test_planted_errors_runs_and_summarises(tmp_path):
    out = tmp_path / "p.jsonl"
    assert planted_errors.main(["--players", "2", "--kinds", "exact305", "--per-kind", "1", "--rollouts", "2",
                                "--reference", "4", "--bot", "greedy", "--out", str(out)]) == 0
    row = json.loads(out.read_text())
    assert row["players"] == 2 and row["kind"] == "exact305"
    for judge in ("search", "rollout", "reference"):
        assert row[judge]["loss_win"] >= 0 and row[judge]["best"]
    # the planted move misses an exact 305 that every judge sees
    assert row["search"]["best"] == row["reference"]["best"] == row["rollout"]["best"] != row["played"]
    assert "| 2 | exact305 | 1 |" in planted_errors.summary(str(out))


def test_rollout_cost_runs():
    row = rollout_cost.measure(2, 5, "greedy", 4, 2)
    assert row["judged"] > 0 and row["estimate_playouts"] >= 4 * 2 * row["judged"]
    assert len(row["checks"]) == 2 and all(c["measured_cpu_seconds_per_playout"] >= 0 for c in row["checks"])
