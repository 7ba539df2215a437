"""Bot accounts from the pages (docs/web-api.md, "Bots online"; js/botpick.js, js/challenges.js, js/profile.js) in
Chromium against a real server, the bots being programs on real sockets: a signed-in person gives a seat to a bot
online, picked from the suggestions, sees the challenge wait and then be accepted, sits down and plays; a bot that
declines leaves its seat to the stand-in, and the page says so; a bot not online is refused in the page's words,
the name field taking the focus; the profile lists a person's bots and a bot's profile names its owner.  axe-core,
the wording check, the keyboard and no sideways scrolling on a 360 px phone, in English and French."""

from __future__ import annotations

import json
import random
import threading
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


class Program(threading.Thread):
    """A bot account's program on a real socket: it answers each challenge after ``delay`` seconds, accepting it or
    not, then plays a random legal action at each decide."""

    def __init__(self, base: str, token: str, accept: bool, delay: float):
        super().__init__(daemon=True)
        self.ws = ws_sync.connect(
            base.replace("http://", "ws://") + "/ws/bot",
            additional_headers={"Authorization": f"Bearer {token}"},
            legacy=True,
        )
        self.accept, self.delay = accept, delay
        self.decides = 0
        self.rng = random.Random(3)
        self.start()

    def run(self) -> None:
        try:
            for text in self.ws:
                m = json.loads(text)
                if m["type"] == "hello":
                    self.ws.send(json.dumps({"type": "hello", "protocol": "millebornes-bot/1", "name": "t"}))
                elif m["type"] == "challenge":
                    time.sleep(self.delay)
                    self.ws.send(json.dumps({"type": "accept" if self.accept else "decline", "id": m["id"]}))
                elif m["type"] == "decide":
                    self.decides += 1
                    action = self.rng.choice(m["legal_actions"])
                    self.ws.send(json.dumps({"type": "action", "id": m["id"], "action": action}))
        except Exception:
            pass


@pytest.fixture(scope="module")
def bots(server):
    """An owner's two bots online: ``zorg_bot`` accepts after 2 s, ``nein_bot`` declines after 1 s."""
    owner = httpx.Client(base_url=server, timeout=10)
    r = owner.post("/api/account/signup", json={"username": "zoe_owner", "password": PASSWORD})
    assert r.status_code == 201, r.text
    csrf = {"X-CSRF-Token": r.json()["csrf"]}
    programs = []
    for name, accept, delay in (("zorg_bot", True, 2.0), ("nein_bot", False, 1.0)):
        token = owner.post("/api/account/bots", json={"username": name}, headers=csrf).json()["token"]
        programs.append(Program(server, token, accept, delay))
    deadline = time.monotonic() + 10
    while len(owner.get("/api/bots/online").json()["bots"]) < 2:
        assert time.monotonic() < deadline, "the bots did not connect"
        time.sleep(0.05)
    yield {p: prog for p, prog in zip(("zorg_bot", "nein_bot"), programs)}
    for prog in programs:
        prog.ws.close()
    owner.close()


def home(page, base: str, lang: str = "en") -> None:
    page.goto(base + "/")
    page.evaluate(f"localStorage.setItem('millebornes.lang', '{lang}')")
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("html")).to_have_attribute("lang", lang)


def no_sideways_scroll(page, state: str) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth - innerWidth")
    assert wide <= 0, f"{state}: the page is {wide} px wider than the screen"


def bot_for_seat_2(page, name: str) -> None:
    """By the keyboard: seat 2's choice becomes a bot account (its last option), and the bot's name is typed."""
    focus(page, "#seat-kind-1")
    for _ in range(8):
        page.keyboard.press("ArrowDown")
    expect(page.locator("#seat-kind-1")).to_have_value("bot-account")
    expect(page.locator("#seat-bot-1")).to_be_visible()
    page.keyboard.press("Tab")
    expect(page.locator("#seat-bot-1")).to_be_focused()
    page.keyboard.type(name)


