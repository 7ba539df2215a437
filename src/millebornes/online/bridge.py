"""What the bridge does with each message of the server (docs/protocol.md, "Playing online"): a ``challenge``
answered by the filter, a ``decide`` passed to its table's program with the time left and the action sent back, an
``over`` ending that table's program. Its tables and programs outlive a connection: after a reconnection the server
seats the bot's account again and the same programs go on."""

from __future__ import annotations

import asyncio
import json
import math
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from ..protocol import BotError
from .challenges import refusal
from .config import Config
from .engines import Engines
from .logs import Logs

DECISION_SECONDS = 10.0
"""The time a decision has when neither the decide nor the table's clock says (the server's hello usually does)."""
SWEEP_SECONDS = 30.0
IDLE_SECONDS = 60.0
"""A table without a decide this long is asked about (``GET /api/tables/{table}``): its ``over`` may have come while
the bridge was disconnected, and its program is then ended."""
LIVE = ("waiting", "playing")

Send = Callable[[dict[str, Any]], Awaitable[bool]]


def _seconds(value: Any) -> float | None:
    """A number of seconds (zero or more) as a float, else None."""
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value) and value >= 0:
        return float(value)
    return None


class Bridge:
    def __init__(self, config: Config, logs: Logs, engines: Engines):
        self.config, self.logs, self.engines = config, logs, engines
        self.playing: dict[str, float] = {}
        """The tables the bot plays now, with the time of their last message."""
        self.clocks: dict[str, float] = {}
        self.sides: dict[str, int] = {}
        """The bot's side at each table, from its observations: the result's words say whether it won."""
        self.decision_seconds = DECISION_SECONDS
        self.finished = 0
        self.tasks: set[asyncio.Task[Any]] = set()

    def later(self, work: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self.logs.event(f"a task failed: {type(task.exception()).__name__}: {task.exception()}")

    def greeted(self, hello: Mapping[str, Any]) -> None:
        """The server's hello: its limits."""
        limits = hello.get("limits")
        seconds = _seconds(limits.get("decision_seconds")) if isinstance(limits, dict) else None
        if seconds:
            self.decision_seconds = seconds

    async def handle(self, message: Mapping[str, Any], send: Send) -> None:
        kind = message.get("type")
        if kind == "challenge":
            await self.challenge(message, send)
        elif kind == "decide":
            self.decide(message, send)
        elif kind == "over":
            self.over(message)
        elif kind == "error":
            table = message.get("table") if isinstance(message.get("table"), str) else None
            code = f" ({message['code']})" if isinstance(message.get("code"), str) else ""
            self.logs.event(f"the server says{code}: {str(message.get('message'))[:300]}", table)
        elif kind == "challenged":
            self.logs.event(f"challenge {message.get('id')} made table {message.get('table')}")
        # anything else is a message of a later version: ignored, as the protocol asks

    async def challenge(self, m: Mapping[str, Any], send: Send) -> None:
        table = str(m.get("table"))
        what = (
            f"challenge to table {table}: {m.get('edition')}, {m.get('players')} players, "
            f"{'rated' if m.get('rated') else 'casual'}, clock {m.get('clock')}, seat {m.get('seat')}"
        )
        why = refusal(self.config.challenges, m, len(self.playing))
        if why is not None:
            self.logs.event(f"{what}: declined, {why}")
            await send({"type": "decline", "id": m.get("id")})
            return
        self.playing[table] = time.monotonic()
        clock = _seconds(m.get("clock"))
        if clock:
            self.clocks[table] = clock
        self.logs.event(f"{what}: accepted", table)
        await send({"type": "accept", "id": m.get("id")})
        if self.engines.shared is None:
            self.later(self.engines.of(table).warm(table))

    def decide(self, m: Mapping[str, Any], send: Send) -> None:
        received = time.monotonic()
        table, rid, obs, legal = m.get("table"), m.get("id"), m.get("observation"), m.get("legal_actions")
        if (
            not isinstance(table, str)
            or not isinstance(rid, int)
            or not isinstance(obs, dict)
            or not isinstance(legal, list)
            or not legal
            or not all(isinstance(a, str) for a in legal)
        ):
            self.logs.event(f"a decide the bridge cannot use was ignored (id {rid!r})")
            return
        if table not in self.playing:
            self.logs.event("seated again by the server (a table from before the connection)", table)
        self.playing[table] = received
        if isinstance(obs.get("side"), int):
            self.sides[table] = obs["side"]
        budget = _seconds(m.get("seconds_left"))
        if budget is None:
            budget = self.clocks.get(table, self.decision_seconds)
        self.later(self._decide(table, rid, obs, legal, budget, received, send))

    async def _decide(
        self, table: str, rid: int, obs: dict, legal: list[str], budget: float, received: float, send: Send
    ) -> None:
        engine = self.engines.of(table)
        async with engine.lock:
            if table not in self.playing:
                return  # its over came meanwhile
            wait = budget - (time.monotonic() - received)
            told = wait - self.config.margin
            if told <= 0:
                self.logs.event(f"decide {rid}: no time left for the program ({budget:g} s given); not asked", table)
                return
            started = time.monotonic()
            try:
                action = await engine.choose(obs, legal, wait, told, table)
            except BotError as exc:
                self.logs.event(f"decide {rid}: the program failed, a new one plays the next decision: {exc}", table)
                await send({"type": "error", "id": rid, "message": "the bot's program failed; it is started again"})
                return
            took = time.monotonic() - started
        self.logs.table(table, f"decide {rid}: {action} ({took:.2f} s of {told:.1f} s)")
        if not await send({"type": "action", "id": rid, "action": action}):
            self.logs.event(f"decide {rid}: the connection was lost before the answer; the server asks again", table)

    def over(self, m: Mapping[str, Any]) -> None:
        table = str(m.get("table"))
        self.finished += 1
        winners, side = m.get("winners"), self.sides.get(table)
        result = "" if side is None or not isinstance(winners, list) else (" (won)" if side in winners else " (lost)")
        self.logs.event(f"over: scores {json.dumps(m.get('scores'))}, winners {json.dumps(winners)}{result}", table)
        self.forget(table)

    def forget(self, table: str) -> None:
        self.playing.pop(table, None)
        self.clocks.pop(table, None)
        self.sides.pop(table, None)
        if self.engines.shared is None:
            self.later(self.engines.end(table))

    # ------------------------------------------------------------------ tables whose end the bridge missed
    async def sweep(self) -> None:
        """Every ``SWEEP_SECONDS``, the tables idle ``IDLE_SECONDS`` are looked up; those not live are forgotten."""
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            now = time.monotonic()
            for table, last in list(self.playing.items()):
                if now - last < IDLE_SECONDS:
                    continue
                status = await asyncio.to_thread(self.status, table)
                if status is not None and status not in LIVE and table in self.playing:
                    self.logs.event(f"the table is {status}: its end came while the bridge was away", table)
                    self.forget(table)
                elif table in self.playing:
                    self.playing[table] = now

    def status(self, table: str) -> str | None:
        """The table's status as the server's public facts say (``gone``: unknown or expired), None if unknown."""
        url = f"{self.config.http_url}/api/tables/{urllib.parse.quote(table, safe='')}"
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                found = json.loads(response.read(1 << 20))
        except urllib.error.HTTPError as exc:
            return "gone" if exc.code in (404, 410) else None
        except (OSError, ValueError):
            return None
        status = found.get("status") if isinstance(found, dict) else None
        return status if isinstance(status, str) else None
