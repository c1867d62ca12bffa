"""The front page and the documentation say what the code does.

``mkdocs build --strict`` (in ``.ci/run``) checks the site's links and the
journals the result pages link to; these tests check what it cannot: the
README's commands, example and picture, and the docs paths the code cites.
"""
from __future__ import annotations

import contextlib
import importlib.util
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
# the README's "Start here" block: the install-and-run command, then the test command
README_COMMANDS = re.search(r"```\n(pip install .*?)```", README, re.S).group(1).splitlines()


def test_readme_is_a_short_front_page_with_the_two_commands():
    assert len(README.splitlines()) <= 150
    assert README_COMMANDS == ["pip install . && fiveup demo", "pip install -e '.[test]' && pytest -n auto"]


def test_ci_runs_the_readme_test_command():
    """CI runs the README's second command as written, on a line of its own."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert README_COMMANDS[1] in ci


def test_every_local_link_of_the_readme_exists():
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README)
    local = [link for link in links if not re.match(r"[a-z]+://", link)]
    assert local and all((ROOT / link).exists() for link in local), [x for x in local if not (ROOT / x).exists()]


def test_the_site_front_page_is_the_readme():
    """docs/index.md is README.md up to its list of pages, with links relative to docs/."""
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    index = re.sub(r"\n<!--.*?-->\n", "", index, count=1, flags=re.S)
    readme_head = README.partition("## Documentation")[0].replace("](docs/", "](")
    assert index.partition("## Where to go")[0] == readme_head


def test_the_readme_api_example_prints_what_the_readme_says():
    code = re.search(r"## Ten lines of the API\n\n```python\n(.*?)```", README, re.S).group(1)
    assert len([line for line in code.splitlines() if line.strip()]) <= 11
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README example", "exec"), {})
    lines = out.getvalue().splitlines()
    said = re.search(r"This prints `(.*?)`, then\n`(.*?)` and two more moves, then `(.*?)`", README, re.S)
    assert said, "the README no longer says what the example prints"
    assert lines[0] == said.group(1) and lines[1] == said.group(2) and lines[-1] == said.group(3)
    assert len(lines) == 5


def test_the_front_page_picture_is_what_fiveup_show_draws(tmp_path):
    from fiveup_solver.cli import main
    command = re.search(r"`fiveup show (docs/img/board-game\.json [^`]*)`", README).group(1).split()
    assert command[command.index("--svg") + 1] == "docs/img/board.svg"
    command[command.index("--svg") + 1] = str(tmp_path / "board.svg")
    command[0] = str(ROOT / command[0])
    assert main(["show"] + command) == 0
    assert (tmp_path / "board.svg").read_bytes() == (ROOT / "docs" / "img" / "board.svg").read_bytes()


def _cited_docs_paths():
    for folder in ("fiveup_solver", "benchmarks", "tests", "src"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".pyx", ".pxd", ".sh") and path.is_file():
                for cited in re.findall(r"\bdocs/[\w./-]+\.md\b", path.read_text(encoding="utf-8", errors="replace")):
                    yield path.relative_to(ROOT), cited


def test_the_api_tour_runs_as_written():
    """docs/api.md's tour is code to paste: every line of it runs, in order."""
    from fiveup_solver import hint as hint_module
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    default = hint_module._default
    try:
        exec(compile(code, "docs/api.md", "exec"), {})
    finally:
        hint_module._default = default     # the tour sets the default hinter's threads


def test_every_docs_page_the_code_cites_exists():
    cited = list(_cited_docs_paths())
    assert ("fiveup_solver/beliefs.py", "docs/beliefs.md") in [(str(p), c) for p, c in cited]
    missing = [(str(p), c) for p, c in cited if not (ROOT / c).is_file()]
    assert not missing


