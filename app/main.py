"""The FastAPI application (``app``) and the ``overlord-server`` console script (``cli``)."""
from __future__ import annotations

import asyncio
import gc
import json
import logging
import os
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Query
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from .accounts.endpoints import router as accounts_router
from .campaigns.endpoints import router as campaigns_router
from .chat.endpoints import router as chat_router
from . import memdebug
from .db import Database
from .errors import install_error_handlers
from .games.endpoints import router as games_router
from .offers.endpoints import router as offers_router
from .ratings.endpoints import router as ratings_router
from .players.endpoints import router as players_router
from .identity.endpoints import router as identity_router
from .inputs import InputLimitMiddleware
from . import sched, stallwatch
from .origin import OriginMiddleware
from .realtime.handoff import TransportMiddleware
from .pages.endpoints import router as pages_router
from .pubsub import make_pubsub
from .realtime import forward
from .realtime.endpoints import router as ws_router
from .realtime.connection import start_frame_writer
from .realtime.hub import Hub
from .replays.endpoints import router as replays_router
from .scenarios.endpoints import router as scenarios_router
from .settings import Settings, get_settings


def tune_gc(settings: Settings) -> None:
    """GC thresholds and a freeze of everything alive after start-up: a full collection
    walks only what the games allocate, so its pauses stay out of the latency tail."""
    if settings.gc_thresholds:
        gens = [int(x) for x in settings.gc_thresholds.split(",")]
        gc.set_threshold(*gens)
    if settings.gc_freeze:
        gc.collect()
        gc.freeze()
    if settings.gil_switch_interval > 0:
        sys.setswitchinterval(settings.gil_switch_interval)
    if settings.sched_slice_ms > 0:     # the loop thread: tune_gc runs on it
        why = sched.set_slice(settings.sched_slice_ms)
        if why is not None:
            logging.getLogger("app.main").info("scheduler slice left to the kernel: %s", why)
    if os.environ.get("GC_STATS_FILE"):        # bench: every collection's pause, at exit
        gc.callbacks.append(_gc_timer)
        if os.environ.get("GC_SAVEALL"):
            gc.set_debug(gc.DEBUG_SAVEALL)


async def gc_loop(settings: Settings) -> None:
    """Re-freeze every ``gc_refreeze_seconds`` (``gc.freeze`` is O(1): the generations'
    lists are moved, nothing is walked); unfreeze and collect everything every
    ``gc_full_seconds`` (one long pause per period instead of a full collection whose
    pause grows with the heap every few seconds under load)."""
    refreeze, full = settings.gc_refreeze_seconds, settings.gc_full_seconds
    if not settings.gc_freeze or refreeze <= 0:
        return
    last_full = time.monotonic()
    while True:
        await asyncio.sleep(refreeze)
        if full > 0 and time.monotonic() - last_full >= full:
            last_full = time.monotonic()
            gc.unfreeze()
            gc.collect()
        gc.freeze()


_GC: dict[str, Any] = {"t0": 0.0, "pauses": []}


def _gc_timer(phase: str, info: dict[str, Any]) -> None:
    """(generation, wall seconds, CPU seconds of the thread, objects collected, when)."""
    if phase == "start":
        _GC["t0"], _GC["c0"] = time.perf_counter(), time.thread_time()
    else:
        now = time.perf_counter()
        _GC["pauses"].append((info["generation"], now - _GC["t0"],
                              time.thread_time() - _GC["c0"], info.get("collected", 0),
                              time.time()))


