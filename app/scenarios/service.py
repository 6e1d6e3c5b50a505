"""Scenarios: the bundled ``.m44`` files of ``scenarios/`` and uploads (stored in the DB).

Validation is the engine's: a file is accepted iff ``engine.load_scenario`` accepts it.
The summary of an upload is computed once (at upload) and stored with it; bundled
summaries are cached per file and modification time: listing never re-parses.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from ..engine_api import (
    EngineError,
    ruleset,
    rulesets_for,
    scenario_board,
    scenario_from_text,
    sha256_text,
)
from .. import inputs
from ..errors import NotFound, TooLarge, Unprocessable
from ..games.modes import layouts
from ..models import Identity, ScenarioRow
from ..settings import SCENARIOS_DIR
from . import quota, repository
from .schemas import ScenarioDetail, ScenarioSummary

_BUNDLED: dict[Path, tuple[float, ScenarioSummary]] = {}


def bundled_files() -> dict[str, Path]:
    d = SCENARIOS_DIR
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
    raw: dict[str, Any] = scn.raw if isinstance(getattr(scn, "raw", None), dict) else {}
    info = raw.get("game_info")
    front = info.get("front") if isinstance(info, dict) else None
    return ScenarioSummary(
        id=scenario_id,
        name=quota.display_name(scn.name),
        source=source,
        board_type=scn.board.kind,
        face=scn.face,
        player1_side=scn.player1_side,
        player2_side=scn.player2_side,
        starting_side=scn.starting_side,
        modes=modes,
        layouts=table,
        rulesets=by_ruleset,
        kind=scenario_kind(raw),
        date=scn.date_begin or None,
        front=str(front).lower()[:20] if isinstance(front, str) and front else None,
        victory=dict(scn.victory),
        subtitle=_text_field(raw, "subtitle"),
    )


def _texts(raw: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``text`` blocks of a .m44 file, one per language (``{"en": {...}}``)."""
    text = raw.get("text")
    return [v for v in text.values() if isinstance(v, dict)] if isinstance(text, dict) else []


def _text_field(raw: dict[str, Any], name: str) -> str | None:
    """A text field of the scenario (English first), trimmed to one short line."""
    text = raw.get("text")
    english = text.get("en") if isinstance(text, dict) else None
    for b in ([english] if isinstance(english, dict) else []) + _texts(raw):
        v = b.get(name)
        if isinstance(v, str) and v.strip():
            return quota.display_name(v.strip().splitlines()[0])[:120]
    return None


def scenario_kind(raw: dict[str, Any]) -> str:
    """``battle``; ``tutorial``: a lesson's board (``meta_data.tutorial``, app/tutorial.py,
    started from the lobby's "Learn to play"); or ``rules_example``: a board drawn to
    illustrate a rule (such as "Hills (Examples of Line of Sight)").  Only battles are in
    the lobby's list of scenarios.

    The criterion: a battle tells the players how it is won or what they command -- its
    text has victory conditions (``victory``) or a briefing (``description``) in some
    language; a file whose texts have neither is a rules example."""
    meta = raw.get("meta_data")
    if isinstance(meta, dict) and meta.get("tutorial"):
        return "tutorial"
    for b in _texts(raw):
        for field in ("victory", "description"):
            v = b.get(field)
            if isinstance(v, str) and v.strip():
                return "battle"
    return "rules_example"


def _summary_or_error(scenario_id: str, source: str, text: str) -> ScenarioSummary:
    try:
        return summarize(scenario_id, source, scenario_from_text(text))
    except EngineError as exc:
        return ScenarioSummary(id=scenario_id, name=scenario_id, source=source, error=exc.to_dict())


def _stored(summary: ScenarioSummary) -> dict[str, Any]:
    return summary.model_dump(exclude={"id", "source"})


def _bundled_summary(sid: str, path: Path) -> ScenarioSummary:
    mtime = path.stat().st_mtime
    hit = _BUNDLED.get(path)
    if hit is None or hit[0] != mtime:
        hit = _BUNDLED[path] = (mtime, _summary_or_error(sid, "bundled", path.read_text("utf-8")))
    return hit[1]


