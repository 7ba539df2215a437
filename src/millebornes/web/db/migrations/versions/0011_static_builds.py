"""The builds of the pages' files (docs/deploy.md, "Rolling upgrades"): ``static_builds``, one row a build, its
files in a zip, written by the first process of that build to start, so that every process answers for the
builds the others serve (web/pages/repo.py).

A new table only: the older processes of a rolling upgrade ignore it.  A database made from this version's models
without revisions has the table already: kept.
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if "static_builds" in sa.inspect(op.get_bind()).get_table_names():
        return
    op.create_table(
        "static_builds",
        sa.Column("id", sa.String(12), nullable=False),
        sa.Column("recorded", sa.DateTime(), nullable=False),
        sa.Column("files", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )


def downgrade() -> None:
    op.drop_table("static_builds")
