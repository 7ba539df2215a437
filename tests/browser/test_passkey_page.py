"""The account page's passkeys (account.html's "Passkeys" section, js/account/passkeys.js) in Chromium against a real
server, with the DevTools protocol's virtual authenticator standing for a laptop's fingerprint reader: a person adds
a passkey under a name of their own, renames it, signs out and back in with it alone, removes it, and the removed one
no longer signs in; the browser's refusals and the server's are said in the catalog's words; the page passes axe, the
wording check and fits a 360 px phone in English and French, and every control is reached and used by the keyboard.

The server is opened as ``http://localhost:PORT``: a secure context without TLS, and a host name (WebAuthn refuses an
address as the relying party's ID). Each person comes from an address of their own (``X-Forwarded-For``, trusted
from 127.0.0.1) so that the sign-up and sign-in throttles count them apart. The API alone, with real keys:
tests/browser/test_passkeys.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
from playwright.sync_api import expect  # noqa: E402

from millebornes.i18n import catalog  # noqa: E402
from tests.browser.test_account_page import (  # noqa: E402
    DESKTOP,
    PHONE,
    guest_table,
    no_sideways_scroll,
    open_account,
    set_lang,
    sign_up,
    signed_in,
    signed_out,
)
from tests.browser.test_axe import Audit, axe_source  # noqa: E402,F401
from tests.browser.test_wording import Reader  # noqa: E402
from tests.browsing import CHROMIUM, browser, pages, server  # noqa: E402,F401

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
    pytest.mark.server,
]

EN, FR = catalog("en"), catalog("fr")
PEOPLE = iter(range(1, 250))


@pytest.fixture
def site(server):
    """The server as ``http://localhost:PORT``."""
    return server.replace("127.0.0.1", "localhost")


class Device:
    """A browser with a platform authenticator that verifies its person without asking, as a laptop's fingerprint
    reader does once the finger is on it."""

    def __init__(self, pages, viewport: dict | None = None, storage_state: dict | None = None):
        self.page = page = pages.new(viewport=viewport, storage_state=storage_state)
        page.context.set_extra_http_headers({"X-Forwarded-For": f"198.51.100.{next(PEOPLE)}"})
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.send("WebAuthn.enable")
        self.authenticator = self.cdp.send(
            "WebAuthn.addVirtualAuthenticator",
            {
                "options": {
                    "protocol": "ctap2",
                    "transport": "internal",
                    "hasResidentKey": True,
                    "hasUserVerification": True,
                    "isUserVerified": True,
                }
            },
        )["authenticatorId"]

    def keys(self) -> list[dict]:
        return self.cdp.send("WebAuthn.getCredentials", {"authenticatorId": self.authenticator})["credentials"]


def listed(page) -> list[str]:
    return page.locator("#passkey-list li h3").all_inner_texts()


def add(page, name: str | None = None) -> None:
    if name is not None:
        page.fill("#passkey-name", name)
    page.click("#passkey-add")


def item(page, name: str):
    return page.locator("#passkey-list li", has=page.locator("h3", has_text=re.compile(f"^{re.escape(name)}$")))


def account(page) -> dict:
    return page.evaluate("async () => (await fetch('/api/account')).json()")


