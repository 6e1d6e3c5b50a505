from __future__ import annotations

from fastapi import APIRouter, Query, Request

from ..errors import Forbidden
from ..games.privacy import require_watch
from ..security import OptionalIdentity
from .policy import Actor, may_read_any
from .schemas import ChatOut
from .service import history_any, to_out

router = APIRouter(prefix="/api/games", tags=["chat"])


@router.get("/{game_id}/chat", response_model=list[ChatOut])
async def read_chat(
    game_id: str,
    request: Request,
    identity: OptionalIdentity,
    channel: str = Query("all", max_length=40),
    invite: str | None = Query(None, max_length=64),
) -> list[ChatOut]:
    """The last 100 messages of a channel the caller may read (players read as any of
    their seats of the game; everyone else as a spectator)."""
    rt = await request.app.state.games.registry.get(game_id)
    require_watch(rt, identity.id if identity else None, invite)
    seats = rt.seats_of(identity.id) if identity else []
    actors = [
        Actor(seat=i.seat, side=i.side, role=i.role, identified=True)
        for i in (rt.seats[s] for s in seats)
    ] or [Actor(seat=None, side=None, role=None, identified=identity is not None)]
    decision = may_read_any(actors, channel)
    if not decision:
        raise Forbidden(decision.reason, code="chat_forbidden")
    return [
        to_out(m) for m in await request.app.state.db.read(history_any, game_id, actors, [channel])
    ]
