""" "EX-TER-MIN-ATE!" (004 Appendix 3, Suggested Variants; option ``variant:
EXTERMINATE``, the Dalek side = option ``variant_side``, default AXIS).

Engine reading of the text (quoted in tests/engine/test_variants.py):

* Conversion: Regular Infantry -> Standard Dalek ("They take the place of all Regular
  Infantry Units"), Armour -> Special Weapons Dalek ("They take the place of all Armour
  Units"), Special Infantry and Artillery -> Dalek Mercenary ("They take the place of all
  Special Infantry and Artillery Units"), each on the unit's own hex.
* Standard Dalek: armour, 3 models, moves up to 4, range 3 with 3 dice; Special Weapons
  Dalek: armour, 4 models, moves up to 4, range 4 with 4 dice.  Both: "Movement is not
  effected by any Terrain limitations" (no terrain movement restriction), "not effected
  by ... Grenade Hits or the first Purple Flag. Additional Purple Flags result in the
  extermination of 1 model each. Daleks do not Retreat." (grenades miss, the first flag
  is ignored, each further flag removes a model, no retreat; a mine is revealed as
  usual, its roll does nothing to a Dalek).
* Dalek Mercenary: Special Infantry, 4 figures; "do not count as Victory Points when
  eliminated" (medal value 0); "will automatically surrender if all the Dalek Units are
  destroyed" (removed, no medal).
* "All obstacles on the Dalek side are removed": every obstacle tile (wire, sandbags,
  hedgehogs, ...) on the Dalek half of the board is taken off at game start.
* Exterminate!: a Standard or Special Weapons Dalek that stands on a Towns & Villages
  hex at the start of its side's turn, is ordered and neither moves nor battles during
  that turn exterminates it: at the end of the turn the hex becomes City Ruins and the
  Daleks gain a permanent Victory Point (event ``town_exterminated``, medal reason
  ``exterminated``).
* Object of the game: "Daleks always need to get 10 Victory Points to win, or 20 in an
  Overlord Scenario"; the human side keeps the scenario's count.  (The variants run on
  the standard turn machine: an Overlord board is played in the ``overlord`` mode, which
  refuses them, so the 20 applies only if that changes.)
* Human Factor: "A Battle Star Marker may represent a Heroic Leader with the Human
  Factor. A Unit ignores the first Purple Flag and receives two additional Battle Die
  when accompanied by this Leader. The Leader may not willingly leave the Unit he is
  placed with. If the Unit is eliminated, Move his Battle Star to the nearest friendly
  Unit": the leader starts with the human unit nearest the board's centre (infantry or
  armour first, then unit order; the engine's choice for the players'), and moves to
  the nearest friendly unit (then unit order) when his unit is eliminated (event
  ``leader_moved``; ``view.variant.leader``).
"""

from __future__ import annotations

from typing import Any

from .....procedures.common import SIDES, other
from .....core.units import UnitSpec
from .....procedures.hooks import Victory
from .....procedures.state import Battle, GameState, Unit
from .common import (
    alien,
    convert_side,
    data,
    is_town,
    on,
    medal_victory,
    put,
    remove_obstacles,
    remove_unit,
    ruin,
    spec_like,
)

NAME = "EXTERMINATE"
DALEKS = ("dalek", "special_weapons_dalek")


def dalek_spec(base: UnitSpec) -> UnitSpec:
    return spec_like(
        base,
        "dalek",
        "Standard Dalek",
        "armor",
        figures=3,
        move=4,
        move_fire=4,
        dice=(3, 3, 3),
        take_ground=2,
        move_class="hover",
        hit_by=frozenset({"armor"}),
        can_heal=False,
    )


def special_spec(base: UnitSpec) -> UnitSpec:
    return spec_like(
        base,
        "special_weapons_dalek",
        "Special Weapons Dalek",
        "armor",
        figures=4,
        move=4,
        move_fire=4,
        dice=(4, 4, 4, 4),
        take_ground=2,
        move_class="hover",
        hit_by=frozenset({"armor"}),
        can_heal=False,
    )


def mercenary_spec(base: UnitSpec) -> UnitSpec:
    return spec_like(
        base,
        "dalek_mercenary",
        "Dalek Mercenary",
        "inf",
        figures=4,
        move=2,
        move_fire=2,
        dice=(3, 2, 1),
        medal_value=0,
    )


def is_dalek(u: Unit | None) -> bool:
    return u is not None and u.spec.kind in DALEKS


def _dalek_profile(u: Unit) -> Any:
    if u.spec.kind == "infantry":
        return dalek_spec(u.spec)
    return special_spec(u.spec) if u.cls == "armor" else mercenary_spec(u.spec)


