"""Ratings (docs/web-api.md, "Ratings"): ``tables.rated``, a table whose finished match rates its accounts;
``ratings``, an account's rating per edition family; ``rating_changes``, what each rated match did to each
account's rating (the rating graph, and the proof that a match was rated once).

Older rows get ``rated`` false: there were no rated tables.  The column is added in place (``ALTER TABLE ... ADD
COLUMN``, never a copy of the table); a database made from this version's models without revisions has all of it
already: kept.
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

_FALSE = {"sqlite": "BOOLEAN NOT NULL DEFAULT 0", "postgresql": "BOOLEAN NOT NULL DEFAULT FALSE"}


def upgrade() -> None:
    bind = op.get_bind()
    inspector = sa.inspect(bind)
    tables = set(inspector.get_table_names())
    if "rated" not in {c["name"] for c in inspector.get_columns("tables")}:
        op.execute(f"ALTER TABLE tables ADD COLUMN rated {_FALSE.get(bind.dialect.name, _FALSE['postgresql'])}")
    if "ratings" not in tables:
        op.create_table(
            "ratings",
            sa.Column("account_id", sa.String(16), nullable=False),
            sa.Column("family", sa.String(32), nullable=False),
            sa.Column("mu", sa.Float(), nullable=False),
            sa.Column("sigma", sa.Float(), nullable=False),
            sa.Column("matches", sa.Integer(), nullable=False),
            sa.Column("updated", sa.DateTime(), nullable=False),
            sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
            sa.PrimaryKeyConstraint("account_id", "family"),
        )
        op.create_index("ix_ratings_family_updated", "ratings", ["family", "updated"])
    if "rating_changes" not in tables:
        op.create_table(
            "rating_changes",
            sa.Column("table_id", sa.String(16), nullable=False),
            sa.Column("account_id", sa.String(16), nullable=False),
            sa.Column("family", sa.String(32), nullable=False),
            sa.Column("before", sa.Integer(), nullable=False),
            sa.Column("after", sa.Integer(), nullable=False),
            sa.Column("mu", sa.Float(), nullable=False),
            sa.Column("sigma", sa.Float(), nullable=False),
            sa.Column("at", sa.DateTime(), nullable=False),
            sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
            sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
            sa.PrimaryKeyConstraint("table_id", "account_id"),
        )
        op.create_index("ix_rating_changes_account_id", "rating_changes", ["account_id"])


def downgrade() -> None:
    op.drop_table("rating_changes")
    op.drop_table("ratings")
    op.execute("ALTER TABLE tables DROP COLUMN rated")
