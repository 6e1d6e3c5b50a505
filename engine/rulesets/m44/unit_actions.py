"""The actions of the units a card play ordered (004 Game Turn Summary 2-4): order a unit
(or break through with armour), move, exit, battle or act instead of battling; the end of
each phase.  Handlers of the turn machine (:data:`engine.rulesets.m44.turn.HANDLERS`)."""

from __future__ import annotations

from typing import Any

from ...core.errors import IllegalAction
from ...procedures import battle as B
from ...procedures import trains as TR
from ...procedures.common import can_activate, parse_hex, parse_unit, terrain_at
from ...procedures.medals import check_victory, exit_board, update_objectives
from ...procedures.movement import (
    describe_move,
    exit_hexes,
    exit_value,
    move_allowance,
    reachable,
    referee_stop,
)
from ...procedures.state import GameState, Play, Unit
from ...procedures.terrain_changes import unit_left_hex
from . import tactics as T
from .choices import _may_move_again, check_obliged


def _play(st: GameState) -> Play:
    """The card play under way (the phases of these actions always have one)."""
    play = st.play
    if play is None:
        raise IllegalAction("wrong_phase", "no card play is under way")
    return play


# --------------------------------------------------------------------------- orders
def _order(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    u = TR.head(st, parse_unit(st, action))  # a wagon orders its train
    play = _play(st)
    if u.side != play.side:
        raise IllegalAction("not_your_unit", "that unit belongs to the enemy")
    if not can_activate(st, u):
        raise IllegalAction(
            "unit_not_active_yet", f"that unit cannot be ordered before turn {u.inactive_until + 1}"
        )
    if u.ordered:
        raise IllegalAction("unit_already_ordered", "that unit already has an order")
    if not T.may_order(st, play, u):
        if not T.eligible(st, play, u) or not T.can_assign(st, play, [u]):
            raise IllegalAction("unit_not_eligible", "this card cannot order that unit")
        raise IllegalAction("too_many_orders", "no order of this card is left for that unit")
    T.order(st, play, u, events)
    _orders_done_if_none_left(st, play, events)


def _armor_breakthrough(
    st: GameState, action: dict[str, Any], events: list[dict[str, Any]]
) -> None:
    st.hooks.breakthrough_enter(st, action, events)
    if st.phase == "order" and not st.battles and not st.game_over:
        _orders_done_if_none_left(st, _play(st), events)


def _orders_left(st: GameState, play: Play) -> bool:
    """May ``play`` still give an order: a unit to order or armour to break through?"""
    return bool(T.orderable(st, play)) or bool(st.hooks.breakthrough_hexes(st, play))


def _orders_done_if_none_left(st: GameState, play: Play, events: list[dict[str, Any]]) -> None:
    if not _orders_left(st, play):
        T.end_orders(st, play, events)


def _end_orders(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    T.end_orders(st, _play(st), events)


# --------------------------------------------------------------------------- movement
def _ordered_unit(st: GameState, action: dict[str, Any]) -> Unit:
    """The acting unit of ``action``; the play that ordered it becomes the current play
    (Extra Command Cards: each unit moves and battles under its own card)."""
    u = parse_unit(st, action)
    if u.side != _play(st).side:
        raise IllegalAction("not_your_unit", "that unit belongs to the enemy")
    o = TR.head(st, u)  # a train's order is held by its locomotive
    if not o.ordered or st.hooks.play_holding(st, o.id) is None:
        raise IllegalAction("unit_not_ordered", "that unit has no order this turn")
    return u


def _move(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    u = _ordered_unit(st, action)
    to = parse_hex(action, "to")
    play = _play(st)
    second = st.phase == "battle"
    if u.spec.train and not second:
        allowance = move_allowance(st, TR.head(st, u), play)
        u = TR.move(st, u, to, allowance, events)
        _after_move(st, u, events)
        return
    if second:
        if not _may_move_again(play, u):
            raise IllegalAction("wrong_phase", "movement is over")
        dests = reachable(st, u, play, play.flags["move_again"], True)
    else:
        if u.moved:
            raise IllegalAction("unit_already_moved", "a unit moves only once per turn")
        dests = reachable(st, u, play, None, bool(play.flags.get("ignore_terrain")))
    if to not in dests:
        raise IllegalAction("illegal_move", "the unit cannot move there")
    to, steps = referee_stop(st, u, play, to, dests[to], second, events)  # 004 Kriegspiel
    frm = u.hex
    u = st.mut(u.id)
    del st.occ[frm]
    u.hex = to
    st.occ[to] = u.id
    u.entered = True
    if second:
        u.moved_again = True
    else:
        u.moved = steps
    if u.cls in terrain_at(st, frm).no_battle_after_leaving:
        u.no_battle = True  # marsh: armor cannot battle the turn it leaves
    unit_left_hex(st, frm, events)
    events.append(describe_move(u, frm, to, steps))
    _after_move(st, u, events, "bel" if second or play.flags.get("ignore_terrain") else "move")


def _after_move(st: GameState, u: Unit, events: list[dict[str, Any]], how: str = "move") -> None:
    update_objectives(st, events)
    if not check_victory(st, events):
        st.hooks.on_enter(st, u, how, events)


def _exit(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    u = _ordered_unit(st, action)
    if u.moved:
        raise IllegalAction("unit_already_moved", "a unit moves only once per turn")
    play = _play(st)
    hexes = exit_hexes(st, u, play)
    if not hexes:
        raise IllegalAction("illegal_move", "the unit cannot reach an exit hex")
    play.ordered.remove(u.id)
    exit_board(st, u, hexes[0], exit_value(st, u, hexes[0]), events)


def _end_movement(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    for p in st.hooks.unit_plays(st):
        st.hooks.check_end_movement(st, p)
    check_obliged(st, "move")
    st.phase = "battle"


# --------------------------------------------------------------------------- battle
def _battle(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    u = _ordered_unit(st, action)
    h = parse_hex(action, "target")
    if not B.can_battle(st, u, st.play):
        code = "unit_already_battled" if u.battles else "unit_cannot_battle"
        raise IllegalAction(code, "that unit may not battle now")
    B.declare(st, u, h, st.play, events)


def _instead_of_battle(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """remove_wire / clear_mine / remove_roadblock / seal_cave / heal / blow_bridge /
    rig_bridge / bombard_bridge / build_pontoon: an ordered unit that may battle does this
    instead."""
    u = _ordered_unit(st, action)
    if not B.can_battle(st, u, st.play):
        code = "unit_already_battled" if u.battles else "unit_cannot_battle"
        raise IllegalAction(code, "that unit may not battle (nor act instead) now")
    st.hooks.do_instead_of_battle(st, u, action, events)


def _end_battles(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    check_obliged(st, "battle")
    st.phase = "end"


#: the turn-machine port the options call (procedures/hooks.py): what follows a move
HOOKS = {"after_move": _after_move}
