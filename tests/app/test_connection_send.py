"""app.realtime.connection.Connection: a text sent while the writer is idle goes out on
the spot; a send that meets a paused transport is finished by the writer; the order of
the texts is kept either way, and a failing send ends the writer as before."""
from __future__ import annotations

import asyncio

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
