"""Turn sequence.

"First turn: Attacker goes first.  Second and subsequent turns: Both sides throw a D6.
The side with the highest D6 die score chooses whether to move first.  Each side may
activate as many units as they scored on their die roll."

Every turn opens with one chance step ``for: "initiative"``, dice ``[RED, BLUE]``: the
scores are the sides' activations.  Turn 1: the attacker goes first whatever the dice
(the text gives no other activation count for turn 1).  Later turns: a tie is rethrown
(as the set-up throw); the higher side chooses who goes first (pending
``choose_first``).  Then each side has a phase: pending ``activate`` with moves, fire,
close combats and ``end_phase``; the phase ends by itself when nothing is left to do.
"""

from __future__ import annotations

from typing import Any

from . import combat, fire, movement
from .state import SIDES, State, decided, other
from .victory import end

RESUME = {"type": "_resume"}


def start_turn(st: State, ev: list[dict[str, Any]]) -> None:
    if st.turn >= st.options["turn_limit"]:
        end(st, None, "turn_limit", ev)
        return
    st.turn += 1
    st.first = st.active = None
    st.dice = {}
    ev.append({"type": "turn_started", "turn": st.turn})
    st.pending = {"type": "roll", "seat": "chance", "for": "initiative", "dice": 2}


def initiative_roll(st: State, dice: list[int], ev: list[dict[str, Any]]) -> None:
    scores = dict(zip(SIDES, dice))
    tie = dice[0] == dice[1] and st.turn > 1
    st.last_roll = {
        "for": "initiative",
        "dice": list(dice),
        "score": scores,
        "result": "tie" if tie else None,
    }
    if tie:
        ev.append(dict(st.last_roll, type="dice_rolled"))
        return
    st.dice = scores
    if st.turn == 1:
        st.last_roll["result"] = st.attacker
        ev.append(dict(st.last_roll, type="dice_rolled"))
        st.first = st.attacker
        ev.append(
            {
                "type": "first_chosen",
                "side": st.attacker,
                "first": st.attacker,
                "reason": "attacker",
            }
        )
        start_phase(st, decided(st.attacker), ev)
        return
    high = SIDES[0] if dice[0] > dice[1] else SIDES[1]
    st.last_roll["result"] = high
    ev.append(dict(st.last_roll, type="dice_rolled"))
    st.pending = {"type": "choose_first", "seat": high}


def choose_first(st: State, first: str, ev: list[dict[str, Any]]) -> None:
    ev.append({"type": "first_chosen", "side": st.pending["seat"], "first": first})
    st.first = first
    start_phase(st, first, ev)


def start_phase(st: State, side: str, ev: list[dict[str, Any]]) -> None:
    st.active = side
    st.activations = st.dice[side]
    st.fights = ()
    for u in st.units.values():
        u.activated = u.moved = u.fired = u.fought = u.fight_on = False
    ev.append(
        {"type": "phase_started", "side": side, "turn": st.turn, "activations": st.activations}
    )
    st.pending = dict(RESUME)


def activation_actions(st: State, side: str) -> list[dict[str, Any]]:
    return movement.moves(st, side) + fire.actions(st, side) + combat.actions(st, side)


def has_activation(st: State, side: str) -> bool:
    for u in st.side_units(side, generals=True):
        if (
            (movement.can_move(st, u) and movement.reachable(st, u))
            or fire.targets(st, u)
            or combat.targets(st, u)
        ):
            return True
    return False


def resume(st: State, ev: list[dict[str, Any]]) -> None:
    """Back to the active side's phase; it ends by itself when nothing is left to do."""
    st.combat = None
    side = decided(st.active)
    if has_activation(st, side):
        st.pending = {"type": "activate", "seat": side, "activations": st.activations}
    else:
        end_phase(st, ev)


def end_phase(st: State, ev: list[dict[str, Any]]) -> None:
    ev.append({"type": "phase_ended", "side": st.active, "turn": st.turn})
    if st.active == st.first:
        start_phase(st, other(decided(st.active)), ev)
    else:
        start_turn(st, ev)
