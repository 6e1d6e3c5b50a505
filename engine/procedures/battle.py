"""Battle (004 Game Turn Explanation 4): targets, dice, hits, retreat, take ground, overrun,
ambush.  One :class:`~engine.state.Battle` record per battle on ``state.battles`` (a stack:
an Ambush battle sits on top of the close assault it answers).

Stages of a record: ``ambush`` (defender may play Ambush or pass) -> ``roll`` (chance
node) -> ``retreat`` (owner picks a retreat option) -> ``take_ground`` (attacker yes/no)
-> ``overrun`` (armor may battle again, once per turn) -> popped.
"""
from __future__ import annotations

from typing import Any

from ..core import dice as D
from .cards import CARDS
from ..core.errors import IllegalAction
from .state import Battle, GameState, Play, Unit
from ..core.terrain import CLASS_INDEX
from ..core.units import may_target
from ..core.unit_types import dice_table, extra_flags, may_enter, signature
from . import los as L
from . import trains as TR
from .common import (camouflaged, can_activate, drop_camouflage, is_top, mode, other,
                     parse_hex, parse_unit, set_ext, terrain_at, tile_codes, visibility)
from .hooks import POINTS as P
from .medals import check_victory, eliminate, update_objectives
from .movement import can_step, reachable, stopped_in_hex
from .terrain_changes import remove_family, unit_left_hex
from .trains import coupled, hit_order

Hex = tuple[int, int]


# ----------------------------------------------------------------------------- dice count
def battle_dice(st: GameState, u: Unit, v: Unit, dist: int, play: Play | None,
                kind: str = "battle") -> int:
    """Dice ``u`` rolls against ``v`` at ``dist`` (can be <= 0: target not allowed)."""
    spec = u.spec
    typed = dice_table(spec, v.spec) if spec.dice_vs else None
    table = unit_dice(st, u) if typed is None else typed
    if dist < 1 or dist > len(table) or table[dist - 1] <= 0:
        return 0
    n = table[dist - 1]
    if dist == 1 and u.cls == "inf" and v.spec.close_assaulted_by_inf:
        n = v.spec.close_assaulted_by_inf   # 004: "Infantry Units attack ... with 3 Battle Dice"
    own = terrain_at(st, u.hex)
    n += own.firing_from[CLASS_INDEX[u.cls]]
    if spec.equipment == "boat" and own.river and not own.bridge:
        n -= 1                      # vocabulary 1.3 River: a boat fires at -1
    if not (spec.ignore_terrain_defense or (spec.ignore_terrain_defense_at_1 and dist == 1)
            or (spec.stationary_dice is not None and not u.moved)):
        d = terrain_at(st, v.hex).defense_against(u.cls, u.side, own.elevation,
                                                  defender_class=v.cls,
                                                  defender_nation=v.spec.nation,
                                                  attacker_terrain=own)
        if spec.flame_cap and dist == 1:
            d = max(d, -1)       # flame thrower tank: terrain defence capped at -1
        n += d
    if dist == 1 and spec.close_assault_bonus and u.figures >= u.max_figures:
        n += spec.close_assault_bonus
    if spec.cross_hairs and marked(st, u, v):
        n += 1                      # Big Gun zeroed in on this target
    if play is not None and kind != "ambush" and play.side == u.side:
        f = play.flags
        n += f.get("bonus", 0)
        if u.cls == "art":
            n += f.get("bonus_art", 0)      # 004 The Big Push: artillery +1 die
        if dist == 1:
            n += f.get("bonus_close", 0)
            if kind != "overrun":
                n += f.get("bonus_close_first", 0)
    if (st.options.get("artillery_v_tank") and u.cls == "art" and v.cls == "armor"
            and "armor" not in spec.star_hits and typed is None):
        n -= 1
    if st.options:
        n -= P.dice_minus(st, u)    # 004 demoralisation / out of supply
    return n


def unit_dice(st: GameState, u: Unit) -> tuple[int, ...]:
    """Dice by range; a late-war mortar that did not move uses its stationary dice;
    artillery on a mountain fires 3,3,2,2,1,1,1 (004 "Mountains": +1 range)."""
    sd = u.spec.stationary_dice
    if sd is not None and not u.moved:
        return sd
    if u.cls == "art":
        ad = terrain_at(st, u.hex).art_dice
        if ad is not None and len(ad) > len(u.spec.dice):
            return ad
    return u.spec.dice


def needs_los(u: Unit) -> bool:
    return u.spec.needs_los and not (u.spec.stationary_no_los and not u.moved)


def unit_star_hits(u: Unit):
    """Classes the unit's stars hit (late-war AT gun / MG: only if it did not move)."""
    if u.spec.star_hits_if_not_moved and u.moved:
        return frozenset()
    return u.spec.star_hits


