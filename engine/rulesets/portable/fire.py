"""Artillery fire rules.

"Artillery has a range of four grid areas" (counted in orthogonal steps: the whole 3x3
battlefield), "may only fire at enemy units that are in direct line of sight" (no unit
of either side in an area between; from a hill over friendly units not on a hill, see
:func:`battlefield.line_of_sight`; a General alone neither blocks nor is a target), "may not move and fire during the same turn".

One D6 (a chance step ``for: "fire"``):  +1 if this artillery unit "has fired at the
same stationary target during the previous turn" (it fired at the same area last turn
and a unit it fired at then is still there, not having moved since); +1 if a friendly
General is in its area; -1 if the target area is cover or fortifications (once; with
option ``hill_cover_vs_artillery`` a hill is cover too).  5 or more: "any unit that is
in the grid area in which the artillery fire lands is hit" (see hits.py).  Firing uses
an activation (engaged units are excused only from activating for Close Combat).
"""

from __future__ import annotations

from typing import Any

from .activation import activate, can_activate
from .battlefield import cover, distance, feature, fortified, line_of_sight, on_battlefield
from .state import GRID_AREAS, State, Unit, other

RANGE = 4
HITS_ON = 5


def can_fire(st: State, u: Unit) -> bool:
    return (
        u.type == "artillery"
        and not u.lost
        and on_battlefield(u.area)
        and not u.moved
        and not u.fired
        and not u.fought
        and can_activate(st, u)
    )


def targets(st: State, u: Unit) -> list[str]:
    if not can_fire(st, u):
        return []
    return [
        a
        for a in GRID_AREAS
        if st.in_area(a, other(u.side)) and distance(u.at, a) <= RANGE and line_of_sight(st, u, a)
    ]


def actions(st: State, side: str) -> list[dict[str, Any]]:
    return [
        {"type": "fire", "seat": side, "unit": u.id, "target": a}
        for u in st.side_units(side)
        for a in targets(st, u)
    ]


def fire(st: State, u: Unit, target: str, ev: list[dict[str, Any]]) -> None:
    activate(st, u, ev)
    u.fired = True
    st.combat = {"kind": "fire", "unit": u.id, "side": u.side, "target": target}
    st.pending = {"type": "roll", "seat": "chance", "for": "fire", "dice": 1}
    ev.append(
        {"type": "artillery_fired", "unit": u.id, "side": u.side, "from": u.area, "target": target}
    )


def modifiers(st: State, u: Unit, target: str) -> list[tuple[str, int]]:
    mods: list[tuple[str, int]] = []
    mem = st.fire_memory.get(u.id)
    if (
        mem
        and mem[0] == st.turn - 1
        and mem[1] == target
        and any(st.units[uid].area == target and st.units[uid].moves == n for uid, n in mem[2])
    ):
        mods.append(("same stationary target", 1))
    g = st.general_of(u.side)
    if g is not None and g.area == u.area:
        mods.append(("General present", 1))
    if (
        cover(st, target)
        or fortified(st, target)
        or (st.options["hill_cover_vs_artillery"] and feature(st, target) == "hill")
    ):
        mods.append(("target in cover", -1))
    return mods


def resolve(st: State, die: int, ev: list[dict[str, Any]]) -> list[str]:
    """The fire roll: returns the ids of the units hit (every unit in the area, or none)."""
    c = st.resolving()
    u = st.units[c["unit"]]
    target = c["target"]
    mods = modifiers(st, u, target)
    score = die + sum(m[1] for m in mods)
    occupants = st.in_area(target, other(u.side))
    st.fire_memory[u.id] = (st.turn, target, tuple((e.id, e.moves) for e in occupants))
    lands = score >= HITS_ON
    st.last_roll = {
        "for": "fire",
        "unit": u.id,
        "side": u.side,
        "dice": [die],
        "modifiers": [list(m) for m in mods],
        "score": score,
        "result": "lands" if lands else "ineffective",
    }
    ev.append(dict(st.last_roll, type="dice_rolled"))
    return [e.id for e in occupants] if lands else []
