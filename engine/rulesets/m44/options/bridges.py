"""Bridge demolition (004 Appendix 2 "Bridge Demolition Rules", vocabulary 1.2 bridges).

004: "Only an Engineer Unit at one end of a Bridge may place charges on a Bridge.
However, a Scenario may state that the Bridge is already rigged for detonation ...  The
following options describe different ways to destroy a Road, Pontoon or Railroad Bridge".

* Option 2 - Already Rigged (scenario option ``blowbridge_opt2``, tiles with behaviour
  ``CAN_BE_BLOWN``): an ordered unit of either side next to the empty bridge hex may
  ``blow_bridge`` instead of battling: 2 dice, any star destroys it (vocabulary; 004's
  "a Green Star ... not destroyed" contradicts it, we follow the vocabulary).
* Option 1 - Not Rigged (game option ``bridge_demolition``): "An Engineer Unit uses its
  entire action to place charges.  It may not Move or Battle.  Place a Battle Star on the
  Bridge ... The procedure now moves to Option 2": a Combat Engineer (badge profile
  ``kind == "engineer"``) that did not move, next to a bridge hex not held by the enemy,
  may ``rig_bridge`` instead of battling; from then on any ordered unit of that side next
  to the empty bridge may ``blow_bridge`` it (the Option 2 roll).  "The explosive charges
  are considered to be removed if the Bridge is ever occupied by the enemy": an enemy
  unit entering the hex (move, take ground, retreat) removes them.
* Option 3 - Not Rigged & No Engineer (game option ``bridge_demolition``): "The Bridge
  can only be destroyed by four Black Tank Hits from Heavy Artillery, Big-Guns, Barrage,
  and/or Air Power.  Use Battle Stars to mark the accumulation of Hits": an ordered
  Heavy Artillery ("An unspecified Artillery Unit ... is considered Heavy Artillery") or
  Big-Gun unit may ``bombard_bridge`` instead of battling a unit (its dice at that range,
  range / line of sight / observation as for a battle, no terrain modifier); a Barrage
  or Air Power card may pick the bridge hex as a target.  Each tank symbol rolled is a
  hit on the bridge; the 4th destroys it.

Which bridges (option on): the text names "a Road, Pontoon or Railroad Bridge", so every
tile of the bridge family (bridge, pbridge, wbridge, bridge section, pontoon, railbridge,
wrailbridge; not a ford).  A bridge is a target of its own only while no enemy unit of
the firing side stands on it (the text is silent; like 004 "Minefield Clearance",
"Artillery may also attempt to clear a Minefield by firing at it", the feature is fired
at, not a unit): a battle against a unit on a bridge hits the unit only, its tank
symbols do not count against the bridge.

Destroyed (any option): the bridge tile becomes a broken bridge (``brkbridge``); with
behaviour2 ``ONE_MEDAL_IF_BLOWN`` the destroying side gains 1 medal.
State: ``GameState.ext["bridges"]``: "row,col" -> {"rigged": side | None, "hits": n}
(only entries that carry something).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ....core.errors import IllegalAction
from ....procedures.state import Battle, GameState, Unit
from ....core.terrain import Tile
from ....core.terrain_table import TERRAIN
from . import conditions as C
from ....procedures import los as L
from ....procedures.battle import declare_special, needs_los, observed, unit_dice
from ....procedures.common import set_ext, tiles_at
from ....procedures.medals import check_victory

Hex = tuple[int, int]
OPTION = "bridge_demolition"
HITS_TO_DESTROY = 4  # 004 Option 3: "four Black Tank Hits"
BOMBARD_KINDS = frozenset({"artillery", "heavy_artillery", "big_gun"})


def demolition_on(st: GameState) -> bool:
    return bool(st.options.get(OPTION))


def _key(h: Hex) -> str:
    return f"{h[0]},{h[1]}"


def marks(st: GameState) -> dict[str, dict[str, Any]]:
    """The Battle Stars on bridges: "row,col" -> {"rigged": side | None, "hits": n}."""
    out: dict[str, dict[str, Any]] = (st.ext or {}).get("bridges", {})
    return out


def _set_mark(st: GameState, h: Hex, rigged: str | None, hits: int) -> None:
    new = dict(marks(st))
    if rigged is None and not hits:
        new.pop(_key(h), None)
    else:
        new[_key(h)] = {"rigged": rigged, "hits": hits}
    set_ext(st, "bridges", new)


def _mark(st: GameState, h: Hex) -> tuple[str | None, int]:
    m = marks(st).get(_key(h))
    return (None, 0) if m is None else (m["rigged"], m["hits"])


def _is_bridge_tile(st: GameState, t: Any) -> bool:
    return t.spec.can_be_blown or (t.spec.family == "bridge" and demolition_on(st))


def is_bridge(st: GameState, h: Hex) -> bool:
    """An intact Road, Pontoon or Railroad Bridge the option lets one demolish."""
    return any(t.spec.family == "bridge" for t in tiles_at(st, h))


def scenario_rigged(st: GameState, h: Hex) -> bool:
    """Option 2: the scenario (``blowbridge_opt2``) rigged this bridge (``CAN_BE_BLOWN``)."""
    return bool(st.scn.options.get("blowbridge_opt2")) and any(
        t.spec.can_be_blown for t in tiles_at(st, h)
    )


def rigged_by(st: GameState, h: Hex) -> str | None:
    """The side whose charges (Option 1) are on the bridge at ``h``."""
    return _mark(st, h)[0] if st.ext else None


# ------------------------------------------------------------------ Option 2 (and 1)
def blowable_bridges(st: GameState, u: Unit) -> list[Hex]:
    """Option 2: an ordered unit adjacent to an empty rigged bridge hex may blow it
    instead of battling: a scenario-rigged bridge (either side), or one its own side's
    engineers rigged (Option 1)."""
    opt2 = st.scn.options.get("blowbridge_opt2")
    if not opt2 and not (st.ext and "bridges" in st.ext):
        return []
    out = []
    for n in st.scn.board.neighbours(u.hex):
        if n in st.occ:
            continue
        if (opt2 and any(t.spec.can_be_blown for t in tiles_at(st, n))) or rigged_by(
            st, n
        ) == u.side:
            out.append(n)
    return out


def blow_bridge(st: GameState, u: Unit, h: Hex, events: list[dict[str, Any]]) -> None:
    if h not in blowable_bridges(st, u):
        raise IllegalAction("no_bridge", "there is no bridge this unit may blow there")
    declare_special(st, u, h, 2, "blow_bridge", events)


def blow_rolled(st: GameState, b: Battle, faces: list[str], events: list[dict[str, Any]]) -> None:
    """The Option 2 roll: any star destroys the bridge (vocabulary 1.2)."""
    if "star" in faces:
        destroy_bridge(st, b.target_hex, b.side, events)


def destroy_bridge(st: GameState, h: Hex, side: str, events: list[dict[str, Any]]) -> None:
    """The bridge at ``h`` is destroyed (every option): its tile becomes a broken bridge;
    ``ONE_MEDAL_IF_BLOWN``: ``side`` gains 1 medal."""
    medal = 0
    keep = []
    for t in tiles_at(st, h):
        if _is_bridge_tile(st, t):
            medal = max(medal, t.spec.medal_if_blown)
            t = Tile(TERRAIN["brkbridge"], t.orientation)
        keep.append(t)
    st.tiles_over[h] = tuple(keep)
    if st.ext and _key(h) in marks(st):
        _set_mark(st, h, None, 0)
    events.append(
        {"type": "terrain_changed", "hex": [*h], "removed": "bridge", "added": "broken_bridge"}
    )
    if medal:
        st.exit_medals[side] += medal
        events.append(
            {"type": "medal_gained", "side": side, "reason": "bridge_blown", "count": medal}
        )
        check_victory(st, events)


# ------------------------------------------------------------------ Option 1: rigging
def _unrigged(st: GameState, h: Hex) -> bool:
    return is_bridge(st, h) and not scenario_rigged(st, h) and rigged_by(st, h) is None


def riggable_bridges(st: GameState, u: Unit) -> list[Hex]:
    """Option 1: a Combat Engineer that has not moved ("It may not Move or Battle"), next
    to ("at one end of") an unrigged bridge hex no enemy unit holds."""
    if not demolition_on(st) or u.spec.kind != "engineer" or u.moved:
        return []
    out = []
    for n in st.scn.board.neighbours(u.hex):
        v = st.unit_at(n)
        if (v is None or v.side == u.side) and _unrigged(st, n):
            out.append(n)
    return out


def rig_bridge(st: GameState, u: Unit, h: Hex, events: list[dict[str, Any]]) -> None:
    if h not in riggable_bridges(st, u):
        raise IllegalAction("no_bridge", "this unit may not place charges on a bridge there")
    st.mut(u.id).no_battle = True  # the engineer's entire action
    _set_mark(st, h, u.side, _mark(st, h)[1])
    events.append({"type": "bridge_rigged", "unit": u.id, "side": u.side, "hex": [*h]})


def enemy_entered(st: GameState, u: Unit, events: list[dict[str, Any]]) -> None:
    """ "The explosive charges are considered to be removed if the Bridge is ever occupied
    by the enemy" (``u`` has just entered ``u.hex``)."""
    if not st.ext or "bridges" not in st.ext:
        return
    side, hits = _mark(st, u.hex)
    if side is not None and side != u.side:
        _set_mark(st, u.hex, None, hits)
        events.append(
            {"type": "bridge_charges_removed", "hex": [*u.hex], "side": side, "unit": u.id}
        )


