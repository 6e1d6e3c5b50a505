"""Overlord command cards as DATA (rules/002 "Components" and "The Game Turn").

Source of the composition.  002 says an Overlord game shuffles together two identical
Overlord decks, each of **40 Section cards + 20 Tactic cards + 2 Air Sortie cards**, but it
does not print the per-card counts.  Where the printed composition is not in our texts we
use, as BGA does (m44-vocabulary 5.2), **the standard 60-card composition per deck**
(engine/cards.py: Recon 2/2/2, Probe 4/5/4, Attack 3/4/3, Assault 2/2/2, General Advance 1,
Pincer Move 1, Recon in Force 3, and the 20 standard tactic cards).  The game deck is
therefore 2 x 60 = 120 cards with ids 100..219 (deck A 100..159, deck B 160..219, same order
as the standard deck).  The 2 x 2 Air Sortie cards are used only with the Air Pack rules,
which the engine does not implement yet: they are NOT in the deck.

Who may receive each card (upper-corner arrows and icons, 002; classes from vocabulary 5.2):

* Section cards carry arrows: Recon/Probe/Attack/Assault of a flank -> only that flank's
  Field General; Pincer Move -> Left or Right FG; General Advance and Recon in Force -> any
  FG.  The number in the arrow is the unit count ("A" = all).  General Advance and Recon in
  Force order in both halves of the FG's command (card placed astride); the others in ONE
  half (the FG chooses which when playing it).
* Tactic cards carry an icon: C-in-C silhouette (played by the C-in-C himself): Air Power,
  Barrage, Their Finest Hour, Ambush (reaction, handed to the attacked FG);
  "?" three arrows (given to any one FG): all other tactics; both icons: Counter-Attack.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..m44.cards import ALL, AIR_POWER_AS_ARTILLERY_BOMBARD, CARDS, STANDARD_DECK, CardDef

FGS = ("left", "centre", "right")
FIRST_ID = 100
CINC_ONLY = frozenset({"air_power", "barrage", "their_finest_hour", "ambush"})
EITHER = frozenset({"counter_attack"})
BOTH_HALVES = frozenset({"general_advance", "recon_in_force"})
#: cards played in ONE half of the FG's command (he chooses the half when playing)
ONE_HALF = frozenset({"recon", "probe", "attack", "assault", "pincer_move", "infantry_assault"})

_OL_TEXT = {
    "recon": "Order 1 unit in one of the two sections under your command.",
    "probe": "Order 2 units in one of the two sections under your command.",
    "attack": "Order 3 units in one of the two sections under your command.",
    "assault": "Order ALL units in one of the two sections under your command.",
    "general_advance": "Order 2 units in each of the two sections under your command.",
    "pincer_move": "Left or Right Field General: order 2 units in one of your two sections.",
    "recon_in_force": "Order 1 unit in each of the two sections under your command.",
}


@dataclass(frozen=True, slots=True)
class OverlordCard(CardDef):
    """A card of the Overlord decks: a standard card plus its dispatch marks."""

    arrows: tuple[str, ...]  # Field Generals a Section card may go to ("" for tactics)
    icon: str  # "section" | "cinc" | "fg" | "either"
    both_halves: bool  # placed astride the FG's two sections

    def to_json(self) -> dict[str, Any]:
        d = CardDef.to_json(self)
        d.update(
            deck="overlord",
            arrows=list(self.arrows),
            icon=self.icon,
            both_halves=self.both_halves,
            arrow_units="A" if self.units == ALL else self.units,
        )
        return d


def _receivers(c: CardDef) -> tuple[tuple[str, ...], str]:
    if c.kind == "section":
        if c.key in ("general_advance", "recon_in_force"):
            return FGS, "section"
        if c.key == "pincer_move":
            return ("left", "right"), "section"
        return (FGS[c.sections[0]],), "section"
    if c.key in CINC_ONLY:
        return (), "cinc"
    if c.key in EITHER:
        return (), "either"
    return (), "fg"


def _build() -> tuple[OverlordCard, ...]:
    out = []
    for deck in range(2):
        for c in STANDARD_DECK:
            arrows, icon = _receivers(c)
            text = _OL_TEXT.get(c.key, c.text)
            out.append(
                OverlordCard(
                    FIRST_ID + deck * len(STANDARD_DECK) + c.id,
                    c.key,
                    c.name,
                    c.kind,
                    c.sections,
                    c.units,
                    text,
                    arrows,
                    icon,
                    c.key in BOTH_HALVES,
                )
            )
    return tuple(out)


OVERLORD_DECK: tuple[OverlordCard, ...] = _build()

#: 002 "Components": 2 Air Sortie cards per Overlord deck (ids 220..223).  Used only with
#: option ``overlord_air_sortie`` (002 "Overlord and the Air Pack"): a Tactic-coloured card
#: with its own icon ``"air"``: given to any Field General, never played by the C-in-C,
#: counts toward the 3 cards / the FG's 2, may go with a Section card but not with another
#: Tactic card.  Airplanes are not implemented: played, it has no effect.
AIR_SORTIE_KEY = "air_sortie"
AIR_SORTIES: tuple[OverlordCard, ...] = tuple(
    OverlordCard(
        FIRST_ID + 2 * len(STANDARD_DECK) + i,
        AIR_SORTIE_KEY,
        "Air Sortie",
        "tactic",
        (),
        0,
        "Give to a Field General: bring an airplane into play or activate "
        "one (Air Pack rules; airplanes not implemented).",
        (),
        "air",
        False,
    )
    for i in range(4)
)
#: Scenario option ``deck_name: AIR_POWER_AS_ARTILLERY_BOMBARD_DECK`` (vocabulary 3.3: "Air
#: Power cards are replaced by Artillery Bombard") in Overlord: each of the two Air Power
#: cards gives way to another Artillery Bombard, ids 224 and 225.
_OL_BOMBARD = next(c for c in OVERLORD_DECK if c.key == "artillery_bombard")
EXTRA_OL_BOMBARDS: tuple[OverlordCard, ...] = tuple(
    replace(_OL_BOMBARD, id=FIRST_ID + 2 * len(STANDARD_DECK) + len(AIR_SORTIES) + i)
    for i in range(2)
)
OVERLORD_CARDS: dict[int, OverlordCard] = {
    c.id: c for c in OVERLORD_DECK + AIR_SORTIES + EXTRA_OL_BOMBARDS
}
CARDS.update(OVERLORD_CARDS)  # one id space: every rule module looks cards up in CARDS


def overlord_deck_ids(options: dict[str, Any]) -> list[int]:
    """Card ids of the Overlord deck for a scenario's ``game_info.options`` (the standard
    deck's rule, :func:`engine.rulesets.m44.cards.standard_deck_ids`, for the two decks)."""
    ids = [c.id for c in OVERLORD_DECK]
    if options.get("deck_name") == AIR_POWER_AS_ARTILLERY_BOMBARD:
        extra = iter(EXTRA_OL_BOMBARDS)
        ids = [next(extra).id if CARDS[i].key == "air_power" else i for i in ids]
    return ids


def first_overlord(key: str, section: int | None = None) -> int:
    """Id of the first Overlord card with ``key`` (and section) — for tests."""
    for c in OVERLORD_DECK:
        if c.key == key and (section is None or c.sections == (section,)):
            return c.id
    raise KeyError(key)
