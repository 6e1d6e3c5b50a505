"""Web Push (pywebpush, VAPID): one message to each of an identity's subscriptions.
Without VAPID keys in the settings nothing is sent."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from ..settings import Settings

log = logging.getLogger("app.push")


def enabled(settings: Settings) -> bool:
    return bool(settings.vapid_private_key and settings.vapid_public_key)


def _send(settings: Settings, sub: dict[str, Any], payload: str) -> int:
    """HTTP status of the push service's answer (0: not reached).  pywebpush is imported
    here, on first use (it brings requests and more: seconds of every worker's start
    on a server without VAPID keys)."""
    from pywebpush import WebPushException, webpush  # type: ignore[import-untyped]

    try:
        r = webpush(
            subscription_info=sub,
            data=payload,
            vapid_private_key=settings.vapid_private_key,
            vapid_claims={"sub": settings.vapid_subject},
            timeout=10,
        )
        return int(getattr(r, "status_code", 201))
    except WebPushException as exc:
        status = getattr(exc.response, "status_code", 0) if exc.response is not None else 0
        log.warning("push to %s refused: %s", sub.get("endpoint", "?")[:60], exc)
        return int(status)
    except Exception as exc:  # noqa: BLE001 (the push service down: logged, never raised)
        log.warning("push to %s failed: %s", sub.get("endpoint", "?")[:60], exc)
        return 0


async def send(
    settings: Settings, subs: list[dict[str, Any]], title: str, body: str, url: str
) -> list[str]:
    """Push ``{title, body, url}`` to each subscription; returns the endpoints the push
    service says are gone (404/410), to be forgotten."""
    if not enabled(settings) or not subs:
        return []
    payload = json.dumps({"title": title, "body": body, "url": url})
    codes = await asyncio.gather(*(asyncio.to_thread(_send, settings, s, payload) for s in subs))
    return [s["endpoint"] for s, c in zip(subs, codes) if c in (404, 410)]
