"""Scenario options ``airdrop`` / ``airdrop2`` (vocabulary 3.3; 004 "Paratroops & Glider
Landings", Airdrop Method): paratroop drops before the first turn.

Value ``{side, range, nbr_units, unit, ...}``: the side chooses a drop hex (pending
``airdrop``, action ``airdrop {hex}``); each of the ``nbr_units`` units (template ``unit``:
a code or a ``.m44`` unit dict; default special forces of the side's nation) then drifts
``range`` random steps (one of the 6 directions per step, state RNG) and lands there; it is
lost (``drop_lost``) if a step leaves the board or it lands on an occupied hex or on
terrain impassable to infantry.  A template with behaviour
``CANNOT_BE_ACTIVATED_TILL_TURN`` and ``turn`` T (vocabulary 2.5) makes every dropped unit
unorderable while the game turn is <= T (BGA: the template's ``turn`` as is).  Our reading /
gaps: ``center``, ``nbr_drops``, ``option``/``option2`` and the "first full-day turn"
variant are ignored (every drop is at game start).
"""

from __future__ import annotations

from typing import Any

from ....procedures.hooks import Step
from ....procedures.state import GameState
from ....procedures.common import mode, pop_ext, set_ext
from ....procedures.setup_steps import drop_units, scenario_drops
from .conditions import no_air
from .smoke import init_smoke


def init_airdrop(st: GameState) -> None:
    """Set up the scenario's drops; none under the 004 weather Rainstorm ("No paradrops
    ... are allowed")."""
    if st.phase != "play_card" or no_air(st):
        return
    drops = scenario_drops(st)
    if drops:
        set_ext(st, "airdrops", drops)
        st.phase = "airdrop"


def pending(st: GameState) -> dict[str, Any]:
    d = st.ext["airdrops"][0]
    return {
        "type": "airdrop",
        "seat": mode(st).hand_seat(st, d["side"]),
        "units": d["units"],
        "range": d["range"],
    }


def legal(st: GameState, seat: str) -> list[dict[str, Any]]:
    return [{"type": "airdrop", "seat": seat, "hex": [*h]} for h in sorted(st.scn.board._nbrs)]


def apply_drop(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    d, rest = st.ext["airdrops"][0], st.ext["airdrops"][1:]
    drop_units(st, d, action, events)
    if rest:
        set_ext(st, "airdrops", rest)
    else:
        pop_ext(st, "airdrops")
        st.phase = "play_card"
        init_smoke(st)


#: the turn machine's phase ``airdrop`` (extension points ``steps``, ``actions``)
HOOKS = {
    "set_up_steps": init_airdrop,
    "steps": {"airdrop": Step(pending, legal)},
    "actions": {("airdrop", "airdrop"): apply_drop},
}
