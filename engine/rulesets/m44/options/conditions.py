"""004 optional battle conditions: ``weather``, ``demoralisation``, ``supply_lines``.

Data and option values: :mod:`engine.core.conditions`.  What the rules read here:

* visibility: :func:`engine.procedures.common.visibility` is the one limit (the ``.m44``
  ``night_visibility_rules`` track and the weather's visibility, the lower wins);
  :func:`sighted` adds the 004 weather exception for indirect-firing artillery;
* movement: :func:`allowance` (Deep Snow, demoralisation, out of supply),
  :func:`mud_cap` / :func:`firm` (Mud, Russian Mud), :func:`move_fire_cap` (Special
  Infantry reduced to Regular Infantry);
* battle dice: :func:`dice_minus` (demoralisation, out of supply);
* supply: :func:`update_supply` at the start of a side's turn, the chance step
  ``for: "supply"`` resolved by :func:`supply_rolled`.
"""

from __future__ import annotations

from typing import Any

from ....core.conditions import DEMORALISATION, SUPPLY, demoralised_units, supply_bases, weather
from ....core.errors import EngineError
from ....procedures.state import GameState, Unit
from ....procedures.common import (
    FULL_DAY,
    camouflaged,
    is_top,
    other,
    pop_ext,
    set_ext,
    terrain_at,
    visibility,
)
from ....procedures.battle import apply_hits, unit_dice
from ....procedures.medals import check_victory
from .turn_rules import night_roll_if_due

Hex = tuple[int, int]

#: .m44 artillery kinds that fire as "the normal kind of Artillery" (004 "Heavy
#: Artillery ... Indirect Firing ... considered the normal kind of Artillery").
STANDARD_ARTILLERY = frozenset({"artillery", "big_gun"})


# ----------------------------------------------------------------------------- weather
def indirect_firing(u: Unit) -> bool:
    """An Indirect Firing Artillery unit: a 004 type with ``indirect_fire`` or a standard
    ``.m44`` artillery unit (004: Heavy Artillery is "the normal kind of Artillery")."""
    return u.cls == "art" and (u.spec.indirect_fire or u.spec.kind in STANDARD_ARTILLERY)


def sighted(st: GameState, u: Unit, h: Hex, d: int) -> bool:
    """May ``u`` fire at hex ``h`` at distance ``d`` as far as visibility goes?  Not beyond
    the visibility, except (option ``weather``, 004 "Night & Severe Weather Conditions")
    "Indirect Firing Artillery may fire at any target provided that it is within range
    and that a friendly Unit is within 2 [3] hexes of the target" (Night: "in Close
    Assault with the target": adjacent).  The unit's own line-of-sight rules still apply
    (our reading: the weather lifts the visibility limit only)."""
    vis = visibility(st)
    if vis >= FULL_DAY or d <= vis:
        return True
    w = weather(st.options)
    if not w.spotter or not indirect_firing(u):
        return False
    dist = st.scn.board.distance
    return any(
        x.side == u.side and x.id != u.id and dist(x.hex, h) <= w.spotter for x in st.units.values()
    )


def sight_reach(st: GameState, u: Unit, rng: int) -> int:
    """The farthest a target of ``u`` may be: its range, cut to the visibility unless the
    weather lets it fire beyond (then :func:`sighted` filters the targets)."""
    vis = visibility(st)
    if vis >= FULL_DAY or (weather(st.options).spotter and indirect_firing(u)):
        return rng
    return min(rng, vis)


def no_air(st: GameState) -> bool:
    """004 Rainstorm: "No paradrops or tactical airpower are allowed"."""
    return weather(st.options).no_air


def _special_infantry(u: Unit) -> bool:
    return u.cls == "inf" and (u.spec.move > 2 or u.spec.move_fire > 1)


def _as_regular(st: GameState, u: Unit) -> bool:
    """004 Mud / Supply "Second Turn": "Special Infantry Units are reduced to / temporarily
    become Regular Infantry"."""
    return _special_infantry(u) and (
        weather(st.options).special_to_regular or supply_turns(st, u) >= 2
    )


def move_fire_cap(st: GameState, u: Unit, mf: int) -> int:
    """Hexes ``u`` may move and still battle: a Special Infantry reduced to Regular
    Infantry "may Advance 1 hex and Battle" (004 "Regular Infantry Unit")."""
    return min(mf, 1) if _as_regular(st, u) else mf


def allowance(st: GameState, u: Unit, n: int) -> int:
    """The move allowance ``n`` after the conditions: Deep Snow ("All Units Movement is
    reduced by one hex"), demoralisation ("number of hexes a Unit can Move" -1 / -2),
    Special Infantry as Regular Infantry (march 2), out of supply for a second turn
    ("Armoured Movement is reduced by one hex ... Artillery may not Move at all")."""
    if _as_regular(st, u):
        n = min(n, 2)
    n -= weather(st.options).move_minus + demoralised(st, u)
    if supply_turns(st, u) >= 2:
        if u.cls == "art":
            return 0
        if u.cls == "armor":
            n -= 1
    return max(0, n)


