"""004 optional rule "Methods For Discarding Useless Cards" (option
``discard_useless_cards``): instead of playing a command card a player may exchange cards.

004 text: "Both methods penalise the person exchanging their cards.

* Method 1 - A player places the cards they want to exchange (upto the entire hand)
  face-up on the table. The opponent may take any of those cards in exchange for a card
  from their own hand. The unwanted cards are discarded on the used Command Cards pile.
  The player initiating the exchange now draws Command Cards to the maximum allowed by
  the Scenario. This counts as the player's entire action for that turn. A player may
  only do this once per game.
* Method 2 - Exchange one card (facedown) for an unused one. One Unit may Battle, but not
  Move. No other Unit may Move or Battle that turn, except those in Close Assault. A
  player may do this as many times as needed."

Engine reading (where the text is silent):

* Method 1: ``offer_cards`` (play_card phase, once per game per side) opens pending
  ``offer_cards``: the player lays cards face up one at a time (``offer {card}``, public
  event ``card_offered``) and ``end_offer`` when at least one is laid.  Pending
  ``exchange`` then goes to the opponent: ``take {card, give}`` takes one laid card and
  gives one card of his own hand to the initiator (the "exchange"; the given card is
  seen by both players only), as often as he likes; ``end_exchange`` stops.  The laid
  cards left are discarded, the initiator draws up to his scenario hand size and his
  turn ends (no orders, no other draw; a Counter-Attack next turn has nothing to copy).
* Method 2: ``exchange_card {card}`` (play_card phase): the card goes face down on the
  discard pile and the player draws one (both seen by him only).  The turn is then like
  a card allowing 1 order of a unit anywhere that may battle but not move, plus every
  unit in close assault (adjacent to an enemy) ordered to battle without moving (read as
  the Close Assault card's "units adjacent to an enemy"); no end-of-turn draw (the
  exchange replaced it); a Counter-Attack next turn has nothing to copy.

Standard and team modes (the Overlord machine does not offer them).
"""

from __future__ import annotations

from typing import Any, TypedDict

from ..cards import CARDS
from ....core.errors import IllegalAction
from ....procedures.hooks import Step
from ....procedures.state import GameState, Play, Quota
from .. import tactics as T
from ....procedures.common import adjacent_enemies, mode, other, set_ext, side_units, take_from_hand

OPTION = "discard_useless_cards"
KEY = "useless_cards"  # GameState.ext: {"method1_used": (sides,), "offered": (ids,)}


class Offer(TypedDict):
    """``GameState.ext["useless_cards"]``: the sides that used method 1 this game, the
    cards laid face up for the opponent to take."""

    method1_used: tuple[str, ...]
    offered: tuple[int, ...]


def _x(st: GameState) -> Offer:
    x: Offer = (st.ext or {}).get(KEY, {"method1_used": (), "offered": ()})
    return x


def play_card_options(st: GameState, seat: str) -> list[dict[str, Any]]:
    """The extra ``play_card``-phase actions of the option for the active side."""
    if not st.options.get(OPTION):
        return []
    hand = st.hands[st.active]
    out = [{"type": "exchange_card", "seat": seat, "card": c} for c in hand]
    if hand and st.active not in _x(st)["method1_used"]:
        out.append({"type": "offer_cards", "seat": seat})
    return out


def pending(st: GameState) -> dict[str, Any]:
    offered = [CARDS[c].to_json() for c in _x(st)["offered"]]
    side = st.active if st.phase == "offer" else other(st.active)
    kind = "offer_cards" if st.phase == "offer" else "exchange"
    return {"type": kind, "seat": mode(st).hand_seat(st, side), "offered": offered}


def legal(st: GameState, seat: str) -> list[dict[str, Any]]:
    offered = _x(st)["offered"]
    if st.phase == "offer":
        out = [{"type": "offer", "seat": seat, "card": c} for c in st.hands[st.active]]
        return out + ([{"type": "end_offer", "seat": seat}] if offered else [])
    give = st.hands[other(st.active)]
    return [{"type": "take", "seat": seat, "card": c, "give": g} for c in offered for g in give] + [
        {"type": "end_exchange", "seat": seat}
    ]


