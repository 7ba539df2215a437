"""The bridge's logs: one line per event on stderr, and with a log directory one file per table,
``<log_dir>/<table>.log``: its challenge, each decision with its action and time taken, errors, its result.
The token never appears: any line that would carry it has it masked."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path
from typing import TextIO

SAFE_NAME = re.compile(r"[^A-Za-z0-9_-]")


def stamp() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class Logs:
    def __init__(self, log_dir: Path | None, token: str, stream: TextIO | None = None):
        self.log_dir = log_dir
        self.token = token
        self.stream = stream
        if log_dir is not None:
            log_dir.mkdir(parents=True, exist_ok=True)

    def _clean(self, line: str) -> str:
        line = " ".join(line.split("\n"))
        return line.replace(self.token, "mbb_***") if self.token else line

    def event(self, line: str, table: str | None = None) -> None:
        """One line on stderr (and in the table's file when it is about one)."""
        line = self._clean(line)
        stream = self.stream or sys.stderr
        where = f" [{table}]" if table else ""
        try:
            stream.write(f"{stamp()} bridge{where}: {line}\n")
            stream.flush()
        except (OSError, ValueError):
            pass
        if table is not None:
            self.table(table, line)

    def table(self, table: str, line: str) -> None:
        """One line in the table's file only (each decision: stderr would scroll by too fast to read)."""
        if self.log_dir is None:
            return
        name = SAFE_NAME.sub("_", table)[:64] or "table"
        try:
            with open(self.log_dir / f"{name}.log", "a", encoding="utf-8") as f:
                f.write(f"{stamp()} {self._clean(line)}\n")
        except OSError as exc:
            self.event(f"cannot write the log of table {table}: {exc.strerror or exc}")
