"""The Fast Play '44 turn machine (000 rules 1-4, 8.5-8.7, 9, 11, 12.1-12.4).

No cards, no sections: the active side gets its Command Points (CP) at the start of its
turn (1.1, 2.1, 12.1a, 12.2a, 12.4a), removes one suppression level from each of its
units (8.7) and orders units one at a time anywhere on the board (2.2, 3.1-3.3), each
once per turn (3.2).  The unit being used (``ext["current"]``) may move, battle, move
and battle (4.3: at once), take an OpFire marker (3.4, 6.1), rally when suppressed
(8.5), withdraw off its own edge (9.3) or - optional rule ``dig_in`` - dig in.  Ordering
another unit finishes the current one.  The turn passes when the CP are spent and the
current unit is done, when no unit may be ordered (2.3), or on ``end_turn``; unspent CP
are lost (2.4).

A move is carried out hex by hex along the path the player chose (``move {unit, to,
path}``: the hexes after the start, as at the table, so that he may take a path that
stays out of an OpFire unit's range; without ``path``, the form of older logs, the
shortest chain of reachable hexes the engine finds); at each hex in range of an enemy
unit holding an OpFire marker the opponent decides (``opportunity_fire`` /
``hold_fire``, 4.2); the move goes on only if the mover survived, did not retreat and is
not suppressed.

Choices where the text is silent: an OpFire marker lapses at the start of its owner's
next turn (6.1 "deferring ... to the Opponent's turn"); a unit ending its move on an enemy
minefield (or taking ground into one) rolls it as in the standard game (004 "Minefields": hidden value 0-4, hits on
unit symbols and grenades, flags ignored; a 0 is a dud and goes), resolved as an
assault-like roll (grenades hit, no suppression); a move's hexes are counted one per step
once a move is interrupted.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import IllegalAction
from ...core.rng import Rng
from ...core.scenario_model import Scenario
from ...core.units import army_rules
from ...procedures import battle as B
from ...procedures import battle_outcome as BO
from ...procedures import trains as TR
from ...procedures.common import (
    SIDES,
    can_activate,
    is_top,
    other,
    parse_hex,
    parse_unit,
    terrain_at,
)
from ...procedures.hooks import STANDARD
from ...procedures.medals import check_victory, exit_board, update_objectives
from ...procedures.movement import (
    BOAT,
    chosen_path,
    describe_move,
    exit_hexes,
    exit_value,
    move_allowance,
    move_class,
    reachable,
)
from ...procedures.state import GameState, Mine, Play, Unit
from ...procedures.terrain_changes import place_sandbag, unit_left_hex
from . import cards as K
from . import combat as C
from .markers import (
    add_opfire,
    drop_opfire,
    fresh_ext,
    has_opfire,
    prune,
    set_suppression,
    suppressed,
)

Hex = tuple[int, int]
OPTIONS = ("dig_in", "command_cards")
#: the hook table of every Fast Play game (engine/procedures/hooks.py): no extension
#: point filled, one seat per side (the procedures as the standard game has them; Fast
#: Play's own rules are in this package's turn machine)
HOOKS = STANDARD
MINE_POOL = (0, 0, 0, 1, 1, 2, 2, 3, 4)  # 004 minefield pieces, drawn at random


# ----------------------------------------------------------------------------- set-up
def new_game(scn: Scenario, seed: int, options: dict[str, Any] | None) -> GameState:
    """1.1: set up as the scenario says; no cards are dealt."""
    opts = {k: v for k, v in (options or {}).items() if v}
    for k in opts:
        if k not in OPTIONS:
            raise IllegalAction("unknown_option", f"unknown Fast Play option {k!r}")
    st = GameState.__new__(GameState)
    st.scn, st.options, st.mode = scn, opts, "standard"
    st.hooks = HOOKS
    st.ext = fresh_ext(0)
    st.rng = Rng(seed)
    st.turn, st.active, st.phase = 0, scn.starting_side, "command"
    st.units, st.occ = {}, {}
    for i, us in enumerate(scn.units):
        spec = army_rules(us.spec, us.side, scn.options)
        u = Unit(
            f"u{i}",
            us.side,
            spec,
            us.hex,
            us.figures,
            max(us.figures, us.spec.figures),
            us.badge,
            us.inactive_until,
        )
        st.units[u.id] = u
        st.occ[u.hex] = u.id
    st.hands = {s: [] for s in SIDES}
    st.deck, st.discard, st.plays, st.battles = [], [], [], []
    st.chance = st.pending = None
    st.elim_medals = {s: 0 for s in SIDES}
    st.exit_medals = {s: 0 for s in SIDES}
    st.objectives = {o.id: None for o in scn.objectives}
    st.sudden = None
    st.tiles_over, st.last_card, st.extra_draws = {}, {}, {}
    st.recon_cards, st.air_targets = [], []
    st.winner, st.game_over, st.last_roll = None, False, None
    st.figures_killed = {s: 0 for s in SIDES}
    st.last_turn_for, st.reshuffle, st.seq = None, False, 0
    st.owned = set(st.units)
    st.mines = {}
    pool = list(MINE_POOL)
    if scn.mines:
        st.rng.shuffle(pool)
    for m in scn.mines:  # 004 "Placement Of Minefields": hidden values
        st.mines[m.hex] = Mine(m.side, pool.pop() if pool else 0, False, m.decoy)
    st.crosshairs = {}
    if opts.get("command_cards"):
        K.deal(st)
    events: list = []
    start_turn(st, scn.starting_side, events)
    return st


# ----------------------------------------------------------------------------- command
def country(st: GameState, side: str) -> str:
    return str(st.scn.country.get(side, "")).upper()


def units_lost(st: GameState, side: str) -> int:
    """Units of ``side`` no longer on the board (eliminated or withdrawn)."""
    start = sum(1 for u in st.scn.units if u.side == side)
    return max(0, start - sum(1 for u in st.units.values() if u.side == side))


def nation_rules(st: GameState, side: str) -> list[str]:
    """The 12.x nations whose CP rules apply to ``side`` (our reading of the ``.m44``
    markers: Red Army = country RU or the side of ``russian_commissar_rule``; US Marine
    Corps = option ``gung_ho`` with country US; Italian Royal Army = country IT or the
    Axis of ``italy_royal_army`` / ``italy_high_command``)."""
    o, c, out = st.scn.options, country(st, side), []
    if c == "RU" or str(o.get("russian_commissar_rule", "")).upper() == side:
        out.append("red_army")
    if o.get("gung_ho") and c == "US":
        out.append("us_marines")
    if c == "IT" or (side == "AXIS" and (o.get("italy_royal_army") or o.get("italy_high_command"))):
        out.append("italian")
    return out


def command_points(st: GameState, side: str) -> int:
    """1.1 / 2.1: the scenario's cards; 12.1a -1; 12.2a +1; 12.4a -1 per unit lost, not
    below 3 (never below 1 so that a side can always act)."""
    n = int(st.scn.cards.get(side, 0))
    rules = nation_rules(st, side)
    if "red_army" in rules:
        n -= 1
    if "us_marines" in rules:
        n += 1
    if "italian" in rules:
        n = max(min(n, 3), n - units_lost(st, side))
    return max(1, n)


def start_turn(st: GameState, side: str, events: list) -> None:
    st.turn += 1
    st.active = side
    st.phase = "command"
    st.plays = [Play(None, "fastplay", side, side)]
    for uid, u in list(st.units.items()):
        if u.ordered or u.moved or u.battles or u.entered or u.overrun or u.no_battle:
            st.mut(uid).reset_turn()
    x = st.ext
    x["current"] = None
    prune(st)
    x["towed"] = [t for t in x["towed"] if st.units[t].side != side]
    events.append({"type": "turn_started", "side": side, "turn": st.turn})
    for uid in list(x["opfire"]):  # markers lapse (our reading of 6.1)
        if st.units[uid].side == side:
            drop_opfire(st, uid, events, "expired")
    for uid, lvl in sorted(x["supp"].items()):  # 8.7
        if st.units[uid].side == side:
            set_suppression(st, uid, lvl - 1, events, "turn_start")
    x["cp"] = command_points(st, side)
    events.append({"type": "command_points", "side": side, "cp": x["cp"]})
    update_objectives(st, events, turn_start=True)
    check_victory(st, events)


def end_turn(st: GameState, events: list, reason: str) -> None:
    x = st.ext
    if x["cp"]:
        events.append({"type": "command_points_lost", "side": st.active, "cp": x["cp"]})
    x["cp"], x["current"] = 0, None
    events.append({"type": "turn_ended", "side": st.active, "turn": st.turn, "reason": reason})
    start_turn(st, other(st.active), events)


def orderable(st: GameState) -> list[Unit]:
    if st.ext["cp"] <= 0:
        return []
    return [
        u
        for u in st.units.values()
        if u.side == st.active
        and not u.ordered
        and can_activate(st, u)
        and u.id != st.ext["current"]
    ]


# ----------------------------------------------------------------------------- unit actions
SWA_KINDS = frozenset({"machine_gun", "mortar", "anti_tank", "heavy_anti_tank"})


def swa(u: Unit) -> bool:
    """6.2 "SWA" (Support Weapons Attachment) in ``.m44`` terms (our reading): the 004
    support-weapon types (machine gun, mortar, anti-tank gun) and any unit that may not
    move and battle in the same turn (``no_move_and_fire``)."""
    return u.spec.kind in SWA_KINDS or u.spec.no_move_and_fire


def rally_choices(st: GameState, u: Unit) -> list[dict]:
    """8.5: the full movement allowance toward the own side, terrain ignored but not
    impassable terrain; steps that cannot be made are hits (or a withdrawal off the
    board, 9)."""
    n = max(1, u.spec.move)
    return C.retreat_choices(st, u, n, no_ignore=True) if not u.spec.train else []


def can_withdraw(st: GameState, u: Unit) -> bool:
    """9.3 / 9.4: an ordered unit withdraws as a retreat move (terrain ignored, impassable
    terrain not): it reaches its own edge row within its movement and steps off."""
    n = move_allowance(st, u, st.play)
    if n <= 0 or u.spec.train:
        return False
    edge = 0 if is_top(st, u.side) else st.scn.board.rows - 1
    if u.hex[0] == edge:
        return True
    if abs(u.hex[0] - edge) >= n:
        return False
    return any(h[0] == edge and k < n for h, k in BO.retreat_ends(st, u, n - 1).items())


def may_dig_in(st: GameState, u: Unit) -> bool:
    t = terrain_at(st, u.hex)
    return (
        st.options.get("dig_in")
        and u.cls in ("inf", "art")
        and not t.no_sandbag
        and not any(tl.spec.family == "sandbag" for tl in t.tiles)
    )


def unit_actions(st: GameState, seat: str, u: Unit | None = None) -> list[dict[str, Any]]:
    """What unit ``u`` (default: the current unit) may do (3.4); a unit not yet ordered
    is judged as if ordered (its first action orders it)."""
    if u is None:
        u = st.units.get(st.ext["current"] or "")
        if u is None:
            return []
    if not u.ordered:
        u = u.copy()
        u.ordered = True
    a = {"seat": seat, "unit": u.id}
    out: list[dict[str, Any]] = []
    fresh = not u.moved and not u.battles and not u.no_battle and not has_opfire(st, u.id)
    spent = battled_out(st, u)
    if suppressed(st, u.id):  # 8.4 / 8.5: only a rally (or withdrawal)
        if fresh:
            for o in rally_choices(st, u):
                out.append(
                    {"type": "withdraw", **a}
                    if o.get("withdraw")
                    else {"type": "rally", **a, "to": o["to"], "losses": o["losses"]}
                )
        return out
    play = st.play
    if fresh and u.spec.train:  # a train moves whole along its rail
        out += [{"type": "move", **a, "to": [*h]} for h in sorted(train_moves(st, u))]
    if fresh and not u.spec.train:
        for h in sorted(reachable(st, u, play, None, ignores_terrain(st, u))):
            out.append({"type": "move", **a, "to": [*h]})
        if exit_hexes(st, u, play):
            out.append({"type": "exit", **a})
        if can_withdraw(st, u):
            out.append({"type": "withdraw", **a})
        if may_dig_in(st, u):
            out.append({"type": "dig_in", **a})
    if not spent and not has_opfire(st, u.id) and B.can_battle(st, u, play):
        dist = st.scn.board.distance
        for h, _ in B.targets(st, u, play) if _enemy_near(st, u) else ():
            out.append({"type": "battle", **a, "target": [*h], "assault": False})
            if dist(u.hex, h) == 1:
                out.append({"type": "battle", **a, "target": [*h], "assault": True})
        if u.spec.dice and not u.battles and not (swa(u) and u.moved):
            out.append({"type": "opfire_marker", **a})
    return out


def train_moves(st: GameState, u: Unit) -> dict:
    """Destination -> leading piece of train ``u`` (procedure ``trains``: forward led by
    the locomotive, backward by the last wagon, up to its allowance through empty rail
    hexes, stopping at a station); nothing for a wagon coupled behind a locomotive (the
    train is ordered through its locomotive)."""
    if TR.follower(st, u):
        return {}
    n = move_allowance(st, u, st.play)
    return {h: ld for ld in TR.leaders(st, u) for h in TR.reach(st, ld, n)}


def battled_out(st: GameState, u: Unit) -> bool:
    """5.1: the unit has battled (Artillery Bombard card: artillery battles twice)."""
    f = st.play.flags
    return u.battles >= (f.get("battles", 1) if u.cls in f.get("battles_classes", ()) else 1)


def ignores_terrain(st: GameState, u: Unit) -> bool:
    """Behind Enemy Lines card (option ``command_cards``): infantry ignores terrain."""
    return st.play.flags.get("fp_ignore_terrain") == u.cls


def _enemy_near(st: GameState, u: Unit) -> bool:
    """A cheap bound before the target search: an enemy within the unit's range."""
    rng = len(B.unit_dice(st, u))
    dist = st.scn.board.distance
    return any(v.side != u.side and dist(u.hex, v.hex) <= rng for v in st.units.values())


