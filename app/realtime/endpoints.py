"""The websocket endpoint ``/ws/games/{id}`` (protocol: docs/protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import re
from collections.abc import Mapping
from typing import Any

import orjson

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from sqlalchemy.exc import TimeoutError as SATimeoutError

from ..chat import service as chat_service
from ..errors import AppError, NotFound
from ..inputs import InputError, parse_json
from ..games.privacy import may_watch
from ..games.runtime import GameRuntime
from ..models import Identity
from ..ratelimit import client_key
from ..security import hash_token, identity_of_token, token_from
from . import remote
from .connection import (
    MAX_DROPS,
    MAX_MESSAGE_BYTES,
    SEND_QUEUE,
    SEND_QUEUE_BYTES,
    Connection,
    TokenBucket,
    burst,
    per_second,
)
from .forward import auth_mac
from .hub import Hub

log = logging.getLogger("app.ws")
router = APIRouter()

CLIENT_TYPES = ("action", "chat", "resync", "auth", "ping", *remote.TYPES)
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
MAX_SEQ = 2**31 - 1


def _msg_id(msg: dict[str, Any]) -> Any:
    """The message's ``id`` if it is a valid one (a string up to 128 characters or an
    integer), else None."""
    mid = msg.get("id")
    if isinstance(mid, str) and len(mid) <= 128:
        return mid
    if isinstance(mid, int) and not isinstance(mid, bool) and abs(mid) < 2**63:
        return mid
    return None


def _peek_id(text: str | None) -> Any:
    """The ``id`` of a message the server refuses unread (dropped by the rate limit, too
    deep, a NUL), for its ``error`` (best effort: ``orjson`` parses in C with its own
    depth cap, so even a too-deep message is safe to peek into; the size is already
    bounded)."""
    if text is None:
        return None
    try:
        msg = orjson.loads(text)
    except (orjson.JSONDecodeError, UnicodeEncodeError):
        return None
    return _msg_id(msg) if isinstance(msg, dict) else None


def _text_of(message: Mapping[str, Any]) -> tuple[str | None, int]:
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
async def game_socket(ws: WebSocket, game_id: str) -> None:
    hub: Hub = ws.app.state.hub
    fwd = ws.app.state.forward  # another worker owns the game: relayed to it
    claims = fwd.relayed(ws, game_id) if fwd is not None else None
    if fwd is not None and GAME_ID.fullmatch(game_id) and await fwd.route(ws, game_id):
        return
    if claims is not None:  # relayed by another worker: signed, re-checked
        await fwd.accept_relayed(ws, claims)
    else:
        await ws.accept()
    conn = Connection(ws, SEND_QUEUE, SEND_QUEUE_BYTES)
    conn.relay_nonce = str(claims["nonce"]) if claims is not None else None
    conn.writer_task = asyncio.create_task(conn.writer())
    rt: GameRuntime | None = None
    # query parameters read by hand: a bad one is a coded error, not a 1008 close
    q = ws.query_params
    conn.delta = q.get("delta") != "0"  # ?delta=0: every update carries the full view
    token, seat, since_raw = q.get("token"), q.get("seat"), q.get("since")
    invite, watch = q.get("invite"), q.get("watch")
    since: int | None = None
    try:
        if since_raw is not None:
            try:
                since = int(since_raw)
            except ValueError:
                since = None
            if since is None or not -MAX_SEQ <= since <= MAX_SEQ:
                since = None
        try:
            if not GAME_ID.fullmatch(game_id):
                raise NotFound(f"no game {game_id[:80]!r}", code="game_not_found")
            rt = await hub.registry.get(game_id)
        except NotFound:
            conn.error("game_not_found", f"no game {game_id[:80]!r}")
            conn.close(4404, "game not found")
            return
        except AppError as exc:  # game_unplayable: its log no longer replays
            conn.error(exc.code, exc.message, **exc.details)
            conn.close(4410, exc.code)
            return
        identity = None
        if claims is not None:  # the relay checked the token: its identity
            if claims.get("identity"):
                identity = await hub.db.read(_identity, str(claims["identity"]))
                conn.token_hash = str(claims.get("token_hash") or "") or None
        elif tok := token or token_from(ws):
            identity = await hub.db.read(identity_of_token, tok)
            if identity is None:
                conn.error("invalid_token", "unknown token")
                conn.close(4401, "invalid token")
                return
            conn.token_hash = hash_token(tok)
        if identity is not None and not rt.seats_of(identity.id):
            async with hub.db.sessions() as session:  # a claim on another worker may
                await rt.refresh_seats(session)  # not have reached this one yet
        if hub.bind(rt, conn, identity, seat):
            conn.error(
                "not_seated", f"you do not hold seat {str(seat)[:40]}; watching as a spectator"
            )
        if not may_watch(rt, conn.identity_id, invite):
            conn.error(
                "invite_required", "this private game is watched with its invite code (?invite=)"
            )
            conn.close(4403, "invite required")
            return
        conn.client = client_key(ws, conn.identity_id)
        if code := hub.watch(rt, conn, watch):
            conn.error(
                code,
                f"cannot watch {str(watch)[:40]}: the public view instead",
                watch=str(watch)[:40],
            )
        await hub.attach(rt, conn, since)
        if since_raw is not None and since is None:  # after the hello, as invalid_since
            conn.error(
                "bad_message",
                "?since= must be an integer (the last seq seen)",
                since=since_raw[:40],
            )
        await ws.app.state.bots.present(rt, conn.identity_id)  # back from a stand-in bot
        reader = asyncio.create_task(_read_loop(hub, rt, conn))
        done, _ = await asyncio.wait(
            {reader, conn.writer_task}, return_when=asyncio.FIRST_COMPLETED
        )
        if reader in done:
            failure = reader.exception()
            if failure is not None and not isinstance(failure, asyncio.CancelledError):
                log.warning("reader failed: %r", failure)
                conn.error(
                    "internal_error", "the server failed on this connection; reconnect with since"
                )
                conn.close(1011, "internal error")
        reader.cancel()
        with contextlib.suppress(BaseException):
            await reader
    except WebSocketDisconnect:  # the client left during the set-up
        raise
    except SATimeoutError:  # every database connection busy for POOL_TIMEOUT:
        log.warning("game %s: connection refused, database pool exhausted", game_id[:80])
        conn.error(
            "server_busy", "the server is overloaded; reconnect in a few seconds (with since)"
        )
        conn.close(1013, "server busy")
    except Exception:  # a failure while setting up: coded, then closed
        log.exception("game %s: connection setup failed", game_id[:80])
        conn.error("internal_error", "the server failed on this connection; reconnect with since")
        conn.close(1011, "internal error")
    finally:
        if rt is not None:
            hub.detach(rt, conn)
            await hub.left(rt, conn)
        conn.close(conn.close_code if conn.closed else 1000)
        if conn.writer_task is not None:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(conn.writer_task, 3.0)


async def _read_loop(hub: Hub, rt: GameRuntime, conn: Connection) -> None:
    s = hub.settings
    rate = per_second(s.rate("socket"))
    bucket = TokenBucket(rate, burst(rate))
    drops, noticed = 0, -1.0
    loop = asyncio.get_running_loop()
    while not conn.closed:
        await asyncio.sleep(0)  # let this connection's writer (and others) run
        message = await conn.ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        text, size = _text_of(message)
        if not bucket.allow():
            drops += 1
            if loop.time() - noticed >= 1.0:  # one notice per second: no amplification
                noticed = loop.time()
                conn.send_json(
                    {
                        "type": "error",
                        "code": "rate_limited",
                        "id": _peek_id(text),
                        "message": f"over {rate:g} messages/s; messages dropped",
                        "details": {"dropped": drops},
                    }
                )
            if drops >= MAX_DROPS:
                conn.close(4429, "rate limit abuse")
                return
            continue
        if size > MAX_MESSAGE_BYTES:
            conn.error(
                "message_too_large", f"messages are at most {MAX_MESSAGE_BYTES} bytes", size=size
            )
            continue
        if text is None:  # a binary frame that is not UTF-8
            conn.error("malformed_json", "a message must be UTF-8 JSON text", reason="utf8")
            continue
        try:
            msg = parse_json(text)
        except InputError as exc:  # too deep, NUL, lone surrogate, not JSON
            conn.send_json(
                {
                    "type": "error",
                    "code": exc.code,
                    "id": _peek_id(text),
                    "message": exc.message,
                    "details": exc.details,
                }
            )
            continue
        if not isinstance(msg, dict):
            conn.error("malformed_json", "each message must be one JSON object")
            continue
        mtype = msg.get("type")
        if mtype not in CLIENT_TYPES:
            conn.send_json(
                {
                    "type": "error",
                    "code": "unknown_type",
                    "id": _msg_id(msg),
                    "message": f"unknown message type {str(mtype)[:40]!r}",
                    "details": {"known": list(CLIENT_TYPES)},
                }
            )
            continue
        if "id" in msg and msg["id"] is not None and _msg_id(msg) is None:
            _bad(conn, None, "'id' must be a string (at most 128 characters) or an integer")
            continue
        try:
            await _dispatch(hub, rt, conn, str(mtype), msg)
        except AppError as exc:
            conn.send_json(
                {
                    "type": "error",
                    "code": exc.code,
                    "id": _msg_id(msg),
                    "message": exc.message,
                    "details": exc.details,
                }
            )
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug: logged, coded, and the socket stays open
            log.exception("game %s: %s message failed", rt.game_id, mtype)
            conn.send_json(
                {
                    "type": "error",
                    "code": "internal_error",
                    "id": _msg_id(msg),
                    "message": "the server failed on this message (logged)",
                    "details": {},
                }
            )


def _bad(conn: Connection, msg_id: Any, why: str) -> None:
    conn.send_json(
        {"type": "error", "code": "bad_message", "message": why, "id": msg_id, "details": {}}
    )


async def _dispatch(
    hub: Hub, rt: GameRuntime, conn: Connection, mtype: str, msg: dict[str, Any]
) -> None:
    msg_id = _msg_id(msg)
    if mtype == "ping":
        conn.send_json({"type": "pong", "id": msg_id})
    elif mtype == "action":
        seq, action = msg.get("seq"), msg.get("action")
        if not isinstance(seq, int) or isinstance(seq, bool) or not -MAX_SEQ <= seq <= MAX_SEQ:
            return _bad(conn, msg_id, "action needs an integer 'seq' (the last seq you saw)")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            return _bad(conn, msg_id, "action needs an 'action' object with a 'type'")
        if conn.seat is None:
            conn.send_json(
                {
                    "type": "reject",
                    "id": msg_id,
                    "code": "not_seated",
                    "message": "spectators cannot act",
                    "seq": rt.seq,
                    "details": {},
                }
            )
            return None
        # one seat: the action's ``seat`` is overwritten with it.  Several role seats: the
        # action names the acting one (as in ``legal``); the server checks it holds it
        seat = conn.seat
        if len(conn.seats) > 1 and isinstance(action.get("seat"), str):
            seat = action["seat"]
        if seat not in conn.seats:
            conn.send_json(
                {
                    "type": "reject",
                    "id": msg_id,
                    "code": "not_seated",
                    "message": f"you do not hold seat {seat}",
                    "seq": rt.seq,
                    "details": {"seats": conn.seats},
                }
            )
            return None
        await hub.act(rt, conn, seat, seq, action, msg_id)
    elif mtype == "chat":
        channel, text = msg.get("channel"), msg.get("text")
        if (
            not isinstance(channel, str)
            or not isinstance(text, str)
            or not 1 <= len(text.strip()) <= chat_service.MAX_TEXT
        ):
            return _bad(
                conn, msg_id, f"chat needs 'channel' and 'text' (1-{chat_service.MAX_TEXT} chars)"
            )
        async with hub.db.writing() as session:
            m = await chat_service.post_as(
                session,
                rt.game_id,
                conn.actors,
                conn.identity_id,
                conn.name or "guest",
                channel,
                text.strip(),
                rt.rs.view_for(rt.state, conn.seat),
                rt.rs,
            )
        await hub.chat_posted(rt.game_id, chat_service.to_wire(m))
    elif mtype in remote.TYPES:
        await remote.handle(hub, rt, conn, mtype, msg)
    elif mtype == "resync":
        since = msg.get("since")
        if since is not None and (
            not isinstance(since, int)
            or isinstance(since, bool)
            or not -MAX_SEQ <= since <= MAX_SEQ
        ):
            return _bad(conn, msg_id, "'since' must be an integer")
        await hub.resync(rt, conn, since)
    elif mtype == "auth":
        identity, token_hash = await _auth_identity(hub, conn, msg)
        if identity is False:
            return _bad(conn, msg_id, "auth needs a 'token'")
        if identity is None:
            conn.send_json(
                {
                    "type": "error",
                    "code": "invalid_token",
                    "id": msg_id,
                    "message": "unknown token",
                    "details": {},
                }
            )
            return None
        hub.detach(rt, conn)
        conn.token_hash = token_hash
        wanted = msg.get("seat")
        asked = wanted if isinstance(wanted, str) else None
        if hub.bind(rt, conn, identity, asked):
            conn.error(
                "not_seated", f"you do not hold seat {str(asked)[:40]}; watching as a spectator"
            )
        await hub.attach(rt, conn, None)
    return None


def _identity(session: Any, identity_id: str) -> Identity | None:
    return session.get(Identity, identity_id)


async def _auth_identity(hub: Hub, conn: Connection, msg: dict[str, Any]) -> tuple[Any, str | None]:
    """The identity of an ``auth`` message and its token's hash: (None, None) for an
    unknown token, (False, None) for a malformed message.  On a relayed socket the relay
    checked the token and signed the identity for this connection (app/realtime/forward.py)."""
    relayed = msg.get("relayed")
    if conn.relay_nonce is not None and isinstance(relayed, dict):
        ident, th = str(relayed.get("identity") or ""), str(relayed.get("token_hash") or "")
        sig = str(relayed.get("sig") or "")
        if (
            not hmac.compare_digest(
                sig, auth_mac(hub.settings.secret_key, conn.relay_nonce, ident, th)
            )
            or not ident
        ):
            return None, None
        return await hub.db.read(_identity, ident), th
    tok = msg.get("token")
    if not isinstance(tok, str) or len(tok) > 256:
        return False, None
    return await hub.db.read(identity_of_token, tok), hash_token(tok)
