"""The environments where researchers look for them: Gymnasium ids registered by importing ``millebornes.env``,
a PettingZoo module per edition, and each passing its library's own checks."""

import importlib
import subprocess
import sys

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import millebornes as mb  # noqa: E402
import millebornes.env  # noqa: E402, F401 - registers the ids
from millebornes.env.registration import DEFAULT_ID, ENV_IDS  # noqa: E402

MODULES = ["classic_v0", "parker_v0", "dujardin_v0", "family_v0"]


@pytest.mark.parametrize("name", MODULES)
def test_each_edition_module_passes_pettingzoo_api_and_seed_tests(name):
    mod = importlib.import_module(f"millebornes.env.{name}")
    api_test(mod.env(), num_cycles=150)
    api_test(mod.raw_env(players=3, reward="hand"), num_cycles=150)
    seed_test(mod.env, num_cycles=150)
    assert mod.raw_env().metadata["name"] == name
    assert mod.env().metadata["render_fps"] > 0


def test_the_wrapped_env_ends_the_match_on_an_illegal_action():
    from millebornes.env import classic_v0

    env = classic_v0.env()
    env.reset(seed=1)
    obs, *_ = env.last()
    culprit = env.agent_selection
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert all(env.terminations.values())
    assert env.rewards[culprit] == -1 and sum(env.rewards.values()) == -1
    raw = classic_v0.raw_env()
    raw.reset(seed=1)
    with pytest.raises(mb.IllegalAction):
        raw.step(int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"] == 0)[0]))


def test_the_ids_name_every_table_of_every_edition():
    tables = {(k["ruleset"], k["players"], k["teams"]) for i, k in ENV_IDS.items() if i != DEFAULT_ID}
    want = {
        (name, n, teams)
        for name, r in mb.RULESETS.items()
        for teams, counts in ((False, r.solo_players), (True, r.team_players))
        for n in counts
    }
    assert tables == want
    assert len(tables) == len(ENV_IDS) - 1
    assert all(gymnasium.envs.registration.parse_env_id(i)[2] == 0 for i in ENV_IDS)  # every id is -v0


@pytest.mark.parametrize("env_id", sorted(ENV_IDS))
def test_every_id_makes_its_table_and_passes_check_env(env_id):
    env = gymnasium.make(env_id, opponents="random", seat="random")
    check_env(env.unwrapped, skip_render_check=True)
    env.reset(seed=3)
    game, table = env.unwrapped.game, ENV_IDS[env_id]
    assert (game.ruleset.name, game.players) == (table["ruleset"], table["players"])
    assert game.teams == bool(table.get("teams", game.ruleset.default_teams(game.players)))
    assert env.unwrapped.metadata["render_fps"] > 0
    env.close()


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_importing_the_package_registers_the_ids():
    out = _run(
        "import gymnasium, millebornes.env\n"
        "env = gymnasium.make('millebornes/Family-5p-v0', opponents='random')\n"
        "print(env.unwrapped.game is None, env.unwrapped.players)"
    )
    assert out.split() == ["True", "5"]


def test_the_package_imports_without_gymnasium_or_pettingzoo():
    out = _run(
        "import sys\n"
        "sys.modules['gymnasium'] = sys.modules['pettingzoo'] = None  # as if not installed\n"
        "import millebornes.env\n"
        "from millebornes.env.registration import ENV_IDS\n"
        "print('millebornes/Classic-2p-v0' in ENV_IDS, type(sys.modules['gymnasium']).__name__)"
    )
    assert out.split() == ["True", "NoneType"]
