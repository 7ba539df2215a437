"""The guided first match in the browser: offered on the home page to a browser that has not finished it (and always
at /learn), then played to its end by clicks and, in another browser, by keys alone; each lesson says what to do and
why, a move that is not the lesson's is refused in words, the coup fourré waits without a countdown, and the hand's
score is the last lesson: what each point was for, then "Play a real match" (the home page's quick game) or "Go over
the lessons again", and nothing moves after it; the finished match is remembered (the offer goes)."""

from __future__ import annotations

from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
from playwright.sync_api import expect  # noqa: E402

from millebornes.i18n import catalog  # noqa: E402
from millebornes.tutorial import GOAL, LEARNER, LESSONS, SCRIPT, Tutorial, scored  # noqa: E402
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


def scored_lines() -> list[str]:
    """What the last lesson says each of the learner's points was for, as the page writes the numbers."""
    t = Tutorial()
    while not t.over:
        t.attempt(str(t.expected))
    return [EN.t(f"learn.scored.{item}", points=f"{points:,}") for item, points in scored(t.game)]


def the_end(page, audit=None) -> None:
    """The hand's score is the last lesson, in the guided match's own dialog (not the match's), and nothing moves
    after it."""
    end = page.locator("#learn-over")
    expect(end).to_be_visible()
    total = len(LESSONS) + 1
    expect(page.locator("#learn-over-step")).to_contain_text(EN.t("learn.step", n=total, total=total))
    expect(page.locator("#learn-over-do")).to_have_text(EN.t("learn.score.do"))
    expect(page.locator("#learn-scored li")).to_have_text(scored_lines())
    expect(page.locator("#learn-over-table .breakdown")).to_be_visible()
    expect(page.locator("#learn-over-why")).to_have_text(EN.t("learn.score.why", goal=f"{GOAL:,}"))
    expect(page.locator("#learn-real")).to_have_text(EN.t("learn.end.real"))
    expect(page.locator("#learn-again")).to_have_text(EN.t("learn.end.again"))
    expect(page.locator("#learn-over-title")).to_be_focused()  # read from the top
    expect(page.locator("#match-over")).to_be_hidden()
    expect(page.locator("#hand-over")).to_be_hidden()
    if audit:
        audit(page, "guided match, its end")
    at = seq(page)
    page.wait_for_timeout(2500)  # the tutor would have dealt and played on by now
    assert seq(page) == at
    assert page.evaluate("document.querySelector('#turn').dataset.mine") != "1"
    expect(page.locator("#lesson-do")).to_have_text(EN.t("learn.score.do"))
    expect(page.locator("#table-info")).to_contain_text("Hand 1")


def not_offered_again(page, base: str) -> None:
    """Finished: the home page offers it no more in this browser, but /learn still does, with the other ways in."""
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#learn-panel")).to_be_hidden()
    page.goto(base + "/learn")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#learn-panel")).to_be_visible()
    expect(page.locator("#learn-title")).to_be_focused()
    expect(page.locator("#learn-rules")).to_have_attribute("href", "/rules")
    expect(page.locator("#learn-panel code")).to_have_text("millebornes learn")


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
        if action == "coup-fourre":  # a lesson waits: no countdown from the window's "600 s"
            expect(page.locator("#cf-lesson")).to_have_text(EN.t("learn.cf_wait"))
            expect(page.locator("#cf-clock")).to_be_hidden()
            expect(page.locator("#cf-dialog")).not_to_contain_text("600")
            page.click("#cf-yes")
        elif action == "end-hand":
            page.click("#ext-no")
        else:
            page.click(f"#hand .card[data-card='{action.split()[1]}']")
            page.click(".tableau.mine")
    the_end(page, audit)
    page.click("#learn-real")  # a real match: the home page's quick game, its heading in focus
    page.wait_for_url("**/#quick")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#quick-title")).to_be_focused()
    expect(page.locator("#learn-panel")).to_be_hidden()
    not_offered_again(page, server)
    audit(page, "the home page at /learn")
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
    the_end(page)
    page.keyboard.press("Tab")  # from the title to "Play a real match", then "Go over the lessons again"
    expect(page.locator("#learn-real")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.locator("#learn-again")).to_be_focused()
    check_fits(page, phone, "guided match, its end")
    reader.both(page, "guided match, its end")
    page.locator("#learn-again").focus()  # the language menu took the focus
    first = page.url
    page.keyboard.press("Enter")
    page.wait_for_url(lambda url: "/t/" in url and url != first)
    expect(page.locator("#nickname")).to_have_value("Zoé")
    page.keyboard.press("Enter")
    expect(page.locator("#join-overlay")).to_be_hidden()
    expect(page.locator("#lesson-do")).to_have_text(EN.t("learn.roll.do"))  # the lessons from the first
    reader.check()
