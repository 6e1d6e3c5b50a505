"""Movement (004 Game Turn Explanation 3 + terrain): reachable hexes of one ordered unit.

A ``move`` action names the destination; the engine accepts it when some legal path
exists and records the fewest hexes needed (``Unit.moved``), which decides whether the
unit may still battle (``UnitSpec.move_fire``).  Rules applied per step: no moving onto
or through any unit; impassable terrain per unit class; must-stop terrain ends the move;
hedgerow-like hexes only as the first step; a unit starting in leave-one-hex terrain
moves 1; a move entering beach-like terrain is capped (``move_cap``); ``enter_cost``;
road bonus +1 when the unit starts on a road and every step follows connected road;
every minefield is must-stop (004 "Minefields": friendly units stop too, but ignore it);
Behind Enemy Lines ignores all but impassable-like rules.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from ..core.geometry import Hex
from .state import GameState, Play, Unit
from ..core.errors import IllegalAction
from ..core.scenario_model import Scenario
from ..core.units import UnitSpec
from ..core.unit_types import may_enter
from .common import terrain_at, tile_codes
from .steps import BOAT, step_table
from .trains import head, reach


def move_allowance(st: GameState, u: Unit, play: Play | None) -> int:
    """Maximum hexes ``u`` may move this turn under ``play`` (0 = may not move)."""
    if play is None or play.flags.get("no_move"):
        return 0
    n = u.spec.move
    f = play.flags
    if u.cls == "inf" and f.get("inf_move_bonus") and n <= 2:
        n += f["inf_move_bonus"]
    if f.get("move_max") and u.cls in f.get("move_max_classes", (u.cls,)):
        n = f["move_max"]
    if st.options:
        n = st.hooks.move_allowance(st, u, n)  # 004 weather / demoralisation / out of supply
    return n


def reachable(
    st: GameState,
    u: Unit,
    play: Play | None,
    limit: int | None = None,
    ignore_terrain: bool = False,
) -> dict[Hex, int]:
    """Destination hex -> fewest hexes moved, for every hex ``u`` can end its move on.

    ``limit`` overrides the allowance (Behind Enemy Lines second move).  The unit's own
    hex is not included.  Exit bookkeeping: hexes from which the unit could still step
    off the board are reported by :func:`exit_hexes`.
    """
    if u.spec.train:  # vocabulary 2.2: trains move along the rail only
        return reach(st, u, move_allowance(st, head(st, u), play) if limit is None else limit)
    res, _ = _search(st, u, play, limit, ignore_terrain)
    if u.spec.kind == "destroyer" and res:
        res = {h: k for h, k in res.items() if not _near_beach(st, h)}
    if (
        limit is None
        and u.spec.nation == "jp"
        and terrain_at(st, u.hex).cave
        and move_allowance(st, u, play) > 0
    ):
        jumps = cave_jumps(st, u)  # vocabulary 1.3: cave-to-cave move, counts 1 hex
        if jumps:
            res = dict(res)
            for h in jumps:
                res[h] = 1
    if limit is None and play is not None and play.flags.get("advance"):
        res = st.hooks.filter_destinations(st, u, play, res)  # 004 Army Manoeuvres
    return res


_CAVES: dict[int, tuple[Any, tuple[Hex, ...]]] = {}  # id(scenario) -> (it, cave hexes)


def _scenario_caves(st: GameState) -> tuple[Hex, ...]:
    scn = st.scn
    hit = _CAVES.get(id(scn))
    if hit is None or hit[0] is not scn:
        hit = _CAVES[id(scn)] = (scn, tuple(sorted(h for h, t in scn.terrain.items() if t.cave)))
    return hit[1]


def cave_jumps(st: GameState, u: Unit) -> list[Hex]:
    """Vocabulary 1.3 Cave: Japanese infantry starting its move in a cave may move to any
    other (empty, still unsealed) cave hex; the jump counts as a 1-hex move."""
    if u.spec.nation != "jp" or u.cls != "inf" or not terrain_at(st, u.hex).cave:
        return []
    return [
        h for h in _scenario_caves(st) if h != u.hex and h not in st.occ and terrain_at(st, h).cave
    ]


def move_class(u: Unit) -> str:
    """The class whose terrain movement rules apply (``boat``: infantry with a boat)."""
    if u.spec.equipment == BOAT:
        return BOAT
    return u.spec.move_class or u.cls


def on_river(st: GameState, h: Hex) -> bool:
    """A river hex without a bridge (where a boat floats)."""
    t = terrain_at(st, h)
    return t.river and not t.bridge


def _near_beach(st: GameState, h: Hex) -> bool:
    """Vocabulary 2.2 Destroyer: may not end its move next to a beach hex."""
    return any(terrain_at(st, n).beach for n in st.scn.board.neighbours(h))


#: a search state: (hex, on a road, move cap, hexes moved)
SearchState = tuple[Hex, bool, int, int]


@dataclass(slots=True)
class Trail:
    """What a search records for a path (:func:`move_path`): each search state's
    previous one, and the state each destination was first reached from (with the hexes
    moved on arrival)."""

    back: dict[SearchState, SearchState] = field(default_factory=dict)
    reached: dict[Hex, tuple[SearchState, int]] = field(default_factory=dict)


# the search's memo: key -> (the scenario, destinations, movement left)
_CACHE: dict[tuple[Any, ...], tuple[Scenario, dict[Hex, int], dict[Hex, int]]] = {}
_LIMIT = 50000
_BALLS: dict[tuple[str, Hex, int], frozenset[Hex]] = {}  # (board kind, hex, radius) -> hexes


def _within(nbrs: dict[Hex, tuple[Hex, ...]], start: Hex, radius: int) -> set[Hex]:
    """The hexes at most ``radius`` steps from ``start``."""
    ring, seen = [start], {start}
    for _ in range(radius):
        nxt = []
        for h in ring:
            for n in nbrs.get(h, ()):
                if n not in seen:
                    seen.add(n)
                    nxt.append(n)
        ring = nxt
    return seen


def _search(
    st: GameState, u: Unit, play: Play | None, limit: int | None, ignore_terrain: bool
) -> tuple[dict[Hex, int], dict[Hex, int]]:
    """Memoised :func:`_search_uncached` (key: everything the search reads)."""
    base = move_allowance(st, u, play) if limit is None else limit
    if base <= 0:
        return {}, {}
    # only occupied / changed hexes within reach (allowance, +1 when the road bonus is
    # possible: the unit starts on a connected road) can change the result
    scn = st.scn
    board = scn.board
    reach = base
    if not ignore_terrain and scn.road_links.get(u.hex) and terrain_at(st, u.hex).road:
        reach += 1
    bkey = (board.kind, u.hex, reach)
    ball = _BALLS.get(bkey)
    if ball is None:
        ball = _BALLS[bkey] = frozenset(_within(board._nbrs, u.hex, reach))
    changed = None
    if st.tiles_over:
        tov = st.tiles_over
        changed = frozenset([(h, tile_codes(tov[h])) for h in tov.keys() & ball])
    thru = st.hooks.pass_through(st, u) if st.options else None
    unseen = st.hooks.unseen(st, u) if st.options else None
    key = (
        id(st.scn),
        move_class(u),
        u.hex,
        base,
        ball.intersection(st.occ),
        unseen and ball.intersection(unseen),
        changed,
        frozenset(st.mines) if st.mines else None,
        ignore_terrain,
        u.spec.enter_only,
        u.spec.never_enter,
        st.hooks.mud_cap(st, u) if st.options else None,
        thru,
    )
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is st.scn:
        return hit[1], hit[2]
    dest, left = _search_uncached(st, u, play, base, ignore_terrain, thru, unseen)
    if len(_CACHE) > _LIMIT:
        _CACHE.clear()
    _CACHE[key] = (st.scn, dest, left)
    return dest, left


def _search_uncached(
    st: GameState,
    u: Unit,
    play: Play | None,
    limit: int,
    ignore_terrain: bool,
    thru: frozenset[Hex] | None = None,
    unseen: frozenset[Hex] | None = None,
    parents: Trail | None = None,
    closed: frozenset[Hex] | None = None,
) -> tuple[dict[Hex, int], dict[Hex, int]]:
    """Breadth-first search over (hex, on_road, cap) with the terrain rules per step.

    Per step ``h -> n`` (see :func:`.steps.step_table`): impassable for the unit's movement
    class; mountain access (``enter_from_min_elevation`` / ``leave_to_min_elevation``);
    sea bluff / cliff edges between a beach and the hill (``beach_edge_*``); wadi / bridge
    section open sides (``scn.edge_links``).  Unless ``ignore_terrain`` (Behind Enemy
    Lines): hedgerow-like hexes only as first step, must-stop hexes (terrain, every
    minefield, entry-hazard hexes such as a frozen river: the unit stops to roll), steep
    hill cost from a hex that is not part of a hill mass (vocabulary 1.3 "entering from a
    non-hill hex costs 2"), beach move cap.  ``thru``: occupied hexes the unit may move
    through but not end on (extension point ``pass_through``).  ``unseen``: occupied
    hexes searched as empty (extension point ``unseen``, 004 Kriegspiel).  ``parents``
    (filled when given): the search's trail (:func:`move_path`).  ``closed``: hexes searched as
    occupied (:func:`chosen_path`: every hex off the player's path).
    """
    base = limit  # the allowance, computed by _search
    mcls = move_class(u)
    cls = "inf" if mcls == BOAT else mcls
    start = u.hex
    t0 = terrain_at(st, start)
    if cls in t0.cannot_leave:
        return {}, {}
    if not ignore_terrain and cls in t0.leave_one_hex:
        base = 1
    table = step_table(st, mcls, ignore_terrain)
    mines = None if ignore_terrain else st.mines
    road0 = (not ignore_terrain) and t0.road and bool(st.scn.road_links.get(start))
    occ: Collection[Hex] = st.occ
    spec = u.spec
    if spec.enter_only is not None or spec.never_enter:
        # 004 unit types: very heavy armour / mortars enter some terrain only
        occ = _closed_hexes(st, spec, start, base)
    if unseen:
        occ = set(occ) - unseen  # 004 Kriegspiel: searched as the side's board shows
    if closed:
        occ = set(occ) | closed
        thru = thru - closed if thru else thru
    # search state -> fewest steps (plain hex when no road/cap)
    best: dict[Hex | tuple[Hex, bool, int], int] = {}
    dest: dict[Hex, int] = {}
    left: dict[Hex, int] = {}  # hex -> most movement left on arrival (not stopped)
    dget, lget, bget = dest.get, left.get, best.get
    mud = st.hooks.mud_cap(st, u) if st.options and not ignore_terrain else None
    frontier: list[SearchState] = [(start, road0, 99, 0)]
    while frontier:
        nxt = []
        for h, on_road, cap, steps in frontier:
            for n, cost, stop, mcap, first_only, road in table[h]:
                if (n in occ and (thru is None or n not in thru)) or (first_only and steps):
                    continue  # (``thru``: occupied hexes it may pass, 004 Martians)
                if mud is not None and (mcap is None or mcap > mud) and not st.hooks.firm(st, n):
                    mcap = mud  # 004 Mud: a move entering a muddy hex totals <= the cap
                nroad = on_road and road
                total = steps + cost
                ncap = cap if mcap is None or mcap >= cap else mcap
                lim = base + 1 if nroad else base
                if lim > ncap:
                    lim = ncap
                if total > lim:
                    continue
                if dget(n, 99) > total and (thru is None or n not in thru):
                    dest[n] = total
                    if parents is not None:
                        parents.reached[n] = ((h, on_road, cap, steps), total)
                if stop or (mines and n in mines):
                    continue
                remaining = lim - total
                if remaining > lget(n, -1):
                    left[n] = remaining
                key = (n, nroad, ncap) if nroad or ncap != 99 else n
                if bget(key, 99) <= total:
                    continue
                best[key] = total
                if parents is not None:
                    parents.back[n, nroad, ncap, total] = (h, on_road, cap, steps)
                if remaining > 0:
                    nxt.append((n, nroad, ncap, total))
        frontier = nxt
    dest.pop(start, None)
    left[start] = base
    return dest, left


def move_path(
    st: GameState,
    u: Unit,
    play: Play | None,
    to: Hex,
    limit: int | None = None,
    ignore_terrain: bool = False,
) -> list[tuple[Hex, int]]:
    """The hexes (with the hexes moved so far) of a fewest-hexes path the search finds
    from ``u``'s hex to ``to``, the start excluded ([] when ``to`` is reached otherwise,
    e.g. a cave jump).  The referee's path of a move under 004 Kriegspiel."""
    base = move_allowance(st, u, play) if limit is None else limit
    if base <= 0 or u.spec.train:
        return []
    thru = st.hooks.pass_through(st, u) if st.options else None
    unseen = st.hooks.unseen(st, u) if st.options else None
    parents = Trail()
    _search_uncached(st, u, play, base, ignore_terrain, thru, unseen, parents)
    return _route(parents, to)


def _route(parents: Trail, to: Hex) -> list[tuple[Hex, int]]:
    """The path to ``to`` recorded by a search's trail ([] when not reached)."""
    hit = parents.reached.get(to)
    if hit is None:
        return []
    state, total = hit
    path = [(to, total)]
    while state[3]:  # back to the start (0 hexes moved)
        path.append((state[0], state[3]))
        state = parents.back[state]
    path.reverse()
    return path


def chosen_path(
    st: GameState, u: Unit, play: Play | None, path: list[Hex], ignore_terrain: bool = False
) -> list[tuple[Hex, int]] | None:
    """The hexes (with the hexes moved so far) of a move of ``u`` along the path the
    player chose (the hexes after the start, the destination last), or None when it is
    no legal move: a step not to an adjacent hex, onto an occupied hex or one the unit
    may not enter, through a hex where it must stop, beyond its allowance (terrain costs,
    road bonus, caps as in :func:`reachable`), or a path that could skip one of its own
    hexes (a loop).  The search of :func:`reachable` run on the path's hexes alone must
    find exactly that path."""
    base = move_allowance(st, u, play)
    if base <= 0 or u.spec.train or not path or len(set(path)) != len(path) or u.hex in path:
        return None
    keep = {*path, u.hex}
    closed = frozenset(h for h in st.scn.board._nbrs if h not in keep)
    thru = st.hooks.pass_through(st, u) if st.options else None
    unseen = st.hooks.unseen(st, u) if st.options else None
    parents = Trail()
    _search_uncached(st, u, play, base, ignore_terrain, thru, unseen, parents, closed)
    route = _route(parents, path[-1])
    return route if [h for h, _k in route] == list(path) else None


def referee_stop(
    st: GameState,
    u: Unit,
    play: Play,
    to: Hex,
    steps: int,
    second: bool,
    events: list[dict[str, Any]],
) -> tuple[Hex, int]:
    """Where a move of ``u`` to ``to`` (``steps`` hexes) ends: when its side has not
    detected some enemy units (extension point ``unseen``), the referee follows the path
    and may stop it short (extension point ``move_stop``; event ``move_stopped``)."""
    if not st.options or not st.hooks.unseen(st, u):
        return to, steps
    path = move_path(
        st,
        u,
        play,
        to,
        play.flags["move_again"] if second else None,
        second or bool(play.flags.get("ignore_terrain")),
    )
    cut: int | None = st.hooks.move_stop(st, u, path) if path else None
    if cut is None:
        return to, steps
    if cut < 0:
        raise IllegalAction("illegal_move", "the unit cannot move there")
    events.append({"type": "move_stopped", "unit": u.id, "side": u.side, "hex": [*path[cut][0]]})
    return path[cut]


def _closed_hexes(st: GameState, spec: UnitSpec, start: Hex, radius: int) -> set[Hex]:
    """Occupied hexes plus the hexes within ``radius`` (+1 road bonus) of ``start`` the
    unit may not enter (:func:`engine.core.unit_types.may_enter`), for the search."""
    closed = set(st.occ)
    for h in _within(st.scn.board._nbrs, start, radius + 1):
        if h != start and not may_enter(spec, terrain_at(st, h)):
            closed.add(h)
    return closed


def can_step(st: GameState, u: Unit, to: Hex, frm: Hex | None = None) -> bool:
    """May ``u`` step from ``frm`` (default: its hex) onto the adjacent hex ``to`` as far
    as terrain goes?  The per-step rules of :func:`.steps.step_table` (impassable terrain,
    mountain access, sea bluff / cliff edges from a beach, wadi and bridge-section
    sides); occupancy, costs and must-stop terrain are not checked.  Used by Take Ground
    (004 "Taking Ground": "Terrain Movement and Battle restrictions still apply when
    Units Take Ground") and retreats (004 "Retreat": "impassable terrain may not be Moved
    through during a Retreat Move")."""
    rows = step_table(st, move_class(u), False).get(u.hex if frm is None else frm, ())
    return any(row[0] == to for row in rows)


def stopped_in_hex(st: GameState, u: Unit) -> bool:
    """Did ``u`` enter its hex this turn and must stop there?  004 "Barbed Wire": "A Unit
    that enters a hex with Barbed Wire must stop and may Move no further on that turn"
    (likewise every must-stop terrain; vocabulary 1.5 "must stop": "if it moved in, it
    also cannot later take ground out of that hex"; terrain whose stop still allows take
    ground - fordable stream, jungle, rail for A/Art - excepted).  Armour entering wire
    removes it ("and may still Battle") but has still entered wire (``Unit.stopped``).
    004 "Minefields": "A Unit must stop, and may not Move any further on that turn, when
    entering a Minefield" (any side's; a decoy removed on entry is marked
    ``Unit.stopped``).  004 "Assault Boats": "A Unit entering a River hex must stop and
    may Move no further on that turn"."""
    if not u.entered:
        return False
    if u.stopped:  # armor that removed the wire it entered, a decoy mine
        return True
    if st.mines and u.hex in st.mines:
        return True
    mcls = move_class(u)
    if mcls == BOAT:
        if on_river(st, u.hex):
            return True
        mcls = "inf"
    t = terrain_at(st, u.hex)
    return mcls in t.must_stop and not t.stop_allows_take_ground


def exit_hexes(st: GameState, u: Unit, play: Play | None) -> list[Hex]:
    """Exit hexes of ``u``'s side it can stand on with movement left (may leave the board).
    A unit with behaviour ``CANNOT_EXIT`` (vocabulary 2.5, armour of an
    ``armor_breakthrough_rules`` template) may not use exit markers.  Under 004 Restoring
    Order (play flag ``advance: never``, engine/rulesets/m44/options/manoeuvres.py) no unit exits: leaving
    the board for medals is no regrouping (our reading)."""
    zones = [z for z in st.scn.exits if z.side == u.side]
    if st.options:
        zones = st.hooks.exit_zones(st, u.side, zones)  # 004 variants (zombies)
    if not zones or u.spec.train or u.spec.behavior == "CANNOT_EXIT":  # trains stay on the rail
        return []
    if play is not None and play.flags.get("advance") == "never":
        return []
    _, left = _search(st, u, play, None, False)
    out = []
    for z in zones:
        for h in z.hexes:
            if left.get(h, 0) >= 1 and (h == u.hex or h not in st.occ):
                out.append(h)
    return out


def exit_value(st: GameState, u: Unit, h: Hex) -> int:
    zones = [z for z in st.scn.exits if z.side == u.side]
    for z in st.hooks.exit_zones(st, u.side, zones) if st.options else zones:
        if h in z.hexes:
            if u.cls == "inf" and st.scn.options.get("infantry_exit_counts_2"):
                return 2
            return z.value
    return 1


def describe_move(u: Unit, frm: Hex, to: Hex, steps: int) -> dict[str, Any]:
    return {
        "type": "unit_moved",
        "unit": u.id,
        "side": u.side,
        "from": [*frm],
        "to": [*to],
        "hexes": steps,
    }
