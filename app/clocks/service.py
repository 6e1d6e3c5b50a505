"""Turn clocks on the server's clock (the engine has none).

A clock is a pure function of the game's log timestamps: the time between two log
entries is charged to the side of the seat that made the second one (it was thinking);
``bank`` clocks add the increment to a side when the other side acts after it.  Entries
of the dice (``chance``) are not charged.  So a clock survives restarts and reconnects
(the cold start folds ``actions.created_at``), and every worker tells the same time.

On time-out (checked every second by the hub, on every worker: the log's
compare-and-set lets exactly one of them write): ``lose`` appends a ``timeout`` entry
for a seat of the side (``engine.meta``: the other side wins); ``bot`` lets the server's
bot decide for the seat while its side has no time left (plain actions in the log).
"""

from __future__ import annotations

import time
from datetime import datetime, timezone
from typing import Any

SIDES = ("AXIS", "ALLIES")  # the default sides (a clock built without the game's)


def epoch(dt: datetime | None) -> float | None:
    if dt is None:
        return None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt.timestamp()


class Clock:
    def __init__(
        self, cfg: dict[str, Any], start: float | None, sides: tuple[str, ...] = SIDES
    ) -> None:
        self.cfg = cfg
        self.kind = str(cfg.get("kind", "none"))
        self.sides = tuple(sides) or SIDES  # the game's sides (any ruleset's)
        self.remaining = {s: float(cfg.get("initial_seconds", 0)) for s in self.sides}
        self.last = start  # when the current decision began
        self.last_side: str | None = None

    @classmethod
    def of(
        cls,
        cfg: dict[str, Any] | None,
        started_at: datetime | None,
        rows: list[tuple[str, datetime | None]],
        sides: tuple[str, ...] = SIDES,
        saved: dict[str, Any] | None = None,
    ) -> Clock | None:
        """Fold the log's (seat, created_at) rows; ``sides``: the game's sides.
        ``saved``: the fold of the rows before these (:meth:`dump`, kept with a
        snapshot), so that a cold start folds only the log's tail."""
        if not cfg or cfg.get("kind", "none") == "none":
            return None
        clock = cls(cfg, epoch(started_at), sides)
        if saved is not None:
            for side, left in (saved.get("remaining") or {}).items():
                if side in clock.remaining:
                    clock.remaining[side] = float(left)
            clock.last, clock.last_side = saved.get("last"), saved.get("last_side")
        for seat, at in rows:
            clock.entry(seat, epoch(at) or time.time())
        return clock

    def dump(self) -> dict[str, Any]:
        """The fold so far (JSON), for :meth:`of` ``saved``."""
        return {"remaining": dict(self.remaining), "last": self.last, "last_side": self.last_side}

    def start(self, t: float) -> None:
        if self.last is None:
            self.last = t

    def entry(self, seat: str, t: float) -> None:
        if seat == "chance":
            return
        if self.last is None:
            self.last = t
        side = seat.partition(":")[0]
        if side not in self.remaining:
            return
        if self.kind == "bank":
            self.remaining[side] -= max(0.0, t - self.last)
            if self.last_side is not None and side != self.last_side:
                self.remaining[self.last_side] += float(self.cfg.get("increment_seconds", 0))
        self.last, self.last_side = t, side

    def left(self, side: str, running: bool, now: float | None = None) -> float:
        now = time.time() if now is None else now
        spent = max(0.0, now - self.last) if running and self.last is not None else 0.0
        if self.kind == "bank":
            return self.remaining[side] - spent
        return float(self.cfg.get("move_seconds", 60)) - spent

    def public(self, running: list[str], now: float | None = None) -> dict[str, Any]:
        now = time.time() if now is None else now
        return {
            "kind": self.kind,
            "on_timeout": self.cfg.get("on_timeout", "lose"),
            "increment_seconds": self.cfg.get("increment_seconds", 0) if self.kind == "bank" else 0,
            "move_seconds": self.cfg.get("move_seconds") if self.kind == "move" else None,
            "remaining": {
                s: round(max(0.0, self.left(s, s in running, now)), 1) for s in self.sides
            },
            "running": running if self.last is not None else [],
            "server_time": round(now, 3),
        }


def running_sides(rt: Any) -> list[str]:
    """The sides whose clock runs: a live game, the seats the engine waits for."""
    if rt.status != "live":
        return []
    sides = getattr(rt.clock, "sides", None) or SIDES
    out: list[str] = []
    for seat in rt.rs.to_act(rt.state):
        side = seat.partition(":")[0]
        if seat != "chance" and side in sides and side not in out:
            out.append(side)
    return out


def clock_field(rt: Any) -> dict[str, Any]:
    """``clock`` in hello / update / sync (null: an untimed game)."""
    clock = getattr(rt, "clock", None)
    if clock is None:
        return {"clock": None}
    return {"clock": clock.public(running_sides(rt))}


def expired(rt: Any, now: float | None = None) -> list[str]:
    """The seats the engine waits for whose side is out of time (human seats only)."""
    clock = getattr(rt, "clock", None)
    if clock is None or clock.last is None:
        return []
    running = running_sides(rt)
    out = []
    for seat in rt.rs.to_act(rt.state):
        side = seat.partition(":")[0]
        info = rt.seats.get(seat)
        if (
            side in running
            and info is not None
            and not info.is_bot
            and clock.left(side, True, now) <= 0
        ):
            out.append(seat)
    return out
