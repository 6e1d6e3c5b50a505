"""Async SQLAlchemy engine and sessions (SQLite via aiosqlite, PostgreSQL via asyncpg)."""
from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.orm import DeclarativeBase

from .settings import get_settings


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
    schema = schema if schema is not None else get_settings().database_schema
    connect_args = {"server_settings": {"search_path": schema}} if schema else {}
    return create_async_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True,
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

    async def session(self) -> AsyncIterator[AsyncSession]:
        async with self.sessions() as s:
            yield s

    async def dispose(self) -> None:
        await self.engine.dispose()
