"""The SQLite hot-path log writer (app/db.py ``SQLiteLogWriter``): an append is a
compare-and-set of ``games.seq`` plus the log rows, all or nothing, on the event loop (a
transaction of its own, no SAVEPOINT) or on the writer thread (a group, one SAVEPOINT per
append).  Both paths: the first append of a seq wins, a stale one writes nothing."""
from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import create_engine

from app.db import SQLiteLogWriter
from app.models import Base

FIELDS = {"status": "live", "turn": 1, "to_act": ["AXIS"], "winner": None}
# game g1 at seq 0 (SQLite and PostgreSQL alike)
GAME_ROW = ("INSERT INTO games (id, ruleset, ruleset_version, scenario_name, mode, engine_mode, "
            "options, seed, private, invite_code, status, seq, to_act, created_at, updated_at) "
            "VALUES ('g1', 'm44', '1', 'Test', 'standard', 'standard', '{}', 7, false, 'inv', "
            "'live', 0, '[]', '2026-01-01 00:00:00', '2026-01-01 00:00:00')")


def _database(tmp_path: Path) -> str:
    path = str(tmp_path / "log.db")
    engine = create_engine(f"sqlite:///{path}")
    Base.metadata.create_all(engine)
    engine.dispose()
    with sqlite3.connect(path) as conn:
        conn.execute(GAME_ROW)
    return path


def _state(path: str) -> tuple[int, list[tuple[int, str]], str]:
    with sqlite3.connect(path) as conn:
        seq, status = conn.execute("SELECT seq, status FROM games WHERE id='g1'").fetchone()
        rows = conn.execute("SELECT seq, seat FROM actions WHERE game_id='g1' ORDER BY seq").fetchall()
    return seq, rows, status


@pytest.mark.parametrize("on_loop", [True, False], ids=["on-loop", "writer-thread"])
def test_the_first_append_of_a_seq_wins_and_a_stale_one_writes_nothing(
        tmp_path: Path, on_loop: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _database(tmp_path)
    monkeypatch.setattr(SQLiteLogWriter, "ON_LOOP", on_loop)

    async def run() -> list[bool]:
        w = SQLiteLogWriter(path)
        try:
            first = await w.append("g1", 0, [("AXIS", {"type": "play_card", "card": 1}),
                                             ("chance", {"type": "roll", "dice": [3]})], FIELDS)
            stale = await w.append("g1", 0, [("ALLIES", {"type": "play_card", "card": 2})],
                                   {**FIELDS, "status": "finished"})
            nxt = await w.append("g1", 2, [("ALLIES", {"type": "end_turn"})], FIELDS)
            return [first, stale, nxt]
        finally:
            await w.close()

    assert asyncio.run(run()) == [True, False, True]
    seq, rows, status = _state(path)
    assert seq == 3 and status == "live"            # the stale append changed nothing
    assert rows == [(1, "AXIS"), (2, "chance"), (3, "ALLIES")]


@pytest.mark.parametrize("on_loop", [True, False], ids=["on-loop", "writer-thread"])
def test_an_append_whose_rows_exist_is_rolled_back_whole(
        tmp_path: Path, on_loop: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """``games.seq`` says 1 but a row 2 is already logged (another writer's insert): the
    compare-and-set succeeds, the insert fails; nothing of the append stays, not even its
    UPDATE of the game row."""
    path = _database(tmp_path)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE games SET seq=1 WHERE id='g1'")
        for seq in (1, 2):
            conn.execute("INSERT INTO actions (game_id, seq, seat, action, created_at) "
                         "VALUES ('g1', ?, 'AXIS', '{}', '2026-01-01 00:00:00')", (seq,))
    monkeypatch.setattr(SQLiteLogWriter, "ON_LOOP", on_loop)

    async def run() -> bool:
        w = SQLiteLogWriter(path)
        try:
            return await w.append("g1", 1, [("ALLIES", {"type": "end_turn"})],
                                  {**FIELDS, "status": "finished"})
        finally:
            await w.close()

    assert asyncio.run(run()) is False
    seq, rows, status = _state(path)
    assert seq == 1 and status == "live"
    assert rows == [(1, "AXIS"), (2, "AXIS")]


def test_log_times_are_written_as_sqlalchemy_writes_them() -> None:
    """``created_at`` / ``updated_at`` of the hot path: naive UTC text with microseconds,
    as SQLAlchemy's SQLite ``DateTime`` stores it (the ORM reads these rows back)."""
    from datetime import datetime, timezone

    from app.db import _sqlite_now

    for _ in range(3):
        before = datetime.now(timezone.utc).replace(tzinfo=None)
        text = _sqlite_now()
        after = datetime.now(timezone.utc).replace(tzinfo=None)
        assert len(text) == 26 and text[10] == " " and text[19] == "."
        assert before <= datetime.fromisoformat(text) <= after


@pytest.mark.postgres
def test_postgres_appends_one_round_trip_each_and_the_first_wins() -> None:
    """``PostgresLogWriter``: the first append of a seq wins, a stale one writes nothing,
    and a connection goes back to the pool without asyncpg's reset query (``SELECT
    pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET ALL``, a second round trip per
    action): the last statement its backend ran is the append itself."""
    import asyncpg
    from sqlalchemy.ext.asyncio import create_async_engine

    from app.db import PostgresLogWriter

    from .conftest import pg_schema

    with pg_schema() as env:
        url, schema = env["DATABASE_URL"], env["DATABASE_SCHEMA"]

        async def run() -> tuple[list[bool], list[tuple[int, str]], str, str]:
            engine = create_async_engine(url, connect_args={"server_settings": {"search_path": schema}})
            async with engine.begin() as conn:
                await conn.run_sync(Base.metadata.create_all)
                await conn.exec_driver_sql(GAME_ROW)
            await engine.dispose()
            w = PostgresLogWriter(url, schema)
            try:
                out = [await w.append("g1", 0, [("AXIS", {"type": "play_card", "card": 1}),
                                                ("chance", {"type": "roll", "dice": [3]})], FIELDS),
                       await w.append("g1", 0, [("ALLIES", {"type": "end_turn"})],
                                      {**FIELDS, "status": "finished"}),
                       await w.append("g1", 2, [("ALLIES", {"type": "end_turn"})], FIELDS)]
                pool = await w._get_pool()
                async with pool.acquire() as c:     # the one connection the appends used
                    pid = c.get_server_pid()
                probe = await asyncpg.connect(w.dsn, server_settings={"search_path": schema})
                try:
                    last = await probe.fetchval("SELECT query FROM pg_stat_activity WHERE pid=$1", pid)
                    rows = [tuple(r) for r in await probe.fetch(
                        "SELECT seq, seat FROM actions WHERE game_id='g1' ORDER BY seq")]
                    status = await probe.fetchval("SELECT status FROM games WHERE id='g1'")
                finally:
                    await probe.close()
            finally:
                await w.close()
            return out, rows, status, last

        out, rows, status, last = asyncio.run(run())
    assert out == [True, False, True]
    assert rows == [(1, "AXIS"), (2, "chance"), (3, "ALLIES")] and status == "live"
    assert last.startswith("WITH g AS (UPDATE games"), last
