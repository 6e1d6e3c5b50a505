"""Fan-out: one async publish/subscribe interface, two implementations.

* :class:`InProcessPubSub` (default): delivers to the handler of this process.
* :class:`RedisPubSub` (``REDIS_URL`` set): every worker subscribes to the pattern
  ``overlord:game:*``; a message published by any worker reaches all of them, and each
  worker redacts per seat for its own connections.

Messages are published only after the database commit they describe.
"""
from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

import hiredis

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


class _Subscription(asyncio.Protocol):
    """The subscriber's connection: RESP parsed by hiredis (C) straight from the bytes
    received, each ``pmessage`` queued for the consumer task."""

    def __init__(self, owner: RawRedisSubscriber) -> None:
        self.owner = owner
        self.reader = hiredis.Reader()
        self.transport: asyncio.Transport | None = None
        self.subscribed = asyncio.get_running_loop().create_future()
        self.lost = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport      # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        got = self.owner.pending
        try:
            while (m := self.reader.gets()) is not False:
                if isinstance(m, list) and len(m) == 4 and m[0] == b"pmessage":
                    got.append((m[2], m[3]))
                elif isinstance(m, list) and m and m[0] == b"psubscribe":
                    if not self.subscribed.done():
                        self.subscribed.set_result(None)
                elif isinstance(m, hiredis.ReplyError):     # AUTH refused, ...
                    log.warning("redis subscriber: %s", str(m)[:200])
                    if self.transport is not None:
                        self.transport.close()
        except hiredis.ProtocolError:
            log.exception("redis subscriber: protocol error")
            if self.transport is not None:
                self.transport.close()
        if got:
            self.owner.wake.set()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.lost.done():
            self.lost.set_result(None)
        if not self.subscribed.done():
            self.subscribed.set_exception(ConnectionError("redis subscriber connection lost"))
            self.subscribed.exception()         # retrieved: the consumer may not await it
        self.owner.wake.set()


class RawRedisSubscriber:
    """PSUBSCRIBE ``overlord:game:*`` on one dedicated connection read by an
    ``asyncio.Protocol`` whose bytes hiredis parses: ~2 us of this worker's CPU per
    message, against 9-65 us through ``redis.asyncio``'s ``PubSub.listen`` (its
    connection, timeouts and locks per message; docs/performance.md session 8): every worker hears every game's
    batches, so that cost was paid once per action by each worker.  A lost connection is
    reopened every 0.5 s; what was published meanwhile is lost to this worker, as with
    any Redis subscriber (the hub's reconciler reads the log: app/realtime/hub.py)."""

    RETRY_SECONDS = 0.5

    def __init__(self, host: str, port: int, username: str | None, password: str | None) -> None:
        self.host, self.port, self.username, self.password = host, port, username, password
        self.pending: collections.deque[tuple[bytes, bytes]] = collections.deque()
        self.wake = asyncio.Event()
        self._proto: _Subscription | None = None

    async def _open(self) -> _Subscription:
        loop = asyncio.get_running_loop()
        transport, proto = await loop.create_connection(lambda: _Subscription(self),
                                                        self.host, self.port)
        cmds = []
        if self.password is not None:
            cmds.append(_resp(b"AUTH", *([self.username.encode()] if self.username else []),
                              self.password.encode()))
        cmds.append(_resp(b"PSUBSCRIBE", (PREFIX + "*").encode()))
        transport.write(b"".join(cmds))
        try:
            await asyncio.wait_for(asyncio.shield(proto.subscribed), 10)
        except BaseException:
            transport.close()
            raise
        return proto

    async def run(self, handler: Handler, ready: asyncio.Future[None]) -> None:
        """Subscribe, then hand each message to ``handler`` in the order received (one
        at a time); reconnect when the connection drops.  ``ready``: set once first
        subscribed (or failed)."""
        while True:
            try:
                self._proto = proto = await self._open()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not ready.done():
                    ready.set_exception(exc)
                    return
                log.warning("redis subscriber: cannot connect (%s); retrying", exc)
                await asyncio.sleep(self.RETRY_SECONDS)
                continue
            if not ready.done():
                ready.set_result(None)
            while True:
                await self.wake.wait()
                self.wake.clear()
                while self.pending:
                    channel, data = self.pending.popleft()
                    try:
                        await handler(channel.decode(), data)
                    except asyncio.CancelledError:
                        raise
                    except Exception:
                        log.exception("pubsub handler failed")
                if proto.lost.done():
                    break
            log.warning("redis subscriber connection lost; resubscribing")
            await asyncio.sleep(self.RETRY_SECONDS)

    def close(self) -> None:
        if self._proto is not None and self._proto.transport is not None:
            self._proto.transport.close()


class RedisPubSub:
    """Redis pub/sub: one pattern subscription per worker.  ``redis://`` URLs use the raw
    publisher and subscriber above (one connection each, hiredis parsing); other URLs
    (``rediss://``, ``unix://``) go through ``redis.asyncio``."""

    local_only = False

    def __init__(self, url: str) -> None:
        self._raw = RawRedisPublisher(url) if url.startswith("redis://") else None
        self._sub: RawRedisSubscriber | None = None
        if self._raw is not None:
            r = self._raw
            self._sub = RawRedisSubscriber(r.host, r.port, r.username, r.password)
        else:
            import redis.asyncio as aioredis

            self._redis = aioredis.from_url(url)
            self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        self._task: asyncio.Task[None] | None = None
        self._handler: Handler | None = None

    async def start(self, handler: Handler) -> None:
        self._handler = handler
        if self._sub is not None:
            ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._task = asyncio.create_task(self._sub.run(handler, ready), name="redis-sub")
            await ready                 # subscribed before start returns (or its error)
            return
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
        if self._sub is not None:
            self._sub.close()
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if self._sub is None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
            with contextlib.suppress(Exception):
                await self._redis.aclose()


def make_pubsub(redis_url: str | None) -> PubSub:
    return RedisPubSub(redis_url) if redis_url else InProcessPubSub()
