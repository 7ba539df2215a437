"""The server under attack: each test plays one attack of docs/web.md's "Security" section, most of them
against a real `millebornes serve` process, and checks that it gets a clear refusal and changes nothing."""

from __future__ import annotations

import json
import logging
import random
import socket
import unicodedata

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")

from millebornes.web.settings import Limits  # noqa: E402
from tests.serving import Server  # noqa: E402

HUMAN, MEDIUM = {"kind": "human"}, {"kind": "bot", "level": "medium"}
LIMIT = 64 * 1024


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path / "mb.db", tmp_path / "server.log", bot_delay=0)
    yield s
    s.stop()


def table_body(pad: int = 0) -> bytes:
    """A valid table, padded with JSON white space to the size an attack wants."""
    return json.dumps({"ruleset": "classic", "players": 2, "seats": [HUMAN, MEDIUM]}).encode() + b" " * pad


def chunked_post(port: int, path: str, body: bytes, chunk: int = 4096) -> tuple[int, bytes]:
    """POST with Transfer-Encoding: chunked (no Content-Length), by hand: what an attacker's script sends."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n".encode()
        )
        try:
            for i in range(0, len(body), chunk):
                part = body[i : i + chunk]
                s.sendall(f"{len(part):x}\r\n".encode() + part + b"\r\n")
            s.sendall(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered and closed before the whole body was sent
        answer = b""
        while chunk_in := s.recv(65536):
            answer += chunk_in
    head, _, rest = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), rest


@pytest.mark.server
def test_a_chunked_body_is_counted_as_it_arrives(server):
    status, body = chunked_post(server.port, "/api/tables", table_body(pad=LIMIT))
    assert status == 413, body
    status, body = chunked_post(server.port, "/api/tables", table_body(pad=LIMIT // 2))
    assert status == 201, body
    r = httpx.post(
        f"{server.base}/api/tables", content=table_body(pad=LIMIT), headers={"Content-Type": "application/json"}
    )
    assert r.status_code == 413


@pytest.mark.server
@pytest.mark.parametrize(
    "options,field",
    [
        ({"solo_players": [2] * 20_000}, "solo_players"),
        ({"scoring": {"mile": 10**4299}}, "scoring"),
        ({"target": 10**4299}, "target"),
        ({"match_target": 10**12}, "match_target"),
    ],
)
def test_options_no_edition_could_mean_are_refused(server, options, field):
    r = httpx.post(
        f"{server.base}/api/tables",
        timeout=10,
        json={"ruleset": "classic", "players": 2, "seats": [HUMAN, MEDIUM], "options": options},
    )
    assert r.status_code == 422 and r.json()["field"] == "options", r.text
    assert field in r.json()["detail"] and len(r.text) < 400
    assert httpx.get(f"{server.base}/api/history").json() == {"tables": []}


def test_a_move_that_cannot_be_saved_breaks_the_table_once(web, monkeypatch, caplog):
    """A bot's move the database refuses is retried later and later, then the table stops, with one log
    line; it is not resumed at the next start, and nobody may act on it."""
    web.start(limits=Limits(frames_per_second=100_000, save_retries=3, save_backoff=0.01))
    table = web.create(seats=[HUMAN, MEDIUM], seed=21)
    a = web.join(table, 0, "Ann")
    store, tries = web.app.state.tables, []
    saving = store.append_action

    def refuse_the_bot(table_id, n, seat, action, result=None, **saved):
        if seat == 1:
            tries.append(n)
            raise OverflowError("Python int too large to convert to SQLite INTEGER")
        return saving(table_id, n, seat, action, result, **saved)

    monkeypatch.setattr(store, "append_action", refuse_the_bot)
    caplog.set_level(logging.DEBUG, logger="millebornes.web")
    a.act(random.Random(2).choice(a.obs["legal_actions"]))
    while a.state["status"] != "broken":
        a.expect("state")
    assert len(tries) == 4 and len(set(tries)) == 1
    broken = [r for r in caplog.records if r.levelno >= logging.WARNING and r.name == "millebornes.web"]
    assert len(broken) == 1 and "is broken" in broken[0].getMessage() and not broken[0].exc_info
    assert store.get(table["id"]).status == "broken"
    a.act("draw")
    assert a.expect("error")["code"] == "broken"

    monkeypatch.undo()
    web.start()
    assert table["id"] not in web.hall.rooms
    again = web.join(table, 0, nickname=None)
    assert again.state["status"] == "broken" and web.app.state.tables.action_count(table["id"]) == 1


def cf_twins() -> tuple[list[str], list[str]]:
    """Two classic decks for two players that differ only in whether seat 1 holds Right of Way, the answer
    to the Stop seat 0 holds (the twin holds a Roll instead, and Right of Way lies deep in the stock)."""
    from tests.util import stacked_deck

    holds = stacked_deck("classic", 2, hands={0: ["roll", "stop", "100", "75"], 1: ["right-of-way", "roll"]})
    i = max(n for n, card in enumerate(holds) if card == "roll")
    assert holds[6] == "right-of-way" and i > 12 + 60
    lacks = holds[:]
    lacks[6], lacks[i] = lacks[i], lacks[6]
    return holds, lacks


class Recording:
    """A seat's browser that keeps every frame it got."""

    def __init__(self, server, table, seat, nickname):
        from tests.serving import Seat

        self.frames: list[dict] = []
        outer = self

        class Kept(Seat):
            def recv(self, timeout: float = 20) -> dict:
                frame = super().recv(timeout)
                outer.frames.append(frame)
                return frame

        self.seat = Kept(server, table, seat, nickname)


