"""A newcomer's pass through the docs (2026-12-07): the analysis' text report says what its
columns are, and counts in words."""
from fiveup_solver import Game
from fiveup_solver.analysis import AnalysisBudget, analyze, format_text

FAST = AnalysisBudget(samples=8, luck_samples=4, world_nodes=2_000, dd_nodes=50_000)


def _one_decision_record():
    g = Game(players=2, seed=3)
    assert len(g.legal_moves) > 1          # the opening is a choice: judged
    g.push(g.legal_moves[0])
    return g.to_record()


def test_one_judged_decision_is_one_decision():
    text = format_text(analyze(_one_decision_record(), budget=FAST, seed=1))
    cost = next(line for line in text.splitlines() if line.startswith("cost:"))
    assert cost.startswith("cost: 1 judged decision,")


def test_the_text_report_says_what_mean_is():
    text = format_text(analyze(_one_decision_record(), budget=FAST, seed=1))
    header = next(line for line in text.splitlines() if line.lstrip().startswith("seat side judged"))
    assert "mean" in header
    assert "mean: the loss a judged decision" in text


def test_the_shipped_ladder_fits_an_80_column_terminal(monkeypatch):
    """`fiveup ladder --shipped` (its --help example) at 80 columns: the rows of 85-87
    characters broke inside their "step from below" cell; the headers now take two or
    three lines and each level's row stays whole (docs/results/ladder.md's figures)."""
    import io
    from fiveup_solver import notation
    from fiveup_solver.cli import main

    class Terminal(io.StringIO):
        def isatty(self):
            return True
    monkeypatch.setattr(notation, "_terminal_columns", lambda out: 80)
    term = Terminal()
    monkeypatch.setattr("sys.stdout", term)
    assert main(["ladder", "--shipped"]) == 0
    lines = term.getvalue().splitlines()
    assert max(map(len, lines)) <= 80
    row = next(line for line in lines if " level2 " in line)
    assert "69.1 %" in row and "66.0 % of 200" in row and "[108, 170]" in row and "+140 [+108, +170]" in row
    assert any(line.strip() == "greedy, but 70% of moves random" for line in lines)


def test_analyze_plot_help_names_the_side_it_draws():
    """`--plot` said "side 0's win probability"; it draws the analysed side's."""
    from fiveup_solver.cli import build_parser
    text = build_parser()._subparsers._group_actions[0].choices["analyze"].format_help()
    assert "side 0's win probability over the game" not in text
    assert "analysed side's" in " ".join(text.split())
