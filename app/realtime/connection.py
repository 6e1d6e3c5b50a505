"""One websocket connection: a bounded send queue drained by its own writer task through
the framework's send (Starlette's ``WebSocket.send_text``), and a token-bucket rate
limiter for what the client sends.

A slow or dead client never delays anyone else: ``send`` never blocks; when the queue is
full (``SEND_QUEUE`` messages or ``SEND_QUEUE_BYTES`` characters) the connection is
dropped with close 4008 and the client resyncs on reconnect.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from limits import parse
from starlette.websockets import WebSocketState

from ..chat.policy import Actor
from ..jsontext import dumps, loads  # noqa: F401  (re-exported: the hub's serialiser)

# the protocol's fixed limits (docs/protocol.md "Limits")
MAX_MESSAGE_BYTES = 64 * 1024  # a client message past this: error message_too_large
HARD_MAX_BYTES = 1024 * 1024  # a frame past this: the socket is closed (1009)
SEND_QUEUE = 256  # messages queued for one socket before close 4008
SEND_QUEUE_BYTES = 4 * 1024 * 1024  # characters queued for one socket before close 4008
MAX_DROPS = 200  # messages dropped by the rate limit before close 4429

_CLOSE = object()
OVERFLOW = (4008, "send queue overflow: reconnect with since")


def per_second(limit: str) -> float:
    """Messages per second of a ``limits`` string (``20/second``, ``600/minute``)."""
    item = parse(limit)
    return item.amount / item.get_expiry()


def burst(rate: float) -> int:
    """The messages a socket may send at once: twice its rate per second."""
    return max(1, int(2 * rate))


class TokenBucket:
    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class Connection:
    """A client socket of one game: who it is (seats, identity, watched side), what it
    was last sent (``seq``, ``view_seq``: the base of its next view patch) and its queue
    of texts.  One text object may be queued to many connections (an audience's
    update is encoded once)."""

    def __init__(
        self, ws: WebSocket, queue_size: int = SEND_QUEUE, max_bytes: int = SEND_QUEUE_BYTES
    ) -> None:
        self.ws = ws
        self._out: deque[Any] = deque()
        self._waiter: asyncio.Future[None] | None = None  # the idle writer's wake-up
        self.queue_size = queue_size
        self.max_bytes = max_bytes  # bound of the queued texts' length (characters)
        self.queued = 0
        self.seat: str | None = None  # the primary seat (first held)
        self.side: str | None = None
        self.role: str | None = None
        self.held: list[tuple[str, str, str]] = []  # every (seat, side, role) it plays
        self.pinned = False  # bound with ?seat= to that one seat
        self.watch: str | None = None  # a spectator's watched side: the ruleset's seat
        self.watch_side: str | None = None  # for it (``spectator_seat``), e.g. Kriegspiel
        # chat speaks for the identity, not the pinned seat: every (seat, side, role) the
        # identity holds in the game, and the sides playing all roles collectively
        self.chat_held: list[tuple[str, str, str]] = []
        self.collective: frozenset[str] = frozenset()
        self.identity_id: str | None = None
        self.token_hash: str | None = None  # the login token it authenticated with
        self.relay_nonce: str | None = None  # relayed by another worker: its connection
        self.name: str | None = None
        self.seq = -1  # last seq this connection was sent
        self.view_seq = -1  # seq of the last view it holds (patch base)
        self.delta = True  # updates may carry ``view_patch`` (?delta=0: no)
        self.closed = False
        self.close_code = 1000
        self.close_reason = ""
        self.writer_task: asyncio.Task[None] | None = None
        self._view_key: tuple[tuple[Any, ...], Any] | None = None  # ``_kept``
        self._actors: tuple[tuple[Any, ...], Any] | None = None
        self.client = ""  # rate-limit key (identity or address)

    @property
    def actor(self) -> Actor:
        return Actor(
            seat=self.seat, side=self.side, role=self.role, identified=self.identity_id is not None
        )

    @property
    def seats(self) -> list[str]:
        return [h[0] for h in self.held]

    @property
    def actors(self) -> list[Actor]:
        """One chat actor per seat its identity holds in the game (``chat_held``: also the
        seats a connection pinned to one of them does not play; a spectator: one
        seatless actor); a new list for every caller."""
        return list(self.chat_actors)

    @property
    def chat_actors(self) -> tuple[Actor, ...]:
        """:attr:`actors` as one kept tuple (read-only; the hub's hot path)."""
        return self._kept("_actors", lambda: tuple(self._make_actors()))

    def _kept(self, slot: str, make: Any) -> Any:
        """``make()``, kept in ``slot`` while the fields the seat binding is made of are
        the same objects (the hub replaces them, never mutates them): ``actors`` and
        ``view_key`` are asked for every connection at every delivery."""
        made = (
            self.held,
            self.chat_held,
            self.collective,
            self.watch,
            self.identity_id,
            self.seat,
            self.side,
            self.role,
        )
        memo = getattr(self, slot)
        if memo is None or memo[0] != made:  # tuples compare identical items in C
            memo = (made, make())
            setattr(self, slot, memo)
        return memo[1]

    def _make_actors(self) -> list[Actor]:
        held = self.chat_held or self.held
        if not held:
            return [self.actor]
        return [
            Actor(
                seat=s,
                side=sd,
                role=r,
                identified=self.identity_id is not None,
                collective=sd in self.collective,
            )
            for s, sd, r in held
        ]

    @property
    def view_seat(self) -> str | None:
        """The seat views and events are redacted for: the primary seat, or for a
        spectator the watched side's spectator seat (None: the public view)."""
        return self.seat if self.held else self.watch

    @property
    def view_key(self) -> Any:
        """What the payloads of this connection depend on (shared by equal keys): the
        seats it plays (a spectator: the watched side's seat), and its chat actors when
        they are not just those seats."""
        return self._kept("_view_key", self._make_view_key)

    def _make_view_key(self) -> Any:
        base = self.view_seat if len(self.held) <= 1 else tuple(self.seats)
        if not self.held:
            return base
        plain = [Actor(seat=s, side=sd, role=r, identified=True) for s, sd, r in self.held]
        actors = self.actors
        return base if actors == plain else (base, tuple(actors))

    # -- sending -------------------------------------------------------------------------
    def send(self, text: str) -> None:
        """Queue a text for the writer; never waits.  Past either bound the connection is
        closed with 4008 (what is queued is dropped)."""
        if self.closed:
            return
        size = len(text)
        if len(self._out) >= self.queue_size or (
            self.queued and self.queued + size > self.max_bytes
        ):
            self.close(*OVERFLOW)
            return
        self._out.append(text)
        self.queued += size
        self._wake()

    def send_json(self, obj: dict[str, Any]) -> None:
        self.send(dumps(obj))

    def error(self, code: str, message: str, **details: Any) -> None:
        self.send_json({"type": "error", "code": code, "message": message, "details": details})

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Stop sending: what is queued is sent first, unless the queue overflowed."""
        if self.closed:
            return
        self.closed, self.close_code, self.close_reason = True, code, reason
        if code == OVERFLOW[0]:  # a reader this slow may be stuck in a send
            self._out.clear()
            self.queued = 0
            if self.writer_task is not None:
                self.writer_task.cancel()
            return
        self._out.append(_CLOSE)
        self._wake()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def writer(self) -> None:
        """Send the queued texts in order with the framework's send, then the close.

        A client gone is the normal end, not an error: no exception is kept (one kept by
        the task, its traceback holding this frame and so the connection, made a reference
        cycle per dropped socket that only a full collection freed), and a socket whose
        client left is not closed again (Starlette raises for that)."""
        loop = asyncio.get_running_loop()
        try:
            while True:
                while not self._out:  # idle: one future to wake it (no Event's
                    self._waiter = loop.create_future()  # coroutine and waiter list)
                    await self._waiter
                self._waiter = None
                item = self._out.popleft()
                if item is _CLOSE:
                    break
                self.queued -= len(item)
                try:
                    await self.ws.send_text(item)
                except (WebSocketDisconnect, RuntimeError, OSError):
                    self.closed = True
                    return
                # not held while this socket waits for its next message (a spectator's
                # hello of an Overlord game is ~62 KB)
                item = None
        finally:
            self._out.clear()
            if (
                self.ws.client_state is WebSocketState.CONNECTED
                and self.ws.application_state is WebSocketState.CONNECTED
            ):
                try:
                    await asyncio.wait_for(self.ws.close(self.close_code, self.close_reason), 2.0)
                except (WebSocketDisconnect, RuntimeError, OSError, asyncio.TimeoutError):
                    pass
