"""Input limits applied before any JSON reaches the app: size, nesting depth, encoding.

Every client JSON (websocket messages, HTTP bodies, uploaded ``.m44`` files) goes through
:func:`parse_json`.  Refusals are :class:`InputError` with a stable code
(docs/protocol.md):

* ``json_too_deep``  nesting deeper than the limit (checked on the raw text before the
  parser runs, so no parser recursion is ever reached);
* ``invalid_text``   not UTF-8, a lone surrogate (raw or as a ``\\uD800`` escape) or a NUL
  character (``details.reason``: ``utf8`` | ``surrogate`` | ``nul``);
* ``malformed_json`` not JSON (``orjson`` is the parser: strict RFC 8259).

PostgreSQL refuses NUL in text and no JSON encoder can write a lone surrogate as UTF-8:
refusing them here keeps every later layer (database, fan-out) from failing on them.
"""

from __future__ import annotations

import re
from itertools import accumulate
from typing import Any

import orjson

from .errors import AppError

MAX_DEPTH = 32  # websocket messages and HTTP bodies (real ones are < 8 deep)
MAX_DEPTH_SCENARIO = 64  # .m44 files (the editor's JSON is ~6 deep)
MAX_TEXT_BYTES = 64 * 1024

# a string (or an unterminated one up to the end): linear, never backtracks
_STRING = re.compile(rb'"[^"\\]*+(?:\\.[^"\\]*+)*+(?:"|\Z)', re.DOTALL)
_OPEN_CLOSE = bytes(range(256)).translate(None, b"[]{}")  # every byte but brackets
_STEP = [0] * 256
_STEP[91] = _STEP[123] = 1
_STEP[93] = _STEP[125] = -1
_NUL_ESCAPE = re.compile(rb"(?<!\\)(?:\\\\)*\\u0000", re.IGNORECASE)


class InputError(AppError):
    code, status = "bad_request", 400


def _bytes(data: str | bytes) -> bytes:
    if isinstance(data, bytes):
        return data
    try:
        return data.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(
            "the text holds a lone surrogate", code="invalid_text", reason="surrogate"
        ) from None


def json_depth(raw: bytes, limit: int) -> int:
    """The bracket nesting depth of a JSON text (strings skipped), computed without
    parsing; stops counting precisely once past ``limit`` (cheap path when the text has
    fewer brackets than the limit)."""
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return 0
    brackets = _STRING.sub(b"", raw).translate(None, _OPEN_CLOSE)
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)  # all in C


def check_raw(data: str | bytes, *, max_depth: int = MAX_DEPTH) -> bytes:
    """UTF-8 bytes of ``data`` checked for encoding, NUL and nesting depth."""
    raw = _bytes(data)
    if isinstance(data, bytes):
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(
                f"not UTF-8 text (byte {exc.start})", code="invalid_text", reason="utf8"
            ) from None
    if b"\x00" in raw or _NUL_ESCAPE.search(raw):
        raise InputError("NUL characters are not allowed", code="invalid_text", reason="nul")
    depth = json_depth(raw, max_depth)
    if depth > max_depth:
        raise InputError(
            f"JSON nested {depth} deep; the limit is {max_depth}",
            code="json_too_deep",
            depth=depth,
            limit=max_depth,
        )
    return raw


def _surrogate_escapes(raw: bytes) -> None:
    """Refuse lone ``\\uD800``-style escapes (malformed JSON is left to the endpoint's
    own validation error)."""
    if b"\\u" not in raw and b"\\U" not in raw:
        return
    try:
        orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        if "surrogate" in str(exc):
            raise InputError(
                "the JSON holds a lone surrogate escape", code="invalid_text", reason="surrogate"
            ) from None


