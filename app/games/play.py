"""Playing: one client action -> engine -> durable log -> new live state.

The server decides nothing about the rules: the game's ruleset (``rt.rs.apply``) accepts
or refuses, and while the ruleset is at a chance node the server rolls with its
``sample_chance`` and logs the rolls in the same transaction, so the log alone replays
the game.
"""

from __future__ import annotations

import logging
import zlib
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select

from ..db import Database
from ..engine_api import EngineError, Fold, Ruleset
from ..models import Game
from . import repository
from .runtime import Batch, GameRuntime, clock_at, dump_snapshot, game_fields, settle_chance

log = logging.getLogger("app.play")
SNAPSHOT_EVERY = 50  # log entries between state snapshots (a cold load replays at most these)


@dataclass
class Outcome:
    ok: bool
    seq: int
    code: str = ""
    message: str = ""
    details: dict[str, Any] = field(default_factory=dict)
    batch: Batch | None = None
    entries: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    snapshot: Any = None  # the state to snapshot after the broadcast, if due
    snapshot_seq: int = 0  # the seq of that state (set with ``snapshot``)

    @classmethod
    def reject(cls, seq: int, code: str, message: str, **details: Any) -> Outcome:
        return cls(False, seq, code, message, details)


async def submit(
    db: Database,
    writer: repository.LogWriter,
    rt: GameRuntime,
    seat: str,
    expected_seq: int,
    action: dict[str, Any],
) -> Outcome:
    """Apply ``action`` for ``seat``; the caller holds ``rt.lock``."""
    if rt.fields()["status"] == "finished":
        return Outcome.reject(rt.seq, "game_over", "the game is over")
    if rt.status == "open":  # a game that started stays live (game_fields)
        return Outcome.reject(rt.seq, "game_not_started", "a seat is still free")
    if expected_seq != rt.seq:
        return Outcome.reject(
            rt.seq, "stale_seq", f"the game is at seq {rt.seq}, not {expected_seq}; resync"
        )
    before = rt.state
    try:
        # the log stores the ruleset's canonical form, never the client's text: unknown
        # keys and out-of-range values are refused here (unknown_field, bad_value, ...)
        action = rt.rs.canonical_action(before, {**action, "seat": seat})
        state, events = rt.rs.apply(before, action)
        state, rolls, roll_events = settle_chance(rt.rs, state)
        fields = game_fields(rt.rs, state, list(rt.seats.values()), rt.started)
    except EngineError as exc:
        return Outcome.reject(rt.seq, exc.code, exc.message, **exc.details)
    except Exception:  # an engine bug must not take the server down
        log.exception("engine failed on %.500s in game %s", action, rt.game_id)
        return Outcome.reject(rt.seq, "engine_failure", "the engine could not process this action")
    entries = [(seat, action), *rolls]
    old = rt.seq
    new = old + len(entries)
    # the log rows are the truth; a snapshot only shortens cold starts, so it is written
    # after the broadcast (write_snapshot), off the action's path
    snap = snapshot_due(rt.game_id, old, new, SNAPSHOT_EVERY)
    stale = await _append(db, writer, rt, old, entries, fields)
    if stale is not None:
        return stale
    rt.fold.record(old + 1, seat, action, before, events, state, len(rolls))
    if rolls:
        rt.fold.stack.clear()
    batch = rt.push(old + 1, seat, [*events, *roll_events], state, new)
    rt._fields = ((rt.seq, rt._seats_version), fields)  # prime the lobby-columns memo
    # a snapshot only where nothing before it can be undone (a cold start from it has no
    # undo stack): the state before the first undoable step of the current one, if any
    at, snap_state = new, state
    if snap and rt.fold.stack:
        first, _, before_first = rt.fold.stack[0]
        at, snap_state = first - 1, before_first
    if at <= 0:  # the state before seq 1: the seed replays it, no snapshot
        snap = False
    return Outcome(
        True,
        new,
        batch=batch,
        entries=entries,
        snapshot=snap_state if snap else None,
        snapshot_seq=at,
    )


