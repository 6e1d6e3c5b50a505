"""004 Appendix 3 "Army Manoeuvres", Extra Command Cards (option ``army_manoeuvres``, which
also switches on Restoring Order and The Big Push, engine/rulesets/m44/options/manoeuvres.py).

004 text: "Extra Command Cards - Used by both players every turn. At least one Command
Card may be played for each Board Section to a maximum of three cards. Units may not
receive more than one Order per turn. Sections may not receive more than one Command
Card, even if a card being used applies to more than one Section. A Section cannot be
given any orders if the player has no cards for it that turn."

Engine reading (where the text is silent):

* The ``play_card`` phase is re-entered after each card's orders: the side plays up to
  three cards, one at a time, each card's orders given before the next card is played
  (its ``order`` / ``choose_section`` / ``target`` / ``chance`` steps as usual).  Action
  ``end_cards`` closes the card play; it also closes by itself after the third card, when
  no section is free or when no card in hand fits the free sections.  Then every ordered
  unit moves, then battles (004 Game Turn Summary: all movement before any battle).
* A card *claims* the sections it can order in: a Section card its sections (a
  Counter-Attack copying one: the mirrored sections, as it orders there); any other
  card (Tactic cards order anywhere: Air Power, Barrage, Their Finest Hour, Infantry
  Assault whose section is chosen only after it is played, a Recon played as an Air
  Power, a Counter-Attack with nothing to copy) claims all three and so is played alone.
  A card whose claim meets an already claimed section is refused
  (``section_already_claimed``).  A card orders only units in its claimed sections (its
  quotas) and a unit already ordered by an earlier card cannot be ordered again
  (``unit_already_ordered``).
* Restoring Order, The Big Push and the ``discard_useless_cards`` actions replace the
  card play, so they are offered only before the first card.
* End of turn: one card is drawn per card played; each Recon played draws two and keeps
  one (one ``choose_card`` step per Recon).
* Counter-Attack ("Issue the same command as your opponent just played", standard card)
  copies the last card the opponent played in his turn.
* Standard mode only (Team Play gives each section to a different player and Overlord
  has its own dispatch; there the option leaves one card a turn).  With the Political
  Commissar rule the first card comes from under the chip (or is a Recon /
  Counter-Attack); the later cards of the turn come from the hand.
"""

from __future__ import annotations

from typing import Any

from ..cards import CARDS, CardDef
from ....core.errors import IllegalAction
from ....procedures.state import GameState, Play
from ..choices import card_source
from ..tactics import SECTION_KEYS, card_sections

OPTION = "army_manoeuvres"
MAX_CARDS = 3
ALL_SECTIONS = frozenset({0, 1, 2})


def on(st: GameState) -> bool:
    """Extra Command Cards are in force (option on, standard mode)."""
    return bool(st.options.get(OPTION)) and st.mode == "standard"


def claim(src: CardDef, mirror: bool) -> frozenset[int]:
    """The sections a card carried out as ``src`` claims (see the module text)."""
    if src.key in SECTION_KEYS:
        return frozenset(card_sections(src, mirror))
    return ALL_SECTIONS


def claimed(st: GameState) -> frozenset[int]:
    """The sections claimed by the cards played this turn."""
    out: frozenset[int] = frozenset()
    for p in st.plays:
        # a card-less declaration (Restoring Order, The Big Push, an exchange) replaces
        # the card play: nothing else is played that turn
        out |= (
            ALL_SECTIONS
            if p.card is None
            else claim(CARDS[p.flags.get("src", p.card)], bool(p.flags.get("mirror")))
        )
    return out


def check_claim(st: GameState, src: CardDef, mirror: bool) -> None:
    """Refuse a further card whose sections are already claimed."""
    if on(st) and st.plays and claim(src, mirror) & claimed(st):
        raise IllegalAction(
            "section_already_claimed", "a section may receive only one Command Card a turn"
        )


def open_for(st: GameState) -> bool:
    """May the active side still play a card this turn (fewer than three played, a
    section free, card play not closed by ``end_cards``)?"""
    plays = st.plays
    return (
        on(st)
        and 0 < len(plays) < MAX_CARDS
        and not any(p.flags.get("cards_done") for p in plays)
        and claimed(st) != ALL_SECTIONS
    )


def end_cards(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """Action ``end_cards``: no more cards this turn; movement begins."""
    if not st.plays:
        raise IllegalAction("no_card_played", "play at least one card first")
    st.current_play().flags["cards_done"] = True
    events.append({"type": "cards_ended", "side": st.active, "count": len(st.plays)})
    st.phase = "move"


def unit_plays(st: GameState) -> list[Play]:
    """The plays whose ordered units move and battle now: every card of the turn under
    Extra Command Cards, else the current play only."""
    plays = st.plays
    return plays if len(plays) > 1 and on(st) else [st.current_play()]


def play_holding(st: GameState, uid: str) -> Play | None:
    """The play that ordered unit ``uid``; made the current play (last of ``st.plays``)
    so that the rules reading ``st.play`` (movement, battle, take ground, overrun) use
    that card's modifiers."""
    plays = st.plays
    if len(plays) < 2 or not on(st):
        return st.play if st.play is not None and uid in st.play.ordered else None
    for p in plays:
        if uid in p.ordered:
            if plays[-1] is not p:
                plays.remove(p)
                plays.append(p)
            return p
    return None


def fitting(st: GameState, side: str, cards: list[int]) -> list[int]:
    """The ``cards`` whose sections are all still free."""
    taken = claimed(st)
    return [c for c in cards if not claim(*card_source(st, side, CARDS[c])[:2]) & taken]


def card_played(st: GameState, play: Play, sections: tuple[int, ...]) -> None:
    """A card was played: its order of play is kept (``seq``, see :func:`play_holding`)."""
    if on(st):
        play.flags["seq"] = len(st.plays)


#: the extension points of the option (in the table when ``army_manoeuvres`` is on)
HOOKS = {
    "unit_plays": unit_plays,
    "play_holding": play_holding,
    "check_claim": check_claim,
    "card_played": card_played,
    "open_for": open_for,
    "fitting": fitting,
}
#: its action, known in every game (refused when no card was played)
ACTIONS = {"actions": {("play_card", "end_cards"): end_cards}}
