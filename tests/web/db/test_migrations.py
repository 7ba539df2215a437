"""The schema's revisions (web/db/schema.py, web/db/migrations/): they make exactly the models' schema on SQLite and
PostgreSQL, adopt a database the older code made (``create_all`` plus its added columns, no version), and a
server told not to migrate refuses a database that is behind; the ``db`` commands."""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

import millebornes.web.accounts.guard_repo  # noqa: F401
import millebornes.web.accounts.passkey_repo  # noqa: F401
import millebornes.web.accounts.repo  # noqa: F401  (its models join Base)
import millebornes.web.botaccounts.repo  # noqa: F401
import millebornes.web.pages.repo  # noqa: F401
import millebornes.web.ratings.repo  # noqa: F401
import millebornes.web.ratings.stats_repo  # noqa: F401
import millebornes.web.reviews.puzzle_repo  # noqa: F401
import millebornes.web.reviews.repo  # noqa: F401
from millebornes.cli import app
from millebornes.web.db import schema
from millebornes.web.db.base import Base
from millebornes.web.db.database import Database
from millebornes.web.tables.repo import Tables
from tests.serving import MILLEBORNES

runner = CliRunner()

FIRST_RELEASE = """
CREATE TABLE tables (
    id VARCHAR(16) NOT NULL, ruleset VARCHAR(32) NOT NULL, options JSON NOT NULL, players INTEGER NOT NULL,
    teams BOOLEAN NOT NULL, seed BIGINT NOT NULL, deck JSON, cf_timeout FLOAT NOT NULL, status VARCHAR(16) NOT NULL,
    scores JSON, winners JSON, created {ts} NOT NULL, finished {ts}, PRIMARY KEY (id));
CREATE INDEX ix_tables_status ON tables (status);
CREATE INDEX ix_tables_finished ON tables (finished);
CREATE TABLE actions (
    table_id VARCHAR(16) NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL, action VARCHAR(40) NOT NULL,
    time {ts} NOT NULL, PRIMARY KEY (table_id, n),
    FOREIGN KEY(table_id) REFERENCES tables (id) ON DELETE CASCADE);
CREATE TABLE seats (
    table_id VARCHAR(16) NOT NULL, seat INTEGER NOT NULL, kind VARCHAR(8) NOT NULL, level VARCHAR(16),
    nickname VARCHAR(64), token_hash VARCHAR(64), joined BOOLEAN NOT NULL, PRIMARY KEY (table_id, seat),
    FOREIGN KEY(table_id) REFERENCES tables (id) ON DELETE CASCADE)
"""
"""What the first release's ``create_all`` made (three tables; {ts}: the dialect's timestamp)."""

LAST_BEFORE_REVISIONS = """
CREATE TABLE tables (
    id VARCHAR(16) NOT NULL, ruleset VARCHAR(32) NOT NULL, options JSON NOT NULL, players INTEGER NOT NULL,
    teams BOOLEAN NOT NULL, seed BIGINT NOT NULL, deck JSON, cf_timeout FLOAT NOT NULL, status VARCHAR(16) NOT NULL,
    scores JSON, winners JSON, created {ts} NOT NULL, finished {ts}, spectators BOOLEAN DEFAULT {true} NOT NULL,
    clock FLOAT DEFAULT 0 NOT NULL, grace FLOAT DEFAULT 60 NOT NULL, standin VARCHAR(16) DEFAULT 'medium' NOT NULL,
    clock_at INTEGER, clock_deadline {ts}, public BOOLEAN DEFAULT {false} NOT NULL, rematch VARCHAR(16),
    rematch_of VARCHAR(16), PRIMARY KEY (id));
CREATE INDEX ix_tables_finished ON tables (finished);
CREATE INDEX ix_tables_status ON tables (status);
CREATE TABLE actions (
    table_id VARCHAR(16) NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL, action VARCHAR(40) NOT NULL,
    time {ts} NOT NULL, deadline {ts}, PRIMARY KEY (table_id, n),
    FOREIGN KEY(table_id) REFERENCES tables (id) ON DELETE CASCADE);
CREATE TABLE notes (
    table_id VARCHAR(16) NOT NULL, n INTEGER NOT NULL, at INTEGER NOT NULL, event JSON NOT NULL,
    time {ts} NOT NULL, PRIMARY KEY (table_id, n),
    FOREIGN KEY(table_id) REFERENCES tables (id) ON DELETE CASCADE);
CREATE TABLE review_jobs (
    table_id VARCHAR(16) NOT NULL, owner VARCHAR(16) NOT NULL, done INTEGER NOT NULL, total INTEGER NOT NULL,
    failed BOOLEAN NOT NULL, beat {ts} NOT NULL, PRIMARY KEY (table_id),
    FOREIGN KEY(table_id) REFERENCES tables (id) ON DELETE CASCADE);
CREATE TABLE reviews (
    table_id VARCHAR(16) NOT NULL, format VARCHAR(32) NOT NULL, worlds INTEGER NOT NULL, seed BIGINT NOT NULL,
    body TEXT NOT NULL, created {ts} NOT NULL, PRIMARY KEY (table_id),
    FOREIGN KEY(table_id) REFERENCES tables (id) ON DELETE CASCADE);
CREATE TABLE seats (
    table_id VARCHAR(16) NOT NULL, seat INTEGER NOT NULL, kind VARCHAR(8) NOT NULL, level VARCHAR(16),
    nickname VARCHAR(64), token_hash VARCHAR(64), joined BOOLEAN NOT NULL, standin BOOLEAN DEFAULT {false} NOT NULL,
    claimed BOOLEAN DEFAULT {false} NOT NULL, PRIMARY KEY (table_id, seat),
    FOREIGN KEY(table_id) REFERENCES tables (id) ON DELETE CASCADE)
"""
"""What ``create_all`` made just before the revisions: the six tables, no ``alembic_version``."""

