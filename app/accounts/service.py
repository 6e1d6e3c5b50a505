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
"""

from __future__ import annotations

import asyncio
import hashlib
import unicodedata

from pwdlib import PasswordHash
from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from ..errors import BadRequest, Conflict, Unauthenticated
from ..i18n import LANGUAGES, gettext_for
from ..identity.service import new_session
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


async def reset_password(
    session: AsyncSession, settings: Settings, token: str, password: str
) -> Identity:
    data = unsign(settings, "reset", token, LINK_HOURS * 3600)
    ident = await session.get(Identity, str(data.get("i")) if isinstance(data, dict) else "")
    if ident is None or data.get("p") != _pw_digest(ident):
        raise InvalidLink("this link was used already")
    ident.password_hash = await _hash(password)
    await session.execute(
        update(AuthSession)
        .where(AuthSession.identity_id == ident.id, AuthSession.revoked_at.is_(None))
        .values(revoked_at=utcnow())
    )
    await session.commit()
    return ident


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


async def add_push(session: AsyncSession, ident: Identity, body: PushIn) -> None:
    """Keep a browser's push subscription (an endpoint moves to the latest identity)."""
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
