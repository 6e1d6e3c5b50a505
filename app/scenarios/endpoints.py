from __future__ import annotations

from fastapi import APIRouter, UploadFile, status

from ..security import OptionalIdentity, SessionDep
from . import service
from .schemas import ScenarioDetail, ScenarioSummary

router = APIRouter(prefix="/api/scenarios", tags=["scenarios"])


@router.get("", response_model=list[ScenarioSummary])
async def list_scenarios(session: SessionDep) -> list[ScenarioSummary]:
    """Bundled scenarios (the project's ``scenarios/*.m44``) then uploaded ones."""
    return await service.list_scenarios(session)


@router.get("/{scenario_id}", response_model=ScenarioDetail)
async def get_scenario(scenario_id: str, session: SessionDep) -> ScenarioDetail:
    return await service.get_detail(session, scenario_id)


@router.post("", status_code=status.HTTP_201_CREATED, response_model=ScenarioSummary)
async def upload_scenario(file: UploadFile, session: SessionDep,
                          identity: OptionalIdentity) -> ScenarioSummary:
    """Upload a ``.m44`` file; it is validated by ``engine.load_scenario``.  Unknown codes
    answer 422 ``unknown_codes`` with every code and its hexes in ``details.unknown``."""
    data = await file.read(service.get_settings().max_upload_bytes + 1)
    return await service.upload(session, identity, data)
