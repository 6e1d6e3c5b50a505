"""The per-process hub: live games, their connections, and fan-out.

Every accepted batch is committed first, then delivered to this worker's connections and
published on the bus; other workers' subscribers bring their cached state up to date
(re-applying the logged actions, or reading the log) and redact per seat for their own
connections.  Payloads are computed once per distinct seat and shared by all the
connections of that seat (e.g. every spectator).  A client reconnecting with ``since``
gets the events it missed from the batches in memory, or, on a worker that does not hold
them, rebuilt from the durable log (``games.service.logged_events``).
"""
from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from ..chat import service as chat_service
from ..chat.policy import Actor, channels_for, channels_of, may_read_any
from ..db import Database
from ..engine_api import CHANCE, Ruleset, view_parts_of
from ..games import play
from ..games import service as games_service
from ..games.bots import BotDriver
from ..clocks.service import clock_field
from ..clocks import watch as clock_watch
from ..games.presence import Presence
from ..games.modes import collective_sides
from ..games.redact import events_for_seats, legal_for_seats
from ..games.runtime import Batch, GameRuntime, Registry
from ..games.schemas import EventEntry
from ..models import Identity
from ..notifications.hooks import committed
from .. import ratelimit
from ..pubsub import PubSub, channel_for, game_of
from ..settings import Settings
from .connection import Connection, Encoded, dumps, loads, uncork_all
from .delta import PatchText, ViewParts

log = logging.getLogger("app.hub")

PROTOCOL = 1


_UNSURE = object()


class _View(NamedTuple):
    """The last view an audience was sent (the base of its next ``view_patch``: a whole
    view, or the :class:`ViewParts` of a delivery) and the ``chat_channels`` object that
    came with it (a patched update leaves them out while they are the same object:
    ``channels_of`` hands out one object per value; ``_UNSURE``: always send them)."""

    seq: int
    view: dict[str, Any] | ViewParts
    chat: Any = _UNSURE


class _Built:
    """One audience's ``update`` for one delivery: the message and the two texts (full
    view, view patch) built at most once each, with their frames (:class:`Encoded`: the
    same bytes for every socket of the audience).  The view is the delivery's
    :class:`ViewParts` (the audiences share its common part, so their patches share the
    diffs of it: ``PatchText``), made whole only for a full ``view``."""

    __slots__ = ("msg", "view", "_full", "_patched")

    def __init__(self, msg: dict[str, Any]) -> None:
        self.msg, self.view = msg, msg["view"]
        self._full: Encoded | None = None
        self._patched: Encoded | None = None

    def full(self) -> Encoded:
        if self._full is None:
            msg = self.msg
            if type(self.view) is ViewParts:
                msg = {**msg, "view": self.view.full()}
            self._full = Encoded(dumps(msg))
        return self._full

    def patched(self, prev: _View, texts: PatchText) -> Encoded:
        """The update with ``view_patch`` (its text spliced from the delivery's shared
        fragments) and without ``chat_channels`` when the audience's last view came with
        the same ones."""
        if self._patched is None:
            chat = self.msg.get("chat_channels", _UNSURE)
            msg = {k: v for k, v in self.msg.items()
                   if k != "view" and (k != "chat_channels" or chat is not prev.chat)}
            head = dumps(msg)
            self._patched = Encoded(f'{head[:-1]},"view_patch":{texts.patch(prev.view, self.view)}}}')
        return self._patched


@lru_cache(maxsize=256)
def _triples(seats: tuple[str, ...]) -> tuple[tuple[str, str, str], ...]:
    """(seat, side, role) of the engine's seat names ("AXIS:left"; a side's one seat is
    its commander)."""
    out = []
    for s in seats:
        side, _, role = s.partition(":")
        out.append((s, side, role or "commander"))
    return tuple(out)


