"""Battle (004 Game Turn Explanation 4): targets, dice, hits, retreat, take ground, overrun,
ambush.  One :class:`~engine.procedures.state.Battle` record per battle on ``state.battles`` (a stack:
an Ambush battle sits on top of the close assault it answers).

Stages of a record: ``ambush`` (defender may play Ambush or pass) -> ``roll`` (chance
node) -> ``retreat`` (owner picks a retreat option) -> ``take_ground`` (attacker yes/no)
-> ``overrun`` (armor may battle again, once per turn) -> popped.
"""

from __future__ import annotations

from typing import Any

from ..core.geometry import Hex
from ..core.errors import IllegalAction
from ..core.scenario_model import Scenario
from .state import Battle, GameState, Play, Unit
from ..core.terrain import CLASS_INDEX
from ..core.units import may_target
from ..core.unit_types import dice_table, signature
from . import los as L
from .common import camouflaged, drop_camouflage, terrain_at, tile_codes, visibility
from .medals import eliminate
from .terrain_changes import remove_family
from .trains import coupled, hit_order


# ----------------------------------------------------------------------------- dice count
def battle_dice(
    st: GameState, u: Unit, v: Unit, dist: int, play: Play | None, kind: str = "battle"
) -> int:
    """Dice ``u`` rolls against ``v`` at ``dist`` (can be <= 0: target not allowed)."""
    spec = u.spec
    typed = dice_table(spec, v.spec) if spec.dice_vs else None
    table = unit_dice(st, u) if typed is None else typed
    if dist < 1 or dist > len(table) or table[dist - 1] <= 0:
        return 0
    n = table[dist - 1]
    if dist == 1 and u.cls == "inf" and v.spec.close_assaulted_by_inf:
        n = v.spec.close_assaulted_by_inf  # 004: "Infantry Units attack ... with 3 Battle Dice"
    own = terrain_at(st, u.hex)
    n += own.firing_from[CLASS_INDEX[u.cls]]
    if spec.equipment == "boat" and own.river and not own.bridge:
        n -= 1  # vocabulary 1.3 River: a boat fires at -1
    if not (
        spec.ignore_terrain_defense
        or (spec.ignore_terrain_defense_at_1 and dist == 1)
        or (spec.stationary_dice is not None and not u.moved)
    ):
        d = terrain_at(st, v.hex).defense_against(
            u.cls,
            u.side,
            own.elevation,
            defender_class=v.cls,
            defender_nation=v.spec.nation,
            attacker_terrain=own,
        )
        if spec.flame_cap and dist == 1:
            d = max(d, -1)  # flame thrower tank: terrain defence capped at -1
        n += d
    if dist == 1 and spec.close_assault_bonus and u.figures >= u.max_figures:
        n += spec.close_assault_bonus
    if spec.cross_hairs and marked(st, u, v):
        n += 1  # Big Gun zeroed in on this target
    if play is not None and kind != "ambush" and play.side == u.side:
        f = play.flags
        n += f.get("bonus", 0)
        if u.cls == "art":
            n += f.get("bonus_art", 0)  # 004 The Big Push: artillery +1 die
        if dist == 1:
            n += f.get("bonus_close", 0)
            if kind != "overrun":
                n += f.get("bonus_close_first", 0)
    if (
        st.options.get("artillery_v_tank")
        and u.cls == "art"
        and v.cls == "armor"
        and "armor" not in spec.star_hits
        and typed is None
    ):
        n -= 1
    if st.options:
        n -= st.hooks.dice_minus(st, u)  # 004 demoralisation / out of supply
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


def unit_star_hits(u: Unit) -> frozenset[str]:
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
    if u.battles >= (
        f.get("battles", 1) if u.cls in f.get("battles_classes", ("inf", "armor", "art")) else 1
    ):
        return False
    if (
        u.moved > move_fire(u, play, st)
        and not f.get("battle_after_any_move")
        and not u.spec.banzai
        and not charging(st, u, play)
    ):
        return False
    if u.spec.no_move_and_fire and u.moved:
        return False
    if f.get("battle_unmoved_only") and u.moved:
        return False  # 004 Restoring Order: "Only Units that do not Move"
    return terrain_allows_battle(st, u)


def banzai_only(u: Unit, play: Play | None) -> bool:
    """Vocabulary 2.6 Japanese "banzai": an infantry unit that moved beyond its
    move-and-battle distance may still battle, at range 1 only."""
    return (
        u.spec.banzai
        and play is not None
        and u.moved > move_fire(u, play)
        and not play.flags.get("battle_after_any_move")
    )