def can_battle(st: GameState, u: Unit, play: Play | None) -> bool:
    """May the ordered unit ``u`` start a (normal) battle now?"""
    if not u.ordered or u.no_battle or play is None or u.moved_again:
        return False
    f = play.flags
    if f.get("no_battle"):
        return False
    if u.battles >= (f.get("battles", 1) if u.cls in f.get("battles_classes", ("inf", "armor", "art")) else 1):
        return False
    if (u.moved > move_fire(u, play, st) and not f.get("battle_after_any_move")
            and not u.spec.banzai and not charging(st, u, play)):
        return False
    if u.spec.no_move_and_fire and u.moved:
        return False
    if f.get("battle_unmoved_only") and u.moved:
        return False                # 004 Restoring Order: "Only Units that do not Move"
    return terrain_allows_battle(st, u)


def banzai_only(u: Unit, play: Play | None) -> bool:
    """Vocabulary 2.6 Japanese "banzai": an infantry unit that moved beyond its
    move-and-battle distance may still battle, at range 1 only."""
    return (u.spec.banzai and play is not None and u.moved > move_fire(u, play)
            and not play.flags.get("battle_after_any_move"))


def charging(st: GameState, u: Unit, play: Play | None) -> bool:
    """004 optional "Infantry Charge" (option ``infantry_charge``): an ordered Regular
    Infantry unit that marched 2 hexes (beyond its move-and-battle distance) may battle an
    adjacent enemy Infantry or Artillery unit; the defender battles first.  004 The Big
    Push (play flag ``press_on``): "Infantry Units must Infantry Charge", so the charge is
    open to them without the option."""
    return (u.spec.kind == "infantry" and u.moved >= 2 and play is not None
            and bool(st.options.get("infantry_charge") or play.flags.get("press_on"))
            and u.moved > move_fire(u, play, st)
            and not play.flags.get("battle_after_any_move"))


def move_fire(u: Unit, play: Play, st: GameState | None = None) -> int:
    """Hexes ``u`` may move and still battle (with ``st``: the 004 conditions' Special
    Infantry reduced to Regular Infantry, :func:`conditions.move_fire_cap`)."""
    mf = u.spec.move_fire
    if u.cls == "inf" and play.flags.get("inf_move_bonus") and u.spec.move <= 2:
        mf = max(mf, 2)
    return P.move_fire_cap(st, u, mf) if st is not None and st.options else mf


def terrain_allows_battle(st: GameState, u: Unit) -> bool:
    t = terrain_at(st, u.hex)
    if u.cls in t.no_battle_in and u.spec.kind != "destroyer":
        return False                # (a Destroyer battles from the ocean)
    if (u.entered and u.cls in t.no_battle_after_entering
            and not u.spec.ignore_no_battle_terrain):
        return False
    if t.battle_max_moved is not None and u.moved > t.battle_max_moved:
        return False                # jungle: battles only after moving at most 1 hex
    return True


_TARGETS: dict[tuple, tuple] = {}


def targets(st: GameState, u: Unit, play: Play | None, kind: str = "battle") -> list[tuple[Hex, int]]:
    """Legal (target hex, dice) for ``u``: range, LOS, close-assault obligation, dice > 0.

    Memoised (key: everything :func:`targets_uncached` reads: the unit, every unit's hex
    and id (ids fix side and profile within a game), changed tiles, the play's dice
    modifiers, the options); ``test_property`` checks it against the uncached result."""
    f = play.flags if play is not None else None
    key = (id(st.scn), u.id, u.hex, u.moved, u.figures, kind, st.crosshairs.get(u.id),
           frozenset(st.occ.items()),
           frozenset([(h, tile_codes(ts)) for h, ts in st.tiles_over.items()])
           if st.tiles_over else None,
           None if f is None else (play.side, f.get("bonus", 0), f.get("bonus_close", 0),
                                   f.get("bonus_close_first", 0), f.get("bonus_art", 0)),
           st.options.get("infantry_v_tank"), st.options.get("artillery_v_tank"),
           u.spec.banzai and banzai_only(u, play), visibility(st), camouflaged(st),
           u.cls == "inf" and charging(st, u, play), signature(st), P.sight_key(st, u))
    hit = _TARGETS.get(key)
    if hit is not None and hit[0] is st.scn:
        return list(hit[1])
    out = targets_uncached(st, u, play, kind)
    if len(_TARGETS) > 20000:
        _TARGETS.clear()
    _TARGETS[key] = (st.scn, tuple(out))
    return out


