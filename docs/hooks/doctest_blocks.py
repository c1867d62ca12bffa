"""Griffe extension for the API reference: doctest examples become code blocks.

The package's docstrings hold doctest examples (``>>> ...`` and the expected
output) without Markdown fences. Rendered as Markdown, an output line such as
``[0][1]`` would read as a reference link. This extension wraps every run of
doctest lines (from a ``>>>`` line to the next blank line) in a ``pycon``
fence, so the examples show as code and nothing in them is parsed as Markdown.
The docstrings themselves are not changed.
"""
from __future__ import annotations

import griffe


def fence_doctests(text: str) -> str:
    """Wrap each doctest run of `text` (a ``>>>`` line up to the next blank line)
    in a ``pycon`` fence; text already inside a fence is left alone
    (tested in ``tests/test_docs.py``)."""
    out, inside, fenced = [], False, False
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
        if not fenced and not inside and stripped.startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(indent + "```pycon")
            inside = True
        elif inside and not stripped:
            out.append(indent + "```")
            inside = False
        out.append(line)
    if inside:
        out.append(indent + "```")
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    def on_object(self, *, obj, loader, **kwargs) -> None:
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
