from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request, Response, status
from sqlalchemy.ext.asyncio import AsyncSession

from ..engine_api import bot_levels, default_bot_level, optional_rules, preview_action, rulesets
from ..errors import BadRequest, NotFound
from ..ratelimit import address_key, check_shared, client_key
from ..tutorial import TUTORIALS
from ..security import CurrentIdentity, OptionalIdentity, SessionDep
from . import service
from .privacy import require_watch
from .schemas import (
    BotBody,
    BotLevelsOut,
    ClaimBody,
    GameCreate,
    GameCreated,
    GameEvents,
    GameLog,
    GameSummary,
    InviteOut,
    OptionalRuleOut,
    PreviewBody,
    RulesetOut,
)

router = APIRouter(prefix="/api", tags=["games"])

STATUSES = {"open", "live", "finished", "unplayable"}


@router.post("/games", status_code=status.HTTP_201_CREATED, response_model=GameCreated)
async def create_game(
    body: GameCreate, session: SessionDep, me: CurrentIdentity, request: Request
) -> GameCreated:
    """Create a game on a bundled or uploaded scenario.  The side that moves first comes
    from the scenario; seats come from the mode (``1v1``: one per side), player slots from
    the layout per side; ``bots`` lists the slots the server's bot plays.  Rate-limited
    per identity and per client address (the rate limits ``game``, ``game_address``)."""
    await admit_game(request, me.id)
    out = await service.create_game(session, me, body, request.app.state.settings.allow_test_seed)
    if body.bots:
        await kick_bots(request, session, out.id)
    return out


async def admit_game(request: Request, identity_id: str) -> None:
    """Count a new game (or campaign) against its creator's and its address's windows."""
    s = request.app.state.settings
    await check_shared(s.rate("game"), "game", client_key(request, identity_id), "new games")
    await check_shared(s.rate("game_address"), "game", address_key(request), "new games")


@router.post("/tutorials/{name}", status_code=status.HTTP_201_CREATED, response_model=GameCreated)
async def start_tutorial(
    name: str, session: SessionDep, me: CurrentIdentity, request: Request
) -> GameCreated:
    """Start a lesson (app/tutorial.py): a game on the lesson's scenario with its dice
    seed, the player in the lesson's seat, the server's bot in the others."""
    lesson = TUTORIALS.get(name)
    if lesson is None:
        raise NotFound(f"no tutorial {name!r}", code="tutorial_not_found")
    await admit_game(request, me.id)
    body = GameCreate(
        ruleset=lesson.ruleset,
        scenario_id=lesson.scenario_id,
        mode=lesson.mode,
        layout=lesson.layout,
        seat=lesson.seat,
        bots=list(lesson.bots),
        seed=lesson.seed,
    )
    out = await service.create_game(session, me, body, allow_test_seed=True)
    await kick_bots(request, session, out.id)
    return out


@router.get("/games", response_model=list[GameSummary])
async def list_games(
    session: SessionDep,
    me: OptionalIdentity,
    response: Response,
    status: str = Query(
        "open,live", max_length=64, description="comma list of open, live, finished"
    ),
    offset: int = Query(0, ge=0, le=1_000_000),
    limit: int = Query(100, ge=1, le=100),
) -> list[GameSummary]:
    """The lobby: one page (``offset``/``limit``, at most 100) of the games of these
    statuses, open games first, then live, then finished, newest first within each;
    ``X-Total-Count`` gives how many there are in all."""
    wanted = [s for s in status.split(",") if s]
    if not wanted or not set(wanted) <= STATUSES:
        raise BadRequest(f"status must be among {sorted(STATUSES)}")
    page, total = await service.list_games(session, wanted, me, offset, limit)
    response.headers["X-Total-Count"] = str(total)
    return page


@router.get("/games/{game_id}", response_model=GameSummary)
async def get_game(
    game_id: str,
    session: SessionDep,
    me: OptionalIdentity,
    invite: str | None = Query(None, max_length=64),
) -> GameSummary:
    """A game's summary (a private game: its players, its creator, or ``?invite=``)."""
    game = await service.get_game(session, game_id)
    require_watch(game, me.id if me else None, invite)
    return service.summary(game, me)


@router.post("/games/{game_id}/seats/{seat}/claim", response_model=GameSummary)
async def claim_seat(
    game_id: str,
    seat: str,
    session: SessionDep,
    me: CurrentIdentity,
    request: Request,
    body: ClaimBody | None = None,
) -> GameSummary:
    out = await service.claim_seat(
        session, request.app.state.games, me, game_id, seat, body.invite if body else None
    )
    return await _seats_changed(request, session, out)


@router.post("/games/{game_id}/seats/{seat}/leave", response_model=GameSummary)
async def leave_seat(
    game_id: str, seat: str, session: SessionDep, me: CurrentIdentity, request: Request
) -> GameSummary:
    out = await service.leave_seat(session, request.app.state.games, me, game_id, seat)
    await kick_bots(request, session, game_id)
    return out


@router.post("/games/{game_id}/seats/{seat}/bot", response_model=GameSummary)
async def bot_seat(
    game_id: str,
    seat: str,
    session: SessionDep,
    me: CurrentIdentity,
    request: Request,
    body: BotBody | None = None,
) -> GameSummary:
    """Let the server's engine bot play this seat at ``level``: a free seat or a bot's (the
    game's creator), or one you hold (autopilot).  A person claiming it takes it back."""
    out = await service.seat_bot(
        session, request.app.state.games, me, game_id, seat, body.level if body else None
    )
    return await _seats_changed(request, session, out)


