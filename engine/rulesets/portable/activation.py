"""Turn sequence, activations: "Each side may activate as many units as they scored on
their die roll.  Units already engaged in Close Combat do not need to be activated."

A unit is *activated* by its first move, Artillery Fire or Close Combat of its side's
phase; each activation uses one point of the side's score.  A unit is *engaged in Close
Combat* when it has fought a Close Combat (either side of it) with an enemy unit that
is still in an adjacent area, neither having changed area since (a move, retreat or
advance ends a unit's engagements): it may fight again without an activation and
("Units involved in combat may not move") may not move.  The General is activated like a unit.
"""

from __future__ import annotations

from typing import Any

from .battlefield import adjacent
from .state import State, Unit


def engaged(st: State, u: Unit) -> bool:
    for eid in u.engaged:
        e = st.units[eid]
        if not e.lost and u.id in e.engaged and adjacent(u.area, e.area):
            return True
    return False


def can_activate(st: State, u: Unit) -> bool:
    return u.activated or st.activations > 0


def activate(st: State, u: Unit, ev: list[dict[str, Any]]) -> None:
    if not u.activated:
        u.activated = True
        st.activations -= 1
        ev.append({"type": "unit_activated", "unit": u.id, "side": u.side, "left": st.activations})


def busy(u: Unit) -> bool:
    """Already moved, fired or fought in this phase."""
    return u.moved or u.fired or u.fought
