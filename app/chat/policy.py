"""Chat channel policy: a pure function of (who, channel, game view) -> allowed / why not.

Channels: ``all`` (players write, everyone reads), ``side:<SIDE>`` (that side's seats),
``spectators`` (spectators only: never delivered to players), and for team/Overlord play
``pair:<SIDE>:<role>`` between a side's Commander-in-Chief and one Field General.

Overlord chain of command (rules: Overlord, "Communication"): the Commander-in-Chief may
talk only to the Field General he is visiting this turn; the Field Generals of a side may
talk among themselves at any time; nothing crosses sides.  The visited general is read
from the writer's own engine view: ``view["overlord"]["chain_of_command"]["visited"]``
(the Field General visited this turn), else ``view["overlord"]["visit"]`` (the visit
being chosen).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

CINC = "cinc"


@dataclass(frozen=True)
class Actor:
    seat: str | None            # None: spectator
    side: str | None
    role: str | None
    identified: bool            # has an identity (name) — anonymous spectators cannot write


@dataclass(frozen=True)
class Decision:
    allowed: bool
    reason: str = ""

    def __bool__(self) -> bool:
        return self.allowed


OK = Decision(True)


def _no(reason: str) -> Decision:
    return Decision(False, reason)


def visiting(view: dict[str, Any] | None, side: str) -> str | None:
    """The Field General (role) the side's Commander-in-Chief visits this turn, if any."""
    ol = (view or {}).get("overlord") or {}
    coc = ol.get("chain_of_command") or {}
    if coc.get("side") == side and coc.get("visited"):
        return str(coc["visited"])
    visit = ol.get("visit")
    return str(visit) if visit else None


def may_read(actor: Actor, channel: str, view: dict[str, Any] | None = None) -> Decision:
    if channel == "all":
        return OK
    if channel == "spectators":
        return OK if actor.seat is None else _no("spectator chat is never shown to players")
    if channel.startswith("side:"):
        return OK if actor.seat is not None and actor.side == channel[5:] else _no("not your side")
    if channel.startswith("pair:"):
        _, side, role = (channel.split(":") + ["", ""])[:3]
        if actor.seat is None or actor.side != side:
            return _no("not your side")
        return OK if actor.role in (CINC, role) else _no("a private channel of two generals")
    return _no("unknown channel")


def may_write(actor: Actor, channel: str, view: dict[str, Any] | None = None) -> Decision:
    read = may_read(actor, channel, view)
    if not read:
        return read
    if not actor.identified:
        return _no("identify yourself (a guest name) to chat")
    if channel == "all":
        return OK if actor.seat is not None else _no("spectators write in the spectators channel")
    if channel.startswith("side:"):
        if actor.role == CINC:
            return _no("the Commander-in-Chief talks only to the general he visits")
        return OK
    if channel.startswith("pair:") and actor.role == CINC:
        role = channel.split(":")[2]
        assert actor.side is not None
        if visiting(view, actor.side) != role:
            return _no("the Commander-in-Chief may talk only to the general he visits this turn")
    if channel.startswith("pair:") and actor.role != CINC and _overlord_side(view, actor.side):
        # a Field General's line to his C-in-C is open only while the C-in-C visits him
        assert actor.side is not None
        visited = visiting(view, actor.side)
        if visited != actor.role:
            where = (f"the Commander-in-Chief is visiting the {_FG_NAMES.get(visited, visited)} "
                     "Field General this turn") if visited else \
                "the Commander-in-Chief has not chosen whom he visits this turn"
            return _no(f"{where}; your line to him opens when he visits you")
    return OK


_FG_NAMES = {"left": "Left", "centre": "Centre", "right": "Right"}


def _overlord_side(view: dict[str, Any] | None, side: str | None) -> bool:
    """The view carries the side's chain of command (Overlord play)."""
    coc = ((view or {}).get("overlord") or {}).get("chain_of_command") or {}
    return bool(side) and coc.get("side") == side


def closed_reasons(actor: Actor, readable: list[str], writable: list[str],
                   view: dict[str, Any] | None = None) -> dict[str, str]:
    """Why each readable channel is not writable now (for the client's closed panes)."""
    return {c: may_write(actor, c, view).reason for c in readable if c not in writable}


def channels(actor: Actor, seats: list[tuple[str, str, str]],
             view: dict[str, Any] | None = None) -> dict[str, list[str]]:
    """Channels this actor may read / write, given the game's (seat, side, role) list."""
    sides = sorted({side for _, side, _ in seats})
    candidates = ["all", *(f"side:{s}" for s in sides), "spectators"]
    candidates += [f"pair:{side}:{role}" for _, side, role in seats
                   if role not in (CINC, "commander") and any(r == CINC for _, sd, r in seats if sd == side)]
    return {"read": [c for c in candidates if may_read(actor, c, view)],
            "write": [c for c in candidates if may_write(actor, c, view)]}
