"""uv.lock and constraints.txt: the universal lock and what pip installs from it.

uv.lock is the source of truth for exact versions: one resolution for every supported Python and platform, with
the hashes of every file. pip cannot read it, so constraints.txt (what ``make`` and CI install with, as
``PIP_CONSTRAINT``) is exported from it, without hashes (pip would then demand one for the package itself).

    python tools/lock.py            resolve afresh (the newest versions the ranges allow), then export
    python tools/lock.py --keep     follow pyproject.toml's changes, keeping every locked version that still fits
    python tools/lock.py --check    fail when uv.lock does not match pyproject.toml, or constraints.txt not uv.lock

uv comes with the dev group (``make test`` installs it); ``make lock`` runs the first form.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONSTRAINTS = ROOT / "constraints.txt"
HEADER = """\
# The exact versions make run, make test and CI install (PIP_CONSTRAINT), for every supported Python and platform.
# Exported from uv.lock by tools/lock.py (make lock): edit pyproject.toml's ranges, never this file.
"""
EXPORT = [
    "export",
    "--frozen",
    "--all-extras",
    "--all-groups",
    "--no-emit-project",
    "--no-hashes",
    "--no-header",
    "--format",
    "requirements-txt",
    "--quiet",
]


def uv() -> str:
    """The uv beside this Python (the project's venv), else the one on PATH."""
    beside = Path(sys.executable).parent / "uv"
    found = str(beside) if beside.exists() else shutil.which("uv")
    if not found:
        raise SystemExit("uv is missing: it comes with the dev group (make test), or `pip install uv`")
    return found


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([uv(), *args], cwd=ROOT, capture_output=True, text=True)


def exported() -> str:
    done = run(*EXPORT)
    if done.returncode:
        raise SystemExit(f"uv export failed:\n{done.stderr}")
    return HEADER + done.stdout


def stale() -> list[str]:
    """What is out of date, in words; empty when both files are current."""
    problems = []
    checked = run("lock", "--check")
    if checked.returncode:
        problems.append(f"uv.lock does not match pyproject.toml (python tools/lock.py --keep):\n{checked.stderr}")
    elif CONSTRAINTS.read_text() != exported():
        problems.append("constraints.txt is not what uv.lock exports (python tools/lock.py --keep)")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--keep", action="store_true", help="keep the locked versions that still fit")
    how.add_argument("--check", action="store_true", help="fail when uv.lock or constraints.txt is stale")
    args = parser.parse_args()
    if args.check:
        problems = stale()
        print("\n".join(problems) or "uv.lock and constraints.txt are current")
        raise SystemExit(1 if problems else 0)
    locked = run("lock", *([] if args.keep else ["--upgrade"]))
    sys.stderr.write(locked.stderr)
    if locked.returncode:
        raise SystemExit(locked.returncode)
    CONSTRAINTS.write_text(exported())


if __name__ == "__main__":
    main()
