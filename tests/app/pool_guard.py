"""A guard of the test servers (:func:`install`, called by tests/app/server_app.py): it
logs every task that takes a second pooled database connection while it holds one.  Enough such tasks at
once hold the whole pool, each waiting for its second connection, and the worker stops
(every request waits for the pool's time-out); tests/app/conftest.py fails the test
during which a server logged it."""

from __future__ import annotations

import asyncio
import logging
import traceback
import weakref
from typing import Any

import greenlet  # type: ignore[import-untyped]  # (no stubs)
from sqlalchemy import event
from sqlalchemy.engine.interfaces import AdaptedConnection
from sqlalchemy.pool import Pool

NESTED = "nested pool check-out"  # the first words of a report
_held: weakref.WeakKeyDictionary[asyncio.Task[Any], int] = weakref.WeakKeyDictionary()
log = logging.getLogger("tests.pool_guard")


def _task() -> asyncio.Task[Any] | None:
    try:
        return asyncio.current_task()
    except RuntimeError:  # no event loop in this thread (a migration, a script)
        return None


def _awaits() -> str:
    """Where the app asked for the second connection: the check-out runs in SQLAlchemy's
    greenlet, whose parent stopped in the task's chain of awaits."""
    parent = greenlet.getcurrent().parent
    frame = parent.gr_frame if parent is not None else None
    return "".join(traceback.format_stack(frame, limit=25))


def install() -> None:
    """Watch every pool of this process (the server's, not the test runner's)."""
    event.listen(Pool, "checkout", _checkout)
    event.listen(Pool, "checkin", _checkin)


def _checkout(dbapi_conn: Any, record: Any, proxy: Any) -> None:
    """Counts an async engine's connection against the task that awaited it.  The SQLite
    log's synchronous connection (app/db.py) is not counted: the process keeps it, not
    the task that happened to open it, and no task ever waits for it in its pool."""
    task = _task()
    if task is None or not isinstance(dbapi_conn, AdaptedConnection):
        return
    if _held.get(task, 0):
        log.error("%s in task %s:\n%s", NESTED, task.get_name(), _awaits())
    _held[task] = _held.get(task, 0) + 1
    record.info["guard_task"] = weakref.ref(task)


def _checkin(dbapi_conn: Any, record: Any) -> None:
    ref = record.info.pop("guard_task", None)
    task = ref() if ref is not None else None
    if task is not None:
        left = _held.pop(task, 0) - 1
        if left > 0:
            _held[task] = left