def charging(st: GameState, u: Unit, play: Play | None) -> bool:
    """004 optional "Infantry Charge" (option ``infantry_charge``): an ordered Regular
    Infantry unit that marched 2 hexes (beyond its move-and-battle distance) may battle an
    adjacent enemy Infantry or Artillery unit; the defender battles first.  004 The Big
    Push (play flag ``press_on``): "Infantry Units must Infantry Charge", so the charge is
    open to them without the option."""
    return (
        u.spec.kind == "infantry"
        and u.moved >= 2
        and play is not None
        and bool(st.options.get("infantry_charge") or play.flags.get("press_on"))
        and u.moved > move_fire(u, play, st)
        and not play.flags.get("battle_after_any_move")
    )


def move_fire(u: Unit, play: Play, st: GameState | None = None) -> int:
    """Hexes ``u`` may move and still battle (with ``st``: the 004 conditions' Special
    Infantry reduced to Regular Infantry, :func:`conditions.move_fire_cap`)."""
    mf = u.spec.move_fire
    if u.cls == "inf" and play.flags.get("inf_move_bonus") and u.spec.move <= 2:
        mf = max(mf, 2)
    return st.hooks.move_fire_cap(st, u, mf) if st is not None and st.options else mf


def terrain_allows_battle(st: GameState, u: Unit) -> bool:
    t = terrain_at(st, u.hex)
    if u.cls in t.no_battle_in and u.spec.kind != "destroyer":
        return False  # (a Destroyer battles from the ocean)
    if u.entered and u.cls in t.no_battle_after_entering and not u.spec.ignore_no_battle_terrain:
        return False
    if t.battle_max_moved is not None and u.moved > t.battle_max_moved:
        return False  # jungle: battles only after moving at most 1 hex
    return True


# targets' memo: key -> (the scenario, the targets)
_TARGETS: dict[tuple[Any, ...], tuple[Scenario, tuple[tuple[Hex, int], ...]]] = {}


def targets(
    st: GameState, u: Unit, play: Play | None, kind: str = "battle"
) -> list[tuple[Hex, int]]:
    """Legal (target hex, dice) for ``u``: range, LOS, close-assault obligation, dice > 0.

    Memoised (key: everything :func:`targets_uncached` reads: the unit, every unit's hex
    and id (ids fix side and profile within a game), changed tiles, the play's dice
    modifiers, the options); ``test_property`` checks it against the uncached result."""
    key = (
        id(st.scn),
        u.id,
        u.hex,
        u.moved,
        u.figures,
        kind,
        st.crosshairs.get(u.id),
        frozenset(st.occ.items()),
        frozenset([(h, tile_codes(ts)) for h, ts in st.tiles_over.items()])
        if st.tiles_over
        else None,
        None
        if play is None
        else (
            play.side,
            play.flags.get("bonus", 0),
            play.flags.get("bonus_close", 0),
            play.flags.get("bonus_close_first", 0),
            play.flags.get("bonus_art", 0),
        ),
        st.options.get("infantry_v_tank"),
        st.options.get("artillery_v_tank"),
        u.spec.banzai and banzai_only(u, play),
        visibility(st),
        camouflaged(st),
        u.cls == "inf" and charging(st, u, play),
        signature(st),
        st.hooks.sight_key(st, u),
        st.hooks.targets_key(st, u) if st.options else None,
    )
    hit = _TARGETS.get(key)
    if hit is not None and hit[0] is st.scn:
        return list(hit[1])
    out = targets_uncached(st, u, play, kind)
    if len(_TARGETS) > 20000:
        _TARGETS.clear()
    _TARGETS[key] = (st.scn, tuple(out))
    return out


