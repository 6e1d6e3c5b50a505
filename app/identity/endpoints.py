from __future__ import annotations

from fastapi import APIRouter, Request, Response, status

from ..ratelimit import address_key, check_shared
from ..security import COOKIE, CurrentIdentity, SessionDep, hash_token, token_from
from . import repository, service
from .service import SESSION_DAYS
from .schemas import IdentityCreate, IdentityCreated, IdentityOut, SessionOut

router = APIRouter(prefix="/api/identity", tags=["identity"])


def set_token_cookie(request: Request, response: Response, token: str) -> None:
    """The login token as the browser's cookie (``Secure`` over HTTPS)."""
    response.set_cookie(
        COOKIE,
        token,
        max_age=SESSION_DAYS * 24 * 3600,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )


@router.post("", status_code=status.HTTP_201_CREATED, response_model=IdentityCreated)
async def create_identity(
    body: IdentityCreate, session: SessionDep, request: Request, response: Response
) -> IdentityCreated:
    """Create a guest identity; the token is returned once and set as a cookie.
    Rate-limited per client address (the rate limit ``identity``): otherwise every per-identity
    limit would be one new identity away."""
    await check_shared(
        request.app.state.settings.rate("identity"),
        "identity",
        address_key(request),
        "new identities",
    )
    ident, token = await service.create_guest(session, body.name, request.headers.get("user-agent"))
    set_token_cookie(request, response, token)
    return IdentityCreated(id=ident.id, name=ident.name, token=token)


@router.get("/me", response_model=IdentityOut)
async def me(identity: CurrentIdentity) -> IdentityOut:
    return IdentityOut(id=identity.id, name=identity.name)


@router.post("/logout", status_code=status.HTTP_204_NO_CONTENT)
async def logout(request: Request, session: SessionDep) -> Response:
    """Revoke the caller's token (its session) and clear the cookie."""
    from ..security import identity_by_token

    token = token_from(request)
    ident = await identity_by_token(session, token) if token else None
    if ident is not None and token:
        await service.logout(session, ident, token)
        await request.app.state.games.revoke(hash_token(token))  # its open sockets
    response = Response(status_code=status.HTTP_204_NO_CONTENT)
    response.delete_cookie(COOKIE, path="/")
    return response


@router.get("/sessions", response_model=list[SessionOut])
async def list_sessions(
    identity: CurrentIdentity, request: Request, session: SessionDep
) -> list[SessionOut]:
    """The identity's live sessions (tokens); ``current`` marks the caller's."""
    mine = hash_token(token_from(request) or "")
    return [
        SessionOut(
            id=s.id,
            label=s.label,
            created_at=s.created_at,
            expires_at=s.expires_at,
            current=s.token_hash == mine,
        )
        for s in await repository.sessions_of(session, identity.id)
    ]


@router.delete("/sessions/{session_id}", status_code=status.HTTP_204_NO_CONTENT)
async def revoke_session(
    session_id: str, identity: CurrentIdentity, request: Request, session: SessionDep
) -> Response:
    """Revoke one of the identity's sessions (its token stops working at once, and the
    sockets opened with it are closed: 4401)."""
    token_hash = await service.revoke_session(session, identity, session_id)
    await request.app.state.games.revoke(token_hash)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
