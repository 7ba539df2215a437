"""What a table waits for after each step, without a clock or a socket (web/tables/pacing.py): the window's end, a
bot's move and its delay, a person's decision, or nothing."""

from __future__ import annotations

import random
from datetime import datetime

import millebornes as mb
from millebornes.web.settings import Settings
from millebornes.web.tables.pacing import FAST_DELAY, PACES, BotMoves, PersonDecides, WindowEnds, bot_delay, next_wait
from millebornes.web.tables.rows import SavedSeat, SavedTable
from millebornes.web.tables.seatbots import SeatBots
from millebornes.web.tables.table import TableView
from tests.util import stacked_deck

# Seat 0: a Roll and Extra Tank; seat 1: Out of Gas and fillers (as tests/web/tables/test_table.py's).
CF_DECK = stacked_deck(
    "classic", 2, hands={0: ["roll", "200", "200", "100", "100", "extra-tank"], 1: ["out-of-gas"]}, stock=["100"]
)
SETTINGS = Settings(bot_delay=0.8, hand_pause=6.0, standby=5.0)


def table(seat0: SavedSeat, seat1: SavedSeat, pace: str = "normal") -> tuple[TableView, SeatBots]:
    saved = SavedTable(
        "t", "classic", {}, 2, False, 4, CF_DECK, 3.0, "playing", datetime(2026, 1, 1), [seat0, seat1], pace=pace
    )
    humans = {s.seat for s in saved.seats if s.kind == "human" and not s.stood_in}
    view = TableView(mb.new_game("classic", players=2, seed=4, deck=CF_DECK), log_events=100, humans=humans)
    return view, SeatBots(saved, thinker=None)  # type: ignore[arg-type]  # no decision is asked here


def wait(view, bots, events=(), someone_there=True, leads=True):
    return next_wait(view, bots, SETTINGS, list(events), someone_there, leads)


def test_a_person_to_act_is_waited_for():
    view, bots = table(SavedSeat(0, "human"), SavedSeat(1, "bot", "easy"))
    assert wait(view, bots) == PersonDecides(0)


def test_a_bot_moves_after_the_bot_delay_and_after_the_hand_pause_at_a_hand_s_end():
    view, bots = table(SavedSeat(0, "bot", "easy"), SavedSeat(1, "human"))
    assert wait(view, bots) == BotMoves(0, 0.8)
    assert wait(view, bots, [{"type": "hand-over"}]) == BotMoves(0, 6.0)
    assert wait(view, bots, someone_there=False) == BotMoves(0, 0.8)  # a bot's own seat plays on an empty table
    assert wait(view, bots, leads=False) == BotMoves(0, 5.8)  # a process that does not lead stands by


def test_a_stand_in_plays_only_while_someone_is_at_the_table():
    view, bots = table(SavedSeat(0, "human", stood_in=True), SavedSeat(1, "human"))
    assert wait(view, bots) == BotMoves(0, 0.8)
    assert wait(view, bots, someone_there=False) is None


def test_an_open_window_ends_at_its_deadline_and_a_bot_holder_answers_at_once():
    view, bots = table(SavedSeat(0, "human"), SavedSeat(1, "human"))
    view.advance(0, "play roll")
    view.advance(1, "play out-of-gas 0", deadline=42.0)
    assert view.window is not None and wait(view, bots) == WindowEnds(42.0)

    view, bots = table(SavedSeat(0, "bot", "easy"), SavedSeat(1, "human"))
    view.advance(0, "play roll")
    view.advance(1, "play out-of-gas 0")
    assert view.window is None and view.game.decision == "coup-fourre"  # no human could answer: no window
    assert wait(view, bots) == BotMoves(0, 0.0)
    assert wait(view, bots, leads=False) == BotMoves(0, 5.0)


def test_a_match_over_and_not_told_closes_at_once():
    view, bots = table(SavedSeat(0, "human"), SavedSeat(1, "bot", "easy"))
    rng = random.Random(3)
    while not view.game.is_over:
        view.advance(view.game.to_act, rng.choice(view.game.legal_actions()))
    assert wait(view, bots) == WindowEnds(0.0)


def test_a_fast_table_s_bot_moves_sooner_than_a_normal_one_and_a_relaxed_one_later():
    """The pace chosen at creation changes the delay before a bot's move, and nothing else: the pause after a
    hand's end, the coup-fourré answer and a standing-by process's extra wait stay as they are."""
    delays = {}
    for pace in PACES:
        view, bots = table(SavedSeat(0, "bot", "easy"), SavedSeat(1, "human"), pace)
        move = wait(view, bots)
        assert isinstance(move, BotMoves) and move.seat == 0
        delays[pace] = move.delay
        assert move.delay == bot_delay(pace, SETTINGS)
        assert wait(view, bots, [{"type": "hand-over"}]) == BotMoves(0, 6.0)
        assert wait(view, bots, leads=False) == BotMoves(0, move.delay + 5.0)
        view.advance(0, "play roll")
        view.advance(1, "play out-of-gas 0")
        assert wait(view, bots) == BotMoves(0, 0.0)  # a coup fourré is answered at once at every pace
    assert delays == {"relaxed": 1.6, "normal": 0.8, "fast": FAST_DELAY}
    assert delays["fast"] < delays["normal"] < delays["relaxed"]
    assert bot_delay("fast", Settings(bot_delay=0.0)) == 0.0  # never slower than the server's own delay