def seen(frames: list[dict]) -> list[dict]:
    """Frames without what differs between any two tables: the id, the creation time, a first welcome's new
    token (drawn at random), the clocks (how long a decision has taken, a seat has been away; the time left
    is compared apart, by ``time_left``)."""
    out = []
    for frame in frames:
        frame = dict(frame)
        if "token" in frame:
            frame["token"] = "drawn"
        if "table" in frame:
            frame["table"] = {k: v for k, v in frame["table"].items() if k not in ("id", "created")}
        if frame.get("cf_deadline") is not None:
            frame["cf_deadline"] = "running"
        if frame.get("turn") is not None:
            frame["turn"] = {**frame["turn"], "for": "running", "left": "running"}
        if "seats" in frame:
            frame["seats"] = [{**s, "away": s["away"] is not None} for s in frame["seats"]]
        out.append(frame)
    return out


def time_left(frames: list[dict]) -> list[float]:
    """The turn clock's seconds left in each state frame that has one."""
    return [f["turn"]["left"] for f in frames if f.get("turn") and f["turn"]["left"] is not None]


@pytest.mark.server
def test_holding_the_safety_shows_nothing_to_the_attacker(server):
    """Twin tables: seat 1 holds the safety against seat 0's Stop, or not. Seat 0 gets the very same frames,
    during the coup-fourré window and after it, though the holder had the buttons and passed."""
    attacker_saw, holder_could, clocks = [], [], []
    for deck in cf_twins():
        table = server.create(ruleset="classic", players=2, seats=[HUMAN, HUMAN], deck=deck, seed=8, cf_timeout=0.6)
        a, b = Recording(server, table, 0, "Ann"), Recording(server, table, 1, "Bob")
        ann, bob = a.seat, b.seat
        ann.expect("state")  # the table starts when Bob joins

        def turn(actor, action):
            """Draw if the discard could be taken, then ``action`` (or the first discard)."""
            if actor.obs["decision"] == "draw":
                actor.act("draw")
                ann.next_state(), bob.next_state()
            actor.act(action or next(x for x in actor.obs["legal_actions"] if x.startswith("discard")))
            ann.next_state(), bob.next_state()

        for actor, action in ((ann, "play roll"), (bob, "play roll"), (ann, "play stop 1")):
            turn(actor, action)
        window = bob.obs
        assert window["decision"] == "coup-fourre" and window["to_act"] is None
        holder_could.append(window["legal_actions"])
        if window["legal_actions"]:
            bob.act("pass")
            assert bob.expect("state")["observation"]["legal_actions"] == []
        ann.next_state(), bob.next_state()  # the window closes
        assert ann.obs["to_act"] == 1 and ann.state["cf_deadline"] is None
        for _ in range(3):
            turn(bob, "discard end-of-limit")
            turn(ann, None)
        ann.close(), bob.close()
        attacker_saw.append(seen(a.frames))
        clocks.append(time_left(a.frames))
    assert holder_could == [["coup-fourre", "pass"], []]
    assert len(attacker_saw[0]) > 8 and attacker_saw[0] == attacker_saw[1]
    # the holder's pass does not start the next decision's clock early: the window's end does, in both tables
    assert len(clocks[0]) == len(clocks[1]) > 4
    assert max(abs(x - y) for x, y in zip(*clocks)) < 0.3, clocks


