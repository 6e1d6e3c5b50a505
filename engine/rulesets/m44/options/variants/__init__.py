"""004 Appendix 3 variants as m44 options: "Variant For Young Generals"
(``young_generals``) and the four "Suggested Variants" (option ``variant``: ZOMBIE,
EXTERMINATE, WAR_OF_THE_WORLDS, NINETEEN_EIGHTY_FOUR; ``variant_side``: the side
converted).  One module per variant, each plugged in at the extension points of
engine/procedures/hooks.py; the points that take one extension only (``victory``,
``targets_key``) are filled here by a dispatch on the variant in force.
"""
from __future__ import annotations

from typing import Any

from .....procedures.hooks import extend
from .....procedures.state import GameState
from . import exterminate, nineteen_eighty_four, war_of_the_worlds, young_generals, zombie
from .common import KEY, data

MODULES = {zombie.NAME: zombie, exterminate.NAME: exterminate,
           war_of_the_worlds.NAME: war_of_the_worlds,
           nineteen_eighty_four.NAME: nineteen_eighty_four}


def victory(st: GameState) -> Any:
    m = MODULES.get(st.options.get("variant"))
    return None if m is None else m.victory(st)


def targets_key(st: GameState, u: Any) -> Any:
    """What the targets memo must tell apart in a variant game: the unit's profile (a
    variant's profiles are not the scenario's, and units made during the game take ids
    whose profile differs between games) and the sickness level (dice)."""
    if not st.options.get("variant") and not st.options.get("young_generals"):
        return None
    return u.spec, data(st).get("sick")


def view(st: GameState) -> dict[str, Any] | None:
    """``view.variant``: the variant in force and its public state (markers, towns,
    sickness, reinforcements due; ``victory``: the variant's victory counts), or None."""
    m = MODULES.get(st.options.get("variant"))
    if m is None or not (st.ext or {}).get(KEY):
        return None
    out = m.view(st)
    if "victory" in data(st):
        out["victory"] = dict(data(st)["victory"])
    return out


extend("victory", victory, __name__)
extend("targets_key", targets_key, __name__)
