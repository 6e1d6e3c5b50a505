""" "Nineteen Eighty-Four" (004 Appendix 3, Suggested Variants; option ``variant:
NINETEEN_EIGHTY_FOUR``; ``variant_side`` is not used: both sides are converted).

Engine reading of the text (quoted in tests/engine/test_variants.py):

* "Both sides each get whichever force in the Scenario has the greatest number of Units.
  ... The originally weaker side must setup as close to their own original locations as
  possible.": the side with more units (a tie: the scenario's first player) keeps its
  units; the other side's are removed and replaced by a mirror copy of them (row r ->
  rows-1-r, same column; a mirror hex already taken: the nearest free hex on that side).
* Conversion of both armies: "All Armour Units become Assault Guns. All Infantry Units
  become Militia Infantry Units. All Anti-Tank Support Weapons become Regular Infantry
  Units. Every third Artillery Unit is a Rocket Artillery battery, the rest are Medium
  Artillery Units." (unit order; 004 unit-type profiles); every other infantry kind
  becomes Militia.  "No ... Armour Overruns": armour takes ground but never overruns.
  Every eliminated unit is worth 1 Victory Point (the 004 Militia profile's "does not
  count towards the enemies Victory Points" would make an all-infantry scenario
  unwinnable: "Expect a lot of attrition").
* "Purple Flags are casualties, not Retreats": each flag removes a figure.
* "Political Commissar rules are always in effect": both sides play the standard
  Commissar rule (a card under the chip each turn).
* "No Special Infantry Units, Blitzkrieg Rules, or Armour Overruns": the option
  ``blitzkrieg`` is refused with this variant (a scenario's own blitz rules change no
  unit: every profile is converted).  The sides are called Eurasia (Axis) and Oceania
  (Allies) in the view.
* "Victory goes to the first player to gain 12 Victory Points": both victory counts 12.
* Reinforcements: "A replacement Unit of exactly the same type is brought on in the
  next turn whenever a Unit is eliminated. Draw a Command Card from the unused Command
  Cards to see which Board Section it enters the game on.": at the start of the owner's
  next turn, one card per replacement is drawn from the deck and discarded (event
  ``reinforcement_section``); a Section card gives its (first) section, a Tactic card
  the centre; the unit enters, unordered, on the free hex of the owner's baseline row in
  that section nearest its middle (else any free baseline hex; else it is lost).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .....core.unit_types import typed_spec
from .....core.units import unit_spec
from ...cards import CARDS
from .....procedures.common import SIDES, is_top, other, set_ext
from .....procedures.hooks import Victory
from .....procedures.state import Battle, GameState, Unit
from .common import (
    add_unit,
    baseline,
    data,
    first_turn_once,
    medal_victory,
    on,
    put,
    remove_unit,
    section_hexes,
)

NAME = "NINETEEN_EIGHTY_FOUR"
VICTORY = 12


def _mirror(st: GameState) -> None:
    count = {s: sum(1 for u in st.units.values() if u.side == s) for s in SIDES}
    first = st.scn.player1_side
    strong = first if count[first] >= count[other(first)] else other(first)
    weak = other(strong)
    for u in [u for u in st.units.values() if u.side == weak]:
        remove_unit(st, u)
    board = st.scn.board
    for u in sorted(
        [u for u in st.units.values() if u.side == strong], key=lambda x: int(x.id[1:])
    ):
        h = (board.rows - 1 - u.hex[0], u.hex[1])
        if h in st.occ or not board.on_board(h):
            near = [
                x
                for x in board.hexes
                if x not in st.occ and (x[0] < board.rows // 2) == (h[0] < board.rows // 2)
            ]
            if not near:
                continue
            h = min(near, key=lambda x: (board.distance(h, x), x))
        add_unit(st, weak, dataclasses.replace(u.spec, side=weak), h, u.figures)


def _convert(st: GameState) -> None:
    arts = 0
    for u in sorted(st.units.values(), key=lambda x: int(x.id[1:])):
        if u.spec.train:
            continue
        if u.spec.kind == "anti_tank_infantry" or u.spec.kind == "anti_tank" and u.cls == "inf":
            spec = unit_spec("inf", nation=u.spec.nation)
        elif u.cls == "inf":
            spec = typed_spec(u.spec, "militia")
        elif u.cls == "armor":
            spec = typed_spec(u.spec, "assault_gun")
            spec = dataclasses.replace(spec, take_ground=min(spec.take_ground, 1))
        else:
            arts += 1
            spec = typed_spec(u.spec, "rocket_artillery" if arts % 3 == 0 else "medium_artillery")
        spec = dataclasses.replace(spec, code=u.spec.code, side=u.side, medal_value=1)
        u.spec = spec
        u.figures = u.max_figures = spec.figures


def setup(st: GameState) -> None:
    if not on(st, NAME):
        return
    _mirror(st)
    _convert(st)
    put(st, due=(), victory={s: VICTORY for s in SIDES})


def hits_flags(
    st: GameState, b: Battle, v: Unit, faces: list[str], hf: tuple[int, int]
) -> tuple[int, int]:
    """Purple Flags are casualties, not retreats."""
    if not on(st, NAME):
        return hf
    return hf[0] + hf[1], 0


def figures_lost(
    st: GameState, v: Unit, lost: int, by_side: str, events: list[dict[str, Any]]
) -> None:
    """An eliminated unit is replaced at the start of its side's next turn."""
    if on(st, NAME) and v.figures <= 0:
        put(st, due=data(st)["due"] + ((v.side, v.spec),))


