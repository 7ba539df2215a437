"""The database's revisions (Alembic): ``versions/`` holds one file per change of the schema, in order.

They are run by :mod:`millebornes.web.db.schema` (at ``serve`` start, under a lock, or by ``millebornes db
upgrade``), configured there in code: no ``alembic.ini`` and no ``env.py``.  A change to a domain's models (its
rows on :class:`..base.Base`) comes with a new revision here; tests/web/db/test_migrations.py checks that the revisions
make exactly the models' schema.
"""