def targets_uncached(
    st: GameState, u: Unit, play: Play | None, kind: str = "battle"
) -> list[tuple[Hex, int]]:
    spec = u.spec
    rng = len(unit_dice(st, u))
    if rng == 0:
        return []
    rng = st.hooks.sight_reach(st, u, rng)  # night / weather: no target beyond the visibility
    los = needs_los(u)
    dist = st.scn.board.distance
    near: list[tuple[Unit, int]] = []
    adjacent = False
    for v in st.units.values():
        if v.side == u.side or (st.options and st.hooks.hidden(st, u.side, v)):
            continue  # Kriegspiel: an enemy off the side's board is no target
        d = dist(u.hex, v.hex)
        if d <= rng:
            near.append((v, d))
            if d == 1:
                adjacent = True
    out = []
    inf_v_tank = st.options.get("infantry_v_tank")
    camo = camouflaged(st)
    if u.spec.banzai and banzai_only(u, play):
        adjacent = True  # banzai charge: close assault only
    charge = u.cls == "inf" and not u.spec.banzai and charging(st, u, play)
    if charge:
        adjacent = True  # infantry charge: adjacent infantry / artillery only
    for v, d in near:
        if adjacent and d != 1:
            continue
        if charge and v.cls not in ("inf", "art"):
            continue
        if not may_target(spec, v.spec):
            continue
        if not st.hooks.sighted(st, u, v.hex, d):
            continue  # beyond the visibility (weather: artillery exception)
        if d > 1 and camo and v.hex in camo:
            continue  # camouflaged: fired at only from an adjacent hex
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
def declare(
    st: GameState,
    u: Unit,
    target: Hex,
    play: Play | None,
    events: list[dict[str, Any]],
    kind: str = "battle",
) -> None:
    allowed = dict(targets(st, u, play, kind))
    if target not in allowed:
        v = st.unit_at(target)
        if v is None or v.side == u.side or (st.options and st.hooks.hidden(st, u.side, v)):
            raise IllegalAction("no_target", "there is no enemy unit on that hex")
        d = st.scn.board.distance(u.hex, target)
        if d > len(unit_dice(st, u)) or not st.hooks.sighted(st, u, target, d):
            raise IllegalAction("target_out_of_range", "the target is out of range")
        if d > 1 and any(
            st.scn.board.distance(u.hex, w.hex) == 1 for w in st.units.values() if w.side != u.side
        ):
            raise IllegalAction(
                "must_close_assault", "a unit adjacent to an enemy must battle an adjacent enemy"
            )
        if d > 1 and (
            not L.clear(st, u.hex, target, needs_los(u), u.cls)
            or (u.spec.indirect_fire and not observed(st, u, target))
        ):
            raise IllegalAction("no_line_of_sight", "no line of sight to the target")
        raise IllegalAction("illegal_target", "that unit may not be battled (dice <= 0)")
    v = st.units[st.occ[target]]  # a legal target hex holds the enemy unit
    d = st.scn.board.distance(u.hex, target)
    b = Battle(u.id, u.side, v.id, target, u.hex, d, allowed[target], kind)
    b.star_hits = unit_star_hits(u)
    u = st.mut(u.id)
    u.battles += 1
    drop_camouflage(st, u.hex, events)
    if u.cls == "armor" and any(t.spec.armor_removes for t in terrain_at(st, u.hex).tiles):
        remove_family(st, u.hex, "wire", events)  # armor battling out of wire removes it
    if kind == "overrun":
        u.overrun = True
    events.append(
        {
            "type": "battle_declared",
            "unit": u.id,
            "side": u.side,
            "from": [*u.hex],
            "target": [*target],
            "target_unit": v.id,
            "range": d,
            "dice": b.dice,
            "kind": kind,
        }
    )
    b.stage = "ambush" if d == 1 and kind in ("battle", "overrun") else "roll"
    st.battles.append(b)
    if kind == "battle" and d == 1 and charging(st, u, play):
        _charge_defence(st, b, u, v, events)


def _charge_defence(
    st: GameState, b: Battle, u: Unit, v: Unit, events: list[dict[str, Any]]
) -> None:
    """Infantry Charge: the defender gets a free battle first (no card; no Ambush window:
    the free battle takes its place); the charge goes on like an ambushed close assault."""
    n = battle_dice(st, v, u, 1, None, "charge_defence")
    if n <= 0 or not may_target(v.spec, u.spec) or not terrain_allows_battle_static(st, v):
        return
    a = Battle(v.id, v.side, u.id, u.hex, v.hex, 1, n, "charge_defence")
    a.star_hits = v.spec.star_hits
    b.stage = "ambushed"
    events.append(
        {
            "type": "battle_declared",
            "unit": v.id,
            "side": v.side,
            "from": [*v.hex],
            "target": [*u.hex],
            "target_unit": u.id,
            "range": 1,
            "dice": n,
            "kind": "charge_defence",
        }
    )
    st.battles.append(a)


