"""What leaves the server: whole games through the table socket, every frame each client got checked
against the engine.  A seat sees its own hand and the public table, nothing of another hand, the
stock order or the seed; and two deals that differ only in cards seat 0 never sees look the same
to seat 0, frame for frame."""

from __future__ import annotations

import random
import re

import pytest

pytest.importorskip("fastapi")

from millebornes.cards import CARD_IDS, GROUP  # noqa: E402
from millebornes.cards import SAFETY_OF as SAFETY_KIND  # noqa: E402
from millebornes.web.tables.facts import dealt, public_events  # noqa: E402
from millebornes.web.tokens import hash_token  # noqa: E402
from tests.util import stacked_deck  # noqa: E402

HUMAN = {"kind": "human"}
SAFETY_OF = {CARD_IDS[h]: CARD_IDS[SAFETY_KIND[h]] for h in range(len(CARD_IDS)) if GROUP[h] == "hazard"}
SECRET_KEY = re.compile(r'"(seed|deck|hands|token|token_hash|record)"\s*:|"stock"\s*:\s*\[')
HAND_KEY = re.compile(r'"hand"\s*:\s*\[')


def shown_steps(saved) -> dict[int, tuple]:
    """What every step of a stored match must show, from its actions and docs/web-api.md alone: a pass is
    saved but never shown; after a hazard a human could answer, a coup-fourré window shows the hazard and
    nothing after it until it closes (one more step); the safeties shown only by being asked are not known.
    ``step -> ("live", game, asked)`` or ``("window", before, after, seat, hazard, side, asked)``."""
    game = dealt(saved)
    humans = {s.seat for s in saved.seats if s.kind == "human"}
    asked: list[list[str]] = [[] for _ in range(game.players)]
    steps = {0: ("live", game.clone(), [[]] * game.players)}
    step, window = 0, None
    for seat, action in saved.actions:
        before, known = game.clone(), [game.known_cards(s) for s in range(game.players)]
        game.act(action, seat)
        asked = [[c for c in a if c in game.known_cards(s)] for s, a in enumerate(asked)]
        if game.decision == "coup-fourre":
            safety = SAFETY_OF[game.pending_attack["hazard"]]
            if safety not in known[game.to_act]:
                asked[game.to_act].append(safety)
        frozen = [list(a) for a in asked]
        if action == "pass":
            if window is not None:
                window["after"] = (game.clone(), frozen)
            else:
                steps[step] = ("live", game.clone(), frozen)
            continue
        if window is not None:
            step += 1
            steps[step] = ("live", *window["after"])
            window = None
        step += 1
        parts = action.split()
        if (
            len(parts) == 3
            and GROUP[CARD_IDS.index(parts[1])] == "hazard"
            and any(game.may_coup_fourre(h, seat, int(parts[2])) for h in humans)
        ):
            window = {"after": (game.clone(), frozen)}
            steps[step] = ("window", before, game.clone(), seat, parts[1], int(parts[2]), frozen)
        else:
            steps[step] = ("live", game.clone(), frozen)
    if window is not None:  # the last window closed when its time was up
        steps[step + 1] = ("live", *window["after"])
    return steps


def known_for(game, seat: int, asked) -> list[list[str]]:
    out = []
    for s in range(game.players):
        cards = list(game.known_cards(s))
        for c in asked[s]:
            cards.remove(c)
        out.append(cards if s != seat else [])
    return out


def what_was_shown(web, table_id: str) -> tuple[dict, list[dict]]:
    """The steps the table showed (shown_steps) and the public events of its saved actions in order, less
    the passes (nobody is told of a pass)."""
    saved = web.app.state.tables.get(table_id, actions=True)
    game, replayed = dealt(saved), []
    for seat, action in saved.actions:
        replayed += public_events(seat, action, game.act(action, seat))
    return shown_steps(saved), [e for e in replayed if e.get("action") != "pass"]


def check_frames(web, table_id: str, clients) -> int:
    """Every frame of every client must be what its seat may see at that step: the engine's observation
    for that seat (or the window's), the public events less the passes, no secret key in the text that
    was sent, and a hand (a list) only as the observation's own."""
    steps, public = what_was_shown(web, table_id)
    checked = 0
    for c in clients:
        assert len(c.texts) == len(c.frames)
        for text, frame in zip(c.texts, c.frames):
            if frame["type"] == "welcome" and "token" in frame:  # a first join's new token: the seat's own
                assert hash_token(frame["token"]) == web.app.state.tables.token_hash(table_id, c.seat), (c.seat, text)
                text = text.replace(f'"token":"{frame["token"]}"', "")
            assert not SECRET_KEY.search(text), (c.seat, text)
            assert len(HAND_KEY.findall(text)) == (frame["type"] == "state"), (c.seat, text)
            if frame["type"] != "state":
                continue
            obs, shown = frame["observation"], steps[frame["seq"]]
            if shown[0] == "live":
                game, asked = shown[1], shown[2]
                assert obs == dict(game.observation(c.seat), known_cards=known_for(game, c.seat, asked))
                assert frame["cf_deadline"] is None
            else:
                before, after, attacker, hazard, side, asked = shown[1:]
                hand = before.hand(c.seat)
                if c.seat == attacker:
                    hand.remove(hazard)
                holder = after.to_act if after.decision == "coup-fourre" else None
                assert obs["hand"] == hand and obs["to_act"] is None and obs["decision"] == "coup-fourre"
                assert obs["pending_attack"] == {"attacker": attacker, "hazard": hazard, "side": side}
                assert obs["stock_size"] == before.stock_size and obs["discard_pile"] == before.discard_pile
                assert obs["legal_actions"] in ([], ["coup-fourre", "pass"] if c.seat == holder else [])
                assert obs["known_cards"] == known_for(after, c.seat, asked)  # the hazard has left the hand
                pile = obs["tableaux"][side]["speed" if hazard == "speed-limit" else "battle"]
                assert pile[-1] == hazard and frame["cf_deadline"] is not None
            checked += 1
        told = [e for f in c.frames if f["type"] == "state" for e in f["events"]]
        assert told == public[: len(told)]
    return checked


@pytest.mark.parametrize(
    "ruleset, seats, teams, seed",
    [
        ("classic", [HUMAN, HUMAN], None, 31),
        ("classic", [HUMAN, HUMAN, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "medium"}], True, 32),
        ("family", [HUMAN, {"kind": "bot", "level": "medium"}, HUMAN], None, 33),
    ],
)
def test_each_seat_sees_only_its_own_hand(web, ruleset, seats, teams, seed):
    web.start()
    table = web.create(ruleset=ruleset, seats=seats, teams=teams, seed=seed)
    clients = [web.join(table, s, f"P{s}") for s, spec in enumerate(seats) if spec["kind"] == "human"]
    web.play_random(clients, random.Random(seed))
    assert all(c.obs["is_over"] for c in clients)
    assert web.app.state.tables.get(table["id"]).status == "finished"
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
    """A frame without what differs between any two tables: the id, the creation time, a first welcome's new
    token (drawn at random), the clock."""
    frame = dict(frame)
    if "token" in frame:
        frame["token"] = "drawn"
    if "table" in frame:
        frame["table"] = {k: v for k, v in frame["table"].items() if k not in ("id", "created")}
    if frame.get("cf_deadline") is not None:
        frame["cf_deadline"] = "running"
    if frame.get("turn"):  # whose turn it is, not how long it has run: a slow step on a busy machine shows there
        frame["turn"] = {k: v for k, v in frame["turn"].items() if k not in ("for", "left")}
    return frame
