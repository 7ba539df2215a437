"""The public archive (docs/web-api.md, "Public archive"): finished public tables as records, one by one, paged as
NDJSON and by month; never a private or unfinished table, never a token; every record valid against
docs/record.schema.json and replayed by the engine to the scores and winners the table saved."""

from __future__ import annotations

import base64
import json
import random
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import millebornes as mb  # noqa: E402

pytest.importorskip("fastapi")
jsonschema = pytest.importorskip("jsonschema")

from tests.conftest import Hasty, token_of  # noqa: E402

HUMAN, EASY = {"kind": "human"}, {"kind": "bot", "level": "easy"}
SHORT = {"target": 200, "extension_target": 200}
SCHEMA = json.loads((Path(__file__).resolve().parents[3] / "docs" / "record.schema.json").read_text(encoding="utf-8"))
NEXT = re.compile(r'^<([^>]+)>; rel="next"$')


def finished(web, seed: int, public: bool = True) -> dict:
    """A short dujardin race of Ann (seat 0) against an easy bot, played to its end: the create answer, with
    Ann's token as her first join replaced it."""
    table = web.create(ruleset="dujardin", options=SHORT, seats=[HUMAN, EASY], seed=seed, public=public)
    ann = web.join(table, 0, "Ann")
    web.play_random([ann], Hasty(seed))
    assert ann.state["status"] == "finished"
    return table


def unfinished(web, seed: int) -> dict:
    table = web.create(ruleset="dujardin", options=SHORT, seats=[HUMAN, EASY], seed=seed, public=True)
    ann = web.join(table, 0, "Ann")
    web.play_random([ann], Hasty(seed), stop=lambda s: s["seq"] >= 3)
    return table


def finish_at(web, table: dict, at: datetime) -> None:
    """Move a finished table's finish time (to make ties, or to put it in another month)."""
    from sqlalchemy import update

    from millebornes.web.tables.rows import TableRow

    with web.app.state.db.engine.begin() as c:
        c.execute(update(TableRow).where(TableRow.id == table["id"]).values(finished=at))


def records(response) -> list[dict]:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/x-ndjson")
    return [json.loads(line) for line in response.text.splitlines()]


def ids(response) -> list[str]:
    return [r["table"]["id"] for r in records(response)]


def walk(client, limit: int) -> tuple[list[str], int]:
    """Follow the archive's next links from its start: every id in order, and the pages read."""
    url: str | None = f"/api/archive?limit={limit}"
    seen: list[str] = []
    pages = 0
    while url is not None:
        r = client.get(url)
        page = ids(r)
        pages += 1
        assert 1 <= len(page) <= limit or (pages == 1 and not page), (url, page)
        assert not set(page) & set(seen), (url, page)  # a cursor that gave a record again would loop for ever
        seen += page
        link = r.headers.get("link")
        url = NEXT.match(link)[1] if link else None
    return seen, pages


def in_order(web, tables: list[dict]) -> list[str]:
    """The tables' ids in the archive's order, from what the database holds: finish time, then id."""
    store = web.app.state.tables
    saved = [store.get(t["id"]) for t in tables]
    return [s.id for s in sorted(saved, key=lambda s: (s.finished, s.id))]


def secrets_of(web, tables: list[dict]) -> list[str]:
    """Every seat token and stored token hash of these tables."""
    store = web.app.state.tables
    out = [token_of(t, s["seat"]) for t in tables for s in t["seats"] if s["kind"] == "human"]
    out += [s.token_hash for t in tables for s in store.get(t["id"]).seats if s.token_hash]
    return out


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def test_the_archive_lists_finished_public_tables_only_and_never_a_token(web):
    web.start()
    public = [finished(web, seed) for seed in (1, 2, 3)]
    private = [finished(web, seed, public=False) for seed in (4, 5)]
    playing, waiting = unfinished(web, 6), web.create(seats=[HUMAN, EASY], public=True)
    r = web.client.get("/api/archive")
    assert ids(r) == in_order(web, public)
    assert "link" not in r.headers and r.headers["cache-control"] == "no-cache"
    for table in (*private, playing, waiting):
        assert table["id"] not in r.text
    for secret in secrets_of(web, public + private):
        assert secret not in r.text
    assert "Ann" not in r.text  # no nickname


