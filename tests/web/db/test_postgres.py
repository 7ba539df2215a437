"""The web app on a real PostgreSQL server: create, play, stop, start again on the same database and
go on; a finished table in the history and its replay.

The server: the ``postgres_url`` fixture (conftest.py).
"""

from __future__ import annotations

import random
import time

import pytest

import millebornes as mb

pytest.importorskip("fastapi")

pytestmark = pytest.mark.postgres

HUMAN, MEDIUM = {"kind": "human"}, {"kind": "bot", "level": "medium"}


def test_tables_live_in_postgresql(web, postgres_url):
    web.start(url=postgres_url)
    assert web.app.state.db.engine.dialect.name == "postgresql"
    table = web.create(seats=[HUMAN, HUMAN], seed=51)
    a, b = web.join(table, 0, "Zoë"), web.join(table, 1, "Bob")
    a.expect("state")
    rng = random.Random(3)
    web.play_random([a, b], rng, stop=lambda s: s["seq"] >= 20)
    before = (a.state["seq"], a.obs, b.obs)
    room = web.hall.rooms[table["id"]]
    assert web.app.state.tables.action_count(table["id"]) == room.actions and room.seq >= 20

    web.start(url=postgres_url)  # a new app on the same database: the table is replayed
    a, b = web.join(table, 0, nickname=None), web.join(table, 1, nickname=None)
    assert (a.state["seq"], a.obs, b.obs) == before
    assert a.frames[0]["table"]["seats"][0]["nickname"] == "Zoë"
    web.play_random([a, b], rng, stop=lambda s: s["observation"]["hand_number"] > 0)
    assert len(a.obs["hand_results"]) == 1

    race = web.create(ruleset="dujardin", seats=[HUMAN, MEDIUM], seed=52, public=True)
    c = web.join(race, 0, "Cy")
    web.play_random([c], rng)
    history = web.client.get("/api/history").json()["tables"]
    mine = next(t for t in history if t["id"] == race["id"])
    assert mine["status"] == "finished" and mine["winners"] == c.obs["winners"]
    steps = web.app.state.tables.action_count(race["id"])
    end = web.client.get(f"/api/tables/{race['id']}/replay", params={"step": steps}).json()
    assert end["state"]["is_over"] and end["state"]["tableaux"] == c.obs["tableaux"]


def test_unjoined_tables_expire_in_postgresql(web, postgres_url):
    from datetime import timedelta

    from millebornes.web.db.base import now

    web.start(url=postgres_url)
    store = web.app.state.tables
    lonely, met = web.create(seats=[HUMAN, MEDIUM]), web.create(seats=[HUMAN, HUMAN])
    web.join(met, 0, "Ann")
    later = now() + timedelta(seconds=5)
    assert lonely["id"] in store.unjoined(later) and met["id"] not in store.unjoined(later)
    assert lonely["id"] not in store.unjoined(now() - timedelta(hours=1))  # too young
    assert store.delete_unjoined([lonely["id"], met["id"]], later) == [lonely["id"]]
    assert store.get(lonely["id"]) is None and store.get(met["id"]).seats[0].nickname == "Ann"
    assert store.token_hash(met["id"], 1) and store.token_hash(met["id"], 5) is None


def test_the_spectators_option_lives_in_postgresql(web, postgres_url):
    """The creator's choice survives a restart, and a database made before the option gets its column
    (every older table allowing spectators)."""
    from sqlalchemy import text

    from millebornes.web.db.database import Database
    from millebornes.web.tables.repo import Tables

    web.start(url=postgres_url)
    closed, open_ = web.create(seats=[HUMAN, HUMAN], spectators=False), web.create(seats=[HUMAN, HUMAN])
    web.start(url=postgres_url)
    store = web.app.state.tables
    assert (store.get(closed["id"]).spectators, store.watch_facts(open_["id"])[0]) == (False, True)
    web.stop()
    old = Tables(Database(postgres_url))
    with old.engine.begin() as c:
        c.execute(text("ALTER TABLE tables DROP COLUMN spectators"))
        c.execute(text("DROP TABLE alembic_version"))  # a database made before the revisions
    old.db.close()
    again = Tables(Database(postgres_url))
    assert again.watch_facts(closed["id"])[0] is True and again.get(open_["id"]).spectators is True
    again.db.close()


def test_the_presence_columns_live_in_postgresql(web, postgres_url):
    from tests.web.tables.test_presence import presence_columns_survive

    presence_columns_survive(web, postgres_url)