def command_actions(st: GameState, seat: str) -> list[dict[str, Any]]:
    """The current unit's actions, then those of every unit that may still be ordered
    (3.3: the first action of a unit orders it and costs 1 CP, 3.1)."""
    out = unit_actions(st, seat)
    for u in orderable(st):
        out += unit_actions(st, seat, u)
    return out


def anything_to_do(st: GameState) -> bool:
    """2.3: the current unit or a unit that may be ordered can still act."""
    if unit_actions(st, st.active):
        return True
    return any(unit_actions(st, st.active, u) for u in orderable(st))


def _current(st: GameState, action: dict, events: list) -> Unit:
    """The acting unit: the current one, or a unit ordered now (3.1-3.3)."""
    u = parse_unit(st, action)
    if u.id == st.ext["current"]:
        return u
    if u.side != st.active:
        raise IllegalAction("not_your_unit", "that unit belongs to the enemy")
    if u.ordered:
        raise IllegalAction("unit_already_ordered", "a unit is ordered once per turn (3.2)")
    if st.ext["cp"] <= 0:
        raise IllegalAction("too_many_orders", "no Command Points left")
    if not can_activate(st, u):
        raise IllegalAction("unit_not_active_yet", "this unit cannot be ordered yet")
    st.ext["cp"] -= 1
    st.ext["current"] = u.id
    u = st.mut(u.id)
    u.ordered = True
    st.play.ordered.append(u.id)
    events.append({"type": "unit_ordered", "unit": u.id, "side": u.side, "cp": st.ext["cp"]})
    return u


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
    path = [to]
    while prev[path[-1]] != u.hex:
        path.append(prev[path[-1]])
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
    route = chosen_path(st, u, st.play, path, ignores_terrain(st, u))
    if route is None:
        raise IllegalAction(
            "illegal_path",
            "the unit cannot move along that path: each step "
            "to an adjacent free hex it may enter, no must-stop hex before "
            "the last, within its movement",
        )
    return path, route[-1][1]


