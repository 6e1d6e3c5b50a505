"""Battle outcome (004 Game Turn Explanation 4): resolving the roll, hits and flags,
retreat, take ground, armor overrun, desert moves, the end of a battle record, and the 004
firefight.  Declaring a battle, its dice and targets: :mod:`engine.procedures.battle`;
who decides each step of the battle stack: :mod:`engine.procedures.battle_stack`."""

from __future__ import annotations

from typing import Any

from ..core.geometry import Hex
from ..core import dice as D
from ..core.errors import IllegalAction
from ..core.units import may_target
from ..core.unit_types import extra_flags, may_enter
from . import trains as TR
from .battle import (
    _mark,
    apply_hits,
    battle_dice,
    declare,
    may_battle_back,
    targets,
    terrain_allows_battle,
    unit_star_hits,
)
from .common import drop_camouflage, is_top, parse_hex, parse_unit, set_ext, terrain_at
from .medals import check_victory, update_objectives
from .movement import can_step, reachable, stopped_in_hex
from .state import Battle, GameState, RetreatOption, Unit
from .terrain_changes import unit_left_hex


# ----------------------------------------------------------------------------- resolve
def resolve_roll(st: GameState, faces: list[str], events: list[dict[str, Any]]) -> None:
    b = st.battles[-1]
    st.last_roll = {
        "unit": b.attacker,
        "target": [*b.target_hex],
        "dice": list(faces),
        "kind": b.kind,
    }
    special = st.hooks.roll_handlers.get(b.kind)
    if (
        special is not None
    ):  # seal_cave / heal / blow_bridge (engine/rulesets/m44/options/hazards.py)
        special(st, b, faces, events)
        finish(st, events)
        return
    v = st.units.get(b.target)
    if v is None:
        finish(st, events)
        return
    hit_by = v.spec.hit_by
    if b.kind == "hazard":  # frozen river: each star is a hit
        hits, flags = sum(1 for f in faces if f == "star"), 0
    elif b.kind == "tiger":  # Tiger second roll: each grenade is a figure lost
        hits, flags = sum(1 for f in faces if f == "grenade"), 0
    else:
        hits, flags = D.count(faces, v.cls, hit_by, b.star_hits, b.ignore_grenades)
        if b.kind == "mine":  # mines: unit symbol + grenade; flags ignored
            flags = 0
        elif _fortress_vs_artillery(st, b, v):
            hits = faces.count("star")  # 004 "Bunkers, Fortress": artillery hits on stars only
        atk = st.units.get(b.attacker) if b.attacker else None
        if atk is not None and atk.spec.flag_faces and b.kind != "mine":
            flags += extra_flags(atk.spec, faces, v.cls)  # 88mm star, mortar grenade...
        if flags and v.spec.equipment == "boat" and _on_river(st, v.hex):
            hits, flags = hits + flags, 0  # vocabulary 1.3: every flag is a hit on a boat
        if st.options:
            hits, flags = st.hooks.hits_flags(st, b, v, faces, (hits, flags))  # 004 variants
    events.append(
        {
            "type": "dice_rolled",
            "side": b.side,
            "unit": b.attacker,
            "target_unit": v.id,
            "dice": list(faces),
            "hits": hits,
            "flags": flags,
            "kind": b.kind,
        }
    )
    if hits and v.spec.two_step_damage and b.kind != "tiger":
        # vocabulary 6.3 Tiger: roll again one die per hit, grenades take the figure;
        # the first roll's flags wait under the second roll
        b.flags = flags
        b.stage = "tiger_wait"
        t = Battle(b.attacker, b.side, v.id, v.hex, b.from_hex, b.dist, hits, "tiger")
        st.battles.append(t)
        return
    _after_hits(st, b, v, hits, flags, events)


def _on_river(st: GameState, h: Hex) -> bool:
    t = terrain_at(st, h)
    return t.river and not t.bridge


def _fortress_vs_artillery(st: GameState, b: Battle, v: Unit) -> bool:
    if b.attacker is None or not terrain_at(st, v.hex).art_hits_on_star_only:
        return False
    u = st.units.get(b.attacker)
    return u is not None and u.cls == "art"


