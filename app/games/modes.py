"""Seats, player slots and layouts of a game, as its ruleset defines them.

The seats are always the ruleset's ``seats(state)``; the server only maps ``"SIDE:role"``
(or a bare side) onto its (seat, side, role) rows.  The modes a ruleset offers and the
boards each accepts are the ruleset's (``Ruleset.modes`` / ``accepts``).

Layouts (e.g. 002 "Teams", 004 "Team Play"): how many players share a side's role seats,
from the ruleset (``engine.core.ruleset.layouts_of``; a ruleset without layouts: every
seat is one player).  Each group of roles is one **player slot**, named by its seats
joined with ``+`` after the side (``"ALLIES:cinc+centre"``); a slot of one seat is named
like the seat (``"ALLIES:left"``, ``"AXIS"``).  One identity claims a whole slot; a bot
may hold any slot.

Stand-in bots (a bot takes over the slot of a player who leaves a live game, or stays
away ``BOT_GRACE_SECONDS``) are the ruleset's to declare per mode
(``Ruleset.bots_stand_in``, asked through ``app.engine_api``): the modes whose role seats
are shared by teams.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine_api import Ruleset, layouts_of
from ..errors import Unprocessable


@dataclass(frozen=True)
class SeatSpec:
    seat: str
    side: str
    role: str


def seat_spec(seat: str) -> SeatSpec:
    side, _, role = seat.partition(":")
    return SeatSpec(seat=seat, side=side, role=role or "commander")


def modes_for(rs: Ruleset, scenario: Any) -> list[str]:
    """The modes of ``rs`` offered for ``scenario``, the natural one first (a ruleset whose
    setup is ``"none"``: all its modes)."""
    if rs.setup != "scenario":
        return list(rs.modes)
    return [m for m in rs.modes if rs.accepts(scenario, m)]


def get_mode(rs: Ruleset, scenario: Any, name: str | None) -> str:
    """The mode asked for (or the natural one); 422 when ``rs`` does not offer it here."""
    offered = modes_for(rs, scenario)
    if name is None:
        if not offered:
            raise Unprocessable(
                f"ruleset {rs.name} does not accept this scenario", code="unknown_mode"
            )
        return offered[0]
    if name not in offered:
        raise Unprocessable(
            f"mode {name!r} is not offered for this scenario by ruleset "
            f"{rs.name}; offered: {offered}",
            code="unknown_mode",
        )
    return name


def layouts(rs: Ruleset, mode: str | None) -> dict[str, list[list[str]]]:
    """The ruleset's layouts of a mode (layout name -> groups of roles)."""
    return layouts_of(rs, mode)[0]


def slots_per_side(seats: Any) -> dict[str, int]:
    """Side -> how many player slots share its seats (``seats``: objects with ``seat``,
    ``side``, ``slot``), what ``Ruleset.collective_sides`` is asked with."""
    slots: dict[str, set[str]] = {}
    for s in seats:
        slots.setdefault(s.side, set()).add(s.slot or s.seat)
    return {side: len(held) for side, held in slots.items()}


@dataclass(frozen=True)
class SlotSpec:
    slot: str
    side: str
    seats: tuple[str, ...]


def slot_name(side: str, roles: list[str]) -> str:
    return f"{side}:{'+'.join(roles)}" if roles else side


def build_slots(
    rs: Ruleset, mode: str | None, engine_seats: list[str], layout: dict[str, str] | None
) -> tuple[dict[str, str], list[SlotSpec]]:
    """(the layout per side, the player slots) for a new game; 422 on a bad layout."""
    table, default = layouts_of(rs, mode)
    sides = list(dict.fromkeys(seat_spec(s).side for s in engine_seats))
    layout = dict(layout or {})
    unknown = set(layout) - set(sides)
    if unknown:
        raise Unprocessable(
            f"layout names unknown sides {sorted(unknown)}; sides: {sides}", code="invalid_layout"
        )
    chosen: dict[str, str] = {}
    slots: list[SlotSpec] = []
    for side in sides:
        name = str(layout.get(side, default))
        if name not in table:
            raise Unprocessable(
                f"layout {name!r} for {side} is not offered in mode {mode}; "
                f"offered: {sorted(table)}",
                code="invalid_layout",
            )
        chosen[side] = name
        for roles in table[name]:
            seats = tuple(f"{side}:{r}" for r in roles) if roles else (side,)
            missing = [s for s in seats if s not in engine_seats]
            if missing:
                raise Unprocessable(f"the engine has no seats {missing}", code="invalid_layout")
            slots.append(SlotSpec(slot_name(side, roles), side, seats))
    covered = sorted(s for sl in slots for s in sl.seats)
    if covered != sorted(engine_seats):
        raise Unprocessable("the layout does not cover every seat", code="invalid_layout")
    return chosen, slots
