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
* Frozen river (``HexTerrain.entry_hazard_dice``): entering by movement or take ground
  (not a Behind Enemy Lines move) rolls that many dice, each star is a hit.
* Wire (``TerrainSpec.infantry_may_remove``): an ordered infantry unit in wire may
  ``remove_wire`` instead of battling; Combat Engineers (``wire_cutter``) remove it and
  may still battle.  Armor entering wire removes it (``armor_removes``).
* Road blocks (``engineer_removable``): a Combat Engineer standing in one may
  ``remove_roadblock`` instead of battling.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..errors import IllegalAction
from ..state import Battle, GameState, Unit
from .common import other, terrain_at, tiles_at
from .terrain_changes import remove_family


def on_enter(st: GameState, u: Unit, how: str, events: list[dict[str, Any]]) -> None:
    """``u`` has just entered ``u.hex``; ``how``: "move" | "bel" (Behind Enemy Lines) |
    "take_ground".  May push chance steps (mine / hazard rolls) on the battle stack."""
    h = u.hex
    t = terrain_at(st, h)
    if u.cls == "armor" and any(x.spec.armor_removes for x in t.tiles):
        remove_family(st, h, "wire", events)
    if t.entry_hazard_dice > 0 and how != "bel":
        b = Battle(None, other(u.side), u.id, h, None, 0, t.entry_hazard_dice, "hazard")
        b.star_hits = True
        st.battles.append(b)
        events.append({"type": "hazard", "unit": u.id, "hex": [*h], "dice": b.dice,
                       "kind": "frozen_river"})
    m = st.mines.get(h) if st.mines else None
    if m is None or m.side == u.side:
        return
    if (u.spec.mine_sweeper and how == "move" and u.moved <= u.spec.move_fire):
        clear_mine_at(st, u, events)
        return
    events.append({"type": "mine_revealed", "hex": [*h], "value": m.value, "unit": u.id,
                   "side": m.side})
    if m.value == 0:
        del st.mines[h]
        events.append({"type": "mine_removed", "hex": [*h], "reason": "decoy"})
        if m.decoy:
            st.exit_medals[u.side] += 1
            events.append({"type": "medal_gained", "side": u.side, "reason": "decoy_mine",
                           "count": 1})
            for k, x in list(st.mines.items()):
                if x.decoy:
                    st.mines[k] = replace(x, decoy=False)
        return
    st.mines[h] = replace(m, revealed=True)
    b = Battle(None, m.side or other(u.side), u.id, h, None, 0, m.value, "mine")
    b.no_ignore = True
    st.battles.append(b)


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
    return out


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
    if not u.spec.wire_cutter:      # Combat Engineers remove it and may still battle
        st.mut(u.id).no_battle = True


def clear_mine(st: GameState, u: Unit, events: list[dict[str, Any]]) -> None:
    if not may_clear_mine(st, u):
        raise IllegalAction("no_mine", "there is no minefield this unit may clear")
    clear_mine_at(st, u, events)


def mine_view(st: GameState) -> list[dict[str, Any]]:
    """Public minefield info: hidden values stay hidden until revealed."""
    return [{"hex": [*h], "side": m.side, "value": m.value if m.revealed else None}
            for h, m in sorted(st.mines.items())]
