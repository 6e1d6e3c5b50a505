"""Which worker owns a game, when several serve the same database (``REDIS_URL`` set).

One worker at a time does a game's work (engine, views, deliveries): its *owner*.  The
owner is recorded in Redis, ``overlord:{ns}:owner:{game_id}`` -> the owner's internal address
(``host:port`` of its forward listener, app/realtime/forward.py), taken with a
compare-and-set and a TTL (``OWNER_TTL_SECONDS``).  Why Redis and not the database
lease the bots use: taking and renewing it costs no PostgreSQL connection nor write, and
a dead worker's keys expire by themselves.

* **Placing.** A game nobody owns goes to the live worker that rendezvous hashing of
  its id prefers (the workers register in the sorted set ``overlord:{ns}:workers``, expiry as
  score, refreshed by the renewal loop): games spread evenly over workers and machines,
  whichever worker a game's first socket reached (``uvicorn --workers N`` shares one
  listening socket, and the kernel hands most connections to the same few workers).
* **Taking.** A websocket of a game arriving on a worker asks :meth:`Ownership.claim`:
  one Lua round trip that answers the holder, or takes the game when this worker is the
  preferred one (else the socket is relayed to the preferred worker, which takes it:
  :meth:`Ownership.take`, a compare-and-set).
* **Renewing.** ONE loop per worker (every TTL / 3, at most 1 s) renews all its keys in one script
  call; a key found missing (a Redis restart) is taken again; a key found held by
  another worker is a lost game: ``on_lost`` closes its sockets with 1012 (clients
  reconnect with ``since`` and land on the new owner).
* **Releasing.** A game without connections at two renewals in a row is released
  (compare-and-delete), as are all of them when the worker stops.

Ownership is a matter of load, not of correctness: the database log (unique seq per
game) stays the arbiter of every action, so two workers briefly believing they own a
game (a stalled owner whose key expired) serve consistent, exactly-once games.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError

from ..pubsub import Outage, redis_client

if TYPE_CHECKING:
    from .runtime import GameRuntime, Registry

log = logging.getLogger("app.ownership")

PREFIX = "overlord:"  # + the deployment's namespace (:func:`namespace`) + ":"
OWNER_TTL_SECONDS = 10.0  # a dead worker's games go to another one after this at most


def namespace(database_url: str, schema: str | None) -> str:
    """A short name of the deployment (its database and schema): servers of other
    databases sharing the Redis (tests, benchmarks, staging) never pick each other's
    workers (no password in it: only its hash)."""
    from sqlalchemy.engine import make_url

    try:
        url = make_url(database_url).render_as_string(hide_password=True)
    except Exception:
        url = database_url
    return hashlib.blake2b(f"{url}|{schema or ''}".encode(), digest_size=6).hexdigest()


# KEYS[1] game key; ARGV: me, ttl ms, the preferred worker.  The holder; none: taken when
# this worker is the preferred one, else the preferred one (to relay to; it takes it)
_PLACE = """local v = redis.call('get', KEYS[1])
if v then return v end
if ARGV[3] == ARGV[1] then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) return ARGV[1] end
return ARGV[3]"""

# KEYS[1] game key; ARGV: me, ttl ms.  Takes a free key; answers the holder.
_CLAIM = """local v = redis.call('get', KEYS[1])
if not v then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) return ARGV[1] end
return v"""
# ARGV[3]: an owner found dead (its listener refused us): replaced only if still there
_USURP = """local v = redis.call('get', KEYS[1])
if (not v) or v == ARGV[3] then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) return ARGV[1] end
return v"""
# every key of this worker: renewed (taken again if missing); 0 = held by another
_RENEW = """local out = {}
for i, k in ipairs(KEYS) do
  local v = redis.call('get', k)
  if v == ARGV[1] then redis.call('pexpire', k, ARGV[2]) out[i] = 1
  elseif not v then redis.call('set', k, ARGV[1], 'PX', ARGV[2]) out[i] = 1
  else out[i] = 0 end
