"""A server asked to stop hands its players over (issue 26, item 2): every table socket is closed at once with
1012 "reconnect", the process exits, and the seats join again, on a new process, where the game was; a page in
Chromium does it by itself and plays on.  Real `millebornes serve` processes on one SQLite file."""

from __future__ import annotations

import random
import signal
import time
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")
from playwright.sync_api import expect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from tests.browsing import CHROMIUM, browser, create_table, join, pages, seq  # noqa: E402,F401
from tests.serving import Seat, Server  # noqa: E402

pytestmark = pytest.mark.server

HUMANS = {"ruleset": "classic", "players": 2, "seats": [{"kind": "human"}] * 2}


def closed(seat: Seat, within: float) -> ConnectionClosed:
    """The close the server sends, frames before it read and dropped."""
    deadline = time.monotonic() + within
    with pytest.raises(ConnectionClosed) as caught:
        while True:
            seat.ws.recv(timeout=max(0.01, deadline - time.monotonic()))
    return caught.value


def test_a_stopped_server_hands_its_seats_over_and_the_game_goes_on(tmp_path):
    db, log = tmp_path / "mb.db", tmp_path / "server.log"
    server = Server(db, log, 0)
    try:
        table = server.create(**HUMANS, seed=5)
        seats = [Seat(server, table, 0, "Ann"), Seat(server, table, 1, "Bob")]
        rng = random.Random(5)
        for _ in range(6):
            mover = next(s for s in seats if s.obs["legal_actions"])
            mover.act(rng.choice(mover.obs["legal_actions"]))
            for s in seats:
                s.next_state()
        before = [(s.state["seq"], s.obs) for s in seats]

        stopped = time.monotonic()
        server.proc.send_signal(signal.SIGTERM)
        for s in seats:
            close = closed(s, 2)
            assert (close.rcvd.code, close.rcvd.reason) == (1012, "reconnect")
        assert time.monotonic() - stopped < 2
        server.proc.wait(5)
    finally:
        server.stop()

    server = Server(db, log, 0)
    try:
        seats = [Seat(server, table, 0), Seat(server, table, 1)]
        assert [(s.state["seq"], s.obs) for s in seats] == before
        mover = next(s for s in seats if s.obs["legal_actions"])
        mover.act(mover.obs["legal_actions"][0])
        assert mover.next_state()["seq"] == before[0][0] + 1
    finally:
        server.stop()


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}")
def test_a_page_reconnects_by_itself_when_its_server_comes_back(tmp_path, pages):
    db, log = tmp_path / "mb.db", tmp_path / "server.log"
    server = Server(db, log, 0.05)
    try:
        made = create_table(
            server.base,
            {
                "ruleset": "classic",
                "players": 2,
                "seed": 3,
                "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}],
            },
        )
        page = pages.new()
        join(page, server.base + made["seats"][0]["url"], "Ann")
        server.stop()
        expect(page.locator("#conn")).to_contain_text("reconnecting in")
        server = Server(db, log, 0.05, port=server.port)
        expect(page.locator("#message")).to_have_text("Connected again.", timeout=20_000)
        expect(page.locator("#conn")).to_have_text("")
        page.wait_for_function("() => document.querySelector('#turn').dataset.mine === '1'")
        moved_from = seq(page)
        if page.get_attribute("#turn", "data-decision") == "play":
            page.locator("#hand .card").first.click()
        page.locator("#moves button.move").first.click()
        page.wait_for_function(f"() => Number(document.querySelector('#turn').dataset.seq) > {moved_from}")
    finally:
        server.stop()