def turn_begins(st: GameState, side: str, events: list[dict[str, Any]]) -> None:
    if not on(st, NAME):
        return
    if first_turn_once(st, NAME):  # "Political Commissar rules are always in effect"
        set_ext(st, "commissar_chip", {s: None for s in SIDES})
    due = data(st)["due"]
    mine = [spec for s, spec in due if s == side]
    if not mine:
        return
    put(st, due=tuple(x for x in due if x[0] != side))
    top = is_top(st, side)
    row = baseline(st, side)
    for spec in mine:
        got = st.hooks.draw(st, side, events, 1)
        section = 1
        if got:
            card = CARDS[got[0]]
            st.discard.append(got[0])
            if card.kind == "section" and card.sections:
                section = card.sections[0]
            events.append(
                {
                    "type": "reinforcement_section",
                    "side": side,
                    "card": card.to_json(),
                    "section": section,
                }
            )
        free = [h for h in section_hexes(st, row, None) if h not in st.occ]
        inside = [h for h in free if st.scn.board.in_section(h, section, top)]
        pool = inside or free
        if not pool:
            events.append({"type": "reinforcement_lost", "side": side, "count": 1})
            continue
        mid = sum(h[1] for h in pool) / len(pool)
        h = min(pool, key=lambda x: (abs(x[1] - mid), x[1]))
        add_unit(st, side, spec, h, spec.figures, events, "reinforcement")


def victory(st: GameState) -> Victory:
    """004: "Victory goes to the first player to gain 12 Victory Points"."""
    return medal_victory(st, data(st)["victory"])


#: "Players may freely call themselves Oceania, Eastasia, and Eurasia, provided that
#: neither of them are using the same name": the engine's names (view only)
NAMES = {"AXIS": "Eurasia", "ALLIES": "Oceania"}


def view(st: GameState) -> dict[str, Any]:
    return {
        "name": NAME,
        "names": dict(NAMES),
        "reinforcements_due": [{"side": s, "kind": spec.kind} for s, spec in data(st)["due"]],
    }


#: the extension points this variant fills (engine/procedures/hooks.py)
HOOKS = {
    "game_setup": setup,
    "turn_begins": turn_begins,
    "hits_flags": hits_flags,
    "figures_lost": figures_lost,
}
