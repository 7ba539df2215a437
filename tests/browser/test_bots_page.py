"""The bots page (/account/bots, js/bots.js) in Chromium against a real server: a bot made, its token shown once
(gone once kept, and not in the list), a new token whose answer replaces it, the bot deleted through its dialog by
the keyboard; axe-core, the wording check and no sideways scrolling, in English and French, on a desktop and a
360 px phone, signed out and in."""

from __future__ import annotations

from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
from playwright.sync_api import expect  # noqa: E402

from millebornes.i18n import catalog  # noqa: E402
from tests.browser.test_axe import Audit, axe_source  # noqa: E402,F401
from tests.browser.test_wording import Reader  # noqa: E402
from tests.browsing import CHROMIUM, browser, pages, server  # noqa: E402,F401

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
    pytest.mark.server,
]

EN, FR = catalog("en"), catalog("fr")
PASSWORD = "a long enough secret"
PHONE = {"width": 360, "height": 640}
DESKTOP = {"width": 1280, "height": 800}


def open_bots(page, base: str, lang: str = "en") -> None:
    page.goto(base + "/")
    page.evaluate(f"localStorage.setItem('millebornes.lang', '{lang}')")
    page.goto(base + "/account/bots")
    page.wait_for_selector("body[data-ready='1']")


def sign_up(page, base: str, username: str) -> None:
    page.goto(base + "/account")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#signup-username", username)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-submit")
    expect(page.locator("body")).to_have_attribute("data-signed-in", "1")


def no_sideways_scroll(page, state: str) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth - innerWidth")
    assert wide <= 0, f"{state}: the page is {wide} px wider than the screen"


def test_a_bot_is_made_its_token_shown_once_renewed_and_deleted(server, pages, axe_source):  # noqa: F811
    audit, reader = Audit(axe_source), Reader()
    out = pages.new(DESKTOP)
    for lang in ("en", "fr"):
        for where, size in (("desktop", DESKTOP), ("phone", PHONE)):
            out.set_viewport_size(size)
            open_bots(out, server, lang)
            expect(out.locator("#bots-signed-out")).to_be_visible()
            state = f"bots, signed out, {where} ({lang})"
            audit(out, state)
            reader.read(out, state)
            no_sideways_scroll(out, state)

    page = pages.new(DESKTOP)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    sign_up(page, server, "bot_owner")
    open_bots(page, server)
    expect(page.locator("#bot-list-none")).to_be_visible()
    page.fill("#new-bot-name", "x")
    page.press("#new-bot-name", "Enter")
    expect(page.locator("#new-bot-error")).to_have_text(EN.t("account.error.username"))
    page.fill("#new-bot-name", "robo_page")
    page.press("#new-bot-name", "Enter")
    expect(page.locator("#token-panel")).to_be_visible()
    expect(page.locator("#token-title")).to_be_focused()
    expect(page.locator("#token-warning")).to_have_text(EN.t("bots.token_warning"))
    token = page.input_value("#token-value")
    assert token.startswith("mbb_")
    page.click("#token-copy")
    expect(page.locator("#token-copied")).to_have_text(EN.t("bots.copied"))
    assert page.evaluate("navigator.clipboard.readText()") == token
    for lang in ("en", "fr"):
        for where, size in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(size)
            page.select_option("#lang", lang)
            expect(page.locator("html")).to_have_attribute("lang", lang)
            state = f"bots, token shown, {where} ({lang})"
            audit(page, state)
            reader.read(page, state)
            no_sideways_scroll(page, state)
    page.select_option("#lang", "en")
    page.set_viewport_size(DESKTOP)
    page.click("#token-done")
    expect(page.locator("#token-panel")).to_be_hidden()
    assert token not in page.content()
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator(".bot-item")).to_have_count(1)
    expect(page.locator(".bot-item h3")).to_have_text("robo_page")
    assert token not in page.content()  # shown once: never again

    page.get_by_role("button", name=EN.t("bots.renew_for", name="robo_page")).click()
    expect(page.locator("#token-panel")).to_be_visible()
    renewed = page.input_value("#token-value")
    assert renewed.startswith("mbb_") and renewed != token
    page.click("#token-done")

    opener = page.get_by_role("button", name=EN.t("bots.delete_for", name="robo_page"))
    opener.focus()
    page.keyboard.press("Enter")
    dialog = page.locator("#delete-bot-dialog")
    expect(dialog).to_be_visible()
    expect(page.locator("#delete-bot-title")).to_have_text(EN.t("bots.delete_title", name="robo_page"))
    for lang in ("en", "fr"):
        for where, size in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(size)
            page.evaluate(f"document.querySelector('#lang').value = '{lang}'")
            page.evaluate("document.querySelector('#lang').dispatchEvent(new Event('change'))")
            expect(page.locator("html")).to_have_attribute("lang", lang)
            state = f"bots, deleting, {where} ({lang})"
            audit(page, state)
            reader.read(page, state)
            no_sideways_scroll(page, state)
    page.evaluate("document.querySelector('#lang').value = 'en'")
    page.evaluate("document.querySelector('#lang').dispatchEvent(new Event('change'))")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(opener).to_be_focused()
    page.keyboard.press("Enter")
    expect(dialog).to_be_visible()
    page.locator("#delete-bot-confirm").focus()
    page.keyboard.press("Enter")
    expect(dialog).to_be_hidden()
    expect(page.locator(".bot-item")).to_have_count(0)
    expect(page.locator("#bot-list-none")).to_be_visible()
    expect(page.locator("#bots-status")).to_have_text(EN.t("bots.deleted", name="robo_page"))
    audit.check()
    reader.check()