def _after_hits(
    st: GameState, b: Battle, v: Unit, hits: int, flags: int, events: list[dict[str, Any]]
) -> None:
    if hits:
        if b.attacker and b.kind == "battle":
            gun = st.units.get(b.attacker)
            if gun is not None and gun.spec.cross_hairs and v.figures > hits:
                _mark(st, gun, v, events)
        if apply_hits(st, v, hits, b.side, events):
            b.vacated = True
            if check_victory(st, events):
                return
            update_objectives(st, events)
            post_battle(st, events)
            return
    b.flags = flags
    if not flags and may_battle_back(st, b):
        b.stage = "battle_back"
        return
    if flags:
        options = b.retreat_options = retreat_options(st, v, flags, b.no_ignore)
        if len(options) == 1:
            do_retreat(st, b, options[0], events)
            return
        b.stage = "retreat"
        return
    post_battle(st, events)


# ----------------------------------------------------------------------------- retreat
def retreat_options(st: GameState, v: Unit, flags: int, no_ignore: bool) -> list[RetreatOption]:
    """Every choice the owner has: end hex, flags ignored, figures lost (minimal losses)."""
    t = terrain_at(st, v.hex)
    ignorable = 0
    if not no_ignore:
        ignorable = min(
            flags, t.flags_ignorable(v.cls, v.side, unit_nation=v.spec.nation) + v.spec.ignore_flags
        )
    rmin, rmax = v.spec.retreat_per_flag
    frozen = v.cls in t.cannot_leave
    opts: dict[tuple[Hex, int], RetreatOption] = {}
    stay, ends_of = v.hex, _retreat_ends
    if v.spec.train:
        if TR.coupled(st, v):  # the train retreats backwards: options name the last
            stay, ends_of = TR.retreat_leader(st, v).hex, TR.retreat_ends  # wagon's hex
    # vocabulary 2.6: Japanese infantry MUST ignore the flags it may ignore
    for ign in range(ignorable if v.spec.must_ignore_flags else 0, ignorable + 1):
        need = flags - ign
        lo, hi = need * rmin, need * rmax
        if lo == 0:
            _add(opts, stay, 0, ign)
            continue
        ends = {} if frozen else ends_of(st, v, hi)
        best = max(ends.values(), default=0)
        if best >= lo:
            for h, k in ends.items():
                if k >= lo:
                    _add(opts, h, 0, ign)
        elif best == 0:
            _add(opts, stay, lo, ign)
        else:
            for h, k in ends.items():
                if k == best:
                    _add(opts, h, lo - best, ign)
        if st.options.get("no_retreat"):
            _add(opts, stay, lo, ign)
    return sorted(opts.values(), key=lambda o: (o["losses"], o["ignore"], o["to"]))


def _add(opts: dict[tuple[Hex, int], RetreatOption], h: Hex, losses: int, ign: int) -> None:
    key = (h, losses)
    if key not in opts or opts[key]["ignore"] > ign:
        opts[key] = {"to": [*h], "losses": losses, "ignore": ign}


def _retreat_ends(st: GameState, v: Unit, max_steps: int) -> dict[Hex, int]:
    """End hex -> steps, for retreat paths of 1..max_steps steps (longest kept per hex).
    Terrain has no effect on retreat moves, but impassable terrain may not be moved
    through (004 "Retreat"): impassable hexes, the ocean, and steps the unit could never
    make (:func:`movement.can_step`: wadi walls, 004 "Wadis": "impassable, both up from
    the Wadi hex or down into it"; a mountain from a non-hill hex, 004 "Mountains":
    "Movement is not possible from other Tiles"; vehicles up a sea bluff from a beach,
    vocabulary 1.3 "also when retreating")."""
    board = st.scn.board
    top = is_top(st, v.side)
    out: dict[Hex, int] = {}
    frontier = [v.hex]
    rails = st.scn.rail_links if v.spec.train else None  # trains retreat along the rail
    for k in range(1, max_steps + 1):
        nxt = []
        for h in frontier:
            for n in board.retreat_hexes(h, top):
                if rails is not None and n not in rails.get(h, ()):
                    continue
                held = n in st.occ  # 004 Zombie: an occupant dislodged, no further
                if held and not (st.options and st.hooks.dislodge(st, v, n) is not None):
                    continue
                tn = terrain_at(st, n)
                if (
                    v.cls in tn.impassable
                    or v.cls in tn.retreat_impassable
                    or tn.ocean
                    or not can_step(st, v, n, h)
                ):
                    continue
                out[n] = k
                if not held:
                    nxt.append(n)
        frontier = list(dict.fromkeys(nxt))
        if not frontier:
            break
    return out


