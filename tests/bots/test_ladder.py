"""The ladder the pickers show (issue 27): only the levels that beat the one below clearly are offered, by the
web's API and new tables, the terminal's setup screen and the CLI; tables saved with another level still play.
A ladder per table (issue 41): each table offers the levels measured there; a table not measured shows two-player
classic's and says so.

The other tests run on a ladder where every level is offered (tests/conftest.py); these point
``MILLEBORNES_LADDER`` at the measured file (bots/ladder.json) or at a made-up ladder (tests/ladders.py).
"""

from __future__ import annotations

import json
import os
import random
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from millebornes.bots import LEVELS, SEARCHING_LEVELS, fixed_budget, make_bot
from millebornes.bots.ladder import (
    FALLBACK,
    LADDER_FILE,
    default_level,
    ladder,
    measured_at,
    offered_levels,
    standing,
    table_of,
)
from millebornes.rules import RULESETS
from tests.ladders import FOUR_IN_TEAMS_RATE, every_level_ladder, gap_ladder, tables_ladder

BIN = Path(sys.executable).parent / "millebornes"


@pytest.fixture
def use_ladder(tmp_path, monkeypatch):
    """Point the ladder at a file: the measured one (None) or a made-up one (a dict)."""

    def use(data: list | dict | None) -> None:
        path = LADDER_FILE
        if data is not None:
            path = tmp_path / "ladder.json"
            path.write_text(json.dumps(data))
        monkeypatch.setenv("MILLEBORNES_LADDER", str(path))
        ladder.cache_clear()

    yield use
    ladder.cache_clear()


@pytest.fixture
def gap(use_ladder):
    use_ladder(gap_ladder())
    return list(LEVELS)[1]


def test_the_measured_ladder_offers_the_lowest_level_and_each_offered_level_beat_one_below(use_ladder):
    use_ladder(None)
    offered = offered_levels()
    assert offered and offered[0] == next(iter(LEVELS)) and standing(offered[0]) is None
    assert default_level() == (offered[1] if len(offered) > 1 else offered[0])
    for lower, level in zip(offered, offered[1:]):
        step = standing(level)
        assert step["below"] == lower and step["rate"] > 0.5 and step["matches"] > 0
        assert step["in_ten"] == round(10 * step["rate"])
    assert all(standing(level) is None for level in LEVELS if level not in offered)


def test_the_measured_file_is_a_list_of_tables_with_two_player_classic_among_them():
    with open(LADDER_FILE) as f:
        tables = json.load(f)
    assert isinstance(tables, list) and tables
    keys = [(t["ruleset"], t["players"], t["teams"]) for t in tables]
    assert FALLBACK in keys and len(set(keys)) == len(keys)
    for t in tables:
        assert set(t) == {"ruleset", "players", "teams", "offered", "pairs", "commands"}
        assert RULESETS[t["ruleset"]].allows(t["players"], t["teams"]) and t["offered"][0] == next(iter(LEVELS))


def test_a_level_that_did_not_earn_its_place_is_not_offered(gap):
    levels = list(LEVELS)
    assert offered_levels() == [levels[0]] + levels[2:] and gap not in offered_levels()
    assert standing(gap) is None and standing(levels[2])["below"] == levels[0]
    assert default_level() == levels[2]


# ------------------------------------------------------------------ a ladder per table
def test_a_table_measured_on_its_own_offers_its_own_levels_and_figures(use_ladder):
    use_ladder(tables_ladder())
    levels = list(LEVELS)
    for teams in (True, None):  # None: the edition's default for four players, teams
        assert measured_at("classic", 4, teams) and offered_levels("classic", 4, teams) == levels[:2]
        assert default_level("classic", 4, teams) == levels[1]
        assert standing(levels[1], "classic", 4, teams) == {
            "below": levels[0],
            "rate": FOUR_IN_TEAMS_RATE,
            "in_ten": round(10 * FOUR_IN_TEAMS_RATE),
            "matches": 60,
            "table": ("classic", 4, True),
        }
        assert standing(levels[2], "classic", 4, teams) is None
    assert table_of("classic", 4) == ("classic", 4, True) and table_of("dujardin", 4) == ("dujardin", 4, False)
    assert table_of("classic", 3) == ("classic", 3, False)
    # two-player classic keeps its own
    assert measured_at() and offered_levels() == levels and standing(levels[2])["table"] == FALLBACK


