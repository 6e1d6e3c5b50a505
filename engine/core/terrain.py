"""Terrain, rect_terrain and obstacle effects as data: one row per ``.m44`` code.

CONTRACT (shared by the loader and the rules): the rules code never branches on a
terrain *code*; it reads the fields of :class:`TerrainSpec`.  Several tiles may share a
hex (base terrain + rect_terrain + obstacle, plus engine-made ones such as sandbags from
Dig In); :func:`combine` folds them into one :class:`HexTerrain` summary.

Unit classes used in the frozensets below: ``"inf"``, ``"armor"``, ``"art"``
(every special unit is one of these base classes).  Dice modifiers are given as a tuple
``(vs_inf_attacker, vs_armor_attacker, vs_art_attacker)`` and are <= 0.

Sources: the printed rules (004 "Basic Tiles", "Obstacles", "Appendix 2 - Tiles From
Expansion Sets") where they say something, ``m44-vocabulary.md`` section 1.3 otherwise.
Deliberate departures from BGA are written in the row's ``notes``.

Additions to the original skeleton (all additive):

* :class:`TerrainSpec` fields ``blocks_los_for``, ``blocks_all_fire``, ``battle_max_moved``,
  ``no_take_ground_after_move``, ``no_overrun``, ``no_battle_after_leaving``,
  ``enter_cost_from_non_hill``, ``beach_edge_cost``, ``beach_edge_impassable``,
  ``no_take_ground_from_beach``, ``cave``, ``enter_from_min_elevation``,
  ``leave_to_min_elevation``, ``art_dice``, ``defense_defender_classes``,
  ``defense_needs_owner``, ``cave_defense``, ``wadi``, ``links``, ``edges_restricted``,
  ``entry_hazard_dice``, ``art_hits_on_star_only``, ``heal_dice``, ``hq_tent``,
  ``retreat_impassable``, ``infantry_may_remove``, ``armor_removes``,
  ``removed_when_vacated``, ``engineer_removable``, ``can_be_blown``, ``medal_if_blown``,
  ``station``, ``must_ignore_all_flags_jp`` -- see the comments on each field;
* the same fields (merged) on :class:`HexTerrain`, plus ``river``, ``bridge`` and
  ``cover_blocks_los`` (a blocking tile that is not part of a hill/mountain mass);
* ``Tile.behavior2`` and ``Tile.properties``;
* ``HexTerrain.defense_against(..., defender_class=None, defender_nation=None,
  attacker_terrain=None)`` keyword arguments, ``HexTerrain.flags_ignorable(...,
  unit_nation=None)``, ``HexTerrain.blocks_los_against(attacker_class)``;
* :func:`lookup`, :func:`link_directions`, :data:`BEHAVIORS`, :data:`OPEN`.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Callable

ALL_CLASSES: frozenset[str] = frozenset({"inf", "armor", "art"})
NONE: frozenset[str] = frozenset()
CLASS_INDEX = {"inf": 0, "armor": 1, "art": 2}
INF: frozenset[str] = frozenset({"inf"})
ARMOR: frozenset[str] = frozenset({"armor"})
ART: frozenset[str] = frozenset({"art"})
VEHICLES: frozenset[str] = frozenset({"armor", "art"})   # "only Infantry may enter"
ALL_FLAGS = 99


@dataclass(frozen=True, slots=True)
class TerrainSpec:
    code: str                      # .m44 code, e.g. "woods" (variants keyed "hills+BLUFF")
    name: str                      # rulebook name, e.g. "Woods & Forests"
    family: str                    # "open","forest","hill","mountain","village","river","bridge",
                                   # "road","rail","beach","ocean","marsh","bunker","sandbag",
                                   # "wire","hedgehog","trench","lake","hedgerow", ...
    slot: str = "terrain"          # "terrain" | "rect_terrain" | "obstacle" | "engine"
    # --- movement -------------------------------------------------------------------
    impassable: frozenset[str] = NONE        # classes that may never enter (move/retreat/take ground)
    must_stop: frozenset[str] = NONE         # classes that must end their move on entering
    stop_allows_take_ground: bool = False    # must stop, but take ground/overrun may continue
    only_first_step: bool = False            # may be entered only as the first hex of a move
    leave_one_hex: frozenset[str] = NONE     # classes starting here may move only 1 hex
    move_cap: int | None = None              # a move entering this hex is capped (beach: 2)
    enter_cost: int = 1                      # movement points to enter (steep hill from non-hill: 2)
    river: bool = False                      # impassable unless a bridge/ford tile shares the hex
    bridge: bool = False                     # makes a river hex passable
    road: bool = False                       # road bonus (+1 move along connected road)
    rail: bool = False
    beach: bool = False
    ocean: bool = False
    cannot_leave: frozenset[str] = NONE      # classes already inside never leave (art in bunker)
    # --- battle ---------------------------------------------------------------------
    defense: tuple[int, int, int] = (0, 0, 0)   # dice modifier vs attacker (inf, armor, art)
    defense_if_attacker_lower: bool = False     # hills: only when the attacker stands lower
    defense_owner_only: bool = False            # bunker/seawall: only protects its original owner
    firing_from: tuple[int, int, int] = (0, 0, 0)  # dice modifier for a unit firing out of the hex
    no_battle_after_entering: frozenset[str] = NONE  # classes that may not battle the turn they moved in
    no_battle_in: frozenset[str] = NONE        # classes that may never battle from here (ocean, trench armor)
    ignore_flags: int = 0                      # flags the occupant may ignore (99 = all)
    ignore_flags_classes: frozenset[str] = ALL_CLASSES  # who may use ignore_flags
    ignore_flags_owner_only: bool = False      # bunker: only the original owner side
    # --- line of sight ----------------------------------------------------------------
    blocks_los: bool = False
    elevation: int = 0                         # 0 flat, 1 hill, 2 mountain
    mass: str | None = None                    # "hill" | "mountain": contiguous-mass plateau rule
    lake: bool = False                         # blocks LOS only when the line crosses 2+ lake hexes
    # --- misc -------------------------------------------------------------------------
    removable: bool = False                    # wire/sandbag: can be removed during play
    no_sandbag: bool = False                   # Dig In may not place a sandbag here (ocean, ford)
    notes: str = ""                            # rulebook / vocabulary citation
    # --- additions (see module docstring) ---------------------------------------------
    blocks_los_for: frozenset[str] = NONE      # attacker classes whose LOS it blocks (WIDE_RIVER: inf)
    blocks_all_fire: bool = False              # IMPASSABLE_BLOCKING_HILL: blocks even no-LOS fire
    battle_max_moved: int | None = None        # jungle: may battle only after moving <= 1 hex
    no_take_ground_after_move: frozenset[str] = NONE  # jungle: armor that moved cannot take ground in
    no_overrun: bool = False                   # marsh: armor taking ground into it may not overrun
    no_battle_after_leaving: frozenset[str] = NONE    # marsh: armor cannot battle the turn it leaves
    enter_cost_from_non_hill: bool = False     # enter_cost applies only from a hex that is not
                                               # part of a hill mass (steep hill, vocabulary 1.3)
    beach_edge_cost: int = 0                   # bluff/cliff: cost for infantry crossing to/from beach
    beach_edge_impassable: frozenset[str] = NONE   # bluff/cliff: classes that never cross from/to beach
    no_take_ground_from_beach: frozenset[str] = NONE  # cliff: infantry may not take ground up from beach
    cave: bool = False                         # cave hexes (cave-to-cave moves, sealing)
    enter_from_min_elevation: int = 0          # mountain: enter only from a hill/mountain-mass hex
                                               # of at least this level (HexTerrain.hill_level)
    leave_to_min_elevation: int = 0            # mountain: leave only to such a hex
    art_dice: tuple[int, ...] | None = None    # artillery firing from here uses these dice (mountain)
    defense_defender_classes: frozenset[str] = ALL_CLASSES  # defenders protected (roadblock: inf)
    defense_needs_owner: bool = False          # seawall: no original owner -> protects nobody
    cave_defense: tuple[int, int, int] | None = None  # vs Japanese infantry inside a cave
    wadi: bool = False                         # wadi: shots into/out of it need range 1
    links: tuple[int, ...] = ()                # tile sides connected (60deg steps CCW from east)
    edges_restricted: bool = False             # enter/leave only through ``links`` sides
    entry_hazard_dice: int = 0                 # frozen river: dice rolled on entering (star = hit)
    art_hits_on_star_only: bool = False        # fortress: artillery hits only on stars
    heal_dice: int = 0                         # hospital: 6; oasis: -1 = hand size + 1
    hq_tent: bool = False                      # HQ & supply tents card effect
    retreat_impassable: frozenset[str] = NONE  # ocean: never a retreat hex
    infantry_may_remove: bool = False          # wire: infantry may remove it instead of battling
    armor_removes: bool = False                # wire: armor entering/battling out removes it
    removed_when_vacated: bool = False         # sandbag: removed when the unit leaves/dies
    engineer_removable: bool = False           # roadblock: engineer may remove instead of battling
    can_be_blown: bool = False                 # bridge behaviour CAN_BE_BLOWN
    medal_if_blown: int = 0                    # bridge behaviour2 ONE_MEDAL_IF_BLOWN
    station: bool = False                      # railroad station (supply train)
    must_ignore_all_flags_jp: bool = False     # cave: Japanese infantry must ignore all flags


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile as placed on a hex by a scenario (or by the game, e.g. Dig In)."""

    spec: TerrainSpec
    orientation: int = 1
    owner: str | None = None        # "AXIS" | "ALLIES" | None (bunkers, sea walls)
    behavior: str | None = None
    behavior2: str | None = None    # addition: e.g. ONE_MEDAL_IF_BLOWN
    properties: tuple[tuple[str, Any], ...] = ()  # addition: raw ``properties`` overrides


