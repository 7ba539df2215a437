"""`millebornes review`: a finished match's review as a table in words (English or French) or as JSON, its
progress on stderr, and clear refusals of what cannot be reviewed."""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys

import pytest
from typer.testing import CliRunner

import millebornes as mb
from millebornes.bots import make_bot
from millebornes.cards import CARD_IDS
from millebornes.cli import app
from millebornes.review import decisions, review
from millebornes.tui.review_text import check_review
from millebornes.tui.words import Words

runner = CliRunner()
WORLDS = 8
# the engine's notation: "play 25", "discard roll", "play flat-tire 1", "take-discard"
NOTATION = re.compile(r"\b(?:play|discard) (?:{})\b|take-discard|end-hand".format("|".join(map(re.escape, CARD_IDS))))


def played(rules: str, seed: int, players: int = 2) -> dict:
    g = mb.new_game(rules, players=players, seed=seed)
    bots = [make_bot("medium", seed=1), make_bot("easy", seed=2)] * 2
    while not g.is_over:
        g.act(bots[g.to_act].choose(g.observation(g.to_act), g.legal_actions()))
    return g.record()


@pytest.fixture(scope="module")
def match(tmp_path_factory) -> tuple[str, dict, dict]:
    """A short finished dujardin match between medium and easy, its file, and its review at WORLDS worlds."""
    record = played("dujardin", 3)
    path = tmp_path_factory.mktemp("review") / "match.json"
    path.write_text(json.dumps(record))
    return str(path), record, review(record, worlds=WORLDS)


def said(record: dict, index: int, action: str, lang: str = "en") -> str:
    """An action at ``index`` in words, as the replay says it."""
    game = mb.replay(record, upto=index)
    top = game.discard_pile[-1] if game.discard_pile else None
    return Words(lang, game.players, game.teams, None).action(action, top)


def invoke(*args: str):
    return runner.invoke(app, ["review", *args, "--workers", "1"])


def test_the_table_names_every_marked_move_in_words(match):
    path, record, expected = match
    result = invoke(path, "--budget", str(WORLDS), "--lang", "en")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith(f"Review of the match: Dujardin, 2 players, {WORLDS} worlds a decision (seed 0)")
    assert not NOTATION.search(out), NOTATION.search(out)
    rows = {line.split()[0] + line.split()[1]: line for line in out.splitlines() if line.startswith(" Seat ")}
    for s in expected["summary"]:
        row = rows[f"Seat{s['seat'] + 1}"].split()
        assert row[2:] == [f"{s['accuracy']:.1f}", str(s["judged"]), *(str(n) for n in s["counts"].values())]
    marked = [m for m in expected["moves"] if m["class"] in ("inaccuracy", "mistake", "blunder")]
    assert marked, "the test match should have a marked move at this budget"
    lines = out.split("Inaccuracies, mistakes and blunders")[1].split("Key moments")[0].splitlines()
    for m in marked:
        line = next(line for line in lines if line.split()[:1] == [str(m["index"] + 1)])
        assert f"Seat {m['seat'] + 1}" in line and m["class"].capitalize() in line
        assert said(record, m["index"], m["played"]) in line and line.rstrip().endswith(
            said(record, m["index"], m["best"])
        )
        assert f"{round(100 * m['best_chance'])}% → {round(100 * m['chance'])}%" in line
    why = " ".join(out.split("Why the better move is better")[1].split("Key moments")[0].split())
    for m in marked:  # why each better move is better, by move number, the chances left to the table above
        reason = Words("en", 2, False, None).why(m["reason"], shown=("chance",))
        assert f"{m['index'] + 1} {' '.join(reason.split())}" in why, (reason, why)
    moments = out.split("Key moments")[1].splitlines()[2:]
    key = sorted((k["index"], s["seat"]) for s in expected["summary"] for k in s["key_moments"])
    assert [line.split()[:3] for line in moments] == [[str(i + 1), "Seat", str(seat + 1)] for i, seat in key]
    for line, (i, _) in zip(moments, key):
        move = next(m for m in expected["moves"] if m["index"] == i)
        assert said(record, i, move["played"]) in line and line.endswith(move["class"].capitalize())


def test_json_is_the_review_and_a_pool_changes_nothing(match):
    path, record, _ = match
    alone = invoke(path, "--budget", "5", "--seed", "4", "--json")
    assert alone.exit_code == 0
    assert json.loads(alone.stdout) == review(record, worlds=5, seed=4)
    pooled = runner.invoke(app, ["review", path, "--budget", "5", "--seed", "4", "--json", "--workers", "2"])
    assert pooled.exit_code == 0 and json.loads(pooled.stdout) == json.loads(alone.stdout)


def test_seats_choose_whom_to_review(match):
    path, record, _ = match
    one = json.loads(invoke(path, "--budget", "4", "--seats", "1", "--json").stdout)
    assert one["seats"] == [1] and {m["seat"] for m in one["moves"]} == {1}
    assert one == review(record, seats=[1], worlds=4)
    table = invoke(path, "--budget", "4", "--seats", "1").stdout
    assert " Seat 2 " in table and " Seat 1 " not in table.split("Inaccuracies")[0]


def test_a_classic_match_shows_its_hands(tmp_path):
    record = played("classic", 5)
    path = tmp_path / "classic.json"
    path.write_text(json.dumps(record))
    result = invoke(str(path), "--budget", "3")
    assert result.exit_code == 0
    assert "Classic, 2 players" in result.stdout
    header = next(line for line in result.stdout.splitlines() if line.lstrip().startswith("Move "))
    assert header.split()[:3] == ["Move", "Hand", "Who"]


