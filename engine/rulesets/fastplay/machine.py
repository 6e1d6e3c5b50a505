"""The Fast Play '44 turn machine (000 rules 1-4, 8.5-8.7, 9, 11): the set-up, what the
unit being used may do and doing it.

No cards, no sections: the active side orders units one at a time (:mod:`.command`).
The unit being used (``ext["current"]``) may move (:mod:`.moves`), battle, move and
battle (4.3: at once), take an OpFire marker (3.4, 6.1), rally when suppressed (8.5),
withdraw off its own edge (9.3) or - optional rule ``dig_in`` - dig in.  Ordering
another unit finishes the current one.  The turn passes when the CP are spent and the
current unit is done, when no unit may be ordered (2.3), or on ``end_turn``.

Choices where the text is silent: an OpFire marker lapses at the start of its owner's
next turn (6.1 "deferring ... to the Opponent's turn"); a minefield (004 "Minefields":
hidden value 0-4, hits on unit symbols and grenades, flags ignored; a 0 is a dud and
goes) is resolved as an assault-like roll (grenades hit, no suppression).
"""

from __future__ import annotations

from typing import Any

from ...core.errors import IllegalAction
from ...core.rng import Rng
from ...core.scenario_model import Scenario
from ...core.units import army_rules
from ...procedures import battle as B
from ...procedures import battle_outcome as BO
from ...procedures.common import SIDES, is_top, other, parse_hex, terrain_at
from ...procedures.hooks import STANDARD
from ...procedures.medals import check_victory, exit_board, update_objectives
from ...procedures.movement import exit_hexes, exit_value, move_allowance, reachable
from ...procedures.state import GameState, Mine, Unit
from ...procedures.terrain_changes import place_sandbag, unit_left_hex
from . import cards as K
from .command import end_turn, order_unit, orderable, start_turn, turn_play
from .firing import declare_battle
from .markers import add_opfire, forget, has_opfire, set_suppression, suppressed
from .moves import ignores_terrain, move, train_moves
from .records import FightOption, ext, fresh_ext
from .retreat import retreat_choices, withdraw_unit

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
    events: list[dict[str, Any]] = []
    start_turn(st, scn.starting_side, events)
    return st


# ----------------------------------------------------------------------------- unit actions
SWA_KINDS = frozenset({"machine_gun", "mortar", "anti_tank", "heavy_anti_tank"})


def swa(u: Unit) -> bool:
    """6.2 "SWA" (Support Weapons Attachment) in ``.m44`` terms (our reading): the 004
    support-weapon types (machine gun, mortar, anti-tank gun) and any unit that may not
    move and battle in the same turn (``no_move_and_fire``)."""
    return u.spec.kind in SWA_KINDS or u.spec.no_move_and_fire


def rally_choices(st: GameState, u: Unit) -> list[FightOption]:
    """8.5: the full movement allowance toward the own side, terrain ignored but not
    impassable terrain; steps that cannot be made are hits (or a withdrawal off the
    board, 9)."""
    n = max(1, u.spec.move)
    return retreat_choices(st, u, n, no_ignore=True) if not u.spec.train else []


def can_withdraw(st: GameState, u: Unit) -> bool:
    """9.3 / 9.4: an ordered unit withdraws as a retreat move (terrain ignored, impassable
    terrain not): it reaches its own edge row within its movement and steps off."""
    n = move_allowance(st, u, turn_play(st))
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
    return bool(
        st.options.get("dig_in")
        and u.cls in ("inf", "art")
        and not t.no_sandbag
        and not any(tl.spec.family == "sandbag" for tl in t.tiles)
    )


def unit_actions(st: GameState, seat: str, u: Unit | None = None) -> list[dict[str, Any]]:
    """What unit ``u`` (default: the current unit) may do (3.4); a unit not yet ordered
    is judged as if ordered (its first action orders it)."""
    if u is None:
        u = st.units.get(ext(st)["current"] or "")
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
    play = turn_play(st)
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


def battled_out(st: GameState, u: Unit) -> bool:
    """5.1: the unit has battled (Artillery Bombard card: artillery battles twice)."""
    f = turn_play(st).flags
    return u.battles >= (f.get("battles", 1) if u.cls in f.get("battles_classes", ()) else 1)


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


def _battle(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    u = order_unit(st, action, events)
    if suppressed(st, u.id):
        raise IllegalAction("unit_suppressed", "a suppressed unit may not battle (8.4)")
    if battled_out(st, u) or has_opfire(st, u.id) or not B.can_battle(st, u, turn_play(st)):
        raise IllegalAction("unit_cannot_battle", "this unit may not battle now (5.1)")
    declare_battle(
        st, u, parse_hex(action, "target"), bool(action.get("assault")), "battle", events
    )


def _opfire_marker(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    u = order_unit(st, action, events)
    if (
        suppressed(st, u.id)
        or u.battles
        or has_opfire(st, u.id)
        or not u.spec.dice
        or not B.can_battle(st, u, turn_play(st))
        or (swa(u) and u.moved)
    ):
        raise IllegalAction(
            "unit_cannot_battle", "this unit may not take an OpFire marker (6.1-6.3)"
        )
    add_opfire(st, u.id, events)


def _rally(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    u = order_unit(st, action, events)
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
        ext(st)["towed"].append(v.id)  # 10.4
    if opt["losses"] and B.apply_hits(st, v, opt["losses"], other(v.side), events):
        forget(st, v.id)
    update_objectives(st, events)
    check_victory(st, events)


def _withdraw(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    u = order_unit(st, action, events)
    ok = (
        any(o.get("withdraw") for o in rally_choices(st, u))
        if suppressed(st, u.id)
        else can_withdraw(st, u)
    )
    if u.moved or u.battles or not ok:
        raise IllegalAction("illegal_move", "this unit cannot withdraw off the board (9.3)")
    ext(st)["current"] = None
    withdraw_unit(st, u, events, "order")


def _exit(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    u = order_unit(st, action, events)
    hexes = exit_hexes(st, u, turn_play(st))
    if u.moved or suppressed(st, u.id) or not hexes:
        raise IllegalAction("illegal_move", "the unit cannot reach an exit hex")
    forget(st, u.id)
    ext(st)["current"] = None
    exit_board(st, u, hexes[0], exit_value(st, u, hexes[0]), events)


def _dig_in(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    u = order_unit(st, action, events)
    if u.moved or u.battles or suppressed(st, u.id) or not may_dig_in(st, u):
        raise IllegalAction("unit_cannot_battle", "this unit cannot dig in here")
    place_sandbag(st, u.hex, events)
    st.mut(u.id).no_battle = True
    events.append({"type": "dug_in", "unit": u.id, "hex": [*u.hex]})


def _end_turn(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    end_turn(st, events, "player")


HANDLERS = {
    "move": move,
    "battle": _battle,
    "opfire_marker": _opfire_marker,
    "rally": _rally,
    "withdraw": _withdraw,
    "exit": _exit,
    "dig_in": _dig_in,
    "end_turn": _end_turn,
}
