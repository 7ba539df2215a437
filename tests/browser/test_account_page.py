"""The account page (/account, js/account.js) in Chromium against a real server: a guest's game claimed on sign-up
and listed from another browser signed in to the same account, a wrong password and a throttled sign-in in the
catalog's words, signing out, the account deleted through its dialog by the keyboard alone; axe-core, the wording
check and no sideways scrolling, in English and French, on a desktop and a 360 px phone, signed out and in.

Sign-ups are limited by address (web/settings.py: 20 an hour) and wrong passwords slow their address down: the
module makes fewer. The security part (signed-in devices, the password changed) is played by keyboard too.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
from playwright.sync_api import expect  # noqa: E402

from millebornes.i18n import catalog  # noqa: E402
from tests.browser.test_axe import Audit, axe_source  # noqa: E402,F401
from tests.browser.test_wording import Reader  # noqa: E402
from tests.browsing import (  # noqa: E402,F401
    CHROMIUM,
    DUJARDIN_WIN,
    browser,
    create_table,
    dujardin_against_a_bot,
    join_by_socket,
    pages,
    play,
    seq,
    server,
    won_dujardin_match,
)

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
    pytest.mark.server,
]

EN, FR = catalog("en"), catalog("fr")
PASSWORD = "a long enough secret"
PHONE = {"width": 360, "height": 640}
DESKTOP = {"width": 1280, "height": 800}


def open_account(page, base: str, lang: str | None = None) -> None:
    if lang:
        page.goto(base + "/")
        page.evaluate(f"localStorage.setItem('millebornes.lang', '{lang}')")
    page.goto(base + "/account")
    page.wait_for_selector("body[data-ready='1']")


def set_lang(page, lang: str) -> None:
    page.select_option("#lang", lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)


def sign_up(page, username: str, password: str = PASSWORD) -> None:
    page.fill("#signup-username", username)
    page.fill("#signup-password", password)
    page.click("#signup-submit")


def sign_in(page, username: str, password: str = PASSWORD) -> None:
    page.fill("#signin-username", username)
    page.fill("#signin-password", password)
    page.press("#signin-password", "Enter")


def signed_in(page) -> None:
    expect(page.locator("#signed-in")).to_be_visible()
    expect(page.locator("body")).to_have_attribute("data-signed-in", "1")


def signed_out(page) -> None:
    expect(page.locator("#signed-out")).to_be_visible()
    expect(page.locator("body")).to_have_attribute("data-signed-in", "0")


def no_sideways_scroll(page, state: str) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth - innerWidth")
    assert wide <= 0, f"{state}: the page is {wide} px wider than the screen"


def test_a_guest_game_follows_its_player_into_an_account_and_out_again(server, pages):
    # a guest plays a private match to its end: the table page keeps it in this browser's My tables
    guest, made = won_dujardin_match(server, pages, "Zoé", public=False)
    table = made["id"]
    guest.goto(server + "/")
    link = guest.locator("#account-link")
    expect(link).to_have_attribute("data-ready", "1")
    expect(link).to_have_text(EN.t("account.signin_link"))
    link.click()
    guest.wait_for_selector("body[data-ready='1']")
    signed_out(guest)
    expect(guest.locator("#bring-note")).to_have_text(EN.n("account.bring_note", 1))

    sign_up(guest, "zoe_1")
    signed_in(guest)
    expect(guest.locator("#me-title")).to_be_focused()
    expect(guest.locator("#account-status")).to_have_text(
        EN.t("account.welcome_new", name="zoe_1") + " " + EN.n("account.brought", 1)
    )
    mine = guest.locator(f"#account-tables li[data-table='{table}']")
    expect(mine).to_have_count(1)
    expect(mine).to_have_attribute("data-status", "finished")
    expect(mine.locator(".account-result strong")).to_have_text(EN.t("account.won"))
    expect(mine.locator("a.replay-link")).to_have_attribute("href", f"/replay/{table}")
    expect(guest.locator("#bring")).to_be_hidden()  # nothing of this browser is left to bring in
    guest.goto(server + "/")
    expect(guest.locator("#account-link")).to_have_text(EN.t("account.me", name="zoe_1"))

    # another browser, signed in to the same account, sees the same table
    other = pages.new()
    open_account(other, server)
    expect(other.locator("#bring-note")).to_be_hidden()
    sign_in(other, "zoe_1")
    signed_in(other)
    expect(other.locator("#account-status")).to_have_text(EN.t("account.welcome", name="zoe_1"))
    listed = other.locator("#account-tables li.mine-table")
    expect(listed).to_have_count(1)
    expect(listed.first).to_have_attribute("data-table", table)
    expect(listed.first.locator("a.replay-link")).to_have_attribute("href", f"/replay/{table}")

    # a wrong password, in the catalog's words in both languages, tied to its field
    third = pages.new()
    open_account(third, server)
    sign_in(third, "zoe_1", "not the password")
    expect(third.locator("#signin-error")).to_have_text(EN.t("account.error.wrong"))
    password = third.locator("#signin-password")
    expect(password).to_have_attribute("aria-invalid", "true")
    expect(password).to_have_attribute("aria-describedby", "signin-error")
    expect(password).to_be_focused()
    set_lang(third, "fr")
    expect(third.locator("#signin-error")).to_have_text(FR.t("account.error.wrong"))
    signed_out(third)

    # signing out ends that browser's sign-in, and only that one
    other.click("#signout")
    signed_out(other)
    expect(other.locator("#account-status")).to_have_text(EN.t("account.signed_out"))
    expect(other.locator("#account-title")).to_be_focused()
    other.reload()
    other.wait_for_selector("body[data-ready='1']")
    signed_out(other)

    # the first browser deletes the account with the keyboard alone
    guest.goto(server + "/account")
    guest.wait_for_selector("body[data-ready='1']")
    signed_in(guest)
    opener = guest.locator("#delete-open")
    opener.focus()
    guest.keyboard.press("Enter")
    dialog = guest.locator("#delete-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(EN.t("account.delete_confirm_text"))
    expect(guest.locator("#delete-password")).to_be_focused()
    guest.keyboard.press("Escape")  # changed her mind: the focus goes back where it was
    expect(dialog).to_be_hidden()
    expect(opener).to_be_focused()
    guest.keyboard.press("Enter")
    expect(guest.locator("#delete-password")).to_be_focused()
    guest.keyboard.type("not the password")
    guest.keyboard.press("Enter")
    expect(guest.locator("#delete-error")).to_have_text(EN.t("account.error.wrong_password"))
    expect(guest.locator("#delete-password")).to_be_focused()
    guest.keyboard.press("Control+A")
    guest.keyboard.type(PASSWORD)
    guest.keyboard.press("Tab")
    expect(guest.locator("#delete-cancel")).to_be_focused()
    guest.keyboard.press("Tab")
    expect(guest.locator("#delete-confirm")).to_be_focused()
    guest.keyboard.press("Enter")
    expect(dialog).to_be_hidden()
    signed_out(guest)
    expect(guest.locator("#account-status")).to_have_text(EN.t("account.deleted"))
    expect(guest.locator("#account-title")).to_be_focused()
    # the account is gone; the game stays, and its replay still opens from the guest's own link
    with third.expect_response("**/api/account/signin") as answer:
        sign_in(third, "zoe_1")
    assert answer.value.status == 401
    expect(third.locator("#signin-error")).to_have_text(FR.t("account.error.wrong"))
    guest.goto(server + f"/replay/{table}")
    expect(guest.locator("#hands .seat-hand")).to_have_count(2)


def test_refusals_are_said_in_the_catalogs_words(server, pages):
    page = pages.new()
    open_account(page, server)
    # the rules are checked before anything is sent, in the words the rules are shown in
    sign_up(page, "_x")
    expect(page.locator("#signup-error")).to_have_text(EN.t("account.error.username"))
    expect(page.locator("#signup-username")).to_have_attribute("aria-describedby", "signup-username-rule signup-error")
    expect(page.locator("#signup-username")).to_be_focused()
    sign_up(page, "annabelle", "short")
    expect(page.locator("#signup-error")).to_have_text(EN.t("account.weak.short"))
    expect(page.locator("#signup-username")).not_to_have_attribute("aria-invalid", "true")
    expect(page.locator("#signup-password")).to_have_attribute("aria-invalid", "true")
    sign_up(page, "annabelle", "ANNABELLE")
    expect(page.locator("#signup-error")).to_have_text(EN.t("account.error.password_is_name"))
    sign_up(page, "annabelle", "password123")  # refused by the server, for a reason the page words
    expect(page.locator("#signup-error")).to_have_text(EN.t("account.weak.common"))
    expect(page.locator("#signup-password")).to_have_attribute("aria-invalid", "true")
    # a name already taken, refused by the server
    sign_up(page, "annabelle")
    signed_in(page)
    page.click("#signout")
    signed_out(page)
    sign_up(page, "AnnaBelle", "another long secret")  # names differ by more than their case
    expect(page.locator("#signup-error")).to_have_text(EN.t("account.error.taken"))
    expect(page.locator("#signup-username")).to_be_focused()
    # a throttled sign-in says how long to wait, as the language writes the number
    page.route(
        "**/api/account/signin",
        lambda route: route.fulfill(
            status=429,
            headers={"Retry-After": "42", "Content-Type": "application/json"},
            body='{"detail": "slow down", "code": "rate"}',
        ),
    )
    sign_in(page, "annabelle")
    expect(page.locator("#signin-error")).to_have_text(EN.t("account.error.rate", s="42"))
    set_lang(page, "fr")
    expect(page.locator("#signin-error")).to_have_text(FR.t("account.error.rate", s="42"))
    page.unroute("**/api/account/signin")
    page.route("**/api/account/signin", lambda route: route.abort())
    sign_in(page, "annabelle")
    expect(page.locator("#signin-error")).to_have_text(FR.t("account.error.network"))
    # empty fields are named before anything is sent
    page.fill("#signin-username", "")
    page.click("#signin-submit")
    expect(page.locator("#signin-error")).to_have_text(FR.t("account.error.missing_username"))


def test_devices_are_signed_out_and_the_password_changed_by_the_keyboard(server, pages):
    first = pages.new()
    open_account(first, server)
    sign_up(first, "sec_1")
    signed_in(first)
    other = pages.new(viewport=PHONE)
    open_account(other, server)
    sign_in(other, "sec_1")
    signed_in(other)
    first.reload()
    first.wait_for_selector("body[data-ready='1']")
    devices = first.locator("#devices li.device")
    expect(devices).to_have_count(2)
    expect(first.locator("#devices li[data-current='1'] .device-current")).to_have_text(EN.t("account.device_current"))
    name = EN.t("account.device", browser="Chrome", system="Linux")  # headless Chromium says it is Chrome
    expect(first.locator("#devices li[data-current='0'] .device-name")).to_have_text(name)
    button = first.locator("#devices li[data-current='0'] button.device-signout")
    expect(button).to_have_attribute("aria-label", re.compile("^" + re.escape(f"Sign out {name}, last used ")))
    button.focus()
    first.keyboard.press("Enter")
    expect(first.locator("#devices-status")).to_have_text(EN.t("account.device_done", device=name))
    expect(first.locator("#devices-title")).to_be_focused()
    expect(devices).to_have_count(1)
    expect(first.locator("#devices-others")).to_be_hidden()  # no other device left
    other.reload()
    other.wait_for_selector("body[data-ready='1']")
    signed_out(other)

    sign_in(other, "sec_1")
    signed_in(other)
    first.locator("#password-current").focus()
    first.keyboard.type("not the password")
    first.keyboard.press("Tab")
    first.keyboard.type("brand new secret words")
    first.keyboard.press("Enter")
    expect(first.locator("#password-error")).to_have_text(EN.t("account.error.current_password"))
    expect(first.locator("#password-current")).to_be_focused()
    expect(first.locator("#password-current")).to_have_attribute("aria-invalid", "true")
    first.fill("#password-current", PASSWORD)
    first.fill("#password-new", "qwerty123")
    first.press("#password-new", "Enter")
    expect(first.locator("#password-error")).to_have_text(EN.t("account.weak.common"))
    expect(first.locator("#password-new")).to_be_focused()
    set_lang(first, "fr")
    expect(first.locator("#password-error")).to_have_text(FR.t("account.weak.common"))
    set_lang(first, "en")
    first.fill("#password-new", "brand new secret words")
    first.press("#password-new", "Enter")
    expect(first.locator("#devices-status")).to_have_text(EN.n("account.password_changed", 1))
    expect(first.locator("#password-error")).to_be_empty()
    expect(first.locator("#password-current")).to_have_value("")
    other.reload()
    other.wait_for_selector("body[data-ready='1']")
    signed_out(other)  # every other sign-in ended with the old password
    sign_in(other, "sec_1", "brand new secret words")
    signed_in(other)


def guest_table(base: str, page) -> str:
    """A table waiting for its second player, its first seat taken (an invite nobody sat down with is never brought
    into an account) and kept in the page's My tables the way the table page keeps a seat."""
    made = create_table(base, {"ruleset": "classic", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]})
    join_by_socket(base, made, 0, "Léa").close()
    page.evaluate(
        """([id, url]) => import(new URL('mytables.js', document.querySelector('script[type=module]').src).href)
             .then((m) => m.remember({ id, ruleset: 'classic', seat: 0, url }))""",
        [made["id"], made["seats"][0]["url"]],
    )
    return made["id"]


