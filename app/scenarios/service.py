"""Scenarios: the bundled ``.m44`` files of ``scenarios/`` and uploads (stored in the DB).

Validation is the engine's: a file is accepted iff ``engine.load_scenario`` accepts it.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from ..engine_api import (EngineError, ruleset, rulesets_for, scenario_board, scenario_from_text,
                          sha256_text)
from ..errors import NotFound, TooLarge, Unprocessable
from ..games.modes import layouts
from ..models import Identity, ScenarioRow
from ..settings import get_settings
from . import repository
from .schemas import ScenarioDetail, ScenarioSummary


def bundled_files() -> dict[str, Path]:
    d = get_settings().scenarios_dir
    return {p.stem: p for p in sorted(d.glob("*.m44"))} if d.is_dir() else {}


def summarize(scenario_id: str, source: str, scn: Any) -> ScenarioSummary:
    """The lobby's summary: ``rulesets`` (ruleset -> modes accepting the scenario, the
    natural ruleset and mode first); ``modes`` / ``layouts`` over all of them."""
    by_ruleset = rulesets_for(scn)
    modes: list[str] = []
    table: dict[str, dict[str, list[list[str]]]] = {}
    for name, ms in by_ruleset.items():
        for m in ms:
            if m not in table:
                modes.append(m)
                table[m] = layouts(ruleset(name), m)
    return ScenarioSummary(
        id=scenario_id, name=scn.name, source=source, board_type=scn.board.kind, face=scn.face,
        player1_side=scn.player1_side, player2_side=scn.player2_side,
        starting_side=scn.starting_side, modes=modes, layouts=table, rulesets=by_ruleset)


def _summary_or_error(scenario_id: str, source: str, text: str) -> ScenarioSummary:
    try:
        return summarize(scenario_id, source, scenario_from_text(text))
    except EngineError as exc:
        return ScenarioSummary(id=scenario_id, name=scenario_id, source=source,
                               error=exc.to_dict())


async def list_scenarios(session: AsyncSession) -> list[ScenarioSummary]:
    out = [_summary_or_error(sid, "bundled", p.read_text("utf-8"))
           for sid, p in bundled_files().items()]
    for row in await repository.list_uploaded(session):
        out.append(_summary_or_error(row.id, "uploaded", row.content))
    return out


async def scenario_text(session: AsyncSession, scenario_id: str) -> tuple[str, str]:
    """(source, .m44 text) of a bundled or uploaded scenario."""
    path = bundled_files().get(scenario_id)
    if path is not None:
        return "bundled", path.read_text("utf-8")
    row = await repository.get(session, scenario_id)
    if row is None:
        raise NotFound(f"no scenario {scenario_id!r}", code="scenario_not_found")
    return row.source, row.content


async def get_detail(session: AsyncSession, scenario_id: str) -> ScenarioDetail:
    source, text = await scenario_text(session, scenario_id)
    scn = scenario_from_text(text)
    return ScenarioDetail(**summarize(scenario_id, source, scn).model_dump(),
                          board=scenario_board(scn))


async def ensure_row(session: AsyncSession, scenario_id: str) -> tuple[ScenarioRow, Any]:
    """The DB row a game references (bundled files are stored on first use) and the
    parsed scenario.  Games keep the scenario text, so later edits of files change nothing."""
    source, text = await scenario_text(session, scenario_id)
    scn = scenario_from_text(text)
    row = await repository.get(session, scenario_id)
    if row is not None and row.sha256 == sha256_text(text):
        return row, scn
    sha = sha256_text(text)
    same = await repository.by_sha(session, sha)
    if same is not None:
        return same, scn
    row_id = scenario_id if row is None else f"{scenario_id}-{sha[:8]}"
    row = ScenarioRow(id=row_id, name=scn.name, source=source, sha256=sha, content=text)
    try:
        async with session.begin_nested():
            await repository.add(session, row)
    except IntegrityError:                     # another request stored it first
        found = await repository.by_sha(session, sha)
        if found is None:
            raise
        row = found
    return row, scn


async def upload(session: AsyncSession, identity: Identity | None, data: bytes) -> ScenarioSummary:
    if len(data) > get_settings().max_upload_bytes:
        raise TooLarge(f"a .m44 file is at most {get_settings().max_upload_bytes} bytes")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Unprocessable("the file is not UTF-8 text", code="invalid_json") from None
    scn = scenario_from_text(text)          # EngineError/ScenarioError -> 422 with its code
    sha = sha256_text(text)
    existing = await repository.by_sha(session, sha)
    if existing is not None:
        return summarize(existing.id, existing.source, scn)
    row = ScenarioRow(id=f"up-{sha[:16]}", name=scn.name, source="uploaded", sha256=sha,
                      content=text, uploaded_by=identity.id if identity else None)
    try:
        await repository.add(session, row)
        await session.commit()
    except IntegrityError:
        await session.rollback()
    return summarize(row.id, "uploaded", scn)
