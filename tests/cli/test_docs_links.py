"""The command line sends a reader to the hosted documentation, never to a docs/ path a pip user does not have:
every address a help text or message of the package gives is a page of docs/ and a heading on it."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path
from urllib.parse import urlsplit

import typer

from millebornes import documentation
from millebornes.cli import app
from millebornes.documentation import address, site, slug

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PACKAGE = ROOT / "src" / "millebornes"
_HEADING = re.compile(r"^#{1,6} (.+?)\s*$", re.M)
_FENCE = re.compile(r"^```.*?^```", re.M | re.S)
_DOCS_PATH = re.compile(r"\bdocs/[\w./-]+")
_ADDRESS = re.compile(r"https?://\S+?(?=[\s)\]]|$)")


def _headings(page: Path) -> set[str]:
    """The anchors of a page's headings (those in code blocks are no headings)."""
    return {slug(text.strip("` ")) for text in _HEADING.findall(_FENCE.sub("", page.read_text(encoding="utf-8")))}


def _faults(url: str) -> list[str]:
    """What is wrong with an address on the documentation site: its page or its heading missing from docs/."""
    if not url.startswith(site()):
        return [f"{url} is not on the documentation site {site()}"]
    parts = urlsplit(url.removeprefix(site()))
    page = DOCS / (parts.path.rstrip("/") + ".md" if parts.path else "index.md")
    if not page.is_file():
        return [f"{url}: docs/ has no page {page.name}"]
    if parts.fragment and parts.fragment not in _headings(page):
        return [f"{url}: {page.name} has no heading #{parts.fragment}"]
    return []


def _texts(command) -> list[str]:
    """Everything the help of a (Typer's click) command and of its subcommands says."""
    texts = [command.help or "", command.epilog or "", command.short_help or ""]
    texts += [getattr(param, "help", None) or "" for param in command.params]
    for sub in getattr(command, "commands", {}).values():
        texts += _texts(sub)
    return texts


def _calls() -> list[tuple[str, tuple[str, ...]]]:
    """Every ``address(...)`` of the package's sources whose arguments are written out: (where, arguments)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if not re.search(r"^from \.+documentation import .*\baddress\b", source, re.M):
            continue
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "address":
                args = tuple(arg.value for arg in node.args if isinstance(arg, ast.Constant))
                found.append((f"{path.relative_to(PACKAGE)}:{node.lineno}", args))
    return found


def test_the_help_names_no_docs_path_and_says_where_the_documentation_is():
    texts = _texts(typer.main.get_command(app))
    assert not [path for text in texts for path in _DOCS_PATH.findall(text)]
    urls = [url.rstrip(".,;") for text in texts for url in _ADDRESS.findall(text)]
    assert site() in urls and len(set(urls)) >= 10
    assert not [fault for url in urls for fault in _faults(url)], [fault for url in urls for fault in _faults(url)]


def test_every_address_the_package_gives_is_a_page_and_heading_of_the_docs():
    calls = _calls()
    assert len(calls) >= 15 and ("deploy.md", "6. Backup and restore") in [args for _, args in calls]
    faults = []
    for where, args in calls:
        assert args and len(args) <= 2, f"{where}: address() takes a page and a heading written out"
        faults += [f"{where}: {fault}" for fault in _faults(address(*args))]
    assert not faults, "\n".join(faults)


def test_the_check_finds_a_missing_page_and_heading():
    assert _faults(address("deploy.md", "Configuration")) == []
    assert _faults(address("gone.md")) == [f"{site()}gone/: docs/ has no page gone.md"]
    assert _faults(address("deploy.md", "Nowhere")) == [f"{site()}deploy/#nowhere: deploy.md has no heading #nowhere"]
    assert _faults("https://example.org/") != []


def test_the_site_is_the_installed_package_s_documentation_address():
    urls = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]
    assert site() == urls["Documentation"] == documentation.SITE
    assert address("index.md") == site() and address("web-api.md", "Taking back a move").endswith(
        "/web-api/#taking-back-a-move"
    )
