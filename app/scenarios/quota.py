"""Uploads are a resource: signed-in identities only, a per-identity rate (the rate
limit ``upload``, default 10/minute), a per-address rate (``upload_address``: new
identities buy no new window), a quota (:data:`UPLOAD_QUOTA` scenarios kept per
identity), and limits on what a file may hold (nesting depth, NUL/encoding, name and
label lengths)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from ..errors import Forbidden, Unprocessable
from ..inputs import MAX_DEPTH_SCENARIO, InputError, check_raw, clean_label
from ..models import Identity, ScenarioRow
from ..ratelimit import check_shared
from ..settings import get_settings

NAME_MAX = 120  # a scenario name as listed (cleaned and cut to this)
LABEL_MAX = 80  # one board label's text
LABELS_MAX = 300  # labels per board
UPLOAD_QUOTA = 50  # uploaded scenarios kept per identity


async def admit(session: AsyncSession, identity: Identity, address: str) -> None:
    """Raise 429 ``rate_limited`` / 403 ``upload_quota_exceeded`` before any parsing
    (``address``: the client's ``a:<address>`` key)."""
    s = get_settings()
    await check_shared(s.rate("upload"), "upload", f"i:{identity.id}", "uploads")
    await check_shared(s.rate("upload_address"), "upload", address, "uploads")
    n = (
        await session.execute(
            select(func.count())
            .select_from(ScenarioRow)
            .where(ScenarioRow.uploaded_by == identity.id)
        )
    ).scalar_one()
    if n >= UPLOAD_QUOTA:
        raise Forbidden(
            f"you have uploaded {n} scenarios; the quota is {UPLOAD_QUOTA}",
            code="upload_quota_exceeded",
            quota=UPLOAD_QUOTA,
            uploaded=n,
        )


def check_text(text: str) -> None:
    """Encoding, NUL and depth of an uploaded file (422 with the input code)."""
    try:
        check_raw(text, max_depth=MAX_DEPTH_SCENARIO)
    except InputError as exc:
        raise Unprocessable(exc.message, code=exc.code, **exc.details) from None


def check_labels(scn: Any) -> None:
    labels = list(getattr(scn, "labels", ()) or ())
    if len(labels) > LABELS_MAX:
        raise Unprocessable(
            f"{len(labels)} board labels; at most {LABELS_MAX}",
            code="label_too_long",
            count=len(labels),
            limit=LABELS_MAX,
        )
    long = [[list(h), len(t)] for h, t in labels if len(t) > LABEL_MAX]
    if long:
        raise Unprocessable(
            f"board labels are at most {LABEL_MAX} characters",
            code="label_too_long",
            limit=LABEL_MAX,
            hexes=[h for h, _ in long[:20]],
        )


def display_name(name: str) -> str:
    return clean_label(name, NAME_MAX) or "scenario"
