"""The bots of a table: which seats play themselves, at what level, and their decisions.

A seat plays itself when a bot sits on it, or when a stand-in bot plays for its absent human at the
table's stand-in level.  Every decision is made from what the seat was shown (``TableView.bot_observation``)
with a seed fixed by the table and the actions every seat saw (:func:`..thinking.bot_seed`), so a replay,
a restart or another server process decides the same way.
"""

from __future__ import annotations

import logging

from ... import tutorial
from ...bots import SEARCHING_LEVELS
from ...bots.base import RandomBot
from ..thinking import Thinker, bot_seed, choose
from .rows import SavedTable
from .table import TableView

log = logging.getLogger("millebornes.web")


class SeatBots:
    """Decisions for the seats of ``table`` that play themselves; reads its seats as the room keeps them."""

    def __init__(self, table: SavedTable, thinker: Thinker):
        self.table = table
        self.thinker = thinker

    def plays_itself(self, seat: int) -> bool:
        """A bot's seat, or a human's a stand-in bot plays."""
        s = self.table.seats[seat]
        return s.kind == "bot" or s.stood_in

    def is_bot(self, seat: int) -> bool:
        """A bot's own seat: it plays even with nobody at the table (a stand-in waits for someone)."""
        return self.table.seats[seat].kind == "bot"

    def level(self, seat: int) -> str:
        s = self.table.seats[seat]
        return (s.level or "medium") if s.kind == "bot" else self.table.standin_level

    def answer(self, view: TableView, seat: int) -> str:
        """A coup-fourré answer, at once: searching levels answer with their network, not a search, so
        that how long it takes tells nothing."""
        level = self.level(seat)
        if level == tutorial.TUTOR_LEVEL:
            return self._tutor(view)
        policy = "neural" if level in SEARCHING_LEVELS else level
        seed = bot_seed(self.table.seed, view.shown_actions)
        return choose(policy, seed, view.bot_observation(seat), view.game.legal_actions())

    async def decide(self, view: TableView, seat: int) -> str:
        """Any other decision: a searching level thinks in the bots' pool, the others here; a bot that fails
        plays at random this once (logged), so a table never waits on a broken bot."""
        level = self.level(seat)
        if level == tutorial.TUTOR_LEVEL:
            return self._tutor(view)
        obs = view.bot_observation(seat)
        legal = view.game.legal_actions()
        seed = bot_seed(self.table.seed, view.shown_actions)
        try:
            if level in SEARCHING_LEVELS:
                return await self.thinker.bot(choose, level, seed, obs, legal)
            return choose(level, seed, obs, legal)
        except Exception:
            log.exception("table %s: bot %s failed; it plays at random this once", self.table.id, level)
            return RandomBot(seed).choose(obs, legal)

    def _tutor(self, view: TableView) -> str:
        """The tutor of the guided first match plays its script; after it, the easiest level's moves."""
        legal = view.game.legal_actions()
        move = tutorial.tutor_move(view.game)
        if move in legal:
            return move
        seed = bot_seed(self.table.seed, view.shown_actions)
        return choose("easy", seed, view.bot_observation(tutorial.TUTOR), legal)
