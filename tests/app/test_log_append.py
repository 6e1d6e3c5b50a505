"""The log append (app/games/repository.py ``LogWriter``):
a compare-and-set of ``games.seq`` plus the log rows, in one transaction, all or nothing.
On SQLite and PostgreSQL alike: the first append of a seq wins, a stale one writes
nothing, and an append whose rows already exist leaves nothing behind."""

from __future__ import annotations

import asyncio
from contextlib import contextmanager
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from app.db import Database
from app.games import repository
from app.models import Base

FIELDS = {"status": "live", "turn": 1, "to_act": ["AXIS"], "winner": None}
# game g1 at seq 0 (SQLite and PostgreSQL alike)
GAME_ROW = (
    "INSERT INTO games (id, ruleset, ruleset_version, scenario_name, mode, engine_mode, "
    "options, seed, private, invite_code, status, seq, to_act, created_at, updated_at) "
    "VALUES ('g1', 'm44', '1', 'Test', 'standard', 'standard', '{}', 7, false, 'inv', "
    "'live', 0, '[]', '2026-01-01 00:00:00', '2026-01-01 00:00:00')"
)


@contextmanager
def _backend(kind: str, tmp_path: Path) -> Iterator[str]:
    if kind == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'log.db'}"
        return
    from .conftest import pg_schema

    with pg_schema() as env:
        import os

        os.environ["DATABASE_SCHEMA"] = env["DATABASE_SCHEMA"]
        from app.settings import get_settings

        get_settings.cache_clear()
        try:
            yield env["DATABASE_URL"]
        finally:
            del os.environ["DATABASE_SCHEMA"]
            get_settings.cache_clear()


async def _append(
    db: Database, old: int, entries: list[tuple[str, dict[str, Any]]], fields: dict[str, Any]
) -> bool:
    return await repository.LogWriter(db).append("g1", old, entries, fields)


async def _setup(db: Database, more: list[str] = []) -> None:
    async with db.engine.begin() as conn:
        await conn.run_sync(Base.metadata.create_all)
        await conn.exec_driver_sql(GAME_ROW)
        for sql in more:
            await conn.exec_driver_sql(sql)


async def _state(db: Database) -> tuple[int, list[tuple[int, str]], str]:
    async with db.sessions() as s:
        seq, status = (await s.execute(text("SELECT seq, status FROM games WHERE id='g1'"))).one()
        rows = [
            tuple(r)
            for r in (
                await s.execute(
                    text("SELECT seq, seat FROM actions WHERE game_id='g1' ORDER BY seq")
                )
            ).all()
        ]
    return seq, rows, status


BACKENDS = ["sqlite", pytest.param("pg", marks=pytest.mark.postgres)]


@pytest.mark.parametrize("kind", BACKENDS)
def test_the_first_append_of_a_seq_wins_and_a_stale_one_writes_nothing(
    tmp_path: Path, kind: str
) -> None:
    async def run(url: str) -> tuple[list[bool], Any]:
        db = Database(url)
        try:
            await _setup(db)
            out = [
                await _append(
                    db,
                    0,
                    [
                        ("AXIS", {"type": "play_card", "card": 1}),
                        ("chance", {"type": "roll", "dice": [3]}),
                    ],
                    FIELDS,
                ),
                await _append(
                    db,
                    0,
                    [("ALLIES", {"type": "play_card", "card": 2})],
                    {**FIELDS, "status": "finished"},
                ),
                await _append(db, 2, [("ALLIES", {"type": "end_turn"})], FIELDS),
            ]
            return out, await _state(db)
        finally:
            await db.dispose()

    with _backend(kind, tmp_path) as url:
        out, (seq, rows, status) = asyncio.run(run(url))
    assert out == [True, False, True]
    assert seq == 3 and status == "live"  # the stale append changed nothing
    assert rows == [(1, "AXIS"), (2, "chance"), (3, "ALLIES")]


@pytest.mark.parametrize("kind", BACKENDS)
def test_an_append_whose_rows_exist_is_rolled_back_whole(tmp_path: Path, kind: str) -> None:
    """``games.seq`` says 1 but a row 2 is already logged (another writer's insert): the
    compare-and-set succeeds, the insert fails; nothing of the append stays, not even its
    UPDATE of the game row."""
    rows_sql = ["UPDATE games SET seq=1 WHERE id='g1'"] + [
        "INSERT INTO actions (game_id, seq, seat, action, created_at) "
        f"VALUES ('g1', {n}, 'AXIS', '{{}}', '2026-01-01 00:00:00')"
        for n in (1, 2)
    ]

    async def run(url: str) -> tuple[bool, Any]:
        db = Database(url)
        try:
            await _setup(db, rows_sql)
            ok = await _append(
                db, 1, [("ALLIES", {"type": "end_turn"})], {**FIELDS, "status": "finished"}
            )
            return ok, await _state(db)
        finally:
            await db.dispose()

    with _backend(kind, tmp_path) as url:
        ok, (seq, rows, status) = asyncio.run(run(url))
    assert ok is False
    assert seq == 1 and status == "live"
    assert rows == [(1, "AXIS"), (2, "AXIS")]


