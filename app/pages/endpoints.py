"""Server-rendered pages (templates/ and static/ belong to the browser client).

Context variables are the contract in docs/protocol.md, section "Pages".
"""

from __future__ import annotations

from typing import Any

from urllib.parse import quote

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from .. import i18n
from ..engine_api import VERDICT_TEXT, rulesets
from ..errors import AppError, NotFound, localized
from ..games import service as games
from ..games.privacy import require_visible
from ..ratelimit import address_key, check_shared
from ..security import OptionalIdentity, SessionDep
from ..settings import TEMPLATES_DIR
from ..tutorial import tutorial_of

router = APIRouter(include_in_schema=False)

PLACEHOLDER = """<!doctype html><html><head><meta charset="utf-8"><title>Overlord</title></head>
<body><h1>Overlord</h1><p>The page template <code>{name}</code> is not installed yet.</p>
<pre>{context}</pre></body></html>"""


def ruleset_titles(request: Request) -> dict[str, str]:
    """Each rule system's title in the request's language (the pages that list games)."""
    gettext = i18n.gettext_for(i18n.language_of(request))
    return {rs.name: str(gettext(rs.title)) for rs in rulesets()}


def render(request: Request, name: str, context: dict[str, Any], status: int = 200) -> Response:
    templates: Jinja2Templates | None = request.app.state.templates
    if templates is not None and (TEMPLATES_DIR / name).is_file():
        return templates.TemplateResponse(request, name, context, status_code=status)
    shown = {k: v for k, v in context.items() if k != "request"}
    return HTMLResponse(PLACEHOLDER.format(name=name, context=shown), status_code=status)


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request, me: OptionalIdentity) -> Response:
    return render(
        request,
        "lobby.html",
        {"identity": {"id": me.id, "name": me.name} if me else None, "api_base": "/api"},
    )


@router.get("/games/{game_id}", response_class=HTMLResponse)
async def game_page(
    game_id: str,
    request: Request,
    session: SessionDep,
    me: OptionalIdentity,
    invite: str | None = None,
) -> Response:
    try:
        game = await games.get_game(session, game_id)
    except AppError:
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
    seat = next((s.seat for s in game.seats if me and s.identity_id == me.id), None)
    ws_path = f"/ws/games/{game_id}"
    scheme = "wss" if request.url.scheme == "https" else "ws"
    return render(
        request,
        "game.html",
        {
            "game_id": game_id,
            "ws_url": ws_path,
            "ws_absolute_url": f"{scheme}://{request.url.netloc}{ws_path}",
            "identity": {"id": me.id, "name": me.name} if me else None,
            "seat": seat,
            "invite": invite,
            "scenario_name": game.scenario_name,
            "api_base": "/api",
            "ruleset": game.ruleset,
            "renderer": games.renderer_of(game.ruleset),
            "tutorial": tutorial_of(game.scenario_id),
            "rules_title": games.title_of(game.ruleset),
            "mode": game.mode,
            "help_url": f"/help/{game.ruleset}" if game.ruleset in HELP_PAGES else None,
        },
    )


#: the rules help page of each rule system that has one (the game page links it)
HELP_PAGES = {
    "m44": "help.html",
    "overlord": "help.html",
    "fastplay": "help_fastplay.html",
}


async def _help(request: Request, me: Any, ruleset: str) -> Response:
    return render(
        request,
        HELP_PAGES[ruleset],
        {
            "identity": {"id": me.id, "name": me.name} if me else None,
            "api_base": "/api",
            "rules": ruleset,
        },
    )


@router.get("/help/m44", response_class=HTMLResponse)
async def help_m44(request: Request, me: OptionalIdentity) -> Response:
    """The standard game's rules in short (the tutorial links it), in the reader's language."""
    return await _help(request, me, "m44")


@router.get("/help/overlord", response_class=HTMLResponse)
async def help_overlord(request: Request, me: OptionalIdentity) -> Response:
    """What Overlord changes (002): the Commander-in-Chief, the Field Generals, the visit,
    initiative, in the reader's language."""
    return await _help(request, me, "overlord")


@router.get("/help/fastplay", response_class=HTMLResponse)
async def help_fastplay(request: Request, me: OptionalIdentity) -> Response:
    """Fast Play '44's rules in short (the game page's Fast Play help panel, in full)."""
    return await _help(request, me, "fastplay")


@router.get("/campaigns", response_class=HTMLResponse)
async def campaigns_page(request: Request, me: OptionalIdentity) -> Response:
    """Campaigns: the list, a form to start one (004 Simplified Campaign Rules)."""
    return render(
        request,
        "campaign.html",
        {
            "identity": {"id": me.id, "name": me.name} if me else None,
            "api_base": "/api",
            "campaign_id": None,
        },
    )


