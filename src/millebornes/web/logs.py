"""How `millebornes serve` writes its log: one stream (standard error), the server's and uvicorn's records alike.

:func:`config` is the ``logging.config.dictConfig`` dictionary the command applies before it starts uvicorn
(which is then given none of its own): uvicorn's error and access loggers have no handlers of their own and go
to the root's, so ``--log-level`` and ``--log-json`` hold for every line.  ``debug`` opens this package's and
uvicorn's debug records; other libraries stay at ``info`` (the WebSocket library's debug record of every frame
would drown the rest).  Every record at ``error`` or worse is also counted for ``/metrics``
(:class:`millebornes.web.metrics.ErrorCounter`).

A record written for a request or about a table carries their ids (:mod:`.logfields`): the JSON line's
``request_id`` and ``table_id`` fields, a plain line's ``[request=... table=...]`` after the message; neither
when the record is about no request and no table (the start-up line, the sweep).
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

from .logfields import FIELDS

LEVELS = ("debug", "info", "warning", "error")

PLAIN = "%(asctime)s %(levelname)s %(name)s: %(message)s"
SHORT = {"request_id": "request", "table_id": "table"}
"""How a plain line names the fields."""


def fields(record: logging.LogRecord) -> dict[str, str]:
    """The record's ids that are set (:class:`.logfields.Fields` put them there)."""
    return {name: value for name in FIELDS if (value := getattr(record, name, None)) is not None}


class Plain(logging.Formatter):
    """:data:`PLAIN`, and the record's ids after its message: ``... [request=5f0c2a91b3d4e6f7 table=3kq9v2ab]``."""

    def __init__(self) -> None:
        super().__init__(PLAIN)

    def formatMessage(self, record: logging.LogRecord) -> str:
        line = super().formatMessage(record)
        ids = fields(record)
        return f"{line} [{' '.join(f'{SHORT[k]}={v}' for k, v in ids.items())}]" if ids else line


class JsonLines(logging.Formatter):
    """One JSON object a line: ``time`` (UTC, ISO 8601 to the millisecond), ``level``, ``logger``,
    ``message``, ``request_id`` and ``table_id`` when set, and ``exception`` (the traceback's text) when the
    record carries one."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            **fields(record),
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
    formatter = {"()": f"{__name__}.JsonLines"} if as_json else {"()": f"{__name__}.Plain"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"line": formatter},
        "filters": {"fields": {"()": "millebornes.web.logfields.Fields"}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "formatter": "line",
                "filters": ["fields"],
            },
            "errors": {"()": "millebornes.web.metrics.ErrorCounter", "level": "ERROR"},
        },
        "root": {"handlers": ["stderr", "errors"], "level": others},
        "loggers": {
            name: {"level": upper, "handlers": [], "propagate": True}
            for name in ("millebornes", "uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi")
        },
    }
