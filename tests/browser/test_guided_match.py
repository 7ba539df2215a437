"""The guided first match in the browser: offered on the home page to a browser that has not finished it, then
played to its end by clicks and, in another browser, by keys alone; each lesson says what to do and why, a move
that is not the lesson's is refused in words, and the finished match is remembered (the offer goes)."""

from __future__ import annotations

from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
from playwright.sync_api import expect  # noqa: E402

from millebornes.i18n import catalog  # noqa: E402
from millebornes.tutorial import LEARNER, SCRIPT  # noqa: E402
from tests.browser.test_axe import Audit, axe_source  # noqa: E402,F401
from tests.browser.test_phone import check_fits  # noqa: E402
from tests.browser.test_wording import Reader  # noqa: E402
from tests.browsing import CHROMIUM, browser, pages, seq, server, wait_turn  # noqa: E402,F401

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
    pytest.mark.server,
]
EN = catalog("en")
LEARNER_MOVES = [(action, lesson) for seat, action, lesson in SCRIPT if seat == LEARNER]
DECISION = {"coup-fourre": "coup-fourre", "end-hand": "extension"}


def start(page, base: str) -> None:
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#learn-panel")).to_be_visible()
    page.click("#learn-start")
    page.wait_for_url("**/t/**")
    page.fill("#nickname", "Zoé")
    page.click("#join")
    expect(page.locator("#join-overlay")).to_be_hidden()


def finish(page, base: str, audit=None) -> None:
    expect(page.locator("#lesson-do")).to_have_text(EN.t("learn.score.do"))
    expect(page.locator("#hand-over")).to_be_visible()
    if audit:
        audit(page, "guided match, its score")
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#learn-panel")).to_be_hidden()  # finished: not offered again in this browser


def lessons(page):
    """Each of the learner's moves, once it is the learner's turn to make it and its lesson is shown:
    (k, action, lesson)."""
    after = -1
    for k, (action, lesson) in enumerate(LEARNER_MOVES):
        wait_turn(page, DECISION.get(action, "play"), after)
        after = seq(page)
        expect(page.locator("#lesson-do")).to_have_text(EN.t(f"learn.{lesson}.do"))
        yield k, action, lesson


def test_the_guided_match_by_clicks(server, pages, axe_source):
    page = pages.new()
    audit = Audit(axe_source)
    start(page, server)
    for k, action, lesson in lessons(page):
        expect(page.locator("#lesson-why")).to_have_text(EN.t(f"learn.{lesson}.why"))
        if k == 0:
            audit(page, "guided match, the first lesson")
        if k == 1:  # allowed by the rules, not by the lesson: refused, in words
            page.click("#hand .card[data-card='200']")
            page.click(".tableau.mine")
            expect(page.locator("#message")).to_contain_text(EN.t("learn.not_this"))
        if action == "coup-fourre":
            page.click("#cf-yes")
        elif action == "end-hand":
            page.click("#ext-no")
        else:
            page.click(f"#hand .card[data-card='{action.split()[1]}']")
            page.click(".tableau.mine")
    finish(page, server, audit)
    audit.check()


def test_the_guided_match_by_keys_on_a_phone(server, pages):
    phone = {"width": 360, "height": 640}
    page = pages.new(viewport=phone)
    reader = Reader()
    start(page, server)
    for k, action, lesson in lessons(page):
        if k in (0, 6):
            check_fits(page, phone, f"guided match, lesson {lesson}")
            reader.both(page, f"guided match, lesson {lesson}")
            expect(page.locator("#lesson-do")).to_have_text(EN.t(f"learn.{lesson}.do"))
        if action == "coup-fourre":
            page.keyboard.press("y")
        elif action == "end-hand":
            page.keyboard.press("n")
        else:
            card = action.split()[1]
            index = page.locator("#hand .card").evaluate_all(
                "(cards, id) => cards.findIndex((c) => c.dataset.card === id)", card
            )
            page.keyboard.press(str(index + 1))
            page.keyboard.press("p")
    finish(page, server)
    reader.check()