def test_a_table_not_measured_shows_two_player_classic_and_says_so(use_ladder):
    from millebornes.i18n import catalog
    from millebornes.i18n.words import standing_line

    use_ladder(tables_ladder())
    levels = list(LEVELS)
    for table in (("classic", 3, None), ("classic", 6, True), ("dujardin", 2, None), ("family", 2, False)):
        assert not measured_at(*table)
        assert offered_levels(*table) == offered_levels() and default_level(*table) == default_level()
        assert standing(levels[1], *table) == standing(levels[1])
        for lang in ("en", "fr"):
            cat = catalog(lang)
            line = standing_line(lang, levels[1], *table)
            assert line == cat.t("level.elsewhere", standing=standing_line(lang, levels[1]))
            assert standing_line(lang, levels[0], *table) == standing_line(lang, levels[0])  # no figure, no note
    assert "two-player Classic" in standing_line("en", levels[1], "classic", 3)
    assert standing_line("en", levels[1], "classic", 4) == standing_line("en", levels[1], "classic", 4, True)
    assert "Classic" not in standing_line("en", levels[1], "classic", 4)
    assert standing_line("en", levels[2], "classic", 4) == ""  # not offered there


def test_without_a_file_only_the_lowest_level_is_offered_and_one_table_of_the_old_format_is_read(
    use_ladder, tmp_path, monkeypatch
):
    lowest = next(iter(LEVELS))
    monkeypatch.setenv("MILLEBORNES_LADDER", str(tmp_path / "none.json"))
    ladder.cache_clear()
    assert offered_levels() == offered_levels("classic", 4) == [lowest] == [default_level()]
    assert not measured_at() and standing(lowest) is None
    old = dict(every_level_ladder()[0])
    del old["teams"]  # the file before tables: one object, two-player classic, no teams
    use_ladder(old)
    assert measured_at() and offered_levels() == offered_levels("family", 2) == list(LEVELS)


# ------------------------------------------------------------------ the web
@pytest.mark.parametrize("which", ["measured", "gap"])
def test_the_api_lists_the_offered_levels_with_their_standing(web, use_ladder, which):
    use_ladder(None if which == "measured" else gap_ladder())
    data = web.start().get("/api/editions").json()
    assert [entry["level"] for entry in data["levels"]] == offered_levels()
    assert data["default_level"] == default_level()
    for entry in data["levels"]:
        step = standing(entry["level"])
        assert entry == {"level": entry["level"], **({k: v for k, v in step.items() if k != "table"} if step else {})}


def test_a_new_table_with_a_level_not_offered_is_refused_and_nothing_is_made(web, gap):
    client = web.start()
    human, offered = {"kind": "human"}, offered_levels()
    for body, field in (
        ({"seats": [human, {"kind": "bot", "level": gap}]}, "level"),
        ({"seats": [human, human], "standin": gap}, "standin"),
    ):
        r = client.post("/api/tables", json={"ruleset": "classic", "players": 2, **body})
        assert r.status_code == 422 and r.json()["field"] == field, r.text
        assert gap in r.json()["detail"] and all(level in r.json()["detail"] for level in offered)
    with sqlite3.connect(web.url.removeprefix("sqlite:///")) as db:
        assert not web.hall.rooms and db.execute("SELECT COUNT(*) FROM tables").fetchone() == (0,)
    made = web.create(seats=[human, {"kind": "bot"}])  # a bot without a level: the default, an offered one
    assert made["seats"][1]["level"] == default_level()
    assert client.get(f"/api/tables/{made['id']}").json()["standin"] == default_level()


