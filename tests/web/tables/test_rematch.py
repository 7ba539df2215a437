"""The rematch (docs/web-api.md, "Rematch"): the seats of a finished table answer ``rematch``; the first answer
creates one new table with the same options and seats and a fresh seed; a yes gets that seat alone a link
to its seat of the new table, a no gives the seat to a bot; everyone at the finished table hears the
answers, which survive a restart; a joined seat of a waiting rematch may give the empty seats to bots."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections import Counter

import pytest

pytest.importorskip("fastapi")

import millebornes as mb  # noqa: E402
from millebornes import cards as C  # noqa: E402
from tests.conftest import Closed, SeatClient  # noqa: E402

# Dujardin, two players, one race to exactly 1000 (tests/browsing.py DUJARDIN_HEAD): Ann is dealt roll, 200,
# 200 and 100s and draws 100s; Bob only discards, so the match ends after Ann's ninth play.
HEAD = [
    "roll",
    "200",
    "200",
    "100",
    "100",
    "100",
    "25",
    "25",
    "50",
    "50",
    "roll",
    "75",
    "100",
    "25",
    "100",
    "50",
    "100",
    "25",
    "25",
    "50",
    "50",
    "25",
    "25",
    "50",
    "25",
    "75",
    "50",
    "75",
    "25",
    "75",
    "50",
    "25",
]
ANN = ["roll", "200", "200", "100", "100", "100", "100", "100", "100"]


def deck() -> list[str]:
    left = Counter(dict(zip(C.CARD_IDS, mb.ruleset("dujardin").deck_counts(2))))
    left.subtract(Counter(HEAD))
    return HEAD + [c for c in C.CARD_IDS for _ in range(left[c])]


def finished(web, **body):
    """A finished dujardin match between Ann (seat 0) and Bob (seat 1); returns the table and both sockets."""
    table = web.create(ruleset="dujardin", players=2, seats=[{"kind": "human"}] * 2, deck=deck(), **body)
    ann, bob = web.join(table, 0, "Ann"), web.join(table, 1, "Bob")
    ann.expect("state")  # Bob's arrival started the table
    plays = iter(ANN)
    while not (ann.obs["is_over"] and ann.state["status"] == "finished"):
        mover = ann if ann.obs["to_act"] == 0 else bob
        action = (
            f"play {next(plays)}"
            if mover is ann
            else next(a for a in bob.obs["legal_actions"] if a.startswith("discard"))
        )
        seq = ann.state["seq"]
        mover.act(action)
        ann.state_after(seq)
        bob.state_after(seq)
    return table, ann, bob


def rematch_frame(c: SeatClient) -> dict:
    return c.expect("rematch")


def join_url(web, url: str, nickname: str = "Ann") -> SeatClient:
    """Take the seat a rematch-seat link opens."""
    table_id, frag = url.removeprefix("/t/").split("#")
    params = dict(p.split("=") for p in frag.split("&"))
    c = web.connect(table_id)
    c.seat = int(params["seat"])
    c.send({"type": "join", "seat": c.seat, "token": params["token"], "nickname": nickname})
    assert c.expect("welcome")["seat"] == c.seat
    c.expect("state")
    return c


def refused(c: SeatClient, frame: dict) -> str:
    c.send(frame)
    return c.expect("error")["code"]


def test_both_accept_one_new_table_each_its_own_seat(web):
    web.start()
    table, ann, bob = finished(web, cf_timeout=7, spectators=False)
    ann.send({"type": "rematch", "answer": True})
    link = ann.expect("rematch-seat")
    told = [rematch_frame(c) for c in (ann, bob)]
    new_id = told[0]["table"]
    assert (
        told[0]
        == told[1]
        == {"type": "rematch", "table": new_id, "seats": [{"seat": 0, "answer": "yes"}, {"seat": 1, "answer": None}]}
    )
    assert link["url"].startswith(f"/t/{new_id}#seat=0&token=")
    bob.send({"type": "rematch", "answer": True})
    bob_link = bob.expect("rematch-seat")
    assert bob_link["url"].startswith(f"/t/{new_id}#seat=1&token=")  # the same table: created once
    for c in (ann, bob):
        assert rematch_frame(c)["seats"] == [{"seat": 0, "answer": "yes"}, {"seat": 1, "answer": "yes"}]
    # no broadcast frame holds a token: only the seat's own socket got its link
    tokens = [u.split("token=")[1] for u in (link["url"], bob_link["url"])]
    for c in (ann, bob):
        told = [text for text in c.texts if json.loads(text)["type"] == "rematch"]
        assert len(told) == 2 and not any("token" in text or any(t in text for t in tokens) for text in told)
    assert not any(tokens[1] in text for text in ann.texts) and not any(tokens[0] in text for text in bob.texts)
    # each link opens its own seat only
    ann_token = link["url"].split("token=")[1]
    wrong = web.connect(new_id)
    wrong.send({"type": "join", "seat": 1, "token": ann_token, "nickname": "Ann"})
    assert wrong.expect("error")["code"] == "auth"
    with pytest.raises(Closed):
        wrong.recv()
    ann2 = join_url(web, link["url"], "Ann")
    assert ann2.state["status"] == "waiting"
    bob2 = join_url(web, bob_link["url"], "Bob")
    assert bob2.state["status"] == "playing"
    assert ann2.expect("state")["status"] == "playing"  # the game starts
    facts = web.client.get(f"/api/tables/{new_id}").json()
    old = web.client.get(f"/api/tables/{table['id']}").json()
    assert (facts["ruleset"], facts["players"], facts["cf_timeout"], facts["spectators"], facts["rematch_of"]) == (
        "dujardin",
        2,
        7,
        False,
        table["id"],
    )
    assert old["rematch"] == new_id and old["status"] == "finished"
    store = web.app.state.tables
    assert store.get(new_id).seed != store.get(table["id"]).seed
    assert store.get(new_id).deck is None  # a new deal, not the stacked deck again
    assert ann2.obs["hand_results"] == [] and ann2.obs["match_scores"] == [0, 0]


def test_decline_gives_the_seat_to_a_bot_and_the_game_starts(web):
    web.start(bot_delay=0.0)
    table, ann, bob = finished(web)
    bob.send({"type": "rematch", "answer": False})
    for c in (ann, bob):
        frame = rematch_frame(c)
        assert frame["seats"] == [{"seat": 0, "answer": None}, {"seat": 1, "answer": "no"}]
    assert not any(f["type"] == "rematch-seat" for f in bob.frames)
    new_id = frame["table"]
    facts = web.client.get(f"/api/tables/{new_id}").json()
    assert [(s["kind"], s["level"]) for s in facts["seats"]] == [("human", None), ("bot", "medium")]
    assert facts["status"] == "waiting"
    ann.send({"type": "rematch", "answer": True})
    link = ann.expect("rematch-seat")
    ann2 = join_url(web, link["url"])
    assert ann2.state["status"] == "playing"
    # the bot plays its seat: after Ann's first move, seat 1 moves by itself
    assert ann2.obs["to_act"] == 0
    ann2.act(next(a for a in ann2.obs["legal_actions"] if a.startswith("discard")))
    while not any(e.get("seat") == 1 and e["type"] == "action" for e in ann2.state["events"]):
        ann2.expect("state")


def test_a_joined_seat_gives_the_empty_seats_to_bots(web):
    web.start()
    table, ann, bob = finished(web)
    ann.send({"type": "rematch", "answer": True})
    link = ann.expect("rematch-seat")
    assert rematch_frame(bob)["seats"][1] == {"seat": 1, "answer": None}
    ann2 = join_url(web, link["url"])
    assert ann2.state["status"] == "waiting"
    ann2.send({"type": "fill-bots"})
    frame = ann2.expect("state")
    assert frame["status"] == "playing" and [s["kind"] for s in frame["seats"]] == ["human", "bot"]
    # Bob, still at the finished table, hears his seat was given away
    assert rematch_frame(bob)["seats"][1] == {"seat": 1, "answer": "no"}
    # a second fill-bots: the table no longer waits
    assert refused(ann2, {"type": "fill-bots"}) == "not-waiting"


def test_fill_bots_is_for_a_rematch_only(web):
    web.start()
    table = web.create(seats=[{"kind": "human"}] * 2)
    ann = web.join(table, 0)
    assert refused(ann, {"type": "fill-bots"}) == "not-rematch"
    assert web.client.get(f"/api/tables/{table['id']}").json()["seats"][1]["kind"] == "human"


def test_a_rematch_is_refused_before_the_end_and_to_spectators(web):
    web.start()
    table = web.create(seats=[{"kind": "human"}] * 2)
    ann, _bob = web.join(table, 0), web.join(table, 1, "Bob")
    assert refused(ann, {"type": "rematch", "answer": True}) == "not-finished"
    assert web.app.state.tables.get(table["id"]).rematch is None
    assert web.client.get(f"/api/tables/{table['id']}").json()["rematch"] is None
    watcher = web.connect(table["id"])
    watcher.send({"type": "watch"})
    watcher.expect("state")
    assert refused(watcher, {"type": "rematch", "answer": True}) == "spectator"
    assert refused(watcher, {"type": "fill-bots"}) == "spectator"
    assert refused(ann, {"type": "rematch", "answer": "yes"}) == "malformed"
    assert refused(ann, {"type": "rematch", "answer": True, "seat": 1}) == "malformed"
    assert web.app.state.tables.get(table["id"]).rematch is None


def test_a_spectator_of_a_finished_match_is_refused(web):
    web.start()
    table = web.create(ruleset="dujardin", players=2, seats=[{"kind": "human"}] * 2, deck=deck())
    watcher = web.connect(table["id"])
    watcher.send({"type": "watch"})
    watcher.expect("state")
    ann, bob = web.join(table, 0, "Ann"), web.join(table, 1, "Bob")
    plays = iter(ANN)
    while not (ann.obs["is_over"] and ann.state["status"] == "finished"):
        mover = ann if ann.obs["to_act"] == 0 else bob
        seq = ann.state["seq"]
        mover.act(
            f"play {next(plays)}"
            if mover is ann
            else next(a for a in bob.obs["legal_actions"] if a.startswith("discard"))
        )
        ann.state_after(seq)
        bob.state_after(seq)
    assert refused(watcher, {"type": "rematch", "answer": True}) == "spectator"
    assert web.app.state.tables.get(table["id"]).rematch is None


def test_answers_at_the_same_moment_make_one_table(web):
    web.start()
    table, ann, bob = finished(web)
    store = web.app.state.tables
    made = []

    def create():
        made.append(store.create_rematch(table["id"], 12345))

    threads = [threading.Thread(target=create) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(made)) == 1 and store.get(table["id"]).rematch == made[0]
    count = (
        sqlite3.connect(web.url.removeprefix("sqlite:///"))
        .execute("SELECT count(*) FROM tables WHERE rematch_of = ?", (table["id"],))
        .fetchone()[0]
    )
    assert count == 1


def test_the_rematch_state_survives_a_restart(web):
    web.start()
    table, ann, bob = finished(web)
    ann.send({"type": "rematch", "answer": True})
    link = ann.expect("rematch-seat")
    rematch_frame(ann)
    bob.send({"type": "rematch", "answer": False})
    state = rematch_frame(ann)
    web.stop()
    web.start()
    again = web.join(table, 1, None)
    welcome = next(f for f in again.frames if f["type"] == "welcome")
    assert welcome["rematch"] == {k: v for k, v in state.items() if k != "type"}
    assert welcome["rematch"]["seats"] == [{"seat": 0, "answer": "yes"}, {"seat": 1, "answer": "no"}]
    assert "token" not in json.dumps(welcome["rematch"])
    # the issued link still opens its seat after the restart
    ann2 = join_url(web, link["url"])
    assert ann2.state["status"] == "playing"


def test_accepting_again_replaces_the_token(web):
    web.start()
    table, ann, bob = finished(web)
    ann.send({"type": "rematch", "answer": True})
    first = ann.expect("rematch-seat")["url"]
    ann.send({"type": "rematch", "answer": True})
    second = ann.expect("rematch-seat")["url"]
    assert first != second
    new_id = second.removeprefix("/t/").split("#")[0]
    stale = web.connect(new_id)
    stale.send({"type": "join", "seat": 0, "token": first.split("token=")[1], "nickname": "Ann"})
    assert stale.expect("error")["code"] == "auth"
    join_url(web, second)


def test_a_yes_is_refused_once_the_rematch_seat_is_joined(web):
    """Whoever holds a finished table's seat link cannot take that seat of the rematch from its player: once
    the seat is joined a yes is refused (``joined``), no link is issued, and the player's token still opens it."""
    web.start()
    table, ann, bob = finished(web)
    ann.send({"type": "rematch", "answer": True})
    link = ann.expect("rematch-seat")
    new_id = link["table"]
    ann2 = join_url(web, link["url"])
    store = web.app.state.tables
    before = store.token_hash(new_id, 0)
    other = web.join(table, 0, None)  # the finished table's seat link, opened elsewhere
    assert refused(other, {"type": "rematch", "answer": True}) == "joined"
    assert not any(f["type"] == "rematch-seat" for f in other.frames)
    assert store.token_hash(new_id, 0) == before
    assert web.hall.rooms[new_id].table.seats[0].token_hash == before
    ann2.send({"type": "ping"})
    assert ann2.expect("pong")
    assert refused(other, {"type": "rematch", "answer": False}) == "joined"
    assert store.get(new_id).seats[0].kind == "human"


