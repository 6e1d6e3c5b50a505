"""Movement: "Foot units 1 grid area, Artillery units 1 grid area, Mounted units 2 grid
areas, Generals 2 grid areas.  Units involved in combat may not move, but units moving
up to support them can."  Woods: "A unit must stop as soon as it enters a wood.  A unit
moving through a wood has a maximum movement rate of 1 grid area per turn."

A move is one action: the unit and where it ends (the engine finds the path).  Moving
through friendly areas is free (interpenetration); enemy areas block.  A move may end
in an area holding only the enemy General, who is captured.  Option
``river_crossing_stops``: a unit crossing the river stops beyond it.  A unit moves once
per phase, before it fights (a unit that fired or fought may not move afterwards).
"""

from __future__ import annotations

from typing import Any

from .activation import activate, busy, can_activate, engaged
from .battlefield import STACK_UNITS, crosses_river, enemy_general_alone, feature, steps
from .state import RESERVE, State, Unit
from .victory import check_break

ALLOWANCE = {"foot": 1, "artillery": 1, "mounted": 2, "general": 2}


def can_move(st: State, u: Unit) -> bool:
    return (
        not u.lost
        and u.area is not None
        and not busy(u)
        and can_activate(st, u)
        and (u.general or not engaged(st, u))
    )


def reachable(st: State, u: Unit) -> dict[str, list[str]]:
    """Every area ``u`` may end its move in -> the path (areas entered, in order)."""
    allowance = ALLOWANCE[u.type]
    if feature(st, u.area) == "wood":
        allowance = 1
    occ = _occupancy(st)
    out: dict[str, list[str]] = {}
    frontier: list[tuple[str, list[str]]] = [(u.at, [])]
    for _ in range(allowance):
        nxt = []
        for area, path in frontier:
            for b in steps(u.side, area):
                here = occ.get(b, ())
                enemy_units = any(x.side != u.side and not x.general for x in here)
                lone_general = not enemy_units and any(x.side != u.side for x in here)
                if (
                    b == u.area
                    or b in path
                    or b == RESERVE[u.side]
                    or enemy_units
                    or (u.general and lone_general)
                ):
                    continue
                p = path + [b]
                room = (
                    u.general
                    or sum(1 for x in here if x.side == u.side and not x.general and x.id != u.id)
                    < STACK_UNITS
                )
                if room and b not in out:
                    out[b] = p
                stop = (
                    feature(st, b) == "wood"
                    or lone_general
                    or (st.options["river_crossing_stops"] and crosses_river(st, area, b))
                )
                if not stop:
                    nxt.append((b, p))
        frontier = nxt
    return out


def _occupancy(st: State) -> dict[str, list[Unit]]:
    """Area -> pieces standing in it (one pass; the move search asks it many times)."""
    occ: dict[str, list[Unit]] = {}
    for x in st.units.values():
        if x.area is not None and not x.lost:
            occ.setdefault(x.area, []).append(x)
    return occ


def moves(st: State, side: str) -> list[dict[str, Any]]:
    out = []
    for u in st.side_units(side, generals=True):
        if can_move(st, u):
            for to in reachable(st, u):
                out.append({"type": "move", "seat": side, "unit": u.id, "to": to})
    return out


def move(st: State, u: Unit, to: str, ev: list[dict[str, Any]]) -> None:
    path = reachable(st, u)[to]
    activate(st, u, ev)
    frm = u.area
    u.moved = True
    ev.append(
        {"type": "unit_moved", "unit": u.id, "side": u.side, "from": frm, "to": to, "path": path}
    )
    place(st, u, to, ev)


def place(st: State, u: Unit, to: str, ev: list[dict[str, Any]] | None = None) -> None:
    """``u`` changes area (move, retreat, advance): engagement ends, a lone enemy General
    in the new area is captured."""
    u.area = to
    u.moves += 1
    u.engaged = ()
    g = enemy_general_alone(st, u.side, to)
    if g is not None and not u.general:
        g.lost, g.area, g.sp = True, None, 0
        (ev if ev is not None else []).append(
            {"type": "general_captured", "unit": g.id, "side": g.side, "by": u.id, "area": to}
        )
        check_break(st, ev if ev is not None else [])
