"""The version's one place and the steps of a release.

The version lives in ``src/millebornes/__init__.py`` (``__version__``, which the build reads). Between releases main
says what comes next with a ``.dev0`` suffix (``1.1.0.dev0``), so a build from main never passes for a release.

    python tools/release.py cut 1.1.0        the release: __version__, the changelog's Unreleased section dated
                                             and renamed, CITATION.cff's version and date; you commit and
                                             tag v1.1.0 yourself (CONTRIBUTING.md)
    python tools/release.py dev 1.2.0        after the tag: main says 1.2.0.dev0
    python tools/release.py check v1.1.0     what the release workflow asks before publishing: the tag is the
                                             version, a release (no .dev), with a dated changelog section and the
                                             same version in CITATION.cff
    python tools/release.py show             the version
"""

from __future__ import annotations

import argparse
import datetime as dt
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RELEASE = re.compile(r"\d+\.\d+\.\d+")
DEV = re.compile(r"\d+\.\d+\.\d+\.dev\d+")
VERSION_LINE = re.compile(r'^__version__ = "([^"]+)"$', re.M)
UNRELEASED = "## [Unreleased]"


class ReleaseError(Exception):
    """A step that cannot be taken, in words a maintainer acts on."""


def _init(root: Path) -> Path:
    return root / "src" / "millebornes" / "__init__.py"


def version(root: Path = ROOT) -> str:
    found = VERSION_LINE.search(_init(root).read_text())
    if not found:
        raise ReleaseError(f"no __version__ line in {_init(root)}")
    return found.group(1)


def _set_version(root: Path, new: str) -> None:
    path = _init(root)
    path.write_text(VERSION_LINE.sub(f'__version__ = "{new}"', path.read_text(), count=1))


def _later(a: str, b: str) -> bool:
    def parts(v: str) -> tuple[int, ...]:
        return tuple(int(x) for x in v.split(".dev")[0].split("."))

    return parts(a) >= parts(b)


def cut(new: str, root: Path = ROOT, today: dt.date | None = None) -> None:
    """Turn main's dev version into the release ``new``."""
    if not RELEASE.fullmatch(new):
        raise ReleaseError(f"{new!r} is not a release version (X.Y.Z)")
    now = version(root)
    if not DEV.fullmatch(now):
        raise ReleaseError(f"__version__ is {now}, not a .dev version: is {now} already cut?")
    if not _later(new, now):
        raise ReleaseError(f"{new} comes before main's {now}")
    day = (today or dt.date.today()).isoformat()
    changelog = root / "CHANGELOG.md"
    text = changelog.read_text()
    if UNRELEASED not in text:
        raise ReleaseError("CHANGELOG.md has no '## [Unreleased]' section")
    if f"## [{new}]" in text:
        raise ReleaseError(f"CHANGELOG.md already has a section for {new}")
    body = text.split(UNRELEASED, 1)[1].split("\n## [", 1)[0]
    if not re.search(r"^- ", body, re.M):
        raise ReleaseError("the changelog's Unreleased section lists nothing: nothing to release")
    changelog.write_text(text.replace(UNRELEASED, f"{UNRELEASED}\n\n## [{new}] - {day}", 1))
    citation = root / "CITATION.cff"
    if citation.exists():
        cff = citation.read_text()
        cff = re.sub(r"^version: .*$", f'version: "{new}"', cff, count=1, flags=re.M)
        if re.search(r"^date-released: ", cff, re.M):
            cff = re.sub(r"^date-released: .*$", f'date-released: "{day}"', cff, count=1, flags=re.M)
        else:
            cff = cff.rstrip("\n") + f'\ndate-released: "{day}"\n'
        citation.write_text(cff)
    _set_version(root, new)


def dev(next_: str, root: Path = ROOT) -> None:
    """After a release: main names the version it works towards, with .dev0."""
    if not RELEASE.fullmatch(next_):
        raise ReleaseError(f"{next_!r} is not a version (X.Y.Z)")
    now = version(root)
    if DEV.fullmatch(now):
        raise ReleaseError(f"__version__ is already {now}")
    if not _later(next_, now) or next_ == now:
        raise ReleaseError(f"{next_} does not come after {now}")
    _set_version(root, f"{next_}.dev0")


def check(tag: str, root: Path = ROOT) -> str:
    """The checks before publishing; returns the version."""
    now = version(root)
    if tag != f"v{now}":
        raise ReleaseError(f"the tag {tag} is not v{now}, the package's version")
    if not RELEASE.fullmatch(now):
        raise ReleaseError(f"{now} is not a release version (X.Y.Z)")
    dated = rf"^## \[{re.escape(now)}\] - \d{{4}}-\d{{2}}-\d{{2}}$"
    if not re.search(dated, (root / "CHANGELOG.md").read_text(), re.M):
        raise ReleaseError(f"CHANGELOG.md has no dated section '## [{now}] - YYYY-MM-DD'")
    citation = root / "CITATION.cff"
    if citation.exists() and not re.search(rf'^version: "?{re.escape(now)}"?$', citation.read_text(), re.M):
        raise ReleaseError(f"CITATION.cff does not say version {now}")
    return now


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    steps = parser.add_subparsers(dest="step", required=True)
    steps.add_parser("cut", help="make main's dev version a release").add_argument("version")
    steps.add_parser("dev", help="after a release, the next version with .dev0").add_argument("version")
    steps.add_parser("check", help="the release workflow's checks of a tag").add_argument("tag")
    steps.add_parser("show", help="print the version")
    args = parser.parse_args()
    try:
        if args.step == "cut":
            cut(args.version)
        elif args.step == "dev":
            dev(args.version)
        elif args.step == "check":
            check(args.tag)
        print(version())
    except ReleaseError as error:
        raise SystemExit(f"release: {error}") from None


if __name__ == "__main__":
    main()