def test_a_yes_is_refused_once_the_rematch_has_started(web):
    """A seat given to a bot when the rematch started is not taken back by a late yes (``started``), and a
    seat whose player sits there is not reissued either, on the database's word as well as the room's."""
    web.start()
    table, ann, bob = finished(web)
    ann.send({"type": "rematch", "answer": True})
    link = ann.expect("rematch-seat")
    bob.send({"type": "rematch", "answer": True})
    bob.expect("rematch-seat")
    new_id = link["table"]
    ann2 = join_url(web, link["url"])
    ann2.send({"type": "fill-bots"})  # Bob's seat, unjoined, goes to a bot: the rematch starts
    assert ann2.expect("state")["status"] == "playing"
    assert refused(bob, {"type": "rematch", "answer": True}) == "started"
    store = web.app.state.tables
    saved = store.get(new_id)
    assert [s.kind for s in saved.seats] == ["human", "bot"] and saved.seats[1].token_hash is None
    # the store refuses on its own too (another server process whose copy of the room is behind)
    assert store.issue_token(new_id, 0, "0" * 64) is False
    assert store.issue_token(new_id, 1, "0" * 64) is False
    assert store.token_hash(new_id, 0) == web.hall.rooms[new_id].table.seats[0].token_hash != "0" * 64


def test_the_rematch_link_is_replaced_on_its_first_join(web):
    """The rematch-seat link went to one socket, yet a second yes (another tab) could have drawn one too: once
    the seat is taken its link opens nothing, and the welcome's token opens it from then on."""
    web.start()
    table, ann, bob = finished(web)
    ann.send({"type": "rematch", "answer": True})
    link = ann.expect("rematch-seat")
    new_id, given = link["table"], link["url"].split("token=")[1]
    c = web.connect(new_id)
    c.send({"type": "join", "seat": 0, "token": given, "nickname": "Ann"})
    welcome = c.expect("welcome")
    assert welcome["token"] != given
    assert refused(web.connect(new_id), {"type": "join", "seat": 0, "token": given, "nickname": "Ann"}) == "auth"
    again = web.connect(new_id)
    again.send({"type": "join", "seat": 0, "token": welcome["token"]})
    assert again.expect("welcome")["seat"] == 0
