"""The websocket endpoint ``/ws/games/{id}`` (protocol: docs/protocol.md)."""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from fastapi import APIRouter, WebSocket

from ..chat import service as chat_service
from ..errors import AppError, NotFound
from ..games.runtime import GameRuntime
from ..security import identity_by_token, token_from
from .connection import Connection, TokenBucket
from .hub import Hub

log = logging.getLogger("app.ws")
router = APIRouter()

CLIENT_TYPES = ("action", "chat", "resync", "auth", "ping")


def _text_of(message: dict[str, Any]) -> tuple[str | None, int]:
    if message.get("text") is not None:
        text: str = message["text"]
        return text, len(text.encode("utf-8"))
    data: bytes | None = message.get("bytes")
    if data is None:
        return None, 0
    try:
        return data.decode("utf-8"), len(data)
    except UnicodeDecodeError:
        return None, len(data)


@router.websocket("/ws/games/{game_id}")
async def game_socket(ws: WebSocket, game_id: str, token: str | None = None,
                      seat: str | None = None, since: int | None = None,
                      delta: int = 1) -> None:
    hub: Hub = ws.app.state.hub
    settings = hub.settings
    await ws.accept()
    conn = Connection(ws, settings.ws_send_queue, settings.ws_send_queue_bytes)
    conn.delta = bool(delta)            # ?delta=0: every update carries the full view
    conn.writer_task = asyncio.create_task(conn.writer())
    rt: GameRuntime | None = None
    try:
        try:
            rt = await hub.registry.get(game_id)
        except NotFound:
            conn.error("game_not_found", f"no game {game_id!r}")
            conn.close(4404, "game not found")
            return
        except AppError as exc:          # game_unplayable: its log no longer replays
            conn.error(exc.code, exc.message, **exc.details)
            conn.close(4410, exc.code)
            return
        tok = token or token_from(ws)
        identity = None
        if tok:
            async with hub.db.sessions() as session:
                identity = await identity_by_token(session, tok)
            if identity is None:
                conn.error("invalid_token", "unknown token")
                conn.close(4401, "invalid token")
                return
        if identity is not None and not rt.seats_of(identity.id):
            async with hub.db.sessions() as session:    # a claim on another worker may
                await rt.refresh_seats(session)         # not have reached this one yet
        if hub.bind(rt, conn, identity, seat):
            conn.error("not_seated", f"you do not hold seat {seat}; watching as a spectator")
        await hub.attach(rt, conn, since)
        await hub.bots.present(rt, conn.identity_id)     # back from a stand-in bot
        reader = asyncio.create_task(_read_loop(hub, rt, conn))
        done, _ = await asyncio.wait({reader, conn.writer_task}, return_when=asyncio.FIRST_COMPLETED)
        if reader in done:
            exc = reader.exception()
            if exc is not None and not isinstance(exc, asyncio.CancelledError):
                log.warning("reader failed: %r", exc)
        reader.cancel()
        with contextlib.suppress(BaseException):
            await reader
    finally:
        if rt is not None:
            hub.detach(rt, conn)
        conn.close(conn.close_code if conn.closed else 1000)
        if conn.writer_task is not None:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(conn.writer_task, 3.0)


async def _read_loop(hub: Hub, rt: GameRuntime, conn: Connection) -> None:
    s = hub.settings
    bucket = TokenBucket(s.ws_rate_per_second, s.ws_burst)
    drops, noticed = 0, -1.0
    loop = asyncio.get_running_loop()
    while not conn.closed:
        await asyncio.sleep(0)          # let this connection's writer (and others) run
        message = await conn.ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        text, size = _text_of(message)
        if not bucket.allow():
            drops += 1
            if loop.time() - noticed >= 1.0:        # one notice per second: no amplification
                noticed = loop.time()
                conn.error("rate_limited",
                           f"over {s.ws_rate_per_second:g} messages/s; messages dropped")
            if drops >= s.ws_max_drops:
                conn.close(4429, "rate limit abuse")
                return
            continue
        if size > s.ws_max_message_bytes:
            conn.error("message_too_large", f"messages are at most {s.ws_max_message_bytes} bytes",
                       size=size)
            continue
        try:
            msg = json.loads(text) if text is not None else None
        except ValueError:
            msg = None
        if not isinstance(msg, dict):
            conn.error("malformed_json", "each message must be one JSON object")
            continue
        mtype = msg.get("type")
        if mtype not in CLIENT_TYPES:
            conn.error("unknown_type", f"unknown message type {mtype!r}", known=list(CLIENT_TYPES))
            continue
        try:
            await _dispatch(hub, rt, conn, str(mtype), msg)
        except AppError as exc:
            conn.error(exc.code, exc.message, **exc.details)


