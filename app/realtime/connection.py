"""One websocket connection: a bounded send queue drained by its own writer task, and a
token-bucket rate limiter for what the client sends.

A slow or dead client never delays anyone else: ``send`` never blocks; when the queue is
full the connection is dropped (close 4008) and the client resyncs on reconnect.
"""
from __future__ import annotations

import asyncio
import contextlib
import os
import queue
import socket
import struct
import sys
import threading
import time
from collections import deque
from typing import Any

from fastapi import WebSocket
from websockets.protocol import State

from ..chat.policy import Actor
from ..jsontext import dumps, loads  # noqa: F401  (re-exported: the hub's serialiser)

_CLOSE = object()


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


class Encoded:
    """A text and its websocket frame, encoded at most once however many connections send
    it (an audience's update goes to every socket of the audience as the same bytes)."""

    __slots__ = ("text", "_frame")

    def __init__(self, text: str) -> None:
        self.text = text
        self._frame: bytes | None = None

    @property
    def frame(self) -> bytes:
        if self._frame is None:
            self._frame = frame_of(self.text)
        return self._frame


_HEAD16, _HEAD64 = struct.Struct("!BBH"), struct.Struct("!BBQ")


def frame_of(text: str) -> bytes:
    """A server's (unmasked, final) text frame, uncompressed (RFC 6455 5.2): the bytes
    ``websockets.frames.Frame(Opcode.TEXT, data).serialize(mask=False)`` writes, without
    building the frame object."""
    data = text.encode()
    n = len(data)
    if n < 126:
        return bytes((0x81, n)) + data
    if n < 65536:
        return _HEAD16.pack(0x81, 126, n) + data
    return _HEAD64.pack(0x81, 127, n) + data


def direct_protocol(proto: Any) -> Any:
    """The server protocol a connection may write frames to itself (``Connection._direct``),
    or None: only uvicorn's websockets-sansio protocol (whose state we can read), and only
    without extensions (permessage-deflate keeps a compression context per message)."""
    if type(proto).__name__ != "WebSocketsSansIOProtocol":
        return None
    ws = getattr(proto, "conn", None)
    if ws is None or getattr(ws, "extensions", None) or not hasattr(proto, "writable") \
            or not hasattr(proto, "transport"):
        return None
    return proto


class _Resume:
    """A send started on the spot that suspended (the transport paused): the writer
    drives it to the end the way a task would, waiting for each future it yields."""

    __slots__ = ("coro", "waiting")

    def __init__(self, coro: Any, waiting: Any) -> None:
        self.coro, self.waiting = coro, waiting

    async def finish(self) -> None:
        waiting = self.waiting
        while True:
            error: BaseException | None = None
            try:
                if waiting is None:
                    await asyncio.sleep(0)
                else:               # as a task would: it took the future it was handed
                    waiting._asyncio_future_blocking = False
                    await waiting
            except asyncio.CancelledError:
                self.coro.close()
                raise
            except BaseException as exc:        # the future failed: into the send
                error = exc
            try:
                waiting = self.coro.send(None) if error is None else self.coro.throw(error)
            except StopIteration:
                return