def retreat_ends(st: GameState, v: Unit, max_steps: int) -> dict[Hex, int]:
    """Public form of :func:`_retreat_ends` (end hex -> steps of a retreat move toward
    ``v``'s own side), for rule sets whose units retreat by choice (Fast Play '44 rally
    and withdrawal, engine/rulesets/fastplay)."""
    return _retreat_ends(st, v, max_steps)


def choose_retreat(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    b = st.battles[-1]
    to = action.get("to")
    ign = action.get("ignore")
    for o in b.retreats():
        if o["to"] == list(to or []) and (ign is None or o["ignore"] == ign):
            do_retreat(st, b, o, events)
            return
    raise IllegalAction("illegal_retreat", "that retreat is not one of the options")


def do_retreat(st: GameState, b: Battle, opt: RetreatOption, events: list[dict[str, Any]]) -> None:
    v = st.mut(b.target)
    to = (opt["to"][0], opt["to"][1])
    frm = v.hex
    if opt["ignore"]:
        events.append({"type": "flags_ignored", "unit": v.id, "count": opt["ignore"]})
    if v.spec.train:
        if TR.coupled(st, v):
            TR.retreat(st, v, to, events)
            frm = to  # moved (or not) already
    if to != frm:
        if to in st.occ:  # 004 Zombie: "simply dislodges that Unit back one hex"
            back = st.hooks.dislodge(st, v, to)
            if back is None:  # (a retreat ends on an occupied hex only where it dislodges)
                raise IllegalAction("illegal_retreat", "that retreat is not one of the options")
            dislodge_unit(st, st.units[st.occ[to]], back, events)
        del st.occ[frm]
        v.hex = to
        st.occ[to] = v.id
        unit_left_hex(st, frm, events)
        events.append(
            {"type": "unit_retreated", "unit": v.id, "side": v.side, "from": [*frm], "to": [*to]}
        )
        st.hooks.enemy_entered(st, v, events)  # 004 Bridge Demolition: charges removed
        b.vacated = True
    if opt["losses"]:
        if apply_hits(st, v, opt["losses"], b.side, events):
            b.vacated = True
    if v.spec.train:
        b.vacated = b.target_hex not in st.occ  # a train's other piece may fill the hex
    if check_victory(st, events):
        return
    update_objectives(st, events)
    if check_victory(st, events):
        return
    post_battle(st, events)
    if to != frm and v.id in st.units:
        # 004 "Rivers & Waterways, Frozen": "Roll two Battle Dice whenever a Unit Moves or
        # Retreats onto a Frozen River hex" (a chance step pushed on top of the stack, so
        # it is rolled before the attacker's take ground / the next target)
        st.hooks.on_enter(st, st.units[v.id], "retreat", events)


def dislodge_unit(
    st: GameState, o: Unit, back: Hex, events: list[dict[str, Any]], reason: str = "dislodged"
) -> None:
    """``o`` steps one hex to ``back`` to make room (004 Zombie: a zombie retreating into
    it, a splitting zombie), event ``unit_moved`` with ``reason``."""
    o = st.mut(o.id)
    frm = o.hex
    del st.occ[frm]
    o.hex = back
    st.occ[back] = o.id
    events.append(
        {
            "type": "unit_moved",
            "unit": o.id,
            "side": o.side,
            "from": [*frm],
            "to": [*back],
            "hexes": 1,
            "reason": reason,
        }
    )


# ----------------------------------------------------------------------------- take ground
def post_battle(st: GameState, events: list[dict[str, Any]]) -> None:
    b = st.battles[-1]
    u = st.units.get(b.attacker) if b.attacker else None
    if (
        b.vacated
        and u is not None
        and b.dist == 1
        and b.kind in ("battle", "overrun")
        and u.hex == b.from_hex
        and can_take_ground(st, u, b.target_hex)
    ):
        b.stage = "take_ground"
        return
    finish(st, events)


def can_take_ground(st: GameState, u: Unit, h: Hex) -> bool:
    """004 "Taking Ground": the attacker may advance into the abandoned hex; "Terrain
    Movement and Battle restrictions still apply when Units Take Ground": not out of a
    must-stop hex it entered this turn (unless Behind Enemy Lines ignores terrain), not
    by a step its movement could not make (:func:`movement.can_step`), not up a cliff
    from a beach (vocabulary 1.3 Cliff)."""
    if u.spec.take_ground < 1 or h in st.occ:
        return False
    play = st.play
    if play is not None and play.flags.get("no_take_ground"):
        return False
    own = terrain_at(st, u.hex)
    if u.cls in own.cannot_leave:
        return False
    if stopped_in_hex(st, u) and not (play is not None and play.flags.get("ignore_terrain")):
        return False
    th = terrain_at(st, h)
    if u.moved and u.cls in th.no_take_ground_after_move:
        return False  # jungle: armor that moved cannot take ground into it
    if own.beach and u.cls in th.no_take_ground_from_beach:
        return False
    if (u.spec.enter_only is not None or u.spec.never_enter) and not may_enter(u.spec, th):
        return False  # 004 unit types: terrain the unit may not move into
    return u.cls not in th.impassable and can_step(st, u, h)


def take_ground(st: GameState, take: bool, events: list[dict[str, Any]]) -> None:
    b = st.battles[-1]
    u = st.mut(b.attacker_id)
    if not take:
        finish(st, events)
        return
    frm = u.hex
    del st.occ[frm]
    u.hex = b.target_hex
    st.occ[u.hex] = u.id
    u.entered = True
    unit_left_hex(st, frm, events)
    events.append(
        {"type": "ground_taken", "unit": u.id, "side": u.side, "from": [*frm], "to": [*u.hex]}
    )
    update_objectives(st, events)
    if check_victory(st, events):
        return
    desert = _desert_hexes(st, u, b)
    if desert:
        b.retreat_options = desert
        b.stage = "desert_move"
    else:
        _after_take_ground(st, b, u, events)
    st.hooks.on_enter(st, u, "take_ground", events)  # a mine / frozen river rolls first


def _after_take_ground(st: GameState, b: Battle, u: Unit, events: list[dict[str, Any]]) -> None:
    if (
        u.spec.take_ground >= 2
        and not u.overrun
        and b.kind == "battle"
        and not terrain_at(st, u.hex).no_overrun
        and terrain_allows_battle(st, u)
        and targets(st, u, st.play, "overrun")
    ):
        b.stage = "overrun"
    else:
        finish(st, events)


def _desert_hexes(st: GameState, u: Unit, b: Battle) -> list[list[int]]:
    """Vocabulary 2.6 North African desert rules: an Armor that took ground may move 1
    further hex (normal movement rules) before its overrun battle; 004 "North African
    Armour Overrun": "All other Armour Overruns and Taking Ground rules remain in effect",
    so not out of a must-stop hex it took ground into (:func:`movement.stopped_in_hex`)."""
    if (
        not st.scn.options.get("north_african_desert_rules")
        or u.cls != "armor"
        or u.spec.take_ground < 2
        or u.overrun
        or b.kind != "battle"
        or stopped_in_hex(st, u)
    ):
        return []
    return [[*h] for h in sorted(reachable(st, u, st.play, 1))]


def desert_move(st: GameState, b: Battle, to: Hex, events: list[dict[str, Any]]) -> None:
    u = st.mut(b.attacker_id)
    frm = u.hex
    del st.occ[frm]
    u.hex = to
    st.occ[to] = u.id
    u.entered = True
    unit_left_hex(st, frm, events)
    events.append(
        {
            "type": "unit_moved",
            "unit": u.id,
            "side": u.side,
            "from": [*frm],
            "to": [*to],
            "hexes": 1,
            "reason": "desert",
        }
    )
    update_objectives(st, events)
    if check_victory(st, events):
        return
    _after_take_ground(st, b, u, events)
    st.hooks.on_enter(st, u, "move", events)


def overrun(st: GameState, target: Hex, events: list[dict[str, Any]]) -> None:
    b = st.battles[-1]
    u = st.units[b.attacker_id]
    st.battles.pop()
    declare(st, u, target, st.play, events, kind="overrun")


# ----------------------------------------------------------------------------- finish
def finish(st: GameState, events: list[dict[str, Any]]) -> None:
    """Pop the finished battle; resume an ambushed close assault or the next card target."""
    b = st.battles.pop()
    if b.dist == 1 and b.kind in FIREFIGHT_KINDS and st.options.get("firefight_continuing"):
        _record_firefight(st, b)
    if b.kind == "tiger" and st.battles and st.battles[-1].stage == "tiger_wait":
        orig = st.battles[-1]
        v = st.units.get(orig.target)
        if v is None:
            orig.vacated = True
            post_battle(st, events)
        else:
            _after_hits(st, orig, v, 0, orig.flags, events)
        return
    if b.kind in ("mine", "hazard"):
        # the unit that entered may have died: drop its pending overrun
        while (
            st.battles
            and st.battles[-1].stage in ("overrun", "desert_move")
            and st.battles[-1].attacker not in st.units
        ):
            st.battles.pop()
    if b.kind in ("ambush", "charge_defence") and st.battles and st.battles[-1].stage == "ambushed":
        orig = st.battles[-1]
        u = st.units.get(orig.attacker_id)
        if u is None or u.hex != orig.from_hex:
            events.append({"type": "battle_cancelled", "unit": orig.attacker, "reason": b.kind})
            st.battles.pop()
        else:
            v = st.units.get(orig.target)
            if v is None:
                st.battles.pop()
            else:
                orig.dice = battle_dice(st, u, v, 1, st.play, orig.kind)
                orig.stage = "roll" if orig.dice > 0 else "cancel"
                if orig.stage == "cancel":
                    events.append(
                        {"type": "battle_cancelled", "unit": orig.attacker, "reason": "no_dice"}
                    )
                    st.battles.pop()
    if not st.battles and st.air_targets:
        st.hooks.after_card_attack(st, events)


# ----------------------------------------------------------------------------- firefight
FIREFIGHT_KINDS = frozenset({"battle", "overrun", "firefight"})


def _record_firefight(st: GameState, b: Battle) -> None:
    """004 optional "Firefight" (option ``firefight_continuing``): two units left in close
    assault keep fighting in later turns without orders.  Pairs live in
    ``GameState.ext["firefights"]`` as (unit, unit, hex, hex); a pair ends when either
    unit moves, retreats or is eliminated (checked lazily against the hexes)."""
    u, v = st.units.get(b.attacker or ""), st.units.get(b.target)
    if u is None or v is None or u.hex != b.from_hex or v.hex != b.target_hex:
        return
    live = tuple(p for p in firefights(st) if _pair_live(st, p) and {p[0], p[1]} != {u.id, v.id})
    set_ext(st, "firefights", live + ((u.id, v.id, u.hex, v.hex),))


# 004 "Firefight, continuing": (unit, unit, its hex, the other's hex) of a close assault
Firefight = tuple[str, str, Hex, Hex]


def firefights(st: GameState) -> tuple[Firefight, ...]:
    x = st.ext
    return x.get("firefights", ()) if x else ()


def _pair_live(st: GameState, p: Firefight) -> bool:
    a, b = st.units.get(p[0]), st.units.get(p[1])
    return a is not None and b is not None and a.hex == p[2] and b.hex == p[3]


def firefight_options(st: GameState, side: str) -> list[tuple[Unit, Unit]]:
    """(unit of ``side``, enemy) pairs that may continue their firefight now: the unit is
    not ordered this turn (an ordered unit battles normally), has not battled, may battle
    from its hex, and rolls at least 1 die (one less than normal)."""
    out = []
    for p in firefights(st):
        if not _pair_live(st, p):
            continue
        a, b = st.units[p[0]], st.units[p[1]]
        if b.side == side:
            a, b = b, a
        if a.side != side or a.ordered or a.battles or a.no_battle:
            continue
        if terrain_allows_battle(st, a) and firefight_dice(st, a, b) > 0:
            out.append((a, b))
    return out


def firefight_dice(st: GameState, u: Unit, v: Unit) -> int:
    if not may_target(u.spec, v.spec):
        return 0
    return battle_dice(st, u, v, 1, None, "firefight") - 1


def declare_firefight(
    st: GameState,
    options: list[tuple[Unit, Unit]],
    action: dict[str, Any],
    events: list[dict[str, Any]],
) -> None:
    """Declare one of ``options`` (pairs from :func:`firefight_options`, narrowed to the
    seat acting) named by the action's ``unit`` and ``target``."""
    u = parse_unit(st, action)
    h = parse_hex(action, "target")
    pair = next(((a, b) for a, b in options if a.id == u.id and b.hex == h), None)
    if pair is None:
        raise IllegalAction("illegal_target", "no firefight of this unit against that hex")
    u, v = pair
    n = firefight_dice(st, u, v)
    b = Battle(u.id, u.side, v.id, v.hex, u.hex, 1, n, "firefight")
    b.star_hits = unit_star_hits(u)
    b.ignore_grenades = True  # fighting without orders: grenades are ignored
    st.mut(u.id).battles += 1
    drop_camouflage(st, u.hex, events)
    events.append(
        {
            "type": "battle_declared",
            "unit": u.id,
            "side": u.side,
            "from": [*u.hex],
            "target": [*v.hex],
            "target_unit": v.id,
            "range": 1,
            "dice": n,
            "kind": "firefight",
        }
    )
    st.battles.append(b)
