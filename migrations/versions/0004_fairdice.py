"""fair dice (seed commitment), JSON snapshots, canonical log rows, unplayable games

* ``games``: ``seed_secret`` / ``seed_salt`` (hex; revealed when the game ends),
  ``commitment`` (SHA-256(seed || salt), public) and ``unplayable`` (why a game's log no
  longer replays, when it is found so).  Existing games keep their integer ``seed`` (the
  engine RNG seed) and have no commitment.  (The ruleset and its version per game:
  ``0004_layers``.)
* ``snapshots``: every row of an older release is a Python pickle; they are deleted
  (never unpickled: the log alone rebuilds each game, and the next snapshot is JSON).
* ``actions`` (games of the ``m44`` / ``overlord`` rulesets, the only ones before this
  revision): each row is rewritten in the engine's canonical form where it differs
  (keys the engine never read are dropped: ``engine.rulesets.m44.action_schema``), so a poisoned row
  of an older release (deeply nested or huge junk fields) no longer breaks reading the
  log.  Values are checked again when the game is loaded (``normalise_logged``).

Revision ID: 0004_fairdice
Revises: 0004_layers
Create Date: 2026-11-25
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_fairdice"
down_revision: str | None = "0004_layers"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_actions = sa.table("actions", sa.column("id", sa.Integer), sa.column("action", sa.JSON))


def _canonical_rows() -> None:
    from engine.rulesets.m44.action_schema import SCHEMA

    bind = op.get_bind()
    rows = bind.execute(
        sa.text(
            "SELECT a.id, CAST(a.action AS TEXT) FROM actions a JOIN games g ON g.id = a.game_id"
            " WHERE g.ruleset IN ('m44', 'overlord')"
        )
    ).all()
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 20000))  # rows nested ~1000 deep must parse
    try:
        for row_id, text in rows:
            try:
                action = json.loads(text)
            except (ValueError, RecursionError, TypeError):
                continue  # reported when the game is loaded
            if not isinstance(action, dict) or action.get("type") not in SCHEMA:
                continue
            keep = {"type", "seat", *(name for name, _, _ in SCHEMA[action["type"]])}
            clean = {k: v for k, v in action.items() if k in keep}
            if clean != action:
                bind.execute(
                    sa.update(_actions).where(_actions.c.id == row_id).values(action=clean)
                )
    finally:
        sys.setrecursionlimit(old_limit)


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("seed_secret", sa.String(length=128), nullable=True))
        batch_op.add_column(sa.Column("seed_salt", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("commitment", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("unplayable", sa.JSON(), nullable=True))
    op.execute("DELETE FROM snapshots")
    _canonical_rows()


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("unplayable")
        batch_op.drop_column("commitment")
        batch_op.drop_column("seed_salt")
        batch_op.drop_column("seed_secret")
