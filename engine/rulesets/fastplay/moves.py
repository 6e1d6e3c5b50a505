"""A Fast Play '44 move (000 rules 4, 6): carried out hex by hex along the path the
player chose (``move {unit, to, path}``: the hexes after the start, as at the table, so
that he may take a path that stays out of an OpFire unit's range; without ``path``, the
form of older logs, the shortest chain of reachable hexes the engine finds); at each hex
in range of an enemy unit holding an OpFire marker the opponent decides
(``opportunity_fire`` / ``hold_fire``, 4.2); the move goes on only if the mover
survived, did not retreat and is not suppressed.  A train moves whole along its rail.

Choices where the text is silent: a unit ending its move on an enemy minefield rolls it
as in the standard game (004 "Minefields"); a move's hexes are counted one per step once
a move is interrupted.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import IllegalAction
from ...core.geometry import Hex
from ...procedures import battle as B
from ...procedures import trains as TR
from ...procedures.common import parse_hex, parse_unit, terrain_at
from ...procedures.medals import check_victory, update_objectives
from ...procedures.movement import (
    chosen_path,
    describe_move,
    move_allowance,
    move_class,
    reachable,
)
from ...procedures.state import GameState, Unit
from ...procedures.steps import BOAT
from ...procedures.terrain_changes import unit_left_hex
from .command import order_unit, turn_play
from .fights import enter_ice, enter_minefield
from .firing import declare_fire, fire_dice
from .markers import has_opfire, suppressed
from .records import Move, ext


def ignores_terrain(st: GameState, u: Unit) -> bool:
    """Behind Enemy Lines card (option ``command_cards``): infantry ignores terrain."""
    return bool(turn_play(st).flags.get("fp_ignore_terrain") == u.cls)


def train_moves(st: GameState, u: Unit) -> dict[Hex, Unit]:
    """Destination -> leading piece of train ``u`` (procedure ``trains``: forward led by
    the locomotive, backward by the last wagon, up to its allowance through empty rail
    hexes, stopping at a station); nothing for a wagon coupled behind a locomotive (the
    train is ordered through its locomotive)."""
    if TR.follower(st, u):
        return {}
    n = move_allowance(st, u, turn_play(st))
    return {h: ld for ld in TR.leaders(st, u) for h in TR.reach(st, ld, n)}


def _moving(st: GameState) -> Move:
    """The move under way (the caller knows there is one)."""
    m = ext(st)["move"]
    if m is None:
        raise AssertionError("no move is under way")
    return m


def _passable(st: GameState, u: Unit, h: Hex) -> bool:
    t = terrain_at(st, h)
    cls = "inf" if move_class(u) == BOAT else move_class(u)
    return not (cls in t.must_stop or t.only_first_step or t.entry_hazard_dice > 0 or h in st.mines)


def path_to(st: GameState, u: Unit, dests: dict[Hex, int], to: Hex) -> list[Hex]:
    """The shortest chain of reachable hexes from ``u`` to ``to`` whose inner hexes do
    not stop a move (the hexes the unit crosses, for opportunity fire)."""
    nb = st.scn.board.neighbours
    prev: dict[Hex, Hex | None] = {u.hex: None}
    ring = [u.hex]
    while ring and to not in prev:
        nxt = []
        for h in ring:
            if h != u.hex and not _passable(st, u, h):
                continue
            for n in nb(h):
                if n in dests and n not in prev:
                    prev[n] = h
                    nxt.append(n)
        ring = nxt
    if to not in prev:
        return [to]
    path, back = [to], prev[to]
    while back is not None and back != u.hex:
        path.append(back)
        back = prev[back]
    return path[::-1]


def _chosen(st: GameState, u: Unit, action: dict[str, Any], to: Hex) -> tuple[list[Hex], int]:
    """4.1 / 4.2: the path the player chose (``path``: the hexes after the start, ``to``
    last), as at the table: its hexes and the hexes it moves (``path_mismatch`` when it
    does not end on ``to``, ``illegal_path`` when it is no legal move:
    :func:`movement.chosen_path`)."""
    raw = action["path"]
    if not isinstance(raw, list):
        raise IllegalAction("malformed_action", "field 'path' must be a list of [row, col]")
    path = [parse_hex({"hex": h}, "hex") for h in raw]
    if not path or path[-1] != to:
        raise IllegalAction("path_mismatch", "the path must end on the hex moved to")
    route = chosen_path(st, u, turn_play(st), path, ignores_terrain(st, u))
    if route is None:
        raise IllegalAction(
            "illegal_path",
            "the unit cannot move along that path: each step "
            "to an adjacent free hex it may enter, no must-stop hex before "
            "the last, within its movement",
        )
    return path, route[-1][1]


def move(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    u = order_unit(st, action, events)
    to = parse_hex(action, "to")
    if suppressed(st, u.id):
        raise IllegalAction("unit_suppressed", "a suppressed unit may not move (8.5: rally)")
    if u.moved or u.battles or has_opfire(st, u.id):
        raise IllegalAction("unit_already_moved", "the unit moves once, before it battles")
    if u.spec.train:
        _move_train(st, u, to, events)
        return
    dests = reachable(st, u, turn_play(st), None, ignores_terrain(st, u))
    if to not in dests:
        raise IllegalAction("illegal_move", "the unit cannot move there")
    path, cost = (
        _chosen(st, u, action, to)
        if action.get("path") is not None
        else (path_to(st, u, dests, to), dests[to])
    )
    ext(st)["move"] = {
        "unit": u.id,
        "path": [[*h] for h in path],
        "i": 0,
        "cost": cost,
        "from": [*u.hex],
        "seg": [*u.hex],
        "window": None,
    }
    if u.cls in terrain_at(st, u.hex).no_battle_after_leaving:
        st.mut(u.id).no_battle = True  # marsh: armor cannot battle the turn it leaves
    unit_left_hex(st, u.hex, events)
    _continue_move(st, events)


def _move_train(st: GameState, u: Unit, to: Hex, events: list[dict[str, Any]]) -> None:
    """Our reading: the whole train moves in one go (no opportunity fire on the way, the
    procedure moves every piece at once); a piece entering a station may unload the
    scenario's supply train (pending ``reinforce``)."""
    leader = train_moves(st, u).get(to)
    if leader is None:
        raise IllegalAction("illegal_move", "the train cannot move there")
    for p in TR.pieces(st, u):
        st.mut(p.id).ordered = True
    TR.move(st, leader, to, move_allowance(st, u, turn_play(st)), events)
    update_objectives(st, events)
    check_victory(st, events)


