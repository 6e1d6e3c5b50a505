"""Fast Play '44 combat (000 rules 5-10, 12.3, 12.5): Ranged Combat, Assault,
Opportunity Fire, Defensive Fire, suppression, retreat / withdrawal, take ground, overrun.

The dice counts, ranges, line of sight, terrain reductions, hit reading, retreat paths and
take-ground restrictions are the standard procedures' (engine/procedures/battle.py,
movement.py, medals.py); this module owns only the Fast Play flow.  One **fight** record
per combat on ``ext["fights"]`` (a stack: a pre-assault fire or a British battle back sits
on top of the fight it answers).  Fields: ``kind`` (battle | overrun | opportunity_fire |
defensive_fire | battle_back | second_assault), ``assault`` (bool), ``att`` / ``tgt``
(unit ids), ``frm`` / ``thex`` (hexes), ``dist``, ``dice``, ``stage``, ``flags``,
``opts`` (retreat options), ``vacated``, ``retreated``.

Stages: ``pre_fire`` (5.7a: the assaulted unit's window: opportunity_fire /
defensive_fire / hold_fire) -> ``wait`` (its fire on top) -> ``roll`` (chance node) ->
``retreat`` (owner: retreat option or withdraw, 5.6d / 5.7d) -> ``take_ground``
(5.6e: ranged combat MAY; 5.7e: an assault MUST, automatically) -> ``overrun`` ->
``battle_back`` (12.3) -> ``second_assault`` (12.5) -> ``defensive_fire`` (5.6f / 7)
-> popped.

Choices where the text is silent (docs/rules-coverage.md "Fast Play '44"):

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
* A withdrawal off the board (5.6d, 9) is offered when the retreat the flags ask for is
  longer than the hexes left between the unit and its own board edge.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...core import dice as D
from ...core.errors import IllegalAction
from ...core.units import may_target
from ...core.unit_types import extra_flags
from ...procedures import battle as B
from ...procedures import battle_outcome as BO
from ...procedures import los as L
from ...procedures.common import is_top, other, parse_hex, terrain_at
from ...procedures.medals import check_victory, finish, update_objectives
from ...procedures.state import GameState, Mine, Unit
from ...procedures.terrain_changes import unit_left_hex
from .cards import heal
from .markers import drop_opfire, forget, has_opfire, set_suppression, suppressed, suppression

Hex = tuple[int, int]
ASSAULT_KINDS = ("battle", "overrun", "second_assault")


# ----------------------------------------------------------------------------- helpers
def fights(st: GameState) -> list[dict[str, Any]]:
    return st.ext["fights"]


def top(st: GameState) -> dict[str, Any] | None:
    f = st.ext["fights"]
    return f[-1] if f else None


def _h(x) -> Hex:
    return (x[0], x[1])


def as_infantry(st: GameState, u: Unit) -> Unit:
    """10.4: a rallied (towed) artillery unit defends as an infantry unit that turn."""
    if u.id not in st.ext["towed"]:
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


def _battle_back_ok(st: GameState, f: dict, v: Unit | None, u: Unit | None) -> bool:
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
    return f.get("fp_assault_bonus", 0) + (
        f.get("fp_assault_bonus_armor", 0) if u.cls == "armor" else 0
    )


# ----------------------------------------------------------------------------- declare
def new_fight(kind: str, u: Unit, v: Unit, dist: int, dice: int, assault: bool) -> dict:
    return {
        "kind": kind,
        "assault": assault,
        "att": u.id,
        "tgt": v.id,
        "frm": [*u.hex],
        "thex": [*v.hex],
        "dist": dist,
        "dice": dice,
        "stage": "roll",
        "flags": 0,
        "opts": [],
        "vacated": False,
        "retreated": False,
        "side": u.side,
    }


def declare_battle(
    st: GameState, u: Unit, target: Hex, assault: bool, kind: str, events: list
) -> None:
    """The ordered unit battles (5): Ranged Combat, or an Assault of an adjacent unit."""
    allowed = dict(B.targets(st, u, st.play, "overrun" if kind == "overrun" else "battle"))
    if target not in allowed:
        raise IllegalAction(
            "illegal_target",
            "that hex cannot be battled (range, line of sight, 5.4 adjacent enemy, dice)",
        )
    v = st.unit_at(target)
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


def declare_fire(st: GameState, v: Unit, u: Unit, kind: str, events: list) -> None:
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


def enter_ice(st: GameState, u: Unit, events: list[dict[str, Any]]) -> None:
    """004 "Rivers & Waterways, Frozen": "Roll two Battle Dice whenever a Unit Moves or
    Retreats onto a Frozen River hex. For each Green Star rolled, 1 figure or model is
    lost" (4.1: the standard movement rules; a move or a retreat; no suppression: a star
    is a figure); a chance step on the fight stack, rolled before what follows."""
    n = terrain_at(st, u.hex).entry_hazard_dice
    if n <= 0:
        return
    events.append(
        {"type": "hazard", "unit": u.id, "hex": [*u.hex], "dice": n, "kind": "frozen_river"}
    )
    fights(st).append(_chance_fight("hazard", u, n))


def _chance_fight(kind: str, u: Unit, dice: int) -> dict[str, Any]:
    """A roll against ``u`` with no firer (a mine, the ice), resolved as in an assault."""
    return {
        "kind": kind,
        "assault": True,
        "att": None,
        "tgt": u.id,
        "frm": None,
        "thex": [*u.hex],
        "dist": 0,
        "dice": dice,
        "stage": "roll",
        "flags": 0,
        "opts": [],
        "vacated": False,
        "retreated": False,
        "side": other(u.side),
    }


def enter_minefield(st: GameState, u: Unit, events: list) -> None:
    """004 "Minefields" (our reading for Fast Play: the standard roll, grenades hit)."""
    m = st.mines.get(u.hex)
    if m is None:
        return
    st.mut(u.id).stopped = True  # must stop there, a decoy too (no take ground out of it)
    if m.side == u.side:
        return
    st.mines[u.hex] = Mine(m.side, m.value, True, m.decoy)
    events.append(
        {"type": "mine_revealed", "hex": [*u.hex], "value": m.value, "unit": u.id, "side": u.side}
    )
    if m.value <= 0:
        del st.mines[u.hex]
        events.append({"type": "mine_removed", "hex": [*u.hex], "reason": "decoy"})
        return
    fights(st).append(_chance_fight("mine", u, m.value))


# ----------------------------------------------------------------------------- resolve
def resolve(st: GameState, faces: list[str], events: list) -> None:
    """Read the roll: hits, grenades as suppression in Ranged Combat (5.6c, 8.1-8.3),
    flags against artillery as hits (10.2), flags as retreats (5.6d / 5.7d)."""
    f = top(st)
    u = st.units.get(f["att"])
    v = st.units.get(f["tgt"])
    st.last_roll = {"unit": f["att"], "target": f["thex"], "dice": list(faces), "kind": f["kind"]}
    if v is None or f["kind"] == "medics":
        if v is not None:
            heal(st, f, faces, events)
        _pop(st, events)
        return
    if "tiger" in f:  # vocabulary 6.3: the Tiger's second roll,
        hits, flags = faces.count("grenade"), f.pop("tiger")  # grenades take the figure
        events.append(
            {
                "type": "dice_rolled",
                "side": f["side"],
                "unit": f["att"],
                "target_unit": v.id,
                "dice": list(faces),
                "hits": hits,
                "flags": flags,
                "suppression": 0,
                "kind": "tiger",
                "assault": f["assault"],
            }
        )
        _outcome(st, f, v, hits, flags, events)
        return
    hits, flags = _read(st, f, u, v, faces, events)
    if hits and v.spec.two_step_damage:  # vocabulary 6.3 Tiger: one die per hit;
        f["tiger"], f["dice"] = flags, hits  # the first roll's flags wait under it
        return  # (stage stays "roll": a chance node)
    _outcome(st, f, v, hits, flags, events)


def _read(
    st: GameState, f: dict, u: Unit | None, v: Unit, faces: list[str], events: list
) -> tuple[int, int]:
    ranged = not f["assault"]
    star = (
        B.unit_star_hits(u)
        if u is not None and f["kind"] != "battle_back"
        else (u.spec.star_hits if u is not None else frozenset())
    )
    hits, flags = D.count(faces, v.cls, v.spec.hit_by, star, ignore_grenades=ranged)
    if u is not None and u.spec.flag_faces:
        flags += extra_flags(u.spec, faces, v.cls)
    grenades = 0
    if ranged and (v.spec.hit_by is None or "grenade" in v.spec.hit_by):
        grenades = faces.count("grenade")
    if f["kind"] == "mine":
        flags = 0  # 004 Minefields: flags are ignored
    elif f["kind"] == "hazard":
        hits, flags = faces.count("star"), 0  # the ice: each star is a figure
    if v.cls == "art" or v.spec.train:
        hits, flags = hits + flags, 0  # 10.2: artillery takes flags as hits
        #                                        (ours: so does a train: no retreat on the rail)
    level = suppression(st, v.id)
    add = min(grenades, 2 - level)
    hits += grenades - add  # 8.3: beyond two levels a grenade is a hit
    events.append(
        {
            "type": "dice_rolled",
            "side": f["side"],
            "unit": f["att"],
            "target_unit": v.id,
            "dice": list(faces),
            "hits": hits,
            "flags": flags,
            "suppression": add,
            "kind": f["kind"],
            "assault": f["assault"],
        }
    )
    if add:
        set_suppression(st, v.id, level + add, events, "grenade")
    return hits, flags


def _outcome(st: GameState, f: dict, v: Unit, hits: int, flags: int, events: list) -> None:
    f["flags"] = flags
    if hits and B.apply_hits(st, v, hits, f["side"], events):
        forget(st, v.id)
        f["vacated"] = True
        if check_victory(st, events):
            return
        update_objectives(st, events)
        after(st, events)
        return
    if flags:
        v = st.units[v.id]
        f["opts"] = retreat_choices(st, v, flags, f.get("no_ignore", False))
        if len(f["opts"]) == 1:
            retreat(st, f["opts"][0], events)
            return
        f["stage"] = "retreat"
        return
    after(st, events)


def retreat_choices(st: GameState, v: Unit, flags: int, no_ignore: bool = False) -> list[dict]:
    """The standard retreat options, plus ``{"withdraw": True}`` when the retreat would
    take the unit off its own board edge (5.6d / 5.7d / 9)."""
    opts = [dict(o) for o in BO.retreat_options(st, v, flags, no_ignore)]
    if off_board(st, v, flags * v.spec.retreat_per_flag[0]):
        opts.append({"withdraw": True})
    return opts


def off_board(st: GameState, v: Unit, steps: int) -> bool:
    """Would ``steps`` retreat steps toward ``v``'s own edge leave the board?"""
    r = v.hex[0]
    left = r if is_top(st, v.side) else st.scn.board.rows - 1 - r
    return steps > left