end
return out"""
_RELEASE = """if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0"""


def _s(v: Any) -> str | None:
    return v.decode() if isinstance(v, bytes) else v


class Ownership:
    """This worker's game keys (one per owned game) and their renewal loop."""

    def __init__(
        self,
        redis_url: str,
        registry: Registry,
        ttl: float = OWNER_TTL_SECONDS,
        on_lost: Callable[[str], None] | None = None,
        space: str = "",
    ) -> None:
        self.redis = redis_client(redis_url)
        self._outage = Outage("ownership renewal")
        base = f"{PREFIX}{space}:" if space else PREFIX
        self.key, self.workers = base + "owner:", base + "workers"
        self.registry = registry
        self.ttl_ms = max(1000, int(ttl * 1000))
        self.on_lost = on_lost
        self.address = ""  # host:port of this worker's forward listener
        self.owned: set[str] = set()
        self._idle: set[str] = set()  # owned games seen without connections once
        self._taken: dict[str, float] = {}  # when each was taken (a socket is attaching)
        self._task: asyncio.Task[None] | None = None
        self.peers: list[str] = []  # live workers' addresses (``self.workers``)
        self._place = self.redis.register_script(_PLACE)
        self._claim = self.redis.register_script(_CLAIM)
        self._usurp = self.redis.register_script(_USURP)
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)

    async def start(self, address: str) -> None:
        self.address = address
        await self.beat()
        self._task = asyncio.create_task(self._loop(), name="ownership-renew")

    async def beat(self) -> None:
        """Register this worker as live (until now + TTL) and read the live ones."""
        now = int(time.time() * 1000)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(self.workers, {self.address: now + self.ttl_ms})
            pipe.zremrangebyscore(self.workers, "-inf", now)
            pipe.zrange(self.workers, 0, -1)
            *_, peers = await pipe.execute()
        self.peers = sorted({str(_s(p)) for p in peers} | {self.address})

    def preferred(self, game_id: str) -> str:
        """The live worker rendezvous hashing prefers for a game (the same answer on
        every worker that knows the same peers; a worker joining or leaving moves only
        the games it wins or held)."""

        def weight(peer: str) -> bytes:
            return hashlib.blake2b(f"{peer}|{game_id}".encode(), digest_size=8).digest()

        return max(self.peers or [self.address], key=weight)

    def owns(self, game_id: str) -> bool:
        return game_id in self.owned

    def _took(self, game_id: str, holder: str | None) -> str | None:
        if holder == self.address:
            self.owned.add(game_id)
            self._idle.discard(game_id)
            self._taken[game_id] = time.monotonic()
        return holder

    async def claim(self, game_id: str) -> str | None:
        """Where a game's socket is served: its owner, or when nobody owns it the
        preferred worker (this one: taken now; another: relay to it, it takes it)."""
        if game_id in self.owned:
            self._taken[game_id] = time.monotonic()  # a socket is attaching: not idle
            return self.address
        holder = _s(
            await self._place(
                keys=[self.key + game_id], args=[self.address, self.ttl_ms, self.preferred(game_id)]
            )
        )
        return self._took(game_id, holder)

    async def take(self, game_id: str) -> str | None:
        """A socket relayed here by another worker: the game's owner after taking it if
        nobody held it."""
        if game_id in self.owned:
            self._taken[game_id] = time.monotonic()  # a socket is attaching: not idle
            return self.address
        holder = _s(await self._claim(keys=[self.key + game_id], args=[self.address, self.ttl_ms]))
        return self._took(game_id, holder)

    async def usurp(self, game_id: str, dead: str) -> str | None:
        """The owner ``dead`` refused our connection (its process is gone): take the game
        if its key still names it."""
        holder = _s(
            await self._usurp(keys=[self.key + game_id], args=[self.address, self.ttl_ms, dead])
        )
        return self._took(game_id, holder)

    async def release(self, game_id: str) -> None:
        self.owned.discard(game_id)
        self._idle.discard(game_id)
        self._taken.pop(game_id, None)
        with contextlib.suppress(Exception):
            await self._release(keys=[self.key + game_id], args=[self.address])

    def shed(self, rt: GameRuntime) -> bool:
        """A runtime cached on a worker that does not own its game, idle (no connection,
        no bot move, no clock): forgotten rather than kept up to date with the owner's
        batches (loaded again from the log if a request needs it).  True if forgotten."""
        if (
            rt.game_id in self.owned
            or rt.connections
            or rt.lock.locked()
            or rt.inbox
            or rt.clock is not None
            or (rt.bot_task is not None and not rt.bot_task.done())
        ):
            return False
        if self.registry.runtimes.get(rt.game_id) is rt:
            del self.registry.runtimes[rt.game_id]
        return True

    async def renew(self) -> None:
        """Release the games idle since the last renewal, renew the others (one script
        call per 500 games), report the lost ones."""
        keep: list[str] = []
        young = time.monotonic() - self.ttl_ms / 1000
        for gid in sorted(self.owned):
            rt = self.registry.cached(gid)
            if (rt is None or not rt.connections) and self._taken.get(gid, 0.0) < young:
                if gid in self._idle:
                    await self.release(gid)
                    continue
                self._idle.add(gid)
            else:
                self._idle.discard(gid)
            keep.append(gid)
        for i in range(0, len(keep), 500):
            chunk = keep[i : i + 500]
            held = await self._renew(
                keys=[self.key + g for g in chunk], args=[self.address, self.ttl_ms]
            )
            for gid, ok in zip(chunk, held):
                if not int(ok) and gid in self.owned:
                    log.warning("game %s: ownership lost to another worker", gid)
                    self.owned.discard(gid)
                    self._idle.discard(gid)
                    self._taken.pop(gid, None)
                    if self.on_lost is not None:
                        self.on_lost(gid)

    async def _loop(self) -> None:
        while True:  # a joining worker is known to the others within ~1 s
            await asyncio.sleep(min(self.ttl_ms / 3000, 1.0))
            try:
                await self.beat()
                await self.renew()
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                self._outage.failed(exc)
                continue
            self._outage.ok()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        for gid in list(self.owned):
            await self.release(gid)
        with contextlib.suppress(Exception):
            await self.redis.zrem(self.workers, self.address)
        with contextlib.suppress(Exception):
            await self.redis.aclose()
