"""The database's revisions (Alembic): ``versions/`` holds one file per change of the schema, in order.

They are run by :mod:`millebornes.web.db.schema` (at ``serve`` start, under a lock, or by ``millebornes db
upgrade``), configured there in code: no ``alembic.ini`` and no ``env.py``.  A change to the models in
``web/db/store.py`` comes with a new revision here; tests/web/db/test_migrations.py checks that the revisions make
exactly the models' schema.
"""
