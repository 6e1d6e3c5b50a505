"""Fast Play '44 dispatch: who acts, what is legal, applying an action, dice.

Pending decisions (``state.pending``, shown in the views): ``command`` (active side:
move / battle / opfire_marker / rally / withdraw / exit / dig_in / end_turn),
``opportunity_fire`` (the waiting player, 4.2: ``opportunity_fire`` {unit, target} or
``hold_fire``), ``assault_fire`` (the assaulted unit's side, 5.7a:
``opportunity_fire`` / ``defensive_fire`` / ``hold_fire``), ``defensive_fire`` (5.6f:
``defensive_fire`` / ``no_defensive_fire``), ``retreat`` (``retreat`` / ``withdraw``),
``take_ground``, ``overrun``, ``battle_back`` (12.3), ``second_assault`` (12.5), and
``roll`` (``"seat": "chance"``: the dice, sampled from the state RNG exactly as the m44
ruleset does - ``roll`` action with optional faces, the RNG counter advancing by the
number of dice either way).
"""

from __future__ import annotations

from typing import Any

from ...core import dice as D
from ...core.errors import IllegalAction
from ...procedures import trains as TR
from ...procedures.chance import is_chance as is_chance  # the ruleset's chance calls
from ...procedures.chance import roll_faces
from ...procedures.chance import sample_chance as sample_chance
from ...procedures.common import other
from ...procedures.state import GameState
from . import cards as K
from . import combat as C
from . import machine as M
from . import moves as MV
from . import setup as SU
from .command import end_turn
from .markers import prune
from .records import ext


def new_game(scn: Any, seed: int, options: dict[str, Any] | None) -> GameState:
    st = M.new_game(scn, seed, options)
    SU.init(st)
    advance(st, [])
    refresh(st)
    return st


HEX, UNIT, BOOL, INT, FACES, PATH = "hex", "unit", "bool", "int", "faces", "path"
MAX_PATH = 16  # hexes of a chosen path (no unit moves half as far)
FIELDS: dict[str, dict[str, str]] = {
    "roll": {"dice": FACES},
    "move": {"unit": UNIT, "to": HEX, "path": PATH},
    "battle": {"unit": UNIT, "target": HEX, "assault": BOOL},
    "opfire_marker": {"unit": UNIT},
    "withdraw": {"unit": UNIT},
    "exit": {"unit": UNIT},
    "dig_in": {"unit": UNIT},
    "battle_back": {"unit": UNIT},
    "second_assault": {"unit": UNIT},
    "rally": {"unit": UNIT, "to": HEX, "losses": INT},
    "opportunity_fire": {"unit": UNIT, "target": HEX},
    "defensive_fire": {"unit": UNIT, "target": HEX},
    "retreat": {"unit": UNIT, "to": HEX, "ignore": INT},
    "take_ground": {"take": BOOL},
    "airdrop": {"hex": HEX},
    "reinforce": {"hex": HEX},
    "place_smoke": {"hex": HEX},
    "end_smoke": {},
    "end_turn": {},
    "hold_fire": {},
    "no_defensive_fire": {},
    "pass": {},
    "play_card": {"card": INT, "target": HEX, "unit": UNIT},
}


def _ok(kind: str, v: Any) -> bool:
    if kind == HEX:
        return (
            isinstance(v, list)
            and len(v) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in v)
        )
    if kind == PATH:  # move's optional path: 1..MAX_PATH hexes
        return isinstance(v, list) and 0 < len(v) <= MAX_PATH and all(_ok(HEX, h) for h in v)
    if kind == UNIT:
        return isinstance(v, str)
    if kind == BOOL:
        return isinstance(v, bool)
    if kind == INT:
        return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 99
    return v is None or (
        isinstance(v, list) and all(isinstance(f, str) and f in D.FACE_NAMES for f in v)
    )


