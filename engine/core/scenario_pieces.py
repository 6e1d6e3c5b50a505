"""The pieces a ``.m44`` scenario puts on its board (m44-vocabulary sections 1-3):
terrain tiles with their ``behavior`` / ``behavior2`` / owner / ``properties`` (1), units
and the ship / train ``rect_terrain`` units (2), hex tags: objective medals, exit
markers, minefields, camouflage and star tokens (3)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from .geometry import Board, Hex
from .scenario_json import Unknowns, as_int, parse_coord, upper
from .scenario_model import SIDES, ExitZone, Minefield, Objective, UnitSetup
from .terrain import Tile
from .terrain_table import BEHAVIORS, TERRAIN, lookup
from .units import unit_spec


#: ``rect_terrain`` names that are units (vocabulary 1.1 / 2.1).
RECT_UNITS = frozenset({"pdestroyer", "loco", "wagon"})
_PROP_FIELDS = {
    "isImpassable": "impassable",
    "mustStopWhenEntering": "must_stop",
    "isBlockingLineOfSight": "blocks_los",
}
_CLASS_IDS = {1: "inf", 2: "armor", 3: "art"}


def read_tile(
    item: dict[str, Any], slot: str, h: Hex, unknown: Unknowns, unit_side: str | None
) -> Tile | None:
    name = str(item.get("name", ""))
    behavior = item.get("behavior") or None
    behavior2 = item.get("behavior2") or None
    try:
        spec = lookup(name, behavior)
    except KeyError:
        unknown.add(slot, name if name not in TERRAIN else f"{name}+{behavior}", h)
        return None
    if behavior2 not in BEHAVIORS and behavior2 is not None:
        unknown.add(slot, f"{name}+{behavior2}", h)
        return None
    extra = BEHAVIORS[behavior2] if behavior2 else None
    if extra:
        spec = replace(spec, **extra)
    owner = upper(item.get("original_owner"))
    if owner is None and spec.defense_owner_only and not spec.defense_needs_owner:
        owner = unit_side  # vocabulary 1.1: an unowned bunker takes the occupant's side
    props = item.get("properties") or {}
    return Tile(
        spec=spec,
        orientation=int(item.get("orientation") or 1),
        owner=owner,
        behavior=behavior,
        behavior2=behavior2,
        properties=tuple(sorted((str(k), _freeze(v)) for k, v in props.items()))
        if isinstance(props, dict)
        else (),
    )


def _freeze(v: Any) -> Any:
    if isinstance(v, dict):
        return tuple(sorted((str(k), _freeze(x)) for k, x in v.items()))
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    return v


def read_unit(
    item: dict[str, Any],
    h: Hex,
    unknown: Unknowns,
    date_begin: str | None,
    rect_nation: str | None = None,
) -> UnitSetup | None:
    name = str(item.get("name", ""))
    try:
        spec = unit_spec(
            name,
            item.get("badge"),
            item.get("nbr_units"),
            item.get("behavior"),
            item.get("equipment"),
            date_begin,
            nation=rect_nation,
        )
    except KeyError:
        unknown.add("unit", name if not item.get("behavior") else f"{name}+{item['behavior']}", h)
        return None
    return UnitSetup(
        hex=h,
        side=spec.side,
        spec=spec,
        figures=spec.figures,
        badge=spec.badge,
        equipment=item.get("equipment"),
        behavior=item.get("behavior"),
        inactive_until=inactive_turn(item),
    )


def inactive_turn(item: dict[str, Any], now: int = 0) -> int:
    """Vocabulary 2.5 ``CANNOT_BE_ACTIVATED_TILL_TURN`` (+ ``turn``): the unit cannot be
    ordered while the game turn is <= the returned turn (0: no restriction).  ``now`` is
    added for units that arrive during the game (supply train: BGA counts the option's
    ``turn`` from the arrival turn)."""
    if item.get("behavior") != "CANNOT_BE_ACTIVATED_TILL_TURN":
        return 0
    return now + as_int(item.get("turn"), 0)


_MEDAL = re.compile(r"medal(\d+)$")
_ALLIED_MEDALS = frozenset({1, 4, 6})
_MEDAL_KEYS = (
    "counts_for",
    "nbr_hex",
    "permanent",
    "majority",
    "sole_control",
    "last_to_occupy",
    "turn_start",
    "any_hex",
)
KNOWN_TAGS = frozenset({"tag1", "tag3", "tag4", "tag5", "tag14", "tag15"})  # rule-bearing
_TAG = re.compile(r"tag\d+$")
MINE_BEHAVIORS = {"MINE_FIELD": False, "DECOY_MEDAL_MINE_FIELD": True}


@dataclass
class Tags:
    objectives: list[Objective] = field(default_factory=list)
    exits: list[ExitZone] = field(default_factory=list)
    mines: list[Minefield] = field(default_factory=list)
    camouflage: list[Hex] = field(default_factory=list)
    markers: list[Hex] = field(default_factory=list)


def _group(tag: dict[str, Any], h: Hex, board: Board) -> tuple[Hex, ...]:
    out = [h]
    for text in tag.get("group") or []:
        g = parse_coord(text, board.rows)
        if g is not None and board.on_board(g) and g not in out:
            out.append(g)
    return tuple(out)


def _medal(tag: dict[str, Any], number: int, h: Hex, board: Board, index: int) -> Objective:
    medal = tag.get("medal")
    settings: dict[str, Any] = medal if isinstance(medal, dict) else {}
    side: str | None = None if number == 0 else ("ALLIES" if number in _ALLIED_MEDALS else "AXIS")
    if (settings.get("majority") or settings.get("any_hex")) and settings.get("side"):
        side = upper(settings["side"])
    kw: dict[str, Any] = {}
    for key in _MEDAL_KEYS:
        if key in settings and settings[key] not in (None, ""):
            kw[key] = (
                int(settings[key]) if key in ("counts_for", "nbr_hex") else bool(settings[key])
            )
    return Objective(id=f"m{index}", hexes=_group(tag, h, board), side=side, **kw)


def read_tag(
    tag: dict[str, Any], h: Hex, board: Board, out: Tags, unknown: Unknowns, occupied: bool
) -> None:
    """One hex tag (vocabulary 3.1).  As in BGA the rule comes from the ``medalN`` name or
    from the ``behavior``; any other ``tagN`` without a behaviour is a decorative token
    (BGA creates nothing for it): ignored, not unknown.  An unknown behaviour or a name
    that is neither ``medalN`` nor ``tagN`` is unknown."""
    name = str(tag.get("name", ""))
    behavior = tag.get("behavior") or None
    medal = _MEDAL.match(name)
    if medal:
        out.objectives.append(_medal(tag, int(medal.group(1)), h, board, len(out.objectives)))
    elif not _TAG.match(name):
        unknown.add("tag", name, h)
    elif behavior in MINE_BEHAVIORS:
        for g in _group(tag, h, board):
            out.mines.append(
                Minefield(hex=g, side=upper(tag.get("side")), decoy=MINE_BEHAVIORS[behavior])
            )
    elif behavior == "EXIT_MARKER":
        if upper(tag.get("side")) in SIDES:
            out.exits.append(
                ExitZone(side=upper(tag.get("side")) or "", hexes=_group(tag, h, board))
            )
    elif behavior not in (None, "IS_WITTMANN"):
        unknown.add("tag", f"{name}+{behavior}", h)
    elif name in ("tag14", "tag15"):
        out.camouflage.append(h)
    elif name == "tag1" and not occupied:  # star token on an empty hex; ignored under a unit
        out.markers.append(h)