WORDS = {
    "sqlite": {"ts": "DATETIME", "true": "1", "false": "0"},
    "postgresql": {"ts": "TIMESTAMP WITHOUT TIME ZONE", "true": "true", "false": "false"},
}


def diffs(url: str) -> list:
    """What Alembic's autogenerate finds between the database and the models (types and defaults too)."""
    engine = create_engine(url)
    try:
        with engine.connect() as c:
            return compare_metadata(
                MigrationContext.configure(c, opts={"compare_type": True, "compare_server_default": True}),
                Base.metadata,
            )
    finally:
        engine.dispose()


def shape(url: str) -> dict:
    """The database's catalog, by name: every table's columns (type, null, default, key), its indexes and
    its constraints, as the database itself reports them (alembic_version left out)."""
    engine = create_engine(url)
    try:
        with engine.connect() as c:
            if engine.dialect.name == "sqlite":
                return _sqlite_shape(c)
            return _postgresql_shape(c)
    finally:
        engine.dispose()


def _sqlite_shape(c) -> dict:
    found = {}
    names = c.execute(
        text(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "AND name != 'alembic_version'"
        )
    ).scalars()
    for name in names:
        columns = {r[1]: tuple(r[2:]) for r in c.exec_driver_sql(f"PRAGMA table_info({name})")}
        indexes = {
            r[1]: (r[2], [i[2] for i in c.exec_driver_sql(f"PRAGMA index_info({r[1]})")])
            for r in c.exec_driver_sql(f"PRAGMA index_list({name})")
        }
        keys = sorted(tuple(r[2:]) for r in c.exec_driver_sql(f"PRAGMA foreign_key_list({name})"))
        found[name] = (columns, indexes, keys)
    return found


def _postgresql_shape(c) -> dict:
    found: dict = {}
    for r in c.execute(
        text(
            "SELECT table_name, column_name, data_type, character_maximum_length, is_nullable, column_default "
            "FROM information_schema.columns WHERE table_schema = 'public' AND table_name != 'alembic_version'"
        )
    ):
        found.setdefault(r[0], {"columns": {}, "indexes": {}, "constraints": {}})["columns"][r[1]] = tuple(r[2:])
    for r in c.execute(
        text(
            "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' "
            "AND tablename != 'alembic_version'"
        )
    ):
        found[r[0]]["indexes"][r[1]] = r[2]
    for r in c.execute(
        text(
            "SELECT t.relname, k.conname, pg_get_constraintdef(k.oid) FROM pg_constraint k "
            "JOIN pg_class t ON t.oid = k.conrelid JOIN pg_namespace s ON s.oid = t.relnamespace "
            "WHERE s.nspname = 'public' AND t.relname != 'alembic_version'"
        )
    ):
        found[r[0]]["constraints"][r[1]] = r[2]
    return found


def revision(url: str) -> str | None:
    engine = create_engine(url)
    try:
        with engine.connect() as c:
            return schema.current(c)
    finally:
        engine.dispose()


def two_sqlite(tmp_path) -> tuple[str, str]:
    return f"sqlite:///{tmp_path}/a.db", f"sqlite:///{tmp_path}/b.db"


def made_by_create_all(url: str) -> None:
    engine = create_engine(url)
    Base.metadata.create_all(engine)
    engine.dispose()


