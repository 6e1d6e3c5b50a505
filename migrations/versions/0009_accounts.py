"""Accounts, offers, notifications and ratings (issue 39): identities gain an account
(a unique normalised name, a password hash, an optional verified e-mail, notification
switches); games are rated or casual; offers (return matches, challenges), notices sent,
Web Push subscriptions, ratings and the games applied to them.

Revision ID: 0009_accounts
Revises: 0008_unique_rematch
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009_accounts"
down_revision: str | None = "0008_unique_rematch"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _ts(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _ident(name: str, **kw: object) -> sa.Column:
    return sa.Column(
        name,
        sa.String(32),
        sa.ForeignKey("identities.id", ondelete="CASCADE"),
        nullable=False,
        **kw,
    )


def upgrade() -> None:
    with op.batch_alter_table("identities") as batch:
        batch.add_column(sa.Column("name_key", sa.String(40), nullable=True))
        batch.add_column(sa.Column("password_hash", sa.String(255), nullable=True))
        batch.add_column(_ts("registered_at", nullable=True))
        batch.add_column(sa.Column("email", sa.String(254), nullable=True))
        batch.add_column(
            sa.Column(
                "email_verified",
                sa.Boolean(),
                nullable=False,
                server_default=sa.false(),
            )
        )
        batch.add_column(sa.Column("notify", sa.JSON(), nullable=True))
        batch.create_unique_constraint("uq_identities_name_key", ["name_key"])
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_table(
        "offers",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        _ident("from_id", index=True),
        _ident("to_id", index=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("spec", sa.JSON(), nullable=False),
        sa.Column("rematch_of", sa.String(32), nullable=True, unique=True),
        sa.Column("game_id", sa.String(32), nullable=True),
        _ts("created_at"),
        _ts("decided_at", nullable=True),
    )
    op.create_table(
        "notices",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _ident("identity_id"),
        sa.Column("kind", sa.String(24), nullable=False),
        sa.Column("key", sa.String(120), nullable=False),
        _ts("created_at"),
        sa.UniqueConstraint("identity_id", "kind", "key", name="uq_notices_key"),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _ident("identity_id", index=True),
        sa.Column("endpoint", sa.String(500), nullable=False, unique=True),
        sa.Column("p256dh", sa.String(200), nullable=False),
        sa.Column("auth", sa.String(100), nullable=False),
        _ts("created_at"),
    )
    op.create_table(
        "ratings",
        _ident("identity_id", primary_key=True),
        sa.Column("ruleset", sa.String(32), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("vol", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        _ts("updated_at"),
    )
    op.create_index("ix_ratings_ruleset_rating", "ratings", ["ruleset", "rating"])
    op.create_table(
        "rated_games",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("reason", sa.String(40), nullable=True),
        sa.Column("changes", sa.JSON(), nullable=False),
        _ts("created_at"),
    )


def downgrade() -> None:
    for table in ("rated_games", "ratings", "push_subscriptions", "notices", "offers"):
        op.drop_table(table)
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rated")
    with op.batch_alter_table("identities") as batch:
        batch.drop_constraint("uq_identities_name_key", type_="unique")
        for col in (
            "notify",
            "email_verified",
            "email",
            "registered_at",
            "password_hash",
            "name_key",
        ):
            batch.drop_column(col)
