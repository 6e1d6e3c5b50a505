"""The FastAPI application (``app``) and the ``overlord-server`` console script (``cli``)."""
from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from .chat.endpoints import router as chat_router
from .db import Database
from .errors import install_error_handlers
from .games.endpoints import router as games_router
from .identity.endpoints import router as identity_router
from .inputs import InputLimitMiddleware
from .origin import OriginMiddleware
from .pages.endpoints import router as pages_router
from .pubsub import make_pubsub
from .realtime.endpoints import router as ws_router
from .realtime.hub import Hub
from .scenarios.endpoints import router as scenarios_router
from .settings import Settings, get_settings


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db = Database(settings.database_url)
        hub = Hub(settings, db, make_pubsub(settings.redis_url))
        app.state.db, app.state.hub = db, hub
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            await db.dispose()

    app = FastAPI(title="Overlord game server", version="0.1.0", lifespan=lifespan,
                  description="Memoir '44 games: HTTP API + one websocket per game "
                              "(protocol: docs/protocol.md).")
    app.state.settings = settings
    app.state.templates = (Jinja2Templates(directory=str(settings.templates_dir))
                           if settings.templates_dir.is_dir() else None)
    install_error_handlers(app)
    # outermost first: the origin check (no body read), then the input limits
    app.add_middleware(InputLimitMiddleware, max_upload_bytes=settings.max_upload_bytes)
    app.add_middleware(OriginMiddleware, allowed=settings.allowed_origins)
    for router in (identity_router, scenarios_router, games_router, chat_router, ws_router,
                   pages_router):
        app.include_router(router)
    settings.static_dir.mkdir(parents=True, exist_ok=True)
    app.mount("/static", StaticFiles(directory=str(settings.static_dir)), name="static")

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    return app


app = create_app()


def cli() -> None:
    """``overlord-server``: serve with uvicorn (HOST/PORT/WORKERS from the environment)."""
    import uvicorn

    logging.basicConfig(level=logging.INFO)
    s = get_settings()
    uvicorn.run("app.main:app", host=s.host, port=s.port, workers=s.workers,
                ws_max_size=s.ws_hard_max_bytes, proxy_headers=True)


if __name__ == "__main__":
    cli()
