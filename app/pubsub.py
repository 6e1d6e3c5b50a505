"""Fan-out between workers: one async publish/subscribe interface, two implementations.

* :class:`InProcessPubSub` (no ``REDIS_URL``): delivers to the handler of this process.
* :class:`RedisPubSub` (``REDIS_URL`` set, ``redis://`` or ``rediss://`` with a password
  or an ACL user in the URL): redis-py's asyncio client (hiredis parses the replies);
  every worker subscribes to the pattern ``overlord:game:*``, so a message published by
  any worker reaches all of them.

Messages are published only after the database commit they describe.  While Redis is
unreachable the server keeps serving (the database decides every action): one warning
when it goes, quiet retries, one line when it is back, and the hub's reconciler catches
up what the bus missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

log = logging.getLogger("app.pubsub")

Handler = Callable[[str, bytes], Awaitable[None]]
PREFIX = "overlord:game:"


def channel_for(game_id: str) -> str:
    return PREFIX + game_id


def game_of(channel: str) -> str:
    return channel[len(PREFIX) :] if channel.startswith(PREFIX) else channel


class PubSub(Protocol):
    local_only: bool  # True: this process is the only subscriber (no need to publish
    # batches to oneself)

    async def start(self, handler: Handler) -> None: ...
    async def publish(self, channel: str, data: bytes) -> None: ...
    async def close(self) -> None: ...


class InProcessPubSub:
    """Same-process fan-out; the handler runs in order, one message at a time."""

    local_only = True

    def __init__(self) -> None:
        self._handler: Handler | None = None
        self._lock = asyncio.Lock()

    async def start(self, handler: Handler) -> None:
        self._handler = handler

    async def publish(self, channel: str, data: bytes) -> None:
        if self._handler is None:
            return
        async with self._lock:
            try:
                await self._handler(channel, data)
            except Exception:  # a subscriber bug must not fail the publisher
                log.exception("pubsub handler failed")

    async def close(self) -> None:
        self._handler = None


class Outage:
    """Says once that Redis is unreachable and once that it is back (never a traceback
    per failed call)."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.down = False

    def failed(self, exc: BaseException) -> None:
        if not self.down:
            self.down = True
            log.warning("%s: Redis unreachable (%r); retrying quietly", self.what, exc)

    def ok(self) -> None:
        if self.down:
            self.down = False
            log.warning("%s: Redis reachable again", self.what)


def redis_client(url: str) -> Any:
    """The redis-py asyncio client of ``REDIS_URL`` (``rediss://`` for TLS; user and
    password in the URL for an ACL)."""
    import redis.asyncio as aioredis

    return aioredis.from_url(url, socket_connect_timeout=2, health_check_interval=15)


class RedisPubSub:
    """Redis pub/sub: one pattern subscription per worker, one client for publishing."""

    local_only = False
    RETRY_SECONDS = 1.0

    def __init__(self, url: str) -> None:
        self._redis = redis_client(url)
        self._task: asyncio.Task[None] | None = None
        self._pub = Outage("bus publish")
        self._sub = Outage("bus subscriber")

    async def start(self, handler: Handler) -> None:
        ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._task = asyncio.create_task(self._listen(handler, ready), name="redis-sub")
        with contextlib.suppress(asyncio.TimeoutError):  # Redis down: serve anyway
            await asyncio.wait_for(asyncio.shield(ready), 3.0)

    async def _listen(self, handler: Handler, ready: asyncio.Future[None]) -> None:
        from redis.exceptions import RedisError

        while True:
            pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.psubscribe(PREFIX + "*")
                self._sub.ok()
                if not ready.done():
                    ready.set_result(None)
                while True:
                    m = await pubsub.get_message(timeout=None)
                    if m is None or m.get("type") != "pmessage":
                        continue
                    channel = m["channel"]
                    try:
                        await handler(
                            channel.decode() if isinstance(channel, bytes) else channel, m["data"]
                        )
                    except Exception:  # a subscriber bug must not stop the bus
                        log.exception("bus message on %s failed", channel)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                self._sub.failed(exc)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
            await asyncio.sleep(self.RETRY_SECONDS)

    async def publish(self, channel: str, data: bytes) -> None:
        from redis.exceptions import RedisError

        try:
            await self._redis.publish(channel, data)
        except (RedisError, OSError) as exc:
            self._pub.failed(exc)
            return
        self._pub.ok()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        with contextlib.suppress(Exception):
            await self._redis.aclose()


def make_pubsub(redis_url: str | None) -> PubSub:
    return RedisPubSub(redis_url) if redis_url else InProcessPubSub()
