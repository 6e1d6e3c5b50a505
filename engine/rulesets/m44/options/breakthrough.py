"""Scenario option ``armor_breakthrough_rules`` (vocabulary 3.3; 2.5 ``CANNOT_EXIT``):
armour ordered onto the board through the enemy baseline.

Value: one unit template per side, ``{"ALLIES": {nbr_units, name, badge?, behavior?},
"AXIS": {...}}`` (the shape of the real scenario 4090 "Closing the Gap"; a single
template with a ``side`` key is read the same way).  ``nbr_units`` is how many units
may enter, not a figure count (the units enter at full strength).

The rule as the vocabulary states it ("armor entering from the enemy baseline (stop, may
battle and take ground, no overrun)"), with the details of the published Armor
Breakthrough action as BGA summarises it: during a single game turn the side may order
new Armor units onto the board; the order must be valid and issued as normal; the units
enter on the opponent's baseline, stop there, may battle (unless the hex forbids battle
after entering) and take ground this turn, but may not make an Armor Overrun.

Engine reading:

* **when**: in the ``order`` phase of a Section card play (the cards BGA allows: Recon,
  Probe, Attack, Assault, General Advance, Pincer Move, Recon in Force; also a
  Counter-Attack copying one) - action ``armor_breakthrough {hex}``; each unit that
  enters uses one of the card's orders (checked with the card's quotas and sections like
  any order; Assault: every unit of its section, so only ``nbr_units`` limits it);
* **where**: an empty hex of the enemy's baseline row (row 0 for the bottom side, the
  last row for the top side) in a section the card still has an order for, not
  impassable to the unit and not a mountain (entered from a hill only);
* **once**: every unit of the side's breakthrough enters in the same turn (the first
  turn one enters), at most ``nbr_units``; later turns offer nothing;
* **the entry turn**: the unit counts as having moved 1 hex into the hex (it may not
  move on; terrain "no battle after entering" applies; a minefield there triggers), it
  is ordered, may battle and take ground, and its overrun is used up (``Unit.overrun``);
* ``behavior: CANNOT_EXIT`` (2.5): the unit may never leave by an exit marker
  (:func:`engine.procedures.movement.exit_hexes`).

State: ``GameState.ext["breakthrough"]`` side -> (turn, units entered).  Standard and
team modes (the Overlord machine does not offer it).
"""

from __future__ import annotations

from typing import Any

from ....core.errors import IllegalAction
from ....core.geometry import Hex
from ....core.scenario_model import Scenario
from ....procedures.state import GameState, Play, Quota, Unit
from ....core.units import UnitSpec, army_rules, unit_spec
from .. import tactics as T
from ....procedures.common import (
    SIDES,
    army_options,
    fresh_unit_id,
    is_top,
    parse_hex,
    set_ext,
    terrain_at,
)
from ....procedures.movement import move_class

KEY = "breakthrough"


def templates(scn: Scenario) -> dict[str, dict[str, Any]]:
    """Side -> unit template of the option (sides without a usable template left out)."""
    v = scn.options.get("armor_breakthrough_rules")
    if not isinstance(v, dict):
        return {}
    per_side = (
        {str(v.get("side")).upper(): v}
        if "side" in v
        else {str(k).upper(): t for k, t in v.items()}
    )
    return {s: t for s, t in per_side.items() if s in SIDES and isinstance(t, dict)}


def _spec(st: GameState, side: str, tpl: dict[str, Any]) -> UnitSpec | None:
    default = "tankus" if side == "ALLIES" else "tankger"
    try:
        spec = unit_spec(
            str(tpl.get("name") or default),
            tpl.get("badge"),
            None,
            tpl.get("behavior"),
            tpl.get("equipment"),
            st.scn.date_begin,
        )
    except (KeyError, ValueError):
        return None
    return army_rules(spec, side, army_options(st))


