"""The `millebornes` command: rules in words and random simulations."""

import json
import subprocess
import sys

from typer.testing import CliRunner

import millebornes as mb
from millebornes.cli import app

runner = CliRunner()


def test_rules_prints_every_option_of_an_edition():
    result = runner.invoke(app, ["rules", "parker"])
    assert result.exit_code == 0
    out = result.output
    assert out.startswith("parker:")
    for option in mb.RULESETS["parker"].options():
        if option not in ("solo_players", "team_players", "teams_by_default", "extension_target", "extension_players"):
            assert f"  {option} " in out, option
    assert "no hazard on a hazard" in out
    assert "the discard pile is dead" in out


def test_rules_without_argument_lists_all_editions_and_refuses_unknown():
    result = runner.invoke(app, ["rules"])
    assert result.exit_code == 0
    for name in mb.RULESETS:
        assert f"\n{name}: " in "\n" + result.output
    bad = runner.invoke(app, ["rules", "monopoly"])
    assert bad.exit_code != 0
    assert "no ruleset 'monopoly'" in bad.output


def test_simulate_summary_is_reproducible_and_consistent():
    args = ["simulate", "--ruleset", "dujardin", "--players", "3", "--games", "20", "--seed", "5", "--json"]
    first = json.loads(runner.invoke(app, args).output)
    second = json.loads(runner.invoke(app, args).output)
    first.pop("seconds"), second.pop("seconds")
    assert first == second
    assert first["hands"] == 20  # dujardin is one race
    assert abs(sum(first["win_shares"]) - 1) < 1e-9
    assert first["decisions_per_hand"] > 10


def test_simulate_text_and_bad_player_count():
    ok = runner.invoke(app, ["simulate", "-r", "classic", "-p", "4", "-n", "3", "-s", "1"])
    assert ok.exit_code == 0
    assert "side 1 win share" in ok.output and "side 2" not in ok.output
    bad = runner.invoke(app, ["simulate", "-r", "family", "-p", "7", "-n", "1"])
    assert bad.exit_code != 0
    assert "not 7 alone" in bad.output


def test_console_script_entry_point_runs():
    proc = subprocess.run(
        [sys.executable, "-m", "millebornes.cli", "rules", "family"], capture_output=True, text=True, check=True
    )
    assert "family:" in proc.stdout


def test_python_dash_m_is_the_command():
    """``python -m millebornes`` runs the same command, under its own name, with the one version."""

    def run(*args):
        return subprocess.run([sys.executable, "-m", "millebornes", *args], capture_output=True, text=True, timeout=60)

    version = run("--version")
    assert version.returncode == 0 and version.stdout.split() == ["millebornes", mb.__version__]
    rules = run("rules", "dujardin")
    assert rules.returncode == 0 and rules.stdout == runner.invoke(app, ["rules", "dujardin"]).output
    assert "Usage: millebornes " in run("--help").stdout
    bad = run("rules", "monopoly")
    assert bad.returncode != 0 and "no ruleset 'monopoly'" in bad.stderr + bad.stdout


def test_the_version_says_when_the_engine_is_pure(monkeypatch):
    """The compiled engine adds nothing to the version line; a pure one a second line: which, and how to get the
    compiled one."""
    monkeypatch.setattr(mb, "compiled", lambda: True)
    assert runner.invoke(app, ["--version"]).output == f"millebornes {mb.__version__}\n"
    monkeypatch.setattr(mb, "compiled", lambda: False)
    lines = runner.invoke(app, ["--version"]).output.splitlines()
    assert lines[0] == f"millebornes {mb.__version__}" and len(lines) == 2
    assert lines[1].startswith("engine: pure Python (slower); for the compiled engine, ")
    assert mb._pure_advice() in lines[1]


def test_the_version_has_one_home():
    """pyproject.toml reads the version from the package, so the two cannot disagree."""
    import tomllib
    from importlib.metadata import version
    from pathlib import Path

    pyproject = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    assert "version" in pyproject["project"]["dynamic"] and "version" not in pyproject["project"]
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "millebornes.__version__"}
    assert version("millebornes") == mb.__version__


def test_play_and_replay_speak_the_players_language(tmp_path):
    """What `play` and `replay` say to a player comes from the message catalog: --lang, else LC_ALL/LANG."""
    bad = runner.invoke(app, ["play", "--ruleset", "monopoly", "--lang", "fr"])
    assert bad.exit_code == 2 and "Erreur\u00a0: l’édition monopoly n’existe pas" in bad.output
    env = {"LC_ALL": "", "LC_MESSAGES": "", "LANG": "fr_FR.UTF-8"}
    players = runner.invoke(app, ["play", "--players", "5"], env=env)
    assert players.exit_code == 2 and "Classique ne se joue pas à 5" in players.output
    assert "is not played by 5 players" in runner.invoke(app, ["play", "--players", "5"], env={"LANG": "C"}).output
    assert "wizard n’est pas un type de joueur" in runner.invoke(app, ["play", "--bots", "wizard"], env=env).output
    missing = runner.invoke(app, ["play", "--resume", "--save", str(tmp_path / "none.json")], env=env)
    assert missing.exit_code == 2 and "aucune partie enregistrée" in missing.output
    assert "choose the language with --lang en or --lang fr" in runner.invoke(app, ["play", "--lang", "de"]).output

    game = mb.new_game("classic", players=2, seed=3)
    game.act(game.legal_actions()[0])
    record = game.record()
    record["actions"].append("extend")  # no extension is asked
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    refused = runner.invoke(app, ["replay", str(path), "--lang", "fr"])
    assert refused.exit_code == 2 and "le coup 2 de cet enregistrement est interdit" in refused.output
    reason = runner.invoke(app, ["replay", str(path), "--lang", "en"]).output
    assert "move 2 of this record is not allowed (not now: you must" in reason and "extend" not in reason
    (tmp_path / "junk.json").write_text("[1, 2]")
    assert (
        "n’est pas l’enregistrement d’une partie"
        in runner.invoke(app, ["replay", str(tmp_path / "junk.json")], env=env).output
    )
