"""Terrain the game changes: sandbags (Dig In, removed when the unit leaves or dies), wire."""

from __future__ import annotations

from typing import Any

from ..core.geometry import Hex
from .state import GameState
from ..core.terrain import Tile
from ..core.terrain_table import TERRAIN
from .common import drop_camouflage, terrain_at, tiles_at


def _family_tiles(st: GameState, h: Hex, family: str) -> tuple[Tile, ...]:
    return tuple(t for t in tiles_at(st, h) if t.spec.family == family)


def remove_family(st: GameState, h: Hex, family: str, events: list[dict[str, Any]]) -> bool:
    tiles = tiles_at(st, h)
    keep = tuple(t for t in tiles if t.spec.family != family)
    if len(keep) == len(tiles):
        return False
    st.tiles_over[h] = keep
    events.append({"type": "terrain_changed", "hex": [*h], "removed": family})
    return True


def unit_left_hex(
    st: GameState, h: Hex, events: list[dict[str, Any]], eliminated: bool = False
) -> None:
    """Sandbags are removed when their unit leaves the hex or is eliminated (vocabulary 1.3);
    so is a camouflage marker (vocabulary 3.1)."""
    if _family_tiles(st, h, "sandbag"):
        remove_family(st, h, "sandbag", events)
    drop_camouflage(st, h, events)


def place_sandbag(st: GameState, h: Hex, events: list[dict[str, Any]]) -> bool:
    spec = TERRAIN.get("sand")
    if spec is None or terrain_at(st, h).no_sandbag or _family_tiles(st, h, "sandbag"):
        return False
    st.tiles_over[h] = tiles_at(st, h) + (Tile(spec),)
    events.append({"type": "terrain_changed", "hex": [*h], "added": "sandbag"})
    return True
