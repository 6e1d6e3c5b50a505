"""Rating rows and the games already applied to them."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from ..models import ActionRow, Identity, Rating


async def ratings_of(
    session: AsyncSession, identity_ids: list[str], ruleset: str
) -> dict[str, Rating]:
    res = await session.execute(
        select(Rating).where(Rating.identity_id.in_(identity_ids), Rating.ruleset == ruleset)
    )
    return {r.identity_id: r for r in res.scalars()}


async def has_undo(session: AsyncSession, game_id: str) -> bool:
    """Whether the game's log holds an ``undo`` entry (``engine.meta``)."""
    res = await session.execute(
        select(ActionRow.action).where(ActionRow.game_id == game_id, ActionRow.seat != "chance")
    )
    return any(isinstance(a, dict) and a.get("type") == "undo" for a in res.scalars())


async def leaderboard(session: AsyncSession, ruleset: str, limit: int) -> list[tuple[Rating, str]]:
    res = await session.execute(
        select(Rating, Identity.name)
        .join(Identity, Identity.id == Rating.identity_id)
        .where(Rating.ruleset == ruleset, Rating.games > 0)
        .order_by(Rating.rating.desc(), Identity.name)
        .limit(limit)
    )
    return [(r, n) for r, n in res.all()]


async def all_of(session: AsyncSession, identity_id: str) -> list[Rating]:
    res = await session.execute(
        select(Rating).where(Rating.identity_id == identity_id).order_by(Rating.ruleset)
    )
    return list(res.scalars())