@router.get("/campaigns/{campaign_id}", response_class=HTMLResponse)
async def campaign_page(campaign_id: str, request: Request, me: OptionalIdentity) -> Response:
    """One campaign: standings, battles and the next battle (fetched by the page)."""
    return render(
        request,
        "campaign.html",
        {
            "identity": {"id": me.id, "name": me.name} if me else None,
            "api_base": "/api",
            "campaign_id": campaign_id,
        },
    )


@router.get("/games/{game_id}/verify", response_class=HTMLResponse)
async def verify_page(
    game_id: str,
    request: Request,
    session: SessionDep,
    me: OptionalIdentity,
    invite: str | None = Query(None, max_length=64),
) -> Response:
    """ "Verify dice": the commitment, the revealed seed and salt, and the engine's check of
    the finished game's log (the same as ``python -m engine verify LOG.json``).  A private
    game: 404 as an unknown game without a seat, its creator or ``?invite=``.
    Rate-limited per client address (the rate limit ``replay``)."""
    log_url = f"/api/games/{game_id}/log" + (f"?invite={quote(invite)}" if invite else "")
    ctx: dict[str, Any] = {
        "game_id": game_id,
        "api_base": "/api",
        "error": None,
        "identity": {"id": me.id, "name": me.name} if me else None,
        "log_url": log_url,
    }
    try:
        await check_shared(
            request.app.state.settings.rate("replay"),
            "replay",
            address_key(request),
            "replay requests",
        )
        game = await games.get_game(session, game_id)
        require_visible(game, me.id if me else None, invite)
        ctx["scenario_name"] = game.scenario_name
        ctx["fair_dice"] = games.fair_dice(game)
        result = await games.verify_game(session, game_id)
    except AppError as exc:
        message = localized(request, exc.code, exc.message)
        ctx.update(error={"code": exc.code, "message": message}, verdict=None)
        return render(request, "verify.html", ctx, exc.status)
    ctx["verdict"] = result["verdict"]
    ctx["verdict_text"], ctx["check_texts"] = verdict_texts(request, result["verdict"])
    ctx["entries"] = result["entries"]
    return render(request, "verify.html", ctx)


def verdict_texts(request: Request, verdict: dict[str, Any]) -> tuple[str, list[str]]:
    """The engine's verdict and the checks it made, worded from their stable codes in the
    request's language (engine.fairdice.MESSAGES)."""
    gettext = i18n.gettext_for(i18n.language_of(request))

    def say(note: dict[str, Any]) -> str:
        return str(gettext(VERDICT_TEXT[note["code"]])).format(**note["params"])

    if verdict.get("code") not in VERDICT_TEXT:  # a verdict kept from an older engine
        return str(verdict.get("message", "")), [str(c) for c in verdict.get("checks", [])]
    return say(verdict), [say(n) for n in verdict.get("notes", [])]


@router.get("/join/{invite}")
async def join(invite: str, request: Request, session: SessionDep) -> Response:
    try:
        game = await games.game_by_invite(session, invite)
    except AppError:
        return render(
            request,
            "lobby.html",
            {"identity": None, "api_base": "/api", "error": "invite_not_found"},
            404,
        )
    return RedirectResponse(f"/games/{game.id}?invite={invite}", status_code=303)


@router.get("/lang/{lang}")
async def choose_language(
    lang: str, request: Request, session: SessionDep, me: OptionalIdentity, next: str = "/"
) -> Response:
    """The header's language switch: remembers the choice in the ``lang`` cookie (a year)
    and goes back to the page (a path of this site only: never elsewhere).  An account
    reads its e-mails in it from then on."""
    if lang not in i18n.LANGUAGES:
        raise NotFound("unknown language", code="unknown_language")
    if me is not None and me.password_hash is not None and me.lang != lang:
        me.lang = lang
        await session.commit()
    back = next if next.startswith("/") and not next.startswith(("//", "/\\")) else "/"
    resp = RedirectResponse(back, status_code=303)
    resp.set_cookie(i18n.COOKIE, lang, max_age=365 * 86400, samesite="lax", path="/")
    return resp


@router.get("/i18n/{lang}.json")
async def client_catalog(lang: str) -> Response:
    """The browser client's catalog (static/i18n.js): English text -> translation, error
    code -> message.  The page links it with a version, so it may be cached."""
    if lang not in i18n.LANGUAGES:
        raise NotFound("unknown language", code="unknown_language")
    return JSONResponse(
        i18n.client_catalog(lang), headers={"Cache-Control": "public, max-age=86400"}
    )
