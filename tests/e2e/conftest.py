"""Browser tests: a real uvicorn on loopback (subprocess, free port, temp SQLite DB) and
Debian's /usr/bin/chromium driven by Playwright. Skipped only when chromium is missing."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/e2e/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.e2e)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    def __init__(self, db_dir: Path) -> None:
        self.port = _free_port()
        self.env = {
            **os.environ,
            "DATABASE_URL": f"sqlite+aiosqlite:///{db_dir / 'e2e.db'}",
            "SECRET_KEY": "e2e",
            "BOT_DELAY": "0",
            "RATE_LIMITS": "socket=200/second,identity=100000/minute,game=100000/minute,"
            "game_address=100000/minute,upload_address=100000/minute,replay=100000/minute",
            "BOT_LEVEL": "random",  # instant bots; docs/ai.md for the levels
            "OVERLORD_TEST_SEEDS": "1",
        }  # the e2e games use fixed seeds
        self.env.pop("REDIS_URL", None)
        self.log = tempfile.NamedTemporaryFile(prefix="uvicorn-e2e-", suffix=".log", delete=False)
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        subprocess.run(
            [sys.executable, "-m", "alembic", "upgrade", "head"],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
        )
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "app.main:app",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=self.log,
            stderr=self.log,
            start_new_session=True,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("uvicorn died:\n" + self.logs()[-4000:])
            try:
                if httpx.get(self.base + "/healthz", timeout=0.5).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("uvicorn did not start:\n" + self.logs()[-4000:])

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)

    def logs(self) -> str:
        return Path(self.log.name).read_text(errors="replace")


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    srv = LiveServer(tmp_path_factory.mktemp("e2e-db"))
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="session")
def browser(live_server: LiveServer) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def new_page(browser, live_server, tmp_path):
    """Factory: a page in a fresh browser context (its own cookies = its own identity)."""
    contexts = []
    errors: list[str] = []

    def make(name: str = "page"):
        ctx = browser.new_context(
            viewport={"width": 1500, "height": 1000}, base_url=live_server.base
        )
        contexts.append(ctx)
        page = ctx.new_page()
        page.set_default_timeout(15000)
        page.on("pageerror", lambda e, n=name: errors.append(f"{n}: {e}"))
        return page

    make.errors = errors  # type: ignore[attr-defined]
    yield make
    for c in contexts:
        c.close()
    assert not errors, "JavaScript errors in the pages:\n" + "\n".join(errors)
