"""The hook table of an m44 game (engine/procedures/hooks.py): what its options and seat
mode fill, built when the game starts (:func:`engine.rulesets.m44.game.new_game`) and
again when a state is loaded (:mod:`.snapshot`), never stored.

Every game has the turn machine's ports, the scenario rules played through extension
points (mines, hazards, caves, HQ tents, bridges, the night's visibility, the set-up
steps) and the actions of the options a side may ask for (refused by the option when it
is off); an optional rule's own extensions are in the table only when the game's options
turn it on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.conditions import DEMORALISATION, SUPPLY, WEATHER_OPTION
from ...procedures.common import StandardMode
from ...procedures.hooks import Hooks, build
from . import ambush, end_turn, hand, tactics, unit_actions
from .options import (
    airdrop,
    breakthrough,
    bridges,
    campaign,
    conditions,
    extra_cards,
    hazards,
    kriegspiel,
    manoeuvres,
    smoke,
    turn_rules,
    useless_cards,
    variants,
)

#: the seat modes of the ``m44`` ruleset's games (engine mode name -> mode)
SEAT_MODES: Mapping[str, StandardMode] = {"standard": StandardMode()}

#: the extensions of every game: the scenario's rules, the option actions, the ports
EVERY_GAME: tuple[Mapping[str, Any], ...] = (
    conditions.SIGHT_HOOKS,
    turn_rules.HOOKS,
    breakthrough.HOOKS,
    hazards.HOOKS,
    bridges.HOOKS,
    airdrop.HOOKS,
    smoke.HOOKS,
    useless_cards.HOOKS,
    manoeuvres.ACTIONS,
    extra_cards.ACTIONS,
    tactics.HOOKS,
    ambush.HOOKS,
    hand.HOOKS,
    end_turn.HOOKS,
    unit_actions.HOOKS,
)


def hooks_for(options: Mapping[str, Any], mode: StandardMode) -> Hooks:
    """The table of a game with these (validated) ``options`` in seat ``mode``; the
    extensions of a point combine in this order: conditions, the variant, the campaign,
    Extra Command Cards, Army Manoeuvres, Bridge Demolition, Kriegspiel, then those of
    every game."""
    chosen: list[Mapping[str, Any]] = []
    if any(options.get(name) for name in (WEATHER_OPTION, DEMORALISATION, SUPPLY)):
        chosen.append(conditions.HOOKS)
    chosen += variants.hooks_for(options)
    if options.get(campaign.NAME):
        chosen.append(campaign.HOOKS)
    if options.get(extra_cards.OPTION):
        chosen.append(extra_cards.HOOKS)
    if any(options.get(name) for name in (*manoeuvres.KINDS, extra_cards.OPTION)):
        chosen.append(manoeuvres.HOOKS)
    if options.get(bridges.OPTION):
        chosen.append(bridges.DEMOLITION_HOOKS)
    if options.get(kriegspiel.OPTION):
        chosen.append(kriegspiel.HOOKS)
    return build([*chosen, *EVERY_GAME], mode)
