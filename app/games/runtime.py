"""Live games of this process: engine state cached in memory, rebuilt from the database.

The database log is the truth.  A :class:`GameRuntime` is the engine state after the
log's last entry (``seq``), rebuilt on a cold start from the latest snapshot plus the log
tail, and kept with the last batches (events + state) so that reconnecting clients and
other workers' subscribers can be told exactly what happened.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict, deque
from dataclasses import dataclass
from typing import Any, TypedDict

import orjson
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..engine_api import (
    CHANCE,
    EngineError,
    Fold,
    Ruleset,
    default_bot_level,
    is_meta,
    load_state_of,
    normalise_logged,
    public_status_of,
    rolls_following,
    parsed_scenario,
    ruleset,
)
from ..errors import AppError, Conflict, NotFound
from .view_memo import ViewMemo
from ..models import Game, Seat
from ..scenarios import repository as scenarios
from . import repository

log = logging.getLogger("app.games")

# the batches kept in memory for reconnects (older ones: rebuilt from the nearest snapshot,
# ``catchup``, ~15 ms at any game length): at most this many, and their events at most
# RECENT_EVENTS (a batch not yet delivered is never dropped)
RECENT_BATCHES = 64
RECENT_EVENTS = 1024


@dataclass
class SeatInfo:
    seat: str
    side: str
    role: str
    identity_id: str | None
    name: str | None
    is_bot: bool
    slot: str = ""
    bot_reason: str | None = None
    bot_level: str | None = None

    @property
    def held(self) -> bool:
        return self.identity_id is not None or self.is_bot

    def public(self, me: str | None = None) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "side": self.side,
            "role": self.role,
            "slot": self.slot or self.seat,
            "taken": self.held,
            "name": "bot" if self.is_bot else self.name,
            "is_bot": self.is_bot,
            "mine": me is not None and self.identity_id == me,
            "bot_reason": self.bot_reason if self.is_bot else None,
            "held_by": self.name,
            "bot_level": (self.bot_level or default_bot_level()) if self.is_bot else None,
        }

    @classmethod
    def of(cls, row: Seat) -> SeatInfo:
        return cls(
            seat=row.seat,
            side=row.side,
            role=row.role,
            identity_id=row.identity_id,
            name=row.identity.name if row.identity else None,
            is_bot=row.is_bot,
            slot=row.slot or row.seat,
            bot_reason=row.bot_reason,
            bot_level=row.bot_level,
        )


@dataclass
class Batch:
    """Log entries ``first_seq..seq`` committed together, their raw events and the state after."""

    first_seq: int
    seq: int
    actor: str
    events: list[dict[str, Any]]
    state: Any


def apply_entries(
    rs: Ruleset,
    fold: Any,
    first_seq: int,
    entries: list[tuple[str, dict[str, Any]]],
    normalise: bool = False,
) -> list[dict[str, Any]]:
    """Apply logged entries ``first_seq..`` to ``fold`` (``engine.meta.Fold``: the state
    and what may be undone); ``undo`` / ``resign`` / ``timeout`` / ``forfeit`` entries
    are folded like in every replay.  ``normalise``: rows read from the database, which
    an older release may have stored raw (the ruleset's ``normalise_logged`` drops the
    keys the engine never read and checks the values).  Returns their events."""
    events: list[dict[str, Any]] = []
    log = [(first_seq + i, seat, action) for i, (seat, action) in enumerate(entries)]
    for (seq, seat, action), rolls in zip(log, rolls_following(log)):
        if normalise and not is_meta(action):
            action = normalise_logged(rs, fold.state, action)
        events.extend(fold.apply(seq, seat, action, rs.apply, rolls))
    return events


def new_fold(state: Any, seq: int, rs: Ruleset | None = None) -> Fold:
    """The fold of a game's state at ``seq`` (what may be undone starts empty)."""
    return Fold(state, seq, rs)


class Unplayable(TypedDict):
    """Why a game's log no longer replays (``games.unplayable``)."""

    reason: str  # the engine's refusal code, or ``log_unreadable``
    detail: str
    seq: int | None  # the log entry that failed, when known


