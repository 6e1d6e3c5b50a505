"""Guest identities: unguessable tokens (only their SHA-256 is stored) and the
FastAPI dependencies that resolve the caller from a bearer header or the cookie."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request, WebSocket
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from .errors import Unauthenticated
from .models import Identity

COOKIE = "overlord_token"


def new_token() -> str:
    return secrets.token_urlsafe(32)  # 256 bits


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_id(prefix: str, nbytes: int = 9) -> str:
    return f"{prefix}_{secrets.token_urlsafe(nbytes)}"


def token_from(conn: Request | WebSocket) -> str | None:
    auth = conn.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    return conn.cookies.get(COOKIE) or None


async def get_session(request: Request) -> AsyncIterator[AsyncSession]:
    async with request.app.state.db.sessions() as session:
        yield session


SessionDep = Annotated[AsyncSession, Depends(get_session)]


def identity_of_token(session: Session, token: str | None) -> Identity | None:
    """The identity a bearer token stands for (synchronous: ``Database.read``)."""
    if not token or len(token) > 256:
        return None
    from .identity.repository import identity_for_token

    return identity_for_token(session, hash_token(token))


async def identity_by_token(session: AsyncSession, token: str | None) -> Identity | None:
    """The identity of a token, read with the request's session, whose connection goes
    back to the pool at once: a handler that then waits for another session (a game
    loaded by the registry, the bots' reads) holds none, so that requests waiting that way
    can never take the whole pool and stop every request of the worker."""
    ident = await session.run_sync(identity_of_token, token)
    await session.commit()
    return ident


async def optional_identity(request: Request, session: SessionDep) -> Identity | None:
    return await identity_by_token(session, token_from(request))


async def require_identity(request: Request, session: SessionDep) -> Identity:
    token = token_from(request)
    if not token:
        raise Unauthenticated(
            "a token is required (cookie overlord_token or Authorization: Bearer)"
        )
    ident = await identity_by_token(session, token)
    if ident is None:
        raise Unauthenticated("unknown token", code="unauthenticated")
    return ident


OptionalIdentity = Annotated[Identity | None, Depends(optional_identity)]
CurrentIdentity = Annotated[Identity, Depends(require_identity)]
