"""Rated tables in Chromium against a real server (docs/web-api.md, "Ratings"): an account made on /account creates a
rated table against a medium bot from the home page, its seat joins the account as the page sits down, the match is
played to its end through the page's own controls, and the rating shows in the result panel and on the account
page of another browser signed in to the same account; a signed-out player at a rated table is told the match will
not be rated and is heard when signing in from another tab; the home page offers Rated to a signed-in page only.
axe, the wording check and no sideways scrolling on each changed view in English and French, at 360 px too.

Sign-ups are throttled by address (5 a minute): the module makes three.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
from playwright.sync_api import expect  # noqa: E402

from millebornes.i18n import catalog  # noqa: E402
from tests.browser.test_account_page import no_sideways_scroll, open_account, sign_in, sign_up, signed_in  # noqa: E402
from tests.browser.test_axe import Audit, axe_source  # noqa: E402,F401
from tests.browser.test_wording import Reader  # noqa: E402
from tests.browsing import CHROMIUM, browser, create_table, join_by_socket, pages, seq, server  # noqa: E402,F401

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
    pytest.mark.server,
]

EN, FR = catalog("en"), catalog("fr")
CATALOGS = {"en": EN, "fr": FR}
PHONE = {"width": 360, "height": 640}
SHOTS = Path("/tmp")


def shot(page, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"rated_{name}.png"), full_page=True)


def set_lang(page, lang: str) -> None:
    page.select_option("#lang", lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)


def open_home(page, base: str) -> None:
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#account-link")).to_have_attribute("data-ready", "1")


def hasty(legal: list[str]) -> str:
    """A quick way to the end of a dujardin race: a coup fourré, the longest distance, a green light, a remedy or a
    safety, an attack, else the first thing allowed (a discard, a draw)."""
    for best in ("coup-fourre", "end-hand", "play 200", "play 100", "play 75", "play 50", "play 25", "play roll"):
        if best in legal:
            return best
    own = [a for a in legal if a.startswith("play ") and len(a.split()) == 2]
    attacks = [a for a in legal if a.startswith("play ") and len(a.split()) == 3]
    return (own or attacks or legal)[0]


def perform(page, action: str) -> None:
    """The action through the page's own controls, as a player clicks it."""
    words = action.split()
    buttons = {
        "draw": "#stock",
        "take-discard": "#discard",
        "coup-fourre": "#cf-yes",
        "pass": "#cf-no",
        "extend": "#ext-yes",
        "end-hand": "#ext-no",
    }
    if action in buttons:
        page.click(buttons[action])
        return
    page.click(f"#hand .card[data-card='{words[1]}']")
    expect(page.locator(f"#hand .card.selected[data-card='{words[1]}']")).to_have_count(1)
    if words[0] == "discard":
        page.click("#discard")
    elif len(words) == 3:
        page.click(f".tableau[data-side='{words[2]}']")
    else:
        page.click(".tableau.mine")


def play_to_the_end(page) -> None:
    """Each decision of the page's seat, taken by `hasty` from the state's legal actions (the page's test hook),
    until the match is over."""
    last = -1
    for _ in range(400):
        page.wait_for_function(
            """(after) => { const t = document.querySelector('#turn');
                 return !document.querySelector('#match-over').hidden
                   || (t.dataset.mine === '1' && t.dataset.decision !== '' && Number(t.dataset.seq) > after); }""",
            arg=last,
            timeout=60_000,
        )
        if page.locator("#match-over").is_visible():
            return
        last = seq(page)
        perform(page, hasty(page.evaluate("() => window.millebornes.state().obs.legal_actions")))
    pytest.fail("the match did not end in 400 decisions")


