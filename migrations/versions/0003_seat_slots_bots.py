"""seat slots (layouts), bot stand-ins, presence and the bot-driver lease

Revision ID: 0003
Revises: 0002
Create Date: 2025-01-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("slot", sa.String(length=80), nullable=True))
        batch_op.add_column(sa.Column("bot_reason", sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column("last_seen", sa.DateTime(timezone=True), nullable=True))
    op.execute("UPDATE seats SET slot = seat WHERE slot IS NULL")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("layout", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("bot_owner", sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column("bot_lease_until", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("bot_lease_until")
        batch_op.drop_column("bot_owner")
        batch_op.drop_column("layout")
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("last_seen")
        batch_op.drop_column("bot_reason")
        batch_op.drop_column("slot")
