"""Seat statistics (docs/web-api.md, "Profiles and leaderboards"): ``seat_stats``, what each seat of a finished table
did (won, coups fourrés, safe trips, shutouts, extensions taken and made, hands), one row per (table, seat),
written when the match finishes.

Nothing is computed here: a table finished before this revision is counted the first time a profile needs it
(web/ratings/stats_repo.py), so the upgrade stays one quick statement however many games the database holds.  A database
made from this version's models without revisions has the table already: kept.
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if "seat_stats" in sa.inspect(op.get_bind()).get_table_names():
        return
    op.create_table(
        "seat_stats",
        sa.Column("table_id", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("coups_fourres", sa.Integer(), nullable=False),
        sa.Column("safe_trips", sa.Integer(), nullable=False),
        sa.Column("shutouts", sa.Integer(), nullable=False),
        sa.Column("extensions_taken", sa.Integer(), nullable=False),
        sa.Column("extensions_made", sa.Integer(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("table_id", "seat"),
    )


def downgrade() -> None:
    op.drop_table("seat_stats")
