"""The puzzles page (/puzzles): a puzzle missed, then one found, each with why the better move is better, the streak
counted and kept in this browser; the words are the catalog's in both languages, axe-core finds nothing serious, it
fits a 360 px phone, and an answer is given by the keyboard alone."""

from __future__ import annotations

from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
from playwright.sync_api import expect  # noqa: E402

from millebornes.i18n import catalog  # noqa: E402
from millebornes.i18n.words import TableWords  # noqa: E402
from millebornes.puzzles import shipped  # noqa: E402
from tests.browser.test_axe import Audit, axe_source, set_lang  # noqa: E402,F401
from tests.browser.test_phone import check_fits  # noqa: E402
from tests.browser.test_wording import Reader  # noqa: E402
from tests.browsing import CHROMIUM, browser, pages, server  # noqa: E402,F401

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
    pytest.mark.server,
]
EN = catalog("en")
PHONE = {"width": 360, "height": 640}


def open_page(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#puzzle")).to_be_visible()


def test_a_puzzle_missed_then_one_found_by_clicks_and_keys(server, pages, axe_source):
    first, second = shipped()["puzzles"][:2]
    page = pages.new()
    audit, reader = Audit(axe_source), Reader()
    open_page(page, server + "/puzzles")
    expect(page.locator("#puzzle")).to_have_attribute("data-puzzle", first["id"])
    expect(page.locator("#puzzle-streak")).to_have_text(EN.t("puzzle.streak", n="0", best="0"))
    audit(page, "puzzles, a puzzle")
    reader.both(page, "puzzles, a puzzle")
    page.click(f".puzzle-move[data-action='{first['played']}']")  # the move the game's player chose: missed
    result = page.locator("#puzzle-result")
    expect(result).to_have_attribute("data-found", "0")
    expect(result).to_contain_text("Not this one: ")
    expect(page.locator(".puzzle-move.best")).to_have_attribute("data-action", first["best"])
    why = page.locator("#puzzle-result .puzzle-reason")  # why the better move is better, in the catalog's words
    expect(why).to_have_text(TableWords("en", 2, False).why(first["reason"], shown=["chance"]))
    expect(page.locator(".puzzle-move").first).to_be_disabled()  # one answer a puzzle
    expect(page.locator("#puzzle-next")).to_be_focused()
    audit(page, "puzzles, missed")
    reader.both(page, "puzzles, missed")
    page.keyboard.press("Enter")  # the next puzzle
    expect(page.locator("#puzzle")).to_have_attribute("data-puzzle", second["id"])
    expect(page.locator("#puzzle-head")).to_be_focused()
    moves = page.locator(".puzzle-move")
    index = moves.evaluate_all("(ms, best) => ms.findIndex((m) => m.dataset.action === best)", second["best"])
    page.keyboard.press("Tab")
    for _ in range(index):
        page.keyboard.press("Tab")
    expect(moves.nth(index)).to_be_focused()
    page.keyboard.press("Enter")
    expect(result).to_have_attribute("data-found", "1")
    expect(why).to_have_text(TableWords("en", 2, False).why(second["reason"], shown=["chance"]))
    expect(page.locator("#puzzle-streak")).to_have_text(EN.t("puzzle.streak", n="1", best="1"))
    set_lang(page, "fr")
    expect(page.locator("#puzzle-streak")).to_have_text(catalog("fr").t("puzzle.streak", n="1", best="1"))
    expect(why).to_have_text(TableWords("fr", 2, False).why(second["reason"], shown=["chance"]))
    audit(page, "puzzles, found (fr)")
    page.reload()  # the streak is this browser's
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#puzzle-streak")).to_have_text(catalog("fr").t("puzzle.streak", n="1", best="1"))
    reader.check()
    audit.check()


def test_the_page_fits_a_phone(server, pages):
    page = pages.new(viewport=PHONE, touch=True)
    open_page(page, server + "/puzzles")
    for k in range(3):
        check_fits(page, PHONE, f"puzzles, puzzle {k + 1}")
        page.locator(".puzzle-move").first.tap()
        check_fits(page, PHONE, f"puzzles, puzzle {k + 1} answered")
        page.locator("#puzzle-next").tap()
