"""What follows the hits and the retreat of a Fast Play '44 fight: take ground (5.6e:
ranged combat MAY; 5.7e: an assault MUST), overrun, the British battle back (12.3), the
French second assault (12.5), the window of Defensive Fire (5.6f / 7.4); then the fight
is popped and the one it answered resumes (5.7b: an assault after the pre-assault
fire)."""

from __future__ import annotations

from typing import Any

from ...procedures import battle as B
from ...procedures import battle_outcome as BO
from ...procedures.common import terrain_at
from ...procedures.medals import check_victory, update_objectives
from ...procedures.terrain_changes import unit_left_hex
from ...procedures.state import GameState
from .fights import (
    ASSAULT_KINDS,
    enter_ice,
    enter_minefield,
    fights,
    fired_from,
    firer,
    firer_id,
    hex_of,
    top,
)
from .firing import assault_bonus, battle_back_ok, df_eligible, french
from .markers import suppressed


def after(st: GameState, events: list[dict[str, Any]]) -> None:
    """Everything after the hits and the retreat: take ground, overrun, battle back,
    second assault, defensive fire, then the fight is over."""
    f = top(st)
    u = firer(st, f)
    v = st.units.get(f["tgt"])
    if f["vacated"]:
        if (
            f["kind"] in ASSAULT_KINDS
            and f["dist"] == 1
            and u is not None
            and u.hex == fired_from(f)
            and BO.can_take_ground(st, u, hex_of(f["thex"]))
        ):
            if f["assault"]:
                take_ground(st, events)  # 5.7e: the assaulting unit MUST
            else:
                f["stage"] = "take_ground"  # 5.6e: ranged combat MAY
            return
        pop(st, events)
        return
    if u is None or v is None or f["retreated"]:
        pop(st, events)  # 7.5: no Defensive Fire after a retreat
        return
    if battle_back_ok(st, f, v, u):
        f["stage"] = "battle_back"
        return
    if (
        f["assault"]
        and f["kind"] in ("battle", "overrun")
        and french(st, u)
        and not suppressed(st, u.id)
        and u.hex == fired_from(f)
    ):
        f["stage"] = "second_assault"
        return
    if not f["assault"] and f["kind"] in ("battle", "overrun") and df_eligible(st, v, u):
        f["stage"] = "defensive_fire"  # 5.6f / 7.4: after the hits
        return
    pop(st, events)


def take_ground(st: GameState, events: list[dict[str, Any]]) -> None:
    f = top(st)
    u = st.mut(firer_id(f))
    frm, to = u.hex, hex_of(f["thex"])
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
        pop(st, events)
    enter_minefield(st, u, events)  # 004: a mine and the ice roll on a take ground too,
    enter_ice(st, st.units[u.id], events)  # before the overrun


def pop(st: GameState, events: list[dict[str, Any]]) -> None:
    """The top fight is over; resume the fight it answered (not an overrun of a unit the
    mine or the ice it took ground into eliminated)."""
    fs = fights(st)
    fs.pop()
    if not fs or st.game_over:
        return
    f = fs[-1]
    if f["stage"] == "overrun" and f["att"] not in st.units:
        pop(st, events)
        return
    if f["stage"] == "wait":  # 5.7b: the assault goes on if the attacker
        u = firer(st, f)  # survived, did not retreat, not suppressed
        v = st.units.get(f["tgt"])
        if u is None or v is None or u.hex != fired_from(f) or suppressed(st, u.id):
            events.append(
                {"type": "battle_cancelled", "unit": f["att"], "reason": "pre_assault_fire"}
            )
            pop(st, events)
            return
        f["dice"] = B.battle_dice(st, u, v, 1, None, "battle") + assault_bonus(st, u)
        f["stage"] = "roll"
        if f["dice"] <= 0:
            events.append({"type": "battle_cancelled", "unit": f["att"], "reason": "no_dice"})
            pop(st, events)
    elif f["stage"] == "after_bb":
        f["bb_done"] = True
        after(st, events)
