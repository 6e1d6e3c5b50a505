"""Settings from the environment (pydantic-settings).

Embedded defaults make ``make run`` work on a bare machine: a SQLite file under
``./data/`` and in-process fan-out.  Production sets ``DATABASE_URL`` to PostgreSQL
(asyncpg) and ``REDIS_URL`` so several uvicorn workers serve the same games.
"""
from __future__ import annotations

import secrets
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import AliasChoices, Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    database_url: str = "sqlite+aiosqlite:///./data/overlord.db"
    database_schema: str | None = None    # PostgreSQL only: search_path (test isolation)
    # PostgreSQL connections per worker: ORM pool (size + overflow) + the hot-path append
    # pool.  Worst case per server = workers x (db_pool_size + db_max_overflow +
    # db_append_pool_size); keep it under the server's max_connections (default 100).
    # A request finding the pool exhausted waits for a connection (up to 30 s).
    db_pool_size: int = 5
    db_max_overflow: int = 10
    db_append_pool_size: int = 5
    redis_url: str | None = None
    # one worker owns each game (REDIS_URL set; app/games/ownership.py): the others relay
    # its sockets to the owner's internal listener (app/realtime/forward.py).
    # FORWARD_HOST: the address other workers reach this one at (another machine: a
    # routable address of this one); FORWARD_PORT 0: any free port; FORWARD_SECRET: the
    # header a relayed socket carries (unset: one shared through Redis)
    ownership: bool = True
    owner_ttl_seconds: float = 10.0
    # same machine: hand a non-owned game socket to its owner worker (SCM_RIGHTS) instead
    # of relaying its frames (app/realtime/handoff.py); other machines are relayed
    socket_handoff: bool = True
    forward_host: str = "127.0.0.1"
    forward_port: int = 0
    forward_secret: str | None = None
    secret_key: str = Field(default_factory=lambda: secrets.token_urlsafe(32))
    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1
    # after SIGTERM, how long a worker waits for its connections and tasks to end before
    # it cancels them (uvicorn's timeout_graceful_shutdown), and then for closing the hub
    # and the database (the lifespan's end); 0: for ever (uvicorn's default: two workers
    # stopped during a connect storm of 9,000 sockets were still running 13 minutes
    # later).  Nothing acknowledged is lost either way: every action is committed before
    # it is acknowledged, and clients reconnect with ``since``.
    shutdown_grace_seconds: float = Field(default=10.0, ge=0)

    scenarios_dir: Path = ROOT / "scenarios"
    templates_dir: Path = ROOT / "templates"
    static_dir: Path = ROOT / "static"

    # websocket limits (documented in docs/protocol.md)
    ws_max_message_bytes: int = 64 * 1024
    ws_hard_max_bytes: int = 1024 * 1024
    ws_rate_per_second: float = 20.0
    ws_burst: int = 40
    ws_max_drops: int = 200
    ws_send_queue: int = 256
    # and at most this many bytes queued per connection (a slow reader of large messages:
    # close 4008 before its backlog grows the worker's memory)
    ws_send_queue_bytes: int = 4 * 1024 * 1024
    # permessage-deflate on the websocket (uvicorn's ws_per_message_deflate): updates are
    # small view patches now, and deflating each socket's copy was the largest CPU cost
    # (docs/performance.md "Overlord scale"); the browser and clients negotiate either way
    ws_per_message_deflate: bool = False
    # write each update's frame, encoded once per audience, straight to the socket's
    # transport (app/realtime/connection.py ``Connection._direct``) instead of through
    # Starlette's and uvicorn's ASGI send for every socket; off: the ASGI send only
    ws_direct_frames: bool = True
    # garbage collector (docs/performance.md "Overlord scale"): thresholds of generations
    # 0, 1, 2 ("" keeps CPython's), and gc.freeze() of what is alive once the server has
    # started (modules, scenarios: never scanned again by a full collection)
    # 100,1,1000000 (measured, docs/performance.md "Garbage collection"): young
    # collections every ~100 net allocations walk only a few actions' worth of objects
    # (~0.1-0.3 ms instead of 12-20 ms with CPython's 700,10,10), survivors reach the
    # old generation after two, and the old generation is only collected by the periodic
    # full collection below (a full collection every few seconds under load was 100-550 ms)
    gc_thresholds: str = "100,1,1000000"
    gc_freeze: bool = True
    # every gc_refreeze_seconds, what survived that long is frozen too (a full collection
    # then walks only the objects of the last period: its pause stops growing with the
    # number of live games); every gc_full_seconds everything is unfrozen and collected
    # once (cycles that died while frozen are freed).  0 turns either off.
    # the GIL switch interval (sys.setswitchinterval): the SQLite writer thread waits this
    # long for the GIL while the event loop runs Python code, several times per commit;
    # CPython's 5 ms made that wait the median latency at 200 games (36 ms vs 3.9 ms with
    # 0.5 ms; docs/performance.md "Overlord scale").  0 keeps CPython's.
    # With the frame writer thread (ws_writer_thread) use 0.00002 (0.02 ms): it takes the
    # GIL for a few microseconds per socket while the loop runs Python code; with 0.5 ms
    # it waited that long per write (100 games: p99 10.5 ms, as without the thread).
    gil_switch_interval: float = 0.0005
    # deliveries' frames written by one thread beside the event loop (app/realtime/
    # connection.py FrameWriter): the readers they wake run on the other CPU.  "auto"
    # (the default): on, with a GIL switch interval of ws_writer_switch_interval, while
    # the event loop is busy less than ws_writer_on_below of its time, and off (writes
    # on the loop, gil_switch_interval) once it is busy more than ws_writer_off_above:
    # p99 -20 % at 100 games, but at 400 games (session 11) its GIL hand-offs cost +14 %
    # of CPU per action and saturated the worker (p99 620 ms against 77 without it;
    # docs/performance.md "Session 11").  "on": always (set GIL_SWITCH_INTERVAL=0.00002
    # too); "off": never.  Where the C thread is built (app/realtime/_sendthread.c: no
    # GIL hand-offs), "auto" keeps it on at any load and leaves the switch interval.
    ws_writer_thread: Literal["auto", "on", "off"] = "auto"
    ws_writer_switch_interval: float = 0.00002
    ws_writer_on_below: float = 0.30
    ws_writer_off_above: float = 0.40

    @field_validator("ws_writer_thread", mode="before")
    @classmethod
    def _writer_mode(cls, v: Any) -> Any:
        """WS_WRITER_THREAD=1 / 0 (and true / false) as before "auto" existed."""
        flag = {"1": "on", "true": "on", "yes": "on", "0": "off", "false": "off", "no": "off"}
        return flag.get(str(v).strip().lower(), v) if isinstance(v, (str, bool, int)) else v
    # the event loop thread's scheduler slice in ms (Linux 6.12+, app/sched.py): a short
    # one keeps the readers its writes wake from taking its CPU mid-delivery (100 games:
    # p99 median 2.58 -> 2.16x the relay's).  0 keeps the kernel's.
    sched_slice_ms: float = 0.1
    gc_refreeze_seconds: float = 30.0
    gc_full_seconds: float = 900.0

    snapshot_every: int = 50          # log entries between state snapshots
    # games in memory per worker (LRU): only idle games are dropped past it, never one
    # with connections or bot work; and a game idle (no connection, no bot to act, no
    # lookup) this long is dropped (0: never); either reloads from its latest snapshot
    registry_capacity: int = 256
    idle_evict_seconds: float = 300.0
    bot_delay: float = 0.8            # seconds before each server bot move (readable pace)
    bot_grace_seconds: float = 120.0  # an absent player's seats go to a bot after this
    bot_lease_seconds: float = 10.0   # a worker's claim on driving one game's bots
    bot_max_seq: int = 0              # bots stop once a game's log has this many entries
                                      # (0: never; load and leak tests cap bot-only games)
    # tests only (env OVERLORD_TEST_SEEDS=1): POST /api/games may fix the engine's seed
    # ("seed"); such a game has no commitment.  Off in production: a seed a player chose
    # or knows would let him predict every hand and roll (docs/protocol.md "Fair dice")
    allow_test_seed: bool = Field(default=False, validation_alias=AliasChoices(
        "OVERLORD_TEST_SEEDS", "ALLOW_TEST_SEED"))
    max_upload_bytes: int = 2 * 1024 * 1024
    # hardening (docs/protocol.md): origins allowed besides the server's own (comma
    # separated, e.g. "https://play.example.org"), upload limits per identity, catch-up
    allowed_origins: str = ""
    upload_rate: str = "10/minute"        # a `limits` rate string, per identity
    upload_quota: int = 50                # uploaded scenarios kept per identity
    catchup_max_entries: int = 500        # reconnects further behind get a sync
    events_page: int = 500                # /events entries per answer (at most)
    catchup_rate: str = "30/10second"     # log rebuilds (/events, reconnect since) per client
    session_days: int = 90                # a login token's lifetime
    cookie_secure: bool = False

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
