"""Async SQLAlchemy engine and sessions (SQLite via aiosqlite, PostgreSQL via asyncpg)."""
from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import queue
import sqlite3
import threading
import time
import urllib.parse
from collections import deque
from collections.abc import AsyncIterator, Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker
from sqlalchemy.pool import StaticPool

from .jsontext import dumps
from .settings import get_settings

log = logging.getLogger("app.db")
_SLOW_COMMIT_MS = float(os.environ.get("STALL_WATCH_MS") or 0)     # diagnosis only
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
        eng = create_async_engine(url, connect_args={"timeout": 30})

        @event.listens_for(eng.sync_engine, "connect")
        def _pragmas(dbapi_conn, _):  # type: ignore[no-untyped-def]
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA wal_autocheckpoint=0")     # the log writer's checkpointer
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


class WriteGate:
    """SQLite has one writer at a time; its busy handler sleeps with back-off (awful tail
    latency), and a deferred ORM transaction that read before a concurrent commit cannot
    write at all.  So writers queue here: ``async with gate`` (every ORM write
    transaction) holds it alone; the hot-path log appends hold it together
    (``async with gate.shared``), since the log writer thread serialises and groups them
    itself.  First come, first served: a waiting exclusive writer stops later appends
    from entering (no starvation).  Uncontended, entering costs no await."""

    def __init__(self) -> None:
        self._held = 0                  # shared holders
        self._exclusive = False
        self._waiters: deque[tuple[bool, asyncio.Future[None]]] = deque()
        self.shared = _SharedGate(self)

    async def __aenter__(self) -> None:
        if not self._exclusive and not self._held and not self._waiters:
            self._exclusive = True
            return
        await self._wait(True)

    async def __aexit__(self, *exc: Any) -> None:
        self._exclusive = False
        self._wake()

    async def _wait(self, exclusive: bool) -> None:
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append((exclusive, fut))
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():      # granted, then cancelled: give back
                if exclusive:
                    self._exclusive = False
                else:
                    self._held -= 1
            self._wake()
            raise

    def _wake(self) -> None:
        """Grant the gate to the waiters at the head of the queue that may hold it now."""
        while self._waiters:
            exclusive, fut = self._waiters[0]
            if fut.done():
                self._waiters.popleft()
                continue
            if self._exclusive or (exclusive and self._held):
                return
            self._waiters.popleft()
            if exclusive:
                self._exclusive = True
                fut.set_result(None)
                return
            self._held += 1
            fut.set_result(None)


class _SharedGate:
    __slots__ = ("gate",)

    def __init__(self, gate: WriteGate) -> None:
        self.gate = gate

    async def __aenter__(self) -> None:
        g = self.gate
        if not g._exclusive and not g._waiters:
            g._held += 1
            return
        await g._wait(False)

    async def __aexit__(self, *exc: Any) -> None:
        g = self.gate
        g._held -= 1
        if not g._held:
            g._wake()


class Database:
    """Owns the engine and the session factory of one process."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or get_settings().database_url
        self.engine = make_engine(self.url)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        # SQLite has one writer at a time; its busy handler sleeps with back-off, which
        # makes tail latency awful under concurrent games.  Queue writers here instead.
        self.write_lock: WriteGate | contextlib.nullcontext[None] = (
            WriteGate() if is_sqlite(self.url) else contextlib.nullcontext())
        self.log_writer: LogWriter | None = make_log_writer(self.url)
        self._reader: sessionmaker[Session] | None = None
        self._reader_engine: Engine | None = None
        self._reader_path = sqlite_file(self.url)

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(session, *args)`` with a synchronous ORM ``Session`` that only reads: the
        hot reads of a websocket connect (the token's identity, the chat history).

        SQLite: on the event loop itself, through one read-only connection (WAL: a reader
        never waits for the writer).  An aiosqlite session costs a thread hop per step
        (begin, execute, fetch, reset): 2.6-3.8 ms of CPU for one identity lookup against
        0.35-0.7 ms here (session 11), and a connection storm of 4,500 sockets ran out of
        pool connections.  Should the file be locked anyway (busy for 200 ms), the read
        runs through the async pool.  PostgreSQL: ``AsyncSession.run_sync``, so every
        query has one definition."""
        if self._reader_path is not None:
            if self._reader is None:
                path = self._reader_path
                self._reader_engine = create_engine("sqlite://", poolclass=StaticPool,
                                                    creator=lambda: _read_only(path))
                self._reader = sessionmaker(self._reader_engine, expire_on_commit=False)
            try:
                with self._reader() as s:
                    return fn(s, *args)
            except OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise
        async with self.sessions() as a:
            return await a.run_sync(fn, *args)

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
        if isinstance(self.write_lock, WriteGate):  # appends share the gate: the writer
            async with self.write_lock.shared:    # thread groups them in one transaction
                return await self.log_writer.append(game_id, old_seq, entries, fields)
        return await self.log_writer.append(game_id, old_seq, entries, fields)

    async def dispose(self) -> None:
        if self.log_writer is not None:
            await self.log_writer.close()
        if self._reader_engine is not None:
            self._reader_engine.dispose()
            self._reader = self._reader_engine = None
        await self.engine.dispose()


