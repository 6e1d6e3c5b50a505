"""Same-origin only: the websocket handshake and every state-changing HTTP request must
come from a page of this server (or an origin listed in ``ALLOWED_ORIGINS``).

Why: the session is a cookie, and ``SameSite=Lax`` only stops *other sites*; a page on a
sibling port or subdomain is the same site, so its forms and websockets carry the cookie.
The check is OWASP's "verify the origin with standard headers" CSRF defence:

* websocket handshake: a browser always sends ``Origin``; one not allowed gets an
  ``error`` ``origin_forbidden`` and close 4403 (before anything about the game is sent);
* ``POST``/``PUT``/``PATCH``/``DELETE``: ``Origin`` (or, without it, ``Referer``) must be
  allowed, else 403 ``origin_forbidden``.  Browsers send ``Origin`` on every POST (and
  fetch metadata): a request with neither header whose ``Sec-Fetch-Site`` says another
  site is refused with 403 ``csrf_failed``; a request with none of these headers is not
  from a browser page (API clients, scripts, tests: with a bearer token or their own
  cookie jar) and passes.

"Allowed" = the request's own origin (scheme + ``Host``; behind a proxy run uvicorn with
``--proxy-headers``/``--forwarded-allow-ips`` so the scheme is right) or one of
``ALLOWED_ORIGINS`` (comma separated, e.g. ``https://play.example.org``).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from .inputs import _reply, refuse_websocket

UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def _origin_of(url: str) -> str | None:
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if not parts.scheme or not parts.netloc:
        return None
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


def _default_port(scheme: str) -> str:
    return {"http": "80", "https": "443"}.get(scheme, "")


def _normal(origin: str) -> str:
    """``scheme://host:port`` with the default port made explicit."""
    scheme, _, rest = origin.partition("://")
    if ":" not in rest.rsplit("]", 1)[-1]:
        rest = f"{rest}:{_default_port(scheme)}"
    return f"{scheme}://{rest}"


class OriginMiddleware:
    def __init__(self, app: Any, allowed: str = "") -> None:
        self.app = app
        self.allowed = {
            _normal(o) for o in (_origin_of(x) for x in allowed.split(",") if x.strip()) if o
        }

    def _own(self, scope: dict[str, Any], headers: dict[bytes, bytes]) -> str | None:
        host = headers.get(b"host")
        if not host:
            return None
        scheme = scope.get("scheme", "http")
        scheme = {"ws": "http", "wss": "https"}.get(scheme, scheme)
        return _normal(f"{scheme}://{host.decode('latin-1').lower()}")

    def allowed_origin(
        self, scope: dict[str, Any], headers: dict[bytes, bytes], origin: str
    ) -> bool:
        o = _origin_of(origin)
        if o is None:  # "null" (sandboxed frames, file:) and garbage
            return False
        o = _normal(o)
        return o == self._own(scope, headers) or o in self.allowed

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind == "websocket" or (kind == "http" and scope["method"] in UNSAFE):
            headers = {k: v for k, v in scope.get("headers", ())}
            origin = headers.get(b"origin")
            if kind == "websocket":
                if origin is not None and not self.allowed_origin(
                    scope, headers, origin.decode("latin-1")
                ):
                    return await refuse_websocket(
                        receive,
                        send,
                        "origin_forbidden",
                        "this game's socket only opens from the server's own pages",
                        4403,
                        origin=origin.decode("latin-1")[:200],
                    )
            else:
                source = origin or headers.get(b"referer")
                if source is not None:
                    if not self.allowed_origin(scope, headers, source.decode("latin-1")):
                        return await _reply(
                            send,
                            403,
                            "origin_forbidden",
                            "cross-origin requests are refused",
                            origin=source.decode("latin-1")[:200],
                        )
                elif headers.get(b"sec-fetch-site", b"none") not in (b"same-origin", b"none"):
                    # a browser that stripped Origin and Referer still tells where from
                    return await _reply(
                        send,
                        403,
                        "csrf_failed",
                        "a cross-site request without Origin or Referer",
                        sec_fetch_site=headers[b"sec-fetch-site"].decode("latin-1")[:40],
                    )
        return await self.app(scope, receive, send)
