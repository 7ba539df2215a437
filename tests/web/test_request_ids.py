"""Log records carry the request and the table they were written for (docs/deploy.md, "Metrics and logs"): a request
id for every HTTP request and socket, the client's when it is short and plain, echoed in the answer; the table id
for a table's addresses and for the work a table does on its own, which carries no request's id."""

from __future__ import annotations

import asyncio
import json
import logging
import re

import pytest

pytest.importorskip("fastapi")

from millebornes.web import logs  # noqa: E402
from millebornes.web.logfields import REQUEST_ID, TABLE_ID, Fields, at_table  # noqa: E402
from millebornes.web.requestids import table_of  # noqa: E402
from millebornes.web.tables import seatbots  # noqa: E402
from millebornes.web.tables.repo import Tables  # noqa: E402
from millebornes.web.tasks import Tasks  # noqa: E402
from tests.conftest import SeatClient, token_of  # noqa: E402
from tests.util import stacked_deck  # noqa: E402

HUMAN, EASY = {"kind": "human"}, {"kind": "bot", "level": "easy"}
MADE = re.compile(r"[0-9a-f]{16}")
log = logging.getLogger("millebornes.web")


class Lines(logging.Handler):
    """The records as ``--log-json`` writes them, fields included."""

    def __init__(self) -> None:
        super().__init__()
        self.addFilter(Fields())
        self.setFormatter(logs.JsonLines())
        self.lines: list[dict] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(json.loads(self.format(record)))

    def saying(self, words: str) -> list[dict]:
        return [line for line in self.lines if words in line["message"]]


@pytest.fixture
def lines():
    handler, logger = Lines(), logging.getLogger("millebornes")
    level = logger.level
    logger.setLevel(logging.INFO)
    logger.addHandler(handler)
    yield handler
    logger.removeHandler(handler)
    logger.setLevel(level)


@pytest.fixture
def reads_logged(monkeypatch):
    """Every read of a table logs a line, from the thread the request hands it to."""
    get = Tables.get

    def logged(self, table_id, *args):
        log.info("reading a table")
        return get(self, table_id, *args)

    monkeypatch.setattr(Tables, "get", logged)


def test_a_request_keeps_a_plain_id_of_its_own_and_its_records_carry_it(web, lines, reads_logged):
    c = web.start()
    r = c.get("/api/tables/abcdefgh", headers={"X-Request-ID": "proxy-7.A_z"})
    assert r.status_code == 404 and r.headers["x-request-id"] == "proxy-7.A_z"
    (line,) = lines.saying("reading a table")
    assert (line["request_id"], line["table_id"]) == ("proxy-7.A_z", "abcdefgh")


@pytest.mark.parametrize("sent", ["has space", "x" * 65, "é".encode(), "", "a\tb", "a/b", "<script>"])
def test_any_other_request_id_is_replaced_by_a_new_one(web, lines, reads_logged, sent):
    c = web.start()
    r = c.get("/api/tables/abcdefgh", headers={"X-Request-ID": sent})
    made = r.headers["x-request-id"]
    assert MADE.fullmatch(made) and made != sent
    assert [line["request_id"] for line in lines.saying("reading a table")] == [made]


def test_a_request_that_fails_is_answered_with_its_id_and_the_failure_still_raised(web, monkeypatch):
    from fastapi.testclient import TestClient

    web.start()

    def broken(self, table_id, *args):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(Tables, "get", broken)
    r = TestClient(web.app, raise_server_exceptions=False).get(
        "/api/tables/abcdefgh", headers={"X-Request-ID": "lb-500"}
    )
    assert r.status_code == 500 and r.text == "Internal Server Error"
    assert r.headers["x-request-id"] == "lb-500"
    assert r.headers["x-content-type-options"] == "nosniff" and r.headers["cache-control"] == "no-store"
    with pytest.raises(RuntimeError, match="went away"):  # the server still sees it, and logs its traceback
        web.client.get("/api/tables/abcdefgh")