def test_the_lobby_and_its_claims_live_in_postgresql(web, postgres_url):
    """A public table is listed after a restart, a claim's conditional update wins once on PostgreSQL and
    holds after a restart, and a database made before the lobby gets both columns (older tables private,
    no seat claimed)."""
    from sqlalchemy import text

    from millebornes.web.db.database import Database
    from millebornes.web.tables.repo import Tables

    web.start(url=postgres_url)
    public, private = web.create(seats=[HUMAN, HUMAN], public=True), web.create(seats=[HUMAN, HUMAN])
    web.join(public, 0, "Ann")
    web.join(private, 0, "Bob")
    web.start(url=postgres_url)
    assert [t["id"] for t in web.client.get("/api/lobby").json()["tables"]] == [public["id"]]
    claim = f"/api/tables/{public['id']}/seats/1/claim"
    assert web.client.post(claim).status_code == 200
    assert web.client.post(claim).status_code == 409
    assert web.client.post(f"/api/tables/{private['id']}/seats/1/claim").status_code == 404
    web.start(url=postgres_url)
    assert web.client.post(claim).status_code == 409
    assert web.app.state.tables.get(public["id"]).seats[1].claimed is True
    web.stop()
    old = Tables(Database(postgres_url))
    with old.engine.begin() as c:
        c.execute(text("ALTER TABLE tables DROP COLUMN public"))
        c.execute(text("ALTER TABLE seats DROP COLUMN claimed"))
        c.execute(text("DROP TABLE alembic_version"))  # a database made before the revisions
    old.db.close()
    again = Tables(Database(postgres_url))
    assert again.get(public["id"]).public is False and again.get(public["id"]).seats[1].claimed is False
    assert again.lobby(50) == []
    again.db.close()


