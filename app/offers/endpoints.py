"""Offer endpoints: challenges, return matches, accept / decline / cancel."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response, status
from fastapi.responses import JSONResponse
from sqlalchemy.ext.asyncio import AsyncSession

from ..ratelimit import check_shared, client_key
from ..security import CurrentIdentity, OptionalIdentity, SessionDep
from . import service
from .schemas import ChallengeIn, OfferOut

router = APIRouter(prefix="/api", tags=["offers"])


async def _started(request: Request, session: AsyncSession, offer: OfferOut) -> None:
    """The game of an offer just accepted: its first player hears of his turn.  The
    notice loads the game with a session of its own, so the request's is closed first
    (why: ``app.games.endpoints.kick_bots``)."""
    if offer.status == "accepted" and offer.game_id and offer.decided_at is not None:
        await session.close()
        await request.app.state.notifications.game_started(offer.game_id)


@router.post("/challenges", status_code=status.HTTP_201_CREATED, response_model=OfferOut)
async def challenge(
    body: ChallengeIn, request: Request, session: SessionDep, me: CurrentIdentity
) -> OfferOut:
    """Challenge an account by name to a 1v1 game (any ruleset, scenario and clock)."""
    st = request.app.state
    await check_shared(
        st.settings.rate("challenge"), "challenge", client_key(request, me.id), "challenges"
    )
    return await service.challenge(session, st.db, st.settings, me, body)


@router.get("/offers", response_model=list[OfferOut])
async def pending(session: SessionDep, me: CurrentIdentity) -> list[OfferOut]:
    """The caller's pending offers, received (``mine`` false) and sent."""
    return await service.pending(session, me)


@router.get("/offers/{offer_id}", response_model=OfferOut)
async def get_offer(offer_id: str, session: SessionDep, me: CurrentIdentity) -> OfferOut:
    return await service.get(session, me, offer_id)


@router.post("/offers/{offer_id}/accept", response_model=OfferOut)
async def accept(
    offer_id: str, request: Request, session: SessionDep, me: CurrentIdentity
) -> OfferOut:
    """Accept: the game is created with both players seated (``game_url``)."""
    out = await service.accept(session, request.app.state.games, me, offer_id)
    await _started(request, session, out)
    return out


@router.post("/offers/{offer_id}/decline", response_model=OfferOut)
async def decline(offer_id: str, session: SessionDep, me: CurrentIdentity) -> OfferOut:
    return await service.decline(session, me, offer_id)


@router.post("/offers/{offer_id}/cancel", response_model=OfferOut)
async def cancel(offer_id: str, session: SessionDep, me: CurrentIdentity) -> OfferOut:
    return await service.cancel(session, me, offer_id)


@router.post("/games/{game_id}/rematch", response_model=OfferOut)
async def rematch(
    game_id: str, request: Request, session: SessionDep, me: CurrentIdentity
) -> Response:
    """Offer the return match of a finished 1v1 game (201), or see the offer made (200);
    the opponent's own call accepts it (200, ``status`` accepted, ``game_url``)."""
    st = request.app.state
    offer, created = await service.rematch(session, st.db, st.settings, st.games, me, game_id)
    await _started(request, session, offer)
    return JSONResponse(offer.model_dump(mode="json"), status_code=201 if created else 200)


@router.get("/games/{game_id}/rematch", response_model=OfferOut)
async def rematch_offer(game_id: str, session: SessionDep, me: OptionalIdentity) -> OfferOut:
    """The return-match offer of this game (its two players only; 404 ``offer_not_found``)."""
    return await service.rematch_offer(session, me, game_id)
