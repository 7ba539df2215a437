"""``tables.casual``: a move was taken back at the table (docs/web-api.md, "Taking back a move"), so the match is
casual, and a rating leaves it out.

Older rows get false: nothing could be taken back before.  The column is added in place (``ALTER TABLE ... ADD
COLUMN``, as the first revision adds its columns), never by copying the table.  A database whose tables were made
from the models of this version without revisions (``create_all``, as a test or a tool may) has it already: kept.
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_FALSE = {"sqlite": "BOOLEAN NOT NULL DEFAULT 0", "postgresql": "BOOLEAN NOT NULL DEFAULT FALSE"}


def upgrade() -> None:
    bind = op.get_bind()
    if "casual" in {c["name"] for c in sa.inspect(bind).get_columns("tables")}:
        return
    # ADD COLUMN in place: a batch would copy the table on SQLite, whose foreign keys would take every action along
    op.execute(f"ALTER TABLE tables ADD COLUMN casual {_FALSE.get(bind.dialect.name, _FALSE['postgresql'])}")


def downgrade() -> None:
    op.execute("ALTER TABLE tables DROP COLUMN casual")