# ------------------------------------------------------------------ Option 3: hits
def bombard_target(st: GameState, side: str, h: Hex) -> bool:
    """A bridge hex that may take Option 3 hits from ``side``: an unrigged bridge, no
    enemy unit of ``side`` on it."""
    if not demolition_on(st) or not _unrigged(st, h):
        return False
    v = st.unit_at(h)
    return v is None or v.side == side


def bombardable_bridges(st: GameState, u: Unit) -> list[tuple[Hex, int]]:
    """(bridge hex, dice) an ordered Heavy Artillery / Big-Gun unit may fire at: its dice
    at that range, the battle range / line of sight / observation / close-assault rules."""
    if not demolition_on(st) or u.cls != "art" or u.spec.kind not in BOMBARD_KINDS:
        return []
    table = unit_dice(st, u)
    rng = C.sight_reach(st, u, len(table))  # night / weather: as for a unit target
    dist = st.scn.board.distance
    adjacent = any(dist(u.hex, w.hex) == 1 for w in st.units.values() if w.side != u.side)
    out = []
    for h in bridge_hexes(st):
        d = dist(u.hex, h)
        if d < 1 or d > rng or table[d - 1] <= 0 or (adjacent and d > 1):
            continue
        if not bombard_target(st, u.side, h) or not C.sighted(st, u, h, d):
            continue
        if d > 1 and not L.clear(st, u.hex, h, needs_los(u), u.cls):
            continue
        if d > 1 and u.spec.indirect_fire and not observed(st, u, h):
            continue
        out.append((h, table[d - 1]))
    return out


