"""Line of sight for the rules: a thin adapter over :mod:`engine.core.los` that passes the
current occupancy and the game's changed terrain."""

from __future__ import annotations

from ..core.geometry import Hex
from ..core.los import has_line_of_sight
from .state import GameState
from .common import terrain_at


def clear(
    st: GameState, a: Hex, b: Hex, needs_los: bool = True, attacker_class: str = "inf"
) -> bool:
    """True when a unit on ``a`` may target ``b`` as far as line of sight goes."""
    terrain = st.scn.terrain if not st.tiles_over else (lambda h: terrain_at(st, h))
    return has_line_of_sight(
        st.scn, st.occ, a, b, attacker_class=attacker_class, terrain=terrain, needs_los=needs_los
    )
