"""Command cards as data: the 60-card standard deck (rules/004 "Components").

Each physical card has an integer ``id`` (0..59, stable: replays and views use it) and
a ``key`` naming its procedure in ``engine.rulesets.m44.tactics``.  Section indices are from
the playing side's own point of view: 0 left flank, 1 centre, 2 right flank.
Card texts are the standard Memoir '44 card texts (paraphrased).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

ALL = -1  # "order all units ..."
_SEC = ("Left Flank", "Centre", "Right Flank")


@dataclass(frozen=True, slots=True)
class CardDef:
    id: int
    key: str  # procedure: recon, probe, attack, assault, general_advance, ...
    name: str
    kind: str  # "section" | "tactic"
    sections: tuple[int, ...]  # sections the card orders in (() = anywhere / special)
    units: int  # units ordered per section (ALL = all; 0 = special procedure)
    text: str

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "key": self.key,
            "name": self.name,
            "kind": self.kind,
            "sections": list(self.sections),
            "units": self.units,
            "text": self.text,
        }


_VIEW_JSON: dict[int, dict[str, Any]] = {}


def card_view(card_id: int) -> dict[str, Any]:
    """``CARDS[card_id].to_json()`` for views: built once per card and shared (a view is
    never mutated after it is returned, engine/core/ruleset.py), so a hand costs no
    allocation and the server's view diff sees an unchanged card as the same object.
    Events keep their own copies (``to_json``): redaction may rewrite an event."""
    out = _VIEW_JSON.get(card_id)
    if out is None:
        out = _VIEW_JSON[card_id] = CARDS[card_id].to_json()
    return out


_SECTION_TEXT = {
    "recon": "Issue an order to 1 unit in the {s}. When drawing a new command card at the end "
    "of your turn, draw two, keep one and discard the other.",
    "probe": "Issue an order to 2 units in the {s}.",
    "attack": "Issue an order to 3 units in the {s}.",
    "assault": "Issue an order to ALL units in the {s}.",
}
_SECTION_UNITS = {"recon": 1, "probe": 2, "attack": 3, "assault": ALL}
_SECTION_COPIES = {
    "recon": (2, 2, 2),
    "probe": (4, 5, 4),
    "attack": (3, 4, 3),
    "assault": (2, 2, 2),
}

#: (key, name, copies, sections, units, text) for the multi-section and tactic cards
_OTHERS: tuple[tuple[str, str, int, str, tuple[int, ...], int, str], ...] = (
    (
        "general_advance",
        "General Advance",
        1,
        "section",
        (0, 1, 2),
        2,
        "Issue an order to 2 units in each section.",
    ),
    (
        "pincer_move",
        "Pincer Move",
        1,
        "section",
        (0, 2),
        2,
        "Issue an order to 2 units on the Left Flank and 2 units on the Right Flank.",
    ),
    (
        "recon_in_force",
        "Recon in Force",
        3,
        "section",
        (0, 1, 2),
        1,
        "Issue an order to 1 unit in each section.",
    ),
    (
        "armor_assault",
        "Armor Assault",
        2,
        "tactic",
        (),
        4,
        "Issue an order to 4 or fewer armor units. Units in close assault roll 1 additional die. "
        "If you have no armor units, issue an order to 1 unit of your choice.",
    ),
    (
        "counter_attack",
        "Counter-Attack",
        2,
        "tactic",
        (),
        0,
        "Issue the same order your opponent played on his last turn. A section card is mirrored: "
        "it acts on the same flank of the board as your opponent's card.",
    ),
    (
        "direct_from_hq",
        "Direct from HQ",
        2,
        "tactic",
        (),
        4,
        "Issue an order to 4 units of your choice.",
    ),
    (
        "infantry_assault",
        "Infantry Assault",
        2,
        "tactic",
        (),
        ALL,
        "Issue an order to ALL infantry units in 1 section. Units may move 2 hexes and still "
        "battle, or move 3 hexes and not battle. If you have no infantry units, issue an order "
        "to 1 unit of your choice.",
    ),
    (
        "move_out",
        "Move Out!",
        2,
        "tactic",
        (),
        4,
        "Issue an order to 4 or fewer infantry units. If you have no infantry units, issue an "
        "order to 1 unit of your choice.",
    ),
    (
        "air_power",
        "Air Power",
        1,
        "tactic",
        (),
        0,
        "Target up to 4 enemy units adjacent to each other. Allies roll 2 dice per hex, Axis 1. "
        "Symbols, grenades and stars score hits; terrain does not reduce dice; flags may not "
        "be ignored.",
    ),
    (
        "ambush",
        "Ambush",
        1,
        "tactic",
        (),
        0,
        "Play in your opponent's turn when he declares a close assault on one of your units: "
        "your unit battles first. If the attacker is eliminated or retreats, its attack is "
        "cancelled. Draw a replacement card at the end of your opponent's turn.",
    ),
    (
        "artillery_bombard",
        "Artillery Bombard",
        1,
        "tactic",
        (),
        ALL,
        "Issue an order to ALL artillery units: each may move up to 3 hexes or battle twice. "
        "If you have no artillery units, issue an order to 1 unit of your choice.",
    ),
    (
        "barrage",
        "Barrage",
        1,
        "tactic",
        (),
        0,
        "Target any 1 enemy unit: roll 4 dice. Symbols and grenades score hits; terrain does "
        "not reduce dice; flags may not be ignored.",
    ),
    (
        "behind_enemy_lines",
        "Behind Enemy Lines",
        1,
        "tactic",
        (),
        1,
        "Issue an order to 1 infantry unit: it may move up to 3 hexes ignoring terrain movement "
        "restrictions, battle with 1 additional die, then move again up to 3 hexes. If you have "
        "no infantry units, issue an order to 1 unit of your choice.",
    ),
    (
        "close_assault",
        "Close Assault",
        1,
        "tactic",
        (),
        ALL,
        "Issue an order to ALL infantry and armor units adjacent to the enemy. Units battle "
        "with 1 additional die and may not move before battle; take ground and armor overrun "
        "are allowed.",
    ),
    (
        "dig_in",
        "Dig In",
        1,
        "tactic",
        (),
        4,
        "Issue an order to 4 or fewer infantry units: each places a sandbag on its hex. If you "
        "have no infantry units, issue an order to 1 unit of your choice.",
    ),
    (
        "firefight",
        "Firefight",
        1,
        "tactic",
        (),
        4,
        "Issue an order to 4 or fewer units not adjacent to an enemy. Units may not move but "
        "battle with 1 additional die.",
    ),
    (
        "medics_and_mechanics",
        "Medics & Mechanics",
        1,
        "tactic",
        (),
        1,
        "Choose 1 wounded unit and roll 1 die per command card you hold, this one included. "
        "Each star or symbol of the unit's type returns 1 figure. If figures return, the unit "
        "is ordered and may move and battle.",
    ),
    (
        "their_finest_hour",
        "Their Finest Hour",
        1,
        "tactic",
        (),
        0,
        "Roll 1 die per command card you hold, this one included: each infantry symbol orders "
        "1 infantry unit, each armor symbol 1 armor unit, each star 1 unit of any type. "
        "Ordered units battle with 1 additional die. Reshuffle the deck and discard pile.",
    ),
)


def _build() -> tuple[CardDef, ...]:
    out: list[CardDef] = []
    for key, copies in _SECTION_COPIES.items():
        for sec in (0, 1, 2):
            for _ in range(copies[sec]):
                out.append(
                    CardDef(
                        len(out),
                        key,
                        f"{key.title()} {_SEC[sec]}",
                        "section",
                        (sec,),
                        _SECTION_UNITS[key],
                        _SECTION_TEXT[key].format(s=_SEC[sec]),
                    )
                )
    for key, name, count, kind, secs, units, text in _OTHERS:
        for _ in range(count):
            out.append(CardDef(len(out), key, name, kind, secs, units, text))
    return tuple(out)


STANDARD_DECK: tuple[CardDef, ...] = _build()
CARDS: dict[int, CardDef] = {c.id: c for c in STANDARD_DECK}

#: Scenario option ``deck_name: AIR_POWER_AS_ARTILLERY_BOMBARD_DECK`` (vocabulary 3.3): the
#: Air Power card is replaced by a second Artillery Bombard, card id 60.
AIR_POWER_AS_ARTILLERY_BOMBARD = "AIR_POWER_AS_ARTILLERY_BOMBARD_DECK"
_BOMBARD = next(c for c in STANDARD_DECK if c.key == "artillery_bombard")
EXTRA_BOMBARD = CardDef(
    len(STANDARD_DECK),
    _BOMBARD.key,
    _BOMBARD.name,
    _BOMBARD.kind,
    _BOMBARD.sections,
    _BOMBARD.units,
    _BOMBARD.text,
)
CARDS[EXTRA_BOMBARD.id] = EXTRA_BOMBARD


def standard_deck_ids(options: dict[str, Any]) -> list[int]:
    """Card ids of the standard deck for a scenario's ``game_info.options``."""
    ids = [c.id for c in STANDARD_DECK]
    if options.get("deck_name") == AIR_POWER_AS_ARTILLERY_BOMBARD:
        ids = [EXTRA_BOMBARD.id if CARDS[i].key == "air_power" else i for i in ids]
    return ids


def card(card_id: int) -> CardDef:
    return CARDS[card_id]


def first_of(key: str, section: int | None = None) -> int:
    """Id of the first card with ``key`` (and section) — for tests and starting hands."""
    for c in STANDARD_DECK:
        if c.key == key and (section is None or c.sections == (section,)):
            return c.id
    raise KeyError(key)