# Fields of TerrainSpec that are merged into HexTerrain, with how (see ``combine``).
def _union(vals: list[Any]) -> frozenset[str]:
    out: frozenset[str] = NONE
    for v in vals:
        out |= v
    return out


def _min_opt(vals: list[Any]) -> Any:
    present = [v for v in vals if v is not None]
    return min(present) if present else None


def _first(vals: list[Any]) -> Any:
    return next((v for v in vals if v), None)


def _min_tuple(vals: list[tuple[int, int, int]]) -> tuple[int, int, int]:
    return tuple(min(v[i] for v in vals) for i in range(3)) if vals else (0, 0, 0)  # type: ignore


_MERGE: dict[str, Callable[[list[Any]], Any]] = {
    "impassable": _union, "must_stop": _union, "leave_one_hex": _union,
    "cannot_leave": _union, "no_battle_after_entering": _union, "no_battle_in": _union,
    "blocks_los_for": _union, "no_take_ground_after_move": _union,
    "no_battle_after_leaving": _union, "beach_edge_impassable": _union,
    "no_take_ground_from_beach": _union, "retreat_impassable": _union,
    "only_first_step": any, "road": any, "rail": any, "beach": any, "ocean": any,
    "blocks_los": any, "lake": any, "no_sandbag": any, "river": any, "bridge": any,
    "blocks_all_fire": any, "no_overrun": any, "enter_cost_from_non_hill": any, "cave": any,
    "wadi": any, "art_hits_on_star_only": any, "hq_tent": any, "station": any,
    "must_ignore_all_flags_jp": any, "edges_restricted": any,
    "move_cap": _min_opt, "battle_max_moved": _min_opt,
    "enter_cost": max, "elevation": max, "beach_edge_cost": max,
    "enter_from_min_elevation": max, "leave_to_min_elevation": max,
    "entry_hazard_dice": max,
    "firing_from": _min_tuple,
    "art_dice": _first, "links": _first,
    "heal_dice": lambda xs: next((x for x in xs if x), 0),
}


