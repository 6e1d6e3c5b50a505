"""seats.bot_level: the level of the bot playing a seat (app.engine_api.bot_levels; null:
the default level)

Revision ID: 0007_seat_bot_level
Revises: 0006_snapshot_clock
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0007_seat_bot_level"
down_revision: str | None = "0006_snapshot_clock"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("bot_level", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("bot_level")
