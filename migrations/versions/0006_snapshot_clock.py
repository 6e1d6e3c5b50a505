"""snapshots.clock: the turn clock's fold at the snapshot's seq (a cold start of a timed
game folds only the log rows after it, not every row)

Revision ID: 0006_snapshot_clock
Revises: 0005_campaigns
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0006_snapshot_clock"
down_revision: str | None = "0005_campaigns"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("snapshots") as batch:
        batch.add_column(sa.Column("clock", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("snapshots") as batch:
        batch.drop_column("clock")
