from __future__ import annotations

from fastapi import APIRouter, Request

from ..errors import Forbidden
from ..security import OptionalIdentity, SessionDep
from .policy import Actor, may_read
from .schemas import ChatOut
from .service import history, to_out

router = APIRouter(prefix="/api/games", tags=["chat"])


@router.get("/{game_id}/chat", response_model=list[ChatOut])
async def read_chat(game_id: str, request: Request, session: SessionDep,
                    identity: OptionalIdentity, channel: str = "all") -> list[ChatOut]:
    """The last 100 messages of a channel the caller may read (players read as their
    first seat of the game; everyone else as a spectator)."""
    rt = await request.app.state.hub.registry.get(game_id)
    seats = rt.seats_of(identity.id) if identity else []
    info = rt.seats[seats[0]] if seats else None
    actor = Actor(seat=info.seat if info else None, side=info.side if info else None,
                  role=info.role if info else None, identified=identity is not None)
    decision = may_read(actor, channel)
    if not decision:
        raise Forbidden(decision.reason, code="chat_forbidden")
    return [to_out(m) for m in await history(session, game_id, actor, [channel], None)]
