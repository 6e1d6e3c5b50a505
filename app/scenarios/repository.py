from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from ..models import ScenarioRow


async def get(session: AsyncSession, scenario_id: str) -> ScenarioRow | None:
    return await session.get(ScenarioRow, scenario_id)


async def by_sha(session: AsyncSession, sha: str) -> ScenarioRow | None:
    res = await session.execute(select(ScenarioRow).where(ScenarioRow.sha256 == sha))
    return res.scalar_one_or_none()


async def list_uploaded(session: AsyncSession) -> list[ScenarioRow]:
    res = await session.execute(
        select(ScenarioRow)
        .where(ScenarioRow.source == "uploaded")
        .order_by(ScenarioRow.created_at.desc())
    )
    return list(res.scalars())


async def add(session: AsyncSession, row: ScenarioRow) -> ScenarioRow:
    session.add(row)
    await session.flush()
    return row
