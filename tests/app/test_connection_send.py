"""app.realtime.connection.Connection: a text sent while the writer is idle goes out on
the spot; a send that meets a paused transport is finished by the writer; the order of
the texts is kept either way, and a failing send ends the writer as before."""
from __future__ import annotations

import asyncio
import contextlib
import sys
from typing import Any

import pytest

from app.realtime.connection import Connection


class FakeSocket:
    """The ASGI send of uvicorn: suspends only while the transport is paused."""

    def __init__(self) -> None:
        self.writable = asyncio.Event()
        self.writable.set()
        self.sent: list[str] = []
        self.fail = False
        self.closed: tuple[int, str] | None = None

    async def send_text(self, text: str) -> None:
        await self.writable.wait()
        if self.fail:
            raise RuntimeError("disconnected")
        self.sent.append(text)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed = (code, reason)


async def _idle(conn: Connection) -> None:
    for _ in range(20):
        await asyncio.sleep(0)


def test_order_kept_through_a_paused_transport() -> None:
    async def main() -> tuple[list[str], int]:
        ws = FakeSocket()
        conn = Connection(ws, queue_size=100)           # type: ignore[arg-type]
        conn.writer_task = asyncio.create_task(conn.writer())
        await _idle(conn)
        conn.send("a")                                  # on the spot: no task switch
        assert ws.sent == ["a"]
        ws.writable.clear()                             # flow control pauses
        conn.send("b")                                  # started, suspended: to the writer
        conn.send("c")                                  # queued behind it
        await _idle(conn)
        assert ws.sent == ["a"]
        ws.writable.set()
        await _idle(conn)
        conn.send("d")
        await _idle(conn)
        conn.close()
        await asyncio.wait_for(conn.writer_task, 2)
        return ws.sent, conn.queued

    sent, queued = asyncio.run(main())
    assert sent == ["a", "b", "c", "d"] and queued == 0


def test_a_waiting_writer_holds_none_of_the_messages_it_sent() -> None:
    """Once a message is written, nothing of the connection keeps it while the socket
    idles: the writer's frame held its last message until the next one, so an idle
    spectator kept its hello (~62 KB of an Overlord game) alive for as long as it
    watched (resume_bench --memory: 103 KB of RSS per idle socket, 40 without)."""
    async def main() -> tuple[list[str], list[str], int]:
        ws = FakeSocket()
        conn = Connection(ws, queue_size=100)           # type: ignore[arg-type]
        hello = "h" * (64 * 1024)                       # made at run time: not a constant
        conn.send(hello)                                # no writer yet: queued
        conn.writer_task = asyncio.create_task(conn.writer())
        await _idle(conn)
        sent, ws.sent = ws.sent, []
        lengths = [len(t) for t in sent]
        del sent
        refs = sys.getrefcount(hello)                   # this frame's name + the argument
        conn.close()
        await asyncio.wait_for(conn.writer_task, 2)
        return lengths, ws.sent, refs

    lengths, rest, refs = asyncio.run(main())
    assert lengths == [64 * 1024] and rest == []
    assert refs == 2


def test_failing_send_ends_the_writer() -> None:
    async def main() -> tuple[list[str], bool]:
        ws = FakeSocket()
        conn = Connection(ws, queue_size=100)           # type: ignore[arg-type]
        conn.writer_task = asyncio.create_task(conn.writer())
        await _idle(conn)
        ws.fail = True
        conn.send("x")                                  # raises on the spot: queued
        try:
            await asyncio.wait_for(conn.writer_task, 2)
        except RuntimeError:
            pass
        return ws.sent, conn.writer_task.done()

    sent, done = asyncio.run(main())
    assert sent == [] and done


# -- frames written straight to the transport (Connection._direct) --------------------------
from websockets.frames import Frame, Opcode  # noqa: E402
from websockets.protocol import State  # noqa: E402

from app.realtime.connection import Encoded, frame_of  # noqa: E402


class _Transport:
    def __init__(self, log: list[bytes | str]) -> None:
        self.log, self.writes = log, 0

    def write(self, data: bytes) -> None:
        self.writes += 1
        self.log.append(data)

    def is_closing(self) -> bool:
        return False


