"""``bots.accepts``: the tables a connected bot takes, from its hello (docs/web-api.md, "Bots online"), kept with
its connection so that a table made at any server process refuses a challenge outside them.

Older rows get null (any table): their connection's hello, if any, said nothing.  The column is added in place
(``ALTER TABLE ... ADD COLUMN``), never by copying the table; the older processes of a rolling upgrade ignore it.
A database made from this version's models without revisions has it already: kept.
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if "accepts" in {c["name"] for c in sa.inspect(op.get_bind()).get_columns("bots")}:
        return
    op.add_column("bots", sa.Column("accepts", sa.JSON(), nullable=True))


def downgrade() -> None:
    op.drop_column("bots", "accepts")
