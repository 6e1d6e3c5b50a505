"""The terrain families' profiles, quoted from the rules (004 terrain, Appendix 2,
vocabulary 1.3): the behaviour a family's tiles share (forest, village, hill, river,
bunker, ...), and the road / rail / wadi tile shapes.  Each row of the terrain table
(:mod:`.terrain_table`) is one ``.m44`` code = one profile + its own name and
overrides."""

from __future__ import annotations

from typing import Any

from .terrain import ALL_CLASSES, ARMOR, ART, INF, VEHICLES

_COVER = {"defense": (-1, -2, 0), "blocks_los": True}
#: 004 "Woods & Forests": must stop, no battle the turn it moves in, -1/-2/0, blocks LOS.
FOREST: dict[str, Any] = {
    "family": "forest",
    "must_stop": ALL_CLASSES,
    "no_battle_after_entering": ALL_CLASSES,
    **_COVER,
}
#: 004 "Towns & Villages": as forest, plus an armor unit inside fires at -2.
VILLAGE: dict[str, Any] = {**FOREST, "family": "village", "firing_from": (0, -2, 0)}
#: 004 "Hills": -1 for infantry/armor attackers standing lower; plateau LOS rule.
HILL: dict[str, Any] = {
    "family": "hill",
    "defense": (-1, -1, 0),
    "defense_if_attacker_lower": True,
    "blocks_los": True,
    "elevation": 1,
    "mass": "hill",
}
#: 004 "Mountains".
MOUNTAIN: dict[str, Any] = {
    "family": "mountain",
    "defense": (-2, -2, 0),
    "defense_if_attacker_lower": True,
    "blocks_los": True,
    "elevation": 2,
    "mass": "mountain",
    "impassable": VEHICLES,
    "cannot_leave": ART,
    "enter_from_min_elevation": 1,
    "leave_to_min_elevation": 1,
    "art_dice": (3, 3, 2, 2, 1, 1, 1),
}
#: 004 "Rivers & Waterways, Normal": impassable unless bridged; no LOS effect.
RIVER: dict[str, Any] = {"family": "river", "river": True}
#: 004 "Bridges".
BRIDGE: dict[str, Any] = {"family": "bridge", "slot": "rect_terrain", "bridge": True}
#: 004 "Roads": +1 move along a connected road.
ROAD: dict[str, Any] = {"family": "road", "road": True}
#: 004 "Railway Tracks": armor/artillery must stop (but may take ground/overrun).
RAIL: dict[str, Any] = {
    "family": "rail",
    "rail": True,
    "must_stop": VEHICLES,
    "stop_allows_take_ground": True,
}
#: 004 "Beaches": a move onto beach is capped at 2 hexes.
BEACH: dict[str, Any] = {"family": "beach", "beach": True, "move_cap": 2}
#: 004 "Marshes".
MARSH: dict[str, Any] = {
    "family": "marsh",
    "must_stop": ALL_CLASSES,
    "leave_one_hex": ALL_CLASSES,
    "impassable": ART,
    "no_battle_after_entering": ARMOR,
    "no_battle_after_leaving": ARMOR,
    "no_overrun": True,
}
#: 004 "Bunkers": only infantry may enter; A/Art inside never leave; -1/-2/0; 1 flag.
_BUNKERISH: dict[str, Any] = {
    "slot": "rect_terrain",
    "impassable": VEHICLES,
    "cannot_leave": VEHICLES,
    "ignore_flags": 1,
    **_COVER,
}
BUNKER: dict[str, Any] = {
    **_BUNKERISH,
    "family": "bunker",
    "defense_owner_only": True,
    "ignore_flags_owner_only": True,
}
FIELD_BUNKER: dict[str, Any] = {**_BUNKERISH, "family": "bunker"}
#: Appendix 2 "Trenches".
TRENCH: dict[str, Any] = {
    "family": "trench",
    "must_stop": frozenset({"inf", "armor"}),
    "impassable": ART,
    "no_battle_in": ARMOR,
    "defense": (-1, -1, 0),
    "ignore_flags": 1,
    "ignore_flags_classes": INF,
}
#: 1.3 Airfields/High Ground: no rule effect.
PLAIN: dict[str, Any] = {"family": "open"}
#: 004 "Oceans" (engine-made background rows).
OCEAN: dict[str, Any] = {
    "family": "ocean",
    "slot": "engine",
    "ocean": True,
    "must_stop": ALL_CLASSES,
    "leave_one_hex": ALL_CLASSES,
    "no_battle_in": ALL_CLASSES,
    "retreat_impassable": ALL_CLASSES,
    "no_sandbag": True,
}
#: Appendix 2 "Wadis": sides impassable, -1/-1/-1 unless attacker in a wadi, range 1 across.
WADI: dict[str, Any] = {
    "family": "wadi",
    "defense": (-1, -1, -1),
    "wadi": True,
    "edges_restricted": True,
}
#: Appendix 2 "Lake": impassable; LOS blocked only across 2+ lake hexes.
LAKE: dict[str, Any] = {"family": "lake", "impassable": ALL_CLASSES, "lake": True}
#: Appendix 2 "Rivers & Waterways, Frozen": passable, 2 dice on entering (star = hit).
FROZEN: dict[str, Any] = {"family": "frozen_river", "entry_hazard_dice": 2}
#: Appendix 2 "Roads, Road-Blocks".
ROADBLOCK: dict[str, Any] = {
    "family": "roadblock",
    "must_stop": INF,
    "impassable": VEHICLES,
    "defense": (-1, -1, 0),
    "defense_defender_classes": INF,
    "ignore_flags": 1,
    "engineer_removable": True,
    "notes": "004: protects an occupying infantry unit only",
}
#: Vocabulary 1.3 Sea Bluff / Cliff (on a hill).
BLUFF: dict[str, Any] = {**HILL, "beach_edge_cost": 2, "beach_edge_impassable": VEHICLES}
CLIFF: dict[str, Any] = {**BLUFF, "no_take_ground_from_beach": INF}
#: 004 "Sandbag Emplacements".
SANDBAG: dict[str, Any] = {
    "family": "sandbag",
    "slot": "obstacle",
    "defense": (-1, -1, 0),
    "ignore_flags": 1,
    "removable": True,
    "removed_when_vacated": True,
}

# Road/rail/wadi shapes: connected sides in 60-degree steps counter-clockwise from east
# (vocabulary 1.3 "tile shape fixes which neighbours are connected").
STRAIGHT, CURVE, FORK_L, FORK_R, CROSS, FORK_Y = (
    (0, 3),
    (1, 5),
    (0, 1, 3),
    (0, 3, 5),
    (0, 1, 3, 4),
    (0, 2, 4),
)
