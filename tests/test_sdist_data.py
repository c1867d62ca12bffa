"""The source distribution (what `python -m build` makes the wheel from) holds the package's
HTML: the browser app's pages and the analysis report's template (MANIFEST.in excludes
other .html files)."""
from __future__ import annotations

import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_sdist_holds_the_pages_and_the_report_template(tmp_path):
    pytest.importorskip("build")
    proc = subprocess.run([sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir", str(tmp_path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    (sdist,) = tmp_path.glob("*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    wanted = {f"fiveup_solver/{p.relative_to(ROOT / 'fiveup_solver').as_posix()}"
              for p in list((ROOT / "fiveup_solver" / "static").glob("*.html"))
              + list((ROOT / "fiveup_solver" / "templates").glob("*.html"))}
    assert "fiveup_solver/templates/analysis_report.html" in wanted and "fiveup_solver/static/index.html" in wanted
    assert wanted <= names, sorted(wanted - names)
