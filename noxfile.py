"""The older Pythons: on each, the wheel is built and installed into a fresh environment, and the public API's
tests (the engine, bots, notation, tournaments, environments, the bot protocol) run against that installed
wheel: the short suite (``-m "not slow and not ray"``; the one Ray test runs on the default Python, the newest).
``make test`` runs these after the full suite on the default Python.

3.11's session also runs the learning example's test (MaskablePPO, the learn extra): the CPU build of torch that
this machine keeps is for 3.11 alone, and any other Python would download a CUDA build of several GB.

Interpreters are found on PATH as ``python3.11``/``python3.12``, or else in pyenv's versions (whose shims do not
run a version that is not selected), so ``nox`` works on a machine where only pyenv has them.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import nox

PYTHONS = ["3.11", "3.12"]
LEARN_PYTHON = "3.11"
LEARN_TESTS = ["tests/research/test_learn_example.py", "tests/research/test_baseline.py"]
ROOT = Path(__file__).parent
CONSTRAINTS = str(ROOT / "constraints.txt")
SHORT_SUITE = "@tests/short_suite.txt"
"""The public API's tests and their markers: pytest's arguments file (paths from the checkout, where nox runs), which
the release workflow's wheel tests read too ([tool.cibuildwheel] in pyproject.toml, tools/wheel_test.py)."""
EXTRAS = "cli,rl,plot"
NOT_BUILT = (".git", ".venv", ".nox", "node_modules", "site", "build", "dist", "*.egg-info", "*.so", "__pycache__")
NOT_BUILT += (".*_cache", ".hypothesis")
"""What the copy built from leaves out: environments, caches (which the full suite writes meanwhile) and earlier
builds' products."""

nox.options.sessions = ["api"]
nox.options.error_on_missing_interpreters = True
nox.options.default_venv_backend = "venv"


def _runs(python: str) -> bool:
    try:
        return subprocess.run([python, "-c", ""], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def _interpreters_on_path() -> None:
    """Put a link to each wanted interpreter pyenv holds on PATH when PATH has none that runs."""
    links = Path(tempfile.mkdtemp(prefix="millebornes-nox-"))
    root = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    for version in PYTHONS:
        name = f"python{version}"
        found = shutil.which(name)
        if found and _runs(found):
            continue
        candidates = sorted(glob.glob(os.path.join(root, "versions", f"{version}.*", "bin", name)))
        if candidates:
            (links / name).symlink_to(candidates[-1])
    os.environ["PATH"] = f"{links}{os.pathsep}{os.environ.get('PATH', '')}"


_interpreters_on_path()


@nox.session(python=PYTHONS)
def api(session: nox.Session) -> None:
    """Build the wheel with this Python, install it bare plus the extras the tests need, run the short suite."""
    tmp = Path(session.create_tmp())
    dist, source = tmp / "dist", tmp / "source"
    shutil.rmtree(dist, ignore_errors=True)
    shutil.rmtree(source, ignore_errors=True)
    # a copy of the checkout of its own: the build writes build/ and the egg-info beside the sources, and the
    # sessions of the two Pythons run at once (make test)
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*NOT_BUILT))
    session.install("-c", CONSTRAINTS, "build", "setuptools", "mypy")
    session.run("python", "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist), str(source))
    (wheel,) = dist.glob("millebornes-*.whl")
    learn = session.python == LEARN_PYTHON
    if learn:
        session.install("-c", CONSTRAINTS, "torch==2.13.0")
    extras = f"{EXTRAS},learn" if learn else EXTRAS
    session.install("-c", CONSTRAINTS, f"{wheel}[{extras}]", "pytest", "pytest-xdist", "hypothesis")
    # the tests import the installed wheel, not src/: confirm it is the compiled one before trusting them
    session.run("python", "-c", "import millebornes as mb, sys; sys.exit(0 if mb.compiled() else 'not compiled')")
    session.run("python", "-m", "pytest", "-p", "no:cacheprovider", "-n", "2", SHORT_SUITE, *session.posargs)
    if learn and not session.posargs:
        # after the short suite, not beside it: its training keeps both cores busy, and the suite's timed waits (a
        # bot process's hello within 30 s) are not meant to race it
        session.run("python", "-m", "pytest", "-p", "no:cacheprovider", *LEARN_TESTS)
