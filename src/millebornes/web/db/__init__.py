"""The database's plumbing, shared by every domain: the engine and its connections, the schema and its migrations,
the backup, the one-file guard and the notices between processes.

:mod:`.database` (the engines, SQLite's pragmas, ping and notify, this process's origin); :mod:`.base` (the
rows' one ``Base``, the database's clock); :mod:`.schema` and :mod:`.migrations` (Alembic,
configured in code); :mod:`.backup` (an online copy of an SQLite file); :mod:`.onefile` (one process per SQLite
file); :mod:`.notices` and :mod:`.listener` (what processes tell each other through PostgreSQL).
"""
