"""The README is the first page a newcomer reads: its first screen shows the ways in for someone who never played,
its example must run as written, and every link in it must lead to a file of this repository (nothing outside it but
the web)."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_python_example_runs_and_says_what_it_shows():
    text = README.read_text(encoding="utf-8")
    (block,) = re.findall(r"```python\n(.*?)```", text, re.S)
    namespace: dict = {}
    exec(compile(block, str(README), "exec"), namespace)
    game = namespace["game"]
    assert game.is_over and game.winners
    shown = re.search(r"^game\.legal_actions\(\)\[:3\]\s+# (\[.*\])$", block, re.M)
    assert shown, "the example shows the first legal actions"
    import millebornes as mb

    assert str(mb.new_game("classic", players=2, seed=7).legal_actions()[:3]) == shown.group(1)


def test_every_link_leads_to_a_file_of_the_repository():
    text = README.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)]+)\)", text)
    local = [t for t in targets if not re.match(r"[a-z]+://", t)]
    assert local, "the README links to the project's pages"
    missing = [t for t in local if not (README.parent / t.split("#")[0]).exists()]
    assert not missing, f"links to nothing: {missing}"
    assert not [t for t in local if t.startswith("..")], "a link out of the repository"


def test_the_first_screen_shows_a_newcomer_the_ways_in():
    """Before any install detail: the guided match in the browser and in the terminal, and the rules; the install
    says how long the first run takes."""
    text = README.read_text(encoding="utf-8")
    first = text.split("\n## ", 1)[0]
    assert len(first.splitlines()) <= 30, "the ways in fit the first screen"
    for way in ("http://127.0.0.1:8000/learn", "http://127.0.0.1:8000/rules", "docs/rules.md", "`millebornes learn`"):
        assert way in first, way
    play = text.split("\n## Play\n", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"The first run takes [^.]*minute", play) and re.search(r"\d+ s compiling the engine", play)
