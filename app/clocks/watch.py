"""The clock watch: every second, the timed games this worker has loaded are
checked for a side out of time (``app/clocks/service.py``); every few seconds the live
timed games of the database are loaded, so a clock runs out even when nobody watches
(after a restart too)."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from sqlalchemy import Text, cast, select

from ..models import Game
from .service import expired

if TYPE_CHECKING:
    from ..games.sessions import GameSessions

log = logging.getLogger("app.clocks")


async def _load_timed(games: GameSessions) -> None:
    async with games.db.sessions() as s:
        # an untimed game's ``clock`` is a JSON null (not SQL NULL): without the text
        # test every worker loaded every live game and followed all their batches
        ids = (
            (
                await s.execute(
                    select(Game.id)
                    .where(
                        Game.status == "live",
                        Game.clock.is_not(None),
                        cast(Game.clock, Text) != "null",
                    )
                    .limit(500)
                )
            )
            .scalars()
            .all()
        )
    for gid in ids:
        if games.registry.cached(gid) is None:
            try:
                await games.registry.get(gid)
            except Exception:
                log.exception("could not load timed game %s", gid)


async def check(games: GameSessions) -> None:
    from ..games.bots import think

    for rt in list(games.registry.runtimes.values()):
        if rt.clock is None or rt.lock.locked():
            continue
        seats = expired(rt)
        if not seats:
            continue
        seat = seats[0]
        if rt.clock.cfg.get("on_timeout") == "bot":
            seq = rt.seq
            level = rt.clock.cfg.get("bot_level") or games.settings.bot_level
            action = await think(rt, rt.state, seat, seq, level, games.settings.bot_workers)
            if action is not None and rt.seq == seq:
                await games.submit(rt, seat, seq, action, forced=True)
        else:
            out = await games.submit_meta(rt, seat, {"type": "timeout"})
            if out.ok:
                log.info("game %s: %s ran out of time", rt.game_id, seat)


async def loop(games: GameSessions, period: float = 1.0) -> None:
    last_load = 0.0
    while True:
        await asyncio.sleep(period)
        try:
            if time.monotonic() - last_load > 5.0:
                last_load = time.monotonic()
                await _load_timed(games)
            await check(games)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("clock watch failed")
