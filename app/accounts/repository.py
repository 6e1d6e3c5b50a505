"""Account rows: identities by normalised name, push subscriptions."""

from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from ..models import Identity, PushSubscription


async def by_name_key(session: AsyncSession, key: str) -> Identity | None:
    res = await session.execute(select(Identity).where(Identity.name_key == key))
    return res.scalar_one_or_none()


async def push_subscriptions(session: AsyncSession, identity_id: str) -> list[PushSubscription]:
    res = await session.execute(
        select(PushSubscription).where(PushSubscription.identity_id == identity_id)
    )
    return list(res.scalars())


async def drop_push(session: AsyncSession, endpoint: str, identity_id: str | None = None) -> int:
    stmt = delete(PushSubscription).where(PushSubscription.endpoint == endpoint)
    if identity_id is not None:
        stmt = stmt.where(PushSubscription.identity_id == identity_id)
    res = await session.execute(stmt)
    return int(res.rowcount)  # type: ignore[attr-defined]
