"""The README is the first page a newcomer reads: its example must run as written, and every link in it must
lead to a file of this repository (nothing outside it but the web)."""

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