def opfire_shooters(st: GameState, u: Unit) -> list[Unit]:
    """4.2: enemy units holding an OpFire marker that may fire at ``u`` where it stands."""
    out = []
    for w in st.units.values():
        if w.side != u.side and has_opfire(st, w.id) and not suppressed(st, w.id):
            if u.hex in dict(B.targets(st, w, None)) and fire_dice(st, w, u) > 0:
                out.append(w)
    return out


def _continue_move(st: GameState, events: list[dict[str, Any]]) -> None:
    m = _moving(st)
    u = st.units.get(m["unit"])
    path = m["path"]
    while u is not None and m["i"] < len(path):
        h = (path[m["i"]][0], path[m["i"]][1])
        v = st.mut(u.id)
        del st.occ[v.hex]
        v.hex = h
        st.occ[h] = v.id
        v.entered = True
        m["i"] += 1
        shooters = opfire_shooters(st, v)
        if shooters:
            _segment(st, v, m, events)
            m["window"] = [w.id for w in shooters]
            return
        u = v
    _end_move(st, events, interrupted=False)


def _segment(st: GameState, u: Unit, m: Move, events: list[dict[str, Any]]) -> None:
    frm = (m["seg"][0], m["seg"][1])
    if frm != u.hex:
        ev = describe_move(u, frm, u.hex, st.scn.board.distance(frm, u.hex))
        events.append(ev)
        m["seg"] = [*u.hex]


def _end_move(st: GameState, events: list[dict[str, Any]], interrupted: bool) -> None:
    m = _moving(st)
    ext(st)["move"] = None
    u = st.units.get(m["unit"])
    if u is None:
        return
    u = st.mut(u.id)
    u.moved = max(1, m["i"] if interrupted else m["cost"])
    _segment(st, u, m, events)
    if interrupted:
        events.append({"type": "move_stopped", "unit": u.id, "hex": [*u.hex]})
    update_objectives(st, events)
    if not check_victory(st, events):
        enter_minefield(st, u, events)
        enter_ice(st, st.units[u.id], events)


def after_opfire(st: GameState, events: list[dict[str, Any]]) -> None:
    """4.2: the mover goes on if it survived, did not retreat and is not suppressed."""
    m = _moving(st)
    u = st.units.get(m["unit"])
    p = m["path"][m["i"] - 1]
    if u is None:
        ext(st)["move"] = None
        return
    if u.hex != (p[0], p[1]) or suppressed(st, u.id):
        _end_move(st, events, interrupted=True)
        return
    _continue_move(st, events)


def opfire_decision(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    m = _moving(st)
    t = action["type"]
    shooters = m["window"]
    m["window"] = None
    if t == "hold_fire":
        events.append({"type": "fire_held", "unit": m["unit"], "window": "opportunity"})
        _continue_move(st, events)
        return
    w = parse_unit(st, action)
    if shooters is None or w.id not in shooters:
        raise IllegalAction("no_opfire_marker", "that unit may not opportunity fire now")
    declare_fire(st, w, st.units[m["unit"]], "opportunity_fire", events)
