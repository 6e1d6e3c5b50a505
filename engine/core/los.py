"""Line of sight (004 Battle, "Line Of Sight"; Hills/Mountains/Lake terrain cards).

Rule: imagine a line from the centre of the firer's hex to the centre of the target's
hex.  It is blocked when an intervening hex (never the firer's or the target's) holds an
obstruction: any unit (friend or foe) or blocking terrain.  When the line runs exactly
along hex edges it is blocked only if obstructions stand on *both* sides of it.

Implementation: the line is drawn twice with both endpoints nudged by ``+EPS`` and
``-EPS`` in cube coordinates.  When the two lines cross the same hexes the line does not
follow an edge and any obstruction blocks; when they differ the line runs along an edge
and the shot is blocked only if *both* nudged lines are blocked.

Terrain obstructions (``HexTerrain`` fields):

* ``cover_blocks_los`` - woods, towns, bunkers, hedgerows... always block;
* ``mass`` (hills, mountains) - block unless firer, target and the hex all belong to the
  same contiguous mass (004 "Hills"/"Mountains": plateau effect; ``Scenario.masses``);
* ``lake`` - blocks only when the line crosses 2 or more lake hexes (Appendix 2 "Lake");
* ``blocks_los_for`` - WIDE_RIVER blocks infantry-type attackers only (vocabulary 1.2);
* ``blocks_all_fire`` - IMPASSABLE_BLOCKING_HILL blocks even fire that needs no LOS.

Intervening-hex lists are pure geometry and cached per (src, dst) pair.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Union

from .geometry import Hex, cube_round, distance, to_cube
from .terrain import OPEN, HexTerrain

if TYPE_CHECKING:
    from .scenario_model import Scenario

EPS: tuple[float, float, float] = (1e-6, 2e-6, -3e-6)
TerrainSource = Union[Mapping[Hex, HexTerrain], Callable[[Hex], HexTerrain]]


def _line(src: Hex, dst: Hex, sign: int) -> tuple[Hex, ...]:
    """Hexes strictly between src and dst on the centre line nudged by ``sign * EPS``."""
    n = distance(src, dst)
    a = [c + sign * e for c, e in zip(to_cube(src), EPS)]
    b = [c + sign * e for c, e in zip(to_cube(dst), EPS)]
    out: list[Hex] = []
    for i in range(1, n):
        t = i / n
        h = cube_round(*(a[k] + (b[k] - a[k]) * t for k in range(3)))
        if h not in (src, dst) and h not in out:
            out.append(h)
    return tuple(out)


@lru_cache(maxsize=65536)
def sight_lines(src: Hex, dst: Hex) -> tuple[tuple[Hex, ...], ...]:
    """One intervening-hex tuple, or two when the centre line runs along hex edges."""
    plus, minus = _line(src, dst, 1), _line(src, dst, -1)
    return (plus,) if plus == minus else (plus, minus)


def _blocked(
    line: tuple[Hex, ...],
    terrain: Callable[[Hex], HexTerrain],
    masses: Mapping[Hex, int],
    occupied: Container[Hex],
    src: Hex,
    dst: Hex,
    attacker_class: str,
    needs_los: bool,
) -> bool:
    lakes = 0
    for h in line:
        ht = terrain(h)
        if ht.blocks_all_fire:
            return True
        if not needs_los:
            continue
        if h in occupied or ht.cover_blocks_los or attacker_class in ht.blocks_los_for:
            return True
        if ht.mass and not _same_mass(masses, h, src, dst):
            return True
        lakes += ht.lake
    return lakes >= 2


def _same_mass(masses: Mapping[Hex, int], h: Hex, src: Hex, dst: Hex) -> bool:
    m = masses.get(h)
    return m is not None and masses.get(src) == m and masses.get(dst) == m


def has_line_of_sight(
    scn: Scenario,
    occupied: Container[Hex],
    src: Hex,
    dst: Hex,
    *,
    attacker_class: str = "inf",
    terrain: TerrainSource | None = None,
    needs_los: bool = True,
) -> bool:
    """True when a unit on ``src`` can see ``dst`` (004 "Line Of Sight").

    ``occupied``: hexes holding a unit (any side); ``terrain`` (a mapping hex ->
    HexTerrain, or a function hex -> HexTerrain) overrides ``scn.terrain`` when tiles
    changed during play.  ``needs_los=False`` (artillery, mortars: addition)
    only checks IMPASSABLE_BLOCKING_HILL tiles, which block every line of fire.
    """
    if src == dst:
        return True
    lines = sight_lines(src, dst)
    source = scn.terrain if terrain is None else terrain
    ter = source if callable(source) else (lambda h: source.get(h, OPEN))
    results = [
        _blocked(line, ter, scn.masses, occupied, src, dst, attacker_class, needs_los)
        for line in lines
    ]
    return not all(results)


def has_los(
    scn: Scenario,
    src: Hex,
    dst: Hex,
    occupied: Container[Hex],
    terrain: TerrainSource | None = None,
    *,
    attacker_class: str = "inf",
    needs_los: bool = True,
) -> bool:
    """Positional-argument alias of :func:`has_line_of_sight` (the rules adapter's shape)."""
    return has_line_of_sight(
        scn, occupied, src, dst, attacker_class=attacker_class, terrain=terrain, needs_los=needs_los
    )
