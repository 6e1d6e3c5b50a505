"""The database: one async SQLAlchemy engine and its sessions per process (SQLite through
aiosqlite, PostgreSQL through asyncpg); every query of the server goes through them.

SQLite has one writer at a time.  Two connections whose deferred transactions both read
and then write make one of them fail at once with "database is locked" (SQLite cannot
wait for a lock it would deadlock on), and a writer that does wait does so in the busy
handler's growing sleeps, which is the latency tail of every game of the worker.  So on
SQLite the server's own write transactions (:meth:`Database.writing`,
:meth:`Database.transaction`: seats, presence, snapshots, and the action log, whose
appends are grouped by ``games.repository.LogWriter``) take one ``asyncio.Lock`` of the
process first and run one after another; reads never wait for it (WAL: a reader sees the
last commit and blocks nobody).  PostgreSQL needs no such lock: row locks and the
compare-and-set on ``games.seq`` decide.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import DeclarativeBase

from .settings import get_settings

T = TypeVar("T")


class Base(DeclarativeBase):
    pass


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def sqlite_file(url: str) -> str | None:
    """The database file of a SQLite URL (None: not SQLite, or in memory)."""
    u = make_url(url)
    if u.get_backend_name() != "sqlite" or not u.database or u.database == ":memory:":
        return None
    return u.database


def ensure_sqlite_dir(url: str) -> None:
    path = sqlite_file(url)
    if path is not None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)


def make_engine(url: str, schema: str | None = None) -> AsyncEngine:
    ensure_sqlite_dir(url)
    if is_sqlite(url):
        eng = create_async_engine(url, connect_args={"timeout": 30}, pool_reset_on_return=None)

        @event.listens_for(eng.sync_engine, "connect")
        def _pragmas(dbapi_conn, _):  # type: ignore[no-untyped-def]
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")  # WAL: durable across a crash of
            cur.execute("PRAGMA foreign_keys=ON")  # the process (not of the machine)
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        return eng
    settings = get_settings()
    schema = schema if schema is not None else settings.database_schema
    connect_args = {"server_settings": {"search_path": schema}} if schema else {}
    return create_async_engine(
        url,
        pool_size=settings.db_pool_size,
        max_overflow=settings.db_pool_size,
        pool_pre_ping=True,
        connect_args=connect_args,
    )


class Database:
    """Owns the engine and the session factory of one process."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or get_settings().database_url
        self.engine = make_engine(self.url)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        self._writer = asyncio.Lock() if is_sqlite(self.url) else None  # see the module

    @contextlib.asynccontextmanager
    async def writing(self) -> AsyncIterator[AsyncSession]:
        """A session for a write transaction (SQLite: one at a time, module docstring)."""
        if self._writer is None:
            async with self.sessions() as s:
                yield s
            return
        async with self._writer, self.sessions() as s:
            yield s

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncConnection]:
        """A Core connection in a write transaction, committed at the end of the block
        (rolled back on an exception); SQLite: one at a time, as :meth:`writing`."""
        if self._writer is None:
            async with self.engine.begin() as conn:
                yield conn
            return
        async with self._writer, self.engine.begin() as conn:
            yield conn

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(session, *args)`` with a synchronous-style ORM session (``run_sync``: the
        queries still go through the async driver)."""
        async with self.sessions() as a:
            return await a.run_sync(fn, *args)

    async def dispose(self) -> None:
        await self.engine.dispose()
