"""The step table of movement: the static part of every step ``h -> n`` for a movement
class (terrain only: occupancy and minefields are the search's, engine/procedures/
movement.py), cached per scenario and class.  Per step: impassable terrain for the
class; mountain access (``enter_from_min_elevation`` / ``leave_to_min_elevation``); sea
bluff / cliff edges between a beach and the hill (``beach_edge_*``); wadi / bridge
section open sides (``scn.edge_links``); costs, must-stop, first-step-only and move caps
(unless terrain is ignored); a boat (vocabulary 1.3 River: infantry carrying a boat)
stops entering the river."""

from __future__ import annotations

from collections.abc import Callable

from ..core.geometry import Hex
from ..core.scenario_model import Scenario
from ..core.terrain import HexTerrain, Tile
from .common import combined, terrain_at
from .state import GameState

BOAT = "boat"  # the movement class of infantry carrying a boat

#: one step ``h -> n`` of the step table: (n, cost, must stop, move cap, first step
#: only, along a road)
Step = tuple[Hex, int, bool, int | None, bool, bool]
#: the terrain fields a step reads (:func:`_msig`), compared only
MoveSig = tuple[object, ...]


def step_table(st: GameState, cls: str, ignore_terrain: bool) -> dict[Hex, tuple[Step, ...]]:
    """hex -> ((n, cost, stop, cap, first_only, road), ...): the static part of every
    step ``h -> n`` for movement class ``cls`` (occupancy and minefields are checked by
    the search).  Cached per scenario and class; changed tiles (``tiles_over``) only
    recompute the rows of the changed hexes and their neighbours."""
    scn = st.scn
    key = (id(scn), cls, ignore_terrain)
    hit = _TABLES.get(key)
    if hit is None or hit[0] is not scn:
        hit = _TABLES[key] = (
            scn,
            {h: _row(st, h, cls, ignore_terrain, True) for h in scn.board._nbrs},
            {},
        )
    if not st.tiles_over:
        return hit[1]
    # only changes of movement-relevant terrain matter (a sandbag or a removed wire
    # changes battle, not always movement)
    sig = frozenset(
        [
            (h, m)
            for h, tiles in st.tiles_over.items()
            if (m := _tiles_msig(tiles)) != _msig(scn.terrain_at(h))
        ]
    )
    if not sig:
        return hit[1]
    derived = hit[2]
    table = derived.get(sig)
    if table is None:
        table = dict(hit[1])
        nbrs = scn.board._nbrs
        touched = {h for h, _ in sig}
        for h, _ in sig:
            touched.update(nbrs.get(h, ()))
        for h in touched:
            if h in table:
                table[h] = _row(st, h, cls, ignore_terrain, False)
        if len(derived) > 512:
            derived.clear()
        derived[sig] = table
    return table


_MSIG: dict[int, tuple[HexTerrain, MoveSig]] = {}
_TMSIG: dict[int, tuple[tuple[Tile, ...], MoveSig]] = {}


def _tiles_msig(tiles: tuple[Tile, ...]) -> MoveSig:
    """:func:`_msig` of the combined terrain of a changed-tiles tuple, memoised per
    tuple object (never mutated; the identity check guards a reused ``id``)."""
    hit = _TMSIG.get(id(tiles))
    if hit is not None and hit[0] is tiles:
        return hit[1]
    sig = _msig(combined(tiles))
    if len(_TMSIG) > 4096:
        _TMSIG.clear()
    _TMSIG[id(tiles)] = (tiles, sig)
    return sig


def _msig(t: HexTerrain) -> MoveSig:
    """The fields of a HexTerrain that :func:`_row` reads (memoised per object)."""
    hit = _MSIG.get(id(t))
    if hit is not None and hit[0] is t:
        return hit[1]
    sig = (
        t.impassable,
        t.must_stop,
        t.only_first_step,
        t.move_cap,
        t.enter_cost,
        t.enter_cost_from_non_hill,
        t.beach,
        t.beach_edge_cost,
        t.beach_edge_impassable,
        t.mass,
        t.hill_level,
        t.enter_from_min_elevation,
        t.leave_to_min_elevation,
        t.entry_hazard_dice,
    )
    if len(_MSIG) > 4096:
        _MSIG.clear()
    _MSIG[id(t)] = (t, sig)
    return sig


def _row(st: GameState, h: Hex, cls: str, ignore_terrain: bool, static: bool) -> tuple[Step, ...]:
    scn = st.scn
    get: Callable[[Hex], HexTerrain] = scn.terrain_at if static else (lambda x: terrain_at(st, x))
    edge_links = scn.edge_links
    th = get(h)
    eh = edge_links.get(h)
    rl = scn.road_links.get(h, ())
    out: list[Step] = []
    boat = cls == BOAT  # vocabulary 1.3 River: infantry carrying a boat
    if boat:
        cls = "inf"
    from_river = boat and th.river and not th.bridge
    for n in scn.board._nbrs[h]:
        tn = get(n)
        on_river = boat and tn.river and not tn.bridge
        if boat and from_river and tn.river and tn.bridge:
            continue  # a bridge is impassable to a boat coming from the river
        if cls in tn.impassable and not on_river:
            continue
        if tn.enter_from_min_elevation and th.hill_level < tn.enter_from_min_elevation:
            continue  # mountain: only from a hill/mountain (vocabulary 1.3)
        if th.leave_to_min_elevation and tn.hill_level < th.leave_to_min_elevation:
            continue
        if (eh is not None and n not in eh) or (n in edge_links and h not in edge_links[n]):
            continue
        cost = 1
        if (th.beach and tn.beach_edge_cost) or (tn.beach and th.beach_edge_cost):
            if cls in tn.beach_edge_impassable or cls in th.beach_edge_impassable:
                continue
            cost = max(tn.beach_edge_cost, th.beach_edge_cost)
        if ignore_terrain:
            out.append((n, cost, False, None, False, n in rl))
            continue
        if tn.enter_cost > 1 and (not tn.enter_cost_from_non_hill or th.mass != "hill"):
            cost = max(cost, tn.enter_cost)
        stop = (
            cls in tn.must_stop
            or tn.only_first_step
            or tn.entry_hazard_dice > 0
            or (on_river and not from_river)
        )  # a boat stops entering the river
        out.append((n, cost, stop, tn.move_cap, tn.only_first_step, n in rl))
    return tuple(out)


# step tables: (scenario id, class, ignore terrain) -> (the scenario, its table, the
# tables derived for changed tiles by their movement signature)
_TABLES: dict[
    tuple[int, str, bool],
    tuple[
        Scenario,
        dict[Hex, tuple[Step, ...]],
        dict[frozenset[tuple[Hex, MoveSig]], dict[Hex, tuple[Step, ...]]],
    ],
] = {}
