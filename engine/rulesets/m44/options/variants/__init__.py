"""004 Appendix 3 variants as m44 options: "Variant For Young Generals"
(``young_generals``) and the four "Suggested Variants" (option ``variant``: ZOMBIE,
EXTERMINATE, CYBERMEN, WAR_OF_THE_WORLDS, NINETEEN_EIGHTY_FOUR; ``variant_side``: the side
converted).  One module per variant, each plugged in at the extension points of
engine/procedures/hooks.py when the game's options choose it; the points that take one
extension only (``victory``, ``targets_key``) are filled here by a dispatch on the variant
in force.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from .....core.errors import EngineError
from .....procedures.hooks import Victory
from .....procedures.state import GameState, Unit
from . import (
    cybermen,
    exterminate,
    nineteen_eighty_four,
    war_of_the_worlds,
    young_generals,
    zombie,
)
from .common import KEY, data


class Variant(Protocol):
    """A variant's module: its object of the game and its part of the view."""

    def victory(self, st: GameState) -> Victory: ...

    def view(self, st: GameState) -> dict[str, Any]: ...


MODULES: dict[str, Variant] = {
    zombie.NAME: zombie,
    exterminate.NAME: exterminate,
    cybermen.NAME: cybermen,
    war_of_the_worlds.NAME: war_of_the_worlds,
    nineteen_eighty_four.NAME: nineteen_eighty_four,
}


def _variant(options: Mapping[str, Any]) -> Variant | None:
    """The module of the variant ``options`` choose (option ``variant``), if any."""
    name = options.get("variant")
    return MODULES.get(name) if isinstance(name, str) else None


def victory(st: GameState) -> Victory:
    m = _variant(st.options)
    return None if m is None else m.victory(st)


def targets_key(st: GameState, u: Unit) -> object:
    """What the targets memo must tell apart in a variant game: the unit's profile (a
    variant's profiles are not the scenario's, and units made during the game take ids
    whose profile differs between games), the sickness level and the Heroic Leader
    (dice)."""
    if not st.options.get("variant") and not st.options.get("young_generals"):
        return None
    d = data(st)
    return u.spec, d.get("sick"), d.get("leader") == u.id


def view(st: GameState) -> dict[str, Any] | None:
    """``view.variant``: the variant in force and its public state (markers, towns,
    sickness, reinforcements due; ``victory``: the variant's victory counts), or None."""
    m = _variant(st.options)
    if m is None or not (st.ext or {}).get(KEY):
        return None
    out = m.view(st)
    if "victory" in data(st):
        out["victory"] = dict(data(st)["victory"])
    return out


#: the options of 004 Appendix 3 this package and options/campaign.py implement; they run
#: on the standard turn machine (1v1 and team play), not on the 002 Overlord machine
APPENDIX3 = ("variant", "young_generals", "campaign")


def refuse_overlord(st: GameState) -> None:
    """The variants, Young Generals and the campaign pre-battle need the standard turn
    machine: the Overlord mode refuses them (``invalid_option_value``)."""
    if st.mode == "overlord":
        for name in APPENDIX3:
            if st.options.get(name):
                raise EngineError(
                    "invalid_option_value",
                    f"option {name!r} is played on "
                    "standard and Breakthrough boards (1v1 or team play)",
                    entry=name,
                )


#: the extension points this package fills (engine/procedures/hooks.py) in a game with
#: one of the options of :data:`APPENDIX3`
def public_view(st: GameState, out: dict[str, Any]) -> None:
    """Extension point ``public_view``: ``view.variant`` (004 Suggested Variants, public
    state) and the variant's victory counts in ``view.sides``."""
    if not st.options.get("variant"):
        return
    out["variant"] = view(st)
    for side, n in ((out["variant"] or {}).get("victory") or {}).items():
        out["sides"][side]["victory"] = n


HOOKS = {
    "game_setup": refuse_overlord,
    "victory": victory,
    "targets_key": targets_key,
    "public_view": public_view,
}


def hooks_for(options: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The extensions of the variant or preset ``options`` choose, then the package's."""
    variant = _variant(options)
    out: list[Mapping[str, Any]] = [
        m.HOOKS
        for m in (cybermen, exterminate, nineteen_eighty_four, war_of_the_worlds, zombie)
        if m is variant
    ]
    if options.get(young_generals.NAME):  # a preset, alone
        out.append(young_generals.HOOKS)
    if any(options.get(name) for name in APPENDIX3):
        out.append(HOOKS)
    return out
