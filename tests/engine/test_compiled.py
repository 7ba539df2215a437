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
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_install_compiles_the_engine_unless_told_not_to():
    assert mb.compiled() is not bool(os.environ.get("MILLEBORNES_PURE"))


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
