"""CITATION.cff says how to cite the project (Citation File Format 1.2.0): it parses, has the keys the format
requires, names the newest release (tools/release.py writes its version and date), the license and the addresses,
and the README and the researchers' guide show the same citation in BibTeX."""

from __future__ import annotations

import datetime
import re
import tomllib
from pathlib import Path

import yaml

import millebornes

ROOT = Path(__file__).resolve().parents[2]
REQUIRED = {"cff-version", "message", "title", "authors"}
"""The keys CFF 1.2.0 requires."""
_PRERELEASE = re.compile(r"(\.dev\d*|(a|b|rc)\d+)$")
"""A development or pre-release version (PEP 440): not a release a citation names."""


def _cff() -> dict:
    return yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_the_citation_file_has_what_the_format_requires():
    cff = _cff()
    assert REQUIRED <= set(cff) and cff["cff-version"] == "1.2.0" and cff["type"] == "software"
    assert cff["authors"] and all(isinstance(author.get("name"), str) for author in cff["authors"])
    assert [author["name"] for author in cff["authors"]] == [author["name"] for author in _project()["authors"]]
    assert isinstance(cff["abstract"], str) and len(cff["abstract"]) > 100
    assert cff["keywords"] and all(isinstance(word, str) for word in cff["keywords"])


def _released() -> tuple[str, str]:
    """The newest release the changelog dates: its version and day (``## [1.0.0] - 2026-12-04``)."""
    found = re.search(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$", (ROOT / "CHANGELOG.md").read_text(), re.M)
    assert found, "CHANGELOG.md dates no release"
    return found.group(1), found.group(2)


def test_the_citation_names_the_newest_release_its_license_and_addresses():
    """Between releases the package's version is the next one's .dev (tools/release.py); a citation names the
    newest release, as the changelog dates it, which is the package's version itself once it is cut."""
    cff, project = _cff(), _project()
    version, day = _released()
    assert isinstance(cff["version"], str) and cff["version"] == version
    assert str(cff["date-released"]) == day and datetime.date.fromisoformat(str(cff["date-released"]))
    if not _PRERELEASE.search(millebornes.__version__):
        assert cff["version"] == millebornes.__version__
    assert cff["license"] == project["license"]
    assert cff["repository-code"] == project["urls"]["Source"]
    assert cff["url"] == project["urls"]["Documentation"]


def test_the_version_check_tells_a_development_version():
    assert [bool(_PRERELEASE.search(v)) for v in ("1.0.0", "1.1.0.dev3", "1.1.0rc1", "2.0.0b2")] == [0, 1, 1, 1]


def test_the_readme_and_the_researchers_guide_cite_it_in_bibtex():
    cff = _cff()
    for page in (ROOT / "README.md", ROOT / "docs" / "researchers.md"):
        text = page.read_text(encoding="utf-8")
        assert re.search(r"^## Cite$", text, re.M) and "CITATION.cff" in text, page.name
        (entry,) = re.findall(r"```bibtex\n(@software\{.*?\n\})\n```", text, re.S)
        fields = dict(re.findall(r"^\s+(\w+)\s*=\s*\{+(.*?)\}+,?$", entry, re.M))
        assert fields["title"] == cff["title"] and fields["url"] == cff["repository-code"], page.name
        assert fields["author"] == cff["authors"][0]["name"] and fields["license"] == cff["license"], page.name