def test_every_page_is_in_the_site_navigation():
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = config[config.index("\nnav:"):]
    in_nav = set(re.findall(r"^\s+- (?:[^:\n]+: )?([\w/.-]+\.md)$", nav, re.M))
    on_disk = {p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")}
    assert in_nav == on_disk


def _doctest_blocks():
    spec = importlib.util.spec_from_file_location("doctest_blocks", ROOT / "docs" / "hooks" / "doctest_blocks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_reference_fences_doctest_examples():
    pytest.importorskip("griffe")
    fence = _doctest_blocks().fence_doctests
    text = "Intro.\n\n>>> [1][0]\n1\n\nEnd."
    assert fence(text) == "Intro.\n\n```pycon\n>>> [1][0]\n1\n```\n\nEnd."
    assert fence("  >>> x\n  2") == "  ```pycon\n  >>> x\n  2\n  ```"
    fenced = "```python\n>>> a\n```"
    assert fence(fenced) == fenced


def test_the_reference_reads_sphinx_roles_as_code():
    pytest.importorskip("griffe")
    plain = _doctest_blocks().plain_roles
    assert plain("see :class:`~fiveup_solver.game.Game` and :meth:`Game.next_round`") == \
        "see `Game` and `Game.next_round`"
    assert plain("no role `here`") == "no role `here`"


def _on_an_80_column_terminal(text, monkeypatch):
    """``text`` as the commands write it to an 80-column terminal: fit_to_terminal breaks
    each line longer than 79 characters between words, its rest indented (the pages show
    command output so, to fit the site's code column without scrolling sideways; piped or
    captured, the lines come whole). The terminal's width is the fallback's, COLUMNS."""
    from fiveup_solver.notation import fit_to_terminal

    class Terminal:
        def isatty(self):
            return True

    monkeypatch.setenv("COLUMNS", "80")
    return fit_to_terminal(text, Terminal())


def test_the_play_transcript_is_what_fiveup_play_prints(monkeypatch):
    """docs/pictures-and-play.md shows a hint in `fiveup play`; the seeded game prints exactly it
    (the page had kept an older engine's ranking: another best move, other numbers), as an
    80-column terminal shows it (so that it fits the site's code column without scrolling)."""
    import os
    import subprocess
    import sys
    page = (ROOT / "docs" / "pictures-and-play.md").read_text(encoding="utf-8")
    block = re.search(r"```\n\$ fiveup (play [^\n]*)\n\.\.\.\n(.*?)```", page, re.S)
    assert block, "the page no longer shows a fiveup play transcript"
    argv, shown = block.group(1).split(), block.group(2)
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, "-m", "fiveup_solver.cli", *argv], input="hint\nquit\n",
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    # piped, each line read is echoed after its prompt, as a terminal shows it typed (a
    # review: the prompts ran together, "> > engine ...")
    assert "\n> hint\nengine (" in proc.stdout and proc.stdout.rstrip().count("\n> quit\n") == 1
    assert shown in _on_an_80_column_terminal(proc.stdout, monkeypatch)
    # the sentence under it names the move on the rank-2 line by its number
    rank2 = re.search(r"^\s+(\d+)\. (\S+) .*#2$", shown, re.M)
    said = re.search(r"Typing `(\d+)` here plays (\S+), the second-best move\.", page)
    assert said and (said.group(1), said.group(2)) == (rank2.group(1), rank2.group(2))


def test_the_beliefs_page_position_is_what_fiveup_sample_prints(tmp_path, capsys, monkeypatch):
    """docs/beliefs.md runs selfplay, then `fiveup sample --probabilities --beliefs model` at one
    position, and shows the table; the commands print it (the page had kept a position of an
    older hint-uniform game: another round, other tiles), as an 80-column terminal shows it."""
    from fiveup_solver.cli import main
    page = (ROOT / "docs" / "beliefs.md").read_text(encoding="utf-8")
    said = re.search(r"`fiveup (selfplay [^`]*) && head -1 g7\.jsonl > g7\.json`,\nthen `fiveup (sample [^`]*)`\.",
                     page)
    assert said, "the page no longer gives the two commands"
    selfplay = said.group(1).replace("g7.jsonl", str(tmp_path / "g7.jsonl")).split()
    assert main(selfplay) == 0
    first = (tmp_path / "g7.jsonl").read_text(encoding="utf-8").splitlines()[0]
    (tmp_path / "g7.json").write_text(first + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(said.group(2).replace("g7.json", str(tmp_path / "g7.json")).split()) == 0
    printed = _on_an_80_column_terminal(capsys.readouterr().out.rstrip("\n"), monkeypatch).splitlines()
    block = re.search(r"holds:\n\n```\n(.*?)```", page[said.end():], re.S).group(1).splitlines()
    # the page shows the output whole (it had left out the tiles that cannot be in seat 1's
    # hand, with a summary line the command does not print)
    shown = block
    assert printed == shown
    # "... make T more likely, and T is what it holds": T has the largest model probability and
    # is seat 1's one tile in the record
    from fiveup_solver.record import game_at, load_record
    held = re.search(r"make (\d-\d) more likely, and (\d-\d) is what it holds", page)
    argv = said.group(2).split()
    game = game_at(load_record(tmp_path / "g7.json"), int(argv[argv.index("--round") + 1]),
                   int(argv[argv.index("--action") + 1]))
    assert held and held.group(1) == held.group(2) and [str(t) for t in game.hand(1)] == [held.group(1)]
    rows = [line.split() for line in shown if re.match(r"\d-\d ", line)]
    assert max(rows, key=lambda row: float(row[2]))[0] == held.group(1)


def test_no_list_is_glued_to_the_paragraph_above():
    """Python-Markdown (the site's renderer) needs a blank line before a list: without
    one, the items run on inside the paragraph as ' - ' (docs/hints.md had shown its
    search methods that way). docs/spec holds the spec's own copies and is left as is."""
    glued = []
    for page in sorted((ROOT / "docs").rglob("*.md")):
        if "spec" in page.relative_to(ROOT / "docs").parts:
            continue
        lines = page.read_text(encoding="utf-8").split("\n")
        fenced = False
        for i, line in enumerate(lines):
            if line.startswith("```"):
                fenced = not fenced
            if fenced or i == 0:
                continue
            above = lines[i - 1]
            if re.match(r"(- |\* |1\. )", line) and above.strip() and not re.match(r"(\s|- |\* |\d+\. |\||#|>|```)", above):
                glued.append(f"{page.relative_to(ROOT)}:{i + 1}")
    assert not glued, glued


def test_the_hint_page_builds_a_position_and_the_filler_is_not_seen():
    """docs/hints.md builds a position not played in the engine, filling the other hand and
    the boneyard with any unseen tiles: its code runs, and another filler gives the same
    hint (the observation is the same; a review found no route to such a hint documented)."""
    text = (ROOT / "docs" / "hints.md").read_text(encoding="utf-8")
    code = re.search(r"## Getting a hint\n.*?```python\n(.*?)```", text, re.S).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "docs/hints.md", "exec"), {})
    assert re.fullmatch(r"\S+@6-6:\w+ win \d+\.\d% [+-]\d+\.\d pts\n", out.getvalue()), out.getvalue()
    other = code.replace("unseen[:4]], unseen[4:]", "unseen[-4:]], unseen[:-4]")
    assert other != code
    out2 = io.StringIO()
    with contextlib.redirect_stdout(out2):
        exec(compile(other, "docs/hints.md, another filler", "exec"), {})
    assert out2.getvalue() == out.getvalue()