def units_left(st: GameState, side: str) -> int:
    """How many more units ``side`` may still bring in this turn."""
    tpl = templates(st.scn).get(side)
    if tpl is None:
        return 0
    try:
        total = max(1, int(tpl.get("nbr_units") or 1))
    except (TypeError, ValueError):
        total = 1
    rec = (st.ext or {}).get(KEY, {}).get(side)
    if rec is None:
        return total
    turn, done = rec
    return total - done if turn == st.turn else 0


def _may_enter(st: GameState, play: Play) -> bool:
    return play.key in T.SECTION_KEYS and st.phase == "order" and units_left(st, play.side) > 0


def entry_hexes(st: GameState, play: Play | None) -> list[Hex]:
    """Baseline hexes where the active side's armour may enter now (empty list when the
    option is off, used up, or the card has no order left for such a hex)."""
    if play is None or not _may_enter(st, play):
        return []
    spec = _spec(st, play.side, templates(st.scn)[play.side])
    if spec is None:
        return []
    board = st.scn.board
    row = board.rows - 1 if is_top(st, play.side) else 0  # the enemy's baseline
    probe = Unit("breakthrough", play.side, spec, (row, row % 2), spec.figures, spec.figures)
    cls = move_class(probe)
    out = []
    for h in board.hexes:
        if h[0] != row or h in st.occ:
            continue
        t = terrain_at(st, h)
        if cls in t.impassable or t.enter_from_min_elevation:
            continue
        probe.hex = h
        if T.may_order_new(st, play, probe):
            out.append(h)
    return out


def after_setup(st: GameState, play: Play, sections: tuple[int, ...]) -> None:
    """An Assault card ("all units in the section": ``sections``, already mirrored for a
    Counter-Attack) goes straight to movement; with a breakthrough available it keeps an
    order phase whose quota admits every unit it ordered plus the units that may still
    enter its section."""
    if play.key != "assault" or st.phase != "move" or units_left(st, play.side) <= 0:
        return
    play.quotas = [Quota(frozenset(sections), len(play.ordered) + units_left(st, play.side))]
    st.phase = "order"


def enter(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """Action ``armor_breakthrough {hex}``: a new unit of the template enters on ``hex``,
    ordered by the card, stopped, its overrun used up."""
    play = st.current_play()
    h = parse_hex(action, "hex")
    side = play.side
    spec = _spec(st, side, templates(st.scn)[side]) if h in entry_hexes(st, play) else None
    if spec is None:
        raise IllegalAction("illegal_move", "no armour may break through onto that hex")
    uid = _new_unit_id(st)
    u = Unit(uid, side, spec, h, spec.figures, spec.figures, spec.badge)
    u.moved = 1  # entered the baseline hex: must stop there
    u.entered = True  # terrain "no battle after entering" applies
    u.overrun = True  # no Armor Overrun this turn
    st.units[uid] = u
    st.owned.add(uid)
    st.occ[h] = uid
    done = (st.ext or {}).get(KEY, {})
    set_ext(st, KEY, {**done, side: (st.turn, done.get(side, (st.turn, 0))[1] + 1)})
    events.append(
        {
            "type": "unit_entered",
            "unit": uid,
            "side": side,
            "hex": [*h],
            "code": spec.code,
            "reason": "armor_breakthrough",
        }
    )
    T.order(st, play, u, events)
    st.hooks.after_move(st, u, events)


def _new_unit_id(st: GameState) -> str:
    """The next ``u<n>`` id (:func:`common.fresh_unit_id`, shared with airdrops and supply
    trains so ids never repeat); counts this unit in ``ext["broke_through"]``."""
    uid = fresh_unit_id(st)
    set_ext(st, "broke_through", (st.ext or {}).get("broke_through", 0) + 1)
    return uid


#: the extension points of the scenario rule (every game; off when the scenario has none)
HOOKS = {"breakthrough_hexes": entry_hexes, "card_played": after_setup, "breakthrough_enter": enter}
