"""Accounts (docs/protocol.md "Accounts").

* **Register**: a name and a password (pwdlib's argon2id hash; the password itself is
  never stored).  A guest who registers keeps his identity, so every game he holds
  stays his; anyone else gets a new identity.  Names are unique once normalised
  (:func:`name_key`: NFKC and case-folded), enforced by the database's unique constraint.
* **Sign in** on any device: a new session (token) of the account's identity; the
  session list and revocation of ``app/identity`` apply to it.
* **E-mail**: optional; verified by a signed link (itsdangerous, the server's
  ``SECRET_KEY``, valid :data:`LINK_HOURS`).  A verified address receives notifications and
  password resets.
* **Password reset**: a signed link to the verified address; the link carries a digest
  of the current password hash, so it works once (a new password changes the hash).  A
  reset revokes every session.
* **Password change**: signed in, with the current password; the account's other
  sessions are revoked.  Revoked sessions' open sockets are closed by the caller
  (``GameSessions.revoke`` of each token hash returned).
"""

from __future__ import annotations

import asyncio
import hashlib
import ipaddress
import re
import unicodedata
from urllib.parse import urlsplit

from pwdlib import PasswordHash
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from ..errors import BadRequest, Conflict, Forbidden, Unauthenticated, Unprocessable
from ..i18n import LANGUAGES, gettext_for
from ..identity.repository import session_by_hash
from ..identity.service import new_session, revoked_session
from ..models import AuthSession, Identity, PushSubscription, utcnow
from ..notifications import mail
from ..security import hash_token, new_id, new_token
from ..settings import Settings
from . import repository
from .schemas import KINDS, AccountOut, NotifyIn, PushIn, Register, notify_of
from .tokens import InvalidLink, sign, unsign

LINK_HOURS = 24  # how long a mailed link (e-mail verification, password reset) is valid
_hasher = PasswordHash.recommended()
# verified against when the name is unknown, so that a sign-in takes as long either way
_DUMMY = _hasher.hash("not a password of anyone")


