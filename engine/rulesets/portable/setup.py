"""Setting up the battlefield, and Deployment: chance steps and the defender's decisions.

"Before the battle begins, both sides throw a D6.  The side with the highest D6 die
score is deemed to be the attacker.  (Any tied D6 dice scores are rethrown.)"  One
chance step ``for: "attacker"``, dice ``[RED, BLUE]``; a tie gives a new step.

"The defender then throws a D6 to determine the terrain": chance step ``for:
"terrain"``: 1 flat; 2-3 a hill in one of the defender's baseline areas; 4 a built-up
area there; 5 a wood in the left or right baseline area; 6 "a river parallel to their
baseline" (on the line between ranks 1|2 or 2|3, the defender's choice) "and throws a
further D6" (``for: "terrain2"``, same table; a second 6 adds nothing).  Each feature
is placed by the defender (pending ``place_terrain {feature, options}``, action
``place_terrain {at}``).  A second feature may not go where the first is.

Deployment: "The defender places all their units ... The attacker then places all their
units ... The defender may then move one of their units to a new position" - one
``deploy {unit, to}`` per piece (six units and the General) within the side's own
baseline and Reserve Area (:func:`battlefield.deploy_zone`), then ``redeploy {unit, to}``
or ``pass`` by the defender.
"""

from __future__ import annotations

from typing import Any

from .battlefield import deploy_zone, room_for
from .state import EDGES, FILES, SIDES, State, baseline, decided, other

TERRAIN_TABLE = {1: None, 2: "hill", 3: "hill", 4: "built_up", 5: "wood", 6: "river"}
START_TURN = {"type": "_start_turn"}


def start(st: State) -> None:
    st.pending = {"type": "roll", "seat": "chance", "for": "attacker", "dice": 2}


def attacker_roll(st: State, dice: list[int], ev: list[dict[str, Any]]) -> None:
    scores = dict(zip(SIDES, dice))
    tie = dice[0] == dice[1]
    st.last_roll = {
        "for": "attacker",
        "dice": list(dice),
        "score": scores,
        "result": "tie" if tie else None,
    }
    if tie:
        ev.append(dict(st.last_roll, type="dice_rolled"))
        return
    st.attacker = SIDES[0] if dice[0] > dice[1] else SIDES[1]
    st.last_roll["result"] = st.attacker
    ev.append(dict(st.last_roll, type="dice_rolled"))
    ev.append({"type": "attacker_chosen", "attacker": st.attacker, "defender": st.defender})
    st.pending = {"type": "roll", "seat": "chance", "for": "terrain", "dice": 1}


def terrain_roll(st: State, dice: list[int], ev: list[dict[str, Any]]) -> None:
    second = st.pending["for"] == "terrain2"
    d = dice[0]
    feat = None if (second and d == 6) else TERRAIN_TABLE[d]
    st.last_roll = {
        "for": st.pending["for"],
        "side": st.defender,
        "dice": [d],
        "result": feat or "nothing",
    }
    ev.append(dict(st.last_roll, type="dice_rolled"))
    if feat is None:
        begin_deployment(st, ev)
        return
    st.pending = {
        "type": "place_terrain",
        "seat": st.defender,
        "feature": feat,
        "options": terrain_options(st, feat),
    }


def terrain_options(st: State, feat: str) -> list[str]:
    if feat == "river":
        return list(EDGES)
    line = baseline(decided(st.defender))
    if feat == "wood":
        line = tuple(a for a in line if a[0] in (FILES[0], FILES[-1]))
    return [a for a in line if a not in st.terrain]


def place_terrain(st: State, at: str, ev: list[dict[str, Any]]) -> None:
    feat = st.pending["feature"]
    if feat == "river":
        st.river = at
    else:
        st.terrain[at] = feat
    ev.append({"type": "terrain_placed", "side": st.defender, "feature": feat, "at": at})
    if feat == "river":
        st.pending = {"type": "roll", "seat": "chance", "for": "terrain2", "dice": 1}
    else:
        begin_deployment(st, ev)


def begin_deployment(st: State, ev: list[dict[str, Any]]) -> None:
    # a river roll followed by a feature with no free area left: nothing more is placed
    st.pending = {"type": "deploy", "seat": st.defender}


def deploy_actions(st: State) -> list[dict[str, Any]]:
    side = st.pending["seat"]
    out = []
    for u in st.side_units(side, generals=True):
        if u.area is None:
            for a in deploy_zone(side):
                if room_for(st, u, a):
                    out.append({"type": "deploy", "seat": side, "unit": u.id, "to": a})
    return out


def deploy(st: State, uid: str, to: str, ev: list[dict[str, Any]]) -> None:
    side = st.pending["seat"]
    st.units[uid].area = to
    ev.append({"type": "unit_deployed", "unit": uid, "side": side, "to": to})
    if any(u.area is None for u in st.side_units(side, generals=True)):
        return
    if side == st.defender:
        st.pending = {"type": "deploy", "seat": other(side)}
    else:
        st.pending = {"type": "redeploy", "seat": st.defender}


def redeploy_actions(st: State) -> list[dict[str, Any]]:
    side = st.pending["seat"]
    out = [{"type": "pass", "seat": side}]
    for u in st.side_units(side, generals=True):
        for a in deploy_zone(side):
            if a != u.area and room_for(st, u, a):
                out.append({"type": "redeploy", "seat": side, "unit": u.id, "to": a})
    return out


def redeploy(st: State, uid: str | None, to: str | None, ev: list[dict[str, Any]]) -> None:
    if uid is not None:
        u = st.units[uid]
        ev.append(
            {"type": "unit_redeployed", "unit": uid, "side": u.side, "from": u.area, "to": to}
        )
        u.area = to
    st.pending = dict(START_TURN)
