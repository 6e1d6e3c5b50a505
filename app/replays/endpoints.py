"""Replays, return matches and their pages (docs/protocol.md "Replays and matches")."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from ..errors import AppError
from ..games import service as games
from ..games.privacy import require_visible
from ..pages.endpoints import render
from ..ratelimit import address_key, check_shared
from ..security import OptionalIdentity, SessionDep
from . import service

router = APIRouter(tags=["replays"])


@router.get("/api/games/{game_id}/replay")
async def game_replay(
    game_id: str,
    session: SessionDep,
    request: Request,
    me: OptionalIdentity,
    invite: str | None = Query(None, max_length=64),
    start: int = Query(0, ge=0, le=10_000_000, alias="from"),
    limit: int = Query(service.REPLAY_PAGE, ge=1, le=service.REPLAY_PAGE),
) -> dict[str, Any]:
    """A finished game step by step: one step per player entry (with its dice), its
    events and the public view after it (409 ``game_not_finished`` while it runs), a page
    of steps at a time (``from``, ``limit``; ``next_from`` for the next page, None at the
    end; ``steps_total``); ``verify_url``: the dice verification page of a game with a
    dice commitment.  A private game: 404 ``game_not_found`` without a seat, its creator or
    ``?invite=``.  Rate-limited per client address (the rate limit ``replay``)."""
    await check_shared(
        request.app.state.settings.rate("replay"), "replay", address_key(request), "replay requests"
    )
    return await service.replay(session, game_id, me, invite, start, limit)


@router.get("/api/games/{game_id}/match")
async def match(
    game_id: str,
    session: SessionDep,
    request: Request,
    me: OptionalIdentity,
    invite: str | None = Query(None, max_length=64),
) -> dict[str, Any]:
    """The match a game belongs to (itself and its return match): medals summed per
    player, the winner (ties: games won, then a draw).  A private game: 404
    ``game_not_found`` without a seat, its creator or ``?invite=``."""
    return await service.match(session, request.app.state.games.registry, game_id, me, invite)


def _page(request: Request, me: Any, name: str, **ctx: Any) -> Response:
    return render(
        request,
        name,
        {"identity": {"id": me.id, "name": me.name} if me else None, "api_base": "/api", **ctx},
    )


async def _visible(session: SessionDep, game_id: str, me: Any, invite: str | None) -> Any:
    """The game, or None when unknown or private to the caller (its page: as unknown)."""
    try:
        game = await games.get_game(session, game_id)
        require_visible(game, me.id if me else None, invite)
    except AppError:
        return None
    return game


def _unknown(request: Request, me: Any) -> Response:
    return render(
        request,
        "lobby.html",
        {
            "identity": {"id": me.id, "name": me.name} if me else None,
            "api_base": "/api",
            "error": "game_not_found",
        },
        404,
    )


@router.get("/games/{game_id}/replay", response_class=HTMLResponse, include_in_schema=False)
async def replay_page(
    game_id: str,
    request: Request,
    session: SessionDep,
    me: OptionalIdentity,
    invite: str | None = Query(None, max_length=64),
) -> Response:
    game = await _visible(session, game_id, me, invite)
    if game is None:
        return _unknown(request, me)
    return _page(request, me, "replay.html", game_id=game_id, scenario_name=game.scenario_name)


@router.get("/matches/{game_id}", response_class=HTMLResponse, include_in_schema=False)
async def match_page(
    game_id: str,
    request: Request,
    session: SessionDep,
    me: OptionalIdentity,
    invite: str | None = Query(None, max_length=64),
) -> Response:
    if await _visible(session, game_id, me, invite) is None:
        return _unknown(request, me)
    return _page(request, me, "match.html", game_id=game_id)
