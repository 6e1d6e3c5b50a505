"""A revoked login session closes the sockets it opened (finding 3 of issue 34): logout
and ``DELETE /api/identity/sessions/{id}`` send each of them an ``error``
``session_revoked`` and close it with 4401 (docs/protocol.md), on whichever worker
serves it; the identity's other sessions keep theirs."""

from __future__ import annotations

import json
from typing import Any

import httpx
import websockets

from .conftest import Server
from .helpers import auth, create_game, new_identity
from .test_game_ws import url


async def _closed_with(ws: Any) -> tuple[list[str], int | None]:
    codes: list[str] = []
    try:
        async for raw in ws:
            msg = json.loads(raw)
            if msg.get("type") == "error":
                codes.append(msg["code"])
    except websockets.ConnectionClosed:
        pass
    return codes, ws.close_code


async def test_logout_and_revoke_close_that_sessions_sockets(
    server: Server, api: httpx.Client
) -> None:
    tok = new_identity(api, "Leaver")
    gid = create_game(api, tok, seat="AXIS")["id"]
    async with websockets.connect(url(server, gid, token=tok)) as ws:
        assert json.loads(await ws.recv())["type"] == "hello"
        assert api.post("/api/identity/logout", headers=auth(tok)).status_code == 204
        codes, code = await _closed_with(ws)
    assert "session_revoked" in codes and code == 4401
    other_tok = new_identity(api, "Other")
    sid = api.get("/api/identity/sessions", headers=auth(other_tok)).json()[0]["id"]
    async with (
        websockets.connect(url(server, gid, token=other_tok)) as ws,
        websockets.connect(url(server, gid)) as spectator,
    ):
        assert json.loads(await ws.recv())["type"] == "hello"
        assert json.loads(await spectator.recv())["type"] == "hello"
        r = api.delete(f"/api/identity/sessions/{sid}", headers=auth(other_tok))
        assert r.status_code == 204
        codes, code = await _closed_with(ws)
        assert "session_revoked" in codes and code == 4401
        await spectator.send(json.dumps({"type": "ping", "id": 1}))  # still served
        while (msg := json.loads(await spectator.recv()))["type"] != "pong":
            pass
