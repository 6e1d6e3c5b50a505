"""Game modes: which seats a game has and the engine options a mode implies.

``1v1``: one seat per side, exactly ``engine.seats(state)``.  Team/Overlord modes (later)
map the engine's role seats (``"ALLIES:cinc"``, ...) onto several seats per side.
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
    engine_options: dict[str, Any] = field(default_factory=dict)

    def seat_specs(self, engine_seats: list[str]) -> list[SeatSpec]:
        return [seat_spec(s) for s in engine_seats]


MODES: dict[str, Mode] = {"1v1": Mode("1v1")}


def seat_spec(seat: str) -> SeatSpec:
    side, _, role = seat.partition(":")
    return SeatSpec(seat=seat, side=side, role=role or "commander")


def get_mode(name: str) -> Mode:
    mode = MODES.get(name)
    if mode is None:
        raise Unprocessable(f"unknown mode {name!r}; known: {sorted(MODES)}", code="unknown_mode")
    return mode


def modes_for(_scenario: Any) -> list[str]:
    return sorted(MODES)
