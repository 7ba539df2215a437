"""uv.lock is the universal lock and constraints.txt is exported from it (tools/lock.py): both must match what
pyproject.toml asks, or the versions CI installs are not the ones anybody resolved. The check asks the package
registry (uv resolves for every Python and platform); a stale copy of the project shows that it catches each fault."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LOCK_TOOL = REPO / "tools" / "lock.py"
# what uv needs to read the project's metadata (its version is read from the package)
PROJECT_FILES = ["pyproject.toml", "setup.py", "README.md", "LICENSE", "uv.lock", "constraints.txt", "tools/lock.py"]


def check(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(root / "tools" / "lock.py"), "--check"], capture_output=True, text=True, timeout=600
    )


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    for name in PROJECT_FILES:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / name, tmp_path / name)
    (tmp_path / "src" / "millebornes").mkdir(parents=True)
    shutil.copy(REPO / "src" / "millebornes" / "__init__.py", tmp_path / "src" / "millebornes" / "__init__.py")
    return tmp_path


def test_the_lock_and_the_constraints_are_current():
    done = check(REPO)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "current" in done.stdout


def test_a_dependency_added_without_locking_is_caught(copy: Path):
    pyproject = copy / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace('"pytest>=8.3",', '"pytest>=8.3",\n    "six>=1.16",', 1))
    done = check(copy)
    assert done.returncode == 1 and "uv.lock does not match pyproject.toml" in done.stdout, done.stdout


def test_a_hand_edited_constraint_is_caught(copy: Path):
    constraints = copy / "constraints.txt"
    text = constraints.read_text()
    edited = re.sub(r"^numpy==[^\s;]+", "numpy==2.0.0", text, count=1, flags=re.M)
    assert edited != text
    constraints.write_text(edited)
    done = check(copy)
    assert done.returncode == 1 and "constraints.txt is not what uv.lock exports" in done.stdout, done.stdout


def test_the_lock_covers_every_supported_python_and_platform():
    lock = (REPO / "uv.lock").read_text()
    assert re.search(r'^requires-python = ">=3\.11"$', lock, flags=re.M)
    # one resolution for all: no `environments` narrowing it to this machine's Python or platform
    assert "environments" not in lock.split("[[package]]")[0]
    numpy = lock.split('\nname = "numpy"\n', 1)[1].split("[[package]]", 1)[0]
    wheels = re.findall(r"numpy-[^/]+?-(cp3\d+)-cp3\d+t?-([a-z0-9_.]+)\.whl", numpy)
    tags = {tag for tag, _ in wheels}
    platforms = {platform.split("_")[0] for _, platform in wheels}
    assert {"cp311", "cp312", "cp313", "cp314"} <= tags, tags
    assert {"manylinux", "musllinux", "macosx", "win"} <= platforms, platforms
    assert 'hash = "sha256:' in numpy
