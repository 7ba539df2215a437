"""The end of a match in Chromium (docs/web-api.md, "Rematch"): #match-over is a score sheet of every hand with the
match's goal, the totals and the winners; both players click Rematch and land seated on the new table, which
starts; on a 360 px phone the sheet scrolls inside its own wrapper, never the page; axe finds nothing serious."""

from __future__ import annotations

import json
import os
import random
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")
from playwright.sync_api import expect  # noqa: E402

from tests.browser.test_axe import Audit, audit, axe_source  # noqa: E402,F401
from tests.browsing import CHROMIUM, browser, create_table, join, pages, server  # noqa: E402,F401
from tests.conftest import keep_token  # noqa: E402

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
    pytest.mark.server,
]

SHOTS = os.environ.get("MB_SHOTS")  # a folder: screenshots of what the tests see, to look at


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/rematch-{name}.png", full_page=False)


def several_hands(base: str) -> tuple[dict, dict]:
    """A match of more than one hand: random play may once in a while win a match to 1,500 in its first hand,
    then another match is played."""
    for _ in range(5):
        made, obs = played_out(base)
        if len(obs["hand_results"]) >= 2:
            return made, obs
    raise AssertionError("five matches to 1,500 were each won in one hand")


def played_out(base: str, match_target: int = 1500) -> tuple[dict, dict]:
    """A classic match between two people to ``match_target`` (several hands), played at random by two sockets
    until it is finished; returns the created table and the last observation."""
    from websockets.sync.client import connect

    made = create_table(
        base,
        {
            "ruleset": "classic",
            "players": 2,
            "options": {"match_target": match_target},
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "cf_timeout": 0.05,
            "public": True,
        },
    )  # its replay opens to any page (a private one's: tests/browser/test_lobby.py)
    rng = random.Random(7)
    socks, states = [], {}
    for seat, name in ((0, "Ann"), (1, "Bob")):
        token = made["seats"][seat]["url"].split("token=")[1]
        ws = connect(base.replace("http://", "ws://") + f"/ws/{made['id']}", open_timeout=10, legacy=True)
        ws.send(json.dumps({"type": "join", "seat": seat, "token": token, "nickname": name}))
        socks.append(ws)
    sent = 0
    while True:
        for seat, ws in enumerate(socks):  # read what is there; block on the socket that must act
            while True:
                try:
                    frame = json.loads(ws.recv(timeout=0.02 if seat in states else 10))
                except TimeoutError:
                    break
                assert frame["type"] != "error" or frame["code"] in ("stale", "not-your-turn", "rate", "finished"), (
                    frame
                )
                if frame["type"] == "state":
                    states[seat] = frame
                if frame["type"] == "welcome":
                    keep_token(made, seat, frame)  # the seat's link from now on (its first join replaced it)
        done = [s for s in states.values() if s["status"] == "finished" and s["observation"]["is_over"]]
        if done:
            break
        for seat, ws in enumerate(socks):
            st = states.get(seat)
            if st and st["status"] == "playing" and st["observation"]["legal_actions"]:
                ws.send(
                    json.dumps(
                        {"type": "act", "action": rng.choice(st["observation"]["legal_actions"]), "seq": st["seq"]}
                    )
                )
                sent += 1
                if sent % 15 == 0:
                    import time

                    time.sleep(0.4)  # under 20 frames a second per socket
        assert sent < 5000
    for ws in socks:
        ws.close()
    return made, done[0]["observation"]


def sheet_rows(page) -> list[list[str]]:
    return page.eval_on_selector_all(
        "#match-over .sheet-table tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent.trim()))"
    )


