"""001 "Reaction Phase" (all or nothing), the "Single-Piece Reaction Phase"
clarification, the out-of-supply single-piece rules and the official errata on HQ
activation, as pure functions over plain values.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import IllegalAction
from .tables import (
    ARMY_REACTION_COST,
    HQ_ACTIVATIONS_PER_TURN,
    MAX_SINGLE_PIECE_PHASES,
    SEGMENT_TOTAL,
    SINGLE_PIECE_COST,
)


def may_engage_reaction_segment(points: int) -> bool:
    """A Reaction Segment needs a point to spend in its first Reaction Phase ("A player
    can lose reaction points only if he ... spends at least one reaction point")."""
    return points >= SINGLE_PIECE_COST


def all_or_nothing_shortfall(spent: int, remaining: int) -> int:
    """ "Upon completion of the last reaction phase in the Reaction Segment, if he has
    not spent a total of 3 reaction points, he immediately loses an additional number of
    reaction points to bring the total ... to 3.  If an insufficient number of reaction
    points remains ... the remaining reaction points are forfeited".  Returns the points
    lost (0 when nothing was spent: declining costs nothing)."""
    if spent <= 0:
        return 0
    return max(0, min(SEGMENT_TOTAL - spent, remaining))


def check_army_reaction(points: int, phases: list[dict[str, Any]]) -> int:
    """ "The Reaction Segment may consist of a single Army Activation Phase": only as
    its first and only phase; costs 3 points (example 1).  Returns the cost."""
    if phases:
        raise IllegalAction(
            "segment_has_phases", "an Army Reaction Phase is the only phase of its Reaction Segment"
        )
    if points < ARMY_REACTION_COST:
        raise IllegalAction(
            "not_enough_reaction_points",
            f"an Army Reaction Phase costs {ARMY_REACTION_COST} points",
        )
    return ARMY_REACTION_COST


def check_single_piece_reaction(
    points: int, phases: list[dict[str, Any]], unit: str, hq: bool, out_of_supply: bool
) -> int:
    """ "... or up to three Single-Piece Reaction Phases.  No combat or HQ unit may be
    activated more than once during a Reaction Segment"; an out of supply HQ "may not
    ... be used during a Single-Piece Reaction Phase".  Returns the cost (1 point,
    example 2)."""
    if any(p["kind"] == "army" for p in phases):
        raise IllegalAction(
            "segment_has_army_phase",
            "a Reaction Segment with an Army Reaction Phase has no other phase",
        )
    if len(phases) >= MAX_SINGLE_PIECE_PHASES:
        raise IllegalAction(
            "too_many_single_piece_phases",
            f"at most {MAX_SINGLE_PIECE_PHASES} Single-Piece Reaction Phases",
        )
    if any(p.get("unit") == unit for p in phases):
        raise IllegalAction(
            "unit_already_reacted", f"{unit} was already activated in this Reaction Segment"
        )
    if hq and out_of_supply:
        raise IllegalAction(
            "hq_out_of_supply",
            "an out of supply HQ may not be used during a Single-Piece Reaction Phase",
        )
    if points < SINGLE_PIECE_COST:
        raise IllegalAction(
            "not_enough_reaction_points", "a Single-Piece Reaction Phase costs 1 point"
        )
    return SINGLE_PIECE_COST


def out_of_supply_step_loss(hq: bool, out_of_supply: bool) -> bool:
    """An out of supply combat unit may move or attack by single-piece reaction "at the
    cost of being reduced a step before commencing the first increment"."""
    return out_of_supply and not hq


def check_hq_activation(turn: int, history: list[str], hq: str) -> None:
    """Official errata: "No Headquarters unit may be activated more than twice per game
    turn.  On all game turns, except game turn one, a Headquarters unit may not be
    activated twice in a row" (``history``: the side's HQ activations this turn)."""
    if history.count(hq) >= HQ_ACTIVATIONS_PER_TURN:
        raise IllegalAction(
            "hq_activated_twice", f"HQ {hq} was already activated twice this game turn"
        )
    if turn > 1 and history and history[-1] == hq:
        raise IllegalAction(
            "hq_activated_in_a_row",
            f"HQ {hq} was the last HQ activated: another friendly HQ must "
            f"be activated in between (not on game turn 1)",
        )