def test_a_table_saved_with_a_level_no_longer_offered_still_plays(web, gap, tmp_path):
    from millebornes.web.db.base import now
    from millebornes.web.db.database import Database
    from millebornes.web.tables.repo import Tables
    from millebornes.web.tables.rows import SavedSeat, SavedTable
    from millebornes.web.tokens import hash_token, new_token

    secret = new_token()
    store = Tables(Database(web.url, "NORMAL"))
    try:
        store.create(
            SavedTable(
                id="old",
                ruleset="classic",
                options={},
                players=2,
                teams=False,
                seed=5,
                deck=None,
                cf_timeout=0.05,
                status="waiting",
                created=now(),
                standin_level=gap,
                seats=[
                    SavedSeat(0, "human", token_hash=hash_token(secret)),
                    SavedSeat(1, "bot", level=gap, joined=True),
                ],
            )
        )
    finally:
        store.db.close()
    client = web.start()
    assert client.get("/api/tables/old").json()["standin"] == gap
    ann = web.join({"id": "old", "seats": [{"seat": 0, "url": f"/t/old#seat=0&token={secret}"}]}, 0)
    web.play_random([ann], random.Random(2), stop=lambda state: state["seq"] >= 12)
    assert ann.state["seq"] >= 12  # the bot of the old level played its turns between Ann's


