"""The turn machine's dispatch: pending decision -> legal actions, action -> handler.

``state.pending`` says what the game waits for (``{"type", "seat", ...}``); handlers
may leave an internal marker (``_start_turn``, ``_resume``, ``_combat_done``) that
:func:`settle` turns into the next real decision, so every pending a player sees is a
decision or a chance step.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import IllegalAction
from engine.core.rng import Rng

from . import armies, combat, fire, hits, movement, setup, turn
from .options import normalise
from .state import AREAS, EDGES, SIDES, State

CHANCE = "chance"

# action type -> {field: kind}; kinds: unit, area, at, side, dice
FIELDS: dict[str, dict[str, str]] = {
    "roll": {"dice": "dice"},
    "place_terrain": {"at": "at"},
    "deploy": {"unit": "unit", "to": "area"},
    "redeploy": {"unit": "unit", "to": "area"},
    "pass": {},
    "choose_first": {"first": "side"},
    "move": {"unit": "unit", "to": "area"},
    "fire": {"unit": "unit", "target": "area"},
    "attack": {"unit": "unit", "target": "unit"},
    "end_phase": {},
    "retreat": {},
    "lose_sp": {},
    "advance": {},
    "stay": {},
}
OPTIONAL = {("roll", "dice")}


def new_game(seed: int, options: dict[str, Any] | None = None) -> State:
    opts = normalise(options)
    units = {}
    for side in SIDES:
        for u in armies.build(side, opts[f"{side.lower()}_army"]):
            units[u.id] = u
    st = State(seed=int(seed), rng=Rng(seed), options=opts, units=units, pending={})
    setup.start(st)
    return st


def to_act(st: State) -> list[str]:
    if st.over:
        return []
    return [st.pending["seat"]]


def legal_actions(st: State, seat: str | None) -> list[dict[str, Any]]:
    if st.over or seat is None or seat != st.pending.get("seat"):
        return []
    p = st.pending
    kind = p["type"]
    if kind == "roll":
        return [sample_chance(st)]
    if kind == "place_terrain":
        return [{"type": "place_terrain", "seat": seat, "at": a} for a in p["options"]]
    if kind == "deploy":
        return setup.deploy_actions(st)
    if kind == "redeploy":
        return setup.redeploy_actions(st)
    if kind == "choose_first":
        return [{"type": "choose_first", "seat": seat, "first": s} for s in SIDES]
    if kind == "activate":
        return turn.activation_actions(st, seat) + [{"type": "end_phase", "seat": seat}]
    if kind == "hit_choice":
        return [{"type": "retreat", "seat": seat}, {"type": "lose_sp", "seat": seat}]
    if kind == "advance":
        return [{"type": "advance", "seat": seat}, {"type": "stay", "seat": seat}]
    return []


def sample_chance(st: State) -> dict[str, Any]:
    if st.over or st.pending.get("type") != "roll":
        raise IllegalAction("not_a_chance_node", "no dice to roll now")
    n = st.pending["dice"]
    return {"type": "roll", "seat": CHANCE, "dice": [1 + st.rng.peek(i) % 6 for i in range(n)]}


def canonical_action(st: State, action: Any) -> dict[str, Any]:
    """Known keys only, values of the right type and range; the roll's dice filled in."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("malformed_action", "an action is an object with a type")
    kind = action["type"]
    if kind not in FIELDS:
        raise IllegalAction("unknown_action", f"unknown action type {kind!r}")
    spec = FIELDS[kind]
    extra = set(action) - set(spec) - {"type", "seat"}
    if extra:
        raise IllegalAction("unknown_field", f"{kind}: unknown field(s) {sorted(extra)}")
    seat = action.get("seat")
    if seat not in SIDES + (CHANCE,):
        raise IllegalAction("bad_value", f"seat {seat!r}")
    out = {"type": kind, "seat": seat}
    for key, vk in spec.items():
        if key not in action:
            if (kind, key) in OPTIONAL:
                continue
            raise IllegalAction("malformed_action", f"{kind}: missing {key!r}")
        out[key] = _value(st, kind, key, vk, action[key])
    if kind == "roll" and "dice" not in out and not st.over and st.pending.get("type") == "roll":
        out["dice"] = sample_chance(st)["dice"]
    return out


def _value(st: State, kind: str, key: str, vk: str, v: Any) -> Any:
    ok = {
        "unit": lambda: isinstance(v, str) and v in st.units,
        "area": lambda: isinstance(v, str) and v in AREAS,
        "at": lambda: isinstance(v, str) and (v in AREAS or v in EDGES),
        "side": lambda: v in SIDES,
        "dice": lambda: (
            isinstance(v, list)
            and 1 <= len(v) <= 2
            and all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in v)
        ),
    }[vk]()
    if not ok:
        raise IllegalAction("bad_value", f"{kind}: bad {key} {v!r}")
    return list(v) if vk == "dice" else v


