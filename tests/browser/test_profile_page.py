"""A player's profile (/players/NAME, js/profile.js) and the leaderboards (/leaderboard, js/leaderboard.js) in
Chromium against a real server: a rated match played to its end by an account shows its rating graph (with its
words), its totals and the game with its replay and review links, to anybody; the account page links to its own
profile; the leaderboard shows the bots' landmarks per edition.  axe-core, the wording check and no sideways
scrolling in English and French on a desktop and a 360 px phone, and every link reached by the keyboard.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
from playwright.sync_api import expect  # noqa: E402

from millebornes.i18n import catalog  # noqa: E402
from millebornes.web.ratings.skill import bot_anchors  # noqa: E402
from tests.browser.test_axe import Audit, axe_source  # noqa: E402,F401
from tests.browser.test_wording import Reader  # noqa: E402
from tests.browsing import CHROMIUM, browser, create_table, join_by_socket, pages, server  # noqa: E402,F401

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
    pytest.mark.server,
]

EN, FR = catalog("en"), catalog("fr")
PASSWORD = "a long enough secret"
SIZES = (({"width": 1280, "height": 800}, "desktop"), ({"width": 360, "height": 640}, "360 px"))
FAST = ("play 200", "play 100", "play 75", "play 50", "play 25", "play roll")


def post(base: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def rated_match(base: str, username: str) -> str:
    """A public rated dujardin race against the medium bot, its seat claimed by a new account ``username`` and
    played through the socket to its end (the longest distance first); the table's id."""
    made = create_table(
        base,
        {
            "ruleset": "dujardin",
            "players": 2,
            "public": True,
            "rated": True,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "medium"}],
        },
    )
    ws = join_by_socket(base, made, 0, "Ann")
    token = next(s["url"] for s in made["seats"] if s["seat"] == 0).split("token=")[1]
    post(
        base,
        "/api/account/signup",
        {"username": username, "password": PASSWORD, "seats": [{"table": made["id"], "seat": 0, "token": token}]},
    )
    try:
        while True:
            frame = json.loads(ws.recv(timeout=20))
            if frame["type"] != "state":
                continue
            obs = frame["observation"]
            if obs["is_over"]:
                return made["id"]
            legal = obs["legal_actions"]
            if legal:
                action = next(
                    (a for a in FAST if a in legal), next((a for a in legal if a.startswith("play")), legal[0])
                )
                ws.send(json.dumps({"type": "act", "action": action, "seq": frame["seq"]}))
    finally:
        ws.close()


def open_page(page, url: str, lang: str) -> None:
    page.goto(url.split("/players")[0].split("/leaderboard")[0] + "/")
    page.evaluate(f"localStorage.setItem('millebornes.lang', '{lang}')")
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("html")).to_have_attribute("lang", lang)


def no_sideways_scroll(page, state: str) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth - innerWidth")
    assert wide <= 0, f"{state}: the page is {wide} px wider than the screen"


def tab_to(page, selector: str, presses: int = 60) -> None:
    """Press Tab until the element has the focus: every link is on the keyboard's way."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement === document.querySelector(s)", selector):
            return
    raise AssertionError(f"{selector} was not reached by Tab")


def test_a_profile_shows_the_rating_graph_totals_and_games(server, pages, axe_source):  # noqa: F811
    table = rated_match(server, "graph_ann")
    audit, reader = Audit(axe_source), Reader()
    for size, where in SIZES:
        for lang in ("en", "fr"):
            cat = EN if lang == "en" else FR
            page = pages.new(viewport=size)
            open_page(page, server + "/players/graph_ann", lang)
            expect(page.locator("#profile-title")).to_have_text("graph_ann")
            rating = page.locator(".profile-rating[data-family='dujardin']")
            expect(rating).to_have_attribute("data-provisional", "1")
            expect(rating.locator(".rating-now strong")).to_contain_text(
                cat.t("profile.provisional", rating="").strip(" ()")
            )
            expect(rating.locator(".rating-graph svg[role='img'] polyline")).to_have_count(1)
            expect(rating.locator(".rating-graph svg circle")).to_have_count(2)  # the start and after the match
            words = rating.locator("details.graph-words")
            words.locator("summary").click()
            expect(words.locator("tbody tr")).to_have_count(1)
            expect(page.locator(".total[data-total='games'] dd")).to_have_text("1")
            game = page.locator(f".profile-game[data-table='{table}']")
            expect(game).to_have_count(1)
            expect(game.locator("a.replay-link")).to_have_attribute("href", f"/replay/{table}")
            expect(game.locator("a.review-link")).to_have_attribute("href", f"/replay/{table}#review-panel")
            state = f"profile, {where} ({lang})"
            page.screenshot(path=f"/tmp/profile_{where.replace(' ', '')}_{lang}.png", full_page=True)
            audit(page, state)
            reader.both(page, state)
            no_sideways_scroll(page, state)
            page.locator("body").focus()
            tab_to(page, f".profile-game[data-table='{table}'] a.replay-link")
            tab_to(page, f".profile-game[data-table='{table}'] a.review-link", 3)
    nobody = pages.new()
    open_page(nobody, server + "/players/nobody_at_all", "fr")
    expect(nobody.locator("#profile-status")).to_have_text(FR.t("profile.not_found"))
    audit(nobody, "profile not found (fr)")
    audit.check()
    reader.check()


def test_the_account_page_links_to_its_own_profile_and_the_leaderboard(server, pages):
    page = pages.new()
    page.goto(server + "/account")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#signup-username", "link_zoe")
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-submit")
    expect(page.locator("#signed-in")).to_be_visible()
    page.locator("#me-title").focus()
    tab_to(page, "#profile-link", 5)
    page.keyboard.press("Enter")
    page.wait_for_selector("body[data-ready='1']")
    expect(page).to_have_url(server + "/players/link_zoe")
    expect(page.locator("#profile-own")).to_be_visible()
    expect(page.locator(".total[data-total='games'] dd")).to_have_text("0")
    page.click("a[href='/leaderboard']")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#leaders-caption")).to_have_text(EN.t("leaders.caption", edition=EN.t("edition.classic")))


def test_the_leaderboard_shows_each_editions_landmarks(server, pages, axe_source):  # noqa: F811
    audit, reader = Audit(axe_source), Reader()
    for size, where in SIZES:
        for lang in ("en", "fr"):
            cat = EN if lang == "en" else FR
            page = pages.new(viewport=size)
            open_page(page, server + "/leaderboard", lang)
            expect(page.locator(".bot-row")).to_have_count(len(bot_anchors("classic")))
            expect(page.locator(".bot-row[data-level='medium'] .rating")).to_have_text(re.compile(r"^1[\s,]?500$"))
            expect(page.locator("#leaders-rule")).to_have_text(cat.n("leaders.rule", 30))
            page.locator("#edition").focus()
            page.select_option("#edition", "dujardin")
            expect(page).to_have_url(server + "/leaderboard?edition=dujardin")
            expect(page.locator("#leaders-caption")).to_have_text(
                cat.t("leaders.caption", edition=cat.t("edition.dujardin"))
            )
            expect(page.locator(".bot-row")).to_have_count(len(bot_anchors("dujardin")))
            state = f"leaderboard, {where} ({lang})"
            page.screenshot(path=f"/tmp/profile_leaderboard_{where.replace(' ', '')}_{lang}.png", full_page=True)
            audit(page, state)
            reader.both(page, state)
            no_sideways_scroll(page, state)
    audit.check()
    reader.check()
