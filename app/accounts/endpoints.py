"""Account endpoints (docs/protocol.md "Accounts") and the pages their e-mailed links
open (verification, password reset, unsubscribe)."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request, Response, status
from fastapi.responses import HTMLResponse

from ..errors import AppError, localized
from ..i18n import N_, gettext_for, language_of
from ..identity.endpoints import set_token_cookie
from ..models import Identity
from ..notifications import push
from ..pages.endpoints import render
from ..ratelimit import check_shared, client_key
from ..security import CurrentIdentity, OptionalIdentity, SessionDep, hash_token, token_from
from ..settings import Settings
from . import service
from .schemas import (
    AccountOut,
    Credentials,
    EmailIn,
    NameIn,
    NotifyIn,
    PasswordChange,
    PasswordReset,
    PushIn,
    PushOut,
    Register,
    SignedIn,
    TokenIn,
)

router = APIRouter(tags=["accounts"])


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def _cookie(request: Request, response: Response, token: str) -> None:
    set_token_cookie(request, response, token)


@router.post("/api/accounts", status_code=status.HTTP_201_CREATED, response_model=SignedIn)
async def register(
    body: Register,
    request: Request,
    response: Response,
    session: SessionDep,
    me: OptionalIdentity,
) -> SignedIn:
    """Register an account.  A guest's token (cookie or bearer) upgrades that identity in
    place (his games stay his; ``token`` is his token); otherwise a new identity and
    session are created and the cookie set."""
    await check_shared(
        _settings(request).rate("register"),
        "register",
        client_key(request),
        "registrations",
    )
    ident, token = await service.register(
        session,
        _settings(request),
        body,
        me,
        request.headers.get("user-agent"),
        language_of(request),
    )
    if token is not None:
        _cookie(request, response, token)
    return SignedIn(**service.out(ident).model_dump(), token=token or token_from(request) or "")


@router.post("/api/accounts/login", response_model=SignedIn)
async def login(
    body: Credentials, request: Request, response: Response, session: SessionDep
) -> SignedIn:
    """Sign in (any device): a new session token, also set as the cookie."""
    await _count_sign_in(request, body.name)
    ident, token = await service.sign_in(
        session, body.name, body.password, request.headers.get("user-agent"), language_of(request)
    )
    _cookie(request, response, token)
    return SignedIn(**service.out(ident).model_dump(), token=token)


async def _count_sign_in(request: Request, name: str) -> None:
    """Count a sign-in attempt (or a password change): rate limits ``login`` per address
    and ``login_name`` per account name (429 ``rate_limited``)."""
    s = _settings(request)
    await check_shared(s.rate("login"), "login", client_key(request), "sign-in attempts")
    await check_shared(
        s.rate("login_name"), "login-name", service.name_key(name), "sign-in attempts for this name"
    )


@router.get("/api/accounts/me", response_model=AccountOut)
async def me(identity: CurrentIdentity) -> AccountOut:
    return service.out(identity)


@router.put("/api/accounts/me/email", response_model=AccountOut)
async def set_email(
    body: EmailIn, request: Request, session: SessionDep, identity: CurrentIdentity
) -> AccountOut:
    """Set the account's address (unverified until its link is opened; a link is mailed)."""
    await check_shared(
        _settings(request).rate("register"),
        "email",
        client_key(request, identity.id),
        "address changes",
    )
    return service.out(
        await service.set_email(
            session, _settings(request), identity, body.email, language_of(request)
        )
    )


@router.delete("/api/accounts/me/email", response_model=AccountOut)
async def drop_email(
    request: Request, session: SessionDep, identity: CurrentIdentity
) -> AccountOut:
    return service.out(await service.set_email(session, _settings(request), identity, None))


@router.post("/api/accounts/verify-email", response_model=AccountOut)
async def verify_email(body: TokenIn, request: Request, session: SessionDep) -> AccountOut:
    return service.out(await service.verify_email(session, _settings(request), body.token))


@router.post("/api/accounts/password-reset", status_code=status.HTTP_202_ACCEPTED)
async def password_reset(body: NameIn, request: Request, session: SessionDep) -> dict[str, str]:
    """Mail a reset link to the account's verified address (the same answer whether or
    not the name has one)."""
    s = _settings(request)
    await check_shared(s.rate("login"), "reset", client_key(request), "reset requests")
    await check_shared(
        s.rate("login_name"),
        "reset-name",
        body.name.casefold(),
        "reset requests for this name",
    )
    await service.request_reset(session, s, body.name, language_of(request))
    return {"status": "sent if the account has a verified address"}


@router.post("/api/accounts/password-reset/confirm", status_code=status.HTTP_204_NO_CONTENT)
async def password_reset_confirm(
    body: PasswordReset, request: Request, session: SessionDep
) -> Response:
    """A new password from a reset link; every session of the account is revoked."""
    revoked = await service.reset_password(session, _settings(request), body.token, body.password)
    await _close_sockets(request, revoked)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.put("/api/accounts/me/password", response_model=AccountOut)
