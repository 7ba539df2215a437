"""Collection: where the engine is compiled (setup.py), pytest cannot import a compiled module's source
for its doctests; tests/engine/test_compiled.py runs those doctests from the source instead."""

from __future__ import annotations

from pathlib import Path

import millebornes

_COMPILED = {Path(p) for p in millebornes._compiled_sources()}


def pytest_ignore_collect(collection_path: Path, config) -> bool | None:
    return True if collection_path in _COMPILED else None
