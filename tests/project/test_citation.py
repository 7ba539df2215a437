"""CITATION.cff says how to cite the project (Citation File Format 1.2.0): it parses, has the keys the format
requires, names the package's version, license and addresses, and the README and the researchers' guide show the
same citation in BibTeX."""

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
"""A development or pre-release version (PEP 440): not released, so no release date."""


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


def test_the_citation_names_this_version_license_and_addresses():
    cff, project = _cff(), _project()
    assert isinstance(cff["version"], str) and cff["version"] == millebornes.__version__
    assert cff["license"] == project["license"]
    assert cff["repository-code"] == project["urls"]["Source"]
    assert cff["url"] == project["urls"]["Documentation"]


def test_only_a_released_version_has_a_release_date():
    assert [bool(_PRERELEASE.search(v)) for v in ("1.0.0", "1.1.0.dev3", "1.1.0rc1", "2.0.0b2")] == [0, 1, 1, 1]
    cff = _cff()
    if "date-released" in cff:
        assert isinstance(cff["date-released"], datetime.date)
        assert not _PRERELEASE.search(cff["version"]), "an unreleased version has no date-released"


def test_the_readme_and_the_researchers_guide_cite_it_in_bibtex():
    cff = _cff()
    for page in (ROOT / "README.md", ROOT / "docs" / "researchers.md"):
        text = page.read_text(encoding="utf-8")
        assert re.search(r"^## Cite$", text, re.M) and "CITATION.cff" in text, page.name
        (entry,) = re.findall(r"```bibtex\n(@software\{.*?\n\})\n```", text, re.S)
        fields = dict(re.findall(r"^\s+(\w+)\s*=\s*\{+(.*?)\}+,?$", entry, re.M))
        assert fields["title"] == cff["title"] and fields["url"] == cff["repository-code"], page.name
        assert fields["author"] == cff["authors"][0]["name"] and fields["license"] == cff["license"], page.name
