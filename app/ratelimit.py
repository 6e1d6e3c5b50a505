"""Per-client rate limits (the ``limits`` library: moving windows in this worker's
memory; with several workers each keeps its own window, so a client gets at most
workers x the rate).

Limits are keyed by identity when the caller has one, else by its address.  A refusal
is :class:`RateLimited` (HTTP 429 ``rate_limited`` with ``Retry-After`` semantics in
``details.retry_after``).
"""
from __future__ import annotations

import time
from typing import Any

from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from .errors import AppError


class RateLimited(AppError):
    code, status = "rate_limited", 429


CATCHUP_RATE = "30/10second"   # log rebuilds (/events, reconnect since) per client

_storage = MemoryStorage()
_limiter = MovingWindowRateLimiter(_storage)


def client_key(conn: Any, identity_id: str | None = None) -> str:
    """``i:<identity>`` or ``a:<address>`` for a Request or a WebSocket."""
    if identity_id:
        return f"i:{identity_id}"
    client = getattr(conn, "client", None)
    return f"a:{client.host if client else 'unknown'}"


def hit(rate: str, scope: str, key: str) -> bool:
    """Count one hit of ``key`` against ``rate`` (e.g. ``"10/minute"``); False when over."""
    return bool(_limiter.hit(parse(rate), scope, key))


def check(rate: str, scope: str, key: str, what: str) -> None:
    """Count one hit, or raise :class:`RateLimited`."""
    item = parse(rate)
    if _limiter.hit(item, scope, key):
        return
    reset = _limiter.get_window_stats(item, scope, key).reset_time
    raise RateLimited(f"too many {what}: at most {rate}", limit=rate,
                      retry_after=max(1, round(reset - time.time())))