def _read_only(path: str) -> sqlite3.Connection:
    """The event loop's reading connection: read-only, never waiting long for a lock
    (``Database.read`` falls back to the async pool)."""
    uri = "file:" + urllib.parse.quote(os.path.abspath(path)) + "?mode=ro"
    conn = sqlite3.connect(uri, uri=True, timeout=0.2, check_same_thread=False)
    conn.execute("PRAGMA query_only=ON")
    return conn


# -- the hot-path log writer -------------------------------------------------------------------
class LogWriter:
    async def append(self, game_id: str, old_seq: int, entries: list[tuple[str, dict[str, Any]]],
                     fields: dict[str, Any]) -> bool:
        raise NotImplementedError

    async def touch_seats(self, pairs: list[tuple[str, str]]) -> int:
        """``seats.last_seen = now`` for these (game, identity) pairs (the presence
        heartbeat: one prepared statement, no ORM compile of a large IN)."""
        raise NotImplementedError

    async def snapshot(self, game_id: str, seq: int, blob: bytes,
                       clock: dict[str, Any] | None) -> None:
        """Insert a ``snapshots`` row (off the ORM: no exclusive write gate on SQLite)."""
        raise NotImplementedError

    async def seat_present(self, game_id: str, identity_id: str) -> bool:
        """An identity connected to a game: ``last_seen = now`` on its seats, and its seats
        taken back from a stand-in bot (``bot_reason = 'away'``); True if any was."""
        raise NotImplementedError

    async def close(self) -> None:
        pass


_SECOND: tuple[int, str] = (-1, "")     # the last whole second and its text (one object:
                                        # the loop and the writer thread both read it)


def _sqlite_now() -> str:
    """Now in SQLAlchemy's SQLite DateTime storage format (naive UTC text,
    ``YYYY-MM-DD HH:MM:SS.ffffff``); the date and time of a second are formatted once."""
    global _SECOND
    t = time.time()
    sec = int(t)
    done = _SECOND
    if done[0] != sec:
        done = _SECOND = (sec, time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(sec)))
    return f"{done[1]}.{int((t - sec) * 1_000_000):06d}"


def _json(obj: Any) -> str:
    return dumps(obj)       # the log's canonical text (app/jsontext.py)


class _Stale(Exception):
    """An append found stale after its UPDATE, in a transaction of its own (rolled back)."""


