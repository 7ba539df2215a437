"""The schema as the server made it itself before there were revisions (``create_all``, then the columns
added since the first release, at every start).

On an empty database this makes the six tables.  A database made by that older code has some or all of
them and no version: each table it has is kept and gets the columns it lacks (with the value every older
row had: spectators allowed, private, no seat claimed, no clock, nobody stood in, no rematch), each it
lacks is made.  Either way it then stands at this revision.  Written out here rather than taken from the
models, so that a later change to the models does not change what this revision made.
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

_FALSE = {"sqlite": "BOOLEAN NOT NULL DEFAULT 0", "postgresql": "BOOLEAN NOT NULL DEFAULT FALSE"}
ADDED_COLUMNS = {
    "tables": {
        "spectators": {"sqlite": "BOOLEAN NOT NULL DEFAULT 1", "postgresql": "BOOLEAN NOT NULL DEFAULT TRUE"},
        "public": _FALSE,
        "clock": {"postgresql": "DOUBLE PRECISION NOT NULL DEFAULT 0", "sqlite": "FLOAT NOT NULL DEFAULT 0"},
        "grace": {"postgresql": "DOUBLE PRECISION NOT NULL DEFAULT 60", "sqlite": "FLOAT NOT NULL DEFAULT 60"},
        "standin": {"postgresql": "VARCHAR(16) NOT NULL DEFAULT 'medium'"},
        "clock_at": {"postgresql": "INTEGER"},
        "clock_deadline": {"postgresql": "TIMESTAMP WITHOUT TIME ZONE", "sqlite": "DATETIME"},
        "rematch": {"postgresql": "VARCHAR(16)"},
        "rematch_of": {"postgresql": "VARCHAR(16)"},
    },
    "seats": {"claimed": _FALSE, "standin": _FALSE},
    "actions": {"deadline": {"postgresql": "TIMESTAMP WITHOUT TIME ZONE", "sqlite": "DATETIME"}},
}
"""The columns the older code added at start to a database made before them (its ``ADDED_COLUMNS``)."""

INDEXES = {"tables": [("ix_tables_status", ["status"]), ("ix_tables_finished", ["finished"])]}


def _table_id() -> sa.Column:
    return sa.Column("table_id", sa.String(16), nullable=False)


def _cascade() -> sa.ForeignKeyConstraint:
    """A row of a table's goes with its table."""
    return sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE")


def _tables() -> dict[str, tuple]:
    """Each table's columns and constraints, in the order ``create_all`` made them."""
    return {
        "tables": (
            sa.Column("id", sa.String(16), nullable=False),
            sa.Column("ruleset", sa.String(32), nullable=False),
            sa.Column("options", sa.JSON(), nullable=False),
            sa.Column("players", sa.Integer(), nullable=False),
            sa.Column("teams", sa.Boolean(), nullable=False),
            sa.Column("seed", sa.BigInteger(), nullable=False),
            sa.Column("deck", sa.JSON(), nullable=True),
            sa.Column("cf_timeout", sa.Float(), nullable=False),
            sa.Column("status", sa.String(16), nullable=False),
            sa.Column("scores", sa.JSON(), nullable=True),
            sa.Column("winners", sa.JSON(), nullable=True),
            sa.Column("created", sa.DateTime(), nullable=False),
            sa.Column("finished", sa.DateTime(), nullable=True),
            sa.Column("spectators", sa.Boolean(), server_default=sa.true(), nullable=False),
            sa.Column("clock", sa.Float(), server_default=sa.text("0"), nullable=False),
            sa.Column("grace", sa.Float(), server_default=sa.text("60"), nullable=False),
            sa.Column("standin", sa.String(16), server_default=sa.text("'medium'"), nullable=False),
            sa.Column("clock_at", sa.Integer(), nullable=True),
            sa.Column("clock_deadline", sa.DateTime(), nullable=True),
            sa.Column("public", sa.Boolean(), server_default=sa.false(), nullable=False),
            sa.Column("rematch", sa.String(16), nullable=True),
            sa.Column("rematch_of", sa.String(16), nullable=True),
            sa.PrimaryKeyConstraint("id"),
        ),
        "actions": (
            _table_id(),
            sa.Column("n", sa.Integer(), nullable=False),
            sa.Column("seat", sa.Integer(), nullable=False),
            sa.Column("action", sa.String(40), nullable=False),
            sa.Column("time", sa.DateTime(), nullable=False),
            sa.Column("deadline", sa.DateTime(), nullable=True),
            sa.PrimaryKeyConstraint("table_id", "n"),
            _cascade(),
        ),
        "notes": (
            _table_id(),
            sa.Column("n", sa.Integer(), nullable=False),
            sa.Column("at", sa.Integer(), nullable=False),
            sa.Column("event", sa.JSON(), nullable=False),
            sa.Column("time", sa.DateTime(), nullable=False),
            sa.PrimaryKeyConstraint("table_id", "n"),
            _cascade(),
        ),
        "review_jobs": (
            _table_id(),
            sa.Column("owner", sa.String(16), nullable=False),
            sa.Column("done", sa.Integer(), nullable=False),
            sa.Column("total", sa.Integer(), nullable=False),
            sa.Column("failed", sa.Boolean(), nullable=False),
            sa.Column("beat", sa.DateTime(), nullable=False),
            sa.PrimaryKeyConstraint("table_id"),
            _cascade(),
        ),
        "reviews": (
            _table_id(),
            sa.Column("format", sa.String(32), nullable=False),
            sa.Column("worlds", sa.Integer(), nullable=False),
            sa.Column("seed", sa.BigInteger(), nullable=False),
            sa.Column("body", sa.Text(), nullable=False),
            sa.Column("created", sa.DateTime(), nullable=False),
            sa.PrimaryKeyConstraint("table_id"),
            _cascade(),
        ),
        "seats": (
            _table_id(),
            sa.Column("seat", sa.Integer(), nullable=False),
            sa.Column("kind", sa.String(8), nullable=False),
            sa.Column("level", sa.String(16), nullable=True),
            sa.Column("nickname", sa.String(64), nullable=True),
            sa.Column("token_hash", sa.String(64), nullable=True),
            sa.Column("joined", sa.Boolean(), nullable=False),
            sa.Column("standin", sa.Boolean(), server_default=sa.false(), nullable=False),
            sa.Column("claimed", sa.Boolean(), server_default=sa.false(), nullable=False),
            sa.PrimaryKeyConstraint("table_id", "seat"),
            _cascade(),
        ),
    }


def upgrade() -> None:
    bind = op.get_bind()
    found = sa.inspect(bind)
    have = set(found.get_table_names())
    for name, parts in _tables().items():  # "tables" first: the others refer to it
        if name not in have:
            op.create_table(name, *parts)
            for index, columns in INDEXES.get(name, []):
                op.create_index(index, name, columns)
            continue
        present = {c["name"] for c in found.get_columns(name)}
        for column, kinds in ADDED_COLUMNS.get(name, {}).items():
            if column not in present:
                kind = kinds.get(bind.dialect.name, kinds["postgresql"])
                op.execute(f"ALTER TABLE {name} ADD COLUMN {column} {kind}")
        indexed = {i["name"] for i in found.get_indexes(name)}
        for index, columns in INDEXES.get(name, []):
            if index not in indexed:
                op.create_index(index, name, columns)


def downgrade() -> None:
    for name in reversed(list(_tables())):
        op.drop_table(name)