# --------------------------------------------------------------------------- Method 1
def offer_cards(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    _check_on(st)
    side = st.active
    x = _x(st)
    if side in x["method1_used"]:
        raise IllegalAction("card_not_playable", "Method 1 may be used only once per game")
    set_ext(st, KEY, {**x, "method1_used": x["method1_used"] + (side,), "offered": ()})
    events.append({"type": "cards_exchange_started", "side": side, "method": 1})
    st.phase = "offer"


def offer(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    side = st.active
    cid = take_from_hand(st, action)
    x = _x(st)
    set_ext(st, KEY, {**x, "offered": x["offered"] + (cid,)})
    events.append({"type": "card_offered", "side": side, "card": CARDS[cid].to_json()})


def end_offer(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    if not _x(st)["offered"]:
        raise IllegalAction("no_target", "lay at least one card face up")
    st.phase = "exchange"


def take(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    cid, give = action.get("card"), action.get("give")
    side, opp = st.active, other(st.active)
    x = _x(st)
    if not isinstance(cid, int) or cid not in x["offered"]:
        raise IllegalAction("card_not_offered", "take one of the cards laid face up")
    if not isinstance(give, int) or give not in st.hands[opp]:
        raise IllegalAction("card_not_in_hand", "give a card of your own hand")
    st.hands[opp].remove(give)
    st.hands[opp].append(cid)
    st.hands[side].append(give)
    set_ext(st, KEY, {**x, "offered": tuple(c for c in x["offered"] if c != cid)})
    seats = [mode(st).hand_seat(st, s) for s in (side, opp)]
    events.append(
        {
            "type": "card_taken",
            "side": opp,
            "card": CARDS[cid].to_json(),
            "secret": {"given": CARDS[give].to_json()},
            "secret_to": seats,
        }
    )


def end_exchange(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """The laid cards left are discarded; the initiator draws up to his hand size; his
    turn is over."""
    side = st.active
    x = _x(st)
    for c in x["offered"]:
        st.discard.append(c)
        events.append(
            {
                "type": "card_discarded",
                "side": side,
                "seat": mode(st).hand_seat(st, side),
                "reason": "exchange",
                "card": CARDS[c].to_json(),
            }
        )
    set_ext(st, KEY, {**x, "offered": ()})
    st.last_card.pop(side, None)  # no card played: nothing to Counter-Attack
    short = st.scn.cards.get(side, 0) - len(st.hands[side])
    if short > 0:
        st.hooks.give(st, side, st.hooks.draw(st, side, events, short), events)
    st.phase = "play_card"
    st.hooks.finish_turn(st, events)


# --------------------------------------------------------------------------- Method 2
def exchange_card(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """Method 2: one card face down for an unused one; then one unit may battle without
    moving, and the units in close assault may battle."""
    _check_on(st)
    side = st.active
    cid = take_from_hand(st, action)
    st.discard.append(cid)
    seat = mode(st).hand_seat(st, side)
    events.append(
        {
            "type": "card_exchanged",
            "side": side,
            "seat": seat,
            "secret": {"card": CARDS[cid].to_json()},
            "secret_to": [seat],
        }
    )
    st.hooks.give(st, side, st.hooks.draw(st, side, events), events)
    play = Play(None, "exchange", mode(st).play_seat(st, side, None), side)
    play.flags.update(no_move=True, no_draw=True)
    st.plays.append(play)
    close = [u for u in side_units(st, side) if adjacent_enemies(st, u)]
    play.quotas = [Quota(None, 1 + len(close))]
    for u in close:
        T.order(st, play, u, events)
    st.phase = "order"


def _check_on(st: GameState) -> None:
    if not st.options.get(OPTION):
        raise IllegalAction("card_not_playable", "optional rule discard_useless_cards is off")


#: the option's turn-machine phases and actions (extension points, procedures/hooks.py);
#: in every game: with the option off its actions are refused (``card_not_playable``)
HOOKS = {
    "play_card_options": play_card_options,
    "steps": {"offer": Step(pending, legal), "exchange": Step(pending, legal)},
    "actions": {
        ("play_card", "exchange_card"): exchange_card,
        ("play_card", "offer_cards"): offer_cards,
        ("offer", "offer"): offer,
        ("offer", "end_offer"): end_offer,
        ("exchange", "take"): take,
        ("exchange", "end_exchange"): end_exchange,
    },
}
