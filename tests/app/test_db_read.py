"""``Database.read``: the hot reads of a websocket connect (a token's identity, the chat
history) run on SQLite through one read-only connection on the event loop.  They must see
every commit made through the async engine the moment it is made (a logout refuses the
token at once), never write, and fall back to the async pool when the file is locked."""
from __future__ import annotations

import asyncio
import sqlite3
import threading
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import create_engine, update
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from app.db import Database
from app.models import AuthSession, Base, Identity, utcnow
from app.security import hash_token, identity_of_token


def _database(tmp_path: Path) -> Database:
    path = tmp_path / "read.db"
    engine = create_engine(f"sqlite:///{path}")
    Base.metadata.create_all(engine)
    engine.dispose()
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA journal_mode=WAL")
    return Database(f"sqlite+aiosqlite:///{path}")


async def _issue(db: Database, ident: str, token: str) -> None:
    async with db.sessions() as s:
        s.add(Identity(id=ident, name=ident, token_hash=hash_token(token + "-legacy")))
        await s.flush()
        s.add(AuthSession(id="s_" + ident, identity_id=ident, token_hash=hash_token(token),
                          expires_at=utcnow() + timedelta(days=1)))
        await s.commit()


async def test_a_read_sees_each_commit_of_the_async_engine_at_once(tmp_path: Path) -> None:
    db = _database(tmp_path)
    try:
        assert await db.read(identity_of_token, "tok-a") is None
        await _issue(db, "i_a", "tok-a")
        found = await db.read(identity_of_token, "tok-a")
        assert found is not None and (found.id, found.name) == ("i_a", "i_a")
        async with db.sessions() as s:      # logout: the next read refuses the token
            await s.execute(update(AuthSession).where(AuthSession.identity_id == "i_a")
                            .values(revoked_at=utcnow()))
            await s.commit()
        assert await db.read(identity_of_token, "tok-a") is None
        assert await db.read(identity_of_token, "x" * 257) is None
    finally:
        await db.dispose()


async def test_the_reading_connection_cannot_write(tmp_path: Path) -> None:
    db = _database(tmp_path)

    def write(s: Session) -> None:
        s.add(Identity(id="i_w", name="w", token_hash="h"))
        s.commit()

    try:
        with pytest.raises(OperationalError, match="readonly"):
            await db.read(write)
        assert await db.read(lambda s: s.get(Identity, "i_w")) is None
    finally:
        await db.dispose()


async def test_a_locked_file_falls_back_to_the_async_pool(tmp_path: Path) -> None:
    """Another process holds the file exclusively (locking_mode=EXCLUSIVE on a WAL
    database shuts readers out): the loop's connection gives up after 0.2 s and the
    read waits in the async pool's thread instead, then answers."""
    db = _database(tmp_path)
    await _issue(db, "i_l", "tok-l")
    assert db.log_writer is not None
    await db.log_writer.close()         # nothing of ours open: the holder may lock the file
    db.log_writer = None
    await db.engine.dispose()
    holder = sqlite3.connect(tmp_path / "read.db", isolation_level=None, check_same_thread=False)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("UPDATE identities SET name = 'renamed' WHERE id = 'i_l'")

    def let_go() -> None:               # an exclusive locking mode holds until closed
        holder.execute("COMMIT")
        holder.close()

    release = threading.Timer(0.6, let_go)
    release.start()
    try:
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        found = await db.read(identity_of_token, "tok-l")
        assert found is not None and found.name == "renamed"
        assert loop.time() - t0 >= 0.5          # it waited for the holder, off the loop
    finally:
        release.join()
        await db.dispose()
