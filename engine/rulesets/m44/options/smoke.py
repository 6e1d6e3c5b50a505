"""Scenario option ``smoke_screen`` (vocabulary 3.3 / 1.3 Smoke Screen): before the first
turn a side places LOS-blocking smoke hexes.  Phase ``smoke`` of the m44 turn machine;
also started after an air drop (engine/rulesets/m44/options/airdrop.py)."""

from __future__ import annotations

from typing import Any

from ....procedures.hooks import Step
from ....procedures.state import GameState
from ....procedures.common import mode, pop_ext, set_ext
from ....procedures.setup_steps import SMOKE_DEFAULT, add_smoke, smoke_screen
from ....procedures.setup_steps import smoke_hexes as _hexes

__all__ = ["SMOKE_DEFAULT", "init_smoke", "smoke_hexes", "place_smoke", "end_smoke"]


def init_smoke(st: GameState) -> None:
    """Scenario option ``smoke_screen`` ``{side}`` (vocabulary 3.3 / 1.3 Smoke Screen):
    before the first turn that side places smoke hexes (LOS-blocking ``smoke`` tiles in
    ``tiles_over``; no movement effect, they stay).  How many is not in our texts: the
    value's ``nbr_hexes`` / ``count``, else 3 (our reading of the Smoke Screen markers);
    each one after the first adjacent to one already placed (a screen); ``end_smoke``
    stops early.  After the air drops, before the first turn's night roll."""
    if st.phase != "play_card":
        return
    sm = smoke_screen(st, st.active)
    if sm:
        set_ext(st, "smoke", sm)
        st.phase = "smoke"


def smoke_hexes(st: GameState) -> list[Any]:
    return _hexes(st, st.ext["smoke"]["placed"])


def pending(st: GameState) -> dict[str, Any]:
    sm = st.ext["smoke"]
    return {"type": "place_smoke", "seat": mode(st).hand_seat(st, sm["side"]), "left": sm["left"]}


def legal(st: GameState, seat: str) -> list[dict[str, Any]]:
    return [{"type": "place_smoke", "seat": seat, "hex": [*h]} for h in smoke_hexes(st)] + [
        {"type": "end_smoke", "seat": seat}
    ]


def place_smoke(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    sm = add_smoke(st, st.ext["smoke"], action, events)
    set_ext(st, "smoke", sm)
    if sm["left"] <= 0:
        end_smoke(st, action, events)


def end_smoke(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    pop_ext(st, "smoke")
    st.phase = "play_card"


#: the turn machine's phase ``smoke`` (extension points ``steps``, ``actions``)
HOOKS = {
    "set_up_steps": init_smoke,
    "steps": {"smoke": Step(pending, legal)},
    "actions": {("smoke", "place_smoke"): place_smoke, ("smoke", "end_smoke"): end_smoke},
}