@dataclass(frozen=True, slots=True)
class HexTerrain:
    """The combined effect of every tile on one hex (see :func:`combine`)."""

    tiles: tuple[Tile, ...] = ()
    impassable: frozenset[str] = NONE
    must_stop: frozenset[str] = NONE
    stop_allows_take_ground: bool = False
    only_first_step: bool = False
    leave_one_hex: frozenset[str] = NONE
    move_cap: int | None = None
    enter_cost: int = 1
    road: bool = False
    rail: bool = False
    beach: bool = False
    ocean: bool = False
    cannot_leave: frozenset[str] = NONE
    no_battle_after_entering: frozenset[str] = NONE
    no_battle_in: frozenset[str] = NONE
    firing_from: tuple[int, int, int] = (0, 0, 0)
    blocks_los: bool = False
    elevation: int = 0
    mass: str | None = None
    lake: bool = False
    no_sandbag: bool = False
    # --- additions (merged from the TerrainSpec fields of the same name) ---------------
    river: bool = False              # a river tile is present (passable only if ``bridge``)
    bridge: bool = False             # a bridge/ford tile is present
    blocks_los_for: frozenset[str] = NONE
    blocks_all_fire: bool = False
    battle_max_moved: int | None = None
    no_take_ground_after_move: frozenset[str] = NONE
    no_overrun: bool = False
    no_battle_after_leaving: frozenset[str] = NONE
    enter_cost_from_non_hill: bool = False
    beach_edge_cost: int = 0
    beach_edge_impassable: frozenset[str] = NONE
    no_take_ground_from_beach: frozenset[str] = NONE
    cave: bool = False
    enter_from_min_elevation: int = 0
    leave_to_min_elevation: int = 0
    art_dice: tuple[int, ...] | None = None
    wadi: bool = False
    links: tuple[int, ...] = ()
    edges_restricted: bool = False
    entry_hazard_dice: int = 0
    art_hits_on_star_only: bool = False
    hq_tent: bool = False
    heal_dice: int = 0               # oasis (-1: hand size + 1) / hospital (6) heal action
    retreat_impassable: frozenset[str] = NONE
    station: bool = False
    must_ignore_all_flags_jp: bool = False
    cover_blocks_los: bool = False   # a blocking tile that is not a hill/mountain mass (LOS)

    @property
    def hill_level(self) -> int:
        """Elevation of the hill or mountain mass this hex belongs to; 0 when the hex is
        not part of one, even if elevated (hill with forest / village: vocabulary 1.3
        "elevation 1 (but not a 'hill' for hill-mass LOS or mountain access)")."""
        return self.elevation if self.mass else 0

    def defense_against(self, attacker_class: str, attacker_side: str, attacker_elevation: int,
                        *, defender_class: str | None = None, defender_nation: str | None = None,
                        attacker_terrain: HexTerrain | None = None) -> int:
        """Dice modifier (<= 0) for an attacker of ``attacker_class`` shooting into this hex.

        Not additive: the most negative applicable value wins (004 "Obstacles": "only the
        highest Battle Dice reduction counts").  Hill/mountain reductions apply only when
        the attacker stands lower (004 "Hills", "Mountains"); bunker/sea-wall reductions
        only against attackers not of the tile's original owner (004 "Bunkers"); a wadi
        protects only against attackers outside a wadi (004 "Wadis").  Optional keywords
        (additions): ``defender_class`` (roadblock protects infantry only),
        ``defender_nation`` (Japanese infantry in caves), ``attacker_terrain`` (wadi).
        """
        idx = CLASS_INDEX[attacker_class]
        best = 0
        for tile in self.tiles:
            spec = tile.spec
            if spec.cave_defense is not None and defender_nation == "jp" and defender_class == "inf":
                best = min(best, spec.cave_defense[idx])
                continue
            if not _defense_applies(tile, attacker_side, attacker_elevation, defender_class,
                                    attacker_terrain):
                continue
            best = min(best, spec.defense[idx])
        return best

    def flags_ignorable(self, unit_class: str, unit_side: str, *,
                        unit_nation: str | None = None) -> int:
        """How many flags the occupant of this hex may ignore because of terrain.

        Not cumulative between tiles (004 "Obstacles": a sandbag in a village still lets
        the unit ignore only the first flag).  99 = all (fortress; Japanese infantry in a
        cave, vocabulary 1.3 ``pcave``, when ``unit_nation`` is given).
        """
        best = 0
        for tile in self.tiles:
            spec = tile.spec
            if spec.must_ignore_all_flags_jp and unit_nation == "jp" and unit_class == "inf":
                return ALL_FLAGS
            if unit_class not in spec.ignore_flags_classes:
                continue
            if spec.ignore_flags_owner_only and tile.owner not in (None, unit_side):
                continue
            best = max(best, spec.ignore_flags)
        return best

    def blocks_los_against(self, attacker_class: str) -> bool:
        """True when the terrain of this (intervening) hex blocks LOS for that attacker."""
        return self.blocks_los or attacker_class in self.blocks_los_for


