"""The ladder the pickers show (issue 27): only the levels that beat the one below clearly are offered, by the
web's API and new tables, the terminal's setup screen and the CLI; tables saved with another level still play.

The other tests run on a ladder where every level is offered (tests/conftest.py); these point
``MILLEBORNES_LADDER`` at the measured file (bots/ladder.json) or at a made-up ladder with a gap.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from ladders import gap_ladder

from millebornes.bots import LEVELS
from millebornes.bots.ladder import LADDER_FILE, default_level, ladder, offered_levels, standing

BIN = Path(sys.executable).parent / "millebornes"


@pytest.fixture
def use_ladder(tmp_path, monkeypatch):
    """Point the ladder at a file: the measured one (None) or a made-up one (a dict)."""

    def use(data: dict | None) -> None:
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


def test_a_level_that_did_not_earn_its_place_is_not_offered(gap):
    levels = list(LEVELS)
    assert offered_levels() == [levels[0]] + levels[2:] and gap not in offered_levels()
    assert standing(gap) is None and standing(levels[2])["below"] == levels[0]
    assert default_level() == levels[2]


# ------------------------------------------------------------------ the web
@pytest.mark.parametrize("which", ["measured", "gap"])
def test_the_api_lists_the_offered_levels_with_their_standing(web, use_ladder, which):
    use_ladder(None if which == "measured" else gap_ladder())
    data = web.start().get("/api/editions").json()
    assert [entry["level"] for entry in data["levels"]] == offered_levels()
    assert data["default_level"] == default_level()
    for entry in data["levels"]:
        step = standing(entry["level"])
        assert entry == {"level": entry["level"], **(step or {})}


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
    from millebornes.web.store import SavedSeat, SavedTable, Store, hash_token, new_token, now

    secret = new_token()
    store = Store(web.url, "NORMAL")
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
        store.close()
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
