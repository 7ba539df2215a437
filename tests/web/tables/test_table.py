"""The table view without a server: one ``advance`` for the load, a move made here and a move another
process wrote, so all three show the same steps (web/tables/table.py)."""

from __future__ import annotations

import pytest

import millebornes as mb
from millebornes.actions import IllegalAction
from millebornes.web.tables.table import TableView
from tests.util import stacked_deck

# Seat 0: a Roll and Extra Tank; seat 1: Out of Gas and fillers (as tests/web/test_app.py's CF_DECK).
CF_DECK = stacked_deck(
    "classic", 2, hands={0: ["roll", "200", "200", "100", "100", "extra-tank"], 1: ["out-of-gas"]}, stock=["100"]
)
HAZARD = [(0, "play roll"), (1, "play out-of-gas 0")]


def view(humans: set[int]) -> TableView:
    return TableView(mb.new_game("classic", players=2, seed=4, deck=CF_DECK), log_events=100, humans=humans)


def test_a_plain_action_is_one_step_told_to_everyone():
    table = view({0, 1})
    told = table.advance(0, "play roll")
    assert told is not None and told[0] == {"type": "action", "seat": 0, "action": "play roll"}
    assert (table.seq, table.actions, table.shown_actions) == (1, 1, 1)
    assert list(table.log) == told and table.last_events == told and table.window is None


def test_a_hazard_a_human_could_answer_opens_a_window_that_hides_who_holds_the_safety():
    table = view({0, 1})
    table.advance(*HAZARD[0])
    told = table.advance(*HAZARD[1], deadline=12.5)
    assert told is not None and [e["type"] for e in told] == ["action", "play"]
    window = table.window
    assert window is not None and (window.attacker, window.hazard, window.side, window.deadline) == (
        1,
        "out-of-gas",
        0,
        12.5,
    )
    assert table.seq == 2 and table.holder() == 0
    assert table.observation(0)["legal_actions"] == ["coup-fourre", "pass"]
    assert table.observation(1)["legal_actions"] == [] and table.observation(1)["to_act"] is None
    watched = table.spectator_observation()
    assert "hand" not in watched and watched["legal_actions"] == [] and watched["decision"] == "coup-fourre"

    assert table.advance(0, "pass") is None  # the holder's pass: nobody is shown anything
    assert (table.seq, table.actions, table.shown_actions) == (2, 3, 2)
    behind = window.deferred
    closed = table.close_window()
    assert table.window is None and table.seq == 3 and closed == behind and "pass" not in str(closed)


def test_a_hazard_no_human_could_answer_opens_no_window():
    table = view({1})
    for seat, action in HAZARD:
        table.advance(seat, action)
    assert table.window is None and table.holder() == 0 and table.seq == 2


def test_a_judged_action_changes_nothing_until_it_is_advanced():
    table = view({0, 1})
    table.advance(*HAZARD[0])
    before = table.game.observation(0)
    judged = table.judge(*HAZARD[1])
    assert judged.opens and table.game.observation(0) == before and table.seq == 1
    with pytest.raises(IllegalAction):
        table.judge(1, "play 200")
    with pytest.raises(IllegalAction):
        table.advance(1, "play 200")
    assert table.game.observation(0) == before and (table.seq, table.actions) == (1, 1)
    table.advance(*HAZARD[1], judged=judged)
    assert table.game is judged.game and table.window is not None and table.actions == 2


def play(opening: list[tuple[int, str]], n: int) -> list[tuple[int, str]]:
    """The opening, then ``n`` actions more: the first legal one each time, a pass when asked."""
    game = mb.new_game("classic", players=2, seed=4, deck=CF_DECK)
    played = []
    for seat, action in opening:
        game.act(action, seat)
        played.append((seat, action))
    for _ in range(n):
        seat, legal = game.to_act, game.legal_actions()
        action = "pass" if "pass" in legal else legal[0]
        game.act(action, seat)
        played.append((seat, action))
    return played


def test_the_load_a_live_move_and_another_process_s_move_show_the_same_steps():
    actions = play([*HAZARD, (0, "pass")], 40)
    notes = [(0, {"type": "standin", "seat": 1, "why": "away"}), (5, {"type": "back", "seat": 1})]
    live, adopted, loaded = view({0, 1}), view({0, 1}), view({0, 1})
    loaded.replay(actions, notes)
    for n, (seat, action) in enumerate(actions):
        for at, note in notes:
            if at == n:
                live.note(note)
                adopted.note(note)
        live.advance(seat, action, judged=live.judge(seat, action))
        adopted.advance(seat, action)
    for table in (live, adopted):
        assert (table.seq, table.actions, table.shown_actions) == (loaded.seq, loaded.actions, loaded.shown_actions)
        assert list(table.log) == list(loaded.log)
        assert (
            table.observation(0) == loaded.observation(0)
            and table.spectator_observation() == loaded.spectator_observation()
        )
    assert loaded.actions == len(actions) and [e for e in loaded.log if e["type"] in ("standin", "back")] == [
        n for _, n in notes
    ]
