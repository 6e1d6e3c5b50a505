"""Fan-out: one async publish/subscribe interface, two implementations.

* :class:`InProcessPubSub` (default): delivers to the handler of this process.
* :class:`RedisPubSub` (``REDIS_URL`` set): every worker subscribes to the pattern
  ``overlord:game:*``; a message published by any worker reaches all of them, and each
  worker redacts per seat for its own connections.

Messages are published only after the database commit they describe.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

log = logging.getLogger("app.pubsub")

Handler = Callable[[str, bytes], Awaitable[None]]
PREFIX = "overlord:game:"


def channel_for(game_id: str) -> str:
    return PREFIX + game_id


def game_of(channel: str) -> str:
    return channel[len(PREFIX):] if channel.startswith(PREFIX) else channel


class PubSub(Protocol):
    local_only: bool         # True: this process is the only subscriber (no need to publish
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


def _resp(*parts: bytes) -> bytes:
    out = [b"*%d\r\n" % len(parts)]
    for p in parts:
        out.append(b"$%d\r\n%s\r\n" % (len(p), p))
    return b"".join(out)


class RawRedisPublisher:
    """PUBLISH on one dedicated connection, written straight to the socket (no pool, no
    wait for the reply: the replies are read and dropped by a reader task).  One
    connection keeps this worker's messages in order; the write happens before
    ``publish`` returns (when connected), so the other workers hear of a commit before
    this one spends time on its own redaction."""

    def __init__(self, url: str) -> None:
        from urllib.parse import unquote, urlparse

        u = urlparse(url)
        self.host, self.port = u.hostname or "127.0.0.1", u.port or 6379
        self.username = unquote(u.username) if u.username else None
        self.password = unquote(u.password) if u.password else None
        self._writer: asyncio.StreamWriter | None = None
        self._reader_task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()

    async def _connect(self) -> asyncio.StreamWriter:
        reader, writer = await asyncio.open_connection(self.host, self.port)
        if self.password is not None:
            auth = (b"AUTH", *([self.username.encode()] if self.username else []),
                    self.password.encode())
            writer.write(_resp(*auth))
            line = await reader.readline()
            if not line.startswith(b"+"):
                writer.close()
                raise ConnectionError(f"redis AUTH failed: {line[:80]!r}")
        self._reader_task = asyncio.create_task(self._replies(reader, writer), name="redis-pub")
        return writer

    async def _replies(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while line := await reader.readline():
                if line.startswith(b"-"):
                    log.warning("redis publish error: %r", line[:200])
        except (ConnectionError, OSError):
            pass
        finally:
            if self._writer is writer:
                self._writer = None
            writer.close()

    async def publish(self, channel: str, data: bytes) -> None:
        w = self._writer
        if w is None or w.is_closing():
            async with self._lock:
                if self._writer is None or self._writer.is_closing():
                    self._writer = await self._connect()
                w = self._writer
        w.write(_resp(b"PUBLISH", channel.encode(), data))

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        if self._reader_task is not None:
            self._reader_task.cancel()
            with contextlib.suppress(BaseException):
                await self._reader_task


class RedisPubSub:
    """Redis pub/sub through ``redis.asyncio`` (one pattern subscription per worker)."""

    local_only = False

    def __init__(self, url: str) -> None:
        import redis.asyncio as aioredis

        self._redis = aioredis.from_url(url)
        self._raw = RawRedisPublisher(url) if url.startswith("redis://") else None
        self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        self._task: asyncio.Task[None] | None = None
        self._handler: Handler | None = None

    async def start(self, handler: Handler) -> None:
        self._handler = handler
        await self._pubsub.psubscribe(PREFIX + "*")
        self._task = asyncio.create_task(self._listen(), name="redis-pubsub")

    async def _listen(self) -> None:
        assert self._handler is not None
        while True:
            try:
                async for msg in self._pubsub.listen():
                    if msg.get("type") not in ("pmessage", "message"):
                        continue
                    channel = msg["channel"]
                    if isinstance(channel, bytes):
                        channel = channel.decode()
                    try:
                        await self._handler(channel, msg["data"])
                    except Exception:
                        log.exception("pubsub handler failed")
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("redis pubsub connection lost; resubscribing")
                await asyncio.sleep(0.5)
                with contextlib.suppress(Exception):
                    await self._pubsub.psubscribe(PREFIX + "*")

    async def publish(self, channel: str, data: bytes) -> None:
        if self._raw is not None:
            await self._raw.publish(channel, data)
        else:
            await self._redis.publish(channel, data)

    async def close(self) -> None:
        if self._raw is not None:
            await self._raw.close()
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self._redis.aclose()


def make_pubsub(redis_url: str | None) -> PubSub:
    return RedisPubSub(redis_url) if redis_url else InProcessPubSub()