def test_no_table_or_code_block_is_glued_to_the_text_around_it():
    """Python-Markdown renders a table only as a block of its own: a caption line right
    above it, or a line of text right below it, leaves the whole table as a paragraph
    of pipes (docs/results/exact.md and alphamu.md had shown nine tables that way);
    text right after a closing fence runs on into the code block's paragraph
    (docs/spec/RECORD.md's field lists showed as one paragraph of "- "). docs/spec
    holds the spec's own copies and is left out, as above."""
    glued = []
    for page in sorted((ROOT / "docs").rglob("*.md")):
        if "spec" in page.relative_to(ROOT / "docs").parts:
            continue
        lines = [line.strip() for line in page.read_text(encoding="utf-8").split("\n")]
        fenced = False
        for i, line in enumerate(lines):
            if line.startswith("```"):
                if fenced and i + 1 < len(lines) and lines[i + 1]:
                    glued.append(f"{page.relative_to(ROOT)}:{i + 2} (after a code block)")
                fenced = not fenced
                continue
            if fenced or not re.fullmatch(r"\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?", line) or "|" not in line:
                continue
            if i >= 2 and lines[i - 2]:
                glued.append(f"{page.relative_to(ROOT)}:{i - 1} (above a table)")
            end = i + 1
            while end < len(lines) and lines[end].startswith("|"):
                end += 1
            if end < len(lines) and lines[end]:
                glued.append(f"{page.relative_to(ROOT)}:{end + 1} (below a table)")
    assert not glued, glued


def _github_slugs(text: str) -> set:
    """The anchors GitHub gives a Markdown page's headings (lower case, punctuation dropped,
    spaces to hyphens, a repeat numbered), outside code fences, and any HTML id."""
    slugs, seen, fenced = set(), {}, False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        m = None if fenced else re.match(r"#{1,6} +(.*?)\s*#*\s*$", line)
        if m:
            slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            slugs.add(slug if n == 0 else f"{slug}-{n}")
    slugs.update(re.findall(r'\bid="([^"]+)"', text))
    return slugs


def test_every_anchor_linked_in_the_docs_is_a_heading_github_shows_too():
    """mkdocs --strict checks the site's anchors, which attr_list ids (`{: #x }`) satisfy;
    GitHub shows such an id as text and has no anchor there (a newcomer's review: the
    README's "your own agent" link led to the top of the page). An anchor linked from the
    README or a docs page is a heading's (or an HTML id) on GitHub as well."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    broken = []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "{: #" not in text, f"{page}: an attr_list anchor GitHub does not render"
        for target, anchor in re.findall(r"\]\(([^)#\s]*\.md|)#([^)\s]+)\)", text):
            path = page if not target else (page.parent / target).resolve()
            if not path.exists() or "://" in target:
                continue
            if anchor not in _github_slugs(path.read_text(encoding="utf-8")):
                broken.append(f"{page.relative_to(ROOT)} -> {target}#{anchor}")
    assert not broken, broken
