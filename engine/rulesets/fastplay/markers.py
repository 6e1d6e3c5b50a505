"""Fast Play '44 markers (public: they lie on the table): suppression levels (8.2), OpFire
markers (6.1), rallied artillery (10.4); kept in ``GameState.ext`` (:mod:`.records`)."""

from __future__ import annotations

from typing import Any

from ...procedures.state import GameState
from .records import ext

SUPPRESSION_MAX = 2  # 8.2 "up to TWO levels of Suppression"


def suppression(st: GameState, uid: str) -> int:
    return ext(st)["supp"].get(uid, 0)


def suppressed(st: GameState, uid: str) -> bool:
    return ext(st)["supp"].get(uid, 0) > 0


def set_suppression(
    st: GameState, uid: str, level: int, events: list[dict[str, Any]], reason: str
) -> None:
    """Set ``uid``'s level (0..2); a suppressed unit loses its OpFire marker (6.4)."""
    old = ext(st)["supp"].get(uid, 0)
    level = max(0, min(SUPPRESSION_MAX, level))
    if level == old:
        return
    if level:
        ext(st)["supp"][uid] = level
    else:
        ext(st)["supp"].pop(uid, None)
    events.append(
        {"type": "suppression", "unit": uid, "level": level, "from": old, "reason": reason}
    )
    if level > old and has_opfire(st, uid):
        drop_opfire(st, uid, events, "suppressed")


def has_opfire(st: GameState, uid: str) -> bool:
    return uid in ext(st)["opfire"]


def add_opfire(st: GameState, uid: str, events: list[dict[str, Any]]) -> None:
    ext(st)["opfire"].append(uid)
    events.append({"type": "opfire_marker", "unit": uid, "placed": True})


def drop_opfire(st: GameState, uid: str, events: list[dict[str, Any]], reason: str) -> None:
    if uid in ext(st)["opfire"]:
        ext(st)["opfire"].remove(uid)
        events.append({"type": "opfire_marker", "unit": uid, "placed": False, "reason": reason})


def forget(st: GameState, uid: str) -> None:
    """A unit left the board: its markers go with it."""
    x = ext(st)
    x["supp"].pop(uid, None)
    if uid in x["opfire"]:
        x["opfire"].remove(uid)
    if uid in x["towed"]:
        x["towed"].remove(uid)


def prune(st: GameState) -> None:
    """Drop the markers of units no longer on the board (a coupled train's pieces, any
    unit removed by a procedure without :func:`forget`)."""
    x, units = ext(st), st.units
    if any(u not in units for u in x["supp"]):
        x["supp"] = {u: v for u, v in x["supp"].items() if u in units}
    for key in ("opfire", "towed"):
        if any(u not in units for u in x[key]):
            x[key] = [u for u in x[key] if u in units]
