"""docs/rules.md is the rules reference: every rule in it names a real test, and the repository cites it alone.

- Each `tests/<file>.py::<name>` in the page names a test function of that file (read with ast, not imported).
- The numbered sections (1-7 and their parts) run in order without a gap, and each names at least one test; in
  them, every bullet and every table row names a test or points at another section (§n), except the card table,
  which is compared with the engine's deck cell by cell.
- Every test of tests/engine/test_rules.py and tests/engine/test_edge_cases.py is named somewhere in the page.
- No file of the project points at the specification the page replaced, which lives outside the repository, and no
  Markdown file links outside the repository; docs/rules.md links only to other pages of docs/.

Pure Python, no engine run: seconds.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import millebornes as mb
from millebornes import cards as C

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "rules.md"
REF = re.compile(r"`tests/([\w/]+\.py)::(\w+)`")
HEADING = re.compile(r"^(#{1,6}) (.*)$")
NUMBERED = re.compile(r"^(\d+(?:\.\d+)*)\.? ")
CARD_HEADER = "| id | group | English | French | count |"
# what the page replaced: a file of that name beside the repository (spelt so this file does not name it)
OLD_SPEC = ("RULES" + ".md", ".." + "/shared")
SKIP_DIRS = {".git", ".venv", "node_modules", "site", "build", "dist", ".nox", ".tox", ".mypy_cache", ".ruff_cache"}


def page_lines() -> list[str]:
    return PAGE.read_text(encoding="utf-8").splitlines()


def sections() -> list[tuple[str, int, list[str]]]:
    """(number, level, body lines) for each numbered heading; a body runs to the next heading of its level or above."""
    lines = page_lines()
    heads = [(i, len(m[1]), m[2]) for i, line in enumerate(lines) if (m := HEADING.match(line))]
    out = []
    for k, (i, level, title) in enumerate(heads):
        number = NUMBERED.match(title)
        if not number:
            continue
        end = next((j for j, lv, _ in heads[k + 1 :] if lv <= level), len(lines))
        out.append((number[1], level, lines[i + 1 : end]))
    return out


def functions_by_file() -> dict[str, set[str]]:
    """Test function names of each test file under tests/, by path relative to tests/."""
    out = {}
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        out[path.relative_to(ROOT / "tests").as_posix()] = {
            n.name
            for n in ast.walk(tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name.startswith("test")
        }
    return out


def items(lines: list[str]) -> list[str]:
    """The bullets (with their continuation lines) and table body rows among ``lines``, outside the card table."""
    out: list[str] = []
    table: str | None = None
    for line in lines:
        if line.startswith("|"):
            if table is None:
                table = line.strip()
            elif not set(line) <= set("|-: ") and table != CARD_HEADER:
                out.append(line)
            continue
        table = None
        if re.match(r"^(?:- |\d+\. )", line):
            out.append(line)
        elif line.startswith("  ") and out and not out[-1].startswith("|"):
            out[-1] += " " + line.strip()
    return out


def project_files() -> list[Path]:
    """The project's own text: documents, sources, tests, examples, benchmarks and research scripts."""
    files = [ROOT / name for name in ("README.md", "CONTRIBUTING.md", "CHANGELOG.md") if (ROOT / name).exists()]
    for folder in ("docs", "src", "tests", "examples", "bench", "research"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and not kept_out(path):
                if path.suffix in (".md", ".py", ".po", ".html", ".js", ".css", ".sh", ".txt", ".json", ""):
                    files.append(path)
    return files


def markdown_files() -> list[Path]:
    """Every Markdown file of the repository, built, installed and cached trees left out."""
    return [p for p in sorted(ROOT.rglob("*.md")) if not kept_out(p)]


def kept_out(path: Path) -> bool:
    parts = path.relative_to(ROOT).parts
    return bool(SKIP_DIRS & set(parts)) or any(part.endswith(".egg-info") for part in parts)


def links(text: str) -> list[str]:
    """Link targets of a Markdown text, fenced code left out: inline links, images and reference definitions."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    text = re.sub(r"`[^`\n]*`", "", text)
    found = re.findall(r"\]\(\s*<?([^)\s>]+)", text)
    found += re.findall(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?\s*$", text, flags=re.M)
    return found


def local(target: str) -> str | None:
    """The path part of a link that points at a file, or None for a web address or an anchor in the same page."""
    if re.match(r"^[a-zA-Z][\w+.-]*:", target) or target.startswith("#"):
        return None
    return target.split("#")[0].split("?")[0] or None


# ------------------------------------------------------------------------------------ references
def test_every_reference_names_a_test():
    tests = functions_by_file()
    refs = REF.findall(PAGE.read_text(encoding="utf-8"))
    assert len(refs) > 100
    missing = sorted({f"{f}::{n}" for f, n in refs if n not in tests.get(f, set())})
    assert not missing, f"docs/rules.md names tests that do not exist: {missing}"


def test_references_are_whole():
    """A reference is the whole ``tests/<file>.py::<name>``: a bare name or a half path would escape the check."""
    text = PAGE.read_text(encoding="utf-8")
    spans = re.findall(r"`([^`\n]*::[^`\n]*)`", text)
    assert spans and all(REF.fullmatch(f"`{s}`") for s in spans), [s for s in spans if not REF.fullmatch(f"`{s}`")]


def test_numbered_sections_keep_their_numbers():
    numbers = [number for number, _, _ in sections()]
    top = [n for n in numbers if "." not in n]
    assert top == [str(k) for k in range(1, 8)], top
    for parent in top:
        parts = [int(n.split(".")[1]) for n in numbers if n.startswith(parent + ".") and n.count(".") == 1]
        assert parts == list(range(1, len(parts) + 1)), (parent, parts)
    assert [n for n in numbers if n.startswith("7.")] == [f"7.{k}" for k in range(1, 15)]


def test_every_numbered_section_names_a_test():
    bare = [number for number, _, body in sections() if not REF.search("\n".join(body))]
    assert not bare, f"numbered sections of docs/rules.md that name no test: {bare}"


def test_every_rule_names_a_test_or_a_section():
    known = {number for number, _, _ in sections()}
    loose = []
    for number, _, body in sections():
        for item in items(body):
            pointers = re.findall(r"§(\d+(?:\.\d+)*)", item)
            if not REF.search(item) and not pointers:
                loose.append((number, item[:80]))
            assert set(pointers) <= known, (number, pointers)
    assert not loose, f"rules of docs/rules.md that name no test and point nowhere: {loose}"


@pytest.mark.parametrize("path", ["engine/test_rules.py", "engine/test_edge_cases.py"])
def test_every_rules_test_is_named(path):
    named = {n for f, n in REF.findall(PAGE.read_text(encoding="utf-8")) if f == path}
    unnamed = sorted(functions_by_file()[path] - named)
    assert not unnamed, f"tests of tests/{path} that docs/rules.md does not name: {unnamed}"


def test_the_card_table_is_the_engines_deck():
    lines = page_lines()
    start = lines.index(CARD_HEADER)
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    counts = mb.ruleset("dujardin").deck_counts(2)
    want = [
        [f"`{C.CARD_IDS[k]}`", C.GROUP[k], C.card_name(k, "en"), C.card_name(k, "fr"), str(counts[k])]
        for k in range(C.NUM_KINDS)
    ]
    assert rows == want
    assert sum(int(r[4]) for r in rows) == 106


# ------------------------------------------------------------------------------------ the repository
def test_nothing_points_at_the_old_specification():
    offenders = []
    for path in project_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if any(word in line for word in OLD_SPEC):
                offenders.append(f"{path.relative_to(ROOT)}:{number}")
    assert not offenders, f"cite docs/rules.md instead: {offenders}"


def test_the_checks_catch_what_they_look_for():
    """The helpers above find what they are meant to, so a passing run means something."""
    assert links("[a](../../x.md) `[b](c.md)` ![i](img.png)\n```\n[d](e.md)\n```\n[r]: ../f.md\n") == [
        "../../x.md",
        "img.png",
        "../f.md",
    ]
    assert local("https://example.org/a") is None and local("#top") is None and local("engine.md#x") == "engine.md"
    body = ["- a rule `tests/engine/test_rules.py::test_x`", "- a rule with no test", "  that goes on", "", "| a | b |"]
    body += ["|---|---|", "| row | §2 |", "| bare | row |"]
    assert items(body) == [body[0], "- a rule with no test that goes on", "| row | §2 |", "| bare | row |"]


def test_no_markdown_file_links_outside_the_repository():
    outside = []
    for path in markdown_files():
        for target in links(path.read_text(encoding="utf-8")):
            file = local(target)
            if file is None:
                continue
            resolved = (path.parent / file).resolve()
            if file.startswith("/") or not resolved.is_relative_to(ROOT):
                outside.append(f"{path.relative_to(ROOT)}: {target}")
    assert not outside, outside


def test_the_rules_page_links_only_to_docs_pages():
    docs = ROOT / "docs"
    for target in links(PAGE.read_text(encoding="utf-8")):
        file = local(target)
        if file is not None:
            assert (docs / file).resolve().is_relative_to(docs) and file.endswith(".md"), target
