"""Fast Play '44 combat (000 rules 5-10, 12.3, 12.5): reading a fight's roll and the
decisions inside a fight.

The hit reading, retreat paths and take-ground restrictions are the standard
procedures' (engine/procedures/battle.py, battle_outcome.py, medals.py); this package
owns only the Fast Play flow: the fight stack (:mod:`.fights`), firing (:mod:`.firing`),
retreat and withdrawal (:mod:`.retreat`), what follows the hits (:mod:`.aftermath`).
Here: a roll read as hits, grenades as suppression in Ranged Combat (5.6c, 8.1-8.3),
flags against artillery as hits (10.2), flags as retreats (5.6d / 5.7d); the pending
decision of the fight on top, its legal answers and applying one.
"""

from __future__ import annotations

from typing import Any

from ...core import dice as D
from ...core.errors import IllegalAction
from ...core.unit_types import extra_flags
from ...procedures import battle as B
from ...procedures.common import other, parse_hex
from ...procedures.medals import check_victory, update_objectives
from ...procedures.state import GameState, Unit
from .aftermath import after, pop, take_ground
from .cards import heal
from .fights import fights, firer, firer_id, new_fight, top
from .firing import declare_battle, declare_fire, df_eligible
from .markers import forget, has_opfire, set_suppression, suppression
from .records import Fight
from .retreat import retreat, retreat_choices


def resolve(st: GameState, faces: list[str], events: list[dict[str, Any]]) -> None:
    """Read the roll: hits, grenades as suppression in Ranged Combat (5.6c, 8.1-8.3),
    flags against artillery as hits (10.2), flags as retreats (5.6d / 5.7d)."""
    f = top(st)
    u = firer(st, f)
    v = st.units.get(f["tgt"])
    st.last_roll = {"unit": f["att"], "target": f["thex"], "dice": list(faces), "kind": f["kind"]}
    if v is None or f["kind"] == "medics":
        if v is not None:
            heal(st, f, faces, events)
        pop(st, events)
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
    st: GameState,
    f: Fight,
    u: Unit | None,
    v: Unit,
    faces: list[str],
    events: list[dict[str, Any]],
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


def _outcome(
    st: GameState, f: Fight, v: Unit, hits: int, flags: int, events: list[dict[str, Any]]
) -> None:
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
    out: list[dict[str, Any]] = []
    if t == "assault_fire":
        v, u = st.units[f["tgt"]], st.units[firer_id(f)]
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
            {
                "type": "defensive_fire",
                **a,
                "unit": f["tgt"],
                "target": [*st.units[firer_id(f)].hex],
            },
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
        u = st.units[firer_id(f)]
        for h, _ in B.targets(st, u, st.play, "overrun"):
            out.append({"type": "battle", **a, "unit": u.id, "target": [*h], "assault": False})
            if st.scn.board.distance(u.hex, h) == 1:
                out.append({"type": "battle", **a, "unit": u.id, "target": [*h], "assault": True})
        return out + [{"type": "pass", **a}]
    if t == "second_assault":
        return [{"type": "second_assault", **a, "unit": f["att"]}, {"type": "pass", **a}]
    return []


def apply(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """A decision inside a fight (the seat is checked by the caller)."""
    f = top(st)
    t = action["type"]
    s = f["stage"]
    if s == "pre_fire" and t in ("opportunity_fire", "defensive_fire", "hold_fire"):
        v, u = st.units[f["tgt"]], st.units[firer_id(f)]
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
        v, u = st.units[f["tgt"]], st.units[firer_id(f)]
        if t == "no_defensive_fire":
            events.append({"type": "fire_held", "unit": v.id, "window": "defensive"})
            pop(st, events)
            return
        fights(st).pop()  # the battle is over; the answer follows
        declare_fire(st, v, u, "defensive_fire", events)
    elif s == "battle_back" and t in ("battle_back", "pass"):
        if t == "pass":
            f["bb_done"] = True
            after(st, events)
            return
        v, u = st.units[f["tgt"]], st.units[firer_id(f)]
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
            pop(st, events)
    elif s == "overrun" and t in ("battle", "pass"):
        if t == "pass":
            pop(st, events)
            return
        u = st.units[firer_id(f)]
        if action.get("unit") != u.id:
            raise IllegalAction("not_overrun_unit", "only the overrunning unit may battle")
        fights(st).pop()
        declare_battle(
            st, u, parse_hex(action, "target"), bool(action.get("assault")), "overrun", events
        )
    elif s == "second_assault" and t in ("second_assault", "pass"):
        u, v = st.units[firer_id(f)], st.units[f["tgt"]]
        fights(st).pop()
        if t == "second_assault":
            declare_battle(st, u, v.hex, True, "second_assault", events)
    else:
        raise IllegalAction("unknown_action", f"{t!r} does not answer the pending {s}")