def test_the_score_sheet_then_both_accept_the_rematch(server, pages):
    made, obs = several_hands(server)
    hands = len(obs["hand_results"])
    assert hands >= 2  # a match of several hands: the sheet has a row for each
    urls = {s["seat"]: server + s["url"] for s in made["seats"]}
    ann, bob = pages.new(viewport={"width": 1366, "height": 800}), pages.new()
    for page, seat, name in ((ann, 0, "Ann"), (bob, 1, "Bob")):
        page.goto(urls[seat])
        page.fill("#nickname", name)
        page.click("#join")
        expect(page.locator("#match-over")).to_be_visible()
    expect(ann.locator("#match-over .sheet-goal")).to_have_text("First to 1,500 points")
    rows = sheet_rows(ann)
    assert [r[0] for r in rows] == [f"Hand {n}" for n in range(1, hands + 1)]
    running = [0, 0]
    for row, result in zip(rows, obs["hand_results"]):
        for s in (0, 1):
            running[s] += result["points"][s]
            assert row[1 + s] == f"{result['points'][s]:,} total {running[s]:,}"
    assert running == obs["match_scores"]
    totals = ann.eval_on_selector_all("#match-over .sheet-table tfoot td", "cells => cells.map(c => c.textContent)")
    winner = obs["winners"][0]
    assert totals[winner] == f"{obs['match_scores'][winner]:,}winner"
    assert ann.locator("#match-over .sheet-table caption").inner_text() == "Score sheet"
    assert ann.locator("#match-over .sheet-table th[scope=col]").count() == 3
    assert ann.locator("#match-over details.sheet-hand").count() == hands
    ann.click("#match-over details.sheet-hand[data-hand='0'] summary")
    expect(ann.locator("#match-over details.sheet-hand[data-hand='0'] tr[data-item='distance']")).to_be_visible()
    shot(ann, "sheet-1366")
    # closed, the match's end comes back from the top bar (its sheet, the rematch), the rematch in focus
    ann.keyboard.press("Escape")
    expect(ann.locator("#match-over")).to_be_hidden()
    expect(ann.locator("#last-hand")).to_be_hidden()
    ann.click("#match-result")
    expect(ann.locator("#match-over")).to_be_visible()
    expect(ann.locator("#rematch-yes")).to_be_focused()
    # Ann accepts: her page goes to her seat of the new table and takes it, with her nickname, in one click
    expect(ann.locator("#rematch-yes")).to_be_visible()
    ann.click("#rematch-yes")
    ann.wait_for_url(lambda url: "/t/" in url and made["id"] not in url)
    new_id = ann.url.split("/t/")[1].split("#")[0]
    expect(ann.locator("#join-overlay")).to_be_hidden()
    expect(ann.locator("#turn")).to_have_attribute("data-status", "waiting")
    assert "token" not in ann.url  # moved out of the address bar, as an invite link's
    expect(bob.locator("#rematch-answers li[data-seat='0']")).to_have_text("Ann wants a rematch")
    expect(bob.locator("#rematch-answers li[data-seat='1']")).to_have_text("Bob has not answered yet")
    shot(bob, "answers")
    # the rematch offers its empty seats to bots while it waits
    expect(ann.locator("#fill-bots")).to_be_visible()
    shot(ann, "waiting")
    bob.click("#rematch-yes")
    bob.wait_for_url(f"**/t/{new_id}")
    for page in (ann, bob):
        expect(page.locator("#turn")).to_have_attribute("data-status", "playing")
        page.wait_for_selector("#hand .card")
        expect(page.locator("#fill-bots")).to_be_hidden()
    names = ann.eval_on_selector_all(".tableau .nick", "nodes => nodes.map(n => n.textContent)")
    assert sorted(names) == ["Ann", "Bob"]
    shot(bob, "new-table")


def test_a_declined_rematch_and_the_sheet_on_a_phone(server, pages, audit):
    made, obs = played_out(server)
    phone = pages.new(viewport={"width": 360, "height": 640}, touch=True)
    phone.goto(server + made["seats"][1]["url"])
    phone.fill("#nickname", "Bob")
    phone.click("#join")
    expect(phone.locator("#match-over")).to_be_visible()
    phone.locator("#match-over details.sheet-hand").first.locator("summary").tap()
    wide = phone.evaluate("""() => ({page: document.documentElement.scrollWidth,
        dialog: document.querySelector('#match-over .dialog').scrollWidth})""")
    assert wide["page"] <= 360 and wide["dialog"] <= 360, wide
    # the sheet scrolls with its dialog, not in a box of its own inside it
    assert phone.evaluate("getComputedStyle(document.querySelector('#match-over-table')).overflowY") == "visible"
    shot(phone, "sheet-360")
    audit(phone, "match over, score sheet (phone)")
    phone.locator("#rematch-no").tap()
    expect(phone.locator("#rematch-answers li[data-seat='1']")).to_have_text("Bob declined: a bot takes the seat")
    expect(phone.locator("#rematch-no")).to_have_attribute("aria-pressed", "true")
    phone.select_option("#lang", "fr")
    expect(phone.locator("#match-over .sheet-goal")).to_have_text("Partie en 1\u202f500\u00a0points")
    expect(phone.locator("#rematch-answers li[data-seat='1']")).to_have_text(
        "Bob a refusé\u00a0: un robot prend sa place"
    )
    audit(phone, "match over, rematch declined (phone, fr)")
    # the end of the replay shows the same sheet
    total = json.load(urllib.request.urlopen(f"{server}/api/tables/{made['id']}/replay?step=0", timeout=10))["total"]
    phone.goto(f"{server}/replay/{made['id']}?step={total}")
    expect(phone.locator("#replay-scores .sheet-table tbody tr")).to_have_count(len(obs["hand_results"]))
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    shot(phone, "replay-360")
    audit(phone, "replay's end, score sheet (phone, fr)")
    wide = pages.new(viewport={"width": 1366, "height": 800})
    wide.goto(f"{server}/replay/{made['id']}?step={total}")
    expect(wide.locator("#replay-scores .sheet-goal")).to_have_text("First to 1,500 points")
    shot(wide, "replay-1366")
    audit.check()
