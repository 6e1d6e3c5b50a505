"""Test clients for the server: an HTTP helper and a websocket client that records
every message it receives."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import websockets

from app.realtime.delta import apply_patch

SCENARIO = "2-PegasusBridge"


def new_identity(api: httpx.Client, name: str) -> str:
    r = api.post("/api/identity", json={"name": name})
    assert r.status_code == 201, r.text
    token = r.json()["token"]
    assert len(token) >= 43
    return str(token)


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create_game(api: httpx.Client, token: str, seed: int = 7, **extra: Any) -> dict[str, Any]:
    body = {"scenario_id": SCENARIO, "mode": "1v1", "seed": seed, **extra}
    r = api.post("/api/games", json=body, headers=auth(token))
    assert r.status_code == 201, r.text
    return dict(r.json())


def claim(
    api: httpx.Client, token: str, game_id: str, seat: str, invite: str | None = None
) -> httpx.Response:
    return api.post(
        f"/api/games/{game_id}/seats/{seat}/claim", json={"invite": invite}, headers=auth(token)
    )


def two_player_game(api: httpx.Client, seed: int = 7) -> tuple[str, dict[str, str]]:
    """A live 1v1 game: returns (game id, {seat: token})."""
    ta, tb = new_identity(api, "Axis player"), new_identity(api, "Allied player")
    g = create_game(api, ta, seed=seed, seat="AXIS")
    assert claim(api, tb, g["id"], "ALLIES").status_code == 200
    summary = api.get(f"/api/games/{g['id']}").json()
    assert summary["status"] == "live"
    return g["id"], {"AXIS": ta, "ALLIES": tb}


def hands(obj: Any, path: str = "") -> Iterator[str]:
    """Every path at which a ``hand`` key appears in a message."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            p = f"{path}.{k}"
            if k == "hand":
                yield p
            yield from hands(v, p)
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from hands(v, f"{path}[{i}]")


class WS:
    """A websocket client that keeps every message and tracks seq / view / legal."""

    def __init__(self, url: str, token: str | None = None) -> None:
        self.url = url if token is None else f"{url}{'&' if '?' in url else '?'}token={token}"
        self.ws: Any = None
        self.messages: list[dict[str, Any]] = []
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.seq = -1
        self.view: dict[str, Any] = {}
        self.legal: list[dict[str, Any]] = []
        self.seat: str | None = None
        self.closed: Any = None
        self._task: asyncio.Task[None] | None = None
        self._n = 0

    async def __aenter__(self) -> WS:
        self.ws = await websockets.connect(self.url, max_size=None, open_timeout=10)
        self._task = asyncio.create_task(self._read())
        await self.expect("hello")
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._task:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                msg = json.loads(raw)
                if "view_patch" in msg and "view" not in msg:  # as the client: patch its view
                    msg["view"] = apply_patch(self.view, msg["view_patch"])
                self.messages.append(msg)
                t = msg.get("type")
                if t == "hello":
                    self.seat = msg["seat"]
                if t in ("hello", "update", "sync"):
                    if msg["seq"] >= self.seq:
                        self.seq, self.view, self.legal = msg["seq"], msg["view"], msg["legal"]
                await self.queue.put(msg)
        except websockets.ConnectionClosed as exc:
            self.closed = exc
        finally:
            await self.queue.put(
                {"type": "__closed__", "code": getattr(self.ws, "close_code", None)}
            )

    async def send(self, obj: Any) -> None:
        await self.ws.send(obj if isinstance(obj, (str, bytes)) else json.dumps(obj))

    async def expect(self, *types: str, timeout: float = 15.0) -> dict[str, Any]:
        """The next message of one of ``types`` (others are skipped, still recorded)."""

        async def _next() -> dict[str, Any]:
            while True:
                msg = await self.queue.get()
                if msg["type"] in types or msg["type"] == "__closed__":
                    return msg

        return await asyncio.wait_for(_next(), timeout)

    async def act(self, action: dict[str, Any], seq: int | None = None) -> dict[str, Any]:
        """Send an action; returns its ack or reject (waits for the matching id)."""
        self._n += 1
        mid = f"a{self._n}"
        await self.send(
            {"type": "action", "id": mid, "seq": self.seq if seq is None else seq, "action": action}
        )
        while True:
            msg = await self.expect("ack", "reject", "error")
            if msg.get("code") == "rate_limited":  # dropped unread: send it again later
                await asyncio.sleep(0.2)
                return await self.act(action, seq)
            if msg.get("id") == mid or msg["type"] == "__closed__":
                return msg

    async def wait_seq(self, seq: int, timeout: float = 15.0) -> None:
        deadline = asyncio.get_running_loop().time() + timeout
        while self.seq < seq:
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise AssertionError(f"seq {self.seq} never reached {seq}")
            await asyncio.sleep(0.005)
