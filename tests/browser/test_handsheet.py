"""The table on a phone is built around the hand: a bottom sheet keeps the hand, the chosen card's moves, the
hints and the last moves of the log on screen (never below the fold), a touch screen shows no keyboard hints, and
every control is a fingertip (44 px) tall. Checked at 360x640 and 390x844, in English and French.

Skipped where Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
from playwright.sync_api import expect  # noqa: E402

from tests.browser.test_axe import Audit, axe_source  # noqa: E402,F401
from tests.browsing import CHROMIUM, against_bots, browser, mine_again, pages, seq, server  # noqa: E402,F401

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
    pytest.mark.server,
]

SIZES = [{"width": 360, "height": 640}, {"width": 390, "height": 844}]
FINGER = 44

ANN = ["roll", "200", "25", "50", "100", "speed-limit"]
BOT = ["25", "50", "75", "25", "50", "75"]
HEAD = ANN + BOT + BOT + ["75", "25", "50", "25", "75", "50", "25", "75", "50"]

# every control on screen whose touch target (its own box, or for a checkbox the label around it) is too small
SMALL = """() => [...document.querySelectorAll('button, select, input, a.button, summary')]
  .filter((n) => n.getClientRects().length && getComputedStyle(n).visibility !== 'hidden')
  .map((n) => { const t = (n.type === 'checkbox' || n.type === 'radio') && n.closest('label') ? n.closest('label') : n;
    const r = t.getBoundingClientRect(); return [n.id || n.className || n.tagName, Math.round(r.height)]; })
  .filter(([, h]) => h < 44)"""

KEY_HINTS = """() => [...document.querySelectorAll('kbd, .key-badge, .side-key, #keys-list')]
  .filter((n) => n.getClientRects().length && getComputedStyle(n).display !== 'none').length"""


def inside(page, selector: str, viewport: dict) -> None:
    """The element is on screen, whole, with the page where it is (nothing to scroll to reach it)."""
    box = page.locator(selector).first.bounding_box()
    assert box, selector
    assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"] + 0.5, (selector, box, viewport)
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"] + 0.5, (selector, box, viewport)


def phone_table(server, pages, viewport, lang):
    page = pages.new(viewport=viewport, touch=True)
    against_bots(server, page, HEAD, lang=lang)
    return page


WORDS = {
    "en": {"tap": "Choose a card: tap it.", "help": "Help", "hints": "Hints", "log": "What happened"},
    "fr": {
        "tap": "Choisissez une carte\u00a0: touchez-la.",
        "help": "Aide",
        "hints": "Conseils",
        "log": "Ce qui s’est passé",
    },
}


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("viewport", [pytest.param(s, id=f"{s['width']}x{s['height']}") for s in SIZES])
def test_the_hand_sheet_keeps_moves_hints_and_log_on_screen(server, pages, viewport, lang, axe_source):  # noqa: F811
    words = WORDS[lang]
    audit = Audit(axe_source)
    page = phone_table(server, pages, viewport, lang)
    # a touch screen: the words say tap, no key is shown, every control is a fingertip
    expect(page.locator("#moves .move-note")).to_have_text(words["tap"])
    expect(page.locator("#keys-button")).to_have_text(words["help"])
    assert page.evaluate(KEY_HINTS) == 0
    assert page.evaluate(SMALL) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]

    # wherever the board is scrolled, the hand and a chosen card's moves are on screen; the card's help and moves
    # grow the sheet upwards, so the card tapped stays under the finger
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    before = page.locator("#hand").bounding_box()
    page.locator("#hand .card[data-card='roll']").tap()
    expect(page.locator("#hand .card.selected[data-card='roll']")).to_have_count(1)
    expect(page.locator("#card-help")).not_to_be_empty()
    assert page.locator("#hand").bounding_box() == before
    for end in ("document.documentElement.scrollHeight", "0"):
        page.evaluate(f"window.scrollTo(0, {end})")
        inside(page, "#hand .card[data-card='roll']", viewport)
        inside(page, "#moves button[data-action='play roll']", viewport)
        inside(page, "#card-help", viewport)

    # a hint asked for opens beside the hand, its best move on screen
    page.locator("#hint-button").tap()
    expect(page.locator("#sheet-hints")).to_have_attribute("aria-expanded", "true")
    expect(page.locator("#sheet-hints")).to_have_text(words["hints"])
    expect(page.locator("#hints li[data-rank='1']")).to_be_visible(timeout=20_000)
    inside(page, "#hints li[data-rank='1'] .hint-pick", viewport)
    inside(page, "#moves button[data-action='play roll']", viewport)
    assert page.evaluate(SMALL) == []
    audit(page, f"table, the hand sheet with its hints ({viewport['width']}, {lang})")

    # Roll played from the move bar; the bots answer; the log's newest lines open beside the hand
    mine = seq(page)
    page.locator("#moves button[data-action='play roll']").tap()
    mine_again(page, mine)
    page.locator("#sheet-log").tap()
    expect(page.locator("#sheet-log")).to_have_attribute("aria-expanded", "true")
    expect(page.locator("#sheet-log")).to_have_text(words["log"])
    expect(page.locator(".hints-panel")).to_be_hidden()
    inside(page, "#log li:last-child", viewport)
    assert page.evaluate(SMALL) == []
    audit(page, f"table, the hand sheet with its log ({viewport['width']}, {lang})")
    audit.check()
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]

    # a wider screen puts the panels back in the sidebar, both shown, and the tabs away
    page.set_viewport_size({"width": 1280, "height": 800})
    expect(page.locator(".sidebar .hints-panel")).to_be_visible()
    expect(page.locator(".sidebar .log-panel")).to_be_visible()
    expect(page.locator("#sheet-tabs")).to_be_hidden()


def test_the_home_page_controls_are_a_fingertip(server, pages):
    for viewport in SIZES:
        page = pages.new(viewport=viewport, touch=True)
        page.goto(server + "/")
        page.wait_for_selector("body[data-ready='1']")
        assert page.evaluate(SMALL) == [], viewport
