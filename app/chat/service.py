"""Chat: persisted per-game messages, checked against the channel policy."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from ..engine_api import Ruleset
from ..errors import Forbidden
from ..models import ChatMessage
from . import repository
from .policy import Actor, may_read_any, may_write, writer_for
from .schemas import ChatOut

MAX_TEXT = 1000


def to_out(m: ChatMessage) -> ChatOut:
    return ChatOut(
        id=m.id, channel=m.channel, seat=m.seat, name=m.name, text=m.text, ts=m.created_at
    )


def to_wire(m: ChatMessage) -> dict[str, Any]:
    return to_out(m).model_dump(mode="json")


async def post(
    session: AsyncSession,
    game_id: str,
    actor: Actor,
    identity_id: str | None,
    name: str,
    channel: str,
    text: str,
    view: dict[str, Any] | None,
    rules: Ruleset | None = None,
) -> ChatMessage:
    """Store a message of ``actor`` (``rules``: the game's ruleset, who reads ``view``)."""
    decision = may_write(actor, channel, view, rules)
    if not decision:
        raise Forbidden(decision.reason, code="chat_forbidden", reason=decision.reason)
    msg = ChatMessage(
        game_id=game_id,
        channel=channel,
        identity_id=identity_id,
        seat=actor.seat,
        name=name,
        text=text,
    )
    return await repository.add(session, msg)


async def post_as(
    session: AsyncSession,
    game_id: str,
    actors: list[Actor],
    identity_id: str | None,
    name: str,
    channel: str,
    text: str,
    view: dict[str, Any] | None,
    rules: Ruleset | None = None,
) -> ChatMessage:
    """Post for a connection playing these seats: the policy picks the writing seat (the
    C-in-C's rules bind whoever holds the C-in-C seat)."""
    actor, decision = writer_for(actors, channel, view, rules)
    if actor is None or not decision:
        raise Forbidden(decision.reason, code="chat_forbidden", reason=decision.reason)
    return await post(session, game_id, actor, identity_id, name, channel, text, view, rules)


def history_any(
    session: Session, game_id: str, actors: list[Actor], channels: list[str], limit: int = 100
) -> list[ChatMessage]:
    """The last ``limit`` messages of the channels any of these actors may read
    (synchronous: ``Database.read``)."""
    readable = [c for c in channels if may_read_any(actors, c)]
    return repository.recent(session, game_id, readable, limit)
