"""Test a built wheel as a user gets it: install it with the extras and tools of the public API's short suite, check
that it runs compiled (a platform wheel) or pure (``py3-none-any``), then run the suite against it.

    python tools/wheel_test.py dist/millebornes-1.0.0-py3-none-any.whl

The release workflow (.github/workflows/release.yml) runs it on the pure wheel and on the wheel built from the sdist;
cibuildwheel tests the compiled wheels the same way, from [tool.cibuildwheel] in pyproject.toml, whose extras and
requirements this reads so that every wheel is tested alike. The suite is pytest's arguments file
tests/short_suite.txt, run from this checkout against the installed wheel. It installs into the Python that runs it:
use a fresh environment.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUITE = "tests/short_suite.txt"
"""The short suite, relative to the checkout (the paths in it are too)."""


def suite_settings() -> dict:
    """The extras and requirements the wheels' tests install, and the environment they run in ([tool.cibuildwheel])."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["cibuildwheel"]
    return {
        "extras": list(config["test-extras"]),
        "requires": list(config["test-requires"]),
        "environment": dict(config.get("test-environment", {})),
    }


def is_pure(wheel: Path) -> bool:
    """A wheel for any platform carries the engine as Python; any other is compiled."""
    return wheel.name.endswith("-py3-none-any.whl")


def commands(wheel: Path) -> list[list[str]]:
    """The install, the check that the installed engine is the wheel's kind, and the suite."""
    settings = suite_settings()
    requirement = f"millebornes[{','.join(settings['extras'])}] @ {wheel.as_uri()}"
    expected = not is_pure(wheel)
    check = (
        "import millebornes, sys; compiled = millebornes.compiled(); "
        f"sys.exit(0 if compiled is {expected} else f'millebornes.compiled() is {{compiled}}, not {expected}')"
    )
    return [
        [sys.executable, "-m", "pip", "install", requirement, *settings["requires"]],
        [sys.executable, "-c", check],
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "auto", f"@{SUITE}"],
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("wheel", type=Path, help="the wheel to install and test")
    args = parser.parse_args(argv)
    wheel = args.wheel.resolve()
    if wheel.suffix != ".whl" or not wheel.is_file():
        parser.error(f"{args.wheel} is not a wheel file")
    env = {k: v for k, v in os.environ.items() if k != "MILLEBORNES_PURE"} | suite_settings()["environment"]
    if is_pure(wheel):
        env["MILLEBORNES_PURE"] = "1"  # tests/engine/test_compiled.py then expects the pure engine
    for command in commands(wheel):
        print("+", " ".join(command), flush=True)
        done = subprocess.run(command, cwd=ROOT, env=env)
        if done.returncode:
            return done.returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
