"""A game of the Memoir '44 family (a :class:`~engine.procedures.state.GameState`: m44,
overlord, fastplay) ended outside the rules: the side ``loser`` resigns, runs out of
time or forfeits by absence (``engine.meta``), the other side wins."""

from __future__ import annotations

from typing import Any

from ..core.errors import IllegalAction

SIDES = ("AXIS", "ALLIES")


def conclude(st: Any, loser: str, reason: str) -> tuple[Any, list[dict[str, Any]]]:
    """``(state, events)``: game over, ``winner`` the other side, event ``game_over``
    with ``reason`` and ``loser`` (and the medals)."""
    if getattr(st, "game_over", False):
        raise IllegalAction("game_over", "the game is over")
    if loser not in SIDES:
        raise IllegalAction("illegal_action", f"{loser!r} is not a side of this game")
    winner = SIDES[1 - SIDES.index(loser)]
    new = st.clone()
    new.game_over = True
    new.winner = winner
    new.phase = "game_over"
    new.battles = []
    new.chance = None
    new.pending = None
    new.seq += 1
    return new, [
        {
            "type": "game_over",
            "winner": winner,
            "reason": reason,
            "loser": loser,
            "medals": {s: new.medals(s) for s in SIDES},
        }
    ]