# ------------------------------------------------------------------ the terminal and the command line
def test_the_setup_screen_cycles_the_offered_levels_and_says_their_standing(gap):
    pytest.importorskip("textual")
    import asyncio

    from millebornes.tui.app import MilleBornesApp
    from millebornes.tui.words import standing_line

    app = MilleBornesApp(None, pace=0)
    offered = offered_levels()

    def text() -> str:
        return " ".join("\n".join(strip.text for strip in app.screen._compositor.render_strips()).split())

    async def go():
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert app.screen.kinds[0] == default_level()
            await pilot.press("down", "down")  # seat 2
            seen = []
            for _ in range(len(offered) + 1):
                seen.append(app.screen.kinds[0])
                if seen[-1] == "human":
                    assert not any(standing_line("en", level) in text() for level in offered), text()
                else:
                    assert standing_line("en", seen[-1]) in text(), text()
                await pilot.press("right")
            start = offered.index(default_level())
            assert seen == (offered[start:] + ["human"] + offered[:start])
            assert gap not in seen

    asyncio.run(go())


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_levels_command_prints_the_offered_levels_and_their_standing(gap, lang):
    from millebornes.i18n import catalog
    from millebornes.tui.words import standing_line

    out = subprocess.run([str(BIN), "levels", "--lang", lang], capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    assert lines == [standing_line(lang, level) for level in offered_levels()]
    cat = catalog(lang)
    assert lines[0] == cat.t("level.lowest", level=cat.t(f"level.{offered_levels()[0]}"))
    step = standing(offered_levels()[1])
    assert cat.n("level.matches", step["matches"]) in lines[1] and cat.t(f"level.{gap}") not in out
    help_text = subprocess.run(
        [str(BIN), "play", "--help"], capture_output=True, text=True, check=True, env={**os.environ, "COLUMNS": "300"}
    ).stdout
    assert ", ".join(offered_levels()) + " (millebornes levels)" in help_text


# ------------------------------------------------------------------ a ladder per table: the apps
def test_the_api_gives_each_table_its_ladder(web, use_ladder):
    use_ladder(tables_ladder())
    data = web.start().get("/api/editions")
    assert "max-age" in data.headers["cache-control"]
    eds = {e["name"]: e for e in data.json()["editions"]}
    levels = list(LEVELS)
    for name, ed in eds.items():
        rules = RULESETS[name]
        tables = [(t["players"], t["teams"]) for t in ed["ladders"]]
        assert tables == [(n, teams) for n in ed["players"] for teams in (False, True) if rules.allows(n, teams)]
        for t in ed["ladders"]:
            table = (name, t["players"], t["teams"])
            assert t["measured"] == measured_at(*table) and t["default_level"] == default_level(*table)
            assert [entry["level"] for entry in t["levels"]] == offered_levels(*table)
    four = next(t for t in eds["classic"]["ladders"] if t["players"] == 4)
    assert four["teams"] and four["measured"] and [e["level"] for e in four["levels"]] == levels[:2]
    assert four["levels"][1] == {"level": levels[1], "below": levels[0], "rate": 0.6, "in_ten": 6, "matches": 60}
    three = next(t for t in eds["classic"]["ladders"] if t["players"] == 3)
    assert not three["measured"] and three["levels"] == data.json()["levels"]
    assert len(data.content) < 20_000  # small: every page that sets up a table loads it


def test_a_new_table_with_a_level_not_offered_at_its_table_is_refused(web, use_ladder):
    use_ladder(tables_ladder())
    client = web.start()
    levels, human = list(LEVELS), {"kind": "human"}
    four = {"ruleset": "classic", "players": 4}
    for body, field in (
        ({**four, "seats": [human, *[{"kind": "bot", "level": levels[2]}] * 3]}, "level"),
        ({**four, "teams": True, "seats": [human] * 4, "standin": levels[2]}, "standin"),
    ):
        r = client.post("/api/tables", json=body)
        assert r.status_code == 422 and r.json()["field"] == field, r.text
        assert "classic, 4 players in teams" in r.json()["detail"] and ", ".join(levels[:2]) in r.json()["detail"]
    # the same level at two-player classic, or at three players (not measured: two-player classic's ladder)
    web.create(seats=[human, {"kind": "bot", "level": levels[2]}], standin=levels[2])
    web.create(players=3, seats=[human, human, {"kind": "bot", "level": levels[2]}])
    # without a level, a bot and the stand-in get the table's default level
    made = web.create(**four, seats=[human, {"kind": "bot"}, human, human])
    assert made["seats"][1]["level"] == default_level("classic", 4) == levels[1]
    assert client.get(f"/api/tables/{made['id']}").json()["standin"] == levels[1]


def test_the_levels_command_and_play_take_the_table(use_ladder):
    from millebornes.i18n.words import standing_line

    use_ladder(tables_ladder())
    levels = list(LEVELS)

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(BIN), *args, "--lang", "en"], capture_output=True, text=True)

    four = run("levels", "--players", "4").stdout.splitlines()
    assert (
        four
        == run("levels", "-p", "4", "--teams").stdout.splitlines()
        == [standing_line("en", level, "classic", 4) for level in levels[:2]]
    )
    three = run("levels", "--ruleset", "dujardin", "--players", "3").stdout.splitlines()
    assert three == [standing_line("en", level, "dujardin", 3) for level in levels]
    assert all("two-player Classic" in line for line in three[1:]) and "Classic" not in three[0]
    bad = run("levels", "--players", "5")
    assert bad.returncode == 2 and "5" in bad.stderr and not bad.stdout
    refused = run("play", "--players", "4", "--bots", f"{levels[1]},{levels[2]}")
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert f"the level {levels[2]} is not offered at this table: choose {', '.join(levels[:2])}" in refused.stderr
    assert "millebornes levels --ruleset classic --players 4 --teams" in refused.stderr


def test_the_setup_screen_offers_the_levels_of_the_table_being_set_up(use_ladder):
    pytest.importorskip("textual")
    import asyncio

    from millebornes.tui.app import MilleBornesApp
    from millebornes.tui.words import standing_line

    use_ladder(tables_ladder())
    levels = list(LEVELS)
    app = MilleBornesApp(None, pace=0)

    def text() -> str:
        return " ".join("\n".join(strip.text for strip in app.screen._compositor.render_strips()).split())

    async def go():
        async with app.run_test(size=(110, 34)) as pilot:
            await pilot.pause()
            screen = app.screen
            await pilot.press("down", "down", "right")  # seat 2: the level above the default, at two players
            assert screen.kinds[0] == levels[2]
            await pilot.press("up", "right", "right")  # four players, in teams: that level is not offered there
            assert (screen.players, screen.teams) == (4, True)
            assert screen.kinds[:3] == [levels[1]] * 3
            await pilot.press("down")  # seat 2 (classic has no teams row: four players always play in teams)
            assert screen.rows()[screen.row] == "seat1", screen.rows()
            assert standing_line("en", levels[1], "classic", 4, True) in text(), text()
            seen = []
            for _ in range(3):
                await pilot.press("right")
                seen.append(screen.kinds[0])
            assert seen == ["human", levels[0], levels[1]]
            await pilot.press("up", "left")  # three players: not measured, two-player classic's ladder
            assert screen.players == 3
            await pilot.press("down")
            assert "two-player Classic" in text(), text()

    asyncio.run(go())


