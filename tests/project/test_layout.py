"""The tests' own layout: every folder of tests/ that holds Python is a package, so pytest imports each test module
by its dotted path (``tests.web.tables.test_undo``) and two folders may hold files of one name; a folder without an
``__init__.py`` would import its modules by their file names alone again, and one name twice would break the
collection of the whole suite.  tests/web mirrors the web wing: a folder under it is named as a package of
src/millebornes/web, and its files drop the ``test_web_`` prefix the flat folder once needed."""

from __future__ import annotations

from pathlib import Path

import millebornes
from tests.conftest import WINGS

TESTS = Path(__file__).resolve().parents[1]
WEB = Path(millebornes.__file__).resolve().parent / "web"


def not_packages(tests: Path) -> list[str]:
    """The folders of ``tests`` (itself included) that hold Python files but no ``__init__.py``."""
    folders = {path.parent for path in tests.rglob("*.py") if "__pycache__" not in path.parts}
    return sorted(str(f.relative_to(tests.parent)) for f in folders if not (f / "__init__.py").exists())


def not_mirrored(tests_web: Path, web: Path) -> list[str]:
    """The folders under ``tests_web`` that are no package of ``web`` (its folder of the same relative path has no
    ``__init__.py``), and the files named as the flat folder once needed."""
    wrong = []
    for path in sorted(tests_web.rglob("*")):
        if "__pycache__" in path.parts:
            continue
        where = path.relative_to(tests_web)
        if path.is_dir() and not (web / where / "__init__.py").exists():
            wrong.append(f"{where}/ is no package of {web.name}/")
        elif path.name.startswith("test_web_"):
            wrong.append(f"{where} repeats the folder's name (drop test_web_)")
    return wrong


def test_every_folder_of_tests_is_a_package():
    assert not not_packages(TESTS), f"add an __init__.py to: {not_packages(TESTS)}"


def test_tests_web_mirrors_the_web_wing():
    wrong = not_mirrored(TESTS / "web", WEB)
    assert not wrong, f"tests/web's folders are src/millebornes/web's packages: {wrong}"


def test_each_folder_of_tests_with_tests_is_a_wing():
    """conftest.py marks each test with its top folder's name; a folder it does not know would leave its tests
    unmarked, out of every ``-m`` selection of wings."""
    holding = {path.relative_to(TESTS).parts[0] for path in TESTS.rglob("test_*.py")}
    assert holding <= set(WINGS), f"name these folders in tests/conftest.py's WINGS: {holding - set(WINGS)}"


def test_the_checks_catch_what_they_look_for(tmp_path):
    tests, web = tmp_path / "tests", tmp_path / "web"
    for folder in (tests / "web" / "tables", tests / "web" / "loose", web / "tables", web / "loose"):
        folder.mkdir(parents=True)
    for package in (tests, tests / "web", tests / "web" / "tables", web, web / "tables"):
        (package / "__init__.py").write_text("")
    (tests / "web" / "tables" / "test_room.py").write_text("")
    (tests / "web" / "test_web_app.py").write_text("")
    (tests / "web" / "loose" / "test_x.py").write_text("")
    (tests / "data").mkdir()
    (tests / "data" / "skill.json").write_text("{}")  # data, no Python: no package needed
    assert not_packages(tests) == ["tests/web/loose"]
    assert not_mirrored(tests / "web", web) == [
        "loose/ is no package of web/",
        "test_web_app.py repeats the folder's name (drop test_web_)",
    ]
    (tests / "web" / "loose" / "__init__.py").write_text("")
    (web / "loose" / "__init__.py").write_text("")
    (tests / "web" / "test_web_app.py").rename(tests / "web" / "test_app.py")
    assert not_packages(tests) == [] and not_mirrored(tests / "web", web) == []
