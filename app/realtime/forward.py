"""Sockets of a game owned by another worker: forwarded to it, frame by frame.

With ``REDIS_URL`` set, each worker serves a second, internal listener
(``FORWARD_HOST``, a free port) next to the public one; its ``host:port`` is what the
game keys of app/games/ownership.py name.  A socket of ``/ws/games/{id}`` reaching a
worker that does not own the game is relayed to the owner's listener, same path and
query string without ``token``.  No credential of the client leaves the worker it
reached: that worker checks the token (query, cookie, ``Authorization`` or a later
``auth`` message) itself and sends the owner a signed assertion instead
(:func:`sign`: the identity, its token's hash, the client's address, the game, the
owner's address and a nonce, HMAC-SHA256 with ``SECRET_KEY``, which never sits in
Redis).  The owner re-checks it (its own address, a fresh time, the signature) and
proves it holds the key in its handshake answer (``X-Overlord-Proof``) before any frame
of the client goes to it: a Redis key pointed at a stranger's listener gets neither a
token nor a frame.  The owner then does all of the game's work for every socket,
wherever it landed; the forwarder only copies frames and close codes both ways.  The
internal listener serves this websocket path only.

Why frames and not a redirect: browsers cannot be redirected mid-handshake, and the
workers of one ``uvicorn --workers N`` share one public port.  When the owner dies the
relay sees its connection drop and closes the client with 1012: the client reconnects
with ``since`` and lands on a new owner (a refused connection lets the next worker take
the game at once; an unreachable machine's key expires after ``OWNER_TTL_SECONDS``).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import socket
import time
import urllib.parse
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, WebSocket
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from websockets.exceptions import InvalidHandshake

from ..games.ownership import Ownership, namespace
from ..games.sessions import GameSessions
from ..pubsub import Outage
from ..security import hash_token, identity_of_token, token_from
from ..settings import Settings
from .connection import HARD_MAX_BYTES

log = logging.getLogger("app.forward")

H_SIGNED = "x-overlord-forward"
H_PROOF = "x-overlord-proof"
MAX_AGE = 60.0  # seconds a signed assertion is good for
# close codes a websocket endpoint may send (1005 / 1006 / 1015 only describe a close)
_SENDABLE = {1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014}
OWNER_LOST = (1012, "owner_lost: the game's worker is gone; reconnect with since")
OWNER_MOVED = (1012, "owner_moved: the game moved to another worker; reconnect with since")

REFUSED = object()  # ``_connect``: the owner's address refused the connection
Endpoint = Callable[[WebSocket, str], Awaitable[None]]


def _sendable(code: int | None) -> int:
    return code if code is not None and (code in _SENDABLE or 3000 <= code <= 4999) else 1000


def _mac(key: str, text: str) -> str:
    return hmac.new(key.encode(), text.encode(), hashlib.sha256).hexdigest()


def sign(key: str, claims: dict[str, Any]) -> str:
    """``claims`` as the relay's header value: base64 JSON, a dot, its HMAC."""
    body = base64.urlsafe_b64encode(json.dumps(claims, sort_keys=True).encode()).decode()
    return f"{body}.{_mac(key, body)}"


def verify(key: str, value: str | None, address: str, game_id: str) -> dict[str, Any] | None:
    """The claims of a relay header signed with ``key`` for this owner (``address``) and
    game, at most ``MAX_AGE`` old; None for anything else."""
    if not value or "." not in value or len(value) > 2048:
        return None
    body, mac = value.rsplit(".", 1)
    if not hmac.compare_digest(mac, _mac(key, body)):
        return None
    try:
        claims = json.loads(base64.urlsafe_b64decode(body.encode()))
    except ValueError:
        return None
    if (
        not isinstance(claims, dict)
        or claims.get("to") != address
        or claims.get("game") != game_id
        or not abs(time.time() - float(claims.get("at", 0))) <= MAX_AGE
    ):
        return None
    return claims


def proof(key: str, nonce: str) -> str:
    """The owner's answer to a relay's nonce: it holds the same key."""
    return _mac(key, "owner|" + nonce)


def auth_mac(key: str, nonce: str, identity: str, token_hash: str) -> str:
    """The signature of an ``auth`` message the relay checked for the connection
    ``nonce`` (only valid on that relayed connection)."""
    return _mac(key, f"auth|{nonce}|{identity}|{token_hash}")


