"""A Griffe extension for the API reference: docstrings here are read by doctest and by people, so they hold
bare ``>>>`` sessions and reST roles, which Markdown would render as text and links.

Before a docstring is parsed, each session becomes a fenced ``pycon`` block and ``:role:`name``` becomes
``name`` in code. The sources stay as they are (zensical.toml loads this file; it is not a page of the site).
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":[a-z]+:`~?([^`]+)`")
_FENCE = "```"


def fenced(text: str) -> str:
    """The text with every doctest session (a ``>>>`` line at the margin, to the next blank line) fenced.

    >>> fenced("Play:\\n>>> 1 + 1\\n2\\n\\nDone.").splitlines()
    ['Play:', '```pycon', '>>> 1 + 1', '2', '```', '', 'Done.']
    """
    out: list[str] = []
    in_session = in_fence = False
    for line in text.splitlines():
        if line.startswith(_FENCE):
            in_fence = not in_fence
        elif not in_fence and not in_session and line.startswith(">>>"):
            out.append(_FENCE + "pycon")
            in_session = True
        elif in_session and not line.strip():
            out.append(_FENCE)
            in_session = False
        out.append(line if in_session or in_fence else _ROLE.sub(r"`\1`", line))
    if in_session:
        out.append(_FENCE)
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    """Fences the doctest sessions of every docstring Griffe reads for the site."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fenced(obj.docstring.value)