async def replay_failure(session: AsyncSession, game_id: str, exc: BaseException) -> AppError:
    """A game whose log no longer replays (an engine upgrade, a damaged row): the game row
    is marked ``unplayable`` with the reason, and the error to answer (409
    ``game_unplayable``; the websocket sends it and closes 4410) is returned."""
    problem: Unplayable
    if isinstance(exc, EngineError):
        problem = {"reason": exc.code, "detail": exc.message, "seq": exc.details.get("seq")}
    else:
        problem = {"reason": "log_unreadable", "detail": type(exc).__name__, "seq": None}
    log.warning("game %s is unplayable: %s", game_id, problem)
    try:
        await session.rollback()
        await repository.set_fields(session, game_id, status="unplayable", unplayable=problem)
        await session.commit()
    except Exception:
        log.exception("could not mark game %s unplayable", game_id)
    where = f" at log entry {problem['seq']}" if problem["seq"] else ""
    return Conflict(
        f"this game's log no longer replays{where} ({problem['reason']}: {problem['detail']})",
        code="game_unplayable",
        **problem,
    )


def dice_info(
    game_id: str, commitment: str | None, finished: bool, seed: str | None, salt: str | None
) -> dict[str, Any]:
    """``fair_dice`` of the summary and ``hello``: the commitment (null: a test seed or a
    game older than fair dice); the keys ``seed`` and ``salt`` appear only once the game
    is finished (the seed of a live game never leaves the server)."""
    out: dict[str, Any] = {"commitment": commitment, "verify_url": f"/games/{game_id}/verify"}
    if finished and commitment is not None:
        out.update(seed=seed, salt=salt)
    return out


def settle_chance(
    rs: Ruleset, state: Any
) -> tuple[Any, list[tuple[str, dict[str, Any]]], list[dict[str, Any]]]:
    """Roll the dice the ruleset asks for (``sample_chance``) until it needs a player."""
    entries: list[tuple[str, dict[str, Any]]] = []
    events: list[dict[str, Any]] = []
    guard = 0
    while rs.is_chance(state):
        roll = rs.sample_chance(state)
        state, evs = rs.apply(state, roll)
        entries.append((CHANCE, roll))
        events.extend(evs)
        guard += 1
        if guard > 10_000:
            raise EngineError("chance_loop", "the engine kept asking for dice")
    return state, entries, events


_BOARDS: OrderedDict[tuple[str, int], tuple[Any, dict[str, Any]]] = OrderedDict()
_BOARDS_SIZE = 64


def shared_board(rs: Ruleset, state: Any) -> dict[str, Any]:
    """The ruleset's ``board`` (the static part of the view, a function of the scenario),
    one dict for all the games of a scenario object (``scenario_from_text`` shares it):
    an Overlord board is ~140 KB a game otherwise.  A state without ``scn``: its own."""
    scn = getattr(state, "scn", None)
    if scn is None:
        return rs.board(state)
    key = (rs.name, id(scn))
    hit = _BOARDS.get(key)
    if hit is not None and hit[0] is scn:
        _BOARDS.move_to_end(key)
        return hit[1]
    board = rs.board(state)
    _BOARDS[key] = (scn, board)  # the scenario held: its id is not reused
    while len(_BOARDS) > _BOARDS_SIZE:
        _BOARDS.popitem(last=False)
    return board


def game_fields(
    rs: Ruleset, state: Any, seats: list[SeatInfo], started: bool = False
) -> dict[str, Any]:
    """The lobby columns of ``games`` derived from the public view and the seats.  A game
    that has started (every seat held once) stays ``live`` when a player leaves his seat:
    its clock keeps running, the time-out and the absence rules apply to the free seat."""
    view = public_status_of(rs, state)
    if view.get("game_over"):
        status = "finished"
    elif started or all(s.held for s in seats):
        status = "live"
    else:
        status = "open"
    return {
        "status": status,
        "turn": view.get("turn"),
        "to_act": list(view.get("to_act") or []),
        "winner": view.get("winner"),
    }


