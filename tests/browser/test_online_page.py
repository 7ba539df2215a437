"""The bots online page (/bots, js/online.js) in Chromium against a real server, a bot being a program on a real
socket: the bot listed with its owner, its ratings, what it accepts and whether it is free; its "Challenge" link
opens the home page's new table with a seat given to it, by the keyboard; what a bot's ``accepts`` says (and a busy
bot, with no link) shown from an answer the test writes; the list kept up to date, the status line polite; axe-core,
the wording check and no sideways scrolling, in English and French, on a desktop and a 360 px phone."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
httpx = pytest.importorskip("httpx")
ws_sync = pytest.importorskip("websockets.sync.client")
from playwright.sync_api import expect  # noqa: E402

from millebornes.i18n import catalog  # noqa: E402
from tests.browser.test_axe import Audit, axe_source, focus  # noqa: E402,F401
from tests.browser.test_wording import Reader  # noqa: E402
from tests.browsing import CHROMIUM, browser, pages, server  # noqa: E402,F401

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
    pytest.mark.server,
]

EN, FR = catalog("en"), catalog("fr")
PASSWORD = "plum kettle orbit ninety"
PHONE = {"width": 360, "height": 640}
DESKTOP = {"width": 1280, "height": 800}
ANY = " · ".join(EN.t(k) for k in ("online.any_edition", "online.any_players", "online.rated_or_casual"))


@pytest.fixture(scope="module")
def online_bot(server):
    """``page_bot`` of ``page_owner``, connected (it says hello and nothing more)."""
    owner = httpx.Client(base_url=server, timeout=10)
    r = owner.post("/api/account/signup", json={"username": "page_owner", "password": PASSWORD})
    assert r.status_code == 201, r.text
    csrf = {"X-CSRF-Token": r.json()["csrf"]}
    token = owner.post("/api/account/bots", json={"username": "page_bot"}, headers=csrf).json()["token"]
    ws = ws_sync.connect(
        server.replace("http://", "ws://") + "/ws/bot",
        additional_headers={"Authorization": f"Bearer {token}"},
        legacy=True,
    )
    assert json.loads(ws.recv(timeout=10))["type"] == "hello"
    ws.send(json.dumps({"type": "hello", "protocol": "millebornes-bot/1", "name": "t"}))
    deadline = time.monotonic() + 10
    while not owner.get("/api/bots/online").json()["bots"]:
        assert time.monotonic() < deadline, "the bot did not connect"
        time.sleep(0.05)
    yield "page_bot"
    ws.close()
    owner.close()


SPACE_BEFORE_NAME = """a => {
  const name = a.querySelector("bdi"), words = name.previousSibling, r = document.createRange();
  r.setStart(words, 0);
  r.setEnd(words, words.textContent.trimEnd().length);
  return name.getBoundingClientRect().left - r.getBoundingClientRect().right;
}"""


def open_online(page, base: str, lang: str = "en") -> None:
    page.goto(base + "/")
    page.evaluate(f"localStorage.setItem('millebornes.lang', '{lang}')")
    page.goto(base + "/bots")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("html")).to_have_attribute("lang", lang)


def no_sideways_scroll(page, state: str) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth - innerWidth")
    assert wide <= 0, f"{state}: the page is {wide} px wider than the screen"


def test_a_bot_online_is_listed_and_challenged_from_its_link_by_the_keyboard(server, pages, online_bot, axe_source):  # noqa: F811
    audit, reader = Audit(axe_source), Reader()
    page = pages.new(DESKTOP)
    open_online(page, server)
    bot = page.locator("li.online-bot[data-name='page_bot']")
    expect(bot).to_have_count(1)
    expect(page.get_by_role("listitem", name="page_bot")).to_have_count(1)
    expect(page.locator("#online-status")).to_have_text(EN.n("online.count", 1))
    expect(page.locator("#online-status")).to_have_attribute("role", "status")
    facts = bot.locator("dd")
    expect(facts.nth(0)).to_have_text("page_owner")
    expect(facts.nth(0).locator("a")).to_have_attribute("href", "/players/page_owner")
    expect(facts.nth(1)).to_have_text(EN.t("online.unrated"))
    expect(facts.nth(2)).to_have_text(ANY)  # no accepts: anything
    expect(facts.nth(3)).to_have_text(EN.t("online.free"))
    link = page.get_by_role("link", name=EN.t("online.challenge", name="page_bot"), exact=True)
    expect(link).to_have_attribute("href", "/?bot=page_bot")
    gap = link.evaluate(SPACE_BEFORE_NAME)
    assert gap >= 2, f"the link reads 'Challengepage_bot': {gap} px between the word and the name"
    audit(page, "bots online (en, desktop)")
    reader.both(page, "bots online")
    # by the keyboard: Tab to the bot's link, Enter; the home page's form gives seat 2 to the bot, its name in focus
    focus(page, "#bot-page_bot-challenge")
    page.keyboard.press("Enter")
    page.wait_for_url("**/?bot=page_bot")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#seat-kind-1")).to_have_value("bot-account")
    expect(page.locator("#seat-bot-1")).to_have_value("page_bot")
    expect(page.locator("#seat-bot-1")).to_be_focused()
    expect(page.locator("#seat-note-1")).to_contain_text(EN.t("botpick.owner", owner="page_owner"))
    # the navigation leads to the page, and so does the bots' own page
    page.get_by_role("link", name=EN.t("online.title"), exact=True).click()
    page.wait_for_url("**/bots")
    page.goto(server + "/account/bots")
    expect(page.locator("#online-link")).to_have_attribute("href", "/bots")

    phone = pages.new(PHONE)
    open_online(phone, server, "fr")
    expect(phone.get_by_role("link", name=FR.t("online.challenge", name="page_bot"), exact=True)).to_be_visible()
    expect(phone.locator("#online-status")).to_have_text(FR.n("online.count", 1))
    audit(phone, "bots online (fr, phone)")
    reader.read(phone, "bots online, phone")
    no_sideways_scroll(phone, "bots online (fr, phone)")
    audit.check()
    reader.check()


LISTED = {
    "bots": [
        {
            "name": "picky_bot",
            "owner": "page_owner",
            "ratings": {"classic": {"rating": 1523, "provisional": False, "matches": 40}},
            "busy": False,
            "accepts": {"editions": ["parker"], "players": [3], "rated": False, "casual": True},
        },
        {"name": "full_bot", "owner": "page_owner", "ratings": {}, "busy": True},
    ],
    "most": 50,
}


def test_what_a_bot_accepts_and_a_busy_bot_are_shown_and_the_list_follows_the_server(server, pages, axe_source):  # noqa: F811
    audit, reader = Audit(axe_source), Reader()
    answer = {"body": LISTED}
    for lang, size in (("en", DESKTOP), ("fr", PHONE)):
        page = pages.new(size)
        page.clock.install()
        page.route("**/api/bots/online", lambda route: route.fulfill(json=answer["body"]))
        open_online(page, server, lang)
        words = EN if lang == "en" else FR
        picky = page.locator("li.online-bot[data-name='picky_bot'] dd")
        expect(picky.nth(1)).to_have_text(
            words.t("online.rating", edition=words.t("edition.classic"), rating=words.number(1523))
        )
        expect(picky.nth(2)).to_have_text(
            " · ".join(
                [
                    words.t("online.editions", list=words.t("edition.parker")),
                    words.t("online.players", list="3"),
                    words.t("online.casual_only"),
                ]
            )
        )
        expect(page.locator("#bot-picky_bot-challenge")).to_have_attribute(
            "href", "/?bot=picky_bot&edition=parker&players=3"
        )
        full = page.locator("li.online-bot[data-name='full_bot']")
        expect(full.locator("dd").nth(3)).to_have_text(words.t("online.busy"))
        expect(full.locator("a.button")).to_have_count(0)  # a challenge would be refused
        state = f"bots online, accepts and busy ({lang})"
        audit(page, state)
        reader.read(page, state)
        no_sideways_scroll(page, state)
        if lang == "en":
            page.locator("#bot-picky_bot-challenge").focus()
            answer["body"] = {"bots": [LISTED["bots"][0] | {"ratings": {}}], "most": 50}
            page.clock.fast_forward(11000)
            expect(page.locator("li.online-bot")).to_have_count(1)
            expect(page.locator("#online-status")).to_have_text(EN.n("online.count", 1))
            expect(page.locator("#bot-picky_bot-challenge")).to_be_focused()  # redrawn, the focus kept
            answer["body"] = {"bots": [], "most": 50}
            page.clock.fast_forward(11000)
            expect(page.locator("#online-status")).to_have_text(EN.t("online.none"))
            expect(page.locator("li.online-bot")).to_have_count(0)
            answer["body"] = LISTED
            page.locator("#bot-picky_bot-challenge").wait_for(state="detached")
            page.clock.fast_forward(11000)
            page.locator("#bot-picky_bot-challenge").click()
            page.wait_for_selector("body[data-ready='1']")
            expect(page.locator("#ruleset")).to_have_value("parker")
            expect(page.locator("#players")).to_have_value("3")
            expect(page.locator("#seat-bot-1")).to_have_value("picky_bot")
    audit.check()
    reader.check()


RANKED = {
    "bots": [{"name": "ranked_bot", "owner": "page_owner", "ratings": {}, "busy": False, "accepts": {"casual": False}}],
    "most": 50,
}


def test_a_bot_that_plays_rated_matches_only_is_challenged_to_a_rated_one(server, pages, axe_source):  # noqa: F811
    """Its "Challenge" link asks for a rated table; the form says so beside the bot's name, ticks "Rated match" for a
    signed-in page, and, signed out, says before the server would refuse it what to change, in either language."""
    audit = Audit(axe_source)
    for lang, size in (("en", DESKTOP), ("fr", PHONE)):
        words = EN if lang == "en" else FR
        page = pages.new(size)
        page.route("**/api/bots/online", lambda route: route.fulfill(json=RANKED))
        open_online(page, server, lang)
        link = page.locator("#bot-ranked_bot-challenge")
        expect(link).to_have_attribute("href", "/?bot=ranked_bot&rated=1")
        link.click()
        page.wait_for_selector("body[data-ready='1']")
        expect(page.locator("#seat-bot-1")).to_have_value("ranked_bot")
        expect(page.locator("#seat-note-1")).to_contain_text(words.t("botpick.rated_only"))
        expect(page.locator("#rated")).not_to_be_checked()  # signed out: a rated table is not this page's to make
        page.locator("#create").click()
        expect(page.locator("#create-error")).to_have_text(words.t("home.error.bot_rated_only", name="ranked_bot"))
        expect(page.locator("#seat-bot-1")).to_have_attribute("aria-invalid", "true")
        audit(page, f"a rated-only bot refused before the server ({lang})")
        no_sideways_scroll(page, f"a rated-only bot refused ({lang})")
    r = page.request.post(
        server + "/api/account/signup",
        data={"username": "ranked_fan", "password": PASSWORD},
        headers={"Origin": server},
    )
    assert r.status == 201, r.text()
    page.goto(server + "/?bot=ranked_bot&rated=1")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#rated")).to_be_checked()
    expect(page.locator("#seat-bot-1")).to_have_value("ranked_bot")
    audit.check()


def test_the_people_at_a_bots_seek_are_told_when_it_is_withdrawn(server, pages, axe_source):  # noqa: F811
    """Two people sat down at a bot's four-player seek (one page in English on a desktop, one in French on a phone);
    the bot withdraws it: each page says why, in its language, and that the table can no longer be played."""
    from tests.browsing import join

    owner = httpx.Client(base_url=server, timeout=10)
    r = owner.post("/api/account/signup", json={"username": "seek_owner", "password": PASSWORD})
    assert r.status_code == 201, r.text
    csrf = {"X-CSRF-Token": r.json()["csrf"]}
    token = owner.post("/api/account/bots", json={"username": "seek_bot"}, headers=csrf).json()["token"]
    ws = ws_sync.connect(
        server.replace("http://", "ws://") + "/ws/bot",
        additional_headers={"Authorization": f"Bearer {token}"},
        legacy=True,
    )
    assert json.loads(ws.recv(timeout=10))["type"] == "hello"
    ws.send(json.dumps({"type": "hello", "protocol": "millebornes-bot/1", "name": "t"}))
    ws.send(json.dumps({"type": "seek", "id": 1, "edition": "dujardin", "players": 4, "rated": False, "clock": 0}))
    while (m := json.loads(ws.recv(timeout=10)))["type"] != "sought":
        pass
    audit, seated = Audit(axe_source), []
    for seat, (lang, size, name) in enumerate((("en", DESKTOP, "Ann"), ("fr", PHONE, "Zoe")), start=1):
        page = pages.new(size)
        page.goto(server + "/")
        page.evaluate(f"localStorage.setItem('millebornes.lang', '{lang}')")
        link = owner.post(f"/api/tables/{m['table']}/seats/{seat}/claim").json()["url"]
        join(page, server + link, name)
        seated.append((page, EN if lang == "en" else FR, lang))
    ws.send(json.dumps({"type": "unseek", "table": m["table"]}))
    for page, words, lang in seated:
        expect(page.locator("#message")).to_have_text(words.t("msg.withdrawn"))
        expect(page.locator("#turn")).to_have_text(words.t("turn.gone"))
        audit(page, f"a withdrawn seek ({lang})")
        no_sideways_scroll(page, f"a withdrawn seek ({lang})")
    ws.close()
    owner.close()
    audit.check()
