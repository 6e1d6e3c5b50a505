"""004 Appendix 3 "Variant For Young Generals" (option ``young_generals``, a preset).

004 text: "Do not use any Optional Rules, Appendix 1 - Special Unit Rules, or Appendix 2 -
Tiles From Expansion Sets. · Do not use the Take Ground or the Armour Overrun rules. · Do
not use the Disaffection, Demoralisation, & Disorganisation Rules. · Remove all Tactic
Cards and only use the Section Cards. · Remember to shuffle the Section Cards yourself
when it has been exhausted."

Engine reading:

* No optional rule: :func:`engine.rulesets.m44.options.validate` refuses any other
  option with ``young_generals`` (``invalid_option_value``).
* No special-unit rules: every unit gets the base profile of its class (Infantry 4
  figures, Armour 3, Artillery 2; badges, behaviours and equipment dropped), from the
  ``.m44`` code's nation.  Trains and ships keep their own profile (they are the board).
* No Take Ground, no Armour Overrun: every profile's ``take_ground`` is 0.
* Section cards only: the 40 Section cards make the deck; it is reshuffled whenever it
  is exhausted (a scenario's ``deck_reshuffling: false`` is overridden:
  engine/rulesets/m44/end_turn.py ``draw``).
* Tiles from expansion sets stay on the board (the scenario needs its map); the engine
  applies the standard terrain rules of each tile.  Scenario special rules written in
  the ``.m44`` file (airdrops, smoke, mines...) stay as the scenario has them.
"""

from __future__ import annotations

import dataclasses

from .....core.units import unit_spec
from ...cards import CARDS
from .....procedures.state import GameState

NAME = "young_generals"
BASE = {"inf": "inf", "armor": "tank", "art": "gun"}


def setup(st: GameState) -> None:
    if not st.options.get(NAME):
        return
    for u in st.units.values():
        if u.spec.train or u.spec.kind == "destroyer":
            spec = u.spec
        else:
            base = unit_spec(BASE[u.cls], nation=u.spec.nation)
            spec = dataclasses.replace(base, code=u.spec.code, side=u.spec.side)
        spec = dataclasses.replace(spec, take_ground=0)
        full = u.figures >= u.spec.figures
        u.spec = spec
        u.figures = spec.figures if full else min(u.figures, spec.figures)
        u.max_figures = spec.figures
    st.deck = [c for c in st.deck if CARDS[c].kind == "section"]


#: the extension point this preset fills (engine/procedures/hooks.py)
HOOKS = {"game_setup": setup}