class GameRuntime:
    def __init__(
        self,
        game: Game,
        scenario: Any,
        state: Any,
        seq: int,
        seats: list[SeatInfo],
        *,
        scenario_text: str | None = None,
    ) -> None:
        self.game_id = game.id
        self.rs: Ruleset = ruleset(game.ruleset)  # the rule system playing this game
        self.scenario_id = game.scenario_id
        self.scenario_name = game.scenario_name
        self.mode = game.mode
        self.options = dict(game.options or {})
        self.private = game.private
        self.ruleset_version = game.ruleset_version
        self.commitment = game.commitment
        self._reveal = (game.seed_secret, game.seed_salt)  # sent only once finished
        self.invite_code = game.invite_code  # private games: watched with the invite
        self.created_by = game.created_by
        self.scenario = scenario
        self.scenario_text = scenario_text  # its .m44 text (the bot processes parse it)
        self.fold = new_fold(state, seq, self.rs)  # the state + the steps that may be undone
        self.clock: Any = None  # app/clocks Clock (None: an untimed game)
        self.seq = seq
        self.seats: dict[str, SeatInfo] = {s.seat: s for s in seats}
        # every seat was held once (``games.started_at``): live for good (game_fields)
        self.started = game.started_at is not None or self.all_seats_held()
        self.lock = asyncio.Lock()
        self.recent: deque[Batch] = deque()
        self.recent_events = 0  # events of the batches in ``recent``
        self.delivered_seq = seq
        self.connections: set[Any] = set()
        # per audience (``Connection.view_key``): the last view sent to it (seq, JSON,
        # dict; equal views of several audiences are one object), the base of the next
        # update's ``view_patch`` (app/realtime/delta.py, app/realtime/hub.py)
        self.views: dict[Any, Any] = {}
        # the last view parts computed, whose unchanged members the next ones reuse
        # (app/games/view_memo.py: the patches skip them by identity)
        self.view_memo = ViewMemo()
        self._board: dict[str, Any] | None = None
        self.bot_task: asyncio.Task[None] | None = None
        # bus messages of this game not handled yet, drained in order by one task
        # (the bus listener never waits for one game's database reads or engine work)
        self.inbox: deque[dict[str, Any]] = deque()
        self.inbox_task: asyncio.Task[None] | None = None
        self.lag_seen: int | None = None  # seq at which the database was seen ahead
        self._seats_version = 0
        self._fields: tuple[tuple[int, int], dict[str, Any]] | None = None
        self.used = time.monotonic()  # last load, lookup, batch or departure
        # (idle eviction, ``Registry.idle``)

    # -- derived -----------------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self.fold.state

    @state.setter
    def state(self, value: Any) -> None:
        self.fold.state = value

    @property
    def board(self) -> dict[str, Any]:
        if self._board is None:
            self._board = shared_board(self.rs, self.state)
        return self._board

    def fields(self) -> dict[str, Any]:
        """Lobby columns for the current state (memoized per seq and seat change)."""
        key = (self.seq, self._seats_version)
        if self._fields is None or self._fields[0] != key:
            self._fields = (
                key,
                game_fields(self.rs, self.state, list(self.seats.values()), self.started),
            )
        return self._fields[1]

    @property
    def status(self) -> str:
        return str(self.fields()["status"])

    def fair_dice(self) -> dict[str, Any]:
        """The public commitment; seed and salt once the game is finished (``hello``)."""
        return dice_info(self.game_id, self.commitment, self.status == "finished", *self._reveal)

    def all_seats_held(self) -> bool:
        return all(s.held for s in self.seats.values())

    def seats_public(self, me: str | None = None) -> list[dict[str, Any]]:
        return [s.public(me) for s in self.seats.values()]

    def seats_of(self, identity_id: str) -> list[str]:
        return [s.seat for s in self.seats.values() if s.identity_id == identity_id]

    # -- batches -----------------------------------------------------------------------
    def push(
        self,
        first_seq: int,
        actor: str,
        events: list[dict[str, Any]],
        state: Any,
        seq: int,
        seats: list[str] | None = None,
    ) -> Batch:
        """``seats``: the seat of every entry of the batch (default: the actor's), for the
        turn clock."""
        batch = Batch(first_seq=first_seq, seq=seq, actor=actor, events=events, state=state)
        recent = self.recent
        if recent and recent[-1].seq <= self.delivered_seq:
            recent[-1].state = None  # delivered and superseded: keep its events only
        recent.append(batch)
        self.recent_events += len(events)
        while (
            len(recent) > 1
            and recent[0].seq <= self.delivered_seq
            and (len(recent) > RECENT_BATCHES or self.recent_events > RECENT_EVENTS)
        ):
            self.recent_events -= len(recent.popleft().events)
        self.state, self.seq = state, seq
        self.used = time.monotonic()
        self.fold.seq = seq
        if self.clock is not None:
            now = time.time()
            for s in seats or [actor]:
                self.clock.entry(s, now)
        return batch

    def batch_from(self, first_seq: int) -> Batch | None:
        for b in self.recent:
            if b.first_seq == first_seq:
                return b
        return None

    def batches_since(self, since: int) -> list[Batch] | None:
        """The contiguous batches covering ``since+1..seq``, or None if not all kept."""
        out: list[Batch] = []
        nxt = since + 1
        while nxt <= self.seq:
            b = self.batch_from(nxt)
            if b is None:
                return None
            out.append(b)
            nxt = b.seq + 1
        return out

    def apply_remote(
        self,
        first_seq: int,
        actor: str,
        entries: list[tuple[str, dict[str, Any]]],
        normalise: bool = False,
    ) -> Batch:
        events = apply_entries(self.rs, self.fold, first_seq, entries, normalise)
        return self.push(
            first_seq,
            actor,
            events,
            self.fold.state,
            first_seq + len(entries) - 1,
            [s for s, _ in entries],
        )

    async def catch_up(self, session: AsyncSession) -> None:
        """Apply the log rows committed by other writers since ``seq`` (one batch) and
        refresh the seats."""
        rows = await repository.actions_after(session, self.game_id, self.seq)
        if rows:
            entries = [(r.seat, r.action) for r in rows]
            self.apply_remote(rows[0].seq, rows[0].seat, entries, normalise=True)
        await self.refresh_seats(session)

    async def refresh_seats(self, session: AsyncSession) -> None:
        rows = await repository.seats_of(session, self.game_id)
        self.seats = {r.seat: SeatInfo.of(r) for r in rows}
        self._seats_version += 1
        if self.all_seats_held():
            self.started = True
            if self.clock is not None:
                self.clock.start(time.time())  # the game went live: the clocks start