def parse_json(data: str | bytes, *, max_depth: int = MAX_DEPTH) -> Any:
    """Parse client JSON after :func:`check_raw` (raises :class:`InputError`)."""
    raw = check_raw(data, max_depth=max_depth)
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        text = str(exc)
        if "surrogate" in text:
            raise InputError(
                "the JSON holds a lone surrogate escape", code="invalid_text", reason="surrogate"
            ) from None
        raise InputError(f"not JSON: {text[:120]}", code="malformed_json") from None


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def clean_label(text: str, limit: int) -> str:
    """A display text: control and bidi-override characters removed, whitespace runs
    collapsed, at most ``limit`` characters."""
    return " ".join(_CONTROL.sub("", text).split())[:limit]


def has_control(text: str) -> bool:
    return _CONTROL.search(text) is not None


# -- HTTP: every request body and URL checked before routing --------------------------------

MAX_JSON_BODY = 64 * 1024
MAX_UPLOAD_BYTES = 2 * 1024 * 1024  # an uploaded .m44 file
MULTIPART_OVERHEAD = 64 * 1024


async def _reply(send: Any, status: int, code: str, message: str, **details: Any) -> None:
    body = orjson.dumps({"error": {"code": code, "message": message, "details": details}})
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def refuse_websocket(
    receive: Any, send: Any, code: str, message: str, close_code: int, **details: Any
) -> None:
    """Accept a websocket only to say why it is refused (a coded ``error``), then close:
    never a silent drop."""
    msg = await receive()
    if msg.get("type") != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send(
        {
            "type": "websocket.send",
            "text": orjson.dumps(
                {"type": "error", "code": code, "message": message, "details": details}
            ).decode(),
        }
    )
    await send({"type": "websocket.close", "code": close_code, "reason": code})


def _bad_url(scope: dict[str, Any]) -> str | None:
    path = scope.get("path", "")
    if "\x00" in path or any("\ud800" <= ch <= "\udfff" for ch in path):
        return "the URL path holds a NUL or an invalid character"
    qs: bytes = scope.get("query_string", b"")
    if b"\x00" in qs or b"%00" in qs.lower():
        return "the query string holds a NUL"
    return None


class InputLimitMiddleware:
    """Pure ASGI: refuses NUL / invalid characters in URLs (HTTP 400, websocket ``error``
    + close 4400), bodies over the limits (413 ``body_too_large`` / ``file_too_large``),
    and JSON bodies that are too deep, not UTF-8 or hold NUL / lone surrogates (400),
    before FastAPI parses anything.  The checked body is replayed to the app."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        bad = _bad_url(scope)
        if bad is not None:
            if kind == "websocket":
                return await refuse_websocket(
                    receive, send, "invalid_text", bad, 4400, reason="nul"
                )
            return await _reply(send, 400, "invalid_text", bad, reason="nul")
        if kind == "websocket" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            return await self.app(scope, receive, send)
        ctype = ""
        for k, v in scope.get("headers", ()):
            if k == b"content-type":
                ctype = v.decode("latin-1").lower()
        multipart = ctype.startswith("multipart/")
        limit = MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD if multipart else MAX_JSON_BODY
        chunks, size, more = [], 0, True
        while more:
            msg = await receive()
            if msg["type"] == "http.disconnect":
                return None
            chunk = msg.get("body", b"")
            size += len(chunk)
            if size > limit:
                if multipart:
                    return await _reply(
                        send,
                        413,
                        "file_too_large",
                        f"a .m44 file is at most {MAX_UPLOAD_BYTES} bytes",
                    )
                return await _reply(
                    send,
                    413,
                    "body_too_large",
                    f"request bodies are at most {limit} bytes",
                    limit=limit,
                )
            chunks.append(chunk)
            more = msg.get("more_body", False)
        body = b"".join(chunks)
        if body and not multipart:
            try:
                check_raw(body)
                if "json" in ctype or not ctype:
                    _surrogate_escapes(body)
            except InputError as exc:
                return await _reply(send, exc.status, exc.code, exc.message, **exc.details)
        replayed = False

        async def replay() -> dict[str, Any]:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return dict(await receive())

        return await self.app(scope, replay, send)