def test_a_signed_in_person_challenges_a_bot_online_sees_it_accept_and_plays(server, pages, bots, axe_source):  # noqa: F811
    audit, reader = Audit(axe_source), Reader()
    page = pages.new()
    home(page, server)
    r = page.request.post(server + "/api/account/signup", data={"username": "ann_player", "password": PASSWORD})
    assert r.status == 201, r.text()
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#ruleset", "dujardin")
    bot_for_seat_2(page, "zorg")
    # the suggestions are the bots online, each with its owner; the chosen one's note says who runs it
    expect(page.locator("#online-bots option[value='zorg_bot']")).to_have_count(1)
    expect(page.locator("#online-bots option[value='nein_bot']")).to_have_count(1)
    expect(page.locator("#online-bots option[value='zorg_bot']")).to_have_attribute(
        "label", EN.t("botpick.owner", owner="zoe_owner")
    )
    expect(page.locator("#seat-note-1")).to_have_text(EN.t("botpick.not_online"))
    page.keyboard.type("_bot")
    expect(page.locator("#seat-note-1")).to_have_text(EN.t("botpick.owner", owner="zoe_owner"))
    expect(page.get_by_role("combobox", name=EN.t("botpick.name"), exact=True)).to_have_count(1)
    audit(page, "home, a bot account chosen (en)")
    reader.both(page, "home, a bot account chosen")
    page.locator("#seat-bot-1").press("Enter")  # the form is sent from the name field

    challenge = page.locator("#challenge-list li[data-seat='1']")
    expect(challenge).to_have_attribute("data-state", "waiting")
    expect(challenge).to_contain_text(EN.t("challenge.waiting", n=2, name="zorg_bot", s="").split("(")[0])
    audit(page, "home, the challenge waiting (en)")
    page.screenshot(path="/tmp/botseat_waiting_desktop_en.png", full_page=True)
    expect(challenge).to_have_attribute("data-state", "accepted")
    expect(challenge).to_have_text(EN.t("challenge.accepted", n=2, name="zorg_bot"))
    expect(page.locator("#challenge-status")).to_have_text(EN.t("challenge.accepted", n=2, name="zorg_bot"))
    audit(page, "home, the challenge accepted (en)")
    reader.both(page, "home, the challenge accepted")
    page.screenshot(path="/tmp/botseat_accepted_desktop_en.png", full_page=True)

    # the person sits down and plays a few moves against the bot
    page.click("a.invite[data-seat='0']")
    page.fill("#nickname", "Ann")
    page.click("#join")
    expect(page.locator("#join-overlay")).to_be_hidden()
    moves = 0
    while moves < 3:
        page.wait_for_function(
            "() => { const t = document.querySelector('#turn');"
            " return t.dataset.mine === '1' && t.dataset.status === 'playing' || !!document.querySelector('#match-over:not([hidden])'); }"
        )
        if page.locator("#match-over").is_visible():
            break
        turn = page.locator("#turn")
        before, decision = int(turn.get_attribute("data-seq")), turn.get_attribute("data-decision")
        if decision == "draw":
            page.click("#stock")
        elif decision == "coup-fourre":
            page.click("#cf-no")
        elif decision == "extension":
            page.click("#ext-no")
        else:
            page.locator("#hand .card").first.click()
            page.click("#discard")
        page.wait_for_function("n => Number(document.querySelector('#turn').dataset.seq) > n", arg=before)
        moves += 1
    assert moves == 3
    assert bots["zorg_bot"].decides > 0  # the bot played its seat between the person's moves
    audit.check()
    reader.check()


