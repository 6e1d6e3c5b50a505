"""The language an account reads (its e-mails and notifications): the page language of
its last sign-in, registration, address change or switch in the header.

Revision ID: 0010_identity_lang
Revises: 0009_accounts
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_identity_lang"
down_revision: str | None = "0009_accounts"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("identities") as batch:
        batch.add_column(sa.Column("lang", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("identities") as batch:
        batch.drop_column("lang")