async def change_password(
    body: PasswordChange, request: Request, session: SessionDep, identity: CurrentIdentity
) -> AccountOut:
    """Change the password, the current one given (403 ``wrong_password``): the
    account's other sessions are revoked and their sockets closed; this one stays.
    Counted with the sign-in attempts (per address and per account name)."""
    await _count_sign_in(request, identity.name)
    revoked = await service.change_password(
        session, identity, body.password, body.new_password, hash_token(token_from(request) or "")
    )
    await _close_sockets(request, revoked)
    return service.out(identity)


async def _close_sockets(request: Request, token_hashes: list[str]) -> None:
    """Revoked sessions: their open sockets close, on every worker."""
    for h in token_hashes:
        await request.app.state.games.revoke(h)


@router.get("/api/accounts/me/notifications")
async def get_notify(identity: CurrentIdentity) -> dict[str, bool]:
    return service.notify_of(identity.notify)


@router.put("/api/accounts/me/notifications")
async def set_notify(
    body: NotifyIn, session: SessionDep, identity: CurrentIdentity
) -> dict[str, bool]:
    """Switch notification kinds (your_turn, offer, finished) on or off."""
    return service.notify_of((await service.set_notify(session, identity, body)).notify)


@router.post("/api/accounts/me/push", status_code=status.HTTP_204_NO_CONTENT)
async def add_push(
    body: PushIn, request: Request, session: SessionDep, identity: CurrentIdentity
) -> Response:
    """Keep this browser's Web Push subscription (https to a push service's public host:
    422 ``push_endpoint_refused`` otherwise)."""
    await service.add_push(session, _settings(request), identity, body)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.delete("/api/accounts/me/push", status_code=status.HTTP_204_NO_CONTENT)
async def drop_push(body: PushOut, session: SessionDep, identity: CurrentIdentity) -> Response:
    await service.drop_push(session, identity, body.endpoint)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/api/push/key")
async def push_key(request: Request) -> dict[str, str | None]:
    """The VAPID public key a browser subscribes with (null: no Web Push here)."""
    return {"public_key": push.public_key(_settings(request))}


# ------------------------------------------------------------------ pages of the links
#: a notification kind as the unsubscribe page names it
KIND_TEXT = {
    "your_turn": N_("{name} gets no more notifications of his turn."),
    "offer": N_("{name} gets no more notifications of offers."),
    "finished": N_("{name} gets no more notifications of finished games."),
}


def _message(
    request: Request,
    me: Identity | None,
    title: str,
    text: str | AppError,
    status_code: int = 200,
    **ctx: object,
) -> Response:
    """A page of one message (``title`` an English message id, translated here; a
    refusal's message and status when ``text`` is one)."""
    title = gettext_for(language_of(request))(title)
    if isinstance(text, AppError):
        status_code = text.status
        text = localized(request, text.code, text.message)
    return render(
        request,
        "account.html",
        {
            "identity": {"id": me.id, "name": me.name} if me else None,
            "api_base": "/api",
            "title": title,
            "message": text,
            **ctx,
        },
        status_code,
    )


@router.get("/account", response_class=HTMLResponse, include_in_schema=False)
async def account_page(request: Request, me: OptionalIdentity) -> Response:
    """Register, sign in, and the account's settings."""
    return render(
        request,
        "account.html",
        {
            "identity": {"id": me.id, "name": me.name} if me else None,
            "api_base": "/api",
        },
    )


@router.get("/accounts/verify", response_class=HTMLResponse, include_in_schema=False)
async def verify_page(
    request: Request,
    session: SessionDep,
    me: OptionalIdentity,
    token: str = Query("", max_length=1000),
) -> Response:
    try:
        ident = await service.verify_email(session, _settings(request), token)
    except AppError as exc:
        return _message(request, me, N_("E-mail not confirmed"), exc)
    text = gettext_for(language_of(request))(N_("{email} is confirmed."))
    return _message(request, me, N_("E-mail confirmed"), text.format(email=ident.email))


@router.get("/accounts/reset", response_class=HTMLResponse, include_in_schema=False)
async def reset_page(
    request: Request, me: OptionalIdentity, token: str = Query("", max_length=1000)
) -> Response:
    return _message(request, me, N_("Choose a new password"), "", reset_token=token)


@router.get("/unsubscribe", response_class=HTMLResponse, include_in_schema=False)
@router.post("/unsubscribe", response_class=HTMLResponse, include_in_schema=False)
async def unsubscribe(
    request: Request,
    session: SessionDep,
    me: OptionalIdentity,
    token: str = Query("", max_length=1000),
) -> Response:
    """An e-mail's unsubscribe link (GET, or the one-click POST of RFC 8058): that
    kind of notification is switched off."""
    try:
        ident, kind = await service.unsubscribe(session, _settings(request), token)
    except AppError as exc:
        return _message(request, me, N_("Not unsubscribed"), exc)
    text = gettext_for(language_of(request))(KIND_TEXT.get(kind, KIND_TEXT["your_turn"]))
    return _message(request, me, N_("Unsubscribed"), text.format(name=ident.name))
