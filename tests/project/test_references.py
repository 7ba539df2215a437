"""What the code and the docs point a reader to exists: a file named ``web/...`` and a docstring's
``:mod:``/``:class:``/``:meth:``/``:func:``/``:attr:`` reference of the web wing.  A newcomer follows these to find the
file for a change; a move that leaves one behind sends them nowhere."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
WEB = SRC / "millebornes" / "web"

FILE = re.compile(r"(?<![\w/.])web/([\w/]+\.(?:py|js|css|html))")
REFERENCE = re.compile(r":(mod|class|meth|func|attr|data):`~?([.\w]+)`")


def _readable() -> list[Path]:
    places = [*SRC.rglob("*.py"), *(ROOT / "docs").rglob("*.md"), *(ROOT / "tests").rglob("*.py")]
    places += [*(SRC / "millebornes" / "i18n").glob("*.po"), *(WEB / "static" / "js").rglob("*.js")]
    places += [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "Makefile"]
    return [p for p in places if p != Path(__file__).resolve()]  # its own examples name files that are gone


def missing_files(places: list[Path]) -> dict[str, list[str]]:
    """Each place's ``web/...`` paths that name no file of the web wing."""
    out: dict[str, list[str]] = {}
    for place in places:
        for m in FILE.finditer(place.read_text()):
            if not (WEB / m.group(1)).exists():
                key = place.relative_to(ROOT) if place.is_relative_to(ROOT) else place
                out.setdefault(str(key), []).append(m.group(0))
    return out


def _module_of(path: Path) -> list[str]:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def resolves(reference: str, kind: str, package: list[str]) -> bool:
    """Whether a reference, relative to ``package`` or absolute, names a module of the wing and, past the module, a
    name that module defines."""
    if reference.startswith("."):
        dots = len(reference) - len(reference.lstrip("."))
        parts = package[: len(package) - (dots - 1)] + reference.lstrip(".").split(".")
    else:
        parts = reference.split(".")
    for cut in range(len(parts), 0, -1):
        where = SRC.joinpath(*parts[:cut])
        source = where.with_suffix(".py") if where.with_suffix(".py").is_file() else where / "__init__.py"
        if not source.is_file():
            continue
        rest = parts[cut:]
        if not rest:
            return True
        if kind == "mod":
            return False
        name = re.escape(rest[0])
        defined = (
            rf"^\s*(?:async def|def|class)\s+{name}\b|^\s*{name}\s*[:=]|self\.{name}\s*[:=]|^\s*{name},|\b{name}\b,? ="
        )
        return re.search(defined, source.read_text(), re.M) is not None
    return False


def unresolved(paths: list[Path]) -> list[str]:
    out = []
    for path in paths:
        module = _module_of(path)
        package = module if path.name == "__init__.py" else module[:-1]
        for m in REFERENCE.finditer(path.read_text()):
            kind, reference = m.groups()
            if (reference.startswith(".") or reference.startswith("millebornes.web")) and not resolves(
                reference, kind, package
            ):
                out.append(f"{path.relative_to(ROOT)}: {m.group(0)}")
    return out


def test_every_web_file_named_exists():
    assert missing_files(_readable()) == {}


def test_every_reference_of_the_web_wing_resolves():
    assert unresolved(sorted(WEB.rglob("*.py"))) == []


def test_the_checks_catch_what_they_look_for(tmp_path):
    moved = tmp_path / "moved.md"
    moved.write_text("see web/store.py and web/tables/room.py")
    assert missing_files([moved]) == {str(moved): ["web/store.py"]}
    tables = ["millebornes", "web", "tables"]
    assert resolves(".room.Room", "class", tables) and resolves("..db.database.Database.notice", "meth", tables)
    assert not resolves(".room.Nobody", "class", tables)
    assert not resolves(".store.Store.get", "meth", tables)
    assert not resolves(".room.Room", "mod", tables)
