"""The version's one place and the release steps (tools/release.py), played out on a copy of the files they edit:
main says ``.dev``, a cut dates the changelog and names the version everywhere, and the release workflow's check
refuses a tag that is not the version."""

from __future__ import annotations

import datetime as dt
import importlib.util
import re
import shutil
from pathlib import Path

import pytest

import millebornes

REPO = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("release", REPO / "tools" / "release.py")
release = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(release)

DAY = dt.date(2027, 3, 1)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "src" / "millebornes").mkdir(parents=True)
    shutil.copy(REPO / "src" / "millebornes" / "__init__.py", tmp_path / "src" / "millebornes" / "__init__.py")
    shutil.copy(REPO / "CHANGELOG.md", tmp_path / "CHANGELOG.md")
    (tmp_path / "CITATION.cff").write_text('cff-version: 1.2.0\ntitle: millebornes\nversion: "0.0.1"\n')
    return tmp_path


def test_main_says_what_comes_next_as_a_dev_version():
    assert release.DEV.fullmatch(millebornes.__version__), millebornes.__version__
    assert release.version() == millebornes.__version__
    assert "## [Unreleased]" in (REPO / "CHANGELOG.md").read_text()
    with pytest.raises(release.ReleaseError, match="not a release version"):
        release.check(f"v{millebornes.__version__}")


def test_a_cut_dates_the_changelog_and_names_the_version_everywhere(root: Path):
    new = ".".join(release.version(root).split(".dev")[0].split("."))
    release.cut(new, root, today=DAY)
    assert release.version(root) == new
    changelog = (root / "CHANGELOG.md").read_text()
    assert f"## [Unreleased]\n\n## [{new}] - 2027-03-01\n" in changelog
    cff = (root / "CITATION.cff").read_text()
    assert f'version: "{new}"' in cff and 'date-released: "2027-03-01"' in cff
    assert release.check(f"v{new}", root) == new
    with pytest.raises(release.ReleaseError, match="is not v"):
        release.check("v9.9.9", root)
    with pytest.raises(release.ReleaseError, match="not a .dev version"):
        release.cut(new, root)

    major, minor, _ = map(int, new.split("."))
    release.dev(f"{major}.{minor + 1}.0", root)
    assert release.version(root) == f"{major}.{minor + 1}.0.dev0"
    with pytest.raises(release.ReleaseError, match="not a release version"):
        release.check(f"v{major}.{minor + 1}.0.dev0", root)


def test_a_cut_refuses_what_would_publish_a_wrong_release(root: Path):
    before = {path.name: path.read_text() for path in root.rglob("*") if path.is_file()}
    with pytest.raises(release.ReleaseError, match="not a release version"):
        release.cut("2.0", root)
    with pytest.raises(release.ReleaseError, match="comes before"):
        release.cut("0.9.0", root)
    changelog = root / "CHANGELOG.md"
    text = changelog.read_text()
    empty = re.sub(r"## \[Unreleased\].*?(?=\n## \[)", "## [Unreleased]\n", text, count=1, flags=re.S)
    changelog.write_text(empty)
    with pytest.raises(release.ReleaseError, match="lists nothing"):
        release.cut("9.0.0", root)
    changelog.write_text(text)
    assert {path.name: path.read_text() for path in root.rglob("*") if path.is_file()} == before


def test_a_tag_without_its_dated_section_is_refused(root: Path):
    init = root / "src" / "millebornes" / "__init__.py"
    init.write_text(release.VERSION_LINE.sub('__version__ = "8.0.0"', init.read_text()))
    (root / "CITATION.cff").write_text('version: "8.0.0"\n')
    with pytest.raises(release.ReleaseError, match="no dated section"):
        release.check("v8.0.0", root)
