"""Signed links (itsdangerous, the server's ``SECRET_KEY``): e-mail verification,
password reset, unsubscribe.  Each purpose has its own salt, so a link of one kind is
never accepted as another."""

from __future__ import annotations

from typing import Any

from itsdangerous import BadSignature, URLSafeTimedSerializer

from ..errors import AppError
from ..settings import Settings


class InvalidLink(AppError):
    code, status = "invalid_token", 400


def _signer(settings: Settings, purpose: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(settings.secret_key, salt=f"overlord-{purpose}")


def sign(settings: Settings, purpose: str, data: Any) -> str:
    return _signer(settings, purpose).dumps(data)


def unsign(settings: Settings, purpose: str, token: str, max_age: int | None = None) -> Any:
    """The data of a link made by :func:`sign` (``invalid_token`` if forged, of another
    purpose, or older than ``max_age`` seconds)."""
    try:
        return _signer(settings, purpose).loads(token, max_age=max_age)
    except BadSignature:
        raise InvalidLink("this link is not valid (or has expired)") from None
