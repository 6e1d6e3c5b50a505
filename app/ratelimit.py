"""Per-client rate limits (the ``limits`` library, moving windows).

Two limiters:

* :func:`check_shared` (async): the creation limits (identities, games, uploads) and the
  HTTP log requests.  With ``REDIS_URL`` its windows live in Redis, shared by every
  worker (a client gets the rate, not workers x the rate); without, in this worker's
  memory (one worker).  Should Redis fail, the worker's own memory window takes over
  (a limit still holds, per worker) until it answers again.
* :func:`hit` (sync, this worker's memory): limits counted where no await is possible
  (the websocket catch-up of the hub).

Limits are keyed by identity (``i:<id>``) or by client address (``a:<address>``, what
uvicorn reports: behind a reverse proxy run it with ``--proxy-headers`` and
``--forwarded-allow-ips``); creation is counted on both, so new identities do not buy
new windows.  A refusal is :class:`RateLimited` (HTTP 429 ``rate_limited``,
``details.limit`` and ``details.retry_after`` in seconds).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from limits import parse
from limits.aio.storage import MemoryStorage as AsyncMemoryStorage
from limits.aio.storage import RedisStorage as AsyncRedisStorage
from limits.aio.strategies import MovingWindowRateLimiter as AsyncMovingWindowRateLimiter
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from .errors import AppError

log = logging.getLogger(__name__)


class RateLimited(AppError):
    code, status = "rate_limited", 429


_storage = MemoryStorage()
_limiter = MovingWindowRateLimiter(_storage)
_local = AsyncMovingWindowRateLimiter(AsyncMemoryStorage())
_shared: AsyncMovingWindowRateLimiter | None = None


def configure(redis_url: str | None, namespace: str | None = None) -> None:
    """Share :func:`check_shared`'s windows through Redis (None: this worker's memory).
    ``redis://``, ``rediss://`` (TLS) and ``unix://`` URLs, credentials included;
    ``namespace`` (the database schema when set) keeps two servers sharing one Redis
    apart."""
    global _shared
    if not redis_url:
        _shared = None
        return
    scheme, sep, rest = redis_url.partition("://")
    uri = (
        {"redis": "async+redis", "rediss": "async+rediss", "unix": "async+redis+unix"}.get(
            scheme, scheme
        )
        + sep
        + rest
    )
    prefix = "LIMITS:overlord" + (f":{namespace}" if namespace else "")
    _shared = AsyncMovingWindowRateLimiter(
        AsyncRedisStorage(uri, implementation="redispy", key_prefix=prefix)
    )


def client_key(conn: Any, identity_id: str | None = None) -> str:
    """``i:<identity>`` or ``a:<address>`` for a Request or a WebSocket."""
    if identity_id:
        return f"i:{identity_id}"
    return address_key(conn)


def address_key(conn: Any) -> str:
    """``a:<address>``: the client address of a Request or a WebSocket."""
    client = getattr(conn, "client", None)
    return f"a:{client.host if client else 'unknown'}"


def hit(rate: str, scope: str, key: str) -> bool:
    """Count one hit of ``key`` against ``rate`` (e.g. ``"10/minute"``) in this worker's
    memory; False when over."""
    return bool(_limiter.hit(parse(rate), scope, key))


async def check_shared(rate: str, scope: str, key: str, what: str) -> None:
    """Count one hit in the shared windows (Redis when configured), or raise
    :class:`RateLimited`."""
    item = parse(rate)
    limiter = _shared or _local
    try:
        ok = await limiter.hit(item, scope, key)
    except Exception as exc:  # Redis unreachable: this worker's window
        log.warning("rate limit storage failed (%s); counting in this worker", exc)
        limiter = _local
        ok = await limiter.hit(item, scope, key)
    if ok:
        return
    reset = (await limiter.get_window_stats(item, scope, key)).reset_time
    _refuse(rate, what, reset)


def _refuse(rate: str, what: str, reset: float) -> None:
    raise RateLimited(
        f"too many {what}: at most {rate}",
        limit=rate,
        retry_after=max(1, round(reset - time.time())),
    )