def test_each_request_without_one_gets_its_own(web):
    c = web.start()
    ids = {c.get("/healthz").headers["x-request-id"] for _ in range(5)}
    assert len(ids) == 5 and all(MADE.fullmatch(i) for i in ids)
    assert MADE.fullmatch(c.get("/").headers["x-request-id"])
    assert MADE.fullmatch(c.get("/static/js/home.js").headers["x-request-id"])


@pytest.mark.parametrize(
    "path, table",
    [
        ("/api/tables/3kq9v2ab", "3kq9v2ab"),
        ("/api/tables/3kq9v2ab/seats/0/claim", "3kq9v2ab"),
        ("/ws/3kq9v2ab", "3kq9v2ab"),
        ("/t/3kq9v2ab", "3kq9v2ab"),
        ("/replay/3kq9v2ab", "3kq9v2ab"),
        ("/ws/bot", None),
        ("/api/tables", None),
        ("/api/tables/" + "x" * 17, None),
        ("/api/tables/a\nb", None),
        ("/api/lobby", None),
        ("/players/3kq9v2ab", None),
    ],
)
def test_a_table_id_is_taken_from_a_tables_address_only(path, table):
    assert table_of(path) == table


def classic_against_a_bot(web) -> dict:
    deck = stacked_deck("classic", 2, hands={0: ["roll", "25", "25", "25", "25", "25"], 1: ["50"] * 6})
    return web.create(players=2, seats=[HUMAN, EASY], seed=3, deck=deck)


def join(web, table: dict, request_id: str) -> SeatClient:
    ws = web.stack.enter_context(
        web.client.websocket_connect(f"/ws/{table['id']}", headers={"X-Request-ID": request_id})
    )
    assert dict(ws.extra_headers)[b"x-request-id"] == request_id.encode()  # the handshake's answer says it
    c = SeatClient(ws, 0)
    c.send({"type": "join", "seat": 0, "token": token_of(table, 0), "nickname": "Ann"})
    c.expect("welcome")
    c.expect("state")
    return c


def my_turn(c: SeatClient, after: int) -> dict:
    """The first state after seq ``after`` where seat 0 decides (no coup-fourré window open)."""
    state = c.state
    while not (
        state["seq"] > after
        and state["cf_deadline"] is None
        and state["observation"]["to_act"] == 0
        and state["observation"]["decision"] in ("play", "draw")
    ):
        state = c.expect("state")
    return state


def test_a_sockets_records_carry_its_id_and_its_tables_and_the_tables_own_work_its_table_alone(web, lines, monkeypatch):
    """Ann's move, sent on her socket, wakes the bot; the bot's turn is the table's own work: its record carries
    the table and not Ann's socket."""

    def broken(*_):
        raise RuntimeError("the bot fell over")

    web.start()
    table = classic_against_a_bot(web)
    ann = join(web, table, "ann-socket-1")
    monkeypatch.setattr(seatbots, "choose", broken)
    state = my_turn(ann, -1)
    while not lines.saying("it plays at random"):
        ann.act(state["observation"]["legal_actions"][0])
        state = my_turn(ann, state["seq"])
    monkeypatch.undo()
    bot = lines.saying("it plays at random")[0]
    assert bot["table_id"] == table["id"] and "request_id" not in bot
    assert "the bot fell over" in bot["exception"]
    assert state["undo"]
    ann.send({"type": "undo", "seq": state["seq"]})
    ann.expect("undone")
    (took,) = lines.saying("took back")
    assert (took["request_id"], took["table_id"]) == ("ann-socket-1", table["id"])


def test_a_tables_task_carries_its_table_and_its_failure_too():
    """A room's background work (web/tasks.py), started while a request is handled, runs as the table's."""
    handler = Lines()
    logger = logging.getLogger("millebornes.web")
    logger.addHandler(handler)

    async def work(failing: bool) -> tuple[str | None, str | None]:
        if failing:
            raise ValueError("no")
        return REQUEST_ID.get(), TABLE_ID.get()

    async def main() -> list:
        REQUEST_ID.set("a-request")
        tasks, elsewhere = Tasks("t1"), Tasks()
        done = [await tasks.keep(work(False), "table t1: failed"), await elsewhere.keep(work(False), "failed")]
        done.append(await elsewhere.keep(work(False), "failed", "t2"))
        failing = tasks.keep(work(True), "table t1: it failed")
        await asyncio.gather(failing, return_exceptions=True)
        await asyncio.sleep(0)  # the failure's callback
        return done + [REQUEST_ID.get()]

    try:
        done = asyncio.run(main())
    finally:
        logger.removeHandler(handler)
    assert done == [(None, "t1"), ("a-request", None), (None, "t2"), "a-request"]
    (failed,) = handler.saying("table t1: it failed")
    assert failed["table_id"] == "t1" and "request_id" not in failed and "ValueError" in failed["exception"]


