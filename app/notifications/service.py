"""Sending a notification (docs/protocol.md "Notifications").

Kinds: ``your_turn`` (a game waits for a player not connected to it, after
``NOTIFY_GRACE_SECONDS``), ``offer`` (a challenge or a return match offered),
``finished`` (a game of his ended).  Each is sent at most once per key (the ``notices``
table's unique constraint: e.g. one "your turn" per game and turn), by e-mail to a
verified address (with an unsubscribe link for that kind) and by Web Push, unless the
account switched that kind off.  The texts name only public facts (the scenario, the
opponent, the turn number, the winner): never a card, a hand or anything else a seat
hides.
"""

from __future__ import annotations

import asyncio
import gettext
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from ..accounts.repository import drop_push
from ..accounts.schemas import notify_of
from ..accounts.tokens import sign
from ..db import Database
from ..i18n import DEFAULT, translations
from ..models import Identity, Notice, PushSubscription
from ..settings import Settings
from . import mail, push

log = logging.getLogger("app.notify")
_tasks: set[asyncio.Task[Any]] = set()
#: writes a notification (its subject and text) with one language's translations
Compose = Callable[[gettext.NullTranslations], tuple[str, str]]


def spawn(coro: Coroutine[Any, Any, Any]) -> None:
    """Run a notification in the background (a request never waits for SMTP)."""
    task = asyncio.get_running_loop().create_task(coro)
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


async def drain() -> None:
    """Wait for the notifications under way (shutdown)."""
    if _tasks:
        await asyncio.gather(*list(_tasks), return_exceptions=True)


def unsubscribe_url(settings: Settings, identity_id: str, kind: str) -> str:
    return f"{settings.base_url()}/unsubscribe?token={sign(settings, 'unsubscribe', {'i': identity_id, 'k': kind})}"


async def notify(
    db: Database,
    settings: Settings,
    identity_id: str,
    kind: str,
    key: str,
    compose: Compose,
    path: str,
) -> bool:
    """Send one notification of ``kind`` to ``identity_id`` unless one with this ``key``
    was sent already or he switched the kind off; True when something was sent.
    ``compose`` writes its subject and text in the account's language."""
    async with db.writing() as s:
        ident = await s.get(Identity, identity_id)
        if ident is None or not notify_of(ident.notify).get(kind, True):
            return False
        subs = [
            {"endpoint": p.endpoint, "keys": {"p256dh": p.p256dh, "auth": p.auth}}
            for p in (
                await s.execute(
                    select(PushSubscription).where(PushSubscription.identity_id == identity_id)
                )
            ).scalars()
        ]
        to = ident.email if ident.email and ident.email_verified else None
        tr = translations(ident.lang or DEFAULT)
        if to is None and not subs:
            return False
        s.add(Notice(identity_id=identity_id, kind=kind, key=key[:120]))
        try:
            await s.commit()
        except IntegrityError:
            return False  # sent already (or by another worker)
    subject, text = compose(tr)
    url = f"{settings.base_url()}{path}"
    sent = False
    if to is not None and mail.enabled(settings):
        off = unsubscribe_url(settings, identity_id, kind)
        footer = tr.gettext("No more notifications of this kind: {link}").format(link=off)
        sent = await mail.send(
            settings,
            to,
            subject,
            f"{text}\n\n{url}\n\n--\n{footer}\n",
            {
                "List-Unsubscribe": f"<{off}>",
                "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            },
        )
    gone = await push.send(settings, subs, subject, text, url)
    if gone:
        async with db.writing() as s:
            for endpoint in gone:
                await drop_push(s, endpoint)
            await s.commit()
    return sent or bool(subs and push.enabled(settings))
