"""Fast Play '44 firing: who may fire at whom and with how many dice, and declaring a
battle (5: Ranged Combat or an Assault), an Opportunity Fire (6) or a Defensive Fire (7).

The dice counts, ranges, line of sight and terrain reductions are the standard
procedures' (engine/procedures/battle.py).  Choices where the text is silent
(docs/rules-coverage.md "Fast Play '44"):

* Defensive Fire belongs to the side whose turn it is NOT (7.3 "during the opposing
  player's turn"): a moving unit fired on by Opportunity Fire does not return fire (it
  may still battle normally if not suppressed).
* A unit holding an OpFire marker that is assaulted (5.7a) may fire first with its
  marker (the marker goes, 6.5: it may still Defensive Fire later) or with its Defensive
  Fire; one pre-assault fire only.
* The British battle back (12.3) keeps the standard conditions (range 1, no flag, down to
  1 figure), answers any fight, is resolved as ranged combat with 1 die and no terrain,
  and the target of the battle back gets no Defensive Fire (12.3b).  The unit may still
  Defensive Fire afterwards.
* The French second assault (12.5): a French unit (scenario country ``FR``) whose
  assault left the defender in place may assault it once more at once; no fire first and
  no Defensive Fire from the target (12.5b).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...core.errors import IllegalAction
from ...core.geometry import Hex
from ...core.units import may_target
from ...procedures import battle as B
from ...procedures import los as L
from ...procedures.state import GameState, Unit
from .fights import fights, new_fight
from .markers import drop_opfire, has_opfire, suppressed
from .records import Fight, ext


def as_infantry(st: GameState, u: Unit) -> Unit:
    """10.4: a rallied (towed) artillery unit defends as an infantry unit that turn."""
    if u.id not in ext(st)["towed"]:
        return u
    w = u.copy()
    w.spec = replace(
        u.spec,
        unit_class="inf",
        kind="infantry",
        dice=(3, 2, 1),
        needs_los=True,
        dice_vs=(),
        indirect_fire=False,
        stationary_dice=None,
        ignore_terrain_defense=False,
        star_hits=frozenset(),
        flag_faces=(),
    )
    return w


def fire_dice(st: GameState, v: Unit, u: Unit, dist: int | None = None) -> int:
    """Dice ``v`` rolls at ``u`` in Ranged Combat regardless of other adjacent enemies
    (7.7: Defensive Fire is always at the attacker): range, line of sight, terrain, the
    unit's own restrictions; 0 when it may not fire (8.4 / 10.3: not when suppressed)."""
    if suppressed(st, v.id) or not B.terrain_allows_battle_static(st, v):
        return 0
    w = as_infantry(st, v)
    if not may_target(w.spec, u.spec):
        return 0
    d = st.scn.board.distance(w.hex, u.hex) if dist is None else dist
    if d < 1 or d > len(B.unit_dice(st, w)):
        return 0
    if d > 1 and not L.clear(st, w.hex, u.hex, B.needs_los(w), w.cls):
        return 0
    return max(0, B.battle_dice(st, w, u, d, None, "battle"))


def df_eligible(st: GameState, v: Unit | None, u: Unit | None) -> bool:
    """7.1 / 7.5 / 7.6: not suppressed, not battled this turn, of the side not playing,
    and able to fire at the attacker."""
    return (
        v is not None
        and u is not None
        and v.side != st.active
        and v.battles == 0
        and not suppressed(st, v.id)
        and fire_dice(st, v, u) > 0
    )


def french(st: GameState, u: Unit) -> bool:
    return str(st.scn.country.get(u.side, "")).upper() == "FR" or u.spec.nation == "fr"


def battle_back_ok(st: GameState, f: Fight, v: Unit | None, u: Unit | None) -> bool:
    """12.3 (vocabulary 2.6 British Commonwealth): range 1, no flag, down to 1 figure."""
    if (
        v is None
        or u is None
        or f["kind"] == "battle_back"
        or f.get("bb_done")
        or f["flags"]
        or v.figures != 1
        or v.spec.nation != "brit"
        or v.spec.kind == "sniper"
        or suppressed(st, v.id)
    ):
        return False
    return (
        st.scn.board.distance(u.hex, v.hex) == 1
        and may_target(v.spec, u.spec)
        and B.terrain_allows_battle_static(st, v)
    )


def assault_bonus(st: GameState, u: Unit) -> int:
    """Close Assault / Armor Assault cards (option ``command_cards``): +1 die."""
    f = st.play.flags if st.play is not None and st.play.side == u.side else {}
    bonus: int = f.get("fp_assault_bonus", 0)
    return bonus + (f.get("fp_assault_bonus_armor", 0) if u.cls == "armor" else 0)


def declare_battle(
    st: GameState, u: Unit, target: Hex, assault: bool, kind: str, events: list[dict[str, Any]]
) -> None:
    """The ordered unit battles (5): Ranged Combat, or an Assault of an adjacent unit."""
    allowed = dict(B.targets(st, u, st.play, "overrun" if kind == "overrun" else "battle"))
    if target not in allowed:
        raise IllegalAction(
            "illegal_target",
            "that hex cannot be battled (range, line of sight, 5.4 adjacent enemy, dice)",
        )
    v = st.units[st.occ[target]]  # a legal target hex holds the enemy unit
    d = st.scn.board.distance(u.hex, target)
    if assault and d != 1:
        raise IllegalAction("illegal_target", "an assault is against an adjacent unit")
    f = new_fight(
        kind, u, v, d, allowed[target] + (assault_bonus(st, u) if assault else 0), assault
    )
    m = st.mut(u.id)
    m.battles += 1
    if kind == "overrun":
        m.overrun = True
    events.append(
        {
            "type": "battle_declared",
            "unit": u.id,
            "side": u.side,
            "from": [*u.hex],
            "target": [*target],
            "target_unit": v.id,
            "range": d,
            "dice": f["dice"],
            "kind": kind,
            "assault": assault,
        }
    )
    fights(st).append(f)
    if (
        assault
        and kind != "second_assault"
        and not suppressed(st, v.id)
        and v.battles == 0
        and fire_dice(st, v, u) > 0
        and (has_opfire(st, v.id) or df_eligible(st, v, u))
    ):
        f["stage"] = "pre_fire"  # 5.7a / 7.4


def declare_fire(st: GameState, v: Unit, u: Unit, kind: str, events: list[dict[str, Any]]) -> None:
    """Opportunity Fire (6) or Defensive Fire (7) of ``v`` at ``u``: always Ranged Combat
    (6.6 / 7.8).  OpFire spends the marker (6.5, not a battle); Defensive Fire marks the
    unit as battled (7.6)."""
    n = fire_dice(st, v, u)
    if n <= 0:
        raise IllegalAction("illegal_target", "this unit cannot fire at that unit")
    if kind == "opportunity_fire":
        drop_opfire(st, v.id, events, "fired")
    else:
        st.mut(v.id).battles += 1
    d = st.scn.board.distance(v.hex, u.hex)
    events.append(
        {
            "type": "battle_declared",
            "unit": v.id,
            "side": v.side,
            "from": [*v.hex],
            "target": [*u.hex],
            "target_unit": u.id,
            "range": d,
            "dice": n,
            "kind": kind,
            "assault": False,
        }
    )
    fights(st).append(new_fight(kind, v, u, d, n, False))