def raw_seat(server, table, seat: int):
    """A socket on a table before any join: what an attacker's script holds."""
    from tests.serving import ws_client

    return ws_client.connect(f"ws://127.0.0.1:{server.port}/ws/{table['id']}", open_timeout=10, legacy=True)


def frames_until_quiet(ws, quiet: float = 0.4) -> list[dict]:
    out = []
    while True:
        try:
            out.append(json.loads(ws.recv(timeout=quiet)))
        except TimeoutError:
            return out


@pytest.mark.server
def test_the_rate_limit_counts_only_the_frames_it_let_through(server):
    """20 frames a second: a client that keeps sending too fast still gets 20 a second through (the
    refused ones do not fill the window), instead of being shut out for as long as it keeps on."""
    import time

    from tests.serving import Seat

    table = server.create(ruleset="classic", players=2, seats=[HUMAN, MEDIUM], seed=3)
    ann = Seat(server, table, 0, "Ann")
    answered = refused = 0
    for _burst in range(3):
        for _ in range(25):
            ann.ws.send(json.dumps({"type": "ping"}))
        for frame in frames_until_quiet(ann.ws, 0.3):
            answered += frame["type"] == "pong"
            refused += frame.get("code") == "rate"
        time.sleep(max(0.0, 0.6 - 0.3))
    # the first burst and the last fill a window each (the join counts in the first); counting the refused
    # frames too, as before, the second burst would keep the third out as well: about 20 in all
    assert 38 <= answered <= 40 and answered + refused == 75, (answered, refused)


@pytest.mark.server
@pytest.mark.parametrize(
    "nickname,why",
    [
        ("Seat 2", "table's own"),
        ("bot 1 (hard)", "table's own"),
        ("Ｐｌａｃｅ１", "table's own"),
        ("\u0405eat 2", "one alphabet"),
        ("B\u03bft 1", "one alphabet"),
        ("\u0405\u0415\u0410\u0422 2", "table's own"),
        ("\u03a1\u039b\u0391\u0421\u0395 1", "one alphabet"),
        ("PIace 2", "table's own"),
        ("R0bot 3", "table's own"),
        ("A\u200bnn", "invisible"),
        ("\u202eAnn", "invisible"),
        ("Bob\u00a0Marley", "plain spaces"),
        ("...", "letter or digit"),
        ("😀" * 3, "letter or digit"),
        ("x" * 25, "24 characters"),
    ],
)
def test_a_nickname_must_read_as_a_name(server, nickname, why):
    table = server.create(ruleset="classic", players=2, seats=[HUMAN, MEDIUM], seed=3)
    token = next(s["url"] for s in table["seats"] if s["seat"] == 0).split("token=")[1]
    ws = raw_seat(server, table, 0)
    ws.send(json.dumps({"type": "join", "seat": 0, "token": token, "nickname": nickname}))
    refused = json.loads(ws.recv(timeout=10))
    assert refused["type"] == "error" and refused["code"] == "malformed" and why in refused["message"]
    ws.send(json.dumps({"type": "join", "seat": 0, "token": token, "nickname": "Zoe\u0301"}))  # e + accent
    welcome = json.loads(ws.recv(timeout=10))
    assert welcome["type"] == "welcome" and welcome["table"]["seats"][0]["nickname"] == "Zoé"  # NFC: one é
    ws.close()