def setup(st: GameState) -> None:
    if not on(st, NAME):
        return
    side = alien(st)
    convert_side(st, side, _dalek_profile)
    remove_obstacles(st, side)
    need = 20 if st.scn.board.kind == "OVERLORD" else 10
    put(
        st,
        exterminated=(),
        start_hex=(),
        victory={**st.scn.victory, side: need},
        leader=_nearest(st, other(side), _centre(st)),
    )


def _centre(st: GameState) -> tuple[int, int]:
    board = st.scn.board
    return min(
        board.hexes, key=lambda h: (abs(h[0] - board.rows // 2), abs(h[1] - board.max_col // 2))
    )


def _nearest(st: GameState, side: str, h: Any, but: str | None = None) -> str | None:
    """The unit of ``side`` nearest ``h`` (infantry / armour first, then unit order)."""
    dist = st.scn.board.distance
    units = [u for u in st.units.values() if u.side == side and u.id != but]
    if not units:
        return None
    return min(units, key=lambda u: (dist(u.hex, h), u.cls == "art", int(u.id[1:]))).id


def dice_minus(st: GameState, u: Unit) -> int:
    """The Human Factor: two additional Battle Dice."""
    return -2 if on(st, NAME) and data(st).get("leader") == u.id else 0


def turn_begins(st: GameState, side: str, events: list[dict[str, Any]]) -> None:
    if on(st, NAME) and side == alien(st):
        put(
            st,
            start_hex=tuple(
                sorted(
                    (u.id, u.hex) for u in st.units.values() if is_dalek(u) and is_town(st, u.hex)
                )
            ),
        )


def turn_ending(st: GameState, side: str, events: list[dict[str, Any]]) -> None:
    if not on(st, NAME) or side != alien(st):
        return
    done = list(data(st)["exterminated"])
    for uid, h in data(st)["start_hex"]:
        u = st.units.get(uid)
        if (
            u is not None
            and u.hex == h
            and u.ordered
            and not u.moved
            and not u.battles
            and is_town(st, h)
        ):
            ruin(st, h, events)
            done.append(h)
            st.elim_medals[side] += 1
            events.append({"type": "town_exterminated", "hex": [*h], "unit": uid, "side": side})
            events.append(
                {"type": "medal_gained", "side": side, "reason": "exterminated", "count": 1}
            )
    put(st, exterminated=tuple(done), start_hex=())


def hits_flags(
    st: GameState, b: Battle, v: Unit, faces: list[str], hf: tuple[int, int]
) -> tuple[int, int]:
    """Grenades miss (profile ``hit_by``); the first flag is ignored, each further one
    removes a model; no retreat."""
    if not on(st, NAME):
        return hf
    hits, flags = hf
    if data(st).get("leader") == v.id:  # the Human Factor: the first flag ignored
        return hits, max(0, flags - 1)
    if not is_dalek(v):
        return hf
    if getattr(b, "kind", None) == "mine":
        return 0, 0  # "not effected by Landmines" (the mine is revealed)
    return hits + max(0, flags - 1), 0


def figures_lost(
    st: GameState, v: Unit, lost: int, by_side: str, events: list[dict[str, Any]]
) -> None:
    """The Mercenaries surrender when the last Dalek is destroyed; the Heroic Leader of
    an eliminated unit joins the nearest friendly unit."""
    if not on(st, NAME) or v.figures > 0:
        return
    if data(st).get("leader") == v.id:
        to = _nearest(st, v.side, v.hex, but=v.id)
        put(st, leader=to)
        events.append({"type": "leader_moved", "side": v.side, "from": v.id, "unit": to})
        return
    if not is_dalek(v):
        return
    side = v.side
    if any(is_dalek(u) for u in st.units.values() if u.side == side and u.id != v.id):
        return
    for u in [u for u in st.units.values() if u.side == side and not is_dalek(u)]:
        remove_unit(st, u)
        events.append({"type": "unit_surrendered", "unit": u.id, "side": side, "hex": [*u.hex]})


def victory(st: GameState) -> Victory:
    """ "Daleks always need to get 10 Victory Points to win, or 20 in an Overlord
    Scenario"; the human side keeps the scenario's count."""
    return medal_victory(st, data(st)["victory"])


def view(st: GameState) -> dict[str, Any]:
    return {
        "name": NAME,
        "side": alien(st),
        "leader": data(st).get("leader"),
        "exterminated": [[*h] for h in data(st)["exterminated"]],
        "sides": list(SIDES),
    }


#: the extension points this variant fills (engine/procedures/hooks.py)
HOOKS = {
    "game_setup": setup,
    "turn_begins": turn_begins,
    "turn_ending": turn_ending,
    "hits_flags": hits_flags,
    "figures_lost": figures_lost,
    "dice_minus": dice_minus,
}
