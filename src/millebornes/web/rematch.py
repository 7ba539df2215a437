"""The rematch: a finished table's seats answer ``rematch`` (yes or no), and a new table waits for them.

The first answer creates the rematch (:meth:`Store.create_rematch`: the same creation options and seats,
a fresh seed, no human token yet, linked both ways).  A yes issues that seat a token of its own for the
same seat of the new table (only its hash is stored) and sends the link to that socket alone, until the
seat's player sits down there or the rematch starts; a no gives the seat to a bot.  Everyone at the finished table
hears the answers (``rematch`` frames, worked out from
the stored new table, so a restart loses nothing), and a joined seat of the waiting rematch may give the
seats nobody joined to bots (``fill-bots``), which starts it.  docs/web.md, "Rematch".
"""

from __future__ import annotations

import asyncio
import secrets

from .errors import Gone, Refused
from .frames import FillBotsFrame, RematchFrame
from .hall import Hall
from .notices import Kind
from .room import Room
from .store import FINISHED, PLAYING, WAITING, hash_token, new_token

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


async def state_frame(hall: Hall, table_id: str) -> dict:
    return {"type": "rematch", **await asyncio.to_thread(hall.store.rematch_state, table_id)}


async def answer(client, hall: Hall, room: Room, yes: bool) -> None:
    if room.status != FINISHED:
        raise Refused("not-finished", "the match is not over: a rematch is offered at its end")
    seat = client.seat
    async with room.lock:  # one answer of this table at a time: one rematch, created once
        new_id = await asyncio.to_thread(hall.store.create_rematch, room.id, fresh_seed(room.table.seed))
        room.table.rematch = new_id
        while True:
            new = await hall.room(new_id)
            if new is None:
                raise Refused("server", "the rematch could not be opened")
            try:
                async with new.lock:
                    if new.closed:
                        raise Gone(new_id)
                    if yes:
                        token = await _seat_back(hall, new, seat)
                    else:
                        await _decline(hall, new, seat)
                break
            except Gone:
                continue
        if yes:  # to this socket alone, before everyone hears the answer
            client.send(
                {"type": "rematch-seat", "table": new_id, "seat": seat, "url": f"/t/{new_id}#seat={seat}&token={token}"}
            )
        room.broadcast(await state_frame(hall, room.id))
    await asyncio.to_thread(hall.store.notify, room.id, Kind.REMATCH)


async def _seat_back(hall: Hall, new: Room, seat: int) -> str:
    """A new token for the seat (its hash stored, the old one's forgotten): the seat is a human's again
    if a bot was given it while the rematch waits.  Refused once its player sat down or the rematch
    started: the finished table's link must not take the seat, and its hand, from the one playing it."""
    s = new.table.seats[seat]
    if s.kind == "human" and s.joined:
        raise Refused("joined", "this seat has taken its place at the rematch already")
    if new.status != WAITING:
        raise Refused("started", "the rematch has started without this seat")
    token = new_token()
    if not await asyncio.to_thread(hall.store.issue_token, new.id, seat, hash_token(token)):
        await new._refresh_seats()  # another process seated it or started the table: this copy was behind
        now = new.table.seats[seat]
        raise Refused(
            "joined" if now.kind == "human" and now.joined else "started",
            "this seat of the rematch is taken or the rematch has started",
        )
    if s.kind == "bot":
        s.kind, s.level, s.joined = "human", None, False
        new.reseat()
        new.broadcast({"type": "seats", "seats": new.seat_facts()})
    s.token_hash = hash_token(token)
    return token


async def _decline(hall: Hall, new: Room, seat: int) -> None:
    s = new.table.seats[seat]
    if s.kind == "human" and s.joined:
        raise Refused("joined", "this seat has taken its place at the rematch already")
    if s.kind == "human":
        await _to_bots(hall, new, [seat])


async def _to_bots(hall: Hall, new: Room, seats: list[int]) -> None:
    """Under the new room's lock: the seats are bots' (stored, then in memory), and the table starts
    when every human seat left has joined, as a join would start it."""
    level = new.table.standin  # the table's stand-in level, chosen at the first match's creation
    status = await asyncio.to_thread(hall.store.seats_to_bots, new.id, seats, level)
    for n in seats:
        s = new.table.seats[n]
        s.kind, s.level, s.token_hash, s.nickname, s.joined = "bot", level, None, None, True
    new.reseat()
    started = new.status == WAITING and status == PLAYING
    new.table.status = status
    if started:
        new.schedule(new.last_events)
        new.broadcast_state([])
    new.broadcast({"type": "seats", "seats": new.seat_facts()})


async def fill_bots(hall: Hall, room: Room) -> None:
    """Give every human seat of the waiting rematch that nobody joined to a bot, and start it."""
    if room.table.rematch_of is None:
        raise Refused("not-rematch", "only a rematch gives its empty seats to bots")
    async with room.lock:
        if room.status != WAITING:
            raise Refused("not-waiting", "this table is not waiting for players")
        empty = [s.seat for s in room.table.seats if s.kind == "human" and not s.joined]
        if empty:
            await _to_bots(hall, room, empty)
    old = hall.rooms.get(room.table.rematch_of)
    if old is not None:
        old.broadcast(await state_frame(hall, old.id))
    await asyncio.to_thread(hall.store.notify, room.table.rematch_of, Kind.REMATCH)
