"""MkDocs hook: serve the measured results' journals with the site.

The pages under ``docs/results/`` link every measured table to its journal
(``benchmarks/results/...``: the raw games or timings, kept beside the scripts
that write them). This hook adds every file of ``benchmarks/results/`` to the
site at the same path, so those links resolve and ``mkdocs build --strict``
fails when a linked journal is missing.
"""
from __future__ import annotations

import os

from mkdocs.structure.files import File


def on_files(files, config):
    root = os.path.dirname(os.path.abspath(config["config_file_path"]))
    results = os.path.join(root, "benchmarks", "results")
    for folder, dirs, names in os.walk(results):
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(folder, name)
            uri = os.path.relpath(path, root).replace(os.sep, "/")
            files.append(File.generated(config, uri, abs_src_path=path))
    return files
