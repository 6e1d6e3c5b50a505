"""Web Push (pywebpush, VAPID): one message to each of an identity's subscriptions.
Without ``VAPID_PRIVATE_KEY`` nothing is sent.  The public key browsers subscribe with is
derived from the private one, and the contact push services are given is ``MAIL_FROM``'s
address."""

from __future__ import annotations

import asyncio
import base64
import ipaddress
import json
import logging
import os
import socket
from email.utils import parseaddr
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from ..settings import Settings

log = logging.getLogger("app.push")


def enabled(settings: Settings) -> bool:
    return bool(settings.vapid_private_key)


@lru_cache(maxsize=4)
def _vapid(private_key: str) -> Any:
    """The key pair of a VAPID private key: base64url (raw or DER), or a PEM file's path."""
    from py_vapid import Vapid  # type: ignore[import-untyped]

    if os.path.isfile(private_key):
        return Vapid.from_file(private_key)
    return Vapid.from_string(private_key)


def public_key(settings: Settings) -> str | None:
    """The VAPID public key browsers subscribe with (base64url of the uncompressed
    point), or None without Web Push; raises on a private key that cannot be read."""
    if not settings.vapid_private_key:
        return None
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    point = _vapid(settings.vapid_private_key).public_key.public_bytes(
        Encoding.X962, PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(point).rstrip(b"=").decode()


def subject(settings: Settings) -> str:
    """The contact push services are given (VAPID ``sub``): ``MAIL_FROM``'s address."""
    return "mailto:" + parseaddr(settings.mail_from)[1]


def host_allowed(settings: Settings, endpoint: str) -> bool:
    """The push service's host resolves to public addresses only, checked when a message
    is sent: a name taken at subscription (``check_push_endpoint``) may point at a private
    or loopback address since.  A test server also takes loopback addresses."""
    host = urlsplit(endpoint).hostname or ""
    try:
        infos = socket.getaddrinfo(host, 443, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return False
    return addresses_allowed(settings, [str(info[4][0]) for info in infos])


def addresses_allowed(settings: Settings, addresses: list[str]) -> bool:
    """Every address is a public one (on a test server: or every one is loopback)."""
    ips = [ipaddress.ip_address(a.split("%", 1)[0]) for a in addresses]
    if not ips:
        return False
    if settings.allow_test_seed and all(ip.is_loopback for ip in ips):
        return True
    return all(ip.is_global for ip in ips)


def _send(settings: Settings, sub: dict[str, Any], payload: str) -> int:
    """HTTP status of the push service's answer (0: not reached; 410 for a host that
    resolves to a private address).  pywebpush is imported
    here, on first use (it brings requests and more: seconds of every worker's start
    on a server without VAPID keys)."""
    from pywebpush import WebPushException, webpush  # type: ignore[import-untyped]

    if not host_allowed(settings, sub.get("endpoint", "")):
        log.warning("push to %s refused: not a public address", sub.get("endpoint", "?")[:60])
        return 410  # not a push service: the subscription is forgotten
    try:
        r = webpush(
            subscription_info=sub,
            data=payload,
            vapid_private_key=_vapid(str(settings.vapid_private_key)),
            vapid_claims={"sub": subject(settings)},
            timeout=10,
        )
        return int(getattr(r, "status_code", 201))
    except WebPushException as exc:
        status = getattr(exc.response, "status_code", 0) if exc.response is not None else 0
        log.warning("push to %s refused: %s", sub.get("endpoint", "?")[:60], exc)
        return int(status)
    except Exception as exc:  # noqa: BLE001 (the push service down: logged, never raised)
        log.warning("push to %s failed: %s", sub.get("endpoint", "?")[:60], exc)
        return 0


async def send(
    settings: Settings, subs: list[dict[str, Any]], title: str, body: str, url: str
) -> list[str]:
    """Push ``{title, body, url}`` to each subscription; returns the endpoints the push
    service says are gone (404/410), to be forgotten."""
    if not enabled(settings) or not subs:
        return []
    payload = json.dumps({"title": title, "body": body, "url": url})
    codes = await asyncio.gather(*(asyncio.to_thread(_send, settings, s, payload) for s in subs))
    return [s["endpoint"] for s, c in zip(subs, codes) if c in (404, 410)]