def test_the_bench_writes_only_its_table_and_its_levels(tmp_path, monkeypatch):
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_ladder", Path(__file__).parents[2] / "bench" / "ladder.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    path = tmp_path / "ladder.json"
    old = dict(every_level_ladder()[0], commands=["old"])
    del old["teams"]
    path.write_text(json.dumps(old))  # the format before tables
    monkeypatch.setattr(bench, "LADDER_FILE", str(path))
    monkeypatch.setattr(sys, "argv", ["ladder.py", "--players", "4"])
    levels = list(LEVELS)
    pair = {"level": levels[1], "below": levels[0], "matches": 10, "rate": 0.8, "earned": True}
    tables = bench.written([pair], ("classic", 4, True))
    assert [bench.key(t) for t in tables] == [("classic", 2, False), ("classic", 4, True)]
    assert tables[0]["pairs"] == old["pairs"] and tables[0]["commands"] == ["old"]
    assert tables[1]["offered"] == levels[:2] and tables[1]["commands"] == ["python bench/ladder.py --players 4"]
    path.write_text(json.dumps(tables))
    monkeypatch.setattr(sys, "argv", ["ladder.py", "--levels", f"{levels[1]},{levels[2]}"])
    lost = {"level": levels[2], "below": levels[1], "matches": 10, "rate": 0.4, "earned": False}
    again = bench.written([lost], ("classic", 2, False))
    assert again[1] == tables[1]  # the other table is left alone
    assert again[0]["offered"] == levels[:2] and len(again[0]["pairs"]) == len(old["pairs"])
    assert [p["rate"] for p in again[0]["pairs"]] == [0.7, 0.4, 0.7]  # only the level measured changed
    assert bench.table_name(("classic", 6, True)) == "classic, 6 players in teams"
    assert bench.markdown([dict(lost, score=4, ci_low=0.1, ci_high=0.7, elo_gap=-70)], ("dujardin", 2, False))


def test_a_fixed_budget_replaces_the_clock_of_a_searching_level_only():
    for level in SEARCHING_LEVELS:
        spec = fixed_budget(level, 123)
        assert "ms=" not in spec and "iterations=123" in spec
        bot = make_bot(spec, 0)
        assert (bot.iterations, bot.ms) == (123, 0)
        assert spec.replace("iterations=123,", "") == re.sub(r"ms=\d+,", "", LEVELS[level])
    assert fixed_budget("medium", 123) == LEVELS["medium"]
    assert fixed_budget("ismcts:iterations=5,ms=9,c=1", 50) == "ismcts:iterations=50,c=1"
    with pytest.raises(ValueError, match="playouts"):
        fixed_budget("hard", 0)


def test_the_bench_plays_the_searching_levels_on_a_budget_in_proportion_to_their_time():
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_ladder", Path(__file__).parents[2] / "bench" / "ladder.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.entrant("hard", 0) == "hard" and bench.entrant("medium", 700) == "medium"
    assert make_bot(bench.entrant("hard", 700), 0).iterations == 700
    assert make_bot(bench.entrant("expert", 700), 0).iterations == 700 * 30
    pair = {"level": "hard", "below": "medium", "matches": 10, "score": 6, "rate": 0.6, "playouts": 700}
    row = bench.markdown([dict(pair, ci_low=0.3, ci_high=0.8, elo_gap=70, earned=False)], ("classic", 3, False))
    assert "`hard` (700 playouts)" in row
