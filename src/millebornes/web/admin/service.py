"""The work of each ``millebornes admin`` command (cli/admin.py) on the server's database: a name or an id checked
first (:class:`AdminRefused` in words, nothing changed), then one change, and the line that says what it did.

A disabled account signs in nowhere (web/accounts) and its bots connect nowhere: a live bot connection closes at
whichever server process holds it within ``CHECK_SECONDS`` (web/botaccounts/socket.py), as after a revoked token.
Deleting a finished rated table leaves its players' ratings as the match made them: the rating is a running
estimate, and replaying every later match without it is not done; the table's lines in their rating history go
with it.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta

from ..accounts.repo import Taken
from ..accounts.session import USERNAME
from ..botaccounts.gateway import CHECK_SECONDS
from ..botaccounts.repo import Bots, TooMany
from ..botaccounts.routes import BOTS_PER_OWNER
from ..db.base import now
from ..db.database import Database
from ..tables.rows import PLAYING, WAITING
from .repo import Admin, Found, Signup

TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,16}$")
"""A table's id (``tables.id``, 16 characters at most; new ones are 8)."""
MOST_HOURS = 24 * 366
"""How far back ``signups --since`` looks at most: a year."""
MOST_SIGNUPS = 1000
"""The most sign-ups one ``signups`` lists."""
ADDRESS_CHARS = 64
"""An address's length at most (``accounts.signup_address``)."""


class AdminRefused(Exception):
    """A bad argument or an unknown name: nothing changed; the words say why."""


def _name(username: str, what: str = "a username") -> str:
    if not re.match(USERNAME, username):
        raise AdminRefused(
            f"{username[:40]!r} is not {what}: 3 to 20 letters, digits, '_' or '-', the first a letter or a digit"
        )
    return username


def _account(admin: Admin, username: str) -> Found:
    found = admin.account(_name(username))
    if found is None:
        raise AdminRefused(f"no account is named {username}")
    return found


def _bot(admin: Admin, name: str) -> Found:
    found = admin.account(_name(name, "a bot's name"))
    if found is None:
        raise AdminRefused(f"no bot is named {name}")
    if found.owner is None:
        raise AdminRefused(f"{found.username} is a person's account, not a bot")
    return found


def _some(n: int, thing: str) -> str:
    return f"{n} {thing}" + ("" if n == 1 else "s")


def disable(db: Database, username: str) -> str:
    admin = Admin(db)
    found = _account(admin, username)
    done = admin.disable(found.id)
    again = f" (disabled since {done.since:%Y-%m-%d %H:%M} UTC)" if found.disabled is not None else ""
    bots = ""
    if found.owner is not None:
        bots = f"; its connection closes within {CHECK_SECONDS:g} s and it cannot reconnect"
    elif done.bots:
        bots = f"; its bots ({', '.join(done.bots)}) are disconnected within {CHECK_SECONDS:g} s and cannot reconnect"
    signins, devices = _some(done.signins, "sign-in"), _some(done.devices, "device")
    return f"disabled {found.username}{again}: {signins} closed, {devices} forgotten{bots}"


def enable(db: Database, username: str) -> str:
    admin = Admin(db)
    found = _account(admin, username)
    was = admin.enable(found.id)
    if was is None:
        return f"{found.username} was not disabled: nothing changed"
    return f"enabled {found.username} (disabled since {was:%Y-%m-%d %H:%M} UTC): it may sign in again"


def revoke_bot(db: Database, name: str) -> str:
    """The bot's token opens nothing any more (a new one is issued on the owner's page, or by
    :func:`issue_bot_token`), and its live connection closes, as the owner's revocation does."""
    admin = Admin(db)
    found = _bot(admin, name)
    bots = Bots(db)
    bot = bots.named(found.username)
    if bot is None or bot.revoked:
        return f"the token of {found.username} was revoked already: nothing changed"
    bots.revoke(found.id)
    return (
        f"revoked the token of {found.username} (owner {found.owner}); its connection closes within {CHECK_SECONDS:g} s"
    )


