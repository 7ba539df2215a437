"""The tests' own layout: pytest imports each test module by its file name alone (the folders are not packages),
so two test files of one name in two folders break the collection of the whole suite."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def test_every_test_module_has_a_name_of_its_own():
    where = defaultdict(list)
    for path in TESTS.rglob("*.py"):
        if path.name != "__init__.py" and path.name != "conftest.py":
            where[path.name].append(str(path.relative_to(TESTS)))
    twice = {name: paths for name, paths in where.items() if len(paths) > 1}
    assert not twice, f"give these test files names of their own: {twice}"
