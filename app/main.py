"""The FastAPI application (``app``), its composition root (the lifespan: every service
of a worker is made and wired there, nowhere else) and the ``overlord-server`` console
script (``cli``)."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Query
from fastapi.templating import Jinja2Templates

from .accounts.endpoints import router as accounts_router
from .campaigns.endpoints import router as campaigns_router
from .chat.endpoints import router as chat_router
from . import i18n
from .clocks import watch as clock_watch
from .db import Database
from .errors import install_error_handlers
from .games.bots import BotDriver
from .games.endpoints import router as games_router
from .games.presence import Presence
from .games.sessions import GameSessions
from .identity.endpoints import router as identity_router
from .inputs import InputLimitMiddleware
from .notifications import push
from .notifications.hooks import Notifications
from .offers.endpoints import router as offers_router
from . import ratelimit
from .origin import OriginMiddleware
from .pages.endpoints import router as pages_router
from .pages.static import ClientFiles
from .players.endpoints import router as players_router
from .pubsub import make_pubsub
from .ratings.endpoints import router as ratings_router
from .realtime import forward
from .realtime.connection import HARD_MAX_BYTES
from .realtime.endpoints import game_socket
from .realtime.endpoints import router as ws_router
from .realtime.hub import Hub
from .replays.endpoints import router as replays_router
from .scenarios.endpoints import router as scenarios_router
from .settings import STATIC_DIR, TEMPLATES_DIR, Settings, get_settings

log = logging.getLogger("app.main")
SHUTTING_DOWN = (1012, "server shutting down: reconnect with since")
FULL_COLLECTION_SECONDS = 600.0  # between two full collections of the worker (below)
MIDDLE_COLLECTION_SECONDS = 0.1  # between two collections of the young and middle generations


def collect_on_a_timer() -> tuple[int, int, int]:
    """The worker's garbage collection: what start-up allocated (modules, scenarios,
    caches) is frozen, never scanned again; the two older generations are collected by
    tasks between two callbacks of the loop (:func:`timed_collections`), not by CPython's
    count, which starts a collection inside whatever action allocates next and pauses
    every action queued behind it.  Live games keep thousands of young objects for about a
    second (states, views, batches): the middle generation, with the youngest, every
    ``MIDDLE_COLLECTION_SECONDS`` keeps each pass short (~0.5 ms at 100 games) and makes
    the youngest's own collections by count rare; the oldest every
    ``FULL_COLLECTION_SECONDS``, since by count it ran each time a quarter more objects
    reached it (figures: docs/performance.md).  Nothing of an action's path leaves a
    reference cycle behind (``bench/delivery_bench.py`` counts them), nor does a dropped
    socket (``tests/app/test_socket_churn.py``): what a full collection still frees is
    little.  Returns the thresholds it replaced."""
    gc.collect()
    gc.freeze()
    before = gc.get_threshold()
    gc.set_threshold(before[0], 2**31 - 1, 2**31 - 1)  # the older two: never by count
    return before


async def timed_collections(period: float, generation: int) -> None:
    """Collect ``generation`` (and the younger ones) every ``period`` seconds."""
    while True:
        await asyncio.sleep(period)
        gc.collect(generation)


class QuietTokens(logging.Filter):
    """Keeps ``?token=`` out of uvicorn's access log (a login token in a log file is a
    login for whoever reads it): the query string's token value is replaced."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and any(isinstance(a, str) and "token=" in a for a in args):
            record.args = tuple(_without_token(a) if isinstance(a, str) else a for a in args)
        return True