def _defense_applies(tile: Tile, attacker_side: str, attacker_elevation: int,
                     defender_class: str | None, attacker_terrain: HexTerrain | None) -> bool:
    spec = tile.spec
    if spec.defense_if_attacker_lower and attacker_elevation >= spec.elevation:
        return False
    if spec.defense_owner_only:
        if tile.owner is None:
            return not spec.defense_needs_owner
        if attacker_side == tile.owner:
            return False
    if defender_class is not None and defender_class not in spec.defense_defender_classes:
        return False
    return not (spec.wadi and attacker_terrain is not None and attacker_terrain.wadi)


def _mass(specs: list[TerrainSpec]) -> str | None:
    masses = [s.mass for s in specs if s.mass]
    if "mountain" in masses:
        return "mountain"
    return masses[0] if masses else None


def combine(tiles: tuple[Tile, ...]) -> HexTerrain:
    """Fold the tiles of one hex into a :class:`HexTerrain` (OR of flags, min of modifiers).

    A river tile makes the hex impassable to everybody unless a bridge or ford tile shares
    the hex (004 "Rivers & Waterways": "A Unit may only enter a River hex on a Bridge");
    a bridge also cancels the frozen-river entry roll (vocabulary 1.3).
    """
    specs = [t.spec for t in tiles]
    merged: dict[str, Any] = {name: op([getattr(s, name) for s in specs])
                              for name, op in _MERGE.items()} if specs else {}
    stoppers = [s for s in specs if s.must_stop]
    merged["stop_allows_take_ground"] = bool(stoppers) and all(
        s.stop_allows_take_ground for s in stoppers)
    merged["mass"] = _mass(specs)
    merged["cover_blocks_los"] = any(s.blocks_los and not s.mass for s in specs)
    if merged.get("bridge"):
        merged["entry_hazard_dice"] = 0
    elif merged.get("river"):
        merged["impassable"] = ALL_CLASSES
    return HexTerrain(tiles=tiles, **merged)


