"""How to play in the browser (/rules): reached from the home page, a table (its Keys panel, opened by "?") and
a replay; every edition in both languages read as a player reads it (the catalog's words, no notation), axe-core
finds nothing serious, it fits a 360 px phone, and it is used by the keyboard alone: the edition and players
picked, a section reached from the contents.

Screenshots for a person to look at: /tmp/rules-desktop.png (1366x800) and /tmp/rules-phone.png (360x640).
"""

from __future__ import annotations

from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
from playwright.sync_api import expect  # noqa: E402

from millebornes.i18n import catalog  # noqa: E402
from millebornes.i18n.howto import how_to_play  # noqa: E402
from tests.browser.test_axe import Audit, axe_source, set_lang  # noqa: E402,F401
from tests.browser.test_phone import check_fits  # noqa: E402
from tests.browser.test_wording import Reader  # noqa: E402
from tests.browsing import CHROMIUM, browser, create_table, join, pages, server, won_dujardin_match  # noqa: E402,F401

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
    pytest.mark.server,
]

PHONE = {"width": 360, "height": 640}


def open_rules(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#rules-body .rules-section").first).to_be_visible()


def test_every_edition_reads_right_and_passes_axe_in_both_languages(server, pages, axe_source):
    page = pages.new()
    reader, audit = Reader(), Audit(axe_source)
    open_rules(page, server + "/rules")
    for edition in ("classic", "parker", "dujardin", "family"):
        page.select_option("#rules-edition", edition)
        guide = how_to_play(edition, page.evaluate("document.documentElement.lang"), 2)
        expect(page.locator("#rules-body h2").first).to_have_text(guide["sections"][0]["title"])
        expect(page.locator("#rules-summary")).to_have_text(guide["summary"])
        assert page.locator("#rules-body .rules-section").count() == len(guide["sections"])
        assert page.locator(".rules-card .card svg").count() == 19  # every card drawn as at the table
        reader.both(page, f"rules, {edition}")
        audit(page, f"rules, {edition} (en)")
        set_lang(page, "fr")
        fr = how_to_play(edition, "fr", 2)
        expect(page.locator("#rules-body h2").last).to_have_text(fr["sections"][-1]["title"])
        expect(page.locator(".rules-score th").first).to_have_text(catalog("fr").t("item.distance"))
        audit(page, f"rules, {edition} (fr)")
        set_lang(page, "en")
    # the players change the target: classic at four is a race to 1,000 with no extension
    page.select_option("#rules-edition", "classic")
    page.select_option("#rules-players", "4")
    expect(page.locator("#rules-goal p").first).to_contain_text("1,000")
    expect(page.locator("#rules-extension")).to_have_count(1)  # the extension is told: 2, 3 and 6 players have it
    assert "players=4" in page.url and "edition=classic" in page.url
    reader.check()
    audit.check()


def test_by_keyboard_alone_and_on_a_phone(server, pages):
    page = pages.new(viewport=PHONE, touch=True)
    open_rules(page, server + "/rules?edition=family&players=5")
    expect(page.locator("#rules-edition")).to_have_value("family")
    expect(page.locator("#rules-players")).to_have_value("5")
    check_fits(page, PHONE, "rules, family (en)")
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    check_fits(page, PHONE, "rules, family, the score")
    page.screenshot(path="/tmp/rules-phone.png")
    set_lang(page, "fr")
    check_fits(page, PHONE, "rules, family (fr)")
    set_lang(page, "en")

    desk = pages.new(viewport={"width": 1366, "height": 800})
    open_rules(desk, server + "/rules")
    desk.screenshot(path="/tmp/rules-desktop.png")
    desk.keyboard.press("Tab")  # the brand
    desk.keyboard.press("Tab")  # the language
    desk.keyboard.press("Tab")
    expect(desk.locator("#rules-learn")).to_be_focused()  # the guided match, for one who would rather play
    desk.keyboard.press("Tab")
    expect(desk.locator("#rules-edition")).to_be_focused()
    desk.keyboard.press("ArrowDown")  # classic -> parker
    expect(desk.locator("#rules-edition")).to_have_value("parker")
    expect(desk.locator("#rules-turn p").first).to_have_text(catalog("en").t("howto.turn.draw"))
    expect(desk.locator("#rules-status")).to_have_text(catalog("en").t("howto.edition_note", edition="Parker Brothers"))
    desk.keyboard.press("Tab")
    expect(desk.locator("#rules-players")).to_be_focused()
    desk.keyboard.press("Tab")
    desk.keyboard.press("Tab")
    desk.keyboard.press("Tab")  # the goal, the cards, a turn
    desk.keyboard.press("Tab")
    expect(desk.locator("#rules-contents a").nth(3)).to_be_focused()
    desk.keyboard.press("Enter")
    assert desk.url.endswith("#rules-hazards")
    top = desk.evaluate("document.getElementById('rules-hazards').getBoundingClientRect().top")
    assert 0 <= top < 100, top


def test_reached_from_home_a_table_and_a_replay(server, pages):
    """How to play is a link away from every page, and leads to the guided match in its turn."""
    page = pages.new()
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.click("a.nav-link")
    page.wait_for_selector("body[data-ready='1']")
    assert page.url.endswith("/rules?edition=classic&players=2")
    expect(page.locator(".rules-learn code")).to_have_text("millebornes learn")
    page.click("#rules-learn")  # and back to the guided match, offered at /learn
    page.wait_for_url("**/learn")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#learn-panel")).to_be_visible()

    made = create_table(
        server, {"ruleset": "parker", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}]}
    )
    table = pages.new()
    join(table, server + made["seats"][0]["url"], "Ann")
    expect(table.locator("#keys-help")).to_be_hidden()
    table.keyboard.press("?")
    expect(table.locator("#keys-help")).to_be_visible()
    link = table.locator("#rules-link")
    expect(link).to_have_attribute("href", "/rules?edition=parker&players=2")
    with table.context.expect_page() as opened:
        link.click()
    rules = opened.value
    rules.wait_for_selector("body[data-ready='1']")
    expect(rules.locator("#rules-edition")).to_have_value("parker")
    expect(table.locator("#hand .card").first).to_be_visible()  # the table stays where it was

    _, won = won_dujardin_match(server, pages)
    replay = pages.new()
    replay.goto(f"{server}/replay/{won['id']}")
    expect(replay.locator("#rules-link")).to_have_attribute("href", "/rules?edition=dujardin&players=2")


