"""Card help (web/tables/cardhelp.py): the seat whose play it is learns, with its state frame, why each card of its hand
cannot be played now, in the engine's own reason; nobody else gets any, nor that seat at any other moment."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")

import millebornes as mb  # noqa: E402
from millebornes.web.tables.cardhelp import refusals  # noqa: E402
from tests.util import stacked_deck  # noqa: E402

HUMAN = {"kind": "human"}
HAND = ["25", "200", "stop", "roll", "gasoline", "right-of-way"]
STOCK = ["speed-limit"]  # what seat 0 draws


def test_each_card_that_cannot_be_played_has_the_engines_reason():
    rules = mb.ruleset("parker")
    deck = stacked_deck(rules, 2, hands={0: HAND, 1: ["25", "50", "75", "100", "200", "roll"]}, stock=STOCK)
    game = mb.new_game(rules, players=2, deck=deck, seed=1)
    assert game.decision == "play" and game.to_act == 0  # parker draws for the seat: it has no other choice
    assert refusals(game, 1) is None  # not seat 1's turn
    got = refusals(game, 0)
    hand = game.hand(0)
    assert len(got) == len(hand)
    for card, why in zip(hand, got):
        if why is None:  # playable: the engine has a play of it
            assert any(a == f"play {card}" or a.startswith(f"play {card} ") for a in game.legal_actions())
            continue
        action = f"play {card} 1" if card in ("stop", "speed-limit") else f"play {card}"
        with pytest.raises(mb.IllegalAction) as refused:
            game.clone().act(action)
        assert why == {"reason": refused.value.reason, "params": refused.value.params}
    by_card = dict(zip(hand, got))
    assert by_card["roll"] is None and by_card["right-of-way"] is None and by_card["speed-limit"] is None
    assert by_card["25"]["reason"] == by_card["200"]["reason"]  # no distance before a Roll
    assert by_card["stop"] is not None and by_card["gasoline"] is not None  # parker: no Stop on a car not moving
    game.act("play roll")
    assert refusals(game, 0) is None and refusals(game, 1) is not None  # seat 1's turn now


def test_the_state_frame_carries_it_to_that_seat_alone(web):
    web.start()
    rules = mb.ruleset("parker")
    deck = stacked_deck(rules, 2, hands={0: HAND, 1: ["25", "50", "75", "100", "200", "roll"]}, stock=STOCK)
    t = web.create(ruleset="parker", seats=[HUMAN, HUMAN], deck=deck, seed=1, clock=0)
    ann, bob = web.join(t, 0, "Ann"), web.join(t, 1, "Bob")
    while ann.state["status"] != "playing":
        ann.expect("state")
    mine = ann.state
    assert mine["observation"]["decision"] == "play" and bob.state["refused"] is None
    refused = dict(zip(mine["observation"]["hand"], mine["refused"]))
    assert refused["roll"] is None and refused["25"]["reason"] == refused["200"]["reason"] == "needs_roll"
    assert refused["stop"] is not None and "reason" in refused["stop"]
    watcher = web.connect(t["id"])
    watcher.send({"type": "watch"})
    assert watcher.expect("state")["refused"] is None
    seq = ann.state["seq"]
    ann.act("play roll")
    assert ann.state_after(seq)["refused"] is None  # Bob's turn: Ann hears of no card of hers
    assert bob.state_after(seq)["refused"] is not None