OPEN = HexTerrain()
"""Open countryside (004 "Open Countryside"): a hex without any tile."""


# ---------------------------------------------------------------------------------------
# Profiles: shared behaviour of tile families, quoted from the rules.  Each TERRAIN row
# below is one code = one profile + its own name/overrides.
# ---------------------------------------------------------------------------------------

_COVER = {"defense": (-1, -2, 0), "blocks_los": True}
#: 004 "Woods & Forests": must stop, no battle the turn it moves in, -1/-2/0, blocks LOS.
FOREST: dict[str, Any] = {"family": "forest", "must_stop": ALL_CLASSES,
                          "no_battle_after_entering": ALL_CLASSES, **_COVER}
#: 004 "Towns & Villages": as forest, plus an armor unit inside fires at -2.
VILLAGE: dict[str, Any] = {**FOREST, "family": "village", "firing_from": (0, -2, 0)}
#: 004 "Hills": -1 for infantry/armor attackers standing lower; plateau LOS rule.
HILL: dict[str, Any] = {"family": "hill", "defense": (-1, -1, 0), "defense_if_attacker_lower": True,
                        "blocks_los": True, "elevation": 1, "mass": "hill"}
#: 004 "Mountains".
MOUNTAIN: dict[str, Any] = {"family": "mountain", "defense": (-2, -2, 0),
                            "defense_if_attacker_lower": True, "blocks_los": True,
                            "elevation": 2, "mass": "mountain", "impassable": VEHICLES,
                            "cannot_leave": ART, "enter_from_min_elevation": 1,
                            "leave_to_min_elevation": 1, "art_dice": (3, 3, 2, 2, 1, 1, 1)}
#: 004 "Rivers & Waterways, Normal": impassable unless bridged; no LOS effect.
RIVER: dict[str, Any] = {"family": "river", "river": True}
#: 004 "Bridges".
BRIDGE: dict[str, Any] = {"family": "bridge", "slot": "rect_terrain", "bridge": True}
#: 004 "Roads": +1 move along a connected road.
ROAD: dict[str, Any] = {"family": "road", "road": True}
#: 004 "Railway Tracks": armor/artillery must stop (but may take ground/overrun).
RAIL: dict[str, Any] = {"family": "rail", "rail": True, "must_stop": VEHICLES,
                        "stop_allows_take_ground": True}
#: 004 "Beaches": a move onto beach is capped at 2 hexes.
BEACH: dict[str, Any] = {"family": "beach", "beach": True, "move_cap": 2}
#: 004 "Marshes".
MARSH: dict[str, Any] = {"family": "marsh", "must_stop": ALL_CLASSES, "leave_one_hex": ALL_CLASSES,
                         "impassable": ART, "no_battle_after_entering": ARMOR,
                         "no_battle_after_leaving": ARMOR, "no_overrun": True}
