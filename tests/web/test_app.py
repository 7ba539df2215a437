"""The web server through FastAPI's TestClient: creating tables, the table socket, bots, countdowns,
the guard rails on client frames, hints, history and replays (docs/web.md)."""

from __future__ import annotations

import random
import shutil
import sqlite3
import time

import pytest

pytest.importorskip("fastapi")

import millebornes as mb  # noqa: E402
from millebornes.reasons import CODES  # noqa: E402
from millebornes.web.settings import Limits  # noqa: E402
from tests.conftest import Closed, token_of  # noqa: E402
from tests.util import stacked_deck  # noqa: E402

HUMAN, MEDIUM = {"kind": "human"}, {"kind": "bot", "level": "medium"}
# Seat 0: a Roll, 700 miles (with the first card drawn) and Extra Tank; seat 1: Out of Gas and fillers.
CF_DECK = stacked_deck(
    "classic", 2, hands={0: ["roll", "200", "200", "100", "100", "extra-tank"], 1: ["out-of-gas"]}, stock=["100"]
)


def test_pages_and_reference_data(web):
    c = web.start()
    assert c.get("/healthz").json() == {"ok": True, "rooms": 0}
    cards = c.get("/api/cards").json()["cards"]
    assert len(cards) == 19 and cards[8] == {
        "id": "flat-tire",
        "group": "hazard",
        "en": "Flat Tire",
        "fr": "Crevaison",
        "value": 0,
    }
    eds = {e["name"]: e for e in c.get("/api/editions").json()["editions"]}
    assert set(eds) == set(mb.RULESETS)
    assert eds["classic"]["players"] == [2, 3, 4, 6] and eds["classic"]["teams"]["4"] is True
    assert eds["dujardin"]["team_players"] == [4, 6, 8] and eds["dujardin"]["teams"]["4"] is False
    assert all(e["summary"]["en"] and e["summary"]["fr"] for e in eds.values())
    assert c.get("/api/tables/nope").status_code == 404
    assert c.get("/api/tables/nope/replay").status_code == 404


def test_the_page_gets_its_catalog(web):
    """The pages' words come from the server's catalog: the language asked for, English for any other."""
    c = web.start()
    fr = c.get("/api/catalog/fr")
    assert fr.status_code == 200 and "max-age" in fr.headers["cache-control"]
    body = fr.json()
    assert body["lang"] == "fr" and body["messages"]["card.flat-tire"] == "Crevaison"
    assert body["plurals"]["table.cards_in_hand"] == ["{n}\u00a0carte", "{n}\u00a0cartes"]
    en = c.get("/api/catalog/xx-YY").json()
    assert en["lang"] == "en" and en["messages"]["card.flat-tire"] == "Flat Tire"
    assert set(en["messages"]) == set(body["messages"]) and set(en["plurals"]) == set(body["plurals"])