async def game_scenario(session: AsyncSession, game: Game) -> Any:
    """The parsed scenario a game was set up from (None for a ruleset without one)."""
    return (await scenario_and_text(session, game))[0]


async def scenario_and_text(session: AsyncSession, game: Game) -> tuple[Any, str | None]:
    """:func:`game_scenario` and its ``.m44`` text (None, None without scenario)."""
    if game.scenario_id is None:
        return None, None
    row = await scenarios.get(session, game.scenario_id)
    if row is None:
        raise EngineError("scenario_missing", f"scenario {game.scenario_id!r} is gone")
    return parsed_scenario(row.content)


def dump_snapshot(rs: Ruleset, state: Any) -> bytes:
    """The ``snapshots.state`` blob: the ruleset's ``dump_state`` (versioned JSON, never
    a pickle) as JSON text."""
    return orjson.dumps(rs.dump_state(state))


def load_snapshot(rs: Ruleset, blob: bytes, scenario: Any) -> Any:
    """The state of a ``snapshots.state`` blob; raises on a blob of another format or
    version (the caller replays the log instead).  A pickle of an older release is not
    JSON: refused here, never unpickled."""
    return load_state_of(rs, orjson.loads(blob), scenario)


async def load_runtime(session: AsyncSession, game_id: str) -> GameRuntime:
    """Cold start: latest snapshot + log tail (or a full replay) -> live state.  A log that
    no longer replays marks the game ``unplayable`` (:func:`replay_failure`)."""
    game = await repository.get(session, game_id)
    if game is None:
        raise NotFound(f"no game {game_id!r}", code="game_not_found")
    try:
        rs = ruleset(game.ruleset)
        scn, text = await scenario_and_text(session, game)
        fold = await _replay(session, rs, game, scn)
    except Exception as exc:  # the log no longer replays: reported, never a crash
        raise await replay_failure(session, game_id, exc) from None
    seat_rows = await repository.seats_of(session, game_id)
    seats = [SeatInfo.of(s) for s in seat_rows]
    rt = GameRuntime(game, scn, fold.state, fold.seq, seats, scenario_text=text)
    rt.fold = fold
    if game.clock:
        rt.clock = await clock_at(
            session, game, tuple(dict.fromkeys(s.side for s in rt.seats.values()))
        )
    if game.unplayable is not None:  # replays again (e.g. a fixed engine): back in play
        await repository.set_fields(session, game_id, unplayable=None, **rt.fields())
        await session.commit()
    return rt


async def clock_at(
    session: AsyncSession, game: Any, sides: tuple[str, ...], upto: int | None = None
) -> Any:
    """The turn clock of a timed game after log entry ``upto`` (default: the last): the
    fold kept with the latest snapshot before it (``snapshots.clock``) + the log rows
    after it (never every row of a long game); None for an untimed game.  ``game``: its
    ``id``, ``clock`` and ``started_at``."""
    from ..clocks.service import Clock

    saved = await repository.clock_snapshot(session, game.id, None if upto is None else upto + 1)
    after, fold = saved if saved is not None else (0, None)
    stamps = await repository.log_times(session, game.id, after, upto)
    return Clock.of(game.clock, game.started_at, stamps, sides, fold)


