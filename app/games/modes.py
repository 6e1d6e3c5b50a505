"""Game modes: the server's names for the engine's modes.

``1v1`` (engine ``standard``): one seat per side.  ``team`` and ``overlord`` (engine modes
of the same names): per side a Commander-in-Chief and three Field Generals, seats
``"ALLIES:cinc"``, ``"ALLIES:left"``, ...  The seats are always ``engine.seats(state)``;
the server only maps ``"SIDE:role"`` onto its (seat, side, role) rows.
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

    def seat_specs(self, engine_seats: list[str]) -> list[SeatSpec]:
        return [seat_spec(s) for s in engine_seats]


MODES: dict[str, Mode] = {
    "1v1": Mode("1v1", "standard", ("STANDARD", "BRKTHRU", "OVERLORD")),
    "team": Mode("team", "team", ("STANDARD", "BRKTHRU")),
    "overlord": Mode("overlord", "overlord", ("OVERLORD",)),
}


def seat_spec(seat: str) -> SeatSpec:
    side, _, role = seat.partition(":")
    return SeatSpec(seat=seat, side=side, role=role or "commander")


def get_mode(name: str) -> Mode:
    mode = MODES.get(name)
    if mode is None:
        raise Unprocessable(f"unknown mode {name!r}; known: {sorted(MODES)}", code="unknown_mode")
    return mode


def modes_for(scenario: Any) -> list[str]:
    """Modes offered for a scenario, the natural one first (Overlord boards: overlord)."""
    kind = scenario.board.kind
    names = [m.name for m in MODES.values() if kind in m.boards]
    return sorted(names, key=lambda n: (n != "overlord", n))