def targets_uncached(st: GameState, u: Unit, play: Play | None,
                     kind: str = "battle") -> list[tuple[Hex, int]]:
    spec = u.spec
    rng = len(unit_dice(st, u))
    if rng == 0:
        return []
    rng = P.sight_reach(st, u, rng)     # night / weather: no target beyond the visibility
    los = needs_los(u)
    dist = st.scn.board.distance
    near: list[tuple[Unit, int]] = []
    adjacent = False
    for v in st.units.values():
        if v.side == u.side:
            continue
        d = dist(u.hex, v.hex)
        if d <= rng:
            near.append((v, d))
            if d == 1:
                adjacent = True
    out = []
    inf_v_tank = st.options.get("infantry_v_tank")
    camo = camouflaged(st)
    if u.spec.banzai and banzai_only(u, play):
        adjacent = True             # banzai charge: close assault only
    charge = u.cls == "inf" and not u.spec.banzai and charging(st, u, play)
    if charge:
        adjacent = True             # infantry charge: adjacent infantry / artillery only
    for v, d in near:
        if adjacent and d != 1:
            continue
        if charge and v.cls not in ("inf", "art"):
            continue
        if not may_target(spec, v.spec):
            continue
        if not P.sighted(st, u, v.hex, d):
            continue                # beyond the visibility (weather: artillery exception)
        if d > 1 and camo and v.hex in camo:
            continue                # camouflaged: fired at only from an adjacent hex
        if inf_v_tank and u.cls == "inf" and v.cls == "armor" and d > 1:
            continue
        n = battle_dice(st, u, v, d, play, kind)
        if n <= 0:
            continue
        if d > 1 and not L.clear(st, u.hex, v.hex, los, u.cls):
            continue
        if d > 1 and spec.indirect_fire and not observed(st, u, v.hex):
            continue
        out.append((v.hex, n))
    return out


def observed(st: GameState, u: Unit, h: Hex) -> bool:
    """004 "Indirect & Direct Fire": "Indirect Firing Artillery can fire at anything
    within their Line Of Sight or at a target within a friendly Unit's Line Of Sight.
    Indirect Fire can fire over any obstruction" (option ``extra_unit_types``)."""
    dist = st.scn.board.distance
    for w in st.units.values():
        if w.side == u.side and (dist(w.hex, h) <= 1 or L.clear(st, w.hex, h, True, w.cls)):
            return True
    return False


# ----------------------------------------------------------------------------- declare
def declare(st: GameState, u: Unit, target: Hex, play: Play | None, events: list,
            kind: str = "battle") -> None:
    allowed = dict(targets(st, u, play, kind))
    if target not in allowed:
        v = st.unit_at(target)
        if v is None or v.side == u.side:
            raise IllegalAction("no_target", "there is no enemy unit on that hex")
        d = st.scn.board.distance(u.hex, target)
        if d > len(unit_dice(st, u)) or not P.sighted(st, u, target, d):
            raise IllegalAction("target_out_of_range", "the target is out of range")
        if d > 1 and any(st.scn.board.distance(u.hex, w.hex) == 1
                         for w in st.units.values() if w.side != u.side):
            raise IllegalAction("must_close_assault",
                                "a unit adjacent to an enemy must battle an adjacent enemy")
        if d > 1 and (not L.clear(st, u.hex, target, needs_los(u), u.cls)
                      or (u.spec.indirect_fire and not observed(st, u, target))):
            raise IllegalAction("no_line_of_sight", "no line of sight to the target")
        raise IllegalAction("illegal_target", "that unit may not be battled (dice <= 0)")
    v = st.unit_at(target)
    d = st.scn.board.distance(u.hex, target)
    b = Battle(u.id, u.side, v.id, target, u.hex, d, allowed[target], kind)
    b.star_hits = unit_star_hits(u)
    u = st.mut(u.id)
    u.battles += 1
    drop_camouflage(st, u.hex, events)
    if u.cls == "armor" and any(t.spec.armor_removes for t in terrain_at(st, u.hex).tiles):
        remove_family(st, u.hex, "wire", events)     # armor battling out of wire removes it
    if kind == "overrun":
        u.overrun = True
    events.append({"type": "battle_declared", "unit": u.id, "side": u.side, "from": [*u.hex],
                   "target": [*target], "target_unit": v.id, "range": d, "dice": b.dice,
                   "kind": kind})
    b.stage = "ambush" if d == 1 and kind in ("battle", "overrun") else "roll"
    st.battles.append(b)
    if kind == "battle" and d == 1 and charging(st, u, play):
        _charge_defence(st, b, u, v, events)


def _charge_defence(st: GameState, b: Battle, u: Unit, v: Unit, events: list) -> None:
    """Infantry Charge: the defender gets a free battle first (no card; no Ambush window:
    the free battle takes its place); the charge goes on like an ambushed close assault."""
    n = battle_dice(st, v, u, 1, None, "charge_defence")
    if n <= 0 or not may_target(v.spec, u.spec) or not terrain_allows_battle_static(st, v):
        return
    a = Battle(v.id, v.side, u.id, u.hex, v.hex, 1, n, "charge_defence")
    a.star_hits = v.spec.star_hits
    b.stage = "ambushed"
    events.append({"type": "battle_declared", "unit": v.id, "side": v.side, "from": [*v.hex],
                   "target": [*u.hex], "target_unit": u.id, "range": 1, "dice": n,
                   "kind": "charge_defence"})
    st.battles.append(a)


