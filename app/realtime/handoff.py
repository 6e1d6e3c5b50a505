"""Hand a game socket over to its owner worker on the same machine (no relay).

A websocket of ``/ws/games/{id}`` that reaches a worker not owning the game is, before
its handshake is answered, given to the owner as an open file descriptor (``SCM_RIGHTS``
over a datagram unix socket next to the owner's internal listener) together with the
HTTP upgrade request rebuilt from the ASGI scope.  The owner adopts it as if it had
accepted the connection itself (``loop.connect_accepted_socket`` with a uvicorn protocol
configured like the public server: 1 MiB frames, proxy headers) and answers the
handshake; from then on the client talks to the owner directly and the first worker has
no part in the connection (the relay of app/realtime/forward.py copied every frame
through a second socket: ~0.2 ms per frame).  Only between workers of one machine: the
owner's address names a loopback host.  Anything failing falls back to the relay.
"""
from __future__ import annotations

import array
import asyncio
import contextlib
import logging
import os
import socket
import tempfile
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastapi import FastAPI, WebSocket

    from ..settings import Settings

log = logging.getLogger("app.handoff")

SCOPE_TRANSPORT = "overlord.transport"      # set by TransportMiddleware (websocket scopes)
SCOPE_PROTOCOL = "overlord.protocol"        # the server protocol (Connection.use_protocol)
LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")
MAX_REQUEST = 60_000


def path_for(address: str) -> str | None:
    """The hand-off socket of the worker whose internal listener is ``address``
    (``host:port``), or None when that worker is not on this machine."""
    host, _, port = address.rpartition(":")
    if host not in LOCAL_HOSTS or not port.isdigit():
        return None
    return os.path.join(tempfile.gettempdir(), f"overlord-handoff-{port}.sock")


class TransportMiddleware:
    """Outermost ASGI layer: remember the websocket's transport (the server protocol is
    the ``send`` callable's owner) so that a non-owner can hand the socket over, and the
    protocol itself (a connection writes its frames to it: ``Connection.use_protocol``)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":
            proto = getattr(send, "__self__", None)
            transport = getattr(proto, "transport", None)
            if transport is not None:
                scope[SCOPE_TRANSPORT] = transport
                scope[SCOPE_PROTOCOL] = proto
        await self.app(scope, receive, send)


def _request_bytes(scope: dict[str, Any]) -> bytes:
    target = scope.get("raw_path") or scope["path"].encode()
    if scope.get("query_string"):
        target += b"?" + scope["query_string"]
    lines = [b"GET " + target + b" HTTP/1.1"]
    lines += [k + b": " + v for k, v in scope.get("headers", [])]
    return b"\r\n".join(lines) + b"\r\n\r\n"


def give(ws: WebSocket, owner_address: str) -> bool:
    """Send the (not yet accepted) socket to the owner; True when the owner has it (this
    worker must then forget the connection without writing to it)."""
    path = path_for(owner_address)
    transport = ws.scope.get(SCOPE_TRANSPORT)
    if path is None or transport is None or not os.path.exists(path):
        return False
    sock = transport.get_extra_info("socket")
    if sock is None:
        return False
    request = _request_bytes(ws.scope)
    if len(request) > MAX_REQUEST:
        return False
    fd = os.dup(sock.fileno())
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as out:
            out.settimeout(1.0)
            # (socket.send_fds of Python 3.11 drops its address argument)
            out.sendmsg([request], [(socket.SOL_SOCKET, socket.SCM_RIGHTS,
                                     array.array("i", [fd]))], 0, path)
    except ConnectionRefusedError:      # the owner's process is gone (its file stays)
        log.info("hand-off to %s refused: relaying", owner_address)
        return False
    except OSError as exc:
        log.warning("hand-off to %s failed (%r): relaying", owner_address, exc)
        return False
    finally:
        os.close(fd)          # the owner holds its own copy (SCM_RIGHTS duplicates it)
    transport.pause_reading()
    transport.abort()         # our descriptor only: the connection lives on at the owner
    _QuietHandshake.pending += 1
    return True


class _QuietHandshake(logging.Filter):
    """uvicorn logs "ASGI callable returned without completing handshake" for the socket
    this worker handed over (its handshake is the owner's): not an error here."""

    pending = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if _QuietHandshake.pending and "without completing handshake" in record.getMessage():
            _QuietHandshake.pending -= 1
            return False
        return True


logging.getLogger("uvicorn.error").addFilter(_QuietHandshake())


class Adopter:
    """The owner's side: a datagram unix socket receiving (request, descriptor) pairs."""

    def __init__(self, app: FastAPI, settings: Settings, address: str) -> None:
        import uvicorn

        self.path = path_for(address)
        self.config = uvicorn.Config(app, lifespan="off", log_config=None,
                                     access_log=False, ws_max_size=settings.ws_hard_max_bytes,
                                     ws_per_message_deflate=settings.ws_per_message_deflate,
                                     proxy_headers=True)
        self.config.load()
        self.state = uvicorn.server.ServerState()
        self.sock: socket.socket | None = None
        self.adopted = 0

    def start(self) -> None:
        if self.path is None:
            return
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(self.path)
        sock.setblocking(False)
        self.sock = sock
        asyncio.get_running_loop().add_reader(sock.fileno(), self._receive)

    def _receive(self) -> None:
        assert self.sock is not None
        while True:
            try:
                data, fds, _flags, _addr = socket.recv_fds(self.sock, MAX_REQUEST + 1024, 4)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                log.exception("hand-off socket failed")
                return
            for extra in fds[1:]:
                os.close(extra)
            if not fds:
                continue
            conn = socket.socket(fileno=fds[0])
            task = asyncio.get_running_loop().create_task(self._adopt(conn, data))
            task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)

    async def _adopt(self, conn: socket.socket, request: bytes) -> None:
        conn.setblocking(False)
        loop = asyncio.get_running_loop()
        try:
            _transport, protocol = await loop.connect_accepted_socket(self._protocol, sock=conn)
        except OSError:
            conn.close()
            return
        self.adopted += 1
        protocol.data_received(request)

    def _protocol(self) -> asyncio.Protocol:
        return self.config.http_protocol_class(  # type: ignore[call-arg]
            config=self.config, server_state=self.state, app_state={})

    def stop(self) -> None:
        if self.sock is None:
            return
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(self.sock.fileno())
        self.sock.close()
        self.sock = None
        if self.path:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.path)
