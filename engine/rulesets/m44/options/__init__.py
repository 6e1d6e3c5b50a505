"""Named optional rules a game can switch on (``new_game(..., options={name: True})``).

The default ruleset is the standard published Memoir '44 game.  The house-rules
compilation (rules/004) adds rules that are registered here as optional; each entry
says where it comes from and whether the engine implements it.  Unknown option names
are refused by :func:`validate` (code ``unknown_option``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ....core.conditions import check_demoralisation, check_supply
from ....core.errors import EngineError
from ....core.unit_types import TYPES, check_value
from .campaign_value import check_campaign


@dataclass(frozen=True)
class OptionalRule:
    name: str
    description: str
    source: str  # rules file + section
    implemented: bool
    values: tuple[str, ...] | None = None  # the allowed values (None: on/off)


_R004 = "rules/004 Main Rules"
_R004_A3 = "rules/004 Appendix 3 - Variants, Army Manoeuvres"
SIDE_VALUES = ("AXIS", "ALLIES")

REGISTRY: dict[str, OptionalRule] = {
    r.name: r
    for r in (
        OptionalRule(
            "no_retreat",
            "Voluntary No Retreat: the owner may refuse a retreat and lose one figure "
            "per retreat step not made (no partial retreat).",
            f"{_R004}, Game Turn Explanation 4 - Battle, Retreat",
            True,
        ),
        OptionalRule(
            "counter_attack_last_turn",
            "When a side reaches its victory medals the other side plays one last turn; "
            "the winner is then decided by damage (figures eliminated + objectives held).",
            f"{_R004}, Object Of The Game - Counter-Attack / End Of The Game",
            True,
        ),
        OptionalRule(
            "starting_hand_method",
            "Each side starts with Recon Left, Recon Centre, Recon Right and Direct From "
            "HQ; more cards are drawn at random, fewer: Direct From HQ + one Recon.",
            f"{_R004}, Command Cards - Starting Hand Method",
            True,
        ),
        OptionalRule(
            "infantry_v_tank",
            "Infantry may battle Armour only in Close Assault (support weapons excepted).",
            f"{_R004}, Game Turn Explanation 4 - Infantry v Tank Battle",
            True,
        ),
        OptionalRule(
            "artillery_v_tank",
            "Artillery battles Armour with one less die (anti-tank artillery excepted).",
            f"{_R004}, Game Turn Explanation 4 - Artillery v Tank Battle",
            True,
        ),
        OptionalRule(
            "objective_needed_to_win",
            "A player cannot win on medals without holding at least one of his Terrain "
            "Objectives (when the scenario gives him any).",
            f"{_R004}, Object Of The Game",
            True,
        ),
        OptionalRule(
            "infantry_charge",
            "Regular infantry that marched 2 hexes into close assault with infantry or "
            "artillery may still battle it; the defender battles first.",
            f"{_R004}, Game Turn Explanation 4 - Infantry Charge",
            True,
        ),
        OptionalRule(
            "firefight_continuing",
            "Units in close assault keep battling each following turn without orders, "
            "grenades ignored, one die less, no take ground/overrun.",
            f"{_R004}, Game Turn Explanation 4 - Firefight",
            True,
        ),
        OptionalRule(
            "extra_unit_types",
            "Extra armour (reconnaissance, light-medium, heavy, very heavy, infantry "
            "tanks, assault guns, tank destroyers) and artillery (medium, big-gun, "
            "anti-tank, 88mm, self-propelled, rocket) profiles and militia infantry. "
            'Value: true (no unit changes) or a mapping {"row,col" (a unit\'s start '
            "hex) or .m44 unit code (every such unit): type}, a hex entry winning; "
            "types: militia, reconnaissance, light_medium_armour, medium_armour, "
            "heavy_armour, very_heavy_armour, infantry_tank, assault_gun, "
            "tank_destroyer, medium_artillery, heavy_artillery, big_gun, "
            "anti_tank_artillery, german_88, self_propelled_artillery, rocket_artillery. "
            "Typed artillery fires direct (line of sight) or indirect (its own or a "
            "friendly unit's line of sight).",
            "rules/004 Infantry/Armoured/Artillery Units",
            True,
        ),
        OptionalRule(
            "infantry_support_weapons",
            "Anti-tank, machine-gun, flame-thrower and mortar infantry support units "
            "(2 figures, given to infantry units). Value: like extra_unit_types, types "
            "anti_tank_infantry, machine_gun, flame_thrower, mortar. Motorised support "
            "weapons are not implemented.",
            "rules/004 Infantry Support Weapons (Optional)",
            True,
        ),
        OptionalRule(
            "blitzkrieg",
            "Value: the side using Blitzkrieg (AXIS or ALLIES). It may play a Recon "
            "card as an Air Power (first target in the card's section, chain of up to "
            "4, 1 die per hex); the enemy side's armour moves at most 2 and battles.",
            "rules/004 Blitzkrieg Rules (Optional)",
            True,
            SIDE_VALUES,
        ),
        OptionalRule(
            "discard_useless_cards",
            "Instead of playing a card: Method 1 (once per game) lay cards face up, the "
            "opponent takes any of them giving one of his own for each, the rest are "
            "discarded, draw up to the hand size, turn over; Method 2: exchange one "
            "card face down, then one unit may battle without moving, plus the units "
            "in close assault.",
            f"{_R004}, Command Cards - Methods For Discarding Useless Cards",
            True,
        ),
        OptionalRule(
            "army_manoeuvres",
            "All of Army Manoeuvres: Extra Command Cards (up to 3 cards a turn, each "
            "claiming its own sections: a Tactic card claims all three and is played "
            "alone; end_cards closes the card play; all moves before any battle; one "
            "card drawn per card played) plus Restoring Order and The Big Push. "
            "Standard mode (Team Play / Overlord: one card a turn).",
            f"{_R004_A3}",
            True,
        ),
        OptionalRule(
            "restoring_order",
            "Army Manoeuvres, Restoring Order (once per game per side): instead of a "
            "card, order every unit; none may end its move nearer the enemy; only units "
            "that did not move may battle.",
            f"{_R004_A3}, Restoring Order, Tactics Card",
            True,
        ),
        OptionalRule(
            "big_push",
            "Army Manoeuvres, The Big Push (once per game per side): instead of a "
            "card, order every unit; each must advance at least one hex toward the "
            "enemy; infantry must take ground (and may charge), armour must take ground "
            "and overrun; artillery marches 1 hex forward or battles with +1 die.",
            f"{_R004_A3}, The Big Push, Tactics Card",
            True,
        ),
        OptionalRule(
            "bridge_demolition",
            "Bridge Demolition Options 1 and 3 on every road, pontoon and railway "
            "bridge: a Combat Engineer next to a bridge that does not move may place "
            "charges instead of battling (a Battle Star); its side may then blow it "
            "like an already rigged bridge (2 dice, a star destroys it); an enemy on "
            "the bridge removes the charges. An unrigged bridge is destroyed by 4 tank "
            "symbols from Heavy Artillery / Big Guns firing at it, Barrage or Air Power.",
            "rules/004 Appendix 2 - Bridge Demolition Rules",
            True,
        ),
        OptionalRule(
            "pontoon_bridges",
            "The scenario's Special Rules allow Pontoon Bridges: a Combat Engineer "
            "ordered by an Attack card (a Counter-Attack copying one too) that does not "
            "move may, instead of battling, place a Pontoon Bridge on an empty river "
            "hex next to it, in the card's section; the hex then has a bridge "
            "(a road, pontoon or railway bridge for bridge_demolition).",
            "rules/004 Appendix 2 - Bridge, Pontoon",
            True,
        ),
        OptionalRule(
            "overlord_air_sortie",
            "Overlord and the Air Pack: each C-in-C starts with an Air Sortie card (not "
            "counted in the hand size), the two others are shuffled in; the C-in-C gives "
            "it to a Field General (counts toward his 3 cards and the FG's 2, never with "
            "another Tactic card, never played by the C-in-C). Dispatch limits only: "
            "airplanes are not implemented, a played Air Sortie has no effect.",
            "rules/002 Overlord and the Air Pack",
            True,
        ),
        OptionalRule(
            "weather",
            "Value: the condition for the whole game. NIGHT (visibility 1), FOG / "
            "BLIZZARD (2), RAINSTORM (3; no airdrops, Air Power orders 1 unit): no "
            "target beyond the visibility, except that indirect-firing artillery "
            "(standard artillery too) may fire at a target in range and line of fire "
            "with a friendly unit within 1 (night: close assault) / 2 / 3 hexes of it. "
            "DEEP_SNOW: every unit moves 1 hex less. MUD: a move entering a hex "
            "without road, railway or town totals at most 2 hexes for armour; special "
            "infantry move as regular infantry (advance 1 and battle, or march 2). "
            "RUSSIAN_MUD: every unit, except on railways, moves at most 1 hex.",
            "rules/004 Night & Severe Weather Conditions (Optional)",
            True,
            ("NIGHT", "FOG", "BLIZZARD", "RAINSTORM", "DEEP_SNOW", "MUD", "RUSSIAN_MUD"),
        ),
        OptionalRule(
            "demoralisation",
            'Value: {"row,col" (a unit\'s start hex) or .m44 unit code or AXIS / '
            "ALLIES: 1 or 2} (a hex entry wins over a code, a code over a side). Those "
            "units start 1 (2) figures below strength (at least 1 figure), move 1 (2) "
            "hexes less and roll 1 (2) battle dice less; they always retreat, even "
            "with movement 0.",
            "rules/004 Demoralisation, & Disorganisation (Optional)",
            True,
        ),
        OptionalRule(
            "kriegspiel",
            "Kriegspiel & The Fog Of War: each side sees an enemy unit only while it "
            "is within the battle range of one of its own units (a camouflaged one: "
            "only next to one of its units, the close-assault notice); enemy units "
            "out of range disappear from its board. The opponent's cards, card plays "
            "and orders are hidden: a side learns of an enemy turn only what its units "
            "observe (dice thrown at them, units coming into sight). Only detected "
            "units may be battled, Air Powered or Barraged. The server is the Referee; "
            "spectators see what both sides see, and the whole game once it is over. "
            "Standard and team play (not the Overlord board).",
            "rules/004 Appendix 3 - Variants, Kriegspiel & The Fog Of War",
            True,
        ),
        OptionalRule(
            "kriegspiel_watch_delay",
            "With Kriegspiel: a spectator watching one side (?watch=SIDE) gets that "
            "side's version of an event once this many full turns have passed since "
            "the end of its turn (the live board stays what both sides see). Without it a side's view "
            "reaches spectators only when the game is over.",
            "server choice (docs/protocol.md, Kriegspiel spectators)",
            True,
            tuple(str(n) for n in range(1, 11)),
        ),
        OptionalRule(
            "young_generals",
            "Variant For Young Generals (a preset, alone): no optional rule, every unit "
            "with its class's base profile (no special-unit rules), no Take Ground nor "
            "Armour Overrun, Section cards only, reshuffled when exhausted.",
            f"{_R004_A3}, Variant For Young Generals",
            True,
        ),
        OptionalRule(
            "variant",
            "Suggested Variants, the units of the variant_side converted: ZOMBIE (Achtung! "
            "Zombie!: card-less 3-figure zombies, new zombies from the Living's losses, "
            "splitting at 6, town markers, annihilation or a draw), EXTERMINATE (Daleks "
            "and Mercenaries, towns exterminated into ruins, 10 VP), CYBERMEN (the "
            "Cyberman Units of EX-TER-MIN-ATE!, reinforced by close-assault "
            "casualties), WAR_OF_THE_WORLDS "
            "(Martian Fighting / Handling Machines on the rear line, +2 cards, towns "
            "seized, the Common Cold roll), NINETEEN_EIGHTY_FOUR (both sides the "
            "stronger force: militia, assault guns, medium / rocket artillery; flags are "
            "casualties; Commissars; replacements; 12 VP).",
            f"{_R004_A3}, Suggested Variants",
            True,
            ("ZOMBIE", "EXTERMINATE", "CYBERMEN", "WAR_OF_THE_WORLDS", "NINETEEN_EIGHTY_FOUR"),
        ),
        OptionalRule(
            "variant_side",
            "With option variant: the side converted to Zombies / Daleks / Cybermen / "
            "Martians "
            "(default AXIS).",
            f"{_R004_A3}, Suggested Variants",
            True,
            SIDE_VALUES,
        ),
        OptionalRule(
            "campaign",
            'Simplified Campaign Rules, a campaign battle: value {"AXIS": dice, '
            '"ALLIES": dice} (Victory Points of the previous battle + campaign '
            "victories). Before the first turn each side rolls them: tank / infantry: "
            "the opponent removes a model / figure from one of his armour / infantry "
            "units; flag: the opponent retreats one of his units 1 hex; grenade: you "
            "remove a figure from any enemy unit; star: the opponent starts with one "
            "card less (at least 1) and draws 2 a turn until his hand is full. A unit "
            "wiped out gives a Victory Point.",
            f"{_R004_A3}, Simplified Campaign Rules",
            True,
        ),
        OptionalRule(
            "supply_lines",
            "Value: true (each side's supply base is its own board edge) or "
            '{AXIS|ALLIES: ["row,col", ...]} (that side\'s base hexes instead). A '
            "unit is in supply through the shortest route of hexes to the nearest "
            "road/railway hex, then along roads/railways to a base road/railway hex; "
            "the line is broken by a hex holding an enemy unit or in battle range of an "
            "enemy (not camouflaged) infantry or armour unit. Checked at the start of "
            "the owner's turn: 2nd turn out of supply: armour moves 1 less, artillery "
            "does not move, special infantry as regular, battle dice -1; from the 3rd "
            "turn one die per such unit, a star = 1 figure lost. Scenario exclusions "
            "(sieges, airlift, paratroop turns, forbidden railways) and drop zones "
            "are not implemented.",
            "rules/004 Supply Lines & Sieges (Optional)",
            True,
        ),
    )
}


#: A rules summary per value of option ``variant`` (the lobby shows the chosen one).
VALUE_SUMMARIES: dict[str, dict[str, str]] = {
    "variant": {
        "ZOMBIE": "Achtung! Zombie!: the variant_side becomes the Dead: each infantry unit one "
        "zombie unit, artillery two, armour three (3 figures, as many dice as "
        "figures, range 1, move 1 and battle, terrain ignored for movement, no Take "
        "Ground). The Dead have no cards: every zombie acts each Dead turn. Grenades "
        "are flags for zombies, at most 1 hex of retreat. Every Living figure a "
        "zombie eliminates joins it; at 6 figures it splits in two. Markers on towns "
        "and bunkers are removed by a zombie staying a whole turn. The Dead win by "
        "annihilation; the Living may leave by their own baseline: if the figures "
        "saved plus the markers left exceed their losses, it is a draw.",
        "EXTERMINATE": "EX-TER-MIN-ATE!: the variant_side's regular infantry become Standard "
        "Daleks (armour, 3 models, move 4, 3 dice to range 3), its armour Special "
        "Weapons Daleks (4 models, 4 dice to range 4), its special infantry and "
        "artillery Dalek Mercenaries (no Victory Point, surrender when the Daleks "
        "are gone). Daleks ignore terrain for movement, grenades and the first "
        "flag; each further flag exterminates a model; they never retreat. A Dalek "
        "on a town that neither moves nor battles for a turn exterminates it (City "
        "Ruins, a permanent Victory Point). Daleks need 10 Victory Points.",
        "CYBERMEN": "EX-TER-MIN-ATE!, the Cyberman Unit: every unit of the variant_side becomes "
        "a Cyberman Unit (special infantry, 4 figures, move up to 3 and battle, 3 "
        "dice to range 3, terrain ignored for movement, no grenade hits, flags "
        "ignored). Each enemy figure a Cyberman removes in close assault reinforces "
        "the weakest Cyberman unit (up to 4 figures). Daleks and Cybermen never "
        "play in the same game.",
        "WAR_OF_THE_WORLDS": "War Of The Worlds: one Martian per two units of the variant_side, "
        "every 4th a Handling Machine (3 models, 2 dice to range 4), the "
        "others Fighting Machines (4 models, 4 dice to range 8), on the rear "
        "line, +2 cards; no terrain limits, no grenade hits, flags ignored "
        "(Handling: the first). Humans: special infantry, 1 armour in 3 "
        "heavy, heavy artillery. Handling Machines seize towns by staying a "
        "turn; other Martian hits ruin towns. Martians win with 3/4 of the "
        "human units and every town; humans with half the Martians or every "
        "Handling Machine. From turn 2 the Common Cold: a star costs every "
        "Martian a model, a hex of movement and a die. Scenario: The Fall Of "
        "London, 1940.",
        "NINETEEN_EIGHTY_FOUR": "Nineteen Eighty-Four: both sides get the stronger force "
        "(mirrored): militia, assault guns, medium artillery and every "
        "third artillery rocket artillery; no overrun; flags are "
        "casualties; Political Commissars on both sides; an eliminated "
        "unit comes back next turn on its baseline, in the section of a "
        "card drawn; 12 Victory Points win.",
    }
}


#: Options whose value is more than ``true``: name -> check raising ``invalid_option_value``.
VALUE_CHECKS = {
    "extra_unit_types": check_value,
    "infantry_support_weapons": check_value,
    "demoralisation": check_demoralisation,
    "supply_lines": check_supply,
    "campaign": check_campaign,
}
#: The VALUE_CHECKS options whose value maps units to 004 unit types (lobby: type lists).
UNIT_TYPE_OPTIONS = ("extra_unit_types", "infantry_support_weapons")
#: An example value of each VALUE_CHECKS option (a JSON object; the lobby's placeholder).
VALUE_EXAMPLES: dict[str, dict[str, Any]] = {
    "extra_unit_types": {"tankger": "heavy_armour", "4,12": "assault_gun"},
    "infantry_support_weapons": {"5,9": "machine_gun"},
    "demoralisation": {"AXIS": 1, "3,7": 2},
    "supply_lines": {"ALLIES": ["8,10", "8,12"]},
    "campaign": {"AXIS": 2, "ALLIES": 3},
}


def validate(options: dict[str, Any] | None) -> dict[str, Any]:
    """Normalise ``options`` (None -> {}) and refuse unknown or unimplemented names."""
    out: dict[str, Any] = {}
    for name, value in (options or {}).items():
        rule = REGISTRY.get(name)
        if rule is None:
            raise EngineError("unknown_option", f"unknown optional rule {name!r}")
        if value and not rule.implemented:
            raise EngineError(
                "option_not_implemented", f"optional rule {name!r} is not implemented"
            )
        if value and rule.values is not None:
            value = str(value).upper()
            if value not in rule.values:
                raise EngineError(
                    "invalid_option_value",
                    f"optional rule {name!r} takes one of {list(rule.values)}",
                    entry=name,
                    values=list(rule.values),
                )
        if value and name in VALUE_CHECKS:
            VALUE_CHECKS[name](name, value)
        if value:
            out[name] = value
    if out.get("young_generals") and len(out) > 1:
        raise EngineError(
            "invalid_option_value",
            "the Variant For Young Generals uses no optional rule",
            entry="young_generals",
        )
    if out.get("variant") == "NINETEEN_EIGHTY_FOUR" and out.get("blitzkrieg"):
        raise EngineError(
            "invalid_option_value",
            'Nineteen Eighty-Four: "No Special '
            'Infantry Units, Blitzkrieg Rules, or Armour Overruns"',
            entry="blitzkrieg",
        )
    if "kriegspiel_watch_delay" in out and not out.get("kriegspiel"):
        raise EngineError(
            "invalid_option_value",
            "kriegspiel_watch_delay needs kriegspiel",
            entry="kriegspiel_watch_delay",
        )
    if "variant_side" in out and "variant" not in out:
        raise EngineError(
            "invalid_option_value", "variant_side needs a variant", entry="variant_side"
        )
    return out


def describe() -> list[dict[str, Any]]:
    """The registry as JSON-able dicts (for the lobby UI); a rule taking one of a few
    values lists them (``values``), a rule whose value may be a JSON object gives an
    ``example`` of it, and a unit-type rule lists its types (``unit_types``: type name ->
    004 name) for the ``{"row,col" | unit code: type name}`` mapping."""
    out = []
    for r in REGISTRY.values():
        d: dict[str, Any] = {
            "name": r.name,
            "description": r.description,
            "source": r.source,
            "implemented": r.implemented,
        }
        if r.values:
            d["values"] = list(r.values)
        if r.name in VALUE_SUMMARIES:
            d["value_descriptions"] = VALUE_SUMMARIES[r.name]
        if r.name in UNIT_TYPE_OPTIONS:
            d["unit_types"] = {t.name: t.label for t in TYPES.values() if t.option == r.name}
        if r.name in VALUE_CHECKS:
            d["example"] = VALUE_EXAMPLES[r.name]  # the value may be a JSON object
        out.append(d)
    return out
