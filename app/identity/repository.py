from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from ..models import AuthSession, Identity, utcnow


async def add(session: AsyncSession, identity: Identity) -> Identity:
    session.add(identity)
    await session.flush()
    return identity


async def session_by_hash(session: AsyncSession, token_hash: str) -> AuthSession | None:
    res = await session.execute(select(AuthSession).where(AuthSession.token_hash == token_hash))
    return res.scalar_one_or_none()


def identity_for_token(session: Session, token_hash: str) -> Identity | None:
    """The identity of a live session (not revoked, not expired); a token issued before
    sessions existed (no session row at all) falls back to ``identities.token_hash``.
    Synchronous: run it with ``Database.read`` or ``AsyncSession.run_sync``."""
    row = session.execute(
        select(Identity, AuthSession.revoked_at, AuthSession.expires_at > utcnow())
        .join(AuthSession, AuthSession.identity_id == Identity.id)
        .where(AuthSession.token_hash == token_hash)
    ).first()
    if row is not None:
        ident, revoked, live = row
        return ident if revoked is None and live else None
    return session.execute(
        select(Identity).where(Identity.token_hash == token_hash)
    ).scalar_one_or_none()


async def sessions_of(session: AsyncSession, identity_id: str) -> list[AuthSession]:
    res = await session.execute(
        select(AuthSession)
        .where(
            AuthSession.identity_id == identity_id,
            AuthSession.revoked_at.is_(None),
            AuthSession.expires_at > utcnow(),
        )
        .order_by(AuthSession.created_at)
    )
    return list(res.scalars())


async def revoke(
    session: AsyncSession,
    identity_id: str,
    session_id: str | None = None,
    token_hash: str | None = None,
) -> int:
    stmt = update(AuthSession).where(
        AuthSession.identity_id == identity_id, AuthSession.revoked_at.is_(None)
    )
    if session_id is not None:
        stmt = stmt.where(AuthSession.id == session_id)
    if token_hash is not None:
        stmt = stmt.where(AuthSession.token_hash == token_hash)
    res = await session.execute(
        stmt.values(revoked_at=utcnow()).execution_options(synchronize_session=False)
    )
    return int(res.rowcount)  # type: ignore[attr-defined]
