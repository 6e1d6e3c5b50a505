"""The in-game rules help (sent with the static board): the text's rules by heading, and
every choice made where the text is silent (marked "house rule", with its option)."""

from __future__ import annotations

HELP: tuple[dict[str, str], ...] = (
    {
        "heading": "General rules",
        "text": "A 3x3 square grid; each side has a Reserve Area behind its baseline (RED at the "
        "top, BLUE at the bottom). Units in the Reserve Area may move into any of their "
        "side's baseline areas. At most two units and a General in an area. Units may move "
        "through friendly units. Six units and a General a side; every unit has 2 SP.",
        "house": "Adjacent means sharing an edge (not a corner). The Reserve Area is off the "
        "battlefield: no fighting, no firing into or out of it, no stacking limit; units "
        "never move back into it but a unit retreating from its baseline goes there. "
        "Enemies never share an area; an enemy General left alone is captured by a unit "
        "entering his area.",
    },
    {
        "heading": "Setting up the battlefield",
        "text": "Both sides throw a D6 (ties rethrown): the higher attacks. The defender throws "
        "for terrain: 1 flat; 2-3 a hill in one of his baseline areas; 4 a built-up area "
        "there; 5 a wood in his left or right baseline area; 6 a river parallel to his "
        "baseline and a further D6 for another feature (none on a second 6).",
        "house": "The river runs along the line between two ranks (defender's choice). Option "
        "river_crossing_stops: a unit crossing it stops beyond it; option river_defence: "
        "a unit attacking across it has -1.",
    },
    {
        "heading": "Deployment",
        "text": "The defender places all his units, then the attacker, then the defender may move "
        "one unit to a new position.",
        "house": "Each side deploys on its own baseline and in its own Reserve Area.",
    },
    {
        "heading": "Turn sequence",
        "text": "Turn 1: the attacker goes first. Later turns: both throw a D6; the higher chooses "
        "who moves first. Each side may activate as many units as it scored. Units already "
        "engaged in Close Combat do not need to be activated.",
        "house": "Both sides throw on turn 1 too (for their activations); ties are rethrown. A "
        "unit is activated by its first move, fire or close combat of the phase; the "
        "General is activated like a unit. A unit is engaged once it has fought a close "
        "combat with an enemy unit still next to it.",
    },
    {
        "heading": "Movement",
        "text": "Foot 1 area, artillery 1, mounted 2, Generals 2. Units involved in combat may not "
        "move; units moving up to support them may. A unit must stop on entering a wood "
        "and moves at most 1 area when it starts in one.",
        "house": "A unit moves once a phase, before it fights; a unit that fired or fought may not "
        "move afterwards.",
    },
    {
        "heading": "Artillery fire",
        "text": "Range 4 areas; line of sight blocked by any unit between; no fire after moving "
        "in the same turn. D6: +1 same stationary target as last turn, +1 General in the "
        "artillery's area, -1 target in cover or fortifications. 5+: every unit in the "
        "target area is hit.",
        "house": "Range counts orthogonal steps (the whole board). Option "
        "hill_cover_vs_artillery: a hill is cover against artillery.",
    },
    {
        "heading": "Close Combat",
        "text": "Between adjacent areas; one unit per area fights. Both throw a D6: +1 friendly "
        "unit of the same type in the area, +1 General in the area, +1 attacking a flank or "
        "rear, -1 attacked in flank or rear, -1 enemy uphill or in cover, -1 enemy in "
        "fortifications. 2 or less: hit. Foot and mounted winners may advance into the "
        "area the enemy left and fight on.",
        "house": "The attacker picks the enemy unit. A unit faces the enemy baseline: attacks "
        "from beside are flank attacks, from behind rear attacks (option "
        "flank_attacks). Only the unit that started the combat may advance, and it may "
        "then fight once more without an activation. Option built_up_fortified: a "
        "built-up area is also a fortification.",
    },
    {
        "heading": "Resolving hits on units",
        "text": "Throw a D6 on the unit's quality: Elite 1-2, Average 1-3, Poor 1-4 lose 1 SP; "
        "otherwise retreat 1 area or lose 1 SP (owner's choice). A unit unable to retreat "
        "loses 1 SP. A General with a unit that retreats goes with it.",
        "house": "Retreat is straight back towards one's own baseline (from the baseline into the "
        "Reserve Area).",
    },
    {
        "heading": "Generals",
        "text": "When a unit with its General is hit, 2D6: 12 the General is killed, 11 wounded "
        "and loses 1 SP, 10 or less he survives.",
        "house": "A General has 2 SP: a second wound kills him.",
    },
    {
        "heading": "Special rules",
        "text": "Built-up areas and woods give cover. Artillery on a hill may fire over friendly "
        "units not on a hill.",
        "house": "",
    },
    {
        "heading": "End of the battle (house rule)",
        "text": "",
        "house": "An army that has lost 3 of its 6 units (option break_units), or its General and "
        "2 units (option break_units_general), withdraws and loses. After 12 turns "
        "(option turn_limit) the battle is a draw; both armies breaking at once is a draw.",
    },
    {
        "heading": "Armies (house rule)",
        "text": "",
        "house": "Options red_army / blue_army: British column, Zulu impi, Mahdist army, Egyptian "
        "garrison, or a custom list of six {type: foot|mounted|artillery, quality: "
        "elite|average|poor, name}.",
    },
)
