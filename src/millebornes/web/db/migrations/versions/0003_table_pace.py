"""``tables.pace``: how soon the table's bots move (``relaxed``, ``normal`` or ``fast``), chosen at its creation.

Older rows get ``normal``, the pace every table had before.  A database whose tables were made from the models
of this version without revisions (``create_all``, as a test or a tool may) has the column already: it is kept.
A plain ``ALTER TABLE`` (SQLite takes a column with a constant default so): a batch operation would copy the
table on SQLite, and dropping the old copy would delete every table's seats and actions with it (``ON DELETE
CASCADE``).
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if "pace" in {c["name"] for c in sa.inspect(op.get_bind()).get_columns("tables")}:
        return
    op.add_column("tables", sa.Column("pace", sa.String(8), server_default=sa.text("'normal'"), nullable=False))


def downgrade() -> None:
    op.drop_column("tables", "pace")
