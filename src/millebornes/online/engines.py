"""The bot's program processes: one per table (``processes = "per-table"``, started when the challenge is accepted or
at the table's first decide, ended at its ``over``) or one for every table (``"shared"``, whose decisions then wait
their turn). Each speaks the stdio protocol through :class:`~millebornes.protocol.ExternalBot`, whose blocking calls
run on threads of the bridge's own so that the socket keeps being read meanwhile. A program that breaks the protocol
is logged and started afresh for the next decision; the bridge never stops for it."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..protocol import BotError, ExternalBot
from .logs import Logs

HELLO_SECONDS = 30.0
"""How long a starting program may take to answer the hello (an interpreter's start)."""


class Engine:
    """One program process, started on demand; decisions wait for it one at a time (:attr:`lock`)."""

    def __init__(self, command: list[str] | str, label: str, logs: Logs, pool: ThreadPoolExecutor, seed: int):
        self.command, self.label, self.logs, self.pool, self.seed = command, label, logs, pool, seed
        self.bot: ExternalBot | None = None
        self.lock = asyncio.Lock()
        self.starts = 0
        """Processes started so far (a restart after a failure counts)."""
        self.ended = False
        """The table is over: no process is started for it any more (a decision or a start still waiting)."""

    async def _run(self, work: Any, *args: Any, **kwargs: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.pool, lambda: work(*args, **kwargs))

    async def _started(self, table: str | None) -> ExternalBot:
        if self.ended:
            raise BotError(f"the program for {self.label} was ended")
        if self.bot is None:
            self.starts += 1
            self.bot = await self._run(ExternalBot, self.command, self.seed + self.starts, hello_timeout=HELLO_SECONDS)
            self.logs.event(f"started the program for {self.label} (process {self.bot.pid})", table)
        return self.bot

    async def warm(self, table: str | None = None) -> None:
        """Start the process now, so that the first decision does not wait for it; a failure is logged only."""
        async with self.lock:
            try:
                await self._started(table)
            except BotError as exc:
                self.logs.event(f"the program for {self.label} did not start: {exc}", table)

    async def choose(
        self, observation: Any, legal: list[str], wait: float, seconds_left: float, table: str | None
    ) -> str:
        """The program's action (the caller holds :attr:`lock`); BotError when it broke the protocol, and the next
        call starts a new process."""
        try:
            bot = await self._started(table)
            return str(await self._run(bot.choose, observation, legal, timeout=wait, seconds_left=seconds_left))
        except BotError:
            await self.close(0)
            raise

    async def close(self, grace: float = 1.0) -> None:
        """Say bye to the process (it gets ``grace`` seconds to exit, then it is killed)."""
        bot, self.bot = self.bot, None
        if bot is not None:
            await self._run(bot.close, grace)


class Engines:
    """The engine of each table: its own (per-table) or the one of all (shared)."""

    def __init__(self, command: list[str] | str, processes: str, logs: Logs, seed: int = 0):
        self.command, self.processes, self.logs = command, processes, logs
        self.seed = seed
        self.pool = ThreadPoolExecutor(max_workers=20, thread_name_prefix="bridge-program")
        self.shared = Engine(command, "every table", logs, self.pool, seed) if processes == "shared" else None
        self.tables: dict[str, Engine] = {}

    def of(self, table: str) -> Engine:
        if self.shared is not None:
            return self.shared
        engine = self.tables.get(table)
        if engine is None:
            self.seed += 1000
            engine = self.tables[table] = Engine(self.command, f"table {table}", self.logs, self.pool, self.seed)
        return engine

    @property
    def running(self) -> int:
        """Processes alive now."""
        engines = [self.shared] if self.shared is not None else list(self.tables.values())
        return sum(1 for e in engines if e is not None and e.bot is not None)

    async def end(self, table: str) -> None:
        """The table is over: its process ends (per-table)."""
        engine = self.tables.pop(table, None)
        if engine is not None:
            engine.ended = True
            async with engine.lock:
                await engine.close()
                engine.logs.event(f"ended the program of table {table}", table)

    async def close(self) -> None:
        engines = [self.shared] if self.shared is not None else list(self.tables.values())
        self.tables.clear()
        await asyncio.gather(*(e.close() for e in engines if e is not None), return_exceptions=True)
        self.pool.shutdown(wait=False)


def check_program(command: list[str] | str, seed: int = 0) -> tuple[str, str | None]:
    """Start the program once and greet it: its name and version, for the server's hello; BotError if it cannot
    play (a wrong command fails here, at the start, not at the first decision)."""
    with ExternalBot(command, seed, hello_timeout=HELLO_SECONDS) as bot:
        return bot.name, bot.version
