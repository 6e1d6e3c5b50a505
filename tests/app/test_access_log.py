"""``?token=`` never lands in the server's log (finding 13 of issue 34): uvicorn logs
every request's path with its query string (the access log) and every websocket
handshake (``"WebSocket /ws/games/..?token=.." [accepted]``); the token's value is
replaced by ``***`` in both."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import websockets

from .conftest import BASE_ENV, Server
from .helpers import create_game, new_identity


async def test_tokens_in_query_strings_are_not_logged(tmp_path: Path) -> None:
    srv = Server(
        {**BASE_ENV, "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'log.db'}"}, log_level="info"
    )
    srv.migrate()
    srv.start()
    try:
        with httpx.Client(base_url=srv.base, timeout=20) as api:
            tok = new_identity(api, "Logged")
            gid = create_game(api, tok)["id"]
            assert api.get(f"/api/identity/me?token={tok}").status_code in (200, 401)
        ws_url = f"{srv.ws_base}/ws/games/{gid}?since=0&token={tok}"
        async with websockets.connect(ws_url) as ws:
            assert json.loads(await ws.recv())["type"] == "hello"
        logs = srv.logs()
    finally:
        srv.stop()
    assert "[accepted]" in logs and "token=***" in logs  # the handshake was logged
    assert tok not in logs
