"""How `millebornes serve` writes its log: one stream (standard error), the server's and uvicorn's records alike.

:func:`config` is the ``logging.config.dictConfig`` dictionary the command applies before it starts uvicorn
(which is then given none of its own): uvicorn's error and access loggers have no handlers of their own and go
to the root's, so ``--log-level`` and ``--log-json`` hold for every line.  ``debug`` opens this package's and
uvicorn's debug records; other libraries stay at ``info`` (the WebSocket library's debug record of every frame
would drown the rest).  Every record at ``error`` or worse is also counted for ``/metrics``
(:class:`millebornes.web.metrics.ErrorCounter`).
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

LEVELS = ("debug", "info", "warning", "error")

PLAIN = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class JsonLines(logging.Formatter):
    """One JSON object a line: ``time`` (UTC, ISO 8601 to the millisecond), ``level``, ``logger``,
    ``message``, and ``exception`` (the traceback's text) when the record carries one."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False)


def config(level: str = "info", as_json: bool = False) -> dict:
    """The logging configuration for ``level`` (one of LEVELS), in plain lines or JSON lines."""
    if level not in LEVELS:
        raise ValueError(f"log level: one of {', '.join(LEVELS)}, not {level!r}")
    upper = level.upper()
    others = "INFO" if level == "debug" else upper
    formatter = {"()": f"{__name__}.JsonLines"} if as_json else {"format": PLAIN}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"line": formatter},
        "handlers": {
            "stderr": {"class": "logging.StreamHandler", "stream": "ext://sys.stderr", "formatter": "line"},
            "errors": {"()": "millebornes.web.metrics.ErrorCounter", "level": "ERROR"},
        },
        "root": {"handlers": ["stderr", "errors"], "level": others},
        "loggers": {
            name: {"level": upper, "handlers": [], "propagate": True}
            for name in ("millebornes", "uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi")
        },
    }
