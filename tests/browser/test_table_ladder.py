"""A ladder per table (issue 41), in Chromium: the home page's level pickers list the levels offered at the table
being set up and say how each did there; changing the players, the edition or the teams updates them, a choice no
longer offered becomes the table's default level, and a table not measured says its figures are two-player
classic's.

The server runs on a made-up ladder (tests/ladders.py): every level at two-player classic, the two lowest at four
classic players in teams; every other table falls back to two-player classic.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")
from playwright.sync_api import expect  # noqa: E402

from millebornes.bots import LEVELS  # noqa: E402
from millebornes.bots.ladder import default_level, ladder  # noqa: E402
from millebornes.tui.words import standing_line  # noqa: E402
from tests.browsing import CHROMIUM, browser, option_values, pages, server  # noqa: E402,F401
from tests.ladders import served, tables_ladder  # noqa: E402

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
    pytest.mark.server,
]


@pytest.fixture(scope="module", autouse=True)
def tables(tmp_path_factory):
    """The made-up ladder, for this process and the server it starts (autouse: set before the server)."""
    with served(tables_ladder(), tmp_path_factory.mktemp("ladder")):
        yield


def test_changing_the_players_updates_the_offered_levels_and_the_standing_note(server, pages):
    levels = list(LEVELS)
    page = pages.new()
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    assert (
        option_values(page, "#seat-kind-1") == ["human", *levels, "bot-account"]
        and option_values(page, "#standin") == levels
    )
    page.select_option("#seat-kind-1", levels[2])
    page.select_option("#standin", levels[2])
    expect(page.locator("#seat-note-1")).to_have_text(standing_line("en", levels[2]))

    # four classic players play in teams: only the two lowest levels are offered there, with their own figures
    page.select_option("#players", "4")
    expect(page.locator("#teams")).to_be_checked()
    expect(page.locator("#seat-kind-3")).to_be_visible()
    for seat in (1, 2, 3):
        assert option_values(page, f"#seat-kind-{seat}") == ["human", *levels[:2], "bot-account"]
        expect(page.locator(f"#seat-kind-{seat}")).to_have_value(default_level("classic", 4))  # hard was dropped
        expect(page.locator(f"#seat-note-{seat}")).to_have_text(standing_line("en", levels[1], "classic", 4))
    assert option_values(page, "#standin") == levels[:2]
    expect(page.locator("#standin")).to_have_value(levels[1])
    expect(page.locator("#standin-note")).to_have_text(standing_line("en", levels[1], "classic", 4))
    assert "two-player" not in page.text_content("#seat-note-1")
    page.select_option("#seat-kind-2", levels[0])
    expect(page.locator("#seat-note-2")).to_have_text(standing_line("en", levels[0], "classic", 4))

    # three players: not measured, so two-player classic's levels, and the note says where its figure is from
    page.select_option("#players", "3")
    assert option_values(page, "#seat-kind-1") == ["human", *levels, "bot-account"]
    expect(page.locator("#seat-kind-2")).to_have_value(levels[0])  # still offered: kept
    expect(page.locator("#seat-note-1")).to_have_text(standing_line("en", levels[1], "classic", 3))
    assert "two-player Classic" in page.text_content("#seat-note-1")
    expect(page.locator("#seat-note-2")).to_have_text(standing_line("en", levels[0]))  # no figure, no note
    page.select_option("#lang", "fr")
    expect(page.locator("#seat-note-1")).to_have_text(standing_line("fr", levels[1], "classic", 3))

    # a table made at four players in teams gets the levels offered there
    page.select_option("#lang", "en")
    page.select_option("#players", "4")
    page.select_option("#seat-kind-1", levels[0])
    page.click("#create")
    expect(page.locator("#invites")).to_be_visible()
    expect(page.locator("#create-error")).to_have_text("")


def test_the_quick_game_follows_its_edition(server, pages):
    levels = list(LEVELS)
    page = pages.new()
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    assert option_values(page, "#quick-level") == levels
    page.select_option("#quick-level", levels[2])
    expect(page.locator("#quick-level-note")).to_have_text(standing_line("en", levels[2]))
    # Dujardin's smallest table (two players) was not measured: two-player classic's ladder, and it says so
    page.select_option("#quick-ruleset", "dujardin")
    expect(page.locator("#quick-level")).to_have_value(levels[2])
    expect(page.locator("#quick-level-note")).to_have_text(standing_line("en", levels[2], "dujardin", 2))
    assert "two-player Classic" in page.text_content("#quick-level-note")
    page.select_option("#quick-ruleset", "classic")
    expect(page.locator("#quick-level-note")).to_have_text(standing_line("en", levels[2]))