@pytest.mark.parametrize("value", ["10", True, None, 2.5, 601, float("inf")])
def test_the_coup_fourre_window_is_a_real_number_of_seconds(web, value):
    web.start(test_mode=False)
    body = {"ruleset": "classic", "players": 2, "seats": [HUMAN, MEDIUM], "cf_timeout": value}
    r = web.client.post("/api/tables", content=json.dumps(body), headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and r.json()["field"] == "cf_timeout", r.text
    body["cf_timeout"] = 3
    assert web.client.post("/api/tables", json=body).status_code == 201


@pytest.mark.server
def test_pages_set_a_strict_policy_and_nothing_holding_a_token_is_cached(server):
    for path in ("/", "/t/abc", "/replay/abc"):
        r = httpx.get(server.base + path)
        policy = r.headers["content-security-policy"]
        assert "default-src 'none'" in policy and "script-src 'self'" in policy and "unsafe" not in policy
        assert "frame-ancestors 'none'" in policy
    assert httpx.get(server.base + "/t/abc").headers["cache-control"] == "no-store"
    made = httpx.post(f"{server.base}/api/tables", json={"ruleset": "classic", "players": 2, "seats": [HUMAN, MEDIUM]})
    assert made.status_code == 201 and made.headers["cache-control"] == "no-store"


def test_a_failed_statement_never_logs_its_values(tmp_path):
    """A table's row holds its seed: a failed insert's error (which the server logs) must not show it."""
    from sqlalchemy.exc import IntegrityError
    from sqlalchemy.orm import Session

    from millebornes.web.db.base import now
    from millebornes.web.db.database import Database
    from millebornes.web.tables.repo import Tables
    from millebornes.web.tables.rows import TableRow

    store = Tables(Database(f"sqlite:///{tmp_path}/mb.db", "NORMAL"))
    row = dict(
        id="abc",
        ruleset="classic",
        options={},
        players=2,
        teams=False,
        seed=987654321987,
        deck=None,
        cf_timeout=6.0,
        status="waiting",
        created=now(),
    )
    with Session(store.engine) as s, s.begin():
        s.add(TableRow(**row))
    with pytest.raises(IntegrityError) as failed:
        with Session(store.engine) as s, s.begin():
            s.add(TableRow(**row))
    assert "987654321987" not in str(failed.value) and "hidden" in str(failed.value)
    store.db.close()


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_bot_holding_the_safety_answers_in_the_same_step(web, level):
    """A hazard no human could answer opens no window: the bot holding the safety answers at once, with
    its quick policy (the network for the searching levels), and the table goes on in one step."""
    from tests.util import stacked_deck

    web.start()
    deck = stacked_deck("classic", 2, hands={0: ["roll", "stop", "100"], 1: ["right-of-way", "roll"]})
    table = web.create(seats=[HUMAN, {"kind": "bot", "level": level}], deck=deck, seed=8)
    ann = web.join(table, 0, "Ann")
    ann.act("play roll")
    ann.state_after(ann.state["seq"])
    while ann.obs["to_act"] != 0:  # the bot rolls too
        ann.expect("state")
    if ann.obs["decision"] == "draw":
        ann.act("draw")
        ann.state_after(ann.state["seq"])
    before = ann.state["seq"]
    ann.act("play stop 1")
    after = ann.state_after(before)
    assert after["seq"] > before and after["cf_deadline"] is None and after["observation"]["to_act"] is not None
    assert after["observation"]["decision"] != "coup-fourre"
    kinds = [e["type"] for e in after["events"]]
    assert kinds[:2] == ["action", "play"] and not [e for e in after["events"] if e.get("action") == "pass"]
    while after["observation"]["to_act"] not in (
        0,
        None,
    ):  # the bot's turn goes on: count the rows once it is Ann's again
        after = ann.state_after(after["seq"])
    assert web.hall.rooms[table["id"]].actions == web.app.state.tables.action_count(table["id"])


@pytest.mark.parametrize(
    "nickname",
    [
        "Zoé",
        "Ива́н",
        "Σωκράτης",
        "山田 Taro",
        "やまだ太郎",
        "김민준",
        "Hawaiʻi 2",
        "Seatbelt",
        "Bob 2",
        "Placebo 7",
        "Пётр",
    ],
)
def test_a_name_in_one_alphabet_or_in_scripts_written_together_is_a_name(nickname):
    from millebornes.web.tables.inbound import clean_nickname

    assert clean_nickname(nickname) == unicodedata.normalize("NFC", nickname)
