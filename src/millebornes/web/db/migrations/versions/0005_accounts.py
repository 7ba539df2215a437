"""Accounts (docs/web-api.md, "Accounts"): ``accounts``, their sign-ins ``account_sessions``, and ``seats.account_id``,
the account a seat's player signed in to (none for a guest); their passkeys ``passkeys`` and the WebAuthn
challenges waiting for an answer ``passkey_challenges`` (docs/web-api.md, "Passkeys").

The new tables are made; the column is added in place (``ALTER TABLE ... ADD COLUMN``, never a copy of the
table: on SQLite a copy would take every action along through the foreign keys), with its index.  A database whose
tables were made from the models of this version without revisions (``create_all``) has them already: kept.
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    bind = op.get_bind()
    inspector = sa.inspect(bind)
    tables = set(inspector.get_table_names())
    if "accounts" not in tables:
        op.create_table(
            "accounts",
            sa.Column("id", sa.String(16), nullable=False),
            sa.Column("username", sa.String(32), nullable=False),
            sa.Column("username_key", sa.String(32), nullable=False),
            sa.Column("password_hash", sa.String(256), nullable=False),
            sa.Column("created", sa.DateTime(), nullable=False),
            sa.PrimaryKeyConstraint("id"),
        )
        op.create_index("ix_accounts_username_key", "accounts", ["username_key"], unique=True)
    if "account_sessions" not in tables:
        op.create_table(
            "account_sessions",
            sa.Column("token_hash", sa.String(64), nullable=False),
            sa.Column("account_id", sa.String(16), nullable=False),
            sa.Column("csrf", sa.String(64), nullable=False),
            sa.Column("created", sa.DateTime(), nullable=False),
            sa.Column("seen", sa.DateTime(), nullable=False),
            sa.Column("expires", sa.DateTime(), nullable=False),
            sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
            sa.PrimaryKeyConstraint("token_hash"),
        )
        op.create_index("ix_account_sessions_account_id", "account_sessions", ["account_id"])
        op.create_index("ix_account_sessions_expires", "account_sessions", ["expires"])
    if "passkeys" not in tables:
        op.create_table(
            "passkeys",
            sa.Column("id", sa.String(16), nullable=False),
            sa.Column("credential_id", sa.String(1366), nullable=False),
            sa.Column("account_id", sa.String(16), nullable=False),
            sa.Column("public_key", sa.LargeBinary(), nullable=False),
            sa.Column("sign_count", sa.BigInteger(), nullable=False),
            sa.Column("transports", sa.JSON(), nullable=False),
            sa.Column("name", sa.String(64), nullable=False),
            sa.Column("created", sa.DateTime(), nullable=False),
            sa.Column("last_used", sa.DateTime(), nullable=True),
            sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
            sa.PrimaryKeyConstraint("id"),
        )
        op.create_index("ix_passkeys_credential_id", "passkeys", ["credential_id"], unique=True)
        op.create_index("ix_passkeys_account_id", "passkeys", ["account_id"])
    if "passkey_challenges" not in tables:
        op.create_table(
            "passkey_challenges",
            sa.Column("id", sa.String(43), nullable=False),
            sa.Column("account_id", sa.String(16), nullable=True),
            sa.Column("challenge", sa.LargeBinary(), nullable=False),
            sa.Column("expires", sa.DateTime(), nullable=False),
            sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
            sa.PrimaryKeyConstraint("id"),
        )
        op.create_index("ix_passkey_challenges_account_id", "passkey_challenges", ["account_id"])
        op.create_index("ix_passkey_challenges_expires", "passkey_challenges", ["expires"])
    if "account_id" not in {c["name"] for c in inspector.get_columns("seats")}:
        op.execute("ALTER TABLE seats ADD COLUMN account_id VARCHAR(16)")
        op.create_index("ix_seats_account_id", "seats", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_seats_account_id", "seats")
    op.execute("ALTER TABLE seats DROP COLUMN account_id")
    op.drop_table("passkey_challenges")
    op.drop_table("passkeys")
    op.drop_table("account_sessions")
    op.drop_table("accounts")
