"""The database: one async SQLAlchemy engine and its sessions per process (SQLite through
aiosqlite, PostgreSQL through asyncpg); every query of the server goes through them, and
on SQLite the action log's appends go through one synchronous connection of their own.

SQLite has one writer at a time.  Two connections whose deferred transactions both read
and then write make one of them fail at once with "database is locked" (SQLite cannot
wait for a lock it would deadlock on), and a writer that does wait does so in the busy
handler's growing sleeps, which is the latency tail of every game of the worker.  So on
SQLite the server's own write transactions (:meth:`Database.writing`: seats, presence,
bots; :meth:`Database.write_log`: the action log and the state snapshots) take one
``asyncio.Lock`` of the process first and run one after another; reads never wait for it
(WAL: a reader sees the last commit and blocks nobody).  The log is written by a
synchronous SQLAlchemy Core transaction on the event loop (``BEGIN IMMEDIATE``; one per
append, in the action's own task: ``games.repository.LogWriter``): a WAL commit
with ``synchronous=NORMAL`` is a write to the WAL file without fsync, about 0.1 ms, while
through aiosqlite each statement is three hand-overs to its thread and back, each waiting
for the GIL behind the loop's own work (7 per append: 2.5 ms of CPU per action and a p99
of 70 ms at 100 Overlord games, docs/performance.md).  That connection is kept open for
the process (no pool check-out, reset and return per append; a new one after a database
error), never waits for a lock on the loop (busy timeout 0: if another process or an
unlocked session writes, the append waits for it asynchronously and tries again) and
never checkpoints on the loop: every ``CHECKPOINT_EVERY`` commits of it, a passive
checkpoint runs on a connection of the async engine, in aiosqlite's thread.  PostgreSQL
needs none of this: each append is a transaction of the async engine, and row locks and
the compare-and-set on ``games.seq`` decide.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.sql.expression import Executable
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, OperationalError
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
CHECKPOINT_EVERY = 500  # SQLite: log commits between two checkpoints of the WAL


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


def make_log_engine(url: str) -> Engine:
    """SQLite: the synchronous connection the action log is written with (module
    docstring): one connection, ``BEGIN IMMEDIATE``, never waits for a lock, never
    checkpoints.  The driver begins the transaction itself, before its first statement
    that starts with ``INSERT``, ``UPDATE``, ``DELETE`` or ``REPLACE`` (not a ``SELECT``
    or a ``WITH``): every transaction of this connection starts with one (the append's
    compare-and-set, a snapshot's insert, the bots' lease), so nothing runs before the
    lock.  A ``begin`` event would do it too, but an engine with a connection event runs
    its event hooks at every statement: the append took a third more instructions
    (callgrind)."""
    eng = create_engine(
        make_url(url).set(drivername="sqlite"),
        connect_args={"check_same_thread": False, "timeout": 0},
        pool_size=1,
        max_overflow=0,
    )

    @event.listens_for(eng, "connect")
    def _pragmas(dbapi_conn, _):  # type: ignore[no-untyped-def]
        dbapi_conn.isolation_level = "IMMEDIATE"  # sqlite3 begins IMMEDIATE at the first write
        for pragma in (
            "journal_mode=WAL",  # a no-op once the file is WAL (the other connections too)
            "synchronous=NORMAL",
            "foreign_keys=ON",
            "wal_autocheckpoint=0",
        ):
            dbapi_conn.execute("PRAGMA " + pragma)

    return eng


def _busy(exc: OperationalError) -> bool:
    """Another connection holds SQLite's write lock (SQLITE_BUSY / SQLITE_LOCKED)."""
    code = getattr(exc.orig, "sqlite_errorcode", None)
    return code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


class Database:
    """Owns the engine and the session factory of one process."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or get_settings().database_url
        self.engine = make_engine(self.url)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        sqlite = is_sqlite(self.url)
        self._writer = asyncio.Lock() if sqlite else None  # see the module
        self.log_engine = make_log_engine(self.url) if sqlite else None
        self._log_conn: Connection | None = None  # the log's connection, kept open
        self._log_commits = 0
        self._checkpoint: asyncio.Task[None] | None = None

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
        """PostgreSQL: a Core connection in a write transaction, committed at the end of
        the block (rolled back on an exception).  SQLite writes the log with
        :meth:`write_log`."""
        async with self.engine.begin() as conn:
            yield conn

    async def execute_write(self, statement: Executable) -> int:
        """One statement as a write transaction of its own; its row count.  SQLite: on the
        log's connection like an append (:meth:`write_log`), so the one writer is held
        for about 0.1 ms, not across aiosqlite's thread hops; PostgreSQL: a Core
        transaction.  For short frequent writes (the bots' lease)."""
        if self.log_engine is None:
            async with self.transaction() as conn:
                res = await conn.execute(statement)
            return int(res.rowcount)
        return await self.write_log(lambda conn: int(conn.execute(statement).rowcount))

    async def write_log(self, fn: Callable[[Connection], T]) -> T:
        """SQLite: ``fn(conn)`` in a transaction of the log's synchronous connection, on
        the loop, as the process's one writer (module docstring); committed when ``fn``
        returns, rolled back if it raises."""
        assert self.log_engine is not None and self._writer is not None
        while True:
            async with self._writer:
                conn = self._log_conn
                if conn is None:  # kept for the process: no pool check-out and reset
                    conn = self._log_conn = self.log_engine.connect()  # per append
                try:
                    with conn.begin():
                        out = fn(conn)
                    self._committed()
                    return out
                except DBAPIError as exc:  # whatever its state now: the next one is fresh
                    self._log_conn = None
                    conn.close()
                    if not (isinstance(exc, OperationalError) and _busy(exc)):
                        raise
            await asyncio.sleep(0.002)  # another process writes: wait for it, off the loop

    def _committed(self) -> None:
        self._log_commits += 1
        if self._log_commits % CHECKPOINT_EVERY == 0 and (
            self._checkpoint is None or self._checkpoint.done()
        ):
            self._checkpoint = asyncio.get_running_loop().create_task(self.checkpoint())

    async def checkpoint(self) -> None:
        """SQLite: copy the WAL into the database file (``PASSIVE``: waits for nobody),
        in aiosqlite's thread: first while the log goes on, then what it wrote meanwhile,
        as the one writer; the WAL is then wholly in the file and the log's next
        transaction writes it again from its start (else it grows without end)."""
        assert self._writer is not None
        async with self.engine.connect() as conn:
            await conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            async with self._writer:
                await conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(session, *args)`` with a synchronous-style ORM session (``run_sync``: the
        queries still go through the async driver)."""
        async with self.sessions() as a:
            return await a.run_sync(fn, *args)

    async def dispose(self) -> None:
        if self._checkpoint is not None:
            await asyncio.gather(self._checkpoint, return_exceptions=True)
        await self.engine.dispose()
        if self._log_conn is not None:
            self._log_conn.close()
            self._log_conn = None
        if self.log_engine is not None:
            self.log_engine.dispose()