def test_in_french(match):
    path, record, expected = match
    out = invoke(path, "--budget", str(WORLDS), "--lang", "fr").stdout
    assert out.startswith(f"Analyse de la partie\u00a0: Dujardin à 2, {WORLDS} mondes par décision")
    for word in (
        "Précision",
        "Place 1",
        "Place 2",
        "Imprécisions, erreurs et gaffes",
        "Moments clés",
        "Mieux valait",
        "Chances de la manche",
    ):
        assert word in out, word
    m = next(m for m in expected["moves"] if m["class"] in ("inaccuracy", "mistake", "blunder"))
    assert said(record, m["index"], m["played"], "fr") in out
    assert f"{round(100 * m['chance'])}\u202f%" in out
    assert not re.search(r"\b(?:Seat|Review|Accuracy|Best|Blunder|Mistake|Discard|Play)\b", out)


def test_what_cannot_be_reviewed_is_refused_clearly(match, tmp_path):
    path, record, _ = match
    unfinished = dict(record, actions=record["actions"][:10])
    (tmp_path / "live.json").write_text(json.dumps(unfinished))
    (tmp_path / "junk.json").write_text("{not json")
    (tmp_path / "list.json").write_text("[1, 2]")
    cases = [
        ([str(tmp_path / "none.json")], "cannot read"),
        ([str(tmp_path / "junk.json")], "is not a game record"),
        ([str(tmp_path / "list.json")], "is not a game record"),
        ([str(tmp_path / "live.json")], "only a finished match is reviewed"),
        ([path, "--seats", "2"], "the seats to review are numbers from 0 to 1"),
        ([path, "--seats", "one"], "not one"),
        ([path, "--seats", ","], "the seats to review"),
        ([path, "--budget", "1"], "from 2 to 5000: not 1"),
        ([path, "--budget", "100000"], "from 2 to 5000: not 100000"),
    ]
    for args, words in cases:
        result = invoke(*args, "--lang", "en")
        assert result.exit_code == 2, (args, result.output)
        assert "Error: " in result.output and words in result.output, (args, result.output)
        assert "Traceback" not in result.output and isinstance(result.exception, SystemExit), args
        assert result.stdout == "", args
    french = invoke(str(tmp_path / "live.json"), "--lang", "fr")
    assert french.exit_code == 2 and "seule une partie terminée s’analyse" in french.output


def test_the_progress_bar_goes_to_a_terminal_on_stderr_never_to_stdout(match):
    """With stderr a terminal (a pty), the bar is drawn there while stdout holds the JSON alone."""
    path, record, _ = match
    controller, terminal = os.openpty()
    env = {**os.environ, "COLUMNS": "100"}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "millebornes",
            "review",
            path,
            "--budget",
            "4",
            "--json",
            "--workers",
            "1",
            "--lang",
            "en",
        ],
        stdout=subprocess.PIPE,
        stderr=terminal,
        env=env,
    )
    os.close(terminal)
    drawn = b""
    while True:
        ready, _, _ = select.select([controller], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(controller, 4096)
        except OSError:  # the command closed its end
            break
        if not chunk:
            break
        drawn += chunk
    out = proc.communicate(timeout=60)[0]
    os.close(controller)
    assert proc.returncode == 0
    assert json.loads(out) == review(record, worlds=4)
    text = drawn.decode()
    total = len(decisions(record)[0])
    assert "Reviewing" in text and f"{total}/{total}" in text and "100%" in text, text


def test_a_review_is_checked_against_its_record(match):
    """What the replay reads of a loaded review is there and agrees with the record."""
    _, record, expected = match
    assert check_review(expected, record)
    assert check_review(review(record, seats=[1], worlds=3), record)
    m = expected["moves"][0]
    spoiled = [
        dict(expected, format="something else"),
        dict(expected, seats=[0, 1, 2]),
        dict(expected, moves=[dict(m, index=len(record["actions"]))]),
        dict(expected, moves=[dict(m, seat=1 - m["seat"])]),
        dict(expected, moves=[dict(m, best="play 30")]),
        dict(expected, moves=[dict(m, best=["draw"])]),
        dict(expected, moves=[dict(m, chance="high")]),
        dict(expected, summary=[dict(expected["summary"][0], key_moments=[{"index": -1, "swing": 0.1}])]),
        dict(expected, summary=[dict(expected["summary"][0], counts={})]),
        {k: v for k, v in expected.items() if k != "budget"},
    ]
    for bad in spoiled:
        assert not check_review(bad, record), bad


def test_replay_refuses_a_review_of_another_record(match, tmp_path):
    path, record, expected = match
    other = dict(expected, moves=[dict(m, played="draw") for m in expected["moves"]])
    (tmp_path / "other.json").write_text(json.dumps(other))
    (tmp_path / "junk.json").write_text("nope")
    for name in ("other.json", "junk.json"):
        result = runner.invoke(app, ["replay", path, "--review", str(tmp_path / name), "--lang", "en"])
        assert result.exit_code == 2 and f"{tmp_path / name} is not a review of this record" in result.output
    bad = runner.invoke(app, ["replay", path, "--budget", "0", "--lang", "en"])
    assert bad.exit_code == 2 and "from 2 to 5000: not 0" in bad.output
