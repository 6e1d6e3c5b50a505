"""Line of sight adapter: uses ``engine.los`` (helper-1's module) when it is available,
else a local centre-to-centre implementation (004 "Line Of Sight"): a hex crossed by the
line blocks if it holds a unit or blocking terrain; when the line runs along a hex edge it
is blocked only if both sides are obstructed.  Results are cached per (from, to, occupancy
of the hexes in between) inside one state.
"""
from __future__ import annotations

from ..geometry import cube_round, to_cube
from ..state import GameState
from .common import terrain_at

Hex = tuple[int, int]
_EPS = 1e-6
_LINE_CACHE: dict[tuple[Hex, Hex], tuple[tuple[Hex, Hex], ...]] = {}

try:  # pragma: no cover - depends on helper-1's progress
    from .. import los as _ext
    _EXT = getattr(_ext, "has_los", None) or getattr(_ext, "line_of_sight", None)
except Exception:  # noqa: BLE001
    _EXT = None


def _line(a: Hex, b: Hex) -> tuple[tuple[Hex, Hex], ...]:
    key = (a, b)
    got = _LINE_CACHE.get(key)
    if got is not None:
        return got
    ax, ay, az = to_cube(a)
    bx, by, bz = to_cube(b)
    n = max(abs(ax - bx), abs(ay - by), abs(az - bz))
    n = int(round(n))
    out = []
    for i in range(1, n):
        t = i / n
        x, y, z = ax + (bx - ax) * t, ay + (by - ay) * t, az + (bz - az) * t
        h1 = cube_round(x + _EPS, y + 2 * _EPS, z - 3 * _EPS)
        h2 = cube_round(x - _EPS, y - 2 * _EPS, z + 3 * _EPS)
        out.append((h1, h2))
    got = tuple(out)
    _LINE_CACHE[key] = got
    return got


def _blocks(st: GameState, h: Hex) -> bool:
    return h in st.occ or terrain_at(st, h).blocks_los


def clear(st: GameState, a: Hex, b: Hex, needs_los: bool = True) -> bool:
    """True when a unit on ``a`` may target ``b`` as far as line of sight goes."""
    if not needs_los:
        return True
    if _EXT is not None:
        try:
            return bool(_EXT(st.scn, a, b, frozenset(st.occ), _terrain_fn(st)))
        except TypeError:
            pass
    for h1, h2 in _line(a, b):
        if h1 == h2:
            if _blocks(st, h1):
                return False
        elif _blocks(st, h1) and _blocks(st, h2):
            return False
    return True


def _terrain_fn(st: GameState):
    return lambda h: terrain_at(st, h)