class _Internal:
    """The internal listener: a second uvicorn server in this process that serves the
    game websocket path only (lifespan off: it shares this worker's state; no signal
    handlers: the public server owns them)."""

    def __init__(self, app: FastAPI, settings: Settings, endpoint: Endpoint) -> None:
        import uvicorn

        class Server(uvicorn.Server):
            @contextlib.contextmanager
            def capture_signals(self) -> Any:
                yield

        async def relayed(ws: WebSocket) -> None:
            await endpoint(ws, ws.path_params["game_id"])

        inner = Starlette(routes=[WebSocketRoute("/ws/games/{game_id}", relayed)])
        inner.state = app.state
        host = settings.forward_host
        fam = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.sock = socket.socket(fam, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, 0))
        self.sock.listen(512)
        port = self.sock.getsockname()[1]
        self.address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        cfg = uvicorn.Config(
            inner,
            lifespan="off",
            log_level="warning",
            access_log=False,
            ws_max_size=HARD_MAX_BYTES,
            ws_per_message_deflate=False,
            proxy_headers=False,
            timeout_graceful_shutdown=2,
        )
        self.server = Server(cfg)
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.task = asyncio.create_task(
            self.server.serve(sockets=[self.sock]), name="forward-listener"
        )
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

    def __init__(
        self, games: GameSessions, ownership: Ownership, internal: _Internal, key: str
    ) -> None:
        self.games = games
        self.ownership = ownership
        self.internal = internal
        self.key = key
        self.relays: set[WebSocket] = set()  # client sockets relayed to an owner
        self.forwarded_total = 0
        self._redis = Outage("ownership")

    # -- the owner's side --------------------------------------------------------------
    def relayed(self, ws: WebSocket, game_id: str) -> dict[str, Any] | None:
        """The signed claims of a socket another worker relayed to this one (None: a
        client's own socket, or a header that does not check out)."""
        return verify(self.key, ws.headers.get(H_SIGNED), self.ownership.address, game_id)

    async def accept_relayed(self, ws: WebSocket, claims: dict[str, Any]) -> None:
        """Accept a relayed socket with the proof the relay waits for."""
        ws.scope["client"] = (str(claims.get("client", "unknown"))[:100], 0)
        await ws.accept(
            headers=[(H_PROOF.encode(), proof(self.key, str(claims["nonce"])).encode())]
        )

    async def route(self, ws: WebSocket, game_id: str) -> bool:
        """Before the endpoint serves a game socket: True when it was handled here
        (relayed to the owner, or closed 1012), False to serve it locally (this worker
        owns the game, or Redis failed: the database still arbitrates every action)."""
        try:
            if self.relayed(ws, game_id) is not None:  # relayed to us by another worker
                holder = await self.ownership.take(game_id)
                self._redis.ok()
                if holder == self.ownership.address:
                    return False
                await ws.accept()  # moved since the relay chose us
                await ws.close(*OWNER_MOVED)
                return True
            holder = await self.ownership.claim(game_id)
            self._redis.ok()
            token = ws.query_params.get("token") or token_from(ws)
            who = await self._who(token)
            if token and not who[0]:
                return False  # served here: the endpoint refuses it (4401)
            for _ in range(2):
                if holder is None or holder == self.ownership.address:
                    return False
                up = await self._connect(ws, holder, game_id, who)
                if up is None:  # no answer in time, or not a worker of ours
                    break
                if up is not REFUSED:
                    await self._relay(ws, *up)
                    return True
                holder = await self.ownership.usurp(game_id, holder)  # its listener is gone
        except Exception as exc:  # Redis down: serve it here
            self._redis.failed(exc)
            return False
        await ws.accept()
        await ws.close(*OWNER_LOST)
        return True

    # -- the relay ---------------------------------------------------------------------
    async def _who(self, token: str | None) -> tuple[str, str]:
        """(identity id, token hash) of a token checked here; ("", "") for none or an
        unknown one (the owner then serves a spectator, as for an anonymous socket)."""
        if not token:
            return "", ""
        ident = await self.games.db.read(identity_of_token, token)
        return (ident.id, hash_token(token)) if ident is not None else ("", "")

    async def _connect(self, ws: WebSocket, holder: str, game_id: str, who: tuple[str, str]) -> Any:
        from websockets.asyncio.client import connect

        q = [
            (k, v)
            for k, v in urllib.parse.parse_qsl(
                ws.scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True
            )
            if k != "token"
        ]
        identity, token_hash = who
        nonce = secrets.token_urlsafe(16)
        claims = {
            "to": holder,
            "game": game_id,
            "at": time.time(),
            "nonce": nonce,
            "client": ws.client.host if ws.client else "unknown",
            "identity": identity,
            "token_hash": token_hash,
        }
        url = f"ws://{holder}/ws/games/{game_id}" + (f"?{urllib.parse.urlencode(q)}" if q else "")
        headers = [(H_SIGNED, sign(self.key, claims))]
        if (ua := ws.headers.get("user-agent")) is not None:
            headers.append(("user-agent", ua))
        try:
            up = await connect(
                url,
                additional_headers=headers,
                max_size=None,
                compression=None,
                open_timeout=20,
                close_timeout=2,
                ping_interval=20,
                ping_timeout=20,
                user_agent_header=None,
            )
        except ConnectionRefusedError as exc:  # nobody listens there any more
            log.warning("owner %s of game %s is gone: %r", holder, game_id, exc)
            return REFUSED
        except (OSError, asyncio.TimeoutError, InvalidHandshake) as exc:
            log.warning("owner %s of game %s unreachable: %r", holder, game_id, exc)
            return None
        got = up.response.headers.get(H_PROOF) if up.response is not None else None
        if got is None or not hmac.compare_digest(got, proof(self.key, nonce)):
            log.warning(
                "owner %s of game %s did not prove the shared key: not relayed", holder, game_id
            )
            with contextlib.suppress(Exception):
                await up.close()
            return None
        return up, nonce

    async def _relay(self, ws: WebSocket, up: Any, nonce: str) -> None:
        """Copy frames both ways until either side closes; the close code and reason go
        to the other side (the owner lost without a close frame: 1012)."""
        await ws.accept()
        self.relays.add(ws)
        self.forwarded_total += 1
        down_task = asyncio.create_task(self._down(ws, up))
        up_task = asyncio.create_task(self._up(ws, up, nonce))
        try:
            done, _ = await asyncio.wait({down_task, up_task}, return_when=asyncio.FIRST_COMPLETED)
            if up_task in done and up_task.exception() is None:  # the client left:
                code, reason = up_task.result()  # tell the owner
                with contextlib.suppress(Exception):
                    await up.close(_sendable(code), reason)
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(down_task, 3.0)
            else:  # the owner closed (or vanished)
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(asyncio.shield(down_task), 1.0)
                rcvd = up.protocol.close_rcvd
                code, reason = (
                    (_sendable(rcvd.code), rcvd.reason) if rcvd is not None else OWNER_LOST
                )
                with contextlib.suppress(Exception):
                    await ws.close(code, reason)
        finally:
            self.relays.discard(ws)
            for t in (down_task, up_task):
                t.cancel()
            with contextlib.suppress(Exception):
                await up.close()
            del up, down_task, up_task  # no cycle through the finished tasks

    @staticmethod
    async def _down(ws: WebSocket, up: Any) -> None:
        from websockets.exceptions import ConnectionClosed

        with contextlib.suppress(ConnectionClosed):
            async for data in up:
                if isinstance(data, str):
                    await ws.send_text(data)
                else:
                    await ws.send_bytes(data)
                data = None  # not held while the socket idles (a hello: ~62 KB)

    async def _up(self, ws: WebSocket, up: Any, nonce: str) -> tuple[int, str]:
        while True:
            m = await ws.receive()
            if m["type"] == "websocket.disconnect":
                return int(m.get("code") or 1000), str(m.get("reason") or "")
            text = m.get("text")
            if text is not None and '"auth"' in text:
                text = await self._auth(nonce, text)
            await up.send(text if text is not None else m.get("bytes") or b"")

    async def _auth(self, nonce: str, text: str) -> str:
        """An ``auth`` message: its token checked here and replaced by the identity and
        the token's hash, signed for this relayed connection (no token goes on)."""
        try:
            msg = json.loads(text)
        except ValueError:
            return text
        if (
            not isinstance(msg, dict)
            or msg.get("type") != "auth"
            or not isinstance(msg.get("token"), str)
            or len(msg["token"]) > 256
        ):
            return text
        identity, token_hash = await self._who(msg.pop("token"))
        msg["relayed"] = {
            "identity": identity,
            "token_hash": token_hash,
            "sig": auth_mac(self.key, nonce, identity, token_hash),
        }
        return json.dumps(msg)

    # -- life --------------------------------------------------------------------------
    def lost(self, game_id: str) -> None:
        """Another worker took the game (this one stalled past the TTL): close its sockets
        with 1012 (their clients reconnect to the new owner) and forget the runtime."""
        rt = self.games.registry.cached(game_id)
        if rt is None:
            return
        for conn in list(rt.connections):
            conn.close(*OWNER_MOVED)
        self.games.registry.runtimes.pop(game_id, None)

    def stats(self, game_id: str | None = None) -> dict[str, Any]:
        out = {
            "address": self.ownership.address,
            "owned": len(self.ownership.owned),
            "loaded": len(self.games.registry.runtimes),
            "relayed": len(self.relays),
            "relayed_total": self.forwarded_total,
            "peers": len(self.ownership.peers),
        }
        if game_id is not None:
            out["owns"] = self.ownership.owns(game_id)
        return out

    async def stop(self) -> None:
        for ws in list(self.relays):
            with contextlib.suppress(Exception):
                await ws.close(1012, "server shutting down")
        await self.ownership.stop()
        await self.internal.stop()


async def start(
    app: FastAPI, settings: Settings, games: GameSessions, endpoint: Endpoint
) -> Forwarding:
    """Start the internal listener and the ownership renewal of this worker (lifespan)."""
    assert settings.redis_url
    internal = _Internal(app, settings, endpoint)
    ownership = Ownership(
        settings.redis_url,
        games.registry,
        space=namespace(settings.database_url, settings.database_schema),
    )
    fwd = Forwarding(games, ownership, internal, settings.secret_key)
    ownership.on_lost = fwd.lost
    await internal.start()
    await ownership.start(internal.address)
    games.shed = ownership.shed
    return fwd
