"""Settings from the environment (pydantic-settings; names in upper case, or a ``.env``).

Embedded defaults make ``make run`` work on a bare machine: a SQLite file under
``./data/`` and in-process fan-out.  Production sets ``DATABASE_URL`` to PostgreSQL
(asyncpg) and ``REDIS_URL`` so several workers serve the same games.  Fixed limits of the
protocol live in docs/protocol.md and in the modules that enforce them, not here.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from limits import parse
from pydantic import AliasChoices, Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS_DIR = ROOT / "scenarios"
TEMPLATES_DIR = ROOT / "templates"
STATIC_DIR = ROOT / "static"

RateName = Literal[
    "socket",
    "catchup",
    "identity",
    "game",
    "game_address",
    "upload",
    "upload_address",
    "replay",
    "challenge",
    "register",
    "login",
    "login_name",
]
# every per-client rate limit (a `limits` string: N/second, N/minute, N/10minute, ...);
# RATE_LIMITS overrides any of them; docs/protocol.md "Rate limits" tells what each counts
RATE_DEFAULTS: dict[RateName, str] = {
    "socket": "20/second",  # messages one websocket may send (bursts of twice as many)
    "catchup": "30/10second",  # log rebuilds (GET /events, reconnects with since) per client
    "identity": "30/hour",  # new identities per client address
    "game": "10/minute",  # new games per identity
    "game_address": "60/hour",  # new games per client address
    "upload": "10/minute",  # scenario uploads per identity
    "upload_address": "20/minute",  # scenario uploads per client address
    "replay": "20/minute",  # replays and dice verifications per client address
    "challenge": "30/hour",  # challenges per identity
    "register": "10/hour",  # registrations and e-mail changes per client
    "login": "20/minute",  # sign-in and password-reset attempts per client address
    "login_name": "10/10minute",  # sign-in and password-reset attempts per account name
}


def rate_limits(value: str | Mapping[str, str]) -> dict[RateName, str]:
    """:data:`RATE_DEFAULTS` with the overrides of ``value`` (``"game=20/minute,login=5/
    minute"`` or a mapping); ValueError names an unknown limit or a bad limit string."""
    if isinstance(value, str):
        pairs = [p.partition("=") for p in value.split(",") if p.strip()]
        bad = [n for n, sep, _ in pairs if not sep]
        if bad:
            raise ValueError(f"{bad[0].strip()!r} is not name=limit (e.g. game=20/minute)")
        names = [n.strip() for n, _, _ in pairs]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"rate limit {twice[0]!r} given twice")
        value = {n.strip(): limit.strip() for n, _, limit in pairs}
    out = dict(RATE_DEFAULTS)
    for name, limit in value.items():
        if name not in RATE_DEFAULTS:
            raise ValueError(f"unknown rate limit {name!r}; the names: {', '.join(RATE_DEFAULTS)}")
        try:
            item = parse(limit)
        except ValueError:
            item = None
        if item is None or item.amount < 1:
            raise ValueError(f"{name}={limit!r} is not a limit such as 10/minute")
        out[name] = limit  # type: ignore[index]
    return out


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    # where games are stored: a SQLite file (one worker) or postgresql+asyncpg://... (any)
    database_url: str = "sqlite+aiosqlite:///./data/overlord.db"
    # PostgreSQL schema (search_path) of the tables, for a database shared with other software
    database_schema: str | None = None
    # PostgreSQL connections per worker (x2 on demand): keep WORKERS x 2 x this < max_connections
    db_pool_size: int = 5
    # redis:// or rediss:// (TLS) URL, user:password@ for an ACL; required when WORKERS > 1
    redis_url: str | None = None
    # address the other workers reach this one's relay at: a routable one across machines
    forward_host: str = "127.0.0.1"
    # signs mailed links and the workers' relay: set it, the same on every worker and machine
    secret_key: str = Field(default_factory=lambda: secrets.token_urlsafe(32))
    # address the server listens on (0.0.0.0: reachable from other machines)
    host: str = "127.0.0.1"
    # TCP port the server listens on
    port: int = 8000
    # uvicorn worker processes, about one per core (more than 1 needs PostgreSQL and REDIS_URL)
    workers: int = 1
    # seconds a stopping worker waits for sockets and tasks (0: no limit); under the stop timeout
    shutdown_grace_seconds: float = Field(default=10.0, ge=0)
    # games kept in memory per worker (idle ones dropped past it): above the live games per worker
    registry_capacity: int = 256
    # seconds after which a game nobody uses leaves memory (0: never); it reloads on next use
    idle_evict_seconds: float = 300.0
    # seconds before each server bot move (0: at once; the default is a pace players can follow)
    bot_delay: float = 0.8
    # seconds an absent player has before his seats may go to a bot
    bot_grace_seconds: float = 120.0
    # bots stop once a game's log has this many entries (0: never; for tests and benchmarks)
    bot_max_seq: int = 0
    # level of a bot seat that has none of its own: random, easy, normal or hard (docs/ai.md)
    bot_level: Literal["random", "easy", "normal", "hard"] = "normal"
    # processes the computer players think in: raise it when many bot moves wait to be thought
    bot_workers: int = Field(default=1, ge=1, le=64)
    # OVERLORD_TEST_SEEDS=1: POST /api/games may fix the dice seed (tests only, never in production)
    allow_test_seed: bool = Field(
        default=False, validation_alias=AliasChoices("OVERLORD_TEST_SEEDS", "ALLOW_TEST_SEED")
    )
    # origins allowed besides the server's own, comma separated (https://play.example.org)
    allowed_origins: str = ""
    # changes to RATE_DEFAULTS above, name=limit comma separated ("game=20/minute,login=5/minute")
    rate_limits: Annotated[dict[RateName, str], NoDecode] = Field(
        default_factory=lambda: dict(RATE_DEFAULTS)
    )
    # the server's address as players reach it, for mailed links (unset: the request's or HOST:PORT)
    public_url: str | None = None
    # e-mail through smtp://user:pass@host:port (smtps:// for TLS); unset: no e-mail
    smtp_url: str | None = None
    # sender of the e-mails; its address is also the contact given to Web Push services
    mail_from: str = "Overlord <overlord@localhost>"
    # Web Push VAPID private key (base64url, or a PEM file's path); unset: no Web Push
    vapid_private_key: str | None = None
    # seconds after which "your turn" goes to a player not connected to his game
    notify_grace_seconds: float = Field(default=120.0, ge=0)

    @field_validator("rate_limits", mode="before")
    @classmethod
    def _rate_limits(cls, value: Any) -> dict[RateName, str]:
        return rate_limits(value)

    def rate(self, name: RateName) -> str:
        """The ``limits`` string of rate limit ``name``."""
        return self.rate_limits[name]

    def base_url(self) -> str:
        """Where players reach the server (links in e-mails and pushes)."""
        return (self.public_url or f"http://{self.host}:{self.port}").rstrip("/")


@lru_cache
def get_settings() -> Settings:
    return Settings()
