"""Sockets of a game owned by another worker: forwarded to it, frame by frame.

With ``REDIS_URL`` set, each worker serves a second, internal listener
(``FORWARD_HOST``, a free port) next to the public one; its ``host:port`` is what the
game keys of app/games/ownership.py name.  A socket of ``/ws/games/{id}`` reaching a
worker that does not own the game is relayed to the owner's listener, same path and
query string, cookies and ``Authorization`` kept, the client's address in
``X-Overlord-Client`` (trusted only next to ``X-Overlord-Forward`` = the workers' shared
secret).  The owner then does all of the game's work for every socket, wherever it
landed; the forwarder only copies frames and close codes both ways.

Why frames and not a redirect: browsers cannot be redirected mid-handshake, and the
workers of one ``uvicorn --workers N`` share one public port.  When the owner dies the
relay sees its connection drop and closes the client with 1012: the client reconnects
with ``since`` and lands on a new owner (a refused connection lets the next worker take
the game at once; an unreachable machine's key expires after ``OWNER_TTL_SECONDS``).
"""
from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import socket
from typing import TYPE_CHECKING, Any

from fastapi import WebSocket
from websockets.exceptions import InvalidHandshake

from ..games.ownership import Ownership, namespace
from . import handoff

if TYPE_CHECKING:
    from fastapi import FastAPI

    from ..realtime.hub import Hub
    from ..settings import Settings

log = logging.getLogger("app.forward")

H_SECRET = "x-overlord-forward"
H_CLIENT = "x-overlord-client"
KEPT_HEADERS = ("cookie", "authorization", "user-agent")
# close codes a websocket endpoint may send (1005 / 1006 / 1015 only describe a close)
_SENDABLE = {1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014}
OWNER_LOST = (1012, "owner_lost: the game's worker is gone; reconnect with since")
OWNER_MOVED = (1012, "owner_moved: the game moved to another worker; reconnect with since")


REFUSED = object()       # ``_connect``: the owner's address refused the connection


def _sendable(code: int | None) -> int:
    return code if code is not None and (code in _SENDABLE or 3000 <= code <= 4999) else 1000


class _Internal:
    """The internal listener: a second uvicorn server of the same app in this process
    (lifespan off: it shares the hub; no signal handlers: the public server owns them)."""

    def __init__(self, app: FastAPI, settings: Settings) -> None:
        import uvicorn

        class Server(uvicorn.Server):
            @contextlib.contextmanager
            def capture_signals(self) -> Any:
                yield

        host = settings.forward_host
        fam = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.sock = socket.socket(fam, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, settings.forward_port))
        self.sock.listen(512)
        port = self.sock.getsockname()[1]
        self.address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        cfg = uvicorn.Config(app, lifespan="off", log_level="warning", access_log=False,
                             ws_max_size=settings.ws_hard_max_bytes,
                             ws_per_message_deflate=False, proxy_headers=False,
                             timeout_graceful_shutdown=2)
        self.server = Server(cfg)
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.task = asyncio.create_task(self.server.serve(sockets=[self.sock]),
                                        name="forward-listener")
        for _ in range(200):
            if self.server.started or self.task.done():
                break
            await asyncio.sleep(0.01)

    async def stop(self) -> None:
        self.server.should_exit = True
        if self.task is not None:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(self.task, 5.0)
        self.sock.close()