async def list_scenarios(
    session: AsyncSession, offset: int = 0, limit: int = 100
) -> tuple[list[ScenarioSummary], int]:
    """A page of the listing (bundled files first, then uploads, newest first) and the
    total count.  Uploads are read from their stored summaries."""
    files = bundled_files()
    bundled = [_bundled_summary(sid, p) for sid, p in files.items()]
    n_up = (
        await session.execute(
            select(func.count()).select_from(ScenarioRow).where(ScenarioRow.source == "uploaded")
        )
    ).scalar_one()
    out = bundled[offset : offset + limit]
    up_offset = max(0, offset - len(bundled))
    up_limit = limit - len(out)
    if up_limit > 0:
        rows = (
            await session.execute(
                select(ScenarioRow.id, ScenarioRow.summary)
                .where(ScenarioRow.source == "uploaded")
                .order_by(ScenarioRow.created_at.desc(), ScenarioRow.id)
                .offset(up_offset)
                .limit(up_limit)
            )
        ).all()
        for sid, stored in rows:
            if stored is None:  # an upload from before 0004: summarised once, kept
                stored = await _backfill(session, sid)
            out.append(ScenarioSummary(id=sid, source="uploaded", **stored))
    return out, len(bundled) + int(n_up)


async def _backfill(session: AsyncSession, scenario_id: str) -> dict[str, Any]:
    row = await repository.get(session, scenario_id)
    assert row is not None
    summary = await asyncio.to_thread(_summary_or_error, row.id, "uploaded", row.content)
    row.summary = _stored(summary)
    await session.commit()
    return row.summary


async def scenario_text(session: AsyncSession, scenario_id: str) -> tuple[str, str]:
    """(source, .m44 text) of a bundled or uploaded scenario."""
    path = bundled_files().get(scenario_id)
    if path is not None:
        return "bundled", path.read_text("utf-8")
    row = await repository.get(session, scenario_id[:80])
    if row is None:
        raise NotFound(f"no scenario {scenario_id[:80]!r}", code="scenario_not_found")
    return row.source, row.content


async def parse(text: str) -> Any:
    """``scenario_from_text`` off the event loop (a large file is CPU work)."""
    return await asyncio.to_thread(scenario_from_text, text)


async def get_detail(session: AsyncSession, scenario_id: str) -> ScenarioDetail:
    source, text = await scenario_text(session, scenario_id)
    scn = await parse(text)
    return ScenarioDetail(
        **summarize(scenario_id, source, scn).model_dump(), board=scenario_board(scn)
    )


async def ensure_row(session: AsyncSession, scenario_id: str) -> tuple[ScenarioRow, Any]:
    """The DB row a game references (bundled files are stored on first use) and the
    parsed scenario.  Games keep the scenario text, so later edits of files change nothing."""
    source, text = await scenario_text(session, scenario_id)
    scn = await parse(text)
    row = await repository.get(session, scenario_id[:80])
    if row is not None and row.sha256 == sha256_text(text):
        return row, scn
    sha = sha256_text(text)
    same = await repository.by_sha(session, sha)
    if same is not None:
        return same, scn
    row_id = scenario_id if row is None else f"{scenario_id}-{sha[:8]}"
    row = ScenarioRow(
        id=row_id, name=quota.display_name(scn.name), source=source, sha256=sha, content=text
    )
    try:
        async with session.begin_nested():
            await repository.add(session, row)
    except IntegrityError:  # another request stored it first
        found = await repository.by_sha(session, sha)
        if found is None:
            raise
        row = found
    return row, scn


async def upload(
    session: AsyncSession, identity: Identity, data: bytes, address: str = "a:unknown"
) -> ScenarioSummary:
    """Store an upload of a signed-in identity from client ``address`` (rates and quota
    first, then the file's limits, then the engine), with its summary."""
    if len(data) > inputs.MAX_UPLOAD_BYTES:
        raise TooLarge(f"a .m44 file is at most {inputs.MAX_UPLOAD_BYTES} bytes")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Unprocessable("the file is not UTF-8 text", code="invalid_json") from None
    quota.check_text(text)
    sha = sha256_text(text)
    existing = await repository.by_sha(session, sha)
    if existing is not None and existing.summary is not None:
        return ScenarioSummary(id=existing.id, source=existing.source, **existing.summary)
    await quota.admit(session, identity, address)
    scn = await parse(text)  # EngineError/ScenarioError -> 422 with its code
    quota.check_labels(scn)
    if existing is not None:
        return summarize(existing.id, existing.source, scn)
    summary = summarize(f"up-{sha[:16]}", "uploaded", scn)
    row = ScenarioRow(
        id=summary.id,
        name=summary.name,
        source="uploaded",
        sha256=sha,
        content=text,
        uploaded_by=identity.id,
        summary=_stored(summary),
    )
    try:
        await repository.add(session, row)
        await session.commit()
    except IntegrityError:
        await session.rollback()
    return summary
