"""Persistence of campaigns and their battles."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from ..models import Campaign, CampaignBattle


async def get(session: AsyncSession, campaign_id: str) -> Campaign | None:
    return await session.get(Campaign, campaign_id)


async def list_all(session: AsyncSession, limit: int = 100) -> list[Campaign]:
    res = await session.execute(select(Campaign).order_by(Campaign.created_at.desc()).limit(limit))
    return list(res.scalars())


async def battle_of_game(session: AsyncSession, game_id: str) -> CampaignBattle | None:
    """The campaign battle played by a game (None: a game outside every campaign)."""
    res = await session.execute(select(CampaignBattle).where(CampaignBattle.game_id == game_id))
    return res.scalars().first()


async def add(session: AsyncSession, campaign: Campaign) -> None:
    session.add(campaign)
    await session.flush()


async def add_battle(session: AsyncSession, battle: CampaignBattle) -> None:
    session.add(battle)
    await session.flush()
