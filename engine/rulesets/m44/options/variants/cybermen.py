"""The Cyberman Unit of "EX-TER-MIN-ATE!" (004 Appendix 3, Suggested Variants; option
``variant: CYBERMEN``, the Cyberman side = option ``variant_side``, default AXIS).

Engine reading of the text (quoted in tests/engine/test_variants_cybermen.py):

* "One Cyberman Unit replaces each Infantry, Armour and Artillery Unit": every unit of
  the Cyberman side becomes a Cyberman Unit on its own hex (trains are taken off, as for
  the Daleks).
* "Special Infantry Unit, 4 Figures ... Advances upto 3 hexes. Battle Range is 3 hexes
  with 3 Battle Dice. Movement is not effected by any Terrain limitations": infantry,
  4 figures, moves up to 3 and may still battle, dice 3/3/3, no terrain movement
  restriction (battle restrictions of terrain still apply: "Otherwise ... exactly the
  same as any other Infantry Unit").
* "not effected by Grenade Hits or Purple Flags": grenades miss (profile ``hit_by``),
  every flag is ignored (a mine still hits as usual: the text does not exempt them).
* "Casualties inflicted on enemy Units while in Close Assault are given to any Cyberman
  Unit as reinforcements": each enemy figure a Cyberman removes in a battle at range 1
  (its own attack or its Ambush) gives a figure to the Cyberman unit with the fewest
  figures (the attacker first among equals, then unit order; the engine's choice for
  the player's), never beyond its 4 figures; with every Cyberman at full strength the
  casualty is lost (event ``cybermen_reinforced``).
* "Cybermen may not be used in the same game as Daleks or, at least, not on the same
  side": one ``variant`` per game, so Daleks and Cybermen never meet (Daleks v Cybermen
  on opposite sides is not offered).
* Object of the game: the scenario's (the text sets none for the Cybermen).
"""

from __future__ import annotations

from typing import Any

from .....core.units import UnitSpec
from .....procedures.hooks import Victory
from .....procedures.state import Battle, GameState, Unit
from .common import alien, convert_side, data, medal_victory, on, put, spec_like

NAME = "CYBERMEN"
KIND = "cyberman"


def cyberman_spec(base: UnitSpec) -> UnitSpec:
    return spec_like(
        base,
        KIND,
        "Cyberman Unit",
        "inf",
        figures=4,
        move=3,
        move_fire=3,
        dice=(3, 3, 3),
        move_class="hover",
        hit_by=frozenset({"inf"}),
    )


def is_cyberman(u: Unit | None) -> bool:
    return u is not None and u.spec.kind == KIND


def setup(st: GameState) -> None:
    if not on(st, NAME):
        return
    convert_side(st, alien(st), lambda u: cyberman_spec(u.spec))
    put(st, reinforced=0)


def hits_flags(
    st: GameState, b: Battle, v: Unit, faces: list[str], hf: tuple[int, int]
) -> tuple[int, int]:
    """Grenades miss (profile ``hit_by``); every flag is ignored."""
    if not on(st, NAME) or not is_cyberman(v):
        return hf
    return hf[0], 0


def figures_lost(
    st: GameState, v: Unit, lost: int, by_side: str, events: list[dict[str, Any]]
) -> None:
    """Close-assault casualties of the enemy reinforce the weakest Cyberman unit."""
    if not on(st, NAME) or not lost or v.side == alien(st) or not st.battles:
        return
    b = st.battles[-1]
    if b.dist != 1 or not is_cyberman(st.units.get(b.attacker) if b.attacker else None):
        return
    for _ in range(lost):
        weak = [u for u in st.units.values() if is_cyberman(u) and u.figures < u.spec.figures]
        if not weak:
            return
        c = st.mut(min(weak, key=lambda u: (u.figures, u.id != b.attacker, int(u.id[1:]))).id)
        c.figures += 1
        put(st, reinforced=data(st).get("reinforced", 0) + 1)
        events.append(
            {
                "type": "cybermen_reinforced",
                "unit": c.id,
                "hex": [*c.hex],
                "count": 1,
                "figures": c.figures,
            }
        )


def victory(st: GameState) -> Victory:
    return medal_victory(st, st.scn.victory)


def view(st: GameState) -> dict[str, Any]:
    return {"name": NAME, "side": alien(st), "reinforced": data(st).get("reinforced", 0)}


#: the extension points this variant fills (engine/procedures/hooks.py)
HOOKS = {
    "game_setup": setup,
    "hits_flags": hits_flags,
    "figures_lost": figures_lost,
}
