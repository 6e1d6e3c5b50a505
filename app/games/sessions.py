"""The game session service of one worker: the live games it holds (the registry), every
action submitted to them, and the ``committed`` event that tells who listens (the hub's
deliveries, the bot driver, the notifications) that a game's log grew.

Every accepted batch is committed first (``play.submit``: the compare-and-set on
``games.seq`` and the log rows in one transaction), then published on the bus, then the
listeners run, once per batch, in seq order: a game's actions are serialised by its
runtime lock, and the listeners run under it.  Other writers' batches (another worker's,
arriving on the bus, or read from the log) are applied to the cached state and raise the
same event, once for the batches applied together.  Nothing else raises it: a refused
action or a catch-up that found nothing new commits nothing.  Bus messages that are not
batches (seats changed, chat, presence) go to the ``notices`` listeners after the game
caught up with the log.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import select

from ..db import Database
from ..jsontext import dumps, loads
from ..models import Game
from ..pubsub import PubSub, channel_for, game_of
from ..security import new_id
from ..settings import Settings
from . import play
from .repository import LogWriter
from .runtime import GameRuntime, Registry

log = logging.getLogger("app.games.sessions")

Committed = Callable[[GameRuntime], None]
Notice = Callable[[GameRuntime, dict[str, Any]], Awaitable[None]]
REVOKED = channel_for("#revoked")  # not a game id: login tokens revoked (their hashes)
Reply = Callable[[play.Outcome], None]


class GameSessions:
    """Submit, the registry, the bus and the ``committed`` / ``notices`` events."""

    def __init__(self, settings: Settings, db: Database, bus: PubSub) -> None:
        self.settings = settings
        self.db = db
        self.bus = bus
        self.registry = Registry(db.sessions, settings.registry_capacity)
        self.log = LogWriter(db)  # commits the accepted actions
        self.worker = new_id("w")  # this worker's name (bot leases, spectators)
        self.committed: list[Committed] = []  # the log grew: run under the game's lock
        self.notices: list[Notice] = []
        self.revoked: list[Callable[[str], Any]] = []  # a login token's hash was revoked
        # set when one worker owns each game (app/games/ownership.py): forget an idle
        # runtime of a game owned elsewhere rather than follow its batches
        self.shed: Callable[[GameRuntime], bool] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        # this worker's batches on the bus say so first: its own echo is dropped unparsed
        self.origin = secrets.token_hex(6)
        self._own_batch = dumps({"kind": "batch", "origin": self.origin})[:-1].encode()

    async def start(self) -> None:
        await self.bus.start(self._on_message)
        if self.settings.idle_evict_seconds > 0:
            self.spawn(self._evict_loop(self.settings.idle_evict_seconds))
        if not self.bus.local_only:  # other workers write: a lost bus
            self.spawn(self._reconcile_loop())  # message must not stall anyone

    async def stop(self) -> None:
        for t in list(self._tasks):
            t.cancel()
        await self.bus.close()

    def spawn(self, coro: Any) -> None:
        """A background task of this worker, cancelled at :meth:`stop`."""
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _fire(self, rt: GameRuntime, before: int) -> None:
        """Tell the ``committed`` listeners, if the game's log grew past seq ``before``."""
        if rt.seq == before:
            return
        for listener in self.committed:
            listener(rt)

    # -- actions -------------------------------------------------------------------------
    async def submit(
        self,
        rt: GameRuntime,
        seat: str,
        expected_seq: int,
        action: dict[str, Any],
        *,
        by: str | None = None,
        meta: bool = False,
        forced: bool = False,
        reply: Reply | None = None,
    ) -> play.Outcome:
        """An action for ``seat``: ``by`` the identity of the player who sent it (None: the
        server's bot or clock); ``meta``: a server-originated entry (``engine.meta``:
        resign / timeout / forfeit / undo) whose caller checked who may ask for it;
        ``forced``: the bot decides for a human seat out of time.  ``reply`` hears the
        outcome before anyone hears of the commit (a player's ack precedes his update)."""
        async with rt.lock:
            before = rt.seq  # a refusal may still have read another writer's batch
            info = rt.seats.get(seat)
            if meta:
                out = await play.submit_meta(self.db, self.log, rt, seat, action)
            elif info is None or (by is not None and info.identity_id != by):
                out = play.Outcome.reject(rt.seq, "not_seated", f"you do not hold seat {seat}")
            elif by is None and not info.is_bot and not forced:
                out = play.Outcome.reject(rt.seq, "not_seated", f"seat {seat} is not a bot")
            else:
                out = await play.submit(self.db, self.log, rt, seat, expected_seq, action)
            if out.ok and out.batch is not None and not self.bus.local_only:
                b = out.batch  # committed: other workers hear of it first
                await self.publish(
                    rt.game_id,
                    {
                        "kind": "batch",
                        "origin": self.origin,
                        "first_seq": b.first_seq,
                        "seq": b.seq,
                        "actor": b.actor,
                        "entries": out.entries,
                    },
                )
            if reply is not None:
                reply(out)
            self._fire(rt, before)
        if out.ok and out.snapshot is not None:
            self.spawn(
                play.write_snapshot(
                    self.db,
                    self.log,
                    rt.rs,
                    rt.game_id,
                    out.snapshot_seq,
                    out.snapshot,
                    timed=rt.clock is not None,
                )
            )
        return out

    async def submit_meta(
        self, rt: GameRuntime, seat: str, action: dict[str, Any], reply: Reply | None = None
    ) -> play.Outcome:
        return await self.submit(rt, seat, rt.seq, action, meta=True, reply=reply)

    async def catch_up(self, rt: GameRuntime) -> None:
        """Bring the cached state up to the database log and tell the listeners (a lost
        bus message: connections never stall on a gap)."""
        async with rt.lock:
            before = rt.seq
            async with self.db.sessions() as session:
                await rt.catch_up(session)
            self._fire(rt, before)

    # -- the bus -------------------------------------------------------------------------
    async def publish(self, game_id: str, msg: dict[str, Any]) -> None:
        await self.bus.publish(channel_for(game_id), dumps(msg).encode())

    async def revoke(self, token_hash: str) -> None:
        """A login token was revoked: every worker closes the sockets opened with it."""
        await self.bus.publish(REVOKED, token_hash.encode())

    async def seats_changed(self, game_id: str) -> None:
        await self.publish(game_id, {"kind": "seats"})

    async def _on_message(self, channel: str, data: bytes) -> None:
        """Queue a bus message on its game's inbox (never waits for a game's database
        reads or engine work; one drain task per game keeps its order)."""
        if data.startswith(self._own_batch):
            return  # our own batch, applied and delivered before it was published
        if channel == REVOKED:
            for listener in self.revoked:
                listener(data.decode())
            return
        rt = self.registry.cached(game_of(channel))
        if rt is None or (self.shed is not None and self.shed(rt)):
            return  # not loaded here, or owned by another worker
        rt.inbox.append(loads(data))
        if rt.inbox_task is None or rt.inbox_task.done():
            rt.inbox_task = task = asyncio.create_task(self._drain(rt))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _drain(self, rt: GameRuntime) -> None:
        while rt.inbox:
            msg = rt.inbox.popleft()
            try:
                if msg.get("kind") == "batch":
                    msgs = [msg]  # consecutive batches: applied, then ONE
                    while rt.inbox and rt.inbox[0].get("kind") == "batch":  # event
                        msgs.append(rt.inbox.popleft())
                    await self._remote_batches(rt, msgs)
                else:
                    if msg.get("kind") == "seats":  # the seats and any entry not heard of
                        await self.catch_up(rt)
                    for notice in self.notices:
                        await notice(rt, msg)
            except asyncio.CancelledError:
                raise
            except Exception:  # e.g. the database unreachable: the reconciler resyncs
                log.exception("bus message for game %s failed", rt.game_id)

    async def _remote_batches(self, rt: GameRuntime, msgs: list[dict[str, Any]]) -> None:
        async with rt.lock:
            before = rt.seq
            for msg in msgs:
                if msg["seq"] <= rt.seq:
                    continue  # ours, or already read from the log
                if msg["first_seq"] != rt.seq + 1:  # a gap (a lost message): the log
                    async with self.db.sessions() as session:
                        await rt.catch_up(session)
                    break
                rt.apply_remote(msg["first_seq"], msg["actor"], [(s, a) for s, a in msg["entries"]])
            self._fire(rt, before)

    async def reconcile(self) -> None:
        """Compare the cached games with connections to ``games.seq``; a game found behind
        twice in a row at the same seq (its bus message is not merely in flight) catches up
        from the log."""
        live = {gid: rt for gid, rt in list(self.registry.runtimes.items()) if rt.connections}
        if not live:
            return
        async with self.db.sessions() as session:
            rows = (
                await session.execute(select(Game.id, Game.seq).where(Game.id.in_(sorted(live))))
            ).all()
        for gid, seq in rows:
            rt = live[gid]
            if seq <= rt.seq or rt.inbox:  # up to date, or its messages queued
                rt.lag_seen = None
            elif rt.lag_seen != rt.seq:
                rt.lag_seen = rt.seq
            else:
                log.warning("game %s: bus behind the log (%s < %s): catching up", gid, rt.seq, seq)
                rt.lag_seen = None
                await self.catch_up(rt)

    async def _reconcile_loop(self, period: float = 1.0) -> None:
        while True:
            await asyncio.sleep(period)
            try:
                await self.reconcile()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("reconcile failed")

    async def _evict_loop(self, quiet: float) -> None:
        """Drop the games idle for ``quiet`` seconds (``Registry.evict_idle``: memory only,
        no database write, no game lock); they reload from their snapshot on next use."""
        while True:
            await asyncio.sleep(max(1.0, min(quiet / 4, 30.0)))
            dropped = self.registry.evict_idle(quiet)
            if dropped:
                log.info("%d idle games dropped from memory", len(dropped))
