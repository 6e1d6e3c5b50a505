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

from ....core.errors import IllegalAction
from ....core.geometry import DIRECTIONS
from ....procedures.state import GameState, Unit
from ....core.scenario import inactive_turn
from ....procedures.common import (SIDES, TEMPLATE_KEYS, fresh_unit_id, mode, parse_hex,
                                   pop_ext, set_ext, template_spec, terrain_at)
from .conditions import no_air
from .smoke import init_smoke


def _drop(st: GameState, v: Any) -> dict[str, Any] | None:
    if not isinstance(v, dict):
        return None
    side = str(v.get("side") or "").upper()
    if side not in SIDES:
        return None
    tpl = v.get("unit")
    if isinstance(tpl, str):
        tpl = {"name": tpl}
    if not isinstance(tpl, dict) or not tpl.get("name"):
        tpl = {"name": "inf2us" if side == "ALLIES" else "inf2ger"}
    try:
        template_spec(st, tpl)
    except (KeyError, ValueError):
        return None
    return {"side": side, "range": max(0, int(v.get("range") or 1)),
            "units": max(1, int(v.get("nbr_units") or 1)),
            "unit": {k: tpl.get(k) for k in TEMPLATE_KEYS}}


def init_airdrop(st: GameState) -> None:
    """Set up the scenario's drops; none under the 004 weather Rainstorm ("No paradrops
    ... are allowed")."""
    if st.phase != "play_card" or no_air(st):
        return
    drops = tuple(d for d in (_drop(st, st.scn.options.get(k)) for k in ("airdrop", "airdrop2"))
                  if d)
    if drops:
        set_ext(st, "airdrops", drops)
        st.phase = "airdrop"


def pending(st: GameState) -> dict[str, Any]:
    d = st.ext["airdrops"][0]
    return {"type": "airdrop", "seat": mode(st).hand_seat(st, d["side"]), "units": d["units"],
            "range": d["range"]}


def legal(st: GameState, seat: str) -> list[dict[str, Any]]:
    return [{"type": "airdrop", "seat": seat, "hex": [*h]} for h in sorted(st.scn.board._nbrs)]


def apply_drop(st: GameState, action: dict, events: list) -> None:
    h = parse_hex(action, "hex")
    board = st.scn.board
    if h not in board._nbrs:
        raise IllegalAction("illegal_target", "drop on a board hex")
    d, rest = st.ext["airdrops"][0], st.ext["airdrops"][1:]
    tpl = d["unit"]
    n_made = st.ext.get("dropped", 0)
    for _ in range(d["units"]):
        pos = h
        for _step in range(d["range"]):
            dr, dc = DIRECTIONS[st.rng.below(len(DIRECTIONS))]
            pos = (pos[0] + dr, pos[1] + dc)
            if pos not in board._nbrs:
                break
        if pos not in board._nbrs or pos in st.occ or "inf" in terrain_at(st, pos).impassable:
            events.append({"type": "drop_lost", "side": d["side"],
                           "hex": [*pos] if pos in board._nbrs else None})
            continue
        spec = template_spec(st, tpl)
        uid = fresh_unit_id(st)
        n_made += 1
        set_ext(st, "dropped", n_made)      # fresh_unit_id counts the units made so far
        u = Unit(uid, d["side"], spec, pos, spec.figures, spec.figures, spec.badge,
                 inactive_turn(tpl))
        st.units[uid] = u
        st.owned.add(uid)
        st.occ[pos] = uid
        events.append({"type": "unit_dropped", "unit": uid, "side": u.side, "hex": [*pos],
                       "code": spec.code})
    if rest:
        set_ext(st, "airdrops", rest)
    else:
        pop_ext(st, "airdrops")
        st.phase = "play_card"
        init_smoke(st)
