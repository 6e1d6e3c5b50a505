"""The per-process hub: live games, their connections, and fan-out.

Every accepted batch is committed first, then delivered to this worker's connections and
published on the bus; other workers' subscribers bring their cached state up to date
(re-applying the logged actions, or reading the log) and redact per seat for their own
connections.  Payloads are computed once per distinct seat and shared by all the
connections of that seat (e.g. every spectator).
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any

from ..chat import service as chat_service
from ..chat.policy import channels as chat_channels
from ..chat.policy import Actor, closed_reasons, may_read
from ..db import Database
from ..engine_api import E, EngineError
from ..games import play
from ..games.runtime import Batch, GameRuntime, Registry
from ..models import Identity
from ..pubsub import PubSub, channel_for, game_of
from ..settings import Settings
from .connection import Connection, dumps, loads

log = logging.getLogger("app.hub")

PROTOCOL = 1


class Hub:
    def __init__(self, settings: Settings, db: Database, pubsub: PubSub) -> None:
        self.settings = settings
        self.db = db
        self.pubsub = pubsub
        self.registry = Registry(db.sessions)
        self._tasks: set[asyncio.Task[Any]] = set()

    async def start(self) -> None:
        await self.pubsub.start(self._on_message)

    async def stop(self) -> None:
        for rt in list(self.registry.runtimes.values()):
            for conn in list(rt.connections):
                conn.close(1012, "server shutting down")
        for t in list(self._tasks):
            t.cancel()
        await self.pubsub.close()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- payloads ------------------------------------------------------------------------
    def _legal(self, state: Any, seat: str | None) -> list[dict[str, Any]]:
        return list(E.legal_actions(state, seat)) if seat is not None else []

    def _status(self, rt: GameRuntime) -> str:
        return rt.status

    def hello(self, rt: GameRuntime, conn: Connection, chat: list[dict[str, Any]]) -> dict[str, Any]:
        view = E.view_for(rt.state, conn.seat)
        seat_triples = [(s.seat, s.side, s.role) for s in rt.seats.values()]
        s = self.settings
        return {
            "type": "hello", "protocol": PROTOCOL, "game_id": rt.game_id, "seq": rt.seq,
            "seat": conn.seat, "side": conn.side, "role": conn.role,
            "identity": {"id": conn.identity_id, "name": conn.name} if conn.identity_id else None,
            "status": self._status(rt), "mode": rt.mode, "scenario_name": rt.scenario_name,
            "seats": rt.seats_public(conn.identity_id),
            "board": rt.board, "view": view, "legal": self._legal(rt.state, conn.seat),
            "chat_channels": self._chat_channels(conn.actor, seat_triples, view),
            "chat": chat,
            "limits": {"max_message_bytes": s.ws_max_message_bytes,
                       "rate_per_second": s.ws_rate_per_second, "burst": s.ws_burst},
        }

    @staticmethod
    def _chat_channels(actor: Actor, seat_triples: list[tuple[str, str, str]],
                       view: dict[str, Any] | None) -> dict[str, Any]:
        ch: dict[str, Any] = chat_channels(actor, seat_triples, view)
        ch["closed"] = closed_reasons(actor, ch["read"], ch["write"], view)
        return ch

    def _seat_chat(self, state: Any, seat: str | None, view: dict[str, Any]) -> dict[str, Any]:
        """A seated connection's channels after a change of state (the Overlord chain of
        command opens and closes lines per turn); {} for spectators (theirs never change)."""
        if seat is None:
            return {}
        triples = []
        for s in E.seats(state):
            side, _, role = s.partition(":")
            triples.append((s, side, role or "commander"))
        me = next((t for t in triples if t[0] == seat), (seat, seat, "commander"))
        actor = Actor(seat=seat, side=me[1], role=me[2], identified=True)
        return {"chat_channels": self._chat_channels(actor, triples, view)}

    def sync_msg(self, rt: GameRuntime, seat: str | None, me: str | None) -> dict[str, Any]:
        view = E.view_for(rt.state, seat)
        return {"type": "sync", "seq": rt.seq, "view": view,
                "legal": self._legal(rt.state, seat), "status": self._status(rt),
                "seats": rt.seats_public(me), **self._seat_chat(rt.state, seat, view)}

    def update_msg(self, batches: list[Batch], seat: str | None, status: str) -> dict[str, Any]:
        last = batches[-1]
        state = last.state
        if state is None:        # only delivered, superseded batches drop their state
            raise RuntimeError("update of a batch whose state was dropped")
        events: list[dict[str, Any]] = []
        for b in batches:
            events.extend(E.events_for(b.events, seat))
        view = E.view_for(state, seat)
        return {"type": "update", "first_seq": batches[0].first_seq, "seq": last.seq,
                "actor": batches[0].actor if len(batches) == 1 else None,
                "events": events, "view": view,
                "legal": self._legal(state, seat), "status": status,
                **self._seat_chat(state, seat, view)}

    # -- connections ---------------------------------------------------------------------
    def bind(self, rt: GameRuntime, conn: Connection, identity: Identity | None,
             seat: str | None) -> str | None:
        """Bind the connection to the identity's seat; returns an error code or None."""
        conn.identity_id = identity.id if identity else None
        conn.name = identity.name if identity else None
        conn.seat = conn.side = conn.role = None
        if identity is None:
            return None
        mine = rt.seats_of(identity.id)
        if seat is not None and seat not in mine:
            return "not_seated"
        chosen = seat if seat is not None else (mine[0] if mine else None)
        if chosen is not None:
            info = rt.seats[chosen]
            conn.seat, conn.side, conn.role = info.seat, info.side, info.role
        return None

    async def attach(self, rt: GameRuntime, conn: Connection, since: int | None) -> None:
        """Send ``hello`` (+ the missed events after ``since``) and start deliveries."""
        async with self.db.sessions() as session:
            view0 = None
            seat_chans = chat_channels(conn.actor, [(s.seat, s.side, s.role) for s in rt.seats.values()])
            msgs = await chat_service.history(session, rt.game_id, conn.actor, seat_chans["read"], view0, 50)
        chat = [chat_service.to_wire(m) for m in msgs]
        async with rt.lock:
            conn.send_json(self.hello(rt, conn, chat))
            if since is not None and 0 <= since < rt.seq:
                batches = rt.batches_since(since)
                if batches:
                    conn.send_json(self.update_msg(batches, conn.seat, self._status(rt)))
            conn.seq = rt.seq
            rt.connections.add(conn)

    def detach(self, rt: GameRuntime, conn: Connection) -> None:
        rt.connections.discard(conn)

    async def resync(self, rt: GameRuntime, conn: Connection, since: int | None) -> None:
        async with rt.lock:
            batches = rt.batches_since(since) if since is not None and 0 <= since <= rt.seq else None
            if batches:
                conn.send_json(self.update_msg(batches, conn.seat, self._status(rt)))
            else:
                conn.send_json(self.sync_msg(rt, conn.seat, conn.identity_id))
            conn.seq = rt.seq

    # -- delivery ------------------------------------------------------------------------
    def _deliver(self, rt: GameRuntime) -> None:
        """Send every committed batch not yet delivered to this worker's connections
        (caller holds ``rt.lock``)."""
        while rt.delivered_seq < rt.seq:
            batch = rt.batch_from(rt.delivered_seq + 1)
            if batch is None:                       # a gap we cannot describe: full views
                self._broadcast_sync(rt)
                rt.delivered_seq = rt.seq
                return
            status = self._status(rt) if batch.seq == rt.seq else "live"
            cache: dict[str | None, str] = {}
            for conn in list(rt.connections):
                if conn.closed:
                    rt.connections.discard(conn)
                    continue
                if conn.seq >= batch.seq:
                    continue
                text = cache.get(conn.seat)
                if text is None:
                    text = cache[conn.seat] = dumps(self.update_msg([batch], conn.seat, status))
                conn.send(text)
                conn.seq = batch.seq
            rt.delivered_seq = batch.seq
            if batch.seq != rt.seq:
                batch.state = None      # delivered: keep the events only (catch-up)

    def _broadcast_sync(self, rt: GameRuntime) -> None:
        cache: dict[tuple[str | None, str | None], str] = {}
        for conn in list(rt.connections):
            key = (conn.seat, conn.identity_id)
            text = cache.get(key)
            if text is None:
                text = cache[key] = dumps(self.sync_msg(rt, conn.seat, conn.identity_id))
            conn.send(text)
            conn.seq = rt.seq

    # -- actions -------------------------------------------------------------------------
    async def submit(self, rt: GameRuntime, conn: Connection | None, seat: str, expected_seq: int,
                     action: dict[str, Any], msg_id: Any = None,
                     identity_id: str | None = None) -> play.Outcome:
        async with rt.lock:
            info = rt.seats.get(seat)
            if info is None or (conn is not None and info.identity_id != identity_id):
                out = play.Outcome.reject(rt.seq, "not_seated", f"you do not hold seat {seat}")
            elif conn is None and not info.is_bot:
                out = play.Outcome.reject(rt.seq, "not_seated", f"seat {seat} is not a bot")
            else:
                out = await play.submit(self.db, rt, seat, expected_seq, action,
                                        self.settings.snapshot_every)
            if out.ok and out.batch is not None and not self.pubsub.local_only:
                # committed: other workers hear of it first (written to the bus before our
                # own redaction; in seq order, since the next action of this game needs
                # this lock)
                b = out.batch
                await self._publish(rt.game_id, {"kind": "batch", "first_seq": b.first_seq,
                                                 "seq": b.seq, "actor": b.actor,
                                                 "entries": out.entries})
            if conn is not None:
                if out.ok:
                    conn.send_json({"type": "ack", "id": msg_id, "seq": out.seq})
                else:
                    conn.send_json({"type": "reject", "id": msg_id, "code": out.code,
                                    "message": out.message, "seq": out.seq, "details": out.details})
                    if out.code == "stale_seq":
                        conn.send_json(self.sync_msg(rt, conn.seat, conn.identity_id))
                        conn.seq = rt.seq
            self._deliver(rt)
        if out.ok and out.batch is not None:
            if out.snapshot is not None:
                self._spawn(play.write_snapshot(self.db, rt.game_id, out.seq, out.snapshot))
            self.schedule_bots(rt)
        return out

    async def _publish(self, game_id: str, msg: dict[str, Any]) -> None:
        try:
            await self.pubsub.publish(channel_for(game_id), dumps(msg).encode())
        except Exception:
            log.exception("publish failed for game %s", game_id)

    # -- bots ----------------------------------------------------------------------------
    def schedule_bots(self, rt: GameRuntime) -> None:
        if rt.bot_task is not None and not rt.bot_task.done():
            return
        bots = [s for s in rt.seats.values() if s.is_bot]
        if not bots or rt.status != "live":
            return
        rt.bot_task = asyncio.create_task(self._run_bots(rt))

    async def _run_bots(self, rt: GameRuntime) -> None:
        await asyncio.sleep(self.settings.bot_delay)
        for _ in range(10_000):
            async with rt.lock:
                bot_seats = [s.seat for s in rt.seats.values() if s.is_bot]
                acting = [s for s in E.to_act(rt.state) if s in bot_seats]
                if not acting or rt.status != "live":
                    return
                seat, seq = acting[0], rt.seq
                try:
                    action = choose_bot_action(rt.state, seat, rt.seq)
                except EngineError:
                    log.exception("bot could not choose in game %s", rt.game_id)
                    return
            if action is None:
                return
            out = await self.submit(rt, None, seat, seq, action)
            if not out.ok and out.code != "stale_seq":
                log.warning("bot action rejected in %s: %s", rt.game_id, out.code)
                return
            await asyncio.sleep(self.settings.bot_delay)

    # -- bus -----------------------------------------------------------------------------
    async def seats_changed(self, game_id: str) -> None:
        await self._publish(game_id, {"kind": "seats"})

    async def chat_posted(self, game_id: str, message: dict[str, Any]) -> None:
        await self._publish(game_id, {"kind": "chat", "message": message})

    async def _on_message(self, channel: str, data: bytes) -> None:
        game_id = game_of(channel)
        rt = self.registry.cached(game_id)
        if rt is None:
            return
        msg = loads(data)
        kind = msg.get("kind")
        if kind == "batch":
            async with rt.lock:
                if msg["seq"] > rt.seq:
                    if msg["first_seq"] == rt.seq + 1:
                        rt.apply_remote(msg["first_seq"], msg["actor"],
                                        [(s, a) for s, a in msg["entries"]])
                    else:
                        async with self.db.sessions() as session:
                            await rt.catch_up(session)
                self._deliver(rt)
        elif kind == "seats":
            rebound: list[Connection] = []
            async with rt.lock:
                async with self.db.sessions() as session:
                    await rt.refresh_seats(session)
                status = rt.status
                for conn in list(rt.connections):
                    before = conn.seat
                    if conn.seat is not None and rt.seats[conn.seat].identity_id != conn.identity_id:
                        conn.seat = conn.side = conn.role = None      # left the seat: spectator
                    if conn.seat is None and conn.identity_id and rt.seats_of(conn.identity_id):
                        info = rt.seats[rt.seats_of(conn.identity_id)[0]]   # claimed: now a player
                        conn.seat, conn.side, conn.role = info.seat, info.side, info.role
                    if conn.seat != before:
                        rebound.append(conn)
                    conn.send_json({"type": "seats", "seats": rt.seats_public(conn.identity_id),
                                    "status": status})
            for conn in rebound:                 # a fresh hello for the new seat
                await self.attach(rt, conn, None)
            self.schedule_bots(rt)
        elif kind == "chat":
            m = msg["message"]
            for conn in list(rt.connections):
                if may_read(conn.actor, m["channel"]):
                    conn.send_json(m)


def choose_bot_action(state: Any, seat: str, salt: int) -> dict[str, Any] | None:
    """The engine's random bot (``engine.bot.RandomBot``); the server adds no rule."""
    from engine.bot import RandomBot

    if not E.legal_actions(state, seat):
        return None
    return RandomBot(salt).choose(state, seat)
