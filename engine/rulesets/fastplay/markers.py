"""Fast Play '44 markers kept in ``GameState.ext`` (public: they lie on the table).

* ``cp``: Command Points left to the active side this turn (rules 1-3);
* ``current``: the unit being used (3.3: units are ordered and used one at a time);
* ``opfire``: units holding an OpFire marker (6.1);
* ``supp``: unit -> suppression level 1/2 (8.2);
* ``towed``: artillery that rallied (10.4: defends as infantry until its next turn);
* ``withdrawn``: units withdrawn per side (9, 11.1);
* ``fights``: the combat stack (engine/rulesets/fastplay/combat.py);
* ``move``: a move interrupted by opportunity fire (4.2).

``ext`` is copied by ``GameState.clone`` (nested dicts and lists copied), so values are
changed in place only on a cloned state.
"""

from __future__ import annotations

from typing import Any

from ...procedures.state import GameState

SUPPRESSION_MAX = 2  # 8.2 "up to TWO levels of Suppression"


def ext(st: GameState) -> dict[str, Any]:
    return st.ext


def suppression(st: GameState, uid: str) -> int:
    return st.ext["supp"].get(uid, 0)


def suppressed(st: GameState, uid: str) -> bool:
    return st.ext["supp"].get(uid, 0) > 0


def set_suppression(
    st: GameState, uid: str, level: int, events: list[dict[str, Any]], reason: str
) -> None:
    """Set ``uid``'s level (0..2); a suppressed unit loses its OpFire marker (6.4)."""
    old = st.ext["supp"].get(uid, 0)
    level = max(0, min(SUPPRESSION_MAX, level))
    if level == old:
        return
    if level:
        st.ext["supp"][uid] = level
    else:
        st.ext["supp"].pop(uid, None)
    events.append(
        {"type": "suppression", "unit": uid, "level": level, "from": old, "reason": reason}
    )
    if level > old and has_opfire(st, uid):
        drop_opfire(st, uid, events, "suppressed")


def has_opfire(st: GameState, uid: str) -> bool:
    return uid in st.ext["opfire"]


def add_opfire(st: GameState, uid: str, events: list[dict[str, Any]]) -> None:
    st.ext["opfire"].append(uid)
    events.append({"type": "opfire_marker", "unit": uid, "placed": True})


def drop_opfire(st: GameState, uid: str, events: list[dict[str, Any]], reason: str) -> None:
    if uid in st.ext["opfire"]:
        st.ext["opfire"].remove(uid)
        events.append({"type": "opfire_marker", "unit": uid, "placed": False, "reason": reason})


def forget(st: GameState, uid: str) -> None:
    """A unit left the board: its markers go with it."""
    x = st.ext
    x["supp"].pop(uid, None)
    if uid in x["opfire"]:
        x["opfire"].remove(uid)
    if uid in x["towed"]:
        x["towed"].remove(uid)


def fresh_ext(cp: int) -> dict[str, Any]:
    return {
        "cp": cp,
        "current": None,
        "opfire": [],
        "supp": {},
        "towed": [],
        "withdrawn": {"AXIS": 0, "ALLIES": 0},
        "fights": [],
        "move": None,
    }


def prune(st: GameState) -> None:
    """Drop the markers of units no longer on the board (a coupled train's pieces, any
    unit removed by a procedure without :func:`forget`)."""
    x, units = st.ext, st.units
    if any(u not in units for u in x["supp"]):
        x["supp"] = {u: v for u, v in x["supp"].items() if u in units}
    for key in ("opfire", "towed"):
        if any(u not in units for u in x[key]):
            x[key] = [u for u in x[key] if u in units]
