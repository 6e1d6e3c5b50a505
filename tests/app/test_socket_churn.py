"""Sockets opened and dropped leave no reference cycle of the server's own objects
(finding 6 of issue 34): a dropped socket's connection, its Starlette websocket and the
exception of the client's departure are freed by reference counting, not kept until a
full collection.  The server runs in this process (uvicorn on loopback) so that the
collector's findings can be read: ``gc.DEBUG_SAVEALL`` keeps what a collection found
unreachable, and none of it may be ours.  What does reach the collector's middle
generation is freed within seconds (the worker collects it on a timer)."""

from __future__ import annotations

import asyncio
import gc
import os
import socket
import subprocess
import sys
import weakref
from collections import Counter
from pathlib import Path

import httpx
import pytest
import websockets

from .conftest import ROOT
from .helpers import SCENARIO


class Cycle:
    """An object that refers to itself: only the collector frees it."""

    def __init__(self) -> None:
        self.me = self


def test_dropped_sockets_leave_no_cycles_of_ours(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'churn.db'}"
    env = {
        "DATABASE_URL": url,
        "SECRET_KEY": "test",
        "OVERLORD_TEST_SEEDS": "1",
        "BOT_DELAY": "0",
        "IDLE_EVICT_SECONDS": "0",
    }
    subprocess.run(
        [sys.executable, "-m", "alembic", "upgrade", "head"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        env={**os.environ, **env},
    )
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    import uvicorn

    from app.main import create_app
    from app.settings import Settings

    async def main() -> Counter[str]:
        app = create_app(Settings())
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        server = uvicorn.Server(uvicorn.Config(app, lifespan="on", log_level="warning"))
        task = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started:
            await asyncio.sleep(0.05)
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as api:
            tok = (await api.post("/api/identity", json={"name": "a"})).json()["token"]
            r = await api.post(
                "/api/games",
                json={"scenario_id": SCENARIO, "mode": "1v1", "seed": 7},
                headers={"Authorization": f"Bearer {tok}"},
            )
            gid = r.json()["id"]

        async def churn(n: int) -> None:
            for i in range(n):
                q = f"?token={tok}" if i % 2 else ""
                async with websockets.connect(f"ws://127.0.0.1:{port}/ws/games/{gid}{q}") as ws:
                    await ws.recv()
            await asyncio.sleep(0.5)  # the server's side of the last ones ends

        await churn(5)  # caches and pools warm
        # the worker collects its middle generation on a timer (app.main), so what
        # reaches it, a short-lived socket's cycles among others, is freed within a
        # second or two, not at the next full collection
        cycle = Cycle()
        freed = weakref.ref(cycle)
        gc.collect(0)  # alive: on to the middle generation
        del cycle
        for _ in range(40):
            if freed() is None:
                break
            await asyncio.sleep(0.1)
        assert freed() is None, "the middle generation was not collected within 4 s"
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            await churn(30)
            gc.collect()
            found = Counter(
                f"{type(o).__module__}.{type(o).__qualname__}"
                for o in gc.garbage
                if type(o).__module__.startswith(("app.", "starlette."))
                or isinstance(o, BaseException)
            )
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
        server.should_exit = True
        await task
        return found

    assert asyncio.run(main()) == Counter()