def card_attack(st: GameState, side: str, v: Unit, n: int, kind: str, star_hits,
                events: list) -> None:
    """Air Power / Barrage: no attacking unit, no terrain, flags may not be ignored."""
    b = Battle(None, side, v.id, v.hex, None, 0, n, kind)
    b.star_hits = star_hits
    b.no_ignore = True
    events.append({"type": "battle_declared", "unit": None, "side": side, "from": None,
                   "target": [*v.hex], "target_unit": v.id, "range": 0, "dice": n, "kind": kind})
    st.battles.append(b)


# ----------------------------------------------------------------------------- ambush
def declare_special(st: GameState, u: Unit, h, n: int, kind: str,
                    events: list[dict[str, Any]]) -> None:
    """A unit spends its battle on a roll that is not a battle (seal a cave, heal, blow or
    bombard a bridge): a ``kind`` record of ``n`` dice on the battle stack, resolved by the
    ``roll_handlers`` extension point."""
    u = st.mut(u.id)
    u.no_battle = True              # instead of battling: the unit is spent
    b = Battle(u.id, u.side, u.id, h, u.hex, 0, n, kind)
    st.battles.append(b)
    events.append({"type": "action_declared", "unit": u.id, "side": u.side, "kind": kind,
                   "hex": [*h], "dice": n})


def ambush_possible(st: GameState, b: Battle) -> bool:
    v = st.units.get(b.target)
    u = st.units.get(b.attacker) if b.attacker else None
    if v is None or u is None or not can_activate(st, v):
        return False
    if not any(CARDS[c].key == "ambush" for c in st.hands[v.side]):
        return False
    if not may_target(v.spec, u.spec) or not terrain_allows_battle_static(st, v):
        return False
    return battle_dice(st, v, u, 1, None, "ambush") > 0


def terrain_allows_battle_static(st: GameState, v: Unit) -> bool:
    return v.cls not in terrain_at(st, v.hex).no_battle_in or v.spec.kind == "destroyer"


def play_ambush(st: GameState, b: Battle, events: list) -> None:
    v = st.units[b.target]
    u = st.units[b.attacker]
    card = next(c for c in st.hands[v.side] if CARDS[c].key == "ambush")
    st.hands[v.side].remove(card)
    st.discard.append(card)
    st.extra_draws[v.side] = st.extra_draws.get(v.side, 0) + 1
    events.append({"type": "card_played", "seat": mode(st).hand_seat(st, v.side), "side": v.side,
                   "card": CARDS[card].to_json(), "reaction": True})
    a = Battle(v.id, v.side, u.id, u.hex, v.hex, 1, battle_dice(st, v, u, 1, None, "ambush"),
               "ambush")
    a.star_hits = v.spec.star_hits
    a.stage = "roll"
    b.stage = "ambushed"
    drop_camouflage(st, v.hex, events)
    events.append({"type": "battle_declared", "unit": v.id, "side": v.side, "from": [*v.hex],
                   "target": [*u.hex], "target_unit": u.id, "range": 1, "dice": a.dice,
                   "kind": "ambush"})
    st.battles.append(a)


# ----------------------------------------------------------------------------- resolve
def resolve_roll(st: GameState, faces: list[str], events: list) -> None:
    b = st.battles[-1]
    st.last_roll = {"unit": b.attacker, "target": [*b.target_hex], "dice": list(faces),
                    "kind": b.kind}
    special = P.roll_handlers.get(b.kind)
    if special is not None:     # seal_cave / heal / blow_bridge (rules/hazards.py)
        special(st, b, faces, events)
        finish(st, events)
        return
    v = st.units.get(b.target)
    if v is None:
        finish(st, events)
        return
    hit_by = v.spec.hit_by
    if b.kind == "hazard":          # frozen river: each star is a hit
        hits, flags = sum(1 for f in faces if f == "star"), 0
    elif b.kind == "tiger":         # Tiger second roll: each grenade is a figure lost
        hits, flags = sum(1 for f in faces if f == "grenade"), 0
    else:
        hits, flags = D.count(faces, v.cls, hit_by, b.star_hits, b.ignore_grenades)
        if b.kind == "mine":        # mines: unit symbol + grenade; flags ignored
            flags = 0
        elif _fortress_vs_artillery(st, b, v):
            hits = faces.count("star")   # 004 "Bunkers, Fortress": artillery hits on stars only
        atk = st.units.get(b.attacker) if b.attacker else None
        if atk is not None and atk.spec.flag_faces and b.kind != "mine":
            flags += extra_flags(atk.spec, faces, v.cls)   # 88mm star, mortar grenade...
        if flags and v.spec.equipment == "boat" and _on_river(st, v.hex):
            hits, flags = hits + flags, 0    # vocabulary 1.3: every flag is a hit on a boat
    events.append({"type": "dice_rolled", "side": b.side, "unit": b.attacker,
                   "target_unit": v.id, "dice": list(faces), "hits": hits, "flags": flags,
                   "kind": b.kind})
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