def name_key(name: str) -> str:
    """The form names are compared in: NFKC, then case-folded ("Rommel" == "ROMMEL")."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def out(ident: Identity) -> AccountOut:
    return AccountOut(
        id=ident.id,
        name=ident.name,
        registered=ident.password_hash is not None,
        registered_at=ident.registered_at,
        email=ident.email,
        email_verified=bool(ident.email_verified),
        notify=notify_of(ident.notify),
    )


# ------------------------------------------------------------------ register / sign in
async def _hash(password: str) -> str:
    return await asyncio.to_thread(_hasher.hash, password)


async def _verify(password: str, hashed: str) -> bool:
    return await asyncio.to_thread(_hasher.verify, password, hashed)


def set_lang(ident: Identity, lang: str) -> None:
    """The language the account reads its e-mails in (a language of the pages only)."""
    if lang in LANGUAGES:
        ident.lang = lang


async def register(
    session: AsyncSession,
    settings: Settings,
    body: Register,
    guest: Identity | None,
    label: str | None,
    lang: str = "en",
) -> tuple[Identity, str | None]:
    """The account, and a new token (None when a guest was upgraded: his token stays)."""
    if guest is not None and guest.password_hash is not None:
        raise Conflict("you are signed in to an account already", code="already_registered")
    key = name_key(body.name)
    if await repository.by_name_key(session, key) is not None:
        raise Conflict(f"the name {body.name!r} is taken", code="name_taken")
    hashed = await _hash(body.password)
    token = None
    ident = guest
    if ident is None:
        token = new_token()
        ident = Identity(id=new_id("i"), name=body.name, token_hash=hash_token(token))
        session.add(ident)
        await session.flush()
        session.add(new_session(ident.id, token, label))
    ident.name, ident.name_key, ident.password_hash = body.name, key, hashed
    ident.registered_at = utcnow()
    ident.email, ident.email_verified = body.email, False
    set_lang(ident, lang)
    try:
        await session.commit()
    except IntegrityError:  # the same name registered at the same moment
        await session.rollback()
        raise Conflict(f"the name {body.name!r} is taken", code="name_taken") from None
    if body.email:
        await send_verification(settings, ident)
    return ident, token


async def sign_in(
    session: AsyncSession, name: str, password: str, label: str | None, lang: str = "en"
) -> tuple[Identity, str]:
    """A new session of the account ``name`` (``bad_credentials`` whatever is wrong)."""
    ident = await repository.by_name_key(session, name_key(name))
    ok = await _verify(password, ident.password_hash if ident and ident.password_hash else _DUMMY)
    if ident is None or not ok:
        raise Unauthenticated("wrong name or password", code="bad_credentials")
    token = new_token()
    session.add(new_session(ident.id, token, label))
    set_lang(ident, lang)
    await session.commit()
    return ident, token


# ------------------------------------------------------------------ e-mail
async def send_verification(settings: Settings, ident: Identity) -> bool:
    """Mail the address's confirmation link, in the account's language."""
    _ = gettext_for(ident.lang or "en")
    link = sign(settings, "verify", {"i": ident.id, "e": ident.email})
    return await mail.send(
        settings,
        ident.email or "",
        _("Confirm your e-mail address"),
        _(
            "Hello {name},\n\nto receive Overlord notifications at this address, open:\n"
            "{link}\n\nIf you did not ask for this, ignore this message.\n"
        ).format(name=ident.name, link=f"{settings.base_url()}/accounts/verify?token={link}"),
    )


async def set_email(
    session: AsyncSession,
    settings: Settings,
    ident: Identity,
    email: str | None,
    lang: str = "en",
) -> Identity:
    _require_account(ident)
    ident.email, ident.email_verified = email, False
    set_lang(ident, lang)
    await session.commit()
    if email:
        await send_verification(settings, ident)
    return ident


async def verify_email(session: AsyncSession, settings: Settings, token: str) -> Identity:
    data = unsign(settings, "verify", token, LINK_HOURS * 3600)
    ident = await session.get(Identity, str(data.get("i")) if isinstance(data, dict) else "")
    if ident is None or not ident.email or ident.email != data.get("e"):
        raise InvalidLink("this link is for an address no longer on the account")
    ident.email_verified = True
    await session.commit()
    return ident


def _pw_digest(ident: Identity) -> str:
    return hashlib.sha256((ident.password_hash or "").encode()).hexdigest()[:16]


async def request_reset(
    session: AsyncSession, settings: Settings, name: str, lang: str = "en"
) -> None:
    """Mail a reset link if ``name`` is an account with a verified address (the answer
    is the same either way: nobody learns which names have one), in the language of the
    page that asked for it."""
    try:
        key = name_key(name)
    except ValueError:
        return
    ident = await repository.by_name_key(session, key)
    if ident is None or not ident.email or not ident.email_verified:
        return
    _ = gettext_for(lang)
    link = sign(settings, "reset", {"i": ident.id, "p": _pw_digest(ident)})
    await mail.send(
        settings,
        ident.email,
        _("Reset your password"),
        _(
            "Hello {name},\n\nto choose a new Overlord password, open:\n{link}\n\n"
            "If you did not ask for this, ignore this message.\n"
        ).format(name=ident.name, link=f"{settings.base_url()}/accounts/reset?token={link}"),
    )


async def _revoke_sessions(
    session: AsyncSession, ident: Identity, keep: str | None = None
) -> list[str]:
    """Revoke every session of the account but the one of token hash ``keep`` (not
    committed); the token hashes revoked, whose open sockets are to be closed."""
    live = (AuthSession.identity_id == ident.id, AuthSession.revoked_at.is_(None))
    other = (AuthSession.token_hash != keep,) if keep else ()
    hashes = list(
        (await session.execute(select(AuthSession.token_hash).where(*live, *other))).scalars()
    )
    await session.execute(update(AuthSession).where(*live, *other).values(revoked_at=utcnow()))
    legacy = ident.token_hash  # a token from before sessions: recorded as revoked
    if legacy and legacy != keep and await session_by_hash(session, legacy) is None:
        session.add(revoked_session(ident.id, legacy))
        hashes.append(legacy)
    return hashes


async def reset_password(
    session: AsyncSession, settings: Settings, token: str, password: str
) -> list[str]:
    """The new password of a reset link's account; every session revoked (their token
    hashes returned)."""
    data = unsign(settings, "reset", token, LINK_HOURS * 3600)
    ident = await session.get(Identity, str(data.get("i")) if isinstance(data, dict) else "")
    if ident is None or data.get("p") != _pw_digest(ident):
        raise InvalidLink("this link was used already")
    ident.password_hash = await _hash(password)
    revoked = await _revoke_sessions(session, ident)
    await session.commit()
    return revoked


async def change_password(
    session: AsyncSession, ident: Identity, current: str, password: str, keep: str
) -> list[str]:
    """A signed-in account's new password, given its current one; its sessions but the
    caller's (token hash ``keep``) revoked (their token hashes returned)."""
    _require_account(ident)
    if not await _verify(current, ident.password_hash or _DUMMY):
        raise Forbidden("the current password is wrong", code="wrong_password")
    ident.password_hash = await _hash(password)
    revoked = await _revoke_sessions(session, ident, keep)
    await session.commit()
    return revoked


