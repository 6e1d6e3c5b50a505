"""Server tests run a REAL uvicorn on loopback (subprocess, free port) with the real engine.

Backends (parametrized): ``sqlite`` (temp file, one worker, in-process fan-out) and
``pg`` (PostgreSQL 127.0.0.1:5432 database ``test`` in a fresh schema, Redis pub/sub,
TWO uvicorn workers) — skipped only when those servers are unreachable.
"""

from __future__ import annotations

import contextlib
import functools
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from typing import Any
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from .pool_guard import NESTED

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PY = sys.executable
PG_HOST, PG_PORT, REDIS_PORT = "127.0.0.1", 5432, 6379


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def _psql(sql: str) -> str | None:
    """Run SQL on the test database as the first role that works; returns that role."""
    for user in ("root", "postgres"):
        r = subprocess.run(
            [
                "psql",
                "-h",
                PG_HOST,
                "-p",
                str(PG_PORT),
                "-U",
                user,
                "-d",
                "test",
                "-v",
                "ON_ERROR_STOP=1",
                "-qc",
                sql,
            ],
            capture_output=True,
            text=True,
        )
        if r.returncode == 0:
            return user
    return None


class Server:
    """A uvicorn subprocess serving tests/app/server_app.py (``TEST_CONSTANTS`` in ``env``
    lowers fixed limits); ``restart`` keeps the database (kill -9 by default)."""

    def __init__(self, env: dict[str, str], workers: int = 1, log_level: str = "warning") -> None:
        self.env = {**os.environ, **env}
        self.workers = workers
        self.log_level = log_level
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = tempfile.NamedTemporaryFile(prefix="uvicorn-", suffix=".log", delete=False)
        self.checked = 0  # how much of the log :meth:`nested` has read

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def migrate(self) -> None:
        subprocess.run(
            [PY, "-m", "alembic", "upgrade", "head"],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
        )

    def start(self) -> None:
        RUNNING.add(self)
        cmd = [
            PY,
            "-m",
            "uvicorn",
            "tests.app.server_app:app",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--ws-max-size",
            str(1024 * 1024),
            "--log-level",
            self.log_level,
        ]
        if self.workers > 1:
            cmd += ["--workers", str(self.workers)]
        self.proc = subprocess.Popen(
            cmd, cwd=ROOT, env=self.env, stdout=self.log, stderr=self.log, start_new_session=True
        )
        deadline = time.monotonic() + 90  # two workers on a loaded 2-core machine: 45 s seen
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("uvicorn died:\n" + Path(self.log.name).read_text()[-4000:])
            try:
                if httpx.get(self.base + "/healthz", timeout=0.5).status_code == 200:
                    if self.workers > 1:
                        time.sleep(1.0)  # let every worker finish its startup
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("uvicorn did not start:\n" + Path(self.log.name).read_text()[-4000:])

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, sig)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        self.proc = None
        RUNNING.discard(self)
        report = self.nested()
        assert not report, report

    def nested(self) -> str:
        """The reports of tests/app/server_app.py's pool guard logged since the last call
        (a task that took a second pooled connection while it held one)."""
        text = self.logs()
        new, self.checked = text[self.checked :], len(text)
        at = new.find(NESTED)
        return new[at : at + 6000] if at >= 0 else ""

    def restart(self, sig: int = signal.SIGKILL) -> None:
        self.stop(sig)
        self.start()

    def logs(self) -> str:
        return Path(self.log.name).read_text()


BASE_ENV = {
    "TEST_CONSTANTS": "app.games.play.SNAPSHOT_EVERY=25",  # snapshots in short games too
    "BOT_DELAY": "0",
    "SECRET_KEY": "test",
    "BOT_LEVEL": "random",  # seat-handling tests: instant bots (test_ai_bots: levels)
    "OVERLORD_TEST_SEEDS": "1",  # tests may fix a game's seed (off in production)
    # every test client is 127.0.0.1: the creation limits per address are tested apart
    "RATE_LIMITS": "socket=200/second,identity=100000/minute,game=100000/minute,"
    "game_address=100000/minute,upload_address=100000/minute,replay=100000/minute",
}
LISTS = ("RATE_LIMITS", "TEST_CONSTANTS")  # name=value lists: a test's values are merged in


def with_env(base: dict[str, str], extra: dict[str, str]) -> dict[str, str]:
    """``base`` updated with ``extra``; in the ``LISTS`` variables, ``extra``'s entries
    replace those of the same name only."""
    out = {**base, **extra}
    for var in LISTS:
        merged: dict[str, str] = {}
        for value in (base.get(var), extra.get(var)):
            for item in filter(None, (value or "").split(",")):
                name, _, v = item.partition("=")
                merged[name] = v
        if merged:
            out[var] = ",".join(f"{k}={v}" for k, v in merged.items())
    return out