def test_at_table_leaves_the_context_it_copies_alone():
    REQUEST_ID.set("outer")
    context = at_table("t9")
    assert context.run(lambda: (REQUEST_ID.get(), TABLE_ID.get())) == (None, "t9")
    assert (REQUEST_ID.get(), TABLE_ID.get()) == ("outer", None)


def record(message: str, **fields) -> logging.LogRecord:
    try:
        raise KeyError("boom")
    except KeyError:
        made = logging.LogRecord(
            "millebornes.web", logging.ERROR, __file__, 1, message, (), __import__("sys").exc_info()
        )
    for name, value in fields.items():
        setattr(made, name, value)
    return made


def test_json_lines_and_plain_lines_carry_the_ids_when_there_are_some():
    both = record("table t1: it failed", request_id="r1", table_id="t1")
    line = json.loads(logs.JsonLines().format(both))
    assert (line["request_id"], line["table_id"], line["message"]) == ("r1", "t1", "table t1: it failed")
    none = json.loads(logs.JsonLines().format(record("the sweep", request_id=None, table_id=None)))
    assert "request_id" not in none and "table_id" not in none
    plain = logs.Plain().format(both).splitlines()
    assert plain[0].endswith("ERROR millebornes.web: table t1: it failed [request=r1 table=t1]")
    assert plain[1].startswith("Traceback")
    assert logs.Plain().format(record("the sweep", table_id="t2")).splitlines()[0].endswith("the sweep [table=t2]")
    assert logs.config()["formatters"]["line"]["()"].endswith(".Plain")
    assert logs.config()["handlers"]["stderr"]["filters"] == ["fields"]


def test_a_record_naming_its_table_keeps_it():
    """``extra={"table_id": ...}`` wins over the context's."""
    made = record("table x cannot be replayed", table_id="x")
    TABLE_ID.set("y")
    Fields().filter(made)
    assert made.table_id == "x"


@pytest.mark.server
def test_the_servers_json_log_gives_each_line_its_request_and_table(tmp_path):
    """`millebornes serve --log-json`: uvicorn's access lines, of a request and of a table's socket, carry them."""
    httpx = pytest.importorskip("httpx")
    from websockets.sync.client import connect

    from tests.serving import Server

    server = Server(tmp_path / "mb.db", tmp_path / "server.log", 0, "--log-json")
    try:
        r = httpx.get(f"{server.base}/api/tables/abcdefgh", headers={"X-Request-ID": "lb-42"})
        assert (r.status_code, r.headers["x-request-id"]) == (404, "lb-42")
        table = server.create(ruleset="classic", players=2, seats=[HUMAN, EASY])
        with connect(f"ws://127.0.0.1:{server.port}/ws/{table['id']}", additional_headers={"X-Request-ID": "ws-7"}):
            pass
    finally:
        server.stop()
    text = (tmp_path / "server.log").read_text()
    written = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    (asked,) = [line for line in written if "GET /api/tables/abcdefgh" in line["message"]]
    assert (asked["logger"], asked["request_id"], asked["table_id"]) == ("uvicorn.access", "lb-42", "abcdefgh")
    (made,) = [line for line in written if "POST /api/tables " in line["message"]]
    assert MADE.fullmatch(made["request_id"]) and "table_id" not in made
    (socket,) = [line for line in written if f"/ws/{table['id']}" in line["message"] and "accepted" in line["message"]]
    assert (socket["request_id"], socket["table_id"]) == ("ws-7", table["id"])
    assert token_of(table, 0) not in text