def marked(st: GameState, u: Unit, v: Unit) -> bool:
    """Big Gun cross-hair (vocabulary 2.3 badge 5; 004 "Big-Gun Batteries"): ``u`` hit
    ``v`` earlier and neither has moved since (markers are kept lazily: a marker is
    valid while the target is on the marked hex and the gun on its hex)."""
    return any(t == v.id and th == v.hex and gh == u.hex
               for t, th, gh in st.crosshairs.get(u.id, ()))


def live_marks(st: GameState, gun_id: str) -> tuple[tuple[str, tuple, tuple], ...]:
    """The gun's markers still in force: gun and target both where the marker was placed."""
    gun, units = st.units.get(gun_id), st.units
    if gun is None:
        return ()
    return tuple(m for m in st.crosshairs.get(gun_id, ())
                 if m[2] == gun.hex and m[0] in units and units[m[0]].hex == m[1])


def _mark(st: GameState, u: Unit, v: Unit, events: list) -> None:
    live = tuple(m for m in live_marks(st, u.id) if m[0] != v.id)
    st.crosshairs = {**st.crosshairs, u.id: (live + ((v.id, v.hex, u.hex),))[-u.spec.cross_hairs:]}
    events.append({"type": "cross_hair_placed", "unit": u.id, "hex": [*v.hex]})


def _after_hits(st: GameState, b: Battle, v: Unit, hits: int, flags: int, events: list) -> None:
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
        b.retreat_options = retreat_options(st, v, flags, b.no_ignore)
        if len(b.retreat_options) == 1:
            do_retreat(st, b, b.retreat_options[0], events)
            return
        b.stage = "retreat"
        return
    post_battle(st, events)


BRITISH = frozenset({"brit"})


def may_battle_back(st: GameState, b: Battle) -> bool:
    """Vocabulary 2.6 British Commonwealth: a British unit that survives a range-1 attack
    with no flag rolled and is down to 1 figure may battle back at once with 1 die (no
    terrain); not a Sniper, not from a hex where it may not battle."""
    if b.dist != 1 or b.kind not in ("battle", "overrun") or b.attacker is None:
        return False
    v = st.units.get(b.target)
    u = st.units.get(b.attacker)
    if v is None or u is None or v.figures != 1 or v.spec.nation not in BRITISH:
        return False
    if v.spec.kind == "sniper" or not v.spec.dice or not may_target(v.spec, u.spec):
        return False
    return terrain_allows_battle_static(st, v) and st.scn.board.distance(u.hex, v.hex) == 1


def battle_back(st: GameState, b: Battle, events: list) -> None:
    """The British unit answers the close assault with 1 die (terrain ignored); the
    original battle is over (no flag, the defender held: nothing to take)."""
    v = st.units[b.target]
    u = st.units[b.attacker]
    st.battles.pop()
    drop_camouflage(st, v.hex, events)
    a = Battle(v.id, v.side, u.id, u.hex, v.hex, 1, 1, "battle_back")
    a.star_hits = v.spec.star_hits
    a.stage = "roll"
    events.append({"type": "battle_declared", "unit": v.id, "side": v.side, "from": [*v.hex],
                   "target": [*u.hex], "target_unit": u.id, "range": 1, "dice": 1,
                   "kind": "battle_back"})
    st.battles.append(a)


def apply_hits(st: GameState, v: Unit, hits: int, by_side: str, events: list) -> bool:
    """Remove figures; True when ``v`` was eliminated.  A coupled train takes the hits
    as one unit, last wagon first (engine/rules/trains.py)."""
    if v.spec.train:
        if coupled(st, v):
            for p in hit_order(st, v):
                if hits <= 0:
                    break
                took = min(hits, p.figures)
                _remove_figures(st, p, took, by_side, events)
                hits -= took
            return v.id not in st.units
    return _remove_figures(st, v, hits, by_side, events)


def _remove_figures(st: GameState, v: Unit, hits: int, by_side: str, events: list) -> bool:
    lost = min(hits, v.figures)
    v = st.mut(v.id)
    v.figures -= lost
    st.figures_killed[by_side] += lost
    events.append({"type": "unit_hit", "unit": v.id, "side": v.side, "hex": [*v.hex],
                   "figures_lost": lost, "figures": v.figures})
    if v.figures <= 0:
        eliminate(st, v, by_side, events)
        return True
    return False


