"""remote play: turn clocks (games.clock, games.started_at) and return matches
(games.rematch_of)

Revision ID: 0004_remote
Revises: 0004_fairdice
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0004_remote"
down_revision: str | None = "0004_fairdice"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("clock", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("started_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("rematch_of", sa.String(length=32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("rematch_of")
        batch_op.drop_column("started_at")
        batch_op.drop_column("clock")