def test_paging_visits_every_record_once_in_order(web):
    web.start()
    tables = [finished(web, seed) for seed in range(10, 16)]
    base = datetime(2025, 3, 4, 5, 6, 7, 123456)
    for i, table in enumerate(tables):  # pairs finished at the same instant: the id decides
        finish_at(web, table, base + timedelta(seconds=i // 2))
    every = in_order(web, tables)
    assert ids(web.client.get("/api/archive?limit=1000")) == every
    for limit in (1, 2, 3, 4, 5):
        seen, pages = walk(web.client, limit)
        assert seen == every and pages == -(-len(every) // limit), limit
    assert walk(web.client, 6) == (every, 1)  # exactly the archive: no link to an empty page


def test_a_page_reads_the_database_in_bounded_pages(web, monkeypatch):
    from millebornes.web.archive import routes as archive

    web.start()
    tables = [finished(web, seed) for seed in range(20, 25)]
    store = web.app.state.archive
    read: list[int] = []
    page = store.page

    def spy(*args, **kwargs):
        found = page(*args, **kwargs)
        read.append(len(found))
        return found

    monkeypatch.setattr(archive, "PAGE", 2)
    monkeypatch.setattr(store, "page", spy)
    assert ids(web.client.get("/api/archive?limit=5")) == in_order(web, tables)
    assert read == [2, 2, 1]
    read.clear()
    assert ids(web.client.get(f"/api/archive/{datetime.now(UTC):%Y-%m}.ndjson")) == in_order(web, tables)
    assert read == [2, 2, 1]


def test_every_record_validates_and_replays_to_the_saved_result(web):
    web.start()
    tables = [finished(web, seed) for seed in (31, 32, 33)]
    validator = jsonschema.Draft202012Validator(SCHEMA)
    listed = records(web.client.get("/api/archive"))
    assert len(listed) == 3
    for record in listed:
        validator.validate(record)
        table_id = record["table"]["id"]
        one = web.client.get(f"/api/tables/{table_id}/record")
        assert one.status_code == 200 and one.json() == record
        assert one.headers["content-disposition"] == f'attachment; filename="millebornes-{table_id}.json"'
        facts = web.client.get(f"/api/tables/{table_id}").json()
        game = mb.replay(json.loads(one.content))
        assert game.is_over and facts["status"] == "finished"
        assert list(game.match_scores) == record["table"]["scores"] == facts["scores"]
        assert game.winners == record["table"]["winners"] == facts["winners"]
        assert [s["kind"] for s in record["table"]["seats"]] == ["human", "bot"]
        assert record["table"]["seats"][1]["level"] == "easy" and record["table"]["standins"] == []
        assert record["options"] == mb.ruleset("dujardin", **SHORT).options()  # every option written out
    assert {r["table"]["id"] for r in listed} == {t["id"] for t in tables}


def test_a_private_record_opens_to_its_players_only(web):
    web.start()
    table, other, public = finished(web, 41, public=False), finished(web, 42, public=False), finished(web, 43)
    url = f"/api/tables/{table['id']}/record"
    c = web.client
    for headers in ({}, bearer("x" * 32), bearer(token_of(other, 0)), {"Authorization": token_of(table, 0)}):
        r = c.get(url, headers=headers)
        assert (r.status_code, r.json()["code"]) == (403, "private"), headers
        assert "actions" not in r.text
    assert c.get(url, params={"token": token_of(table, 0)}).status_code == 403  # never from the address
    opened = c.get(url, headers=bearer(token_of(table, 0)))
    assert opened.status_code == 200 and opened.json()["table"]["id"] == table["id"]
    assert opened.headers["cache-control"] == "private, no-store"
    for secret in secrets_of(web, [table]):
        assert secret not in opened.text
    jsonschema.validate(opened.json(), SCHEMA)
    assert c.get(f"/api/tables/{public['id']}/record").headers["cache-control"].startswith("public")
    assert table["id"] not in c.get(f"/api/archive/{datetime.now(UTC):%Y-%m}.ndjson").text


def test_unknown_and_unfinished_tables_have_no_record(web):
    web.start()
    playing = unfinished(web, 51)
    for table_id in ("nope", playing["id"], web.create(seats=[HUMAN, EASY], public=True)["id"]):
        r = web.client.get(f"/api/tables/{table_id}/record")
        assert r.status_code == 404 and "no finished table" in r.json()["detail"]


@pytest.mark.parametrize(
    "query, field",
    [
        ("limit=0", "limit"),
        ("limit=1001", "limit"),
        ("limit=ten", "limit"),
        ("after=nope", "after"),
        ("after=" + "A" * 200, "after"),
        ("after=" + base64.urlsafe_b64encode(b"2025-01-02T03:04:05.000000 abcd").decode(), "after"),  # with its "="
        ("after=" + base64.urlsafe_b64encode(b"2025-01-02T03:04:05 abc").decode().rstrip("="), "after"),
        ("after=" + base64.urlsafe_b64encode(b"2025-01-02T03:04:05.000000+00:00 abc").decode().rstrip("="), "after"),
        ("after=" + base64.urlsafe_b64encode(b"2025-01-02T03:04:05.000000 a/c").decode().rstrip("="), "after"),
        ("after=" + base64.urlsafe_b64encode(b"not a date").decode().rstrip("="), "after"),
    ],
)
def test_a_bad_limit_or_cursor_is_422(web, query, field):
    web.start()
    r = web.client.get(f"/api/archive?{query}")
    assert r.status_code == 422 and r.json()["field"] == field, r.text


def test_archive_downloads_are_throttled_by_address(web):
    from millebornes.web.settings import Limits

    web.start(limits=Limits(frames_per_second=100_000, archive_per_minute=3))
    answers = [web.client.get(path) for path in ("/api/archive", "/api/archive/2025-01.ndjson", "/api/archive")]
    assert [r.status_code for r in answers] == [200, 200, 200]
    for path in ("/api/archive", "/api/archive/2025-01.ndjson"):
        r = web.client.get(path)
        assert r.status_code == 429 and 1 <= int(r.headers["retry-after"]) <= 60 and "archive" in r.json()["detail"]
    assert web.client.get("/api/archive?limit=0").status_code == 422  # a bad request is refused before it counts
    with pytest.raises(ValueError, match="archive_per_minute"):
        Limits(archive_per_minute=0)


def test_a_cursor_names_its_key_exactly():
    from millebornes.web.archive.routes import cursor, read_cursor

    for key in ((datetime(2025, 1, 2, 3, 4, 5), "abc"), (datetime(2025, 1, 2, 3, 4, 5, 678), "A-_9" * 4)):
        assert read_cursor(cursor(key)) == key


def test_the_monthly_file_holds_the_months_public_tables(web):
    web.start()
    feb_last, feb_first, march, now_ = (finished(web, seed) for seed in (61, 62, 63, 64))
    private = finished(web, 65, public=False)
    playing = unfinished(web, 66)
    finish_at(web, feb_last, datetime(2024, 2, 29, 23, 59, 59, 999999))
    finish_at(web, feb_first, datetime(2024, 2, 1))
    finish_at(web, march, datetime(2024, 3, 1))
    finish_at(web, private, datetime(2024, 2, 10))
    c = web.client
    february = c.get("/api/archive/2024-02.ndjson")
    assert ids(february) == [feb_first["id"], feb_last["id"]]
    assert february.headers["content-disposition"] == 'attachment; filename="millebornes-2024-02.ndjson"'
    assert february.headers["cache-control"] == "public, max-age=86400"
    assert ids(c.get("/api/archive/2024-03.ndjson")) == [march["id"]]
    assert ids(c.get("/api/archive/1999-12.ndjson")) == []
    this_month = c.get(f"/api/archive/{datetime.now(UTC):%Y-%m}.ndjson")
    assert ids(this_month) == [now_["id"]] and this_month.headers["cache-control"] == "no-cache"
    assert playing["id"] not in this_month.text and private["id"] not in february.text
    for month in ("2024-13", "2024-00", "2024-1", "24-01", "0000-01", "2024-02-01", "febr", "٢٠٢٤-٠٢"):
        r = c.get(f"/api/archive/{month}.ndjson")
        assert r.status_code == 422 and r.json()["field"] == "month", month
    future = c.get(f"/api/archive/{datetime.now(UTC).year + 1}-01.ndjson")
    assert future.status_code == 404 and "has not begun" in future.json()["detail"]


def test_stand_ins_are_told_as_stretches_of_actions():
    from millebornes.web.archive.routes import standins
    from millebornes.web.tables.rows import SavedTable

    saved = SavedTable("t", "classic", {}, 2, False, 1, None, 3.0, "finished", datetime(2025, 1, 1), [])
    saved.actions = [(0, "draw")] * 12
    saved.notes = [
        (3, {"type": "standin", "seat": 0, "why": "away"}),
        (7, {"type": "back", "seat": 0}),
        (10, {"type": "standin", "seat": 1, "why": "time"}),
    ]
    assert standins(saved) == [{"seat": 0, "from": 3, "until": 7}, {"seat": 1, "from": 10, "until": 12}]


@pytest.mark.postgres
def test_the_archive_on_postgresql(web, fresh_postgres):
    web.start(url=fresh_postgres())
    assert web.app.state.db.engine.dialect.name == "postgresql"
    tables = [finished(web, seed) for seed in (71, 72, 73, 74)]
    private = finished(web, 75, public=False)
    base = datetime(2024, 5, 6, 7, 8, 9, 654321)
    for i, table in enumerate(tables):
        finish_at(web, table, base + timedelta(seconds=i // 2))
    finish_at(web, private, base)
    every = ids(web.client.get("/api/archive"))
    assert sorted(every) == sorted(t["id"] for t in tables)
    assert every[:2] != every[2:] and {*every[:2]} == {tables[0]["id"], tables[1]["id"]}
    for limit in (1, 3):
        assert walk(web.client, limit)[0] == every
    assert ids(web.client.get("/api/archive/2024-05.ndjson")) == every
    for record in records(web.client.get("/api/archive")):
        jsonschema.validate(record, SCHEMA)
        game = mb.replay(record)
        assert list(game.match_scores) == record["table"]["scores"] and game.winners == record["table"]["winners"]
    assert web.client.get(f"/api/tables/{private['id']}/record").status_code == 403


@pytest.mark.server
def test_a_real_server_streams_the_archive_and_each_record_replays_after_a_restart(tmp_path):
    """Through a real `millebornes serve` process and HTTP: two public matches and a private one played on their
    WebSockets, then the archive streamed, once before a restart and once after; every line replays to what the
    table saved, and the private one is never in it."""
    import httpx

    from tests.serving import Seat, Server

    db, log = tmp_path / "mb.db", tmp_path / "server.log"
    server = Server(db, log, 0.0)
    played = {}
    try:
        for seed, public in ((11, True), (12, False), (13, True)):
            table = server.create(
                ruleset="dujardin", players=2, options=SHORT, seats=[HUMAN, EASY], seed=seed, public=public
            )
            ann, hasty = Seat(server, table, 0, "Ann"), Hasty(seed)
            while not ann.obs["is_over"]:
                if ann.obs["legal_actions"]:
                    ann.act(hasty.choice(ann.obs["legal_actions"]))
                ann.next_state()
            played[table["id"]] = (public, ann.obs["match_scores"], ann.obs["winners"])
            ann.close()
        first = httpx.get(f"{server.base}/api/archive", timeout=30)
    finally:
        server.stop()
    server = Server(db, log, 0.0)
    try:
        again = httpx.get(f"{server.base}/api/archive", timeout=30)
    finally:
        server.stop()
    assert first.text == again.text and first.headers["content-type"].startswith("application/x-ndjson")
    lines = [json.loads(line) for line in first.text.splitlines()]
    assert {r["table"]["id"] for r in lines} == {i for i, (public, _, _) in played.items() if public}
    for record in lines:
        game = mb.replay(record)
        _, scores, winners = played[record["table"]["id"]]
        assert game.is_over and list(game.match_scores) == scores and game.winners == winners
