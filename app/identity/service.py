from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from ..models import Identity
from ..security import hash_token, new_id, new_token
from . import repository


async def create_guest(session: AsyncSession, name: str) -> tuple[Identity, str]:
    """A guest identity and its token (returned once; only the hash is stored)."""
    token = new_token()
    ident = Identity(id=new_id("i"), name=name, token_hash=hash_token(token))
    await repository.add(session, ident)
    await session.commit()
    return ident, token