def _move(st: GameState, action: dict, events: list) -> None:
    u = _current(st, action, events)
    to = parse_hex(action, "to")
    if suppressed(st, u.id):
        raise IllegalAction("unit_suppressed", "a suppressed unit may not move (8.5: rally)")
    if u.moved or u.battles or has_opfire(st, u.id):
        raise IllegalAction("unit_already_moved", "the unit moves once, before it battles")
    if u.spec.train:
        _move_train(st, u, to, events)
        return
    dests = reachable(st, u, st.play, None, ignores_terrain(st, u))
    if to not in dests:
        raise IllegalAction("illegal_move", "the unit cannot move there")
    path, cost = (
        _chosen(st, u, action, to)
        if action.get("path") is not None
        else (path_to(st, u, dests, to), dests[to])
    )
    st.ext["move"] = {
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


def _move_train(st: GameState, u: Unit, to: Hex, events: list) -> None:
    """Our reading: the whole train moves in one go (no opportunity fire on the way, the
    procedure moves every piece at once); a piece entering a station may unload the
    scenario's supply train (pending ``reinforce``)."""
    leader = train_moves(st, u).get(to)
    if leader is None:
        raise IllegalAction("illegal_move", "the train cannot move there")
    for p in TR.pieces(st, u):
        st.mut(p.id).ordered = True
    TR.move(st, leader, to, move_allowance(st, u, st.play), events)
    update_objectives(st, events)
    check_victory(st, events)


def opfire_shooters(st: GameState, u: Unit) -> list[Unit]:
    """4.2: enemy units holding an OpFire marker that may fire at ``u`` where it stands."""
    out = []
    for w in st.units.values():
        if w.side != u.side and has_opfire(st, w.id) and not suppressed(st, w.id):
            if u.hex in dict(B.targets(st, w, None)) and C.fire_dice(st, w, u) > 0:
                out.append(w)
    return out


def _continue_move(st: GameState, events: list) -> None:
    m = st.ext["move"]
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


def _segment(st: GameState, u: Unit, m: dict, events: list) -> None:
    frm = (m["seg"][0], m["seg"][1])
    if frm != u.hex:
        ev = describe_move(u, frm, u.hex, st.scn.board.distance(frm, u.hex))
        events.append(ev)
        m["seg"] = [*u.hex]


def _end_move(st: GameState, events: list, interrupted: bool) -> None:
    m = st.ext["move"]
    st.ext["move"] = None
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
        C.enter_minefield(st, u, events)
        C.enter_ice(st, st.units[u.id], events)


def after_opfire(st: GameState, events: list) -> None:
    """4.2: the mover goes on if it survived, did not retreat and is not suppressed."""
    m = st.ext["move"]
    u = st.units.get(m["unit"])
    p = m["path"][m["i"] - 1]
    if u is None:
        st.ext["move"] = None
        return
    if u.hex != (p[0], p[1]) or suppressed(st, u.id):
        _end_move(st, events, interrupted=True)
        return
    _continue_move(st, events)


def opfire_decision(st: GameState, action: dict, events: list) -> None:
    m = st.ext["move"]
    t = action["type"]
    shooters = m["window"]
    m["window"] = None
    if t == "hold_fire":
        events.append({"type": "fire_held", "unit": m["unit"], "window": "opportunity"})
        _continue_move(st, events)
        return
    w = parse_unit(st, action)
    if w.id not in shooters:
        raise IllegalAction("no_opfire_marker", "that unit may not opportunity fire now")
    C.declare_fire(st, w, st.units[m["unit"]], "opportunity_fire", events)


def _battle(st: GameState, action: dict, events: list) -> None:
    u = _current(st, action, events)
    if suppressed(st, u.id):
        raise IllegalAction("unit_suppressed", "a suppressed unit may not battle (8.4)")
    if battled_out(st, u) or has_opfire(st, u.id) or not B.can_battle(st, u, st.play):
        raise IllegalAction("unit_cannot_battle", "this unit may not battle now (5.1)")
    C.declare_battle(
        st, u, parse_hex(action, "target"), bool(action.get("assault")), "battle", events
    )


def _opfire_marker(st: GameState, action: dict, events: list) -> None:
    u = _current(st, action, events)
    if (
        suppressed(st, u.id)
        or u.battles
        or has_opfire(st, u.id)
        or not u.spec.dice
        or not B.can_battle(st, u, st.play)
        or (swa(u) and u.moved)
    ):
        raise IllegalAction(
            "unit_cannot_battle", "this unit may not take an OpFire marker (6.1-6.3)"
        )
    add_opfire(st, u.id, events)


def _rally(st: GameState, action: dict, events: list) -> None:
    u = _current(st, action, events)
    if not suppressed(st, u.id) or u.moved:
        raise IllegalAction("not_suppressed", "only a suppressed unit rallies (8.5)")
    to = parse_hex(action, "to")
    opt = next(
        (o for o in rally_choices(st, u) if not o.get("withdraw") and o["to"] == [*to]), None
    )
    if opt is None:
        raise IllegalAction("illegal_move", "the unit cannot rally there")
    v = st.mut(u.id)
    frm = v.hex
    if to != frm:
        del st.occ[frm]
        v.hex = to
        st.occ[to] = v.id
        v.entered = True
        unit_left_hex(st, frm, events)
    v.moved = max(1, st.scn.board.distance(frm, to))
    v.no_battle = True
    events.append(
        {
            "type": "unit_rallied",
            "unit": v.id,
            "side": v.side,
            "from": [*frm],
            "to": [*to],
            "losses": opt["losses"],
        }
    )
    set_suppression(st, v.id, 0, events, "rally")  # 8.6
    if v.cls == "art":
        st.ext["towed"].append(v.id)  # 10.4
    if opt["losses"] and B.apply_hits(st, v, opt["losses"], other(v.side), events):
        C.forget(st, v.id)
    update_objectives(st, events)
    check_victory(st, events)


def _withdraw(st: GameState, action: dict, events: list) -> None:
    u = _current(st, action, events)
    ok = (
        any(o.get("withdraw") for o in rally_choices(st, u))
        if suppressed(st, u.id)
        else can_withdraw(st, u)
    )
    if u.moved or u.battles or not ok:
        raise IllegalAction("illegal_move", "this unit cannot withdraw off the board (9.3)")
    st.ext["current"] = None
    C.withdraw_unit(st, u, events, "order")


def _exit(st: GameState, action: dict, events: list) -> None:
    u = _current(st, action, events)
    hexes = exit_hexes(st, u, st.play)
    if u.moved or suppressed(st, u.id) or not hexes:
        raise IllegalAction("illegal_move", "the unit cannot reach an exit hex")
    C.forget(st, u.id)
    st.ext["current"] = None
    exit_board(st, u, hexes[0], exit_value(st, u, hexes[0]), events)


def _dig_in(st: GameState, action: dict, events: list) -> None:
    u = _current(st, action, events)
    if u.moved or u.battles or suppressed(st, u.id) or not may_dig_in(st, u):
        raise IllegalAction("unit_cannot_battle", "this unit cannot dig in here")
    place_sandbag(st, u.hex, events)
    st.mut(u.id).no_battle = True
    events.append({"type": "dug_in", "unit": u.id, "hex": [*u.hex]})


def _end_turn(st: GameState, action: dict, events: list) -> None:
    end_turn(st, events, "player")


HANDLERS = {
    "move": _move,
    "battle": _battle,
    "opfire_marker": _opfire_marker,
    "rally": _rally,
    "withdraw": _withdraw,
    "exit": _exit,
    "dig_in": _dig_in,
    "end_turn": _end_turn,
}