class SQLiteLogWriter(LogWriter):
    """A dedicated thread with its own ``sqlite3`` connection and GROUP COMMIT: every
    append queued while the previous transaction ran is written in the next one (BEGIN
    IMMEDIATE; per append a SAVEPOINT with its compare-and-set and multi-row insert,
    rolled back alone when stale; one COMMIT), and the waiting coroutines are woken by
    one callback per group.  Nobody hears of an append before its COMMIT returned.
    WAL + ``synchronous=NORMAL``: a committed transaction survives a crash of the process
    (not necessarily a power loss of the machine).  Appends of one game never meet in a
    group (its runtime lock serialises them); the compare-and-set still decides."""

    GROUP = 256          # appends per transaction at most
    ON_LOOP = True       # appends commit on the event loop when the database is free
    CHECKPOINT_SECONDS = 1.0

    def __init__(self, path: str) -> None:
        self.path = path
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._loop_conn: sqlite3.Connection | None = None
        self._checkpointer: threading.Thread | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        # WAL once, before the threads open their connections: switching a database to
        # WAL takes an exclusive lock, and three connections asking at the same moment
        # could get "database is locked" at once (seen in CI on a new test database);
        # already WAL (the migrations' database), each connection's PRAGMA is a no-op
        with contextlib.suppress(sqlite3.Error), contextlib.closing(
                sqlite3.connect(path, timeout=30)) as conn:
            conn.execute("PRAGMA journal_mode=WAL")
        self._start()               # the checkpointer runs even before the first action

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, timeout=30,
                               check_same_thread=False)
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON",
                       "busy_timeout=30000", "wal_autocheckpoint=0"):
            conn.execute("PRAGMA " + pragma)
        return conn

    def _checkpoints(self) -> None:
        """Copy the WAL back into the database every ``CHECKPOINT_SECONDS`` from a thread
        of its own (PASSIVE: never waits for, nor blocks, the writer): an automatic
        checkpoint ran inside whichever commit crossed 1,000 pages, the copy and its fsync
        holding every append queued behind it (the 0.3-0.5 s maxima at 300-400 games)."""
        conn = self._connect()
        try:
            while not self._stop.wait(self.CHECKPOINT_SECONDS):
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        finally:
            conn.close()

    def _start(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="sqlite-log",
                                                daemon=True)
                self._thread.start()
                self._checkpointer = threading.Thread(target=self._checkpoints,
                                                      name="sqlite-checkpoint", daemon=True)
                self._checkpointer.start()

    def _run(self) -> None:
        conn = self._connect()
        try:
            while True:
                first = self._queue.get()
                if first is None:
                    return
                group, stop = [first], False
                while len(group) < self.GROUP:
                    try:
                        nxt = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if nxt is None:
                        stop = True
                        break
                    group.append(nxt)
                self._commit(conn, group)
                if stop:
                    return
        finally:
            conn.close()

    def _commit(self, conn: sqlite3.Connection, group: list[Any]) -> None:
        """One transaction for the group; every waiter gets its result (or the error)
        after the COMMIT, in one callback per event loop."""
        results: list[tuple[Any, bool | None, BaseException | None]] = []
        t0 = time.perf_counter()
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                for _loop, fut, fn, args in group:
                    results.append((fut, fn(conn, *args), None))
                conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(Exception):
                    conn.execute("ROLLBACK")
                raise
        except BaseException as exc:            # nothing of the group is durable
            results = [(fut, None, exc) for _loop, fut, _fn, _args in group]
        took = (time.perf_counter() - t0) * 1000
        if _SLOW_COMMIT_MS and took >= _SLOW_COMMIT_MS:
            log.warning("log commit of %d appends took %.0f ms", len(group), took)
        by_loop: dict[Any, list[Any]] = {}
        for (loop, *_rest), res in zip(group, results):
            by_loop.setdefault(loop, []).append(res)
        for loop, done in by_loop.items():
            with contextlib.suppress(RuntimeError):     # a loop already closed
                loop.call_soon_threadsafe(_resolve, done)

    _CAS = ("UPDATE games SET seq=?, updated_at=?, status=?, turn=?, to_act=?, winner=? "
            "WHERE id=? AND seq=?")
    _INSERT = "INSERT INTO actions (game_id, seq, seat, action, created_at) VALUES (?,?,?,?,?)"

    @staticmethod
    def _write(conn: sqlite3.Connection, game_id: str, old_seq: int,
               entries: list[tuple[str, dict[str, Any]]], fields: dict[str, Any]) -> bool:
        """The compare-and-set of ``games.seq`` and the log rows; False (nothing written)
        when another writer was first; IntegrityError when rows after ``old_seq`` exist
        (the caller rolls back)."""
        now = _sqlite_now()         # SQLAlchemy's SQLite DateTime storage format
        cur = conn.execute(SQLiteLogWriter._CAS, (
            old_seq + len(entries), now, fields["status"], fields["turn"],
            _json(fields["to_act"]), fields["winner"], game_id, old_seq))
        if cur.rowcount != 1:
            return False
        conn.executemany(SQLiteLogWriter._INSERT,
                         [(game_id, old_seq + i + 1, seat, _json(action), now)
                          for i, (seat, action) in enumerate(entries)])
        return True

    @staticmethod
    def _one(conn: sqlite3.Connection, game_id: str, old_seq: int,
             entries: list[tuple[str, dict[str, Any]]], fields: dict[str, Any]) -> bool:
        """One append of a group (the writer thread): in a SAVEPOINT, rolled back alone
        when stale."""
        conn.execute("SAVEPOINT append")
        try:
            ok = SQLiteLogWriter._write(conn, game_id, old_seq, entries, fields)
        except sqlite3.IntegrityError:
            ok = False
        if not ok:
            conn.execute("ROLLBACK TO append")
        conn.execute("RELEASE append")
        return ok

    @staticmethod
    def _alone(conn: sqlite3.Connection, game_id: str, old_seq: int,
               entries: list[tuple[str, dict[str, Any]]], fields: dict[str, Any]) -> bool:
        """One append in a transaction of its own (on the loop): no SAVEPOINT (two SQLite
        calls fewer per action); stale after its UPDATE: :class:`_Stale` (the
        transaction is rolled back)."""
        try:
            return SQLiteLogWriter._write(conn, game_id, old_seq, entries, fields)
        except sqlite3.IntegrityError as exc:
            raise _Stale from exc

    @staticmethod
    def _snapshot(conn: sqlite3.Connection, game_id: str, seq: int, blob: bytes,
                  clock: str | None, now: str) -> None:
        conn.execute("INSERT OR IGNORE INTO snapshots (game_id, seq, state, clock, created_at) "
                     "VALUES (?,?,?,?,?)", (game_id, seq, blob, clock, now))

    async def snapshot(self, game_id: str, seq: int, blob: bytes,
                       clock: dict[str, Any] | None) -> None:
        now = _sqlite_now()
        await self._run_in_group(self._snapshot, game_id, seq, blob,
                                 None if clock is None else _json(clock), now)

    @staticmethod
    def _present(conn: sqlite3.Connection, game_id: str, identity_id: str, now: str) -> bool:
        conn.execute("UPDATE seats SET last_seen=? WHERE game_id=? AND identity_id=?",
                     (now, game_id, identity_id))
        cur = conn.execute("UPDATE seats SET is_bot=0, bot_reason=NULL WHERE game_id=? AND "
                           "identity_id=? AND is_bot=1 AND bot_reason='away'",
                           (game_id, identity_id))
        return cur.rowcount > 0

    async def seat_present(self, game_id: str, identity_id: str) -> bool:
        now = _sqlite_now()
        return bool(await self._run_in_group(self._present, game_id, identity_id, now))

    @staticmethod
    def _touch(conn: sqlite3.Connection, pairs: list[tuple[str, str]], now: str) -> int:
        cur = conn.executemany("UPDATE seats SET last_seen=? WHERE game_id=? AND identity_id=?",
                               [(now, g, i) for g, i in pairs])
        return int(cur.rowcount)

    async def _run_in_group(self, fn: Any, *args: Any, alone: Any = None) -> Any:
        """``fn(conn, *args)`` in a committed transaction: on the event loop when the
        database is free (``ON_LOOP``: a WAL append without fsync, ~0.1 ms: no thread hop
        and no GIL hand-over; the writer thread waited for the GIL at every SQLite call
        while the loop ran: 50-90 ms per group at 300 games), else grouped on the writer
        thread, which waits its turn.  ``alone``: what runs instead of ``fn`` on the loop,
        where the transaction holds nothing else (an append without its SAVEPOINT)."""
        if self.ON_LOOP:
            done, out = self._on_loop(alone or fn, args)
            if done:
                return out
        if self._thread is None:
            self._start()
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Any] = loop.create_future()
        self._queue.put((loop, fut, fn, args))
        return await fut

    async def append(self, game_id: str, old_seq: int, entries: list[tuple[str, dict[str, Any]]],
                     fields: dict[str, Any]) -> bool:
        try:
            return bool(await self._run_in_group(self._one, game_id, old_seq, entries, fields,
                                                 alone=self._alone))
        except _Stale:              # on the loop: stale after its UPDATE, rolled back
            return False

    def _on_loop(self, fn: Any, args: tuple[Any, ...]) -> tuple[bool, Any]:
        """``(True, fn(conn, *args))`` committed on the loop's connection, or ``(False,
        None)`` when another writer holds the database (nothing done)."""
        conn = self._loop_conn
        if conn is None:
            conn = self._loop_conn = self._connect()
            conn.execute("PRAGMA busy_timeout=0")       # never wait on the loop
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError:                # busy: the writer thread queues it
            return False, None
        try:
            out = fn(conn, *args)
            conn.execute("COMMIT")
            return True, out
        except BaseException:
            with contextlib.suppress(Exception):
                conn.execute("ROLLBACK")
            raise

    async def touch_seats(self, pairs: list[tuple[str, str]]) -> int:
        now = _sqlite_now()
        return int(await self._run_in_group(self._touch, pairs, now))

    async def close(self) -> None:
        thread = self._thread
        if thread is None:
            return
        self._queue.put(None)
        self._stop.set()
        await asyncio.get_running_loop().run_in_executor(None, thread.join, 10)
        if self._checkpointer is not None:
            await asyncio.get_running_loop().run_in_executor(None, self._checkpointer.join, 10)
        self._thread = self._checkpointer = None
        if self._loop_conn is not None:
            self._loop_conn.close()
            self._loop_conn = None


