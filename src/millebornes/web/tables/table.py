"""The table as its seats are shown it: the game, what it asked, the coup-fourré window, ``seq`` and the log.

Pure: no lock, no database, no clock, no socket (:class:`.room.Room` has those).  Loading a table, a move
made here and a move another server process wrote all go through :meth:`TableView.advance`, so a restart
and every process show the same steps as the process that made the move.  What a frame may show of it is
decided in :mod:`.view`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...cards import CARD_IDS, KIND_OF, SAFETY_OF
from ...events import Event
from ...observation import Observation
from ...state import Game
from .view import Asked, Window, answerable, hazard_of, is_hidden, shown_events


@dataclass(frozen=True)
class Judged:
    """An action the engine took on a copy of the game, not saved yet (:meth:`TableView.judge`): once it is
    saved, :meth:`TableView.advance` makes the copy the game instead of playing the action again."""

    seat: int
    action: str
    game: Game
    """The copy, after the action."""
    events: list[Event]
    opens: bool
    """A hazard a human could answer: a window opens."""


class TableView:
    """One table's shown steps; ``humans`` are the seats people decide for (the room keeps it up to date)."""

    def __init__(self, game: Game, log_events: int, humans: set[int] | None = None, teaching: bool = False):
        self.game = game
        self.humans: set[int] = set() if humans is None else humans
        self.teaching = teaching
        """The guided first match: its one person plays a tutor, so a window hides nothing from anyone, and one
        opens only when the learner holds the safety (to answer the coup fourré the lesson asks for)."""
        self.asked = Asked(game.players)
        self.window: Window | None = None
        self.seq = 0
        """The steps every seat was shown (the room's module docstring)."""
        self.actions = 0
        """The saved actions this copy played."""
        self.shown_actions = 0
        """The saved actions every seat was shown (all but the passes): what the seeds of bots and hints count,
        so that a pass behind a window changes no choice a seat could compare (thinking.bot_seed)."""
        self.log: deque[Mapping[str, Any]] = deque(maxlen=log_events)
        self.last_events: list[Mapping[str, Any]] = []
        self.done: list[tuple[int, str, int]] = []
        """Each saved action played: (seat, action, the hand it was taken in), for :meth:`take_back`."""

    def replay(self, actions: Sequence[tuple[int, str]], notes: Sequence[tuple[int, dict]]) -> None:
        """At the load: the saved actions, and the log's notes between them where they were taken."""
        left = list(notes)
        for n, (seat, action) in enumerate(actions):
            left = self._retell(left, n)
            self.advance(seat, action)
        self._retell(left, len(actions))

    def _retell(self, notes: list[tuple[int, dict]], at: int) -> list[tuple[int, dict]]:
        while notes and notes[0][0] <= at:
            self.note(notes.pop(0)[1])
        return notes

    # ---------------------------------------------------------------- the one step
    def opens_window(self, seat: int, action: str) -> bool:
        """Whether a hazard a human could answer: the seats and sides never change, so before or after
        the action alike."""
        hazard = hazard_of(action)
        if hazard is not None and self.teaching:
            safety = CARD_IDS[SAFETY_OF[KIND_OF[hazard[0]]]]
            return any(safety in self.game.hand(person) for person in self.humans)
        return hazard is not None and answerable(self.game, seat, hazard[1], self.humans)

    def judge(self, seat: int, action: str) -> Judged:
        """The action played on a copy, the game untouched; raises IllegalAction."""
        game = self.game.clone()
        events = game.act(action, seat)
        return Judged(seat, action, game, events, self.opens_window(seat, action))

    def advance(
        self, seat: int, action: str, deadline: float | None = None, judged: Judged | None = None
    ) -> list[Mapping[str, Any]] | None:
        """One saved action: the events every seat is now told, or None for a pass behind a window (only
        its holder's buttons go).  ``deadline`` is when a window it opens closes (None: not known yet, as at
        the load); ``judged``, the same action already played on a copy.  Raises IllegalAction, and changes
        nothing, when the action does not follow."""
        known = [self.game.known_cards(s) for s in range(self.game.players)]
        hand = self.game.hand_number
        if judged is None:
            opens = self.opens_window(seat, action)
            before = self.game.clone() if opens else self.game  # a window shows the game before the hazard
            events = self.game.act(action, seat)
        else:
            opens, before, events = judged.opens, self.game, judged.events
            self.game = judged.game
        self.actions += 1
        self.done.append((seat, action, hand))
        self.asked.note(self.game, known)
        told = shown_events(seat, action, events)
        if is_hidden(action):
            if self.window is not None:
                self.window.deferred += told
                return None
            return self._tell(told)
        self.shown_actions += 1
        shown = self.close_window() if self.window is not None else []
        self.seq += 1
        if opens:
            self.window = Window(before, seat, action, deadline)
            self.window.deferred, told = told[2:], told[:2]  # the action and its play event are shown
        return shown + self._tell(told)

    def close_window(self) -> list[Mapping[str, Any]]:
        """The window's end is a step of its own: what happened behind it, told."""
        assert self.window is not None  # its callers close an open one
        told = self.window.deferred
        self.window = None
        self.seq += 1
        return self._tell(told)

    def note(self, note: dict) -> list[Mapping[str, Any]]:
        """A note of the log (a stand-in came, a seat taken back) is a step of its own."""
        self.seq += 1
        return self._tell([note])

    def _tell(self, told: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
        """Events every seat now hears of: into the log a joining seat gets."""
        self.log.extend(told)
        self.last_events = told
        return told

    def take_back(self, seat: int) -> int | str:
        """The saved actions that stay when ``seat`` takes back its last decision (all those before it), or why it
        cannot: ``nothing`` (it decided nothing yet) or ``deal`` (not in this hand: since that decision a hand was
        scored and new hands were dealt)."""
        hand = self.game.hand_number
        for n in range(len(self.done) - 1, -1, -1):
            who, _, in_hand = self.done[n]
            if in_hand != hand:
                return "deal"
            if who == seat:
                return n
        return "nothing"

    def played(self) -> list[tuple[int, str]]:
        """Every saved action played, (seat, action), as the database lists them."""
        return [(s, a) for s, a, _ in self.done]

    def shown_after(self, keep: int) -> list[dict[str, Any]]:
        """The actions after the first ``keep`` that every seat was shown (a pass never was)."""
        return [{"seat": s, "action": a} for s, a, _ in self.done[keep:] if not is_hidden(a)]

    # ---------------------------------------------------------------- what each seat sees
    def holder(self) -> int | None:
        """The seat the engine asks for a coup fourré now, if any (nobody else may learn it)."""
        return self.game.to_act if self.game.decision == "coup-fourre" else None

    def observation(self, seat: int) -> Observation:
        """What a person on ``seat`` may see now: the window while one is open."""
        if self.window is not None:
            legal = self.game.legal_actions() if self.holder() == seat and seat in self.humans else []
            return self.window.observation(seat, self.asked.known_cards(self.game), legal)
        return self.bot_observation(seat)

    def bot_observation(self, seat: int) -> Observation:
        """What a bot decides from when it is asked: the engine's observation, less the safeties others
        showed only by being asked (a person would not know them either)."""
        obs = self.game.observation(seat)
        obs["known_cards"] = [k if s != seat else [] for s, k in enumerate(self.asked.known_cards(self.game))]
        return obs

    def spectator_observation(self) -> dict[str, Any]:
        """What someone watching sees: the public table from no seat.  Built from the view of the seat
        that gets nothing any other seat does not (the attacker during a window, who never holds the
        safety; else seat 0), then without a hand, a seat or a choice: ``hand`` left out,
        ``legal_actions`` empty, every seat's publicly known cards (less those shown only by asking)."""
        known = self.asked.known_cards(self.game)
        if self.window is not None:
            seen = self.window.observation(self.window.attacker, known, [])
        else:
            seen = self.game.observation(0)
        obs: dict[str, Any] = {key: value for key, value in seen.items() if key != "hand"}
        obs.update(seat=None, side=None, legal_actions=[], known_cards=known)
        return obs
