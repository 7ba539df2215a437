"""What a log record is about: the request it was written for and the table it concerns, each a context variable,
so that every record written while they are set carries them (:class:`Fields`; :mod:`.logs` writes them).

- ``request_id``: one per HTTP request and per WebSocket connection, set by :mod:`.requestids` for everything the
  request's task does (and the tasks and threads it starts: they copy its context).
- ``table_id``: set for the requests and sockets at a table's address (:mod:`.requestids`), and for the work a
  table does on its own, by whoever it was woken: its timed steps, its stand-ins, its notices, its review
  (:func:`at_table`).  That work carries no request's id: it belongs to the table, not to the request that
  happened to start it.

Both are short and of known shape (the request id is checked or made by :mod:`.requestids`, a table id is one
of :data:`TABLE_ID`'s), so a record never carries what a client made up.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import Context, ContextVar, copy_context

REQUEST_ID: ContextVar[str | None] = ContextVar("millebornes_request_id", default=None)
TABLE_ID: ContextVar[str | None] = ContextVar("millebornes_table_id", default=None)
TABLE_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,16}")
"""What a table id looks like (a new table's is 8 of these characters)."""
FIELDS = ("request_id", "table_id")


def _enter_table(table_id: str) -> None:
    REQUEST_ID.set(None)
    TABLE_ID.set(table_id)


def at_table(table_id: str) -> Context:
    """A copy of the current context for work ``table_id`` does on its own (``asyncio.create_task(work,
    context=at_table(id))``): its table's id, and no request's."""
    context = copy_context()
    context.run(_enter_table, table_id)
    return context


@contextmanager
def about_table(table_id: str) -> Iterator[None]:
    """The records written inside concern ``table_id`` (a loop over tables, within one task)."""
    token = TABLE_ID.set(table_id)
    try:
        yield
    finally:
        TABLE_ID.reset(token)


class Fields(logging.Filter):
    """Give each record the request and table it was written for (None outside them), unless it names its own
    (``extra={"table_id": ...}``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "request_id", None) is None:
            record.request_id = REQUEST_ID.get()
        if getattr(record, "table_id", None) is None:
            record.table_id = TABLE_ID.get()
        return True