@contextlib.contextmanager
def backend(
    kind: str,
    db_dir: Path,
    extra_env: dict[str, str] | None = None,
    prepare: Callable[[Server], None] | None = None,
) -> Iterator[Server]:
    """A migrated, started server on ``sqlite`` (one worker) or ``pg`` (PostgreSQL in a
    fresh schema + Redis, two workers; skips when unreachable), with ``BASE_ENV`` and
    ``extra_env`` (:func:`with_env`).  ``prepare`` replaces the migration to head (e.g.
    migrate, add rows, migrate on)."""
    env = with_env(BASE_ENV, extra_env or {})
    if kind == "sqlite":
        srv = Server({**env, "DATABASE_URL": f"sqlite+aiosqlite:///{db_dir / 'test.db'}"})
        srv.kind = "sqlite"  # type: ignore[attr-defined]
        if prepare is None:
            shutil.copyfile(migrated_sqlite(), db_dir / "test.db")
        else:
            prepare(srv)
        srv.start()
        try:
            yield srv
        finally:
            srv.stop()
        return
    with pg_schema() as pg_env:
        srv = Server({**env, **pg_env}, workers=2)
        srv.kind = "pg"  # type: ignore[attr-defined]
        try:
            (prepare or Server.migrate)(srv)
            srv.start()
            yield srv
        finally:
            srv.stop()


@functools.cache
def migrated_sqlite() -> Path:
    """A SQLite database migrated to head, made once per test process: a new server's
    database is a copy of it (the migrations take 2 s a time on a 2-core machine)."""
    path = Path(tempfile.mkdtemp(prefix="migrated-")) / "head.db"
    Server({**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{path}"}).migrate()
    assert not path.with_name("head.db-wal").exists()  # all in the one file
    return path


@contextlib.contextmanager
def pg_schema() -> Iterator[dict[str, str]]:
    """A fresh schema of PostgreSQL database ``test`` (dropped after): the environment
    of a server on it and on Redis (skips when unreachable)."""
    if not (reachable(PG_HOST, PG_PORT) and reachable(PG_HOST, REDIS_PORT)):
        pytest.skip("PostgreSQL 127.0.0.1:5432 / Redis 127.0.0.1:6379 unreachable")
    schema = "t_" + secrets.token_hex(6)
    user = _psql(f"CREATE SCHEMA {schema}")
    if user is None:
        pytest.skip("cannot create a schema in PostgreSQL database 'test'")
    try:
        yield {
            "DATABASE_URL": f"postgresql+asyncpg://{user}@{PG_HOST}:{PG_PORT}/test",
            "DATABASE_SCHEMA": schema,
            "REDIS_URL": f"redis://{PG_HOST}:{REDIS_PORT}/0",
        }
    finally:
        _psql(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


@pytest.fixture(scope="session", params=["sqlite", "pg"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    with backend(request.param, tmp_path_factory.mktemp("db")) as srv:
        yield srv


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks the PostgreSQL tests; under ``pytest -n`` (``--dist loadgroup``) each module
    of tests/app runs whole on one worker, in order, with its module's servers."""
    for item in items:
        if "[pg" in item.nodeid:
            item.add_marker(pytest.mark.postgres)
        if item.path.parent == HERE:
            item.add_marker(pytest.mark.xdist_group(item.path.name))


RUNNING: set[Server] = set()  # the test servers started and not stopped


@pytest.fixture(autouse=True)
def no_nested_checkout() -> Iterator[None]:
    """Fails the test during which a server task held two pooled connections at once
    (tests/app/server_app.py's guard): enough such tasks at once wait forever."""
    yield
    for srv in list(RUNNING):
        report = srv.nested()
        assert not report, report


@contextlib.contextmanager
def stateless_client(server: Server) -> Iterator[httpx.Client]:
    """A client whose cookies set by responses are not kept (tests pass tokens)."""
    with httpx.Client(base_url=server.base, timeout=20) as c:
        c.event_hooks["response"] = [lambda r: c.cookies.clear()]
        yield c


@pytest.fixture
def api(server: Server) -> Iterator[httpx.Client]:
    """A stateless client: cookies set by responses are not kept (tests pass tokens)."""
    with stateless_client(server) as c:
        yield c


@pytest.fixture(scope="module")
def mailbox() -> Iterator[Any]:
    """A running SMTP server for a test module (tests/app/mailbox.py: aiosmtpd)."""
    from .mailbox import Mailbox

    box = Mailbox()
    box.controller.start()
    yield box
    box.controller.stop()
