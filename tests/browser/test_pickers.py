"""The home page's level pickers (issue 27), in Chromium: the quick game, each seat and the stand-in list only
the offered levels, start on the default one, and describe the chosen level's standing (aria-describedby),
in English and French; the page fits a 360 px phone and axe finds nothing serious.

The server runs on a made-up ladder where the second level did not earn its place (tests/bots/test_ladder.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")
from playwright.sync_api import expect  # noqa: E402

from millebornes.bots import LEVELS  # noqa: E402
from millebornes.bots.ladder import default_level, ladder, offered_levels  # noqa: E402
from millebornes.tui.words import standing_line  # noqa: E402
from tests.browser.test_axe import audit, axe_source  # noqa: E402,F401
from tests.browsing import CHROMIUM, browser, option_values, pages, server, wait_turn  # noqa: E402,F401
from tests.ladders import gap_ladder, served  # noqa: E402

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
    pytest.mark.server,
]


@pytest.fixture(scope="module", autouse=True)
def gap(tmp_path_factory):
    """The made-up ladder, for this process and the server it starts (autouse: set before the server)."""
    with served(gap_ladder(), tmp_path_factory.mktemp("ladder")):
        yield


def home(page, server: str) -> None:
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")


def test_the_pickers_list_the_offered_levels_and_describe_the_chosen_one(server, pages):
    offered = offered_levels()
    assert len(offered) == len(LEVELS) - 1  # one level is left out
    page = pages.new()
    home(page, server)
    assert option_values(page, "#quick-level") == offered and option_values(page, "#standin") == offered
    assert option_values(page, "#seat-kind-0") == ["human"] and option_values(page, "#seat-kind-1") == [
        "human",
        *offered,
        "bot-account",
    ]
    for select, note in (
        ("#quick-level", "#quick-level-note"),
        ("#seat-kind-1", "#seat-note-1"),
        ("#standin", "#standin-note"),
    ):
        expect(page.locator(select)).to_have_value(default_level())
        assert note[1:] in page.get_attribute(select, "aria-describedby").split()
        for level in offered:
            page.select_option(select, level)
            expect(page.locator(note)).to_have_text(standing_line("en", level))
    page.select_option("#seat-kind-1", "human")
    expect(page.locator("#seat-note-1")).to_have_text("")
    page.select_option("#lang", "fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#quick-level-note")).to_have_text(standing_line("fr", offered[-1]))
    expect(page.locator("#quick-level")).to_have_value(offered[-1])  # a change of language keeps the choices

    # a quick game against the lowest level: the table is made with it
    page.select_option("#quick-level", offered[0])
    page.click("#quick-start")
    page.wait_for_url("**/t/**")
    table = page.url.split("/t/")[1].split("#")[0]
    facts = json.loads(page.evaluate(f"fetch('/api/tables/{table}').then(r => r.text())"))
    assert [s.get("level") for s in facts["seats"] if s["kind"] == "bot"] == [offered[0]]


def test_the_form_offers_the_bots_pace_and_a_solo_quick_game_has_no_clock(server, pages):
    """Issue 39: the clock starts off while only one seat is human (two minutes with two people, and the
    player's own choice stays); both forms offer the pace; a quick game is made without a clock, at its pace."""
    page = pages.new()
    home(page, server)
    for select in ("#pace", "#quick-pace"):
        assert option_values(page, select) == ["relaxed", "normal", "fast"]
        expect(page.locator(select)).to_have_value("normal")
        assert page.get_attribute(select, "aria-describedby") == "pace-note"
    expect(page.locator("label[for=pace]")).to_have_text("Bot pace")
    expect(page.locator("#clock")).to_have_value("0")
    page.select_option("#seat-kind-1", "human")
    expect(page.locator("#clock")).to_have_value("120")
    page.select_option("#clock", "60")
    page.select_option("#seat-kind-1", default_level())
    expect(page.locator("#clock")).to_have_value("60")  # chosen: a change of seats leaves it alone
    page.select_option("#pace", "relaxed")
    page.select_option("#lang", "fr")
    expect(page.locator("label[for=quick-pace]")).to_have_text("Rythme des robots")
    names = page.eval_on_selector_all("#pace option", "options => options.map(o => o.textContent)")
    assert names == ["Tranquille", "Normal", "Rapide"]
    expect(page.locator("#pace")).to_have_value("relaxed")  # a change of language keeps the choice
    page.select_option("#lang", "en")

    page.select_option("#quick-pace", "fast")
    page.click("#quick-start")
    page.wait_for_url("**/t/**")
    table = page.url.split("/t/")[1].split("#")[0]
    facts = json.loads(page.evaluate(f"fetch('/api/tables/{table}').then(r => r.text())"))
    assert (facts["clock"], facts["pace"]) == (0, "fast")
    page.fill("#nickname", "Ann")
    page.click("#join")
    wait_turn(page, "play")
    expect(page.locator("#turn")).to_have_attribute("data-clock-seat", "0")
    expect(page.locator("#turn")).to_have_attribute("data-clock-ends", "")
    expect(page.locator("#clock")).to_be_hidden()  # my move, and no time counting down


def test_the_pickers_fit_a_phone_and_pass_axe(server, pages, audit):
    page = pages.new(viewport={"width": 360, "height": 640}, touch=True)
    home(page, server)
    page.select_option("#players", "4")
    expect(page.locator("#seat-note-3")).to_have_text(standing_line("en", default_level(), "classic", 4))
    wide = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert wide[0] <= wide[1] == 360, wide
    audit(page, "home pickers (360 px)")
    page.select_option("#lang", "fr")
    expect(page.locator("#seat-note-3")).to_have_text(standing_line("fr", default_level(), "classic", 4))
    audit(page, "home pickers (360 px, fr)")
    audit.check()