def test_a_rated_match_against_a_bot_moves_the_account_rating(server, pages, axe_source):  # noqa: F811
    audit, reader = Audit(axe_source), Reader()
    page = pages.new()
    open_account(page, server)
    sign_up(page, "rita_1")
    signed_in(page)
    expect(page.locator("#account-ratings")).to_have_text(EN.t("account.ratings_none"))

    # the home page offers Rated to the signed-in page; a rated dujardin race against the medium bot
    open_home(page, server)
    box = page.locator("#rated")
    expect(box).to_be_enabled()
    expect(box).not_to_be_checked()
    expect(page.locator("#rated-note")).to_have_text(EN.t("home.rated_note"))
    page.select_option("#ruleset", "dujardin")
    page.select_option("#players", "2")
    page.select_option("select.seat-kind[data-seat='1']", "medium")
    page.fill("#cf-timeout", "3")
    page.select_option("#pace", "fast")
    box.check()
    expect(page.locator("#rated-note")).to_have_text(EN.t("home.rated_on"))
    with page.expect_request("**/api/tables") as sent:
        page.click("#create")
    assert sent.value.post_data_json["rated"] is True
    expect(page.locator("#invites")).to_be_visible()

    # the seat joins the account as the page sits down; a rated table shows it, and offers no take-back
    with page.expect_response("**/api/account/claim") as claimed:
        page.click("a.invite[data-seat='0']")
        page.fill("#nickname", "Rita")
        page.click("#join")
    assert claimed.value.status == 200 and claimed.value.json()["claimed"], claimed.value.json()
    table = page.evaluate("window.millebornes.state().table.id")
    expect(page.locator("#rated")).to_be_visible()
    expect(page.locator("#rated")).to_have_text(EN.t("rated.badge"))
    expect(page.locator("#rated-box")).to_be_hidden()
    expect(page.locator("#join-rated")).to_be_hidden()
    expect(page.locator("#keys-list kbd", has_text="p")).to_have_count(1)  # the Keys panel, without "u"
    expect(page.locator("#keys-list kbd", has_text=re.compile(r"^u$"))).to_have_count(0)
    play_to_the_end(page)
    expect(page.locator("#undo-button")).to_be_hidden()

    # the result panel: the first rated dujardin match of the account, its new (provisional) rating
    rating = page.locator("#match-rating")
    expect(rating).to_have_text(
        re.compile(
            re.escape(EN.t("rated.result_first", edition="Dujardin", after="X")).replace("X", r"[\d,]+ \(provisional\)")
        )
    )
    shown = re.search(r"([\d,]+) \(provisional\)", rating.inner_text()).group(1)
    shot(page, "match_over")
    audit(page, "rated match over (en)")
    reader.both(page, "rated match over")
    said = rating.inner_text()
    page.reload()  # opened again after the end: the account's games say what the match did to the rating
    expect(page.locator("#match-over")).to_be_visible()
    expect(page.locator("#match-rating")).to_have_text(said)

    # another browser signed in to the same account reads the same rating on the account page
    other = pages.new()
    open_account(other, server)
    sign_in(other, "rita_1")
    signed_in(other)
    row = other.locator("#account-ratings tr[data-family='dujardin']")
    expect(row).to_have_count(1)
    expect(row).to_have_attribute("data-provisional", "1")
    expect(row.locator("td.rating")).to_have_text(EN.t("rated.provisional", rating=shown))
    expect(row.locator("td").nth(1)).to_have_text("1")
    expect(other.locator(f"#account-tables li[data-table='{table}']")).to_have_count(1)
    shot(other, "account")
    session = other.context.storage_state()

    # and the same on the account's profile, its graph drawn from the match
    other.goto(server + "/players/rita_1")
    graph = other.locator(".rating-graph[data-family='dujardin'] svg[role='img']")
    expect(graph).to_have_count(1)
    expect(graph).to_have_attribute("aria-label", re.compile(re.escape(shown)))
    expect(other.locator("#profile-games")).to_contain_text(shown)

    # its replay says it was rated
    other.goto(server + f"/replay/{table}")
    expect(other.locator("#rated")).to_be_visible()

    for lang in ("en", "fr"):
        phone = pages.new(viewport=PHONE, storage_state=session)
        open_account(phone, server, lang)
        signed_in(phone)
        expect(phone.locator("#account-ratings tr[data-family='dujardin']")).to_have_count(1)
        state = f"account with a rating, 360 px ({lang})"
        audit(phone, state)
        reader.read(phone, state)
        no_sideways_scroll(phone, state)
        shot(phone, f"account_360_{lang}")
    audit.check()
    reader.check()


