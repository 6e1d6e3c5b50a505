from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from ..models import Identity


async def by_token_hash(session: AsyncSession, token_hash: str) -> Identity | None:
    res = await session.execute(select(Identity).where(Identity.token_hash == token_hash))
    return res.scalar_one_or_none()


async def add(session: AsyncSession, identity: Identity) -> Identity:
    session.add(identity)
    await session.flush()
    return identity