def _bad(conn: Connection, msg_id: Any, why: str) -> None:
    conn.send_json({"type": "error", "code": "bad_message", "message": why, "id": msg_id,
                    "details": {}})


async def _dispatch(hub: Hub, rt: GameRuntime, conn: Connection, mtype: str,
                    msg: dict[str, Any]) -> None:
    msg_id = msg.get("id")
    if mtype == "ping":
        conn.send_json({"type": "pong", "id": msg_id})
    elif mtype == "action":
        seq, action = msg.get("seq"), msg.get("action")
        if not isinstance(seq, int) or isinstance(seq, bool):
            return _bad(conn, msg_id, "action needs an integer 'seq' (the last seq you saw)")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            return _bad(conn, msg_id, "action needs an 'action' object with a 'type'")
        if conn.seat is None:
            conn.send_json({"type": "reject", "id": msg_id, "code": "not_seated",
                            "message": "spectators cannot act", "seq": rt.seq, "details": {}})
            return None
        # one seat: the action's ``seat`` is overwritten with it.  Several role seats: the
        # action names the acting one (as in ``legal``); the server checks it holds it
        seat = conn.seat
        if len(conn.seats) > 1 and isinstance(action.get("seat"), str):
            seat = action["seat"]
        if seat not in conn.seats:
            conn.send_json({"type": "reject", "id": msg_id, "code": "not_seated",
                            "message": f"you do not hold seat {seat}", "seq": rt.seq,
                            "details": {"seats": conn.seats}})
            return None
        await hub.submit(rt, conn, seat, seq, action, msg_id, conn.identity_id)
    elif mtype == "chat":
        channel, text = msg.get("channel"), msg.get("text")
        if not isinstance(channel, str) or not isinstance(text, str) \
                or not 1 <= len(text.strip()) <= chat_service.MAX_TEXT:
            return _bad(conn, msg_id, f"chat needs 'channel' and 'text' (1-{chat_service.MAX_TEXT} chars)")
        async with hub.db.write_lock, hub.db.sessions() as session:
            m = await chat_service.post_as(session, rt.game_id, conn.actors, conn.identity_id,
                                           conn.name or "guest", channel, text.strip(),
                                           rt.rs.view_for(rt.state, conn.seat))
        await hub.chat_posted(rt.game_id, chat_service.to_wire(m))
    elif mtype == "resync":
        since = msg.get("since")
        if since is not None and (not isinstance(since, int) or isinstance(since, bool)):
            return _bad(conn, msg_id, "'since' must be an integer")
        await hub.resync(rt, conn, since)
    elif mtype == "auth":
        tok = msg.get("token")
        if not isinstance(tok, str):
            return _bad(conn, msg_id, "auth needs a 'token'")
        async with hub.db.sessions() as session:
            identity = await identity_by_token(session, tok)
        if identity is None:
            conn.error("invalid_token", "unknown token")
            return None
        hub.detach(rt, conn)
        seat = msg.get("seat") if isinstance(msg.get("seat"), str) else None
        if hub.bind(rt, conn, identity, seat):
            conn.error("not_seated", f"you do not hold seat {seat}; watching as a spectator")
        await hub.attach(rt, conn, None)
    return None