class _WsState:
    state = State.OPEN
    extensions: list[object] = []


class WebSocketsSansIOProtocol:
    """The fields of uvicorn's websockets-sansio protocol that ``_direct`` reads (named
    like it: ``direct_protocol`` accepts that protocol only)."""

    def __init__(self, ws: FakeSocket, log: list[bytes | str]) -> None:
        self.writable = ws.writable             # uvicorn's flow-control event
        self.transport = _Transport(log)
        self.conn = _WsState()
        self.disconnected = self.close_sent = False


class LoggedSocket(FakeSocket):
    def __init__(self, log: list[bytes | str]) -> None:
        super().__init__()
        self.log = log

    async def send_text(self, text: str) -> None:
        await super().send_text(text)
        self.log.append(text)


def _frame(text: str) -> bytes:
    return Frame(Opcode.TEXT, text.encode()).serialize(mask=False)


def test_direct_frames_keep_the_order_through_a_paused_transport() -> None:
    """Open and writable: the frame goes to the transport on the spot (the bytes
    websockets itself would write); paused: the ASGI send waits, later texts queue
    behind it, and once resumed the order is the order of the sends."""
    async def main() -> tuple[list[bytes | str], int]:
        log: list[bytes | str] = []
        ws = LoggedSocket(log)
        proto = WebSocketsSansIOProtocol(ws, log)
        conn = Connection(ws, queue_size=100)           # type: ignore[arg-type]
        conn.use_protocol(proto)
        conn.writer_task = asyncio.create_task(conn.writer())
        await _idle(conn)
        conn.send("été")                                # direct, on the spot
        assert log == [_frame("été")]
        ws.writable.clear()                             # flow control pauses
        conn.send("b")                                  # the ASGI send waits
        conn.send(Encoded("c"))                         # queued behind it
        await _idle(conn)
        assert log == [_frame("été")]
        ws.writable.set()
        await _idle(conn)
        conn.send("d")
        await _idle(conn)
        conn.close()
        await asyncio.wait_for(conn.writer_task, 2)
        return log, conn.queued

    log, queued = asyncio.run(main())
    assert log == [_frame("été"), "b", _frame("c"), _frame("d")] and queued == 0


def test_an_encoded_text_is_framed_once_for_every_connection() -> None:
    async def main() -> tuple[list[bytes | str], list[bytes | str]]:
        logs: list[list[bytes | str]] = [[], []]
        conns = []
        for log in logs:
            ws = LoggedSocket(log)
            conn = Connection(ws, queue_size=100)       # type: ignore[arg-type]
            conn.use_protocol(WebSocketsSansIOProtocol(ws, log))
            conn.writer_task = asyncio.create_task(conn.writer())
            conns.append(conn)
        await _idle(conns[0])
        update = Encoded('{"type":"update"}')
        for conn in conns:
            conn.send(update)
        for conn in conns:
            conn.close()
            await asyncio.wait_for(conn.writer_task, 2)
        return logs[0], logs[1]

    a, b = asyncio.run(main())
    assert a == b == [_frame('{"type":"update"}')] and a[0] is b[0]


def test_cork_writes_the_held_frames_with_one_write() -> None:
    async def main() -> tuple[list[bytes | str], int]:
        log: list[bytes | str] = []
        ws = LoggedSocket(log)
        proto = WebSocketsSansIOProtocol(ws, log)
        conn = Connection(ws, queue_size=100)           # type: ignore[arg-type]
        conn.use_protocol(proto)
        conn.writer_task = asyncio.create_task(conn.writer())
        await _idle(conn)
        assert conn.cork()
        conn.send('{"type":"ack"}')
        assert not conn.cork()          # a delivery inside the action's cork: no change,
        conn.send(Encoded('{"type":"update"}'))     # the ack is kept
        assert log == []
        conn.uncork()
        conn.close()
        await asyncio.wait_for(conn.writer_task, 2)
        return log, proto.transport.writes

    log, writes = asyncio.run(main())
    assert writes == 1 and log == [_frame('{"type":"ack"}') + _frame('{"type":"update"}')]


