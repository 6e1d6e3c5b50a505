"""campaigns and campaign_battles (004 Simplified Campaign Rules)

Revision ID: 0005_campaigns
Revises: 0004_fairdice (chained after the fair-dice migration now on layers)
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0005_campaigns"
down_revision: str | None = "0004_hardening"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "campaigns",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("created_by", sa.String(length=32), nullable=True),
        sa.Column("scenarios", sa.JSON(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["created_by"], ["identities.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "campaign_battles",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("campaign_id", sa.String(length=32), nullable=False),
        sa.Column("index", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("dice", sa.JSON(), nullable=False),
        sa.Column("winner", sa.String(length=32), nullable=True),
        sa.Column("medals", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(["campaign_id"], ["campaigns.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("campaign_id", "index", name="uq_campaign_battle"),
    )
    op.create_index("ix_campaign_battles_campaign_id", "campaign_battles", ["campaign_id"])


def downgrade() -> None:
    op.drop_index("ix_campaign_battles_campaign_id", table_name="campaign_battles")
    op.drop_table("campaign_battles")
    op.drop_table("campaigns")