def made_by_old_code(url: str, ddl: str) -> None:
    """A database the older server made (``ddl``, its dialect's words), with one finished two-seat table and
    three actions in it."""
    engine = create_engine(url)
    words = WORDS[engine.dialect.name]
    with engine.begin() as c:
        for statement in ddl.format(**words).split(";"):
            c.exec_driver_sql(statement)
        c.execute(
            text(
                "INSERT INTO tables (id, ruleset, options, players, teams, seed, cf_timeout, status, "
                "created, finished, scores, winners) VALUES ('old1', 'classic', '{}', 2, :f, 7, 6.0, "
                "'finished', :t, :t, '[700, 0]', '[0]')"
            ),
            {"f": False, "t": datetime(2026, 1, 2, 3, 4, 5)},
        )
        for seat in (0, 1):
            c.execute(
                text(
                    "INSERT INTO seats (table_id, seat, kind, nickname, joined) VALUES ('old1', :s, 'human', :nick, :j)"
                ),
                {"s": seat, "nick": f"P{seat}", "j": True},
            )
        for n, action in enumerate(["draw", "play 25", "draw"]):
            c.execute(
                text("INSERT INTO actions (table_id, n, seat, action, time) VALUES ('old1', :n, :s, :a, :t)"),
                {"n": n, "s": n % 2, "a": action, "t": datetime(2026, 1, 2, 3, 4, 5)},
            )
    engine.dispose()


def test_the_revisions_make_the_models_schema_on_sqlite(tmp_path):
    migrated, made = two_sqlite(tmp_path)
    Database(migrated, "NORMAL").close()
    made_by_create_all(made)
    assert revision(migrated) == schema.head() == schema.scripts().get_current_head() == "0012"  # HEAD is the last
    assert diffs(migrated) == []
    assert shape(migrated) == shape(made) and len(shape(made)) == 18
    assert diffs(f"sqlite:///{tmp_path}/empty.db")  # the comparison sees a difference when there is one


@pytest.mark.postgres
def test_the_revisions_make_the_models_schema_on_postgresql(fresh_postgres):
    migrated, made = fresh_postgres(), fresh_postgres()
    Database(migrated).close()
    made_by_create_all(made)
    assert revision(migrated) == schema.head()
    assert diffs(migrated) == []
    assert shape(migrated) == shape(made) and len(shape(made)) == 18


def adopted(url: str, ddl: str) -> None:
    """A database made by the older code is upgraded in place: its rows kept, the columns it lacked there
    with the older tables' values, the same schema as a new one's, at the head revision."""
    made_by_old_code(url, ddl)
    assert revision(url) is None
    # the last create_all made the models' schema but for what revisions added since (0002: tables.touched,
    # 0003: tables.pace, 0004: tables.casual, 0005: seats.account_id, 0006: tables.rated)
    added = {d[3].name for d in diffs(url) if isinstance(d, tuple) and d[0] == "add_column"}
    assert (added == {"touched", "pace", "casual", "account_id", "rated"}) == (ddl is not FIRST_RELEASE), added
    store = Tables(Database(url, "NORMAL"))
    try:
        saved = store.get("old1", actions=True)
        assert (saved.status, saved.scores, saved.winners, saved.seed) == ("finished", [700, 0], [0], 7)
        assert saved.actions == [(0, "draw"), (1, "play 25"), (0, "draw")]
        assert (
            saved.spectators,
            saved.public,
            saved.clock,
            saved.grace,
            saved.standin_level,
            saved.rematch,
            saved.pace,
            saved.casual,
        ) == (True, False, 0.0, 60.0, "medium", None, "normal", False)
        assert [(s.nickname, s.joined, s.stood_in, s.claimed) for s in saved.seats] == [
            ("P0", True, False, False),
            ("P1", True, False, False),
        ]
    finally:
        store.db.close()
    assert revision(url) == schema.head()
    assert diffs(url) == []


@pytest.mark.parametrize("ddl", [FIRST_RELEASE, LAST_BEFORE_REVISIONS], ids=["first-release", "last-before"])
def test_an_sqlite_file_made_before_the_revisions_is_upgraded_in_place(tmp_path, ddl):
    old, new = two_sqlite(tmp_path)
    adopted(old, ddl)
    Database(new, "NORMAL").close()
    assert shape(old) == shape(new)


@pytest.mark.postgres
@pytest.mark.parametrize("ddl", [FIRST_RELEASE, LAST_BEFORE_REVISIONS], ids=["first-release", "last-before"])
def test_a_postgresql_database_made_before_the_revisions_is_upgraded_in_place(fresh_postgres, ddl):
    old, new = fresh_postgres(), fresh_postgres()
    adopted(old, ddl)
    Database(new).close()
    assert shape(old) == shape(new)


def test_a_database_behind_is_refused_without_migrating_and_one_ahead_always(tmp_path):
    url = f"sqlite:///{tmp_path}/mb.db"
    with pytest.raises(schema.SchemaError, match="needs 0012: run `millebornes db upgrade`"):
        Tables(Database(url, "NORMAL", migrate=False))
    assert revision(url) is None and shape(url) == {}  # nothing made
    Database(url, "NORMAL").close()
    Database(url, "NORMAL", migrate=False).close()
    engine = create_engine(url)
    with engine.begin() as c:
        c.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    engine.dispose()
    for migrate in (True, False):
        with pytest.raises(schema.SchemaError, match="revision 9999, which this version of millebornes does not know"):
            Tables(Database(url, "NORMAL", migrate=migrate))
    assert revision(url) == "9999"