def test_the_page_passes_axe_reads_right_and_fits_a_phone(server, pages, axe_source):  # noqa: F811
    audit, reader = Audit(axe_source), Reader()
    first = pages.new()
    open_account(first, server)
    table = guest_table(server, first)
    first.reload()
    first.wait_for_selector("body[data-ready='1']")
    sign_up(first, "lea-3")
    signed_in(first)
    expect(first.locator(f"#account-tables li[data-table='{table}']")).to_have_count(1)
    guest_table(server, first)  # one more table of this browser: the offer to bring it in shows
    first.reload()
    first.wait_for_selector("body[data-ready='1']")
    expect(first.locator("#bring-offer")).to_have_text(EN.n("account.bring_offer", 1))
    first.click("#bring-button")
    expect(first.locator("#account-status")).to_have_text(EN.n("account.brought", 1))
    expect(first.locator("#account-tables li.mine-table")).to_have_count(2)
    expect(first.locator("#tables-title")).to_be_focused()
    session = first.context.storage_state()

    for size, where in ((DESKTOP, "desktop"), (PHONE, "360 px")):
        for lang in ("en", "fr"):
            out = pages.new(viewport=size)
            open_account(out, server, lang)
            signed_out(out)
            sign_in(out, "nobody-here", "wrong password")  # the error shown too
            expect(out.locator("#signin-error")).not_to_be_empty()
            state = f"account, signed out, {where} ({lang})"
            audit(out, state)
            reader.read(out, state)
            no_sideways_scroll(out, state)

            page = pages.new(viewport=size, storage_state=session)
            open_account(page, server, lang)
            signed_in(page)
            expect(page.locator("#account-tables li.mine-table")).to_have_count(2)
            state = f"account, signed in, {where} ({lang})"
            audit(page, state)
            reader.read(page, state)
            no_sideways_scroll(page, state)
            page.click("#delete-open")
            expect(page.locator("#delete-dialog")).to_be_visible()
            audit(page, f"account, deleting, {where} ({lang})")
            reader.read(page, f"account, deleting, {where} ({lang})")
            no_sideways_scroll(page, f"account, deleting, {where} ({lang})")
            page.keyboard.press("Escape")
            page.goto(server + "/")
            expect(page.locator("#account-link")).to_have_attribute("data-ready", "1")
            expect(page.locator("#account-link")).to_have_text(
                (EN if lang == "en" else FR).t("account.me", name="lea-3")
            )
            no_sideways_scroll(page, f"home, signed in, {where} ({lang})")
    audit.check()
    reader.check()


