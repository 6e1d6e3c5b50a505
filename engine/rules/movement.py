"""Movement (004 Game Turn Explanation 3 + terrain): reachable hexes of one ordered unit.

A ``move`` action names the destination; the engine accepts it when some legal path
exists and records the fewest hexes needed (``Unit.moved``), which decides whether the
unit may still battle (``UnitSpec.move_fire``).  Rules applied per step: no moving onto
or through any unit; impassable terrain per unit class; must-stop terrain ends the move;
hedgerow-like hexes only as the first step; a unit starting in leave-one-hex terrain
moves 1; a move entering beach-like terrain is capped (``move_cap``); ``enter_cost``;
road bonus +1 when the unit starts on a road and every step follows connected road;
enemy minefields are must-stop.  Behind Enemy Lines ignores all but impassable.
"""
from __future__ import annotations

from typing import Any

from ..state import GameState, Play, Unit
from .common import terrain_at

Hex = tuple[int, int]


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
    return n


def _mine_stop(st: GameState, h: Hex, side: str) -> bool:
    for m in st.scn.mines:
        if m.hex == h and (m.side is None or m.side != side):
            return True
    return False


def reachable(st: GameState, u: Unit, play: Play | None, limit: int | None = None,
              ignore_terrain: bool = False) -> dict[Hex, int]:
    """Destination hex -> fewest hexes moved, for every hex ``u`` can end its move on.

    ``limit`` overrides the allowance (Behind Enemy Lines second move).  The unit's own
    hex is not included.  Exit bookkeeping: hexes from which the unit could still step
    off the board are reported by :func:`exit_hexes`.
    """
    res, _ = _search(st, u, play, limit, ignore_terrain)
    return res


_CACHE: dict[tuple, tuple] = {}


def _search(st: GameState, u: Unit, play: Play | None, limit: int | None,
            ignore_terrain: bool) -> tuple[dict[Hex, int], dict[Hex, int]]:
    """Memoised :func:`_search_uncached` (key: everything the search reads)."""
    key = (id(st.scn), u.id, u.hex, u.spec, frozenset(st.occ),
           frozenset(st.tiles_over.items()) if st.tiles_over else None,
           None if play is None else (play.key, tuple(sorted(play.flags.items(), key=repr))),
           limit, ignore_terrain)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is st.scn:
        return hit[1], hit[2]
    dest, left = _search_uncached(st, u, play, limit, ignore_terrain)
    if len(_CACHE) > 50000:
        _CACHE.clear()
    _CACHE[key] = (st.scn, dest, left)
    return dest, left


def _search_uncached(st: GameState, u: Unit, play: Play | None, limit: int | None,
            ignore_terrain: bool) -> tuple[dict[Hex, int], dict[Hex, int]]:
    base = move_allowance(st, u, play) if limit is None else limit
    if base <= 0:
        return {}, {}
    board = st.scn.board
    cls = u.cls
    start = u.hex
    t0 = terrain_at(st, start)
    if cls in t0.cannot_leave:
        return {}, {}
    if not ignore_terrain and cls in t0.leave_one_hex:
        base = 1
    road_links = st.scn.road_links
    road0 = (not ignore_terrain) and t0.road and bool(road_links.get(start))
    occ = st.occ
    best: dict[tuple, int] = {}
    dest: dict[Hex, int] = {}
    left: dict[Hex, int] = {}   # hex -> most movement left on arrival (not stopped)
    # state: (hex, on_road, cap) with steps so far
    frontier = [(start, road0, 99, 0)]
    while frontier:
        nxt = []
        for h, on_road, cap, steps in frontier:
            for n in board.neighbours(h):
                if n in occ:
                    continue
                tn = terrain_at(st, n)
                if cls in tn.impassable:
                    continue
                if ignore_terrain:
                    cost, stop, ncap = 1, False, cap
                else:
                    if tn.only_first_step and steps > 0:
                        continue
                    cost = tn.enter_cost
                    stop = cls in tn.must_stop or tn.only_first_step or _mine_stop(st, n, u.side)
                    ncap = cap if tn.move_cap is None else min(cap, tn.move_cap)
                nroad = on_road and n in road_links.get(h, ())
                total = steps + cost
                lim = min(base + (1 if nroad else 0), ncap)
                if total > lim:
                    continue
                if dest.get(n, 99) > total:
                    dest[n] = total
                if stop:
                    continue
                remaining = lim - total
                if remaining > left.get(n, -1):
                    left[n] = remaining
                key = (n, nroad, ncap)
                if best.get(key, 99) <= total:
                    continue
                best[key] = total
                if remaining > 0:
                    nxt.append((n, nroad, ncap, total))
        frontier = nxt
    dest.pop(start, None)
    left[start] = base
    return dest, left


def exit_hexes(st: GameState, u: Unit, play: Play | None) -> list[Hex]:
    """Exit hexes of ``u``'s side it can stand on with movement left (may leave the board)."""
    zones = [z for z in st.scn.exits if z.side == u.side]
    if not zones:
        return []
    _, left = _search(st, u, play, None, False)
    out = []
    for z in zones:
        for h in z.hexes:
            if left.get(h, 0) >= 1 and (h == u.hex or h not in st.occ):
                out.append(h)
    return out


def exit_value(st: GameState, u: Unit, h: Hex) -> int:
    for z in st.scn.exits:
        if z.side == u.side and h in z.hexes:
            if u.cls == "inf" and st.scn.options.get("infantry_exit_counts_2"):
                return 2
            return z.value
    return 1


def describe_move(u: Unit, frm: Hex, to: Hex, steps: int) -> dict[str, Any]:
    return {"type": "unit_moved", "unit": u.id, "side": u.side, "from": [*frm], "to": [*to],
            "hexes": steps}
