"""Puzzles that speak to the person, in Chromium: a race Ann played to its end is reviewed; a stranger's replay
offers "Learn from Ann’s mistakes" and her puzzles say "Ann", the browser holding her seat's link reads "your
mistakes"; the puzzle set names nobody ("You", "Opponent") and, once its shipped puzzles are answered here, goes on
with the game's; My puzzles asks a signed-out player to sign in, and shows a signed-in player the mistakes of the seat
their account holds. Every state: axe-core finds nothing serious, the words are the catalog's in both languages, it
fits a 360 px phone.

Screenshots for a person to look at: /tmp/puzzles-people-*.png (1366x800 and 360x640, English and French).
"""

from __future__ import annotations

import json
import random
import time
import urllib.request
from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
from playwright.sync_api import expect  # noqa: E402

from millebornes.i18n import catalog  # noqa: E402
from millebornes.puzzles import shipped  # noqa: E402
from tests.browser.test_axe import Audit, axe_source, set_lang  # noqa: E402,F401
from tests.browser.test_phone import check_fits  # noqa: E402
from tests.browser.test_review_page import Served, get  # noqa: E402
from tests.browser.test_wording import Reader  # noqa: E402
from tests.browsing import CHROMIUM, browser, create_table, pages  # noqa: E402,F401
from tests.serving import Seat  # noqa: E402

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
    pytest.mark.server,
]
EN, FR = catalog("en"), catalog("fr")
DESKTOP, PHONE = {"width": 1366, "height": 800}, {"width": 360, "height": 640}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    s = Served(tmp_path_factory.mktemp("puzzles"))
    yield s
    s.stop()


def post(url: str, body: dict | None = None) -> dict:
    req = urllib.request.Request(
        url, data=json.dumps(body or {}).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


@pytest.fixture(scope="module")
def race(served):
    """Ann's random race against an easy bot, reviewed and its puzzles kept: (table id, Ann's token)."""
    made = create_table(
        served.base,
        {
            "ruleset": "dujardin",
            "players": 2,
            "seed": 13,
            "cf_timeout": 0.3,
            "public": True,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}],
        },
    )
    ann = Seat(served, made, 0, "Ann")
    rng = random.Random(13)
    while not ann.obs["is_over"]:
        if ann.obs["legal_actions"]:
            ann.act(rng.choice(ann.obs["legal_actions"]))
        ann.next_state()
    ann.close()
    tid = made["id"]
    token = next(s["url"] for s in made["seats"] if s["seat"] == 0).split("token=")[1]
    post(f"{served.base}/api/tables/{tid}/review")
    deadline = time.time() + 120
    n = len(shipped()["puzzles"])
    while len(get(f"{served.base}/api/puzzles")["puzzles"]) == n:  # the review done, then its puzzles kept
        assert time.time() < deadline, "the review's puzzles were not kept"
        time.sleep(0.2)
    return tid, token


def holding(page, tid: str, token: str) -> None:
    """This browser holds the seat's link, as the table page keeps it for its tab."""
    page.add_init_script(f"sessionStorage.setItem('millebornes.seat.{tid}', JSON.stringify({{token: '{token}'}}))")


def shots(page, name: str, reader: Reader, audit: Audit) -> None:
    """The state in both languages: axe, the words, and a picture each at this size."""
    size = "phone" if page.viewport_size["width"] == PHONE["width"] else "desktop"
    for lang in ("en", "fr"):
        set_lang(page, lang)
        audit(page, f"{name} ({lang}, {size})")
        if size == "phone":
            check_fits(page, PHONE, f"{name} ({lang})")
        page.screenshot(path=f"/tmp/puzzles-people-{name}-{size}-{lang}.png", full_page=True)
    reader.both(page, name)
    set_lang(page, "en")


