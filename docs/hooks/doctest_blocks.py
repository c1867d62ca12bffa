"""Griffe extension for the API reference: the docstrings' reST bits read as Markdown.

The package's docstrings hold doctest examples (``>>> ...`` and the expected
output) without Markdown fences. Rendered as Markdown, an output line such as
``[0][1]`` would read as a reference link. This extension wraps every run of
doctest lines (from a ``>>>`` line to the next blank line) in a ``pycon``
fence, so the examples show as code and nothing in them is parsed as Markdown.
It also turns Sphinx roles (``:class:`~fiveup_solver.game.Game```) into code
spans (`` `Game` ``). The docstrings themselves are not changed.
"""
from __future__ import annotations

import re

import griffe

_ROLE = re.compile(r":(?:meth|class|func|mod|attr|data|exc|obj):`~?([^`]+)`")


def plain_roles(text: str) -> str:
    """``:class:`~a.b.C``` becomes `` `C` ``, ``:func:`a.f``` becomes `` `a.f` ``."""
    return _ROLE.sub(lambda m: "`" + (m.group(1).rsplit(".", 1)[-1] if m.group(0).count("~") else m.group(1)) + "`",
                     text)


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
        if obj.docstring is not None:
            obj.docstring.value = plain_roles(fence_doctests(obj.docstring.value))
