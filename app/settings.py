"""Settings from the environment (pydantic-settings; names in upper case, or a ``.env``).

Embedded defaults make ``make run`` work on a bare machine: a SQLite file under
``./data/`` and in-process fan-out.  Production sets ``DATABASE_URL`` to PostgreSQL
(asyncpg) and ``REDIS_URL`` so several workers serve the same games.  Fixed limits of the
protocol live in docs/protocol.md and in the modules that enforce them, not here.
"""

from __future__ import annotations

import secrets
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS_DIR = ROOT / "scenarios"
TEMPLATES_DIR = ROOT / "templates"
STATIC_DIR = ROOT / "static"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    # where games are stored: a SQLite file (one worker) or postgresql+asyncpg://... (any)
    database_url: str = "sqlite+aiosqlite:///./data/overlord.db"
    # PostgreSQL schema (search_path) to use; tests and benchmarks set one per run
    database_schema: str | None = None
    # PostgreSQL connections per worker (as many again on demand); keep workers x 2 x this
    # under the server's max_connections
    db_pool_size: int = 5
    # redis:// or rediss:// (TLS) URL, with user:password for an ACL; set with WORKERS > 1
    redis_url: str | None = None
    # the address other workers reach this one's internal relay listener at (a routable
    # address of this machine when workers run on several machines)
    forward_host: str = "127.0.0.1"
    # signs login tokens' cookies and the workers' relay (HMAC); the same on every worker
    # and machine: set it in production (unset, `overlord-server serve` makes one per start)
    secret_key: str = Field(default_factory=lambda: secrets.token_urlsafe(32))
    # address and port the server listens on
    host: str = "127.0.0.1"
    port: int = 8000
    # uvicorn worker processes (more than 1 needs PostgreSQL and REDIS_URL)
    workers: int = 1
    # seconds a stopping worker waits for its connections and tasks before cutting them
    # (0: no limit); acknowledged actions are committed either way
    shutdown_grace_seconds: float = Field(default=10.0, ge=0)
    # messages per second a socket may send (bursts of twice as many)
    ws_rate_per_second: float = 20.0
    # bytes queued for one socket before it is dropped (close 4008; it reconnects)
    ws_send_queue_bytes: int = 4 * 1024 * 1024
    # games kept in memory per worker (only idle ones are dropped past it)
    registry_capacity: int = 256
    # seconds after which a game nobody uses is dropped from memory (0: never)
    idle_evict_seconds: float = 300.0
    # log entries between state snapshots (a cold load replays at most this many)
    snapshot_every: int = 50
    # seconds before each server bot move (a readable pace)
    bot_delay: float = 0.8
    # seconds an absent player has before his seats may go to a bot
    bot_grace_seconds: float = 120.0
    # bots stop once a game's log has this many entries (0: never; tests and benchmarks)
    bot_max_seq: int = 0
    # the computer players' level for a bot seat without its own (docs/ai.md)
    bot_level: Literal["random", "easy", "normal", "hard"] = "normal"
    # processes the computer players think in (a thinking bot never holds up the loop)
    bot_workers: int = Field(default=1, ge=1, le=64)
    # tests only: POST /api/games may fix the engine's seed; never in production
    allow_test_seed: bool = Field(
        default=False, validation_alias=AliasChoices("OVERLORD_TEST_SEEDS", "ALLOW_TEST_SEED")
    )
    # largest .m44 upload in bytes
    max_upload_bytes: int = 2 * 1024 * 1024
    # origins allowed besides the server's own, comma separated (https://play.example.org)
    allowed_origins: str = ""
    # uploads per identity (a `limits` rate string such as 10/minute)
    upload_rate: str = "10/minute"
    # uploaded scenarios kept per identity
    upload_quota: int = 50
    # a reconnect further behind than this many log entries gets a full sync instead
    catchup_max_entries: int = 500
    # log entries per GET /api/games/{id}/events answer
    events_page: int = 500
    # new identities per client address (a `limits` rate string; shared through Redis)
    identity_rate: str = "30/hour"
    # new games per identity, and per client address
    game_rate: str = "10/minute"
    game_address_rate: str = "60/hour"
    # uploads per client address
    upload_address_rate: str = "20/minute"
    # replays and dice verifications per client address
    replay_rate: str = "20/minute"

    # accounts (app/accounts): `limits` rates of registrations per client address, of
    # sign-in attempts per address and per account name; the lifetime of the signed
    # links sent by e-mail (verification, password reset)
    register_rate: str = "10/hour"
    login_rate: str = "20/minute"
    login_name_rate: str = "10/10minute"
    link_hours: int = 24
    # the server's address as players reach it, for links in e-mails (unset: the
    # address of the request, or http://HOST:PORT for notifications sent by a worker)
    public_url: str | None = None
    # notifications (app/notifications): e-mail through SMTP_URL (smtp://user:pass@host:port,
    # smtps:// for TLS; unset: no e-mail), Web Push with the VAPID keys (unset: none);
    # "your turn" waits notify_grace_seconds for a player not connected to the game
    smtp_url: str | None = None
    mail_from: str = "Overlord <overlord@localhost>"
    vapid_private_key: str | None = None
    vapid_public_key: str | None = None
    vapid_subject: str = "mailto:overlord@localhost"
    notify_grace_seconds: float = Field(default=120.0, ge=0)

    def base_url(self) -> str:
        """Where players reach the server (links in e-mails and pushes)."""
        return (self.public_url or f"http://{self.host}:{self.port}").rstrip("/")


@lru_cache
def get_settings() -> Settings:
    return Settings()