# ----------------------------------------------------------------------------- retreat
def retreat_options(st: GameState, v: Unit, flags: int, no_ignore: bool) -> list[dict[str, Any]]:
    """Every choice the owner has: end hex, flags ignored, figures lost (minimal losses)."""
    t = terrain_at(st, v.hex)
    ignorable = 0
    if not no_ignore:
        ignorable = min(flags, t.flags_ignorable(v.cls, v.side, unit_nation=v.spec.nation)
                        + v.spec.ignore_flags)
    rmin, rmax = v.spec.retreat_per_flag
    frozen = v.cls in t.cannot_leave
    opts: dict[tuple, dict[str, Any]] = {}
    stay, ends_of = v.hex, _retreat_ends
    if v.spec.train:
        if TR.coupled(st, v):       # the train retreats backwards: options name the last
            stay, ends_of = TR.retreat_leader(st, v).hex, TR.retreat_ends   # wagon's hex
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


def _add(opts: dict, h: Hex, losses: int, ign: int) -> None:
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
    rails = st.scn.rail_links if v.spec.train else None   # trains retreat along the rail
    for k in range(1, max_steps + 1):
        nxt = []
        for h in frontier:
            for n in board.retreat_hexes(h, top):
                if n in st.occ or (rails is not None and n not in rails.get(h, ())):
                    continue
                tn = terrain_at(st, n)
                if (v.cls in tn.impassable or v.cls in tn.retreat_impassable or tn.ocean
                        or not can_step(st, v, n, h)):
                    continue
                out[n] = k
                nxt.append(n)
        frontier = list(dict.fromkeys(nxt))
        if not frontier:
            break
    return out


def retreat_ends(st: GameState, v: Unit, max_steps: int) -> dict[Hex, int]:
    """Public form of :func:`_retreat_ends` (end hex -> steps of a retreat move toward
    ``v``'s own side): extension for rule sets that make units retreat by choice (Fast
    Play '44 rally and withdrawal, engine/rulesets/fastplay)."""
    return _retreat_ends(st, v, max_steps)


def choose_retreat(st: GameState, action: dict, events: list) -> None:
    b = st.battles[-1]
    to = action.get("to")
    ign = action.get("ignore")
    for o in b.retreat_options:
        if o["to"] == list(to or []) and (ign is None or o["ignore"] == ign):
            do_retreat(st, b, o, events)
            return
    raise IllegalAction("illegal_retreat", "that retreat is not one of the options")


def do_retreat(st: GameState, b: Battle, opt: dict[str, Any], events: list) -> None:
    v = st.mut(b.target)
    to = (opt["to"][0], opt["to"][1])
    frm = v.hex
    if opt["ignore"]:
        events.append({"type": "flags_ignored", "unit": v.id, "count": opt["ignore"]})
    if v.spec.train:
        if TR.coupled(st, v):
            TR.retreat(st, v, to, events)
            frm = to                # moved (or not) already
    if to != frm:
        del st.occ[frm]
        v.hex = to
        st.occ[to] = v.id
        unit_left_hex(st, frm, events)
        events.append({"type": "unit_retreated", "unit": v.id, "side": v.side, "from": [*frm],
                       "to": [*to]})
        P.enemy_entered(st, v, events)    # 004 Bridge Demolition: charges removed
        b.vacated = True
    if opt["losses"]:
        if apply_hits(st, v, opt["losses"], b.side, events):
            b.vacated = True
    if v.spec.train:
        b.vacated = b.target_hex not in st.occ   # a train's other piece may fill the hex
    if check_victory(st, events):
        return
    update_objectives(st, events)
    if check_victory(st, events):
        return
    post_battle(st, events)


# ----------------------------------------------------------------------------- take ground
def post_battle(st: GameState, events: list) -> None:
    b = st.battles[-1]
    u = st.units.get(b.attacker) if b.attacker else None
    if (b.vacated and u is not None and b.dist == 1 and b.kind in ("battle", "overrun")
            and u.hex == b.from_hex and can_take_ground(st, u, b.target_hex)):
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
        return False                # jungle: armor that moved cannot take ground into it
    if own.beach and u.cls in th.no_take_ground_from_beach:
        return False
    if (u.spec.enter_only is not None or u.spec.never_enter) and not may_enter(u.spec, th):
        return False                # 004 unit types: terrain the unit may not move into
    return u.cls not in th.impassable and can_step(st, u, h)