def retreat(st: GameState, opt: dict, events: list) -> None:
    """Carry out a retreat option (or a withdrawal) of the top fight's target."""
    f = top(st)
    v = st.mut(f["tgt"])
    if opt.get("withdraw"):
        withdraw_unit(st, v, events, "flags")
        f["vacated"] = f["retreated"] = True
        if not st.game_over:
            after(st, events)
        return
    to, frm = _h(opt["to"]), v.hex
    if opt.get("ignore"):
        events.append({"type": "flags_ignored", "unit": v.id, "count": opt["ignore"]})
    if to != frm:
        del st.occ[frm]
        v.hex = to
        st.occ[to] = v.id
        unit_left_hex(st, frm, events)
        events.append(
            {"type": "unit_retreated", "unit": v.id, "side": v.side, "from": [*frm], "to": [*to]}
        )
        f["vacated"] = f["retreated"] = True
        if f["assault"]:  # 5.8f: two levels after an assault retreat
            set_suppression(st, v.id, 2, events, "assault_retreat")
    if opt.get("losses") and B.apply_hits(st, v, opt["losses"], f["side"], events):
        forget(st, v.id)
        f["vacated"] = True
    if check_victory(st, events):
        return
    update_objectives(st, events)
    if not check_victory(st, events):
        after(st, events)
        if to != frm and v.id in st.units and not st.game_over:
            enter_ice(st, st.units[v.id], events)


