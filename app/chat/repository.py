from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from ..models import ChatMessage


async def add(session: AsyncSession, msg: ChatMessage) -> ChatMessage:
    session.add(msg)
    await session.commit()
    return msg


def recent(
    session: Session, game_id: str, channels: Sequence[str], limit: int = 100
) -> list[ChatMessage]:
    """The last ``limit`` messages of these channels, oldest first (synchronous:
    ``Database.read``)."""
    if not channels:
        return []
    res = session.execute(
        select(ChatMessage)
        .where(ChatMessage.game_id == game_id, ChatMessage.channel.in_(list(channels)))
        .order_by(ChatMessage.id.desc())
        .limit(limit)
    )
    return list(reversed(list(res.scalars())))
