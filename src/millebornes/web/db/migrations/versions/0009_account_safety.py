"""Accounts a public server can trust (docs/web-api.md, "Accounts"): ``accounts.disabled`` (when an operator disabled
it, none while it may sign in) and ``accounts.signup_address`` (the address it was made from, for the operators'
list and the ratings' guard); each sign-in's public ``id`` (what the account page names a device by, never its
token), ``address`` and ``agent`` (what the page shows of where and on what it was made); ``signin_failures``, the
wrong passwords counted per address and per name and address, kept in the database so that every process
throttles alike; and ``account_devices``, the devices that signed in to an account before (a cookie), which
someone else's wrong guesses never lock out.

Columns are added in place; the sign-ins there already get an id each.  A database made from this version's models
without revisions has them already: kept.
"""

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    bind = op.get_bind()
    inspector = sa.inspect(bind)
    tables = set(inspector.get_table_names())
    accounts = {c["name"] for c in inspector.get_columns("accounts")}
    if "disabled" not in accounts:
        op.add_column("accounts", sa.Column("disabled", sa.DateTime(), nullable=True))
    if "signup_address" not in accounts:
        op.add_column("accounts", sa.Column("signup_address", sa.String(64), nullable=True))
        op.create_index("ix_accounts_signup_address", "accounts", ["signup_address"])
    sessions = {c["name"] for c in inspector.get_columns("account_sessions")}
    if "id" not in sessions:
        op.add_column("account_sessions", sa.Column("id", sa.String(16), nullable=True))
        op.add_column("account_sessions", sa.Column("address", sa.String(64), nullable=True))
        op.add_column("account_sessions", sa.Column("agent", sa.String(160), nullable=True))
        rows = bind.execute(sa.text("SELECT token_hash FROM account_sessions")).scalars().all()
        for token_hash in rows:
            bind.execute(
                sa.text("UPDATE account_sessions SET id = :id WHERE token_hash = :t"),
                {"id": secrets.token_hex(8), "t": token_hash},
            )
        op.create_index("ix_account_sessions_id", "account_sessions", ["id"], unique=True)
    if "signin_failures" not in tables:
        op.create_table(
            "signin_failures",
            sa.Column("key", sa.String(64), nullable=False),
            sa.Column("failures", sa.Integer(), nullable=False),
            sa.Column("last", sa.DateTime(), nullable=False),
            sa.Column("until", sa.DateTime(), nullable=True),
            sa.PrimaryKeyConstraint("key"),
        )
        op.create_index("ix_signin_failures_last", "signin_failures", ["last"])
    if "account_devices" not in tables:
        op.create_table(
            "account_devices",
            sa.Column("token_hash", sa.String(64), nullable=False),
            sa.Column("account_id", sa.String(16), nullable=False),
            sa.Column("created", sa.DateTime(), nullable=False),
            sa.Column("used", sa.DateTime(), nullable=False),
            sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
            sa.PrimaryKeyConstraint("token_hash"),
        )
        op.create_index("ix_account_devices_account_id", "account_devices", ["account_id"])
        op.create_index("ix_account_devices_used", "account_devices", ["used"])


def downgrade() -> None:
    op.drop_table("account_devices")
    op.drop_table("signin_failures")
    op.drop_index("ix_account_sessions_id", "account_sessions")
    op.drop_index("ix_accounts_signup_address", "accounts")
    for table, column in (
        ("account_sessions", "agent"),
        ("account_sessions", "address"),
        ("account_sessions", "id"),
        ("accounts", "signup_address"),
        ("accounts", "disabled"),
    ):
        op.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
