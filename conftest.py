"""Collection: where the engine is compiled (setup.py), pytest cannot import a compiled module's source
for its doctests; tests/test_compiled.py runs those doctests from the source instead."""

from __future__ import annotations

import importlib.machinery
from pathlib import Path


def pytest_ignore_collect(collection_path: Path, config) -> bool | None:
    if collection_path.suffix == ".py":
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            if collection_path.with_name(collection_path.stem + suffix).exists():
                return True
    return None
