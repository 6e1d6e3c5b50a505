"""The battle stack's decisions (004 Game Turn Explanation 4): for the record on top of
``state.battles``, what is pending, the legal actions and applying one (ambush or pass,
retreat choice, take ground, overrun, battle back, firefight, desert move).  The
procedures themselves: :mod:`engine.procedures.battle` (declare, dice, targets, hits) and
:mod:`engine.procedures.battle_outcome` (roll, retreat, take ground, overrun)."""

from __future__ import annotations

from typing import Any

from ..core.errors import IllegalAction
from .battle import battle_back, targets
from .battle_outcome import (
    _after_take_ground,
    choose_retreat,
    desert_move,
    finish,
    overrun,
    post_battle,
    take_ground,
)
from .common import mode, parse_hex
from .state import GameState


def pending_for(st: GameState) -> dict[str, Any]:
    """The decision the top battle record waits for."""
    b = st.battles[-1]
    if b.stage == "roll":
        return {
            "type": "roll",
            "seat": "chance",
            "dice": b.dice,
            "for": b.kind,
            "unit": b.attacker,
            "target": [*b.target_hex],
        }
    if b.stage == "ambush":
        v = st.units[b.target]
        return {
            "type": "ambush",
            "seat": mode(st).hand_seat(st, v.side),
            "unit": v.id,
            "attacker": b.attacker,
        }
    if b.stage == "retreat":
        v = st.units[b.target]
        return {
            "type": "retreat",
            "seat": mode(st).unit_seat(st, v),
            "unit": v.id,
            "flags": b.flags,
            "options": b.retreat_options,
        }
    if b.stage == "take_ground":
        return {
            "type": "take_ground",
            "seat": st.play.seat if st.play else b.side,
            "unit": b.attacker,
            "hex": [*b.target_hex],
        }
    if b.stage == "battle_back":
        v = st.units[b.target]
        return {
            "type": "battle_back",
            "seat": mode(st).unit_seat(st, v),
            "unit": v.id,
            "attacker": b.attacker,
        }
    if b.stage == "desert_move":
        return {
            "type": "desert_move",
            "seat": st.play.seat if st.play else b.side,
            "unit": b.attacker,
            "options": b.retreat_options,
        }
    if b.stage == "overrun":
        return {"type": "overrun", "seat": st.play.seat if st.play else b.side, "unit": b.attacker}
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
        out: list[dict[str, Any]] = [{"type": "pass", "seat": seat}]
        if st.hooks.reaction_possible(st, b):
            out.insert(0, {"type": "ambush", "seat": seat})
        return out
    if t == "retreat":
        return [
            {
                "type": "retreat",
                "seat": seat,
                "unit": p["unit"],
                "to": o["to"],
                "ignore": o["ignore"],
            }
            for o in b.retreats()
        ]
    if t == "take_ground":
        return [{"type": "take_ground", "seat": seat, "take": True}] + (
            []
            if st.hooks.pressing_on(st, st.units.get(b.attacker_id))
            else [{"type": "take_ground", "seat": seat, "take": False}]
        )
    if t == "battle_back":
        return [
            {"type": "battle_back", "seat": seat, "unit": p["unit"]},
            {"type": "pass", "seat": seat},
        ]
    if t == "desert_move":
        return [
            {"type": "move", "seat": seat, "unit": p["unit"], "to": h} for h in b.desert_hexes()
        ] + [{"type": "pass", "seat": seat}]
    if t == "overrun":
        u = st.units[b.attacker_id]
        out = [
            {"type": "battle", "seat": seat, "unit": u.id, "target": [*h]}
            for h, _ in targets(st, u, st.play, "overrun")
        ]
        return out + (
            [] if out and st.hooks.pressing_on(st, u) else [{"type": "pass", "seat": seat}]
        )
    return []


def apply(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """Apply a decision inside a battle (seat already checked)."""
    b = st.battles[-1]
    t = action["type"]
    if b.stage == "ambush":
        if t == "ambush":
            if not st.hooks.reaction_possible(st, b):
                raise IllegalAction("card_not_in_hand", "no Ambush possible")
            st.hooks.play_reaction(st, b, events)
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
            raise IllegalAction(
                "malformed_action" if t == "take_ground" else "unknown_action",
                "expected take_ground with take true/false",
            )
        if not action["take"] and st.hooks.pressing_on(st, st.units.get(b.attacker_id)):
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
            _after_take_ground(st, b, st.units[b.attacker_id], events)
        elif t == "move":
            to = parse_hex(action, "to")
            if action.get("unit") != b.attacker or [*to] not in b.desert_hexes():
                raise IllegalAction("illegal_move", "the unit cannot move there")
            desert_move(st, b, to, events)
        else:
            raise IllegalAction("unknown_action", "expected move or pass")
    elif b.stage == "overrun":
        if t == "pass":
            u = st.units[b.attacker_id]
            if st.hooks.pressing_on(st, u) and targets(st, u, st.play, "overrun"):
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