def canonical_action(action: Any) -> dict[str, Any]:
    """The action as the log stores it: ``type``, ``seat`` and the type's known fields
    (``unknown_action``, ``unknown_field``, ``bad_value`` otherwise)."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("malformed_action", "an action is a JSON object with a 'type'")
    fields = FIELDS.get(action["type"])
    if fields is None:
        raise IllegalAction("unknown_action", f"unknown action type {action['type']!r}")
    out: dict[str, Any] = {"type": action["type"]}
    for k, v in action.items():
        if k in ("type", "id"):
            continue
        if k == "seat":
            if v is not None and not isinstance(v, str):
                raise IllegalAction("bad_value", "seat must be a string")
            out[k] = v
        elif k not in fields:
            raise IllegalAction("unknown_field", f"{action['type']} has no field {k!r}")
        elif not _ok(fields[k], v):
            raise IllegalAction("bad_value", f"bad value for {k!r}")
        else:
            out[k] = [list(h) for h in v] if k == "path" else list(v) if isinstance(v, list) else v
    return out


def refresh(st: GameState) -> None:
    st.pending = compute_pending(st)


def compute_pending(st: GameState) -> dict[str, Any] | None:
    if st.game_over:
        return None
    if SU.active(st):
        return SU.pending(st)
    s = ext(st).get("supply_train")
    if s:
        return {
            "type": "reinforce",
            "seat": s["side"],
            "left": s["left"],
            "code": s["unit"]["name"],
        }
    if ext(st)["fights"]:
        return C.pending(st)
    m = ext(st)["move"]
    if m is not None and m["window"]:
        u = st.units[m["unit"]]
        return {
            "type": "opportunity_fire",
            "seat": other(u.side),
            "unit": u.id,
            "hex": [*u.hex],
            "shooters": list(m["window"]),
        }
    return {"type": "command", "seat": st.active, "cp": ext(st)["cp"], "unit": ext(st)["current"]}


def to_act(st: GameState) -> list[str]:
    return [] if st.pending is None else [st.pending["seat"]]


def legal_actions(st: GameState, seat: str | None) -> list[dict[str, Any]]:
    p = st.pending
    if p is None or seat is None or p["seat"] != seat or seat == "chance":
        return []
    t = p["type"]
    if SU.active(st):
        return SU.legal(st, seat)
    if t == "reinforce":
        return TR.legal(st, seat)
    if ext(st)["fights"]:
        return C.legal(st, seat)
    if t == "opportunity_fire":
        return [
            {"type": "opportunity_fire", "seat": seat, "unit": w, "target": p["hex"]}
            for w in p["shooters"]
        ] + [{"type": "hold_fire", "seat": seat}]
    return M.command_actions(st, seat) + K.actions(st, seat) + [{"type": "end_turn", "seat": seat}]


def apply_action(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    p = st.pending
    if p is None:
        raise IllegalAction("game_over", "the game is over")
    t = action.get("type")
    if t == "roll":
        if p["type"] != "roll":
            raise IllegalAction("not_a_chance_node", "no dice are to be rolled now")
        C.resolve(st, roll_faces(st, action), events)
    else:
        if action.get("seat") != p["seat"]:
            raise IllegalAction("not_your_turn", f"waiting for {p['seat']} ({p['type']})")
        if SU.active(st):
            SU.apply(st, action, events)
        elif p["type"] == "reinforce":
            if t != "reinforce":
                raise IllegalAction("unknown_action", "place the supply train's units")
            TR.apply_reinforce(st, action, events)
        elif ext(st)["fights"]:
            C.apply(st, action, events)
        elif p["type"] == "opportunity_fire":
            if t not in ("opportunity_fire", "hold_fire"):
                raise IllegalAction("unknown_action", "opportunity_fire or hold_fire expected")
            MV.opfire_decision(st, action, events)
        else:
            h = K.play if t == "play_card" else M.HANDLERS.get(str(t))
            if h is None:
                raise IllegalAction("unknown_action", f"unknown action type {t!r}")
            h(st, action, events)
    advance(st, events)
    refresh(st)


def advance(st: GameState, events: list[dict[str, Any]]) -> None:
    """Run what needs no decision: a move after an opportunity fire, the end of a turn
    when the CP are spent and the current unit is done or nothing may be ordered (2.3)."""
    prune(st)
    if SU.active(st) or ext(st).get("supply_train"):
        return
    for _ in range(8):
        if st.game_over or ext(st)["fights"]:
            return
        m = ext(st)["move"]
        if m is not None:
            if m["window"]:
                return
            MV.after_opfire(st, events)
            continue
        if M.anything_to_do(st):
            return
        end_turn(st, events, "no_orders" if ext(st)["cp"] else "cp_spent")


def apply(st: GameState, action: dict[str, Any]) -> tuple[GameState, list[dict[str, Any]]]:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("malformed_action", "an action is a JSON object with a 'type'")
    new = st.clone()
    events: list[dict[str, Any]] = []
    apply_action(new, action, events)
    new.seq += 1
    return new, events