@pytest.mark.parametrize("kind", BACKENDS)
def test_concurrent_appends_of_one_seq_have_exactly_one_winner(tmp_path: Path, kind: str) -> None:
    """Twenty appends of the same seq at once through the ``LogWriter`` (on SQLite they
    share a group, which is then retried one by one): exactly one is durable; and
    appends of different games at once are all durable, each with its own rows."""
    more = [GAME_ROW.replace("'g1'", f"'h{i}'").replace("'inv'", f"'inv{i}'") for i in range(5)]

    async def run(url: str) -> tuple[list[bool], list[bool], Any, int]:
        db = Database(url)
        log = repository.LogWriter(db)
        try:
            await _setup(db, more)
            out = await asyncio.gather(
                *[log.append("g1", 0, [(f"S{i}", {"type": "end_turn"})], FIELDS) for i in range(20)]
            )
            others = await asyncio.gather(
                *[
                    log.append(
                        f"h{i}", 0, [("AXIS", {"type": "end_turn"}), ("chance", {"r": i})], FIELDS
                    )
                    for i in range(5)
                ]
            )
            async with db.sessions() as s:
                rows = (
                    await s.execute(text("SELECT count(*) FROM actions WHERE game_id LIKE 'h%'"))
                ).scalar_one()
            return list(out), list(others), await _state(db), rows
        finally:
            await db.dispose()

    with _backend(kind, tmp_path) as url:
        out, others, (seq, rows, _status), hrows = asyncio.run(run(url))
    assert out.count(True) == 1 and seq == 1 and len(rows) == 1
    assert others == [True] * 5 and hrows == 10


def test_an_append_waits_for_another_connection_holding_the_sqlite_write_lock(
    tmp_path: Path,
) -> None:
    """Another connection (another process, or a session outside the writer lock) holds
    SQLite's write lock: the append neither fails nor blocks the loop; it is written once
    the lock is released."""
    import sqlite3

    path = tmp_path / "log.db"

    async def run() -> tuple[bool, int, Any]:
        db = Database(f"sqlite+aiosqlite:///{path}")
        try:
            await _setup(db)
            other = sqlite3.connect(path, isolation_level=None)
            other.execute("BEGIN IMMEDIATE")  # the write lock, held
            task = asyncio.create_task(_append(db, 0, [("AXIS", {"type": "end_turn"})], FIELDS))
            ticks = 0
            for _ in range(10):  # the loop keeps running while the append waits
                await asyncio.sleep(0.01)
                ticks += 1
            assert not task.done()
            other.execute("ROLLBACK")
            other.close()
            return await task, ticks, await _state(db)
        finally:
            await db.dispose()

    ok, ticks, (seq, rows, _status) = asyncio.run(run())
    assert ok is True and ticks == 10
    assert seq == 1 and rows == [(1, "AXIS")]


def test_the_sqlite_wal_stays_short_while_the_log_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The log's connection never checkpoints itself: every ``CHECKPOINT_EVERY`` of its
    commits a checkpoint copies the WAL into the database file, so that the WAL is written
    again from its start instead of growing with every action of every game."""
    import app.db

    monkeypatch.setattr(app.db, "CHECKPOINT_EVERY", 20)
    path = tmp_path / "log.db"
    entry = [("AXIS", {"type": "end_turn", "note": "x" * 2000})]

    async def run() -> list[int]:
        db = Database(f"sqlite+aiosqlite:///{path}")
        sizes = []
        try:
            await _setup(db)
            for old in range(300):
                assert await _append(db, old, entry, FIELDS)
                if db._checkpoint is not None:  # done before the next append: how far the
                    await db._checkpoint  # WAL grows does not hang on its thread's speed
                if old % 100 == 99:
                    sizes.append((tmp_path / "log.db-wal").stat().st_size)
            assert (await _state(db))[0] == 300
        finally:
            await db.dispose()
        return sizes

    sizes = asyncio.run(run())
    # the WAL file keeps the size it once reached, and reaches no further (unchecked, it
    # grows by the same amount every 100 commits: three times the first size by the end)
    assert sizes[-1] < 1.5 * sizes[0]
