"""Replays, return matches and their pages (docs/protocol.md "Replays and matches")."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from ..errors import AppError
from ..games import service as games
from ..pages.endpoints import render
from ..security import CurrentIdentity, OptionalIdentity, SessionDep
from . import service

router = APIRouter(tags=["replays"])


@router.get("/api/games/{game_id}/replay")
async def game_replay(game_id: str, session: SessionDep) -> dict[str, Any]:
    """A finished game step by step: one step per player entry (with its dice), its
    events and the public view after it (409 ``game_not_finished`` while it runs);
    ``verify_url``: the dice verification page of a game with a dice commitment."""
    return await service.replay(session, game_id)


@router.get("/api/games/{game_id}/match")
async def match(game_id: str, session: SessionDep, request: Request) -> dict[str, Any]:
    """The match a game belongs to (itself and its return match): medals summed per
    player, the winner (ties: games won, then a draw)."""
    return await service.match(session, request.app.state.hub.registry, game_id)


def _page(request: Request, me: Any, name: str, **ctx: Any) -> Response:
    return render(request, name, {"identity": {"id": me.id, "name": me.name} if me else None,
                                  "api_base": "/api", **ctx})


@router.get("/games/{game_id}/replay", response_class=HTMLResponse, include_in_schema=False)
async def replay_page(game_id: str, request: Request, session: SessionDep,
                      me: OptionalIdentity) -> Response:
    try:
        game = await games.get_game(session, game_id)
    except AppError:
        return _page(request, me, "lobby.html", error="game_not_found")
    return _page(request, me, "replay.html", game_id=game_id, scenario_name=game.scenario_name)


@router.get("/matches/{game_id}", response_class=HTMLResponse, include_in_schema=False)
async def match_page(game_id: str, request: Request, session: SessionDep,
                     me: OptionalIdentity) -> Response:
    try:
        await games.get_game(session, game_id)
    except AppError:
        return _page(request, me, "lobby.html", error="game_not_found")
    return _page(request, me, "match.html", game_id=game_id)
