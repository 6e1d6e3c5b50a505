"""hardening: scenario summaries stored at upload, login sessions (revocable tokens)

Revision ID: 0004_hardening
Revises: 0004_fairdice (written on 0003; chained when main was merged in)
Create Date: 2026-11-25

* ``scenarios.summary`` (JSON, nullable): the parsed summary (name, board, sides, modes,
  layouts) written once at upload, so listing scenarios never re-parses a file; rows of
  older versions have NULL and are summarised (and the result stored) on first listing.
* ``sessions``: one row per issued token (only its SHA-256), revocable (logout, the
  sessions list) and expiring.  Every existing identity's token becomes one session, so
  existing cookies keep working.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0004_hardening"
down_revision: str | None = (
    "0004_remote"  # chained at merge (0004_layers -> 0004_fairdice -> 0004_remote -> here)
)
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("scenarios", schema=None) as batch_op:
        batch_op.add_column(sa.Column("summary", sa.JSON(), nullable=True))
        batch_op.create_index("ix_scenarios_uploaded_by", ["uploaded_by"])
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(length=32), primary_key=True),
        sa.Column(
            "identity_id",
            sa.String(length=32),
            sa.ForeignKey("identities.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("token_hash", sa.String(length=64), nullable=False, unique=True),
        sa.Column("label", sa.String(length=120), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
    )
    # every existing token becomes a session (valid for the rest of its cookie's year)
    op.execute(
        "INSERT INTO sessions (id, identity_id, token_hash, label, created_at, expires_at) "
        "SELECT 's_' || substr(token_hash, 1, 24), id, token_hash, 'before 0004', created_at, "
        + (
            "created_at + interval '365 days'"
            if op.get_bind().dialect.name == "postgresql"
            else "datetime(created_at, '+365 days')"
        )
        + " FROM identities"
    )


def downgrade() -> None:
    op.drop_table("sessions")
    with op.batch_alter_table("scenarios", schema=None) as batch_op:
        batch_op.drop_index("ix_scenarios_uploaded_by")
        batch_op.drop_column("summary")