def test_card_help_says_what_a_card_does_and_why_it_cannot_be_played_now(server, pages, axe_source):
    from tests.browsing import stacked

    en, fr = catalog("en"), catalog("fr")
    hand = ["25", "200", "stop", "roll", "gasoline", "right-of-way"]
    made = create_table(
        server,
        {
            "ruleset": "parker",
            "players": 2,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}],
            "deck": stacked("parker", 2, hand + ["25", "50", "75", "100", "200", "roll", "speed-limit"]),
        },
    )
    page = pages.new()
    join(page, server + made["seats"][0]["url"], "Ann")
    guide = {
        c["card"]: c["text"] for s in how_to_play("parker", "en")["sections"] for g in s["groups"] for c in g["cards"]
    }
    page.hover("#hand .card[data-card='stop']")
    help_ = page.locator("#card-help")
    expect(help_).to_contain_text(en.t("help.card", card="Stop", does=guide["stop"]))
    expect(help_).to_contain_text("Not now: ")
    page.hover("#hand .card[data-card='25']")
    expect(help_).to_contain_text(en.messages["reason.needs_roll"].split("(")[0].strip())
    page.mouse.move(5, 5)  # the pointer leaves the hand: the focused card is told
    page.locator("#hand .card[data-card='roll']").focus()
    expect(help_).to_contain_text(en.t("help.playable"))
    assert page.get_attribute("#hand .card[data-card='roll']", "aria-describedby") == "card-help"
    set_lang(page, "fr")
    page.locator("#hand .card[data-card='gasoline']").focus()
    expect(help_).to_contain_text(fr.t("card.gasoline"))
    expect(help_).to_contain_text("Pas maintenant")
    audit = Audit(axe_source)
    audit(page, "table, card help (fr)")
    audit.check()
    set_lang(page, "en")
    page.locator("#hand .card[data-card='roll']").focus()
    page.keyboard.press("Enter")
    page.keyboard.press("p")  # the Roll on my own battle pile
    played = page.locator(".tableau.mine .card[data-card='roll']").first
    expect(played).to_be_visible()
    played.hover()  # a card on a tableau: what it does
    expect(help_).to_have_text(en.t("help.card", card="Roll", does=guide["roll"]))
    page.mouse.move(5, 5)
    expect(help_).not_to_have_text(en.t("help.card", card="Roll", does=guide["roll"]))
    page.locator(".tableau.mine").focus()  # a tableau reached by the keyboard: the top of its battle pile
    expect(help_).to_have_text(en.t("help.card", card="Roll", does=guide["roll"]))