def take_ground(st: GameState, take: bool, events: list) -> None:
    b = st.battles[-1]
    u = st.mut(b.attacker)
    if not take:
        finish(st, events)
        return
    frm = u.hex
    del st.occ[frm]
    u.hex = b.target_hex
    st.occ[u.hex] = u.id
    u.entered = True
    unit_left_hex(st, frm, events)
    events.append({"type": "ground_taken", "unit": u.id, "side": u.side, "from": [*frm],
                   "to": [*u.hex]})
    update_objectives(st, events)
    if check_victory(st, events):
        return
    desert = _desert_hexes(st, u, b)
    if desert:
        b.retreat_options = desert
        b.stage = "desert_move"
    else:
        _after_take_ground(st, b, u, events)
    P.on_enter(st, u, "take_ground", events)    # a mine / frozen river rolls first


def _after_take_ground(st: GameState, b: Battle, u: Unit, events: list) -> None:
    if (u.spec.take_ground >= 2 and not u.overrun and b.kind == "battle"
            and not terrain_at(st, u.hex).no_overrun and terrain_allows_battle(st, u) and targets(st, u, st.play, "overrun")):
        b.stage = "overrun"
    else:
        finish(st, events)


def _desert_hexes(st: GameState, u: Unit, b: Battle) -> list[list[int]]:
    """Vocabulary 2.6 North African desert rules: an Armor that took ground may move 1
    further hex (normal movement rules) before its overrun battle."""
    if (not st.scn.options.get("north_african_desert_rules") or u.cls != "armor"
            or u.spec.take_ground < 2 or u.overrun or b.kind != "battle"):
        return []
    return [[*h] for h in sorted(reachable(st, u, st.play, 1))]


def desert_move(st: GameState, b: Battle, to: Hex, events: list) -> None:
    u = st.mut(b.attacker)
    frm = u.hex
    del st.occ[frm]
    u.hex = to
    st.occ[to] = u.id
    u.entered = True
    unit_left_hex(st, frm, events)
    events.append({"type": "unit_moved", "unit": u.id, "side": u.side, "from": [*frm],
                   "to": [*to], "hexes": 1, "reason": "desert"})
    update_objectives(st, events)
    if check_victory(st, events):
        return
    _after_take_ground(st, b, u, events)
    P.on_enter(st, u, "move", events)


def overrun(st: GameState, target: Hex, events: list) -> None:
    b = st.battles[-1]
    u = st.units[b.attacker]
    st.battles.pop()
    declare(st, u, target, st.play, events, kind="overrun")


# ----------------------------------------------------------------------------- finish
def finish(st: GameState, events: list) -> None:
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
        while st.battles and st.battles[-1].stage in ("overrun", "desert_move") and \
                st.battles[-1].attacker not in st.units:
            st.battles.pop()
    if b.kind in ("ambush", "charge_defence") and st.battles and st.battles[-1].stage == "ambushed":
        orig = st.battles[-1]
        u = st.units.get(orig.attacker)
        if u is None or u.hex != orig.from_hex:
            events.append({"type": "battle_cancelled", "unit": orig.attacker,
                           "reason": b.kind})
            st.battles.pop()
        else:
            v = st.units.get(orig.target)
            if v is None:
                st.battles.pop()
            else:
                orig.dice = battle_dice(st, u, v, 1, st.play, orig.kind)
                orig.stage = "roll" if orig.dice > 0 else "cancel"
                if orig.stage == "cancel":
                    events.append({"type": "battle_cancelled", "unit": orig.attacker,
                                   "reason": "no_dice"})
                    st.battles.pop()
    if not st.battles and st.air_targets:
        P.after_card_attack(st, events)


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


def firefights(st: GameState) -> tuple:
    x = st.ext
    return x.get("firefights", ()) if x else ()


def _pair_live(st: GameState, p: tuple) -> bool:
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


def declare_firefight(st: GameState, options: list[tuple[Unit, Unit]], action: dict,
                      events: list) -> None:
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
    b.ignore_grenades = True        # fighting without orders: grenades are ignored
    st.mut(u.id).battles += 1
    drop_camouflage(st, u.hex, events)
    events.append({"type": "battle_declared", "unit": u.id, "side": u.side, "from": [*u.hex],
                   "target": [*v.hex], "target_unit": v.id, "range": 1, "dice": n,
                   "kind": "firefight"})
    st.battles.append(b)


def pending_for(st: GameState) -> dict[str, Any] | None:
    """The decision the top battle record waits for (None if none)."""
    b = st.battles[-1]
    if b.stage == "roll":
        return {"type": "roll", "seat": "chance", "dice": b.dice, "for": b.kind,
                "unit": b.attacker, "target": [*b.target_hex]}
    if b.stage == "ambush":
        v = st.units[b.target]
        return {"type": "ambush", "seat": mode(st).hand_seat(st, v.side), "unit": v.id,
                "attacker": b.attacker}
    if b.stage == "retreat":
        v = st.units[b.target]
        return {"type": "retreat", "seat": mode(st).unit_seat(st, v), "unit": v.id,
                "flags": b.flags, "options": b.retreat_options}
    if b.stage == "take_ground":
        return {"type": "take_ground", "seat": st.play.seat if st.play else b.side,
                "unit": b.attacker, "hex": [*b.target_hex]}
    if b.stage == "battle_back":
        v = st.units[b.target]
        return {"type": "battle_back", "seat": mode(st).unit_seat(st, v), "unit": v.id,
                "attacker": b.attacker}
    if b.stage == "desert_move":
        return {"type": "desert_move", "seat": st.play.seat if st.play else b.side,
                "unit": b.attacker, "options": b.retreat_options}
    if b.stage == "overrun":
        return {"type": "overrun", "seat": st.play.seat if st.play else b.side,
                "unit": b.attacker}
    raise AssertionError(b.stage)