def test_a_signed_out_player_at_a_rated_table_is_told_and_heard_signing_in(server, pages, axe_source):  # noqa: F811
    audit, reader = Audit(axe_source), Reader()
    made = create_table(
        server,
        {
            "ruleset": "dujardin",
            "players": 2,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "medium"}],
            "rated": True,
            "cf_timeout": 3,
        },
    )
    url = server + made["seats"][0]["url"]
    page = pages.new()
    page.goto(url)
    notice = page.locator("#join-rated")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text(EN.t("rated.signed_out"))
    link = notice.locator("a")
    expect(link).to_have_attribute("href", "/account")
    expect(link).to_have_attribute("target", "_blank")
    # by the keyboard: the link is the next stop after the nickname, then the Join button
    expect(page.locator("#nickname")).to_be_focused()
    page.keyboard.press("Tab")
    expect(link).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.locator("#join")).to_be_focused()
    audit(page, "rated table, join form, signed out (en)")
    reader.both(page, "rated table, join form, signed out")
    page.fill("#nickname", "Sam")
    page.click("#join")
    expect(page.locator("#join-overlay")).to_be_hidden()
    box = page.locator("#rated-box")
    expect(box).to_be_visible()
    expect(box).to_contain_text(EN.t("rated.signed_out"))
    expect(page.locator("#rated")).to_be_visible()
    expect(page.locator("#undo-button")).to_be_hidden()
    shot(page, "table_signed_out")
    audit(page, "rated table, signed out (en)")
    reader.both(page, "rated table, signed out")

    # the notice's link opens the account page in another tab, where the player signs up: the table's seat, in
    # this browser's My tables, goes into the account; back on the table, the page says the match now counts
    with page.context.expect_page() as opened:
        box.locator("a").click()
    account = opened.value
    account.wait_for_selector("body[data-ready='1']")
    expect(account.locator("#bring-note")).to_have_text(EN.n("account.bring_note", 1))
    sign_up(account, "sam_2")
    signed_in(account)
    expect(account.locator("#account-status")).to_contain_text(EN.n("account.brought", 1))
    with page.expect_response("**/api/account/claim") as claimed:
        page.bring_to_front()
        page.evaluate("window.dispatchEvent(new Event('focus'))")  # the tab comes back
    assert claimed.value.json()["claimed"] == [{"table": made["id"], "seat": 0}]
    expect(box).to_be_hidden()
    expect(page.locator("#message")).to_have_text(EN.t("rated.now_counts", name="sam_2"))

    # 360 px, in both languages: the notice fits
    for lang in ("en", "fr"):
        phone = pages.new(viewport=PHONE, touch=True)
        phone.goto(server + "/")
        phone.evaluate(f"localStorage.setItem('millebornes.lang', '{lang}')")
        other = create_table(
            server,
            {
                "ruleset": "dujardin",
                "players": 2,
                "seats": [{"kind": "human"}, {"kind": "bot", "level": "medium"}],
                "rated": True,
            },
        )
        phone.goto(server + other["seats"][0]["url"])
        expect(phone.locator("#join-rated")).to_have_text(
            CATALOGS[lang].t("rated.signed_out") + " " + CATALOGS[lang].t("rated.signin_link")
        )
        no_sideways_scroll(phone, f"rated join form, 360 px ({lang})")
        shot(phone, f"join_360_{lang}")
        phone.fill("#nickname", "Sam")
        phone.click("#join")
        expect(phone.locator("#rated-box")).to_be_visible()
        state = f"rated table, signed out, 360 px ({lang})"
        audit(phone, state)
        reader.read(phone, state)
        no_sideways_scroll(phone, state)
        shot(phone, f"table_360_{lang}")
    audit.check()
    reader.check()


def test_the_home_page_offers_rated_to_accounts(server, pages, axe_source):  # noqa: F811
    audit, reader = Audit(axe_source), Reader()
    listed = create_table(
        server,
        {
            "ruleset": "classic",
            "players": 2,
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "rated": True,
            "public": True,
        },
    )
    seated = join_by_socket(server, listed, 0, "Ann")  # the lobby lists a table once someone sits at it
    page = pages.new()
    open_home(page, server)
    # the lobby says which open table is rated
    lobby = page.locator(f"#lobby-list li.lobby-table[data-table='{listed['id']}']")
    expect(lobby.locator(".rated-badge")).to_have_text(EN.t("rated.badge"))
    # signed out: the box is off, and its note says why, with the way to the account page
    for box, note in (("#rated", "#rated-note"), ("#quick-rated", "#quick-rated-note")):
        expect(page.locator(box)).to_be_disabled()
        expect(page.locator(note)).to_have_text(EN.t("home.rated_signed_out", link=EN.t("home.rated_signin")))
        expect(page.locator(f"{note} a")).to_have_attribute("href", "/account")
    audit(page, "home, signed out (en)")
    reader.both(page, "home, signed out")

    open_account(page, server)
    sign_up(page, "tom_3")
    signed_in(page)
    session = page.context.storage_state()
    for size, where in (({"width": 1280, "height": 800}, "desktop"), (PHONE, "360 px")):
        for lang in ("en", "fr"):
            home = pages.new(viewport=size, storage_state=session)
            home.goto(server + "/")
            home.evaluate(f"localStorage.setItem('millebornes.lang', '{lang}')")
            open_home(home, server)
            cat = CATALOGS[lang]
            # by the keyboard: the quick game's box is reached by Tab and ticked with Space
            home.focus("#quick-level")
            home.keyboard.press("Tab")
            home.keyboard.press("Tab")
            expect(home.locator("#quick-rated")).to_be_focused()
            home.keyboard.press("Space")
            expect(home.locator("#quick-rated")).to_be_checked()
            expect(home.locator("#quick-rated-note")).to_have_text(cat.t("home.rated_on"))
            home.locator("#rated").check()
            expect(home.locator("#rated-note")).to_have_text(cat.t("home.rated_on"))
            home.locator("#rated").uncheck()
            expect(home.locator("#rated-note")).to_have_text(cat.t("home.rated_note"))
            state = f"home, rated chosen, {where} ({lang})"
            audit(home, state)
            reader.read(home, state)
            no_sideways_scroll(home, state)
            shot(home, f"home_{'360' if size is PHONE else 'desktop'}_{lang}")
            if size is PHONE and lang == "en":
                # the quick game asks for a rated table
                with home.expect_request("**/api/tables") as sent:
                    home.click("#quick-start")
                assert sent.value.post_data_json["rated"] is True
                home.wait_for_url(re.compile(r"/t/"))
                expect(home.locator("#rated")).to_be_visible()
    seated.close()
    audit.check()
    reader.check()
