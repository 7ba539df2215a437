"""The package as people install it: ``python -m build`` makes an sdist and a wheel from this checkout,
and each is installed into a fresh virtual environment outside the repository and used from there; so are the
wheels ``make dist`` makes (tools/dist.py): the compiled one made manylinux by auditwheel, for this Python only,
and the pure-Python one, built from the sdist.

This is what catches a file the package needs but does not carry (the pages' static files, the
network's weights), since the tests proper run on the source tree.  Slow (builds, installs
from the package registry), so marked ``slow``; CI runs it.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

import millebornes
from millebornes.__main__ import EXTRA_OF
from millebornes.web.db.schema import HEAD
from millebornes.web.pages.assets import snapshot

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
CONSTRAINTS = REPO / "constraints.txt"


def _dist_tool():
    """tools/dist.py, the script of ``make dist``: the tests build and check wheels as it does."""
    spec = importlib.util.spec_from_file_location("millebornes_dist_tool", REPO / "tools" / "dist.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


tools = _dist_tool()


def run(*cmd, cwd: Path, env: dict | None = None, timeout: float = 600) -> str:
    done = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, (
        f"{' '.join(map(str, cmd))} failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
    return done.stdout


def fresh_venv(where: Path) -> Path:
    """A virtual environment that sees nothing of this checkout or of the test run's environment."""
    run(sys.executable, "-m", "venv", where, cwd=where.parent)
    return where / "bin"


def clean_env(**extra) -> dict:
    """The test run's environment without what points at this checkout; installs take the locked versions."""
    env = {k: v for k, v in os.environ.items() if k not in tools.NOT_INHERITED}
    env["PIP_CONSTRAINT"] = str(CONSTRAINTS)
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    """The sdist, and the wheel built from it, which must hold the compiled engine (a failed compile fails)."""
    out = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "build", "--outdir", out, REPO, cwd=out, env=clean_env(MILLEBORNES_REQUIRE_COMPILED="1"))
    return out


@pytest.fixture(scope="module")
def manylinux(dist, tmp_path_factory) -> Path:
    """The wheel made a manylinux one as make dist makes it (auditwheel): what PyPI gets for this platform."""
    return tools.repair(only(dist, "millebornes-*.whl"), tmp_path_factory.mktemp("manylinux"))


def only(folder: Path, pattern: str) -> Path:
    found = sorted(folder.glob(pattern))
    assert len(found) == 1, f"{pattern} in {folder}: {found}"
    return found[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=10) as resp:
        return resp.status, resp.read()


# a match between two bots, then the top-level packages that importing and playing pulled in
BARE_MATCH = """
import json, sys
import millebornes as mb
from millebornes.bots import make_bot

game = mb.new_game("classic", players=2, seed=11)
bots = [make_bot("heuristic", seed=1), make_bot("random", seed=2)]
while not game.is_over:
    seat = game.to_act
    game.act(bots[seat].choose(game.observation(seat), game.legal_actions()))
print(json.dumps({"winners": game.winners, "modules": sorted({name.partition(".")[0] for name in sys.modules})}))
"""


