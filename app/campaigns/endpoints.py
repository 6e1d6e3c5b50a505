"""Campaign endpoints (docs/protocol.md "Campaigns")."""

from __future__ import annotations

from fastapi import APIRouter, Request, status

from ..games.endpoints import admit_game
from ..security import CurrentIdentity, SessionDep
from . import service
from .schemas import CampaignCreate, CampaignOut

router = APIRouter(prefix="/api", tags=["campaigns"])


@router.post("/campaigns", status_code=status.HTTP_201_CREATED, response_model=CampaignOut)
async def create_campaign(
    body: CampaignCreate, session: SessionDep, me: CurrentIdentity, request: Request
) -> CampaignOut:
    """A campaign of the listed scenarios; its first battle's game is created at once
    (counted as a new game: the rate limits ``game`` and ``game_address``)."""
    await admit_game(request, me.id)
    return await service.create_campaign(session, me, body)


@router.get("/campaigns", response_model=list[CampaignOut])
async def list_campaigns(session: SessionDep) -> list[CampaignOut]:
    return await service.list_campaigns(session)


@router.get("/campaigns/{campaign_id}", response_model=CampaignOut)
async def get_campaign(campaign_id: str, session: SessionDep) -> CampaignOut:
    """Standings, battles (game ids, results, pre-battle dice) and the next battle."""
    return await service.get_campaign(session, campaign_id)


@router.post("/campaigns/{campaign_id}/next", response_model=CampaignOut)
async def next_battle(campaign_id: str, session: SessionDep, me: CurrentIdentity) -> CampaignOut:
    """Create the next battle's game (pre-battle dice from the previous battle)."""
    return await service.next_battle(session, me, campaign_id)
