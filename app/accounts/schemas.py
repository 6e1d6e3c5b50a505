"""Request and response bodies of the account endpoints (docs/protocol.md "Accounts")."""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime
from typing import Annotated

from pydantic import AfterValidator, BaseModel, Field

from ..inputs import has_control

NAME_RE = re.compile(r"^[^\W_][\w-]{2,23}$")
# what an address must look like to be mailed: one @, a dot in the domain, no spaces
EMAIL_RE = re.compile(r"^[^@\s<>,;:\"()\[\]\\]{1,64}@[A-Za-z0-9-]{1,63}(\.[A-Za-z0-9-]{1,63})+$")
KINDS = ("your_turn", "offer", "finished")


def clean_name(v: str) -> str:
    """An account name in NFKC form: 3-24 letters, digits, '_' or '-', starting with a
    letter or digit (it is a path segment of ``/players/{name}``)."""
    v = unicodedata.normalize("NFKC", v)
    if has_control(v) or not NAME_RE.match(v):
        raise ValueError("3-24 letters, digits, '_' or '-', starting with a letter or digit")
    return v


def clean_email(v: str) -> str:
    """An address with one '@' and a dotted domain, no spaces or quoting."""
    v = v.strip()
    if not EMAIL_RE.match(v):
        raise ValueError("not an e-mail address")
    return v


AccountName = Annotated[
    str,
    Field(min_length=1, max_length=64, examples=["Rommel"]),
    AfterValidator(clean_name),
]
Email = Annotated[str, Field(max_length=254), AfterValidator(clean_email)]
Password = Annotated[str, Field(min_length=8, max_length=128)]


def notify_of(prefs: dict[str, bool] | None) -> dict[str, bool]:
    """Every notification kind and whether it is on (on unless switched off)."""
    return {k: bool((prefs or {}).get(k, True)) for k in KINDS}


class Credentials(BaseModel):
    name: AccountName
    password: Password


class Register(Credentials):
    email: Email | None = None


class EmailIn(BaseModel):
    email: Email


class NameIn(BaseModel):
    name: str = Field(min_length=1, max_length=64)


class TokenIn(BaseModel):
    token: str = Field(min_length=1, max_length=1000)


class PasswordReset(TokenIn):
    password: Password


class PasswordChange(BaseModel):
    """The current password and the new one."""

    password: str = Field(min_length=1, max_length=128)
    new_password: Password


class NotifyIn(BaseModel):
    """Notification kinds switched on or off (kinds not given keep their setting)."""

    your_turn: bool | None = None
    offer: bool | None = None
    finished: bool | None = None

    model_config = {"extra": "forbid"}


class PushKeys(BaseModel):
    p256dh: str = Field(min_length=1, max_length=200)
    auth: str = Field(min_length=1, max_length=100)


class PushIn(BaseModel):
    """A browser's ``PushSubscription.toJSON()``."""

    endpoint: str = Field(min_length=10, max_length=500, pattern=r"^https?://")
    keys: PushKeys


class PushOut(BaseModel):
    endpoint: str = Field(max_length=500)


class AccountOut(BaseModel):
    id: str
    name: str
    registered: bool
    registered_at: datetime | None = None
    email: str | None = None
    email_verified: bool = False
    notify: dict[str, bool] = Field(default_factory=dict)


class SignedIn(AccountOut):
    token: str
