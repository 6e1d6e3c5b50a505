"""Async SQLAlchemy engine and sessions (SQLite via aiosqlite, PostgreSQL via asyncpg)."""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sqlite3
import threading
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.orm import DeclarativeBase

from .settings import get_settings

log = logging.getLogger("app.db")


class Base(DeclarativeBase):
    pass


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def ensure_sqlite_dir(url: str) -> None:
    u = make_url(url)
    if u.get_backend_name() == "sqlite" and u.database and u.database != ":memory:":
        Path(u.database).parent.mkdir(parents=True, exist_ok=True)


def make_engine(url: str, schema: str | None = None) -> AsyncEngine:
    ensure_sqlite_dir(url)
    if is_sqlite(url):
        eng = create_async_engine(url, connect_args={"timeout": 30})

        @event.listens_for(eng.sync_engine, "connect")
        def _pragmas(dbapi_conn, _):  # type: ignore[no-untyped-def]
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        return eng
    settings = get_settings()
    schema = schema if schema is not None else settings.database_schema
    connect_args = {"server_settings": {"search_path": schema}} if schema else {}
    return create_async_engine(url, pool_size=settings.db_pool_size,
                               max_overflow=settings.db_max_overflow, pool_pre_ping=True,
                               connect_args=connect_args)


class Database:
    """Owns the engine and the session factory of one process."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or get_settings().database_url
        self.engine = make_engine(self.url)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        # SQLite has one writer at a time; its busy handler sleeps with back-off, which
        # makes tail latency awful under concurrent games.  Queue writers here instead.
        self.write_lock: asyncio.Lock | contextlib.nullcontext[None] = (
            asyncio.Lock() if is_sqlite(self.url) else contextlib.nullcontext())
        self.log_writer: LogWriter | None = make_log_writer(self.url)

    async def session(self) -> AsyncIterator[AsyncSession]:
        async with self.sessions() as s:
            yield s

    async def append_log(self, game_id: str, old_seq: int,
                         entries: list[tuple[str, dict[str, Any]]],
                         fields: dict[str, Any]) -> bool | None:
        """The hot path of an accepted action: compare-and-set ``games.seq`` from ``old_seq``,
        insert the log rows and commit, in ONE round trip (one thread hop for SQLite, one
        statement for PostgreSQL).  True: durable; False: another writer got there first
        (nothing written); None: no fast writer for this database (use the ORM path)."""
        if self.log_writer is None:
            return None
        async with self.write_lock:
            return await self.log_writer.append(game_id, old_seq, entries, fields)

    async def dispose(self) -> None:
        if self.log_writer is not None:
            await self.log_writer.close()
        await self.engine.dispose()


# -- the hot-path log writer -------------------------------------------------------------------
class LogWriter:
    async def append(self, game_id: str, old_seq: int, entries: list[tuple[str, dict[str, Any]]],
                     fields: dict[str, Any]) -> bool:
        raise NotImplementedError

    async def close(self) -> None:
        pass


def _json(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


class SQLiteLogWriter(LogWriter):
    """A dedicated thread with its own ``sqlite3`` connection: the whole transaction
    (BEGIN IMMEDIATE, compare-and-set, multi-row insert, COMMIT) is one hop off the event
    loop, instead of one aiosqlite hop per statement plus SQLAlchemy's per-statement work.
    WAL + ``synchronous=NORMAL``: a committed transaction survives a crash of the process
    (not necessarily a power loss of the machine)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-log")
        self._local = threading.local()

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, isolation_level=None, timeout=30,
                                   check_same_thread=False)
            for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON",
                           "busy_timeout=30000"):
                conn.execute("PRAGMA " + pragma)
            self._local.conn = conn
        return conn

    def _append(self, game_id: str, old_seq: int, entries: list[tuple[str, dict[str, Any]]],
                fields: dict[str, Any]) -> bool:
        conn = self._conn()
        # SQLAlchemy's SQLite DateTime storage format (naive UTC text)
        now = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f")
        new_seq = old_seq + len(entries)
        conn.execute("BEGIN IMMEDIATE")
        try:
            cur = conn.execute(
                "UPDATE games SET seq=?, updated_at=?, status=?, turn=?, to_act=?, winner=? "
                "WHERE id=? AND seq=?",
                (new_seq, now, fields["status"], fields["turn"], _json(fields["to_act"]),
                 fields["winner"], game_id, old_seq))
            if cur.rowcount != 1:
                conn.execute("ROLLBACK")
                return False
            conn.executemany(
                "INSERT INTO actions (game_id, seq, seat, action, created_at) VALUES (?,?,?,?,?)",
                [(game_id, old_seq + i + 1, seat, _json(action), now)
                 for i, (seat, action) in enumerate(entries)])
            conn.execute("COMMIT")
            return True
        except sqlite3.IntegrityError:
            conn.execute("ROLLBACK")
            return False
        except BaseException:
            with contextlib.suppress(Exception):
                conn.execute("ROLLBACK")
            raise

    async def append(self, game_id: str, old_seq: int, entries: list[tuple[str, dict[str, Any]]],
                     fields: dict[str, Any]) -> bool:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, self._append, game_id, old_seq, entries,
                                          fields)

    def _close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.get_running_loop().run_in_executor(self._pool, self._close)
        self._pool.shutdown(wait=False)