class Hub:
    def __init__(self, settings: Settings, db: Database, pubsub: PubSub) -> None:
        self.settings = settings
        self.db = db
        self.pubsub = pubsub
        self.registry = Registry(db.sessions, settings.registry_capacity)
        self._tasks: set[asyncio.Task[Any]] = set()
        self.bots = BotDriver(self)
        self.presence = Presence(self)
        self.registry.on_drop = self.presence.forget    # a dropped game's presence too
        # this hub's batches on the bus say so first: its own echo is dropped unparsed
        self.origin = secrets.token_hex(6)
        self._own_batch = dumps({"kind": "batch", "origin": self.origin})[:-1].encode()
        # set when one worker owns each game (app/games/ownership.py): forget an idle
        # runtime of a game owned elsewhere rather than follow its batches
        self.shed: Callable[[GameRuntime], bool] | None = None

    async def start(self) -> None:
        await self.pubsub.start(self._on_message)
        await self.bots.start()
        self._spawn(self._presence_loop())
        self._spawn(clock_watch.loop(self))
        if self.settings.idle_evict_seconds > 0:
            self._spawn(self._evict_loop(self.settings.idle_evict_seconds))
        if not self.pubsub.local_only:              # other workers write: a lost bus
            self._spawn(self._reconcile_loop())     # message must not stall anyone

    async def stop(self) -> None:
        await self.bots.stop()
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
    @staticmethod
    def _legal(rs: Ruleset, state: Any, seat: str | None,
               seats: list[str] | None = None,
               acting: set[str] | None = None) -> list[dict[str, Any]]:
        """``acting``: ``to_act(state)`` when known (a seat not in it has no legal action:
        a protocol promise, engine/core/ruleset.py)."""
        if seats and len(seats) > 1:
            return legal_for_seats(rs, state, seats)
        if seats is not None and not seats:     # a spectator (maybe watching a side)
            return []
        if seat is None or (acting is not None and seat not in acting):
            return []
        return list(rs.legal_actions(state, seat))

    @staticmethod
    def _views(rs: Ruleset, state: Any, seats: list[str] | None,
               view: dict[str, Any]) -> dict[str, Any]:
        """Every held seat's own view, for an identity playing several role seats."""
        if not seats or len(seats) <= 1:
            return {}
        return {"views": {s: (view if i == 0 else rs.view_for(state, s))
                          for i, s in enumerate(seats)}}

    def _status(self, rt: GameRuntime) -> str:
        return rt.status

    def hello(self, rt: GameRuntime, conn: Connection, chat: list[dict[str, Any]]) -> dict[str, Any]:
        view = rt.rs.view_for(rt.state, conn.view_seat)
        seat_triples = [(s.seat, s.side, s.role) for s in rt.seats.values()]
        s = self.settings
        return {
            "type": "hello", "protocol": PROTOCOL, "game_id": rt.game_id, "seq": rt.seq,
            "seat": conn.seat, "side": conn.side, "role": conn.role, "my_seats": conn.seats,
            "watch": conn.watch_side,
            "identity": {"id": conn.identity_id, "name": conn.name} if conn.identity_id else None,
            "status": self._status(rt), "mode": rt.mode, "scenario_name": rt.scenario_name,
            "ruleset": rt.rs.name, "renderer": rt.rs.renderer,
            "ruleset_version": rt.ruleset_version, "fair_dice": rt.fair_dice(),
            "seats": rt.seats_public(conn.identity_id),
            "board": rt.board, "view": view,
            "legal": self._legal(rt.rs, rt.state, conn.seat, conn.seats),
            **self._views(rt.rs, rt.state, conn.seats, view),
            "chat_channels": self._chat_channels(conn.actors, seat_triples, view),
            "chat": chat, "presence": self.presence.snapshot(rt),
            **self._undo(rt, conn.seats), **clock_field(rt),
            "limits": {"max_message_bytes": s.ws_max_message_bytes,
                       "rate_per_second": s.ws_rate_per_second, "burst": s.ws_burst},
        }

    @staticmethod
    def _undo(rt: GameRuntime, seats: list[str] | None) -> dict[str, Any]:
        """``undo``: the seq an ``undo`` message would take back for the connection's
        seats (engine.meta: the engine decides), or null."""
        for s in seats or []:
            target = rt.fold.undo_target(s)
            if target is not None:
                return {"undo": target}
        return {"undo": None}

    @staticmethod
    def _chat_channels(actors: list[Actor], seat_triples: Any,
                       view: dict[str, Any] | None) -> dict[str, Any]:
        """``read``, ``write`` and ``closed`` (channel -> why it is not writable now): one
        shared read-only object per value (``channels_of``)."""
        return channels_of(actors, seat_triples, view)

    def _seat_chat(self, rs: Ruleset, state: Any, seat: str | None, view: dict[str, Any],
                   seats: list[str] | None = None,
                   chat: Sequence[Actor] | None = None,
                   triples: tuple[tuple[str, str, str], ...] | None = None) -> dict[str, Any]:
        """A seated connection's channels after a change of state (the Overlord chain of
        command opens and closes lines per turn); {} for spectators (theirs never change).
        ``chat``: the connection's chat actors (every seat of its identity,
        ``Connection.actors``); without them, one actor per seat of ``seats``.
        ``triples``: the state's ``_triples`` when known (once per delivery)."""
        if seat is None or (seats is not None and not seats):     # a (watching) spectator
            return {}
        if triples is None:
            triples = _triples(tuple(rs.seats(state)))
        actors: Any = chat
        if not actors:
            actors = []
            for held in seats or [seat]:
                me = next((t for t in triples if t[0] == held), (held, held, "commander"))
                actors.append(Actor(seat=held, side=me[1], role=me[2], identified=True))
        return {"chat_channels": self._chat_channels(actors, triples, view)}

    def sync_msg(self, rt: GameRuntime, seat: str | None, me: str | None,
                 seats: list[str] | None = None,
                 chat: Sequence[Actor] | None = None) -> dict[str, Any]:
        rs = rt.rs
        view = rs.view_for(rt.state, seat)
        return {"type": "sync", "seq": rt.seq, "view": view,
                "legal": self._legal(rs, rt.state, seat, seats), "status": self._status(rt),
                **self._views(rs, rt.state, seats, view),
                "seats": rt.seats_public(me),
                **self._seat_chat(rs, rt.state, seat, view, seats, chat),
                **self._undo(rt, seats or ([seat] if seat else [])), **clock_field(rt)}

    @staticmethod
    def _redact(rs: Ruleset, batches: list[Batch], seat: str | None,
                seats: list[str] | None) -> list[dict[str, Any]]:
        """The batches' events as this connection's seats may see them (the ruleset's
        ``events_for``; several held seats: ``events_for_seats``)."""
        events: list[dict[str, Any]] = []
        multi = seats is not None and len(seats) > 1
        for b in batches:
            events.extend(events_for_seats(rs, b.state, b.events, seats) if multi and seats
                          else rs.events_for(b.state, b.events, seat))
        return events

    def update_msg(self, rs: Ruleset, batches: list[Batch], seat: str | None, status: str,
                   seats: list[str] | None = None,
                   chat: Sequence[Actor] | None = None, rt: GameRuntime | None = None,
                   view: dict[str, Any] | None = None,
                   acting: set[str] | None = None,
                   triples: tuple[tuple[str, str, str], ...] | None = None,
                   clock: dict[str, Any] | None = None) -> dict[str, Any]:
        """``clock``: ``clock_field(rt)`` when known (once per delivery: the audiences'
        updates then share its object)."""
        last = batches[-1]
        if last.state is None:   # only delivered, superseded batches drop their state
            raise RuntimeError("update of a batch whose state was dropped")
        msg = self._update(rs, batches[0].first_seq, last.seq,
                           batches[0].actor if len(batches) == 1 else None,
                           self._redact(rs, batches, seat, seats), last.state, seat, status,
                           seats, chat, view, acting, triples)
        if rt is not None and last.seq == rt.seq:
            msg.update(self._undo(rt, seats or ([seat] if seat else [])),
                       **(clock_field(rt) if clock is None else clock))
        return msg

    def _update(self, rs: Ruleset, first_seq: int, seq: int, actor: str | None,
                events: list[dict[str, Any]], state: Any, seat: str | None, status: str,
                seats: list[str] | None, chat: Sequence[Actor] | None = None,
                view: dict[str, Any] | None = None,
                acting: set[str] | None = None,
                triples: tuple[tuple[str, str, str], ...] | None = None) -> dict[str, Any]:
        """An ``update`` of log entries ``first_seq..seq`` (``events`` already redacted;
        ``view``: ``seat``'s view of ``state`` when already computed)."""
        if view is None:
            view = rs.view_for(state, seat)
        return {"type": "update", "first_seq": first_seq, "seq": seq, "actor": actor,
                "events": events, "view": view, **self._views(rs, state, seats, view),
                "legal": self._legal(rs, state, seat, seats, acting), "status": status,
                **self._seat_chat(rs, state, seat, view, seats, chat, triples)}

    # -- catch-up after ``since`` ----------------------------------------------------------
    async def _rebuild(self, rt: GameRuntime, conn: Connection,
                       since: int | None) -> list[EventEntry] | None:
        """Before taking ``rt.lock``: when this worker does not hold the batches after
        ``since`` (another worker accepted them, or it loaded the game after them), the
        connection's missed events rebuilt from the durable log (``logged_events``, the code
        of ``GET /api/games/{id}/events``, redacted for its seats); None when the batches
        in memory suffice or rebuilding failed.  A ``since`` ahead of this worker first
        brings it up to the log (a bus message may still be on its way)."""
        if since is None or since < 0:
            return None
        if since > rt.seq:
            await self.catch_up(rt)
        if since >= rt.seq or rt.batches_since(since) is not None:
            return None
        # bounded: far behind, or rebuilding too often, gets the full view (a ``sync``)
        if rt.seq - since > self.settings.catchup_max_entries \
                or not ratelimit.hit(self.settings.catchup_rate, "catchup", conn.client):
            return None
        try:
            async with self.db.sessions() as session:
                game = await games_service.get_game(session, rt.game_id)
                _, entries = await games_service.logged_events(session, game, conn.seats, since,
                                                              conn.watch)
        except Exception:
            log.exception("game %s: cannot rebuild the events after seq %s", rt.game_id, since)
            return None
        return entries

    def _missed(self, rt: GameRuntime, conn: Connection, since: int,
                rebuilt: list[EventEntry] | None) -> dict[str, Any] | None:
        """Under ``rt.lock``: what a connection that saw ``since`` missed up to ``rt.seq``:
        one ``update`` in seq order (the batches in memory, or the ``rebuilt`` log entries
        followed by any batch accepted since), None when it missed nothing, a ``sync``
        only when the events cannot be told.  ``since`` must be in ``0..rt.seq``."""
        status = self._status(rt)
        if rt.seq - since > self.settings.catchup_max_entries:    # far behind: full view
            return self.sync_msg(rt, conn.seat, conn.identity_id, conn.seats)
        batches = rt.batches_since(since)
        if batches is not None:
            return self.update_msg(rt.rs, batches, conn.view_seat, status, conn.seats,
                                   conn.actors, rt) if batches else None
        entries = [e for e in rebuilt or [] if e.seq <= rt.seq]   # the log may be ahead
        upto = entries[-1].seq if entries else since
        tail = rt.batches_since(upto)
        if not entries or entries[0].seq != since + 1 or tail is None:
            return self.sync_msg(rt, conn.view_seat, conn.identity_id, conn.seats,
                                 conn.actors)
        events = [ev for e in entries for ev in e.events]
        events.extend(self._redact(rt.rs, tail, conn.view_seat, conn.seats))
        starts = [e.seat for e in entries if e.seat != CHANCE] + [b.actor for b in tail]
        actor = starts[0] if len(starts) == 1 and entries[0].seat != CHANCE else None
        msg = self._update(rt.rs, since + 1, rt.seq, actor, events, rt.state, conn.view_seat, status,
                           conn.seats, conn.actors)
        return {**msg, **self._undo(rt, conn.seats), **clock_field(rt)}

    @staticmethod
    def _since_error(rt: GameRuntime, conn: Connection, since: int) -> bool:
        """``error`` ``invalid_since`` for a ``since`` outside ``0..seq`` (True if sent)."""
        if 0 <= since <= rt.seq:
            return False
        conn.error("invalid_since", f"since {since} is not a seq of this game (0..{rt.seq})",
                   since=since, seq=rt.seq)
        return True

    # -- connections ---------------------------------------------------------------------
    def bind(self, rt: GameRuntime, conn: Connection, identity: Identity | None,
             seat: str | None) -> str | None:
        """Bind the connection to the identity's seat; returns an error code or None."""
        conn.identity_id = identity.id if identity else None
        conn.name = identity.name if identity else None
        conn.view_seq = -1                  # another audience maybe: its next view is full
        conn.seat = conn.side = conn.role = None
        conn.held, conn.pinned = [], False
        if identity is None:
            return None
        mine = rt.seats_of(identity.id)
        if mine:                        # a player never watches another side's board
            conn.watch = conn.watch_side = None
        if seat is not None and seat not in mine:
            return "not_seated"
        conn.pinned = seat is not None
        self._hold(rt, conn, [seat] if seat is not None else mine)
        return None

    @staticmethod
    def watch(rt: GameRuntime, conn: Connection, side: str | None) -> str | None:
        """A spectator watching one side's board (``?watch=SIDE``): views and events are
        redacted for the ruleset's ``spectator_seat(side)`` (004 Kriegspiel: that side's
        board).  Refused (an error code) for an identity holding a seat of the game, an
        unknown side, or a ruleset without spectator seats."""
        conn.watch = conn.watch_side = None
        conn.view_seq = -1                  # another audience maybe: its next view is full
        if side is None:
            return None
        make = getattr(rt.rs, "spectator_seat", None)
        if conn.held or (conn.identity_id and rt.seats_of(conn.identity_id)):
            return "watch_refused"
        if make is None or side not in {s.side for s in rt.seats.values()}:
            return "invalid_watch"
        conn.watch, conn.watch_side = make(side), side
        return None

    @staticmethod
    def _hold(rt: GameRuntime, conn: Connection, seats: list[str]) -> None:
        """Bind the connection to these seats (the first is its primary ``seat``); its chat
        speaks for every seat of its identity (:meth:`_chat_seats`)."""
        infos = [rt.seats[s] for s in seats]
        conn.held = [(i.seat, i.side, i.role) for i in infos]
        conn.view_seq = -1                  # another audience: its next view is full
        if infos:
            conn.seat, conn.side, conn.role = infos[0].seat, infos[0].side, infos[0].role
        else:
            conn.seat = conn.side = conn.role = None
        Hub._chat_seats(rt, conn)

    @staticmethod
    def _chat_seats(rt: GameRuntime, conn: Connection) -> None:
        """The chat policy is a function of ALL the seats the identity holds (002: whoever
        holds the C-in-C seat stays bound by the chain of command whichever of his seats
        he speaks from; a connection pinned with ``?seat=`` / ``auth`` ``seat`` changes
        the seat it acts for, never what it may say) and of the side's layout."""
        mine = rt.seats_of(conn.identity_id) if conn.identity_id else []
        conn.chat_held = [(i.seat, i.side, i.role) for i in (rt.seats[s] for s in mine)]
        conn.collective = collective_sides(rt.seats.values())

    def _rebind(self, rt: GameRuntime, conn: Connection) -> bool:
        """After a seat change: the seats this connection's identity now holds (a pinned
        connection keeps its one seat while the identity holds it); True if changed."""
        before = list(conn.seats)
        mine = rt.seats_of(conn.identity_id) if conn.identity_id else []
        if conn.pinned and before and before[0] in mine:
            Hub._chat_seats(rt, conn)
            return False
        conn.pinned = False
        if mine != before:
            self._hold(rt, conn, mine)
            return True
        return False

    async def attach(self, rt: GameRuntime, conn: Connection, since: int | None) -> None:
        """Send ``hello`` (+ one ``update`` with the missed events after ``since``) and
        start deliveries."""
        seat_chans = channels_for(conn.actors, [(s.seat, s.side, s.role) for s in rt.seats.values()])
        msgs = await self.db.read(chat_service.history_any, rt.game_id, conn.actors,
                                  seat_chans["read"], 50)
        chat = [chat_service.to_wire(m) for m in msgs]
        rebuilt = await self._rebuild(rt, conn, since)
        async with rt.lock:
            rt.connections.add(conn)         # counted in its own hello's presence
            self._send_view(rt, conn, self.hello(rt, conn, chat))
            if since is not None and not self._since_error(rt, conn, since):
                missed = self._missed(rt, conn, since, rebuilt)
                if missed is not None:
                    self._send_view(rt, conn, missed)
            conn.seq = rt.seq
            rt.connections.add(conn)
        self.presence.broadcast(rt)
        self._spectators_changed(rt)

    def detach(self, rt: GameRuntime, conn: Connection) -> None:
        rt.connections.discard(conn)
        rt.used = time.monotonic()          # idle (IDLE_EVICT_SECONDS) from the last one
        if conn.identity_id is not None:      # its absence starts now
            self.presence.departed(rt.game_id, conn.identity_id, time.time())
        self.presence.broadcast(rt)
        self._spectators_changed(rt)

    async def left(self, rt: GameRuntime, conn: Connection) -> None:
        """After ``detach``: the identity's last connection here closed: stamp it (its
        absence starts now, on every worker)."""
        ident = conn.identity_id
        if ident is None or not rt.seats_of(ident):
            return
        if any(c.identity_id == ident and not c.closed for c in rt.connections):
            return
        try:
            await self.presence.stamp(rt.game_id, ident)
        except Exception:
            log.exception("could not stamp the departure of %s", ident)
        self.presence.broadcast(rt)
        if not self.pubsub.local_only:          # the other workers' presence of this seat
            await self._publish(rt.game_id, {"kind": "left", "identity": ident,
                                             "at": time.time()})

    def _spectators_changed(self, rt: GameRuntime) -> None:
        if self.pubsub.local_only:
            return
        n = sum(1 for c in rt.connections if not c.seats and not c.closed)
        mine = self.presence.spectators.setdefault(rt.game_id, {})
        if mine.get(self.bots.worker) != n:
            mine[self.bots.worker] = n
            self._spawn(self._publish(rt.game_id, {"kind": "spectators",
                                                   "worker": self.bots.worker, "count": n}))

    PRESENCE_SLICE = 50     # games per slice of the presence pass

    async def _presence_loop(self) -> None:
        """Tell every game's connections when a seat goes away / gone / comes back (the
        states change with time alone) and the spectator count; in slices of
        ``PRESENCE_SLICE`` games, so the pass over every live game (~12 ms at 400 games)
        never holds the loop in one piece."""
        while True:
            await asyncio.sleep(self.presence.period)
            live = [r for r in list(self.registry.runtimes.values()) if r.connections]
            if live and not self.pubsub.local_only:     # other workers' heartbeats: one
                try:                                    # query for all these games
                    await self.presence.refresh_many([r.game_id for r in live])
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("presence refresh failed")
            for i, rt in enumerate(live):
                if i and not i % self.PRESENCE_SLICE:
                    await asyncio.sleep(0)      # actions waiting run between the slices
                try:
                    self.presence.broadcast(rt, count=True)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("presence of game %s failed", rt.game_id)

    async def _evict_loop(self, quiet: float) -> None:
        """Drop the games idle for ``quiet`` seconds (``Registry.evict_idle``: memory only,
        no database write, no game lock); they reload from their snapshot on next use."""
        while True:
            await asyncio.sleep(max(1.0, min(quiet / 4, 30.0)))
            dropped = self.registry.evict_idle(quiet)
            if dropped:
                log.info("%d idle games dropped from memory", len(dropped))

    async def submit_meta(self, rt: GameRuntime, conn: Connection | None, seat: str,
                          action: dict[str, Any], msg_id: Any = None) -> play.Outcome:
        return await self.submit(rt, conn, seat, rt.seq, action, msg_id, meta=True)

    async def resync(self, rt: GameRuntime, conn: Connection, since: int | None) -> None:
        """The ``update`` with the events after ``since`` (as on a reconnect), or a
        ``sync`` (no ``since``, nothing missed, or an ``invalid_since`` error before it)."""
        rebuilt = await self._rebuild(rt, conn, since)
        async with rt.lock:
            missed = None
            if since is not None and not self._since_error(rt, conn, since):
                missed = self._missed(rt, conn, since, rebuilt)
            self._send_view(rt, conn, missed if missed is not None
                            else self.sync_msg(rt, conn.view_seat, conn.identity_id, conn.seats,
                                               conn.actors))
            conn.seq = rt.seq

    # -- delivery ------------------------------------------------------------------------
    def _deliver(self, rt: GameRuntime) -> None:
        """Send every committed batch not yet delivered to this worker's connections, as
        ONE update per connection (a worker that fell behind redacts once per seat, not
        once per batch; caller holds ``rt.lock``).  One serialisation per audience (the
        connections of one seat, or all spectators) and per form: a connection that holds
        the audience's previous view gets ``view_patch`` (docs/protocol.md "View
        patches"), any other the full ``view``; the same text object is queued to every
        connection of the audience."""
        if rt.delivered_seq >= rt.seq:
            return
        batches = rt.batches_since(rt.delivered_seq)
        if not batches:                             # a gap we cannot describe: full views
            self._broadcast_sync(rt)
            rt.delivered_seq = rt.seq
            return
        status = self._status(rt)
        built: dict[tuple[Any, int], _Built] = {}
        texts = PatchText()
        rt.connections.difference_update([c for c in rt.connections if c.closed])
        todo = [c for c in rt.connections if c.seq < rt.seq]
        last = batches[-1].state
        want = list(dict.fromkeys(c.view_seat for c in todo))
        views: dict[str | None, ViewParts] = {}
        if last is not None:        # the shared part once, each seat's overlay apart
            common, overs = view_parts_of(rt.rs, last, want)
            views = {s: ViewParts(common, o) for s, o in zip(want, overs)}
        acting = set(rt.rs.to_act(last)) if last is not None else None
        triples = _triples(tuple(rt.rs.seats(last))) if last is not None else None
        clock = clock_field(rt)
        after: dict[int, list[Batch]] = {}          # conn.seq -> the batches after it
        # every socket's frame is written once all are built, in one burst: written as
        # each was built, each write woke a reader on this machine, which took this CPU
        # from the delivery (100 games: p99 median 10.3 -> 8.3 ms; docs/performance.md)
        for c in todo:
            c.cork()
        try:
            for conn in todo:
                mine = after.get(conn.seq)
                if mine is None:
                    mine = after[conn.seq] = [b for b in batches if b.seq > conn.seq]
                if not mine or mine[0].first_seq != conn.seq + 1:   # cannot happen: be safe
                    conn.send_json(self.sync_msg(rt, conn.view_seat, conn.identity_id, conn.seats,
                                                 conn.actors))
                    conn.seq = conn.view_seq = rt.seq
                    continue
                key = conn.view_key
                b = built.get((key, mine[0].first_seq))
                if b is None:
                    view: Any = views.get(conn.view_seat)
                    if view is not None and len(conn.held) > 1:     # its ``views``: whole
                        view = view.full()
                    b = built[(key, mine[0].first_seq)] = _Built(
                        self.update_msg(rt.rs, mine, conn.view_seat, status, conn.seats,
                                        conn.chat_actors, rt, view, acting, triples, clock))
                prev = rt.views.get(key)
                if conn.delta and len(conn.held) <= 1 and prev is not None and prev.seq == conn.view_seq:
                    conn.send(b.patched(prev, texts))
                else:
                    conn.send(b.full())
                conn.seq = conn.view_seq = rt.seq
        finally:            # the actor's cork (its ack) too: its frames join the burst
            uncork_all(todo)
        for (key, _first), b in built.items():
            rt.views[key] = _View(rt.seq, b.view, b.msg.get("chat_channels"))
        if len(rt.views) > 4 * len(built) + 16:     # audiences gone: forget their views
            keep = {c.view_key for c in rt.connections}
            rt.views = {k: v for k, v in rt.views.items() if k in keep}
        rt.delivered_seq = rt.seq
        for b_ in batches[:-1]:
            b_.state = None             # delivered: keep the events only (catch-up)

    @staticmethod
    def _send_view(rt: GameRuntime, conn: Connection, msg: dict[str, Any]) -> None:
        """Queue a message carrying the full view at ``rt.seq`` (hello, sync, catch-up
        update): later updates may patch that view."""
        conn.send_json(msg)
        view = msg.get("view")
        if view is None or msg.get("seq") != rt.seq:
            return
        conn.view_seq = rt.seq
        if len(conn.held) <= 1:
            cur = rt.views.get(conn.view_key)
            chat = msg.get("chat_channels")
            if cur is None or cur.seq != rt.seq:
                rt.views[conn.view_key] = _View(rt.seq, view, chat)
            elif cur.chat is not chat and cur.chat != chat:     # not what this one holds
                rt.views[conn.view_key] = cur._replace(chat=_UNSURE)

    def _broadcast_sync(self, rt: GameRuntime) -> None:
        cache: dict[tuple[Any, str | None], Encoded] = {}
        for conn in list(rt.connections):
            key = (conn.view_key, conn.identity_id)
            text = cache.get(key)
            if text is None:
                text = cache[key] = Encoded(dumps(self.sync_msg(
                    rt, conn.view_seat, conn.identity_id, conn.seats, conn.actors)))
            conn.send(text)
            conn.seq = conn.view_seq = rt.seq

    # -- actions -------------------------------------------------------------------------
    async def submit(self, rt: GameRuntime, conn: Connection | None, seat: str, expected_seq: int,
                     action: dict[str, Any], msg_id: Any = None,
                     identity_id: str | None = None, meta: bool = False,
                     forced: bool = False) -> play.Outcome:
        """A player's (or bot's) action; ``meta``: a server-originated entry for ``seat``
        (``engine.meta``: resign / timeout / forfeit / undo), whose caller checked who
        may ask for it; ``forced``: the bot decides for a human seat out of time."""
        async with rt.lock:
            info = rt.seats.get(seat)
            if meta:
                out = await play.submit_meta(self.db, rt, seat, action)
            elif info is None or (conn is not None and info.identity_id != identity_id):
                out = play.Outcome.reject(rt.seq, "not_seated", f"you do not hold seat {seat}")
            elif conn is None and not info.is_bot and not forced:
                out = play.Outcome.reject(rt.seq, "not_seated", f"seat {seat} is not a bot")
            else:
                out = await play.submit(self.db, rt, seat, expected_seq, action,
                                        self.settings.snapshot_every)
            if out.ok and out.batch is not None and not self.pubsub.local_only:
                # committed: other workers hear of it first (written to the bus before our
                # own redaction; in seq order, since the next action of this game needs
                # this lock)
                b = out.batch
                await self._publish(rt.game_id, {"kind": "batch", "origin": self.origin,
                                                 "first_seq": b.first_seq,
                                                 "seq": b.seq, "actor": b.actor,
                                                 "entries": out.entries})
            if conn is not None:    # the reply and the actor's update (or sync): one write
                conn.cork()
            try:
                if conn is not None and out.ok:
                    conn.send_json({"type": "ack", "id": msg_id, "seq": out.seq})
                elif conn is not None:
                    conn.send_json({"type": "reject", "id": msg_id, "code": out.code,
                                    "message": out.message, "seq": out.seq, "details": out.details})
                    if out.code == "stale_seq":
                        self._send_view(rt, conn, self.sync_msg(rt, conn.view_seat, conn.identity_id,
                                                                conn.seats, conn.actors))
                        conn.seq = rt.seq
                self._deliver(rt)
            finally:
                if conn is not None:
                    conn.uncork()
        if out.ok and out.batch is not None:
            committed(self, rt)             # notifications, ratings (app/notifications/hooks.py)
            if out.snapshot is not None:
                self._spawn(play.write_snapshot(self.db, rt.rs, rt.game_id,
                                               out.snapshot_seq, out.snapshot,
                                               timed=rt.clock is not None))
            self.schedule_bots(rt)
        return out

    async def _publish(self, game_id: str, msg: dict[str, Any]) -> None:
        try:
            await self.pubsub.publish(channel_for(game_id), dumps(msg).encode())
        except Exception:
            log.exception("publish failed for game %s", game_id)

    # -- bots ----------------------------------------------------------------------------
    def schedule_bots(self, rt: GameRuntime) -> None:
        """Let the bot driver (app/games/bots.py: one worker per game, by DB lease) play
        the bot seats the engine waits for."""
        self.bots.schedule(rt)

    # -- bus -----------------------------------------------------------------------------
    async def seats_changed(self, game_id: str) -> None:
        await self._publish(game_id, {"kind": "seats"})

    async def chat_posted(self, game_id: str, message: dict[str, Any]) -> None:
        await self._publish(game_id, {"kind": "chat", "message": message})

    async def _on_message(self, channel: str, data: bytes) -> None:
        """The bus listener: queue the message on its game's inbox (never waits for a
        game's database reads or engine work; one drain task per game keeps its order)."""
        if data.startswith(self._own_batch):
            return              # our own batch, applied and delivered before it was published
        rt = self.registry.cached(game_of(channel))
        if rt is None or (self.shed is not None and self.shed(rt)):
            return              # not ours: another worker owns the game (forward.py)
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
                    msgs = [msg]                    # consecutive batches: applied, then ONE
                    while rt.inbox and rt.inbox[0].get("kind") == "batch":   # delivery
                        msgs.append(rt.inbox.popleft())
                    await self._remote_batches(rt, msgs)
                else:
                    await self._handle(rt, msg)
            except asyncio.CancelledError:
                raise
            except Exception:       # e.g. the database unreachable: the reconciler resyncs
                log.exception("bus message for game %s failed", rt.game_id)

    async def _remote_batches(self, rt: GameRuntime, msgs: list[dict[str, Any]]) -> None:
        async with rt.lock:
            for msg in msgs:
                if msg["seq"] <= rt.seq:
                    continue                        # ours, or already read from the log
                if msg["first_seq"] != rt.seq + 1:  # a gap (a lost message): the log
                    async with self.db.sessions() as session:
                        await rt.catch_up(session)
                    break
                rt.apply_remote(msg["first_seq"], msg["actor"], [(s, a) for s, a in msg["entries"]])
            self._deliver(rt)
        self.schedule_bots(rt)

    async def catch_up(self, rt: GameRuntime) -> None:
        """Bring the cached state up to the database log and deliver (a lost bus message:
        connections never stall on a gap)."""
        async with rt.lock:
            async with self.db.sessions() as session:
                await rt.catch_up(session)
            self._deliver(rt)
        self.schedule_bots(rt)

    async def reconcile(self) -> None:
        """Compare the cached games with connections to ``games.seq``; a game found behind
        twice in a row at the same seq (its bus message is not merely in flight) catches up
        from the log."""
        live = {gid: rt for gid, rt in list(self.registry.runtimes.items()) if rt.connections}
        if not live:
            return
        from sqlalchemy import select

        from ..models import Game

        async with self.db.sessions() as session:
            rows = (await session.execute(select(Game.id, Game.seq)
                                          .where(Game.id.in_(sorted(live))))).all()
        for gid, seq in rows:
            rt = live[gid]
            if seq <= rt.seq or rt.inbox:           # up to date, or its messages queued
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

    async def _handle(self, rt: GameRuntime, msg: dict[str, Any]) -> None:
        kind = msg.get("kind")
        if kind == "seats":
            rebound: list[Connection] = []
            async with rt.lock:
                async with self.db.sessions() as session:
                    await rt.catch_up(session)      # the seats and any entry not heard of
                self._deliver(rt)
                status = rt.status
                for conn in list(rt.connections):
                    if self._rebind(rt, conn):          # claimed / left seats: rebound
                        rebound.append(conn)
                    conn.send_json({"type": "seats", "seats": rt.seats_public(conn.identity_id),
                                    "status": status})
            for conn in rebound:                 # a fresh hello for the new seat
                await self.attach(rt, conn, None)
            self.schedule_bots(rt)
        elif kind == "left":
            ident = str(msg.get("identity"))
            if not any(c.identity_id == ident and not c.closed for c in rt.connections):
                self.presence.departed(rt.game_id, ident, float(msg.get("at") or time.time()))
            self.presence.broadcast(rt)
        elif kind == "spectators":
            self.presence.spectators.setdefault(rt.game_id, {})[str(msg.get("worker"))] = \
                int(msg.get("count") or 0)
            self.presence.broadcast(rt)
        elif kind == "chat":
            m = msg["message"]
            for conn in list(rt.connections):
                if may_read_any(conn.actors, m["channel"]):
                    conn.send_json(m)

