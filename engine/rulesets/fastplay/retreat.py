"""Retreat and withdrawal in Fast Play '44 (5.6d / 5.7d, 9): the standard retreat
options, plus a withdrawal off the board when the retreat the flags ask for is longer
than the hexes left between the unit and its own board edge (our reading); a withdrawn
unit leaves for good, no medal to anyone (9.1-9.2), and a side with no unit left loses
(11.1)."""

from __future__ import annotations

from typing import Any

from ...procedures import battle as B
from ...procedures import battle_outcome as BO
from ...procedures.common import is_top, other
from ...procedures.medals import check_victory, finish, update_objectives
from ...procedures.state import GameState, Unit
from ...procedures.terrain_changes import unit_left_hex
from .aftermath import after
from .fights import enter_ice, hex_of, top
from .markers import forget, set_suppression
from .records import FightOption, ext


def retreat_choices(
    st: GameState, v: Unit, flags: int, no_ignore: bool = False
) -> list[FightOption]:
    """The standard retreat options, plus ``{"withdraw": True}`` when the retreat would
    take the unit off its own board edge (5.6d / 5.7d / 9)."""
    opts: list[FightOption] = [
        {"to": o["to"], "losses": o["losses"], "ignore": o["ignore"]}
        for o in BO.retreat_options(st, v, flags, no_ignore)
    ]
    if off_board(st, v, flags * v.spec.retreat_per_flag[0]):
        opts.append({"withdraw": True})
    return opts


def off_board(st: GameState, v: Unit, steps: int) -> bool:
    """Would ``steps`` retreat steps toward ``v``'s own edge leave the board?"""
    r = v.hex[0]
    left = r if is_top(st, v.side) else st.scn.board.rows - 1 - r
    return steps > left


def retreat(st: GameState, opt: FightOption, events: list[dict[str, Any]]) -> None:
    """Carry out a retreat option (or a withdrawal) of the top fight's target."""
    f = top(st)
    v = st.mut(f["tgt"])
    if opt.get("withdraw"):
        withdraw_unit(st, v, events, "flags")
        f["vacated"] = f["retreated"] = True
        if not st.game_over:
            after(st, events)
        return
    to, frm = hex_of(opt["to"]), v.hex
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


def withdraw_unit(st: GameState, u: Unit, events: list[dict[str, Any]], reason: str) -> None:
    """9.1-9.2: the unit leaves the board for good, no medal to anyone; 11.1: a side with
    no unit left after withdrawing loses at the full medal count of the opponent."""
    del st.occ[u.hex]
    del st.units[u.id]
    forget(st, u.id)
    unit_left_hex(st, u.hex, events)
    ext(st)["withdrawn"][u.side] += 1
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
