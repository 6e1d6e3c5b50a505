"""Scenario option ``smoke_screen`` (vocabulary 3.3 / 1.3 Smoke Screen): before the first
turn a side places LOS-blocking smoke hexes.  Phase ``smoke`` of the m44 turn machine;
also started after an air drop (engine/rulesets/m44/options/airdrop.py)."""
from __future__ import annotations

from ....core.errors import IllegalAction
from ....procedures.state import GameState
from ....core.terrain import Tile
from ....core.terrain_table import TERRAIN
from ....procedures.common import parse_hex, pop_ext, set_ext, tiles_at


SMOKE_DEFAULT = 3


def init_smoke(st: GameState) -> None:
    """Scenario option ``smoke_screen`` ``{side}`` (vocabulary 3.3 / 1.3 Smoke Screen):
    before the first turn that side places smoke hexes (LOS-blocking ``smoke`` tiles in
    ``tiles_over``; no movement effect, they stay).  How many is not in our texts: the
    value's ``nbr_hexes`` / ``count``, else 3 (our reading of the Smoke Screen markers);
    each one after the first adjacent to one already placed (a screen); ``end_smoke``
    stops early.  Skipped when the first turn opens with another step (night roll)."""
    v = st.scn.options.get("smoke_screen")
    if not v or st.phase != "play_card":
        return
    d = v if isinstance(v, dict) else {}
    side = str(d.get("side") or st.active).upper()
    if side not in ("AXIS", "ALLIES"):
        side = st.active
    n = int(d.get("nbr_hexes") or d.get("count") or SMOKE_DEFAULT)
    set_ext(st, "smoke", {"side": side, "left": n, "placed": ()})
    st.phase = "smoke"


def smoke_hexes(st: GameState) -> list:
    sm = st.ext["smoke"]
    placed = sm["placed"]
    if not placed:
        return sorted(h for h in st.scn.board._nbrs)
    nb = st.scn.board._nbrs
    return sorted({n for h in placed for n in nb[h] if n not in placed})


def place_smoke(st: GameState, action: dict, events: list) -> None:
    h = parse_hex(action, "hex")
    if h not in smoke_hexes(st):
        raise IllegalAction("illegal_target", "smoke may not be placed there")
    sm = st.ext["smoke"]
    st.tiles_over[h] = tiles_at(st, h) + (Tile(TERRAIN["smoke"]),)
    events.append({"type": "terrain_changed", "hex": [*h], "added": "smoke"})
    left = sm["left"] - 1
    set_ext(st, "smoke", {**sm, "left": left, "placed": sm["placed"] + (h,)})
    if left <= 0:
        end_smoke(st, action, events)


def end_smoke(st: GameState, action: dict, events: list) -> None:
    pop_ext(st, "smoke")
    st.phase = "play_card"