def test_a_passkey_is_added_named_used_to_sign_in_and_removed_from_the_page(site, pages):
    ann = Device(pages)
    page = ann.page
    open_account(page, site)
    signed_out(page)
    expect(page.locator("#passkey-signin-button")).to_have_text(EN.t("passkey.signin_button"))
    sign_up(page, "ann_keys")
    signed_in(page)
    expect(page.locator("#passkeys-title")).to_have_text(EN.t("passkey.title"))
    expect(page.locator("#passkey-none")).to_have_text(EN.t("passkey.none"))
    expect(page.locator("#passkey-list")).to_be_hidden()
    # the name offered tells this device apart: its browser and its system
    expect(page.locator("#passkey-name")).to_have_value(EN.t("passkey.default_name", browser="Chrome", system="Linux"))

    # a name the server would refuse is said before anything is asked of the authenticator
    add(page, "   ")
    expect(page.locator("#passkey-add-error")).to_have_text(EN.t("passkey.error.name"))
    expect(page.locator("#passkey-name")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#passkey-name")).to_be_focused()
    assert ann.keys() == []

    add(page, "  My laptop ")
    expect(page.locator("#account-status")).to_have_text(EN.t("passkey.added", name="My laptop"))
    expect(page.locator("#passkeys-title")).to_be_focused()
    expect(page.locator("#passkey-add-error")).to_be_empty()
    assert listed(page) == ["My laptop"]
    expect(page.locator("#passkey-none")).to_be_hidden()
    (made,) = account(page)["passkeys"]
    assert made["name"] == "My laptop" and made["last_used"] is None
    expect(item(page, "My laptop").locator("p")).to_have_text(re.compile(r"^Added: .+\. Not used yet\.$"))
    (key,) = ann.keys()
    assert key["isResidentCredential"]  # discoverable: it names the account at sign-in
    expect(page.locator("#passkey-name")).to_have_value(EN.t("passkey.default_name", browser="Chrome", system="Linux"))

    # the same authenticator a second time: the browser refuses (the options exclude it), the page says why
    add(page, "Again")
    expect(page.locator("#passkey-add-error")).to_have_text(EN.t("passkey.error.known"))
    assert len(ann.keys()) == 1 and listed(page) == ["My laptop"]

    # renamed, by the keyboard alone; a blank name is refused in the dialog first
    rename = item(page, "My laptop").locator("button[data-rename]")
    expect(rename).to_have_accessible_name(EN.t("passkey.rename_for", name="My laptop"))
    rename.focus()
    page.keyboard.press("Enter")
    dialog = page.locator("#passkey-rename-dialog")
    expect(dialog).to_be_visible()
    expect(page.locator("#passkey-rename-title")).to_have_text(EN.t("passkey.rename_for", name="My laptop"))
    field = page.locator("#passkey-rename-name")
    expect(field).to_be_focused()
    expect(field).to_have_value("My laptop")
    page.keyboard.press("Delete")  # the name is selected: gone
    page.keyboard.press("Enter")
    expect(page.locator("#passkey-rename-error")).to_have_text(EN.t("passkey.error.name"))
    expect(field).to_be_focused()
    page.keyboard.type("Work laptop")
    page.keyboard.press("Enter")
    expect(dialog).to_be_hidden()
    expect(page.locator("#account-status")).to_have_text(EN.t("passkey.renamed", name="Work laptop"))
    assert listed(page) == ["Work laptop"]
    expect(item(page, "Work laptop").locator("button[data-rename]")).to_be_focused()
    assert [p["name"] for p in account(page)["passkeys"]] == ["Work laptop"]

    # signed out, this browser's guest table waiting to be brought in: the passkey signs in alone
    page.click("#signout")
    signed_out(page)
    table = guest_table(site, page)
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#bring-note")).to_have_text(EN.n("account.bring_note", 1))
    with page.expect_response("**/api/account/passkey/signin") as answer:
        page.click("#passkey-signin-button")
    assert answer.value.status == 200
    signed_in(page)
    expect(page.locator("#account-status")).to_have_text(
        EN.t("account.welcome", name="ann_keys") + " " + EN.n("account.brought", 1)
    )
    expect(page.locator("#me-title")).to_be_focused()
    expect(page.locator(f"#account-tables li[data-table='{table}']")).to_have_count(1)
    assert page.input_value("#signin-password") == "" and page.input_value("#signin-username") == ""
    expect(item(page, "Work laptop").locator("p")).to_have_text(re.compile(r"^Added: .+\. Last used: .+\.$"))

    # removed, once confirmed: Escape first keeps it, and the focus goes back to its button
    remove = item(page, "Work laptop").locator("button[data-remove]")
    expect(remove).to_have_accessible_name(EN.t("passkey.remove_for", name="Work laptop"))
    remove.click()
    confirm = page.locator("#passkey-remove-dialog")
    expect(confirm).to_be_visible()
    expect(page.locator("#passkey-remove-title")).to_have_text(EN.t("passkey.remove_title", name="Work laptop"))
    expect(confirm).to_contain_text(EN.t("passkey.remove_text"))
    expect(page.locator("#passkey-remove-cancel")).to_be_focused()
    page.keyboard.press("Escape")
    expect(confirm).to_be_hidden()
    expect(remove).to_be_focused()
    assert len(account(page)["passkeys"]) == 1
    page.keyboard.press("Enter")
    expect(page.locator("#passkey-remove-cancel")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.locator("#passkey-remove-confirm")).to_be_focused()
    page.keyboard.press("Enter")
    expect(confirm).to_be_hidden()
    expect(page.locator("#account-status")).to_have_text(EN.t("passkey.removed", name="Work laptop"))
    expect(page.locator("#passkeys-title")).to_be_focused()
    expect(page.locator("#passkey-none")).to_be_visible()
    assert listed(page) == [] and account(page)["passkeys"] == []

    # the authenticator still holds it, but it signs nobody in any more
    assert len(ann.keys()) == 1
    page.click("#signout")
    signed_out(page)
    with page.expect_response("**/api/account/passkey/signin") as answer:
        page.click("#passkey-signin-button")
    assert answer.value.status == 401
    expect(page.locator("#passkey-signin-error")).to_have_text(EN.t("passkey.error.wrong"))
    signed_out(page)
    set_lang(page, "fr")
    expect(page.locator("#passkey-signin-error")).to_have_text(FR.t("passkey.error.wrong"))
    expect(page.locator("#passkey-signin-button")).to_have_text(FR.t("passkey.signin_button"))


def answering(status: int, body: str, headers: dict):
    """A route handler that answers as the server would refuse."""
    return lambda route: route.fulfill(
        status=status, headers={**headers, "Content-Type": "application/json"}, body=body
    )


def test_refusals_of_the_browser_and_the_server_are_said_in_the_catalogs_words(site, pages):
    bea = Device(pages)
    page = bea.page
    open_account(page, site)
    # an authenticator that holds no passkey of this site: the browser gives up, the page says what may have happened
    page.click("#passkey-signin-button")
    expect(page.locator("#passkey-signin-error")).to_have_text(EN.t("passkey.error.cancelled_signin"))
    signed_out(page)
    sign_up(page, "bea_keys")
    signed_in(page)
    # the browser's other refusals (the person cancelled, no authenticator fits, an insecure page), as it raises them
    page.evaluate("""() => {
        const create = navigator.credentials.create.bind(navigator.credentials);
        window.refuseNext = null;
        navigator.credentials.create = (o) => window.refuseNext
          ? Promise.reject(new DOMException('refused', window.refuseNext)) : create(o);
    }""")
    for name, key in (
        ("NotAllowedError", "passkey.error.cancelled_add"),
        ("NotSupportedError", "passkey.error.unsupported"),
        ("SecurityError", "passkey.error.insecure"),
        ("UnknownError", "passkey.error.failed"),
    ):
        page.evaluate("name => { window.refuseNext = name; }", name)
        add(page, "Phone")
        expect(page.locator("#passkey-add-error")).to_have_text(EN.t(key))
    page.evaluate("() => { window.refuseNext = null; }")
    assert bea.keys() == [] and listed(page) == []

    # the server's refusals: ten passkeys already, a registration that took too long, a throttle
    for status, body, headers, text in (
        (409, '{"detail": "x", "code": "too-many"}', {}, EN.t("passkey.error.too_many", n="10")),
        (409, '{"detail": "x", "code": "expired"}', {}, EN.t("passkey.error.expired")),
        (400, '{"detail": "x", "code": "invalid"}', {}, EN.t("passkey.error.invalid")),
        (429, '{"detail": "x", "code": "rate"}', {"Retry-After": "42"}, EN.t("account.error.rate", s="42")),
    ):
        page.route("**/api/account/passkeys", answering(status, body, headers))
        add(page, "Phone")
        expect(page.locator("#passkey-add-error")).to_have_text(text)
        page.unroute("**/api/account/passkeys")
    set_lang(page, "fr")
    expect(page.locator("#passkey-add-error")).to_have_text(FR.t("account.error.rate", s="42"))
    set_lang(page, "en")
    page.route("**/api/account/passkeys/options", lambda route: route.abort())
    add(page, "Phone")
    expect(page.locator("#passkey-add-error")).to_have_text(EN.t("account.error.network"))
    page.unroute("**/api/account/passkeys/options")
    assert account(page)["passkeys"] == []

    # a passkey made, then removed from another device while this page still lists it
    add(page, "Phone")
    expect(page.locator("#account-status")).to_have_text(EN.t("passkey.added", name="Phone"))
    (made,) = account(page)["passkeys"]
    page.evaluate(
        """async (id) => {
            const csrf = (await (await fetch('/api/account')).json()).csrf;
            await fetch('/api/account/passkeys/' + id, {method: 'DELETE', body: '{}',
              headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf}});
        }""",
        made["id"],
    )
    item(page, "Phone").locator("button[data-rename]").click()
    page.fill("#passkey-rename-name", "Old phone")
    page.press("#passkey-rename-name", "Enter")
    expect(page.locator("#passkey-rename-dialog")).to_be_hidden()
    expect(page.locator("#passkey-list-error")).to_have_text(EN.t("passkey.error.gone"))
    expect(page.locator("#passkey-none")).to_be_visible()
    expect(page.locator("#passkeys-title")).to_be_focused()

    # the sign-in ended elsewhere: the next change shows the forms again, and says why
    page.evaluate(
        """async () => {
            const csrf = (await (await fetch('/api/account')).json()).csrf;
            await fetch('/api/account/signout', {method: 'POST', body: '{}',
              headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf}});
        }"""
    )
    add(page, "Tablet")
    signed_out(page)
    expect(page.locator("#account-status")).to_have_text(EN.t("account.error.signed_out"))


@pytest.mark.parametrize("how", ["an address", "an old browser"])
def test_where_webauthn_cannot_work_the_page_offers_no_passkey(server, site, pages, how):
    """An address cannot be a relying party's ID (WebAuthn would refuse every request on http://127.0.0.1), and a
    browser without WebAuthn has no PublicKeyCredential: no button that could only fail, the list still shown."""
    page = pages.new()
    page.context.set_extra_http_headers({"X-Forwarded-For": f"198.51.100.{next(PEOPLE)}"})
    if how == "an old browser":
        page.add_init_script("delete window.PublicKeyCredential")
    open_account(page, server if how == "an address" else site)
    signed_out(page)
    expect(page.locator("#signin-submit")).to_be_visible()
    expect(page.locator("#passkey-signin")).to_be_hidden()
    sign_up(page, f"cid_{len(how)}")
    signed_in(page)
    expect(page.locator("#passkey-add-form")).to_be_hidden()
    expect(page.locator("#passkey-unsupported")).to_have_text(EN.t("passkey.unsupported"))
    expect(page.locator("#passkey-none")).to_be_visible()
    set_lang(page, "fr")
    expect(page.locator("#passkey-unsupported")).to_have_text(FR.t("passkey.unsupported"))


def test_the_passkeys_pass_axe_read_right_fit_a_phone_and_answer_the_keyboard(site, pages, axe_source):  # noqa: F811
    audit, reader = Audit(axe_source), Reader()
    first = Device(pages)
    open_account(first.page, site)
    sign_up(first.page, "dee_keys")
    signed_in(first.page)
    add(first.page, "Téléphone de Dee, très long nom pour voir s’il passe à la ligne sur un petit écran")
    expect(first.page.locator("#passkey-list li")).to_have_count(1)
    session = first.page.context.storage_state()

    for size, where in ((DESKTOP, "desktop"), (PHONE, "360 px")):
        for lang in ("en", "fr"):
            words = EN if lang == "en" else FR
            out = Device(pages, viewport=size)
            open_account(out.page, site, lang)
            signed_out(out.page)
            out.page.click("#passkey-signin-button")  # this device holds no passkey: the refusal shown too
            expect(out.page.locator("#passkey-signin-error")).to_have_text(words.t("passkey.error.cancelled_signin"))
            state = f"account with passkeys, signed out, {where} ({lang})"
            audit(out.page, state)
            reader.read(out.page, state)
            no_sideways_scroll(out.page, state)

            device = Device(pages, viewport=size, storage_state=session)
            page = device.page
            open_account(page, site, lang)
            signed_in(page)
            add(page)  # under the name offered
            expect(page.locator("#passkey-list li")).to_have_count(2)
            default = words.t("passkey.default_name", browser="Chrome", system="Linux")
            assert default in listed(page)
            add(page)  # the same authenticator again: its refusal shown too
            expect(page.locator("#passkey-add-error")).to_have_text(words.t("passkey.error.known"))
            state = f"account with passkeys, signed in, {where} ({lang})"
            audit(page, state)
            reader.read(page, state)
            no_sideways_scroll(page, state)

            # every control of the section in turn by Tab, and each used by Enter or Space
            page.locator("#passkeys-title").focus()
            order = []
            for _ in range(6):
                page.keyboard.press("Tab")
                order.append(
                    page.evaluate(
                        "document.activeElement.id || document.activeElement.dataset.rename"
                        " && 'rename' || document.activeElement.dataset.remove && 'remove'"
                    )
                )
            assert order == ["rename", "remove", "rename", "remove", "passkey-name", "passkey-add"], order
            page.locator("#passkey-list li button[data-rename]").last.focus()
            page.keyboard.press("Space")
            expect(page.locator("#passkey-rename-dialog")).to_be_visible()
            state = f"renaming a passkey, {where} ({lang})"
            audit(page, state)
            reader.read(page, state)
            no_sideways_scroll(page, state)
            expect(page.locator("#passkey-rename-name")).to_be_focused()
            page.keyboard.press("Tab")
            expect(page.locator("#passkey-rename-cancel")).to_be_focused()
            page.keyboard.press("Space")
            expect(page.locator("#passkey-rename-dialog")).to_be_hidden()
            expect(page.locator("#passkey-list li button[data-rename]").last).to_be_focused()
            page.keyboard.press("Tab")
            page.keyboard.press("Enter")
            expect(page.locator("#passkey-remove-dialog")).to_be_visible()
            state = f"removing a passkey, {where} ({lang})"
            audit(page, state)
            reader.read(page, state)
            no_sideways_scroll(page, state)
            page.keyboard.press("Tab")
            expect(page.locator("#passkey-remove-confirm")).to_be_focused()
            page.keyboard.press("Space")
            expect(page.locator("#passkey-list li")).to_have_count(1)
            expect(page.locator("#account-status")).to_have_text(words.t("passkey.removed", name=default))
    audit.check()
    reader.check()
