"""Build the documentation site (zensical.toml) with Zensical into site/, strictly: `make docs` runs this.

Zensical's ``--strict`` fails the build on a link to a page or heading that is not there and on a reference the API
pages cannot find, but a warning of the reference's reader (Griffe: a documented parameter the signature lacks, a
docstring it cannot parse) is only printed. So any line the build prints, but its own progress lines, fails it
here too. ``--clean`` drops Zensical's cache (.cache/): a page taken from it would not print its warnings again.

Usage: ``python tools/build_docs.py [PROJECT]`` (the folder of zensical.toml; this checkout by default).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROGRESS = re.compile(r"(Build started|No issues found|Build finished in [\d.]+\s?[mµn]?s)")
"""The lines a build that found nothing to say prints."""
_COLOUR = re.compile(r"\x1b\[[0-9;]*m")
TIMEOUT = 600
"""Seconds a build may take (about 3 on an idle machine)."""


def faults(output: str, returncode: int) -> list[str]:
    """What fails a build: its exit status, and each line it printed but its progress lines.

    >>> faults("Build started\\nNo issues found\\nBuild finished in 2.47s\\n", 0)
    []
    >>> faults("Build started\\ngriffe: src/x.py:3: No type or annotation for parameter 'y'\\n", 0)
    ["griffe: src/x.py:3: No type or annotation for parameter 'y'"]
    >>> faults("", 1)
    ['the build exited with status 1']
    """
    found = [f"the build exited with status {returncode}"] if returncode else []
    for line in _COLOUR.sub("", output).splitlines():
        if line.strip() and not PROGRESS.fullmatch(line.strip()):
            found.append(line.rstrip())
    return found


def build(project: Path = ROOT) -> tuple[str, list[str]]:
    """Build the site of ``project`` (its zensical.toml) into its site/: what the build printed, and its faults."""
    command = [sys.executable, "-m", "zensical", "build", "--strict", "--clean"]
    try:
        done = subprocess.run(command, cwd=project, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired as stuck:
        output = _COLOUR.sub("", _text(stuck.stdout) + _text(stuck.stderr))
        return output, [*faults(output, 0), f"the build did not end within {TIMEOUT} s"]
    output = _COLOUR.sub("", done.stdout + done.stderr)
    return output, faults(output, done.returncode)


def _text(captured: bytes | str | None) -> str:
    return captured.decode("utf-8", "replace") if isinstance(captured, bytes) else captured or ""


def main(argv: list[str]) -> int:
    project = Path(argv[0]) if argv else ROOT
    output, found = build(project)
    if found:
        print(output, file=sys.stderr)
        print(f"The documentation site failed to build cleanly ({len(found)} lines):", file=sys.stderr)
        for line in found:
            print(f"  {line}", file=sys.stderr)
        return 1
    print(output.strip())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
