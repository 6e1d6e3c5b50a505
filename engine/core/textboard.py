"""Draw a board as text and get a REAL ``.m44`` scenario (test and golden-file helper).

The drawing is turned into an ordinary ``.m44`` dict (:func:`m44_from_text`) and loaded
through :func:`engine.core.scenario.load_scenario` (:func:`board_from_text`), so rule tests
exercise exactly the code path real scenario files take.

Syntax
------

One line per board row, tokens separated by blanks; draw rows in their natural
staggered layout (indentation is ignored).  The k-th token of row ``r`` is the hex
``(r, 2k + r % 2)`` - i.e. the first token of an odd row is col 1.  A line may start
with a prefix:

* ``4:``    the line is row 4 (otherwise: the row after the previous line, from 0);
* ``4@8:``  row 4, first token at col 8 (draw only the hexes that matter).

Rows and hexes that are not drawn are open countryside.  Lines that are blank or
start with ``#`` are ignored.

A token is ``TERRAIN[:UNIT]``:

* ``TERRAIN``: one or more legend symbols stacked on the hex, each optionally followed
  by an orientation digit, e.g. ``W`` (woods), ``RB`` (river + bridge), ``r3`` (road
  turned to orientation 3), ``HS`` (hill + sandbag); ``.`` = open;
* ``UNIT`` after a colon: a unit letter, lowercase = player 1's side (top, AXIS by
  default), uppercase = player 2's side (bottom, ALLIES by default), then an optional
  figure count: ``W:i`` Axis infantry in woods, ``.:A2`` Allied tank with 2 figures,
  ``:G`` Allied artillery on open ground (the ``.`` may be omitted).

Legend (:data:`TERRAIN_SYMBOLS`, extend or override with ``legend=``; a value is a code
or a dict ``{"slot": ..., "name": ..., "behavior": ..., "original_owner": ...}``)::

    .  open          W woods          H hill            M mountain       T town
    h  hedgerow      R river          B bridge          F ford           L lake
    S  sandbag       X wire           O hedgehog        K bunker         k field bunker
    m  marsh         t trenches       b beach           r road           c church
    J  jungle        C cliff (hill)   U bluff (hill)    w wide river     P palm trees

Unit letters (:data:`UNIT_LETTERS`, nations from ``nations=``)::

    i infantry   s special forces   a armor   e elite armor   g artillery   v vehicle

Example::

    scn = board_from_text('''
        W    .    H:i  .    .
          .    R    .    .
        .:I  RB   .    T    .
    ''', units={(4, 6): "tankus:3"}, tags={(0, 4): "medal0"}, victory=(3, 3))

Extra keyword arguments: ``units`` ({hex: "code[:figures]" or a unit dict}), ``tags``
({hex: tag name, tag dict, or a list of them}), ``hexes`` (raw ``hexagons`` entries merged
in), ``kind`` (STANDARD/OVERLORD/BRKTHRU), ``face``, ``player1`` (side at the top,
default AXIS), ``starting`` ("PLAYER1"/"PLAYER2", default the Allies' player),
``cards`` / ``victory`` ((player1, player2), default (4, 4)), ``date_begin``,
``options``, ``nations`` ({"AXIS": "ger", "ALLIES": "us"}), ``game_info`` (raw
overrides), ``name``, ``lenient``.
"""

from __future__ import annotations

import re
from typing import Any

from .geometry import Hex
from .scenario import load_scenario
from .scenario_model import Scenario

TERRAIN_SYMBOLS: dict[str, str | dict[str, Any]] = {
    "W": "woods",
    "H": "hills",
    "M": "mountain",
    "T": "buildings",
    "h": "hedgerow",
    "R": "river",
    "B": {"slot": "rect_terrain", "name": "bridge"},
    "F": {"slot": "rect_terrain", "name": "ford"},
    "L": "lakeA",
    "S": {"slot": "obstacle", "name": "sand"},
    "X": {"slot": "obstacle", "name": "wire"},
    "O": {"slot": "obstacle", "name": "hedgehog"},
    "K": {"slot": "rect_terrain", "name": "bunker"},
    "k": {"slot": "rect_terrain", "name": "casemate"},
    "m": "marshes",
    "t": "wtrenches",
    "b": "pbeach",
    "r": "road",
    "c": "church",
    "J": "pjungle",
    "C": {"name": "hills", "behavior": "CLIFF"},
    "U": {"name": "hills", "behavior": "BLUFF"},
    "w": {"name": "river", "behavior": "WIDE_RIVER"},
    "P": "palmtrees",
}
UNIT_LETTERS: dict[str, str] = {
    "i": "inf",
    "s": "inf2",
    "a": "tank",
    "e": "tank2",
    "g": "gun",
    "v": "veh",
}
DEFAULT_NATIONS = {"AXIS": "ger", "ALLIES": "us"}

_PREFIX = re.compile(r"^\s*(\d+)(?:@(\d+))?\s*:\s*")
_SYMBOL = re.compile(r"(\D)(\d?)")