def mud_cap(st: GameState, u: Unit) -> int | None:
    """004 Mud: "All Armour is reduced to Moving 2 hexes per turn" / Russian Mud: "all
    Units, except on Railways, to Moving only 1 hex": a move that enters a muddy hex
    totals at most this many hexes (None: no mud for this unit)."""
    w = weather(st.options)
    return w.mud_cap if w.mud_cap and u.cls in w.mud_classes else None


def firm(st: GameState, h: Hex) -> bool:
    """A hex Mud does not affect: "Movement is normal on Railways, Roads, and through
    Towns & Villages" (Russian Mud: railways only)."""
    fams = weather(st.options).firm
    t = terrain_at(st, h)
    return (
        ("road" in fams and t.road)
        or ("rail" in fams and t.rail)
        or any(x.spec.family in fams for x in t.tiles)
    )


# ----------------------------------------------------------------------------- demoralisation
def init_demoralisation(st: GameState) -> None:
    """004 "Demoralisation, & Disorganisation": "Effected Units start the game below
    strength ... reduce the number of figures/models per Unit ... by a factor of 1 [2]"
    (at least 1 figure is kept; the unit's full strength is unchanged)."""
    value = st.options.get(DEMORALISATION)
    if not value:
        return
    out = demoralised_units(value, list(st.units.items()))
    for uid, k in out.items():
        u = st.units[uid]
        u.figures = max(1, u.figures - k)
    set_ext(st, "demoralised", tuple(sorted(out.items())))


def _ext_count(st: GameState, name: str, u: Unit) -> int:
    """``u``'s entry in the (id, count) pairs ``GameState.ext[name]`` (0: none)."""
    x = st.ext
    if not x or name not in x:
        return 0
    count: int = dict(x[name]).get(u.id, 0)
    return count


def demoralised(st: GameState, u: Unit) -> int:
    """The unit's demoralisation (0, 1 or 2)."""
    return _ext_count(st, "demoralised", u)


def dice_minus(st: GameState, u: Unit) -> int:
    """Battle dice ``u`` loses: demoralisation ("Battle Dice by a factor of 1 [2]") and
    out of supply for a second turn ("All Battle Dice are reduced by 1")."""
    return demoralised(st, u) + (1 if supply_turns(st, u) >= 2 else 0)


def key(st: GameState, u: Unit) -> tuple[Any, ...] | None:
    """What the conditions change for ``u`` (for the rules' memo keys)."""
    if not (st.options.get("weather") or st.options.get(DEMORALISATION) or st.options.get(SUPPLY)):
        return None
    return (st.options.get("weather"), demoralised(st, u), min(2, supply_turns(st, u)))


# ----------------------------------------------------------------------------- supply
def supply_turns(st: GameState, u: Unit) -> int:
    """Consecutive turns (of its side) ``u`` has been found out of supply."""
    return _ext_count(st, "supply", u)


def _route(st: GameState, h: Hex) -> bool:
    t = terrain_at(st, h)
    return t.road or t.rail


def _interrupted(st: GameState, side: str) -> set[Hex]:
    """004 "Interruptions - A Line Of Supply is broken if an enemy Unit is occupying a
    hex along the Line Of Supply, or the Line Of Supply is in Battle Range of an
    unconcealed, enemy Armoured or Infantry Unit" (battle range: the unit's dice row)."""
    board = st.scn.board
    camo = camouflaged(st)
    out: set[Hex] = set()
    for v in st.units.values():
        if v.side == side:
            continue
        out.add(v.hex)
        if v.cls in ("inf", "armor") and v.hex not in camo:
            out.update(board.within(v.hex, len(unit_dice(st, v))))
    return out


def _bases(st: GameState, side: str) -> list[Hex]:
    """The side's supply base: "to the players own edge of the Board" (road / railway
    hexes of its baseline row), or the hexes the option names for it."""
    named = supply_bases(st.options.get(SUPPLY)).get(side)
    if named is not None:
        return list(named)
    board = st.scn.board
    row = board.baseline_row(is_top(st, side))
    return [h for h in board._nbrs if h[0] == row and _route(st, h)]


def _supplied_routes(st: GameState, side: str, cut: set[Hex]) -> set[Hex]:
    """Road / railway hexes joined to a base by "an uninterrupted path of Road and/or
    Railway Tracks" (adjacent road or railway hexes, our reading: tile orientations are
    not followed)."""
    nbrs = st.scn.board._nbrs
    seen = {h for h in _bases(st, side) if h not in cut and h in nbrs}
    todo = list(seen)
    while todo:
        h = todo.pop()
        for n in nbrs[h]:
            if n not in seen and n not in cut and _route(st, n):
                seen.add(n)
                todo.append(n)
    return seen