class PostgresLogWriter(LogWriter):
    """A small asyncpg pool of its own (no pre-ping, no SQLAlchemy per-statement work): the
    compare-and-set and the insert of all the rows are ONE statement (a data-modifying
    CTE), run in autocommit, i.e. one round trip per accepted action.  Under READ
    COMMITTED a concurrent writer waits on the game row and then finds ``seq`` changed:
    exactly one wins."""

    SQL = (
        "WITH g AS (UPDATE games SET seq=$3, updated_at=$4, status=$5, turn=$6, to_act=$7::json, "
        "winner=$8 WHERE id=$1 AND seq=$2 RETURNING id) "
        "INSERT INTO actions (game_id, seq, seat, action, created_at) "
        "SELECT g.id, $2 + t.n, t.seat, t.action::json, $4 "
        "FROM g, unnest($9::text[], $10::text[]) WITH ORDINALITY AS t(seat, action, n)")

    def __init__(self, url: str, schema: str | None) -> None:
        self.dsn = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        self.schema = schema
        # PG_SYNCHRONOUS_COMMIT=off: the commit returns before PostgreSQL flushes its WAL
        # (an action survives a crash of this server, not of PostgreSQL or the machine;
        # docs/performance.md).  Unset: the server's setting (default on: fully durable).
        self.synchronous_commit = os.environ.get("PG_SYNCHRONOUS_COMMIT") or None
        self._pool: Any = None
        self._lock = asyncio.Lock()

    async def _get_pool(self) -> Any:
        if self._pool is None:
            async with self._lock:
                if self._pool is None:
                    import asyncpg

                    settings = {"search_path": self.schema} if self.schema else {}
                    if self.synchronous_commit:
                        settings["synchronous_commit"] = self.synchronous_commit
                    self._pool = await asyncpg.create_pool(self.dsn, min_size=1,
                                                           max_size=get_settings().db_append_pool_size,
                                                           server_settings=settings or None)
        return self._pool

    async def append(self, game_id: str, old_seq: int, entries: list[tuple[str, dict[str, Any]]],
                     fields: dict[str, Any]) -> bool:
        import asyncpg

        pool = await self._get_pool()
        try:
            status = await pool.execute(
                self.SQL, game_id, old_seq, old_seq + len(entries), datetime.now(timezone.utc),
                fields["status"], fields["turn"], _json(fields["to_act"]), fields["winner"],
                [seat for seat, _ in entries], [_json(action) for _, action in entries])
        except asyncpg.UniqueViolationError:
            return False
        return bool(status == f"INSERT 0 {len(entries)}")

    async def close(self) -> None:
        if self._pool is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._pool.close(), 5)
            self._pool = None


def make_log_writer(url: str) -> LogWriter | None:
    u = make_url(url)
    backend = u.get_backend_name()
    if backend == "sqlite":
        if not u.database or u.database == ":memory:":
            return None
        return SQLiteLogWriter(u.database)
    if backend == "postgresql" and u.get_driver_name() == "asyncpg":
        return PostgresLogWriter(url, get_settings().database_schema)
    return None
