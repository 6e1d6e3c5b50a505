from __future__ import annotations

from fastapi import APIRouter, Query, Request, Response, UploadFile, status

from .. import inputs
from ..ratelimit import address_key
from ..security import CurrentIdentity, SessionDep
from . import service
from .schemas import ScenarioDetail, ScenarioSummary

router = APIRouter(prefix="/api/scenarios", tags=["scenarios"])


@router.get("", response_model=list[ScenarioSummary])
async def list_scenarios(
    session: SessionDep,
    response: Response,
    offset: int = Query(0, ge=0, le=1_000_000),
    limit: int = Query(100, ge=1, le=200),
) -> list[ScenarioSummary]:
    """Bundled scenarios (the project's ``scenarios/*.m44``) then uploaded ones (newest
    first), one page: ``offset``/``limit`` (at most 200); ``X-Total-Count`` gives the total."""
    page, total = await service.list_scenarios(session, offset, limit)
    response.headers["X-Total-Count"] = str(total)
    return page


@router.get("/{scenario_id}", response_model=ScenarioDetail)
async def get_scenario(scenario_id: str, session: SessionDep) -> ScenarioDetail:
    return await service.get_detail(session, scenario_id)


@router.post("", status_code=status.HTTP_201_CREATED, response_model=ScenarioSummary)
async def upload_scenario(
    file: UploadFile, session: SessionDep, identity: CurrentIdentity, request: Request
) -> ScenarioSummary:
    """Upload a ``.m44`` file (signed-in identities only, rate-limited per identity and
    per client address, per-identity quota); it is validated by ``engine.load_scenario``.
    Unknown codes answer 422 ``unknown_codes`` with every code and its hexes in
    ``details.unknown``."""
    data = await file.read(inputs.MAX_UPLOAD_BYTES + 1)
    return await service.upload(session, identity, data, address_key(request))
