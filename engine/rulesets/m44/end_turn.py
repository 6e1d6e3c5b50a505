"""The end of a turn in the m44 turn machine (004 Game Turn Explanation 5 "Draw a new
Command Card"): draws (deck reshuffled when empty, as the scenario allows), Recon keep-1-
of-2, Their Finest Hour's reshuffle, the Commissar card, the next side's turn."""

from __future__ import annotations

from typing import Any


from .cards import CARDS
from ...procedures.common import mode, other, set_ext
from ...procedures.medals import check_victory, end_by_damage, end_out_of_cards, update_objectives
from ...procedures.state import GameState, Play


# ============================================================================ end of turn
def draw(st: GameState, side: str, events: list[dict[str, Any]], n: int = 1) -> list[int]:
    got = []
    for _ in range(n):
        if not st.deck:
            if not st.discard or (
                st.scn.options.get("deck_reshuffling") is False
                and not st.options.get("young_generals")
            ):
                break
            st.deck = st.discard
            st.discard = []
            st.rng.shuffle(st.deck)
            events.append({"type": "deck_reshuffled", "deck_count": len(st.deck)})
        got.append(st.deck.pop())
    return got


def reshuffle_if_due(st: GameState, events: list[dict[str, Any]]) -> None:
    """Their Finest Hour: after the turn the deck and the discard pile are shuffled together
    (not when the scenario says the deck is never reshuffled: ``deck_reshuffling: false``)."""
    if st.reshuffle and st.scn.options.get("deck_reshuffling") is False:
        st.reshuffle = False
    if st.reshuffle:
        st.deck.extend(st.discard)
        st.discard = []
        st.rng.shuffle(st.deck)
        st.reshuffle = False
        events.append({"type": "deck_reshuffled", "deck_count": len(st.deck)})


def _end_turn(st: GameState, events: list[dict[str, Any]]) -> None:
    side = st.active
    if st.options:
        st.hooks.turn_ending(st, side, events)  # 004 variants
        if st.game_over:
            return
    for play in st.plays:
        if play.card is not None:
            st.discard.append(play.card)
    last = last_played(st)
    if last is not None and last.card is None and last.key != "none":
        st.last_card.pop(side, None)  # a card-less declaration (discard_useless_cards
        #    Method 2, Army Manoeuvres): no card played; a variant's "none" play keeps it
    elif last is not None and last.key != "none":
        st.last_card[side] = {
            "src": last.flags.get("src", last.card),
            "mirror": bool(last.flags.get("mirror")),
            "section": last.section,
        }
    reshuffle_if_due(st, events)
    plain, recons = draw_counts(st, last)
    if plain:
        _give(st, side, draw(st, side, events, plain), events)
    if recons and _recon_draw(st, side, events, recons - 1):
        return
    _finish_turn(st, events)


def last_played(st: GameState) -> Play | None:
    """The card played last this turn (Extra Command Cards reorder the plays,
    ``seq`` keeps the order of play)."""
    plays = st.plays
    if len(plays) < 2:
        return st.play
    return max(plays, key=lambda p: p.flags.get("seq", 0))


def draw_counts(st: GameState, last: Play | None) -> tuple[int, int]:
    """(cards drawn outright, Recon draw-two-keep-one steps) at the end of the turn: one
    card per card played (at least one: a card-less exchange still draws), a Recon's
    card replaced by its own two-card choice; none after a declaration flagged
    ``no_draw`` (Restoring Order, The Big Push)."""
    if last is not None and last.flags.get("no_draw"):
        return 0, 0
    recons = sum(1 for p in st.plays if p.flags.get("recon_draw"))
    cards = sum(1 for p in st.plays if p.card is not None)
    return max(1, cards) - recons, recons


#: GameState.ext key: Recon draw-two-keep-one steps still due this turn (Extra Command Cards)
RECON_LEFT = "recon_left"


def _recon_draw(st: GameState, side: str, events: list[dict[str, Any]], left: int) -> bool:
    """Recon: draw two cards to keep one (phase ``recon``, True); with fewer than two
    drawn the card (if any) is kept outright and the remaining steps lapse.  ``left``:
    further Recon steps after this one."""
    st.recon_cards = draw(st, side, events, 2)
    if len(st.recon_cards) > 1:
        seat = mode(st).hand_seat(st, side)
        events.append(
            {
                "type": "cards_drawn",
                "side": side,
                "seat": seat,
                "count": 2,
                "secret": {"cards": [CARDS[c].to_json() for c in st.recon_cards]},
                "secret_to": [seat],
            }
        )
        st.phase = "recon"
        if left:
            set_ext(st, RECON_LEFT, left)
        return True
    st.hands[side].extend(st.recon_cards)
    st.recon_cards = []
    return False


def _give(st: GameState, side: str, cards: list[int], events: list[dict[str, Any]]) -> None:
    if not cards:
        return
    st.hands[side].extend(cards)
    seat = mode(st).hand_seat(st, side)
    events.append(
        {
            "type": "card_drawn",
            "side": side,
            "seat": seat,
            "count": len(cards),
            "secret": {"cards": [CARDS[c].to_json() for c in cards]},
            "secret_to": [seat],
        }
    )


def _finish_turn(st: GameState, events: list[dict[str, Any]]) -> None:
    side = st.active
    if st.hooks.needs_commissar_card(st, side):
        st.phase = "commissar"  # a new card goes under the chip, played next turn
        return
    for s, n in sorted(st.extra_draws.items()):
        if n:
            _give(st, s, draw(st, s, events, n), events)
    st.extra_draws = {}
    events.append({"type": "turn_ended", "side": side, "turn": st.turn})
    if st.last_turn_for == side and st.options.get("counter_attack_last_turn"):
        end_by_damage(st, events)
        return
    if end_out_of_cards(st, events):
        return
    start_turn(st, other(side), events)


def start_turn(st: GameState, side: str, events: list[dict[str, Any]], night: bool = True) -> None:
    """A new turn of ``side``: units' turn flags reset, objectives at turn start, the
    variants' and supply's opening steps, then (``night``) the night roll when due
    (``night=False``: the caller's machine makes it later, after the scenario's set-up
    steps of the first turn)."""
    st.turn += 1
    st.active = side
    st.plays = []
    st.air_targets = []
    st.phase = "play_card"
    for uid, u in list(st.units.items()):
        if (
            u.ordered
            or u.moved
            or u.battles
            or u.entered
            or u.overrun
            or u.moved_again
            or u.no_battle
            or u.stopped
        ):
            st.mut(uid).reset_turn()
    events.append({"type": "turn_started", "side": side, "turn": st.turn})
    update_objectives(st, events, turn_start=True)
    if st.options:
        st.hooks.turn_begins(st, side, events)  # 004 variants (may start a chance step)
    if check_victory(st, events) or st.hooks.update_supply(st, side, events):
        return  # 004 Supply: the Third Turn Losses roll comes first
    if st.phase != "play_card" or not night:
        return
    st.hooks.night_roll_if_due(st, side)


#: the turn-machine ports the options call (procedures/hooks.py): draw, give, finish a turn
HOOKS = {"draw": draw, "give": _give, "finish_turn": _finish_turn}