def card_attack(
    st: GameState,
    side: str,
    v: Unit,
    n: int,
    kind: str,
    star_hits: frozenset[str] | bool,  # True: every class (Air Power)
    events: list[dict[str, Any]],
) -> None:
    """Air Power / Barrage: no attacking unit, no terrain, flags may not be ignored."""
    b = Battle(None, side, v.id, v.hex, None, 0, n, kind)
    b.star_hits = star_hits
    b.no_ignore = True
    events.append(
        {
            "type": "battle_declared",
            "unit": None,
            "side": side,
            "from": None,
            "target": [*v.hex],
            "target_unit": v.id,
            "range": 0,
            "dice": n,
            "kind": kind,
        }
    )
    st.battles.append(b)


# ----------------------------------------------------------------------------- ambush
def declare_special(
    st: GameState, u: Unit, h: Hex, n: int, kind: str, events: list[dict[str, Any]]
) -> None:
    """A unit spends its battle on a roll that is not a battle (seal a cave, heal, blow or
    bombard a bridge): a ``kind`` record of ``n`` dice on the battle stack, resolved by the
    ``roll_handlers`` extension point."""
    u = st.mut(u.id)
    u.no_battle = True  # instead of battling: the unit is spent
    b = Battle(u.id, u.side, u.id, h, u.hex, 0, n, kind)
    st.battles.append(b)
    events.append(
        {
            "type": "action_declared",
            "unit": u.id,
            "side": u.side,
            "kind": kind,
            "hex": [*h],
            "dice": n,
        }
    )


def terrain_allows_battle_static(st: GameState, v: Unit) -> bool:
    return v.cls not in terrain_at(st, v.hex).no_battle_in or v.spec.kind == "destroyer"


def marked(st: GameState, u: Unit, v: Unit) -> bool:
    """Big Gun cross-hair (vocabulary 2.3 badge 5; 004 "Big-Gun Batteries"): ``u`` hit
    ``v`` earlier and neither has moved since (markers are kept lazily: a marker is
    valid while the target is on the marked hex and the gun on its hex)."""
    return any(
        t == v.id and th == v.hex and gh == u.hex for t, th, gh in st.crosshairs.get(u.id, ())
    )


def live_marks(st: GameState, gun_id: str) -> tuple[tuple[str, Hex, Hex], ...]:
    """The gun's markers still in force: gun and target both where the marker was placed."""
    gun, units = st.units.get(gun_id), st.units
    if gun is None:
        return ()
    return tuple(
        m
        for m in st.crosshairs.get(gun_id, ())
        if m[2] == gun.hex and m[0] in units and units[m[0]].hex == m[1]
    )


def _mark(st: GameState, u: Unit, v: Unit, events: list[dict[str, Any]]) -> None:
    live = tuple(m for m in live_marks(st, u.id) if m[0] != v.id)
    st.crosshairs = {**st.crosshairs, u.id: (live + ((v.id, v.hex, u.hex),))[-u.spec.cross_hairs :]}
    events.append({"type": "cross_hair_placed", "unit": u.id, "hex": [*v.hex]})


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


def battle_back(st: GameState, b: Battle, events: list[dict[str, Any]]) -> None:
    """The British unit answers the close assault with 1 die (terrain ignored); the
    original battle is over (no flag, the defender held: nothing to take)."""
    v = st.units[b.target]
    u = st.units[b.attacker_id]
    st.battles.pop()
    drop_camouflage(st, v.hex, events)
    a = Battle(v.id, v.side, u.id, u.hex, v.hex, 1, 1, "battle_back")
    a.star_hits = v.spec.star_hits
    a.stage = "roll"
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
        }
    )
    st.battles.append(a)


def apply_hits(
    st: GameState, v: Unit, hits: int, by_side: str, events: list[dict[str, Any]]
) -> bool:
    """Remove figures; True when ``v`` was eliminated.  A coupled train takes the hits
    as one unit, last wagon first (engine/procedures/trains.py)."""
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


def _remove_figures(
    st: GameState, v: Unit, hits: int, by_side: str, events: list[dict[str, Any]]
) -> bool:
    lost = min(hits, v.figures)
    v = st.mut(v.id)
    v.figures -= lost
    st.figures_killed[by_side] += lost
    events.append(
        {
            "type": "unit_hit",
            "unit": v.id,
            "side": v.side,
            "hex": [*v.hex],
            "figures_lost": lost,
            "figures": v.figures,
        }
    )
    if st.options:
        st.hooks.figures_lost(st, v, lost, by_side, events)  # 004 variants
    if v.figures <= 0:
        eliminate(st, v, by_side, events)
        return True
    return False
