"""Terrain, rect_terrain and obstacle effects as data: one row per ``.m44`` code.

CONTRACT (shared by the loader and the rules): the rules code never branches on a
terrain *code*; it reads the fields of :class:`TerrainSpec`.  Several tiles may share a
hex (base terrain + rect_terrain + obstacle, plus engine-made ones such as sandbags from
Dig In); :func:`combine` folds them into one :class:`HexTerrain` summary.

Unit classes used in the frozensets below: ``"inf"``, ``"armor"``, ``"art"``
(every special unit is one of these base classes).  Dice modifiers are given as a tuple
``(vs_inf_attacker, vs_armor_attacker, vs_art_attacker)`` and are <= 0.

The table itself (``TERRAIN``) is filled in by the loader work; see
``../shared/reference/m44-vocabulary.md`` for every code.
"""
from __future__ import annotations

from dataclasses import dataclass, field

ALL_CLASSES: frozenset[str] = frozenset({"inf", "armor", "art"})
NONE: frozenset[str] = frozenset()
CLASS_INDEX = {"inf": 0, "armor": 1, "art": 2}


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
    enter_cost: int = 1                      # movement points to enter (steep hill from flat: 2)
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


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile as placed on a hex by a scenario (or by the game, e.g. Dig In)."""

    spec: TerrainSpec
    orientation: int = 1
    owner: str | None = None        # "AXIS" | "ALLIES" | None (bunkers, sea walls)
    behavior: str | None = None


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

    def defense_against(self, attacker_class: str, attacker_side: str, attacker_elevation: int,
                        ) -> int:
        """Dice modifier (<= 0) for an attacker of ``attacker_class`` shooting into this hex.

        Not additive: the most negative applicable value wins (004 "Obstacles").
        """
        raise NotImplementedError  # filled in with the table

    def flags_ignorable(self, unit_class: str, unit_side: str) -> int:
        """How many flags the occupant of this hex may ignore because of terrain."""
        raise NotImplementedError


TERRAIN: dict[str, TerrainSpec] = {}


def combine(tiles: tuple[Tile, ...]) -> HexTerrain:
    """Fold the tiles of one hex into a :class:`HexTerrain` (OR of flags, min of modifiers)."""
    raise NotImplementedError