class FrameWriter:
    """One thread that writes the frames of deliveries to their sockets, so that the
    system calls and what they wake run beside the event loop instead of inside it.

    A socket write wakes its reader, and Linux places a woken reader on the writer's CPU:
    with every write on the loop thread, a load generator (or a proxy) on the same machine
    read each update on the loop's CPU, between the loop's writes and before its next
    action, while the other CPU idled (session 10, docs/performance.md).  From this thread
    the readers wake where it runs, and the loop goes on with the next action.

    Order per connection is kept by counts (each written by one thread only): the loop
    hands a connection's frames here while any it handed earlier are not yet written;
    a write that does not complete (the socket's buffer is full) hands the rest back to
    the loop's transport, which then owns the connection's order until all is written.
    Each connection writes through its own duplicate of the socket's descriptor, closed
    once nothing of it is pending (:meth:`Connection.release`)."""

    native = False                  # the C thread (:class:`NativeFrameWriter`)

    def __init__(self) -> None:
        self.active = True          # new frames may come here (``govern`` turns it)
        self._queue: queue.SimpleQueue[tuple[Connection, bytes]] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="frame-writer", daemon=True)
        self._thread.start()

    def put(self, conn: Connection, data: bytes) -> None:
        self._queue.put((conn, data))

    async def govern(self, on_below: float, off_above: float, fast: float, slow: float,
                     period: float = 1.0) -> None:
        """(loop) Use the thread only while the event loop has room: each ``period``, the
        loop thread's CPU share (``time.thread_time``, read on the loop itself) turns it
        off above ``off_above`` (writes on the loop, GIL switch interval ``slow``) and on
        again below ``on_below`` (interval ``fast``).  The thread saves the loop the wake-ups'
        preemptions (p99 -20 % at 100 games) but its GIL hand-offs cost CPU: at 400 games,
        +14 % per action and a saturated worker (session 11).  Frames already handed to it
        keep their order: a connection with any pending goes on through it (``_write``)."""
        cpu, t = time.thread_time(), time.monotonic()
        while True:
            await asyncio.sleep(period)
            cpu2, t2 = time.thread_time(), time.monotonic()
            busy = (cpu2 - cpu) / max(t2 - t, 1e-6)
            cpu, t = cpu2, t2
            if self.active and busy > off_above:
                self.active = False
                sys.setswitchinterval(slow)
            elif not self.active and busy < on_below:
                self.active = True
                sys.setswitchinterval(fast)

    def _run(self) -> None:
        while True:
            conn, data = self._queue.get()
            try:
                if conn._spilled:
                    n = 0
                else:
                    try:
                        n = conn._wsock.send(data)      # type: ignore[union-attr]
                    except (BlockingIOError, InterruptedError):
                        n = 0
                    except OSError:         # gone: the loop sees the disconnect itself
                        n = len(data)
                if n < len(data):           # the rest goes after what the loop holds
                    conn._spilled = True
                    conn._spills += 1
                    with contextlib.suppress(RuntimeError):     # a loop already closed
                        conn._loop.call_soon_threadsafe(conn._spill, data[n:])
            except Exception:               # never let one socket stop the thread
                pass
            finally:
                conn._written += 1

    def unspill(self, conn: Connection) -> None:
        """(loop) Nothing of ``conn`` is in the thread's hands: it may write it again."""
        conn._spilled = False

    def hold(self) -> None:
        """(The C thread's: one wake-up per burst.)"""

    def release_held(self) -> None:
        pass


class NativeFrameWriter(FrameWriter):
    """:class:`FrameWriter` whose thread is C and never takes the GIL
    (``app/realtime/_sendthread.c``, built by ``scripts/build_native.py``): the loop
    hands it a frame in one call and hears nothing more of a frame sent whole; the
    thread's sends, and the readers they wake, run on another CPU without a GIL
    hand-off per frame (the Python thread's hand-offs cost the loop more than they saved
    at 400 games).  A short write and the frames after it come back through an eventfd
    the loop reads (``_settle``): their rests go on the connection's transport, in
    order.  A connection's frames are pending while the thread holds any
    (``Connection.pending_writes``: the thread's count of its descriptor)."""

    native = True

    def __init__(self, module: Any) -> None:
        self.active = True
        import resource
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        limit = soft if 0 < soft <= (1 << 20) else 1 << 20
        self._w = module.Writer(max_fds=max(limit, 1024))
        self.pending = self._w.pending
        self._reader: asyncio.AbstractEventLoop | None = None
        self.holding = self._held = False

    def takes(self, fd: int) -> bool:
        """Whether the thread can write ``fd`` (below its table's size)."""
        return fd < self._w.max_fds

    def put(self, conn: Connection, data: bytes) -> None:
        loop = conn._loop
        if loop is not self._reader:
            self._listen(loop)
        if self.holding:
            self._w.put(conn._nfd, data, conn, False)
            self._held = True
        else:
            self._w.put(conn._nfd, data, conn)

    def hold(self) -> None:
        """(loop) Frames put until :meth:`release_held` wake the thread once, together
        (a delivery's burst: one wake-up of the thread, not one per socket)."""
        self.holding = True

    def release_held(self) -> None:
        self.holding = False
        if self._held:
            self._held = False
            self._w.kick()

    def _listen(self, loop: asyncio.AbstractEventLoop | None) -> None:
        """Hear the thread's hand-backs on ``loop`` (the first loop that writes, or the
        next one once it is closed; a connection of another loop is settled on its own)."""
        old = self._reader
        if (old is not None and not old.is_closed()) or loop is None:
            return
        loop.add_reader(self._w.fileno(), self._settle)
        self._reader = loop

    def _settle(self) -> None:
        """(loop) The frames the thread wrote short or not at all, in order."""
        here = self._reader
        for conn, rest in self._w.drain():
            if conn._loop is here:
                self._settled(conn, rest)
            else:
                with contextlib.suppress(RuntimeError):     # a loop already closed
                    conn._loop.call_soon_threadsafe(self._settled, conn, rest)

    def _settled(self, conn: Connection, rest: bytes) -> None:
        """(the connection's loop) ``rest`` on the transport, then the thread's count."""
        conn._spills += 1
        conn._spill(rest)
        self._w.settled(conn._nfd)

    def unspill(self, conn: Connection) -> None:
        """(The thread clears it when the last frame it held is settled.)"""


