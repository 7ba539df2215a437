"""Players' profiles and the leaderboards (docs/web-api.md, "Profiles and leaderboards"): what a place players come
back to shows of each account, to anybody, and who leads each edition.

- ``GET /api/players/{username}``: the account's ratings per edition family with their graph's points, its
  totals (web/ratings/stats_repo.py counts each finished game once) and its games, newest first, a page at a time.  A
  private table's game is listed to the account itself only (its sign-in cookie says so); to anybody else it is
  neither listed nor named by a point of the graph, whose table would lead to its players' names.  The totals
  and the rating count every game, private ones too: they are numbers, which show no game.
- ``GET /api/leaderboard/{family}``: the active players (a rated match in the family within
  :data:`ACTIVE_DAYS`) whose rating is no longer provisional, best first, and the bots' anchored levels beside
  them as landmarks.

An unknown or deleted account is 404, as is a family that is not an edition; a bound overstepped is 422 and names
the field.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session

from ... import new_game
from ...rules import ruleset as get_ruleset
from ..accounts.repo import Account, AccountRow, Accounts
from ..accounts.routes import ratings_entry
from ..accounts.session import USERNAME
from ..accounts.signin import signed_in
from ..answers import unprocessable
from ..archive.routes import Key, cursor, read_cursor
from ..db.base import now
from ..db.database import Database
from ..deps import AccountsDep, DatabaseDep, SettingsDep
from ..tables.facts import iso
from ..tables.rows import FINISHED, SeatRow, TableRow
from .repo import RatingChangeRow, RatingRow, Ratings
from .skill import FAMILIES, SETTLED_MATCHES, SETTLED_SIGMA, Rating, bot_anchors
from .stats_repo import SeatStats

router = APIRouter()

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


def _missing(what: str) -> JSONResponse:
    return JSONResponse({"detail": f"no {what}", "code": "not-found"}, status_code=404)


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
    }


@router.get("/api/players/{username}")
async def player(
    username: str,
    request: Request,
    db: DatabaseDep,
    accounts: AccountsDep,
    settings: SettingsDep,
    limit: Annotated[int, Query(ge=1, le=GAMES_MAX)] = GAMES_DEFAULT,
    before: Annotated[str | None, Query(max_length=200)] = None,
):
    """A player's profile: public, but for the private games it lists to the account itself."""
    key = None
    if before is not None and (key := read_cursor(before)) is None:
        return unprocessable("before", "not a cursor this server gave")
    if not re.fullmatch(USERNAME, username):
        return _missing(f"player {username[:40]!r}")
    found = await asyncio.to_thread(accounts.credentials, username)
    if found is None:
        return _missing(f"player {username!r}")
    account = found[0]
    session = await signed_in(request, accounts, settings.limits.session_days)
    viewer = Viewer(account, session is not None and session.account.id == account.id)
    body = await asyncio.to_thread(profile, db, viewer, limit, key)
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


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


@router.get("/api/leaderboard/{family}")
async def leaderboard(
    family: str, accounts: AccountsDep, limit: Annotated[int, Query(ge=1, le=LEADERS_MAX)] = LEADERS_DEFAULT
):
    """The edition's leaderboard, with the bots' anchored ratings as landmarks."""
    if family not in FAMILIES:
        return _missing(f"edition {family[:40]!r}: the editions are {', '.join(FAMILIES)}")
    players = await asyncio.to_thread(leaders, accounts, family, limit)
    bots = [{"level": level, "rating": rating} for level, rating in bot_anchors(family).items()]
    return JSONResponse(
        {"family": family, "active_days": ACTIVE_DAYS, "players": players, "bots": bots},
        headers={"Cache-Control": "public, max-age=60"},
    )