def in_supply(
    st: GameState, u: Unit, routes: set[Hex], cut: set[Hex], all_routes: list[Hex]
) -> bool:
    """004 "Units Line Of Supply continues along the shortest possible route of hexes to
    the nearest Road or Railway Track": one of the nearest road / railway hexes (or
    named base hexes) is a supplied one and a route of that length to it crosses no
    interrupted hex (the unit's own hex is never an interruption: it is where the line
    starts)."""
    board = st.scn.board
    if u.hex in routes or (_route(st, u.hex) and any(n in routes for n in board._nbrs[u.hex])):
        return True
    if not all_routes:
        return False
    dist = board.distance
    d = min(dist(u.hex, r) for r in all_routes)
    for r in all_routes:
        if dist(u.hex, r) != d or r not in routes:
            continue
        layer = {u.hex}
        for step in range(d - 1, 0, -1):  # hexes at distance ``step`` from r
            layer = {
                n for h in layer for n in board._nbrs[h] if n not in cut and dist(n, r) == step
            }
        if layer:
            return True
    return False


def update_supply(st: GameState, side: str, events: list[dict[str, Any]]) -> bool:
    """At the start of ``side``'s turn (option ``supply_lines``): count the turns each of
    its units is out of supply (back in supply: 0, "everything else goes back to normal").
    From the third turn (004 "Third Turn Losses - Roll one Battle Dice at the beginning of
    the players turn for each Unit") the roll is set up as a chance step; True then."""
    if not st.options.get(SUPPLY):
        return False
    cut = _interrupted(st, side)
    routes = _supplied_routes(st, side, cut)
    all_routes = [h for h in st.scn.board._nbrs if _route(st, h)]
    all_routes += [h for h in _bases(st, side) if h not in all_routes]
    turns = dict((st.ext or {}).get("supply", ()))
    rolls = []
    for u in sorted((u for u in st.units.values() if u.side == side), key=lambda u: u.id):
        was = turns.get(u.id, 0)
        if in_supply(st, u, routes, cut, all_routes):
            turns.pop(u.id, None)
            if was:
                events.append({"type": "supply_restored", "unit": u.id, "hex": [*u.hex]})
            continue
        turns[u.id] = was + 1
        events.append({"type": "out_of_supply", "unit": u.id, "hex": [*u.hex], "turns": was + 1})
        if was + 1 >= 3:
            rolls.append(u.id)
    set_ext(st, "supply", tuple(sorted(turns.items())))
    if not rolls:
        return False
    set_ext(st, "supply_roll", tuple(rolls))
    st.chance = {"n": len(rolls), "for": "supply"}
    st.phase = "chance"
    return True


def supply_rolled(st: GameState, faces: list[str], events: list[dict[str, Any]]) -> None:
    """One die per unit in ``ext["supply_roll"]`` (in that order): "A Green Star means
    that an Out Of Supply Unit must lose 1 figure/model" (the other side is credited, as
    for any loss)."""
    uids = st.ext["supply_roll"]
    pop_ext(st, "supply_roll")
    events.append(
        {
            "type": "dice_rolled",
            "side": st.active,
            "dice": list(faces),
            "kind": "supply",
            "units": list(uids),
        }
    )
    for uid, face in zip(uids, faces):
        u = st.units.get(uid)
        if face == "star" and u is not None:
            apply_hits(st, u, 1, other(u.side), events)
    check_victory(st, events)


def supply_chance(st: GameState, faces: list[str], events: list[dict[str, Any]]) -> None:
    """The turn machine's chance step ``supply`` (extension point ``chance_handlers``):
    the losses, then the turn goes on (the night roll first when it is due)."""
    st.phase = "play_card"
    supply_rolled(st, faces, events)
    if not st.game_over:
        night_roll_if_due(st, st.active)


def check_supply_bases(st: GameState) -> None:
    """The option's base hexes must be on the board (``invalid_option_value``)."""
    for hexes in supply_bases(st.options.get(SUPPLY)).values():
        for h in hexes:
            if not st.scn.board.on_board(h):
                raise EngineError(
                    "invalid_option_value",
                    f"hex {h[0]},{h[1]} is not on the board",
                    entry=f"{h[0]},{h[1]}",
                    option=SUPPLY,
                )


def init_conditions(st: GameState) -> None:
    """Game start (:func:`engine.rulesets.m44.game.new_game`): demoralised units, supply bases."""
    init_demoralisation(st)
    check_supply_bases(st)


#: the extension points this module fills (engine/procedures/hooks.py) when option
#: ``weather``, ``demoralisation`` or ``supply_lines`` is on
HOOKS = {
    "move_allowance": allowance,
    "mud_cap": mud_cap,
    "firm": firm,
    "dice_minus": dice_minus,
    "move_fire_cap": move_fire_cap,
    "sight_key": key,
    "chance_handlers": {"supply": supply_chance},
    "game_setup": init_conditions,
    "no_air": no_air,
    "update_supply": update_supply,
}
#: ... and in every game: the visibility (the scenario's night rules, vocabulary 3.3;
#: the weather's, 004)
SIGHT_HOOKS = {"sight_reach": sight_reach, "sighted": sighted}

__all__ = [
    "sighted",
    "sight_reach",
    "indirect_firing",
    "no_air",
    "allowance",
    "mud_cap",
    "firm",
    "move_fire_cap",
    "dice_minus",
    "demoralised",
    "key",
    "supply_turns",
    "update_supply",
    "supply_rolled",
    "init_conditions",
    "in_supply",
]
