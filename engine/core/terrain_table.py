"""The terrain table: one :class:`~engine.core.terrain.TerrainSpec` row per ``.m44`` code
(base terrain, rect_terrain, obstacles), built from the family profiles quoted from the
rules (:mod:`.terrain_profiles`); plus the look-ups the scenario loader uses
(:func:`lookup`, :data:`BEHAVIORS`, :func:`link_directions`) and :func:`describe` (a row
in words).  Sources and contract: :mod:`engine.core.terrain`."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .terrain import ALL_CLASSES, ALL_FLAGS, ARMOR, ART, INF, NONE, VEHICLES, TerrainSpec
from .terrain_profiles import (
    BEACH,
    BLUFF,
    BRIDGE,
    BUNKER,
    CLIFF,
    CROSS,
    CURVE,
    FIELD_BUNKER,
    FOREST,
    FORK_L,
    FORK_R,
    FORK_Y,
    FROZEN,
    HILL,
    LAKE,
    MARSH,
    MOUNTAIN,
    OCEAN,
    PLAIN,
    RAIL,
    RIVER,
    ROAD,
    ROADBLOCK,
    SANDBAG,
    STRAIGHT,
    TRENCH,
    VILLAGE,
    WADI,
)


_ROWS: list[tuple[str, str, dict[str, Any], dict[str, Any]]] = [
    # code, rulebook name, profile, overrides
    # --- forests -------------------------------------------------------------------------
    ("woods", "Woods & Forests", FOREST, {}),
    ("wforest", "Woods & Forests, Winter", FOREST, {}),
    ("palmtrees", "Palm Trees", FOREST, {}),
    (
        "whillforest",
        "Hill With Woods & Forests",
        FOREST,
        {"elevation": 1, "notes": "elevation 1 but no hill mass (vocabulary 1.3)"},
    ),
    (
        "pjungle",
        "Jungle",
        FOREST,
        {
            "family": "jungle",
            "no_battle_after_entering": NONE,
            "stop_allows_take_ground": True,
            "battle_max_moved": 1,
            "no_take_ground_after_move": ARMOR,
        },
    ),
    (
        "hedgerow",
        "Hedgerows",
        FOREST,
        {"family": "hedgerow", "only_first_step": True, "leave_one_hex": ALL_CLASSES},
    ),
    # --- towns -----------------------------------------------------------------------------
    ("buildings", "Towns & Villages", VILLAGE, {}),
    ("bled", "Desert Towns & Villages", VILLAGE, {}),
    ("wvillage", "Towns & Villages, Winter", VILLAGE, {}),
    ("pvillage", "Towns & Villages, Pacific", VILLAGE, {}),
    ("church", "Towns & Villages, Church/Cathedral", VILLAGE, {"ignore_flags": 1}),
    ("barracks", "Towns & Villages, Barracks", VILLAGE, {}),
    ("factory", "Towns & Villages, Factory Complex", VILLAGE, {}),
    ("wfactory", "Towns & Villages, Factory Complex (winter)", VILLAGE, {}),
    ("lighthouse", "Towns & Villages, Lighthouse", VILLAGE, {}),
    (
        "powerplant",
        "Power Plant",
        VILLAGE,
        {"notes": "004: scenario rules; vocabulary: as Village"},
    ),
    (
        "whillvillage",
        "Towns & Villages, Hill With Village",
        VILLAGE,
        {"elevation": 1, "notes": "elevation 1 but no hill mass (vocabulary 1.3)"},
    ),
    ("station", "Railway Station", VILLAGE, {"rail": True, "station": True}),
    (
        "wruins",
        "Towns & Villages, City Ruins",
        VILLAGE,
        {
            "impassable": VEHICLES,
            "firing_from": (0, 0, 0),
            "ignore_flags": 1,
            "ignore_flags_classes": INF,
        },
    ),
    ("camp", "Prison Camp", VILLAGE, {"ignore_flags": 1}),
    (
        "radar",
        "Towns & Villages, Radar Station",
        VILLAGE,
        {
            "no_battle_after_entering": NONE,
            "defense": (-1, -1, 0),
            "ignore_flags": 1,
            "notes": "004 Radar Station: may battle after entering, -1 for infantry and armor",
        },
    ),
    (
        "fortress",
        "Bunkers, Fortress",
        FIELD_BUNKER,
        {
            "family": "fortress",
            "slot": "terrain",
            "cannot_leave": ART,
            "ignore_flags": ALL_FLAGS,
            "art_hits_on_star_only": True,
        },
    ),
    # --- bunkers -------------------------------------------------------------------------
    ("bunker", "Bunkers", BUNKER, {"notes": "owner = original_owner, else the unit on it"}),
    ("casemate", "Bunkers, Field (casemate)", FIELD_BUNKER, {}),
    ("wbunker", "Bunkers, Winter Field", FIELD_BUNKER, {}),
    ("dbunker", "Bunkers, Field (desert)", FIELD_BUNKER, {}),
    ("pbunker", "Bunkers, Field (Pacific)", FIELD_BUNKER, {}),
    # --- hills & mountains ---------------------------------------------------------------
    ("hills", "Hills", HILL, {}),
    ("whill", "Hills, Winter", HILL, {}),
    ("dhill", "Hills, Desert", HILL, {}),
    ("hills+STEEP_HILL", "Steep Hill", HILL, {"enter_cost": 2, "enter_cost_from_non_hill": True}),
    ("hills+BLUFF", "Sea Bluff", BLUFF, {}),
    ("hills+CLIFF", "Cliff", CLIFF, {}),
    ("whill+CLIFF", "Cliff, Winter", CLIFF, {}),
    ("dridge", "Erg / Ridge", HILL, {"must_stop": ALL_CLASSES}),
    (
        "hillroad",
        "Road Over A Hill",
        HILL,
        {
            "road": True,
            "links": STRAIGHT,
            "notes": "BGA mis-keys the road links; we link the road as drawn (straight)",
        },
    ),
    (
        "hillcurve",
        "Road Over A Hill (curve)",
        HILL,
        {
            "road": True,
            "links": CURVE,
            "notes": "BGA mis-keys the road links; we link the road as drawn (curve)",
        },
    ),
    (
        "pcave",
        "Cave on Hill",
        HILL,
        {
            "impassable": VEHICLES,
            "cave": True,
            "cave_defense": (-2, -2, 0),
            "must_ignore_all_flags_jp": True,
        },
    ),
    ("mountain", "Mountains", MOUNTAIN, {}),
    (
        "pmcave",
        "Cave on Mountain",
        MOUNTAIN,
        {"cave": True, "cave_defense": (-2, -2, 0), "must_ignore_all_flags_jp": True},
    ),
    (
        "descarpment",
        "Escarpment",
        PLAIN,
        {"family": "escarpment", "impassable": ALL_CLASSES, "blocks_los": True},
    ),
    # --- water ---------------------------------------------------------------------------
    ("lakeA", "Rivers & Waterways, Lake", LAKE, {}),
    ("lakeB", "Rivers & Waterways, Lake", LAKE, {}),
    ("lakeC", "Rivers & Waterways, Lake", LAKE, {}),
    ("river", "Rivers & Waterways", RIVER, {}),
    ("riverFL", "Rivers & Waterways, Fork", RIVER, {}),
    ("riverFR", "Rivers & Waterways, Fork", RIVER, {}),
    ("riverY", "Rivers & Waterways, Headwaters & Forks", RIVER, {}),
    ("curve", "Rivers & Waterways (curve)", RIVER, {}),
    ("pond", "Rivers & Waterways, Headwaters (pond)", RIVER, {}),
    ("pmouth", "Rivers & Waterways, River Mouth", RIVER, {}),
    ("wriver", "Rivers & Waterways, Frozen", FROZEN, {}),
    ("wriverFR", "Rivers & Waterways, Frozen (fork)", FROZEN, {}),
    ("wcurved", "Rivers & Waterways, Frozen (curve)", FROZEN, {}),
    (
        "ford",
        "Rivers & Waterways, Fordable",
        BRIDGE,
        {
            "family": "ford",
            "must_stop": ALL_CLASSES,
            "firing_from": (-1, -1, -1),
            "no_sandbag": True,
        },
    ),
    # --- bridges -------------------------------------------------------------------------
    (
        "bridge",
        "Bridges",
        BRIDGE,
        {
            "notes": "004 transcription says a Bridge blocks LOS; the Pontoon/Railway Bridge "
            "entries and the vocabulary say it does not - we follow the latter"
        },
    ),
    ("pbridge", "Bridges (Pacific)", BRIDGE, {}),
    ("wbridge", "Bridges (winter)", BRIDGE, {}),
    (
        "bridge+BRIDGE_SECTION",
        "Bridge Section",
        BRIDGE,
        {"links": STRAIGHT, "edges_restricted": True},
    ),
    ("pontoon", "Bridge, Pontoon", BRIDGE, {}),
    ("railbridge", "Railway Bridge", BRIDGE, {"rail": True, "must_stop": VEHICLES}),
    ("wrailbridge", "Railway Bridge (winter)", BRIDGE, {"rail": True, "must_stop": VEHICLES}),
    ("brkbridge", "Broken Bridge", BRIDGE, {"bridge": False, "family": "broken_bridge"}),
    # --- roads ---------------------------------------------------------------------------
    ("road", "Roads", ROAD, {"links": STRAIGHT}),
    ("roadcurve", "Roads (curve)", ROAD, {"links": CURVE}),
    ("roadFL", "Roads (fork left)", ROAD, {"links": FORK_L}),
    ("roadFR", "Roads (fork right)", ROAD, {"links": FORK_R}),
    ("roadX", "Roads (crossing)", ROAD, {"links": CROSS}),
    ("roadY", "Roads (Y fork)", ROAD, {"links": FORK_Y}),
    ("droad", "Roads (desert)", ROAD, {"links": STRAIGHT}),
    ("droadX", "Roads (desert crossing)", ROAD, {"links": CROSS}),
    ("droadcurve", "Roads (desert curve)", ROAD, {"links": CURVE}),
    ("droadFL", "Roads (desert fork left)", ROAD, {"links": FORK_L}),
    ("droadFR", "Roads (desert fork right)", ROAD, {"links": FORK_R}),
    ("wroad", "Roads (winter)", ROAD, {"links": STRAIGHT}),
    ("wroadcurve", "Roads (winter curve)", ROAD, {"links": CURVE}),
    ("wroadFL", "Roads (winter fork left)", ROAD, {"links": FORK_L}),
    ("wroadFR", "Roads (winter fork right)", ROAD, {"links": FORK_R}),
    ("wroadX", "Roads (winter crossing)", ROAD, {"links": CROSS}),
    ("wroadY", "Roads (winter Y fork)", ROAD, {"links": FORK_Y}),
    # --- rails ---------------------------------------------------------------------------
    ("rail", "Railway Tracks", RAIL, {"links": STRAIGHT}),
    ("railcurve", "Railway Tracks (curve)", RAIL, {"links": CURVE}),
    ("railFL", "Railway Tracks (fork left)", RAIL, {"links": FORK_L}),
    ("railFR", "Railway Tracks (fork right)", RAIL, {"links": FORK_R}),
    ("railX", "Road Crossing A Railway", RAIL, {"links": CROSS, "road": True}),
    ("wrail", "Railway Tracks (winter)", RAIL, {"links": STRAIGHT}),
    ("wrailcurve", "Railway Tracks (winter curve)", RAIL, {"links": CURVE}),
    # --- obstacles -----------------------------------------------------------------------
    ("roadblock", "Roads, Road-Blocks", ROADBLOCK, {}),
    ("droadblock", "Roads, Road-Blocks (desert)", ROADBLOCK, {}),
    (
        "hedgehog",
        "Hedgehogs",
        PLAIN,
        {"family": "hedgehog", "slot": "obstacle", "impassable": VEHICLES, "ignore_flags": 1},
    ),
    (
        "dragonteeth",
        "Dragon's Teeth",
        PLAIN,
        {"family": "dragonteeth", "must_stop": INF, "impassable": VEHICLES},
    ),
    (
        "wire",
        "Barbed Wire",
        PLAIN,
        {
            "family": "wire",
            "slot": "obstacle",
            "must_stop": ALL_CLASSES,
            "firing_from": (-1, 0, 0),
            "removable": True,
            "infantry_may_remove": True,
            "armor_removes": True,
        },
    ),
    ("sand", "Sandbag Emplacements", SANDBAG, {}),
    (
        "sand+SEAWALL",
        "Sea Wall",
        SANDBAG,
        {
            "family": "seawall",
            "removable": False,
            "removed_when_vacated": False,
            "defense_owner_only": True,
            "defense_needs_owner": True,
            "ignore_flags_owner_only": True,
        },
    ),
    ("wtrenches", "Trenches (winter)", TRENCH, {}),
    ("ptrenches", "Trenches (Pacific)", TRENCH, {}),
    (
        "wravine",
        "Ravine",
        PLAIN,
        {
            "family": "ravine",
            "impassable": VEHICLES,
            "ignore_flags": 1,
            "ignore_flags_classes": INF,
        },
    ),
    ("marshes", "Marshes", MARSH, {}),
    ("wmarshes", "Marshes (winter)", MARSH, {}),
    ("price", "Rice Paddies", MARSH, {"family": "rice"}),
    # --- landmarks -----------------------------------------------------------------------
    (
        "oasis",
        "Oasis",
        PLAIN,
        {
            "family": "oasis",
            "must_stop": ALL_CLASSES,
            "defense": (-1, -1, 0),
            "ignore_flags": 1,
            "blocks_los": True,
            "heal_dice": -1,
        },
    ),
    ("phospital", "Hospital", PLAIN, {"family": "hospital", "blocks_los": True, "heal_dice": 6}),
    ("dcamp", "HQ & Supply Tents", PLAIN, {"family": "hq", "blocks_los": True, "hq_tent": True}),
    (
        "pheadquarter",
        "HQ & Supply Tents (Pacific)",
        PLAIN,
        {"family": "hq", "blocks_los": True, "hq_tent": True},
    ),
    ("cemetery", "Cemetery", PLAIN, {"family": "cemetery", "ignore_flags": 1}),
    (
        "dam",
        "Dams",
        PLAIN,
        {
            "family": "dam",
            "impassable": VEHICLES,
            "blocks_los": True,
            "ignore_flags": 1,
            "notes": "004 Dams: impassable to armor/artillery (BGA misspells the flag; we enforce it)",
        },
    ),
    ("depot", "Supply Depot", PLAIN, {"family": "depot", "blocks_los": True}),
    ("airfield", "Airfield", PLAIN, {"family": "airfield"}),
    ("airfieldX", "Airfield (centre)", PLAIN, {"family": "airfield"}),
    ("dairfield", "Airfield (desert)", PLAIN, {"family": "airfield"}),
    ("dairfieldX", "Airfield (desert centre)", PLAIN, {"family": "airfield"}),
    ("pairfield", "Airfield (Pacific)", PLAIN, {"family": "airfield"}),
    ("pairfieldX", "Airfield (Pacific centre)", PLAIN, {"family": "airfield"}),
    ("wairfield", "Airfield (winter)", PLAIN, {"family": "airfield"}),
    ("highground", "High Ground", PLAIN, {"family": "highground"}),
    ("pbeach", "Beaches (Pacific)", BEACH, {}),
    ("beach", "Beaches", BEACH, {"notes": "also the engine-made background beach rows"}),
    ("coast", "Coastline", BEACH, {}),
    ("coastcurve", "Coastline (curve)", BEACH, {}),
    ("wadi", "Wadis", WADI, {"links": STRAIGHT}),
    ("wcurve", "Wadis (curve)", WADI, {"links": CURVE}),
    (
        "ppier",
        "Pier",
        PLAIN,
        {"family": "pier", "notes": "BGA describes but does not enforce 'enter only from land'"},
    ),
    # --- codes outside BGA's current list (older editor palette; vocabulary 1.4) -----------
    (
        "railroad",
        "Railway Tracks",
        RAIL,
        {"links": STRAIGHT, "notes": "older editor name of the straight railroad tile (= rail)"},
    ),
    (
        "ravine",
        "Ravine",
        PLAIN,
        {
            "family": "ravine",
            "impassable": VEHICLES,
            "ignore_flags": 1,
            "ignore_flags_classes": INF,
            "notes": "country-face ravine/gully of the older palette: as wravine",
        },
    ),
    (
        "abatis",
        "Abatis",
        ROADBLOCK,
        {
            "slot": "obstacle",
            "family": "abatis",
            "notes": "felled-tree barrier of the older palette; no printed rule: played as a "
            "Road Block (infantry must stop, impassable to vehicles, -1/-1/0, 1 flag)",
        },
    ),
    (
        "barge",
        "Landing Craft",
        OCEAN,
        {
            "slot": "rect_terrain",
            "family": "barge",
            "impassable": NONE,
            "notes": "vocabulary 1.4: BGA cannot load it; we play it as the water it floats on "
            "(units aboard must stop, may not battle, leave 1 hex at a time, no retreat into it)",
        },
    ),
    (
        "pcarrier",
        "Aircraft Carrier",
        LAKE,
        {
            "slot": "rect_terrain",
            "family": "carrier",
            "lake": False,
            "notes": "vocabulary 1.4: BGA cannot load it; a decorative ship: impassable, no LOS effect",
        },
    ),
    # --- engine-made rows (no .m44 code) ---------------------------------------------------
    ("ocean", "Oceans", OCEAN, {}),
    ("sandbag", "Sandbag Emplacements (Dig In)", SANDBAG, {"slot": "engine"}),
    ("smoke", "Smoke Screen", PLAIN, {"family": "smoke", "slot": "engine", "blocks_los": True}),
]


def _build(code: str, name: str, profile: dict[str, Any], extra: dict[str, Any]) -> TerrainSpec:
    kw = {**profile, **extra}
    family = kw.pop("family")
    return TerrainSpec(code=code, name=name, family=family, **kw)


TERRAIN: dict[str, TerrainSpec] = {code: _build(code, name, p, x) for code, name, p, x in _ROWS}

RIVER_CODES: tuple[str, ...] = tuple(c for c, s in TERRAIN.items() if s.river)

# River behaviours (vocabulary 1.2): one derived row per river code, keyed "code+BEHAVIOR".
for _code in RIVER_CODES:
    _base = TERRAIN[_code]
    TERRAIN[f"{_code}+WIDE_RIVER"] = replace(
        _base,
        code=f"{_code}+WIDE_RIVER",
        name=_base.name + " (wide)",
        blocks_los_for=INF,
        notes="WIDE_RIVER blocks LOS for infantry-type attackers (vocabulary 1.2)",
    )
    TERRAIN[f"{_code}+FORDABLE_STREAM"] = replace(
        _base,
        code=f"{_code}+FORDABLE_STREAM",
        name="Fordable Stream",
        family="stream",
        river=False,
        must_stop=ALL_CLASSES,
        stop_allows_take_ground=True,
    )

#: Behaviours that modify any tile (vocabulary 1.2) as field overrides; ``None`` = no-op.
BEHAVIORS: dict[str, dict[str, Any] | None] = {
    "HILL": None,
    "MOUNTAIN": None,
    "HEADQUARTER": None,
    "OASIS_RECOVERY": None,
    "IMPASSABLE_HILL": {"impassable": ALL_CLASSES},
    "IMPASSABLE_BLOCKING_HILL": {
        "impassable": ALL_CLASSES,
        "blocks_los": True,
        "blocks_all_fire": True,
    },
    "CAN_BE_BLOWN": {"can_be_blown": True},
    "ONE_MEDAL_IF_BLOWN": {"medal_if_blown": 1},
}


def lookup(name: str, behavior: str | None = None) -> TerrainSpec:
    """The spec for ``.m44`` tile ``name`` with optional ``behavior`` (vocabulary 1.2).

    Resolution: the variant row ``"name+BEHAVIOR"`` if there is one; ``FORD`` on any tile
    gives the Ford row; a generic behaviour of :data:`BEHAVIORS` is applied to the base
    row.  Unknown names or behaviours raise ``KeyError``.
    """
    base = TERRAIN[name]
    if not behavior:
        return base
    variant = TERRAIN.get(f"{name}+{behavior}")
    if variant is not None:
        return variant
    if behavior == "FORD":
        return replace(TERRAIN["ford"], code=f"{name}+FORD", slot=base.slot)
    if behavior not in BEHAVIORS:
        raise KeyError(f"{name}+{behavior}")
    overrides = BEHAVIORS[behavior]
    return replace(base, code=f"{name}+{behavior}", **overrides) if overrides else base


def link_directions(spec: TerrainSpec, orientation: int) -> tuple[int, ...]:
    """Directions (indices into ``geometry.DIRECTIONS``) of the sides a tile connects.

    ``links`` are 60-degree steps counter-clockwise from east; orientation ``o`` rotates
    the tile counter-clockwise by ``o - 1`` steps (BGA ``getNeighboursInDirections``).
    ``geometry.DIRECTIONS`` runs clockwise from east, hence the sign flip.
    """
    return tuple(sorted({(-(orientation - 1) - s) % 6 for s in spec.links}))


_CLASS_WORDS = {"inf": "infantry", "armor": "armor", "art": "artillery"}


def _who(classes: frozenset[str]) -> str:
    if classes >= ALL_CLASSES:
        return "all units"
    return " and ".join(_CLASS_WORDS[c] for c in ("inf", "armor", "art") if c in classes)


def describe(spec: TerrainSpec) -> str:
    """A player-facing summary of a tile's effects, derived from its table row.

    Used for tooltips (board JSON ``effect``); the rules never read it.
    """
    parts: list[str] = []
    if spec.impassable:
        parts.append(f"impassable to {_who(spec.impassable)}")
    if spec.river:
        parts.append("impassable unless bridged")
    if spec.bridge:
        parts.append("lets units cross the river")
    if spec.must_stop:
        parts.append(f"{_who(spec.must_stop)} must stop on entering")
    if spec.only_first_step:
        parts.append("may be entered only as the first hex of a move")
    if spec.leave_one_hex:
        parts.append(f"{_who(spec.leave_one_hex)} leaving it move only 1 hex")
    if spec.move_cap:
        parts.append(f"a move entering it is limited to {spec.move_cap} hexes")
    if spec.road:
        parts.append("+1 hex for a move that stays on the road")
    if spec.no_battle_after_entering:
        parts.append(f"{_who(spec.no_battle_after_entering)} may not battle the turn they enter")
    if spec.no_battle_in:
        parts.append(f"{_who(spec.no_battle_in)} may not battle from here")
    if any(spec.defense):
        inf, arm, art = spec.defense
        cond = " (only vs attackers standing lower)" if spec.defense_if_attacker_lower else ""
        parts.append(
            f"dice against units here: infantry {inf:+d}, armor {arm:+d}, artillery {art:+d}{cond}"
        )
    if any(spec.firing_from):
        inf, arm, art = spec.firing_from
        parts.append(
            f"dice of units firing from here: infantry {inf:+d}, armor {arm:+d}, artillery {art:+d}"
        )
    if spec.ignore_flags:
        n = "all flags" if spec.ignore_flags >= 99 else f"{spec.ignore_flags} flag"
        parts.append(f"occupant may ignore {n}")
    parts.append("blocks line of sight" if spec.blocks_los else "does not block line of sight")
    return "; ".join(parts).capitalize() + "."
