"""Scenario set-up steps played before the first turn, shared by the rulesets that play
``.m44`` scenarios (the m44 options ``airdrop`` / ``smoke_screen`` and Fast Play '44):
reading a drop (vocabulary 3.3), dropping its units with drift (004 "Paratroops & Glider
Landings", Airdrop Method), the hexes a smoke screen may still take and placing one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.geometry import Hex
from ..core.errors import IllegalAction
from ..core.geometry import DIRECTIONS
from ..core.scenario_pieces import inactive_turn
from ..core.terrain import Tile
from ..core.terrain_table import TERRAIN
from .common import (
    SIDES,
    TEMPLATE_KEYS,
    fresh_unit_id,
    parse_hex,
    set_ext,
    template_spec,
    terrain_at,
    tiles_at,
)
from .state import GameState, Unit

SMOKE_DEFAULT = 3


def _count(v: Any, default: int) -> int:
    """A count written as an int, a float or a numeric string (else ``default``)."""
    if isinstance(v, bool):
        return default
    if isinstance(v, (int, float)):
        return int(v)
    if isinstance(v, str) and v.strip().lstrip("-").isdigit():
        return int(v.strip())
    return default


def _per_drop(v: Any, i: int) -> Any:
    """Field ``v`` of a drop for the ``i``-th drop: a list gives one value per drop (the
    last repeats), anything else is every drop's."""
    if isinstance(v, list):
        return v[min(i, len(v) - 1)] if v else None
    return v


def read_drops(st: GameState, v: Any) -> list[dict[str, Any]]:
    """Option ``airdrop`` / ``airdrop2`` (vocabulary 3.3 ``{side, range, nbr_units, center,
    unit, nbr_drops, behavior, option, option2}``) as drops ``{side, range, units, unit}``,
    one per aim hex the side chooses, in every shape scenario files write it:

    * ``nbr_units`` a count (int or numeric string: one drop of that many units) or a list
      of counts (one drop per entry: ``[3, 3, 3]`` three drops of 3 units, ``[1, 1, 1, 1,
      1, 1]`` six drops of 1; our reading of the 004 "Alternate Airdrop Method", "a slight
      pause when a figure or two is dropped"); ``nbr_drops`` with a count: that many drops
      of that many units (our reading); ``range`` and ``unit`` a value or a list (per drop);
    * ``unit`` a code, a ``.m44`` unit dict or missing (special forces of the side's
      nation); a drop-level ``behavior`` / ``turn`` applies to a template without its own;
    * the whole value a list of such drops, or a dict keyed by side.
    Unreadable drops (no side, an unknown unit) are left out; ``center``, ``option`` /
    ``option2`` and the "first full-day turn" variant are ignored."""
    if isinstance(v, list):
        return [d for x in v for d in read_drops(st, x)]
    if not isinstance(v, dict):
        return []
    keyed = {str(k).upper(): x for k, x in v.items() if str(k).upper() in SIDES}
    if "side" not in v and keyed:
        return [
            d
            for side, x in keyed.items()
            if isinstance(x, dict)
            for d in read_drops(st, {**x, "side": side})
        ]
    side = str(v.get("side") or "").upper()
    if side not in SIDES:
        return []
    n = v.get("nbr_units")
    counts = (
        [_count(x, 1) for x in n]
        if isinstance(n, list)
        else [_count(n, 1)] * max(1, _count(v.get("nbr_drops"), 1))
    )
    out = []
    for i, k in enumerate(counts):
        tpl = _per_drop(v.get("unit"), i)
        if isinstance(tpl, str):
            tpl = {"name": tpl}
        if not isinstance(tpl, dict) or not tpl.get("name"):
            tpl = {"name": "inf2us" if side == "ALLIES" else "inf2ger"}
        if v.get("behavior") and not tpl.get("behavior"):
            tpl = {**tpl, "behavior": v["behavior"], "turn": tpl.get("turn", v.get("turn"))}
        try:
            template_spec(st, tpl)
        except (KeyError, ValueError, TypeError):
            continue
        out.append(
            {
                "side": side,
                "range": max(0, _count(_per_drop(v.get("range"), i), 1) or 1),
                "units": max(1, k),
                "unit": {key: tpl.get(key) for key in TEMPLATE_KEYS},
            }
        )
    return out


def scenario_drops(st: GameState) -> tuple[dict[str, Any], ...]:
    """The readable drops of options ``airdrop`` / ``airdrop2``, in that order."""
    return tuple(d for k in ("airdrop", "airdrop2") for d in read_drops(st, st.scn.options.get(k)))


def drop_units(
    st: GameState, d: dict[str, Any], action: dict[str, Any], events: list[dict[str, Any]]
) -> list[str]:
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
            events.append(
                {
                    "type": "drop_lost",
                    "side": d["side"],
                    "hex": [*pos] if pos in board._nbrs else None,
                }
            )
            continue
        spec = template_spec(st, tpl)
        uid = fresh_unit_id(st)
        n_made += 1
        set_ext(st, "dropped", n_made)  # fresh_unit_id counts the units made so far
        u = Unit(
            uid, d["side"], spec, pos, spec.figures, spec.figures, spec.badge, inactive_turn(tpl)
        )
        st.units[uid] = u
        st.owned.add(uid)
        st.occ[pos] = uid
        made.append(uid)
        events.append(
            {"type": "unit_dropped", "unit": uid, "side": u.side, "hex": [*pos], "code": spec.code}
        )
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
    return {
        "side": side,
        "left": int(d.get("nbr_hexes") or d.get("count") or SMOKE_DEFAULT),
        "placed": (),
    }


def smoke_hexes(st: GameState, placed: Sequence[Sequence[int]]) -> list[Hex]:
    """Any board hex for the first smoke, then a hex adjacent to one already placed."""
    nb = st.scn.board._nbrs
    smoke = {(h[0], h[1]) for h in placed}  # tuples or, from a snapshot, lists
    if not smoke:
        return sorted(nb)
    return sorted({n for h in smoke for n in nb[h] if n not in smoke})


def add_smoke(
    st: GameState, sm: dict[str, Any], action: dict[str, Any], events: list[dict[str, Any]]
) -> dict[str, Any]:
    """Place one smoke hex of screen ``sm`` (LOS-blocking ``smoke`` tile); the new screen."""
    h = parse_hex(action, "hex")
    if h not in smoke_hexes(st, sm["placed"]):
        raise IllegalAction("illegal_target", "smoke may not be placed there")
    st.tiles_over[h] = tiles_at(st, h) + (Tile(TERRAIN["smoke"]),)
    events.append({"type": "terrain_changed", "hex": [*h], "added": "smoke"})
    return {**sm, "left": sm["left"] - 1, "placed": (*((p[0], p[1]) for p in sm["placed"]), h)}