def test_no_direct_frame_to_a_closing_socket() -> None:
    """A socket whose close was sent (or with an extension such as permessage-deflate)
    gets the ASGI send, which decides (here: sends; uvicorn: raises)."""
    async def main() -> list[bytes | str]:
        log: list[bytes | str] = []
        ws = LoggedSocket(log)
        proto = WebSocketsSansIOProtocol(ws, log)
        conn = Connection(ws, queue_size=100)           # type: ignore[arg-type]
        conn.use_protocol(proto)
        conn.writer_task = asyncio.create_task(conn.writer())
        await _idle(conn)
        proto.close_sent = True
        conn.send("x")
        deflate = WebSocketsSansIOProtocol(ws, log)
        deflate.conn = _WsState()
        deflate.conn.extensions = [object()]
        conn.use_protocol(deflate)
        conn.send("y")
        conn.close()
        await asyncio.wait_for(conn.writer_task, 2)
        return log

    assert asyncio.run(main()) == ["x", "y"]


@pytest.mark.parametrize("n", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_frame_of_writes_what_websockets_writes(n: int) -> None:
    """The hand-built frame header (7-bit, 16-bit and 64-bit lengths) is the one the
    websockets library serialises for the same unmasked text, multi-byte characters
    counted in bytes."""
    text = ("é" * n)[: n // 2] + "x" * (n - n // 2)
    assert frame_of(text) == _frame(text)


class _Proto:
    """What ``Connection._write`` and ``_spill`` read of uvicorn's protocol."""

    def __init__(self, transport: asyncio.Transport) -> None:
        self.transport = transport


class _ScriptedTransport:
    """A scripted transport that takes every write at once, recorded (``tag`` first)."""

    def __init__(self, timeline: list[bytes], lock: Any = None, tag: bytes = b"") -> None:
        self.timeline, self.lock, self.tag = timeline, lock or contextlib.nullcontext(), tag

    def get_write_buffer_size(self) -> int:
        return 0

    def write(self, data: bytes) -> None:
        with self.lock:
            self.timeline.append(self.tag + bytes(data))

    def is_closing(self) -> bool:
        return False


@pytest.fixture
def python_writer(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The process's frame writer is the Python thread (scripted sockets: its ``send``)."""
    from app.realtime import connection as C

    w = C.FrameWriter()
    monkeypatch.setattr(C, "WRITER", w)
    return w


@pytest.fixture
def native_writer(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The process's frame writer is the C thread (``_sendthread``; built by ``make
    install`` / ``make test`` wherever there is a C compiler)."""
    from app.realtime import connection as C

    module = C.native_sender()
    if module is None:
        pytest.skip("app/realtime/_sendthread.c is not built (scripts/build_native.py)")
    w = C.NativeFrameWriter(module)
    monkeypatch.setattr(C, "WRITER", w)
    return w


@pytest.fixture(params=["python", "native"])
def any_writer(request: pytest.FixtureRequest) -> Any:
    return request.getfixturevalue(f"{request.param}_writer")


def test_frame_writer_keeps_the_order_when_the_socket_fills(any_writer: Any) -> None:
    """Through a real socket whose buffers are 4 KB: the frame writer's short writes
    (EAGAIN on the duplicate descriptor) hand their rests back to the loop's transport;
    all bytes arrive, in order, and ``release`` closes the duplicate descriptor once
    nothing is pending.  (The order rule itself, deterministically: the next tests.)
    Both writers: the Python thread and the C one."""
    import socket
    import threading
    import time

    async def main() -> tuple[bytes, bytes, Connection]:
        loop = asyncio.get_running_loop()
        lsock = socket.create_server(("127.0.0.1", 0))
        port = lsock.getsockname()[1]
        accepted: list[socket.socket] = []
        t = threading.Thread(target=lambda: accepted.append(lsock.accept()[0]))
        t.start()
        transport, _ = await loop.create_connection(asyncio.Protocol, "127.0.0.1", port)
        t.join(5)
        peer = accepted[0]
        peer.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)     # fills at once
        transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        conn = Connection(FakeSocket(), queue_size=100)     # type: ignore[arg-type]
        conn._proto = _Proto(transport)                      # noqa: SLF001
        frames = [bytes([i % 251]) * 2000 + i.to_bytes(4, "big") for i in range(80)]
        want = b"".join(frames)
        got = bytearray()

        def read() -> None:                     # a slow reader: the buffers fill, drain
            peer.settimeout(10)                 # a little, fill again
            while len(got) < len(want):
                chunk = peer.recv(1024)
                if not chunk:
                    return
                got.extend(chunk)
                time.sleep(0.0005)

        reader = threading.Thread(target=read)
        reader.start()
        for f in frames:
            conn._write(transport, f)                        # noqa: SLF001
        # the loop busy (blocked) while the thread writes: the rests it hands back wait
        # for the loop, and the socket drains meanwhile, so a later frame written by the
        # thread before them would arrive first
        time.sleep(0.5)
        while reader.is_alive():
            await asyncio.sleep(0.01)
        await conn.release()
        transport.close()
        peer.close()
        lsock.close()
        return bytes(got), want, conn

    got, want, conn = asyncio.run(main())
    assert conn._spills > 0                     # noqa: SLF001  (short writes did happen)
    assert got == want
    assert not conn.pending_writes() and conn._wsock is None    # noqa: SLF001


def test_frame_writer_sends_nothing_past_a_rest_it_handed_back(python_writer: Any) -> None:
    """Scripted: the second frame's write comes up short and the socket then takes
    everything again; the rest is written by the loop, and every later frame must follow
    it there (written by the thread before the loop runs, it would arrive first)."""
    import threading

    from app.realtime import connection as C

    timeline: list[bytes] = []
    lock = threading.Lock()

    class Sock:
        calls = 0

        def send(self, data: bytes) -> int:
            Sock.calls += 1
            n = len(data) // 2 if Sock.calls == 2 else len(data)
            with lock:
                timeline.append(bytes(data[:n]))
            return n

        def close(self) -> None:
            pass

    async def main() -> tuple[list[bytes], Connection]:
        tr = _ScriptedTransport(timeline, lock)
        conn = Connection(FakeSocket(), queue_size=100)     # type: ignore[arg-type]
        conn._proto = _Proto(tr)                             # type: ignore[arg-type]  # noqa: SLF001
        conn._wsock, conn._loop = Sock(), asyncio.get_running_loop()   # type: ignore[assignment]  # noqa: SLF001
        frames = [bytes([65 + i]) * 10 for i in range(6)]
        for f in frames:
            conn._write(tr, f)                               # noqa: SLF001
        import time
        time.sleep(0.2)             # the thread is done; the loop has not run the rest yet
        conn._write(tr, b"Y" * 10)      # so this one must wait for the rest too # noqa: SLF001
        for _ in range(100):
            if not conn.pending_writes():
                break
            await asyncio.sleep(0.01)
        conn._write(tr, b"Z" * 10)      # all written: the thread writes again # noqa: SLF001
        for _ in range(100):
            if not conn.pending_writes():
                break
            await asyncio.sleep(0.01)
        return frames, conn

    frames, conn = asyncio.run(main())
    assert b"".join(timeline) == b"".join(frames) + b"Y" * 10 + b"Z" * 10
    assert conn._spills == len(frames) and not conn.pending_writes()   # noqa: SLF001
    assert Sock.calls == 3              # A, half of B, then Z (C-F via the loop)


def test_an_inactive_frame_writer_takes_only_what_must_follow_its_pending_frames(
        python_writer: Any) -> None:
    """Turned off (``FrameWriter.active``, the governor's switch), new frames go to the
    transport, except those of a connection with frames still in the thread's hands:
    those follow them through the thread, in order."""
    import threading
    import time

    from app.realtime import connection as C

    timeline: list[bytes] = []
    gate = threading.Event()

    class Sock:
        calls = 0

        def send(self, data: bytes) -> int:
            gate.wait(5)                # the thread holds the first frame until let go
            Sock.calls += 1
            timeline.append(bytes(data))
            return len(data)

        def close(self) -> None:
            pass

    async def main() -> Connection:
        w = python_writer
        tr = _ScriptedTransport(timeline, tag=b"T:")
        conn = Connection(FakeSocket(), queue_size=100)     # type: ignore[arg-type]
        conn._proto = _Proto(tr)                             # type: ignore[arg-type]  # noqa: SLF001
        conn._wsock, conn._loop = Sock(), asyncio.get_running_loop()   # type: ignore[assignment]  # noqa: SLF001
        try:
            w.active = True
            conn._write(tr, b"A")                            # noqa: SLF001
            w.active = False
            conn._write(tr, b"B")       # A still pending: B must follow it  # noqa: SLF001
            gate.set()
            for _ in range(200):
                if not conn.pending_writes():
                    break
                time.sleep(0.005)
            conn._write(tr, b"C")       # nothing pending: the loop's transport  # noqa: SLF001
        finally:
            w.active = True
        return conn

    conn = asyncio.run(main())
    assert timeline == [b"A", b"B", b"T:C"]
    assert Sock.calls == 2 and not conn.pending_writes()


def test_the_governor_turns_the_frame_writer_off_on_a_busy_loop_and_on_again() -> None:
    """``FrameWriter.govern``: the loop thread's CPU share over each period turns the
    thread off above ``off_above`` (GIL switch interval ``slow``) and on again below
    ``on_below`` (``fast``)."""
    import sys
    import time

    from app.realtime import connection as C

    async def main() -> list[tuple[bool, float]]:
        w = C.FrameWriter()
        w.active = True
        seen: list[tuple[bool, float]] = []
        task = asyncio.create_task(w.govern(0.40, 0.55, fast=0.0001, slow=0.003, period=0.1))
        await asyncio.sleep(0.25)
        seen.append((w.active, sys.getswitchinterval()))      # idle: stays on
        t = time.monotonic()
        while time.monotonic() - t < 0.35:                    # the loop busy
            pass
        await asyncio.sleep(0.05)
        seen.append((w.active, sys.getswitchinterval()))
        await asyncio.sleep(0.35)                             # idle again
        seen.append((w.active, sys.getswitchinterval()))
        task.cancel()
        return seen

    before = sys.getswitchinterval()
    try:
        seen = asyncio.run(main())
    finally:
        sys.setswitchinterval(before)
    assert seen[0][0] is True
    assert seen[1][0] is False and seen[1][1] == pytest.approx(0.003)
    assert seen[2][0] is True and seen[2][1] == pytest.approx(0.0001)


def test_the_send_thread_hands_back_what_follows_a_short_write_until_settled(
        native_writer: Any) -> None:
    """``_sendthread.Writer`` on a socket pair whose buffers are small, nobody reading:
    the first frame fills the socket and comes back as the rest it could not write;
    every later frame of that descriptor comes back whole, unsent (the loop writes it
    after the rest), even once there is room, until the loop reported every one of them
    written (``settled``); then it sends again.  ``pending`` counts the frames of the
    descriptor not yet sent whole nor settled."""
    import select
    import socket
    import time

    w = native_writer._w
    a, b = socket.socketpair()
    try:
        a.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        b.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        a.setblocking(False)
        fd = a.fileno()

        def drained(n: int) -> list[tuple[Any, bytes]]:
            got: list[tuple[Any, bytes]] = []
            deadline = time.monotonic() + 5
            while len(got) < n and time.monotonic() < deadline:
                select.select([w.fileno()], [], [], 0.5)
                got.extend(w.drain())
            return got

        big = b"x" * 200_000
        w.put(fd, big, "big")
        w.put(fd, b"small", "small")
        (t1, rest1), (t2, rest2) = drained(2)
        assert (t1, t2) == ("big", "small")
        assert 0 < len(rest1) < len(big) and big.endswith(rest1)
        assert rest2 == b"small"                    # not sent: it must follow the rest
        assert w.pending(fd) == 2
        sent = len(big) - len(rest1)
        b.setblocking(True)
        got = bytearray()
        while len(got) < sent:
            got.extend(b.recv(65536))
        assert bytes(got) == big[:sent]
        w.put(fd, b"later", "later")                # room now, but still spilled
        assert drained(1) == [("later", b"later")]
        for _ in range(3):
            w.settled(fd)
        assert w.pending(fd) == 0
        with pytest.raises(ValueError):
            w.settled(fd)                           # nothing left to settle
        w.put(fd, b"again", "again")
        assert b.recv(100) == b"again"
        for _ in range(100):
            if w.pending(fd) == 0:
                break
            time.sleep(0.01)
        assert w.pending(fd) == 0 and w.drain() == []
    finally:
        a.close()
        b.close()


def test_the_send_thread_refuses_what_it_cannot_send(native_writer: Any) -> None:
    """Bad arguments raise at ``put`` (nothing queued): a descriptor out of its table, a
    text instead of bytes."""
    w = native_writer._w
    with pytest.raises(ValueError):
        w.put(-1, b"x", None)
    with pytest.raises(ValueError):
        w.put(w.max_fds, b"x", None)
    with pytest.raises(TypeError):
        w.put(0, "text", None)
    assert w.drain() == [] and w.pending(0) == 0


def test_a_connection_released_with_frames_in_the_send_thread_closes_after_them(
        native_writer: Any) -> None:
    """``release`` while the C thread still holds frames of the connection (a short
    write whose rest the loop is kept from writing) does not close the duplicate
    descriptor, whose number the thread writes to (closed, a socket opened meanwhile
    could get the number and the frames); it closes once the thread holds none, and
    every byte arrived in order."""
    import socket

    async def main() -> tuple[bool, bool, bytes, bytes]:
        a, b = socket.socketpair()
        a.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        b.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        loop = asyncio.get_running_loop()
        transport, _ = await loop.connect_accepted_socket(asyncio.Protocol, a)
        conn = Connection(FakeSocket(), queue_size=100)     # type: ignore[arg-type]
        conn._proto = _Proto(transport)                      # noqa: SLF001
        frames = [b"a" * 100_000, b"b" * 10]
        for f in frames:
            conn._write(transport, f)                        # noqa: SLF001
        efd = native_writer._w.fileno()
        loop.remove_reader(efd)                              # the loop hears nothing
        import select
        assert select.select([efd], [], [], 5)[0]            # the thread wrote short
        conn.release_wait_ms = 10
        await conn.release()
        held = conn._wsock is not None and conn.pending_writes()    # noqa: SLF001
        loop.add_reader(efd, native_writer._settle)  # the loop writes the rests from now
        got = bytearray()
        b.setblocking(False)
        for _ in range(500):
            try:
                got.extend(b.recv(65536))
            except BlockingIOError:
                if len(got) >= sum(map(len, frames)) and conn._wsock is None:  # noqa: SLF001
                    break
                await asyncio.sleep(0.005)
        closed = conn._wsock is None and not conn.pending_writes()  # noqa: SLF001
        transport.close()
        b.close()
        return held, closed, bytes(got), b"".join(frames)

    held, closed, got, want = asyncio.run(main())
    assert held and closed and got == want


def test_frames_put_without_wake_wait_for_the_kick(native_writer: Any) -> None:
    """A delivery's burst wakes the C thread once: frames put with ``wake=False`` stay
    with it (the thread asleep) until ``kick``, then all go, in order."""
    import socket
    import time

    w = native_writer._w
    a, b = socket.socketpair()
    try:
        a.setblocking(False)
        b.settimeout(5)
        w.put(a.fileno(), b"zero ", "0")            # the thread runs, sends, then sleeps
        assert b.recv(100) == b"zero "
        time.sleep(0.05)
        b.settimeout(0.1)
        w.put(a.fileno(), b"one ", "1", False)
        w.put(a.fileno(), b"two", "2", False)
        time.sleep(0.05)
        with pytest.raises(TimeoutError):
            b.recv(100)                             # nothing sent yet
        assert w.pending(a.fileno()) == 2
        w.kick()
        b.settimeout(5)
        got = b""
        while len(got) < 7:
            got += b.recv(100)
        assert got == b"one two"
    finally:
        a.close()
        b.close()
