"""What leaves the server: whole games through the table socket, every frame each client got checked
against the engine.  A seat sees its own hand and the public table, nothing of another hand, the
stock order or the seed; and two deals that differ only in cards seat 0 never sees look the same
to seat 0, frame for frame."""

from __future__ import annotations

import random
import re

import pytest

pytest.importorskip("fastapi")

from millebornes.web.room import game_of, public_events  # noqa: E402
from util import stacked_deck  # noqa: E402

HUMAN = {"kind": "human"}
SECRET_KEY = re.compile(r'"(seed|deck|hands|token|token_hash|record)"\s*:|"stock"\s*:\s*\[')
HAND_KEY = re.compile(r'"hand"\s*:\s*\[')


def check_frames(web, table_id: str, clients) -> int:
    """Replay the stored match action by action; every frame of every client must be what its seat may
    see at that moment: the engine's observation for that seat, the public events, no secret key in
    the text that was sent, and a hand (a list) only as the observation's own."""
    saved = web.app.state.store.get(table_id, actions=True)
    game = game_of(saved)
    states = {}
    for c in clients:
        assert len(c.texts) == len(c.frames)
        for text, frame in zip(c.texts, c.frames):
            assert not SECRET_KEY.search(text), (c.seat, text)
            assert len(HAND_KEY.findall(text)) == (frame["type"] == "state"), (c.seat, text)
            if frame["type"] == "state":
                states.setdefault(frame["seq"], []).append((c.seat, frame))
    checked = 0
    events: list[dict] = []
    for n in range(len(saved.actions) + 1):
        if n:
            seat, action = saved.actions[n - 1]
            events = public_events(seat, action, game.act(action, seat))
        for seat, frame in states.get(n, ()):
            obs = frame["observation"]
            assert obs["hand"] == game.hand(seat)
            assert obs == game.observation(seat)
            assert frame["events"] in ([], events)
            checked += 1
    return checked


@pytest.mark.parametrize("ruleset, seats, teams, seed", [
    ("classic", [HUMAN, HUMAN], None, 31),
    ("classic", [HUMAN, HUMAN, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "medium"}], True, 32),
    ("family", [HUMAN, {"kind": "bot", "level": "medium"}, HUMAN], None, 33),
])
def test_each_seat_sees_only_its_own_hand(web, ruleset, seats, teams, seed):
    web.start()
    table = web.create(ruleset=ruleset, seats=seats, teams=teams, seed=seed)
    clients = [web.join(table, s, f"P{s}") for s, spec in enumerate(seats) if spec["kind"] == "human"]
    web.play_random(clients, random.Random(seed))
    assert all(c.obs["is_over"] for c in clients)
    assert web.app.state.store.get(table["id"]).status == "finished"
    checked = check_frames(web, table["id"], clients)
    assert checked >= sum(1 for c in clients for f in c.frames if f["type"] == "state")


def twin_decks() -> tuple[list[str], list[str], set[str]]:
    """Two classic 2-player decks: seat 1 holds three 200s where the twin holds three Stops, and the
    three Stops near the stock's bottom are 200s in the twin.  Seat 0 never sees either difference."""
    hand0 = ["roll", "100", "75", "stop", "flat-tire", "repairs"]
    a = stacked_deck("classic", 2, hands={0: hand0, 1: ["accident", "roll", "50", "200", "200", "200"]})
    b = a[:9] + ["stop"] * 3 + a[12:]
    stops = [i for i, c in enumerate(b) if c == "stop" and i >= 12]
    for i in stops:
        b[i] = "200"
    assert min(stops) > 12 + 60
    return a, b, {"200", "stop"}


def test_hidden_cards_do_not_change_what_seat_0_sees(web):
    deck_a, deck_b, differ = twin_decks()
    assert deck_a[:6] == deck_b[:6] and deck_a[6:12] != deck_b[6:12] and deck_a[12:72] == deck_b[12:72]
    assert sorted(deck_a) == sorted(deck_b) and deck_a != deck_b
    web.start()
    seen, other = [], []
    for deck in (deck_a, deck_b):
        table = web.create(seats=[HUMAN, HUMAN], deck=deck, seed=9, cf_timeout=60)
        a, b = web.join(table, 0, "Ann"), web.join(table, 1, "Bob")
        rng = random.Random(5)
        for _ in range(40):
            seq = max(a.state["seq"], b.state["seq"])
            for c in (a, b):
                if c.state["seq"] < seq:
                    c.state_after(c.state["seq"])
            to_act = a.obs["to_act"]
            if to_act == 0:
                a.act(rng.choice(a.obs["legal_actions"]))
            else:
                b.act(next(x for x in b.obs["legal_actions"] if not set(x.split()) & differ))
            a.state_after(seq)
            b.state_after(seq)
        assert a.obs["hand_number"] == 0 and a.obs["stock_size"] > 89 - 60
        seen.append([normalize(f) for f in a.frames])
        other.append([normalize(f) for f in b.frames])
    assert len(seen[0]) > 40 and seen[0] == seen[1]
    assert other[0] != other[1]  # seat 1 did hold different cards


def normalize(frame: dict) -> dict:
    """A frame without what differs between any two tables: the id, the creation time, the clock."""
    frame = dict(frame)
    if "table" in frame:
        frame["table"] = {k: v for k, v in frame["table"].items() if k not in ("id", "created")}
    if frame.get("cf_deadline") is not None:
        frame["cf_deadline"] = "running"
    return frame