def withdraw_unit(st: GameState, u: Unit, events: list, reason: str) -> None:
    """9.1-9.2: the unit leaves the board for good, no medal to anyone; 11.1: a side with
    no unit left after withdrawing loses at the full medal count of the opponent."""
    del st.occ[u.hex]
    del st.units[u.id]
    forget(st, u.id)
    unit_left_hex(st, u.hex, events)
    st.ext["withdrawn"][u.side] += 1
    events.append(
        {"type": "unit_withdrawn", "unit": u.id, "side": u.side, "hex": [*u.hex], "reason": reason}
    )
    update_objectives(st, events)
    if not any(w.side == u.side for w in st.units.values()):
        win = other(u.side)
        short = st.scn.victory.get(win, 0) - st.medals(win)
        if short > 0:
            st.elim_medals[win] += short
            events.append(
                {"type": "medal_gained", "side": win, "reason": "withdrawal", "count": short}
            )
        finish(st, win, "withdrawal", events)
        return
    check_victory(st, events)


# ----------------------------------------------------------------------------- after
def after(st: GameState, events: list) -> None:
    """Everything after the hits and the retreat: take ground, overrun, battle back,
    second assault, defensive fire, then the fight is over."""
    f = top(st)
    u = st.units.get(f["att"])
    v = st.units.get(f["tgt"])
    if f["vacated"]:
        if (
            f["kind"] in ASSAULT_KINDS
            and f["dist"] == 1
            and u is not None
            and u.hex == _h(f["frm"])
            and BO.can_take_ground(st, u, _h(f["thex"]))
        ):
            if f["assault"]:
                take_ground(st, events)  # 5.7e: the assaulting unit MUST
            else:
                f["stage"] = "take_ground"  # 5.6e: ranged combat MAY
            return
        _pop(st, events)
        return
    if u is None or v is None or f["retreated"]:
        _pop(st, events)  # 7.5: no Defensive Fire after a retreat
        return
    if _battle_back_ok(st, f, v, u):
        f["stage"] = "battle_back"
        return
    if (
        f["assault"]
        and f["kind"] in ("battle", "overrun")
        and french(st, u)
        and not suppressed(st, u.id)
        and u.hex == _h(f["frm"])
    ):
        f["stage"] = "second_assault"
        return
    if not f["assault"] and f["kind"] in ("battle", "overrun") and df_eligible(st, v, u):
        f["stage"] = "defensive_fire"  # 5.6f / 7.4: after the hits
        return
    _pop(st, events)


