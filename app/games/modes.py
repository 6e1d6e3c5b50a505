"""Game modes: the server's names for the engine's modes.

``1v1`` (engine ``standard``): one seat per side.  ``team`` and ``overlord`` (engine modes
of the same names): per side a Commander-in-Chief and three Field Generals, seats
``"ALLIES:cinc"``, ``"ALLIES:left"``, ...  The seats are always ``engine.seats(state)``;
the server only maps ``"SIDE:role"`` onto its (seat, side, role) rows.

Layouts (002 "Teams", 004 "Team Play"): how many players share a side's role seats,
from ``engine.rules.overlord.seat_layouts(mode)``.  Each group of roles is one **player
slot**, named by its seats joined with ``+`` after the side (``"ALLIES:cinc+centre"``); a
slot of one seat is named like the seat (``"ALLIES:left"``, ``"AXIS"``).  One identity
claims a whole slot; a bot may hold any slot.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import Unprocessable


@dataclass(frozen=True)
class SeatSpec:
    seat: str
    side: str
    role: str


@dataclass(frozen=True)
class Mode:
    name: str
    engine_mode: str
    boards: tuple[str, ...]                 # board kinds the mode is offered for
    engine_options: dict[str, Any] = field(default_factory=dict)
    # bots stand in for players who leave a live game or stay away (BOT_GRACE_SECONDS)
    stand_in: bool = False

    def seat_specs(self, engine_seats: list[str]) -> list[SeatSpec]:
        return [seat_spec(s) for s in engine_seats]


MODES: dict[str, Mode] = {
    "1v1": Mode("1v1", "standard", ("STANDARD", "BRKTHRU")),
    "team": Mode("team", "team", ("STANDARD", "BRKTHRU"), stand_in=True),
    "overlord": Mode("overlord", "overlord", ("OVERLORD",), stand_in=True),
}


STAND_IN_MODES = tuple(m.name for m in MODES.values() if m.stand_in)


def seat_spec(seat: str) -> SeatSpec:
    side, _, role = seat.partition(":")
    return SeatSpec(seat=seat, side=side, role=role or "commander")


def get_mode(name: str) -> Mode:
    mode = MODES.get(name)
    if mode is None:
        raise Unprocessable(f"unknown mode {name!r}; known: {sorted(MODES)}", code="unknown_mode")
    return mode


def modes_for(scenario: Any) -> list[str]:
    """Modes offered for a scenario, the natural one first: Overlord boards
    ``["overlord"]``, standard (and Breakthrough) boards ``["1v1", "team"]``."""
    kind = scenario.board.kind
    names = [m.name for m in MODES.values() if kind in m.boards]
    return sorted(names, key=lambda n: (n != "overlord", n))


# Layout offered per mode (players per side -> groups of roles) and the default.
DEFAULT_LAYOUT = {"1v1": "1", "team": "3", "overlord": "4"}


def layouts(mode: str) -> dict[str, list[list[str]]]:
    """The engine's layouts for a server mode (``1v1``: one slot per side)."""
    from engine.rules.overlord import seat_layouts

    if mode == "1v1":
        return {"1": [[]]}
    return seat_layouts(MODES[mode].engine_mode)


def collective_sides(seats: Any) -> frozenset[str]:
    """Sides whose role seats are shared by at most two player slots (layouts ``2`` and
    ``1``): 002 "Teams": "with 2 or even 1 player per side, the players play all roles
    collectively, for their camp", so the chain of command does not split them (chat
    policy, ``app.chat.policy``).  ``seats``: objects with ``seat``, ``side``, ``slot``."""
    slots: dict[str, set[str]] = {}
    for s in seats:
        if ":" in s.seat:
            slots.setdefault(s.side, set()).add(s.slot or s.seat)
    return frozenset(side for side, held in slots.items() if len(held) <= 2)


@dataclass(frozen=True)
class SlotSpec:
    slot: str
    side: str
    seats: tuple[str, ...]


def slot_name(side: str, roles: list[str]) -> str:
    return f"{side}:{'+'.join(roles)}" if roles else side


def build_slots(mode: str, engine_seats: list[str], layout: dict[str, str] | None
                ) -> tuple[dict[str, str], list[SlotSpec]]:
    """(the layout per side, the player slots) for a new game; 422 on a bad layout."""
    table = layouts(mode)
    sides = list(dict.fromkeys(seat_spec(s).side for s in engine_seats))
    layout = dict(layout or {})
    unknown = set(layout) - set(sides)
    if unknown:
        raise Unprocessable(f"layout names unknown sides {sorted(unknown)}; sides: {sides}",
                            code="invalid_layout")
    chosen: dict[str, str] = {}
    slots: list[SlotSpec] = []
    for side in sides:
        name = str(layout.get(side, DEFAULT_LAYOUT[mode]))
        if name not in table:
            raise Unprocessable(f"layout {name!r} for {side} is not offered in mode {mode}; "
                                f"offered: {sorted(table)}", code="invalid_layout")
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
