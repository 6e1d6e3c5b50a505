"""General rules and Special rules: the 3x3 grid, the Reserve Areas, stacking, terrain.

* "The playing surface is divided into a 3 x 3 square grid."  Adjacent = sharing an
  edge (orthogonal); diagonal areas are not adjacent (a choice: the text says only
  "adjacent grid areas").
* "Each side also has a Reserve Area behind its baseline.  Units in the Reserve Area may
  move into any of their side's baseline squares."  The Reserve Area is off the
  battlefield: units in it cannot fight, fire or be fired at, and it has no stacking
  limit.  Units never move back into it, but a unit on its own baseline that retreats
  goes there (it is the area behind the baseline).
* "No more than two units and a General may occupy the same grid area."  Enemies never
  share an area.  "Units may interpenetrate friendly units": moving through a friendly
  area is free, only where a move ends counts.
* Built-up areas and woods give cover; hills make the enemy "uphill"; the river lies on
  the line between two ranks.
"""

from __future__ import annotations

from .state import (
    BASELINE_Y,
    FORWARD,
    GRID,
    RESERVE,
    State,
    Unit,
    baseline,
    cell,
    cell_of,
    name_of,
    other,
)

STACK_UNITS = 2


_NEIGHBOURS = {name_of(c): [name_of(n) for n in GRID.neighbours(c)] for c in GRID.cells()}


def neighbours(area: str) -> list[str]:
    """Battlefield areas adjacent to the battlefield area ``area`` (edge-sharing)."""
    return _NEIGHBOURS.get(area, [])


def adjacent(a: str | None, b: str | None) -> bool:
    ca, cb = (cell_of(a) if a else None), (cell_of(b) if b else None)
    return ca is not None and cb is not None and GRID.orthogonal(ca, cb)


def distance(a: str, b: str) -> int:
    return GRID.distance(cell(a), cell(b))


def steps(side: str, area: str) -> list[str]:
    """Where one area of movement leads from ``area`` for a piece of ``side``."""
    if area == RESERVE[side]:
        return list(baseline(side))
    return neighbours(area)


def behind(side: str, area: str) -> str:
    """The area one step back towards ``side``'s baseline (its Reserve Area from it)."""
    x, y = cell(area)
    y2 = y - FORWARD[side]
    return name_of((x, y2)) if GRID.inside((x, y2)) else RESERVE[side]


def on_battlefield(area: str | None) -> bool:
    return area is not None and cell_of(area) is not None


def feature(st: State, area: str | None) -> str | None:
    return st.terrain.get(area) if area else None


def cover(st: State, area: str) -> bool:
    """Built-up areas and woods "provide cover for troops that are in them"."""
    return feature(st, area) in ("built_up", "wood")


def fortified(st: State, area: str) -> bool:
    return st.options["built_up_fortified"] and feature(st, area) == "built_up"


def uphill(st: State, enemy_area: str, own_area: str) -> bool:
    return feature(st, enemy_area) == "hill" and feature(st, own_area) != "hill"


def crosses_river(st: State, a: str, b: str) -> bool:
    """True when a step between two battlefield areas crosses the river line."""
    if st.river is None or not on_battlefield(a) or not on_battlefield(b):
        return False
    low = int(st.river[0]) - 1  # "1-2": between y 0 and y 1
    ya, yb = cell(a)[1], cell(b)[1]
    return min(ya, yb) == low and max(ya, yb) == low + 1


def room_for(st: State, piece: Unit, area: str) -> bool:
    """May ``piece`` end a move / retreat / deployment in ``area`` (stacking, enemies)?

    An area holding only an enemy General may be entered (he is captured, see
    :func:`hits.capture`); an area with enemy units may not."""
    if area == RESERVE[piece.side]:
        return True
    if not on_battlefield(area):
        return False
    if st.in_area(area, other(piece.side)):
        return False
    if piece.general:
        return True
    return len([u for u in st.in_area(area, piece.side) if u.id != piece.id]) < STACK_UNITS


def enemy_general_alone(st: State, side: str, area: str) -> Unit | None:
    """The enemy General standing alone in ``area`` (to be captured), if any."""
    if not on_battlefield(area) or st.in_area(area, other(side)):
        return None
    gs = [u for u in st.in_area(area, other(side), generals=True) if u.general]
    return gs[0] if gs else None


def attack_direction(st: State, attacker_area: str, target: Unit) -> str:
    """ "front", "flank" or "rear" of ``target`` for an attack from ``attacker_area``.

    The text has no facing: a unit faces the enemy baseline, so an attack from the area
    in front of it (towards the enemy) is frontal, from beside it a flank attack, from
    behind it (its own baseline side) a rear attack."""
    (_, ay), (_, ty) = cell(attacker_area), cell(target.at)
    dy = ay - ty
    if dy == FORWARD[target.side]:
        return "front"
    if dy == 0:
        return "flank"
    return "rear"


def line_of_sight(st: State, gun: Unit, target_area: str) -> bool:
    """ "No other units between the firing artillery unit and the target unit"; from a
    hill it "can fire over friendly units that are in front of them" not on a hill."""
    a, b = cell(gun.at), cell(target_area)
    on_hill = feature(st, gun.area) == "hill"
    for line in GRID.between(a, b):
        blocked = False
        for c in line:
            area = name_of(c)
            for u in st.in_area(area):
                if u.side == gun.side and on_hill and feature(st, area) != "hill":
                    continue
                blocked = True
        if not blocked:
            return True
    return False


def deploy_zone(side: str) -> tuple[str, ...]:
    """Deployment: "places all their units on the battlefield" - the text says not where;
    each side deploys on its own baseline or in its own Reserve Area."""
    return baseline(side) + (RESERVE[side],)


__all__ = [
    "BASELINE_Y",
    "neighbours",
    "adjacent",
    "steps",
    "behind",
    "feature",
    "cover",
    "fortified",
    "uphill",
    "crosses_river",
    "room_for",
    "attack_direction",
    "line_of_sight",
    "deploy_zone",
    "enemy_general_alone",
    "distance",
    "on_battlefield",
]
