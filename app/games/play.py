"""Playing: one client action -> engine -> durable log -> new live state.

The server decides nothing about the rules: ``engine.apply`` accepts or refuses, and
while the engine is at a chance node the server rolls with ``engine.sample_chance`` and
logs the rolls in the same transaction, so the log alone replays the game.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from ..db import Database
from ..engine_api import E, EngineError
from . import repository
from .runtime import Batch, GameRuntime, game_fields, settle_chance

log = logging.getLogger("app.play")


@dataclass
class Outcome:
    ok: bool
    seq: int
    code: str = ""
    message: str = ""
    details: dict[str, Any] = field(default_factory=dict)
    batch: Batch | None = None
    entries: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    @classmethod
    def reject(cls, seq: int, code: str, message: str, **details: Any) -> Outcome:
        return cls(False, seq, code, message, details)


async def submit(db: Database, rt: GameRuntime, seat: str,
                 expected_seq: int, action: dict[str, Any], snapshot_every: int) -> Outcome:
    """Apply ``action`` for ``seat``; the caller holds ``rt.lock``."""
    if rt.fields()["status"] == "finished":
        return Outcome.reject(rt.seq, "game_over", "the game is over")
    if not rt.all_seats_held():
        return Outcome.reject(rt.seq, "game_not_started", "a seat is still free")
    if expected_seq != rt.seq:
        return Outcome.reject(rt.seq, "stale_seq",
                              f"the game is at seq {rt.seq}, not {expected_seq}; resync")
    action = {**action, "seat": seat}
    try:
        state, events = E.apply(rt.state, action)
        state, rolls, roll_events = settle_chance(state)
        fields = game_fields(state, list(rt.seats.values()))
    except EngineError as exc:
        return Outcome.reject(rt.seq, exc.code, exc.message, **exc.details)
    except Exception:  # an engine bug must not take the server down
        log.exception("engine failed on %s in game %s", action, rt.game_id)
        return Outcome.reject(rt.seq, "engine_failure", "the engine could not process this action")
    entries = [(seat, action), *rolls]
    old = rt.seq
    new = old + len(entries)
    snapshot = E.dump_state(state) if new // snapshot_every > old // snapshot_every else None
    async with db.write_lock, db.sessions() as session:
        try:
            await repository.append(session, rt.game_id, old, entries, fields, snapshot)
        except repository.StaleSeq:
            await rt.catch_up(session)
            return Outcome.reject(rt.seq, "stale_seq",
                                  f"another action was accepted first; the game is at seq {rt.seq}")
    batch = rt.push(old + 1, seat, [*events, *roll_events], state, new)
    return Outcome(True, new, batch=batch, entries=entries)