def snapshot_due(game_id: str, old: int, new: int, every: int) -> bool:
    """Whether log entries ``old+1..new`` cross one of the game's snapshot points: every
    ``every`` entries, shifted by an offset of the game's own (a CRC of its id), so that
    games started together (a tournament round, a benchmark) do not all snapshot on the
    same action: 300 games snapshotting at once held the loop for ~300 ms."""
    off = zlib.crc32(game_id.encode()) % every
    return (new + off) // every > (old + off) // every


async def submit_meta(
    db: Database, writer: repository.LogWriter, rt: GameRuntime, seat: str, action: dict[str, Any]
) -> Outcome:
    """Append a server-originated entry (``resign`` / ``timeout`` / ``forfeit`` /
    ``undo``: ``engine.meta``) for ``seat``; the caller holds ``rt.lock``.  Folded exactly
    as every replay folds it."""
    if rt.fields()["status"] == "finished":
        return Outcome.reject(rt.seq, "game_over", "the game is over")
    if rt.status == "open":  # a game that started stays live (game_fields)
        return Outcome.reject(rt.seq, "game_not_started", "a seat is still free")
    action = {**action, "seat": seat}
    trial = Fold(rt.fold.state, rt.fold.seq, rt.rs)
    trial.stack = list(rt.fold.stack)
    old = rt.seq
    try:
        events = trial.apply(old + 1, seat, action, rt.rs.apply)
        fields = game_fields(rt.rs, trial.state, list(rt.seats.values()), rt.started)
    except EngineError as exc:
        return Outcome.reject(rt.seq, exc.code, exc.message, **exc.details)
    except Exception:  # e.g. a ruleset whose states know no ending: never a crash
        log.exception("engine failed on %.500s in game %s", action, rt.game_id)
        return Outcome.reject(rt.seq, "engine_failure", "the engine could not process this action")
    entries = [(seat, action)]
    stale = await _append(db, writer, rt, old, entries, fields)
    if stale is not None:
        return stale
    rt.fold = trial
    batch = rt.push(old + 1, seat, events, trial.state, old + 1)
    rt._fields = ((rt.seq, rt._seats_version), fields)
    return Outcome(True, old + 1, batch=batch, entries=entries)


async def _append(
    db: Database,
    writer: repository.LogWriter,
    rt: GameRuntime,
    old: int,
    entries: list[tuple[str, dict[str, Any]]],
    fields: dict[str, Any],
) -> Outcome | None:
    """Commit log entries ``old+1..`` (compare-and-set on the seq); a ``stale_seq``
    rejection when another writer was first (the runtime then catches up)."""
    ok = await writer.append(rt.game_id, old, entries, fields)
    if ok:
        return None
    async with db.sessions() as session:
        await rt.catch_up(session)
    return Outcome.reject(
        rt.seq, "stale_seq", f"another action was accepted first; the game is at seq {rt.seq}"
    )


async def _clock_fold(db: Database, game_id: str, seq: int) -> dict[str, Any] | None:
    """A timed game's clock fold after ``seq`` (None: untimed)."""
    async with db.sessions() as session:
        game = (
            await session.execute(
                select(Game.id, Game.clock, Game.started_at).where(Game.id == game_id)
            )
        ).first()
        if game is None or not game.clock:
            return None
        sides = tuple(dict.fromkeys(s.side for s in await repository.seats_of(session, game_id)))
        folded = await clock_at(session, game, sides, seq)
        return folded.dump() if folded is not None else None


async def write_snapshot(
    db: Database,
    writer: repository.LogWriter,
    rs: Ruleset,
    game_id: str,
    seq: int,
    state: Any,
    timed: bool = True,
) -> None:
    """Store the state after ``seq`` and, for a timed game, its clock's fold (the
    previous snapshot's + at most :data:`SNAPSHOT_EVERY` rows; best effort: the log alone
    replays the game).  ``timed=False``: the caller knows the game has no clock (no
    read of the game row on the hot path)."""
    try:
        blob = dump_snapshot(rs, state)
        clock = await _clock_fold(db, game_id, seq) if timed else None
        await writer.snapshot(game_id, seq, blob, clock)
    except Exception:
        log.exception("snapshot of game %s at seq %s failed", game_id, seq)