def _tile_item(symbol: str, orientation: str, legend: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    if symbol not in legend:
        raise ValueError(f"unknown terrain symbol {symbol!r}")
    value = legend[symbol]
    item = {"name": value} if isinstance(value, str) else dict(value)
    slot = item.pop("slot", "terrain")
    if orientation:
        item["orientation"] = int(orientation)
    return slot, item


def _unit_item(text: str, top_side: str, nations: dict[str, str]) -> dict[str, Any]:
    letter, figures = text[0], text[1:]
    if letter.lower() not in UNIT_LETTERS:
        raise ValueError(f"unknown unit letter {letter!r}")
    side = top_side if letter.islower() else ("ALLIES" if top_side == "AXIS" else "AXIS")
    item: dict[str, Any] = {"name": UNIT_LETTERS[letter.lower()] + nations[side]}
    if figures:
        item["nbr_units"] = int(figures)
    return item


def _parse_token(
    token: str, legend: dict[str, Any], top_side: str, nations: dict[str, str]
) -> dict[str, Any]:
    terrain, _, unit = token.partition(":")
    entry: dict[str, Any] = {}
    for symbol, orientation in _SYMBOL.findall(terrain.replace(".", "")):
        slot, item = _tile_item(symbol, orientation, legend)
        if slot in entry:
            raise ValueError(f"two {slot} tiles in token {token!r}")
        entry[slot] = item
    if unit:
        entry["unit"] = _unit_item(unit, top_side, nations)
    return entry


def _drawn_hexes(
    text: str, legend: dict[str, Any], top_side: str, nations: dict[str, str]
) -> dict[Hex, dict[str, Any]]:
    out: dict[Hex, dict[str, Any]] = {}
    row = -1
    for line in text.splitlines():
        if not line.strip() or line.strip().startswith("#"):
            continue
        m = _PREFIX.match(line)
        row = int(m.group(1)) if m else row + 1
        col = int(m.group(2)) if m and m.group(2) else row % 2
        if col % 2 != row % 2:
            raise ValueError(f"row {row} cannot start at col {col} (parity)")
        for k, token in enumerate((line[m.end() :] if m else line).split()):
            entry = _parse_token(token, legend, top_side, nations)
            if entry:
                out[(row, col + 2 * k)] = entry
    return out


def _unit_from_spec(value: str | dict[str, Any]) -> dict[str, Any]:
    if isinstance(value, dict):
        return dict(value)
    code, _, figures = value.partition(":")
    return {"name": code, **({"nbr_units": int(figures)} if figures else {})}


def _tag_items(value: Any) -> list[dict[str, Any]]:
    values = value if isinstance(value, list) else [value]
    return [{"name": v} if isinstance(v, str) else dict(v) for v in values]


def m44_from_text(
    text: str = "",
    *,
    legend: dict[str, Any] | None = None,
    units: dict[Hex, str | dict[str, Any]] | None = None,
    tags: dict[Hex, Any] | None = None,
    hexes: list[dict[str, Any]] | None = None,
    kind: str = "STANDARD",
    face: str = "COUNTRY",
    player1: str = "AXIS",
    starting: str | None = None,
    cards: tuple[int, int] = (4, 4),
    victory: tuple[int, int] = (4, 4),
    date_begin: str = "1944-06-06",
    options: dict[str, Any] | None = None,
    nations: dict[str, str] | None = None,
    game_info: dict[str, Any] | None = None,
    name: str = "textboard",
) -> dict[str, Any]:
    """The ``.m44`` dict for a text drawing (syntax in the module docstring)."""
    player2 = "ALLIES" if player1 == "AXIS" else "AXIS"
    drawn = _drawn_hexes(
        text, {**TERRAIN_SYMBOLS, **(legend or {})}, player1, {**DEFAULT_NATIONS, **(nations or {})}
    )
    for h, unit in (units or {}).items():
        drawn.setdefault((h[0], h[1]), {})["unit"] = _unit_from_spec(unit)
    for h, tag in (tags or {}).items():
        drawn.setdefault((h[0], h[1]), {}).setdefault("tags", []).extend(_tag_items(tag))
    hexagons = [{"row": r, "col": c, **e} for (r, c), e in sorted(drawn.items())]
    hexagons.extend(hexes or [])
    info: dict[str, Any] = {
        "side_player1": player1,
        "side_player2": player2,
        "starting": starting or ("PLAYER1" if player1 == "ALLIES" else "PLAYER2"),
        "cards_player1": cards[0],
        "cards_player2": cards[1],
        "victory_player1": victory[0],
        "victory_player2": victory[1],
        "date_begin": date_begin,
        **({"options": options} if options else {}),
        **(game_info or {}),
    }
    return {
        "meta_data": {"name": name},
        "game_info": info,
        "board": {"type": kind, "face": face, "hexagons": hexagons, "labels": []},
    }


def board_from_text(
    text: str = "", *, lenient: bool = False, forces: bool = False, **kwargs: Any
) -> Scenario:
    """Load the scenario drawn as text (see :func:`m44_from_text` for the keywords); a
    board fragment may hold units of one side only, or none (``forces=True``: refused
    like a real scenario, ``scenario_no_units``)."""
    return load_scenario(m44_from_text(text, **kwargs), lenient=lenient, forces=forces)