def open_puzzles(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_strangers_words_and_the_holders(served, race, pages, axe_source, viewport):  # noqa: F811
    tid, token = race
    audit, reader = Audit(axe_source), Reader()
    review = get(f"{served.base}/api/tables/{tid}/review")["review"]
    erred = [s["seat"] for s in review["summary"] if sum(s["counts"][c] for c in ("inaccuracy", "mistake", "blunder"))]
    assert 0 in erred, "random moves make mistakes"

    # a stranger: Ann's mistakes, by her name; the bot's as the bot
    page = pages.new(viewport=viewport)
    page.goto(f"{served.base}/replay/{tid}")
    learn = page.locator("#review-body a.learn-link")
    expect(learn).to_have_count(len(erred))
    expect(learn.first).to_have_text(EN.t("puzzle.learn_of", name="Ann"))
    expect(learn.first).to_have_attribute("data-yours", "0")
    if 1 in erred:
        expect(learn.nth(1)).to_have_text(EN.t("puzzle.learn_bot", name="Bot 2 (easy)"))
    shots(page, "review-stranger", reader, audit)
    learn.first.click()
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#puzzle-intro")).to_have_text(EN.t("puzzle.intro_theirs", name="Ann"))
    expect(page.locator("#puzzle-ask")).to_have_text(EN.t("puzzle.ask", name="Ann"))
    expect(page.locator("#puzzle-board .seat-name .nick")).to_have_text(["Ann", "Bot 2 (easy)"])
    expect(page.locator("#puzzle-board .seat-name .you")).to_have_count(0)
    assert "your" not in page.locator("main").inner_text().lower()
    shots(page, "table-stranger", reader, audit)

    # the browser holding Ann's link: her mistakes are "yours"
    page = pages.new(viewport=viewport)
    holding(page, tid, token)
    page.goto(f"{served.base}/replay/{tid}")
    learn = page.locator("#review-body a.learn-link")
    expect(learn.first).to_have_text(EN.t("puzzle.learn_yours"))
    expect(learn.first).to_have_attribute("data-yours", "1")
    shots(page, "review-holder", reader, audit)
    learn.first.click()
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#puzzle-intro")).to_have_text(EN.t("puzzle.intro_mine"))
    expect(page.locator("#puzzle-ask")).to_have_text(EN.t("puzzle.ask_yours"))
    expect(page.locator("#puzzle-board .seat-name").first).to_contain_text(f"Ann {EN.t('table.you_mark')}")
    set_lang(page, "fr")
    expect(page.locator("#puzzle-intro")).to_have_text(FR.t("puzzle.intro_mine"))
    set_lang(page, "en")
    shots(page, "table-holder", reader, audit)
    reader.check()
    audit.check()


def test_the_set_names_nobody_and_goes_on_with_real_games(served, race, pages, axe_source):  # noqa: F811
    audit, reader = Audit(axe_source), Reader()
    page = pages.new(viewport=DESKTOP)
    open_puzzles(page, served.base + "/puzzles")
    first = shipped()["puzzles"][0]
    expect(page.locator("#puzzle")).to_have_attribute("data-puzzle", first["id"])  # a newcomer starts there
    expect(page.locator("#puzzle-tabs a[aria-current='page']")).to_have_text(EN.t("puzzle.tab_set"))
    expect(page.locator("#puzzle-ask")).to_have_text(EN.t("puzzle.ask_yours"))
    names = page.locator("#puzzle-board .seat-name .nick")
    seat = first["observation"]["seat"]
    expect(names).to_have_text([EN.t("puzzle.you" if s == seat else "puzzle.opponent") for s in range(2)])
    both_sizes(page, "set", reader, audit)
    # every shipped puzzle answered here: the next visit opens at the first from a real game
    games = [p for p in get(served.base + "/api/puzzles")["puzzles"] if p["source"] == "games"]
    done = json.dumps([p["id"] for p in shipped()["puzzles"]])
    page.evaluate(f"localStorage.setItem('millebornes.puzzles.done', {json.dumps(done)})")
    open_puzzles(page, served.base + "/puzzles")
    expect(page.locator("#puzzle")).to_have_attribute("data-puzzle", games[0]["id"])
    expect(page.locator("#puzzle-theme")).to_contain_text(EN.t("puzzle.source.games"))
    text = page.locator("main").inner_text()
    assert "Ann" not in text and "Seat 1" not in text and "Bot 2" not in text  # nobody named
    page.locator(".puzzle-move").first.click()
    both_sizes(page, "set-game", reader, audit)
    reader.check()
    audit.check()


def both_sizes(page, name: str, reader: Reader, audit: Audit) -> None:
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        shots(page, name, reader, audit)
    page.set_viewport_size(DESKTOP)


def test_my_puzzles_signed_out_then_in(served, race, pages, axe_source):  # noqa: F811
    tid, token = race
    audit, reader = Audit(axe_source), Reader()
    page = pages.new(viewport=DESKTOP)
    open_puzzles(page, served.base + "/puzzles?mine=1")
    expect(page.locator("#puzzle-none")).to_contain_text(EN.t("puzzle.signed_out"))
    expect(page.locator("#puzzle-none a")).to_have_attribute("href", "/account")
    expect(page.locator("#puzzle-tabs a[aria-current='page']")).to_have_text(EN.t("puzzle.tab_mine"))
    both_sizes(page, "mine-signed-out", reader, audit)
    # signed up here with Ann's link: the account holds her seat, and her mistakes are its puzzles
    name = "ann_1"
    status = page.evaluate(
        """async ([name, tid, token]) => (await fetch('/api/account/signup', {method: 'POST',
             headers: {'Content-Type': 'application/json'},
             body: JSON.stringify({username: name, password: 'correct horse battery',
                                   seats: [{table: tid, seat: 0, token}]})})).status""",
        [name, tid, token],
    )
    assert status == 201
    mine = page.evaluate("async () => (await fetch('/api/puzzles/mine')).json()")
    assert mine["signed_in"] and mine["puzzles"] and {p["table"] for p in mine["puzzles"]} == {tid}
    open_puzzles(page, served.base + "/puzzles?mine=1")
    expect(page.locator("#puzzle")).to_have_attribute("data-puzzle", mine["puzzles"][0]["id"])
    expect(page.locator("#puzzle-intro")).to_have_text(EN.t("puzzle.intro_my_games"))
    expect(page.locator(".puzzle-game")).to_have_attribute("href", f"/replay/{tid}")
    expect(page.locator("#puzzle-board .seat-name .nick").first).to_have_text(EN.t("puzzle.you"))
    both_sizes(page, "mine", reader, audit)
    reader.check()
    audit.check()
