"""Loading ``.m44`` scenario files (the official editor's JSON) into a :class:`Scenario`.

CONTRACT: a Scenario is immutable and shared by every game state played on it.

What is read (m44-vocabulary sections 1-4): ``board.type``/``face`` (any case), every
``board.hexagons[]`` tile slot (``terrain``, ``rect_terrain``, ``obstacle``; a dict or a
list of dicts) with ``orientation``/``behavior``/``behavior2``/``original_owner``/
``properties``; BEACH-face background rows (1.1); ``unit`` entries and the ship/train
``rect_terrain`` units (2.1); ``tags`` (list or index-keyed map, 3.1/3.2); ``labels``;
``game_info`` (3.3) including ``victory.condition[].group_sudden_death``.

Defaults (documented choices): missing ``starting`` -> the Allies move first (the usual
briefing and the printed rules' examples); missing ``cards_playerN`` -> 4 (hand
size used by most scenarios); missing ``victory_playerN`` -> 4; missing sides -> player 1
AXIS, player 2 ALLIES.

Additions to the original skeleton (additive):

* Scenario fields ``masses`` (hex -> contiguous hill/mountain mass id, used by LOS),
  ``rail_links`` (hex -> rail-connected neighbours), ``edge_links`` (hex -> neighbours
  reachable through the open sides of a wadi / bridge section), ``camouflage`` (hexes
  with tag14/tag15), ``markers`` (tag1 star tokens on empty hexes), ``decoy_mines`` is
  folded into ``Minefield.decoy``;
* ``Scenario.terrain_at(h)`` (``HexTerrain``, open countryside when absent),
  ``Scenario.unit_at(h)``;
* :func:`board_for` (static board JSON, docs/architecture.md),
  :func:`check_codes` (all unknown codes of a source, for the CLI).

The JSON is read by :mod:`.scenario_json`, the board's pieces by :mod:`.scenario_pieces`;
here: the derived tables, ``game_info``, the loader and the static board JSON.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Iterable

from .errors import ScenarioError, UnknownCode
from .geometry import Board, Hex, make_board
from .scenario_json import (
    Unknowns,
    as_int,
    entries,
    hex_of,
    malformed,
    parse_coord,
    read_source,
    text_field,
    upper,
)
from .scenario_model import SIDES, Scenario, SuddenDeath, UnitSetup
from .scenario_pieces import RECT_UNITS, Tags, read_tag, read_tile, read_unit
from .terrain import HexTerrain, Tile, combine
from .terrain_table import TERRAIN, describe, link_directions
from .units import army_rules

# ---------------------------------------------------------------------------------------
# Derived tables
# ---------------------------------------------------------------------------------------


def _links(
    board: Board, tiles: dict[Hex, tuple[Tile, ...]], want: str
) -> dict[Hex, frozenset[Hex]]:
    """Neighbours connected by matching tile sides (roads/rails; both tiles must point).

    A rail tile without drawn sides (railway station, railroad bridge; vocabulary: "counts
    as rail") connects on every side, i.e. with each rail that points at it (BGA treats
    any rail cell as track)."""
    sides: dict[Hex, set[Hex]] = {}
    for h, ts in tiles.items():
        dirs = {
            d
            for t in ts
            if getattr(t.spec, want)
            for d in (link_directions(t.spec, t.orientation) if t.spec.links else range(6))
        }
        if dirs:
            sides[h] = {n for d in dirs if (n := board.neighbour_in_direction(h, d)) is not None}
    return {h: frozenset(n for n in ns if h in sides.get(n, ())) for h, ns in sides.items()}


def _edge_links(board: Board, tiles: dict[Hex, tuple[Tile, ...]]) -> dict[Hex, frozenset[Hex]]:
    """Open sides of wadis / bridge sections: the only neighbours they connect with."""
    out: dict[Hex, frozenset[Hex]] = {}
    for h, ts in tiles.items():
        for t in ts:
            if t.spec.edges_restricted:
                out[h] = frozenset(
                    n
                    for d in link_directions(t.spec, t.orientation)
                    if (n := board.neighbour_in_direction(h, d)) is not None
                )
    return out


def _masses(board: Board, terrain: dict[Hex, HexTerrain]) -> dict[Hex, int]:
    """Contiguous hill masses and mountain masses (004 "Hills": plateau effect)."""
    masses: dict[Hex, int] = {}
    next_id = 0
    for start, ht in terrain.items():
        if not ht.mass or start in masses:
            continue
        stack = [start]
        masses[start] = next_id
        while stack:
            h = stack.pop()
            for n in board.neighbours(h):
                if n not in masses and n in terrain and terrain[n].mass == ht.mass:
                    masses[n] = next_id
                    stack.append(n)
        next_id += 1
    return masses


#: BEACH face background rows per board kind (vocabulary 1.1): (beach rows, ocean rows).
#: "Standard/Overlord rows 4-6 = beach, rows 7-8 = ocean; Breakthrough rows 11-13 = beach,
#: rows 14-16 = ocean" - the Breakthrough sea is three rows deep, not two.
BEACH_ROWS: dict[str, tuple[range, range]] = {
    "STANDARD": (range(4, 7), range(7, 9)),
    "OVERLORD": (range(4, 7), range(7, 9)),
    "BRKTHRU": (range(11, 14), range(14, 17)),
}


def _beach_rows(board: Board) -> dict[int, str]:
    """BEACH face background (vocabulary 1.1): beach rows then ocean rows at the bottom."""
    beach, ocean = BEACH_ROWS[board.kind]
    return {**{r: "beach" for r in beach}, **{r: "ocean" for r in ocean}}


# ---------------------------------------------------------------------------------------
# game_info
# ---------------------------------------------------------------------------------------

KNOWN_OPTIONS = frozenset(
    {
        "blitz_rules",
        "partial_blitz_rules",
        "air_strikes_rules",
        "british_commonwealth",
        "russian_commissar_rule",
        "gung_ho",
        "italy_royal_army",
        "italy_high_command",
        "north_african_desert_rules",
        "night_visibility_rules",
        "night_visibility_reverse_rule",
        "night_visibility_team_turn",
        "deck_name",
        "deck_reshuffling",
        "empty_section_medals",
        "infantry_exit_counts_2",
        "must_have_unit_exit",
        "hill317",
        "airdrop",
        "airdrop2",
        "smoke_screen",
        "supply_train_rules",
        "armor_breakthrough_rules",
        "blowbridge_opt2",
        "mine_deck_name",
        # 004 Appendix 3 "War Of The Worlds": the units are already the variant's (The Fall Of
        # London, 1940: engine/rulesets/m44/options/variants/war_of_the_worlds.py)
        "war_of_the_worlds_units",
    }
)


def _sides(gi: dict[str, Any]) -> tuple[str, str]:
    p1 = upper(gi.get("side_player1")) or "AXIS"
    p2 = upper(gi.get("side_player2")) or ("ALLIES" if p1 == "AXIS" else "AXIS")
    if {p1, p2} != set(SIDES):
        raise malformed(f"sides must be AXIS and ALLIES, got {p1!r}/{p2!r}")
    return p1, p2


def _starting(gi: dict[str, Any], p1: str, p2: str) -> str:
    value = upper(gi.get("starting"))
    choices = {"PLAYER1": p1, "PLAYER2": p2, "AXIS": "AXIS", "ALLIES": "ALLIES", None: "ALLIES"}
    if value not in choices:
        raise malformed(f"game_info.starting must be PLAYER1/PLAYER2, got {gi.get('starting')!r}")
    return choices[value]


def _sudden_death(gi: dict[str, Any], board: Board) -> list[SuddenDeath]:
    victory = gi.get("victory") if isinstance(gi.get("victory"), dict) else {}
    out = []
    for cond in entries(victory.get("condition")) if victory else []:
        sd = cond.get("group_sudden_death")
        if isinstance(sd, dict):
            hexes = tuple(
                g
                for t in sd.get("group") or []
                if (g := parse_coord(t, board.rows)) is not None and board.on_board(g)
            )
            out.append(
                SuddenDeath(
                    side=upper(sd.get("side")) or "",
                    number=as_int(sd.get("number"), 1),
                    hexes=hexes,
                )
            )
    return out


# ---------------------------------------------------------------------------------------
# The loader
# ---------------------------------------------------------------------------------------


def load_scenario(
    source: str | Path | dict[str, Any] | bytes,
    *,
    lenient: bool = False,
    name: str | None = None,
    forces: bool = True,
) -> Scenario:
    """Load a scenario from a path, JSON text/bytes or an already-parsed dict.

    Unknown codes raise :class:`ScenarioError` (code ``unknown_codes``) naming every
    unknown code and its hexes; with ``lenient=True`` they are treated as open
    countryside and listed in ``Scenario.unknown``.  Malformed input raises
    ``ScenarioError(code="malformed_scenario")``; an unknown board type
    ``ScenarioError(code="unknown_board")``.  A board without hexagons or a side without
    units: ``ScenarioError(code="scenario_no_units")`` (``forces=False`` skips this
    check: board fragments drawn for rule tests, :mod:`engine.core.textboard`).
    """
    data, stem = read_source(source)
    board_data = data.get("board")
    if not isinstance(board_data, dict) or not isinstance(board_data.get("hexagons", []), list):
        raise malformed("scenario has no board")
    board = make_board(board_data.get("type") or "STANDARD")
    face = upper(board_data.get("face")) or "COUNTRY"
    gi = (
        {str(k).lower(): v for k, v in (data.get("game_info") or {}).items()}
        if isinstance(data.get("game_info"), dict)
        else {}
    )
    p1, p2 = _sides(gi)
    date_begin = gi.get("date_begin") or None
    rect_nation = "us" if p2 == "ALLIES" else "ger"
    unknown = Unknowns()

    tiles: dict[Hex, tuple[Tile, ...]] = {}
    explicit_terrain: set[Hex] = set()
    units: list[UnitSetup] = []
    tags = Tags()
    off_board: list[Hex] = []
    for entry in board_data.get("hexagons") or []:
        h = hex_of(entry) if isinstance(entry, dict) else None
        if h is None:
            raise malformed(f"hexagon entry without row/col: {str(entry)[:80]}")
        if not board.on_board(h):
            off_board.append(h)
            continue
        hex_units = [
            u
            for item in entries(entry.get("unit"))
            if (u := read_unit(item, h, unknown, date_begin)) is not None
        ]
        placed: list[Tile] = []
        for slot in ("terrain", "rect_terrain", "obstacle"):
            for item in entries(entry.get(slot)):
                if slot == "rect_terrain" and item.get("name") in RECT_UNITS:
                    u = read_unit(item, h, unknown, date_begin, rect_nation)
                    if u is not None:
                        hex_units.append(u)
                    continue
                side = hex_units[0].side if hex_units else None
                t = read_tile(item, slot, h, unknown, side)
                if t is not None:
                    placed.append(t)
                if slot == "terrain":
                    explicit_terrain.add(h)
        units.extend(hex_units)
        for tag in entries(entry.get("tags")):
            read_tag(tag, h, board, tags, unknown, occupied=bool(hex_units))
        if placed:
            tiles[h] = tiles.get(h, ()) + tuple(placed)
    if face == "BEACH":
        for r, code in _beach_rows(board).items():
            for h in board.hexes:
                if h[0] == r and h not in explicit_terrain:
                    tiles[h] = (Tile(TERRAIN[code]),) + tiles.get(h, ())

    if off_board and not lenient:  # an upload naming hexes its board does not have
        shown = ", ".join(f"(row {r}, col {c})" for r, c in off_board[:10])
        raise ScenarioError(
            "hex_off_board",
            f"{len(off_board)} hexagon entr{'y is' if len(off_board) == 1 else 'ies are'} "
            f"off the {board.kind} board: {shown}"
            f"{' ...' if len(off_board) > 10 else ''}",
            hexes=[list(h) for h in off_board[:50]],
            count=len(off_board),
        )
    given = gi.get("options")
    options: dict[str, Any] = given if isinstance(given, dict) else {}
    for opt in options:
        if opt not in KNOWN_OPTIONS:
            unknown.add("option", str(opt))
    found = unknown.result()
    if found and not lenient:
        raise ScenarioError("unknown_codes", unknown=found)

    if forces:
        _check_forces(board_data, units, options, (p1, p2))
    terrain = {h: combine(ts) for h, ts in tiles.items()}
    if options:  # vocabulary 2.6: blitz / partial blitz / Italian Royal Army profiles
        units = [
            replace(u, spec=s) if (s := army_rules(u.spec, u.side, options)) is not u.spec else u
            for u in units
        ]
    sides = {"player1": p1, "player2": p2}
    given_meta = data.get("meta_data")
    meta: dict[str, Any] = given_meta if isinstance(given_meta, dict) else {}
    return Scenario(
        name=name or text_field(data, "name") or str(meta.get("name") or stem or "scenario"),
        board=board,
        face=face,
        tiles=tiles,
        terrain=terrain,
        units=tuple(units),
        objectives=tuple(tags.objectives),
        exits=tuple(tags.exits),
        mines=tuple(tags.mines),
        sudden_death=tuple(_sudden_death(gi, board)),
        player1_side=p1,
        player2_side=p2,
        starting_side=_starting(gi, p1, p2),
        cards=_hand_sizes(gi, sides, options),
        victory={sides[p]: as_int(gi.get(f"victory_{p}"), 4) for p in sides},
        country={
            sides[p]: str(gi[f"country_{p}"]).upper() for p in sides if gi.get(f"country_{p}")
        },
        date_begin=date_begin,
        options=dict(options),
        road_links=_links(board, tiles, "road"),
        unknown=tuple(found),
        labels=tuple(_labels(board_data, board)),
        raw=data,
        masses=_masses(board, terrain),
        rail_links=_links(board, tiles, "rail"),
        edge_links=_edge_links(board, tiles),
        camouflage=tuple(tags.camouflage),
        markers=tuple(tags.markers),
    )


def _check_forces(
    board_data: dict[str, Any],
    units: list[UnitSetup],
    options: dict[str, Any],
    sides: tuple[str, str],
) -> None:
    """A battle needs both sides (004 "Object Of The Game": a side with no unit on the
    board has lost at once; a scenario that starts so is not a battle, our reading):
    ``ScenarioError("scenario_no_units")`` for a board without hexagons, without units,
    or with a side that has none (``details.sides``: those sides).  Units that arrive
    before the first turn (options ``airdrop`` / ``airdrop2``) count for their side."""
    if not board_data.get("hexagons"):
        raise ScenarioError(
            "scenario_no_units",
            "the scenario's board has no hexagons (no terrain, no units): nothing to play",
            sides=list(sides),
        )
    present = {u.side for u in units}
    for key in ("airdrop", "airdrop2"):
        drop = options.get(key)
        if isinstance(drop, dict) and str(drop.get("side") or "").upper() in sides:
            present.add(str(drop["side"]).upper())
    missing = [s for s in sides if s not in present]
    if missing:
        which = "has no units" if len(missing) == 1 else "have no units"
        raise ScenarioError(
            "scenario_no_units",
            f"{' and '.join(missing)} {which} on the board: a battle needs units on both sides",
            sides=missing,
        )


#: Vocabulary 2.6 Italian High Command (option ``italy_high_command``): Axis hand size.
ITALY_HIGH_COMMAND_HAND = 6


def _hand_sizes(
    gi: dict[str, Any], sides: dict[str, str], options: dict[str, Any]
) -> dict[str, int]:
    """``cards_player1/2`` (default 4); the Axis holds 6 under ``italy_high_command``."""
    out = {sides[p]: as_int(gi.get(f"cards_{p}"), 4) for p in sides}
    if options.get("italy_high_command"):
        out["AXIS"] = ITALY_HIGH_COMMAND_HAND
    return out


def _labels(board_data: dict[str, Any], board: Board) -> Iterable[tuple[Hex, str]]:
    for lab in board_data.get("labels") or []:
        h = hex_of(lab) if isinstance(lab, dict) else None
        if h is None or not board.on_board(h):
            continue
        text = lab.get("text")
        yield h, " ".join(str(t) for t in text) if isinstance(text, list) else str(text or "")


def check_codes(source: str | Path | dict[str, Any] | bytes) -> list[UnknownCode]:
    """Every unknown code of a scenario (empty list when fully supported)."""
    return list(load_scenario(source, lenient=True).unknown)


# ---------------------------------------------------------------------------------------
# Static board JSON (docs/architecture.md "Static board and per-seat view")
# ---------------------------------------------------------------------------------------


def _tile_json(t: Tile, slot_hint: str) -> dict[str, Any]:
    return {
        "code": t.spec.code,
        "name": t.spec.name,
        "family": t.spec.family,
        "slot": t.spec.slot or slot_hint,
        "orientation": t.orientation,
        "owner": t.owner,
        "effect": describe(t.spec),
    }


def board_for(scn: Scenario) -> dict[str, Any]:
    """Static JSON for the client, sent once per connection (docs/architecture.md)."""
    return {
        "type": scn.board.kind,
        "face": scn.face,
        "rows": scn.board.rows,
        "max_col": scn.board.max_col,
        "name": scn.name,
        "player1_side": scn.player1_side,
        "player2_side": scn.player2_side,
        "hexes": [
            {"hex": list(h), "tiles": [_tile_json(t, "terrain") for t in ts]}
            for h, ts in sorted(scn.tiles.items())
        ],
        "labels": [{"hex": list(h), "text": text} for h, text in scn.labels],
        "objectives": [
            {
                "id": o.id,
                "hexes": [list(h) for h in o.hexes],
                "side": o.side,
                "counts_for": o.counts_for,
                "permanent": o.permanent,
            }
            for o in scn.objectives
        ],
        "exits": [
            {"side": e.side, "hexes": [list(h) for h in e.hexes], "value": e.value}
            for e in scn.exits
        ],
        "sections": {
            "bounds": list(scn.board.section_bounds),
            **(
                {"subsections": list(scn.board.subsection_bounds)}
                if scn.board.subsection_bounds
                else {}
            ),
        },
    }
