"""Profiles (``/players/{name}``) and the inbox (``/inbox``), API and pages."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from ..errors import AppError, localized
from ..pages.endpoints import render, ruleset_titles
from ..security import CurrentIdentity, OptionalIdentity, SessionDep
from . import service

router = APIRouter(tags=["players"])


@router.get("/api/players/{name}")
async def profile(name: str, session: SessionDep, me: OptionalIdentity) -> dict[str, Any]:
    """An account's games (in progress, finished with replay links), results and
    ratings per rule system (``player_not_found`` 404)."""
    return await service.profile(session, name, me)


@router.get("/api/inbox")
async def inbox(session: SessionDep, me: CurrentIdentity) -> dict[str, Any]:
    """What waits for the caller: his turns, offers, campaign battles to start
    (``count``: the header's badge)."""
    return await service.inbox(session, me)


def _ctx(request: Request, me: Any, **ctx: Any) -> dict[str, Any]:
    return {
        "identity": {"id": me.id, "name": me.name} if me else None,
        "api_base": "/api",
        "ruleset_titles": ruleset_titles(request),
        **ctx,
    }


@router.get("/players/{name}", response_class=HTMLResponse, include_in_schema=False)
async def profile_page(
    name: str, request: Request, session: SessionDep, me: OptionalIdentity
) -> Response:
    try:
        data = await service.profile(session, name, me)
    except AppError as exc:
        error = localized(request, exc.code, exc.message)
        return render(request, "players.html", _ctx(request, me, page="profile", error=error), 404)
    return render(request, "players.html", _ctx(request, me, page="profile", profile=data))


@router.get("/inbox", response_class=HTMLResponse, include_in_schema=False)
async def inbox_page(request: Request, session: SessionDep, me: OptionalIdentity) -> Response:
    data = await service.inbox(session, me) if me else None
    return render(request, "players.html", _ctx(request, me, page="inbox", inbox=data))
