"""A signed-out visitor's pages log no error in the browser's console: who is signed in is asked of GET /api/me,
where signed out is an answer (a 401 from GET /api/account was logged on every page, a table's included).

Skipped where Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
from playwright.sync_api import expect  # noqa: E402

from tests.browsing import (  # noqa: E402,F401
    CHROMIUM,
    DUJARDIN_HEAD,
    DUJARDIN_WIN,
    browser,
    create_table,
    join,
    pages,
    play,
    server,
    stacked,
)

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
    pytest.mark.server,
]

PAGES = ["/", "/rules", "/puzzles", "/leaderboard", "/account", "/account/bots", "/players/me"]


def listen(page) -> list[str]:
    """The page's console errors, and the answers with an error status it got (what a console shows as one)."""
    heard: list[str] = []
    page.on("console", lambda m: m.type == "error" and heard.append(f"console: {m.text}"))
    page.on("response", lambda r: r.status >= 400 and heard.append(f"{r.status} {r.url}"))
    return heard


def test_a_signed_out_visitor_logs_no_console_error(server, pages):
    page = pages.new()
    heard, asked = listen(page), []
    page.on("request", lambda r: asked.append(r.url))
    for address in PAGES:
        page.goto(server + address)
        page.wait_for_load_state("networkidle")
    expect(page).to_have_url(server + "/account")  # /players/me, signed out: the page to sign in
    assert server + "/api/me" in asked  # the pages asked who is signed in

    # a table's page, from the join to the match's end, then its replay
    seats = [{"kind": "human"}, {"kind": "bot", "level": "medium"}]
    made = create_table(
        server, {"ruleset": "dujardin", "players": 2, "seats": seats, "deck": stacked("dujardin", 2, DUJARDIN_HEAD)}
    )
    join(page, server + made["seats"][0]["url"], "Ann")
    for card in DUJARDIN_WIN:
        play(page, card)
    expect(page.locator("#match-over")).to_be_visible()
    page.goto(server + f"/replay/{made['id']}")
    page.wait_for_load_state("networkidle")
    assert heard == [], heard