def _resolve(done: list[tuple[asyncio.Future[Any], Any, BaseException | None]]) -> None:
    for fut, result, exc in done:
        if fut.done():                  # its waiter was cancelled: the row stays written
            continue
        if exc is not None:
            fut.set_exception(exc)
        else:
            fut.set_result(result)


class PostgresLogWriter(LogWriter):
    """A small asyncpg pool of its own (no pre-ping, no SQLAlchemy per-statement work): the
    compare-and-set and the insert of all the rows are ONE statement (a data-modifying
    CTE), run in autocommit, i.e. one round trip per accepted action (the pool's reset
    query on release is turned off: :func:`_writer_connection`).  Under READ
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
                                                           server_settings=settings or None,
                                                           connection_class=_writer_connection())
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

    async def snapshot(self, game_id: str, seq: int, blob: bytes,
                       clock: dict[str, Any] | None) -> None:
        pool = await self._get_pool()
        await pool.execute("INSERT INTO snapshots (game_id, seq, state, clock, created_at) "
                           "VALUES ($1, $2, $3, $4::json, $5) ON CONFLICT DO NOTHING",
                           game_id, seq, blob, None if clock is None else _json(clock),
                           datetime.now(timezone.utc))

    async def seat_present(self, game_id: str, identity_id: str) -> bool:
        pool = await self._get_pool()
        async with pool.acquire() as conn, conn.transaction():
            await conn.execute("UPDATE seats SET last_seen=$1 WHERE game_id=$2 AND identity_id=$3",
                               datetime.now(timezone.utc), game_id, identity_id)
            status = await conn.execute(
                "UPDATE seats SET is_bot=false, bot_reason=NULL WHERE game_id=$1 AND "
                "identity_id=$2 AND is_bot AND bot_reason='away'", game_id, identity_id)
        return status != "UPDATE 0"

    async def touch_seats(self, pairs: list[tuple[str, str]]) -> int:
        pool = await self._get_pool()
        await pool.executemany("UPDATE seats SET last_seen=$1 WHERE game_id=$2 AND identity_id=$3",
                               [(datetime.now(timezone.utc), g, i)
                                for g, i in pairs])
        return len(pairs)

    async def close(self) -> None:
        if self._pool is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._pool.close(), 5)
            self._pool = None


def _writer_connection() -> Any:
    """The log writer's asyncpg connection class: released to the pool without the reset
    query (``SELECT pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET ALL``), a second
    round trip after every append.  Nothing the writer runs leaves session state behind:
    single autocommit statements and managed transactions (which asyncpg ends anyway),
    no LISTEN, advisory lock, cursor or SET (its settings are startup parameters)."""
    import asyncpg

    class WriterConnection(asyncpg.Connection):  # type: ignore[misc]
        def get_reset_query(self) -> str:
            return ""

    return WriterConnection


def make_log_writer(url: str) -> LogWriter | None:
    u = make_url(url)
    if u.get_backend_name() == "sqlite":
        path = sqlite_file(url)
        return SQLiteLogWriter(path) if path is not None else None
    if u.get_backend_name() == "postgresql" and u.get_driver_name() == "asyncpg":
        return PostgresLogWriter(url, get_settings().database_schema)
    return None