def bridge_hexes(st: GameState) -> list[Hex]:
    hexes = set(st.scn.terrain) | set(st.tiles_over)
    return sorted(h for h in hexes if is_bridge(st, h))


def bombard_bridge(st: GameState, u: Unit, h: Hex, events: list[dict[str, Any]]) -> None:
    n = dict(bombardable_bridges(st, u)).get(h)
    if n is None:
        raise IllegalAction("no_bridge", "this unit may not fire at a bridge there")
    declare_special(st, u, h, n, "bombard_bridge", events)


def card_bombard(
    st: GameState, side: str, h: Hex, n: int, kind: str, events: list[dict[str, Any]]
) -> None:
    """A Barrage / Air Power die roll against the bridge at ``h`` (kind ``bombard_bridge``)."""
    # no firing unit and no target unit: the roll is against the bridge (``target_hex``);
    # the record keeps None as its target, as every game stored so far has it
    b = Battle(None, side, None, h, None, 0, n, "bombard_bridge")  # type: ignore[arg-type]
    st.battles.append(b)
    events.append(
        {
            "type": "action_declared",
            "unit": None,
            "side": side,
            "kind": "bombard_bridge",
            "hex": [*h],
            "dice": n,
            "by": kind,
        }
    )


def bombard_rolled(
    st: GameState, b: Battle, faces: list[str], events: list[dict[str, Any]]
) -> None:
    """Each tank symbol is a hit on the bridge (a Battle Star); the 4th destroys it."""
    h = b.target_hex
    new = faces.count("armor")
    if not new or not is_bridge(st, h):
        return
    rigged, hits = _mark(st, h)
    hits += new
    events.append({"type": "bridge_hit", "hex": [*h], "hits": new, "total": hits})
    if hits >= HITS_TO_DESTROY:
        destroy_bridge(st, h, b.side, events)
    else:
        _set_mark(st, h, rigged, hits)


def bridge_view(st: GameState) -> list[dict[str, Any]]:
    """The Battle Stars on bridges (view field ``bridges``)."""
    out = []
    for k, m in sorted(marks(st).items()):
        r, c = k.split(",")
        out.append({"hex": [int(r), int(c)], "rigged": m["rigged"], "hits": m["hits"]})
    return out


def card_targets(st: GameState, side: str, chained: Callable[[Hex], bool]) -> list[Hex]:
    """Option 3: the bridges a Barrage / Air Power of ``side`` may target (``chained``:
    the hex may follow the targets already chosen)."""
    return [h for h in bridge_hexes(st) if bombard_target(st, side, h) and chained(h)]


def card_target_rolled(
    st: GameState, side: str, h: Hex, n: int, kind: str, events: list[dict[str, Any]]
) -> bool:
    """Option 3: a Barrage / Air Power target at ``h`` is a bridge: its roll (True)."""
    if not bombard_target(st, side, h):
        return False
    card_bombard(st, side, h, n, kind, events)
    return True


#: the extension points this module fills (engine/procedures/hooks.py) in every game
HOOKS = {"enemy_entered": enemy_entered}


#: ... and when option ``bridge_demolition`` is on: Option 3 by Barrage / Air Power
def public_view(st: GameState, view: dict[str, Any]) -> None:
    """Extension point ``public_view``: the Battle Stars on bridges (``bridges``)."""
    view["bridges"] = bridge_view(st)


DEMOLITION_HOOKS = {
    "card_targets": card_targets,
    "card_bombard": card_target_rolled,
    "public_view": public_view,
}