@router.post("/games/{game_id}/start", response_model=GameSummary)
async def start_game(
    game_id: str,
    session: SessionDep,
    me: CurrentIdentity,
    request: Request,
    body: BotBody | None = None,
) -> GameSummary:
    """The creator starts an open game: bots at ``level`` take the seats nobody holds."""
    out = await service.start_game(
        session, request.app.state.games, me, game_id, body.level if body else None
    )
    return await _seats_changed(request, session, out)


async def kick_bots(request: Request, session: AsyncSession, game_id: str) -> None:
    """After a committed change of a game's seats: its bots may have to act.  The request's
    session is closed first: the bots read with a session of their own, and requests each
    holding a connection while waiting for a second one could take the whole pool and
    stop every request of the worker."""
    await session.close()
    await request.app.state.bots.kick(game_id)


async def _seats_changed(request: Request, session: AsyncSession, out: GameSummary) -> GameSummary:
    """After a seat change: the bots may have to act, and a game that is live (it may
    just have started) tells the player it waits for, as after an action."""
    await kick_bots(request, session, out.id)
    if out.status == "live":
        await request.app.state.notifications.game_started(out.id)
    return out


@router.get("/bot-levels", response_model=BotLevelsOut)
async def list_bot_levels() -> BotLevelsOut:
    """The levels a server bot plays at (``bots`` of a new game, a seat given to a bot)."""
    return BotLevelsOut(levels=bot_levels(), default=default_bot_level())


@router.get("/games/{game_id}/log", response_model=GameLog)
async def game_log(
    game_id: str,
    session: SessionDep,
    me: OptionalIdentity,
    invite: str | None = Query(None, max_length=64),
) -> GameLog:
    """A finished game's full log, seed and salt revealed (docs/protocol.md "Finished game
    log"): ``python -m engine verify LOG.json`` checks the dice against the commitment.
    A private game: its players, its creator or ``?invite=``."""
    require_watch(await service.get_game(session, game_id), me.id if me else None, invite)
    return await service.finished_log(session, game_id)


@router.get("/games/{game_id}/events", response_model=GameEvents)
async def game_events(
    game_id: str,
    session: SessionDep,
    me: OptionalIdentity,
    request: Request,
    since: int = Query(0, ge=0, le=2**31 - 1),
    invite: str | None = Query(None, max_length=64),
    watch: str | None = Query(
        None, max_length=16, description="a spectator watching one side's board (Kriegspiel)"
    ),
) -> GameEvents:
    """The events of the log after ``since``, redacted for the caller's seats (spectators:
    public events, or with ``watch`` what that side sees): a late joiner's battle log, one
    page at a time (``next_since``).  Never the actions or the seed.  Rate-limited per
    client (the rate limit ``catchup``)."""
    await check_shared(
        request.app.state.settings.rate("catchup"),
        "catchup",
        client_key(request, me.id if me else None),
        "log requests",
    )
    return await service.event_log(session, game_id, me, since, invite, watch)


@router.get("/options", response_model=list[OptionalRuleOut], response_model_exclude_none=True)
async def list_optional_rules(
    ruleset: str = Query("m44", description="a registered ruleset"),
) -> list[OptionalRuleOut]:
    """The named optional rules of a ruleset (default m44; ``implemented: false`` ones are
    refused by ``POST /api/games`` with ``option_not_implemented``)."""
    return [OptionalRuleOut(**r) for r in optional_rules(ruleset)]


@router.get("/rulesets", response_model=list[RulesetOut])
async def list_rulesets() -> list[RulesetOut]:
    """The registered rule systems (lobby order): name, version, title, summary, setup
    (``scenario``: a game needs a ``scenario_id`` the ruleset accepts, see
    ``ScenarioSummary.rulesets``; ``none``: no scenario), the client renderer and the
    panels each mode's games use, the modes (those where bots stand in for absent
    players) and the named optional rules."""
    return [
        RulesetOut(
            name=rs.name,
            version=rs.version,
            title=rs.title,
            summary=rs.summary,
            setup=rs.setup,
            renderer=rs.renderer,
            panels=list(rs.panels),
            mode_panels={m: list(rs.panels_for(m)) for m in rs.modes},
            stand_in_modes=[m for m in rs.modes if rs.bots_stand_in(m)],
            modes=list(rs.modes),
            options=list(rs.options()),
            campaign=rs.supports_campaign,
        )
        for rs in rulesets()
    ]


@router.post("/rulesets/{name}/preview")
async def preview(name: str, body: PreviewBody) -> dict[str, Any]:
    """What an action would compute under a game's options, nothing applied (the
    ruleset's optional ``preview``; e.g. France 1944: a combat's odds and shifts before
    its declaration).  Engine refusals: 422 with the engine's code (``no_preview``,
    ``unknown_ruleset``, ...)."""
    return {"preview": preview_action(name, body.options, body.action)}


@router.get("/invites/{code}", response_model=InviteOut)
async def invite(code: str, session: SessionDep) -> InviteOut:
    return InviteOut(game_id=(await service.game_by_invite(session, code)).id)