def apply(st: State, action: Any) -> tuple[State, list[dict[str, Any]]]:
    if st.over:
        raise IllegalAction("game_over", "the battle is over")
    a = canonical_action(st, action)
    p = st.pending
    if a["seat"] != p["seat"]:
        raise IllegalAction("not_your_turn", f"waiting for {p['seat']}")
    if a["type"] == "roll":
        if p["type"] != "roll":
            raise IllegalAction("not_a_chance_node", "no dice to roll now")
        if len(a["dice"]) != p["dice"]:
            raise IllegalAction("bad_value", f"roll: {p['dice']} dice expected")
    elif not _legal(st, a):
        raise IllegalAction(_why(st, a), f"{a['type']} is not allowed now")
    new = st.clone()
    ev: list[dict[str, Any]] = []
    _HANDLERS[a["type"]](new, a, ev)
    settle(new, ev)
    return new, ev


def _legal(st: State, a: dict[str, Any]) -> bool:
    """``a`` in ``legal_actions`` (asked of the one unit for the activation actions)."""
    if st.pending["type"] != "activate" or a["type"] == "end_phase":
        return a in legal_actions(st, a["seat"])
    if a["type"] not in ("move", "fire", "attack"):
        return False
    u = st.units[a["unit"]]
    if u.side != a["seat"]:
        return False
    if a["type"] == "move":
        return movement.can_move(st, u) and a["to"] in movement.reachable(st, u)
    if a["type"] == "fire":
        return a["target"] in fire.targets(st, u)
    return any(t.id == a["target"] for t in combat.targets(st, u))


def _why(st: State, a: dict[str, Any]) -> str:
    p = st.pending["type"]
    phase_of = {
        "place_terrain": "place_terrain",
        "deploy": "deploy",
        "redeploy": "redeploy",
        "choose_first": "choose_first",
        "retreat": "hit_choice",
        "lose_sp": "hit_choice",
        "advance": "advance",
        "stay": "advance",
        "end_phase": "activate",
        "move": "activate",
        "fire": "activate",
        "attack": "activate",
    }
    if a["type"] == "pass":
        return "wrong_phase" if p != "redeploy" else "illegal_action"
    if phase_of.get(a["type"]) != p:
        return "wrong_phase"
    u = st.units.get(a.get("unit", ""))
    if u is not None and u.side != a["seat"]:
        return "not_your_unit"
    return {
        "move": "illegal_move",
        "fire": "illegal_target",
        "attack": "illegal_target",
        "deploy": "illegal_deployment",
        "redeploy": "illegal_deployment",
    }.get(a["type"], "illegal_action")


def _roll(st: State, a: dict[str, Any], ev: list[dict[str, Any]]) -> None:
    p = st.pending
    st.rng.counter += p["dice"]
    dice = a["dice"]
    what = p["for"]
    if what == "attacker":
        setup.attacker_roll(st, dice, ev)
    elif what in ("terrain", "terrain2"):
        setup.terrain_roll(st, dice, ev)
    elif what == "initiative":
        turn.initiative_roll(st, dice, ev)
    elif what == "fire":
        hits.start(st, fire.resolve(st, dice[0], ev), ev)
    elif what == "close_combat":
        hits.start(st, combat.resolve(st, dice, ev), ev)
    elif what == "general":
        hits.general_roll(st, dice, ev)
    else:
        hits.hit_roll(st, dice[0], ev)


def _redeploy(st: State, a: dict[str, Any], ev: list[dict[str, Any]]) -> None:
    setup.redeploy(st, a.get("unit"), a.get("to"), ev)


def _advance(st: State, a: dict[str, Any], ev: list[dict[str, Any]]) -> None:
    if a["type"] == "advance":
        combat.advance(st, ev)
    st.pending = dict(turn.RESUME)


_HANDLERS = {
    "roll": _roll,
    "place_terrain": lambda st, a, ev: setup.place_terrain(st, a["at"], ev),
    "deploy": lambda st, a, ev: setup.deploy(st, a["unit"], a["to"], ev),
    "redeploy": _redeploy,
    "pass": _redeploy,
    "choose_first": lambda st, a, ev: turn.choose_first(st, a["first"], ev),
    "move": lambda st, a, ev: movement.move(st, st.units[a["unit"]], a["to"], ev),
    "fire": lambda st, a, ev: fire.fire(st, st.units[a["unit"]], a["target"], ev),
    "attack": lambda st, a, ev: combat.attack(st, st.units[a["unit"]], st.units[a["target"]], ev),
    "end_phase": lambda st, a, ev: turn.end_phase(st, ev),
    "retreat": lambda st, a, ev: hits.choose(st, True, ev),
    "lose_sp": lambda st, a, ev: hits.choose(st, False, ev),
    "advance": _advance,
    "stay": _advance,
}


def settle(st: State, ev: list[dict[str, Any]]) -> None:
    """Turn internal markers into the next real decision."""
    while not st.over and st.pending["type"].startswith("_"):
        kind = st.pending["type"]
        if kind == "_start_turn":
            turn.start_turn(st, ev)
        elif kind == "_combat_done":
            offer = combat.advance_offer(st)
            st.pending = offer if offer else dict(turn.RESUME)
        else:
            turn.resume(st, ev)
