"""Close Combat rules.

"Other than artillery, all combat takes place between units in adjacent grid areas.
Only one unit in a grid area may fight an enemy unit in an adjacent grid area."  A foot
or mounted unit attacks one enemy unit (its owner's choice) in an adjacent area; from
one area only one Close Combat a phase is made against each adjacent area.  Artillery
and Generals never start a Close Combat; artillery attacked rolls like any unit.

Both roll a D6 (one chance step ``for: "close_combat"``, dice ``[attacker, defender]``):
+1 friendly unit of the same type in the area, +1 friendly General in the area, +1 to
the initiator of a flank or rear attack and -1 to the unit attacked in flank or rear
(option ``flank_attacks``, see :func:`battlefield.attack_direction`), -1 if the enemy
unit is uphill or in cover (once), -1 if the enemy is in fortifications (option
``built_up_fortified``), -1 to the initiator attacking across the river (option
``river_defence``).  2 or less: the unit is hit.

"Infantry units and cavalry units that win a Close Combat (the enemy unit destroyed or
retreated) can move forward and occupy the grid area that was occupied by the enemy unit
and can conduct further Close Combats": only the initiator may advance (pending
``advance``), and only into an area its enemy has left empty; it may then fight once
more without an activation.
"""

from __future__ import annotations

from typing import Any

from .activation import activate, can_activate, engaged
from .battlefield import (
    adjacent,
    attack_direction,
    cover,
    crosses_river,
    fortified,
    neighbours,
    on_battlefield,
    room_for,
    uphill,
)
from .movement import place
from .state import State, Unit, other

HIT_AT_MOST = 2


def can_attack(st: State, u: Unit) -> bool:
    return (
        u.type in ("foot", "mounted")
        and not u.lost
        and on_battlefield(u.area)
        and (not u.fought or u.fight_on)
        and (u.fight_on or engaged(st, u) or can_activate(st, u))
    )


def targets(st: State, u: Unit) -> list[Unit]:
    if not can_attack(st, u):
        return []
    out: list[Unit] = []
    for a in neighbours(u.at):
        if (u.at, a) in st.fights:
            continue
        out.extend(st.in_area(a, other(u.side)))
    return out


def actions(st: State, side: str) -> list[dict[str, Any]]:
    return [
        {"type": "attack", "seat": side, "unit": u.id, "target": t.id}
        for u in st.side_units(side)
        for t in targets(st, u)
    ]


def attack(st: State, u: Unit, t: Unit, ev: list[dict[str, Any]]) -> None:
    if not (u.fight_on or engaged(st, u)):
        activate(st, u, ev)
    u.fought, u.fight_on = True, False
    st.fights = st.fights + ((u.at, t.at),)
    direction = attack_direction(st, u.at, t)
    st.combat = {
        "kind": "close",
        "unit": u.id,
        "side": u.side,
        "target": t.id,
        "from": u.at,
        "to": t.at,
        "direction": direction,
    }
    st.pending = {"type": "roll", "seat": "chance", "for": "close_combat", "dice": 2}
    ev.append(
        {
            "type": "close_combat",
            "unit": u.id,
            "side": u.side,
            "target": t.id,
            "from": u.area,
            "to": t.area,
            "direction": direction,
        }
    )


def modifiers(
    st: State, x: Unit, y: Unit, initiator: bool, direction: str
) -> list[tuple[str, int]]:
    """The modifiers of ``x``'s D6 against the enemy unit ``y``."""
    mods: list[tuple[str, int]] = []
    if any(f.type == x.type and f.id != x.id for f in st.in_area(x.at, x.side)):
        mods.append(("same-type support", 1))
    g = st.general_of(x.side)
    if g is not None and g.area == x.area:
        mods.append(("General present", 1))
    if st.options["flank_attacks"] and direction != "front":
        mods.append(
            (f"{direction} attack", 1) if initiator else (f"attacked in the {direction}", -1)
        )
    if uphill(st, y.at, x.at) or cover(st, y.at):
        mods.append(("enemy uphill or in cover", -1))
    if fortified(st, y.at):
        mods.append(("enemy in fortifications", -1))
    if initiator and st.options["river_defence"] and crosses_river(st, x.at, y.at):
        mods.append(("attacking across the river", -1))
    return mods


def resolve(st: State, dice: list[int], ev: list[dict[str, Any]]) -> list[str]:
    """The close combat roll: returns the ids hit, the defender first."""
    c = st.resolving()
    a, d = st.units[c["unit"]], st.units[c["target"]]
    ma = modifiers(st, a, d, True, c["direction"])
    md = modifiers(st, d, a, False, c["direction"])
    sa, sd = dice[0] + sum(m[1] for m in ma), dice[1] + sum(m[1] for m in md)
    a.engaged = tuple(sorted(set(a.engaged) | {d.id}))
    d.engaged = tuple(sorted(set(d.engaged) | {a.id}))
    hit = [uid for uid, s in ((d.id, sd), (a.id, sa)) if s <= HIT_AT_MOST]
    st.last_roll = {
        "for": "close_combat",
        "unit": a.id,
        "target": d.id,
        "side": a.side,
        "dice": list(dice),
        "modifiers": {a.id: [list(m) for m in ma], d.id: [list(m) for m in md]},
        "score": {a.id: sa, d.id: sd},
        "hit": hit,
    }
    ev.append(dict(st.last_roll, type="dice_rolled"))
    return hit


def advance_offer(st: State) -> dict[str, Any] | None:
    """The pending ``advance`` after a Close Combat, or None when the initiator did not win."""
    c = st.combat
    if c is None or c["kind"] != "close":
        return None
    a, d = st.units[c["unit"]], st.units[c["target"]]
    won = d.lost or d.area != c["to"]
    if (
        won
        and not a.lost
        and a.area == c["from"]
        and not st.in_area(c["to"], other(a.side))
        and adjacent(a.area, c["to"])
        and room_for(st, a, c["to"])
    ):
        return {"type": "advance", "seat": a.side, "unit": a.id, "to": c["to"]}
    return None


def advance(st: State, ev: list[dict[str, Any]]) -> None:
    p = st.pending
    u = st.units[p["unit"]]
    frm = u.area
    ev.append({"type": "unit_advanced", "unit": u.id, "side": u.side, "from": frm, "to": p["to"]})
    place(st, u, p["to"], ev)
    u.fight_on = True
