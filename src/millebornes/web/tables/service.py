"""The tables' one service: :class:`Creation` makes a table, for a person's ``POST /api/tables`` and a bot's challenge
alike, every check and limit applied in one place.

It holds what the bots online do at creation (find the challenged bots, hold their seats) by what it asks of them,
:class:`BotSeats`, which the bots' gateway is: the gateway makes tables through this module, so this module does
not import it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from ...bots.ladder import default_level
from ..db.base import now
from ..errors import Throttled, Unprocessable
from ..ratings.repo import Ratings
from ..settings import Settings
from ..throttle import CreationThrottle
from ..tokens import hash_token, new_token
from .creation import CreateTable, check_table
from .hall import Hall
from .repo import Tables
from .rows import WAITING, SavedSeat, SavedTable, new_table_id


class BotSeat(Protocol):
    """A bot account challenged to a seat."""

    @property
    def account_id(self) -> str: ...

    @property
    def name(self) -> str: ...


class BotSeats(Protocol):
    """What a table's creation asks of the bots online (web/botaccounts/gateway.py)."""

    async def challengeable(
        self, seats: list[tuple[int, str]], edition: str, players: int, rated: bool
    ) -> Mapping[int, BotSeat]:
        """The bot of each bot-account seat (index, username) at a table of ``edition``, ``players`` and ``rated``,
        or :class:`..errors.Unprocessable`."""
        ...

    async def hold(self, table: SavedTable, holders: Mapping[int, str]) -> None:
        """Each seat (index: account id) is its account's."""
        ...


@dataclass
class Made:
    """A new table (in the database and in this process's hall), its human seats' tokens, and the bots it
    challenges (not asked yet: :meth:`..botaccounts.gateway.Gateway.challenge`)."""

    table: SavedTable
    tokens: dict[int, str]
    bots: Mapping[int, BotSeat]


class Creation:
    """The one way a table is made (``POST /api/tables``, a bot's ``challenge``): built once in the app's lifespan
    and handed to both."""

    def __init__(self, settings: Settings, tables: Tables, hall: Hall, throttle: CreationThrottle, gateway: BotSeats):
        self.settings, self.tables, self.hall, self.throttle, self.gateway = settings, tables, hall, throttle, gateway

    async def make(self, body: CreateTable, address: str, held: Mapping[int, str] | None = None) -> Made:
        """Every check, the throttle of ``address``, then the table; the bot accounts' seats, and ``held`` (seat:
        account), are held by their accounts before this returns.  :class:`Unprocessable` or :class:`Throttled`,
        and nothing made: a rated table whose known players may not be rated against each other now (the ratings'
        guards, web/ratings/repo.py) is refused with ``field`` ``rated`` and the guard's ``code``."""
        game, seed = check_table(body, self.settings)
        named = [(i, s.name) for i, s in enumerate(body.seats) if s.name is not None]
        bots = await self.gateway.challengeable(named, body.ruleset, game.players, body.rated)
        if body.rated:
            holders = dict(held or {}) | {seat: bot.account_id for seat, bot in bots.items()}
            sides = [[holders[seat] for seat in side if seat in holders] for side in game.sides]
            why = await asyncio.to_thread(Ratings(self.tables.db).refusal, sides, self.settings.limits)
            if why is not None:
                raise Unprocessable("rated", why[1], why[0])
        wait = self.throttle.take(address)
        if wait is not None:
            raise Throttled(wait, self.throttle.per_minute)
        tokens, seats = {}, []
        for i, spec in enumerate(body.seats):
            if spec.kind != "bot":
                tokens[i] = new_token()
                seats.append(SavedSeat(i, "human", token_hash=hash_token(tokens[i])))
            else:
                level = spec.level or default_level(body.ruleset, game.players, game.teams)
                seats.append(SavedSeat(i, "bot", level=level, joined=True))
        saved = SavedTable(
            id=new_table_id(),
            ruleset=body.ruleset,
            options=body.options,
            players=game.players,
            teams=game.teams,
            seed=seed,
            deck=body.deck,
            cf_timeout=body.cf_timeout,
            status=WAITING,
            created=now(),
            seats=seats,
            spectators=body.spectators,
            clock=float(body.clock),
            grace=float(body.grace),
            standin_level=body.standin or default_level(body.ruleset, game.players, game.teams),
            public=body.public,
            pace=body.pace,
            rated=body.rated,
        )
        saved = await asyncio.to_thread(self.tables.create, saved)
        self.hall.add(saved)
        await self.gateway.hold(saved, dict(held or {}) | {seat: bot.account_id for seat, bot in bots.items()})
        return Made(saved, tokens, bots)
