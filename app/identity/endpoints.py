from __future__ import annotations

from fastapi import APIRouter, Request, Response, status

from ..security import COOKIE, CurrentIdentity, SessionDep
from . import service
from .schemas import IdentityCreate, IdentityCreated, IdentityOut

router = APIRouter(prefix="/api/identity", tags=["identity"])

ONE_YEAR = 365 * 24 * 3600


@router.post("", status_code=status.HTTP_201_CREATED, response_model=IdentityCreated)
async def create_identity(body: IdentityCreate, session: SessionDep, request: Request,
                          response: Response) -> IdentityCreated:
    """Create a guest identity; the token is returned once and set as a cookie."""
    ident, token = await service.create_guest(session, body.name)
    response.set_cookie(COOKIE, token, max_age=ONE_YEAR, httponly=True, samesite="lax",
                        secure=request.app.state.settings.cookie_secure, path="/")
    return IdentityCreated(id=ident.id, name=ident.name, token=token)


@router.get("/me", response_model=IdentityOut)
async def me(identity: CurrentIdentity) -> IdentityOut:
    return IdentityOut(id=identity.id, name=identity.name)


@router.post("/logout", status_code=status.HTTP_204_NO_CONTENT)
async def logout(response: Response) -> Response:
    response.delete_cookie(COOKIE, path="/")
    response.status_code = status.HTTP_204_NO_CONTENT
    return response
