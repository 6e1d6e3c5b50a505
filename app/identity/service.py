from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from ..errors import NotFound
from ..inputs import clean_label
from ..models import AuthSession, Identity, utcnow
from ..security import hash_token, new_id, new_token
from . import repository

SESSION_DAYS = 90  # a login token's lifetime


async def create_guest(
    session: AsyncSession, name: str, label: str | None = None
) -> tuple[Identity, str]:
    """A guest identity and its token (returned once; only the hash is stored), issued
    as a session that logout or the sessions list revokes."""
    token = new_token()
    ident = Identity(id=new_id("i"), name=name, token_hash=hash_token(token))
    await repository.add(session, ident)
    session.add(new_session(ident.id, token, label))
    await session.commit()
    return ident, token


def new_session(identity_id: str, token: str, label: str | None) -> AuthSession:
    now = utcnow()
    return AuthSession(
        id=new_id("s", 12),
        identity_id=identity_id,
        token_hash=hash_token(token),
        label=clean_label(label, 120) if label else None,
        created_at=now,
        expires_at=now + timedelta(days=SESSION_DAYS),
    )


async def logout(session: AsyncSession, identity: Identity, token: str) -> None:
    """Revoke the session of this token (the identity's other sessions stay)."""
    h = hash_token(token)
    if (
        await repository.revoke(session, identity.id, token_hash=h) == 0
        and await repository.session_by_hash(session, h) is None
    ):
        session.add(revoked_session(identity.id, h))
    await session.commit()


def revoked_session(identity_id: str, token_hash: str) -> AuthSession:
    """The record revoking a token from before sessions existed (it has no session row)."""
    now = utcnow()
    return AuthSession(
        id=new_id("s", 12),
        identity_id=identity_id,
        token_hash=token_hash,
        label="before 0004",
        created_at=now,
        expires_at=now,
        revoked_at=now,
    )


async def revoke_session(session: AsyncSession, identity: Identity, session_id: str) -> str:
    """Revoke one session of the identity; the hash of its token."""
    if await repository.revoke(session, identity.id, session_id=session_id[:32]) == 0:
        raise NotFound(f"no active session {session_id[:32]!r}", code="session_not_found")
    token_hash = await session.scalar(
        select(AuthSession.token_hash).where(AuthSession.id == session_id[:32])
    )
    await session.commit()
    return str(token_hash)