#: 004 "Bunkers": only infantry may enter; A/Art inside never leave; -1/-2/0; 1 flag.
_BUNKERISH: dict[str, Any] = {"slot": "rect_terrain", "impassable": VEHICLES,
                              "cannot_leave": VEHICLES, "ignore_flags": 1, **_COVER}
BUNKER: dict[str, Any] = {**_BUNKERISH, "family": "bunker", "defense_owner_only": True,
                          "ignore_flags_owner_only": True}
FIELD_BUNKER: dict[str, Any] = {**_BUNKERISH, "family": "bunker"}
#: Appendix 2 "Trenches".
TRENCH: dict[str, Any] = {"family": "trench", "must_stop": frozenset({"inf", "armor"}),
                          "impassable": ART, "no_battle_in": ARMOR, "defense": (-1, -1, 0),
                          "ignore_flags": 1, "ignore_flags_classes": INF}
#: 1.3 Airfields/High Ground: no rule effect.
PLAIN: dict[str, Any] = {"family": "open"}
#: 004 "Oceans" (engine-made background rows).
OCEAN: dict[str, Any] = {"family": "ocean", "slot": "engine", "ocean": True,
                         "must_stop": ALL_CLASSES, "leave_one_hex": ALL_CLASSES,
                         "no_battle_in": ALL_CLASSES, "retreat_impassable": ALL_CLASSES,
                         "no_sandbag": True}
#: Appendix 2 "Wadis": sides impassable, -1/-1/-1 unless attacker in a wadi, range 1 across.
WADI: dict[str, Any] = {"family": "wadi", "defense": (-1, -1, -1), "wadi": True,
                        "edges_restricted": True}
#: Appendix 2 "Lake": impassable; LOS blocked only across 2+ lake hexes.
LAKE: dict[str, Any] = {"family": "lake", "impassable": ALL_CLASSES, "lake": True}
#: Appendix 2 "Rivers & Waterways, Frozen": passable, 2 dice on entering (star = hit).
FROZEN: dict[str, Any] = {"family": "frozen_river", "entry_hazard_dice": 2}
#: Appendix 2 "Roads, Road-Blocks".
ROADBLOCK: dict[str, Any] = {"family": "roadblock", "must_stop": INF, "impassable": VEHICLES,
                             "defense": (-1, -1, 0), "defense_defender_classes": INF,
                             "ignore_flags": 1, "engineer_removable": True,
                             "notes": "004: protects an occupying infantry unit only"}
#: Vocabulary 1.3 Sea Bluff / Cliff (on a hill).
BLUFF: dict[str, Any] = {**HILL, "beach_edge_cost": 2, "beach_edge_impassable": VEHICLES}
CLIFF: dict[str, Any] = {**BLUFF, "no_take_ground_from_beach": INF}
#: 004 "Sandbag Emplacements".
SANDBAG: dict[str, Any] = {"family": "sandbag", "slot": "obstacle", "defense": (-1, -1, 0),
                           "ignore_flags": 1, "removable": True, "removed_when_vacated": True}

# Road/rail/wadi shapes: connected sides in 60-degree steps counter-clockwise from east
# (vocabulary 1.3 "tile shape fixes which neighbours are connected").
STRAIGHT, CURVE, FORK_L, FORK_R, CROSS, FORK_Y = (0, 3), (1, 5), (0, 1, 3), (0, 3, 5), (0, 1, 3, 4), (0, 2, 4)

