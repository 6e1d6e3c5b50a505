"""games.ruleset and games.ruleset_version; games.scenario_id may be NULL

A game row names the engine ruleset that plays it (``engine.core.ruleset`` registry).
Old rows: mode ``1v1`` -> ``m44``; modes ``team`` / ``overlord`` -> ``overlord``.
Rulesets whose set-up is played as actions (``setup == "none"``) have no scenario.

Revision ID: 0004_layers
Revises: 0003
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0004_layers"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("ruleset", sa.String(length=32), nullable=False, server_default="m44")
        )
        batch_op.add_column(
            sa.Column("ruleset_version", sa.String(length=16), nullable=False, server_default="1")
        )
        batch_op.alter_column("scenario_id", existing_type=sa.String(length=80), nullable=True)
    op.execute("UPDATE games SET ruleset = 'overlord' WHERE mode IN ('team', 'overlord')")
    op.execute("UPDATE games SET ruleset = 'm44' WHERE mode NOT IN ('team', 'overlord')")


def downgrade() -> None:
    op.execute("DELETE FROM games WHERE scenario_id IS NULL")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.alter_column("scenario_id", existing_type=sa.String(length=80), nullable=False)
        batch_op.drop_column("ruleset_version")
        batch_op.drop_column("ruleset")
