"""What PyPI shows of the package: its metadata as the build writes it (read through the build's own hook, without
compiling anything). The description is the README with every link absolute, each to a page or file that exists;
the addresses a user looks for are there; and what only the project's own work needs is not published."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from build.util import project_wheel_metadata

REPO = Path(__file__).resolve().parents[2]
SITE = "https://millebornes.github.io/millebornes/"
FORGE = "https://github.com/millebornes/millebornes"
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


@pytest.fixture(scope="module")
def metadata():
    return project_wheel_metadata(REPO, isolated=False)


def test_the_addresses_a_user_looks_for(metadata):
    urls = dict(line.split(", ", 1) for line in metadata.get_all("Project-URL"))
    assert urls == {
        "Homepage": FORGE,
        "Documentation": SITE,
        "Source": FORGE,
        "Issues": f"{FORGE}/issues",
        "Changelog": f"{FORGE}/blob/main/CHANGELOG.md",
    }


def test_the_description_links_only_to_absolute_addresses_that_exist(metadata):
    description = metadata.get_payload() or metadata["Description"]
    assert metadata["Description-Content-Type"] == "text/markdown"
    readme = (REPO / "README.md").read_text()
    assert description.count("](") == readme.count("]("), "a link was lost or added"
    targets = LINK.findall(description)
    assert len(targets) >= 15
    ref = "main" if ".dev" in metadata["Version"] else f"v{metadata['Version']}"
    for target in targets:
        parts = urlsplit(target)
        assert parts.scheme in ("http", "https"), f"a relative link on PyPI: {target}"
        if target.startswith(SITE):
            page = parts.path[len(urlsplit(SITE).path) :]
            if page.endswith("/") or not page:
                source = REPO / "docs" / ((page.rstrip("/") or "index") + ".md")
            else:
                source = REPO / "docs" / page
            assert source.exists(), f"{target}: no {source.relative_to(REPO)}"
            if parts.fragment:
                headings = {_slug(h) for h in re.findall(r"^#+ (.+)$", source.read_text(), re.M)}
                assert parts.fragment in headings, f"{target}: no heading #{parts.fragment}"
        elif target.startswith(f"{FORGE}/blob/"):
            path = parts.path.split(f"/blob/{ref}/", 1)[1]
            assert (REPO / path).exists(), target
        else:
            assert parts.hostname in ("127.0.0.1", "keepachangelog.com", "semver.org"), target


def _slug(heading: str) -> str:
    """A heading's anchor as the docs site writes it (lowercase, words joined by hyphens)."""
    words = re.sub(r"[^\w\s-]", "", heading.strip().lower())
    return re.sub(r"\s+", "-", words)


def test_only_what_users_install_is_published(metadata):
    extras = set(metadata.get_all("Provides-Extra"))
    assert extras == {"cli", "tui", "web", "rl", "openspiel", "ray", "plot", "learn", "all"}
    requirements = metadata.get_all("Requires-Dist")
    assert not [r for r in requirements if re.match(r"(pytest|nox|mypy|ruff|playwright|mkdocs|zensical)\b", r)]
