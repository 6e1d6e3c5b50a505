"""The per-process hub: this worker's sockets of each game, and what they are sent.

The game session service (app/games/sessions.py) commits every accepted batch and raises
``committed``; :meth:`Hub.deliver` turns the batches since the last delivery into one
``update`` per socket: payloads are computed once per audience (the sockets of one seat,
or all spectators of one view) and the same text is queued to each of them, as a view
patch for a socket that holds the audience's previous view.  A client reconnecting with
``since`` gets the events it missed from the batches in memory, or, on a worker that does
not hold them, rebuilt from the durable log (``games.service.logged_events``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from .. import ratelimit
from ..chat import service as chat_service
from ..chat.policy import Actor, channels_for, channels_of, may_read_any
from ..clocks.service import clock_field
from ..engine_api import CHANCE, Ruleset, view_parts_of
from ..games import service as games_service
from ..games.modes import slots_per_side
from ..games.play import Outcome
from ..games.presence import Presence
from ..games.redact import actor_for_seats, events_for_seats, legal_for_seats, nothing_seen
from ..games.runtime import Batch, GameRuntime
from ..games.schemas import EventEntry
from ..games.sessions import GameSessions
from ..models import Identity
from ..settings import Settings
from .connection import MAX_MESSAGE_BYTES, Connection, burst, dumps, per_second
from .delta import PatchText, ViewParts

log = logging.getLogger("app.hub")

PROTOCOL = 1
CATCHUP_MAX_ENTRIES = 500  # a reconnect further behind than this many log entries gets a sync


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
    view, view patch) built at most once each (the same text for every socket of the
    audience).  The view is the delivery's
    :class:`ViewParts` (the audiences share its common part, so their patches share the
    diffs of it: ``PatchText``), made whole only for a full ``view``."""

    __slots__ = ("msg", "view", "_full", "_patched")

    def __init__(self, msg: dict[str, Any]) -> None:
        self.msg, self.view = msg, msg["view"]
        self._full: str | None = None
        self._patched: str | None = None

    def full(self) -> str:
        if self._full is None:
            msg = self.msg
            if type(self.view) is ViewParts:
                msg = {**msg, "view": self.view.full()}
            self._full = dumps(msg)
        return self._full

    def patched(self, prev: _View, texts: PatchText) -> str:
        """The update with ``view_patch`` (its text spliced from the delivery's shared
        fragments) and without ``chat_channels`` when the audience's last view came with
        the same ones."""
        if self._patched is None:
            chat = self.msg.get("chat_channels", _UNSURE)
            msg = {
                k: v
                for k, v in self.msg.items()
                if k != "view" and (k != "chat_channels" or chat is not prev.chat)
            }
            head = dumps(msg)
            self._patched = f'{head[:-1]},"view_patch":{texts.patch(prev.view, self.view)}}}'
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
    """This worker's sockets of each game: their hello, catch-up and every committed
    batch turned into frames (one encoding per audience).  It holds no game logic: the
    game session service (app/games/sessions.py) submits and raises ``committed``, and
    :meth:`deliver` listens to it (wired in app/main.py)."""

    def __init__(self, settings: Settings, games: GameSessions, presence: Presence) -> None:
        self.settings = settings
        self.games = games
        self.db = games.db
        self.registry = games.registry
        self.presence = presence

    def close_all(self, code: int, reason: str) -> None:
        """Close every socket of this worker (a stopping worker: 1012, docs/protocol.md)."""
        for rt in list(self.registry.runtimes.values()):
            for conn in list(rt.connections):
                conn.close(code, reason)

    def revoked(self, token_hash: str) -> int:
        """Close the sockets authenticated with a revoked login token (4401, after an
        ``error`` ``session_revoked``); their count."""
        n = 0
        for rt in list(self.registry.runtimes.values()):
            for conn in list(rt.connections):
                if conn.token_hash == token_hash and not conn.closed:
                    conn.error("session_revoked", "this login session was revoked")
                    conn.close(4401, "session revoked")
                    n += 1
        return n

    # -- payloads ------------------------------------------------------------------------
    @staticmethod
    def _legal(
        rs: Ruleset,
        state: Any,
        seat: str | None,
        seats: list[str] | None = None,
        acting: set[str] | None = None,
    ) -> list[dict[str, Any]]:
        """``acting``: ``to_act(state)`` when known (a seat not in it has no legal action:
        a protocol promise, engine/core/ruleset.py)."""
        if seats and len(seats) > 1:
            return legal_for_seats(rs, state, seats)
        if seats is not None and not seats:  # a spectator (maybe watching a side)
            return []
        if seat is None or (acting is not None and seat not in acting):
            return []
        return list(rs.legal_actions(state, seat))

    @staticmethod
    def _views(
        rs: Ruleset, state: Any, seats: list[str] | None, view: dict[str, Any]
    ) -> dict[str, Any]:
        """Every held seat's own view, for an identity playing several role seats."""
        if not seats or len(seats) <= 1:
            return {}
        return {
            "views": {s: (view if i == 0 else rs.view_for(state, s)) for i, s in enumerate(seats)}
        }

    def _status(self, rt: GameRuntime) -> str:
        return rt.status

    def hello(
        self, rt: GameRuntime, conn: Connection, chat: list[dict[str, Any]]
    ) -> dict[str, Any]:
        view = rt.rs.view_for(rt.state, conn.view_seat)
        seat_triples = [(s.seat, s.side, s.role) for s in rt.seats.values()]
        s = self.settings
        return {
            "type": "hello",
            "protocol": PROTOCOL,
            "game_id": rt.game_id,
            "seq": rt.seq,
            "seat": conn.seat,
            "side": conn.side,
            "role": conn.role,
            "my_seats": conn.seats,
            "watch": conn.watch_side,
            "identity": {"id": conn.identity_id, "name": conn.name} if conn.identity_id else None,
            "status": self._status(rt),
            "mode": rt.mode,
            "scenario_name": rt.scenario_name,
            "ruleset": rt.rs.name,
            "renderer": rt.rs.renderer,
            "panels": list(rt.rs.panels_for(rt.mode)),
            "bots_stand_in": rt.rs.bots_stand_in(rt.mode),
            "ruleset_version": rt.ruleset_version,
            "fair_dice": rt.fair_dice(),
            "seats": rt.seats_public(conn.identity_id),
            "board": rt.board,
            "view": view,
            "legal": self._legal(rt.rs, rt.state, conn.seat, conn.seats),
            **self._views(rt.rs, rt.state, conn.seats, view),
            "chat_channels": self._chat_channels(conn.actors, seat_triples, view, rt.rs),
            "chat": chat,
            "presence": self.presence.snapshot(rt),
            **self._undo(rt, conn.seats),
            **clock_field(rt),
            "limits": {
                "max_message_bytes": MAX_MESSAGE_BYTES,
                "rate_per_second": per_second(s.rate("socket")),
                "burst": burst(per_second(s.rate("socket"))),
            },
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
    def _chat_channels(
        actors: list[Actor], seat_triples: Any, view: dict[str, Any] | None, rs: Ruleset
    ) -> dict[str, Any]:
        """``read``, ``write`` and ``closed`` (channel -> why it is not writable now): one
        shared read-only object per value (``channels_of``; the ruleset says who may talk
        to whom)."""
        return channels_of(actors, seat_triples, view, rs)

    def _seat_chat(
        self,
        rs: Ruleset,
        state: Any,
        seat: str | None,
        view: dict[str, Any],
        seats: list[str] | None = None,
        chat: Sequence[Actor] | None = None,
        triples: tuple[tuple[str, str, str], ...] | None = None,
    ) -> dict[str, Any]:
        """A seated connection's channels after a change of state (the Overlord chain of
        command opens and closes lines per turn); {} for spectators (theirs never change).
        ``chat``: the connection's chat actors (every seat of its identity,
        ``Connection.actors``); without them, one actor per seat of ``seats``.
        ``triples``: the state's ``_triples`` when known (once per delivery)."""
        if seat is None or (seats is not None and not seats):  # a (watching) spectator
            return {}
        if triples is None:
            triples = _triples(tuple(rs.seats(state)))
        actors: Any = chat
        if not actors:
            actors = []
            for held in seats or [seat]:
                me = next((t for t in triples if t[0] == held), (held, held, "commander"))
                actors.append(Actor(seat=held, side=me[1], role=me[2], identified=True))
        return {"chat_channels": self._chat_channels(actors, triples, view, rs)}

    def sync_msg(
        self,
        rt: GameRuntime,
        seat: str | None,
        me: str | None,
        seats: list[str] | None = None,
        chat: Sequence[Actor] | None = None,
    ) -> dict[str, Any]:
        rs = rt.rs
        view = rs.view_for(rt.state, seat)
        return {
            "type": "sync",
            "seq": rt.seq,
            "view": view,
            "legal": self._legal(rs, rt.state, seat, seats),
            "status": self._status(rt),
            **self._views(rs, rt.state, seats, view),
            "seats": rt.seats_public(me),
            **self._seat_chat(rs, rt.state, seat, view, seats, chat),
            **self._undo(rt, seats or ([seat] if seat else [])),
            **clock_field(rt),
        }

    @staticmethod
    def _redact(
        rs: Ruleset, batches: list[Batch], seat: str | None, seats: list[str] | None
    ) -> list[dict[str, Any]]:
        """The batches' events as this connection's seats may see them (the ruleset's
        ``events_for``; several held seats: ``events_for_seats``)."""
        events: list[dict[str, Any]] = []
        multi = seats is not None and len(seats) > 1
        for b in batches:
            events.extend(
                events_for_seats(rs, b.state, b.events, seats)
                if multi and seats
                else rs.events_for(b.state, b.events, seat)
            )
        return events

    def update_msg(
        self,
        rs: Ruleset,
        batches: list[Batch],
        seat: str | None,
        status: str,
        seats: list[str] | None = None,
        chat: Sequence[Actor] | None = None,
        rt: GameRuntime | None = None,
        view: dict[str, Any] | None = None,
        acting: set[str] | None = None,
        triples: tuple[tuple[str, str, str], ...] | None = None,
        clock: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """``clock``: ``clock_field(rt)`` when known (once per delivery: the audiences'
        updates then share its object)."""
        last = batches[-1]
        if last.state is None:  # only delivered, superseded batches drop their state
            raise RuntimeError("update of a batch whose state was dropped")
        msg = self._update(
            rs,
            batches[0].first_seq,
            last.seq,
            batches[0].actor if len(batches) == 1 else None,
            self._redact(rs, batches, seat, seats),
            last.state,
            seat,
            status,
            seats,
            chat,
            view,
            acting,
            triples,
        )
        if rt is not None and last.seq == rt.seq:
            msg.update(
                self._undo(rt, seats or ([seat] if seat else [])),
                **(clock_field(rt) if clock is None else clock),
            )
        return msg

    def _update(
        self,
        rs: Ruleset,
        first_seq: int,
        seq: int,
        actor: str | None,
        events: list[dict[str, Any]],
        state: Any,
        seat: str | None,
        status: str,
        seats: list[str] | None,
        chat: Sequence[Actor] | None = None,
        view: dict[str, Any] | None = None,
        acting: set[str] | None = None,
        triples: tuple[tuple[str, str, str], ...] | None = None,
    ) -> dict[str, Any]:
        """An ``update`` of log entries ``first_seq..seq`` (``events`` already redacted;
        ``view``: ``seat``'s view of ``state`` when already computed)."""
        if view is None:
            view = rs.view_for(state, seat)
        return {
            "type": "update",
            "first_seq": first_seq,
            "seq": seq,
            "actor": actor_for_seats(rs, state, actor, seats, seat),
            "events": events,
            "view": view,
            **self._views(rs, state, seats, view),
            "legal": self._legal(rs, state, seat, seats, acting),
            "status": status,
            **self._seat_chat(rs, state, seat, view, seats, chat, triples),
        }

    # -- catch-up after ``since`` ----------------------------------------------------------
    async def _rebuild(
        self, rt: GameRuntime, conn: Connection, since: int | None
    ) -> list[EventEntry] | None:
        """Before taking ``rt.lock``: when this worker does not hold the batches after
        ``since`` (another worker accepted them, or it loaded the game after them), the
        connection's missed events rebuilt from the durable log (``logged_events``, the code
        of ``GET /api/games/{id}/events``, redacted for its seats); None when the batches
        in memory suffice or rebuilding failed.  A ``since`` ahead of this worker first
        brings it up to the log (a bus message may still be on its way)."""
        if since is None or since < 0:
            return None
        if since > rt.seq:
            await self.games.catch_up(rt)
        if since >= rt.seq or rt.batches_since(since) is not None:
            return None
        # bounded: far behind, or rebuilding too often, gets the full view (a ``sync``)
        if rt.seq - since > CATCHUP_MAX_ENTRIES or not ratelimit.hit(
            self.settings.rate("catchup"), "catchup", conn.client
        ):
            return None
        try:
            async with self.db.sessions() as session:
                game = await games_service.get_game(session, rt.game_id)
                _, entries = await games_service.logged_events(
                    session, game, conn.seats, since, conn.watch
                )
        except Exception:
            log.exception("game %s: cannot rebuild the events after seq %s", rt.game_id, since)
            return None
        return entries

    def _missed(
        self, rt: GameRuntime, conn: Connection, since: int, rebuilt: list[EventEntry] | None
    ) -> dict[str, Any] | None:
        """Under ``rt.lock``: what a connection that saw ``since`` missed up to ``rt.seq``:
        one ``update`` in seq order (the batches in memory, or the ``rebuilt`` log entries
        followed by any batch accepted since), None when it missed nothing, a ``sync``
        only when the events cannot be told.  ``since`` must be in ``0..rt.seq``."""
        status = self._status(rt)
        if rt.seq - since > CATCHUP_MAX_ENTRIES:  # far behind: full view
            return self.sync_msg(rt, conn.seat, conn.identity_id, conn.seats)
        batches = rt.batches_since(since)
        if batches is not None:
            return (
                self.update_msg(rt.rs, batches, conn.view_seat, status, conn.seats, conn.actors, rt)
                if batches
                else None
            )
        entries = [e for e in rebuilt or [] if e.seq <= rt.seq]  # the log may be ahead
        upto = entries[-1].seq if entries else since
        tail = rt.batches_since(upto)
        if not entries or entries[0].seq != since + 1 or tail is None:
            return self.sync_msg(rt, conn.view_seat, conn.identity_id, conn.seats, conn.actors)
        events = [ev for e in entries for ev in e.events]
        events.extend(self._redact(rt.rs, tail, conn.view_seat, conn.seats))
        starts = [e.seat for e in entries if e.seat != CHANCE] + [b.actor for b in tail]
        actor = starts[0] if len(starts) == 1 and entries[0].seat != CHANCE else None
        msg = self._update(
            rt.rs,
            since + 1,
            rt.seq,
            actor,
            events,
            rt.state,
            conn.view_seat,
            status,
            conn.seats,
            conn.actors,
        )
        return {**msg, **self._undo(rt, conn.seats), **clock_field(rt)}

    @staticmethod
    def _since_error(rt: GameRuntime, conn: Connection, since: int) -> bool:
        """``error`` ``invalid_since`` for a ``since`` outside ``0..seq`` (True if sent)."""
        if 0 <= since <= rt.seq:
            return False
        conn.error(
            "invalid_since",
            f"since {since} is not a seq of this game (0..{rt.seq})",
            since=since,
            seq=rt.seq,
        )
        return True

    # -- connections ---------------------------------------------------------------------
    def bind(
        self, rt: GameRuntime, conn: Connection, identity: Identity | None, seat: str | None
    ) -> str | None:
        """Bind the connection to the identity's seat; returns an error code or None."""
        conn.identity_id = identity.id if identity else None
        conn.name = identity.name if identity else None
        conn.view_seq = -1  # another audience maybe: its next view is full
        conn.seat = conn.side = conn.role = None
        conn.held, conn.pinned = [], False
        if identity is None:
            return None
        mine = rt.seats_of(identity.id)
        if mine:  # a player never watches another side's board
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
        conn.view_seq = -1  # another audience maybe: its next view is full
        if side is None:
            return None
        seat = rt.rs.spectator_seat(side)
        if conn.held or (conn.identity_id and rt.seats_of(conn.identity_id)):
            return "watch_refused"
        if seat is None or side not in {s.side for s in rt.seats.values()}:
            return "invalid_watch"
        conn.watch, conn.watch_side = seat, side
        return None

    @staticmethod
    def _hold(rt: GameRuntime, conn: Connection, seats: list[str]) -> None:
        """Bind the connection to these seats (the first is its primary ``seat``); its chat
        speaks for every seat of its identity (:meth:`_chat_seats`)."""
        infos = [rt.seats[s] for s in seats]
        conn.held = [(i.seat, i.side, i.role) for i in infos]
        conn.view_seq = -1  # another audience: its next view is full
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
        conn.collective = rt.rs.collective_sides(slots_per_side(rt.seats.values()))

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
        seat_chans = channels_for(
            conn.actors, [(s.seat, s.side, s.role) for s in rt.seats.values()]
        )
        msgs = await self.db.read(
            chat_service.history_any, rt.game_id, conn.actors, seat_chans["read"], 50
        )
        chat = [chat_service.to_wire(m) for m in msgs]
        rebuilt = await self._rebuild(rt, conn, since)
        async with rt.lock:
            rt.connections.add(conn)  # counted in its own hello's presence
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
        rt.used = time.monotonic()  # idle (IDLE_EVICT_SECONDS) from the last one
        if conn.identity_id is not None:  # its absence starts now
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
        if not self.games.bus.local_only:  # the other workers' presence of this seat
            await self.games.publish(
                rt.game_id, {"kind": "left", "identity": ident, "at": time.time()}
            )

    def _spectators_changed(self, rt: GameRuntime) -> None:
        if self.games.bus.local_only:
            return
        n = sum(1 for c in rt.connections if not c.seats and not c.closed)
        mine = self.presence.spectators.setdefault(rt.game_id, {})
        me = self.games.worker
        if mine.get(me) != n:
            mine[me] = n
            self.games.spawn(
                self.games.publish(rt.game_id, {"kind": "spectators", "worker": me, "count": n})
            )

    async def resync(self, rt: GameRuntime, conn: Connection, since: int | None) -> None:
        """The ``update`` with the events after ``since`` (as on a reconnect), or a
        ``sync`` (no ``since``, nothing missed, or an ``invalid_since`` error before it)."""
        rebuilt = await self._rebuild(rt, conn, since)
        async with rt.lock:
            missed = None
            if since is not None and not self._since_error(rt, conn, since):
                missed = self._missed(rt, conn, since, rebuilt)
            self._send_view(
                rt,
                conn,
                missed
                if missed is not None
                else self.sync_msg(rt, conn.view_seat, conn.identity_id, conn.seats, conn.actors),
            )
            conn.seq = rt.seq

    # -- delivery ------------------------------------------------------------------------
    def deliver(self, rt: GameRuntime) -> None:
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
        if not batches:  # a gap we cannot describe: full views
            self._broadcast_sync(rt)
            rt.delivered_seq = rt.seq
            return
        rt.connections.difference_update([c for c in rt.connections if c.closed])
        todo = [c for c in rt.connections if c.seq < rt.seq]
        if not todo:  # nobody here to tell (a bot game nobody watches): nothing to build
            if not rt.connections:
                rt.views.clear()  # the audiences' last views: nobody holds them now
            self._delivered(rt, batches)
            return
        status = self._status(rt)
        built: dict[tuple[Any, int], _Built] = {}
        texts = PatchText()
        last = batches[-1].state
        want = list(dict.fromkeys(c.view_seat for c in todo))
        views: dict[str | None, ViewParts] = {}
        if last is not None:  # the shared part once, each seat's overlay apart
            common, overs = rt.view_memo.intern(*view_parts_of(rt.rs, last, want), want)
            views = {s: ViewParts(common, o) for s, o in zip(want, overs)}
        acting = set(rt.rs.to_act(last)) if last is not None else None
        triples = _triples(tuple(rt.rs.seats(last))) if last is not None else None
        clock = clock_field(rt)
        after: dict[int, list[Batch]] = {}  # conn.seq -> the batches after it
        for conn in todo:
            mine = after.get(conn.seq)
            if mine is None:  # behind the last delivery: an update not sent
                mine = after[conn.seq] = (
                    [b for b in batches if b.seq > conn.seq]
                    if conn.seq >= rt.delivered_seq
                    else rt.batches_since(conn.seq) or []
                )
            if not mine or mine[0].first_seq != conn.seq + 1:  # cannot happen: be safe
                conn.send_json(
                    self.sync_msg(rt, conn.view_seat, conn.identity_id, conn.seats, conn.actors)
                )
                conn.seq = conn.view_seq = rt.seq
                continue
            key = conn.view_key
            b = built.get((key, mine[0].first_seq))
            if b is None:
                view: Any = views.get(conn.view_seat)
                if view is not None and len(conn.held) > 1:  # its ``views``: whole
                    view = view.full()
                b = built[(key, mine[0].first_seq)] = _Built(
                    self.update_msg(
                        rt.rs,
                        mine,
                        conn.view_seat,
                        status,
                        conn.seats,
                        conn.chat_actors,
                        rt,
                        view,
                        acting,
                        triples,
                        clock,
                    )
                )
            prev = rt.views.get(key)
            if nothing_seen(
                mine,
                conn.seats,
                b.msg["events"],
                b.view,
                prev.view if prev is not None and prev.seq == conn.view_seq else None,
            ):
                conn.view_seq = rt.seq  # it holds this view (equal); the seq waits
                continue  # fog of war: no news, no update (issue 34)
            if (
                conn.delta
                and len(conn.held) <= 1
                and prev is not None
                and prev.seq == conn.view_seq
            ):
                conn.send(b.patched(prev, texts))
            else:
                conn.send(b.full())
            conn.seq = conn.view_seq = rt.seq
        for (key, _first), b in built.items():
            rt.views[key] = _View(rt.seq, b.view, b.msg.get("chat_channels"))
        if len(rt.views) > 4 * len(built) + 16:  # audiences gone: forget their views
            keep = {c.view_key for c in rt.connections}
            rt.views = {k: v for k, v in rt.views.items() if k in keep}
        self._delivered(rt, batches)

    @staticmethod
    def _delivered(rt: GameRuntime, batches: list[Batch]) -> None:
        rt.delivered_seq = rt.seq
        for b in batches[:-1]:
            b.state = None  # delivered: keep the events only (catch-up)

    @staticmethod
    def _send_view(rt: GameRuntime, conn: Connection, msg: dict[str, Any]) -> None:
        """Queue a message carrying the full view at ``rt.seq`` (hello, sync, catch-up
        update): later updates may patch that view."""
        conn.send_json(msg)
        view = msg.get("view")
        if view is None or msg.get("seq") != rt.seq:
            return
        conn.view_seq = rt.seq
        # (a connection of several seats is never patched: its view is kept all the same,
        # to tell an update that changes nothing for it, ``nothing_seen``)
        cur = rt.views.get(conn.view_key)
        chat = msg.get("chat_channels")
        if cur is None or cur.seq != rt.seq:
            rt.views[conn.view_key] = _View(rt.seq, view, chat)
        elif cur.chat is not chat and cur.chat != chat:  # not what this one holds
            rt.views[conn.view_key] = cur._replace(chat=_UNSURE)

    def _broadcast_sync(self, rt: GameRuntime) -> None:
        cache: dict[tuple[Any, str | None], str] = {}
        for conn in list(rt.connections):
            key = (conn.view_key, conn.identity_id)
            text = cache.get(key)
            if text is None:
                text = cache[key] = dumps(
                    self.sync_msg(rt, conn.view_seat, conn.identity_id, conn.seats, conn.actors)
                )
            conn.send(text)
            conn.seq = conn.view_seq = rt.seq

    # -- actions -------------------------------------------------------------------------
    async def act(
        self,
        rt: GameRuntime,
        conn: Connection,
        seat: str,
        expected_seq: int,
        action: dict[str, Any],
        msg_id: Any = None,
        meta: bool = False,
    ) -> None:
        """A player's action (``meta``: resign / undo / forfeit, whose caller checked
        who may ask): the ack or the reject comes before the update of its batch."""

        def reply(out: Outcome) -> None:
            if out.ok:
                conn.send_json({"type": "ack", "id": msg_id, "seq": out.seq})
                return
            conn.send_json(
                {
                    "type": "reject",
                    "id": msg_id,
                    "code": out.code,
                    "message": out.message,
                    "seq": out.seq,
                    "details": out.details,
                }
            )
            if out.code == "stale_seq":
                self._send_view(
                    rt,
                    conn,
                    self.sync_msg(rt, conn.view_seat, conn.identity_id, conn.seats, conn.actors),
                )
                conn.seq = rt.seq

        if meta:
            await self.games.submit_meta(rt, seat, action, reply=reply)
        else:
            await self.games.submit(
                rt, seat, expected_seq, action, by=conn.identity_id, reply=reply
            )

    async def chat_posted(self, game_id: str, message: dict[str, Any]) -> None:
        """A chat message stored: to the readers of its channel on every worker."""
        await self.games.publish(game_id, {"kind": "chat", "message": message})

    async def notice(self, rt: GameRuntime, msg: dict[str, Any]) -> None:
        """A bus message that is not a batch (the game already caught up with the log)."""
        kind = msg.get("kind")
        if kind == "seats":
            rebound: list[Connection] = []
            async with rt.lock:
                status = rt.status
                for conn in list(rt.connections):
                    if self._rebind(rt, conn):  # claimed / left seats: rebound
                        rebound.append(conn)
                    conn.send_json(
                        {
                            "type": "seats",
                            "seats": rt.seats_public(conn.identity_id),
                            "status": status,
                        }
                    )
            for conn in rebound:  # a fresh hello for the new seat
                await self.attach(rt, conn, None)
        elif kind == "left":
            ident = str(msg.get("identity"))
            if not any(c.identity_id == ident and not c.closed for c in rt.connections):
                self.presence.departed(rt.game_id, ident, float(msg.get("at") or time.time()))
            self.presence.broadcast(rt)
        elif kind == "spectators":
            self.presence.spectators.setdefault(rt.game_id, {})[str(msg.get("worker"))] = int(
                msg.get("count") or 0
            )
            self.presence.broadcast(rt)
        elif kind == "chat":
            m = msg["message"]
            for conn in list(rt.connections):
                if may_read_any(conn.actors, m["channel"]):
                    conn.send_json(m)