def _gc_dump(path: str) -> None:
    kinds: dict[str, int] = {}
    for obj in gc.garbage:      # GC_SAVEALL=1: what the collector found unreachable
        k = f"{type(obj).__module__}.{type(obj).__qualname__}"
        kinds[k] = kinds.get(k, 0) + 1
    with open(path, "w") as f:
        json.dump({"pauses": _GC["pauses"], "count": gc.get_count(),
                   "threshold": gc.get_threshold(), "frozen": gc.get_freeze_count(),
                   "garbage": sorted(kinds.items(), key=lambda kv: -kv[1])[:60]}, f)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db = Database(settings.database_url)
        hub = Hub(settings, db, make_pubsub(settings.redis_url))
        app.state.db, app.state.hub = db, hub
        await hub.start()
        if settings.redis_url and settings.ownership:   # one owner worker per game
            app.state.forward = await forward.start(app, settings, hub)
        tune_gc(settings)
        writer_task = None
        if settings.ws_writer_thread != "off":  # frames written beside the loop (connection.py)
            writer = start_frame_writer()
            # the C thread takes no GIL: nothing to govern (on whatever the loop's load)
            if settings.ws_writer_thread == "auto" and not writer.native:
                writer.active = False           # until the governor sees the loop's load
                writer_task = asyncio.create_task(writer.govern(
                    settings.ws_writer_on_below, settings.ws_writer_off_above,
                    settings.ws_writer_switch_interval, sys.getswitchinterval()))
        memdebug.install()
        gc_task = asyncio.create_task(gc_loop(settings))
        stall_task = (asyncio.create_task(stallwatch.watch(float(os.environ["STALL_WATCH_MS"])))
                      if os.environ.get("STALL_WATCH_MS") else None)
        try:
            yield
        finally:
            gc_task.cancel()
            if writer_task is not None:
                writer_task.cancel()
            if stall_task is not None:
                stall_task.cancel()

            async def close() -> None:
                await hub.stop()
                if app.state.forward is not None:
                    await app.state.forward.stop()
                await db.dispose()
            # bounded like the connections' wait (uvicorn's graceful timeout does not
            # cover the lifespan): what is acknowledged is committed already
            try:
                await asyncio.wait_for(close(), settings.shutdown_grace_seconds or None)
            except asyncio.TimeoutError:
                logging.getLogger("app.main").warning(
                    "shutdown: closing the hub and the database took more than %.0f s; "
                    "stopping anyway", settings.shutdown_grace_seconds)
            if os.environ.get("GC_STATS_FILE"):
                _gc_dump(os.environ["GC_STATS_FILE"])

    app = FastAPI(title="Overlord game server", version="0.1.0", lifespan=lifespan,
                  description="Memoir '44 games: HTTP API + one websocket per game "
                              "(protocol: docs/protocol.md).")
    app.state.settings = settings
    app.state.forward = None            # app/realtime/forward.py (REDIS_URL set)
    app.state.templates = (Jinja2Templates(directory=str(settings.templates_dir))
                           if settings.templates_dir.is_dir() else None)
    install_error_handlers(app)
    # outermost first: the origin check (no body read), then the input limits
    app.add_middleware(InputLimitMiddleware, max_upload_bytes=settings.max_upload_bytes)
    app.add_middleware(OriginMiddleware, allowed=settings.allowed_origins)
    app.add_middleware(TransportMiddleware)    # outermost: the socket hand-off needs it
    for router in (identity_router, accounts_router, offers_router, ratings_router,
                   players_router, scenarios_router, games_router, campaigns_router,
                   chat_router, ws_router, replays_router, pages_router):
        app.include_router(router)
    settings.static_dir.mkdir(parents=True, exist_ok=True)
    app.mount("/static", StaticFiles(directory=str(settings.static_dir)), name="static")

    @app.get("/healthz", include_in_schema=False)
    async def healthz(game: str | None = Query(None, max_length=64)) -> dict[str, Any]:
        """``worker``: this worker's owned / loaded games and relayed sockets (REDIS_URL
        set; counts only; ``?game=ID``: and whether it owns that game)."""
        fwd = app.state.forward
        return {"status": "ok", **({"worker": fwd.stats(game)} if fwd is not None else {})}

    return app


app = create_app()


def migrate() -> None:
    """``alembic upgrade head`` on ``DATABASE_URL`` (idempotent; a SQLite file's folder is
    created by ``app.db.make_engine``)."""
    from alembic import command
    from alembic.config import Config

    from .settings import ROOT

    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.attributes["skip_logging"] = True      # keep this process's logging as it is
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    command.upgrade(cfg, "head")


def serve(host: str | None = None, port: int | None = None, workers: int | None = None,
          *, apply_migrations: bool = True) -> None:
    """Migrate, then run uvicorn with the project's server flags: the only way the server
    is started (``make run``, the Docker image, CI's smoke check)."""
    import uvicorn

    s = get_settings()
    if apply_migrations:
        migrate()                               # once, before any worker starts
    uvicorn.run("app.main:app", host=host or s.host, port=s.port if port is None else port,
                workers=workers or s.workers,
                ws_max_size=s.ws_hard_max_bytes,   # 1 MiB frame cap (docs/protocol.md)
                ws_per_message_deflate=s.ws_per_message_deflate,
                timeout_graceful_shutdown=s.shutdown_grace_seconds or None,
                proxy_headers=True)                # trusts FORWARDED_ALLOW_IPS (127.0.0.1)


def health(host: str | None = None, port: int | None = None, timeout: float = 5.0) -> int:
    """0 when ``GET /healthz`` of the local server answers 200 (the Docker HEALTHCHECK)."""
    import urllib.request

    s = get_settings()
    h = host or s.host
    if h in ("0.0.0.0", "::", ""):
        h = "127.0.0.1"
    if ":" in h:
        h = f"[{h}]"
    try:
        url = f"http://{h}:{s.port if port is None else port}/healthz"
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return 0 if r.status == 200 else 1
    except OSError as exc:
        print(f"unhealthy: {exc}")
        return 1


def cli(argv: list[str] | None = None) -> None:
    """``overlord-server [serve|migrate|health]`` (bare: ``serve``).  HOST, PORT, WORKERS,
    DATABASE_URL, REDIS_URL, ... from the environment (app/settings.py, README.md)."""
    import argparse
    import sys

    ap = argparse.ArgumentParser(prog="overlord-server", description=cli.__doc__)
    sub = ap.add_subparsers(dest="command")
    p_serve = sub.add_parser("serve", help="apply migrations, then serve (the default)")
    sub.add_parser("migrate", help="apply migrations only (alembic upgrade head)")
    p_health = sub.add_parser("health", help="exit 0 when the local server's /healthz answers")
    for p in (p_serve, p_health):
        p.add_argument("--host", help="default: HOST (127.0.0.1)")
        p.add_argument("--port", type=int, help="default: PORT (8000)")
    p_serve.add_argument("--workers", type=int, help="default: WORKERS (1)")
    p_serve.add_argument("--no-migrate", action="store_true",
                         help="skip `alembic upgrade head` (another process migrates)")
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=logging.INFO)
    if args.command == "migrate":
        migrate()
    elif args.command == "health":
        sys.exit(health(args.host, args.port))
    else:
        serve(getattr(args, "host", None), getattr(args, "port", None),
              getattr(args, "workers", None),
              apply_migrations=not getattr(args, "no_migrate", False))


if __name__ == "__main__":
    cli()
