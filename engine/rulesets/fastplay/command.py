"""Fast Play '44 command (000 rules 1-3, 8.7, 12.1-12.4): the active side's Command
Points at the start of its turn (1.1, 2.1, 12.1a, 12.2a, 12.4a), suppression removed
(8.7), OpFire markers lapsing, units ordered one at a time anywhere on the board (2.2,
3.1-3.3), each once per turn (3.2), unspent CP lost (2.4)."""

from __future__ import annotations

from typing import Any

from ...core.errors import IllegalAction
from ...procedures.common import can_activate, other, parse_unit
from ...procedures.medals import check_victory, update_objectives
from ...procedures.state import GameState, Play, Unit
from .markers import drop_opfire, prune, set_suppression
from .records import ext


def turn_play(st: GameState) -> Play:
    """The active side's play of this turn (no cards: it holds the units ordered and the
    effects of a command card, option ``command_cards``)."""
    return st.plays[-1]


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


def start_turn(st: GameState, side: str, events: list[dict[str, Any]]) -> None:
    st.turn += 1
    st.active = side
    st.phase = "command"
    st.plays = [Play(None, "fastplay", side, side)]
    for uid, u in list(st.units.items()):
        if u.ordered or u.moved or u.battles or u.entered or u.overrun or u.no_battle:
            st.mut(uid).reset_turn()
    x = ext(st)
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


def end_turn(st: GameState, events: list[dict[str, Any]], reason: str) -> None:
    x = ext(st)
    if x["cp"]:
        events.append({"type": "command_points_lost", "side": st.active, "cp": x["cp"]})
    x["cp"], x["current"] = 0, None
    events.append({"type": "turn_ended", "side": st.active, "turn": st.turn, "reason": reason})
    start_turn(st, other(st.active), events)


def orderable(st: GameState) -> list[Unit]:
    x = ext(st)
    if x["cp"] <= 0:
        return []
    return [
        u
        for u in st.units.values()
        if u.side == st.active and not u.ordered and can_activate(st, u) and u.id != x["current"]
    ]


def order_unit(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> Unit:
    """The acting unit: the current one, or a unit ordered now (3.1-3.3)."""
    x = ext(st)
    u = parse_unit(st, action)
    if u.id == x["current"]:
        return u
    if u.side != st.active:
        raise IllegalAction("not_your_unit", "that unit belongs to the enemy")
    if u.ordered:
        raise IllegalAction("unit_already_ordered", "a unit is ordered once per turn (3.2)")
    if x["cp"] <= 0:
        raise IllegalAction("too_many_orders", "no Command Points left")
    if not can_activate(st, u):
        raise IllegalAction("unit_not_active_yet", "this unit cannot be ordered yet")
    x["cp"] -= 1
    x["current"] = u.id
    u = st.mut(u.id)
    u.ordered = True
    turn_play(st).ordered.append(u.id)
    events.append({"type": "unit_ordered", "unit": u.id, "side": u.side, "cp": x["cp"]})
    return u
