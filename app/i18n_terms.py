"""Texts the server sends and the client shows (written by scripts/i18n_terms.py: `make messages`; do not edit)."""

from __future__ import annotations

from .i18n import N_

TERMS: tuple[str, ...] = (
    N_("Memoir '44"),
    N_(
        "The standard two-player Memoir '44 game: command cards order units by section, battle dice, medals.  Optional rules of the 004 compilation."
    ),
    N_("Memoir '44 Overlord"),
    N_(
        "Up to eight players: per side a Commander-in-Chief who holds the cards and Field Generals who command a section each.  Overlord boards (002) or Team Play on a standard board (004)."
    ),
    N_("The Portable Wargame (3x3)"),
    N_(
        "Bob Cordery's fast play Portable Wargame on a 3x3 square grid: six units and a General a side, reserve areas behind the baselines, D6 combat.  The dice decide the attacker and the terrain; the defender places the terrain and deploys first.  A battle takes a quarter of an hour."
    ),
    N_("France 1944"),
    N_(
        "A neutral referee for two remote players of Victory Games' France 1944 with the 001 revisions: combat declared then resolved on the revised combat table (morale and control modifiers, column shifts), reaction segments (all or nothing), air power per combat increment; the server rolls every die and everybody sees the same log.  No map: the players enter strengths, morale and terrain from their own board."
    ),
    N_("Fast Play '44"),
    N_(
        "Memoir '44 without cards or sections: Command Points order units anywhere one at a time; opportunity fire, defensive fire, suppression, assaults and withdrawal (Chris Roper's Fast Play '44 rules)."
    ),
    N_("Recon Left Flank"),
    N_(
        "Issue an order to 1 unit in the Left Flank. When drawing a new command card at the end of your turn, draw two, keep one and discard the other."
    ),
    N_("Recon Centre"),
    N_(
        "Issue an order to 1 unit in the Centre. When drawing a new command card at the end of your turn, draw two, keep one and discard the other."
    ),
    N_("Recon Right Flank"),
    N_(
        "Issue an order to 1 unit in the Right Flank. When drawing a new command card at the end of your turn, draw two, keep one and discard the other."
    ),
    N_("Probe Left Flank"),
    N_("Issue an order to 2 units in the Left Flank."),
    N_("Probe Centre"),
    N_("Issue an order to 2 units in the Centre."),
    N_("Probe Right Flank"),
    N_("Issue an order to 2 units in the Right Flank."),
    N_("Attack Left Flank"),
    N_("Issue an order to 3 units in the Left Flank."),
    N_("Attack Centre"),
    N_("Issue an order to 3 units in the Centre."),
    N_("Attack Right Flank"),
    N_("Issue an order to 3 units in the Right Flank."),
    N_("Assault Left Flank"),
    N_("Issue an order to ALL units in the Left Flank."),
    N_("Assault Centre"),
    N_("Issue an order to ALL units in the Centre."),
    N_("Assault Right Flank"),
    N_("Issue an order to ALL units in the Right Flank."),
    N_("General Advance"),
    N_("Issue an order to 2 units in each section."),
    N_("Pincer Move"),
    N_("Issue an order to 2 units on the Left Flank and 2 units on the Right Flank."),
    N_("Recon in Force"),
    N_("Issue an order to 1 unit in each section."),
    N_("Armor Assault"),
    N_(
        "Issue an order to 4 or fewer armor units. Units in close assault roll 1 additional die. If you have no armor units, issue an order to 1 unit of your choice."
    ),
    N_("Counter-Attack"),
    N_(
        "Issue the same order your opponent played on his last turn. A section card is mirrored: it acts on the same flank of the board as your opponent's card."
    ),
    N_("Direct from HQ"),
    N_("Issue an order to 4 units of your choice."),
    N_("Infantry Assault"),
    N_(
        "Issue an order to ALL infantry units in 1 section. Units may move 2 hexes and still battle, or move 3 hexes and not battle. If you have no infantry units, issue an order to 1 unit of your choice."
    ),
    N_("Move Out!"),
    N_(
        "Issue an order to 4 or fewer infantry units. If you have no infantry units, issue an order to 1 unit of your choice."
    ),
    N_("Air Power"),
    N_(
        "Target up to 4 enemy units adjacent to each other. Allies roll 2 dice per hex, Axis 1. Symbols, grenades and stars score hits; terrain does not reduce dice; flags may not be ignored."
    ),
    N_("Ambush"),
    N_(
        "Play in your opponent's turn when he declares a close assault on one of your units: your unit battles first. If the attacker is eliminated or retreats, its attack is cancelled. Draw a replacement card at the end of your opponent's turn."
    ),
    N_("Artillery Bombard"),
    N_(
        "Issue an order to ALL artillery units: each may move up to 3 hexes or battle twice. If you have no artillery units, issue an order to 1 unit of your choice."
    ),
    N_("Barrage"),
    N_(
        "Target any 1 enemy unit: roll 4 dice. Symbols and grenades score hits; terrain does not reduce dice; flags may not be ignored."
    ),
    N_("Behind Enemy Lines"),
    N_(
        "Issue an order to 1 infantry unit: it may move up to 3 hexes ignoring terrain movement restrictions, battle with 1 additional die, then move again up to 3 hexes. If you have no infantry units, issue an order to 1 unit of your choice."
    ),
    N_("Close Assault"),
    N_(
        "Issue an order to ALL infantry and armor units adjacent to the enemy. Units battle with 1 additional die and may not move before battle; take ground and armor overrun are allowed."
    ),
    N_("Dig In"),
    N_(
        "Issue an order to 4 or fewer infantry units: each places a sandbag on its hex. If you have no infantry units, issue an order to 1 unit of your choice."
    ),
    N_("Firefight"),
    N_(
        "Issue an order to 4 or fewer units not adjacent to an enemy. Units may not move but battle with 1 additional die."
    ),
    N_("Medics & Mechanics"),
    N_(
        "Choose 1 wounded unit and roll 1 die per command card you hold, this one included. Each star or symbol of the unit's type returns 1 figure. If figures return, the unit is ordered and may move and battle."
    ),
    N_("Their Finest Hour"),
    N_(
        "Roll 1 die per command card you hold, this one included: each infantry symbol orders 1 infantry unit, each armor symbol 1 armor unit, each star 1 unit of any type. Ordered units battle with 1 additional die. Reshuffle the deck and discard pile."
    ),
    N_("+3 CP this turn."),
    N_("This turn infantry moves up to 3 hexes ignoring terrain restrictions."),
    N_("This turn infantry moves 2 and battles, or 3 without battling."),
    N_("This turn armor assaults with 1 extra die."),
    N_("This turn every assault rolls 1 extra die."),
    N_("4 dice at any enemy unit (ranged: grenades suppress), no terrain, flags count."),
    N_("This turn artillery may battle twice."),
    N_("The target and up to 3 adjacent enemy units: 2 dice each (Allies), 1 (Axis)."),
    N_("One damaged unit rolls 4 dice: each own symbol or star = 1 figure back."),
    N_("STANDARD"),
    N_("OVERLORD"),
    N_("BRKTHRU"),
    N_("country"),
    N_("winter"),
    N_("desert"),
    N_("beach"),
)
