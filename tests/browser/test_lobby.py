"""The home page's lobby, quick game and "My tables" (docs/web-api.md, "Lobby"), end to end: a real
`millebornes serve` and Chromium, as tests/browser/test_browser.py.  The HTTP rules themselves (what is listed,
who may claim a seat, the bounds) are tests/web/tables/test_lobby.py."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")
from playwright.sync_api import expect  # noqa: E402

from tests.browser.test_axe import audit, axe_source, set_lang  # noqa: E402,F401
from tests.browsing import (  # noqa: E402,F401
    CHROMIUM,
    browser,
    create_table,
    join,
    join_by_socket,
    pages,
    server,
    wait_turn,
    won_dujardin_match,
)

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
    pytest.mark.server,
]

HUMAN = {"kind": "human"}


def get(base: str, path: str):
    with urllib.request.urlopen(base + path, timeout=10) as r:
        return json.load(r)


def public_table(base: str, creator: str, public: bool = True) -> tuple[dict, object]:
    """A classic table of two humans and an easy bot, its creator seated (by socket) at seat 1."""
    made = create_table(
        base,
        {
            "ruleset": "classic",
            "players": 3,
            "public": public,
            "seats": [HUMAN, HUMAN, {"kind": "bot", "level": "easy"}],
        },
    )
    return made, join_by_socket(base, made, 0, creator)


def home(page, base: str) -> None:
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_function("() => Number(document.body.dataset.lobby || 0) >= 1")


def test_the_lobby_lists_a_public_table_and_a_seat_taken_from_it_plays(server, pages):
    made, ann = public_table(server, "Ann")
    hidden, cid = public_table(server, "Cid", public=False)
    page = pages.new()
    home(page, server)
    entry = page.locator(f".lobby-table[data-table='{made['id']}']")
    expect(entry).to_be_visible()
    expect(page.locator(f".lobby-table[data-table='{hidden['id']}']")).to_have_count(0)
    expect(entry.locator(".lobby-seats li")).to_have_count(3)
    expect(entry.locator(".lobby-seats li").nth(0)).to_contain_text("Ann")
    expect(entry.locator(".lobby-seats li").nth(2)).to_contain_text("Bot: easy")
    assert "token" not in page.content()
    join_button = entry.get_by_role("button", name="Join the Classic table at seat 2")
    join_button.focus()
    page.keyboard.press("Enter")  # by keyboard
    page.wait_for_url(re.compile(rf"/t/{made['id']}$"))
    page.fill("#nickname", "Bob")
    page.click("#join")
    expect(page.locator("#join-overlay")).to_be_hidden()
    page.wait_for_selector("#hand .card")
    expect(page.locator("#turn")).to_have_attribute("data-status", "playing")  # every human seat taken
    # a started table leaves the lobby, on the page too
    assert made["id"] not in [t["id"] for t in get(server, "/api/lobby")["tables"]]
    other = pages.new()
    home(other, server)
    expect(other.locator(f".lobby-table[data-table='{made['id']}']")).to_have_count(0)
    # the seat taken from the lobby is one of "My tables", its link back to the seat working
    home(page, server)
    mine = page.locator(f".mine-table[data-table='{made['id']}']")
    expect(mine).to_contain_text("Your seat: 2")
    expect(mine).to_have_attribute("data-status", "playing")
    mine.locator("a.back-link").click()
    page.wait_for_url(re.compile(rf"/t/{made['id']}$"))
    page.wait_for_selector("#hand .card")
    expect(page.locator("#join-overlay")).to_be_hidden()
    ann.close()
    cid.close()


def test_the_lobby_is_asked_again_every_10_s_and_on_refresh(server, pages):
    page = pages.new()
    page.clock.install()  # the page's timers run when the test says so: ten seconds take no time
    home(page, server)
    first, ann = public_table(server, "Ann")
    expect(page.locator(f".lobby-table[data-table='{first['id']}']")).to_have_count(0)
    loaded = int(page.get_attribute("body", "data-lobby"))
    page.clock.run_for(10_000)
    page.wait_for_function(f"() => Number(document.body.dataset.lobby) > {loaded}")
    expect(page.locator(f".lobby-table[data-table='{first['id']}']")).to_be_visible()
    second, bob = public_table(server, "Bob")
    page.click("#lobby-refresh")
    expect(page.locator(f".lobby-table[data-table='{second['id']}']")).to_be_visible()
    expect(page.locator("#lobby-status")).to_have_text(re.compile(r"^\d+ open tables$"))
    ann.close()
    bob.close()


def test_a_seat_someone_else_took_first_is_told_and_the_list_refreshed(server, pages):
    made, ann = public_table(server, "Ann")
    page = pages.new()
    home(page, server)
    button = page.locator(f".lobby-table[data-table='{made['id']}'] button.lobby-join")
    expect(button).to_have_count(1)
    req = urllib.request.Request(f"{server}/api/tables/{made['id']}/seats/1/claim", method="POST")
    with urllib.request.urlopen(req, timeout=10) as r:
        assert r.status == 200  # someone else, first
    with pytest.raises(urllib.error.HTTPError) as second:
        urllib.request.urlopen(req, timeout=10)
    assert second.value.code == 409
    button.click()
    expect(page.locator("#lobby-error")).to_have_text("Someone took that seat first: choose another one.")
    expect(page.locator(f".lobby-table[data-table='{made['id']}']")).to_have_count(0)
    assert page.url == server + "/"
    ann.close()


def test_a_quick_game_seats_me_against_bots_and_the_game_starts(server, pages):
    page = pages.new()
    page.goto(server + "/")
    page.evaluate("() => localStorage.setItem('millebornes.nickname', 'Zoe')")
    home(page, server)
    page.select_option("#quick-level", "easy")
    page.click("#quick-start")
    page.wait_for_url(re.compile(r"/t/[^/#]+$"))
    expect(page.locator("#nickname")).to_have_value("Zoe")  # remembered from before
    page.click("#join")
    expect(page.locator("#join-overlay")).to_be_hidden()
    page.wait_for_selector("#hand .card")
    table_id = page.url.rsplit("/", 1)[1]
    facts = get(server, f"/api/tables/{table_id}")
    assert facts["status"] == "playing" and facts["players"] == 2 and facts["public"] is False
    assert [(s["kind"], s["level"], s["nickname"]) for s in facts["seats"]] == [
        ("human", None, "Zoe"),
        ("bot", "easy", None),
    ]
    wait_turn(page, "play")  # the game is on: my turn comes


def test_my_tables_keep_the_created_table_its_links_and_forget_it(server, pages):
    page = pages.new()
    home(page, server)
    page.select_option("#players", "3")
    page.select_option("select.seat-kind[data-seat='1']", "human")
    page.select_option("select.seat-kind[data-seat='2']", "human")
    page.click("#create")
    expect(page.locator("#invites")).to_be_visible()
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    entry = page.locator(".mine-table").first
    table_id = entry.get_attribute("data-table")
    expect(entry).to_have_attribute("data-status", "waiting")
    expect(entry).to_contain_text("Your seat: 1")
    expect(entry.locator(".mine-invites input")).to_have_count(2)
    invite = entry.locator(".mine-invites input").nth(1).input_value()
    assert re.fullmatch(rf"{re.escape(server)}/t/{table_id}#seat=2&token=[\w-]+", invite)
    entry.get_by_role("button", name=re.compile("^Copy the link for seat 3 of the Classic table of ")).click()
    expect(page.locator("#mine-status")).to_contain_text("seat 3")
    # the invite link opens seat 3 for somebody else
    guest = pages.new()
    join(guest, invite, "Gus")
    # and mine takes me back to seat 1
    back = entry.locator("a.back-link")
    assert back.get_attribute("href").startswith(f"/t/{table_id}#seat=0&token=")
    back.click()
    page.fill("#nickname", "Max")
    page.click("#join")
    page.wait_for_selector("#hand .card")
    home(page, server)
    entry = page.locator(f".mine-table[data-table='{table_id}']")
    expect(entry).to_be_visible()
    entry.get_by_role("button", name=re.compile("^Forget the Classic table")).click()
    expect(entry).to_have_count(0)
    expect(page.locator("#mine-status")).to_contain_text("is forgotten")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator(f".mine-table[data-table='{table_id}']")).to_have_count(0)


def test_a_finished_table_of_mine_links_to_its_replay(server, pages):
    """A private table's replay: in the history of nobody, in My tables of its player, whose browser opens it
    (its seat's token, kept there, goes with the request); another browser is told it was private."""
    page, made = won_dujardin_match(
        server, pages, public=False
    )  # joined from its link: the table page records the seat
    home(page, server)
    entry = page.locator(f".mine-table[data-table='{made['id']}']")
    expect(entry).to_have_attribute("data-status", "finished")
    expect(entry.locator("a.back-link")).to_have_count(0)
    expect(page.locator(f"#history a.replay-link[data-table='{made['id']}']")).to_have_count(0)
    entry.locator("a.replay-link").click()
    page.wait_for_url(re.compile(rf"/replay/{made['id']}$"))
    expect(page.locator("#hands .seat-hand")).to_have_count(2)
    page.click("#next")
    expect(page.locator("#step")).to_contain_text("Move 1 of")
    stranger = pages.new()
    stranger.goto(f"{server}/replay/{made['id']}")
    expect(stranger.locator("#replay-error-text")).to_have_text(
        "This game was private: its replay opens only in the browser of someone who played at the table."
    )
    expect(stranger.locator("#hands .seat-hand")).to_have_count(0)


def test_my_tables_are_bounded_and_a_gone_table_says_so(server, pages):
    page = pages.new()
    home(page, server)
    kept = page.evaluate("""async () => {
        const m = await import(new URL('mytables.js', document.querySelector('script[type=module]').src).href);
        for (let i = 0; i < m.MAX + 1; i++) {
            m.remember({ id: `t${i}`, ruleset: 'classic', seat: 0, url: `/t/t${i}#seat=0&token=x${i}` });
        }
        m.remember({ id: 'evil', ruleset: 'classic', seat: 0, url: 'https://example.com/t/evil' });
        return m.myTables().map((e) => [e.id, e.url]);
    }""")
    assert len(kept) == 30
    assert kept[0] == ["evil", None]  # a link elsewhere is never kept
    assert kept[-1][0] == "t2" and "t0" not in [k[0] for k in kept] and "t1" not in [k[0] for k in kept]
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator(".mine-table")).to_have_count(30)
    gone = page.locator(".mine-table[data-table='t5']")
    expect(gone).to_have_attribute("data-status", "gone")
    expect(gone).to_contain_text("this table no longer exists")
    expect(gone.locator("a.back-link")).to_have_count(0)


def test_the_home_page_with_the_lobby_filled_passes_axe_and_fits_a_phone(server, pages, audit):
    made, ann = public_table(server, "Ann")
    for size in ({"width": 1366, "height": 800}, {"width": 360, "height": 640}):
        page = pages.new(viewport=size)
        home(page, server)
        page.check("#public")
        page.click("#create")
        expect(page.locator(".mine-table")).to_have_count(1)
        expect(page.locator(f".lobby-table[data-table='{made['id']}']")).to_be_visible()
        assert page.evaluate("() => document.documentElement.scrollWidth") <= size["width"]
        audit(page, f"home, lobby and my tables ({size['width']})")
        set_lang(page, "fr")
        expect(page.locator("#lobby-title")).to_have_text("Tables ouvertes")
        audit(page, f"home, lobby and my tables, fr ({size['width']})")
        page.screenshot(path=f"/tmp/lobby-home-{size['width']}.png", full_page=True)
    audit.check()
    ann.close()
