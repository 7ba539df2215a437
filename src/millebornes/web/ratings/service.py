"""What a profile and a leaderboard show, read from the database in one worker thread: an account's games a page at a
time, its rating graph and totals, and each edition's active leaders (the routes are :mod:`.routes`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session

from ... import new_game
from ...rules import ruleset as get_ruleset
from ..accounts.repo import Account, AccountRow, Accounts
from ..accounts.routes import ratings_entry
from ..archive.routes import Key, cursor
from ..botaccounts.service import of_profile
from ..db.base import now
from ..db.database import Database
from ..tables.facts import iso
from ..tables.rows import FINISHED, SeatRow, TableRow
from .repo import RatingChangeRow, RatingRow, Ratings
from .skill import SETTLED_MATCHES, SETTLED_SIGMA, Rating
from .stats_repo import SeatStats

GAMES_DEFAULT, GAMES_MAX = 20, 50
"""Games on one page of a profile."""
HISTORY_POINTS = 1000
"""The rating graph's points, all families together: the latest rated matches."""
FILL_PER_VISIT = 50
"""Uncounted finished games (those before seat statistics) a profile's visit counts, at most."""
ACTIVE_DAYS = 30
"""A player is on a leaderboard while their last rated match in its family is this recent."""
LEADERS_DEFAULT = LEADERS_MAX = 100
"""Players a leaderboard lists, at most."""


@dataclass(frozen=True)
class Viewer:
    """Whose profile, and whether the request is that account's own (its private games shown)."""

    account: Account
    own: bool


def _game(
    t: TableRow, seats: list[tuple[SeatRow, str | None]], mine: list[int], change: RatingChangeRow | None
) -> dict[str, Any]:
    """One game of a profile: the table, who sat where, its result for the profile's side, and the links."""
    game = new_game(get_ruleset(t.ruleset, **t.options), players=t.players, teams=t.teams, seed=0)
    winners = list(t.winners or [])
    side = game.side_of(mine[0])
    result = ("shared" if len(winners) > 1 else "won") if side in winners else "lost"
    return {
        "table": t.id,
        "edition": t.ruleset,
        "players": t.players,
        "teams": t.teams,
        "sides": [list(s) for s in game.sides],
        "finished": iso(t.finished),
        "public": t.public,
        "rated": change is not None,
        "seats": [
            {"seat": s.seat, "kind": s.kind, "level": s.level, "nickname": s.nickname, "username": username}
            for s, username in seats
        ],
        "mine": mine,
        "side": side,
        "scores": list(t.scores or []),
        "winners": winners,
        "result": result,
        "rating": None if change is None else {"before": change.before, "after": change.after},
        "replay": f"/replay/{t.id}",
        "review": f"/replay/{t.id}#review-panel",
    }


def games_page(db: Database, viewer: Viewer, limit: int, before: Key | None) -> tuple[list[dict], str | None]:
    """The account's finished games, newest first, after the cursor ``before``; the page and the next one's
    cursor (None at the end)."""
    me = viewer.account.id
    held = [SeatRow.account_id == me, TableRow.status == FINISHED, TableRow.finished.is_not(None)]
    if not viewer.own:
        held.append(TableRow.public.is_(True))
    if before is not None:
        at, table_id = before
        held.append(or_(TableRow.finished < at, and_(TableRow.finished == at, TableRow.id < table_id)))
    with Session(db.engine) as s:
        tables = list(
            s.scalars(
                select(TableRow)
                .join(SeatRow, SeatRow.table_id == TableRow.id)
                .where(*held)
                .group_by(TableRow.id)
                .order_by(TableRow.finished.desc(), TableRow.id.desc())
                .limit(limit + 1)
            )
        )
        more = len(tables) > limit
        tables = tables[:limit]
        ids = [t.id for t in tables]
        seats: dict[str, list[tuple[SeatRow, str | None]]] = {i: [] for i in ids}
        for seat, username in s.execute(
            select(SeatRow, AccountRow.username)
            .outerjoin(AccountRow, AccountRow.id == SeatRow.account_id)
            .where(SeatRow.table_id.in_(ids))
            .order_by(SeatRow.table_id, SeatRow.seat)
        ).all():
            seats[seat.table_id].append((seat, username))
        changes = {
            c.table_id: c
            for c in s.scalars(
                select(RatingChangeRow).where(RatingChangeRow.account_id == me, RatingChangeRow.table_id.in_(ids))
            )
        }
        page = [
            _game(t, seats[t.id], [x.seat for x, _ in seats[t.id] if x.account_id == me], changes.get(t.id))
            for t in tables
        ]
    last = tables[-1] if more and tables else None
    return page, None if last is None or last.finished is None else cursor((last.finished, last.id))


def _graph(db: Database, viewer: Viewer) -> dict[str, list[dict]]:
    """The rating's points per family, oldest first; a private table is named to the account itself only."""
    changes = Ratings(db).history(viewer.account.id, HISTORY_POINTS)
    with Session(db.engine) as s:
        public = set(
            s.scalars(
                select(TableRow.id).where(TableRow.id.in_({c.table_id for c in changes}), TableRow.public.is_(True))
            )
        )
    graph: dict[str, list[dict]] = {}
    for c in changes:
        graph.setdefault(c.family, []).append(
            {
                "at": iso(c.at),
                "before": c.before,
                "rating": c.after,
                "provisional": c.provisional,
                "table": c.table_id if viewer.own or c.table_id in public else None,
            }
        )
    return graph


def profile(db: Database, viewer: Viewer, limit: int, before: Key | None) -> dict[str, Any]:
    """Everything ``GET /api/players/{username}`` answers, read in one worker thread."""
    stats = SeatStats(db)
    pending = stats.fill(viewer.account.id, FILL_PER_VISIT)
    games, following = games_page(db, viewer, limit, before)
    return {
        "username": viewer.account.username,
        "since": iso(viewer.account.created),
        "own": viewer.own,
        "ratings": ratings_entry(Ratings(db).of(viewer.account.id)),
        "graph": _graph(db, viewer),
        "totals": stats.totals(viewer.account.id),
        "uncounted": pending,
        "games": games,
        "next": following,
        **of_profile(db, viewer.account.id),
    }


def leaders(accounts: Accounts, family: str, limit: int) -> list[dict[str, Any]]:
    """The family's active, settled players, best first; equal ratings share a rank."""
    with Session(accounts.engine) as s:
        rows = s.execute(
            select(RatingRow, AccountRow.username)
            .join(AccountRow, AccountRow.id == RatingRow.account_id)
            .where(
                RatingRow.family == family,
                RatingRow.updated >= now() - timedelta(days=ACTIVE_DAYS),
                RatingRow.sigma < SETTLED_SIGMA,
                RatingRow.matches >= SETTLED_MATCHES,
            )
            .order_by(RatingRow.mu.desc(), AccountRow.username_key)
            .limit(limit)
        ).all()
    out: list[dict[str, Any]] = []
    for row, username in rows:
        rating = Rating(row.mu, row.sigma, row.matches).display
        rank = out[-1]["rank"] if out and out[-1]["rating"] == rating else len(out) + 1
        out.append(
            {"rank": rank, "username": username, "rating": rating, "games": row.matches, "last": _day(row.updated)}
        )
    return out


def _day(at: datetime) -> str:
    return at.date().isoformat()