def test_the_bare_wheel_plays_a_match_and_pulls_in_no_extra(dist, tmp_path):
    wheel = only(dist, "millebornes-*.whl")
    metadata = zipfile.ZipFile(wheel).read(f"millebornes-{millebornes.__version__}.dist-info/METADATA").decode()
    core = [line for line in metadata.splitlines() if line.startswith("Requires-Dist:") and "extra ==" not in line]
    assert [line.split(":", 1)[1].strip() for line in core] == ["numpy>=2.0"], "the core install is numpy alone"
    assert not [
        line for line in metadata.splitlines() if line.startswith("Requires-Dist:") and "==" in line.split(";")[0]
    ], "an exact pin in the package's requirements: pins belong in constraints.txt"
    assert "License-Expression: MIT" in metadata
    for extra in ("cli", "tui", "web", "rl", "openspiel", "ray", "plot", "learn", "all"):
        assert f"Provides-Extra: {extra}" in metadata

    bin_ = fresh_venv(tmp_path / "venv")

    def packages() -> set[str]:
        listed = run(bin_ / "python", "-m", "pip", "list", "--format", "json", cwd=tmp_path, env=clean_env())
        return {package["name"].lower() for package in json.loads(listed)}

    before = packages()
    run(bin_ / "python", "-m", "pip", "install", "-q", wheel, cwd=tmp_path, env=clean_env())
    assert packages() - before == {"millebornes", "numpy"}, packages() - before

    played = json.loads(run(bin_ / "python", "-c", BARE_MATCH, cwd=tmp_path, env=clean_env()))
    assert played["winners"] and set(played["winners"]) <= {0, 1}
    assert "millebornes" in played["modules"] and "numpy" in played["modules"]
    assert not set(played["modules"]) & set(EXTRA_OF), set(played["modules"]) & set(EXTRA_OF)

    # the command says which extra it lacks rather than printing a traceback
    done = subprocess.run(
        [bin_ / "millebornes", "--version"], cwd=tmp_path, env=clean_env(), capture_output=True, text=True
    )
    assert done.returncode == 1
    assert "pip install 'millebornes[cli]'" in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_the_manylinux_wheel_carries_the_compiled_engine_and_everything_it_serves(manylinux, tmp_path):
    wheel = manylinux
    assert wheel.name.startswith(f"millebornes-{millebornes.__version__}-")
    found = tools.inspect(wheel)
    abi = f"cp{sys.version_info.major}{sys.version_info.minor}"
    assert found.tag.startswith(f"{abi}-{abi}-") and "manylinux" in found.tag, found.tag
    assert found.extensions == tools.engine_modules(), "every module setup.py compiles, compiled"
    names = zipfile.ZipFile(wheel).namelist()
    for needed in (
        "millebornes/py.typed",
        f"millebornes-{millebornes.__version__}.dist-info/licenses/LICENSE",
        "millebornes/bots/neural_weights.npz",
        "millebornes/bots/ladder.json",
        "millebornes/web/static/table.html",
        "millebornes/web/static/js/table.js",
        "millebornes/web/static/css/app.css",
        "millebornes/web/db/migrations/versions/0001_first_schema.py",
        "millebornes/web/db/migrations/versions/0002_tables_touched.py",
        "millebornes/web/db/migrations/versions/0003_table_pace.py",
        "millebornes/web/db/migrations/versions/0004_table_casual.py",
        "millebornes/web/db/migrations/versions/0005_accounts.py",
        "millebornes/web/db/migrations/versions/0006_ratings.py",
        "millebornes/web/db/migrations/versions/0007_seat_stats.py",
        "millebornes/web/db/migrations/versions/0008_bot_accounts.py",
        "millebornes/web/static/bots.html",
        "millebornes/web/static/profile.html",
        "millebornes/web/static/account.html",
        "millebornes/schemas/protocol.schema.json",  # served by GET /api/schemas/NAME (setup.py copies docs/'s)
        "millebornes/schemas/observation.schema.json",
        "millebornes/schemas/bot-socket.schema.json",
    ):
        assert needed in names

    bin_ = fresh_venv(tmp_path / "venv")
    run(bin_ / "python", "-m", "pip", "install", "-q", f"{wheel}[web]", cwd=tmp_path, env=clean_env())
    where = run(
        bin_ / "python",
        "-c",
        "import millebornes as mb; print(mb.compiled(), mb.__version__, mb.__file__)",
        cwd=tmp_path,
        env=clean_env(),
    ).split()
    assert where[:2] == ["True", millebornes.__version__]
    assert Path(where[2]).is_relative_to(tmp_path / "venv"), where

    summary = json.loads(
        run(bin_ / "millebornes", "simulate", "--games", "5", "--seed", "3", "--json", cwd=tmp_path, env=clean_env())
    )
    assert summary["games"] == 5 and summary["hands"] >= 5
    assert run(bin_ / "python", "-m", "millebornes", "--version", cwd=tmp_path, env=clean_env()).split() == [
        "millebornes",
        millebornes.__version__,
    ]
    assert "--database-url" in run(bin_ / "millebornes", "serve", "--help", cwd=tmp_path, env=clean_env())
    # the schema's revisions ship in the wheel: an empty database is upgraded from the installed package
    assert (
        run(
            bin_ / "millebornes",
            "db",
            "upgrade",
            "--database-url",
            f"sqlite:///{tmp_path}/up.db",
            cwd=tmp_path,
            env=clean_env(),
        )
        .strip()
        .endswith(f"upgraded from revision none to {HEAD}")
    )
    # the network's weights: the neural bot plays
    table = run(
        bin_ / "millebornes",
        "tournament",
        "--bots",
        "neural,random",
        "--games",
        "2",
        "--hands",
        "--workers",
        "1",
        "--quiet",
        "--json",
        cwd=tmp_path,
        env=clean_env(),
    )
    rows = json.loads(table)["table"]
    assert {row["bot"] for row in rows} == {"neural", "random"} and all(row["forfeits"] == 0 for row in rows)

    port = free_port()
    server = subprocess.Popen(
        [
            bin_ / "millebornes",
            "serve",
            "--port",
            str(port),
            "--workers",
            "0",
            "--database-url",
            f"sqlite:///{tmp_path}/games.db",
        ],
        cwd=tmp_path,
        env=clean_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                status, page = get(base + "/")
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "the installed server did not start"
                time.sleep(0.2)
        assert status == 200 and b"<html" in page.lower()
        build = snapshot(Path(millebornes.__file__).parent / "web" / "static").id
        assert f'src="/static/{build}/js/home.js"'.encode() in page  # the wheel's files make the checkout's build
        for path in ("/static/js/table.js", "/static/js/cards.js", "/static/css/app.css", "/t/abc", "/replay/abc"):
            assert get(base + path)[0] == 200, path
        assert [e["name"] for e in json.loads(get(base + "/api/editions")[1])["editions"]] == list(millebornes.RULESETS)
    finally:
        server.send_signal(signal.SIGINT)
        out, _ = server.communicate(timeout=30)
    assert f"http://127.0.0.1:{port}/" in out and "Ctrl+C" in out


def test_the_sdist_installs_pure_python_where_no_compiler_works(dist, tmp_path):
    sdist = only(dist, "millebornes-*.tar.gz")
    members = tarfile.open(sdist).getnames()
    root = sdist.name[: -len(".tar.gz")]
    for needed in (
        "setup.py",
        "pyproject.toml",
        "constraints.txt",
        "LICENSE",
        "CHANGELOG.md",
        "README.md",
        "src/millebornes/state.py",
        "tests/conftest.py",
        "src/millebornes/web/static/js/board.js",
        "src/millebornes/bots/neural_weights.npz",
        "src/millebornes/bots/ladder.json",
        "src/millebornes/web/db/migrations/versions/0001_first_schema.py",
    ):
        assert f"{root}/{needed}" in members
    assert not [m for m in members if m.endswith((".so", ".c"))], "built files in the sdist"

    bin_ = fresh_venv(tmp_path / "venv")
    # a compiler that always fails: the build must fall back to pure Python, not fail, and say so in its log
    build = subprocess.run(
        [bin_ / "python", "-m", "pip", "install", "-v", f"{sdist}[cli]"],
        cwd=tmp_path,
        env=clean_env(CC="false"),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=600,
    )
    assert build.returncode == 0, build.stdout[-3000:]
    assert "millebornes: WARNING: the engine was not compiled" in build.stdout, build.stdout[-3000:]
    installed = "import millebornes as mb, importlib.metadata as m; print(mb.compiled(), m.distribution('millebornes').read_text('WHEEL'))"
    out = run(bin_ / "python", "-c", installed, cwd=tmp_path, env=clean_env())
    assert out.split()[0] == "False"
    assert "Tag: py3-none-any" in out and "Root-Is-Purelib: true" in out, "the fallback wheel is as pure as it is"
    summary = json.loads(run(bin_ / "millebornes", "simulate", "--games", "3", "--json", cwd=tmp_path, env=clean_env()))
    assert summary["games"] == 3


def test_a_required_compile_that_fails_fails_the_build(dist, tmp_path):
    """What make dist and the release's wheel builds set: no compiler, no wheel (never a pure one tagged for a
    platform)."""
    source = tools.unpack(only(dist, "millebornes-*.tar.gz"), tmp_path)
    env = clean_env(CC="false", MILLEBORNES_REQUIRE_COMPILED="1")
    done = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", tmp_path / "out", source],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode != 0
    assert "the engine did not compile (MILLEBORNES_REQUIRE_COMPILED)" in done.stdout + done.stderr
    assert not list((tmp_path / "out").glob("*.whl"))


# the pure engine, its warning counted over the whole process (shown every time it is warned), then a match
PURE_MATCH = """
import json, warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import millebornes as mb
    import millebornes.bots, millebornes.cli, millebornes.state
    from millebornes.bots import make_bot

    game = mb.new_game("classic", players=2, seed=11)
    bots = [make_bot("heuristic", seed=1), make_bot("random", seed=2)]
    while not game.is_over:
        seat = game.to_act
        game.act(bots[seat].choose(game.observation(seat), game.legal_actions()))
pure = [str(w.message) for w in caught if w.category is mb.PureEngineWarning]
print(json.dumps({"compiled": mb.compiled(), "winners": game.winners, "warned": pure}))
"""


def test_the_pure_wheel_plays_without_a_compiler_and_says_it_is_pure(dist, tmp_path):
    (tmp_path / "wheel").mkdir()
    wheel = tools.build_wheel(only(dist, "millebornes-*.tar.gz"), tmp_path / "wheel", tmp_path, pure=True)
    found = tools.inspect(wheel)
    assert found.tag == "py3-none-any" and not found.extensions

    bin_ = fresh_venv(tmp_path / "venv")
    # nothing to compile with: a compiler that fails and a PATH with no gcc or cc
    no_compiler = clean_env(CC="/bin/false", PATH=str(bin_))
    assert shutil.which("gcc", path=str(bin_)) is None and shutil.which("cc", path=str(bin_)) is None
    run(bin_ / "python", "-m", "pip", "install", "-q", f"{wheel}[cli]", cwd=tmp_path, env=no_compiler)

    played = json.loads(run(bin_ / "python", "-c", PURE_MATCH, cwd=tmp_path, env=no_compiler))
    assert played["compiled"] is False and played["winners"]
    assert len(played["warned"]) == 1, played["warned"]
    assert "pure Python engine" in played["warned"][0] and "C compiler" in played["warned"][0]
    # asked for deliberately: no warning
    chosen = json.loads(
        run(bin_ / "python", "-c", PURE_MATCH, cwd=tmp_path, env={**no_compiler, "MILLEBORNES_PURE": "1"})
    )
    assert chosen["compiled"] is False and chosen["warned"] == []

    done = subprocess.run(
        [bin_ / "millebornes", "--version"], cwd=tmp_path, env=no_compiler, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.splitlines()
    assert first == f"millebornes {millebornes.__version__}"
    assert second.startswith("engine: pure Python") and "C compiler" in second and "pip install" in second
    assert done.stderr.count("PureEngineWarning") == 1, done.stderr