def test_one_rematch_on_postgresql_and_its_columns(web, postgres_url):
    """Answers at the same moment make one rematch on PostgreSQL too (the conditional UPDATE waits for the
    other transaction, then finds the link set), and a database made before the rematch gets its columns."""
    import threading

    from sqlalchemy import text

    from millebornes.web.db.database import Database
    from millebornes.web.tables.repo import Tables

    web.start(url=postgres_url)
    table = web.create(seats=[HUMAN, {"kind": "bot", "level": "hard"}], cf_timeout=9)
    store = web.app.state.tables
    made: list[str] = []
    threads = [threading.Thread(target=lambda: made.append(store.create_rematch(table["id"], 42))) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(made) == 6 and len(set(made)) == 1
    new = store.get(made[0])
    assert (new.rematch_of, new.seed, new.cf_timeout, new.status) == (table["id"], 42, 9, "waiting")
    assert [(s.kind, s.level, s.token_hash) for s in new.seats] == [("human", None, None), ("bot", "hard", None)]
    with store.engine.connect() as c:
        assert c.execute(text("SELECT count(*) FROM tables WHERE rematch_of = :t"), {"t": table["id"]}).scalar() == 1
    web.stop()
    old = Tables(Database(postgres_url))
    with old.engine.begin() as c:
        c.execute(text("ALTER TABLE tables DROP COLUMN rematch"))
        c.execute(text("ALTER TABLE tables DROP COLUMN rematch_of"))
        c.execute(text("DROP TABLE alembic_version"))  # a database made before the revisions
    old.db.close()
    again = Tables(Database(postgres_url))
    assert again.get(table["id"]).rematch is None and again.rematch_state(table["id"])["table"] is None
    again.db.close()


def test_a_game_review_lives_in_postgresql(web, postgres_url):
    """A finished table's review is saved once (a second save keeps the first) and survives a restart."""
    import time

    web.start(url=postgres_url, review_worlds=3)
    race = web.create(ruleset="dujardin", seats=[HUMAN, MEDIUM], seed=53, public=True)
    c = web.join(race, 0, "Cy")
    web.play_random([c], random.Random(4))
    assert web.client.post(f"/api/tables/{race['id']}/review").status_code == 202
    deadline = time.monotonic() + 60
    while (done := web.client.get(f"/api/tables/{race['id']}/review").json())["state"] != "done":
        assert done["state"] == "running" and time.monotonic() < deadline, done
        time.sleep(0.05)
    store = web.app.state.reviewer.reviews
    store.save(race["id"], {**done["review"], "moves": []})  # another process's late save: ignored
    web.start(url=postgres_url)
    assert web.client.get(f"/api/tables/{race['id']}/review").json() == done
    assert done["review"]["budget"] == {"worlds": 3, "seed": 0} and done["review"]["moves"]


def test_an_action_notice_carries_its_row_and_a_lost_one_is_read(web, postgres_url):
    """Another process's action arrives in its notice, adopted without a read; after a notice that never
    came (the row written without one), the next notice shows the gap and the room reads what it lacks."""
    from datetime import timedelta

    import psycopg
    from sqlalchemy import insert

    from millebornes.web.db.base import now
    from millebornes.web.db.database import Database
    from millebornes.web.db.listener import libpq_url
    from millebornes.web.db.notices import CHANNEL, action_row
    from millebornes.web.errors import Stale
    from millebornes.web.tables.repo import Tables
    from millebornes.web.tables.rows import ActionRow

    web.start(url=postgres_url)
    table = web.create(seats=[HUMAN, HUMAN], seed=54)
    a, b = web.join(table, 0, "Zoë"), web.join(table, 1, "Bob")
    game = mb.new_game("classic", players=2, seed=54)
    other = Tables(Database(postgres_url))  # another server process: its own origin
    soon = now().replace(microsecond=0) + timedelta(minutes=5)  # a clock's deadline, written with the row

    def play(n: int, notice: bool = True):
        seat = game.to_act
        action = game.legal_actions()[0]
        game.act(action, seat)
        if notice:
            other.append_action(table["id"], n, seat, action, clock=soon)
        else:
            with other.engine.begin() as c:
                c.execute(
                    insert(ActionRow.__table__).values(table_id=table["id"], n=n, seat=seat, action=action, time=now())
                )
        return seat, action

    with psycopg.connect(libpq_url(postgres_url), autocommit=True) as listening:
        listening.execute(f"LISTEN {CHANNEL}")

        def actions(timeout: float) -> list[list[str]]:
            heard = [n.payload.split(" ") for n in listening.notifies(timeout=timeout)]
            return [words for words in heard if words[1] == "action"]

        seat, action = play(0)
        table_id, kind, origin, *args = actions(1)[0]
        assert (table_id, kind, origin) == (table["id"], "action", other.origin)
        count, told_seat, told_action, deadline = action_row(args)
        assert (count, told_seat, told_action, deadline) == (1, seat, action, soon)
        with pytest.raises(Stale):
            other.append_action(table["id"], 0, seat, action)
        assert actions(0.3) == []  # a refused write tells nobody

    room = web.hall.rooms[table["id"]]
    deadline = time.monotonic() + 5
    while room.actions < 1:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    play(1, notice=False)
    play(2)
    while room.actions < 3:
        assert time.monotonic() < deadline, room.actions
        time.sleep(0.02)
    assert [room.game.observation(s) for s in (0, 1)] == [game.observation(s) for s in (0, 1)]
    assert a.state_after(0)["seq"] >= 1 and b.state_after(0)["seq"] >= 1


def test_moves_go_on_after_the_database_drops_every_connection(web, postgres_url):
    """PostgreSQL ends every connection of the server (a restart, a failover): the next move is written on a new
    one (the moves' pool has no ping: it tries once more), the notices' connection comes back, nothing is lost."""
    from sqlalchemy import create_engine, text

    web.start(url=postgres_url)
    table = web.create(seats=[HUMAN, HUMAN], seed=55)
    a, b = web.join(table, 0, "Zoë"), web.join(table, 1, "Bob")
    rng = random.Random(5)
    web.play_random([a, b], rng, stop=lambda s: s["seq"] >= 6)
    store = web.app.state.tables
    before = store.action_count(table["id"])

    admin = create_engine(postgres_url)
    with admin.connect() as c:
        dropped = c.execute(
            text(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        ).scalar()
    admin.dispose()
    assert dropped >= 2  # the moves' pool and the notices' connection at least

    web.play_random([a, b], rng, stop=lambda s: s["seq"] >= 16)
    errors = [f for c in (a, b) for f in c.frames if f["type"] == "error"]
    assert errors == [] and store.action_count(table["id"]) > before
    room = web.hall.rooms[table["id"]]
    assert room.actions == store.action_count(table["id"])
    deadline = time.monotonic() + 10
    while not (web.hall.listener and web.hall.listener.ready.is_set()):
        assert time.monotonic() < deadline, "the notices' connection did not come back"
        time.sleep(0.05)