def test_a_bot_that_declines_leaves_its_seat_to_the_stand_in_and_the_page_says_so(server, pages, bots, axe_source):  # noqa: F811
    audit, reader = Audit(axe_source), Reader()
    page = pages.new(viewport=PHONE)
    home(page, server, "fr")
    page.select_option("#ruleset", "dujardin")
    page.select_option("#seat-kind-1", "bot-account")
    page.fill("#seat-bot-1", "nein_bot")
    expect(page.locator("#seat-note-1")).to_have_text(FR.t("botpick.owner", owner="zoe_owner"))
    no_sideways_scroll(page, "home, a bot account chosen, 360 px (fr)")
    audit(page, "home, a bot account chosen, 360 px (fr)")
    page.screenshot(path="/tmp/botseat_chosen_360_fr.png", full_page=True)
    standin = page.locator("#standin").input_value()
    page.click("#create")
    challenge = page.locator("#challenge-list li[data-seat='1']")
    expect(challenge).to_have_attribute("data-state", "waiting")
    no_sideways_scroll(page, "home, the challenge waiting, 360 px (fr)")
    expect(challenge).to_have_attribute("data-state", "declined")
    said = FR.t("challenge.declined", n=2, name="nein_bot", level=FR.t(f"level.{standin}"))
    expect(challenge).to_have_text(said)
    expect(page.locator("#challenge-status")).to_have_text(said)
    no_sideways_scroll(page, "home, the challenge declined, 360 px (fr)")
    audit(page, "home, the challenge declined, 360 px (fr)")
    reader.both(page, "home, the challenge declined, 360 px")
    page.screenshot(path="/tmp/botseat_declined_360_fr.png", full_page=True)
    # the server says the same: a built-in bot of the stand-in's level holds the seat
    table = page.evaluate("JSON.parse(sessionStorage.getItem('millebornes.lastInvites')).id")
    seat = httpx.get(f"{server}/api/tables/{table}").json()["seats"][1]
    assert (seat["kind"], seat["level"]) == ("bot", standin)
    audit.check()
    reader.check()


def test_a_bot_not_online_is_refused_in_the_pages_words(server, pages, bots):
    page = pages.new()
    home(page, server, "fr")
    page.select_option("#seat-kind-1", "bot-account")
    page.click("#create")  # no name: the page asks for one
    expect(page.locator("#create-error")).to_have_text(FR.t("home.error.bot_name", n=2))
    expect(page.locator("#seat-bot-1")).to_be_focused()
    expect(page.locator("#seat-bot-1")).to_have_attribute("aria-invalid", "true")
    page.fill("#seat-bot-1", "ghost_bot")
    page.click("#create")
    expect(page.locator("#create-error")).to_have_text(FR.t("home.error.bot-offline"))
    expect(page.locator("#seat-bot-1")).to_be_focused()
    expect(page.locator("#invites")).to_be_hidden()


def test_the_profile_lists_a_persons_bots_and_a_bots_profile_names_its_owner(server, pages, bots, axe_source):  # noqa: F811
    audit, reader = Audit(axe_source), Reader()
    for size, where in (({"width": 1280, "height": 800}, "desktop"), (PHONE, "360 px")):
        for lang, cat in (("en", EN), ("fr", FR)):
            page = pages.new(viewport=size)
            page.goto(server + "/")
            page.evaluate(f"localStorage.setItem('millebornes.lang', '{lang}')")
            page.goto(server + "/players/zoe_owner")
            page.wait_for_selector("body[data-ready='1']")
            listed = page.locator("#profile-bots li")
            expect(listed).to_have_count(2)
            for name in ("zorg_bot", "nein_bot"):
                item = page.locator(f".profile-bot[data-bot='{name}']")
                expect(item).to_have_attribute("data-online", "1")
                expect(item).to_contain_text(cat.t("profile.bot_online"))
                expect(item.locator("a")).to_have_attribute("href", f"/players/{name}")
            expect(page.locator("#profile-owner")).to_be_hidden()
            state = f"profile with bots, {where} ({lang})"
            audit(page, state)
            reader.both(page, state)
            no_sideways_scroll(page, state)
            page.screenshot(path=f"/tmp/botseat_profile_{where.replace(' ', '')}_{lang}.png", full_page=True)
            page.locator("body").focus()
            focus(page, ".profile-bot[data-bot='zorg_bot'] a")
            page.keyboard.press("Enter")
            page.wait_for_selector("body[data-ready='1']")
            expect(page).to_have_url(server + "/players/zorg_bot")
            expect(page.locator("#profile-owner")).to_have_text(cat.t("profile.owner", owner="zoe_owner"))
            expect(page.locator("#bots-panel")).to_be_hidden()
            page.screenshot(path=f"/tmp/botseat_botprofile_{where.replace(' ', '')}_{lang}.png")
            state = f"a bot's profile, {where} ({lang})"
            audit(page, state)
            reader.both(page, state)
            no_sideways_scroll(page, state)
            page.locator("body").focus()
            focus(page, "#profile-owner a")
            page.keyboard.press("Enter")
            page.wait_for_selector("body[data-ready='1']")
            expect(page).to_have_url(server + "/players/zoe_owner")
    audit.check()
    reader.check()