def take_ground(st: GameState, events: list) -> None:
    f = top(st)
    u = st.mut(f["att"])
    frm, to = u.hex, _h(f["thex"])
    del st.occ[frm]
    u.hex = to
    st.occ[to] = u.id
    u.entered = True
    unit_left_hex(st, frm, events)
    events.append(
        {"type": "ground_taken", "unit": u.id, "side": u.side, "from": [*frm], "to": [*to]}
    )
    update_objectives(st, events)
    if check_victory(st, events):
        return
    if (
        u.spec.take_ground >= 2
        and not u.overrun
        and f["kind"] == "battle"
        and not terrain_at(st, u.hex).no_overrun
        and B.terrain_allows_battle(st, u)
        and not suppressed(st, u.id)
        and B.targets(st, u, st.play, "overrun")
    ):
        f["stage"] = "overrun"
    else:
        _pop(st, events)
    enter_minefield(st, u, events)  # 004: a mine and the ice roll on a take ground too,
    enter_ice(st, st.units[u.id], events)  # before the overrun


def _pop(st: GameState, events: list) -> None:
    """The top fight is over; resume the fight it answered (not an overrun of a unit the
    mine or the ice it took ground into eliminated)."""
    fs = fights(st)
    fs.pop()
    if not fs or st.game_over:
        return
    f = fs[-1]
    if f["stage"] == "overrun" and f["att"] not in st.units:
        _pop(st, events)
        return
    if f["stage"] == "wait":  # 5.7b: the assault goes on if the attacker
        u = st.units.get(f["att"])  # survived, did not retreat, not suppressed
        v = st.units.get(f["tgt"])
        if u is None or v is None or u.hex != _h(f["frm"]) or suppressed(st, u.id):
            events.append(
                {"type": "battle_cancelled", "unit": f["att"], "reason": "pre_assault_fire"}
            )
            _pop(st, events)
            return
        f["dice"] = B.battle_dice(st, u, v, 1, None, "battle") + assault_bonus(st, u)
        f["stage"] = "roll"
        if f["dice"] <= 0:
            events.append({"type": "battle_cancelled", "unit": f["att"], "reason": "no_dice"})
            _pop(st, events)
    elif f["stage"] == "after_bb":
        f["bb_done"] = True
        after(st, events)


