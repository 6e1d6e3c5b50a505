"""Resolving hits on units, and Generals who are co-located with a unit that has been hit.

Each unit hit (Artillery Fire: every unit in the area, in id order; Close Combat: the
defender first, then the attacker) is resolved in turn:

1. if its side's General is in its area: 2D6 (chance step ``for: "general"``): "12, the
   General is killed; 11, the General is wounded and loses 1SP" (a General has 2 SP and
   a second wound kills him); "10 or less, the General survives";
2. one D6 (``for: "hit"``) read on the unit's quality row: Elite 1-2, Average 1-3, Poor
   1-4 "unit loses 1 SP"; otherwise "must retreat 1 grid area or lose 1 SP", the
   owner's choice (pending ``hit_choice``: ``retreat`` / ``lose_sp``); "any unit unable
   to retreat 1 grid area loses 1 SP" (no choice is asked).

Retreat is one area straight back towards the owner's baseline (from the baseline:
into the Reserve Area); it is impossible into enemy units or beyond the stacking
limit.  "If a General is co-located with a unit that must retreat ... the General
retreats with that unit."  A unit at 0 SP is destroyed.  A General left alone is
captured if an enemy unit enters his area (movement.place).
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import EngineError

from .battlefield import behind, room_for
from .movement import place
from .state import State, Unit
from .victory import check_break

LOSE_AT_MOST = {"elite": 2, "average": 3, "poor": 4}
GENERAL_KILLED = 12
GENERAL_WOUNDED = 11
DONE = {"type": "_combat_done"}


def start(st: State, hit: list[str], ev: list[dict[str, Any]]) -> None:
    st.combat = {**st.resolving(), "hits": list(hit), "current": None}
    next_hit(st, ev)


def next_hit(st: State, ev: list[dict[str, Any]]) -> None:
    if st.over:
        return
    c = st.resolving()
    queue = list(c["hits"])
    while queue:
        u = st.units[queue.pop(0)]
        if u.lost:
            continue
        st.combat = {**c, "hits": queue, "current": u.id}
        ev.append(
            {"type": "unit_hit", "unit": u.id, "side": u.side, "area": u.area, "by": c["kind"]}
        )
        g = st.general_of(u.side)
        if g is not None and g.area == u.area:
            st.pending = {
                "type": "roll",
                "seat": "chance",
                "for": "general",
                "dice": 2,
                "unit": u.id,
            }
        else:
            st.pending = {"type": "roll", "seat": "chance", "for": "hit", "dice": 1, "unit": u.id}
        return
    st.combat = {**c, "hits": [], "current": None}
    st.pending = dict(DONE)


def _current(st: State) -> Unit:
    """The unit whose hit is being resolved."""
    uid = st.resolving().get("current")
    if uid is None:
        raise EngineError("malformed_state", "no hit is being resolved")
    return st.units[uid]


def general_roll(st: State, dice: list[int], ev: list[dict[str, Any]]) -> None:
    u = _current(st)
    g = st.general_of(u.side)
    if g is None:  # the roll is due only when he stands with the unit hit
        raise EngineError("malformed_state", "no General to roll for")
    total = sum(dice)
    result = (
        "killed"
        if total >= GENERAL_KILLED
        else "wounded"
        if total == GENERAL_WOUNDED
        else "survives"
    )
    st.last_roll = {
        "for": "general",
        "unit": g.id,
        "side": g.side,
        "dice": list(dice),
        "score": total,
        "result": result,
    }
    ev.append(dict(st.last_roll, type="dice_rolled"))
    if result == "wounded":
        g.sp -= 1
        ev.append({"type": "general_wounded", "unit": g.id, "side": g.side, "sp": g.sp})
    if result == "killed" or g.sp <= 0:
        g.lost, g.area, g.sp = True, None, 0
        ev.append({"type": "general_killed", "unit": g.id, "side": g.side})
        check_break(st, ev)
    if not st.over:
        st.pending = {"type": "roll", "seat": "chance", "for": "hit", "dice": 1, "unit": u.id}


def hit_roll(st: State, die: int, ev: list[dict[str, Any]]) -> None:
    u = _current(st)
    lose = die <= LOSE_AT_MOST[u.quality]
    st.last_roll = {
        "for": "hit",
        "unit": u.id,
        "side": u.side,
        "dice": [die],
        "quality": u.quality,
        "result": "lose_sp" if lose else "retreat_or_lose_sp",
    }
    ev.append(dict(st.last_roll, type="dice_rolled"))
    if lose:
        lose_sp(st, u, ev, "hit")
        next_hit(st, ev)
        return
    to = retreat_area(st, u)
    if to is None:
        lose_sp(st, u, ev, "unable_to_retreat")
        next_hit(st, ev)
        return
    st.pending = {"type": "hit_choice", "seat": u.side, "unit": u.id, "to": to}


def retreat_area(st: State, u: Unit) -> str | None:
    to = behind(u.side, u.at)
    return to if room_for(st, u, to) else None


def choose(st: State, retreat: bool, ev: list[dict[str, Any]]) -> None:
    u = st.units[st.pending["unit"]]
    if retreat:
        frm, to = u.area, st.pending["to"]
        g = st.general_of(u.side)
        ev.append({"type": "unit_retreated", "unit": u.id, "side": u.side, "from": frm, "to": to})
        place(st, u, to, ev)
        if g is not None and g.area == frm:
            ev.append(
                {"type": "unit_retreated", "unit": g.id, "side": g.side, "from": frm, "to": to}
            )
            place(st, g, to, ev)
    else:
        lose_sp(st, u, ev, "chosen")
    next_hit(st, ev)


def lose_sp(st: State, u: Unit, ev: list[dict[str, Any]], reason: str) -> None:
    u.sp -= 1
    ev.append({"type": "sp_lost", "unit": u.id, "side": u.side, "sp": u.sp, "reason": reason})
    if u.sp <= 0:
        ev.append({"type": "unit_destroyed", "unit": u.id, "side": u.side, "area": u.area})
        u.lost, u.area = True, None
        check_break(st, ev)
