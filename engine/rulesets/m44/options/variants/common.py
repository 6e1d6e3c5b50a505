"""What the 004 Appendix 3 "Suggested Variants" share: which variant is on, which side
plays the fictional army, unit profiles rebuilt at game start, towns, new units.

Options (engine/rulesets/m44/options/__init__.py): ``variant`` (ZOMBIE | EXTERMINATE |
CYBERMEN | WAR_OF_THE_WORLDS | NINETEEN_EIGHTY_FOUR) and ``variant_side`` (AXIS | ALLIES: the side
converted to Zombies / Daleks / Cybermen / Martians; default AXIS, the text leaves the choice to the
players: "Each Player takes one of the sides of a Scenario").

State: ``GameState.ext["variant"]``, a dict rebuilt on every change (never mutated in
place): per-variant counters (towns claimed, sickness level, reinforcements due...).
"""

from __future__ import annotations

from typing import Any, Callable

from .....core.units import UnitSpec
from .....core.terrain import Tile
from .....core.terrain_table import TERRAIN
from .....procedures.common import SIDES, fresh_unit_id, other, set_ext, tiles_at
from .....procedures.hooks import Victory
from .....procedures.state import GameState, Unit

KEY = "variant"
COUNTER = "variant_made"  # common.MADE_COUNTERS: ids of units made by a variant
VARIANTS = ("ZOMBIE", "EXTERMINATE", "CYBERMEN", "WAR_OF_THE_WORLDS", "NINETEEN_EIGHTY_FOUR")


def on(st: GameState, name: str) -> bool:
    return st.options.get("variant") == name


def alien(st: GameState) -> str:
    """The side converted to the variant's army (option ``variant_side``, default AXIS)."""
    return st.options.get("variant_side") or "AXIS"


def human(st: GameState) -> str:
    return other(alien(st))


def data(st: GameState) -> dict[str, Any]:
    return (st.ext or {}).get(KEY) or {}


def put(st: GameState, **changes: Any) -> None:
    set_ext(st, KEY, {**data(st), **changes})


def spec_like(base: UnitSpec, kind: str, name: str, unit_class: str, **fields: Any) -> UnitSpec:
    """A variant profile: identity (code, nation, side) from ``base``, the rest given."""
    return UnitSpec(
        code=base.code,
        kind=kind,
        unit_class=unit_class,
        nation=base.nation,
        side=base.side,
        name=name,
        badge=None,
        **fields,
    )


def respec(u: Unit, spec: UnitSpec, figures: int | None = None) -> None:
    """Give ``u`` (a unit of the state being built, not shared) the profile ``spec``."""
    u.spec = spec
    u.figures = spec.figures if figures is None else figures
    u.max_figures = max(u.figures, spec.figures)


def convert_side(st: GameState, side: str, new_spec: Callable[[Unit], UnitSpec]) -> None:
    """Set-up conversion: every unit of ``side`` takes the profile ``new_spec(unit)``;
    trains are taken off (no variant army has them)."""
    for u in list(st.units.values()):
        if u.side != side:
            continue
        if u.spec.train:
            remove_unit(st, u)
        else:
            respec(u, new_spec(u))


def add_unit(
    st: GameState,
    side: str,
    spec: UnitSpec,
    h: tuple[int, int],
    figures: int,
    events: list[dict[str, Any]] | None = None,
    reason: str = "variant",
) -> Unit:
    """A new unit on ``h`` (empty): fresh id (``common.fresh_unit_id``), event
    ``unit_entered {unit, side, hex, code, kind, figures, reason}``."""
    uid = fresh_unit_id(st)
    u = Unit(uid, side, spec, h, figures, max(figures, spec.figures))
    st.units[uid] = u
    st.occ[h] = uid
    st.owned.add(uid)
    set_ext(st, COUNTER, (st.ext or {}).get(COUNTER, 0) + 1)
    if events is not None:
        events.append(
            {
                "type": "unit_entered",
                "unit": uid,
                "side": side,
                "hex": [*h],
                "code": spec.code,
                "kind": spec.kind,
                "figures": figures,
                "reason": reason,
            }
        )
    return u


def remove_unit(st: GameState, u: Unit) -> None:
    """Take ``u`` off the board without medals (set-up conversions, surrender)."""
    st.occ.pop(u.hex, None)
    del st.units[u.id]


def medal_victory(st: GameState, counts: dict[str, int]) -> Victory:
    """The standard object of the game with the variant's victory counts: a side with its
    count of medals wins (``medals``), a side with no unit left loses (``annihilation``);
    False while nobody has won.  (A variant never changes the shared scenario: its
    victory counts live in ``ext["variant"]["victory"]``.)"""
    for side in SIDES:
        if st.medals(side) >= counts.get(side, st.scn.victory.get(side, 99)):
            return side, "medals"
    present = {u.side for u in st.units.values()}
    for side in SIDES:
        if other(side) not in present:
            return side, "annihilation"
    return False


def first_turn_once(st: GameState, key: str) -> bool:
    """True the first time it is asked for ``key`` (at the first turn, after the deal)."""
    done = data(st).get("once", ())
    if key in done:
        return False
    put(st, once=done + (key,))
    return True


def is_town(st: GameState, h: tuple[int, int], bunkers: bool = False) -> bool:
    """Towns & Villages (any ``village`` family tile except ruins already made), and
    with ``bunkers`` the Bunkers."""
    for t in tiles_at(st, h):
        if t.spec.family == "village" and t.spec.code != RUINS:
            return True
        if bunkers and t.spec.family == "bunker":
            return True
    return False


RUINS = "wruins"  # 004 "Towns & Villages, City Ruins"


def ruin(st: GameState, h: tuple[int, int], events: list[dict[str, Any]]) -> None:
    """The town on ``h`` becomes City Ruins (its town tiles replaced; other tiles kept)."""
    keep = tuple(t for t in tiles_at(st, h) if t.spec.family != "village")
    st.tiles_over[h] = keep + (Tile(TERRAIN[RUINS]),)
    events.append({"type": "terrain_changed", "hex": [*h], "added": RUINS, "removed": "village"})


def towns(st: GameState, bunkers: bool = False) -> list[tuple[int, int]]:
    """Every town hex at game start, board order."""
    return sorted(h for h in st.scn.tiles if is_town(st, h, bunkers))


def baseline(st: GameState, side: str) -> int:
    """The row of ``side``'s own board edge."""
    return 0 if side == st.scn.player1_side else st.scn.board.rows - 1


def section_hexes(st: GameState, row: int, section: int | None) -> list[tuple[int, int]]:
    """Hexes of ``row`` in ``section`` (0/1/2 from the left as the board is drawn; None:
    all), board order."""
    board = st.scn.board
    return [
        h
        for h in board.hexes
        if h[0] == row and (section is None or board.in_section(h, section, False))
    ]


def remove_obstacles(st: GameState, side: str) -> None:
    """Every obstacle tile (slot ``obstacle``) on ``side``'s half of the board is
    taken off (game start; the middle row of a 9-row board is nobody's half)."""
    rows = st.scn.board.rows
    top = side == st.scn.player1_side
    for h in st.scn.tiles:
        if (h[0] < rows // 2) if top else (h[0] > (rows - 1) // 2):
            tiles = tiles_at(st, h)
            keep = tuple(t for t in tiles if t.spec.slot != "obstacle")
            if len(keep) != len(tiles):
                st.tiles_over[h] = keep