# ----------------------------------------------------------------------------- decisions
def pending(st: GameState) -> dict[str, Any]:
    f = top(st)
    s = f["stage"]
    base = {
        "unit": f["att"],
        "target_unit": f["tgt"],
        "kind": f["kind"],
        "assault": f["assault"],
        "hex": f["thex"],
    }
    if s == "roll":
        return {
            "type": "roll",
            "seat": "chance",
            "dice": f["dice"],
            "for": "tiger" if "tiger" in f else f["kind"],
            "unit": f["att"],
            "target": f["thex"],
        }
    tside = other(f["side"])
    if s == "pre_fire":
        return {"type": "assault_fire", "seat": tside, **base}
    if s == "retreat":
        return {
            "type": "retreat",
            "seat": tside,
            "unit": f["tgt"],
            "flags": f["flags"],
            "options": f["opts"],
        }
    if s == "defensive_fire":
        return {"type": "defensive_fire", "seat": tside, **base}
    if s == "battle_back":
        return {"type": "battle_back", "seat": tside, **base}
    if s in ("take_ground", "overrun", "second_assault"):
        return {"type": s, "seat": f["side"], **base}
    raise AssertionError(s)


def legal(st: GameState, seat: str) -> list[dict[str, Any]]:
    p = pending(st)
    if p["seat"] != seat or p["type"] == "roll":
        return []
    f = top(st)
    t = p["type"]
    a = {"seat": seat}
    if t == "assault_fire":
        v, u = st.units[f["tgt"]], st.units[f["att"]]
        out = []
        if has_opfire(st, v.id):
            out.append({"type": "opportunity_fire", **a, "unit": v.id, "target": [*u.hex]})
        if df_eligible(st, v, u):
            out.append({"type": "defensive_fire", **a, "unit": v.id, "target": [*u.hex]})
        return out + [{"type": "hold_fire", **a}]
    if t == "retreat":
        return [
            (
                {"type": "withdraw", **a, "unit": f["tgt"]}
                if o.get("withdraw")
                else {
                    "type": "retreat",
                    **a,
                    "unit": f["tgt"],
                    "to": o["to"],
                    "ignore": o["ignore"],
                }
            )
            for o in f["opts"]
        ]
    if t == "defensive_fire":
        return [
            {"type": "defensive_fire", **a, "unit": f["tgt"], "target": [*st.units[f["att"]].hex]},
            {"type": "no_defensive_fire", **a},
        ]
    if t == "battle_back":
        return [{"type": "battle_back", **a, "unit": f["tgt"]}, {"type": "pass", **a}]
    if t == "take_ground":
        return [
            {"type": "take_ground", **a, "take": True},
            {"type": "take_ground", **a, "take": False},
        ]
    if t == "overrun":
        u = st.units[f["att"]]
        out = []
        for h, _ in B.targets(st, u, st.play, "overrun"):
            out.append({"type": "battle", **a, "unit": u.id, "target": [*h], "assault": False})
            if st.scn.board.distance(u.hex, h) == 1:
                out.append({"type": "battle", **a, "unit": u.id, "target": [*h], "assault": True})
        return out + [{"type": "pass", **a}]
    if t == "second_assault":
        return [{"type": "second_assault", **a, "unit": f["att"]}, {"type": "pass", **a}]
    return []


