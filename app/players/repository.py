"""The games an identity holds a seat in."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from ..models import Campaign, Game, Seat


async def games_of(
    session: AsyncSession, identity_id: str, statuses: tuple[str, ...], limit: int = 200
) -> list[Game]:
    res = await session.execute(
        select(Game)
        .where(
            Game.id.in_(select(Seat.game_id).where(Seat.identity_id == identity_id)),
            Game.status.in_(statuses),
        )
        .order_by(Game.updated_at.desc())
        .limit(limit)
    )
    return list(res.scalars())


async def active_campaigns(session: AsyncSession, limit: int = 200) -> list[Campaign]:
    res = await session.execute(
        select(Campaign)
        .where(Campaign.status == "active")
        .order_by(Campaign.created_at.desc())
        .limit(limit)
    )
    return list(res.scalars())
