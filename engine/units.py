"""Unit profiles as data: ``.m44`` unit code (type prefix + nation) + badge -> UnitSpec.

CONTRACT: the rules read these fields; they never branch on a unit code.
Base classes: ``"inf"``, ``"armor"``, ``"art"``.  Dice faces: ``"inf"``, ``"armor"``,
``"grenade"``, ``"star"``, ``"flag"``.
"""
from __future__ import annotations

from dataclasses import dataclass

NONE: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class UnitSpec:
    code: str                    # as in the file, e.g. "inf2us"
    kind: str                    # "infantry","special_forces","armor","elite_armor","artillery",
                                 # "resistance","sniper","cavalry","ski","engineer","big_gun",
                                 # "mobile_artillery","anti_tank","mortar","machine_gun",
                                 # "heavy_anti_tank","tiger","destroyer","locomotive","wagon"
    unit_class: str              # "inf" | "armor" | "art"  (what dice symbols and terrain see)
    nation: str                  # "ger","us","brit","ru","jp","it",...
    side: str                    # default side of the nation: "AXIS" | "ALLIES"
    name: str                    # human name, e.g. "Special Forces (US)"
    figures: int                 # starting and maximum figures
    move: int                    # max hexes moved
    move_fire: int               # max hexes moved and still allowed to battle (-1: moving forbids battle... use 0)
    dice: tuple[int, ...]        # dice by range 1, 2, 3, ... (len = max range)
    needs_los: bool = True
    take_ground: int = 1         # 0 none; 1 take ground; 2 take ground + armor overrun
    retreat_per_flag: tuple[int, int] = (1, 1)   # (min, max) hexes per flag; (1, 3) resistance/ski/sniper
    ignore_terrain_defense: bool = False          # sniper, mortar, heavy AT gun
    ignore_terrain_defense_at_1: bool = False     # combat engineers in close assault
    ignore_no_battle_terrain: bool = False        # resistance, ski, sniper: "cannot battle after entering"
    star_hits: frozenset[str] = NONE              # target classes its stars hit (sniper: all; AT: armor)
    hit_by: frozenset[str] | None = None          # faces that can hit it (sniper: {"grenade"}); None = normal
    cannot_target: frozenset[str] = NONE          # target classes it may not battle (sniper: armor)
    medal_value: int = 1                          # medals for eliminating it
    ignore_flags: int = 0                         # unit-level flags ignorable (CAN_IGNORE_ONE_FLAG, Japanese)
    can_heal: bool = True
    badge: int | None = None


def unit_spec(code: str, badge: str | int | None = None, nbr_units: int | str | None = None,
              behavior: str | None = None, equipment: str | None = None,
              date_begin: str | None = None) -> UnitSpec:
    """The profile of one ``.m44`` unit entry.  Raises ``KeyError`` for unknown codes."""
    raise NotImplementedError