def apply(st: GameState, action: dict, events: list) -> None:
    """A decision inside a fight (the seat is checked by the caller)."""
    f = top(st)
    t = action["type"]
    s = f["stage"]
    if s == "pre_fire" and t in ("opportunity_fire", "defensive_fire", "hold_fire"):
        v, u = st.units[f["tgt"]], st.units[f["att"]]
        if t == "hold_fire":
            events.append({"type": "fire_held", "unit": v.id, "window": "assault"})
            f["stage"] = "roll"
            return
        if t == "opportunity_fire" and not has_opfire(st, v.id):
            raise IllegalAction("no_opfire_marker", "this unit holds no OpFire marker")
        if t == "defensive_fire" and not df_eligible(st, v, u):
            raise IllegalAction("unit_cannot_battle", "this unit may not Defensive Fire")
        f["stage"] = "wait"
        declare_fire(st, v, u, t, events)
    elif s == "retreat" and t in ("retreat", "withdraw"):
        if t == "withdraw":
            opt = next((o for o in f["opts"] if o.get("withdraw")), None)
        else:
            to, ign = action.get("to"), action.get("ignore")
            opt = next(
                (
                    o
                    for o in f["opts"]
                    if not o.get("withdraw")
                    and o["to"] == list(to or [])
                    and (ign is None or o["ignore"] == ign)
                ),
                None,
            )
        if opt is None:
            raise IllegalAction("illegal_retreat", "that retreat is not one of the options")
        retreat(st, opt, events)
    elif s == "defensive_fire" and t in ("defensive_fire", "no_defensive_fire"):
        v, u = st.units[f["tgt"]], st.units[f["att"]]
        if t == "no_defensive_fire":
            events.append({"type": "fire_held", "unit": v.id, "window": "defensive"})
            _pop(st, events)
            return
        fights(st).pop()  # the battle is over; the answer follows
        declare_fire(st, v, u, "defensive_fire", events)
    elif s == "battle_back" and t in ("battle_back", "pass"):
        if t == "pass":
            f["bb_done"] = True
            after(st, events)
            return
        v, u = st.units[f["tgt"]], st.units[f["att"]]
        f["stage"] = "after_bb"
        events.append(
            {
                "type": "battle_declared",
                "unit": v.id,
                "side": v.side,
                "from": [*v.hex],
                "target": [*u.hex],
                "target_unit": u.id,
                "range": 1,
                "dice": 1,
                "kind": "battle_back",
                "assault": False,
            }
        )
        fights(st).append(new_fight("battle_back", v, u, 1, 1, False))
    elif s == "take_ground" and t == "take_ground":
        if not isinstance(action.get("take"), bool):
            raise IllegalAction("malformed_action", "take_ground needs take: true/false")
        if action["take"]:
            take_ground(st, events)
        else:
            _pop(st, events)
    elif s == "overrun" and t in ("battle", "pass"):
        if t == "pass":
            _pop(st, events)
            return
        u = st.units[f["att"]]
        if action.get("unit") != u.id:
            raise IllegalAction("not_overrun_unit", "only the overrunning unit may battle")
        fights(st).pop()
        declare_battle(
            st, u, parse_hex(action, "target"), bool(action.get("assault")), "overrun", events
        )
    elif s == "second_assault" and t in ("second_assault", "pass"):
        u, v = st.units[f["att"]], st.units[f["tgt"]]
        fights(st).pop()
        if t == "second_assault":
            declare_battle(st, u, v.hex, True, "second_assault", events)
    else:
        raise IllegalAction("unknown_action", f"{t!r} does not answer the pending {s}")


__all__ = [
    "declare_battle",
    "declare_fire",
    "resolve",
    "pending",
    "legal",
    "apply",
    "withdraw_unit",
    "fire_dice",
    "df_eligible",
    "retreat_choices",
]