def _without_token(path: str) -> str:
    head, sep, query = path.partition("?")
    if not sep:
        return path
    parts = [("token=***" if p.startswith("token=") else p) for p in query.split("&")]
    return head + "?" + "&".join(parts)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    for name in ("uvicorn.access", "uvicorn.error"):  # requests; websocket handshakes
        logging.getLogger(name).addFilter(QuietTokens())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        push.public_key(settings)  # a VAPID key that cannot be read stops the start
        db = Database(settings.database_url)
        games = GameSessions(settings, db, make_pubsub(settings.redis_url))
        presence = Presence(games)
        bots = BotDriver(games)
        hub = Hub(settings, games, presence)
        games.registry.on_drop = presence.forget  # a dropped game's presence too
        # after each committed batch: deliveries, bots, then notifications and ratings
        notifications = Notifications(games, presence)
        games.committed += [hub.deliver, bots.schedule, notifications.committed]
        app.state.notifications = notifications
        # bus notices (seats, chat, presence) once the game caught up with the log
        games.notices += [hub.notice, bots.notice, notifications.notice]
        app.state.db, app.state.games, app.state.hub, app.state.bots = db, games, hub, bots
        games.revoked.append(hub.revoked)
        # the creation limits, shared by the workers
        ratelimit.configure(settings.redis_url, settings.database_schema)
        await games.start()
        await bots.start()
        games.spawn(presence.run())
        games.spawn(clock_watch.loop(games))
        if settings.redis_url:  # one owner worker per game
            app.state.forward = await forward.start(app, settings, games, game_socket)
        thresholds = collect_on_a_timer()
        games.spawn(timed_collections(MIDDLE_COLLECTION_SECONDS, 1))
        games.spawn(timed_collections(FULL_COLLECTION_SECONDS, 2))
        try:
            yield
        finally:
            hub.close_all(*SHUTTING_DOWN)

            async def close() -> None:
                await bots.stop()
                await games.stop()
                if app.state.forward is not None:
                    await app.state.forward.stop()
                await db.dispose()

            # bounded like the connections' wait (uvicorn's graceful timeout does not
            # cover the lifespan): what is acknowledged is committed already
            try:
                await asyncio.wait_for(close(), settings.shutdown_grace_seconds or None)
            except asyncio.TimeoutError:
                log.warning(
                    "shutdown: closing the services took more than %.0f s; stopping anyway",
                    settings.shutdown_grace_seconds,
                )
            gc.set_threshold(*thresholds)  # an app in a test process: CPython's again

    app = FastAPI(
        title="Overlord game server",
        version="0.1.0",
        lifespan=lifespan,
        description="Memoir '44 games: HTTP API + one websocket per game "
        "(protocol: docs/protocol.md).",
    )
    app.state.settings = settings
    app.state.forward = None  # app/realtime/forward.py (REDIS_URL set)
    app.state.templates = (
        Jinja2Templates(
            env=i18n.template_environment(TEMPLATES_DIR), context_processors=[i18n.page_context]
        )
        if TEMPLATES_DIR.is_dir()
        else None
    )
    install_error_handlers(app)
    # outermost first: the origin check (no body read), then the input limits
    app.add_middleware(InputLimitMiddleware)
    app.add_middleware(OriginMiddleware, allowed=settings.allowed_origins)
    for router in (
        identity_router,
        accounts_router,
        offers_router,
        ratings_router,
        players_router,
        scenarios_router,
        games_router,
        campaigns_router,
        chat_router,
        ws_router,
        replays_router,
        pages_router,
    ):
        app.include_router(router)
    STATIC_DIR.mkdir(parents=True, exist_ok=True)
    app.mount("/static", ClientFiles(directory=str(STATIC_DIR)), name="static")

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
    cfg.attributes["skip_logging"] = True  # keep this process's logging as it is
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    command.upgrade(cfg, "head")


def serve(
    host: str | None = None,
    port: int | None = None,
    workers: int | None = None,
    *,
    apply_migrations: bool = True,
) -> None:
    """Migrate, then run uvicorn with the project's server flags: the only way the server
    is started (``make run``, the Docker image, CI's smoke check)."""
    import uvicorn

    if not os.environ.get("SECRET_KEY"):  # one key for all the workers of this start
        os.environ["SECRET_KEY"] = secrets.token_urlsafe(32)
        get_settings.cache_clear()
    s = get_settings()
    if apply_migrations:
        migrate()  # once, before any worker starts
    uvicorn.run(
        "app.main:app",
        host=host or s.host,
        port=s.port if port is None else port,
        workers=workers or s.workers,
        ws_max_size=HARD_MAX_BYTES,  # 1 MiB frame cap (docs/protocol.md)
        ws_per_message_deflate=False,  # updates are small patches already
        # uvicorn annotates int; it waits any number of seconds (asyncio.wait_for)
        timeout_graceful_shutdown=s.shutdown_grace_seconds or None,  # type: ignore[arg-type]
        proxy_headers=True,
    )  # trusts FORWARDED_ALLOW_IPS (127.0.0.1)


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
    p_serve.add_argument(
        "--no-migrate",
        action="store_true",
        help="skip `alembic upgrade head` (another process migrates)",
    )
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=logging.INFO)
    if args.command == "migrate":
        migrate()
    elif args.command == "health":
        sys.exit(health(args.host, args.port))
    else:
        serve(
            getattr(args, "host", None),
            getattr(args, "port", None),
            getattr(args, "workers", None),
            apply_migrations=not getattr(args, "no_migrate", False),
        )


if __name__ == "__main__":
    cli()