def issue_bot_token(db: Database, owner: str, name: str) -> tuple[str, str]:
    """A token for the bot ``name`` of ``owner``: the bot made first if there is none (the page's name rules and
    limit), else its token renewed (the old one opens nothing, its connection closes).  (The line, the token.)"""
    admin = Admin(db)
    person = _account(admin, owner)
    if person.owner is not None:
        raise AdminRefused(f"{person.username} is a bot: a bot's owner is a person's account")
    if person.disabled is not None:
        raise AdminRefused(f"{person.username} is disabled: enable it first (millebornes admin enable)")
    found = admin.account(_name(name, "a bot's name"))
    bots = Bots(db)
    if found is None:
        try:
            bot, token = bots.create(person.id, name, BOTS_PER_OWNER)
        except TooMany:
            raise AdminRefused(
                f"{person.username} has {BOTS_PER_OWNER} bots already, as many as one account may"
            ) from None
        except Taken:
            raise AdminRefused(f"the name {name} was taken meanwhile") from None
        return f"made the bot {bot.username} for {person.username}; its token follows, shown this once", token
    if found.owner is None:
        raise AdminRefused(f"{found.username} is a person's account, not a bot")
    if found.owner.casefold() != person.username.casefold():
        raise AdminRefused(f"{found.username} is {found.owner}'s bot, not {person.username}'s")
    token = bots.renew(found.id)
    return f"renewed the token of {found.username} (owner {person.username}); the old one opens nothing now", token


def delete_table(db: Database, table_id: str, force: bool) -> str:
    if not TABLE_ID.match(table_id):
        raise AdminRefused(f"{table_id[:40]!r} is not a table's id: 1 to 16 letters, digits, '_' or '-'")
    admin = Admin(db)
    facts = admin.table(table_id)
    if facts is None:
        raise AdminRefused(f"no table has the id {table_id}")
    status, rated = facts
    if status in (WAITING, PLAYING) and not force:
        raise AdminRefused(
            f"table {table_id} is live ({status}): --force deletes it all the same, and its players lose it"
        )
    gone = admin.delete_table(table_id)
    if not gone:
        raise AdminRefused(f"no table has the id {table_id}")
    rows = ", ".join(f"{n} {name}" for name, n in sorted(gone.items()) if name != "tables")
    kept = "; its players' ratings keep what the match did to them" if rated and "rating_changes" in gone else ""
    return f"deleted table {table_id} ({status}) and its rows ({rows or 'none'}){kept}"


def signups(db: Database, hours: float, address: str | None, limit: int) -> list[Signup]:
    if not 0 < hours <= MOST_HOURS:
        raise AdminRefused(f"--since is a number of hours above 0, at most {MOST_HOURS}")
    if not 1 <= limit <= MOST_SIGNUPS:
        raise AdminRefused(f"--limit is from 1 to {MOST_SIGNUPS}")
    if address is not None and not 0 < len(address) <= ADDRESS_CHARS:
        raise AdminRefused(f"--address is an address of 1 to {ADDRESS_CHARS} characters")
    return Admin(db).signups(now() - timedelta(hours=hours), address, limit)


@dataclass(frozen=True)
class Address:
    """The sign-ups of one address among those listed."""

    address: str | None
    count: int
    newest: datetime
    usernames: list[str]


def by_address(found: list[Signup]) -> list[Address]:
    """The sign-ups grouped by address, the most first (then the newest), each group's names newest first."""
    counts = Counter(s.address for s in found)
    groups: dict[str | None, list[Signup]] = {}
    for s in found:
        groups.setdefault(s.address, []).append(s)
    return [
        Address(address, counts[address], group[0].created, [s.username for s in group])
        for address, group in sorted(groups.items(), key=lambda kv: (-len(kv[1]), -kv[1][0].created.timestamp()))
    ]
