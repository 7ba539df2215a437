"""`millebornes admin`, the operator's tools (docs/operators.md, "Operators' tools"), run beside an app on the same
database: an account disabled (its sign-ins and devices gone, its bots disconnected and refused with 4403) and
enabled, a bot's token revoked or issued, a table deleted with every row of it, the sign-ups listed by address; each
bad argument or unknown name refused with exit status 2, changing nothing."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

pytest.importorskip("fastapi")

from millebornes.cli import app  # noqa: E402
from millebornes.web.botaccounts import socket as bot_socket_module  # noqa: E402
from millebornes.web.db.base import now  # noqa: E402
from tests.web.botaccounts.test_botaccounts import bot_socket, closed_with, hello, signed_up  # noqa: E402

runner = CliRunner()
HUMAN, EASY = {"kind": "human"}, {"kind": "bot", "level": "easy"}


def admin(web, *args: str):
    return runner.invoke(app, ["admin", *args, "--database-url", web.url])


def rows(url: str, sql: str, **params) -> list:
    engine = create_engine(url)
    try:
        with engine.begin() as c:
            return (
                list(c.execute(text(sql), params))
                if sql.lstrip().upper().startswith("SELECT")
                else [c.execute(text(sql), params).rowcount]
            )
    finally:
        engine.dispose()


@pytest.fixture
def quick(monkeypatch):
    """A live bot connection checks its account every 0.1 s rather than every few seconds."""
    monkeypatch.setattr(bot_socket_module, "CHECK_SECONDS", 0.1)


def made_bot(c, csrf, name: str = "robo") -> str:
    r = c.post("/api/account/bots", json={"username": name}, headers=csrf)
    assert r.status_code == 201, r.text
    return r.json()["token"]


def test_disable_forgets_the_sign_ins_and_refuses_the_accounts_bots_until_enabled(web, quick):
    c = web.start()
    csrf = signed_up(c, "ann_1")
    token = made_bot(c, csrf)
    assert rows(web.url, "SELECT count(*) FROM account_sessions")[0][0] == 1
    with bot_socket(c, token) as ws:
        hello(ws)
        done = admin(web, "disable", "ANN_1")
        assert done.exit_code == 0, done.output
        assert done.stdout.startswith(
            "millebornes: disabled ann_1: 1 sign-in closed, 1 device forgotten"
        )  # the sign-up remembered its browser
        assert "robo" in done.stdout and len(done.stdout.strip().splitlines()) == 1
        got, code = closed_with(ws)
        assert code == 4403 and got[-1]["type"] == "error" and "disabled" in got[-1]["message"]
    assert rows(web.url, "SELECT count(*) FROM account_sessions")[0][0] == 0
    (disabled,) = rows(web.url, "SELECT disabled FROM accounts WHERE username = 'ann_1'")[0]
    assert disabled is not None
    with bot_socket(c, token) as ws:
        got, code = closed_with(ws)
    assert code == 4403 and [m["type"] for m in got] == ["error"] and "owner's account" in got[0]["message"]
    again = admin(web, "disable", "ann_1")
    assert again.exit_code == 0 and "disabled since" in again.stdout
    assert rows(web.url, "SELECT disabled FROM accounts WHERE username = 'ann_1'")[0][0] == disabled

    back = admin(web, "enable", "ann_1")
    assert back.exit_code == 0 and back.stdout.startswith("millebornes: enabled ann_1")
    assert rows(web.url, "SELECT disabled FROM accounts WHERE username = 'ann_1'")[0][0] is None
    with bot_socket(c, token) as ws:
        assert hello(ws)["name"] == "robo"
    assert "was not disabled: nothing changed" in admin(web, "enable", "ann_1").stdout


def test_a_disabled_bot_is_closed_and_refused_by_its_own_account(web, quick):
    c = web.start()
    token = made_bot(c, signed_up(c, "ann_1"))
    with bot_socket(c, token) as ws:
        hello(ws)
        done = admin(web, "disable", "robo")
        assert done.exit_code == 0 and "its connection closes" in done.stdout
        assert closed_with(ws)[1] == 4403
    with bot_socket(c, token) as ws:
        got, code = closed_with(ws)
    assert code == 4403 and "its account is disabled" in got[0]["message"]
    assert c.get("/api/account/bots").json()["bots"][0]["connected"] is False  # the owner is not disabled


@pytest.mark.parametrize(
    "args",
    [
        ["disable", "nobody_here"],
        ["disable", "no"],
        ["disable", "bad name"],
        ["enable", "nobody_here"],
        ["revoke-bot", "nobody_here"],
        ["revoke-bot", "ann_1"],
        ["issue-bot-token", "nobody_here", "robo_2"],
        ["issue-bot-token", "robo", "robo_2"],
        ["issue-bot-token", "ann_1", "x"],
        ["issue-bot-token", "ann_1", "ann_1"],
        ["issue-bot-token", "bob_2", "robo"],
        ["delete-table", "nope1234"],
        ["delete-table", "bad/id"],
        ["signups", "--since", "0"],
        ["signups", "--limit", "0"],
        ["signups", "--limit", "1001"],
        ["signups", "--address", "x" * 65],
    ],
)
def test_a_bad_argument_or_an_unknown_name_is_refused_with_status_2_and_changes_nothing(web, args):
    c = web.start()
    made_bot(c, signed_up(c, "ann_1"))
    from fastapi.testclient import TestClient

    signed_up(web.stack.enter_context(TestClient(web.app)), "bob_2")
    before = rows(web.url, "SELECT username, disabled FROM accounts ORDER BY username")
    tokens = rows(web.url, "SELECT token_hash FROM bots")
    done = admin(web, *args)
    assert done.exit_code == 2, done.output
    assert "Traceback" not in done.output and done.stdout == ""
    assert rows(web.url, "SELECT username, disabled FROM accounts ORDER BY username") == before
    assert rows(web.url, "SELECT token_hash FROM bots") == tokens


def test_a_missing_database_is_refused_in_words(tmp_path):
    done = runner.invoke(app, ["admin", "disable", "ann_1", "--database-url", f"sqlite:///{tmp_path}/none.db"])
    assert done.exit_code == 2 and "no database at" in done.stderr
    assert not (tmp_path / "none.db").exists()


def test_revoke_bot_closes_its_connection_as_the_owners_page_does(web, quick):
    c = web.start()
    csrf = signed_up(c, "ann_1")
    token = made_bot(c, csrf)
    with bot_socket(c, token) as ws:
        hello(ws)
        done = admin(web, "revoke-bot", "Robo")
        assert done.exit_code == 0 and done.stdout.startswith("millebornes: revoked the token of robo (owner ann_1)")
        got, code = closed_with(ws)
        assert code == 4401 and "revoked" in got[-1]["message"]
    assert c.get("/api/account/bots").json()["bots"][0]["revoked"] is True
    with bot_socket(c, token) as ws:
        assert closed_with(ws)[1] == 4401
    assert "revoked already: nothing changed" in admin(web, "revoke-bot", "robo").stdout


def test_issue_bot_token_makes_the_bot_then_renews_its_token(web, quick):
    c = web.start()
    signed_up(c, "ann_1")
    made = admin(web, "issue-bot-token", "ann_1", "Local_Bot")
    assert made.exit_code == 0, made.output
    first = made.stdout.strip()
    assert first.startswith("mbb_") and made.stdout.count("\n") == 1
    assert "made the bot Local_Bot for ann_1" in made.stderr and first not in made.stderr
    assert [b["name"] for b in c.get("/api/account/bots").json()["bots"]] == ["Local_Bot"]
    with bot_socket(c, first) as ws:
        assert hello(ws)["name"] == "Local_Bot"
        renewed = admin(web, "issue-bot-token", "ann_1", "local_bot")
        assert renewed.exit_code == 0 and "renewed the token of Local_Bot" in renewed.stderr
        second = renewed.stdout.strip()
        assert second.startswith("mbb_") and second != first
        assert closed_with(ws)[1] == 4401
    with bot_socket(c, first) as ws:
        assert closed_with(ws)[1] == 4401
    with bot_socket(c, second) as ws:
        assert hello(ws)["name"] == "Local_Bot"
    # the page's limit: five bots an account
    for n in range(4):
        assert admin(web, "issue-bot-token", "ann_1", f"bot_{n}").exit_code == 0
    full = admin(web, "issue-bot-token", "ann_1", "bot_9")
    assert full.exit_code == 2 and "5 bots already" in full.stderr and full.stdout == ""
    assert admin(web, "disable", "ann_1").exit_code == 0
    off = admin(web, "issue-bot-token", "ann_1", "bot_0")
    assert off.exit_code == 2 and "enable it first" in off.stderr


def test_delete_table_refuses_a_live_table_without_force_and_takes_every_row(web):
    c = web.start()
    live = web.create(seats=[HUMAN, EASY])
    web.join(live, 0, "Ann")
    refused = admin(web, "delete-table", live["id"])
    assert refused.exit_code == 2 and "is live (playing)" in refused.stderr and "--force" in refused.stderr
    assert c.get(f"/api/tables/{live['id']}").status_code == 200
    kept = web.create(seats=[HUMAN, EASY])
    room = web.hall.rooms[live["id"]]
    done = admin(web, "delete-table", live["id"], "--force")
    assert done.exit_code == 0 and done.stdout.startswith(f"millebornes: deleted table {live['id']} (playing)")
    for table in ("tables", "seats", "actions", "notes"):
        column = "id" if table == "tables" else "table_id"
        assert rows(web.url, f"SELECT count(*) FROM {table} WHERE {column} = :t", t=live["id"])[0][0] == 0, table
    # the process that holds the room closes it at its next sweep; then the table is nowhere
    assert web.client.portal.call(web.hall.sweeper.forget_deleted) == [live["id"]]
    assert room.closed and live["id"] not in web.hall.rooms and kept["id"] in web.hall.rooms
    assert c.get(f"/api/tables/{live['id']}").status_code == 404
    assert c.get(f"/api/tables/{kept['id']}").status_code == 200
    c = web.start()  # and after a restart
    assert c.get(f"/api/tables/{live['id']}").status_code == 404 and live["id"] not in web.hall.rooms


def test_deleting_a_finished_rated_table_keeps_the_ratings_it_made(web):
    c = web.start()
    signed_up(c, "ann_1")
    table = web.create(seats=[HUMAN, EASY])
    (account,) = rows(web.url, "SELECT id FROM accounts WHERE username = 'ann_1'")[0]
    at = now()
    rows(
        web.url,
        "UPDATE tables SET status = 'finished', rated = :r, finished = :f WHERE id = :t",
        r=True,
        f=at,
        t=table["id"],
    )
    rows(
        web.url,
        "INSERT INTO ratings (account_id, family, mu, sigma, matches, updated) VALUES (:a, 'classic', 27, 7, 1, :u)",
        a=account,
        u=at,
    )
    rows(
        web.url,
        "INSERT INTO rating_changes (table_id, account_id, family, before, after, mu, sigma, at) "
        "VALUES (:t, :a, 'classic', 1500, 1540, 27, 7, :u)",
        t=table["id"],
        a=account,
        u=at,
    )
    done = admin(web, "delete-table", table["id"])  # finished: no --force needed
    assert done.exit_code == 0, done.output
    assert "1 rating_changes" in done.stdout and "ratings keep what the match did" in done.stdout
    assert rows(web.url, "SELECT count(*) FROM rating_changes")[0][0] == 0
    assert rows(web.url, "SELECT mu, matches FROM ratings")[0] == (27, 1)
    assert admin(web, "delete-table", table["id"]).exit_code == 2


def test_signups_newest_first_by_address_bounded_and_as_json(web):
    from fastapi.testclient import TestClient

    web.start()

    names = ["ann_1", "bob_2", "cy_33", "dee_4", "old_5"]
    for name in names:
        signed_up(web.stack.enter_context(TestClient(web.app)), name)
    eve = web.stack.enter_context(TestClient(web.app))
    made_bot(eve, signed_up(eve, "eve_6"), "robo")
    t = now()
    places = {"ann_1": ("203.0.113.7", 50), "bob_2": ("203.0.113.7", 40), "cy_33": ("198.51.100.2", 30)}
    places |= {"dee_4": ("203.0.113.7", 20), "old_5": ("203.0.113.7", 60 * 30), "eve_6": (None, 10)}
    for name, (address, minutes) in places.items():
        rows(
            web.url,
            "UPDATE accounts SET signup_address = :a, created = :c WHERE username = :n",
            a=address,
            c=t - timedelta(minutes=minutes),
            n=name,
        )
    listed = admin(web, "signups")
    assert listed.exit_code == 0, listed.output
    lines = listed.stdout.splitlines()
    assert lines[0].split() == ["CREATED", "ADDRESS", "USERNAME", "DISABLED"]
    assert [line.split()[3] for line in lines[1:]] == ["eve_6", "dee_4", "cy_33", "bob_2", "ann_1"]  # no bot, no old
    assert "5 sign-ups in the last 24 hours" in listed.stderr
    grouped = json.loads(admin(web, "signups", "--by-address", "--json", "--since", "48").stdout)
    assert grouped["addresses"][0] == {
        "address": "203.0.113.7",
        "signups": 4,
        "newest": grouped["addresses"][0]["newest"],
        "usernames": ["dee_4", "bob_2", "ann_1", "old_5"],
    }
    assert [g["address"] for g in grouped["addresses"]] == ["203.0.113.7", None, "198.51.100.2"]
    text_groups = admin(web, "signups", "--by-address").stdout.splitlines()
    assert text_groups[1].split()[:2] == ["203.0.113.7", "3"]
    one = json.loads(admin(web, "signups", "--address", "198.51.100.2", "--json").stdout)["signups"]
    assert [(s["username"], s["address"]) for s in one] == [("cy_33", "198.51.100.2")]
    assert one[0]["created"].endswith("Z") and one[0]["disabled"] is None
    few = admin(web, "signups", "--limit", "2")
    assert len(few.stdout.splitlines()) == 3 and "--limit shows more" in few.stderr
    admin(web, "disable", "bob_2")
    marked = json.loads(admin(web, "signups", "--json").stdout)["signups"]
    assert [s["username"] for s in marked if s["disabled"]] == ["bob_2"]


def test_disable_and_revoke_on_postgresql(web, fresh_postgres, quick):
    """The same commands on PostgreSQL, the app beside them on the same database."""
    c = web.start(url=fresh_postgres())
    csrf = signed_up(c, "ann_pg")
    token, other = made_bot(c, csrf, "robo_pg"), made_bot(c, csrf, "robo_pg2")
    with bot_socket(c, token) as ws:
        hello(ws)
        assert admin(web, "revoke-bot", "robo_pg").exit_code == 0
        assert closed_with(ws)[1] == 4401
    with bot_socket(c, other) as ws:
        hello(ws)
        done = admin(web, "disable", "ann_pg")
        assert done.exit_code == 0 and "1 sign-in closed" in done.stdout
        assert closed_with(ws)[1] == 4403
    with bot_socket(c, other) as ws:
        assert closed_with(ws)[1] == 4403
    assert admin(web, "enable", "ann_pg").exit_code == 0
    with bot_socket(c, other) as ws:
        assert hello(ws)["name"] == "robo_pg2"
    assert admin(web, "disable", "nobody_pg").exit_code == 2
