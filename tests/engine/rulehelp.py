"""Helpers for the rule tests: small boards drawn as text, forced hands, quick actions."""

from __future__ import annotations

from engine import apply, legal_actions, new_game, to_act
from engine.rulesets.m44.cards import STANDARD_DECK
from engine.rulesets.m44 import turn as _turn
from engine.core.textboard import board_from_text


def card_id(key: str, section: int | None = None) -> int:
    for c in STANDARD_DECK:
        if c.key == key and (section is None or c.sections == (section,)):
            return c.id
    raise KeyError(key)


def game(
    text: str,
    hand: list | None = None,
    axis_hand: list | None = None,
    seed: int = 1,
    options: dict | None = None,
    **kw,
):
    """A new game on a text board; ALLIES (bottom) to play with ``hand`` (card keys or
    (key, section) pairs); AXIS holds ``axis_hand`` (default: 2 Probe Centre)."""
    scn = board_from_text(text, **kw)
    st = new_game(scn, seed, options)
    if hand is not None:
        st.hands["ALLIES"] = [_cid(h) for h in hand]
    if axis_hand is not None:
        st.hands["AXIS"] = [_cid(h) for h in axis_hand]
    for side in ("AXIS", "ALLIES"):  # keep the deck a permutation of the rest
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


def ordered(
    text: str, who, key=("probe", 1), hand: list | None = None, mines: dict | None = None, **kw
):
    """ALLIES play ``key`` (hand: ``hand`` or just that card) and order the units on the
    hexes ``who`` (then end orders).  ``mines``: {hex: (side, value[, decoy])} laid before
    the first action (replacing the drawn values)."""
    from engine.procedures.state import Mine

    st = game(text, hand=hand or [key], **kw)
    for h, (side, value, *decoy) in (mines or {}).items():
        st.mines[h] = Mine(side, value, False, bool(decoy and decoy[0]))
    st = play(st, *key) if isinstance(key, tuple) else play(st, key)
    return order_units(st, who)


def order_units(st, who):
    """Order the units on the hexes ``who`` (while orders are open), then end orders."""
    for h in who:
        if st.phase == "order":
            st = do(st, "order", unit=uid(st, h))
    if st.phase == "order":
        st = do(st, "end_orders")
    return st


def to_battle(st):
    """End the move phase if it is still open."""
    return do(st, "end_movement") if st.phase == "move" else st


def battle_dice_vs(st, h, target):
    """Dice the ordered unit on ``h`` would roll against ``target`` (None: not a target)."""
    from engine.procedures.battle import targets

    return dict(targets(st, unit(st, h), st.play)).get(tuple(target))


def random_games(options, kinds, scn=None):
    """Seeded random games with ``options`` on a small board (or ``scn``): each finishes,
    replaying its actions gives the live state, the action types / ``as`` values ``kinds``
    occur, and ``apply`` never changes its input."""
    from engine import apply, replay
    from engine.bot import RandomBot, next_action, play_random_game
    from engine.rulesets.m44.game import new_game
    from engine.core.textboard import board_from_text

    scn = scn or board_from_text(
        """
        1: .:i W:i .:a .:i .:g .:i .:a .:i H:i
        3: . S  .  W  .  .  H  .
        7: .:I W:I .:A .:I .:G .:I .:A .:I H:I
    """,
        victory=(6, 6),
    )
    seen = set()
    for seed in (1, 2, 3, 4):
        st, actions = play_random_game(scn, seed, options, max_turns=1000, record=True)
        assert st.game_over
        assert replay(scn, seed, actions, options) == st
        seen |= {a["type"] for a in actions} | {a.get("as") for a in actions}
    assert kinds <= seen
    st, bot = new_game(scn, 5, options), RandomBot(5)
    while not st.game_over and st.turn <= 30:  # apply never changes its input
        before = st.snapshot()
        st2, _ = apply(st, next_action(st, bot))
        assert st.snapshot() == before
        st = st2


def give(st, side, key, section=None):
    """Put a card of ``key`` from the deck into ``side``'s hand (a new turn's card)."""
    from engine.rulesets.m44.cards import CARDS

    cid = next(
        c
        for c in st.deck
        if CARDS[c].key == key and (section is None or CARDS[c].sections == (section,))
    )
    st.deck.remove(cid)
    st.hands[side].append(cid)
    return cid


def axis_turn(st):
    """Finish the Allied battles; the Axis play their first card and order nobody."""
    st = do(st, "end_battles") if st.phase == "battle" else st
    assert st.active == "AXIS"
    st = play(st, st.hands["AXIS"][0])
    st = order_units(st, [])
    st = do(st, "end_movement") if st.phase == "move" else st
    return do(st, "end_battles") if st.phase == "battle" else st
