"""Things that happen when a unit enters a hex, and the "instead of battling" actions.

* Minefields (004 "Minefields", vocabulary 3.1): every minefield is must-stop; an enemy
  unit entering by movement or take ground (never by retreat) reveals the hidden value;
  a 0 is a decoy and is removed (DECOY_MEDAL variant: the entering side gains 1 medal and
  the other decoy mines lose that property); otherwise a chance step rolls ``value`` dice
  hitting on the unit's symbol and grenades (flags ignored); the mine stays, revealed.
  Units of the side that laid it stop but ignore it.
* Combat Engineers (``UnitSpec.mine_sweeper``): entering an enemy minefield by normal
  movement within their move-and-battle distance sweeps it (removed, the engineer does
  not battle this turn); an ordered engineer standing on a minefield may ``clear_mine``
  instead of battling.
* Frozen river (``HexTerrain.entry_hazard_dice``): entering by movement, take ground or
  retreat (not a Behind Enemy Lines move) rolls that many dice, each star is a hit.
* Wire (``TerrainSpec.infantry_may_remove``): an ordered infantry unit in wire may
  ``remove_wire`` instead of battling; Combat Engineers (``wire_cutter``) remove it and
  may still battle.  Armor entering wire removes it (``armor_removes``).
* Road blocks (``engineer_removable``): a Combat Engineer standing in one may
  ``remove_roadblock`` instead of battling.
* Pontoon Bridges (option ``pontoon_bridges``, engine/rulesets/m44/options/pontoons.py): a Combat Engineer
  ordered by an Attack card may ``build_pontoon`` on a river hex next to it instead.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ....core.errors import IllegalAction
from ....procedures.state import Battle, GameState, Unit
from ....core.terrain import Tile
from ....core.terrain_table import TERRAIN
from ....procedures.battle import declare_special, unit_dice
from .bridges import (
    blow_bridge,
    blow_rolled,
    blowable_bridges,
    bombard_bridge,
    bombard_rolled,
    bombardable_bridges,
    enemy_entered,
    rig_bridge,
    riggable_bridges,
)
from ....procedures.common import (
    adjacent_enemies,
    other,
    parse_hex,
    set_ext,
    terrain_at,
    tiles_at,
)
from ..hand import discard_random_card
from .pontoons import build_pontoon, pontoon_hexes
from ....procedures.terrain_changes import remove_family


def on_enter(st: GameState, u: Unit, how: str, events: list[dict[str, Any]]) -> None:
    """``u`` has just entered ``u.hex``; ``how``: "move" | "bel" (Behind Enemy Lines) |
    "take_ground" | "retreat".  May push chance steps (mine / hazard rolls) on the battle
    stack.  A retreat triggers only the frozen river's roll (004 "Rivers & Waterways,
    Frozen": "whenever a Unit Moves or Retreats onto"; vocabulary 3.1: mines never on
    retreat)."""
    h = u.hex
    t = terrain_at(st, h)
    if how == "retreat":
        _ice(st, u, t, events)
        return
    if t.hq_tent:
        _hq_tent(st, u, events)
    enemy_entered(st, u, events)  # 004 Bridge Demolition: enemy removes the charges
    if u.spec.equipment == "boat" and not (t.river and not t.bridge):
        # vocabulary 1.3 River: a boat unit stepping onto land loses the boat
        st.mut(u.id).spec = replace(u.spec, equipment=None)
        events.append({"type": "boat_lost", "unit": u.id, "hex": [*h]})
    if u.cls == "armor" and any(x.spec.armor_removes for x in t.tiles):
        remove_family(st, h, "wire", events)
        if how != "bel":  # 004 "Barbed Wire": it entered wire: "must stop"
            st.mut(u.id).stopped = True
    if how != "bel":
        _ice(st, u, t, events)
    m = st.mines.get(h) if st.mines else None
    if m is None:
        return
    if how != "bel":  # 004 "Minefields": "A Unit must stop, and may not
        st.mut(u.id).stopped = True  # Move any further on that turn" (a decoy too)
    if m.side == u.side:
        return
    if u.spec.mine_sweeper and how == "move" and u.moved <= u.spec.move_fire:
        clear_mine_at(st, u, events)
        return
    events.append(
        {"type": "mine_revealed", "hex": [*h], "value": m.value, "unit": u.id, "side": m.side}
    )
    if m.value == 0:
        del st.mines[h]
        events.append({"type": "mine_removed", "hex": [*h], "reason": "decoy"})
        if m.decoy:
            st.exit_medals[u.side] += 1
            events.append(
                {"type": "medal_gained", "side": u.side, "reason": "decoy_mine", "count": 1}
            )
            for k, x in list(st.mines.items()):
                if x.decoy:
                    st.mines[k] = replace(x, decoy=False)
        return
    st.mines[h] = replace(m, revealed=True)
    b = Battle(None, m.side or other(u.side), u.id, h, None, 0, m.value, "mine")
    b.no_ignore = True
    st.battles.append(b)


def _ice(st: GameState, u: Unit, t: Any, events: list[dict[str, Any]]) -> None:
    """004 "Rivers & Waterways, Frozen": entering a frozen river hex (``t``, the hex's
    terrain) rolls ``entry_hazard_dice`` dice, each star a figure lost: a chance step."""
    if t.entry_hazard_dice <= 0:
        return
    b = Battle(None, other(u.side), u.id, u.hex, None, 0, t.entry_hazard_dice, "hazard")
    b.star_hits = True
    st.battles.append(b)
    events.append(
        {"type": "hazard", "unit": u.id, "hex": [*u.hex], "dice": b.dice, "kind": "frozen_river"}
    )


def clear_mine_at(st: GameState, u: Unit, events: list[dict[str, Any]]) -> None:
    u = st.mut(u.id)
    del st.mines[u.hex]
    u.no_battle = True
    events.append({"type": "mine_removed", "hex": [*u.hex], "reason": "cleared", "unit": u.id})


def may_remove_wire(st: GameState, u: Unit) -> bool:
    return u.cls == "inf" and any(x.spec.infantry_may_remove for x in tiles_at(st, u.hex))


def may_clear_mine(st: GameState, u: Unit) -> bool:
    return bool(u.spec.mine_sweeper and st.mines and u.hex in st.mines)


def instead_of_battle(st: GameState, u: Unit) -> list[str]:
    """Action types ``u`` (ordered, allowed to battle) may take instead of battling."""
    out = []
    if may_remove_wire(st, u):
        out.append("remove_wire")
    if may_clear_mine(st, u):
        out.append("clear_mine")
    if may_remove_roadblock(st, u):
        out.append("remove_roadblock")
    if may_seal_cave(st, u):
        out.append("seal_cave")
    if heal_dice(st, u):
        out.append("heal")
    if blowable_bridges(st, u):
        out.append("blow_bridge")
    if riggable_bridges(st, u):
        out.append("rig_bridge")
    if bombardable_bridges(st, u):
        out.append("bombard_bridge")
    if pontoon_hexes(st, u):
        out.append("build_pontoon")
    return out


#: Instead-of-battle actions aimed at a hex: action type -> the hexes ``u`` may pick.
HEX_ACTIONS = {
    "blow_bridge": blowable_bridges,
    "rig_bridge": riggable_bridges,
    "bombard_bridge": lambda st, u: [h for h, _n in bombardable_bridges(st, u)],
    "build_pontoon": pontoon_hexes,
}
HEX_ACTION_DO = {
    "blow_bridge": blow_bridge,
    "rig_bridge": rig_bridge,
    "bombard_bridge": bombard_bridge,
    "build_pontoon": build_pontoon,
}


def may_remove_roadblock(st: GameState, u: Unit) -> bool:
    return u.spec.roadblock_remover and any(x.spec.engineer_removable for x in tiles_at(st, u.hex))


def remove_roadblock(st: GameState, u: Unit, events: list[dict[str, Any]]) -> None:
    """Vocabulary 1.3 Road Block: a Combat Engineer in it may remove it instead of battling."""
    if not may_remove_roadblock(st, u):
        raise IllegalAction("no_roadblock", "there is no road block this unit may remove")
    for fam in {x.spec.family for x in tiles_at(st, u.hex) if x.spec.engineer_removable}:
        remove_family(st, u.hex, fam, events)
    st.mut(u.id).no_battle = True


def remove_wire(st: GameState, u: Unit, events: list[dict[str, Any]]) -> None:
    if not may_remove_wire(st, u):
        raise IllegalAction("no_wire", "there is no wire this unit may remove")
    remove_family(st, u.hex, "wire", events)
    if not u.spec.wire_cutter:  # Combat Engineers remove it and may still battle
        st.mut(u.id).no_battle = True


def clear_mine(st: GameState, u: Unit, events: list[dict[str, Any]]) -> None:
    if not may_clear_mine(st, u):
        raise IllegalAction("no_mine", "there is no minefield this unit may clear")
    clear_mine_at(st, u, events)


def mine_view(st: GameState) -> list[dict[str, Any]]:
    """Public minefield info: hidden values stay hidden until revealed."""
    return [
        {"hex": [*h], "side": m.side, "value": m.value if m.revealed else None}
        for h, m in sorted(st.mines.items())
    ]


# ============================================================ caves, tents, heal, bridges
# Vocabulary 1.3 (pcave/pmcave, dcamp/pheadquarter, oasis/phospital, bridges 1.2) and 004
# "Bridge Demolition Rules".  The dice steps are Battle records of kind ``seal_cave`` /
# ``heal`` / ``blow_bridge`` (chance nodes like any roll); :func:`special_rolled` resolves them.
SPECIAL_ROLLS = frozenset({"seal_cave", "heal", "blow_bridge", "bombard_bridge"})


def may_seal_cave(st: GameState, u: Unit) -> bool:
    """Allied infantry standing in a cave, not adjacent to an enemy, not yet fired."""
    return (
        u.side == "ALLIES"
        and u.cls == "inf"
        and not u.battles
        and terrain_at(st, u.hex).cave
        and not adjacent_enemies(st, u)
    )


def seal_cave(st: GameState, u: Unit, events: list[dict[str, Any]]) -> None:
    if not may_seal_cave(st, u):
        raise IllegalAction("no_cave", "this unit may not seal a cave here")
    n = unit_dice(st, u)[0] if unit_dice(st, u) else 0
    declare_special(st, u, u.hex, max(n, 1), "seal_cave", events)


def heal_dice(st: GameState, u: Unit) -> int:
    """Vocabulary 1.3 Oasis (hand size + 1 dice) / Hospital (6): 0 when ``u`` may not heal."""
    n = terrain_at(st, u.hex).heal_dice
    if not n or u.cls != "inf" or u.figures >= u.max_figures or u.moved or u.battles:
        return 0
    if adjacent_enemies(st, u):
        return 0
    return len(st.hands[u.side]) + 1 if n < 0 else n


def heal(st: GameState, u: Unit, events: list[dict[str, Any]]) -> None:
    n = heal_dice(st, u)
    if not n:
        raise IllegalAction("no_heal", "this unit may not heal here")
    declare_special(st, u, u.hex, n, "heal", events)


def special_rolled(
    st: GameState, b: Battle, faces: list[str], events: list[dict[str, Any]]
) -> None:
    """Resolve a ``seal_cave`` / ``heal`` / ``blow_bridge`` / ``bombard_bridge`` roll (the
    record is popped by the caller; bridges: engine/rulesets/m44/options/bridges.py)."""
    events.append(
        {
            "type": "dice_rolled",
            "side": b.side,
            "unit": b.attacker,
            "dice": list(faces),
            "kind": b.kind,
        }
    )
    h = b.target_hex
    if b.kind == "heal":
        u = st.units.get(b.attacker_id)
        if u is None:
            return
        gain = min(u.max_figures - u.figures, sum(1 for f in faces if f in ("star", "inf")))
        if gain:
            u = st.mut(u.id)
            u.figures += gain
        events.append(
            {"type": "unit_healed", "unit": u.id, "figures_gained": gain, "figures": u.figures}
        )
        return
    if b.kind == "blow_bridge":
        blow_rolled(st, b, faces, events)
        return
    if b.kind == "bombard_bridge":
        bombard_rolled(st, b, faces, events)
        return
    if "star" not in faces:
        return
    keep = []  # seal_cave
    for t in tiles_at(st, h):
        if t.spec.cave:
            t = Tile(TERRAIN["mountain" if t.spec.family == "mountain" else "hills"], t.orientation)
        keep.append(t)
    st.tiles_over[h] = tuple(keep)
    events.append({"type": "terrain_changed", "hex": [*h], "removed": "cave"})


# ----------------------------------------------------------------------------- HQ tents
def _hq_tent(st: GameState, u: Unit, events: list[dict[str, Any]]) -> None:
    """Vocabulary 1.3 HQ & Supply Tents: the first time an enemy of the tile's
    ``original_owner`` enters, the owner discards a random card (state RNG); when the
    owner re-enters it afterwards, the owner draws 1 card (once: the tent is then spent).
    State: ``GameState.ext["hq_tents"]`` hex -> "taken" | "recovered"."""
    h = u.hex
    owner = next((t.owner for t in tiles_at(st, h) if t.spec.hq_tent and t.owner), None)
    if owner is None:
        return
    tents = (st.ext or {}).get("hq_tents", {})
    key = f"{h[0]},{h[1]}"
    status = tents.get(key)
    if u.side != owner and status is None:
        tents = {**tents, key: "taken"}
        discard_random_card(st, owner, "hq_tent", events)
    elif u.side == owner and status == "taken":
        tents = {**tents, key: "recovered"}
        st.hooks.give(st, owner, st.hooks.draw(st, owner, events), events)
    else:
        return
    set_ext(st, "hq_tents", tents)


def do_instead_of_battle(
    st: GameState, u: Unit, action: dict[str, Any], events: list[dict[str, Any]]
) -> None:
    """An action of :func:`instead_of_battle` (its type checked by the turn machine)."""
    t = action["type"]
    if t == "remove_wire":
        remove_wire(st, u, events)
    elif t == "remove_roadblock":
        remove_roadblock(st, u, events)
    elif t == "seal_cave":
        seal_cave(st, u, events)
    elif t == "heal":
        heal(st, u, events)
    elif t in HEX_ACTION_DO:  # bridges, pontoons: a hex of HEX_ACTIONS
        HEX_ACTION_DO[t](st, u, parse_hex(action, "hex"), events)
    else:
        clear_mine(st, u, events)


#: the extension points this module fills (engine/procedures/hooks.py)
def public_view(st: GameState, view: dict[str, Any]) -> None:
    """Extension point ``public_view``: the minefields (view field ``mines``)."""
    view["mines"] = mine_view(st)


HOOKS = {
    "public_view": public_view,
    "on_enter": on_enter,
    "roll_handlers": {kind: special_rolled for kind in sorted(SPECIAL_ROLLS)},
    "instead_of_battle": instead_of_battle,
    "instead_of_battle_hexes": HEX_ACTIONS,
    "do_instead_of_battle": do_instead_of_battle,
}
