"""Helpers for the rule tests: small boards drawn as text, forced hands, quick actions."""
from __future__ import annotations

from engine import apply, legal_actions, new_game, to_act
from engine.cards import STANDARD_DECK
from engine.rules import turn as _turn
from engine.textboard import board_from_text


def card_id(key: str, section: int | None = None) -> int:
    for c in STANDARD_DECK:
        if c.key == key and (section is None or c.sections == (section,)):
            return c.id
    raise KeyError(key)


def game(text: str, hand: list | None = None, axis_hand: list | None = None, seed: int = 1,
         options: dict | None = None, **kw):
    """A new game on a text board; ALLIES (bottom) to play with ``hand`` (card keys or
    (key, section) pairs); AXIS holds ``axis_hand`` (default: 2 Probe Centre)."""
    scn = board_from_text(text, **kw)
    st = new_game(scn, seed, options)
    if hand is not None:
        st.hands["ALLIES"] = [_cid(h) for h in hand]
    if axis_hand is not None:
        st.hands["AXIS"] = [_cid(h) for h in axis_hand]
    for side in ("AXIS", "ALLIES"):   # keep the deck a permutation of the rest
        for c in st.hands[side]:
            if c in st.deck:
                st.deck.remove(c)
    _turn.refresh(st)
    return st


def _cid(h) -> int:
    if isinstance(h, int):
        return h
    if isinstance(h, tuple):
        return card_id(*h)
    return card_id(h)


def act(st, type_: str, **fields):
    """Apply an action by the seat to act; returns (state, events)."""
    seat = to_act(st)[0]
    return apply(st, {"type": type_, "seat": seat, **fields})


def do(st, type_: str, **fields):
    return act(st, type_, **fields)[0]


def roll(st, *faces):
    return apply(st, {"type": "roll", "seat": "chance", "dice": list(faces)})


def play(st, key, section=None):
    return do(st, "play_card", card=card_id(key, section) if not isinstance(key, int) else key)


def uid(st, h):
    return st.occ[tuple(h)]


def unit(st, h):
    return st.units[st.occ[tuple(h)]]


def types(st, seat=None):
    seat = seat or to_act(st)[0]
    return [a["type"] for a in legal_actions(st, seat)]


def legal(st, type_=None):
    seat = to_act(st)[0]
    return [a for a in legal_actions(st, seat) if type_ is None or a["type"] == type_]


def event_types(events):
    return [e["type"] for e in events]