# ------------------------------------------------------------------ notifications
def _require_account(ident: Identity) -> None:
    if ident.password_hash is None:
        raise Conflict("register first (a guest has no account)", code="not_registered")


async def set_notify(session: AsyncSession, ident: Identity, body: NotifyIn) -> Identity:
    prefs = notify_of(ident.notify)
    prefs.update({k: v for k, v in body.model_dump().items() if v is not None})
    ident.notify = prefs
    await session.commit()
    return ident


async def unsubscribe(
    session: AsyncSession, settings: Settings, token: str
) -> tuple[Identity, str]:
    """The account and the kind an unsubscribe link switches off (no expiry)."""
    data = unsign(settings, "unsubscribe", token)
    kind = data.get("k") if isinstance(data, dict) else None
    ident = await session.get(Identity, str(data.get("i")) if isinstance(data, dict) else "")
    if ident is None or kind not in KINDS:
        raise InvalidLink("this link is not valid")
    ident.notify = {**notify_of(ident.notify), str(kind): False}
    await session.commit()
    return ident, str(kind)


def _numeric_host(host: str) -> bool:
    """A host the resolver reads as an address (``127.1``, ``0x7f000001``): a real name's
    last label is never a number."""
    return re.fullmatch(r"(0x[0-9a-f]*|[0-9]+)", host.rsplit(".", 1)[-1]) is not None


def check_push_endpoint(settings: Settings, endpoint: str) -> None:
    """A push service's address is https to a public host: never a loopback, private or
    link-local address, which would let anyone make the server post to its own network.
    A test server (``OVERLORD_TEST_SEEDS``) also takes loopback addresses, over http too:
    the tests' own push service."""
    try:
        url = urlsplit(endpoint)
        host = (url.hostname or "").rstrip(".")
        url.port  # noqa: B018 (raises on a port that is not a number)
    except ValueError:
        host, url = "", urlsplit("")
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        ip = None
    loopback = host == "localhost" or host.endswith(".localhost") or bool(ip and ip.is_loopback)
    if loopback and settings.allow_test_seed and url.scheme in ("http", "https"):
        return
    if (
        url.scheme != "https"
        or not host
        or loopback
        or url.username is not None
        or (ip is not None and not ip.is_global)
        or (ip is None and ("." not in host or _numeric_host(host)))
    ):
        raise Unprocessable(
            "push notifications go to a push service's https address",
            code="push_endpoint_refused",
        )


async def add_push(
    session: AsyncSession, settings: Settings, ident: Identity, body: PushIn
) -> None:
    """Keep a browser's push subscription (an endpoint moves to the latest identity)."""
    check_push_endpoint(settings, body.endpoint)
    await repository.drop_push(session, body.endpoint)
    session.add(
        PushSubscription(
            identity_id=ident.id,
            endpoint=body.endpoint,
            p256dh=body.keys.p256dh,
            auth=body.keys.auth,
        )
    )
    await session.commit()


async def drop_push(session: AsyncSession, ident: Identity, endpoint: str) -> None:
    if await repository.drop_push(session, endpoint, ident.id) == 0:
        raise BadRequest("no such push subscription", code="push_not_found", status=404)
    await session.commit()
