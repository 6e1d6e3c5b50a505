"""Log append benchmark: the CPU and wall time of one accepted action's durable append
(app/db.py ``SQLiteLogWriter`` / ``PostgresLogWriter``), alone, without the server.

Appends ``--appends`` one-entry actions round-robin over ``--games`` games (a
compare-and-set of ``games.seq`` plus the log row each), one after another, and prints
per append the process CPU (this process: the writer's Python, its driver and, for
SQLite, the database engine itself) and the wall time (for PostgreSQL: its commit, fully
durable unless ``PG_SYNCHRONOUS_COMMIT=off``).  ``--pg`` uses a temporary schema of
database ``test`` on 127.0.0.1; ``--asyncpg-reset`` puts back asyncpg's reset query on
every release to the pool (``SELECT pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *;
RESET ALL``), which the writer turns off: the figure it saves.

    python bench/log_append_bench.py                      # SQLite (a temporary file)
    python bench/log_append_bench.py --pg
    python bench/log_append_bench.py --pg --asyncpg-reset
"""
from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy.ext.asyncio import create_async_engine  # noqa: E402

import app.db as db  # noqa: E402
from app.models import Base  # noqa: E402

FIELDS = {"status": "live", "turn": 1, "to_act": ["AXIS"], "winner": None}
PG_URL = "postgresql+asyncpg://root@127.0.0.1:5432/test"


def psql(sql: str) -> None:
    subprocess.run(["psql", "-h", "127.0.0.1", "-U", "root", "-d", "test", "-qc", sql],
                   check=True, capture_output=True)


async def prepare(url: str, schema: str | None, games: int) -> None:
    args = {"connect_args": {"server_settings": {"search_path": schema}}} if schema else {}
    engine = create_async_engine(url, **args)
    async with engine.begin() as conn:
        await conn.run_sync(Base.metadata.create_all)
        for g in range(games):
            await conn.exec_driver_sql(
                "INSERT INTO games (id, ruleset, ruleset_version, scenario_name, mode, "
                "engine_mode, options, seed, private, invite_code, status, seq, to_act, "
                f"created_at, updated_at) VALUES ('g{g}', 'm44', '1', 'Bench', 'standard', "
                f"'standard', '{{}}', 7, false, 'inv{g}', 'live', 0, '[]', "
                "'2026-01-01 00:00:00', '2026-01-01 00:00:00')")
    await engine.dispose()


async def measure(writer: db.LogWriter, games: int, appends: int) -> tuple[float, float]:
    seqs = [0] * games
    action = {"type": "play_card", "card": 1}
    for g in range(games):                  # warm: connections open, statements prepared
        assert await writer.append(f"g{g}", seqs[g], [("AXIS", action)], FIELDS)
        seqs[g] += 1
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for i in range(appends):
        g = i % games
        if not await writer.append(f"g{g}", seqs[g], [("AXIS", action)], FIELDS):
            raise SystemExit(f"append {i} refused")
        seqs[g] += 1
    return ((time.process_time() - cpu0) / appends * 1e6,
            (time.perf_counter() - wall0) / appends * 1e6)


async def run(a: argparse.Namespace) -> dict[str, object]:
    if a.pg:
        schema: str | None = "bench_" + secrets.token_hex(4)
        psql(f"CREATE SCHEMA {schema}")
        url = PG_URL
    else:
        schema, url = None, f"sqlite+aiosqlite:///{tempfile.mkdtemp()}/append.db"
    try:
        await prepare(url, schema, a.games)
        if a.asyncpg_reset:
            import asyncpg
            db._writer_connection = lambda: asyncpg.Connection  # type: ignore[assignment]
        writer = (db.PostgresLogWriter(url, schema) if a.pg
                  else db.SQLiteLogWriter(db.sqlite_file(url) or ""))
        try:
            cpu, wall = await measure(writer, a.games, a.appends)
        finally:
            await writer.close()
    finally:
        if schema:
            psql(f"DROP SCHEMA {schema} CASCADE")
    return {"backend": "postgresql" if a.pg else "sqlite", "asyncpg_reset": a.asyncpg_reset,
            "appends": a.appends, "cpu_us_per_append": round(cpu), "wall_us_per_append": round(wall)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pg", action="store_true", help="PostgreSQL (database test on 127.0.0.1)")
    ap.add_argument("--asyncpg-reset", action="store_true",
                    help="with --pg: asyncpg's reset query on every release (the default "
                         "the writer turns off)")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--appends", type=int, default=3000)
    print(json.dumps(asyncio.run(run(ap.parse_args()))))


if __name__ == "__main__":
    main()
