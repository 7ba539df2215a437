"""Puzzles that grow from real games (docs/review.md, "A set that grows from real games"): ``puzzles``, a reviewed
table's inaccuracies and worse, one row a position (the seat's observation, the moves, the chances, the theme, the
source table and seat), bounded per game and in all (web/reviews/puzzle_repo.py).

Nothing is computed here: games reviewed before this revision add none, so the upgrade stays one quick statement.
A database made from this version's models without revisions has the table already: kept.
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if "puzzles" in sa.inspect(op.get_bind()).get_table_names():
        return
    op.create_table(
        "puzzles",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("table_id", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.Column("edition", sa.String(32), nullable=False),
        sa.Column("theme", sa.String(16), nullable=False),
        sa.Column("stake", sa.Float(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_puzzles_table_id", "puzzles", ["table_id"])
    op.create_index("ix_puzzles_stake", "puzzles", ["stake"])
    op.create_index("ix_puzzles_created", "puzzles", ["created"])


def downgrade() -> None:
    op.drop_table("puzzles")