def test_db_upgrade_and_current(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path}/mb.db"
    missing = runner.invoke(app, ["db", "current", "--database-url", url])
    assert missing.exit_code == 2 and "no database at" in missing.output
    assert not (tmp_path / "mb.db").exists()  # looking made nothing
    made_by_old_code(url, FIRST_RELEASE)
    monkeypatch.setenv("DATABASE_URL", url)
    before = runner.invoke(app, ["db", "current"])
    assert before.exit_code == 0 and before.output.strip() == "none (this version needs 0012: millebornes db upgrade)"
    refused = runner.invoke(app, ["serve", "--no-migrate"])
    assert refused.exit_code == 2 and "needs 0012: run `millebornes db upgrade`" in refused.output
    assert revision(url) is None
    up = runner.invoke(app, ["db", "upgrade"])
    assert up.exit_code == 0 and up.output.strip() == f"millebornes: {url} upgraded from revision none to 0012"
    again = runner.invoke(app, ["db", "upgrade", "--database-url", url])
    assert again.exit_code == 0 and again.output.strip() == f"millebornes: {url} is at revision 0012"
    assert runner.invoke(app, ["db", "current"]).output.strip() == "0012 (head)"
    assert diffs(url) == []


def test_upgrades_started_together_on_one_sqlite_file_make_the_schema_once(tmp_path):
    """`db upgrade` three times at once on a new file (as a deploy job beside a starting server might): one
    makes the schema under the file's write lock, the others wait for it and find it made."""
    for trial in range(3):
        url = f"sqlite:///{tmp_path}/t{trial}.db"
        runs = [
            subprocess.Popen(
                [str(MILLEBORNES), "db", "upgrade", "--database-url", url],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
            for _ in range(3)
        ]
        said = sorted(run.communicate(timeout=120)[0].strip() for run in runs)
        assert [run.returncode for run in runs] == [0, 0, 0], said
        assert said == [f"millebornes: {url} is at revision 0012"] * 2 + [
            f"millebornes: {url} upgraded from revision none to 0012"
        ], said
        assert diffs(url) == []


def test_a_start_on_a_database_at_head_imports_no_alembic(tmp_path):
    """Alembic is read only to upgrade: a server restarting on its own database starts without it."""
    url = f"sqlite:///{tmp_path}/mb.db"
    Database(url, "NORMAL").close()
    probe = (
        "import sys; from millebornes.web.db.database import Database; Database(sys.argv[1], 'NORMAL').close(); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('alembic', 'mako')))"
    )
    out = subprocess.run([sys.executable, "-c", probe, url], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def at_0011_with_a_bot(url: str) -> None:
    """A database as revision 0011 left it (no ``bots.accepts``), with a connected bot and its owner."""
    Database(url, "NORMAL").close()
    engine = create_engine(url)
    at = datetime(2026, 1, 2, 3, 4, 5)
    with engine.begin() as c:
        c.execute(text("ALTER TABLE bots DROP COLUMN accepts"))
        c.execute(text("UPDATE alembic_version SET version_num = '0011'"))
        for account in ("owner", "robo"):
            c.execute(
                text(
                    "INSERT INTO accounts (id, username, username_key, password_hash, created) "
                    "VALUES (:a, :a, :a, 'x', :t)"
                ),
                {"a": account, "t": at},
            )
        c.execute(
            text(
                "INSERT INTO bots (account_id, owner_id, token_hash, created, connection) "
                "VALUES ('robo', 'owner', 'h', :t, 'live1')"
            ),
            {"t": at},
        )
    engine.dispose()
    assert revision(url) == "0011"


def upgraded_from_0011(url: str) -> None:
    """0012 adds ``bots.accepts`` in place: the bot's row kept, taking any table (null) until its next hello."""
    at_0011_with_a_bot(url)
    Database(url, "NORMAL").close()
    assert revision(url) == schema.head() == "0012" and diffs(url) == []
    engine = create_engine(url)
    with engine.connect() as c:
        assert c.execute(text("SELECT account_id, connection, accepts FROM bots")).one() == ("robo", "live1", None)
    engine.dispose()


def test_revision_0012_adds_what_a_bot_accepts_on_sqlite(tmp_path):
    upgraded_from_0011(f"sqlite:///{tmp_path}/mb.db")


@pytest.mark.postgres
def test_revision_0012_adds_what_a_bot_accepts_on_postgresql(fresh_postgres):
    upgraded_from_0011(fresh_postgres())
