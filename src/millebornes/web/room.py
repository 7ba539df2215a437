"""A live table: the game, who is connected to which seat, and the clock that moves bots and timers.

One :class:`Room` per table in play.  Everything that changes the game goes through
:meth:`Room.submit` under the room's lock, in the order docs/web.md gives: the seat must be the
one to act on the state it saw, the engine judges the action on a clone, the action is committed
to the database, and only then does the clone become the game and each seat hear of it, through
its own observation.  Bots and the coup-fourré countdown are one task per room that is replaced
at every action, and they submit like anyone else, naming the ``seq`` they decided on, so a late
decision never lands on a game that moved on.

Nothing here knows about HTTP or WebSockets: a connection is anything with ``seat`` and a
non-blocking ``send(frame)``; :mod:`millebornes.web.client` provides them.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import math
from collections import deque
from datetime import datetime
from typing import Awaitable, Protocol

from ..actions import IllegalAction
from ..bots.base import RandomBot
from ..notation import replay
from ..state import Game
from .settings import Settings
from .store import FINISHED, PLAYING, WAITING, SavedTable, Store, hash_token, now
from .thinking import SEARCHING_LEVELS, Busy, Thinker, bot_seed, choose, hint

log = logging.getLogger("millebornes.web")


class Refused(Exception):
    """A frame the server will not act on; becomes an error frame, and nothing changed."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


class Connection(Protocol):
    seat: int | None

    def send(self, frame: dict) -> None: ...


def iso(t: datetime | None) -> str | None:
    return None if t is None else t.isoformat(timespec="seconds") + "Z"


def game_of(saved: SavedTable, upto: int = 0) -> Game:
    """The table's match after its first ``upto`` actions (the seed and deck stay on the server)."""
    return replay(saved.record(), upto)


def seat_facts(saved: SavedTable, connected: dict[int, bool]) -> list[dict]:
    return [{"seat": s.seat, "kind": s.kind, "level": s.level, "nickname": s.nickname,
             "connected": s.kind == "bot" or connected.get(s.seat, False)} for s in saved.seats]


def table_facts(saved: SavedTable, game: Game, connected: dict[int, bool]) -> dict:
    """What anybody may know of a table: no seed, no deck, no token (docs/web.md, GET /api/tables)."""
    over = saved.status == FINISHED
    return {"id": saved.id, "ruleset": saved.ruleset, "options": game.ruleset.options(),
            "players": game.players, "teams": game.teams, "sides": [list(s) for s in game.sides],
            "status": saved.status, "cf_timeout": saved.cf_timeout, "seats": seat_facts(saved, connected),
            "scores": list(saved.scores) if over and saved.scores is not None else list(game.match_scores),
            "winners": list(saved.winners) if over and saved.winners is not None else game.winners,
            "created": iso(saved.created), "finished": iso(saved.finished)}


def public_events(seat: int, action: str, events: list[dict]) -> list[dict]:
    return [{"type": "action", "seat": seat, "action": action}, *events]


