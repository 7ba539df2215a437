"""The pages' stylesheet is well formed: a block left open (a merge can lose a closing brace) silently puts
every later rule inside a media query, and the pages still load, so nothing else would notice."""

from __future__ import annotations

import re
from pathlib import Path

import millebornes

CSS = Path(millebornes.__file__).parent / "web" / "static" / "css" / "app.css"


def test_every_block_of_the_stylesheet_closes_where_it_should():
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group().count("\n"), CSS.read_text(), flags=re.S)
    text = re.sub(r'"[^"\n]*"' + r"|'[^'\n]*'", '""', text)
    depth, opened = 0, []
    for n, line in enumerate(text.splitlines(), 1):
        for ch in line:
            if ch == "{":
                depth += 1
                opened.append(n)
            elif ch == "}":
                depth -= 1
                assert depth >= 0, f"app.css line {n}: a brace closes a block that was never opened"
                opened.pop()
        # a rule that starts at the left margin is a top-level one: no block may be open around it
        if line[:1] not in ("", " ", "}", "@") and "{" in line:
            assert depth == line.count("{") - line.count("}"), (
                f"app.css line {n} starts a top-level rule inside the block opened at line {opened[0]}"
            )
    assert depth == 0, f"app.css: the block opened at line {opened[-1]} never closes"
