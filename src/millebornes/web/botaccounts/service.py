"""What anybody may know of the bot accounts (docs/web-api.md, "Bots online"): the bots connected now, for a person
to challenge one from the home page, and the bots of a profile's person or the owner of a profile's bot.  Names,
owners, ratings and whether a bot is online or busy only: never a token, its hash, or a connection's id."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..accounts.routes import ratings_entry
from ..db.database import Database
from ..ratings.repo import RatingRow
from ..ratings.skill import Rating
from .accepts import ANY
from .repo import Bots

ONLINE_DEFAULT = ONLINE_MAX = 50
"""Bots ``GET /api/bots/online`` lists, at most: the latest connected."""


def _ratings(db: Database, ids: list[str]) -> dict[str, dict[str, Rating]]:
    """Each account's ratings by family, in one read."""
    out: dict[str, dict[str, Rating]] = {i: {} for i in ids}
    with Session(db.engine) as s:
        for r in s.scalars(select(RatingRow).where(RatingRow.account_id.in_(ids))):
            out[r.account_id][r.family] = Rating(mu=r.mu, sigma=r.sigma, matches=r.matches)
    return out


def online(db: Database, most: int, tables_at_once: int) -> list[dict[str, Any]]:
    """The bots connected now, the latest first: ``busy`` once a bot holds seats at ``tables_at_once`` live tables
    (a challenge would be refused or declined), and the tables its hello ``accepts`` (web/botaccounts/accepts.py)."""
    bots = Bots(db).online(most)
    ratings = _ratings(db, [b.account_id for b in bots])
    return [
        {
            "name": b.username,
            "owner": b.owner,
            "ratings": ratings_entry(ratings[b.account_id]),
            "busy": b.tables >= tables_at_once,
            "accepts": b.accepts or dict(ANY),
        }
        for b in bots
    ]


def of_profile(db: Database, account_id: str) -> dict[str, Any]:
    """A profile's bot facts: a person's bots (at most the bots an account may have), oldest first, each with its
    ratings and whether it is connected now; or, for a bot's profile, its owner's name."""
    bots = Bots(db)
    owner = bots.owner_of(account_id)
    owned = [] if owner is not None else bots.owned(account_id)
    ratings = _ratings(db, [b.account_id for b in owned])
    return {
        "owner": owner,
        "bots": [
            {
                "name": b.username,
                "ratings": ratings_entry(ratings[b.account_id]),
                "online": b.connected and not b.revoked,
            }
            for b in owned
        ],
    }
