"""E-mail through one ``SMTP_URL`` (aiosmtplib): ``smtp://[user:password@]host[:port]``
(STARTTLS when the server offers it), ``smtps://`` for TLS from the start.  Without
``SMTP_URL`` nothing is sent (:func:`enabled` is False)."""

from __future__ import annotations

import logging
from email.message import EmailMessage
from urllib.parse import unquote, urlsplit

import aiosmtplib

from ..settings import Settings

log = logging.getLogger("app.mail")


def enabled(settings: Settings) -> bool:
    return bool(settings.smtp_url)


def _warn_secret(settings: Settings) -> None:
    """A random per-process SECRET_KEY signs links no other worker (or restart) accepts."""
    global _warned
    if not _warned and "secret_key" not in settings.model_fields_set:
        _warned = True
        log.warning(
            "SECRET_KEY is not set: mailed links work only on this worker until "
            "it restarts (set SECRET_KEY, the same on every worker)"
        )


_warned = False


async def send(
    settings: Settings,
    to: str,
    subject: str,
    text: str,
    headers: dict[str, str] | None = None,
) -> bool:
    """Send one plain-text message; False (logged) when it could not be sent or no
    ``SMTP_URL`` is set.  Never raises: a mail server down must not fail a request."""
    if not settings.smtp_url:
        return False
    _warn_secret(settings)
    url = urlsplit(settings.smtp_url)
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = settings.mail_from, to, subject
    for k, v in (headers or {}).items():
        msg[k] = v
    msg.set_content(text)
    tls = url.scheme == "smtps"
    try:
        await aiosmtplib.send(
            msg,
            hostname=url.hostname or "localhost",
            port=url.port or (465 if tls else 25),
            username=unquote(url.username) if url.username else None,
            password=unquote(url.password) if url.password else None,
            use_tls=tls,
            start_tls=None if not tls else False,
            timeout=20,
        )
        return True
    except (aiosmtplib.SMTPException, OSError) as exc:
        log.warning("mail to %s not sent: %s", to, exc)
        return False
