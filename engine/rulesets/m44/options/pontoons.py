"""Pontoon Bridges (004 Appendix 2 "Bridge, Pontoon"; game option ``pontoon_bridges``).

004: "Pontoon Bridges may only be used in scenarios allowing them, as described by the
scenarios Special Rules Section.  To construct a Pontoon Bridge, play an Attack Command
Card.  An Engineer Unit next to a River uses the turn to place a Pontoon Bridge on the
River hex.  The Command Card has to be for the correct Section of the Board."  And
"Combat Engineers ... May ... construct a Pontoon Bridge".

* Switching the option on is the scenario's Special Rules allowing them.
* "play an Attack Command Card": the unit was ordered by a play carried out as an Attack
  section card (``Play.key == "attack"``).  A Counter-Attack copying an Attack counts: its
  play is carried out as the copied card (004 Counter-Attack: "issue the same command as
  the card your opponent just played"), on the same physical flank.
* "An Engineer Unit next to a River": a Combat Engineer (badge profile ``kind ==
  "engineer"``), adjacent to a river hex (``HexTerrain.river``: not a lake, not a frozen
  river, which is passable anyway) without a bridge or ford (``.bridge``) and without a
  unit on it.  The pond (headwaters) row of the terrain table is a river row, so it counts.
* "uses the turn": as for placing charges (004 Bridge Demolition Option 1, "It may not
  Move or Battle"), the engineer must not have moved and builds instead of battling.
* "The Command Card has to be for the correct Section": the river hex lies in a section
  the card orders in (its quotas; a hex on a section line is in both).

Effect: a ``pontoon`` tile ("Bridge, Pontoon" of the terrain table) is added to the
river hex through the changed tiles (``GameState.tiles_over``), so the hex follows the
bridge row (004: "A Unit may cross a River hex, using a Pontoon Bridge, with no Movement
restrictions ... does not block Line Of Sight"); with ``bridge_demolition`` it is a
bridge like any other (engine/rulesets/m44/options/bridges.py).
"""

from __future__ import annotations

from typing import Any

from ....core.errors import IllegalAction
from ....procedures.state import GameState, Play, Unit
from ....core.terrain import Tile
from ....core.terrain_table import TERRAIN
from ....procedures.common import is_top, terrain_at, tiles_at

Hex = tuple[int, int]
OPTION = "pontoon_bridges"
TILE = "pontoon"  # terrain table: "Bridge, Pontoon"


def _ordering_play(st: GameState, u: Unit) -> Play | None:
    """The play that ordered ``u`` (read only: several plays under Extra Command Cards)."""
    return next((p for p in reversed(st.plays) if u.id in p.ordered), None)


def _in_card_sections(st: GameState, play: Play, h: Hex, side: str) -> bool:
    """Is ``h`` in a section ``play`` orders in (Overlord: its sub-sections)?"""
    board, top = st.scn.board, is_top(st, side)
    for q in play.quotas:
        if q.sections is None:
            return True
        secs = board.subsections(h, top) if q.subs else board.sections(h, top)
        if secs & q.sections:
            return True
    return False


def _open_river(st: GameState, h: Hex) -> bool:
    t = terrain_at(st, h)
    return t.river and not t.bridge and h not in st.occ


def pontoon_hexes(st: GameState, u: Unit) -> list[Hex]:
    """River hexes the ordered Combat Engineer ``u`` may place a Pontoon Bridge on."""
    if not st.options.get(OPTION) or u.spec.kind != "engineer" or u.moved:
        return []
    play = _ordering_play(st, u)
    if play is None or play.key != "attack":
        return []
    return [
        n
        for n in st.scn.board.neighbours(u.hex)
        if _open_river(st, n) and _in_card_sections(st, play, n, u.side)
    ]


def build_pontoon(st: GameState, u: Unit, h: Hex, events: list[dict[str, Any]]) -> None:
    """The engineer uses its turn to place a Pontoon Bridge on the river hex ``h``."""
    if h not in pontoon_hexes(st, u):
        raise IllegalAction("no_river", "this unit may not place a pontoon bridge there")
    st.mut(u.id).no_battle = True  # "uses the turn": no battle either
    st.tiles_over[h] = tiles_at(st, h) + (Tile(TERRAIN[TILE]),)
    events.append({"type": "pontoon_built", "unit": u.id, "hex": [*h]})
