"""The compiled engine (mypyc, setup.py) is the pure-Python engine, only faster.

The same games are played by both: the sources copied without their extension modules run in a
subprocess, and must give the same records, hand results and search statistics as the compiled
package.  The compiled modules' doctests run here from their sources (pytest cannot collect them
beside an extension module).
"""

from __future__ import annotations

import doctest
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import millebornes as mb

SRC = Path(mb.__file__).parent

SCRIPT = r"""
import json, random, sys
import millebornes as mb
from millebornes.bots.rollout import play_out
from millebornes.bots.ismcts import Search

out = {"compiled": mb.compiled(), "games": [], "searches": []}
for name, players, teams in (("classic", 2, None), ("classic", 4, True), ("dujardin", 3, None),
                             ("parker", 2, None), ("family", 4, None)):
    for seed in range(3):
        g = mb.new_game(name, players=players, teams=teams, seed=seed)
        rng = random.Random(seed)
        policy = "random" if seed == 2 else "greedy"
        while not g.is_over:
            play_out(g, rng, policy)
        out["games"].append({"record": g.record(), "results": g.hand_results})
        g = mb.new_game(name, players=players, teams=teams, seed=seed)
        for _ in range(15):
            g.act(g.legal_actions()[0])
        search = Search(g.observation(g.to_act), seed=seed, widen=8 if seed else 0)
        search.run(iterations=120)
        out["searches"].append([search.stats(), search.worlds, mb.determinize(g.observation(g.to_act),
                                random.Random(seed)).record()])
json.dump(out, sys.stdout)
"""


def _run(pythonpath: Path | None) -> dict:
    env = dict(os.environ)
    if pythonpath is not None:  # the pure copy, chosen: MILLEBORNES_PURE keeps its warning out
        env.update(PYTHONPATH=str(pythonpath), MILLEBORNES_PURE="1")
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_install_compiles_the_engine_unless_told_not_to():
    assert mb.compiled() is (os.environ.get("MILLEBORNES_PURE", "0") in ("", "0"))


def test_compiled_and_pure_engines_play_the_same_games(tmp_path):
    shutil.copytree(SRC, tmp_path / "millebornes", ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    pure = _run(tmp_path)
    here = _run(None)
    assert pure["compiled"] is False
    assert here["compiled"] is mb.compiled()
    assert len(pure["games"]) == 15 and any(len(g["results"]) > 1 for g in pure["games"])
    assert here["games"] == pure["games"]
    assert here["searches"] == pure["searches"]


def test_doctests_of_the_compiled_modules_pass_from_their_sources():
    """Each source is loaded as a sibling module of its package, so its imports are the package's."""
    sources = [Path(p) for p in mb._compiled_sources()]
    assert bool(sources) is mb.compiled()
    for path in sources:
        text = path.read_text(encoding="utf-8")
        if ">>> " not in text:
            continue
        package = ".".join(path.relative_to(SRC.parent).parent.parts)
        spec = importlib.util.spec_from_file_location(f"{package}._source_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert (path.name, failed, attempted) == (path.name, 0, text.count(">>> "))


WARNED = """import warnings
warnings.simplefilter("always")
import millebornes as mb
import millebornes.bots, millebornes.state
print(mb.compiled())
"""


def test_the_pure_engine_warns_once_on_import_unless_chosen(tmp_path):
    """Where the engine is pure and nobody asked for it, one warning, naming the line that imported millebornes and
    how to get the compiled engine: pip's way for an install, make's in a checkout (a setup.py beside src/)."""
    shutil.copytree(
        SRC, tmp_path / "src" / "millebornes", ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__")
    )
    env = {k: v for k, v in os.environ.items() if k != "MILLEBORNES_PURE"}
    env["PYTHONPATH"] = str(tmp_path / "src")

    def run(**extra: str) -> subprocess.CompletedProcess:
        done = subprocess.run([sys.executable, "-c", WARNED], capture_output=True, text=True, env={**env, **extra})
        assert done.returncode == 0 and done.stdout.strip() == "False", done.stderr
        return done

    installed = run().stderr
    assert installed.count("PureEngineWarning") == 1, installed
    assert installed.startswith("<string>:3: PureEngineWarning: millebornes runs its pure Python engine"), installed
    assert "pip install --force-reinstall" in installed and "make build" not in installed
    checkout = "setup.py"  # beside src/, as in a clone (a name, not the checkout's own file)
    (tmp_path / checkout).write_text("")
    cloned = run().stderr
    assert cloned.count("PureEngineWarning") == 1 and "run `make build`" in cloned, cloned
    assert run(MILLEBORNES_PURE="1").stderr == ""