def legal(st: GameState, seat: str) -> list[dict[str, Any]]:
    p = pending_for(st)
    if p is None or p["seat"] != seat:
        return []
    t = p["type"]
    b = st.battles[-1]
    if t == "roll":
        return []
    if t == "ambush":
        out = [{"type": "pass", "seat": seat}]
        if ambush_possible(st, b):
            out.insert(0, {"type": "ambush", "seat": seat})
        return out
    if t == "retreat":
        return [{"type": "retreat", "seat": seat, "unit": p["unit"], "to": o["to"],
                 "ignore": o["ignore"]} for o in b.retreat_options]
    if t == "take_ground":
        return [{"type": "take_ground", "seat": seat, "take": True}] + (
            [] if P.pressing_on(st, st.units.get(b.attacker))
            else [{"type": "take_ground", "seat": seat, "take": False}])
    if t == "battle_back":
        return [{"type": "battle_back", "seat": seat, "unit": p["unit"]},
                {"type": "pass", "seat": seat}]
    if t == "desert_move":
        return [{"type": "move", "seat": seat, "unit": p["unit"], "to": h}
                for h in b.retreat_options] + [{"type": "pass", "seat": seat}]
    if t == "overrun":
        u = st.units[b.attacker]
        out = [{"type": "battle", "seat": seat, "unit": u.id, "target": [*h]}
               for h, _ in targets(st, u, st.play, "overrun")]
        return out + ([] if out and P.pressing_on(st, u) else [{"type": "pass", "seat": seat}])
    return []


def apply(st: GameState, action: dict, events: list) -> None:
    """Apply a decision inside a battle (seat already checked)."""
    b = st.battles[-1]
    t = action["type"]
    if b.stage == "ambush":
        if t == "ambush":
            if not ambush_possible(st, b):
                raise IllegalAction("card_not_in_hand", "no Ambush possible")
            play_ambush(st, b, events)
        elif t == "pass":
            events.append({"type": "ambush_window_closed", "unit": b.target})
            b.stage = "roll"
        else:
            raise IllegalAction("unknown_action", f"expected ambush or pass, not {t!r}")
    elif b.stage == "retreat":
        if t != "retreat":
            raise IllegalAction("unknown_action", "a retreat decision is pending")
        choose_retreat(st, action, events)
    elif b.stage == "take_ground":
        if t != "take_ground" or not isinstance(action.get("take"), bool):
            raise IllegalAction("malformed_action" if t == "take_ground" else "unknown_action",
                                "expected take_ground with take true/false")
        if not action["take"] and P.pressing_on(st, st.units.get(b.attacker)):
            raise IllegalAction("must_take_ground", "The Big Push: this unit must take ground")
        take_ground(st, action["take"], events)
    elif b.stage == "battle_back":
        if t == "battle_back":
            battle_back(st, b, events)
        elif t == "pass":
            post_battle(st, events)
        else:
            raise IllegalAction("unknown_action", "expected battle_back or pass")
    elif b.stage == "desert_move":
        if t == "pass":
            _after_take_ground(st, b, st.units[b.attacker], events)
        elif t == "move":
            to = parse_hex(action, "to")
            if action.get("unit") != b.attacker or [*to] not in b.retreat_options:
                raise IllegalAction("illegal_move", "the unit cannot move there")
            desert_move(st, b, to, events)
        else:
            raise IllegalAction("unknown_action", "expected move or pass")
    elif b.stage == "overrun":
        if t == "pass":
            u = st.units[b.attacker]
            if P.pressing_on(st, u) and targets(st, u, st.play, "overrun"):
                raise IllegalAction("must_overrun", "The Big Push: armour must overrun")
            finish(st, events)
        elif t == "battle":
            if action.get("unit") != b.attacker:
                raise IllegalAction("not_overrun_unit", "only the overrunning unit may battle")
            overrun(st, parse_hex(action, "target"), events)
        else:
            raise IllegalAction("unknown_action", "expected battle or pass")
    else:
        raise IllegalAction("not_your_turn", "waiting for dice")


__all__ = ["battle_dice", "can_battle", "targets", "declare", "card_attack", "resolve_roll",
           "pending_for", "legal", "apply", "other"]