WRITER: FrameWriter | None = None


def uncork_all(conns: list[Connection]) -> None:
    """``uncork`` each connection, their frames handed to the frame writer as one burst."""
    w = WRITER
    if w is not None:
        w.hold()
    try:
        for c in conns:
            c.uncork()
    finally:
        if w is not None:
            w.release_held()


def native_sender() -> Any:
    """The compiled send thread's module (``_sendthread``) when it was built from the
    C source beside it, else None (the Python thread then writes)."""
    from .native import built_from
    return built_from(f"{__package__}._sendthread",
                      os.path.join(os.path.dirname(__file__), "_sendthread.c"))


def start_frame_writer(native: bool | None = None) -> FrameWriter:
    """The process's frame writer (``WS_WRITER_THREAD``; app start-up): the C thread
    when it is built (``native``: None = when available, False = the Python thread)."""
    global WRITER
    if WRITER is None:
        module = native_sender() if native is not False else None
        WRITER = NativeFrameWriter(module) if module is not None else FrameWriter()
    return WRITER


class Connection:
    release_wait_ms = 2000          # release(): how long it waits for the frame writer

    def __init__(self, ws: WebSocket, queue_size: int, max_bytes: int = 4 * 1024 * 1024) -> None:
        self.ws = ws
        # the send queue: a deque that exists only while texts wait (an idle socket holds
        # none) and a future the writer awaits only while it is empty (was an
        # asyncio.Queue: four deques and an Event per socket, ~2.5 KB)
        self._out: deque[Any] | None = None
        self._wake: asyncio.Future[None] | None = None
        self.queue_size = queue_size
        self.max_bytes = max_bytes          # bound of the queued texts' length (characters)
        self.queued = 0
        self.seat: str | None = None        # the primary seat (first held)
        self.side: str | None = None
        self.role: str | None = None
        self.held: list[tuple[str, str, str]] = []   # every (seat, side, role) it plays
        self.pinned = False                 # bound with ?seat= to that one seat
        self.watch: str | None = None       # a spectator's watched side: the ruleset's seat
        self.watch_side: str | None = None  # for it (``spectator_seat``), e.g. Kriegspiel
        # chat speaks for the identity, not the pinned seat: every (seat, side, role) the
        # identity holds in the game, and the sides playing all roles collectively
        self.chat_held: list[tuple[str, str, str]] = []
        self.collective: frozenset[str] = frozenset()
        self.identity_id: str | None = None
        self.name: str | None = None
        self.seq = -1                       # last seq this connection was sent
        self.view_seq = -1                  # seq of the last view it holds (patch base)
        self.delta = True                   # updates may carry ``view_patch`` (?delta=0: no)
        self.closed = False
        self.close_code = 1000
        self.close_reason = ""
        self.writer_task: asyncio.Task[None] | None = None
        # uvicorn's protocol of this socket when frames may be written to its transport
        # directly (set after the handshake, ``use_protocol``); None: the ASGI send
        self._proto: Any = None
        self._corked: list[bytes] | None = None     # frames held by ``cork``
        # the frame writer's (``FrameWriter``): the duplicate descriptor, frames handed
        # to it (loop) and written by it (thread), rests it handed back (thread) and the
        # loop wrote (loop), and whether the loop's transport holds its order
        self._wsock: socket.socket | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._handed = self._written = self._spills = self._spilled_done = 0
        self._spilled = False
        self._nfd = -1                      # the duplicate's number for the C thread
        self._closer: asyncio.Task[None] | None = None
        self._view_key: tuple[tuple[Any, ...], Any] | None = None     # ``_kept``
        self._actors: tuple[tuple[Any, ...], Any] | None = None
        self.client = ""                    # rate-limit key (identity or address)

    @property
    def actor(self) -> Actor:
        return Actor(seat=self.seat, side=self.side, role=self.role,
                     identified=self.identity_id is not None)

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
        made = (self.held, self.chat_held, self.collective, self.watch, self.identity_id,
                self.seat, self.side, self.role)
        memo = getattr(self, slot)
        if memo is None or memo[0] != made:     # tuples compare identical items in C
            memo = (made, make())
            setattr(self, slot, memo)
        return memo[1]

    def _make_actors(self) -> list[Actor]:
        held = self.chat_held or self.held
        if not held:
            return [self.actor]
        return [Actor(seat=s, side=sd, role=r, identified=self.identity_id is not None,
                      collective=sd in self.collective)
                for s, sd, r in held]

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

    def use_protocol(self, proto: Any) -> None:
        """After the handshake: write frames to this server protocol's transport ourselves
        (``direct_protocol``: None keeps the ASGI send)."""
        self._proto = direct_protocol(proto)

    def send(self, msg: str | Encoded) -> None:
        """Queue a text (or an :class:`Encoded` text shared by several connections)."""
        if self.closed:
            return
        wake = self._wake
        if wake is not None and not wake.done() and not self._out:      # the writer idles
            if self._direct(msg) or (not self.pending_writes() and self._send_now(msg)):
                return
        size = len(msg.text if isinstance(msg, Encoded) else msg)
        if self.queued + size > self.max_bytes and self.queued:
            self.close(4008, "send queue overflow: reconnect with since")
            return
        if not self._put(msg):
            self.close(4008, "send queue overflow: reconnect with since")
            return
        self.queued += size

    def _direct(self, msg: str | Encoded) -> bool:
        """Write the message's frame to the transport on the spot: True when written.
        What uvicorn's ASGI send does for a text (Starlette's and uvicorn's layers, the
        text encoded and framed again for every socket) reduced to one ``write`` of bytes
        framed once per audience; False (nothing done) unless the connection is open and
        the transport accepts writes (flow control), so that the ASGI send (waiting, or
        raising on a closed socket) keeps every other case."""
        p = self._proto
        if p is None or p.disconnected or p.close_sent or not p.writable.is_set() \
                or p.conn.state is not State.OPEN or p.transport.is_closing():
            return False
        frame = msg.frame if isinstance(msg, Encoded) else frame_of(msg)
        if self._corked is not None:
            self._corked.append(frame)
        else:
            self._write(p.transport, frame)
        return True

    def _write(self, transport: Any, data: bytes) -> None:
        """Write through the frame writer when there is one and either something of this
        connection is still with it (frames, or rests it handed back that the loop has
        not yet written) or the transport holds nothing; else on the transport, which
        then holds the order (in order either way)."""
        w = WRITER
        nfd = self._nfd
        if nfd >= 0 and w is not None and w.native:     # the C thread's connection
            if w.pending(nfd) or (w.active and not transport.get_write_buffer_size()):  # type: ignore[attr-defined]
                self._handed += 1
                w.put(self, data)
            else:
                transport.write(data)
            return
        if w is not None and (self.pending_writes()
                              or (w.active and not transport.get_write_buffer_size())):
            # (a rest handed back and not yet written by the loop: this goes through the
            # thread, which hands it back after the rest, in order)
            if self._wsock is None:
                sock = transport.get_extra_info("socket")
                if sock is None:
                    transport.write(data)
                    return
                self._wsock = socket.socket(fileno=os.dup(sock.fileno()))
                self._wsock.setblocking(False)
                self._loop = asyncio.get_running_loop()
                if w.native:
                    fd = self._wsock.fileno()
                    if not w.takes(fd):         # past the C thread's table: the loop
                        self._wsock.close()     # writes this socket's frames
                        self._wsock = None
                        transport.write(data)
                        return
                    self._nfd = fd
            if not self.pending_writes():
                w.unspill(self)             # all written: the thread may write again
            self._handed += 1
            w.put(self, data)
            return
        transport.write(data)

    def _spill(self, rest: bytes) -> None:
        """(loop) The rest of a frame the writer could not write: after it, in order."""
        self._spilled_done += 1
        p = self._proto
        if p is not None and not p.transport.is_closing():
            p.transport.write(rest)

    def pending_writes(self) -> bool:
        """Frames handed to the frame writer and not yet written or handed back (the C
        thread: not yet sent whole, or handed back and not yet written by the loop)."""
        w = WRITER
        if self._nfd >= 0 and w is not None and w.native:
            return w.pending(self._nfd) > 0                 # type: ignore[attr-defined]
        return self._handed != self._written or self._spills != self._spilled_done

    async def release(self) -> None:
        """Before the socket's close: wait (at most ``release_wait_ms``) until the frame
        writer wrote this connection's frames, then close its duplicate descriptor (the
        socket closes when both are); frames still with the C thread then: closed
        once it holds none."""
        for _ in range(self.release_wait_ms):
            if not self.pending_writes():
                break
            await asyncio.sleep(0.001)
        if self._nfd >= 0 and self.pending_writes():
            # the C thread writes to the descriptor's number: closed now, a socket
            # opened meanwhile could get that number and this connection's frames
            self._closer = asyncio.get_running_loop().create_task(self._close_when_sent())
            return
        self._close_wsock()

    async def _close_when_sent(self) -> None:
        while self.pending_writes():
            await asyncio.sleep(0.01)
        self._close_wsock()

    def _close_wsock(self) -> None:
        if self._nfd >= 0:                  # the C thread held none: all written
            self._written = self._handed
        sock, self._wsock, self._nfd = self._wsock, None, -1
        if sock is not None:
            sock.close()

    def cork(self) -> bool:
        """Hold the frames written directly until :meth:`uncork`, which writes them with
        one system call (an action's ``ack`` and its ``update`` to the actor; a
        delivery's frames to every socket, written together once all are built).  Only
        around code that does not await: the transport's state cannot change between.
        False (nothing changed, the held frames kept) when already corked: a delivery
        corks every socket it writes to, the actor's included, and uncorks them all."""
        if self._corked is not None:
            return False
        self._corked = []
        return True

    def uncork(self) -> None:
        frames, self._corked = self._corked, None
        if frames:
            self._write(self._proto.transport, frames[0] if len(frames) == 1 else b"".join(frames))

    def _send_now(self, msg: str | Encoded) -> bool:
        """The writer is idle and nothing waits: send on the spot, without waking a task
        (the ASGI send only suspends when flow control paused the transport).  True when
        the text is sent or handed to the writer mid-send (in order either way); False:
        it raised, queue it for the writer (which meets the same error and closes)."""
        coro = self.ws.send_text(msg.text if isinstance(msg, Encoded) else msg)
        try:
            waiting = coro.send(None)
        except StopIteration:
            return True
        except Exception:
            return False
        self._put(_Resume(coro, waiting))       # paused: the writer finishes this send
        return True

    def _put(self, item: Any) -> bool:
        """Queue an item for the writer (False: the queue is full)."""
        out = self._out
        if out is None:
            out = self._out = deque()
        elif len(out) >= self.queue_size:
            return False
        out.append(item)
        wake = self._wake
        if wake is not None and not wake.done():
            wake.set_result(None)
        return True

    async def _get(self) -> Any:
        while not self._out:
            self._out = None                # drained: an idle socket keeps no deque
            self._wake = asyncio.get_running_loop().create_future()
            try:
                await self._wake
            finally:
                self._wake = None
        return self._out.popleft()

    def send_json(self, obj: dict[str, Any]) -> None:
        self.send(dumps(obj))

    def error(self, code: str, message: str, **details: Any) -> None:
        self.send_json({"type": "error", "code": code, "message": message, "details": details})

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Stop sending: pending messages are flushed unless the queue overflowed."""
        if self.closed:
            return
        self.closed, self.close_code, self.close_reason = True, code, reason
        if code == 4008:                    # overflow: drop what is queued, cut the writer
            self._out = None
            if self.writer_task is not None:
                self.writer_task.cancel()
            return
        if not self._put(_CLOSE) and self.writer_task is not None:
            self.writer_task.cancel()

    async def writer(self) -> None:
        try:
            while True:
                item = await self._get()
                if item is _CLOSE:
                    break
                if isinstance(item, _Resume):
                    await item.finish()
                    continue
                text = item.text if isinstance(item, Encoded) else item
                self.queued -= len(text)
                if not self._direct(item):
                    if self.pending_writes():       # the ASGI send after those frames
                        await self.release()
                    await self.ws.send_text(text)
                # not held while this socket waits for its next message: an idle socket
                # kept its last one alive, for a spectator the hello (~62 KB of an
                # Overlord game: 103 KB of RSS per idle socket instead of ~40)
                item = text = None
        finally:
            with contextlib.suppress(Exception):
                await self.release()                # the close frame after every frame
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(self.close_code, self.close_reason), 2.0)
