"""Presence: is each seat's player here?  ``online`` (a websocket of his identity is open,
on any worker), ``away`` (gone for less than the grace time), ``gone`` (longer: in 1v1
the opponent may claim the win or hand the seat to a bot; team and Overlord games hand
it to a bot by themselves, ``app/games/bots.py``), ``bot`` (a seat played by the server's
bot for nobody) or ``free``; plus the number of spectators.

Sources: this worker's connections, and ``seats.last_seen`` (stamped for connected
identities by every worker's heartbeat, and when the last connection of an identity on
a worker closes), so that every worker tells the same story.  Nothing here touches the
game: the outcome of an absence goes through the log (``engine.meta``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from sqlalchemy import select, update

from ..clocks.service import epoch
from ..models import Seat, utcnow
from ..jsontext import dumps

if TYPE_CHECKING:
    from .runtime import GameRuntime
    from .sessions import GameSessions

log = logging.getLogger("app.presence")


class Presence:
    def __init__(self, games: GameSessions) -> None:
        self.games = games
        self.last_seen: dict[str, dict[str, float]] = {}  # game -> identity -> epoch
        self.loaded: dict[str, float] = {}  # game -> first seen here
        self.spectators: dict[str, dict[str, int]] = {}  # game -> worker -> count
        self.sent: dict[str, Any] = {}  # game -> last broadcast
        self.left: dict[str, dict[str, float]] = {}  # game -> identity -> departure

    def forget(self, game_id: str) -> None:
        """The game left this worker's memory (``Registry.drop``): its presence too (a
        reload gives the absent the grace again, as a restart does)."""
        for table in (self.last_seen, self.loaded, self.spectators, self.sent, self.left):
            table.pop(game_id, None)

    @property
    def grace(self) -> float:
        return float(self.games.settings.bot_grace_seconds)

    @property
    def period(self) -> float:
        return max(0.2, min(self.grace / 3, 2.0))

    # -- sources ---------------------------------------------------------------------------
    def _local(self, rt: GameRuntime) -> tuple[set[str], int]:
        ids: set[str] = set()
        spectators = 0
        for c in list(rt.connections):
            if c.closed:
                continue
            if c.seats and c.identity_id:
                ids.add(c.identity_id)
            elif not c.seats:
                spectators += 1
        return ids, spectators

    async def refresh_many(self, game_ids: list[str]) -> None:
        """Read ``seats.last_seen`` of these games (the other workers' heartbeats): one
        query per 500 games (the presence loop, once per period for all the games with
        connections)."""
        for i in range(0, len(game_ids), 500):
            async with self.games.db.sessions() as s:
                rows = (
                    await s.execute(
                        select(Seat.game_id, Seat.identity_id, Seat.last_seen).where(
                            Seat.game_id.in_(game_ids[i : i + 500]), Seat.identity_id.is_not(None)
                        )
                    )
                ).all()
            for gid, ident, ts in rows:
                seen = self.last_seen.setdefault(gid, {})
                e = epoch(ts)
                if ident is not None and e is not None and e > seen.get(ident, 0.0):
                    seen[ident] = e

    def departed(self, game_id: str, identity_id: str, at: float) -> None:
        """An identity's last connection on some worker closed at ``at`` (here, or heard
        on the bus): its absence starts then, whatever the heartbeat said before."""
        self.left.setdefault(game_id, {})[identity_id] = at
        seen = self.last_seen.setdefault(game_id, {})
        seen[identity_id] = max(seen.get(identity_id, 0.0), at)

    async def stamp(self, game_id: str, identity_id: str) -> None:
        """The last connection of an identity on this worker closed: it was seen now."""
        now = time.time()
        self.last_seen.setdefault(game_id, {})[identity_id] = now
        db = self.games.db
        async with db.writing() as s:
            await s.execute(
                update(Seat)
                .where(Seat.game_id == game_id, Seat.identity_id == identity_id)
                .values(last_seen=utcnow())
                .execution_options(synchronize_session=False)
            )
            await s.commit()

    # -- the story ---------------------------------------------------------------------------
    def absent_for(
        self,
        rt: GameRuntime,
        identity_id: str,
        local: set[str] | None = None,
        now: float | None = None,
    ) -> float:
        """Seconds since the identity was last here (0: here now)."""
        now = time.time() if now is None else now
        if local is None:
            local = self._local(rt)[0]
        if identity_id in local:
            return 0.0
        seen = self.last_seen.get(rt.game_id, {}).get(identity_id)
        start = self.loaded.setdefault(rt.game_id, now)
        last = max(seen or 0.0, start)  # a restart gives the absent the grace again
        gone_at = self.left.get(rt.game_id, {}).get(identity_id)
        if (
            not self.games.bus.local_only
            and seen is not None
            and now - seen < 2.5 * self.period
            and (gone_at is None or seen > gone_at + 0.5 * self.period)
        ):
            return 0.0  # another worker's heartbeat: connected there
        return max(0.0, now - last)

    def seat_state(
        self, rt: GameRuntime, seat: str, local: set[str] | None = None, now: float | None = None
    ) -> tuple[str, float]:
        info = rt.seats[seat]
        if info.identity_id is None:
            return ("bot" if info.is_bot else "free"), 0.0
        away = self.absent_for(rt, info.identity_id, local, now)
        if away <= 0.0:
            return "online", 0.0
        return ("away" if away < self.grace else "gone"), away

    def snapshot(self, rt: GameRuntime) -> dict[str, Any]:
        local, spectators = self._local(rt)
        now = time.time()
        seats = []
        for seat, info in rt.seats.items():
            state, away = self.seat_state(rt, seat, local, now)
            seats.append(
                {"seat": seat, "state": state, "away_seconds": int(away), "bot": info.is_bot}
            )
        others = sum(
            n for w, n in self.spectators.get(rt.game_id, {}).items() if w != self.games.worker
        )
        return {"seats": seats, "spectators": spectators + others, "grace": int(self.grace)}

    def message(self, rt: GameRuntime) -> dict[str, Any]:
        return {"type": "presence", **self.snapshot(rt)}

    def changed(self, rt: GameRuntime, count: bool = True) -> dict[str, Any] | None:
        """The ``presence`` message if a seat's state changed since the last one, or
        (``count``) the spectator count."""
        msg = self.message(rt)
        seats = [(s["seat"], s["state"], s["bot"]) for s in msg["seats"]]
        prev = self.sent.get(rt.game_id)
        if prev is not None and prev[0] == seats and (not count or prev[1] == msg["spectators"]):
            return None
        self.sent[rt.game_id] = (seats, msg["spectators"])
        return msg

    def broadcast(self, rt: GameRuntime, force: bool = False, count: bool = False) -> None:
        """Send the ``presence`` message to the game's connections if a seat's state
        changed (``count``: or the spectator count; the presence loop's period batches
        the count, so N spectators joining cost N messages, not N squared), serialized
        once for all of them."""
        msg = self.changed(rt, count)
        if msg is None and force:
            msg = self.message(rt)
        if msg is None:
            return
        text = dumps(msg)  # serialised once for every socket
        for c in list(rt.connections):
            c.send(text)

    def gone_seats(self, rt: GameRuntime, side: str) -> list[str] | None:
        """The human seats of ``side`` when every one of them is ``gone`` (a stand-in bot
        playing for an absent holder counts as gone; so does a seat its player left once
        the game started: nobody is there to play it); None otherwise."""
        local = self._local(rt)[0]
        out = []
        for seat, info in rt.seats.items():
            if info.side != side or info.is_bot and info.identity_id is None:
                continue
            if info.identity_id is None:
                if not rt.started:
                    return None
                out.append(seat)
                continue
            state, _ = self.seat_state(rt, seat, local)
            if state != "gone":
                return None
            out.append(seat)
        return out or None

    SLICE = 50  # games per slice of the presence pass

    async def run(self) -> None:
        """Tell every game's connections when a seat goes away / gone / comes back (the
        states change with time alone) and the spectator count; in slices of ``SLICE``
        games, so the pass over every live game never holds the loop in one piece."""
        registry = self.games.registry
        while True:
            await asyncio.sleep(self.period)
            live = [r for r in list(registry.runtimes.values()) if r.connections]
            if live and not self.games.bus.local_only:  # other workers' heartbeats: one
                try:  # query for all these games
                    await self.refresh_many([r.game_id for r in live])
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("presence refresh failed")
            for i, rt in enumerate(live):
                if i and not i % self.SLICE:
                    await asyncio.sleep(0)  # actions waiting run between the slices
                try:
                    self.broadcast(rt, count=True)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("presence of game %s failed", rt.game_id)