class Room:
    """One table in play (or finished and looked at); see the module docstring."""

    def __init__(self, saved: SavedTable, store: Store, settings: Settings, thinker: Thinker):
        self.table = saved
        self.store = store
        self.settings = settings
        self.thinker = thinker
        self.lock = asyncio.Lock()
        self.conns: dict[int, set[Connection]] = {s.seat: set() for s in saved.seats}
        self.log: deque[dict] = deque(maxlen=settings.limits.log_events)
        self.last_events: list[dict] = []
        self.task: asyncio.Task | None = None
        self.cf_deadline: float | None = None
        self.hinting: set[int] = set()
        self.hint_ready: dict[int, float] = {}
        self.game = game_of(saved)
        for seat, action in saved.actions:
            self.last_events = public_events(seat, action, self.game.act(action, seat))
            self.log.extend(self.last_events)
        self.seq = len(saved.actions)

    @property
    def id(self) -> str:
        return self.table.id

    @property
    def status(self) -> str:
        return self.table.status

    # ---------------------------------------------------------------- what clients see
    def connected(self) -> dict[int, bool]:
        return {seat: bool(conns) for seat, conns in self.conns.items()}

    def seat_facts(self) -> list[dict]:
        return seat_facts(self.table, self.connected())

    def facts(self) -> dict:
        """The public facts of GET /api/tables/{table}."""
        return table_facts(self.table, self.game, self.connected())

    def state_frame(self, seat: int, events: list[dict]) -> dict:
        left = None
        if self.cf_deadline is not None:
            left = round(max(0.0, self.cf_deadline - asyncio.get_running_loop().time()), 2)
        return {"type": "state", "seq": self.seq, "observation": self.game.observation(seat), "events": events,
                "seats": self.seat_facts(), "status": self.status, "cf_deadline": left}

    def broadcast_state(self, events: list[dict]) -> None:
        for seat, conns in self.conns.items():
            if conns:
                frame = self.state_frame(seat, events)
                for conn in list(conns):
                    conn.send(frame)

    def broadcast(self, frame: dict, but: Connection | None = None) -> None:
        for conns in self.conns.values():
            for conn in list(conns):
                if conn is not but:
                    conn.send(frame)

    # ---------------------------------------------------------------- seats
    def authenticate(self, seat: int, token: str) -> bool:
        if not 0 <= seat < len(self.table.seats):
            return False
        s = self.table.seats[seat]
        if s.kind != "human" or not s.token_hash:
            return False
        return hmac.compare_digest(hash_token(token), s.token_hash)

    async def join(self, conn: Connection, seat: int, nickname: str | None) -> None:
        """Seat an authenticated connection: welcome, its state, and everyone hears who came."""
        async with self.lock:
            s = self.table.seats[seat]
            if nickname is None and s.nickname is None:
                raise Refused("malformed", "a nickname is needed to take a seat the first time")
            before = self.status
            nickname = nickname if nickname is not None else s.nickname
            everyone = all(x.joined or x.seat == seat for x in self.table.seats if x.kind == "human")
            status = PLAYING if before == WAITING and everyone else before
            await asyncio.to_thread(self.store.join, self.id, seat, nickname, status)
            s.nickname, s.joined, self.table.status = nickname, True, status
            conn.seat = seat
            self.conns[seat].add(conn)
            conn.send({"type": "welcome", "seat": seat, "table": self.facts(), "log": list(self.log)})
            if self.status != before:
                self.schedule(self.last_events)
                self.broadcast_state([])
            else:
                conn.send(self.state_frame(seat, []))
            self.broadcast({"type": "seats", "seats": self.seat_facts()}, but=conn)

    def leave(self, conn: Connection) -> None:
        seat = conn.seat
        if seat is None or conn not in self.conns.get(seat, ()):
            return
        self.conns[seat].discard(conn)
        if not self.conns[seat]:
            self.broadcast({"type": "seats", "seats": self.seat_facts()})

    # ---------------------------------------------------------------- acting
    def check_turn(self, seat: int, seq: int | None) -> None:
        if self.status == FINISHED or self.game.is_over:
            raise Refused("finished", "the match is over")
        if self.status == WAITING:
            raise Refused("waiting", "the table waits for every player to join")
        if seq is not None and seq != self.seq:
            raise Refused("stale", f"the table moved on: state {self.seq}, you acted on {seq}")
        if self.game.to_act != seat:
            raise Refused("not-your-turn", f"it is seat {self.game.to_act}'s decision, not yours")

    async def submit(self, seat: int, action: str, seq: int | None) -> None:
        """Apply one action for ``seat``; raises Refused and changes nothing if it cannot be."""
        async with self.lock:
            self.check_turn(seat, seq)
            clone = self.game.clone()
            try:
                events = clone.act(action, seat)
            except IllegalAction as exc:
                raise Refused("illegal", str(exc)) from None
            await asyncio.shield(self._commit(seat, clone, events, asyncio.current_task()))

    async def _commit(self, seat: int, clone: Game, events: list[dict], caller: asyncio.Task | None) -> None:
        """Save, then adopt and tell; shielded so a cancelled caller cannot leave them half done."""
        action = clone.history[-1]
        result = (list(clone.match_scores), clone.winners) if clone.is_over else None
        try:
            await asyncio.to_thread(self.store.append_action, self.id, self.seq, seat, action, result)
        except Exception:
            log.exception("table %s: could not save action %d (%s)", self.id, self.seq, action)
            raise Refused("server", "the action could not be saved; nothing changed") from None
        self.game = clone
        self.seq += 1
        if result is not None:
            self.table.status = FINISHED
            self.table.scores, self.table.winners = result
            self.table.finished = now()
        self.last_events = public_events(seat, action, events)
        self.log.extend(self.last_events)
        self.schedule(self.last_events, caller)
        self.broadcast_state(self.last_events)

    # ---------------------------------------------------------------- the clock: bots and countdowns
    def schedule(self, events: list[dict], caller: asyncio.Task | None = None) -> None:
        """Start what the new state waits for: a bot's move or a human's coup-fourré countdown.

        The task that is itself submitting (``caller``) is finishing its work, not cancelled."""
        if self.task is not None and self.task is not caller and self.task is not asyncio.current_task():
            self.task.cancel()
        self.task = None
        self.cf_deadline = None
        g = self.game
        if self.status != PLAYING or g.is_over:
            return
        seat = g.to_act
        s = self.table.seats[seat]
        if s.kind == "bot":
            if g.decision == "coup-fourre":
                delay = 0.0
            elif any(e["type"] == "hand-over" for e in events):
                delay = self.settings.hand_pause
            else:
                delay = self.settings.bot_delay
            self.task = asyncio.create_task(self._bot_move(seat, self.seq, delay))
        elif g.decision == "coup-fourre":
            timeout = self.table.cf_timeout
            self.cf_deadline = asyncio.get_running_loop().time() + timeout
            self.task = asyncio.create_task(self._countdown(seat, self.seq, timeout))

    async def _bot_move(self, seat: int, seq: int, delay: float) -> None:
        try:
            await asyncio.sleep(delay)
            if self.seq != seq:
                return
            level = self.table.seats[seat].level or "medium"
            obs = self.game.observation(seat)
            legal = self.game.legal_actions()
            bseed = bot_seed(self.table.seed, seq)
            try:
                if level in SEARCHING_LEVELS:
                    action = await self.thinker.bot(choose, level, bseed, obs, legal)
                else:
                    action = choose(level, bseed, obs, legal)
            except Exception:
                log.exception("table %s: bot %s failed; it plays at random this once", self.id, level)
                action = RandomBot(bseed).choose(obs, legal)
            await self.submit(seat, action, seq)
        except Refused as r:
            if r.code != "stale":
                log.warning("table %s: bot move refused: %s %s", self.id, r.code, r.message)
            await self._retry(r, seq)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: bot move failed", self.id)

    async def _countdown(self, seat: int, seq: int, timeout: float) -> None:
        try:
            await asyncio.sleep(timeout)
            await self.submit(seat, "pass", seq)
        except Refused as r:
            await self._retry(r, seq)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: coup-fourré countdown failed", self.id)

    async def _retry(self, refused: Refused, seq: int) -> None:
        """A move the database could not take is tried again in a second, if nothing moved meanwhile."""
        if refused.code == "server":
            await asyncio.sleep(1.0)
            if self.seq == seq:
                self.schedule(self.last_events)

    def hint(self, seat: int) -> Awaitable[dict]:
        """Start the search's view of the seat's decision off the event loop, or refuse at once and
        change nothing: one hint at a time per seat (so per socket too), ``hint_cooldown`` seconds
        after one is answered before the next, and no more than the server's ``hint_backlog``."""
        self.check_turn(seat, None)
        if seat in self.hinting:
            raise Refused("rate", "a hint for this seat is already being worked out: wait for it")
        now = asyncio.get_running_loop().time()
        wait = self.hint_ready.get(seat, 0.0) - now
        if wait > 0:
            raise Refused("rate", f"a seat waits {self.settings.limits.hint_cooldown:g} seconds after a hint "
                                  f"before the next: ask again in {math.ceil(wait * 10) / 10:.1f} seconds")
        seq = self.seq
        try:
            work = self.thinker.hint(hint, self.game.clone(), seat, self.settings.hint_iterations,
                                     self.settings.hint_ms, bot_seed(self.table.seed, seq))
        except Busy as exc:
            raise Refused("busy", str(exc)) from None
        except Exception:
            log.exception("table %s: a hint could not be started", self.id)
            raise Refused("server", "the hint could not be worked out") from None
        self.hinting.add(seat)
        work.add_done_callback(lambda _: self._hinted(seat))
        return self._hint_frame(seq, work)

    def _hinted(self, seat: int) -> None:
        """The seat's hint is over (answered, failed or dropped): its cooldown starts."""
        self.hinting.discard(seat)
        self.hint_ready[seat] = asyncio.get_running_loop().time() + self.settings.limits.hint_cooldown

    @staticmethod
    async def _hint_frame(seq: int, work: Awaitable[list[dict]]) -> dict:
        return {"type": "hint", "seq": seq, "actions": await work}

    def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.task = None
