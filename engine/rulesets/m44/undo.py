"""Which steps of a Memoir '44 game (m44 / overlord states) remote-play ``undo`` may take
back (:meth:`engine.rulesets.m44.ruleset.M44Ruleset.undoable`, asked by
:class:`engine.meta.Fold`).

An action is **undoable** iff it threw no dice, drew no card, revealed nothing the acting
seat could not see before, did not end the game and the same seat is the only one to act
next: taking it back then gives the player nothing he did not know when he chose it, and
nobody else has acted on it.
"""

from __future__ import annotations

from ...core.ruleset import Action, Event
from ...procedures.state import GameState
from .game import to_act

META_TYPES = ("resign", "timeout", "forfeit", "undo")

# events after which the acting seat knows something it did not know before
REVEALING = frozenset(
    {
        "cards_drawn",
        "card_drawn",
        "draw",
        "card_kept",
        "mine_revealed",
        "deck_reshuffled",
        "cards_received",
        "card_taken",
        "card_exchanged",
        "camouflage_removed",
        "dice_rolled",
        "roll",
        "initiative_rolled",
        "game_over",
        "last_turn",
        "unit_dropped",
        "drop_lost",
        "supply_train_arrived",
        "visibility_changed",
        # 004 Kriegspiel: enemy units came onto (or left) a side's board
        "detection_changed",
    }
)


def undoable(
    before: GameState, action: Action, events: list[Event], after: GameState, rolls: int = 0
) -> bool:
    """May ``action`` (applied to ``before``, giving ``events`` and ``after``; ``rolls``
    chance entries followed it) be taken back by its seat?"""
    seat = action.get("seat")
    if not isinstance(seat, str) or rolls or after.game_over:
        return False
    if action.get("type") in META_TYPES or action.get("type") == "roll":
        return False
    if any(e.get("type") in REVEALING or e.get("secret") is not None for e in events):
        return False
    if len(after.deck) != len(before.deck) or after.turn != before.turn:
        return False
    return list(to_act(after)) == [seat] and list(to_act(before)) == [seat]
