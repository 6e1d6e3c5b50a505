"""Offer rows."""

from __future__ import annotations

from sqlalchemy import or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from ..models import Offer, utcnow


async def get(session: AsyncSession, offer_id: str) -> Offer | None:
    return await session.get(Offer, offer_id)


async def for_rematch(session: AsyncSession, game_id: str) -> Offer | None:
    res = await session.execute(select(Offer).where(Offer.rematch_of == game_id))
    return res.scalar_one_or_none()


async def pending_of(session: AsyncSession, identity_id: str) -> list[Offer]:
    res = await session.execute(
        select(Offer)
        .where(
            Offer.status == "pending",
            or_(Offer.to_id == identity_id, Offer.from_id == identity_id),
        )
        .order_by(Offer.created_at.desc())
        .limit(200)
    )
    return list(res.scalars())


async def decide(
    session: AsyncSession,
    offer_id: str,
    status: str,
    *,
    to_id: str | None = None,
    from_id: str | None = None,
) -> bool:
    """Move a pending offer to ``status`` (only its addressee, or only its sender);
    False when it is no longer pending (someone decided first)."""
    stmt = update(Offer).where(Offer.id == offer_id, Offer.status == "pending")
    if to_id is not None:
        stmt = stmt.where(Offer.to_id == to_id)
    if from_id is not None:
        stmt = stmt.where(Offer.from_id == from_id)
    res = await session.execute(
        stmt.values(status=status, decided_at=utcnow()).execution_options(synchronize_session=False)
    )
    return bool(res.rowcount)  # type: ignore[attr-defined]


async def set_game(session: AsyncSession, offer_id: str, game_id: str) -> None:
    await session.execute(
        update(Offer)
        .where(Offer.id == offer_id)
        .values(game_id=game_id)
        .execution_options(synchronize_session=False)
    )