@pytest.mark.parametrize(
    "body, field",
    [
        ({"ruleset": "monopoly"}, "ruleset"),
        ({"players": 5, "seats": [HUMAN] * 5}, "players"),
        ({"players": 2, "teams": True}, "players"),
        ({"options": {"stacking": True}}, "options"),
        ({"options": {"target": 1001}}, "options"),
        ({"seats": [HUMAN]}, "seats"),
        ({"seats": [MEDIUM, MEDIUM]}, "seats"),
        ({"seats": [HUMAN, {"kind": "bot", "level": "godlike"}]}, "seats"),
        ({"seats": [HUMAN, {"kind": "alien"}]}, "seats"),
        ({"players": "two"}, "players"),
        ({"cf_timeout": 0}, "cf_timeout"),
        ({"cf_timeout": 10_000}, "cf_timeout"),
        ({"deck": ["25"] * 101}, "deck"),
        ({"seed": -1}, "seed"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_create_table_is_validated(web, body, field):
    c = web.start()
    full = {"ruleset": "classic", "players": 2, "seats": [HUMAN, HUMAN], **body}
    r = c.post("/api/tables", json=full)
    assert r.status_code == 422, r.text
    assert r.json()["field"] == field and r.json()["detail"].startswith(field)


BIG = "x" * 60_000


@pytest.mark.parametrize(
    "body,path",
    [
        ({"ruleset": BIG}, None),
        ({"options": {BIG: 1}}, None),
        ({"deck": [BIG]}, None),
        ({BIG: 1}, None),
        ({"seats": [HUMAN, {"kind": "bot", "level": BIG}]}, None),
        ({"standin": BIG}, None),
        (None, f"/api/tables/{BIG[:8000]}"),
        (None, f"/api/tables/{BIG[:8000]}/replay"),
        (None, f"/api/tables/{BIG[:8000]}/review"),
    ],
)
def test_a_refusal_quotes_a_huge_value_briefly(web, body, path):
    """A refused value is named, not sent back whole: the answer stays small whatever came in."""
    c = web.start()
    r = (
        c.post("/api/tables", json={"ruleset": "classic", "players": 2, "seats": [HUMAN, HUMAN], **body})
        if body is not None
        else c.get(path)
    )
    assert r.status_code in (404, 409, 422) and len(r.content) < 600, (r.status_code, len(r.content))
    assert "xxxx" in r.text or r.json()["field"] in ("seats", "standin")  # recognisable, or not repeated at all


def test_deck_and_seed_need_test_mode(web):
    c = web.start(test_mode=False)
    for extra in ({"deck": CF_DECK}, {"seed": 3}):
        r = c.post("/api/tables", json={"ruleset": "classic", "players": 2, "seats": [HUMAN, HUMAN], **extra})
        assert r.status_code == 422 and "test-mode" in r.json()["detail"]
    r = c.post("/api/tables", json={"ruleset": "classic", "players": 2, "seats": [HUMAN, MEDIUM]})
    assert r.status_code == 201
    seats = r.json()["seats"]
    assert seats[0]["url"].startswith(f"/t/{r.json()['id']}#seat=0&token=") and seats[1] == {
        "seat": 1,
        "kind": "bot",
        "level": "medium",
    }
    facts = c.get(f"/api/tables/{r.json()['id']}").json()
    assert facts["status"] == "waiting" and "seed" not in facts and "deck" not in facts
    stored = web.app.state.tables.get(r.json()["id"])
    assert stored.seats[0].token_hash != token_of(r.json(), 0) and len(stored.seats[0].token_hash) == 64


def test_join_needs_the_right_token(web):
    web.start()
    table = web.create(seats=[HUMAN, HUMAN])
    for frame in (
        {"type": "join", "seat": 0, "token": token_of(table, 1), "nickname": "Eve"},
        {"type": "join", "seat": 5, "token": token_of(table, 0), "nickname": "Eve"},
        {"type": "ping"},
    ):
        c = web.connect(table["id"])
        c.send(frame)
        assert c.recv()["code"] == "auth"
        with pytest.raises(Closed) as closed:
            c.recv()
        assert closed.value.code == 4401
    c = web.connect("no-such-table")
    c.send({"type": "join", "seat": 0, "token": token_of(table, 0), "nickname": "Eve"})
    assert c.recv()["code"] == "auth"
    c = web.connect(table["id"])
    c.send({"type": "join", "seat": 0, "token": token_of(table, 0)})
    assert c.recv()["code"] == "malformed"  # the first join needs a nickname; the socket stays open
    c.send({"type": "join", "seat": 0, "token": token_of(table, 0), "nickname": " \u202eAnn "})
    assert c.recv()["code"] == "malformed"
    c.send({"type": "join", "seat": 0, "token": token_of(table, 0), "nickname": "  <b>Ann</b> "})
    welcome = c.expect("welcome")
    assert welcome["table"]["seats"][0]["nickname"] == "<b>Ann</b>"


def test_join_in_time(web):
    web.start(limits=Limits(join_seconds=0.2))
    table = web.create(seats=[HUMAN, HUMAN])
    c = web.connect(table["id"])
    assert c.recv()["code"] == "auth"
    with pytest.raises(Closed) as closed:
        c.recv()
    assert closed.value.code == 4401


def both(a, b) -> tuple[dict, dict]:
    """The next state each seat gets (they must agree on its number)."""
    sa, sb = a.state_after(a.state["seq"]), b.state_after(b.state["seq"])
    assert sa["seq"] == sb["seq"] and sa["events"] == sb["events"]
    return sa, sb


def test_a_hand_between_two_people(web):
    web.start()
    table = web.create(seats=[HUMAN, HUMAN], deck=CF_DECK, seed=4, cf_timeout=10)
    tid = table["id"]
    a = web.join(table, 0, "Ann")
    assert a.state["status"] == "waiting"
    a.act("play roll")
    assert a.expect("error")["code"] == "waiting"
    b = web.join(table, 1, "Bob")
    assert a.expect("state")["status"] == "playing" and b.state["status"] == "playing"
    assert a.expect("seats")["seats"][1]["nickname"] == "Bob"
    assert a.obs["hand"] == ["100", "100", "100", "200", "200", "roll", "extra-tank"]
    assert b.obs["hand"] == ["out-of-gas"] + ["end-of-limit"] * 5 and b.obs["legal_actions"] == []

    room = web.hall.rooms[tid]
    before = a.obs
    a.act("play 200")
    err = a.expect("error")
    assert err["code"] == "illegal" and err["action"] == "play 200" and "Roll" in err["message"]
    # the refusal is structured, for the page to say it in its own words (reason.needs_roll)
    assert err["reason"] == "needs_roll" and err["params"] == {"card": "200", "top": None, "need": "roll"}
    b.act("discard end-of-limit")
    assert b.expect("error")["code"] == "not-your-turn"
    assert room.game.observation(0) == before and web.app.state.tables.action_count(tid) == 0

    a.act("play roll")
    sa, _ = both(a, b)
    assert sa["seq"] == 1 and sa["events"][0] == {"type": "action", "seat": 0, "action": "play roll"}
    b.act("play out-of-gas 0")
    sa, sb = both(a, b)
    # the window: everyone waits, nobody is to act, only the holder has the buttons
    for frame in (sa, sb):
        assert frame["observation"]["decision"] == "coup-fourre" and frame["observation"]["to_act"] is None
        assert 9 < frame["cf_deadline"] <= 10 and frame["observation"]["known_cards"] == [[], []]
        assert frame["observation"]["pending_attack"] == {"attacker": 1, "hazard": "out-of-gas", "side": 0}
    assert sa["observation"]["legal_actions"] == ["coup-fourre", "pass"] and sb["observation"]["legal_actions"] == []
    b.act("discard end-of-limit")
    assert b.expect("error")["code"] == "not-your-turn"
    a.act("coup-fourre", seq=1)
    assert a.expect("error")["code"] == "stale"
    a.act("coup-fourre")
    sa, _ = both(a, b)
    cf = next(e for e in sa["events"] if e["type"] == "coup-fourre")
    assert cf == {
        "type": "coup-fourre",
        "seat": 0,
        "card": "extra-tank",
        "side": 0,
        "hazard": "out-of-gas",
        "attacker": 1,
    }
    assert sa["cf_deadline"] is None and sa["observation"]["tableaux"][0]["coups_fourres"] == ["extra-tank"]

    for card in ("200", "200", "100", "100", "100"):
        if a.obs["decision"] == "draw":
            a.act("draw")
            both(a, b)
        a.act(f"play {card}")
        sa, _ = both(a, b)
        if a.obs["decision"] == "extension":
            break
        if b.obs["decision"] == "draw":
            b.act("draw")
            both(a, b)
        b.act("discard " + next(c for c in b.obs["hand"] if c != "out-of-gas"))
        both(a, b)
    assert a.obs["decision"] == "extension" and a.obs["tableaux"][0]["distance"] == 700
    a.act("end-hand")
    sa, sb = both(a, b)
    kinds = [e["type"] for e in sa["events"]]
    assert kinds == ["action", "end-hand", "hand-over", "deal", "draw"]
    over = sa["events"][2]
    assert over["completed"] == 0 and over["points"][0] > over["points"][1]
    assert over["breakdown"][0]["coups_fourres"] == 300 and over["breakdown"][0]["trip"] == 400
    assert sa["observation"]["hand_number"] == 1 and sb["observation"]["match_scores"] == over["points"]
    # seq counts the steps shown: one more than the actions, for the window closed by the coup fourré
    assert web.app.state.tables.action_count(tid) == sa["seq"] - 1


def test_an_action_the_database_refuses_is_not_played(web, monkeypatch):
    web.start()
    table = web.create(seats=[HUMAN, HUMAN], deck=CF_DECK, seed=4)
    a, b = web.join(table, 0, "Ann"), web.join(table, 1, "Bob")
    a.expect("state")
    store = web.app.state.tables

    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(store, "append_action", broken)
    a.act("play roll")
    assert a.expect("error")["code"] == "server"
    b.send({"type": "ping"})
    assert b.expect("pong") and not [f for f in b.frames if f["type"] == "state" and f["seq"] > 0]
    assert web.hall.rooms[table["id"]].seq == 0
    monkeypatch.undo()
    a.act("play roll")
    assert both(a, b)[0]["seq"] == 1 and store.action_count(table["id"]) == 1


def test_a_reconnecting_browser_gets_its_seat_back(web):
    web.start()
    table = web.create(seats=[HUMAN, HUMAN], deck=CF_DECK, seed=4)
    a, b = web.join(table, 0, "Ann"), web.join(table, 1, "Bob")
    a.expect("state")
    a.act("play roll")
    both(a, b)
    a.ws.close()
    assert b.expect("seats")["seats"][0]["connected"] is False
    again = web.join(table, 0, nickname=None)
    assert again.obs == a.obs and again.frames[0]["table"]["seats"][0]["nickname"] == "Ann"
    assert [e["type"] for e in again.frames[0]["log"]][:2] == ["action", "play"]
    assert b.expect("seats")["seats"][0]["connected"] is True


def test_a_person_against_a_bot(web):
    web.start()
    table = web.create(seats=[HUMAN, MEDIUM], seed=21)
    a = web.join(table, 0, "Ann")
    assert a.state["status"] == "playing"
    rng = random.Random(1)
    web.play_random([a], rng, stop=lambda s: s["observation"]["hand_number"] > 0)
    assert len(a.obs["hand_results"]) == 1
    bot_moves = [f for f in a.frames if f["type"] == "state" and f["events"] and f["events"][0]["seat"] == 1]
    assert bot_moves


def test_bots_wait_for_every_player(web):
    web.start()
    table = web.create(players=3, seats=[MEDIUM, HUMAN, HUMAN], seed=6)
    a = web.join(table, 1, "Ann")
    time.sleep(0.3)
    assert a.state["status"] == "waiting" and a.obs["to_act"] == 0
    assert web.app.state.tables.action_count(table["id"]) == 0
    b = web.join(table, 2, "Bob")
    assert b.state["status"] == "playing"
    moved = b.state_after(0)
    assert moved["events"][0]["seat"] == 0 and a.state_after(0)["seq"] == moved["seq"]


def out_of_gas_on_ann(web, cf_timeout: float):
    """Ann rolls, Bob plays Out of Gas on her, and she holds Extra Tank: the window opens.
    (table, Ann, Bob, Ann's window frame, Bob's)."""
    web.start()
    table = web.create(seats=[HUMAN, HUMAN], deck=CF_DECK, seed=4, cf_timeout=cf_timeout)
    a, b = web.join(table, 0, "Ann"), web.join(table, 1, "Bob")
    a.expect("state")
    a.act("play roll")
    both(a, b)
    b.act("play out-of-gas 0")
    return (table, a, b, *both(a, b))


def test_coup_fourre_window_passes(web):
    """The holder who lets the window run out passes; nobody ever hears of the pass."""
    table, a, b, sa, _ = out_of_gas_on_ann(web, 0.3)
    assert sa["observation"]["decision"] == "coup-fourre" and 0 < sa["cf_deadline"] <= 0.3
    start = time.monotonic()
    sa, sb = both(a, b)
    assert 0.2 < time.monotonic() - start < 3
    assert not [e for e in sa["events"] + sb["events"] if e.get("action") == "pass"]
    assert sa["events"] == [{"type": "draw", "seat": 0, "stock": sa["observation"]["stock_size"]}]
    assert sa["observation"]["tableaux"][0]["battle"][-1] == "out-of-gas"
    assert sb["observation"]["known_cards"][0] == [] and sa["cf_deadline"] is None
    assert web.app.state.tables.action_count(table["id"]) == 3  # the pass is saved, not shown


def test_a_holder_who_passes_early_changes_nothing_anyone_sees(web):
    table, a, b, sa, sb = out_of_gas_on_ann(web, 1.0)
    a.act("pass")
    held = a.expect("state")  # only the holder hears that its buttons are gone, in the same step
    assert held["seq"] == sa["seq"] and held["observation"]["legal_actions"] == []
    b.send({"type": "ping"})
    assert b.expect("pong") and b.state is sb
    closed = b.state_after(sb["seq"])
    assert closed["seq"] == sb["seq"] + 1 and not [e for e in closed["events"] if e.get("action") == "pass"]


MALFORMED = [
    ("this is not json", "malformed"),
    ("[1, 2]", "malformed"),
    ({"type": "shout"}, "malformed"),
    ({"action": "draw"}, "malformed"),
    ({"type": "act"}, "malformed"),
    ({"type": "act", "action": "play 75"}, "malformed"),
    ({"type": "act", "action": 75, "seq": 0}, "malformed"),
    ({"type": "act", "action": "play 75", "seq": "0"}, "malformed"),
    ({"type": "act", "action": "play 75", "seq": 0, "as_seat": 1}, "malformed"),
    ({"type": "join", "seat": 1, "token": "x", "nickname": "Eve"}, "malformed"),
    (b'{"type": "ping"}', "malformed"),
    ({"type": "act", "action": "x" * 5000, "seq": 0}, "too-large"),
    ({"type": "act", "action": "fly to the moon", "seq": 1}, "illegal"),
    ({"type": "act", "action": "play 200", "seq": 1}, "illegal"),
]


def test_malformed_frames_change_nothing(web):
    web.start(limits=Limits())
    table = web.create(seats=[HUMAN, HUMAN], deck=CF_DECK, seed=4)
    a, b = web.join(table, 0, "Ann"), web.join(table, 1, "Bob")
    a.expect("state")
    a.act("play roll")
    both(a, b)
    room, store = web.hall.rooms[table["id"]], web.app.state.tables
    obs, count = room.game.observation(1), store.action_count(table["id"])
    for frame, code in MALFORMED:
        b.send(frame)
        err = b.expect("error")
        assert err["code"] == code, (frame, err)
    assert (room.game.observation(1), store.action_count(table["id"])) == (obs, count)
    time.sleep(1.05)
    for _ in range(30):
        b.send({"type": "ping"})
    answers = [b.recv() for _ in range(30)]
    assert sum(f["type"] == "pong" for f in answers) == 20
    assert sum(f.get("code") == "rate" for f in answers) == 10
    assert (room.game.observation(1), store.action_count(table["id"])) == (obs, count)
    assert b.obs == b.state["observation"] and b.state["seq"] == 1
    time.sleep(1.05)
    b.act(b.obs["legal_actions"][0])
    assert b.state_after(1)["seq"] == 2


def test_hint_lists_every_legal_action(web):
    web.start()
    table = web.create(seats=[HUMAN, HUMAN], seed=8)
    a, b = web.join(table, 0, "Ann"), web.join(table, 1, "Bob")
    a.expect("state")
    b.send({"type": "hint"})
    assert b.expect("error")["code"] == "not-your-turn"
    a.send({"type": "hint"})
    hint = a.expect("hint", timeout=30)
    assert hint["seq"] == a.state["seq"]
    assert sorted(h["action"] for h in hint["actions"]) == sorted(a.obs["legal_actions"])
    assert all(set(h) - {"reason"} == {"action", "win_chance", "match_chance", "visits"} for h in hint["actions"])
    assert all(0 <= h["match_chance"] <= 1 for h in hint["actions"])  # classic plays a match to 5,000
    first = hint["actions"][0]  # the search's choice says why, with the search's chance of it (reasons.py)
    assert first["reason"]["code"] in CODES and all("reason" not in h for h in hint["actions"][1:])
    said = first["reason"]["params"]
    assert said.get("match") == round(100 * first["match_chance"]) or said["chance"] == round(100 * first["win_chance"])


def test_history_and_replay_of_a_finished_table(web):
    web.start()
    table = web.create(ruleset="dujardin", seats=[HUMAN, MEDIUM], seed=5, public=True)
    unfinished = web.create(seats=[HUMAN, HUMAN])
    a = web.join(table, 0, "Ann")
    web.play_random([a], random.Random(2))
    assert a.obs["is_over"] and a.state["status"] == "finished"
    c = web.client
    tables = c.get("/api/history").json()["tables"]
    assert [t["id"] for t in tables] == [table["id"]]
    assert c.get("/api/history?limit=50").json()["tables"] == tables
    assert c.get("/api/history?limit=0").status_code == 422
    assert tables[0]["status"] == "finished" and tables[0]["winners"] == a.obs["winners"]
    assert tables[0]["scores"] == a.obs["match_scores"] and tables[0]["finished"]
    assert c.get(f"/api/tables/{unfinished['id']}/replay").status_code == 404

    total = web.app.state.tables.action_count(table["id"])
    states = [f for f in a.frames if f["type"] == "state"]
    first = c.get(f"/api/tables/{table['id']}/replay?step=0").json()
    assert first["total"] == total and first["action"] is None and first["events"] == []
    assert first["state"]["hands"][0] == states[0]["observation"]["hand"]
    steps = [c.get(f"/api/tables/{table['id']}/replay", params={"step": n}).json() for n in range(1, total + 1)]
    assert [(r["seat"], r["action"]) for r in steps] == [
        (e["seat"], e["action"]) for r in steps for e in r["events"][:1]
    ]
    # the replay shows every action, passes too; the live table showed the same events less the passes
    assert [e for r in steps for e in r["events"] if e.get("action") != "pass"] == [
        e for f in states for e in f["events"]
    ]
    assert steps[-1]["state"]["hands"][0] == states[-1]["observation"]["hand"]
    assert steps[-1]["state"]["tableaux"] == states[-1]["observation"]["tableaux"]
    assert c.get(f"/api/tables/{table['id']}/replay?step={total + 1}").status_code == 422
    a.act("draw")
    assert a.expect("error")["code"] == "finished"


def test_health_asks_the_database(web, tmp_path):
    home = tmp_path / "volume"
    home.mkdir()
    c = web.start(url=f"sqlite:///{home}/mb.db")
    web.create(seats=[HUMAN, MEDIUM])
    assert c.get("/healthz").json() == {"ok": True, "rooms": 1}
    shutil.rmtree(home)  # the database's volume is gone
    web.app.state.db.engine.dispose()
    r = c.get("/healthz")
    assert r.status_code == 503 and r.json() == {"ok": False}


def test_health_says_no_while_another_program_holds_the_file_write_locked(web, tmp_path):
    """Reads still work on a write-locked SQLite file, moves do not: health goes by whether a move could be saved."""
    c = web.start(url=f"sqlite:///{tmp_path}/locked.db")
    web.create(seats=[HUMAN, MEDIUM])
    other = sqlite3.connect(tmp_path / "locked.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        r = c.get("/healthz")
        assert r.status_code == 503 and r.json() == {"ok": False}
        assert c.get("/api/lobby").status_code == 200  # what only reads still answers
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert c.get("/healthz").json() == {"ok": True, "rooms": 1}
    web.create(seats=[HUMAN, MEDIUM])  # the ping's own lock was let go: the next save goes through
    assert c.get("/healthz").json() == {"ok": True, "rooms": 2}


def test_a_room_in_use_stays_in_memory(web):
    """Eviction skips a room with a socket or with its lock taken (an action being submitted)."""
    web.start(evict_idle=0.05)
    table = web.create(seats=[HUMAN, HUMAN])
    tid, hall = table["id"], web.hall
    a = web.join(table, 0, "Ann")
    room = hall.rooms[tid]
    time.sleep(0.1)
    assert hall.sweeper.evict() == [] and hall.rooms[tid] is room
    a.ws.close()
    deadline = time.monotonic() + 10
    while room.in_use:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    web.client.portal.call(room.lock.acquire)
    time.sleep(0.1)
    assert hall.sweeper.evict() == [] and hall.rooms[tid] is room
    room.lock.release()
    assert hall.sweeper.evict() == [tid] and room.closed and tid not in hall.rooms
    again = web.join(table, 0, nickname=None)
    assert hall.rooms[tid] is not room and again.obs == a.obs


def test_a_table_out_of_memory_reports_the_scores_its_seats_were_shown(web):
    """GET /api/tables/{id} of a table in play that no room holds (it left memory, or another process plays it)
    answers what the room answered: the match's scores so far, not the deal's."""
    web.start(evict_idle=0.05)
    table = web.create(seats=[HUMAN, HUMAN])
    tid, hall = table["id"], web.hall
    clients = [web.join(table, 0, "Ann"), web.join(table, 1, "Bob")]
    dealt: list[int] = []

    def into_the_next_hand(state: dict) -> bool:
        """A draw of the next hand made: a hand that ended behind a coup-fourré window is shown ended once the
        window closes, which no action saves; left there, the table out of memory would show the window again,
        as a room loading it does (the scores from before it), and rightly differ from what the room showed."""
        obs = state["observation"]
        if not any(obs["match_scores"]):
            return False
        dealt[:] = dealt or [obs["stock_size"]]
        return obs["stock_size"] < dealt[0]

    web.play_random(clients, random.Random(5), stop=into_the_next_hand)
    for c in clients:
        c.ws.close()
    room = hall.rooms[tid]
    deadline = time.monotonic() + 10
    while room.in_use:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    in_memory = web.client.get(f"/api/tables/{tid}").json()
    assert in_memory["status"] == "playing" and any(in_memory["scores"])
    time.sleep(0.1)
    assert hall.sweeper.evict() == [tid]
    assert web.client.get(f"/api/tables/{tid}").json() == in_memory
    assert tid not in hall.rooms  # answered from the store: a GET loads no room


def test_a_join_that_meets_a_dropped_room_loads_the_table_again(web):
    """A join waiting for the lock of a room the hall drops meanwhile takes its seat in the table
    loaded again, never in the dropped room."""
    web.start()
    table = web.create(seats=[HUMAN, HUMAN])
    tid = table["id"]
    old = web.hall.rooms[tid]
    c = web.connect(tid)
    c.ws.portal.call(old.lock.acquire)
    c.send({"type": "join", "seat": 0, "token": token_of(table, 0), "nickname": "Ann"})
    deadline = time.monotonic() + 10
    while not old.lock._waiters:  # the join is authenticated and waits for the room
        assert time.monotonic() < deadline
        time.sleep(0.02)
    del web.hall.rooms[tid]
    c.ws.portal.call(old.close)
    c.ws.portal.call(old.lock.release)
    assert c.expect("welcome")["table"]["seats"][0]["nickname"] == "Ann"
    new = web.hall.rooms[tid]
    assert new is not old and new.conns[0] and not old.conns[0]
    assert web.app.state.tables.get(tid).seats[0].joined


@pytest.mark.parametrize(
    "option, value",
    [
        ("--tables-per-minute", "0"),
        ("--tables-per-minute", "10001"),
        ("--expire-unjoined", "0"),
        ("--evict-idle", "-1"),
        ("--sweep-every", "nan"),
        ("--standby", "-1"),
        ("--standby", "601"),
        ("--standby", "nan"),
    ],
)
def test_serve_refuses_a_limit_out_of_range(option, value):
    from typer.testing import CliRunner

    from millebornes.cli import app

    result = CliRunner().invoke(app, ["serve", option, value], terminal_width=200)
    assert result.exit_code == 2 and f"Invalid value for {option}" in result.output, result.output
