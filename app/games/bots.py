"""Server bots: the engine's random bot plays bot-held seats, stands in for absent players,
and exactly one worker drives a given game's bots.

* **Driving.** A game's bots are driven by the worker holding its *bot lease*
  (``games.bot_owner`` / ``games.bot_lease_until``, taken with a conditional UPDATE: the
  database is the arbiter between workers).  The driver submits each bot move through
  the session service exactly like a human action (same engine call, same durable log append, same
  broadcast), renews the lease while it plays and releases it when no bot is to act.
* **Presence.** Every worker stamps ``seats.last_seen`` for the identities connected to
  it (on connect, then every ``BOT_GRACE_SECONDS / 3``).  A periodic sweep (any worker;
  the UPDATE is conditional) hands the seats of a live game whose holder has not been
  seen for ``BOT_GRACE_SECONDS`` to a bot stand-in (``bot_reason = "away"``, the identity
  is kept); when that identity connects again it takes its seats back at once.
* The sweep also restarts the bots of live games whose lease expired (a worker died).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from functools import partial
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, or_, select, tuple_, update

from ..engine_api import (
    EngineError,
    Ruleset,
    bot_action,
    bot_for,
    bot_levels,
    bot_process,
    stand_in_modes,
)
from ..models import Game, Seat, utcnow
from ..tutorial import lesson_move

if TYPE_CHECKING:
    from .sessions import GameSessions
    from .runtime import GameRuntime

log = logging.getLogger("app.bots")


def choose_bot_action(
    rs: Ruleset, state: Any, seat: str, salt: int, level: str | None = None
) -> dict[str, Any] | None:
    """The engine's bot at ``level`` (``app.engine_api.bot_for``) over the game's ruleset,
    computed here: the server calls it for ``random`` only (instant; :func:`think` sends
    every other level to the bot process pool); the server adds no rule.  The bot decides,
    then confirms, never taking a decision back (``engine.bot.decisive``); ``BOT_DELAY``
    paces its moves (:meth:`BotDriver._play`)."""
    if not rs.legal_actions(state, seat):
        return None
    return bot_for(level, salt, rs).choose(state, seat)


_POOL: ProcessPoolExecutor | None = None


def bot_pool(workers: int) -> ProcessPoolExecutor:
    """The processes computer players think in (``BOT_WORKERS`` of them, started on first
    use, ``spawn``: no copy of the server's threads and sockets), at the lowest CPU
    priority: where they share cores with the worker, its sockets go first (issue 38's
    goal, the other games' p99 while bots think: docs/performance.md "With bots")."""
    global _POOL
    if _POOL is None:
        _POOL = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=bot_process,
            initargs=(os.getpid(),),
        )
    return _POOL


def close_bot_pool() -> None:
    global _POOL
    if _POOL is not None:
        _POOL.shutdown(wait=False, cancel_futures=True)
        _POOL = None


def seat_level(seat_state: Any, default: str) -> str:
    """The level of a bot seat: its own (``bot_level``, when the seat stores one and it is
    a known level), else ``default`` (``BOT_LEVEL``)."""
    level = getattr(seat_state, "bot_level", None)
    return level if level in bot_levels() else default


async def think(
    rt: GameRuntime, state: Any, seat: str, salt: int, level: str, workers: int
) -> dict[str, Any] | None:
    """A computer player's action (``engine.ai`` at ``level``) in the game of ``rt`` at
    ``state``, computed in the bot process pool so that the event loop keeps serving every
    other game meanwhile; ``random`` is chosen here (it costs nothing).  The pool gets the
    state as the ruleset saves it and the scenario's text (cheap to send; a pickled
    scenario costs the server 1-4 ms a move)."""
    rs = rt.rs
    if level == "random" or level not in bot_levels():
        return choose_bot_action(rs, state, seat, salt, "random")
    loop = asyncio.get_running_loop()
    args = (rs.name, rs.dump_state(state), rt.scenario_text, seat, level, salt)
    try:
        return await loop.run_in_executor(bot_pool(workers), bot_action, *args)
    except BrokenProcessPool:  # a pool process died (killed, out of memory)
        log.warning("the bot process pool broke; starting a new one")
        close_bot_pool()
        return await loop.run_in_executor(bot_pool(workers), bot_action, *args)


def bot_to_act(rt: GameRuntime, max_seq: int = 0) -> str | None:
    """The first bot seat the engine waits for (None: no bot is to act, or the log has
    reached ``max_seq`` entries when that is set)."""
    if rt.status != "live" or (max_seq and rt.seq >= max_seq):
        return None
    bots = {s.seat for s in rt.seats.values() if s.is_bot}
    if not bots:
        return None
    return next((s for s in rt.rs.to_act(rt.state) if s in bots), None)


LEASE_SECONDS = 10.0  # a worker's claim on driving one game's bots (renewed at half)


class BotDriver:
    def __init__(self, games: GameSessions) -> None:
        self.games = games
        self.worker = games.worker
        self.task: asyncio.Task[None] | None = None
        self._beat_at = float("-inf")  # loop time of the last presence heartbeat

    @property
    def grace(self) -> float:
        return float(self.games.settings.bot_grace_seconds)

    @property
    def max_seq(self) -> int:
        return int(self.games.settings.bot_max_seq)

    @property
    def lease(self) -> float:
        return LEASE_SECONDS

    async def start(self) -> None:
        self.task = asyncio.create_task(self._sweep_loop(), name="bot-sweep")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
        close_bot_pool()

    # -- the lease -------------------------------------------------------------------------
    async def _acquire(self, game_id: str) -> bool:
        now = utcnow()
        taken = await self.games.db.execute_write(
            update(Game)
            .where(
                Game.id == game_id,
                or_(
                    Game.bot_owner.is_(None),
                    Game.bot_owner == self.worker,
                    Game.bot_lease_until < now,
                ),
            )
            .values(bot_owner=self.worker, bot_lease_until=now + timedelta(seconds=self.lease))
        )
        return bool(taken)

    async def _release(self, game_id: str) -> None:
        with contextlib.suppress(Exception):
            await self.games.db.execute_write(
                update(Game)
                .where(Game.id == game_id, Game.bot_owner == self.worker)
                .values(bot_owner=None, bot_lease_until=None)
            )

    # -- driving ---------------------------------------------------------------------------
    async def kick(self, game_id: str) -> None:
        """After a seat change or a creation with bots: drive the game's bots if any is to
        act (loads the game on this worker; the lease keeps it to one driver)."""
        try:
            rt = await self.games.registry.get(game_id)
            async with self.games.db.sessions() as session:
                await rt.refresh_seats(session)
        except Exception:
            log.exception("could not load game %s for its bots", game_id)
            return
        self.schedule(rt)

    async def notice(self, rt: GameRuntime, msg: dict[str, Any]) -> None:
        """A bus notice: changed seats (one handed to a bot) may give a bot its turn."""
        if msg.get("kind") == "seats":
            self.schedule(rt)

    def schedule(self, rt: GameRuntime) -> None:
        if rt.bot_task is not None and not rt.bot_task.done():
            return
        if bot_to_act(rt, self.max_seq) is None:
            return
        rt.bot_task = asyncio.create_task(self._drive(rt))

    async def _drive(self, rt: GameRuntime) -> None:
        try:
            while bot_to_act(rt, self.max_seq) is not None:
                if not await self._acquire(rt.game_id):
                    return  # another worker drives this game's bots
                try:
                    await self._play(rt)
                finally:
                    await self._release(rt.game_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot driver failed in game %s", rt.game_id)

    async def _play(self, rt: GameRuntime) -> None:
        loop = asyncio.get_running_loop()
        renew_at = loop.time() + self.lease / 2
        delay = self.games.settings.bot_delay
        for _ in range(100_000):
            await asyncio.sleep(delay)
            async with rt.lock:
                seat = bot_to_act(rt, self.max_seq)
                if seat is None:
                    return
                seq, state = rt.seq, rt.state
                level = seat_level(rt.seats.get(seat), self.games.settings.bot_level)
            try:  # thinks outside the game's lock; a stale seq is refused below
                action = lesson_move(rt.scenario_id, partial(rt.rs.legal_actions, state, seat))
                action = action or await think(
                    rt, state, seat, seq, level, self.games.settings.bot_workers
                )
            except EngineError:
                log.exception("bot could not choose in game %s", rt.game_id)
                return
            if action is None:
                return
            if loop.time() >= renew_at:
                if not await self._acquire(rt.game_id):
                    return
                renew_at = loop.time() + self.lease / 2
            out = await self.games.submit(rt, seat, seq, action)
            if not out.ok and out.code != "stale_seq":
                log.warning("bot action rejected in %s: %s", rt.game_id, out.code)
                return

    # -- presence and stand-ins ------------------------------------------------------------
    async def present(self, rt: GameRuntime, identity_id: str | None) -> None:
        """An identity connected: stamp it, and take its seats back from a stand-in bot."""
        if identity_id is None or not rt.seats_of(identity_id):
            return
        db = self.games.db
        async with db.writing() as s:
            await s.execute(
                update(Seat)
                .where(Seat.game_id == rt.game_id, Seat.identity_id == identity_id)
                .values(last_seen=utcnow())
                .execution_options(synchronize_session=False)
            )
            res = await s.execute(
                update(Seat)
                .where(
                    Seat.game_id == rt.game_id,
                    Seat.identity_id == identity_id,
                    Seat.is_bot.is_(True),
                    Seat.bot_reason == "away",
                )
                .values(is_bot=False, bot_reason=None)
                .execution_options(synchronize_session=False)
            )
            await s.commit()
            back = bool(res.rowcount)  # type: ignore[attr-defined]
        if back:
            await self.games.seats_changed(rt.game_id)

    async def _heartbeat(self) -> None:
        """``last_seen`` of every seated identity connected to this worker: ONE UPDATE for
        all its games (was one per game under the write lock: a stall of the hot path
        that grew with the number of games)."""
        loop = asyncio.get_running_loop()
        if loop.time() - self._beat_at < self.grace / 3:
            return  # presence is written every BOT_GRACE_SECONDS / 3
        self._beat_at = loop.time()
        pairs: set[tuple[str, str]] = set()
        for rt in list(self.games.registry.runtimes.values()):
            for c in list(rt.connections):
                if c.identity_id is not None and not c.closed and c.seats:
                    pairs.add((rt.game_id, c.identity_id))
        if not pairs:
            return
        db = self.games.db
        now = utcnow()
        ordered = sorted(pairs)
        async with db.writing() as s:
            for i in range(0, len(ordered), 500):
                await s.execute(
                    update(Seat)
                    .where(tuple_(Seat.game_id, Seat.identity_id).in_(ordered[i : i + 500]))
                    .values(last_seen=now)
                    .execution_options(synchronize_session=False)
                )
            await s.commit()

    async def _take_over_absent(self) -> None:
        cutoff = utcnow() - timedelta(seconds=self.grace)
        standing_in = stand_in_modes()  # the rulesets' modes with stand-in bots
        if not standing_in:
            return
        db = self.games.db
        async with db.sessions() as s:
            rows = (
                await s.execute(
                    select(Seat.id, Seat.game_id)
                    .join(Game, Game.id == Seat.game_id)
                    .where(
                        Game.status == "live",
                        or_(
                            *(
                                and_(Game.ruleset == name, Game.mode.in_(modes))
                                for name, modes in standing_in.items()
                            )
                        ),
                        Seat.is_bot.is_(False),
                        Seat.identity_id.is_not(None),
                        Seat.last_seen < cutoff,
                    )
                )
            ).all()
        if not rows:
            return
        changed: set[str] = set()
        async with db.writing() as s:
            for seat_id, game_id in rows:
                res = await s.execute(
                    update(Seat)
                    .where(Seat.id == seat_id, Seat.is_bot.is_(False), Seat.last_seen < cutoff)
                    .values(is_bot=True, bot_reason="away")
                    .execution_options(synchronize_session=False)
                )
                if res.rowcount:  # type: ignore[attr-defined]
                    changed.add(game_id)
            await s.commit()
        for game_id in sorted(changed):
            log.info("game %s: absent players' seats handed to bots", game_id)
            self.games.registry.evicted.pop(game_id, None)  # its bots may play now
            await self.games.seats_changed(game_id)

    async def _orphans(self) -> None:
        """Live games with bot seats and no valid lease: make sure someone drives them."""
        now = utcnow()
        async with self.games.db.sessions() as s:
            rows = (
                await s.execute(
                    select(Game.id, Game.seq)
                    .where(
                        Game.status == "live",
                        or_(Game.bot_lease_until.is_(None), Game.bot_lease_until < now),
                        Game.id.in_(select(Seat.game_id).where(Seat.is_bot.is_(True))),
                    )
                    .limit(200)
                )
            ).all()
        registry = self.games.registry
        for game_id, seq in rows:
            rt = registry.cached(game_id)
            if rt is None and registry.evicted.get(game_id) == seq:
                continue  # dropped idle with no bot to act, and nothing since
            if rt is None:
                try:
                    rt = await self.games.registry.get(game_id)
                except Exception:
                    continue
            self.schedule(rt)

    async def _sweep_loop(self) -> None:
        """Each step at its own pace: the heartbeat every ``grace / 3`` (its own check),
        the absent players' take-over every ``grace / 12`` (a seat goes to its bot at most
        ~8 % after the grace) and the orphans every ``lease / 2`` (a dead worker's games
        are driven again within 1.5 leases).  Both are scans of the live games: at every
        tick (2 s) they cost ~5 % of a worker's CPU at 100 live games and a few ms of
        stall each time."""
        tick = max(0.2, min(self.grace / 3, 2.0))
        every = {
            self._heartbeat: tick,
            self._take_over_absent: max(tick, self.grace / 12),
            self._orphans: max(tick, self.lease / 2),
        }
        loop = asyncio.get_running_loop()
        last = dict.fromkeys(every, float("-inf"))
        while True:
            await asyncio.sleep(tick)
            for step, period in every.items():
                if loop.time() - last[step] < period - tick / 2:
                    continue
                last[step] = loop.time()
                try:
                    await step()
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("bot sweep step %s failed", step.__name__)