class Forwarding:
    """Ownership + internal listener + the relay of non-owned games' sockets."""

    def __init__(self, hub: Hub, ownership: Ownership, internal: _Internal, secret: str) -> None:
        self.hub = hub
        self.ownership = ownership
        self.internal = internal
        self.secret = secret
        self.relays: set[WebSocket] = set()        # client sockets relayed to an owner
        self.forwarded_total = 0
        self.handed_total = 0                      # sockets handed over (handoff.py)
        self.adopter: handoff.Adopter | None = None

    # -- the decision ------------------------------------------------------------------
    def _trusted(self, ws: WebSocket) -> bool:
        got = ws.headers.get(H_SECRET)
        return got is not None and hmac.compare_digest(got.encode(), self.secret.encode())

    async def route(self, ws: WebSocket, game_id: str) -> bool:
        """Before the endpoint serves a game socket: True when it was handled here
        (relayed to the owner, or closed 1012), False to serve it locally (this worker
        owns the game, or Redis failed: the database still arbitrates every action)."""
        if self._trusted(ws):                       # relayed to us by another worker
            client = ws.headers.get(H_CLIENT)
            if client:
                ws.scope["client"] = (client[:100], 0)
            try:
                holder = await self.ownership.take(game_id)
            except Exception:
                log.exception("ownership of %s unknown (Redis): serving it", game_id)
                return False
            if holder == self.ownership.address:
                return False
            await ws.accept()                       # moved since the relay chose us
            await ws.close(*OWNER_MOVED)
            return True
        try:
            holder = await self.ownership.claim(game_id)
            for _ in range(2):
                if holder is None or holder == self.ownership.address:
                    return False
                if handoff.give(ws, holder):    # same machine: the owner takes the socket
                    self.handed_total += 1
                    return True
                up = await self._connect(ws, holder, game_id)
                if up is None:          # no answer in time: the owner is alive but slow
                    break
                if up is not REFUSED:
                    await self._relay(ws, up)
                    return True
                holder = await self.ownership.usurp(game_id, holder)   # its listener is gone
        except Exception:
            log.exception("ownership of %s unknown (Redis): serving it", game_id)
            return False
        await ws.accept()
        await ws.close(*OWNER_LOST)
        return True

    # -- the relay ---------------------------------------------------------------------
    async def _connect(self, ws: WebSocket, holder: str, game_id: str) -> Any:
        from websockets.asyncio.client import connect

        qs = ws.scope.get("query_string", b"").decode("latin-1")
        url = f"ws://{holder}/ws/games/{game_id}" + (f"?{qs}" if qs else "")
        headers = [(H_SECRET, self.secret),
                   (H_CLIENT, ws.client.host if ws.client else "unknown")]
        headers += [(k, v) for k in KEPT_HEADERS if (v := ws.headers.get(k)) is not None]
        try:
            return await connect(url, additional_headers=headers, max_size=None,
                                 compression=None, open_timeout=20, close_timeout=2,
                                 ping_interval=20, ping_timeout=20, user_agent_header=None)
        except ConnectionRefusedError as exc:       # nobody listens there any more
            log.warning("owner %s of game %s is gone: %r", holder, game_id, exc)
            return REFUSED
        except (OSError, asyncio.TimeoutError, InvalidHandshake) as exc:
            log.warning("owner %s of game %s unreachable: %r", holder, game_id, exc)
            return None

    async def _relay(self, ws: WebSocket, up: Any) -> None:
        """Copy frames both ways until either side closes; the close code and reason go
        to the other side (the owner lost without a close frame: 1012)."""
        await ws.accept()
        self.relays.add(ws)
        self.forwarded_total += 1
        down_task = asyncio.create_task(self._down(ws, up))
        up_task = asyncio.create_task(self._up(ws, up))
        try:
            done, _ = await asyncio.wait({down_task, up_task},
                                         return_when=asyncio.FIRST_COMPLETED)
            if up_task in done and up_task.exception() is None:   # the client left:
                code, reason = up_task.result()                      # tell the owner
                with contextlib.suppress(Exception):
                    await up.close(_sendable(code), reason)
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(down_task, 3.0)
            else:                                    # the owner closed (or vanished)
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(asyncio.shield(down_task), 1.0)
                rcvd = up.protocol.close_rcvd
                code, reason = ((_sendable(rcvd.code), rcvd.reason) if rcvd is not None
                                else OWNER_LOST)
                with contextlib.suppress(Exception):
                    await ws.close(code, reason)
        finally:
            self.relays.discard(ws)
            for t in (down_task, up_task):
                t.cancel()
            with contextlib.suppress(Exception):
                await up.close()

    @staticmethod
    async def _down(ws: WebSocket, up: Any) -> None:
        from websockets.exceptions import ConnectionClosed

        with contextlib.suppress(ConnectionClosed):
            async for data in up:
                if isinstance(data, str):
                    await ws.send_text(data)
                else:
                    await ws.send_bytes(data)
                data = None     # not held while the socket idles (a hello: ~62 KB)

    @staticmethod
    async def _up(ws: WebSocket, up: Any) -> tuple[int, str]:
        while True:
            m = await ws.receive()
            if m["type"] == "websocket.disconnect":
                return int(m.get("code") or 1000), str(m.get("reason") or "")
            text = m.get("text")
            await up.send(text if text is not None else m.get("bytes") or b"")

    # -- life --------------------------------------------------------------------------
    def lost(self, game_id: str) -> None:
        """Another worker took the game (this one stalled past the TTL): close its sockets
        with 1012 (their clients reconnect to the new owner) and forget the runtime."""
        rt = self.hub.registry.cached(game_id)
        if rt is None:
            return
        for conn in list(rt.connections):
            conn.close(*OWNER_MOVED)
        self.hub.registry.runtimes.pop(game_id, None)

    def stats(self, game_id: str | None = None) -> dict[str, Any]:
        out = {"address": self.ownership.address, "owned": len(self.ownership.owned),
               "loaded": len(self.hub.registry.runtimes), "relayed": len(self.relays),
               "relayed_total": self.forwarded_total, "handed_total": self.handed_total,
               "adopted_total": self.adopter.adopted if self.adopter else 0,
               "peers": len(self.ownership.peers)}
        if game_id is not None:
            out["owns"] = self.ownership.owns(game_id)
        return out

    async def stop(self) -> None:
        for ws in list(self.relays):
            with contextlib.suppress(Exception):
                await ws.close(1012, "server shutting down")
        if self.adopter is not None:
            self.adopter.stop()
        await self.ownership.stop()
        await self.internal.stop()


async def start(app: FastAPI, settings: Settings, hub: Hub) -> Forwarding:
    """Start the internal listener and the ownership renewal of this worker (lifespan)."""
    assert settings.redis_url
    internal = _Internal(app, settings)
    ownership = Ownership(settings.redis_url, hub.registry, settings.owner_ttl_seconds,
                          space=namespace(settings.database_url, settings.database_schema))
    fwd = Forwarding(hub, ownership, internal, "")
    ownership.on_lost = fwd.lost
    fwd.secret = await ownership.secret(settings.forward_secret)
    await internal.start()
    if settings.socket_handoff:
        fwd.adopter = handoff.Adopter(app, settings, internal.address)
        fwd.adopter.start()
    await ownership.start(internal.address)
    hub.shed = ownership.shed
    return fwd
