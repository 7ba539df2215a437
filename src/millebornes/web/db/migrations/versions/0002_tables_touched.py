"""``tables.touched``: when a table was last found in use (a join, or a socket seen by a process's sweep), so
an idle playing table can expire and a restart loads only the tables a running server would still hold.

Older rows have none: their creation time stands for it (``coalesce(touched, created)``), so an abandoned
table from before this revision expires once it is old enough, like any other.  A database whose tables were
made from the models of this version without revisions (``create_all``, as a test or a tool may) has the
column already: it is kept.
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if "touched" in {c["name"] for c in sa.inspect(op.get_bind()).get_columns("tables")}:
        return
    with op.batch_alter_table("tables") as table:
        table.add_column(sa.Column("touched", sa.DateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as table:
        table.drop_column("touched")
