"""The end of the battle (the text has no victory condition; house rules, named options).

An army withdraws, losing the battle, when it has lost ``break_units`` of its six units
(default 3, half the army), or its General and ``break_units_general`` units (default 2,
a third).  Losses are resolved one at a time, so the first army to reach its break point
withdraws (it is checked after every unit destroyed and every General killed or
captured).  After ``turn_limit`` turns (default 12) with neither army withdrawn: a draw.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import IllegalAction

from .state import SIDES, State, other


def lost_units(st: State, side: str) -> int:
    return sum(1 for u in st.units.values() if u.side == side and u.lost and not u.general)


def broken(st: State, side: str) -> bool:
    n = lost_units(st, side)
    return n >= st.options["break_units"] or (
        st.general_of(side) is None and n >= st.options["break_units_general"]
    )


def check_break(st: State, ev: list[dict[str, Any]]) -> bool:
    if st.over:
        return True
    for side in SIDES:
        if broken(st, side):
            end(st, other(side), "army_withdraws", ev)
            return True
    return False


def conclude(st: State, loser: str, reason: str) -> tuple[State, list[dict[str, Any]]]:
    """``loser`` resigns, runs out of time or forfeits (remote play, ``engine.meta``):
    the other side wins."""
    if st.over:
        raise IllegalAction("game_over", "the battle is over")
    if loser not in SIDES:
        raise IllegalAction("illegal_action", f"{loser!r} is not a side of this battle")
    new, ev = st.clone(), list[dict[str, Any]]()
    end(new, other(loser), reason, ev)
    ev[-1]["loser"] = loser
    return new, ev


def end(st: State, winner: str | None, reason: str, ev: list[dict[str, Any]]) -> None:
    st.over, st.winner, st.reason = True, winner, reason
    st.pending = {"type": "over", "seat": None}
    st.combat = None
    ev.append(
        {
            "type": "game_over",
            "winner": winner,
            "reason": reason,
            "lost": {s: lost_units(st, s) for s in SIDES},
        }
    )
