"""The rematch: a finished table's seats answer ``rematch`` (yes or no), and a new table waits for them.

The first answer creates the rematch (:meth:`.repo.Tables.create_rematch`: the same creation options and seats,
a fresh seed, no human token yet, linked both ways).  A yes issues that seat a token of its own for the
same seat of the new table (only its hash is stored) and sends the link to that socket alone, until the
seat's player sits down there or the rematch starts; a no gives the seat to a bot.  Everyone at the finished table
hears the answers (``rematch`` frames, worked out from
the stored new table, so a restart loses nothing), and a joined seat of the waiting rematch may give the
seats nobody joined to bots (``fill-bots``), which starts it.  docs/web-api.md, "Rematch".
"""

from __future__ import annotations

import asyncio
import secrets

from ..db.notices import Kind
from ..errors import Gone, Refused
from . import outbound
from .hall import Hall
from .inbound import FillBotsFrame, RematchFrame
from .room import Room
from .rows import FINISHED

FRAMES = (RematchFrame, FillBotsFrame)


async def handle(client, hall: Hall, room: Room, frame: RematchFrame | FillBotsFrame) -> None:
    """One rematch or fill-bots frame of a socket at ``room``; a refusal is an error frame, and nothing
    changed."""
    try:
        if client.seat is None:
            raise Refused("spectator", "a spectator watches: it has no seat to answer for")
        if isinstance(frame, RematchFrame):
            await answer(client, hall, room, frame.answer)
        else:
            await fill_bots(hall, room)
    except Refused as r:
        client.error(r.code, r.message, **r.extra)


def fresh_seed(old: int) -> int:
    while (seed := secrets.randbelow(2**63)) == old:
        pass
    return seed


async def state_frame(hall: Hall, table_id: str) -> outbound.RematchFrame:
    return outbound.rematch(**await asyncio.to_thread(hall.repo.rematch_state, table_id))


async def answer(client, hall: Hall, room: Room, yes: bool) -> None:
    if room.status != FINISHED:
        raise Refused("not-finished", "the match is not over: a rematch is offered at its end")
    seat = client.seat
    async with room.lock:  # one answer of this table at a time: one rematch, created once
        new_id = await room.open_rematch(fresh_seed(room.table.seed))
        while True:
            new = await hall.room(new_id)
            if new is None:
                raise Refused("server", "the rematch could not be opened")
            try:
                if yes:
                    token = await new.seat_back(seat)
                else:
                    await new.decline(seat)
                break
            except Gone:
                continue
        if yes:  # to this socket alone, before everyone hears the answer
            client.send(outbound.rematch_seat(new_id, seat, token))
        room.broadcast(await state_frame(hall, room.id))
    await asyncio.to_thread(hall.repo.notify, room.id, Kind.REMATCH)


async def fill_bots(hall: Hall, room: Room) -> None:
    """Give every human seat of the waiting rematch that nobody joined to a bot, and start it."""
    if room.table.rematch_of is None:
        raise Refused("not-rematch", "only a rematch gives its empty seats to bots")
    await room.fill_bots()
    old = hall.rooms.get(room.table.rematch_of)
    if old is not None:
        old.broadcast(await state_frame(hall, old.id))
    await asyncio.to_thread(hall.repo.notify, room.table.rematch_of, Kind.REMATCH)