async def _replay(session: AsyncSession, rs: Ruleset, game: Game, scn: Any) -> Any:
    """Latest usable snapshot + log tail (or a full replay from the seed) -> the fold
    (``engine.meta.Fold``: state, seq and the steps that may be undone)."""
    snap = await repository.latest_snapshot(session, game.id)
    state, seq = None, 0
    if snap is not None:
        try:
            state, seq = load_snapshot(rs, snap.state, scn), snap.seq
        except Exception as exc:  # another format / version, a damaged row: replay
            log.info("snapshot %s@%s not loadable (%s); replaying the log", game.id, snap.seq, exc)
            state, seq = None, 0
    if state is None:
        state = rs.new_game(game.seed, dict(game.options or {}), scn, game.mode)
    rows = await repository.actions_after(session, game.id, seq)
    fold = new_fold(state, seq, rs)
    for r in rows:
        try:
            apply_entries(rs, fold, r.seq, [(r.seat, r.action)], normalise=True)
        except EngineError as exc:
            exc.details.setdefault("seq", r.seq)
            raise
    fold.seq = rows[-1].seq if rows else seq
    return fold


class Registry:
    """The runtimes of this process: an LRU of at most ``capacity`` games (``REGISTRY_CAPACITY``)
    from which a game is dropped only when it is :meth:`idle` (never one with connections,
    bot work, queued bus messages or a recent lookup: a socket may be attaching), plus
    the eviction of idle games (``IDLE_EVICT_SECONDS``, :meth:`evict_idle`).  A dropped
    game reloads from its latest snapshot on next use."""

    GRACE = 30.0  # seconds after a lookup during which a game is never dropped

    def __init__(self, sessions: async_sessionmaker[AsyncSession], capacity: int = 256) -> None:
        self.sessions = sessions
        self.capacity = capacity
        self.runtimes: OrderedDict[str, GameRuntime] = OrderedDict()
        self._loading: dict[str, asyncio.Lock] = {}
        # game -> seq when dropped idle with no bot to act: the bot sweep does not reload
        # it at the same seq (app/games/bots.py ``_orphans``)
        self.evicted: dict[str, int] = {}
        self.on_drop: Any = None  # called with the id of each game dropped

    def cached(self, game_id: str) -> GameRuntime | None:
        return self.runtimes.get(game_id)

    async def get(self, game_id: str) -> GameRuntime:
        rt = self.runtimes.get(game_id)
        if rt is not None:
            self.runtimes.move_to_end(game_id)
            rt.used = time.monotonic()
            return rt
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        async with lock:
            rt = self.runtimes.get(game_id)
            if rt is None:
                async with self.sessions() as session:
                    rt = await load_runtime(session, game_id)
                self.runtimes[game_id] = rt
                self.evicted.pop(game_id, None)
                self._evict()
            rt.used = time.monotonic()
        self._loading.pop(game_id, None)
        return rt

    @classmethod
    def idle(cls, rt: GameRuntime, now: float, quiet: float) -> bool:
        """Nothing holds the game in memory: no connection, no bot task, no queued bus
        message, its lock free, no lookup or batch for ``quiet`` seconds, and no running
        clock (the clock watch keeps live timed games)."""
        return (
            not rt.connections
            and not rt.lock.locked()
            and not rt.inbox
            and (rt.bot_task is None or rt.bot_task.done())
            and (rt.inbox_task is None or rt.inbox_task.done())
            and now - rt.used >= quiet
            and not (rt.clock is not None and rt.status == "live")
        )

    def _evict(self) -> None:
        """Over capacity: drop least recently used idle games (a game that is not idle
        stays, however many there are)."""
        if len(self.runtimes) <= self.capacity:
            return
        now = time.monotonic()
        for gid, rt in list(self.runtimes.items()):
            if len(self.runtimes) <= self.capacity:
                break
            if self.idle(rt, now, self.GRACE):
                self.drop(gid)

    def drop(self, game_id: str) -> GameRuntime | None:
        rt = self.runtimes.pop(game_id, None)
        if rt is not None:
            bots = {s.seat for s in rt.seats.values() if s.is_bot}
            if not bots.intersection(rt.rs.to_act(rt.state)):  # no bot is waited for
                self.evicted[game_id] = rt.seq
            if self.on_drop is not None:
                self.on_drop(game_id)
            while len(self.evicted) > 4 * max(self.capacity, 256):
                self.evicted.pop(next(iter(self.evicted)))
        return rt

    def evict_idle(self, quiet: float) -> list[str]:
        """Drop every game idle for ``quiet`` seconds (a pass over this worker's games in
        memory: no database access, no lock taken); returns their ids."""
        now = time.monotonic()
        out = [gid for gid, rt in list(self.runtimes.items()) if self.idle(rt, now, quiet)]
        for gid in out:
            self.drop(gid)
        return out

    def forget(self) -> None:
        self.runtimes.clear()
