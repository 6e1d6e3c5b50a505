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
* :data:`OPEN`; the table itself (:data:`TERRAIN`, :func:`lookup`, :func:`link_directions`,
  :data:`BEHAVIORS`) is :mod:`engine.core.terrain_table`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

ALL_CLASSES: frozenset[str] = frozenset({"inf", "armor", "art"})
NONE: frozenset[str] = frozenset()
CLASS_INDEX = {"inf": 0, "armor": 1, "art": 2}
INF: frozenset[str] = frozenset({"inf"})
ARMOR: frozenset[str] = frozenset({"armor"})
ART: frozenset[str] = frozenset({"art"})
VEHICLES: frozenset[str] = frozenset({"armor", "art"})  # "only Infantry may enter"
ALL_FLAGS = 99


@dataclass(frozen=True, slots=True)
class TerrainSpec:
    code: str  # .m44 code, e.g. "woods" (variants keyed "hills+BLUFF")
    name: str  # rulebook name, e.g. "Woods & Forests"
    family: str  # "open","forest","hill","mountain","village","river","bridge",
    # "road","rail","beach","ocean","marsh","bunker","sandbag",
    # "wire","hedgehog","trench","lake","hedgerow", ...
    slot: str = "terrain"  # "terrain" | "rect_terrain" | "obstacle" | "engine"
    # --- movement -------------------------------------------------------------------
    impassable: frozenset[str] = NONE  # classes that may never enter (move/retreat/take ground)
    must_stop: frozenset[str] = NONE  # classes that must end their move on entering
    stop_allows_take_ground: bool = False  # must stop, but take ground/overrun may continue
    only_first_step: bool = False  # may be entered only as the first hex of a move
    leave_one_hex: frozenset[str] = NONE  # classes starting here may move only 1 hex
    move_cap: int | None = None  # a move entering this hex is capped (beach: 2)
    enter_cost: int = 1  # movement points to enter (steep hill from non-hill: 2)
    river: bool = False  # impassable unless a bridge/ford tile shares the hex
    bridge: bool = False  # makes a river hex passable
    road: bool = False  # road bonus (+1 move along connected road)
    rail: bool = False
    beach: bool = False
    ocean: bool = False
    cannot_leave: frozenset[str] = NONE  # classes already inside never leave (art in bunker)
    # --- battle ---------------------------------------------------------------------
    defense: tuple[int, int, int] = (0, 0, 0)  # dice modifier vs attacker (inf, armor, art)
    defense_if_attacker_lower: bool = False  # hills: only when the attacker stands lower
    defense_owner_only: bool = False  # bunker/seawall: only protects its original owner
    firing_from: tuple[int, int, int] = (0, 0, 0)  # dice modifier for a unit firing out of the hex
    no_battle_after_entering: frozenset[str] = (
        NONE  # classes that may not battle the turn they moved in
    )
    no_battle_in: frozenset[str] = (
        NONE  # classes that may never battle from here (ocean, trench armor)
    )
    ignore_flags: int = 0  # flags the occupant may ignore (99 = all)
    ignore_flags_classes: frozenset[str] = ALL_CLASSES  # who may use ignore_flags
    ignore_flags_owner_only: bool = False  # bunker: only the original owner side
    # --- line of sight ----------------------------------------------------------------
    blocks_los: bool = False
    elevation: int = 0  # 0 flat, 1 hill, 2 mountain
    mass: str | None = None  # "hill" | "mountain": contiguous-mass plateau rule
    lake: bool = False  # blocks LOS only when the line crosses 2+ lake hexes
    # --- misc -------------------------------------------------------------------------
    removable: bool = False  # wire/sandbag: can be removed during play
    no_sandbag: bool = False  # Dig In may not place a sandbag here (ocean, ford)
    notes: str = ""  # rulebook / vocabulary citation
    # --- additions (see module docstring) ---------------------------------------------
    blocks_los_for: frozenset[str] = NONE  # attacker classes whose LOS it blocks (WIDE_RIVER: inf)
    blocks_all_fire: bool = False  # IMPASSABLE_BLOCKING_HILL: blocks even no-LOS fire
    battle_max_moved: int | None = None  # jungle: may battle only after moving <= 1 hex
    no_take_ground_after_move: frozenset[str] = (
        NONE  # jungle: armor that moved cannot take ground in
    )
    no_overrun: bool = False  # marsh: armor taking ground into it may not overrun
    no_battle_after_leaving: frozenset[str] = NONE  # marsh: armor cannot battle the turn it leaves
    enter_cost_from_non_hill: bool = False  # enter_cost applies only from a hex that is not
    # part of a hill mass (steep hill, vocabulary 1.3)
    beach_edge_cost: int = 0  # bluff/cliff: cost for infantry crossing to/from beach
    beach_edge_impassable: frozenset[str] = (
        NONE  # bluff/cliff: classes that never cross from/to beach
    )
    no_take_ground_from_beach: frozenset[str] = (
        NONE  # cliff: infantry may not take ground up from beach
    )
    cave: bool = False  # cave hexes (cave-to-cave moves, sealing)
    enter_from_min_elevation: int = 0  # mountain: enter only from a hill/mountain-mass hex
    # of at least this level (HexTerrain.hill_level)
    leave_to_min_elevation: int = 0  # mountain: leave only to such a hex
    art_dice: tuple[int, ...] | None = None  # artillery firing from here uses these dice (mountain)
    defense_defender_classes: frozenset[str] = ALL_CLASSES  # defenders protected (roadblock: inf)
    defense_needs_owner: bool = False  # seawall: no original owner -> protects nobody
    cave_defense: tuple[int, int, int] | None = None  # vs Japanese infantry inside a cave
    wadi: bool = False  # wadi: shots into/out of it need range 1
    links: tuple[int, ...] = ()  # tile sides connected (60deg steps CCW from east)
    edges_restricted: bool = False  # enter/leave only through ``links`` sides
    entry_hazard_dice: int = 0  # frozen river: dice rolled on entering (star = hit)
    art_hits_on_star_only: bool = False  # fortress: artillery hits only on stars
    heal_dice: int = 0  # hospital: 6; oasis: -1 = hand size + 1
    hq_tent: bool = False  # HQ & supply tents card effect
    retreat_impassable: frozenset[str] = NONE  # ocean: never a retreat hex
    infantry_may_remove: bool = False  # wire: infantry may remove it instead of battling
    armor_removes: bool = False  # wire: armor entering/battling out removes it
    removed_when_vacated: bool = False  # sandbag: removed when the unit leaves/dies
    engineer_removable: bool = False  # roadblock: engineer may remove instead of battling
    can_be_blown: bool = False  # bridge behaviour CAN_BE_BLOWN
    medal_if_blown: int = 0  # bridge behaviour2 ONE_MEDAL_IF_BLOWN
    station: bool = False  # railroad station (supply train)
    must_ignore_all_flags_jp: bool = False  # cave: Japanese infantry must ignore all flags


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile as placed on a hex by a scenario (or by the game, e.g. Dig In)."""

    spec: TerrainSpec
    orientation: int = 1
    owner: str | None = None  # "AXIS" | "ALLIES" | None (bunkers, sea walls)
    behavior: str | None = None
    behavior2: str | None = None  # addition: e.g. ONE_MEDAL_IF_BLOWN
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
    "impassable": _union,
    "must_stop": _union,
    "leave_one_hex": _union,
    "cannot_leave": _union,
    "no_battle_after_entering": _union,
    "no_battle_in": _union,
    "blocks_los_for": _union,
    "no_take_ground_after_move": _union,
    "no_battle_after_leaving": _union,
    "beach_edge_impassable": _union,
    "no_take_ground_from_beach": _union,
    "retreat_impassable": _union,
    "only_first_step": any,
    "road": any,
    "rail": any,
    "beach": any,
    "ocean": any,
    "blocks_los": any,
    "lake": any,
    "no_sandbag": any,
    "river": any,
    "bridge": any,
    "blocks_all_fire": any,
    "no_overrun": any,
    "enter_cost_from_non_hill": any,
    "cave": any,
    "wadi": any,
    "art_hits_on_star_only": any,
    "hq_tent": any,
    "station": any,
    "must_ignore_all_flags_jp": any,
    "edges_restricted": any,
    "move_cap": _min_opt,
    "battle_max_moved": _min_opt,
    "enter_cost": max,
    "elevation": max,
    "beach_edge_cost": max,
    "enter_from_min_elevation": max,
    "leave_to_min_elevation": max,
    "entry_hazard_dice": max,
    "firing_from": _min_tuple,
    "art_dice": _first,
    "links": _first,
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
    river: bool = False  # a river tile is present (passable only if ``bridge``)
    bridge: bool = False  # a bridge/ford tile is present
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
    heal_dice: int = 0  # oasis (-1: hand size + 1) / hospital (6) heal action
    retreat_impassable: frozenset[str] = NONE
    station: bool = False
    must_ignore_all_flags_jp: bool = False
    cover_blocks_los: bool = False  # a blocking tile that is not a hill/mountain mass (LOS)

    @property
    def hill_level(self) -> int:
        """Elevation of the hill or mountain mass this hex belongs to; 0 when the hex is
        not part of one, even if elevated (hill with forest / village: vocabulary 1.3
        "elevation 1 (but not a 'hill' for hill-mass LOS or mountain access)")."""
        return self.elevation if self.mass else 0

    def defense_against(
        self,
        attacker_class: str,
        attacker_side: str,
        attacker_elevation: int,
        *,
        defender_class: str | None = None,
        defender_nation: str | None = None,
        attacker_terrain: HexTerrain | None = None,
    ) -> int:
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
            if (
                spec.cave_defense is not None
                and defender_nation == "jp"
                and defender_class == "inf"
            ):
                best = min(best, spec.cave_defense[idx])
                continue
            if not _defense_applies(
                tile, attacker_side, attacker_elevation, defender_class, attacker_terrain
            ):
                continue
            best = min(best, spec.defense[idx])
        return best

    def flags_ignorable(
        self, unit_class: str, unit_side: str, *, unit_nation: str | None = None
    ) -> int:
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


def _defense_applies(
    tile: Tile,
    attacker_side: str,
    attacker_elevation: int,
    defender_class: str | None,
    attacker_terrain: HexTerrain | None,
) -> bool:
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
    merged: dict[str, Any] = (
        {name: op([getattr(s, name) for s in specs]) for name, op in _MERGE.items()}
        if specs
        else {}
    )
    stoppers = [s for s in specs if s.must_stop]
    merged["stop_allows_take_ground"] = bool(stoppers) and all(
        s.stop_allows_take_ground for s in stoppers
    )
    merged["mass"] = _mass(specs)
    merged["cover_blocks_los"] = any(s.blocks_los and not s.mass for s in specs)
    if merged.get("bridge"):
        merged["entry_hazard_dice"] = 0
    elif merged.get("river"):
        merged["impassable"] = ALL_CLASSES
    return HexTerrain(tiles=tiles, **merged)


OPEN = HexTerrain()
"""Open countryside (004 "Open Countryside"): a hex without any tile."""
