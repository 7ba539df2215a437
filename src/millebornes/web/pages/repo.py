"""The builds of the pages' files kept in the database, so that every server process answers for every build the
others serve (docs/deploy.md, "Rolling upgrades").

Each process records its own build at start (:meth:`Builds.record`), before it listens: one row, its files in a
zip (some 130 KB), written once per build, its ``recorded`` time renewed at each start of it.  Only the
:data:`KEEP` builds started last are kept.  A process asked for a build not its own reads it back whole
(:meth:`Builds.load`) and serves it only if its files hash to its id again.
"""

from __future__ import annotations

import io
import logging
import zipfile
from datetime import datetime

from sqlalchemy import DateTime, LargeBinary, String, delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from ..db.base import Base, now, rowcount
from ..db.database import Database
from .assets import Build, build_of, is_safe

log = logging.getLogger("millebornes.web")

KEEP = 4
"""Builds kept: the one running and those started just before it (a rolling upgrade needs the last one; the
others cover a quick succession of upgrades and a rollback)."""


class BuildRow(Base):
    """A build of the pages' files: ``files``, a zip of every asset by its path under the static folder."""

    __tablename__ = "static_builds"

    id: Mapped[str] = mapped_column(String(12), primary_key=True)
    recorded: Mapped[datetime] = mapped_column(DateTime)
    """When a process serving it last started."""
    files: Mapped[bytes] = mapped_column(LargeBinary)


def packed(build: Build) -> bytes:
    """The build's files in a zip, each with its media type as its comment."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for path in sorted(build.files):
            info = zipfile.ZipInfo(path)
            info.comment = build.files[path].media_type.encode()
            z.writestr(info, build.files[path].body, zipfile.ZIP_DEFLATED)
    return out.getvalue()


def unpacked(data: bytes) -> Build:
    """A packed build read back whole, whatever version packed it: every file but an unsafe path (a suffix this
    version does not serve is still part of the build's id), each with the type its version served it with."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        infos = [i for i in z.infolist() if not i.is_dir() and is_safe(i.filename)]
        files = {i.filename: z.read(i) for i in infos}
        types = {i.filename: i.comment.decode("ascii", "replace") for i in infos if i.comment}
    return build_of(files, types)


class Builds:
    """The recorded builds, in short transactions."""

    def __init__(self, db: Database):
        self.engine = db.engine

    def record(self, build: Build) -> None:
        """Keep ``build`` (or renew its time), then let go of all but the :data:`KEEP` started last; a process never
        lets go of its own build, and records it again once if another's cut (on a list read before this renewal)
        took it."""
        for _ in range(2):
            with Session(self.engine) as s, s.begin():
                renewed = rowcount(s.execute(update(BuildRow).where(BuildRow.id == build.id).values(recorded=now())))
            if not renewed:
                try:
                    with Session(self.engine) as s, s.begin():
                        s.add(BuildRow(id=build.id, recorded=now(), files=packed(build)))
                except IntegrityError:  # another process of this build recorded it meanwhile
                    pass
            with Session(self.engine) as s, s.begin():
                kept = select(BuildRow.id).order_by(BuildRow.recorded.desc(), BuildRow.id).limit(KEEP)
                s.execute(delete(BuildRow).where(BuildRow.id.not_in(kept.scalar_subquery()), BuildRow.id != build.id))
            if build.id in self.ids():
                return

    def ids(self) -> set[str]:
        with Session(self.engine) as s:
            return set(s.scalars(select(BuildRow.id)))

    def load(self, build_id: str) -> Build | None:
        """The recorded build ``build_id``, or None: not recorded, or its files do not hash to it."""
        with Session(self.engine) as s:
            data = s.scalar(select(BuildRow.files).where(BuildRow.id == build_id))
        if data is None:
            return None
        build = unpacked(data)
        if build.id != build_id:
            log.error("the recorded build %s holds files of build %s; not served", build_id, build.id)
            return None
        return build
