"""app.realtime.connection.Connection: a bounded queue drained by one writer task through
the framework's send; the order of the texts is kept through a paused transport, an
idle writer holds nothing it sent, and a failing send ends the writer."""

from __future__ import annotations

import asyncio
import sys

from starlette.websockets import WebSocketState

from app.realtime.connection import Connection


class FakeSocket:
    client_state = application_state = WebSocketState.CONNECTED  # Starlette's

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
        conn = Connection(ws, queue_size=100)  # type: ignore[arg-type]
        conn.writer_task = asyncio.create_task(conn.writer())
        await _idle(conn)
        conn.send("a")
        await _idle(conn)
        assert ws.sent == ["a"]
        ws.writable.clear()  # flow control pauses
        conn.send("b")  # the writer waits in its send
        conn.send("c")  # queued behind it
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
        conn = Connection(ws, queue_size=100)  # type: ignore[arg-type]
        hello = "h" * (64 * 1024)  # made at run time: not a constant
        conn.send(hello)  # no writer yet: queued
        conn.writer_task = asyncio.create_task(conn.writer())
        await _idle(conn)
        sent, ws.sent = ws.sent, []
        lengths = [len(t) for t in sent]
        del sent
        refs = sys.getrefcount(hello)  # this frame's name + the argument
        conn.close()
        await asyncio.wait_for(conn.writer_task, 2)
        return lengths, ws.sent, refs

    lengths, rest, refs = asyncio.run(main())
    assert lengths == [64 * 1024] and rest == []
    assert refs == 2


def test_failing_send_ends_the_writer() -> None:
    async def main() -> tuple[list[str], bool]:
        ws = FakeSocket()
        conn = Connection(ws, queue_size=100)  # type: ignore[arg-type]
        conn.writer_task = asyncio.create_task(conn.writer())
        await _idle(conn)
        ws.fail = True
        conn.send("x")  # the writer's send raises
        try:
            await asyncio.wait_for(conn.writer_task, 2)
        except RuntimeError:
            pass
        return ws.sent, conn.writer_task.done()

    sent, done = asyncio.run(main())
    assert sent == [] and done
