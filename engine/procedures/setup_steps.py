"""Scenario set-up steps played before the first turn, shared by the rulesets that play
``.m44`` scenarios (the m44 options ``airdrop`` / ``smoke_screen`` and Fast Play '44):
reading a drop (vocabulary 3.3), dropping its units with drift (004 "Paratroops & Glider
Landings", Airdrop Method), the hexes a smoke screen may still take and placing one."""
from __future__ import annotations

from typing import Any

from ..core.errors import IllegalAction
from ..core.geometry import DIRECTIONS
from ..core.scenario import inactive_turn
from ..core.terrain import Tile
from ..core.terrain_table import TERRAIN
from .common import (SIDES, TEMPLATE_KEYS, fresh_unit_id, parse_hex, set_ext, template_spec,
                     terrain_at, tiles_at)
from .state import GameState, Unit

SMOKE_DEFAULT = 3


def read_drop(st: GameState, v: Any) -> dict[str, Any] | None:
    """Option value ``{side, range, nbr_units, unit}`` as ``{side, range, units, unit}``
    (default unit: special forces of the side's nation); None if unreadable."""
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


def scenario_drops(st: GameState) -> tuple[dict[str, Any], ...]:
    """The readable drops of options ``airdrop`` / ``airdrop2``, in that order."""
    return tuple(d for d in (read_drop(st, st.scn.options.get(k))
                             for k in ("airdrop", "airdrop2")) if d)


def drop_units(st: GameState, d: dict[str, Any], action: dict, events: list) -> list[str]:
    """Drop ``d``'s units aimed at ``action['hex']``: each drifts ``range`` random steps
    (state RNG) and is lost (``drop_lost``) off the board, on an occupied hex or on
    terrain impassable to infantry. Returns the ids of the units landed."""
    h = parse_hex(action, "hex")
    board = st.scn.board
    if h not in board._nbrs:
        raise IllegalAction("illegal_target", "drop on a board hex")
    tpl, made = d["unit"], []
    n_made = (st.ext or {}).get("dropped", 0)
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
        made.append(uid)
        events.append({"type": "unit_dropped", "unit": uid, "side": u.side, "hex": [*pos],
                       "code": spec.code})
    return made


def smoke_screen(st: GameState, default_side: str) -> dict[str, Any] | None:
    """Option ``smoke_screen`` as ``{side, left, placed}`` (``nbr_hexes`` / ``count``, else
    3 hexes), None without it."""
    v = st.scn.options.get("smoke_screen")
    if not v:
        return None
    d = v if isinstance(v, dict) else {}
    side = str(d.get("side") or default_side).upper()
    if side not in SIDES:
        side = default_side
    return {"side": side, "left": int(d.get("nbr_hexes") or d.get("count") or SMOKE_DEFAULT),
            "placed": ()}


def smoke_hexes(st: GameState, placed: tuple) -> list:
    """Any board hex for the first smoke, then a hex adjacent to one already placed."""
    nb = st.scn.board._nbrs
    placed = {(h[0], h[1]) for h in placed}       # tuples or, from a snapshot, lists
    if not placed:
        return sorted(nb)
    return sorted({n for h in placed for n in nb[h] if n not in placed})


def add_smoke(st: GameState, sm: dict[str, Any], action: dict, events: list) -> dict[str, Any]:
    """Place one smoke hex of screen ``sm`` (LOS-blocking ``smoke`` tile); the new screen."""
    h = parse_hex(action, "hex")
    if h not in smoke_hexes(st, sm["placed"]):
        raise IllegalAction("illegal_target", "smoke may not be placed there")
    st.tiles_over[h] = tiles_at(st, h) + (Tile(TERRAIN["smoke"]),)
    events.append({"type": "terrain_changed", "hex": [*h], "added": "smoke"})
    return {**sm, "left": sm["left"] - 1, "placed": (*((p[0], p[1]) for p in sm["placed"]), h)}