_ROWS: list[tuple[str, str, dict[str, Any], dict[str, Any]]] = [
    # code, rulebook name, profile, overrides
    # --- forests -------------------------------------------------------------------------
    ("woods", "Woods & Forests", FOREST, {}),
    ("wforest", "Woods & Forests, Winter", FOREST, {}),
    ("palmtrees", "Palm Trees", FOREST, {}),
    ("whillforest", "Hill With Woods & Forests", FOREST,
     {"elevation": 1, "notes": "elevation 1 but no hill mass (vocabulary 1.3)"}),
    ("pjungle", "Jungle", FOREST,
     {"family": "jungle", "no_battle_after_entering": NONE, "stop_allows_take_ground": True,
      "battle_max_moved": 1, "no_take_ground_after_move": ARMOR}),
    ("hedgerow", "Hedgerows", FOREST,
     {"family": "hedgerow", "only_first_step": True, "leave_one_hex": ALL_CLASSES}),
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
    ("powerplant", "Power Plant", VILLAGE, {"notes": "004: scenario rules; vocabulary: as Village"}),
    ("whillvillage", "Towns & Villages, Hill With Village", VILLAGE,
     {"elevation": 1, "notes": "elevation 1 but no hill mass (vocabulary 1.3)"}),
    ("station", "Railway Station", VILLAGE, {"rail": True, "station": True}),
    ("wruins", "Towns & Villages, City Ruins", VILLAGE,
     {"impassable": VEHICLES, "firing_from": (0, 0, 0), "ignore_flags": 1,
      "ignore_flags_classes": INF}),
    ("camp", "Prison Camp", VILLAGE, {"ignore_flags": 1}),
    ("radar", "Towns & Villages, Radar Station", VILLAGE,
     {"no_battle_after_entering": NONE, "defense": (-1, -1, 0), "ignore_flags": 1,
      "notes": "004 Radar Station: may battle after entering, -1 for infantry and armor"}),
    ("fortress", "Bunkers, Fortress", FIELD_BUNKER,
     {"family": "fortress", "slot": "terrain", "cannot_leave": ART, "ignore_flags": ALL_FLAGS,
      "art_hits_on_star_only": True}),
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
    ("hillroad", "Road Over A Hill", HILL,
     {"road": True, "links": STRAIGHT,
      "notes": "BGA mis-keys the road links; we link the road as drawn (straight)"}),
    ("hillcurve", "Road Over A Hill (curve)", HILL,
     {"road": True, "links": CURVE,
      "notes": "BGA mis-keys the road links; we link the road as drawn (curve)"}),
    ("pcave", "Cave on Hill", HILL,
     {"impassable": VEHICLES, "cave": True, "cave_defense": (-2, -2, 0),
      "must_ignore_all_flags_jp": True}),
    ("mountain", "Mountains", MOUNTAIN, {}),
    ("pmcave", "Cave on Mountain", MOUNTAIN,
     {"cave": True, "cave_defense": (-2, -2, 0), "must_ignore_all_flags_jp": True}),
    ("descarpment", "Escarpment", PLAIN,
     {"family": "escarpment", "impassable": ALL_CLASSES, "blocks_los": True}),
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
    ("ford", "Rivers & Waterways, Fordable", BRIDGE,
     {"family": "ford", "must_stop": ALL_CLASSES, "firing_from": (-1, -1, -1), "no_sandbag": True}),
    # --- bridges -------------------------------------------------------------------------
    ("bridge", "Bridges", BRIDGE,
     {"notes": "004 transcription says a Bridge blocks LOS; the Pontoon/Railway Bridge "
               "entries and the vocabulary say it does not - we follow the latter"}),
    ("pbridge", "Bridges (Pacific)", BRIDGE, {}),
    ("wbridge", "Bridges (winter)", BRIDGE, {}),
    ("bridge+BRIDGE_SECTION", "Bridge Section", BRIDGE, {"links": STRAIGHT, "edges_restricted": True}),
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
    ("hedgehog", "Hedgehogs", PLAIN,
     {"family": "hedgehog", "slot": "obstacle", "impassable": VEHICLES, "ignore_flags": 1}),
    ("dragonteeth", "Dragon's Teeth", PLAIN,
     {"family": "dragonteeth", "must_stop": INF, "impassable": VEHICLES}),
    ("wire", "Barbed Wire", PLAIN,
     {"family": "wire", "slot": "obstacle", "must_stop": ALL_CLASSES, "firing_from": (-1, 0, 0),
      "removable": True, "infantry_may_remove": True, "armor_removes": True}),
    ("sand", "Sandbag Emplacements", SANDBAG, {}),
    ("sand+SEAWALL", "Sea Wall", SANDBAG,
     {"family": "seawall", "removable": False, "removed_when_vacated": False,
      "defense_owner_only": True, "defense_needs_owner": True, "ignore_flags_owner_only": True}),
    ("wtrenches", "Trenches (winter)", TRENCH, {}),
    ("ptrenches", "Trenches (Pacific)", TRENCH, {}),
    ("wravine", "Ravine", PLAIN,
     {"family": "ravine", "impassable": VEHICLES, "ignore_flags": 1, "ignore_flags_classes": INF}),
    ("marshes", "Marshes", MARSH, {}),
    ("wmarshes", "Marshes (winter)", MARSH, {}),
    ("price", "Rice Paddies", MARSH, {"family": "rice"}),
    # --- landmarks -----------------------------------------------------------------------
    ("oasis", "Oasis", PLAIN,
     {"family": "oasis", "must_stop": ALL_CLASSES, "defense": (-1, -1, 0), "ignore_flags": 1,
      "blocks_los": True, "heal_dice": -1}),
    ("phospital", "Hospital", PLAIN, {"family": "hospital", "blocks_los": True, "heal_dice": 6}),
    ("dcamp", "HQ & Supply Tents", PLAIN, {"family": "hq", "blocks_los": True, "hq_tent": True}),
    ("pheadquarter", "HQ & Supply Tents (Pacific)", PLAIN,
     {"family": "hq", "blocks_los": True, "hq_tent": True}),
    ("cemetery", "Cemetery", PLAIN, {"family": "cemetery", "ignore_flags": 1}),
    ("dam", "Dams", PLAIN,
     {"family": "dam", "impassable": VEHICLES, "blocks_los": True, "ignore_flags": 1,
      "notes": "004 Dams: impassable to armor/artillery (BGA misspells the flag; we enforce it)"}),
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
    ("ppier", "Pier", PLAIN,
     {"family": "pier", "notes": "BGA describes but does not enforce 'enter only from land'"}),
    # --- codes outside BGA's current list (older editor palette; vocabulary 1.4) -----------
    ("railroad", "Railway Tracks", RAIL,
     {"links": STRAIGHT, "notes": "older editor name of the straight railroad tile (= rail)"}),
    ("ravine", "Ravine", PLAIN,
     {"family": "ravine", "impassable": VEHICLES, "ignore_flags": 1, "ignore_flags_classes": INF,
      "notes": "country-face ravine/gully of the older palette: as wravine"}),
    ("abatis", "Abatis", ROADBLOCK,
     {"slot": "obstacle", "family": "abatis",
      "notes": "felled-tree barrier of the older palette; no printed rule: played as a "
               "Road Block (infantry must stop, impassable to vehicles, -1/-1/0, 1 flag)"}),
    ("barge", "Landing Craft", OCEAN,
     {"slot": "rect_terrain", "family": "barge", "impassable": NONE,
      "notes": "vocabulary 1.4: BGA cannot load it; we play it as the water it floats on "
               "(units aboard must stop, may not battle, leave 1 hex at a time, no retreat into it)"}),
    ("pcarrier", "Aircraft Carrier", LAKE,
     {"slot": "rect_terrain", "family": "carrier", "lake": False,
      "notes": "vocabulary 1.4: BGA cannot load it; a decorative ship: impassable, no LOS effect"}),
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
        _base, code=f"{_code}+WIDE_RIVER", name=_base.name + " (wide)", blocks_los_for=INF,
        notes="WIDE_RIVER blocks LOS for infantry-type attackers (vocabulary 1.2)")
    TERRAIN[f"{_code}+FORDABLE_STREAM"] = replace(
        _base, code=f"{_code}+FORDABLE_STREAM", name="Fordable Stream", family="stream",
        river=False, must_stop=ALL_CLASSES, stop_allows_take_ground=True)

#: Behaviours that modify any tile (vocabulary 1.2) as field overrides; ``None`` = no-op.
BEHAVIORS: dict[str, dict[str, Any] | None] = {
    "HILL": None, "MOUNTAIN": None, "HEADQUARTER": None, "OASIS_RECOVERY": None,
    "IMPASSABLE_HILL": {"impassable": ALL_CLASSES},
    "IMPASSABLE_BLOCKING_HILL": {"impassable": ALL_CLASSES, "blocks_los": True,
                                 "blocks_all_fire": True},
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
        parts.append(f"dice against units here: infantry {inf:+d}, armor {arm:+d}, "
                     f"artillery {art:+d}{cond}")
    if any(spec.firing_from):
        inf, arm, art = spec.firing_from
        parts.append(f"dice of units firing from here: infantry {inf:+d}, armor {arm:+d}, "
                     f"artillery {art:+d}")
    if spec.ignore_flags:
        n = "all flags" if spec.ignore_flags >= 99 else f"{spec.ignore_flags} flag"
        parts.append(f"occupant may ignore {n}")
    parts.append("blocks line of sight" if spec.blocks_los else "does not block line of sight")
    return "; ".join(parts).capitalize() + "."
