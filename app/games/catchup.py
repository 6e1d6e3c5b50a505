"""Bounded catch-up: the events of log entries ``since+1..upto`` rebuilt from the nearest
state snapshot at or before ``since`` plus the log tail (never the whole log), at most
``EVENTS_PAGE`` (app/games/service.py) entries per request, computed once per (game,
since, upto, seats) and shared by concurrent requests (single flight), kept in a small
LRU.

Callers: ``GET /api/games/{id}/events`` (paged: ``next_since``) and the websocket
reconnect with ``since`` (``app/realtime/hub.py``: a reconnect further behind than
``CATCHUP_MAX_ENTRIES`` gets a ``sync`` instead).  Both are rate-limited per client
(the rate limit ``catchup``) by their callers.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from ..engine_api import (
    EngineError,
    Fold,
    Ruleset,
    is_meta,
    normalise_logged,
    rolls_following,
    ruleset,
)
from ..models import ActionRow, Game, Snapshot
from .redact import actor_for_seats, events_for_seats
from .runtime import game_scenario, load_snapshot
from .schemas import EventEntry

log = logging.getLogger("app.catchup")

Key = tuple[
    str, int, int, tuple[str, ...], str | None, str
]  # game, since, upto, seats, watch, status
Entries = list[EventEntry]

_CACHE: OrderedDict[Key, Entries] = OrderedDict()
_CACHE_SIZE = 64
_INFLIGHT: dict[Key, asyncio.Future[Entries]] = {}
stats = {"computed": 0, "cached": 0, "replayed_entries": 0}


async def _snapshot_at_or_before(session: AsyncSession, game_id: str, seq: int) -> Snapshot | None:
    res = await session.execute(
        select(Snapshot)
        .where(Snapshot.game_id == game_id, Snapshot.seq <= seq)
        .order_by(Snapshot.seq.desc())
        .limit(1)
    )
    return res.scalar_one_or_none()


async def _rows(session: AsyncSession, game_id: str, after: int, upto: int) -> list[ActionRow]:
    res = await session.execute(
        select(ActionRow)
        .where(ActionRow.game_id == game_id, ActionRow.seq > after, ActionRow.seq <= upto)
        .order_by(ActionRow.seq)
    )
    return list(res.scalars())


def _replay(
    rs: Ruleset,
    start: Any,
    base: int,
    rows: list[tuple[int, str, dict[str, Any]]],
    since: int,
    upto: int,
    seats: list[str],
    watch: str | None,
) -> Entries:
    """Fold the log tail over ``start`` (the state at ``base``) as live play did: meta
    entries (``undo``, resign, time-out: ``engine.meta``) honoured, engine actions
    normalised.  Each entry ``since+1..upto`` is redacted with the state after it, as live
    updates are, or, once the game is over (``rows`` then run to its end), with the final
    state (a finished game's events in full where the ruleset shows them then, e.g.
    Kriegspiel).  Snapshots are taken where nothing is left to undo, so a fold may start
    at one."""
    f = Fold(start, base, rs)
    raw: list[tuple[int, str, Any, list[dict[str, Any]]]] = []
    for (seq, seat, action), rolls in zip(rows, rolls_following(rows)):
        try:  # rows from the database: normalised as every replay of the log
            if not is_meta(action):
                action = normalise_logged(rs, f.state, action)
            events = f.apply(seq, seat, action, rs.apply, rolls)
        except EngineError as exc:
            exc.details.setdefault("seq", seq)
            raise
        if since < seq <= upto:
            raw.append((seq, seat, f.state, events))
    final = f.state if rs.is_over(f.state) else None
    return [
        EventEntry(
            seq=seq,
            seat=actor_for_seats(rs, after if final is None else final, seat, seats, watch) or seat,
            events=events_for_seats(rs, after if final is None else final, events, seats, watch),
        )
        for seq, seat, after, events in raw
    ]


async def _compute(
    session: AsyncSession, game: Game, seats: list[str], since: int, upto: int, watch: str | None
) -> Entries:
    rs = ruleset(game.ruleset)
    scn = await game_scenario(session, game)
    snap = await _snapshot_at_or_before(session, game.id, since)
    state, base = None, 0
    if snap is not None:
        try:
            state, base = await asyncio.to_thread(load_snapshot, rs, snap.state, scn), snap.seq
        except Exception:  # a snapshot of an older engine: from the start
            log.warning("snapshot %s@%s unreadable; replaying from the start", game.id, snap.seq)
            state = None
    if state is None:
        state, base = rs.new_game(game.seed, dict(game.options or {}), scn, game.mode), 0
    last = game.seq if game.status == "finished" else upto  # a finished game: to its end
    rows = [(r.seq, r.seat, r.action) for r in await _rows(session, game.id, base, last)]
    stats["computed"] += 1
    stats["replayed_entries"] += len(rows)
    # pure CPU work: a worker thread keeps the event loop serving the other games
    return await asyncio.to_thread(_replay, rs, state, base, rows, since, upto, seats, watch)


async def events(
    session: AsyncSession,
    game: Game,
    seats: list[str],
    since: int,
    upto: int,
    watch: str | None = None,
) -> Entries:
    """Entries ``since+1..upto`` redacted for ``seats`` (``[]``: a spectator); cached per
    (game, since, upto, seats), single flight."""
    if upto <= since:
        return []
    key = (game.id, since, upto, tuple(seats), watch, game.status)
    hit = _CACHE.get(key)
    if hit is not None:
        _CACHE.move_to_end(key)
        stats["cached"] += 1
        return hit
    pending = _INFLIGHT.get(key)
    if pending is not None:
        stats["cached"] += 1
        return await asyncio.shield(pending)
    fut: asyncio.Future[Entries] = asyncio.get_running_loop().create_future()
    _INFLIGHT[key] = fut
    try:
        out = await _compute(session, game, seats, since, upto, watch)
    except BaseException as exc:
        fut.set_exception(exc)
        fut.exception()  # retrieved: no "never retrieved" warning
        raise
    finally:
        _INFLIGHT.pop(key, None)
    fut.set_result(out)
    _CACHE[key] = out
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return out
