"""Bot accounts (docs/web-api.md, "Bots online"): ``bots``, the accounts that are programs, each with its owner (the
person's account that made it), the SHA-256 of its token (none once revoked), when it was made and last connected,
and ``connection``, the id of its live WebSocket, so that a second connection closes the first at whichever server
process it is.  A bot's own ``accounts`` row holds its username and ratings; its password hash opens nothing.

A database made from this version's models without revisions has the table already: kept.
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if "bots" in sa.inspect(op.get_bind()).get_table_names():
        return
    op.create_table(
        "bots",
        sa.Column("account_id", sa.String(16), nullable=False),
        sa.Column("owner_id", sa.String(16), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.Column("last_connected", sa.DateTime(), nullable=True),
        sa.Column("connection", sa.String(32), nullable=True),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["owner_id"], ["accounts.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("account_id"),
    )
    op.create_index("ix_bots_owner_id", "bots", ["owner_id"])
    op.create_index("ix_bots_token_hash", "bots", ["token_hash"], unique=True)


def downgrade() -> None:
    op.drop_table("bots")
