"""Cards leaving a hand outside a card play: a random discard (HQ & Supply Tents,
Italian High Command).  Fills the ``discard_random_card`` port of the procedures."""

from __future__ import annotations

from typing import Any

from ...procedures.common import mode
from ...procedures.state import GameState
from .cards import CARDS


def discard_random_card(
    st: GameState, side: str, reason: str, events: list[dict[str, Any]]
) -> None:
    """``side`` discards a card drawn at random from its hand (state RNG) face up on the
    discard pile: event ``card_discarded {side, seat, reason, card}``.  Used by the HQ &
    Supply Tents (vocabulary 1.3) and Italian High Command (vocabulary 2.6)."""
    hand = st.hands[side]
    if not hand:
        return
    cid = hand[st.rng.below(len(hand))]
    hand.remove(cid)
    st.discard.append(cid)
    events.append(
        {
            "type": "card_discarded",
            "side": side,
            "seat": mode(st).hand_seat(st, side),
            "reason": reason,
            "card": CARDS[cid].to_json(),
        }
    )


#: the turn-machine port this module fills (procedures/hooks.py)
HOOKS = {"discard_random_card": discard_random_card}
