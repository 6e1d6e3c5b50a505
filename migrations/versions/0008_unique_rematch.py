"""games.rematch_of unique: one return match per finished game (two concurrent
``POST /rematch`` used to create two).  Campaign battles are already unique per
(campaign, index) (``uq_campaign_battle``, 0005).  Duplicates left by the race are
unlinked first (the oldest return match keeps the link; the others stay plain games).

Revision ID: 0008_unique_rematch
Revises: 0007_seat_bot_level
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op


revision: str = "0008_unique_rematch"
down_revision: str | None = "0007_seat_bot_level"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("""
        UPDATE games SET rematch_of = NULL
        WHERE rematch_of IS NOT NULL AND id <> (
            SELECT g2.id FROM games g2 WHERE g2.rematch_of = games.rematch_of
            ORDER BY g2.created_at, g2.id LIMIT 1)
    """)
    op.create_index("uq_games_rematch_of", "games", ["rematch_of"], unique=True)


def downgrade() -> None:
    op.drop_index("uq_games_rematch_of", table_name="games")