def test_a_live_seat_opens_on_another_device_from_the_account_page(server, pages):
    # a guest sits down against a bot and signs up: the account holds the seat
    first, made = dujardin_against_a_bot(server, pages, "Yann")
    table = made["id"]
    open_account(first, server)
    sign_up(first, "yann_2")
    signed_in(first)
    back = first.locator(f"#account-tables li[data-table='{table}'] a.back-link")
    expect(back).to_have_attribute("href", re.compile(r"#seat=0&token="))  # this browser still has its link
    back.click()
    first.wait_for_selector("#hand .card")
    # another device, signed in to the account, has no link: the account opens the seat
    phone = pages.new(viewport=PHONE, touch=True)
    open_account(phone, server)
    sign_in(phone, "yann_2")
    signed_in(phone)
    link = phone.locator(f"#account-tables li[data-table='{table}'] a.back-link")
    expect(link).to_have_attribute("href", f"/t/{table}#seat=0&account=1")
    link.click()
    expect(phone.locator("#join-overlay")).to_be_hidden()
    phone.wait_for_selector("#hand .card")
    assert "account" not in phone.url and "token" not in phone.url
    hand = "#hand .card"
    assert phone.locator(hand).evaluate_all("cs => cs.map((c) => c.dataset.card)") == first.locator(hand).evaluate_all(
        "cs => cs.map((c) => c.dataset.card)"
    )
    # a move from the phone is seen by the first device
    before = seq(first)
    play(phone, DUJARDIN_WIN[0], tap=True)
    first.wait_for_function("(s) => Number(document.querySelector('#turn').dataset.seq) > s", arg=before)
    expect(first.locator(".tableau.mine .pile.battle .card[data-card='roll']")).to_have_count(1)
    # the home page of the phone keeps the way back; a reload opens the seat again
    phone.reload()
    phone.wait_for_selector("#hand .card")
    expect(phone.locator("#join-overlay")).to_be_hidden()
    # a third device, signed in: its home page's My tables lists the live table, opened by the account
    tablet = pages.new()
    open_account(tablet, server)
    sign_in(tablet, "yann_2")
    signed_in(tablet)
    tablet.goto(server + "/")
    mine = tablet.locator(f"#mine-list li[data-table='{table}']")
    expect(mine.locator("a.back-link")).to_have_attribute("href", f"/t/{table}#seat=0&account=1")
    expect(mine).to_have_attribute("data-status", "playing")
    # a device signed in to nobody is told to sign in, in the catalog's words
    stranger = pages.new()
    stranger.goto(f"{server}/t/{table}#seat=0&account=1")
    expect(stranger.locator("#join-error")).to_have_text(EN.t("join.account_signed_out"))
    expect(stranger.locator("#hand .card")).to_have_count(0)
