"""The leaderboard per rule system."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from ..engine_api import ruleset, rulesets
from ..pages.endpoints import render, ruleset_titles
from ..security import OptionalIdentity, SessionDep
from . import service

router = APIRouter(tags=["ratings"])


@router.get("/api/ratings/{ruleset_name}")
async def leaderboard(
    ruleset_name: str, session: SessionDep, limit: int = Query(100, ge=1, le=500)
) -> dict[str, Any]:
    """The accounts rated in a rule system, best first (``unknown_ruleset`` 422)."""
    rs = ruleset(ruleset_name[:32])  # EngineError -> 422
    return {
        "ruleset": rs.name,
        "title": rs.title,
        "players": await service.leaderboard(session, rs.name, limit),
    }


@router.get("/leaderboard", response_class=HTMLResponse, include_in_schema=False)
async def leaderboard_page(
    request: Request,
    session: SessionDep,
    me: OptionalIdentity,
    ruleset_name: str = Query("m44", alias="ruleset", max_length=32),
) -> Response:
    names = [r.name for r in rulesets()]
    chosen = ruleset_name if ruleset_name in names else "m44"
    return render(
        request,
        "players.html",
        {
            "identity": {"id": me.id, "name": me.name} if me else None,
            "api_base": "/api",
            "page": "leaderboard",
            "ruleset": chosen,
            "rulesets": names,
            "ruleset_titles": ruleset_titles(request),
            "players": await service.leaderboard(session, chosen),
        },
    )
